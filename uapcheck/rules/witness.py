"""TD-WITNESS: an exact one-layer failure witness, for heads whose kernel sees only finitely many moments.

Two samples X, X′ from different S_n-orbits, sharing the token at position 1, whose outputs at
position 1 coincide for every parameter value of one attention layer (docs/theory.md §20.5):

- polynomial kernels in (x·z, |z|²) of key degree D (uniform, (x·y)², (x·y + c)², with or without
  bias terms): tokens on a line through 0 with equal power sums up to degree D + 1
  (Prouhet–Tarry–Escott sets);
- key factors positively homogeneous of degree D (ReLU features, relu(x·y); D = 0 for the cosine similarity,
  k(x, r z) = k(x, z)), without bias terms: tokens on a ray with equal power sums of degrees D and D + 1;
- unnormalised scores α(x·z) with α(s) + α(−s) = 2α(0) (sigmoid, tanh), without bias terms:
  S and −S with ΣS = 0.

The certificate re-checks the identity of the two outputs exactly, as polynomials (or analytic
expressions) in the free parameter invariants. Definition 3 with m = 1 then fails in its literal reading
(every finite data set); the pair is one point of a Lebesgue-null set of data sets, so under the
general-position reading (docs/theory.md §1.4, §13 L1, L8) the premise stays open and the verdict stays
INCONCLUSIVE (never NOT-UAP from such a witness). Whether more
attention layers, or the FFN layers between them, separate the pair is the open question the
derivation names (for the uniform kernel no number of attention layers does: each one translates
every token by the same vector; for a kernel even in the key every layer fixes a sample symmetric on a
line, so two such samples are never separated either; Theorem F173, docs/theory.md §20.5).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import sympy

from .. import proof
from .. import spec as S
from ..budget import BudgetExceeded, time_limit
# the invariants under the docs' names (uapcheck/lower.py)
from ..lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c, SCALE as t, ClosedKernel, FeatureKernel
from ..memo import exact_cache
from ..zero import is_zero
from ..claim import Claim, Written, claim, written

CITE_WITNESS = proof.derived(
    "Definition 3", "Theorem 1",
    text="Cheng et al. 2025, Definition 3 (token distinguishability) with m = 1; the witness pairs are "
         "derived here: docs/theory.md §20.5")

# Direction-free invariants of a key r·e (r a scalar) against a query q: a = r·α + α₀ and
# |k|² = r²β + 2rβ₁ + β₀ (α₀, β₁, β₀ come from a key bias; 0 without one).
ALPHA, ALPHA0 = sympy.Symbol("q·W_K e", real=True), sympy.Symbol("q·b_K", real=True)
BETA, BETA1, BETA0 = (sympy.Symbol("|W_K e|²", positive=True), sympy.Symbol("W_K e·b_K", real=True),
                      sympy.Symbol("|b_K|²", nonnegative=True))
R = sympy.Symbol("r", positive=True)

# Sets of distinct integers with equal power sums Σ r^k for k = 1..K (Prouhet–Tarry–Escott; the
# first are ideal solutions, larger K use the Thue–Morse split of {0, …, 2^(K+1) − 1}).
_IDEAL = {
    1: ((0, 3), (1, 2)),
    2: ((1, 5, 6), (2, 3, 7)),
    3: ((0, 4, 7, 11), (1, 2, 9, 10)),
    4: ((0, 4, 8, 16, 17), (1, 2, 10, 14, 18)),
    5: ((0, 5, 6, 16, 17, 22), (1, 2, 10, 12, 20, 21)),
}
MAX_DEGREE = 7


def equal_power_sets(k: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two disjoint sets of distinct integers with equal size and equal power sums up to degree k."""
    if k in _IDEAL:
        return _IDEAL[k]
    left = tuple(i for i in range(2 ** (k + 1)) if bin(i).count("1") % 2 == 0)
    right = tuple(i for i in range(2 ** (k + 1)) if bin(i).count("1") % 2 == 1)
    return left, right


def _shared_token(left, right) -> int:
    return max(max(left), max(right), 0) + 1


@dataclass(frozen=True)
class WitnessCertificate(proof.Certificate):
    """The witness (`left`, `right`: the scalars r of the tokens r·e besides the shared token), the
    head's kernel data, and the family it belongs to. The check recomputes, exactly, the two outputs'
    parameter-dependent parts Σ k(q, k_j) v_j (and Σ k(q, k_j) when normalised) at the shared token
    and shows them identical; the shared token's own term is the same in both samples. For an odd score
    it checks the family's hypotheses on the head's α (α(s) + α(−s) = 2α(0), S and −S, ΣS = 0, no
    normaliser or bias), from which the parts are identical by pairing r with −r (docs/theory.md §20.5)."""

    family: str  # "polynomial", "homogeneous" or "odd"
    kernel: sympy.Expr  # closed: k in (a, b, c, params); features: the key factor K in (v, t)
    key_symbol: Optional[sympy.Symbol]
    degree: int
    left: tuple
    right: tuple
    normalized: bool
    affine: bool
    kind = "one-layer-witness"

    def check(self) -> None:
        reject = proof.CertificateRejected
        if sorted(self.left) == sorted(self.right) or len(self.left) != len(self.right):
            raise reject("WitnessCertificate: the two token sets must differ and have the same size")
        if len(set(self.left)) != len(self.left) or len(set(self.right)) != len(self.right):
            raise reject("WitnessCertificate: tokens inside a sample must be distinct")
        shared = _shared_token(self.left, self.right)
        if shared in self.left or shared in self.right:
            raise reject("WitnessCertificate: the shared token must differ from the others")
        weight = self._weight()
        if self.family == "odd":
            # _weight has checked, on this kernel, α(s) + α(−s) = 2α(0) identically, the samples S and −S
            # with ΣS = 0, and no normaliser. The value sums then differ by Σ_{r∈S} r·(α(rA) + α(−rA))
            # = 2α(0)·ΣS = 0 (pair r with −r), which expanding the two sums would only show again.
            return
        numerator = sum((weight(r) * r for r in self.left), sympy.Integer(0)) - \
            sum((weight(r) * r for r in self.right), sympy.Integer(0))
        if not is_zero(sympy.expand(numerator)):
            raise reject("WitnessCertificate: the weighted value sums differ")
        if self.normalized:
            denominator = sum((weight(r) for r in self.left), sympy.Integer(0)) - \
                sum((weight(r) for r in self.right), sympy.Integer(0))
            if not is_zero(sympy.expand(denominator)):
                raise reject("WitnessCertificate: the normalisers differ")

    def _weight(self):
        """r ↦ the weight of the key r·e (a polynomial in the parameter invariants), after checking
        that the family's hypothesis holds for this kernel."""
        reject = proof.CertificateRejected
        if self.family == "polynomial":
            sub = lambda r: {a: r * ALPHA + ALPHA0, b: r ** 2 * BETA + 2 * r * BETA1 + BETA0}  # noqa: E731
            if not self.affine:
                sub = lambda r: {a: r * ALPHA, b: r ** 2 * BETA}  # noqa: E731
            if not self.kernel.is_polynomial(a, b):
                raise reject("WitnessCertificate: the kernel is not a polynomial in x·z and |z|²")
            return lambda r: self.kernel.xreplace(sub(sympy.Integer(r)))
        if self.family == "homogeneous":
            if self.affine or any(r <= 0 for r in (*self.left, *self.right)):
                raise reject("WitnessCertificate: homogeneous witnesses use positive r and no bias terms")
            if not homogeneous_degree_holds(self.kernel, self.key_symbol, self.degree):
                raise reject("WitnessCertificate: the key factor is not positively homogeneous of that degree")
            return lambda r: sympy.Integer(r) ** self.degree  # k(q, r z) = r^D k(q, z)
        if self.family == "odd":
            if self.affine or self.normalized or (self.kernel.free_symbols & {b, c}):
                raise reject("WitnessCertificate: odd-score witnesses need an unnormalised score α(x·z) "
                             "and no bias terms")
            try:
                odd = is_zero(self.kernel + self.kernel.xreplace({a: -a}) - 2 * self.kernel.xreplace({a: 0}))
            except (ValueError, TypeError):  # α(0) is ∞ inside a max/min: SymPy refuses it
                odd = False
            if not odd:
                raise reject("WitnessCertificate: α(s) + α(−s) = 2α(0) does not hold")
            if sorted(self.right) != sorted(-r for r in self.left) or sum(self.left) != 0:
                raise reject("WitnessCertificate: the odd witness is S and −S with ΣS = 0")
            return lambda r: self.kernel.xreplace({a: sympy.Integer(r) * ALPHA})
        raise reject(f"WitnessCertificate: unknown family {self.family}")

    def to_json(self) -> Any:
        return {"kind": self.kind, "family": self.family, "kernel": sympy.sstr(self.kernel),
                "degree": self.degree, "left": list(self.left), "right": list(self.right),
                "shared": _shared_token(self.left, self.right), "normalized": self.normalized,
                "affine": self.affine}


@exact_cache()  # the witness search and the certificate's check ask the same question
def homogeneous_degree_holds(key: sympy.Expr, symbol: Optional[sympy.Symbol], degree: int) -> bool:
    """K(r·ξ) = r^D K(ξ) for r > 0, on each sign of the key invariant ξ (a closed kernel's x·z, with |z|² scaled
    by r² and |x|² kept: k(x, r z) = r^D k(x, z), the cosine similarity's degree 0 included; or a coordinate
    feature's key factor K(t, v) at t = r)."""
    if symbol is None:
        return False
    for sign in (1, -1):
        pos = sympy.Symbol("ξ", positive=True)
        if symbol == a:
            lhs = key.xreplace({a: sign * R * pos, b: R ** 2 * b})
            rhs = R ** degree * key.xreplace({a: sign * pos})
            if not is_zero(lhs - rhs):
                return False
            continue
        else:
            lhs = key.xreplace({t: R, symbol: sign * pos})
            rhs = R ** degree * key.xreplace({t: sympy.Integer(1), symbol: sign * pos})
        if lhs.has(b, c) or not is_zero(lhs - rhs):
            return False
    return True


def _polynomial_degree(kernel: sympy.Expr) -> Optional[int]:
    if not kernel.is_polynomial(a, b):
        return None
    poly = sympy.Poly(kernel, a, b)
    return max(i + 2 * j for i, j in poly.monoms())


def find_witness(model, head, spec_heads: int) -> Optional[WitnessCertificate]:
    """A one-layer witness for a lone dense head with no other items, or None (also when the
    search runs out of its 6 s budget: a witness is never needed for a sound verdict)."""
    try:
        with time_limit("looking for a one-layer witness pair", 6.0):
            return _find_witness(model, head, spec_heads)
    except BudgetExceeded:
        return None
    except (ValueError, TypeError):  # max/min of ∞ at x·z = 0 (max(1, 1/(x·z))): SymPy refuses it, no witness
        return None


def _find_witness(model, head, spec_heads: int) -> Optional[WitnessCertificate]:
    if (spec_heads != 1 or head.tie or head.bias is not None or head.position is not None
            or head.projection is not None or head.nystrom or head.differential or head.heads is not None
            or not isinstance(head.pattern, S.Full)):
        return None
    if isinstance(model, ClosedKernel):
        k = model.plain
        degree = _polynomial_degree(k)
        if degree is not None and degree + 1 <= MAX_DEGREE:
            left, right = equal_power_sets(degree + 1)
            shift = 1 - min(min(left), min(right))  # power sums up to degree D + 1 survive a shift; no zero token
            return WitnessCertificate("polynomial", k, None, degree, tuple(r + shift for r in left),
                                      tuple(r + shift for r in right), head.normalized, head.affine)
        if head.affine:
            return None
        # k(x, r z) = r^D k(x, z) for r > 0 (relu(x·y): D = 1; the cosine similarity, scale-invariant in the key: D = 0)
        for degree in (0, 1, 2, 3):
            if homogeneous_degree_holds(k, a, degree):
                left, right = equal_power_sets(degree + 1)
                shift = 1 - min(min(left), min(right))
                return WitnessCertificate("homogeneous", k, a, degree, tuple(r + shift for r in left),
                                          tuple(r + shift for r in right), head.normalized, False)
        if not k.has(b, c):
            if not head.normalized and is_zero(k + k.xreplace({a: -a}) - 2 * k.xreplace({a: 0})):
                return WitnessCertificate("odd", k, None, 1, (1, 2, -3), (-1, -2, 3), False, False)
        return None
    if isinstance(model, FeatureKernel) and model.single and model.index == "coordinate" and not head.affine:
        for degree in (1, 2, 3):
            if homogeneous_degree_holds(model.key, model.key_symbol, degree):
                left, right = equal_power_sets(degree + 1)
                shift = 1 - min(min(left), min(right))
                return WitnessCertificate("homogeneous", model.key, model.key_symbol, degree,
                                          tuple(r + shift for r in left), tuple(r + shift for r in right),
                                          head.normalized, False)
    return None


#: Which reading of Definition 3 a witness pair refutes (docs/theory.md §1.4, §13 L1 and L8): the pair is one point
#: of a Lebesgue-null set of data sets, so it refutes the literal reading ("every finite D") only.
READING = "literal (every finite data set); the pair lies in a Lebesgue-null set of data sets"
_NULL = {"polynomial": "tokens on a line with equal power sums", "homogeneous": "tokens on a ray with equal power sums",
         "odd": "S and −S with ΣS = 0"}


def _open_question(cert: WitnessCertificate) -> Claim:
    null = (f"The pair lies in a Lebesgue-null set of data sets ({_NULL[cert.family]}), so it refutes the literal "
            "reading of Definition 3 (every finite data set) only; under the general-position reading (every data "
            "set off a null set, §1.4, Known limitations L1, on which every UAP verdict for kernel attention rests) "
            "Theorem 1's premise stays open, and the verdict is INCONCLUSIVE, not NOT-UAP (L8)")
    if cert.family == "polynomial" and cert.degree == 0:
        return claim("No number of attention layers separates them either (each layer adds ",
                     written("W_V·mean", r"W_{V} \cdot \mathrm{mean}"), " to every token, "
                     "and the two means stay equal), so the literal reading fails for every m. ", null,
                     "; whether the FFN layers between attention layers recover the G-UAP is open")
    if cert.family == "polynomial" and not cert.affine and even_in_the_key(cert.kernel):
        # at an odd length a symmetric sample holds the token 0; a normalised kernel that vanishes at the zero query
        # has normaliser 0 on that row for every parameter, so the statement is made for even n there
        zero_row = cert.normalized and is_zero(sympy.expand(cert.kernel.xreplace({a: 0, c: 0})))
        where = (" at even n (the other tokens paired as ±y; at odd n a symmetric sample holds the token 0, whose row's "
                 "normaliser is 0 for every parameter)" if zero_row else "")
        return claim("The kernel is even in the key (k(x, −z) = k(x, z)), so every attention layer fixes a sample "
                     "symmetric on a line, Y = −Y (the terms of y and −y cancel at every query, wherever the layer is "
                     "defined): ", _sample("Y", (3, -3, 1, -1)), " and ", _sample("Y′", (3, -3, 2, -2)), " are never "
                     f"separated by attention layers, and the literal reading fails for every m{where} (docs/theory.md "
                     "§20.5). ", null, "; whether the FFN layers between attention layers separate every pair is open, "
                     "and the UAP itself is not refuted")
    if cert.family == "homogeneous" and cert.degree == 0 and cert.normalized:
        return claim(null, "; every token of a sample on the ray gets the same weight at every query, so one layer "
                     "adds the same vector ", written("W_V·mean(X)", r"W_{V} \cdot \mathrm{mean}(X)"), " to each of "
                     "them, the same for X and X′ when all their tokens lie on the ray; whether a second attention layer "
                     "(the translated tokens no longer on a ray through 0) or the FFN layers separate every pair is "
                     "open, and the UAP itself is not refuted")
    return claim(null, "; whether m ≥ 2 attention layers (or the FFN layers between them) separate every pair is "
                 "open, and the UAP itself is not refuted")


def even_in_the_key(kernel: sympy.Expr) -> bool:
    """k(x, −z) = k(x, z) exactly: x·z ↦ −x·z leaves the closed kernel unchanged (|z|² and |x|² stay)."""
    return is_zero(sympy.expand(kernel - kernel.xreplace({a: -a})))


@proof.rule("TD-WITNESS", "One layer is not token distinguishing: an exact witness pair", CITE_WITNESS,
            statuses=(proof.REFUTED,), certificates=(WitnessCertificate,))
def td_witness(cert: WitnessCertificate, tokens, lim: proof.Step, analytic: proof.Step, label: str) -> proof.Step:
    shared = _shared_token(cert.left, cert.right)
    size = len(cert.left) + 1
    what = {"polynomial": f"the kernel is a polynomial of degree {cert.degree} in the key, so a layer sees the "
                          f"keys on a line only through their power sums up to degree {cert.degree + 1}",
            "homogeneous": claim(f"the key factor is positively homogeneous of degree {cert.degree}, so a layer "
                                 "sees keys on a ray only through ", _power_sum(cert.degree), " and ",
                                 _power_sum(cert.degree + 1)),
            "odd": "α(s) + α(−s) = 2α(0), so the keys S and −S with ΣS = 0 give the same weighted sum"}[cert.family]
    more = "" if not isinstance(tokens, int) or tokens == size else (
        f" (with the other {tokens - size} tokens shared by both samples)")
    statement = claim(f"{label}: one attention layer is not token distinguishing in the literal reading of "
                      "Definition 3 (m = 1, every finite data set): ", what,
                      "; the samples ", _sample("X", (shared, *cert.left)), " and ", _sample("X′", (shared, *cert.right)),
                      f"{more} are in different orbits, and their outputs at position 1 coincide for every parameter "
                      "value (their normalisers, if any, are equal too). ", _open_question(cert))
    if not isinstance(tokens, int):
        statement += f" (the witness needs n ≥ {size})"
    ev = {"X": [shared, *cert.left], "X′": [shared, *cert.right], "e": "any fixed non-zero vector",
          "family": cert.family, "degree in the key": cert.degree, "reading refuted": READING}
    return proof.conclude(statement, proof.REFUTED, [lim, analytic], ev, certificate=cert)


def _power_sum(degree: int) -> Written:
    return written(f"Σ r^{degree}", rf"\sum r^{{{degree}}}")


def _sample(name: str, values: tuple) -> Written:
    """`X = (0, 1, −1)·e`: a witness sample, its integer coordinates along a fixed vector e."""
    inner = ", ".join(map(str, values))
    tex = name.replace("′", "'")
    return written(f"{name} = ({inner})·e", rf"{tex} = ({inner}) \cdot e")
