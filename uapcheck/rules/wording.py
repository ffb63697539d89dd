"""Pieces of claims that several rules share, as typed claim parts (uapcheck/claim.py): the formula
stays mathematics for the LaTeX and Markdown printers, the wording is the text printer's."""
from __future__ import annotations

import sympy

from ..claim import Claim, Formula, Written, claim, group, math, written

SUM_TARGET_TEXT = "F(X)_k = x_1 + ... + x_n at every position k"
SUM_TARGET: Claim = claim(written("F(X)_k = x_1 + ... + x_n", r"F(X)_{k} = x_{1} + \dots + x_{n}"),
                          " at every position k")


def index_text(k) -> str:
    """A position as a subscript in words: x_3, x_n, x_(b + 1)."""
    text = sympy.sstr(k) if isinstance(k, sympy.Basic) else str(k)
    return text if text.isalnum() else f"({text})"


def _index(k):
    return sympy.Integer(k) if isinstance(k, int) else k if isinstance(k, sympy.Basic) else sympy.Symbol(str(k))


def token(j) -> Formula:
    """The token x_j at position j (an int, a SymPy expression or a symbol's name), worded x_3, x_(n - 1)."""
    return Formula(sympy.IndexedBase("x")[_index(j)], f"x_{index_text(j)}")


def position(i):
    """A position in words (an int) or as a formula (an expression), worded as `index_text`."""
    if isinstance(i, sympy.Integer):
        return int(i)
    return i if isinstance(i, int) else Formula(_index(i), index_text(i))


def value(v) -> Formula:
    """An exact value (a layer count, a diameter, a position), as SymPy prints it in text."""
    if isinstance(v, sympy.Basic) and not isinstance(v, sympy.Integer):
        # ⌈(n − 1)/w⌉, max(…), and a count by residue of n: "4 if n mod 3 = 0, else 3"
        from ..show import show_size
        return math(v, show_size(v))
    return math(v, str(v) if isinstance(v, int) else sympy.sstr(v))


def m_layer(count, worded) -> tuple:
    """"3-layer", "⌈(n − 1)/w⌉-layer", or for a count by residue of n "m-layer … with m = 4 if n mod 3 = 0,
    else 3" (the parts of a claim before "token distinguishing"; `worded` is the count as a claim part)."""
    if isinstance(count, sympy.Piecewise):
        return ("m-layer (m = ", worded, ")")
    if isinstance(count, sympy.Add):  # "(⌊n/4⌋ + 1)-layer", not "⌊n/4⌋ + 1-layer"
        return ("(", worded, ")-layer")
    return (worded, "-layer")


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


def group_claim(info, lhs: str = "G") -> Claim:
    """`G = S_n` (by name, by structure or by order); for G by residue class of n (`info.classes`, docs/theory.md
    §11.4) `G = reflection if n mod 4 = 0, else trivial`, each class's condition a formula."""
    if not info.classes:
        return claim(group(info.name, lhs, info.structure)) if info.name else order_claim(info, lhs)
    from ..show import show_condition
    parts: list = [f"{lhs} = "]
    # the last class reads "else" only when the classes cover every residue; a group stated on some classes
    # names each one's condition (groups.GroupInfo.every_class)
    last = len(info.classes) - 1 if info.every_class() else len(info.classes)
    for k, cls in enumerate(info.classes):
        g = cls.group
        named = claim(group(g.name, "", g.structure)) if g.name else _of_order(g)
        if k < last:
            parts += [named, " if ", Formula(cls.condition, show_condition(cls.condition))]
            parts += [", "] if k < len(info.classes) - 1 else []
        else:
            parts += ["else ", named]
    return claim(*parts)


def _of_order(info) -> Claim:
    """`a group of order N` (N as `order_claim` words it)."""
    from ..bignum import show_order
    if getattr(info, "order_latex", None):
        return claim("a group of order ", written(show_order(info.order), info.order_latex))
    return claim(f"a group of order {show_order(info.order)}")


def order_claim(info, lhs: str = "G") -> Claim:
    """`G = a group of order N`, N in words and, for a product of factorials, as a written formula."""
    from ..bignum import show_order
    if getattr(info, "order_latex", None):
        return claim(f"{lhs} = a group of order ", written(show_order(info.order), info.order_latex))
    return claim(f"{lhs} = a group of order {show_order(info.order)}")


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

L_P = written("L^p", "L^{p}")
LOG_RATIO = written("log k(x,tz₁) − log k(x,tz₂)", r"\log k(x, t z_{1}) - \log k(x, t z_{2})")
RATIO_LIMIT = written("k(x,tWy₁)/k(x,tWy₂) → 0 or ∞",
                      r"k(x, t W y_{1}) / k(x, t W y_{2}) \to 0 \text{ or } \infty")


def region_claim(name: str, result, model) -> Claim:
    """A sign region of the invariants by the engine's name for it (rules/limit*.py), its inequalities as
    formulas: the region's own signs when the name is its description, `all v > 0` for the key regions of
    a feature kernel, otherwise the name as words."""
    from ..lower import (KEY_COORD, KEY_NORM2, QUERY_COORD, QUERY_DOT_KEY, QUERY_NORM2, RANDOM_DOT_KEY,
                         RANDOM_DOT_QUERY)
    atoms = {sym.name: sym for sym in (QUERY_DOT_KEY, KEY_NORM2, QUERY_NORM2, KEY_COORD, RANDOM_DOT_KEY, QUERY_COORD,
                                       RANDOM_DOT_QUERY)}
    region = getattr(result, "region", None)
    if region is not None and region.signs and name == region.describe():
        return listed(sign(atoms[n], s > 0, n) if n in atoms else f"{n} {'>' if s > 0 else '<'} 0"
                      for n, s in region.signs)
    key = getattr(model, "key_symbol", None)
    if key is not None:
        for positive in (True, False):
            if name == f"all {key} {'>' if positive else '<'} 0":
                return claim("all ", sign(key, positive))
    return claim(name)


def condition_claim(info, opening: str, closing: str) -> Claim:
    """A group's range condition `(for n >= 3)`: a formula when the group carries it typed
    (`condition_formula`), else its words."""
    if not info.condition:
        return claim()
    typed = getattr(info, "condition_formula", None)
    if isinstance(typed, sympy.Basic) and typed is not sympy.true:
        return claim(opening, Formula(typed, str(info.condition)), closing)
    return claim(f"{opening}{info.condition}{closing}")


quantity = value  # for modules where `value` is a local name


# The words lower.py gives a feature kernel (by its index), with the formula typed. Used only where they
# read exactly as the model's description (`described`), so the text output never changes.
_FEATURE_SUMS = {
    "coordinate": claim(written("k(x, t z) = Σ_r φ(x)_r φ(t z)_r",
                                r"k(x, t z) = \sum_{r} \varphi(x)_{r}\, \varphi(t z)_{r}"), " over the coordinates r"),
    "random": claim(written("k(x, t z) = Σ_r φ_r(x) φ_r(t z)", r"k(x, t z) = \sum_{r} \varphi_{r}(x)\, \varphi_{r}(t z)"),
                    " over the fixed random vectors ", written("w_r", "w_{r}")),
    "landmark": claim(written("k̃(x, t z) = Σ_b κ_b(x) k(z_b, t z)",
                              r"\tilde{k}(x, t z) = \sum_{b} \kappa_{b}(x)\, k(z_{b}, t z)"),
                      " over the fixed landmarks ", written("z_b", "z_{b}")),
}
# The same for a feature map with several components c (a bracketed list), keyed by its index.
_COMPONENT_SUMS = {
    "coordinate": claim(written("k(x, t z) = Σ_r Σ_c φ_c(x)_r φ_c(t z)_r",
                                r"k(x, t z) = \sum_{r} \sum_{c} \varphi_{c}(x)_{r}\, \varphi_{c}(t z)_{r}"),
                        " over the coordinates r and the components c"),
    "random": claim(written("k(x, t z) = Σ_r Σ_c φ_c(x; w_r) φ_c(t z; w_r)",
                            r"k(x, t z) = \sum_{r} \sum_{c} \varphi_{c}(x; w_{r})\, \varphi_{c}(t z; w_{r})"),
                    " over the fixed random vectors ", written("w_r", "w_{r}"), " and the components c"),
}


def described(model) -> Claim:
    """A kernel model's description as a claim: typed for the feature sums, else its words."""
    sums = _FEATURE_SUMS if getattr(model, "single", True) else _COMPONENT_SUMS
    typed = sums.get(getattr(model, "index", ""))
    if typed is not None and str(typed) == model.description:
        return typed
    return claim(model.description)
ZERO_KEYS = written("W_K = 0", "W_{K} = 0")
