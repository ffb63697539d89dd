"""Theorem F91 (docs/theory.md §11.11), restated for the verifier: `strided(s)` united with non-cyclic `window`,
`dilated` and `offsets` parts (jumps S) where the jumps S′ = {k ∈ S : s ∤ k} share the factor r = gcd(S′) with
2 ≤ r < s and gcd(r, s) = 1, S′/r has both signs and F28's ball certificate (radius R). For n ≥ max(N₀, r·N_G, r·s,
s(4J + 3)), J = max |S|, N₀ = 4·K₀·J + 2s as in F74, N_G F41's range for S′/r: G = the reflection when S′ = −S′, else
trivial; D depends on n mod s only; D + 1 layers (not least).

Theorem F92 is the same with r > s (and s ≥ 2, gcd(r, s) = 1), where lines starting in one class can be exchanged: G is
the permutations that map each line {a, a + r, …} onto a line of the same length in order (or reversed, when
S′ = −S′) so that every line moves the classes mod s by one and the same map; its order depends on n mod rs only. The
verifier counts it its own way (for each map of Z_s, the permanent of the lines' r × r matrix of admissible images, by
dynamic programming over subsets), and the instance check compares it with nauty on its own arcs.

The verifier's own jump sets, factor, residue costs, ranges, ball certificate (nauty, ``circulant_general._ball_rigid``)
and D at one length per residue from N₀ by breadth-first search on its own arcs (``strided_lines.diameter_on_arcs``).
"""
from __future__ import annotations

from functools import lru_cache
from math import gcd
from typing import Optional

import sympy

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
    if s is None or s < 2 or jumps is None:
        return None
    found = restated(s, tuple(jumps), S.PatternUnion(tuple(parts)))
    if found is None:
        return None
    low, table, symmetric, r = found
    vals = sorted(set(jumps) - {0})
    if r < s:
        return family_by_residue("F91", s, low, table, symmetric, S.PatternUnion(tuple(parts)), vals)
    return _exchanges_family(s, r, low, table, symmetric, S.PatternUnion(tuple(parts)), vals)


def _exchanges_family(s: int, r: int, low: int, table: dict, symmetric: bool, pattern: S.Pattern, vals: list):
    """F92's Family: D by residue of n mod s, |G| by residue of n mod rs (the verifier's own count), D + 1 layers."""
    from .families import Family
    from .symbolic_unions import _residue_of
    base = family_by_residue("F92", s, low, table, symmetric, pattern, vals)
    period = r * s

    def order(n):
        found = _residue_of(n, period)
        rho = int(n) % period if found is None else found[1]
        n0 = low + (rho - low) % period      # a length of that residue in the range: the order is constant there
        return sympy.Integer(exchange_count(n0, s, r, symmetric))

    def name(text):
        return "onto a line of the same length" in text and f"residue classes mod {s}" in text

    return Family("F92", low, 0, 0, base.least, order, period, name, None, diameter_at=base.diameter_at, period=s,
                  layers_by=base.layers_by, layers_check=base.layers_check, layers_text=base.layers_text)


@lru_cache(maxsize=4096)
def exchange_count(n: int, s: int, r: int, symmetric: bool) -> int:
    """The permutations of 1..n mapping every line Λ_a = {a, a + r, …} (a = 1..r) onto a line of the same length, in
    order or (symmetric) reversed, with one induced map of the classes mod s for all lines: for each candidate map π
    of Z_s (read off line 1's image), the permanent of the matrix m[a][b] = how many orientations send Λ_a onto Λ_b
    inducing π."""
    lines = [list(range(a, n + 1, r)) for a in range(1, r + 1)]
    candidates = set()
    for b in range(r):
        for seq in (lines[b], lines[b][::-1]) if symmetric else (lines[b],):
            if len(seq) == len(lines[0]):
                candidates.add(_induced(lines[0], seq, s))
    total = 0
    for pi in candidates:
        if pi is None:
            continue
        m = [[sum(1 for seq in ((lines[b], lines[b][::-1]) if symmetric else (lines[b],))
                  if len(seq) == len(lines[a]) and _induced(lines[a], seq, s) == pi)
              for b in range(r)] for a in range(r)]
        total += _permanent(m)
    return total


def _induced(source: list, target: list, s: int):
    """The map of Z_s taking the class of source[k] to that of target[k] for every k, or None if there is none."""
    image: dict = {}
    for u, v in zip(source, target):
        if image.setdefault(u % s, v % s) != v % s:
            return None
    return tuple(image.get(x) for x in range(s))


def _permanent(m: list) -> int:
    """Σ over bijections β of ∏ m[a][β(a)], by dynamic programming over the set of columns used."""
    r = len(m)
    ways = {0: 1}
    for a in range(r):
        nxt: dict = {}
        for used, w in ways.items():
            for b in range(r):
                if m[a][b] and not used >> b & 1:
                    key = used | 1 << b
                    nxt[key] = nxt.get(key, 0) + w * m[a][b]
        ways = nxt
    return sum(ways.values())


@lru_cache(maxsize=64)
def restated(s: int, jumps: tuple, pattern: S.Pattern) -> Optional[tuple[int, dict, bool, int]]:
    """(the range's start, D by residue of n mod s on the pattern's own arcs, S′ = −S′, r), or None when neither F91
    nor F92 applies."""
    vals = sorted(set(jumps) - {0})
    if not vals or max(abs(k) for k in vals) > MAX_JUMP:
        return None
    leaving = [k for k in vals if k % s]
    r = 0
    for k in leaving:
        r = gcd(r, abs(k))
    if not leaving or r < 2 or gcd(r, s) != 1 or (r < s and s < 3) or (r > s and (r > 12 or r * s > 120)):
        return None
    scaled = [k // r for k in leaving]
    if min(scaled) > 0 or max(scaled) < 0:
        return None
    found = restate_by_residue(s, vals, scaled, r, pattern)
    return None if found is None else found + (r,)
