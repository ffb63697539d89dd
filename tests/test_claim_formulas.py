"""Formulas inside claims are mathematics: a claim is built from typed parts (uapcheck/claim.py), the
text printer words it as before, and the LaTeX and Markdown printers set each formula part in math mode
through SymPy's LaTeX printer, never as escaped text."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import sympy
from catalog_results import catalog_names, catalog_result

from uapcheck import claim as C
from uapcheck.render import latex, markdown
from uapcheck.render.math import latex as sympy_latex
from uapcheck.render.math import part_latex

REPO = Path(__file__).resolve().parents[1]
FILES = ("softmax", "bigbird", "longformer", "causal_decoder", "rbf", "linear_relu", "cn_convolution", "alibi",
         "sparse_transformer_fixed", "bias_term_tanh")

# A formula word escaped as text: a subscript or superscript escaped, or a Python power.
_ESCAPED_FORMULA = re.compile(r"\\_|\\textasciicircum|\*\*|\w\*\w")


@pytest.fixture(scope="module", params=FILES)
def case(request):
    result = catalog_result(f"{request.param}.uap")
    return request.param, result, latex.render(result), markdown.render(result)


def _claim_lines(tex: str) -> list[str]:
    return [line for line in tex.splitlines() if line.startswith(r"\item[")]


def _math_spans(tex: str) -> list[str]:
    """The contents of $...$ and of \\uapmath{...} (balanced braces) in a line."""
    spans = re.findall(r"(?<!\\)\$([^$]+)\$", tex)
    start = 0
    while (k := tex.find(r"\uapmath{", start)) >= 0:
        depth, i = 0, k + len(r"\uapmath")
        for i in range(k + len(r"\uapmath"), len(tex)):
            depth += {"{": 1, "}": -1}.get(tex[i], 0)
            if depth == 0:
                break
        spans.append(tex[k + len(r"\uapmath{"):i])
        start = i
    return spans


def test_no_formula_in_a_claim_is_escaped_as_text(case):
    """The words of every claim, as the LaTeX printer sets them, hold no escaped subscript or power and
    no Python product: those are formula parts (a group named by its structure, such as `S_2 on {1, 2}`,
    too: groups.GroupStructure)."""
    name, result, tex, _ = case
    for step in result.root.walk():
        for part in step.claim_parts:
            if isinstance(part, str):
                words = latex.escape(part)
                assert not _ESCAPED_FORMULA.search(words), f"{name} {step.rule}: a formula set as text in {words!r}"


def test_every_formula_part_is_in_math_mode(case):
    name, result, tex, md = case
    lines = "\n".join(_claim_lines(tex))
    spans = _math_spans(lines)
    seen = 0
    for step in result.root.walk():
        for part in step.claim_parts:
            if isinstance(part, str):
                continue
            formula = part_latex(part)
            if formula is None:  # a group named by a description is words
                continue
            seen += 1
            formula = " ".join(formula.split())
            assert formula in spans, f"{name}: {formula!r} is not set in math mode"
            assert markdown.math(formula) in md
    assert seen, f"{name}: no claim has a formula part"


def test_the_kernel_of_each_reduction_is_a_formula_in_its_claim(case):
    name, result, tex, md = case
    for step in result.root.walk():
        if step.rule != "LIM-REDUCE" or "kernel" not in step.facts:
            continue
        kernels = [p for p in step.claim_parts if isinstance(p, (C.Formula, C.Chain))]
        assert kernels, f"{name}: LIM-REDUCE states its kernel as text"
        assert any(sympy_latex(step.facts["kernel"]) in part_latex(p) for p in kernels)
        spans = _math_spans("\n".join(_claim_lines(tex)))
        assert any(sympy_latex(step.facts["kernel"]) in span for span in spans)


def test_the_text_wording_is_the_parts_wording(case):
    _, result, _, _ = case
    for step in result.root.walk():
        assert str(C.Claim(step.claim_parts)) == step.claim


# A formula in words: a subscript, a power, a Python product, a product by juxtaposition (`2w(D − 1)`), or an
# inequality between two sums (`n − 1 ≥ 2w(D − 1) + 2`), as a theorem's method text writes its conditions.
_FORMULA_IN_WORDS = re.compile(r"\*\*|\^|\b[A-Za-z]_[A-Za-z0-9(]|\w\*\w|\d[A-Za-z]\(|[\w)] [−+] [\w(]+ [≥≤<>] [\w(]+ [−+·]")


def test_the_catalog_claims_have_no_formula_left_in_words():
    """Across the whole catalog, no claim's words hold a subscript, a power or a Python product:
    those are formula parts (a group order written as a product of factorials, `128! · (64!)^62`, too:
    GroupInfo.order_latex carries its formula). The method texts a claim quotes are words of the claim too: a
    theorem's inequalities on n (Theorem F143's ball 2w(D − 1) + 1 and its fit n − a − b ≥ 2w(D − 1) + 2) are
    formula parts, set in math mode by the LaTeX and Markdown printers."""
    found = []
    for name in catalog_names():
        for step in catalog_result(name).root.walk():
            for part in step.claim_parts:
                if isinstance(part, str) and _FORMULA_IN_WORDS.search(part):
                    found.append((name, step.rule, part))
    assert not found, found[:10]


def test_the_f143_method_sets_its_inequalities_in_math_mode():
    result = catalog_result("ring_one_way_wrap_heads_n.uap")
    step = next(s for s in result.root.walk() if s.rule == "PAT-LAYERS")
    texts = [p.text for p in step.claim_parts if isinstance(p, C.Formula)]
    assert "2w(D − 1) + 1" in texts and any(t.endswith(" ≥ 2w(D − 1) + 2") for t in texts), texts
    tex = latex.render(result)
    assert r"n - 1 \geq 2 w \left(D - 1\right) + 2" in tex


# ---------------------------------------------------------------- the claim type

def test_claims_join_and_word_as_text():
    n = sympy.Symbol("n")
    c = C.claim("the depth is ", C.math(sympy.ceiling((n - 1) / sympy.Symbol("w"))), " layers") + "; " + C.claim(C.group("S_n", "G"))
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
    result = catalog_result("longformer.uap")
    verdict = result.root
    assert any(isinstance(p, C.GroupName) or isinstance(p, C.Formula) for p in verdict.claim_parts)
    assert verdict.claim == str(C.Claim(verdict.claim_parts))


def test_a_product_of_factorials_is_a_formula_in_latex_and_markdown():
    """bigbird_itc's order 128! · (64!)^62: words in the text and JSON, a formula in LaTeX and Markdown."""
    from uapcheck.render import latex as latex_render, markdown as markdown_render
    r = catalog_result("bigbird_itc.uap")
    assert "a group of order 128! · (64!)^62" in r.root.claim
    tex, md = latex_render.render(r), markdown_render.render(r)
    assert r"$128! \cdot (64!)^{62}$" in tex and r"\textasciicircum" not in tex
    assert r"$`128! \cdot (64!)^{62}`$" in md
