"""Families whose sizes are declared params (docs/theory.md §11.11, Theorems F47–F49, and F2/F3/F10 with a
named window or global count), restated for the verifier with its own reading of the re-parsed pattern.

    F47 blocks(b) + global(g), b ≥ 2:      n ≥ b(⌊g/b⌋ + 2) + 1: D = 2, 3 layers (least), |G| as F4's
    F48 strided(s) + global(g), s ≥ 3:     n ≥ g + s + 1: D = 2, 3 layers (least), |G| as F23's (s = 2 written as a
                                           literal with a named g: 2 layers, least)
    F49 offsets {1, s} cyclic or {−1, −s}, s ≥ 2: n ≥ max(s² + 1, 6): D = q + max(r, s − 2), n − 1 = qs + r,
                                           |G| = n, D layers (least)
    F50 window(w) + strided(s), w a literal, s named ≥ w + 2: n ≥ s(4w + 3): D ≤ 2 + ⌈⌊s/2⌋/w⌉ (a bound), |G| = 2,
                                           bound layers (not least; F53 (a), F54 (a))
    F51 offsets {−s, −1, 1, s} cyclic, s ≥ 3: n ≥ s² + s + 2: D ≤ ⌊n/(2s)⌋ + ⌈s/2⌉ (a bound), |G| = 2n, bound + 1
                                           layers (not least)
    F52 window(w) + dilated(w', r), w named ≥ w'r − 1: n ≥ 2m + 1, m = max(w, w'r): D = ⌈(n − 1)/m⌉, |G| = 2, D
                                           layers (least; the literal instance is checked as the window of radius m
                                           on the union's own arcs, rooted views with nauty)
    F2  window(w) + global(g):             n ≥ g + 2w + 3: D = 2, |G| = 2·g!, 3 layers (least)
    F3  window(w) cyclic + global(g), g ≥ w (decided from the declared values): F2's values
    F10 window(w) cyclic + global(g):      n ≥ max(g, w) + 2w + 3: D = 2, |G| = 2·g!, 3 layers (least)

The check of a step, at symbolic n with named sizes: (1) every param is declared with a least value at
least the theorem's (b ≥ 2, s ≥ 3, s ≥ 2); (2) at every parameter point of a grid (each named size from its
declared least value up to GRID more), the stated range, diameter, layer count and order, evaluated at every
n of the range up to the grid's top length, equal the verifier's own restatement (its range a lower bound of
the stated one; for F50 the stated bound and as many layers, for F51 the bound and bound + 1 layers); (3) at the first parameter points, the verifier's own family table for the literal
instance (families.match on the pattern with the sizes written out) gives the same values, and its instance
check re-checks D, |G|, the witness or the rooted views (nauty) on its own arcs.
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import Callable, Optional

import sympy

from .. import spec as S

#: Parameter values re-checked: each named size from its declared least value up to this many more.
GRID = 5
#: Lengths re-checked for the closed forms at each parameter point: from the range's start to this.
TOP_N = 48
#: Parameter points whose literal instance gets the verifier's own instance check (arcs, nauty).
INSTANCE_POINTS = 2


@dataclass(frozen=True)
class ParamFamily:
    theorem: str
    names: tuple                               # the named sizes
    least: dict                                # name -> the least value the theorem needs
    low: Callable[[dict], int]                 # params -> the range's start
    diameter: Callable[[int, dict], int]
    layers: Callable[[int, dict], int]
    least_layers: bool
    order: Callable[[int, dict], int]
    name: Callable[[str], bool]
    bound: bool = False                        # F50, F51: `diameter` is an upper bound (F50: the layers the bound, F51: bound + 1)


def _fact(k: int) -> int:
    return int(sympy.factorial(k))


def _name_of(term) -> Optional[str]:
    return term if isinstance(term, str) and not term.startswith("-") else None


def _size(term, values: dict) -> int:
    if isinstance(term, str):
        return -values[term[1:]] if term.startswith("-") else values[term]
    return int(term)


def _parts(p) -> list:
    return list(p.parts) if isinstance(p, S.PatternUnion) else [p]


def match(spec: S.Spec) -> Optional[ParamFamily]:
    """The restated family of the spec's single pattern when a size is a declared param, else None."""
    if spec.positional != "none" or not spec.heads or any(h.bias for h in spec.heads):
        return None
    pats = {h.pattern for h in spec.heads}
    if len(pats) != 1:
        return None
    parts = _parts(pats.pop())
    declared = {p.name for p in spec.params if p.constraint == "integer"}
    named = {x.lstrip("-") for q in parts for x in _terms(q) if isinstance(x, str)}
    if not named or not named <= declared:
        return None
    kinds = sorted(type(q).__name__ for q in parts)
    by = {type(q).__name__: q for q in parts}
    if kinds == ["Blocks", "Global"]:
        return _f47(by["Blocks"].b, by["Global"].g)
    if kinds == ["Global", "Strided"]:
        return _f48(by["Strided"].s, by["Global"].g)
    if kinds == ["Offsets"] and by["Offsets"].cyclic:
        return _f51(by["Offsets"].offsets) or _f49(by["Offsets"].offsets)
    if kinds == ["Strided", "Window"] and not by["Window"].cyclic:
        return _f50(by["Window"].w, by["Strided"].s)
    if kinds == ["Dilated", "Window"] and not by["Window"].cyclic:
        return _f52(by["Window"].w, by["Dilated"].w, by["Dilated"].r)
    if kinds == ["Global", "Window"]:
        return _window_global(by["Window"], by["Global"].g, spec)
    return None


def _terms(q) -> list:
    return [getattr(q, f.name) for f in dataclasses.fields(q) if f.name in ("b", "g", "s", "w", "r")] + \
        list(getattr(q, "offsets", ()))


def _least(*pairs) -> dict:
    """The least value each named size needs (the largest over its uses: `blocks(b) + global(b)` needs b ≥ 2)."""
    out: dict = {}
    for term, k in pairs:
        name = _name_of(term)
        if name is not None:
            out[name] = max(out.get(name, k), k)
    return out


def _f47(bt, gt) -> Optional[ParamFamily]:
    if isinstance(bt, str) and bt.startswith("-") or isinstance(gt, str) and gt.startswith("-"):
        return None

    def pieces(n, v):
        b, g = _size(bt, v), _size(gt, v)
        out = []
        for k in range(1, -(-n // b) + 1):
            lo, hi = max((k - 1) * b + 1, g + 1), min(k * b, n)
            if lo <= hi:
                out.append(hi - lo + 1)
        return g, out

    def order(n, v):
        g, sizes = pieces(n, v)
        out = _fact(g)
        for size in set(sizes):
            m = sizes.count(size)
            out *= _fact(size) ** m * _fact(m)
        return out

    def low(v):
        b, g = _size(bt, v), _size(gt, v)
        return b * (g // b + 2) + 1
    return ParamFamily("F47", tuple(sorted(_least((bt, 2), (gt, 1)))), _least((bt, 2), (gt, 1)), low,
                       lambda n, v: 2, lambda n, v: 3, True, order, lambda text: "disjoint cliques" in text)


def _f48(st, gt) -> Optional[ParamFamily]:
    if isinstance(st, str) and st.startswith("-") or isinstance(gt, str) and gt.startswith("-"):
        return None
    two = st == 2

    def order(n, v):
        s, g = _size(st, v), _size(gt, v)
        q, e = divmod(n - g, s)
        return _fact(g) * _fact(q + 1) ** e * _fact(e) * _fact(q) ** (s - e) * _fact(s - e)
    return ParamFamily("F48", tuple(sorted(_least((st, 3), (gt, 1)))), _least((st, 3), (gt, 1)),
                       lambda v: _size(gt, v) + _size(st, v) + 1, lambda n, v: 2, lambda n, v: 2 if two else 3,
                       True, order, lambda text: "residue classes" in text and "disjoint cliques" in text)


def _f49(offsets) -> Optional[ParamFamily]:
    ks = [k for k in offsets if k != 0]
    if len(ks) != 2 or not any(isinstance(k, str) for k in ks) or not any(k in (1, -1) for k in ks):
        return None
    sign = next(k for k in ks if k in (1, -1))
    other = next(k for k in ks if isinstance(k, str))
    if (sign > 0) == other.startswith("-"):
        return None  # {1, −s} or {−1, s}: jumps of both signs, not this family
    name = other.lstrip("-")

    def diameter(n, v):
        s = v[name]
        q, r = divmod(n - 1, s)
        return q + max(r, s - 2)
    return ParamFamily("F49", (name,), {name: 2}, lambda v: max(v[name] ** 2 + 1, 6), diameter, diameter, True,
                       lambda n, v: n, lambda text: text == "C_n")


def _f50(wt, st) -> Optional[ParamFamily]:
    """window(w) + strided(s) with a literal w and a named s ≥ w + 2: n ≥ s(4w + 3), D ≤ 2 + ⌈⌊s/2⌋/w⌉, the
    reflection, that bound as the layers (not least): where D is the bound D layers suffice (F53 (a), F54 (a)),
    elsewhere D + 1 ≤ the bound."""
    if not isinstance(wt, int) or not isinstance(st, str) or st.startswith("-"):
        return None

    def bound(n, v):
        s = v[st]
        return 2 + -(-(s // 2) // wt)
    return ParamFamily("F50", (st,), {st: wt + 2}, lambda v: v[st] * (4 * wt + 3), bound,
                       bound, False, lambda n, v: 2, lambda text: text == "reflection", True)


def _f51(offsets) -> Optional[ParamFamily]:
    """offsets {−s, −1, 1, s} cyclic with s named, s ≥ 3: n ≥ s² + s + 2, D ≤ ⌊n/(2s)⌋ + ⌈s/2⌉, D_n, bound + 1
    layers (not least)."""
    ks = [k for k in offsets if k != 0]
    named = {k.lstrip("-") for k in ks if isinstance(k, str)}
    if len(ks) != 4 or len(named) != 1 or sorted(k for k in ks if isinstance(k, int)) != [-1, 1]:
        return None
    name = named.pop()
    if sorted(k for k in ks if isinstance(k, str)) != sorted([name, "-" + name]):
        return None

    def bound(n, v):
        s = v[name]
        return n // (2 * s) + (s + 1) // 2
    return ParamFamily("F51", (name,), {name: 3}, lambda v: v[name] ** 2 + v[name] + 2, bound,
                       lambda n, v: bound(n, v) + 1, False, lambda n, v: 2 * n, lambda text: text == "D_n", True)


def _f52(wt, wdt, rt) -> Optional[ParamFamily]:
    """window(w) + dilated(w', r), w named ≥ w'r − 1, literal w', r ≥ 2: the window of radius m = max(w, w'r),
    n ≥ 2m + 1: D = ⌈(n − 1)/m⌉, the reflection, D layers (least)."""
    if not isinstance(wt, str) or wt.startswith("-") or not isinstance(wdt, int) or not isinstance(rt, int) or rt < 2:
        return None
    top = wdt * rt

    def radius(v):
        return max(v[wt], top)

    def diameter(n, v):
        return -(-(n - 1) // radius(v))
    return ParamFamily("F52", (wt,), {wt: top - 1}, lambda v: 2 * radius(v) + 1, diameter, diameter, True,
                       lambda n, v: 2, lambda text: text == "reflection")


def _window_table(m: int):
    """The window of radius m, restated (§11.2, item 4): n ≥ 2m + 1, D = ⌈(n − 1)/m⌉, the reflection, D layers."""
    from .families import Family

    def diameter(n):
        return sympy.ceiling(sympy.Rational(n - 1, m) if isinstance(n, int) else (n - 1) / m)

    def reversal(n):
        return list(range(n, 0, -1))
    return Family("F52", 2 * m + 1, 0, 0, True, lambda n: 2, 1, lambda text: text == "reflection", None,
                  lambda n: [reversal(n)], diameter_at=diameter, period=m)


def _window_global(win, gt, spec) -> Optional[ParamFamily]:
    wt = win.w
    if isinstance(wt, str) and wt.startswith("-") or isinstance(gt, str) and gt.startswith("-"):
        return None
    lows = {p.name: max(p.lower or 1, 1) for p in spec.params}

    def low(v):
        w, g = _size(wt, v), _size(gt, v)
        return g + 2 * w + 3 if not win.cyclic or _always_ge(gt, wt, lows) else max(g, w) + 2 * w + 3
    theorem = "F2" if not win.cyclic else ("F3" if _always_ge(gt, wt, lows) else "F10")
    return ParamFamily(theorem, tuple(sorted(_least((wt, 1), (gt, 1)))), _least((wt, 1), (gt, 1)), low,
                       lambda n, v: 2, lambda n, v: 3, True, lambda n, v: 2 * _fact(_size(gt, v)),
                       lambda text: "reflection" in text)


def _always_ge(a, b, lows: dict) -> bool:
    """a ≥ b for every declared value: a a literal not below a literal b, or the same name."""
    if isinstance(a, int) and isinstance(b, int):
        return a >= b
    return a == b


# ---------------------------------------------------------------------------------------------
# The checks

def points(fam: ParamFamily, spec: S.Spec) -> list[dict]:
    """The parameter points of the grid, from the declared least values."""
    declared = {p.name: max(p.lower or 1, 1) for p in spec.params if p.constraint == "integer"}
    names = list(fam.names)
    ranges = [range(declared[k], declared[k] + GRID + 1) for k in names]
    return [dict(zip(names, combo)) for combo in itertools.product(*ranges)]


def declared_problem(fam: ParamFamily, spec: S.Spec) -> Optional[str]:
    declared = {p.name: p.lower for p in spec.params if p.constraint == "integer"}
    for name, least in fam.least.items():
        lower = declared.get(name)
        if lower is None or lower < least:
            return (f"the param {name} is declared from {lower}, but Theorem {fam.theorem} needs {name} ≥ {least} "
                    f"(below it the answer differs)")
    return None


def _at(expr: sympy.Expr, n: int, v: dict, symbols: dict) -> sympy.Expr:
    sub = {symbols[k]: sympy.Integer(x) for k, x in v.items() if k in symbols}
    sub[symbols["__n__"]] = sympy.Integer(n)
    out = expr.xreplace(sub)
    return out.doit() if isinstance(out, sympy.Basic) else out


def closed_form_problem(fam: ParamFamily, spec: S.Spec, symbols: dict, stated: dict) -> Optional[str]:
    """Each stated closed form (trees decoded: "from", "diameter", "layers", "order", or "order cases" as
    (order, divides, not divides)) against the restatement at every grid point and length."""
    for v in points(fam, spec):
        mine_low = fam.low(v)
        if "from" in stated:
            low = _at(stated["from"], 0, v, symbols)
            if not low.is_Integer or int(low) < mine_low:
                return f"at {v} the stated range n ≥ {low} starts below the theorem's n ≥ {mine_low}"
            start = int(low)
        else:
            start = mine_low
        for n in range(start, max(start, TOP_N) + 1):
            dkey = "diameter bound" if fam.bound else "diameter"
            for key, mine in ((dkey, fam.diameter), ("layers", fam.layers), ("order", fam.order)):
                if key == "order" and "order cases" in stated:
                    got = _case_order(stated["order cases"], n, v, symbols)
                elif key in stated:
                    got = _at(stated[key], n, v, symbols)
                else:
                    continue
                if got is None or not got.is_Integer or int(got) != mine(n, v):
                    return f"at {v}, n = {n}: the stated {key} is {got}, the theorem's {mine(n, v)}"
    return None


def _case_order(cases: list, n: int, v: dict, symbols: dict) -> Optional[sympy.Expr]:
    for order, divides, not_divides in cases:
        def holds(pairs, want):
            for m, x in pairs:
                mm, xx = _at(m, n, v, symbols), _at(x, n, v, symbols)
                if not (mm.is_Integer and xx.is_Integer and int(mm) != 0):
                    return False
                if (int(xx) % int(mm) == 0) != want:
                    return False
            return True
        if holds(divides, True) and holds(not_divides, False):
            return _at(order, n, v, symbols)
    return None


def instance_spec(spec: S.Spec, v: dict) -> S.Spec:
    """The spec with every named size written as the integer of the point."""
    def sub(p):
        if isinstance(p, S.PatternUnion):
            return S.PatternUnion(tuple(sub(q) for q in p.parts))
        changes = {}
        for f in dataclasses.fields(p):
            x = getattr(p, f.name)
            if isinstance(x, str) and x.lstrip("-") in v:
                changes[f.name] = _size(x, v)
            elif isinstance(x, tuple) and any(isinstance(y, str) for y in x):
                changes[f.name] = tuple(_size(y, v) if isinstance(y, str) else y for y in x)
        return dataclasses.replace(p, **changes) if changes else p
    heads = tuple(dataclasses.replace(h, pattern=sub(h.pattern)) for h in spec.heads)
    return dataclasses.replace(spec, heads=heads)


def instance_problem(fam: ParamFamily, spec: S.Spec, what: str) -> Optional[str]:
    """At the first grid points: the verifier's own family table on the literal instance agrees with the
    restatement (range, D, layers, order), and its instance check passes on its own arcs (nauty)."""
    from . import families
    for v in points(fam, spec)[:INSTANCE_POINTS]:
        inst = instance_spec(spec, v)
        table = families.match(inst) if fam.theorem != "F52" else _window_table(fam.low(v) // 2)
        if table is None:
            if fam.theorem == "F49" and 2 in v.values():
                table = _f6_two(v)
            else:
                return f"at {v} the verifier's table has no theorem for the literal instance"
        if table.low > fam.low(v):
            return f"at {v} the literal theorem's range n ≥ {table.low} starts above n ≥ {fam.low(v)}"
        for n in range(fam.low(v), fam.low(v) + 4):
            if fam.bound:  # the literal theorem's exact D is at most the bound, and its count at most the stated layers
                same = int(table.d(n)) <= fam.diameter(n, v) and int(table.layers_at(n)) <= fam.layers(n, v)
            else:
                same = int(table.d(n)) == fam.diameter(n, v) and int(table.layers_at(n)) == fam.layers(n, v) and \
                    table.least == fam.least_layers
            if not same or int(table.order(n)) != fam.order(n, v):
                return f"at {v}, n = {n} the literal theorem {table.theorem} gives other values"
        problem = families.instance_problem(inst, table, what)
        if problem:
            return f"at {v}: {problem}"
    return None


def _f6_two(v: dict):
    """offsets {1, 2} cyclic (F6, w = 2), restated: n ≥ 6, D = ⌈(n − 1)/2⌉, C_n, D layers (least)."""
    from .families import Family

    def diameter(n):
        return sympy.ceiling(sympy.Rational(n - 1, 2) if isinstance(n, int) else (n - 1) / 2)

    def rotation(n):
        return [k % n + 1 for k in range(1, n + 1)]
    return Family("F6", 6, 0, 0, True, lambda n: n, 1, lambda text: text == "C_n", None, lambda n: [rotation(n)],
                  diameter_at=diameter, period=2)


# ---------------------------------------------------------------------------------------------
# The steps (PAT-CONNECTED, PAT-LAYERS, SYM-AUT at symbolic n with named sizes)

def family(ctx) -> Optional[ParamFamily]:
    if "param family" not in ctx.cache:
        ctx.cache["param family"] = match(ctx.spec) if isinstance(ctx.spec.tokens, str) else None
    return ctx.cache["param family"]


def _decoded(ctx, s) -> dict:
    from .check import Reject
    from .trees import TreeError, decode
    data = s.get("data") or {}
    out: dict = {}
    try:
        for key in ("from", "diameter", "diameter bound", "layers", "order"):
            if data.get(key) is not None:
                out[key] = decode(data[key], ctx.symbols)
        if data.get("order by cases") is not None:
            cases = []
            for case in data["order by cases"]:
                pairs = [[(decode(m, ctx.symbols), decode(x, ctx.symbols)) for m, x in case.get(k) or []]
                         for k in ("divides", "not divides")]
                cases.append((decode(case["order"], ctx.symbols), pairs[0], pairs[1]))
            out["order cases"] = cases
    except (TreeError, TypeError, KeyError, ValueError) as exc:
        raise Reject(f"a stated value is not a readable expression tree ({exc})") from None
    if "from" not in out:
        raise Reject("the step states no range (n ≥ from)")
    return out


def check_step(ctx, s, fam: ParamFamily):
    """The step's stated values against the restatement (grid of parameters and lengths) and the literal
    instances' own checks."""
    from .check import VERIFIED, Reject
    problem = declared_problem(fam, ctx.spec)
    if problem:
        raise Reject(problem)
    stated = _decoded(ctx, s)
    rule = s["rule"]
    keep = {"PAT-CONNECTED": ("from", "diameter", "diameter bound"),
            "PAT-LAYERS": ("from", "diameter", "diameter bound", "layers"),
            "SYM-AUT": ("from", "order", "order cases")}[rule]
    stated = {k: v for k, v in stated.items() if k in keep}
    if fam.bound and rule != "SYM-AUT" and "diameter bound" not in stated:
        raise Reject(f"Theorem {fam.theorem} bounds the diameter; the step states no bound")
    if fam.bound and "diameter" in stated:
        raise Reject(f"Theorem {fam.theorem} proves only a bound on the diameter, not the stated diameter")
    if rule == "PAT-LAYERS":
        data = s.get("data") or {}
        if bool(data.get("least")) != fam.least_layers:
            raise Reject(f"least: {data.get('least')} is not Theorem {fam.theorem}'s {fam.least_layers}")
        if len(ctx.premises(s)) != 1 or ctx.premises(s)[0]["rule"] != "PAT-CONNECTED":
            raise Reject("its premise is not the connectivity step")
    if rule == "SYM-AUT":
        name = (s.get("data") or {}).get("name")
        if not (isinstance(name, str) and fam.name(name)):
            raise Reject(f"the group {str(name)[:80]!r} is not Theorem {fam.theorem}'s")
        if "order" not in stated and "order cases" not in stated:
            raise Reject("the step states no order")
    symbols = dict(ctx.symbols, __n__=ctx.symbols[ctx.spec.tokens])
    key = ("param closed forms", s["id"])
    if key not in ctx.cache:
        ctx.cache[key] = closed_form_problem(fam, ctx.spec, symbols, stated)
    if ctx.cache[key]:
        raise Reject(f"Theorem {fam.theorem}: {ctx.cache[key]}")
    what = {"PAT-CONNECTED": "connectivity", "PAT-LAYERS": "layers", "SYM-AUT": "group"}[rule]
    ikey = ("param instances", what)
    if ikey not in ctx.cache:
        ctx.cache[ikey] = instance_problem(fam, ctx.spec, what)
    if ctx.cache[ikey]:
        raise Reject(f"Theorem {fam.theorem} fails at an instance: {ctx.cache[ikey]}")
    grid = ", ".join(f"{k} = {lo}..{lo + GRID}" for k, lo in
                     ((k, max(p.lower or 1, 1)) for p in ctx.spec.params for k in fam.names if p.name == k))
    return VERIFIED, (f"Theorem {fam.theorem} (docs/theory.md §11.11) with named sizes, restated by the verifier: the "
                      f"declared least values meet the theorem's ({', '.join(f'{k} ≥ {v}' for k, v in fam.least.items())}), "
                      f"and the stated closed forms equal the restatement at {grid} and every n of the range up to "
                      f"{TOP_N}; at the first {INSTANCE_POINTS} parameter points the literal instance is the verifier's own "
                      f"theorem, re-checked on its arcs ({what}; nauty for the rooted views)")
