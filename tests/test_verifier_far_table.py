"""The verifier's own swap witness and far-adjacency table (uapcheck/verifier/far_table.py, Theorem F111 and the swap of
Theorem F99 (a), docs/theory.md §11.9) at the lengths below a range: each answer agrees with the verifier's rooted views
(nauty) on its own arcs, and a certificate whose length below the range states a false count or a false least flag is
rejected."""
from __future__ import annotations

import copy

import pytest
from certificates import certificate

from uapcheck.parse import parse_source
from uapcheck.verifier import far_table, groups, patterns, verify, views


def _arcs(pattern: str, n: int):
    spec = parse_source(f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n", "t.uap")
    heads = [patterns.head_arcs(spec.heads[0].pattern, n)]
    gens, _ = groups.full_generators(patterns.labels_at(spec, heads, n), n, "none")
    outs = patterns.union_out(heads, n)
    diameter = max(d for j in range(1, n + 1) for d in patterns.bfs(outs, j)[1:])
    return heads, gens, diameter


@pytest.mark.parametrize("pattern, lengths", [("blocks(4) + window(1) + strided(7)", (61, 64, 65, 68)),
                                              ("strided(3) + strided(4) + strided(5)", (40, 60)),
                                              ("window(1) cyclic + dilated(2, 4)", (41, 42, 43)),
                                              ("blocks(5) + window(2) + strided(4)", (30, 61)),
                                              ("blocks(3) + dilated(2, 2)", (40, 44))])
def test_the_answers_agree_with_the_verifier_s_rooted_views(pattern, lengths):
    answered = 0
    for n in lengths:
        heads, gens, diameter = _arcs(pattern, n)
        quick = far_table.decide(heads, n, diameter, [min(orbit) for orbit in views.orbits(gens, n)])
        if quick is None:
            continue
        answered += 1
        assert (quick == "enough") == (views.decide(heads, n, diameter, gens) is None), (pattern, n)
    assert answered, pattern


def test_an_asymmetric_head_gets_no_answer():
    spec = parse_source("tokens 30\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(1) + offsets {-3, 9}\n}\n",
                        "t.uap")
    heads = [patterns.head_arcs(spec.heads[0].pattern, 30)]
    assert far_table.decide(heads, 30, 3, list(range(1, 31))) is None


def _length(cert: dict, n: int) -> dict:
    step = next(s for s in cert["steps"] if s["rule"] == "VERDICT-T1")
    return next(x for x in step["data"]["lengths"] if x["n"] == n)


def _rejected(cert: dict) -> list[str]:
    report = verify(cert)
    return [s.reason for s in report.rejected] + list(report.problems)


def test_false_counts_at_lengths_below_the_range_are_rejected():
    """blocks(4) + window(1) + strided(7) below Theorem F93's range: 3 layers least at n = 64 (the table), 4 least at
    n = 65 (a swap); 4 claimed least at 64 and 3 claimed at 65 are rejected, and the untampered certificate passes."""
    cert = certificate("blocks_window_strided_shorter_n.uap")
    assert (_length(cert, 64)["layers"], _length(cert, 65)["layers"]) == (3, 4)
    assert _rejected(cert) == []
    forged = copy.deepcopy(cert)
    _length(forged, 64).update(layers=4, least=True)
    assert any("n = 64" in r and "no view witness exists" in r for r in _rejected(forged))
    forged = copy.deepcopy(cert)
    _length(forged, 65).update(layers=3, least=True)
    assert any("n = 65" in r and "D layers do not suffice" in r for r in _rejected(forged))
