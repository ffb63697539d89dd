"""Theorem F135 (docs/theory.md §16.5), re-derived from the re-parsed heads: one non-cyclic window of radius w ≥ 1
at a concrete n ≥ w + 2, every head position-blind or with trainable classes of the offset (a `bias KIND` other
than `free`, or T5 buckets), one head's classes keeping the positive offsets apart from the others (`toeplitz`,
or T5 buckets, checked here on the offsets −w, …, w with the verifier's own exact bucket function). Then the group
is trivial and D = ⌈(n − 1)/w⌉ layers are needed and suffice. Theorem F152: the cyclic window at n ≥ 2w + 2, one
head's classes keeping the sign of every real offset (its wrap arcs read ±(n − d), d ≤ w), D = ⌈⌊n/2⌋/w⌉. Theorem
F176: a non-cyclic window whose labels are all even in the offset, one head's naming the distance (`symmetric
toeplitz`, or a fixed even bias Theorem F161 covers): the group is the reflection and D = ⌈(n − 1)/w⌉, least.
Shares no code with the engines."""
from __future__ import annotations

from typing import Optional

from .. import spec as S
from .check import VERIFIED, Reject

#: trainable bias kinds whose class is a function of the offset (Lemma V^λ, §11.10)
OFFSET_KINDS = ("toeplitz", "circulant", "symmetric toeplitz", "symmetric circulant")


def _labels(spec) -> Optional[list]:
    """Per head: None, its trainable offset kind, or T5's buckets as (B, D); a fixed bias or factor on a sparse
    normalised softmax head that Theorem F161 covers as the kind with its classes (`toeplitz` for an injective h,
    `symmetric toeplitz` for an even h injective on |δ|, re-derived here); None for the whole family when a head
    carries anything else (a `free` bias, other fixed position weights, RoPE, projections)."""
    kinds: list = []
    for h in spec.heads:
        pos = h.position
        if h.projection or h.nystrom or h.heads is not None or (h.differential or h.sink is not None):
            return None
        if pos is None:
            if h.bias is not None and h.bias not in OFFSET_KINDS:
                return None
            kinds.append(h.bias)
        elif pos.kind == "buckets" and not h.bias and isinstance(pos.buckets, int):
            kinds.append((pos.buckets, pos.max_distance))
        else:
            fixed = _fixed_classes(spec, h)
            if fixed is None:
                return None
            kinds.append(fixed)
    return kinds


def _fixed_classes(spec, head) -> Optional[str]:
    """Theorem F161 (§16.2): a fixed bias on a sparse normalised head k(x, y) = exp(γ x·y) without tied or affine
    projections, its offset function h injective (`toeplitz` classes) or even and injective on |δ| (`symmetric
    toeplitz`) by the verifier's own derivation, proved at every n (numeric classes are not read). A `reweight` factor
    is not read here: its count stays trusted (§18.5)."""
    from .check import Trust
    from .rules_positions import offset_class, softmax_gamma
    pos = head.position
    if pos.kind != "bias" or head.bias or isinstance(head.pattern, S.Full) or softmax_gamma(spec, head) is None:
        return None
    try:
        kind, how, _ = offset_class(spec, head)
    except (Trust, Reject):
        return None
    if how != VERIFIED:
        return None
    return "toeplitz" if kind == "injective" else "symmetric toeplitz"


def reflects(kinds: list, cyclic: bool) -> bool:
    """Theorem F176 (§16.5): a non-cyclic window whose every label is even in the offset (`symmetric toeplitz`,
    `symmetric circulant`: the reflection keeps them), one head's naming the distance |δ| (`symmetric toeplitz`)."""
    return (not cyclic and all(k in (None, "symmetric toeplitz", "symmetric circulant") for k in kinds)
            and "symmetric toeplitz" in kinds)


def even(spec, p) -> bool:
    """Whether Theorem F176 is the one that applies (no head's labels separate the signs; the labels reflect)."""
    kinds = _labels(spec) or []
    return not any(separates_signs(k, p.w, p.cyclic) for k in kinds) and reflects(kinds, p.cyclic)


def separates_signs(kind, w: int, cyclic: bool = False) -> bool:
    """The classes of the offsets 1, …, w are disjoint from those of −w, …, 0; on a cyclic window, of every positive
    offset from every other (T5's bucket is the last of its sign beyond the max distance D, so the offsets up to
    D + 1 decide all of them)."""
    if kind == "toeplitz":
        return True
    if not isinstance(kind, tuple):
        return False
    from .rules_positions import _released_bucket
    reach = max(w, kind[1] + 1) if cyclic else w
    positive = {_released_bucket(m, *kind) for m in range(1, reach + 1)}
    return not positive & {_released_bucket(m, *kind) for m in range(-reach, 1)}


def start(p) -> int:
    """The least n of the theorem: w + 2 (F135), 2w + 2 for a cyclic window (F152); below, the window is complete."""
    return 2 * p.w + 2 if p.cyclic else p.w + 2


def diameter(p, n):
    """⌈(n − 1)/w⌉, or ⌈⌊n/2⌋/w⌉ on a cyclic window, at an integer or a symbolic n."""
    import sympy
    if isinstance(n, int):
        return -(-(n // 2) // p.w) if p.cyclic else -(-(n - 1) // p.w)
    return sympy.ceiling(sympy.floor(n / 2) / p.w) if p.cyclic else sympy.ceiling((n - 1) / p.w)


def theorem(spec, p) -> str:
    return "Theorem F176" if even(spec, p) else "Theorem F152" if p.cyclic else "Theorem F135"


def window_of(spec):
    """The window when every head is the one window(w), w a concrete integer ≥ 1, at a concrete n ≥ `start` without
    a positional encoding, and some head's labels separate the signs; else None (the theorem does not apply)."""
    n = spec.tokens
    if not isinstance(n, int):
        return None
    p = window_any_length(spec)
    return p if p is not None and n >= start(p) else None


def window_any_length(spec):
    """The window when every head is the one window(w), w a concrete integer ≥ 1, without a positional encoding,
    and some head's labels separate the signs on −w, …, w (they do not depend on n; on a cyclic window, of every
    offset); else None."""
    pats = {h.pattern for h in spec.heads}
    if len(pats) != 1 or spec.positional != "none":
        return None
    (p,) = pats
    if not (isinstance(p, S.Window) and isinstance(p.w, int) and p.w >= 1):
        return None
    kinds = _labels(spec)
    if kinds is None or not (any(separates_signs(k, p.w, p.cyclic) for k in kinds) or reflects(kinds, p.cyclic)):
        return None
    return p


def layers(ctx, n: int, d: int, m: int, least) -> Optional[tuple]:
    """PAT-LAYERS on a labelled window: (VERIFIED, why) for the count D, least; Reject another count; None when the
    theorem does not apply."""
    p = window_of(ctx.spec)
    if p is None:
        return None
    w, count = p.w, diameter(p, n)
    if d != count:
        raise Reject(f"the diameter of window({w}){' cyclic' if p.cyclic else ''} at n = {n} is {count}, not {d}")
    if m != count or not least:
        raise Reject(f"a labelled window ({theorem(ctx.spec, p)}): D = {count} layers are needed and suffice, not {m}"
                     + ("" if least else " (not stated least)"))
    if even(ctx.spec, p):
        return VERIFIED, (f"Theorem F176 (§16.5): window({w}) at n = {n} ≥ {start(p)} with even labels, one head's "
                          f"naming the distance (re-derived): only the identity and the reflection keep a labelled "
                          f"ball of radius D − 1, so D = {count} layers suffice and are least")
    return VERIFIED, (f"{theorem(ctx.spec, p)} (§16.5): window({w}){' cyclic' if p.cyclic else ''} at n = {n} ≥ "
                      f"{start(p)} with labels that keep the positive offsets apart (re-derived): only the identity "
                      f"keeps a labelled ball of radius D − 1, so D = {count} layers suffice and are least")


def group(ctx, data: dict) -> Optional[tuple]:
    """SYM-AUT on a labelled window (Theorems F135, F140): the group is trivial; None when the theorem does not apply.
    At a symbolic n the group is trivial at every n ≥ 2 (a complete window with labels that keep the sign too, §16.4),
    so any stated range is covered."""
    p = window_of(ctx.spec) if isinstance(ctx.spec.tokens, int) else window_any_length(ctx.spec)
    if p is None:
        return None
    if even(ctx.spec, p):
        return _reflection(ctx, data)
    named = data.get("name") == "trivial" and not isinstance(ctx.spec.tokens, int)  # at a symbolic n: named only
    if not (data.get("order") == 1 or named and data.get("order") is None) or \
            data.get("generators") not in (None, []) or data.get("name") not in (None, "trivial"):
        raise Reject("a window whose labels keep the positive offsets apart has the trivial group "
                     "(Theorems F135, F140, F152), not the stated one")
    return VERIFIED, (f"{'Theorem F152' if p.cyclic else 'Theorems F135, F140'} (§16.5): on a window whose labels keep "
                      "the positive offsets apart (re-derived), a permutation keeping every labelled neighbourhood is "
                      "the identity: order 1")


def _reflection(ctx, data: dict) -> tuple:
    """SYM-AUT on an even labelled window (Theorem F176): the reflection i ↦ n + 1 − i, at every n ≥ 2 (at n ≤ w + 1
    the window is complete and its labels name every pair's distance, so a labelled automorphism is an isometry of
    1..n: the identity or the reflection)."""
    n = ctx.spec.tokens
    named = data.get("name") == "reflection" and not isinstance(n, int)  # at a symbolic n: named only
    gens = data.get("generators")
    mirror = [list(range(n, 0, -1))] if isinstance(n, int) else None
    if not (data.get("order") == 2 or named and data.get("order") is None) or \
            data.get("name") not in (None, "reflection") or gens not in (None, mirror):
        raise Reject("a window whose labels are even, one head's naming the distance, has the reflection as its "
                     "group (Theorem F176), not the stated one")
    return VERIFIED, ("Theorem F176 (§16.5): on a window whose labels are even, one head's naming the distance "
                      "(re-derived), a permutation keeping every labelled neighbourhood is the identity or the "
                      "reflection, which keeps them: order 2")


def labelled(spec) -> bool:
    """Whether a head carries labels or position weights (a `bias`, a position term): the verifier's plain window
    lemma is for position-blind heads only."""
    return any(h.bias or h.position is not None for h in spec.heads)


def symbolic_layers(ctx, s) -> Optional[tuple]:
    """PAT-LAYERS on a labelled window at a symbolic n (Theorem F140): the count ⌈(n − 1)/w⌉, least, stated from
    n = w + 2 or later (`from`, which bounds the verdict's range: below w + 2 the window is complete); Reject another
    count or start; None when the theorem does not apply."""
    import sympy
    from .trees import TreeError, decode
    p = window_any_length(ctx.spec)
    if p is None or isinstance(ctx.spec.tokens, int):
        return None
    w = p.w
    n = ctx.symbols[ctx.spec.tokens]
    data = s.get("data") or {}
    try:
        m = decode(data.get("layers"), ctx.symbols)
    except TreeError as exc:
        raise Reject(f"the number of layers: {exc}") from None
    count = diameter(p, n)
    low = data.get("from")
    reflecting = even(ctx.spec, p)
    if isinstance(m, sympy.Expr) and sympy.simplify(m - sympy.Max(2, count)) == 0 and data.get("least") is True \
            and not p.cyclic and not reflecting:
        return _wide(ctx, w, low, count)
    name = "Theorem F176" if reflecting else "Theorem F152" if p.cyclic else "Theorem F140"
    if not isinstance(m, sympy.Expr) or sympy.simplify(m - count) != 0 or data.get("least") is not True:
        raise Reject(f"a labelled window ({name}): D = {sympy.sstr(count)} layers are needed and suffice for "
                     f"n ≥ {start(p)}, not {sympy.sstr(m)}" + ("" if data.get("least") is True else " (not stated least)"))
    if not isinstance(low, int) or isinstance(low, bool) or low < start(p):
        raise Reject(f"{name} holds from n = {start(p)} (below, the window is complete and the count is the dense "
                     f"one), not from {low!r}")
    if reflecting:
        return VERIFIED, (f"Theorem F176 (§16.5): window({w}) with even labels, one head's naming the distance, on "
                          f"−{w}, …, {w} (re-derived; they do not depend on n): for every n ≥ {low} only the identity "
                          f"and the reflection keep a labelled ball of radius D − 1, so D = {sympy.sstr(count)} layers "
                          "suffice and are least")
    if p.cyclic:
        return VERIFIED, (f"Theorem F152 (§16.5): window({w}) cyclic with labels that keep the sign of every offset "
                          f"(re-derived; the sign does not depend on n): for every n ≥ {low} only the identity keeps a "
                          f"labelled ball of radius D − 1, so D = {sympy.sstr(count)} layers suffice and are least")
    return VERIFIED, (f"Theorem F140 (§16.5): window({w}) with labels that keep the positive offsets apart on −{w}, …, "
                      f"{w} (re-derived; they do not depend on n): for every n ≥ {low} only the identity keeps a "
                      f"labelled ball of radius D − 1, so D = {sympy.sstr(count)} layers suffice and are least")


def _wide(ctx, w: int, start, count):
    """Theorem F151 (§16.5): max(2, ⌈(n − 1)/w⌉) layers, least, from a start s ≤ w + 1: at n ≥ w + 2 Theorem F140's
    count (≥ 2); at s ≤ n ≤ w + 1 the window is complete and the heads are dense T5 bucket heads (position-blind heads
    beside them), two layers, least, from the verifier's own first joint witness on (Theorem F142 (b)). The start must
    be at least that witness's max(i, a, b, v), recomputed here with the verifier's own bucket function."""
    import sympy
    from .rules_bias import JOINT_ANY_N, _first_joint_pair
    kinds = [k for k in _labels(ctx.spec) or [] if k is not None]
    if not kinds or not all(isinstance(k, tuple) for k in kinds):
        raise Reject("max(2, D) layers below w + 2 are shown for T5 bucket heads only (Theorem F151)")
    if not isinstance(start, int) or isinstance(start, bool) or start > w + 1:
        raise Reject(f"Theorem F151 states max(2, D) from a start of at most w + 1 = {w + 1}, not from {start!r}")
    top = min(JOINT_ANY_N, 2 * max(k[1] for k in kinds) + 2)
    found = next((f for f in (_first_joint_pair(kinds, size) for size in range(2, top + 1)) if f is not None), None)
    if found is None or start < max(found):
        raise Reject(f"no joint witness of the dense bucket heads holds from n = {start} (recomputed: "
                     f"{'none found' if found is None else f'from n = {max(found)}'})")
    i, a, b, v = found
    return VERIFIED, (f"Theorem F151 (§16.5): for n ≥ {w + 2} Theorem F140's ⌈(n − 1)/{w}⌉ ≥ 2 (labels re-derived); for "
                      f"{start} ≤ n ≤ {w + 1} the window is complete, σ = ({a} {b}) keeps row {i}'s buckets in every "
                      f"head and position {v} sees {a} and {b} in different buckets (recomputed), so two layers are "
                      f"least and suffice (Theorem F142 (b)): max(2, {sympy.sstr(count)}) layers, least, for n ≥ {start}")
