"""The Markdown report: a heading, the verdict, then the derivation as a nested numbered list.

Like the text printer, the list shows each conclusion with its premises nested under it. A step that
is a premise of several conclusions is shown in full once (its first place in reading order) and
afterwards as a one-line reference. Prose (claims, notes, citations) is backslash-escaped; evidence
values go in code spans; a step's typed facts (render/math.py) are written as GitHub math, $`…`$.
"""
from __future__ import annotations

import json
import re

from .. import proof
from . import source
from .math import claim_formulas, part_latex, step_formulas
from .math import latex as formula_latex
from .verdict_lines import expect_line, lengths_text, other_classes, reason_parts, shown_path, suggestion_line
from .verdict_lines import layers_least, not_least_words
from .verdict_lines import headline as headline  # the text headline, re-exported for callers of this module

MARK = {proof.PROVED: "✔", proof.REFUTED: "✘", proof.UNDECIDED: "?"}

EVIDENCE_LIMIT = 6       # entries per step, as in the text printer
EVIDENCE_WIDTH = 160     # characters per value, as in the text printer

# The characters that CommonMark (or GitHub's `$` maths and tables) may read as markup inside a line;
# `[` is escaped, so `(`, `)` and `!` cannot form links or images.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~$&])")
# What would start a block (list item, heading, quote, thematic break) at the start of a line.
_MD_LEADING = re.compile(r"^(\d+)([.)])|^([-+=])")


def escape(text: str) -> str:
    """Prose as Markdown that renders as the text itself (one line, every markup character escaped)."""
    text = _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))
    return _MD_LEADING.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", text)


def math(latex: str) -> str:
    """A formula as GitHub math: $`…`$, GitHub's inline form whose content Markdown leaves alone
    (so `_`, `\\` and `{` reach the math renderer unchanged; elsewhere it shows as code)."""
    latex = " ".join(latex.split())
    if "`" in latex:  # never produced by SymPy's printer; keep the text verbatim rather than break it
        return code(latex)
    return f"$`{latex}`$"


def code(text: str) -> str:
    """A code span that holds `text` verbatim, whatever backticks it contains."""
    text = " ".join(str(text).split())
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def evidence_items(evidence) -> list[tuple[str, str]]:
    """(key, value text) for the first entries, values truncated like the text printer does."""
    items = []
    for key, value in list(evidence.items())[:EVIDENCE_LIMIT]:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
        if len(text) > EVIDENCE_WIDTH:
            text = text[:EVIDENCE_WIDTH - 3] + "..."
        items.append((str(key), text))
    return items


def _spaced(text: str, md: str) -> str:
    """`md` with the space that `text` had at either end (escape collapses it)."""
    if not text.strip():
        return " " if text else ""
    return (" " if text[0].isspace() else "") + md + (" " if text[-1].isspace() else "")


def claim_markdown(parts) -> str:
    """A claim (its typed parts, uapcheck/claim.py) as Markdown: words escaped, formulas as GitHub math."""
    out = []
    for k, part in enumerate(parts):
        if isinstance(part, str):
            text = escape(part) if k == 0 else _MD_SPECIAL.sub(r"\\\1", " ".join(part.split()))
            out.append(_spaced(part, text))
            continue
        tex = part_latex(part)
        out.append(escape(part.text) if tex is None else math(tex))
    return "".join(out)


def _item_head(step: proof.Step, ids: dict) -> str:
    return f"**[{ids[id(step)]}]** {MARK[step.status]} {code(step.rule)} {claim_markdown(step.claim_parts)}"


def _items(steps, ids: dict, shown: set, indent: int, out: list[str]) -> None:
    for n, step in enumerate(steps, start=1):
        marker = f"{n}. "
        pad = " " * indent
        inner = indent + len(marker)
        sub = " " * inner
        if id(step) in shown:
            out.append(f"{pad}{marker}{_item_head(step, ids)} *(derived above)*")
            continue
        shown.add(id(step))
        out.append(f"{pad}{marker}{_item_head(step, ids)}")
        for key, value in evidence_items(step.evidence):
            out.append(f"{sub}- {escape(key)}: {code(value)}")
        for formula in step_formulas(step, shown=claim_formulas(step)):
            out.append(f"{sub}- {math(formula)}")
        for note in step.notes:
            out.append(f"{sub}- note: {escape(note)}")
        out.append(f"{sub}- *{escape(step.citation.display())}*")
        _items(step.premises, ids, shown, inner, out)


_SUBSCRIPTED = re.compile(r"^([A-Z])_([A-Za-z0-9]+)$")


def headline_markdown(result) -> str:
    """The verdict headline with the group and a symbolic layer count as GitHub math (the words as the
    text printer's headline)."""
    outcome = getattr(result, "target", None)
    if outcome is not None:  # a declared target class (docs/theory.md §14)
        return _target_markdown(outcome)
    alternative = getattr(result, "alternative", None)
    if result.verdict != "UAP":
        where = result.root.facts.get("range")  # a NOT-UAP verdict's range, the obstruction's (§12)
        if alternative is not None:
            within = f" (for {math(formula_latex(where))}{escape(lengths_text(result))})" if where is not None else ""
            return escape(f"{result.verdict} for G-equivariant targets") + within + "; " + _target_markdown(alternative)
        if other_classes(result) and where is None:
            return _classes_markdown(result)[2:] + escape(f"; {result.verdict} otherwise")
        if where is not None:
            return escape(result.verdict) + f" (for {math(formula_latex(where))})" + _classes_markdown(result) + \
                escape(lengths_text(result))
        return escape(result.verdict)
    g, lay = result.group, result.layers
    kind = "convolution" if getattr(result.spec, "mixer", None) is not None else "attention"
    text = "UAP · " + _group_markdown(g) + " · " + _layers_markdown(lay) + f" {kind} layer{'' if lay == 1 else 's'}"
    if layers_least(result) is False:
        text += escape(not_least_words(result))
    if g.condition:
        typed = getattr(g, "condition_formula", None)
        text += f" (for {escape(str(g.condition)) if typed is None else math(formula_latex(typed))})"
    return text + _classes_markdown(result) + escape(lengths_text(result))


def _classes_markdown(result) -> str:
    """"; NOT-UAP for n ≥ 3 ∧ n mod 2 = 0" for each residue class with another verdict (§12, by residue class)."""
    return "".join(escape(f"; {verdict} for") + " " + math(formula_latex(cond))
                   for cond, verdict in other_classes(result))


def _group_markdown(group) -> str:
    if group.classes:  # G by residue class of n: each class's group and its condition as math
        last = len(group.classes) - 1 if group.every_class() else len(group.classes)
        return escape("G =") + " " + ", ".join(
            f"{_class_group(c.group)} if {math(formula_latex(c.condition))}" if k < last
            else f"else {_class_group(c.group)}" for k, c in enumerate(group.classes))
    named = _SUBSCRIPTED.match(group.name) if group.name else None
    if named:  # S_n, C_n, D_n (as the LaTeX headline; other names are words there too)
        return math(f"G = {named[1]}_{{{named[2]}}}")
    if group.name and getattr(group, "structure", None) is not None:
        return math(f"G = {group.structure.latex}")
    if group.name:
        return escape(f"G = {group.name}")
    return escape("G =") + " " + _of_order(group)


def _class_group(group) -> str:
    """One residue class's group: its name (S_n, C_n, D_n and structures as math) or its order."""
    named = _SUBSCRIPTED.match(group.name) if group.name else None
    if named:
        return math(f"{named[1]}_{{{named[2]}}}")
    if group.name and getattr(group, "structure", None) is not None:
        return math(group.structure.latex)
    if group.name:
        return escape(group.name)
    return _of_order(group)


def _of_order(group) -> str:
    order = group.order
    if getattr(group, "order_latex", None):
        return escape("group of order") + " " + math(group.order_latex)
    if isinstance(order, int) and not isinstance(order, bool):
        return escape("group of order ") + math(formula_latex(order))
    return escape(f"group of order {order}")


def _layers_markdown(layers) -> str:
    if isinstance(layers, int):
        return str(layers)
    import sympy
    if isinstance(layers, sympy.Basic):
        return math(formula_latex(layers))
    return escape(str(layers))


def _target_markdown(outcome) -> str:
    if outcome.verdict != "UAP":
        return escape(outcome.phrase())
    lay = outcome.layers
    least = "" if outcome.least else " (sufficient, not shown least)"
    words = escape(least + outcome.range_words())  # escape drops the leading space: put it back outside
    return (escape(f"UAP for {outcome.target} targets with") + " " + _layers_markdown(lay) +
            f" attention layer{'' if lay == 1 else 's'}" + (" " + words if words else ""))


def render(result, suggestion=None) -> str:
    from .spoken import spoken
    result = spoken(result)  # the file's name for the length in every statement
    ids = proof.number_steps(result.root)
    spec = result.spec
    out = [f"# {escape(spec.architecture)}", "", code(shown_path(spec.path)), "", "## Verdict", "",
           f"**{headline_markdown(result)}**", "", claim_markdown(reason_parts(result))]
    line = expect_line(result)
    if line is not None:
        out += ["", escape(line) if result.expect_holds else f"**{escape(line)}**"]
    hint = suggestion_line(suggestion)
    if hint is not None:
        out += ["", escape(hint)]
    quotes = source.head_quotes(spec)
    if quotes:
        out += ["", "## Source", ""]
        for quote in quotes:
            out += source.markdown(quote)
    out += ["", "## Derivation", ""]
    _items([result.root], ids, set(), 0, out)
    return "\n".join(out) + "\n"
