"""Pieces of claims that several rules share, as typed claim parts (uapcheck/claim.py): the formula
stays mathematics for the LaTeX and Markdown printers, the wording is the text printer's."""
from __future__ import annotations

import sympy

from ..claim import Claim, Formula, Written, claim, group, math, written

SUM_TARGET_TEXT = "F(X)_k = x_1 + ... + x_n at every position k"
SUM_TARGET: Claim = claim(written("F(X)_k = x_1 + ... + x_n", r"F(X)_{k} = x_{1} + \dots + x_{n}"),
                          " at every position k")


def token(j) -> Formula:
    """The token x_j at position j (an int or a SymPy expression)."""
    text = str(j) if isinstance(j, int) else sympy.sstr(j)
    return math(sympy.Symbol(f"x_{{{sympy.latex(j)}}}" if not isinstance(j, int) else f"x_{j}"), f"x_{text}")


def value(v) -> Formula:
    """An exact value (a layer count, a diameter, a position), as SymPy prints it in text."""
    return math(v, str(v) if isinstance(v, int) else sympy.sstr(v))


X_J = math(sympy.Symbol("x_j"))
S_N = group("S_n")


def group_is(info, lhs: str = "G") -> Claim:
    """`G = S_n`, or `G = a group of order N` for a group known by its order alone."""
    name = info if isinstance(info, str) else info.name
    if name:
        return claim(group(name, lhs))
    order = info.order
    if isinstance(order, (int, sympy.Basic)) and not isinstance(order, bool):
        return claim(f"{lhs} = a group of order ", value(order))
    return claim(f"{lhs} = a group of order {order}")


def sign(symbol, positive: bool, text: str | None = None) -> Formula:
    """`symbol > 0` or `symbol < 0` (a sign region's inequality), worded as `f"{symbol} > 0"`."""
    relation = sympy.StrictGreaterThan if positive else sympy.StrictLessThan
    word = f"{symbol if text is None else text} {'>' if positive else '<'} 0"
    return Formula(relation(symbol, sympy.Integer(0), evaluate=False), word)


def vanishes(expr, text: str | None = None) -> Formula:
    """`expr = 0`, worded as `f"{expr} = 0"`."""
    return Formula(sympy.Eq(expr, sympy.Integer(0), evaluate=False), f"{expr if text is None else text} = 0")


def listed(parts, sep: str = ", ") -> Claim:
    """Parts joined with `sep`."""
    out: list = []
    for k, part in enumerate(parts):
        if k:
            out.append(sep)
        out.append(part)
    return claim(*out)


Z_N = written("Z_n", r"\mathbb{Z}_{n}")
C_N = group("C_n")


def shifted_token(text: str, latex: str) -> Written:
    """A token at a shifted position, x_(i+s): its wording and its LaTeX subscript."""
    return written(f"x_({text})", f"x_{{{latex}}}")


W_Q = written("W_Q", "W_{Q}")
W_K = written("W_K", "W_{K}")
W_V = written("W_V", "W_{V}")
ZERO_SCORES = written("W_Q = W_K = 0", "W_{Q} = W_{K} = 0")
