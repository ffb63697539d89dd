"""Per-file isolation: each file is checked in a forked worker process with an address-space limit
(RLIMIT_AS, `--memory`) and a CPU-time limit (RLIMIT_CPU, the `--budget` plus a grace period).

The worker reports through a pipe: what to print on standard output and standard error, and the
exit code. Inside it, `budget.file_budget` ends a run that runs out of CPU time at a safe point with
an INCONCLUSIVE verdict; RLIMIT_CPU is the backstop for C code that never returns to Python, and
RLIMIT_AS turns a runaway allocation into a MemoryError instead of an out-of-memory kill. A worker
that dies anyway (killed by the kernel for its CPU limit, or by a signal) is reported by the parent
with the step it was in, which the worker keeps in shared memory.

`run_all` runs at most `jobs` workers at once and yields the outcomes in the order of the jobs.
Workers are forked after every import, so each one starts warm. A worker with files still to come
after it also hands back what it warmed (the modules it imported, the entries it added to the
caches of uapcheck/memo.py); the parent takes them in before it forks the next worker, so a batch
pays for an import or a file-independent result once, as a single process would.
"""
from __future__ import annotations

import gc
import math
import mmap
import os
import pickle
import resource
import selectors
import signal
import sys
import warnings
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator, Optional

from . import budget

STEP_BYTES = 512
CPU_GRACE_SECONDS = 5


@dataclass(frozen=True)
class Outcome:
    stdout: str
    stderr: str
    code: int
    summary: Optional[object] = None  # verdict and expect of a checked file, for the run's summary
    warmed: Optional["Warmth"] = None  # what the worker warmed, for the parent (never printed)


@dataclass(frozen=True)
class Warmth:
    """What a worker imported and cached that later workers can start with."""
    modules: tuple[str, ...]
    entries: tuple[bytes, ...]  # pickled (cache name, key, value), each on its own


def _warmth(modules_before: set) -> Warmth:
    from . import memo
    modules = tuple(m for m in list(sys.modules) if m not in modules_before and not m.startswith("__"))
    entries = []
    for entry in memo.journal_entries():
        try:
            entries.append(pickle.dumps(entry))
        except Exception:  # noqa: BLE001 - an entry that cannot travel is recomputed, as before
            pass
    return Warmth(modules, tuple(entries))


def _take_in(warmth: Warmth) -> None:
    """In the parent: import what the worker imported and keep its cache entries."""
    import importlib

    from . import memo
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in warmth.modules:
            if name not in sys.modules:
                try:
                    importlib.import_module(name)
                except BaseException:  # noqa: BLE001 - a module that imports only in context stays lazy
                    pass
    entries = []
    for data in warmth.entries:
        try:
            entries.append(pickle.loads(data))
        except Exception:  # noqa: BLE001
            pass
    memo.absorb(entries)


@dataclass(frozen=True)
class Limits:
    cpu_seconds: float
    memory_bytes: Optional[int]  # None: no address-space limit of our own


@dataclass(frozen=True)
class Death:
    """How a worker ended without reporting: the step it was in, and why."""
    step: str
    signal_number: Optional[int]
    cpu_seconds: float
    exit_status: Optional[int]

    def budget_text(self, limits: Limits) -> Optional[str]:
        """The budget that ran out, as printed, or None if the worker died for another reason."""
        if self.signal_number == signal.SIGXCPU or (
                self.signal_number == signal.SIGKILL and self.cpu_seconds >= limits.cpu_seconds):
            return f"CPU time budget of {limits.cpu_seconds:g} s"
        if self.signal_number in (signal.SIGKILL, signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS):
            return budget.memory_budget_text()
        return None


def can_fork() -> bool:
    return hasattr(os, "fork")


def _set_limits(limits: Limits) -> None:
    soft_cpu = int(math.ceil(limits.cpu_seconds)) + CPU_GRACE_SECONDS
    _lower(resource.RLIMIT_CPU, soft_cpu, soft_cpu + CPU_GRACE_SECONDS)
    if limits.memory_bytes is not None:
        _lower(resource.RLIMIT_AS, limits.memory_bytes, None)


def _lower(which: int, soft: int, hard: Optional[int]) -> None:
    """Lower a limit; never raise one that is already lower (e.g. the user's `ulimit -v`)."""
    inf = resource.RLIM_INFINITY
    cur_soft, cur_hard = resource.getrlimit(which)
    if cur_soft != inf:
        soft = min(soft, cur_soft)
    if hard is None or (cur_hard != inf and cur_hard < hard):
        hard = cur_hard
    if hard != inf:
        soft = min(soft, hard)
    try:
        resource.setrlimit(which, (soft, hard))
    except (ValueError, OSError):
        pass


def _child(job: Callable[[], Outcome], limits: Limits, write_fd: int, shared: mmap.mmap,
           hand_back: bool = False) -> None:
    """In the forked worker: never returns. `hand_back`: report what it warmed (files follow)."""
    code = 0
    try:
        modules_before = set(sys.modules) if hand_back else set()
        if hand_back:
            from . import memo
            memo.start_journal()
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: the parent reports it, once
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)

        def publish(step: str) -> None:
            data = step.encode("utf-8", "replace")[:STEP_BYTES - 1]
            shared[:len(data) + 1] = data + b"\0"

        budget.set_step_listener(publish)
        _set_limits(limits)
        try:
            outcome = job()
        except MemoryError as exc:
            step = getattr(exc, "uap_step", budget.current_step())
            outcome = Outcome("", f"uapcheck: the {budget.memory_budget_text()} ran out in: {step}\n", 2)
        if hand_back:
            try:
                outcome = replace(outcome, warmed=_warmth(modules_before))
            except Exception:  # noqa: BLE001 - warming is an optimisation, never a failure
                pass
        payload = pickle.dumps(outcome)
        view = memoryview(payload)
        while view:
            n = os.write(write_fd, view)
            view = view[n:]
    except BaseException:  # noqa: BLE001 - the parent reports a worker that ends without a payload
        code = 70
    finally:
        os._exit(code)


@dataclass
class _Running:
    index: int
    pid: int
    fd: int
    shared: mmap.mmap
    chunks: list


def _finish(run: _Running, on_death: Callable[[int, Death], Outcome]) -> Outcome:
    _, status, usage = os.wait4(run.pid, 0)
    os.close(run.fd)
    data = b"".join(run.chunks)
    if data:
        try:
            outcome = pickle.loads(data)
            if isinstance(outcome, Outcome):
                run.shared.close()
                if outcome.warmed is not None:
                    try:
                        _take_in(outcome.warmed)
                    except Exception:  # noqa: BLE001 - warming is an optimisation, never a failure
                        pass
                    outcome = replace(outcome, warmed=None)
                return outcome
        except Exception:  # noqa: BLE001 - a truncated payload: the worker died while writing
            pass
    raw = run.shared[:STEP_BYTES]
    run.shared.close()
    step = raw.split(b"\0", 1)[0].decode("utf-8", "replace") or "starting"
    death = Death(step, os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
                  usage.ru_utime + usage.ru_stime, os.WEXITSTATUS(status) if os.WIFEXITED(status) else None)
    return on_death(run.index, death)


def run_all(jobs: Iterable[Callable[[], Outcome]], parallel: int, limits: Limits,
            on_death: Callable[[int, Death], Outcome]) -> Iterator[Outcome]:
    """Run every job in its own worker, at most `parallel` at once; yield outcomes in job order."""
    pending = list(enumerate(jobs))
    pending.reverse()
    running: dict[int, _Running] = {}
    done: dict[int, Outcome] = {}
    next_out = 0
    sel = selectors.DefaultSelector()
    try:
        while pending or running:
            while pending and len(running) < max(parallel, 1):
                index, job = pending.pop()
                shared = mmap.mmap(-1, STEP_BYTES)
                read_fd, write_fd = os.pipe()
                # The worker's collector then skips every object it inherits: it neither spends time
                # on them nor writes to (and so copies) the pages they share with the parent.
                gc.freeze()
                pid = os.fork()
                if pid == 0:
                    os.close(read_fd)
                    _child(job, limits, write_fd, shared, hand_back=bool(pending))
                os.close(write_fd)
                run = _Running(index, pid, read_fd, shared, [])
                running[read_fd] = run
                sel.register(read_fd, selectors.EVENT_READ, run)
            for key, _ in sel.select():
                run = key.data
                chunk = os.read(run.fd, 1 << 16)
                if chunk:
                    run.chunks.append(chunk)
                    continue
                sel.unregister(run.fd)
                del running[run.fd]
                done[run.index] = _finish(run, on_death)
            while next_out in done:
                yield done.pop(next_out)
                next_out += 1
    finally:
        # Interrupted (Ctrl-C) or the reader went away: end our own workers, by their ids.
        for run in running.values():
            try:
                os.kill(run.pid, signal.SIGKILL)
                os.waitpid(run.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            os.close(run.fd)
        sel.close()
