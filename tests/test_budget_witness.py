"""PAT-BUDGET-WITNESS (docs/theory.md §11.12): a `layers M` budget below a count that a witness shows
least is NOT-UAP with the witness. Dense heads with `layers 1` (the row swap): the rule against a brute
force over S_n, a numpy network on the witness pair, forged certificates, the verifier; patterns with
`layers D` when D + 1 are least by a view witness."""
from __future__ import annotations

import json
from itertools import permutations

import numpy as np
import pytest
import sympy

import uapcheck
from uapcheck import spec as S
from uapcheck.parse import parse_source
from uapcheck.proof import CertificateRejected
from uapcheck.rules import budget_witness as B

from certificates import certificate_from_cli

SOFTMAX = "kernel k(q, key) = exp(q . key)"


def text(n, *heads: str, layers=1, header: str = "param m > 0\n") -> str:
    body = "".join(f"attention {{\n  {SOFTMAX}\n  {h}\n}}\n" for h in heads)
    return f"tokens {n}\n{header}{body}" + (f"layers {layers}\n" if layers else "")


def run(source: str):
    return uapcheck.check(source, "budget.uap")


def steps(result, rule: str) -> list:
    return [s for s in result.root.walk() if s.rule == rule]


ALIBI = "bias b(i, j) = -m * |i - j|"
BUMP = "bias b(i, j) = -m * (|i - j| - 2)^2"  # even, h(1) = h(3): not injective on |m|


# ---------------------------------------------------------------------------------------------
# Bidirectional ALiBi, one layer: NOT-UAP from n = 4, UAP with one layer at n ≤ 3

@pytest.mark.parametrize("n", [4, 5, 6, 8, 9, 64])
def test_one_layer_of_bidirectional_alibi_is_not_uap_with_the_swap_witness(n):
    r = run(text(n, ALIBI))
    assert r.verdict == "NOT-UAP"
    (step,) = steps(r, "PAT-BUDGET-WITNESS")
    assert step.proved and step.facts["obstruction"] == "layer budget"
    assert step.evidence["view witness"] == {"position": 2, "swap": [1, 3], "depth": 1}
    assert step.evidence["breaking row"] == {"row": 4, "head": 1}
    assert not steps(r, "PAT-BUDGET-VIEW")


@pytest.mark.parametrize("n", [2, 3])
def test_one_layer_of_bidirectional_alibi_suffices_below_four_tokens(n):
    r = run(text(n, ALIBI))
    assert r.verdict == "UAP" and r.layers == 1
    assert not steps(r, "PAT-BUDGET-WITNESS")


def test_without_a_budget_and_with_two_layers_the_verdict_is_unchanged():
    for layers in (None, 2):
        r = run(text(8, ALIBI, layers=layers))
        assert r.verdict == "UAP" and r.layers == 2
        assert not steps(r, "PAT-BUDGET-WITNESS")


def test_an_even_bias_that_is_not_injective_on_the_distance():
    # h(3) = h(1): (1 3) is a symmetry at n = 4 (no witness); from n = 5 row 5 sees 1 and 3 at 4 and 2
    assert not steps(run(text(4, BUMP)), "PAT-BUDGET-WITNESS")
    r = run(text(8, BUMP))
    assert r.verdict == "NOT-UAP"
    (step,) = steps(r, "PAT-BUDGET-WITNESS")
    assert step.evidence["view witness"]["swap"] == [1, 3] and step.evidence["breaking row"]["row"] == 5


@pytest.mark.parametrize("bias, n, verdict", [
    ("bias symmetric toeplitz", 4, "NOT-UAP"), ("bias symmetric toeplitz", 3, "UAP"),
    ("bias symmetric circulant", 5, "NOT-UAP"), ("bias symmetric circulant", 4, "UAP"),
    ("bias toeplitz", 8, "UAP"), ("bias circulant", 8, "UAP"), ("bias free", 6, "UAP"),
    ("rotary", 8, "UAP"), ("pattern full", 8, "UAP")])
def test_trainable_and_other_position_terms_with_one_layer(bias, n, verdict):
    r = run(text(n, bias, header=""))
    assert r.verdict == verdict
    assert bool(steps(r, "PAT-BUDGET-WITNESS")) == (verdict == "NOT-UAP")


def test_t5_buckets_beyond_the_exact_range_share_a_bucket_in_row_one():
    r = run(text(16, "bias buckets(32, 128)", header=""))
    assert r.verdict == "NOT-UAP"
    (step,) = steps(r, "PAT-BUDGET-WITNESS")
    assert step.evidence["view witness"] == {"position": 1, "swap": [9, 10], "depth": 1}


def test_an_absolute_encoding_or_a_causal_target_leaves_the_rule_out():
    assert not steps(run(text(8, ALIBI) + "positional absolute\n"), "PAT-BUDGET-WITNESS")
    assert not steps(run(text(8, ALIBI) + "target causal\n"), "PAT-BUDGET-WITNESS")


def test_a_position_blind_head_beside_alibi_keeps_the_witness():
    r = run(text(6, ALIBI, "pattern full"))
    assert r.verdict == "NOT-UAP"
    (step,) = steps(r, "PAT-BUDGET-WITNESS")
    assert step.evidence["breaking row"] == {"row": 4, "head": 1}


# ---------------------------------------------------------------------------------------------
# A brute force over S_n, with its own labels: a one-layer witness (σ ∉ G keeping some row's labels)
# exists exactly when the rule finds its row swap (dense heads of the kinds below, n ≤ 7).

def _label(kind: str, n: int, q: int, k: int):
    d = k - q
    if kind == "plain":
        return 0
    if kind == "st":
        return abs(d)
    if kind == "sc":
        return min(d % n, -d % n)
    if kind == "alibi":
        return abs(d)  # −m·|d| with m > 0: injective on |d|
    if kind == "bump":
        return (abs(d) - 2) ** 2
    raise AssertionError(kind)


def _brute_witness(kinds, n: int) -> bool:
    labels = [[[_label(k, n, q, u) for u in range(1, n + 1)] for q in range(1, n + 1)] for k in kinds]

    def keeps(perm, q):
        return all(lab[perm[q - 1] - 1][perm[u - 1] - 1] == lab[q - 1][u - 1] for lab in labels for u in range(1, n + 1))
    for perm in permutations(range(1, n + 1)):
        rows = [keeps(perm, q) for q in range(1, n + 1)]
        if not all(rows) and any(rows):
            return True
    return False


HEAD_TEXT = {"plain": "pattern full", "st": "bias symmetric toeplitz", "sc": "bias symmetric circulant",
             "alibi": ALIBI, "bump": BUMP}


@pytest.mark.parametrize("kinds", [("st",), ("sc",), ("alibi",), ("bump",), ("st", "sc"), ("plain", "sc"),
                                   ("alibi", "sc"), ("plain", "alibi")])
@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_the_row_swap_is_found_exactly_when_brute_force_finds_a_one_layer_witness(kinds, n):
    spec = parse_source(text(n, *(HEAD_TEXT[k] for k in kinds)), "brute.uap")
    assert (B.row_swap(spec) is not None) == _brute_witness(kinds, n)


# ---------------------------------------------------------------------------------------------
# Numerically: a random one-layer network (softmax with the fixed bias, residual, ReLU FFN) on the
# witness pair, and the model of the σ ∉ G step

def _layer(X, Wq, Wk, Wv, bias, W1, b1, W2):
    scores = (X @ Wq.T) @ (X @ Wk.T).T + bias
    w = np.exp(scores - scores.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    Y = X + w @ (X @ Wv.T)
    return Y + np.maximum(Y @ W1.T + b1, 0) @ W2.T


def _bias(n, h):
    pos = np.arange(1, n + 1)
    return h(np.abs(pos[:, None] - pos[None, :]).astype(float))


@pytest.mark.parametrize("n, h, swap, centre, row", [
    (8, lambda d: -0.7 * d, (1, 3), 2, 4),
    (8, lambda d: -0.7 * (d - 2) ** 2, (1, 3), 2, 5),
    (64, lambda d: -0.05 * d, (1, 3), 2, 4)])
def test_a_random_one_layer_network_cannot_tell_the_witness_pair_apart(n, h, swap, centre, row):
    rng = np.random.default_rng(7)
    d = 3
    bias = _bias(n, h)
    a, b = swap
    for _ in range(20):
        X = rng.uniform(0, 1, size=(n, d))
        Xs = X.copy()
        Xs[[a - 1, b - 1]] = Xs[[b - 1, a - 1]]
        params = [rng.normal(size=(d, d)) for _ in range(3)] + [bias, rng.normal(size=(8, d)), rng.normal(size=8),
                                                               rng.normal(size=(d, 8))]
        out, out_s = _layer(X, *params), _layer(Xs, *params)
        assert np.abs(out[centre - 1] - out_s[centre - 1]).max() < 1e-12
    # σ ∉ G: at W_Q = W_K = 0, W_V = I and a zero FFN the output at the breaking row moves under σ
    zero, eye = np.zeros((d, d)), np.eye(d)
    params = [zero, zero, eye, bias, np.zeros((8, d)), np.zeros(8), np.zeros((d, 8))]
    out, out_s = _layer(X, *params), _layer(Xs, *params)
    assert np.abs(out[row - 1] - out_s[row - 1]).max() > 1e-3


# ---------------------------------------------------------------------------------------------
# The certificate's own check, and the verifier

def _certificate(n=8):
    return B.row_swap(parse_source(text(n, ALIBI), "c.uap"))


def test_the_certificate_accepts_the_found_swap():
    cert = _certificate()
    assert (cert.position, cert.swap, cert.row) == (2, (1, 3), 4)
    cert.check()


@pytest.mark.parametrize("change, why", [
    ({"swap": (1, 5)}, "different labels"), ({"row": 2}, "does not tell"), ({"budget": 2}, "one-layer"),
    ({"row": 3}, "v ∉"), ({"position": 1}, "distinct")])
def test_forged_row_swaps_are_rejected(change, why):
    from dataclasses import replace
    cert = replace(_certificate(), **change)
    with pytest.raises(CertificateRejected, match=why):
        cert.check()


def test_a_fixed_factor_does_not_break_the_symmetry_by_itself():
    lab = B.HeadLabels("fixed", "reweight", B.head_labels(parse_source(text(8, ALIBI), "c.uap"),
                                                          parse_source(text(8, ALIBI), "c.uap").heads[0]).term,
                       k00=sympy.Integer(1))
    assert not lab.differ(8, 4, 1, 3)


def test_the_verifier_re_checks_the_swap_and_rejects_a_tampered_one(tmp_path):
    from uapcheck.verifier import verify
    cert = certificate_from_cli(text(8, ALIBI), tmp_path)
    report = verify(cert)
    assert report.ok and report.verdict == "NOT-UAP"
    assert any(s.rule == "PAT-BUDGET-WITNESS" and s.outcome == "verified" for s in report.steps)
    for field, value in (("swap", [1, 4]), ("row", 2), ("breaker", 3)):
        bad = json.loads(json.dumps(cert))
        for s in bad["steps"]:
            if s["rule"] == "PAT-BUDGET-WITNESS":
                s["data"][field] = value
        report = verify(bad)
        assert any(s.rule == "PAT-BUDGET-WITNESS" and s.outcome == "rejected" for s in report.steps), field


# ---------------------------------------------------------------------------------------------
# Patterns: a budget of D layers when D + 1 are least by a view witness

EDGES = "pattern edges {1 -> 2, 1 -> 3, 1 -> 4, 2 -> 1, 2 -> 3, 2 -> 4, 3 -> 2, 4 -> 1}"


def test_the_view_witness_refutes_a_budget_equal_to_the_diameter():
    r = run(text(4, EDGES, layers=2, header=""))
    assert r.verdict == "NOT-UAP"
    (step,) = steps(r, "PAT-BUDGET-WITNESS")
    assert step.evidence["route"] == "view witness"
    assert step.evidence["view witness"]["position"] == 4
    assert not steps(r, "PAT-BUDGET-VIEW")
    assert run(text(4, EDGES, layers=3, header="")).verdict == "UAP"


def test_bigbird_with_two_layers_is_not_uap(tmp_path):
    from uapcheck.verifier import verify
    source = text(64, "pattern window(3) + global(2) + random(3, seed=0)", layers=2, header="")
    r = run(source)
    assert r.verdict == "NOT-UAP" and steps(r, "PAT-BUDGET-WITNESS")
    report = verify(certificate_from_cli(source, tmp_path))
    assert report.ok and any(s.rule == "PAT-BUDGET-WITNESS" and s.outcome == "verified" for s in report.steps)


LABELLED = "pattern window(1) + global(1)\n  bias symmetric circulant"


def test_a_labelled_witness_refutes_a_budget_equal_to_the_diameter(tmp_path):
    # D = 2, and D + 1 = 3 least: σ = (2 8) keeps every labelled neighbourhood within distance 1 of 5
    from uapcheck.verifier import verify
    source = text(8, LABELLED, layers=2, header="")
    r = run(source)
    assert r.verdict == "NOT-UAP"
    (step,) = steps(r, "PAT-BUDGET-WITNESS")
    assert step.evidence["route"] == "labelled view witness"
    assert step.evidence["view witness"] == {"position": 5, "depth": 2, "swap": [2, 8]}
    assert run(text(8, LABELLED, layers=3, header="")).verdict == "UAP"
    cert = certificate_from_cli(source, tmp_path)
    report = verify(cert)
    assert report.ok and any(s.rule == "PAT-BUDGET-WITNESS" and s.outcome == "verified" for s in report.steps)
    for s in cert["steps"]:
        if s["rule"] == "PAT-BUDGET-WITNESS":
            s["data"]["position"] = 3  # 3's own neighbourhood moves under (2 8)
    assert any(s.rule == "PAT-BUDGET-WITNESS" and s.outcome == "rejected" for s in verify(cert).steps)


def test_a_forged_labelled_witness_is_rejected():
    from dataclasses import replace
    (step,) = steps(run(text(8, LABELLED, layers=2, header="")), "PAT-BUDGET-WITNESS")
    cert = step.certificate
    cert.check()
    with pytest.raises(CertificateRejected, match="within 1"):
        replace(cert, position=2).check()
    with pytest.raises(CertificateRejected, match="in the group"):
        replace(cert, permutation=tuple(range(1, 9))).check()
    # without the labels the same σ is not a witness for the circulant classes of another kind
    with pytest.raises(CertificateRejected):
        replace(cert, kinds=("toeplitz",)).check()


# D = 3, and D + 1 least by a labelled witness: σ = (1 3) at position 7 (the classes |u − v| of the even bias)
SPARSE = ("pattern edges {1 -> 2, 1 -> 3, 2 -> 1, 2 -> 3, 2 -> 4, 2 -> 7, 3 -> 2, 3 -> 4, 3 -> 5, 4 -> 3, 4 -> 5, "
          "4 -> 6, 5 -> 2, 5 -> 4, 5 -> 6, 6 -> 2, 6 -> 5, 6 -> 7, 7 -> 6}")


def test_a_fixed_even_bias_on_a_pattern_gives_a_labelled_witness(tmp_path):
    from uapcheck.verifier import verify
    source = text(7, SPARSE + "\n  " + ALIBI, layers=3)
    r = run(source)
    assert r.verdict == "NOT-UAP"
    (step,) = steps(r, "PAT-BUDGET-WITNESS")
    assert step.evidence["route"] == "labelled view witness"
    assert step.evidence["view witness"] == {"position": 7, "depth": 3, "swap": [1, 3]}
    assert [f is not None for f in step.certificate.fixed] == [True]
    report = verify(certificate_from_cli(source, tmp_path))
    assert report.ok and any(s.rule == "PAT-BUDGET-WITNESS" and s.outcome == "verified" for s in report.steps)
    # the certificate ties the classes to the bias: `toeplitz` classes for an even bias are refused
    from dataclasses import replace
    with pytest.raises(CertificateRejected, match="classes are not those"):
        replace(step.certificate, kinds=("toeplitz",)).check()


def test_a_labelled_witness_at_depth_d_coincides_numerically():
    # three softmax layers with the fixed bias −m·|i − j| on the pattern: equal outputs at 7 for X and (1 3)X
    n, d = 7, 3
    arcs = {(1, 2), (1, 3), (2, 1), (2, 3), (2, 4), (2, 7), (3, 2), (3, 4), (3, 5), (4, 3), (4, 5), (4, 6), (5, 2),
            (5, 4), (5, 6), (6, 2), (6, 5), (6, 7), (7, 6)}
    mask = np.full((n, n), -np.inf)
    for i, j in arcs:  # `edges {i -> j}`: i attends to j
        mask[i - 1, j - 1] = 0.0
    np.fill_diagonal(mask, 0.0)
    bias = _bias(n, lambda t: -0.9 * t) + mask
    rng = np.random.default_rng(3)
    X = rng.uniform(0, 1, size=(n, d))
    Xs = X.copy()
    Xs[[0, 2]] = Xs[[2, 0]]
    for _ in range(3):
        params = [rng.normal(size=(d, d)) for _ in range(3)] + [bias, rng.normal(size=(8, d)), rng.normal(size=8),
                                                               rng.normal(size=(d, 8))]
        X, Xs = _layer(X, *params), _layer(Xs, *params)
    assert np.abs(X[6] - Xs[6]).max() < 1e-9 * max(1.0, np.abs(X).max())


def test_rotary_on_a_pattern_is_not_used():
    r = run(text(7, SPARSE + "\n  rotary", layers=3, header=""))
    assert not steps(r, "PAT-BUDGET-WITNESS")


# ---------------------------------------------------------------------------------------------
# Symbolic n: the witness (1 3) at row 2, told apart at row 4, for every n ≥ 4 (5 for a circulant)

@pytest.mark.parametrize("head, low", [(ALIBI, 4), ("bias symmetric toeplitz", 4), ("bias symmetric circulant", 5),
                                       (BUMP, None), (ALIBI + " / n", None)])
def test_symbolic_n_states_the_range_of_the_witness(head, low):
    r = run("param m > 0\nattention {\n  " + SOFTMAX + "\n  " + head + "\n}\nlayers 1\n")
    found = steps(r, "PAT-BUDGET-WITNESS")
    if low is None:
        assert not found and r.verdict != "NOT-UAP"
        return
    (step,) = found
    assert r.verdict == "NOT-UAP" and step.evidence["range"] == f"n ≥ {low}"
    assert f"for n ≥ {low}" in str(step.claim)


def test_the_symbolic_certificate_refuses_a_range_below_the_witness():
    from dataclasses import replace
    spec = parse_source("param m > 0\nattention {\n  " + SOFTMAX + "\n  bias symmetric circulant\n}\nlayers 1\n",
                        "s.uap")
    cert = B.row_swap(spec)
    assert cert is not None and cert.low == 5
    with pytest.raises(CertificateRejected, match="does not tell"):
        replace(cert, low=4).check()


def test_a_symbolic_budget_is_left_to_the_other_budget_rules():
    """At symbolic n no witness is built here: the family theorem's least count (F2: D + 1 = 3) decides the budget
    D = 2 on its whole range through PAT-BUDGET-CLASS (tests/test_budget_least_symbolic.py)."""
    r = run("tokens n\nattention {\n  " + SOFTMAX + "\n  pattern window(3) + global(2)\n}\nlayers 2\n")
    assert r.verdict == "NOT-UAP" and steps(r, "PAT-BUDGET-CLASS") and not steps(r, "PAT-BUDGET-WITNESS")
    assert isinstance(r.spec.tokens, str) and not isinstance(r.spec.heads[0].pattern, S.Full)


def test_a_family_theorems_witness_on_unbiased_heads_is_not_called_labelled():
    # window(3) + global(2) at 5,000 tokens: Theorem F2's witness, on heads without labels
    r = run(text(5000, "pattern window(3) + global(2)", layers=2, header=""))
    assert r.verdict == "NOT-UAP"
    (step,) = steps(r, "PAT-BUDGET-WITNESS")
    assert step.evidence["route"] == "view witness"
    assert "labelled" not in str(step.claim)


def test_the_verifier_checks_a_least_counts_witness_with_its_bias_classes(tmp_path):
    # window(1) + global(1) with a symmetric circulant bias at n = 8: 3 layers, least, witness (2 8) at 5.
    # (2 3) at position 6 keeps every bare neighbourhood within distance 1 of 6 but not their classes: no
    # witness, and the verifier must say so (it used to check the bare arcs only)
    from uapcheck.verifier import check
    cert = certificate_from_cli(text(8, LABELLED, layers=0, header=""), tmp_path)
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] and step["data"]["layers"] == 3
    layers = [r for r in check.verify(cert).steps if r.rule == "PAT-LAYERS"]
    assert layers[0].outcome == check.VERIFIED
    forged = [1, 3, 2, 4, 5, 6, 7, 8]
    step["data"]["view witness"] = {"permutation": forged, "position": 6}
    step["evidence"]["view witness"] = {"position": 6}
    layers = [r for r in check.verify(cert).steps if r.rule == "PAT-LAYERS"]
    assert layers[0].outcome == check.REJECTED, layers[0]
