"""A group stated by several cases of one closed form, one per residue class of n, that all give the same group (two
partition heads `blocks(2) + global(1)` | `strided(2)`: Theorem F72's classes n even from 4 and n odd from 3 have
one formula, (⌊n/2⌋ − 1)!): the verdict states it on every class, for the range where every class's case holds
(n ≥ 4), and the lengths below are decided one by one. It used to be stated for n even only, the odd lengths left
out without a word, and the verdict's evidence blamed parameters the file does not have."""
from __future__ import annotations

import itertools
import json
import math
import sys
from pathlib import Path

import pytest
import sympy

import uapcheck
from uapcheck.render.jsonout import dumps, result_json

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of  # noqa: E402

HEADS = ("blocks(2) + global(1)", "strided(2)")


def source(tokens) -> str:
    return f"tokens {tokens}\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n"
                                          for p in HEADS)


def report(tokens) -> dict:
    return json.loads(dumps(result_json(uapcheck.check(source(tokens), "t.uap"))))


def test_the_group_is_stated_on_both_parities():
    out = report("n")
    assert out["verdict"] == "UAP" and out["layers"] == "2" and out["least"] is True
    assert out["group"]["condition"] == "n ≥ 4"
    assert out["group"]["order"] == "(⌊n/2⌋ − 1)!"
    assert "by_class" not in out
    below = {b["n"]: (b["verdict"], b["group"]["order"], b["layers"]) for b in out["below_range"]}
    assert below == {1: ("UAP", 1, 1), 2: ("UAP", 2, 1), 3: ("UAP", 1, 2)}


def test_no_parameter_is_blamed_and_no_case_is_left_as_a_note():
    out = report("n")
    verdict = next(s for s in out["steps"] if s["rule"] == "VERDICT-T1")
    assert "parameters" not in json.dumps(verdict["evidence"])
    group = next(s for s in out["steps"] if s["rule"] == "SYM-AUT")
    assert not group["notes"] and group["evidence"]["range"] == "for n ≥ 4"


def _arcs(n: int) -> list[set]:
    """Each head's arcs (j, i): blocks(2) + global(1) and strided(2), from docs/language.md's definitions."""
    first = {(j, i) for i in range(1, n + 1) for j in range(1, n + 1)
             if -(-i // 2) == -(-j // 2) or i == 1 or j == 1}
    second = {(j, i) for i in range(1, n + 1) for j in range(1, n + 1) if (j - i) % 2 == 0}
    return [first, second]


def _brute_order(n: int) -> int:
    heads = _arcs(n)
    count = 0
    for perm in itertools.permutations(range(1, n + 1)):
        p = (0,) + perm
        if all({(p[j], p[i]) for j, i in arcs} == arcs for arcs in heads):
            count += 1
    return count


@pytest.mark.parametrize("n", range(3, 9))
def test_the_formula_is_the_brute_force_group_on_both_parities(n):
    assert _brute_order(n) == math.factorial(n // 2 - 1)


@pytest.mark.parametrize("n", [4, 5, 9, 10, 17, 24, 31, 40])
def test_the_formula_is_the_concrete_engines_group(n):
    out = report(n)
    assert out["verdict"] == "UAP" and out["layers"] == 2
    assert out["group"]["order"] == math.factorial(n // 2 - 1)


def test_the_certificate_is_verified():
    from uapcheck.verifier import verify
    rep = verify(certificate_of(source("n")))
    assert rep.ok and not [s for s in rep.steps if s.outcome != "verified"], [(s.rule, s.outcome) for s in rep.steps]


def test_why_lengths_below_a_range_are_not_listed():
    from uapcheck.rules.small_lengths import not_enumerated
    n = sympy.Symbol("n", integer=True, positive=True)
    w = sympy.Symbol("w", integer=True, positive=True)
    even = sympy.And(n >= 4, sympy.Eq(sympy.Mod(n, 2), 0))
    assert not_enumerated([even], n).startswith("no stated range covers n mod 2 = 1 at any length")
    three = sympy.And(n >= 4, sympy.Eq(sympy.Mod(n, 3), 0))
    assert "n mod 3 ∈ {1, 2}" in not_enumerated([three], n)
    assert not_enumerated([n >= 2 * w + 3], n) == "the range depends on the parameters"
