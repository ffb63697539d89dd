"""Lemma M (docs/theory.md §20.9, TD-MEANS): a dense head whose kernel has k(0, 0) ≠ 0, with an analytic FFN, is
2-layer token distinguishing through its blocks (an FFN block, then uniform weights at W_Q = W_K = 0). Checked
against the construction numerically (a shared token that one layer cannot move apart is separated by the two
blocks), by `uapcheck simulate`, and by the verifier, which rejects forged hypotheses."""
from __future__ import annotations

import json

import numpy as np
import pytest
import sympy

import uapcheck
from uapcheck import certfile

from certificates import certificate_of

SIGMOID = "attention { score s(x, y) = sigmoid(x . y) }\nffn gelu\n"


def _rules(r) -> dict:
    out: dict = {}
    for s in r.root.walk():
        out.setdefault(s.rule, s)
    return out


@pytest.mark.parametrize("text,value", [
    (SIGMOID, sympy.Rational(1, 2)),
    ("attention { kernel k(x, y) = 1 }\nffn tanh\n", 1),
    ("attention { kernel k(x, y) = 1 + (x . y)^2 }\nffn softplus\n", 1),
    ("attention { features phi(x) = [exp(w . x - |x|^2 / 2), exp(-(w . x) - |x|^2 / 2)] random w }\nffn silu\n", None),
])
def test_lemma_m_gives_two_layers(text, value):
    r = uapcheck.check(text)
    if value is None:  # a head proved one-layer token distinguishing keeps its one layer
        assert r.verdict == "UAP" and r.layers == 1 and "TD-MEANS" not in _rules(r)
        return
    assert (r.verdict, r.group.name, r.layers) == ("UAP", "S_n", 2)
    step = _rules(r)["TD-MEANS"]
    assert step.proved and step.facts["kernel_at_zero"] == value
    from uapcheck.render.verdict_lines import layers_least
    assert layers_least(r) is False  # Lemma M's 2 layers are sufficient, not shown least (the headline says so)
    assert str(r).endswith("2 attention layers (sufficient, not shown least)>") or "not shown least" in repr(r)


@pytest.mark.parametrize("text", [
    "attention { kernel k(x, y) = 1 }\n",                                     # ffn relu: not analytic
    "attention { kernel k(x, y) = 1 }\nffn elu\n",                            # elu is C¹ only
    "attention { kernel k(x, y) = (x . y)^2 }\nffn gelu\n",                   # k(0, 0) = 0
    "attention { score s(x, y) = relu(x . y) }\nffn gelu\n",                  # k(0, 0) = 0
    SIGMOID + "layers 2\n",                                                    # a budget: not a count
    "attention { score s(x, y) = sigmoid(x . y)\n pattern window(1) }\nffn gelu\n",
    "attention { score s(x, y) = sigmoid(x . y)\n bias toeplitz }\nffn gelu\n",
    SIGMOID.replace("ffn gelu", "positional absolute\nffn gelu"),
])
def test_where_lemma_m_does_not_apply(text):
    assert "TD-MEANS" not in _rules(uapcheck.check(text))


def test_the_catalog_file():
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "catalog" / "sigmoid_plain.uap"
    r = uapcheck.check(path.read_text(), str(path))
    assert (r.verdict, r.layers) == ("UAP", 2) and r.expect_holds


def _gelu(z):
    from math import erf, sqrt
    return np.vectorize(lambda v: v * (1 + erf(v / sqrt(2))) / 2)(z)


def test_the_construction_numerically():
    """Samples sharing a token with equal means: one uniform-weight layer moves the shared token by the same W_V·mean
    in both (it coincides), while an FFN block with one ridge unit and then the uniform layer separate every token."""
    rng = np.random.default_rng(3)
    d, n = 2, 4
    for _ in range(20):
        shared = rng.normal(size=d)
        x = np.vstack([shared, rng.normal(size=(n - 1, d))])
        y = np.vstack([shared, rng.normal(size=(n - 1, d))])
        y[1:] += (x.mean(axis=0) - y.mean(axis=0)) * n / (n - 1)  # equal means, the shared token kept
        assert np.allclose(x.mean(axis=0), y.mean(axis=0))
        wv = rng.normal(size=(d, d))
        one = x[0] + wv @ x.mean(axis=0), y[0] + wv @ y.mean(axis=0)
        assert np.allclose(*one)  # one layer at W_Q = W_K = 0: the shared token coincides
        a, b, v = rng.normal(size=d), rng.normal(), rng.normal(size=d)
        eps = 0.1 / (np.linalg.norm(a) + 1)
        ux = x + eps * np.outer(_gelu(x @ a - b), v)
        uy = y + eps * np.outer(_gelu(y @ a - b), v)
        out = np.vstack([ux + wv @ ux.mean(axis=0), uy + wv @ uy.mean(axis=0)])
        gaps = [np.linalg.norm(out[i] - out[j]) for i in range(2 * n) for j in range(i)]
        assert min(gaps) > 1e-8


def test_simulation_confirms_two_layers():
    from uapcheck.parse import parse_source
    from uapcheck.simulate import Options, simulate
    sim = simulate(parse_source(SIGMOID, "t.uap"), None, Options(seed=2))
    assert sim.verdict == "UAP" and sim.consistent
    sep = next(d for d in sim.demonstrations if d.kind == "separation")
    assert sep.holds is True and sep.data["layers"] == 2


def _rejects(cert: dict) -> bool:
    from uapcheck.verifier import REJECTED, verify
    report = verify(cert)
    return any(s.rule == "TD-MEANS" and s.outcome == REJECTED for s in report.steps) or not report.ok


def test_the_verifier_re_checks_lemma_m_and_rejects_forgeries():
    from uapcheck.verifier import REJECTED, verify
    cert = certificate_of(SIGMOID)
    report = verify(cert)
    assert not any(s.outcome == REJECTED for s in report.steps), [(s.rule, s.reason) for s in report.steps]
    means = next(s for s in report.steps if s.rule == "TD-MEANS")
    assert means.outcome != REJECTED
    for old, new in (("ffn gelu", "ffn relu"), ("sigmoid(x . y)", "relu(x . y)")):
        forged = json.loads(json.dumps(cert))
        text = forged["input"]["text"].replace(old, new)
        forged["input"]["text"] = text
        forged["input"]["sha256"] = certfile.source_hash(text)
        assert _rejects(forged), new
    forged = json.loads(json.dumps(cert))
    next(s for s in forged["steps"] if s["rule"] == "TD-MEANS")["data"]["layers"] = 1
    assert _rejects(forged)
    forged = json.loads(json.dumps(cert))
    forged["layers"] = 1
    assert not verify(forged).ok
