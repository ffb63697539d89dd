"""The text report: the verdict first, in a panel, then the derivation as an outline.

The default is compact (one line per step, the heads that say the same thing shown once); `--full`
adds the attention heads' source lines (highlighted) and each step's evidence, notes and citation,
with nothing cut; `--short` is one line per file.
"""
from __future__ import annotations

from typing import Optional

from rich.cells import cell_len, get_character_cell_size
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
    from .spoken import spoken
    result = spoken(result)  # the file's name for the length in every statement
    body = [Text(headline(result), style=VERDICT_STYLE[result.verdict]), Text(reason(result))]
    line = expect_line(result)
    if line is not None:
        body.append(Text(line, style="green" if result.expect_holds else "bold red"))
    hint = suggestion_line(suggestion)
    if hint is not None:
        body.append(Text(hint, style="cyan"))
    return Panel(Group(*body), title="verdict", expand=False)


def _step_line(line, ids: dict, full: bool, room: Optional[int] = None) -> Text:
    """One step of the outline; `room`: the cells of the line it is printed on, cut there with an ellipsis (the
    compact outline), None when it is printed whole."""
    mark, style = STATUS_STYLE[line.step.status]
    text = Text()
    text.append(f"[{ids[id(line.step)]}] ", style="bold")
    text.append(f"{mark} ", style=style)
    text.append(line.step.rule, style="cyan")
    if line.repeat:
        text.append("  (derived above)", style="dim")
        return text
    text.append("  ")
    text.append(line.claim if room is None else shown_part(line.claim, room - cell_len(text.plain)))
    return text


def shown_part(words: str, room: int) -> str:
    """What rich shows of `words` printed on a line with `room` cells left for them and cut with an ellipsis
    (no_wrap, overflow "ellipsis"): the words themselves when they fit or when their characters are not all simple,
    else the words cut to `room` − 1 cells and "…" (a character of two cells across the cut becomes a space, as rich
    does it). Simple: no line break or tab (a break starts another line, a tab is expanded), and each of the first
    `room` + 2 characters is one grapheme of at least one cell (no zero-width character, joiner or variation
    selector, which rich joins to a neighbour). Rich measures a long line grapheme by grapheme before it cuts it (a
    third of the time the compact outline took); the words come cut as rich cuts them, so it has nothing to cut.
    """
    keep = room + 2
    if room < 2 or len(words) <= keep or "\n" in words or "\t" in words:
        return words
    widths = [get_character_cell_size(c) for c in words[:keep]]
    if min(widths) < 1:
        return words
    used, cut = 0, 0
    while used + widths[cut] <= room - 1:
        used += widths[cut]
        cut += 1
    return words[:cut] + " " * (room - 1 - used) + "…"


def render(result, console: Console, full: bool = False, suggestion=None) -> None:
    from .spoken import spoken
    result = spoken(result)  # the file's name for the length in every statement
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
    if not full:  # one call for the whole outline (rich's cost per call is paid once)
        if lines:
            console.print(*(Padding(_step_line(line, ids, full, console.width - len(INDENT) * line.depth),
                                    (0, 0, 0, len(INDENT) * line.depth)) for line in lines),
                          no_wrap=True, overflow="ellipsis")
        return
    for line in lines:
        indent = len(INDENT) * line.depth
        console.print(Padding(_step_line(line, ids, full), (0, 0, 0, indent)))
        if line.repeat:
            continue
        details = [Text(f"{key}: {value}", style="dim") for key, value in flatten_evidence(dict(line.step.evidence))]
        details += [Text(f"note: {note}", style="italic") for note in line.step.notes]
        details.append(Text(f"cite: {line.step.citation.display()}", style="dim italic"))
        console.print(Padding(Group(*details), (0, 0, 0, indent + 2 * len(INDENT))))


def short_line(path: str, result) -> str:
    """`path: UAP · G = S_n · 1 attention layer`, with a failed expect after it."""
    from .spoken import spoken
    result = spoken(result)  # the file's name for the length in every statement
    text = f"{path}: {headline(result)}"
    if result.expect_holds is False:
        text += f"  [expect FAILS: {result.expect_reason}]"
    return text
