"""Compact arc arrays for the verifier above its set-based arc limit (patterns.MAX_N): each head's arcs
rebuilt from the re-parsed pattern by arithmetic into a sorted numpy array of codes, breadth-first
search both ways over the union, and permutations checked to be automorphisms on the arcs themselves.

Conventions are patterns.py's (positions 1..n, query i attends to key j gives the arc j -> i,
self-loops dropped); internally positions are 0-based and an arc j -> i is the code j·n + i. The
builder follows patterns._arcs part by part (tests/verifier/test_arc_arrays.py compares the two on
every pattern kind it covers); a kind it does not cover raises Unsupported and the step goes back to
the interval model (large.py).
"""
from __future__ import annotations

import random
from typing import Optional, Sequence

import numpy as np

from .. import spec as S

MAX_ARCS = 24_000_000  # about 0.4 GB of working arrays: window(8) cyclic at n = 1,048,576 has 16,777,216


class Unsupported(Exception):
    """A pattern part the array builder does not cover, or too many arcs."""


def _int(term) -> int:
    if isinstance(term, bool) or not isinstance(term, int):
        raise Unsupported(f"pattern quantity {term!r} is not an integer")
    return term


def _offset(n: int, a: int, cyclic: bool) -> np.ndarray:
    """Codes of the arcs (i + a) -> i over i (mod n when cyclic, else those in range), self-loops dropped."""
    i = np.arange(n, dtype=np.int64)
    j = i + a
    if cyclic:
        j %= n
    else:
        keep = (j >= 0) & (j < n)
        i, j = i[keep], j[keep]
    keep = j != i
    return j[keep] * n + i[keep]


def _star(n: int, centres: Sequence[int]) -> list:
    """Every arc into and out of each (0-based) centre."""
    out = []
    v = np.arange(n, dtype=np.int64)
    for t in centres:
        others = v[v != t]
        out += [others * n + t, t * n + others]
    return out


class _Builder:
    def __init__(self, n: int):
        self.n = n
        self.count = 0

    def _add(self, out: list, codes: np.ndarray) -> None:
        self.count += codes.size
        if self.count > MAX_ARCS:
            raise Unsupported(f"more than {MAX_ARCS:,} arcs")
        out.append(codes)

    def _rows(self, out: list, keys: np.ndarray, queries: np.ndarray) -> None:
        """Every arc key -> query between the two (0-based) sets, self-loops dropped."""
        if keys.size * queries.size > MAX_ARCS:
            raise Unsupported(f"more than {MAX_ARCS:,} arcs")
        codes = (keys[:, None] * self.n + queries[None, :]).ravel()
        self._add(out, codes[(codes // self.n) != (codes % self.n)])

    def arcs(self, p: S.Pattern, out: list) -> None:  # noqa: C901 - one branch per pattern kind (spec.Pattern)
        n = self.n
        if isinstance(p, S.PatternUnion):
            for part in p.parts:
                self.arcs(part, out)
        elif isinstance(p, S.Window):
            for d in range(1, _int(p.w) + 1):
                if d >= n:
                    break
                self._add(out, _offset(n, d, p.cyclic))
                self._add(out, _offset(n, -d, p.cyclic))
        elif isinstance(p, S.Offsets):
            for term in p.offsets:
                self._add(out, _offset(n, _int(term), p.cyclic))
        elif isinstance(p, S.Dilated):
            w, r = _int(p.w), _int(p.r)
            for k in range(1, w + 1):
                if k * r >= n:
                    break
                self._add(out, _offset(n, k * r, False))
                self._add(out, _offset(n, -k * r, False))
        elif isinstance(p, (S.Global, S.Star, S.GlobalAt)):
            if isinstance(p, S.GlobalAt):
                centres = sorted({t - 1 for t in p.positions if 1 <= t <= n})
            else:
                g = 1 if isinstance(p, S.Star) else _int(p.g)
                centres = list(range(min(g, n)))
            if len(centres) * 2 * n > MAX_ARCS:
                raise Unsupported(f"more than {MAX_ARCS:,} arcs")
            for codes in _star(n, centres):
                self._add(out, codes)
        elif isinstance(p, S.Blocks):
            b = _int(p.b)
            if b < 1:
                raise Unsupported("blocks(0)")
            for start in range(0, n, b):
                block = np.arange(start, min(n, start + b), dtype=np.int64)
                self._rows(out, block, block)
        elif isinstance(p, S.Sinks):
            k = min(_int(p.k), n)
            self._rows(out, np.arange(k, dtype=np.int64), np.arange(k, n, dtype=np.int64))
        elif isinstance(p, S.RandomPattern):
            r = _int(p.r)
            if r * n > MAX_ARCS or r > n:
                raise Unsupported("too many random arcs")
            rng = random.Random(p.seed)  # the language defines random(r, seed=S) by Python's generator
            keys = np.fromiter((j - 1 for _ in range(n) for j in rng.sample(range(1, n + 1), r)),
                               dtype=np.int64, count=r * n)
            queries = np.repeat(np.arange(n, dtype=np.int64), r)
            keep = keys != queries
            self._add(out, keys[keep] * n + queries[keep])
        elif isinstance(p, S.Edges):
            pairs = [(j - 1) * n + (i - 1) for (i, j) in p.edges if i != j and 1 <= i <= n and 1 <= j <= n]
            self._add(out, np.array(pairs, dtype=np.int64))
        else:
            raise Unsupported(f"pattern {type(p).__name__}")


def _sorted_unique(parts: list) -> np.ndarray:
    if not parts:
        return np.zeros(0, dtype=np.int64)
    codes = np.sort(np.concatenate(parts), kind="stable")  # stable: a merge of the sorted runs, fast
    if codes.size:
        keep = np.empty(codes.size, dtype=bool)
        keep[0] = True
        np.not_equal(codes[1:], codes[:-1], out=keep[1:])
        codes = codes[keep]
    return codes


def head_codes(pattern: S.Pattern, n: int) -> np.ndarray:
    """The sorted, distinct codes j·n + i (0-based) of one head's arcs at length n."""
    if isinstance(pattern, S.Full) or n == 1:
        raise Unsupported("a complete head")
    out: list = []
    _Builder(n).arcs(pattern, out)
    return _sorted_unique(out)


class Adjacency:
    """The union of the heads as CSR arrays, each direction built when first asked for: `outs()` gives
    (ptr, nbr) with nbr[ptr[v]:ptr[v + 1]] the w with v -> w, `ins()` the u with u -> v (0-based)."""

    def __init__(self, heads: Sequence[np.ndarray], n: int):
        self.n = n
        self.codes = heads[0] if len(heads) == 1 else _sorted_unique(list(heads))
        self._out: Optional[tuple] = None
        self._in: Optional[tuple] = None

    @property
    def arcs(self) -> int:
        return int(self.codes.size)

    def outs(self) -> tuple:
        if self._out is None:
            n = self.n
            ptr = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(np.bincount(self.codes // n, minlength=n), out=ptr[1:])
            self._out = (ptr, self.codes % n)
        return self._out

    def ins(self) -> tuple:
        if self._in is None:
            n = self.n
            src, dst = np.divmod(self.codes, n)
            ptr = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(np.bincount(dst, minlength=n), out=ptr[1:])
            del dst
            order = np.argsort(self.codes % n, kind="stable")  # by query, keys ascending within each
            self._in = (ptr, src[order])
        return self._in


def bfs(ptr: np.ndarray, nbr: np.ndarray, source: int, n: int) -> np.ndarray:
    """Levels of a breadth-first search from the 0-based `source` along (ptr, nbr): −1 where unreached."""
    dist = np.full(n, -1, dtype=np.int64)
    dist[source] = 0
    frontier = np.array([source], dtype=np.int64)
    level = 0
    while frontier.size:
        level += 1
        starts, ends = ptr[frontier], ptr[frontier + 1]
        lens = ends - starts
        total = int(lens.sum())
        if total == 0:
            break
        if frontier.size == 1:
            found = nbr[int(starts[0]):int(ends[0])]
        else:
            offsets = np.repeat(starts - np.cumsum(lens) + lens, lens) + np.arange(total, dtype=np.int64)
            found = nbr[offsets]
        found = found[dist[found] < 0]
        if found.size == 0:
            break
        dist[found] = level
        if found.size > 1:
            if found.size > n // 64:
                found = np.flatnonzero(np.bincount(found, minlength=n))
            else:  # each position once, ascending (np.unique would import numpy.ma, about 35 ms)
                found = np.sort(found)
                found = found[np.concatenate(([True], found[1:] != found[:-1]))]
        frontier = found
    return dist


def distances_to(adj: Adjacency, i: int) -> np.ndarray:
    """d(v -> i) for every v (0-based), −1 when v does not reach i: the search along in-arcs."""
    ptr, nbr = adj.ins()
    return bfs(ptr, nbr, i, adj.n)


def distances_from(adj: Adjacency, j: int) -> np.ndarray:
    """d(j -> v) for every v (0-based), −1 when unreached."""
    ptr, nbr = adj.outs()
    return bfs(ptr, nbr, j, adj.n)


def as_permutation(perm, n: int) -> Optional[np.ndarray]:
    """A 1-based image list of 1..n as a 0-based numpy permutation, or None when it is not one."""
    if not isinstance(perm, (list, np.ndarray)) or len(perm) != n:
        return None
    if isinstance(perm, list) and not all(isinstance(v, int) and not isinstance(v, bool) for v in perm):
        return None
    arr = np.asarray(perm, dtype=np.int64) - 1
    if arr.size and (arr.min() < 0 or arr.max() >= n):
        return None
    seen = np.zeros(n, dtype=bool)
    seen[arr] = True
    return arr if bool(seen.all()) else None


def preserves(perm: np.ndarray, codes: np.ndarray, n: int) -> bool:
    """σ maps the arc set onto itself: the images σ(j)·n + σ(i), sorted, are the codes (σ is a bijection,
    so equal sorted arrays mean equal sets)."""
    if codes.size == 0:
        return True
    src, dst = codes // n, codes % n
    if not _degrees_kept(perm, src, dst, n):  # necessary and cheap: σ keeps in- and out-degrees
        return False
    mapped = np.sort(perm[src] * n + perm[dst], kind="stable")
    return bool(np.array_equal(mapped, codes))


def _degrees_kept(perm: np.ndarray, src: np.ndarray, dst: np.ndarray, n: int) -> bool:
    for ends in (src, dst):
        deg = np.bincount(ends, minlength=n)
        if not np.array_equal(deg[perm], deg):
            return False
    return True


def identity(n: int) -> np.ndarray:
    return np.arange(n, dtype=np.int64)


def is_rotation(perm: np.ndarray) -> bool:
    """σ is i ↦ i ± 1 (mod n): one n-cycle, so the group it generates is transitive."""
    n = perm.size
    return n > 0 and (bool((perm == rotation(n)).all()) or bool((perm[rotation(n)] == identity(n)).all()))


def busiest(adj: Adjacency) -> int:
    """A position with the most in-arcs (0-based): a natural hub."""
    return int(np.argmax(np.diff(adj.ins()[0])))


def rotation(n: int) -> np.ndarray:
    return (np.arange(n, dtype=np.int64) + 1) % n


def reflection(n: int) -> np.ndarray:
    return np.arange(n - 1, -1, -1, dtype=np.int64)


def orbit_representatives(gens: Sequence[np.ndarray], n: int) -> list[int]:
    """The least (0-based) position of each orbit of the group the permutations generate (union–find)."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for g in gens:
        moved = np.flatnonzero(g != np.arange(n))
        for v, w in zip(moved.tolist(), g[moved].tolist()):
            a, b = find(v), find(w)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return [v for v in range(n) if find(v) == v]


# ---------------------------------------------------------------------------------------------
# The group: colour refinement, then twin checks

REFINE_ROUNDS = 64
LABELLED_WORK = 60_000_000  # arc visits of refinement on labelled arcs (about a second per 10⁷ with numpy)
MAX_TWIN_SWAPS = 512
_MIX = np.uint64(0x9E3779B97F4A7C15)


def _label_weights(labels: Optional[Sequence[Optional[np.ndarray]]], k: int) -> Optional[np.ndarray]:
    """Head k's arc labels (a bias class per arc, aligned with its codes) as odd multipliers: x ↦ x·MIX + 1 is
    injective on 64-bit words, so arcs of different labels get different multipliers; None: no labels."""
    lab = labels[k] if labels is not None else None
    if lab is None:
        return None
    return lab.astype(np.uint64) * _MIX + np.uint64(1)


def labelled_rounds(heads: Sequence[np.ndarray], n: int) -> int:
    """The rounds of refinement on labelled arcs: up to n + 1 (the number of colours grows every round until the
    colouring settles, so it settles within n rounds), within LABELLED_WORK arc visits, at least REFINE_ROUNDS."""
    arcs = sum(int(c.size) for c in heads)
    return max(REFINE_ROUNDS, min(n + 1, LABELLED_WORK // max(2 * arcs + n, 1)))


def refine(heads: Sequence[np.ndarray], n: int,
           labels: Optional[Sequence[Optional[np.ndarray]]] = None, rounds: int = 0,
           start: Optional[np.ndarray] = None) -> Optional[np.ndarray]:
    """A colouring of the positions that every permutation preserving each head's arcs preserves: colour
    refinement, each round colouring v by (its colour, a sum of random weights of its in-neighbours'
    colours and one of its out-neighbours', per head). Each round is a function of the last and of the
    arcs alone, so an automorphism of every head keeps every round's colouring (a weight collision only
    makes a colouring coarser, never wrong). With `labels` (per head, one label per arc in the order of its
    codes) a neighbour's weight is multiplied by its arc's label multiplier, a function of (colour, label):
    a permutation keeping every head's labelled arcs keeps every round's colouring. None when it has not
    settled after REFINE_ROUNDS rounds (or `rounds`, when larger). `start`: an initial colouring by ranks
    0, 1, … (a position individualised), which the permutations considered keep."""
    rng = np.random.default_rng(20261201)
    colour = np.zeros(n, dtype=np.int64) if start is None else start.copy()
    count = 1 if start is None else int(start.max()) + 1
    ends = [(*np.divmod(codes, n), _label_weights(labels, k)) for k, codes in enumerate(heads)]
    for _ in range(max(REFINE_ROUNDS, rounds)):
        weight = rng.integers(1, 1 << 62, size=count, dtype=np.int64).astype(np.uint64)
        sig = colour.astype(np.uint64) * _MIX
        for src, dst, lw in ends:
            for a, b in ((src, dst), (dst, src)):  # in-neighbours' colours, then out-neighbours'
                acc = np.zeros(n, dtype=np.uint64)
                np.add.at(acc, b, weight[colour[a]] if lw is None else weight[colour[a]] * lw)
                sig = sig * _MIX + acc
        order = np.lexsort((sig, colour))
        c_sorted, s_sorted = colour[order], sig[order]
        step = np.empty(n, dtype=bool)
        step[0] = False
        step[1:] = (c_sorted[1:] != c_sorted[:-1]) | (s_sorted[1:] != s_sorted[:-1])
        new = np.empty(n, dtype=np.int64)
        new[order] = np.cumsum(step)
        new_count = int(new.max()) + 1 if n else 0
        colour = new
        if new_count == count:
            return colour
        count = new_count
    return None


def swap_preserves(codes: np.ndarray, n: int, a: int, b: int, labels: Optional[np.ndarray] = None) -> bool:
    """The transposition (a b) (0-based) maps the arc set onto itself: only arcs at a or b move, so the
    arcs at a or b, swapped and sorted, must be those arcs. With `labels` (one per arc) the labelled arcs:
    each moved arc must land on an arc of the same label."""
    src, dst = np.divmod(codes, n)
    at = (src == a) | (src == b) | (dst == a) | (dst == b)
    s, d = src[at], dst[at]
    swap = np.arange(n, dtype=np.int64)
    swap[a], swap[b] = b, a
    if labels is None:
        return bool(np.array_equal(np.sort(swap[s] * n + swap[d]), np.sort(s * n + d)))
    lab = labels[at]
    return _same_labelled(swap[s] * n + swap[d], lab, s * n + d, lab)


def _same_labelled(codes_a: np.ndarray, lab_a: np.ndarray, codes_b: np.ndarray, lab_b: np.ndarray) -> bool:
    """The labelled arc sets {(code, label)} are equal (each code occurs once per side)."""
    oa, ob = np.lexsort((lab_a, codes_a)), np.lexsort((lab_b, codes_b))
    return bool(np.array_equal(codes_a[oa], codes_b[ob]) and np.array_equal(lab_a[oa], lab_b[ob]))


def preserves_labelled(perm: np.ndarray, codes: np.ndarray, labels: np.ndarray, n: int) -> bool:
    """σ maps the labelled arc set onto itself: every arc j → i with label c goes to an arc σj → σi with label c."""
    if codes.size == 0:
        return True
    src, dst = codes // n, codes % n
    return _same_labelled(perm[src] * n + perm[dst], labels, codes, labels)


def group_by_refinement(heads: Sequence[np.ndarray], n: int,
                        labels: Optional[Sequence[Optional[np.ndarray]]] = None) -> Optional[list]:
    """The cells of the refined colouring when every cell of two or more positions is a twin class (each
    transposition of its first member with another is an automorphism of every head, and these generate
    the cell's symmetric group): then G — the permutations keeping every head's arcs — is exactly the
    product of the symmetric groups on the cells (G keeps each cell, and contains each cell's symmetric
    group). None when the colouring has not settled or a cell is not checked to be a twin class."""
    colour = refine(heads, n, labels, labelled_rounds(heads, n) if labels is not None else 0)
    if colour is None:
        return None
    order = np.argsort(colour, kind="stable")
    bounds = np.flatnonzero(np.diff(colour[order])) + 1
    cells = [c for c in np.split(order, bounds) if c.size > 1]
    if sum(c.size - 1 for c in cells) > MAX_TWIN_SWAPS:
        return None
    for cell in cells:
        first = int(cell[0])
        for other in cell[1:].tolist():
            if not all(swap_preserves(codes, n, first, other, None if labels is None else labels[k])
                       for k, codes in enumerate(heads)):
                return None
    return [sorted(int(v) + 1 for v in c) for c in cells]


MAX_INDIVIDUALISED = 64  # the largest cell whose members are individualised one by one


def _individualised(colour: np.ndarray, v: int) -> np.ndarray:
    """The colouring with v given a colour of its own, as ranks (v just after the rest of its cell)."""
    key = colour * 2
    key[v] += 1
    _, ranks = np.unique(key, return_inverse=True)
    return ranks.astype(np.int64)


def individualised_group(heads: Sequence[np.ndarray], n: int, labels: Sequence[Optional[np.ndarray]],
                         colour: np.ndarray) -> Optional[tuple[int, list]]:
    """|G| and generators for the permutations keeping every head's labelled arcs, from a settled colouring
    `colour` that is not discrete: v = the first member of the first cell of two or more positions. If refining
    with v individualised gives a discrete colouring, the stabiliser G_v is trivial (an element of G_v keeps that
    colouring, so it fixes every position), so |G| = |orbit of v| and, for each u of v's cell, the only candidate
    g with g(v) = u maps the position of each colour in the v-run to the position of that colour in the u-run (the
    refinement is a function of the colouring and the labelled arcs, so g maps the one run onto the other); each
    candidate is checked on the labelled arcs. None when the v-run is not discrete or the cell is too large."""
    order = np.argsort(colour, kind="stable")
    bounds = np.flatnonzero(np.diff(colour[order])) + 1
    cells = [c for c in np.split(order, bounds) if c.size > 1]
    if not cells or cells[0].size > MAX_INDIVIDUALISED:
        return None
    cell = cells[0].tolist()
    rounds = labelled_rounds(heads, n)
    base = refine(heads, n, labels, rounds, _individualised(colour, cell[0]))
    if base is None or int(base.max()) + 1 != n:
        return None
    where = np.empty(n, dtype=np.int64)
    gens, orbit = [], 1
    for u in cell[1:]:
        run = refine(heads, n, labels, rounds, _individualised(colour, u))
        if run is None or int(run.max()) + 1 != n:
            continue  # no g with g(v) = u: g would map the discrete v-run onto the u-run
        where[run] = np.arange(n, dtype=np.int64)  # the position of each colour in the u-run
        perm = where[base]
        if all(preserves_labelled(perm, codes, lab if lab is not None else np.zeros(codes.size, dtype=np.int64), n)
               for codes, lab in zip(heads, labels)):
            orbit += 1
            gens.append((perm + 1).tolist())
    return orbit, gens


def changed_positions(perm: np.ndarray, heads: Sequence[np.ndarray], n: int) -> np.ndarray:
    """The positions v (0-based) with σ(N_h(v)) ≠ N_h(σ v) for some head h: the arcs of σ(head) and of
    the head differ exactly at queries σ(v) for those v."""
    inverse = np.empty(n, dtype=np.int64)
    inverse[perm] = np.arange(n, dtype=np.int64)
    bad = []
    for codes in heads:
        mapped = np.sort(perm[codes // n] * n + perm[codes % n])
        differ = np.setxor1d(mapped, codes, assume_unique=True)
        bad.append(inverse[differ % n])
    return _sorted_unique(bad)  # np.unique would import numpy.ma (about 35 ms)
