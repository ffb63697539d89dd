"""Plain references for the view-witness conditions of docs/theory.md, written from their definitions alone (no import
of uapcheck): the neighbourhoods of LANGUAGE.md's patterns, BFS distances, the witness condition of §11.2 (labelled,
§11.10; per-layer and causal, §21.3 and §21.5) by brute force over S_n, a search over transpositions and 3-cycles for
larger n, and group orders by a plain backtracking search.

A head is a pair (nb, label): nb[v] the closed in-neighbourhood N(v) of query v (1-based, nb[0] unused, v ∈ N(v)),
label(v, u, n) the class of the arc u → v (None for a position-blind head)."""
from __future__ import annotations

import itertools
from collections import deque
from typing import Callable, Optional, Sequence

Pred = Callable[[int, int, int], bool]


def window(w: int) -> Pred:
    return lambda i, j, n: abs(i - j) <= w


def window_cyclic(w: int) -> Pred:
    return lambda i, j, n: min(abs(i - j), n - abs(i - j)) <= w


def offsets(jumps, cyclic: bool = False) -> Pred:
    if cyclic:
        return lambda i, j, n: (j - i) % n in {a % n for a in jumps}
    return lambda i, j, n: (j - i) in set(jumps)


def dilated(w: int, r: int) -> Pred:
    return lambda i, j, n: (j - i) % r == 0 and abs(j - i) // r <= w


def strided(s: int) -> Pred:
    return lambda i, j, n: (j - i) % s == 0


def global_(g: int) -> Pred:
    return lambda i, j, n: i <= g or j <= g


def full() -> Pred:
    return lambda i, j, n: True


def causal() -> Pred:
    return lambda i, j, n: j <= i


def union(*parts: Pred) -> Pred:
    return lambda i, j, n: any(p(i, j, n) for p in parts)


def meet(*parts: Pred) -> Pred:
    return lambda i, j, n: all(p(i, j, n) for p in parts)


def neighbourhoods(pred: Pred, n: int) -> list:
    """N(v) for v = 1..n (index 0 unused): the keys j with pred(v, j), and v itself."""
    return [frozenset()] + [frozenset({j for j in range(1, n + 1) if pred(v, j, n)} | {v}) for v in range(1, n + 1)]


def distances_to(nbs: Sequence[list], n: int, i: int) -> dict:
    """d(v → i) in the union of the heads (information flows from key u to query v), by BFS backwards from i."""
    dist = {i: 0}
    queue = deque([i])
    while queue:
        v = queue.popleft()
        for nb in nbs:
            for u in nb[v]:
                if u not in dist:
                    dist[u] = dist[v] + 1
                    queue.append(u)
    return dist


def diameter(nbs: Sequence[list], n: int) -> Optional[int]:
    """The directed diameter of the union, None when it is not strongly connected."""
    worst = 0
    for i in range(1, n + 1):
        dist = distances_to(nbs, n, i)
        if len(dist) < n:
            return None
        worst = max(worst, max(dist.values()))
    return worst


def _keeps(sigma, heads, n: int, v: int) -> bool:
    """σ(N_h(v)) = N_h(σv) for every head, with the labels kept: λ(σv, σu) = λ(v, u) for u ∈ N_h(v)."""
    sv = sigma[v]
    for nb, label in heads:
        if {sigma[u] for u in nb[v]} != nb[sv]:
            return False
        if label is not None and any(label(sv, sigma[u], n) != label(v, u, n) for u in nb[v]):
            return False
    return True


def _good(sigma, heads, n: int) -> int:
    """The bit set of the positions v at which σ keeps every head (bit v)."""
    bits = 0
    for v in range(1, n + 1):
        if _keeps(sigma, heads, n, v):
            bits |= 1 << v
    return bits


def _balls(heads, n: int, radius: int) -> list:
    nbs = [nb for nb, _ in heads]
    out = []
    for i in range(1, n + 1):
        dist = distances_to(nbs, n, i)
        out.append((i, sum(1 << v for v, d in dist.items() if d <= radius)))
    return out


def brute_force(n: int, heads) -> Optional[tuple]:
    """(|G|, D, the least count, a witness (i, σ) or None) over all of S_n: the least count is D without a labelled
    view witness at depth D (§11.2 item 2, §11.10) and D + 1 with one; None when the union is not strongly
    connected."""
    nbs = [nb for nb, _ in heads]
    d = diameter(nbs, n)
    if d is None:
        return None
    everyone = sum(1 << v for v in range(1, n + 1))
    balls = _balls(heads, n, d - 1)
    order, witness = 0, None
    for perm in itertools.permutations(range(1, n + 1)):
        sigma = (0,) + perm
        good = _good(sigma, heads, n)
        if good == everyone:
            order += 1
        elif witness is None:
            witness = next(((i, perm) for i, ball in balls if ball & good == ball), None)
    return order, d, d + (witness is not None), witness


def small_moves(n: int) -> list:
    """Every transposition and 3-cycle of 1..n, as tuples σ with σ[0] unused."""
    moves = []
    for a, b in itertools.combinations(range(1, n + 1), 2):
        sigma = list(range(n + 1))
        sigma[a], sigma[b] = b, a
        moves.append(tuple(sigma))
    for a, b, c in itertools.combinations(range(1, n + 1), 3):
        for x, y, z in ((a, b, c), (a, c, b)):
            sigma = list(range(n + 1))
            sigma[x], sigma[y], sigma[z] = y, z, x
            moves.append(tuple(sigma))
    return moves


def witness_among_small_moves(n: int, heads, depth: int) -> Optional[tuple]:
    """A labelled view witness (i, σ) at the given depth among the transpositions and 3-cycles, or None (which proves
    nothing)."""
    everyone = sum(1 << v for v in range(1, n + 1))
    balls = _balls(heads, n, depth - 1)
    for sigma in small_moves(n):
        good = _good(sigma, heads, n)
        if good == everyone:
            continue
        for i, ball in balls:
            if ball & good == ball:
                return i, sigma
    return None


def group_order(n: int, heads) -> int:
    """|G| for G the permutations keeping every head with its labels (every arc, every class), by backtracking: σ(x)
    is chosen for x = 1, 2, … so that every pair of assigned positions keeps, in every head, whether it is an arc and
    its class."""
    def arc(h, v, u):
        nb, label = h
        if u not in nb[v]:
            return None
        return True if label is None else ("arc", label(v, u, n))

    count = 0
    sigma = [0] * (n + 1)
    used = [False] * (n + 1)

    def extend(x: int) -> None:
        nonlocal count
        if x > n:
            count += 1
            return
        for y in range(1, n + 1):
            if used[y]:
                continue
            if any(arc(h, x, x) != arc(h, y, y) for h in heads):
                continue
            if all(arc(h, x, z) == arc(h, y, sigma[z]) and arc(h, z, x) == arc(h, sigma[z], y)
                   for z in range(1, x) for h in heads):
                sigma[x], used[y] = y, True
                extend(x + 1)
                used[y] = False
    extend(1)
    return count


def causal_least(n: int, layers: Sequence[Sequence[list]], depth: int) -> Optional[int]:
    """The least m ≤ depth of layers (layers[ℓ − 1] the heads' neighbourhoods of layer ℓ, every arc j ≤ i) that
    reaches every prefix and leaves no causal view witness (§21.5: σ meeting §21.3's condition at a root i and moving
    some position of 1..i), by brute force over S_n; None when no m ≤ depth does (NOT-UAP for causal targets)."""
    perms = [(0,) + p for p in itertools.permutations(range(1, n + 1))]
    goods = [[_good(sigma, [(nb, None) for nb in layer], n) for layer in layers[:depth]] for sigma in perms]
    for m in range(1, depth + 1):
        ok = True
        for i in range(1, n + 1):
            levels = [1 << i]          # levels[k] = V_{m − k}
            for ell in range(m, 0, -1):
                reach = 0
                for v in range(1, n + 1):
                    if levels[-1] >> v & 1:
                        for nb in layers[ell - 1]:
                            reach |= sum(1 << u for u in nb[v])
                levels.append(reach)
            if levels[-1] != sum(1 << v for v in range(1, i + 1)):
                ok = False
                break
            v_sets = list(reversed(levels))   # v_sets[ℓ] = V_ℓ
            for sigma, good in zip(perms, goods):
                if all(sigma[v] == v for v in range(1, i + 1)):
                    continue
                if all(v_sets[ell] & good[ell - 1] == v_sets[ell] for ell in range(1, m + 1)):
                    ok = False
                    break
            if not ok:
                break
        if ok:
            return m
    return None



def _view_arcs(n: int, nbs: Sequence[list], depth: int, i: int) -> tuple:
    """The rooted view R_i of §11.9 for the union of the heads: colours min(d(v → i), depth) and the arcs u → v with v
    in the ball of radius depth − 1, each with the set of heads holding it."""
    dist = distances_to(nbs, n, i)
    colour = {v: min(dist[v], depth) for v in range(1, n + 1)}
    arcs: dict = {}
    for v in range(1, n + 1):
        if dist[v] <= depth - 1:
            for h, nb in enumerate(nbs):
                for u in nb[v]:
                    if u != v:
                        arcs.setdefault((u, v), set()).add(h)
    return colour, {a: frozenset(hs) for a, hs in arcs.items()}


def _refine(colour: dict, ins: dict, outs: dict) -> dict:
    """Equitable refinement (1-dimensional Weisfeiler–Leman) on a vertex set, colours renamed by sorting their
    signatures, so that two disjoint parts refined together get comparable colours."""
    while True:
        sig = {x: (colour[x], tuple(sorted((lab, colour[y]) for y, lab in ins[x])),
                   tuple(sorted((lab, colour[y]) for y, lab in outs[x]))) for x in colour}
        names = {s: k for k, s in enumerate(sorted(set(sig.values())))}
        new = {x: names[sig[x]] for x in colour}
        if len(names) == len(set(colour.values())):
            return new
        colour = new


def _isomorphisms(n: int, a: tuple, b: tuple):
    """Every isomorphism of coloured arc-labelled digraphs a → b on positions 1..n (σ tuples, σ[0] unused), by
    individualisation and refinement on their disjoint union."""
    ins: dict = {}
    outs: dict = {}
    colour = {}
    for side, (col, arcs) in enumerate((a, b)):
        for v in range(1, n + 1):
            ins[(side, v)], outs[(side, v)] = [], []
            colour[(side, v)] = (col[v],)
        for (u, v), lab in arcs.items():
            key = tuple(sorted(lab))
            ins[(side, v)].append(((side, u), key))
            outs[(side, u)].append(((side, v), key))
    ins = {x: [(y, lab) for y, lab in ys] for x, ys in ins.items()}
    outs = {x: [(y, lab) for y, lab in ys] for x, ys in outs.items()}
    names = {c: k for k, c in enumerate(sorted(set(colour.values())))}
    start = {x: names[c] for x, c in colour.items()}

    def search(col):
        col = _refine(col, ins, outs)
        cells: dict = {}
        for (side, v), c in col.items():
            cells.setdefault(c, ([], []))[side].append(v)
        if any(len(l) != len(r) for l, r in cells.values()):
            return
        open_cells = [c for c, (l, r) in cells.items() if len(l) > 1]
        if not open_cells:
            sigma = [0] * (n + 1)
            for l, r in cells.values():
                sigma[l[0]] = r[0]
            if all(arcs_b.get((sigma[u], sigma[v])) == lab for (u, v), lab in arcs_a.items()) and \
                    len(arcs_a) == len(arcs_b):
                yield tuple(sigma)
            return
        c = min(open_cells, key=lambda c: len(cells[c][0]))
        x = cells[c][0][0]
        top = max(col.values()) + 1
        for y in cells[c][1]:
            trial = dict(col)
            trial[(0, x)] = trial[(1, y)] = top
            yield from search(trial)

    arcs_a, arcs_b = a[1], b[1]
    yield from search(start)


def _refined_key(n: int, view: tuple) -> tuple:
    """The sorted colours of a view's own equitable refinement: colours are named by sorting their signatures, so
    isomorphic views get equal keys (views with different keys are not isomorphic)."""
    col, arcs = view
    ins: dict = {v: [] for v in range(1, n + 1)}
    outs: dict = {v: [] for v in range(1, n + 1)}
    for (u, v), lab in arcs.items():
        ins[v].append((u, tuple(sorted(lab))))
        outs[u].append((v, tuple(sorted(lab))))
    return tuple(sorted(_refine(dict(col), ins, outs).values()))


def rooted_view_witness(n: int, nbs: Sequence[list], depth: int, group: Sequence[tuple], roots=None) -> Optional[tuple]:
    """An exact view witness (i, σ) at the given depth for unlabelled heads, or None when there is none: by §11.9's
    Lemma 1 the witnesses at i are the isomorphisms R_i → R_j of rooted views, enumerated by individualisation and
    refinement and each tested against the listed group (σ tuples, σ[0] unused). ``roots``: the roots i to try (every
    position by default; a root outside them is covered when the group maps it onto one of them)."""
    members = {tuple(g) for g in group}
    views = {i: _view_arcs(n, nbs, depth, i) for i in range(1, n + 1)}
    keys = {i: _refined_key(n, view) for i, view in views.items()}
    for i in (roots or range(1, n + 1)):
        for j in (j for j in range(1, n + 1) if keys[j] == keys[i]):
            for sigma in _isomorphisms(n, views[i], views[j]):
                if sigma not in members:
                    return i, sigma
    return None


def transposition_witness_depth_two(nb: list, n: int, first: Optional[int] = None) -> Optional[tuple]:
    """A view witness at depth 2 for one unlabelled head among the transpositions (a b), or None (which proves
    nothing): (a b) keeps N(v) for v ∉ {a, b} iff N(v) holds both or neither of a, b, and keeps N(a) iff swapping a and
    b in N(a) gives N(b); it is a witness at i iff every v ∈ N(i) (the ball of radius 1) is kept, and (a b) is not an
    automorphism (then it is outside G). Matrix products over all pairs (numpy), so n in the hundreds; ``first``
    limits a and b to the positions 1..first."""
    import numpy as np
    adj = np.zeros((n, n), dtype=np.float32)
    for v in range(1, n + 1):
        for u in nb[v]:
            adj[v - 1, u - 1] = 1.0
    top = n if first is None else min(n, first)
    for a in range(top - 1):
        col = adj[:, a:a + 1]
        bad = (adj[:, a + 1:top] != col).astype(np.float32)          # bad[v, b − a − 1]: N(v) holds one of a, b
        bad[a, :] = 0.0
        for k, b in enumerate(range(a + 1, top)):
            bad[b, k] = 0.0
        for k, b in enumerate(range(a + 1, top)):             # (a b) maps N(a) onto N(b) (and N(b) onto N(a))?
            image = adj[a].copy()
            image[a], image[b] = adj[a, b], adj[a, a]
            if not np.array_equal(image, adj[b]):
                bad[a, k] = bad[b, k] = 1.0
        hits = adj @ bad                                          # hits[i, k]: the ball of i meets the bad set
        hits[:, ~bad.any(axis=0)] = 1.0                           # (a b) keeps every neighbourhood: in G
        free = np.argwhere(hits == 0)
        if len(free):
            i, k = free[0]
            return int(i) + 1, (a + 1, a + 2 + int(k))
    return None
