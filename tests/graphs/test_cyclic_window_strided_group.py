"""Theorem F201 (docs/theory.md §11.11, lemma Y): the group of `window(w) cyclic + strided(s)`, s ≥ w + 1, for
n ≥ s(3w + 2) is D_n when s | n, else the reflection i ↦ n + 1 − i. The family w + 1 ≤ s ≤ 2w + 1 (D = 2, Theorem
F197) gets D + 1 = 3 layers, least on Theorem F200's classes (tests/graphs/test_cyclic_window_strided_least.py);
Theorem F26 (s ∈ {2w + 2, 2w + 3}) states its group on every class.

Checked against the concrete engine and the automorphisms of arcs written from the language's definitions
(tests/graphs/reference.py; every partial map extended at n ≤ 24, BLISS through igraph above) at every n from the range's start up to 60 and through a whole
period past it, for twelve (w, s); the lemma behind step (4), Aut(C_n^w − E_j) = {id, ρ}, by brute force at n ≤ 10;
the stated 3 layers against the concrete least count over a period; the names; the verifier's restatement."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import families as F
from uapcheck.graphs.cyclic_covered_least import suffice_classes
from uapcheck.render.verdict_lines import headline
from uapcheck.verifier import REJECTED, VERIFIED, verify

from .cyclic_window_strided_files import certificate, checked, pattern, reference_order, step_of
from .reference import brute_group_order, count_automorphisms

N = sympy.Symbol("n", integer=True, positive=True)
NAME = "D_n when {s} | n, else the reflection i ↦ n + 1 − i"
#: (w, s): F201's family w + 1 ≤ s ≤ 2w + 1, and F26's strides for w = 2 (formerly no group on n mod s ∈ {1, 2})
COVERED = [(1, 2), (1, 3), (2, 3), (2, 4), (2, 5), (3, 4), (3, 5), (3, 6), (3, 7), (4, 5)]
CASES = COVERED + [(2, 6), (2, 7)]


def _low(w: int, s: int) -> int:
    return s * (3 * w + 2) if s <= 2 * w + 1 else s * (4 * w + 3)


def _lengths(w: int, s: int) -> range:
    """Every n from the range's start up to 60, and at least one whole period of n mod s."""
    low = _low(w, s)
    return range(low, max(60, low + s) + 1)


@pytest.mark.parametrize("w, s", CASES)
def test_the_order_is_the_concrete_engine_s_and_the_reference_s_at_every_length(w, s):
    theorem = F.match([pattern(w, s)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == ("F201" if (w, s) in COVERED else "F26")
    assert theorem.group == NAME.format(s=s) and theorem.group_open == () and theorem.low == _low(w, s)
    assert not F.in_range(theorem, {"n": _low(w, s) - 1})
    for n in _lengths(w, s):
        want = 2 * n if n % s == 0 else 2
        got = F.concrete(pattern(w, s), n, layers=False)
        assert F.at(theorem, {"n": n})["order"] == got.order == want, n
        assert reference_order(w, s, n) == want, n


@pytest.mark.parametrize("w, s", COVERED[:7])
def test_two_is_the_diameter_and_three_layers_are_never_below_the_concrete_least_count(w, s):
    theorem = F.match([pattern(w, s)], N, {})
    # least on every class: for s = 2w + 1 by Theorem F200's block exchange, with D = 2 layers for s = 2 (Theorem
    # F202), else by class (F218 on s | n, F200's witnesses, F219 on the rest; s ≤ 16)
    assert theorem.least and theorem.open_question == ""
    low = _low(w, s)
    for n in range(low, low + s):
        got = F.concrete(pattern(w, s), n)
        want = F.at(theorem, {"n": n})
        assert got.diameter == want["diameter"] == 2, n
        # 2 layers on s | n for s ≤ 2w (Theorem F218) and on F219's classes, else 3; least on every class: the engine's
        two = s == 2 or (s <= 2 * w and (n % s == 0 or n % s in suffice_classes(w, s)))
        assert got.least and got.layers == want["layers"] == (2 if two else 3), n


def _seam_removed(n: int, w: int, j: int):
    """X = C_n^w − E_j, E_j = {{n − t, 1 + j − t} : 0 ≤ t ≤ j} (step (4) of the proof)."""
    gone = {frozenset((n - t, 1 + j - t)) for t in range(j + 1)}

    def arc(u: int, v: int) -> bool:
        return u != v and min(abs(u - v), n - abs(u - v)) <= w and frozenset((u, v)) not in gone
    return arc


@pytest.mark.parametrize("w, n, j", [(1, 6, 0), (1, 7, 0), (1, 8, 0), (1, 9, 0), (1, 10, 0), (2, 10, 0), (2, 10, 1)])
def test_the_cyclic_window_without_its_seam_pairs_has_only_the_reflection(w, n, j):
    """Aut(C_n^w − E_j) = {id, ρ} for n ≥ 4w + 2: every permutation tried (n ≤ 8), or every partial map extended
    position by position (the same count as all of S_n)."""
    arc = _seam_removed(n, w, j)
    rho = {u: n + 1 - u for u in range(1, n + 1)}
    assert all(arc(rho[u], rho[v]) == arc(u, v) for u in range(1, n + 1) for v in range(1, n + 1))
    if n <= 8:
        pairs = {(u, v) for u in range(1, n + 1) for v in range(1, n + 1) if arc(u, v)}
        assert brute_group_order([pairs], n) == 2
    assert count_automorphisms(n, arc) == 2


def test_at_ten_every_map_of_the_smallest_instance_is_counted():
    # (w, s) = (1, 2): the range starts at n = 10 (s | n: D_10, order 20)
    assert reference_order(1, 2, 10) == 20 == F.at(F.match([pattern(1, 2)], N, {}), {"n": 10})["order"]


def test_the_verdict_names_the_group_and_three_sufficient_layers():
    r = checked("n", 5, 7)
    assert r.verdict == "UAP" and r.group.name == NAME.format(s=7)
    assert all(int(r.layers.xreplace({N: 140 + e})) == (2 if e in (0, 5, 6) else 3) for e in range(7))
    assert "2 if n mod 7 ∈ {0, 5, 6}, else 3 attention layers" in headline(r) and "sufficient" not in headline(r)
    assert not any(x.rule == "SYM-UNDECIDED" for x in r.root.walk())
    r = checked("n", 2, 7)  # F26 with w = 2: formerly INCONCLUSIVE for n mod 7 ∈ {1, 2}
    assert r.verdict == "UAP" and r.group.name == NAME.format(s=7)
    assert not any(x.rule == "SYM-UNDECIDED" for x in r.root.walk())


@pytest.mark.parametrize("w, s", [(2, 4), (2, 7)])
def test_the_verifier_restates_the_group_on_every_class(w, s):
    report = verify(certificate("n", w, s))
    assert report.ok and report.complete, [(x.rule, x.outcome, x.reason) for x in report.steps] + report.problems
    step = next(x for x in report.steps if x.rule == "SYM-AUT")
    assert step.outcome == VERIFIED and f"Theorem {'F201' if s <= 2 * w + 1 else 'F26'}" in step.reason
    assert "re-checked on the verifier's arcs" in step.reason


@pytest.mark.parametrize("tamper", ["order", "range", "open classes", "diameter", "least"])
def test_the_verifier_rejects_a_tampered_f201_step(tamper):
    cert = certificate("n", 2, 4)
    if tamper == "order":  # |G| = 2n on a class s ∤ n
        cases = step_of(cert, "SYM-AUT")["data"]["order cases"]
        next(c for c in cases if c["residue"] == 1)["order"] = {"op": "*", "args": [2, {"sym": "n"}]}
        rule = "SYM-AUT"
    elif tamper == "range":  # below s(3w + 2) = 32
        step_of(cert, "SYM-AUT")["data"]["from"] = 20
        rule = "SYM-AUT"
    elif tamper == "open classes":  # F201 states the group on every class
        step_of(cert, "SYM-AUT")["data"]["open classes"] = {"modulus": 4, "residues": [1]}
        rule = "SYM-AUT"
    elif tamper == "diameter":
        step_of(cert, "PAT-CONNECTED")["data"]["diameter"] = 3
        rule = "PAT-CONNECTED"
    else:  # 3 layers stated least on every class: 2 suffice on n mod 4 ∈ {0, 2, 3} (Theorems F218, F219)
        step_of(cert, "PAT-LAYERS")["data"]["layers"] = 3
        rule = "PAT-LAYERS"
    report = verify(cert)
    assert not report.ok
    assert next(x for x in report.steps if x.rule == rule).outcome == REJECTED
