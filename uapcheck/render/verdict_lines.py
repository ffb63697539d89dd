"""The verdict panel's lines, shared by every printer."""
from __future__ import annotations

import os


def headline(result) -> str:
    """The verdict headline of the text printer's panel, e.g. "UAP · G = S_n · 1 attention layer"."""
    from .spoken import spoken
    result = spoken(result)  # the file's name for the length in every statement
    outcome = getattr(result, "target", None)
    if outcome is not None:  # a declared `target causal|receptive` (docs/theory.md §14)
        return outcome.phrase()
    alternative = getattr(result, "alternative", None)
    if result.verdict != "UAP":
        stated = range_text(result)  # "for n ≥ 3", "; UAP at n = 1, 2": the obstruction's range, the lengths below
        if alternative is not None:
            within = f" ({stated[0]}{_classes_text(result)}{stated[1]})" if stated else ""
            return f"{result.verdict} for G-equivariant targets{within}; {alternative.phrase()}"
        if other_classes(result) and not stated:  # "NOT-UAP for n mod 2 = 0; INCONCLUSIVE otherwise"
            return _classes_text(result)[2:] + f"; {result.verdict} otherwise"
        # "NOT-UAP (for n ≥ 116 and n mod 4 ∈ {1, 2, 3}); INCONCLUSIVE for n ≥ 116 and n mod 4 = 0; UAP at n = 1…12"
        return result.verdict + (f" ({stated[0]}){_classes_text(result)}{stated[1]}" if stated else "")
    g = result.group
    lay = result.layers
    from ..bignum import show_order
    gname = g.name if g.name else f"group of order {show_order(g.order)}"
    lay_text = lay if isinstance(lay, int) else _count_text(lay)
    kind = "convolution" if getattr(result.spec, "mixer", None) is not None else "attention"
    text = f"UAP · G = {gname} · {lay_text} {kind} layer{'' if lay == 1 else 's'}{not_least_words(result)}"
    if g.condition:
        typed = getattr(g, "condition_formula", None)
        from ..show import show_condition
        text += f" (for {g.condition if typed is None else show_condition(typed)})"
    return text + _classes_text(result) + lengths_text(result)


def range_text(result) -> tuple:
    """("for n ≥ 3", "; UAP at n = 1, 2"): the range a NOT-UAP verdict is stated for (its obstruction's, the verdict
    step's fact `range`) and the verdicts at the lengths below it; () without a range."""
    where = result.root.facts.get("range")
    if where is None:
        return ()
    from ..show import show_condition
    return f"for {show_condition(where)}", lengths_text(result)


def lengths_text(result) -> str:
    """"; UAP at n = 1…12": the verdict at each length below the stated range (docs/theory.md §12), from the
    verdict step's facts; "" when there are none."""
    records = result.root.facts.get("below_range", ())
    if not records:
        return ""
    from ..rules.small_lengths import lengths_words
    return "; " + lengths_words(records)


NOT_LEAST = " (sufficient, not shown least)"
# the steps a count comes from; TD-MEANS (Lemma M) gives 2 layers on a dense head, sufficient, not shown least
LAYER_RULES = ("PAT-LAYERS", "SEQ-LAYERS", "SEQ-ALTERNATION-LAYERS", "SEQ-WINDOWS-LAYERS", "SEQ-GLOBALS-LAYERS",
               "SEQ-CYCLIC-LAYERS", "CONV-LAYERS", "BIAS-LAYERS", "TD-MEANS")


def layers_least(result) -> "bool | None":
    """Whether the verdict's layer count is proved least: the `least` fact of the layer step the count comes
    from (PAT-LAYERS, SEQ-LAYERS, CONV-LAYERS, BIAS-LAYERS, TD-MEANS), or the declared target class's (TGT-LAYERS);
    True for one layer (no fewer layers exist); None when the verdict states no count."""
    if result.verdict != "UAP" or result.layers is None:
        return None
    if result.layers == 1:
        return True
    outcome = getattr(result, "target", None)
    if outcome is not None:  # a declared target class: its own count's flag (TGT-LAYERS, docs/theory.md §14)
        return outcome.least
    for step in result.root.walk():
        if step.rule in LAYER_RULES and step.proved and "least" in step.facts:
            classes = step.facts.get("least_classes") or ()
            return bool(step.facts["least"]) or bool(classes and _stated_within(result, classes))
    return None


def _stated_within(result, classes: tuple) -> bool:
    """Whether the verdict's stated range (its group's condition) lies in the classes n mod L in `classes[1]`:
    at a large n of every other residue the condition is false (a budget equal to the count there, §12)."""
    import sympy
    where = getattr(result.group, "condition_formula", None)
    if not isinstance(where, sympy.Basic) or len(where.free_symbols) != 1:
        return False
    n = next(iter(where.free_symbols))
    modulus, residues = classes
    big = modulus * 10 ** 6
    return all(where.xreplace({n: sympy.Integer(big + r)}) is sympy.false
               for r in range(modulus) if r not in residues)


def least_classes(result) -> tuple:
    """(L, residues): the classes n mod L on which a count not least on every class is least (the layer step's
    `least_classes` fact, a least flag by residue class, docs/theory.md §12); () when there are none."""
    if layers_least(result) is not False or getattr(result, "target", None) is not None:
        return ()
    for step in result.root.walk():
        if step.rule in LAYER_RULES and step.proved and "least" in step.facts:
            return tuple(step.facts.get("least_classes") or ())
    return ()


def not_least_words(result) -> str:
    """" (sufficient, not shown least)" after a count not proved least; " (least for n mod 7 = 0; sufficient, not
    shown least otherwise)" after a count least on some residue classes only; "" after a least count."""
    if layers_least(result) is not False:
        return ""
    classes = least_classes(result)
    if not classes:
        return NOT_LEAST
    import sympy
    from ..groups import class_condition
    from ..show import show_condition
    from .spoken import printed_length
    where = class_condition(sympy.Symbol(printed_length(result), integer=True, positive=True), classes[0], classes[1])
    return f" (least for {show_condition(where)}; sufficient, not shown least otherwise)"


def other_classes(result) -> tuple:
    """(condition, verdict name) for the residue classes of n whose verdict differs from the one stated for
    the range (docs/theory.md §12, by residue class), from the verdict step's facts."""
    return tuple((cond, verdict.value) for cond, verdict in result.root.facts.get("by_class", ()))


def _classes_text(result) -> str:
    from ..show import show_condition
    return "".join(f"; {verdict} for {show_condition(cond)}" for cond, verdict in other_classes(result))


def _count_text(lay) -> str:
    """A symbolic layer count as printed; a count by residue of n in words ("4 if n mod 3 = 0, else 3")."""
    import sympy
    from ..show import show_size
    return show_size(lay) if isinstance(lay, sympy.Basic) else str(lay)


def reason(result) -> str:
    """The root claim after the words that repeat the verdict (its `ReasonStart` part)."""
    return "".join(p if isinstance(p, str) else p.text for p in reason_parts(result))


def reason_parts(result) -> tuple:
    """The root claim's typed parts (uapcheck/claim.py) after its `ReasonStart` part; the whole claim when
    the verdict rule marked none."""
    from ..claim import ReasonStart
    parts = result.root.claim_parts
    for k, part in enumerate(parts):
        if isinstance(part, ReasonStart):
            return tuple(parts[k + 1:])
    return tuple(parts)


def expect_line(result):
    """"expect …: holds" / "expect …: FAILS (reason)", or None without an expect line."""
    spec = result.spec
    if spec.expect is None:
        return None
    if result.expect_holds:
        return f"expect {spec.expect.text}: holds"
    return f"expect {spec.expect.text}: FAILS ({result.expect_reason})"


def shown_path(path: str) -> str:
    """The path relative to the working directory when the file lies below it (as the user would type it)."""
    if os.path.isabs(path):
        try:
            rel = os.path.relpath(path)
        except ValueError:  # another drive
            return path
        if not rel.startswith(".."):
            return rel
    return path


def suggestion_line(suggestion):
    """"suggestion: EDIT gives UAP · …" for the verdict panel, or None."""
    if suggestion is None:
        return None
    from ..suggest import SearchStopped
    if isinstance(suggestion, SearchStopped):
        return f"suggestion: {suggestion.text}"
    return f"suggestion: {suggestion.text} gives {headline(suggestion.result)} (uapcheck suggest FILE lists more)"
