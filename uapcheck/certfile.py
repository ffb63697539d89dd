"""Certificate files (`uapcheck FILE --certificate OUT.json`): every step of a derivation with the
data an independent checker needs, and the input's text and SHA-256 hash.

Schema `uapcheck-certificate/1` (docs/theory.md §Certificates):

    {"schema": "uapcheck-certificate/1", "uapcheck": VERSION,
     "input": {"path", "sha256", "text"},
     "verdict", "group": {"name", "order", "generators"} | null, "layers": TREE | null,
     "patterns": {"n", "heads": [{"arcs": [[j, i], ...]}]} | null,      (integer n ≤ 256)
     "steps": [{"id", "rule", "claim", "status", "premises", "cite", "provenance", "evidence", "data",
                "certificate", "facts"}]}

`evidence` is the step's JSON evidence as the report prints it; `data` holds the typed facts the
verifier (uapcheck/verifier/) re-checks: witness points, distance arrays, generators, a view witness,
exact values as expression trees (uapcheck/verifier/trees.py). This module may use the engines; the
verifier may not.
"""
from __future__ import annotations

import hashlib
import json
import re
from fractions import Fraction
from typing import Any, Optional

from . import __version__, proof
from .certificates import ViewWitness
from .verifier.trees import TreeError, encode, encode_condition

SCHEMA = "uapcheck-certificate/1"
MAX_ARCS_N = 256  # arcs and all-pairs distances are written up to this many tokens


def source_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _tree(value) -> Any:
    try:
        return encode(_without_residue_cases(value))
    except (TreeError, TypeError):
        return None


def _without_residue_cases(value) -> Any:
    """A Piecewise over residues of n (Theorem F11's diameter and layer count, integer pieces; Theorem
    F12's, pieces ⌊n/(2s)⌋ + h) as floors, which trees carry: Σ_r (the piece for r)·[n ≡ r (mod s)] with
    [n ≡ r (mod s)] = ⌊(n − r)/s⌋ − ⌊(n − r − 1)/s⌋. Anything else unchanged."""
    import sympy
    if isinstance(value, sympy.Basic) and value.has(sympy.Piecewise) and not isinstance(value, sympy.Piecewise):
        folded = sympy.piecewise_fold(value)  # D + 1 with D by residue: one Piecewise over the residues
        value = folded if isinstance(folded, sympy.Piecewise) else value
    if not isinstance(value, sympy.Piecewise) or any(e.has(sympy.Mod, sympy.Piecewise) for e, _ in value.args):
        return value
    mods = {m for m in value.atoms(sympy.Mod) if m.args[1].is_Integer}
    if len(mods) != 1:
        return value
    mod = mods.pop()
    n, s = mod.args[0], int(mod.args[1])
    out = sympy.Integer(0)
    for r in range(s):
        at = {n: sympy.Integer(s * 10 ** 6 + r)}
        piece = next((e for e, c in value.args if c.xreplace(at) is sympy.true), None)
        if piece is None or not piece.xreplace(at).is_Integer:
            return value
        out += piece * (sympy.floor((n - r) / s) - sympy.floor((n - r - 1) / s))
    return out


def _number(value) -> Any:
    """An exact number from the evidence as a tree: ints, and the rationals the engines print as
    "p/q" (digits only); anything else (a symbolic value) is left out."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,400}(/\d{1,400})?", value):
        f = Fraction(value)
        return f.numerator if f.denominator == 1 else {"q": [f.numerator, f.denominator]}
    return None


def _power(term) -> Any:
    if term == "log t":
        return "log"
    if isinstance(term, str) and re.fullmatch(r"t\^\d{1,3}", term):
        return int(term[2:])
    if isinstance(term, str) and re.fullmatch(r"t\^\d{1,2}/\d{1,2}", term):
        return term[2:]  # a fractional power (√(x·z) t^(1/2)), "p/q"
    return None


def _lim_data(ev: dict) -> dict:
    regions = []
    for name, item in ev.items():
        if not isinstance(item, dict) or "status" not in item:
            continue
        region = {"region": name, "status": item["status"]}
        wit = item.get("witness") or {}
        if "points" in wit:
            region["points"] = [{"x": p["x"], "z1": p["z1"], "z2": p["z2"], "power": _power(p.get("term")),
                                 "difference": _number(p.get("coefficient difference")),
                                 **({"sign class": p["sign class"]} if "sign class" in p else {})}
                                for p in wit["points"]]
        elif "limit of the ratio" in wit:
            region["finite limit"] = {"x": wit["x"], "z1": wit["z1"], "z2": wit["z2"],
                                      "limit": _number(wit["limit of the ratio"])}
        regions.append(region)
    data: dict = {"regions": regions}
    if "region" in ev:
        data["chosen region"] = ev["region"]
    return data


def _graphs(spec):
    from .graphs import build_graph
    return [build_graph(h.pattern, spec.tokens, {}) for h in spec.heads]


def _outs(graphs, n):
    outs = [set() for _ in range(n + 1)]
    for g in graphs:
        for j, i in g.arcs():
            outs[j].add(i)
    return [sorted(s) for s in outs]


def _pattern_data(step: proof.Step, spec, cache: dict) -> Optional[dict]:
    if "pattern spec" not in cache:
        # the spec the derivation's pattern steps decide: the normal forms (PAT-NORMAL, §11.13), positions in the
        # weights as the bias kind with their classes; re-reading another spec would state another pattern's facts
        from .derive import pattern_spec
        normal, _, fixed = pattern_spec(spec)
        cache["pattern spec"] = (normal, fixed)
        # read from the spec as written: in the pattern spec every position term has become a bias kind
        cache["position terms"] = any(h.position is not None for h in spec.heads)
    spec = cache["pattern spec"][0]
    n = spec.tokens
    ev = step.evidence
    if not isinstance(n, int):
        return _symbolic_pattern_data(step, spec, cache)
    if step.rule == "PAT-LAYERS":
        return _layers_data(ev, spec, step.certificate, step.facts)
    if step.rule == "SYM-AUT":
        return {**_group_data(ev, step, spec, n), **_periodic_at_length(step)}
    if n > MAX_ARCS_N:
        return _large_pattern_data(step)
    from .verifier.patterns import bfs
    if "outs" not in cache:
        cache["outs"] = _outs(_graphs(spec), n)
    outs = cache["outs"]
    if step.rule == "PAT-CONNECTED" and isinstance(ev.get("diameter"), int):
        pair = ev.get("realised by") or {}
        return {"diameter": ev["diameter"], "pair": [pair.get("from j"), pair.get("to i")],
                "distances": {str(s): bfs(outs, s) for s in range(1, n + 1)}}
    if step.rule == "PAT-DISCONNECTED":
        wit = ev.get("witness") or {}
        i = wit.get("i")
        ins = [[] for _ in range(n + 1)]
        for j0, succ in enumerate(outs):
            for i0 in succ:
                ins[i0].append(j0)
        reach = sorted(v for v, d in enumerate(bfs(ins, i)) if d is not None and v >= 1)
        return {"i": i, "j": wit.get("j"), "reach": reach}
    if step.rule == "PAT-BUDGET":
        wit = ev.get("witness") or {}
        j = wit.get("j")
        return {"i": wit.get("i"), "j": j, "distance": wit.get("distance from j to i"),
                "budget": ev.get("budget"), "distances": bfs(outs, j) if isinstance(j, int) else None}
    return None



def _group_data(ev: dict, step: proof.Step, spec, n: int) -> dict:
    """SYM-AUT at an integer n: the name, the exact order and the generators (image lists)."""
    gens, order = ev.get("generators"), ev.get("order")
    if not isinstance(gens, list):  # the evidence lists few; the kernel's certificate has them all (n ≤ 4,096)
        kernel = getattr(step, "certificate_json", None) or {}
        gens = kernel.get("generators") if kernel.get("kind") == "automorphism-generators" else None
        if gens is not None and not isinstance(order, int) and isinstance(kernel.get("order"), int):
            order = kernel["order"]  # the evidence prints a long order in a bounded form
    if (not isinstance(gens, list) or not isinstance(order, int)) and n <= MAX_ARCS_N:
        from .graphs import symmetry_group
        grp = symmetry_group(_graphs(spec), [h.bias for h in spec.heads], spec.positional)
        gens = [list(g) for g in grp.generators] if grp.generators is not None else None
        order = int(grp.order)
    if not isinstance(order, int) and isinstance(ev.get("block group order"), int):
        order = _lifted_order(ev, spec)
    listed = isinstance(gens, list) and all(isinstance(g, list) for g in gens)  # image lists, not "(1 2)"
    data = {"name": ev.get("name"), "order": order if isinstance(order, (int, dict)) else None,
            "generators": gens if listed else None}
    structure = _named_structure(ev.get("name"), spec) if listed else None
    if structure is not None:
        data["structure"] = structure
    return data

def _named_structure(name, spec, graphs=None) -> Optional[dict]:
    """The typed factors behind a group named by its structure (recomputed: the step keeps only the words),
    when the recomputed group's name is the printed one; None for a standard or other name."""
    from .groups import NamedGroup
    if not isinstance(name, str) or name in {g.value for g in NamedGroup} or name.startswith("stabilizer") \
            or not isinstance(spec.tokens, int) or spec.tokens > MAX_ARCS_N:
        return None
    from .graphs import symmetry_group
    if graphs is None:
        grp = symmetry_group(_graphs(spec), [h.bias for h in spec.heads], spec.positional)
    else:
        grp = symmetry_group(graphs)
    if grp.structure != name or grp.structure_parts is None:
        return None
    return grp.structure_parts.to_json()


def _sequence_structure(name, spec) -> Optional[dict]:
    """`_named_structure` for the group of a per-layer sequence (every layer's heads, as SEQ-GROUP)."""
    if not isinstance(spec.tokens, int) or spec.tokens > MAX_ARCS_N or not isinstance(name, str):
        return None
    from .rules.layers import _network_layers, build_sequence
    seq, _ = _network_layers(build_sequence(spec), spec.layers if isinstance(spec.layers, int) else None)
    return _named_structure(name, spec, seq.distinct_graphs())


def _layers_data(ev: dict, spec, certificate=None, facts=None) -> dict:
    """D, the layer count, `least` and the view witness as a permutation of 1..n (from the step's
    certificate when it holds σ in full, as the evidence lists at most 64 moved points; else a swap
    written out, or a witness on blocks lifted to the positions). D and the count are integers, or expression trees
    when a param sizes the pattern (`tokens 64` with `window(w) cyclic`: ⌈32/w⌉ + 1), as the certificate's own
    `layers` is written (the evidence holds them as printed text)."""
    n = spec.tokens
    facts = facts or {}

    def count(key: str):
        value = ev.get(key)
        return value if value is None or isinstance(value, int) or facts.get(key) is None else _tree(facts[key])
    data = {"diameter": count("diameter"), "layers": count("layers"), "least": ev.get("least")}
    wit = ev.get("view witness")
    if isinstance(wit, dict):
        perm = wit.get("permutation")
        if perm is None and isinstance(certificate, ViewWitness) and certificate.position == wit.get("position"):
            perm = [int(v) for v in certificate.permutation]
        if perm is None and "swap" in wit:
            a, b = wit["swap"]
            perm = [b if k == a else a if k == b else k for k in range(1, n + 1)]
        if perm is None and isinstance(wit.get("block permutation"), list):
            perm = _lift_blocks(wit["block permutation"], spec)
        data["view witness"] = {"position": wit.get("position"), "permutation": perm}
    return data


def _large_pattern_data(step: proof.Step) -> Optional[dict]:
    """Above MAX_ARCS_N no arcs or distance arrays are written: the witness and the stated diameter."""
    ev = step.evidence
    if step.rule == "PAT-DISCONNECTED":
        wit = ev.get("witness") or {}
        out = {"i": wit.get("i"), "j": wit.get("j")}
        if step.facts.get("residue_class") is not None:  # NOT-UAP on these classes only (docs/theory.md §12)
            out["classes"] = {"modulus": step.facts["modulus"], "residues": list(step.facts["residues"])}
        return out
    if step.rule == "PAT-CONNECTED":
        pair = ev.get("realised by") or {}
        diameter = ev.get("diameter")
        fact = step.facts.get("diameter")
        if step.facts.get("exact") is False and (isinstance(fact, int) or getattr(fact, "is_Integer", False)):
            # a family theorem that bounds D only (F50, F51; F101 where F168 gives no D): the bound, and no diameter
            return {"diameter": None, "diameter bound": int(fact), "pair": [None, None]}
        if diameter is None and (isinstance(fact, int) or getattr(fact, "is_Integer", False)):
            # a family theorem or a closed form at this n states it as a fact (§11.11), an int or a SymPy Integer
            diameter = int(fact)
        return {"diameter": diameter, "pair": [pair.get("from j"), pair.get("to i")]}
    return None


def _lifted_order(ev: dict, spec) -> Optional[int]:
    """|G| of a `blockwise(b)` pattern, as an expression tree (a product of factorials), from the block
    group's order and its closed-twin classes (the evidence lists the classes of two or more blocks;
    every other block is a class of its own): |G| = |Aut(quotient)| · ∏ (b·|C|)!."""
    from . import spec as S
    pats = [h.pattern for h in spec.heads]
    if not pats or not all(isinstance(p, S.Blockwise) for p in pats) or len({p.b for p in pats}) != 1:
        return None
    b = pats[0].b
    classes = [list(c) for c in ev.get("closed-twin classes of blocks") or []]
    seen = {k for c in classes for k in c}
    classes += [[k] for k in range(1, spec.tokens // b + 1) if k not in seen]
    try:
        from .graphs.blockwise import quotient_order
        q = quotient_order(ev["block group order"], classes)
    except ArithmeticError:
        return None
    # a product of factorials: the integer itself can exceed what JSON numbers carry
    return {"op": "*", "args": [q] + [{"op": "factorial", "args": [b * len(c)]} for c in classes]}


def _lift_blocks(block_perm: list, spec) -> Optional[list]:
    """A view witness on the blocks of a `blockwise(b)` pattern as a permutation of the positions: a
    swap [a, c] of two blocks, or an image list of the blocks, applied to whole blocks in order."""
    from . import spec as S
    sizes = {h.pattern.b for h in spec.heads if isinstance(h.pattern, S.Blockwise)}
    if len(sizes) != 1 or len(spec.heads) != sum(isinstance(h.pattern, S.Blockwise) for h in spec.heads):
        return None
    b = sizes.pop()
    nb = spec.tokens // b
    if len(block_perm) == 2:
        a, c = block_perm
        images = [c if k == a else a if k == c else k for k in range(1, nb + 1)]
    elif len(block_perm) == nb:
        images = block_perm
    else:
        return None
    return [(images[(p - 1) // b] - 1) * b + (p - 1) % b + 1 for p in range(1, spec.tokens + 1)]


def _symbolic_pattern_data(step: proof.Step, spec, cache: dict) -> Optional[dict]:
    if "outcome" not in cache:
        from .rules import pattern
        cache["outcome"] = pattern.pattern_premises(spec, cache["pattern spec"][1])
    out = cache["outcome"]
    ev = step.evidence
    data: Optional[dict] = None
    if step.rule == "PAT-CONNECTED":
        data = {"diameter": _tree(out.diameter)}
        if out.diameter is None:
            data.update(_bound_data(step))
    if step.rule == "PAT-LAYERS":
        # the step's own count: with a position term in the weights it may exceed the plain patterns' (window(1)
        # with a reweight whose classes break the reflection: n, not n − 1), which `pattern_premises` recomputes
        import sympy
        stated = step.facts.get("layers")
        from .certificates import CompleteHeadAlone
        layers = stated if isinstance(stated, sympy.Basic) and cache["position terms"] or \
            isinstance(step.certificate, CompleteHeadAlone) else out.layers  # F141: one layer, whatever the union's
        data = {"diameter": _tree(out.diameter), "layers": _tree(layers), "least": ev.get("least")}
        if out.diameter is None:
            data.update(_bound_data(step))
        if ev.get("least classes"):  # least on these residue classes of n only (docs/theory.md §12)
            data["least classes"] = ev["least classes"]
    if step.rule == "PAT-DISCONNECTED":
        wit = ev.get("witness") or {}
        out = {"i": wit.get("i"), "j": wit.get("j")}
        if step.facts.get("residue_class") is not None:  # NOT-UAP on these classes only (docs/theory.md §12)
            out["classes"] = {"modulus": step.facts["modulus"], "residues": list(step.facts["residues"])}
        return out
    if step.rule == "SYM-AUT":
        data = {"name": ev.get("name")}
        from .certificates import HeadIntersection
        if isinstance(step.certificate, HeadIntersection) and not ev.get("classes"):
            # Theorems F35–F39: the stated class's order (the verifier compares it with the class's elements), so a
            # group named by its structure states its order as a standard name's does
            data["order"] = _tree(step.certificate.order)
        if ev.get("classes"):  # G by residue class of n: each class's stated group
            data["classes"] = [{"residues": c["residues"], "name": c["name"],
                                "order": _class_order(step.certificate, c["residues"], c["order"])}
                               for c in ev["classes"]]
    theorem = _family_theorem(spec, cache)
    several = len({h.pattern for h in spec.heads}) > 1
    if data is not None and theorem is not None and not (several and step.rule == "SYM-AUT"):
        data.update(_family_data(step, theorem))  # several heads: the union's theorem states D, not G
    from .certificates import HeadLayers, LabelledWindowRange
    if data is not None and isinstance(step.certificate, HeadLayers):
        data["from"] = step.certificate.found.low  # Theorems F70–F71: the heads' range, at or above the union's
    if data is not None and isinstance(step.certificate, LabelledWindowRange):
        data["from"] = step.certificate.low  # Theorem F140: D layers, least, for n ≥ w + 2 (below, the window is complete)
    return data


def _bound_data(step: proof.Step) -> dict:
    """A connectivity step that proves an upper bound on D only (a closed form's bound from a spanning part,
    docs/theory.md §11.11): the bound as `diameter bound`, and no diameter; PAT-LAYERS reads it off its premise."""
    connected = step if step.rule == "PAT-CONNECTED" else next(
        (p for p in step.premises if p.rule == "PAT-CONNECTED"), None)
    if connected is None or connected.facts.get("exact") is not False or connected.facts.get("diameter") is None:
        return {}
    return {"diameter bound": _tree(connected.facts["diameter"])}


def _class_order(certificate, residues, shown) -> Any:
    """A residue class's order as its entries' certificates state it (an expression tree), so that the
    verifier binds the stated order to the class's own certificate; the shown value when they state none."""
    from .certificates import ByResidueClass
    if not isinstance(certificate, ByResidueClass):
        return shown
    trees = [sub.to_json().get("order") for rs, sub in certificate.entries if set(rs) & set(residues)]
    if trees and all(isinstance(t, dict) and t == trees[0] for t in trees):
        return trees[0]
    return shown


def _family_theorem(spec, cache: dict):
    """The family theorem of docs/theory.md §11.11 the pattern steps rest on, or None."""
    if "family" not in cache:
        from .graphs import families
        from .rules import pattern
        from .graphs.normal_form import heads_union
        try:
            n, params = pattern._symbols(spec)
            pats = list(dict.fromkeys(pattern._patterns(spec)))
            if len(pats) > 1 and not any(pattern._biases(spec)):
                pats = [heads_union(pats)]  # several heads: connectivity and D are the union's (its normal form)
            found = families.match(pats, n, params, pattern._biases(spec)[:1], spec.positional,
                                   lower=pattern._lower_bounds(spec))
        except (ValueError, TypeError, KeyError):
            found = None
        # the theorems the verifier's table restates (F5 and F6 are its lemmas, §18.4, which state no range)
        cache["family"] = found if isinstance(found, families.FamilyTheorem) and found.theorem in (
            "F1", "F2", "F3", "F4", "F7", "F8", "F9", "F10", "F11", "F12", "F13", "F14", "F15", "F16", "F17", "F21",
            "F22", "F23", "F24", "F25", "F26", "F27", "F31", "F33", "F34", "F40", "F44", "F47", "F48", "F49", "F50", "F62",
            "F51", "F52", "F63", "F64", "F73", "F74", "F89", "F90", "F91", "F92", "F93", "F94", "F95", "F96", "F100", "F101", "F115", "F119",
            "F117", "F122", "F144", "F201", "F205", "F230") else None
    return cache["family"]


def _family_data(step: proof.Step, theorem) -> dict:
    """The theorem's range (n ≥ from) and, for the group, its order (one closed form per residue of n
    when it depends on n mod b) as trees."""
    import sympy
    data: dict = {"from": _tree(theorem.low)}
    if not getattr(theorem, "diameter_exact", True) and step.rule in ("PAT-CONNECTED", "PAT-LAYERS"):
        data["diameter bound"] = _tree(theorem.diameter)  # F50, F51: D ≤ this, not D itself
    if getattr(theorem, "coprime_to", 1) > 1:
        data["coprime to"] = theorem.coprime_to  # the range is also gcd(n, coprime to) = 1 (Theorem F27)
    if step.rule == "SYM-AUT" and getattr(theorem, "periodic", ()):  # F117: its radius and periodic symmetries
        data.update(_periodic_data(theorem.periodic))
    if step.rule == "SYM-AUT" and getattr(theorem, "group_open", ()):  # no group stated on these classes (F26)
        data["open classes"] = {"modulus": theorem.group_open[0], "residues": list(theorem.group_open[1])}
    if step.rule == "SYM-AUT" and theorem.order_cases:  # F47: cases by divisibility, tried in order
        data["order by cases"] = [{"order": _tree(c.order), "divides": [[_tree(m), _tree(x)] for m, x in c.divides],
                                   "not divides": [[_tree(m), _tree(x)] for m, x in c.not_divides]}
                                  for c in theorem.order_cases]
    elif step.rule == "SYM-AUT" and theorem.order is not None:
        order = theorem.order
        if isinstance(order, sympy.Piecewise):
            cases = []
            for expr, cond in order.args:  # a condition Mod(n, b) = r, or an Or of such
                for eq in (cond.args if isinstance(cond, sympy.Or) else (cond,)):
                    if isinstance(eq, sympy.Eq) and isinstance(eq.rhs, sympy.Integer):
                        cases.append({"residue": int(eq.rhs), "order": _tree(expr)})
            data["order cases"] = cases
        else:
            data["order"] = _tree(order)
    return data


def _periodic_data(periodic: tuple) -> dict:
    """Theorem F117's or F122's certificate radius and periodic symmetries (kb + x ↦ sign·kb + a_x), which the
    verifier re-derives."""
    radius, found = periodic
    return {"periodic symmetries": {"radius": radius, "symmetries": [[sign, list(images)] for sign, images in found]}}


def _periodic_at_length(step: proof.Step) -> dict:
    """SYM-AUT at an integer n concluded from Theorem F117 or F122: its periodic symmetries; {} for any other step."""
    from .certificates import StandardFamily
    cert = step.certificate
    if not isinstance(cert, StandardFamily) or cert.theorem not in ("F117", "F122"):
        return {}
    from .graphs import families
    found = families.match([cert.pattern], cert.n, dict(cert.params), lower=dict(cert.lower_bounds))
    return _periodic_data(found.periodic) if isinstance(found, families.FamilyTheorem) and found.periodic else {}


def _ffn_data(ev: dict) -> dict:
    second = ev.get("non-affine") or {}
    return {"ffn": ev.get("ffn"), "points": second.get("points"),
            "second difference": _number(second.get("sigma(p) - 2 sigma(q) + sigma(r)"))}


def _fixed_bias_data(step: proof.Step) -> dict:
    side = step.facts.get("one_sided")
    return {"fixed_even": bool(step.facts.get("fixed_even")), **({"one_sided": side} if side else {}),
            **({"labelled_views": True} if step.facts.get("labelled_views") else {})}  # Theorem F161


# the typed facts of a head's steps that the verifier reads
_HEAD_FACTS = {
    "TD-BIAS": lambda step: {"labelled_views": bool(step.facts.get("labelled_views"))},
    "TD-BUCKETS": lambda step: {"labelled_views": bool(step.facts.get("labelled_views"))},
    "HEADS-ZERO-VALUE": lambda step: {"separating_head": step.facts.get("separating_head")},
    "TD-FIXEDBIAS": _fixed_bias_data,
    "TD-MEANS": lambda step: {"layers": step.facts.get("layers")},
}


def _step_data(step: proof.Step, spec, cache: dict) -> Optional[dict]:
    ev = step.evidence
    if step.rule.startswith("LIM-") and step.rule not in ("LIM-REDUCE", "LIM-NYSTROM", "LIM-NYSTROM-USE",
                                                            "LIM-UNSUPPORTED", "LIM-UNDECIDED"):
        return _lim_data(ev)
    if step.rule == "LIM-UNDECIDED" and step.status is proof.REFUTED:  # its regions, as a class rule states them
        return _lim_data(ev)
    if step.rule == "PAT-BUDGET-WITNESS":
        return _budget_witness_data(step)
    if step.rule == "PAT-BUDGET-N":  # the budget and the range it is below the diameter on (docs/theory.md §12)
        return {"budget": step.facts.get("budget"), "range": _condition_tree(step.facts.get("range")),
                "from": step.facts.get("from"), "modulus": step.facts.get("modulus")} \
            if step.facts.get("range") is not None else {"budget": step.facts.get("budget")}
    if step.rule in ("PAT-BUDGET-CLASS", "PAT-BUDGET-VIEW", "SYM-UNDECIDED") and \
            step.facts.get("residue_class") is not None:
        return _budget_class_data(step)
    if step.rule.startswith("PAT-") or step.rule == "SYM-AUT":
        try:
            return _pattern_data(step, spec, cache)
        except (ValueError, KeyError, TypeError):
            return None
    if step.rule.startswith(("SEQ-", "CONV-")):
        return _mixer_data(step, spec)
    if step.rule == "BIAS-LAYERS":  # a count by parity of n (Theorem F177) as a tree, else 1 or 2
        layers = step.facts.get("layers")
        return {"layers": layers if isinstance(layers, int) else _tree(layers), "least": step.facts.get("least"),
                "condition": step.facts.get("condition")}
    if step.rule in _HEAD_FACTS:
        return _HEAD_FACTS[step.rule](step)
    if step.rule in _SPEC_FACTS:
        return _SPEC_FACTS[step.rule](step, spec, cache)
    if step.rule.startswith("TGT-"):
        return _target_data(step, spec, cache)
    return None


# the typed facts of the other steps the verifier reads (by rule)
_SPEC_FACTS = {
    "SYM-DENSE": lambda step, spec, cache: {"group": step.evidence.get("group")},
    "FFN-DEF2": lambda step, spec, cache: _ffn_data(step.evidence),
    "VERDICT-T1": lambda step, spec, cache: _verdict_data(step),
    "POS-OFFSET": lambda step, spec, cache: _offset_data(spec, cache),
    "WP-POSITIVE": lambda step, spec, cache: _sign_data(step),
}


def _limit_tree(value) -> Any:
    """A limit as a tree, ±∞ as {"infinity": ±1} (the WP-POSITIVE data only); None when it has no tree form."""
    import sympy
    if value in (sympy.oo, -sympy.oo):
        return {"infinity": 1 if value == sympy.oo else -1}
    return _tree(value)


def _sign_data(step: proof.Step) -> Optional[dict]:
    """A refuted WP-POSITIVE step's sign facts: the limits along the ray x = 1, z = s (sign at infinity), or each
    component's sign, "+" for the sign of its argument and "−" for the sign of its negative, and the kind of argument
    (Lemma K)."""
    from .certificates import SignAtInfinity
    ev = step.evidence
    if "sign at infinity" in ev and isinstance(step.certificate, SignAtInfinity):
        plus, minus = step.certificate.limits()
        return {"sign at infinity": {"x": [1], "z": "s", "limit at +oo": _limit_tree(plus),
                                     "limit at -oo": _limit_tree(minus)}}
    if step.facts.get("residue_class") is not None:  # refuted on these classes only (Lemma U, docs/theory.md §4)
        return {"classes": {"modulus": step.facts["modulus"], "residues": list(step.facts["residues"])}}
    pattern = ev.get("sign pattern")
    if isinstance(pattern, dict):
        return {"sign pattern": {"signs": list(pattern.get("sign of the argument") or []), "index": ev.get("index")}}
    return None


def _length_data(record) -> dict:
    """One length below the range: its verdict, and for UAP its count, whether that count is the least, and the
    order of its group (exact, when the derivation states it as a number), for the verifier to re-derive."""
    out: dict = {"n": record.n, "verdict": record.verdict.value if record.verdict is not None else None,
                 "layers": record.layers}
    if record.verdict is proof.Verdict.UAP:
        order = getattr(record.group, "order", None)
        out["order"] = int(order) if isinstance(order, int) and not isinstance(order, bool) else None
        out["least"] = record.least
    return out


def _verdict_data(step: proof.Step) -> dict:
    """The verdict; beside a verdict for a range, the premises stated for residue classes of n only (their
    classes and verdicts, docs/theory.md §12) and the range itself as a condition tree, so the verifier can
    re-derive that the range excludes those classes."""
    out: dict = {"verdict": step.evidence.get("verdict")}
    stated = {str(cond): kind.value for cond, kind in step.facts.get("by_class", ())}
    classes = [p for p in step.premises if p.facts.get("residue_class") is not None]
    below = step.facts.get("below_range", ())
    if below:  # each length below the range, decided at that n: its verdict and count
        out["lengths"] = [_length_data(r) for r in below]
    obstructed = step.facts.get("range")  # a NOT-UAP (or ILL-POSED) verdict's range: its obstruction's (§12)
    # a UAP resting on a positivity form that needs two keys per row states its range n ≥ 2 (§4)
    two_keys = out["verdict"] == "UAP" and any(s.proved and s.fact("length_range") is not None for s in step.walk())
    if not classes and not below and obstructed is None and not two_keys:
        return out
    out["classes"] = [{"modulus": p.facts["modulus"], "residues": list(p.facts["residues"]), "rule": p.rule,
                       "verdict": stated.get(str(p.facts["residue_class"])),
                       "condition": _condition_tree(p.facts["residue_class"])} for p in classes]
    formula = obstructed if obstructed is not None else getattr(step.facts.get("group"), "condition_formula", None)
    try:
        out["range"] = encode_condition(formula) if formula is not None else None
    except TreeError:
        out["range"] = None
    return out


def _condition_tree(cond) -> Any:
    try:
        return encode_condition(cond)
    except TreeError:
        return None


def _budget_class_data(step: proof.Step) -> dict:
    """PAT-BUDGET-CLASS, PAT-BUDGET-VIEW on classes: the budget and the classes it states; SYM-UNDECIDED on classes
    (the group open there only, docs/theory.md §11.4): the classes."""
    classes = {"modulus": step.facts["modulus"], "residues": list(step.facts["residues"])}
    if step.rule == "SYM-UNDECIDED":
        return {"classes": classes}
    out = {"budget": step.facts.get("budget", step.evidence.get("budget")), "classes": classes}
    if step.rule == "PAT-BUDGET-CLASS":  # the classes with the range, for the verifier to hold against the count's
        out["range"] = _condition_tree(step.facts["residue_class"])
    return out


def _budget_witness_data(step: proof.Step) -> dict:
    """The witness of PAT-BUDGET-WITNESS: the row swap (position, swap, breaking row and head) or the view
    witness in full (position, depth, σ as an image list)."""
    ev, cert = step.evidence, step.certificate
    data: dict = {"route": ev.get("route"), "budget": ev.get("budget")}
    if ev.get("route") == "row swap":
        wit, row = ev.get("view witness") or {}, ev.get("breaking row") or {}
        data.update(position=wit.get("position"), swap=wit.get("swap"), row=row.get("row"),
                    breaker=row["head"] - 1 if isinstance(row.get("head"), int) else None,
                    low=getattr(cert, "low", None))
    elif isinstance(cert, ViewWitness):
        data.update(position=cert.position, depth=cert.diameter, permutation=[int(v) for v in cert.permutation])
    elif ev.get("route") == "labelled view witness" and cert is not None:
        wit = ev.get("view witness") or {}
        data.update(position=wit.get("position"), depth=wit.get("depth"),
                    permutation=[int(v) for v in cert.to_json()["permutation"]])
    return data


def _mixer_data(step: proof.Step, spec) -> Optional[dict]:
    """Per-layer patterns (SEQ-*) and the convolution mixer (CONV-*): layer counts, reach, groups."""
    ev = step.evidence
    if step.rule in ("SEQ-LAYERS", "CONV-LAYERS"):
        layers = ev.get("layers")
        data = {"layers": layers if isinstance(layers, int) else _tree(step.facts.get("layers", layers)),
                "least": ev.get("least")}
        if step.rule == "CONV-LAYERS" and step.premises and step.premises[0].evidence.get("on classes"):
            data["on classes"] = step.premises[0].evidence["on classes"]  # the reach step's classes
        if step.rule == "CONV-LAYERS" and step.facts.get("from") is not None:
            data["from"] = step.facts["from"]  # Lemma P's count holds for n ≥ this (§22.6)
        if step.rule == "SEQ-LAYERS":
            data["view witness"] = _seq_witness(ev.get("view witness"), spec)
        return data
    if step.rule in ("SEQ-ALTERNATION-GROUP", "SEQ-ALTERNATION-LAYERS", "SEQ-WINDOWS-GROUP", "SEQ-WINDOWS-LAYERS",
                     "SEQ-GLOBALS-GROUP", "SEQ-GLOBALS-LAYERS", "SEQ-GLOBALS-DEPTH", "SEQ-CYCLIC-GROUP", "SEQ-CYCLIC-LAYERS",
                     "SEQ-CAUSAL-FORM", "SEQ-CAUSAL-SINKS",
                     "SEQ-CAUSAL-CHUNKS"):
        # §21.7: the closed forms' data; §21.8: C from the range's start on, and the pieces below
        kernel = dict(getattr(step, "certificate_json", None) or {})
        kernel.pop("kind", None)
        return kernel
    if step.rule == "SEQ-CAUSAL-REACH":  # §21.5: D_c and the pair not reached within D_c − 1
        pair = ev.get("not within D_c − 1") or {}
        return {"depth": ev.get("D_c"), "i": pair.get("i"), "j": pair.get("j")}
    if step.rule == "SEQ-CAUSAL-INTERVALS":  # §21.6: D_c, the pair below it, the count and the witness below it
        pair = ev.get("not within D_c − 1") or {}
        return {"depth": ev.get("D_c"), "i": pair.get("i"), "j": pair.get("j"), "layers": ev.get("layers"),
                "least": ev.get("least"), "causal view witness": ev.get("causal view witness")}
    if step.rule == "SEQ-CAUSAL-LAYERS":
        return {"layers": ev.get("layers"), "least": ev.get("least"),
                "causal view witness": _seq_witness(ev.get("causal view witness"), spec)}
    if step.rule in ("SEQ-GROUP", "CONV-GROUP"):
        order = ev.get("order")
        data = {"name": ev.get("name"), "order": order if isinstance(order, int) else None}
        if ev.get("on classes"):  # a convolution's group on these residue classes of n only (§22.5)
            data["on classes"] = ev["on classes"]
        if step.rule == "SEQ-GROUP":
            kernel = getattr(step, "certificate_json", None) or {}
            gens = kernel.get("generators")
            data["generators"] = gens if isinstance(gens, list) else None
            if data["order"] is None and isinstance(kernel.get("order"), int):
                data["order"] = kernel["order"]  # a large order is printed as text; the kernel's is exact
            structure = _sequence_structure(data["name"], spec) if data["generators"] is not None else None
            if structure is not None:
                data["structure"] = structure
        return data
    if step.rule in ("SEQ-CONNECTED", "SEQ-DISCONNECTED", "SEQ-DEPTH", "CONV-REACH", "CONV-DISCONNECTED"):
        return _mixer_reach_data(step, spec)
    return None


def _seq_witness(wit, spec) -> Optional[dict]:
    """A per-layer view witness (depth, position, permutation of 1..n; a swap written out)."""
    if not isinstance(wit, dict) or not isinstance(spec.tokens, int):
        return None
    perm = wit.get("permutation")
    if perm is None and isinstance(wit.get("swap"), list) and len(wit["swap"]) == 2:
        a, b = wit["swap"]
        perm = [b if k == a else a if k == b else k for k in range(1, spec.tokens + 1)]
    return {"depth": wit.get("depth"), "position": wit.get("position"),
            "permutation": [int(v) for v in perm] if isinstance(perm, (list, tuple)) else None}


def _mixer_reach_data(step: proof.Step, spec) -> Optional[dict]:
    """Reach of per-layer patterns and of the convolution mixer: the depth D (an integer, or a tree at
    symbolic n) and the pair (i, j) with x_j not reaching position i (at D − 1, or at the depth)."""
    ev = step.evidence
    if step.rule == "SEQ-CONNECTED":
        pair = ev.get("not within D − 1") or {}
        return {"depth": ev.get("D_Φ"), "i": pair.get("i"), "j": pair.get("j")}
    if step.rule == "CONV-REACH":
        pair = ev.get("not within D − 1") or {}
        depth = step.facts.get("depth", ev.get("D"))  # typed: at symbolic n a closed form, with or without a budget
        out = {"depth": depth if isinstance(depth, int) else _tree(depth), "i": pair.get("i"), "j": pair.get("j")}
        if ev.get("on classes"):  # D on these residue classes of n only (§22.5)
            out["on classes"] = ev["on classes"]
        if ev.get("from") is not None:  # Lemma P's D holds for n ≥ this (§22.6)
            out["from"] = ev["from"]
        return out
    if step.rule == "SEQ-DEPTH":
        return {"view witness": _seq_witness(ev.get("view witness") or ev.get("witness"), spec)}
    wit = ev.get("witness") or {}
    out = {"i": wit.get("i"), "j": wit.get("j")}
    if step.rule == "CONV-DISCONNECTED" and ev.get("classes"):  # NOT-UAP on these classes only (§12, §22.5)
        out["classes"] = ev["classes"]
    return out


def _offset_data(spec, cache: dict) -> Optional[dict]:
    """The offset class of the next head with a position formula (the steps come in head order), the offset
    function h(δ) as a tree (with the functions and π of `encode(..., functions=True)`), and for a `reweight`
    whether h > 0 on every offset."""
    from .rules import positions
    heads = [h for h in spec.heads if h.position is not None and h.position.kind in ("bias", "reweight")]
    k = cache.get("offset steps", 0)
    cache["offset steps"] = k + 1
    if k >= len(heads):
        return None
    info = positions.analyse(spec, heads[k])
    data: dict = {"class": info.kind}
    if info.h is not None:
        try:
            data["h"] = encode(info.h, functions=True)
        except (TreeError, TypeError):
            data["h"] = None
    if heads[k].position.kind == "reweight":
        data["positive"] = info.positive
    return data


def _target_values(spec, cache: dict) -> dict:
    """The target analysis' radius and layers as typed values (the evidence prints them)."""
    if "target" not in cache:
        from .rules import targets
        kind = targets._causal_kind([h.pattern for h in spec.heads])
        n = spec.tokens
        out: dict = {}
        if kind is not None and not isinstance(n, int):
            import sympy
            closed = targets._causal_closed(kind, sympy.Symbol(n, integer=True, positive=True))
            if closed is not None:
                out = {"radius": closed[0], "layers": closed[1]}
        cache["target"] = out
    return cache["target"]


def _target_data(step: proof.Step, spec, cache: dict) -> Optional[dict]:
    ev = step.evidence
    typed = _target_values(spec, cache)

    def value(key, given):
        return given if isinstance(given, int) and not isinstance(given, bool) else _tree(typed.get(key))
    if step.rule == "TGT-RECEPTIVE":
        return {"target": ev.get("target"), "radius": value("radius", ev.get("radius"))}
    if step.rule == "TGT-LAYERS":
        start = step.facts.get("from")  # at symbolic n, the closed form's range n ≥ start (§14.9)
        return {"radius": value("radius", ev.get("radius")), "layers": value("layers", ev.get("layers")),
                "least": ev.get("least"), "from": start if start is None or isinstance(start, int) else _tree(start)}
    if step.rule == "TGT-ALTERNATIVE":
        alt = ev.get("alternative") or {}
        return {"target": alt.get("target"), "verdict": alt.get("verdict"), "least": alt.get("least"),
                "layers": value("layers", alt.get("layers")) if alt.get("layers") is not None else None,
                "range": alt.get("range"), "below_range": alt.get("below_range"), **_below_pieces(step)}
    if step.rule == "TGT-PLAIN":  # the plain UAP's count, and at a symbolic n the trivial group's first length
        lay, start = step.facts.get("layers"), step.facts.get("from")
        return {"layers": lay if isinstance(lay, int) else _tree(lay), "least": step.facts.get("least"),
                **({} if start is None else {"from": start if isinstance(start, int) else _tree(start)})}
    if step.rule == "TGT-VERDICT":
        return {"target": ev.get("target"), "verdict": ev.get("verdict"), "range": ev.get("range"),
                "below_range": ev.get("below_range"), **_below_pieces(step)}
    if step.rule == "TGT-BELOW":
        return {"pieces": _piece_trees(step.facts.get("pieces", ()))}
    if step.rule == "TGT-BUDGET":  # the budget it compares; the radius and the count are TGT-RECEPTIVE's, TGT-LAYERS'
        return {"budget": ev.get("budget")}
    if step.rule == "TGT-POSITIONS":
        return _positions_data(step)
    if step.rule == "TGT-NOT-CAUSAL":  # an earlier position that never reaches a later one, or a non-trivial group
        return _not_causal_data(step, spec)
    return None


def _not_causal_data(step: proof.Step, spec) -> Optional[dict]:
    """TGT-NOT-CAUSAL's route and its data: an earlier position that never reaches a later one (or not within the
    `layers M` budget, §14.9), a witness at the whole depth of per-layer patterns, or a non-trivial group."""
    ev = step.evidence
    if ev.get("route") == "view witness":  # per-layer patterns at their whole depth (§21.5)
        return {"route": "view witness", **(_seq_witness(ev.get("view witness"), spec) or {})}
    if ev.get("route") == "interval witness":  # per-layer interval heads at their whole depth (§21.6)
        return {"route": "interval witness", **(ev.get("interval witness") or {})}
    if ev.get("route") == "sink witness":  # per-layer heads with sinks at their whole depth (§21.9)
        return {"route": "sink witness", **(ev.get("sink witness") or {})}
    if ev.get("route") == "budget split":  # M layers of finite widths: NOT-UAP from N* on (§21.10, Theorem F159)
        split = ev.get("budget split") or {}  # the threshold and ℓ₁ are the reader's: the verifier scans F121 itself
        return {"route": "budget split", "from": split.get("from"), "depth": split.get("depth"),
                "reach end": split.get("reach end")}
    if ev.get("route") == "one layer collision":  # `layers 1`: keys l < i and l′ of row i alike in every head (§14.9)
        return {"route": "one layer collision", "collision": ev.get("collision")}
    w = ev.get("witness")
    if isinstance(w, dict) and "budget" in w:  # x_j (j < i) more than `layers M` hops from i (§14.9)
        return {"route": "budget", "i": w.get("i"), "j": w.get("j"), "budget": w.get("budget"),
                "distance": w.get("distance from j to i")}
    if isinstance(w, dict):
        return {"route": "unreached", "i": w.get("i"), "j": w.get("j")}
    if "group" not in ev:
        return None
    start = step.facts.get("from")  # at symbolic n: the lengths n ≥ start it holds for (docs/theory.md §14.10)
    return {"route": "group", **({} if start is None else {"from": start if isinstance(start, int) else
                                                           _tree(start)})}


def _positions_data(step: proof.Step) -> dict:
    """TGT-POSITIONS: its route, its separating head (1-based) and on the collision route (i, l, l′), keys l < l′ of
    row i alike in every head (§14.11)."""
    ev = step.evidence
    out = {"route": ev.get("route"), "separating": ev.get("separating")}
    cert = getattr(step, "certificate_json", None) or {}
    if ev.get("route") == "collision" and isinstance(cert.get("collision"), list):
        out["collision"] = cert["collision"]
    return out


def _piece_trees(pieces) -> list:
    """TGT-BELOW's pieces as trees: the lengths from ≤ n < below, with their count and whether it is the least."""
    return [{"from": _tree(p.lower), "below": _tree(p.upper), "layers": _tree(p.layers), "least": p.least}
            for p in pieces]


def _below_pieces(step: proof.Step) -> dict:
    """{"below_pieces": trees} when a premise of the verdict step is TGT-BELOW (a range with params, §14.7)."""
    below = [p for p in step.premises if p.rule == "TGT-BELOW"]
    if below:
        return {"below_pieces": _piece_trees(below[0].facts.get("pieces", ()))}
    # per-layer interval heads at a symbolic n; chunked layers with the full causal mask (§21.11)
    form = [p for p in step.premises if p.rule in ("SEQ-CAUSAL-FORM", "SEQ-CAUSAL-CHUNKS")]
    if form:
        from .rules.target_below import TargetPiece
        return {"below_pieces": _piece_trees(TargetPiece(p.lower, p.upper, p.layers)
                                             for p in form[0].facts.get("form pieces", ()))}
    return {}


def _patterns_section(spec) -> Optional[dict]:
    from . import spec as S
    n = spec.tokens
    if not isinstance(n, int) or n > MAX_ARCS_N or all(isinstance(h.pattern, S.Full) for h in spec.heads):
        return None
    try:
        graphs = _graphs(spec)
    except (ValueError, KeyError, TypeError):
        return None
    return {"n": n, "heads": [{"arcs": sorted([j, i] for j, i in g.arcs())} for g in graphs]}


def _group(result) -> Optional[dict]:
    g = result.group
    if g is None or result.verdict != "UAP":
        return None
    return {"name": g.name, "order": g.order if isinstance(g.order, int) else None,
            "generators": [list(x) for x in g.generators if not isinstance(x, str)]
            if g.generators and not any(isinstance(x, str) for x in g.generators) else None}


def build(result, text: str) -> dict:
    spec = result.spec
    ids = proof.number_steps(result.root)
    cache: dict = {}
    steps = []
    for s in result.root.walk():
        steps.append({"id": ids[id(s)], "rule": s.rule, "claim": s.claim, "status": str(s.status),
                      "premises": [ids[id(p)] for p in s.premises], "cite": str(s.cite),
                      "provenance": s.citation.to_json(),
                      "evidence": s.evidence, "data": _step_data(s, spec, cache),
                      # the kernel's own typed certificate and facts, when the rule gives them
                      "certificate": getattr(s, "certificate_json", None), "facts": getattr(s, "facts_json", None) or None})
    return {"schema": SCHEMA, "uapcheck": __version__,
            "input": {"path": spec.path, "sha256": source_hash(text), "text": text},
            "verdict": str(result.verdict), "group": _group(result),
            "layers": _tree(result.layers) if result.layers is not None else None,
            "patterns": _patterns_section(spec), "steps": steps}


def write(cert: dict, path: str) -> None:
    """Write the certificate (OSError on failure; the caller reports it in one line)."""
    data = json.dumps(cert, ensure_ascii=False, sort_keys=True, indent=1) + "\n"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(data)
