"""Theorem F192 of docs/theory.md §11.11 (several heads whose union needs D layers, D growing with n, and has the
reflection as its only symmetry, while the heads' group is smaller on some classes of n): D layers, least, on every
class, by F70 where the heads keep the reflection and by F124 where the reflection moves some head's neighbourhood of
every position. Every tuple against the concrete engine (graphs, BLISS rooted views with the heads as arc colours) at
every n from the range's start to 60, the tuples that start low against brute force over S_n
(tests/graphs/brute_views.py, no code shared with the engine) at every n of the range up to 8, and the verifier on a
certificate (and on a forged one)."""
from __future__ import annotations


import pytest
import sympy

from uapcheck.show import show_pattern
from uapcheck.spec import Blocks, Offsets, Window

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

# (heads, the range's start, the classes of n mod M decided by F124; the others by F70)
DECIDED = [
    ((Blocks(7), Window(6)), 19, {1, 2, 3, 4, 5, 6}),     # §13 L2′: the sweep's `blocks(7)` | `window(6)`
    ((Blocks(3), Window(2)), 7, {1, 2}),
    ((Blocks(3), Window(3)), 9, {1, 2}),
    ((Blocks(4), Window(3)), 10, {1, 2, 3}),
    ((Blocks(5), Window(4)), 13, {1, 2, 3, 4}),
    ((Blocks(6), Window(5)), 16, {1, 2, 3, 4, 5}),
    ((Blocks(4), Window(4)), 12, {1, 2, 3}),
    ((Blocks(5), Window(7)), 19, {1, 2, 3, 4}),
    ((Blocks(2), Window(1)), 4, {1}),
    ((Offsets((1,)), Window(3)), 7, {0}),                 # G trivial on every class
    ((Offsets((1, 2)), Window(2)), 5, {0}),
    ((Offsets((-1,)), Window(2)), 5, {0}),
    ((Offsets((2,)), Window(2)), 5, {0}),
    ((Offsets((-2, 1)), Window(2)), 5, {0}),
    ((Offsets((1,)), Window(1)), 3, {0}),
]
IDS = [" | ".join(map(show_pattern, h)) for h, _, _ in DECIDED]


@pytest.mark.parametrize("heads,low,classes", DECIDED, ids=IDS)
def test_the_count_is_the_concrete_engines_least_at_every_n_in_range(heads, low, classes):
    found = closed_least(heads)
    assert found is not None and found.theorem == "F192" and found.low == low
    assert {c.residue for c in found.growing if c.found_by == "F124"} == classes
    assert {c.residue for c in found.growing} == set(range(found.modulus))
    assert sympy.simplify(found.layers - found.diameter) == 0
    for n in lengths(low, NMAX, _every_n_to(found.growing, found.modulus)):
        here = next(c for c in found.growing if c.residue == n % found.modulus)
        if n < here.low:
            continue
        d, suffices = engine_least(heads, n)
        assert int(found.diameter.xreplace({N: n})) == d, n
        assert suffices, n  # D layers suffice: no view witness at depth D


@pytest.mark.parametrize("heads,low,classes", [t for t in DECIDED if t[1] <= 8],
                         ids=[i for i, t in zip(IDS, DECIDED) if t[1] <= 8])
def test_the_count_is_the_least_by_brute_force_at_small_n(heads, low, classes):
    found = closed_least(heads)
    texts = [show_pattern(h) for h in heads]
    for n in range(low, 9):
        here = next(c for c in found.growing if c.residue == n % found.modulus)
        if n < here.low:
            continue
        nbs = neighbourhoods(texts, n)
        d = brute_diameter(nbs, n)
        assert d == int(found.diameter.xreplace({N: n})), n
        assert brute_least(nbs, n) == d, n


def test_no_claim_where_the_union_is_no_window_with_the_reflection():
    # `window(3)` | `window(1)` keeps the reflection in both heads: F70 states it (not F192)
    found = closed_least((Window(3), Window(1)))
    assert found is not None and found.theorem == "F70"


def test_the_verifier_re_checks_the_count_and_rejects_a_forged_class(tmp_path):
    text = ("tokens n\nattention { kernel k(x, y) = exp(x . y); pattern blocks(7) }\n"
            "attention { kernel k(x, y) = exp(x . y); pattern window(6) }\n")
    cert = certificate_from_cli(text, tmp_path, no_cache=True)
    step = layers_step(cert)
    assert step["certificate"]["theorem"] == "F192" and step["data"]["least"]
    done = verify_with_cli(cert, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Theorem F192" in done.stdout
    # a class of F124 claimed as F70 (the heads' group is trivial there, the union's the reflection)
    done = verify_with_cli(forged_class(cert, 1, **{"found by": "F70"}), tmp_path)
    assert done.returncode != 0 and "REJECTED" in done.stdout
    # a class's bound below the range
    done = verify_with_cli(forged_class(cert, 4, **{"from": 18}), tmp_path)
    assert done.returncode != 0 and "REJECTED" in done.stdout
