"""Formulas inside claims are mathematics: a claim is built from typed parts (uapcheck/claim.py), the
text printer words it as before, and the LaTeX and Markdown printers set each formula part in math mode
through SymPy's LaTeX printer, never as escaped text."""
from __future__ import annotations

from pathlib import Path

import pytest
import sympy

import uapcheck
from uapcheck import claim as C
from uapcheck.render import latex, markdown

REPO = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- the claim type

def test_claims_join_and_word_as_text():
    n = sympy.Symbol("n")
    depth = C.math(sympy.ceiling((n - 1) / sympy.Symbol("w")))
    c = C.claim("the depth is ", depth, " layers") + "; " + C.claim(C.group("S_n", "G"))
    assert str(c) == "the depth is ceiling((n - 1)/w) layers; G = S_n"
    assert [type(p).__name__ for p in c.parts] == ["str", "Formula", "str", "GroupName"]
    assert C.claim("a", "b", C.claim("c")).parts == ("abc",)
    assert ("x " + C.claim(C.math(n))).parts[0] == "x "
    with pytest.raises(TypeError):
        C.claim(1.5)
    with pytest.raises(TypeError):
        C.math("n + 1")  # text is never parsed into a formula
    with pytest.raises(AttributeError):
        c.parts = ()


def test_the_latex_printer_sets_parts_and_escapes_words():
    n = sympy.Symbol("n")
    parts = C.claim("x_j reaches ", C.math(sympy.ceiling((n - 1) / sympy.Symbol("w"))), " and ",
                    C.group("S_n", "G"), " and ", C.group("S_2 on {1, 2}", "G")).parts
    tex = latex.claim_tex(parts)
    assert tex.startswith(r"x\_j reaches $\left\lceil{\frac{n - 1}{w}}\right\rceil$ and $G = S_{n}$ and ")
    assert tex.endswith(r"G = S\_2 on \{1, 2\}")  # a description is words
    md = markdown.claim_markdown(parts)
    assert r"$`\left\lceil{\frac{n - 1}{w}}\right\rceil`$" in md and "$`G = S_{n}`$" in md
    assert md.startswith(r"x\_j reaches ")


def test_a_long_formula_is_set_on_its_own_line_scaled_to_it_not_into_the_margin():
    x = sympy.Symbol("x")
    long = sum(x ** k for k in range(40))
    tex = latex.formula_tex(C.math(long))
    assert tex.startswith(r"\par{\centering\uapmath{") and tex.endswith(r"}\par}")
    assert latex.formula_tex(C.math(x + 1)) == "$x + 1$"


def test_a_step_keeps_its_parts():
    result = uapcheck.check_file(str(REPO / "catalog" / "longformer.uap"))
    verdict = result.root
    assert any(isinstance(p, C.GroupName) or isinstance(p, C.Formula) for p in verdict.claim_parts)
    assert verdict.claim == str(C.Claim(verdict.claim_parts))
