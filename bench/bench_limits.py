"""Benchmark: the kernel-limit engine against `sympy.limit`, in one process.

For each kernel, on a numeric instance (x = 1, z1 = 1, z2 = 2, params 3/2), time
(1) the engine's classification of log k(x, t z) and (2) `sympy.limit(k(x,tz1)/k(x,tz2), t, oo)`
under a 10 s budget; report the time ratio. Then, on the symbolic kernel (a, b, c free), count the
cases `sympy.limit` cannot decide (it raises, returns an unevaluated Limit, or runs out of time)
while the engine returns a class. Run: `python bench/bench_limits.py` from an installed checkout. Figures are ratios only,
since the machines are noisy.

Figures of 2026-11-30 (2-core machine, sympy 1.14, cold caches on both sides): the engine's symbolic
classification is 10-70x faster than `sympy.limit` on one numeric instance (median 20x);
`sympy.limit` decides 3 of 11 symbolic kernels (the regularly varying ones) and raises or
returns an unevaluated limit on the other 8; a whole dense derivation takes 0.05-0.55 s.
"""
from __future__ import annotations

import statistics
import time

import sympy
from sympy.core.cache import clear_cache

from uapcheck.budget import BudgetExceeded, time_limit
from uapcheck.memo import clear_caches
# the invariants under the docs' names
from uapcheck.lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c, SCALE as t
from uapcheck.kernel_limit.analysis import analyse_closed
from uapcheck.lower import ClosedKernel

gamma = sympy.Rational(3, 2)
KERNELS = {
    "softmax": sympy.exp(t * a),
    "rbf": sympy.exp(-gamma * (c - 2 * t * a + t ** 2 * b)),
    "cubic": sympy.exp((t * a) ** 3),
    "polynomial": (t * a) ** 2 + 1,
    "imq": (1 + c - 2 * t * a + t ** 2 * b) ** sympy.Rational(-1, 2),
    "cauchy": 1 / (1 + c - 2 * t * a + t ** 2 * b),
    "laplacian": sympy.exp(-sympy.sqrt(c - 2 * t * a + t ** 2 * b)),
    "multiquadric-exp": sympy.exp(-sympy.sqrt(1 + c - 2 * t * a + t ** 2 * b)),
    "sigmoid": 1 / (1 + sympy.exp(-t * a)),
    "exp+1": sympy.exp(t * a) + 1,
    "tanh+2": 2 + sympy.tanh(t * a),
}


def _point(expr, z):
    return expr.xreplace({a: sympy.Integer(z), b: sympy.Integer(z * z), c: sympy.Integer(1)})


def _engine(expr):
    clear_cache()  # no help from SymPy's cache: both sides start cold
    clear_caches()  # nor from uapcheck's own per-process caches
    start = time.perf_counter()
    analyse_closed(ClosedKernel(expr, expr.subs(t, 1), (a, b), (c,), "bench"))
    return time.perf_counter() - start


def _sympy_limit(expr):
    clear_cache()
    start = time.perf_counter()
    try:
        with time_limit("sympy.limit", 10.0):
            value = sympy.limit(expr, t, sympy.oo)
        ok = not value.has(sympy.Limit) and not isinstance(value, sympy.AccumBounds)
    except (NotImplementedError, ValueError, TypeError, BudgetExceeded):
        ok = False
    return time.perf_counter() - start, ok


def main() -> None:
    ratios = []
    print(f"{'kernel':18s} {'engine s':>9s} {'limit s':>9s} {'limit/engine':>12s}  symbolic limit decided?")
    undecided = 0
    for name, expr in KERNELS.items():
        t_engine = min(_engine(expr) for _ in range(3))
        numeric = _point(expr, 1) / _point(expr, 2)
        t_limit, ok_numeric = _sympy_limit(numeric)
        symbolic = expr / expr.xreplace({a: sympy.Symbol("a2", real=True), b: sympy.Symbol("b2", positive=True)})
        _, ok_symbolic = _sympy_limit(symbolic)
        undecided += not ok_symbolic
        ratio = t_limit / t_engine if t_engine else float("inf")
        if ok_numeric:
            ratios.append(ratio)
        print(f"{name:18s} {t_engine:9.4f} {t_limit:9.4f} {ratio:12.1f}  {'yes' if ok_symbolic else 'NO'}"
              + ("" if ok_numeric else "   (numeric limit failed too)"))
    print(f"\nmedian time ratio sympy.limit / engine on numeric instances: {statistics.median(ratios):.1f}x")
    print(f"symbolic cases sympy.limit cannot decide: {undecided} of {len(KERNELS)} (the engine classifies all)")
    import uapcheck
    files = {"softmax": "attention { kernel k(x, y) = exp(x . y) }\n",
             "rbf": "param gamma > 0\nattention { kernel k(x, y) = exp(-gamma * |x - y|^2) }\n",
             "performer": "attention { features phi(x) = exp(w . x - |x|^2 / 2) random w }\n"}
    for name, text in files.items():
        clear_cache()
        clear_caches()
        start = time.perf_counter()
        uapcheck.check(text, name)
        print(f"whole derivation of the dense {name} file after imports, cold cache: "
              f"{time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
