"""How large a sample the tests' random and stepped sweeps take. The normal run (CI, a contributor's run) takes a
smaller sample that still meets every assertion; UAPCHECK_NIGHTLY=1 takes the full one, as it runs the tests
marked `nightly` (tests/conftest.py). A sweep's sample is a prefix of the full one (the same seed, the same order),
so a failure the normal run finds, the nightly run finds too."""
from __future__ import annotations

import os

NIGHTLY = os.environ.get("UAPCHECK_NIGHTLY") == "1"


def sample_size(normal: int, nightly: int) -> int:
    """`nightly` with UAPCHECK_NIGHTLY=1, else `normal`."""
    return nightly if NIGHTLY else normal


def lengths(first: int, last: int, normal_last: int) -> list[int]:
    """Every n from `first` to `last` with UAPCHECK_NIGHTLY=1; in the normal run every n from `first` to `normal_last`
    and `last` itself (the sweep's far end), so a sweep whose check costs grow with n keeps every class of n it
    meets below `normal_last` and its endpoint."""
    if NIGHTLY or normal_last >= last:
        return list(range(first, last + 1))
    return list(range(first, normal_last + 1)) + ([last] if last >= first else [])
