"""Theorem F91 (docs/theory.md §11.11), restated for the verifier: `strided(s)` united with non-cyclic `window`,
`dilated` and `offsets` parts (jumps S) where the jumps S′ = {k ∈ S : s ∤ k} share the factor r = gcd(S′) with
2 ≤ r < s and gcd(r, s) = 1, S′/r has both signs and F28's ball certificate (radius R). For n ≥ max(N₀, r·N_G, r·s,
s(4J + 3)), J = max |S|, N₀ = 4·K₀·J + 2s as in F74, N_G F41's range for S′/r: G = the reflection when S′ = −S′, else
trivial; D depends on n mod s only; D + 1 layers (not least).

The verifier's own jump sets, factor, residue costs, ranges, ball certificate (nauty, ``circulant_general._ball_rigid``)
and D at one length per residue from N₀ by breadth-first search on its own arcs (``strided_lines.diameter_on_arcs``).
"""
from __future__ import annotations

from functools import lru_cache
from math import gcd
from typing import Optional


from .. import spec as S
from .strided_lines import MAX_JUMP, _int, family_by_residue, restate_by_residue


def match(parts: list):
    from .offsets_line import line_jumps
    strided = [q for q in parts if isinstance(q, S.Strided)]
    rest = [q for q in parts if not isinstance(q, S.Strided)]
    if len(strided) != 1 or not rest or all(isinstance(q, S.Window) for q in rest):
        return None
    s = _int(strided[0].s)
    jumps = line_jumps(rest)
    if s is None or s < 3 or jumps is None:
        return None
    found = restated(s, tuple(jumps), S.PatternUnion(tuple(parts)))
    if found is None:
        return None
    low, table, symmetric = found
    return family_by_residue("F91", s, low, table, symmetric)


@lru_cache(maxsize=64)
def restated(s: int, jumps: tuple, pattern: S.Pattern) -> Optional[tuple[int, dict, bool]]:
    """(the range's start, D by residue of n mod s on the pattern's own arcs, S′ = −S′), or None when F91 does not
    apply."""
    vals = sorted(set(jumps) - {0})
    if not vals or max(abs(k) for k in vals) > MAX_JUMP:
        return None
    leaving = [k for k in vals if k % s]
    r = 0
    for k in leaving:
        r = gcd(r, abs(k))
    if not leaving or not (2 <= r < s) or gcd(r, s) != 1:
        return None
    scaled = [k // r for k in leaving]
    if min(scaled) > 0 or max(scaled) < 0:
        return None
    return restate_by_residue(s, vals, scaled, r, pattern)
