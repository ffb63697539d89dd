"""Theorem F205 (lemma AB, docs/theory.md §11.11): the group of `window(w) cyclic + strided(s)` with 2 ≤ s ≤ w, for
n ≥ N₀ = max(s(3w + 2), 20w): D_n (order 2n) when s | n; {id, ρ, (1 n), ρ(1 n)} (order 4) when s | w and n ≡ 1
(mod s); {id, ρ} otherwise. Checked apart from the engines, on arcs written here from docs/language.md's definitions
(cyclic distance at most w, or s | u − v; compared once with scripts/sweep_patterns.py's arcs), by nauty with
Schreier–Sims:

- the formula at every n from 3w + 3 (below the range, where the theorem claims nothing but states it holds
  numerically) through N₀ + 2s, for every 2 ≤ s ≤ w ≤ 7 — a group larger than the family's would show as an order
  above the formula;
- the twins of step (6): N[u] = N[v] for u ≠ v exactly on the pair {1, n} when s | w and n ≡ 1 (mod s);
- the named generators keep the arcs (ρ always, the rotation by one exactly when s | n, (1 n) exactly in the twins'
  case);
- the order `uapcheck` states at `tokens n`, read at every n up to 60 and over a whole period from N₀, is nauty's,
  and the group it names at a concrete n in range is the one of n's class."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402
from test_reference_f201_longer_strides import order  # noqa: E402  (nauty on the arcs written there)

from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
WMAX = 8 if NIGHTLY else 6
PAIRS = [(w, s) for w in range(2, WMAX + 1) for s in range(2, w + 1)]


def start(w: int, s: int) -> int:
    return max(s * (3 * w + 2), 20 * w)


def formula(w: int, s: int, n: int) -> int:
    if n % s == 0:
        return 2 * n
    return 4 if w % s == 0 and n % s == 1 else 2


def arcs(w: int, s: int, n: int) -> frozenset:
    return frozenset((u, v) for u in range(1, n + 1) for v in range(1, n + 1)
                     if min(abs(u - v), n - abs(u - v)) <= w or (u - v) % s == 0)


def _keeps(perm, a) -> bool:
    return {(perm[i - 1], perm[j - 1]) for i, j in a} == a


def test_the_arcs_here_are_the_languages():
    for w, s, n in [(2, 2, 9), (4, 2, 30), (6, 3, 41)]:
        assert arcs(w, s, n) == SP.head_arcs((("cyclic", w), ("strided", s)), n)


@pytest.mark.parametrize("w,s", PAIRS, ids=[f"window({w}) cyclic + strided({s})" for w, s in PAIRS])
def test_the_order_from_3w_plus_3_through_two_periods_past_the_start(w, s):
    for n in range(3 * w + 3, start(w, s) + 2 * s + 1):
        assert order(w, s, n) == formula(w, s, n), (w, s, n)


@pytest.mark.parametrize("w,s", PAIRS, ids=[f"window({w}) cyclic + strided({s})" for w, s in PAIRS])
def test_the_twins_and_the_named_generators(w, s):
    for n in range(start(w, s), start(w, s) + s):
        a = arcs(w, s, n)
        closed = {u: frozenset(v for (x, v) in a if x == u) for u in range(1, n + 1)}
        twins = {frozenset((u, v)) for u in closed for v in closed if u < v and closed[u] == closed[v]}
        case = w % s == 0 and n % s == 1
        assert twins == ({frozenset((1, n))} if case else set()), (w, s, n, twins)
        assert _keeps([n + 1 - k for k in range(1, n + 1)], a)
        assert _keeps([k % n + 1 for k in range(1, n + 1)], a) == (n % s == 0), (w, s, n)
        swap = [n] + list(range(2, n)) + [1]
        assert _keeps(swap, a) == case, (w, s, n)


STATED = [(2, 2), (3, 2), (3, 3), (4, 2), (4, 3), (5, 3), (6, 3), (6, 4)]


@pytest.mark.parametrize("w,s", STATED, ids=[f"window({w}) cyclic + strided({s})" for w, s in STATED])
def test_the_stated_order_at_every_length(w, s):
    result = SP.engine(SP.file_text([(("cyclic", w), ("strided", s))], "n"))
    assert result is not None
    read = 0
    for n in sorted(set(range(3, 61)) | set(range(start(w, s), start(w, s) + s + 1))):
        claim = SP.claims_at(result, n)
        if claim is None or claim[1] is None:
            continue
        assert claim[0] == "UAP", (w, s, n, claim)
        assert claim[1] == order(w, s, n), (w, s, n, claim)
        read += 1
    assert read >= s + 1, (w, s, read)


@pytest.mark.parametrize("w,s", [(4, 2), (6, 3), (5, 3)], ids=["window(4) cyclic + strided(2)",
                                                                "window(6) cyclic + strided(3)",
                                                                "window(5) cyclic + strided(3)"])
def test_the_group_named_at_a_concrete_length_of_each_class(w, s):
    for n in range(start(w, s), start(w, s) + s):
        d = SP.engine(SP.file_text([(("cyclic", w), ("strided", s))], n)).to_dict()
        name, got = d["group"]["name"], d["group"]["order"]
        assert got == order(w, s, n), (w, s, n, got)
        if n % s == 0:
            assert name == "D_n", (w, s, n, name)
        elif w % s == 0 and n % s == 1:
            assert name.startswith("S_2 on {1, ") and "reflection" in name, (w, s, n, name)
        else:
            assert "reflection" in name and not name.startswith("S_2"), (w, s, n, name)
