"""Big integers: group orders such as 1559! or (10⁹)! are never materialised as decimal strings,
and factorials above a bound are never computed exactly.

* ``factorial``: SymPy's factorial, except that k! stays unevaluated (printed ``k!``) when k is an
  integer above ``MAX_EXACT_FACTORIAL``; comparisons and printing then work on the structure.
* ``show_int``: the decimal digits of an integer of at most ``MAX_DIGITS_SHOWN`` digits, else a
  bounded approximation ``≈ 2.35 × 10^4512`` computed from the bit length (never from ``str``).
* ``show_order``: a group order as printed (int, SymPy expression or text).
* ``json_order``: the order in the JSON contract: an exact int when it is printable, else text.
"""
from __future__ import annotations

import math
from typing import Union

import sympy

from .memo import exact_cache

MAX_EXACT_FACTORIAL = 20_000  # 20000! has 77,338 digits: still cheap to compute and compare
MAX_DIGITS_SHOWN = 1000  # well below Python's 4300-digit limit on int ↔ str conversion
#: b^e of integers stays unevaluated (printed ``2**1000000001``) above this many bits (20000! has about 257,000)
MAX_EXACT_POWER_BITS = 300_000


class factorial(sympy.factorial):  # noqa: N801 - a drop-in replacement for sympy.factorial
    """k! that is not computed for integers k > MAX_EXACT_FACTORIAL (it prints as ``k!``)."""

    @classmethod
    def eval(cls, n):  # safe: SymPy's Function.eval hook (no text is evaluated)
        if getattr(n, "is_Integer", False) and n > MAX_EXACT_FACTORIAL:
            return None
        return super().eval(n)  # safe: SymPy's Function.eval hook


def power(base, exp) -> sympy.Expr:
    """base^exp, unevaluated when both are integers and the value would have more than MAX_EXACT_POWER_BITS bits
    (2^(10⁹ + 1) is stated, never computed: 10⁹ bits and seconds of multiplication)."""
    b = sympy.Integer(base) if isinstance(base, int) else base
    e = sympy.Integer(exp) if isinstance(exp, int) else exp
    if b.is_Integer and e.is_Integer and e > 0 and abs(b) > 1 and \
            int(e) * int(abs(b)).bit_length() > MAX_EXACT_POWER_BITS:
        return sympy.Pow(b, e, evaluate=False)
    return b ** e


def product(*factors) -> sympy.Expr:
    """The product of `factors`, left unevaluated when one is a power that `power` kept unevaluated (SymPy's Mul would
    compute it while collecting the numeric coefficient)."""
    if any(isinstance(f, sympy.Pow) and f.base.is_Integer and f.exp.is_Integer for f in factors):
        return sympy.Mul(*factors, evaluate=False)
    return sympy.Mul(*factors)


def _log10(n: int) -> float:
    """log10 of a positive int of any size, from its leading 64 bits and its bit length."""
    bits = n.bit_length()
    if bits <= 1000:
        return math.log10(n)
    shift = bits - 64
    return math.log10(n >> shift) + shift * math.log10(2)


def digits(n: int) -> int:
    """The number of decimal digits of |n| (exactly, without converting to a string)."""
    n = abs(n)
    if n == 0:
        return 1
    guess = int(_log10(n))
    # The float is within one of floor(log10 n); settle it with an exact comparison.
    if n >= 10 ** (guess + 1):
        guess += 1
    elif n < 10 ** guess:
        guess -= 1
    return guess + 1


def show_int(n: int) -> str:
    if abs(n) < 10 ** MAX_DIGITS_SHOWN:
        return str(n)
    lg = _log10(abs(n))
    exponent = math.floor(lg)
    mantissa = 10 ** (lg - exponent)
    if mantissa >= 9.995:  # rounding would print 10.00
        mantissa, exponent = 1.0, exponent + 1
    return f"{'-' if n < 0 else ''}≈ {mantissa:.2f} × 10^{exponent}"


def show_order(order: Union[int, str, sympy.Basic, None]) -> str:
    if order is None:
        return "unknown"
    if isinstance(order, bool):
        return str(order)
    if isinstance(order, int):
        return show_int(order)
    if isinstance(order, sympy.Integer):
        return show_int(int(order))
    if isinstance(order, sympy.Basic):
        try:
            return sympy.sstr(order)
        except ValueError:
            return "(an order too large to print)"
    return str(order)


@exact_cache(maxsize=1024)  # a function of the order alone (each caller gets its own copy of the pieces)
def json_order(order):
    """A group order in the JSON contract (docs/language.md §8, "Orders"): an int if it prints in at most
    MAX_DIGITS_SHOWN digits, else its bounded text "≈ m × 10^e"; a symbolic order in the order notation
    (groups.order_text: "2 · n", "n!", "(n − 1)!"); a Piecewise as its pieces, [{"modulus": L, "residues":
    [r, …], "order": …}, …] (or {"condition": words, "order": …} for a piece that is no residue class). Text
    (an order already in words) and the certificates' expression trees (dicts) pass unchanged."""
    if isinstance(order, sympy.Integer):
        order = int(order)
    if isinstance(order, int) and not isinstance(order, bool):
        return order if abs(order) < 10 ** MAX_DIGITS_SHOWN else show_int(order)
    if isinstance(order, sympy.Piecewise):
        from .groups import order_pieces
        return [{**piece, "order": json_order(piece["order"])} for piece in order_pieces(order)]
    if isinstance(order, sympy.Basic):
        from .groups import order_text
        return order_text(order)
    if isinstance(order, list):  # pieces already by class (groups.GroupInfo.order_value)
        return [{**piece, "order": json_order(piece["order"])} if isinstance(piece, dict) and "order" in piece
                else piece for piece in order]
    return order


#: BLISS's splitting heuristic, for every count, generator list and canonical labelling the engines ask for.
#: python-igraph 1.0's BLISS undercounts some directed graphs under the "maximally connected" heuristics (fm, flm,
#: fsm): the arc-coloured union of dilated(2, 4) | star at n = 54 counts 4 with them and 16 with f, fl and fs (16 maps
#: keep both heads, and nauty counts 16); dilated(2, 5) | star at n = 68 counts 16 where the group has 64.
BLISS_SPLITTING = "fl"
#: A second heuristic every count up to CROSS_CHECK_VERTICES vertices is repeated with; the counts must agree.
BLISS_CHECK_SPLITTING = "fs"
CROSS_CHECK_VERTICES = 20_000


class AutomorphismCountsDisagree(RuntimeError):
    """BLISS's counts under two splitting heuristics differ: the group's order is not established."""


def count_automorphisms(graph, color=None) -> int:
    """|Aut| of a python-igraph graph (BLISS, with vertex colours `color`) as an exact int of any size: counted with
    BLISS_SPLITTING, and on graphs up to CROSS_CHECK_VERTICES vertices once more with BLISS_CHECK_SPLITTING (a count
    that differs raises AutomorphismCountsDisagree: the order is then undecided, never a guess).

    BLISS is run on an undirected graph (uapcheck/bliss.py: a directed graph is encoded, since python-igraph's
    BLISS undercounts or crashes on some directed ones). python-igraph passes BLISS's count through its decimal
    string, which Python refuses above 4,300 digits (a complete graph on 1,600 positions already has more); the
    limit is lifted for that one conversion. The callers bound the graphs (rooted views and quotients on at most a few thousand
    vertices), so the string stays small enough to convert quickly."""
    from . import bliss

    splittings: tuple[str, ...] = (BLISS_SPLITTING,)
    if graph.vcount() <= CROSS_CHECK_VERTICES:
        splittings += (BLISS_CHECK_SPLITTING,)
    count, *again = bliss.counts(graph, color, splittings)   # the graph encoded once for both counts
    if again and again[0] != count:
        raise AutomorphismCountsDisagree(
            f"BLISS counts {show_int(count)} automorphisms with the splitting heuristic {BLISS_SPLITTING!r} and "
            f"{show_int(again[0])} with {BLISS_CHECK_SPLITTING!r} on a graph of {graph.vcount()} vertices: the "
            "group's order is not established")
    return count
