"""PAT-NORMAL, re-checked (docs/theory.md §11.13): a head's pattern as written and the normal form the
certificate gives (typed parts: a kind with integer sizes, or a written part by its index) have the
same arcs at every n. The verifier computes each side's arc description itself, part by part: the
cyclic offset set, the non-cyclic offsets outside it that are not 0 and no stride divides, the number of
leading globals, the block sizes dividing no other whose differences are not all offsets or stride
multiples, the strides no other divides, the other parts as written. Equal descriptions mean
equal arcs. When the step checks, the later pattern steps are re-checked on the normal form, as the
engine derived them; when it does not, on the pattern as written."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Optional

from .. import spec as S


def _flat(p) -> list:
    return [r for q in p.parts for r in _flat(q)] if isinstance(p, S.PatternUnion) else [p]


def flat_unions(spec: S.Spec) -> S.Spec:
    """The spec with every union of unions written as one flat union (`A + (B + C)` as `A + B + C`, the parser keeps
    a parenthesised right part as a part of its own): a union's arcs are its parts' arcs, however grouped, and every
    table of the verifier reads a union's parts as a flat list, so a nested union used to read differently from its
    flat form (a family theorem matched on one and not on the other)."""
    heads = tuple(replace(h, pattern=_flat_pattern(h.pattern)) for h in spec.heads)
    return spec if heads == spec.heads else replace(spec, heads=heads)


def _flat_pattern(p):
    if isinstance(p, S.PatternUnion):
        parts = tuple(_flat_pattern(q) for q in _flat(p))
        return parts[0] if len(parts) == 1 else S.PatternUnion(parts)
    if isinstance(p, S.PatternIntersection):
        return S.PatternIntersection(tuple(_flat_pattern(q) for q in p.parts))
    if isinstance(p, S.Blockwise):
        return replace(p, inner=_flat_pattern(p.inner))
    if isinstance(p, S.PatternSequence):
        return replace(p, patterns=tuple(_flat_pattern(q) for q in p.patterns))
    return p


def _is_int(t) -> bool:
    return isinstance(t, int) and not isinstance(t, bool)


def _num(t) -> int:
    if not _is_int(t):
        raise TypeError(f"not an integer size: {t!r}")
    return t


#: the widest window or dilation whose offsets the arc description lists
WIDEST = 1 << 20


def arcs_description(p) -> tuple:
    """What decides the arcs of a union of parts, for every n."""
    cyc: set = set()
    lin: set = set()
    first = 0
    blocks: set = set()
    strides: set = set()
    rest: set = set()
    parts = _parts(p)
    if any(isinstance(q, S.Full) for q in parts):
        return ("every arc",)
    for q in parts:
        # a window or dilation wider than WIDEST is compared as written (its offsets would take memory in proportion
        # to w: `dilated(500000000, 3)`, 10⁹ of them); equal parts have equal arcs
        if isinstance(q, S.Window) and _is_int(q.w) and 0 <= _num(q.w) <= WIDEST:
            (cyc if q.cyclic else lin).update(range(-_num(q.w), _num(q.w) + 1))
        elif isinstance(q, S.Offsets) and all(_is_int(t) for t in q.offsets):
            (cyc if q.cyclic else lin).update(q.offsets)
        elif isinstance(q, S.Dilated) and _is_int(q.w) and _is_int(q.r) and 0 <= _num(q.w) <= WIDEST and \
                _num(q.r) >= 1:
            lin.update(_num(q.r) * k for k in range(-_num(q.w), _num(q.w) + 1))
        elif isinstance(q, S.Star):
            first = max(first, 1)
        elif isinstance(q, S.Global) and _is_int(q.g):
            first = max(first, _num(q.g))
        elif isinstance(q, S.Blocks) and _is_int(q.b) and _num(q.b) >= 1:
            blocks.add(_num(q.b))
        elif isinstance(q, S.Strided) and _is_int(q.s) and _num(q.s) >= 1:
            strides.add(_num(q.s))
        else:
            rest.add(q)
    strides = {s for s in strides if all(t == s or s % t for t in strides)}
    # an offset d is an arc of a stride s when s | d; d = 0 is no arc (every position sees itself)
    reached = {d for d in cyc | lin if d != 0} | {0}
    multiples = {d for d in lin if any(d % s == 0 for s in strides)}
    whole_blocks = {b for b in blocks if all(c == b or c % b for c in blocks)}
    # blocks(b) adds no arc when every difference of two positions of one block is such an arc
    blocks = {b for b in whole_blocks
              if not all(_reaches(d, reached, strides) and _reaches(-d, reached, strides) for d in range(1, b))}
    lin = {d for d in lin if d not in cyc and d not in multiples and d != 0}
    return (frozenset(cyc), frozenset(lin), first, frozenset(blocks), frozenset(strides), frozenset(rest))


def _parts(p) -> list:
    """The parts of a union, an intersection with `full` read as its other parts (full ∩ P = P: `full` has every
    arc; `full & full` is `full`; `P & Q & full` is `P & Q`)."""
    out: list = []
    for q in _flat(p):
        if isinstance(q, S.PatternIntersection) and any(isinstance(x, S.Full) for x in q.parts):
            rest = [x for x in q.parts if not isinstance(x, S.Full)]
            if not rest:
                out.append(S.Full())
                continue
            if len(rest) == 1:
                out.extend(_parts(rest[0]))
                continue
            out.append(S.PatternIntersection(tuple(rest)))  # `P & Q & full` is `P & Q`, a part as written
            continue
        out.append(q)
    return out


def _reaches(d: int, offsets: set, strides: set) -> bool:
    """Whether j − i = d is an arc of an offset part (cyclic or not) or of a stride, at every n."""
    return d in offsets or any(d % s == 0 for s in strides)


def _part(entry: Any, written: list):
    if not isinstance(entry, dict) or len(entry) not in (1, 2):
        raise ValueError("a normal form part is a record of one kind")
    if "as written" in entry:
        k = entry["as written"]
        if not _is_int(k) or not 1 <= k <= len(written):
            raise ValueError("a written part's index is out of range")
        if entry.get("without full") is True and len(entry) == 2:  # a written intersection without its `full` parts
            meet = written[k - 1]
            rest = tuple(x for x in meet.parts if not isinstance(x, S.Full)) if isinstance(meet, S.PatternIntersection) \
                else ()
            if len(rest) < 2 or len(rest) == len(meet.parts):
                raise ValueError("`without full` names no intersection of several parts with `full`")
            return S.PatternIntersection(rest)
        if "path" in entry:  # a part inside a written part, through the parts of unions and intersections
            return _at_path(written[k - 1], entry["path"])
        if "part" not in entry:
            return written[k - 1]
        m, meet = entry["part"], written[k - 1]  # a part of a written intersection
        if not isinstance(meet, S.PatternIntersection) or not _is_int(m) or not 1 <= m <= len(meet.parts):
            raise ValueError("a part of a written intersection is out of range")
        return meet.parts[m - 1]
    cyclic = entry.get("cyclic", False)
    if not isinstance(cyclic, bool):
        raise ValueError("`cyclic` is not a boolean")
    if "window" in entry and _is_int(entry["window"]) and entry["window"] >= 0:
        return S.Window(entry["window"], cyclic)
    if "offsets" in entry and isinstance(entry["offsets"], list) and entry["offsets"] and \
            all(_is_int(t) for t in entry["offsets"]):
        return S.Offsets(tuple(entry["offsets"]), cyclic)
    if "global" in entry and _is_int(entry["global"]) and entry["global"] >= 1:
        return S.Global(entry["global"])
    if entry.get("full") is True:
        return S.Full()
    raise ValueError("a normal form part of an unknown kind")


def _at_path(whole, path: Any):
    if not isinstance(path, list) or not path or len(path) > 64:
        raise ValueError("a path into a written part is a list of indices")
    for m in path:
        if not isinstance(whole, (S.PatternUnion, S.PatternIntersection)) or not _is_int(m) or \
                not 1 <= m <= len(whole.parts):
            raise ValueError("a path into a written part is out of range")
        whole = whole.parts[m - 1]
    return whole


def check(spec: S.Spec, s: dict) -> tuple[Optional[S.Spec], str]:
    """(the spec with the normal forms, why) when the step checks; (None, why not) otherwise."""
    cert = s.get("certificate") or {}
    entries = cert.get("heads") if isinstance(cert, dict) else None
    if s.get("status") != "proved" or not isinstance(entries, list) or not entries:
        return None, "PAT-NORMAL concludes `proved` from the rewritten heads' normal forms"
    heads = list(spec.heads)
    seen = set()
    for e in entries:
        if not isinstance(e, dict) or not _is_int(e.get("head")) or not 1 <= e["head"] <= len(heads):
            return None, "a rewritten head's index is out of range"
        i = e["head"] - 1
        if i in seen or isinstance(heads[i].pattern, S.PatternSequence):
            return None, "a head is rewritten twice, or is a sequence of patterns"
        seen.add(i)
        written = _flat(heads[i].pattern)
        parts = e.get("parts")
        if not isinstance(parts, list) or not parts:
            return None, "a normal form has no parts"
        try:
            normal_parts = [_part(x, written) for x in parts]
        except ValueError as exc:
            return None, str(exc)
        normal = normal_parts[0] if len(normal_parts) == 1 else S.PatternUnion(tuple(normal_parts))
        if arcs_description(heads[i].pattern) != arcs_description(normal):
            return None, f"head {i + 1}: the normal form does not have the arcs of the pattern as written"
        heads[i] = replace(heads[i], pattern=normal)
    return replace(spec, heads=tuple(heads)), ("the verifier's own arc description (cyclic offsets, other offsets, "
                                               "leading globals, blocks, strides, other parts) is the same for each "
                                               "head as written and its normal form")


def apply(ctx) -> None:
    """Check each PAT-NORMAL step first; when it checks, the later steps see the normal forms."""
    for sid in ctx.order:
        s = ctx.steps[sid]
        if s.get("rule") != "PAT-NORMAL":
            continue
        new, why = check(ctx.spec, s)
        ctx.cache[("normal form", sid)] = (new is not None, why)
        if new is not None:
            ctx.spec = new

