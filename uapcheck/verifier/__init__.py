"""An independent checker for uapcheck certificate files (`uapcheck verify OUT.json`).

Trusted base: this package, the `.uap` parser (uapcheck.parse, uapcheck.spec, uapcheck.errors),
SymPy (exact arithmetic, Schreier–Sims), mpmath (50- and 60-digit checks) and nauty (pynauty: group
completeness above n = 7, rooted views, the twin-class quotient above the arc limit). It imports nothing from the rule engines (uapcheck.rules, uapcheck.derive,
uapcheck.proof), the asymptotics engine (uapcheck.asymptotics, uapcheck.lower) or the graph
engines (uapcheck.graphs): tests/test_verifier.py enforces this. docs/theory.md §18 lists every
check and the trusted base with its size.
"""
from __future__ import annotations

from typing import Optional

from .check import NUMERIC, REJECTED, TRUSTED, VERIFIED, Malformed, Report, load, verify

__all__ = ["verify", "load", "Report", "Malformed", "VERIFIED", "NUMERIC", "TRUSTED", "REJECTED", "verify_file"]


def verify_file(path: str, seconds: Optional[float] = None) -> Report:
    return verify(load(path), seconds=seconds)
