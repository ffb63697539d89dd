"""The lengths of one residue class n ≡ r (mod m) a class-wise family theorem is re-checked at.

A theorem stated on the classes of n modulo m names, per class, the length it holds from ("from"). The verifier checks
that bound (in the class, not below the theorem's own start, and not leaving a gap above the range's first length),
then re-checks the class at every length from the bound up to its own start N plus one more period (M − 1), where the
theorem's argument carries the statement to every larger length. A top above the verifier's limit is trusted, not
checked.
"""
from __future__ import annotations

from .check import Reject, Trust


def class_lengths(rule: str, c: dict, m: int, r: int, low: int, first: int, start: int, limit: int) -> range:
    """The lengths of the class n ≡ r (mod m) to re-check for ``rule``: from the class's stated bound ``c["from"]``
    up to max(start, bound) + m − 1, in steps of m (Reject: a bound outside the class or the range; Trust: a top
    above ``limit``)."""
    bound = int(c.get("from", 0))
    if (bound - r) % m or bound < low or first < bound - m + 1:
        raise Reject(f"{rule}: the class n ≡ {r} (mod {m}) starts at {bound}, outside the stated range")
    top = max(start, bound) + m - 1
    if top > limit:
        raise Trust(f"{rule}: the lengths to check go up to {top}")
    return range(bound, top + 1, m)
