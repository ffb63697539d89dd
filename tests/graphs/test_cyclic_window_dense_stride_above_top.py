"""The lengths of `window(w) cyclic + strided(s)`, 2 ≤ s ≤ w, between `small_lengths.TOP` and Theorem F226's N₁
(docs/theory.md §11.11, F226's *Use*): each is derived at that n (`small_lengths.above_top`), its group the concrete
engine's (F205's), D = 2, and its count F224's (3, least) on F224's classes, the swap witness's or Theorem F111's table's
where one answers, the rooted views' where G is transitive (s | n), else D + 1 = 3, sufficient. No length below N₁ is
left "not decided".

Checked a second way: at every such length the order against F205's closed form (2n when s | n, 4 on the twins' class,
else 2), a count stated least against the verifier's own decision on its own arcs (verifier/far_table.py, or nauty's
rooted views; shares no code with the engines), a count stated sufficient is D + 1 = 3 (never below the least one);
at lengths where the concrete engine's rooted views are cheap, the stated count against theirs; and a forged
certificate claiming 2 layers least at a length of F224's class is rejected by `uapcheck verify`."""
from __future__ import annotations

import pytest

import uapcheck
from certificates import certificate_of, rejects
from uapcheck.graphs import cyclic_covered_least as L
from uapcheck.parse import parse_source
from uapcheck.rules import small_lengths
from uapcheck.verifier import patterns as VP
from uapcheck.verifier.by_class import _view_problem

SYMBOLIC = """tokens n
attention {{
  kernel k(x, y) = exp(x . y)
  pattern window({w}) cyclic + strided({s})
}}
"""


def _order(w: int, s: int, n: int) -> int:
    """Theorem F205's order at n ≥ N₀."""
    return 2 * n if n % s == 0 else 4 if w % s == 0 and n % s == 1 else 2


def _stated(w: int, s: int, lengths) -> list:
    spec = parse_source(SYMBOLIC.format(w=w, s=s), "x.uap")
    assert small_lengths.above_top(spec) == L.dense_low(w, s)
    return [r for r, _ in small_lengths.decide(spec, list(lengths))]


def _verifier_problem(w: int, s: int, n: int):
    from uapcheck.spec import PatternUnion, Strided, Window
    arcs = VP.head_arcs(PatternUnion((Window(w, True), Strided(s))), n)
    reflection = tuple(range(n, 0, -1))
    gens = [reflection] + ([tuple(list(range(2, n + 1)) + [1])] if n % s == 0 else []) \
        + ([(n,) + tuple(range(2, n)) + (1,)] if _order(w, s, n) == 4 else [])
    return _view_problem([arcs], n, 2, [list(g) for g in gens])


@pytest.mark.parametrize("w, s, top, stop", [
    (5, 3, 128, 176),    # the catalog's cyclic_window_dense_stride_n: 129…175 of 129…215
    (4, 2, 128, 150),    # the catalog's twins file: 129…149 of 129…159 (the twins' class by F111's table)
    (4, 4, 79, 100),     # F224's class n ≡ 2: 3, least, from N₀ = 80
    (3, 3, 59, 80),      # no class of F224: s | n by the rooted views, the others 3, sufficient
])
def test_every_length_up_to_n1_is_stated_and_re_checked(monkeypatch, w, s, top, stop):
    monkeypatch.setattr(small_lengths, "TOP", top)
    low = max(L.dense_low(w, s), top + 1)
    lengths = range(low, min(stop, L.dense_pump_from(w, s)))
    records = _stated(w, s, lengths)
    assert [r.n for r in records] == list(lengths)
    for r in records:
        n = r.n
        assert r.verdict is not None and r.verdict.value == "UAP", r.words()
        assert r.group.order == _order(w, s, n), n
        if n % s in L.dense_witness_classes(w, s):
            assert (r.layers, r.least) == (3, True), n  # F224's witness
        if r.least:
            problem = _verifier_problem(w, s, n)
            assert (problem is None) == (r.layers == 2), (n, problem)
        else:
            assert r.layers == 3, n  # D + 1 with D = 2: sufficient
        if n % s == 0:
            assert (r.layers, r.least) == (2, True), n  # one root, the rooted views: D = 2 suffice


def test_the_catalog_pairs_state_every_length_below_n1():
    spec = parse_source(SYMBOLIC.format(w=4, s=2), "x.uap")
    assert small_lengths.above_top(spec) == 80
    for bad in ("layers 2\n", "positional absolute\n"):
        assert small_lengths.above_top(parse_source(SYMBOLIC.format(w=4, s=2) + bad, "x.uap")) is None
    assert small_lengths.above_top(parse_source(SYMBOLIC.format(w=3, s=5), "x.uap")) is None  # s > w: not F205's


@pytest.mark.parametrize("w, s, n", [(4, 4, 82), (4, 4, 86), (3, 3, 61), (3, 3, 63)])
def test_the_stated_count_is_the_concrete_engines_where_it_is_least(monkeypatch, w, s, n):
    monkeypatch.setattr(small_lengths, "TOP", n - 1)
    (r,) = _stated(w, s, [n])
    concrete = uapcheck.check(SOURCE_AT.format(n=n, w=w, s=s), "x.uap")
    assert concrete.verdict == "UAP" and r.group.order == int(concrete.group.order)
    if r.least:
        assert r.layers == concrete.layers
    else:
        assert r.layers >= concrete.layers


SOURCE_AT = "tokens {n}\n" + SYMBOLIC.split("\n", 1)[1]


def test_a_forged_count_of_two_on_f224s_class_is_rejected(monkeypatch):
    """`window(4) cyclic + strided(4)`: at n = 82 ≡ 2 (F224's class, below N₁ = 208) the certificate states 3, least;
    the forged one 2, least, which `uapcheck verify` rejects (its own decision on its own arcs finds the view witness).
    TOP is lowered to 0 here, so the lengths from N₀ = 80 are the ones derived above it (those below N₀ are then not
    decided, and the verifier reads no count there)."""
    monkeypatch.setattr(small_lengths, "TOP", 0)
    spec = parse_source(SYMBOLIC.format(w=4, s=4), "x.uap")  # the lengths from 86 on: not decided (work spent)
    monkeypatch.setattr(small_lengths, "LENGTHS_WORK", sum(small_lengths.length_work(spec, v) for v in range(80, 86)))
    cert = certificate_of(SYMBOLIC.format(w=4, s=4))
    step = next(s for s in cert["steps"] if s["rule"] == "VERDICT-T1")
    entry = next(x for x in step["data"]["lengths"] if x["n"] == 82)
    assert (entry["layers"], entry["least"]) == (3, True)
    assert not rejects(cert, "VERDICT-T1")
    entry["layers"] = 2
    assert rejects(cert, "VERDICT-T1")
