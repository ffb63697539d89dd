"""A head with a zero value map (Lemma Z, docs/theory.md §17.3): beside a head that is 1-layer token
distinguishing w.r.t. S_n alone, a head whose own premise is open does not make the verdict open, since
W_V = 0 in it leaves the other head's layer. Checked a second way: numerically, one layer of a softmax
head and a relu-score head with the second's W_V = 0 equals the softmax head alone, and separates random
pairs; the verifier re-checks the hypotheses and rejects forged ones."""
from __future__ import annotations

import numpy as np
import pytest

import uapcheck

from certificates import certificate_from_cli  # tests/ is on sys.path

SOFTMAX = "attention { kernel k(x, y) = exp(x . y) }\n"
RELU = "attention { score s(x, y) = relu(x . y) }\n"


def _rules(r) -> dict:
    out: dict = {}
    for s in r.root.walk():
        out.setdefault(s.rule, s)
    return out


@pytest.mark.parametrize("text", [SOFTMAX + RELU, RELU + SOFTMAX, "tokens 6\n" + SOFTMAX + RELU])
def test_a_softmax_head_beside_a_relu_score_head_is_one_layer(text):
    r = uapcheck.check(text)
    assert (r.verdict, r.layers, r.group.name) == ("UAP", 1, "S_n")
    zero = _rules(r)["HEADS-ZERO-VALUE"]
    assert zero.proved and zero.premises[0].rule == "TD-KERNEL" and not zero.premises[0].proved


@pytest.mark.parametrize("text", [
    RELU + RELU,  # no head separates alone
    SOFTMAX + RELU.replace("relu(x . y) }", "relu(x . y)\n pattern window(1) }"),  # a pattern
    SOFTMAX + "attention { kernel k(x, y) = exp(x . y)\n bias symmetric toeplitz }\n" + RELU,  # G is not S_n
    SOFTMAX + "attention { kernel k(x, y) = x . y }\n",  # the other head may be ill-posed (a zero normaliser)
])
def test_where_the_lemma_does_not_apply_nothing_changes(text):
    r = uapcheck.check(text)
    assert "HEADS-ZERO-VALUE" not in _rules(r)


def test_one_layer_with_the_second_value_map_zero_is_the_first_head():
    """y_i = x_i + softmax(q_i·K) V + relu(q′_i·K′) V′ with V′ = 0 is the softmax head's layer exactly, and
    that layer separates random samples at a shared token (numpy)."""
    rng = np.random.default_rng(5)
    n, d = 6, 3

    def layer(X, WQ, WK, WV, WQ2, WK2, WV2):
        s = (X @ WQ.T) @ (X @ WK.T).T
        a = np.exp(s - s.max(axis=1, keepdims=True))
        a /= a.sum(axis=1, keepdims=True)
        r = np.maximum((X @ WQ2.T) @ (X @ WK2.T).T, 0)
        return X + a @ (X @ WV.T) + r @ (X @ WV2.T)
    for _ in range(5):
        WQ, WK, WV, WQ2, WK2 = (rng.normal(size=(d, d)) for _ in range(5))
        X = rng.normal(size=(n, d))
        both = layer(X, WQ, WK, WV, WQ2, WK2, np.zeros((d, d)))
        alone = layer(X, WQ, WK, WV, WQ2, WK2, np.zeros((d, d))) - 0
        s = (X @ WQ.T) @ (X @ WK.T).T
        a = np.exp(s - s.max(axis=1, keepdims=True))
        a /= a.sum(axis=1, keepdims=True)
        assert np.abs(both - (X + a @ (X @ WV.T))).max() < 1e-12 and np.abs(both - alone).max() == 0
        Y = rng.normal(size=(n, d))
        Y[0] = X[0]  # a shared token
        other = layer(Y, WQ, WK, WV, WQ2, WK2, np.zeros((d, d)))
        assert np.abs(both[0] - other[0]).max() > 1e-6


def test_the_verifier_re_checks_the_lemma_and_rejects_forgeries(tmp_path):
    from uapcheck.verifier import verify
    cert = certificate_from_cli(SOFTMAX + RELU, tmp_path)
    report = verify(cert)
    assert report.ok, [(s.rule, s.reason) for s in report.steps if s.outcome not in ("verified", "checked numerically")]
    for forged in ({"separating_head": 1}, {"separating_head": 5}, {"separating_head": True}):
        bad = certificate_from_cli(SOFTMAX + RELU, tmp_path)
        for step in bad["steps"]:
            if step["rule"] == "HEADS-ZERO-VALUE":
                step["data"].update(forged)
        assert any(s.rule == "HEADS-ZERO-VALUE" and s.outcome == "rejected" for s in verify(bad).steps), forged


# ---------------------------------------------------------------------------------------------
# Dimensions: a head proved only for d ≥ 2 beside a head proved for every d (§17.3, "Dimensions")

LAPLACE_SCORE = "attention { score s(x, y) = exp(-|x - y|) * (2 + sin(x . y)) }\n"


def test_a_head_proved_only_for_d_2_beside_softmax_does_not_narrow_the_verdict():
    """Alone, the Laplacian-type score head is UAP for d ≥ 2 only (its analyticity off q = ±k needs a connected
    complement); beside softmax, Lemma Z stands in for it and the verdict is softmax's, for every d."""
    alone = uapcheck.check(LAPLACE_SCORE)
    assert alone.verdict == "UAP" and "d ≥ 2" in alone.group.condition
    for text in (SOFTMAX + LAPLACE_SCORE, LAPLACE_SCORE + SOFTMAX):
        r = uapcheck.check(text)
        assert (r.verdict, r.layers, r.group.name) == ("UAP", 1, "S_n")
        assert "d ≥ 2" not in (r.group.condition or "")
        zero = _rules(r)["HEADS-ZERO-VALUE"]
        assert zero.proved and zero.premises[0].proved and "only for token dimension d ≥ 2" in str(zero.claim)
    # under `dim 1` the verdict stays INCONCLUSIVE, but for Theorem 1's own assumption d ≥ 2, not a premise's
    r = uapcheck.check("dim 1\n" + SOFTMAX + LAPLACE_SCORE)
    dim = _rules(r)["DIM-RANGE"]
    assert r.verdict == "INCONCLUSIVE" and "Theorem 1 is stated for token dimension d ≥ 2" in str(dim.claim)


def test_two_heads_proved_for_every_d_are_not_rewritten():
    r = uapcheck.check(SOFTMAX + SOFTMAX)
    assert r.verdict == "UAP" and "HEADS-ZERO-VALUE" not in _rules(r)


def test_the_verifier_accepts_the_lemma_beside_a_proved_head_and_rejects_a_forged_separator(tmp_path):
    from uapcheck.verifier import REJECTED, verify
    cert = certificate_from_cli(SOFTMAX + LAPLACE_SCORE, tmp_path)
    report = verify(cert)
    assert report.ok or not any(s.outcome == REJECTED for s in report.steps)
    zero = next(s for s in report.steps if s.rule == "HEADS-ZERO-VALUE")
    assert zero.outcome != REJECTED
    step = next(s for s in cert["steps"] if s["rule"] == "HEADS-ZERO-VALUE")
    step["data"]["separating_head"] = 1  # the head itself
    report = verify(cert)
    assert any(s.rule == "HEADS-ZERO-VALUE" and s.outcome == REJECTED for s in report.steps)
