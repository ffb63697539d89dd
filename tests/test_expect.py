"""`expect` lines: named groups compared as groups (they coincide for small n), layer counts
compared as expressions."""
from __future__ import annotations

import pytest

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
