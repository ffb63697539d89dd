"""The LaTeX report: the verdict as a statement, the derivation as its proof, steps premises first.

`--format latex` prints a fragment to paste into a paper; it needs the preamble lines of `PREAMBLE`
(amssymb for \\checkmark, amsthm for the statement and proof environments, and the `uapverdict`
statement), which the fragment repeats in its opening comment. `--format latex --standalone` prints a
complete document that compiles with pdflatex as it is.

The verdict's group and layer count are set in math mode (the layer count through SymPy's LaTeX
printer), and so is every typed fact of a step (its kernel, the growing part of log k on each sign
region, the region, an offset function, the diameter, the layer count, the group: render/math.py),
each with `\\uapmath`, which scales a formula wider than the line down to the line width. Every other string taken from the derivation goes through `escape`, which turns LaTeX's special
characters into commands and Unicode symbols into `\\ensuremath{...}`, `\\textsuperscript{...}`, ... so
that the output is plain ASCII, with break points inside long formulas and numbers so that no line runs
into the margin.
"""
from __future__ import annotations

import math
import re
import unicodedata

from .. import proof
from ..claim import Formula
from . import source
from .math import claim_formulas, part_latex, step_formulas
from .verdict_lines import expect_line, lengths_text, other_classes, reason_parts, shown_path

_ASCII = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    # In the default OT1 encoding these print as other glyphs (¡, ¿, —) in text mode.
    "<": r"\ensuremath{<}", ">": r"\ensuremath{>}", "|": r"\ensuremath{|}",
}

_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "varepsilon", "ϵ": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ϑ": "vartheta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu",
    "ν": "nu", "ξ": "xi", "π": "pi", "ρ": "rho", "σ": "sigma", "ς": "varsigma", "τ": "tau",
    "υ": "upsilon", "φ": "varphi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
    "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi", "Σ": "Sigma",
    "Υ": "Upsilon", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
}
# Capital Greek letters that look like Latin ones have no command of their own.
_GREEK_LATIN = {"Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
                "Ο": "O", "Ρ": "P", "Τ": "T", "Χ": "X", "ο": "o"}

# Symbols set in maths (inside \ensuremath, so they work in running text).
_MATH = {
    "·": r"\cdot", "×": r"\times", "±": r"\pm", "∓": r"\mp", "−": "-", "÷": r"\div",
    "≥": r"\geq", "≤": r"\leq", "≠": r"\neq", "≈": r"\approx", "≡": r"\equiv", "≢": r"\not\equiv",
    "∼": r"\sim", "≃": r"\simeq", "≅": r"\cong", "∝": r"\propto", "≻": r"\succ", "≺": r"\prec",
    "≪": r"\ll", "≫": r"\gg",
    "→": r"\to", "←": r"\leftarrow", "↔": r"\leftrightarrow", "↦": r"\mapsto", "⇒": r"\Rightarrow",
    "⇐": r"\Leftarrow", "⇔": r"\Leftrightarrow", "↑": r"\uparrow", "↓": r"\downarrow",
    "∀": r"\forall", "∃": r"\exists", "∄": r"\nexists", "¬": r"\neg", "∧": r"\wedge", "∨": r"\vee",
    "∅": r"\emptyset", "∈": r"\in", "∉": r"\notin", "∋": r"\ni", "∖": r"\setminus",
    "∩": r"\cap", "∪": r"\cup", "⋂": r"\bigcap", "⋃": r"\bigcup", "⊂": r"\subset", "⊃": r"\supset",
    "⊆": r"\subseteq", "⊇": r"\supseteq", "⊊": r"\subsetneq", "⊋": r"\supsetneq",
    "∑": r"\sum", "∏": r"\prod", "∫": r"\int", "∂": r"\partial", "∇": r"\nabla", "√": r"\surd",
    "∞": r"\infty", "∘": r"\circ", "⊗": r"\otimes", "⊕": r"\oplus", "⊙": r"\odot", "⋊": r"\rtimes",
    "⊥": r"\perp", "⟂": r"\perp", "‖": r"\|", "∣": r"\mid", "∥": r"\parallel",
    "⌈": r"\lceil", "⌉": r"\rceil", "⌊": r"\lfloor", "⌋": r"\rfloor", "⟨": r"\langle", "⟩": r"\rangle",
    "⋯": r"\cdots", "⋮": r"\vdots", "△": r"\triangle", "∎": r"\blacksquare", "ℓ": r"\ell",
    "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}", "ℤ": r"\mathbb{Z}", "ℚ": r"\mathbb{Q}", "ℂ": r"\mathbb{C}",
    "✔": r"\checkmark", "✓": r"\checkmark", "✘": r"\times", "✗": r"\times",
    **{ch: "\\" + name for ch, name in _GREEK.items()},
}

# Text symbols.
_TEXT = {
    "§": r"\S{}", "¶": r"\P{}", "—": "---", "–": "--", "…": r"\ldots{}", "“": "``", "”": "''",
    "‘": "`", "’": "'", "′": "'", "″": "''", "\u00a0": " ", "\u2009": " ", "\u202f": " ", "©": r"\copyright{}",
    "°": r"\textsuperscript{\ensuremath{\circ}}",
    "ß": r"\ss{}", "æ": r"\ae{}", "Æ": r"\AE{}", "ø": r"\o{}", "Ø": r"\O{}", "œ": r"\oe{}", "Œ": r"\OE{}",
    "ı": r"\i{}", "ł": r"\l{}", "Ł": r"\L{}", **_GREEK_LATIN,
}

# Combining accents: on letters in text (names such as Schölkopf) and in maths (k̃, x̄).
_TEXT_ACCENT = {"\u0301": "\\'", "\u0300": "\\`", "\u0308": '\\"', "\u0327": r"\c", "\u030a": r"\r",
                "\u030c": r"\v", "\u0306": r"\u", "\u0307": r"\."}
_MATH_ACCENT = {"\u0303": r"\tilde", "\u0304": r"\bar", "\u0305": r"\bar", "\u0302": r"\hat",
                "\u20d7": r"\vec", "\u0307": r"\dot", "\u0308": r"\ddot"}

# Mathematical alphanumeric styles (𝒢, 𝔅, 𝐱, ...), read from the Unicode names.
_STYLES = (("DOUBLE-STRUCK", r"\mathbb"), ("FRAKTUR", r"\mathfrak"), ("SCRIPT", r"\mathcal"),
           ("BOLD", r"\mathbf"), ("SANS-SERIF", r"\mathsf"), ("MONOSPACE", r"\mathtt"), ("ITALIC", ""))


class _Unit:
    """One piece of output: its LaTeX, the character it came from, and how it may be merged."""
    __slots__ = ("tex", "base", "kind")

    def __init__(self, tex: str, base: str = "", kind: str = "") -> None:
        self.tex, self.base, self.kind = tex, base, kind


def _math_of(ch: str):
    """The character as maths (for a math accent on it), or None."""
    if ch.isascii() and ch.isalnum():
        return ch
    if ch in _GREEK:
        return "\\" + _GREEK[ch]
    if ch in _GREEK_LATIN:
        return _GREEK_LATIN[ch]
    return None


def _char(ch: str) -> list[_Unit]:
    if ch.isascii():
        return [_Unit(_ASCII.get(ch, ch), ch)]
    if ch in _MATH:
        return [_Unit(r"\ensuremath{" + _MATH[ch] + "}", ch)]
    if ch in _TEXT:
        return [_Unit(_TEXT[ch], ch)]
    decomposition = unicodedata.decomposition(ch)
    tag = decomposition.split(" ", 1)[0] if decomposition.startswith("<") else ""
    if tag in ("<super>", "<sub>"):
        inner = "".join(u.tex for u in _units(unicodedata.normalize("NFKD", ch)))
        return [_Unit(inner, ch, tag)]
    if tag == "<font>":
        plain = unicodedata.normalize("NFKD", ch)
        name = unicodedata.name(ch, "")
        for word, command in _STYLES:
            if word in name and plain.isascii() and plain.isalnum():
                return [_Unit(rf"\ensuremath{{{command}{{{plain}}}}}" if command else rf"\ensuremath{{{plain}}}", ch)]
        return _units(plain)
    if decomposition and not tag:  # a precomposed letter: the base and its combining accents
        return _units(unicodedata.normalize("NFD", ch))
    if tag:
        plain = unicodedata.normalize("NFKD", ch)
        if plain != ch:
            return _units(plain)
    return [_Unit(f"[U+{ord(ch):04X}]", ch)]


def _units(text: str) -> list[_Unit]:
    out: list[_Unit] = []
    for ch in text:
        if unicodedata.combining(ch):
            prev = out.pop() if out else _Unit("", "")
            base = _math_of(prev.base) if len(prev.base) == 1 else None
            if ch in _TEXT_ACCENT and len(prev.base) == 1 and prev.base.isascii() and prev.base.isalpha():
                out.append(_Unit(f"{_TEXT_ACCENT[ch]}{{{prev.tex}}}", ""))
            elif ch in _MATH_ACCENT and base is not None:
                out.append(_Unit(rf"\ensuremath{{{_MATH_ACCENT[ch]}{{{base}}}}}", ""))
            else:  # an accent with no safe rendering on this base: keep the base, drop the accent
                out.append(prev)
            continue
        for unit in _char(ch):
            if unit.kind and out and out[-1].kind == unit.kind:
                out[-1].tex += unit.tex
            else:
                out.append(unit)
    return out


# Where a long formula or number may break across lines: after these characters, in words this long.
_BREAK_AFTER = frozenset("*+-/,=(·:;|^")
_LONG_WORD = 24
_DIGIT_RUN = 8


def _break_points(units: list[_Unit]) -> list[_Unit]:
    """Allow line breaks inside long words (formulas, group orders) where a reader expects them."""
    out: list[_Unit] = []
    run = digits = 0
    for unit in units:
        out.append(unit)
        if unit.base == " ":
            run = digits = 0
            continue
        run += 1
        digits = digits + 1 if unit.base.isdigit() else 0
        if run >= _LONG_WORD and unit.base in _BREAK_AFTER or digits >= _DIGIT_RUN:
            out.append(_Unit(r"\allowbreak{}", ""))
            run = digits = 0
    return out


def escape(text: str) -> str:
    """Text as an ASCII LaTeX string that prints as the text (special characters and Unicode mapped)."""
    parts = []
    for unit in _break_points(_units(" ".join(str(text).split()))):
        if unit.kind == "<super>":
            parts.append(r"\textsuperscript{" + unit.tex + "}")
        elif unit.kind == "<sub>":
            parts.append(r"\textsubscript{" + unit.tex + "}")
        else:
            parts.append(unit.tex)
    return "".join(parts)


def _spaced(text: str, tex: str) -> str:
    """`tex` with the space that `text` had at either end (escape collapses it)."""
    if not text.strip():
        return " " if text else ""
    return (" " if text[0].isspace() else "") + tex + (" " if text[-1].isspace() else "")


# A formula whose LaTeX is longer than this is set on a line of its own with \uapmath (an unbreakable box,
# scaled down to the line width when wider), the words going on after it; a shorter one is set inline as
# $...$, where TeX may break after a relation.
_LONG_FORMULA = 60


def formula_tex(part, headline: bool = False) -> str:
    """A claim's formula part in math mode (through SymPy's LaTeX printer); a group named by a
    description is set as text. `headline`: inside the verdict headline, the argument of \\textbf, where a long
    formula's own line ends with \\newline (\\par is not allowed there)."""
    tex = part_latex(part)
    if tex is None:
        return escape(part.text)
    tex = " ".join(tex.split())
    if len(tex) > _LONG_FORMULA or getattr(part, "structure", None) is not None:
        # a group named by its structure has words in \text, where TeX cannot break: a line of its own
        if headline:
            return r"\newline\uapmath{" + tex + r"}\newline "
        return r"\par{\centering\uapmath{" + tex + r"}\par}"
    return f"${tex}$"


def claim_tex(parts) -> str:
    """A claim (its typed parts, uapcheck/claim.py) as LaTeX: words escaped, formulas in math mode."""
    return "".join(_spaced(part, escape(part)) if isinstance(part, str) else formula_tex(part) for part in parts)


MARK = {proof.PROVED: r"\ensuremath{\checkmark}", proof.REFUTED: r"\ensuremath{\times}", proof.UNDECIDED: "?"}

PREAMBLE = (r"\usepackage{amsmath,amssymb,amsthm,graphicx}", r"\theoremstyle{definition}",
            r"\newtheorem*{uapverdict}{Verdict}", r"\newsavebox{\uapbox}",
            # a formula in math mode, scaled down to the line width when it is wider (never into the margin)
            r"\newcommand{\uapmath}[1]{\sbox{\uapbox}{$#1$}\ifdim\wd\uapbox>\linewidth"
            r"\resizebox{\linewidth}{!}{\usebox{\uapbox}}\else\usebox{\uapbox}\fi}")

_SUBSCRIPTED = re.compile(r"^([A-Z])_([A-Za-z0-9]+)$")
_LONG_NUMBER = 15


def group_math(group) -> str:
    """The group as LaTeX: S_n, C_n, D_n in math mode, other names as text, long orders bounded; a group by
    residue class of n as each class's group with its condition in math mode."""
    if group.classes:
        last = len(group.classes) - 1 if group.every_class() else len(group.classes)
        return ", ".join(f"{group_math(c.group)} if {formula_tex(Formula(c.condition, ''), headline=True)}" if k < last
                         else f"else {group_math(c.group)}" for k, c in enumerate(group.classes))
    name = group.name
    if name:
        m = _SUBSCRIPTED.match(name)
        if m:
            return rf"${m[1]}_{{{m[2]}}}$"
        structure = getattr(group, "structure", None)
        if structure is not None and len(structure.latex) <= _LONG_FORMULA:
            return f"${structure.latex}$"  # a long structure stays words here, which may break across lines
        return escape(name)
    if getattr(group, "order_latex", None):
        return "the group of order " + f"${group.order_latex}$"
    return "the group of order " + order_math(group.order)


def order_math(order) -> str:
    """A group order in math mode; a long one as its leading digits and power of ten (never 200 digits)."""
    if isinstance(order, int) and order > 0:
        exponent = int(math.log10(order))
        if exponent < _LONG_NUMBER:
            return f"${order}$"
        return rf"$\approx 10^{{{exponent}}}$"
    return escape(str(order))


def layers_math(layers) -> str:
    """The layer count in math mode; a long one (a case list by residue of n) on a line of its own with \\uapmath,
    scaled down to the line width when wider (TeX cannot break inside it); the lines end with \\newline, not \\par,
    since the headline is the argument of \\textbf."""
    if isinstance(layers, int):
        return f"${layers}$"
    import sympy
    if isinstance(layers, sympy.Basic):
        if layers.has(sympy.Piecewise) and not isinstance(layers, sympy.Piecewise):
            folded = sympy.piecewise_fold(layers)  # D + 1 by residue as one case list, as the text prints it
            layers = folded if isinstance(folded, sympy.Piecewise) else layers
        from .math import latex as math_latex
        tex = math_latex(layers)
        if len(tex) > _LONG_FORMULA:
            return r"\newline\uapmath{" + " ".join(tex.split()) + r"}\newline "
        return f"${tex}$"
    return escape(str(layers))


def headline_tex(result) -> str:
    """The verdict headline with the group and the layer count in math mode."""
    outcome = getattr(result, "target", None)
    if outcome is not None:  # a declared target class (docs/theory.md §14): no group in the claim
        return _target_tex(outcome)
    alternative = getattr(result, "alternative", None)
    if result.verdict != "UAP":
        where = result.root.facts.get("range")  # a NOT-UAP verdict's range, the obstruction's (§12)
        stated = "for " + formula_tex(Formula(where, ""), headline=True) + escape(lengths_text(result)) \
            if where is not None else ""
        if alternative is not None:
            within = f" ({stated})" if stated else ""
            return escape(f"{result.verdict} for G-equivariant targets") + within + "; " + _target_tex(alternative)
        if other_classes(result) and where is None:
            return _classes_tex(result)[2:] + escape(f"; {result.verdict} otherwise")
        if where is not None:
            return escape(result.verdict) + " (for " + formula_tex(Formula(where, ""), headline=True) + ")" + \
                _classes_tex(result) + \
                escape(lengths_text(result))
        return escape(result.verdict)
    g, lay = result.group, result.layers
    kind = "convolution" if getattr(result.spec, "mixer", None) is not None else "attention"
    text = rf"UAP $\cdot$ $G =$ {group_math(g)} $\cdot$ {layers_math(lay)} {kind} layer{'' if lay == 1 else 's'}"
    from .verdict_lines import layers_least, not_least_words
    if layers_least(result) is False:
        text += escape(not_least_words(result))
    if g.condition:
        text += " (for " + condition_tex(g) + ")"
    return text + _classes_tex(result) + escape(lengths_text(result))


def _classes_tex(result) -> str:
    """"; NOT-UAP for $n \\geq 3 \\wedge …$" for each residue class with another verdict (§12)."""
    return "".join(f"; {escape(verdict)} for " + formula_tex(Formula(cond, ""), headline=True)
                   for cond, verdict in other_classes(result))


def condition_tex(group) -> str:
    """The group's range condition: in math mode when it is typed (`condition_formula`), else words."""
    typed = getattr(group, "condition_formula", None)
    if typed is not None:
        return formula_tex(Formula(typed, str(group.condition)), headline=True)
    return escape(str(group.condition))


def _target_tex(outcome) -> str:
    """"UAP for causal targets with 2 attention layers", the layer count in math mode."""
    if outcome.verdict != "UAP":
        return escape(outcome.phrase())
    lay = outcome.layers
    least = "" if outcome.least else " (sufficient, not shown least)"
    after = least + outcome.range_words()
    return (escape(f"UAP for {outcome.target} targets with") + " " + layers_math(lay) +
            f" attention layer{'' if lay == 1 else 's'}" + _spaced(after, escape(after)))


def render(result, standalone: bool = False) -> str:
    from .spoken import spoken
    result = spoken(result)  # the file's name for the length in every statement
    ids = proof.number_steps(result.root)
    spec = result.spec
    out: list[str] = []
    if standalone:
        out += [r"\documentclass[11pt]{article}", r"\usepackage[margin=1in]{geometry}", *PREAMBLE,
                r"\emergencystretch=3em", r"\begin{document}", ""]
    else:
        out += ["% uapcheck report. Preamble needed:"] + [f"%   {line}" for line in PREAMBLE] + [""]
    out += [rf"\section*{{{escape(spec.architecture)}}}",
            rf"\noindent\texttt{{{escape(shown_path(spec.path))}}}", "",
            r"\begin{uapverdict}", r"\textbf{" + headline_tex(result) + "}.", claim_tex(reason_parts(result)) + "."]
    line = expect_line(result)
    if line is not None:
        out.append(r"\par " + (escape(line) if result.expect_holds else r"\textbf{" + escape(line) + "}"))
    out += [r"\end{uapverdict}", ""]
    quotes = source.head_quotes(spec)
    if quotes:
        out += [r"\paragraph*{Source}", r"\begin{flushleft}"]
        for quote in quotes:
            out += source.latex(quote, escape)
        out += [r"\end{flushleft}", ""]
    out += [r"\begin{proof}[Derivation]\leavevmode", r"\begin{enumerate}"]
    for step in result.root.walk():
        item = rf"\item[\textbf{{[{ids[id(step)]}]}}] {MARK[step.status]} \texttt{{{escape(step.rule)}}}"
        if step.premises:
            item += " (from " + ", ".join(ids[id(p)] for p in step.premises) + ")"
        out.append(item + ": " + claim_tex(step.claim_parts))
        for formula in step_formulas(step, shown=claim_formulas(step)):
            out.append(r"  \par \uapmath{" + formula + "}")
        for note in step.notes:
            out.append(r"  \par Note: " + escape(note))
        out.append(r"  \par \emph{" + escape(step.citation.display()) + "}")
    out += [r"\end{enumerate}", r"\end{proof}"]
    if standalone:
        out += ["", r"\end{document}"]
    return "\n".join(out) + "\n"
