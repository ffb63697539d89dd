"""Definition 2 (nonlinear affine invariance) for the FFN family x ↦ W σ(Ax − b)."""
from __future__ import annotations

import itertools
from typing import Iterator, Optional

import sympy
from sympy.calculus.singularities import singularities

from .. import proof
from ..claim import Formula, claim, written
from ..certificates import Affine, NonzeroAt
from ..budget import BudgetExceeded, time_limit
from ..memo import exact_cache
from ..zero import is_zero

CITE_DEF2 = proof.paper("Definition 2", text="Cheng et al. 2025, Definition 2 (nonlinear affine invariance); "
                        "docs/theory.md §FFN")

TRIPLES = [(-1, 0, 1), (0, 1, 2), (-2, -1, 0), (1, 2, 3), (-3, -2, -1), (-1, 1, 3)]


def _breakpoint_triples(sigma, z) -> list[tuple[int, int, int]]:
    """(β − 1, β, β + 1) for every finite integer end point β of the pieces of a piecewise σ (relu(u − 1000)
    bends at 1000, far from the fixed triples; a kink is where a second difference sees the bend)."""
    try:
        pieces = _pieces(sigma, z)
    except (NotImplementedError, TypeError, ValueError, AttributeError):
        return []
    ends: set[int] = set()
    for _, region in pieces:
        for interval in (region.args if isinstance(region, sympy.Union) else (region,)):
            for end in (getattr(interval, "start", None), getattr(interval, "end", None)):
                if end is not None and end.is_Integer and abs(int(end)) <= 10**9:
                    ends.add(int(end))
    return [(e - 1, e, e + 1) for e in sorted(ends)]


def _lazy_breakpoint_triples(sigma, z) -> Iterator[tuple[int, int, int]]:
    """The breakpoint triples not among TRIPLES, computed only when the fixed triples have all failed."""
    yield from (t for t in _breakpoint_triples(sigma, z) if t not in TRIPLES)


@exact_cache()  # σ = relu in almost every file of a batch, and in every derivation of the suggestion search
def _second_difference(sigma, z) -> Optional[dict]:
    for p, q, r in itertools.chain(TRIPLES, _lazy_breakpoint_triples(sigma, z)):
        val = sigma.subs(z, p) - 2 * sigma.subs(z, q) + sigma.subs(z, r)
        val = sympy.nsimplify(val) if val.is_Float else val
        if val.is_zero is False:
            return {"points": [p, q, r], "sigma(p) - 2 sigma(q) + sigma(r)": val}
    return None


def _pieces(sigma, z):
    """(expression, interval) pieces of a piecewise-defined activation."""
    pw = sigma.rewrite(sympy.Piecewise)
    pw = sympy.piecewise_fold(pw)
    if not isinstance(pw, sympy.Piecewise):
        return [(sigma, sympy.Interval(-sympy.oo, sympy.oo))]
    out, covered = [], sympy.EmptySet
    for expr, cond in pw.args:
        region = (cond.as_set() if cond is not sympy.true else sympy.Reals) - covered
        covered = covered | region
        if region is not sympy.EmptySet:
            out.append((expr, region))
    return out


_P, _Q, _R = sympy.symbols("p q r", real=True)


@exact_cache()
def _second_difference_certificate(sigma, z, points) -> NonzeroAt:
    expr = sigma.xreplace({z: _P}) - 2 * sigma.xreplace({z: _Q}) + sigma.xreplace({z: _R})
    return NonzeroAt(expr, dict(zip((_P, _Q, _R), map(sympy.Integer, points))),
                     "σ(p) − 2σ(q) + σ(r) ≠ 0: σ is not affine (the Lipschitz bound is the calculus engine's, "
                     "from the derivative's limits on each piece)")


def _limit_at_infinity(d, z, end):
    """lim d(z) as z → end (±∞). The limit of a sum is the sum of its terms' limits when each of them
    exists and is finite: when every term's limit is a rational number, that sum is the answer
    (gelu's σ' = Φ + z·φ: three short limits cost half of one over the sum); otherwise SymPy's limit
    of the whole sum, as before."""
    terms = sympy.Add.make_args(d)
    if len(terms) > 1:
        parts = []
        for term in terms:
            part = sympy.Integer(0) if _decays_like_gaussian(term, z, end) else sympy.limit(term, z, end)
            if not part.is_Rational:
                break
            parts.append(part)
        else:
            return sympy.Add(*parts)
    return sympy.limit(d, z, end)


def _decays_like_gaussian(term, z, end) -> bool:
    """True when term = C · z^k · exp(P(z)) with C a finite constant, k ≥ 0 an integer and P a
    polynomial with real numeric coefficients that tends to −∞ as z → end (its leading coefficient times
    sign(end)^deg P is negative, deg P ≥ 1): then |term| ≤ |C| |z|^k e^{−c|z|^m} for large |z| with
    c > 0, m ≥ 1, so term → 0 exactly. (gelu's σ' has the term z·φ(z) = z e^{−z²/2}/√(2π): SymPy's
    limit spends half of Definition 2's time on it.) False means nothing: the caller takes SymPy's limit."""
    exponent = sympy.Integer(0)
    for factor in sympy.Mul.make_args(term):
        if isinstance(factor, sympy.exp):
            exponent += factor.args[0]
        elif factor == z or (isinstance(factor, sympy.Pow) and factor.base == z and factor.exp.is_Integer
                             and factor.exp > 0):
            continue
        elif factor.free_symbols or factor.is_finite is not True or factor.is_real is not True:
            return False
    if exponent == 0 or exponent.free_symbols != {z} or not exponent.is_polynomial(z):
        return False
    poly = sympy.Poly(exponent, z)
    lead, degree = poly.LC(), poly.degree()
    if degree < 1 or not all(co.is_real is True and not co.free_symbols for co in poly.all_coeffs()):
        return False
    sign = lead if end == sympy.oo else lead * (-1) ** degree
    return sign.is_negative is True


def _one_sided_limit(sigma, z, pieces, end, side: str):
    """lim σ(z) as z → end from `side`. When a piece's region is an interval reaching `end` from that
    side, σ equals the piece's expression on (end − δ, end) (or (end, end + δ)), so the limit is the
    piece's: its value there for a polynomial (relu's 0 and ξ at 0), else SymPy's limit of the piece.
    (SymPy's limit of a whole Piecewise at its breakpoint can take the wrong branch: it gives 2 from
    the right for (ξ if ξ > 1 else ξ + 1) at 1, where σ tends to 1.) Otherwise SymPy's limit of σ."""
    for expr, region in pieces:
        if not isinstance(region, sympy.Interval):
            continue
        if (side == "-" and region.sup == end and region.inf < end) or (
                side == "+" and region.inf == end and region.sup > end):
            return expr.xreplace({z: end}) if expr.is_polynomial(z) else sympy.limit(expr, z, end, side)
    return sympy.limit(sigma, z, end, side)


@exact_cache()  # the same σ recurs in almost every file of a batch
def _lipschitz(sigma, z) -> tuple[proof.Status, dict]:  # noqa: C901 - one check per premise of the piecewise Lipschitz argument
    """(the status of "σ is globally Lipschitz", evidence). Each piece: derivative continuous on its
    interval with finite limits at infinite ends ⇒ bounded; σ continuous ⇒ globally Lipschitz."""
    evidence = {"pieces": []}
    with time_limit("bounding the activation's derivative", 4.0):
        pieces = _pieces(sigma, z)
        for expr, region in pieces:
            d = sympy.diff(expr, z)
            item = {"piece": expr, "on": region, "derivative": d}
            if d.free_symbols - {z}:
                return proof.UNDECIDED, {"reason": "the derivative depends on declared params", **item}
            sing = singularities(d, z, sympy.Reals)
            if sing.intersect(region) is not sympy.EmptySet:
                return proof.UNDECIDED, {"reason": "the derivative has singularities", **item}
            for end in (region.inf, region.sup):
                if end.is_finite:  # a derivative blowing up at a breakpoint is not bounded
                    side = "+" if end == region.inf else "-"
                    lim = sympy.limit(d, z, end, side)
                    item[f"limit at {end}{side}"] = lim
                    if not lim.is_finite:
                        return proof.REFUTED, {"reason": f"σ'(z) → {lim} as z → {end}{side}", **item}
            for end in (sympy.oo, -sympy.oo):
                if region.contains(end) is sympy.true or (end == sympy.oo and region.sup == sympy.oo) or (
                        end == -sympy.oo and region.inf == -sympy.oo):
                    lim = _limit_at_infinity(d, z, end)
                    item[f"limit at {end}"] = lim
                    if lim in (sympy.oo, -sympy.oo, sympy.zoo):
                        return proof.REFUTED, {"reason": f"σ'(z) → {lim} as z → {end}", **item}
                    if not lim.is_finite:
                        return proof.UNDECIDED, {"reason": f"the limit of σ' at {end} is {lim}", **item}
            evidence["pieces"].append(item)
        # Continuity at the breakpoints.
        if len(pieces) > 1:
            for _expr, region in pieces:
                for end in (region.inf, region.sup):
                    if end.is_finite:
                        left = _one_sided_limit(sigma, z, pieces, end, "-")
                        right = _one_sided_limit(sigma, z, pieces, end, "+")
                        if not is_zero(left - right):
                            return proof.REFUTED, {"reason": f"σ jumps at {end}"}
    return proof.PROVED, evidence


@proof.rule("FFN-DEF2", "FFN family: affine-invariant, with a Lipschitz non-affine member", CITE_DEF2,
            statuses=(proof.PROVED, proof.REFUTED, proof.UNDECIDED), certificates=(NonzeroAt, Affine))
def ffn_definition2(sigma, z, description: str) -> proof.Step:
    if sigma is None:
        return proof.conclude("`ffn none`: no token-wise FFN, so Definition 2 fails (no non-affine member)",
                              proof.REFUTED, evidence={"ffn": "none"}, certificate=Affine(None, None),
                              notes=["attention-only softmax networks are universal by Hu et al. 2025, "
                                     "a result outside this framework; it is not used here"])
    closure = ("x ↦ W' (W σ(A x − b)) (A' · − b') = (W'W) σ((AA') x − (Ab' + b)) has the same form, "
               "so the family {W σ(A x − b)} of free width is closed under affine maps")
    second = _second_difference(sigma, z)
    if second is None:
        with time_limit("checking whether σ is affine", 2.0):
            dd = sympy.simplify(sympy.diff(sigma, z, 2))
        if dd == 0:
            sigma_of_z = Formula(sympy.Eq(sympy.Function("sigma")(z), sigma, evaluate=False),
                                 f"σ({z}) = {sympy.sstr(sigma)}")
            return proof.conclude(claim(sigma_of_z, " is affine (", written("σ'' ≡ 0", r"\sigma'' \equiv 0"),
                                        "): Definition 2 fails"),
                                  proof.REFUTED, evidence={"sigma''": dd, "ffn": description},
                                  certificate=Affine(sigma, z))
        return proof.conclude("σ is not shown non-affine", proof.UNDECIDED, evidence={"ffn": description})
    try:
        status, lip = _lipschitz(sigma, z)
    except (BudgetExceeded, NotImplementedError, ValueError, TypeError) as exc:
        status, lip = proof.UNDECIDED, {"reason": str(exc)}
    ev = {"ffn": description, "σ(ξ)": sigma, "affine closure": closure, "non-affine": second,
          "lipschitz": lip}
    if status is proof.PROVED:
        return proof.conclude(f"σ = {description} is Lipschitz (bounded derivative) and not affine "
                              "(non-zero second difference): Definition 2 holds", proof.PROVED, evidence=ev,
                              certificate=_second_difference_certificate(sigma, z, second["points"]))
    if status is proof.REFUTED:
        # Not REFUTED: other members Σ W_i σ(a_i x − b_i) might still be Lipschitz and non-affine.
        return proof.conclude(f"σ = {description} is not globally Lipschitz ({lip.get('reason')}): "
                              "Definition 2 is not established", proof.UNDECIDED, evidence=ev)
    return proof.conclude(f"σ = {description}: Lipschitz bound not proved ({lip.get('reason')})",
                          proof.UNDECIDED, evidence=ev)
