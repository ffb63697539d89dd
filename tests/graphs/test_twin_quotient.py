"""Unions with few wide blocks decided on the twin quotient (Lemma L, Theorem F196, docs/theory.md §11.11): the twin
classes against the naive neighbour sets, the route against the concrete engine (which builds the graph) at every
n ≤ 60, against brute force over S_n for n ≤ 8, the lifted view witnesses on the arcs, and the real sizes."""
from __future__ import annotations

import itertools
import math
from collections import deque

import pytest

import uapcheck
from uapcheck.graphs import analyze_connectivity, build_graph
from uapcheck.graphs import twin_quotient as T
from uapcheck.graphs.symmetry import symmetry_group
from uapcheck.errors import UapError
from uapcheck.parse import parse_source
from uapcheck.rules import pattern as P
from uapcheck.rules.twins import twin_decision

from .brute_views import least_layers, neighbourhoods
from .reference import attends, brute_group_order
from .timed_checks import timed_check
from sample_sizes import lengths  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1


def _spec(n: int, pattern: str):
    return parse_source(f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern {pattern} }}\n", "t.uap")


def _allowed(n: int, pattern: str) -> bool:
    """The file parses at n (a global count above n is refused)."""
    try:
        _spec(n, pattern)
    except UapError:
        return False
    return True


# ten instances per family; {b} is the block width
FAMILIES = {
    "global": [f"blocks({{b}}) + global({g})" for g in (1, 2, 3)],
    "star": ["blocks({b}) + star"],
    "window": [f"blocks({{b}}) + window({w})" for w in (1, 2, 3)],
    "cyclic window": [f"blocks({{b}}) + window({w}) cyclic" for w in (1, 2)],
    "offsets": ["blocks({b}) + offsets {1}", "blocks({b}) + offsets {2, -1}", "blocks({b}) + offsets {3}"],
    "cyclic offsets": ["blocks({b}) + offsets {1} cyclic", "blocks({b}) + offsets {2, -3} cyclic"],
    "dilated": ["blocks({b}) + dilated(1, 2)", "blocks({b}) + dilated(2, 2)", "blocks({b}) + dilated(1, 3)"],
    "window and global": ["blocks({b}) + window(1) + global(1)", "blocks({b}) + window(2) + global(2)"],
    "strided": ["blocks({b}) + strided(2)", "blocks({b}) + strided(3)", "blocks({b}) + strided(3) + global(1)",
                "blocks({b}) + window(1) + strided(4)"],
}
WIDTHS = {"global": (3, 5, 9, 14), "star": (2, 4, 7, 11, 16, 23, 30, 40, 50, 60), "window": (4, 6, 9, 13),
          "cyclic window": (3, 5, 8, 12, 20), "offsets": (3, 6, 10, 17), "cyclic offsets": (4, 7, 11, 19, 26),
          "dilated": (4, 7, 12, 18), "window and global": (4, 6, 10, 15, 22), "strided": (5, 9, 16)}


def _instances(family: str) -> list[str]:
    out = [p.replace("{b}", str(b)) for p in FAMILIES[family] for b in WIDTHS[family]]
    return out[:max(10, len(out))]


def instances_and_widths(family: str) -> list[tuple[str, int]]:
    """_instances(family), each with its block width b."""
    out = [(p.replace("{b}", str(b)), b) for p in FAMILIES[family] for b in WIDTHS[family]]
    assert [p for p, _ in out] == _instances(family)
    return out


def _twin_classes_by_hand(pattern: str, n: int) -> set[frozenset]:
    pairs = attends(_spec(n, pattern).heads[0].pattern, n)
    keys = {v: frozenset([v] + [j for (i, j) in pairs if i == v]) for v in range(1, n + 1)}
    queries = {v: frozenset([v] + [i for (i, j) in pairs if j == v]) for v in range(1, n + 1)}
    by: dict = {}
    for v in range(1, n + 1):
        by.setdefault((keys[v], queries[v]), set()).add(v)
    return {frozenset(c) for c in by.values()}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_twin_classes_and_quotient_arcs_are_the_naive_ones(family):
    for pattern in _instances(family)[:6]:
        for n in range(1, 41):
            if not _allowed(n, pattern):
                continue
            q = T.quotient(_spec(n, pattern).heads[0].pattern, n)
            if q is None:
                continue
            got = {frozenset(T.members(runs)) for runs in q.runs}
            assert got == _twin_classes_by_hand(pattern, n), (pattern, n)
            pairs = attends(_spec(n, pattern).heads[0].pattern, n)
            reps = [runs[0][0] for runs in q.runs]
            for t, u in itertools.product(range(q.k), repeat=2):
                assert (u in q.keys[t]) == (t == u or (reps[t], reps[u]) in pairs), (pattern, n, t, u)


def _engine(pattern: str, n: int):
    """The concrete engine on the token graph: (strongly connected, D, layers, least, |G|)."""
    spec = _spec(n, pattern)
    graphs = [build_graph(h.pattern, n, {}) for h in spec.heads]
    grp = symmetry_group(graphs, [None], "none")
    conn = analyze_connectivity(graphs, union_automorphisms=grp.generators)
    if not conn.strongly_connected:
        return False, None, None, None, int(grp.order)
    d = int(conn.diameter)
    count = P._layer_count(spec, graphs, d, grp, frozenset(), P._ecc_bound(conn))
    return True, d, count.layers, count.exact, int(grp.order)


def _route(pattern: str, n: int):
    found = twin_decision(_spec(n, pattern))
    if found is None:
        return None
    if found.pair is not None:
        return False, None, None, None, found.order()
    assert found.count is not None
    return True, found.diameter, found.count.layers, found.count.exact, found.order()


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_route_equals_the_concrete_engine_at_every_n_up_to_60(family):
    decided = 0
    instances = _instances(family)
    assert len(instances) >= 10
    for pattern, b in instances_and_widths(family):
        for n in lengths(1, 60, max(40, 2 * b + 1)):  # two whole blocks at least; UAPCHECK_NIGHTLY=1: every n to 60
            if not _allowed(n, pattern):
                continue
            got = _route(pattern, n)
            if got is None:
                continue
            decided += 1
            assert got == _engine(pattern, n), (pattern, n)
    assert decided >= 200, decided


def _brute(pattern: str, n: int):
    nbs = neighbourhoods([pattern], n)
    pairs = attends(_spec(n, pattern).heads[0].pattern, n)
    order = brute_group_order([pairs], n)
    dist = {}
    for i in range(1, n + 1):
        d = {i: 0}
        queue = deque([i])
        while queue:
            v = queue.popleft()
            for u in nbs[0][v]:
                if u not in d:
                    d[u] = d[v] + 1
                    queue.append(u)
        dist[i] = d
    if any(len(d) < n for d in dist.values()):
        return False, None, None, order
    diameter = max(max(d.values()) for d in dist.values())
    return True, diameter, least_layers(nbs, n), order


@pytest.mark.parametrize("pattern", ["blocks(3) + global(1)", "blocks(4) + global(1)", "blocks(5) + global(2)",
                                     "blocks(4) + window(1)", "blocks(5) + window(1) cyclic", "blocks(4) + star",
                                     "blocks(3) + offsets {1}", "blocks(5) + offsets {1, -2} cyclic",
                                     "blocks(4) + dilated(1, 2)", "blocks(6) + window(1) + global(1)",
                                     "blocks(7) + offsets {2}", "blocks(10) + window(2)", "blocks(4) + strided(2)",
                                     "blocks(5) + strided(3) + global(1)", "blocks(5) + window(1) + strided(2)"])
def test_route_equals_brute_force_over_s_n(pattern):
    for n in range(2, 9):
        if not _allowed(n, pattern):
            continue
        found = twin_decision(_spec(n, pattern))
        if found is None:
            continue
        connected, diameter, least, order = _brute(pattern, n)
        assert found.order() == order, (pattern, n)
        assert (found.pair is None) == connected, (pattern, n)
        if connected:
            assert found.count is not None and found.count.exact
            assert (found.diameter, found.count.layers) == (diameter, least), (pattern, n)


def test_lifted_witnesses_keep_the_neighbourhoods_on_the_arcs():
    """A swap witness of the stand-in, lifted class by class, is a view witness of the pattern itself: it keeps
    N(v) for every v within D − 1 of its root and is not an automorphism (checked on the naive arcs)."""
    seen = 0
    for pattern in ["blocks({b}) + offsets {1} cyclic", "blocks({b}) + global(1)", "blocks({b}) + offsets {2, -1}",
                    "blocks({b}) + window(1) cyclic", "blocks({b}) + offsets {2, -3} cyclic"]:
        for b in (5, 8, 13):
            for n in range(b + 1, 2 * b + 1):
                text = pattern.replace("{b}", str(b))
                found = twin_decision(_spec(n, text))
                if found is None or found.witness is None:
                    continue
                seen += 1
                nbs = neighbourhoods([text], n)[0]
                x, y = found.witness["swap"]
                root = found.witness["position"]
                sigma = {v: (y if v == x else x if v == y else v) for v in range(1, n + 1)}
                dist = {root: 0}
                queue = deque([root])
                while queue:
                    v = queue.popleft()
                    for u in nbs[v]:
                        if u not in dist:
                            dist[u] = dist[v] + 1
                            queue.append(u)
                for v, d in dist.items():
                    if d <= found.witness["diameter"] - 1:
                        assert frozenset(sigma[u] for u in nbs[v]) == nbs[sigma[v]], (text, n)
                assert any(frozenset(sigma[u] for u in nbs[v]) != nbs[sigma[v]] for v in range(1, n + 1))
    assert seen >= 10


def test_stand_in_sizes_keep_every_comparison_up_to_the_bound():
    for sizes in [(1, 1, 599999, 448575), (2, 524284, 524286, 1, 1, 1, 1), (1048576,), (1, 5, 5, 1000, 1003),
                  (3, 599990, 448569) + (1,) * 20]:
        small = T.stand_in_sizes(sizes)
        assert small is not None and sum(small) < 1000
        bound = T.support_bound(sizes)
        assert T.equivalent(sizes, small, bound)
        for x, y in itertools.combinations(range(len(sizes)), 2):
            assert (sizes[x] == sizes[y]) == (small[x] == small[y])
    assert not T.equivalent((10, 20), (10, 21), 15)  # 20 − 10 ≤ 15 must stay 10
    assert not T.equivalent((100, 300), (100, 150), 60)  # 300 − 100 > 60 must stay above 60


REAL = [
    ("blocks(524288) + global(1)", 2, 2, "S_524287 on {2, …, 524288} × S_524288 on {524289, …, 1048576}"),
    ("blocks(699051) + global(1)", 2, 2, "S_699050 on {2, …, 699051} × S_349525 on {699052, …, 1048576}"),
    ("blocks(1048575) + global(1)", 2, 2, "S_1048574 on {2, …, 1048575}"),
    ("blocks(600000) + window(1)", 3, 3, "S_599999 on {1, …, 599999} × S_448575 on {600002, …, 1048576}"),
    ("blocks(2000000) + window(3)", 1, 1, "S_1048576 on {1, …, 1048576}"),
]


@pytest.mark.parametrize("pattern,diameter,layers,group", REAL)
def test_the_real_sizes_are_decided_without_arcs(pattern, diameter, layers, group):
    r, steps, cpu = timed_check(pattern, 1048576)
    assert r.verdict == "UAP"
    assert steps["PAT-CONNECTED"].facts["diameter"] == diameter
    assert steps["PAT-LAYERS"].facts["layers"] == layers and steps["PAT-LAYERS"].facts["least"]
    assert steps["SYM-AUT"].facts["group"].name == group
    assert cpu < 10.0


def test_two_blocks_beside_a_global_need_only_the_diameter():
    """F4's 3 layers hold from three blocks on; with two blocks (b < n ≤ 2b) the globals and the first block are
    known to every position of the first block, the second block is one twin class, and D = 2 layers suffice."""
    for b in range(3, 12):
        for n in range(b + 1, 2 * b + 1):
            found = twin_decision(_spec(n, f"blocks({b}) + global(1)"))
            assert found is not None and found.count is not None
            assert (found.diameter, found.count.layers, found.count.exact) == (2, 2, True), (b, n)
            equal = n - b == b - 1  # the second block and the first block's non-global part exchanged
            assert found.order() == (2 if equal else 1) * math.factorial(b - 1) * math.factorial(n - b)


def test_two_blocks_beside_a_strided_part_at_a_real_size():
    """`blocks(524288) + strided(3) + global(1)`: the interior of each block splits into its residue cells mod 3 (six
    classes beside the global position), decided on a stand-in of a few hundred positions."""
    r = uapcheck.check("tokens 1048576\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern blocks(524288) + "
                       "strided(3) + global(1)\n}\nffn relu\n", "t.uap")
    steps = {s.rule: s for s in r.root.walk()}
    assert r.verdict == "UAP"
    assert (steps["PAT-CONNECTED"].facts["diameter"], steps["PAT-LAYERS"].facts["layers"]) == (2, 2)
    assert steps["PAT-LAYERS"].facts["least"]
    assert steps["SYM-AUT"].facts["group"].name.startswith("(S_174763 on {2, 5, …, 524288} × ")


def test_a_few_wide_blocks_take_the_twin_quotient_before_the_closed_forms():
    """Three pieces of 400,000 positions beside a global: F4's count (3 layers, least) and group, read on the twin
    quotient; the closed forms would write out factorials of the blocks' widths (this file was INCONCLUSIVE after
    60 s of CPU)."""
    r, steps, cpu = timed_check("blocks(400000) + global(1)", 1048576)
    assert r.verdict == "UAP"
    assert (steps["PAT-CONNECTED"].facts["diameter"], steps["PAT-LAYERS"].facts["layers"]) == (2, 3)
    assert steps["PAT-LAYERS"].facts["least"]
    assert steps["SYM-AUT"].facts["group"].name == ("S_399999 on {2, …, 400000} × S_400000 on {400001, …, 800000} × "
                                                    "S_248576 on {800001, …, 1048576}")
    assert cpu < 10.0
