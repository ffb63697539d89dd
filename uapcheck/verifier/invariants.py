"""PAT-DISCONNECTED at symbolic n, re-checked by an invariant of the arcs (docs/theory.md §18.4,
"Invariants"): a quantity that no arc of any head changes (or changes only one way) at every n, and that
separates the witness pair, so x_j never reaches position i.

- residues mod m: every part is a non-cyclic offset set (window, offsets, dilated) or strided(s), and m ≥ 2
  divides every offset and stride: an arc joins positions congruent mod m; the pair is not congruent;
- direction: every part is a non-cyclic offset set or the causal mask, and every offset is ≥ 0 (i attends
  to j ≥ i: x_j reaches i only when j ≥ i; the pair has j < i), or every offset is ≤ 0 (the pair has j > i);
- blocks: every part is blocks(b) for one b: an arc stays in a block; the pair lies in two blocks;
- blocks one way: blocks(b) for one b and non-cyclic offsets of one sign: an arc never moves information to a later
  block (offsets ≥ 0) or an earlier one (offsets ≤ 0); the pair's blocks are in that order.
Positions are integers, or n itself (the last position) with j = 1, for every n ≥ 2.
"""
from __future__ import annotations

from math import gcd
from typing import Optional

from .. import spec as S


def _is_int(t) -> bool:
    return isinstance(t, int) and not isinstance(t, bool)


def _num(t) -> int:
    if not _is_int(t):
        raise TypeError(f"not an integer size: {t!r}")
    return t


def _parts(spec: S.Spec) -> Optional[list]:
    out: list = []
    for h in spec.heads:
        stack = [h.pattern]
        while stack:
            p = stack.pop()
            if isinstance(p, S.PatternUnion):
                stack.extend(p.parts)
            elif isinstance(p, S.PatternSequence):
                stack.extend(p.patterns)  # a pattern per layer: an invariant of every layer's arcs holds on all paths
            elif isinstance(p, S.PatternIntersection):
                return None
            else:
                out.append(p)
    return out


def _offsets(q) -> Optional[list]:
    """The offsets j − i of a non-cyclic offset part with integer sizes, or None."""
    if isinstance(q, S.Window) and not q.cyclic and _is_int(q.w):
        return list(range(-_num(q.w), _num(q.w) + 1))
    if isinstance(q, S.Offsets) and not q.cyclic and all(_is_int(t) for t in q.offsets):
        return list(q.offsets)
    if isinstance(q, S.Dilated) and _is_int(q.w) and _is_int(q.r):
        return [k * _num(q.r) for k in range(-_num(q.w), _num(q.w) + 1)]
    return None


def separated(spec: S.Spec, i, j) -> Optional[str]:  # noqa: C901 - one branch per invariant
    """Why x_j never reaches position i at every n where both exist, or None when no invariant shows it."""
    parts = _parts(spec)
    if not parts:
        return None
    last = i == spec.tokens and j == 1  # (n, 1)
    if not (_is_int(i) and _is_int(j)) and not last:
        return None
    steps: list = []
    for q in parts:
        offs = _offsets(q)
        if offs is None and isinstance(q, S.Strided) and _is_int(q.s) and _num(q.s) >= 1:
            offs = [_num(q.s)]
        if offs is None:
            steps = []
            break
        steps.extend(offs)
    if steps and not last:
        m = 0
        for d in steps:
            m = gcd(m, abs(d))
        if m >= 2 and (i - j) % m:
            return (f"every arc joins positions congruent mod {m} (it divides every offset and stride), and {i} ≢ {j} "
                    f"(mod {m}): x_{j} never reaches position {i}, at every n ≥ {max(i, j)}")
    signs: list = []
    for q in parts:
        offs = _offsets(q)
        if offs is None and isinstance(q, S.Causal):
            offs = [0, -1]
        if offs is None:
            signs = []
            break
        signs.extend(offs)
    if signs:
        later = all(d >= 0 for d in signs)  # i attends to j ≥ i: information moves to lower positions only
        earlier = all(d <= 0 for d in signs)
        if later and (last or j < i):
            where = "n ≥ 2" if last else f"n ≥ {i}"
            return (f"every arc has j − i ≥ 0 (i attends to j ≥ i), so x_j reaches only positions ≤ j, and the "
                    f"pair has j < i: x_{j} never reaches position {'n' if last else i}, at every {where}")
        if earlier and not last and j > i:
            return (f"every arc has j − i ≤ 0 (i attends to j ≤ i), so x_j reaches only positions ≥ j, and {j} > {i}: "
                    f"x_{j} never reaches position {i}, at every n ≥ {j}")
    one_way = _blocks_one_way(parts, i, j, last)
    if one_way is not None:
        return one_way
    sizes = {_num(q.b) for q in parts if isinstance(q, S.Blocks) and _is_int(q.b)}
    if len(sizes) == 1 and all(isinstance(q, S.Blocks) for q in parts) and not last:
        b = sizes.pop()
        if b >= 1 and (i - 1) // b != (j - 1) // b:
            return (f"every arc stays in a block of {b} consecutive positions, and {i}, {j} lie in different blocks: "
                    f"x_{j} never reaches position {i}, at every n ≥ {max(i, j)}")
    return None


def _blocks_one_way(parts: list, i, j, last: bool) -> Optional[str]:
    """blocks(b) (one integer b) with non-cyclic offsets of one sign, no other part: a block arc keeps the block
    ⌈p/b⌉; with every offset ≥ 0 an offset arc j → i has j ≥ i, so ⌈i/b⌉ ≤ ⌈j/b⌉, and x_j reaches only positions
    whose block is at most j's (every offset ≤ 0: at least j's)."""
    if last or not (_is_int(i) and _is_int(j)):
        return None
    blocks = {q.b for q in parts if isinstance(q, S.Blocks)}
    offsets = [q for q in parts if isinstance(q, S.Offsets) and not q.cyclic]
    if len(blocks) != 1 or len(offsets) + sum(isinstance(q, S.Blocks) for q in parts) != len(parts):
        return None
    size = blocks.pop()
    if not _is_int(size) or _num(size) < 1 or not offsets or not all(_is_int(t) for q in offsets for t in q.offsets):
        return None
    b = _num(size)
    steps = [_num(t) for q in offsets for t in q.offsets]
    block_i, block_j = (i - 1) // b, (j - 1) // b
    if all(d >= 0 for d in steps) and block_i > block_j:
        return (f"a block arc keeps the block of {b} positions, and every offset is ≥ 0 (i attends to j ≥ i), so x_{j} "
                f"reaches only positions of its block or an earlier one, and {i} lies in a later block: x_{j} never "
                f"reaches position {i}, at every n ≥ {max(i, j)}")
    if all(d <= 0 for d in steps) and block_i < block_j:
        return (f"a block arc keeps the block of {b} positions, and every offset is ≤ 0 (i attends to j ≤ i), so x_{j} "
                f"reaches only positions of its block or a later one, and {i} lies in an earlier block: x_{j} never "
                f"reaches position {i}, at every n ≥ {max(i, j)}")
    return None
