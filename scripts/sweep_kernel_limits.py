#!/usr/bin/env python3
"""Sweep random kernels from the grammar (docs/language.md §4) and cross-check every proved (LIM) step with mpmath
(docs/theory.md §6): a never-a-proof second way, from an evaluator of this script's own.

An internal error of the engine on any drawn file is a disagreement too. Each kernel is drawn as a tree of this script (atoms x . y, |x - y|, |x + y|, |x|, |y|, a param tau and small
integers; exp, log, sqrt, abs, squares, negation, tanh, sigmoid, softplus, the four operations, max, min), written
as `.uap` text for uapcheck and evaluated by this script with mpmath at 60 digits. For a `LIM-*` step with status
`proved` the ratio k(x, t z₁)/k(x, t z₂) must tend to 0 or ∞ at generic points: at random x, z₁, z₂ ∈ R² (and the
declared tau set to a random admissible value) the log-ratio L(t) is evaluated at t = 10², 10⁴, 10⁶, 10⁸; a proved
step whose L(t) settles (|L(10⁸) − L(10⁶)| < 10⁻⁶ and |L(10⁶) − L(10⁴)| < 10⁻³ at every sampled point where k is
positive) is printed as a disagreement and the exit status is 1. Points where k is not real and positive are
skipped (WP-POSITIVE's business, scripts/sweep_kernel_premises.py).

    python scripts/sweep_kernel_limits.py --cases 300 --seed 1
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ATOMS = ("dot", "diff", "sum", "nx", "ny", "tau", 1, 2)
UNARY = ("exp", "log", "sqrt", "abs", "sq", "neg", "tanh", "sigmoid", "softplus")
BINARY = ("+", "-", "*", "/", "max", "min")
CONSTRAINTS = ("!= 0", "> 0", ">= 0", "real")
#: the head around the kernel: a normalised kernel (most), an unnormalised score, a Linformer projection; every
#: form is checked for internal errors, (LIM) is cross-checked on all
FORMS = ("kernel k(x, y) = {}",) * 4 + ("score s(x, y) = {}", "kernel k(x, y) = {}; project keys values to 4")


def random_tree(rng: random.Random, depth: int):
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(ATOMS)
    if rng.random() < 0.5:
        return (rng.choice(UNARY), random_tree(rng, depth - 1))
    return (rng.choice(BINARY), random_tree(rng, depth - 1), random_tree(rng, depth - 1))


def text(tree) -> str:
    if isinstance(tree, int):
        return str(tree)
    if isinstance(tree, str):
        return {"dot": "x . y", "diff": "|x - y|", "sum": "|x + y|", "nx": "|x|", "ny": "|y|", "tau": "tau"}[tree]
    op, *args = tree
    if op == "sq":
        return f"({text(args[0])})^2"
    if op == "neg":
        return f"-({text(args[0])})"
    if op in UNARY:
        return f"{op}({text(args[0])})"
    if op in ("max", "min"):
        return f"{op}({text(args[0])}, {text(args[1])})"
    return f"({text(args[0])}) {op} ({text(args[1])})"


def _log(v):
    if v <= 0:
        raise ValueError("log")
    return mpmath.log(v)


def _sqrt(v):
    if v < 0:
        raise ValueError("sqrt")
    return mpmath.sqrt(v)


def _div(u, v):
    if v == 0:
        raise ZeroDivisionError
    return u / v


def _softplus(v):
    return mpmath.log1p(mpmath.exp(v)) if v < 50 else v + mpmath.log1p(mpmath.exp(-v))


OPS = {"exp": mpmath.exp, "log": _log, "sqrt": _sqrt, "abs": abs, "sq": lambda v: v ** 2, "neg": lambda v: -v,
       "tanh": mpmath.tanh, "sigmoid": lambda v: 1 / (1 + mpmath.exp(-v)), "softplus": _softplus,
       "+": lambda u, v: u + v, "-": lambda u, v: u - v, "*": lambda u, v: u * v, "/": _div, "max": max, "min": min}


def _atom(tree, x, y, tau):
    if isinstance(tree, int):
        return mpmath.mpf(tree)
    if tree == "dot":
        return x[0] * y[0] + x[1] * y[1]
    vec = {"diff": (x[0] - y[0], x[1] - y[1]), "sum": (x[0] + y[0], x[1] + y[1]), "nx": x, "ny": y}.get(tree)
    return tau if vec is None else mpmath.sqrt(vec[0] ** 2 + vec[1] ** 2)


def value(tree, x, y, tau):
    """The kernel at (x, y) ∈ R² × R² with mpmath; raises ValueError/ZeroDivisionError where undefined."""
    if not isinstance(tree, tuple):
        return _atom(tree, x, y, tau)
    op, *args = tree
    return OPS[op](*[mpmath.re(value(t, x, y, tau)) for t in args])


def log_ratio(tree, x, z1, z2, tau, t):
    k1 = value(tree, x, [t * z1[0], t * z1[1]], tau)
    k2 = value(tree, x, [t * z2[0], t * z2[1]], tau)
    if not (k1 > 0 and k2 > 0):
        raise ValueError("not positive")
    return mpmath.log(k1) - mpmath.log(k2)


def settles(tree, constraint: str, rng: random.Random, points: int = 4):
    """(every sampled point settles, how many points were usable)."""
    usable = 0
    for _ in range(points * 3):
        if usable >= points:
            break
        x = [mpmath.mpf(rng.uniform(-2, 2)) for _ in range(2)]
        z1 = [mpmath.mpf(rng.uniform(-2, 2)) for _ in range(2)]
        z2 = [mpmath.mpf(rng.uniform(-2, 2)) for _ in range(2)]
        tau = mpmath.mpf(rng.uniform(0.2, 3)) * (rng.choice((1, -1)) if constraint in ("!= 0", "real") else 1)
        try:
            L = [log_ratio(tree, x, z1, z2, tau, mpmath.mpf(10) ** e) for e in (2, 4, 6, 8)]
        except (ValueError, ZeroDivisionError):
            continue
        usable += 1
        if not (abs(L[3] - L[2]) < mpmath.mpf("1e-6") and abs(L[2] - L[1]) < mpmath.mpf("1e-3")):
            return False, usable
    return usable > 0, usable


def lim_steps(source: str):
    from uapcheck.derive import check_spec
    from uapcheck.errors import UapError
    from uapcheck.parse import parse_source
    try:
        result = check_spec(parse_source(source, "sweep.uap"), 60)
    except UapError:
        return None
    return [s for s in result.root.walk() if s.rule.startswith("LIM-")]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--depth", type=int, default=3)
    args = ap.parse_args(argv)
    mpmath.mp.dps = 60
    rng = random.Random(args.seed)
    stats: dict = {}
    bad = 0
    for _ in range(args.cases):
        tree = ("exp", random_tree(rng, args.depth)) if rng.random() < 0.6 else random_tree(rng, args.depth)
        constraint = rng.choice(CONSTRAINTS)
        form = rng.choice(FORMS)
        source = f"tokens n\nparam tau {constraint}\nattention {{ {form.format(text(tree))} }}\n"
        try:
            steps = lim_steps(source)
        except Exception as exc:  # an internal error is a finding (the CLI's exit 3)
            bad += 1
            print(f"ENGINE ERROR {exc!r}:\n{source}", flush=True)
            continue
        if steps is None:
            stats["refused"] = stats.get("refused", 0) + 1
            continue
        proved = [s for s in steps if s.status.value == "proved" and s.rule not in ("LIM-REDUCE",)]
        stats["files"] = stats.get("files", 0) + 1
        if not proved:
            continue
        stats["LIM proved"] = stats.get("LIM proved", 0) + 1
        settled, usable = settles(tree, constraint, rng)
        if usable == 0:
            stats["no usable point"] = stats.get("no usable point", 0) + 1
        elif settled:
            bad += 1
            print(f"DISAGREE: {proved[0].rule} proved, but the log-ratio settles:\n{source}", flush=True)
    print(stats)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
