"""BIAS-LAYERS: how many layers dense heads need when a trainable bias is symmetric in the offset.

One layer cannot tell the keys i + s and i − s apart under a `symmetric toeplitz` or `symmetric
circulant` bias (TD-BIAS), but the depth-2 labelled view of a dense family is the whole labelled
sample, so two layers suffice (Lemma V^λ, docs/theory.md §11.10); whether one is enough is decided
here (docs/theory.md §8, BIAS-LAYERS).
"""
from __future__ import annotations

from itertools import permutations
from typing import Optional

import sympy

from .. import proof
from ..claim import Claim, claim, group, written
from .. import spec as S
from ..certificates import (DENSE_BIAS_BRUTE_FORCE_N, OFFSET_BIAS_KINDS, DenseBiasLayers, keeps_all_labels,
                            keeps_row_labels)

CITE = proof.derived("Corollary 1", text="derived here: the labelled view argument (docs/theory.md §11.10) for dense "
                     "heads with a symmetric trainable bias; docs/theory.md §8, BIAS-LAYERS")

SYMMETRIC_KINDS = ("symmetric toeplitz", "symmetric circulant")

LEMMA_V = written("V^λ", r"V^{\lambda}")  # the labelled view lemma, docs/theory.md §11.10
_SECTION = ", docs/theory.md §11.10)"


def applies(spec: S.Spec) -> bool:
    """Dense heads (no pattern) with at least one trainable symmetric bias: one layer is not token
    distinguishing there, so the count is this rule's."""
    return any(h.bias in SYMMETRIC_KINDS and h.position is None for h in spec.heads)


def _witness_range(kinds: tuple) -> int:
    """The least n from which σ = (1 3), i = 2, v = 4 is a one-layer witness: row 2 sees keys 1 and 3
    at offsets −1 and +1 (one class under both symmetric kinds); position 4 sees 1 at distance 3 and
    3 at distance 1 (circular distance min(3, n − 3) ≠ 1 needs n ≥ 5)."""
    return 5 if "symmetric circulant" in kinds else 4


def _exhaustive(kinds: tuple, n: int) -> Optional[tuple]:
    """A σ ∈ S_n and a row i with σ keeping row i's labels and σ outside the group, or None."""
    for perm in permutations(range(1, n + 1)):
        if keeps_all_labels(kinds, n, perm):
            continue
        for i in range(1, n + 1):
            if keeps_row_labels(kinds, n, perm, i):
                return i, perm
    return None


@proof.rule("BIAS-LAYERS", "Dense heads with a symmetric trainable bias: one layer or two", CITE,
            statuses=(proof.PROVED, proof.UNDECIDED), certificates=(DenseBiasLayers,))
def dense_bias_layers(spec: S.Spec) -> proof.Step:
    n = spec.tokens
    n_value = n if isinstance(n, int) else sympy.Symbol(n, integer=True, positive=True)
    fixed = [h for h in spec.heads if h.position is not None]
    if fixed:
        return proof.conclude(claim("a head carries fixed position weights next to a symmetric trainable bias: the "
                                    "labelled view argument's sufficiency (Lemma ", LEMMA_V, ") does not cover fixed "
                                    "weights (docs/theory.md §14.11(f)), so the number of layers is not decided"),
                              proof.UNDECIDED, evidence={"reason": "fixed position weights"})
    kinds = tuple(sorted({h.bias for h in spec.heads if h.bias}))
    if set(kinds) & {"free", "toeplitz"}:
        injective = next(k for k in kinds if k in ("free", "toeplitz"))
        return _conclude(f"one layer suffices: the `{injective}` bias gives every key of a row its own class, so "
                         "that head alone separates X from σX for every σ ≠ id (TD-BIAS), and the group is "
                         "trivial", DenseBiasLayers(kinds, n_value, 1, True, "injective"))
    if spec.positional == "absolute":
        return _conclude(claim("one layer suffices: with an absolute positional encoding a one-layer labelled "
                               "witness would fix every position (docs/theory.md §11.10), and Lemma ", LEMMA_V,
                               " gives the rest"),
                         DenseBiasLayers(kinds, n_value, 1, True, "encoding"))
    assert all(k in OFFSET_BIAS_KINDS for k in kinds)
    if isinstance(n, int) and n <= DENSE_BIAS_BRUTE_FORCE_N:
        found = _exhaustive(kinds, n)
        if found is None:
            return _conclude(claim(f"one layer suffices at n = {n}: no σ ∈ ", group(f"S_{n}"), " outside the group "
                                   "keeps the labels of a row (every permutation tried), so the one-layer labelled "
                                   "view determines the sample up to the group (Lemma ", LEMMA_V, _SECTION),
                             DenseBiasLayers(kinds, n_value, 1, True, "exhaustive"))
        i, perm = found
        return _conclude(f"two attention layers are needed and suffice at n = {n}: σ = {_cycles(perm)} keeps the "
                         f"labels of row {i} and is not in the group, so one layer gives X and σX the same "
                         f"output at position {i}; the depth-2 labelled view is the whole labelled sample, "
                         "so two layers suffice (Lemma " + claim(LEMMA_V, _SECTION),
                         DenseBiasLayers(kinds, n_value, 2, True, "exhaustive", (i, tuple(perm))), witness=(i, {"permutation": list(perm)}))
    if set(kinds) <= set(SYMMETRIC_KINDS):
        low = _witness_range(kinds)
        where = f"for {n} ≥ {low}" if not isinstance(n, int) else f"at n = {n}"
        return _conclude(f"two attention layers are needed and suffice {where}: σ = (1 3) keeps the labels of "
                         "row 2 (keys 1 and 3 sit at offsets −1 and +1, one class of a symmetric bias) and "
                         "is not in the group (position 4 sees 1 and 3 in different classes), so one layer "
                         "gives X and σX the same output at position 2; the depth-2 labelled view is the whole "
                         "labelled sample, so two layers suffice (Lemma " + claim(LEMMA_V, _SECTION),
                         DenseBiasLayers(kinds, n_value, 2, True, "witness", (2, 1, 3, 4), low),
                         witness=(2, {"swap": [1, 3]}), low=low)
    return _conclude(claim("two attention layers suffice: the depth-2 labelled view of a dense family is the whole "
                           "labelled sample (Lemma ", LEMMA_V, ", docs/theory.md §11.10); whether one layer is enough "
                           "is not decided for this mixture of a circulant and a symmetric bias at this n"),
                     DenseBiasLayers(kinds, n_value, 2, False, "sufficient"))


def _cycles(perm) -> str:
    n, seen, out = len(perm), set(), []
    for start in range(1, n + 1):
        if start in seen or perm[start - 1] == start:
            continue
        cycle, p = [], start
        while p not in seen:
            seen.add(p)
            cycle.append(p)
            p = perm[p - 1]
        out.append("(" + " ".join(map(str, cycle)) + ")")
    return "".join(out) or "id"


def _conclude(statement: "str | Claim", certificate: DenseBiasLayers, witness: Optional[tuple] = None, low: Optional[int] = None) -> proof.Step:
    evidence: dict = {"layers": certificate.layers, "least": certificate.least, "bias kinds": list(certificate.kinds),
                      "method": certificate.reason}
    if witness is not None:
        i, sigma = witness  # the position and σ (a swap or a permutation), as `uapcheck simulate` reads it
        evidence["view witness"] = {"position": i, **sigma, "depth": 1}
    if low is not None:
        evidence["range"] = f"n ≥ {low}"
    facts: dict = {"layers": certificate.layers, "least": certificate.least}
    if low is not None and not isinstance(certificate.n, int):
        facts["condition"] = f"{certificate.n} ≥ {low}"  # the range of n the count is stated for
        facts["condition_formula"] = sympy.GreaterThan(certificate.n, low, evaluate=False)
    return proof.conclude(statement, proof.PROVED, [], evidence, facts=facts,
                          certificate=certificate)
