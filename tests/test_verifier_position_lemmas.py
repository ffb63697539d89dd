"""The verifier's family lemmas at symbolic n (docs/theory.md §18.4) state the group and the count of plain heads. A
position term in the weights can make the group smaller and the count larger: `window(1)` with `reweight exp(j - i)`
is UAP with the trivial group and n layers (sufficient), while the lemma says the reflection and n − 1. The verifier
used to reject that certificate (and the certificate's PAT-LAYERS data restated the plain patterns' n − 1 beside the
step's n); it now reports the two steps trusted and states the step's own count."""
from __future__ import annotations

import copy

from certificates import certificate_of, step_outcome
from uapcheck.verifier import verify

TEXT = "attention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(1)\n  reweight c(i, j) = exp(j - i)\n}\n"


def test_a_window_with_a_reweight_at_symbolic_n_is_not_rejected():
    """The positive factor e^{j − i} labels the arcs by their offsets; on a softmax head Lemma V^ρ makes the labelled
    window's count n − 1, least, for n ≥ 3 (Theorems F140, F161; formerly n, sufficient). The verifier's lemmas do not
    re-check a position term's labels: both steps are trusted, neither rejected."""
    cert = certificate_of(TEXT)
    layers = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert layers["data"]["layers"] == {"op": "+", "args": [-1, {"sym": "n"}]} and layers["data"]["least"]
    report = verify(cert)
    assert not report.rejected and not report.problems
    assert step_outcome(report, "PAT-LAYERS") == "trusted" and step_outcome(report, "SYM-AUT") == "trusted"


def test_the_plain_window_is_still_checked_against_the_lemma():
    plain = certificate_of("attention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(1)\n}\n")
    assert verify(plain).ok
    bad = copy.deepcopy(plain)
    next(s for s in bad["steps"] if s["rule"] == "SYM-AUT")["data"]["name"] = "trivial"
    assert step_outcome(verify(bad), "SYM-AUT") == "rejected"


def test_the_lemmas_group_is_not_taken_for_a_head_with_a_position_term():
    """A fixed bias -(i - j) on `window(3)` breaks the window's reflection: the family is trivial. A certificate
    forged to state the window lemma's own group, the reflection, was verified (the lemma's group was compared with the
    statement, not with the position term); the lemma's group is now an upper bound only there, so it is not
    verified (trusted), while the true trivial group still is (a subgroup of the trivial group is trivial)."""
    text = "attention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(3)\n  bias b(i, j) = -1 * (i - j)\n}\n"
    cert = certificate_of(text)
    group = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    assert group["data"]["name"] == "trivial"
    assert step_outcome(verify(cert), "SYM-AUT") != "rejected"
    forged = copy.deepcopy(cert)
    next(s for s in forged["steps"] if s["rule"] == "SYM-AUT")["data"]["name"] = "reflection"
    assert step_outcome(verify(forged), "SYM-AUT") != "verified"


def test_the_certificate_states_the_steps_count_when_a_head_has_a_position_term(monkeypatch):
    """The PAT-LAYERS data of a head with a position term is the step's own count, not the count the certificate
    writer recomputes from the pattern spec. The guard used to test the pattern spec's heads, in which every position
    term has already become a bias kind, so it never held: a recomputation that drops the reweight (the plain
    window's n − 1) was stated beside the step's n. (Under `tie query key` Lemma V^ρ does not apply, Theorem F161, so
    the step's count stays n, sufficient; without it the count is the plain window's n − 1, least.)"""
    import json
    from dataclasses import replace

    import uapcheck
    from uapcheck import certfile
    from uapcheck.rules import pattern

    tied = TEXT.replace("  pattern window(1)\n", "  tie query key\n  pattern window(1)\n")
    result = uapcheck.check(tied, "t.uap")
    plain = pattern.pattern_premises

    def without_positions(spec, fixed):  # the plain window's outcome: n − 1 layers
        return plain(replace(spec, heads=tuple(replace(h, bias=None) for h in spec.heads)), frozenset())
    monkeypatch.setattr(pattern, "pattern_premises", without_positions)
    cert = json.loads(json.dumps(certfile.build(result, tied)))
    layers = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert layers["data"]["layers"] == {"sym": "n"}
