"""Equal rows, equal ranks: the rows of a 2-D integer array numbered by their distinct values, by one sort of a
64-bit digest of each row, then an exact comparison of each row with the one sorted before it (a digest shared by two
different rows is caught there, and the rows are then sorted whole). The numbers are dense (0, 1, …) but follow the
digests' order, not the rows' own: only their equality carries meaning.

Nothing here reads user text.
"""
from __future__ import annotations

# odd multipliers, one per column (cycled), of the digest Σ row[j]·MIX[j mod 8] (mod 2⁶⁴)
_MIX = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93,
        0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53, 0x94D049BB133111EB, 0xBF58476D1CE4E5B9)


def row_ranks(rows):
    """For each row of the (m, k) integer array ``rows``, a number in 0 … (distinct rows − 1); two rows get the same
    number exactly when they are equal."""
    import numpy as np
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    m = rows.shape[0]
    ranks = np.empty(m, dtype=np.int64)
    if m == 0:
        return ranks
    if rows.shape[1] == 0:
        ranks[:] = 0
        return ranks
    bits = rows.view(np.uint64)
    mix = np.array([_MIX[j % 8] for j in range(rows.shape[1])], dtype=np.uint64)
    digest = (bits * mix).sum(axis=1, dtype=np.uint64)
    order = np.argsort(digest, kind="stable")
    ordered = rows[order]
    new = np.empty(m, dtype=bool)
    new[0] = True
    np.any(ordered[1:] != ordered[:-1], axis=1, out=new[1:])
    same_digest = digest[order][1:] == digest[order][:-1]
    if np.any(same_digest & new[1:]):
        # two different rows share a digest: number the rows by a sort of the whole rows
        whole = rows.view(np.dtype((np.void, 8 * rows.shape[1]))).ravel()
        order = np.argsort(whole, kind="stable")
        ordered = rows[order]
        np.any(ordered[1:] != ordered[:-1], axis=1, out=new[1:])
    ranks[order] = np.cumsum(new) - 1
    return ranks
