"""The certificate of per-layer lists whose every arc goes one way, at a symbolic n (docs/theory.md §21.14, Theorem
F138): every pattern of every head of every layer the network has is lower triangular (i attends to j ≤ i only) or
every one upper triangular (j ≥ i only)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .certificates import _reject
from .proof import Certificate

#: the lengths at which the check also builds every layer pattern's arcs and reads their direction
INSTANCE_LENGTHS = range(2, 11)


@dataclass(frozen=True)
class OneWayLayers(Certificate):
    """Every pattern of `patterns` (the network's layer patterns of every head) is lower triangular (`lower`) or every
    one upper triangular: by their structure (graphs.arith), and on the arcs at n = 2, …, 10 where the pattern's sizes
    are integers. The pair (i, j) is (1, 2) when lower (x_2 never reaches position 1) and (n, 1) when upper."""
    patterns: tuple  # of spec.Pattern
    lower: bool
    kind = "layer-one-way"

    def check(self) -> None:
        from .graphs import build_graph
        from .graphs.arith import lower_triangular, upper_triangular
        if not self.patterns:
            _reject(OneWayLayers, "no layer pattern is named")
        one_way = lower_triangular if self.lower else upper_triangular
        for p in self.patterns:
            if not one_way(p):
                _reject(OneWayLayers, f"a layer pattern is not {'lower' if self.lower else 'upper'} triangular by its "
                                      "structure")
            for n in INSTANCE_LENGTHS:
                try:
                    arcs = build_graph(p, n, {}).arcs()
                except (KeyError, ValueError, TypeError):
                    break  # a size given as a param, or above n: the structure alone
                for j, i in arcs:
                    if (j > i) if self.lower else (j < i):
                        _reject(OneWayLayers, f"the arc {j} → {i} at n = {n} goes the other way")

    def to_json(self) -> Any:
        from .show import show_pattern
        return {"kind": self.kind, "theorem": "F138", "patterns": [show_pattern(p) for p in self.patterns],
                "direction": "j ≤ i" if self.lower else "j ≥ i"}
