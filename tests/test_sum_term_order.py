"""Sums in the reports are printed in the reader's order (uapcheck/show.py reader_order): the terms with a letter and
no minus sign first (⌈(n - k - 1)/w⌉, not SymPy's ⌈(-k + n - 1)/w⌉), a positive number leading when every other
term has a minus sign (3 - n); the size and order printers agree, and the JSON's SymPy strings are unchanged."""
from __future__ import annotations

import sympy

from uapcheck.show import show_order_expr, show_size

n, k, w = sympy.symbols("n k w", integer=True, positive=True)


def test_the_streaming_window_count_reads_n_minus_k_minus_1():
    e = sympy.ceiling((n - k - 1) / w)
    assert show_size(e) == "⌈(n - k - 1)/w⌉"
    assert show_order_expr(e) == "⌈(n − k − 1)/w⌉"
    assert sympy.sstr(e) == "ceiling((-k + n - 1)/w)"  # the JSON's machine form is SymPy's own


def test_sums_that_were_already_in_order_keep_it():
    assert show_size(n - 1) == "n - 1"
    assert show_size(2 * w + 1) == "2·w + 1"
    assert show_size(k - n + 1) == "k - n + 1"
    assert show_size(-k - 1) == "-k - 1"
    assert show_size(1 + sympy.exp(-k * n)) == "1 + exp(-k·n)"


def test_a_positive_number_leads_a_sum_of_negative_terms():
    assert show_size(3 - n) == "3 - n"
    assert show_order_expr(1 - n) == "1 − n"


def test_the_streaming_llm_headline():
    from uapcheck import check_file
    result = check_file("catalog/streaming_llm.uap")
    assert "⌈(n - k - 1)/w⌉ attention layers" in result.alternative.phrase()


def test_latex_and_markdown_formulas_of_sizes_use_the_reader_order():
    """The LaTeX and Markdown reports set counts, radii and ranges in n and the params as the text does."""
    from uapcheck import check_file
    from uapcheck.render import latex as latex_report
    from uapcheck.render import markdown as markdown_report
    from uapcheck.render.math import latex
    assert latex(sympy.ceiling((n - k - 1) / w)) == r"\left\lceil{\frac{n - k - 1}{w}}\right\rceil"
    assert latex(sympy.Eq(sympy.Symbol("r"), n - k - 1, evaluate=False)) == "r = n - k - 1"
    assert latex(3 - n) == "3 - n"
    result = check_file("catalog/streaming_llm.uap")
    for text in (latex_report.render(result), markdown_report.render(result)):
        assert r"\frac{n - k - 1}{w}" in text and r"\frac{- k + n - 1}{w}" not in text
    assert "UAP for causal targets with $" in latex_report.render(result)  # the space before the formula


def test_kernel_formulas_keep_sympys_order():
    """A formula with a real symbol (a kernel's invariant, t) is not a size: SymPy's order (by degree in t)."""
    from uapcheck.render.math import latex
    t, g = sympy.symbols("t gamma", positive=True)
    xz = sympy.Symbol("x·z")
    expr = -g * t**2 + 2 * g * t * xz
    assert latex(expr) == sympy.latex(expr, symbol_names={xz: r"x \cdot z"}, ln_notation=True)
