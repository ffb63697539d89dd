"""Fixed offset weights on a sparse normalised softmax head: Theorem F161 (docs/theory.md §16.2, §11.10).

Lemma V^ρ (§14.11(f)) separates positions with equal own states and different labelled neighbour multisets when the
fixed weight g is injective on the labels (the offset, or |δ| for an even h), so a labelled view witness decides the
count as for trainable classes: no witness, D layers, least. Formerly an even term on a window was INCONCLUSIVE
(`tokens 12`, `window(2)`, `bias b(i, j) = -m * |i - j|`: §13 L10 (a)) and an injective one D + 1, not shown least.

Checked: the engine's group and count against a brute force over S_n (n ≤ 7) from the definitions of §11.10; the
separating construction of Lemma V^ρ at 50 digits (rows with the same states at different distances differ, rows
with the same labelled multisets agree); the verifier re-decides the count over S_n (n ≤ 8) and rejects forgeries."""
from __future__ import annotations

import copy
import json

import mpmath
import pytest

import uapcheck
from uapcheck.verifier import verify

from certificates import certificate_from_cli  # tests/ is on sys.path
from t5_buckets import brute, window_neighbours

EVEN = "bias b(i, j) = -m * |i - j|"
INJECTIVE = "bias b(i, j) = -m * (i - j)"


def program(n, pattern: str, term: str, kernel: str = "  kernel k(x, y) = exp(x . y)\n", extra: str = "") -> str:
    return f"tokens {n}\nparam m > 0\nattention {{\n{kernel}{extra}  pattern {pattern}\n  {term}\n}}\n"


def layers_step(r):
    return next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")


def test_the_even_term_on_a_window_is_decided():
    """§13 L10 (a)'s file: UAP, G the reflection (the even term keeps it), D = 6 layers, least; the head's step is
    proved with the labelled-views fact (Lemma V^ρ), not left undecided."""
    r = uapcheck.check(program(12, "window(2)", EVEN), "t.uap")
    assert (r.verdict, r.group.name, r.layers, layers_step(r).facts["least"]) == ("UAP", "reflection", 6, True)
    td = next(s for s in r.root.walk() if s.rule == "TD-FIXEDBIAS")
    assert td.proved and td.facts.get("labelled_views") is True


def test_the_injective_term_on_a_window_is_least():
    """ALiBi's injective −m·(i − j) on window(2) at 12 tokens: trivial group, D = 6 layers, least (formerly 7, not
    shown least)."""
    r = uapcheck.check(program(12, "window(2)", INJECTIVE), "t.uap")
    assert (r.verdict, r.group.order, r.layers, layers_step(r).facts["least"]) == ("UAP", 1, 6, True)


PATTERNS = [("window(1)", 1, False), ("window(2)", 2, False), ("window(1) cyclic", 1, True)]


@pytest.mark.parametrize("pattern,w,cyclic", PATTERNS)
@pytest.mark.parametrize("term,label", [(EVEN, lambda q, k: abs(k - q)), (INJECTIVE, lambda q, k: k - q)])
def test_group_and_count_against_brute_force(pattern, w, cyclic, term, label):
    """n ≤ 7 over all of S_n: the group keeping the arcs and the classes of h (|δ| or δ; the real offset on a cyclic
    window's wrap arcs), and the least count from the labelled view witnesses, equal the engine's."""
    for n in range(max(3, 2 * w + 2 if cyclic else w + 2), 8):
        r = uapcheck.check(program(n, pattern, term), "t.uap")
        assert r.verdict == "UAP", (pattern, n)
        assert (r.group.order, r.layers) == brute(n, [(window_neighbours(n, w, cyclic), label)]), (pattern, n)
        assert layers_step(r).facts["least"] is True


def _output(query, keys, weights, t, direction):
    """Lemma V^ρ's layer at one row: q + Σ μ e^{t a_s} s / Σ μ e^{t a_s}, a_s = w·s (W_Q = I, W_K = (t/γ) q wᵀ/|q|²)."""
    scores = [weights[j] * mpmath.exp(t * mpmath.fsum(d * x for d, x in zip(direction, s))) for j, s in enumerate(keys)]
    total = mpmath.fsum(scores)
    return [query[c] + mpmath.fsum(sc * s[c] for sc, s in zip(scores, keys)) / total for c in range(len(query))]


def test_the_separating_construction_at_fifty_digits():
    """Two rows with the same own state q and the same neighbour states, seen at exchanged distances (so only the
    labels differ, the unlabelled multisets agree): with the fixed weights e^{−m|δ|} the outputs differ for large t, by
    a margin far above the working precision; with equal labelled multisets they agree to the last digit."""
    mpmath.mp.dps = 50
    q, s1, s2 = [mpmath.mpf("0.3"), mpmath.mpf("-1.1")], [mpmath.mpf("0.7"), mpmath.mpf("0.2")], \
        [mpmath.mpf("-0.4"), mpmath.mpf("0.9")]
    direction = [mpmath.mpf("0.61"), mpmath.mpf("-0.37")]
    for m in (mpmath.mpf("0.01"), mpmath.mpf(1), mpmath.mpf(5)):
        g = [mpmath.exp(-m * d) for d in range(3)]
        for t in (5, 20):
            row = _output(q, [q, s1, s2], [g[0], g[1], g[2]], t, direction)
            swapped = _output(q, [q, s1, s2], [g[0], g[2], g[1]], t, direction)
            same = _output(q, [q, s2, s1], [g[0], g[2], g[1]], t, direction)
            assert max(abs(a - b) for a, b in zip(row, swapped)) > mpmath.mpf(10) ** -30, (m, t)
            assert max(abs(a - b) for a, b in zip(row, same)) < mpmath.mpf(10) ** -45, (m, t)


def test_other_heads_stay_undecided():
    """Lemma V^ρ needs a normalised softmax head whose W_Q and W_K move apart: under `tie query key` the even term on
    a window stays undecided (INCONCLUSIVE), and no count is stated least."""
    r = uapcheck.check(program(12, "window(2)", EVEN, extra="  tie query key\n"), "t.uap")
    assert r.verdict == "INCONCLUSIVE"
    td = next(s for s in r.root.walk() if s.rule == "TD-FIXEDBIAS")
    assert not td.proved


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_verifier_redecides_the_count_and_rejects_forgeries(tmp_path):
    """n = 8: fully verified (the labelled views over all of S_8); a count below D, and the labelled-views fact on a
    dense head (whose count is Lemma E's), rejected."""
    cert = certificate_from_cli(program(8, "window(2)", EVEN), tmp_path)
    report = verify(cert)
    assert report.ok and report.complete, report
    fewer = copy.deepcopy(cert)
    _step(fewer, "PAT-LAYERS")["data"]["layers"] = 3
    assert not verify(fewer).ok
    dense = certificate_from_cli(program(8, "full", EVEN), tmp_path)
    assert verify(dense).ok
    forged = json.loads(json.dumps(dense))
    _step(forged, "TD-FIXEDBIAS")["data"].update(fixed_even=False, labelled_views=True)
    assert not verify(forged).ok
