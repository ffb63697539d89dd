"""A PAT-CONNECTED step's receptive-field pair, a SYM-AUT step's generators and the counts of a verdict's lengths below
its range are stated facts: the verifier rejects them when malformed (a pair of three entries, a pair at symbolic n,
generators `0`, a count at a length where no verdict holds), whatever route checks the rest of the step."""
from __future__ import annotations

import json

import pytest

from certificates import certificate_of, forged, rejects, softmax_source


def _lengths_forged(cert: dict, at: int, **changes) -> dict:
    out = json.loads(json.dumps(cert))
    step = next(s for s in out["steps"] if s["rule"] == "VERDICT-T1")
    entry = next(x for x in step["data"]["lengths"] if x["n"] == at)
    entry.update(changes)
    return out


@pytest.mark.parametrize("pattern, tokens", [("window(1)", None), ("window(1) + global(1)", None),
                                             ("window(1) + global(1)", 1048576), ("window(1)", 12)])
@pytest.mark.parametrize("pair", [[None, None, None], [None], [1, None], [True, 2], "x", [1, 2, 3]])
def test_a_malformed_pair_is_rejected_on_every_route(pattern, tokens, pair):
    cert = certificate_of(softmax_source(pattern, tokens))
    assert not rejects(cert, "PAT-CONNECTED")
    assert rejects(forged(cert, "PAT-CONNECTED", "pair", pair), "PAT-CONNECTED")


def test_a_pair_of_positions_at_symbolic_n_is_rejected():
    cert = certificate_of(softmax_source("window(1) + global(1)"))
    assert rejects(forged(cert, "PAT-CONNECTED", "pair", [1, 2]), "PAT-CONNECTED")


def test_a_wrong_pair_at_a_concrete_n_is_rejected_by_a_lemma_route_too():
    """At n = 12 the closed form's route checks the diameter; the stated pair is then searched from x_j."""
    cert = certificate_of(softmax_source("window(1) + global(1)", 12))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")
    j, i = step["data"]["pair"]
    from uapcheck.verifier import verify
    assert verify(cert).ok
    assert rejects(forged(cert, "PAT-CONNECTED", "pair", [j, j]), "PAT-CONNECTED")


def test_an_unchecked_pair_at_a_large_n_is_not_verified():
    from uapcheck.verifier import verify
    cert = forged(certificate_of(softmax_source("window(1) + global(1)", 1048576)), "PAT-CONNECTED", "pair", [3, 5])
    step = next(s for s in verify(cert).steps if s.rule == "PAT-CONNECTED")
    assert step.outcome != "verified"


@pytest.mark.parametrize("changes", [{"layers": 0}, {"layers": True}, {"layers": 2}, {"least": True}, {"order": 1}])
def test_a_count_at_a_length_not_decided_is_rejected(changes):
    cert = certificate_of(softmax_source("window(1) + global(3)"))
    assert not rejects(cert, "VERDICT-T1")
    assert rejects(_lengths_forged(cert, 1, **changes), "VERDICT-T1")


@pytest.mark.parametrize("layers", [True, 0, -1, "1", None])
def test_a_uap_length_needs_a_positive_count(layers):
    cert = certificate_of(softmax_source("window(1) + global(3)"))
    assert rejects(_lengths_forged(cert, 3, layers=layers), "VERDICT-T1")


def test_a_count_beside_a_not_uap_length_is_rejected():
    cert = certificate_of(softmax_source("causal + sinks(2)"))
    assert not rejects(cert, "VERDICT-T1")
    assert rejects(_lengths_forged(cert, 1, verdict="NOT-UAP", layers=1), "VERDICT-T1")


@pytest.mark.parametrize("n", [True, "1", 1.0])
def test_a_length_that_is_not_an_integer_is_rejected(n):
    cert = certificate_of(softmax_source("causal + sinks(2)"))
    assert rejects(_lengths_forged(cert, 1, n=n), "VERDICT-T1")


@pytest.mark.parametrize("tokens", [None, 12, 4096])
@pytest.mark.parametrize("generators", [0, "x", {"a": 1}, [1, 2], [[1, True]]])
def test_malformed_generators_are_rejected_on_every_route(tokens, generators):
    """At symbolic n (a lemma), at n = 12 (the arcs) and at n = 4,096 (large.group on the interval model)."""
    cert = certificate_of(softmax_source("window(1) + global(1)", tokens))
    assert rejects(forged(cert, "SYM-AUT", "generators", generators), "SYM-AUT")
