"""Theorem F157 (docs/theory.md §21.9): per-layer causal sink heads whose layers before the first of positive width
have width 0 *with* sinks (`sinks(k)` alone, `offsets {0} + sinks(k)`). A causal view witness at root i and depth
m ≥ max(D_c, ℓ₁) exists exactly when two positions outside V_ℓ₁(i) have the same out-sets into it (F145) and lie below
the same sink counts k < i of the earlier layers (their bands); the transposition of such twins is one. So the least
count is decided exactly there too, and F146's closed form holds at a symbolic n.

Checked against a brute force over S_n written from §21.3's definition (no engine code; n ≤ 6), root by root and
depth by depth; the count against §21.5's rooted-view engine (no shared code with F145/F157) at every n ≤ 60 for
several lists; the symbolic verdict against the concrete derivation; the verifier's own twin search on a forged
count and with the earlier layers' out-sets left out (a mutation that must let a wrong count through)."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs.layers_sinks import SinkLayers, decide, gap_of, key_layer, out_key, twin_at
from uapcheck.verifier import verify
from uapcheck.verifier.check import REJECTED, VERIFIED

from test_per_layer_causal_sink_keys import brute_reached, brute_witness, engine_count

CATALOG = Path(__file__).resolve().parents[1] / "catalog"
EARLY = [(0, 1), (0, 2), (0, 3), (0, 0)]
WIDE = [(1, 0), (2, 0), (3, 0), (1, 1), (1, 2), (2, 1), (2, 3), (3, 2), (None, 0), (0, 2)]


def random_rows(rng: random.Random) -> tuple:
    """Periodic rows: one or two layers of width 0 with sinks, then one or two layers, the first of positive width."""
    rows = [tuple(rng.choice(EARLY) for _ in range(rng.choice([1, 1, 2]))) for _ in range(rng.choice([1, 1, 2]))]
    if not any(k for row in rows for _, k in row):
        rows[0] = ((0, rng.randint(1, 3)),)
    first = tuple(rng.choice(WIDE) for _ in range(rng.choice([1, 2])))
    if not any(w is None or w >= 1 for w, _ in first):
        first = ((rng.randint(1, 3), rng.choice([0, 1, 2])),)
    rows.append(first)
    if rng.random() < 0.5:
        rows.append(tuple(rng.choice(WIDE) for _ in range(rng.choice([1, 2]))))
    return tuple(rows)


def banded_out(L: SinkLayers, ell: int, m: int, i: int) -> bool:
    """Two gap positions have the same F145 out-sets into V_ℓ₁(i) but different bands (F157's key tells them apart)."""
    K, a, _ = gap_of(L, ell, m, i)
    seen: dict = {}
    for x in range(K + 1, a):
        key = out_key(L, ell, a, i, x)
        if seen.get(key[:-1], key[-1]) != key[-1]:
            return True
        seen[key[:-1]] = key[-1]
    return False


@pytest.mark.parametrize("seed", range(4))
def test_the_banded_twins_are_exactly_the_witnesses_of_the_brute_force(seed):
    rng = random.Random(700 + seed)
    compared = witnessed = banded = 0
    for _ in range(10):
        rows = random_rows(rng)
        for n in range(max(k for row in rows for _, k in row) + 1, 7):
            L = SinkLayers(n, rows, True, None)
            ell = key_layer(L)
            assert ell is not None and ell >= 2
            d = next(m for m in range(0, 4 * n) if brute_reached(rows, n, m))
            for m in range(max(d, ell, 1), max(d, ell, 1) + 3):
                for i in range(2, n + 1):
                    want = brute_witness(rows, n, i, m)
                    got = twin_at(L, ell, m, i)
                    assert (got is not None) == want, (rows, n, m, i, got)
                    if got is not None:  # the twins' transposition itself meets the condition
                        assert brute_transposition(rows, n, i, m, *got), (rows, n, m, i, got)
                    compared += 1
                    witnessed += want
                    banded += banded_out(L, ell, m, i) and not want
    assert compared > 150 and witnessed > 5 and banded > 0, (compared, witnessed, banded)


def brute_transposition(rows, n: int, i: int, m: int, x: int, y: int) -> bool:
    """§21.3's condition for (x y) at root i, depth m, by the definition on explicit sets."""
    from test_per_layer_causal_sink_keys import brute_views, nb
    views = brute_views(rows, True, i, m)
    s = {v: v for v in range(1, n + 1)} | {x: y, y: x}
    return all({s[u] for u in nb(w, k, v)} == nb(w, k, s[v])
               for ell in range(1, m + 1) for v in views[ell] for w, k in rows[(ell - 1) % len(rows)])


LISTS = [
    (((0, 2),), ((3, 0),)),                    # { sinks(2), causal & window(3) }
    (((0, 1),), ((2, 3),), ((1, 0),)),
    (((0, 3),), ((0, 1),), ((3, 2),)),
    (((0, 2),), ((1, 0),), ((2, 1),)),
    (((0, 1),), ((1, 3),)),
]


def paired(rows) -> tuple:
    return tuple(row + row[-1:] if len(row) == 1 else row for row in rows)


@pytest.mark.parametrize("rows", LISTS)
def test_the_count_equals_the_rooted_views_at_every_n_up_to_60(rows):
    """The count is least at every n where max(D_c, 1) reaches ℓ₁ (by the covering lemma or F157's keys), and equals
    §21.5's rooted views at every n up to 60 wherever it is claimed least (never below them)."""
    exact = keyed = 0
    for n in range(max(k for row in rows for _, k in row) + 1, 61):
        got = decide(SinkLayers(n, rows, True, None))
        d, least = engine_count(paired(rows), n)
        assert got.depth == d and got.layers >= least, (rows, n, got, least)
        if got.least:
            assert got.layers == least, (rows, n, got, least)
        if max(d, 1) >= key_layer(SinkLayers(n, rows, True, None)):
            assert got.least, (rows, n, got)
            exact += 1
            keyed += got.keys is not None
    assert exact > 40 and keyed > 0


def pattern_text(w, k) -> str:
    if w == 0 and k:
        return f"sinks({k})"
    base = "causal" if w is None else "offsets {0}" if w == 0 else f"causal & window({w})"
    return base + (f" + sinks({k})" if k else "")


def source(rows, tokens) -> str:
    heads = [", ".join(pattern_text(*row[h] if h < len(row) else row[-1]) for row in rows)
             for h in range(max(len(row) for row in rows))]
    return "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern periodic {{ {p} }}\n}}\n"
                   for p in heads) + f"tokens {tokens}\ntarget causal\n"


@pytest.mark.parametrize("rows", [LISTS[0], LISTS[1], LISTS[3]])
def test_the_symbolic_verdict_is_the_concrete_derivation_at_every_n_up_to_60(rows):
    """F146 with F157's premise at a symbolic n (formerly INCONCLUSIVE): the formula from the stated start and each
    length below it equal the concrete derivation at every n up to 60; every step of the symbolic file verified."""
    src = source(rows, "n")
    r = uapcheck.check(src, "t.uap")
    assert r.verdict == "UAP" and r.target.least, (rows, r.verdict)
    start = int(r.target.range.split("≥")[1])
    n = sympy.Symbol("n", integer=True, positive=True)
    for value in range(start, 61):
        conc = uapcheck.check(source(rows, value), "t.uap")
        assert conc.verdict == "UAP" and conc.target.least and conc.layers == int(r.layers.xreplace({n: value})), \
            (rows, value, conc.layers)
    rep = verify(json.loads(json.dumps(certfile.build(r, src))))
    assert rep.problems == [] and all(s.outcome == VERIFIED for s in rep.steps), \
        [(s.rule, s.outcome, s.reason) for s in rep.steps]


def sinks_step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "SEQ-CAUSAL-SINKS")


def test_above_the_engine_the_count_is_least_and_a_count_one_below_is_rejected():
    """{ sinks(2), causal & window(3) } at 2,000 tokens: 1,332 layers, least (the covering lemma gave 1,334, not shown
    least); the verifier re-derives no twins at 1,332 and rejects 1,331."""
    src = source(LISTS[0], 2000)
    r = uapcheck.check(src, "t.uap")
    assert (r.verdict, r.layers, r.target.least) == ("UAP", 1332, True)
    cert = json.loads(json.dumps(certfile.build(r, src)))
    rep = verify(copy.deepcopy(cert))
    assert rep.problems == [] and all(s.outcome == VERIFIED for s in rep.steps if s.rule == "SEQ-CAUSAL-SINKS")
    below = copy.deepcopy(cert)
    sinks_step(below)["data"]["layers"] = 1331
    assert any(s.outcome == REJECTED for s in verify(below).steps if s.rule == "SEQ-CAUSAL-SINKS")


def test_the_verifier_twins_equal_the_brute_force_and_need_the_earlier_layers():
    """The verifier's own twin search (out-sets into the views of layers 1 … ℓ₁, the position itself aside) finds a
    pair at depth m exactly when the brute force over S_n finds a causal view witness at some root. Mutation: the same
    search with the earlier layers' sinks erased (F145's keys alone) disagrees with the brute force on some list: the
    earlier layers' out-sets are what makes it right."""
    from uapcheck.parse import parse_source
    from uapcheck.verifier.causal_sinks import build
    rng = random.Random(900)
    compared = mutated_wrong = 0
    for _ in range(14):
        rows = random_rows(rng)
        for n in range(max(k for row in rows for _, k in row) + 1, 7):
            K = build(parse_source(source(rows, n)))
            ell = K.first_chain()
            assert ell == key_layer(SinkLayers(n, rows, True, None))
            blind = build(parse_source(source(rows, n)))
            blind.rows = [[(w, 0) for w, _ in row] if q < ell - 1 else row for q, row in enumerate(blind.rows)]
            d = next(m for m in range(0, 4 * n) if brute_reached(rows, n, m))
            for m in range(max(d, ell, 1), max(d, ell, 1) + 2):
                want = any(brute_witness(rows, n, i, m) for i in range(2, n + 1))
                assert (K.twins(ell, m) is not None) == want, (rows, n, m)
                mutated_wrong += (blind.twins(ell, m) is not None) != want
                compared += 1
    assert compared > 60 and mutated_wrong > 0, (compared, mutated_wrong)


def test_a_verdict_without_its_range_claims_the_formula_at_each_shorter_length_and_is_rejected():
    """Mutation of the TGT-VERDICT on F146's symbolic count: with the range and the lengths below it removed, the
    verdict claims the formula 2·⌈n/3⌉ − 2 at every length; the verifier takes the formula at each length below the
    start (0 layers at n = 2: no prefix reached) and rejects — it used to reject only because the count is not an
    integer, with no length named. The honest certificate verifies."""
    src = (CATALOG / "early_sinks_window_any_length.uap").read_text()
    cert = json.loads(json.dumps(certfile.build(uapcheck.check(src, "t.uap"), src)))
    assert all(s.outcome == VERIFIED for s in verify(copy.deepcopy(cert)).steps)
    forged = copy.deepcopy(cert)
    verdict = next(s for s in forged["steps"] if s["rule"] == "TGT-VERDICT")
    verdict["data"]["range"], verdict["data"]["below_range"] = None, []
    got = [s for s in verify(forged).steps if s.rule == "TGT-VERDICT"]
    assert got[0].outcome == REJECTED and "at n = 2" in got[0].reason, got[0].reason

