"""CPU-time budgets: one for the whole file, and local ones for SymPy calls that have no timeout.

Every budget counts the process's CPU time (``time.process_time``, enforced by the ``ITIMER_PROF``
timer), never wall-clock time, so a file's verdict does not depend on how busy the machine is.

Two kinds of budget, two exceptions:

* ``time_limit(step, seconds)``: a *local* budget. A rule that runs out of it raises
  ``BudgetExceeded`` and the rule reports its premise undecided ("gave up on this step"). Its seconds
  are those at the default ``--budget`` (60 s) and a share of the run's budget otherwise (``share``).
* ``file_budget(seconds)``: the *whole file's* budget (``--budget``). Running out raises
  ``FileBudgetExceeded``, a ``BaseException``: no rule's ``except Exception`` or ``except
  BudgetExceeded`` can swallow it, so it always reaches ``derive.check_spec``, which reports the file
  INCONCLUSIVE naming the step and the budget.

Budgets nest: the timer is armed for the earliest deadline on the stack, and a deadline that has
passed keeps firing until its ``with`` block is left, so a rule that catches a local budget cannot
outlive an enclosing one.

C code. A signal handler runs only between Python bytecodes, but C extensions (python-igraph) call
``PyErr_CheckSignals`` and can turn an exception raised there into ``SystemError``. So a budget
remembers that it fired, and leaving its ``with`` block with *any* exception after it fired raises
the budget's own exception instead. C code that never checks for signals is bounded by the worker
process's ``RLIMIT_CPU`` (see ``uapcheck.worker``).

Imports. A budget never fires inside an import: an exception raised while a module runs its top-level code leaves
what that code had done so far (its submodules, the registrations it made in other modules) in ``sys.modules``
beside a module that is missing, and a later import of the same package in the process can then fail (a lazy import
of SymPy's or igraph's submodules happens in the middle of a rule). The timer defers to the import's end (it fires
again shortly, as in a garbage-collector callback); imports are bounded in time, and the worker's ``RLIMIT_CPU``
bounds the rest.

The name of the innermost step is kept in ``current_step()`` (and, in a worker, in shared memory) so
that a run that is killed can still be reported with the step it was in.
"""
from __future__ import annotations

import contextlib
import gc
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable, Optional

DEFAULT_SECONDS = 5.0
DEFAULT_FILE_SECONDS = 60.0


class BudgetExceeded(Exception):
    """A local budget ran out: the rule that set it gives up on its step."""

    #: How many were raised in this process; caches (uapcheck/memo.py) keep nothing computed while one was.
    raised = 0

    def __init__(self, step: str, seconds: float):
        BudgetExceeded.raised += 1
        super().__init__(f"CPU time budget of {seconds:g} s ran out in: {step}")
        self.step = step
        self.seconds = seconds


class FileBudgetExceeded(BaseException):
    """The whole file's budget (CPU time or memory) ran out: the file is INCONCLUSIVE."""

    #: How many were raised in this process (a worker that saw one starts no further file).
    raised = 0

    def __init__(self, step: str, budget: str):
        FileBudgetExceeded.raised += 1
        super().__init__(f"the {budget} ran out in: {step}")
        self.step = step
        self.budget = budget


@dataclass(eq=False)
class _Frame:
    step: str
    deadline: Optional[float]  # process CPU time, or None for a named stage without its own limit
    seconds: float = 0.0
    whole_file: bool = False
    fired: bool = False


_scale = 1.0
file_seconds = DEFAULT_FILE_SECONDS  # the CLI's --budget
memory_limit: Optional[str] = None  # the worker's address-space limit, as printed (e.g. "4 GiB")
#: The CLI's --memory in bytes (its default a fixed number, not the machine's memory): what the engines plan their
#: sizes on (graphs/build.arc_budget), so whether a graph is built depends on the file's options alone
DEFAULT_MEMORY_BYTES = 4 << 30
memory_bytes = DEFAULT_MEMORY_BYTES
_stack: list[_Frame] = []
_step_listener: Optional[Callable[[str], None]] = None


def set_scale(factor: float) -> None:
    """Multiply every local budget (tests shrink them to make a step run out; no flag sets it)."""
    global _scale
    _scale = factor


def scale() -> float:
    """The factor set by `set_scale` (1 unless a test changed it)."""
    return _scale


def set_step_listener(listener: Optional[Callable[[str], None]]) -> None:
    """Called with the innermost step's name whenever it changes (a worker publishes it)."""
    global _step_listener
    _step_listener = listener


def configure(seconds: Optional[float] = None, memory: Optional[str] = None,
              memory_size: Optional[int] = None) -> None:
    """The whole file's CPU budget, the memory limit's printed size and its bytes (the CLI's --budget/--memory)."""
    global file_seconds, memory_limit, memory_bytes
    if seconds is not None:
        file_seconds = seconds
    memory_limit = memory
    if memory_size is not None:
        memory_bytes = memory_size


def memory_budget_text() -> str:
    return f"memory limit of {memory_limit}" if memory_limit else "available memory"


def current_step() -> str:
    return _stack[-1].step if _stack else "starting"


def _usable() -> bool:
    return threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")


def _publish() -> None:
    if _step_listener is not None:
        _step_listener(current_step())


def _in_gc_callback(frame) -> bool:
    """Whether the interrupted code runs inside a garbage-collector callback (hypothesis installs one).

    Python cannot propagate an exception out of such a callback: it reports it as "unraisable" and
    drops it. So the timer does not raise there; it fires again shortly, outside the callback.
    """
    if not gc.callbacks:
        return False
    codes = set()
    for callback in gc.callbacks:
        function = getattr(callback, "__func__", callback)
        code = getattr(function, "__code__", None)
        if code is not None:
            codes.add(code)
    while frame is not None:
        if frame.f_code in codes:
            return True
        frame = frame.f_back
    return False


#: the code of the import machinery: a frame running it is an import in progress (``importlib._bootstrap`` runs a
#: module's top-level code below ``_call_with_frames_removed``, frozen or not)
_IMPORT_FILES = ("<frozen importlib._bootstrap>", "<frozen importlib._bootstrap_external>")
_IMPORT_MODULES = ("importlib._bootstrap", "importlib._bootstrap_external", "_frozen_importlib",
                   "_frozen_importlib_external")


def in_import(frame) -> bool:
    """Whether the interrupted code runs inside an import (a module's top-level code, or the machinery finding it)."""
    while frame is not None:
        if frame.f_code.co_filename in _IMPORT_FILES or frame.f_globals.get("__name__") in _IMPORT_MODULES:
            return True
        frame = frame.f_back
    return False


def _deferred(frame) -> bool:
    """Whether the timer must not raise here: inside a garbage-collector callback or an import."""
    return _in_gc_callback(frame) or in_import(frame)


def _on_timer(signum, frame) -> None:
    now = time.process_time()
    expired = [f for f in _stack if f.deadline is not None and f.deadline <= now]
    if not expired:
        _arm()
        return
    if _deferred(frame):  # fire again shortly, outside the callback or once the import has ended
        _arm(minimum=0.01)
        return
    # Re-arm first: an exception raised where Python ignores it (a garbage-collector callback, a
    # destructor) or a careless `except` must not end the budget; the timer fires again shortly.
    _arm(minimum=0.05)
    outer = next((f for f in expired if f.whole_file), None)
    if outer is not None:
        outer.fired = True
        raise FileBudgetExceeded(current_step(), f"CPU time budget of {outer.seconds:g} s")
    # The outermost expired local budget: inner rules that catch it are left by their frames, and
    # re-arming on each exit fires again until the budget's own frame is left.
    target = expired[0]
    target.fired = True
    raise BudgetExceeded(target.step, target.seconds)


def _raise_if_expired() -> None:
    """Entering a budget when an enclosing one has already run out raises at once, as the timer would:
    re-arming the timer on every entry and exit would otherwise postpone it while steps stay short."""
    now = time.process_time()
    expired = [f for f in _stack if f.deadline is not None and f.deadline <= now]
    if not expired or in_import(sys._getframe(1)):  # inside an import the timer raises once it has ended
        return
    outer = next((f for f in expired if f.whole_file), None)
    if outer is not None:
        outer.fired = True
        raise FileBudgetExceeded(current_step(), f"CPU time budget of {outer.seconds:g} s")
    expired[0].fired = True
    raise BudgetExceeded(expired[0].step, expired[0].seconds)


def _arm(minimum: float = 0.001) -> None:
    deadlines = [f.deadline for f in _stack if f.deadline is not None]
    if not deadlines:
        signal.setitimer(signal.ITIMER_PROF, 0)
        return
    remaining = min(deadlines) - time.process_time()
    signal.setitimer(signal.ITIMER_PROF, max(remaining, minimum))


@contextlib.contextmanager
def _budget(frame: _Frame):
    usable = _usable()
    if usable and not _stack:
        signal.signal(signal.SIGPROF, _on_timer)
    if usable and frame.deadline is not None:
        # Never extend an enclosing deadline: keep the tighter.
        frame.deadline = min([frame.deadline] + [f.deadline for f in _stack if f.deadline is not None])
        _raise_if_expired()
    _stack.append(frame)
    _publish()
    if usable:
        _arm()
    try:
        yield
    except (FileBudgetExceeded, GeneratorExit):
        # GeneratorExit: a generator that yields inside a budget is closed (or collected) with its frame still open;
        # it must close quietly, not turn into the budget's exception ("Exception ignored in: <generator ...>")
        raise
    except BaseException as exc:
        if isinstance(exc, MemoryError) and not hasattr(exc, "uap_step"):
            try:
                exc.uap_step = frame.step  # type: ignore[attr-defined]  # the innermost step, for the report
            except AttributeError:
                pass
        fired_file = next((f for f in _stack if f.whole_file and f.fired), None)
        if fired_file is not None:
            raise FileBudgetExceeded(frame.step, f"CPU time budget of {fired_file.seconds:g} s") from exc
        if frame.fired and not isinstance(exc, BudgetExceeded):
            # The timer fired inside C code and came back as another exception (e.g. SystemError).
            raise BudgetExceeded(frame.step, frame.seconds) from exc
        if isinstance(exc, BudgetExceeded) and frame.deadline is not None:
            from sympy.core.cache import clear_cache  # half-built cache entries after an interrupt
            clear_cache()
        raise
    finally:
        for i in range(len(_stack) - 1, -1, -1):
            if _stack[i] is frame:
                del _stack[i]
                break
        _publish()
        if usable:
            _arm()


def share(seconds: float) -> float:
    """A local clock's seconds as a share of the run's budget: `seconds` at the default --budget
    (DEFAULT_FILE_SECONDS), in proportion to --budget otherwise (`--budget 5` gives a step a twelfth of its
    seconds, `--budget 300` five times them), times the scale a test sets. No step keeps a fixed clock, so a
    longer budget lets every step run longer and a shorter one ends each sooner."""
    return seconds * _scale * file_seconds / DEFAULT_FILE_SECONDS


def time_limit(step: str, seconds: float = DEFAULT_SECONDS):
    """A local CPU-time budget around one step, `seconds` at the default --budget and a share of the run's budget
    (`share`) otherwise; raises BudgetExceeded when it runs out."""
    seconds = share(seconds)
    return _budget(_Frame(step, time.process_time() + seconds, seconds))


def stage(step: str):
    """Name a stage (for the report of a budget that runs out in it) without a limit of its own."""
    return _budget(_Frame(step, None))


def enclosing_file_budget_expired() -> bool:
    """True if a whole-file budget still on the stack has run out (a check nested in another one,
    e.g. the suggestion search re-deriving edited files, must not swallow the outer budget)."""
    now = time.process_time()
    return any(f.whole_file and f.deadline is not None and f.deadline <= now for f in _stack)


def file_budget(seconds: Optional[float] = None):
    """The whole file's CPU-time budget (raises FileBudgetExceeded when it runs out)."""
    seconds = file_seconds if seconds is None else seconds
    return _budget(_Frame("starting", time.process_time() + seconds, seconds, whole_file=True))
