"""One CPU-time budget per file, and a memory limit (issues 14 and 15, "Time" and "Memory").

Budgets count CPU time, so these tests assert on the CPU time used (children included), never on
wall-clock time: the results do not depend on how busy the machine is."""
from __future__ import annotations

import gc
import json
import os
import re
import signal
import time

import pytest
import sympy

from uapcheck import budget
from uapcheck.asymptotics import explore_regions
from uapcheck.budget import BudgetExceeded, FileBudgetExceeded, file_budget, time_limit
from uapcheck.derive import check_spec
from uapcheck.parse import parse_source

from clirun import run

STARTUP_CPU = 10  # imports of the parent and the forked worker, generously
# slow for its form, not for a value: |x − y|^60 through x·z is (|x|² + |z|² − 2x·z)^30, 496 terms, whose sign regions take
# about 1.7 s (|x − y|^1000 was slower still, but its 125,751-term expansion is no longer started: tests/test_huge_values.py)
SLOW_KERNEL = "attention { kernel k(x, y) = 1 / sqrt(|x - y|^60) }\n"


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


# -- the budget machinery, in process ------------------------------------------------------------

def test_budgets_count_cpu_time_not_wall_time():
    with file_budget(0.3):
        time.sleep(0.6)  # sleeping uses no CPU: a loaded machine does not eat the budget


def test_file_budget_is_not_swallowed_by_explore_regions():
    def slow(ctx):
        _spin(5)
        return 1
    with pytest.raises(FileBudgetExceeded):
        with file_budget(0.3):
            list(explore_regions(slow, ("a local step", 10.0)))


def test_file_budget_is_not_swallowed_by_except_exception():
    with pytest.raises(FileBudgetExceeded) as info:
        with file_budget(0.3):
            with budget.stage("a named stage"):
                try:
                    _spin(5)
                except Exception:  # noqa: BLE001 - what a careless rule might write
                    pass
                _spin(5)
    assert "a named stage" in str(info.value) and "CPU time budget of 0.3 s" in str(info.value)


def test_a_rule_that_catches_its_local_budget_cannot_outlive_the_enclosing_one():
    start = time.process_time()
    with pytest.raises(BudgetExceeded) as info:
        with time_limit("outer", 0.3):
            try:
                with time_limit("inner", 10):
                    _spin(5)
            except BudgetExceeded:
                pass
            _spin(5)
    assert info.value.step == "outer"
    assert time.process_time() - start < 2


def test_an_exception_from_c_code_after_the_timer_fired_is_the_budget():
    # python-igraph turns an exception raised in its signal check into SystemError.
    with pytest.raises(BudgetExceeded):
        with time_limit("computing in C", 0.2):
            try:
                _spin(5)
            except BudgetExceeded:
                raise SystemError("<built-in method> returned a result with an exception set") from None


def test_a_nested_check_does_not_swallow_the_enclosing_budget():
    # The suggestion search re-derives edited files inside the file's own budget.
    with pytest.raises(FileBudgetExceeded):
        with file_budget(0.5):
            for _ in range(50):
                check_spec(parse_source(SLOW_KERNEL), 30)


def test_file_budget_result_names_the_step_and_the_budget():
    spec = parse_source(SLOW_KERNEL + "expect uap\n")
    r = check_spec(spec, 0.5)
    assert r.verdict == "INCONCLUSIVE" and r.root.rule == "BUDGET"
    # the step the timer fires in depends on the machine's speed (the head's analysis, the sign decision inside it,
    # the radial test, ...): the claim names one step, then says how to raise the budget
    found = re.search(r"CPU time budget of 0\.5 s ran out in: (.+) \(--budget and --memory raise the limits\)$",
                      r.root.claim)
    assert found and found.group(1).strip(), r.root.claim
    assert r.expect_holds is False and "not checked" in r.expect_reason


def test_expect_checking_is_under_the_budget():
    nested = "n/2"
    for _ in range(14):
        nested = f"ceil({nested})/2"
    src = "attention { kernel k(x, y) = exp(x . y) }\nexpect uap layers ceil(" + nested + ")\n"
    start = time.process_time()
    r = check_spec(parse_source(src), 3)
    assert time.process_time() - start < 8
    assert r.expect_holds is False


def test_one_budget_for_the_file_not_one_per_head():
    """5,000 heads under one 2 s file budget end in well under the uncapped time (about 6.6 s CPU).
    Run in a fresh interpreter, as a CLI worker's first file: late in a full test session the same
    check was measured at about 6 s here (after tests/graphs), which is not explained yet (the
    timer, its handler and the budget stack were found in order), so the session's state is kept out."""
    code = (
        "import gc, json, time\n"
        "from uapcheck.derive import check_spec\n"
        "from uapcheck.parse import parse_source\n"
        "spec = parse_source(''.join('attention { kernel k(x, y) = exp(x . y) }\\n' for _ in range(5000)))\n"
        "gc.collect()\n"
        "start = time.process_time()\n"
        "r = check_spec(spec, 2)\n"
        "print(json.dumps([time.process_time() - start, r.verdict, r.root.rule]))\n")
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    spent, verdict, rule = json.loads(out.stdout.splitlines()[-1])
    assert spent < 6
    assert verdict in ("UAP", "INCONCLUSIVE")
    if verdict == "INCONCLUSIVE":
        assert rule == "BUDGET"


# -- through the command line: every reproducer ends within its budget --------------------------

REPRODUCERS = {
    "slow_sqrt": SLOW_KERNEL,
    "score_power_1000": "attention { score s(x, y) = (x . y + 1)^1000 }\n",
    "strided_2e6": "tokens 2000000\nattention { kernel k(x, y) = exp(x . y)\n pattern strided(1000000) }\n",
    "cyclic_window_1e6": "tokens 1000000\nattention { kernel k(x, y) = exp(x . y)\n pattern window(2) cyclic }\n",
    "window_3e6": "tokens 3000000\nattention { kernel k(x, y) = exp(x . y)\n pattern window(1) }\n",
    "edges_1e9": "tokens 1000000000\nattention { kernel k(x, y) = exp(x . y)\n pattern edges {1 -> 2} }\n",
    # no step is slow, their number is: each local clock is a share of the budget (tests/test_budget_shares.py), so
    # a slow single step gives up within its share and the file still ends in a verdict
    "heads_5000": "attention { kernel k(x, y) = exp(x . y) }\n" * 5000,
}
BUDGET = 4


@pytest.fixture(scope="module")
def budget_runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("budgets")
    paths = []
    for name, src in REPRODUCERS.items():
        p = d / f"{name}.uap"
        p.write_text(src)
        paths.append(str(p))
    r = run("--format", "json", "--budget", str(BUDGET), "--memory", "1G", "-j", "1", *paths)
    return r, [json.loads(line) for line in r.stdout.splitlines()]


def test_reproducers_end_in_a_verdict(budget_runs):
    r, objs = budget_runs
    assert "Traceback" not in r.stderr and r.code in (0, 1, 2), r.stderr
    assert len(objs) == len(REPRODUCERS)
    for obj in objs:
        assert obj.get("verdict") or obj.get("error"), obj


def test_reproducers_stay_within_their_cpu_budget(budget_runs):
    r, objs = budget_runs
    # Each file: its budget, the worker's grace for C code, and printing.
    assert r.cpu < len(REPRODUCERS) * (BUDGET + 5 + 2) + STARTUP_CPU


def test_running_out_names_the_step_and_the_budget(budget_runs):
    _, objs = budget_runs
    out = [o for o in objs if o.get("verdict") == "INCONCLUSIVE" and o["steps"][-1]["rule"] == "BUDGET"]
    assert out, "at least the 5,000 heads run out"
    for o in out:
        claim = o["steps"][-1]["claim"]
        assert "ran out in: " in claim and ("CPU time budget of 4 s" in claim or "memory limit of 1 GiB" in claim)


def test_memory_limit_gives_a_clean_verdict(tmp_path):
    f = tmp_path / "big.uap"
    f.write_text("tokens 262144\nattention { kernel k(x, y) = exp(x . y)\n pattern window(8) cyclic }\n")
    r = run("--format", "json", "--memory", "300M", "--budget", "60", str(f))
    assert r.code == 0, r.stderr
    obj = json.loads(r.stdout)
    assert obj["verdict"] in ("UAP", "INCONCLUSIVE")
    if obj["verdict"] == "INCONCLUSIVE":
        assert "memory limit of 300 MiB ran out in" in obj["steps"][-1]["claim"]


def test_window_8_cyclic_at_262144_under_ulimit_2gib(tmp_path):
    """Issue 14's done item, in the normal suite: the closed forms decide it in well under a second,
    with no arc materialised, so a 2 GiB address space is plenty (a verdict, never a kill)."""
    f = tmp_path / "cyclic.uap"
    f.write_text("tokens 262144\nattention { kernel k(x, y) = exp(x . y)\n pattern window(8) cyclic }\n")
    r = run("--format", "json", str(f), shell_prefix="ulimit -v 2097152")
    assert r.code == 0, r.stderr
    obj = json.loads(r.stdout)
    assert obj["verdict"] == "UAP" and obj["group"]["name"] == "D_n" and obj["layers"] == 16384
    least = [s["evidence"]["least"] for s in obj["steps"] if s["rule"] == "PAT-LAYERS"]
    assert least == [True]


def test_j_keeps_the_order_of_the_files(tmp_path):
    srcs = {"a_slow.uap": SLOW_KERNEL, "b.uap": "attention { kernel k(x, y) = exp(x . y) }\n",
            "c.uap": "attention { kernel k(x, y) = (x . y)^2 }\n", "d.uap": "tokens d\nattention { kernel k(x, y) = exp(x . y) }\n"}
    for name, src in srcs.items():
        (tmp_path / name).write_text(src)
    r2 = run("--format", "json", "--budget", "2", "-j", "3", str(tmp_path))
    r1 = run("--format", "json", "--budget", "2", "-j", "1", str(tmp_path))
    files = [json.loads(line)["file"].rsplit("/", 1)[1] for line in r2.stdout.splitlines()]
    assert files == sorted(srcs)
    assert r1.code == r2.code == 2
    lines1, lines2 = r1.stdout.splitlines(), r2.stdout.splitlines()
    assert len(lines1) == len(lines2) == len(srcs)
    # the slow file may finish or run out of its 2 s on a loaded machine, in either run and in any step: both end
    # INCONCLUSIVE; every other file's result is byte-identical
    assert json.loads(lines1[0])["verdict"] == json.loads(lines2[0])["verdict"] == "INCONCLUSIVE"
    assert lines1[1:] == lines2[1:]


def test_budget_and_memory_options_are_validated():
    for args in (["--budget", "0"], ["--budget", "abc"], ["--memory", "1K"], ["--memory", "lots"], ["-j", "0"]):
        r = run(*args, "catalog/softmax.uap")
        assert r.code == 2 and "Traceback" not in r.stderr


# -- the worker: limits enforced by the kernel ------------------------------------------------------

def test_a_worker_stuck_past_its_cpu_limit_is_ended_and_reported():
    from uapcheck import worker

    def stuck():  # no budget checks at all, as in C code that never returns to Python
        while True:
            pass

    deaths = []

    def on_death(index, death):
        deaths.append(death)
        return worker.Outcome("", f"ended in {death.step}\n", 0)

    limits = worker.Limits(cpu_seconds=1, memory_bytes=None)
    (out,) = list(worker.run_all([stuck], 1, limits, on_death))
    assert deaths and deaths[0].budget_text(limits) == "CPU time budget of 1 s"
    assert deaths[0].cpu_seconds >= 1


def test_a_worker_over_its_memory_limit_reports_memory_error():
    from uapcheck import worker

    def hungry():
        with budget.stage("allocating"):
            blob = bytearray(1 << 31)
        return worker.Outcome(str(len(blob)), "", 0)

    limits = worker.Limits(cpu_seconds=30, memory_bytes=512 << 20)
    (out,) = list(worker.run_all([hungry], 1, limits, lambda i, d: worker.Outcome("", "died", 3)))
    assert out.code == 2 and "ran out in: allocating" in out.stderr


def test_worker_outcomes_keep_the_job_order():
    from uapcheck import worker

    def job(k):
        def run():
            _spin(0.05 * (5 - k))
            return worker.Outcome(f"{k}\n", "", 0)
        return run

    outs = list(worker.run_all([job(k) for k in range(5)], 3, worker.Limits(30, None),
                               lambda i, d: worker.Outcome("", "died", 3)))
    assert [o.stdout for o in outs] == [f"{k}\n" for k in range(5)]


def test_a_worker_runs_the_cyclic_collector_at_its_own_threshold_and_the_parent_keeps_its_own():
    from uapcheck import worker

    def job():
        return worker.Outcome(f"{gc.get_threshold()[0]} {int(gc.isenabled())}", "", 0)

    before = gc.get_threshold()
    (out,) = list(worker.run_all([job], 1, worker.Limits(30, None), lambda i, d: worker.Outcome("", "died", 3)))
    assert out.stdout == f"{worker.GC_THRESHOLD} {int(gc.isenabled())}"
    assert worker.GC_THRESHOLD > 700 and gc.get_threshold() == before


def test_a_budget_never_raises_inside_a_gc_callback_and_fires_after_it():
    lost = []

    def callback(phase, info):  # Python ignores exceptions raised here (hypothesis installs such callbacks)
        try:
            _spin(0.002)
        except BaseException as exc:  # noqa: BLE001 - stands for "ignored by the interpreter"
            lost.append(exc)

    gc.callbacks.append(callback)
    try:
        start = time.process_time()
        with pytest.raises(FileBudgetExceeded):
            with file_budget(0.3):
                # Some of the time in the callback (where a raised budget is lost), most outside it: a
                # collection of a large heap (the whole test session's) runs in C, so an alarm that
                # arrives during it is handled in the callback that follows.
                rounds = 0
                while time.process_time() - start < 20:
                    rounds += 1
                    if rounds % 5 == 0:
                        gc.collect(0)
                    _spin(0.005)
        assert time.process_time() - start < 3
        # Python would drop an exception raised in the callback (and report it as unraisable).
        assert lost == []
    finally:
        gc.callbacks.remove(callback)


# -- workers check one file after another ----------------------------------------------------------

def _pid_job(extra=None):
    def run():
        if extra is not None:
            extra()
        return worker_module().Outcome(f"{os.getpid()}\n", "", 0)
    return run


def worker_module():
    from uapcheck import worker
    return worker


def test_one_worker_checks_the_files_one_after_another_and_keeps_its_caches():
    """A batch on one core forks one worker, which keeps what it imported and cached from file to
    file (a fork per file paid both again each time)."""
    import sys as _sys

    from uapcheck.memo import clear_caches
    from uapcheck.rules import ffn
    worker = worker_module()
    clear_caches()
    xi = sympy.Symbol("ξ", real=True)

    def first():
        ffn._lipschitz(sympy.Max(0, xi), xi)
        return worker.Outcome(f"{os.getpid()} {ffn._lipschitz.cache_size()}\n", "", 0)

    def second():
        return worker.Outcome(f"{os.getpid()} {ffn._lipschitz.cache_size()}\n", "", 0)

    outs = list(worker.run_all([first, second, second], 1, worker.Limits(60, None),
                               lambda i, d: worker.Outcome("", "died", 3)))
    pids = {o.stdout.split()[0] for o in outs}
    assert len(pids) == 1 and str(os.getpid()) not in pids
    assert [o.stdout.split()[1] for o in outs] == ["1", "1", "1"]  # the second file found the entry
    assert ffn._lipschitz.cache_size() == 0  # the parent computed nothing
    assert _sys.modules  # (the parent's own state is untouched)


def test_each_file_gets_its_own_cpu_limit_in_a_shared_worker():
    import resource
    worker = worker_module()

    def job():
        soft, _ = resource.getrlimit(resource.RLIMIT_CPU)
        used = resource.getrusage(resource.RUSAGE_SELF)
        used = used.ru_utime + used.ru_stime
        _spin(0.2)
        return worker.Outcome(f"{soft} {used}\n", "", 0)

    outs = list(worker.run_all([job, job, job], 1, worker.Limits(2, None),
                               lambda i, d: worker.Outcome("", "died", 3)))
    for o in outs:
        soft, used = o.stdout.split()
        # the worker's CPU time so far, the file's 2 s and the grace period
        assert float(used) + 2 + worker.CPU_GRACE_SECONDS <= int(soft) <= float(used) + 2 + worker.CPU_GRACE_SECONDS + 1.5


def test_a_file_that_runs_out_of_its_budget_leaves_its_worker_and_the_next_starts_fresh():
    worker = worker_module()

    def runs_out():
        try:
            with file_budget(0.05):
                _spin(1.0)
        except FileBudgetExceeded:
            pass
        return worker.Outcome(f"{os.getpid()}\n", "", 0)

    outs = list(worker.run_all([_pid_job(), runs_out, _pid_job(), _pid_job()], 1, worker.Limits(30, None),
                               lambda i, d: worker.Outcome("", "died", 3)))
    pids = [o.stdout.strip() for o in outs]
    assert pids[0] == pids[1] and pids[2] == pids[3] and pids[1] != pids[2]


def test_a_worker_that_dies_is_reported_for_its_file_and_replaced():
    worker = worker_module()

    def dies():
        os.kill(os.getpid(), signal.SIGKILL)

    deaths = []

    def on_death(index, death):
        deaths.append((index, death.signal_number))
        return worker.Outcome("", "died\n", 3)

    outs = list(worker.run_all([_pid_job(), dies, _pid_job()], 1, worker.Limits(30, None), on_death))
    assert deaths == [(1, signal.SIGKILL)]
    assert outs[1].stderr == "died\n" and outs[0].stdout != outs[2].stdout and outs[2].code == 0
