"""Kernel-side certificate fields that an OK used to leave unchecked: an ILL-POSED verdict resting on a trusted sign
change, the random-feature sign change itself (a positive amplitude times a 2π-periodic factor of w·x), the
regions a LIM-REGION step states beside its chosen one, the pair of a TD-WITNESS proof certificate, the limits of a
sign at infinity, Lemma K's component signs, POS-OFFSET's offset function h, a `reweight` factor's classes and
positivity, and a custom activation's non-affinity witness and Lipschitz bound. Each field is made false in a
certificate the verifier accepts, and the verifier must then reject the step that states it."""
from __future__ import annotations

import copy
from fractions import Fraction

import numpy as np
import pytest

from certificates import certificate, certificate_of, step_outcome, with_text
from uapcheck.verifier import verify


def test_the_random_feature_sign_change_is_verified():
    report = verify(certificate("performer_trig.uap"))
    assert report.ok and step_outcome(report, "WP-POSITIVE") == "verified"


def test_a_positive_periodic_factor_is_rejected():
    cert = with_text(certificate("performer_trig.uap"), "cos(w . x)", "(2 + cos(w . x))")
    report = verify(cert)
    assert not report.ok and step_outcome(report, "WP-POSITIVE") == "rejected"


def test_an_ill_posed_verdict_on_a_trusted_step_is_not_ok():
    cert = with_text(certificate("performer_trig.uap"), "exp(|x|^2 / 2) * cos(w . x)", "exp(w . x - |x|^2 / 2)")
    report = verify(cert)
    assert step_outcome(report, "WP-POSITIVE") in ("trusted", "rejected")
    assert not report.ok


def test_a_failing_region_restated_as_holding_is_rejected():
    cert = copy.deepcopy(certificate("sigmoid.uap"))
    step = next(s for s in cert["steps"] if s["rule"] == "LIM-REGION")
    other = next(r for r in step["data"]["regions"] if r["region"] != step["data"]["chosen region"])
    assert other["status"] == "fails"
    other["status"] = "holds"
    report = verify(cert)
    assert not report.ok and step_outcome(report, "LIM-REGION") == "rejected"


def test_a_witness_certificate_with_another_pair_is_rejected():
    cert = copy.deepcopy(certificate("polynomial.uap"))
    step = next(s for s in cert["steps"] if s["rule"] == "TD-WITNESS")
    step["certificate"]["right"][-1] += 1
    assert step_outcome(verify(cert), "TD-WITNESS") == "rejected"
    assert step_outcome(verify(certificate("polynomial.uap")), "TD-WITNESS") == "checked numerically"


def test_positivity_of_an_exponential_of_a_non_real_argument_is_not_verified():
    """exp(√(x·y)) is not positive (exp(2i) at x·y = −4): a WP-POSITIVE `proved` kept on that formula is not verified
    by structure (the verifier's positivity needs a real argument of exp, sigmoid, softplus and cosh)."""
    cert = with_text(certificate("softmax.uap"), "kernel k(x, y) = exp(x . y)", "kernel k(x, y) = exp(sqrt(x . y))")
    assert step_outcome(verify(cert), "WP-POSITIVE") != "verified"
    cert = with_text(certificate("softmax.uap"), "kernel k(x, y) = exp(x . y)", "kernel k(x, y) = 2 ^ sqrt(x . y)")
    assert step_outcome(verify(cert), "WP-POSITIVE") != "verified"
    cert = with_text(certificate("softmax.uap"), "kernel k(x, y) = exp(x . y)",
                      "kernel k(x, y) = exp(sqrt(|x|^2) + log(1 + |y|^2))")
    assert step_outcome(verify(cert), "WP-POSITIVE") == "verified"


def _ridge_certificate(tmp_path) -> dict:
    from certificates import certificate_from_cli
    return certificate_from_cli("attention {\n  score s(x, y) = cos(x . y)\n  affine query key\n}\n", tmp_path)


def _with_period(cert: dict, evidence: str, stated: str) -> dict:
    out = copy.deepcopy(cert)
    step = next(s for s in out["steps"] if s["rule"] == "TD-RIDGE")
    step["evidence"]["period"], step["certificate"]["period"] = evidence, stated
    return out


def test_a_ridge_period_is_re_derived_and_a_tampered_one_rejected(tmp_path):
    """TD-RIDGE's periodic route states a period p of α(u) = cos u; the verifier checks α(u + p) = α(u) exactly for
    the stated p: 2π and 4π hold, π (cos(u + π) = −cos u) and a period the evidence and certificate disagree on do
    not."""
    cert = _ridge_certificate(tmp_path)
    assert step_outcome(verify(cert), "TD-RIDGE") == "checked numerically"
    assert step_outcome(verify(_with_period(cert, "4*pi", "4*pi")), "TD-RIDGE") == "checked numerically"
    for evidence, stated in (("pi", "pi"), ("pi/2", "pi/2"), ("2*pi", "pi"), ("2*pi + 1", "2*pi + 1")):
        report = verify(_with_period(cert, evidence, stated))
        assert step_outcome(report, "TD-RIDGE") == "rejected" and not report.ok, (evidence, stated)


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def _rejected_at(cert: dict, rule: str) -> str:
    """The reason the verifier rejects the certificate at the step of this rule (the test fails otherwise)."""
    report = verify(cert)
    assert not report.ok
    (outcome,) = [s for s in report.steps if s.rule == rule]
    assert outcome.outcome == "rejected", outcome
    return outcome.reason


# ---------------------------------------------------------------------------------------------
# A sign at infinity: exp(x . y) - c, c > 0, has the limits +∞ and −c along x = 1, y = s → ±∞

SIGN_AT_INFINITY = "param c > 0\nattention { kernel k(x, y) = exp(x . y) - c }\n"


def test_the_limits_at_infinity_are_stated_and_verified():
    cert = certificate_of(SIGN_AT_INFINITY)
    data = _step(cert, "WP-POSITIVE")["data"]["sign at infinity"]
    assert data["limit at +oo"] == {"infinity": 1}
    assert data["limit at -oo"] == {"op": "*", "args": [-1, {"sym": "c"}]}
    report = verify(cert)
    assert report.ok and step_outcome(report, "WP-POSITIVE") == "verified"


@pytest.mark.parametrize("key, value", [
    ("limit at -oo", {"sym": "c"}),  # the sign flipped: −c < 0 stated as c > 0
    ("limit at -oo", {"op": "*", "args": [-2, {"sym": "c"}]}),
    ("limit at -oo", {"infinity": -1}),
    ("limit at +oo", {"infinity": -1}),
    ("limit at +oo", 7),
])
def test_a_false_limit_at_infinity_is_rejected(key, value):
    cert = copy.deepcopy(certificate_of(SIGN_AT_INFINITY))
    _step(cert, "WP-POSITIVE")["data"]["sign at infinity"][key] = value
    assert "the step states" in _rejected_at(cert, "WP-POSITIVE")


def test_another_ray_is_rejected():
    cert = copy.deepcopy(certificate_of(SIGN_AT_INFINITY))
    _step(cert, "WP-POSITIVE")["data"]["sign at infinity"]["x"] = [2]
    assert "ray" in _rejected_at(cert, "WP-POSITIVE")


# ---------------------------------------------------------------------------------------------
# Lemma K: every component has the sign of its argument (+) or of its negative (−)

SIGN_PATTERN = "attention { features phi(x) = [x, 1 - exp(x)] }\n"


def test_the_component_signs_are_stated_and_verified():
    cert = certificate_of(SIGN_PATTERN)
    assert _step(cert, "WP-POSITIVE")["data"]["sign pattern"] == {"signs": ["+", "−"], "index": "coordinate"}
    report = verify(cert)
    assert report.ok and step_outcome(report, "WP-POSITIVE") == "verified"
    # a second way: x and 1 − e^x at ±1/2 have the signs stated
    assert np.sign([0.5, 1 - np.exp(0.5)]).tolist() == [1.0, -1.0]
    assert np.sign([-0.5, 1 - np.exp(-0.5)]).tolist() == [-1.0, 1.0]


@pytest.mark.parametrize("change, words", [
    (lambda d: d["signs"].__setitem__(1, "+"), "component 2"),
    (lambda d: d["signs"].__setitem__(0, "−"), "component 1"),
    (lambda d: d["signs"].pop(), "components"),
    (lambda d: d["signs"].append("+"), "components"),
    (lambda d: d.__setitem__("index", "random"), "arguments"),
])
def test_a_false_component_sign_is_rejected(change, words):
    cert = copy.deepcopy(certificate_of(SIGN_PATTERN))
    change(_step(cert, "WP-POSITIVE")["data"]["sign pattern"])
    assert words in _rejected_at(cert, "WP-POSITIVE")


def test_a_random_feature_sign_pattern_states_its_index():
    cert = certificate_of("attention { features phi(x) = sinh(w . x) random w }\n")
    assert _step(cert, "WP-POSITIVE")["data"]["sign pattern"] == {"signs": ["+"], "index": "random"}
    assert verify(cert).ok
    bad = copy.deepcopy(cert)
    _step(bad, "WP-POSITIVE")["data"]["sign pattern"]["index"] = "coordinate"
    _rejected_at(bad, "WP-POSITIVE")


# ---------------------------------------------------------------------------------------------
# POS-OFFSET's offset function h(δ)


def test_the_offset_function_is_stated_and_verified():
    cert = certificate("alibi.uap")  # bias −m·(i − j): h(δ) = m·δ
    assert _step(cert, "POS-OFFSET")["data"]["h"] == {"op": "*", "args": [{"sym": "δ"}, {"sym": "m"}]}
    assert step_outcome(verify(cert), "POS-OFFSET") == "verified"


@pytest.mark.parametrize("h", [
    {"op": "*", "args": [2, {"sym": "m"}, {"sym": "δ"}]},
    {"op": "*", "args": [-1, {"sym": "m"}, {"sym": "δ"}]},
    {"sym": "δ"},
    {"fn": "exp", "args": [{"sym": "δ"}]},
])
def test_a_false_offset_function_is_rejected(h):
    cert = copy.deepcopy(certificate("alibi.uap"))
    _step(cert, "POS-OFFSET")["data"]["h"] = h
    assert "offset function" in _rejected_at(cert, "POS-OFFSET")


# ---------------------------------------------------------------------------------------------
# `reweight c(i, j)`: h(δ) = c(i, i + δ)/c(i, i), its classes and c > 0 on every offset

REWEIGHT = "tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  reweight c(i, j) = 10 + j - i\n}}\n"


def _least_weight(n: int) -> Fraction:
    """A second way: min over the offsets δ = −(n − 1)..n − 1 of (10 + δ)/10, in exact fractions."""
    return min(Fraction(10 + d, 10) for d in range(-(n - 1), n))


def test_a_positive_reweight_is_verified():
    assert _least_weight(8) == Fraction(3, 10)
    cert = certificate_of(REWEIGHT.format(n=8))
    off = _step(cert, "POS-OFFSET")
    assert off["data"]["positive"] is True and off["data"]["class"] == "injective"
    report = verify(cert)
    assert cert["verdict"] == "UAP" and report.ok
    assert step_outcome(report, "POS-OFFSET") == "verified" and step_outcome(report, "TD-FIXEDBIAS") == "verified"


def test_a_reweight_stated_positive_where_it_vanishes_is_rejected():
    # n = 11: c(11, 1) = 0 and no factor is negative (at n = 12 row 12 has factors −1 and 10: ILL-POSED by Lemma Q)
    assert _least_weight(11) == 0
    cert = copy.deepcopy(certificate_of(REWEIGHT.format(n=11)))
    off = _step(cert, "POS-OFFSET")
    assert off["data"]["positive"] is not True
    assert verify(cert).ok
    off["data"]["positive"] = True
    assert "c > 0" in _rejected_at(cert, "POS-OFFSET")


@pytest.mark.parametrize("change", [
    lambda d: d.__setitem__("h", {"op": "+", "args": [1, {"sym": "δ"}]}),
    lambda d: d.__setitem__("class", "symmetric"),
])
def test_a_false_reweight_offset_function_or_class_is_rejected(change):
    cert = copy.deepcopy(certificate_of(REWEIGHT.format(n=8)))
    change(_step(cert, "POS-OFFSET")["data"])
    _rejected_at(cert, "POS-OFFSET")


def test_a_fixed_bias_step_on_a_reweight_not_stated_positive_is_rejected():
    cert = copy.deepcopy(certificate_of(REWEIGHT.format(n=8)))
    _step(cert, "POS-OFFSET")["data"]["positive"] = None
    assert "c > 0" in _rejected_at(cert, "TD-FIXEDBIAS")


def test_the_cosformer_reweight_is_re_checked():
    """cos(π(i − j)/2048) at n = 1024: even, injective on |δ| and positive (its least value, at |δ| = 1023, is
    cos(1023π/2048) > 0); the verifier re-checks both at 60 digits."""
    assert np.cos(np.pi * 1023 / 2048) > 1e-3
    cert = certificate("cosformer.uap")
    off = _step(cert, "POS-OFFSET")
    assert off["data"]["h"] == {"fn": "cos", "args": [{"op": "*", "args": [{"q": [1, 2048]}, {"const": "pi"},
                                                                            {"sym": "δ"}]}]}
    assert step_outcome(verify(cert), "POS-OFFSET") == "checked numerically"
    bad = copy.deepcopy(cert)
    _step(bad, "POS-OFFSET")["data"]["h"]["fn"] = "sin"
    _rejected_at(bad, "POS-OFFSET")


# ---------------------------------------------------------------------------------------------
# FFN-DEF2 with a custom activation: the second difference exactly, the Lipschitz bound by structure

def _ffn(body: str) -> dict:
    return certificate_of(f"attention {{ kernel k(x, y) = exp(x . y) }}\nffn sigma(u) = {body}\n")


LIPSCHITZ_BY_STRUCTURE = ["u / (1 + abs(u))", "tanh(u) + u", "relu(u) - relu(u - 1)", "1 / (1 + relu(u))",
                          "sin(u) * cos(u)", "max(u, 0) / 3"]
SIGMA = {"u / (1 + abs(u))": lambda u: u / (1 + abs(u)), "tanh(u) + u": lambda u: np.tanh(u) + u,
         "relu(u) - relu(u - 1)": lambda u: np.maximum(u, 0) - np.maximum(u - 1, 0),
         "1 / (1 + relu(u))": lambda u: 1 / (1 + np.maximum(u, 0)), "sin(u) * cos(u)": lambda u: np.sin(u) * np.cos(u),
         "max(u, 0) / 3": lambda u: np.maximum(u, 0) / 3}


@pytest.mark.parametrize("body", LIPSCHITZ_BY_STRUCTURE)
def test_a_custom_activation_is_re_checked(body):
    cert = _ffn(body)
    report = verify(cert)
    assert cert["verdict"] == "UAP" and report.ok
    assert step_outcome(report, "FFN-DEF2") in ("verified", "checked numerically")
    # a second way: difference quotients at random pairs, near and far, stay below 2 (each bound above is ≤ 2)
    rng = np.random.default_rng(0)
    u = rng.normal(scale=50, size=20000)
    v = u + rng.normal(scale=0.5, size=20000)
    q = np.abs(SIGMA[body](u) - SIGMA[body](v)) / np.abs(u - v)
    assert q.max() < 2


@pytest.mark.parametrize("change, words", [
    (lambda d: d.__setitem__("second difference", {"q": [1, 3]}), "second difference"),
    (lambda d: d.__setitem__("points", [0, 2, 4]), "second difference"),
    (lambda d: d.__setitem__("points", [0, 1, 3]), "equally spaced"),
])
def test_a_false_non_affinity_witness_of_a_custom_activation_is_rejected(change, words):
    cert = copy.deepcopy(_ffn("u / (1 + abs(u))"))  # second difference at 0, 1, 2: 0 − 1 + 2/3 = −1/3
    change(_step(cert, "FFN-DEF2")["data"])
    assert words in _rejected_at(cert, "FFN-DEF2")


def test_an_affine_custom_activation_is_verified_and_a_non_affine_one_refuted_is_rejected():
    cert = _ffn("2*u + 1")
    assert _step(cert, "FFN-DEF2")["status"] == "refuted" and step_outcome(verify(cert), "FFN-DEF2") == "verified"
    bad = copy.deepcopy(_ffn("u / (1 + abs(u))"))
    _step(bad, "FFN-DEF2")["status"] = "refuted"
    assert "affine" in _rejected_at(bad, "FFN-DEF2")


@pytest.mark.parametrize("body", ["u * tanh(u)", "exp(-u^2)"])
def test_a_lipschitz_bound_outside_the_structural_rules_is_trusted_not_ok(body):
    """Lipschitz (|σ'| ≤ 2 and ≤ √(2/e)), but not by the structural rules: the step is trusted, named, and the UAP
    verdict is not OK; its non-affinity is still re-checked."""
    cert = _ffn(body)
    report = verify(cert)
    (step,) = [s for s in report.steps if s.rule == "FFN-DEF2"]
    assert step.outcome == "trusted" and "Lipschitz" in step.reason and not report.ok
    bad = copy.deepcopy(cert)
    _step(bad, "FFN-DEF2")["data"]["second difference"] = 5
    _rejected_at(bad, "FFN-DEF2")


# ---------------------------------------------------------------------------------------------
# Statuses a kernel-side rule never concludes


@pytest.mark.parametrize("name, rule, status", [
    ("softmax.uap", "AN-STRUCT", "refuted"),  # "not analytic": the rule never shows it
    ("sigmoid.uap", "LIM-REGION", "refuted"),  # LIM-REGION proves (LIM) on a region or stays undecided
    ("softmax.uap", "WP-POSITIVE", "refuted"),  # a sign change of exp(x . y) with no witness at all
])
def test_a_status_the_rule_never_concludes_is_rejected(name, rule, status):
    cert = copy.deepcopy(certificate(name))
    assert verify(cert).ok
    _step(cert, rule)["status"] = status
    _rejected_at(cert, rule)


_SIGN_CHANGE = "attention { kernel k(x, y) = 2 - cos(sqrt(x . y)) }\nffn relu\n"


def _sign_change_step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "WP-POSITIVE")


def test_a_sign_change_certificate_block_is_verified():
    cert = certificate_of(_SIGN_CHANGE)
    assert _sign_change_step(cert)["certificate"]["kind"] == "sign-change"
    report = verify(cert)
    assert report.ok and step_outcome(report, "WP-POSITIVE") == "verified"


@pytest.mark.parametrize("key, name, value", [
    ("negative at", "x·z", -1),  # 2 - cos(sqrt(-1)) = 2 - cosh(1) > 0: no sign change there
    ("negative at", "|z|²", 1),  # |x|² |z|² < (x·z)²: no such point
    ("positive at", "x·z", -4),
    ("negative at", "y·y", 4),
])
def test_a_sign_change_block_stating_another_point_is_rejected(key, name, value):
    cert = certificate_of(_SIGN_CHANGE)
    _sign_change_step(cert)["certificate"][key][name] = value
    report = verify(cert)
    assert not report.ok and step_outcome(report, "WP-POSITIVE") == "rejected"
