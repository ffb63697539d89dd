"""Lemma M (docs/theory.md §20.9): a kernel that takes one non-zero value at W_Q = W_K = 0 makes attention add W_V
times the mean of the tokens; a token-wise FFN block before it (attention W_V = 0) turns the mean into a mean of
non-linear features, which differs between samples from different S_n-orbits. Two blocks then make every token
distinct, and with an analytic FFN activation the blocks are analytic in their parameters, so Theorem 2 (fixed m)
applies to the block family: 2 attention layers, with the FFN layers, give the S_n-UAP.
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import proof
from .. import spec as S
from ..certificates import Inference
from ..claim import Formula, claim
from ..lower import KEY_NORM2, QUERY_DOT_KEY, QUERY_NORM2, SCALE, ClosedKernel, FeatureKernel
from .wording import S_N, W_K, W_Q, W_V

CITE_MEANS = proof.derived("Theorem 1", "Theorem 2",
                           text="derived here: the block family with uniform weights and an analytic FFN, Theorem 2 with "
                                "m = 2 (Lemma M), docs/theory.md §20.9")

#: FFN activations that are real-analytic on R, Lipschitz and not affine (so not polynomial): Leshno et al. 1993
#: makes their ridge functions dense in C(R^d).
ANALYTIC_ACTIVATIONS = ("tanh", "sigmoid", "gelu", "silu", "softplus", "sin")


def kernel_at_zero(model) -> Optional[sympy.Expr]:
    """k(0, 0): every invariant 0 (the layer at W_Q = W_K = 0, biases 0), when it is a finite value shown
    non-zero for every admissible parameter; else None."""
    if isinstance(model, ClosedKernel):
        value = model.plain.xreplace({QUERY_DOT_KEY: 0, KEY_NORM2: 0, QUERY_NORM2: 0})
    elif isinstance(model, FeatureKernel) and model.index in ("random", "coordinate"):
        value = model.term.xreplace({model.query_symbol: 0, model.key_symbol: 0, QUERY_NORM2: 0, KEY_NORM2: 0,
                                     SCALE: 1})
    else:
        return None
    try:
        value = sympy.simplify(value)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    if value.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo) or value.is_zero is not False or value.is_finite is not True:
        return None
    return value


def _plain(head: S.Head) -> bool:
    return (isinstance(head.pattern, S.Full) and head.bias is None and head.position is None and head.projection is None
            and head.nystrom is None and not head.differential and head.heads is None)


def applies(spec: S.Spec, td: proof.Step, ffn_step: proof.Step) -> Optional[tuple]:
    """(the head's AN-STRUCT step, k(0, 0)) when Lemma M's hypotheses hold for the file's single head whose own
    step is not proved; else None."""
    from ..lower import Unsupported, lower_head
    if len(spec.heads) != 1 or td.proved or not ffn_step.proved or spec.positional == "absolute":
        return None
    head = spec.heads[0]
    if not _plain(head) or spec.ffn.kind != "named" or spec.ffn.name not in ANALYTIC_ACTIVATIONS:
        return None
    an = next((s for s in td.walk() if s.rule == "AN-STRUCT"), None)
    if an is None or not an.proved or an.facts.get("min_dim") == 2:
        return None
    try:
        model = lower_head(spec, head)
    except Unsupported:
        return None
    value = kernel_at_zero(model)
    return None if value is None else (an, value)


@proof.rule("TD-MEANS", "A kernel with a non-zero value at zero: an FFN block and a mean separate (Lemma M)",
            CITE_MEANS, statuses=(proof.PROVED,), certificates=(Inference,))
def means_step(td: proof.Step, an: proof.Step, ffn_step: proof.Step, value, label: str) -> proof.Step:
    k00 = Formula(sympy.Eq(sympy.Symbol("k(0, 0)"), value, evaluate=False), f"k(0, 0) = {sympy.sstr(value)}")
    return proof.conclude(
        claim(f"{label}: its one-layer premise is not proved ({td.rule} {td.status.value}), but at ", W_Q, " = ",
              W_K, " = 0 every weight is ", k00, " ≠ 0, so the layer adds ", W_V, " times a fixed non-zero multiple of the mean of the tokens; after "
              "a block whose attention has ", W_V, " = 0 and whose FFN (analytic, not polynomial) makes the means of "
              "the features of any two samples from different ", S_N, "-orbits differ, a generic ", W_V,
              " makes every token distinct: the blocks are analytic in their parameters, so Theorem 2 with m = 2 "
              "gives 2-layer token distinguishing (Lemma M, docs/theory.md §20.9)"),
        proof.PROVED, [td, an, ffn_step], {"kernel at zero": value, "layers": 2, "least": False},
        facts={"layers": 2, "kernel_at_zero": value, "least": False},
        certificate=Inference(((td, td.status), (an, proof.PROVED), (ffn_step, proof.PROVED)),
                              "Lemma M: an FFN block then a uniform-weight attention block, Theorem 2 with m = 2"))
