"""The heads' patterns layer by layer, as the verifier reads them from the parsed input.

A per-layer input gives each head either one pattern (every layer) or a `PatternSequence`: a finite list
(layer ℓ takes entry ℓ, the list's length is the network's depth) or a periodic one (layer ℓ takes entry
(ℓ − 1) mod k). The table has one row per layer of a period: the lcm of the periodic lists' lengths, or the
finite lists' common length. Every per-layer re-check (views, interval widths, sink heads) starts here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from .. import spec as S

MAX_PERIOD = 256


@dataclass(frozen=True)
class LayerTable:
    """rows[q]: the heads' patterns of the layers ℓ ≡ q + 1 (mod len(rows)); `limit` the depth (None: any)."""

    rows: list
    periodic: bool
    limit: Optional[int]


def _pattern_at(p, layer: int):
    return p if not isinstance(p, S.PatternSequence) else p.patterns[(layer - 1) % len(p.patterns)]


def layer_table(spec: S.Spec, fail: type[Exception], max_period: int = MAX_PERIOD, single: bool = False) -> LayerTable:
    """The table of `spec`'s heads; `fail(reason)` is raised when the input is not one the verifier rebuilds. With
    `single`, an input without per-layer patterns is one row repeated (every layer the same patterns)."""
    seqs = [h.pattern for h in spec.heads if isinstance(h.pattern, S.PatternSequence)]
    if not seqs and not single:
        raise fail("the input has no per-layer patterns")
    finite = [s for s in seqs if not s.periodic]
    if not seqs:
        count, periodic = 1, True  # one row: each head's own pattern in every layer
    elif finite:
        if len({len(s.patterns) for s in finite}) != 1:
            raise fail("the heads' finite pattern lists have different lengths")
        count, periodic = len(finite[0].patterns), False
    else:
        count = 1
        for s in seqs:
            count = math.lcm(count, len(s.patterns))
        periodic = True
    if count > max_period:
        raise fail(f"the layer patterns repeat with period {count} (the verifier rebuilds at most {max_period})")
    rows = [[_pattern_at(h.pattern, layer) for h in spec.heads] for layer in range(1, count + 1)]
    limit = None if periodic else count
    if isinstance(spec.layers, int) and not isinstance(spec.layers, bool):
        limit = spec.layers if limit is None else min(limit, spec.layers)
    return LayerTable(rows, periodic, limit)
