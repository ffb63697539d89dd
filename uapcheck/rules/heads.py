"""Heads that share or combine: grouped-query / multi-query attention and differential attention
(docs/theory.md §17). Both families contain the single head they are built from, and every member
is equivariant under that head's group, so the group and one-layer token distinguishability are the
single head's; the rules record why.
"""
from __future__ import annotations

from .. import proof
from .. import spec as S
from ..certificates import Inference
from ..claim import claim, written
from .wording import W_K, W_Q, W_V

DIFFERENTIAL = written("softmax(Q1 K1ᵀ) − λ softmax(Q2 K2ᵀ)",
                       r"\operatorname{softmax}(Q_{1} K_{1}^{\top}) - \lambda \operatorname{softmax}(Q_{2} K_{2}^{\top})")

CITE_GQA = proof.derived("Theorem 2", text="Shazeer 2019, arXiv:1911.02150 (multi-query); Ainslie et al. 2023, "
                         "arXiv:2305.13245 (GQA); the argument: docs/theory.md §17.1")
CITE_DIFF = proof.derived("Theorem 2", text="Ye et al. 2024, Differential Transformer, arXiv:2410.05258; the argument: "
                          "docs/theory.md §17.2")


@proof.rule("HEADS-SHARED", "Query heads sharing W_K, W_V in groups: the single head's premises",
            CITE_GQA, statuses=(proof.PROVED, proof.UNDECIDED), certificates=(Inference,))
def shared_heads(head: S.Head, td: proof.Step, label: str) -> proof.Step:
    h, g = head.heads
    what = (claim(f"{h} query heads sharing one key/value head (multi-query)") if g == 1 else
            claim(f"{h} query heads in {g} groups sharing ", W_K, ", ", W_V, " (grouped-query)") if g < h else
            claim(f"{h} heads with their own ", W_Q, ", ", W_K, ", ", W_V))
    if not td.proved:
        return proof.conclude(claim(f"{label}: ", what, ": the single head's token distinguishability is not "
                                    "established"),
                              proof.UNDECIDED, [td])
    return proof.conclude(claim(f"{label}: ", what, ": with every ", W_Q, " equal, every shared ", W_K,
                                " equal and every ", written(f"W_V = W/{h}", rf"W_{{V}} = W/{h}"), ", ") +
                          "the layer is the single head, so the family contains it and is 1-layer token "
                          "distinguishing (Theorem 2 on the larger connected parameter set); every head is "
                          "equivariant under the single head's group, so the sum is, and the group is the "
                          "single head's", proof.PROVED, [td], {"query heads": h, "key/value heads": g},
                          facts={"layers": 1},
                          certificate=Inference(((td, proof.PROVED),), "equal query heads, shared keys and values "
                                                "and W_V = W/h make the layer the single head"))


@proof.rule("HEADS-DIFF", "Differential attention: two softmax maps subtracted", CITE_DIFF,
            statuses=(proof.PROVED, proof.UNDECIDED), certificates=(Inference,))
def differential(td: proof.Step, label: str) -> proof.Step:
    if not td.proved:
        return proof.conclude(claim(f"{label}: ", DIFFERENTIAL, ": the single head's token "
                                    "distinguishability is not established"), proof.UNDECIDED, [td])
    return proof.conclude(claim(f"{label}: ", DIFFERENTIAL, ": each map is normalised on its own "
                                "(positive normalisers), so the weights are well defined although they take both "
                                "signs; at λ = 0 the layer is the single head, so the family is 1-layer token "
                                "distinguishing (Theorem 2, λ a real parameter); each map is equivariant under the "
                                "single head's group, so their difference is, and the group is the single head's"), proof.PROVED, [td],
                          {"λ": "trainable, any real value"}, facts={"layers": 1},
                          certificate=Inference(((td, proof.PROVED),), "at λ = 0 the layer is the single head"))

