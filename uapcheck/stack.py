"""Room for deep expressions: the recursion limit and the C stack that the engines run with.

The parser bounds an expression's nesting (200 parentheses, 400 operations; docs/language.md §1), but
lowering expands a function into several SymPy levels (`sigmoid(z)` is 1/(1 + e^(−z)): four), and
SymPy walks a tree with several Python frames per level (its assumptions, `simplify`, printing).
Under Python's default limit of 1,000 frames an input within the parser's bounds — `sigmoid` nested 60
deep, `exp` nested 199 deep in a reweight — raised RecursionError inside the analysis. The derivation
therefore runs with a limit of RECURSION_LIMIT frames, and the soft stack limit of the process is
raised to STACK_BYTES (within its hard limit) so that the C stack under those frames (about 500 bytes
a frame through C calls) stays far below what the thread may grow to. When the stack cannot be
raised, the limit is scaled to the stack there is."""
from __future__ import annotations

import contextlib
import resource
import sys
from typing import Iterator

RECURSION_LIMIT = 20_000
STACK_BYTES = 64 * 2 ** 20
BYTES_PER_FRAME = 2_048  # the room kept per allowed frame (measured use: about 500 bytes)


def _raise_stack() -> int:
    """Raise the soft RLIMIT_STACK towards STACK_BYTES (never lower it); the soft limit in bytes after."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    except (ValueError, OSError):  # pragma: no cover - every POSIX system has it
        return 8 * 2 ** 20
    if soft == resource.RLIM_INFINITY or soft >= STACK_BYTES:
        return STACK_BYTES
    target = STACK_BYTES if hard == resource.RLIM_INFINITY else min(STACK_BYTES, hard)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_STACK, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def allowed_frames() -> int:
    """The recursion limit the engines get: RECURSION_LIMIT, or less when the stack is smaller."""
    return max(sys.getrecursionlimit(), min(RECURSION_LIMIT, _raise_stack() // BYTES_PER_FRAME))


@contextlib.contextmanager
def deep_recursion() -> Iterator[None]:
    """Run the body with the engines' recursion limit, restoring the previous limit after it."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(allowed_frames())
    try:
        yield
    finally:
        sys.setrecursionlimit(before)
