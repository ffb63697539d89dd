"""Colour refinement on a large pattern graph's arc arrays (numpy): a shortcut past BLISS's count.

Each round colours position v by a function of its colour and of the multisets of colours of its in-
and out-neighbours; the colours are numbered by the rank of that value among the values present. An
automorphism σ of the graph maps v's arcs onto σ(v)'s, so it keeps the first colouring (all equal) and,
round after round, every later one: every colouring made here is kept by every automorphism. A weight
collision can only merge colours that a perfect hash would tell apart, which makes a colouring coarser,
never one that an automorphism breaks.

Used by the symmetry engine (docs/theory.md §11.6, "Colour refinement first"): twins are always in one
colour (a twin transposition is an automorphism), so when every colour of two or more positions is checked
to be one twin class, the colours *are* the twin classes, G keeps each of them, and G = ∏ Sym(C) exactly,
with no search. Otherwise the caller finds the twin classes and runs BLISS as before.

The multiset sums are exact: each colour gets a pseudo-random integer weight below 2³¹ (splitmix64 of the
colour and the round, so the run is reproducible; numpy.random, about 30 ms to import, is not needed), the weights of a position's neighbours are summed by ``np.bincount`` in
float64, and every partial sum is an integer below 2³¹ · n ≤ 2⁵³ (n ≤ 2²², checked), so the sum is
exact whatever order the additions take: it depends on the multiset alone.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

#: Rounds at most (random patterns settle in a handful; a window needs about n/w, and goes to BLISS).
MAX_ROUNDS = 24
#: The float64 sums stay exact below 2⁵³: weights below 2³¹ and at most 2²² neighbours.
MAX_N = 1 << 22
_WEIGHT_BITS = 31
_MIX_IN = 0x9E3779B97F4A7C15
_MIX_OUT = 0xC2B2AE3D27D4EB4F


def _weights(count: int, round_: int) -> Any:
    """Weights 1 … 2³¹ − 1 for the colours 0 … count − 1 in this round (float64, exact integers): the top
    bits of splitmix64 of round · 2³² + colour, made nonzero."""
    import numpy as np
    z = np.arange(count, dtype=np.uint64) + np.uint64(round_ << 32)
    z += np.uint64(_MIX_IN)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return ((z >> np.uint64(64 - _WEIGHT_BITS)) | np.uint64(1)).astype(np.float64)


def _pair_weights(colours: Any, labels: Any, num_labels: int, round_: int) -> Any:
    """The weight of each pair (colour, label) in this round, as `_weights` gives colour · num_labels + label (float64,
    exact integers 1 … 2³¹ − 1), one per entry of the aligned arrays ``colours`` and ``labels``. The index wraps in 64
    bits when it is that large: weights are then a function of the pair still (two pairs may share one, which only
    merges colours)."""
    import numpy as np
    z = colours.astype(np.uint64) * np.uint64(num_labels) + labels.astype(np.uint64) + np.uint64(round_ << 32)
    z += np.uint64(_MIX_IN)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return ((z >> np.uint64(64 - _WEIGHT_BITS)) | np.uint64(1)).astype(np.float64)


def refined_colours(src: Any, dst: Any, n: int, max_rounds: int = MAX_ROUNDS,
                    settled: Optional[Callable[[Any, int], bool]] = None,
                    labels: Any = None, num_labels: int = 1) -> Optional[Any]:
    """A colouring of the positions (numpy int64, colours 0 … k − 1) that every automorphism of the digraph
    with arcs src[k] → dst[k] (0-based numpy int64 arrays, every arc once) keeps: the rounds of colour
    refinement until one adds no colour, or ``max_rounds`` of them, or ``settled(colouring, count)`` holds
    for the colouring a round made (the caller's own reason to stop: every colouring made is kept). None
    when n is out of range.

    ``labels``: arc k's label (numpy int64, 0 … ``num_labels`` − 1, aligned with the arcs), for a digraph whose
    automorphisms keep every arc's label: a neighbour then weighs by the pair (its colour, the arc's label), the
    weight of colour · num_labels + label, so the multisets summed are those of (colour, label) pairs, which a
    label-keeping automorphism carries from v's arcs onto σ(v)'s."""
    import numpy as np
    if not 1 <= n <= MAX_N:
        return None
    colour = np.zeros(n, dtype=np.int64)
    count = 1
    mix_in, mix_out = np.uint64(_MIX_IN), np.uint64(_MIX_OUT)
    for round_ in range(max_rounds):
        if labels is None:
            of = _weights(count, round_)[colour]
            into = np.bincount(dst, weights=of[src], minlength=n).astype(np.uint64)   # Σ over in-neighbours
            out_of = np.bincount(src, weights=of[dst], minlength=n).astype(np.uint64)  # Σ over out-neighbours
        else:
            # (colour, label) ↦ one weight, mixed per arc (a table of count × num_labels weights could be large)
            w_in = _pair_weights(colour[src], labels, num_labels, round_)
            w_out = _pair_weights(colour[dst], labels, num_labels, round_)
            into = np.bincount(dst, weights=w_in, minlength=n).astype(np.uint64)
            out_of = np.bincount(src, weights=w_out, minlength=n).astype(np.uint64)
        key = colour.astype(np.uint64)
        key *= mix_in
        key += into
        key *= mix_out
        key += out_of
        order = np.argsort(key)
        ranked = key[order]
        new = np.empty(n, dtype=np.int64)
        new[order] = np.cumsum(np.concatenate(([False], ranked[1:] != ranked[:-1])))
        new_count = int(new[order[-1]]) + 1
        if new_count <= count:
            return colour  # no colour added: refinement has stopped (this round's colouring is as good)
        colour, count = new, new_count
        if count == n or (settled is not None and settled(colour, count)):
            return colour
    return colour


def cells(colour: Any) -> list[list[int]]:
    """The colour classes of two or more positions, each ascending, ordered by least member."""
    import numpy as np
    order = np.argsort(colour, kind="stable")
    ranked = colour[order]
    starts = np.flatnonzero(np.concatenate(([True], ranked[1:] != ranked[:-1])))
    sizes = np.diff(np.append(starts, len(order)))
    big = sizes > 1
    found = [order[a:a + z].tolist() for a, z in zip(starts[big].tolist(), sizes[big].tolist())]
    return sorted(found)  # each ascending (a stable sort keeps positions in order within a colour)
