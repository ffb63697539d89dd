"""Nyström heads and sequence projections (Linformer): which combinations are input errors, and
which premises their derivations may claim."""
from __future__ import annotations

import pytest

import uapcheck
from uapcheck.errors import UapError

SOFTMAX = "kernel k(x, y) = exp(x . y)"


def check(text: str):
    return uapcheck.check(text, "nystrom_projections.uap")


def steps(r):
    return {s.rule: s for s in r.root.walk()}


# -- `nystrom` on a head with `project keys values`: the Nyström kernel is silently dropped ----
# derive._kernel_premises returns through TD-LINFORMER before the Nyström handling, so WP-POSITIVE
# and AN-STRUCT are proved for the *exact* kernel exp(-|x-y|^2/2), while the head computes with
# k~(x, y) = k(x, Z) K_ZZ^-1 k(Z, y), which takes negative values (docs/theory.md, WP-NYSTROM:
# landmarks 0, 1 in d = 1 give k~(-1, 2) = -0.1108). With projected keys 2, 2, 0.8366 (reachable
# with a trainable E and W_K) and the query -1 the normaliser 2 k~(-1, 2) + k~(-1, 0.8366) is 0, so
# the layer is undefined there: the same head without `project` is INCONCLUSIVE (WP-NYSTROM).

NYS_PROJECT = ("attention { kernel k(x, y) = exp(-|x - y|^2 / 2); nystrom landmarks 2; "
               "project keys values to 3 }")


def test_nystrom_with_projection_is_not_uap():
    # The combination is now an input error: each item replaces the keys in its own way.
    with pytest.raises(UapError) as info:
        check(NYS_PROJECT)
    assert "cannot share a head" in info.value.message


def test_nystrom_without_projection_is_inconclusive():
    r = check("attention { kernel k(x, y) = exp(-|x - y|^2 / 2); nystrom landmarks 2 }")
    assert r.verdict == "INCONCLUSIVE"
    assert steps(r)["WP-NYSTROM"].status == "undecided"


def test_nystrom_kernel_normaliser_can_vanish():
    np = pytest.importorskip("numpy")
    k = lambda x, y: np.exp(-(x - y) ** 2 / 2)  # noqa: E731
    Z = np.array([0.0, 1.0])
    Ki = np.linalg.inv(k(Z[:, None], Z[None, :]))
    kt = lambda x, y: k(x, Z) @ Ki @ k(Z, y)  # noqa: E731
    assert kt(-1.0, 2.0) < -0.1
    f = lambda s: 2 * kt(-1.0, 2.0) + kt(-1.0, s)  # noqa: E731
    lo, hi = -1.0, 2.0
    assert f(lo) > 0 > f(hi)  # so the normaliser has a root in between
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    assert abs(f(lo)) < 1e-12


# -- TD-LINFORMER asserts k(q, 0) > 0 for a kernel with k(q, 0) = 0 ----------------------------
# For k(x, y) = (x . y)^2, k(q, 0) = 0: with W_K = 0 every weight is 0/0 (the normaliser vanishes),
# so the step's argument ("with W_K = 0 the weights k(q, 0) > 0 are uniform") does not apply. The
# verdict UAP rests on this step only (the same kernel without projections is INCONCLUSIVE).

def test_linformer_step_does_not_claim_positive_k_at_zero_key():
    r = check("attention { kernel k(x, y) = (x . y)^2; project keys values to 3 }")
    td = steps(r)["TD-LINFORMER"]
    assert not (td.status == "proved" and "k(q, 0) > 0" in td.claim)


def test_linformer_with_causal_pattern_is_not_proved_not_uap():
    # E, F mix every position, so a mask means nothing there: the combination is an input error.
    with pytest.raises(UapError):
        check(f"attention {{ {SOFTMAX}; pattern causal; project keys values to 4 }}")
