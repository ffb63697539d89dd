"""Theorem F227 wired (docs/theory.md §11.11): `window(1) cyclic + dilated(2, 4)` states D layers, least, on F184's
open classes n mod 16 ∈ {0, 2, 4, 5, 6, 9} where the engine's check (uapcheck/graphs/cyclic_window_dilated_an.py) and
the verifier's own (uapcheck/verifier/cyclic_window_dilated_an.py, nauty on its own arcs) hold. Checked a second way:
the stated count and least flag against the concrete engine at every length 65…100 of those classes; the engine's
roots without blocks and distances against the lemma's test reference (tests/graphs/test_cyclic_window_dilated_lemma_an
.py); with the check failing on a class, the engine states D + 1, sufficient, there."""
from __future__ import annotations

import numpy as np
import pytest
import sympy

from uapcheck.graphs import cyclic_window_dilated_an as an
from uapcheck.graphs import families
from uapcheck.graphs.cyclic_window_seam_least import seam_classes
from uapcheck.graphs.families import concrete

from .test_cyclic_window_dilated_lemma_an import PATTERN, _matrix_distances, _without_blocks


def test_the_engine_and_the_verifier_decide_all_six_classes():
    from uapcheck.verifier import cyclic_window_dilated_an as mine
    assert an.decided_classes() == an.OPEN == mine.CLASSES
    found = seam_classes(1, (-8, -4, 4, 8), 65)
    assert found.by_cut == an.OPEN and found.least == tuple(range(16)) and not any(found.extra[r] for r in an.OPEN)


@pytest.mark.parametrize("n", [n for n in range(65, 101) if n % 16 in an.OPEN])
def test_the_count_is_the_concrete_engines(n):
    stated = families.match([PATTERN], sympy.Integer(n), {})
    found = concrete(PATTERN, n)
    assert stated.theorem == "F101" and stated.least_at(n) and found.least
    assert int(stated.layers) == found.layers == n // 16 + 3


@pytest.mark.parametrize("n", [82, 100, 177, 233])
def test_the_engines_helpers_are_the_references(n):
    dist = an.matrix_distances(n)
    assert np.array_equal(dist, _matrix_distances(n))
    assert an.roots_without_blocks(n, dist) == _without_blocks(n, dist)


def test_a_class_the_check_does_not_decide_stays_sufficient(monkeypatch):
    """With the check failing on class 0, F184's D + 1, not least, stays there (the classes read afresh)."""
    monkeypatch.setattr(an, "decided_classes", lambda: (2, 4, 5, 6, 9))
    seam_classes.cache_clear()
    try:
        found = seam_classes(1, (-8, -4, 4, 8), 65)
        assert found.extra[0] == 1 and 0 not in found.least and found.by_cut == (2, 4, 5, 6, 9)
    finally:
        seam_classes.cache_clear()


def test_the_verifiers_check_from_a_later_length_does_not_pass_over_the_roots_with_blocks():
    """F227 (c) passes over the roots with blocks at n ≥ 82 because a witness there is cut to n − 16, which the check
    read before: from a first length past 82 − 16 that length was never read, and the verifier says so."""
    from uapcheck.verifier import cyclic_window_dilated_an as mine
    assert "n = 100: the check at the roots without blocks needs n − 16 = 84 checked" in mine.class_problem(4, 90)
