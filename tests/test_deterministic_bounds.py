"""What a derivation concludes does not depend on the machine's speed: the steps that used to stop on a CPU clock of
their own (the least layer count of several heads, Theorems F70–F191) stop on deterministic work bounds, and a bound
that refuses a check is named in the step. The CPU clock is scaled in a child process (`time.process_time` and the
profiling timer that enforces the budgets alike), so a slow machine and a fast one are both played on this one; only
the file's --budget (the documented resource limit) still reads the clock."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import sympy

from uapcheck.graphs.cyclic_window_directed_least import MAX_CHECK_N, MAX_WORK, heads_check_size
from uapcheck.graphs.head_layers import directed_heads_refused
from uapcheck.spec import Offsets, Window

# A child process whose CPU clock runs `k` times as fast as the real one: every budget (the file's, a step's) sees
# k times the seconds it spends, as on a machine k times slower (k < 1: a faster machine).
SCALED_CLOCK = """
import signal, sys, time
k = float(sys.argv.pop(1))
real = time.process_time
time.process_time = lambda: real() * k
arm = signal.setitimer
signal.setitimer = lambda which, seconds, *rest: arm(which, seconds / k if seconds else seconds, *rest)
from uapcheck.cli import main
sys.exit(main())
"""

HEAD = "  kernel k(x, y) = exp(x . y)\n"


def _file(tmp_path: Path, name: str, patterns: list[str]) -> Path:
    heads = "".join(f"attention h{i} {{\n{HEAD}  pattern {p}\n}}\n" for i, p in enumerate(patterns))
    path = tmp_path / f"{name}.uap"
    path.write_text(f'architecture "{name}"\ntokens n\n{heads}')
    return path


def _json(path: Path, speed: float = 1.0, budget: int = 60) -> str:
    out = subprocess.run([sys.executable, "-c", SCALED_CLOCK, str(speed), "--no-cache", "--budget", str(budget),
                          "--format", "json", str(path)],
                         capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _layers_step(line: str) -> str:
    steps = json.loads(line)["steps"]
    text = json.dumps(steps, ensure_ascii=False)
    assert "PAT-LAYERS" in text
    return text


def test_f191_count_is_the_same_on_a_slow_and_a_fast_machine(tmp_path):
    # The sweep's file: F191's check takes about 4 s here; on a machine six times slower the former 10 s clock
    # cut it and the count fell back to D + 1, sufficient, with no word of a limit.
    path = _file(tmp_path, "f191", ["window(2)", "offsets {-3}", "window(1) cyclic"])
    # The file's --budget is the one clock left (a documented resource limit, not a step's own clock): it is raised
    # so that it is not what the slow run meets (6 × ~4 s of CPU here, more on a loaded machine).
    slow, fast = _json(path, 6.0, budget=900), _json(path, 0.2, budget=900)
    assert slow == fast
    found = json.loads(slow)
    assert found["verdict"] == "UAP" and found["least"] is True


@pytest.mark.parametrize("patterns, bound, shown", [
    (["window(3) cyclic", "offsets {-4}"], f"MAX_WORK = {MAX_WORK:,}", "452,160"),
    (["window(5) cyclic", "offsets {-7}"], f"MAX_CHECK_N = {MAX_CHECK_N:,}", "307"),
])
def test_a_refused_check_names_its_bound(tmp_path, patterns, bound, shown):
    line = _json(_file(tmp_path, "refused", patterns))
    found = json.loads(line)
    assert found["least"] is False
    text = _layers_step(line)
    assert "Theorem F191's check" in text and bound in text and shown in text


def test_the_check_size_and_the_length_that_fits():
    n = sympy.Symbol("n", integer=True, positive=True)
    size = directed_heads_refused([Window(3, cyclic=True), Offsets((-4,))], n)
    assert size is not None and (size.low, size.last, size.work) == (23, 180, 452_160) and not size.fits
    last = size.last_that_fits()
    assert (last - size.low) * last * size.per_length <= MAX_WORK < (last + 1 - size.low) * (last + 1) * size.per_length
    # the sweep's heads fit both bounds, so F191 runs
    assert directed_heads_refused([Window(2), Offsets((-3,)), Window(1, cyclic=True)], n) is None
    assert heads_check_size((Window(2), Offsets((-3,)), Window(1, cyclic=True)), 1, (-3, -2, 2), 17).fits


def _text(path: Path, speed: float) -> str:
    # a file budget large enough for the scaled clock (the budget is the documented limit; the panel's search is not)
    out = subprocess.run([sys.executable, "-c", SCALED_CLOCK, str(speed), "--no-cache", "--color", "never",
                          "--budget", "6000", str(path)],
                         capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode in (0, 1), out.stderr
    return out.stdout


def test_the_panel_suggestion_is_the_same_on_a_slow_and_a_fast_machine():
    # the panel's search is a count of edited files (PANEL_CANDIDATES), not 2 s of CPU
    path = Path(__file__).resolve().parents[1] / "catalog" / "blocks_strided_split_n.uap"
    slow, fast = _text(path, 100.0), _text(path, 0.2)
    assert slow == fast
    assert "suggestion: use the full pattern gives UAP" in slow
