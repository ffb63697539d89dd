"""NOT-UAP for causal targets at a symbolic n, stated with its range (docs/theory.md §14.10): a group that is not
trivial at any n ≥ N where it is stated excludes causal targets there (§14.9), while G is trivial at n = 1, where
every map of one token is causal. The lengths below the range are decided one by one; each is checked here against
the derivation at that integer n and against a brute-force group, and the verifier re-checks the range."""
from __future__ import annotations

import copy
import itertools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import uapcheck  # noqa: E402
from certificates import certificate_of  # noqa: E402

from uapcheck.errors import UapError  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402
from uapcheck.verifier.check import REJECTED, TRUSTED, VERIFIED  # noqa: E402


def source(pattern: str | None, tokens="n") -> str:
    body = "  kernel k(x, y) = exp(x . y)\n" + (f"  pattern {pattern}\n" if pattern else "")
    return f"tokens {tokens}\nattention {{\n{body}}}\ntarget causal\n"


def window_group_order(w: int, n: int) -> int:
    """|Aut| of the non-cyclic window(w) digraph at n, by trying every permutation (a second way)."""
    arcs = {(j, i) for i in range(n) for j in range(n) if i != j and abs(i - j) <= w}
    return sum(1 for p in itertools.permutations(range(n)) if all((p[j], p[i]) in arcs for j, i in arcs))


def step(cert: dict, rule: str) -> dict:
    (found,) = [s for s in cert["steps"] if s["rule"] == rule]
    return found


def outcome(cert: dict, rule: str) -> str:
    (line,) = [s for s in verify(cert).steps if s.rule == rule]
    return line.outcome


@pytest.mark.parametrize("pattern, start", [(None, 2), ("window(1)", 3), ("window(2)", 5), ("window(2) cyclic", 7),
                                            ("offsets {1} cyclic", 4), ("window(3) + global(2)", 11)])
def test_the_range_and_each_length_below_agree_with_the_integer_derivations(pattern, start):
    result = uapcheck.check(source(pattern), "t.uap")
    assert result.verdict == "NOT-UAP"
    target = result.target
    assert target.range == f"n ≥ {start}"
    assert [r.n for r in target.below] == list(range(1, start))
    for rec in target.below:  # the derivation at that n says the same (where the file allows n: global(2) at n = 1)
        try:
            at = uapcheck.check(source(pattern, tokens=rec.n), "t.uap")
        except UapError:
            continue
        assert at.verdict == rec.verdict
        if rec.verdict == "UAP":
            assert at.layers == rec.layers
    first = target.below[0]  # n = 1: every map is causal (global(2) does not allow n = 1)
    assert (first.verdict, first.layers) == ("UAP", 1) if first.allowed else (first.verdict, first.layers) == (None, None)
    for n in range(start, start + 4):  # and the range: NOT-UAP at each integer n in it
        assert uapcheck.check(source(pattern, tokens=n), "t.uap").verdict == "NOT-UAP"


def test_the_window_groups_are_not_trivial_at_every_length_of_the_range():
    """The reflection moves 1 to n at every n ≥ 2: brute force over S_n agrees (window(1), window(2), n ≤ 7)."""
    for w in (1, 2):
        for n in range(2, 8):
            assert window_group_order(w, n) > 1
        assert window_group_order(w, 1) == 1


def test_the_words_name_the_range_and_the_lengths_below():
    result = uapcheck.check(source("window(2)"), "t.uap")
    assert result.target.phrase() == ("NOT-UAP for causal targets (for n ≥ 5; n = 1: UAP with 1 layer; "
                                      "n = 2…4: NOT-UAP)")
    text = uapcheck.render_text(result) if hasattr(uapcheck, "render_text") else str(result.root.claim)
    assert "for n ≥ 5" in str(result.root.claim) and text


def test_a_group_by_residue_class_stays_inconclusive():
    result = uapcheck.check(source("blocks(4) + dilated(3, 2)"), "t.uap")
    assert result.verdict == "INCONCLUSIVE"
    assert not [s for s in result.root.walk() if s.rule == "TGT-NOT-CAUSAL"]


@pytest.mark.parametrize("pattern", [None, "window(2)", "window(3) + global(2)"])
def test_the_certificate_verifies_and_certifies_the_range(pattern):
    cert = certificate_of(source(pattern))
    report = verify(cert)
    assert report.ok and all(s.outcome == VERIFIED for s in report.steps), \
        [(s.rule, s.outcome, s.reason) for s in report.steps if s.outcome != VERIFIED]
    assert report.statement.where.startswith("n ≥ ") and report.statement.target == "causal"


def test_a_range_lowered_to_one_is_rejected():
    cert = copy.deepcopy(certificate_of(source(None)))
    step(cert, "TGT-NOT-CAUSAL")["data"]["from"] = 1
    assert outcome(cert, "TGT-NOT-CAUSAL") == REJECTED


def test_a_range_below_the_groups_start_is_rejected():
    """window(2)'s reflection is its group from n = 5 on (at n = 4 the verifier's lemma does not state it)."""
    cert = copy.deepcopy(certificate_of(source("window(2)")))
    step(cert, "TGT-NOT-CAUSAL")["data"]["from"] = 4
    assert outcome(cert, "TGT-NOT-CAUSAL") == REJECTED
    cert = copy.deepcopy(certificate_of(source("window(3) + global(2)")))
    step(cert, "TGT-NOT-CAUSAL")["data"]["from"] = 10
    assert outcome(cert, "TGT-NOT-CAUSAL") == REJECTED


def test_a_verdict_range_other_than_the_routes_is_rejected():
    cert = copy.deepcopy(certificate_of(source("window(2)")))
    step(cert, "TGT-VERDICT")["data"]["range"] = "n ≥ 2"
    assert outcome(cert, "TGT-VERDICT") == REJECTED
    cert = copy.deepcopy(certificate_of(source("window(2)")))
    step(cert, "TGT-VERDICT")["data"]["range"] = None
    assert outcome(cert, "TGT-VERDICT") == REJECTED


def test_forged_lengths_below_the_range_are_caught():
    cert = copy.deepcopy(certificate_of(source("window(2)")))
    below = step(cert, "TGT-VERDICT")["data"]["below_range"]
    below[2] = dict(below[2], verdict="UAP", layers=2, least=True)  # n = 3: G = S_3, not trivial
    assert outcome(cert, "TGT-VERDICT") == REJECTED
    cert = copy.deepcopy(certificate_of(source("window(2)")))
    del step(cert, "TGT-VERDICT")["data"]["below_range"][1]  # n = 2 left out
    assert outcome(cert, "TGT-VERDICT") == REJECTED
    cert = copy.deepcopy(certificate_of(source(None)))
    step(cert, "TGT-VERDICT")["data"]["below_range"][0]["verdict"] = "NOT-UAP"  # n = 1: G trivial
    assert outcome(cert, "TGT-VERDICT") in (REJECTED, TRUSTED)
    assert not verify(cert).ok or outcome(cert, "TGT-VERDICT") != VERIFIED


def test_longformer_states_its_range_with_params():
    text = Path("catalog/longformer.uap").read_text()
    text = "\n".join(line for line in text.splitlines() if not line.startswith("expect")) + "\ntarget causal\n"
    result = uapcheck.check(text, "t.uap")
    assert result.verdict == "NOT-UAP" and result.target.range == "n ≥ 2·w + 1" and result.target.below is None
    assert result.target.phrase().endswith("(for n ≥ 2·w + 1; the lengths below it are not covered)")
    cert = certificate_of(text)
    report = verify(cert)
    assert report.ok and all(s.outcome == VERIFIED for s in report.steps)
    assert report.statement.where == "n ≥ 2·w + 1"
    for w in (1, 2):  # at integer sizes the derivation agrees from 2·w + 1 on
        for n in range(2 * w + 1, 2 * w + 5):
            at = uapcheck.check(text.replace("target causal", f"tokens {n}\ntarget causal")
                                .replace("window(w)", f"window({w})"), "t.uap")
            assert at.verdict == "NOT-UAP"
    forged = copy.deepcopy(cert)
    step(forged, "TGT-NOT-CAUSAL")["data"]["from"] = {"op": "+", "args": [1, {"sym": "w"}]}  # w + 1 < 2·w + 1
    assert outcome(forged, "TGT-NOT-CAUSAL") == REJECTED


def test_the_stars_group_grows_from_n_3():
    """S_(n − 1) on {2, …, n} has order (n − 1)!, 1 at n = 2 and growing: NOT-UAP for n ≥ 3 (brute force agrees at
    n ≤ 6: the star's group fixes the hub and permutes the rest)."""
    result = uapcheck.check(source("star"), "t.uap")
    assert result.verdict == "NOT-UAP" and result.target.range == "n ≥ 3"
    for n in range(3, 7):
        arcs = {(j, i) for i in range(n) for j in range(n) if i != j and 0 in (i, j)}
        order = sum(1 for p in itertools.permutations(range(n)) if all((p[j], p[i]) in arcs for j, i in arcs))
        assert order > 1
    cert = copy.deepcopy(certificate_of(source("star")))
    assert verify(cert).ok
    step(cert, "TGT-NOT-CAUSAL")["data"]["from"] = 2  # (n − 1)! = 1 at n = 2
    assert outcome(cert, "TGT-NOT-CAUSAL") == REJECTED


def test_the_growing_order_lemma_on_its_own():
    import sympy

    from uapcheck.rules.targets import _growing_order_from
    from uapcheck.verifier.rules_targets import growing_order_first
    n = sympy.Symbol("n", integer=True, positive=True)
    cases = [(sympy.factorial(n - 1), 3, 3), (2 * sympy.factorial(n - 3), 3, 3), (sympy.factorial(n - 3), 3, 5),
             (sympy.factorial(n - 2) ** 2, 1, 4), (sympy.factorial(3 - n), 1, None), (n - 2, 1, None)]
    for order, low, first in cases:
        assert _growing_order_from(order, low) == first
        assert growing_order_first(order, low) == first
        if first is not None:  # never below 2 from there on (a second way: evaluated)
            assert all(order.subs(n, v) >= 2 for v in range(first, first + 20))
