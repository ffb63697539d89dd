"""Theorem F118 (docs/theory.md §11.11), restated for the verifier: `blocks(b)` with symmetric non-cyclic window,
dilated and offsets parts (S = −S) whose diameter Theorem F115 gives and whose group Theorem F116, F117 or F122 gives
with a ball certificate of radius R from N_G: D layers suffice (so they are least) at every n from the range's start
when no view witness exists at depth D at every length from that start to N₁ − 1, with
N₁ = max(max(N₀, N_G) + P, 2Z + (t₀ + 2)Q + P, 2(Z + RJ + W) + P + Q), P = σQ, Z = (h + σ + 2)Q, W = 3J + 4b
(past N₁ a view witness at n gives one at n − P: the cut argument of the theorem).

The verifier's own restatement: Q, σ, t₀ and h from its own distances on Z and min-plus powers
(``periodic_lines``), N₀ and N_G from its own restatements of F115 and the group theorem, and at each length its own
arcs (``patterns.head_arcs``), all distances by growing every position's ball at once on an index array of its closed neighbourhoods (numpy), and, at each
root with positions at distance D, the rooted view (its arcs without those among the far positions, coloured by the
distance to the root) with nauty: the orders by Schreier–Sims on nauty's generators and the canonical certificates.
No view witness iff Σ over those roots of |Aut R_i|·#{j : R_j ≅ R_i} equals their number times |Aut Γ_n| (every
isomorphism between two rooted views of one head is a witness unless it is in G, and G gives one per root).
No engine code.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Optional

import sympy

from .. import spec as S
from . import patterns

MAX_TOP = 420
MAX_CHECK = 10_000_000


@lru_cache(maxsize=32)
def chain_constants(b: int, jumps: tuple[int, ...]) -> Optional[tuple[int, int, int, int, int]]:
    """(J, Q, σ, t₀, h) of F115 from the verifier's own distances on Z and min-plus powers, or None."""
    from math import gcd

    from . import periodic_lines as lines
    span = max(b - 1, max(abs(k) for k in jumps))
    q = b * ((span + b - 1) // b)
    fwd, bwd = [], []
    for x in range(1, q + 1):
        d = lines._z_distances(x, set(range(q + 1, 2 * q + 1)), b, jumps, 1)
        e = lines._z_distances(q + x, set(range(1, q + 1)), b, jumps, 1)
        if d is None or e is None:
            return None
        fwd.append(tuple(d[q + y] for y in range(1, q + 1)))
        bwd.append(tuple(e[y] for y in range(1, q + 1)))
    law_f, law_b = lines._power_law(tuple(fwd)), lines._power_law(tuple(bwd))
    if law_f is None or law_b is None:
        return None
    (tf, sf, _), (tb, sb, _) = law_f, law_b
    sigma = sf * sb // gcd(sf, sb)
    top = max(max(map(max, fwd)), max(map(max, bwd)))
    return span, q, sigma, max(tf, tb), (top * span + q - 1) // q + 1


def premise_top(b: int, jumps: tuple[int, ...], diameter_low: int, group_low: int, radius: int) -> Optional[int]:
    """N₁ (above), or None without F115's constants."""
    found = chain_constants(b, jumps)
    if found is None:
        return None
    span, q, sigma, start, zone = found
    period, far, margin = sigma * q, (zone + sigma + 2) * q, 3 * span + 4 * b
    return max(max(diameter_low, group_low) + period, 2 * far + (start + 2) * q + period,
               2 * (far + radius * span + margin) + period + q)


def _pattern(b: int, jumps: tuple[int, ...]) -> S.Pattern:
    return S.PatternUnion((S.Blocks(b), S.Offsets(tuple(sorted(jumps)))))


def _distances(near: list[set], n: int):
    """The matrix of all distances (numpy, rows and columns 0..n − 1): the balls of every row grown one level at a
    time, a position joining the ball when one of its neighbours is in it (an index array of closed
    neighbourhoods)."""
    import numpy as np
    width = max(len(near[v]) for v in range(1, n + 1)) + 1
    index = np.array([[v - 1] + [u - 1 for u in sorted(near[v])] + [v - 1] * (width - 1 - len(near[v]))
                      for v in range(1, n + 1)], dtype=np.int64)
    dist = np.full((n, n), -1, dtype=np.int64)
    reach: Any = np.eye(n, dtype=bool)
    dist[reach] = 0
    level = 0
    while True:
        grown: Any = reach[:, index].any(axis=2)
        level += 1
        fresh = grown & ~reach
        if not fresh.any():
            break
        dist[fresh] = level
        reach = grown
    return dist


def _view(near: list[set], n: int, dist_row, d: int):
    """The rooted view as a nauty graph (positions coloured by the distance to the root, capped at d; the edges with
    an end nearer than d) and its position generators."""
    import pynauty

    from . import nauty_graph
    arcs = {(u, v): 1 for u in range(1, n + 1) for v in near[u] if min(dist_row[u - 1], dist_row[v - 1]) < d}
    cells = [{v for v in range(1, n + 1) if min(int(dist_row[v - 1]), d) == k} for k in range(d + 1)]
    graph, _ = nauty_graph.build(n, arcs, cells)
    return graph, nauty_graph.position_generators(pynauty.autgrp(graph)[0], n)


def witness_problem(b: int, jumps: tuple[int, ...], n: int, d: int) -> Optional[str]:
    """None when the verifier's arcs at n have diameter d and no view witness at depth d, else the problem."""
    return _decision(b, jumps, n, d)[1]


@lru_cache(maxsize=512)
def _decision(b: int, jumps: tuple[int, ...], n: int, d: int) -> tuple[str, Optional[str]]:
    """("none", None) when the verifier's arcs at n have diameter d and no view witness at depth d, ("witness", words)
    when they have one, ("fail", words) when the arcs are not symmetric, not connected or of another diameter."""
    import pynauty

    from . import groups, nauty_graph
    arcs = patterns.head_arcs(_pattern(b, jumps), n)
    near: list[set] = [set() for _ in range(n + 1)]
    for j, i in arcs:
        near[i].add(j)
    if any((i, j) not in arcs for j, i in arcs):
        return "fail", f"n = {n}: the pattern is not symmetric"
    dist = _distances(near, n)
    if (dist < 0).any():
        return "fail", f"n = {n}: not connected"
    if int(dist.max()) != d:
        return "fail", f"n = {n}: the diameter is {int(dist.max())}, not {d}"
    whole_graph, _ = nauty_graph.build(n, {(u, v): 1 for u in range(1, n + 1) for v in near[u]}, [set(range(1, n + 1))])
    whole = groups.order(nauty_graph.position_generators(pynauty.autgrp(whole_graph)[0], n), n)
    roots = [i for i in range(1, n + 1) if int(dist[i - 1].max()) == d]
    orders, certificates = [], []
    for i in roots:
        graph, gens = _view(near, n, dist[i - 1], d)
        orders.append(groups.order(gens, n))
        certificates.append(pynauty.certificate(graph))
    total = sum(order * certificates.count(cert) for order, cert in zip(orders, certificates))
    if total != len(roots) * whole:
        return "witness", (f"n = {n}: a view witness at depth {d} ({total} isomorphisms between the {len(roots)} "
                           f"rooted views with far positions, {len(roots) * whole} from G)")
    return "none", None


@lru_cache(maxsize=32)
def _checked(b: int, jumps: tuple[int, ...], low: int, top: int, diameters: tuple[int, ...]) -> Optional[str]:
    for n, d in zip(range(low, top), diameters):
        problem = witness_problem(b, jumps, n, d)
        if problem:
            return problem
    return None


def least_problem(b: int, jumps: tuple[int, ...], low: int, diameter_low: int, group_low: int, radius: int,
                  diameter_at: Callable[[int], int]) -> Optional[str]:
    """None when F118's premise holds on the verifier's own check (D layers least from `low`), else why not."""
    if set(jumps) != {-k for k in jumps}:
        return "the jumps are not symmetric"
    top = premise_top(b, jumps, diameter_low, group_low, radius)
    if top is None:
        return "F115's constants are not found"
    if top - 1 > MAX_TOP or sum(n * n for n in range(low, top)) > MAX_CHECK:
        return f"the check up to n = {top - 1} is beyond the verifier's limit"
    return _checked(b, tuple(jumps), low, top, tuple(int(diameter_at(n)) for n in range(low, top)))


@lru_cache(maxsize=32)
def _classes(b: int, jumps: tuple[int, ...], low: int, top: int, diameters: tuple[int, ...], period: int):
    """(free, bound) residues of n mod `period`: no view witness at any length of the class from low to top − 1, or
    one at every such length; a string when a length fails otherwise (arcs, connectivity, D)."""
    kinds: dict[int, set] = {r: set() for r in range(period)}
    for n, d in zip(range(low, top), diameters):
        kind, words = _decision(b, jumps, n, d)
        if kind == "fail":
            return str(words)
        kinds[n % period].add(kind)
    return (tuple(r for r in range(period) if kinds[r] == {"none"}),
            tuple(r for r in range(period) if kinds[r] == {"witness"}))


def class_problem(b: int, jumps: tuple[int, ...], low: int, diameter_low: int, group_low: int, radius: int,
                  diameter_at: Callable[[int], int]):
    """F118 class by class of n mod P on the verifier's own check: (P, N₁, free residues, bound residues), or why the
    check does not run."""
    if set(jumps) != {-k for k in jumps}:
        return "the jumps are not symmetric"
    top = premise_top(b, jumps, diameter_low, group_low, radius)
    constants = chain_constants(b, jumps)
    if top is None or constants is None:
        return "F115's constants are not found"
    if top - 1 > MAX_TOP or sum(n * n for n in range(low, top)) > MAX_CHECK:
        return f"the check up to n = {top - 1} is beyond the verifier's limit"
    period = constants[1] * constants[2]
    if top - period < low:
        return f"the check from {low} to {top - 1} holds less than a period {period}"
    found = _classes(b, tuple(jumps), low, top, tuple(int(diameter_at(n)) for n in range(low, top)), period)
    if isinstance(found, str):
        return found
    return (period, top) + found


def _coarsest(period: int, residues) -> tuple:
    kept = set(residues)
    for m in range(1, period + 1):
        if period % m == 0 and all((r in kept) == (r % m in {k % m for k in kept}) for r in range(period)):
            return m, tuple(sorted({k % m for k in kept}))
    return period, tuple(sorted(kept))


def layers_text(low: int, top: int, period: int, theorem: str) -> str:
    return (f"D layers least (Theorem F118): no view witness at depth D at any length from {low} to {top - 1} by the "
            f"verifier's own rooted views (nauty), and past {top - 1} a witness at n gives one at n − {period} "
            f"({theorem}'s certificate pins it to a periodic symmetry in the middle, which is cut)")


def family_fields(b: int, jumps: tuple[int, ...], low: int, diameter_low: int, group_low: int, radius: int,
                  diameter: Callable, theorem: str) -> dict:
    """The Family fields of the layer count: D, least, with the instance check and the words, where F118's premise
    holds on the verifier's own check on every class of n mod P; D on the classes without a view witness and D + 1 on
    the others, least on those without one and those with one at every length checked (F118 (a) and (a′) class by
    class), with a least flag by class when some class is neither; else D + 1, not least."""
    found = class_problem(b, tuple(jumps), low, diameter_low, group_low, radius, lambda n: int(diameter(n)))
    if isinstance(found, str) or not found[2] and not found[3]:
        return {"least": False, "layers_by": lambda n: diameter(n) + 1}
    period, top, free, bound = found
    if len(free) == period:
        def instance(n: int, d: int) -> Optional[str]:
            return witness_problem(b, tuple(jumps), n, d)
        return {"least": True, "layers_by": diameter, "layers_check": instance,
                "layers_text": layers_text(low, top, period, theorem)}
    plus = [r for r in range(period) if r not in free]
    least = set(free) | set(bound)

    def layers_by(n):
        if isinstance(n, (int, sympy.Integer)):
            return diameter(n) + (1 if int(n) % period in plus else 0)
        return diameter(n) + sympy.Piecewise((1, sympy.Or(*[sympy.Eq(sympy.Mod(n, period), r) for r in plus])),
                                             (0, True))

    def check(n: int, d: int) -> Optional[str]:
        kind, words = _decision(b, tuple(jumps), n, d)
        if kind == "fail" or (kind == "witness") != (n % period in plus) and n % period in least:
            return words or f"n = {n}: no view witness at depth {d}, where Theorem F118's class has one"
        return None
    text = (f"Theorem F118 class by class of n mod {period} on the verifier's own rooted views (nauty) at every length "
            f"from {low} to {top - 1}: D layers least for n mod {period} in {sorted(free)} (no view witness there; past "
            f"{top - 1} a witness at n gives one at n − {period}, {theorem}'s certificate pinning it to a periodic "
            f"symmetry in the middle, which is cut), D + 1 layers least for n mod {period} in {sorted(bound)} (a view "
            f"witness at every length; from {top - period} on a witness at n gives one at n + {period}, a period "
            "inserted)")
    mixed = sorted(set(plus) - set(bound))
    if mixed:
        text += f", D + 1 layers not claimed least for n mod {period} in {mixed}"
    return {"least": len(least) == period, "layers_by": layers_by, "layers_check": check, "layers_text": text,
            "least_classes": () if len(least) == period else _coarsest(period, least)}
