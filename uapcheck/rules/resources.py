"""Resource boundaries: the file's CPU-time or memory budget ran out (docs/theory.md §12.1)."""
from __future__ import annotations

from .. import proof
from ..claim import REASON, claim


@proof.rule("BUDGET", "The file's CPU-time or memory budget ran out",
            proof.derived(text="uapcheck (resource limits: --budget, --memory); docs/theory.md §12.1"), statuses=(proof.UNDECIDED,))
def budget_step(step: str, what: str) -> proof.Step:
    return proof.conclude(claim("INCONCLUSIVE: ", REASON, f"the {what} ran out in: {step} (--budget and --memory "
                                "raise the limits)"),
                          proof.UNDECIDED, evidence={"step": step, "budget": what})
