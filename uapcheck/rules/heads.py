"""Heads that share or combine: grouped-query / multi-query attention and differential attention
(docs/theory.md §17). Both families contain the single head they are built from, and every member
is equivariant under that head's group, so the group and one-layer token distinguishability are the
single head's; the rules record why.
"""
from __future__ import annotations

from typing import Optional

from .. import proof
from .. import spec as S
from ..certificates import Inference
from ..claim import claim, written
from .wording import S_N, W_K, W_Q, W_V

DIFFERENTIAL = written("softmax(Q1 K1ᵀ) − λ softmax(Q2 K2ᵀ)",
                       r"\operatorname{softmax}(Q_{1} K_{1}^{\top}) - \lambda \operatorname{softmax}(Q_{2} K_{2}^{\top})")

CITE_GQA = proof.derived("Theorem 2", text="Shazeer 2019, arXiv:1911.02150 (multi-query); Ainslie et al. 2023, "
                         "arXiv:2305.13245 (GQA); the argument: docs/theory.md §17.1")
CITE_ZERO = proof.derived("Theorem 2", text="a head with a zero value map leaves the others' layer: docs/theory.md "
                          "§17.3 (Lemma Z)")
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



# The head steps that state 1-layer token distinguishing w.r.t. the head's own group for a plain dense head.
ONE_LAYER_RULES = ("TD-KERNEL", "TD-RIDGE", "TD-RADIAL", "TD-COMPLEX", "TD-LINFORMER", "HEADS-SHARED", "HEADS-DIFF", "HEADS-SINK")


def _plain_dense(head: S.Head) -> bool:
    return isinstance(head.pattern, S.Full) and head.bias is None and head.position is None


def _well_posed(head: S.Head, td: proof.Step) -> bool:
    """The head's layer is defined for every parameter: unnormalised, or a proved positive kernel among its
    premises (and nothing shown ill-posed)."""
    steps = list(td.walk())
    if any(s.status is proof.REFUTED and s.facts.get("ill_posed") for s in steps):
        return False
    return not head.normalized or any(s.rule == "WP-POSITIVE" and s.proved for s in steps)


def needs_two_dims(td: proof.Step) -> bool:
    """Whether a head's step rests on a premise proved only for token dimension d ≥ 2 (a fact `min_dim` 2)."""
    return any(s.proved and s.facts.get("min_dim") == 2 for s in td.walk())


def separating_head(spec: S.Spec, tds: list, group) -> Optional[int]:
    """The index of a plain dense head whose step is proved 1-layer token distinguishing, when Lemma Z applies
    to the others (§17.3): several heads, all dense, G = S_n, no absolute encoding, every other head proved or
    undecided and well-posed, and some other head left out by it (`left_out`: undecided, or proved only for
    d ≥ 2 beside a separating head proved for every d); else None. A head proved for every d is preferred."""
    if len(tds) < 2 or group is None or group.name != "S_n" or spec.positional == "absolute":
        return None
    if not all(isinstance(h.pattern, S.Full) for h in spec.heads):
        return None
    candidates = [k for k, (h, td) in enumerate(zip(spec.heads, tds))
                  if td.proved and td.rule in ONE_LAYER_RULES and _plain_dense(h)]
    if not candidates:
        return None
    k = next((k for k in candidates if not needs_two_dims(tds[k])), candidates[0])
    others = [(h, td) for j, (h, td) in enumerate(zip(spec.heads, tds)) if j != k]
    if not all(td.proved or (td.status is proof.UNDECIDED and _well_posed(h, td)) for h, td in others):
        return None
    return k if any(left_out(td, tds[k]) for _, td in others) else None


def left_out(td: proof.Step, separating: proof.Step) -> bool:
    """Whether Lemma Z stands in for this head's step beside the separating head's: the step is open, or it is
    proved only for d ≥ 2 while the separating head's holds for every d (§17.3, dimensions)."""
    return not td.proved or (needs_two_dims(td) and not needs_two_dims(separating))


@proof.rule("HEADS-ZERO-VALUE", "A head left out by its own zero value map: another head separates alone",
            CITE_ZERO, statuses=(proof.PROVED,), certificates=(Inference,))
def zero_value(td: proof.Step, label: str, other: str, k: int) -> proof.Step:
    """Head `label`'s premise `td` is not needed: head `other` (index k) is 1-layer token distinguishing
    w.r.t. S_n alone, and W_V = 0 in this head (its own trainable value map) leaves that head's layer. `td` is
    undecided, or proved only for d ≥ 2 (then the verdict need not inherit that range, §17.3)."""
    own = (f"its own premise is open ({td.rule} undecided)" if not td.proved else
           f"its own premise ({td.rule}) is proved only for token dimension d ≥ 2")
    return proof.conclude(claim(f"{label}: {own}, but with ", W_V,
                                " = 0 in this head (every head has its own trainable value map) the layer is "
                                f"{other} alone, whose step proves it 1-layer token distinguishing w.r.t. ", S_N,
                                ", the family's group: the family contains that head's family with the same group, "
                                "so it is 1-layer token distinguishing whatever this head computes (Lemma Z, "
                                "docs/theory.md §17.3)"), proof.PROVED, [td],
                          {"separating head": other}, facts={"separating_head": k, "layers": 1},
                          certificate=Inference(((td, td.status),),
                                                "Lemma Z: W_V = 0 in this head leaves the separating head's layer"))
