"""The part Theorems F25 (`blocks(s) + strided(s)`) and F34 (`blocks(b) + strided(s)`, b > s) share, as the
verifier restates them: D = 2 at every n of the range, 3 layers when 1 ≤ n mod q ≤ s − 2 and 2 otherwise (q the
modulus the layer count follows: s for F25, b for F34), and the instances re-checked on the verifier's own arcs at
one whole period of q from the range's start (BFS, the group code, and the theorem's own layer check)."""
from __future__ import annotations

from typing import Optional

import sympy

from .. import spec as S
from . import patterns


class DiameterTwoByResidue:
    """Subclasses set `s`, `low`, `pattern`, `spec`, the modulus `layer_modulus` and `expected_order(n)` (an int),
    and check the layers at one n in `_layers_problem`."""

    s: int
    low: int
    layer_modulus: int
    pattern: S.Pattern
    spec: S.Spec

    def expected_order(self, n: int) -> int:
        raise NotImplementedError

    def _layers_problem(self, n: int, heads: list, dist: dict, lab: dict) -> Optional[str]:
        raise NotImplementedError

    def layers(self, n):
        q = self.layer_modulus

        def at(rho):
            return 3 if 1 <= rho <= self.s - 2 else 2
        if isinstance(n, int):
            return sympy.Integer(at(n % q))
        return sum((at(r) * (sympy.floor((n - r) / q) - sympy.floor((n - r - 1) / q)) for r in range(q)),
                   sympy.Integer(0))

    def instances(self, what: str) -> Optional[str]:
        """At one whole period from the range's start: D = 2 by BFS, |G| by the group code, and the layers by
        `_layers_problem`."""
        from . import groups
        for n in range(self.low, self.low + self.layer_modulus + 1):
            heads = [patterns.head_arcs(self.pattern, n)]
            outs = patterns.union_out(heads, n)
            dist = {v: patterns.bfs(outs, v) for v in range(1, n + 1)}
            found = [x for arr in dist.values() for x in arr[1:]]
            if None in found or max(x for x in found if x is not None) != 2:
                return f"n = {n}: the diameter is not 2"
            if what == "connectivity":
                continue
            lab = patterns.labels_at(self.spec, heads, n, kinds=[None])
            if what == "group":
                full, method = groups.full_order(lab, n, "none")
                expected = self.expected_order(n)
                if full is None or full != expected:
                    return f"n = {n}: the pattern has {full} symmetries ({method}), the theorem says {expected}"
            problem = self._layers_problem(n, heads, dist, lab) if what == "layers" else None
            if problem:
                return problem
        return None
