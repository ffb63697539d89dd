"""The Markdown and LaTeX printers: every step and rule is shown, the verdict headline appears, the
Markdown list nests premises under their conclusions (checked with a CommonMark parser), and the
LaTeX fragment escapes every special character and keeps its braces balanced."""
from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from catalog_results import catalog_names, catalog_result
from markdown_it import MarkdownIt

import uapcheck
from uapcheck import proof
from uapcheck.render import latex, markdown

REPO = Path(__file__).resolve().parents[1]
FILES = ("catalog/softmax.uap", "catalog/longformer.uap", "catalog/causal.uap")

# Claims, notes and citations with every character either format treats specially.
NASTY = ("a_b | c*d `e` \\f [g](h) <i> #j ~k ^l & 50% $m$ {n} — "
         "σ·θ² ≥ γ ≤ κ → ∞ ∈ λ ⊥ ⟂ ∩ ξ ‖x‖ ∖ × ⌈n⌉ ⌊n⌋ ≠ ± − … "
         "✔ ✘ k̃ z₁ Wᵀ 90° ö")


@pytest.fixture(scope="module", params=FILES)
def case(request):
    result = catalog_result(Path(request.param).name)
    return result, markdown.render(result), latex.render(result)


def _steps(result):
    ids = proof.number_steps(result.root)
    return ids, list(result.root.walk())


# ---------------------------------------------------------------- both formats

def test_every_step_and_rule_appears(case):
    result, md, tex = case
    ids, steps = _steps(result)
    assert sorted(ids.values(), key=lambda s: int(s[1:])) == [f"s{i}" for i in range(1, len(steps) + 1)]
    for step in steps:
        sid = ids[id(step)]
        assert f"**[{sid}]**" in md
        assert f"`{step.rule}`" in md
        assert rf"\textbf{{[{sid}]}}" in tex
        assert rf"\texttt{{{latex.escape(step.rule)}}}" in tex


def test_verdict_headline_appears(case):
    result, md, tex = case
    head = markdown.headline(result)
    assert head.startswith(result.verdict)
    assert f"**{markdown.headline_markdown(result)}**" in md
    assert markdown.headline_markdown(result).startswith(markdown.escape(result.verdict))
    if result.verdict == "UAP" and result.group.name == "S_n":
        assert "$`G = S_{n}`$" in markdown.headline_markdown(result)
    assert latex.headline_tex(result) in tex
    if result.spec.expect is not None:
        assert markdown.expect_line(result) in _md_text(md)


def test_headline_matches_text_printer():
    result = catalog_result("softmax.uap")
    assert markdown.headline(result) == "UAP · G = S_n · 1 attention layer"


# ---------------------------------------------------------------- Markdown

def _md_text(md: str) -> str:
    """The rendered text of a Markdown document (HTML tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", "", MarkdownIt("commonmark").render(md)))


def _md_tree(md: str):
    """The ordered-list items of the document as (step id, [children]) from a CommonMark parse."""
    roots: list = []
    stack: list = []  # open list items: [id or None, children]
    for tok in MarkdownIt("commonmark").parse(md):
        if tok.type == "list_item_open":
            stack.append([None, [], tok.markup in (".", ")")])
        elif tok.type == "list_item_close":
            item = stack.pop()
            if item[2]:
                node = (item[0], item[1])
                (next(s for s in reversed(stack) if s[2])[1] if any(s[2] for s in stack) else roots).append(node)
        elif tok.type == "inline" and stack and stack[-1][2] and stack[-1][0] is None:
            m = re.match(r"\*\*\[(s\d+)\]\*\*", tok.content)
            stack[-1][0] = m[1] if m else "?"
    return roots


def test_markdown_list_nests_premises(case):
    result, md, _ = case
    ids, _ = _steps(result)

    def expected(step):
        return (ids[id(step)], [expected(p) for p in step.premises])

    def shape(node, seen):
        # a step shown a second time is a one-line reference without its premises
        sid, kids = node
        if sid in seen:
            assert kids == []
            return None
        seen.add(sid)
        return (sid, [shape(k, seen) for k in kids])

    def strip(node, seen):
        sid, kids = node
        if sid in seen:
            return None
        seen.add(sid)
        return (sid, [strip(k, seen) for k in kids])

    tree = _md_tree(md)
    assert len(tree) == 1
    assert shape(tree[0], set()) == strip(expected(result.root), set())


def test_markdown_premise_lines_are_indented_more(case):
    result, md, _ = case
    ids, steps = _steps(result)
    by_id = {ids[id(s)]: s for s in steps}
    items = [(len(m[1]), m[2]) for m in re.finditer(r"^( *)\d+\. \*\*\[(s\d+)\]\*\*", md, re.M)]
    assert items[0] == (0, ids[id(result.root)])
    stack: list = []  # (indent, id) of the enclosing items
    pairs = set()
    for indent, sid in items:
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if stack:
            parent = by_id[stack[-1][1]]
            assert by_id[sid] in parent.premises, f"{sid} is nested under {stack[-1][1]}, not its conclusion"
            assert indent > stack[-1][0]
            pairs.add((stack[-1][1], sid))
        stack.append((indent, sid))
    expected = {(ids[id(s)], ids[id(p)]) for s in steps for p in s.premises}
    assert expected <= pairs


def test_markdown_claims_survive_rendering(case):
    """Each claim's words read as themselves; each of its formula parts is GitHub math ($`…`$) from
    SymPy's LaTeX printer (render/math.py), never its plain wording."""
    from uapcheck.render.math import part_latex
    result, md, _ = case
    text = _md_text(md)
    for step in result.root.walk():
        for part in step.claim_parts:
            if isinstance(part, str):
                assert " ".join(part.split()) in text
            elif part_latex(part) is not None:
                assert markdown.math(part_latex(part)) in md
        assert " ".join(step.cite.split()) in text
        for note in step.notes:
            assert " ".join(note.split()) in text


def test_markdown_escape_and_code_spans():
    assert _md_text(markdown.escape(NASTY)).strip() == NASTY
    for start in ("1. x", "- x", "+ x", "# x", "> x", "=== x", "3) x"):
        assert _md_text(markdown.escape(start)).strip() == start
    for value in ("a`b", "``x``", "`", "a | b * c _d_"):
        rendered = MarkdownIt("commonmark").render(markdown.code(value))
        assert html.unescape(re.sub(r"</?(p|code)>", "", rendered)).strip() == value.strip()


def test_markdown_evidence_truncated_like_text_printer(case):
    result, md, _ = case
    for step in result.root.walk():
        for _, value in markdown.evidence_items(step.evidence):
            assert len(value) <= markdown.EVIDENCE_WIDTH
        assert len(markdown.evidence_items(step.evidence)) <= markdown.EVIDENCE_LIMIT


# ---------------------------------------------------------------- LaTeX

_ESCAPED = re.compile(r"\\[\\&%$#_{}]")
_COMMENT_LINE = re.compile(r"^%.*$", re.M)
_MATH = re.compile(r"(?<!\\)\$[^$]*(?<!\\)\$")


def _without_uapmath(tex: str) -> str:
    """Drop each \\uapmath{...} formula (math mode), checking its braces balance."""
    out, i = [], 0
    while True:
        j = tex.find("\\uapmath{", i)
        if j < 0:
            return "".join(out) + tex[i:]
        out.append(tex[i:j])
        k, depth = j + len("\\uapmath{"), 1
        while depth:
            assert k < len(tex), "an unterminated \\uapmath formula"
            if tex[k] == "\\":
                k += 2
                continue
            depth += {"{": 1, "}": -1}.get(tex[k], 0)
            k += 1
        i = k


def _check_latex(tex: str) -> None:
    """Outside comment lines and maths ($...$, \\uapmath{...}), every special character is escaped;
    braces balance."""
    assert tex.isascii()
    bare = _ESCAPED.sub("", _MATH.sub("", _without_uapmath(_COMMENT_LINE.sub("", tex))))
    for ch in "_&%#^~$":
        assert ch not in bare, f"unescaped {ch!r} in {tex!r}"
    depth = 0
    for ch in bare:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0, "a closing brace without its opening one"
    assert depth == 0, "unbalanced braces"


def test_latex_is_escaped_and_balanced(case):
    _, _, tex = case
    _check_latex(tex)
    assert r"\documentclass" not in tex and r"\begin{document}" not in tex
    assert tex.count(r"\begin{enumerate}") == tex.count(r"\end{enumerate}") == 1
    assert r"\section*{" in tex and tex.index(r"\begin{uapverdict}") < tex.index(r"\begin{proof}")


def test_latex_steps_in_premises_first_order(case):
    result, _, tex = case
    ids, steps = _steps(result)
    shown = re.findall(r"\\item\[\\textbf\{\[(s\d+)\]\}\]", tex)
    assert shown == [ids[id(s)] for s in steps]
    for step in steps:
        if step.premises:
            assert "(from " + ", ".join(ids[id(p)] for p in step.premises) + ")" in tex
        assert r"\emph{" + latex.escape(step.citation.display()) + "}" in tex


def test_latex_escape_maps_every_symbol():
    tex = latex.escape(NASTY)
    _check_latex(tex)
    assert "[U+" not in tex  # every symbol has a mapping
    for ch, command in (("σ", r"\sigma"), ("≥", r"\geq"), ("→", r"\to"), ("∞", r"\infty"), ("⊥", r"\perp"),
                        ("∖", r"\setminus"), ("⌈", r"\lceil"), ("✔", r"\checkmark"), ("k̃", r"\tilde{k}"),
                        ("²", r"\textsuperscript{2}"), ("₁", r"\textsubscript{1}"), ("…", r"\ldots")):
        assert command in latex.escape(ch), ch
    _check_latex(latex.escape("\\ & % $ # _ { } ~ ^ 😀"))
    assert latex.escape("{") == r"\{" and latex.escape("\\") == r"\textbackslash{}"


# ---------------------------------------------------------------- CLI

def test_cli_markdown_format():
    proc = subprocess.run([sys.executable, "-m", "uapcheck", "--format", "markdown", "catalog/rbf.uap"],
                          capture_output=True, cwd=REPO, timeout=120,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode("utf-8")
    assert out.startswith("# RBF attention\n\n`catalog/rbf.uap`\n")
    assert out.index("## Verdict") < out.index("## Derivation") < out.index("**[s1]**")
    assert proc.stderr == b""


def test_markdown_shows_an_absolute_path_relative_to_the_working_directory():
    proc = subprocess.run([sys.executable, "-m", "uapcheck", "--format", "markdown", str(REPO / "catalog" / "rbf.uap")],
                          capture_output=True, cwd=REPO, timeout=120, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    out = proc.stdout.decode("utf-8")
    assert "`catalog/rbf.uap`" in out and str(REPO) not in out


def test_typed_facts_are_set_as_formulas(case):
    """Issue 12: every typed formula of a step (kernel, growing part, region, group, layers) is set in math
    mode through SymPy's LaTeX printer: `\\uapmath{...}` in LaTeX, GitHub's $`...`$ in Markdown."""
    from uapcheck.render.math import step_formulas
    result, md, tex = case
    formulas = [f for step in result.root.walk() for f in step_formulas(step)]
    assert formulas  # every catalog case has at least its layer count and group
    for formula in formulas:  # as a fact of its own, or inside the claim (then not repeated)
        assert r"\uapmath{" + formula + "}" in tex or "$" + formula + "$" in tex
        assert "$`" + formula + "`$" in md
        shown = MarkdownIt("commonmark").render("$`" + formula + "`$")  # elsewhere: verbatim code, not markup
        assert html.unescape(re.sub(r"</?(p|code)>", "", shown)).strip() == "$" + formula + "$"


def test_formulas_come_from_sympys_printer_and_the_typed_facts():
    import sympy

    # the invariants under the docs' names
    from uapcheck.lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c, SCALE as t
    from uapcheck.render import math as m
    result = uapcheck.check("attention { kernel k(x, y) = exp(-gamma * |x - y|^2)\n }\nparam gamma > 0\n")
    reduce = next(s for s in result.root.walk() if s.rule == "LIM-REDUCE")
    gamma = next(iter(reduce.facts["kernel"].free_symbols - {a, b, c, t}))
    expected = sympy.exp(-gamma * (t ** 2 * b - 2 * t * a + c))
    assert sympy.simplify(reduce.facts["kernel"] - expected) == 0
    assert m.step_formulas(reduce) == ["k(x, t z) = " + sympy.latex(
        reduce.facts["kernel"], symbol_names={a: r"x \cdot z", b: r"\lVert z \rVert^{2}", c: r"\lVert x \rVert^{2}"},
        ln_notation=True)]
    assert r"\gamma" in m.step_formulas(reduce)[0] and "·" not in m.step_formulas(reduce)[0]
    assert m.latex(sympy.Integer(10) ** 215 * sympy.Symbol("n")).startswith(r"\approx 10^{215}")
    assert m.integer(48) == "48"
    assert m.region(((a, -1), (b, 1))) == r"\{x \cdot z < 0, \lVert z \rVert^{2} > 0\}"
    with pytest.raises(TypeError):
        m.latex("x + 1")  # text is never parsed into a formula


def test_the_verdict_reason_is_cut_at_a_typed_mark_not_at_a_colon():
    """Every catalog verdict marks where its reason starts (claim.ReasonStart); the panels show the parts
    after it, and the words before it are the verdict the headline repeats."""
    from uapcheck.claim import Claim, ReasonStart
    from uapcheck.render.verdict_lines import reason
    for name in catalog_names():
        r = catalog_result(name)
        marks = [k for k, p in enumerate(r.root.claim_parts) if isinstance(p, ReasonStart)]
        assert len(marks) == 1, name
        before, after = Claim(r.root.claim_parts[:marks[0]]), Claim(r.root.claim_parts[marks[0] + 1:])
        assert str(before) + str(after) == r.root.claim
        assert reason(r) == str(after) and str(before).startswith(r.verdict.split()[0])


def test_steps_know_their_head_by_name():
    """Step.head is the head's name (its label, else its number), set while its analysis runs; steps
    outside the heads (FFN, pattern, group, verdict) have none."""
    r = catalog_result("two_heads.uap")
    heads = {s.rule: s.head for s in r.root.walk() if s.rule in ("TD-KERNEL", "FFN-DEF2", "SYM-AUT", "VERDICT-T1")}
    assert heads["FFN-DEF2"] is None and heads["SYM-AUT"] is None and heads["VERDICT-T1"] is None
    assert {s.head for s in r.root.walk() if s.rule == "TD-KERNEL"} == {"ring", "jumps"}


def test_a_large_group_without_listed_generators_says_so():
    from uapcheck.render.outline import flatten_evidence
    assert flatten_evidence({"group": "S_3 × S_4", "order": 144, "generators": []}) == [
        ("group", "S_3 × S_4"), ("order", "144"), ("generators", "not listed (the group is stated by its structure)")]
    assert flatten_evidence({"group": "trivial", "order": 1, "generators": []})[-1] == ("generators", "none")
    assert flatten_evidence({"generators": ["(1 2)"], "order": 2})[0] == ("generators", "(1 2)")
