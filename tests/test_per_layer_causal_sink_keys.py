"""Theorem F145 (docs/theory.md §21.9): per-layer causal heads with attention sinks whose layers before the first of
positive width are the identity have a causal view witness at root i and depth m ≥ D_c exactly when two positions
outside V_ℓ₁(i) have the same out-sets into it (then their transposition is one), so the least count is decided
exactly, also without a layer of width ∞ (where the covering lemma gives one more).

Checked two ways: against a brute force over S_n written here from §21.3's definition (no engine code, n ≤ 6), root
by root and depth by depth; and the count against §21.5's rooted-view engine (which shares no code with F145) at
every n ≤ 60 for several lists; the verifier re-derives the twins and rejects forged counts and witnesses."""
from __future__ import annotations

import copy
import itertools
import json
import random

from dataclasses import replace

import pytest

import uapcheck
from uapcheck import certfile, proof
from uapcheck.graphs.layers_causal import causal_least_layers, prefix_reach
from uapcheck.graphs.layers_sinks import SinkLayers, decide, key_layer, twin_at
from uapcheck.layer_certificates import CausalSinkCount
from uapcheck.parse import parse_source
from uapcheck.rules.layers import build_sequence, layer_patterns
from uapcheck.verifier import verify
from uapcheck.verifier.check import REJECTED, VERIFIED

from sample_sizes import lengths  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1

INF = None


def nb(w, k, v: int) -> set:
    """N(v) of `causal & window(w) + sinks(k)` from its definition (§21.9)."""
    out = {x for x in range(1, v + 1) if w is None or x >= v - w}
    return out | (set(range(1, k + 1)) if v > k else set())


def brute_views(rows, periodic: bool, i: int, m: int) -> list:
    """V_0 … V_m of §21.3 by the recursion on explicit sets."""
    views: list = [set() for _ in range(m + 1)]
    views[m] = {i}
    for ell in range(m, 0, -1):
        row = rows[(ell - 1) % len(rows)]
        views[ell - 1] = set().union(*(nb(w, k, v) for v in views[ell] for w, k in row))
    return views


def brute_witness(rows, n: int, i: int, m: int) -> bool:
    """Some σ ∈ S_n, not the identity on [1, i], meets §21.3's condition at root i and depth m."""
    views = brute_views(rows, True, i, m)
    for perm in itertools.permutations(range(1, n + 1)):
        s = dict(zip(range(1, n + 1), perm))
        if all(s[x] == x for x in range(1, i + 1)):
            continue
        if all({s[x] for x in nb(w, k, v)} == nb(w, k, s[v])
               for ell in range(1, m + 1) for v in views[ell] for w, k in rows[(ell - 1) % len(rows)]):
            return True
    return False


def brute_reached(rows, n: int, m: int) -> bool:
    return all(brute_views(rows, True, v, m)[0] == set(range(1, v + 1)) for v in range(1, n + 1))


HEADS = [(1, 0), (2, 0), (3, 0), (1, 1), (1, 2), (2, 1), (2, 3), (3, 2), (INF, 0), (1, 4), (4, 1)]


def random_rows(rng: random.Random) -> tuple:
    """Periodic rows whose first layer has a head of width ≥ 1, sometimes after an identity layer."""
    rows = [tuple(rng.choice(HEADS) for _ in range(rng.choice([1, 1, 2]))) for _ in range(rng.choice([1, 2, 2, 3]))]
    if rng.random() < 0.2:
        rows.insert(0, ((0, 0),))
    return tuple(rows)


@pytest.mark.parametrize("seed", range(4))
def test_the_twins_are_exactly_the_witnesses_of_the_brute_force(seed):
    rng = random.Random(seed)
    compared = witnessed = 0
    for _ in range(12):
        rows = random_rows(rng)
        for n in range(3, 7):
            L = SinkLayers(n, rows, True, None)
            ell = key_layer(L)
            assert ell is not None
            d = next(m for m in range(0, 4 * n) if brute_reached(rows, n, m))
            for m in range(max(d, ell, 1), max(d, ell, 1) + 3):
                for i in range(2, n + 1):
                    want = brute_witness(rows, n, i, m)
                    got = twin_at(L, ell, m, i)
                    assert (got is not None) == want, (rows, n, m, i, got)
                    compared += 1
                    witnessed += want
    assert compared > 300 and witnessed > 10


def engine_count(rows, n: int):
    pats = [", ".join(("causal" if w is None else ("offsets {0}" if w == 0 else f"causal & window({w})"))
                      + (f" + sinks({k})" if k else "") for w, k in (row[h] if h < len(row) else row[-1]
                                                                      for row in rows)) for h in range(2)]
    src = "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern periodic {{ {p} }}\n}}\n" for p in pats)
    spec = parse_source(src + f"tokens {n}\ntarget causal\n")
    seq = build_sequence(spec)
    reach = prefix_reach(seq, seq.depth)
    least = causal_least_layers(seq, max(reach.depth, 1), reach.depth + 2 * seq.period + 2)
    assert not least.reason
    return reach.depth, least.layers


LISTS = [
    ((3, 2), (3, 0)),          # the issue's { causal & window(3) + sinks(2), causal & window(3) }
    ((2, 1), (2, 0)),
    ((3, 2), (1, 2)),
    ((1, 3), (2, 0), (1, 1)),
    ((4, 1), (1, 0)),
]


@pytest.mark.parametrize("widths", LISTS)
def test_the_count_equals_the_rooted_views_at_every_n_up_to_60(widths):
    rows = tuple((h,) for h in widths)
    below_covering = 0
    for n in range(max(k for _, k in widths) + 1, 61):
        got = decide(SinkLayers(n, rows, True, None))
        d, least = engine_count(tuple((h, h) for h in widths), n)
        assert (got.depth, got.layers, got.least) == (d, least, True), (widths, n, got, least)
        below_covering += got.keys is not None and got.twin is None and got.layers == max(d, 1)
    assert below_covering > 20


def test_the_issue_list_is_d_c_least_from_n_10_where_the_covering_gave_one_more():
    """{ causal & window(3) + sinks(2), causal & window(3) }: D_c layers, least, at every n from 10 to 60 (the covering
    lemma gives D_c + 1); at n = 6 … 9 the count is 3 > D_c with the twins (1 2) at root 6, depth 2 (the sinks 1, 2 of
    layer 1 lie in every later view position's neighbourhood alike)."""
    from uapcheck.graphs.layers_sinks import covering_depth
    for n in range(6, 61):
        L = SinkLayers(n, (((3, 2),), ((3, 0),)), True, None)
        got = decide(L)
        assert got.least and got.keys == 1
        if n >= 10:
            assert got.layers == got.depth == covering_depth(L, got.depth, 200) - 1, n
        else:
            assert (got.layers, got.twin) == (3, (6, 2, 1, 2)), n
        CausalSinkCount(L, got).check()  # the kernel re-decides, re-checks the twins and (n ≤ 200) the explicit sets
        for bad in (replace(got, layers=got.layers - 1), replace(got, twin=None, least=True)
                    if got.twin is not None else replace(got, keys=None)):
            with pytest.raises(proof.CertificateRejected):
                CausalSinkCount(L, bad).check()


def file(n: int) -> str:
    return ("attention {\n  kernel k(x, y) = exp(x . y)\n  pattern periodic { causal & window(64) + sinks(4), "
            f"causal & window(32) + sinks(4) }}\n}}\ntokens {n}\ntarget causal\n")


def sinks_step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "SEQ-CAUSAL-SINKS")


def test_a_count_one_below_or_a_false_sufficiency_is_rejected_by_the_verifier():
    src = file(2048)
    r = uapcheck.check(src, "t.uap")
    assert (r.layers, r.target.least) == (43, True)
    cert = json.loads(json.dumps(certfile.build(r, src)))
    assert verify(copy.deepcopy(cert)).problems == []
    below = copy.deepcopy(cert)
    sinks_step(below)["data"]["layers"] = 42
    assert any(s.outcome == REJECTED for s in verify(below).steps if s.rule == "SEQ-CAUSAL-SINKS")
    wrong = copy.deepcopy(cert)
    sinks_step(wrong)["data"]["sufficiency"]["layer"] = 2
    assert any(s.outcome == REJECTED for s in verify(wrong).steps if s.rule == "SEQ-CAUSAL-SINKS")


def test_twins_need_not_be_neighbours():
    """Layer 1 = { causal & window(4), causal & window(2) + sinks(3) }, layer 2 = { offsets {0}, causal & window(1) }
    at n = 7, root 7, depth 2: positions 3 and 5 lie in the same neighbourhoods of the view {6, 7} (3 as a sink), so
    (3 5) is a causal view witness while no transposition of neighbours is one (F128 (d) misses it, F145 finds it);
    the brute force agrees, and the verifier's set-by-set check accepts (3 5) and rejects (3 4)."""
    from uapcheck.graphs.layers_sinks import transposition_holds
    from uapcheck.verifier.causal_sinks import build
    rows = (((4, 0), (2, 3)), ((0, 0), (1, 0)))
    L = SinkLayers(7, rows, False, None)
    assert twin_at(L, 1, 2, 7) == (3, 5) and brute_witness(rows, 7, 7, 2)
    assert not any(transposition_holds(L, 7, 2, j) for j in range(1, 7))
    src = ("attention {\n  kernel k(x, y) = exp(x . y)\n  pattern sequence { causal & window(4), offsets {0} }\n}\n"
           "attention {\n  kernel k(x, y) = exp(x . y)\n  pattern sequence { causal & window(2) + sinks(3), "
           "causal & window(1) }\n}\ntokens 7\ntarget causal\n")
    K = build(parse_source(src))
    assert K.witness(7, 2, 3, 5) and not K.witness(7, 2, 3, 4) and K.twins(1, 2) is not None


ENGINE_HEADS = ["causal", "causal & window(1)", "causal & window(2)", "causal & window(3)", "offsets {0}",
                "causal & window(1) + sinks(1)", "causal & window(2) + sinks(2)", "causal & window(1) + sinks(3)",
                "causal & window(3) + sinks(1)", "offsets {0} + sinks(2)", "causal & window(2) + sinks(4)"]


@pytest.mark.parametrize("seed", range(2))
def test_random_lists_claimed_least_equal_the_rooted_views(seed):
    """Random sink and interval heads (one or two heads, finite and periodic, n from 7 to 40): every count claimed least
    equals §21.5's rooted views, never below them, and F145 decides the least for most lists."""
    from uapcheck.rules.layers import build_sequence as build
    rng = random.Random(100 + seed)
    keyed = 0
    for _ in range(200):
        kind = rng.choice(["periodic", "periodic", "sequence"])
        length = rng.randint(1, 4)
        heads = [[rng.choice(ENGINE_HEADS) for _ in range(length if kind == "sequence" else rng.randint(1, 3))]
                 for _ in range(rng.choice([1, 1, 2]))]
        n = rng.randint(7, 40)
        src = "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {kind} {{ {', '.join(p)} }}\n}}\n"
                      for p in heads) + f"tokens {n}\ntarget causal\n"
        spec = parse_source(src)
        seq = build(spec)
        per_layer, periodic = layer_patterns(spec)
        from uapcheck.graphs.layers_sinks import sink_layers
        L = sink_layers(per_layer, periodic, n, seq.depth)
        got, reach = decide(L), prefix_reach(seq, seq.depth)
        if reach.depth is None or got.layers is None:
            continue
        top = seq.depth if seq.depth is not None else reach.depth + 2 * seq.period + 2
        least = causal_least_layers(seq, max(reach.depth, 1), top)
        if least.reason:
            continue
        assert got.layers >= least.layers, (heads, kind, n)
        if got.least:
            assert got.layers == least.layers, (heads, kind, n, got)
        keyed += got.keys is not None
    assert keyed > 60


def f146(rows) -> tuple:
    """(N₁, the count at n) of F146 for periodic rows of finite widths whose first layer has a head of width ≥ 1."""
    p = len(rows)
    width = [max(w for w, _ in row) for row in rows]
    P = sum(width)
    S = [sum(width[:r]) for r in range(p)]
    counts = sorted({k for row in rows for _, k in row if k})
    kstar = max(counts, default=0)
    g0 = max([v - 1 - max([k for k in counts if k < v], default=0) for v in range(1, kstar + 1)], default=0)
    W = sum(width[(q - 1) % p] for q in range(1, 1 + p))  # W(0, ℓ₁ + p − 1] with ℓ₁ = 1
    N1 = max(kstar + 2 + W, kstar + 1 + g0)
    return N1, lambda n: sum(-((-(n - 1 - kstar - S[r])) // P) for r in range(p))


@pytest.mark.parametrize("seed", range(3))
def test_f146_closed_form_equals_the_decision_from_n1(seed):
    """Theorem F146 at a symbolic n: for periodic lists of finite widths (layer 1 of positive width), the count is
    Σ_r ⌈(n − 1 − k* − S_r)/P⌉, least, at every n ≥ N₁ — against F145's exact decision at every n from N₁ to 200 and
    against the rooted views at every n from N₁ to 40 and at 60 for the first lists (every n to 60 at night)."""
    rng = random.Random(200 + seed)
    finite = [(1, 0), (2, 0), (3, 0), (1, 1), (1, 2), (2, 1), (2, 3), (3, 2), (1, 4), (4, 1), (0, 0), (0, 2)]
    for t in range(15):
        rows = tuple(tuple(rng.choice(finite) for _ in range(rng.choice([1, 2]))) for _ in range(rng.choice([1, 2, 3])))
        if not any(w >= 1 for w, _ in rows[0]):
            rows = (((rng.randint(1, 3), rng.choice([0, 1, 2])),),) + rows[1:]
        N1, count = f146(rows)
        for n in range(N1, 201):
            got = decide(SinkLayers(n, rows, True, None))
            assert (got.depth, got.layers, got.least) == (count(n), count(n), True), (rows, n, got)
        if t < 4:
            for n in lengths(N1, 60, 40):  # UAPCHECK_NIGHTLY=1: every n up to 60
                d, least = engine_count(tuple(row + row[-1:] if len(row) == 1 else row for row in rows), n)
                assert least == count(n), (rows, n)


def head_text(w, k) -> str:
    base = "offsets {0}" if w == 0 else f"causal & window({w})"
    return base + (f" + sinks({k})" if k else "")


def symbolic_file(rows) -> str:
    heads = [", ".join(head_text(*row[h] if h < len(row) else row[-1]) for row in rows)
             for h in range(max(len(row) for row in rows))]
    return "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern periodic {{ {p} }}\n}}\n"
                   for p in heads) + "tokens n\ntarget causal\n"


SYMBOLIC = [(((3, 2),), ((3, 0),)), (((2, 1),), ((2, 0),)), (((1, 3),), ((2, 0),), ((1, 1),)),
            (((2, 0), (1, 2)), ((3, 1),)), (((0, 0),), ((2, 2),), ((1, 0),))]


@pytest.mark.parametrize("rows", SYMBOLIC)
def test_the_symbolic_verdict_is_the_concrete_derivation_at_every_n_up_to_60(rows):
    """F146 at a symbolic n: the formula from the stated start on and each length below it equal the concrete
    derivation at every n up to 60 (§21.5's rooted views there: no shared code with F145/F146); every step of the
    symbolic file verified."""
    import sympy
    src = symbolic_file(rows)
    r = uapcheck.check(src, "t.uap")
    assert r.verdict == "UAP" and r.target.least, (rows, r.verdict)
    start = int(r.target.range.split("≥")[1])
    n = sympy.Symbol("n", integer=True, positive=True)
    for value in range(start, 61):
        conc = uapcheck.check(src.replace("tokens n", f"tokens {value}"), "t.uap")
        assert conc.verdict == "UAP" and conc.target.least and conc.layers == int(r.layers.xreplace({n: value})), \
            (rows, value, conc.layers)
    rep = verify(json.loads(json.dumps(certfile.build(r, src))))
    assert rep.problems == [] and all(s.outcome == VERIFIED for s in rep.steps), \
        [(s.rule, s.outcome, s.reason) for s in rep.steps]


def test_a_forged_formula_or_start_is_rejected_by_the_verifier_and_the_kernel():
    from uapcheck.graphs.layers_sinks import sink_growth
    from uapcheck.layer_certificates import CausalSinkGrowth
    rows = SYMBOLIC[0]
    src = symbolic_file(rows)
    cert = json.loads(json.dumps(certfile.build(uapcheck.check(src, "t.uap"), src)))
    early = copy.deepcopy(cert)
    sinks_step(early)["data"]["from"] = 6  # n = 6 … 9 need one layer more
    assert any(s.outcome == REJECTED for s in verify(early).steps if s.rule == "SEQ-CAUSAL-SINKS")
    g = sink_growth(rows, True, None, "n")
    assert g is not None and (g.start, g.bound) == (10, 10)
    CausalSinkGrowth(rows, g, "n").check()
    for bad in (replace(g, start=6), replace(g, layers=g.layers + 1)):
        with pytest.raises(proof.CertificateRejected):
            CausalSinkGrowth(rows, bad, "n").check()
