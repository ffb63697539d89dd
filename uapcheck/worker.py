"""Per-file isolation: each file is checked in a forked worker process with an address-space limit
(RLIMIT_AS, `--memory`) and a CPU-time limit (RLIMIT_CPU, the `--budget` plus a grace period).

The worker reports through a pipe: what to print on standard output and standard error, and the
exit code. Inside it, `budget.file_budget` ends a run that runs out of CPU time at a safe point with
an INCONCLUSIVE verdict; RLIMIT_CPU is the backstop for C code that never returns to Python, and
RLIMIT_AS turns a runaway allocation into a MemoryError instead of an out-of-memory kill. A worker
that dies anyway (killed by the kernel for its CPU limit, or by a signal) is reported by the parent
with the step it was in, which the worker keeps in shared memory: as the budget that ran out when the
signal says so (`Death.budget_text`), else as a crash of that step, naming the signal.

`run_all` runs at most `jobs` workers at once and yields the outcomes in the order of the jobs.
Workers are forked after every import, so each one starts warm (with `prepare`, as the command line gives a lone
worker, the worker imports the engines itself when it starts, and no page of theirs is copied on write), and a worker
checks one file after another (the parent hands it the next file's index when it reports one), so that a batch pays for
an import, a cache entry of uapcheck/memo.py or SymPy's own caches once per worker, as a single
process would, and not once per file. Each file still gets its own CPU-time limit (RLIMIT_CPU is
moved to the worker's CPU time so far plus the file's budget before each file), and the address
space limit holds throughout. A worker whose file ran out of a budget or of memory reports and
exits, so the next file starts in a fresh worker; one that dies is replaced.
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
import struct
import sys
from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Optional

from . import budget

STEP_BYTES = 512
CPU_GRACE_SECONDS = 5
_CPU_AT = STEP_BYTES  # where a worker keeps the CPU time it had used when its current file began
_FRAME = struct.Struct("<Q?")  # each pickled outcome on the report pipe: its length, "the worker exits"
_JOB = struct.Struct("<q")  # a job index on the command pipe (negative: stop)
# The cyclic collector's first threshold in a worker. SymPy makes many short-lived container objects and
# few cycles: at Python's 700 the collector ran about 70 times over the original 57 catalog files, about 4 %
# of the worker's time, for almost nothing; at this threshold it runs a few times. What the worker
# inherits is frozen (_spawn), so no pass ever walks the engines' imports.
GC_THRESHOLD = 20_000


@dataclass(frozen=True)
class Outcome:
    stdout: str
    stderr: str
    code: int
    summary: Optional[object] = None  # verdict and expect of a checked file, for the run's summary
    cacheable: bool = False  # a function of the file and the options alone (uapcheck/result_cache.py)


@dataclass(frozen=True)
class Limits:
    cpu_seconds: float
    memory_bytes: Optional[int]  # None: no address-space limit of our own


#: The share of the memory limit a worker's peak resident memory must have reached for a crash by SIGSEGV, SIGBUS or
#: SIGABRT to be read as the limit running out: under RLIMIT_AS an allocation fails when it would pass the limit, and a
#: C library that does not check for that (or aborts on it, as C++'s std::bad_alloc uncaught, or GMP) then crashes;
#: a structure that grows by doubling asks for about what it holds, so its holder is at half the limit or more.
#: Below that, the crash is no evidence of the limit: it is reported as a crash of the step (an internal error).
MEMORY_EVIDENCE_SHARE = 0.5
_CRASH_SIGNALS = (signal.SIGSEGV, signal.SIGBUS, signal.SIGABRT)


@dataclass(frozen=True)
class Death:
    """How a worker ended without reporting: the step it was in, and why."""
    step: str
    signal_number: Optional[int]
    cpu_seconds: float  # spent on the file it was checking
    exit_status: Optional[int]
    peak_bytes: Optional[int] = None  # its peak resident memory (the kernel's ru_maxrss), when known

    def budget_text(self, limits: Limits) -> Optional[str]:
        """The budget that ran out, as printed, or None if the worker died for another reason (a crash: `how`).

        SIGXCPU, or SIGKILL after the file's CPU time, is the CPU limit; another SIGKILL is the kernel's
        out-of-memory killer (nothing of ours sends SIGKILL to a worker that is still checking a file). SIGSEGV,
        SIGBUS and SIGABRT are the memory limit only when the evidence says so: a memory limit was set and the
        worker's peak resident memory reached MEMORY_EVIDENCE_SHARE of it; otherwise a library crashed."""
        if self.signal_number == signal.SIGXCPU or (
                self.signal_number == signal.SIGKILL and self.cpu_seconds >= limits.cpu_seconds):
            return f"CPU time budget of {limits.cpu_seconds:g} s"
        if self.signal_number == signal.SIGKILL or self.near_memory_limit(limits):
            return budget.memory_budget_text()
        return None

    def near_memory_limit(self, limits: Limits) -> bool:
        """A crash signal with the worker's peak resident memory at MEMORY_EVIDENCE_SHARE of its limit or above."""
        return (self.signal_number in _CRASH_SIGNALS and limits.memory_bytes is not None
                and self.peak_bytes is not None and self.peak_bytes >= limits.memory_bytes * MEMORY_EVIDENCE_SHARE)

    def how(self) -> str:
        """How the worker ended, as printed: `the signal SIGSEGV (Segmentation fault)`, or its exit status."""
        if self.signal_number is None:
            return f"exit status {self.exit_status}"
        try:
            name = signal.Signals(self.signal_number).name
        except ValueError:
            return f"signal {self.signal_number}"
        described = signal.strsignal(self.signal_number)
        return f"the signal {name}" + (f" ({described})" if described else "")


def can_fork() -> bool:
    return hasattr(os, "fork")


def _cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _set_memory_limit(limits: Limits) -> None:
    if limits.memory_bytes is not None:
        _lower(resource.RLIMIT_AS, limits.memory_bytes, None)


def _set_cpu_limit(used: float, limits: Limits, original: tuple[int, int]) -> None:
    """RLIMIT_CPU for the next file: the CPU time used so far, the budget and a grace period (never
    above the limits the worker started with, e.g. the user's `ulimit -t`). Its soft limit sends
    SIGXCPU, whose default action ends the worker; the hard limit is left as it was, since a later
    file needs a higher one and a process cannot raise its hard limit."""
    inf = resource.RLIM_INFINITY
    soft = int(math.ceil(used + limits.cpu_seconds)) + CPU_GRACE_SECONDS
    for bound in original:
        if bound != inf:
            soft = min(soft, bound)
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, original[1]))
    except (ValueError, OSError):
        pass


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


def _read_exact(fd: int, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            break
        data += chunk
    return data


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _serve(jobs: list, limits: Limits, command_fd: int, report_fd: int, shared: mmap.mmap,
           prepare: Optional[Callable[[], None]] = None) -> None:
    """In the forked worker: check the files the parent names, one after another. Never returns. `prepare`, when
    given, runs first (before the limits, with the cyclic collector paused, as the parent's imports run)."""
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: the parent reports it, once
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)  # the CPU limit ends the worker
        if prepare is not None:
            collecting = gc.isenabled()
            gc.disable()
            try:
                prepare()
            finally:
                gc.freeze()  # what the imports made is kept for good, as the parent's imports are (`_spawn`)
                if collecting:
                    gc.enable()
        gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])

        def publish(step: str) -> None:
            data = step.encode("utf-8", "replace")[:STEP_BYTES - 1]
            shared[:len(data) + 1] = data + b"\0"

        budget.set_step_listener(publish)
        original_cpu = resource.getrlimit(resource.RLIMIT_CPU)
        _set_memory_limit(limits)
        while True:
            head = _read_exact(command_fd, _JOB.size)
            if len(head) < _JOB.size:
                break
            (index,) = _JOB.unpack(head)
            if index < 0:
                break
            publish("starting")
            used = _cpu_used()
            struct.pack_into("<d", shared, _CPU_AT, used)
            _set_cpu_limit(used, limits, original_cpu)
            raised = (budget.BudgetExceeded.raised, budget.FileBudgetExceeded.raised)
            retire = False
            try:
                outcome = jobs[index]()
            except MemoryError as exc:
                step = getattr(exc, "uap_step", budget.current_step())
                outcome = Outcome("", f"uapcheck: the {budget.memory_budget_text()} ran out in: {step}\n", 2)
                retire = True
            # A file that ran out of a budget may have left half-built state behind: the next
            # file starts in a fresh worker.
            retire = retire or (budget.BudgetExceeded.raised, budget.FileBudgetExceeded.raised) != raised
            payload = pickle.dumps(outcome)
            _write_all(report_fd, _FRAME.pack(len(payload), retire) + payload)
            if retire:
                break
        # The worker ends with os._exit (no exit handlers): the dataclass code it compiled (the engines' classes, when
        # it imported them itself) is stored here, or every later run would compile it again (uapcheck/dataclass_code.py).
        from . import dataclass_code
        dataclass_code.save()
    except BaseException:  # noqa: BLE001 - the parent reports a worker that ends without a payload
        code = 70
    finally:
        os._exit(code)


class _Worker:
    def __init__(self, pid: int, command_fd: int, report_fd: int, shared: mmap.mmap) -> None:
        self.pid, self.command_fd, self.report_fd, self.shared = pid, command_fd, report_fd, shared
        self.index: Optional[int] = None  # the job it is checking
        self.leaving = False  # it said it exits after its report: it gets no further job
        self.buffer = bytearray()

    def idle(self) -> bool:
        return self.index is None and not self.leaving

    def give(self, index: int) -> bool:
        self.index = index
        try:
            _write_all(self.command_fd, _JOB.pack(index))
            return True
        except OSError:  # it has just died: its report pipe ends, and the job goes to another worker
            return False

    def frames(self) -> Iterator[Outcome]:
        while len(self.buffer) >= _FRAME.size:
            size, leaving = _FRAME.unpack_from(self.buffer)
            if len(self.buffer) < _FRAME.size + size:
                return
            self.leaving = self.leaving or leaving
            data = bytes(self.buffer[_FRAME.size:_FRAME.size + size])
            del self.buffer[:_FRAME.size + size]
            yield pickle.loads(data)

    def close(self) -> None:
        for fd in (self.command_fd, self.report_fd):
            try:
                os.close(fd)
            except OSError:
                pass


def _spawn(jobs: list, limits: Limits, others: list[_Worker],
           prepare: Optional[Callable[[], None]] = None) -> _Worker:
    shared = mmap.mmap(-1, STEP_BYTES + 8)
    command_r, command_w = os.pipe()
    report_r, report_w = os.pipe()
    # The worker's collector then skips every object it inherits: it neither spends time on them
    # nor writes to (and so copies) the pages it shares with the parent.
    gc.freeze()
    pid = os.fork()
    if pid == 0:
        os.close(command_w)
        os.close(report_r)
        for other in others:  # a sibling's pipes: holding them would keep its command pipe open
            other.close()
        _serve(jobs, limits, command_r, report_w, shared, prepare)
    os.close(command_r)
    os.close(report_w)
    return _Worker(pid, command_w, report_r, shared)


def _death(worker: _Worker, status: int, usage) -> Death:
    raw = worker.shared[:STEP_BYTES]
    (started,) = struct.unpack_from("<d", worker.shared, _CPU_AT)
    step = raw.split(b"\0", 1)[0].decode("utf-8", "replace") or "starting"
    return Death(step, os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
                 max(0.0, usage.ru_utime + usage.ru_stime - started),
                 os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
                 usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024))  # bytes on macOS, KiB elsewhere


def _hand_out(workers: list[_Worker], pending: deque) -> None:
    """The next pending jobs to the idle workers."""
    for w in workers:
        if w.idle() and pending:
            if w.give(pending[0]):
                pending.popleft()
            else:
                w.index, w.leaving = None, True


def _ended(w: _Worker, pending: deque, done: dict, on_death: Callable[[int, Death], Outcome]) -> None:
    """A worker's report pipe ended: reap it; its job, if any, is re-queued or reported dead."""
    _, status, usage = os.wait4(w.pid, 0)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGINT:
        # Ctrl-C reached the worker (whose SIGINT is the default action) before the parent's own: the run is
        # interrupted, and the parent reports it once, as for its own SIGINT
        w.close()
        w.shared.close()
        raise KeyboardInterrupt
    if w.index is not None:
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            pending.appendleft(w.index)  # it left before reading this job: not run
        else:
            done[w.index] = on_death(w.index, _death(w, status, usage))
    w.close()
    w.shared.close()


def _end_all(workers: list[_Worker]) -> None:
    """Done, interrupted (Ctrl-C) or the reader went away: end our own workers, by their ids."""
    for w in workers:
        if w.index is not None:
            try:
                os.kill(w.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        w.close()  # an idle worker reads the end of its command pipe and exits
        try:
            os.waitpid(w.pid, 0)
        except ChildProcessError:
            pass
        w.shared.close()


def run_all(jobs: Iterable[Callable[[], Outcome]], parallel: int, limits: Limits,
            on_death: Callable[[int, Death], Outcome],
            prepare: Optional[Callable[[], None]] = None) -> Iterator[Outcome]:
    """Run every job in a worker, at most `parallel` workers at once; yield outcomes in job order. `prepare` runs
    in each worker when it starts (`_serve`)."""
    jobs = list(jobs)
    pending = deque(range(len(jobs)))
    workers: list[_Worker] = []
    done: dict[int, Outcome] = {}
    next_out = 0
    sel = selectors.DefaultSelector()
    try:
        while pending or any(w.index is not None for w in workers):
            _hand_out(workers, pending)
            while pending and len([w for w in workers if not w.leaving]) < max(parallel, 1):
                w = _spawn(jobs, limits, workers, prepare)
                workers.append(w)
                sel.register(w.report_fd, selectors.EVENT_READ, w)
                _hand_out([w], pending)
            for key, _ in sel.select():
                w = key.data
                chunk = os.read(w.report_fd, 1 << 16)
                if chunk:
                    w.buffer += chunk
                    for outcome in w.frames():
                        if w.index is not None:
                            done[w.index] = outcome
                        w.index = None
                    continue
                sel.unregister(w.report_fd)
                workers.remove(w)
                _ended(w, pending, done, on_death)
            while next_out in done:
                yield done.pop(next_out)
                next_out += 1
    finally:
        _end_all(workers)
        sel.close()
