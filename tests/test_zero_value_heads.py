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
