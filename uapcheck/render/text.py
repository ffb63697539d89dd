"""The text report: the derivation as a numbered tree, then the verdict in a panel."""
from __future__ import annotations

import json

from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text
from rich.tree import Tree

from .. import proof
from .verdict_lines import headline, reason

STATUS_STYLE = {proof.PROVED: ("✔", "green"), proof.REFUTED: ("✘", "red"), proof.UNDECIDED: ("?", "yellow")}
VERDICT_STYLE = {"UAP": "bold green", "NOT-UAP": "bold red", "INCONCLUSIVE": "bold yellow", "ILL-POSED": "bold magenta"}


def _evidence_lines(evidence, limit: int = 6) -> list[str]:
    lines = []
    for key, value in list(evidence.items())[:limit]:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
        if len(text) > 160:
            text = text[:157] + "..."
        lines.append(f"{key}: {text}")
    return lines


def _node(step: proof.Step, ids: dict, tree) -> None:
    mark, style = STATUS_STYLE[step.status]
    label = Text()
    label.append(f"[{ids[id(step)]}] ", style="bold")
    label.append(f"{mark} ", style=style)
    label.append(step.rule, style="cyan")
    label.append(f"  {step.claim}")
    branch = tree.add(label)
    for line in _evidence_lines(step.evidence):
        branch.add(Text(line, style="dim"))
    for note in step.notes:
        branch.add(Text("note: " + note, style="italic"))
    branch.add(Text("cite: " + step.cite, style="dim italic"))
    for p in step.premises:
        _node(p, ids, branch)


def render(result, console: Console) -> None:
    ids = proof.number_steps(result.root)
    spec = result.spec
    tree = Tree(Text(f"{spec.path} · {spec.architecture}", style="bold"))
    _node(result.root, ids, tree)
    console.print(tree)
    body = [Text(headline(result), style=VERDICT_STYLE[result.verdict])]
    body.append(Text(reason(result)))
    if spec.expect is not None:
        ok = result.expect_holds
        body.append(Text(f"expect {spec.expect.text}: " + ("holds" if ok else f"FAILS ({result.expect_reason})"),
                         style="green" if ok else "bold red"))
    console.print(Panel(Group(*body), title="verdict", expand=False))
