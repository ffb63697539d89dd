"""Theorem F135 (docs/theory.md §16.5), re-derived from the re-parsed heads: one non-cyclic window of radius w ≥ 1
at a concrete n ≥ w + 2, every head position-blind or with trainable classes of the offset (a `bias KIND` other
than `free`, or T5 buckets), one head's classes keeping the positive offsets apart from the others (`toeplitz`,
or T5 buckets, checked here on the offsets −w, …, w with the verifier's own exact bucket function). Then the group
is trivial and D = ⌈(n − 1)/w⌉ layers are needed and suffice. Shares no code with the engines."""
from __future__ import annotations

from typing import Optional

from .. import spec as S
from .check import VERIFIED, Reject

#: trainable bias kinds whose class is a function of the offset (Lemma V^λ, §11.10)
OFFSET_KINDS = ("toeplitz", "circulant", "symmetric toeplitz", "symmetric circulant")


def _labels(spec) -> Optional[list]:
    """Per head: None, its trainable offset kind, or T5's buckets as (B, D); None for the whole family when a head
    carries anything else (a `free` bias, fixed position weights, RoPE, projections)."""
    kinds: list = []
    for h in spec.heads:
        pos = h.position
        if h.projection or h.nystrom or h.heads is not None or h.differential:
            return None
        if pos is None:
            if h.bias is not None and h.bias not in OFFSET_KINDS:
                return None
            kinds.append(h.bias)
        elif pos.kind == "buckets" and not h.bias and isinstance(pos.buckets, int):
            kinds.append((pos.buckets, pos.max_distance))
        else:
            return None
    return kinds


def separates_signs(kind, w: int) -> bool:
    """The classes of the offsets 1, …, w are disjoint from those of −w, …, 0."""
    if kind == "toeplitz":
        return True
    if not isinstance(kind, tuple):
        return False
    from .rules_positions import _released_bucket
    positive = {_released_bucket(m, *kind) for m in range(1, w + 1)}
    return not positive & {_released_bucket(m, *kind) for m in range(-w, 1)}


def window_of(spec) -> Optional[int]:
    """w when every head is the one non-cyclic window(w), w a concrete integer ≥ 1, at a concrete n ≥ w + 2 without
    a positional encoding, and some head's labels separate the signs; else None (the theorem does not apply)."""
    pats = {h.pattern for h in spec.heads}
    n = spec.tokens
    if len(pats) != 1 or spec.positional != "none" or not isinstance(n, int):
        return None
    (p,) = pats
    if not (isinstance(p, S.Window) and not p.cyclic and isinstance(p.w, int) and p.w >= 1 and n >= p.w + 2):
        return None
    kinds = _labels(spec)
    if kinds is None or not any(separates_signs(k, p.w) for k in kinds):
        return None
    return p.w


def layers(ctx, n: int, d: int, m: int, least) -> Optional[tuple]:
    """PAT-LAYERS on a labelled window: (VERIFIED, why) for the count D, least; Reject another count; None when the
    theorem does not apply."""
    w = window_of(ctx.spec)
    if w is None:
        return None
    count = -(-(n - 1) // w)
    if d != count:
        raise Reject(f"the diameter of window({w}) at n = {n} is ⌈(n − 1)/w⌉ = {count}, not {d}")
    if m != count or not least:
        raise Reject(f"a labelled window (Theorem F135): D = {count} layers are needed and suffice, not {m}"
                     + ("" if least else " (not stated least)"))
    return VERIFIED, (f"Theorem F135 (§16.5): window({w}) at n = {n} ≥ w + 2 with labels that keep the positive "
                      f"offsets apart (re-derived): only the identity keeps a labelled ball of radius D − 1, so "
                      f"D = {count} layers suffice and are least")


def group(ctx, data: dict) -> Optional[tuple]:
    """SYM-AUT on a labelled window (Theorem F135): the group is trivial; None when the theorem does not apply."""
    if window_of(ctx.spec) is None:
        return None
    if data.get("order") != 1 or data.get("generators") not in (None, []) or data.get("name") not in (None, "trivial"):
        raise Reject("a non-cyclic window whose labels keep the positive offsets apart has the trivial group "
                     "(Theorem F135), not the stated one")
    return VERIFIED, ("Theorem F135 (§16.5): on a non-cyclic window whose labels keep the positive offsets apart "
                      "(re-derived), a permutation keeping every labelled neighbourhood is the identity: order 1")
