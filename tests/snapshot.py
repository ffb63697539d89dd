"""Snapshot comparison in the manner of insta's `.snap.new`: a snapshot that differs is never rewritten
by the test run. The new output is written beside the old one as NAME.new and the test fails; review the
difference and accept it with `python scripts/review_snapshots.py --accept` (without --accept it shows
the diffs)."""
from __future__ import annotations

from pathlib import Path

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def compare_snapshot(name: str, actual: str) -> None:
    path = SNAPSHOTS / name
    pending = path.with_name(path.name + ".new")
    if path.is_file() and _lines(path.read_text("utf-8")) == _lines(actual):
        pending.unlink(missing_ok=True)
        return
    SNAPSHOTS.mkdir(parents=True, exist_ok=True)
    pending.write_text(actual, "utf-8")
    what = "differs from" if path.is_file() else "has no"
    raise AssertionError(f"{name} {what} snapshot; the new output is in {pending}. Review it with "
                         "`python scripts/review_snapshots.py` and accept it with --accept.")
