"""The typed facts of a step as LaTeX formulas, through SymPy's LaTeX printer.

Printers call `step_formulas(step)`: it walks the step's typed facts (kernels, growing parts of
log k, sign regions, offset functions, diameters, layer counts, groups) and returns LaTeX strings
for math mode. Nothing here reads a claim or an evidence string: a fact that is not typed is not
printed as a formula. The LaTeX renderer sets each formula with `\\uapmath` (scaled down to the line
width when it is wider); the Markdown renderer writes it as GitHub math.
"""
from __future__ import annotations

import math
import re
from typing import Any, Iterator

import sympy

# The invariants of uapcheck/lower.py and the position symbols of rules/positions.py, by name: their
# names are not possible .uap names, so no parameter can collide with them.
_NAMES = {
    "x·z": r"x \cdot z", "|z|²": r"\lVert z \rVert^{2}", "|x|²": r"\lVert x \rVert^{2}",
    "w·x": r"w \cdot x", "w·z": r"w \cdot z", "x[r]": r"x_{r}", "z[r]": r"z_{r}",
    "|z_b|²": r"\lVert z_{b} \rVert^{2}", "κ_b(x)": r"\kappa_{b}(x)", "ξ": r"\xi",
    "i·pos": "i", "j·pos": "j", "δ": r"\delta", "q·k": r"q \cdot k", "|q−k|²": r"\lVert q - k \rVert^{2}",
}
_SUBSCRIPTED = re.compile(r"^([A-Z])_([A-Za-z0-9]+)$")
_LONG_NUMBER = 15


def latex(expr: Any) -> str:
    """SymPy's LaTeX printer, with the invariants written as the mathematics writes them."""
    if isinstance(expr, bool):
        return r"\text{" + ("true" if expr else "false") + "}"
    if isinstance(expr, int):
        return integer(expr)
    if not isinstance(expr, sympy.Basic):
        raise TypeError(f"not a formula: {type(expr).__name__}")
    big = {i for i in expr.atoms(sympy.Integer) if abs(int(i)) >= 10 ** _LONG_NUMBER}
    if big:  # a huge integer factor: its power of ten, never hundreds of digits
        expr = expr.xreplace({i: sympy.Symbol(integer(int(i))) for i in big})
    names = {s: _NAMES[s.name] for s in expr.free_symbols if isinstance(s, sympy.Symbol) and s.name in _NAMES}
    for s in expr.free_symbols:
        if isinstance(s, sympy.Symbol) and s.name.startswith(r"\approx"):
            names[s] = s.name
    if _in_sizes(expr):
        # a size, a count or an order in n and the params: its sums as a reader writes them (n - k - 1), as the
        # text printer does (show.reader_order); kernels and growth terms keep SymPy's order (by degree in t)
        return _reader_printer()(dict(symbol_names=names, ln_notation=True)).doprint(expr)
    return sympy.latex(expr, symbol_names=names, ln_notation=True)


_READER_PRINTER = None


def _in_sizes(expr) -> bool:
    """A formula in n and the params alone (integer symbols), or `name = ` such a formula (`r = ⌈(n - 1)/w⌉`)."""
    if isinstance(expr, sympy.Eq) and isinstance(expr.lhs, sympy.Symbol):
        expr = expr.rhs
    return bool(expr.free_symbols) and all(getattr(sym, "is_integer", False) for sym in expr.free_symbols)


def _reader_printer():
    """SymPy's LaTeX printer with the sums' terms in reader order (show.reader_order); made once."""
    global _READER_PRINTER
    if _READER_PRINTER is None:
        from sympy.printing.latex import LatexPrinter

        from ..show import reader_order

        class ReaderLatexPrinter(LatexPrinter):
            def _as_ordered_terms(self, expr, order=None):
                return reader_order(super()._as_ordered_terms(expr, order=order))

        _READER_PRINTER = ReaderLatexPrinter
    return _READER_PRINTER


def integer(n: int) -> str:
    if abs(n) < 10 ** _LONG_NUMBER:
        return str(n)
    return rf"\approx 10^{{{int(math.log10(abs(n)))}}}" if n > 0 else rf"-\approx 10^{{{int(math.log10(-n))}}}"


def region(signs) -> str:
    """((symbol, ±1), ...) as {x·z < 0, ...}."""
    parts = [f"{latex(sym)} {'<' if sign < 0 else '>'} 0" for sym, sign in signs]
    return r"\{" + ", ".join(parts) + r"\}" if parts else r"\text{all invariants}"


def group_name(name: str):
    """A named group's formula, or None for a name that is a description (it stays in the claim)."""
    m = _SUBSCRIPTED.match(name)
    if m:
        return f"{m[1]}_{{{m[2]}}}"
    if name == "trivial":
        return r"\{\mathrm{id}\}"
    if name == "reflection":
        return r"\{\mathrm{id},\ i \mapsto n + 1 - i\}"
    return None


def group(info) -> list[str]:
    """G = S_n, |G| = n! (the order when it is a number or an expression, never text)."""
    out = []
    name = group_name(info.name) if info.name else None
    if (name is None or info.name == "reflection") and getattr(info, "structure", None) is not None:
        name = info.structure.latex  # a structure, or the reflection written in the file's length (render/spoken.py)
    if name is not None:
        out.append("G = " + name)
    order = info.order
    if isinstance(order, (int, sympy.Basic)) and not isinstance(order, bool):
        out.append(r"\lvert G \rvert = " + latex(order))
    return out  # a condition on n stays in the claim's words (it is not a typed fact)


def step_formulas(step, shown=frozenset()) -> list[str]:
    """The step's typed facts as formulas (LaTeX for math mode), in a fixed order; those in `shown`
    (the formulas its claim already sets, `claim_formulas`) are left out."""
    return [f for f in _formulas(step.facts) if " ".join(f.split()) not in shown]


def claim_formulas(step) -> frozenset:
    """The formulas a step's claim sets (whitespace-normalised LaTeX), so a fact is not set twice."""
    out = set()
    for part in step.claim_parts:
        if not isinstance(part, str):
            tex = part_latex(part)
            if tex is not None:
                out.add(" ".join(tex.split()))
    return frozenset(out)


def _formulas(facts) -> Iterator[str]:
    if "kernel" in facts:
        yield "k(x, t z) = " + latex(facts["kernel"])
    if "query factor" in facts:
        yield (r"k(x, t z) = \sum_{r} Q_{r}\, K_{r}(t), \quad Q_{r} = " + latex(facts["query factor"]) +
               r", \quad K_{r}(t) = " + latex(facts["key factor"]))
    if "feature term" in facts:  # a feature map with several components: Σ_c Q_c K_c(t) per feature
        yield r"k(x, t z) = \sum_{r} T_{r}(t), \quad T_{r}(t) = " + latex(facts["feature term"])
    for signs, expr in facts.get("growing parts", ()):
        on = r" \quad \text{on } " + region(signs) if signs else ""
        yield r"\log k(x, t z) = " + latex(expr) + r" + O(1)" + on
    if facts.get("region"):
        yield r"\text{region } " + region(facts["region"])
    if facts.get("offset function") is not None:
        yield r"h(\delta) = " + latex(facts["offset function"])
    if facts.get("diameter") is not None:
        yield "D = " + latex(facts["diameter"])
    if facts.get("layers") is not None:
        yield "m = " + latex(facts["layers"])
    if facts.get("group") is not None:
        yield from group(facts["group"])


def part_latex(part) -> str | None:
    """A claim's formula part (uapcheck/claim.py) as LaTeX for math mode; None for a group named by a
    description rather than a symbol (its wording is then set as text)."""
    from ..claim import Chain, Formula, GroupName, ReasonStart, Written
    if isinstance(part, ReasonStart):
        return None  # a place in the claim, not a formula
    if isinstance(part, Chain):
        pieces = [part_latex(item) for item in part.items]
        if any(piece is None for piece in pieces):
            return None
        return " ".join(p for p in pieces if p)
    if isinstance(part, Formula):
        return latex(part.value)
    if isinstance(part, Written):
        return part.latex
    if isinstance(part, GroupName):
        name = group_name(part.name)
        if name is None and part.structure is not None:
            name = part.structure.latex
        if name is None:
            return None
        return f"{part.lhs} = {name}" if part.lhs else name
    raise TypeError(f"not a formula part: {type(part).__name__}")
