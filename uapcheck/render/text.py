"""The text report: the verdict first, in a panel, then the derivation as an outline.

The default is compact (one line per step, the heads that say the same thing shown once); `--full`
adds the attention heads' source lines (highlighted) and each step's evidence, notes and citation,
with nothing cut; `--short` is one line per file.
"""
from __future__ import annotations

from rich.console import Console, Group
from rich.padding import Padding
from rich.panel import Panel
from rich.text import Text

from .. import proof
from . import source
from .outline import flatten_evidence, outline
from .verdict_lines import expect_line, headline, reason, suggestion_line

STATUS_STYLE = {proof.PROVED: ("✔", "green"), proof.REFUTED: ("✘", "red"), proof.UNDECIDED: ("?", "yellow")}
VERDICT_STYLE = {"UAP": "bold green", "NOT-UAP": "bold red", "INCONCLUSIVE": "bold yellow", "ILL-POSED": "bold magenta"}
INDENT = "  "


def verdict_panel(result, suggestion=None) -> Panel:
    body = [Text(headline(result), style=VERDICT_STYLE[result.verdict]), Text(reason(result))]
    line = expect_line(result)
    if line is not None:
        body.append(Text(line, style="green" if result.expect_holds else "bold red"))
    hint = suggestion_line(suggestion)
    if hint is not None:
        body.append(Text(hint, style="cyan"))
    return Panel(Group(*body), title="verdict", expand=False)


def _step_line(line, ids: dict, full: bool) -> Text:
    mark, style = STATUS_STYLE[line.step.status]
    text = Text()
    text.append(f"[{ids[id(line.step)]}] ", style="bold")
    text.append(f"{mark} ", style=style)
    text.append(line.step.rule, style="cyan")
    if line.repeat:
        text.append("  (derived above)", style="dim")
        return text
    text.append(f"  {line.claim}")
    return text


def render(result, console: Console, full: bool = False, suggestion=None) -> None:
    ids = proof.number_steps(result.root)
    spec = result.spec
    console.print(Text(f"{spec.path} · {spec.architecture}", style="bold"))
    console.print(verdict_panel(result, suggestion))
    if full:
        for quote in source.head_quotes(spec):
            console.print(source.terminal(quote))
    lines = outline(result.root)
    hint = "" if full else " (--full shows the evidence and citations)"
    console.print(Text(f"derivation, {len(ids)} steps{hint}", style="bold"))
    for line in lines:
        indent = len(INDENT) * line.depth
        if not full:
            console.print(Padding(_step_line(line, ids, full), (0, 0, 0, indent)), no_wrap=True, overflow="ellipsis")
            continue
        console.print(Padding(_step_line(line, ids, full), (0, 0, 0, indent)))
        if line.repeat:
            continue
        details = [Text(f"{key}: {value}", style="dim") for key, value in flatten_evidence(dict(line.step.evidence))]
        details += [Text(f"note: {note}", style="italic") for note in line.step.notes]
        details.append(Text(f"cite: {line.step.citation.display()}", style="dim italic"))
        console.print(Padding(Group(*details), (0, 0, 0, indent + 2 * len(INDENT))))


def short_line(path: str, result) -> str:
    """`path: UAP · G = S_n · 1 attention layer`, with a failed expect after it."""
    text = f"{path}: {headline(result)}"
    if result.expect_holds is False:
        text += f"  [expect FAILS: {result.expect_reason}]"
    return text
