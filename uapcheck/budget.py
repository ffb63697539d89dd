"""Time budgets for SymPy calls, which have no timeout of their own.

SIGALRM interrupts pure-Python SymPy within milliseconds of the deadline. After an interrupt the
SymPy caches may hold half-built entries, so they are cleared. Outside the main thread (where
signals cannot be used) the call runs unbudgeted; the CLI always runs in the main thread.
"""
from __future__ import annotations

import contextlib
import signal
import threading
import time

DEFAULT_SECONDS = 5.0


class BudgetExceeded(Exception):
    #: How many were raised in this process; caches (uapcheck/memo.py) keep nothing computed while one was.
    raised = 0

    def __init__(self, step: str, seconds: float):
        BudgetExceeded.raised += 1
        super().__init__(f"time budget of {seconds:g} s ran out in: {step}")
        self.step = step
        self.seconds = seconds


_scale = 1.0


def set_scale(factor: float) -> None:
    """Multiply every budget (the CLI's --budget-scale), e.g. on slow machines."""
    global _scale
    _scale = factor


@contextlib.contextmanager
def time_limit(step: str, seconds: float = DEFAULT_SECONDS):
    seconds = seconds * _scale
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return
    previous_deadline = signal.getitimer(signal.ITIMER_REAL)[0]
    if previous_deadline and previous_deadline < seconds:
        seconds = previous_deadline  # an enclosing budget is tighter: keep it

    def on_alarm(signum, frame):
        raise BudgetExceeded(step, seconds)

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.monotonic()
    try:
        yield
    except BudgetExceeded:
        from sympy.core.cache import clear_cache
        clear_cache()
        raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if previous_deadline:
            remaining = previous_deadline - (time.monotonic() - start)
            signal.setitimer(signal.ITIMER_REAL, max(remaining, 0.001))
