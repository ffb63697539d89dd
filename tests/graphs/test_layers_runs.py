"""The per-layer engine's in-sets read as runs (graphs/layers_runs.py): the reach step, the reach depth, the prefix
reach and the views agree with the recurrences of docs/theory.md §21.1 computed arc by arc, on random per-layer lists
of structured patterns (windows, causal, sinks, globals, strided, blocks, offsets, dilated, their unions and causal
intersections) at every n from 2 to 60. The reference reads the arcs of tests/graphs/reference.py (the naive pattern
semantics), not the engine's graphs; whatever the engine decides from these quantities is the same as before."""
from __future__ import annotations

import random

import pytest

from uapcheck.graphs.layers import _InLists, _SwapTables, connectivity, reach_sets, view_sets
from uapcheck.graphs.layers_causal import prefix_reach
from uapcheck.graphs.layers_runs import masks_of, positions, reach_plan, reach_step, runs_of
from uapcheck import spec as S
from uapcheck.parse import parse_source
from uapcheck.rules.layers import build_sequence, layer_patterns

from .reference import attends

PARTS = ["window({w})", "causal", "sinks({k})", "global({k})", "strided({s})", "blocks({b})", "offsets {{-{w}, 0, {s}}}",
         "dilated({k}, {s})", "causal & window({w})", "causal & strided({s})", "causal & blocks({b})",
         "window({w}) cyclic"]


def random_pattern(rng: random.Random) -> str:
    """A union of one to three structured parts with small random sizes."""
    def one() -> str:
        return rng.choice(PARTS).format(w=rng.randrange(1, 9), k=rng.randrange(1, 5), s=rng.randrange(2, 9),
                                        b=rng.randrange(1, 12))
    parts = [one() for _ in range(rng.choice([1, 1, 2, 3]))]
    return " + ".join(f"({p})" if "&" in p and len(parts) > 1 else p for p in parts)


def random_source(rng: random.Random, n: int) -> str:
    kind = rng.choice(["periodic", "periodic", "sequence"])
    layers = ", ".join(random_pattern(rng) for _ in range(rng.choice([1, 2, 2, 3])))
    heads = [f"attention {{ kernel k(x, y) = exp(x . y); pattern {kind} {{ {layers} }} }}"]
    if rng.random() < 0.3:  # a second head with one pattern for every layer
        heads.append(f"attention {{ kernel k(x, y) = exp(x . y); pattern {random_pattern(rng)} }}")
    return f"tokens {n}\n" + "\n".join(heads) + "\n"


def pairs(pat, n: int) -> set:
    """The pairs (i, j), 1-based, i ≠ j, of query i attending to key j: unions and intersections part by part."""
    if isinstance(pat, S.PatternUnion):
        return set().union(*(pairs(p, n) for p in pat.parts))
    if isinstance(pat, S.PatternIntersection):
        got = [pairs(p, n) for p in pat.parts]
        return set.intersection(*got)
    if isinstance(pat, S.Sinks):  # the sinks 1..k, read by every later position
        return {(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if j <= pat.k < i}
    return set(attends(pat, n))


def reference_ins(spec, n: int) -> list[list[frozenset]]:
    """Per layer of the list: the 0-based in-neighbours of every position, of every head (v excluded)."""
    per_layer, _ = layer_patterns(spec)
    out = []
    for pats in per_layer:
        ins: list[set] = [set() for _ in range(n)]
        for pat in pats:
            for i, j in pairs(pat, n):
                ins[i - 1].add(j - 1)
        out.append([frozenset(s) for s in ins])
    return out


def reference_reach(ins: list[list[frozenset]], n: int, layers: int, periodic: bool) -> list[int]:
    cur = [1 << v for v in range(n)]
    for t in range(layers):
        union = ins[t % len(ins)] if periodic else ins[t]
        cur = [before | _union(cur, union[v]) for v, before in enumerate(cur)]
    return cur


def _union(cur: list[int], where) -> int:
    got = 0
    for u in where:
        got |= cur[u]
    return got


def reference_views(ins: list[list[frozenset]], root: int, m: int) -> list[set]:
    sets: list[set] = [set() for _ in range(m + 1)]
    sets[m] = {root}
    for ell in range(m, 0, -1):
        nxt = set(sets[ell])
        for v in sets[ell]:
            nxt |= ins[(ell - 1) % len(ins)][v]
        sets[ell - 1] = nxt
    return sets


CASES = [(n, seed) for n in range(2, 61) for seed in (n, 100 + n)]


@pytest.mark.parametrize("n,seed", CASES)
def test_reach_depth_and_views_match_the_arc_by_arc_recurrences(n, seed):
    rng = random.Random(seed)
    src = random_source(rng, n)
    spec = parse_source(src, "runs.uap")
    seq = build_sequence(spec)
    ins = reference_ins(spec, n)
    lists = _InLists(seq)
    depth = len(ins) if not seq.periodic else 2 * n + 2
    full = (1 << n) - 1
    prefixes = [(1 << (v + 1)) - 1 for v in range(n)]
    want_depth = want_prefix = None
    cur = [1 << v for v in range(n)]
    for m in range(depth + 1):  # the reference reach, layer by layer
        if m:
            union = ins[(m - 1) % len(ins)]
            cur = [before | _union(cur, union[v]) for v, before in enumerate(cur)]
        if want_depth is None and all(s == full for s in cur):
            want_depth = m
        if want_prefix is None and all(s & p == p for s, p in zip(cur, prefixes)):
            want_prefix = m
        if want_depth is not None:
            break
    got = connectivity(seq, None if seq.periodic else depth, lists=lists)
    if want_depth is not None or not seq.periodic:
        assert got.depth == want_depth, src
    else:  # periodic, never connected: the engine stops when the reach is still for a period
        assert got.depth is None, src
    for m in sorted({1, 2, len(ins), want_depth or 3}):
        if seq.periodic or m <= len(ins):
            assert reach_sets(seq, m, lists=lists) == reference_reach(ins, n, m, seq.periodic), (src, m)
    got_prefix = prefix_reach(seq, None if seq.periodic else depth, lists)
    if want_prefix is not None or not seq.periodic:
        assert got_prefix.depth == want_prefix, src
    for root in {0, n // 2, n - 1}:
        m = min(want_depth or 3, depth) if seq.periodic else len(ins)
        assert view_sets(lists, seq, root, m) == reference_views(ins, root, m), (src, root, m)
    tables = _SwapTables(lists, n)
    for q, row in enumerate(layer_patterns(spec)[0]):
        for h, pat in enumerate(row):
            arcs = pairs(pat, n)
            out = [1 << u | sum(1 << (i - 1) for i, j in arcs if j == u + 1) for u in range(n)]
            inb = [1 << v | sum(1 << (j - 1) for i, j in arcs if i == v + 1) for v in range(n)]
            assert tables.get(q, h) == (out, inb), (src, q, h)


def test_structured_in_sets_are_read_as_few_runs():
    """A causal layer is one prefix per position, a window with sinks two intervals, a residue class one progression;
    so a causal layer's step reads no in-set term by term."""
    n = 200
    causal = [frozenset(range(v)) for v in range(n)]
    assert all(len(runs_of(s)) <= 1 for s in causal)
    sinks = [frozenset(set(range(4)) | set(range(max(0, v - 64), min(n, v + 65)))) - {v} for v in range(n)]
    assert max(len(runs_of(s)) for s in sinks) <= 3
    strided = [frozenset(range(v % 8, n, 8)) - {v} for v in range(n)]
    assert max(len(runs_of(s)) for s in strided) <= 4  # the class less v: two runs, or a short one read term by term
    plan = reach_plan(causal)
    assert not plan.plain and set(plan.prefixes) == {1} and not plan.blocks
    rng = random.Random(5)
    cur = [rng.getrandbits(n) | 1 << v for v in range(n)]
    assert reach_step(cur, plan) == [cur[v] | _union(cur, causal[v]) for v in range(n)]
    for ins in (sinks, strided):
        assert reach_step(cur, reach_plan(ins)) == [cur[v] | _union(cur, ins[v]) for v in range(n)]
        assert [positions(m) for m in masks_of(ins)] == [set(s) for s in ins]


def test_runs_partition_random_sets():
    rng = random.Random(11)
    for _ in range(800):
        n = rng.randrange(1, 80)
        s = {x for x in range(n) if rng.random() < rng.random()}
        if rng.random() < 0.5:
            d = rng.randrange(2, 9)
            s |= set(range(rng.randrange(d), n, d))
        runs = runs_of(s)
        flat = [a + k * d for a, d, c in runs for k in range(c)]
        assert sorted(flat) == sorted(s) and len(flat) == len(s)
        cur = [rng.getrandbits(n) for _ in range(n)]
        ins = [frozenset(s - {v}) for v in range(n)]
        assert reach_step(cur, reach_plan(ins)) == [cur[v] | _union(cur, ins[v]) for v in range(n)]


def test_the_random_lists_exercise_every_read():
    """The sweep's lists meet prefix, suffix and block reads of strides 1 and above, and some connect."""
    kinds: set = set()
    connected = 0
    for n, seed in CASES:
        seq = build_sequence(parse_source(random_source(random.Random(seed), n), "runs.uap"))
        lists = _InLists(seq)
        for q in range(seq.period):
            plan = lists.plan(q)
            kinds |= {("prefix", d > 1) for d in plan.prefixes} | {("suffix", d > 1) for d in plan.suffixes} | \
                {("block", d > 1) for d, _ in plan.blocks} | ({"plain"} if plan.plain else set())
        connected += connectivity(seq, None if seq.periodic else seq.period, lists=lists).depth is not None
    assert kinds == {(k, s) for k in ("prefix", "suffix", "block") for s in (False, True)} | {"plain"}, kinds
    assert len(CASES) // 4 <= connected < len(CASES)


@pytest.mark.parametrize("n,patterns", [(300, "window(1), window(2) cyclic"), (40, "window(3) + global(1), causal")])
def test_views_of_sparse_and_dense_layers_match_the_recurrence(n, patterns):
    """Sparse layers grow views in-set by in-set (their bitsets would outweigh the sets), dense ones by bitsets: both
    give the views of the recurrence."""
    src = f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern periodic {{ {patterns} }} }}\n"
    spec = parse_source(src, "runs.uap")
    seq = build_sequence(spec)
    lists = _InLists(seq)
    assert lists.dense() == (n == 40)
    ins = reference_ins(spec, n)
    for root in (0, n // 3, n - 1):
        for m in (1, 2, 5):
            assert view_sets(lists, seq, root, m) == reference_views(ins, root, m)


@pytest.mark.parametrize("pattern", ["causal & window(3)", "causal & strided(4) + sinks(2)", "causal & blocks(5)",
                                     "window(2) & causal & strided(2)", "causal & causal", "causal & full",
                                     "(causal & window(4)) + global(1)", "causal & offsets {-3, 0, 2}",
                                     "causal & window(2) cyclic"])
def test_causal_intersections_are_built_without_the_causal_codes_and_hold_the_same_arcs(pattern):
    from uapcheck.graphs.build import build_graph, code_array
    for n in range(6, 40, 3):
        spec = parse_source(f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern {pattern} }}\n", "t.uap")
        pat = spec.heads[0].pattern
        g = build_graph(pat, n, {})
        got = {(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if i != j} if g.complete else \
            {(int(c) % n + 1, int(c) // n + 1) for c in code_array(g)}
        assert got == pairs(pat, n), (n, pattern)
