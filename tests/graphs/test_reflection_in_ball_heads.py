"""Theorem F198 of docs/theory.md §11.11 (lemma X: Theorem F124's reflection ruled out at a position of every ball): where
the union of several heads needs D layers with the reflection as its only symmetry and the reflection keeps every
head's neighbourhoods at some position (so F124's (X_K) fails on that class), it still moves one at a position within K
of every root that the root attends to; D layers, least, on those classes too (F192's growing D, F86's constant D).

Every tuple against the concrete engine (graphs, BLISS rooted views with the heads as arc colours) at every n from the
range's start to 60, the tuples that start low against brute force over S_n (tests/graphs/brute_views.py, no code
shared with the engine) at every n of the range up to 8, (X₁) and the failure of (X_K) re-read on the reference
neighbourhoods, and the verifier on a certificate (and on forged ones)."""
from __future__ import annotations


import pytest
import sympy

from uapcheck.show import show_pattern
from uapcheck.spec import Blocks, Offsets, PatternUnion, Strided, Window

from .brute_views import diameter as brute_diameter
from .brute_views import least_layers as brute_least
from .brute_views import neighbourhoods
from sample_sizes import lengths  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
from certificates import certificate_from_cli, forged_class, layers_step, verify_with_cli

from .heads_engines import closed_least, engine_least

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def _every_n_to(classes, modulus: int) -> int:
    """The normal run's engine sweep reads every n up to here (at least two whole periods of n mod M past the start of
    every class, and every n to 40), then NMAX; UAPCHECK_NIGHTLY=1 every n to NMAX."""
    return max(40, max(c.low for c in classes) + 2 * modulus - 1)


def _u(*parts):
    return PatternUnion(tuple(parts))


# (heads, the theorem, the range's start, the modulus, the classes of n decided by F198)
DECIDED = [
    ((_u(Blocks(3), Offsets((1,))), Window(3)), "F192", 9, 3, {0}),   # formerly D + 1 on every class (F192 no claim)
    ((_u(Blocks(3), Offsets((1, 2))), Window(2)), "F192", 7, 3, {0, 1, 2}),
    ((_u(Blocks(3), Offsets((2,))), Window(5)), "F192", 13, 3, {0}),
    ((_u(Blocks(3), Offsets((-1, 1))), Window(2)), "F192", 7, 3, {2}),
    ((_u(Blocks(4), Offsets((1,))), Window(3)), "F192", 10, 4, {0}),
    ((_u(Blocks(4), Offsets((-1,))), Window(4)), "F192", 12, 4, {0, 3}),
    ((_u(Blocks(4), Offsets((2,))), Window(3)), "F192", 10, 4, {0, 1}),
    ((_u(Blocks(4), Offsets((-1, 1))), Window(3)), "F192", 10, 4, {3}),
    ((_u(Blocks(5), Offsets((-1,))), Window(5)), "F192", 15, 5, {0, 4}),
    ((_u(Blocks(3), Strided(2)), Window(1)), "F86", 14, 6, {2, 5}),    # the union F7's window(1) + strided(2), D = 2
    ((_u(Blocks(4), Strided(2)), Window(3)), "F86", 30, 4, {1, 3}),
    ((_u(Blocks(4), Strided(3)), Window(2)), "F86", 33, 12, {3, 7, 11}),
]
IDS = [" | ".join(map(show_pattern, h)) for h, *_ in DECIDED]


def _classes(found):
    return found.growing or found.classes


def _count_at(found, n: int) -> int:
    if found.theorem == "F86":
        return next(c.layers for c in found.classes if c.residue == n % found.modulus)
    return int(found.layers.xreplace({N: n}))


@pytest.mark.parametrize("heads,theorem,low,modulus,classes", DECIDED, ids=IDS)
def test_the_count_is_the_concrete_engines_least_at_every_n_in_range(heads, theorem, low, modulus, classes):
    found = closed_least(heads)
    assert found is not None and found.theorem == theorem and found.low == low and found.modulus == modulus
    assert {c.residue for c in _classes(found) if c.found_by == "F198"} == classes
    assert {c.residue for c in _classes(found)} == set(range(modulus))
    for n in lengths(low, NMAX, _every_n_to(_classes(found), modulus)):
        here = next(c for c in _classes(found) if c.residue == n % modulus)
        if n < here.low:
            continue
        d, suffices = engine_least(heads, n)
        assert int(found.diameter.xreplace({N: n})) == d, n
        assert _count_at(found, n) == (d if suffices else d + 1), n
        if here.found_by == "F198":
            assert suffices, n  # D layers, and no fewer (§11.1)


@pytest.mark.parametrize("heads,theorem,low,modulus,classes", [t for t in DECIDED if t[2] <= 8],
                         ids=[i for i, t in zip(IDS, DECIDED) if t[2] <= 8])
def test_the_count_is_the_least_by_brute_force_at_small_n(heads, theorem, low, modulus, classes):
    found = closed_least(heads)
    texts = [show_pattern(h) for h in heads]
    seen = set()
    for n in range(low, 9):
        here = next(c for c in _classes(found) if c.residue == n % modulus)
        if n < here.low:
            continue
        nbs = neighbourhoods(texts, n)
        d = brute_diameter(nbs, n)
        assert d == int(found.diameter.xreplace({N: n})), n
        assert brute_least(nbs, n) == _count_at(found, n) == d, n
        seen.add(here.found_by)
    assert "F198" in seen


def _attends(nbs, h: int, v: int, u: int) -> bool:
    return u in nbs[h][v]


def _moved(nbs, n: int, v: int, reach: int) -> bool:
    """(X_K) at v on the reference neighbourhoods: some head and u ≠ v within K with v → u and ρv → ρu differing."""
    return any(_attends(nbs, h, v, u) != _attends(nbs, h, n + 1 - v, n + 1 - u)
               for h in range(len(nbs)) for u in range(max(1, v - reach), min(n, v + reach) + 1) if u != v)


@pytest.mark.parametrize("heads,theorem,low,modulus,classes", DECIDED[:6], ids=IDS[:6])
def test_x1_holds_where_xk_fails_on_the_reference_neighbourhoods(heads, theorem, low, modulus, classes):
    # K: the largest part size (the blocks' size, the window's radius, the offsets' jumps)
    reach = max([p.w for p in heads if isinstance(p, Window)]
                + [q.b if isinstance(q, Blocks) else max(abs(k) for k in q.offsets)
                   for p in heads if isinstance(p, PatternUnion) for q in p.parts if isinstance(q, (Blocks, Offsets))])
    texts = [show_pattern(h) for h in heads]
    found = closed_least(heads)
    for r in sorted(classes):
        here = next(c for c in _classes(found) if c.residue == r)
        n = max(here.low, 2 * (2 * reach + 2) + modulus)   # a length of the class past F124's profile bound
        n += (r - n) % modulus
        nbs = neighbourhoods(texts, n)
        at = {v: _moved(nbs, n, v, reach) for v in range(1, n + 1)}
        # (X_K) fails at some position (F124 makes no claim on the class) …
        assert not all(at.values()), (r, n)
        # … while every root attends to (or is) a position within K where it holds (the root's ball holds it)
        for i in range(1, n + 1):
            assert any(at[v] and any(v in nbs[h][i] for h in range(len(nbs)))
                       for v in range(max(1, i - reach), min(n, i + reach) + 1)), (r, n, i)


def test_no_claim_where_a_ball_misses_every_moved_position():
    # `blocks(3)` | `window(2)` keeps the reflection on n ≡ 0 (mod 3) in both heads: F70 there, no F198 class
    found = closed_least((Blocks(3), Window(2)))
    assert found is not None and not any(c.found_by == "F198" for c in _classes(found))


@pytest.mark.parametrize("text,theorem,residue", [
    ("tokens n\nattention { kernel k(x, y) = exp(x . y); pattern blocks(3) + offsets {1} }\n"
     "attention { kernel k(x, y) = exp(x . y); pattern window(3) }\n", "F192", 0),
    ("tokens n\nattention { kernel k(x, y) = exp(x . y); pattern blocks(3) + strided(2) }\n"
     "attention { kernel k(x, y) = exp(x . y); pattern window(1) }\n", "F86", 2),
], ids=["F192", "F86"])
def test_the_verifier_re_checks_the_class_and_rejects_forged_ones(tmp_path, text, theorem, residue):
    cert = certificate_from_cli(text, tmp_path, no_cache=True)
    step = layers_step(cert)
    assert step["certificate"]["theorem"] == theorem and step["data"]["least"]
    assert any(c["found by"] == "F198" and c["residue"] == residue for c in step["certificate"]["classes"])
    done = verify_with_cli(cert, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "F198" in done.stdout
    # the class restated as F124: (X_K) fails there on the verifier's arcs
    done = verify_with_cli(forged_class(cert, residue, **{"found by": "F124"}), tmp_path)
    assert done.returncode != 0 and "REJECTED" in done.stdout
    # the class's bound below the range
    m = step["certificate"]["modulus"]
    done = verify_with_cli(forged_class(cert, residue, **{"from": residue if residue else m}), tmp_path)
    assert done.returncode != 0 and "REJECTED" in done.stdout
