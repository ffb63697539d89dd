"""NOT-UAP for causal targets at a symbolic n when the family's group is stated by residue class of n (the range
lemma (c), docs/theory.md §14.9): each class's order formula never decreases and is above 1 from a length on, so G is
not trivial at any n from the largest of those lengths. Checked against the derivation at each integer n of the range
(every residue class), against a group computed here from arcs of our own (networkx), and by the verifier, which
re-checks the cases and rejects forged ranges."""
from __future__ import annotations

import copy
import itertools
import sys
from pathlib import Path

import networkx as nx
import pytest
import sympy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import uapcheck  # noqa: E402
from certificates import certificate_of  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402
from uapcheck.verifier.check import REJECTED, TRUSTED, VERIFIED  # noqa: E402


def source(pattern: str, tokens="n") -> str:
    return (f"tokens {tokens}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"
            "target causal\n")


def arcs(pattern: tuple, n: int) -> set:
    """Our own arcs (j, i), i attends to j, 1-based, for ("blocks+global", b, g) and ("blocks+window", b, w)."""
    kind, b, x = pattern
    out = set()
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            if i == j:
                continue
            same_block = (i - 1) // b == (j - 1) // b
            if kind == "blocks+global" and (same_block or i <= x or j <= x):
                out.add((j, i))
            if kind == "blocks+window" and (same_block or abs(i - j) <= x):
                out.add((j, i))
    return out


def not_trivial(pattern: tuple, n: int) -> bool:
    """Whether the digraph has an automorphism other than the identity (networkx's matcher, not the engine's code)."""
    graph = nx.DiGraph()
    graph.add_nodes_from(range(1, n + 1))
    graph.add_edges_from(arcs(pattern, n))
    matcher = nx.algorithms.isomorphism.DiGraphMatcher(graph, graph)
    return any(any(k != v for k, v in m.items()) for m in itertools.islice(matcher.isomorphisms_iter(), 2))


CASES = [("blocks(2) + global(1)", ("blocks+global", 2, 1), 5),
         ("blocks(3) + global(1)", ("blocks+global", 3, 1), 7),
         ("blocks(4) + global(1)", ("blocks+global", 4, 1), 9),
         ("blocks(4) + global(2)", ("blocks+global", 4, 2), 9),
         ("blocks(4) + window(1)", ("blocks+window", 4, 1), 16)]


@pytest.mark.parametrize("pattern, ours, start", CASES, ids=[c[0] for c in CASES])
def test_range_by_residue_class_agrees_with_each_integer_length(pattern, ours, start):
    result = uapcheck.check(source(pattern), "t.uap")
    assert result.verdict == "NOT-UAP"
    assert result.target.range == f"n ≥ {start}"
    for n in range(start, start + 9):  # every residue class mod b at least twice
        at = uapcheck.check(source(pattern, tokens=n), "t.uap")
        assert at.verdict == "NOT-UAP", (pattern, n)
        assert not_trivial(ours, n), (pattern, n)
    for rec in result.target.below:  # the lengths below: each as the derivation at that n, and as our group says
        if rec.n == 1 or not rec.allowed:
            continue
        assert rec.verdict == ("NOT-UAP" if not_trivial(ours, rec.n) else "UAP"), (pattern, rec.n)


def test_a_family_with_trivial_classes_stays_inconclusive():
    """blocks(4) + dilated(3, 2): G is trivial for n ≡ 1, 3 (mod 4) (UAP for causal targets at n = 61), so no range of
    n carries a NOT-UAP: the symbolic verdict stays INCONCLUSIVE, naming why."""
    result = uapcheck.check(source("blocks(4) + dilated(3, 2)"), "t.uap")
    assert result.verdict == "INCONCLUSIVE"
    (open_step,) = [s for s in result.target.steps if s.rule == "TGT-UNDECIDED"]
    assert "trivial for n mod 4 ∈ {1, 3}" in open_step.claim
    assert "not trivial for n mod 4 ∈ {0, 2} from n = 61 on" in open_step.claim
    for n in range(61, 69):  # what the step names, class by class, is what each integer n derives
        at = uapcheck.check(source("blocks(4) + dilated(3, 2)", tokens=n), "t.uap")
        assert at.verdict == ("NOT-UAP" if n % 2 == 0 else "UAP"), n


def step(cert: dict, rule: str) -> dict:
    (found,) = [s for s in cert["steps"] if s["rule"] == rule]
    return found


def outcome(cert: dict, rule: str) -> str:
    (line,) = [s for s in verify(cert).steps if s.rule == rule]
    return line.outcome


@pytest.fixture(scope="module")
def blocks_global_certificate():
    return certificate_of(source("blocks(4) + global(1)"))


def test_the_verifier_checks_the_cases(blocks_global_certificate):
    report = verify(copy.deepcopy(blocks_global_certificate))
    assert report.ok
    assert outcome(blocks_global_certificate, "TGT-NOT-CAUSAL") == VERIFIED


def test_a_range_below_a_case_first_length_is_rejected(blocks_global_certificate):
    cert = copy.deepcopy(blocks_global_certificate)
    step(cert, "TGT-NOT-CAUSAL")["data"]["from"] = 8  # below the group's first length, n = 9
    assert outcome(cert, "TGT-NOT-CAUSAL") == REJECTED


def test_a_missing_residue_is_rejected(blocks_global_certificate):
    cert = copy.deepcopy(blocks_global_certificate)
    cases = step(cert, "SYM-AUT")["data"]["order cases"]
    cases.pop()  # n ≡ 0 (mod 4) left out: G is not shown non-trivial there
    assert outcome(cert, "TGT-NOT-CAUSAL") == REJECTED
    assert not verify(cert).ok


def test_a_case_of_order_one_is_not_certified(blocks_global_certificate):
    """A case formula that never exceeds 1 (a forged order 1 on n ≡ 1 (mod 4)): the range cannot be certified."""
    cert = copy.deepcopy(blocks_global_certificate)
    case = next(c for c in step(cert, "SYM-AUT")["data"]["order cases"] if c["residue"] == 1)
    case["order"] = 1
    assert outcome(cert, "TGT-NOT-CAUSAL") in (TRUSTED, REJECTED)
    assert not verify(cert).ok


def test_the_monotone_order_lemma_on_its_own():
    from uapcheck.rules.targets import _growing_order_from
    from uapcheck.verifier.rules_targets import growing_order_first
    n = sympy.Symbol("n", integer=True, positive=True)
    c = sympy.ceiling(n / 4)
    by_class = sympy.Piecewise((6 * 24 ** (c - 2) * sympy.factorial(c - 2), sympy.Eq(sympy.Mod(n, 4), 1)),
                               (12 * 24 ** (c - 2) * sympy.factorial(c - 2), sympy.Eq(sympy.Mod(n, 4), 2)),
                               (72 * 24 ** (c - 2) * sympy.factorial(c - 2), sympy.Eq(sympy.Mod(n, 4), 3)),
                               (6 * 24 ** (c - 1) * sympy.factorial(c - 1), sympy.Eq(sympy.Mod(n, 4), 0)))
    assert _growing_order_from(by_class, 9) == 9
    missing = sympy.Piecewise(*by_class.args[:3])  # a residue not covered: nothing is stated on n ≡ 0 (mod 4)
    assert _growing_order_from(missing, 9) is None
    cases = [(2 ** (sympy.floor(n / 3) - 2), 1, 9), (sympy.factorial(sympy.ceiling(n / 2) - 1), 1, 5),
             (2 ** (2 - sympy.floor(n / 3)), 1, None),  # decreasing exponent
             (sympy.factorial(sympy.floor(-n / 2) + 9), 1, None), (sympy.Integer(1), 1, None)]
    for order, low, first in cases:
        assert _growing_order_from(order, low) == first, order
        assert growing_order_first(order, low) == first, order
        if first is not None:  # a second way: evaluated, never below 2 from there on
            assert all(order.subs(n, v) >= 2 for v in range(first, first + 40))
            assert order.subs(n, first - 1) < 2 or first == max(2, low)
