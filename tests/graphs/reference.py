"""Independent reference semantics for the tests: the neighbour sets of LANGUAGE.md, pair by pair.

Deliberately naive (loops over all pairs) so that it shares no code with ``uapcheck.graphs``.
"""
from __future__ import annotations

import itertools
import random
from collections import deque

from hypothesis import strategies as st

from uapcheck.spec import (Blocks, Causal, Columns, Dilated, Edges, Full, Global, Offsets, PatternUnion,
                           RandomPattern, Star, Strided, Window)


def val(term, params):
    if isinstance(term, int):
        return term
    return -params[term[1:]] if term.startswith("-") else params[term]


def attends(pattern, n, params=None):  # noqa: C901 - one branch per pattern kind (spec.Pattern)
    """The set of pairs (i, j), 1-based, with i != j, such that query i attends to key j."""
    params = params or {}
    out = set()
    P = range(1, n + 1)
    if isinstance(pattern, PatternUnion):
        for p in pattern.parts:
            out |= attends(p, n, params)
        return out
    if isinstance(pattern, RandomPattern):
        rng = random.Random(pattern.seed)
        for i in P:
            for j in rng.sample(range(1, n + 1), val(pattern.r, params)):
                if j != i:
                    out.add((i, j))
        return out
    if isinstance(pattern, Edges):
        return {(i, j) for (i, j) in pattern.edges if i != j}
    for i, j in itertools.product(P, P):
        if i == j:
            continue
        d = j - i
        if isinstance(pattern, Full):
            ok = True
        elif isinstance(pattern, Causal):
            ok = j <= i
        elif isinstance(pattern, Window):
            w = val(pattern.w, params)
            ok = (min(abs(d), n - abs(d)) if pattern.cyclic else abs(d)) <= w
        elif isinstance(pattern, Offsets):
            ks = [val(k, params) for k in pattern.offsets]
            ok = (d % n in {k % n for k in ks}) if pattern.cyclic else d in ks
        elif isinstance(pattern, Dilated):
            w, r = val(pattern.w, params), val(pattern.r, params)
            ok = any(d == k * r for k in range(-w, w + 1))
        elif isinstance(pattern, Strided):
            ok = d % val(pattern.s, params) == 0
        elif isinstance(pattern, Blocks):
            b = val(pattern.b, params)
            ok = (i - 1) // b == (j - 1) // b
        elif isinstance(pattern, (Global, Star)):
            g = 1 if isinstance(pattern, Star) else val(pattern.g, params)
            ok = i <= g or j <= g
        elif isinstance(pattern, Columns):
            step, c = val(pattern.l, params), val(pattern.c, params)
            ok = j % step == 0 or step - (j % step) < c  # j is among the last c of its block of l
        else:
            raise TypeError(pattern)
        if ok:
            out.add((i, j))
    return out


def count_automorphisms(n, arc, invariant=None):
    """|{σ ∈ S_n : arc(u, v) ⇔ arc(σu, σv) for all u, v}|, by extending partial maps position by position
    and dropping one that breaks an arc or a non-arc (the same count as trying all of S_n). `invariant`,
    when given, is a quantity every automorphism keeps (a degree, say): it only prunes."""
    count = 0

    def extend(image):
        nonlocal count
        k = len(image) + 1
        if k > n:
            count += 1
            return
        for v in range(1, n + 1):
            if v not in image and (invariant is None or invariant(k) == invariant(v)) and arc(k, k) == arc(v, v) \
                    and all(arc(k, u) == arc(v, image[u - 1]) and arc(u, k) == arc(image[u - 1], v)
                            for u in range(1, k)):
                extend(image + [v])
    extend([])
    return count


def bias_class(kind, n, i, j):
    d = j - i
    return {None: 0, "circulant": d % n, "symmetric circulant": min(d % n, n - d % n),
            "toeplitz": d, "symmetric toeplitz": abs(d)}[kind]


def brute_group_order(head_pairs, n, biases=None):
    """|G| by trying every permutation: σ preserves each head's pairs and their bias classes."""
    biases = biases or [None] * len(head_pairs)
    if "free" in biases:
        return 1
    count = 0
    for perm in itertools.permutations(range(1, n + 1)):
        s = (0,) + perm
        ok = True
        for pairs, kind in zip(head_pairs, biases):
            for (i, j) in pairs:
                if (s[i], s[j]) not in pairs or bias_class(kind, n, i, j) != bias_class(kind, n, s[i], s[j]):
                    ok = False
                    break
            if not ok:
                break
        count += ok
    return count


def all_distances(pairs, n):
    """dist[j][i] = d(j -> i) in the union (None when unreachable), arcs j -> i for (i, j) pairs."""
    outs = {v: [] for v in range(1, n + 1)}
    for (i, j) in pairs:
        outs[j].append(i)
    dist = {}
    for j in range(1, n + 1):
        d = {j: 0}
        q = deque([j])
        while q:
            a = q.popleft()
            for b in outs[a]:
                if b not in d:
                    d[b] = d[a] + 1
                    q.append(b)
        dist[j] = d
    return dist


# Hypothesis strategies shared by the symmetry tests: small heads of every pattern kind, and biases.
HEADS = st.sampled_from([
    Window(1), Window(2), Window(1, True), Window(2, True), Offsets((1,), True), Offsets((1, 2), True),
    Offsets((1, -2)), Causal(), Star(), Global(2), Blocks(2), Blocks(3), Strided(2), Strided(3),
    Dilated(1, 2), Full(), PatternUnion((Window(1), Global(1))), RandomPattern(2, seed=3),
    Edges(((1, 2), (2, 1), (3, 4), (4, 3))), Edges(((1, 2), (2, 3), (3, 1), (4, 5))),
])
BIASES = st.sampled_from([None, None, None, "circulant", "symmetric circulant", "toeplitz",
                          "symmetric toeplitz"])


def closed_neighbourhoods(pattern, n, params=None):
    """{v: v with every position joined to it by an arc either way} on the reference arcs (1..n)."""
    near = {v: {v} for v in range(1, n + 1)}
    for i, j in attends(pattern, n, params):
        near[i].add(j)
        near[j].add(i)
    return near


def distances_from(adj, root):
    """{v: d(root, v)} by breadth-first search over `adj` (a mapping or list: position -> its neighbours), for the
    positions reached."""
    dist = {root: 0}
    queue = deque([root])
    while queue:
        u = queue.popleft()
        for v in adj[u]:
            if v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist
