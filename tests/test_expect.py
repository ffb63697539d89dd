"""`expect` lines: named groups compared as groups (they coincide for small n), layer counts
compared as expressions."""
from __future__ import annotations

import pytest
import sympy

import uapcheck

SOFTMAX = "kernel k(x, y) = exp(x . y)"


def check(text: str):
    return uapcheck.check(text, "expect.uap")


def test_expect_d3_equals_s3():
    r = check(f"tokens 3\nattention {{ {SOFTMAX} }}\nexpect uap group D_n layers 1")
    assert r.expect_holds


def test_expect_reflection_on_two_tokens():
    r = check(f"tokens 2\nattention {{ {SOFTMAX} }}\nexpect uap group reflection layers 1")
    assert r.expect_holds


def test_expect_layers_compared_as_expressions():
    text = ("param w integer >= 1\nattention { kernel k(x, y) = exp(x . y); pattern window(w) }\n"
            "expect uap group reflection layers floor((n - 2) / w) + 1")
    assert check(text).expect_holds


# -- at n = 1: S_1 is the trivial group --------------------------------------------------------------

def test_expect_trivial_group_at_one_token():
    r = check("tokens 1\nattention { kernel k(x, y) = exp(x . y) }\nexpect uap group trivial")
    assert r.verdict == "UAP"
    assert r.expect_holds is True


def test_expect_symmetric_group_at_one_token_with_encoding():
    r = check("tokens 1\npositional absolute\nattention { kernel k(x, y) = exp(x . y) }\n"
              "expect uap group S_n")
    assert r.expect_holds is True


# -- expect ... group with an integer n --------------------------------------------------------------

@pytest.mark.parametrize("text, holds", [
    ("tokens 3\nattention { kernel k(x, y) = exp(x . y) }\nexpect uap group D_n", True),
    ("tokens 2\nattention { kernel k(x, y) = exp(x . y) }\nexpect uap group reflection", True),
    ("tokens 3\nattention { kernel k(x, y) = exp(x . y); pattern window(1) }\nexpect uap group stabilizer 2", True),
    ("tokens 3\nattention { kernel k(x, y) = exp(x . y); pattern window(1) }\nexpect uap group C_n", False),
    ("tokens 3\nattention { kernel k(x, y) = exp(x . y); pattern star }\nexpect uap group reflection", False),
    ("tokens 3\nattention { kernel k(x, y) = exp(x . y); bias circulant }\nexpect uap group D_n", False),
])
def test_expect_group_compares_groups(text, holds):
    assert check(text).expect_holds is holds


# -- a layer count equal on a grid is not a proof ------------------------------------------------------------------

@pytest.mark.parametrize("body, expected, holds", [
    # the derived ⌈(n − 1)/l⌉ against one that differs from n = 30 on: refuted on the class n ≡ 0 (mod 30)
    ("param l integer >= 1\nconvolution circular(l)\n", "ceil((n - 1) / l) + floor(n / 30)", False),
    ("param l integer >= 1\nconvolution circular(l)\n", "floor((n - 2) / l) + 1", True),  # ⌈p/q⌉ = ⌊(p − 1)/q⌋ + 1
    ("attention { kernel k(x, y) = exp(x . y); pattern window(1) }\n", "n - 1 + floor(n / 30)", False),
    ("attention { kernel k(x, y) = exp(x . y); pattern window(1) }\n", "n - 1 + floor(n / 30) - floor(n / 30)", True),
    # equal on every class of n mod 2, by the exact reduction: ⌊n/2⌋ + ⌈n/2⌉ = n
    ("attention { kernel k(x, y) = exp(x . y); pattern window(1) }\n", "floor(n / 2) + ceil(n / 2) - 1", True),
])
def test_expect_layers_are_proved_equal_or_refuted(body, expected, holds):
    r = check(body + f"expect uap layers {expected}")
    assert r.expect_holds is holds, r.expect_reason


def test_expect_layers_equal_on_the_grid_only_are_not_decided():
    """Two names and counts that agree on {2, …, 29}² but are not shown equal: the expectation does not hold, and
    the reason says why."""
    from uapcheck.expect import _same_layers
    n, w = sympy.Symbol("n", integer=True, positive=True), sympy.Symbol("w", integer=True, positive=True)
    assert _same_layers(sympy.ceiling((n - 1) / w), sympy.ceiling((n - 1) / w) + sympy.floor(n / (30 * w)), n) \
        is None


def test_an_expected_single_layer_is_worded_in_the_singular():
    r = check("attention { kernel k(x, y) = exp(x . y); bias symmetric circulant }\nexpect uap layers 1")
    assert r.expect_holds is False and r.expect_reason == "expected 1 attention layer, derived 2"
