"""A `layers M` budget against the causal-target count at a symbolic n (TGT-BUDGET, docs/theory.md §14).

The budget was compared only with a count that is one integer for every n: a count that grows with n (⌈(n − 1)/w⌉ for
`causal & window(w)`, n − 1 for `offsets {-1, 0}`) was not compared at all, and the verdict was UAP with that count
although the network has M layers (`offsets {-1, 0}` with `layers 1`: "UAP for causal targets with n − 1 attention
layers"; at tokens 5 it is NOT-UAP); and a constant count that holds from a length on (2 layers for `causal` from
n = 3) gave NOT-UAP at every n, though one layer gives it at n ≤ 2. Finite widths now split by length (Theorem F159:
NOT-UAP from N* on, the lengths below listed); the full causal mask stays INCONCLUSIVE. Each symbolic verdict is
compared with the derivation at every n = 2..10."""
from __future__ import annotations

import pytest

import uapcheck


def _src(pattern: str, budget: int, tokens: str = "n") -> str:
    return (f"tokens {tokens}\nattention {{\n  kernel k(q, key) = exp(q . key)\n  pattern {pattern}\n}}\n"
            f"layers {budget}\ntarget causal\n")


CASES = [("offsets {-1, 0}", 1), ("offsets {-1, 0}", 2), ("causal & window(2)", 2), ("causal & window(1) + sinks(1)", 2),
         ("causal", 1), ("causal", 2), ("causal", 3), ("offsets {-2, -1, 0}", 3)]


@pytest.mark.parametrize("pattern,budget", CASES)
def test_the_symbolic_verdict_holds_at_every_length(pattern, budget):
    r = uapcheck.check(_src(pattern, budget))
    at = {n: uapcheck.check(_src(pattern, budget, str(n))) for n in range(2, 11)}
    if r.verdict == "UAP":
        for n, c in at.items():
            assert c.verdict == "UAP", (n, c.verdict)
            assert c.layers <= budget
    if r.verdict == "NOT-UAP":
        # NOT-UAP from a length on; the lengths below it (Theorem F159's split, §21.10) are listed with their counts
        below = {e["n"]: e for e in (r.to_dict()["target"] or {}).get("below_range") or []}
        for n, c in at.items():
            if n in below:
                assert (c.verdict, c.layers) == (below[n]["verdict"], below[n]["layers"]), (n, c.verdict, c.layers)
            else:
                assert c.verdict == "NOT-UAP", (n, c.verdict)


@pytest.mark.parametrize("pattern,budget", [("offsets {-1, 0}", 1), ("causal & window(2)", 2)])
def test_a_budget_below_a_growing_count_of_finite_widths_splits_by_length(pattern, budget):
    """Finite widths: Theorem F159 splits the lengths, NOT-UAP from N* on and UAP below with the listed counts."""
    r = uapcheck.check(_src(pattern, budget))
    assert r.verdict == "NOT-UAP"
    below = r.to_dict()["target"]["below_range"]
    assert below and all(e["verdict"] == "UAP" and e["layers"] <= budget for e in below)


def test_a_budget_below_the_count_on_some_lengths_is_not_concluded():
    """The full causal mask (a layer of infinite width, outside F159): one layer suffices at n ≤ 2 only."""
    r = uapcheck.check(_src("causal", 1))
    assert r.verdict == "INCONCLUSIVE"
    assert any(s.rule == "TGT-BUDGET" and not s.proved for s in r.root.walk())


def test_a_budget_at_or_above_a_constant_count_keeps_the_uap():
    r = uapcheck.check(_src("causal", 2))
    assert r.verdict == "UAP" and r.layers == 2
    r = uapcheck.check(_src("causal", 3))
    assert r.verdict == "UAP" and r.layers == 2
