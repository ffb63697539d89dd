"""Test-suite options: `nightly` tests (the long fuzzing run, large-n resource runs) run only with
UAPCHECK_NIGHTLY=1."""
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
