"""A `.uap` text as the independent verifier reads it: its context, its own arcs and the union's directed diameter
(shared by the verifier's twin-class tests)."""
from __future__ import annotations

from typing import Optional

from uapcheck.parse import parse_source
from uapcheck.verifier import check as C
from uapcheck.verifier import kernels, normal_form, patterns


def verifier_context(text: str) -> C.Context:
    """The verifier's context of the text, its unions flattened as the verifier's normal form reads them."""
    spec = normal_form.flat_unions(parse_source(text, "t.uap"))
    return C.Context({}, spec, {}, [], {}, kernels.param_symbols(spec))


def arcs_and_diameter(ctx: C.Context, n: int) -> tuple:
    """The verifier's arcs of the context's heads at n, and the union's directed diameter (None when some position
    does not reach another), by breadth-first search from every position."""
    arcs = patterns.spec_arcs(ctx.spec)
    outs = patterns.union_out(arcs, n)
    dist = [patterns.bfs(outs, v) for v in range(1, n + 1)]
    diameter: Optional[int] = None
    if not any(x is None for row in dist for x in row[1:]):
        diameter = max(x for row in dist for x in row[1:] if x is not None)
    return arcs, diameter
