"""Certificates the verifier must answer without an internal error (issue 14): an honest certificate of a
file whose budget ran out, and forged ones whose re-derivation leaves the numeric range."""
from __future__ import annotations

import copy

import uapcheck
from uapcheck import certfile
from uapcheck.derive import budget_result
from uapcheck.parse import parse_source
from uapcheck.verifier import REJECTED, TRUSTED, VERIFIED, verify

SOFTMAX = "attention { kernel k(x, y) = exp(x . y) }\n"


def _certificate(result, text: str) -> dict:
    return certfile.build(result, text)


def test_a_budget_certificate_verifies_as_asserting_nothing():
    # `uapcheck --certificate` of a file whose budget ran out (e.g. exp(exp(exp(x . y))) at --budget 30)
    # has one step, BUDGET (undecided); the verifier rejected it: "the verdict (BUDGET) does not have one
    # premise per head"
    text = "attention { kernel k(x, y) = exp(exp(exp(x . y))) }\n"
    cert = _certificate(budget_result(parse_source(text), "analysing head 1", "CPU time budget of 1 s"), text)
    report = verify(cert)
    assert not report.problems, report.problems
    assert [(o.rule, o.outcome) for o in report.steps] == [("BUDGET", VERIFIED)]
    assert report.ok


def test_a_budget_step_claiming_a_proof_is_rejected():
    text = "attention { kernel k(x, y) = exp(exp(exp(x . y))) }\n"
    cert = _certificate(budget_result(parse_source(text), "analysing head 1", "CPU time budget of 1 s"), text)
    forged = copy.deepcopy(cert)
    forged["steps"][0]["status"] = "proved"
    forged["verdict"] = "UAP"
    report = verify(forged)
    assert not report.ok
    assert report.steps[0].outcome == REJECTED


def test_a_forged_input_beyond_the_numeric_range_is_not_an_internal_error():
    # softmax's certificate with its input replaced by exp(exp(exp(exp(x . y)))) (hash fixed): the numeric
    # re-check of LIM-EXPPOLY raised OverflowError in mpmath and the verifier's worker died (exit status 70)
    cert = _certificate(uapcheck.check(SOFTMAX), SOFTMAX)
    text = "attention { kernel k(x, y) = exp(exp(exp(exp(x . y)))) }\n"
    cert["input"]["text"] = text
    cert["input"]["sha256"] = certfile.source_hash(text)
    report = verify(cert)
    lim = next(o for o in report.steps if o.rule == "LIM-EXPPOLY")
    assert lim.outcome in (TRUSTED, REJECTED)
    assert not report.ok
