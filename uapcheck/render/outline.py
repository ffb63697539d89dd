"""The derivation as an outline: the walk every printer shares.

Each conclusion is followed by its premises, one level deeper. A step that is a premise of several
conclusions is shown in full at its first place in reading order and afterwards as a reference. Sibling
steps that say the same thing about different heads (the same rule, status and claim once the head's
label is set aside, with premises that agree the same way) are shown once, with the heads named.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import proof


def _label_prefix(step: proof.Step):
    """The words "head NAME: " a step's claim opens with when its rule ran for head NAME (Step.head,
    set by the orchestrator), else None. The name is typed; the claim is only checked to open with it."""
    if step.head is None:
        return None
    prefix = f"head {step.head}: "
    return prefix if step.claim.startswith(prefix) else None


@dataclass(frozen=True)
class Line:
    """One line of the outline: a step at a depth, or a reference to a step shown earlier."""
    step: proof.Step
    depth: int
    repeat: bool            # shown in full above; this line only refers to it
    heads: tuple[str, ...]  # the heads this line stands for when identical siblings were collapsed

    @property
    def claim(self) -> str:
        """The claim, with the collapsed heads named in place of the first one's label."""
        claim = self.step.claim
        prefix = _label_prefix(self.step)
        if len(self.heads) > 1 and prefix is not None:
            return f"heads {', '.join(self.heads)}: " + claim[len(prefix):]
        return claim


def _shape(step: proof.Step) -> tuple:
    """What a step says, with the head's label set aside (for collapsing identical heads)."""
    prefix = _label_prefix(step)
    claim = step.claim if prefix is None else step.claim[len(prefix):]
    return (step.rule, step.status, claim, tuple(_shape(p) for p in step.premises))


def _head(step: proof.Step):
    return step.head if _label_prefix(step) is not None else None


def _group_siblings(steps) -> list[tuple[proof.Step, tuple[str, ...]]]:
    groups: list[tuple[proof.Step, list[str]]] = []
    index: dict[tuple, int] = {}
    for step in steps:
        label = _head(step)
        key = _shape(step)
        if label is not None and key in index:
            groups[index[key]][1].append(label)
            continue
        if label is not None:
            index[key] = len(groups)
        groups.append((step, [label] if label is not None else []))
    return [(step, tuple(labels)) for step, labels in groups]


def outline(root: proof.Step) -> list[Line]:
    lines: list[Line] = []
    shown: set[int] = set()

    def go(step: proof.Step, depth: int, heads: tuple[str, ...]) -> None:
        if id(step) in shown:
            lines.append(Line(step, depth, True, heads))
            return
        shown.add(id(step))
        lines.append(Line(step, depth, False, heads))
        for premise, labels in _group_siblings(step.premises):
            go(premise, depth + 1, labels)

    go(root, 0, ())
    return lines


def flatten_evidence(value, prefix: str = "") -> list[tuple[str, str]]:
    """Evidence as (key path, value) lines of plain text: nested records become dotted keys, lists of
    plain values become comma-separated text. Nothing is cut."""
    if isinstance(value, dict):
        out: list[tuple[str, str]] = []
        for key, item in value.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            if key == "generators" and not item and str(value.get("order", 1)) not in ("1", "None"):
                out.append((path, "not listed (the group is stated by its structure)"))  # a non-trivial group
                continue
            out.extend(flatten_evidence(item, path))
        return out
    if isinstance(value, (list, tuple)):
        if all(not isinstance(v, (dict, list, tuple)) for v in value):
            return [(prefix, ", ".join(_plain(v) for v in value) if value else "none")]
        out = []
        for i, item in enumerate(value, start=1):
            out.extend(flatten_evidence(item, f"{prefix}[{i}]"))
        return out
    return [(prefix, _plain(value))]


def _plain(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
