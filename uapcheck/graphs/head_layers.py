"""The least layer count of several heads with different patterns at symbolic n, from the union of their arcs
(docs/theory.md §11.11, Theorems F70–F71; open question O8).

The heads have independent parameters, so their group is G = ∩_h Aut(Γ_h) ⊆ Aut(Γ), Γ the union (§11.4),
and the view condition of §11.2 reads every head: σ satisfies it at i when σ(N_h(v)) = N_h(σ v) for every
head h and every v within D − 1 of i (distances in the union, so the ball B_i is the union's). Keeping
every head's neighbourhood keeps the union's, so a witness of the heads satisfies the union's condition.

* F70 (equal groups). When the union's family theorem proves that D layers suffice for Γ in one head, and G
  has the order of Aut(Γ) on every residue class (G ⊆ Aut(Γ), so G = Aut(Γ)), then a witness of the heads
  would be a witness of the union (outside G = Aut(Γ)), which the theorem excludes: D layers suffice for
  the heads, and they are the least (§11.1).
* F71 (a kept witness). When the union's theorem proves D = 2 and gives the swap σ = (a b) as a view witness
  at i (so σ ∉ Aut(Γ) ⊇ G), σ is a witness of the heads iff a, b ∉ B_i and every head's N_h(v), v ∈ B_i,
  holds both of a, b or neither. With i, a, b within E of the ends of [1, n] (in each residue class of n
  mod M they are c or n + c with c fixed), the truth of that statement is one and the same at every
  n ≥ N = 2(E + K + 1) + max(L, K + 1) of the class (the profile argument of F71): it is checked at every
  length from the union's bound up to N + M − 1, on the heads' arcs.

* F124 (the reflection broken everywhere). When the union's theorem proves D layers with Aut(Γ) = {id, ρ}, ρ the
  reflection, a witness of the heads would be ρ itself (it meets the union's condition, so it lies in Aut(Γ), and
  it is not the identity); ρ is none where every position's neighbourhood in some head is moved by ρ, which is read
  within K of the position, so the profile argument carries it from one period of lengths to every length.

* F198 (lemma X: F124 read on the ball). ρ is ruled out at a root i as soon as it moves some head's neighbourhood of
  one position of i's ball; (X₁) asks it of a position within K of i that i attends to (or of i), which is local again
  and carried by the same profile argument with zones grown by K. F86's and F192's F124 classes fall back to it.

* F236 (with F235, lemma AR: the heads' witnesses are the union's automorphisms outside G that move some head's
  neighbourhood only at positions far from the root). For the pairs proved there (`UNION_AUTOMORPHISM_PAIRS`: the two
  heads, the range's start, the modulus and the residues that need D + 1), the count by class, least, when the union's
  theorem is the one the proof reads (F21: D layers suffice for the union, its group the twins and the reflection).

* F192 (F70 and F124 class by class at a growing D). Neither argument reads D's value: where the union's theorem (or
  §11.2, item 4 for a non-cyclic window) proves D layers with D any closed form and the reflection as its group, and
  every class of n mod M is an F70 class or an F124 class, D layers are least on every class.

Both answers come with the union's range; anything else (no union theorem, groups that differ on some
class, a witness that is not a swap near the ends, D ≠ 2) is left to the count D + 1, not shown least.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Mapping, Optional, Sequence

import sympy
from sympy import Integer

from ..memo import exact_cache
from ..spec import Pattern, PatternUnion
from .closed_forms import GroupCase, _atoms, _is_int, _merge, _Undecided

SECTION = "docs/theory.md §11.11, Theorems F70–F71"
#: F71 checks every length from the union's bound up to N + M − 1; no claim is made when that exceeds this.
MAX_CHECKED_N = 400


@dataclass(frozen=True)
class HeadLayers:
    """The heads' least layer count for every n ≥ ``low``: ``layers`` (D under F70, D + 1 under F71), the union's
    theorem ``union_theorem``; F71's swap ``witness`` = (position, (a, b)) in n, its class modulus ``modulus``,
    the part size ``reach`` (K), the lcm ``period`` (L) and the length ``start`` (N) of its profile argument."""
    theorem: str
    union_theorem: str
    low: int
    diameter: sympy.Expr
    layers: sympy.Expr
    witness: Optional[tuple] = None
    modulus: int = 1
    reach: int = 0
    period: int = 1
    start: int = 0
    intersection: Optional[object] = None  # F70, F86: the heads' group (head_intersection.Intersection, or F86's
    #                                        partition_heads.PartitionGroup)
    classes: tuple = ()  # F86: one ClassLayers per residue of n mod ``modulus``
    far_ends: Optional[object] = None  # F75: straight_heads.FarEnds
    cyclic_heads: Optional[object] = None  # F143: cyclic_window_heads.CyclicHeads
    directed_heads: Optional["DirectedHeads"] = None  # F191: the union's w and A, the rounds, D + 1 by class
    growing: tuple = ()  # F192: one GrowingClass per residue of n mod ``modulus`` (D layers on each, D any closed form)
    extra_residues: tuple = ()  # F236: the residues of n mod ``modulus`` that need D + 1 layers (D on the others)

    @property
    def section(self) -> str:
        return f"docs/theory.md §11.11, Theorem {self.theorem}"


@dataclass(frozen=True)
class DirectedHeads:
    """Theorem F191's data: the union is `window(w) cyclic` with the non-cyclic offsets ``outside`` (A ≠ −A), the
    colour premise or the far swap checked with ``rounds`` rounds at every length from the range's start through
    ``proved_low`` + P − 1; ``extra`` is 0 (D layers) or 1 (D + 1) by residue of n mod P."""
    w: int
    outside: tuple
    rounds: int
    proved_low: int
    extra: tuple


@dataclass(frozen=True)
class ClassLayers:
    """F86 on the class n ≡ ``residue`` (mod the answer's modulus): ``layers`` = D (the union's theorem proves D
    layers there and the heads' group has the union's order on the class) or D + 1 = 3 with the union's swap
    ``witness`` (position, (a, b)) in n, which meets every head's view condition on the class from ``low``."""
    residue: int
    layers: int
    low: int
    witness: Optional[tuple] = None
    found_by: str = ""  # "F70": D, the groups equal; "F71": the union theorem's swap; "F88": the heads' own swap;
    #                     "F127": a permutation of the heads' own near the ends (``permutation``), 3 layers;
    #                     "F76": D = 2, partition heads whose balls hide at most one part of each head;
    #                     "F124": D, the union's group the reflection, which moves some head's neighbourhood at every
    #                     position (so the heads' group is smaller and still no witness); "F198": the same with the
    #                     moved neighbourhood at a position of every ball within K of its root ((X₁))
    permutation: Optional[tuple] = None  # F127: (position, ((x, σ(x)), ...)) in n, the points the witness moves


def _lcm(a: int, b: int) -> int:
    return a * b // gcd(a, b)


def _moduli(expr, n: sympy.Symbol) -> int:
    """The lcm of the q for which the expression depends on n mod q (floor, ceiling of n/q, Mod(n, q))."""
    m = 1
    for f in expr.atoms(sympy.floor, sympy.ceiling, sympy.Mod):
        arg = f.args[0]
        if isinstance(f, sympy.Mod):
            q = f.args[1]
            if not q.is_Integer:
                raise ValueError("a modulus that is not an integer")
            m = _lcm(m, int(q))
            continue
        coeff = sympy.Rational(sympy.expand(arg).coeff(n, 1))
        m = _lcm(m, int(coeff.q))
    return m


@exact_cache(maxsize=512)
def _simplified(expr):
    """sympy.simplify, kept per process (uapcheck/memo.py): a function of its argument alone, and the same closed
    forms are simplified again when F70/F71 are matched for the rule, its instance check and the kernel's re-match."""
    from ..zero import simplified  # without the call where simplify returns its argument (4k + 1, say)
    return simplified(expr)


def _in_class(expr, n: sympy.Symbol, modulus: int, residue: int, k: sympy.Symbol):
    return _simplified(sympy.sympify(expr, strict=True).xreplace({n: modulus * k + residue}))  # safe: strict (no text parsed)


@dataclass(frozen=True)
class GrowingClass:
    """F192 on the class n ≡ ``residue`` (mod the answer's modulus): D layers, least, for n ≥ ``low`` of the class,
    ``found_by`` "F70" (the heads' group has the union's order on the class), "F124" (the union's only symmetry,
    the reflection, moves some head's neighbourhood within K of every position, checked up to the profile bound) or
    "F198" (it moves one at a position within K of every position, in its ball: (X₁), checked up to its bound)."""
    residue: int
    low: int
    found_by: str


# ---------------------------------------------------------------------------------------------
# F70: the union's D suffices and the groups are equal

def equal_groups(union, cases: Sequence[GroupCase], n: sympy.Symbol) -> Optional[HeadLayers]:
    """F70: the union's theorem proves D layers (least) and G has the union's order on every residue class."""
    if (union is None or union.layers is None or not union.least or union.order is None or union.coprime_to > 1
            or union.low.free_symbols or not union.diameter_exact):
        return None
    if _simplified(union.layers - union.diameter) != 0:
        return None
    found = _intersection_of(cases)
    if found is None:
        return None
    from .head_intersection import describe
    try:
        modulus = _lcm(found.modulus, _moduli(sympy.sympify(union.order, strict=True), union.n_symbol))  # safe: strict (no text parsed)
    except (ValueError, TypeError):
        return None
    k = sympy.Symbol("k", integer=True, positive=True)
    union_order = sympy.sympify(union.order, strict=True).xreplace({union.n_symbol: n})  # safe: strict (no text parsed)
    for residue in range(modulus):
        cls = found.classes[residue % found.modulus]
        named = describe(cls, n)
        if named is None:
            return None
        diff = _in_class(named[0] - union_order, n, modulus, residue, k)
        if diff != 0:
            return None
    low = max([int(union.low)] + [c.low for c in found.classes])
    diameter = union.diameter.xreplace({union.n_symbol: n})
    return HeadLayers("F70", union.theorem, low, diameter, diameter, modulus=modulus, intersection=found)


def _intersection_of(cases: Sequence[GroupCase]):
    """The one decision of graphs/head_intersection.py behind the heads' group cases, or None."""
    from .head_intersection import Intersection
    pairs = [c.intersection for c in cases
             if isinstance(c.intersection, tuple) and isinstance(c.intersection[0], Intersection)]
    found = {id(pair[0]): pair[0] for pair in pairs}
    if len(found) != 1:
        return None  # (the cases without one are the small lengths below every class's range)
    return next(iter(found.values()))


# ---------------------------------------------------------------------------------------------
# F71: the union's swap witness, kept by every head

def swap_ball(heads: Sequence, n: int, position: int) -> frozenset:
    """B = {v : some head has the arc v → position} ∪ {position} (1 ≤ position ≤ n)."""
    return frozenset(v for v in range(1, n + 1) if any(_sees(g, n, position, v) for g in heads))


def heads_keep_swap(heads: Sequence, n: int, position: int, a: int, b: int, ball: Optional[frozenset] = None) -> bool:
    """σ = (a b) meets the view condition of every head at ``position`` with D = 2: a, b are not in the ball
    B = {v : some head has the arc v → position} ∪ {position}, and every head's N_h(v), v ∈ B, holds both of
    a, b or neither. ``heads``: the heads' PatternGraphs at n; ``ball``: B when the caller has it (swap_ball), for
    many swaps at one position."""
    if not (1 <= position <= n and 1 <= a <= n and 1 <= b <= n) or a == b:
        return False
    if ball is None:
        ball = swap_ball(heads, n, position)
    if a in ball or b in ball:
        return False
    return all(_sees(g, n, v, a) == _sees(g, n, v, b) for v in ball for g in heads)


def _sizes(patterns: Sequence[Pattern], params: Mapping) -> Optional[tuple[int, int]]:
    from .head_intersection import reach_and_modulus
    try:
        return reach_and_modulus([_merge(_atoms(p, dict(params))) for p in patterns])
    except (_Undecided, KeyError, TypeError, ValueError):
        return None


def _end_offsets(expr, n: sympy.Symbol, modulus: int, k: sympy.Symbol) -> Optional[list[int]]:
    """Per residue class mod ``modulus``: the position's distance to its nearer end when it is c or n + c with
    c a fixed integer in the class (1 ≤ c, or c ≤ 0), else None."""
    out = []
    for residue in range(modulus):
        at = _in_class(expr, n, modulus, residue, k)
        left = _simplified(at)
        right = _simplified(at - (modulus * k + residue))
        if left.is_Integer and int(left) >= 1:
            out.append(int(left) - 1)
        elif right.is_Integer and int(right) <= 0:
            out.append(-int(right))
        else:
            return None
    return out


def kept_witness(patterns: Sequence[Pattern], union, n: sympy.Symbol, params: Mapping) -> Optional[HeadLayers]:
    """F71: the union's theorem proves D = 2 and D + 1 = 3 layers least with a swap witness near the ends; the
    swap meets every head's condition at every n from the returned bound (checked up to N + M − 1). When the
    union's own witness is split by a head, F31's witness of a union of globals and local parts is tried."""
    if (union is None or not union.least or union.layers is None or union.coprime_to > 1
            or union.low.free_symbols or not union.diameter_exact):
        return None
    if union.diameter != 2 or _simplified(union.layers - 3) != 0:
        return None
    found = None
    if union.witness is not None:
        pos, (a, b) = union.witness
        exprs = [sympy.sympify(e, strict=True).xreplace({union.n_symbol: n}) for e in (pos, a, b)]  # safe: strict (no text parsed)
        found = _kept(patterns, union.theorem, int(union.low), exprs, n, params)
    if found is None:
        hub = hub_witness(patterns, params)
        if hub is not None:
            low, (pos, a, b) = hub
            found = _kept(patterns, "F31", max(low, int(union.low)), [Integer(pos), Integer(a), Integer(b)], n, params)
    return found


def hub_witness(patterns: Sequence[Pattern], params: Mapping) -> Optional[tuple[int, tuple[int, int, int]]]:
    """Theorem F31's witness when the union of the heads is `global(g)` with window, offsets and dilated parts
    (every offset at most r): (its bound, (position g + 1, a = g + 2r + 2, a + 1))."""
    try:
        atoms = _merge([x for p in patterns for x in _atoms(p, dict(params))])
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    hubs = [x for x in atoms if x.kind == "global"]
    base = [x for x in atoms if x.kind != "global"]
    if len(hubs) != 1 or not base or not all(all(_is_int(v) for v in x.args) for x in atoms):
        return None
    reach = 0
    for x in base:
        args = [int(v) for v in x.args]
        if x.kind in ("window", "cwindow"):
            reach = max(reach, args[0])
        elif x.kind in ("offsets", "coffsets"):
            reach = max([reach] + [abs(k) for k in args])
        elif x.kind == "dilated":
            reach = max(reach, args[0] * args[1])
        else:
            return None
    if reach < 1:
        return None
    g = int(hubs[0].args[0])
    cyclic = any(x.kind in ("cwindow", "coffsets") for x in base)
    low = max(g + 3 * reach + 3, 4 * reach + 3) if cyclic else g + 3 * reach + 3
    a = g + 2 * reach + 2
    return low, (g + 1, a, a + 1)


def _kept(patterns: Sequence[Pattern], theorem: str, union_low: int, exprs: list, n: sympy.Symbol,
          params: Mapping) -> Optional[HeadLayers]:
    sizes = _sizes(patterns, params)
    if sizes is None:
        return None
    reach, period = sizes
    try:
        modulus = period
        for e in exprs:
            modulus = _lcm(modulus, _moduli(e, n))
    except (ValueError, TypeError):
        return None
    k = sympy.Symbol("k", integer=True, positive=True)
    ends = [_end_offsets(e, n, modulus, k) for e in exprs]
    if any(x is None for x in ends):
        return None
    far = max(max(x) for x in ends if x is not None)
    start = 2 * (far + reach + 1) + max(period, reach + 1)
    low = max(union_low, 1)
    top = max(start, low) + modulus - 1
    if top > MAX_CHECKED_N:
        return None
    from .build import build_graph
    ints = _integer_params(params)
    failed = None
    for length in range(low, top + 1):
        heads = [build_graph(p, length, ints) for p in patterns]
        at = [int(e.xreplace({n: Integer(length)})) for e in exprs]
        if not heads_keep_swap(heads, length, at[0], at[1], at[2]):
            if length >= start:
                return None  # the class's answer is "no" for every n ≥ N
            failed = length
    if failed is not None:
        low = failed + 1
    return HeadLayers("F71", theorem, low, Integer(2), Integer(3), witness=(exprs[0], (exprs[1], exprs[2])),
                      modulus=modulus, reach=reach, period=period, start=start)


# ---------------------------------------------------------------------------------------------
# F86: F70 and F71 class by class, when the union's count depends on n mod M

def _group_orders(cases: Optional[Sequence[GroupCase]], n: sympy.Symbol) -> Optional[tuple]:
    """(modulus, {residue: (|G| on the class as an expression in n, the class's bound)}, the decision) of the heads'
    group: Theorems F35–F39 (graphs/head_intersection.Intersection) or F72 (graphs/partition_heads.PartitionGroup);
    None otherwise."""
    from .head_intersection import Intersection, describe
    from .partition_heads import PartitionGroup
    if not cases:
        return None
    found = {id(c.intersection[-1] if c.intersection[0] == "partition heads" else c.intersection[0]):
             (c.intersection[-1] if c.intersection[0] == "partition heads" else c.intersection[0])
             for c in cases if isinstance(c.intersection, tuple)}
    if len(found) != 1:
        return None
    decision = next(iter(found.values()))
    orders = {}
    if isinstance(decision, PartitionGroup):
        for c in decision.classes:
            orders[c.residue] = (c.expression(n, decision.modulus), c.low)
        return decision.modulus, orders, decision
    if isinstance(decision, Intersection):
        for cls in decision.classes:
            named = describe(cls, n)
            if named is None:
                return None
            orders[cls.residue] = (named[0], cls.low)
        return decision.modulus, orders, decision
    return None


def _integer_by_class(expr, n: sympy.Symbol) -> bool:
    """The expression is an integer on every residue class of n mod its moduli (an integer, or a Piecewise by n mod q
    with integer values)."""
    expr = sympy.sympify(expr, strict=True)  # safe: strict (no text parsed)
    if expr.is_Integer:
        return True
    try:
        modulus = _moduli(expr, n)
    except (ValueError, TypeError):
        return False
    k = sympy.Symbol("k", integer=True, positive=True)
    return modulus > 1 and all(_integer_in_class(expr, n, modulus, r, k) is not None for r in range(modulus))


def _integer_in_class(expr, n: sympy.Symbol, modulus: int, residue: int, k: sympy.Symbol) -> Optional[int]:
    at = _in_class(expr, n, modulus, residue, k)
    return int(at) if at.is_Integer else None


def _class_witness(union, n: sympy.Symbol, modulus: int, residue: int) -> Optional[list]:
    """The union theorem's swap witness on the class (position, a, b as expressions in n), or None."""
    if union.witness is not None:
        pos, (a, b) = union.witness
        return [sympy.sympify(e, strict=True).xreplace({union.n_symbol: n}) for e in (pos, a, b)]  # safe: strict (no text parsed)
    for m, r, (pos, (a, b)) in union.class_witnesses:
        if modulus % m == 0 and residue % m == r:
            return [sympy.sympify(e, strict=True).xreplace({union.n_symbol: n}) for e in (pos, a, b)]  # safe: strict (no text parsed)
    return None


def _ends_in_class(exprs: list, n: sympy.Symbol, modulus: int, residue: int, k: sympy.Symbol) -> Optional[int]:
    """E: the largest distance to the nearer end of the positions (each c or n + c on the class), or None."""
    far = 0
    for e in exprs:
        at = _in_class(e, n, modulus, residue, k)
        right = _simplified(at - (modulus * k + residue))
        if at.is_Integer and int(at) >= 1:
            far = max(far, int(at) - 1)
        elif right.is_Integer and int(right) <= 0:
            far = max(far, -int(right))
        else:
            return None
    return far


def _sees(g, n: int, v: int, u: int) -> bool:
    """Query v attends to key u in the head's PatternGraph g at length n."""
    return u == v or g.complete or (u - 1) * n + (v - 1) in g.codes


def swap_moves_a_head(heads: Sequence, n: int, a: int, b: int) -> bool:
    """The swap (a b) is not an automorphism of some head (so it lies outside G = ∩ Aut(Γ_h))."""
    for g in heads:
        if _sees(g, n, a, b) != _sees(g, n, b, a):
            return True
        for v in range(1, n + 1):
            if v not in (a, b) and (_sees(g, n, v, a) != _sees(g, n, v, b) or _sees(g, n, a, v) != _sees(g, n, b, v)):
                return True
    return False


def _class_lengths(exprs: list, n: sympy.Symbol, params: Mapping, modulus: int, residue: int, low: int, reach: int,
                   period: int) -> Optional[tuple[dict, int, int, int]]:
    """The lengths F71's profile argument reads on one class: (the integer params, the class's first length ≥ low,
    the last length max(N, low) + M − 1, N = 2(E + K + 1) + max(L, K + 1) with E the farthest of the positions from
    their end, and N); None when E is not read off or the last length is beyond MAX_CHECKED_N."""
    k = sympy.Symbol("k", integer=True, positive=True)
    far = _ends_in_class(exprs, n, modulus, residue, k)
    if far is None:
        return None
    start = 2 * (far + reach + 1) + max(period, reach + 1)
    top = max(start, low) + modulus - 1
    if top > MAX_CHECKED_N:
        return None
    ints = _integer_params(params)
    return ints, low + (residue - low) % modulus, top, start


def _kept_on_class(patterns: Sequence[Pattern], exprs: list, n: sympy.Symbol, params: Mapping, modulus: int,
                   residue: int, low: int, reach: int, period: int, moved: bool = False) -> Optional[tuple[int, int]]:
    """F71's check on one class: (the class's bound, N), the swap meeting every head's condition at every length
    of the class from the bound up to max(N, low) + M − 1 (and, with ``moved``, F88's: the swap is no automorphism
    of some head there); None when it fails at some length ≥ N or N is beyond the lengths checked."""
    lengths = _class_lengths(exprs, n, params, modulus, residue, low, reach, period)
    if lengths is None:
        return None
    from .build import build_graph
    ints, first, top, start = lengths
    bound = first
    for length in range(first, top + 1, modulus):
        heads = [build_graph(p, length, ints) for p in patterns]
        at = [int(e.xreplace({n: Integer(length)})) for e in exprs]
        if not heads_keep_swap(heads, length, at[0], at[1], at[2]) or (
                moved and not swap_moves_a_head(heads, length, at[1], at[2])):
            if length >= start:
                return None
            bound = length + modulus
    return bound, start


def _integer_params(params: Mapping) -> dict:
    """The parameters that have integer values (the others stay symbols in the patterns)."""
    return {key: int(v) for key, v in params.items() if getattr(v, "is_Integer", False) or isinstance(v, int)}


def _class_instance(patterns: Sequence[Pattern], params: Mapping, modulus: int, residue: int, low: int, reach: int,
                    period: int, zone: int) -> Optional[tuple[int, list]]:
    """The length of the class n ≡ residue (mod modulus) at which a witness within `zone` of an end is looked for
    (the first from max(low, 2(zone + K + 1) + max(L, K + 1)) on), with the heads' graphs there; None when the class's
    check would pass the lengths checked."""
    from .build import build_graph
    base = max(low, 2 * (zone + reach + 1) + max(period, reach + 1))
    base += (residue - base) % modulus
    if base + modulus > MAX_CHECKED_N:
        return None
    ints = _integer_params(params)
    return base, [build_graph(p, base, ints) for p in patterns]


def _find_swap(patterns: Sequence[Pattern], n: sympy.Symbol, params: Mapping, modulus: int, residue: int, low: int,
               reach: int, period: int) -> Optional[tuple[list, int]]:
    """F88: a swap (a b) at i, all three within 2K + 2 of an end, meeting every head's condition and moving a head,
    found at one length of the class and checked on the class (its expressions in n, the class's bound)."""
    zone = 2 * reach + 2
    instance = _class_instance(patterns, params, modulus, residue, low, reach, period, zone)
    if instance is None:
        return None
    base, heads = instance
    near = sorted(set(range(1, zone + 2)) | set(range(base - zone, base + 1)), key=lambda p: (min(p - 1, base - p), p))
    for i in near:
        ball = swap_ball(heads, base, i)  # one ball per position, read by every pair tried there
        for x in near:
            for y in near:
                if not (x < y and i not in (x, y)) or not heads_keep_swap(heads, base, i, x, y, ball):
                    continue
                if not swap_moves_a_head(heads, base, x, y):
                    continue
                exprs = [Integer(p) if 2 * p <= base else n + (p - base) for p in (i, x, y)]
                kept = _kept_on_class(patterns, exprs, n, params, modulus, residue, low, reach, period, moved=True)
                if kept is not None:
                    return exprs, kept[0]
    return None


def _neighbourhood(g, n: int, v: int) -> frozenset:
    return frozenset(u for u in range(1, n + 1) if _sees(g, n, v, u))


def heads_keep_permutation(heads: Sequence, n: int, position: int, perm: Mapping[int, int]) -> bool:
    """σ (``perm``: each moved point to its image, the others fixed) meets the view condition of every head at
    ``position`` with D = 2: σ(N_h(v)) = N_h(σ v) for every head h and every v in the ball {v : some head has the arc
    v → position} ∪ {position}. ``heads``: the heads' PatternGraphs at n."""
    if sorted(perm) != sorted(perm.values()) or not all(1 <= x <= n for x in perm):
        return False
    ball = {v for v in range(1, n + 1) if any(_sees(g, n, position, v) for g in heads)}
    for g in heads:
        for v in ball:
            image = frozenset(perm.get(u, u) for u in _neighbourhood(g, n, v))
            if image != _neighbourhood(g, n, perm.get(v, v)):
                return False
    return True


def permutation_moves_a_head(heads: Sequence, n: int, perm: Mapping[int, int]) -> bool:
    """σ is not an automorphism of some head (so it lies outside G): an arc v → u whose image is no arc; only arcs
    with an end among the moved points can change."""
    pairs = [(v, u) for v in perm for u in range(1, n + 1)] + [(v, u) for v in range(1, n + 1) for u in perm]
    return any(_sees(g, n, v, u) != _sees(g, n, perm.get(v, v), perm.get(u, u)) for g in heads for v, u in pairs)


def _find_permutation(patterns: Sequence[Pattern], n: sympy.Symbol, params: Mapping, modulus: int, residue: int,
                      low: int, reach: int, period: int) -> Optional[tuple[tuple, int]]:
    """F127: the concrete engine's view witness at one length of the class (D = 2) when its position and moved points
    lie within 4K + 4 of an end, written as c or n + c and checked on the class like F88's swap: ((position, ((x,
    σ(x)), ...)), the class's bound) or None."""
    from .connectivity import analyze_connectivity
    from .symmetry import pattern_structure, symmetry_group
    from .views import decide_views
    zone = 4 * reach + 4
    instance = _class_instance(patterns, params, modulus, residue, low, reach, period, zone)
    if instance is None:
        return None
    base, heads = instance
    conn = analyze_connectivity(heads)
    if not conn.strongly_connected or conn.diameter != 2:
        return None
    grp = symmetry_group(heads)
    # the answer only (no certificate): the exact test, not the time-limited probe, gives the witness, so the same one
    # at every run (the kernel re-decides the class when it checks the certificate)
    found = decide_views(heads, 2, int(grp.order), grp.generators, pattern_structure(heads).preserves,
                         certificate=False)
    if found.sufficient is not False or found.witness is None:
        return None
    w = found.witness
    points = [w.position] + w.moved()
    if any(min(p - 1, base - p) > zone for p in points):
        return None

    def expr(p: int):
        return Integer(p) if 2 * p <= base else n + (p - base)
    witness = (expr(w.position), tuple((expr(x), expr(w.permutation[x - 1])) for x in w.moved()))
    bound = _permutation_on_class(patterns, witness, n, params, modulus, residue, low, reach, period)
    return None if bound is None else (witness, bound)


def _permutation_on_class(patterns: Sequence[Pattern], witness: tuple, n: sympy.Symbol, params: Mapping, modulus: int,
                          residue: int, low: int, reach: int, period: int) -> Optional[int]:
    """F127's check on one class: the class's bound, the permutation meeting every head's condition at the position
    and moving some head at every length of the class from the bound up to max(N, low) + M − 1, N = 2(E + K + 1) +
    max(L, K + 1) with E the farthest of the position and the moved points from their end; None when it fails at some
    length ≥ N or N is beyond the lengths checked."""
    from .build import build_graph
    exprs = [witness[0]] + [e for pair in witness[1] for e in pair]
    lengths = _class_lengths(exprs, n, params, modulus, residue, low, reach, period)
    if lengths is None:
        return None
    ints, first, top, start = lengths
    bound = first
    for length in range(first, top + 1, modulus):
        at = {key: int(e.xreplace({n: Integer(length)})) for key, e in
              ((witness[0], witness[0]),) + tuple((x, x) for pair in witness[1] for x in pair)}
        position = at[witness[0]]
        perm = {at[x]: at[y] for x, y in witness[1]}
        heads = [build_graph(p, length, ints) for p in patterns]
        if len(perm) != len(witness[1]) or not heads_keep_permutation(heads, length, position, perm) or \
                not permutation_moves_a_head(heads, length, perm):
            if length >= start:
                return None
            bound = length + modulus
    return bound


def by_class(patterns: Sequence[Pattern], union, cases: Optional[Sequence[GroupCase]], n: sympy.Symbol,
             params: Mapping) -> Optional[HeadLayers]:
    """F86: on every residue class of n mod M the union's theorem proves D layers (least) and the heads' group has
    the union's order there (F70 on the class), or it proves D + 1 = 3 with a swap witness near the ends that every
    head keeps on the class (F71 on the class). None unless every class is one or the other."""
    if union is not None and (union.layers is None or not union.least or union.order is None
                              or union.coprime_to > 1 or union.low.free_symbols or not union.diameter_exact
                              or not _integer_by_class(union.diameter, union.n_symbol)):
        union = None
    groups = _group_orders(cases, n)
    sizes = _sizes(patterns, params)
    if sizes is None:
        return None
    reach, period = sizes
    if union is None:
        two = _diameter_two_from(patterns, n, params)  # F88 alone: D = 2 from the union's closed form
        if two is None:
            return None
        d, low, modulus, theorem = 2, two, period, "F87"
        gmod, orders, decision = groups if groups is not None else (1, {}, None)
        union_layers = union_order = None
    else:
        if groups is None:
            return None
        gmod, orders, decision = groups
        union_layers = sympy.sympify(union.layers, strict=True).xreplace({union.n_symbol: n})  # safe: strict (no text parsed)
        union_order = sympy.sympify(union.order, strict=True).xreplace({union.n_symbol: n})  # safe: strict (no text parsed)
        union_diameter = sympy.sympify(union.diameter, strict=True).xreplace({union.n_symbol: n})  # safe: strict
        try:
            modulus = _lcm(_lcm(gmod, period), _lcm(_moduli(union_order, n), _moduli(union_layers, n)))
            modulus = _lcm(modulus, _moduli(union_diameter, n))
            for m, _, _ in union.class_witnesses:
                modulus = _lcm(modulus, int(m))
        except (ValueError, TypeError):
            return None
        theorem = union.theorem
        low = max([int(union.low)] + [bound for _, bound in orders.values()])
    k = sympy.Symbol("k", integer=True, positive=True)
    classes = []
    by_residue = {}  # D on each class (the union's D may depend on n mod M: Theorem F53's 3 if 3 | n, else 2)
    for residue in range(modulus):
        found = None
        if union is not None:
            here = _integer_in_class(union_diameter, n, modulus, residue, k)
            if here is None:
                return None
            d = by_residue[residue] = here
            found = _union_class(patterns, union, union_layers, union_order, orders, gmod, n, params, modulus,
                                 residue, low, reach, period, k, d)
        if found is None and d == 2:
            found = _heads_own_class(patterns, n, params, modulus, residue, low, reach, period)
        if found is None:
            return None
        classes.append(found)
    if len({c.layers for c in classes}) == 1:
        layers_expr: sympy.Expr = Integer(classes[0].layers)
    elif len(set(by_residue.values())) > 1:  # D by class: the count of each class, by residue
        counts = sorted({c.layers for c in classes})
        layers_expr = sympy.Piecewise(*[(Integer(v), sympy.Or(*[sympy.Eq(sympy.Mod(n, modulus), c.residue)
                                                                 for c in classes if c.layers == v]))
                                        for v in counts[:-1]], (Integer(counts[-1]), True))
    else:
        more = [c.residue for c in classes if c.layers == d + 1]
        layers_expr = sympy.Piecewise((Integer(d + 1), sympy.Or(*[sympy.Eq(sympy.Mod(n, modulus), r) for r in more])),
                                      (Integer(d), True))
    overall = max([low] + [c.low - modulus + 1 for c in classes])  # every n ≥ it of a class is ≥ the class's bound
    diameter = union_diameter if len(set(by_residue.values())) > 1 else Integer(d)
    return HeadLayers("F86", theorem, overall, diameter, layers_expr, modulus=modulus, reach=reach,
                      period=period, intersection=decision if union is not None else None, classes=tuple(classes))


def _heads_own_class(patterns: Sequence[Pattern], n: sympy.Symbol, params: Mapping, modulus: int, residue: int,
                     low: int, reach: int, period: int) -> Optional[ClassLayers]:
    """A class decided from the heads alone at D = 2: F76 (no ball hides two parts of one head: 2 layers) or F88 (a
    swap of the heads' own: 3 layers); None otherwise."""
    from .partition_layers import class_bound
    bound = class_bound(patterns, params, modulus, residue, low)
    if bound is not None:
        return ClassLayers(residue, 2, bound, None, "F76")
    swap = _find_swap(patterns, n, params, modulus, residue, low, reach, period)
    if swap is not None:
        exprs, bound = swap
        return ClassLayers(residue, 3, bound, (exprs[0], (exprs[1], exprs[2])), "F88")
    moved = _find_permutation(patterns, n, params, modulus, residue, low, reach, period)
    if moved is not None:
        found, bound = moved
        return ClassLayers(residue, 3, bound, None, "F127", found)
    return None


def _union_class(patterns, union, union_layers, union_order, orders: dict, gmod: int, n: sympy.Symbol,
                 params: Mapping, modulus: int, residue: int, low: int, reach: int, period: int,
                 k: sympy.Symbol, d: int) -> Optional[ClassLayers]:
    """F86 (a) or (b) on one class from the union's theorem (D = d on the class), or None."""
    layers = _integer_in_class(union_layers, n, modulus, residue, k)
    if layers == d:
        group_order = orders[residue % gmod][0]
        if _in_class(group_order - union_order, n, modulus, residue, k) != 0:
            return _reflection_broken(patterns, union, union_order, n, params, modulus, residue, low, reach, period, k,
                                      d)
        return ClassLayers(residue, d, low, None, "F70")
    if layers == d + 1 == 3:
        exprs = _class_witness(union, n, modulus, residue)
        if exprs is None:
            return None
        kept = _kept_on_class(patterns, exprs, n, params, modulus, residue, low, reach, period)
        if kept is None:
            return None
        return ClassLayers(residue, 3, kept[0], (exprs[0], (exprs[1], exprs[2])), "F71")
    return None


REFLECTION = ("i ↦ n + 1 − i",)
#: Theorem F33's group with one global (g = 1): the reflection of {2, …, n}, the hub fixed (F124 with the hub fixed)
HUB_REFLECTION = ("i ↦ n + 2 − i on {2, …, n}",)


def reflection_fixing(union) -> Optional[int]:
    """The number of leading positions the union's only symmetry fixes when it is a reflection of the rest: 0 for
    i ↦ n + 1 − i, 1 for F33's reflection of {2, …, n} beside one global; None for other groups."""
    if union.group == "reflection" and tuple(union.generators) == REFLECTION:
        return 0
    if union.group == "the reflection of {2, …, n}" and tuple(union.generators) == HUB_REFLECTION:
        return 1
    return None


def reflection_start(reach: int, period: int) -> int:
    """N of Theorem F124: from N on, the positions within C = 2K + 2 of an end and the residues mod L of those
    between them (all of them) give every position's local profile, the same at n and n + L."""
    return 2 * (2 * reach + 2) + period


def reflection_broken_at(heads: Sequence, n: int, reach: int, fixed: int = 0) -> Optional[int]:
    """Theorem F124's (X) at n: every position v has a head h and a position u, |u − v| ≤ K, with "v attends to u in
    h" ≠ "ρv attends to ρu in h" (so the reflection ρ maps N_h(v) onto another set than N_h(ρ v)), ρ(x) = n + 1 − x, or
    with ``fixed`` = g leading positions fixed, ρ(x) = x for x ≤ g and n + g + 1 − x otherwise (F33's reflection of
    {g + 1, …, n}, whose union holds `global(g)`). With ``fixed`` ≥ 1 it also holds when ρ moves some head's
    neighbourhood of the global 1 within K: every position attends to 1 in some head, so 1 lies in every ball of
    radius D − 1 ≥ 1 (Theorem F124 needs (X) at one position of each root's ball). None when it holds; else the first
    position v where it fails. ``heads``: the heads' PatternGraphs at n."""
    def flip(x: int) -> int:
        return x if x <= fixed else n + fixed + 1 - x

    def moved(v: int) -> bool:
        return any(_sees(g, n, v, u) != _sees(g, n, flip(v), flip(u))
                   for u in range(max(1, v - reach), min(n, v + reach) + 1) if u != v for g in heads)
    if fixed and moved(1):
        return None
    return next((v for v in range(1, n + 1) if not moved(v)), None)


def reflection_ball_start(reach: int, period: int) -> int:
    """N₁ of Theorem F198: (X₁) at a position reads the positions within 2K of it, so the zones near the ends grow by K
    (C₁ = 3K + 2, N₁ = 2C₁ + L); from N₁ on, (X₁) has one truth value at n and at n + L."""
    return 2 * (3 * reach + 2) + period


def reflection_broken_in_ball(heads: Sequence, n: int, reach: int) -> Optional[int]:
    """Theorem F198's (X₁) at n: every position i has a position v with |v − i| ≤ K, v = i or i attending to v in some
    head (so v lies in i's ball of radius 1 ≤ D − 1), at which (X_K) holds: some head h and some u ≠ v, |u − v| ≤ K,
    with "v attends to u in h" ≠ "ρv attends to ρu in h", ρ(x) = n + 1 − x. (X_K) at every position is the case v = i.
    None when it holds; else the first position i whose ball within K holds no such v. ``heads``: the heads' PatternGraphs
    at n."""
    def moved(v: int) -> bool:
        return any(_sees(g, n, v, u) != _sees(g, n, n + 1 - v, n + 1 - u)
                   for u in range(max(1, v - reach), min(n, v + reach) + 1) if u != v for g in heads)
    at = {v: moved(v) for v in range(1, n + 1)}
    for i in range(1, n + 1):
        near = range(max(1, i - reach), min(n, i + reach) + 1)
        if not any(at[v] and (v == i or any(_sees(g, n, i, v) for g in heads)) for v in near):
            return i
    return None


def _reflection_broken(patterns, union, union_order, n: sympy.Symbol, params: Mapping, modulus: int, residue: int,
                       low: int, reach: int, period: int, k: sympy.Symbol, d: int) -> Optional[ClassLayers]:
    """F124 on one class: the union's theorem proves D layers with Aut(Γ) the reflection (order 2 on the class), and
    at every length of the class from its bound up to max(N, bound) + M − 1 every position's neighbourhood in some head
    is moved by the reflection within K of it ((X)); the class's D layers, least, or None."""
    fixed = reflection_fixing(union)
    if fixed is None:
        return None
    if _in_class(union_order - 2, n, modulus, residue, k) != 0:
        return None
    from .build import build_graph
    start = reflection_start(reach, period)
    first = low + (residue - low) % modulus
    top = max(start, first) + modulus - 1
    if top > MAX_CHECKED_N:
        return None
    ints = _integer_params(params)
    bound = first
    for length in range(first, top + 1, modulus):
        heads = [build_graph(p, length, ints) for p in patterns]
        if reflection_broken_at(heads, length, reach, fixed) is not None:
            if length >= start:
                if fixed:
                    return None
                # F198: (X_K) fails at some position; (X₁) reads it one arc further, on the ball
                ball = _reflection_bound(patterns, params, modulus, residue, low, reach, period, in_ball=True)
                return None if ball is None else ClassLayers(residue, d, ball, None, "F198")
            bound = length + modulus
    return ClassLayers(residue, d, bound, None, "F124")


def growing_layers(patterns: Sequence[Pattern], union, cases: Optional[Sequence[GroupCase]], n: sympy.Symbol,
                   params: Mapping) -> Optional[HeadLayers]:
    """F192: the union's theorem (a family theorem, or §11.2, item 4 for a non-cyclic window) proves D layers, least,
    with D any closed form (F86 needs a constant D), and Aut(Γ) is the reflection; on every class of n mod M either the
    heads' group has the union's order (F70 on the class) or the reflection moves some head's neighbourhood within K
    of every position at every length of the class from its bound up to max(N, bound) + M − 1 (F124's (X_K), N =
    2(2K + 2) + L). Then D layers, least, on every class; None otherwise (the count stays D + 1, not shown least)."""
    if (union is None or union.layers is None or not union.least or union.order is None or union.coprime_to > 1
            or union.low.free_symbols or not union.diameter_exact or union.group != "reflection"
            or tuple(union.generators) != REFLECTION):
        return None
    diameter = sympy.sympify(union.diameter, strict=True).xreplace({union.n_symbol: n})  # safe: strict (no text parsed)
    layers = sympy.sympify(union.layers, strict=True).xreplace({union.n_symbol: n})  # safe: strict (no text parsed)
    if _simplified(layers - diameter) != 0:
        return None
    groups = _group_orders(cases, n)
    sizes = _sizes(patterns, params)
    if groups is None or sizes is None:
        return None
    gmod, orders, decision = groups
    reach, period = sizes
    union_order = sympy.sympify(union.order, strict=True).xreplace({union.n_symbol: n})  # safe: strict (no text parsed)
    try:
        modulus = _lcm(_lcm(gmod, period), _moduli(union_order, n))
    except (ValueError, TypeError):
        return None
    low = max([int(union.low)] + [bound for _, bound in orders.values()])
    k = sympy.Symbol("k", integer=True, positive=True)
    classes = []
    for residue in range(modulus):
        if _in_class(orders[residue % gmod][0] - union_order, n, modulus, residue, k) == 0:
            classes.append(GrowingClass(residue, low, "F70"))
            continue
        if _in_class(union_order - 2, n, modulus, residue, k) != 0:
            return None
        bound = _reflection_bound(patterns, params, modulus, residue, low, reach, period)
        if bound is not None:
            classes.append(GrowingClass(residue, bound, "F124"))
            continue
        bound = _reflection_bound(patterns, params, modulus, residue, low, reach, period, in_ball=True)  # F198
        if bound is None:
            return None
        classes.append(GrowingClass(residue, bound, "F198"))
    if all(c.found_by == "F70" for c in classes):
        return None  # F70 itself (equal_groups) states that case
    overall = max([low] + [c.low - modulus + 1 for c in classes])  # every n ≥ it of a class is ≥ the class's bound
    return HeadLayers("F192", union.theorem, overall, diameter, diameter, modulus=modulus, reach=reach, period=period,
                      start=reflection_start(reach, period), intersection=decision, growing=tuple(classes))


def _reflection_bound(patterns: Sequence[Pattern], params: Mapping, modulus: int, residue: int, low: int, reach: int,
                      period: int, in_ball: bool = False) -> Optional[int]:
    """F124's (X_K) on one class, read on the heads' arcs at every length of the class from its first length ≥ low up
    to max(N, that) + M − 1: the class's bound (past the last length below N where (X_K) fails), or None when it fails
    at N or beyond, or the lengths pass MAX_CHECKED_N. With ``in_ball``, Theorem F198's (X₁) with its N₁ instead."""
    from .build import build_graph
    start = reflection_ball_start(reach, period) if in_ball else reflection_start(reach, period)
    first = low + (residue - low) % modulus
    top = max(start, first) + modulus - 1
    if top > MAX_CHECKED_N:
        return None
    ints = _integer_params(params)
    bound = first
    for length in range(first, top + 1, modulus):
        heads = [build_graph(p, length, ints) for p in patterns]
        broken = reflection_broken_in_ball(heads, length, reach) if in_ball else reflection_broken_at(heads, length, reach)
        if broken is not None:
            if length >= start:
                return None
            bound = length + modulus
    return bound


def _diameter_two_from(patterns: Sequence[Pattern], n: sympy.Symbol, params: Mapping) -> Optional[int]:
    """N with D = 2 for every n ≥ N, from Theorem F87's closed form of the union (a union with globals), or None."""
    from .closed_connectivity import closed_connectivity
    try:
        form = closed_connectivity(list(patterns), n, params)
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    hubs = [c.hub for c in (form.cases if form is not None else ()) if c.hub is not None]
    return hubs[0].low if len(hubs) == 1 else None


# ---------------------------------------------------------------------------------------------
# The decision

def union_theorem(patterns: Sequence[Pattern], n: sympy.Symbol, params: Mapping):
    """The family theorem of the union of the heads' arcs (graphs/families.py), read on the normal form of all the
    heads' parts side by side (docs/theory.md §11.13), or None."""
    from .families import FamilyTheorem, match
    from .normal_form import heads_union
    try:
        found = match([heads_union(patterns)], n, dict(params))
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    return found if isinstance(found, FamilyTheorem) else None


def directed_heads(patterns: Sequence[Pattern], union, n: sympy.Symbol) -> Optional[HeadLayers]:
    """F191: the union is Theorem F101's `window(w) cyclic` with non-cyclic offsets A ≠ −A (trivial group, so the
    heads' too), and F190's colour premise or far swap, read on the heads' arcs coloured apart, decides every class of
    n mod P: D or D + 1 layers, least, by class; None otherwise."""
    from .cyclic_window_directed_least import HEAD_ROUNDS, heads_classes
    read = _directed_union(patterns, union)
    if read is None:
        return None
    w, outside, period, low = read
    classes = heads_classes(tuple(patterns), w, outside, low)
    if classes is None or len(classes.least) != classes.period:
        return None
    diameter = sympy.sympify(union.diameter, strict=True).xreplace({union.n_symbol: n})  # safe: strict (no text parsed)
    extra = [r for r in range(period) if classes.extra[r]]
    layers = diameter if not extra else sympy.Piecewise(
        (diameter + 1, sympy.Or(*[sympy.Eq(sympy.Mod(n, period), r) for r in extra])), (diameter, True))
    return HeadLayers("F191", "F101", low, diameter, layers, modulus=period,
                      directed_heads=DirectedHeads(w, outside, HEAD_ROUNDS, classes.proved_low, classes.extra))


def _directed_union(patterns: Sequence[Pattern], union) -> Optional[tuple[int, tuple[int, ...], int, int]]:
    """(w, A, P, the range's start) when the heads' union is Theorem F101's `window(w) cyclic` with non-cyclic offsets
    A ≠ ∅ and the trivial group (F191's premise), else None."""
    from .cyclic_window_directed_least import union_offsets
    if union.theorem != "F101" or union.group != "trivial" or not union.diameter_exact or union.low.free_symbols:
        return None
    params = dict(union.params)
    if not _is_int(params.get("w")) or not _is_int(params.get("P")):
        return None
    w, period, low = int(params["w"]), int(params["P"]), int(union.low)
    outside = union_offsets(tuple(patterns), w, low + 2 * period)
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    if not outside or steps[-1] - steps[0] != period:
        return None
    return w, outside, period, low


def directed_heads_refused(patterns: Sequence[Pattern], n: sympy.Symbol, params: Optional[Mapping] = None):
    """The size of F191's check (a CheckSize) when the heads meet F191's premise but the check lies beyond its work
    bound or its last length, so the count stays D + 1 for that reason alone; else None. Deterministic: the bounds
    count lengths and parts, not seconds."""
    from .cyclic_window_directed_least import heads_check_size
    patterns = list(dict.fromkeys(patterns))
    if not isinstance(n, sympy.Symbol) or len(patterns) < 2:
        return None
    union = union_theorem(patterns, n, dict(params or {}))
    read = None if union is None else _directed_union(patterns, union)
    if read is None:
        return None
    w, outside, _, low = read
    if set(outside) == {-k for k in outside}:
        return None
    size = heads_check_size(tuple(patterns), w, outside, low)
    return None if size.fits else size


WINDOW_UNION = "§11.2, item 4"   # what proves the union's count when the union of the heads is a non-cyclic window


def window_union(patterns: Sequence[Pattern], n: sympy.Symbol):
    """The union of the heads' arcs as a FamilyTheorem when it is a non-cyclic `window(w)`, w an integer (the normal
    form of every head's parts side by side, docs/theory.md §11.13: the arcs are equal at every n): D = ⌈(n − 1)/w⌉,
    D layers suffice (§11.2, item 4, for n ≥ w + 2), and Aut = the reflection for n ≥ 2w + 1 (§11.5); else None."""
    from ..spec import Window
    from .families import FamilyTheorem
    from .normal_form import normalise
    parts = [q for p in patterns for q in (p.parts if isinstance(p, PatternUnion) else (p,))]
    form = normalise(PatternUnion(tuple(dict.fromkeys(parts)))).pattern
    if isinstance(form, PatternUnion) and len(form.parts) == 1:
        form = form.parts[0]
    if not isinstance(form, Window) or form.cyclic or not isinstance(form.w, int) or isinstance(form.w, bool):
        return None
    w = form.w
    if w < 1:
        return None
    diameter = sympy.ceiling((n - 1) / w)
    return FamilyTheorem(WINDOW_UNION, "window(w)", (("w", Integer(w)),), Integer(2 * w + 1), diameter, "reflection",
                         Integer(2), ("i ↦ n + 1 − i",), diameter, True,
                         "non-cyclic window: the unseen positions' adjacency is fixed by the seen part (§11.2)",
                         n_symbol=n)


#: Theorem F188's range: the star's group is the stabiliser of its hub, and its leaves see two positions, from n = 3
STAR_BESIDE_COMPLETE_FROM = 3


def star_beside_complete(patterns: Sequence[Pattern]) -> Optional[HeadLayers]:
    """F188 (docs/theory.md §11.11): the distinct heads are `full` and `star` (or `global(1)`), each present: the union
    is complete (D = 1), and for n ≥ 3 no permutation outside the heads' group, the stabiliser of position 1, keeps
    every head's neighbourhood of one position (the radius-0 view condition), so one layer suffices, least."""
    from ..spec import Full, Global, Star
    kinds = set()
    for p in patterns:
        if isinstance(p, Full):
            kinds.add("full")
        elif isinstance(p, Star) or (isinstance(p, Global) and _is_int(p.g) and p.g == 1):
            kinds.add("star")
        else:
            return None
    if kinds != {"full", "star"}:
        return None
    return HeadLayers("F188", "complete", STAR_BESIDE_COMPLETE_FROM, Integer(1), Integer(1))


def _blocks_offsets(b: int, jump: int) -> Pattern:
    from ..spec import Blocks, Offsets
    return PatternUnion((Blocks(b), Offsets((jump,))))


#: Theorem F236 (docs/theory.md §11.11, with F235): pairs of heads whose least count Theorem F236 proves at every n of
#: its range from the union's automorphisms: (the heads, the union's theorem the proof reads, the range's start, the
#: modulus, the residues of n mod it that need D + 1 layers; D layers on the others)
UNION_AUTOMORPHISM_PAIRS = (
    (frozenset({_blocks_offsets(3, 1), _blocks_offsets(2, -1)}), "F21", 10, 6, (0,)),
)


def union_automorphism_heads(patterns: Sequence[Pattern], union, n: sympy.Symbol) -> Optional[HeadLayers]:
    """F236: the two heads are a pair of `UNION_AUTOMORPHISM_PAIRS` and the union's theorem proves D layers, least,
    with an exact D (the premise of F235 the proof reads): D + 1 layers on the pair's residues, D elsewhere, least;
    None otherwise."""
    if (union is None or union.layers is None or not union.least or not union.diameter_exact
            or union.low.free_symbols or len(patterns) != 2):
        return None
    for heads, theorem, low, modulus, extra in UNION_AUTOMORPHISM_PAIRS:
        if frozenset(patterns) != heads or union.theorem != theorem:
            continue
        diameter = sympy.sympify(union.diameter, strict=True).xreplace({union.n_symbol: n})  # safe: strict (no text parsed)
        layers = sympy.sympify(union.layers, strict=True).xreplace({union.n_symbol: n})  # safe: strict (no text parsed)
        if _simplified(layers - diameter) != 0:
            return None
        count = _count_by_residue(diameter, n, modulus, extra)
        if count is None:
            return None
        return HeadLayers("F236", union.theorem, max(low, int(union.low)), diameter, count, modulus=modulus,
                          extra_residues=tuple(extra))
    return None


def _count_by_residue(diameter, n: sympy.Symbol, modulus: int, extra) -> Optional[sympy.Expr]:
    """D + 1 on the residues `extra` of n mod `modulus` and D on the others, as one Piecewise by n mod M (M the lcm
    of the modulus and D's own moduli), each branch D read on its residues (the residues with the most common branch
    last, as the default); None when D does not read that way."""
    try:
        period = _lcm(modulus, _moduli(diameter, n))
    except (ValueError, TypeError):
        return None
    branches: dict = {}
    for r in range(period):
        here = diameter.xreplace({m: Integer(r % int(m.args[1])) for m in diameter.atoms(sympy.Mod)
                                  if m.args[0] == n})
        here = sympy.piecewise_fold(here)
        if isinstance(here, sympy.Piecewise):
            here = here.simplify()
        if isinstance(here, sympy.Piecewise) or here.atoms(sympy.Mod):
            return None
        branches.setdefault(here + (1 if r % modulus in extra else 0), []).append(r)
    order = sorted(branches.items(), key=lambda kv: (len(kv[1]), kv[1]))
    if len(order) == 1:
        return order[0][0]
    return sympy.Piecewise(*[(e, sympy.Or(*[sympy.Eq(sympy.Mod(n, period), r) for r in rs])) for e, rs in order[:-1]],
                           (order[-1][0], True))


def least_layers(patterns: Sequence[Pattern], cases: Optional[Sequence[GroupCase]], n: sympy.Symbol,
                 params: Optional[Mapping] = None) -> Optional[HeadLayers]:
    """The least layer count of several distinct unbiased heads without a positional encoding at symbolic n
    (F188, F70, else F71, …), or None (the count stays D + 1, not shown least)."""
    params = dict(params or {})
    patterns = list(dict.fromkeys(patterns))
    if not isinstance(n, sympy.Symbol) or len(patterns) < 2:
        return None
    star = star_beside_complete(patterns)  # F188: the union is complete and the star's hub is seen apart
    if star is not None:
        return star
    union = union_theorem(patterns, n, params)
    if union is None:
        window = window_union(patterns, n)  # F70 on a union that is a non-cyclic window (§11.2, item 4)
        if window is not None and cases:
            found = equal_groups(window, cases, n)
            if found is None:
                found = growing_layers(patterns, window, cases, n, params)  # F192: F124 class by class, D growing
            if found is not None:
                return found
        return by_class(patterns, None, cases, n, params)  # F88 alone, on F87's D = 2
    if cases:
        found = equal_groups(union, cases, n)
        if found is not None:
            return found
    found = union_automorphism_heads(patterns, union, n)  # F236: a pair decided on the union's automorphisms
    if found is not None:
        return found
    found = directed_heads(patterns, union, n)  # F191: the union F101's with A ≠ −A
    if found is not None:
        return found
    from .cyclic_window_heads import cyclic_window_heads
    found = cyclic_window_heads(patterns, union, n, params)  # F143: the union a cyclic window
    if found is not None:
        return found
    from .straight_heads import heads_layers as straight
    found = straight(patterns, union, n, params)
    if found is not None:
        return found
    found = kept_witness(patterns, union, n, params)
    if found is not None:
        return found
    found = by_class(patterns, union, cases, n, params)
    if found is not None:
        return found
    return growing_layers(patterns, union, cases, n, params)  # F192: F86's F70 and F124 classes, D any closed form
