"""Test-suite options: `nightly` tests (the long fuzzing run, large-n resource runs) run only with
UAPCHECK_NIGHTLY=1. Shared fixtures: `no_graphs` (a derivation that must not build a token graph).
Every test starts with empty per-process caches (uapcheck/memo.py), so no test sees steps or facts an
earlier test derived, perhaps with an engine it had monkeypatched."""
from __future__ import annotations

import os

import pytest

NIGHTLY = os.environ.get("UAPCHECK_NIGHTLY") == "1"


def pytest_configure(config):
    config.addinivalue_line("markers", "nightly: long runs, only with UAPCHECK_NIGHTLY=1")


def pytest_collection_modifyitems(config, items):
    if NIGHTLY:
        return
    skip = pytest.mark.skip(reason="nightly: set UAPCHECK_NIGHTLY=1")
    for item in items:
        if "nightly" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def empty_caches():
    """The caches of uapcheck/memo.py (a head's kernel premises among them) emptied before and after
    each test: a test that monkeypatches an engine must neither see steps derived without the patch
    nor leave behind steps derived with it."""
    from uapcheck.memo import clear_caches
    clear_caches()
    yield
    clear_caches()


@pytest.fixture
def no_graphs(monkeypatch):
    """Any token graph built during the test fails it (real sizes are decided by closed forms)."""
    import uapcheck.rules.pattern as pattern_rules

    def refuse(*args, **kwargs):
        raise AssertionError("a token graph was built")
    monkeypatch.setattr(pattern_rules, "build_graph", refuse)
