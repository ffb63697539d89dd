"""Connectivity and diameter of a union of patterns with globals, at symbolic n (docs/theory.md §11.11, Theorem F87).

The union (of one head's parts, or of several heads' arcs) contains `global(g)` (or `star`, g = 1) and other parts
with integer sizes: windows, offsets, dilations, strides, blocks, causal, cyclic or not. Every position attends to
the globals and the globals attend to every position, so j → 1 → i: the union is strongly connected with D ≤ 2, and
D = 2 exactly when some ordered pair of non-globals is not an arc (the union is not complete).

* From N₁ = max(g + 1 + t, t + R + 1) on, with R the largest reach of a local part (w, |k|, w'·r, b) and t the least
  number above R with t ≡ 1 modulo every stride and every dilation step, position g + 1 does not attend to
  g + 1 + t in any part: the difference t (and n − t, for cyclic parts) exceeds every reach and every block, t is no
  multiple of a stride or of a dilation step, and a causal part only looks back. So D = 2 for every n ≥ N₁.
* Below N₁ each length is checked: N is the least length such that the union is not complete at every n in
  [N, N₁). Without cyclic parts the union at n is the union at n + 1 restricted to 1..n, so completeness, once lost,
  stays lost, and the union is complete at every n in [2, N − 1]; with cyclic parts only D ≤ 2 is stated there.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Optional, Sequence

#: No claim when N₁ would exceed this (each length below it is checked pair by pair).
MAX_FAR = 400

LOCAL_KINDS = ("window", "cwindow", "offsets", "coffsets", "dilated")
KINDS = LOCAL_KINDS + ("strided", "blocks", "causal", "empty")

SECTION = "docs/theory.md §11.11, Theorem F87"


@dataclass(frozen=True)
class GlobalUnion:
    """D = 2 for every n ≥ ``low``; the explicit pair (g + 1, g + 1 + ``step``) is not joined from ``far`` on;
    below ``low`` the union is complete (``monotone``: no cyclic part) or only D ≤ 2 is stated."""
    globals: int
    parts: tuple       # ((kind, (int, ...)), ...): the other parts
    low: int
    far: int
    step: int
    monotone: bool


def attends(kind: str, args: tuple, n: int, i: int, j: int) -> bool:
    """Query i attends to key j (i ≠ j) in one part at length n."""
    d = j - i
    if kind == "window":
        return abs(d) <= args[0]
    if kind == "cwindow":
        return min(d % n, (-d) % n) <= args[0]
    if kind == "offsets":
        return d in args
    if kind == "coffsets":
        return any(d % n == k % n for k in args)
    if kind == "dilated":
        return d % args[1] == 0 and abs(d) // args[1] <= args[0]
    if kind == "strided":
        return d % args[0] == 0
    if kind == "blocks":
        return (i - 1) // args[0] == (j - 1) // args[0]
    if kind == "causal":
        return j <= i
    return False  # empty


def complete(g: int, parts: Sequence[tuple], n: int) -> bool:
    """Every ordered pair of distinct non-globals is an arc of some part at n."""
    return all(any(attends(k, a, n, i, j) for k, a in parts)
               for i in range(g + 1, n + 1) for j in range(g + 1, n + 1) if i != j)


def _reach(kind: str, args: tuple) -> int:
    if kind in ("window", "cwindow", "blocks"):
        return args[0]
    if kind in ("offsets", "coffsets"):
        return max([0] + [abs(k) for k in args])
    if kind == "dilated":
        return args[0] * args[1]
    return 0


def decide(g: int, parts: Sequence[tuple]) -> Optional[GlobalUnion]:
    """Theorem F87 for globals 1..g (g ≥ 1) and the other parts ((kind, integer args), ...); None for another kind,
    a stride or dilation step below 2, or N₁ beyond MAX_FAR."""
    if g < 1 or any(k not in KINDS for k, _ in parts):
        return None
    parts = tuple(sorted(set((k, tuple(int(x) for x in a)) for k, a in parts)))
    steps = [a[0] for k, a in parts if k == "strided"] + [a[1] for k, a in parts if k == "dilated"]
    if any(s < 2 for s in steps) or any(k in ("window", "cwindow", "blocks") and a[0] < 0 for k, a in parts):
        return None
    period = 1
    for s in steps:
        period = period * s // gcd(period, s)
    reach = max([0] + [_reach(k, a) for k, a in parts])
    t = 1  # the least t > R with t ≡ 1 modulo every stride and dilation step
    while t <= reach:
        t += period
    far = max(g + 1 + t, t + reach + 1)
    if far > MAX_FAR:
        return None
    low = far
    while low - 1 >= g + 2 and not complete(g, parts, low - 1):
        low -= 1
    monotone = not any(k in ("cwindow", "coffsets") for k, _ in parts)
    return GlobalUnion(g, parts, low, far, t, monotone)
