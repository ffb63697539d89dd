"""Theorem F164 (docs/theory.md §11.11): `window(w) + strided(s)`, 2 ≤ s ≤ w + 1, below Theorem F7's range.

F7's proof of the layers needs, at each root i, that an isomorphism σ: R_i → R_j of rooted views (D = 2) maps the
residue class C(i) onto C(j) (its step (1)); F7 shows it by common-neighbour counts, which needs n ≥ s(4w + 3).
Here it is shown at one concrete n by an arithmetic certificate: for a root i and v ∈ N(i) ∖ {i} the *pair key*

    (|N(i)|, |N(v)|, f_i(v) = |N(v) ∩ N(i)|, Σ_{x ∈ N(v) ∩ N(i)} f_i(x))

(closed neighbourhoods N(x) = W(x) ∪ C(x)) is carried by σ onto the key of (j, σv). When no key of a pair in one
class (v ∈ C(i)) is also the key of a pair in different classes, over all roots, σ keeps C(i), and F7's steps (2)–(6″)
(which need n ≥ 6w + 4s + 1 only) finish the proof. The keys of roots i and n + 1 − i agree (the reflection is an
automorphism), so the roots i ≤ (n + 1)/2 are computed, in chunks, without materialising any arc list.
"""
from __future__ import annotations

from typing import Optional

from .array_sets import distinct

#: pair entries (roots × the row width) handled at once, about eight arrays of int64 each
_CHUNK_WORDS = 500_000


def neighbour_table(n: int, w: int, s: int):
    """The closed neighbourhoods N(v) = [v − w, v + w] ∪ (v's class mod s), 0-based, as an (n + 1) × width int64
    table padded with n (row n, the padding row, is all n)."""
    import numpy as np
    rows = []
    for v in range(n):
        lo, hi = max(0, v - w), min(n - 1, v + w)
        members = np.arange(v % s, n, s)
        # the class below the window, the window, the class above it: ascending, each position once
        rows.append(np.concatenate((members[members < lo], np.arange(lo, hi + 1), members[members > hi])))
    width = max(len(r) for r in rows)
    table = np.full((n + 1, width), n, dtype=np.int64)
    for v, r in enumerate(rows):
        table[v, :len(r)] = r
    return table


def _row_codes(rows, radices):
    """Each row (non-negative integers, column k below radices[k]) as one int64, in the rows' lexicographic order."""
    import numpy as np
    code = np.zeros(len(rows), dtype=np.int64)
    for k, radix in enumerate(radices):
        code = code * radix + rows[:, k]
    return code


def _code_rows(codes, radices):
    """The rows `_row_codes` coded (the inverse)."""
    import numpy as np
    out = np.empty((len(codes), len(radices)), dtype=np.int64)
    for k in range(len(radices) - 1, -1, -1):
        out[:, k] = codes % radices[k]
        codes = codes // radices[k]
    return out


def pair_keys(n: int, w: int, s: int):
    """(keys of the same-class pairs, keys of the cross pairs) over the roots i ≤ (n + 1)/2: two int64 arrays of
    rows (|N(i)|, |N(v)|, f_i(v), Σ f_i over N(v) ∩ N(i)), duplicates removed, in lexicographic order. Each key is
    coded as one int64 for the duplicates (degrees and f below width + 1, the sum below width² + 1).

    Both entries after the degrees are sums A_i(v, g) = Σ_{x ∈ N(v) ∩ N(i)} g(x) over the root's sorted row N(i)
    (g = 1 gives f_i(v), then g = f_i gives the last entry), and N(v) = W(v) ∪ C(v) splits each by inclusion and
    exclusion: the x of N(i) in [v − w, v + w], plus those in v's class, minus those in both. Each of the three is a
    range of one sorted order of N(i) (by position; by (class, position)), so a sum is a difference of prefix sums
    at two binary-search bounds: about |N(i)|·log |N(i)| per root instead of the |N(i)|² of the pairs (x, v)."""
    import numpy as np
    table = neighbour_table(n, w, s)
    width = table.shape[1]
    degree = np.count_nonzero(table < n, axis=1)
    roots = np.arange((n + 1) // 2)
    chunk = max(1, _CHUNK_WORDS // width)
    radices = (width + 1, width + 1, width + 1, width * width + 1)
    same, cross = [], []
    for start in range(0, len(roots), chunk):
        r = roots[start:start + chunk]
        ball = table[r]                                   # c × width: N(i) ascending, padded with n
        codes, member, real = _chunk_codes(r, ball, degree, n, w, s, radices)
        same.append(distinct(codes[member]))
        cross.append(distinct(codes[real & ~member]))
    return (_code_rows(distinct(np.concatenate(same)), radices),
            _code_rows(distinct(np.concatenate(cross)), radices))


def _chunk_codes(r, ball, degree, n: int, w: int, s: int, radices):
    """The coded keys of the pairs (i, v), v in the row of root i, for a chunk of roots, with the masks of the
    pairs in one class and of the real pairs (v a position, v ≠ i)."""
    import numpy as np
    c, width = ball.shape
    real_x = ball < n
    rows = np.arange(c, dtype=np.int64)[:, None]
    span = n + 1                                          # a row's positions and padding lie in [0, n]
    by_position = (rows * span + ball).ravel()            # ascending: the rows are, and row k lies below row k + 1
    classes = np.where(real_x, ball % s, s)               # the padding after every class
    order = np.argsort(classes * span + ball, axis=1, kind="stable")
    by_class = (rows * ((s + 1) * span) + np.take_along_axis(classes * span + ball, order, axis=1)).ravel()
    v = ball
    low, high = np.maximum(v - w, 0), np.minimum(v + w, n - 1)
    vc = (v % s) * span
    base_p, base_c = rows * span, rows * ((s + 1) * span)
    offset_p, offset_c = rows * width, rows * width
    # bounds within the row (0 … width), for [v − w, v + w], v's class, and the class within [v − w, v + w]
    bounds = [np.searchsorted(by_position, (base_p + low).ravel(), "left").reshape(c, width) - offset_p,
              np.searchsorted(by_position, (base_p + high).ravel(), "right").reshape(c, width) - offset_p,
              np.searchsorted(by_class, (base_c + vc).ravel(), "left").reshape(c, width) - offset_c,
              np.searchsorted(by_class, (base_c + vc + n).ravel(), "right").reshape(c, width) - offset_c,
              np.searchsorted(by_class, (base_c + vc + low).ravel(), "left").reshape(c, width) - offset_c,
              np.searchsorted(by_class, (base_c + vc + high).ravel(), "right").reshape(c, width) - offset_c]

    def sums(g):
        """A_i(v, g) for every v of the row: g is given on the row (0 on the padding)."""
        zero = np.zeros((c, 1), dtype=np.int64)
        pos = np.concatenate((zero, np.cumsum(g, axis=1)), axis=1)
        cls = np.concatenate((zero, np.cumsum(np.take_along_axis(g, order, axis=1), axis=1)), axis=1)

        def between(prefix, lo, hi):
            return np.take_along_axis(prefix, hi, axis=1) - np.take_along_axis(prefix, lo, axis=1)
        return (between(pos, bounds[0], bounds[1]) + between(cls, bounds[2], bounds[3])
                - between(cls, bounds[4], bounds[5]))
    f = np.where(real_x, sums(real_x.astype(np.int64)), 0)
    h = sums(f)
    real = real_x & (ball != r[:, None])
    member = real & ((ball - r[:, None]) % s == 0)
    keys = np.stack([np.broadcast_to(degree[r][:, None], ball.shape), degree[ball], f, h], axis=2)
    return _row_codes(keys.reshape(-1, 4), radices).reshape(ball.shape), member, real


def class_collision(n: int, w: int, s: int) -> Optional[tuple]:
    """None when the same-class keys and the cross keys are disjoint (F164's certificate holds at n), else one key
    that is both."""
    same, cross = pair_keys(n, w, s)
    both = set(map(tuple, same.tolist())) & set(map(tuple, cross.tolist()))
    return min(both) if both else None


def low(w: int, s: int) -> int:
    """The least n of F164's range: F7's steps (2)–(6″) need n ≥ 6w + 4s + 1 (and n ≥ d* + 1, the diameter 2)."""
    return 6 * w + 4 * s + 1
