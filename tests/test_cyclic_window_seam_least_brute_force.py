"""Theorem F184 (docs/theory.md §11.11): `window(1) cyclic + dilated(2, 4)` (catalog/cyclic_window_dilated_n.uap) needs
only D layers on n mod 16 ∈ {3, 7, 8, 10, 11, 13}. At n = 67 (≡ 3) the statement is D = 8 layers, least; an exact
search for a view witness at depth D (every isomorphism of rooted views, §11.9's Lemma 1, by individualisation and
refinement, tests/view_witness_reference.py, no import of uapcheck.graphs) finds none outside the reflection."""
from __future__ import annotations

from pathlib import Path

import uapcheck

import view_witness_reference as R  # tests/ is on sys.path

CATALOG = Path(__file__).resolve().parents[1] / "catalog"


def test_d_layers_at_a_least_class_have_no_view_witness():
    n = 67
    r = uapcheck.check((CATALOG / "cyclic_window_dilated_n.uap").read_text(), "t.uap")
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    period, least = step.facts["least_classes"]
    assert n % period in least
    nb = R.neighbourhoods(R.union(R.window_cyclic(1), R.dilated(2, 4)), n)
    d = R.diameter([nb], n)
    nsym = next(s for s in r.layers.free_symbols if s.name == "n")
    assert int(r.layers.subs(nsym, n)) == d == 8
    assert R.group_order(n, [(nb, None)]) == 2
    group = [tuple(range(n + 1)), tuple([0] + [n + 1 - v for v in range(1, n + 1)])]
    assert R.rooted_view_witness(n, [nb], d, group, roots=range(1, (n + 1) // 2 + 1)) is None
