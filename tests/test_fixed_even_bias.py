"""A fixed even position bias (symmetric ALiBi, −m·|i − j|) on dense softmax heads: one layer cannot
tell i + s from i − s, two can (Lemma E, docs/theory.md §16.2), and BIAS-LAYERS counts 2 from n = 4 on
(1 below). Checked a second way here: the proof's construction at 60 digits (mpmath), a brute force
over S_n with random parameters of the family (numpy), the isometry step and the witness range over
all of S_n with exact rationals, the verifier, forged certificates, and `uapcheck simulate`."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import uapcheck
from uapcheck import proof
from uapcheck.certificates import DenseBiasLayers

from certificates import certificate_from_cli  # tests/ is on sys.path

ROOT = Path(__file__).resolve().parent.parent

ALIBI = "attention {\n  kernel k(q, key) = exp(q . key)\n  bias b(i, j) = -m * |i - j|\n}\n"


def alibi(n, extra: str = "", body: str = ALIBI) -> str:
    return (f"tokens {n}\n" if n is not None else "") + "param m > 0\n" + extra + body


def _rules(r) -> dict:
    return {s.rule: s for s in r.root.walk()}


# -- the independent model: fixed weights β_vl = q^|v − l| / Z_v, q = e^(−m) -------------------------

def weights(n: int, q) -> list:
    rows = [[q ** abs(v - l) for l in range(n)] for v in range(n)]
    return [[x / sum(row) for x in row] for row in rows]


def keeps_row(beta, sigma, k) -> bool:
    """σ (0-based images) keeps row k of the weights: β_(σk, σl) = β_kl for every l (exact)."""
    return all(beta[sigma[k]][sigma[l]] == beta[k][l] for l in range(len(beta)))


def reflection(n: int) -> tuple:
    return tuple(n - 1 - i for i in range(n))


# -- Step 0 and the witness range, over all of S_n with exact rationals ---------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_the_weights_automorphisms_are_the_reflection_group_and_one_layer_fails_from_n_4(n):
    """Step 0 of Lemma E: σ keeps every row of β iff σ ∈ {id, R}; and a σ ∉ G keeping some row exists
    iff n ≥ 4 (the one-layer witness), for two slopes q = e^(−m) taken as exact rationals."""
    group = {tuple(range(n)), reflection(n)}
    for q in (Fraction(1, 3), Fraction(9, 10)):
        beta = weights(n, q)
        autos, witness = set(), None
        for sigma in itertools.permutations(range(n)):
            kept = [keeps_row(beta, sigma, k) for k in range(n)]
            if all(kept):
                autos.add(sigma)
            elif any(kept) and witness is None:
                witness = sigma
        assert autos == group
        assert (witness is not None) == (n >= 4)
        # a σ keeping row k sends k to k or to R(k) (Step 1(c))
        for sigma in itertools.permutations(range(n)):
            for k in range(n):
                if keeps_row(beta, sigma, k):
                    assert sigma[k] in (k, n - 1 - k)


# -- the construction of the proof, at 60 digits -----------------------------------------------------

def _construction_gap(n, mu, sigma, k, rng):
    """|one-layer difference| and the two-layer difference at t = 40 of the proof's parameters: a first
    layer at W_Q = W_K = 0, W_V = 0.3·I, a second with scores t·w·s and W_V = I (row k, σk = k)."""
    import mpmath
    q = mpmath.e ** (-mu)
    beta = weights(n, q)
    rho = [[q ** abs(v - l) for l in range(n)] for v in range(n)]
    d = 2
    X = [[mpmath.mpf(float(rng.normal())) for _ in range(d)] for _ in range(n)]
    Xs = [None] * n
    for v in range(n):
        Xs[sigma[v]] = X[v]
    w = [mpmath.mpf(float(rng.normal())) for _ in range(d)]
    c = mpmath.mpf("0.3")

    def first(Y):
        return [[Y[v][a] + c * sum(beta[v][l] * Y[l][a] for l in range(n)) for a in range(d)] for v in range(n)]

    def second(S, row, t):
        scores = [t * sum(w[a] * S[v][a] for a in range(d)) for v in range(n)]
        top = max(scores)
        wt = [rho[row][v] * mpmath.e ** (scores[v] - top) for v in range(n)]
        return [S[row][a] + sum(wt[v] * S[v][a] for v in range(n)) / sum(wt) for a in range(d)]

    S1, S2 = first(X), first(Xs)
    one = max(abs(S1[k][a] - S2[sigma[k]][a]) for a in range(d))
    o1, o2 = second(S1, k, 40), second(S2, sigma[k], 40)
    return one, max(abs(o1[a] - o2[a]) for a in range(d))


@pytest.mark.parametrize("n,cap", [(4, None), (5, None), (8, 12)])
@pytest.mark.parametrize("mu", ["0.01", "1", "5"])
def test_the_proofs_two_layer_construction_separates_what_one_layer_cannot(n, cap, mu):
    import mpmath
    rng = np.random.default_rng(7)
    with mpmath.workdps(60):
        m = mpmath.mpf(mu)
        beta = weights(n, mpmath.e ** (-m))
        group = {tuple(range(n)), reflection(n)}
        tried = 0
        for sigma in itertools.permutations(range(n)):
            if sigma in group:
                continue
            for k in range(n):
                if sigma[k] != k or not all(abs(beta[sigma[k]][sigma[l]] - beta[k][l]) < mpmath.mpf(10) ** -55
                                            for l in range(n)):
                    continue
                one, two = _construction_gap(n, m, sigma, k, rng)
                assert one < mpmath.mpf(10) ** -50, (sigma, k)
                # at m = 5 the weights differ by e^(−5·d) and the gap is small, but far above the 60-digit
                # round-off (1e-55): the separation is exact, not numerical
                assert two > mpmath.mpf(10) ** -35, (sigma, k, two)
                tried += 1
            if cap and tried >= cap:
                break
        assert tried > 0


# -- brute force over S_n with random parameters of the family ------------------------------------

def _layer(X, beta_log, Wq, Wk, Wv):
    """One residual softmax layer with the fixed bias (log-weights beta_log), in numpy."""
    scores = (X @ Wq.T) @ (X @ Wk.T).T + beta_log
    scores -= scores.max(axis=1, keepdims=True)
    A = np.exp(scores)
    A /= A.sum(axis=1, keepdims=True)
    return X + A @ (X @ Wv.T)


@pytest.mark.parametrize("n", [4, 5, 6])
def test_brute_force_one_layer_coincides_exactly_where_sigma_keeps_a_row_and_two_layers_separate(n):
    rng = np.random.default_rng(n)
    d, mu = 3, 0.7
    pos = np.arange(n)
    bias = -mu * np.abs(pos[:, None] - pos[None, :])
    beta = weights(n, Fraction(1, 2))  # the row-keeping relation does not depend on the slope
    params = [tuple(rng.normal(size=(d, d)) * 0.8 for _ in range(3)) for _ in range(2)]
    X = rng.normal(size=(n, d))
    Y1 = _layer(X, bias, *params[0])
    Y2 = _layer(Y1, bias, *params[1])
    group = {tuple(range(n)), reflection(n)}
    smallest = np.inf
    for sigma in itertools.permutations(range(n)):
        Xs = np.empty_like(X)
        Xs[list(sigma)] = X
        Z1 = _layer(Xs, bias, *params[0])
        Z2 = _layer(Z1, bias, *params[1])
        for k in range(n):
            gap1 = np.linalg.norm(Y1[k] - Z1[sigma[k]])
            gap2 = np.linalg.norm(Y2[k] - Z2[sigma[k]])
            if sigma in group:
                assert gap2 < 1e-12  # equivariance
                continue
            assert (gap1 < 1e-12) == keeps_row(beta, sigma, k), (sigma, k, gap1)
            smallest = min(smallest, gap2)
    assert smallest > 1e-6


# -- the rules ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n,layers", [(2, 1), (3, 1), (4, 2), (5, 2), (6, 2), (7, 2), (64, 2)])
def test_the_count_is_one_up_to_3_and_two_from_4(n, layers):
    r = uapcheck.check(alibi(n))
    assert (r.verdict, r.layers) == ("UAP", layers)
    if n >= 3:
        assert r.group.name == "reflection"
    step = _rules(r)["BIAS-LAYERS"]
    assert step.proved and step.facts["least"] is True
    assert [p.rule for p in step.premises] == ["TD-FIXEDBIAS"]


def test_symbolic_n_states_the_range():
    r = uapcheck.check(alibi(None))
    assert (r.verdict, r.group.name, r.layers, r.group.condition) == ("UAP", "reflection", 2, "n ≥ 4")


@pytest.mark.parametrize("bias", ["-m * (i - j)^2", "-m * |i - j| - (i - j)^2 / 3", "-(i - j)^2 / 8",
                                  "2 * |j - i|"])
def test_other_even_biases_injective_on_the_distance(bias):
    r = uapcheck.check(alibi(16, body=ALIBI.replace("-m * |i - j|", bias)))
    assert (r.verdict, r.group.name, r.layers) == ("UAP", "reflection", 2)


def test_an_even_bias_not_injective_on_the_distance_is_not_decided():
    """cos(π(i − j)/2) takes the value 0 at |m| = 1 and 3: not injective on |m|, no count."""
    r = uapcheck.check(alibi(8, body=ALIBI.replace("-m * |i - j|", "cos(pi * (i - j) / 2)")))
    assert r.verdict == "INCONCLUSIVE"


@pytest.mark.parametrize("second", ["bias symmetric circulant", "", "bias symmetric toeplitz"])
def test_beside_heads_that_keep_the_reflection(second):
    body = ALIBI + "attention b {\n  kernel k(x, y) = exp(x . y)\n  " + second + "\n}\n"
    for n, layers in ((3, 1), (5, 2), (12, 2)):
        r = uapcheck.check(alibi(n, body=body))
        assert (r.verdict, r.group.name, r.layers) == ("UAP", "reflection", layers), (second, n)


@pytest.mark.parametrize("other", ["attention b {\n  kernel k(x, y) = exp(x . y)\n  bias toeplitz\n}\n",
                                   "attention b {\n  kernel k(x, y) = exp(x . y)\n  bias circulant\n}\n"])
def test_beside_a_head_that_breaks_the_reflection_the_count_is_not_claimed(other):
    r = uapcheck.check(alibi(12, body=ALIBI + other))
    assert r.verdict == "INCONCLUSIVE"
    assert _rules(r)["BIAS-LAYERS"].status is proof.UNDECIDED


def test_a_budget_of_one_layer_is_not_uap():
    r = uapcheck.check(alibi(8, extra="layers 1\n"))
    assert r.verdict != "UAP"


def test_without_two_layers_claimed_the_verdict_never_counts_one():
    """VERDICT-T1's guard: a TD-FIXEDBIAS step with `fixed_even` and no BIAS-LAYERS step gives no count."""
    from uapcheck.rules import verdict
    r = uapcheck.check(alibi(8))
    steps = _rules(r)
    got = verdict.decide(steps["FFN-DEF2"], [steps["TD-FIXEDBIAS"]], [], steps["SYM-DENSE"], r.spec.dim)
    assert got[0] is proof.Verdict.INCONCLUSIVE and got[3] is None


# -- certificates and the verifier -----------------------------------------------------------------

def test_forged_fixed_certificates_are_rejected():
    r = uapcheck.check(alibi(8))
    td = _rules(r)["TD-FIXEDBIAS"]
    kinds = ("symmetric toeplitz",)
    DenseBiasLayers(kinds, 8, 2, True, "witness", (2, 1, 3, 4), 4, fixed=(td,)).check()
    with pytest.raises(proof.CertificateRejected, match="decided by the labels"):
        DenseBiasLayers(kinds, 8, 2, False, "sufficient", fixed=(td,)).check()
    with pytest.raises(proof.CertificateRejected, match="TD-FIXEDBIAS"):
        DenseBiasLayers(kinds, 8, 2, True, "witness", (2, 1, 3, 4), 4, fixed=(_rules(r)["POS-OFFSET"],)).check()
    with pytest.raises(proof.CertificateRejected, match="beside symmetric biases"):
        DenseBiasLayers(("symmetric circulant",), 8, 2, True, "witness", (2, 1, 3, 4), 5, fixed=(td,)).check()
    with pytest.raises(proof.CertificateRejected, match="keeps row"):
        DenseBiasLayers(kinds, 5, 1, True, "exhaustive", fixed=(td,)).check()


def test_the_verifier_re_derives_lemma_e_and_the_count_and_rejects_tampering(tmp_path):
    from uapcheck.verifier import verify
    cert = certificate_from_cli(alibi(None, body=ALIBI.replace("-m * |i - j|", "-m * (i - j)^2")), tmp_path)
    report = verify(cert)
    assert report.problems == []
    outcomes = {s.rule: s.outcome for s in report.steps}
    assert outcomes["BIAS-LAYERS"] == outcomes["TD-FIXEDBIAS"] == outcomes["POS-OFFSET"] == "verified"
    for step in cert["steps"]:
        if step["rule"] == "BIAS-LAYERS":
            step["data"]["layers"] = 1
    assert any(s.rule == "BIAS-LAYERS" and s.outcome == "rejected" for s in verify(cert).steps)


def test_simulate_shows_the_one_layer_coincidence_and_the_two_layer_separation():
    p = subprocess.run([sys.executable, "-m", "uapcheck", "simulate", str(ROOT / "catalog" / "alibi_bidirectional.uap"),
                        "--format", "json"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert p.returncode == 0, p.stderr
    demos = {d["kind"]: d for d in json.loads(p.stdout)["demonstrations"]}
    witness = demos["view-witness"]
    assert witness["holds"] is True
    assert witness["data"]["diameter"] == 1 and witness["data"]["position"] == 2
    assert witness["data"]["exact_distance_at_D"] < 1e-40
    assert witness["data"]["min_distance_at_D_plus_1"] > 1e-4
    assert demos["separation"]["holds"] is True
