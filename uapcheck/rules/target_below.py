"""The lengths below a causal-window closed form whose range has params (docs/theory.md §14.7, *the lengths below
the range*; TGT-BELOW).

A causal window of width w with k ≥ 0 attention sinks has r = ⌈(n − k − 1)/w⌉ layers, the least, for
n ≥ max(k + w + 2, 2k) (§14.7). When w or k is a param that bound is not a number, so the lengths below it cannot
be derived one by one; they are decided here in closed form instead: 1 layer for n ≤ 2, and max(2, ⌈(k − 1)/w⌉)
layers for 3 ≤ n < max(k + w + 2, 2k), each the least (plain heads, no positional encoding). The certificate
re-derives the pieces from (w, k) and checks the lemma's count against the exact receptive search
(graphs.receptive) at small instances of (w, k).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Union

import sympy

from .. import proof
from .. import spec as S
from ..claim import claim, written
from ..show import show_size
from .wording import value

Size = Union[int, sympy.Expr]
# the values of a param width or sink count at which the certificate compares the lemma with the receptive search,
# at every length below the range up to INSTANCE_MAX_N (an integer w or k is kept)
INSTANCE_VALUES = (1, 2, 3, 4)
INSTANCE_MAX_N = 9


def _symbol(term) -> Size:
    return sympy.Symbol(term, integer=True, positive=True) if isinstance(term, str) else term


def window_start(w: Size, k: Size) -> Size:
    """max(k + w + 2, 2k): the first n of the closed form (§14.7); w + 2 without sinks."""
    if isinstance(w, int) and isinstance(k, int):
        return max(k + w + 2, 2 * k)
    return w + 2 if k == 0 else sympy.Max(k + w + 2, 2 * k)


def short_count(w: Size, k: Size) -> Size:
    """max(2, ⌈(k − 1)/w⌉): the least layers at 3 ≤ n < max(k + w + 2, 2k) (2 when k ≤ 2, since then ⌈(k − 1)/w⌉ ≤ 1)."""
    if isinstance(k, int) and k <= 2:
        return 2
    if isinstance(w, int) and isinstance(k, int):
        return max(2, -(-(k - 1) // w))
    return sympy.Max(2, sympy.ceiling((k - 1) / sympy.Integer(w) if isinstance(w, int) else (k - 1) / w))


def least_at(w: int, k: int, n: int) -> int:
    """The lemma's least count at one length n ≥ max(k, 1): 1 for n ≤ 2, else max(2, ⌈(k − 1)/w⌉, ⌈(n − k − 1)/w⌉)."""
    return 1 if n <= 2 else max(2, -(-(k - 1) // w), -(-(n - k - 1) // w))


@dataclass(frozen=True)
class TargetPiece:
    """The lengths lower ≤ n < upper below a closed form's range, with their least count for causal targets."""
    lower: Size
    upper: Size
    layers: Size
    least: bool = True
    symbol: str = field(default="n", compare=False)  # the file's name for the length (`tokens N`), in the words only

    def condition(self) -> str:
        """"n ≤ 2" or "3 ≤ n < max(2·k, k + w + 2)"."""
        n = self.symbol
        if isinstance(self.lower, int) and isinstance(self.upper, int) and self.upper == self.lower + 1:
            return f"{n} = {self.lower}"
        if self.lower == 1 and isinstance(self.upper, int):
            return f"{n} ≤ {self.upper - 1}"
        return f"{show_size(self.lower)} ≤ {n} < {show_size(self.upper)}"

    def condition_latex(self) -> str:
        n = self.symbol
        if isinstance(self.lower, int) and isinstance(self.upper, int) and self.upper == self.lower + 1:
            return rf"{n} = {self.lower}"
        if self.lower == 1 and isinstance(self.upper, int):
            return rf"{n} \leq {self.upper - 1}"
        return rf"{sympy.latex(self.lower)} \leq {n} < {sympy.latex(self.upper)}"

    def words(self) -> str:
        """"3 ≤ n < max(2·k, k + w + 2): max(2, ⌈(k - 1)/w⌉) layers"."""
        lay = self.layers if isinstance(self.layers, int) else show_size(self.layers)
        least = "" if self.least else " (sufficient, not shown least)"
        return f"{self.condition()}: {lay} layer{'' if self.layers == 1 else 's'}{least}"

    def to_json(self) -> dict:
        def out(v):
            return v if isinstance(v, int) else sympy.sstr(v)
        return {"condition": self.condition(), "from": out(self.lower), "below": out(self.upper),
                "layers": out(self.layers), "least": self.least}


def least_sinks(k, lower: int = 1) -> int:
    """The least sink count the file allows: k itself when it is an integer, else its param's bound `lower`."""
    return k if isinstance(k, int) else lower


def window_pieces(w, k, k_lower: int = 1) -> tuple[TargetPiece, ...]:
    """The lengths below the range of a causal window of width w with k ≥ 0 sinks (ints or param names), with their
    least counts (§14.7, *the lengths below the range*). `k_lower`: the least value of a param k (`integer >= K`).
    A length is at least the number of sinks, so the lengths below the least allowed k are not lengths the file
    allows: n ≤ 2 is stated only when some allowed k is ≤ 2, and the second piece starts at the least allowed k when
    that is above 3 (`window(w) + sinks(6)` at n: 6 ≤ n < max(12, w + 8))."""
    least = least_sinks(k, k_lower)
    w, k = _symbol(w), _symbol(k)
    upper = (TargetPiece(max(3, least), window_start(w, k), short_count(w, k)),)
    return upper if least >= 3 else (TargetPiece(1, 3, 1), *upper)


def _same(a, b) -> bool:
    return a == b or sympy.simplify(sympy.sympify(a, strict=True) - sympy.sympify(b, strict=True)) == 0  # safe: strict


def _instance_pattern(w: int, k: int) -> S.Pattern:
    base = S.PatternIntersection((S.Causal(), S.Window(w)))
    return S.PatternUnion((base, S.Sinks(k))) if k else base


def _search_least(w: int, k: int, n: int) -> int:
    """The least layers at n by the exact receptive search on the graph (the closed forms are not used)."""
    from ..graphs import build_graph
    from ..graphs.receptive import causal_exact, receptive_fields, search
    graphs = [build_graph(_instance_pattern(w, k), n, {})]
    rec = receptive_fields(graphs)
    found = causal_exact(graphs, rec) or search(graphs, rec, None)
    if not found.least:
        raise proof.CertificateRejected(f"WindowBelowRange: the receptive search does not decide n = {n}")
    return found.layers


@dataclass(frozen=True)
class WindowBelowRange(proof.Certificate):
    """The lengths below the range of `causal & window(w) + sinks(k)` (k = 0: no sinks) at symbolic n, with params.

    The check: the pieces are window_pieces(w, k) (the lemma of §14.7), they partition 1 ≤ n < max(k + w + 2, 2k)
    (consecutive, the last ending at the closed form's first n), and at every instance of a param w or k in
    INSTANCE_VALUES (an integer w or k kept), each length max(k, 1) ≤ n < the range (n ≤ 9) lies in exactly one piece whose count is the
    least found by the exact receptive search."""
    w: object  # an int or a param name
    k: object
    pieces: tuple
    k_lower: int = 1  # the least value of a param k
    kind = "window-below-range"

    def check(self) -> None:
        want = window_pieces(self.w, self.k, self.k_lower)
        if len(self.pieces) != len(want) or not all(
                _same(p.lower, q.lower) and _same(p.upper, q.upper) and _same(p.layers, q.layers) and p.least
                for p, q in zip(self.pieces, want)):
            raise proof.CertificateRejected("WindowBelowRange: the pieces are not the lemma's (§14.7)")
        start = window_start(_symbol(self.w), _symbol(self.k))
        bounds = [p.lower for p in self.pieces] + [start]
        first = least_sinks(self.k, self.k_lower)
        if bounds[0] != (1 if first < 3 else first) or not all(_same(p.upper, b) for p, b in zip(self.pieces, bounds[1:])):
            raise proof.CertificateRejected("WindowBelowRange: the pieces do not partition the lengths below the range")
        for w in (self.w,) if isinstance(self.w, int) else INSTANCE_VALUES:
            for k in (self.k,) if isinstance(self.k, int) else [v for v in INSTANCE_VALUES if v >= self.k_lower]:
                self._check_instance(w, k)

    def _check_instance(self, w: int, k: int) -> None:
        values = {sympy.Symbol(name, integer=True, positive=True): v
                  for name, v in ((self.w, w), (self.k, k)) if isinstance(name, str)}

        def at(e) -> int:
            return e if isinstance(e, int) else int(sympy.sympify(e, strict=True).xreplace(values))  # safe: strict
        for n in range(max(k, 1), min(window_start(w, k), INSTANCE_MAX_N + 1)):
            hits = [p for p in self.pieces if at(p.lower) <= n < at(p.upper)]
            truth = _search_least(w, k, n)
            if len(hits) != 1 or at(hits[0].layers) != truth:
                raise proof.CertificateRejected(f"WindowBelowRange: at w = {w}, k = {k}, n = {n} the least is {truth}")

    def to_json(self):
        return {"kind": self.kind, "w": self.w, "k": self.k, "k_lower": self.k_lower,
                "pieces": [p.to_json() for p in self.pieces]}


N_SMALL = written("n ≤ 2", r"n \leq 2")
N_THREE = written("n = 3", "n = 3")
CITE_BELOW = proof.derived("Definition 3", "Theorem 1", text=(
    "the causal window below its closed form's range: the receptive diameter there, the full causal mask when it is "
    "1, no receptive witness when it is ≥ 2, docs/theory.md §14.7"))


@proof.rule("TGT-BELOW", "The lengths below a causal window's range with params: least layers in closed form", CITE_BELOW,
            statuses=(proof.PROVED,), certificates=(WindowBelowRange,))
def below_step(layers: proof.Step, w, k, n: str, where: str, k_lower: int = 1) -> proof.Step:
    """`n`: the name of the symbolic length; `where`: the closed form's range ("n ≥ max(2·k, k + w + 2)");
    `k_lower`: the least value of a param k."""
    pieces = tuple(replace(p, symbol=n) for p in window_pieces(w, k, k_lower))
    parts: list = []
    for i, p in enumerate(pieces):
        parts += ([" and "] if i else []) + [value(p.layers), " for ", written(p.condition(), p.condition_latex())]
    w_, k_, n_ = _symbol(w), _symbol(k), sympy.Symbol(n, integer=True, positive=True)
    if k == 0:
        why = claim(" (there the window covers every earlier position: the full causal mask, 1 layer at ", N_SMALL,
                    " and 2 from ", N_THREE, ", §14.6)")
    else:
        radius = sympy.Max(sympy.ceiling((k_ - 1) / w_), sympy.ceiling((n_ - k_ - 1) / w_), 1)
        why = claim(" (every length is at least the number of sinks; the receptive diameter there is ", value(radius), ", at most ", value(sympy.Max(1, sympy.ceiling(
                    (k_ - 1) / w_))), "; diameter 1 is the full causal mask, 1 layer at ", N_SMALL, " and 2 from ", N_THREE,
                    ", §14.6; a diameter ", written("r ≥ 2", r"r \geq 2"), " has no receptive witness, so r layers, §14.7)")
    statement = claim("below the range ", written(where, where.replace("≥", r"\geq").replace("·", r"\cdot ")),
                      " the least numbers of attention layers for causal targets are ", *parts,
                      why)
    cert = WindowBelowRange(w, k, pieces, k_lower)
    return proof.conclude(statement, proof.PROVED, [layers],
                          evidence={"pieces": [p.words() for p in pieces], "w": w, "k": k, "range": where},
                          facts={"pieces": pieces}, certificate=cert)
