"""A real resource limit is reported as such and names the size that would fit: the diameter's probe budget
(graphs/connectivity.py) and the rooted views per layer, with and without a causal mask (graphs/layers.py,
graphs/layers_causal.py), which named their limit only. Each named size is checked here against the limit with the
scaling the message states."""
from __future__ import annotations

import re

from uapcheck.graphs import layers as LY
from uapcheck.graphs import layers_causal as LC
from uapcheck.graphs.build import build_graph
from uapcheck.graphs.connectivity import analyze_connectivity
from uapcheck.spec import Causal, Offsets, PatternUnion, Window


def _named(text: str) -> int:
    return int(re.search(r"up to about n = ([\d,]+)", text).group(1).replace(",", ""))


def test_the_probe_budget_names_the_size_whose_bfs_runs_fit():
    n = 3000
    g = build_graph(PatternUnion((Window(1), Offsets((37,), True))), n)
    c = analyze_connectivity([g], work_budget=5000)
    assert c.diameter is None and "ran out of their budget" in c.reason
    fit = _named(c.reason)
    per_position = g.num_arcs / n
    assert fit * fit * per_position <= 5000 < (fit + 1) * (fit + 1) * per_position
    assert c.fits_up_to == fit


def _sequence(n: int, parts) -> LY.LayerSequence:
    return LY.LayerSequence(n, tuple((build_graph(p, n),) for p in parts), True)


def test_the_views_per_layer_name_the_size_that_fits(monkeypatch):
    n = 30
    seq = _sequence(n, [Window(1), Window(2, True)])
    monkeypatch.setattr(LY, "MAX_VIEW_WORK", 1000)
    reach = LY.connectivity(seq, None)
    out = LY.least_layers(seq, reach.depth, 2, [], lambda p: list(p) == sorted(p), None)
    text = out.reason  # the covering lemma's count, not shown least: the reason names the views' limit
    assert not out.least and "limit 1,000;" in text and "grows like n³" in text
    work = int(re.search(r"about ([\d,]+) arc visits", text).group(1).replace(",", ""))
    assert _named(text) == max(1, int(n * (1000 / work) ** (1 / 3)))


def test_the_causal_views_name_the_size_that_fits(monkeypatch):
    n = 24
    seq = _sequence(n, [PatternUnion((Causal(),)), Window(1)])
    monkeypatch.setattr(LC, "MAX_CAUSAL_VIEW_WORK", 10)
    out = LC.causal_least_layers(seq, 1, 6)
    assert out.layers is None and "limit 10;" in out.reason
    fit = _named(out.reason)
    work = int(re.search(r"about ([\d,]+) arc visits", out.reason).group(1).replace(",", ""))
    assert fit == max(1, int(n * (10 / work) ** (1 / 3)))
