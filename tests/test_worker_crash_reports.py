"""A worker ended by a crash signal (issue 14, "Unbreakable"): SIGSEGV, SIGBUS or SIGABRT is the memory limit only
when the evidence says so (a memory limit, and the worker's peak resident memory at half of it or above); otherwise a
library crashed on the input, which is reported as an internal failure of the step it was in, naming the signal —
never as a budget that ran out (BLISS once ended the process with a segmentation fault on some vertex-coloured
digraphs, docs/theory.md §8, and was reported as "the memory limit of 4 GiB ran out")."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

from uapcheck import budget, worker

from clirun import REPO, env

LIMITS = worker.Limits(cpu_seconds=30, memory_bytes=1 << 30)


def _deaths(job, limits=LIMITS):
    deaths = []

    def on_death(index, death):
        deaths.append(death)
        return worker.Outcome("", "died\n", 3)

    list(worker.run_all([job], 1, limits, on_death))
    assert len(deaths) == 1
    return deaths[0]


def _quiet() -> None:
    """No traceback dump of the crash from the test runner's fault handler, which the worker inherits."""
    import faulthandler
    faulthandler.disable()


_FRESH = """
import json, os, signal, sys
from uapcheck import budget, worker
LIMITS = worker.Limits(cpu_seconds=30, memory_bytes=1 << 30)
budget.configure(memory="1 GiB", memory_size=1 << 30)  # as the command line does for --memory 1G
def quiet():
    import faulthandler
    faulthandler.disable()
def segfault():
    quiet()
    with budget.stage("a library's step"):
        os.kill(os.getpid(), signal.SIGSEGV)
def hungry_then_aborts():
    blob = bytearray(600 << 20)  # zero-filled, so resident
    blob[::4096] = b"\\1" * len(blob[::4096])
    quiet()
    os.abort()
deaths = []
def on_death(index, death):
    deaths.append(death)
    return worker.Outcome("", "died\\n", 3)
list(worker.run_all([globals()[sys.argv[1]]], 1, LIMITS, on_death))
(death,) = deaths
print(json.dumps({"signal": death.signal_number, "step": death.step, "peak": death.peak_bytes,
                  "budget": death.budget_text(LIMITS), "how": death.how(), "near": death.near_memory_limit(LIMITS),
                  "memory": budget.memory_budget_text()}))
"""


def _fresh_death(job: str) -> dict:
    """The worker's report of a job's death, from a fresh interpreter: a worker is forked, and a child's peak resident
    memory counts the pages it shares with its parent, so in a long test session (a pytest process of a gigabyte or
    more) every child would start near a 1 GiB limit. The command line forks its workers from a small process."""
    import json
    done = subprocess.run([sys.executable, "-c", _FRESH, job], capture_output=True, text=True, timeout=120,
                          cwd=REPO, env=env())
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_segmentation_fault_far_below_the_memory_limit_is_a_crash_not_a_budget():
    death = _fresh_death("segfault")
    assert death["signal"] == signal.SIGSEGV and death["step"] == "a library's step"
    assert death["peak"] is not None and 0 < death["peak"] < LIMITS.memory_bytes // 2
    assert death["budget"] is None
    assert death["how"] == "the signal SIGSEGV (Segmentation fault)"


def test_an_abort_and_a_bus_error_without_a_memory_limit_are_crashes():
    def aborts():
        _quiet()
        os.abort()

    def bus_error():
        _quiet()
        os.kill(os.getpid(), signal.SIGBUS)

    unlimited = worker.Limits(cpu_seconds=30, memory_bytes=None)
    for job, number in ((aborts, signal.SIGABRT), (bus_error, signal.SIGBUS)):
        death = _deaths(job, unlimited)
        assert death.signal_number == number and death.budget_text(unlimited) is None
        assert signal.Signals(number).name in death.how()


def test_an_abort_near_the_memory_limit_is_the_memory_limit():
    """As a C library aborts when an allocation fails under RLIMIT_AS (C++'s std::bad_alloc uncaught, GMP): the
    worker's resident memory was at more than half of its limit."""
    death = _fresh_death("hungry_then_aborts")
    assert death["signal"] == signal.SIGABRT
    # the child's own text: the parent test process may or may not have configured a memory limit
    assert death["budget"] == death["memory"] == "memory limit of 1 GiB"
    assert death["near"] is True


def test_a_kill_by_the_kernel_stays_the_memory_limit_and_the_cpu_limit_stays_the_cpu_limit():
    killed = worker.Death("s", signal.SIGKILL, 1.0, None, 100 << 20)  # the out-of-memory killer
    assert killed.budget_text(LIMITS) == budget.memory_budget_text()
    for death in (worker.Death("s", signal.SIGXCPU, 31.0, None, 100 << 20),
                  worker.Death("s", signal.SIGKILL, 31.0, None, 100 << 20)):
        assert death.budget_text(LIMITS) == "CPU time budget of 30 s"
    assert worker.Death("s", None, 1.0, 70, None).how() == "exit status 70"


CRASHING_CLI = (
    "import os, signal, sys\n"
    "import uapcheck.parse as P\n"
    "from uapcheck.cli import main\n"
    "def crashing(*args, **kwargs):\n"
    "    os.kill(os.getpid(), signal.SIGSEGV)\n"
    "P.parse_source = crashing\n"
    "sys.exit(main(sys.argv[1:]))\n")


def _crashing_cli(*args: str) -> subprocess.CompletedProcess:
    """The command line with a library that crashes on every file (in the parsing step), in a child process."""
    return subprocess.run([sys.executable, "-c", CRASHING_CLI, *args], capture_output=True, text=True, cwd=REPO,
                          env=env(), timeout=300)


def test_the_command_line_reports_a_crash_as_an_internal_failure_of_the_step_with_its_signal():
    for extra in ((), ("--format", "json")):
        r = _crashing_cli("--memory", "1G", *extra, "catalog/softmax.uap")
        assert r.returncode == 3, r
        assert "the worker checking this file ended by the signal SIGSEGV (Segmentation fault) in: parsing" \
            in r.stderr, r.stderr
        assert "memory" not in r.stderr and "budget" not in r.stderr and "Traceback" not in r.stderr
        assert "INCONCLUSIVE" not in r.stdout and "BUDGET" not in r.stdout
