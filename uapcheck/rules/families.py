"""Standard pattern families at symbolic n (and at concrete n in a theorem's range): the pattern
steps concluded from a family theorem (docs/theory.md §11.11, uapcheck/graphs/families.py).

The certificate of such a step is the family match, the parameter ranges and the theorem, together
with a concrete instance check: the theorem's values at the smallest n of its range (parameters at
their least admissible values) are compared with the concrete engine (graphs, connectivity,
symmetry, rooted views). A mismatch is an internal error, never a verdict.
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import spec as S
from ..claim import Claim, Formula, claim, eq
from ..show import show_size
from ..budget import BudgetExceeded, time_limit
from ..graphs import families as F
from ..groups import exact_int, order_text
from ..groups import GroupInfo
from .symmetry import group_step, group_undecided


def _pretty(e) -> str:
    return show_size(e)


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _low_text(low) -> str:
    """"max(6, s² + 1)": a range's start in words, a power of a named size as a superscript (words hold no `^`)."""
    import re
    return re.sub(r"\^(\d+)", lambda m: m.group(1).translate(_SUPERSCRIPT), _pretty(low))


def _at_length_text(n, theorem) -> str:
    """Where a family theorem is read at a concrete n: in its range of lengths, or (Theorem F164) by its check at n."""
    if theorem.at_length:
        return f"n = {n}, by the theorem's check at this length"
    return f"n = {n}, in the range n ≥ {theorem.low}"


def _range_text(theorem: F.FamilyTheorem) -> str:
    text = f"{sympy.sstr(theorem.n_symbol)} ≥ {_low_text(theorem.low)}"
    return f"{text} and {F.coprime_words(theorem.n_symbol, theorem.coprime_to)}" if theorem.coprime_to > 1 else text


def _where(n, theorem: F.FamilyTheorem) -> Claim:
    """`_at_length_text` or `_range_text` as a claim, with the same words, its conditions formula parts."""
    m = theorem.n_symbol
    if not isinstance(n, sympy.Symbol):
        at = eq("n", int(n))
        if theorem.at_length:
            return claim(at, ", by the theorem's check at this length")
        low = sympy.sympify(theorem.low, strict=True)  # safe: an integer or a SymPy value, no text
        return claim(at, ", in the range ", Formula(sympy.GreaterThan(sympy.Symbol("n"), low, evaluate=False),
                                                    f"n ≥ {theorem.low}"))
    if theorem.coprime_to <= 1:
        return claim(_at_least(theorem))
    g = theorem.coprime_to
    coprime = (sympy.Ne(sympy.Mod(m, 2), 0) if g == 2
               else sympy.Eq(sympy.Function("gcd")(m, sympy.Integer(g)), 1, evaluate=False))
    return claim(_at_least(theorem), " and ", Formula(coprime, F.coprime_words(m, g)))


def _at_least(theorem: F.FamilyTheorem) -> Formula:
    """`n ≥ N`, the theorem's start, worded as `_range_text` words it."""
    low = sympy.sympify(theorem.low, strict=True)  # safe: an integer or a SymPy value, no text
    return Formula(sympy.GreaterThan(theorem.n_symbol, low, evaluate=False),
                   f"{sympy.sstr(theorem.n_symbol)} ≥ {_low_text(theorem.low)}")


def _disconnected_note(theorem: F.FamilyTheorem) -> tuple:
    """For a theorem whose range asks gcd(n, g) = 1: what holds for the other n (Theorem F27 (a))."""
    g = theorem.coprime_to
    if g <= 1:
        return ()
    n = sympy.sstr(theorem.n_symbol)
    other = f"{n} even" if g == 2 else f"gcd({n}, {g}) > 1"
    return (f"for {other}: every jump is a multiple of d = gcd({n}, {g}) > 1, so the arcs stay in the cosets of "
            f"d·Z_{n}: not strongly connected (x_2 never reaches position 1), NOT-UAP by the receptive-field "
            f"argument (PAT-DISCONNECTED; {theorem.section})",)


def _coprime_range(theorem: F.FamilyTheorem, n):
    """The range n ≥ N with gcd(n, g) = 1 as a formula (n mod p ≠ 0 for every prime p | g), for a theorem that
    asks it at symbolic n (so the verdict can tell which classes its range excludes, §12); n ≥ N for an integer N
    otherwise; None at a concrete n or with a start in the parameters."""
    if not isinstance(n, sympy.Symbol):
        return None
    m = theorem.n_symbol
    if theorem.coprime_to <= 1:
        # an integer start as a formula too (its words are the same), so a verdict by residue class can restrict
        # the range to some classes (§12); a start in the parameters keeps its words only
        low = sympy.sympify(theorem.low, strict=True)  # safe: an integer or a SymPy value, no text
        return sympy.Ge(m, low, evaluate=False) if low.is_Integer else None
    return sympy.And(sympy.Ge(m, theorem.low), *[sympy.Ne(sympy.Mod(m, p), 0)
                                                 for p in sympy.primefactors(theorem.coprime_to)], evaluate=False)


#: the largest modulus whose residue classes `_disconnected_classes` lists (the verdict by class names each class)
MAX_LISTED_MODULUS = 10_000


def _disconnected_classes(spec: S.Spec, theorem: F.FamilyTheorem, desc: str):
    """For a theorem whose range asks gcd(n, g) = 1 (Theorem F27) on cyclic offsets: PAT-DISCONNECTED for the
    other residue classes of n mod g (gcd(n, g) > 1, from the theorem's start), beside the verdict for the
    range (docs/theory.md §12, by residue class); None when the theorem asks no such condition or the heads
    are not cyclic offsets with integer offsets (the other classes stay a note)."""
    from math import gcd
    from ..certificates import CosetInvariant
    from ..groups import class_condition
    from ..show import show_condition
    from .pattern import disconnected_step
    g = theorem.coprime_to
    pats = tuple(dict.fromkeys(h.pattern for h in spec.heads))
    if g > MAX_LISTED_MODULUS:
        return None  # its classes are listed one by one (`offsets {-999999999} cyclic`: 10⁹ of them); a note says so
    if g <= 1 or not all(isinstance(p, S.Offsets) and p.cyclic and all(isinstance(o, int) and o % g == 0
                                                                     for o in p.offsets) for p in pats):
        return None
    n = theorem.n_symbol
    residues = tuple(r for r in range(g) if gcd(r, g) > 1)
    where = sympy.And(sympy.Ge(n, theorem.low), class_condition(n, g, residues), evaluate=False)
    ev = {"range": f"for {show_condition(where)}", "theorem": f"{theorem.section} (a)",
          "why": f"every offset is a multiple of {g}, so for e = gcd(n, {g}) > 1 every arc keeps a position's "
                 f"residue mod e, and positions 1 and 2 lie in different cosets of e·Z_n"}
    return disconnected_step(desc, 1, 2, ev, CosetInvariant(pats, g, residues), condition=where,
                             by_class=(g, residues))


def instance_check(spec: S.Spec) -> str:
    """Run the family theorem's concrete instance check (uapcheck/graphs/families.check_instance);
    the text says what was compared. A discrepancy is an internal error, never a verdict."""
    from .pattern import _lower_bounds
    text, problem = F.check_instance(spec.heads[0].pattern, _lower_bounds(spec), [h.bias for h in spec.heads],
                                     spec.positional, spec.tokens if isinstance(spec.tokens, int) else None)
    if problem is not None:
        raise AssertionError(f"internal error: a family theorem disagrees with the concrete engine: {problem}")
    return text


def _instance_check_in_budget(spec: S.Spec) -> str:
    """The concrete engine's agreement at a small instance (`instance_check`), within 20 s at the default
    --budget (a share of the run's budget: budget.share)."""
    try:
        with time_limit("the family theorem's instance check", 20.0):
            return instance_check(spec)
    except BudgetExceeded:
        return "instance check not run (time budget)"


def _matched_theorem(spec: S.Spec, n, params) -> "Optional[F.FamilyTheorem]":
    """The family theorem whose pattern is the spec's (within 30 s at the default --budget, a share of the run's
    budget), or None: no family, an open one, or
    out of time."""
    from . import pattern as P
    try:
        with time_limit("the family theorems of the pattern", 30.0):
            theorem = F.match(P._patterns(spec), n, params, P._biases(spec), spec.positional,
                              lower=P._lower_bounds(spec))
    except BudgetExceeded:
        return None
    return theorem if isinstance(theorem, F.FamilyTheorem) else None


# the theorems' own constants, said in words where a bare letter would mean nothing (F27–F29, F40–F42)
_PARAMETER_WORDS = {"L": "L (D and the layer count repeat with n mod L)",
                    "R": "R (the radius of the ball certificate)"}


def family_outcome(spec: S.Spec):
    """The pattern outcome from a family theorem, or None (not a family, or n outside the range).
    An open family returns None as well; `open_question` gives its text."""
    from . import pattern as P
    if len(set(h.pattern for h in spec.heads)) != 1:
        return None
    n, params = P._symbols(spec)
    theorem = _matched_theorem(spec, n, params)
    if theorem is None:
        return None
    if isinstance(n, sympy.Symbol) and n in theorem.low.free_symbols:
        return None  # a pattern size that is the length itself (`global(n)`): not the family's range
    if not isinstance(n, sympy.Symbol):
        # a concrete n: the theorem applies only inside its range (integer parameters)
        if theorem.low.free_symbols or int(n) < int(theorem.low):
            return None
        if sympy.gcd(int(n), theorem.coprime_to) != 1:
            return None
    checked = _instance_check_in_budget(spec)
    desc = P._describe(spec)
    where = _range_text(theorem) if isinstance(n, sympy.Symbol) else _at_length_text(n, theorem)
    classes = _disconnected_classes(spec, theorem, P._describe(spec)) if isinstance(n, sympy.Symbol) else None
    small = (() if classes is not None else _disconnected_note(theorem)) + _small_notes(spec, theorem) \
        if isinstance(n, sympy.Symbol) else ()
    ev = {"range": f"for {where}", "family": theorem.family, "theorem": theorem.section,
          "parameters": {_PARAMETER_WORDS.get(k, k): sympy.sstr(v) for k, v in theorem.params},
          "instance check": checked}
    diameter = theorem.diameter if isinstance(n, sympy.Symbol) else int(theorem.diameter.xreplace({theorem.n_symbol: n}))
    bound = {} if theorem.diameter_exact else {"diameter_exact": False}  # F50, F51: an upper bound only
    connected = P.connected_step(desc, _certificate(spec, theorem, diameter=diameter, low=theorem.low, **bound), ev,
                                 small)
    if bound:
        diameter = None  # what follows must not read the bound as the diameter (budgets, D layers)
    structure = [connected] + ([classes] if classes is not None else [])
    if theorem.layers is not None:
        layers = theorem.layers if isinstance(n, sympy.Symbol) else int(theorem.layers.xreplace({theorem.n_symbol: n}))
        method = claim(theorem.why_layers, f" ({theorem.section}, for ", _where(n, theorem), ")")
        witness = None
        if theorem.witness is not None:
            pos, (a, b) = theorem.witness
            shown = sympy.sstr if isinstance(n, sympy.Symbol) else int  # positions are numbers at a concrete n
            witness = {"position": shown(pos), "swap": [shown(a), shown(b)], "range": f"for {where}",
                       "found by": f"{theorem.section}"}
        by_class = theorem.least_classes if isinstance(n, sympy.Symbol) else ()
        # at a concrete n the count is least when the theorem proves it on n's class (F67 at s | n, F110 and F113 on
        # theirs): one flag, no classes
        least = theorem.least if isinstance(n, sympy.Symbol) else theorem.least_at(int(n))
        claims = dict(layers=layers, least=least) | ({"least_classes": by_class} if by_class else {})
        structure.append(P.layers_step(connected, diameter, layers, least, method, witness,
                                       family=_certificate(spec, theorem, **claims), least_classes=by_class,
                                       length=theorem.n_symbol))
    else:
        layers = diameter + 1
        structure.append(P.layers_step(connected, diameter, layers, False,
                                       f"view argument; whether D layers suffice is open: {theorem.open_question}"))
    if _no_group_at(theorem, n):
        gstep = group_undecided(desc, f"no closed form for the group is proved: {theorem.open_question}")
        return P.PatternOutcome(gstep, None, tuple(structure), layers, diameter, None)
    order = sympy.sympify(theorem.order, strict=True)  # safe: strict (no text parsed)
    if not isinstance(n, sympy.Symbol):
        order = order.xreplace({theorem.n_symbol: n})
    if isinstance(order, sympy.Piecewise) and not isinstance(n, sympy.Symbol):
        order = order.doit()
    shown_order = order_text(order)
    if theorem.order_shown and isinstance(n, sympy.Symbol):  # by divisibility cases, in words (F47)
        shown_order = theorem.order_shown
    # the JSON's: by its pieces when symbolic, written out when a number of at most 1000 digits
    exact = order if isinstance(order, sympy.Basic) and order.free_symbols else exact_int(order)
    info = GroupInfo(theorem.group, shown_order, theorem.generators,
                     _range_text(theorem) if isinstance(n, sympy.Symbol) else "", _coprime_range(theorem, n),
                     exact=exact)
    # G on some residue classes only: the range keeps the others, and the group is undecided on these (§11.4)
    info, undecided = _open_classes(desc, theorem, n, info)
    structure.extend(undecided)
    gev = {"range": f"for {where}", "theorem": theorem.section, "structure": theorem.group,
           "generators": list(theorem.generators), "instance check": checked}
    claims = dict(group=theorem.group, order=order)
    if theorem.order_shown and isinstance(n, sympy.Symbol):
        claims["order_shown"] = theorem.order_shown
    gstep = group_step(desc, info, gev, _certificate(spec, theorem, **claims), small)
    return P.PatternOutcome(gstep, info, tuple(structure), layers, diameter, None)


def _no_group_at(theorem: F.FamilyTheorem, n) -> bool:
    """The theorem states no group: none at all, or a concrete n in one of its open classes (F26, w ≥ 2)."""
    return theorem.group is None or (bool(theorem.group_open) and not isinstance(n, sympy.Symbol)
                                     and int(n) % theorem.group_open[0] in theorem.group_open[1])


def _open_classes(desc: str, theorem: F.FamilyTheorem, n, info: GroupInfo) -> tuple:
    """(the group with its range restricted to the classes n mod L the theorem proves it on, [SYM-UNDECIDED on the
    others]): `theorem.group_open` = (L, residues, why) where no group is proved (docs/theory.md §11.4, *a group
    proved on some classes only*; Theorem F26 for w ≥ 2). The verdict is then UAP on the kept classes and
    INCONCLUSIVE on these, by class (§12). (info, []) for a theorem without open classes or at a concrete n."""
    if not theorem.group_open or not isinstance(n, sympy.Symbol):
        return info, []
    from dataclasses import replace
    from ..conditions import simplify_condition
    from ..groups import class_condition
    from ..show import show_condition
    modulus, residues, why = theorem.group_open
    kept = [r for r in range(modulus) if r not in residues]
    bound = info.condition_formula if info.condition_formula is not None else sympy.Ge(n, theorem.low)
    where = simplify_condition(sympy.And(bound, class_condition(n, modulus, kept)))
    undecided = group_undecided(desc, f"no closed form for the group is proved there: {why}",
                                by_class=(n, modulus, tuple(residues), bound), open_words=why)
    return replace(info, condition=show_condition(where), condition_formula=where), [undecided]


def family_layer_count(spec: S.Spec) -> Optional[dict]:
    """At a concrete n inside a family theorem's range, when the theorem proves the least layer count:
    its diameter, layers, method, witness (evidence) and certificate; else None."""
    from . import pattern as P
    n = spec.tokens
    if not isinstance(n, int) or len(set(h.pattern for h in spec.heads)) != 1:
        return None
    nn, params = P._symbols(spec)
    theorem = _matched_theorem(spec, nn, params)
    if (theorem is None or theorem.layers is None or theorem.low.free_symbols or n < int(theorem.low)
            or not theorem.least_at(n) or sympy.gcd(n, theorem.coprime_to) != 1):
        return None
    checked = _instance_check_in_budget(spec)
    where = _at_length_text(n, theorem)
    layers = int(theorem.layers.xreplace({theorem.n_symbol: nn}))
    witness = None
    if theorem.witness is not None:
        pos, (a, b) = theorem.witness
        witness = {"position": int(pos), "swap": [int(a), int(b)], "range": f"for {where}",
                   "found by": f"{theorem.section}"}
    return {"diameter": int(theorem.diameter.xreplace({theorem.n_symbol: nn})), "layers": layers,
            "method": claim(theorem.why_layers, f" ({theorem.section}, for ", _where(n, theorem),
                            f"; instance check: {checked})"),
            "witness": witness, "certificate": _certificate(spec, theorem, layers=layers, least=True)}


def _certificate(spec: S.Spec, theorem: F.FamilyTheorem, **claims):
    """The step's certificate: the family match, the parameters, the theorem and the claimed values,
    with the instance check (uapcheck/certificates.StandardFamily re-runs all of it)."""
    from ..certificates import StandardFamily
    from .pattern import _lower_bounds, _symbols
    n, params = _symbols(spec)
    return StandardFamily(spec.heads[0].pattern, n, tuple(sorted(params.items())),
                          tuple(sorted(_lower_bounds(spec).items())), theorem.theorem, tuple(claims.items()))


def _small_notes(spec: S.Spec, theorem: F.FamilyTheorem) -> tuple:
    """Below the range: the concrete engine's answer for each n (integer parameters, small range),
    else where the concrete engine takes over."""
    low = theorem.low
    n = theorem.n_symbol
    head = f"for {sympy.sstr(n)} < {_low_text(low)} the theorem does not apply; the concrete engine decides each n"
    if low.free_symbols or int(low) > F.SMALL_N_LISTED:
        return (head + " (give `tokens N`)",)
    pattern = spec.heads[0].pattern
    try:
        with time_limit("the concrete answers below the family's range", 10.0):
            answers = F.small_cases(pattern, int(low))
    except BudgetExceeded:
        return (head + " (give `tokens N`)",)
    return (head + ":",) + tuple(F.describe(a) for a in answers)


def open_question(spec: S.Spec) -> Optional[str]:
    """The open question of a standard family whose symbolic closed form is not proved, or None."""
    from . import pattern as P
    n, params = P._symbols(spec)
    if not isinstance(n, sympy.Symbol):
        return None
    found = F.match(P._patterns(spec), n, params, P._biases(spec), spec.positional, lower=P._lower_bounds(spec))
    if isinstance(found, F.OpenFamily):
        return f"{found.family}: {found.question}"
    return None
