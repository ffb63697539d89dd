"""The JSON contract (schema uapcheck/1): one object per checked file."""
from __future__ import annotations

import json

import sympy

from .. import proof
from .verdict_lines import layers_least, least_classes

SCHEMA = "uapcheck/1"


def group_json(group):
    if group is None:
        return None
    from ..bignum import json_order
    out = {"name": group.name, "order": json_order(group.order_value), "generators": [list(g) if not isinstance(g, str) else g
                                                                    for g in group.generators],
           "condition": group.condition or None}
    if group.classes:  # G depends on n mod L (docs/language.md, "JSON output")
        out["classes"] = [_class_json(c) for c in group.classes]
    return out


def _class_json(cls) -> dict:
    """One residue class of a group by class (docs/language.md §8): n mod L among the residues, and its group."""
    from ..bignum import json_order
    g = cls.group
    return {"modulus": cls.modulus, "residues": list(cls.residues), "name": g.name, "order": json_order(g.order_value),
            "generators": [list(x) if not isinstance(x, str) else x for x in g.generators]}


def result_json(result) -> dict:
    from .spoken import spoken
    result = spoken(result)  # the file's name for the length in every statement
    ids = proof.number_steps(result.root)
    steps = []
    for s in result.root.walk():
        steps.append({"id": ids[id(s)], "rule": s.rule, "claim": s.claim, "status": s.status,
                      "premises": [ids[id(p)] for p in s.premises], "evidence": s.evidence,
                      "cite": s.cite, "notes": list(s.notes), "provenance": s.citation.to_json(),
                      "facts": s.facts_json, "certificate": s.certificate_json})
    layers = result.layers
    if layers is not None and not isinstance(layers, int):
        layers = sympy.sstr(layers)
    spec = result.spec
    expect = None
    if spec.expect is not None:
        expect = {"text": spec.expect.text, "holds": result.expect_holds, "reason": result.expect_reason or None}
    out = {"schema": SCHEMA, "file": spec.path, "architecture": spec.architecture, "verdict": result.verdict,
            "group": group_json(result.group) if result.verdict == "UAP" else None, "layers": layers,
            "least": layers_least(result),
            "expect": expect, "steps": steps, "target": _target_json(result),
            "alternative": result.alternative.record() if getattr(result, "alternative", None) else None}
    least_on = least_classes(result)
    if least_on:  # a count least on these residue classes only (docs/theory.md §12)
        out["least_classes"] = {"modulus": least_on[0], "residues": list(least_on[1])}
    others = result.root.facts.get("by_class", ())
    if others:  # residue classes of n with another verdict than the stated range's (docs/language.md §8)
        from ..show import show_condition
        out["by_class"] = [{"condition": show_condition(cond), "verdict": verdict.value} for cond, verdict in others]
    where = result.root.facts.get("range")
    if where is not None:  # the range a NOT-UAP verdict is stated for: its obstruction's (docs/language.md §8)
        from ..show import show_condition
        out["range"] = show_condition(where)
    below = result.root.facts.get("below_range", ())
    if below:  # each length below the stated range, decided at that n (docs/language.md §8)
        out["below_range"] = [r.to_json() for r in below]
    return out


def _target_json(result) -> dict:
    """The target class the verdict is about, as data (docs/theory.md §14)."""
    outcome = getattr(result, "target", None)
    if outcome is None:
        return {"class": "equivariant", "declared": result.spec.target}
    out = {"class": outcome.target, "declared": result.spec.target, "least": outcome.least}
    record = outcome.record()
    if "range" in record:  # a count at symbolic n proved for a range, with the lengths below it (§14.9)
        out["range"], out["below_range"] = record["range"], record["below_range"]
        if "below_pieces" in record:  # a range with params: the lengths below it in closed form (TGT-BELOW)
            out["below_pieces"] = record["below_pieces"]
    return out


def error_json(path: str, err) -> dict:
    return {"schema": SCHEMA, "file": path, "error": {"line": err.line, "column": err.column, "message": err.message}}


def dumps(obj: dict) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False)
