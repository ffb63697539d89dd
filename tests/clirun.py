"""Running the command line in a subprocess, with the CPU time it used (children included)."""
from __future__ import annotations

import os
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
_TERMINAL_VARS = ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "CLICOLOR_FORCE", "COLUMNS",
                  "LINES", "JUPYTER_COLUMNS", "JUPYTER_LINES", "TERM")


def env(**extra: str) -> dict:
    e = {k: v for k, v in os.environ.items() if k not in _TERMINAL_VARS}
    e.update(PYTHONIOENCODING="utf-8", TERM="dumb", NO_COLOR="1")
    e.update(extra)
    return {k: v for k, v in e.items() if v is not None}


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    cpu: float  # user + system CPU seconds of the run and its workers


def run(*args: str, stdin: bytes | None = None, environ: dict | None = None, timeout: float = 600,
        shell_prefix: str = "", **popen) -> Run:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [sys.executable, "-m", "uapcheck", *args]
    if shell_prefix:
        import shlex
        cmd = ["bash", "-c", shell_prefix + " && exec " + " ".join(shlex.quote(c) for c in cmd)]
    p = subprocess.run(cmd, input=stdin, capture_output=True, cwd=REPO, env=environ or env(), timeout=timeout,
                       **popen)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), cpu)
