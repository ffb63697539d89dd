"""Certificates: the typed data a rule concludes from, each with a cheap re-check.

The proof kernel (uapcheck/proof.py) runs `check()` before it makes a `proved` or `refuted` step,
and stores `to_json()` with the step. A check raises `CertificateRejected` when the data does not
show what the rule claims. Checks are deliberately small: exact substitution at rational points,
arc-by-arc graph checks, membership of generators; what a check does not re-derive is named in the
certificate (`Trusted`, or the `trusted` entry of the JSON) so a referee sees what rests on an
engine. docs/theory.md §2.2 lists every certificate with what its check proves.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

import sympy

from . import proof
from . import spec as S
from .proof import Certificate, CertificateRejected, Status
from .value_enum import ValueEnum
from .groups import bias_class, bucket_kind
from .memo import exact_cache
from .zero import is_zero, simplified

# Above this many positions, graph certificates keep their checks but leave the long arrays out of
# the JSON (the input re-derives them).
JSON_ARRAY_LIMIT = 4096


def _reject(cls, why: str):
    raise CertificateRejected(f"{cls.__name__}: {why}")


def _exact(value) -> Any:
    return proof._jsonable(value)


def _the_files_length(cls, length_symbol: Any, length: Any = None) -> None:
    """The certificate's length is the file's (proof.about_file; nothing to compare outside a derivation): at a
    symbolic `tokens L` a certificate at symbolic length names L (a certificate in another symbol would have its
    orders and counts read in a length the file does not have); at an integer `tokens N` a stated length is N and
    the symbol is the theorems' n (a class's formula read at N)."""
    tokens = proof.file_length()
    if tokens is None:
        return
    name = getattr(length_symbol, "name", None)
    if isinstance(tokens, str):
        if length is None and name != tokens:
            _reject(cls, f"the certificate names the length {name}, not the file's {tokens}")
        return
    if length is not None and length != tokens:
        _reject(cls, f"the certificate's length {length} is not the file's {tokens}")
    if name != "n":
        _reject(cls, f"the certificate names the length {name}, not the theorems' n at the file's length {tokens}")


def _order_in_length(cls, order: Any, length_symbol: Any, n: sympy.Symbol, length: Any = None) -> sympy.Expr:
    """A stated group order with the length's symbol (`length_symbol`, as the engine named it, and the file's:
    `_the_files_length`) read as n: any other free symbol (a param's name where the length is meant) is a refusal,
    never read as the length."""
    _the_files_length(cls, length_symbol, length)
    order = sympy.sympify(order, strict=True)  # safe: strict (no text parsed)
    if not isinstance(length_symbol, sympy.Symbol):
        _reject(cls, "the certificate names no symbol for the length")
    others = order.free_symbols - {length_symbol}
    if others:
        _reject(cls, f"the order {order} names {', '.join(sorted(map(str, others)))}, not the length {length_symbol}")
    return order.xreplace({length_symbol: n})


@exact_cache()  # σ's second difference at the same point in almost every derivation of a batch
def _nonzero_at(expression, point: tuple) -> bool:
    """`expression` at the exact point (pairs symbol, value) is shown non-zero."""
    return _is_nonzero(sympy.sympify(expression, strict=True).xreplace(dict(point)))  # safe: strict (no text parsed)


def _is_nonzero(value: sympy.Expr) -> bool:
    """Exact: `value` is non-zero for every admissible value of the parameters it contains."""
    if isinstance(value, sympy.Basic) and value.is_zero is False:  # decided as written (erf(√2/2)): no simplify
        return True
    value = simplified(value)
    if value.is_zero is False:
        return True
    if value.is_zero or is_zero(value):
        return False
    from .asymptotics import Context, NeedSign, Undecided, sign_of  # the sign engine, for parameters
    try:
        return sign_of(value, Context()) != 0
    except (Undecided, NeedSign):
        return False


# ---------------------------------------------------------------------------------------------
# Generic certificates


@dataclass(frozen=True)
class Trusted(Certificate):
    """A conclusion the kernel does not re-derive: an engine's computation, named with its reason.
    Rules declare `Trusted` explicitly; the JSON marks the step `trusted` with the reason."""

    engine: str
    reason: str
    data: Mapping[str, Any] = field(default_factory=dict)
    kind = "trusted"

    def check(self) -> None:
        if not self.engine or not self.reason:
            _reject(Trusted, "a trusted conclusion names its engine and its reason")

    def to_json(self) -> Any:
        return {"kind": self.kind, "engine": self.engine, "reason": self.reason, "data": _exact(dict(self.data))}


@dataclass(frozen=True)
class Inference(Certificate):
    """The rule's stated argument applied to premises that have the given statuses (e.g. TD-KERNEL:
    (LIM) proved and analyticity proved). The check: each premise is a kernel-made step with that
    status."""

    premises: tuple  # of (Step, Status)
    argument: str
    # Typed facts the argument needs of its premises: (step, fact name, value), compared exactly.
    requires: tuple = ()
    # Side conditions the argument needs, each a certificate checked in turn (e.g. k(0, 0) > 0).
    conditions: tuple = ()
    kind = "inference"

    def check(self) -> None:
        if not self.premises:
            _reject(Inference, "an inference needs premises")
        steps = set()
        for step, status in self.premises:
            if not proof.is_step(step):
                _reject(Inference, "a premise is not a derivation step")
            if step.status is not Status(status):
                _reject(Inference, f"premise {step.rule} is {step.status.value}, not {Status(status).value}")
            steps.add(id(step))
        for step, name, value in self.requires:
            if id(step) not in steps:
                _reject(Inference, f"a required fact {name!r} is not of a premise")
            if name not in step.facts or step.facts[name] != value:
                _reject(Inference, f"premise {step.rule} does not have {name} = {value!r}")
        for condition in self.conditions:
            if not isinstance(condition, Certificate) or isinstance(condition, (Trusted, Inference)):
                _reject(Inference, "a side condition is a checked certificate")
            condition.check()

    def to_json(self) -> Any:
        out = {"kind": self.kind, "argument": self.argument,
               "premises": [{"rule": s.rule, "status": Status(st).value} for s, st in self.premises]}
        if self.requires:
            out["requires"] = [{"rule": s.rule, "fact": name, "value": _exact(value)} for s, name, value in self.requires]
        if self.conditions:
            out["conditions"] = [c.to_json() for c in self.conditions]
        return out


@dataclass(frozen=True)
class ExactIdentity(Certificate):
    """lhs = rhs identically (SymPy simplification of the difference to 0)."""

    lhs: sympy.Expr
    rhs: sympy.Expr
    meaning: str
    kind = "identity"

    def check(self) -> None:
        if not is_zero(self.lhs - self.rhs):
            _reject(ExactIdentity, f"{sympy.sstr(self.lhs)} ≠ {sympy.sstr(self.rhs)}")

    def to_json(self) -> Any:
        return {"kind": self.kind, "lhs": _exact(self.lhs), "rhs": _exact(self.rhs), "meaning": self.meaning}


@dataclass(frozen=True)
class NonzeroAt(Certificate):
    """`expression` evaluated at the exact `point` is non-zero (e.g. σ's second difference)."""

    expression: sympy.Expr
    point: Mapping[sympy.Symbol, sympy.Expr]
    meaning: str
    kind = "nonzero-at-point"

    def check(self) -> None:
        if not _nonzero_at(self.expression, tuple(self.point.items())):
            _reject(NonzeroAt, f"{self.meaning}: the value at the witness point is not shown non-zero")

    def to_json(self) -> Any:
        return {"kind": self.kind, "expression": _exact(self.expression),
                "point": {str(k): _exact(v) for k, v in self.point.items()}, "meaning": self.meaning}


@dataclass(frozen=True)
class SignChange(Certificate):
    """`expression` is > 0 at one exact point and < 0 at another (a kernel taking both signs)."""

    expression: sympy.Expr
    positive_at: Mapping[sympy.Symbol, sympy.Expr]
    negative_at: Mapping[sympy.Symbol, sympy.Expr]
    kind = "sign-change"

    def check(self) -> None:
        pos = simplified(self.expression.xreplace(dict(self.positive_at)))
        neg = simplified(self.expression.xreplace(dict(self.negative_at)))
        if pos.is_positive is not True or neg.is_negative is not True:
            _reject(SignChange, f"values {sympy.sstr(pos)} and {sympy.sstr(neg)} are not of opposite signs")

    def to_json(self) -> Any:
        return {"kind": self.kind, "expression": _exact(self.expression),
                "positive at": {str(k): _exact(v) for k, v in self.positive_at.items()},
                "negative at": {str(k): _exact(v) for k, v in self.negative_at.items()}}


@dataclass(frozen=True)
class ZeroRow(Certificate):
    """The reweight c(i, j) is exactly 0 at row `row` and every key `visible` of that row, so the row's normaliser
    Σ_j k(q_i, k_j) c(i, j) is 0 for every input and parameter (docs/theory.md §4, the row form). The check
    substitutes the positions exactly; the row's visible set is the pattern's (`trusted`: read off a one-sided
    pattern for every n, or built at the concrete length)."""

    term: sympy.Expr
    i: sympy.Symbol
    j: sympy.Symbol
    row: sympy.Expr
    visible: tuple
    every_n: bool
    n: Optional[int]  # the concrete length the row was built at (None: every n)
    every_key: bool = False  # `visible` is (j,): c(row, j) vanishes identically in j, whatever keys the row sees
    kind = "zero-row"

    def check(self) -> None:
        if not self.visible:
            _reject(ZeroRow, "the row has no visible key")
        if self.every_key and self.visible != (self.j,):
            _reject(ZeroRow, "a row that vanishes at every key names the key variable alone")
        for key in self.visible:
            value = simplified(self.term.xreplace({self.i: self.row, self.j: key}))
            if not (value == 0 or is_zero(value)):
                _reject(ZeroRow, f"c({self.row}, {key}) = {sympy.sstr(value)} is not 0")

    def to_json(self) -> Any:
        return {"kind": self.kind, "c(i, j)": _exact(self.term), "row": _exact(self.row),
                "visible": [_exact(v) for v in self.visible], "every n": self.every_n, "n": self.n,
                "every key": self.every_key,
                "trusted": ("nothing: c(row, j) vanishes identically in j, so whatever keys the row sees"
                            if self.every_key else
                            "the row's visible keys: " + ("a one-sided pattern's end row sees only itself, for every n"
                                                          if self.every_n else "the pattern built at this length"))}


@dataclass(frozen=True)
class MixedRow(Certificate):
    """A row of a normalised reweighted head whose factors c(row, j) take both signs, and two exact 1-dimensional
    configurations of the query q and the row's keys (W_K = 1, W_Q = q / x_row, no biases) at which the row's
    normaliser N = Σ_j c(row, j) k(q, x_j) is positive and negative (docs/theory.md §4, Lemma Q). The check
    substitutes the positions and the points exactly; the row's visible keys are the pattern's at length `n`
    (`trusted`: built at this length; the verifier re-derives them)."""

    term: sympy.Expr
    i: sympy.Symbol
    j: sympy.Symbol
    row: int
    visible: tuple  # the row's keys (ints)
    kernel: sympy.Expr  # k as a function of the invariants a = q·x, b = x², c = q²
    invariants: tuple  # (a, b, c): the symbols of `kernel`
    positive: tuple  # (q, (x_j for j in visible))
    negative: tuple
    n: int  # the length the row's keys were built at
    #: at a symbolic length: the row's keys are `visible` at every n ≥ from_n (a local pattern, Lemma T of
    #: docs/theory.md §4), so the normaliser takes both signs there; None at the file's concrete length
    from_n: Optional[int] = None
    length: Optional[sympy.Symbol] = None  # the symbolic length's symbol, with from_n
    kind = "mixed-row"

    def range(self) -> Optional[sympy.Basic]:
        """n ≥ from_n at a symbolic length (the verdict's range, docs/theory.md §12), else None."""
        if self.from_n is None or self.length is None or self.from_n <= 1:
            return None
        return sympy.GreaterThan(self.length, self.from_n, evaluate=False)

    def normaliser(self, point: tuple) -> sympy.Expr:
        q, values = point
        a, b, c = self.invariants
        total = sympy.Integer(0)
        for key, x in zip(self.visible, values):
            weight = self.term.xreplace({self.i: sympy.Integer(self.row), self.j: sympy.Integer(key)})
            total += weight * self.kernel.xreplace({a: sympy.Integer(q * x), b: sympy.Integer(x * x),
                                                    c: sympy.Integer(q * q)})
        return total

    def check(self) -> None:
        if self.row not in self.visible:
            _reject(MixedRow, "the row does not see its own token")
        for label, point in (("positive", self.positive), ("negative", self.negative)):
            q, values = point
            if len(values) != len(self.visible):
                _reject(MixedRow, f"the {label} point does not give every key a value")
            if q != 0 and values[self.visible.index(self.row)] == 0:
                _reject(MixedRow, f"the {label} point's query q = {q} is not W_Q times the row's token 0")
        pos, neg = simplified(self.normaliser(self.positive)), simplified(self.normaliser(self.negative))
        if pos.is_positive is not True or neg.is_negative is not True:
            _reject(MixedRow, f"the normalisers {sympy.sstr(pos)} and {sympy.sstr(neg)} are not of opposite signs")
        if self.from_n is not None and (self.from_n != self.n or self.from_n != max(self.visible)):
            _reject(MixedRow, "at a symbolic length the row's range starts at its last key, where its keys are built")

    def to_json(self) -> Any:
        return {"kind": self.kind, "c(i, j)": _exact(self.term), "row": self.row, "visible": list(self.visible),
                "k": _exact(self.kernel), "n": self.n,
                "positive at": {"q": self.positive[0], "keys": list(self.positive[1])},
                "negative at": {"q": self.negative[0], "keys": list(self.negative[1])},
                **({} if self.from_n is None else {"from n": self.from_n}),
                "trusted": "the row's visible keys: the pattern built at this length" + (
                    "" if self.from_n is None else ", the same at every n ≥ from n (a local pattern, Lemma T)")}


@dataclass(frozen=True)
class EndRows(Certificate):
    """Rows near the last one whose reweight factors vanish at every key they see, class by class of n mod L
    (docs/theory.md §4, Lemma U): the pattern's arcs are one relation A cut to [1, n], invariant under
    (i, j) ↦ (i + L, j + L), with |i − j| ≤ R on A, so row n − t sees keys n − d, d ∈ D_r, on the class n ≡ r, at every
    n of the class with n ≥ t + 1 (the keys built at one length `built` ≥ t + R + 1 of the class). Each entry is
    (residue r, t, D_r, built, first): `first` the least n ≥ 1 of the class; the check substitutes n = L·k + first
    (k ≥ 0 an integer) and requires c(n − t, n − d) = 0 identically for every d ∈ D_r, and t < first. The offsets
    D_r are the pattern's (`trusted`: the verifier re-derives them on its own arcs)."""

    term: sympy.Expr
    i: sympy.Symbol
    j: sympy.Symbol
    length: sympy.Symbol
    modulus: int
    rows: tuple  # ((residue, t, (d, ...), built, first), ...)
    kind = "end-rows"

    @property
    def residues(self) -> tuple:
        return tuple(sorted(r for r, *_ in self.rows))

    def check(self) -> None:
        if self.modulus < 1 or len(set(self.residues)) != len(self.rows) or not self.rows:
            _reject(EndRows, "the rows do not name distinct residues")
        k = sympy.Symbol("k•", integer=True, nonnegative=True)
        for r, t, offsets, built, first in self.rows:
            if not (0 <= r < self.modulus and first % self.modulus == r and 1 <= first <= self.modulus
                    and built % self.modulus == r and 0 <= t < first and t in offsets):
                _reject(EndRows, f"the class n ≡ {r} (mod {self.modulus}) is not stated with its row and length")
            n = self.modulus * k + first
            for d in offsets:
                value = simplified(self.term.xreplace({self.i: n - t, self.j: n - d}))
                if not (value == 0 or is_zero(value)):
                    _reject(EndRows, f"c(n − {t}, n − {d}) = {sympy.sstr(value)} is not 0 on n ≡ {r} "
                                     f"(mod {self.modulus})")

    def to_json(self) -> Any:
        return {"kind": self.kind, "c(i, j)": _exact(self.term), "modulus": self.modulus,
                "rows": [{"residue": r, "row": f"n - {t}" if t else "n", "offsets": list(d), "built at": b,
                          "first": f} for r, t, d, b, f in self.rows],
                "trusted": "the row's keys n − d: the pattern built at one length of the class, the same at every "
                           "length of it (a relation invariant under shifts by the modulus, Lemma U)"}


#: the query and key values of a ratio row's witness: keys with c > 0 (and c = 0) at p, those with c < 0 at m
RATIO_KEYS = (1, -1)


def ratio_takes_every_value(kernel: sympy.Expr, invariants: tuple) -> bool:
    """Whether, for a kernel written in the invariants (a, b, c) = (q·x, |x|², |q|²) of a 1-dimensional query q and key
    x, with p, m = RATIO_KEYS: far out at each end of the query line both k(q, p) and k(q, m) are positive (by the
    assumptions with q of that end's sign, or a limit that is positive or +∞), and the ratio k(q, p)/k(q, m) tends to
    +∞ at one end and to 0 at the other. Then for every A > 0 > B some q gives A k(q, p) + B k(q, m) > 0 and some q
    gives < 0 (docs/theory.md §4, Lemma Q, the ratio form)."""
    a, b, c = invariants
    p, m = RATIO_KEYS
    q = sympy.Symbol("q•", real=True)
    kp = kernel.xreplace({a: q * p, b: sympy.Integer(p * p), c: q * q})
    km = kernel.xreplace({a: q * m, b: sympy.Integer(m * m), c: q * q})
    ratios = []
    for end, signed in ((sympy.oo, sympy.Symbol("q+", positive=True)), (-sympy.oo, sympy.Symbol("q-", negative=True))):
        for value in (kp, km):
            if value.xreplace({q: signed}).is_positive is not True:
                far = sympy.limit(value, q, end)
                if not (far == sympy.oo or (far.is_finite and far.is_positive) is True):
                    return False
        ratios.append(sympy.limit(sympy.simplify(kp / km), q, end))
    return set(ratios) == {sympy.oo, sympy.Integer(0)}


@dataclass(frozen=True)
class RatioRow(Certificate):
    """A row of a dense normalised reweighted head at a symbolic length n, with two keys whose factors are positive and
    negative at every n ≥ from_n (positions: an integer t, or n − t), and a kernel whose ratio k(q, 1)/k(q, −1) tends to
    +∞ at one end of the query line and to 0 at the other, both values positive far out (docs/theory.md §4, Lemma Q,
    the ratio form): the row's normaliser A k(q, 1) + B k(q, −1), A > 0 > B, takes both signs. The check substitutes
    n = from_n + k (k ≥ 0) and decides the two signs and the positions' range exactly, and recomputes the limits."""

    term: sympy.Expr
    i: sympy.Symbol
    j: sympy.Symbol
    length: sympy.Symbol
    row: sympy.Expr
    plus: sympy.Expr  # a key with c(row, plus) > 0
    minus: sympy.Expr  # a key with c(row, minus) < 0
    from_n: int
    kernel: sympy.Expr
    invariants: tuple
    kind = "ratio-row"

    def range(self) -> Optional[sympy.Basic]:
        return None if self.from_n <= 1 else sympy.GreaterThan(self.length, self.from_n, evaluate=False)

    def check(self) -> None:
        k = sympy.Symbol("k•", integer=True, nonnegative=True)
        at = {self.length: self.from_n + k}
        for pos in (self.row, self.plus, self.minus):
            if pos.free_symbols - {self.length}:
                _reject(RatioRow, "a position is an integer or n minus an integer")
            low, high = simplified((pos - 1).xreplace(at)), simplified((self.length - pos).xreplace(at))
            if low.is_nonnegative is not True or high.is_nonnegative is not True:
                _reject(RatioRow, f"the position {sympy.sstr(pos)} is not in 1..n for every n ≥ {self.from_n}")
        for key, want in ((self.plus, 1), (self.minus, -1)):
            value = simplified(self.term.xreplace({self.i: self.row, self.j: key}).xreplace(at))
            if (value.is_positive if want > 0 else value.is_negative) is not True:
                _reject(RatioRow, f"c({sympy.sstr(self.row)}, {sympy.sstr(key)}) = {sympy.sstr(value)} is not "
                                  f"{'positive' if want > 0 else 'negative'} for every n ≥ {self.from_n}")
        if not ratio_takes_every_value(self.kernel, self.invariants):
            _reject(RatioRow, "the kernel's ratio k(q, 1)/k(q, −1) is not shown to take every positive value")

    def to_json(self) -> Any:
        return {"kind": self.kind, "c(i, j)": _exact(self.term), "row": _exact(self.row), "plus": _exact(self.plus),
                "minus": _exact(self.minus), "from n": self.from_n, "k": _exact(self.kernel),
                "trusted": "the row's keys: every position 1..n (a dense head)"}


def sign_of_argument(q: sympy.Expr, u: sympy.Symbol) -> int:
    """1 when q(u) has the sign of u (q > 0 for u > 0, q < 0 for u < 0), −1 when the opposite sign, 0 when
    neither is shown: by SymPy's assumptions at a positive and a negative u, or from q(0) = 0 and q′ of
    one sign on the whole line (q is then strictly monotone through 0)."""
    pos, neg = sympy.Symbol("u>0", positive=True), sympy.Symbol("u<0", negative=True)
    at_pos, at_neg = q.xreplace({u: pos}), q.xreplace({u: neg})
    if at_pos.is_positive and at_neg.is_negative:
        return 1
    if at_pos.is_negative and at_neg.is_positive:
        return -1
    if not is_zero(simplified(q.xreplace({u: sympy.Integer(0)}))):
        return 0
    slope = simplified(sympy.diff(q, u))
    return 1 if slope.is_positive else -1 if slope.is_negative else 0


@dataclass(frozen=True)
class RealExponential(Certificate):
    """k = C·exp(E) > 0 for every input and admissible param value (docs/theory.md §4, Lemma D): C positive by SymPy's
    assumptions and E real by structure, both with |x|², |z|² allowed to be 0; a square root in E is real when its
    base is a Gram form α|x|² + 2γ x·z + β|z|² + κ with [[α, γ], [γ, β]] positive semidefinite and κ ≥ 0
    (|x ± z|², the norms of `exp(|x + y| - |x - y|)`). The check re-derives all of it: the factorisation exactly, C's
    sign, and E's realness node by node (`realness.proved_real` with the Gram test)."""

    kernel: sympy.Expr
    exponent: sympy.Expr
    factor: sympy.Expr
    invariants: tuple  # (x·z, |z|², |x|²)
    kind = "real-exponential"

    def _nonnegative_norms(self) -> dict:
        _, key, query = self.invariants
        return {key: sympy.Symbol("|z|²≥0", nonnegative=True), query: sympy.Symbol("|x|²≥0", nonnegative=True)}

    def check(self) -> None:
        from .realness import proved_real
        if self.factor.has(sympy.exp) or not is_zero(sympy.powsimp(self.kernel - self.factor * sympy.exp(self.exponent))):
            _reject(RealExponential, f"{sympy.sstr(self.kernel)} is not C·exp(E) with C = {sympy.sstr(self.factor)} "
                    f"and E = {sympy.sstr(self.exponent)}")
        zero_norms = self._nonnegative_norms()
        if self.factor.xreplace(zero_norms).is_positive is not True:
            _reject(RealExponential, f"the factor {sympy.sstr(self.factor)} is not shown positive")
        if not proved_real(self.exponent.xreplace(zero_norms), gram=True):
            _reject(RealExponential, f"the exponent {sympy.sstr(self.exponent)} is not shown real")

    def trees(self) -> tuple:
        """(E, C) as expression trees (uapcheck/verifier/trees.py, with functions): the verifier's copy."""
        from .verifier.trees import encode
        return encode(self.exponent, functions=True), encode(self.factor, functions=True)

    def to_json(self) -> Any:
        exponent, factor = self.trees()
        return {"kind": self.kind, "exponent": exponent, "factor": factor,
                "meaning": "k = factor · exp(exponent), factor > 0, exponent real (Lemma D: square roots of Gram forms "
                           "with a positive semidefinite matrix)"}


@dataclass(frozen=True)
class SignPattern(Certificate):
    """A feature map whose every component has the sign of its argument takes both signs (docs/theory.md
    §4, Lemma K): each component (Q_c, K_c) is the same function on the query and the key side
    (K_c(v, |z|²) = Q_c(v, |z|²)), and Q_c(u, |x|²) has the sign of u (or of −u) for every |x|² > 0. Then
    k(x, x) = Σ_r Σ_c Q_c(u_r)² > 0 and k(x, −x) = Σ_r Σ_c Q_c(u_r)Q_c(−u_r) < 0 at every x whose
    per-feature arguments u_r are all non-zero."""

    parts: tuple  # ((Q_c, K_c), ...): Q_c in `query` and |x|², K_c in `key` and |z|²
    query: sympy.Symbol
    key: sympy.Symbol
    norms: tuple  # (|x|², |z|²)
    kind = "sign-pattern"

    def check(self) -> None:
        u, v = self.query, self.key
        qn, kn = self.norms
        for q, k in self.parts:
            if q.free_symbols - {u, qn} or k.free_symbols - {v, kn}:
                _reject(SignPattern, "a component has symbols other than its per-feature argument and norm")
            if not is_zero(simplified(k.xreplace({v: u, kn: qn}) - q)):
                _reject(SignPattern, f"the key side {sympy.sstr(k)} is not the query side {sympy.sstr(q)}")
            if not sign_of_argument(q, u):
                _reject(SignPattern, f"{sympy.sstr(q)} is not shown to have the sign of its argument")

    def to_json(self) -> Any:
        return {"kind": self.kind, "components": [_exact(q) for q, _ in self.parts]}


@dataclass(frozen=True)
class SignAtInfinity(Certificate):
    """A kernel k(a, b, c) (a = x·z, b = |z|², c = |x|²) takes both signs along the 1-D ray x = 1, z = s
    (a = s, b = s², c = 1): its limits at s → +∞ and s → −∞ (finite or infinite) are of opposite signs for
    every admissible param value, so k has opposite signs at points far enough out (docs/theory.md §4)."""

    expression: sympy.Expr
    dot: sympy.Symbol
    key_norm: sympy.Symbol
    query_norm: sympy.Symbol
    kind = "sign-at-infinity"

    def limits(self) -> tuple[sympy.Expr, sympy.Expr]:
        s = sympy.Symbol("s", real=True)
        ray = self.expression.xreplace({self.dot: s, self.key_norm: s ** 2, self.query_norm: sympy.Integer(1)})
        return sympy.limit(ray, s, sympy.oo), sympy.limit(ray, s, -sympy.oo)

    def check(self) -> None:
        plus, minus = self.limits()
        signs = []
        for value in (plus, minus):
            if value.has(sympy.Limit, sympy.nan, sympy.zoo, sympy.AccumBounds):
                _reject(SignAtInfinity, f"the limit {sympy.sstr(value)} is not determined")
            signs.append(1 if value.is_extended_positive else -1 if value.is_extended_negative else 0)
        if sorted(signs) != [-1, 1]:
            _reject(SignAtInfinity, f"the limits {sympy.sstr(plus)} and {sympy.sstr(minus)} are not of opposite signs "
                    "for every admissible param value")

    def to_json(self) -> Any:
        plus, minus = self.limits()
        return {"kind": self.kind, "expression": _exact(self.expression), "limit at +oo": _exact(plus),
                "limit at -oo": _exact(minus)}


@dataclass(frozen=True)
class Affine(Certificate):
    """σ'' ≡ 0: the activation is affine (or there is no FFN: `sigma` None)."""

    sigma: Optional[sympy.Expr]
    variable: Optional[sympy.Symbol]
    kind = "affine-activation"

    def check(self) -> None:
        if self.sigma is None:
            return
        if not is_zero(sympy.diff(self.sigma, self.variable, 2)):
            _reject(Affine, f"σ = {sympy.sstr(self.sigma)} is not affine")

    def to_json(self) -> Any:
        return {"kind": self.kind, "sigma": None if self.sigma is None else _exact(self.sigma)}


# ---------------------------------------------------------------------------------------------
# The kernel limit


@dataclass(frozen=True)
class KeyPoints:
    """Two exact key points (same query) where a growing coefficient differs."""

    term: str  # "t^α" or "log t"
    coefficient: sympy.Expr  # in the invariants
    first: Mapping[sympy.Symbol, sympy.Expr]  # invariants at (x, z₁)
    second: Mapping[sympy.Symbol, sympy.Expr]  # invariants at (x, z₂)

    def difference(self) -> sympy.Expr:
        return self.coefficient.xreplace(dict(self.first)) - self.coefficient.xreplace(dict(self.second))

    def to_json(self) -> Any:
        return {"term": self.term, "coefficient": _exact(self.coefficient),
                "first": {str(k): _exact(v) for k, v in self.first.items()},
                "second": {str(k): _exact(v) for k, v in self.second.items()},
                "difference": _exact(simplified(self.difference()))}


class RegionStatus(ValueEnum):
    """What the kernel-limit analysis established on one sign region of the invariants. The JSON strings
    are the values."""

    HOLDS = "holds"  # the growing part depends on the key (witness points in every sign orthant)
    HOLDS_D2 = "holds-d2"  # the same, with witness points that need dimension d ≥ 2
    FAILS = "fails"  # the growing part does not depend on the key: a finite limit
    OSCILLATES = "oscillates"  # the ratio has no limit
    ZERO = "zero"  # the kernel vanishes for all large t
    UNDECIDED = "undecided"

    @property
    def holds(self) -> bool:
        """(LIM) holds on the region (in some dimension)."""
        return self in (RegionStatus.HOLDS, RegionStatus.HOLDS_D2)

    @property
    def fails(self) -> bool:
        """(LIM) provably fails on the region."""
        return self in (RegionStatus.FAILS, RegionStatus.OSCILLATES, RegionStatus.ZERO)


@dataclass(frozen=True)
class RegionCertificate:
    name: str
    status: RegionStatus
    signs: tuple[tuple[str, int], ...]  # the region: invariant name → sign
    points: tuple[KeyPoints, ...] = ()  # for holds: one per sign orthant found
    growing_symbols: tuple[str, ...] = ()  # for fails: the symbols of the growing part
    key_symbols: tuple[str, ...] = ()

    def to_json(self) -> Any:
        return {"region": self.name, "status": self.status.value, "signs": [list(s) for s in self.signs],
                "witnesses": [p.to_json() for p in self.points],
                "growing part depends on": list(self.growing_symbols), "key invariants": list(self.key_symbols)}


@dataclass(frozen=True)
class LimitCertificate(Certificate):
    """Per sign region of the invariants: exact points where the growing part of log k(x, t z)
    differs between two keys (so (LIM) holds there), or the growing part's symbols, none of them
    a key invariant (so (LIM) fails there). `conclusion` is the status the rule concludes."""

    regions: tuple[RegionCertificate, ...]
    conclusion: Status
    kind = "kernel-limit"

    def check(self) -> None:
        if not self.regions:
            _reject(LimitCertificate, "no region was analysed")
        for r in self.regions:
            if r.status.holds:
                if not r.points:
                    _reject(LimitCertificate, f"region {r.name}: no witness point")
                for p in r.points:
                    for name, sign in r.signs:
                        for point in (p.first, p.second):
                            value = next((v for k, v in point.items() if str(k) == name), None)
                            if value is not None and (value == 0 or (value > 0) != (sign > 0)):
                                _reject(LimitCertificate, f"region {r.name}: a witness point lies outside it")
                    if not _is_nonzero(p.difference()):
                        _reject(LimitCertificate, f"region {r.name}: the growing coefficients agree at the "
                                                  "witness points")
            elif r.status is RegionStatus.FAILS:
                if set(r.growing_symbols) & set(r.key_symbols):
                    _reject(LimitCertificate, f"region {r.name}: the growing part depends on the key")
        if self.conclusion is Status.PROVED and not all(r.status.holds for r in self.regions):
            _reject(LimitCertificate, "a region where (LIM) is not shown to hold")
        if self.conclusion is Status.REFUTED:
            failing = [r for r in self.regions if not r.status.holds]
            if not failing or not all(r.status.fails for r in failing):
                _reject(LimitCertificate, "a refutation needs a region where (LIM) provably fails")

    def to_json(self) -> Any:
        return {"kind": self.kind, "conclusion": self.conclusion.value,
                "regions": [r.to_json() for r in self.regions],
                "trusted": "the growing part of log k(x, t z) on each region is the asymptotic engine's "
                           "(cross-checked numerically at the witness points)"}


# ---------------------------------------------------------------------------------------------
# Pattern graphs (concrete n)


def _arc_sets(graphs) -> list[set]:
    return [set(g.arcs()) for g in graphs]


def _successors(graphs, n: int) -> list[list[int]]:
    if _large(graphs):
        return _successors_arrays(graphs, n)
    succ: list[set[int]] = [set() for _ in range(n + 1)]
    for g in graphs:
        for j, i in g.arcs():
            if j != i:
                succ[j].add(i)
    return [sorted(s) for s in succ]


def _successors_arrays(graphs, n: int) -> list[list[int]]:
    """`_successors` from numpy arrays: the union's codes (each arc once), sorted, cut per source;
    1-based sorted lists, index 0 empty."""
    import numpy as np
    from .graphs.build import code_array
    if len(graphs) == 1:
        codes = code_array(graphs[0])  # sorted, each arc once
    else:
        codes = np.sort(np.concatenate([code_array(g) for g in graphs]), kind="stable")  # sorted runs: timsort
        codes = codes[np.concatenate(([True], codes[1:] != codes[:-1]))]
    src, dst = codes // n, codes % n  # sorted codes: sources ascending, targets ascending within one
    cuts = np.searchsorted(src, np.arange(n + 1)).tolist()
    targets = (dst + 1).tolist()
    return [[]] + [targets[cuts[v]:cuts[v + 1]] for v in range(n)]


def _bfs(succ: list[list[int]], sources: Sequence[int], radius: Optional[int] = None) -> list[int]:
    """Distances (−1: unreached) from a set of sources, up to `radius` hops."""
    dist = [-1] * len(succ)
    frontier = list(sources)
    for s in frontier:
        dist[s] = 0
    depth = 0
    while frontier and (radius is None or depth < radius):
        depth += 1
        nxt = []
        for a in frontier:
            for b in succ[a]:
                if dist[b] < 0:
                    dist[b] = depth
                    nxt.append(b)
        frontier = nxt
    return dist


def _bfs_from(graphs, n: int, sources: Sequence[int], radius: Optional[int] = None):
    """`_bfs` over the union of the heads (1-based; index 0 unused): on compact arc arrays, a whole
    level at a time, for large graphs (graphs.arc_arrays), else over successor lists."""
    if not _large(graphs) or any(g.complete for g in graphs):
        return _bfs(_successors(graphs, n), sources, radius)
    import numpy as np
    from .graphs.arc_arrays import bfs, out_csr, union_codes
    indptr, targets = out_csr(union_codes(graphs), n)
    dist = bfs(indptr, targets, n, [s - 1 for s in sources], radius=radius)
    return np.concatenate(([-1], dist))


def _int_list(values) -> list[int]:
    """Python ints from a tuple or a numpy array (the probe loop keeps large distances in arrays)."""
    return values.tolist() if hasattr(values, "tolist") else list(values)


@dataclass(frozen=True)
class Diameter(Certificate):
    """Strong connectivity with directed diameter D (or an upper bound): the graphs engine's BFS
    probes, automorphisms and realising pair, re-checked arc by arc (graphs.verify_connectivity,
    plain Python, no igraph)."""

    graphs: tuple
    connectivity: Any  # graphs.Connectivity
    kind = "diameter"

    @property
    def diameter(self) -> Optional[int]:
        return self.connectivity.diameter

    def check(self) -> None:
        from .graphs import verify_connectivity
        c = self.connectivity
        if not c.strongly_connected or c.upper is None:
            _reject(Diameter, "no upper bound on the distances")
        if not verify_connectivity(list(self.graphs), c):
            _reject(Diameter, "the BFS distances, automorphisms or realising pair do not check")

    def to_json(self) -> Any:
        c = self.connectivity
        ub = c.upper_bound
        out = {"kind": self.kind, "n": c.n, "diameter": c.diameter, "lower": c.lower, "upper": c.upper,
               "realised by": None if c.lower_pair is None else {"from j": c.lower_pair[0], "to i": c.lower_pair[1]},
               "upper bound method": ub.method if ub else None}
        if ub is not None and ub.method == "seeded" and ub.seeds:
            # Theorem F131's seeds with their eccentricities, at every n (one pair per search, not per position):
            # `uapcheck verify` re-runs their searches and rebuilds the bound array itself
            out["seeds"] = [[int(v), int(e)] for v, e in ub.seeds]
        if ub is not None and c.n <= JSON_ARRAY_LIMIT:
            out["probes"] = [{"vertex": p.vertex, "dist_out": _int_list(p.dist_out), "dist_in": _int_list(p.dist_in)}
                             for p in ub.probes]
            out["automorphisms"] = [list(a) for a in ub.automorphisms]
            out["eccentricities"] = list(ub.eccentricities) if ub.eccentricities else None
            if ub.batches:  # their level masks are re-checked in process, not written out
                out["probe batches"] = [list(b.sources) for b in ub.batches]
        return out


@dataclass(frozen=True)
class Unreachable(Certificate):
    """x_j never reaches position i: the set R of positions with a path to i contains i, not j, and
    no arc enters R from outside (checked arc by arc)."""

    graphs: tuple
    i: int
    j: int
    reach_i: frozenset
    kind = "receptive-field"

    def check(self) -> None:
        n = self.graphs[0].n
        reach = self.reach_i
        if self.i not in reach or self.j in reach or not all(1 <= v <= n for v in reach):
            _reject(Unreachable, "the set must contain i and not j")
        for g in self.graphs:
            if g.complete and n > 1:
                _reject(Unreachable, "a complete head reaches everything")
            for a, b in g.arcs():
                if b in reach and a not in reach:
                    _reject(Unreachable, f"the arc {a} → {b} enters the set")

    def to_json(self) -> Any:
        n = self.graphs[0].n
        return {"kind": self.kind, "n": n, "i": self.i, "j": self.j,
                "reaches i": sorted(self.reach_i) if n <= JSON_ARRAY_LIMIT else len(self.reach_i)}


@dataclass(frozen=True)
class FarPair(Certificate):
    """d(j → i) > budget: a BFS from j (plain Python) does not reach i within `budget` hops."""

    graphs: tuple
    i: int
    j: int
    budget: int
    distance: Optional[int]
    kind = "receptive-field-budget"

    def check(self) -> None:
        n = self.graphs[0].n
        dist = _bfs_from(self.graphs, n, [self.j])
        d = int(dist[self.i])
        if 0 <= d <= self.budget:
            _reject(FarPair, f"x_{self.j} reaches {self.i} in {d} ≤ {self.budget} layers")
        if (d if d >= 0 else None) != self.distance:
            _reject(FarPair, f"the distance is {d}, not {self.distance}")

    def to_json(self) -> Any:
        return {"kind": self.kind, "i": self.i, "j": self.j, "budget": self.budget, "distance": self.distance}


def _arc_image_ok(perm: Sequence[int], arcs: set) -> bool:
    return all((perm[j - 1], perm[i - 1]) in arcs for j, i in arcs)


class _CodeArrays:
    """One head's arcs as numpy int64 arrays (exact integer arithmetic on the codes (j−1)·n + (i−1)):
    the sorted codes and the 0-based sources and targets. Checks on large graphs run on these, with
    the same logic as the per-arc loops."""

    def __init__(self, graph) -> None:
        from .graphs.build import code_array, code_endpoints
        self.n, self.codes = graph.n, code_array(graph)
        self.src, self.dst = code_endpoints(graph)  # exact integer division of the sorted codes

    def images_present(self, perm0, select=None):
        """For each arc (or the selected ones), whether (σ j, σ i) is an arc; perm0: 0-based images."""
        import numpy as np
        src, dst = (self.src, self.dst) if select is None else (self.src[select], self.dst[select])
        img = perm0[src] * self.n + perm0[dst]
        if len(self.codes) == 0:
            return np.zeros(len(img), dtype=bool)
        at = np.minimum(np.searchsorted(self.codes, img), len(self.codes) - 1)
        return self.codes[at] == img


#: From this many arcs on (all heads), the view-witness and generator checks run on numpy arrays.
NUMPY_CHECK_ARCS = 50_000


def _large(graphs) -> bool:
    n = graphs[0].n
    return n * n < 2 ** 63 and sum(g.num_arcs for g in graphs) >= NUMPY_CHECK_ARCS


def _view_bad_arrays(graphs, perm: Sequence[int]) -> tuple[bool, set]:
    """(σ preserves every head, the positions v with σ(N(v)) ≠ N(σ v) for some head): v is such a
    position exactly when some arc j → v has no image arc σ j → σ v, or v and σ v have different
    in-degrees (σ is a bijection, N(v) = {v} ∪ in-neighbours, no loops)."""
    import numpy as np
    n = graphs[0].n
    perm0 = np.asarray(perm, dtype=np.int64) - 1
    moved = perm0 != np.arange(n)
    preserved, bad = True, set()
    for g in graphs:
        arrays = _CodeArrays(g)
        # an arc between two fixed points is its own image: only the arcs at moved points are looked up
        select = np.flatnonzero(moved[arrays.src] | moved[arrays.dst])
        ok = arrays.images_present(perm0, select)
        if not bool(ok.all()):
            preserved = False
        indeg = np.bincount(arrays.dst, minlength=n)
        bad.update((arrays.dst[select[~ok]] + 1).tolist())
        bad.update((np.nonzero(indeg != indeg[perm0])[0] + 1).tolist())
    return preserved, bad


@dataclass(frozen=True)
class ViewWitness(Certificate):
    """D layers are not enough: a permutation σ outside the family's group (some head's arc is not
    preserved) such that every position whose in-neighbourhood σ does not carry onto N(σ v) is at
    distance ≥ D from position i; so after D layers the output at i is the same for X and σX."""

    graphs: tuple
    diameter: int
    position: int
    permutation: tuple  # [σ(1), ..., σ(n)]
    kind = "view-witness"

    def check(self) -> None:
        n = self.graphs[0].n
        perm = list(self.permutation)
        if sorted(perm) != list(range(1, n + 1)):
            _reject(ViewWitness, "not a permutation")
        if _large(self.graphs):
            preserved, bad = _view_bad_arrays(self.graphs, perm)
            if preserved:
                _reject(ViewWitness, "the permutation preserves every head: it is in the group")
        else:
            arcs = _arc_sets(self.graphs)
            if all(_arc_image_ok(perm, a) for a in arcs):
                _reject(ViewWitness, "the permutation preserves every head: it is in the group")
            bad = set()
            for a in arcs:
                nb = [set([v]) for v in range(n + 1)]
                for j, i in a:
                    nb[i].add(j)
                for v in range(1, n + 1):
                    if {perm[k - 1] for k in nb[v]} != nb[perm[v - 1]]:
                        bad.add(v)
        dist = _bfs_from(self.graphs, n, sorted(bad), radius=self.diameter - 1)
        if dist[self.position] >= 0:
            _reject(ViewWitness, f"position {self.position} is within {self.diameter - 1} of a changed "
                                 "neighbourhood")

    def to_json(self) -> Any:
        return {"kind": self.kind, "diameter": self.diameter, "position": self.position,
                "permutation": list(self.permutation)}


@dataclass(frozen=True)
class Generators(Certificate):
    """Every generator preserves every head's arcs with its bias labels and the positional encoding
    (checked arc by arc), and the generated group has the stated order (Schreier–Sims,
    uapcheck/schreier_sims.py, up to `ORDER_CHECK_MAX_N` points and orders up to `ORDER_CHECK_MAX`).
    That no larger group exists is the automorphism engine's (BLISS)."""

    graphs: tuple
    biases: tuple
    positional: str
    generators: tuple
    order: int
    shown: object = None  # the order as the report writes it (a bounded text for huge orders)
    ORDER_CHECK_MAX_N = 256
    # Schreier–Sims on a large symmetric group takes long (seconds on S_128); larger orders are the
    # engine's here (and are re-derived by `uapcheck verify`, docs/theory.md §18).
    ORDER_CHECK_MAX = 10 ** 9
    kind = "automorphism-generators"

    def check(self) -> None:
        n = self.graphs[0].n
        identity = tuple(range(1, n + 1))
        if _large(self.graphs):
            self._check_generators_arrays(n, identity)
        else:
            self._check_generators(n, identity)
        if n <= self.ORDER_CHECK_MAX_N and isinstance(self.order, int) and self.order <= self.ORDER_CHECK_MAX:
            from .schreier_sims import generated_order
            order = generated_order(n, self.generators)
            if order != self.order:
                _reject(Generators, f"the generators generate a group of order {order}, not {self.order}")

    def _check_generators_arrays(self, n: int, identity: tuple) -> None:
        """The per-arc check on numpy arrays: for each generator, every arc at a moved point has its
        image among the head's arcs (arcs away from the moved points map to themselves)."""
        import numpy as np
        from .graphs import is_automorphism
        heads = [_CodeArrays(g) for g in self.graphs if not g.complete]  # every permutation keeps a complete graph
        labelled = any(self.biases) or self.positional != "none"
        for g in self.generators:
            if len(g) != n or tuple(sorted(g)) != identity:
                _reject(Generators, "a generator is not a permutation")
            perm0 = np.asarray(g, dtype=np.int64) - 1
            moved = perm0 != np.arange(n)
            for arrays in heads:
                select = moved[arrays.src] | moved[arrays.dst]
                if not bool(arrays.images_present(perm0, select).all()):
                    _reject(Generators, f"the generator {list(g)[:12]}… moves an arc off its head")
            if labelled and not is_automorphism(list(g), list(self.graphs), list(self.biases), self.positional):
                _reject(Generators, f"the generator {list(g)[:12]}… does not preserve the heads' bias labels or "
                                    "the encoding")

    def _check_generators(self, n: int, identity: tuple) -> None:
        from .graphs import is_automorphism
        from .graphs.build import arc_codes
        from .graphs.connectivity import adjacency_lists
        # Per head, its arc codes ((j − 1)·n + (i − 1) for j -> i) and the arcs at each position k (0-based): k -> i
        # for i in outs[k], j -> k for j in ins[k]. A generator only moves the arcs at the points it moves.
        # (a complete head is kept by every permutation: its n·(n − 1) arcs are not listed)
        heads = [(arc_codes(graph), *adjacency_lists(graph)) for graph in self.graphs if not graph.complete]
        labelled = any(self.biases) or self.positional != "none"
        for g in self.generators:
            if len(g) != n or tuple(sorted(g)) != identity:
                _reject(Generators, "a generator is not a permutation")
            col = [image - 1 for image in g]  # the arc j -> i goes to code row[j] + col[i]
            row = [(image - 1) * n for image in g]
            for codes, outs, ins in heads:
                has = codes.__contains__
                if not all(all(map(has, map(row[k].__add__, map(col.__getitem__, outs[k]))))
                           and all(map(has, map(col[k].__add__, map(row.__getitem__, ins[k]))))
                           for k in range(n) if col[k] != k):
                    _reject(Generators, f"the generator {list(g)} moves an arc off its head")
            if labelled and not is_automorphism(list(g), list(self.graphs), list(self.biases), self.positional):
                _reject(Generators, f"the generator {list(g)} does not preserve the heads' bias labels or "
                                    "the encoding")

    def to_json(self) -> Any:
        n = self.graphs[0].n
        return {"kind": self.kind, "n": n, "order": self.order,
                "generators": [list(g) for g in self.generators] if n <= JSON_ARRAY_LIMIT else len(self.generators),
                "trusted": "completeness of the group (no larger group preserves the heads) is the automorphism "
                           "engine's" + ("" if n <= self.ORDER_CHECK_MAX_N and isinstance(self.order, int)
                                         and self.order <= self.ORDER_CHECK_MAX else ", and so is its order")}


# ---------------------------------------------------------------------------------------------
# Positions in the weights (docs/theory.md §16)


@dataclass(frozen=True)
class PositiveValue(Certificate):
    """`expression` (no free symbols left, or only positive ones) is positive, decided exactly."""

    expression: sympy.Expr
    meaning: str
    kind = "positive-value"

    def check(self) -> None:
        value = simplified(sympy.sympify(self.expression, strict=True))  # safe: strict (no text parsed)
        if value.has(sympy.nan, sympy.zoo) or value.is_positive is not True:
            _reject(PositiveValue, f"{self.meaning}: {sympy.sstr(value)} is not shown positive")

    def to_json(self) -> Any:
        return {"kind": self.kind, "expression": _exact(self.expression), "meaning": self.meaning}


@dataclass(frozen=True)
class SoftmaxKernel(Certificate):
    """k(x, y) = exp(γ x·y) with γ a positive constant: `plain` is the kernel in the invariant
    a = x·y (and b = |y|², c = |x|², which must not occur)."""

    plain: sympy.Expr
    score: sympy.Symbol  # the invariant a = x·y
    others: tuple  # the other invariants, which must not occur
    kind = "softmax-kernel"

    def check(self) -> None:
        if not isinstance(self.plain, sympy.exp):
            _reject(SoftmaxKernel, f"{sympy.sstr(self.plain)} is not an exponential")
        gamma = simplified(self.plain.args[0] / self.score)
        if gamma.free_symbols & ({self.score} | set(self.others)) or gamma.is_positive is not True:
            _reject(SoftmaxKernel, f"the exponent is not γ·x·y with a constant γ > 0 (γ = {sympy.sstr(gamma)})")

    def to_json(self) -> Any:
        return {"kind": self.kind, "kernel": _exact(self.plain)}


@dataclass(frozen=True)
class OffsetClass(Certificate):
    """A fixed position term e(i, j) depends on the positions only through m = j − i: the identity
    e(i, i + m) − e(i, i) = h(m) (bias) or e(i, i + m) = h(m)·e(i, i) (factor) holds exactly; h is
    even when `even`; and h is injective on the offsets (on |m| when even): a linear form with a
    non-zero slope, an even polynomial in |m| whose non-constant coefficients share one sign and are
    not all 0 ("monotone": strictly monotone in |m|), or (n concrete) pairwise disjoint exact intervals
    at `bits` bits."""

    term: sympy.Expr  # e(i, j) in the symbols i, j below
    i: sympy.Symbol
    j: sympy.Symbol
    m: sympy.Symbol
    h: sympy.Expr
    multiplicative: bool
    even: bool
    n: object  # int or a symbol
    method: str  # "linear" | "monotone" | "derivative" | "intervals"
    bits: int = 0
    kind = "offset-classes"

    def check(self) -> None:
        e, i, j, m = self.term, self.i, self.j, self.m
        shifted, diagonal = e.xreplace({j: i + m}), e.xreplace({j: i})
        gap = shifted - diagonal - self.h if not self.multiplicative else shifted - self.h * diagonal
        if not is_zero(simplified(gap)):
            _reject(OffsetClass, f"the term is not h(j − i) with h = {sympy.sstr(self.h)}")
        if self.h.has(i) or self.h.has(j):
            _reject(OffsetClass, "h depends on the positions, not only on their offset")
        if self.even and not is_zero(simplified(self.h.xreplace({m: -m}) - self.h)):
            _reject(OffsetClass, "h is not even")
        if self.method == "linear":
            var = sympy.Dummy("m", positive=True) if self.even else m
            hh = self.h.xreplace({m: var}) if self.even else self.h
            hh = simplified(hh)
            poly = sympy.Poly(hh, var) if hh.is_polynomial(var) else None
            if poly is None or poly.degree() != 1 or poly.LC().is_nonzero is not True:
                _reject(OffsetClass, "h is not linear with a non-zero slope")
            return
        if self.method == "derivative":
            x = sympy.Dummy("x", real=True)
            slope = simplified(sympy.diff(self.h.xreplace({m: x}), x))
            if self.even or self.h.free_symbols - {m} or not (slope.is_positive or slope.is_negative):
                _reject(OffsetClass, "h′ is not shown of one sign on the real line")
            return
        if self.method == "monotone":
            var = sympy.Dummy("m", positive=True)
            hh = simplified(self.h.xreplace({m: var}))
            poly = sympy.Poly(hh, var) if self.even and hh.is_polynomial(var) else None
            coeffs = [c for (k,), c in poly.terms() if k >= 1] if poly is not None else []
            if not coeffs or not any(c.is_nonzero is True for c in coeffs) or not (
                    all(c.is_nonnegative is True for c in coeffs) or all(c.is_nonpositive is True for c in coeffs)):
                _reject(OffsetClass, "h is not an even polynomial in |m| with non-constant coefficients of one sign")
            return
        n = self.n
        if self.method != "intervals" or not isinstance(n, int):
            _reject(OffsetClass, "injectivity is shown by a linear form, or by intervals at a concrete n")
            return
        from .rules.positions import offsets_disjoint  # the same exact interval arithmetic (mpmath.iv)
        try:
            disjoint = offsets_disjoint(self.h, n, self.even, self.bits)
        except (ValueError, ZeroDivisionError, TypeError, AttributeError, ArithmeticError):
            _reject(OffsetClass, "h cannot be evaluated on every offset")
        if not disjoint:
            _reject(OffsetClass, f"two offsets are not told apart at {self.bits} bits")

    def to_json(self) -> Any:
        return {"kind": self.kind, "h": _exact(self.h), "even": self.even, "multiplicative": self.multiplicative,
                "n": _exact(self.n), "method": self.method, "bits": self.bits or None}


def _arc_side(p) -> Optional[int]:
    """−1 (+1) when every arc i → j of the pattern has j ≤ i (j ≥ i), from the pattern's form; None otherwise."""
    if isinstance(p, (S.Causal, S.Sinks)):
        return -1
    if isinstance(p, S.Offsets) and not p.cyclic and all(isinstance(o, int) for o in p.offsets):
        signs = {(o > 0) - (o < 0) for o in p.offsets if isinstance(o, int)} - {0}
        return -1 if not signs else (signs.pop() if len(signs) == 1 else None)
    if isinstance(p, S.Edges) and p.edges:
        signs = {(j > i) - (j < i) for i, j in p.edges} - {0}
        return -1 if not signs else (signs.pop() if len(signs) == 1 else None)
    if isinstance(p, S.PatternIntersection):
        return next((side for side in map(_arc_side, p.parts) if side is not None), None)
    if isinstance(p, S.PatternUnion):
        sides = {_arc_side(q) for q in p.parts}
        return sides.pop() if len(sides) == 1 else None
    return None


@dataclass(frozen=True)
class OneSidedPattern(Certificate):
    """Every arc i → j (query i attends to key j) of the pattern has j ≤ i (side −1) or j ≥ i (side +1), for
    every n: the causal mask and sinks look back; non-cyclic offsets and edges by their signs; an
    intersection has the side of any part; a union the side all its parts share."""

    pattern: Any  # a spec.Pattern
    side: int
    kind = "one-sided-pattern"

    def check(self) -> None:
        side = _arc_side(self.pattern)
        if self.side not in (-1, 1) or side != self.side:
            _reject(OneSidedPattern, "the pattern's arcs are not shown to lie on side "
                                     f"{'j ≤ i' if self.side < 0 else 'j ≥ i'} of the diagonal")

    def to_json(self) -> Any:
        return {"kind": self.kind, "side": self.side}


@dataclass(frozen=True)
class BucketRange(Certificate):
    """T5 buckets at a concrete n: every offset |j − i| ≤ n − 1 has its own bucket (the buckets of
    −(n − 1), …, n − 1 are pairwise different, computed in integer arithmetic)."""

    n: int
    buckets: int
    max_distance: int
    kind = "bucket-range"

    def check(self) -> None:
        if not isinstance(self.n, int) or self.n < 1:
            _reject(BucketRange, "the number of tokens is not a concrete integer")
        from .rules.positions import t5_bucket
        seen = [t5_bucket(m, self.buckets, self.max_distance) for m in range(-(self.n - 1), self.n)]
        if len(set(seen)) != len(seen):
            _reject(BucketRange, "two offsets share a bucket")

    def to_json(self) -> Any:
        return {"kind": self.kind, "n": self.n, "buckets": self.buckets, "max distance": self.max_distance}


@dataclass(frozen=True)
class BucketCollision(Certificate):
    """T5 buckets that one layer cannot resolve: from position 1 the keys a < b (offsets a − 1, b − 1) share a
    bucket, so the swap (a b) keeps row 1's labels (docs/theory.md §16.4). `n` is the concrete number of
    tokens (b ≤ n) or the token symbol (the pair holds from n = b on: the buckets do not depend on n)."""

    n: Any
    buckets: int
    max_distance: int
    pair: tuple
    kind = "bucket-collision"

    def check(self) -> None:
        from .rules.positions import t5_bucket
        a, b = self.pair
        if not (isinstance(a, int) and isinstance(b, int) and 2 <= a < b):
            _reject(BucketCollision, "the pair is not two keys 2 ≤ a < b")
        if isinstance(self.n, int) and b > self.n:
            _reject(BucketCollision, f"key {b} lies beyond n = {self.n}")
        if t5_bucket(a - 1, self.buckets, self.max_distance) != t5_bucket(b - 1, self.buckets, self.max_distance):
            _reject(BucketCollision, f"the offsets {a - 1} and {b - 1} lie in different buckets")

    def to_json(self) -> Any:
        return {"kind": self.kind, "n": _exact(self.n), "buckets": self.buckets, "max distance": self.max_distance,
                "pair": list(self.pair)}


#: the offset kinds Lemma V^λ covers (trainable classes of the offset, the own arc in one class in every row)
_LABEL_KINDS = ("toeplitz", "symmetric toeplitz", "circulant", "symmetric circulant")


def sign_separating(kind: Optional[str], w: int, cyclic: bool = False) -> bool:
    """Whether the classes of `kind` on the offsets of a window's arcs keep every positive offset apart from every
    offset ≤ 0 (docs/theory.md §16.5, Theorems F135, F152): `toeplitz` always; T5's buckets by their values on the
    offsets −w, …, w of a non-cyclic window, and on every offset for a cyclic one, whose wrap arcs read the real
    offsets ±(n − d), d ≤ w (the released function gives the positive offsets the upper half of the buckets; beyond
    its max distance D the bucket is constant per sign, so the offsets up to D + w + 1 decide every n)."""
    if kind == "toeplitz":
        return True
    buckets = bucket_kind(kind) if isinstance(kind, str) else None
    if buckets is None:
        return False
    from .rules.positions import t5_bucket
    reach = buckets[1] + w + 1 if cyclic else w
    positive = {t5_bucket(m, *buckets) for m in range(1, reach + 1)}
    return not positive & {t5_bucket(m, *buckets) for m in range(-reach, 1)}


def reflecting_labels(kinds, p) -> bool:
    """Theorem F176 (docs/theory.md §16.5): on a non-cyclic window every labelled head's classes are even in the offset
    (`symmetric toeplitz`, `symmetric circulant`, so the reflection keeps every label) and one head's classes name the
    distance |m| on the window's offsets (`symmetric toeplitz`; a fixed even term injective on |m| reaches here as that
    kind). No `toeplitz` or bucket head (a sign-separating one is Theorem F135's, and breaks the reflection)."""
    return (not p.cyclic and all(k in (None, "symmetric toeplitz", "symmetric circulant") for k in kinds)
            and "symmetric toeplitz" in kinds)


def labelled_window_theorem(p, kinds, low=None) -> str:
    """The theorem a labelled window certificate states: F176 (even labels, the reflection), F152 (cyclic), F151 (a
    wide window's range below w + 2), F140 (a symbolic n), F135 (a concrete n)."""
    if not p.cyclic and not any(sign_separating(k, p.w) for k in kinds) and reflecting_labels(kinds, p):
        return "F176"
    if p.cyclic:
        return "F152"
    if low is None:
        return "F135"
    return "F140" if low == p.w + 2 else "F151"


def _labelled_window_kinds(cls, p, kinds) -> None:
    """Reject unless every kind is a trainable class of the offset and the heads meet Theorem F135's sign separation
    (F152's on a cyclic window) or Theorem F176's even labels."""
    if not kinds or any(k is not None and k not in _LABEL_KINDS and bucket_kind(k) is None for k in kinds):
        _reject(cls, "a head's labels are not trainable classes of the offset (Lemma V^λ)")
    if not any(sign_separating(k, p.w, p.cyclic) for k in kinds) and not reflecting_labels(kinds, p):
        _reject(cls, "no head's classes keep the positive offsets apart from the others, and the labels are not even "
                "with one head naming the distance (Theorem F176)")


def labelled_window_start(p) -> int:
    """The least n where the labelled window theorem holds: w + 2 (Theorem F135), 2w + 2 for a cyclic window (Theorem
    F152); below, the window is complete."""
    return 2 * p.w + 2 if p.cyclic else p.w + 2


def labelled_window_diameter(p, n):
    """The window's directed diameter: ⌈(n − 1)/w⌉, or ⌈⌊n/2⌋/w⌉ for a cyclic window (§11.5), at an integer or a
    symbolic n at or above `labelled_window_start`."""
    if isinstance(n, int):
        return -(-(n // 2) // p.w) if p.cyclic else -(-(n - 1) // p.w)
    return sympy.ceiling(sympy.floor(n / 2) / p.w) if p.cyclic else sympy.ceiling((n - 1) / p.w)


@dataclass(frozen=True)
class LabelledWindowLayers(Certificate):
    """Theorem F135 (docs/theory.md §16.5): every head is the non-cyclic window of radius w ≥ 1 at a concrete
    n ≥ w + 2 (Theorem F152: or the cyclic one at n ≥ 2w + 2, D = ⌈⌊n/2⌋/w⌉, one head's classes keeping the sign of
    every real offset); each head is position-blind or carries trainable classes of the offset (a `bias KIND` other than
    `free`, or T5 buckets), and one head's classes keep the positive offsets apart from the others (`toeplitz`,
    T5 buckets: `sign_separating`). Then no σ ≠ id keeps the labelled depth-(D − 1) ball of a position, so the
    group is trivial and D = ⌈(n − 1)/w⌉ layers suffice (Lemma V^λ) and are least (receptive fields, §11.1).
    Theorem F176: a non-cyclic window whose labels are even, one head's naming the distance (`reflecting_labels`):
    only id and the reflection keep such a ball, the group is the reflection, and the count is the same D."""

    pattern: Any  # the heads' spec.Window
    n: int
    kinds: tuple  # per head: None or the label kind (`buckets(B, D)` for T5)
    diameter: int
    layers: int
    kind = "labelled-window"

    def check(self) -> None:
        p, n = self.pattern, self.n
        if not (isinstance(p, S.Window) and isinstance(p.w, int) and p.w >= 1):
            _reject(LabelledWindowLayers, "the heads are not one window of a concrete radius ≥ 1")
        low = labelled_window_start(p)
        if not isinstance(n, int) or isinstance(n, bool) or n < low:
            _reject(LabelledWindowLayers, f"the length is not a concrete n ≥ {low} (below, the window is complete)")
        _labelled_window_kinds(LabelledWindowLayers, p, self.kinds)
        d = labelled_window_diameter(p, n)
        if self.diameter != d or self.layers != d:
            _reject(LabelledWindowLayers, f"the count is D = {d}, the window's diameter, not {self.layers} "
                    f"(D = {self.diameter})")

    def to_json(self) -> Any:
        from .show import show_pattern
        return {"kind": self.kind, "pattern": show_pattern(self.pattern), "n": self.n, "kinds": list(self.kinds),
                "diameter": self.diameter, "layers": self.layers,
                "theorem": labelled_window_theorem(self.pattern, self.kinds)}


@dataclass(frozen=True)
class LabelledWindowRange(Certificate):
    """Theorem F140 (docs/theory.md §16.5): Theorem F135 at a symbolic n. The heads are as in `LabelledWindowLayers`;
    the labels of the window's arcs are the classes of the offsets −w, …, w, which do not depend on n, so for every
    n ≥ `low` = w + 2 the group is trivial and D = ⌈(n − 1)/w⌉ layers suffice and are least. Theorem F152: a cyclic
    window whose labels keep the sign of every real offset, from `low` = 2w + 2 on, with D = ⌈⌊n/2⌋/w⌉."""

    pattern: Any  # the heads' spec.Window
    n: Any  # the length, a positive integer Symbol
    kinds: tuple  # per head: None or the label kind (`buckets(B, D)` for T5)
    diameter: Any  # ⌈(n − 1)/w⌉ as a SymPy expression in n
    layers: Any
    low: int  # w + 2: the least length where the window is not complete
    kind = "labelled-window-range"

    def check(self) -> None:
        p, n = self.pattern, self.n
        if not (isinstance(p, S.Window) and isinstance(p.w, int) and p.w >= 1):
            _reject(LabelledWindowRange, "the heads are not one window of a concrete radius ≥ 1")
        if not isinstance(n, sympy.Symbol) or not n.is_integer or not n.is_positive:
            _reject(LabelledWindowRange, "the length is not a positive integer symbol")
        wide = self.low != labelled_window_start(p)  # Theorem F151: from the dense start on, max(2, D) layers
        if wide and p.cyclic:
            _reject(LabelledWindowRange, f"a cyclic window's range starts at n = 2w + 2 = {2 * p.w + 2} (Theorem F152)")
        if wide:
            self._check_wide()
        _labelled_window_kinds(LabelledWindowRange, p, self.kinds)
        d = labelled_window_diameter(p, n)
        for what, value, want in (("diameter", self.diameter, d), ("count", self.layers, sympy.Max(2, d) if wide else d)):
            if not isinstance(value, sympy.Expr) or sympy.simplify(value - want) != 0:
                _reject(LabelledWindowRange, f"the {what} is {sympy.sstr(want)}, not {value}")

    def _check_wide(self) -> None:
        """Theorem F151: the range starts below w + 2 only at the dense start of Theorem F142 (b), re-found here, with
        T5 bucket heads only (position-blind heads beside them)."""
        from .rules.dense_bias import dense_start
        kinds = tuple(sorted({k for k in self.kinds if k is not None}))
        if dense_start(kinds) != self.low or self.low > self.pattern.w + 1:
            _reject(LabelledWindowRange, f"the range starts at n = w + 2 = {self.pattern.w + 2} (below, the window is "
                    f"complete), or at the dense start of Theorem F142 (b), not at {self.low}")

    def to_json(self) -> Any:
        from .show import show_pattern
        return {"kind": self.kind, "pattern": show_pattern(self.pattern), "n": str(self.n), "kinds": list(self.kinds),
                "diameter": sympy.sstr(self.diameter), "layers": sympy.sstr(self.layers), "range": f"n ≥ {self.low}",
                "theorem": labelled_window_theorem(self.pattern, self.kinds, self.low)}


@dataclass(frozen=True)
class CompleteHeadAlone(Certificate):
    """Theorem F141 (docs/theory.md §16.5): head `head` is complete and its step (`rule`) proves it 1-layer token
    distinguishing w.r.t. the trivial group, the family's group; with W_V = 0 in the other heads the layer is that
    head's, so one layer suffices (D = 1: the head sees every token) and is least."""

    head: int
    rule: str
    diameter: int
    layers: int
    kind = "complete-head-alone"

    def check(self) -> None:
        if self.rule not in ("TD-ROTARY", "TD-FIXEDBIAS", "TD-BUCKETS", "TD-BIAS"):
            _reject(CompleteHeadAlone, f"{self.rule} does not prove a head 1-layer token distinguishing w.r.t. the "
                    "trivial group")
        if (self.diameter, self.layers) != (1, 1):
            _reject(CompleteHeadAlone, "a complete head: D = 1 and one layer")

    def to_json(self) -> Any:
        return {"kind": self.kind, "head": self.head + 1, "rule": self.rule, "diameter": self.diameter,
                "layers": self.layers, "theorem": "F141"}


@dataclass(frozen=True)
class TrivialBesideCompleteHead(Certificate):
    """Theorem F150 (docs/theory.md §16.5): head `head` is complete and its weights' classes are the offsets (`rule`:
    RoPE, a fixed offset-injective bias, a `toeplitz` bias), so its own group is trivial at every n; the family's
    group is contained in it (with W_V = 0 in every other head the layer is that head's), whatever the other heads'
    groups are: G is trivial at every n."""

    head: int
    rule: str
    order = 1
    kind = "trivial-beside-complete-head"

    def check(self) -> None:
        if self.rule not in ("TD-ROTARY", "TD-FIXEDBIAS", "TD-BIAS"):
            _reject(TrivialBesideCompleteHead, f"{self.rule} does not give a head whose classes are the offsets")

    def to_json(self) -> Any:
        return {"kind": self.kind, "head": self.head + 1, "rule": self.rule, "order": 1, "theorem": "F150"}


@dataclass(frozen=True)
class DepthOneLabelled(Certificate):
    """Theorem F149 (docs/theory.md §16.5): at D = 1 (the union complete) with the heads' label kinds `kinds` at n,
    the heads `fixed` carrying a fixed offset bias on a complete normalised head, no permutation but the identity keeps
    a row's labels in every head; each head separates different labelled rows in one layer (the fixed weights at
    W_Q = W_K = 0, Lemma V^λ for trainable classes), so one layer suffices, and it is least."""

    n: int
    kinds: tuple
    fixed: tuple
    diameter: int
    layers: int
    kind = "depth-one-labelled"

    def check(self) -> None:
        if (self.diameter, self.layers) != (1, 1):
            _reject(DepthOneLabelled, "the union is complete: D = 1 and one layer")
        if not self.fixed or any(self.kinds[k] not in ("toeplitz", "symmetric toeplitz") for k in self.fixed):
            _reject(DepthOneLabelled, "a fixed head's labels are not the classes of an offset-injective or even "
                    "offset function")
        if "free" in self.kinds:
            _reject(DepthOneLabelled, "a `free` bias is not a trainable class of the offset (Lemma V^λ)")

    def to_json(self) -> Any:
        return {"kind": self.kind, "n": self.n, "kinds": [k for k in self.kinds], "fixed": [k + 1 for k in self.fixed],
                "diameter": self.diameter, "layers": self.layers, "theorem": "F149"}


def _arc_parts(q) -> list:
    """The parts of a union, an intersection with `full` read as its other parts (full ∩ P = P: `full` has every arc)."""
    from . import spec as S
    if isinstance(q, S.PatternUnion):
        return [r for x in q.parts for r in _arc_parts(x)]
    if isinstance(q, S.PatternIntersection) and any(isinstance(x, S.Full) for x in q.parts):
        rest = [x for x in q.parts if not isinstance(x, S.Full)]
        if not rest:
            return [S.Full()]
        if len(rest) == 1:
            return _arc_parts(rest[0])
        return [S.PatternIntersection(tuple(rest))]  # `P & Q & full` is `P & Q`, a part as written
    return [q]


#: the widest window or dilation whose offsets `_arc_key` lists (graphs/normal_form.SET_WIDTH_LIMIT: a wider part is
#: never rewritten, so it is compared as written)
_ARC_KEY_WIDTH = 1 << 20


def _arc_key(p) -> tuple:
    """What decides the arcs of a union (docs/theory.md §11.13): whether it contains `full`; the cyclic
    offsets (union of the cyclic windows' and cyclic offsets' sets); the non-cyclic offsets not among them
    (union of the windows', dilated parts' and offsets' sets); the number of leading globals (the largest);
    the block sizes not dividing another; the strides not a multiple of another; every other part as
    written. Two unions with equal keys have the same arcs at every n (an arc j − i = d of a non-cyclic set
    with d in the cyclic set is a cyclic arc, and with s | d a strided(s) arc; d = 0 is no arc, every position
    seeing itself; blocks(b) ⊆ blocks(c) when b | c, and blocks(b) adds no arc when every d with 0 < |d| < b
    is an offset of a part or a multiple of a stride; strided(t) ⊆ strided(s) when s | t). A part with a
    named size is kept as written."""
    from . import spec as S

    def ints(*ts) -> bool:
        return all(isinstance(t, int) and not isinstance(t, bool) for t in ts)

    def num(t) -> int:
        assert isinstance(t, int)
        return t

    parts = _arc_parts
    cyclic: set = set()
    linear: set = set()
    globs: list = []
    blocks: set = set()
    strides: set = set()
    others: set = set()
    if any(isinstance(q, S.Full) for q in parts(p)):
        return ("full",)  # before any part's offsets are listed (`full + window(500000000) cyclic`: 10⁹ of them)
    for q in parts(p):
        # a window or dilation wider than the normal form lists (SET_WIDTH_LIMIT) is a part as written, as the normal
        # form keeps it: listing its offsets would take memory in proportion to w (`dilated(500000000, 3)`: 10⁹)
        if isinstance(q, S.Window) and ints(q.w) and 0 <= num(q.w) <= _ARC_KEY_WIDTH:
            (cyclic if q.cyclic else linear).update(range(-num(q.w), num(q.w) + 1))
        elif isinstance(q, S.Offsets) and ints(*q.offsets):
            (cyclic if q.cyclic else linear).update(q.offsets)
        elif isinstance(q, S.Dilated) and ints(q.w, q.r) and 0 <= num(q.w) <= _ARC_KEY_WIDTH and num(q.r) >= 1:
            linear.update(k * num(q.r) for k in range(-num(q.w), num(q.w) + 1))
        elif isinstance(q, S.Star):
            globs.append(1)
        elif isinstance(q, S.Global) and ints(q.g):
            globs.append(num(q.g))
        elif isinstance(q, S.Blocks) and ints(q.b) and num(q.b) >= 1:
            blocks.add(num(q.b))
        elif isinstance(q, S.Strided) and ints(q.s) and num(q.s) >= 1:
            strides.add(num(q.s))
        else:
            others.add(q)
    least_strides = frozenset(s for s in strides if not any(t != s and s % t == 0 for t in strides))

    def covered(d: int) -> bool:  # j − i = d is an arc of an offset part or of a stride (0: no arc)
        return d == 0 or d in cyclic or d in linear or any(d % s == 0 for s in least_strides)
    return (frozenset(cyclic), frozenset(d for d in linear - cyclic if d != 0 and all(d % s for s in least_strides)),
            max(globs, default=0),
            frozenset(b for b in blocks if not any(c != b and c % b == 0 for c in blocks)
                      and not all(covered(d) and covered(-d) for d in range(1, b))),
            least_strides, frozenset(others))


@dataclass(frozen=True)
class SameArcs(Certificate):
    """Each rewritten head's pattern as written and its normal form (graphs/normal_form.py) have the same
    arcs at every n: the check compares their arc keys (`_arc_key`), computed part by part without the
    rewrites. The JSON gives the normal form as typed parts (a part kept as written by its index among
    the written parts), for the verifier."""

    heads: tuple  # ((head index from 0, as written, normal form), ...), one per rewritten head
    kind = "same arcs"

    def check(self) -> None:
        if not self.heads:
            _reject(SameArcs, "no pattern was rewritten")
        for _, written, normal in self.heads:
            if _arc_key(written) != _arc_key(normal):
                _reject(SameArcs, "the normal form does not have the arcs of the pattern as written")

    def to_json(self) -> Any:
        from .show import show_pattern
        return {"kind": self.kind, "heads": [
            {"head": i + 1, "written": show_pattern(a), "normal form": show_pattern(b), "parts": _typed_parts(a, b)}
            for i, a, b in self.heads]}


def _typed_parts(written, normal) -> list:
    """The normal form's parts as JSON: {"as written": k} (the k-th written part, from 1) or the part's
    kind and integer sizes."""
    from . import spec as S

    def flat(q):
        return [r for x in q.parts for r in flat(x)] if isinstance(q, S.PatternUnion) else [q]
    mine = flat(written)
    out: list = []
    meets = [(k, w) for k, w in enumerate(mine) if isinstance(w, S.PatternIntersection)]
    # each written intersection with its `full` parts left out (`P & Q & full` is `P & Q`)
    stripped = [(k, tuple(x for x in w.parts if not isinstance(x, S.Full))) for k, w in meets]
    for q in flat(normal):
        within = next(((k, path) for k, w in meets for path in [_path_to(w, q)] if path), None)
        without_full = next((k for k, rest in stripped if q.parts == rest), None) \
            if isinstance(q, S.PatternIntersection) else None
        if q in mine:
            out.append({"as written": mine.index(q) + 1})
        elif within is not None and len(within[1]) == 1:  # a part of a written intersection (`star & full` is `star`)
            out.append({"as written": within[0] + 1, "part": within[1][0] + 1})
        elif within is not None:  # a part inside one (`(window(1) + star) & full` is `window(1) + star`)
            out.append({"as written": within[0] + 1, "path": [k + 1 for k in within[1]]})
        elif without_full is not None:  # `P & Q & full` is `P & Q`: the written intersection without its `full` parts
            out.append({"as written": without_full + 1, "without full": True})
        elif isinstance(q, S.Window):
            out.append({"window": q.w, "cyclic": q.cyclic})
        elif isinstance(q, S.Offsets):
            out.append({"offsets": list(q.offsets), "cyclic": q.cyclic})
        elif isinstance(q, S.Global):
            out.append({"global": q.g})
        elif isinstance(q, S.Full):
            out.append({"full": True})
        else:
            raise TypeError(f"a normal form part of an unexpected kind: {q!r}")
    return out


def _path_to(whole, q) -> tuple:
    """The indices leading from ``whole`` down to ``q`` through the parts of unions and intersections (empty when q
    is not found below it)."""
    from . import spec as S
    if not isinstance(whole, (S.PatternUnion, S.PatternIntersection)):
        return ()
    for k, part in enumerate(whole.parts):
        if part == q:
            return (k,)
        below = _path_to(part, q)
        if below:
            return (k, *below)
    return ()


@dataclass(frozen=True)
class StandardFamily(Certificate):
    """A pattern fact of a standard family at symbolic n, or at a concrete n in the theorem's range
    (docs/theory.md §11.11). The check re-matches the family on the head's pattern (which re-checks
    the parameter ranges: g ≥ w for F3, integers b ≥ 2 for F4, 2 ≤ s ≤ w + 1 and the finite base case
    for F7), compares each claimed value with the theorem's exactly, and runs the theorem's instance
    check: at the start of its range, parameters at their least admissible values, the concrete engine
    (graphs, BLISS, rooted views) gives the same diameter, group order and least layer count."""

    pattern: Any           # the head's spec.Pattern (every head is this one)
    n: Any                 # the length: a positive integer Symbol, or an Integer
    params: tuple          # ((name, Symbol or Integer), ...) as the rules resolved them
    lower_bounds: tuple    # ((name, int), ...): the instance check's parameter values
    theorem: str           # "F2"
    claims: tuple          # ((field, value), ...): fields of graphs.families.FamilyTheorem
    kind = "family theorem"

    def check(self) -> None:
        from .graphs import families as F
        found = F.match([self.pattern], self.n, dict(self.params), lower=dict(self.lower_bounds))
        if not isinstance(found, F.FamilyTheorem) or found.theorem != self.theorem:
            _reject(StandardFamily, f"the pattern is not in the family of Theorem {self.theorem}")
        for name, value in self.claims:
            mine = getattr(found, name)
            if isinstance(value, (bool, str, tuple)) or value is None or mine is None:
                same = mine == value
            else:
                same = sympy.sympify(mine, strict=True) == sympy.sympify(value, strict=True) or is_zero(sympy.sympify(mine, strict=True) - sympy.sympify(value, strict=True))  # safe: strict (no text parsed)
            if not same:
                _reject(StandardFamily, f"{name} = {value} is not Theorem {self.theorem}'s {mine}")
        length = int(self.n) if isinstance(self.n, (int, sympy.Integer)) else None
        _, problem = F.check_instance(self.pattern, dict(self.lower_bounds), length=length)
        if problem is not None:
            _reject(StandardFamily, f"the instance check fails: {problem}")

    def to_json(self) -> Any:
        return {"kind": self.kind, "theorem": self.theorem, "section": "docs/theory.md §11.11",
                "parameters": {k: _exact(v) for k, v in self.params},
                "claims": {k: proof._order_json(v) if k == "order" else _exact(v) for k, v in self.claims},
                "instance parameters": dict(self.lower_bounds)}


@dataclass(frozen=True)
class HeadIntersection(Certificate):
    """G of several heads with different patterns at symbolic n (docs/theory.md §11.11, Theorems F35–F39):
    the anchor head and its group, the sizes K, L, N₀ of Theorem F35, and G on every residue class of n
    mod L with the class's range. The check re-runs the decision (graphs/head_intersection.py) on the
    heads and compares every class; the verifier (uapcheck/verifier/head_intersection.py) re-decides it
    with its own arcs and checks instances with nauty."""

    patterns: tuple        # the distinct heads' spec.Patterns, in order of first occurrence
    intersection: Any      # graphs.head_intersection.Intersection
    stated: Any            # (residue, low) of the class the step states, or None: every class
    order: Any             # the stated group's order (an expression in n; an integer at a concrete length)
    #: a concrete length n the step states G at (Theorem F125 (a)): it lies in the stated class, and the order
    #: is the class's at n; None: symbolic n
    length: Any = None
    #: the symbol the order names the length by, as the engine that built the order named it (the file's symbolic
    #: length, or n for a class's formula read at a concrete length): only it is read as n, any other symbol refused
    length_symbol: Any = field(kw_only=True)
    kind = "head intersection"

    def check(self) -> None:
        from .graphs import head_intersection as HI
        found = HI.recheck(self.patterns, self.intersection.anchor)
        if found is None or found != self.intersection:
            _reject(HeadIntersection, "re-deciding the intersection gives other classes or ranges")
            return
        n = sympy.Symbol("n", integer=True, positive=True)
        order = _order_in_length(HeadIntersection, self.order, self.length_symbol, n, getattr(self, "length", None))
        if self.length is not None:
            self._check_length(found, order, n)
            return
        for c in found.classes:
            if self.stated is None or (c.residue, c.low) == tuple(self.stated):
                d = HI.describe(c, n)
                if d is None or not is_zero(d[0] - order):
                    _reject(HeadIntersection, f"the order {self.order} is not the class's")

    def _check_length(self, found, order, n) -> None:
        """Theorem F125 (a): the length lies in a decided class (the stated one, when one is), from its bound
        on, and the order is that class's at this length."""
        from .graphs import head_intersection as HI
        length = self.length
        if not isinstance(length, int) or isinstance(length, bool) or length < 1 or order.free_symbols:
            _reject(HeadIntersection, "a concrete length states an integer order at a positive integer length")
        here = [c for c in found.classes if c.kind != "open" and length % found.modulus == c.residue
                and length >= c.low]
        if len(here) != 1 or (self.stated is not None and (here[0].residue, here[0].low) != tuple(self.stated)):
            _reject(HeadIntersection, f"n = {length} is not in a decided class of the intersection")
        d = HI.describe(here[0], n)
        if d is None or not is_zero(sympy.sympify(d[0], strict=True).xreplace({n: length}) - order):  # safe: strict
            _reject(HeadIntersection, f"the order {self.order} is not the class's at n = {length}")

    def to_json(self) -> Any:
        from .graphs.head_intersection import intersection_json
        out = intersection_json(self.intersection)
        if self.stated is not None:
            out["stated class"] = {"residue": self.stated[0], "from": self.stated[1]}
        if self.length is not None:
            out["n"] = self.length
        from .verifier.trees import encode
        out["order"] = encode(sympy.sympify(self.order, strict=True))  # safe: strict (no text parsed)
        return dict(out, kind=self.kind, section="docs/theory.md §11.11, Theorems F35–F39")


@dataclass(frozen=True)
class ByResidueClass(Certificate):
    """A result at symbolic n stated on every residue class of n mod `modulus` (docs/theory.md §11.4): each
    entry (residues, certificate) proves the class's result for the n with n mod L among its residues. The
    check: the entries' residues partition 0, …, L − 1, and each entry's certificate checks (a rule using it
    compares each class's stated result with its entry's)."""

    modulus: int
    entries: tuple  # ((residues, Certificate), ...)
    #: residues where nothing is proved (a class left open: the rule stating the result excludes them from its
    #: range, docs/theory.md §11.4); the entries and these partition 0, …, L − 1
    open_residues: tuple = ()
    kind = "by residue class"

    def check(self) -> None:
        if not isinstance(self.modulus, int) or self.modulus < 2:
            _reject(ByResidueClass, "the classes are residues mod an integer L ≥ 2")
        covered = sorted([*(r for residues, _ in self.entries for r in residues), *self.open_residues])
        if covered != list(range(self.modulus)) or not self.entries:
            _reject(ByResidueClass, f"the classes do not partition the residues mod {self.modulus}")
        for _, certificate in self.entries:
            if not isinstance(certificate, Certificate) or isinstance(certificate, (ByResidueClass, Inference)):
                _reject(ByResidueClass, "each class is proved by its own certificate")
            certificate.check()

    def to_json(self) -> Any:
        out = {"kind": self.kind, "modulus": self.modulus,
               "classes": [{"residues": list(residues), "certificate": certificate.to_json()}
                           for residues, certificate in self.entries]}
        if self.open_residues:
            out["open"] = list(self.open_residues)
        return out


@dataclass(frozen=True)
class PartitionHeads(Certificate):
    """G of two partition heads at symbolic n (docs/theory.md §11.11, Theorem F72): the heads' kinds, L, N and
    the order on every residue class of n mod L with the class's range. The check re-runs the decision
    (graphs/partition_heads.py); the verifier (uapcheck/verifier/partition_heads.py) re-derives every class with
    its own partitions and nauty's order at the class's base length."""

    patterns: tuple        # the distinct heads' spec.Patterns, in order of first occurrence
    found: Any             # graphs.partition_heads.PartitionGroup
    order: Any             # the stated group's order (an expression in n: at a concrete length, its class's formula)
    #: a concrete length the step states G at (Theorem F126): it lies in the class whose formula `order` is, from
    #: the class's bound on; None: symbolic n
    length: Any = None
    #: the symbol the order names the length by, as the engine that built the order named it (the file's symbolic
    #: length, or n for a class's formula read at a concrete length): only it is read as n, any other symbol refused
    length_symbol: Any = field(kw_only=True)
    kind = "partition heads"

    def check(self) -> None:
        from .graphs import partition_heads as PH
        again = PH.decide(list(self.patterns))
        if again is None or again != self.found:
            _reject(PartitionHeads, "re-deciding the two partition heads gives other classes or ranges")
            return
        n = sympy.Symbol("n", integer=True, positive=True)
        order = _order_in_length(PartitionHeads, self.order, self.length_symbol, n, getattr(self, "length", None))
        mine = [c for c in again.classes if is_zero(c.expression(n, again.modulus) - order)]
        if not mine:
            _reject(PartitionHeads, f"the order {self.order} is not a class's")
        if self.length is not None:
            length = self.length
            if not isinstance(length, int) or isinstance(length, bool) or not any(
                    length % again.modulus == c.residue and length >= c.low for c in mine):
                _reject(PartitionHeads, f"n = {length} is not in a class whose formula is {self.order}, from its bound on")

    def order_at_length(self) -> Any:
        """Theorem F126: |G| at the concrete length, the stated class's formula read there (large factorials kept
        unevaluated)."""
        from .graphs.heads_at_length import partition_class_at, partition_order_at
        c = partition_class_at(self.found, self.length)
        if c is None:
            _reject(PartitionHeads, f"n = {self.length} is in no class of the decision from its bound on")
        return partition_order_at(c, self.length, self.found.modulus)

    def to_json(self) -> Any:
        from .verifier.trees import encode
        from .graphs.partition_heads import partition_json
        out = {"kind": self.kind, "section": "docs/theory.md §11.11, Theorem F72", **partition_json(self.found),
               "order": encode(sympy.sympify(self.order, strict=True))}  # safe: strict (no text parsed)
        if self.length is not None:  # Theorem F126: the length the class's formula is read at
            out.update({"n": self.length, "section": "docs/theory.md §11.11, Theorems F72 and F126"})
        return out


@dataclass(frozen=True)
class GridHubsGroup(Certificate):
    """G of a head `blocks(b) + strided(s)` beside heads of hubs at symbolic n (docs/theory.md §11.11, Theorem F171):
    b, s, the hub counts, L, N and the order on every residue class of n mod L with the class's range. The check
    re-runs the decision (graphs/grid_hub_heads.py); the verifier (uapcheck/verifier/grid_hubs.py) re-derives every
    class with its own marked partitions and nauty's order."""

    patterns: tuple        # the distinct heads' spec.Patterns, in order of first occurrence
    found: Any             # graphs.grid_hub_heads.GridHubs
    order: Any             # the stated group's order (an expression in n)
    #: the symbol the order names the length by, as the engine that built the order named it (the file's symbolic
    #: length, or n for a class's formula read at a concrete length): only it is read as n, any other symbol refused
    length_symbol: Any = field(kw_only=True)
    kind = "grid hub heads"

    def check(self) -> None:
        from .graphs import grid_hub_heads as GH
        again = GH._decide.__wrapped__(tuple(self.patterns), ())  # the decision again, without the module's memo
        if again is None or again != self.found:
            _reject(GridHubsGroup, "re-deciding the heads gives other classes or ranges")
            return
        n = sympy.Symbol("n", integer=True, positive=True)
        order = _order_in_length(GridHubsGroup, self.order, self.length_symbol, n, getattr(self, "length", None))
        if not any(is_zero(c.expression(n, again.modulus) - order) for c in again.classes):
            _reject(GridHubsGroup, f"the order {self.order} is not a class's")

    def to_json(self) -> Any:
        from .verifier.trees import encode
        from .graphs.grid_hub_heads import SECTION, grid_json
        return {"kind": self.kind, "section": SECTION, **grid_json(self.found),
                "order": encode(sympy.sympify(self.order, strict=True))}  # safe: strict (no text parsed)


@dataclass(frozen=True)
class ParityHubsGroup(Certificate):
    """G of `offsets {2, 4} cyclic` (or {−2, −4}, with or without 0) beside `global(g)` or `star`, on one class of n mod 2
    (docs/theory.md §11.11, Theorem F221): the class's bound and order (2: {id, σ}, σ exchanging 2j − 1 and 2j; n/2:
    the rotations of the even positions; 1: trivial). The check re-runs the decision (graphs/cyclic_parity_hubs.py); the verifier
    (uapcheck/verifier/cyclic_parity_hubs.py) restates the theorem and re-counts the group at lengths of each class."""

    patterns: tuple        # the distinct heads' spec.Patterns, in order of first occurrence
    found: Any             # graphs.cyclic_parity_hubs.ParityHubs
    residue: int           # the class n mod 2 this step states
    order: Any             # the stated group's order
    #: a concrete length the step states G at (its class, from the class's bound on); None: symbolic n
    length: Any = None
    #: the symbol the order names the length by, as the engine that built the order named it (the file's symbolic
    #: length, or n for a class's formula read at a concrete length): only it is read as n, any other symbol refused
    length_symbol: Any = field(kw_only=True)
    kind = "cyclic parity hubs"

    def check(self) -> None:
        from .graphs import cyclic_parity_hubs as PH
        again = PH.decide(list(self.patterns), {})
        if again is None or again != self.found:
            _reject(ParityHubsGroup, "re-deciding the heads gives another sign, hub count or classes")
            return
        _, low, code = next(c for c in again.classes if c[0] == self.residue)
        n = sympy.Symbol("n", integer=True, positive=True)
        if self.length is not None and (not isinstance(self.length, int) or isinstance(self.length, bool)
                                        or self.length < low or self.length % 2 != self.residue):
            _reject(ParityHubsGroup, f"n = {self.length} is not a length of Theorem F221's class n ≡ {self.residue} "
                                     f"(mod 2), n ≥ {low}")
        want = PH.order_of(code, n if self.length is None else sympy.Integer(self.length))
        order = _order_in_length(ParityHubsGroup, self.order, self.length_symbol, n, getattr(self, "length", None))
        if not is_zero(want - order):
            _reject(ParityHubsGroup, f"the order {self.order} is not Theorem F221's {want} on the class")

    def to_json(self) -> Any:
        from .graphs.cyclic_parity_hubs import SECTION, parity_json
        from .verifier.trees import encode
        # the classes in the symbol the order names the length by (the file's at a symbolic length, n at an integer one)
        return {"kind": self.kind, "section": SECTION, **parity_json(self.found, encode, self.length_symbol),
                "residue": self.residue,
                "order": encode(sympy.sympify(self.order, strict=True)),  # safe: strict (no text parsed)
                **({} if self.length is None else {"n": self.length})}


@dataclass(frozen=True)
class CyclicHeadsGroup(Certificate):
    """G of several heads whose union is a cyclic window, or one-sided cyclic offsets (docs/theory.md §11.11, Theorem
    F153): F143's data (the radius, the zone's sides, the case, the zone positions where ρ_Z fails) and the group it
    gives from the union's bound on. The check re-runs the decision (graphs/cyclic_window_heads.py); the verifier
    (uapcheck/verifier/cyclic_window_heads.py) re-derives the data on its own arcs and re-counts small instances."""

    patterns: tuple        # the distinct heads' spec.Patterns, in order of first occurrence
    found: Any             # graphs.cyclic_window_heads.CyclicHeads
    low: int               # the union's bound: the group holds for every n ≥ low
    order: Any             # the stated group's order (an expression in n; an integer at a concrete length)
    #: a concrete length the step states G at (the closed form read there, n ≥ low); None: symbolic n
    length: Any = None
    #: the symbol the order names the length by, as the engine that built the order named it (the file's symbolic
    #: length, or n for a class's formula read at a concrete length): only it is read as n, any other symbol refused
    length_symbol: Any = field(kw_only=True)
    kind = "cyclic window heads"

    def check(self) -> None:
        from .graphs import cyclic_window_heads as CW
        n = sympy.Symbol("n", integer=True, positive=True)
        again = CW.group_cases(list(self.patterns), n, {})
        if not again or again[0].intersection[1:] != (self.found, self.low):
            _reject(CyclicHeadsGroup, "re-deciding the heads gives another zone, case or range")
            return
        order = _order_in_length(CyclicHeadsGroup, self.order, self.length_symbol, n, getattr(self, "length", None))
        want = again[0].order
        if self.length is not None:
            if not isinstance(self.length, int) or isinstance(self.length, bool) or self.length < self.low:
                _reject(CyclicHeadsGroup, f"n = {self.length} is not a length of Theorem F153's range n ≥ {self.low}")
            want = want.xreplace({n: sympy.Integer(self.length)})
        if not is_zero(want - order):
            _reject(CyclicHeadsGroup, f"the order {self.order} is not Theorem F153's {want}")

    def to_json(self) -> Any:
        from .graphs.cyclic_window_heads import GROUP_SECTION, heads_group
        from .graphs.head_intersection import element_json
        from .verifier.trees import encode
        c = self.found
        kind, *rest = heads_group(c)
        elements = sorted(element_json(e) for e in rest[0]) if kind == "finite" else [["rotations", *rest]]
        return {"kind": self.kind, "section": GROUP_SECTION, "from": self.low,
                "cyclic heads": {"w": c.w, "a": c.a, "b": c.b, "case": c.case, "one-sided": c.one_sided,
                                 "failing": list(c.failing or [])},
                "group": {"kind": kind, "elements": elements},
                "order": encode(sympy.sympify(self.order, strict=True)),  # safe: strict (no text parsed)
                **({} if self.length is None else {"n": self.length})}


@exact_cache(maxsize=16)
def _exchanges_again(patterns: tuple) -> Any:
    """Theorem F186's decision for the heads again, without the module's memo (graphs/residue_exchanging_unions.py
    keeps the rule's): one re-decision per process for the heads, which each class's certificate compares with
    the decision it carries (a derivation states one certificate per class of n mod Q)."""
    from .graphs import residue_exchanging_unions as RX
    return RX._decide(patterns, ())


@dataclass(frozen=True)
class ResidueExchangesGroup(Certificate):
    """G of several heads made of blocks, non-cyclic line parts and hubs whose symmetries exchange residue classes, on
    one class of n mod Q (docs/theory.md §11.11, Theorem F186): the periodic symmetries of the arc-coloured line, the
    certificate's radius, window and bound, and the class's maps (π on the hubs, the sign and the shift of each residue
    class). The check re-runs the decision (graphs/residue_exchanging_unions.py); the verifier
    (uapcheck/verifier/residue_exchanges.py) re-checks the class's maps on its own arcs at every length of the class
    from its bound up to N_G + Q (nauty's order of the coloured union equal to the number of maps)."""

    patterns: tuple        # the distinct heads' spec.Patterns, in order of first occurrence
    found: Any             # graphs.residue_exchanging_unions.Exchanges
    residue: int           # the class n ≡ residue (mod Q)
    order: Any             # the stated order (an integer)
    #: a concrete length the step states G at (the class read there); None: symbolic n
    length: Any = None
    kind = "residue exchanging heads"

    def _class(self):
        return next(c for c in self.found.classes if c.residue == self.residue)

    def check(self) -> None:
        from .graphs import residue_exchanging_unions as RX
        again = _exchanges_again(tuple(self.patterns))
        if again != self.found:
            _reject(ResidueExchangesGroup, "re-deciding the heads gives other symmetries, classes or ranges")
            return
        c = self._class()
        if self.length is not None and (not isinstance(self.length, int) or self.length < c.low
                                        or self.length % self.found.period != self.residue):
            _reject(ResidueExchangesGroup, f"n = {self.length} is not a length of the class n ≡ {self.residue} "
                                           f"(mod {self.found.period}), n ≥ {c.low}")
        named = RX.describe(self.found, c)
        if named is None or sympy.Integer(named[0]) != sympy.sympify(self.order, strict=True):  # safe: strict
            _reject(ResidueExchangesGroup, f"the order {self.order} is not Theorem F186's on its class")

    def to_json(self) -> Any:
        from .graphs.residue_exchanging_unions import SECTION
        f = self.found
        c = self._class()
        return {"kind": self.kind, "section": SECTION, "hubs": f.hubs, "period": f.period, "radius": f.radius,
                "width": f.width, "proved from": f.proved_low,
                "symmetries": [[a.sign, list(a.images)] for a in f.symmetries],
                "class": {"residue": c.residue, "from": c.low,
                          "maps": sorted([list(m.hubs), m.sign, list(m.shifts)] for m in c.maps)},
                "order": int(self.order), **({} if self.length is None else {"n": self.length})}


@exact_cache(maxsize=16)
def _split_lines_again(patterns: tuple) -> Any:
    """Theorem F187's decision for the heads again, without the module's memo (graphs/split_line_unions.py keeps the
    rule's): one re-decision per process for the heads, which each class's certificate compares with the decision
    it carries."""
    from .graphs import split_line_unions as SL
    return SL._decide(patterns, ())


@dataclass(frozen=True)
class SplitLinesGroup(Certificate):
    """G of several heads made of dilated and offsets parts (cyclic ones no longer than the hubs) and hubs whose line
    falls apart into the classes mod m (the gcd of every jump), on one class of n mod m (docs/theory.md §11.11, Theorem F187): the scaled line's
    bounds (connected from L_c, Theorem F180 from L_Λ, reversible or not), the attached classes, and the class's group
    (the hub maps H, the unattached classes by length). The check re-runs the decision (graphs/split_line_unions.py);
    the verifier (uapcheck/verifier/split_lines.py) restates the theorem and checks every length of the class from its
    bound up to N + m exactly (nauty's order of the coloured union equal to the class's)."""

    patterns: tuple        # the distinct heads' spec.Patterns, in order of first occurrence
    found: Any             # graphs.split_line_unions.SplitLines
    residue: int           # the class n ≡ residue (mod m)
    order: Any             # the stated order (an integer)
    #: a concrete length the step states G at (the class read there); None: symbolic n
    length: Any = None
    kind = "split line heads"

    def _class(self):
        return next(c for c in self.found.classes if c.residue == self.residue)

    def check(self) -> None:
        from .graphs import split_line_unions as SL
        again = _split_lines_again(tuple(self.patterns))
        if again != self.found:
            _reject(SplitLinesGroup, "re-deciding the heads gives other segments, classes or ranges")
            return
        c = self._class()
        if self.length is not None and (not isinstance(self.length, int) or self.length < c.low
                                        or self.length % self.found.modulus != self.residue):
            _reject(SplitLinesGroup, f"n = {self.length} is not a length of the class n ≡ {self.residue} "
                                     f"(mod {self.found.modulus}), n ≥ {c.low}")
        named = SL.describe(self.found, c)
        if named is None or sympy.Integer(named[0]) != sympy.sympify(self.order, strict=True):  # safe: strict
            _reject(SplitLinesGroup, f"the order {self.order} is not Theorem F187's on its class")

    def to_json(self) -> Any:
        from .graphs.split_line_unions import SECTION
        f = self.found
        c = self._class()
        return {"kind": self.kind, "section": SECTION, "hubs": f.hubs, "modulus": f.modulus,
                "reversible": f.reversible, "connected from": f.connected_from, "line from": f.line_from,
                "proved from": f.proved_low,
                "class": {"residue": c.residue, "from": c.low, "attached": list(c.attached),
                          "hub maps": [[list(pi), list(tau), list(signs)] for pi, tau, signs in c.hub_maps],
                          "unattached": [list(g) for g in c.unattached]},
                "order": int(self.order), **({} if self.length is None else {"n": self.length})}


@dataclass(frozen=True)
class HeadLayers(Certificate):
    """The least layer count of several heads with different patterns at symbolic n (docs/theory.md §11.11,
    Theorems F70–F71, F75, F86, F143), from the union of their arcs: F70, the union's theorem proves D layers and the
    heads' group (Theorems F35–F39) has the union's order on every residue class; F71, the union's swap witness
    meets every head's view condition (checked at every length from the bound up to N + M − 1); F75, the union is
    straight and the positions at distance D from any root form a clique in every head (checked likewise). The check re-runs
    the decision (graphs/head_layers.py); the verifier (uapcheck/verifier/head_layers.py) re-decides it with
    its own arcs, family table and intersection."""

    patterns: tuple        # the distinct heads' spec.Patterns, in order of first occurrence
    found: Any             # graphs.head_layers.HeadLayers (F70: with the heads' intersection)
    #: a concrete length the step states the count at (Theorem F125 (b)), and that count; None: symbolic n
    length: Any = None
    count: Any = None
    #: the symbol `found` names the length by, as the engine that decided it named it (the file's symbolic length, or n
    #: for a decision read at a concrete length): the decision is re-run with it
    length_symbol: Any = field(kw_only=True)
    kind = "head layers"

    def check(self) -> None:
        from .graphs import head_layers as HL
        from .graphs.closed_groups import closed_group
        n = self.length_symbol
        if not isinstance(n, sympy.Symbol) or n.is_integer is not True or n.is_positive is not True:
            _reject(HeadLayers, "the certificate names no positive integer symbol for the length")
        _the_files_length(HeadLayers, n, self.length)
        grp = closed_group(list(self.patterns), n, {}, [None] * len(self.patterns), "none")
        again = HL.least_layers(list(self.patterns), grp.cases if grp else None, n)
        if again is None or again != self.found:
            _reject(HeadLayers, "re-deciding the heads' layer count gives another answer")
        if self.length is not None or self.count is not None:
            from .graphs.heads_at_length import layers_at
            if not isinstance(self.length, int) or isinstance(self.length, bool):
                _reject(HeadLayers, "a count at a concrete length names a positive integer length")
            at = layers_at(self.found, self.length)
            if at is None or at.layers != self.count:
                _reject(HeadLayers, f"n = {self.length} is outside the decision's range or class, or the count there "
                                    f"is not {self.count}")

    def to_json(self) -> Any:
        from .verifier.trees import encode
        f = self.found
        out: dict = {"kind": self.kind, "theorem": f.theorem, "section": f.section, "union theorem": f.union_theorem,
                     "from": f.low, "modulus": f.modulus}
        if self.length is not None:  # Theorem F125 (b): the symbolic count and D, and the length they are read at
            from .certfile import _without_residue_cases  # F86's count by class: the floors the step's data carries
            out.update({"n": self.length,
                        "layers": encode(_without_residue_cases(sympy.sympify(f.layers, strict=True))),  # safe: strict
                        "diameter": encode(_without_residue_cases(sympy.sympify(f.diameter, strict=True)))})  # safe: strict
        if f.witness is not None:
            pos, (a, b) = f.witness
            out.update({"position": encode(pos), "swap": [encode(a), encode(b)], "reach": f.reach,
                        "period": f.period, "start": f.start})
        if f.cyclic_heads is not None:  # F143: the zone's sides, the case and the classes that need D + 1
            c = f.cyclic_heads
            out["cyclic heads"] = {"w": c.w, "a": c.a, "b": c.b, "case": c.case,
                                   "extra residues": list(c.extra_residues), "one-sided": c.one_sided}
            if c.failing is not None:  # case (S): the hull of the zone positions where ρ_Z fails
                out["cyclic heads"]["failing"] = list(c.failing)
        if f.directed_heads is not None:  # F191: the union's w and A, the rounds, D + 1 by class, the check's end
            h = f.directed_heads
            out["directed heads"] = {"w": h.w, "outside": list(h.outside), "rounds": h.rounds,
                                     "proved low": h.proved_low, "extra": list(h.extra)}
        if f.theorem == "F236":  # the residues of n mod the modulus that need D + 1 layers
            out["extra residues"] = list(f.extra_residues)
        if f.far_ends is not None:  # F75: the walks' periods and the lengths checked
            e = f.far_ends
            out.update({"far ends": {"b": e.b, "w": e.w, "period": e.period, "right": list(e.right),
                                     "left": list(e.left), "modulus": e.modulus, "start": e.start}})
        if f.growing:  # F192: D layers on every class, each from its bound, by F70 or F124
            out.update({"reach": f.reach, "period": f.period,
                        "classes": [{"residue": c.residue, "from": c.low, "found by": c.found_by} for c in f.growing]})
        if f.classes:  # F86: each class's count, and the swap on the classes that need D + 1
            out.update({"reach": f.reach, "period": f.period,
                        "classes": [{"residue": c.residue, "layers": c.layers, "from": c.low, "found by": c.found_by,
                                     **({} if c.witness is None else
                                        {"position": encode(c.witness[0]),
                                         "swap": [encode(c.witness[1][0]), encode(c.witness[1][1])]}),
                                     **({} if c.permutation is None else
                                        {"position": encode(c.permutation[0]),
                                         "permutation": [[encode(x), encode(y)] for x, y in c.permutation[1]]})}
                                    for c in f.classes]})
        if f.intersection is not None:
            from .graphs.head_intersection import Intersection, intersection_json
            from .graphs.partition_heads import partition_json
            if isinstance(f.intersection, Intersection):
                out["intersection"] = intersection_json(f.intersection)
            else:
                out["partition heads"] = partition_json(f.intersection)
        return out


@dataclass(frozen=True)
class CoveredStrideHeads(Certificate):
    """Theorem F210 (docs/theory.md §11.11): several heads among `window(w) cyclic`, `strided(s)` and their union, w + 1
    ≤ s ≤ 2w + 1, s ≥ 3: D + 1 = 3 layers, least on Theorem F200's classes of n mod s. The check re-runs the match
    (graphs/cyclic_covered_heads.py) and, at every length of one period from the range's start on a class it states,
    re-checks F200's witness on each head's neighbourhoods written from the definitions (it keeps N_h(v) for every
    head h and every v within distance 1 of its root in the union, and is no symmetry of the union). The verifier
    (uapcheck/verifier/cyclic_covered_heads.py) restates it with its own arcs."""

    patterns: tuple        # the distinct heads' spec.Patterns
    found: Any             # graphs.cyclic_covered_heads.CoveredHeads
    n: Optional[int] = None  # a concrete length in the range and in a class it states (3 layers least there)
    #: at symbolic n, the count the step states (2 on n ≡ 0 (mod s) for s ≤ 2w, Theorem F218; else 3) and its least
    #: classes ((s, residues), or () when least on every class); both re-derived from the match by the check
    layers: Any = None
    least_classes: tuple = ()
    kind = "covered stride heads"

    def check(self) -> None:
        from .graphs import cyclic_covered_heads as H
        from .graphs import cyclic_covered_least as covered
        again = H.match(list(self.patterns))
        if again is None or again != self.found or not again.least_residues:
            _reject(CoveredStrideHeads, "re-matching the heads gives another answer (or no class where a count is least)")
        assert again is not None  # for the type checker: _reject raised otherwise
        w, s = again.w, again.s
        if self.n is not None and self.n >= again.low and self.n % s == 0 and again.divisible:
            for n in [again.low, again.low + s] + ([self.n] if self.n <= COVERED_HEADS_CHECK_N else []):
                problem = _lemma_ah_problem(w, s, n)  # Theorem F218: 2 layers, least, at s | n
                if problem:
                    _reject(CoveredStrideHeads, problem)
            return
        if self.n is not None and (self.n < again.low or self.n % s not in again.classes):
            _reject(CoveredStrideHeads, f"n = {self.n} is below n ≥ {again.low} or outside the classes "
                                        f"{again.classes} of n mod {s}")
        if self.n is None:
            self._check_count(again)
        lengths = list(range(again.low, again.low + s))
        if self.n is not None and self.n <= COVERED_HEADS_CHECK_N:
            lengths.append(self.n)  # the witness at the length itself too
        for n in lengths:
            if n % s == 0 and again.divisible and self.n is None:
                problem = _lemma_ah_problem(w, s, n)  # Theorem F218 on the class s | n
                if problem:
                    _reject(CoveredStrideHeads, problem)
                continue
            if n % s not in again.classes:
                continue
            found = covered.witness(w, s, n)
            if found is None:
                _reject(CoveredStrideHeads, f"n = {n}: no witness on a class the theorem states")
            assert found is not None  # for the type checker: _reject raised otherwise
            root, cycles = found
            problem = _split_witness_problem(w, s, n, list(self.patterns), root, cycles)
            if problem:
                _reject(CoveredStrideHeads, problem)

    def _check_count(self, again) -> None:
        """At symbolic n: the stated count and least classes are the theorem's (Theorems F210 and F218)."""
        if self.layers is None:
            _reject(CoveredStrideHeads, "the count is not stated")
        n = next(iter(sympy.sympify(self.layers, strict=True).free_symbols), None)  # safe: strict (no text parsed)
        want = again.layers(n if n is not None else sympy.Symbol("n", integer=True, positive=True))
        if not (self.layers == want or is_zero(sympy.sympify(self.layers - want, strict=True))):  # safe: strict
            _reject(CoveredStrideHeads, f"the count {self.layers} is not Theorems F210 and F218's {want}")
        every = len(again.least_residues) == again.s
        if tuple(self.least_classes) != (() if every else (again.s, again.least_residues)):
            _reject(CoveredStrideHeads, f"the least classes {self.least_classes} are not n mod {again.s} in "
                                        f"{again.least_residues}")

    def to_json(self) -> Any:
        f = self.found
        out = {"kind": self.kind, "theorem": "F210", "section": "docs/theory.md §11.11", "w": f.w, "s": f.s,
               "from": f.low, "modulus": f.s, "residues": list(f.classes), **({} if self.n is None else {"n": self.n})}
        if self.n is None and f.divisible:
            out["divisible class"] = {"theorem": "F218", "residue": 0, "layers": 2}
        return out


#: Theorem F210 at a concrete length: up to this n the kernel re-checks the witness at n itself as well (its
#: neighbourhoods are written out whole); above it, at one period from the range's start (the same residue data)
COVERED_HEADS_CHECK_N = 4_000


def _lemma_ah_problem(w: int, s: int, n: int) -> str:
    """Lemma AH's steps (docs/theory.md §11.11, Theorem F218) at the root n of `window(w) cyclic + strided(s)`, s | n,
    on neighbourhoods written from the definitions: the class and the window of the root told apart by common
    neighbours, the level |u| read off f and h, the consecutive relation of the class through the far traces, and
    pairwise distinct far traces; "" when all hold, else what fails."""
    if n % s:
        return f"n = {n} is not a multiple of s = {s}"

    def nb(v: int) -> frozenset:
        return frozenset((v - 1 + k) % n + 1 for k in range(-w, w + 1)) | frozenset(range((v - 1) % s + 1, n + 1, s))
    near = [frozenset()] + [nb(v) for v in range(1, n + 1)]
    ball = near[n]
    cls = frozenset(range(s, n + 1, s))
    win = frozenset((n - 1 + k) % n + 1 for k in range(-w, w + 1))
    if ball != cls | win or cls & win != {n}:
        return f"n = {n}: the root's ball is not its class and its window"
    if min(len(near[v] & ball) for v in cls - {n}) <= max(len(near[v] & ball) for v in win - {n}):
        return f"n = {n}: common neighbours do not tell the class from the window"
    for u in win - {n}:
        level = min(u, n - u)
        if level != 2 * w + 1 + int(bool(near[u] & (cls - {n}))) - len(near[u] & win):
            return f"n = {n}: the level of {u} is not read off its neighbours"
    far = [x for x in range(1, n + 1) if x not in ball]
    trace = {x: near[x] & ball for x in far}
    related = {frozenset((a, b)) for x in far for a in trace[x] & cls for b in trace[x] & cls if a != b}
    if related != {frozenset((k * s, k * s + s)) for k in range(1, n // s - 1)}:
        return f"n = {n}: the far traces do not relate exactly the consecutive members of the root's class"
    if len(set(trace.values())) != len(far):
        return f"n = {n}: two far positions have one trace"
    return ""


def _split_witness_problem(w: int, s: int, n: int, patterns: list, root: int, cycles) -> str:
    """"" when σ (the 2-cycles) keeps every head's N_h(v) for v in the union's N[root] and is no symmetry of the union;
    else what fails. Neighbourhoods from the definitions: the cyclic window of radius w and the class mod s."""
    def window(v: int) -> frozenset:
        return frozenset((v - 1 + k) % n + 1 for k in range(-w, w + 1))

    def stride(v: int) -> frozenset:
        return frozenset(range((v - 1) % s + 1, n + 1, s))

    def head(p) -> list:
        kinds = {type(q) for q in (p.parts if isinstance(p, S.PatternUnion) else (p,))}
        return [frozenset()] + [(window(v) if S.Window in kinds else frozenset())
                                | (stride(v) if S.Strided in kinds else frozenset()) for v in range(1, n + 1)]
    heads = [head(p) for p in patterns]
    union = [frozenset()] + [window(v) | stride(v) for v in range(1, n + 1)]
    sigma = list(range(n + 1))
    for a, b in cycles:
        sigma[a], sigma[b] = b, a

    def keeps(nb: list, v: int) -> bool:
        return frozenset(sigma[u] for u in nb[v]) == nb[sigma[v]]
    bad = next((v for v in union[root] for nb in heads if not keeps(nb, v)), None)
    if bad is not None:
        return f"n = {n}: the witness changes a head's neighbourhood of {bad}, within distance 1 of {root}"
    if all(keeps(union, v) for v in range(1, n + 1)):
        return f"n = {n}: the witness is a symmetry of the union"
    return ""


@dataclass(frozen=True)
class GlobalUnion(Certificate):
    """The union of every head's parts has globals 1..g and other parts with integer sizes (docs/theory.md §11.11,
    Theorem F87): strongly connected with D = 2 for every n ≥ the found bound (j → 1 → i; from N₁ on the pair
    (g + 1, g + 1 + t) is not joined, and every length from the bound up to N₁ has a non-adjacent pair). The check
    re-runs the decision (graphs/global_unions.py); the verifier (uapcheck/verifier/global_unions.py) re-derives
    it with its own arcs."""

    patterns: tuple        # the distinct heads' spec.Patterns
    found: Any             # graphs.global_unions.GlobalUnion
    kind = "global union"

    def check(self) -> None:
        from .graphs import global_unions as GU
        again = GU.decide(self.found.globals, self.found.parts)
        if again is None or again != self.found:
            _reject(GlobalUnion, "re-deciding the union with globals gives another bound")
        from .graphs.closed_forms import _atoms, _merge
        atoms = _merge([a for p in self.patterns for a in _atoms(p, {})])
        hubs = [int(a.args[0]) for a in atoms if a.kind == "global"]
        others = tuple(sorted(set((a.kind, tuple(int(x) for x in a.args)) for a in atoms if a.kind != "global")))
        if not hubs or max(hubs) != self.found.globals or others != self.found.parts:
            _reject(GlobalUnion, "the globals and parts are not the heads'")

    @property
    def data(self) -> dict:
        return {"diameter": 2, "exact": True}

    def to_json(self) -> Any:
        f = self.found
        return {"kind": self.kind, "section": "docs/theory.md §11.11, Theorem F87", "globals": f.globals,
                "parts": [[k, list(a)] for k, a in f.parts], "from": f.low, "far": f.far, "step": f.step,
                "diameter": 2}


@dataclass(frozen=True)
class CosetInvariant(Certificate):
    """`offsets S cyclic` (every head) at symbolic n on the residue classes n ≡ r (mod g) with gcd(r, g) > 1
    (docs/theory.md §11.11, Theorem F27 (a)): g divides every offset, so e = gcd(n, g) > 1 divides every
    offset and n, every arc keeps a position's residue mod e, and x_2 never reaches position 1 (1 ≢ 2 mod e).
    The check: the patterns are cyclic offsets with integer offsets, g divides each, and gcd(r, g) > 1 for
    every stated residue r."""

    patterns: tuple  # spec.Patterns of the heads
    modulus: int     # g
    residues: tuple  # the classes n mod g it states
    kind = "coset invariant"

    def check(self) -> None:
        from math import gcd
        offsets = []
        for p in self.patterns:
            if not isinstance(p, S.Offsets) or not p.cyclic or not all(isinstance(o, int) for o in p.offsets):
                _reject(CosetInvariant, "the heads are cyclic offsets with integer offsets")
            offsets.extend(p.offsets)
        g = self.modulus
        if not isinstance(g, int) or g < 2 or any(o % g for o in offsets):
            _reject(CosetInvariant, f"{g} does not divide every offset")
        if not self.residues or any(not 0 <= r < g or gcd(r, g) == 1 for r in self.residues):
            _reject(CosetInvariant, f"a stated class n ≡ r (mod {g}) has gcd(r, {g}) = 1")

    def to_json(self) -> Any:
        from .show import show_pattern
        return {"kind": self.kind, "patterns": [show_pattern(p) for p in self.patterns], "modulus": self.modulus,
                "residues": list(self.residues), "witness": {"i": 1, "j": 2}}


@dataclass(frozen=True)
class BudgetByClass(Certificate):
    """A `layers M` budget below the count of some residue classes of n only (docs/theory.md §12, by residue
    class): the proved PAT-LAYERS step states its count m and the diameter D as functions of n mod L (a
    Piecewise over the residues), or as one number each on the whole range (L = 1, the residue 0: every n of the
    range). The check reads both off the step's facts, requires the pieces on every
    stated residue r (mod the pieces' modulus) to be integers, and M < D_r (the receptive field: some x_j never
    reaches some position within M layers), or M < m_r where the step's count is least (`least`: m_r − 1
    layers, hence M, fail by the step's own certificate)."""

    layer_step: proof.Step
    budget: int
    modulus: int
    residues: tuple
    kind = "budget by class"

    def check(self) -> None:
        from .rules.residue_classes import pieces_by_residue
        step = self.layer_step
        if not proof.is_step(step) or step.rule != "PAT-LAYERS" or not step.proved:
            _reject(BudgetByClass, "the count is a proved PAT-LAYERS step's")
        layers, diameter, least = step.facts.get("layers"), step.facts.get("diameter"), step.facts.get("least")
        on = step.facts.get("least_classes") or ()  # least on these classes n mod L only (a least flag by class)
        mods = layers.atoms(sympy.Mod) if isinstance(layers, sympy.Basic) else set()
        mods |= diameter.atoms(sympy.Mod) if isinstance(diameter, sympy.Basic) else set()
        n = next((a.args[0] for a in mods if isinstance(a.args[0], sympy.Symbol)), None)
        split = pieces_by_residue(layers, n)
        by_d = pieces_by_residue(diameter, n) if n is not None else None
        if split is None and isinstance(self.modulus, int) and (self.modulus == 1 or (
                on and self.modulus % on[0] == 0) or (by_d is not None and self.modulus % by_d[0] == 0)) and \
                isinstance(layers, (int, sympy.Integer)) and not isinstance(layers, bool):
            # one number on the whole range: every residue mod 1, mod the classes where it is least, or mod D's
            split = (self.modulus, (sympy.Integer(layers),) * self.modulus)
        if split is None or split[0] != self.modulus or not self.residues:
            _reject(BudgetByClass, f"the layer count is not a function of n mod {self.modulus}")
        assert split is not None  # for the type checker: _reject raised otherwise
        dsplit = pieces_by_residue(diameter, n)
        for r in self.residues:
            if not 0 <= r < self.modulus:
                _reject(BudgetByClass, f"{r} is not a residue mod {self.modulus}")
            m_r = split[1][r]
            d_r = dsplit[1][r % dsplit[0]] if dsplit is not None else diameter
            if not (isinstance(m_r, sympy.Integer) and isinstance(d_r, (int, sympy.Integer))) or isinstance(d_r, bool):
                _reject(BudgetByClass, f"the count on n ≡ {r} (mod {self.modulus}) is not a number")
            assert d_r is not None  # for the type checker: a number, checked above
            least_r = least is True or bool(on and self.modulus % on[0] == 0 and r % on[0] in on[1])
            if not (self.budget < d_r or (least_r and self.budget < m_r)):
                _reject(BudgetByClass, f"on n ≡ {r} (mod {self.modulus}) the budget {self.budget} is not below D = {d_r}"
                        f" nor below a least count ({m_r}, least: {least_r})")

    def to_json(self) -> Any:
        return {"kind": self.kind, "budget": self.budget, "modulus": self.modulus, "residues": list(self.residues)}


@dataclass(frozen=True)
class BudgetBeyond(Certificate):
    """A `layers M` budget below a diameter closed form D(n) that grows with n, from the length `start` on
    (docs/theory.md §12, PAT-BUDGET-N). The check reads D off the proved PAT-CONNECTED step and proves D(n) > M for
    every n ≥ start by induction on n mod L, without the rule's own reduction on classes: D(v) > M exactly at
    v = start, …, start + L − 1, and the step D(n + L) − D(n) (SymPy's exact simplification of floors, ceilings and
    Mods of n + L) is a function of n mod L alone that is ≥ 0 on every residue. It also checks that the stated range
    holds at no length below `start`, and that `start` is least (D(start − 1) ≤ M, when start − 1 lies in the
    group's range `within`)."""

    connected: proof.Step
    budget: int
    start: int
    modulus: int
    range: Any    # the step's range: a SymPy condition on n
    within: Any   # the closed forms' range (the group step's), a SymPy condition on n, or sympy.true
    kind = "budget beyond"

    def check(self) -> None:
        step = self.connected
        if not proof.is_step(step) or step.rule != "PAT-CONNECTED" or not step.proved:
            _reject(BudgetBeyond, "the diameter is a proved PAT-CONNECTED step's")
        diameter = step.facts.get("diameter")
        if not isinstance(diameter, sympy.Basic) or len(diameter.free_symbols) != 1 or step.facts.get("exact") is False:
            _reject(BudgetBeyond, "the diameter is an exact closed form in n alone")
        assert isinstance(diameter, sympy.Basic)  # for the type checker: _reject raised otherwise
        (n,) = diameter.free_symbols
        big = self.modulus
        if not isinstance(big, int) or big < 1 or not isinstance(self.start, int) or self.start < 1:
            _reject(BudgetBeyond, "the modulus and the start are positive integers")
        step_up = sympy.piecewise_fold(diameter.xreplace({n: n + big}) - diameter)
        if step_up.free_symbols - {n}:
            _reject(BudgetBeyond, "D(n + L) − D(n) has another symbol")
        # D(n + L) − D(n) on each class n = L·j + r, j ≥ 0 an integer: SymPy takes the integer j out of every
        # floor, ceiling and Mod, so a constant on every class shows it a function of n mod L alone.
        j = sympy.Symbol("j", integer=True, nonnegative=True)
        ups = {}
        for r in range(big):
            on = sympy.expand(sympy.piecewise_fold(step_up.xreplace({n: big * j + r})))
            if on.free_symbols:
                _reject(BudgetBeyond, f"D(n + {big}) − D(n) is not a function of n mod {big}")
            ups[r] = on
        for v in range(self.start, self.start + big):
            at = sympy.piecewise_fold(diameter.xreplace({n: sympy.Integer(v)}))
            up = ups[v % big]
            if not (isinstance(at, sympy.Integer) and at > self.budget):
                _reject(BudgetBeyond, f"D({v}) = {at} is not above the budget {self.budget}")
            if not (isinstance(up, sympy.Integer) and up >= 0):
                _reject(BudgetBeyond, f"D({v + big}) − D({v}) = {up} is not ≥ 0")
        for v in range(1, self.start):
            if self.range.xreplace({n: sympy.Integer(v)}) is not sympy.false:
                _reject(BudgetBeyond, f"the stated range holds (or is not decided) at n = {v}, below {self.start}")
        before = self.start - 1
        if before >= 1 and self.within.xreplace({n: sympy.Integer(before)}) is sympy.true:
            at = sympy.piecewise_fold(diameter.xreplace({n: sympy.Integer(before)}))
            if not (isinstance(at, sympy.Integer) and at <= self.budget):
                _reject(BudgetBeyond, f"the start {self.start} is not the least: D({before}) = {at} exceeds "
                                      f"{self.budget} too")

    def to_json(self) -> Any:
        return {"kind": self.kind, "budget": self.budget, "from": self.start, "modulus": self.modulus}


# ---------------------------------------------------------------------------------------------
# Dense heads with trainable offset biases (docs/theory.md §8, BIAS-LAYERS)

#: The trainable bias kinds whose class depends on the offset only (Lemma V^λ of §11.10 covers them).
OFFSET_BIAS_KINDS = ("toeplitz", "circulant", "symmetric toeplitz", "symmetric circulant")
#: At or below this many tokens, BIAS-LAYERS decides one layer against two over all of S_n.
DENSE_BIAS_BRUTE_FORCE_N = 6
#: Lengths up to which the heads' joint classes of the offsets are enumerated (Theorem F136, docs/theory.md §16.5).
JOINT_LABELS_MAX_N = 100_000


def joint_labels(kinds: tuple, n: int, m: int) -> tuple:
    """The classes of offset m in every biased head (each kind a function of the offset at n)."""
    return tuple(bias_class(k, n, 0, m) for k in kinds)


def joint_injective(kinds: tuple, n: int) -> bool:
    """Whether the joint classes of the offsets −(n − 1), …, n − 1 are pairwise different."""
    return len({joint_labels(kinds, n, m) for m in range(-(n - 1), n)}) == 2 * n - 1


#: Lengths up to which the rows' class multisets are compared (Theorem F162, docs/theory.md §8).
ROW_CLASSES_MAX_N = 1024


def row_class_candidates(kinds: tuple, n: int):
    """Theorem F162 (docs/theory.md §8, BIAS-LAYERS): the permutations σ ≠ id that keep the labels of some row of dense
    heads whose classes are functions of the offset, one per kind of reason, as (i, σ) with σ as an image tuple. Row i
    sees the offsets O_i = {1 − i, …, n − i}; a σ with σ(i) = j keeps row i's labels exactly when δ ↦ σ(i + δ) − j maps
    O_i onto O_j keeping every joint class, so one exists iff the two rows have equal multisets of joint classes, and
    it is not the identity iff j ≠ i or a class meets O_i twice. Yields a swap of two keys of row i in one class, and,
    for two rows with equal class sets (every class once in each), the matching σ; nothing when one layer suffices."""
    labels = {m: joint_labels(kinds, n, m) for m in range(-(n - 1), n)}
    seen_rows: dict = {}
    for i in range(1, n + 1):
        where: dict = {}
        for u in range(1, n + 1):
            where.setdefault(labels[u - i], []).append(u)
        twice = next((keys for keys in where.values() if len(keys) > 1), None)
        if twice is not None:
            a, b = twice[0], twice[1]
            image = list(range(1, n + 1))
            image[a - 1], image[b - 1] = b, a
            yield i, tuple(image)
            continue
        key = frozenset(where)
        j = seen_rows.setdefault(key, i)
        if j != i:  # rows j < i see every class once, the same classes: σ maps j + δ to the key of i in its class
            image = [0] * n
            for u in range(1, n + 1):
                image[u - 1] = where[labels[u - j]][0]
            yield j, tuple(image)


def keeps_row_labels(kinds: Sequence[str], n: int, perm: Sequence[int], i: int) -> bool:
    """σ (perm[p - 1] = σ(p)) keeps every biased dense head's labels into row i: class(σi, σu) =
    class(i, u) for every key u. This is the one-layer labelled witness condition (§11.10, D = 1)."""
    s = perm
    return all(bias_class(k, n, s[i - 1], s[u - 1]) == bias_class(k, n, i, u)
               for k in kinds for u in range(1, n + 1))


def keeps_all_labels(kinds: Sequence[str], n: int, perm: Sequence[int]) -> bool:
    """σ keeps every biased dense head's labels in every row: σ is in the family's group."""
    return all(keeps_row_labels(kinds, n, perm, i) for i in range(1, n + 1))


def parity_kinds(kinds: tuple) -> bool:
    """Theorem F177's heads: `circulant` and `symmetric toeplitz` among the biased dense heads, the others
    `symmetric circulant` (its class is a function of m mod n)."""
    return "circulant" in kinds and "symmetric toeplitz" in kinds and \
        set(kinds) <= {"circulant", "symmetric toeplitz", "symmetric circulant"}


def parity_layers(n) -> sympy.Expr:
    """One layer at odd n, two at even n (Theorem F177)."""
    return sympy.Piecewise((1, sympy.Eq(sympy.Mod(n, 2), 1)), (2, True))


@dataclass(frozen=True)
class DenseBiasLayers(Certificate):
    """The least number of layers (1 or 2) of dense heads whose biases are trainable and depend on the
    offset, at least one of them symmetric (docs/theory.md §8, BIAS-LAYERS).

    `reason` says how the count is shown:
    - "injective": some head has a `free` or `toeplitz` bias, whose classes are pairwise different in
      every row: that head alone separates every σ ≠ id in one layer, so 1 layer (the group is trivial);
    - "encoding": an absolute positional encoding (no labelled witness, §11.10): 1 layer;
    - "exhaustive": n ≤ DENSE_BIAS_BRUTE_FORCE_N, every σ ∈ S_n tried: 2 layers with the `witness` σ found
      (it keeps row i's labels and breaks some label), else 1;
    - "witness": the transposition σ = (a b) with i, and a position v whose arcs to a and b carry
      different labels: σ keeps row i's labels (so one layer cannot separate X from σX at i) and is
      not in G. At symbolic n the witness is stated for n ≥ `low` and checked at every n from `low` to
      `low` + 40 (its proof is §8's);
    - "sufficient": two layers, not shown least (D + 1 with D = 1: the depth-2 view is the whole
      labelled sample, Lemma V^λ);
    - "row classes": n ≤ ROW_CLASSES_MAX_N (Theorem F162): no σ ≠ id keeps any row's labels (the rows' joint class
      multisets compared), 1 layer; or the `witness` (i, σ) keeps row i's labels and leaves the group, 2.

    `fixed`: the proved TD-FIXEDBIAS steps (Lemma E, docs/theory.md §16.2) of heads with a fixed even
    position term; each such head labels (i, u) by |u − i|, so `kinds` then holds `symmetric toeplitz`
    for them, and the count is decided by "exhaustive" or "witness" alone (two layers suffice by
    Lemma E, the group being the reflection)."""

    kinds: tuple  # the bias kinds of the biased heads (a fixed even head counts as `symmetric toeplitz`, T5 buckets
    # as `buckets(B, D)`, or `toeplitz` where every offset has its own bucket)
    n: Any  # int, or the token symbol
    layers: Any  # 1 or 2; by parity of n (a Piecewise) for the reason "parity"
    least: bool
    reason: str
    witness: Optional[tuple] = None  # concrete: (i, permutation tuple); symbolic: (i, a, b, v) in n
    low: Optional[int] = None
    fixed: tuple = ()  # the TD-FIXEDBIAS steps with the fact fixed_even (Lemma E)
    kind = "dense-bias-layers"

    def check(self) -> None:
        kinds = tuple(self.kinds)
        if not kinds or any(k not in OFFSET_BIAS_KINDS + ("free",) and bucket_kind(k) is None for k in kinds):
            _reject(DenseBiasLayers, f"the bias kinds {kinds} are not trainable bias kinds")
        if self.fixed:
            self._check_fixed(kinds)
        if self.reason == "injective":
            if not (set(kinds) & {"free", "toeplitz"}) or (self.layers, self.least) != (1, True):
                _reject(DenseBiasLayers, "one layer by an injective head needs a `free` or `toeplitz` head")
            return
        if "free" in kinds:
            _reject(DenseBiasLayers, "Lemma V^λ does not cover a `free` bias")
        if self.reason == "encoding":
            if (self.layers, self.least) != (1, True):
                _reject(DenseBiasLayers, "an absolute encoding gives one layer")
            return
        if self.reason == "sufficient":
            if self.layers != 2 or self.least:
                _reject(DenseBiasLayers, "D + 1 = 2 layers suffice; they are not shown least")
            return
        if self.reason == "exhaustive":
            self._check_exhaustive(kinds)
            return
        if self.reason == "witness":
            self._check_witness(kinds)
            return
        if self.reason == "joint":
            self._check_joint(kinds)
            return
        if self.reason == "row classes":
            self._check_row_classes(kinds)
            return
        if self.reason == "parity":
            self._check_parity(kinds)
            return
        _reject(DenseBiasLayers, f"unknown reason {self.reason!r}")

    def _check_parity(self, kinds: tuple) -> None:
        """Theorem F177 (docs/theory.md §8): `circulant` beside `symmetric toeplitz` (`symmetric circulant` heads
        allowed) at a symbolic n ≥ 3: one layer at odd n (the joint class (m mod n, |m|) names every offset), two,
        least, at even n (the rotation keeps row n/2)."""
        n = self.n
        if isinstance(n, int) or self.fixed or not parity_kinds(kinds):
            _reject(DenseBiasLayers, "the count by parity is for `circulant` beside `symmetric toeplitz` at a "
                    "symbolic n")
        if not self.least or self.low != 3 or not isinstance(self.layers, sympy.Basic) or \
                sympy.simplify(self.layers - parity_layers(n)) != 0:
            _reject(DenseBiasLayers, "the count by parity is one layer at odd n and two at even n, least, from n = 3")

    def _check_row_classes(self, kinds: tuple) -> None:
        """Theorem F162: at a concrete n, one layer when no σ ≠ id keeps the labels of any row (the rows' class
        multisets, recomputed); two layers, least, with a witness σ keeping row i's labels and leaving the group."""
        n = self.n
        if not isinstance(n, int) or n > ROW_CLASSES_MAX_N or not self.least or self.fixed:
            _reject(DenseBiasLayers, "the rows' classes are compared at a concrete n up to the limit, trainable kinds")
        if self.layers == 1:
            found = next(row_class_candidates(kinds, n), None)
            if found is not None:
                _reject(DenseBiasLayers, f"σ = {found[1]} keeps row {found[0]}'s labels: one layer is not shown")
            return
        if self.layers != 2 or self.witness is None:
            raise CertificateRejected("DenseBiasLayers: two layers, least, need a witness")
        i, perm = self.witness
        if sorted(perm) != list(range(1, n + 1)):
            _reject(DenseBiasLayers, "the witness is not a permutation")
        if not keeps_row_labels(kinds, n, perm, i) or keeps_all_labels(kinds, n, perm):
            _reject(DenseBiasLayers, "the witness does not keep row i's labels while leaving the group")

    def _check_joint(self, kinds: tuple) -> None:
        """Theorem F136: beside a T5 bucket head, the joint classes tell every offset apart at n: one layer."""
        n = self.n
        if not any(bucket_kind(k) for k in kinds) or self.fixed:
            _reject(DenseBiasLayers, "the joint classes decide dense heads beside a T5 bucket head")
        if (self.layers, self.least) != (1, True):
            _reject(DenseBiasLayers, "joint classes that name every offset give one layer, least")
        if not isinstance(n, int):
            # Theorem F142: a bucket keeps the sign, `symmetric toeplitz` gives |m|, and no other kind: (sign, |m|) = m
            if "symmetric toeplitz" not in kinds or not all(bucket_kind(k) or k == "symmetric toeplitz" for k in kinds):
                _reject(DenseBiasLayers, "at a symbolic n the joint classes name every offset only beside `symmetric "
                        "toeplitz`, with offset-only kinds")
            return
        if n > JOINT_LABELS_MAX_N:
            _reject(DenseBiasLayers, "joint classes are enumerated at a concrete n up to the limit")
        if not joint_injective(kinds, n):
            _reject(DenseBiasLayers, f"two offsets share every head's class at n = {n}")

    def _check_fixed(self, kinds: tuple) -> None:
        """Fixed even heads: each rests on a proved Lemma E step; the labels are symmetric Toeplitz
        classes next to symmetric trainable ones (the group is the reflection), and the count is decided
        by the labels alone."""
        for step in self.fixed:
            if not proof.is_step(step) or step.rule != "TD-FIXEDBIAS" or step.status is not Status.PROVED or \
                    step.facts.get("fixed_even") is not True:
                _reject(DenseBiasLayers, "a fixed even head needs its proved TD-FIXEDBIAS step (Lemma E)")
        if "symmetric toeplitz" not in kinds or not set(kinds) <= {"symmetric toeplitz", "symmetric circulant"}:
            _reject(DenseBiasLayers, "fixed even heads label by |u − i| and sit beside symmetric biases only")
        if self.reason not in ("exhaustive", "witness"):
            _reject(DenseBiasLayers, f"with fixed even heads the count is decided by the labels, not {self.reason!r}")

    def _check_exhaustive(self, kinds: tuple) -> None:
        from itertools import permutations
        n = self.n
        if not isinstance(n, int) or n > DENSE_BIAS_BRUTE_FORCE_N or not self.least:
            _reject(DenseBiasLayers, "an exhaustive decision is made at a small concrete n")
        if self.layers == 2:
            if self.witness is None:
                raise CertificateRejected("DenseBiasLayers: two layers least needs a witness")
            i, perm = self.witness
            if sorted(perm) != list(range(1, n + 1)):
                _reject(DenseBiasLayers, "the witness is not a permutation")
            if not keeps_row_labels(kinds, n, perm, i) or keeps_all_labels(kinds, n, perm):
                _reject(DenseBiasLayers, "the witness does not keep row i's labels while leaving the group")
            return
        if self.layers != 1:
            _reject(DenseBiasLayers, "one layer or two")
        for perm in permutations(range(1, n + 1)):
            for i in range(1, n + 1):
                if keeps_row_labels(kinds, n, perm, i) and not keeps_all_labels(kinds, n, perm):
                    _reject(DenseBiasLayers, f"σ = {perm} keeps row {i}'s labels and is not in the group")

    def _check_witness(self, kinds: tuple) -> None:
        witness, low = self.witness, self.low
        if self.layers != 2 or not self.least or witness is None or low is None:
            raise CertificateRejected("DenseBiasLayers: a witness gives two layers, least, from its range on")
        if isinstance(self.n, int):
            values = [self.n] if self.n >= low else []
        else:
            values = list(range(low, low + 41))
        if not values:
            _reject(DenseBiasLayers, f"n = {self.n} is below the witness's range n ≥ {low}")
        for n in values:
            i, a, b, v = (int(p.subs(self.n, n)) if isinstance(p, sympy.Basic) else int(p) for p in witness)
            if len({i, a, b}) != 3 or len({a, b, v}) != 3 or not all(1 <= p <= n for p in (i, a, b, v)):
                _reject(DenseBiasLayers, f"n = {n}: the positions i, a, b, v are not valid")
            # σ = (a b) keeps row i's labels: only the keys a and b move, so their classes from i must agree (σ is
            # not listed: n may be 10⁹).
            if any(bias_class(k, n, i, a) != bias_class(k, n, i, b) for k in kinds):
                _reject(DenseBiasLayers, f"n = {n}: row {i} tells key {a} from key {b}")
            # σ ∉ G: the arc v → a goes to v → b with another label in some head.
            if all(bias_class(k, n, v, a) == bias_class(k, n, v, b) for k in kinds):
                _reject(DenseBiasLayers, f"n = {n}: position {v} does not tell {a} from {b}")

    def to_json(self) -> Any:
        out: dict = {"kind": self.kind, "bias kinds": list(self.kinds), "n": _exact(self.n), "layers": _exact(self.layers),
                     "least": self.least, "reason": self.reason}
        if self.witness is not None:
            if self.reason in ("exhaustive", "row classes"):
                out["witness"] = {"i": self.witness[0], "permutation": list(self.witness[1])}
            else:
                out["witness"] = {k: _exact(p) for k, p in zip(("i", "a", "b", "v"), self.witness)}
        if self.low is not None:
            out["range"] = f"n ≥ {self.low}"
        if self.fixed:
            out["fixed even heads"] = len(self.fixed)
        return out
