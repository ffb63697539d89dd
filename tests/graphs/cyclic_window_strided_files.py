"""One softmax head `window(w) cyclic + strided(s)` as a `.uap` file, checked and certified once per test session
(shared by the tests of Theorems F26, F200, F201 and F205)."""
from __future__ import annotations

import copy
import functools
import json

import uapcheck
from uapcheck import certfile

SOURCE = """tokens {n}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern window({w}) cyclic + strided({s})
}}
"""


@functools.lru_cache(maxsize=None)
def checked(n, w: int, s: int):
    """The Result of the file at `tokens n` (a symbol name or an integer)."""
    return uapcheck.check(SOURCE.format(n=n, w=w, s=s), "t.uap")


@functools.lru_cache(maxsize=None)
def _certificate_text(n, w: int, s: int) -> str:
    return json.dumps(certfile.build(checked(n, w, s), SOURCE.format(n=n, w=w, s=s)))


def certificate(n, w: int, s: int) -> dict:
    """A fresh copy of the file's certificate (a test may tamper with it)."""
    return copy.deepcopy(json.loads(_certificate_text(n, w, s)))


def step_of(cert: dict, rule: str) -> dict:
    """The certificate's step of this rule."""
    return next(x for x in cert["steps"] if x["rule"] == rule)
