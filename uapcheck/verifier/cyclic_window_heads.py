"""PAT-LAYERS for several heads whose union is a cyclic window (docs/theory.md §11.11, Theorem F143), re-checked with
the verifier's own code: its own lemma for the union (`cyclic window`, D = ⌈⌊n/2⌋/w⌉, D layers from n = 2w + 3; or
`one-sided`, D = ⌈(n − 1)/w⌉ from n = 2w + 2, F143 (O)), the
heads' offsets read off its own arcs, and the classes of n mod 2w that need D + 1 found by evaluating the theorem's
inequality n − z ≥ 2w(D − 1) + 2 at one length of each class.

What is checked (a certificate of kind "head layers" with theorem F143):
* every head is a union of windows, offsets and dilations (cyclic or not) with integer sizes, so each is a set of
  offsets, cyclic ones at every position and non-cyclic ones where they stay in [1, n];
* at two lengths beyond 4w + 4 every position's neighbourhood in every head is exactly that description, with the
  offsets read off the middle position and off the position 1 after a rotation; the cyclic offsets of all the heads
  make ±1, …, ±w;
* the case: some head's offset set is not symmetric, or every head's cyclic and non-cyclic sets are, or (S) every
  head's offset set is symmetric and some head's cyclic or non-cyclic set is not; in case (S) the zone positions where
  the reflection reversing the zone maps a head's offsets at a position onto another set than the mirror image of
  its image's, read off the verifier's arcs at one length, and their hull's f positions, which add the classes where
  a ball of 2w(D − 1) + 1 positions avoids them, n − f ≥ 2w(D − 1) + 1;
* the zone's sides a and b and the classes needing D + 1 are the certificate's, and the step's count is D on the
  other classes and D + 1 on those, with D the union's, from n = 2w + 3 on.
"""
from __future__ import annotations

import sympy

from .. import spec as S
from . import patterns
from .check import Reject, Trust


def _translation_parts(p) -> bool:
    parts = p.parts if isinstance(p, S.PatternUnion) else (p,)
    return all(isinstance(q, (S.Window, S.Offsets, S.Dilated)) for q in parts)


def _offsets_at(arcs: frozenset, n: int) -> tuple[frozenset, frozenset]:
    """(cyclic, non-cyclic) offsets of one head at n > 4w + 4: an offset d ≠ 0 seen from every position (modulo n)
    is cyclic; one seen from the middle but not from every position is non-cyclic. Raises Reject when some position
    sees another set than that description gives."""
    into: dict[int, set] = {i: set() for i in range(1, n + 1)}
    for j, i in arcs:
        into[i].add(j)

    def signed(d: int) -> int:
        d %= n
        return d - n if d > n // 2 else d

    seen = {i: frozenset(signed(j - i) for j in into[i]) for i in into}
    middle = seen[n // 2]
    cyclic = frozenset.intersection(*seen.values())
    line = middle - cyclic
    for i, got in seen.items():
        want = cyclic | {p for p in line if 1 <= i + p <= n}
        if got != want:
            raise Reject(f"F143: at n = {n} position {i} attends to offsets {sorted(got)}, not a translation-"
                         f"invariant head's {sorted(want)}")
    return cyclic, line


def _needs_one_more(w: int, z: int, n: int, one_sided: bool = False) -> bool:
    """The theorem's inequality at n: the ball (2w(D − 1) + 1 positions, one-sided w(D − 1) + 1) and its shift by one
    fit among the n − z positions outside the zone."""
    if one_sided:
        return z > 0 and n - z >= w * (-(-(n - 1) // w) - 1) + 2
    d = -(-(n // 2) // w)
    return z > 0 and n - z >= 2 * w * (d - 1) + 2


def _reflection_hull(pats: list, w: int, a: int, b: int) -> list:
    """Case (S): [lo, hi], the hull of the zone coordinates x (v = x for x ≥ 1, v = n + x for x ≤ 0) where the
    reflection v ↦ n + b − a + 1 − v (mod n) maps some head's neighbourhood of v onto another set than the
    neighbourhood of the image, read off the heads' arcs at n = 4w + 5; [] when there is none."""
    length = 4 * w + 5
    into: list = []
    for p in pats:
        sets: dict[int, set] = {i: {i} for i in range(1, length + 1)}
        for j, i in patterns.head_arcs(p, length):
            sets[i].add(j)
        into.append(sets)

    def image(v: int) -> int:
        return (length + b - a + 1 - v - 1) % length + 1

    bad = [x for x in range(-a + 1, b + 1)
           if any({image(u) for u in nb[x if x >= 1 else length + x]} != nb[image(x if x >= 1 else length + x)]
                  for nb in into)]
    return [min(bad), max(bad)] if bad else []


def _reread(ctx, cert: dict, pats: list) -> tuple:
    """F143's data re-derived on the verifier's arcs: (the union's lemma, w, one-sided, the case, a, b, the failing
    hull ([] when none)); the zone, case and hull compared with the certificate's "cyclic heads"."""
    from . import rules_families
    found = rules_families.union_lemma(ctx)
    if found is None or found[1].name not in ("cyclic window", "one-sided"):
        raise Trust("F143: the union of the heads is not the verifier's `cyclic window` or `one-sided` lemma pattern")
    lemma = found[1]
    one_sided = lemma.name == "one-sided"
    data = cert.get("cyclic heads") or {}
    w = data.get("w")
    if not isinstance(w, int) or isinstance(w, bool) or w < 1:
        raise Reject("F143: no window radius")
    low = lemma.rooted_from(1) if lemma.rooted_from is not None else None
    if low != 2 * w + (2 if one_sided else 3) or int(cert.get("from", 0)) < low:
        raise Reject(f"F143: the range starts below the union's lemma (n ≥ {low})")
    if not all(_translation_parts(p) for p in pats):
        raise Reject("F143: a head has a part other than a window, offsets or a dilation")
    heads = []
    for length in (4 * w + 5, 4 * w + 6):
        heads = [_offsets_at(patterns.head_arcs(p, length), length) for p in pats]
        cyclic = frozenset().union(*[c for c, _ in heads])
        sign = 1 if cyclic and min(cyclic) > 0 else -1
        window = frozenset(sign * k for k in range(1, w + 1)) if one_sided else frozenset(range(-w, w + 1)) - {0}
        if cyclic != window or any(not (c | ln) <= window for c, ln in heads):
            raise Reject(f"F143: at n = {length} the heads' cyclic offsets are not the union's {sorted(window)}, or an "
                         f"offset is outside them")
    if one_sided:
        case = "one-sided"
    elif any(c | ln != frozenset(-x for x in c | ln) for c, ln in heads):
        case = "asymmetric"
    elif all(c == frozenset(-x for x in c) and ln == frozenset(-x for x in ln) for c, ln in heads):
        case = "reflected"
    else:
        case = "symmetric"
    a = max([0] + [p for _, ln in heads for p in ln])
    b = max([0] + [-p for _, ln in heads for p in ln])
    hull = _reflection_hull(pats, w, a, b) if case == "symmetric" else []
    if list(data.get("failing") or []) != hull:
        raise Reject(f"F143: the zone positions where the reflection reversing the zone fails are not the verifier's "
                     f"({hull or 'none'})")
    if (data.get("case"), data.get("a"), data.get("b")) != (case, a, b):
        raise Reject(f"F143: the certificate's zone or case is not the verifier's ({case}, a = {a}, b = {b})")
    return lemma, w, one_sided, case, a, b, hull


def check(ctx, s, cert: dict, pats: list, n) -> str:
    from .head_layers import _same_for_every_n
    from .trees import decode
    lemma, w, one_sided, case, a, b, hull = _reread(ctx, cert, pats)
    data = cert.get("cyclic heads") or {}
    m = w if one_sided else 2 * w
    extra = [r for r in range(m) if _needs_one_more(w, a + b, 6 * w + r, one_sided)]
    if hull:  # ρ_Z is no automorphism of some head: a witness where a ball avoids the hull, n − f ≥ 2w(D − 1) + 1
        f = hull[1] - hull[0] + 1
        extra = [r for r in range(m) if r in extra or 6 * w + r - f >= 2 * w * (-(-((6 * w + r) // 2) // w) - 1) + 1]
    if list(data.get("extra residues") or []) != extra:
        raise Reject(f"F143: the certificate's classes are not the verifier's (D + 1 on n mod {m} ∈ {extra})")
    d = lemma.diameter.xreplace({x: n for x in lemma.diameter.free_symbols})
    step = s.get("data") or {}
    if not _same_for_every_n(decode(step.get("diameter"), ctx.symbols), d, n):
        raise Reject("F143: D is not the union's")
    want = d if not extra else sympy.Piecewise(
        (d + 1, sympy.Or(*[sympy.Eq(sympy.Mod(n, m), r) for r in extra])), (d, True))
    if not _same_for_every_n(decode(step.get("layers"), ctx.symbols), want, n):
        raise Reject(f"F143: the count is not D + 1 exactly on n mod {m} ∈ {extra} and D elsewhere")
    return (f"F143: the union is the `{lemma.name}` lemma's pattern (w = {w}); the heads' offsets, read off the "
            f"verifier's arcs, are translation-invariant ({case}), the zone has {a} + {b} positions, D + 1 on n mod "
            f"{m} ∈ {extra}, D elsewhere, for n ≥ {cert.get('from')}")


def _own_group(case: str, a: int, b: int) -> dict:
    """Theorem F153 from the re-derived data, as a class of the head-intersection check: C_n, or D_n in case (R),
    without a zone; with one, the identity, and ρ (i ↦ n + 1 − i) in case (R)."""
    if a + b == 0:
        return {"kind": "rotations", "elements": [("rotations", 1, 1 if case == "reflected" else None)]}
    return {"kind": "finite", "elements": [("id",)] + ([("refl", 1)] if case == "reflected" else [])}


def group_check(ctx, s) -> tuple[str, str]:
    """SYM-AUT by Theorem F153 (a certificate of kind "cyclic window heads"): F143's data re-derived on the verifier's
    arcs, the group it gives (the union's lemma group cut down to the heads' profiles) equal to the certificate's, the
    step's name and order that group's, and the order re-counted by nauty on the coloured union at the range's first
    lengths up to head_intersection.INSTANCE_TOP (at least its first two)."""
    from .check import VERIFIED
    from .head_intersection import INSTANCE_TOP, _nauty_instances, name_fits, order_of
    from .trees import decode
    spec = ctx.spec
    if spec.positional != "none" or any(h.bias for h in spec.heads):
        raise Reject("Theorem F153 is for unbiased heads without a positional encoding")
    cert = s.get("certificate") or {}
    pats = list(dict.fromkeys(h.pattern for h in spec.heads))
    low, length = int(cert.get("from", 0)), cert.get("n")
    if length is None:
        n, big, symbolic = ctx.symbols[spec.tokens], 2 * 10 ** 6 + 1, ctx
    elif not isinstance(length, int) or isinstance(length, bool) or length != spec.tokens or length < low:
        raise Reject(f"Theorem F153: the certificate's length {length!r} is not the file's n in the range n ≥ {low}")
    elif any(p.name == "n" for p in spec.params):
        raise Trust("Theorem F153 at a concrete length: a parameter named n, so the symbolic length is not re-read")
    else:  # the closed form, re-derived on the file read with a symbolic length, then read at the file's length
        from dataclasses import replace
        from .kernels import param_symbols
        symbolic_spec = replace(spec, tokens="n")
        symbolic = replace(ctx, spec=symbolic_spec, symbols=param_symbols(symbolic_spec), cache={})
        n, big = symbolic.symbols["n"], length
    lemma, w, one_sided, case, a, b, hull = _reread(symbolic, cert, pats)
    mine = _own_group(case, a, b)
    stated = cert.get("group") or {}
    elements = sorted((tuple(e) for e in stated.get("elements") or []), key=repr)
    if (stated.get("kind"), elements) != (mine["kind"], sorted(mine["elements"], key=repr)):
        raise Reject(f"Theorem F153: the group is not the verifier's ({mine['kind']}, {mine['elements']})")
    data = s.get("data") or {}
    if not name_fits(mine, data.get("name")):
        raise Reject(f"Theorem F153: the name {data.get('name')!r} is not the group's")
    for where in (cert.get("order"), data.get("order")):
        if where is None:
            continue
        claimed = decode(where, symbolic.symbols) if not isinstance(where, int) else sympy.Integer(where)
        claimed = sympy.sympify(claimed, strict=True).xreplace({n: sympy.Integer(big)})  # safe: strict (no text parsed)
        if claimed != order_of(mine, big):
            raise Reject(f"Theorem F153: the order {sympy.sstr(claimed)} at n = {big} is not the group's")
    checked = _nauty_instances(spec, pats, [dict(mine, residue=0, **{"from": low})], 1, max(INSTANCE_TOP, low + 1))
    return VERIFIED, (f"Theorem F153 (docs/theory.md §11.11): the union is the `{lemma.name}` lemma's pattern (w = {w}, "
                      f"its group {lemma.group}); the heads' offsets, read off the verifier's arcs, are "
                      f"translation-invariant ({case}), the zone has {a} + {b} positions"
                      f"{f', ρ_Z fails on {hull}' if hull else ''}, so G is the stated group for n ≥ {low}"
                      f"{'' if length is None else f', read at n = {length}'}; {checked}")
