"""The circular convolution mixer (the paper's C_n design, §4.4.2, (23)): its group, its reach, the
least number of mixing layers and token distinguishability (docs/theory.md §22).

[g(X)]_i = Σ_{k ∈ K} ψ_k x_{(i + k) mod n}, one trainable scalar per tap, layer X ↦ X + g(X).
"""
from __future__ import annotations

import math
from typing import Optional

import sympy

from .. import proof
from .. import spec as S
from ..proof import Certificate
from ..graphs.circulant import (MAX_CIRCULANT_N, TapSumsetForm, interval_width, missing_offset, scaled_interval,
                                sumset_depth, tap_depth_expression, tap_gcd, tap_sumset_form)
from ..layer_certificates import CirculantSpan, ScaledTapInterval, TapInterval, TapSumsets, ZeroTaps
from ..claim import Formula, claim, group, written
from ..groups import GroupInfo, class_condition
from ..show import show_condition
from .wording import C_N, S_N, SUM_TARGET as SUM_TARGET_CLAIM, Z_N, shifted_token, token, value

CITE_CONV = proof.derived(
    "Corollary 4", "Theorem 1",
    text="Cheng et al. 2025, Corollary 4 (C_n design, §4.4.2); group, reach and least layers derived here, "
         "docs/theory.md §22")
CITE_CONV_GROUP = proof.derived(
    "Corollary 4",
    text="derived here: the centraliser of the tap shifts (C_n when the taps generate Z_n), docs/theory.md §22.1")
SUM_TARGET = "F(X)_k = x_1 + ... + x_n at every position k"
C_S = written("c_s", "c_{s}")


#: the largest modulus s of taps s·[a, b] whose residue classes of n are listed (a verdict by class names each one)
MAX_LISTED_MODULUS = 10_000


def describe(conv: S.Convolution) -> str:
    if conv.span is not None:
        return f"convolution circular({conv.span})"
    return "convolution circular {" + ", ".join(str(t) for t in conv.taps) + "}"


def concrete_taps(conv: S.Convolution, n: int) -> Optional[tuple]:
    """The taps at the integer length n; `circular(l)`'s 0, 1, …, l read mod n: 0, …, min(l, n − 1), every residue
    once (taps with one residue are one shift of the tokens), never a list of l + 1 entries for a span l ≫ n."""
    if conv.span is None:
        return tuple(conv.taps)
    return tuple(range(min(conv.span, n - 1) + 1)) if isinstance(conv.span, int) else None


@proof.rule("CONV-GROUP", "The convolution mixer's exact group: the centraliser of its tap shifts",
            CITE_CONV_GROUP, statuses=(proof.PROVED,),
            certificates=(CirculantSpan, TapInterval, ZeroTaps, ScaledTapInterval, TapSumsets))
def group_step(desc: str, info: GroupInfo, cert, on_classes: Optional[dict] = None) -> proof.Step:
    """`on_classes`: {"modulus": s, "residues": [...]} when the group is stated on those residue classes of n only
    (their condition is `info.condition_formula`; the other classes are NOT-UAP, CONV-DISCONNECTED)."""
    if isinstance(cert, TapSumsets) and cert.step == 1:
        why = claim("the non-zero taps have gcd 1, so gcd(n, taps) = 1 for every n and the taps generate ", Z_N,
                    ": ", group("C_n", "G"))
    elif isinstance(cert, (ScaledTapInterval, TapSumsets)):
        why = claim("every tap is a multiple of ", str(cert.step), ", and on ", Formula(info.condition_formula,
                    show_condition(info.condition_formula)), f" n is prime to {cert.step}, so multiplying by "
                    f"{cert.step} is an automorphism of ", Z_N, " and the taps generate it: ", group("C_n", "G"))
    elif isinstance(cert, ZeroTaps):
        why = claim("every tap is 0, so the mixer is a multiple of the identity and commutes with every "
                    "permutation: ", group("S_n", "G"))
    elif info.name == "C_n":
        why = claim("the taps generate ", Z_N, ", so a permutation commuting with every trainable circulant commutes "
                    "with the cyclic shift: ", group("C_n", "G"))
    else:
        why = claim(f"the taps generate only the multiples of {getattr(cert, 'gcd', '?')} in ", Z_N, ": G is the "
                    "centraliser of that shift's power")
    named = group(info.name, "G") if info.name else claim("G = ", value(info.order))
    ev: dict = {"mixer": desc, "name": info.name, "order": info.order_value}
    if on_classes is not None:
        ev["on classes"] = on_classes
    return proof.conclude(claim("the exact equivariance group of the convolution family is ", named, ": ", why),
                          proof.PROVED, evidence=ev, facts={"group": info}, certificate=cert)


@proof.rule("CONV-REACH", "The convolution mixer reaches every position within D layers (and not fewer)",
            CITE_CONV, statuses=(proof.PROVED,),
            certificates=(CirculantSpan, TapInterval, ScaledTapInterval, TapSumsets))
def reach_step(desc: str, depth, cert, missing: Optional[int], on_classes: Optional[tuple] = None) -> proof.Step:
    """`on_classes`: (their condition, {"modulus": s, "residues": [...]}) when D is stated on those classes only."""
    shown = sympy.sstr(depth)
    if isinstance(cert, TapSumsets) and not isinstance(depth, int):
        from ..show import show_size
        shown = show_size(depth)  # "⌈(n + 9)/5⌉ + 1 if n mod 5 = 0, else ⌈(n + 9)/5⌉"
    m = sympy.Symbol("m")
    where = claim("on ", Formula(on_classes[0], show_condition(on_classes[0])), ", ") if on_classes else ""
    statement = claim(where, "after m layers position i reads ", shifted_token("i+s", "i+s"), " for s in the m-fold "
                      "sum set of the taps with 0 (mod n); it is all of ", Z_N, " from ",
                      Formula(sympy.Eq(m, depth, evaluate=False), f"m = {shown}"), " on")
    if missing is not None:
        concrete = isinstance(depth, (int, sympy.Integer))  # a concrete D: "not at m = D − 1" with D − 1 evaluated
        fewer = (Formula(sympy.Eq(m, int(depth) - 1, evaluate=False), f"m = {int(depth) - 1}") if concrete else
                 Formula(sympy.Eq(m, sympy.Add(depth, -1, evaluate=False), evaluate=False), f"m = {shown} − 1"))
        statement += claim(", and not at ", fewer,
                           f" (offset {missing} is missing), so fewer layers are not enough")
    elif isinstance(cert, TapSumsets):
        statement += claim(f", for n ≥ {cert.start} (Lemma P: from k₀ = ", value(_form(cert).k0), " on, the k-fold sum "
                           "set of the reduced taps is [0, kb] minus the gaps of two numerical semigroups near its ends, "
                           "so Z_n is covered exactly when the overhang kb − n clears both gap sets and their sums"
                           + (f"; multiplying by {cert.step} is a bijection of " if cert.step > 1 else ""),
                           *((Z_N, " there") if cert.step > 1 else ()), "), and not before")
    elif isinstance(cert, ScaledTapInterval):
        statement += claim(f" (the offsets are {cert.step} times an interval that grows by its width per layer, and "
                           f"multiplying by {cert.step} is a bijection of ", Z_N, " there), and not before")
    elif not isinstance(depth, int):
        statement += " (the interval of offsets grows by the taps' width per layer), and not before"
    ev: dict = {"mixer": desc, "D": depth}
    if isinstance(cert, TapSumsets):
        ev["from"] = cert.start  # Lemma P's D holds for n ≥ this (docs/theory.md §22.6)
    if on_classes:
        ev["on classes"] = on_classes[1]
    if missing is not None:
        ev["not within D − 1"] = {"i": 1, "j": 1 + missing}  # position 1 does not read x_(1 + s)
    # D typed, for the certificate (the evidence keeps its words; with a `layers` budget no count is derived from it)
    return proof.conclude(statement, proof.PROVED, evidence=ev, certificate=cert, facts={"depth": depth})


@proof.rule("CONV-DISCONNECTED", "Convolution taps that never mix all positions: NOT-UAP", CITE_CONV,
            statuses=(proof.PROVED,), certificates=(CirculantSpan, ZeroTaps, ScaledTapInterval, TapSumsets))
def disconnected_step(desc: str, cert: "CirculantSpan | ZeroTaps | ScaledTapInterval | TapSumsets", i: int, j: int, why,
                      within: Optional[int] = None, by_class: Optional[tuple] = None) -> proof.Step:
    """`by_class`: (L, residues, their condition) when the obstruction holds on those residue classes of n mod L only
    (the facts `residue_class`, `modulus`, `residues`: NOT-UAP there, beside the verdict for the others, §12)."""
    where = claim("for ", Formula(by_class[2], show_condition(by_class[2])), ", ") if by_class else ""
    ev = {"mixer": desc, "witness": {"i": i, "j": j, "target": SUM_TARGET}, "within layers": within}
    facts: dict = {"obstruction": True}
    if by_class:
        ev["classes"] = {"modulus": by_class[0], "residues": list(by_class[1])}
        facts.update({"i": i, "j": j, "residue_class": by_class[2], "modulus": by_class[0],
                      "residues": tuple(by_class[1])})
    return proof.conclude(claim(where, token(j), f" never reaches position {i} ", why, f", so every model's output at "
                                f"{i} ignores ", token(j), ", while the target ", SUM_TARGET_CLAIM, " (", S_N,
                                "-invariant, hence G-equivariant) depends on it"),
                          proof.PROVED, evidence=ev, facts=facts, certificate=cert)


@proof.rule("CONV-LAYERS", "D convolution layers are token distinguishing under C_n, and least", CITE_CONV,
            statuses=(proof.PROVED,), certificates=(CirculantSpan, TapInterval, ScaledTapInterval, TapSumsets))
def layers_step(reach: proof.Step, layers, cert, n=None, on_classes: Optional[tuple] = None,
                start: int = 2) -> proof.Step:
    """`n`: the symbol of a symbolic n, whose count ⌈(n − 1)/w⌉ is stated for n ≥ 2 (at n = 1 it is 0,
    and the count is one layer, as at every concrete n); `on_classes`: (their condition, {"modulus", "residues"})
    when it is stated on those residue classes of n only (the range is then n ≥ 2 on them)."""
    shown = sympy.sstr(layers)
    count = value(layers) if not isinstance(layers, int) else shown
    one = layers == 1  # a concrete count of one: the singular ("1 convolution layer is")
    return proof.conclude(claim(count, " convolution layer is" if one else " convolution layers are",
                                " token distinguishing under ", C_N, " and no fewer are: the composed mixer is X ↦ X·Q(P) "
                                "with Q a product of ", count, " trainable tap polynomial" if one else
                                " trainable tap polynomials", "; its coefficients ", C_S, " (s ∈ ", Z_N,
                                ") are linearly independent polynomials in the taps once the sum set covers ", Z_N,
                                ", so equal outputs for all taps force equal cyclic shifts of the samples "
                                "(Definition 3; Theorem 1 then gives the ", C_N, "-UAP)"), proof.PROVED, [reach], {"layers": layers, "least": True},
                          facts={"layers": layers, "least": True,  # D is necessary (§22.2): the JSON's `least`
                                 **_range_facts(n, on_classes[0] if on_classes else None, start),
                                 **({"from": start} if isinstance(cert, TapSumsets) else {})},
                          certificate=cert)


def _range_facts(n, classes=None, start: int = 2) -> dict:
    """The range n ≥ start (2 but for Lemma P's closed forms) of a symbolic count (the verdict states it beside the
    group), with the residue classes it is stated on, or nothing."""
    if n is None:
        return {}
    at_least = sympy.GreaterThan(n, start, evaluate=False)
    if classes is None:
        return {"condition": f"{n} ≥ {start}", "condition_formula": at_least}
    formula = sympy.And(at_least, classes, evaluate=False)
    return {"condition": show_condition(formula), "condition_formula": formula}


@proof.rule("CONV-UNDECIDED", "Convolution mixer analysis undecided", CITE_CONV, statuses=(proof.UNDECIDED,))
def undecided_step(desc: str, reason: str) -> proof.Step:
    return proof.conclude(f"the convolution mixer analysis is undecided: {reason}", proof.UNDECIDED,
                          evidence={"mixer": desc, "reason": reason})


def _concrete_group(n: int, g: int) -> GroupInfo:
    """The centraliser C_{n/g} ≀ S_g at an integer n, g = gcd(n, taps): C_n when g = 1, S_n when g = n (C_1 = S_1 at
    n = 1 is named S_n, as the attention rules name it at n = 1)."""
    import math
    if n == 1:
        return GroupInfo("S_n", 1, ())
    if g == 1:
        return GroupInfo("C_n", n, (tuple(list(range(2, n + 1)) + [1]),))
    order = (n // g) ** g * math.factorial(g) if g < n else math.factorial(n)
    return GroupInfo("S_n" if g == n else f"C_{n // g} ≀ S_{g}", order, ())


def convolution_premises(spec: S.Spec):
    """(group step, group info, structure steps, layers, obstruction) for a `convolution` file."""
    from .symmetry import group_undecided
    conv = spec.mixer
    if conv is None:
        raise ValueError("convolution_premises needs a `convolution` mixer")
    desc = describe(conv)
    n = spec.tokens
    # the length's bound first: `circular(l)` at an integer n lists min(l, n − 1) + 1 taps
    taps = concrete_taps(conv, n) if isinstance(n, int) and n <= MAX_CIRCULANT_N else None
    if n == 1 and taps is None:
        taps = (0,)  # every tap is 0 mod 1, whatever the span
    if isinstance(n, int):
        if n > MAX_CIRCULANT_N:
            step = undecided_step(desc, f"n = {n:,} is above {MAX_CIRCULANT_N:,}")
            return group_undecided(desc, step.claim), None, [step], None, None
        if taps is None:
            step = undecided_step(desc, "the span l is a parameter: give it a value (or make `tokens` symbolic)")
            return group_undecided(desc, step.claim), None, [step], None, None
        g = tap_gcd(n, taps)
        depth = sumset_depth(n, taps)
        cert = CirculantSpan(n, taps, g, depth)
        info = _concrete_group(n, g)
        gstep = group_step(desc, info, cert)
        if depth is None:
            obstruction = disconnected_step(desc, cert, 1, 2 if n > 1 else 1,
                                            f"at any depth (the taps generate only {g}Z_n, and 1 ∉ {g}Z_n)")
            return gstep, info, [obstruction], None, obstruction
        layers = max(1, depth)
        missing = missing_offset(n, taps, depth - 1) if depth >= 1 else None
        span_cert: Certificate = cert
        reach = reach_step(desc, depth, cert, missing)
        budget = spec.layers if isinstance(spec.layers, int) else None
        if budget is not None and budget < depth:
            s = missing_offset(n, taps, budget) or 0  # some offset is missing below the reach D
            obstruction = disconnected_step(desc, cert, 1, 1 + s,
                                            f"within the budget `layers {budget}` (offset {s} is not reached)", budget)
            return gstep, info, [reach, obstruction], None, obstruction
        return gstep, info, [reach, layers_step(reach, layers, span_cert)], layers, None
    # symbolic n: the interval case
    nsym = sympy.Symbol(n, integer=True, positive=True)
    width: object
    interval: Certificate
    if conv.span is not None:
        if isinstance(conv.span, int):
            width = conv.span
            interval = TapInterval((), conv.span)  # the taps 0..l, an interval: not listed (l may be 10⁹)
        else:
            p = spec.param(conv.span)
            width = sympy.Symbol(conv.span, integer=True, positive=True)
            interval = TapInterval((), conv.span, p.lower if p else None)
    else:
        width = interval_width(conv.taps)
        interval = TapInterval(tuple(conv.taps))
    if conv.span is None and conv.taps and all(t == 0 for t in conv.taps):
        zero = ZeroTaps(tuple(conv.taps))
        info = GroupInfo("S_n", "n!", ())
        gstep = group_step(desc, info, zero)
        obstruction = disconnected_step(desc, zero, 1, 2, "at any depth, for n ≥ 2 (every tap is 0: the mixer never "
                                                          "moves a token, so tokens are never mixed)")
        return gstep, info, [obstruction], None, obstruction
    scaled = scaled_interval(conv.taps) if conv.span is None and width is None else None
    if scaled is not None:
        return _scaled_premises(spec, desc, nsym, scaled)
    form = tap_sumset_form(conv.taps) if conv.span is None and width is None else None
    if form is not None:
        return _sumset_premises(spec, desc, nsym, form)
    if width is None:
        step = undecided_step(desc, "no closed form for these taps with symbolic n (give `tokens N`)")
        return group_undecided(desc, step.claim), None, [step], None, None
    info = GroupInfo("C_n", nsym, ("(1 2 ... n)",))
    gstep = group_step(desc, info, interval)
    depth = sympy.ceiling((nsym - 1) / width)
    reach = reach_step(desc, depth, interval, None)
    if isinstance(spec.layers, int):
        step = undecided_step(desc, f"`layers {spec.layers}` suffices exactly when {sympy.sstr(depth)} ≤ "
                                    f"{spec.layers}, which depends on n (NOT-UAP where it fails)")
        return gstep, info, [reach, step], None, None
    return gstep, info, [reach, layers_step(reach, depth, interval, nsym)], depth, None


def _scaled_premises(spec: S.Spec, desc: str, nsym: sympy.Symbol, scaled: tuple[int, int, int]):
    """Symbolic n, K ∪ {0} = s·[a, b] with s ≥ 2 (docs/theory.md §22.5): on the classes of n mod s prime to s, G = C_n
    and D = ⌈(n − 1)/(b − a)⌉ layers, least; on the others x_2 never reaches position 1 (NOT-UAP there)."""
    assert spec.mixer is not None
    s, a, b = scaled
    if s > MAX_LISTED_MODULUS:
        # the verdict by class lists the residues of n mod s prime to s, and the others, one by one
        from .symmetry import group_undecided
        step = undecided_step(desc, f"every tap is a multiple of {s:,}, and the classes of n mod it are listed only "
                                    f"for a modulus up to {MAX_LISTED_MODULUS:,} (give `tokens N`)")
        return group_undecided(desc, step.claim), None, [step], None, None
    cert = ScaledTapInterval(tuple(spec.mixer.taps), s)
    coprime = tuple(r for r in range(s) if math.gcd(r, s) == 1)
    shared = tuple(r for r in range(s) if math.gcd(r, s) > 1)
    good, bad = class_condition(nsym, s, coprime), class_condition(nsym, s, shared)
    kept = {"modulus": s, "residues": list(coprime)}
    info = GroupInfo("C_n", nsym, ("(1 2 ... n)",), condition=show_condition(good), condition_formula=good)
    gstep = group_step(desc, info, cert, kept)
    obstruction = disconnected_step(desc, cert, 1, 2, claim(f"at any depth: every tap is a multiple of {s}, so for "
                                                            f"e = gcd(n, {s}) > 1 the sum sets stay in e", Z_N,
                                                            " and offset 1 is never reached"),
                                    by_class=(s, shared, bad))
    depth = sympy.ceiling((nsym - 1) / (b - a))
    reach = reach_step(desc, depth, cert, None, (good, kept))
    if isinstance(spec.layers, int):
        step = undecided_step(desc, f"`layers {spec.layers}` suffices exactly when {sympy.sstr(depth)} ≤ "
                                    f"{spec.layers}, which depends on n (NOT-UAP where it fails)")
        return gstep, info, [obstruction, reach, step], None, None
    return gstep, info, [obstruction, reach, layers_step(reach, depth, cert, nsym, (good, kept))], depth, None


def _form(cert: TapSumsets) -> TapSumsetForm:
    form = tap_sumset_form(cert.taps)
    assert form is not None  # the kernel checked the certificate
    return form


def _sumset_premises(spec: S.Spec, desc: str, nsym: sympy.Symbol, form: TapSumsetForm):
    """Symbolic n, integer taps that are neither an interval nor s times one with 0 (docs/theory.md §22.6, Lemma P):
    G = C_n on the classes of n mod s prime to s (every n when s = 1), NOT-UAP on the others, and
    D(n) = (n + u*[−n mod b])/b layers, least, for n ≥ the form's start."""
    assert spec.mixer is not None
    s = form.step
    cert = TapSumsets(tuple(spec.mixer.taps), s, form.start)
    depth = tap_depth_expression(form, nsym)
    steps: list = []
    classes = None
    if s > 1:
        coprime = tuple(r for r in range(s) if math.gcd(r, s) == 1)
        shared = tuple(r for r in range(s) if math.gcd(r, s) > 1)
        good, bad = class_condition(nsym, s, coprime), class_condition(nsym, s, shared)
        kept = {"modulus": s, "residues": list(coprime)}
        classes = (good, kept)
        info = GroupInfo("C_n", nsym, ("(1 2 ... n)",), condition=show_condition(good), condition_formula=good)
        gstep = group_step(desc, info, cert, kept)
        steps.append(disconnected_step(desc, cert, 1, 2, claim(f"at any depth: every tap is a multiple of {s}, so for "
                                                               f"e = gcd(n, {s}) > 1 the sum sets stay in e", Z_N,
                                                               " and offset 1 is never reached"),
                                       by_class=(s, shared, bad)))
    else:
        info = GroupInfo("C_n", nsym, ("(1 2 ... n)",))
        gstep = group_step(desc, info, cert)
    reach = reach_step(desc, depth, cert, None, classes)
    steps.append(reach)
    if isinstance(spec.layers, int):
        steps.append(undecided_step(desc, f"`layers {spec.layers}` suffices exactly when {sympy.sstr(depth)} ≤ "
                                          f"{spec.layers}, which depends on n (NOT-UAP where it fails)"))
        return gstep, info, steps, None, None
    steps.append(layers_step(reach, depth, cert, nsym, classes, form.start))
    return gstep, info, steps, depth, None
