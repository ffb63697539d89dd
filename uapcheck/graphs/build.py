"""Concrete pattern graphs: the arc set of one attention pattern for an integer length n.

Conventions (shared by every module of ``uapcheck.graphs``):

* Positions are 1-based, ``1..n``, in every public value (witnesses, generators, certificates).
* Graph direction follows the flow of information: when query ``i`` attends to key ``j`` the
  graph has the arc ``j -> i``.  An arc is stored as the integer code ``(j-1)*n + (i-1)``.
* Self-loops are never stored: every position sees itself through the residual stream, so a
  self-loop changes neither reachability nor the automorphism group.
* A pattern whose graph is complete (``full``, or a pattern that happens to cover every pair)
  is flagged ``complete=True`` and its codes are not stored: ``full`` at n = 65,536 would be
  4·10⁹ arcs, while every consumer can treat a complete graph in O(1).

Arcs are generated arithmetically: one ``range`` of codes per offset, so a window of radius w
costs 2w C-level ``set.update`` calls instead of a loop over the n² pairs.

The decoded endpoints and the igraph of a PatternGraph are computed on first use and cached on it
(``endpoints``, ``to_igraph``): connectivity and symmetry of the same head share them.

``random(r, seed=S)``: ``rng = random.Random(S)``; for i = 1..n in order, query i attends to the
keys ``rng.sample(range(1, n + 1), r)``.  Nothing is excluded before sampling, so a draw may be i
itself (that arc is a self-loop and is dropped): i then has fewer than r extra keys.
"""
from __future__ import annotations

import gc
import math
import random
import sys
from contextlib import contextmanager
from itertools import chain, repeat
from operator import floordiv, mod
from typing import Iterator, Mapping, Optional, Sequence

from ..lazy import digraph, igraph as ig  # imported on first use: dense checks never need it
from ..memo import kept_store

from ..spec import (Blocks, Blockwise, Causal, Columns, Dilated, Edges, Full, Global, GlobalAt, Offsets, Pattern,
                    PatternIntersection, PatternUnion, RandomPattern, Sinks, Star, Strided, Window)

#: Bytes one materialised arc costs through the whole analysis (codes, decoded endpoints, igraph,
#: neighbour lists; measured 270–500 bytes per arc, bench/).
BYTES_PER_ARC = 500
#: Never plan on more than this share of the file's memory limit.
MEMORY_SHARE = 0.5


#: Arcs the whole analysis gets through per second on one core (bench/: about 850,000 arcs of BigBird
#: at n = 65,536 in 3 s), and the seconds the pattern engine's budgets allow for building and analysing.
ARCS_PER_SECOND = 300_000
GRAPH_SECONDS = 30
#: The arcs always allowed, whatever the memory limit says.
ARC_BUDGET_FLOOR = 100_000


def arc_budget() -> int:
    """How many arcs may be materialised: a function of the file's options alone — its memory limit (`--memory`,
    4 GiB by default: budget.memory_bytes), of which MEMORY_SHARE at BYTES_PER_ARC, and what the engine's time
    budget gets through (ARCS_PER_SECOND × GRAPH_SECONDS) — never of the memory the machine has free, so whether a
    graph is built, hence the verdict, is the same on every machine (one that cannot give the limit's memory ends the
    worker: BUDGET)."""
    from .. import budget
    by_time = ARCS_PER_SECOND * GRAPH_SECONDS
    return max(ARC_BUDGET_FLOOR, min(by_time, int(budget.memory_bytes * MEMORY_SHARE) // BYTES_PER_ARC))


#: The most positions a token graph is built with, however few its arcs: its engines keep arrays over the positions
#: (`edges {1 -> 2}` at n = 10⁹ ran out of memory in the group's search at once)
MAX_GRAPH_POSITIONS = 1 << 24

#: Kept for callers that name a cap explicitly (tests); build_graph uses ``arc_budget()``.
DEFAULT_MAX_ARCS = 6_000_000


class GraphTooLarge(ValueError):
    """The pattern would materialise more arcs than the caller allowed (a resource budget,
    not a property of the pattern: use the closed forms of ``closed_forms`` instead)."""

    #: How many graphs this process refused for its resources (``arc_budget()``: the file's memory limit
    #: and the time budget's arcs), not for a caller's cap; a report shaped by one is not kept (uapcheck/result_cache.py).
    refused_for_resources = 0


class PatternGraph:
    """The arc set of one attention pattern (one head) on positions 1..n. Immutable.

    ``codes`` holds ``(j-1)*n + (i-1)`` for each arc j -> i (i attends to j, j != i).
    When ``complete`` is true every ordered pair is an arc and ``codes`` is empty.

    A large graph built from arrays (``from_sorted_codes``) keeps its codes as a sorted numpy int64
    array (``code_array``) and makes the frozenset ``codes`` only when something asks for it: the
    analysis of a large pattern reads the arrays, and a frozenset of 10⁶ Python ints costs about
    0.1 s to make. Equality compares the arc sets either way; the hash reads only n, ``complete`` and
    the number of arcs (equal graphs have equal hashes; unequal ones are told apart by equality).
    """

    def __init__(self, n: int, codes: frozenset[int] = frozenset(), complete: bool = False):
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "complete", complete)
        object.__setattr__(self, "_codes", codes if isinstance(codes, frozenset) else frozenset(codes))

    @classmethod
    def from_sorted_codes(cls, n: int, array) -> "PatternGraph":
        """A graph whose codes are the given sorted, duplicate-free numpy int64 array (no self-loops,
        not every pair); the frozenset is made on first use of ``codes``."""
        graph = cls.__new__(cls)
        object.__setattr__(graph, "n", n)
        object.__setattr__(graph, "complete", False)
        object.__setattr__(graph, "_codes", None)
        array.flags.writeable = False
        _derived(graph)["code array"] = array
        return graph

    n: int
    complete: bool
    _codes: Optional[frozenset[int]]

    def __setattr__(self, name, value):
        raise AttributeError(f"PatternGraph is immutable (cannot set {name!r})")

    def __delattr__(self, name):
        raise AttributeError(f"PatternGraph is immutable (cannot delete {name!r})")

    @property
    def codes(self) -> frozenset[int]:
        codes = self._codes
        if codes is None:
            with _no_gc():
                codes = frozenset(_derived(self)["code array"].tolist())
            object.__setattr__(self, "_codes", codes)
        return codes

    def _array_only(self) -> bool:
        """The codes are held as an array only (no frozenset made yet)."""
        return self._codes is None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PatternGraph):
            return NotImplemented
        if self is other:
            return True
        if self.n != other.n or self.complete != other.complete or self.num_arcs != other.num_arcs:
            return False
        if self._array_only() or other._array_only():
            import numpy as np
            return bool(np.array_equal(code_array(self), code_array(other)))
        return self._codes == other._codes

    def __hash__(self) -> int:
        return hash((self.n, self.complete, self.num_arcs))

    def __repr__(self) -> str:
        return f"PatternGraph(n={self.n}, arcs={self.num_arcs}, complete={self.complete})"

    def has_arc(self, j: int, i: int) -> bool:
        """True when query i attends to key j (j != i), i.e. the arc j -> i exists."""
        if j == i or not (1 <= i <= self.n and 1 <= j <= self.n):
            return False
        return self.complete or self.has_code((j - 1) * self.n + (i - 1))

    def has_code(self, code: int) -> bool:
        """The arc of this code is in the graph (a complete graph: every code off the diagonal)."""
        if self.complete:
            return 0 <= code < self.n * self.n and code % (self.n + 1) != 0
        codes = self._codes
        if codes is None:  # on arrays only: a binary search in the sorted codes
            import numpy as np
            arr = _derived(self)["code array"]
            at = int(np.searchsorted(arr, code))
            return at < len(arr) and int(arr[at]) == code
        return code in codes

    def attends(self, i: int, j: int) -> bool:
        """True when query i sees key j (always true for j == i)."""
        return i == j or self.has_arc(j, i)

    @property
    def num_arcs(self) -> int:
        if self.complete:
            return self.n * (self.n - 1)
        return len(self._codes) if self._codes is not None else len(_derived(self)["code array"])

    def arcs(self) -> Iterator[tuple[int, int]]:
        """The arcs (j, i), 1-based, j -> i, in code order (materialises complete graphs)."""
        n = self.n
        if self.complete:
            for j in range(1, n + 1):
                for i in range(1, n + 1):
                    if i != j:
                        yield (j, i)
            return
        for c in (code_array(self).tolist() if self._array_only() else sorted(self.codes)):
            j0, i0 = divmod(c, n)
            yield (j0 + 1, i0 + 1)

    def all_codes(self) -> frozenset[int]:
        """The codes, materialised even for a complete graph (small n only)."""
        if not self.complete:
            return self.codes
        n = self.n
        return frozenset(c for c in range(n * n) if c % (n + 1) != 0)


# ---------------------------------------------------------------------------------------------
# Parameter resolution

def resolve(term, params: Mapping[str, int]) -> int:
    """An IntTerm as an integer: a literal, a parameter name, or "-name" (Offsets only)."""
    if isinstance(term, bool):
        raise TypeError(f"not an integer term: {term!r}")
    if isinstance(term, int):
        return term
    if isinstance(term, str):
        name, sign = (term[1:], -1) if term.startswith("-") else (term, 1)
        if name not in params:
            raise KeyError(f"no integer value given for parameter {name!r}")
        value = params[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"parameter {name!r} must have an integer value, got {value!r}")
        return sign * value
    # sympy Integer and friends
    try:
        value = int(term)
    except (TypeError, ValueError):
        raise TypeError(f"not an integer term: {term!r}") from None
    if value != term:
        raise TypeError(f"not an integer term: {term!r}")
    return value


def _nonneg(value: int, what: str) -> int:
    if value < 0:
        raise ValueError(f"{what} must be >= 0, got {value}")
    return value


def _positive(value: int, what: str) -> int:
    if value < 1:
        raise ValueError(f"{what} must be >= 1, got {value}")
    return value


# ---------------------------------------------------------------------------------------------
# Arc generation. Each helper adds codes (possibly including self-loops; they are removed once
# at the end) to ``out``.

def _add_offset(out: set, n: int, a: int) -> None:
    """Arcs for 'i attends to i + a' (non-cyclic): j = i + a must lie in 1..n."""
    if a == 0 or abs(a) >= n:
        return
    lo, hi = max(0, -a), min(n, n - a)  # 0-based i range [lo, hi)
    out.update(range(lo * (n + 1) + a * n, hi * (n + 1) + a * n, n + 1))


def _add_cyclic_offset(out: set, n: int, a: int) -> None:
    """Arcs for 'i attends to i + a mod n'."""
    a %= n
    if a == 0:
        return
    # i0 in [0, n - a): j0 = i0 + a ; i0 in [n - a, n): j0 = i0 + a - n
    out.update(range(a * n, (n - a) * (n + 1) + a * n, n + 1))
    out.update(range((n - a) * (n + 1) + (a - n) * n, n * (n + 1) + (a - n) * n, n + 1))


def _sample_rows_by_bits(seed: int, n: int, r: int, count: Optional[int] = None) -> list[list[int]]:
    """`random.Random(seed).sample(range(1, n + 1), r)` for each of ``count`` rows (n by default), drawn the
    way CPython's `sample` draws from a large population (n above its small-set threshold): for each of
    the r keys, `getrandbits(n.bit_length())` until a value below n not drawn before in the row. Only
    the per-call overhead of `sample` is saved; `random_rows` checks the two agree first."""
    bits = random.Random(seed).getrandbits
    k = n.bit_length()
    rows = []
    for _ in range(n if count is None else count):
        row: list[int] = []
        for _ in range(r):
            j = bits(k)
            while j >= n or j + 1 in row:
                j = bits(k)
            row.append(j + 1)
        rows.append(row)
    return rows


#: Rows handled per vectorised pass of `_sample_rows_by_words` (a row that repeats a draw ends a pass).
ROWS_PER_PASS = 8192


def _sample_rows_by_words(seed: int, n: int, r: int, count: Optional[int] = None):
    """The rows of `_sample_rows_by_bits` as a (count, r) numpy int64 array of 0-based keys, from the same
    stream read in bulk: `getrandbits(32·W)` is W consecutive 32-bit outputs of the generator (least
    significant word first on a little-endian machine), and `getrandbits(k)` (k ≤ 32) is one output
    shifted right by 32 − k. The outputs below n, in order, are the candidates: a row takes the next r
    unless two of them are equal, and such a row (about r²/2 in all) is drawn one candidate at a
    time, skipping repeats, as `sample` does. None when n ≥ 2³² or r = 0; `random_rows` and
    `random_codes` check the result against `_sample_rows_by_bits` on this interpreter first."""
    k = n.bit_length()
    if k > 32 or r < 1 or sys.byteorder != "little":
        return None
    import numpy as np
    bits = random.Random(seed).getrandbits
    shift = np.uint32(32 - k)

    def candidates(count: int):
        words = int(count * (1 << k) / n) + 64
        raw = np.frombuffer(bits(32 * words).to_bytes(4 * words, "little"), dtype="<u4") >> shift
        return raw[raw < n].astype(np.int64)

    count = n if count is None else count
    pool, at = candidates(count * r + count * r // 32 + 256), 0
    out = np.empty((count, r), dtype=np.int64)
    i = 0
    while i < count:
        rows = min(count - i, ROWS_PER_PASS)
        if len(pool) - at < rows * r + r:
            pool, at = np.concatenate((pool[at:], candidates(rows * r + 256))), 0
        block = pool[at:at + rows * r].reshape(rows, r)
        ordered = np.sort(block, axis=1)
        repeats = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        clean = int(repeats[0]) if len(repeats) else rows
        out[i:i + clean] = block[:clean]
        at += clean * r
        i += clean
        if clean < rows:  # row i repeats a candidate: drawn one candidate at a time
            row: list[int] = []
            while len(row) < r:
                if at == len(pool):
                    pool, at = candidates(256), 0
                j = int(pool[at])
                at += 1
                if j not in row:
                    row.append(j)
            out[i] = row
            i += 1
    return out


def _sample_threshold(r: int) -> int:
    """`random.sample` draws by rejection exactly when the population is larger than this."""
    return 21 + (4 ** math.ceil(math.log(r * 3, 4)) if r > 5 else 0)


_FAST_ROWS_AGREE: dict[int, bool] = {}  # per r: does `_sample_rows_by_bits` draw what `sample` draws?
_WORD_ROWS_AGREE: dict[int, bool] = {}  # per r: and `_sample_rows_by_words` what `_sample_rows_by_bits` draws?


#: The probe of `_fast_rows`: rows drawn from a population just above `sample`'s small-set threshold, so that
#: for r ≥ 2 some rows draw a candidate twice (5 of the 256 rows for r = 2, 14 for r = 3, more for larger r)
#: and draws ≥ n are rejected (tests/graphs/test_build.py counts them).
PROBE_ROWS = 256
PROBE_ABOVE_THRESHOLD = 43


def _fast_rows(r: int) -> tuple[bool, bool]:
    """(`_sample_rows_by_bits` draws what `sample` draws, `_sample_rows_by_words` what
    `_sample_rows_by_bits` draws) for this r on this interpreter, checked once on a probe of
    `PROBE_ROWS` rows from a small population (so that the rows that repeat a candidate are many)."""
    if r not in _FAST_ROWS_AGREE:
        probe_n = _sample_threshold(r) + PROBE_ABOVE_THRESHOLD
        rng = random.Random(20261201)
        by_bits = _sample_rows_by_bits(20261201, probe_n, r, PROBE_ROWS)
        _FAST_ROWS_AGREE[r] = by_bits[:64] == [rng.sample(range(1, probe_n + 1), r) for _ in range(64)]
        by_words = _sample_rows_by_words(20261201, probe_n, r, PROBE_ROWS) if _FAST_ROWS_AGREE[r] else None
        _WORD_ROWS_AGREE[r] = by_words is not None and (by_words + 1).tolist() == by_bits
    return _FAST_ROWS_AGREE[r], _WORD_ROWS_AGREE[r]


def random_codes(seed: int, n: int, r: int) -> Optional[list[int]]:
    """The arc codes (j − 1)·n + (i − 1) of `random(r, seed)`, query by query as in `random_rows`
    (self-loops included), from `_sample_rows_by_words` without a list per row; None where that does
    not apply (then `random_rows`)."""
    codes = random_code_array(seed, n, r)
    return None if codes is None else codes.tolist()


def random_code_array(seed: int, n: int, r: int):
    """`random_codes` as a numpy int64 array (query by query, self-loops included), or None."""
    if not (n > _sample_threshold(r) and n >= 4096 and _fast_rows(r)[1]):
        return None
    keys = _sample_rows_by_words(seed, n, r)
    if keys is None:
        return None
    import numpy as np
    keys *= n
    keys += np.arange(n, dtype=np.int64)[:, None]
    return keys.ravel()


def random_rows(seed: int, n: int, r: int) -> list[list[int]]:
    """The keys of each query i = 1..n of `random(r, seed)`: one `rng.sample(range(1, n + 1), r)` per
    query, in order, from `rng = random.Random(seed)` (the documented definition). Large n uses
    `_sample_rows_by_bits`, once checked against `sample` itself on this interpreter."""
    if n > _sample_threshold(r) and n >= 4096 and _fast_rows(r)[0]:
        return _sample_rows_by_bits(seed, n, r)
    rng = random.Random(seed)
    population = range(1, n + 1)
    return [rng.sample(population, r) for _ in range(n)]


def _estimate(pattern: Pattern, n: int, params: Mapping[str, int]) -> int:  # noqa: C901 - one branch per pattern kind (spec.Pattern)
    """An upper bound on the codes a pattern generates (before de-duplication)."""
    if isinstance(pattern, Full):
        return 0
    if isinstance(pattern, Causal):
        return n * (n + 1) // 2
    if isinstance(pattern, Window):
        return 2 * min(resolve(pattern.w, params), n) * n
    if isinstance(pattern, Offsets):
        return len(pattern.offsets) * n
    if isinstance(pattern, Dilated):
        return (2 * min(resolve(pattern.w, params), n) + 1) * n
    if isinstance(pattern, Strided):
        s = max(1, resolve(pattern.s, params))
        return n * (n // s + 1)
    if isinstance(pattern, Blocks):
        return n * min(max(1, resolve(pattern.b, params)), n)
    if isinstance(pattern, Global):
        return 2 * min(max(0, resolve(pattern.g, params)), n) * n
    if isinstance(pattern, Star):
        return 2 * n
    if isinstance(pattern, RandomPattern):
        return max(0, resolve(pattern.r, params)) * n
    if isinstance(pattern, Edges):
        return len(pattern.edges)
    if isinstance(pattern, PatternUnion):
        return sum(_estimate(p, n, params) for p in pattern.parts)
    if isinstance(pattern, PatternIntersection):
        # every part is generated before intersecting
        return sum(_estimate(p, n, params) for p in pattern.parts if not _contains_full(p))
    if isinstance(pattern, Sinks):
        return min(max(0, resolve(pattern.k, params)), n) * n
    if isinstance(pattern, GlobalAt):
        return 2 * len(pattern.positions) * n
    if isinstance(pattern, Columns):
        l_, c_ = max(1, resolve(pattern.l, params)), max(0, resolve(pattern.c, params))
        return min(n, (n // l_ + 1) * c_) * n
    if isinstance(pattern, Blockwise):
        b = max(1, pattern.b)
        nb = max(1, n // b)
        inner = nb * nb if _contains_full(pattern.inner) else _estimate(pattern.inner, nb, params) + nb
        return inner * b * b
    raise TypeError(f"unknown pattern {pattern!r}")


def _contains_full(pattern: Pattern) -> bool:
    """True when the pattern's graph is complete whatever n is (full, a union with a full part,
    an intersection of such, a blockwise pattern of such)."""
    if isinstance(pattern, Full):
        return True
    if isinstance(pattern, PatternUnion):
        return any(_contains_full(p) for p in pattern.parts)
    if isinstance(pattern, PatternIntersection):
        return all(_contains_full(p) for p in pattern.parts)
    if isinstance(pattern, Blockwise):
        return _contains_full(pattern.inner)
    return False


def _add(out, pattern: Pattern, n: int, params: Mapping[str, int]) -> None:  # noqa: C901 - one branch per pattern kind (spec.Pattern)
    if isinstance(pattern, PatternUnion):
        for part in pattern.parts:
            _add(out, part, n, params)
    elif isinstance(pattern, Causal):
        for j0 in range(n):  # j <= i: row j0 of the code matrix, columns i0 >= j0
            out.update(range(j0 * n + j0, j0 * n + n))
    elif isinstance(pattern, Window):
        w = _nonneg(resolve(pattern.w, params), "window radius")
        for d in range(1, min(w, n - 1) + 1):
            if pattern.cyclic:
                _add_cyclic_offset(out, n, d)
                _add_cyclic_offset(out, n, -d)
            else:
                _add_offset(out, n, d)
                _add_offset(out, n, -d)
    elif isinstance(pattern, Offsets):
        for term in pattern.offsets:
            a = resolve(term, params)
            if pattern.cyclic:
                _add_cyclic_offset(out, n, a)
            else:
                _add_offset(out, n, a)
    elif isinstance(pattern, Dilated):
        w = _nonneg(resolve(pattern.w, params), "dilated radius")
        r = _positive(resolve(pattern.r, params), "dilation")
        for k in range(1, w + 1):
            if k * r >= n:
                break
            _add_offset(out, n, k * r)
            _add_offset(out, n, -k * r)
    elif isinstance(pattern, Strided):
        s = _positive(resolve(pattern.s, params), "stride")
        for a in range(s, n, s):
            _add_offset(out, n, a)
            _add_offset(out, n, -a)
    elif isinstance(pattern, Blocks):
        b = _positive(resolve(pattern.b, params), "block size")
        for start in range(0, n, b):
            end = min(n, start + b)
            for j0 in range(start, end):
                out.update(range(j0 * n + start, j0 * n + end))
    elif isinstance(pattern, (Global, Star)):
        g = 1 if isinstance(pattern, Star) else _nonneg(resolve(pattern.g, params), "global count")
        # positions beyond n do not exist: global(g) with g >= n makes every position global
        for t0 in range(min(g, n)):
            out.update(range(t0, n * n, n))          # the global query t attends to every key
            out.update(range(t0 * n, t0 * n + n))    # every query attends to the global key t
    elif isinstance(pattern, RandomPattern):
        r = _nonneg(resolve(pattern.r, params), "random count")
        if r > n:
            raise ValueError(f"random({r}) needs at least {r} tokens, got n = {n}")
        # queries in order i = 1..n, as documented
        if isinstance(out, _CodeChunks):
            array = random_code_array(pattern.seed, n, r)
            if array is not None:
                out.update(array)
                return
        drawn = random_codes(pattern.seed, n, r)
        if drawn is None:
            drawn = [(j - 1) * n + i0 for i0, row in enumerate(random_rows(pattern.seed, n, r)) for j in row]
        out.update(drawn)
    elif isinstance(pattern, Edges):
        if isinstance(out, _CodeChunks) and len(pattern.edges) >= 1024:  # a long list on arrays
            np = out.np
            pairs = np.fromiter(chain.from_iterable(pattern.edges), dtype=np.int64, count=2 * len(pattern.edges))
            if len(pairs) == 0 or (pairs.min() >= 1 and pairs.max() <= n):
                out.update((pairs[1::2] - 1) * n + (pairs[0::2] - 1))
                return
        for (i, j) in pattern.edges:  # (i, j): i attends to j
            if not (1 <= i <= n and 1 <= j <= n):
                raise ValueError(f"edge {i} -> {j} is outside positions 1..{n}")
            out.add((j - 1) * n + (i - 1))
    elif isinstance(pattern, PatternIntersection):
        parts = [p for p in pattern.parts if not _contains_full(p)]  # P & full = P
        # `causal & P`: P's codes j·n + i (0-based) with j ≤ i, without generating causal's n(n + 1)/2 codes
        causal = len(parts) > 1 and any(isinstance(p, Causal) for p in parts) and \
            not all(isinstance(p, Causal) for p in parts)
        if causal:
            parts = [p for p in parts if not isinstance(p, Causal)]
        common: Optional[set] = None
        for part in parts:
            codes: set[int] = set()
            _add(codes, part, n, params)
            common = codes if common is None else common & codes
        if causal and common:
            common = {c for c in common if c // n <= c % n}
        out.update(common or ())
        # self-loops dropped by the caller; an empty intersection adds nothing
    elif isinstance(pattern, Sinks):
        k = min(_nonneg(resolve(pattern.k, params), "number of sinks"), n)
        for s0 in range(k):  # every query i > k attends to the sink key s: arcs s -> i
            out.update(range(s0 * n + k, s0 * n + n))
    elif isinstance(pattern, GlobalAt):
        for p in pattern.positions:
            if not 1 <= p <= n:
                raise ValueError(f"global position {p} is outside positions 1..{n}")
            t0 = p - 1
            out.update(range(t0, n * n, n))
            out.update(range(t0 * n, t0 * n + n))
    elif isinstance(pattern, Columns):
        l_ = _positive(resolve(pattern.l, params), "column stride")
        c_ = _nonneg(resolve(pattern.c, params), "number of summary columns")
        for j in range(1, n + 1):  # the last c positions of each block of l: j mod l in {0, -1, ..., -(c-1)}
            if (-j) % l_ < c_:
                j0 = j - 1
                out.update(range(j0 * n, j0 * n + n))  # every query attends to the key j
    elif isinstance(pattern, Blockwise):
        b = _positive(pattern.b, "block size")
        if n % b:
            raise ValueError(f"block size {b} does not divide n = {n}")
        nb = n // b
        if _contains_full(pattern.inner) or nb == 1:
            block_arcs = [(p, q) for p in range(nb) for q in range(nb)]
        else:
            inner: set[int] = set()
            _add(inner, pattern.inner, nb, params)
            block_arcs = [divmod(c, nb) for c in inner] + [(p, p) for p in range(nb)]
        for p0, q0 in block_arcs:  # block p -> block q: every key of p to every query of q
            for j0 in range(p0 * b, p0 * b + b):
                out.update(range(j0 * n + q0 * b, j0 * n + q0 * b + b))
    elif isinstance(pattern, Full):  # handled by the caller; kept for completeness
        raise AssertionError("full is handled before arc generation")
    else:
        raise TypeError(f"unknown pattern {pattern!r}")


class _CodeChunks:
    """Where `_add` puts codes when a large graph is built on arrays: each `range` of codes becomes a
    numpy int64 arange (each array, list or single code is kept as it comes), and `array` joins them,
    sorted, each code once, self-loops dropped: the codes the set `_add` fills would hold."""

    def __init__(self) -> None:
        import numpy as np
        self.np = np
        self.chunks: list = []
        self.singles: list[int] = []

    def update(self, codes) -> None:
        np = self.np
        if isinstance(codes, range):
            if len(codes):
                self.chunks.append(np.arange(codes.start, codes.stop, codes.step, dtype=np.int64))
        elif isinstance(codes, np.ndarray):
            self.chunks.append(codes.astype(np.int64, copy=False))
        else:
            self.chunks.append(np.fromiter(codes, dtype=np.int64))

    def add(self, code: int) -> None:
        self.singles.append(code)

    def array(self, n: int):
        np = self.np
        parts = self.chunks + [np.asarray(self.singles, dtype=np.int64)]
        codes = np.concatenate(parts) if len(parts) > 1 else parts[0]
        codes.sort(kind="stable")  # the same order; timsort takes the parts' ascending runs as they are
        if len(codes) == 0:
            return codes
        keep = np.empty(len(codes), dtype=bool)
        keep[0] = True
        np.not_equal(codes[1:], codes[:-1], out=keep[1:])
        keep &= (codes % (n + 1)) != 0  # self-loops i -> i
        return codes[keep]


def _has_intersection(pattern: Pattern) -> bool:
    if isinstance(pattern, PatternIntersection):
        return True
    if isinstance(pattern, PatternUnion):
        return any(_has_intersection(p) for p in pattern.parts)
    if isinstance(pattern, Blockwise):
        return _has_intersection(pattern.inner)
    return False


#: From this many estimated arcs on, a graph is built on numpy arrays (`_CodeChunks`) and kept as its
#: sorted code array (`PatternGraph.from_sorted_codes`) when it has at least ``NUMPY_DECODE_ARCS`` arcs,
#: the size from which its edge order is the ascending order of the codes either way.
ARRAY_BUILD_ARCS = 50_000


def _build_on_arrays(pattern: Pattern, n: int, params: Mapping[str, int]) -> Optional[PatternGraph]:
    """The graph built on arrays, or None where the set-based build is to be used (an intersection,
    n² beyond int64, or fewer than ``NUMPY_DECODE_ARCS`` arcs in the end)."""
    if n * n >= 2 ** 63 or _has_intersection(pattern):
        return None
    out = _CodeChunks()
    _add(out, pattern, n, params)
    codes = out.array(n)
    if len(codes) == n * (n - 1):
        return PatternGraph(n, frozenset(), complete=True)
    if len(codes) < NUMPY_DECODE_ARCS:
        return None
    return PatternGraph.from_sorted_codes(n, codes)


@contextmanager
def _no_gc():
    """Building hundreds of thousands of ints/tuples triggers repeated full GC passes over the
    growing containers; none of them can be garbage, so collection is paused meanwhile.

    On leaving, what was built is moved to the collector's oldest generation (`gc.freeze()` then
    `gc.unfreeze()`, which splices the lists of tracked objects without visiting them): otherwise the
    first young collection after the block would visit every element of the new sets and lists (the
    codes, the endpoints, n neighbour lists: about 60 ms for BigBird at n = 65,536) only to find them
    alive. Nothing is lost: a cycle among those objects is collected by the next full collection."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def fitting_size(pattern: Pattern, n: int, params: Mapping[str, int], max_arcs: int) -> int:
    """The largest m ≤ n at which the pattern's arc estimate stays within ``max_arcs``."""
    lo, hi = 1, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            fits = _estimate(pattern, mid, params) <= max_arcs
        except (ValueError, KeyError, TypeError):
            fits = False
        if fits:
            lo = mid
        else:
            hi = mid - 1
    return lo


def heads_fit(patterns: Sequence[Pattern], n: int, params: Optional[Mapping[str, int]] = None) -> None:
    """Raise ``GraphTooLarge`` when several distinct heads' graphs together would materialise more arcs than
    ``arc_budget()``: each head's graph is within it alone, but the engines hold them all, and their union, at once
    (`offsets {0, 2, 4} cyclic` | `global(2)` at n = 1,048,576, about 3.1 and 4.2 million arcs, ended the worker at
    its 4 GiB limit while computing the group, after 100 s). The message names the largest length that fits."""
    distinct = list(dict.fromkeys(patterns))
    if len(distinct) < 2 or _contains_full(PatternUnion(tuple(distinct))):
        return
    params = dict(params or {})

    def total(m: int) -> int:
        return sum(_estimate(p, m, params) for p in distinct)
    try:
        arcs = total(n)
    except (ValueError, KeyError, TypeError):
        return  # an estimate that cannot be made here is left to build_graph's own error
    if arcs <= ARC_BUDGET_FLOOR:
        return
    limit = arc_budget()
    if arcs <= limit:
        return
    lo, hi = 1, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            fits = total(mid) <= limit
        except (ValueError, KeyError, TypeError):
            fits = False
        lo, hi = (mid, hi) if fits else (lo, mid - 1)
    GraphTooLarge.refused_for_resources += 1
    raise GraphTooLarge(f"the {len(distinct)} heads' pattern graphs would materialise about {arcs:,} arcs together at "
                        f"n = {n:,} (limit {limit:,}, set by the file's memory limit and the time budget: the heads' "
                        f"graphs and their union are held at once); they fit up to n = {lo:,}")


def reach_bytes(n: int) -> int:
    """The bytes of the per-layer engine's reach sets at length n: an n-bit integer per position, for three layers (a
    step holds the sets, the next layer's and one table of unions along runs of positions: graphs/layers_runs.py)."""
    return 3 * n * ((n + 7) // 8)


def sequence_fit(patterns: Sequence[Pattern], n: int) -> None:
    """Raise ``GraphTooLarge`` when the per-layer engine (graphs/layers.py) would hold more in-neighbour entries than
    ``arc_budget()`` — it keeps the in-neighbour sets of every distinct layer pattern at once, a complete layer's as
    n(n − 1) entries — or reach sets of more bytes than the file's memory share (``reach_bytes``). The message names
    the largest length that fits both (the file's memory limit and time budget set the limits, as for one pattern's
    graph)."""
    from .. import budget
    distinct = list(dict.fromkeys(patterns))
    reach_limit = int(budget.memory_bytes * MEMORY_SHARE)
    limit = max(arc_budget(), ARC_BUDGET_FLOOR)

    def entries(m: int) -> int:
        return sum(m * (m - 1) if _contains_full(p) else _estimate(p, m, {}) for p in distinct)

    def fits(m: int) -> bool:
        try:
            return reach_bytes(m) <= reach_limit and entries(m) <= limit
        except (ValueError, KeyError, TypeError):
            return False
    try:
        held = entries(n)
    except (ValueError, KeyError, TypeError):
        return  # an estimate that cannot be made here is left to build_graph's own error
    if fits(n):
        return
    lo, hi = 1, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid - 1)
    GraphTooLarge.refused_for_resources += 1
    kinds = f"{len(distinct)} distinct layer pattern{'s' if len(distinct) != 1 else ''}"
    what = (f"the per-layer patterns' graphs ({kinds}) would hold about {held:,} in-neighbour entries at n = {n:,} "
            f"(limit {limit:,}, set by the file's memory limit and the time budget: every layer's graph is held at "
            f"once, a complete layer's whole)") if held > limit else (
        f"the per-layer reach sets (n bits per position, three layers' worth) would take about {reach_bytes(n):,} "
        f"bytes at n = {n:,} (limit {reach_limit:,}, a share of the file's memory limit)")
    raise GraphTooLarge(f"{what}; they fit up to n = {lo:,}")


def build_graph(pattern: Pattern, n: int, params: Optional[Mapping[str, int]] = None,
                max_arcs: Optional[int] = None) -> PatternGraph:
    """The graph of one pattern at integer length n with integer parameter values ``params``.

    Raises ``GraphTooLarge`` when more than ``max_arcs`` arcs would be materialised,
    ``ValueError`` for out-of-range values and ``KeyError`` for a missing parameter.
    """
    params = dict(params or {})
    if isinstance(n, bool) or not isinstance(n, int):
        n = resolve(n, params)
    if n < 1:
        raise ValueError(f"the number of tokens must be >= 1, got {n}")
    if _contains_full(pattern) or n == 1:
        # n = 1: the only pair is (1, 1), a self-loop: the empty arc set is also complete.
        limit = ARC_BUDGET_FLOOR if n <= ARC_BUDGET_FLOOR else max_arcs if max_arcs is not None else arc_budget()
        if n > limit:
            # its arcs are implicit, but the engines take its n positions one by one (the group's order n!, its
            # generators, the views): `full & full` at n = 10⁹ spent its whole budget on (10⁹)!
            if max_arcs is None:
                GraphTooLarge.refused_for_resources += 1
            why = "the caller's cap" if max_arcs is not None else "set by the file's memory limit and the time budget"
            raise GraphTooLarge(f"the complete pattern's {n:,} positions would be taken one by one (limit {limit:,}, "
                                f"{why}); it fits up to n = {limit:,}")
        return PatternGraph(n, frozenset(), complete=True)
    if n > MAX_GRAPH_POSITIONS and max_arcs is None:
        GraphTooLarge.refused_for_resources += 1
        raise GraphTooLarge(f"the token graph would have {n:,} positions (limit {MAX_GRAPH_POSITIONS:,}: the engines keep "
                            f"arrays over the positions, whatever the arcs); it fits up to n = {MAX_GRAPH_POSITIONS:,}")
    estimate = _estimate(pattern, n, params)
    if max_arcs is None:
        # arc_budget() is never below ARC_BUDGET_FLOOR: a graph within it needs no look at the limit
        max_arcs = ARC_BUDGET_FLOOR if estimate <= ARC_BUDGET_FLOOR else arc_budget()
        why = "set by the file's memory limit and the time budget"
    else:
        why = "the caller's cap"
    if estimate > max_arcs:
        if why != "the caller's cap":
            GraphTooLarge.refused_for_resources += 1
        fit = fitting_size(pattern, n, params, max_arcs)
        raise GraphTooLarge(f"the pattern would materialise about {estimate:,} arcs at n = {n:,} "
                            f"(limit {max_arcs:,}, {why}); it fits up to n = {fit:,}")
    if estimate >= ARRAY_BUILD_ARCS:
        built = _build_on_arrays(pattern, n, params)
        if built is not None:
            return built
    with _no_gc():
        out: set[int] = set()
        _add(out, pattern, n, params)
        # drop self-loops i -> i (codes (i − 1)(n + 1)): walk the shorter of the n candidates and the arcs (a few edges
        # at n = 10⁹ walked 10⁹ candidates in C, where the CPU budget's signal is not seen: 18 s under a 2 s budget)
        out.difference_update(range(0, n * n, n + 1) if len(out) > n else [c for c in out if c % (n + 1) == 0])
        if len(out) == n * (n - 1):
            return PatternGraph(n, frozenset(), complete=True)
        return PatternGraph(n, frozenset(out))


def union_graph(graphs: Sequence[PatternGraph]) -> PatternGraph:
    """The union over heads (for connectivity only; never for symmetry)."""
    if not graphs:
        raise ValueError("at least one head is needed")
    n = graphs[0].n
    if any(g.n != n for g in graphs):
        raise ValueError("all heads must have the same number of tokens")
    if any(g.complete for g in graphs):
        return PatternGraph(n, frozenset(), complete=True)
    if len(graphs) == 1:
        return graphs[0]
    if sum(g.num_arcs for g in graphs) <= UNION_KEPT_MIN_ARCS:
        return _union_of(graphs, n)
    # a large union is kept on the first head's graph with the heads it is the union of (compared by identity): the
    # connectivity analysis and the kernel's re-check of its certificate read one union, and what the kernel computed
    # on it once (the seeds' eccentricities)
    cache = _derived(graphs[0])
    kept = cache.get("union")
    if kept is not None and len(kept[0]) == len(graphs) and all(a is b for a, b in zip(kept[0], graphs)):
        return kept[1]
    union = _union_of(graphs, n)
    cache["union"] = (tuple(graphs), union)
    return union


#: Unions of more arcs than this (all heads together) are kept on the first head's graph (`union_graph`). At most
#: this many, the heads may be held by the answers graphs/kept_results.py keeps for a batch (its KEPT_MAX_ARCS), and
#: a union kept on them would live as long; the seeded searches whose results the union carries are for larger graphs.
UNION_KEPT_MIN_ARCS = 60_000


def _union_of(graphs: Sequence[PatternGraph], n: int) -> PatternGraph:
    """The union of two or more heads' graphs, none of them complete (`union_graph`)."""
    if max(g.num_arcs for g in graphs) >= NUMPY_DECODE_ARCS and n * n < 2 ** 63:
        from .arc_arrays import union_codes  # the union is as large: its edge order is ascending either way
        union = union_codes(graphs)
        if len(union) == n * (n - 1):
            return PatternGraph(n, frozenset(), complete=True)
        return PatternGraph.from_sorted_codes(n, union)
    with _no_gc():
        codes = frozenset().union(*(g.codes for g in graphs))
    if len(codes) == n * (n - 1):
        return PatternGraph(n, frozenset(), complete=True)
    return PatternGraph(n, codes)


# ---------------------------------------------------------------------------------------------
# Derived forms, computed once per PatternGraph and cached on it.  A PatternGraph is immutable, so
# the cache never goes stale; it lives in the instance __dict__ (not a dataclass field), so
# equality, hashing and repr ignore it.  One graph is typically analysed twice (connectivity of the
# union, which is the head itself for one head, then its symmetry group): decoding ~10⁶ codes and
# building the igraph are then paid once.

#: Complete graphs on at most this many positions share their derived forms, one dict per n (`_derived`).
SHARED_COMPLETE_MAX_N = 200
#: The complete graphs' derived forms kept per process (the most recently used n's; emptied by memo.clear_caches()).
SHARED_COMPLETE_KEPT = 32
_COMPLETE_DERIVED = kept_store()


def _derived(graph: PatternGraph) -> dict:
    """The graph's derived forms. A complete graph is n alone: every complete graph on n ≤ SHARED_COMPLETE_MAX_N
    positions shares one dict per process (a length below a range builds the head's graph, the union and the views'
    graphs of the same complete pattern, each of which would materialise the n² − n codes, their endpoints and igraph
    again: every form is made from `all_codes`, which lists the codes in the same order for every complete graph on n).
    """
    cache = graph.__dict__.get("_derived")
    if cache is None:
        if graph.complete and graph.n <= SHARED_COMPLETE_MAX_N:
            cache = _COMPLETE_DERIVED.get(graph.n)
            if cache is None:
                cache = _COMPLETE_DERIVED[graph.n] = {}
                if len(_COMPLETE_DERIVED) > SHARED_COMPLETE_KEPT:
                    _COMPLETE_DERIVED.popitem(last=False)
            else:
                _COMPLETE_DERIVED.move_to_end(graph.n)
        else:
            cache = {}
        object.__setattr__(graph, "_derived", cache)  # immutable: bypass __setattr__
    return cache


def arc_codes(graph: PatternGraph) -> frozenset[int]:
    """The codes (``graph.codes``, or one materialisation of a complete graph); ``edge_order`` lists
    them in the order of ``endpoints`` and ``to_igraph``."""
    cache = _derived(graph)
    if "codes" not in cache:
        cache["codes"] = graph.all_codes()
    return cache["codes"]


def code_array(graph: PatternGraph):
    """The arc codes as a sorted numpy int64 array (exact: codes are below n² < 2⁶³). Cached; the
    array must not be modified."""
    cache = _derived(graph)
    if "code array" not in cache:
        import numpy as np
        codes = arc_codes(graph)
        # a set of ints iterates nearly in order: timsort (`stable`) takes its runs, 1.1 to 2.3 times faster here
        arr = np.sort(np.fromiter(codes, dtype=np.int64, count=len(codes)), kind="stable")
        arr.flags.writeable = False
        cache["code array"] = arr
    return cache["code array"]


def code_endpoints(graph: PatternGraph):
    """(sources, targets) of the sorted ``code_array``, 0-based numpy int64 arrays (sources ascending).
    Cached; the arrays must not be modified."""
    cache = _derived(graph)
    if "code endpoints" not in cache:
        c = code_array(graph)
        src, dst = c // graph.n, c % graph.n
        src.flags.writeable = dst.flags.writeable = False
        cache["code endpoints"] = (src, dst)
    return cache["code endpoints"]


def _sorted_reversed(src, dst, n: int):
    """The codes dst·n + src in ascending order, for arcs listed in ascending code order (sources ascending,
    targets ascending per source): a stable sort by target alone keeps the sources ascending within each
    target, and sorting 16-bit keys stably is numpy's radix sort, one pass over the arcs per 16 bits of n
    (a comparison sort of the int64 codes costs several times more at 10⁵ arcs and beyond)."""
    import numpy as np
    if n <= 1 << 16:
        order = np.argsort(dst.astype(np.uint16), kind="stable")
    elif n <= 1 << 32:  # least significant 16 bits first, then the most significant: a stable sort by dst
        order = np.argsort((dst & 0xFFFF).astype(np.uint16), kind="stable")
        order = order[np.argsort((dst[order] >> 16).astype(np.uint16), kind="stable")]
    else:
        arr = dst * n + src
        arr.sort()
        return arr
    return dst[order] * n + src[order]


def reversed_code_array(graph: PatternGraph):
    """The codes of the reversed arcs, (i−1)·n + (j−1) for each arc j → i, sorted (numpy int64): the
    arcs grouped by target, sources ascending within each. Cached (the in-arc CSR of the searches and
    the kernel's grouping of arcs by head both read it); the array must not be modified."""
    cache = _derived(graph)
    if "reversed code array" not in cache:
        src, dst = code_endpoints(graph)
        arr = _sorted_reversed(src, dst, graph.n)
        arr.flags.writeable = False
        cache["reversed code array"] = arr
    return cache["reversed code array"]


#: From this many arcs on, ``endpoints`` divides the codes with numpy (exact int64 arithmetic;
#: codes are below n² ≤ 2⁶³) instead of one Python division per arc and coordinate.
NUMPY_DECODE_ARCS = 50_000


def _decoded_by_numpy(graph: PatternGraph) -> bool:
    return graph.num_arcs >= NUMPY_DECODE_ARCS and graph.n * graph.n < 2 ** 63


def edge_order(graph: PatternGraph):
    """The codes in *edge order*, the order of ``endpoints`` and of ``to_igraph``'s edges: the
    iteration order of ``arc_codes``, or for large graphs (decoded with numpy) ascending."""
    if _decoded_by_numpy(graph):
        return code_array(graph).tolist()
    return arc_codes(graph)


def endpoints(graph: PatternGraph) -> tuple[list[int], list[int]]:
    """0-based parallel lists (sources, targets) of the arcs, in ``edge_order``.

    Exact integer division of the codes (no igraph), so re-checks that use it stay independent of
    igraph.  Cached; the lists must not be modified.
    """
    cache = _derived(graph)
    if "endpoints" not in cache:
        n = graph.n
        with _no_gc():
            if _decoded_by_numpy(graph):
                sources, targets = code_endpoints(graph)  # the sorted codes, divided once
                cache["endpoints"] = (sources.tolist(), targets.tolist())
            else:
                codes = arc_codes(graph)
                cache["endpoints"] = (list(map(floordiv, codes, repeat(n))),
                                      list(map(mod, codes, repeat(n))))
    return cache["endpoints"]


def to_igraph(graph: PatternGraph) -> ig.Graph:
    """The directed igraph (vertex k-1 is position k, edge e is the e-th arc of ``arc_codes``).

    Cached and shared: callers must not modify it (``copy()`` first).
    """
    cache = _derived(graph)
    if "igraph" not in cache:
        js, is_ = endpoints(graph)
        with _no_gc():
            cache["igraph"] = digraph(graph.n, zip(js, is_))
    return cache["igraph"]


def neighbour_lists(graph: PatternGraph, mode: str) -> list[list[int]]:
    """0-based out- (``mode="out"``) or in-neighbour lists (``"in"``) of every position, self excluded,
    from igraph (C). Cached and shared (the twin classes of the group and the rooted views read the
    same lists): callers must not modify them."""
    if mode not in ("out", "in"):
        raise ValueError(f"mode must be 'out' or 'in', got {mode!r}")
    cache = _derived(graph)
    key = "neighbours " + mode
    if key not in cache:
        with _no_gc():
            if _decoded_by_numpy(graph):
                cache[key] = _lists_from_rows(graph, mode)
            else:
                cache[key] = to_igraph(graph).neighborhood(None, order=1, mode=mode, mindist=1)
    return cache[key]


def rows_without_loops(graph: PatternGraph, mode: str):
    """(indptr, tails): ``neighbour_lists`` as compressed rows, the lists of position v being
    ``tails[indptr[v]:indptr[v + 1]]`` (``arc_arrays.graph_csr``'s rows, each ascending as igraph's lists, with a
    self-loop left out, as igraph's ``mindist=1`` leaves it). Read-only numpy arrays; cached on the graph."""
    import numpy as np

    from .arc_arrays import graph_csr
    cache = _derived(graph)
    key = "csr without loops " + mode
    if key not in cache:
        indptr, tails = graph_csr(graph, mode)
        n = graph.n
        heads = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
        loops = heads == tails
        if bool(loops.any()):
            tails = tails[~loops]
            indptr = np.concatenate(([0], np.cumsum(np.bincount(heads[~loops], minlength=n)))).astype(np.int64)
            tails.flags.writeable = indptr.flags.writeable = False
        cache[key] = (indptr, tails)
    return cache[key]


def _lists_from_rows(graph: PatternGraph, mode: str) -> list[list[int]]:
    """``neighbour_lists`` of a large graph read off its compressed rows (`rows_without_loops`), without building the
    igraph graph: the same lists."""
    indptr, tails = rows_without_loops(graph, mode)
    flat, bounds = tails.tolist(), indptr.tolist()
    return [flat[a:b] for a, b in zip(bounds, bounds[1:])]


class LazyNeighbours:
    """The lists of ``neighbour_lists`` fetched one position at a time (same lists, same order), for
    searches that touch few positions (the transposition probe near its first pairs): the n lists are
    never all built. They are read off the graph's compressed rows when a search has made them already
    (``arc_arrays.graph_csr``: each list ascending, as igraph's), else asked of igraph. Read-only, like
    the lists they stand for."""

    def __init__(self, graph: PatternGraph, mode: str):
        if mode not in ("out", "in"):
            raise ValueError(f"mode must be 'out' or 'in', got {mode!r}")
        self._mode, self._n = mode, graph.n
        # the rows without a self-loop (`rows_without_loops`, as igraph's mindist=1 leaves it out), when a search
        # has made the compressed rows already
        self._rows = rows_without_loops(graph, mode) if ("csr " + mode) in _derived(graph) else None
        self._graph = to_igraph(graph) if self._rows is None else None
        self._memo: dict[int, list[int]] = {}

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, v: int) -> list[int]:
        got = self._memo.get(v)
        if got is None:
            if not 0 <= v < self._n:
                raise IndexError(v)
            if self._rows is not None:
                indptr, targets = self._rows
                got = targets[int(indptr[v]):int(indptr[v + 1])].tolist()
            else:
                assert self._graph is not None  # no rows: made from igraph
                got = self._graph.neighbors(v, mode=self._mode)
            self._memo[v] = got
        return got

    def __iter__(self):
        return (self[v] for v in range(self._n))


def out_degrees(graph: PatternGraph) -> list[int]:
    """Each position's out-degree (self-loops counted, as igraph's ``outdegree``): from the compressed
    rows when a search has made them, else from igraph."""
    rows = _derived(graph).get("csr out")
    if rows is not None:
        import numpy as np
        return np.diff(rows[0]).tolist()
    return to_igraph(graph).outdegree()


def neighbours(graph: PatternGraph, mode: str):
    """``neighbour_lists`` when they are already built for this graph, else ``LazyNeighbours``."""
    if ("neighbours " + mode) in _derived(graph):
        return neighbour_lists(graph, mode)
    return LazyNeighbours(graph, mode)
