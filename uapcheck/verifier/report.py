"""Plain-text report of a verification: one line per step, then the summary."""
from __future__ import annotations

import re

import sympy

from .check import NUMERIC, REJECTED, TRUSTED, VERIFIED, Report

MARK = {VERIFIED: "verified", NUMERIC: "checked numerically", TRUSTED: "trusted", REJECTED: "REJECTED"}


def summary(report: Report) -> str:
    counts = {k: sum(1 for s in report.steps if s.outcome == k) for k in MARK}
    parts = ", ".join(f"{v} {MARK[k]}" for k, v in counts.items() if v)
    if report.problems or report.rejected:
        first = report.problems[0] if report.problems else f"{report.rejected[0].id} ({report.rejected[0].rule}): {report.rejected[0].reason}"
        return f"REJECTED: {first} [{parts}]"
    if report.ok and report.complete:
        return f"OK: {report.verdict} re-checked, every step verified or checked numerically [{parts}]"
    if report.ok and report.rests_on is not None and report.verdict == "NOT-UAP":
        return (f"OK: NOT-UAP re-checked: the obstruction it rests on and the verdict are verified; the other steps are "
                f"not needed by it [{parts}]")
    if report.ok:
        return f"OK: {report.verdict} claims nothing that needs every step; [{parts}]"
    return f"NOT FULLY VERIFIED: the {report.verdict} verdict has trusted steps [{parts}]"


def _count(layers, least, kind: str = "attention", least_classes=None) -> str:
    text = sympy.sstr(layers)
    unit = f"{kind} layer" if layers == 1 else f"{kind} layers"
    return f"{text} {unit}" + _least_words(least, least_classes)


def _least_words(least, least_classes=None) -> str:
    """How far the count is shown least: everywhere, on the classes of n its step's check re-derived it least on (and
    sufficient on the others), or nowhere."""
    if least is False and least_classes:
        modulus, on = least_classes
        rest = [r for r in range(modulus) if r not in on]
        return (f" (least for {_residues(modulus, on)}; sufficient, not shown least, for {_residues(modulus, rest)})"
                if rest else " (least)")
    return {True: " (least)", False: " (sufficient, not shown least)", None: ""}[least]


def _residues(modulus: int, residues) -> str:
    """"n mod 4 ∈ {0, 3}" or "n mod 2 = 1", as the headline writes a class."""
    rs = list(residues)
    return f"n mod {modulus} = {rs[0]}" if len(rs) == 1 else f"n mod {modulus} ∈ {{{', '.join(map(str, rs))}}}"


def _piece(value) -> str:
    """A count's polynomial on one residue class: n/2 + 1/2 written (n + 1)/2."""
    from .statement import condition_words
    constant = sympy.expand(value).as_coeff_Add()[0]
    return condition_words(sympy.together(value) if not constant.is_Integer else value)


def statement_lines(report: Report) -> list[str]:
    """What an OK certifies (statement.Statement), then what it does not."""
    st = report.statement
    if st is None or st.verdict == "INCONCLUSIVE":  # it asserts no property of the family
        return []
    parts = [st.verdict + (f" for {st.target} targets" if st.target else "")]
    if st.verdict == "NOT-UAP" and st.alternatives:
        parts[0] = "NOT-UAP for G-equivariant targets"
    inside = bool(st.alternatives and st.below and st.where is not None)  # the headline's "(for n ≥ 3; UAP at n = 1)"
    if st.where is not None:
        parts[0] += f" ({'at' if st.where.startswith('n = ') else 'for'} {st.where}" + \
            (f"; {st.below})" if inside else ")")
    if st.verdict == "UAP":
        if st.group is not None:
            parts.append(f"G = {st.group}" + (f" (order {st.order})" if st.order is not None and len(str(st.order)) <= 30
                                               else ""))
        if st.layers_by_residue is not None:
            modulus, pieces = st.layers_by_residue
            listed = ", ".join(f"{_piece(value)} for {_residues(modulus, rs)}" for rs, value in pieces)
            constant = all(not getattr(value, "free_symbols", None) for _, value in pieces)
            # a count written with more than two roundings (a sum over the classes' indicators) reads as its pieces
            tangled = st.layers is not None and len(st.layers.atoms(sympy.floor, sympy.ceiling)) > 2
            parts.append((f"{st.unit} layers by n mod {modulus}: {listed}"
                          if constant or tangled or st.layers_text is None else
                          f"{st.layers_text} {st.unit} layers ({listed})")
                         + _least_words(st.least, st.least_classes))
        elif st.layers is not None:
            parts.append(_count(st.layers, st.least, st.unit, st.least_classes))
    line = " · ".join(parts)
    for verdict, where in st.others:  # the other classes, each with its verdict (§12)
        line += f"; {verdict} for {where}"
    if st.below and not inside:
        line += f"; {st.below}"
    for alt in st.alternatives:
        line += (f"; UAP for {alt.target} targets with {_count(alt.layers, alt.least)}"
                 + (f" for n ≥ {sympy.sstr(alt.start)}" if alt.start is not None and alt.start != 1 else ""))
    if st.by_class:
        line += "; by residue class of n and length as the verdict step's data states"
    elif st.symbolic_n and st.verdict == "UAP" and st.where is None:
        line += "; for the lengths n that each step's line above states"
    prose = "  not certified: the steps' prose (claim, evidence, facts), which is the engine's record for a reader"
    if st.unchecked_alternatives:
        prose += "; nor the class the family does approximate (a step it rests on is trusted)"
    if report.unbound:  # values a certificate block states again that no check compares with a checked copy
        more = f", and {len(report.unbound) - 1} more" if len(report.unbound) > 1 else ""
        prose += f"; nor the certificate blocks' values that no check compares ({report.unbound[0]}{more})"
    return [f"  certified: {line}", prose]


#: the word n (also as a subscript or in braces, never a letter of a word or a LaTeX command): the checks' length
_WORD_N = re.compile(r"(?<![A-Za-z0-9\\])n(?![A-Za-z0-9])")


def render(path: str, report: Report, quiet: bool = False) -> str:
    """The report's lines; the checks state lengths as n, and an input that names its symbolic length otherwise
    (`tokens N`) reads them in its own name, as the checker's reports do."""
    def said(line: str) -> str:
        return line if report.length == "n" else _WORD_N.sub(report.length, line)

    lines = []
    for s in report.steps:
        if quiet and s.outcome in (VERIFIED, NUMERIC):
            continue
        lines.append(f"  {s.id:>4} {s.rule:<17} {MARK[s.outcome]:<20} {s.reason}")
    for p in report.problems:
        lines.append(f"  REJECTED: {p}")
    lines.append(f"  {summary(report)}")
    if report.ok:
        lines.extend(statement_lines(report))
    return "\n".join([f"{path}: {report.path} · {report.verdict}"] + [said(line) for line in lines])
