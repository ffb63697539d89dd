"""Groups named by their structure, and group orders printed in a bounded form.

* ``order_text``: an order as an int when it is short (at most ``SHORT_DIGITS`` digits), else as a
  string: factorials as ``k!`` (``65535!``, ``2 · 62!``), a plain long integer as ``≈ 10^k``. No
  digit string of a huge integer is ever built (Python refuses those above 4,300 digits).
* ``position_set``: ``{1, 2}``, ``{3, …, 64}``, ``{2, 4, …, 64}``, or the first few and a count.
* ``structure_name``: the product of the symmetric groups on the twin classes (positions that every
  symmetry may exchange freely), e.g. ``S_2 on {1, 2} × S_62 on {3, …, 64}``, and the part that
  permutes the classes, named when it is the reflection or trivial.
"""
from __future__ import annotations

import math
import re
from typing import Optional, Sequence, Union

SHORT_DIGITS = 24


def _digits_upper(k: int) -> int:
    """An upper bound on the number of decimal digits of k > 0, from its bit length."""
    return int(k.bit_length() * 0.30103) + 1


def _power_of_ten(k: int) -> str:
    # log10 from the top bits: exact to the printed integer part for any size
    shift = max(0, k.bit_length() - 64)
    exponent = math.log10(k >> shift) + shift * math.log10(2)
    return f"≈ 10^{int(exponent)}"


def order_text(order) -> Union[int, str]:
    """The order as an int when short, else a bounded string (never a 200-digit number)."""
    import sympy

    if isinstance(order, sympy.Basic) and order.is_Integer:
        order = int(order)
    if isinstance(order, int):
        if order <= 0 or _digits_upper(order) <= SHORT_DIGITS:
            return order
        return _power_of_ten(order)
    if isinstance(order, sympy.Basic):
        try:
            text = sympy.sstr(order)
        except ValueError:  # an integer factor of more than 4300 digits (e.g. 2^1000000): show it bounded
            from ..bignum import MAX_DIGITS_SHOWN, show_int
            big = {i: sympy.Symbol(show_int(int(i))) for i in order.atoms(sympy.Integer)
                   if abs(i) >= 10 ** MAX_DIGITS_SHOWN}
            text = sympy.sstr(order.xreplace(big))
        text = re.sub(r"factorial\((\w+)\)", r"\1!", text)
        text = re.sub(r"factorial\(([^()]*)\)", r"(\1)!", text)
        return text.replace("*", " · ").replace(" ·  · ", "^")
    return str(order)


def position_set(points: Sequence[int]) -> str:
    """A set of 1-based positions, compactly: an interval, an arithmetic progression, or a prefix."""
    pts = sorted(points)
    if not pts:
        return "∅"
    if len(pts) <= 3:
        return "{" + ", ".join(map(str, pts)) + "}"
    step = pts[1] - pts[0]
    if all(b - a == step for a, b in zip(pts, pts[1:])):
        if step == 1:
            return f"{{{pts[0]}, …, {pts[-1]}}}"
        return f"{{{pts[0]}, {pts[1]}, …, {pts[-1]}}}"
    head = ", ".join(map(str, pts[:4]))
    return f"{{{head}, …}} ({len(pts)} positions)"


def structure_name(n: int, classes: Sequence[Sequence[int]], quotient_order: int,
                   quotient_is_reflection: bool = False) -> Optional[str]:
    """G = ∏ Sym(C) over the twin classes C, extended by the quotient group permuting classes.

    ``classes`` are 0-based twin classes (positions u, v with (u v) ∈ G). Returns None when there is
    nothing to say beyond a standard name (no twin class of size ≥ 2 and a trivial quotient).
    """
    factors = []
    big = sorted((m for m in classes if len(m) > 1), key=lambda m: m[0])
    by_size: dict[int, list] = {}
    for members in big:
        by_size.setdefault(len(members), []).append(members)
    for members in big:
        same = by_size[len(members)]
        if len(same) > 3:
            if members is same[0]:  # many classes of one size: one factor (S_k)^c
                covered = sorted(v + 1 for m in same for v in m)
                factors.append(f"(S_{len(members)})^{len(same)} on {len(same)} classes of {len(members)} "
                               f"positions covering {position_set(covered)}")
            continue
        factors.append(f"S_{len(members)} on {position_set([v + 1 for v in members])}")
    if quotient_order == 1:
        return " × ".join(factors) if factors else None
    singles = [m[0] + 1 for m in classes if len(m) == 1]
    if quotient_is_reflection and len(singles) == sum(len(m) for m in classes if len(m) == 1):
        rest = "the reflection" + (f" of {position_set(singles)}" if factors else "")
        return " × ".join(factors + [rest])
    q = order_text(quotient_order)
    what = f"a group of order {q} permuting the {len(classes)} twin classes"
    if not factors:
        return None
    return "(" + " × ".join(factors) + ") ⋊ " + what


def factorial_order_text(classes: Sequence[Sequence[int]], quotient_order: int) -> Union[int, str]:
    """|G| = |Aut(quotient)| · ∏ |C|! as an int when short, else as a product of factorials."""
    sizes: dict[int, int] = {}
    for m in classes:
        if len(m) > 1:
            sizes[len(m)] = sizes.get(len(m), 0) + 1
    bits = quotient_order.bit_length() + sum(c * math.lgamma(k + 1) / math.log(2) for k, c in sizes.items())
    if bits * 0.30103 < SHORT_DIGITS - 1:
        total = quotient_order
        for k, c in sizes.items():
            total *= math.factorial(k) ** c
        return total
    parts = [] if quotient_order == 1 else [str(order_text(quotient_order))]
    for k in sorted(sizes, reverse=True):
        parts.append(f"{k}!" if sizes[k] == 1 else f"({k}!)^{sizes[k]}")
    return " · ".join(parts) or "1"
