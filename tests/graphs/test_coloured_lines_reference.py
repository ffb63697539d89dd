"""Theorems F179 and F180 (docs/theory.md §11.11) checked a second way: the group's order read off the closed form at
every n of its range up to a bound, against an automorphism count of the heads' arc-coloured union written here (partial
maps extended along a breadth-first order of the positions, each new position mapped among the neighbours of its
parent's image, the hubs last), itself checked against a count over S_n at n ≤ 7. Unions drawn with their own seed and a
wider set of parts than tests/graphs/test_coloured_lines.py (global(1..3) hubs, blocks of 8, offsets {−3, 3}, {2, 5});
F179's union anchor on blocks(b) beside dilated or symmetric offset heads, from the range's first length to n = 90.
The elements each class lists (read here as permutations) keep every head and are as many as the count. And
the catalog's `coloured_blocks_jumps_any_length`: its count (Theorem F236: D + 1 on n ≡ 0 (mod 6), D elsewhere, least) is
the least count of an exact search for view witnesses (tests/view_witness_reference.py) at 10 ≤ n ≤ 22."""
from __future__ import annotations

import functools
import random
from collections import deque

import pytest
import sympy

import uapcheck
from uapcheck.graphs import head_intersection as HI
from uapcheck.graphs.closed_groups import closed_group
from uapcheck.spec import Blocks, Dilated, Global, Offsets, PatternUnion, Star, Window

import view_witness_reference as R  # tests/ is on sys.path

from .reference import attends, brute_group_order

N = sympy.Symbol("n", integer=True, positive=True)


def U(*parts):
    return PatternUnion(tuple(parts))


def aut_count(n: int, heads_pairs) -> int:
    """|{σ ∈ S_n keeping every head's arcs}|: σ is built along a breadth-first order of the positions (hubs, of degree
    above n/2, last), each position mapped among the neighbours of its parent's image with the same coloured degrees,
    and kept only if every arc and non-arc to the positions already mapped keeps its colour (the set of heads)."""
    colour: dict = {}
    for h, pairs in enumerate(heads_pairs):
        for (i, j) in pairs:
            colour.setdefault((j, i), set()).add(h)
    outs: dict = {v: {} for v in range(1, n + 1)}
    ins: dict = {v: {} for v in range(1, n + 1)}
    for (u, v), c in colour.items():
        outs[u][v] = ins[v][u] = frozenset(c)
    degrees = {v: (sorted(map(sorted, outs[v].values())), sorted(map(sorted, ins[v].values()))) for v in outs}
    near = {v: set(outs[v]) | set(ins[v]) for v in outs}
    hubs = [v for v in outs if len(near[v]) > n // 2]
    order, parent = [], {}
    for s in sorted((v for v in outs if v not in hubs), key=lambda v: len(near[v])):
        if s in parent:
            continue
        parent[s] = None
        queue = deque([s])
        while queue:
            a = queue.popleft()
            order.append(a)
            for b in sorted(near[a]):
                if b not in parent and b not in hubs:
                    parent[b] = a
                    queue.append(b)
    parent.update({h: None for h in hubs})
    order += hubs
    sigma: dict = {}
    count = 0

    def extend(k: int) -> None:
        nonlocal count
        if k == len(order):
            count += 1
            return
        x = order[k]
        pool = range(1, n + 1) if parent[x] is None else sorted(near[sigma[parent[x]]])
        used = set(sigma.values())
        for y in pool:
            if y not in used and degrees[x] == degrees[y] and all(
                    outs[x].get(z) == outs[y].get(sz) and ins[x].get(z) == ins[y].get(sz) for z, sz in sigma.items()):
                sigma[x] = y
                extend(k + 1)
                del sigma[x]
    extend(0)
    return count


def _order(heads, n: int) -> int:
    return aut_count(n, [attends(h, n) for h in heads])


@pytest.mark.parametrize("heads", [[Blocks(3), Dilated(2, 2)], [U(Blocks(3), Offsets((1,))), U(Blocks(2), Offsets((-1,)))],
                                   [Star(), U(Window(1), Blocks(2))], [Global(2), U(Blocks(2), Offsets((-7, -3, 9)))]])
def test_the_counter_is_a_count_over_s_n(heads):
    for n in range(3, 8):
        assert _order(heads, n) == brute_group_order([attends(h, n) for h in heads], n), (heads, n)


_LINE = [Window(1), Window(2), Dilated(1, 2), Dilated(2, 2), Dilated(1, 3), Dilated(3, 2), Offsets((1,)),
         Offsets((-1,)), Offsets((2,)), Offsets((-2,)), Offsets((-2, 1)), Offsets((-3, 1)), Offsets((1, 3)),
         Offsets((-1, 4)), Offsets((-5, 2)), Offsets((3,)), Offsets((-3, 3)), Offsets((-1, 4)), Offsets((2, 5))]
_BLOCKS = [Blocks(2), Blocks(3), Blocks(4), Blocks(5), Blocks(6), Blocks(8)]
_HUBS = [Star(), Global(1), Global(2), Global(3)]


def _head(rng):
    parts = []
    if rng.random() < 0.5:
        parts.append(rng.choice(_BLOCKS))
    parts += rng.sample(_LINE, rng.choice((0, 1, 1, 2)))
    if rng.random() < 0.3:
        parts.append(rng.choice(_HUBS))
    if not parts:
        parts.append(rng.choice(_LINE))
    return parts[0] if len(parts) == 1 else U(*parts)


def _anchor(form):
    if form is None or form.cases[0].intersection is None:
        return None
    found = form.cases[0].intersection[0]
    if not isinstance(found, HI.Intersection) or found.anchor.head != -1:
        return None
    return next((t for t in ("F179", "F180") if f"Theorem {t}" in found.anchor.source), None)


def _drawn(count: int, seed: int) -> list:
    rng = random.Random(seed)
    out: list = []
    for _ in range(3000):
        if len(out) == count:
            break
        heads = tuple(dict.fromkeys(_head(rng) for _ in range(rng.choice((2, 2, 3)))))
        if len(heads) < 2:
            continue
        form = closed_group(list(heads), N)
        if _anchor(form) == "F180":
            out.append((heads, form))
    return out


@functools.cache
def drawn() -> list:
    """The 12 unions, drawn on first use (not at collection: every pytest worker collects every file)."""
    return _drawn(12, seed=1179)


@pytest.mark.parametrize("index", range(12))
def test_f180_order_is_the_count_at_every_length_of_its_range(index):
    heads, form = drawn()[index]
    covered = 0
    for n in range(2, 41):
        case = form.at({N: n})
        if case is None:
            continue
        covered += 1
        assert int(case.order) == _order(heads, n), (heads, n, case.order)
    assert covered >= 20, (heads, covered)


@pytest.mark.parametrize("heads", [[Blocks(3), Dilated(2, 2)], [Blocks(2), Offsets((-3, 3))],
                                   [Blocks(4), Dilated(1, 3)], [Blocks(5), Offsets((-6, 6)), Dilated(1, 5)]])
def test_f179_union_anchor_order_from_its_first_length(heads):
    form = closed_group(heads, N)
    assert _anchor(form) == "F179"
    first = next(n for n in range(2, 200) if form.at({N: n}) is not None)
    for n in range(first, 91):
        assert int(form.at({N: n}).order) == _order(heads, n), (heads, n)


def test_coloured_blocks_jumps_count_is_the_least():
    text = ("tokens n\n"
            "attention { kernel k(x, y) = exp(x . y); pattern blocks(3) + offsets {1} }\n"
            "attention { kernel k(x, y) = exp(x . y); pattern blocks(2) + offsets {-1} }\n")
    r = uapcheck.check(text, "t.uap")
    assert r.verdict == "UAP"
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.facts["least"] is True
    nsym = next(s for s in r.layers.free_symbols if s.name == "n")

    def blocks(b):
        return lambda i, j, n: (i - 1) // b == (j - 1) // b
    preds = [R.union(blocks(3), R.offsets((1,))), R.union(blocks(2), R.offsets((-1,)))]
    for n in range(10, 23):
        nbs = [R.neighbourhoods(p, n) for p in preds]
        d = R.diameter(nbs, n)
        assert R.group_order(n, [(nb, None) for nb in nbs]) == 1
        least = d + (R.rooted_view_witness(n, nbs, d, [tuple(range(n + 1))]) is not None)
        assert least == d + (n % 6 == 0), n
        assert int(r.layers.subs(nsym, n)) == least, n


def _image(element: tuple, n: int) -> tuple:
    """σ(1), …, σ(n) of a listed element, read here: ("id",); ("refl", 1): i ↦ n + 1 − i; ("prefix", π, e): π on 1..u and
    on u + 1..n the identity (e = 0) or the reversal i ↦ n + u + 1 − i (e = 1)."""
    if element[0] == "id":
        return tuple(range(1, n + 1))
    if element[0] == "refl" and element[1] == 1:
        return tuple(n + 1 - i for i in range(1, n + 1))
    assert element[0] == "prefix", element
    pi, e = element[1], element[2]
    return tuple(pi) + tuple(n + len(pi) + 1 - i if e else i for i in range(len(pi) + 1, n + 1))


@pytest.mark.parametrize("index", range(12))
def test_f180_listed_elements_are_the_group(index):
    """At the first lengths of the range (n = 8 counted over S_8 when the range reaches it): every element the class
    lists keeps every head's arcs, and they are as many as the count."""
    heads, form = drawn()[index]
    first = next(n for n in range(2, 200) if form.at({N: n}) is not None)
    for n in range(first, first + 8):
        case = form.at({N: n})
        found = case.intersection[0]
        cls = next(c for c in found.classes if n % c.modulus == c.residue)
        assert cls.kind == "finite"
        pairs = [attends(h, n) for h in heads]
        images = {_image(e, n) for e in cls.elements}
        for s in images:
            sigma = (0,) + s
            assert all({(sigma[i], sigma[j]) for (i, j) in p} == p for p in pairs), (heads, n, s)
        count = brute_group_order(pairs, n) if n == 8 else _order(heads, n)
        assert len(images) == int(case.order) == count, (heads, n)
