"""A `layers M` budget against a count that depends on n mod L (docs/theory.md §12, least-class budgets): a budget
below the count is NOT-UAP on the classes where the count is least (Theorems F110 and F113; and on those where M is
below D), and undecided (PAT-BUDGET-VIEW) where it is not shown least. Checked a second
way: the diameters by BFS on the reference arcs, the swap as a view witness on them, the concrete engine at lengths
of each class, brute force over S_n at small n; the kernel and the verifier re-check the classes, and reject them
tampered."""
from __future__ import annotations

import functools
import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile, proof
from uapcheck.graphs import blocks_window_strided_classes as B
from uapcheck.render import jsonout
from uapcheck.render.verdict_lines import headline
from uapcheck.verifier import REJECTED, VERIFIED, verify

from graphs.brute_views import diameter, least_layers, neighbourhoods  # tests/graphs (tests/ is on sys.path)
from graphs.reference import attends, distances_from

SOURCE = """tokens {n}
layers {m}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern {pattern}
}}
"""
WIDE = "blocks(4) + window(2) + strided(5)"    # Theorem F93: D = 3 on n mod 20 ∈ {0, 5, 6, 10, 11, 15, 16}, else 2
SHORTER = "blocks(4) + window(1) + strided(7)"  # the catalog's blocks_window_strided_shorter_n: D = 3, 4 off 4 | n, 3 on it
N = sympy.Symbol("n", integer=True, positive=True)
WIDE_D3 = {0, 5, 6, 10, 11, 15, 16}


def _check(pattern: str, n, m: int):
    return uapcheck.check(SOURCE.format(n=n, m=m, pattern=pattern), "b.uap")


@pytest.fixture(scope="module")
def wide_two():
    return _check(WIDE, "n", 2)


@pytest.fixture(scope="module")
def shorter_three():
    return _check(SHORTER, "n", 3)


def _steps(result, rule):
    return [s for s in result.root.walk() if s.rule == rule]


def test_a_budget_below_d_or_a_least_count_on_every_class_is_not_uap_on_the_range(wide_two):
    """`layers 2`: below D = 3 on seven classes mod 20, below the count 3 that Theorem F110 shows least on the
    others; the range is n ≥ 76 alone (every class), and the lengths below it are each decided."""
    r = wide_two
    assert r.verdict == "NOT-UAP"
    assert headline(r) == "NOT-UAP (for n ≥ 76); UAP at n = 1…8, 12; NOT-UAP at n = 9…11, 13…75"
    (step,) = _steps(r, "PAT-BUDGET-CLASS")
    assert step.proved and step.facts["modulus"] == 20 and step.facts["residues"] == tuple(range(20))
    assert step.facts["residue_class"] == sympy.Ge(N, 76)
    assert "below the directed diameter on some classes (D = 3 for n mod 20 in {0, 5, 6, 10, 11, 15, 16}" in step.claim
    assert "below the least number of layers on the others (m = 3 for n mod 20 in {1, 2, 3, 4, 7" in step.claim
    assert not _steps(r, "PAT-BUDGET-VIEW")
    assert jsonout.result_json(r)["range"] == "n ≥ 76"


def _bfs_from(pairs, n: int, root: int) -> dict:
    """d(v → root) on the reference arcs (j → i when query i attends to key j)."""
    return distances_from({i: [j for (q, j) in pairs if q == i] for i in range(1, n + 1)}, root)


def _is_view_witness(pairs, n: int, root: int, x: int, y: int) -> bool:
    """The swap (x y) keeps the closed neighbourhood of every position within D − 1 of the root (D = 2: the root's
    own) and is no symmetry, on the reference arcs."""
    near = {v: frozenset([v] + [j for (i, j) in pairs if i == v]) for v in range(1, n + 1)}
    sigma = {v: v for v in range(1, n + 1)}
    sigma[x], sigma[y] = y, x
    dist = _bfs_from(pairs, n, root)
    d = max(dist.values())
    keeps = all(frozenset(sigma[u] for u in near[v]) == near[sigma[v]] for v in near if dist.get(v, d) <= d - 1)
    symmetry = all(frozenset(sigma[u] for u in near[v]) == near[sigma[v]] for v in near)
    return keeps and not symmetry


@pytest.mark.parametrize("n", range(76, 96))
def test_each_class_fails_two_layers_on_the_reference_arcs(n):
    """At one length of every class mod 20: D by BFS is the engine's (3 on the seven classes, else 2); where D = 2
    Theorem F110's swap is a view witness for 2 layers on the reference arcs; so `layers 2` fails either way."""
    parse = uapcheck.parse.parse_source(SOURCE.format(n=n, m=2, pattern=WIDE), "b.uap")
    pairs = attends(parse.heads[0].pattern, n)
    d = max(max(_bfs_from(pairs, n, i).values()) for i in range(1, n + 1))
    assert d == (3 if n % 20 in WIDE_D3 else 2)
    if d == 2:
        found = B.swap_witness(n, 4, 2, 5, 2)
        assert found is not None and _is_view_witness(pairs, n, *found)


@pytest.mark.parametrize("n", [76, 77, 80, 81, 95])
def test_the_concrete_engine_agrees_on_the_range(n):
    """2 layers fail at each class; 3 are enough at these lengths (the concrete engine's least count is D or D + 1
    = 3 where D = 2, and D = 3 where D = 3 at these lengths)."""
    assert _check(WIDE, n, 2).verdict == "NOT-UAP"
    assert _check(WIDE, n, 3).verdict == "UAP"


@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_the_lengths_below_the_range_against_brute_force(wide_two, n):
    """The verdict stated at each small length is the one brute force over S_n gives for 2 layers."""
    record = next(x for x in wide_two.root.facts["below_range"] if x.n == n)
    nbs = neighbourhoods([WIDE], n)
    fits = diameter(nbs, n) is not None and least_layers(nbs, n) <= 2
    assert record.verdict is (proof.Verdict.UAP if fits else proof.Verdict.NOT_UAP)


def test_the_catalog_pattern_is_not_uap_where_four_layers_are_least_and_uap_where_three_are(shorter_three):
    """`layers 3` on blocks(4) + window(1) + strided(7): D = 3, the count 4 least for n mod 4 ∈ {1, 2, 3} (Theorem
    F110) and 3 = D least for 4 | n (Theorem F113): NOT-UAP on the first classes, UAP on the last (formerly
    INCONCLUSIVE there)."""
    r = shorter_three
    assert r.verdict == "UAP"
    assert headline(r).startswith("UAP · G = the reflection i ↦ n + 1 − i when 4 | n, else trivial · 3 attention "
                                  "layers (for n ≥ 116 and n mod 4 = 0); NOT-UAP for n ≥ 116 and (n mod 4 ∈ {1, 2, "
                                  "3}); UAP at n = 1…12, 20, 22…40")
    (step,) = _steps(r, "PAT-BUDGET-CLASS")
    assert step.facts["modulus"] == 4 and step.facts["residues"] == (1, 2, 3)
    assert not _steps(r, "PAT-BUDGET-VIEW")
    out = jsonout.result_json(r)
    assert out["by_class"] == [{"condition": "n ≥ 116 and (n mod 4 ∈ {1, 2, 3})", "verdict": "NOT-UAP"}]


@pytest.mark.parametrize("n", [117, 118, 119, 120])
def test_the_catalog_pattern_against_the_concrete_engine(n):
    """Where the count is 4, least, 3 layers fail at n; at 4 | n the concrete engine finds 3 enough, as the symbolic
    verdict states (Theorem F113)."""
    got = _check(SHORTER, n, 3)
    assert got.verdict == ("UAP" if n % 4 == 0 else "NOT-UAP")


def test_the_kernel_checks_the_least_classes(shorter_three, wide_two):
    from uapcheck.certificates import BudgetByClass
    (step,) = _steps(shorter_three, "PAT-BUDGET-CLASS")
    layer_step = step.premises[0]
    BudgetByClass(layer_step, 3, 4, (1, 2, 3)).check()
    for bad in (BudgetByClass(layer_step, 3, 4, (0, 1, 2, 3)),  # 4 | n: the count is 3 = D there
                BudgetByClass(layer_step, 4, 4, (1, 2, 3)),  # 4 layers are the count
                BudgetByClass(layer_step, 3, 3, (1, 2))):  # not a multiple of the classes' modulus
        with pytest.raises(proof.CertificateRejected):
            bad.check()
    (wide,) = _steps(wide_two, "PAT-BUDGET-CLASS")
    BudgetByClass(wide.premises[0], 2, 20, tuple(range(20))).check()
    with pytest.raises(proof.CertificateRejected):
        BudgetByClass(wide.premises[0], 3, 20, (1,)).check()  # D = 2 there and 3 = the count


@functools.lru_cache(maxsize=None)
def _cert_text(pattern: str, m: int) -> str:
    text = SOURCE.format(n="n", m=m, pattern=pattern)
    return json.dumps(certfile.build(uapcheck.check(text, "b.uap"), text))


@pytest.fixture(scope="module", autouse=True)
def _forget_certificates():
    yield
    _cert_text.cache_clear()


def _cert(pattern: str, m: int) -> dict:
    """The file's certificate, derived once per file; each call returns a copy of its own to tamper with."""
    return json.loads(_cert_text(pattern, m))


@pytest.mark.parametrize("pattern, m", [(WIDE, 2), (SHORTER, 3)])
def test_the_verifier_re_checks_the_least_class_budget(pattern, m):
    report = verify(_cert(pattern, m))
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps] + report.problems
    assert next(s for s in report.steps if s.rule == "PAT-BUDGET-CLASS").outcome == VERIFIED


@pytest.mark.parametrize("tamper", ["class 0", "forged least classes", "not least"])
def test_the_verifier_rejects_a_tampered_least_class_budget(tamper):
    cert = _cert(SHORTER, 3)
    budget = next(s for s in cert["steps"] if s["rule"] == "PAT-BUDGET-CLASS")
    layers = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    if tamper == "class 0":  # NOT-UAP claimed where 3 layers are the count
        budget["data"]["classes"]["residues"] = [0, 1, 2, 3]
    elif tamper == "forged least classes":
        layers["data"]["least"] = False
        layers["data"]["least classes"] = {"modulus": 4, "residues": [0, 1, 2, 3]}
    else:
        layers["data"]["least"] = False
    # the steps the tamper changed are re-checked (the untampered certificate is verified in full above)
    changed = {budget["id"]} if tamper == "class 0" else {budget["id"], layers["id"]}
    report = verify(cert, only=changed)
    assert not report.ok
    assert next(s for s in report.steps if s.rule == "PAT-BUDGET-CLASS").outcome == REJECTED
