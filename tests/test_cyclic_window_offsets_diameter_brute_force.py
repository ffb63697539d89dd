"""Theorem F168 (docs/theory.md §11.11): the diameter of `window(w) cyclic` with non-cyclic offsets outside it,
D = ⌊n/P⌋ + h(n mod P), stated at a symbolic n, against breadth-first search on the arcs of LANGUAGE.md's definitions
(tests/view_witness_reference.py, no import of uapcheck.graphs) at every n of two periods from the statement's range
start; the group order (F101) against a plain backtracking search; D + 1 layers never below D."""
from __future__ import annotations

from pathlib import Path

import pytest

import uapcheck

import view_witness_reference as R  # tests/ is on sys.path

CATALOG = Path(__file__).resolve().parents[1] / "catalog"

CASES = [
    ("window(1) cyclic + dilated(2, 4)", R.union(R.window_cyclic(1), R.dilated(2, 4)), 16),
    ("window(2) cyclic + offsets {-6, 3, 5}", R.union(R.window_cyclic(2), R.offsets([-6, 3, 5])), 11),
    ("window(1) cyclic + offsets {-4}", R.union(R.window_cyclic(1), R.offsets([-4])), 5),
    ("window(2) cyclic + offsets {4} + window(1)", R.union(R.window_cyclic(2), R.offsets([4]), R.window(1)), 6),
]


def _step(result, rule):
    return next(s for s in result.root.walk() if s.rule == rule)


@pytest.mark.parametrize("pattern, pred, period", CASES)
def test_the_stated_diameter_is_the_bfs_diameter(pattern, pred, period):
    r = uapcheck.check(f"tokens n\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n", "t.uap")
    assert r.verdict == "UAP"
    connected = _step(r, "PAT-CONNECTED")
    assert connected.facts["exact"] is True
    diameter = connected.facts["diameter"]
    n = next(s for s in r.layers.free_symbols if s.name == "n")
    start = next(m for m in range(1, 500) if bool(r.group.condition_formula.subs(n, m)))
    for length in range(start, start + 2 * period + 1):
        assert bool(r.group.condition_formula.subs(n, length))
        d = R.diameter([R.neighbourhoods(pred, length)], length)
        assert int(diameter.subs(n, length)) == d, (pattern, length)
        assert int(r.layers.subs(n, length)) >= d
    for length in (start, start + period + 1):
        assert R.group_order(length, [(R.neighbourhoods(pred, length), None)]) == int(r.group.order), (pattern, length)


def test_the_catalog_file_and_its_non_monotone_diameter():
    """catalog/cyclic_window_dilated_n.uap: D = 5 at n = 41, 6 at n = 40 and 42 (the file's comment), each by BFS, and
    the file's statement at n = 65…80: D layers, least, on every class (Theorem F184 on n mod 16 in {1, 3, 7, 8, 10,
    …, 15}, Theorem F227 on the others)."""
    pred = CASES[0][1]
    assert [R.diameter([R.neighbourhoods(pred, m)], m) for m in (40, 41, 42)] == [6, 5, 6]
    r = uapcheck.check((CATALOG / "cyclic_window_dilated_n.uap").read_text(), "t.uap")
    n = next(s for s in r.layers.free_symbols if s.name == "n")
    assert _step(r, "PAT-LAYERS").facts.get("least") is True
    for length in range(65, 81):
        d = R.diameter([R.neighbourhoods(pred, length)], length)
        assert int(r.layers.subs(n, length)) == d, length
