"""Theorem F205 (docs/theory.md §11.11, lemma AB): the group of `window(w) cyclic + strided(s)`, 2 ≤ s ≤ w, for
n ≥ max(s(3w + 2), 20w) is D_n when s | n, S_2 on {1, n} × the reflection of {2, …, n − 1} (order 4) when s | w and
n mod s = 1 (1 and n are twins), else the reflection i ↦ n + 1 − i. With Theorem F197's D = 2 the pattern gets
D + 1 = 3 layers; Theorems F224–F226 make the count least by class (for w ≤ 6 from lemma AM's N₁, where the range
then starts; tests/graphs/test_cyclic_window_dense_stride_least.py checks them).

Checked against the concrete engine and the automorphisms of arcs written from the language's definitions
(tests/graphs/reference.py; every partial map extended at n ≤ 24, BLISS through igraph above) at every n from the
range's start through more than a whole period, for eleven (w, s); the formula below the range at 3w + 3 ≤ n ≤ 40 by
the reference; the twins lemma; the names at an integer n; 3 layers never below the concrete least count; the
verifier's restatement and its rejection of tampered steps."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import cyclic_covered_least as L
from uapcheck.graphs import families as F
from uapcheck.groups import NamedGroup
from uapcheck.render.verdict_lines import headline
from uapcheck.verifier import VERIFIED, verify

from certificates import rejects

from .cyclic_window_strided_files import certificate, checked, pattern, reference_order, step_of
from .reference import attends

N = sympy.Symbol("n", integer=True, positive=True)
REFLECTION = "the reflection i ↦ n + 1 − i"
TWINS = "S_2 on {1, n} × the reflection of {2, …, n − 1}"
#: (w, s), 2 ≤ s ≤ w: with s | w (twins on n mod s = 1) and without
CASES = [(2, 2), (3, 2), (3, 3), (4, 2), (4, 3), (4, 4), (5, 2), (5, 3), (5, 4), (5, 5), (6, 4)]


def _low(w: int, s: int) -> int:
    return max(s * (3 * w + 2), 20 * w)


def _start(w: int, s: int) -> int:
    """The family's range: lemma AM's N₁ where Theorem F226's check decides classes (w ≤ 6), else F205's."""
    return L.dense_pump_from(w, s) if L.dense_suffice_classes(w, s) else _low(w, s)


def _want(w: int, s: int, n: int) -> int:
    if n % s == 0:
        return 2 * n
    return 4 if w % s == 0 and n % s == 1 else 2


def _name(w: int, s: int, n: int) -> str:
    if n % s == 0:
        return "D_n"
    return TWINS if w % s == 0 and n % s == 1 else REFLECTION


@pytest.mark.parametrize("w, s", CASES)
def test_the_order_and_name_are_the_concrete_engine_s_and_the_reference_s_at_every_length(w, s):
    theorem = F.match([pattern(w, s)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F205" and theorem.low == _start(w, s)
    assert theorem.group_open == () and not F.in_range(theorem, {"n": _low(w, s) - 1})
    assert "D_n" in theorem.group and REFLECTION in theorem.group or s == 2 and w % s == 0
    assert (TWINS in theorem.group) == (w % s == 0)
    low = _low(w, s)
    for n in range(low, max(60, low + s + 2) + 1):
        want = _want(w, s, n)
        got = F.concrete(pattern(w, s), n, layers=False)
        at_n = F.match([pattern(w, s)], sympy.Integer(n), {})
        assert F.at(at_n, {"n": n})["order"] == got.order == want, n
        assert reference_order(w, s, n) == want, n
        assert at_n.theorem == "F205" and at_n.group == _name(w, s, n), n
        assert _concrete_name(got.group, n) == _name(w, s, n), (n, got.group)


def _concrete_name(group, n: int) -> str:
    """The concrete engine's name in the theorem's words (its named groups, or the twins' text at this n)."""
    if isinstance(group, NamedGroup):
        return {NamedGroup.DIHEDRAL: "D_n", NamedGroup.REFLECTION: REFLECTION}.get(group, str(group))
    return str(group).replace(f"{{1, {n}}}", "{1, n}").replace(f"{{2, …, {n - 1}}}", "{2, …, n − 1}")


@pytest.mark.parametrize("w, s", [(2, 2), (3, 2), (3, 3), (4, 2), (4, 3), (4, 4), (5, 3)])
def test_the_formula_holds_below_the_range_from_three_w_plus_three(w, s):
    """The range is where the proof's step (4) works; the group is the same from 3w + 3 on (the engine decides
    these lengths one by one; this pins that nothing larger hides below the range)."""
    for n in range(3 * w + 3, min(40, _low(w, s)) + 1):
        assert reference_order(w, s, n) == _want(w, s, n), n


@pytest.mark.parametrize("w, s, n", [(2, 2, 21), (3, 3, 22), (4, 2, 23), (6, 3, 25), (4, 4, 21)])
def test_one_and_n_are_the_only_twins_exactly_when_s_divides_w_and_n_is_one_mod_s(w, s, n):
    nbhd = {u: frozenset({u} | {v for (i, v) in attends(pattern(w, s), n) if i == u}) for u in range(1, n + 1)}
    twins = {frozenset((u, v)) for u in nbhd for v in nbhd if u < v and nbhd[u] == nbhd[v]}
    assert twins == {frozenset((1, n))}
    # without s | w the same class n ≡ 1 has no twins
    other = {u: frozenset({u} | {v for (i, v) in attends(pattern(w + 1, s), n) if i == u}) for u in range(1, n + 1)}
    assert not any(other[u] == other[v] for u in other for v in other if u < v)


@pytest.mark.parametrize("w, s", [(2, 2), (3, 2), (4, 3), (5, 5)])
def test_two_is_the_diameter_and_the_count_at_a_length_is_never_below_the_concrete_least_count(w, s):
    theorem = F.match([pattern(w, s)], N, {})
    assert theorem.least and not theorem.open_question  # F224 and F226 decide every class for w ≤ 5
    low = _low(w, s)
    for n in range(low, low + s):  # below N₁: 3 layers, least on F224's classes only
        got = F.concrete(pattern(w, s), n)
        at_n = F.match([pattern(w, s)], sympy.Integer(n), {})
        want = F.at(at_n, {"n": n})
        assert got.diameter == want["diameter"] == 2, n
        assert got.least and got.layers <= want["layers"] == 3, n
        assert at_n.least == (n % s in L.dense_witness_classes(w, s)), n
        if at_n.least:
            assert got.layers == 3, n


def test_the_verdict_names_the_group_by_class_and_two_least_layers():
    r = checked("n", 2, 2)
    assert r.verdict == "UAP" and r.group.name == f"D_n when 2 | n, else {TWINS}" and r.layers == 2
    assert "sufficient, not shown least" not in headline(r)
    assert not any(x.rule == "SYM-UNDECIDED" for x in r.root.walk())
    r = checked("n", 3, 2)  # s ∤ w: F201's two classes
    assert r.verdict == "UAP" and r.group.name == f"D_n when 2 | n, else {REFLECTION}"


@pytest.mark.parametrize("w, s", [(2, 2), (3, 2)])
def test_the_verifier_restates_the_group_on_every_class(w, s):
    report = verify(certificate("n", w, s))
    assert report.ok and report.complete, [(x.rule, x.outcome, x.reason) for x in report.steps] + report.problems
    step = next(x for x in report.steps if x.rule == "SYM-AUT")
    assert step.outcome == VERIFIED and "Theorem F205" in step.reason
    assert "re-checked on the verifier's arcs" in step.reason


@pytest.mark.parametrize("tamper", ["order", "range", "name", "diameter", "least"])
def test_the_verifier_rejects_a_tampered_f205_step(tamper):
    cert = certificate("n", 2, 2)
    if tamper == "order":  # |G| = 2 on the twins' class (it is 4)
        cases = step_of(cert, "SYM-AUT")["data"]["order cases"]
        next(c for c in cases if c["residue"] == 1)["order"] = 2
        rule = "SYM-AUT"
    elif tamper == "range":  # below lemma AM's N₁ = 104 (and F205's 40)
        step_of(cert, "SYM-AUT")["data"]["from"] = 30
        rule = "SYM-AUT"
    elif tamper == "name":  # the twins' class named the reflection alone
        step_of(cert, "SYM-AUT")["data"]["name"] = f"D_n when 2 | n, else {REFLECTION}"
        rule = "SYM-AUT"
    elif tamper == "diameter":
        step_of(cert, "PAT-CONNECTED")["data"]["diameter"] = 3
        rule = "PAT-CONNECTED"
    else:  # 3 layers claimed least where 2 suffice (Theorem F226)
        step_of(cert, "PAT-LAYERS")["data"]["layers"] = 3
        rule = "PAT-LAYERS"
    assert rejects(cert, rule)  # that step alone re-checked (the lengths below N₁ are VERDICT-T1's)
