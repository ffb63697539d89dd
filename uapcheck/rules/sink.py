"""An attention-sink logit in the softmax normaliser (docs/theory.md §17.4, Theorems F194 and F195).

`sink logit learned` (gpt-oss: b trainable per head) and `sink logit B` (b = B fixed; B = 0 is softmax1) make the
head's weights k(q_i, k_j) / (exp(b) + Σ_l k(q_i, k_l)). With b learned, the layer tends to the sink-free layer as
b → −∞, uniformly on compact sets, and a strict separation at the limit survives nearby (F194): the sink-free head's
one-layer token distinguishability, group and counts carry over. With b fixed the family is not a limit of the
sink-free one; F195 proves the dominant-pair lemma with the extra weight for the softmax kernel exp(c x·y + a)
(c ≠ 0), which is all Lemma V uses. Elsewhere a fixed logit leaves the premise undecided.
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import proof
from .. import spec as S
from ..certificates import Inference
from ..claim import claim, written
from ..lower import QUERY_DOT_KEY, ClosedKernel

SINK_WEIGHTS = written("k(q_i, k_j) / (exp(b) + Σ_l k(q_i, k_l))",
                       r"k(q_{i}, k_{j}) / \left(e^{b} + \sum_{l} k(q_{i}, k_{l})\right)")
B_TO_MINUS_INFINITY = written("b → −∞", r"b \to -\infty")
SOFTMAX_CLASS = written("exp(c x·y + a), c ≠ 0", r"\exp(c\, x \cdot y + a),\ c \neq 0")

CITE_SINK = proof.derived("Theorem 2", "Definition 3", text=(
    "OpenAI 2025, gpt-oss-120b & gpt-oss-20b Model Card, arXiv:2508.10925 (learned sink logits); E. Miller 2023, "
    "Attention Is Off By One (softmax1); the argument: docs/theory.md §17.4 (Theorems F194, F195)"))


#: the proved one-layer steps a sink logit carries over (the verifier keeps its own copy)
CARRIED = ("TD-KERNEL", "TD-RIDGE", "TD-RADIAL", "TD-ROTARY", "TD-FIXEDBIAS", "TD-BUCKETS", "TD-BIAS", "HEADS-DIFF")


def softmax_form(model) -> bool:
    """Whether the lowered kernel is exp(c x·y + a) with c ≠ 0 and a a number (F195's class)."""
    if not isinstance(model, ClosedKernel) or not isinstance(model.plain, sympy.exp):
        return False
    arg = sympy.expand(model.plain.args[0])
    if arg.free_symbols != {QUERY_DOT_KEY}:
        return False
    poly = sympy.Poly(arg, QUERY_DOT_KEY)
    return poly.degree() == 1 and all(c.is_Rational for c in poly.all_coeffs()) and poly.all_coeffs()[0] != 0


def fixed_covered(head: S.Head, model) -> Optional[str]:
    """Why F195 does not cover this fixed-logit head, or None when it does."""
    if head.bias is not None or head.position is not None:
        return "positions or a bias in the weights"
    if head.tie or head.affine:
        return "tied or affine query and key maps"
    if not softmax_form(model):
        return "another kernel"
    return None


@proof.rule("HEADS-SINK", "An attention-sink logit in the softmax normaliser: learned (gpt-oss) or fixed (softmax1)",
            CITE_SINK, statuses=(proof.PROVED, proof.UNDECIDED), certificates=(Inference,))
def sink_step(head: S.Head, model, td: proof.Step, label: str) -> proof.Step:
    sink = head.sink
    assert sink is not None
    what = claim(f"{label}: weights ", SINK_WEIGHTS, ", b trainable") if sink.learned else \
        claim(f"{label}: weights ", SINK_WEIGHTS, ", ", written(f"b = {sink.value}", f"b = {sink.value}"), " fixed")
    data = {"sink logit": "learned" if sink.learned else sink.value}
    if not td.proved:
        return proof.conclude(what + ": the sink-free head's token distinguishability is not established",
                              proof.UNDECIDED, [td], data)
    if td.rule not in CARRIED or td.facts.get("layers") != 1:
        return proof.conclude(what + ": the sink-free head is not shown one-layer token distinguishing, and only that "
                              "case is carried over (§17.4)", proof.UNDECIDED, [td], data)
    if sink.learned:
        return proof.conclude(
            what + claim(": as ", B_TO_MINUS_INFINITY, " the layer tends to the sink-free layer uniformly on compact "
                         "sets, so a strict separation of tokens by the sink-free head holds for b small enough, and "
                         "the family's closure contains the sink-free family's (Theorem F194); the layer sees its "
                         "neighbours' states as a multiset, as without the sink, so the group and the counts are the "
                         "sink-free head's"),
            proof.PROVED, [td], data, facts={"layers": 1},
            certificate=Inference(((td, proof.PROVED),), "b → −∞: the sink-free layer is a limit of the family"))
    why = fixed_covered(head, model)
    if why is not None:
        return proof.conclude(what + claim(": a fixed sink logit is not a limit of the sink-free head, and Theorem "
                                           "F195 is proved for ", SOFTMAX_CLASS, f" without positions only (here: {why})"),
                              proof.UNDECIDED, [td], data)
    return proof.conclude(
        what + ": the dominant-pair lemma holds with the fixed extra weight (Lemma J: scaling the keys, the product "
        "term leads when the strongest key of the other sample grows, the unnormalised difference when it vanishes), "
        "so one layer is token distinguishing and Lemma V applies (Theorem F195); the layer sees its neighbours' "
        "states as a multiset, so the group and the counts are the sink-free head's",
        proof.PROVED, [td], data, facts={"layers": 1},
        certificate=Inference(((td, proof.PROVED),), "Lemma J: the dominant pair with a fixed extra weight"))
