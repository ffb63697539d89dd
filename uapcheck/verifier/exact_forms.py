"""Closed forms the engine prints as text, read and compared exactly (docs/theory.md §18.1).

`closed_form` reads the two textual forms a certificate block uses for a value in n: the engine's display form
("8192 · 4^(⌊n/10⌋ − 4)", "2 · 5!") and SymPy's printed form ("ceiling(n/4)", "Max(6, s**2 + 1)",
"Piecewise((2*ceiling(n/4) - 2, Eq(Mod(n, 4), 1) | Eq(Mod(n, 4), 2)), (2*ceiling(n/4) - 1, True))"), by a small
parser of the verifier's own: numbers, the declared names, + − · × * / ^ ** !, parentheses, ⌊ ⌋, ⌈ ⌉, the
functions ceiling, floor, Mod, Max, Min, factorial, Piecewise, Eq, Ne, the comparisons, & and |. Nothing is
evaluated as code.

`equal_in_n` decides whether two such values in one integer symbol n agree on every n ≥ low, exactly: with M the
lcm of the moduli of their floors, ceilings and Mods (refined while one remains), and B a multiple of M above the
thresholds of their comparisons, each value is a polynomial (or exponential) expression in k on every class
n = M·(k + B/M) + r with k ≥ 0 an integer — every floor, ceiling, Mod and Piecewise condition is decided there —
and the finitely many n with low ≤ n < B are compared one by one.
"""
from __future__ import annotations

from math import lcm
from typing import Any, Optional

import sympy

MAX_TEXT = 4000
MAX_MODULUS = 240
MAX_BELOW = 1_000

_FUNCTIONS = {
    "ceiling": (1, lambda a: sympy.ceiling(a[0])),
    "floor": (1, lambda a: sympy.floor(a[0])),
    "Mod": (2, lambda a: sympy.Mod(a[0], a[1])),
    "Max": (None, lambda a: sympy.Max(*a)),
    "Min": (None, lambda a: sympy.Min(*a)),
    "Eq": (2, lambda a: sympy.Eq(a[0], a[1])),
    "Ne": (2, lambda a: sympy.Ne(a[0], a[1])),
    "factorial": (1, lambda a: _factorial(a[0])),
    "sqrt": (1, lambda a: sympy.sqrt(a[0])),
}
_CONSTANTS = {"True": sympy.true, "False": sympy.false}


class _ParseError(Exception):
    pass


def _factorial(value):
    if isinstance(value, sympy.Integer) and not 0 <= value <= 5000:
        raise _ParseError("factorial out of range")
    return sympy.factorial(value)


def closed_form(text: str, symbols: dict) -> Optional[Any]:
    """The exact value (an expression, or a condition) the text writes; None when it is not one read here."""
    if len(text) > MAX_TEXT:
        return None
    tokens = _tokens(text)
    if tokens is None:
        return None
    parser = _Parser(tokens, symbols)
    try:
        value = parser.condition()
    except (_ParseError, RecursionError, ValueError, TypeError, ZeroDivisionError, AttributeError):
        return None
    if parser.k != len(tokens) or isinstance(value, tuple):
        return None
    return value


_TWO = {"**": "^", ">=": ">=", "<=": "<=", "==": "=="}
_ONE = {"−": "-", "×": "*", "·": "*", "≥": ">=", "≤": "<="}


def _tokens(text: str) -> Optional[list]:
    out: list[tuple[str, Any]] = []
    k = 0
    while k < len(text):
        c = text[k]
        if c.isspace():
            k += 1
        elif c.isdigit():
            j = k
            while j < len(text) and text[j].isdigit():
                j += 1
            out.append(("num", int(text[k:j])))
            k = j
        elif c.isalpha() or c == "_":
            j = k
            while j < len(text) and (text[j].isalnum() or text[j] == "_"):
                j += 1
            out.append(("name", text[k:j]))
            k = j
        elif text[k:k + 2] in _TWO:
            out.append(("op", _TWO[text[k:k + 2]]))
            k += 2
        elif c in "+-−·×*/^!()⌊⌋⌈⌉,<>≥≤&|":
            out.append(("op", _ONE.get(c, c)))
            k += 1
        else:
            return None
    return out


_RELATIONS = {">=": sympy.Ge, "<=": sympy.Le, ">": sympy.Gt, "<": sympy.Lt, "==": sympy.Eq}


class _Parser:
    def __init__(self, tokens: list, symbols: dict):
        self.t, self.k, self.symbols = tokens, 0, symbols

    def _peek(self):
        return self.t[self.k] if self.k < len(self.t) else (None, None)

    def _take(self, op: str) -> bool:
        if self._peek() == ("op", op):
            self.k += 1
            return True
        return False

    def condition(self):
        value = self.conjunction()
        while self._take("|"):
            value = sympy.Or(value, self.conjunction())
        return value

    def conjunction(self):
        value = self.relation()
        while self._take("&"):
            value = sympy.And(value, self.relation())
        return value

    def relation(self):
        value = self.expr()
        kind, tok = self._peek()
        if kind == "op" and tok in _RELATIONS:
            self.k += 1
            return _RELATIONS[tok](value, self.expr())
        return value

    def expr(self):
        value = self.term()
        while True:
            if self._take("+"):
                value = value + self.term()
            elif self._take("-"):
                value = value - self.term()
            else:
                return value

    def term(self):
        value = self.unary()
        while True:
            if self._take("*"):
                value = value * self.unary()
            elif self._take("/"):
                value = value / self.unary()
            else:
                return value

    def unary(self):
        if self._take("-"):
            return -self.unary()
        base = self.postfix()
        if self._take("^"):
            exponent = self.unary()
            if isinstance(exponent, sympy.Integer) and abs(exponent) > 10_000:
                raise _ParseError("exponent too large")
            return sympy.Pow(base, exponent)
        return base

    def postfix(self):
        value = self.atom()
        while self._take("!"):
            value = _factorial(value)
        return value

    def _list(self, close: str) -> list:
        items = [self.condition()]
        while self._take(","):
            items.append(self.condition())
        if not self._take(close):
            raise _ParseError(f"missing {close}")
        return items

    def atom(self):
        kind, tok = self._peek()
        if kind == "num":
            self.k += 1
            return sympy.Integer(tok)
        if kind == "name":
            self.k += 1
            if tok in _CONSTANTS:
                return _CONSTANTS[tok]
            if self._peek() == ("op", "("):
                self.k += 1
                return self._call(tok, self._list(")"))
            if tok not in self.symbols:
                raise _ParseError(f"unknown name {tok}")
            return self.symbols[tok]
        if self._take("("):
            items = self._list(")")
            return items[0] if len(items) == 1 else tuple(items)
        for left, right, fn in (("⌊", "⌋", sympy.floor), ("⌈", "⌉", sympy.ceiling)):
            if self._take(left):
                value = self.expr()
                if not self._take(right):
                    raise _ParseError(f"missing {right}")
                return fn(value)
        raise _ParseError("unexpected token")

    def _call(self, name: str, args: list):
        if name == "Piecewise":
            if not all(isinstance(a, tuple) and len(a) == 2 for a in args):
                raise _ParseError("a Piecewise takes (value, condition) pairs")
            return sympy.Piecewise(*args)
        if name not in _FUNCTIONS or any(isinstance(a, tuple) for a in args):
            raise _ParseError(f"unknown function {name}")
        arity, build = _FUNCTIONS[name]
        if arity is not None and len(args) != arity:
            raise _ParseError(f"{name} takes {arity} arguments")
        return build(args)


# ---------------------------------------------------------------------------------------------
# Exact equality in one integer symbol

_PERIODIC = (sympy.floor, sympy.ceiling, sympy.Mod, sympy.frac)


def _modulus(expr, n) -> Optional[int]:
    """The lcm of the denominators that the floors, ceilings and Mods of expr apply to n; None: not read here."""
    m = 1
    for atom in expr.atoms(*_PERIODIC):
        for arg in atom.args:
            for q in arg.atoms(sympy.Rational):
                m = lcm(m, int(q.q))
        if isinstance(atom, sympy.Mod):
            if not atom.args[1].is_Integer or atom.args[1] == 0:
                return None
            m = lcm(m, abs(int(atom.args[1])))
    return m


def _threshold(expr, n) -> Optional[int]:
    """An integer above every threshold of the comparisons in expr (each linear in n); None: not read here."""
    top = 0
    for rel in expr.atoms(sympy.core.relational.Relational):
        if isinstance(rel, (sympy.Eq, sympy.Ne)) and rel.atoms(sympy.Mod):
            continue  # a residue condition: decided on each class
        diff = sympy.expand(rel.lhs - rel.rhs)
        poly = sympy.Poly(diff, n) if diff.free_symbols <= {n} and diff.is_polynomial(n) else None
        if poly is None or poly.degree() > 1:
            return None
        c1, c0 = (poly.all_coeffs() + [0])[:2] if poly.degree() == 1 else (0, poly.all_coeffs()[0])
        if c1 != 0:
            top = max(top, int(sympy.ceiling(abs(sympy.Rational(c0) / sympy.Rational(c1)))) + 1)
    return top


def _at(expr, n, value):
    try:
        return expr.xreplace({n: value})
    except (TypeError, ValueError, ZeroDivisionError):
        return None


def _undecided(expr) -> bool:
    return bool(expr.atoms(*_PERIODIC, sympy.Piecewise, sympy.Max, sympy.Min,
                           sympy.core.relational.Relational))


def equal_in_n(a, b, low: Optional[int] = None, cls: Optional[tuple] = None) -> Optional[bool]:
    """Whether a and b agree at every integer n ≥ low (n ≥ 1 when low is None) of their one free symbol n, decided
    exactly: True, False (they differ at some such n), or None when the forms are not ones decided here. With low
    None a difference at a small n, which may lie below the value's range, gives None, not False. cls = (M, r):
    only the n with n mod M = r count; with M None (a class whose modulus is not stated), a difference gives None."""
    if cls is not None and cls[0] is None:
        return True if equal_in_n(a, b, low) is True else None
    if not isinstance(a, sympy.Basic) or not isinstance(b, sympy.Basic):
        return None
    free = a.free_symbols | b.free_symbols
    if len(free) != 1:
        return None
    (n,) = free
    if not n.is_integer:
        return None
    m = lcm(_modulus(a, n) or 0, _modulus(b, n) or 0)
    if cls is not None:
        if not isinstance(cls[0], int) or not isinstance(cls[1], int) or cls[0] < 1:
            return None
        m = lcm(m, cls[0])
    ta, tb = _threshold(a, n), _threshold(b, n)
    if not m or ta is None or tb is None or m > MAX_MODULUS:
        return None
    start = low if isinstance(low, int) and low >= 1 else 1
    base = max(ta, tb, start)  # every n ≥ base is m·k + base + r, k ≥ 0, 0 ≤ r < m
    if base - start > MAX_BELOW:
        return None
    counted = _Counted(cls)
    small = _small_lengths(a, b, n, range(start, base), counted)
    if small is None or (small is False and low is not None):
        return small
    large = _classes(a, b, n, m, base, counted)
    if large is not True:
        return large
    return True if small else None  # a difference below the thresholds with no stated range: not decided


class _Counted:
    """Whether a length n counts: every n, or those of one residue class."""

    def __init__(self, cls: Optional[tuple]):
        self.cls = cls

    def __call__(self, k: int) -> bool:
        return self.cls is None or k % self.cls[0] == self.cls[1] % self.cls[0]


def _small_lengths(a, b, n, lengths: range, counted: _Counted) -> Optional[bool]:
    """a and b at each counted length one by one: False at the first where they differ; None when one is not a
    number there."""
    for k in lengths:
        if not counted(k):
            continue
        va, vb = _at(a, n, sympy.Integer(k)), _at(b, n, sympy.Integer(k))
        if va is None or vb is None or not (va.is_number and vb.is_number):
            return None
        if va != vb and sympy.simplify(va - vb) != 0:
            return False
    return True


def _classes(a, b, n, m: int, base: int, counted: _Counted) -> Optional[bool]:
    """a and b on every counted class n = m·k + base + r (k ≥ 0 an integer), the modulus m refined while a floor
    inside a floor leaves a class undecided."""
    k = sympy.Symbol("k", integer=True, nonnegative=True)
    for _ in range(3):
        pieces: Optional[list] = []
        left = 1
        for r in range(m):
            if not counted(base + r):
                continue
            da, db = _at(a, n, m * k + base + r), _at(b, n, m * k + base + r)
            if da is None or db is None:
                return None
            d = sympy.expand(da - db)
            if _undecided(d):
                left = lcm(left, _modulus(d, k) or 0)
                pieces = None
                break
            pieces.append(d)  # type: ignore[union-attr]
        if pieces is not None:
            return _all_zero(pieces, k)
        if not left or m * left > MAX_MODULUS:
            return None
        m *= left
    return None


def _all_zero(pieces: list, k) -> Optional[bool]:
    """True when every class's difference expands to 0; False when one is non-zero at some k = 0…3 (a length of
    the range where the two differ); else None."""
    result: Optional[bool] = True
    for d in pieces:
        if d == 0:
            continue
        values = [d.xreplace({k: sympy.Integer(v)}) for v in range(4)]
        if any(v.is_number and v != 0 and sympy.simplify(v) != 0 for v in values):
            return False
        result = None
    return result
