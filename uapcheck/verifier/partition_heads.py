"""SYM-AUT for two partition heads at symbolic n (docs/theory.md §11.11, Theorem F72), re-checked with the
verifier's own code: its own reading of the re-parsed heads (blocks(b), strided(s), global(g), or blocks or
strided with globals), its own parts, cells and twin classes of the weighted incidence graph H, its own
insertion of one period, and nauty's order on the coloured union (groups.full_order).

What is checked (a certificate of kind "partition heads"):
* the heads are partition heads, not both with blocks; L and N are the verifier's;
* every residue class of n mod L: from its base length (the least ≥ N of the class) the verifier re-derives the
  order's terms (the cells and twin classes mapped into base + L by inserting L positions after N − L, their
  growth, the new cells' factorials) and the constant |Q| · (the fixed terms) from nauty's |G(base)|; they equal
  the certificate's; the formula equals nauty's order at base + L, base + 2L and at every length of the class from
  its stated bound up to base;
* the stated name is the verifier's own and the stated order is one class's formula.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import factorial, gcd
from typing import Optional

import sympy

from .. import spec as S
from . import patterns
from .named_structure import interval
from .check import VERIFIED, Reject, Trust
from .trees import decode

MAX_N = 240


@dataclass(frozen=True)
class Head:
    kind: str     # "blocks", "strided", "rest"
    size: int
    globals: int


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def classify(p: S.Pattern) -> Optional[Head]:
    parts = list(p.parts) if isinstance(p, S.PatternUnion) else [p]
    g, kind, size = 0, None, 1
    for q in parts:
        if isinstance(q, S.Star):
            g = max(g, 1)
        elif isinstance(q, S.Global) and (_int(q.g) or 0) >= 1:
            g = max(g, _int(q.g) or 0)
        elif isinstance(q, (S.Blocks, S.Strided)) and kind is None:
            v = _int(q.b if isinstance(q, S.Blocks) else q.s)
            if v is None or v < 2:
                return None
            kind, size = ("blocks" if isinstance(q, S.Blocks) else "strided"), v
        else:
            return None
    if kind is None:
        return Head("rest", 1, g) if g else None
    return Head(kind, size, g)


def _parts(h: Head, n: int) -> tuple[list, frozenset]:
    marked = frozenset(range(1, min(h.globals, n) + 1))
    groups: dict = {}
    for x in range(len(marked) + 1, n + 1):
        key = 0 if h.kind == "rest" else ((x - 1) // h.size if h.kind == "blocks" else (x - 1) % h.size)
        groups.setdefault(key, set()).add(x)
    return [frozenset(v) for _, v in sorted(groups.items())], marked


def _valid(h: Head) -> int:
    return h.globals + 2 if h.kind in ("rest", "strided") else h.size * (h.globals // h.size + 1) + 1


def _structure(heads: list, n: int) -> tuple[list, list, list]:
    """(cells, H's vertices (side, part), H's twin classes as lists of vertex indices)."""
    vertices: list = []
    owner: list[dict[int, int]] = [{}, {}]
    for side, h in enumerate(heads):
        parts, marked = _parts(h, n)
        for part, mark in ([(marked, True)] if marked else []) + [(p, False) for p in parts]:
            vertices.append((side, part, mark))
            for x in part:
                owner[side][x] = len(vertices) - 1
    cells: dict = {}
    for x in range(1, n + 1):
        cells.setdefault((owner[0][x], owner[1][x]), set()).add(x)
    sig: dict = {}
    for idx, (side, _, mark) in enumerate(vertices):
        row = tuple(sorted((b if side == 0 else a, len(c)) for (a, b), c in cells.items() if (a if side == 0 else b) == idx))
        sig.setdefault((side, mark, idx if mark else -1, row), []).append(idx)
    return [frozenset(c) for c in cells.values()], vertices, list(sig.values())


def _shift(x: int, at: int, m: int) -> int:
    return x if x <= at else x + m


def insertion_terms(structure, n: int, at: int, m: int) -> Optional[tuple[int, list]]:
    """How the cells and twin classes of `structure(n)` grow when m positions are inserted after `at` (F72's
    insertion argument, also F171's): the factor of the new cells and, per cell and class, its size and growth;
    None when the two structures do not correspond."""
    c0, v0, t0 = structure(n)
    c1, v1, t1 = structure(n + m)
    where = {x: k for k, c in enumerate(c1) for x in c}
    out, seen = [], set()
    for c in c0:
        ks = {where[_shift(x, at, m)] for x in c}
        if len(ks) != 1:
            return None
        k = ks.pop()
        seen.add(k)
        out.append((len(c), len(c1[k]) - len(c)))
    power = 1
    for k, c in enumerate(c1):
        if k not in seen:
            if any(not at < x <= at + m for x in c):
                return None
            power *= factorial(len(c))
    index = {(side, min(part)): i for i, (side, part, _) in enumerate(v1)}
    cls = {v: k for k, t in enumerate(t1) for v in t}
    used = set()
    for t in t0:
        ks = {cls[index[(v0[v][0], _shift(min(v0[v][1]), at, m))]] for v in t}
        if len(ks) != 1 or next(iter(ks)) in used:
            return None
        k = ks.pop()
        used.add(k)
        out.append((len(t), len(t1[k]) - len(t)))
    if len(used) != len(t1):
        return None
    return power, out


def nauty_order(pats: list, n: int, theorem: str = "F72") -> int:
    from . import groups
    got, method = groups.full_order(patterns.head_labels([patterns.head_arcs(p, n) for p in pats]), n, "none")
    if got is None:
        raise Trust(f"Theorem {theorem}: the order is not re-counted ({method})")
    return got


def value_at(constant: int, power: int, factorials: list, t: int) -> Optional[sympy.Rational]:
    out = sympy.Rational(constant) * sympy.Rational(power) ** t
    for z, d, mult in factorials:
        if z + d * t < 0:
            return None
        out *= sympy.Integer(factorial(z + d * t)) ** mult
    return out


def class_formula_checked(theorem: str, structure, pats: list, r: int, c: dict, start: int, m: int,
                          least_from: int) -> tuple[int, int, list, int]:
    """One class n ≡ r (mod m) of an order formula by the insertion argument (F72's, also F171's) re-derived from
    `structure(n)` and nauty, and matched with the certificate's class `c` (Reject otherwise): the constant, the
    power, the factorials and the base length."""
    base = start + (r - start) % m
    if int(c["base"]) != base:
        raise Reject(f"Theorem {theorem}: the class n ≡ {r} (mod {m}) has base {c['base']}, not {base}")
    got = insertion_terms(structure, base, start - m, m)
    if got is None:
        raise Reject(f"Theorem {theorem}: at n = {base} inserting a period makes a new twin class")
    power, terms = got
    fixed = 1
    cells, _, twins = structure(base)
    for x in cells:
        fixed *= factorial(len(x))
    for t in twins:
        fixed *= factorial(len(t))
    order = nauty_order(pats, base, theorem)
    if order % fixed:
        raise Reject(f"Theorem {theorem}: at n = {base} nauty's order {order} is not a multiple of the cells' and "
                     "classes'")
    constant = order // fixed
    folded: Counter = Counter()
    for z, d in terms:
        if d == 0:
            constant *= factorial(z)
        else:
            folded[(z, d)] += 1
    mine = sorted([z, d, k] for (z, d), k in folded.items())
    theirs = sorted([int(x) for x in f] for f in c.get("factorials") or [])
    if (int(c["constant"]), int(c["power"]), theirs) != (constant, power, mine):
        raise Reject(f"Theorem {theorem}: the class n ≡ {r} (mod {m}) has another order formula than the verifier's")
    low = int(c["from"])
    if low < least_from or (low - r) % m:
        raise Reject(f"Theorem {theorem}: the class n ≡ {r} (mod {m}) starts at {low}, outside its hypotheses")
    for length in list(range(low, base, m)) + [base + m, base + 2 * m]:
        want = value_at(constant, power, mine, (length - base) // m)
        if want is None or want != nauty_order(pats, length, theorem):
            raise Reject(f"Theorem {theorem}: at n = {length} the formula gives {want}, nauty another order")
    return constant, power, mine, base


def _words(h: Head) -> str:
    rest = {"blocks": f"the blocks of {h.size}", "strided": f"the residue classes mod {h.size}", "rest": ""}[h.kind]
    if not h.globals:
        return rest
    first = interval(1, h.globals)
    return first if not rest else f"{first} and {rest} minus it"


def check(ctx, s) -> tuple[str, str]:  # noqa: C901 - one problem per claim of the certificate
    spec = ctx.spec
    cert = s.get("certificate") or {}
    if spec.positional != "none" or any(h.bias for h in spec.heads):
        raise Reject("Theorem F72 is for unbiased heads without a positional encoding")
    pats = list(dict.fromkeys(h.pattern for h in spec.heads))
    heads = [classify(p) for p in pats]
    if len(heads) != 2 or any(h is None for h in heads):
        raise Reject("Theorem F72 is for two partition heads (blocks, strided, global, or those with globals)")
    hs = [h for h in heads if h is not None]
    if all(h.kind == "blocks" for h in hs):
        raise Reject("Theorem F72 needs a head without blocks")
    m = 1
    for h in hs:
        if h.kind != "rest":
            m = m * h.size // gcd(m, h.size)
    big_g = max(h.globals for h in hs)
    big_b = max([h.size for h in hs if h.kind == "blocks"] + [1])
    start = m * -(-max([big_g + big_b] + [_valid(h) for h in hs]) // m) + 2 * m
    if int(cert.get("modulus", 0)) != m or int(cert.get("start", 0)) != start:
        raise Reject(f"Theorem F72: L = {m} and N = {start}, not the certificate's")
    classes = {int(c["residue"]): c for c in cert.get("classes") or []}
    if sorted(classes) != list(range(m)):
        raise Reject(f"Theorem F72: the classes do not cover every residue mod {m}")
    if start + 2 * m > MAX_N:
        raise Trust(f"Theorem F72: the lengths to re-count reach {start + 2 * m}")
    name = f"the permutations keeping {_words(hs[0])}, and {_words(hs[1])}"
    if (s.get("data") or {}).get("name") != name or cert.get("name") != name:
        raise Reject(f"Theorem F72: the name is not {name!r}")
    at_n = cert.get("n")
    if at_n is None:
        n = ctx.symbols[spec.tokens]
        symbols = ctx.symbols
    else:  # Theorem F126: the symbolic decision, read at the file's length
        if not isinstance(at_n, int) or isinstance(at_n, bool) or at_n != spec.tokens:
            raise Reject(f"Theorem F126: the certificate's length {at_n!r} is not the file's n = {spec.tokens}")
        n = sympy.Symbol("n", integer=True, positive=True)
        symbols = dict(ctx.symbols, n=n)
    exprs: dict = {}
    for r, c in classes.items():
        constant, power, mine, base = class_formula_checked(
            "F72", lambda length: _structure(hs, length), pats, r, c, start, m, max(_valid(h) for h in hs))
        t = sympy.floor(n / m) - base // m
        e = sympy.Integer(constant) * sympy.Integer(power) ** t
        for z, d, k in mine:
            e *= sympy.factorial(z + d * t) ** k
        exprs[r] = e
    data = s.get("data") or {}
    outer = data.get("modulus")
    mine_r = sorted({int(r) % m for r in data.get("residues") or []})
    if outer is not None and int(outer) % m:
        raise Reject(f"Theorem F72: the classes mod {outer} are not unions of classes mod L = {m}")
    stated = cert.get("order")
    if stated is None and mine_r:
        raise Reject("Theorem F72: a class's certificate states no order")
    if stated is not None:
        claimed = decode(stated, symbols) if not isinstance(stated, int) else sympy.Integer(stated)
        claimed = sympy.sympify(claimed, strict=True)  # safe: strict (no text parsed)
        # the length (as `n` or the file's name) read as n; a param's name is kept, so an order in it differs
        claimed = claimed.xreplace({x: n for x in claimed.free_symbols if x.name in ('n', str(spec.tokens))})
        if mine_r:  # a class of the step: its order is the formula of each of its residues
            wrong = [r for r in mine_r if sympy.simplify(claimed - exprs[r]) != 0]
            if wrong:
                raise Reject(f"Theorem F72: the stated order is not the formula of the class n ≡ {wrong[0]} "
                             f"(mod {m})")
        elif at_n is not None:  # Theorem F126: the class of the file's length, from its bound on
            here = at_n % m
            if at_n < int(classes[here]["from"]):
                raise Reject(f"Theorem F126: n = {at_n} is below the bound {classes[here]['from']} of its class "
                             f"n ≡ {here} (mod {m})")
            if sympy.simplify(claimed - exprs[here]) != 0:
                raise Reject(f"Theorem F126: the stated order is not the formula of n's class n ≡ {here} (mod {m})")
            return VERIFIED, (f"Theorem F72 (docs/theory.md §11.11) read at n = {at_n} (Theorem F126): two partition "
                              f"heads, L = {m}, N = {start}; every class's formula re-derived as at symbolic n, and "
                              f"n lies in the class n ≡ {here} (mod {m}) from n = {classes[here]['from']}, whose formula the "
                              "certificate states")
        elif not any(sympy.simplify(claimed - e) == 0 for e in exprs.values()):
            raise Reject("Theorem F72: the stated order is no class's formula")
    return VERIFIED, (f"Theorem F72 (docs/theory.md §11.11): two partition heads, L = {m}, N = {start}; every class's "
                      f"formula re-derived from the verifier's cells and twin classes with one period inserted, its "
                      f"constant from nauty's order at the class's base, and nauty's order matched at base + L, "
                      f"base + 2L and at every length of the class from its bound")
