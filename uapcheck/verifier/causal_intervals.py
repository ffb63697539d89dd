"""Per-layer causal interval heads at any n, for the verifier (docs/theory.md §21.6, Theorem F121).

The verifier's own reading of the heads: `causal` (width ∞), `causal & window(w)`, non-cyclic `offsets` whose set
with 0 is {−w, …, 0}, and unions of those; the reading is confirmed on the arcs the verifier builds itself
(verifier/patterns.py) at a small length where every finite width shows. Then, without arcs:

    reach     In_m(v) = [max(1, v − S_m), v],  S_m = Σ_{ℓ ≤ m} (the largest width of layer ℓ)
    witness   at depth m, with ℓ₁ the first layer of positive width, W = S_m − S_{ℓ₁} and a = n − W, the transposition
              (j, j + 1) is a causal view witness at position n iff 1 ≤ j ≤ a − 2 and no head h of layer ℓ₁ has
              a − 1 − w_h ≤ j ≤ n − 1 − w_h (a head's out-set in [a, n] changes between j and j + 1 exactly there);
              position n is the worst: with x = i − j the uncovered x in [W + 2, i − 1] grow with i.

Written here from the statement of §21.6, not from the engine (uapcheck/graphs/layers_intervals.py)."""
from __future__ import annotations

import math
from typing import Optional

from .. import spec as S
from . import patterns
from .layer_table import layer_table

INF = math.inf
#: The verifier builds the heads' arcs at min(n, this) to confirm its reading of each head.
CONFIRM_N = 160


class NotIntervals(Exception):
    pass


def _width(p) -> float:
    if isinstance(p, S.Causal):
        return INF
    if isinstance(p, S.PatternUnion):
        return max(_width(q) for q in p.parts)
    if isinstance(p, S.PatternIntersection):
        kinds = [q for q in p.parts if not isinstance(q, S.Full)]
        if not any(isinstance(q, S.Causal) for q in kinds):
            raise NotIntervals("an intersection without the causal mask")
        width = INF
        for q in kinds:
            if isinstance(q, S.Causal):
                continue
            if not isinstance(q, S.Window) or q.cyclic or not isinstance(q.w, int) or isinstance(q.w, bool) or q.w < 0:
                raise NotIntervals("an intersection part other than a non-cyclic window of integer radius")
            width = min(width, int(q.w))
        return width
    if isinstance(p, S.Offsets) and not p.cyclic:
        if not all(isinstance(o, int) and not isinstance(o, bool) for o in p.offsets):
            raise NotIntervals("offsets given by a parameter")
        have = {int(o) for o in p.offsets} | {0}
        low = min(have)
        if have != set(range(low, 1)):
            raise NotIntervals("offsets that are not {−w, …, 0}")
        return -low
    if isinstance(p, S.Window) and not p.cyclic and p.w == 0 and not isinstance(p.w, bool):
        return 0  # |i − j| ≤ 0: the position alone (the verifier's normal form of a plain `offsets {0}` head)
    raise NotIntervals(f"a head pattern that is not an interval head: {type(p).__name__}")


class Intervals:
    """rows[q]: the head widths of the layers ℓ ≡ q + 1 (mod period); `limit` the network's depth (None: any)."""

    def __init__(self, spec: S.Spec):
        n = spec.tokens
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise NotIntervals("interval heads are re-checked at an integer n")
        table = layer_table(spec, NotIntervals)
        self.n = n
        self.rows = [[_width(p) for p in row] for row in table.rows]
        self.limit = table.limit
        self.periodic = table.periodic
        self._confirm(spec, len(table.rows))

    def network_widths(self) -> tuple[list, bool]:
        """(the widths of the network's layers, whether they repeat) as a certificate states them: per layer and per
        head, an integer width or "∞" (the causal mask); a depth below the list's length cuts the list, which then no
        longer repeats (§21.2)."""
        rows, periodic = self.rows, self.periodic
        if self.limit is not None and self.limit < len(rows):
            rows, periodic = rows[:self.limit], False
        return [["∞" if w == INF else int(w) for w in row] for row in rows], periodic

    def _confirm(self, spec: S.Spec, count: int) -> None:
        """Each head's arcs, built by the verifier at a small length, are exactly the intervals of its width."""
        finite = [w for row in self.rows for w in row if w != INF]
        m = min(self.n, max([CONFIRM_N] + [int(w) + 3 for w in finite]))
        if m > 4 * CONFIRM_N:
            m = min(self.n, 4 * CONFIRM_N)
        seen = set()
        for layer in range(1, count + 1):
            for h, head in enumerate(spec.heads):
                p = head.pattern if not isinstance(head.pattern, S.PatternSequence) else \
                    head.pattern.patterns[(layer - 1) % len(head.pattern.patterns)]
                w = self.rows[layer - 1][h]
                if (p, w) in seen:
                    continue
                seen.add((p, w))
                got = {(j, i) for j, i in patterns.head_arcs(p, m) if j != i}
                want = {(j, i) for i in range(1, m + 1) for j in range(1 if w == INF else max(1, i - int(w)), i)}
                if got != want:
                    raise NotIntervals(f"layer {layer}, head {h + 1}: its arcs at n = {m} are not the intervals of "
                                       f"width {w}")

    def width(self, layer: int) -> float:
        return max(self.rows[(layer - 1) % len(self.rows)])

    def exists(self, layer: int) -> bool:
        return self.limit is None or layer <= self.limit

    def total(self, m: int) -> float:
        """S_m: the widths of layers 1..m summed (∞ once a causal layer is passed)."""
        return sum((self.width(layer) for layer in range(1, m + 1)), 0.0)

    def reach_depth(self, cap: int) -> Optional[int]:
        """The least m ≤ cap with S_m ≥ n − 1 (None if none)."""
        total = 0.0
        if self.n <= 1:
            return 0
        for layer in range(1, cap + 1):
            if not self.exists(layer):
                return None
            total += self.width(layer)
            if total >= self.n - 1:
                return layer
        return None

    def _cover(self, m: int):
        """(ℓ₁, a, the intervals of j a head of ℓ₁ tells apart from j + 1) at depth m, position n; a None: W = ∞."""
        first = next((ell for ell in range(1, m + 1) if self.width(ell) >= 1), None)
        if first is None:
            return None, None, []
        W = sum(self.width(ell) for ell in range(first + 1, m + 1))
        if W == INF:
            return first, None, []
        a = self.n - int(W)
        return first, a, [(a - 1 - w, self.n - 1 - w) for w in self.rows[(first - 1) % len(self.rows)] if w != INF]

    def is_witness(self, m: int, j: int) -> bool:
        """The transposition (j, j + 1) is a causal view witness at position n, depth m."""
        first, a, covers = self._cover(m)
        if first is None or a is None:
            return False
        return 1 <= j <= a - 2 and not any(lo <= j <= hi for lo, hi in covers)

    def any_witness(self, m: int) -> Optional[int]:
        """A j whose transposition with j + 1 is a witness at depth m (None: there is none at any position)."""
        first, a, covers = self._cover(m)
        if first is None or a is None:
            return None
        j = 1
        for lo, hi in sorted(covers):
            if j < lo:
                break
            j = max(j, hi + 1)
        return j if j <= a - 2 else None


def build(spec: S.Spec) -> Intervals:
    return Intervals(spec)
