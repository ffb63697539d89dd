"""One softmax head and a relu FFN at a real length, checked in this process with its CPU time measured (the tests
that a large instance is decided in seconds)."""
from __future__ import annotations

import resource

import uapcheck


def timed_check(pattern: str, n: int):
    """The Result of the file at `tokens n`, its steps by rule, and the CPU seconds (user time) the check took."""
    before = resource.getrusage(resource.RUSAGE_SELF)
    r = uapcheck.check(f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\nffn relu\n",
                       "t.uap")
    after = resource.getrusage(resource.RUSAGE_SELF)
    return r, {s.rule: s for s in r.root.walk()}, after.ru_utime - before.ru_utime
