"""Group generators a certificate block states as text at a symbolic n, read as permutations at a given length.

The engine writes a generator of a named group at symbolic n in cycle notation or as a reflection: "(1 2)",
"(1 2 ... n)" (the n-cycle i ↦ i + 1; "…" the same), "(2 3 … n)", "i ↦ n + 1 − i", "i ↦ n + 2 − i on {2, …, n}".
`permutation` reads exactly these forms at a length m (the entries are integers or closed forms in the length's
name, read by exact_forms.closed_form); any other text — a generator described in words, one with a condition — is
not read (None), and the block value stays listed as not compared.
"""
from __future__ import annotations

import re
from typing import Optional

import sympy

from .exact_forms import closed_form

_REVERSAL = re.compile(r"i ↦ (.+?) [−-] i(?: on \{(.+?), (?:…|\.\.\.), (.+?)\})?")
_CYCLE = re.compile(r"\(([^()]+)\)")


def _value(text: str, name: str, m: int) -> Optional[int]:
    v = closed_form(text, {name: sympy.Integer(m)})
    return int(v) if isinstance(v, sympy.Integer) else None


def permutation(text: str, name: str, m: int) -> Optional[list[int]]:
    """The image list (1-based) of the generator `text` at length m, the length's name being `name`; None when the
    text is not one of the forms read here or names positions outside 1..m."""
    if not isinstance(text, str) or len(text) > 200:
        return None
    image = list(range(1, m + 1))
    reversal = _REVERSAL.fullmatch(text.strip())
    if reversal:
        total = _value(reversal.group(1), name, m)
        lo = _value(reversal.group(2), name, m) if reversal.group(2) else 1
        hi = _value(reversal.group(3), name, m) if reversal.group(3) else m
        if total is None or lo is None or hi is None or not 1 <= lo <= hi <= m or lo + hi != total:
            return None
        for i in range(lo, hi + 1):
            image[i - 1] = total - i
        return image
    cycle = _CYCLE.fullmatch(text.strip())
    if not cycle:
        return None
    points: list[int] = []
    parts = cycle.group(1).replace("…", " ... ").split()
    for k, part in enumerate(parts):
        if part == "...":
            if k == 0 or k == len(parts) - 1 or parts[k + 1] == "...":
                return None
            continue
        v = _value(part, name, m)
        if v is None:
            return None
        if k >= 2 and parts[k - 1] == "...":
            if not points or v <= points[-1]:
                return None
            points.extend(range(points[-1] + 1, v + 1))
        else:
            points.append(v)
    if len(points) < 2 or len(set(points)) != len(points) or not all(1 <= p <= m for p in points):
        return None
    for a, b in zip(points, points[1:] + points[:1]):
        image[a - 1] = b
    return image
