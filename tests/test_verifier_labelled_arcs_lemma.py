"""PAT-CONNECTED at a symbolic n for a head whose arcs carry a bias (docs/theory.md §18.4): a bias adds a finite logit
to each arc and adds or removes none, so the verifier's `window` lemma gives the pattern graph's diameter ⌈(n − 1)/w⌉
with `bias toeplitz` as without. The step used to be trusted ("no closed form of the verifier's table matches"), so
`window(2)` with `bias toeplitz` at `tokens n` was not `OK`. The lemma's group and count stay the plain pattern's and
are not applied to the labelled head: a reflection stated for it is still not accepted."""
from __future__ import annotations

import copy

import pytest

from certificates import certificate_of  # tests/ is on sys.path

from uapcheck.verifier import REJECTED, VERIFIED, verify


def _source(w: int, bias: str = "toeplitz") -> str:
    return f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern window({w})\n  bias {bias}\n}}\n"


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("w", [1, 2, 3])
def test_the_window_lemma_gives_a_labelled_window_s_connectivity(w):
    cert = certificate_of(_source(w))
    report = verify(cert)
    step = next(s for s in report.steps if s.rule == "PAT-CONNECTED")
    assert step.outcome == VERIFIED, step.reason
    assert "labels arcs and adds none" in step.reason
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps if s.outcome != VERIFIED]


def test_a_forged_diameter_of_a_labelled_window_is_rejected():
    cert = certificate_of(_source(2))
    mutant = copy.deepcopy(cert)
    step = _step(mutant, "PAT-CONNECTED")
    step["data"]["diameter"] = {"op": "ceiling", "args": [{"op": "*", "args": [{"q": [1, 3]},
                                                                            {"op": "+", "args": [-1, {"sym": "n"}]}]}]}
    report = verify(mutant, only={step["id"]})
    assert next(s.outcome for s in report.steps if s.id == step["id"]) == REJECTED


def test_the_lemma_s_group_is_not_applied_to_the_labelled_window():
    """The window lemma's reflection is a group of the unlabelled arcs; a toeplitz bias breaks it (the group is
    trivial), and a SYM-AUT stating the reflection is not accepted on the lemma's ground."""
    cert = certificate_of(_source(2))
    mutant = copy.deepcopy(cert)
    step = _step(mutant, "SYM-AUT")
    assert step["data"]["name"] == "trivial"
    step["data"].update({"name": "reflection", "order": 2})
    report = verify(mutant, only={step["id"]})
    assert next(s.outcome for s in report.steps if s.id == step["id"]) != VERIFIED
