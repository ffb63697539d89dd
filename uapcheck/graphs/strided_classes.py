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

#: roots handled at once (each holds about (2w + 1 + n/s)² small integers per root)
_CHUNK_WORDS = 4_000_000


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
    coded as one int64 for the duplicates (degrees and f below width + 1, the sum below width² + 1), and x ∈ N(i)
    is read as |x − i| ≤ w or x's class (a table of the classes, −1 on the padding) equal to i's."""
    import numpy as np
    table = neighbour_table(n, w, s)
    width = table.shape[1]
    degree = np.count_nonzero(table < n, axis=1)
    roots = np.arange((n + 1) // 2)
    chunk = max(1, _CHUNK_WORDS // (width * width))
    positions = table.astype(np.int32)  # n < 2³¹: half the memory traffic of int64
    classes = np.where(table < n, table % s, -1).astype(np.int32)
    radices = (width + 1, width + 1, width + 1, width * width + 1)
    same, cross = [], []
    for start in range(0, len(roots), chunk):
        r = roots[start:start + chunk]
        ball = table[r]                                   # c × width: N(i), padded with n
        far = positions[ball]                             # c × width × width: N(v) for v ∈ N(i)
        gap = far - r[:, None, None].astype(np.int32)
        inside = ((gap <= w) & (gap >= -w) & (far < n)) | (classes[ball] == (r % s)[:, None, None].astype(np.int32))
        f = np.count_nonzero(inside, axis=2)              # f_i(v)
        dense = np.zeros((len(r), n + 1), dtype=np.int64)
        np.put_along_axis(dense, ball, f, axis=1)
        dense[:, n] = 0
        h = np.where(inside, np.take_along_axis(dense, far.reshape(len(r), -1), axis=1).reshape(far.shape),
                     0).sum(axis=2)
        real = (ball < n) & (ball != r[:, None])
        member = real & ((ball - r[:, None]) % s == 0)
        keys = np.stack([np.broadcast_to(degree[r][:, None], ball.shape), degree[ball], f, h], axis=2)
        codes = _row_codes(keys.reshape(-1, 4), radices).reshape(ball.shape)
        same.append(np.unique(codes[member]))
        cross.append(np.unique(codes[real & ~member]))
    return (_code_rows(np.unique(np.concatenate(same)), radices),
            _code_rows(np.unique(np.concatenate(cross)), radices))


def class_collision(n: int, w: int, s: int) -> Optional[tuple]:
    """None when the same-class keys and the cross keys are disjoint (F164's certificate holds at n), else one key
    that is both."""
    same, cross = pair_keys(n, w, s)
    both = set(map(tuple, same.tolist())) & set(map(tuple, cross.tolist()))
    return min(both) if both else None


def low(w: int, s: int) -> int:
    """The least n of F164's range: F7's steps (2)–(6″) need n ≥ 6w + 4s + 1 (and n ≥ d* + 1, the diameter 2)."""
    return 6 * w + 4 * s + 1
