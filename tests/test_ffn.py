"""FFN-DEF2: Definition 2 (Lipschitz and not affine) for activations written as formulas."""
from __future__ import annotations

import pytest

import uapcheck

SOFTMAX = "kernel k(x, y) = exp(x . y)"


def check(text: str):
    return uapcheck.check(text, "ffn.uap")


@pytest.mark.parametrize("act, status", [
    ("u + 1", "refuted"), ("abs(u)", "proved"), ("u^2", "undecided"), ("max(u, u)", "refuted"),
    ("relu(u) - relu(-u)", "refuted"), ("cos(u)^2 + sin(u)^2", "refuted"), ("u * sin(u)", "undecided"),
])
def test_ffn_definition2(act, status):
    r = check(f"attention {{ {SOFTMAX} }}\nffn sigma(u) = {act}")
    assert [s.status for s in r.root.walk() if s.rule == "FFN-DEF2"] == [status]


@pytest.mark.parametrize("act, points", [
    ("relu(u - 1000)", [999, 1000, 1001]), ("abs(u - 1000)", [999, 1000, 1001]),
    ("max(u, 1000)", [999, 1000, 1001]), ("relu(u + 7) + u", [-8, -7, -6]),
])
def test_a_kink_far_from_the_fixed_triples_is_found_at_its_breakpoint(act, points):
    """The second difference at (β − 1, β, β + 1) around the breakpoint β of the pieces: 1 ≠ 0 (or 2 for
    abs), so σ is not affine, and the piecewise-linear σ is 1-Lipschitz: Definition 2 holds."""
    r = check(f"attention {{ {SOFTMAX} }}\nffn sigma(u) = {act}")
    (step,) = [s for s in r.root.walk() if s.rule == "FFN-DEF2"]
    assert step.status == "proved"
    assert step.evidence["non-affine"]["points"] == points
    assert r.verdict == "UAP"


def test_an_affine_activation_is_written_in_one_variable():
    r = check(f"attention {{ {SOFTMAX} }}\nffn sigma(u) = relu(u) - relu(-u)")
    (step,) = [s for s in r.root.walk() if s.rule == "FFN-DEF2"]
    text = str(step.claim)
    assert "σ(ξ) = " in text and "σ(z)" not in text, text
