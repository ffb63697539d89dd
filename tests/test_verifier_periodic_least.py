"""`uapcheck verify` on Theorem F118 (docs/theory.md §11.11): D layers, least, for `blocks(b)` with symmetric non-cyclic
line parts where no view witness exists at any length from the range's start to N₁ − 1. The verifier's restatement
(uapcheck/verifier/periodic_least.py: its own F115 constants, N₁, arcs, distances, rooted views with nauty) accepts the
engine's D layers, least, rejects D + 1 and `least` false, and refuses D where its own check finds a view witness; a
union with witnesses on some classes of n mod P gets its count by class, restated and checked class by class."""
from __future__ import annotations

import pytest
from periodic_restatements import forged as _forged

from certificates import certificate_of

from uapcheck.graphs import periodic_least as engine
from uapcheck.verifier import periodic_least as restated
from uapcheck.verifier import verify
from uapcheck.verifier.trees import decode, encode


def _source(pattern: str) -> str:
    return f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


@pytest.fixture(scope="module")
def overlap() -> dict:
    return certificate_of(_source("blocks(3) + dilated(2, 2)"))


def _layers_step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]


def test_d_layers_least_are_verified_by_the_verifier_s_own_check(overlap):
    report = verify(overlap)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    data = _layers_step(overlap)
    assert data["least"] is True and data["layers"] == data["diameter"]
    step = next(s for s in report.steps if s.rule == "PAT-LAYERS")
    assert "Theorem F118" in step.reason and "from 61 to 177" in step.reason


def test_d_plus_one_or_not_least_is_rejected(overlap):
    import sympy
    n = sympy.Symbol("n", integer=True, positive=True)

    def plus_one(d):
        d["layers"] = encode(decode(d["diameter"], {"n": n}) + 1)
    assert _forged(overlap, "PAT-LAYERS", plus_one)
    assert _forged(overlap, "PAT-LAYERS", lambda d: d.update(least=False))


@pytest.fixture(scope="module")
def six() -> dict:
    """blocks(6) + dilated(2, 2) (F117): a view witness at every n ≡ 1, 2 (mod 12) checked, none elsewhere."""
    return certificate_of(_source("blocks(6) + dilated(2, 2)"))


def test_the_count_by_class_is_verified(six):
    """The engine states D + 1 on n ≡ 1, 2 (mod 12) and D elsewhere, least on every class; the verifier's own check
    class by class accepts it."""
    import sympy
    n = sympy.Symbol("n", integer=True, positive=True)
    report = verify(six)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    data = _layers_step(six)
    assert data["least"] is True and "least classes" not in data
    layers, diameter = decode(data["layers"], {"n": n}), decode(data["diameter"], {"n": n})
    assert [int(layers.subs(n, m) - diameter.subs(n, m)) for m in range(61, 73)] == [1, 1] + [0] * 10
    step = next(s for s in report.steps if s.rule == "PAT-LAYERS")
    assert "class by class of n mod 12" in step.reason and "D + 1 layers least for n mod 12 in [1, 2]" in step.reason


def test_a_forged_count_by_class_is_rejected(six):
    """D on every class (the witness classes too), D + 1 on every class (least or not), `least` false, and a least
    flag by class are all rejected: the verifier's own check finds the witnesses at n ≡ 1, 2 (mod 12) and none
    elsewhere."""
    import sympy
    n = sympy.Symbol("n", integer=True, positive=True)

    def to_d(d):
        d["layers"] = d["diameter"]

    def to_d_plus_one(d):
        d["layers"] = encode(decode(d["diameter"], {"n": n}) + 1)

    def by_class(d):
        d["least"] = False
        d["least classes"] = {"modulus": 12, "residues": [0, 3, 4, 5, 6, 7, 8, 9, 10, 11]}
    assert _forged(six, "PAT-LAYERS", to_d)
    assert _forged(six, "PAT-LAYERS", to_d_plus_one)
    assert _forged(six, "PAT-LAYERS", lambda d: (to_d_plus_one(d), d.update(least=False)))
    assert _forged(six, "PAT-LAYERS", lambda d: d.update(least=False))
    assert _forged(six, "PAT-LAYERS", by_class)
    found = restated.witness_problem(6, (-4, -2, 2, 4), 61, 15)
    assert found is not None and "a view witness at depth 15" in found


def test_at_a_concrete_length_the_class_s_count_is_verified():
    """n = 1,048,573 ≡ 1 (mod 12): 262,144 = D + 1 layers, least, verified; D, or `least` false, rejected."""
    text = "tokens 1048573\n" + _source("blocks(6) + dilated(2, 2)")
    cert = certificate_of(text)
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    data = _layers_step(cert)
    assert (data["layers"], data["diameter"], data["least"]) == (262_144, 262_143, True)
    assert _forged(cert, "PAT-LAYERS", lambda d: d.update(layers=262_143))
    assert _forged(cert, "PAT-LAYERS", lambda d: d.update(least=False))


def test_the_verifier_s_classes_agree_with_the_engine_s():
    from uapcheck.graphs import periodic_exchanges
    data = periodic_exchanges.decide(6, (-4, -2, 2, 4))
    mine = restated.class_problem(6, (-4, -2, 2, 4), data.low, data.line.diameter_low, data.group_low, data.radius,
                                  data.line.diameter_at)
    theirs = engine.line_classes(data.line, data.group_low, data.radius, data.low)
    assert mine == (12, 212, theirs.free, theirs.bound) == (12, 212, (0, 3, 4, 5, 6, 7, 8, 9, 10, 11), (1, 2))


@pytest.mark.parametrize("b, jumps, n, d", [(3, (-4, -2, 2, 4), 61, 16), (3, (-4, -2, 2, 4), 100, 26),
                                            (4, (-6, -4, -2, 2, 4, 6), 90, 16), (6, (-4, -2, 2, 4), 61, 15),
                                            (6, (-4, -2, 2, 4), 62, 15), (6, (-4, -2, 2, 4), 63, 16)])
def test_the_verifier_s_decision_agrees_with_the_engine_s(b, jumps, n, d):
    assert (restated.witness_problem(b, jumps, n, d) is None) == (engine.witness_problem(n, b, jumps, d) is None)


def test_the_premise_range_is_the_verifier_s_own():
    from uapcheck.graphs import periodic_lines
    data = periodic_lines.decide(3, (-4, -2, 2, 4))
    mine = restated.premise_top(3, (-4, -2, 2, 4), data.diameter_low, data.group_low, data.radius)
    theirs = engine.premise_top(data.cut, data.sigma, data.start, data.zone, data.diameter_low, data.group_low,
                                data.radius, data.span, data.b)
    assert mine == theirs == 178
    assert restated.chain_constants(3, (-4, -2, 2, 4)) == (data.span, data.cut, data.sigma, data.start, data.zone)


def test_a_wrong_diameter_at_a_checked_length_is_reported():
    assert "the diameter is 16, not 17" in restated.witness_problem(3, (-4, -2, 2, 4), 61, 17)
