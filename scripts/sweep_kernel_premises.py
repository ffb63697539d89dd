#!/usr/bin/env python3
"""Sweep generated kernels for WP-POSITIVE and AN-STRUCT steps left undecided, and cross-check every conclusion with
mpmath (docs/theory.md §4, §5).

Kernels k(x, y) are built from the scalars x . y, |x - y|, |x + y|, |x|, |y|, a param tau and small integers by exp,
log, abs, sqrt, squares and the four operations, to depth ≤ 3 (all of depth ≤ 2 in `exp(·)`, and a seeded random
sample of depth 3, bare and inside exp), each with the constraints `tau != 0`, `tau > 0`, `tau >= 0` and `tau real`.
For each the two steps are derived as `uapcheck` derives them for a dense normalised head at a symbolic length.

Numeric cross-check (a second way, never a proof): a `proved` WP-POSITIVE in its first form must give k > 0 (real) at
random points of R² — random vectors, x = y, x = −y, x = 0, y = 0 — for random admissible tau (near 0 too); a
second-form claim (d ≥ 2) at non-zero x, y; an AN-STRUCT claim must give a finite real k at the same points (the
allowed region: every admissible tau; off x = ±y and zero vectors for a `d ≥ 2` claim). Any violation is printed
and the exit status is 1.

    python scripts/sweep_kernel_premises.py              # the sweep; prints the undecided classes
    python scripts/sweep_kernel_premises.py --sample 50  # a smaller random sample of depth 3
"""
from __future__ import annotations

import argparse
import collections
import itertools
import random
import sys
from pathlib import Path

import sympy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from uapcheck import proof  # noqa: E402
from uapcheck.errors import UapError  # noqa: E402
from uapcheck.lower import Unsupported, lower_head  # noqa: E402
from uapcheck.parse import parse_source  # noqa: E402
from uapcheck.rules import analytic  # noqa: E402
from uapcheck.verifier import kernels  # noqa: E402

ATOMS = ("x . y", "|x - y|", "|x + y|", "|x|", "|y|", "tau", "1", "2")
UNARY = ("exp({})", "log({})", "abs({})", "sqrt({})", "({})^2", "-({})")
BINARY = ("({}) + ({})", "({}) - ({})", "({}) * ({})", "({}) / ({})")
CONSTRAINTS = ("!= 0", "> 0", ">= 0", "real")


def depth_le_2() -> list[str]:
    out = list(ATOMS)
    out += [u.format(a) for u in UNARY for a in ATOMS]
    out += [b.format(p, q) for b in BINARY for p in ATOMS for q in ATOMS if p != q]
    return out


def random_expr(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(ATOMS)
    if rng.random() < 0.5:
        return rng.choice(UNARY).format(random_expr(rng, depth - 1))
    return rng.choice(BINARY).format(random_expr(rng, depth - 1), random_expr(rng, depth - 1))


def source(kernel: str, constraint: str) -> str:
    return f"tokens n\nparam tau {constraint}\nattention {{ kernel k(x, y) = {kernel} }}\n"


def derive(kernel: str, constraint: str):
    """(spec, head, WP-POSITIVE step, AN-STRUCT step), or None when the file is an input error or out of scope."""
    try:
        spec = parse_source(source(kernel, constraint), "<sweep>")
        head = spec.heads[0]
        model = lower_head(spec, head)
    except (UapError, Unsupported, ValueError, TypeError, ZeroDivisionError):
        return None
    if analytic._plain_term(model).has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        return None  # an undefined kernel: uapcheck reports it as an input error
    pos = analytic.positive_kernel(model, True, True, length="n")
    an = analytic.analytic_structural(model, pos, True)
    return spec, head, pos, an


def _taus(constraint: str, rng: random.Random) -> list:
    base = [sympy.Rational(v) for v in ("1", "0.5", "3", "0.001", "7.25")]
    base.append(sympy.Rational(str(round(rng.uniform(0.01, 5), 4))))
    if constraint == "> 0":
        return base
    if constraint == ">= 0":
        return base + [sympy.Integer(0)]
    negative = [-v for v in base]
    return base + negative + ([sympy.Integer(0)] if constraint == "real" else [])


def _points(rng: random.Random, nonzero: bool, off_diagonal: bool) -> list:
    pts = []
    for _ in range(6):
        x = (rng.uniform(-3, 3), rng.uniform(-3, 3))
        y = (rng.uniform(-3, 3), rng.uniform(-3, 3))
        pts.append((x, y))
    x = (rng.uniform(-2, 2), rng.uniform(-2, 2))
    if not off_diagonal:
        pts += [(x, x), (x, (-x[0], -x[1]))]
    if not nonzero:
        pts += [((0.0, 0.0), x), (x, (0.0, 0.0))]
    return pts


def _value(spec, head, x, y, tau):
    """k at the point, to 30 digits (mpmath floats: no overflow or underflow), or None where it is undefined."""
    vx = tuple(sympy.Rational(str(round(v, 6))) for v in x)
    vy = tuple(sympy.Rational(str(round(v, 6))) for v in y)
    k = kernels.kernel_value(spec, head, vx, vy)
    k = k.xreplace({s: sympy.Rational(str(tau)) for s in k.free_symbols if s.name == "tau"})
    v = sympy.N(k, 30)
    if not v.is_number or v.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        return None
    re, im = v.as_real_imag()
    return re, im


def _real(v) -> bool:
    return v is not None and abs(v[1]) <= sympy.Float("1e-20", 30) * max(1, abs(v[0]))


def _lowered_value(model, x, y, tau):
    """The engine's kernel (the lowering cancels |y|/|y|, x·y/x·y, ...) at the point, or None where undefined: a point
    where the formula is 0/0 but this is defined is a removable singularity of the written formula, not a pole."""
    from uapcheck.lower import KEY_NORM2, QUERY_DOT_KEY, QUERY_NORM2
    vx = [sympy.Rational(str(round(v, 6))) for v in x]
    vy = [sympy.Rational(str(round(v, 6))) for v in y]
    at = {QUERY_DOT_KEY: vx[0] * vy[0] + vx[1] * vy[1], KEY_NORM2: vy[0] ** 2 + vy[1] ** 2,
          QUERY_NORM2: vx[0] ** 2 + vx[1] ** 2}
    k = analytic._plain_term(model).xreplace(at)
    k = k.xreplace({s: sympy.Rational(str(tau)) for s in k.free_symbols if s.name == "tau"})
    v = sympy.N(k, 30)
    if not v.is_number or v.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        return None
    return v.as_real_imag()


REMOVABLE: collections.Counter = collections.Counter()


def _at(spec, head, model, x, y, tau):
    try:
        v = _value(spec, head, x, y, tau)
    except (ZeroDivisionError, ValueError, TypeError):
        v = None
    if v is None:
        v = _lowered_value(model, x, y, tau)
        if v is not None:
            REMOVABLE["points where the written formula is 0/0 but the lowered kernel is defined"] += 1
    return v


def cross_check(spec, head, pos, an, rng: random.Random, constraint: str) -> list[str]:
    problems = []
    model = lower_head(spec, head)
    if pos.status is proof.PROVED and pos.evidence.get("boundary") is None:
        nonzero = pos.evidence.get("dimensions") == "d ≥ 2"
        for tau in _taus(constraint, rng):
            for x, y in _points(rng, nonzero, False):
                v = _at(spec, head, model, x, y, tau)
                if not _real(v) or not v[0] > 0:
                    problems.append(f"WP-POSITIVE proved but k = {v} at x = {x}, y = {y}, tau = {tau}")
                    return problems
    if an.status is proof.PROVED:
        d2 = an.evidence.get("dimensions") == "d ≥ 2"
        for tau in _taus(constraint, rng):
            for x, y in _points(rng, d2, d2):
                v = _at(spec, head, model, x, y, tau)
                if not _real(v):
                    problems.append(f"AN-STRUCT proved but k = {v} (a pole or a non-real value) at x = {x}, "
                                    f"y = {y}, tau = {tau}")
                    return problems
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=300, help="random kernels of depth 3 (default 300)")
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--no-depth2", action="store_true", help="skip the exhaustive exp(depth ≤ 2) part")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    kernels_ = [] if args.no_depth2 else [f"exp({e})" for e in depth_le_2()]
    for _ in range(args.sample):
        e = random_expr(rng, 3)
        kernels_.append(e if rng.random() < 0.5 else f"exp({e})")
    undecided = collections.defaultdict(list)
    problems, counts = [], collections.Counter()
    for kernel, constraint in itertools.product(dict.fromkeys(kernels_), CONSTRAINTS):
        if "tau" not in kernel and constraint != "!= 0":
            continue  # the constraint does not matter: once
        out = derive(kernel, constraint)
        if out is None:
            counts["not derived (input error or out of scope)"] += 1
            continue
        spec, head, pos, an = out
        counts[f"WP-POSITIVE {pos.status.value}"] += 1
        counts[f"AN-STRUCT {an.status.value}"] += 1
        if pos.status is proof.UNDECIDED:
            undecided["WP-POSITIVE"].append((kernel, constraint, pos.claim[:110]))
        if an.status is proof.UNDECIDED and pos.status is proof.PROVED:
            undecided["AN-STRUCT"].append((kernel, constraint, str(an.evidence.get("non-analytic operations"))[:120]))
        for p in cross_check(spec, head, pos, an, rng, constraint):
            problems.append(f"{kernel} [tau {constraint}]: {p}")
    for key, n in sorted((counts + REMOVABLE).items()):
        print(f"{key}: {n}")
    for rule, rows in undecided.items():
        print(f"\n{rule} undecided ({len(rows)}):")
        for kernel, constraint, why in rows:
            print(f"  {kernel}  [tau {constraint}]  {why}")
    if problems:
        print(f"\n{len(problems)} numeric contradictions:")
        for p in problems:
            print("  " + p)
        return 1
    print("\nno numeric contradiction")
    return 0


if __name__ == "__main__":
    sys.exit(main())
