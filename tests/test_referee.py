"""Referee tests: inputs on which the checker's verdict was examined against the mathematics.

Tests marked `xfail(strict=True)` record real defects found by the referee: each asserts the correct
behaviour and fails today. They make the suite go red (XPASS) the day the defect is fixed, so that the
marker is removed. The other tests pin down behaviour the referee checked and found correct.
"""
from __future__ import annotations

import itertools

import pytest

import uapcheck

SOFTMAX = "kernel k(x, y) = exp(x . y)"


def check(text: str):
    return uapcheck.check(text, "referee.uap")


def verdict(text: str) -> str:
    return str(check(text).verdict)


# -- 1. declared params whose names are the engine's invariants (a, b, c, u, v, e, f) -------------

def test_param_named_b_is_not_the_key_norm():
    r = check("param b > 0\nattention { kernel k(x, y) = (1 + (x . y)^2)^b }")
    assert str(r.verdict) != "UAP"


def test_same_kernel_with_another_param_name_is_inconclusive():
    r = check("param beta > 0\nattention { kernel k(x, y) = (1 + (x . y)^2)^beta }")
    assert str(r.verdict) == "INCONCLUSIVE"
    assert any(s.rule == "LIM-REGVAR" and s.status == "refuted" for s in r.root.walk())


def test_polynomial_power_kernel_ratio_has_a_finite_limit():
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 50
    beta = mpmath.mpf(3) / 2
    x, z1, z2 = [1, 2, -1], [2, -1, 3], [1, 1, 1]

    def k(q, key):
        return (1 + mpmath.fsum(p * s for p, s in zip(q, key)) ** 2) ** beta

    a1 = mpmath.fsum(p * s for p, s in zip(x, z1))
    a2 = mpmath.fsum(p * s for p, s in zip(x, z2))
    limit = 2 * beta * mpmath.log(abs(a1 / a2))
    for t in (mpmath.mpf(10) ** 6, mpmath.mpf(10) ** 12):
        ratio = mpmath.log(k(x, [t * s for s in z1])) - mpmath.log(k(x, [t * s for s in z2]))
        assert abs(ratio - limit) < mpmath.mpf(10) ** -6


def test_param_named_a_does_not_crash():
    check("param a real\nattention { kernel k(x, y) = (1 + |y|^2)^a }")


def test_param_named_u_in_features_is_not_uap():
    assert verdict("param u real\nattention { features phi(x) = exp(u * x) }") != "UAP"


# -- 2. unnormalised heads whose constant factor can be 0 --------------------------------------------

def test_score_with_a_factor_that_vanishes_for_an_admissible_param():
    assert verdict("param g > 0\nattention { score s(x, y) = (g - 1) * exp(x . y) }") != "UAP"


def test_score_with_a_nonnegative_param_factor():
    assert verdict("param gamma >= 0\nattention { score s(x, y) = gamma * exp(x . y) }") != "UAP"


def test_linformer_score_with_a_nonnegative_param_factor():
    text = "param g >= 0\nattention { score s(x, y) = g * exp(x . y); project keys values to 4 }"
    assert verdict(text) != "UAP"


def test_positive_param_factor_is_uap():
    assert verdict("param gamma > 0\nattention { score s(x, y) = gamma * exp(x . y) }") == "UAP"


# -- 3. heads with different patterns whose union is complete: one layer is not enough ------------

def test_full_plus_window_heads_need_more_than_one_layer():
    r = check(f"tokens 4\nattention {{ {SOFTMAX} }}\nattention {{ {SOFTMAX}; pattern window(1) }}")
    assert not (str(r.verdict) == "UAP" and int(r.layers) == 1)


def test_full_plus_causal_heads_need_more_than_one_layer():
    r = check(f"attention {{ {SOFTMAX} }}\nattention {{ {SOFTMAX}; pattern causal }}")
    assert not (str(r.verdict) == "UAP" and str(r.layers) == "1")


def _distances_to(i, heads):
    d, queue = {i: 0}, [i]
    while queue:
        x = queue.pop(0)
        for h in heads:
            for j in h[x]:
                if j not in d:
                    d[j] = d[x] + 1
                    queue.append(j)
    return d


def _diameter(n, heads):
    return max(max(_distances_to(i, heads).values()) for i in range(1, n + 1))


def _view_witness(n, heads, m):
    """A permutation outside G = ∩ Aut(head) satisfying the view lemma at some position with m layers."""
    dist = {i: _distances_to(i, heads) for i in range(1, n + 1)}

    def keeps(p, v):
        return all({p[j - 1] for j in h[v]} == h[p[v - 1]] for h in heads)

    for p in itertools.permutations(range(1, n + 1)):
        if all(keeps(p, v) for v in range(1, n + 1)):
            continue
        for i in range(1, n + 1):
            if all(keeps(p, v) for v in range(1, n + 1) if dist[i][v] <= m - 1):
                return p, i
    return None


def test_full_plus_window_view_witness_exists():
    full = {i: set(range(1, 5)) for i in range(1, 5)}
    window = {i: {j for j in range(1, 5) if abs(i - j) <= 1} for i in range(1, 5)}
    assert _view_witness(4, [full, window], 1) is not None
    assert _view_witness(4, [full, window], 2) is None


def test_full_plus_window_simulation_one_layer_cannot_separate():
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(0)
    n, d = 4, 3
    idx = np.arange(1, n + 1)
    masks = [np.ones((n, n), bool), np.abs(idx[:, None] - idx[None, :]) <= 1]

    def layer(X, params):
        out = X.copy()
        for M, (wq, wk, wv) in zip(masks, params):
            s = np.where(M, (X @ wq.T) @ (X @ wk.T).T, -np.inf)
            w = np.exp(s - s.max(1, keepdims=True))
            out = out + (w / w.sum(1, keepdims=True)) @ (X @ wv.T)
        return out

    def ffn(X, A, b, W):
        return X + np.maximum(X @ A.T - b, 0) @ W.T

    diffs = {1: 0.0, 2: 0.0}
    for _ in range(10):
        X = rng.normal(size=(n, d))
        Y = X.copy()
        Y[[0, 1]] = X[[1, 0]]
        blocks = [([tuple(rng.normal(size=(d, d)) for _ in range(3)) for _ in masks],
                   (rng.normal(size=(8, d)), rng.normal(size=8), rng.normal(size=(d, 8)))) for _ in range(2)]
        for depth in (1, 2):
            A, B = X, Y
            for params, f in blocks[:depth]:
                A, B = ffn(layer(A, params), *f), ffn(layer(B, params), *f)
            diffs[depth] = max(diffs[depth], float(np.abs(A[3] - B[3]).max()))
    assert diffs[1] < 1e-9
    assert diffs[2] > 1e-3


def test_full_plus_global_heads_one_layer_is_right():
    r = check(f"attention {{ {SOFTMAX} }}\nattention {{ {SOFTMAX}; pattern global(1) }}")
    # With symbolic n the checker reports a sufficient count (D + 1 = 2, not shown least); one layer
    # is in fact enough (no view witness below), which an integer n decides exactly.
    assert str(r.verdict) == "UAP" and str(r.layers) in ("1", "2")
    exact = check(f"tokens 5\nattention {{ {SOFTMAX} }}\nattention {{ {SOFTMAX}; pattern global(1) }}")
    assert exact.layers == 1
    full = {i: set(range(1, 6)) for i in range(1, 6)}
    star = {i: (set(range(1, 6)) if i == 1 else {1, i}) for i in range(1, 6)}
    assert _view_witness(5, [full, star], 1) is None


@pytest.mark.parametrize("heads", [
    "attention { kernel k(x, y) = exp(x . y); pattern offsets {1} cyclic }\n"
    "attention { kernel k(x, y) = exp(x . y); pattern offsets {-1} cyclic }",
    "attention { kernel k(x, y) = exp(x . y); pattern window(1) }\n"
    "attention { kernel k(x, y) = exp(-|x - y|^2); pattern star }",
])
def test_layer_counts_agree_with_brute_force(heads):
    n = 6
    r = check(f"tokens {n}\n{heads}")
    spec = []
    for line in heads.splitlines():
        if "offsets {1}" in line:
            spec.append({i: {i, i % n + 1} for i in range(1, n + 1)})
        elif "offsets {-1}" in line:
            spec.append({i: {i, (i - 2) % n + 1} for i in range(1, n + 1)})
        elif "window(1)" in line:
            spec.append({i: {j for j in range(1, n + 1) if abs(i - j) <= 1} for i in range(1, n + 1)})
        else:
            spec.append({i: (set(range(1, n + 1)) if i == 1 else {1, i}) for i in range(1, n + 1)})
    m = _diameter(n, spec)  # necessary (receptive fields); then the least m without a view witness
    while _view_witness(n, spec, m) is not None:
        m += 1
    assert str(r.verdict) == "UAP" and int(r.layers) == m


# -- 4. sequence projections combined with a pattern -------------------------------------------------

def test_linformer_with_causal_pattern_is_not_proved_not_uap():
    # E, F mix every position, so a mask means nothing there: the combination is an input error.
    from uapcheck.errors import UapError
    with pytest.raises(UapError):
        verdict(f"attention {{ {SOFTMAX}; pattern causal; project keys values to 4 }}")


# -- 5. expectations: named groups that coincide for small n -----------------------------------------

def test_expect_d3_equals_s3():
    r = check(f"tokens 3\nattention {{ {SOFTMAX} }}\nexpect uap group D_n layers 1")
    assert r.expect_holds


def test_expect_reflection_on_two_tokens():
    r = check(f"tokens 2\nattention {{ {SOFTMAX} }}\nexpect uap group reflection layers 1")
    assert r.expect_holds


def test_expect_layers_compared_as_expressions():
    text = ("param w integer >= 1\nattention { kernel k(x, y) = exp(x . y); pattern window(w) }\n"
            "expect uap group reflection layers floor((n - 2) / w) + 1")
    assert check(text).expect_holds


# -- 6. checked and found correct ---------------------------------------------------------------------

@pytest.mark.parametrize("act, status", [
    ("u + 1", "refuted"), ("abs(u)", "proved"), ("u^2", "undecided"), ("max(u, u)", "refuted"),
    ("relu(u) - relu(-u)", "refuted"), ("cos(u)^2 + sin(u)^2", "refuted"), ("u * sin(u)", "undecided"),
])
def test_ffn_definition2(act, status):
    r = check(f"attention {{ {SOFTMAX} }}\nffn sigma(u) = {act}")
    assert [s.status for s in r.root.walk() if s.rule == "FFN-DEF2"] == [status]


@pytest.mark.parametrize("kernel", [
    "exp(2 * x . y) - exp(x . y)^2 + 1",
    "(exp(x . y) + 1)^2 - exp(2 * x . y) - 2 * exp(x . y)",
    "exp(x . y) * sigmoid(-x . y)",
    "exp(relu(x . y))",
])
def test_kernels_whose_limit_fails_are_not_uap(kernel):
    assert verdict(f"attention {{ kernel k(x, y) = {kernel} }}") == "INCONCLUSIVE"


def test_causal_on_one_token_is_uap_and_on_two_is_not():
    assert verdict(f"tokens 1\nattention {{ {SOFTMAX}; pattern causal }}") == "UAP"
    assert verdict(f"tokens 2\nattention {{ {SOFTMAX}; pattern causal }}") == "NOT-UAP"
