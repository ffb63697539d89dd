"""SYM-AUT for a head `blocks(b) + strided(s)` beside heads of hubs at symbolic n (docs/theory.md §11.11, Theorem
F171), re-checked with the verifier's own code: its own reading of the re-parsed heads, its own marked partitions (the
blocks with the first cut at every hub count into fixed layers, and the residue classes mod s), cells and twin classes
of the weighted graph of the parts, its own insertion of one period, and nauty's order on the coloured union
(groups.full_order).

What is checked (a certificate of kind "grid hub heads"):
* one head is `blocks(b) + strided(s)` (b, s ≥ 2), every other `global(g)` or `star`, max g ≤ b; b, s, the hub counts,
  L = lcm(b, s) and N = L⌈max(b + g, s(b + 1), g + 2)/L⌉ + 2L are the verifier's;
* every residue class of n mod L: from its base length (the least ≥ N of the class) the verifier re-derives the order's
  terms (the cells and twin classes mapped into base + L by inserting L positions after N − L, their growth, the new
  cells' factorials) and the constant from nauty's |G(base)|; they equal the certificate's; the formula equals nauty's
  order at base + L, base + 2L and at every length of the class from its stated bound (at least s(b + 1) and g + 2)
  up to base;
* the stated name is the verifier's own and the stated order is one class's formula.
"""
from __future__ import annotations

from math import gcd
from typing import Optional

import sympy

from .. import spec as S
from .check import VERIFIED, Reject, Trust
from .named_structure import interval
from .partition_heads import class_formula_checked
from .trees import decode

MAX_N = 320


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def read(pats: list) -> Optional[tuple[int, int, tuple]]:
    """(b, s, the hub counts) of the re-parsed heads, or None outside the theorem."""
    grid, hubs = None, set()
    for p in pats:
        parts = list(p.parts) if isinstance(p, S.PatternUnion) else [p]
        b: Optional[int] = None
        s: Optional[int] = None
        g: Optional[int] = None
        for q in parts:
            if isinstance(q, S.Star):
                g = max(g or 0, 1)
            elif isinstance(q, S.Global) and (_int(q.g) or 0) >= 1:
                g = max(g or 0, _int(q.g) or 0)
            elif isinstance(q, S.Blocks) and _int(q.b) == 1:
                continue
            elif isinstance(q, S.Blocks) and (_int(q.b) or 0) >= 2 and b in (None, _int(q.b)):
                b = _int(q.b)
            elif isinstance(q, S.Strided) and (_int(q.s) or 0) >= 2 and s in (None, _int(q.s)):
                s = _int(q.s)
            else:
                return None
        if b is not None and s is not None and g is None and grid is None:
            grid = (b, s)
        elif b is None and s is None and g is not None:
            hubs.add(g)
        else:
            return None
    if grid is None or not hubs or max(hubs) > grid[0]:
        return None
    return grid[0], grid[1], tuple(sorted(hubs))


def _sides(b: int, s: int, hubs: tuple, n: int) -> list:
    cuts = [0] + [g for g in hubs if g < n] + [min(b, n)]
    first = [(frozenset(range(lo + 1, hi + 1)), True) for lo, hi in zip(cuts, cuts[1:]) if hi > lo]
    rest = [(frozenset(range(lo, min(lo + b, n + 1))), False) for lo in range(b + 1, n + 1, b)]
    return [first + rest, [(frozenset(range(r, n + 1, s)), False) for r in range(1, min(s, n) + 1)]]


def _structure(b: int, s: int, hubs: tuple, n: int) -> tuple[list, list, list]:
    """(cells, the parts' graph's vertices (side, part, marked), its twin classes as lists of vertex indices)."""
    vertices: list = []
    owner: list[dict[int, int]] = [{}, {}]
    for side, parts in enumerate(_sides(b, s, hubs, n)):
        for part, mark in parts:
            vertices.append((side, part, mark))
            for x in part:
                owner[side][x] = len(vertices) - 1
    cells: dict = {}
    for x in range(1, n + 1):
        cells.setdefault((owner[0][x], owner[1][x]), set()).add(x)
    sig: dict = {}
    for idx, (side, _, mark) in enumerate(vertices):
        row = tuple(sorted((q if side == 0 else p, len(c)) for (p, q), c in cells.items() if (p if side == 0 else q) == idx))
        sig.setdefault((side, mark, idx if mark else -1, row), []).append(idx)
    return [frozenset(c) for c in cells.values()], vertices, list(sig.values())


def _class_formula(pats: list, b: int, s: int, hubs: tuple, r: int, c: dict, start: int, m: int) -> tuple:
    """One class re-derived and matched (Reject otherwise): F72's insertion argument on F171's structure."""
    return class_formula_checked("F171", lambda length: _structure(b, s, hubs, length), pats, r, c, start, m,
                                 max(s * (b + 1), max(hubs) + 2))


def check(ctx, s) -> tuple[str, str]:  # noqa: C901 - one problem per claim of the certificate
    spec = ctx.spec
    cert = s.get("certificate") or {}
    if spec.positional != "none" or any(h.bias for h in spec.heads):
        raise Reject("Theorem F171 is for unbiased heads without a positional encoding")
    pats = list(dict.fromkeys(h.pattern for h in spec.heads))
    got = read(pats)
    if got is None:
        raise Reject("Theorem F171 is for one head blocks(b) + strided(s) beside heads of at most b hubs")
    b, st, hubs = got
    m = b * st // gcd(b, st)
    g = max(hubs)
    start = m * -(-max(b + g, st * (b + 1), g + 2) // m) + 2 * m
    if (int(cert.get("block", 0)), int(cert.get("stride", 0)), [int(x) for x in cert.get("hubs") or []]) \
            != (b, st, list(hubs)):
        raise Reject("Theorem F171: the block, the stride or the hubs are not the heads'")
    if int(cert.get("modulus", 0)) != m or int(cert.get("start", 0)) != start:
        raise Reject(f"Theorem F171: L = {m} and N = {start}, not the certificate's")
    classes = {int(c["residue"]): c for c in cert.get("classes") or []}
    if sorted(classes) != list(range(m)):
        raise Reject(f"Theorem F171: the classes do not cover every residue mod {m}")
    if start + 2 * m > MAX_N:
        raise Trust(f"Theorem F171: the lengths to re-count reach {start + 2 * m}")
    name = (f"the permutations keeping the blocks of {b}, the residue classes mod {st}, and "
            + ", ".join(interval(1, x) for x in hubs))
    if (s.get("data") or {}).get("name") != name or cert.get("name") != name:
        raise Reject(f"Theorem F171: the name is not {name!r}")
    n = ctx.symbols[spec.tokens]
    exprs: dict = {}
    for r, c in classes.items():
        constant, power, mine, base = _class_formula(pats, b, st, hubs, r, c, start, m)
        t = sympy.floor(n / m) - base // m
        e = sympy.Integer(constant) * sympy.Integer(power) ** t
        for z, d, k in mine:
            e *= sympy.factorial(z + d * t) ** k
        exprs[r] = e
    data = s.get("data") or {}
    outer = data.get("modulus")
    mine_r = sorted({int(r) % m for r in data.get("residues") or []})
    if outer is not None and int(outer) % m:
        raise Reject(f"Theorem F171: the classes mod {outer} are not unions of classes mod L = {m}")
    stated = cert.get("order")
    if stated is None:
        raise Reject("Theorem F171: the certificate states no order")
    claimed = decode(stated, ctx.symbols) if not isinstance(stated, int) else sympy.Integer(stated)
    claimed = sympy.sympify(claimed, strict=True)  # safe: strict (no text parsed)
    # the length (as `n` or the file's name) read as n; a param's name is kept, so an order in it differs
    claimed = claimed.xreplace({x: n for x in claimed.free_symbols if x.name in ('n', str(spec.tokens))})
    if mine_r:  # a class of the step: its order is the formula of each of its residues
        wrong = [r for r in mine_r if sympy.simplify(claimed - exprs[r]) != 0]
        if wrong:
            raise Reject(f"Theorem F171: the stated order is not the formula of the class n ≡ {wrong[0]} (mod {m})")
    elif not any(sympy.simplify(claimed - e) == 0 for e in exprs.values()):
        raise Reject("Theorem F171: the stated order is no class's formula")
    return VERIFIED, (f"Theorem F171 (docs/theory.md §11.11): blocks({b}) + strided({st}) beside hubs {list(hubs)}, "
                      f"L = {m}, N = {start}; every class's formula re-derived from the verifier's marked partitions, "
                      "cells and twin classes with one period inserted, its constant from nauty's order at the "
                      "class's base, and nauty's order matched at base + L, base + 2L and at every length of the "
                      "class from its bound")
