"""Collect every `catalog/*.uap` file as a pytest item (pytest's "non-python tests" pattern).

Each item runs `uapcheck.check` on its file and passes when the file's `expect` line holds. A catalog
file must state an `expect`: a file without one fails. On failure the report shows the expectation,
the reason it does not hold, and the whole derivation as text.

    python -m pytest catalog -q
"""
from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

try:
    import uapcheck
except ImportError:  # running `pytest` from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import uapcheck

from rich.console import Console

import uapcheck.render.text
from uapcheck.errors import UapError, format_error


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".uap":
        return UapFile.from_parent(parent, path=file_path)
    return None


class UapFile(pytest.File):
    def collect(self):
        yield UapItem.from_parent(self, name=self.path.stem)


class ExpectFailed(Exception):
    """The file's `expect` line does not hold (or is missing)."""

    def __init__(self, result, missing: bool = False):
        super().__init__(result.expect_reason if not missing else "no expect line")
        self.result = result
        self.missing = missing


class InputError(Exception):
    """The file does not parse or is semantically invalid."""


def derivation_text(result, width: int = 100) -> str:
    """The derivation tree and verdict panel, as plain text."""
    buf = io.StringIO()
    console = Console(file=buf, width=width, no_color=True, color_system=None)
    uapcheck.render.text.render(result, console)
    return buf.getvalue()


def _derived(path: Path, source: str, shown: str):
    """uapcheck.check of the file. In a run with the tests (tests/ on the path), the result the tests' shared
    per-process cache holds (tests/catalog_results.py: the same check of the same text at the same shown path, a frozen
    Result), so a worker that runs this item and the catalog-wide tests derives the file once, not twice."""
    try:
        from catalog_results import CATALOG, catalog_result
    except ImportError:  # `pytest catalog` alone
        return uapcheck.check(source, shown)
    if path.resolve() != (CATALOG / path.name).resolve() or shown != f"catalog/{path.name}":
        return uapcheck.check(source, shown)
    return catalog_result(path.name)


class UapItem(pytest.Item):
    def _shown_path(self) -> str:
        try:
            return os.path.relpath(self.path, self.config.rootpath)
        except ValueError:  # another drive (Windows)
            return str(self.path)

    def runtest(self):
        source = self.path.read_text(encoding="utf-8")
        shown = self._shown_path()
        try:
            result = _derived(self.path, source, shown)
        except UapError as err:
            raise InputError(format_error(shown, source, err)) from None
        if result.spec.expect is None:
            raise ExpectFailed(result, missing=True)
        if result.expect_holds is not True:
            raise ExpectFailed(result)

    def repr_failure(self, excinfo, style=None):
        err = excinfo.value
        if isinstance(err, InputError):
            return f"{self._shown_path()}: input error\n{err}"
        if isinstance(err, ExpectFailed):
            result = err.result
            if err.missing:
                head = (f"{self._shown_path()}: no `expect` line (verdict {result.verdict}); "
                        "every catalog file must state what it expects")
            else:
                head = "\n".join([
                    f"{self._shown_path()}: expect does not hold",
                    f"  expect: {result.spec.expect.text}",
                    f"  reason: {result.expect_reason}",
                ])
            return head + "\n\nderivation:\n" + derivation_text(result)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, 0, f"uap: {self.name}"
