"""Bind a LIM step's `kernel-limit` certificate block to the witness points its check re-derived (§18.1).

The block states each region's status, the signs that define it, and per witness the growth term, the coefficient
of that term in log k(x, t z) as a formula in the invariants, the invariants at the two key points (x, z₁) and
(x, z₂), and the coefficient's difference there. The step's check (rules_kernel.lim) re-derives the coefficient of
the log-ratio at the data's points (x, z₁, z₂) from the re-parsed kernel and compares it with the data's
`difference`; here each witness is bound to the data point in the same place: the term is t^power, the invariants are
those of the point (computed here from its coordinates), the difference is the checked one, and the stated
coefficient evaluated at the two invariant sets gives that difference. Which invariants the growing part depends on
is the asymptotic engine's finding (the block's `trusted`), not re-derived: those values are listed as not compared.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Optional

import sympy

from .exact_forms import closed_form
from .trees import TreeError, decode


class KernelBlockMismatch(Exception):
    """A kernel-limit block value differs from its checked copy."""


def _dot(a, b):
    return sum((sympy.Integer(p) * sympy.Integer(q) for p, q in zip(a, b)), sympy.Integer(0))


# the invariants of a key point (x, z), from its coordinates; the w-/coordinate-indexed ones for 1-dimensional points
# only (w = e_1, r = 1: the convention of the sign-change block, rules_kernel._INVARIANTS_AT)
_INVARIANTS: dict[str, Callable] = {"x·z": lambda x, z: _dot(x, z), "|z|²": lambda x, z: _dot(z, z),
                                    "|x|²": lambda x, z: _dot(x, x)}
_ONE_DIM: dict[str, Callable] = {"w·x": lambda x, z: sympy.Integer(x[0]), "w·z": lambda x, z: sympy.Integer(z[0]),
                                 "x[r]": lambda x, z: sympy.Integer(x[0]), "z[r]": lambda x, z: sympy.Integer(z[0])}
_REGION = re.compile(r"(all )?(x·z|w·z|z\[r\]) ([<>]) 0")
_TRUSTED = ("growing part depends on", "key invariants")


def _signs(name: str) -> Optional[list]:
    """The signs a region's name fixes ("x·z < 0": [["x·z", -1]]); None when the name does not fix them here."""
    if name in ("all invariants", "every key"):
        return []
    m = _REGION.fullmatch(name)
    return [[m.group(2), 1 if m.group(3) == ">" else -1]] if m else None


def _vector(v) -> Optional[tuple]:
    if isinstance(v, list) and v and all(isinstance(c, int) and not isinstance(c, bool) for c in v):
        return tuple(v)
    return None


def _invariant(name: str, x: tuple, z: tuple):
    if name in _INVARIANTS and len(x) == len(z):
        return _INVARIANTS[name](x, z)
    if name in _ONE_DIM and len(x) == len(z) == 1:
        return _ONE_DIM[name](x, z)
    return None


def _coefficient(text: Any, names: list, symbols: dict):
    """The stated coefficient as an expression in placeholder symbols for the invariants; None when not read."""
    if not isinstance(text, str):
        return None, {}
    marks = {}
    for k, name in enumerate(sorted(names, key=len, reverse=True)):
        mark = f"inv_{k}_"
        if mark in symbols:
            return None, {}
        text = text.replace(name, f" {mark} ")
        marks[name] = sympy.Symbol(mark, real=True)
    value = closed_form(text, {**symbols, **{str(s): s for s in marks.values()}})
    return (value, marks) if isinstance(value, sympy.Expr) else (None, {})


def bind(ctx, s: dict, cert: dict, where: str) -> list[str]:
    """Compare the block with the step's checked data; raises KernelBlockMismatch; returns the paths not compared."""
    data = s["data"] if isinstance(s.get("data"), dict) else {}
    if cert.get("conclusion") != s["status"]:
        raise KernelBlockMismatch(f"{where}.conclusion = {cert.get('conclusion')!r} is not the step's status "
                                  f"{s['status']!r}")
    checked = {str(r.get("region")): r for r in data.get("regions") or [] if isinstance(r, dict)}
    regions = cert.get("regions")
    if not isinstance(regions, list):
        raise KernelBlockMismatch(f"{where}.regions is not a list")
    if not regions:  # the engine's LimitCertificate rejects a block without regions (an empty one used to pass)
        raise KernelBlockMismatch(f"{where}.regions is empty: the block concludes from at least one region")
    unbound = []
    for k, r in enumerate(regions):
        path = f"{where}.regions[{k}]"
        if not isinstance(r, dict):
            raise KernelBlockMismatch(f"{path} is not an object")
        name = str(r.get("region"))
        mine = checked.get(name)
        if mine is None:
            raise KernelBlockMismatch(f"{path}.region = {str(name)[:40]!r} is not a region of the step's data")
        if r.get("status") != mine.get("status"):
            raise KernelBlockMismatch(f"{path}.status = {r.get('status')!r} differs from the checked region's "
                                      f"{mine.get('status')!r}")
        signs = _signs(name)
        if signs is None:
            unbound.append(f"{path}.signs")
        elif r.get("signs") != signs:
            raise KernelBlockMismatch(f"{path}.signs = {str(r.get('signs'))[:60]} differs from the region's {signs}")
        unbound.extend(f"{path}.{key}" for key in _TRUSTED if key in r)
        unbound.extend(_bind_witnesses(ctx, s, path, r.get("witnesses") or [], mine.get("points") or []))
    return unbound


def _bind_invariants(at: str, side: str, w: dict, x: tuple, z: tuple, unbound: list) -> dict:
    """The stated invariants of the key point (x, z) against those computed from its coordinates; the names with no
    formula here are added to `unbound`."""
    stated = w.get(side)
    if not isinstance(stated, dict):
        raise KernelBlockMismatch(f"{at}.{side} is not an object")
    values = {}
    for name, value in stated.items():
        mine = _invariant(name, x, z)
        if mine is None:
            unbound.append(f"{at}.{side}.{name}")
            continue
        if not isinstance(value, int) or isinstance(value, bool) or sympy.Integer(value) != mine:
            raise KernelBlockMismatch(f"{at}.{side}.{name} = {str(value)[:20]} differs from the invariant {mine} of "
                                      f"the checked point x = {list(x)}, z = {list(z)}")
        values[name] = mine
    return values


def _bind_witnesses(ctx, s: dict, path: str, witnesses: list, points: list) -> list[str]:
    if not isinstance(witnesses, list) or len(witnesses) != len(points):
        raise KernelBlockMismatch(f"{path}.witnesses: {len(witnesses) if isinstance(witnesses, list) else '?'} "
                                  f"witnesses, the checked region has {len(points)} points")
    unbound = []
    for k, (w, p) in enumerate(zip(witnesses, points)):
        at = f"{path}.witnesses[{k}]"
        if not isinstance(w, dict):
            raise KernelBlockMismatch(f"{at} is not an object")
        power = p.get("power")
        term = "log t" if power == "log" else f"t^{power}"
        if w.get("term") != term:
            raise KernelBlockMismatch(f"{at}.term = {str(w.get('term'))[:20]!r} differs from the checked point's "
                                      f"{term!r}")
        x, z1, z2 = _vector(p.get("x")), _vector(p.get("z1")), _vector(p.get("z2"))
        if x is None or z1 is None or z2 is None:
            unbound.append(at)
            continue
        values = {"first": _bind_invariants(at, "first", w, x, z1, unbound),
                  "second": _bind_invariants(at, "second", w, x, z2, unbound)}
        try:
            diff = decode(p["difference"], ctx.symbols) if p.get("difference") is not None else None
        except (TreeError, TypeError, ValueError, RecursionError):
            diff = None
        if diff is None:  # not a rational number (a param in it): the coefficient of the log-ratio, derived here
            diff = _coefficient_difference(ctx, s, x, z1, z2, power)
        stated = _number(w.get("difference"), ctx.symbols)
        if diff is None or stated is None:
            unbound.append(f"{at}.difference")
        elif sympy.simplify(stated - diff) != 0:
            raise KernelBlockMismatch(f"{at}.difference = {str(w.get('difference'))[:30]} differs from the checked "
                                      f"coefficient difference {sympy.sstr(diff)}")
        names = sorted(set(w.get("first") or {}) | set(w.get("second") or {}))
        coeff, marks = _coefficient(w.get("coefficient"), names, ctx.symbols)
        known = all(n in values["first"] and n in values["second"] for n in names)
        if coeff is None or diff is None or not known or not coeff.free_symbols & set(marks.values()) <= {
                marks[n] for n in names}:
            unbound.append(f"{at}.coefficient")
            continue
        at_first = coeff.xreplace({marks[n]: values["first"][n] for n in names})
        at_second = coeff.xreplace({marks[n]: values["second"][n] for n in names})
        if at_first.free_symbols & set(marks.values()) or sympy.simplify(at_first - at_second - diff) != 0:
            raise KernelBlockMismatch(f"{at}.coefficient = {str(w.get('coefficient'))[:40]} gives "
                                      f"{sympy.sstr(sympy.simplify(at_first - at_second))} at the checked points, not "
                                      f"the checked difference {sympy.sstr(diff)}")
    return unbound


def _coefficient_difference(ctx, s: dict, x: tuple, z1: tuple, z2: tuple, power) -> Optional[sympy.Expr]:
    """The coefficient of t^power in log k(x, t z₁) − log k(x, t z₂), from the re-parsed kernel (as the step's check
    derives it, rules_kernel._check_point); None when log k is not a polynomial in t there."""
    from . import rules_kernel as rk
    if not isinstance(power, int) or isinstance(power, bool) or len(x) != 1 or len(z1) != 1 or len(z2) != 1:
        return None
    try:
        head = rk._head(ctx, s)
        k1, k2 = rk._log_ratio(ctx, head, tuple(map(sympy.Integer, x)), tuple(map(sympy.Integer, z1)),
                               tuple(map(sympy.Integer, z2)))
        l1, l2 = rk._exact_log(k1), rk._exact_log(k2)
        if l1 is None or l2 is None:
            return None
        poly = sympy.Poly(sympy.expand(l1 - l2), rk.T)
        if poly.degree() != power:
            return None
        return sympy.simplify(poly.coeff_monomial(rk.T ** power))
    except Exception:  # noqa: BLE001 - any failure leaves the value listed as not compared, never accepted
        return None


def _number(value, symbols) -> Optional[sympy.Expr]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, str):
        v = closed_form(value, symbols)
        return v if isinstance(v, sympy.Expr) else None
    if isinstance(value, dict):
        try:
            return decode(value, symbols)
        except (TreeError, TypeError, ValueError, RecursionError):
            return None
    return None
