"""Each catalog file's verdict, derived once per test process and shared by every test that only reads it (the
catalog table, the claim and render printers, the LaTeX compile, the certificates): a whole-catalog check costs
about 45 s of CPU, and several test files read all of it.

A Result is frozen (its steps are the proof kernel's sealed handles), so no test can change what another reads. A
test that monkeypatches an engine, or needs a fresh derivation, calls uapcheck.check itself."""
from __future__ import annotations

from functools import cache
from pathlib import Path

import uapcheck

REPO = Path(__file__).resolve().parents[1]
CATALOG = REPO / "catalog"


def catalog_names() -> list[str]:
    """Every catalog file's name, sorted."""
    return sorted(p.name for p in CATALOG.glob("*.uap"))


def catalog_text(name: str) -> str:
    return (CATALOG / name).read_text("utf-8")


@cache
def catalog_result(name: str):
    """uapcheck.check of catalog/NAME, as `uapcheck catalog/NAME` derives it (the path relative to the repository)."""
    return uapcheck.check(catalog_text(name), f"catalog/{name}")
