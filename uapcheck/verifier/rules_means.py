"""TD-MEANS (Lemma M, docs/theory.md §20.9), re-checked from the re-parsed input: one plain dense head, an FFN
activation from the verifier's own list of analytic, non-polynomial Lipschitz activations, the premises (the head's
own step not proved, AN-STRUCT and FFN-DEF2 proved), and k(0, 0) evaluated by the verifier from the formula at zero
vectors, shown finite and non-zero."""
from __future__ import annotations

import sympy

from .. import spec as S
from . import kernels
from .check import VERIFIED, Reject, checker

#: real-analytic on R, Lipschitz, not affine (hence not a polynomial: Leshno et al. 1993 applies)
ANALYTIC = ("tanh", "sigmoid", "gelu", "silu", "softplus", "sin")


def _plain(head: S.Head) -> bool:
    return (isinstance(head.pattern, S.Full) and head.bias is None and head.position is None and head.projection is None
            and head.nystrom is None and not head.differential and head.heads is None)


def kernel_at_zero(spec: S.Spec, head: S.Head) -> sympy.Expr:
    """k(0, 0) from the re-parsed formula at zero vectors of dimension 2 (the random vector e_1)."""
    zero = (sympy.Integer(0), sympy.Integer(0))
    return sympy.simplify(kernels.kernel_value(spec, head, zero, zero, (sympy.Integer(1), sympy.Integer(0))))


@checker("TD-MEANS")
def td_means(ctx, s):
    spec = ctx.spec
    if s["status"] != "proved":
        raise Reject("TD-MEANS concludes `proved`")
    if len(spec.heads) != 1 or not _plain(spec.heads[0]) or spec.positional == "absolute":
        raise Reject("Lemma M is stated for one dense head without bias, positions, projections or an absolute encoding")
    if spec.layers is not None:
        raise Reject("Lemma M gives a count, not a budget's sufficiency")
    if spec.ffn.kind != "named" or spec.ffn.name not in ANALYTIC:
        raise Reject(f"the FFN activation is not one of the analytic non-polynomial activations {', '.join(ANALYTIC)}")
    prem = ctx.premises(s)
    if len(prem) != 3 or prem[1]["rule"] != "AN-STRUCT" or prem[2]["rule"] != "FFN-DEF2":
        raise Reject("its premises are the head's own step, its AN-STRUCT step and FFN-DEF2")
    if prem[0]["status"] == "proved" or prem[1]["status"] != "proved" or prem[2]["status"] != "proved":
        raise Reject("the head's own step must be open and AN-STRUCT and FFN-DEF2 proved")
    if (prem[1].get("evidence") or {}).get("dimensions") == "d ≥ 2":
        raise Reject("the head is analytic only for d ≥ 2 (off a null set): the zero parameters may lie outside")
    try:
        value = kernel_at_zero(spec, spec.heads[0])
    except kernels.OutOfScope as exc:
        raise Reject(f"k(0, 0) is not evaluated: {exc}") from None
    if value.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo) or value.is_zero is not False or value.is_finite is not True:
        raise Reject(f"k(0, 0) = {sympy.sstr(value)} is not shown finite and non-zero")
    if (s.get("data") or {}).get("layers") != 2:
        raise Reject("Lemma M gives 2 layers")
    return VERIFIED, (f"k(0, 0) = {sympy.sstr(value)} ≠ 0 recomputed from the formula: at W_Q = W_K = 0 the layer adds "
                      f"W_V times the mean (or sum) of the tokens; after an FFN block with the analytic non-polynomial "
                      f"σ = {spec.ffn.name}, whose ridge functions separate the feature sums of two samples from different "
                      "S_n-orbits, a generic W_V makes every token distinct; Theorem 2 with m = 2 on the block family "
                      "(§20.9)")
