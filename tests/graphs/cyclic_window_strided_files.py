"""One softmax head `window(w) cyclic + strided(s)`: its pattern, the order of its reference arcs' group, and the head
as a `.uap` file, checked and certified once per test session (shared by the tests of Theorems F26, F200, F201 and
F205)."""
from __future__ import annotations

import copy
import functools
import json

import igraph

import uapcheck
from uapcheck import certfile
from uapcheck.spec import PatternUnion, Strided, Window

from .reference import attends, count_automorphisms

SOURCE = """tokens {n}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern window({w}) cyclic + strided({s})
}}
"""


def pattern(w: int, s: int) -> PatternUnion:
    return PatternUnion((Window(w, True), Strided(s)))


def reference_order(w: int, s: int, n: int) -> int:
    """|Aut| of the reference arcs: every partial map extended position by position (n ≤ 24), else BLISS on the
    undirected graph of the reference arcs (the pattern is symmetric)."""
    arcs = attends(pattern(w, s), n)
    assert all((j, i) in arcs for (i, j) in arcs)
    if n <= 24:
        degree = {v: sum(1 for (i, _) in arcs if i == v) for v in range(1, n + 1)}
        return count_automorphisms(n, lambda u, v: (u, v) in arcs, invariant=degree.__getitem__)
    return igraph.Graph(n=n, edges=[(i - 1, j - 1) for (i, j) in arcs if i < j]).count_automorphisms()


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


SPLIT_HEAD = "attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n"


def split_heads_source(n, w: int, s: int, kinds=("window", "strided")) -> str:
    """`window(w) cyclic` and `strided(s)` over heads (kinds: "window", "strided", "union" for their union), one
    softmax head per kind, at length n (shared by the tests of Theorems F210 and F218)."""
    text = {"window": f"window({w}) cyclic", "strided": f"strided({s})", "union": f"window({w}) cyclic + strided({s})"}
    return f"tokens {n}\n" + "".join(SPLIT_HEAD.format(p=text[k]) for k in kinds)


@functools.lru_cache(maxsize=None)
def split_heads_checked(n, w: int, s: int, kinds=("window", "strided")):
    return uapcheck.check(split_heads_source(n, w, s, kinds), "t.uap")
