"""Theorem F206 (docs/theory.md §11.11): a head of Theorem F26, F201 or F205 (without F205's twins' class) has its
group inside D_n at every n of its range, D_n or the reflection by class of n, so it serves Theorems F35–F39 as a
D_n anchor when its own arcs are tested like the other heads' (then what is kept is exactly G). Before, such a head
was no anchor at all (its group changes by class), and `window(5) cyclic + strided(3)` | `offsets {−7, −6, 7}
cyclic` was INCONCLUSIVE.

Every closed form against the concrete engine (graphs, BLISS) at every n from its classes' bounds through two
representative lengths past N₀ of every class, the orders against a count written here at n ≤ 12 where the range
reaches, the twins' case refused as an anchor, a forged anchor rejected by the verifier, and the verifier's
acceptance of a certificate."""
from __future__ import annotations

import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import head_intersection as HI
from uapcheck.graphs.build import build_graph
from uapcheck.graphs.closed_groups import closed_group
from uapcheck.graphs.symmetry import symmetry_group
from uapcheck.spec import Blocks, Dilated, Global, Offsets, PatternUnion, Star, Strided, Window
from uapcheck.verifier import REJECTED, VERIFIED, verify

from .reference import attends, count_automorphisms

N = sympy.Symbol("n", integer=True, positive=True)


def U(*parts):
    return PatternUnion(tuple(parts))


#: (heads, theorem of the anchor head): the anchor is the F26/F201/F205 head, inside D_n
CASES = [
    ((U(Window(1, True), Strided(2)), Blocks(2)), "F201"),
    ((U(Window(1, True), Strided(2)), Global(1)), "F201"),
    ((U(Window(1, True), Strided(3)), Blocks(3)), "F201"),
    ((U(Window(1, True), Strided(2)), Dilated(1, 3)), "F201"),
    ((U(Window(1, True), Strided(2)), Star()), "F201"),
    ((U(Window(1, True), Strided(3)), Star()), "F201"),
    ((U(Window(2, True), Strided(3)), Blocks(3)), "F201"),
    ((U(Window(1, True), Strided(4)), Offsets((2,), True)), "F26"),
    ((U(Window(1, True), Strided(4)), Global(2)), "F26"),
    ((U(Window(3, True), Strided(2)), Blocks(2)), "F205"),
    ((U(Window(5, True), Strided(3)), Offsets((-7, -6, 7), True)), "F205"),
]


def _form(heads):
    form = closed_group(list(heads), N)
    assert form is not None, f"{heads}: undecided"
    found = form.cases[0].intersection
    assert found is not None, "not from Theorems F35–F39"
    return form, found[0]


def _structure_at(text: str, n: int) -> str:
    return text.replace(", …, n}", f", …, {n}}}").replace(", …, n - 1}", f", …, {n - 1}}}")


@pytest.mark.parametrize("heads, theorem", CASES, ids=[str(i) for i in range(len(CASES))])
def test_the_closed_form_is_the_concrete_engine_s_at_every_length_through_the_representatives(heads, theorem):
    form, found = _form(heads)
    anchor = found.anchor
    assert anchor.contains and anchor.kind == "dihedral" and anchor.head == 0 and f"Theorem {theorem}" in anchor.source
    low = min(c.low for c in found.classes if c.kind != "open")
    top = max(found.start + 2 * found.modulus, low + 2 * found.modulus)
    checked = 0
    for n in range(low, top + 1):
        case = form.at({N: n})
        if case is None:
            continue
        got = symmetry_group([build_graph(h, n) for h in heads])
        assert int(case.order) == got.order, (n, case.order, got.order)
        if case.name is not None:
            assert case.name == got.name, (n, case.name, got.name)
        elif case.structure and "rotations" not in case.structure:
            assert _structure_at(case.structure, n) == (got.structure or got.name), (n, case.structure, got.structure)
        checked += 1
    assert checked >= 2 * found.modulus


@pytest.mark.parametrize("heads, theorem", CASES[:6], ids=[str(i) for i in range(6)])
def test_the_orders_against_a_count_of_every_map_where_the_range_starts_low(heads, theorem):
    form, _ = _form(heads)
    for n in range(10, 13):
        case = form.at({N: n})
        if case is None:
            continue
        pairs = [attends(h, n) for h in heads]
        assert int(case.order) == count_automorphisms(n, lambda u, v, pairs=pairs: tuple((v, u) in p for p in pairs)), n


def test_an_f205_head_with_twins_is_no_dihedral_anchor():
    """window(4) cyclic + strided(2): at odd n the group holds (1 n), not in D_n: Theorem F206 does not apply."""
    anchor = HI.anchor_from_family(0, U(Window(4, True), Strided(2)), N, {})
    assert anchor is None
    anchor = HI.anchor_from_family(0, U(Window(3, True), Strided(2)), N, {})
    assert anchor is not None and anchor.contains and anchor.kind == "dihedral"


SOURCE = """tokens n
attention {
  kernel k(x, y) = exp(x . y)
  pattern window(5) cyclic + strided(3)
}
attention {
  kernel k(x, y) = exp(x . y)
  pattern offsets {-7, -6, 7} cyclic
}
"""


def _cert() -> dict:
    r = uapcheck.check(SOURCE, "t.uap")
    assert r.verdict == "UAP" and "C_n" in str(r.group.name) and "trivial" in str(r.group.name)
    return json.loads(json.dumps(certfile.build(r, SOURCE)))


def _drop_contains(value) -> int:
    """Remove every anchor's `contains` flag (the certificate of each residue class holds its own anchor)."""
    if isinstance(value, list):
        return sum(_drop_contains(v) for v in value)
    if not isinstance(value, dict):
        return 0
    found = 0
    if isinstance(value.get("anchor"), dict) and value["anchor"].pop("contains", None):
        found += 1
    return found + sum(_drop_contains(v) for k, v in value.items())


def test_the_verifier_accepts_the_containing_anchor_and_rejects_one_that_skips_its_own_head():
    cert = _cert()
    report = verify(cert)
    assert report.ok and report.complete, [(x.rule, x.outcome, x.reason) for x in report.steps] + report.problems
    step = next(x for x in report.steps if x.rule == "SYM-AUT")
    assert step.outcome == VERIFIED and "Theorem F206" in step.reason
    # the same anchor without `contains`: D_n would be claimed as the head's own group, which the verifier's count of
    # the head at the first lengths of its range contradicts (order 2 at n = 100, not 200)
    forged = json.loads(json.dumps(cert))
    assert _drop_contains([x for x in forged["steps"] if x["rule"] == "SYM-AUT"])
    report = verify(forged)
    assert not report.ok
    assert next(x for x in report.steps if x.rule == "SYM-AUT").outcome == REJECTED


def test_the_verifier_takes_a_by_class_group_as_an_exact_d_n_anchor_nowhere():
    """An F201 head's group is D_n on the class 5 | n only: as an exact D_n anchor (its own arcs untested) the verifier's
    table must not name it (it did: the name check accepts "D_n", and C_n and D_n anchors skipped the order check)."""
    from uapcheck.parse import parse_source
    from uapcheck.verifier import head_intersection as V
    spec = parse_source("tokens n\nattention { kernel k(x, y) = exp(x . y); pattern window(2) cyclic + strided(5) }\n",
                        "t.uap")
    with pytest.raises(V.Unsupported):
        V.anchor_checked(spec, spec.heads[0].pattern, {"group": "dihedral", "from": 200, "prefix": 0}, N, {"n": N})
    ring = parse_source("tokens n\nattention { kernel k(x, y) = exp(x . y); pattern window(2) cyclic }\n", "t.uap")
    assert "D_n" in V.anchor_checked(ring, ring.heads[0].pattern, {"group": "dihedral", "from": 7, "prefix": 0}, N,
                                     {"n": N})
