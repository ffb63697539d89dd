"""Attention-sink logits (docs/theory.md §17.4, HEADS-SINK): `sink logit learned` (gpt-oss) and `sink logit B`
(softmax1 at B = 0).

The derivation: a learned logit keeps the sink-free verdict, group and least count (Theorem F194) wherever the
sink-free head's step is a proved one-layer step, a fixed logit does so for exp(c x·y + a) (Theorem F195), and every
other case is undecided (never NOT-UAP from the kernel). The verifier re-checks the step and rejects a proved fixed
logit outside F195's class. Numerically (uapcheck.simulate): the sink network tends to the sink-free one as b → −∞
with the gap of order e^b, and Lemma J's two regimes separate a pair with a fixed logit."""
from __future__ import annotations

import json

import numpy as np
import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.parse import parse_source
from uapcheck.simulate import Options, simulate
from uapcheck.simulate.evaluate import FLOAT
from uapcheck.simulate.network import Model, Network
from uapcheck.simulate.run import _masks, instantiate
from uapcheck.verifier import REJECTED, VERIFIED, verify

HEAD = "attention {{\n  kernel k(x, y) = {kernel}\n{items}}}\n"


def source(pattern: str = "", sink: str = "", kernel: str = "exp(x . y)", tokens: str = "8", extra: str = "") -> str:
    items = "".join(f"  {line}\n" for line in (pattern, sink) if line)
    return f"tokens {tokens}\n" + extra + HEAD.format(kernel=kernel, items=items)


def rules(result) -> dict:
    return {s.rule: s for s in result.root.walk()}


PATTERNS = ["", "pattern window(1)", "pattern window(2) cyclic", "pattern causal", "pattern causal & window(2)",
            "pattern window(1) + global(1)", "pattern periodic { causal & window(2), causal }",
            "pattern causal & window(2) + sinks(2)", "pattern window(1)\n  bias toeplitz", "bias free",
            "pattern causal & window(2)\n  bias circulant"]


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("sink", ["sink logit learned", "sink logit 0", "sink logit -2"])
@pytest.mark.parametrize("target", ["", "target causal\n"])
def test_a_sink_logit_keeps_the_sink_free_verdict_group_and_count(pattern, sink, target):
    """F194 and F195: the same verdict, group, count and least flag as the sink-free file (exp(x . y))."""
    if target and "causal" not in pattern:
        pattern = pattern or "pattern causal"
    free = uapcheck.check(source(pattern) + target, "t.uap")
    with_sink = uapcheck.check(source(pattern, sink) + target, "t.uap")
    if "bias" in pattern and "learned" not in sink:  # F195 is proved without positions: the step stays open
        assert rules(with_sink)["HEADS-SINK"].status.name == "UNDECIDED" and with_sink.verdict != "UAP"
        return
    assert with_sink.verdict == free.verdict and with_sink.layers == free.layers
    assert str(with_sink.group) == str(free.group)
    if free.target is not None:
        assert (with_sink.target.verdict, with_sink.target.layers, with_sink.target.least) == \
            (free.target.verdict, free.target.layers, free.target.least)
    step = rules(with_sink)["HEADS-SINK"]
    assert step.proved and step.facts["layers"] == 1


@pytest.mark.parametrize("n", [3, 5, 8, 12])
def test_symbolic_and_concrete_lengths_agree_with_the_sink_free_file(n):
    for pattern in ("pattern causal & window(2)", "pattern periodic { causal & window(2), causal }"):
        free = uapcheck.check(source(pattern, tokens=str(n)) + "target causal\n", "t.uap")
        sink = uapcheck.check(source(pattern, "sink logit learned", tokens=str(n)) + "target causal\n", "t.uap")
        assert (sink.target.verdict, sink.target.layers, sink.target.least) == \
            (free.target.verdict, free.target.layers, free.target.least)


def test_a_fixed_logit_outside_f195_is_undecided_and_a_learned_one_carries():
    bounded = "2 + tanh(x . y)"
    fixed = uapcheck.check(source(sink="sink logit 0", kernel=bounded), "t.uap")
    assert fixed.verdict == "INCONCLUSIVE" and rules(fixed)["HEADS-SINK"].status.name == "UNDECIDED"
    scaled = uapcheck.check(source(sink="sink logit 1", kernel="exp(3 * x . y + 2)"), "t.uap")  # c = 3, a = 2: F195
    assert scaled.verdict == "UAP" and rules(scaled)["HEADS-SINK"].proved
    free = uapcheck.check(source(kernel=bounded), "t.uap")
    learned = uapcheck.check(source(sink="sink logit learned", kernel=bounded), "t.uap")
    assert learned.verdict == (free.verdict if free.verdict == "UAP" else "INCONCLUSIVE")


def test_a_kernel_not_uap_without_the_sink_is_undecided_with_it():
    """A one-layer witness pair of the sink-free kernel may be separated by the extra weight: not carried."""
    free = uapcheck.check(source(kernel="1"), "t.uap")
    sink = uapcheck.check(source(sink="sink logit learned", kernel="1"), "t.uap")
    assert free.verdict != "UAP" and sink.verdict != "UAP"
    assert rules(sink)["HEADS-SINK"].status.name == "UNDECIDED"


def test_a_disconnected_pattern_stays_not_uap():
    """The multiset form: the output at i ignores tokens it cannot reach, with or without the sink."""
    sink = uapcheck.check(source("pattern causal", "sink logit learned"), "t.uap")
    assert sink.verdict == "NOT-UAP"


def _certificate(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _outcome(cert, rule):
    return next(s for s in verify(cert).steps if s.rule == rule)


@pytest.mark.parametrize("text", [source("pattern window(1)", "sink logit learned"),
                                  source("pattern causal & window(2)", "sink logit 0") + "target causal\n",
                                  source("", "sink logit learned\n  heads 8 kv 2")])
def test_the_verifier_re_checks_the_step(text):
    cert = _certificate(text)
    assert _outcome(cert, "HEADS-SINK").outcome == VERIFIED
    assert verify(cert).ok


def test_the_verifier_rejects_a_fixed_logit_outside_f195_stated_proved():
    cert = _certificate(source(sink="sink logit 0", kernel="2 + tanh(x . y)"))
    step = next(s for s in cert["steps"] if s["rule"] == "HEADS-SINK")
    assert _outcome(cert, "HEADS-SINK").outcome == VERIFIED  # undecided asserts nothing
    step["status"] = "proved"
    assert _outcome(cert, "HEADS-SINK").outcome == REJECTED
    cert = _certificate(source(sink="sink logit learned"))
    next(s for s in cert["steps"] if s["rule"] == "HEADS-SINK")["status"] = "refuted"
    assert _outcome(cert, "HEADS-SINK").outcome == REJECTED


# --- numerics (uapcheck simulate) ------------------------------------------------------------------------------

def _network(text: str, depth: int, seed: int = 0) -> Network:
    spec = parse_source(text, "t.uap")
    rng = np.random.default_rng(seed)
    concrete, constants, _ = instantiate(spec, Options(), rng)
    model = Model(concrete, concrete.tokens, concrete.dim, _masks(concrete), constants)
    return Network(model, rng, depth)


def _set_sinks(net: Network, b) -> None:
    for layer in net.layers:
        for hp in layer.heads:
            for sub in hp.query_heads or (hp,):
                sub.sink = b
            hp.sink = b


def test_the_simulator_draws_and_evaluates_the_sink_logit():
    net = _network(source("pattern causal & window(2)", "sink logit learned\n  heads 4 kv 2", tokens="6"), 2)
    assert all(sub.sink is not None for hp in net.layers[0].heads for sub in hp.query_heads)
    fixed = _network(source("", "sink logit -3", tokens="5"), 1)
    assert fixed.layers[0].heads[0].sink == -3.0
    # one dense layer by hand: weights exp(q·k) / (e^b + Σ exp(q·k)), the sink's column dropped
    X = np.random.default_rng(1).normal(size=(5, fixed.model.d))
    hp = fixed.layers[0].heads[0]
    Q, K, V = X @ hp.WQ.T, X @ hp.WK.T, X @ hp.WV.T
    w = np.exp(Q @ K.T)
    want = (w @ V) / (np.exp(-3.0) + w.sum(axis=1))[:, None] @ hp.WO.T
    assert np.allclose(fixed.head_output(0, hp, X, FLOAT), want, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("pattern", ["", "pattern causal & window(2)", "pattern window(1) + global(1)"])
def test_the_sink_network_tends_to_the_sink_free_one(pattern):
    """F194(a): with every other parameter fixed, sup over samples of |T^b − T| → 0 as b → −∞, of order e^b."""
    net = _network(source(pattern, "sink logit learned", tokens="7"), 3, seed=2)
    X = np.random.default_rng(3).normal(size=(4, 7, net.model.d))

    def outputs(b):
        _set_sinks(net, b)
        return np.stack([net.forward(x)[-1] for x in X])
    free = outputs(None)
    traces: list = []
    for x in X:
        net.forward(x, traces=traces)
    # the bound of (a) is V·e^b / S_min: b is measured from log S_min, the smallest sink-free normaliser on X
    low = float(np.log(min(float(np.min(t.denominators)) for layer in traces for t in layer)))
    gaps = {s: float(np.abs(outputs(low + s) - free).max()) for s in (0.0, -4.0, -8.0, -12.0, -40.0)}
    assert gaps[0.0] > gaps[-4.0] > gaps[-8.0] > gaps[-12.0] and gaps[-40.0] < 1e-10
    for s in (-4.0, -8.0):  # the gap is C·e^b to first order: lowering b by 4 divides it by about e^4
        assert 0.5 * np.exp(4) < gaps[s] / gaps[s - 4] < 2 * np.exp(4)
    assert gaps[0.0] > 1e-3  # the sink is not negligible at b = log S_min: the test can fail


@pytest.mark.parametrize("b", [0, -2, 3])
def test_lemma_j_separates_a_pair_in_both_regimes(b):
    """Lemma J: X and X′ share the query state x and differ in one neighbour; with W_K = tW the difference of the
    outputs at the shared position times (τ + D_S)(τ + D_S′), divided by κ_{z*}κ_{b*} (u·b* > 0) or by κ_{z*}
    (u·b* < 0), tends to z* − b* or τ z*; W is chosen so that u = Wᵀx puts the pair in each regime once."""
    d = 3
    rng = np.random.default_rng(10)
    states = [rng.normal(size=d) for _ in range(4)]  # x, a common neighbour, a (in X only), a′ (in X′ only)
    S, S2 = np.array(states[:3]), np.array([states[0], states[1], states[3]])  # dense: every state a neighbour
    tau = np.exp(b)
    net = _network(source("", f"sink logit {b}", tokens="3", extra="dim 3\n"), 1)
    hp = net.layers[0].heads[0]
    hp.WQ, hp.WV, hp.WO = np.eye(d), np.eye(d), np.eye(d)
    regimes = set()
    # u = Wᵀx prescribed on x, the common state and a′ (W = x uᵀ/|x|²): the other sample's strongest state positive,
    # then every state of the other sample negative
    for values in ((1.0, -1.0, -2.0), (-1.0, -2.0, -3.0)):
        u = np.linalg.solve(np.array([states[0], states[1], states[3]]), np.array(values))
        W = np.outer(states[0], u) / (states[0] @ states[0])
        z = max((2, 3), key=lambda k: u @ states[k])  # the strongest state of S △ S′
        mine, other = (S, S2) if z == 2 else (S2, S)
        bstar = max(other, key=lambda s: u @ s)
        errors = []
        for t in (2.0, 5.0, 10.0):  # beyond t ≈ 10 the float difference of the outputs is round-off
            hp.WK = t * W
            out = net.head_output(0, hp, mine, FLOAT)[0] - net.head_output(0, hp, other, FLOAT)[0]
            assert np.linalg.norm(out) > 0
            kz, kb = np.exp(t * (u @ states[z])), np.exp(t * (u @ bstar))
            scaled = (tau + np.exp(t * (mine @ u)).sum()) * (tau + np.exp(t * (other @ u)).sum()) * out
            if u @ bstar > 0:  # the fixed weight is negligible
                limit, got = states[z] - bstar, scaled / (kz * kb)
            else:  # the fixed weight dominates: the unnormalised difference
                limit, got = tau * states[z], scaled / kz
            errors.append(float(np.abs(got - limit).max()))
        regimes.add(bool(u @ bstar > 0))
        assert errors[0] > errors[1] > errors[2] and errors[2] < min(errors[0] / 50, 1e-2 * float(np.abs(limit).max()))
    assert regimes == {True, False}


def test_uapcheck_simulate_runs_a_sink_file():
    sim = simulate(parse_source(source("pattern causal & window(2)", "sink logit learned", tokens="6")
                                + "target causal\n", "t.uap"), None, Options(seed=0))
    assert sim.verdict == "UAP" and sim.consistent


@pytest.mark.parametrize("name, twin", [("gpt_oss_decoder_128k", None), ("gpt_oss_decoder_any_length",
                                                                           "gemma2_decoder_any_length"),
                                        ("softmax1", "softmax")])
def test_the_catalog_files_derive_as_they_expect(name, twin):
    """gpt-oss (learned sinks, GQA, alternating band and full causal) and softmax1: the sink-free layout's verdict."""
    text = open(f"catalog/{name}.uap").read()
    result = uapcheck.check(text, f"catalog/{name}.uap")
    assert result.expect_holds and rules(result)["HEADS-SINK"].proved
    if name.startswith("gpt_oss"):
        assert result.target.verdict == "UAP" and result.target.layers == 2 and result.target.least
    if twin is not None:
        other = uapcheck.check(open(f"catalog/{twin}.uap").read(), f"catalog/{twin}.uap")
        assert (result.verdict, str(result.group), result.layers) == (other.verdict, str(other.group), other.layers)
    cert = _certificate(text)
    assert verify(cert).ok and _outcome(cert, "HEADS-SINK").outcome == VERIFIED


@pytest.mark.parametrize("pattern, target", [("pattern window(1)", ""), ("pattern window(1) cyclic", ""),
                                             ("pattern window(1) + global(1)", ""),
                                             ("pattern causal & window(2) + sinks(1)", "target causal\n"),
                                             ("pattern periodic { causal & window(3), causal }", "target causal\n")])
def test_every_length_up_to_60_keeps_the_sink_free_answer(pattern, target):
    """The concrete engine at every n ≤ 60: a learned and a fixed logit give the sink-free verdict, group and count."""
    for n in range(2, 61):
        free = uapcheck.check(source(pattern, tokens=str(n)) + target, "t.uap")
        for sink in ("sink logit learned", "sink logit 0"):
            got = uapcheck.check(source(pattern, sink, tokens=str(n)) + target, "t.uap")
            assert (got.verdict, got.layers, str(got.group)) == (free.verdict, free.layers, str(free.group)), (n, sink)
            if free.target is not None:
                assert (got.target.layers, got.target.least) == (free.target.layers, free.target.least), (n, sink)
