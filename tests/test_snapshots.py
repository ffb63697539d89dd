"""Snapshots of every output form beyond test_cli.py's: --short over several files, --full, Markdown,
LaTeX (fragment and standalone), and input errors in text and JSON. A changed output is written beside
its snapshot as NAME.new for review (tests/snapshot.py)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from snapshot import compare_snapshot

REPO = Path(__file__).resolve().parents[1]
ENV = {**{k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR", "TERM", "LINES")},
       "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1", "TERM": "xterm-256color"}


def uapcheck(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "uapcheck", *args], input=stdin, capture_output=True, cwd=REPO,
                          env=ENV, timeout=300)


BAD = b"architecture \"typo\"\nattention {\n  kernel k(x, y) = exp(x . y\n}\n"

CASES = {
    "short.txt": (("--short", "catalog/softmax.uap", "catalog/causal.uap", "catalog/uniform.uap",
                   "catalog/bigbird.uap"), "stdout"),
    "multi_head_softmax.txt": (("catalog/multi_head_softmax.uap",), "stdout"),
    "softmax_full.txt": (("--full", "catalog/softmax.uap"), "stdout"),
    "causal.txt": (("catalog/causal.uap",), "stdout"),
    "rbf.md": (("--format", "markdown", "catalog/rbf.uap"), "stdout"),
    "rbf.tex": (("--format", "latex", "catalog/rbf.uap"), "stdout"),
    "syntax_error.txt": (("-",), "stderr"),
    "syntax_error.json": (("--format", "json", "-"), "stdout"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_snapshot(name):
    args, stream = CASES[name]
    proc = uapcheck(*args, stdin=BAD if "-" in args else None)
    assert b"Traceback" not in proc.stderr
    compare_snapshot(name, getattr(proc, stream).decode("utf-8"))
