"""A fixed even position bias (−m·|i − j|, −(i − j)²) on a pattern whose arcs all lie on one side of the
diagonal (the causal mask, a causal window): no row sees i + s and i − s together, so h is injective on
the offsets every row sees and the even case's one-layer obstruction does not arise (Lemma O,
docs/theory.md §16.2). Checked a second way: the structural side against the arcs the graph engine
builds, the one-layer separation at W_Q = W_K = 0 by a brute force over the rearrangements of a prefix
(numpy), the verifier and forged certificates."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import uapcheck
from uapcheck import proof
from uapcheck import spec as S
from uapcheck.certificates import OneSidedPattern
from uapcheck.graphs.build import build_graph
from uapcheck.rules.positions import pattern_side

from certificates import certificate_from_cli  # tests/ is on sys.path


def decoder(pattern: str, bias: str = "-m * |i - j|", n="10", target: str = "target causal\n") -> str:
    return (f"tokens {n}\n" if n is not None else "") + "param m > 0\n" + (
        "attention {\n  kernel k(x, y) = exp(x . y)\n"
        f"  pattern {pattern}\n  bias b(i, j) = {bias}\n}}\n") + target


def _rules(r) -> dict:
    return {s.rule: s for s in r.root.walk()}


@pytest.mark.parametrize("n", ["10", None])
@pytest.mark.parametrize("bias", ["-m * |i - j|", "-(i - j)^2"])
def test_an_even_bias_on_the_causal_mask_is_one_layer_like_alibi(n, bias):
    r = uapcheck.check(decoder("causal", bias, n))
    assert r.verdict == "UAP" and r.layers == 1
    td = _rules(r)["TD-FIXEDBIAS"]
    assert td.proved and td.facts.get("one_sided") == -1 and not td.facts.get("fixed_even")
    alibi = uapcheck.check(decoder("causal", "-m * (i - j)", n))
    assert (alibi.verdict, alibi.layers) == (r.verdict, r.layers)


def test_on_a_causal_window_the_count_is_the_labelled_views():
    r = uapcheck.check(decoder("causal & window(2)", n="12"))
    injective = uapcheck.check(decoder("causal & window(2)", "-m * (i - j)", "12"))
    assert r.verdict == injective.verdict == "UAP" and r.layers == injective.layers == 6


@pytest.mark.parametrize("pattern", ["window(2)", "offsets {-1, 1}", "causal + offsets {1}"])
def test_a_pattern_that_sees_both_sides_keeps_the_obstruction(pattern):
    """One layer does not separate i + s from i − s there; the count is the labelled views' (Theorem F161,
    tests/test_fixed_bias_labelled_views.py), never one layer by Lemma O."""
    r = uapcheck.check(decoder(pattern, n="10", target=""))
    td = _rules(r)["TD-FIXEDBIAS"]
    assert "i + s and i − s alike" in td.claim and not td.facts.get("one_sided")
    assert td.facts.get("labelled_views") is True and "layers" not in td.facts


def test_a_budget_below_the_receptive_radius_is_still_refused():
    r = uapcheck.check(decoder("causal & window(2)", n="12").replace("target causal", "target causal\nlayers 5"))
    assert r.verdict != "UAP"


# -- the side of a pattern, against the arcs the graph engine builds ----------------------------------

PATTERNS = {
    "causal": S.Causal(),
    "causal & window(2)": S.PatternIntersection((S.Causal(), S.Window(2))),
    "offsets {-2, -1}": S.Offsets((-2, -1)),
    "offsets {0, 3}": S.Offsets((0, 3)),
    "offsets {-1, 1}": S.Offsets((-1, 1)),
    "circular offsets {-1}": S.Offsets((-1,), cyclic=True),
    "window(2)": S.Window(2),
    "full": S.Full(),
    "causal | sinks(2)": S.PatternUnion((S.Causal(), S.Sinks(2))),
    "offsets {-1} | offsets {2}": S.PatternUnion((S.Offsets((-1,)), S.Offsets((2,)))),
    "edges": S.Edges(((3, 1), (4, 2), (2, 2))),
}


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_the_structural_side_agrees_with_the_arcs_at_every_small_n(name):
    p = PATTERNS[name]
    side = pattern_side(p)
    sides = set()
    for n in range(4, 13):
        g = build_graph(p, n)
        sides |= {(j > i) - (j < i) for j, i in g.arcs()} - {0}
    if side is not None:
        assert sides <= {side}, name
    else:
        assert len(sides) == 2, name  # not shown one-sided: the arcs do go both ways
    if side is not None:
        OneSidedPattern(p, side).check()
        with pytest.raises(proof.CertificateRejected):
            OneSidedPattern(p, -side).check()
    else:
        with pytest.raises(proof.CertificateRejected):
            OneSidedPattern(p, -1).check()


# -- the one-layer separation on the causal mask, by brute force --------------------------------------

@pytest.mark.parametrize("n", [4, 5])
def test_one_layer_at_zero_scores_separates_every_rearranged_prefix(n):
    """At W_Q = W_K = 0 and W_V = c·I, row i of the causal head is x_i + c Σ_{l ≤ i} β_il x_l with β_il ∝
    e^{−m|l − i|}: for every i and every permutation σ ≠ id of 1..i fixing nothing in particular, the rows
    of X and of X with its prefix rearranged by σ differ (random X, three slopes)."""
    rng = np.random.default_rng(7)
    for m in (0.1, 1.0, 4.0):
        x = rng.normal(size=(n, 3))
        for i in range(1, n + 1):
            w = np.exp(-m * np.abs(np.arange(1, i + 1) - i))
            beta = w / w.sum()
            for sigma in itertools.permutations(range(i)):
                if sigma == tuple(range(i)):
                    continue
                y = x.copy()
                y[:i] = x[list(sigma)]
                gap = (x[i - 1] + 0.5 * beta @ x[:i]) - (y[i - 1] + 0.5 * beta @ y[:i])
                assert np.abs(gap).max() > 1e-6, (m, i, sigma)


def test_bidirectional_even_weights_do_not_separate_the_mirror_pair():
    """The obstruction the one-sided pattern avoids: on a dense row 2 the keys 1 and 3 weigh alike."""
    x = np.random.default_rng(3).normal(size=(4, 2))
    w = np.exp(-np.abs(np.arange(1, 5) - 2))
    beta = w / w.sum()
    y = x[[2, 1, 0, 3]]
    assert np.abs((x[1] + 0.5 * beta @ x) - (y[1] + 0.5 * beta @ y)).max() < 1e-12


# -- the verifier -------------------------------------------------------------------------------------

def test_the_verifier_rebuilds_the_side_and_rejects_a_forged_one(tmp_path):
    from uapcheck.verifier import verify
    cert = certificate_from_cli(decoder("causal"), tmp_path)
    report = verify(cert)
    outcomes = {s.rule: s.outcome for s in report.steps}
    assert outcomes["TD-FIXEDBIAS"] == "verified"
    for step in cert["steps"]:
        if step["rule"] == "TD-FIXEDBIAS":
            step["data"]["one_sided"] = 1
    assert any(s.rule == "TD-FIXEDBIAS" and s.outcome == "rejected" for s in verify(cert).steps)


def test_the_verifier_rejects_the_lemma_on_a_two_sided_pattern(tmp_path):
    from uapcheck.verifier import verify
    text = certificate_from_cli(decoder("window(2)", target=""), tmp_path)
    for step in text["steps"]:
        if step["rule"] == "TD-FIXEDBIAS":
            step["status"] = "proved"
            step["data"]["one_sided"] = -1
    assert any(s.rule == "TD-FIXEDBIAS" and s.outcome == "rejected" for s in verify(text).steps)


@pytest.mark.parametrize("first,second", [("causal", "window(2)"), ("window(2)", "causal")])
def test_the_head_premises_are_not_shared_across_sides(first, second):
    """The per-process cache of a head's premises keys on the side of its pattern: a causal head's proved
    step is never reused for a window head with the same kernel and bias, nor the other way round."""
    uapcheck.check(decoder(first, n=None, target=""))
    r = uapcheck.check(decoder(second, n=None, target=""))
    td = _rules(r)["TD-FIXEDBIAS"]
    assert td.proved and bool(td.facts.get("one_sided")) is (second == "causal")
    assert bool(td.facts.get("labelled_views")) is (second != "causal")  # Theorem F161 on the window
