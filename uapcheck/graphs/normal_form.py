"""The normal form of a union of structured patterns (docs/theory.md §11.13): rewrites that keep every
arc, for every n, so a union written in several parts is analysed as the pattern it is.

Each rewrite is a set identity on the arcs (j attends to i, or not), stated with its reason:

- `star` is `global(1)`; global(g) ∪ global(h) = global(max(g, h)) (i attends to j iff i ≤ g or j ≤ g);
- cyclic windows and cyclic offsets are one cyclic offset set, the union of theirs: (j − i) mod n ∈ A or
  (j − i) mod n ∈ B iff (j − i) mod n ∈ A ∪ B; written `window(w) cyclic` when the set is {−w, …, w};
- a part with a non-cyclic offset set (window(w) = {−w, …, w}, dilated(w, r) = {k·r : |k| ≤ w}, offsets) adds
  no arc when its set lies inside the cyclic set (j − i = d with d in the cyclic set is an arc of it) or
  inside another part's non-cyclic set; several non-cyclic `offsets` are one, the union of their sets;
- blocks(b) ⊆ blocks(c) when b | c (the blocks of c are unions of blocks of b: both start at 1);
- strided(t) ⊆ strided(s) when s | t; `full` contains every arc, and a head `P & full` is P (`meet_full`; P a union
  or an intersection of several parts too: `P & Q & full` is `P & Q`);
- a non-cyclic offset part, or `blocks(b)`, adds no arc when each of its differences d = j − i ≠ 0 (for blocks,
  0 < |d| < b) is in the cyclic set, in another non-cyclic part's set or a multiple of a stride: its arc is then
  an arc of that part at every n (d = 0 is no arc: every position sees itself). `blocks(b) + window(w)` is
  `window(w)` exactly when b ≤ w + 1.

Only parts whose sizes are integer literals are rewritten (a named size is left as written). Parts of
other kinds (causal, random, edges, sinks, columns, listed globals, blockwise, intersections) are kept
as written; the rewrites of the others still hold, since a union is a union of arc sets.
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, replace
from typing import Optional

from .. import spec as S
from ..show import show_pattern


@dataclass(frozen=True)
class Normalised:
    pattern: S.Pattern
    reasons: tuple[str, ...]  # one line per rewrite, in the order applied; empty: nothing changed


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


#: the widest window or dilation whose offsets the normal form lists one by one; a wider part is left as written
#: (a set of 2w + 1 offsets would take memory in proportion to w: `window(1000000000)` is a valid pattern)
SET_WIDTH_LIMIT = 1 << 20


def offset_set(p: S.Pattern) -> Optional[frozenset]:
    """The offsets j − i of a part that is an offset set with integer sizes (0 included when the part
    has it), or None."""
    if isinstance(p, S.Window):
        w = _int(p.w)
        return None if w is None or w < 0 or w > SET_WIDTH_LIMIT else frozenset(range(-w, w + 1))
    if isinstance(p, S.Dilated):
        w, r = _int(p.w), _int(p.r)
        return (None if w is None or r is None or w < 0 or r < 1 or w > SET_WIDTH_LIMIT else
                frozenset(k * r for k in range(-w, w + 1)))
    if isinstance(p, S.Offsets):
        vals = [_int(t) for t in p.offsets]
        return None if any(v is None for v in vals) else frozenset(v for v in vals if v is not None)
    return None


def _has(p: S.Pattern, d: int) -> bool:
    """d ∈ offset_set(p), read from the sizes (a window's or a dilation's offsets are not listed)."""
    w = _int(getattr(p, "w", None))
    if isinstance(p, S.Window) and w is not None:
        return abs(d) <= w
    r = _int(getattr(p, "r", None))
    if isinstance(p, S.Dilated) and w is not None and r is not None:
        return d % r == 0 and abs(d) <= w * r
    return d in _listed(p)


@functools.lru_cache(maxsize=4)
def _listed(p: S.Pattern) -> frozenset:
    """_set(p) of an offset set as written, kept for the next difference asked (not rebuilt per difference)."""
    return _set(p)


def _differences(p: S.Pattern):
    """The offsets d ≠ 0 of an offset part in increasing order (lazily for a window or a dilation)."""
    w = _int(getattr(p, "w", None))
    if isinstance(p, S.Window) and w is not None:
        return itertools.chain(range(-w, 0), range(1, w + 1))
    r = _int(getattr(p, "r", None))
    if isinstance(p, S.Dilated) and w is not None and r is not None:
        return (k * r for k in itertools.chain(range(-w, 0), range(1, w + 1)))
    return iter(sorted(_set(p) - {0}))


#: the most differences d whose covering part `_drop_covered` looks for, for one part: a wider part (a window of
#: 10⁶, a block of 10⁹) is left as written, its arcs unchanged (the test is one step per difference)
MAX_DIFFERENCES_SCANNED = 1 << 17


def _set(p: S.Pattern) -> frozenset:
    values = offset_set(p)
    if values is None:
        raise TypeError(f"not an offset set with integer sizes: {p!r}")
    return values


def _cyclic(p: S.Pattern) -> bool:
    return isinstance(p, (S.Window, S.Offsets)) and p.cyclic and offset_set(p) is not None


def _linear(p: S.Pattern) -> bool:
    if isinstance(p, (S.Window, S.Offsets)) and p.cyclic:
        return False
    return isinstance(p, (S.Window, S.Offsets, S.Dilated)) and offset_set(p) is not None


def _as_set_pattern(values: frozenset, cyclic: bool) -> S.Pattern:
    w = max((abs(v) for v in values), default=0)
    if len(values) == 2 * w + 1:  # 2w + 1 distinct integers in [−w, w]: every one of them
        return S.Window(w, cyclic)
    return S.Offsets(tuple(sorted(values)), cyclic)


def _replace(out: list, parts: list, merged: S.Pattern) -> list:
    """`out` with `parts` replaced by `merged`, at the place of the first of them."""
    first = out.index(parts[0])
    rest = [q for q in out if q not in parts]
    return rest[:first] + [merged] + rest[first:]


def _flatten(p: S.Pattern) -> list:
    return [q for part in p.parts for q in _flatten(part)] if isinstance(p, S.PatternUnion) else [p]


def meet_full(p: S.Pattern) -> Optional[S.Pattern]:
    """`P & full` (in any order, `full` any number of times) is P, since `full` has every arc; `full & full` is
    `full`; `P & Q & full` is `P & Q`. None when p is no such intersection."""
    if not isinstance(p, S.PatternIntersection) or not any(isinstance(q, S.Full) for q in p.parts):
        return None
    rest = [q for q in p.parts if not isinstance(q, S.Full)]
    if not rest:
        return S.Full()
    return rest[0] if len(rest) == 1 else S.PatternIntersection(tuple(rest))


def without_full(p: S.Pattern) -> tuple[S.Pattern, list[str]]:
    """p with `meet_full` applied while it applies (`(P & full) & full` is P), and the reason of each rewrite; p itself
    and no reason when it is no intersection with `full`."""
    reasons = []
    met = meet_full(p)
    while met is not None:
        reasons.append(f"{show_pattern(p)} = {show_pattern(met)} (`full` has every arc: the intersection with it "
                       "removes none)")
        p, met = met, meet_full(met)
    return p, reasons


def normalise(p: S.Pattern) -> Normalised:  # noqa: C901 - one rewrite per kind
    """The normal form of one head's pattern, with the reasons; the pattern itself when no rewrite applies."""
    met, dropped = without_full(p)
    if dropped:
        got = normalise(met)
        return Normalised(got.pattern, (*dropped, *got.reasons))
    if not isinstance(p, S.PatternUnion):
        values = offset_set(p) if isinstance(p, S.Offsets) else None
        if isinstance(p, S.Offsets) and values is not None:
            window = _as_set_pattern(values, p.cyclic)
            if isinstance(window, S.Window):
                return Normalised(window, (f"{show_pattern(p)} = {show_pattern(window)} (the same offsets)",))
        return Normalised(p, ())
    parts: list = []
    reasons: list[str] = []
    for q in _flatten(p):  # a part `P & full` is P (`window(2) + (full & full)` is `window(2) + full`)
        q, dropped = without_full(q)
        reasons.extend(dropped)
        parts.extend(_flatten(q))
    if any(isinstance(q, S.Full) for q in parts) and len(parts) > 1:
        return Normalised(S.Full(), (*reasons, f"{show_pattern(p)} contains `full`, so it has every arc: it is "
                                     "`full`"))
    out = list(dict.fromkeys(parts))
    if len(out) < len(parts):
        reasons.append("a part written twice adds no arc")
    globs = [q for q in out if isinstance(q, S.Star) or (isinstance(q, S.Global) and _int(q.g) is not None)]
    if len(globs) > 1:
        size = max(1 if isinstance(q, S.Star) else q.g for q in globs)
        merged: S.Pattern = S.Global(size)
        reasons.append(" ∪ ".join(show_pattern(q) for q in globs) + f" = global({size}) (star = global(1); "
                       "i attends to j iff i or j is among the first g positions)")
        out = _replace(out, globs, merged)
    cyc = [q for q in out if _cyclic(q)]
    if len(cyc) > 1:
        union = frozenset().union(*[_set(q) for q in cyc])
        merged = _as_set_pattern(union, True)
        reasons.append(" ∪ ".join(show_pattern(q) for q in cyc) + f" = {show_pattern(merged)} (one cyclic offset set, "
                       "the union of theirs)")
        out = _replace(out, cyc, merged)
        cyc = [merged]
    cyclic_set = _set(cyc[0]) if cyc else frozenset()
    offs = [q for q in out if isinstance(q, S.Offsets) and _linear(q)]
    if len(offs) > 1:
        union = frozenset().union(*[_set(q) for q in offs])
        merged = _as_set_pattern(union, False)
        reasons.append(" ∪ ".join(show_pattern(q) for q in offs) + f" = {show_pattern(merged)} (one offset set, the "
                       "union of theirs)")
        out = _replace(out, offs, merged)
    for q in [q for q in out if _linear(q)]:
        mine = _set(q)
        if cyc and mine <= cyclic_set:
            reasons.append(f"{show_pattern(q)} ⊆ {show_pattern(cyc[0])} (its offsets are among the cyclic ones): "
                           "it adds no arc")
            out.remove(q)
            continue
        for other in out:
            theirs = offset_set(other) if _linear(other) else None
            if other is not q and theirs is not None and mine <= theirs and (
                    mine != theirs or out.index(other) < out.index(q)):
                reasons.append(f"{show_pattern(q)} ⊆ {show_pattern(other)} (its offsets are among the other's): "
                               "it adds no arc")
                out.remove(q)
                break
    for kind, field in ((S.Blocks, "b"), (S.Strided, "s")):
        sizes = {q: getattr(q, field) for q in out if isinstance(q, kind) and (_int(getattr(q, field)) or 0) >= 1}
        for q, mine in sizes.items():
            # blocks(b) ⊆ blocks(c) when b | c; strided(t) ⊆ strided(s) when s | t
            other = next((o for o, theirs in sizes.items() if o is not q and o in out and theirs != mine and
                          (theirs % mine == 0 if kind is S.Blocks else mine % theirs == 0)), None)
            if other is not None:
                reasons.append(f"{show_pattern(q)} ⊆ {show_pattern(other)} ("
                               + ("its blocks are unions of the smaller blocks" if kind is S.Blocks else
                                  "a multiple of the larger stride is a multiple of the smaller")
                               + "): it adds no arc")
                out.remove(q)
    out = _drop_covered(out, cyc[0] if cyc else None, reasons)
    if not reasons:
        return Normalised(p, ())
    result = out[0] if len(out) == 1 else S.PatternUnion(tuple(out))
    return Normalised(result, tuple(reasons))


def _strides(out: list) -> list:
    return [q.s for q in out if isinstance(q, S.Strided) and (_int(q.s) or 0) >= 1]


def _cover(d: int, cyclic: Optional[S.Pattern], linear: list, strides: list) -> Optional[str]:
    """Which of the other parts has every arc j − i = d at every n (d = 0 is no arc: every position sees
    itself), as a name; None when none of them has."""
    if cyclic is not None and _has(cyclic, d):
        return show_pattern(cyclic)
    q = next((q for q in linear if _has(q, d)), None)
    if q is not None:
        return show_pattern(q)
    s = next((s for s in strides if d % s == 0), None)
    return None if s is None else f"strided({s})"


def _block_differences(size: int):
    """The differences d, 0 < |d| < size, of two positions of one block of `size`, by increasing |d| (lazily: a
    block may be longer than any sequence)."""
    for a in range(1, size):
        yield a
        yield -a


def _drop_covered(out: list, cyclic: Optional[S.Pattern], reasons: list) -> list:
    """Drop each non-cyclic offset part and each `blocks(b)` whose arcs are arcs of the other parts at every n
    (docs/theory.md §11.13, item 6): a part's arc with j − i = d is an arc of the cyclic part when d is among
    its offsets, of a non-cyclic offset part when d is among its offsets (both ends are in 1..n), and of
    strided(s) when s | d. The positions of one block differ by d with 0 < |d| < b."""
    for q in list(out):
        if not (_linear(q) or isinstance(q, S.Blocks) and (_int(q.b) or 0) >= 1):
            continue
        others = [o for o in out if o is not q and _linear(o)]
        size = _int(getattr(q, "b", None)) or 0
        strides = _strides(out)
        if not _linear(q) and 1 in strides:
            by: list[Optional[str]] = ["strided(1)"]  # every difference is a multiple of 1
        else:
            wanted = _differences(q) if _linear(q) else _block_differences(size)
            by = []
            for d in wanted:  # the first difference no other part has ends the search
                by.append(_cover(d, cyclic, others, strides))
                if by[-1] is None or len(by) > MAX_DIFFERENCES_SCANNED:
                    break
        if any(b is None for b in by) or len(by) > MAX_DIFFERENCES_SCANNED:
            continue
        if not _linear(q) and by and by != ["strided(1)"]:  # every difference is covered: name the parts in order
            by = [_cover(d, cyclic, others, strides) for d in range(1 - size, size) if d != 0]
        if not by:
            reasons.append(f"{show_pattern(q)} has no arc (a block of one position, and every position sees itself)")
            out.remove(q)
            continue
        names = list(dict.fromkeys(b for b in by if b is not None))
        what = "d among its offsets, d ≠ 0," if _linear(q) else f"0 < |d| < {size} within one block,"
        reasons.append(f"{show_pattern(q)} ⊆ " + " ∪ ".join(names) + f" (each of its arcs, j − i = d with {what} is "
                       + ("that part's" if len(names) == 1 else "one of those parts'") + " at every n; d = 0 is no "
                       "arc, as every position sees itself): it adds no arc")
        out.remove(q)
    return out


def normalise_spec(spec: S.Spec) -> tuple[S.Spec, tuple[str, ...]]:
    """The spec with each head's pattern in normal form, and the reasons (prefixed by the head when there
    are several heads); the spec itself when nothing changes."""
    heads = []
    reasons: list[str] = []
    for i, h in enumerate(spec.heads):
        if isinstance(h.pattern, S.PatternSequence):
            heads.append(h)
            continue
        got = normalise(h.pattern)
        if got.reasons:
            label = f"head {h.label or i + 1}: " if len(spec.heads) > 1 else ""
            reasons.extend(label + r for r in got.reasons)
            h = replace(h, pattern=got.pattern)
        heads.append(h)
    if not reasons:
        return spec, ()
    return replace(spec, heads=tuple(heads)), tuple(reasons)


def heads_union(patterns) -> S.Pattern:
    """One pattern with the arcs of several heads' union, in normal form (docs/theory.md §11.13): every head's parts
    side by side (a union of heads is the union of their parts' arcs, the heads taken once each), rewritten by the
    same identities as one head's parts, so a part of one head inside another head's parts adds no arc
    (`blocks(5) + strided(5)` | `window(5)` is `window(5) + strided(5)`). The arcs are equal at every n."""
    parts = list(dict.fromkeys(q for p in dict.fromkeys(patterns) for q in _flatten(p)))
    form = normalise(S.PatternUnion(tuple(parts))).pattern if len(parts) > 1 else normalise(parts[0]).pattern
    if isinstance(form, S.PatternUnion) and len(form.parts) == 1:
        return form.parts[0]
    return form
