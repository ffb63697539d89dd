"""Plain-text report of a verification: one line per step, then the summary."""
from __future__ import annotations

from .check import NUMERIC, REJECTED, TRUSTED, VERIFIED, Report

MARK = {VERIFIED: "verified", NUMERIC: "checked numerically", TRUSTED: "trusted", REJECTED: "REJECTED"}


def summary(report: Report) -> str:
    counts = {k: sum(1 for s in report.steps if s.outcome == k) for k in MARK}
    parts = ", ".join(f"{v} {MARK[k]}" for k, v in counts.items() if v)
    if report.problems or report.rejected:
        first = report.problems[0] if report.problems else f"{report.rejected[0].id} ({report.rejected[0].rule}): {report.rejected[0].reason}"
        return f"REJECTED: {first} [{parts}]"
    if report.ok and report.complete:
        return f"OK: {report.verdict} re-checked, every step verified or checked numerically [{parts}]"
    if report.ok and report.rests_on is not None and report.verdict == "NOT-UAP":
        return (f"OK: NOT-UAP re-checked: the obstruction it rests on and the verdict are verified; the other steps are "
                f"not needed by it [{parts}]")
    if report.ok:
        return f"OK: {report.verdict} claims nothing that needs every step; [{parts}]"
    return f"NOT FULLY VERIFIED: the {report.verdict} verdict has trusted steps [{parts}]"


def render(path: str, report: Report, quiet: bool = False) -> str:
    lines = [f"{path}: {report.path} · {report.verdict}"]
    for s in report.steps:
        if quiet and s.outcome in (VERIFIED, NUMERIC):
            continue
        lines.append(f"  {s.id:>4} {s.rule:<17} {MARK[s.outcome]:<20} {s.reason}")
    for p in report.problems:
        lines.append(f"  REJECTED: {p}")
    lines.append(f"  {summary(report)}")
    return "\n".join(lines)
