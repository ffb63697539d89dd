"""RoPE (TD-ROTARY, docs/theory.md §16.3, and §14.11(d) for causal targets) under `tie query key` and
`affine query key`.

The argument takes W_Q = ε·a vᵀ and W_K = b uᵀ apart, with a phase φ between a and b that makes
m ↦ cos(m − φ) injective. Under `tie query key` (W_Q = W_K) the rank-one scores are even in the offset and the
first-order term vanishes for a reflection about the row, so the step is `undecided` (it was `proved`, and the
verifier rejected the certificate). Under `affine query key` the argument sets the affine terms to 0: the step is
`proved`, and the verifier accepts it (it rejected every such certificate)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import json

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import verify


def _steps(result):
    return {s.rule: s for s in result.root.walk()}


def _src(extra: str, pattern: str, target: str = "", tokens: str = "tokens 6") -> str:
    return (f"{tokens}\nattention {{\n  kernel k(q, key) = exp(q . key)\n  {extra}\n  rotary\n  pattern {pattern}\n}}\n"
            f"{target}\n")


@pytest.mark.parametrize("pattern,target", [("full", ""), ("causal", "target causal"), ("full", "target causal")])
def test_tied_rotary_is_not_concluded(pattern, target):
    r = uapcheck.check(_src("tie query key", pattern, target))
    assert not _steps(r)["TD-ROTARY"].proved
    assert r.verdict == "INCONCLUSIVE"


@pytest.mark.parametrize("pattern,target,verdict", [("full", "", "UAP"), ("causal", "target causal", "UAP")])
def test_affine_rotary_is_proved_and_its_certificate_verifies(pattern, target, verdict):
    src = _src("affine query key", pattern, target)
    r = uapcheck.check(src)
    assert _steps(r)["TD-ROTARY"].proved
    assert r.verdict == verdict and r.layers == 1
    report = verify(json.loads(json.dumps(certfile.build(r, src))))
    assert report.ok, [(s.rule, s.reason) for s in report.rejected]


def test_untied_rotary_still_verifies():
    src = _src("", "causal", "target causal")
    r = uapcheck.check(src)
    assert r.verdict == "UAP" and r.layers == 1
    assert verify(json.loads(json.dumps(certfile.build(r, src)))).ok


def test_tied_rank_one_scores_cannot_tell_a_reflection_about_the_row():
    """Why the argument needs W_Q and W_K apart: with W_Q = W_K = a uᵀ (a in the first rotation plane) the scores of
    row i are (uᵀx_i)(uᵀx_l)|a|² cos(l − i); for n = 3, i = 2 and σ = (1 3) the output at 2 is the same for X and σX
    (to round-off), for every such parameter — the first-order term of §16.3 vanishes."""
    rng = np.random.default_rng(7)
    d = 2
    for _ in range(20):
        X = rng.normal(size=(3, d))
        u = rng.normal(size=d)
        a = rng.normal(size=2)
        WV = rng.normal(size=(d, d))

        def out_at_2(X, a=a, u=u, WV=WV):
            q = [np.outer(a, u) @ x for x in X]
            rot = lambda m: np.array([[math.cos(m), -math.sin(m)], [math.sin(m), math.cos(m)]])  # noqa: E731
            s = np.array([q[1] @ rot(l - 1) @ q[l] for l in range(3)])  # row 2 (index 1), keys 1..3
            w = np.exp(s) / np.exp(s).sum()
            return X[1] + sum(w[l] * (WV @ X[l]) for l in range(3))

        Xs = X[[2, 1, 0]]
        assert np.allclose(out_at_2(X), out_at_2(Xs), atol=1e-12)
