"""The verifier's own CPU-time budget for one certificate (it shares no code with the engines' budget):
a profiling timer that raises OutOfTime in the main thread. Code running inside a C call (nauty) is
interrupted only when it returns; the worker process's CPU limit (uapcheck.worker) covers that. A C call
that reads Python attributes can turn the timer's OutOfTime into an error of its own (pynauty: "missing
'vertex_coloring' attribute"): the budget object records that the timer fired, so the caller reports the
budget, not that error."""
from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator, Optional


class OutOfTime(BaseException):
    """The certificate's CPU-time budget ran out (a BaseException: no checker's handler swallows it)."""


class Budget:
    """Whether the timer has fired (set before OutOfTime is raised)."""

    def __init__(self) -> None:
        self.expired = False


@contextlib.contextmanager
def cpu_budget(seconds: Optional[float]) -> Iterator[Budget]:
    budget = Budget()
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if seconds is None or not usable:
        yield budget
        return

    def ran_out(signum, frame):
        budget.expired = True
        raise OutOfTime()
    previous = signal.signal(signal.SIGPROF, ran_out)
    signal.setitimer(signal.ITIMER_PROF, max(seconds, 0.001))
    try:
        yield budget
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
