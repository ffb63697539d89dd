"""Rows whose reweight factors all vanish: a normalised head whose row i sees only keys j with c(i, j) = 0 has the
normaliser Σ_j k(q_i, k_j) c(i, j) ≡ 0 on that row, for every input and parameter, so the layer is undefined there
(docs/theory.md §4, WP-POSITIVE's row form). The first row of a one-sided pattern sees only itself (`causal`: row 1,
whatever n), every row of `window(0)` likewise; at a concrete length every row's visible set is built."""
from __future__ import annotations

from typing import Optional

import sympy

from .. import spec as S
from ..certificates import ZeroRow
from ..graphs.build import GraphTooLarge, build_graph
from .positions import I, J, pattern_side, position_expr
from ..certificates import EndRows, MixedRow, RatioRow, ratio_takes_every_value
from ..lower import KEY_NORM2, QUERY_DOT_KEY, QUERY_NORM2, ClosedKernel

ROW_ENUMERATION_N = 64  # rows enumerated at a concrete length up to this n
END_ROWS_N = 4096  # above ROW_ENUMERATION_N and up to this n: the END_ROWS rows nearest each end (the verifier's arcs)
END_ROWS = 8


def _vanishes(value: sympy.Expr) -> bool:
    return sympy.simplify(value) == 0


def zero_row(spec: S.Spec, head: S.Head):
    """A row of this normalised reweighted head whose weights all vanish (a ZeroRow), or at a symbolic n the rows
    near the last one that vanish on some residue classes of n (EndRows, Lemma U), or None when none is shown."""
    if head.position is None or head.position.kind != "reweight" or not head.normalized:
        return None
    term = position_expr(spec, head)
    side = -1 if isinstance(head.pattern, S.Window) and head.pattern.w == 0 else pattern_side(head.pattern)
    if side is not None:
        n = spec.tokens
        last = sympy.Integer(n) if isinstance(n, int) else sympy.Symbol(n, integer=True, positive=True)
        row = sympy.Integer(1) if side < 0 else last
        if _vanishes(term.xreplace({I: row, J: row})):
            return ZeroRow(term, I, J, row, (row,), True, n if isinstance(n, int) else None)
    n = spec.tokens
    if isinstance(n, str):
        every = _every_key(term, n)
        return every if every is not None else end_rows(term, head.pattern,
                                                        sympy.Symbol(n, integer=True, positive=True))
    if isinstance(n, int) and 1 <= n <= ROW_ENUMERATION_N:
        return _enumerated(term, head.pattern, n)
    every = _every_key(term, n)
    if every is None and isinstance(n, int) and ROW_ENUMERATION_N < n <= END_ROWS_N:
        # above the enumerated lengths: the rows nearest each end (the last block of `blocks(b)` when n mod b = 1)
        return _enumerated(term, head.pattern, n, [*range(1, END_ROWS + 1), *range(n - END_ROWS + 1, n + 1)])
    if every is None and isinstance(n, int) and n > END_ROWS_N:
        return _shifted_end_row(term, head.pattern, n)
    return every


def _shifted_end_row(term: sympy.Expr, pattern, n: int) -> Optional[ZeroRow]:
    """At a concrete n above END_ROWS_N: the END_ROWS rows nearest the end of a shift-periodic pattern (Lemma U), each
    row n − t's keys read off the row m − t at the least m ≡ n (mod L) with m ≥ END_ROWS + R + 1, shifted by n − m,
    without building the pattern at n."""
    found = end_period(pattern)
    if found is None or found[0] > END_PERIOD_MAX:
        return None
    period, reach_ = found
    m = n % period + period * max(0, -(-(END_ROWS + reach_ + 1 - n % period) // period))
    keys = _rows(pattern, m)
    if keys is None:
        return None
    for t in range(END_ROWS):
        visible = sorted(n - (m - j) for j in keys[m - t])
        if all(_vanishes(term.xreplace({I: sympy.Integer(n - t), J: sympy.Integer(j)})) for j in visible):
            return ZeroRow(term, I, J, sympy.Integer(n - t), tuple(sympy.Integer(j) for j in visible), False, n)
    return None


def _every_key(term: sympy.Expr, n) -> Optional[ZeroRow]:
    """Row 1 or row n when c(row, j) vanishes identically in j: whatever keys that row sees (at least its own), its
    normaliser is 0, for every pattern (`reweight n - i` on a dense head: c(n, j) = 0)."""
    last = sympy.Integer(n) if isinstance(n, int) else sympy.Symbol(n, integer=True, positive=True)
    for row in (sympy.Integer(1), last):
        if _vanishes(term.xreplace({I: row})):
            return ZeroRow(term, I, J, row, (J,), not isinstance(n, int), n if isinstance(n, int) else None,
                           every_key=True)
    return None


def _enumerated(term: sympy.Expr, pattern, n: int, only=None) -> Optional[ZeroRow]:
    """The first row (of `only`, when given, else of every row) whose factors vanish at each key it sees at n."""
    try:
        graph = build_graph(pattern, n)
    except (GraphTooLarge, ValueError, TypeError, KeyError):
        return None
    seen: dict[int, list[int]] = {i: [i] for i in range(1, n + 1)}
    if graph.complete:
        seen = {i: list(range(1, n + 1)) for i in range(1, n + 1)}
    else:
        for code in graph.codes:
            j, i = code // n + 1, code % n + 1
            seen[i].append(j)
    for i in (range(1, n + 1) if only is None else only):
        visible = sorted(seen[i])
        if all(_vanishes(term.xreplace({I: sympy.Integer(i), J: sympy.Integer(j)})) for j in visible):
            return ZeroRow(term, I, J, sympy.Integer(i), tuple(sympy.Integer(j) for j in visible), False, n)
    return None


# The 1-dimensional values a mixed row's witness tries for the query and for the keys (all keys non-zero, so that the
# row's own token x_i ≠ 0 and W_Q = q / x_i realises any query q).
QUERY_VALUES = (1, -1, 2, -2)
KEY_VALUES = (1, 2, -1, -2, 3, -3)


def mixed_row(spec: S.Spec, head: S.Head, model) -> Optional[MixedRow | RatioRow]:
    """A row of this normalised reweighted head whose factors take both signs, with two 1-dimensional configurations at
    which its normaliser Σ_j c(i, j) k(q, x_j) is positive and negative (docs/theory.md §4, Lemma Q): at a concrete
    length n ≤ 64 (every row) or n ≤ 4096 (the 8 rows nearest each end), a closed kernel and a reweight without
    params, a head whose query and keys are free (not tied, projected, landmark, biased, grouped or differential).
    None when no such row or witness is found."""
    n = spec.tokens
    symbolic = isinstance(n, str)
    if not (head.position is not None and head.position.kind == "reweight" and head.normalized and head.kind == "kernel"
            and (symbolic or (isinstance(n, int) and 2 <= n <= END_ROWS_N)) and isinstance(model, ClosedKernel)
            and not (head.tie or head.projection or head.nystrom or head.bias or head.heads or head.differential)):
        return None
    term = position_expr(spec, head)
    kernel = model.plain
    if not kernel.free_symbols <= {QUERY_DOT_KEY, KEY_NORM2, QUERY_NORM2}:
        return None
    if isinstance(n, str):
        length = sympy.Symbol(n, integer=True, positive=True)
        if not term.free_symbols <= {I, J, length}:
            return None
        fixed = _fixed_row(term, head.pattern, kernel, length) if term.free_symbols <= {I, J} else None
        return fixed if fixed is not None or not isinstance(head.pattern, S.Full) else ratio_row(term, kernel, length)
    if not term.free_symbols <= {I, J}:
        return None
    if not isinstance(n, int):
        return None
    rows = _rows(head.pattern, n)
    if rows is None:
        return None
    values = _kernel_values(kernel)
    # every row up to n = 64; above, the END_ROWS rows nearest each end
    tried = range(1, n + 1) if n <= ROW_ENUMERATION_N else [*range(1, END_ROWS + 1), *range(n - END_ROWS + 1, n + 1)]
    for i in tried:
        cert = _mixed_at(term, kernel, values, i, rows[i], n)
        if cert is not None:
            return cert
    return None


def _mixed_at(term, kernel, values, i: int, visible, n: int, from_n: Optional[int] = None,
              length: Optional[sympy.Symbol] = None) -> Optional[MixedRow]:
    """Row i's certificate when its factors take both signs and a witness pair is found among the values tried."""
    weights = [term.xreplace({I: sympy.Integer(i), J: sympy.Integer(j)}) for j in visible]
    signs = [_sign(w) for w in weights]
    if None in signs or 1 not in signs or -1 not in signs:
        return None
    found = _witness(weights, signs, values)
    if found is None:
        return None
    pos, neg = (_point(q, p, m, signs) for q, p, m in found)
    return MixedRow(term, I, J, i, tuple(visible), kernel, (QUERY_DOT_KEY, KEY_NORM2, QUERY_NORM2), pos, neg, n,
                    from_n, length)


# The fixed rows tried at a symbolic n (Lemma T of docs/theory.md §4): rows 1…FIXED_ROWS of a local pattern.
FIXED_ROWS = 8


def reach(p) -> Optional[int]:
    """R when the pattern is local (Lemma T, docs/theory.md §4): its arcs at every length n are those of one relation
    A on the positive integers, independent of n, cut to [1, n], and every (i, j) ∈ A has j ≤ i + R. The causal mask
    (R = 0), non-cyclic windows (w), non-cyclic offsets (the largest positive offset, or 0), dilated windows (w·r)
    and blocks (b − 1) with integer sizes, and unions and intersections of local patterns (the largest, the
    smallest R); None for anything else (a global position, strides, a cyclic part: their rows change with n)."""
    def size(v) -> Optional[int]:
        return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None
    if isinstance(p, S.Causal):
        return 0
    if isinstance(p, S.Window) and not p.cyclic:
        return size(p.w)
    if isinstance(p, S.Offsets) and not p.cyclic:
        ints = [o for o in p.offsets if isinstance(o, int) and not isinstance(o, bool)]
        return max([0, *ints]) if len(ints) == len(p.offsets) else None
    if isinstance(p, S.Dilated):
        w, r = size(p.w), size(p.r)
        return None if w is None or r is None else w * r
    if isinstance(p, S.Blocks):
        b = size(p.b)
        return None if b is None or b < 1 else b - 1
    if isinstance(p, (S.PatternUnion, S.PatternIntersection)) and p.parts:
        parts = [reach(q) for q in p.parts]
        known = [x for x in parts if x is not None]
        if len(known) != len(parts):
            return None
        return max(known) if isinstance(p, S.PatternUnion) else min(known)
    return None


def _fixed_row(term: sympy.Expr, pattern, kernel: sympy.Expr, length: sympy.Symbol) -> Optional[MixedRow]:
    """At a symbolic n: the first of rows 1…FIXED_ROWS of a local pattern (`reach`) whose factors take both signs
    with a witness pair, with the least length from which it holds. Row i's keys at every n ≥ max K_i are K_i, its
    keys at n = i + R (Lemma T), so the witness at that length holds at every such n."""
    r = reach(pattern)
    if r is None:
        return None
    values = _kernel_values(kernel)
    best = None
    for i in range(1, FIXED_ROWS + 1):
        rows = _rows(pattern, i + r)
        if rows is None:
            return None
        visible = rows[i]
        start = max(visible)
        if best is not None and best.from_n is not None and start >= best.from_n:
            continue
        cert = _mixed_at(term, kernel, values, i, visible, start, from_n=start, length=length)
        if cert is not None:
            best = cert
    return best


def _rows(pattern, n: int) -> Optional[dict[int, list[int]]]:
    try:
        graph = build_graph(pattern, n)
    except (GraphTooLarge, ValueError, TypeError, KeyError):
        return None
    if graph.complete:
        return {i: list(range(1, n + 1)) for i in range(1, n + 1)}
    seen: dict[int, set[int]] = {i: {i} for i in range(1, n + 1)}
    for code in graph.codes:
        j, i = code // n + 1, code % n + 1
        seen[i].add(j)
    return {i: sorted(keys) for i, keys in seen.items()}


def _sign(value: sympy.Expr) -> Optional[int]:
    if value.is_zero or _vanishes(value):
        return 0
    if value.is_positive:
        return 1
    if value.is_negative:
        return -1
    return None


def _kernel_values(kernel: sympy.Expr) -> dict[tuple[int, int], Optional[sympy.Expr]]:
    out = {}
    for q in QUERY_VALUES:
        for x in KEY_VALUES:
            value = kernel.xreplace({QUERY_DOT_KEY: sympy.Integer(q * x), KEY_NORM2: sympy.Integer(x * x),
                                     QUERY_NORM2: sympy.Integer(q * q)})
            out[q, x] = value if value.is_finite and value.is_real else None
    return out


def _witness(weights, signs, values):
    """((q, p, m), (q', p', m')): keys with c > 0 at p, the others at m, where the normaliser is positive, then
    negative; None when the values tried give no such pair."""
    plus = sum((w for w, s in zip(weights, signs) if s > 0), sympy.Integer(0))
    minus = sum((w for w, s in zip(weights, signs) if s < 0), sympy.Integer(0))
    pos = neg = None
    for (q, p), kp in values.items():
        for m in KEY_VALUES:
            km = values[q, m]
            if kp is None or km is None or m == p:
                continue
            total = sympy.simplify(plus * kp + minus * km)
            if pos is None and total.is_positive:
                pos = (q, p, m)
            elif neg is None and total.is_negative:
                neg = (q, p, m)
            if pos is not None and neg is not None:
                return pos, neg
    return None


def _point(q: int, p: int, m: int, signs) -> tuple:
    return q, tuple(m if s < 0 else p for s in signs)


# Rows near the last one at a symbolic n (Lemma U of docs/theory.md §4): patterns whose arcs are one relation A on the
# positive integers cut to [1, n], invariant under shifts by a period L, with |i − j| ≤ R on A.
END_PERIOD_MAX = 64


def end_period(p) -> Optional[tuple[int, int]]:
    """(L, R) when the pattern's arcs at every length n are A ∩ [1, n]² for one relation A with (i, j) ∈ A ⟺
    (i + L, j + L) ∈ A and |i − j| ≤ R on A: non-cyclic windows (1, w), non-cyclic integer offsets (1, the largest
    |offset|), dilated windows (1, w·r), blocks (b, b − 1), and unions and intersections of these (the lcm, the
    largest R); None for anything else (`causal`, strides, globals and cyclic parts reach arbitrarily far)."""
    from math import lcm

    def size(v) -> Optional[int]:
        return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None
    if isinstance(p, S.Window) and not p.cyclic:
        w = size(p.w)
        return None if w is None else (1, w)
    if isinstance(p, S.Offsets) and not p.cyclic:
        ints = [o for o in p.offsets if isinstance(o, int) and not isinstance(o, bool)]
        return (1, max([0, *(abs(o) for o in ints)])) if len(ints) == len(p.offsets) else None
    if isinstance(p, S.Dilated):
        w, r = size(p.w), size(p.r)
        return None if w is None or r is None else (1, w * r)
    if isinstance(p, S.Blocks):
        b = size(p.b)
        return None if not b else (b, b - 1)
    if isinstance(p, (S.PatternUnion, S.PatternIntersection)) and p.parts:
        parts = [end_period(q) for q in p.parts]
        known = [x for x in parts if x is not None]
        if len(known) != len(parts):
            return None
        return lcm(*(x[0] for x in known)), max(x[1] for x in known)
    return None


def end_rows(term: sympy.Expr, pattern, length: sympy.Symbol) -> Optional[EndRows]:
    """The residues r of n mod L at which one of the END_ROWS rows n − t nearest the end has c = 0 at every key it
    sees, at every n ≡ r (Lemma U): its keys n − d, d ∈ D_r, built at one length n_r ≡ r with n_r ≥ t + R + 1, and
    c(n − t, n − d) = 0 identically on the class (n = L·k + first, k ≥ 0). None when no class has one; only rows that
    exist at every length of their class (t < the class's least n)."""
    found = end_period(pattern)
    if found is None or found[0] > END_PERIOD_MAX:
        return None
    period, reach_ = found
    k = sympy.Symbol("k", integer=True, nonnegative=True)
    rows = []
    for r in range(period):
        first = r if r >= 1 else period
        built = first + period * max(0, -(-(END_ROWS + reach_ + 1 - first) // period))
        keys = _rows(pattern, built)
        if keys is None:
            return None
        n = period * k + first
        for t in range(min(END_ROWS, first)):
            offsets = tuple(sorted(built - j for j in keys[built - t]))
            if all(_vanishes(term.xreplace({I: n - t, J: n - d})) for d in offsets):
                rows.append((r, t, offsets, built, first))
                break
    if not rows:
        return None
    return EndRows(term, I, J, length, period, tuple(rows))


# Dense rows at a symbolic n (Lemma Q's ratio form, docs/theory.md §4): rows and keys tried, as n minus an integer or
# an integer, and the lengths from which a sign is looked for.
RATIO_POSITIONS = (0, 1, 2)  # n − t and 1 + t
RATIO_FROM_MAX = 16


def ratio_row(term: sympy.Expr, kernel: sympy.Expr, length: sympy.Symbol) -> Optional[RatioRow]:
    """A row of a dense head (every key 1..n) with a key of positive and a key of negative factor at every n ≥ N, the
    least such N ≤ RATIO_FROM_MAX over the rows and keys n − t and 1 + t tried, when the kernel's ratio
    k(q, 1)/k(q, −1) takes every positive value (`ratio_takes_every_value`); None otherwise."""
    from ..budget import BudgetExceeded, time_limit
    positions = [length - t for t in RATIO_POSITIONS] + [sympy.Integer(1 + t) for t in RATIO_POSITIONS]
    # a quick look first: both signs among the factors tried at one length past the starts tried
    sample = {length: sympy.Integer(RATIO_FROM_MAX + 3)}
    signs = {_sign(term.xreplace({I: row, J: key}).xreplace(sample)) for row in positions for key in positions}
    if not {1, -1} <= signs:
        return None
    try:
        with time_limit("a dense row of both signs (Lemma Q's ratio form)", 5.0):
            if not ratio_takes_every_value(kernel, (QUERY_DOT_KEY, KEY_NORM2, QUERY_NORM2)):
                return None
            return _ratio_search(term, kernel, length, positions)
    except (BudgetExceeded, NotImplementedError, ValueError, TypeError):
        return None


def _ratio_search(term: sympy.Expr, kernel: sympy.Expr, length: sympy.Symbol, positions: list) -> Optional[RatioRow]:
    k = sympy.Symbol("k", integer=True, nonnegative=True)
    best = None
    for row in positions:
        for start in range(1, RATIO_FROM_MAX + 1):
            if best is not None and start >= best.from_n:
                break
            if not _inside(row, start, length):
                continue
            at = {length: start + k}
            plus = minus = None
            for key in positions:
                if not _inside(key, start, length):
                    continue
                value = sympy.simplify(term.xreplace({I: row, J: key}).xreplace(at))
                if plus is None and value.is_positive:
                    plus = key
                elif minus is None and value.is_negative:
                    minus = key
            if plus is not None and minus is not None:
                best = RatioRow(term, I, J, length, row, plus, minus, start, kernel,
                                (QUERY_DOT_KEY, KEY_NORM2, QUERY_NORM2))
                break
    return best


def _inside(pos: sympy.Expr, start: int, length: sympy.Symbol) -> bool:
    """Whether the position (an integer, or n minus an integer) lies in 1..n at every n ≥ start."""
    value = pos.xreplace({length: sympy.Integer(start)})
    return value >= 1 and (pos.has(length) or int(value) <= start)
