"""Distinct values and their ranks in a one-dimensional integer array, by one sort.

`numpy.unique` gives the same results, but its first call imports `numpy.ma` (about 35 ms), which a derivation must
not load (tests/test_large_n_lazy_imports.py)."""
from __future__ import annotations


def distinct(values):
    """The distinct values of a 1-D array, ascending (what `np.unique(values)` returns)."""
    import numpy as np
    ordered = np.sort(np.asarray(values).ravel())
    if ordered.size == 0:
        return ordered
    keep = np.empty(ordered.size, dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def dense_ranks(values):
    """Each value's rank among the distinct values (equal values, equal ranks; what `np.unique(values,
    return_inverse=True)[1].ravel()` returns)."""
    import numpy as np
    flat = np.asarray(values).ravel()
    order = np.argsort(flat, kind="stable")
    ranks = np.empty(flat.size, dtype=np.int64)
    if flat.size == 0:
        return ranks
    ordered = flat[order]
    new = np.empty(flat.size, dtype=bool)
    new[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    ranks[order] = np.cumsum(new) - 1
    return ranks
