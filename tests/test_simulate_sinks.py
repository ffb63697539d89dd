"""`uapcheck simulate` on attention sinks (docs/theory.md §21.9): the experiments' reach model is read layer by
layer from the network's own masks, so per-layer lists with sinks are simulated as the engine decides them.

The reach is checked against Theorem F128 (a)'s closed form, written here from its statement
(In_m(v) = [1, K_(0,m](v)] ∪ [max(1, v − W(0, m]), v]), and the sink catalog files against their verdicts.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from uapcheck.parse import parse_source
from uapcheck.simulate import Options, simulate
from uapcheck.simulate.experiments import Lab, reach_and_distance
from uapcheck.simulate.network import Model, Network
from uapcheck.simulate.run import _layer_masks, _masks, instantiate
from uapcheck.simulate.summary import render_text

from test_simulate import CATALOG, demo, load  # tests/ is on sys.path

INF = None  # a head of width ∞: the causal mask


def _head_text(w, k: int) -> str:
    if w is INF:
        base = "causal"
    elif w == 0:
        base = "" if k else "offsets {0}"
    else:
        base = f"causal & window({w})"
    sink = f"sinks({k})" if k else ""
    return " + ".join(part for part in (base, sink) if part)


def _spec(layers: list[tuple], n: int):
    body = ", ".join(_head_text(w, k) for w, k in layers)
    text = (f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern periodic {{ {body} }}\n}}\n"
            "target causal\n")
    return parse_source(text, "sinks.uap")


def _lab(spec, depth: int) -> Lab:
    rng = np.random.default_rng(0)
    concrete, constants, _ = instantiate(spec, Options(seed=0), rng)
    layer_masks, _ = _layer_masks(concrete)  # None for one pattern: a periodic list of one is that pattern
    masks = layer_masks[0] if layer_masks else _masks(concrete)
    model = Model(concrete, concrete.tokens, concrete.dim, masks, constants, layer_masks)
    return Lab(Network(model, rng, depth), rng, 1)


def _closed_form_reach(layers: list[tuple], n: int, m: int, v: int) -> set[int]:
    """F128 (a): In_m(v) = [1, K_(0,m](v)] ∪ [max(1, v − W(0, m]), v], K the largest sink count k < v of a layer
    ≤ m, W the sum of the layers' widths (∞ for the causal mask)."""
    p = len(layers)
    widths = [layers[q % p][0] for q in range(m)]
    sinks = [layers[q % p][1] for q in range(m)]
    total = None if any(w is INF for w in widths) else sum(widths)
    low = 1 if total is None else max(1, v - total)
    K = max([k for k in sinks if k < v], default=0)
    return set(range(1, K + 1)) | set(range(low, v + 1))


def test_reach_is_f128_closed_form_on_random_sink_lists():
    rnd = random.Random(13)
    for _ in range(40):
        n = rnd.randint(2, 11)
        layers = [(rnd.choice([0, 1, 2, 3, INF]), rnd.randint(0, min(3, n - 1))) for _ in range(rnd.randint(1, 3))]
        depth = 2 * n
        lab = _lab(_spec(layers, n), depth)
        for m in range(1, depth + 1):
            reach, _ = reach_and_distance(lab, m)
            for v in range(1, n + 1):
                got = {j + 1 for j in np.flatnonzero(reach[v - 1])}
                assert got == _closed_form_reach(layers, n, m, v), (layers, n, m, v)
        _, dist = reach_and_distance(lab)
        for v in range(1, n + 1):  # the least depth within which x_j reaches v
            for j in range(1, v + 1):
                first = next((m for m in range(depth + 1) if m == 0 and j == v or m and
                              j in _closed_form_reach(layers, n, m, v)), -1)
                assert dist[v - 1, j - 1] == first, (layers, n, v, j)


def test_early_sinks_reach_model_agrees_with_the_engine():
    """The file that disagreed with its experiment when sinks were read from layer 1 alone: at n = 8 every prefix
    is reached within 4 layers, and the separation that 4 layers predict holds."""
    sim = simulate(load("early_sinks_window_any_length.uap"), None, Options(seed=0, samples=2))
    assert sim.verdict == "UAP" and sim.consistent, render_text(sim)
    sep = demo(sim, "receptive-separation")
    assert sep.holds is True and sep.data["layers"] == 4
    assert sep.data["max_distance_of_agreeing_pairs"] == 0.0
    lab = _lab(_spec([(0, 2), (3, 0)], 8), 4)
    reach, _ = reach_and_distance(lab, 4)
    assert reach.sum() == 8 * 9 // 2  # every prefix, nothing after it
    three, _ = reach_and_distance(lab, 3)
    assert not three[7, 2]  # within 3 layers x_3 misses position 8 (D_c = 4)


SINK_FILES = sorted(p.name for p in CATALOG.glob("*.uap") if "sinks(" in p.read_text())


@pytest.mark.parametrize("name", SINK_FILES)
def test_sink_catalog_files_agree_with_their_experiments(name):
    from uapcheck.simulate.run import MAX_TOKENS
    spec = load(name)
    if isinstance(spec.tokens, int) and spec.tokens > MAX_TOKENS:
        pytest.skip("above the simulator's lengths")
    sim = simulate(spec, None, Options(seed=0, samples=2))
    assert sim.consistent, render_text(sim)
    assert sim.demonstrations and all(d.holds is not None for d in sim.demonstrations if d.kind != "prefix")
    if sim.verdict == "UAP":  # the count separates tokens with different receptive fields
        assert demo(sim, "receptive-separation").holds is True
