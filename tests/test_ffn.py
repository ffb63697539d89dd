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
