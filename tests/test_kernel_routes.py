"""Kernel routes beyond (LIM) (docs/theory.md §20): TD-RIDGE (Corollary 5), TD-RADIAL, softplus
regions, analyticity off q = ±k, TD-WITNESS — each checked against a high-precision evaluation of
the attention layer itself (mpmath, 50 digits) at exact points."""
from __future__ import annotations

import random

import mpmath as mp
import pytest
import sympy

import uapcheck
from uapcheck import proof
from uapcheck.asymptotics import Context, Growth, growth
from uapcheck.lower import SCALE as t  # the docs' names of the invariants
from uapcheck.rules import ridge, witness


pytestmark = pytest.mark.mpmath_digits(50)  # mpmath's working precision in each test (tests/conftest.py)


def steps(result, rule):
    return [s for s in result.root.walk() if s.rule == rule]


def head(body: str, extra: str = "") -> str:
    return extra + "attention {\n  " + body.replace(";", "\n  ") + "\n}\n"


# ---------------------------------------------------------------------------------------------
# A direct evaluation of one attention layer (d = 2), independent of the engines.

def layer_output(tokens, position, kernel, WQ, WK, WV, bQ=(0, 0), bK=(0, 0), normalized=True):
    x = tokens[position]
    q = [WQ[r][0] * x[0] + WQ[r][1] * x[1] + bQ[r] for r in range(2)]
    num, den = [mp.mpf(0), mp.mpf(0)], mp.mpf(0)
    for y in tokens:
        key = [WK[r][0] * y[0] + WK[r][1] * y[1] + bK[r] for r in range(2)]
        w = kernel(q, key)
        value = [WV[r][0] * y[0] + WV[r][1] * y[1] for r in range(2)]
        num = [num[r] + w * value[r] for r in range(2)]
        den += w
    return [x[r] + (num[r] / den if normalized else num[r]) for r in range(2)]


def dot(q, k):
    return q[0] * k[0] + q[1] * k[1]


def dist2(q, k):
    return (q[0] - k[0]) ** 2 + (q[1] - k[1]) ** 2


def on_line(values):
    return [(mp.mpf(v), mp.mpf(0)) for v in values]


def max_difference(kernel, X, Y, normalized=True, biases=False, trials=9, seed=0):
    rng = random.Random(seed)

    def rnd():
        return [[mp.mpf(rng.gauss(0, 1)) for _ in range(2)] for _ in range(2)]
    diffs = []
    for _ in range(trials):
        WQ, WK, WV = rnd(), rnd(), rnd()
        bQ = [mp.mpf(rng.gauss(0, 1)) for _ in range(2)] if biases else (0, 0)
        bK = [mp.mpf(rng.gauss(0, 1)) for _ in range(2)] if biases else (0, 0)
        try:
            a = layer_output(X, 0, kernel, WQ, WK, WV, bQ, bK, normalized)
            b = layer_output(Y, 0, kernel, WQ, WK, WV, bQ, bK, normalized)
        except ZeroDivisionError:  # ReLU features: every feature of the query killed; no output
            continue
        diffs.append(max(abs(a[r] - b[r]) for r in range(2)))
    assert len(diffs) >= trials // 3
    return max(diffs)


# Equal power sums up to degree 3 besides the shared token 5: polynomial kernels of degree ≤ 2
# cannot separate this pair; kernels with infinitely many Taylor moments can.
PTE_X, PTE_Y = on_line([5, 0, 4, 7, 11]), on_line([5, 1, 2, 9, 10])


# ---------------------------------------------------------------------------------------------
# TD-RIDGE: Corollary 5


@pytest.mark.parametrize("alpha", ["tanh(x . y)", "2 + tanh(x . y)", "1 / (1 + (x . y)^2)", "tanh(x . y / 3)"])
def test_ridge_proves_analytic_non_polynomial_scores_with_bias_terms(alpha):
    result = uapcheck.check(head(f"score s(x, y) = {alpha}; affine query key"))
    assert result.verdict == "UAP" and result.group.name == "S_n" and result.layers == 1
    (step,) = steps(result, "TD-RIDGE")
    assert step.status == proof.PROVED and "not a polynomial" in step.claim


@pytest.mark.parametrize("alpha", ["(x . y)^2 + 1", "x . y", "3"])
def test_ridge_does_not_prove_polynomial_scores(alpha):
    result = uapcheck.check(head(f"score s(x, y) = {alpha}; affine query key"))
    assert result.verdict == "INCONCLUSIVE"
    assert all(s.status != proof.PROVED for s in steps(result, "TD-RIDGE"))


def test_ridge_needs_bias_terms_and_analyticity():
    plain = uapcheck.check(head("score s(x, y) = tanh(x . y)"))
    assert plain.verdict == "INCONCLUSIVE" and not steps(plain, "TD-RIDGE")
    relu = uapcheck.check(head("score s(x, y) = relu(x . y); affine query key"))
    assert relu.verdict == "INCONCLUSIVE"
    assert [s.status for s in steps(relu, "TD-RIDGE")] == [proof.UNDECIDED]
    tied = uapcheck.check(head("score s(x, y) = tanh(x . y); affine query key; tie query key"))
    assert not steps(tied, "TD-RIDGE") or all(s.status != proof.PROVED for s in steps(tied, "TD-RIDGE"))


def test_ridge_with_a_param_that_can_make_the_score_zero_is_undecided():
    result = uapcheck.check(head("score s(x, y) = tanh(g * (x . y)); affine query key", "param g >= 0\n"))
    assert result.verdict == "INCONCLUSIVE"


def test_tanh_score_with_biases_separates_the_moment_pair_numerically():
    kern = lambda q, k: mp.tanh(dot(q, k))  # noqa: E731
    assert max_difference(kern, PTE_X, PTE_Y, normalized=False, biases=True) > mp.mpf(10) ** -20


@pytest.mark.parametrize("plus,minus,polynomial", [
    (Growth(sympy.Integer(1), sympy.Integer(0)), Growth(sympy.Integer(-1), sympy.Integer(0)), False),  # tanh
    (Growth(sympy.Integer(2), sympy.Integer(3)), Growth(sympy.Integer(-2), sympy.Integer(3)), True),  # 2u³
    (Growth(sympy.Integer(2), sympy.Integer(2)), Growth(sympy.Integer(2), sympy.Integer(2)), True),  # 2u²
    (Growth(sympy.Integer(2), sympy.Integer(2)), Growth(sympy.Integer(-2), sympy.Integer(2)), False),
    (Growth(sympy.Integer(1), sympy.Integer(1)), Growth(sympy.Integer(1), sympy.Integer(2)), False),
    (Growth(sympy.Integer(1), sympy.Rational(1, 2)), Growth(sympy.Integer(1), sympy.Rational(1, 2)), False),
    (Growth(sympy.Integer(1), sympy.Integer(0), ((sympy.Integer(1), sympy.Integer(1)),)),
     Growth(sympy.Integer(1), sympy.Integer(0)), False),  # exp
])
def test_the_non_polynomial_test_from_growths(plus, minus, polynomial):
    assert (ridge.not_polynomial_reason(plus, minus) is None) == polynomial


def test_the_certificate_rejects_a_polynomial_posing_as_tanh():
    u = ridge.U
    analytic = uapcheck.check(head("score s(x, y) = tanh(x . y); affine query key"))
    an = steps(analytic, "AN-STRUCT")[0]
    tanh_growths = (Growth(sympy.Integer(1), sympy.Integer(0)), Growth(sympy.Integer(-1), sympy.Integer(0)))
    from uapcheck.lower import QUERY_DOT_KEY as a  # the docs' names of the invariants
    good = ridge.MomentCertificate("dot", sympy.tanh(a), frozenset(), sympy.tanh(u), u, False, True, False, an,
                                   *tanh_growths)
    good.check()
    lying = ridge.MomentCertificate("dot", a ** 3 + 1, frozenset(), u ** 3 + 1, u, False, True, False, an,
                                    *tanh_growths)
    with pytest.raises(proof.CertificateRejected):
        lying.check()  # the growths do not describe u³ + 1
    mismatch = ridge.MomentCertificate("dot", sympy.tanh(a) + 1, frozenset(), sympy.tanh(u), u, False, True,
                                       False, an, *tanh_growths)
    with pytest.raises(proof.CertificateRejected):
        mismatch.check()  # the profile is not the kernel
    no_bias = ridge.MomentCertificate("dot", sympy.tanh(a), frozenset(), sympy.tanh(u), u, False, False, False,
                                      an, *tanh_growths)
    with pytest.raises(proof.CertificateRejected):
        no_bias.check()


# ---------------------------------------------------------------------------------------------
# TD-RADIAL


@pytest.mark.parametrize("kernel", ["1 / (1 + |x - y|^2)", "1 / sqrt(1 + |x - y|^2)", "(2 + |x - y|^2)^(-3)"])
def test_radial_proves_non_polynomial_profiles_for_d_at_least_2(kernel):
    result = uapcheck.check(head(f"kernel k(x, y) = {kernel}"))
    assert result.verdict == "UAP" and result.group.name == "S_n" and result.layers == 1
    (step,) = steps(result, "TD-RADIAL")
    assert step.status == proof.PROVED and step.evidence["dimensions"] == "d ≥ 2"
    assert uapcheck.check(head(f"kernel k(x, y) = {kernel}", "dim 1\n")).verdict == "INCONCLUSIVE"


def test_radial_rejects_a_polynomial_profile():
    result = uapcheck.check(head("kernel k(x, y) = 1 + |x - y|^2"))
    assert result.verdict == "INCONCLUSIVE"
    assert all(s.status != proof.PROVED for s in steps(result, "TD-RADIAL"))
    assert [s.status for s in steps(result, "TD-WITNESS")] == [proof.REFUTED]  # a polynomial of degree 2


@pytest.mark.parametrize("name,kernel", [
    ("cauchy", lambda q, k: 1 / (1 + dist2(q, k))),
    ("imq", lambda q, k: 1 / mp.sqrt(1 + dist2(q, k))),
])
def test_radial_kernels_separate_the_moment_pair_numerically(name, kernel):
    assert max_difference(kernel, PTE_X, PTE_Y) > mp.mpf(10) ** -6, name


# ---------------------------------------------------------------------------------------------
# Softplus regions and the Laplacian


def test_log_one_plus_a_vanishing_term_has_its_growth():
    g = growth(sympy.log(1 + sympy.exp(-t)), Context())
    assert g.C == 1 and g.p == 0 and g.E == ((1, -1),)
    g2 = growth(sympy.log(1 + 1 / t ** 2), Context())
    assert g2.C == 1 and g2.p == -2 and g2.E == ()


@pytest.mark.parametrize("body", ["score s(x, y) = softplus(x . y)", "features phi(x) = softplus(x)"])
def test_softplus_with_bias_terms_holds_on_its_region(body):
    result = uapcheck.check(head(body + "; affine query key"))
    assert result.verdict == "UAP"
    assert [s.status for s in steps(result, "LIM-REGION")] == [proof.PROVED]
    assert uapcheck.check(head(body)).verdict == "INCONCLUSIVE"


def test_laplacian_is_analytic_off_query_equals_key_and_uap_for_d_at_least_2():
    result = uapcheck.check(head("kernel k(x, y) = exp(-|x - y|)"))
    assert result.verdict == "UAP" and result.layers == 1
    (an,) = steps(result, "AN-STRUCT")
    assert an.status == proof.PROVED and an.evidence["dimensions"] == "d ≥ 2"
    assert uapcheck.check(head("kernel k(x, y) = exp(-|x - y|)", "dim 1\n")).verdict == "INCONCLUSIVE"
    # relu is not analytic anywhere near its kink, whatever the invariants: still undecided
    relu = uapcheck.check(head("kernel k(x, y) = exp(-relu(x . y))"))
    assert all(s.status != proof.PROVED for s in steps(relu, "AN-STRUCT"))


# ---------------------------------------------------------------------------------------------
# TD-WITNESS


WITNESS_CASES = [
    ("kernel k(x, y) = (x . y)^2", "polynomial", lambda q, k: dot(q, k) ** 2, True, False),
    ("kernel k(x, y) = (x . y + 2)^2; affine query key", "polynomial", lambda q, k: (dot(q, k) + 2) ** 2, True,
     True),
    ("kernel k(x, y) = 1", "polynomial", lambda q, k: mp.mpf(1), True, False),
    ("kernel k(x, y) = 1 + |x - y|^2", "polynomial", lambda q, k: 1 + dist2(q, k), True, False),
    ("features phi(x) = relu(x)", "homogeneous",
     lambda q, k: max(q[0], 0) * max(k[0], 0) + max(q[1], 0) * max(k[1], 0), True, False),
    ("score s(x, y) = relu(x . y)", "homogeneous", lambda q, k: max(dot(q, k), 0), False, False),
    ("score s(x, y) = sigmoid(x . y)", "odd", lambda q, k: 1 / (1 + mp.exp(-dot(q, k))), False, False),
    ("score s(x, y) = tanh(x . y)", "odd", lambda q, k: mp.tanh(dot(q, k)), False, False),
]


@pytest.mark.parametrize("body,family,kernel,normalized,biases", WITNESS_CASES)
def test_witness_pairs_are_never_separated_by_one_layer(body, family, kernel, normalized, biases):
    result = uapcheck.check(head(body))
    assert result.verdict == "INCONCLUSIVE"
    (step,) = steps(result, "TD-WITNESS")
    assert step.status == proof.REFUTED and step.evidence["family"] == family
    X, Y = step.evidence["X"], step.evidence["X′"]
    assert sorted(X) != sorted(Y) and len(set(X)) == len(X) and X[0] == Y[0]
    # the layer itself, at 50 digits, with random parameters (ReLU features: r > 0 on a ray)
    diff = max_difference(kernel, on_line(X), on_line(Y), normalized=normalized, biases=biases)
    assert diff < mp.mpf(10) ** -40, (body, diff)


def test_softmax_separates_a_witness_pair_so_the_check_can_fail():
    kern = lambda q, k: mp.exp(dot(q, k))  # noqa: E731
    assert max_difference(kern, PTE_X, PTE_Y) > mp.mpf(10) ** -10


def test_uniform_attention_fails_for_every_number_of_attention_layers():
    result = uapcheck.check(head("kernel k(x, y) = 1"))
    (step,) = steps(result, "TD-WITNESS")
    assert "No number of attention layers" in step.claim
    X, Y = on_line(step.evidence["X"]), on_line(step.evidence["X′"])
    rng = random.Random(3)
    for _ in range(3):  # three stacked uniform layers with random W_V keep the shared token equal
        WV = [[mp.mpf(rng.gauss(0, 1)) for _ in range(2)] for _ in range(2)]
        X = [layer_output(X, i, lambda q, k: mp.mpf(1), WV, WV, WV) for i in range(len(X))]
        Y = [layer_output(Y, i, lambda q, k: mp.mpf(1), WV, WV, WV) for i in range(len(Y))]
    assert max(abs(X[0][r] - Y[0][r]) for r in range(2)) < mp.mpf(10) ** -40


def test_no_witness_when_the_sequence_is_too_short_or_there_are_other_heads():
    short = uapcheck.check(head("kernel k(x, y) = (x . y)^2", "tokens 4\n"))
    assert not steps(short, "TD-WITNESS")
    two = uapcheck.check("attention { kernel k(x, y) = (x . y)^2 }\nattention { kernel k(x, y) = (x . y)^2 }\n")
    assert not steps(two, "TD-WITNESS")


def test_the_witness_certificate_rejects_a_wrong_pair():
    from uapcheck.lower import QUERY_DOT_KEY as a  # the docs' names of the invariants
    bad = witness.WitnessCertificate("polynomial", a ** 2, None, 2, (1, 5, 6), (2, 3, 7), True, False)
    with pytest.raises(proof.CertificateRejected):
        bad.check()  # equal power sums only up to degree 2, the kernel needs 3
    good = witness.WitnessCertificate("polynomial", a ** 2, None, 2, (1, 5, 8, 12), (2, 3, 10, 11), True, False)
    good.check()
    not_odd = witness.WitnessCertificate("odd", sympy.exp(a), None, 1, (1, 2, -3), (-1, -2, 3), False, False)
    with pytest.raises(proof.CertificateRejected):
        not_odd.check()


def test_an_odd_witness_is_checked_by_pairing_and_the_expanded_value_sums_agree():
    """The kernel checks an odd-score witness through α(s) + α(−s) = 2α(0), S and −S and ΣS = 0 (the value
    sums then differ by 2α(0)·ΣS): the sums expanded in full vanish too, and each hypothesis is enforced."""
    from uapcheck.lower import QUERY_DOT_KEY as a  # the docs' names of the invariants
    from uapcheck.zero import is_zero
    scores = (1 / (1 + sympy.exp(-a)), sympy.tanh(a), 2 + sympy.tanh(a / 3), a ** 3 - a + 5)
    for alpha in scores:
        for left in ((1, 2, -3), (3, -1, -2), (4, 5, -2, -7)):
            right = tuple(-r for r in left)
            witness.WitnessCertificate("odd", alpha, None, 1, left, right, False, False).check()
            weight = lambda r, alpha=alpha: alpha.xreplace({a: sympy.Integer(r) * witness.ALPHA})  # noqa: E731
            sums = sum(weight(r) * r for r in left) - sum(weight(r) * r for r in right)
            assert is_zero(sympy.expand(sums)), (alpha, left)
    sigmoid = scores[0]
    for left, right, normalized, affine in (((1, 2, -4), (-1, -2, 4), False, False),  # ΣS ≠ 0
                                            ((1, 2, -3), (-1, -2, 4), False, False),  # not −S
                                            ((1, 2, -3), (-1, -2, 3), True, False),   # normalised
                                            ((1, 2, -3), (-1, -2, 3), False, True)):  # bias terms
        with pytest.raises(proof.CertificateRejected):
            witness.WitnessCertificate("odd", sigmoid, None, 1, left, right, normalized, affine).check()
    with pytest.raises(proof.CertificateRejected):  # α(s) + α(−s) ≠ 2α(0)
        witness.WitnessCertificate("odd", a ** 2 + a, None, 1, (1, 2, -3), (-1, -2, 3), False, False).check()


@pytest.mark.parametrize("k", range(1, 8))
def test_equal_power_sets(k):
    left, right = witness.equal_power_sets(k)
    assert len(left) == len(right) and set(left) != set(right)
    assert all(sum(r ** e for r in left) == sum(r ** e for r in right) for e in range(1, k + 1))
    assert sum(r ** (k + 1) for r in left) != sum(r ** (k + 1) for r in right)


def test_no_file_is_both_proved_and_witnessed():
    for body, *_ in WITNESS_CASES:
        for extra in ("", "; affine query key"):
            if "affine" in body and extra:
                continue
            result = uapcheck.check(head(body + extra))
            if steps(result, "TD-WITNESS"):
                assert result.verdict != "UAP"


# ---------------------------------------------------------------------------------------------
# Corollary 1's kernels and the appendix's exp(wᵀx) + exp(wᵀy) (not expressible in .uap)

def w_vector():
    """The fixed vector w = (1, −2/3), made at the test's own digits (the file's mpmath_digits mark)."""
    return mp.mpf(1), mp.mpf(-2) / 3


def sum_kernel(q, k):
    w = w_vector()
    return mp.exp(w[0] * q[0] + w[1] * q[1]) + mp.exp(w[0] * k[0] + w[1] * k[1])


def test_appendix_kernel_ratio_tends_to_one_on_a_cone_of_key_maps():
    # wᵀW_K y_i < 0 for both keys: the ratio k(x, tW_K y1)/k(x, tW_K y2) → 1, not 0 or ∞
    WK = [[mp.mpf(-1), mp.mpf(0)], [mp.mpf(0), mp.mpf(1)]]
    x, y1, y2 = (mp.mpf(1), mp.mpf(1)), (mp.mpf(2), mp.mpf(0)), (mp.mpf(1), mp.mpf(1))
    key = lambda y, s: [s * (WK[r][0] * y[0] + WK[r][1] * y[1]) for r in range(2)]  # noqa: E731
    w = w_vector()
    assert w[0] * key(y1, 1)[0] + w[1] * key(y1, 1)[1] < 0 and w[0] * key(y2, 1)[0] + w[1] * key(y2, 1)[1] < 0
    ratio = sum_kernel(x, key(y1, 1000)) / sum_kernel(x, key(y2, 1000))
    assert abs(ratio - 1) < mp.mpf(10) ** -100
    # a small perturbation of W_K keeps both signs: the set of such W_K has positive measure
    WK[0][1] = mp.mpf(1) / 100
    ratio = sum_kernel(x, key(y1, 1000)) / sum_kernel(x, key(y2, 1000))
    assert abs(ratio - 1) < mp.mpf(10) ** -100


def test_appendix_kernel_still_separates_the_moment_pair():
    # the moment lemma (§20.6): T_m(y) = (wᵀy)^m/m! for every m, so one layer separates two samples
    assert max_difference(sum_kernel, PTE_X, PTE_Y) > mp.mpf(10) ** -10


@pytest.mark.parametrize("text", [
    "param g > 0\nattention {\n score s(x, y) = (1 + (x . y)^2)^g\n affine query key\n}\n",  # g = 1: a polynomial
    "param g > 0\nattention { kernel k(x, y) = (1 + |x - y|^2)^g }\n",
    "param h integer >= 1\nattention {\n score s(x, y) = tanh(x . y)^h\n affine query key\n}\n",  # h = 2: t^0 at both ends
])
def test_a_power_that_depends_on_a_param_is_not_taken_for_a_non_polynomial(text):
    result = uapcheck.check(text)
    assert result.verdict == "INCONCLUSIVE"
    assert all(s.status != proof.PROVED for r in ("TD-RIDGE", "TD-RADIAL") for s in steps(result, r))


@pytest.mark.parametrize("kernel", ["exp(-|x - y|^2) + 1", "1 + 1 / (1 + |x - y|^2)^2", "1 / (1 + |x - y|^2) + 1/2"])
def test_radial_proves_a_bounded_profile_that_is_not_constant(kernel):
    """A profile with a finite limit C at +∞ and g(0) ≠ C is not a polynomial (a polynomial with a finite
    limit is that constant): TD-RADIAL proves it, and the certificate's check agrees (docs/theory.md §20.2)."""
    result = uapcheck.check(head(f"kernel k(x, y) = {kernel}"))
    assert result.verdict == "UAP" and result.layers == 1
    (step,) = steps(result, "TD-RADIAL")
    assert step.status == proof.PROVED and "finite limit" in step.claim
    step.certificate.check()


@pytest.mark.parametrize("kernel,params", [("exp(-g * |x - y|^2) + 1", "param g >= 0\n"),
                                           ("1 + c / (1 + |x - y|^2)", "param c real\n")])
def test_a_bounded_profile_that_a_param_can_make_constant_is_not_proved(kernel, params):
    """At g = 0 (or c = 0) the profile is the constant 2 (or 1): the bounded case needs g(0) ≠ C for every
    admissible value, so the step is not proved."""
    result = uapcheck.check(params + head(f"kernel k(x, y) = {kernel}"))
    assert all(s.status != proof.PROVED for s in steps(result, "TD-RADIAL"))


def test_the_bounded_case_holds_numerically_on_the_moment_pair():
    """exp(−|x − y|²) + 1 separates the equal-power-sum pair that (x·y)² cannot (50 digits)."""
    X = [mp.mpf(v) for v in (5, 0, 4, 7, 11)]
    Y = [mp.mpf(v) for v in (5, 1, 2, 9, 10)]

    def out(tokens, wq, wk):
        ws = [mp.exp(-(wq * tokens[0] - wk * t) ** 2) + 1 for t in tokens]
        return sum(w * t for w, t in zip(ws, tokens)) / sum(ws)
    gaps = [abs(out(X, wq, wk) - out(Y, wq, wk)) for wq, wk in ((0.3, 0.2), (0.1, 0.25), (0.05, 0.07))]
    assert max(gaps) > mp.mpf(10) ** -6
