"""A split verdict in `expect` (docs/language.md §7): several `expect … for n …` lines, one per range of a symbolic n,
each compared with the derivation's verdict at those lengths (the verdict stated first from its range's start on,
each length below it as decided there). Checked against the concrete engine at every n ≤ 60; the parser's errors
are located."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import uapcheck
from uapcheck.errors import UapError

CATALOG = Path(__file__).resolve().parent.parent / "catalog"
FOUR_LAYERS = (CATALOG / "alternating_windows_four_layers_any_length.uap").read_text()
BODY = re.sub(r"(?m)^expect.*\n", "", FOUR_LAYERS)
SPLIT = """expect not-uap for n >= 12
expect uap layers 1 for n <= 2
expect uap layers 2 for 3 <= n <= 6
expect uap layers 3 for 7 <= n <= 9
expect uap layers 4 for 10 <= n <= 11
"""
BUDGET = """attention { kernel k(x, y) = exp(x . y); pattern blocks(4) + dilated(1, 2) }
layers 5
"""


def _check(text: str):
    r = uapcheck.check(text, "t.uap")
    return r.expect_holds, r.expect_reason


def test_the_catalog_file_states_its_split_and_it_holds():
    assert "expect not-uap for n >= 12" in FOUR_LAYERS
    assert _check(FOUR_LAYERS) == (True, "")


def test_the_split_lines_hold_in_any_order():
    lines = SPLIT.splitlines(keepends=True)
    assert _check(BODY + "".join(reversed(lines))) == (True, "")


@pytest.mark.parametrize("edit, message", [
    (("layers 3 for 7", "layers 2 for 7"), "`expect uap layers 2 for 7 ≤ n ≤ 9`: at n = 7 expected UAP with 2 "
                                           "attention layers, derived UAP with 3 attention layers"),
    (("layers 1 for n <= 2", "layers 2 for n <= 2"), "at n = 1 expected UAP with 2 attention layers, derived UAP "
                                                     "with 1 attention layer"),
    (("n >= 12\n", "n >= 14\n"), None),  # 12, 13 then belong to no line: the line `for n ≥ 14` holds, and so do all
    (("not-uap for n >= 12", "not-uap for n >= 10"), None),  # overlaps a line below: a parse error (below)
])
def test_a_wrong_line_fails_with_the_length_it_fails_at(edit, message):
    text = BODY + SPLIT.replace(*edit)
    if edit[1].startswith("not-uap for n >= 10"):
        with pytest.raises(UapError, match="overlap"):
            _check(text)
        return
    holds, reason = _check(text)
    if message is None:
        assert holds and reason == ""
    else:
        assert not holds and message in reason


def test_a_start_below_the_derived_one_fails_at_the_first_uap_length():
    text = BODY + SPLIT.replace("n >= 12", "n >= 10").replace("expect uap layers 4 for 10 <= n <= 11\n", "")
    holds, reason = _check(text)
    assert not holds and reason == "`expect not-uap for n ≥ 10`: at n = 10 expected NOT-UAP, derived UAP"


def test_a_range_reaching_past_the_start_fails_at_the_start():
    text = BODY + SPLIT.replace("n >= 12", "n >= 14").replace("10 <= n <= 11", "10 <= n <= 13")
    holds, reason = _check(text)
    assert not holds and reason.endswith("at n = 12 expected UAP, derived NOT-UAP")


def test_an_equivariant_budget_split_is_compared_too():
    assert _check(BUDGET + "expect not-uap for n >= 13\nexpect uap for n <= 12\n") == (True, "")
    holds, reason = _check(BUDGET + "expect not-uap for n >= 12\nexpect uap for n <= 11\n")
    assert not holds and reason == "`expect not-uap for n ≥ 12`: at n = 12 expected NOT-UAP, derived UAP"


def test_a_verdict_for_every_length_is_compared_length_by_length():
    decoder = "attention { kernel k(x, y) = exp(x . y); pattern causal }\ntarget causal\n"
    assert _check(decoder + "expect uap layers 2 for n >= 3\nexpect uap layers 1 for n <= 2\n") == (True, "")
    holds, reason = _check(decoder + "expect uap layers 2 for n >= 3\nexpect uap layers 2 for n <= 2\n")
    assert not holds and "at n = 1 expected UAP with 2 attention layers" in reason


def test_one_line_with_a_range_is_a_split_of_one():
    assert _check(BODY + "expect not-uap for n >= 12\n") == (True, "")
    holds, reason = _check(BODY + "expect not-uap for n >= 11\n")
    assert not holds and "at n = 11 expected NOT-UAP, derived UAP" in reason


def _line_at(n: int) -> tuple:
    """The verdict and count the catalog's split states at n."""
    for line in SPLIT.splitlines():
        verdict, layers, low, high = _parse_line(line)
        if low <= n and (high is None or n <= high):
            return verdict, layers
    raise AssertionError(n)


def _parse_line(line: str) -> tuple:
    m = re.fullmatch(r"expect (\S+)(?: layers (\d+))? for (.*)", line)
    assert m is not None
    verdict, layers, span = m.group(1), m.group(2), m.group(3)
    if span.startswith("n >= "):
        low, high = int(span[5:]), None
    elif span.startswith("n <= "):
        low, high = 1, int(span[5:])
    else:
        a, b = re.fullmatch(r"(\d+) <= n <= (\d+)", span).groups()
        low, high = int(a), int(b)
    return verdict, None if layers is None else int(layers), low, high


@pytest.mark.parametrize("n", range(1, 61))
def test_the_catalog_split_is_the_concrete_derivation_at_every_length(n):
    r = uapcheck.check(BODY.replace("tokens n", f"tokens {n}"), "t.uap")
    verdict, layers = _line_at(n)
    assert r.verdict == verdict.upper()
    if verdict == "uap":
        assert r.layers == layers


@pytest.mark.parametrize("line, col, message", [
    ("expect uap layers 2 for 3 <= m <= 6", 30, "names the symbolic `tokens` name `n`"),
    ("expect uap layers 3 for 9 <= n <= 7", 35, "an empty range: 7 < 9"),
    ("expect uap layers 3 for n = 0", 29, "a length in `for n ...` is an integer from 1"),
    ("expect not-uap for n >= 12 for", 28, "unexpected 'for'"),
])
def test_bad_ranges_are_located(line, col, message):
    with pytest.raises(UapError, match=re.escape(message)) as err:
        uapcheck.check(BODY + line + "\n", "t.uap")
    assert (err.value.line, err.value.column) == (BODY.count("\n") + 1, col)


def test_several_lines_each_name_their_lengths():
    with pytest.raises(UapError, match="several `expect` lines each name their lengths"):
        uapcheck.check(BODY + "expect not-uap for n >= 12\nexpect uap\n", "t.uap")


def test_a_range_needs_a_symbolic_length():
    with pytest.raises(UapError, match="integer `tokens`"):
        uapcheck.check(BODY.replace("tokens n", "tokens 20") + "expect not-uap for n >= 12\n", "t.uap")


def test_classes_and_a_range_on_one_line_are_refused():
    with pytest.raises(UapError, match="does not go with classes"):
        uapcheck.check(BUDGET + "expect not-uap, uap if n mod 2 = 1 for n >= 13\n", "t.uap")


def test_the_cli_prints_the_error_with_its_location(tmp_path):
    path = tmp_path / "bad.uap"
    path.write_text(BODY + "expect uap layers 3 for 9 <= n <= 7\n")
    out = subprocess.run([sys.executable, "-m", "uapcheck", str(path)], capture_output=True, text=True)
    assert out.returncode == 2
    line = BODY.count("\n") + 1
    assert f"{path}:{line}:35: error: an empty range: 7 < 9" in out.stderr + out.stdout


def test_the_cli_exits_1_when_a_line_fails(tmp_path):
    path = tmp_path / "fails.uap"
    path.write_text(BODY + SPLIT.replace("layers 3 for 7", "layers 2 for 7"))
    out = subprocess.run([sys.executable, "-m", "uapcheck", "--no-suggest", str(path)], capture_output=True, text=True)
    assert out.returncode == 1 and "FAILS" in out.stdout
