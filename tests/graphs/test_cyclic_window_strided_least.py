"""Theorems F200 and F202 (docs/theory.md §11.11, lemma AA): for `window(w) cyclic + strided(s)`, w + 1 ≤ s ≤ 2w + 1, n ≥
s(3w + 2) (D = 2, Theorem F197), 2 layers are not enough — 3 least — on every class for s = 2w + 1 (a block exchange
at position 1) and on the classes of a seam swap (S) or an end-root swap (E) for s ≤ 2w; for s ≤ 2w, D = 2 layers are
least on n ≡ 0 (mod s) (Theorem F218), and 3 stay sufficient on the other classes; for s = 2 (w = 1) Theorem F202 gives
D = 2 layers, least (a root's far positions are one parity, a clique).

Checked: every witness by the definition (σ keeps N(v) for v within distance 1 of its root, σ is no automorphism) on
arcs written from the language's definitions (tests/graphs/reference.py) over three periods from the range's start;
the classes and the count against the concrete engine (rooted views by canonical labelling) at every n in range up to
60 and over a whole period past the start; the verdict at a symbolic and a concrete n; the verifier's restatement and
its rejections. The range starts at s(3w + 2) ≥ 10, beyond brute force over S_n (n ≤ 8)."""
from __future__ import annotations

import functools
import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import cyclic_covered_least as L
from uapcheck.graphs import families as F
from uapcheck.render.verdict_lines import headline
from uapcheck.spec import Strided, Window
from uapcheck.verifier import REJECTED, VERIFIED, verify
from uapcheck.verifier import cyclic_covered_least as V

from .cyclic_window_strided_files import SOURCE, certificate, checked, pattern
from .reference import attends

N = sympy.Symbol("n", integer=True, positive=True)
#: every (w, s) of the family with w ≤ 5
FAMILY = [(w, s) for w in range(1, 6) for s in range(w + 1, 2 * w + 2)]
#: twelve tuples compared with the concrete engine
ENGINE = [(1, 2), (1, 3), (2, 3), (2, 4), (2, 5), (3, 4), (3, 5), (3, 6), (3, 7), (4, 6), (5, 7), (5, 8)]
#: the classes with a witness, as the concrete engine finds 3 layers least on exactly these (and 2 elsewhere)
CLASSES = {(1, 2): (), (1, 3): (0, 1, 2), (2, 3): (), (2, 4): (1,), (2, 5): (0, 1, 2, 3, 4), (3, 4): (1,),
           (3, 5): (1, 2), (3, 6): (1, 2, 3, 4), (3, 7): tuple(range(7)), (4, 6): (1, 2, 3), (5, 7): (1, 2, 3, 4),
           (5, 8): (1, 2, 3, 4, 5, 6)}


@functools.lru_cache(maxsize=None)
def _closed(w: int, s: int, n: int) -> tuple:
    """N[v] for v = 0..n (0 unused) from the reference arcs."""
    arcs = attends(pattern(w, s), n)
    out = [frozenset()] + [frozenset({v}) for v in range(1, n + 1)]
    for i, j in arcs:
        out[i] = out[i] | {j}
    return tuple(out)


def _is_witness(w: int, s: int, n: int, root: int, cycles) -> bool:
    nb = _closed(w, s, n)
    sigma = list(range(n + 1))
    for a, b in cycles:
        sigma[a], sigma[b] = b, a

    def keeps(v: int) -> bool:
        return frozenset(sigma[u] for u in nb[v]) == nb[sigma[v]]
    return all(keeps(v) for v in nb[root]) and not all(keeps(v) for v in range(1, n + 1))


@pytest.mark.parametrize("w, s", FAMILY)
def test_every_witness_keeps_the_ball_and_is_no_symmetry(w, s):
    low, classes = L.low(w, s), L.witness_classes(w, s)
    assert (len(classes) == s) == (s == 2 * w + 1)
    for n in range(low, low + 3 * s):
        found = L.witness(w, s, n)
        assert (found is not None) == (n % s in classes), n
        if found is not None:
            assert _is_witness(w, s, n, *found), (n, found)
    assert L.witness(w, s, low - 1) is None


@pytest.mark.parametrize("w, s", ENGINE)
def test_the_classes_and_the_count_are_the_concrete_engine_s(w, s):
    assert L.witness_classes(w, s) == CLASSES[(w, s)]
    theorem = F.match([pattern(w, s)], N, {})
    divisible = 3 <= s <= 2 * w  # Theorem F218: 2 layers, least, on n ≡ 0 (mod s)
    assert theorem.theorem == "F201"
    low = L.low(w, s)
    for n in range(low, max(60, low + s) + 1):
        got = F.concrete(pattern(w, s), n)
        assert got.least and got.diameter == 2, n
        proved = n % s in CLASSES[(w, s)]
        assert got.layers == (3 if proved else 2), n  # 2 on the other classes: Theorems F218, F219 (F202 for s = 2)
        count = int(theorem.layers.xreplace({N: n}))
        if s == 2:  # Theorem F202: D = 2 layers, least, on every class
            assert theorem.least and count == 2, n
            continue
        two = divisible and (n % s == 0 or n % s in L.suffice_classes(w, s))  # F218 on 0, F219 on its classes
        assert count == (2 if two else 3), n
        assert theorem.least_at(n) == (proved or two) and got.layers <= count, n
        if theorem.least_at(n):
            assert got.layers == count, n
    if divisible:  # F200, F218 and F219 together decide every class: least on every class
        assert theorem.least and theorem.open_question == "", (w, s)


def test_the_least_flag_by_class_at_symbolic_n():
    t = F.match([pattern(5, 7)], N, {})  # F218 on 7 | n, F219 on 5, 6 (2 layers), F200's witnesses on 1, …, 4 (3)
    assert t.least and t.least_classes == () and t.open_question == ""
    assert all(int(t.layers.xreplace({N: 140 + r})) == (2 if r in (0, 5, 6) else 3) for r in range(7))
    t = F.match([pattern(2, 5)], N, {})
    assert t.least and t.least_classes == () and t.open_question == "" and t.layers == 3
    t = F.match([pattern(1, 2)], N, {})  # Theorem F202: the far positions are the other parity, D = 2 least
    assert t.least and t.layers == 2 and t.least_classes == ()
    t = F.match([pattern(2, 3)], N, {})  # no witness on any class: 2 least on 3 | n (F218) and elsewhere (F219)
    assert t.least and t.least_classes == () and t.layers == 2
    t = F.match([pattern(2, 5)], sympy.Integer(45), {})  # at a length: one count, one flag
    assert t.least and t.layers == 3
    t = F.match([pattern(5, 7)], sympy.Integer(700), {})
    assert t.least and t.layers == 2 and "F218" in str(t.why_layers)
    t = F.match([pattern(5, 7)], sympy.Integer(705), {})  # n ≡ 5: Theorem F219
    assert t.least and t.layers == 2 and "F219" in str(t.why_layers)
    t = F.match([pattern(5, 7)], sympy.Integer(704), {})  # n ≡ 4: F200's witness
    assert t.least and t.layers == 3


def test_the_seam_swap_of_the_catalog_head():
    # n = 120 ≡ 1 (mod 7): j = 0, x = 1, y = n; R_0 = {1, 6, 3}; the root is the least position ≥ 17 ≡ 0 (mod 7)
    assert L.seam_residues(5, 7, 0) == frozenset({1, 6, 3})
    assert L.witness(5, 7, 120) == (21, ((1, 120),))
    assert L.seam_root_residue(5, 7, 5) is None and L.end_root_pair(5, 7, 5) is None  # n ≡ 5: R_4 is every residue
    # (5, 8) at n ≡ 5, 6: no seam swap, an end-root swap
    assert L.seam_root_residue(5, 8, 6) is None and L.end_root_pair(5, 8, 6) is not None


def test_the_verdicts():
    r = checked("n", 5, 7)
    assert r.verdict == "UAP" and "2 if n mod 7 ∈ {0, 5, 6}, else 3 attention layers" in headline(r)
    assert "sufficient" not in headline(r)
    r = checked("n", 2, 5)
    assert r.verdict == "UAP" and r.layers == 3 and "sufficient" not in headline(r)
    # a concrete n past the concrete engine's reach: the flag of n's class
    r = checked(701, 5, 7)
    assert r.layers == 3 and "sufficient" not in headline(r)


def _layers(cert: dict) -> dict:
    return next(x for x in cert["steps"] if x["rule"] == "PAT-LAYERS")


@pytest.mark.parametrize("n, w, s", [("n", 5, 7), ("n", 2, 5), ("n", 2, 4), (701, 5, 7)])
def test_the_verifier_restates_the_classes(n, w, s):
    report = verify(certificate(n, w, s))
    assert report.ok and report.complete, [(x.rule, x.outcome, x.reason) for x in report.steps] + report.problems
    step = next(x for x in report.steps if x.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED and "F201" in step.reason


@pytest.mark.parametrize("tamper", ["every class", "a forged class", "not least"])
def test_the_verifier_rejects_a_tampered_count(tamper):
    if tamper == "not least":
        cert = certificate("n", 2, 5)
        _layers(cert)["data"]["least"] = False
    else:
        cert = certificate("n", 5, 7)
        if tamper == "every class":  # 2 layers on every class: F200's witnesses refute it on n ≡ 1, …, 4
            _layers(cert)["data"]["layers"] = 2
        else:
            _layers(cert)["data"]["least"] = False
            _layers(cert)["data"]["least classes"] = {"modulus": 7, "residues": [1, 2, 3, 4, 5]}
    report = verify(cert)
    assert not report.ok
    assert next(x for x in report.steps if x.rule == "PAT-LAYERS").outcome == REJECTED


@pytest.mark.parametrize("w, s", FAMILY)
def test_the_verifier_s_classes_are_the_engine_s(w, s):
    assert V.classes(w, s) == L.witness_classes(w, s)


def test_the_verifier_s_own_search_agrees_at_a_length():
    # a length where F200 gives no witness: the verifier's own search finds none either; at 120 and 40 its witness holds
    assert V.witness(5, 7, 124) is None and V.layers_problem(5, 7, 124, 2) is None
    assert V.layers_problem(5, 7, 120, 2) is None and V.layers_problem(2, 5, 40, 2) is None


def test_a_budget_of_two_layers_is_refuted_on_the_witness_classes_only():
    src = SOURCE.format(n="n", w=5, s=7).replace("attention", "layers 2\nattention", 1)
    r = uapcheck.check(src, "t.uap")
    text = headline(r)
    # UAP on 7 | n (Theorem F218) and on n ≡ 5, 6 (Theorem F219): 2 layers least; NOT-UAP on F200's classes
    assert text.startswith("UAP · G = D_n when 7 | n, else the reflection i ↦ n + 1 − i · 2 attention layers (for n ≥ "
                           "119 and (n mod 7 ∈ {0, 5, 6})); NOT-UAP for n ≥ 119 and (n mod 7 ∈ {1, 2, 3, 4})"), text
    assert "INCONCLUSIVE" not in text
    report = verify(json.loads(json.dumps(certfile.build(r, src))))
    assert report.ok and report.complete
    src = SOURCE.format(n="n", w=2, s=5).replace("attention", "layers 2\nattention", 1)
    r = uapcheck.check(src, "t.uap")
    assert r.verdict == "NOT-UAP" and "NOT-UAP (for n ≥ 40)" in headline(r)


@pytest.mark.parametrize("w, s", [(5, 7), (2, 5), (3, 6), (4, 7)])
def test_the_witnesses_keep_each_head_when_the_parts_are_split(w, s):
    """`window(w) cyclic` | `strided(s)`: σ keeps N_h(v) for both heads and every v of the union's N[root], and moves a
    head (docs/theory.md, F200, several heads)."""
    low = L.low(w, s)
    for n in range(low, low + s):
        found = L.witness(w, s, n)
        if found is None:
            continue
        root, cycles = found
        heads = []
        for part in (Window(w, True), Strided(s)):
            arcs = attends(part, n)
            nb = [frozenset()] + [frozenset({v}) for v in range(1, n + 1)]
            for i, j in arcs:
                nb[i] = nb[i] | {j}
            heads.append(nb)
        sigma = list(range(n + 1))
        for a, b in cycles:
            sigma[a], sigma[b] = b, a
        ball = _closed(w, s, n)[root]

        assert all(_keeps(sigma, nb, v) for nb in heads for v in ball), (n, found)
        assert not all(_keeps(sigma, nb, v) for nb in heads for v in range(1, n + 1)), (n, found)


def _keeps(sigma: list, nb: list, v: int) -> bool:
    return frozenset(sigma[u] for u in nb[v]) == nb[sigma[v]]


@pytest.mark.parametrize("n", range(10, 41))
def test_the_far_positions_of_a_parity_stride_are_one_clique(n):
    """Theorem F202 (`window(1) cyclic + strided(2)`): at every root the positions at distance 2 (outside N[i]) have the
    other parity and are pairwise adjacent, on the reference arcs."""
    nb = _closed(1, 2, n)
    for i in range(1, n + 1):
        far = [v for v in range(1, n + 1) if v not in nb[i]]
        assert all(any(v in nb[z] for z in nb[i]) for v in far)  # D = 2
        assert all((v - i) % 2 for v in far) and all(u in nb[v] for u in far for v in far)


def test_the_verifier_restates_the_parity_stride():
    report = verify(certificate("n", 1, 2))
    assert report.ok and report.complete
    step = next(x for x in report.steps if x.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED and "F202" in step.reason
    cert = certificate("n", 1, 2)
    _layers(cert)["data"]["layers"] = 3
    assert not verify(cert).ok
