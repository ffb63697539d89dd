"""In-sets held as arithmetic progressions, and the per-layer reach step and view growth on them (docs/theory.md §21.1).

The per-layer engine (graphs/layers.py) grows bitsets: a layer's reach step is In_ℓ(v) = In_{ℓ−1}(v) ∪
⋃_{u ∈ N(v)} In_{ℓ−1}(u), and a view grows by V_{ℓ−1} = V_ℓ ∪ ⋃_{v ∈ V_ℓ} N(v). Read arc by arc, a causal layer
costs n²/2 unions of n-bit sets per step. The in-sets of the structured patterns are a few progressions each: an
interval (a window, a block), a prefix (`causal`), an interval and a few positions (sinks, globals), a residue class
or its prefix (`strided`). Each N(v) is cut here into maximal runs {a, a + d, …, a + (c − 1)d}, and the union of the
bitsets over a run is read off a sparse table over the stride d: T_k[u] = the union over u, u + d, …, u + (2^k − 1)d,
so a run of c ≥ 1 terms is T_k[a] ∪ T_k[a + (c − 2^k)d] with 2^k ≤ c < 2^{k+1}. A step then costs n unions per level
and stride used, and two per run: O(n log n) for a causal layer instead of O(n²). Where the runs save nothing (random
arcs), the step reads the in-sets one by one, as before. Positions are 0-based here, as the engine's in-sets.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from itertools import accumulate
from operator import or_
from typing import Iterable, Sequence

#: The fewest terms a progression of stride ≥ 2 has to be kept as one run (shorter ones are read term by term).
MIN_STRIDED_RUN = 4


def runs_of(positions: Iterable[int]) -> list[tuple[int, int, int]]:
    """The sorted positions cut greedily into runs (a, d, c) = {a, a + d, …, a + (c − 1)d}: a maximal interval
    (d = 1) where the next position follows, else a maximal progression of MIN_STRIDED_RUN terms or more, else a
    single position (d = 1, c = 1). The runs partition the positions."""
    s = sorted(positions)
    size = len(s)
    if size == 0:
        return []
    if s[-1] - s[0] + 1 == size:  # one interval (a prefix, a window, a block): no walk
        return [(s[0], 1, size)]
    diffs = [b - a for a, b in zip(s, s[1:])]
    # the indices k ≥ 1 where the difference changes: a run from k extends to the next of them
    changes = [k for k in range(1, size - 1) if diffs[k] != diffs[k - 1]] + [size - 1]
    out: list[tuple[int, int, int]] = []
    k, at = 0, 0
    while k < size:
        if k + 1 == size:
            out.append((s[k], 1, 1))
            break
        while changes[at] <= k:
            at += 1
        c = changes[at] - k + 1
        d = diffs[k]
        if d == 1 or c >= MIN_STRIDED_RUN:
            out.append((s[k], d, c))
            k += c
        else:
            out.append((s[k], 1, 1))
            k += 1
    return out


@dataclass(frozen=True)
class ReachPlan:
    """One union list's in-sets as runs, grouped by how the step reads them: ``singles`` (v, u) one position;
    ``prefixes[d]`` (v, b) a run from the first position of its residue class mod d to b; ``suffixes[d]`` (v, a) a run
    from a to the last of its class; ``blocks[(d, B)]`` (v, a, b) any other run of B to 2B − 1 terms (B a power of 2),
    read off unions within blocks of B terms of its class. ``plain`` True: the runs save nothing and the step reads
    the in-sets (``ins``) term by term."""
    n: int
    singles: tuple[list, list]
    prefixes: dict
    suffixes: dict
    blocks: dict
    plain: bool
    ins: Sequence


def reach_plan(ins: Sequence) -> ReachPlan:
    """The plan of one union list (``ins[v]`` the in-neighbours of v, v excluded)."""
    n = len(ins)
    singles: tuple[list, list] = ([], [])
    prefixes: dict = {}
    suffixes: dict = {}
    blocks: dict = {}
    for v, s in enumerate(ins):
        for a, d, c in runs_of(s):
            b = a + (c - 1) * d
            if c == 1:
                singles[0].append(v)
                singles[1].append(a)
            elif a < d:
                got = prefixes.setdefault(d, ([], []))
                got[0].append(v)
                got[1].append(b)
            elif b + d >= n:
                got = suffixes.setdefault(d, ([], []))
                got[0].append(v)
                got[1].append(a)
            else:
                three = blocks.setdefault((d, 1 << (c.bit_length() - 1)), ([], [], []))
                three[0].append(v)
                three[1].append(a)
                three[2].append(b)
    reads = len(singles[0]) + sum(len(x[0]) for x in prefixes.values()) + sum(len(x[0]) for x in suffixes.values()) \
        + 3 * sum(len(x[0]) for x in blocks.values())
    tables = n * (len(prefixes) + len(suffixes) + 2 * len(blocks))
    plain = reads + tables >= sum(len(s) for s in ins)
    if plain:
        return ReachPlan(n, ([], []), {}, {}, {}, True, ins)
    return ReachPlan(n, singles, prefixes, suffixes, blocks, False, ins)


def _along(cur: list[int], d: int, block: int, backwards: bool) -> list[int]:
    """Per residue class mod d, the unions of ``cur`` within consecutive blocks of ``block`` terms of the class
    (``block`` ≥ n: the whole class), accumulated forwards (from each block's first term) or backwards."""
    n = len(cur)
    out = [0] * n
    for r in range(min(d, n)):
        terms = cur[r::d]
        acc: list[int] = []
        for j in range(0, len(terms), block):
            part = terms[j:j + block]
            if backwards:
                got = list(accumulate(reversed(part), or_))
                got.reverse()
            else:
                got = list(accumulate(part, or_))
            acc.extend(got)
        out[r::d] = acc
    return out


def reach_step(cur: list[int], plan: ReachPlan) -> list[int]:
    """The reach bitsets after one more layer: out[v] = cur[v] ∪ ⋃_{u ∈ N(v)} cur[u]."""
    if plan.plain:
        at = cur.__getitem__
        return [reduce(or_, map(at, plan.ins[v]), before) for v, before in enumerate(cur)]
    n = plan.n
    out = list(cur)
    for v, u in zip(*plan.singles):
        out[v] |= cur[u]
    for d, (vs, bs) in plan.prefixes.items():
        table = _along(cur, d, n, False)
        for v, b in zip(vs, bs):
            out[v] |= table[b]
    for d, (vs, as_) in plan.suffixes.items():
        table = _along(cur, d, n, True)
        for v, a in zip(vs, as_):
            out[v] |= table[a]
    for (d, size), (vs, as_, bs) in plan.blocks.items():
        # a run of size..2·size − 1 terms ends in a later block of its class than it starts: the start's block from
        # a on, the one block between them if any, and the end's block up to b; one table at a time (the reach
        # sets, their next layer and one table are held at once: build.reach_bytes)
        table = _along(cur, d, size, True)
        for v, a, b in zip(vs, as_, bs):
            got = table[a]
            mid = ((a // d) // size + 1) * size  # the first term of the block after a's, as an index in a's class
            if (b // d) // size > mid // size:
                got |= table[a % d + mid * d]
            out[v] |= got
        table = _along(cur, d, size, False)
        for v, b in zip(vs, bs):
            out[v] |= table[b]
    return out


def run_mask(a: int, d: int, c: int) -> int:
    """The bitset of {a, a + d, …, a + (c − 1)d}: a repunit in base 2^d, shifted."""
    if d == 1:
        return ((1 << c) - 1) << a
    return (((1 << (d * c)) - 1) // ((1 << d) - 1)) << a


def masks_of(ins: Sequence) -> list[int]:
    """The bitset of every in-set (v excluded), built run by run."""
    return [sum(run_mask(a, d, c) for a, d, c in runs_of(s)) for s in ins]


def grown_views(masks_per_layer: Sequence[list[int]], period: int, root: int, m: int) -> list[int]:
    """[V_0, …, V_m] as bitsets for the root at depth m: V_m = {root}, V_{ℓ−1} = V_ℓ ∪ ⋃_{v ∈ V_ℓ} N_ℓ(v), with
    N_ℓ's bitsets ``masks_per_layer[(ℓ − 1) mod period]``. Since V_ℓ ⊆ V_{ℓ'} for ℓ' ≤ ℓ and layers ℓ, ℓ − period use
    the same pattern, the union over V_ℓ extends the one over V_{ℓ + period} by the positions new to V_ℓ only."""
    sets = [0] * (m + 1)
    sets[m] = 1 << root
    done = [0] * period   # per layer of the period: the positions whose in-sets are in acc
    acc = [0] * period
    for ell in range(m, 0, -1):
        q = (ell - 1) % period
        cur = sets[ell]
        fresh = cur & ~done[q]
        masks = masks_per_layer[q]
        a = acc[q]
        if fresh:
            text = bin(fresh)
            top = len(text) - 1  # the character of bit k is text[top - k]
            for k in range(top - 1):
                if text[top - k] == "1":
                    a |= masks[k]
        acc[q], done[q] = a, cur | done[q]
        sets[ell - 1] = cur | a
    return sets


def positions(bits: int) -> set[int]:
    """The 0-based positions of a bitset."""
    text = bin(bits)[:1:-1]
    return {k for k, ch in enumerate(text) if ch == "1"}
