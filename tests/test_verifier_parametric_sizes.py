"""`uapcheck verify` on families whose sizes are declared params (docs/theory.md §11.11, Theorems F47–F49 and
F2/F3/F10 with named sizes): the verifier's own restatement (uapcheck/verifier/parametric.py) re-checks the
stated range, diameter, layer count and order at a grid of parameter values and lengths, the literal
instances on its own arcs, and rejects a tampered range, order, group or layer claim, and a declared least
value below the theorem's."""
from __future__ import annotations

import copy

import pytest

from certificates import certificate_of

from uapcheck.verifier import REJECTED, VERIFIED, verify
from uapcheck.verifier.trees import decode, encode


def _source(params: str, pattern: str) -> str:
    decl = "".join(f"param {p}\n" for p in params.split(";") if p)
    return f"{decl}attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


CASES = [("b integer >= 2", "blocks(b) + global(1)", "F47"),
         ("b integer >= 2;g integer >= 1", "blocks(b) + global(g)", "F47"),
         ("g integer >= 1", "blocks(4) + global(g)", "F47"),
         ("s integer >= 3", "strided(s) + global(1)", "F48"),
         ("g integer >= 2", "strided(2) + global(g)", "F48"),
         ("s integer >= 2", "offsets {1, s} cyclic", "F49"),
         ("s integer >= 3", "offsets {-1, -s} cyclic", "F49"),
         ("w integer >= 1", "window(w) + global(1)", "F2"),
         ("w integer >= 1;g integer >= 1", "window(w) cyclic + global(g)", "F10")]


@pytest.fixture(scope="module")
def certs():
    return {pattern: certificate_of(_source(params, pattern)) for params, pattern, _ in CASES}


@pytest.mark.parametrize("params, pattern, theorem", CASES)
def test_every_pattern_step_is_verified_by_the_restatement(certs, params, pattern, theorem):
    report = verify(certs[pattern])
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    for s in report.steps:
        if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
            assert s.outcome == VERIFIED and f"Theorem {theorem}" in s.reason and "restated" in s.reason


def _step(cert, rule):
    return next(s for s in cert["steps"] if s["rule"] == rule)


def _rejected(cert, rule) -> bool:
    report = verify(cert)
    return not report.ok and any(s.rule == rule and s.outcome == REJECTED for s in report.steps)


@pytest.mark.parametrize("rule", ["PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"])
def test_a_range_starting_lower_is_rejected(certs, rule):
    cert = copy.deepcopy(certs["blocks(b) + global(1)"])
    _step(cert, rule)["data"]["from"] = {"op": "+", "args": [{"sym": "b"}, 1]}  # n ≥ b + 1 instead of 2b + 1
    assert _rejected(cert, rule)


def test_a_range_in_the_wrong_parameter_is_rejected(certs):
    cert = copy.deepcopy(certs["offsets {1, s} cyclic"])
    _step(cert, "PAT-LAYERS")["data"]["from"] = {"op": "+", "args": [{"op": "*", "args": [3, {"sym": "s"}]}, 1]}
    assert _rejected(cert, "PAT-LAYERS")


def test_a_wrong_order_case_is_rejected(certs):
    cert = copy.deepcopy(certs["blocks(b) + global(g)"])
    cases = _step(cert, "SYM-AUT")["data"]["order by cases"]
    cases[-1]["order"] = {"op": "*", "args": [2, cases[-1]["order"]]}
    assert _rejected(cert, "SYM-AUT")


def test_a_swapped_divisibility_condition_is_rejected(certs):
    cert = copy.deepcopy(certs["blocks(b) + global(g)"])
    cases = _step(cert, "SYM-AUT")["data"]["order by cases"]
    cases[0]["divides"], cases[2]["divides"] = cases[2]["divides"], cases[0]["divides"]
    assert _rejected(cert, "SYM-AUT")


def test_a_wrong_group_name_is_rejected(certs):
    cert = copy.deepcopy(certs["offsets {1, s} cyclic"])
    _step(cert, "SYM-AUT")["data"]["name"] = "D_n"
    assert _rejected(cert, "SYM-AUT")


def test_a_wrong_order_formula_is_rejected(certs):
    cert = copy.deepcopy(certs["strided(s) + global(1)"])
    data = _step(cert, "SYM-AUT")["data"]
    data["order"] = {"op": "*", "args": [{"sym": "s"}, data["order"]]}
    assert _rejected(cert, "SYM-AUT")


def test_fewer_layers_or_a_false_least_claim_is_rejected(certs):
    cert = copy.deepcopy(certs["strided(s) + global(1)"])
    _step(cert, "PAT-LAYERS")["data"]["layers"] = encode(2)
    assert _rejected(cert, "PAT-LAYERS")
    cert = copy.deepcopy(certs["offsets {1, s} cyclic"])
    data = _step(cert, "PAT-LAYERS")["data"]
    symbols = {k: __import__("sympy").Symbol(k, integer=True, positive=True) for k in ("n", "s")}
    data["layers"] = encode(decode(data["layers"], symbols) - 1)
    assert _rejected(cert, "PAT-LAYERS")
    cert = copy.deepcopy(certs["window(w) + global(1)"])
    _step(cert, "PAT-LAYERS")["data"]["least"] = False
    assert _rejected(cert, "PAT-LAYERS")


def test_a_declared_least_value_below_the_theorem_s_is_rejected(certs):
    cert = copy.deepcopy(certs["strided(s) + global(1)"])
    import hashlib
    text = cert["input"]["text"].replace("param s integer >= 3", "param s integer >= 2")
    cert["input"]["text"], cert["input"]["sha256"] = text, hashlib.sha256(text.encode()).hexdigest()
    report = verify(cert)
    assert not report.ok
    assert any(s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT") and s.outcome == REJECTED and "s ≥ 3" in s.reason
               for s in report.steps)


BOUND_CASES = [("s integer >= 3", "window(1) + strided(s)", "F50"),
               ("s integer >= 4", "window(2) + strided(s)", "F50"),
               ("s integer >= 3", "offsets {-s, -1, 1, s} cyclic", "F51")]


@pytest.mark.parametrize("params, pattern, theorem", BOUND_CASES)
def test_bounded_diameters_are_verified(params, pattern, theorem):
    report = verify(certificate_of(_source(params, pattern)))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert any(s.rule == "PAT-LAYERS" and f"Theorem {theorem}" in s.reason for s in report.steps)


def test_a_bound_below_the_theorem_s_is_rejected():
    cert = certificate_of(_source("s integer >= 3", "offsets {-s, -1, 1, s} cyclic"))
    data = _step(cert, "PAT-CONNECTED")["data"]
    data["diameter bound"] = {"op": "floor", "args": [{"op": "*", "args": [{"sym": "n"}, {"op": "^", "args": [
        {"op": "*", "args": [2, {"sym": "s"}]}, -1]}]}]}  # ⌊n/(2s)⌋, dropping the ⌈s/2⌉
    assert _rejected(cert, "PAT-CONNECTED")


def test_the_named_stride_count_one_above_the_bound_is_rejected():
    # F50 states the bound M + 1 as the layers (F53 (a), F54 (a)); M + 2, the view argument on the bound, is not it
    cert = certificate_of(_source("s integer >= 3", "window(1) + strided(s)"))
    data = _step(cert, "PAT-LAYERS")["data"]
    data["layers"] = {"op": "+", "args": [1, data["layers"]]}
    assert _rejected(cert, "PAT-LAYERS")


def test_a_bound_stated_as_the_diameter_is_rejected():
    cert = certificate_of(_source("s integer >= 3", "window(1) + strided(s)"))
    data = _step(cert, "PAT-CONNECTED")["data"]
    data["diameter"] = data.pop("diameter bound")
    assert _rejected(cert, "PAT-CONNECTED")


def test_one_name_in_two_sizes_needs_the_larger_least_value():
    import hashlib
    cert = certificate_of(_source("b integer >= 2", "blocks(b) + global(b)"))
    assert verify(cert).ok
    text = cert["input"]["text"].replace("param b integer >= 2", "param b integer >= 1")
    cert["input"]["text"], cert["input"]["sha256"] = text, hashlib.sha256(text.encode()).hexdigest()
    report = verify(cert)
    assert not report.ok and any(s.outcome == REJECTED and "b ≥ 2" in s.reason for s in report.steps)


@pytest.mark.parametrize("params, pattern", [("w integer >= 4", "window(w) + dilated(1, 5)"),
                                             ("w integer >= 5", "window(w) + dilated(2, 3)")])
def test_a_window_absorbing_a_dilation_is_verified(params, pattern):
    cert = certificate_of(_source(params, pattern))
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert any(s.rule == "PAT-LAYERS" and "Theorem F52" in s.reason for s in report.steps)
    forged = copy.deepcopy(cert)
    _step(forged, "PAT-LAYERS")["data"]["from"] = {"op": "+", "args": [{"sym": "w"}, 2]}
    assert _rejected(forged, "PAT-LAYERS")


def test_a_param_size_at_an_integer_length_is_trusted_not_rejected():
    # `tokens 64` with `window(w) cyclic`: the count ⌈32/w⌉ + 1 names the param; the layer step's data held it as
    # printed text, which the verifier's summary check could not read ("not an expression tree") and rejected a sound
    # certificate. The step data is an expression tree now; the pattern steps are trusted (a param size), and a count
    # changed in the summary alone is still rejected
    text = "tokens 64\nparam w integer >= 1\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(w) cyclic\n}\n"
    cert = certificate_of(text)
    report = verify(cert)
    assert not report.rejected and not report.problems
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert isinstance(step["data"]["layers"], dict)
    forged = copy.deepcopy(cert)
    w = {"w": __import__("sympy").Symbol("w", integer=True, positive=True)}
    forged["layers"] = encode(decode(cert["layers"], w) - 1)
    forged_report = verify(forged)
    assert forged_report.rejected or forged_report.problems
