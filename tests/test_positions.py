"""Positions in the kernel and in biases: RoPE, fixed bias formulas (ALiBi), T5 buckets, cosFormer
(docs/theory.md §16). Verdicts, groups, the offset analysis, errors, and numeric cross-checks of
the separation arguments and of the counterexamples."""
from __future__ import annotations

import math
import random

import pytest

import uapcheck
from uapcheck.errors import UapError
from uapcheck.parse import parse_source
from uapcheck.rules.positions import M, bucket_pair, classify, t5_bucket
import sympy


def _check(body: str, tokens: str = "", params: str = ""):
    return uapcheck.check(f"{tokens}\n{params}\nattention {{\n{body}\n}}")


def _rules(result):
    return {s.rule: s for s in result.root.walk()}


def test_rope_softmax_is_uap_with_the_trivial_group():
    r = _check("kernel k(q, key) = exp(q . key)\nrotary")
    assert r.verdict == "UAP" and r.group.name == "trivial" and r.layers == 1
    assert _rules(r)["TD-ROTARY"].proved


def test_rope_on_another_kernel_is_not_concluded():
    r = _check("kernel k(x, y) = exp(-|x - y|^2)\nrotary")
    assert r.verdict == "INCONCLUSIVE"


def test_alibi_causal_is_not_uap_by_its_mask():
    r = _check("kernel k(q, key) = exp(q . key)\nbias b(i, j) = -m * (i - j)\npattern causal",
               params="param m > 0")
    assert r.verdict == "NOT-UAP"


def test_injective_fixed_bias_gives_plain_uap_in_one_layer():
    r = _check("kernel k(q, key) = exp(q . key)\nbias b(i, j) = m * (j - i)", params="param m > 0")
    assert r.verdict == "UAP" and r.group.name == "trivial" and r.layers == 1
    r = _check("kernel k(q, key) = exp(q . key)\nbias b(i, j) = log(1 + exp(j - i))", tokens="tokens 40")
    assert r.verdict == "UAP"


def test_even_fixed_bias_has_the_reflection_group_and_two_layers():
    """One layer cannot tell i + s from i − s; two can (Lemma E, docs/theory.md §16.2)."""
    r = _check("kernel k(q, key) = exp(q . key)\nbias b(i, j) = -m * |i - j|", tokens="tokens 16",
               params="param m > 0")
    assert (r.verdict, r.group.name, r.layers) == ("UAP", "reflection", 2)
    steps = _rules(r)
    assert steps["SYM-DENSE"].evidence["group"] == "reflection"
    assert steps["TD-FIXEDBIAS"].proved and steps["TD-FIXEDBIAS"].facts["fixed_even"]
    assert steps["BIAS-LAYERS"].facts == {"layers": 2, "least": True}


def test_even_fixed_bias_on_another_kernel_stays_inconclusive():
    """Lemma E is for dense normalised softmax heads, Theorem F161 for sparse ones (tests/test_fixed_bias_labelled_views.py):
    an RBF kernel, a tied window and an unnormalised head keep TD-FIXEDBIAS undecided."""
    for body in ("kernel k(q, key) = exp(q . key)\ntie query key\npattern window(2)\nbias b(i, j) = -m * |i - j|",
                 "kernel k(x, y) = exp(-|x - y|^2)\nbias b(i, j) = -m * |i - j|",
                 "kernel k(q, key) = exp(q . key)\nunnormalized\nbias b(i, j) = -m * |i - j|"):
        r = _check(body, tokens="tokens 16", params="param m > 0")
        assert r.verdict == "INCONCLUSIVE", body
        assert not _rules(r)["TD-FIXEDBIAS"].proved, body


def test_bias_not_a_function_of_the_offset_is_undecided():
    r = _check("kernel k(q, key) = exp(q . key)\nbias b(i, j) = i * j / 100", tokens="tokens 10")
    assert r.verdict == "INCONCLUSIVE"
    assert any(s.rule == "SYM-UNDECIDED" for s in r.root.walk())


def test_cosformer_reweighting_is_positive_even_and_inconclusive():
    r = _check("features phi(x) = relu(x)\nreweight c(i, j) = cos(pi * (i - j) / (2 * 64))", tokens="tokens 64")
    assert r.verdict == "INCONCLUSIVE"
    off = _rules(r)["POS-OFFSET"]
    assert off.proved and off.evidence["positive on every offset"] is True
    assert _rules(r)["SYM-DENSE"].evidence["group"] == "reflection"


def test_reweight_that_changes_sign_is_not_accepted():
    r = _check("kernel k(q, key) = exp(q . key)\nreweight c(i, j) = 2 + cos(j - i + 1/2) * 3",
               tokens="tokens 12")
    assert r.verdict != "UAP"


def test_t5_buckets_short_and_long():
    assert _check("kernel k(q, key) = exp(q . key)\nbias buckets(32, 128)", tokens="tokens 8").verdict == "UAP"
    r = _check("kernel k(q, key) = exp(q . key)\nbias buckets(32, 128)", tokens="tokens 512")
    assert (r.verdict, r.group.name, r.layers) == ("UAP", "trivial", 2)  # one layer is not enough: BIAS-LAYERS
    witness = _rules(r)["TD-BUCKETS"].evidence["witness"]
    assert witness["swap"] == [9, 10]


def test_t5_bucket_function_matches_the_released_formula():
    """The released code: max_exact + int(log(n/max_exact)/log(max_distance/max_exact)·(half − max_exact)),
    clipped; the exact integer version agrees with float64 wherever the float is not within 1e-9 of
    an integer."""
    for nb, md in ((32, 128), (64, 256)):
        half, me = nb // 2, nb // 4
        for m in range(-600, 601):
            d = abs(m)
            if d < me:
                want = d
            else:
                x = math.log(d / me) / math.log(md / me) * (half - me)
                if abs(x - round(x)) < 1e-9:
                    continue
                want = min(me + int(x), half - 1)
            want += half if m > 0 else 0
            assert t5_bucket(m, nb, md) == want, (m, nb, md)
    assert bucket_pair(8, 32, 128) is None


def test_offset_classification():
    assert classify(3 * M, 10, False).kind == "injective"
    assert classify(-sympy.Abs(M), 10, False).kind == "symmetric"
    assert classify(sympy.cos(M), 10, False).kind == "symmetric"         # cos(m): even, injective on m ≥ 0
    assert classify(sympy.cos(M - sympy.Rational(1, 3)), 10, False).kind == "injective"
    assert classify(sympy.cos(sympy.pi * M), 10, False).kind is None    # period 2


@pytest.mark.parametrize("text, message", [
    ("kernel k(x, y) = exp(x . y)\nrotary\nbias toeplitz", "one way of bringing positions"),
    ("kernel k(x, y) = exp(x . y)\nbias b(i, i) = 1", "need different names"),
    ("features phi(x) = relu(x)\nrotary", "`rotary` applies to `kernel` and `score`"),
    ("kernel k(x, y) = exp(x . y)\nbias buckets(31, 128)", "must be even"),
    # the released bucket function divides by B/4 and by log(D/(B/4)): both must be non-zero (the verifier's exact
    # evaluation failed on them, 'Cannot convert nan to int', and the engine had made up a bucket)
    ("kernel k(x, y) = exp(x . y)\nbias buckets(2, 5)", "at least 4 buckets"),
    ("kernel k(x, y) = exp(x . y)\nbias buckets(8, 2)", "must exceed the exact range 2"),
    ("kernel k(x, y) = exp(x . y)\nbias buckets(4, 1)", "must exceed the exact range 1"),
    ("kernel k(x, y) = exp(x . y)\nbias buckets(32, 8)", "must exceed the exact range 8"),
    ("kernel k(x, y) = exp(x . y)\nbias b(i, j) = q * (i - j)", "unknown name `q`"),
    ("kernel k(x, y) = exp(x . y)\nbias b(i, j) = i\nbias b(i, j) = j", "given twice"),
])
def test_position_errors(text, message):
    with pytest.raises(UapError) as err:
        parse_source(f"attention {{\n{text}\n}}")
    assert message in err.value.message


# -- numeric cross-checks (plain floats) ------------------------------------------------------------


def _mat(rng, r, c):
    return [[rng.gauss(0, 1) for _ in range(c)] for _ in range(r)]


def _mv(A, x):
    return [sum(a * b for a, b in zip(row, x)) for row in A]


def _softmax_rows(X, score):
    n = len(X)
    out = []
    for i in range(n):
        s = [score(i, l) for l in range(n)]
        top = max(s)
        w = [math.exp(v - top) for v in s]
        z = sum(w)
        out.append([sum(w[l] * X[l][k] for l in range(n)) / z for k in range(len(X[0]))])
    return out


def _rope(X, Wq, Wk):
    def score(i, l):
        q, k = _mv(Wq, X[i]), _mv(Wk, X[l])
        ang = float(l - i)  # θ_0 = 1
        rk = [math.cos(ang) * k[0] - math.sin(ang) * k[1], math.sin(ang) * k[0] + math.cos(ang) * k[1]]
        return q[0] * rk[0] + q[1] * rk[1]
    return _softmax_rows(X, score)


def test_rope_separates_a_rearrangement_numerically():
    rng = random.Random(0)
    X = [[rng.gauss(0, 1) for _ in range(2)] for _ in range(5)]  # tokens as rows
    perm = [1, 0, 2, 3, 4]  # σ = (1 2): (σX)_{σ(i)} = x_i
    Xs = [None] * 5
    for i, p in enumerate(perm):
        Xs[p] = X[i]
    Wq, Wk = _mat(rng, 2, 2), _mat(rng, 2, 2)
    a, b = _rope(X, Wq, Wk), _rope(Xs, Wq, Wk)
    assert all(max(abs(u - v) for u, v in zip(a[i], b[perm[i]])) > 1e-6 for i in range(5))


def test_t5_counterexample_numerically():
    """Row 1 of a bucketed-bias layer is the same for X and for X with x_9, x_10 exchanged."""
    rng = random.Random(1)
    n, d = 12, 3
    X = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(n)]
    Xs = list(X)
    Xs[8], Xs[9] = Xs[9], Xs[8]
    beta = [rng.gauss(0, 1) for _ in range(32)]
    Wq, Wk = _mat(rng, d, d), _mat(rng, d, d)

    def layer(Y):
        def score(i, l):
            return sum(a * b for a, b in zip(_mv(Wq, Y[i]), _mv(Wk, Y[l]))) + beta[t5_bucket(l - i, 32, 128)]
        return _softmax_rows(Y, score)
    assert max(abs(u - v) for u, v in zip(layer(X)[0], layer(Xs)[0])) < 1e-12
    # and the exchange is seen elsewhere (it is not a symmetry)
    assert max(abs(u - v) for u, v in zip(layer(X)[1], layer(Xs)[1])) > 1e-9


def test_alibi_causal_alternative_is_one_layer_not_the_position_blind_two():
    """With ALiBi one layer already sees the order of a prefix (docs/theory.md §14.11(c)), so the
    position-blind count (least 2) must not be claimed: the alternative is 1 layer, least."""
    r = _check("kernel k(q, key) = exp(q . key)\nbias b(i, j) = -m * (i - j)\npattern causal",
               params="param m > 0")
    assert r.verdict == "NOT-UAP"
    layers = [s for s in r.root.walk() if s.rule == "TGT-LAYERS" and s.proved]
    assert layers and all(s.evidence["layers"] == 1 and s.evidence["least"] for s in layers)
    assert any(s.rule == "TGT-POSITIONS" and s.proved for s in r.root.walk())


# ---------------------------------------------------------------------------------------------
# T5 buckets: a count of one layer wherever the offsets' buckets are pairwise different, decided exactly

def test_t5_buckets_at_the_first_lengths_past_the_exact_range():
    """B = 32, D = 128: the exact range is offsets below 8; the first logarithmic buckets hold one offset each up to
    |δ| = 8, so n = 9 is still a Toeplitz bias (UAP, trivial group, 1 layer), and from n = 10 the offsets 8 and 9 share a
    bucket (the witness). Against a brute-force count of the released formula's buckets at every n ≤ 40."""
    from uapcheck.rules.positions import buckets_injective
    for n in range(2, 41):
        released = {t5_bucket(m, 32, 128) for m in range(-(n - 1), n)}
        assert buckets_injective(n, 32, 128) == (len(released) == 2 * n - 1) == (n <= 9), n
    r = _check("kernel k(q, key) = exp(q . key)\nbias buckets(32, 128)", tokens="tokens 9")
    assert (r.verdict, r.group.name, r.layers) == ("UAP", "trivial", 1)
    r = _check("kernel k(q, key) = exp(q . key)\nbias buckets(32, 128)", tokens="tokens 10")
    assert (r.verdict, r.layers) == ("UAP", 2) and _rules(r)["TD-BUCKETS"].evidence["witness"]["swap"] == [9, 10]


def test_the_verifier_recomputes_the_buckets(tmp_path):
    from certificates import certificate_from_cli
    from uapcheck.verifier import verify
    text = "tokens 9\nattention {\n  kernel k(q, key) = exp(q . key)\n  bias buckets(32, 128)\n}\n"
    assert verify(certificate_from_cli(text, tmp_path)).ok
    cert = certificate_from_cli(text.replace("tokens 9", "tokens 9"), tmp_path)
    forged = cert["input"]["text"].replace("tokens 9", "tokens 10")
    cert["input"]["text"] = forged
    import hashlib
    cert["input"]["sha256"] = hashlib.sha256(forged.encode("utf-8")).hexdigest()
    assert not verify(cert).ok  # at n = 10 two offsets share a bucket


# ---------------------------------------------------------------------------------------------
# Unnormalised heads: the row's own term b(i, i) is not cancelled (docs/theory.md §16.1)

ROW_BIAS = "bias b(i, j) = i - |i - j|"


def test_an_unnormalised_head_with_a_row_dependent_diagonal_has_no_offset_group():
    for head in (f"score s(x, y) = exp(x . y)\n{ROW_BIAS}", f"kernel k(x, y) = exp(x . y)\nunnormalized\n{ROW_BIAS}",
                 "score s(x, y) = exp(x . y)\nreweight c(i, j) = (1 + i) * exp(-(|i - j|))"):
        r = _check(head, tokens="tokens 8")
        steps = _rules(r)
        assert "SYM-DENSE" not in steps or not steps["SYM-DENSE"].proved, head
        assert r.verdict != "UAP"
    # normalised, the row term cancels: the offset classes give the reflection
    r = _check(f"kernel k(x, y) = exp(x . y)\n{ROW_BIAS}", tokens="tokens 8")
    assert r.group is not None and r.group.name == "reflection"
    # unnormalised with a constant diagonal (b(i, i) = 0) keeps the offset classes
    r = _check("score s(x, y) = exp(x . y)\nbias b(i, j) = -(|i - j|)", tokens="tokens 8")
    assert _rules(r)["POS-OFFSET"].proved


def test_the_reversal_is_no_symmetry_of_the_unnormalised_row_bias_numerically():
    import numpy as np
    rng = np.random.default_rng(0)
    n, d = 6, 3
    i = np.arange(1, n + 1)
    bias = i[:, None] - np.abs(i[:, None] - i[None, :])
    wq, wk, wv = (rng.normal(size=(d, d)) * 0.3 for _ in range(3))

    def layer(x):
        w = np.exp((x @ wq.T) @ (x @ wk.T).T + bias)
        return x + w @ (x @ wv.T)
    x = rng.normal(size=(n, d))
    assert np.linalg.norm(layer(x[::-1]) - layer(x)[::-1]) > 1e-3 * np.linalg.norm(layer(x))


def test_the_verifier_rejects_the_offset_group_for_an_unnormalised_row_bias(tmp_path):
    import hashlib
    from certificates import certificate_from_cli
    from uapcheck.verifier import verify
    text = f"tokens 8\nattention {{\n  kernel k(x, y) = exp(x . y)\n  {ROW_BIAS}\n}}\n"
    cert = certificate_from_cli(text, tmp_path)
    assert verify(cert).ok
    forged = cert["input"]["text"].replace(ROW_BIAS, f"unnormalized\n  {ROW_BIAS}")
    cert["input"]["text"] = forged
    cert["input"]["sha256"] = hashlib.sha256(forged.encode("utf-8")).hexdigest()
    assert not verify(cert).ok


def test_rope_at_dimension_one_states_no_offset_group():
    """At d = 1 RoPE has no rotation plane (it rotates pairs of coordinates): the layer is position-blind there, so the
    offset classes (the trivial group) are not the layer's; the group is left undecided rather than stated."""
    r = uapcheck.check("dim 1\nattention { kernel k(q, key) = exp(q . key); rotary }\n")
    steps = _rules(r)
    assert r.verdict == "INCONCLUSIVE" and "SYM-UNDECIDED" in steps and "SYM-DENSE" not in steps
    r = uapcheck.check("attention { kernel k(q, key) = exp(q . key); rotary }\n")
    assert r.verdict == "UAP" and r.group.name == "trivial"
