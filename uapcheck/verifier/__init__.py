"""An independent checker for uapcheck certificate files (`uapcheck verify OUT.json`).

Trusted base: this package, the `.uap` parser (uapcheck.parse, uapcheck.spec, uapcheck.errors),
SymPy (exact arithmetic, Schreier–Sims), mpmath (50- and 60-digit checks) and nauty (pynauty: group
completeness above n = 7, rooted views, the twin-class quotient above the arc limit). It imports nothing from the rule engines (uapcheck.rules, uapcheck.derive,
uapcheck.proof), the asymptotics engine (uapcheck.asymptotics, uapcheck.lower) or the graph
engines (uapcheck.graphs): tests/test_verifier.py enforces this. docs/theory.md §18 lists every
check and the trusted base with its size.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from .check import NUMERIC, REJECTED, TRUSTED, VERIFIED, Malformed, Report, load, verify

__all__ = ["verify", "load", "Report", "Malformed", "VERIFIED", "NUMERIC", "TRUSTED", "REJECTED", "verify_file"]


def __getattr__(name: str) -> Any:
    """The checker's names, imported with it on first use: the engines read `verifier.trees` (the certificates'
    tree encoding) without loading every check module, about 0.07 s."""
    if name in __all__:
        from . import check
        return getattr(check, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def verify_file(path: str, seconds: Optional[float] = None) -> "Report":
    from .check import load, verify
    return verify(load(path), seconds=seconds)
