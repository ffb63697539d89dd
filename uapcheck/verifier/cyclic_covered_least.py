"""Theorem F200 (docs/theory.md §11.11, lemma AA), restated for the verifier: `window(w) cyclic + strided(s)`, integers
w ≥ 1, w + 1 ≤ s ≤ 2w + 1, n ≥ s(3w + 2) (D = 2, Theorem F197). On these classes of n mod s D = 2 layers are not
enough (3 least):

    s = 2w + 1, every class:   exchanging [3w + 3, 5w + 3] and [5w + 4, 7w + 4] (x ↦ x ± s), at position 1;
    n ≡ j + 1, 0 ≤ j ≤ w − 1:  the swap (j + 1, n) at a middle root whose class misses the residues of j + 1 and of
                               the positions w + 1, …, w + j + 1 and n − w, …, n − w + j (the positions that see
                               exactly one of the two);
    otherwise:                 the swap (x, x + 1) at a root i ≤ w whose closed neighbourhood has no position in
                               the classes of x and x + 1 and not x + w + 1 (the one that sees x + 1 and not x).

The verifier's own code: the residues are read off the positions themselves at the length asked (not from the
engine's residue formulas), the root and x are searched for here, and at every instance of the range the witness is
re-checked on the verifier's arcs (not a symmetry; every position whose neighbourhood it changes lies outside the
closed neighbourhood of the root). The classes at a symbolic n are those with a witness at the range's first length
of the class: every position the witness involves lies within 7w + 4 of an end, or in one window in the middle, so the
check reads the same residues at every length of the class.
"""
from __future__ import annotations

import functools
from typing import Optional

from .. import spec as S
from . import patterns


def start(w: int, s: int) -> int:
    return s * (3 * w + 2)


@functools.lru_cache(maxsize=4096)
def _closed(i: int, n: int, w: int, s: int) -> frozenset:
    """N[i] from the definitions: the cyclic window of radius w (the positions i − w, …, i + w taken mod n into
    1, …, n) and the class of i mod s among 1, …, n (its 2w + 1 + ⌈n/s⌉ members at most, listed directly)."""
    window = {(i - 1 + k) % n + 1 for k in range(-w, w + 1)}
    return frozenset(window | set(range((i - 1) % s + 1, n + 1, s)))


def _exactly_one(x: int, y: int, n: int, w: int, s: int) -> frozenset:
    """The positions other than x, y adjacent to exactly one of them."""
    a, b = _closed(x, n, w, s), _closed(y, n, w, s)
    return (a ^ b) - {x, y}


def _swap_witness(x: int, y: int, roots, n: int, w: int, s: int) -> Optional[tuple]:
    """The first root whose closed neighbourhood misses x, y and every position that sees one of them only."""
    avoid = _exactly_one(x, y, n, w, s) | {x, y}
    for i in roots:
        if not (_closed(i, n, w, s) & avoid):
            return i, ((x, y),)
    return None


def witness(w: int, s: int, n: int) -> Optional[tuple]:
    """(root, 2-cycles) at the length n, or None where the theorem gives none."""
    if not (w >= 1 and w + 1 <= s <= 2 * w + 1 and n >= start(w, s)):
        return None
    if s == 2 * w + 1:
        p = 3 * w + 3
        return 1, tuple((p + k, p + s + k) for k in range(s))
    j = (n - 1) % s
    if j <= w - 1:
        found = _swap_witness(j + 1, n, range(3 * w + 2, 3 * w + 2 + s), n, w, s)
        if found is not None:
            return found
    for i in range(1, w + 1):
        for x in range(3 * w + 1, 3 * w + 1 + s):
            found = _swap_witness(x, x + 1, (i,), n, w, s)
            if found is not None:
                return found
    return None


@functools.lru_cache(maxsize=256)
def classes(w: int, s: int) -> tuple:
    """The residues of n mod s with a witness at the range's first length of the class."""
    return _witness_classes(start(w, s), s, lambda n: witness(w, s, n))


def _witness_classes(low: int, s: int, witness_at) -> tuple:
    """The residues of n mod s whose length in [low, low + s) has a witness (``witness_at(n)`` not None)."""
    return tuple(sorted(n % s for n in range(low, low + s) if witness_at(n) is not None))


def layers_problem(w: int, s: int, n: int, d: int) -> Optional[str]:
    """At one length n: on a class the theorem decides, its witness re-checked on the verifier's arcs (D = d = 2)."""
    found = witness(w, s, n)
    if found is None:
        return None if n % s not in classes(w, s) else f"n = {n}: no witness on a class the theorem decides"
    return _swap_problem(w, s, n, d, found)


def _swap_problem(w: int, s: int, n: int, d: int, found: tuple) -> Optional[str]:
    """A witness (root, swapped pairs) of `window(w) cyclic + strided(s)` at n re-checked on the verifier's arcs: not
    a symmetry, and no position within d − 1 of the root has its neighbourhood changed."""
    root, cycles = found
    perm = list(range(1, n + 1))
    for a, b in cycles:
        perm[a - 1], perm[b - 1] = b, a
    heads = [patterns.head_arcs(S.PatternUnion((S.Window(w, True), S.Strided(s))), n)]
    if all((perm[u - 1], perm[v - 1]) in heads[0] for u, v in heads[0]):
        return f"n = {n}: the witness is a symmetry"
    dist = patterns.bfs(patterns.union_out(heads, n), root)
    near = [v for v in patterns.view_bad_positions(perm, heads, n) if dist[v] is not None and dist[v] <= d - 1]
    if near:
        return f"n = {n}: position {near[0]}, whose neighbourhood the witness changes, is within {d - 1} of {root}"
    return None


def lemma_ah_problem(w: int, s: int, n: int) -> Optional[str]:
    """Lemma AH's steps (docs/theory.md §11.11) at the root n of the union, s | n, on the verifier's own arcs: the
    root's ball is its class and its window, told apart by common neighbours; a window position's level read off its
    neighbours; the far traces relate exactly the consecutive members of the root's class; far traces pairwise
    distinct. None when all hold."""
    arcs = patterns.head_arcs(S.PatternUnion((S.Window(w, True), S.Strided(s))), n)
    near: list[set] = [set() for _ in range(n + 1)]
    for j, i in arcs:
        near[i].add(j)
        near[j].add(i)
    for v in range(1, n + 1):
        near[v].add(v)
    ball = near[n]
    cls = {v for v in range(1, n + 1) if v % s == 0}
    win = {v for v in range(1, n + 1) if min(v, n - v) <= w}
    if ball != cls | win:
        return f"n = {n}: the root's ball is not its class and its window"
    if min(len(near[v] & ball) for v in cls - {n}) <= max(len(near[v] & ball) for v in win - {n}):
        return f"n = {n}: common neighbours do not tell the root's class from its window"
    if any(min(u, n - u) != 2 * w + 1 + (1 if near[u] & (cls - {n}) else 0) - len(near[u] & win) for u in win - {n}):
        return f"n = {n}: a window position's level is not read off its neighbours"
    far = [x for x in range(1, n + 1) if x not in ball]
    traces = [frozenset(near[x] & ball) for x in far]
    pairs = {(a, b) for t in traces for a in t & cls for b in t & cls if a < b}
    if pairs != {(k * s, k * s + s) for k in range(1, n // s - 1)}:
        return f"n = {n}: the far traces do not relate exactly the consecutive members of the root's class"
    if len(set(traces)) != len(traces):
        return f"n = {n}: two far positions have one trace"
    return None


# Theorem F219 (lemma AJ, docs/theory.md §11.11), restated: for s ≤ 2w and a class e ≠ 0 of n mod s, a view witness
# with 2 layers at n + s gives one at n for every n ≥ max(s(3w + 2), 15s) of the class; so when the rooted views
# find none at the class's lengths from s(3w + 2) below max(s(3w + 2), 15s) + s, D = 2 layers suffice on the class.
# The verifier's own check: its arcs, G = {id, ρ} (Theorem F201, s ∤ n) as generators, nauty's rooted views.

#: the largest s whose classes the verifier re-checks (the engine states F219 only up to its own limit, 16)
SUFFICE_MAX_S = 16


def pump_start(w: int, s: int) -> int:
    return max(start(w, s), 15 * s)


@functools.lru_cache(maxsize=1024)
def _no_witness(w: int, s: int, n: int) -> Optional[str]:
    """None when no view witness with 2 layers exists at n (nauty's rooted views on the verifier's arcs, G = {id, ρ}
    for s ∤ n), else the reason."""
    from . import views
    if n % s == 0:
        return f"n = {n}: a multiple of s, not a class of Theorem F219"
    arcs = patterns.head_arcs(S.PatternUnion((S.Window(w, True), S.Strided(s))), n)
    reflection = [n + 1 - k for k in range(1, n + 1)]
    try:
        return views.decide([arcs], n, 2, [reflection])
    except views.NoNauty as exc:
        return f"n = {n}: {exc}"


@functools.lru_cache(maxsize=256)
def suffice_classes(w: int, s: int) -> tuple:
    """The classes e ≠ 0 of n mod s (s ≤ 2w) where no view witness with 2 layers exists at every length
    n ≡ e with s(3w + 2) ≤ n < max(s(3w + 2), 15s) + s; () outside the family or above SUFFICE_MAX_S."""
    if not (w >= 2 and w + 1 <= s <= 2 * w and 3 <= s <= SUFFICE_MAX_S):
        return ()
    lengths = range(start(w, s), pump_start(w, s) + s)
    return tuple(e for e in range(1, s) if all(_no_witness(w, s, n) is None for n in lengths if n % s == e))


def suffice_problem(w: int, s: int, n: int) -> Optional[str]:
    """At one length n of a class Theorem F219 states (2 layers): the class is one the verifier's check decides, and
    at n itself (up to the rooted-view limit) no view witness exists."""
    if n % s not in suffice_classes(w, s):
        return f"n = {n}: n mod {s} = {n % s} is not a class where the rooted views find no witness below " \
               f"{pump_start(w, s) + s}"
    from . import views
    return _no_witness(w, s, n) if n <= views.MAX_N else None


# Theorems F224–F226 (lemma AM, docs/theory.md §11.11), restated for 2 ≤ s ≤ w, the stride covered densely. F224: on
# n ≡ e ≠ 0 the swap of a seam pair (a, a + n − e), 1 ≤ a ≤ e, of one class is a view witness at a middle root; the
# root and a are searched for here on the verifier's own closed neighbourhoods. F225 (lemma AM): a view witness with 2
# layers at n + s gives one at n for n ≥ N₁ on every class; F226: so the class's one length in [N₁, N₁ + s) decides
# it, re-checked here by nauty's rooted views on the verifier's arcs with G's generators written from F205.

def dense_start(w: int, s: int) -> int:
    """F205's range max(s(3w + 2), 20w)."""
    return max(s * (3 * w + 2), 20 * w)


def dense_pump_start(w: int, s: int) -> int:
    """Lemma AM's N₁, restated: s times the members excluded as the cut's centre, twice (domain and image) the
    members among 2(4w + s) positions round the seam, 4w + 2s − 1 round the root, 2w + 2s − 1 and 2s − 1 round the two
    ends of a pair the witness does not keep (at most ⌈ℓ/s⌉ + 1 among ℓ cyclically consecutive positions); at least
    F205's range and s(4w + 4)."""
    def most(length: int) -> int:
        return (length + s - 1) // s + 1
    excluded = most(8 * w + 2 * s) + most(4 * w + 2 * s - 1) + most(2 * w + 2 * s - 1) + most(2 * s - 1)
    return max(dense_start(w, s), 2 * s * excluded, s * (4 * w + 4))


def dense_witness(w: int, s: int, n: int) -> Optional[tuple]:
    """F224's swap at the length n: a seam pair (a, a + n − e) and a middle root 3w + 2 ≤ i < 3w + 2 + s whose closed
    neighbourhood misses the pair and every position seeing exactly one of it; None where there is none."""
    e = n % s
    if not (2 <= s <= w and n >= dense_start(w, s)) or e == 0:
        return None
    for a in range(1, e + 1):
        if not _exactly_one(a, a + n - e, n, w, s):
            continue  # twins: the swap is a symmetry
        found = _swap_witness(a, a + n - e, range(3 * w + 2, 3 * w + 2 + s), n, w, s)
        if found is not None:
            return found
    return None


@functools.lru_cache(maxsize=256)
def dense_classes(w: int, s: int) -> tuple:
    """The residues of n mod s with F224's witness at the range's first length of the class."""
    return _witness_classes(dense_start(w, s), s, lambda n: dense_witness(w, s, n))


def dense_generators(w: int, s: int, n: int) -> list:
    """G at n by Theorem F205 (as the verifier restates it): the reflection; the rotation when s | n; the twins (1 n)
    when s | w and n ≡ 1 (mod s)."""
    gens = [[n + 1 - k for k in range(1, n + 1)]]
    if n % s == 0:
        gens.append([k % n + 1 for k in range(1, n + 1)])
    if w % s == 0 and n % s == 1:
        gens.append([n] + list(range(2, n)) + [1])
    return gens


@functools.lru_cache(maxsize=1024)
def _dense_no_witness(w: int, s: int, n: int) -> Optional[str]:
    from . import views
    arcs = patterns.head_arcs(S.PatternUnion((S.Window(w, True), S.Strided(s))), n)
    gens = dense_generators(w, s, n)
    if not all((g[u - 1], g[v - 1]) in arcs for g in gens for u, v in arcs):
        return f"n = {n}: a generator of F205's group is not a symmetry"
    try:
        return views.decide([arcs], n, 2, gens)
    except views.NoNauty as exc:
        return f"n = {n}: {exc}"


#: the largest w whose classes the verifier re-checks (the engine states F226 for w ≤ 6, its table)
DENSE_MAX_W = 6


@functools.lru_cache(maxsize=256)
def dense_suffice_classes(w: int, s: int) -> tuple:
    """The classes e of n mod s (2 ≤ s ≤ w) where nauty's rooted views find no view witness with 2 layers at the
    class's length in [N₁, N₁ + s); () outside the family or above DENSE_MAX_W."""
    low = dense_pump_start(w, s)
    if not 2 <= s <= w <= DENSE_MAX_W:
        return ()
    return tuple(n % s for n in sorted(range(low, low + s), key=lambda m: m % s)
                 if _dense_no_witness(w, s, n) is None)


def dense_layers_problem(w: int, s: int, n: int, d: int) -> Optional[str]:
    """At one length n: F224's witness re-checked on a class it decides (D + 1 = 3 least), or on a class F226 states
    (2 layers, n ≥ N₁) the class among the verifier's checked ones and, up to the rooted-view limit, no witness at n."""
    e = n % s
    if e not in dense_classes(w, s):  # F224's classes and F226's checked ones are disjoint
        if e not in dense_suffice_classes(w, s):
            return None
        if n < dense_pump_start(w, s):
            return f"n = {n}: below lemma AM's range n ≥ {dense_pump_start(w, s)}"
        from . import views
        return _dense_no_witness(w, s, n) if n <= min(views.MAX_N, 400) else None
    found = dense_witness(w, s, n)
    if found is None:
        return f"n = {n}: no witness on a class the theorem decides"
    return _swap_problem(w, s, n, d, found)
