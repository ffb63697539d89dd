"""Print Spec expressions and patterns in the user's own notation (SymPy would rewrite them)."""
from __future__ import annotations

import functools
import weakref
from typing import Union

from . import spec as S

_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, ".": 2, "^": 4}
#: The text of each `edges { … }` list shown, while its pattern lives (equal lists have the same text).
_SHOWN_LISTS: "weakref.WeakKeyDictionary[S.Edges, str]" = weakref.WeakKeyDictionary()


def show_expr(e: S.Expr, parent: int = 0) -> str:
    if isinstance(e, S.Num):
        v = e.value
        return str(v.p) if v.q == 1 else f"{v.p}/{v.q}"
    if isinstance(e, S.Name):
        return e.id
    if isinstance(e, S.Call):
        return f"{e.fn}(" + ", ".join(show_expr(a) for a in e.args) + ")"
    if isinstance(e, S.Norm):
        return f"|{show_expr(e.operand)}|"
    if isinstance(e, S.Neg):
        s = "-" + show_expr(e.operand, 3)
        return f"({s})" if parent > 3 else s
    if isinstance(e, S.Dot):
        s = f"{show_expr(e.left, 2)} . {show_expr(e.right, 3)}"
        return f"({s})" if parent > 2 else s
    if isinstance(e, S.BinOp):
        p = _PREC[e.op]
        if e.op == "^":
            s = f"{show_expr(e.left, 5)}^{show_expr(e.right, 4)}"
        else:
            s = f"{show_expr(e.left, p)} {e.op} {show_expr(e.right, p + 1)}"
        return f"({s})" if parent > p else s
    raise TypeError(f"not an expression: {e!r}")


def show_pattern(p: Union[S.Pattern, S.PatternSequence]) -> str:  # noqa: C901 - one branch per pattern kind (spec.Pattern)
    if isinstance(p, S.Full):
        return "full"
    if isinstance(p, S.Causal):
        return "causal"
    if isinstance(p, S.Star):
        return "star"
    if isinstance(p, S.Window):
        return f"window({p.w})" + (" cyclic" if p.cyclic else "")
    if isinstance(p, S.Offsets):
        return "offsets {" + ", ".join(str(o) for o in p.offsets) + "}" + (" cyclic" if p.cyclic else "")
    if isinstance(p, S.Dilated):
        return f"dilated({p.w}, {p.r})"
    if isinstance(p, S.Strided):
        return f"strided({p.s})"
    if isinstance(p, S.Blocks):
        return f"blocks({p.b})"
    if isinstance(p, S.Global):
        return f"global({p.g})"
    if isinstance(p, S.RandomPattern):
        return f"random({p.r}, seed={p.seed})"
    if isinstance(p, S.Edges):
        shown = _SHOWN_LISTS.get(p)
        if shown is None:  # a listed pattern is shown in several steps' claims: its text is made once
            shown = _SHOWN_LISTS[p] = "edges {" + ", ".join(f"{i} -> {j}" for i, j in p.edges) + "}"
        return shown
    if isinstance(p, S.PatternUnion):
        return " + ".join(show_pattern(q) for q in p.parts)
    if isinstance(p, S.PatternIntersection):
        return " & ".join(f"({show_pattern(q)})" if isinstance(q, S.PatternUnion) else show_pattern(q)
                          for q in p.parts)
    if isinstance(p, S.Sinks):
        return f"sinks({p.k})"
    if isinstance(p, S.GlobalAt):
        return "global {" + ", ".join(str(q) for q in p.positions) + "}"
    if isinstance(p, S.Blockwise):
        return f"blockwise({p.b}) {{ {show_pattern(p.inner)} }}"
    if isinstance(p, S.Columns):
        return f"columns({p.l}, {p.c})"
    if isinstance(p, S.PatternSequence):
        return ("periodic" if p.periodic else "sequence") + " { " + ", ".join(show_pattern(q) for q in p.patterns) + " }"
    raise TypeError(f"not a pattern: {p!r}")


def show_head_expr(e: S.HeadExpr) -> str:
    """A head's body: an expression, or a bracketed list of feature components."""
    if isinstance(e, S.FeatureList):
        return "[" + ", ".join(show_expr(c) for c in e.items) + "]"
    return show_expr(e)


def show_head(h: S.Head) -> str:
    if h.kind == "features":
        s = f"features {h.fn}({h.params[0]}) = {show_head_expr(h.expr)}"
        return s + (f" random {h.random}" if h.random else "")
    return f"{h.kind} {h.fn}({h.params[0]}, {h.params[1]}) = {show_head_expr(h.expr)}"


def show_size(e) -> str:
    """A SymPy expression of n as reports show it: ⌈(n - 1)/2⌉, ⌊n/2⌋, 2·n, 24^(⌈n/4⌉ - 2)."""
    import sympy
    if isinstance(e, sympy.Basic) and e.has(sympy.Piecewise) and not isinstance(e, sympy.Piecewise):
        folded = sympy.piecewise_fold(e)  # Piecewise(…) + 1 as one Piecewise: a count by residue reads as one
        e = folded if isinstance(folded, sympy.Piecewise) else e
    cases = _residue_cases(e) if isinstance(e, sympy.Piecewise) else None
    if cases is not None:
        return cases
    return _size_printer().doprint(e)


_SIZE_PRINTER = None


def reader_order(terms: list) -> list:
    """A sum's terms (in SymPy's printing order) as a reader writes them: the terms with a letter and without a minus
    sign before those with one, each group in SymPy's order, numbers where SymPy puts them (n - k - 1, not SymPy's
    -k + n - 1); when every term with a letter has a minus sign, a positive number leads (3 - n, not -n + 3). The
    size and order printers (counts and orders in n and the params) call it from their walk of the sum, and so does
    the reports' LaTeX printer for formulas in integer symbols alone (render/math.py); kernels and growth terms keep
    SymPy's order (by degree in t: -γ t²|z|² + 2γ t x·z)."""
    def minus(t) -> bool:
        return bool(t.could_extract_minus_sign())
    slots = [k for k, t in enumerate(terms) if not t.is_Number]
    out = list(terms)
    for k, t in zip(slots, sorted((terms[k] for k in slots), key=minus)):
        out[k] = t
    if slots and all(minus(out[k]) for k in slots):
        out.sort(key=lambda t: 0 if t.is_Number and t.is_positive else 1)
    return out


def _size_printer():
    """SymPy's own str printer, walking the expression, with the notation of reports: ⌈ ⌉ and ⌊ ⌋ around
    an argument put over one denominator (⌈(n - 1)/2⌉, not ⌈n/2 - 1/2⌉), max/min, · and ^."""
    global _SIZE_PRINTER
    if _SIZE_PRINTER is None:
        import sympy
        from sympy.printing.str import StrPrinter

        class SizePrinter(StrPrinter):
            def _bracket(self, e, left: str, right: str) -> str:
                arg = e.args[0]
                together = sympy.together(arg)
                return left + self._print(together if sympy.count_ops(together) <= sympy.count_ops(arg) else arg) \
                    + right

            def _as_ordered_terms(self, expr, order=None):
                return reader_order(super()._as_ordered_terms(expr, order=order))

            def _print_ceiling(self, e) -> str:
                return self._bracket(e, "⌈", "⌉")

            def _print_floor(self, e) -> str:
                return self._bracket(e, "⌊", "⌋")

            def _print_Max(self, e) -> str:
                return "max(" + ", ".join(self._print(a) for a in sorted(e.args, key=sympy.default_sort_key)) + ")"

            def _print_Min(self, e) -> str:
                return "min(" + ", ".join(self._print(a) for a in sorted(e.args, key=sympy.default_sort_key)) + ")"

            def _print_Mul(self, e) -> str:
                return super()._print_Mul(e).replace("*", "·")

            def _print_Pow(self, e, rational=False) -> str:
                return super()._print_Pow(e, rational).replace("**", "^")

            def _print_Mod(self, e) -> str:
                return f"{self.parenthesize(e.args[0], 50)} mod {self.parenthesize(e.args[1], 50)}"

        _SIZE_PRINTER = SizePrinter()
    return _SIZE_PRINTER


_ORDER_PRINTER = None


def show_order_expr(e) -> str:
    """A symbolic group order in the reports' notation (docs/language.md §8, "Orders"): products with ` · `, powers
    with ^, factorials written k!, ⌊n/4⌋! and (n − 1)! (a power of one bracketed: (k!)^m), ⌊ ⌋ and ⌈ ⌉, and −
    for a minus sign."""
    return _order_printer().doprint(e)


def _order_printer():
    """The size printer with the order notation: x!, ` · ` between factors, − for subtraction."""
    global _ORDER_PRINTER
    if _ORDER_PRINTER is None:
        import sympy
        base = type(_size_printer())

        class OrderPrinter(base):
            def _print_factorial(self, e) -> str:
                arg = e.args[0]
                if arg.is_Atom and (not arg.is_Number or arg.is_nonnegative) or isinstance(
                        arg, (sympy.floor, sympy.ceiling)):
                    return f"{self._print(arg)}!"
                return f"({self._print(arg)})!"

            def _print_Mul(self, e) -> str:
                return sympy.printing.str.StrPrinter._print_Mul(self, e).replace("*", " · ")

            def _print_Pow(self, e, rational=False) -> str:
                if isinstance(e.base, sympy.factorial):
                    return f"({self._print(e.base)})^{self.parenthesize(e.exp, 60)}"
                return super()._print_Pow(e, rational)

            def _print_Add(self, e, order=None) -> str:
                text = super()._print_Add(e, order)
                return ("−" + text[1:] if text.startswith("-") else text).replace(" - ", " − ")

        _ORDER_PRINTER = OrderPrinter()
    return _ORDER_PRINTER


_RELATIONS = {"GreaterThan": "≥", "StrictGreaterThan": ">", "LessThan": "≤", "StrictLessThan": "<",
              "Equality": "=", "Unequality": "≠"}


def show_condition(cond) -> str:
    """A range of n as reports show it: "n ≥ 2·w + 1", "n mod 4 = 0", conjunctions joined by "and",
    alternatives by "or" (each conjunction among them in parentheses). A lower bound on the same side that
    another bound of the conjunction implies (for every value of the symbols, under their assumptions) is left
    out: "(n >= w + 2) & (n >= 2*w + 1)" for a positive integer w is "n ≥ 2·w + 1"."""
    import sympy
    among = _residue_set(cond)
    if among is not None:
        return among
    if isinstance(cond, sympy.Or):
        return " or ".join(f"({show_condition(a)})" if isinstance(a, sympy.And) else show_condition(a)
                           for a in cond.args)
    parts = list(cond.args) if isinstance(cond, sympy.And) else [cond]
    if not all(type(p).__name__ in _RELATIONS or isinstance(p, sympy.Or) for p in parts):
        return sympy.sstr(cond)
    # a bound goes when another implies it strictly, or implies it and comes first (two equal bounds: one stays)
    kept = [p for i, p in enumerate(parts)
            if not any(j != i and _implies(q, p) and (j < i or not _implies(p, q)) for j, q in enumerate(parts))]
    return " and ".join(f"({show_condition(p)})" if isinstance(p, sympy.Or) else _parity(p) or
                        f"{show_size(p.lhs)} {_RELATIONS[type(p).__name__]} {show_size(p.rhs)}" for p in kept)


def _parity(rel) -> "str | None":
    """x mod 2 = 0 as "x even", x mod 2 = 1 or x mod 2 ≠ 0 as "x odd" (and the converse); None otherwise."""
    import sympy
    if not (isinstance(rel, (sympy.Eq, sympy.Ne)) and isinstance(rel.lhs, sympy.Mod) and rel.lhs.args[1] == 2
            and rel.rhs in (0, 1)):
        return None
    even = (rel.rhs == 0) == isinstance(rel, sympy.Eq)
    return f"{show_size(rel.lhs.args[0])} {'even' if even else 'odd'}"


def _residue_set(cond) -> "str | None":
    """An Or of n mod L = r over one n and L as "n mod L ∈ {r₁, r₂}"; None for any other condition."""
    import sympy
    if not isinstance(cond, sympy.Or):
        return None
    bases, residues = set(), []
    for eq in cond.args:
        if not (isinstance(eq, sympy.Eq) and isinstance(eq.lhs, sympy.Mod) and eq.rhs.is_Integer):
            return None
        bases.add(eq.lhs)
        residues.append(int(eq.rhs))
    if len(bases) != 1:
        return None
    shown = ", ".join(str(r) for r in sorted(set(residues)))
    return f"{show_size(bases.pop())} ∈ {{{shown}}}"


def show_classes(items, otherwise: bool = True) -> str:
    """Values by residue class of n, the last one for every other class: "reflection if n mod 4 = 0, else
    trivial". `items`: (words, condition) in printing order. Without `otherwise` (the classes do not cover every
    residue) each value is said with its condition, none with "else"."""
    import sympy

    from .conditions import simplify_condition
    items = list(items)
    if not otherwise:
        joined_all: dict = {}
        for words, cond in items:
            joined_all.setdefault(words, []).append(cond)
        return ", ".join(f"{words} if {show_condition(simplify_condition(sympy.Or(*conds)))}"
                         for words, conds in joined_all.items())
    last = items[-1][0]
    # equal values read once: the classes with the else value go to it, the others' conditions are joined
    joined: dict = {}
    for words, cond in items[:-1]:
        if words != last:
            joined.setdefault(words, []).append(cond)
    if not joined:
        return last
    shown = [f"{words} if {show_condition(simplify_condition(sympy.Or(*conds)))}" for words, conds in joined.items()]
    return ", ".join(shown + [f"else {last}"])


def _implies(q, p) -> bool:
    """Whether the bound q (lhs ≥ a) implies the bound p (lhs ≥ b) because a − b ≥ 0 is decided."""
    import sympy
    if not (isinstance(q, sympy.GreaterThan) and isinstance(p, sympy.GreaterThan) and q.lhs == p.lhs):
        return False
    return _nonnegative(q.rhs - p.rhs)


@functools.lru_cache(maxsize=256)
def _nonnegative(difference) -> bool:
    """Whether the difference of two bounds is decided ≥ 0 (once per process for equal differences: the
    same conditions recur in the ranges of a file and of a batch)."""
    if difference.is_Number:  # simplify returns a number unchanged
        return difference.is_nonnegative is True
    from .zero import simplified  # sympy.simplify without the call where it returns its argument
    return simplified(difference).is_nonnegative is True


def _residue_cases(e) -> "str | None":
    """A Piecewise over residues of n (value if Mod(n, s) is one of some residues, …, else another) as
    "3 if n mod 5 ∈ {0, 1, 4}, else 2" ("4 if n mod 3 = 0, else 3" for one residue; one "if" per piece);
    None for any other Piecewise."""
    import sympy
    if len(e.args) < 2 or e.args[-1][1] is not sympy.true:
        return None
    base = None
    shown = []
    for value, cond in e.args[:-1]:
        eqs = cond.args if isinstance(cond, sympy.Or) else (cond,)
        residues = []
        for eq in eqs:
            if not (isinstance(eq, sympy.Eq) and isinstance(eq.lhs, sympy.Mod) and eq.rhs.is_Integer):
                return None
            if base is not None and eq.lhs != base:
                return None
            base = eq.lhs
            residues.append(int(eq.rhs))
        shown.append((value, sorted(set(residues))))
    if base is None:
        return None
    n, s = base.args

    def among(residues: list) -> str:
        return f"= {residues[0]}" if len(residues) == 1 else f"∈ {{{', '.join(map(str, residues))}}}"
    printer = _size_printer()
    return ", ".join(f"{printer.doprint(value)} if {printer.doprint(n)} mod {printer.doprint(s)} {among(r)}"
                     for value, r in shown) + f", else {printer.doprint(e.args[-1][0])}"


