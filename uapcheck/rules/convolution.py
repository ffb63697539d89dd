"""The circular convolution mixer (the paper's C_n design, §4.4.2, (23)): its group, its reach, the
least number of mixing layers and token distinguishability (docs/theory.md §22).

[g(X)]_i = Σ_{k ∈ K} ψ_k x_{(i + k) mod n}, one trainable scalar per tap, layer X ↦ X + g(X).
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import proof
from .. import spec as S
from ..proof import Certificate
from ..graphs.circulant import MAX_CIRCULANT_N, interval_width, missing_offset, sumset_depth, tap_gcd
from ..layer_certificates import CirculantSpan, TapInterval, ZeroTaps
from ..claim import Formula, claim, group, written
from ..groups import GroupInfo
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


def describe(conv: S.Convolution) -> str:
    if conv.span is not None:
        return f"convolution circular({conv.span})"
    return "convolution circular {" + ", ".join(str(t) for t in conv.taps) + "}"


def concrete_taps(conv: S.Convolution) -> Optional[tuple]:
    if conv.span is None:
        return tuple(conv.taps)
    return tuple(range(conv.span + 1)) if isinstance(conv.span, int) else None


@proof.rule("CONV-GROUP", "The convolution mixer's exact group: the centraliser of its tap shifts",
            CITE_CONV_GROUP, statuses=(proof.PROVED,), certificates=(CirculantSpan, TapInterval, ZeroTaps))
def group_step(desc: str, info: GroupInfo, cert) -> proof.Step:
    if isinstance(cert, ZeroTaps):
        why = claim("every tap is 0, so the mixer is a multiple of the identity and commutes with every "
                    "permutation: ", group("S_n", "G"))
    elif info.name == "C_n":
        why = claim("the taps generate ", Z_N, ", so a permutation commuting with every trainable circulant commutes "
                    "with the cyclic shift: ", group("C_n", "G"))
    else:
        why = claim(f"the taps generate only the multiples of {getattr(cert, 'gcd', '?')} in ", Z_N, ": G is the "
                    "centraliser of that shift's power")
    named = group(info.name, "G") if info.name else claim("G = ", value(info.order))
    return proof.conclude(claim("the exact equivariance group of the convolution family is ", named, ": ", why),
                          proof.PROVED, evidence={"mixer": desc, "name": info.name, "order": info.order},
                          facts={"group": info}, certificate=cert)


@proof.rule("CONV-REACH", "The convolution mixer reaches every position within D layers (and not fewer)",
            CITE_CONV, statuses=(proof.PROVED,), certificates=(CirculantSpan, TapInterval))
def reach_step(desc: str, depth, cert, missing: Optional[int]) -> proof.Step:
    shown = sympy.sstr(depth)
    m = sympy.Symbol("m")
    statement = claim("after m layers position i reads ", shifted_token("i+s", "i+s"), " for s in the m-fold sum "
                      "set of the taps with 0 (mod n); it is all of ", Z_N, " from ",
                      Formula(sympy.Eq(m, depth, evaluate=False), f"m = {shown}"), " on")
    if missing is not None:
        statement += claim(", and not at ", Formula(sympy.Eq(m, sympy.Add(depth, -1, evaluate=False), evaluate=False),
                                                    f"m = {shown} − 1"),
                           f" (offset {missing} is missing), so fewer layers are not enough")
    elif not isinstance(depth, int):
        statement += " (the interval of offsets grows by the taps' width per layer), and not before"
    ev: dict = {"mixer": desc, "D": depth}
    if missing is not None:
        ev["not within D − 1"] = {"i": 1, "j": 1 + missing}  # position 1 does not read x_(1 + s)
    return proof.conclude(statement, proof.PROVED, evidence=ev, certificate=cert)


@proof.rule("CONV-DISCONNECTED", "Convolution taps that never mix all positions: NOT-UAP", CITE_CONV,
            statuses=(proof.PROVED,), certificates=(CirculantSpan, ZeroTaps))
def disconnected_step(desc: str, cert: "CirculantSpan | ZeroTaps", i: int, j: int, why: str,
                      within: Optional[int] = None) -> proof.Step:
    return proof.conclude(claim(token(j), f" never reaches position {i} {why}, so every model's output at {i} "
                                "ignores ", token(j), ", while the target ", SUM_TARGET_CLAIM, " (", S_N,
                                "-invariant, hence G-equivariant) depends on it"),
                          proof.PROVED, evidence={"mixer": desc, "witness": {"i": i, "j": j, "target": SUM_TARGET},
                                                  "within layers": within},
                          facts={"obstruction": True}, certificate=cert)


@proof.rule("CONV-LAYERS", "D convolution layers are token distinguishing under C_n, and least", CITE_CONV,
            statuses=(proof.PROVED,), certificates=(CirculantSpan, TapInterval))
def layers_step(reach: proof.Step, layers, cert, n=None) -> proof.Step:
    """`n`: the symbol of a symbolic n, whose count ⌈(n − 1)/w⌉ is stated for n ≥ 2 (at n = 1 it is 0,
    and the count is one layer, as at every concrete n)."""
    shown = sympy.sstr(layers)
    count = value(layers) if not isinstance(layers, int) else shown
    return proof.conclude(claim(count, f" convolution layer{'s' if layers != 1 else ''} are token distinguishing "
                                "under ", C_N, " and no fewer are: the composed mixer is X ↦ X·Q(P) with Q a product "
                                "of ", count, " trainable tap polynomials; its coefficients ", C_S, " (s ∈ ", Z_N,
                                ") are linearly independent polynomials in the taps once the sum set covers ", Z_N,
                                ", so equal outputs for all taps force equal cyclic shifts of the samples "
                                "(Definition 3; Theorem 1 then gives the ", C_N, "-UAP)"), proof.PROVED, [reach], {"layers": layers, "least": True},
                          facts={"layers": layers, **_range_facts(n)}, certificate=cert)


def _range_facts(n) -> dict:
    """The range n ≥ 2 of a symbolic count (the verdict states it beside the group), or nothing."""
    if n is None:
        return {}
    return {"condition": f"{n} ≥ 2", "condition_formula": sympy.GreaterThan(n, 2, evaluate=False)}


@proof.rule("CONV-UNDECIDED", "Convolution mixer analysis undecided", CITE_CONV, statuses=(proof.UNDECIDED,))
def undecided_step(desc: str, reason: str) -> proof.Step:
    return proof.conclude(f"the convolution mixer analysis is undecided: {reason}", proof.UNDECIDED,
                          evidence={"mixer": desc, "reason": reason})


def convolution_premises(spec: S.Spec):
    """(group step, group info, structure steps, layers, obstruction) for a `convolution` file."""
    from .symmetry import group_undecided
    conv = spec.mixer
    if conv is None:
        raise ValueError("convolution_premises needs a `convolution` mixer")
    desc = describe(conv)
    n = spec.tokens
    taps = concrete_taps(conv)
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
        if g == 1:
            info = GroupInfo("C_n", n, (tuple(list(range(2, n + 1)) + [1]),) if n > 1 else ())
        else:
            import math
            order = (n // g) ** g * math.factorial(g) if g < n else math.factorial(n)
            name = "S_n" if g == n else f"C_{n // g} ≀ S_{g}"
            info = GroupInfo(name, order, ())
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
            interval = TapInterval(tuple(range(conv.span + 1)))
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
