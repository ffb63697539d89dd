"""BIAS-LAYERS: dense heads with a symmetric trainable bias need one layer or two (docs/theory.md §8,
BIAS-LAYERS). Re-decided here from the re-parsed heads alone: over all of S_n at small n, by the
witness σ = (1 3) at row 2 on the labels from its range on (and at 40 more n for a symbolic n)."""
from __future__ import annotations

from itertools import permutations

from .. import spec as S
from .check import VERIFIED, Reject, Trust, checker
from .rules_positions import offset_class, softmax_gamma

#: Up to this many tokens the one-layer question is re-decided over every permutation.
EXHAUSTIVE_N = 7
SYMMETRIC = ("symmetric toeplitz", "symmetric circulant")


def _label(kind, n: int, query: int, key: int):
    """The class of (query, key) under a trainable bias of this kind (positions 1..n); a kind (B, D) is T5's
    buckets, the bucket of the offset (the released function, recomputed exactly)."""
    d = key - query
    if isinstance(kind, tuple):
        return _bucket(d, *kind)
    return {"free": (query, key), "toeplitz": d, "circulant": d % n, "symmetric toeplitz": abs(d),
            "symmetric circulant": min(d % n, -d % n)}[kind]


def _bucket(offset: int, num_buckets: int, max_distance: int) -> int:
    from .rules_positions import _released_bucket
    return _released_bucket(offset, num_buckets, max_distance)


def _bucket_heads(spec) -> list:
    return [h for h in spec.heads if h.position is not None and h.position.kind == "buckets" and not h.bias]


def label_kinds(spec, n) -> list:
    """The label kinds of the trainable heads at n: `bias KIND`, and T5 buckets as (B, D), or `toeplitz` at a
    concrete n where every offset has its own bucket (recomputed)."""
    from .rules_positions import _own_buckets
    kinds = {h.bias for h in spec.heads if h.bias}
    for h in _bucket_heads(spec):
        pos = h.position
        own = isinstance(n, int) and _own_buckets(n, pos.buckets, pos.max_distance)
        kinds.add("toeplitz" if own else (pos.buckets, pos.max_distance))
    return sorted(kinds, key=str)


def _bucket_swap(spec, kinds, n):
    """(i, a, b, v), the verifier's own witness for bucket heads: a bucket head's first keys a < b of row 1 in one
    bucket, kept by every head's labels of row 1, and the first v seeing a and b in different classes; at a
    symbolic n only offset labels (no circulant kind), read at b + 2 (the same at every larger n). None if none."""
    from .rules_positions import _row_one_pair
    if not isinstance(n, int) and any(isinstance(k, str) and "circulant" in k for k in kinds):
        return None
    for h in _bucket_heads(spec):
        pair = _row_one_pair(h.position.buckets, h.position.max_distance)
        if pair is None:
            continue
        a, b = pair
        size = n if isinstance(n, int) else b + 2
        if b > size or any(_label(k, size, 1, a) != _label(k, size, 1, b) for k in kinds):
            continue
        for v in range(1, size + 1):
            if v not in (a, b) and any(_label(k, size, v, a) != _label(k, size, v, b) for k in kinds):
                return 1, a, b, v
    return None


def _row_kept(kinds, n: int, image, i: int) -> bool:
    return all(_label(k, n, image[i - 1], image[u - 1]) == _label(k, n, i, u) for k in kinds for u in range(1, n + 1))


def one_layer_witness(kinds, n: int):
    """A row i and σ ∉ G keeping row i's labels in every biased head (brute force), or None."""
    for image in permutations(range(1, n + 1)):
        if all(_row_kept(kinds, n, image, i) for i in range(1, n + 1)):
            continue  # σ keeps every label: it is in the group
        for i in range(1, n + 1):
            if _row_kept(kinds, n, image, i):
                return i, image
    return None


def _swap_witness_holds(kinds, n: int) -> bool:
    """σ = (1 3) keeps row 2's labels and some position 4 sees 1 and 3 in different classes."""
    return n >= 4 and all(_label(k, n, 2, 1) == _label(k, n, 2, 3) for k in kinds) and any(
        _label(k, n, 4, 1) != _label(k, n, 4, 3) for k in kinds)


def _one_layer_by_structure(spec, kinds, layers, least):
    """(outcome, reason) when a `free`/`toeplitz` head or an encoding settles one layer, else None."""
    if {"free", "toeplitz"} & set(kinds):
        if (layers, least) != (1, True):
            raise Reject("a `free` or `toeplitz` head separates every σ ≠ id in one layer")
        return VERIFIED, "a `free` or `toeplitz` head gives each key of a row its own class: one layer"
    if spec.positional == "absolute":
        if (layers, least) != (1, True):
            raise Reject("an absolute encoding leaves no one-layer labelled witness: one layer")
        return VERIFIED, "an absolute encoding: no one-layer labelled witness (§11.10), one layer"
    return None


def _by_witness(n, kinds, layers, condition, sufficiency: str = "Lemma V^λ"):
    """Two layers, least, by σ = (1 3) at row 2 from the witness range on."""
    if not set(kinds) <= set(SYMMETRIC) or layers != 2:
        raise Reject("the count is neither re-decidable nor the sufficient D + 1 = 2")
    # position 4 tells keys 1 and 3 apart under |u − i| from n = 4 on, under the circular distance from n = 5
    low = 4 if "symmetric toeplitz" in kinds else 5
    if isinstance(n, int) and n < low:
        raise Reject(f"n = {n} is below the witness's range n ≥ {low}")
    if not isinstance(n, int) and condition != f"{n} ≥ {low}":
        raise Reject(f"the range is not n ≥ {low}")
    values = [n] if isinstance(n, int) else list(range(low, low + 41))
    bad = [m for m in values if not _swap_witness_holds(kinds, m)]
    if bad:
        raise Reject(f"σ = (1 3) at row 2 is not a one-layer witness at n = {bad[0]}")
    where = f"n = {n}" if isinstance(n, int) else f"every n from {low} to {low + 40}"
    return VERIFIED, (f"σ = (1 3) keeps row 2's labels and breaks position 4's, checked at {where}; two layers "
                      f"suffice ({sufficiency})")


def _fixed_even_heads(ctx) -> list:
    """The heads whose fixed position term is even and injective on |m| (the verifier's own offset
    analysis, a `reweight` factor's h = c(i, i + δ)/c(i, i) included)."""
    out = []
    for head in ctx.spec.heads:
        pos = head.position
        if pos is None or pos.kind not in ("bias", "reweight"):
            continue
        key = ("offset class", head)
        if key not in ctx.cache:
            try:
                ctx.cache[key] = offset_class(ctx.spec, head)
            except Trust:
                continue
        if ctx.cache[key][0] == "symmetric":
            out.append(head)
    return out


def _fixed_kinds(ctx, s) -> list:
    """The label kinds when a fixed even head takes part (Lemma E): its labels are |u − i|, beside
    symmetric trainable biases only; the step's premises are the proved Lemma E steps."""
    spec = ctx.spec
    fixed = _fixed_even_heads(ctx)
    if len(fixed) != sum(1 for h in spec.heads if h.position is not None):
        raise Reject("a fixed position term that is not even and injective on |m|: the count cannot be proved")
    trainable = {h.bias for h in spec.heads if h.bias}
    if not trainable <= set(SYMMETRIC) or spec.positional == "absolute":
        raise Reject("a fixed even term beside a head or encoding that breaks the reflection: not analysed")
    if not any(softmax_gamma(spec, h) is not None for h in fixed):
        raise Reject("no fixed even head is a normalised softmax head: Lemma E does not apply")
    prem = ctx.premises(s)
    if not prem or any(p["rule"] != "TD-FIXEDBIAS" or p["status"] != "proved" or
                       not (p.get("data") or {}).get("fixed_even") for p in prem):
        raise Reject("the count rests on the proved TD-FIXEDBIAS steps of Lemma E")
    return sorted(trainable | {"symmetric toeplitz"})


@checker("BIAS-LAYERS")
def bias_layers(ctx, s):
    spec = ctx.spec
    if any(not isinstance(h.pattern, S.Full) for h in spec.heads):
        raise Reject("BIAS-LAYERS is for dense heads")
    buckets = _bucket_heads(spec)
    fixed = any(h.position is not None for h in spec.heads if h not in buckets)
    if not fixed and not any(h.bias in SYMMETRIC for h in spec.heads) and not buckets:
        raise Reject("no head has a symmetric trainable bias, T5 buckets or a fixed even position term")
    if fixed and buckets:
        raise Reject("a fixed position term beside T5 buckets: not analysed")
    if s["status"] == "undecided":
        return VERIFIED, "undecided: asserts nothing"
    if s["status"] != "proved":
        raise Reject(f"BIAS-LAYERS does not conclude `{s['status']}`")
    from .structure import slots
    _, tds, _, _ = slots(ctx)
    if not fixed and any(t["status"] != "proved" for t in tds):
        raise Reject("a count for a trainable bias needs every head's token-distinguishing step proved (Lemma V^λ)")
    data = s.get("data") or {}
    layers, least = data.get("layers"), data.get("least")
    if isinstance(layers, dict) and not fixed:  # a count by parity of n (Theorem F177)
        return _by_parity(ctx, data)
    if layers not in (1, 2):
        raise Reject(f"{layers!r} layers: dense heads need one or two")
    if fixed:
        kinds = _fixed_kinds(ctx, s)
        if layers == 2 and not least:
            raise Reject("with a fixed even term the count is decided, not only sufficient")
    else:
        kinds = label_kinds(spec, spec.tokens)
        settled = _one_layer_by_structure(spec, kinds, layers, least)
        if settled is not None:
            return settled
    if layers == 2 and not least:
        return VERIFIED, "two layers suffice: the depth-2 labelled view of dense heads is the whole sample (Lemma V^λ)"
    n = spec.tokens
    if isinstance(n, int) and n <= EXHAUSTIVE_N:
        found = one_layer_witness(kinds, n)
        if (found is not None) != (layers == 2):
            raise Reject(f"at n = {n} a one-layer labelled witness {'exists' if found else 'does not exist'}")
        return VERIFIED, (f"re-decided over all of S_{n}: " + (
            f"σ = {found[1]} keeps row {found[0]}'s labels and is not a symmetry, two layers" if found
            else "no σ outside the group keeps a row's labels, one layer"))
    return _by_labels(spec, n, kinds, layers, least, data.get("condition"), fixed, bool(buckets))


def _by_labels(spec, n, kinds, layers, least, condition, fixed: bool, buckets: bool):
    """Beyond the exhaustive lengths: T5 buckets by the joint classes (Theorem F136) or a swap of row 1, the
    symmetric kinds by σ = (1 3) at row 2."""
    if buckets and isinstance(n, int) and _bucket_swap(spec, kinds, n) is None:
        if n > JOINT_N:
            raise Trust(f"the joint classes of the offsets are re-enumerated here up to n = {JOINT_N} (Theorem F136)")
        joint = by_joint_labels(n, kinds, layers, least)
        if joint is not None:
            return joint
    if buckets and not isinstance(n, int) and _offset_only(kinds):
        joint = _by_joint_any_length(spec, n, kinds, layers, least, condition)  # Theorem F142 (§16.5)
        if joint is not None:
            return joint
    if not fixed and isinstance(n, int) and n <= ROW_CLASSES_N:
        by_rows = _by_row_classes(n, kinds, layers, least)  # Theorem F162 (§8)
        if by_rows is not None:
            return by_rows
    if buckets and not set(kinds) <= set(SYMMETRIC):
        return _by_bucket_witness(spec, n, kinds, layers, least, condition)
    return _by_witness(n, kinds, layers, condition, "Lemma E, §16.2" if fixed else "Lemma V^λ")


#: Lengths up to which the rows' joint class multisets are compared here (Theorem F162).
ROW_CLASSES_N = 1024


def _by_row_classes(n: int, kinds, layers, least):
    """Theorem F162 (§8): a σ with σ(i) = j keeps row i's labels iff it maps the offsets 1 − i, …, n − i onto
    1 − j, …, n − j class by class (joint classes, recomputed). No row sees a class twice and no two rows see the same
    classes: no σ ≠ id keeps a row, one layer. Otherwise the verifier's own σ (a swap in a row, or the class-by-class
    map between two rows) outside the group (a row whose labels it moves): two layers, least. None when neither."""
    joint = {m: tuple(_label(k, n, 0, m) for k in kinds) for m in range(-(n - 1), n)}
    rows: dict = {}
    found = None
    for i in range(1, n + 1):
        by_class: dict = {}
        for u in range(1, n + 1):
            by_class.setdefault(joint[u - i], []).append(u)
        double = [keys for keys in by_class.values() if len(keys) > 1]
        if double:
            image = list(range(1, n + 1))
            image[double[0][0] - 1], image[double[0][1] - 1] = double[0][1], double[0][0]
        elif frozenset(by_class) in rows:
            j, image = rows[frozenset(by_class)], [0] * n
            for u in range(1, n + 1):
                image[u - 1] = by_class[joint[u - j]][0]
            i = j
        else:
            rows[frozenset(by_class)] = i
            continue
        if not all(_row_kept(kinds, n, image, r) for r in range(1, n + 1)):
            found = (i, tuple(image))
            break
        return None  # a σ ≠ id keeping a row lies in the group: not decided here
    if found is None:
        if (layers, least) != (1, True):
            raise Reject(f"at n = {n} no σ ≠ id keeps a row's labels (the rows' joint classes, recomputed): one layer")
        return VERIFIED, (f"the rows' joint classes at n = {n} (recomputed): no row sees a class twice and no two rows "
                          "see the same classes, so no σ ≠ id keeps a row's labels; one layer (Theorem F162)")
    if (layers, least) != (2, True):
        raise Reject(f"σ = {found[1]} keeps row {found[0]}'s labels and is not a symmetry: two layers, least")
    return VERIFIED, (f"σ = {found[1]} keeps row {found[0]}'s labels (recomputed) and moves another row's: two "
                      "layers, least (Theorem F162; the depth-2 labelled view is the whole sample, Lemma V^λ)")


#: Lengths at which Theorem F177's count by parity is re-decided by the rows' joint classes (Theorem F162).
PARITY_LENGTHS = range(3, 41)


def _by_parity(ctx, data: dict):
    """Theorem F177 (§8): `circulant` beside `symmetric toeplitz` (`symmetric circulant` heads allowed) at a symbolic
    n ≥ 3: one layer at odd n, two, least, at even n. The stated count, decoded, must simplify to 2 at n = 2k and to 1
    at n = 2k + 1 (k an integer symbol); the range must start at 3; and the rows' joint classes (recomputed) re-decide
    the count at every n from 3 to 40 (the theorem is trusted beyond, §18.2)."""
    import sympy
    from .trees import TreeError, decode
    spec = ctx.spec
    if isinstance(spec.tokens, int):
        raise Reject("a count by parity of n is stated at a symbolic n only")
    kinds = label_kinds(spec, spec.tokens)
    if not ("circulant" in kinds and "symmetric toeplitz" in kinds and
            set(kinds) <= {"circulant", "symmetric toeplitz", "symmetric circulant"}):
        raise Reject("a count by parity of n is Theorem F177's, for `circulant` beside `symmetric toeplitz`")
    n = ctx.symbols[spec.tokens]
    try:
        count = decode(data.get("layers"), ctx.symbols)
    except TreeError as exc:
        raise Reject(f"the number of layers: {exc}") from None
    k = sympy.Symbol("k·parity", integer=True, nonnegative=True)
    by_class = [sympy.simplify(count.subs(n, 2 * k + r)) if isinstance(count, sympy.Expr) else None for r in (0, 1)]
    if by_class != [2, 1] or data.get("least") is not True:
        raise Reject(f"Theorem F177: one layer at odd n and two at even n, least, not {sympy.sstr(count)}")
    if data.get("condition") != f"{spec.tokens} ≥ 3":
        raise Reject(f"Theorem F177 holds from n = 3 (at n ≤ 2 the group is S_n), not under {data.get('condition')!r}")
    for length in PARITY_LENGTHS:
        want = 1 if length % 2 else 2
        if _by_row_classes(length, kinds, want, True) is None:
            raise Reject(f"at n = {length} the rows' joint classes do not decide the count")
    return VERIFIED, (f"Theorem F177 (§8): the count {sympy.sstr(count)} is 2 at n = 2k and 1 at n = 2k + 1, from "
                      f"n = 3; re-decided by the rows' joint classes (recomputed, Theorem F162) at every n "
                      f"from {PARITY_LENGTHS.start} to {PARITY_LENGTHS.stop - 1}")


#: Lengths up to which the joint classes of the offsets are re-enumerated here (Theorem F136).
JOINT_N = 4096


def by_joint_labels(n: int, kinds, layers, least):
    """Theorem F136 (§16.5): dense heads beside T5 buckets at a concrete n. The joint classes of the offsets
    −(n − 1), …, n − 1 (every head's class, recomputed): all different, one layer; two offsets m < m′, neither 0,
    in one joint class, the swap of the keys i + m, i + m′ of row i = max(1, 1 − m) keeps that row (checked), and a
    position telling them apart (checked) puts it outside the group: two layers, least. None otherwise."""
    seen: dict = {}
    pair = None
    for m in range(-(n - 1), n):
        key = tuple(_label(k, n, 0, m) for k in kinds)
        if key not in seen:
            seen[key] = m
        elif pair is None and seen[key] != 0 and m != 0:
            pair = (seen[key], m)
    if len(seen) == 2 * n - 1:
        if (layers, least) != (1, True):
            raise Reject(f"at n = {n} the heads' joint classes tell every offset apart: one layer (Theorem F136)")
        return VERIFIED, (f"the joint classes of the offsets −{n - 1}, …, {n - 1} are pairwise different (recomputed, "
                          "buckets exactly): a σ keeping a row's labels is a translation, the identity; one layer")
    if pair is None:
        return None
    i = max(1, 1 - pair[0])
    a, b = i + pair[0], i + pair[1]
    if not 1 <= a < b <= n or any(_label(k, n, i, a) != _label(k, n, i, b) for k in kinds):
        return None
    v = next((v for v in range(1, n + 1) if v not in (a, b) and any(
        _label(k, n, v, a) != _label(k, n, v, b) for k in kinds)), None)
    if v is None:
        return None
    if (layers, least) != (2, True):
        raise Reject(f"σ = ({a} {b}) keeps row {i}'s labels and is not a symmetry: two layers, least (Theorem F136)")
    return VERIFIED, (f"σ = ({a} {b}) keeps row {i}'s labels in every head (recomputed classes) and position {v} sees "
                      f"{a} and {b} in different classes, at n = {n}; two layers suffice (Lemma V^λ)")


def _offset_only(kinds) -> bool:
    """T5 buckets (as (B, D)) beside `symmetric toeplitz` or other bucket heads only: classes of the offset alone."""
    return any(isinstance(k, tuple) for k in kinds) and all(isinstance(k, tuple) or k == "symmetric toeplitz"
                                                            for k in kinds)


#: Theorem F142's witness is searched here at the lengths up to this (the verifier's own search).
JOINT_ANY_N = 600


def _by_joint_any_length(spec, n, kinds, layers, least, condition):
    """Theorem F142 (§16.5) at a symbolic n, offset-only kinds: beside `symmetric toeplitz` the pair (bucket sign, |m|)
    names every offset, one layer; with bucket heads only, the first two offsets in one joint class (recomputed, at the
    least length holding a row with both keys and a position telling them apart) keep their classes at every larger
    n: two layers, least, from that length on. None when the stated count is another route's (the row-1 swap)."""
    if "symmetric toeplitz" in kinds:
        for k in kinds:
            reach = k[1] + 2 if isinstance(k, tuple) else 0  # beyond D the bucket is clipped: constant per sign
            if isinstance(k, tuple) and any((_label(k, 1, 0, m) >= k[0] // 2) != (m > 0) for m in range(-reach, reach)):
                raise Reject(f"buckets{k}: a bucket holds offsets of both signs (recomputed)")
        if (layers, least) != (1, True):
            raise Reject("a bucket keeps the sign of the offset and `symmetric toeplitz` gives |m|: the joint class "
                         "names the offset at every n, one layer (Theorem F142)")
        return VERIFIED, ("a T5 bucket keeps the sign of the offset (recomputed: positive offsets in the upper half) and "
                          "`symmetric toeplitz` gives |m|, so the joint class names every offset at every n: one layer "
                          "(Theorem F142)")
    if _bucket_swap(spec, kinds, n) is not None:
        return None  # the row-1 swap's check states its own range
    top = min(JOINT_ANY_N, 2 * max(k[1] for k in kinds) + 2)
    for size in range(2, top + 1):
        found = _first_joint_pair(kinds, size)
        if found is None:
            continue
        i, a, b, v = found
        low = max(found)
        if (layers, least) != (2, True) or condition != f"{n} ≥ {low}":
            raise Reject(f"σ = ({a} {b}) at row {i} (recomputed) gives two layers, least, for n ≥ {low} (Theorem F142)")
        return VERIFIED, (f"σ = ({a} {b}) keeps row {i}'s labels in every head and position {v} sees {a} and {b} in "
                          f"different classes (recomputed buckets, the same at every n), so for every n ≥ {low} one "
                          "layer does not suffice; two do (Lemma V^λ, Theorem F142)")
    raise Reject(f"no two offsets share every head's class up to n = {top}: the count is not Theorem F142's")


def _first_joint_pair(kinds, n: int):
    """(i, a, b, v) at n: the first two offsets m < m′ (neither 0, in the order −(n − 1), …, n − 1) sharing every
    head's class, with the row i = max(1, 1 − m) holding both keys and a position v ∉ {a, b} telling them apart."""
    seen: dict = {}
    for m in range(-(n - 1), n):
        key = tuple(_label(k, n, 0, m) for k in kinds)
        first = seen.setdefault(key, m)
        if first == m or first == 0 or m == 0:
            continue
        i = max(1, 1 - first)
        a, b = i + first, i + m
        if not 1 <= a < b <= n:
            continue
        v = next((v for v in range(1, n + 1) if v not in (a, b) and any(
            _label(k, n, v, a) != _label(k, n, v, b) for k in kinds)), None)
        if v is not None:
            return i, a, b, v
    return None


def _by_bucket_witness(spec, n, kinds, layers, least, condition):
    """Two layers, least, by a swap of two keys of row 1 in one T5 bucket, from the positions' range on."""
    found = _bucket_swap(spec, kinds, n)
    if found is None or layers != 2 or not least:
        raise Reject("no swap of two keys in one T5 bucket kept by every head's labels of row 1 is found, so two "
                     "layers are not shown least" if found is None else "a swap witness gives two layers, least")
    i, a, b, v = found
    low = max(found)
    if not isinstance(n, int) and condition != f"{n} ≥ {low}":
        raise Reject(f"the range is not n ≥ {low}")
    return VERIFIED, (f"σ = ({a} {b}) keeps row {i}'s labels in every head (recomputed buckets) and position {v} sees "
                      f"{a} and {b} in different classes, at " + (f"n = {n}" if isinstance(n, int) else f"every n ≥ {low}")
                      + "; two layers suffice (Lemma V^λ)")
