"""Print a Simulation: a short human summary, or JSON (schema uapcheck-simulate/1)."""
from __future__ import annotations

import math

from .run import Simulation

SCHEMA = "uapcheck-simulate/1"
NOTE = "numeric evidence on random networks of the family, not a proof"


def _mark(holds) -> str:
    return {True: "✔", False: "✘", None: "·"}[holds]


def text_lines(sim: Simulation) -> list[str]:
    # the values chosen for the file's symbolic quantities, except the size and dimension the line states
    inst = ", ".join(f"{k} = {v}" for k, v in sim.instance.items()
                     if not (k == "n" and v == sim.n) and not (k == "d" and v == sim.d))
    head = (f"simulation at n = {sim.n}, d = {sim.d}, seed {sim.seed}, {sim.samples} samples per experiment"
            + (f" ({inst})" if inst else ""))
    lines = [head, f"derivation at this size: {sim.derived}"]
    if not sim.demonstrations:
        lines.append("  no experiment applies to this verdict")
    for demo in sim.demonstrations:
        lines.append(f"  {_mark(demo.holds)} {demo.title}")
        lines.extend(f"      {line}" for line in demo.lines)
    outcome = ("every experiment agrees with the verdict" if sim.consistent
               else "AN EXPERIMENT CONTRADICTS THE VERDICT")
    lines.append(f"{outcome} ({NOTE}; {sim.seconds:.1f} s)")
    return lines


def render_text(sim: Simulation) -> str:
    return "\n".join([f"{sim.path} · {sim.architecture} · simulate", *text_lines(sim)])


def _clean(value):
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item"):  # numpy scalars
        return _clean(value.item())
    return value


def to_json(sim: Simulation) -> dict:
    return _clean({
        "schema": SCHEMA, "file": sim.path, "architecture": sim.architecture, "verdict": sim.verdict,
        "derived": sim.derived, "n": sim.n, "d": sim.d, "seed": sim.seed, "samples": sim.samples,
        "instance": sim.instance, "consistent": sim.consistent, "note": NOTE,
        "demonstrations": [{"kind": d.kind, "title": d.title, "holds": d.holds, "lines": d.lines,
                            "data": d.data} for d in sim.demonstrations],
    })
