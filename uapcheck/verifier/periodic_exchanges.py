"""Theorem F117 (docs/theory.md §11.11), restated for the verifier: `blocks(b)` with non-cyclic window, dilated and
offsets parts (jumps S) whose periodic symmetries exchange residues mod b, where F116's ball certificate fails.

Γ_∞ is the pattern on Z (j → i when i ≠ j share a block {kb + 1, …, kb + b} or j − i ∈ S). A periodic symmetry is an
automorphism α of Γ_∞ with α(kb + x) = εkb + a_x (ε = ±1, x = 1, …, b); the verifier finds them itself (a search over
a_1 ∈ [1, b], a_x within J of a_1 with distinct residues and isomorphic radius-2 balls, keeping arcs and non-arcs
between the assigned residues, and a last check that every arc into [1, b] goes to an arc: then α is a bijection of Z
mapping the finitely many translation orbits of arcs injectively into themselves, so an automorphism). The
certificate at radius R relative to them: (C1′) isomorphic residue balls only within an orbit of the symmetries;
(C2′) |Aut β(x)| = |Stab(x)| times the order with the first level coloured one by one; (C5) a symmetry fixing x, not
the identity, moves every U-neighbour y of x or a common U-neighbour of x and y; (C3) no ball of a non-deep position
of Γ_n is isomorphic to a residue's; (C4) every 2J + b consecutive positions and the deep positions near each end are
U-connected. Then |G(n + b)| = |G(n)| for n ≥ N_G, whose value the verifier computes itself as the theorem states it.

The verifier's own values: D by F115 (``periodic_lines.diameter_part``: its own min-plus powers and BFS), |G| and the
automorphisms fixing the deep positions (K) with nauty on its own arcs at one length per residue of n mod b from N_G,
and the stated range re-derived downwards (BFS and nauty at every length); D + 1 layers, not least. The certificate's
list of periodic symmetries and its radius must be the verifier's own.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional, Sequence

import sympy

from . import patterns
from . import periodic_lines as lines

MAX_NODES = 200_000    # nodes of the search for the periodic symmetries
MAX_SYMMETRIES = 64    # |A / translations|

Symmetry = tuple[int, tuple[int, ...]]  # (ε, (a_1, …, a_b)): kb + x ↦ εkb + a_x
_GENERATOR = re.compile(r"i ↦ (i|n \+ 1 − i) \+ δ\(i mod \d+\) with δ = \(([^)]*)\)|the reflection i ↦ (n) \+ 1 − i")


def match(parts: list):
    """The verifier's Family of F117 for these union parts, or None: the parts as match_with asks, F115's D, no
    F116 certificate, and F117's certificate."""
    return match_with(parts, restated, _family)


def match_with(parts: list, restated_, family):
    """`family(b, restated_(b, S))` (F117, F122) when the parts are one `blocks(b)` whose arcs the line parts (the
    jumps S) do not already hold (else the union is the line pattern alone, which PAT-NORMAL gives and F40–F42
    decide) and the restatement holds; else None."""
    got = lines.blocks_and_jumps(parts)
    if got is None:
        return None
    b, jumps = got
    if set(range(1, b)) <= {abs(k) for k in jumps if -k in jumps}:
        return None
    found = restated_(b, jumps)
    return None if found is None else family(b, found, jumps)


def _apply(alpha: Symmetry, p: int, b: int) -> int:
    k, x = divmod(p - 1, b)
    return alpha[0] * k * b + alpha[1][x]


def _arc(j: int, i: int, b: int, jset: frozenset) -> bool:
    return i != j and ((i - 1) // b == (j - 1) // b or j - i in jset)


def _normal(alpha: Symmetry, b: int) -> Symmetry:
    """The translate with a_1 ∈ [1, b]."""
    t = b * ((alpha[1][0] - 1) // b)
    return alpha[0], tuple(a - t for a in alpha[1])


class _Search:
    """The backtracking search of ``symmetries``: a_1 ∈ [1, b] with residue 1's radius-2 ball, then a_x within J of a_1
    with an unused residue and x's ball, keeping arcs and non-arcs within J between the assigned residues; a full
    assignment is kept when every arc into [1, b] goes to an arc."""

    def __init__(self, b: int, jumps: tuple[int, ...]):
        self.b, self.jset = b, frozenset(jumps)
        self.span = max(b - 1, max(abs(k) for k in jumps))
        self.keys = [lines._certificate(lines._ball(x, 2, b, jumps, None), 2, b, jumps) for x in range(1, b + 1)]
        self.found: list[Symmetry] = []
        self.nodes = 0

    def consistent(self, sign: int, images: list[int]) -> bool:
        b, jset, span = self.b, self.jset, self.span
        x = len(images)
        alpha = (sign, tuple(images) + (0,) * (b - x))
        ax = images[-1]
        reach = span // b + 2
        for y in range(1, x + 1):
            for p in (k * b + y for k in range(-reach, reach + 1)):
                if p == x or abs(p - x) > span:
                    continue
                ap = _apply(alpha, p, b)
                if _arc(p, x, b, jset) != _arc(ap, ax, b, jset) or _arc(x, p, b, jset) != _arc(ax, ap, b, jset):
                    return False
        return True

    def arcs_kept(self, alpha: Symmetry) -> bool:
        b, jset = self.b, self.jset
        return all(_arc(_apply(alpha, j, b), _apply(alpha, i, b), b, jset)
                   for i in range(1, b + 1) for j in range(i - self.span, i + self.span + 1) if _arc(j, i, b, jset))

    def grow(self, sign: int, images: list[int], used: frozenset) -> bool:
        """False when the search is beyond its bounds."""
        b = self.b
        self.nodes += 1
        if self.nodes > MAX_NODES or len(self.found) > MAX_SYMMETRIES:
            return False
        if len(images) == b:
            if self.arcs_kept((sign, tuple(images))):
                self.found.append((sign, tuple(images)))
            return True
        key = self.keys[len(images)]
        for c in range(images[0] - self.span, images[0] + self.span + 1):
            if c % b not in used and self.keys[(c - 1) % b] == key and self.consistent(sign, images + [c]) \
                    and not self.grow(sign, images + [c], used | {c % b}):
                return False
        return True


def symmetries(b: int, jumps: tuple[int, ...]) -> Optional[list[Symmetry]]:
    """The periodic symmetries of Γ_∞, one per class modulo the translations by b (a_1 ∈ [1, b]); None when the
    search exceeds its bounds."""
    search = _Search(b, jumps)
    for sign in (1, -1):
        for first in range(1, b + 1):
            if search.keys[first - 1] == search.keys[0] and not search.grow(sign, [first], frozenset({first % b})):
                return None
    return sorted(search.found)


def _fixing(alpha: Symmetry, x: int, b: int) -> Optional[Symmetry]:
    t = x - _apply(alpha, x, b)
    return (alpha[0], tuple(a + t for a in alpha[1])) if t % b == 0 else None


def _around(p: int, b: int, jumps) -> set[int]:
    return lines._near(p, b, jumps, 1) | lines._near(p, b, jumps, -1)


def certificate_holds(b: int, jumps: tuple[int, ...], radius: int, found: Sequence[Symmetry]) -> bool:
    """(C1′), (C2′) and (C5) at the radius, relative to the symmetries found."""
    identity = (1, tuple(range(1, b + 1)))

    def moves_neighbours(x: int, stab: list) -> bool:  # (C5)
        near = _around(x, b, jumps)
        return all(all(_apply(s, y, b) != y or any(_apply(s, z, b) != z for z in near & _around(y, b, jumps))
                       for y in near) for s in stab if s != identity)
    return balls_certificate(b, jumps, radius, found, moves_neighbours)


def balls_certificate(b: int, jumps: tuple[int, ...], radius: int, found: Sequence[Symmetry], at_residue) -> bool:
    """(C1′), (C2′) at the radius, with `at_residue(x, the translates of the symmetries fixing x)` at each x in 1..b
    (F117's (C5), F122's (C5₀))."""
    certs = []
    for x in range(1, b + 1):
        stab = [s for s in (_fixing(a, x, b) for a in found) if s is not None]
        if not at_residue(x, stab):
            return False
        ball = lines._ball(x, radius, b, jumps, None)
        certs.append(lines._certificate(ball, radius, b, jumps))
        cells = lines._cells(ball, radius)
        pinned = [cells[0]] + [{v} for v in sorted(cells[1])] + cells[2:]
        if lines._order(sorted(ball), cells, b, jumps) != len(stab) * lines._order(sorted(ball), pinned, b, jumps):
            return False  # (C2′)
    orbit = {x: {(_apply(a, x, b) - 1) % b + 1 for a in found} for x in range(1, b + 1)}
    return all(certs[x - 1] != certs[y - 1] or y in orbit[x] for x in range(1, b + 1) for y in range(x + 1, b + 1))


def _deep(n: int, b: int, jumps, radius: int) -> set[int]:
    extent = {}
    for x in range(1, b + 1):
        ball = lines._ball(x, radius, b, jumps, None)
        extent[x] = (min(ball) - x, max(ball) - x)
    return {v for v in range(1, n + 1) if v + extent[(v - 1) % b + 1][0] >= 1 and v + extent[(v - 1) % b + 1][1] <= n}


def group_range(b: int, jumps: tuple[int, ...], radius: int, span: int, found: Sequence[Symmetry]) -> Optional[int]:
    """(C3), (C4) at one length per residue of n mod b, and N_G = 2RJ + 2W₀ + 2J + 2b + 4Δ + 2fJ, raised until the
    ends' U-distance f read there gives no more; None when a check fails."""
    reach, wide = radius * span, 2 * span + b
    if not all(lines._connected(set(range(x, x + wide)), b, jumps) for x in range(1, b + 1)):
        return None
    certs = {lines._certificate(lines._ball(x, radius, b, jumps, None), radius, b, jumps) for x in range(1, b + 1)}
    shift = max(abs(_apply(a, x, b) - a[0] * x) for a in found for x in range(1, b + 1))
    spread = max(max(_apply(a, x, b) - a[0] * x for x in range(1, b + 1))
                 - min(_apply(a, x, b) - a[0] * x for x in range(1, b + 1)) for a in found)
    fixed = 2 * reach + 2 * wide + 2 * span + 2 * b + 4 * (shift + spread + b)
    low = fixed
    for _ in range(4):
        far = 0
        for rho in range(b):
            n = low + (rho - low) % b
            deep = _deep(n, b, jumps, radius)
            near = [v for v in range(1, n + 1) if v not in deep]
            if any(lines._certificate(lines._ball(v, radius, b, jumps, n), radius, b, jumps) in certs for v in near):
                return None  # (C3)
            if not (lines._connected(deep & set(range(1, reach + wide + 1)), b, jumps)
                    and lines._connected(deep & set(range(n - reach - wide + 1, n + 1)), b, jumps)):
                return None  # (C4)
            outs = patterns.union_out([patterns.head_arcs(lines._pattern(b, jumps), n)], n)
            both = [sorted(set(outs[v]) | {u for u in range(1, n + 1) if v in outs[u]}) for v in range(n + 1)]
            d_left, d_right = patterns.bfs(both, reach + 1), patterns.bfs(both, n - reach)
            for v in near:
                d = d_left[v] if v <= reach else d_right[v]
                far = max(far, d if d is not None else 10 ** 9)
        need = fixed + 2 * far * span
        if need <= low:
            return low
        low = need
    return None


def orders_at(n: int, b: int, jumps, radius: int) -> tuple[int, int]:
    """(|Aut Γ_n|, the order of the automorphisms fixing every deep position), nauty on the verifier's arcs."""
    import pynauty

    from . import groups, nauty_graph
    arcs = patterns.head_arcs(lines._pattern(b, jumps), n)
    deep = _deep(n, b, jumps, radius)
    out = []
    for cells in ([set(range(1, n + 1))], [set(range(1, n + 1)) - deep] + [{v} for v in sorted(deep)]):
        graph, _ = nauty_graph.build(n, {a: 1 for a in arcs}, cells)
        out.append(groups.order(nauty_graph.position_generators(pynauty.autgrp(graph)[0], n), n))
    return out[0], out[1]


@lru_cache(maxsize=32)
def restated(b: int, jumps: tuple[int, ...]):
    """(stated low, N₀, σQ, c, D at N₀ …, R, N_G, (|G|, |K|) by n mod b, the symmetries), or None."""
    if lines.restated(b, jumps) is not None:
        return None  # F116's certificate holds: Theorem F116 decides the group
    line = lines.diameter_part(b, jumps)
    if line is None:
        return None
    span, low, period, growth, base = line
    found = symmetries(b, jumps)
    identity = (1, tuple(range(1, b + 1)))
    reflection = (-1, tuple(1 - x + b for x in range(1, b + 1)))
    plain = {identity} | ({reflection} if set(jumps) == {-k for k in jumps} else set())
    if found is None or set(found) <= plain:
        return None
    for radius in range(1, lines.MAX_RADIUS + 1):
        if not certificate_holds(b, jumps, radius, found):
            continue
        group_low = group_range(b, jumps, radius, span, found)
        if group_low is None:
            return None
        classes = [(0, 0)] * b
        for rho in range(b):
            classes[rho] = orders_at(group_low + (rho - group_low) % b, b, jumps, radius)
        stated = _onset(b, jumps, radius, span, max(low, group_low), low, period, growth, base, tuple(classes))
        return stated, low, period, growth, base, radius, group_low, tuple(classes), tuple(found)
    return None


def _onset(b: int, jumps, radius: int, span: int, proved: int, low: int, period: int, growth: int, base: tuple,
           classes: tuple) -> int:
    """The stated range: downwards from the proved one while the length below has F115's D (BFS on the verifier's
    arcs) and the class's |G| and |K| (nauty), not below max(61, 2(RJ + J) + 1)."""
    floor_ = max(61, 2 * (radius + 1) * span + 1)
    n = proved
    while n - 1 >= floor_:
        m = n - 1
        arcs = patterns.head_arcs(lines._pattern(b, jumps), m)
        worst = patterns.diameter(patterns.union_out([arcs], m), m)
        if worst != base[(m - low) % period] + growth * ((m - low) // period):
            return n
        if orders_at(m, b, jumps, radius) != classes[m % b]:
            return n
        n = m
    return n


class _Values:
    """The verifier's F117 values for one union: D by F115, |G| and |K| by n mod b, the symmetries and the radius."""
    theorem = "F117"

    def __init__(self, b: int, found: tuple):
        self.b = b
        (self.stated, self.low, self.period, self.growth, self.base, self.radius, self.group_low, self.classes,
         self.symmetries) = found

    def diameter(self, n):
        return lines.periodic_diameter(n, self.low, self.period, self.growth, self.base)

    def order(self, n):
        from .families import ResidueLength
        rho = n.rho % self.b if isinstance(n, ResidueLength) else int(n) % self.b
        return sympy.Integer(self.classes[rho][0])

    def class_named(self, text: str, rho: int) -> bool:
        """A class's words name K by its order (when not trivial) and the extending symmetries by theirs, each
        generator they state (i ↦ i + δ(i mod b), i ↦ n + 1 − i + δ(i mod b), the reflection) one of the verifier's
        periodic symmetries."""
        whole, kernel = self.classes[rho]
        extending = whole // kernel
        if whole == 1:
            return text.strip() == "trivial"
        if extending > 1:
            stated = self.stated_generators(text, rho)
            if not stated or not set(stated) <= set(self.symmetries):
                return False
        return ((kernel == 1 or (f"(order {kernel})" in text and "keep the arcs" in text))
                and (extending == 1 or (f"(order {extending})" in text and "periodic symmetries" in text)))

    def stated_generators(self, text: str, rho: int) -> Optional[list[Symmetry]]:
        """The generators the words state, as periodic maps of Z (kb + x ↦ εkb + a_x, normalised), read at a length
        n ≡ rho (mod b); None when a δ is not b integers."""
        b, out = self.b, []
        for m in _GENERATOR.finditer(text):
            sign = 1 if m.group(1) == "i" else -1
            try:
                delta = [0] * b if m.group(2) is None else [int(v.replace("−", "-")) for v in m.group(2).split(", ")]
            except ValueError:
                return None
            if len(delta) != b:
                return None
            start = rho + 1 if sign < 0 else 0  # n + 1 ≡ rho + 1 (mod b)
            out.append(_normal((sign, tuple(start + sign * x + d for x, d in zip(range(1, b + 1), delta))), b))
        return out

    def name(self, text: str) -> bool:
        pieces = re.split(rf"(?:^|; )for n mod {self.b} = (\d+): ", text)
        if len(pieces) == 1:  # at an integer n: the words of one class (data_check asks n's own)
            return any(self.class_named(text, rho) for rho in range(self.b))
        named = {int(rho): words for rho, words in zip(pieces[1::2], pieces[2::2])}
        return pieces[0] == "" and sorted(named) == list(range(self.b)) and \
            all(self.class_named(named[r], r) for r in named)

    def data_check(self, data: dict, n: Optional[int]) -> Optional[str]:
        """The symmetries and radius are the verifier's; the group's words name each class's K and extending
        symmetries by their orders (at an integer n, n's class; at symbolic n, every class, one by one)."""
        b = self.b
        words = data.get("name")
        if not isinstance(words, str):
            return "the group is not named"
        if n is None and not re.match(rf"for n mod {b} = \d+: ", words):
            return f"the group is not named class by class of n mod {b}"
        if n is not None and not self.class_named(words, n % b):
            return f"the group {words[:80]!r} is not Theorem {self.theorem}'s for n ≡ {n % b} (mod {b})"
        stated = data.get("periodic symmetries")
        if not isinstance(stated, dict):
            return f"the periodic symmetries of Theorem {self.theorem} are not given"
        if stated.get("radius") != self.radius:
            return f"the certificate radius {stated.get('radius')!r} is not the verifier's {self.radius}"
        listed = stated.get("symmetries")
        if not isinstance(listed, list):
            return "the periodic symmetries are not a list of [sign, images]"
        try:
            mine = {_normal((int(s), tuple(int(a) for a in images)), b) for s, images in listed}
            ok = len(mine) == len(listed) and all(len(images) == b and s in (1, -1) for s, images in listed)
        except (TypeError, ValueError):
            return "the periodic symmetries are not a list of [sign, images]"
        if not ok or mine != set(self.symmetries):
            return (f"the periodic symmetries stated ({len(listed)}) are not the verifier's own "
                    f"({len(self.symmetries)}, found by its search on Z)")
        return None


def values_family(v: _Values, instances_text: str, jumps: tuple = ()):
    """The Family of F117 or F122 from the verifier's values (D by F115, |G| by n mod b; D + 1 layers, or D, least,
    where Theorem F118's premise holds on the verifier's own check, S = −S)."""
    from .families import Family
    from .periodic_least import family_fields
    layers = ({"least": False, "layers_by": lambda n: v.diameter(n) + 1}
              if not jumps or set(jumps) != {-k for k in jumps} else
              family_fields(v.b, tuple(jumps), v.stated, v.low, v.group_low, v.radius, v.diameter, v.theorem))
    return Family(v.theorem, v.stated, 0, 0, order=v.order, modulus=v.b, name=v.name, witness=None,
                  diameter_at=v.diameter, period=v.period, data_check=v.data_check, instances_text=instances_text,
                  **layers)


def _family(b: int, found: tuple, jumps: tuple = ()):
    v = _Values(b, found)
    return values_family(v, (f"the verifier's own periodic symmetries ({len(v.symmetries)} modulo translation), "
                             f"ball certificate at radius {v.radius}, N_G = {v.group_low}, |G| by n mod {b} with "
                             f"nauty from N_G, the range re-derived by BFS and nauty; instances n = {v.stated}.."
                             f"{v.stated + v.period} re-checked on the verifier's arcs"), jumps)
