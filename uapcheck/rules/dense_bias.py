"""BIAS-LAYERS: how many layers dense heads need when a bias is symmetric in the offset.

One layer cannot tell the keys i + s and i − s apart under a `symmetric toeplitz` or `symmetric
circulant` bias (TD-BIAS), but the depth-2 labelled view of a dense family is the whole labelled
sample, so two layers suffice (Lemma V^λ, docs/theory.md §11.10); whether one is enough is decided
here (docs/theory.md §8, BIAS-LAYERS). A fixed even position term (symmetric ALiBi, −m·|i − j|) labels
the pair (i, u) by |u − i| and gets the same count: two layers suffice by Lemma E (§16.2), not by
Lemma V^λ, which needs trainable classes.
"""
from __future__ import annotations

from itertools import permutations
from typing import Optional

import sympy

from .. import proof
from ..claim import Claim, claim, group, written
from .. import spec as S
from . import positions
from ..certificates import (DENSE_BIAS_BRUTE_FORCE_N, JOINT_LABELS_MAX_N, OFFSET_BIAS_KINDS, ROW_CLASSES_MAX_N,
                            DenseBiasLayers, joint_labels, keeps_all_labels, keeps_row_labels, parity_kinds, parity_layers,
                            row_class_candidates)
from ..groups import bias_class, bucket_kind

CITE = proof.derived("Corollary 1", text="derived here: the labelled view argument (docs/theory.md §11.10) for dense "
                     "heads with a symmetric trainable bias, and Lemma E (§16.2) for a fixed even one; "
                     "docs/theory.md §8, BIAS-LAYERS")

SYMMETRIC_KINDS = ("symmetric toeplitz", "symmetric circulant")

LEMMA_V = written("V^λ", r"V^{\lambda}")  # the labelled view lemma, docs/theory.md §11.10
_SECTION = ", docs/theory.md §11.10)"


def _fixed_even(spec: S.Spec, head: S.Head) -> bool:
    """A fixed bias or factor whose offset function is even and injective on |m| (§16.1), positive for
    a factor: its labels are the classes of a `symmetric toeplitz` bias."""
    pos = head.position
    if pos is None or pos.kind not in ("bias", "reweight"):
        return False
    info = positions.analyse(spec, head)
    return info.kind == "symmetric" and (pos.kind == "bias" or info.positive is True)


def applies(spec: S.Spec) -> bool:
    """Dense heads (no pattern) with at least one trainable symmetric bias, T5 buckets that share a bucket
    at this n, or one fixed even position term: one layer is not token distinguishing there, so the count
    is this rule's."""
    return any(h.bias in SYMMETRIC_KINDS and h.position is None for h in spec.heads) or any(
        _fixed_even(spec, h) for h in spec.heads) or any(
        _is_buckets(h) and bucket_label_kind(spec, h) != "toeplitz" for h in spec.heads)


def _is_buckets(head: S.Head) -> bool:
    return head.position is not None and head.position.kind == "buckets"


def bucket_label_kind(spec: S.Spec, head: S.Head) -> str:
    """The label kind of a T5 bucket head: `toeplitz` where every offset up to n − 1 has its own bucket
    (TD-BUCKETS' one-layer case), else `buckets(B, D)` (the bucket of the offset, docs/theory.md §16.4)."""
    pos, n = head.position, spec.tokens
    assert pos is not None
    if isinstance(n, int) and positions.buckets_injective(n, pos.buckets, pos.max_distance):
        return "toeplitz"
    return f"buckets({pos.buckets}, {pos.max_distance})"


def _trainable_kinds(spec: S.Spec) -> tuple:
    """The label kinds of the heads with trainable classes: `bias KIND` and T5 buckets."""
    return tuple(sorted({h.bias for h in spec.heads if h.bias} | {bucket_label_kind(spec, h) for h in spec.heads
                                                                   if _is_buckets(h)}))


def _witness_range(kinds: tuple) -> int:
    """The least n from which σ = (1 3), i = 2, v = 4 is a one-layer witness: row 2 sees keys 1 and 3
    at offsets −1 and +1 (one class under both symmetric kinds); position 4 sees 1 at distance 3 and
    3 at distance 1, different classes of a `symmetric toeplitz` head from n = 4 on, while a
    `symmetric circulant` head alone needs n ≥ 5 (circular distance min(3, n − 3) ≠ 1)."""
    return 4 if "symmetric toeplitz" in kinds else 5


def _fixed_even_steps(tds) -> list:
    """The proved TD-FIXEDBIAS steps with the two-layer fact (Lemma E), among the heads' steps."""
    out: list = []
    seen: set = set()
    for top in tds:
        for step in top.walk():
            if id(step) not in seen and step.rule == "TD-FIXEDBIAS" and step.proved and step.facts.get("fixed_even"):
                seen.add(id(step))
                out.append(step)
    return out


def _fixed_branch(spec: S.Spec, tds) -> "tuple[Optional[str], list]":
    """(why the count is undecided, or None; the proved Lemma E steps) for dense heads with fixed weights."""
    fixed = [h for h in spec.heads if h.position is not None and not _is_buckets(h)]
    if any(_is_buckets(h) for h in spec.heads):
        return ("a fixed even position term next to T5 buckets, which break the reflection: this mixture is not "
                "analysed, so the number of layers is not decided"), []
    if not all(_fixed_even(spec, h) for h in fixed):
        return ("a head carries fixed position weights that are not an even function of the offset injective on "
                "|m|: the sufficiency of the labelled view argument (Lemma V^λ) does not cover fixed weights "
                "(docs/theory.md §14.11(f)), so the number of layers is not decided"), []
    trainable = {h.bias for h in spec.heads if h.bias}
    if not trainable <= set(SYMMETRIC_KINDS) or spec.positional == "absolute" or any(
            h.projection or h.nystrom for h in spec.heads):
        return ("a fixed even position term next to a head or encoding that breaks the reflection (a `free`, "
                "`toeplitz` or `circulant` bias, projections, landmarks or an absolute encoding): this mixture is "
                "not analysed, so the number of layers is not decided"), []
    steps = _fixed_even_steps(tds)
    if not steps:
        return ("no head with the fixed even position term has its two-layer separation proved (Lemma E needs a "
                "dense normalised softmax head, docs/theory.md §16.2), so the number of layers is not decided"), []
    return None, steps


def _exhaustive(kinds: tuple, n: int) -> Optional[tuple]:
    """A σ ∈ S_n and a row i with σ keeping row i's labels and σ outside the group, or None."""
    for perm in permutations(range(1, n + 1)):
        if keeps_all_labels(kinds, n, perm):
            continue
        for i in range(1, n + 1):
            if keeps_row_labels(kinds, n, perm, i):
                return i, perm
    return None


@proof.rule("BIAS-LAYERS", "Dense heads with a symmetric bias, trainable or fixed: one layer or two", CITE,
            statuses=(proof.PROVED, proof.UNDECIDED), certificates=(DenseBiasLayers,))
def dense_bias_layers(spec: S.Spec, tds=()) -> proof.Step:
    n = spec.tokens
    n_value = n if isinstance(n, int) else sympy.Symbol(n, integer=True, positive=True)
    fixed = [h for h in spec.heads if h.position is not None and not _is_buckets(h)]
    if fixed:
        why, steps = _fixed_branch(spec, tds)
        if why is not None:
            return proof.conclude(why, proof.UNDECIDED, evidence={"reason": "fixed position weights"})
        return _fixed_even_count(spec, n, n_value, steps)
    kinds = _trainable_kinds(spec)
    open_heads = [k + 1 for k, td in enumerate(tds) if not td.proved]
    if open_heads:
        # Lemma V^λ (and TD-BIAS for the injective kinds) needs every head's kernel token distinguishing: with a
        # head's premise open, only "one layer is not enough" would follow, and no count is stated.
        return proof.conclude(f"the layer count is not decided: Lemma V^λ needs every head's token-distinguishing "
                              f"premise, and head {', '.join(map(str, open_heads))} has it open", proof.UNDECIDED,
                              evidence={"reason": "a head's token-distinguishing premise is open", "heads": open_heads})
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
    assert all(k in OFFSET_BIAS_KINDS or bucket_kind(k) for k in kinds)
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
    found = _swap_witness(kinds, n, spec)
    if found is not None:
        i, a, b, v = found
        low = max(found)
        where = f"for {n} ≥ {low}" if not isinstance(n, int) else f"at n = {n}"
        return _conclude(f"two attention layers are needed and suffice {where}: σ = ({a} {b}) keeps the labels of "
                         f"row {i} (keys {a} and {b} sit at offsets {a - i} and {b - i}, one class of every biased "
                         f"head: one T5 bucket) and is not in the group (position {v} sees {a} and {b} in different "
                         f"classes), so one layer gives X and σX the same output at position {i}; the depth-2 "
                         "labelled view is the whole labelled sample, so two layers suffice (Lemma "
                         + claim(LEMMA_V, _SECTION),
                         DenseBiasLayers(kinds, n_value, 2, True, "witness", found, low),
                         witness=(i, {"swap": [a, b]}), low=low)
    by_classes = _by_joint_classes(kinds, n, n_value)
    if by_classes is not None:
        return by_classes
    return _conclude(claim("two attention layers suffice: the depth-2 labelled view of a dense family is the whole "
                           "labelled sample (Lemma ", LEMMA_V, ", docs/theory.md §11.10); whether one layer is enough "
                           "is not decided for this mixture of biases at this n"),
                     DenseBiasLayers(kinds, n_value, 2, False, "sufficient"))


def _joint_decision(kinds: tuple, n: int, n_value) -> Optional[proof.Step]:
    """Theorem F136 (docs/theory.md §16.5) at a concrete n: one layer when the joint classes name every offset, two,
    least, by a swap of two keys of one row in one joint class; None when neither is shown."""
    joint = _joint_witness(kinds, n)
    if joint == "injective":
        return _conclude(claim(f"one layer suffices at n = {n}: the heads' classes of an offset together tell every "
                               f"offset −{n - 1}, …, {n - 1} apart (T5's buckets keep the sign, the other heads the "
                               "rest), so a σ keeping the labels of a row i keeps σu − σi = u − i for every key u: σ "
                               "is a translation of 1..n, the identity (Theorem F136, Lemma ", LEMMA_V,
                               ", docs/theory.md §16.5)"),
                         DenseBiasLayers(kinds, n_value, 1, True, "joint"))
    if isinstance(joint, tuple):
        i, a, b, v = joint
        return _conclude(f"two attention layers are needed and suffice at n = {n}: the offsets {a - i} and {b - i} "
                         f"carry the same class in every biased head, so σ = ({a} {b}) keeps the labels of row {i}; "
                         f"position {v} sees {a} and {b} in different classes, so σ is not in the group, and one "
                         f"layer gives X and σX the same output at position {i}; the depth-2 labelled view is the "
                         "whole labelled sample, so two layers suffice (Theorem F136, Lemma " + claim(LEMMA_V, _SECTION),
                         DenseBiasLayers(kinds, n_value, 2, True, "witness", joint, max(joint)),
                         witness=(i, {"swap": [a, b]}), low=max(joint))
    return None


def _by_joint_classes(kinds: tuple, n, n_value) -> Optional[proof.Step]:
    """The decisions by the heads' joint classes of the offsets: Theorem F136 beside T5 buckets at a concrete n,
    F142 at a symbolic n, F162 (the rows' class multisets) for any offset kinds at a concrete n; None when none
    decides."""
    if isinstance(n, int) and any(bucket_kind(k) for k in kinds) and n <= JOINT_LABELS_MAX_N:
        joint = _joint_decision(kinds, n, n_value)
        if joint is not None:
            return joint
    if not isinstance(n, int) and parity_kinds(kinds):
        return _conclude(f"for {n} ≥ 3 one attention layer suffices at odd n and two are needed and suffice at even "
                         "n: the heads' classes (m mod n, |m|) of an offset name it when n is odd (m ≡ −m needs "
                         "n | 2m), so a σ keeping the labels of a row is a translation, the identity; at even n the "
                         "offsets ±n/2 share both classes, and the rotation u ↦ u + 1 (n ↦ 1) keeps the labels of "
                         "row n/2 and is not in the group, so one layer gives X and σX the same output there, and "
                         "the depth-2 labelled view is the whole labelled sample (Theorem F177, Lemma "
                         + claim(LEMMA_V, ", docs/theory.md §8)"),
                         DenseBiasLayers(kinds, n_value, parity_layers(n_value), True, "parity", low=3), low=3)
    if not isinstance(n, int) and offset_only_with_buckets(kinds):
        joint = _joint_any_length(kinds, n, n_value)
        if joint is not None:
            return joint
    if isinstance(n, int) and n <= ROW_CLASSES_MAX_N:
        return _row_classes_decision(kinds, n)
    return None


def _row_classes_decision(kinds: tuple, n: int) -> Optional[proof.Step]:
    """Theorem F162 (docs/theory.md §8): any dense heads with trainable classes of the offset at a concrete n. A σ with
    σ(i) = j keeps row i's labels iff it maps the offsets of row i onto those of row j class by class, so the rows'
    joint class multisets decide: no σ ≠ id keeps a row, one layer, least; a σ ≠ id keeping a row and leaving the group
    (some row's labels not kept), two, least. None when every σ found lies in the group (not decided here)."""
    candidates = row_class_candidates(kinds, n)
    first = next(candidates, None)
    if first is None:
        return _conclude(claim(f"one layer suffices at n = {n}: no two rows carry the same multiset of joint classes "
                               "and no row sees one class twice, so no σ ≠ id keeps the labels of a row (a σ with "
                               "σ(i) = j maps the offsets of row i onto those of row j class by class); the one-layer "
                               "labelled view determines the sample (Theorem F162, Lemma ", LEMMA_V, _SECTION),
                         DenseBiasLayers(kinds, n, 1, True, "row classes"))
    for i, perm in (first, *candidates):
        if not keeps_all_labels(kinds, n, perm):
            return _conclude(f"two attention layers are needed and suffice at n = {n}: σ = {_cycles(perm)} maps the "
                             f"offsets of row {i} onto those of row {perm[i - 1]} class by class, so it keeps the labels "
                             f"of row {i} and is not in the group; one layer gives X and σX the same output at position "
                             f"{i}, and the depth-2 labelled view is the whole labelled sample (Theorem F162, Lemma "
                             + claim(LEMMA_V, _SECTION),
                             DenseBiasLayers(kinds, n, 2, True, "row classes", (i, perm)),
                             witness=(i, {"permutation": list(perm)}))
    return None


#: the largest length searched for Theorem F142's first joint witness (every bucket setting the parser takes saturates
#: at its max distance D, so a witness exists by n = 2·D + 2 for the largest D among the heads)
JOINT_ANY_LENGTH_MAX_N = 600


def offset_only_with_buckets(kinds: tuple) -> bool:
    """Theorem F142's kinds: T5 buckets beside `symmetric toeplitz` or other bucket heads only — classes of the offset
    alone, the same at every n (no circulant kind, whose classes depend on n)."""
    return any(bucket_kind(k) for k in kinds) and all(bucket_kind(k) or k == "symmetric toeplitz" for k in kinds)


def _joint_any_length(kinds: tuple, n, n_value) -> Optional[proof.Step]:
    """Theorem F142 (docs/theory.md §16.5): Theorem F136 at a symbolic n for offset-only kinds. With `symmetric
    toeplitz` the joint class (bucket, |m|) names m at every n: one layer. With bucket heads only, the first joint
    witness (i, a, b, v), found at the least length holding one, holds at every larger n (the classes do not depend
    on n): two layers, least, from max(i, a, b, v) on; the lengths below are decided one by one (§12)."""
    if "symmetric toeplitz" in kinds:
        return _conclude(claim("one layer suffices at every n: a T5 bucket keeps the sign of the offset and the "
                               "`symmetric toeplitz` class is |m|, so the heads' classes of an offset name it, and a σ "
                               "keeping the labels of a row is a translation of 1..n, the identity (Theorem F142, "
                               "Lemma ", LEMMA_V, ", docs/theory.md §16.5)"),
                         DenseBiasLayers(kinds, n_value, 1, True, "joint"))
    top = max(setting[1] for setting in map(bucket_kind, kinds) if setting is not None) * 2 + 2
    for size in range(2, min(top, JOINT_ANY_LENGTH_MAX_N) + 1):
        found = _joint_witness(kinds, size)
        if isinstance(found, tuple):
            i, a, b, v = found
            low = max(found)
            return _conclude(f"two attention layers are needed and suffice for {n} ≥ {low}: the offsets {a - i} and "
                             f"{b - i} carry the same class in every biased head at every n (T5's buckets are classes "
                             f"of the offset alone), so σ = ({a} {b}) keeps the labels of row {i}; position {v} sees "
                             f"{a} and {b} in different classes, so σ is not in the group, and one layer gives X and σX "
                             f"the same output at position {i}; the depth-2 labelled view is the whole labelled "
                             "sample, so two layers suffice (Theorem F142, Lemma " + claim(LEMMA_V, _SECTION),
                             DenseBiasLayers(kinds, n_value, 2, True, "witness", found, low),
                             witness=(i, {"swap": [a, b]}), low=low)
    return None


def dense_start(kinds: tuple) -> Optional[int]:
    """Theorem F142 (b)'s start for T5 bucket heads only (position-blind heads beside them allowed): the least
    max(i, a, b, v) of a joint witness, found at the least length holding one (it holds at every larger n: the buckets
    do not depend on n); from there on two layers are needed and suffice for dense heads. None for other kinds, or
    when no witness is found up to JOINT_ANY_LENGTH_MAX_N."""
    settings = [bucket_kind(k) for k in kinds]
    if not settings or any(b is None for b in settings):
        return None
    top = max(b[1] for b in settings if b is not None) * 2 + 2
    for size in range(2, min(top, JOINT_ANY_LENGTH_MAX_N) + 1):
        found = _joint_witness(kinds, size)
        if isinstance(found, tuple):
            return max(found)
    return None


def _joint_witness(kinds: tuple, n: int):
    """Theorem F136 (docs/theory.md §16.5), dense heads beside a T5 bucket head at a concrete n: "injective" when the
    joint classes of the offsets −(n − 1), …, n − 1 are pairwise different (one layer); else (i, a, b, v): the first two
    offsets m < m′ with one joint class, the row i = max(1, 1 − m) holding both keys a = i + m, b = i + m′ (the
    buckets keep the sign, so m′ − m ≤ n − 1), and a position v seeing a and b in different classes (σ = (a b) ∉ G).
    None when two offsets share every class but no pair has a row holding both keys and a position telling them
    apart (not decided here)."""
    seen: dict = {}
    for m in range(-(n - 1), n):
        key = joint_labels(kinds, n, m)
        if key not in seen:
            seen[key] = m
            continue
        first = seen[key]
        if first == 0 or m == 0:
            continue  # a pair with the own arc: σ would move the row itself
        i = max(1, 1 - first)
        a, b = i + first, i + m
        if not (1 <= a < b <= n):
            continue
        v = next((v for v in range(1, n + 1) if v not in (a, b) and any(
            bias_class(k, n, v, a) != bias_class(k, n, v, b) for k in kinds)), None)
        if v is not None:
            return i, a, b, v
    return "injective" if len(seen) == 2 * n - 1 else None


def _swap_witness(kinds: tuple, n, spec: S.Spec) -> Optional[tuple]:
    """(i, a, b, v): the swap σ = (a b) keeps row i's labels in every biased head, and position v sees a and b
    in different classes (σ ∉ G). The candidates are each T5 bucket head's first pair from row 1 (the buckets
    do not depend on n). At a symbolic n only labels of the offset alone (no circulant kind) are read, at the
    first n holding the positions; they are the same at every larger n."""
    if not isinstance(n, int) and any("circulant" in k for k in kinds):
        return None
    for head in spec.heads:
        if not _is_buckets(head):
            continue
        pos = head.position
        assert pos is not None
        pair = positions.first_bucket_pair(pos.buckets, pos.max_distance)
        if pair is None:
            continue
        a, b = pair
        size = n if isinstance(n, int) else b + 2
        if b > size or any(bias_class(k, size, 1, a) != bias_class(k, size, 1, b) for k in kinds):
            continue
        v = next((v for v in range(1, size + 1) if v not in (a, b) and any(
            bias_class(k, size, v, a) != bias_class(k, size, v, b) for k in kinds)), None)
        if v is not None:
            return 1, a, b, v
    return None


def _fixed_even_count(spec: S.Spec, n, n_value, steps: list) -> proof.Step:
    """One layer or two for dense heads with a fixed even position term (Lemma E, docs/theory.md §16.2):
    each such head labels the pair (i, u) by |u − i|, the classes of a `symmetric toeplitz` bias; the
    group is the reflection, two layers suffice by Lemma E, and one is enough iff no σ outside the
    group keeps the labels of a row."""
    trainable = {h.bias for h in spec.heads if h.bias}
    kinds = tuple(sorted(trainable | {"symmetric toeplitz"}))
    count = len(steps)
    lemma = "two layers suffice by Lemma E (docs/theory.md §16.2: a first layer at fixed weights, a second with scaled softmax scores)"
    if isinstance(n, int) and n <= DENSE_BIAS_BRUTE_FORCE_N:
        found = _exhaustive(kinds, n)
        if found is None:
            return _conclude(claim(f"one layer suffices at n = {n}: no σ ∈ ", group(f"S_{n}"), " outside the "
                                   "reflection keeps the labels |u − i| of a row (every permutation tried), so the "
                                   "fixed weights of the row, or a trainable head's classes, tell X from σX in one "
                                   "layer (docs/theory.md §16.2)"),
                             DenseBiasLayers(kinds, n_value, 1, True, "exhaustive", fixed=tuple(steps)),
                             premises=steps)
        i, perm = found
        return _conclude(f"two attention layers are needed and suffice at n = {n}: σ = {_cycles(perm)} keeps the "
                         f"labels |u − i| of row {i} and is not in the reflection group, so one layer gives X and σX "
                         f"the same output at position {i} (the labelled view lemma holds for fixed weights); "
                         + lemma,
                         DenseBiasLayers(kinds, n_value, 2, True, "exhaustive", (i, tuple(perm)), fixed=tuple(steps)),
                         witness=(i, {"permutation": list(perm)}), premises=steps)
    low = _witness_range(kinds)
    where = f"for {n} ≥ {low}" if not isinstance(n, int) else f"at n = {n}"
    heads = "head" if count == 1 else "heads"
    return _conclude(f"two attention layers are needed and suffice {where}: σ = (1 3) keeps the labels of row 2 "
                     "(keys 1 and 3 sit at offsets −1 and +1, which the fixed even weights, and any symmetric "
                     "bias, weigh alike) and is not in the reflection group (position 4 sees 1 at distance 3 and 3 at "
                     "distance 1), so one layer gives X and σX the same output at position 2 for every parameter; "
                     f"{lemma} for the fixed even {heads}",
                     DenseBiasLayers(kinds, n_value, 2, True, "witness", (2, 1, 3, 4), low, fixed=tuple(steps)),
                     witness=(2, {"swap": [1, 3]}), low=low, premises=steps)


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


def _conclude(statement: "str | Claim", certificate: DenseBiasLayers, witness: Optional[tuple] = None,
              low: Optional[int] = None, premises=()) -> proof.Step:
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
    if certificate.fixed:
        evidence["fixed even heads"] = len(certificate.fixed)
    return proof.conclude(statement, proof.PROVED, list(premises), evidence, facts=facts,
                          certificate=certificate)
