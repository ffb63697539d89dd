"""`expect` of the verdict kind and of the layer count by residue class of n (docs/language.md §7):
`expect uap layers 3, not-uap if n mod 2 = 1` and `expect uap layers 3 if n mod 2 = 0, else 4`, compared class by
class with the derivation, and each against the concrete engine at every n of the range up to 40; the parser's
errors are located."""
from __future__ import annotations

import pytest

import uapcheck
from uapcheck.errors import UapError

BLOCKS = """tokens {n}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern blocks(2) + strided(3)
}}
{budget}
"""
JUMPS = """tokens n
attention {
  kernel k(x, y) = exp(x . y)
  pattern offsets {0, 2} cyclic
}
"""
HEADS = """tokens n
attention a {
  kernel k(x, y) = exp(x . y)
  pattern window(2)
}
attention b {
  kernel k(x, y) = exp(x . y)
  pattern blocks(4)
}
"""


def _holds(text: str, line: str):
    r = uapcheck.check(text + line + "\n", "t.uap")
    return r.expect_holds, r.expect_reason


@pytest.mark.parametrize("line, holds", [
    ("expect uap layers 3, not-uap if n mod 2 = 1", True),
    ("expect uap, not-uap if n mod 2 = 1", True),
    ("expect uap, not-uap if n mod 4 in {1, 3}", True),  # a multiple of the derived modulus
    ("expect uap layers 3, not-uap if n mod 2 = 0", False),  # the classes swapped
    ("expect uap layers 3, inconclusive if n mod 2 = 1", False),  # the odd classes are NOT-UAP, proved
    ("expect uap layers 4, not-uap if n mod 2 = 1", False),
    ("expect uap layers 3", True),  # the verdict stated first, for its range
])
def test_expect_verdicts_by_class_with_a_budget(line, holds):
    got, why = _holds(BLOCKS.format(n="n", budget="layers 3"), line)
    assert got is holds, why
    if not holds:
        assert why.startswith("for n mod ") or why.startswith("expected ")


def test_a_failed_verdict_names_every_class_derived():
    """`expect not-uap` on a file that is UAP on some classes and NOT-UAP on the others says both, as the headline does,
    not the verdict stated first alone."""
    got, why = _holds(BLOCKS.format(n="n", budget="layers 3"), "expect not-uap")
    assert got is False
    assert why == "expected NOT-UAP, derived UAP for n ≥ 9 and n even; NOT-UAP for n ≥ 9 and n odd", why


@pytest.mark.parametrize("line, holds", [
    ("expect uap layers 3 if n mod 2 = 0, else 4", True),
    ("expect uap layers 4 if n mod 2 = 1, else 3", True),
    ("expect uap layers 3 if n mod 4 in {0, 2}, else 4", True),
    ("expect uap layers 3 if n mod 2 = 1, else 4", False),
    ("expect uap layers 4", False),
])
def test_expect_layers_by_class(line, holds):
    got, why = _holds(BLOCKS.format(n="n", budget=""), line)
    assert got is holds, why


@pytest.mark.parametrize("n", range(9, 41))
def test_the_classes_expected_are_the_concrete_engine_s(n):
    """The expectations that hold at symbolic n state what the concrete engine derives at each n in range."""
    budgeted = uapcheck.check(BLOCKS.format(n=n, budget="layers 3"), "t.uap")
    plain = uapcheck.check(BLOCKS.format(n=n, budget=""), "t.uap")
    assert budgeted.verdict == ("NOT-UAP" if n % 2 else "UAP")
    assert plain.verdict == "UAP" and plain.layers == (4 if n % 2 else 3)


def test_expect_the_other_classes_of_a_disconnected_pattern():
    assert _holds(JUMPS, "expect uap group C_n layers n - 1, not-uap if n mod 2 = 0") == (True, "")
    got, why = _holds(JUMPS, "expect uap group C_n layers n - 1, not-uap if n mod 3 = 0")
    assert got is False and why.startswith("for n mod 6 = ")


def test_expect_a_symbolic_count_by_class():
    # window(2) | blocks(4): D layers, least (Theorem F75), D by class of n mod 4
    line = ("expect uap group reflection if n mod 4 = 0, else trivial layers 2 * floor(n / 4) - 1 if n mod 4 = 0, "
            "2 * floor(n / 4) + 1 if n mod 4 = 3, else 2 * floor(n / 4)")
    assert _holds(HEADS, line) == (True, "")
    assert _holds(HEADS, line.replace("+ 1 if", "+ 2 if"))[0] is False
    assert _holds(HEADS, "expect uap layers n / 2 - 1 if n mod 4 in {0, 2}, else (n - 1) / 2")[0] is True  # with n
    assert _holds(HEADS, "expect uap layers n / 2 - 1 if n mod 4 in {0, 2}, else (n + 1) / 2")[0] is False


def test_the_expectation_is_printed_back():
    r = uapcheck.check(BLOCKS.format(n="n", budget="layers 3") + "expect uap layers 3, not-uap if n mod 2 = 1\n",
                       "t.uap")
    assert r.spec.expect.text == "uap layers 3, not-uap if n mod 2 = 1"
    r = uapcheck.check(BLOCKS.format(n="n", budget="") + "expect uap layers 3 if n mod 2 = 0 else 4\n", "t.uap")
    assert r.spec.expect.text == "uap layers 3 if n mod 2 = 0, else 4"


@pytest.mark.parametrize("line, where, message", [
    ("expect uap, not-uap if m mod 2 = 1", "m", "symbolic `tokens` name"),
    ("expect uap, not-uap if n mod 2 = 2", "2\n", "one of 0, …, 1"),
    ("expect uap, not-uap if n mod 1 = 0", "1 =", "from 2"),
    ("expect uap, not-uap if n mod 2 in {0, 1}", ", not-uap", "leave one to the first verdict"),
    ("expect uap, not-uap if n mod 2 = 1, inconclusive if n mod 4 = 0", ", inconclusive", "one modulus"),
    ("expect uap, not-uap if n mod 4 = 1, inconclusive if n mod 4 = 1", ", inconclusive", "two classes"),
    ("expect uap layers 3 if m mod 2 = 0, else 4", "m mod", "symbolic `tokens` name"),
    ("expect uap layers 3 if n mod 2 = 0, 4 if n mod 2 = 1, else 5", "layers", "leave one to `else`"),
    ("expect uap layers 3 if n mod 2 = 0, 4 if n mod 3 = 1, else 5", "layers", "one modulus"),
    ("expect not-uap layers 3 if n mod 2 = 0, else 4", "expect", "go with `expect uap`"),
])
def test_errors_are_located(line, where, message):
    text = BLOCKS.format(n="n", budget="") + line + "\n"
    with pytest.raises(UapError) as err:
        uapcheck.check(text, "t.uap")
    assert message in err.value.message, err.value.message
    lines = text.splitlines()
    assert lines[err.value.line - 1][err.value.column - 1:].startswith(where.rstrip("\n")), (err.value.line,
                                                                                            err.value.column)


def test_a_class_needs_a_symbolic_length():
    with pytest.raises(UapError, match="integer `tokens`"):
        uapcheck.check(BLOCKS.format(n=16, budget="") + "expect uap, not-uap if n mod 2 = 1\n", "t.uap")


def test_the_cli_prints_the_error_with_its_location(tmp_path):
    import subprocess
    import sys
    path = tmp_path / "bad.uap"
    path.write_text(BLOCKS.format(n="n", budget="") + "expect uap, not-uap if n mod 2 = 5\n")
    out = subprocess.run([sys.executable, "-m", "uapcheck", str(path)], capture_output=True, text=True)
    assert out.returncode == 2
    assert f"{path}:7:34: error: a residue mod 2 is one of 0, …, 1" in out.stderr + out.stdout
