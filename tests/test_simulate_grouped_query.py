"""`uapcheck simulate` on grouped-query heads (`heads H kv G`): H query heads, each with its own W_Q
and W_O, the query heads of one of the G groups sharing W_K and W_V (docs/theory.md §14.11(d))."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from uapcheck.parse import parse_source
from uapcheck.simulate import Options, simulate
from uapcheck.simulate.network import FLOAT, Model, Network, rotate
from uapcheck.simulate.run import _masks, instantiate

REPO = Path(__file__).resolve().parents[1]


def _network(text: str, depth: int = 1, seed: int = 0) -> Network:
    spec = parse_source(text, "t.uap")
    rng = np.random.default_rng(seed)
    concrete, constants, _ = instantiate(spec, Options(), rng)
    model = Model(concrete, concrete.tokens, concrete.dim, _masks(concrete), constants)
    return Network(model, rng, depth)


GQA = ("tokens 6\nattention {\n  kernel k(q, key) = exp(q . key)\n  heads 4 kv 2\n  pattern causal\n}\n"
       "ffn none\n")


def test_query_heads_of_a_group_share_key_and_value_only():
    net = _network(GQA)
    subs = net.layers[0].heads[0].query_heads
    assert subs is not None and len(subs) == 4
    # groups {1, 2} and {3, 4}: the same W_K, W_V arrays inside a group, different ones across groups
    assert subs[0].WK is subs[1].WK and subs[0].WV is subs[1].WV
    assert subs[2].WK is subs[3].WK and subs[2].WV is subs[3].WV
    assert not np.array_equal(subs[0].WK, subs[2].WK) and not np.array_equal(subs[0].WV, subs[2].WV)
    # every query head has its own W_Q and W_O
    for a in range(4):
        for b in range(a + 1, 4):
            assert not np.array_equal(subs[a].WQ, subs[b].WQ)
            assert not np.array_equal(subs[a].WO, subs[b].WO)


def _by_hand(X: np.ndarray, subs, causal: bool, rotary: bool) -> np.ndarray:
    """Σ_q softmax(Q_q K_qᵀ) V_q W_O^qᵀ in plain numpy, written independently of the network's head code."""
    n = X.shape[0]
    total = np.zeros_like(X)
    for sub in subs:
        Q, K, V = X @ sub.WQ.T, X @ sub.WK.T, X @ sub.WV.T
        if rotary:
            Q, K = rotate(Q, FLOAT, n), rotate(K, FLOAT, n)
        scores = np.exp(Q @ K.T)
        if causal:
            scores = np.tril(scores)
        weights = scores / scores.sum(axis=1, keepdims=True)
        total += (weights @ V) @ sub.WO.T
    return total


@pytest.mark.parametrize("rotary", [False, True])
def test_layer_output_is_the_sum_over_query_heads(rotary):
    text = GQA.replace("  pattern causal\n", "  pattern causal\n  rotary\n") if rotary else GQA
    net = _network(text)
    X = np.random.default_rng(3).normal(size=(6, net.model.d))
    states = net.forward(X, 1)
    expected = X + _by_hand(X, net.layers[0].heads[0].query_heads, causal=True, rotary=rotary)
    assert np.allclose(states[1], expected, rtol=1e-12, atol=1e-12)


def test_sharing_matters_a_grouped_layer_is_not_one_head():
    """Four query heads give a different layer from their first head alone (the sum is modelled)."""
    net = _network(GQA)
    X = np.random.default_rng(4).normal(size=(6, net.model.d))
    first = net.layers[0].heads[0].query_heads[:1]
    assert not np.allclose(net.forward(X, 1)[1], X + _by_hand(X, first, causal=True, rotary=False))


@pytest.mark.parametrize("name", ["llama_decoder.uap", "gqa.uap", "multi_query.uap"])
def test_catalog_grouped_query_files_simulate_and_agree(name):
    spec = parse_source((REPO / "catalog" / name).read_text(), name)
    sim = simulate(spec, None, Options(seed=0, samples=2))
    assert sim.consistent
    assert sim.demonstrations


def test_llama_decoder_prefix_experiment_one_layer_sees_the_order():
    """The derivation says one layer (§14.11(d)); the reversed prefix moves the one-layer output at n."""
    spec = parse_source((REPO / "catalog" / "llama_decoder.uap").read_text(), "llama_decoder.uap")
    sim = simulate(spec, None, Options(seed=0))
    prefix = [d for d in sim.demonstrations if d.kind == "prefix"]
    assert prefix and prefix[0].holds is True
    assert "after 1 layer the outputs at 8 differ" in "\n".join(prefix[0].lines)


def test_command_line_exit_zero_on_llama_decoder():
    run = subprocess.run([sys.executable, "-m", "uapcheck", "simulate", "catalog/llama_decoder.uap"],
                         capture_output=True, text=True, cwd=REPO, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "every experiment agrees with the verdict" in run.stdout
