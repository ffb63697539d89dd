"""PAT-LAYERS for several heads with different patterns at symbolic n, the least count from the union of their
arcs (docs/theory.md §11.11, Theorems F70–F71, F86 with F124 on its classes, F170 (F124 with F33's global fixed),
F193 (each class with the union's own D there), F192 (F70 and F124 classes at a growing D), F198 (F124 read at a
position of each ball, on F86's and F192's classes); F75 in
verifier/straight_heads.py, F143 in verifier/cyclic_window_heads.py), re-checked with the verifier's own code: its own family table or
lemma for the union, its own re-decision of the heads' group (verifier/head_intersection.py) and its own arcs.

What is checked (a certificate of kind "head layers"):
* F70: the union's entry in the verifier's table proves D layers (least) from a bound, with the step's D; the
  heads' group, re-decided from the certificate's intersection on the verifier's arcs, has the union's order on
  every residue class (symbolically, n = Mk + r), so it is the union's group; the range starts at or above the
  union's bound and every class's;
* F71: the union's entry proves D = 2 and 3 layers (least) with a swap witness; the certificate's swap is the
  entry's at every length checked; the verifier's own K, L and the ends of the swap give N; the swap meets
  every head's view condition (a, b outside the ball, every head's neighbourhood on the ball holds both or
  neither) at every length from the step's bound up to N + M − 1, on the verifier's arcs.
"""
from __future__ import annotations

from math import gcd
import sympy

from .. import spec as S
from . import patterns
from .check import VERIFIED, Reject, Trust
from .class_lengths import class_lengths
from .trees import decode

MAX_CHECKED_N = 400


def _lcm(a: int, b: int) -> int:
    return a * b // gcd(a, b)


def _setting(ctx) -> tuple[list, sympy.Symbol]:
    spec = ctx.spec
    if spec.positional != "none" or any(h.bias for h in spec.heads):
        raise Reject("Theorems F70–F71 are for unbiased heads without a positional encoding")
    pats = list(dict.fromkeys(h.pattern for h in spec.heads))
    if len(pats) < 2:
        raise Reject("Theorems F70–F71 are for several heads with different patterns")
    n = ctx.symbols.get(spec.tokens) if isinstance(spec.tokens, str) else None
    if n is None:
        raise Reject("Theorems F70–F71 state a symbolic length")
    return pats, n


def _union(ctx):
    """(D(n), layers(n), least, low, order(n) or None, modulus, witness(n) or None) of the union from the verifier's
    own family table or lemma table; Trust when neither has it."""
    from . import rules_families
    fam = rules_families.union_family(ctx)
    if fam is not None:
        if fam.coprime_to > 1:
            raise Trust("the union's theorem has a coprimality condition")
        return (fam.d, fam.layers_at, fam.least, fam.low, fam.order, fam.modulus, fam.witness)
    found = rules_families.union_lemma(ctx)
    if found is not None:
        _, lemma = found
        orders = {"D_n": lambda n: 2 * n, "C_n": lambda n: n, "reflection": lambda n: sympy.Integer(2)}
        if lemma.group not in orders or (lemma.rooted_from is None and not lemma.least_layers):
            raise Trust(f"the union's `{lemma.name}` lemma states no least count or group used here")
        low = max(lemma.conn_from, lemma.group_from(1), lemma.rooted_from(1) if lemma.rooted_from else 1)
        return (lambda n: lemma.diameter.xreplace({s: n for s in lemma.diameter.free_symbols}),
                lambda n: lemma.diameter.xreplace({s: n for s in lemma.diameter.free_symbols}), True, low,
                orders[lemma.group], 1, None)
    raise Trust("the union of the heads is not in the verifier's family or lemma table")


def _class_order(cls: dict, n) -> sympy.Expr:
    if cls["kind"] == "rotations":
        (_, m, t), = [e for e in cls["elements"]]
        return n / m * (1 if t is None else 2)
    return sympy.Integer(len(cls["elements"]))


def _in_class(expr, n, modulus: int, residue: int, k):
    return sympy.simplify(sympy.sympify(expr, strict=True).xreplace({n: modulus * k + residue}))  # safe: strict (no text parsed)


def _same_for_every_n(a, b, n) -> bool:
    """a = b at every n: by simplification, or on every residue class n = L·k + r (k a positive integer symbol), L the
    lcm of the moduli of n and of the denominators of n's coefficients inside floor and ceiling, where those evaluate
    exactly (a Piecewise by n mod 4 against ⌊n/4⌋ + 1 − ⌊(n + 3)/4⌋ + …)."""
    if a == b or sympy.simplify(a - b) == 0:
        return True
    period = 1
    for e in (a, b):
        for atom in sympy.sympify(e, strict=True).atoms(sympy.floor, sympy.ceiling, sympy.Mod):  # safe: strict (no text parsed)
            if isinstance(atom, sympy.Mod):
                m = atom.args[1]
                if not m.is_Integer:
                    return False
                period = _lcm(period, int(m))
                continue
            c = sympy.expand(atom.args[0]).coeff(n, 1)
            if not c.is_Rational:
                return False
            period = _lcm(period, int(c.q))
    if period == 1:
        return False
    k = sympy.Symbol("k", integer=True, positive=True)
    return all(_in_class(a - b, n, period, r, k) == 0 for r in range(period))


def _equal_groups(ctx, s, cert: dict, pats: list, n) -> str:
    from . import rules_families
    d, layers, least, low, order, umod, _ = _union(ctx)
    data = s.get("data") or {}
    if not least or not _same_for_every_n(layers(n), d(n), n):
        raise Reject("F70: the union's theorem does not prove D layers least")
    if not _same_for_every_n(decode(data.get("layers"), ctx.symbols), d(n), n):
        raise Reject(f"F70: the layers are not the union's D = {sympy.sstr(d(n))}")
    inter = cert.get("intersection")
    if not isinstance(inter, dict):
        raise Reject("F70: no intersection for the heads' group")
    modulus, classes = _redecided_classes(ctx, inter, pats, "F70")
    m = _lcm(modulus, umod)
    k = sympy.Symbol("k", integer=True, positive=True)
    by_residue = {c["residue"]: c for c in classes}
    fam = rules_families.union_family(ctx)  # a union whose order depends on n mod its modulus: read on each class
    for r in range(m):
        cls = by_residue[r % modulus]
        by_class = fam is not None and umod > 1  # the union's order is read on the class, never at a plain symbol
        same = _same_order_on_class(fam, _class_order(cls, n), n, m, r) if by_class else \
            _in_class(_class_order(cls, n) - order(n), n, m, r, k) == 0
        if not same:
            theirs = f"the union's on that class (Theorem {fam.theorem})" if by_class and fam is not None else \
                f"the union's {sympy.sstr(order(n))}"
            raise Reject(f"F70: on n ≡ {r} (mod {m}) the heads' group has order {sympy.sstr(_class_order(cls, n))}, "
                         f"not {theirs}")
    need = max([int(low)] + [c["from"] for c in classes])
    if int(cert.get("from", 0)) < need:
        raise Reject(f"F70: the range starts at n = {cert.get('from')}, below {need} (the union's bound and every class's)")
    return (f"Theorem F70: the union's own entry proves D layers (least) from n = {low}; the heads' group re-decided "
            f"on the verifier's arcs has the union's order on every class mod {m}, so it is the union's group and a "
            f"witness of the heads would be one of the union")


def _sizes(pats: list) -> tuple[int, int]:
    from . import head_intersection as HI
    try:
        return HI.sizes(pats)
    except HI.Unsupported as exc:
        raise Trust(f"F71: {exc}") from None


def keeps_swap(heads: list, n: int, position: int, a: int, b: int) -> bool:
    """(a b) meets every head's view condition at ``position`` with D = 2 (heads: arc sets of pairs (j, i),
    i attends to j)."""
    if not (1 <= position <= n and 1 <= a <= n and 1 <= b <= n) or a == b:
        return False
    ins: list[dict[int, set]] = [dict() for _ in heads]
    for idx, arcs in enumerate(heads):
        for j, i in arcs:
            ins[idx].setdefault(i, set()).add(j)
    ball = {position} | set().union(*(x.get(position, set()) for x in ins))
    if a in ball or b in ball:
        return False
    for x in ins:
        for v in ball:
            seen = x.get(v, set()) | {v}
            if (a in seen) != (b in seen):
                return False
    return True


def _hub_union(pats: list):
    """Theorem F31's entry (verifier/hub_unions.py) for the union of the heads when it is globals with window,
    offsets and dilated parts; Reject otherwise. The union is read through the verifier's own normal form of unions
    (rules_families.union_pattern): a part whose arcs the others have at every n is left out, as the engine's union
    leaves it (`global(1)` | `blocks(3)` | `window(3)`: blocks(3)'s arcs are window(3)'s)."""
    from . import hub_unions
    from .rules_families import _parts, union_pattern
    parts = _parts(union_pattern(pats))
    hubs: list = [1 if isinstance(q, S.Star) else q.g for q in parts if isinstance(q, (S.Global, S.Star))]
    base = [q for q in parts if not isinstance(q, (S.Global, S.Star))]
    offsets = [hub_unions._offsets_of(q) for q in base]
    if (not hubs or not all(isinstance(g, int) and not isinstance(g, bool) and g >= 1 for g in hubs) or not base
            or any(o is None for o in offsets) or not any(offsets)):
        raise Reject("F71 with Theorem F31's witness: the union is not globals with window, offsets and dilated parts")
    return hub_unions._local(max(int(g) for g in hubs), base, offsets)


def _kept_witness(ctx, s, cert: dict, pats: list, n) -> str:
    if cert.get("union theorem") == "F31":
        fam = _hub_union(pats)
        d, layers, least, low, witness = (fam.d, fam.layers_at, fam.least, fam.low, fam.witness)
    else:
        d, layers, least, low, _, _, witness = _union(ctx)
    if not least or witness is None or d(n) != 2 or layers(n) != 3:
        raise Reject("F71: the union's theorem does not prove D = 2 and 3 layers least with a witness")
    data = s.get("data") or {}
    if decode(data.get("layers"), ctx.symbols) != 3:
        raise Reject("F71: the layers are not 3 = D + 1")
    reach, period = _sizes(pats)
    m = int(cert.get("modulus", 0))
    if m < 1 or m % period:
        raise Reject(f"F71: the modulus {m} is not a multiple of L = {period}")
    exprs = [decode(cert.get("position"), ctx.symbols)] + [decode(x, ctx.symbols) for x in cert.get("swap") or []]
    if len(exprs) != 3:
        raise Reject("F71: the witness is not a position and a swap")
    far = max(_class_far(exprs, n, m, r, "F71") for r in range(m))
    start = 2 * (far + reach + 1) + max(period, reach + 1)
    first = int(cert.get("from", 0))
    if first < low:
        raise Reject(f"F71: the range starts at n = {first}, below the union theorem's {low}")
    top = max(start, first) + m - 1
    if top > MAX_CHECKED_N:
        raise Trust(f"F71: the lengths to check go up to {top}")
    for length in range(first, top + 1):
        pos, a, b = (int(e.xreplace({n: sympy.Integer(length)})) for e in exprs)
        wpos, perm = witness(length)
        moved = [x for x, y in enumerate(perm, 1) if x != y]
        if wpos != pos or sorted(moved) != sorted([a, b]):
            raise Reject(f"F71: at n = {length} the swap is not the union theorem's witness")
        heads = [patterns.head_arcs(p, length) for p in pats]
        if not keeps_swap(heads, length, pos, a, b):
            raise Reject(f"F71: at n = {length} the swap ({a} {b}) changes a head's neighbourhood in the ball of {pos}")
    return (f"Theorem F71: the union's own entry gives D = 2, 3 layers least and the swap; it meets every head's "
            f"view condition on the verifier's arcs at n = {first}..{top} (N = {start} from K = {reach}, L = {period}, "
            f"the swap within {far} of the ends), hence at every n ≥ {first}")


# ---------------------------------------------------------------------------------------------
def _redecided_classes(ctx, inter: dict, pats: list, theorem: str) -> tuple[int, list]:
    """(L, the classes) of the heads' group (an F35–F39 "intersection"), each class re-decided by the verifier's
    own head-intersection check; a class set that is not every residue of n mod L is rejected."""
    from . import head_intersection as HI
    try:
        _, reach, modulus, head, _why = HI._setting(ctx, inter)
        n0 = max(HI.start(reach, modulus), int(inter["anchor"]["from"]))
        if int(inter.get("modulus", 0)) != modulus:
            raise Reject(f"{theorem}: the group's classes are not the residues mod L = {modulus}")
        classes = HI._classes(inter)
        if sorted(c["residue"] for c in classes) != list(range(modulus)):
            raise Reject(f"{theorem}: the group's classes do not cover every residue of n mod {modulus}")
        HI._redecide(pats, head, inter["anchor"], classes, reach, modulus, n0)
    except HI.Unsupported as exc:
        raise Trust(f"{theorem}: the heads' group is outside the verifier's check: {exc}") from None
    return modulus, classes


# F86: F70 and F71 class by class

def _heads_orders(ctx, cert: dict, pats: list, n) -> tuple[int, dict]:
    """(the group's modulus, {residue: (|G| on the class in n, the class's bound)}), re-derived by the verifier's own
    F35–F39 (an "intersection") or F72 (a "partition heads" decision) check."""
    from . import partition_heads as PH
    inter = cert.get("intersection")
    if isinstance(inter, dict):
        modulus, classes = _redecided_classes(ctx, inter, pats, "F86")
        return modulus, {c["residue"]: (_class_order(c, n), int(c["from"])) for c in classes}
    part = cert.get("partition heads")
    if isinstance(part, dict):
        PH.check(ctx, {"certificate": part, "data": {"name": part.get("name")}})  # rejects unless re-derived
        m = int(part["modulus"])
        out = {}
        for c in part["classes"]:
            t = sympy.floor(n / m) - int(c["base"]) // m
            e = sympy.Integer(int(c["constant"])) * sympy.Integer(int(c["power"])) ** t
            for z, d, mult in c["factorials"]:
                e *= sympy.factorial(int(z) + int(d) * t) ** int(mult)
            out[int(c["residue"])] = (e, int(c["from"]))
        return m, out
    raise Reject("F86: no decision of the heads' group")


def _same_order_on_class(fam, theirs, n, modulus: int, residue: int) -> bool:
    """The heads' order equals the union's on n ≡ residue (mod modulus), symbolically (n = Mk + r)."""
    from .families import residue_length
    k = sympy.Symbol("k", integer=True, positive=True)
    at = sympy.sympify(theirs, strict=True).xreplace({n: modulus * k + residue})  # safe: strict (no text parsed)
    if fam.modulus == 1:
        mine = sympy.sympify(fam.order(n), strict=True).xreplace({n: modulus * k + residue})  # safe: strict (no text parsed)
    else:
        if modulus % fam.modulus:
            return False
        k2 = sympy.Symbol("k2", integer=True, positive=True)
        r0 = residue % fam.modulus
        mine = sympy.sympify(fam.order(residue_length(fam.modulus, r0, k2)), strict=True)  # safe: strict (no text parsed)
        mine = mine.xreplace({k2: (modulus * k + residue - r0) // fam.modulus})
    diff = sympy.simplify(at - mine)
    return diff == 0 or sympy.simplify(sympy.combsimp(at / mine)) == 1


def _class_far(exprs: list, n, m: int, r: int, theorem: str = "F86") -> int:
    """The farthest the positions (expressions in n) lie from their nearer end on n ≡ r (mod m); rejected when
    one is not a fixed distance from an end there."""
    k = sympy.Symbol("k", integer=True, positive=True)
    far = 0
    for e in exprs:
        at = _in_class(e, n, m, r, k)
        right = sympy.simplify(at - (m * k + r))
        if at.is_Integer and int(at) >= 1:
            far = max(far, int(at) - 1)
        elif right.is_Integer and int(right) <= 0:
            far = max(far, -int(right))
        else:
            raise Reject(f"{theorem}: {sympy.sstr(e)} is not a fixed distance from an end on n ≡ {r} (mod {m})")
    return far


def _moves_a_head(heads: list, n: int, a: int, b: int) -> bool:
    """The swap (a b) is no automorphism of some head's arcs (pairs (j, i): i attends to j)."""
    def perm(x):
        return b if x == a else a if x == b else x
    return any(any((perm(j), perm(i)) not in arcs for j, i in arcs) for arcs in heads)


def _swap_class(ctx, c: dict, pats: list, n, m: int, r: int, sizes: tuple, low: int, first: int,
                union_witness=None) -> None:
    """(*) for the class's swap at every length of the class from its bound up to its own N + M − 1; with the union's
    witness (F71 on the class) the swap is the union theorem's, else (F88) it moves some head's arcs."""
    reach, period = sizes
    exprs = [decode(c.get("position"), ctx.symbols)] + [decode(x, ctx.symbols) for x in c.get("swap") or []]
    if len(exprs) != 3:
        raise Reject(f"F86: the class n ≡ {r} (mod {m}) has no position and swap")
    start = 2 * (_class_far(exprs, n, m, r) + reach + 1) + max(period, reach + 1)
    for length in class_lengths("F86", c, m, r, low, first, start, MAX_CHECKED_N):
        pos, a, b = (int(e.xreplace({n: sympy.Integer(length)})) for e in exprs)
        heads = [patterns.head_arcs(p, length) for p in pats]
        if union_witness is not None:
            own = union_witness(length)
            if own is None:
                raise Reject(f"F86: at n = {length} the union's theorem has no witness")
            wpos, perm = own
            if wpos != pos or sorted(x for x, y in enumerate(perm, 1) if x != y) != sorted([a, b]):
                raise Reject(f"F86: at n = {length} the swap is not the union theorem's witness")
        elif not _moves_a_head(heads, length, a, b):
            raise Reject(f"F86: at n = {length} the swap ({a} {b}) is an automorphism of every head (inside G)")
        if not keeps_swap(heads, length, pos, a, b):
            raise Reject(f"F86: at n = {length} the swap ({a} {b}) changes a head's neighbourhood in the ball of {pos}")


def _reflection_moves_every_position(heads: list, n: int, reach: int, fixed: int = 0) -> bool:
    """Theorem F124's (X) on the verifier's arcs (pairs (j, i): i attends to j): every position v has a head and a
    position u ≠ v with |u − v| ≤ K such that v attends to u and ρv to ρu differ in that head, ρ(x) = n + 1 − x; with
    ``fixed`` = 1 (Theorem F33's union with one global, whose only symmetry fixes 1 and reflects {2, …, n}), ρ fixes
    1 and maps x to n + 2 − x otherwise, and it suffices that the global 1, in every ball, is such a v."""
    def flip(x: int) -> int:
        return x if x <= fixed else n + fixed + 1 - x

    def moved(v: int) -> bool:
        near = [u for u in range(v - reach, v + reach + 1) if u != v and 1 <= u <= n]
        return any(((u, v) in arcs) != ((flip(u), flip(v)) in arcs) for arcs in heads for u in near)
    if fixed == 1 and moved(1):
        return True
    return all(moved(v) for v in range(1, n + 1))


def _reflection_moves_in_every_ball(heads: list, n: int, reach: int) -> bool:
    """Theorem F198's (X₁) on the verifier's arcs (pairs (j, i): i attends to j): every position i has a position v,
    |v − i| ≤ K, with v = i or (v, i) an arc of some head (so v lies in i's ball of radius 1), at which some head and
    some u ≠ v with |u − v| ≤ K have "v attends to u" ≠ "ρv attends to ρu", ρ(x) = n + 1 − x."""
    def moved(v: int) -> bool:
        near = [u for u in range(v - reach, v + reach + 1) if u != v and 1 <= u <= n]
        return any(((u, v) in arcs) != ((n + 1 - u, n + 1 - v) in arcs) for arcs in heads for u in near)
    at = {v: moved(v) for v in range(1, n + 1)}
    return all(any(at[v] and (v == i or any((v, i) in arcs for arcs in heads))
                   for v in range(max(1, i - reach), min(n, i + reach) + 1)) for i in range(1, n + 1))


def _ball_class(c: dict, fam_reflection: bool, union_order_two: bool, pats: list, m: int, r: int, sizes: tuple,
                low: int, first: int, name: str) -> None:
    """F198 on the class n ≡ r (mod m): the union's group is the reflection alone (order 2 on the class: then D ≥ 2 for
    n ≥ 3, the union being no complete graph, whose group is S_n), and (X₁) holds on the verifier's arcs at every length
    of the class from its bound up to the verifier's own N₁ = 2(3K + 2) + L, plus M − 1 (the profile argument with the
    zones grown by K carries it to every larger length of the class)."""
    if not fam_reflection or not union_order_two:
        raise Reject(f"{name}: on n ≡ {r} (mod {m}) the union's group is not the reflection alone (F198)")
    reach, period = sizes
    start = 2 * (3 * reach + 2) + period
    for length in class_lengths(name, c, m, r, max(low, 3), first, start, MAX_CHECKED_N):
        heads = [patterns.head_arcs(p, length) for p in pats]
        if not _reflection_moves_in_every_ball(heads, length, reach):
            raise Reject(f"{name}: at n = {length} some position has no position within K = {reach} in its ball whose "
                         "neighbourhoods within K are moved by the reflection in some head (F198)")


def _reflection_class(c: dict, fam, pats: list, n, m: int, r: int, sizes: tuple, low: int, first: int) -> None:
    """F124 on the class n ≡ r (mod m): the union's entry names the reflection as its group, of order 2 on the class,
    so a permutation meeting the union's view condition is the identity or the reflection; (X) on the verifier's arcs
    at every length of the class from its bound up to the verifier's own N = 2(2K + 2) + L, plus M − 1, rules the
    reflection out at every position (the profile argument carries (X) to every larger length of the class)."""
    reach, period = sizes
    # the union's group: the reflection, or F33's reflection of {2, …, n} beside global(1) (F170: 1 fixed, in every ball)
    fixed = 0 if fam.name is not None and fam.name("reflection") else \
        1 if fam.theorem == "F33" and fam.name is not None and fam.name("the reflection of {2, …, n}") else None
    if fixed is None or not _same_order_on_class(fam, sympy.Integer(2), n, m, r):
        raise Reject(f"F124: on n ≡ {r} (mod {m}) the union's group is not the reflection alone")
    start = 2 * (2 * reach + 2) + period
    for length in class_lengths("F124", c, m, r, low, first, start, MAX_CHECKED_N):
        heads = [patterns.head_arcs(p, length) for p in pats]
        if not _reflection_moves_every_position(heads, length, reach, fixed):
            raise Reject(f"F124: at n = {length} some position's neighbourhoods within K = {reach} are the reflection's "
                         "images in every head")


def keeps_permutation(heads: list, n: int, position: int, perm: dict) -> bool:
    """σ (moved points to images) meets every head's view condition at ``position`` with D = 2: σ(N_h(v)) = N_h(σ v)
    for every head and every v in the ball (heads: arc sets of pairs (j, i), i attends to j)."""
    ins: list[dict[int, set]] = [dict() for _ in heads]
    for idx, arcs in enumerate(heads):
        for j, i in arcs:
            ins[idx].setdefault(i, set()).add(j)
    ball = {position} | set().union(*(x.get(position, set()) for x in ins))
    for x in ins:
        for v in ball:
            mine = {perm.get(u, u) for u in x.get(v, set()) | {v}}
            theirs = x.get(perm.get(v, v), set()) | {perm.get(v, v)}
            if mine != theirs:
                return False
    return True


def _permutation_class(ctx, c: dict, pats: list, n, m: int, r: int, sizes: tuple, low: int, first: int) -> None:
    """F127 on the class: the certificate's permutation (its moved points and their images, each a fixed distance from
    an end on the class) is a permutation of its moved points, moves some head's arcs (outside G) and meets every head's
    view condition at the position on the verifier's arcs at every length of the class from its bound up to its own
    N + M − 1, N = 2(E + K + 1) + max(L, K + 1)."""
    reach, period = sizes
    pairs = c.get("permutation")
    if not isinstance(pairs, list) or not pairs or not all(isinstance(q, list) and len(q) == 2 for q in pairs):
        raise Reject(f"F127: the class n ≡ {r} (mod {m}) has no permutation")
    pos = decode(c.get("position"), ctx.symbols)
    moved = [(decode(x, ctx.symbols), decode(y, ctx.symbols)) for x, y in pairs]
    exprs = [pos] + [e for q in moved for e in q]
    start = 2 * (_class_far(exprs, n, m, r, "F127") + reach + 1) + max(period, reach + 1)
    for length in class_lengths("F127", c, m, r, low, first, start, MAX_CHECKED_N):
        here = {n: sympy.Integer(length)}
        perm = {int(x.xreplace(here)): int(y.xreplace(here)) for x, y in moved}
        if len(perm) != len(moved) or sorted(perm) != sorted(perm.values()) or \
                not all(1 <= x <= length for x in perm) or any(x == y for x, y in perm.items()):
            raise Reject(f"F127: at n = {length} the pairs are not a permutation of the moved points")
        heads = [patterns.head_arcs(p, length) for p in pats]
        if not any(any((perm.get(j, j), perm.get(i, i)) not in arcs for j, i in arcs) for arcs in heads):
            raise Reject(f"F127: at n = {length} the permutation is an automorphism of every head (inside G)")
        root = int(pos.xreplace(here))
        if not keeps_permutation(heads, length, root, perm):
            raise Reject(f"F127: at n = {length} the permutation changes a head's neighbourhood in the ball of {root}")


def _f87_premise(ctx, s) -> int:
    """The bound of Theorem F87's D = 2, from the step's connectivity premise (verified on its own)."""
    prem = ctx.premises(s)
    if len(prem) != 1 or prem[0]["rule"] != "PAT-CONNECTED" or \
            (prem[0].get("certificate") or {}).get("kind") != "global union":
        raise Reject("F86 on Theorem F87's D = 2: the premise is not that connectivity step")
    return int(prem[0]["certificate"].get("from", 0))


def _by_class(ctx, s, cert: dict, pats: list, n) -> str:  # noqa: C901 - one problem per claim of the certificate
    from . import rules_families
    sizes = _sizes(pats)
    m = int(cert.get("modulus", 0))
    classes = {int(c["residue"]): c for c in cert.get("classes") or []}
    if m < 1 or sorted(classes) != list(range(m)):
        raise Reject(f"F86: the classes do not cover every residue of n mod {m}")
    first = int(cert.get("from", 0))
    stated = decode((s.get("data") or {}).get("layers"), ctx.symbols)
    k = sympy.Symbol("k", integer=True, positive=True)
    fam = None
    if cert.get("union theorem") == "F87":
        dexpr, low, gmod, orders = sympy.Integer(2), _f87_premise(ctx, s), 1, dict[int, tuple]()
        if (s.get("data") or {}).get("diameter") != 2:
            raise Reject("F86 on Theorem F87: D is 2")
    else:
        fam = rules_families.union_family(ctx)
        if fam is None:
            raise Trust("F86: the union of the heads is not in the verifier's family table")
        if fam.coprime_to > 1 or not fam.least:
            raise Reject("F86: the union's theorem does not prove a least count")
        dexpr = fam.d(n)  # constant, or by residue of n mod the union's period (F193; a multiple of which m is, below)
        gmod, orders = _heads_orders(ctx, cert, pats, n)
        for q, what in ((gmod, "the group's modulus"), (fam.modulus, "the union's order modulus"),
                        (fam.period, "the union's period")):
            if m % max(q, 1):
                raise Reject(f"F86: the modulus {m} is not a multiple of {what} ({q})")
        low = max([int(fam.low)] + [b for _, b in orders.values()])
    if m % sizes[1]:
        raise Reject(f"F86: the modulus {m} is not a multiple of L ({sizes[1]})")
    if first < low:
        raise Reject(f"F86: the range starts at n = {first}, below {low} (the bounds of D and of the group's classes)")
    few, more, own, hidden, broken, in_ball = [], [], [], [], [], []
    for r, c in sorted(classes.items()):
        at = _in_class(dexpr, n, m, r, k)
        if not at.is_Integer:
            raise Reject(f"F86: the union's D is no integer on n ≡ {r} (mod {m})")
        d = int(at)
        if c.get("found by") == "F76":
            from . import partition_layers
            if d != 2 or int(c.get("layers", 0)) != 2 or _in_class(stated, n, m, r, k) != 2:
                raise Reject(f"F86: a class of partition heads (F76) on n ≡ {r} (mod {m}) gives D = 2 layers with D = 2")
            partition_layers.check_class(c, pats, m, r, low, first)
            hidden.append(r)
            continue
        if c.get("found by") == "F127":
            if d != 2 or int(c.get("layers", 0)) != 3 or _in_class(stated, n, m, r, k) != 3:
                raise Reject(f"F86: a permutation of the heads' own (F127) on n ≡ {r} (mod {m}) gives 3 = D + 1 layers "
                             "with D = 2")
            _permutation_class(ctx, c, pats, n, m, r, sizes, low, first)
            own.append(r)
            continue
        if c.get("found by") == "F88":
            if d != 2 or int(c.get("layers", 0)) != 3 or _in_class(stated, n, m, r, k) != 3:
                raise Reject(f"F86: a swap of the heads' own (F88) on n ≡ {r} (mod {m}) gives 3 = D + 1 layers with D = 2")
            _swap_class(ctx, c, pats, n, m, r, sizes, low, first)
            own.append(r)
            continue
        if fam is None:
            raise Reject(f"F86 on Theorem F87: the class n ≡ {r} (mod {m}) has no swap of the heads' own")
        if c.get("found by") == "F124":
            if int(c.get("layers", 0)) != d or _in_class(stated, n, m, r, k) != d or not fam.least_at(low + (r - low) % m) \
                    or int(fam.layers_at(low + (r - low) % m)) != d:
                raise Reject(f"F86: a class of Theorem F124 on n ≡ {r} (mod {m}) gives the union's D = {d} layers, "
                             "which the union's theorem proves")
            _reflection_class(c, fam, pats, n, m, r, sizes, low, first)
            broken.append(r)
            continue
        if c.get("found by") == "F198":
            if int(c.get("layers", 0)) != d or _in_class(stated, n, m, r, k) != d or not fam.least_at(low + (r - low) % m) \
                    or int(fam.layers_at(low + (r - low) % m)) != d:
                raise Reject(f"F86: a class of Theorem F198 on n ≡ {r} (mod {m}) gives the union's D = {d} layers, "
                             "which the union's theorem proves")
            _ball_class(c, fam.name is not None and bool(fam.name("reflection")),
                        _same_order_on_class(fam, sympy.Integer(2), n, m, r), pats, m, r, sizes, low, first, "F86")
            in_ball.append(r)
            continue
        sample = low + (r - low) % m
        want = int(fam.layers_at(sample))
        if int(c.get("layers", 0)) != want:
            raise Reject(f"F86: on n ≡ {r} (mod {m}) the union's theorem gives {want} layers, not {c.get('layers')}")
        if _in_class(stated, n, m, r, k) != want:
            raise Reject(f"F86: the step states {sympy.sstr(stated)} layers, not {want} on n ≡ {r} (mod {m})")
        if want == d:
            if not _same_order_on_class(fam, orders[r % gmod][0], n, m, r):
                raise Reject(f"F86: on n ≡ {r} (mod {m}) the heads' group does not have the union's order")
            few.append(r)
            continue
        own_witness = fam.class_witness or fam.witness
        if want != d + 1 or d != 2 or own_witness is None:
            raise Reject(f"F86: on n ≡ {r} (mod {m}) the union's theorem gives no swap witness at D = 2")
        _swap_class(ctx, c, pats, n, m, r, sizes, low, first, own_witness)
        more.append(r)
    source = f"Theorem {fam.theorem}, the verifier's own entry" if fam is not None else "Theorem F87, verified"
    return (f"Theorem F86, class by class mod {m}, D = {sympy.sstr(dexpr)} from {source}: D layers on {few} (the heads' group, "
            f"re-derived by the verifier, has the union's order), D layers on {broken} (the union's group the "
            f"reflection, which moves some head's neighbourhood of every position, F124), D layers on {in_ball} (the same "
            f"with a moved neighbourhood in every ball within K of its root, F198), D = 2 on {hidden} (partition "
            f"heads, no ball hiding two parts of one head, F76), D + 1 with the union's swap on {more} and with a swap "
            f"(F88) or a permutation near the ends (F127) of the heads' own that moves a head on {own}, each meeting "
            f"every head's view condition on the verifier's arcs at every length of the class up to its profile bound; "
            f"for n ≥ {first}")


def _union_reflection(ctx) -> bool:
    """The union's entry (family table, else lemma table) names the reflection i ↦ n + 1 − i as its group."""
    from . import rules_families
    fam = rules_families.union_family(ctx)
    if fam is not None:
        return fam.name is not None and bool(fam.name("reflection"))
    found = rules_families.union_lemma(ctx)
    return found is not None and found[1].group == "reflection"


def _growing(ctx, s, cert: dict, pats: list, n) -> str:
    """F192: the union's entry proves D layers, least (D any closed form in n), with the reflection as its group; on
    every class of n mod M the heads' group, re-decided by the verifier, has the union's order (F70 on the class), or
    the union's order is 2 there and (X_K) holds on the verifier's arcs at every length of the class from its bound up
    to the verifier's own N = 2(2K + 2) + L, plus M − 1 (F124 on the class)."""
    from . import rules_families
    d, layers, least, low, order, umod, _ = _union(ctx)
    fam = rules_families.union_family(ctx)
    if not least or not _same_for_every_n(layers(n), d(n), n):
        raise Reject("F192: the union's theorem does not prove D layers least")
    stated = decode((s.get("data") or {}).get("layers"), ctx.symbols)
    if not _same_for_every_n(stated, d(n), n):
        raise Reject(f"F192: the layers are not the union's D = {sympy.sstr(d(n))}")
    if not _union_reflection(ctx):
        raise Reject("F192: the union's group is not the reflection")
    sizes = _sizes(pats)
    gmod, orders = _heads_orders(ctx, cert, pats, n)
    m = int(cert.get("modulus", 0))
    classes = {int(c["residue"]): c for c in cert.get("classes") or []}
    if m < 1 or sorted(classes) != list(range(m)):
        raise Reject(f"F192: the classes do not cover every residue of n mod {m}")
    for q, what in ((gmod, "the group's modulus"), (umod, "the union's order modulus"), (sizes[1], "L")):
        if m % max(q, 1):
            raise Reject(f"F192: the modulus {m} is not a multiple of {what} ({q})")
    low = max([int(low)] + [b for _, b in orders.values()])
    first = int(cert.get("from", 0))
    if first < low:
        raise Reject(f"F192: the range starts at n = {first}, below {low} (the bounds of D and of the group's classes)")
    few: list[int] = []
    broken: list[int] = []
    in_ball: list[int] = []
    for r, c in sorted(classes.items()):
        how = _growing_class(c, fam, order, orders[r % gmod][0], pats, n, m, r, sizes, low, first)
        {"F70": few, "F124": broken, "F198": in_ball}[how].append(r)
    if not broken and not in_ball:
        raise Reject("F192: no class of Theorem F124 or F198 (F70 states the count alone)")
    return (f"Theorem F192, class by class mod {m}: the union's own entry proves D = {sympy.sstr(d(n))} layers (least) "
            f"from n = {low} with the reflection as its group; D layers on {few} (the heads' group, re-derived by the "
            f"verifier, has the union's order) and on {broken} (the union's group of order 2, the reflection, moves "
            "some head's neighbourhood within K of every position on the verifier's arcs at every length of the class "
            f"up to its profile bound, F124) and on {in_ball} (the same at a position of every ball within K of its "
            f"root, F198); for n ≥ {first}")


def _growing_class(c: dict, fam, order, theirs, pats: list, n, m: int, r: int, sizes: tuple, low: int,
                   first: int) -> str:
    """One class of F192: "F70" when the heads' order ``theirs`` is the union's there, "F124" when the union's order
    is 2 there and (X_K) holds on the verifier's arcs at every length of the class up to its own profile bound."""
    k = sympy.Symbol("k", integer=True, positive=True)

    def union_is(want) -> bool:
        if fam is not None and fam.modulus > 1:
            return _same_order_on_class(fam, want, n, m, r)
        return _in_class(want - order(n), n, m, r, k) == 0
    if c.get("found by") == "F70":
        if int(c.get("from", 0)) < low or not union_is(theirs):
            raise Reject(f"F192: on n ≡ {r} (mod {m}) the heads' group does not have the union's order")
        return "F70"
    if c.get("found by") == "F198":
        _ball_class(c, True, union_is(sympy.Integer(2)), pats, m, r, sizes, low, first, "F192")
        return "F198"
    if c.get("found by") != "F124":
        raise Reject(f"F192: the class n ≡ {r} (mod {m}) is found by {c.get('found by')!r}, not F70, F124 or F198")
    if not union_is(sympy.Integer(2)):
        raise Reject(f"F192: on n ≡ {r} (mod {m}) the union's group is not of order 2")
    reach, period = sizes
    start = 2 * (2 * reach + 2) + period
    for length in class_lengths("F192", c, m, r, low, first, start, MAX_CHECKED_N):
        heads = [patterns.head_arcs(p, length) for p in pats]
        if not _reflection_moves_every_position(heads, length, reach):
            raise Reject(f"F192: at n = {length} some position's neighbourhoods within K = {reach} are the "
                         "reflection's images in every head")
    return "F124"


def check(ctx, s, at_length: bool = False) -> tuple[str, str]:
    """`at_length`: the symbolic reading of a step at a concrete length (`_at_length`), whose D is compared there."""
    cert = s.get("certificate") or {}
    data = s.get("data") or {}
    if not data.get("least"):
        raise Reject("a head-layers certificate states a least count")
    if cert.get("n") is not None:
        return _at_length(ctx, s, cert, data)
    pats, n = _setting(ctx)
    if data.get("from") != cert.get("from"):
        raise Reject(f"the step's range starts at n = {data.get('from')}, not at the certificate's {cert.get('from')}")
    if any(isinstance(p, S.PatternUnion) and not p.parts for p in pats):
        raise Reject("an empty pattern")
    if not at_length:
        _premise_diameter(ctx, s, n)
    theorem = cert.get("theorem")
    if theorem == "F70":
        why = _equal_groups(ctx, s, cert, pats, n)
    elif theorem == "F71":
        why = _kept_witness(ctx, s, cert, pats, n)
    elif theorem == "F86":
        why = _by_class(ctx, s, cert, pats, n)
    elif theorem == "F75":
        from . import straight_heads
        why = straight_heads.check(ctx, s, cert, pats, n)
    elif theorem == "F192":
        why = _growing(ctx, s, cert, pats, n)
    elif theorem == "F143":
        from . import cyclic_window_heads
        why = cyclic_window_heads.check(ctx, s, cert, pats, n)
    elif theorem == "F191":
        from . import cyclic_window_directed
        why = cyclic_window_directed.heads_check(ctx, s, cert, pats, n)
    elif theorem == "F188":
        why = _star_beside_complete(ctx, s, cert, pats, n)
    elif theorem == "F236":
        why = _union_automorphisms(ctx, s, cert, pats, n)
    else:
        raise Reject(f"unknown theorem {theorem!r} for several heads' layers")
    return VERIFIED, f"{why} (docs/theory.md §11.11)"


def _star_beside_complete(ctx, s, cert: dict, pats: list, n) -> str:
    """Theorem F188: the distinct heads are `full` and `star` (`global(1)`), each present; one layer, from n = 3. The
    lemma's hypotheses are read on the re-parsed heads; its conclusion is tried on the verifier's own arcs at
    n = 3, …, 6: no permutation moving position 1 keeps every head's neighbourhood of some position."""
    from itertools import permutations
    kinds = set()
    for p in pats:
        if isinstance(p, S.Full):
            kinds.add("full")
        elif isinstance(p, S.Star) or (isinstance(p, S.Global) and isinstance(p.g, int) and p.g == 1):
            kinds.add("star")
        else:
            raise Reject("F188: a head is neither `full` nor `star`")
    if kinds != {"full", "star"}:
        raise Reject("F188: needs a `full` head and a `star` head")
    layers = sympy.sympify(decode((s.get("data") or {}).get("layers"), ctx.symbols), strict=True)  # safe: strict
    if layers != 1:
        raise Reject(f"F188: the count is one layer, not {layers}")
    low = cert.get("from")
    if not isinstance(low, int) or isinstance(low, bool) or low < 3:
        raise Reject("F188: the range starts at n = 3 or later (at n = 2 the star is complete)")
    for length in range(3, 7):
        heads = [patterns.head_arcs(p, length) for p in pats]
        nbs = patterns.in_neighbourhoods(heads, length)
        for perm in permutations(range(1, length + 1)):
            if perm[0] == 1:
                continue  # in the heads' group, the stabiliser of 1
            for i in range(1, length + 1):
                if all(frozenset(perm[k - 1] for k in nb[i]) == nb[perm[i - 1]] for nb in nbs):
                    raise Reject(f"F188: at n = {length} the permutation {list(perm)} keeps every head's "
                                 f"neighbourhood of position {i}")
    return ("Theorem F188: every head is `full` or `star` (both present), so the union is complete and a permutation "
            "keeping every head's neighbourhood of one position fixes the hub; no such permutation moves 1 at "
            "n = 3, …, 6 on the verifier's arcs; one layer from n = 3")


#: Theorem F236 restated: the pair of heads, the range's start, the modulus and the residues needing D + 1; D by
#: n mod 3 from the proof's step (2); the union's automorphisms of its step (3) (twins' swaps, the reflection when 3 | n)
F236_START, F236_MODULUS, F236_EXTRA = 10, 6, (0,)
#: the lengths the verifier re-checks F236's conclusion at: two periods from the range's start
F236_CHECKED = 2 * F236_MODULUS


def _f236_pair() -> frozenset:
    return frozenset({S.PatternUnion((S.Blocks(3), S.Offsets((1,)))), S.PatternUnion((S.Blocks(2), S.Offsets((-1,))))})


def _f236_diameter(n):
    q = sympy.floor(n / 3)
    return sympy.Piecewise((2 * q - 1, sympy.Eq(sympy.Mod(n, 3), 0)), (2 * q + 1, sympy.Eq(sympy.Mod(n, 3), 2)),
                           (2 * q, True))


def _f236_elements(m: int) -> list[list[int]]:
    """Step (3)'s Aut(Γ) at length m: ⟨(1 2)⟩, with (m − 1 m) and the reflection when 3 | m (1-based image lists)."""
    def swapped(perm: list[int], a: int, b: int) -> list[int]:
        out = list(perm)
        out[a - 1], out[b - 1] = perm[b - 1], perm[a - 1]
        return out
    base = [list(range(1, m + 1))]
    base += [swapped(p, 1, 2) for p in base]
    if m % 3 == 0:
        base += [swapped(p, m - 1, m) for p in base]
        base += [[m + 1 - x for x in p] for p in base]
    return base


def _f236_at(pats: list, m: int) -> bool:
    """F235's pairs at length m on the verifier's arcs: the restated elements are automorphisms of the union and all of
    them (nauty's order), and whether some element outside the heads' group moves heads only at positions at distance
    D from some root."""
    from sympy.combinatorics import Permutation, PermutationGroup
    from .nauty_digraph import generators
    heads = [patterns.head_arcs(p, m) for p in pats]
    union = frozenset().union(*heads)
    outs = patterns.union_out([union], m)
    elements = _f236_elements(m)
    for perm in elements:
        if frozenset((perm[j - 1], perm[i - 1]) for j, i in union) != union:
            raise Reject(f"F236: at n = {m} the element {perm} of step (3) is no automorphism of the union")
    gens = generators(m, {v - 1: [x - 1 for x in outs[v]] for v in range(1, m + 1)})
    order = PermutationGroup([Permutation(g) for g in gens]).order() if gens else 1
    if order != len({tuple(p) for p in elements}):
        raise Reject(f"F236: at n = {m} the union has {order} automorphisms, not step (3)'s {len(elements)}")
    dist = {v: patterns.bfs(outs, v) for v in range(1, m + 1)}  # dist[v][i] = d(v → i)
    reached = [x for v in dist for x in dist[v][1:]]
    if any(x is None for x in reached):
        raise Reject(f"F236: at n = {m} the union is not strongly connected")
    d = max(x for x in reached if x is not None)
    if d != int(_f236_diameter(sympy.Integer(m))):
        raise Reject(f"F236: at n = {m} the union's D is {d}, not step (2)'s")
    far = {i: {v for v in range(1, m + 1) if dist[v][i] == d} for i in range(1, m + 1)}
    found = False
    for perm in elements:
        bad = patterns.view_bad_positions(perm, heads, m)
        if bad and any(bad <= far[i] for i in far):
            found = True
    return found


def _union_automorphisms(ctx, s, cert: dict, pats: list, n) -> str:
    """Theorem F236 (with F235): the heads are the restated pair; the union's entry in the verifier's family table
    proves D layers, least, from a bound at or below the range's start; D is step (2)'s; the count is D + 1 exactly on
    the restated residues; and at every length of two periods from the range's start the restated Aut(Γ) is the
    union's (its arcs, nauty's order) and F235's pairs exist exactly on those residues (BFS on the verifier's arcs)."""
    if frozenset(pats) != _f236_pair():
        raise Reject("F236: the heads are not `blocks(3) + offsets {1}` and `blocks(2) + offsets {-1}`")
    d, _, least, low, _, _, _ = _union(ctx)
    start = cert.get("from")
    if not isinstance(start, int) or isinstance(start, bool) or start < max(F236_START, int(low)):
        raise Reject(f"F236: the range starts below n = {max(F236_START, int(low))}")
    if not least:
        raise Reject("F236: the union's theorem does not prove D layers least")
    if cert.get("modulus") != F236_MODULUS or list(cert.get("extra residues") or []) != list(F236_EXTRA):
        raise Reject(f"F236: the classes are not D + 1 on n mod {F236_MODULUS} ∈ {list(F236_EXTRA)}, D elsewhere")
    mine = _f236_diameter(n)
    if not _same_for_every_n(d(n), mine, n):
        raise Reject("F236: the union's D in the verifier's table is not step (2)'s")
    step = s.get("data") or {}
    if not _same_for_every_n(decode(step.get("diameter"), ctx.symbols), mine, n):
        raise Reject("F236: the step's D is not step (2)'s")
    want = sympy.Piecewise((mine + 1, sympy.Or(*[sympy.Eq(sympy.Mod(n, F236_MODULUS), r) for r in F236_EXTRA])),
                           (mine, True))
    if not _same_for_every_n(decode(step.get("layers"), ctx.symbols), want, n):
        raise Reject(f"F236: the count is not D + 1 exactly on n mod {F236_MODULUS} ∈ {list(F236_EXTRA)}")
    for m in range(start, start + F236_CHECKED):
        if _f236_at(pats, m) != (m % F236_MODULUS in F236_EXTRA):
            raise Reject(f"F236: at n = {m} a view witness of the heads at depth D "
                         + ("is missing" if m % F236_MODULUS in F236_EXTRA else "exists"))
    return (f"Theorem F236 (with F235, lemma AR): the heads are its pair, the union's theorem proves D layers (least) "
            f"with step (2)'s D; at n = {start}, …, {start + F236_CHECKED - 1} on the verifier's arcs the union's "
            "automorphisms are step (3)'s (nauty's order) and one outside the heads' group moves heads only at "
            f"distance D from a root exactly when n mod {F236_MODULUS} ∈ {list(F236_EXTRA)}: D + 1 there, D elsewhere, "
            f"for n ≥ {start}")


def _premise_diameter(ctx, s, n) -> None:
    """The D a head-layers step states is its PAT-CONNECTED premise's (checked there) at every n; a D stated with no
    premise stating one is named not compared. (Each theorem's own check reads the count, not the stated D: a D of 5
    under F70 was verified.)"""
    stated = (s.get("data") or {}).get("diameter")
    if stated is None:
        return
    theirs = [(p.get("data") or {}).get("diameter") for p in ctx.premises(s) if p["rule"] == "PAT-CONNECTED"]
    if len(theirs) != 1 or theirs[0] is None:
        ctx.unbound.append(f"{s['id']} data.diameter")
        return
    if not _same_for_every_n(decode(stated, ctx.symbols), decode(theirs[0], ctx.symbols), n):
        raise Reject("the diameter stated is not the connectivity premise's")


def _at_length(ctx, s, cert: dict, data: dict) -> tuple[str, str]:
    """Theorem F125 (b): the certificate's symbolic count (and D) checked as at symbolic n, on the file read with a
    symbolic length, then read at the file's length: it lies in the range (and in its class, for F86), and the
    step's count and D are the symbolic ones there."""
    from dataclasses import replace
    from .kernels import param_symbols
    length = cert.get("n")
    if not isinstance(length, int) or isinstance(length, bool) or length != ctx.spec.tokens:
        raise Reject(f"the certificate's length {length!r} is not the file's n = {ctx.spec.tokens}")
    if any(p.name == "n" for p in ctx.spec.params):
        raise Trust("a parameter named n: the symbolic length is not re-read")
    if cert.get("layers") is None or cert.get("diameter") is None:
        raise Reject("a count at a concrete length states the symbolic count and D it is read from")
    spec = replace(ctx.spec, tokens="n")
    symbolic = replace(ctx, spec=spec, symbols=param_symbols(spec), cache={})
    step = dict(s, certificate={k: v for k, v in cert.items() if k != "n"},
                data=dict(data, layers=cert["layers"], diameter=cert["diameter"], **{"from": cert.get("from")}))
    _, why = check(symbolic, step, at_length=True)
    n = symbolic.symbols["n"]
    at = {n: sympy.Integer(length)}
    if length < int(cert.get("from", 0)):
        raise Reject(f"n = {length} is below the range's bound {cert.get('from')}")
    if cert.get("classes"):
        here = [c for c in cert["classes"] if int(c["residue"]) == length % int(cert.get("modulus", 0) or 1)]
        if len(here) != 1 or length < int(here[0]["from"]):
            raise Reject(f"n = {length} is not in a class of the decision from its bound on")
        want = sympy.Integer(int(here[0]["layers"]))
    else:
        want = sympy.sympify(decode(cert["layers"], symbolic.symbols), strict=True).xreplace(at)  # safe: strict
    diameter = sympy.sympify(decode(cert["diameter"], symbolic.symbols), strict=True).xreplace(at)  # safe: strict
    got = sympy.sympify(decode(data.get("layers"), ctx.symbols), strict=True)  # safe: strict (no text parsed)
    if got != want:
        raise Reject(f"the step's count {got} is not the decision's {want} at n = {length}")
    if data.get("diameter") is not None and sympy.sympify(decode(data["diameter"], ctx.symbols), strict=True) != diameter:  # safe: strict
        raise Reject(f"the step's D is not the decision's {diameter} at n = {length}")
    return VERIFIED, f"{why}; read at n = {length}: {want} layers, D = {diameter} (Theorem F125 (b))"


def applies(s) -> bool:
    return (s.get("certificate") or {}).get("kind") == "head layers"

