"""Theorem F149 (docs/theory.md §16.5): at D = 1 a fixed offset bias on a complete head reads its labels in the first
layer, so with no one-layer labelled witness one layer suffices. The case it decides: ALiBi's even −m·|i − j| beside a
window with T5 buckets at w + 2 ≤ n ≤ 2w + 1 (formerly two layers, sufficient, not shown least).

Checked against a brute force over S_n (n ≤ 7) of the labelled one-layer views with the released bucket function in
floating point, the closed statement (one layer exactly up to n = 2w + 1) against the engine's and the verifier's
row comparisons at every n ≤ 60, numerically with a softmax layer in numpy (one layer separates every σ ≠ id at
n = 2w + 1; the witness at n = 2w + 2 gives equal outputs), and by the verifier, which rejects forged certificates."""
from __future__ import annotations

import copy
import itertools

import numpy as np
import pytest

import uapcheck
from uapcheck.graphs.build import build_graph
from uapcheck.rules import depth_one
from uapcheck.rules.positions import t5_bucket
from uapcheck import spec as S
from uapcheck.verifier import verify
from uapcheck.verifier import depth_one as verifier_depth_one

from certificates import certificate_from_cli  # tests/ is on sys.path
from t5_buckets import brute, bucket_label, released_bucket, window_neighbours

KERNEL = "  kernel k(q, key) = exp(q . key)\n"
EVEN = "bias b(i, j) = -m * |i - j|"


def program(n, w: int, buckets: tuple, beside: str = EVEN) -> str:
    return (f"tokens {n}\nparam m > 0\nattention {{\n{KERNEL}  pattern window({w})\n  bias buckets{buckets}\n}}\n"
            f"attention {{\n{KERNEL}  {beside}\n}}\n")


def complete(n: int) -> list:
    return [set()] + [set(range(1, n + 1)) for _ in range(n)]


def layer_step(r):
    return next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")


@pytest.mark.parametrize("w,buckets", [(1, (8, 16)), (2, (8, 16)), (2, (4, 8)), (3, (8, 16))])
def test_the_least_count_against_brute_force(w, buckets):
    """One layer, least, at w + 2 ≤ n ≤ 2w + 1 (no joint witness: Theorem F149), two, least, from 2w + 2 (the shift
    and the mirror pair of §16.5); the brute force over S_n agrees at every n ≤ 7."""
    for n in range(w + 2, 8):
        heads = [(window_neighbours(n, w), bucket_label(buckets)), (complete(n), lambda q, k: abs(k - q))]
        least = brute(n, heads)[1]
        assert least == (1 if n <= 2 * w + 1 else 2), (w, n)
        r = uapcheck.check(program(n, w, buckets), "t.uap")
        step = layer_step(r)
        assert (r.verdict, r.group.order, r.layers, step.facts["least"]) == ("UAP", 1, least, True), (w, n)
        assert (step.certificate.kind == "depth-one-labelled") == (least == 1), (w, n)


def _engine_witness(n: int, w: int, buckets: tuple):
    kinds = [f"buckets{buckets}", "symmetric toeplitz"]
    graphs = [build_graph(S.Window(w, False), n, {}), build_graph(S.Full(), n, {})]
    return depth_one.one_layer_witness(kinds, graphs, n)


def _verifier_witness(n: int, w: int, buckets: tuple):
    arcs = [frozenset((j, i) for i in range(1, n + 1) for j in range(1, n + 1) if 0 < abs(i - j) <= w),
            frozenset((j, i) for i in range(1, n + 1) for j in range(1, n + 1) if i != j)]
    return verifier_depth_one.witness(arcs, [buckets, "symmetric toeplitz"], n)


@pytest.mark.parametrize("w,buckets", [(1, (8, 16)), (2, (8, 16)), (3, (4, 8)), (5, (32, 128)), (9, (16, 64))])
def test_the_statement_against_both_row_comparisons_up_to_sixty(w, buckets):
    """A one-layer joint witness exists exactly from n = 2w + 2 (w + 2 ≤ n ≤ 60): the engine's and the verifier's
    independent row comparisons agree with the statement of §16.5 (1)–(3) at every length."""
    for n in range(w + 2, 61):
        want = n >= 2 * w + 2
        assert (_engine_witness(n, w, buckets) is not None) == want, (w, n)
        assert (_verifier_witness(n, w, buckets) is not None) == want, (w, n)


def test_the_bucket_functions_agree_on_the_offsets_used():
    for m in range(-60, 61):
        for b in ((8, 16), (4, 8), (32, 128), (16, 64)):
            assert t5_bucket(m, *b) == released_bucket(m, *b) or abs(m) in (16, 64, 128), (m, b)


# Numerically: one softmax layer with both heads (numpy)

def _softmax_rows(scores):
    scores = scores - scores.max(axis=1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(axis=1, keepdims=True)


def _layer(X, params, n: int, w: int, buckets: tuple, slope: float):
    (wq1, wk1, wv1, table), (wq2, wk2, wv2) = params
    idx = np.arange(1, n + 1)
    offsets = idx[None, :] - idx[:, None]  # key − query
    window = np.where(np.abs(offsets) <= w, 0.0, -np.inf)
    bucket_bias = np.vectorize(lambda m: table[released_bucket(int(m), *buckets)])(offsets)
    a1 = _softmax_rows((X @ wq1) @ (X @ wk1).T + bucket_bias + window)
    a2 = _softmax_rows((X @ wq2) @ (X @ wk2).T - slope * np.abs(offsets))
    return X + a1 @ X @ wv1 + a2 @ X @ wv2


def _params(rng, d: int, buckets: tuple):
    return ((rng.normal(size=(d, d)), rng.normal(size=(d, d)), rng.normal(size=(d, d)), rng.normal(size=buckets[0])),
            (rng.normal(size=(d, d)), rng.normal(size=(d, d)), rng.normal(size=(d, d))))


@pytest.mark.parametrize("w", [1, 2])
def test_numerically_one_layer_separates_every_rearrangement_up_to_2w_plus_1(w):
    """At n = 2w + 1 (w = 1, 2) one layer with random parameters tells (X, k) from (σX, σk) for every σ ≠ id and
    every k; at n = 2w + 2 the engine's witness gives equal outputs at its row for the same parameters."""
    rng = np.random.default_rng(7)
    buckets, slope, d = (8, 16), 0.7, 3
    n = 2 * w + 1
    X = rng.normal(size=(n, d))
    params = _params(rng, d, buckets)
    out = _layer(X, params, n, w, buckets, slope)
    gaps = []
    for images in itertools.permutations(range(n)):
        if images == tuple(range(n)):
            continue
        perm = np.array(images)
        Y = np.empty_like(X)
        Y[perm] = X  # (σX)_{σ(k)} = X_k
        out_y = _layer(Y, params, n, w, buckets, slope)
        gaps.append(min(np.linalg.norm(out[k] - out_y[perm[k]]) for k in range(n)))
    assert min(gaps) > 1e-4
    n = 2 * w + 2
    i, j = _engine_witness(n, w, buckets)
    assert i == w + 1 and j == w + 2  # the shift of §16.5 (2): u ↦ u + 1, 2w + 2 ↦ 1
    perm = np.array([(u + 1) % n for u in range(n)])
    X = rng.normal(size=(n, d))
    Y = np.empty_like(X)
    Y[perm] = X
    assert np.linalg.norm(_layer(X, params, n, w, buckets, slope)[i - 1]
                          - _layer(Y, params, n, w, buckets, slope)[j - 1]) < 1e-12


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_verifier_rechecks_and_rejects_forgeries(tmp_path):
    cert = certificate_from_cli(program(5, 2, (8, 16)), tmp_path)
    report = verify(cert)
    assert report.ok and report.complete, report
    assert _step(cert, "PAT-LAYERS")["certificate"]["kind"] == "depth-one-labelled"
    group = copy.deepcopy(cert)  # a group other than the trivial one
    _step(group, "SYM-AUT")["data"].update(name="reflection", order=2)
    assert not verify(group).ok
    # at n = 2w + 2 = 6 the shift keeps a row's labels in both heads: the theorem's one layer is rejected there
    six = certificate_from_cli(program(6, 2, (8, 16)), tmp_path)
    assert verify(six).ok and _step(six, "PAT-LAYERS")["data"]["layers"] == 2
    layers = _step(six, "PAT-LAYERS")
    layers["data"].update(layers=1, least=True)
    layers["certificate"] = copy.deepcopy(_step(cert, "PAT-LAYERS")["certificate"])
    assert not verify(six).ok


def test_the_verifier_accepts_d_layers_with_fixed_weights_only_through_lemma_v_rho(tmp_path):
    """A D-layer count stated least on a sparse head with a fixed offset term is accepted by trying S_n only where
    Lemma V^ρ makes "no labelled witness" enough (Theorem F161: a fixed bias on a softmax head); with a `reweight`
    factor the verifier leaves it trusted (§18.5)."""
    cert = certificate_from_cli("tokens 6\nparam m > 0\nattention {\n" + KERNEL + "  pattern window(1)\n"
                                "  bias b(i, j) = -m * (i - j)\n}\n", tmp_path)
    step = _step(cert, "PAT-LAYERS")
    assert step["data"]["least"] is True and step["data"]["layers"] == step["data"]["diameter"]
    assert verify(cert).complete
    factor = certificate_from_cli("tokens 6\nattention {\n" + KERNEL + "  pattern window(1)\n"
                                  "  reweight c(i, j) = exp(j - i)\n}\n", tmp_path)
    step = _step(factor, "PAT-LAYERS")
    step["data"]["layers"], step["data"]["least"] = step["data"]["diameter"], True
    report = verify(factor)
    assert not report.complete and not any(s.outcome == "rejected" for s in report.steps)


def test_a_window_of_param_radius_beside_a_fixed_complete_head_is_not_an_internal_error():
    """Theorem F149 reads the heads' arcs at the integer n; a window whose radius is a param (complete at n = 16 for
    every w ≥ 4097) has no arcs at one value, so the theorem is not applied there and the count stays the derived
    one (building the arcs raised KeyError: an internal error, found by fuzzing)."""
    import uapcheck
    text = ("param w integer >= 4097\ntokens 16\nparam m > 0\nattention {\n  kernel k(q, key) = exp(q . key)\n"
            "  pattern window(w)\n  bias buckets(32, 128)\n}\nattention {\n  kernel k(q, key) = exp(q . key)\n"
            "  bias b(i, j) = -m * |i - j|\n}\n")
    result = uapcheck.check(text, "t.uap")
    assert str(result.verdict) in ("UAP", "INCONCLUSIVE")
