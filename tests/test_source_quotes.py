"""Reports quote the attention heads' source lines, highlighted by the `.uap` Pygments lexer."""
from __future__ import annotations

import re
import subprocess
import sys

import uapcheck
from uapcheck.render import latex, markdown, source

SPEC = """architecture "quoted"
tokens n
# a comment line between statements
attention {
  kernel k(x, y) = exp(beta * x · y)   # trailing comment
}
param beta > 0
"""


def _result(text=SPEC):
    return uapcheck.check(text, "quoted.uap")


def test_head_quotes_take_the_head_lines_with_their_numbers():
    quotes = source.head_quotes(_result().spec)
    assert [q.first_line for q in quotes] == [4]
    assert quotes[0].text.splitlines() == ["attention {", "  kernel k(x, y) = exp(beta * x · y)   # trailing comment", "}"]


def test_heads_on_neighbouring_lines_are_one_block_and_distant_heads_two():
    text = ('architecture "two"\ntokens n\nattention { kernel k(x, y) = exp(x . y) }\n'
            'attention { kernel k(x, y) = exp(2 * x . y) }\n\n\nattention { kernel k(x, y) = exp(3 * x . y) }\n')
    quotes = source.head_quotes(_result(text).spec)
    assert [(q.first_line, len(q.text.splitlines())) for q in quotes] == [(3, 2), (7, 1)]


def test_a_spec_without_source_quotes_nothing():
    import dataclasses
    spec = dataclasses.replace(_result().spec, source="")
    assert source.head_quotes(spec) == []


def test_markdown_has_a_fenced_uap_block_after_the_verdict():
    md = markdown.render(_result())
    assert md.index("## Verdict") < md.index("## Source") < md.index("## Derivation")
    block = md[md.index("```uap 4"):]
    assert block.splitlines()[1] == "attention {"
    assert "```" in block.splitlines()[4]


def test_latex_quote_is_ascii_and_highlights_keywords_and_comments():
    tex = latex.render(_result())
    part = tex[tex.index(r"\paragraph*{Source}"):tex.index(r"\begin{proof}")]
    assert part.isascii()
    assert r"\textsl{attention}" in part and r"\textsl{kernel}" in part
    assert r"\textit{\# trailing comment}" in part
    assert r"\ensuremath{\cdot}" in part
    assert re.search(r"\\texttt\{\\footnotesize 4\\ \\ ", part)
    assert len(re.findall(r"\\texttt\{", part)) == 3


def test_notebook_html_highlights_the_quote_with_its_line_numbers():
    page = _result()._repr_html_()
    quoted = page[page.index("Source"):]
    assert '<span style="color: #888">4</span>' in quoted
    assert re.search(r'<span style="[^"]*">attention</span>', quoted)
    assert "<pre><pre" not in page  # no nested blocks


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "uapcheck", *args], capture_output=True, text=True, timeout=120)


def test_full_text_report_quotes_the_source_and_the_compact_one_does_not(tmp_path):
    path = tmp_path / "quoted.uap"
    path.write_text(SPEC, "utf-8")
    full = _cli(str(path), "--full", "--color", "never")
    compact = _cli(str(path), "--color", "never")
    assert full.returncode == compact.returncode == 0, full.stderr
    assert re.search(r"^\s*5\s+kernel k\(x, y\) = exp\(beta \* x · y\)", full.stdout, re.M)
    assert "kernel k(x, y)" not in compact.stdout


def test_full_text_report_colours_keywords_when_colour_is_on(tmp_path):
    path = tmp_path / "quoted.uap"
    path.write_text(SPEC, "utf-8")
    out = _cli(str(path), "--full", "--color", "always").stdout
    assert re.search(r"\x1b\[[0-9;]*m(attention|kernel)\x1b\[0m", out)
