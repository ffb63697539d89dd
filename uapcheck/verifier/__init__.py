"""An independent checker for uapcheck certificate files (`uapcheck verify OUT.json`).

Trusted base: this package, the `.uap` parser (uapcheck.parse, uapcheck.spec, uapcheck.errors),
SymPy (exact arithmetic, Schreier–Sims), mpmath (50-digit checks) and, for group completeness above
n = 7, nauty (pynauty). It imports nothing from the rule engines (uapcheck.rules, uapcheck.derive,
uapcheck.proof), the asymptotics engine (uapcheck.asymptotics, uapcheck.lower) or the graph
engines (uapcheck.graphs): tests/test_verifier.py enforces this.
"""
from __future__ import annotations

from .check import NUMERIC, REJECTED, TRUSTED, VERIFIED, Malformed, Report, load, verify

__all__ = ["verify", "load", "Report", "Malformed", "VERIFIED", "NUMERIC", "TRUSTED", "REJECTED", "verify_file"]


def verify_file(path: str) -> Report:
    return verify(load(path))
