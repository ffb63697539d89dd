"""The LaTeX reports compile with pdflatex: every catalog file's fragment (with the documented preamble)
in one document, and the standalone form as the command line prints it. No error, and no line that
runs into the margin (no overfull box). Skipped where pdflatex is absent, except in CI (which installs it)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from catalog_results import catalog_names, catalog_result

from uapcheck.render import latex

REPO = Path(__file__).resolve().parents[1]
PDFLATEX = shutil.which("pdflatex")

if PDFLATEX is None and os.environ.get("CI") != "true":
    pytest.skip("pdflatex is not installed (apt-get install texlive-latex-base)", allow_module_level=True)

OVERFULL = re.compile(r"Overfull \\hbox \(([\d.]+)pt too wide\)")


def compile_tex(source: str, tmp_path: Path) -> str:
    assert PDFLATEX is not None, "CI must install pdflatex (texlive-latex-base)"
    (tmp_path / "report.tex").write_text(source, "ascii")
    run = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "report.tex"],
                         cwd=tmp_path, capture_output=True, timeout=300)
    log = (tmp_path / "report.log").read_text("latin-1")
    assert run.returncode == 0, log[-3000:]
    assert (tmp_path / "report.pdf").stat().st_size > 0
    return log


def overfull(log: str) -> list[float]:
    return [float(width) for width in OVERFULL.findall(log)]


def test_every_catalog_fragment_compiles_with_the_documented_preamble(tmp_path):
    fragments = [latex.render(catalog_result(name)) for name in catalog_names()]
    for fragment in fragments:
        assert all(line.lstrip("% ") in fragment for line in latex.PREAMBLE)  # the fragment names its preamble
    document = "\n".join([r"\documentclass[11pt]{article}", r"\usepackage[margin=1in]{geometry}", *latex.PREAMBLE,
                          r"\emergencystretch=3em", r"\begin{document}", *fragments, r"\end{document}"])
    log = compile_tex(document, tmp_path)
    assert overfull(log) == []


def test_standalone_report_compiles_as_printed(tmp_path):
    run = subprocess.run([sys.executable, "-m", "uapcheck", "--format", "latex", "--standalone", "catalog/bigbird.uap"],
                         cwd=REPO, capture_output=True, timeout=300)
    assert run.returncode == 0, run.stderr.decode()
    source = run.stdout.decode("ascii")
    assert source.startswith(r"\documentclass") and source.rstrip().endswith(r"\end{document}")
    assert r"\begin{proof}" in source and r"$\cdot$" in source
    assert overfull(compile_tex(source, tmp_path)) == []


def test_a_huge_group_order_is_bounded(tmp_path):
    assert latex.order_math(10 ** 215 + 7) == r"$\approx 10^{215}$"
    assert latex.order_math(48) == "$48$"
    text = latex.escape("a group of order " + "7" * 216)
    assert text.count(r"\allowbreak{}") >= 20


def test_the_margin_check_sees_an_overfull_line(tmp_path):
    # The check above can fail: an unbreakable word wider than the text block is reported.
    log = compile_tex("\\documentclass{article}\\begin{document}\n" + "x" * 200 + "\n\\end{document}\n", tmp_path)
    assert overfull(log) and overfull(log)[0] > 100


def test_a_long_layer_count_in_the_headline_is_boxed_to_the_line(tmp_path):
    """A layer count by residue of n (a case list TeX cannot break) is set with \\uapmath in the headline, which is
    the argument of \\textbf (no \\par there); a short one stays inline."""
    import sympy
    n = sympy.Symbol("n", integer=True, positive=True)
    cases = sympy.Piecewise(*[(4 * sympy.floor(n / 24) + k, sympy.Or(*[sympy.Eq(sympy.Mod(n, 24), 6 * k + r)
                                                                        for r in range(6)])) for k in range(3)],
                            (4 * sympy.floor(n / 24) + 3, True))  # four cases, three of six residues each
    assert latex.layers_math(n + 1) == "$n + 1$"
    boxed = latex.layers_math(cases + 1)
    assert boxed.startswith(r"\newline\uapmath{") and r"\par" not in boxed
    document = "\n".join([r"\documentclass[11pt]{article}", r"\usepackage[margin=1in]{geometry}", *latex.PREAMBLE,
                          r"\begin{document}", r"\textbf{UAP $\cdot$ $G =$ trivial $\cdot$ " + boxed + " attention layers}.",
                          r"\end{document}"])
    assert overfull(compile_tex(document, tmp_path)) == []
