"""`blocks(b)` with non-cyclic offsets of one sign (one head or several) at a symbolic n: not strongly connected for
n ≥ b + 1 (docs/theory.md §11.11's closed connectivity, §18.4's invariants). A block arc keeps the block ⌈p/b⌉; with
every offset positive (i attends to i + k) information only moves to earlier positions across blocks, so x_1 never
reaches b + 1; with every offset negative x_(b + 1) never reaches 1. Checked against breadth-first search on arcs
written from the definitions, and through the verifier (a moved witness is rejected)."""
from __future__ import annotations

import copy

import pytest

from certificates import certificate_of  # tests/ is on sys.path

import uapcheck
from uapcheck.verifier import REJECTED, VERIFIED, verify

# (heads, b, offsets): each head a pattern text; the union is blocks(b) with these offsets
CASES = [
    (["blocks(7)", "offsets {2} + offsets {3, 7}"], 7, (2, 3, 7)),
    (["blocks(3) + offsets {-1, -5}"], 3, (-1, -5)),
    (["blocks(4) + offsets {1, 2}"], 4, (1, 2)),
    (["blocks(2)", "offsets {-3}", "offsets {-1}"], 2, (-3, -1)),
]


def _source(heads, tokens="n") -> str:
    return f"tokens {tokens}\n" + "".join(
        f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {h}\n}}\n" for h in heads)


def _reaches(b: int, offsets: tuple, n: int, source: int) -> set[int]:
    """The positions x_source reaches: i attends to j when they share a block of b or j − i is an offset."""
    seen, todo = {source}, [source]
    while todo:
        j = todo.pop()
        for i in range(1, n + 1):
            if i not in seen and ((i - 1) // b == (j - 1) // b or j - i in offsets):
                seen.add(i)
                todo.append(i)
    return seen


@pytest.mark.parametrize("heads,b,offsets", CASES)
def test_not_uap_from_b_plus_one_and_the_pair_never_joined(heads, b, offsets):
    result = uapcheck.check(_source(heads), "t.uap")
    assert result.verdict == "NOT-UAP"
    assert result.to_dict()["range"] == f"n ≥ {b + 1}"
    positive = offsets[0] > 0
    target, source = (b + 1, 1) if positive else (1, b + 1)
    for n in range(b + 1, 31):
        assert target not in _reaches(b, offsets, n, source), (heads, n)
        assert uapcheck.check(_source(heads, n), "t.uap").verdict == "NOT-UAP", (heads, n)


@pytest.mark.parametrize("heads,b,offsets", CASES[:2])
def test_the_verifier_checks_the_pair_by_its_own_invariant(heads, b, offsets):
    cert = certificate_of(_source(heads))
    step = next(s for s in verify(cert).steps if s.rule == "PAT-DISCONNECTED")
    assert step.outcome == VERIFIED, step.reason
    assert "block" in step.reason
    forged = copy.deepcopy(cert)
    idx = next(k for k, s in enumerate(forged["steps"]) if s["rule"] == "PAT-DISCONNECTED")
    i, j = forged["steps"][idx]["data"]["i"], forged["steps"][idx]["data"]["j"]
    swapped = {"i": j, "j": i}  # the other direction is joined: x_(b + 1) reaches 1 when offsets are positive
    forged["steps"][idx]["data"].update(swapped)
    forged["steps"][idx]["evidence"]["witness"].update(swapped)
    step = next(s for s in verify(forged).steps if s.rule == "PAT-DISCONNECTED")
    assert step.outcome == REJECTED, step.reason


def test_offsets_of_both_signs_stay_connected():
    result = uapcheck.check(_source(["blocks(4) + offsets {1, -1}"]), "t.uap")
    assert result.verdict == "UAP"
