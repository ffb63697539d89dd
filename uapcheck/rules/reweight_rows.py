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

ROW_ENUMERATION_N = 64  # rows enumerated at a concrete length up to this n


def _vanishes(value: sympy.Expr) -> bool:
    return sympy.simplify(value) == 0


def zero_row(spec: S.Spec, head: S.Head) -> Optional[ZeroRow]:
    """A row of this normalised reweighted head whose weights all vanish, or None when none is shown."""
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
    if isinstance(n, int) and 1 <= n <= ROW_ENUMERATION_N:
        return _enumerated(term, head.pattern, n)
    return None


def _enumerated(term: sympy.Expr, pattern, n: int) -> Optional[ZeroRow]:
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
    for i in range(1, n + 1):
        visible = sorted(seen[i])
        if all(_vanishes(term.xreplace({I: sympy.Integer(i), J: sympy.Integer(j)})) for j in visible):
            return ZeroRow(term, I, J, sympy.Integer(i), tuple(sympy.Integer(j) for j in visible), False, n)
    return None
