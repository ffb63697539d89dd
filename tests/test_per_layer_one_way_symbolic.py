"""Per-layer lists whose every arc goes one way, at a symbolic n (docs/theory.md §21.14, Theorem F138): NOT-UAP for
every n ≥ 2 (x_2 never reaches position 1, or x_1 never reaches n), n = 1 decided below the range; checked a second way
against the concrete per-layer engine at every n ≤ 30 and a breadth-first search through increasing layers on the arcs;
the certificate checked by the kernel (forged ones rejected) and the file's certificate by the verifier."""
from __future__ import annotations

import copy
import json

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck import spec as S
from uapcheck.graphs import build_graph
from uapcheck.layer_certificates_one_way import OneWayLayers
from uapcheck.parse import parse_source
from uapcheck.verifier import REJECTED, TRUSTED, verify
from uapcheck.proof import CertificateRejected

from sample_sizes import lengths  # tests/ is on sys.path

LOWER = ["periodic { causal & window(4), causal & window(2) }", "periodic { causal & window(3), causal }",
         "sequence { causal, offsets {0, -2}, causal & window(1) }", "periodic { offsets {0, -2}, causal }",
         "periodic { causal & window(2) + sinks(2), causal & window(5) }"]
UPPER = ["periodic { offsets {0, 2}, offsets {0, 1} }", "sequence { offsets {0, 3}, offsets {1, 2} }"]
MIXED = ["periodic { causal & window(3), offsets {0, 1} }", "periodic { causal, window(2) }"]


def _file(pattern: str, tokens: str = "n", extra: str = "") -> str:
    return f"tokens {tokens}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n{extra}"


def _rules(result) -> dict:
    return {s.rule: s for s in result.root.walk()}


def _reaches(pattern: str, n: int, i: int, j: int, depth: int) -> bool:
    """x_j reaches position i through increasing layers 1..depth (the recurrence of §21.1 on the built arcs)."""
    spec = parse_source(_file(pattern, str(n)), "t.uap")
    seq = spec.heads[0].pattern
    assert isinstance(seq, S.PatternSequence)
    layers = [seq.at(ell) for ell in range(1, depth + 1)]
    seen = {i}
    for p in reversed([q for q in layers if q is not None]):
        into = {v: set() for v in range(1, n + 1)}
        for src, dst in build_graph(p, n, {}).arcs():
            into[dst].add(src)
        seen = seen | {u for v in seen for u in into[v]}
    return j in seen


@pytest.mark.parametrize("pattern", LOWER + UPPER)
def test_a_one_way_list_is_not_uap_for_every_n_from_2(pattern):
    r = uapcheck.check(_file(pattern), "t.uap")
    assert r.verdict == "NOT-UAP"
    step = _rules(r)["PAT-DISCONNECTED"]
    lower = pattern in LOWER
    assert (step.facts["i"], step.facts["j"]) == ((1, 2) if lower else ("n", 1))
    assert "n ≥ 2" in str(step.claim)


@pytest.mark.parametrize("pattern", LOWER + UPPER)
def test_the_concrete_engine_agrees_at_every_length_up_to_30(pattern):
    lower = pattern in LOWER
    for n in lengths(1, 30, 12):
        if "sinks(2)" in pattern and n < 2:
            continue  # sinks(2) needs two positions: not a length the file allows
        r = uapcheck.check(_file(pattern, str(n)), "t.uap")
        if n == 1:
            assert r.verdict == "UAP" and r.layers == 1, (pattern, n)
            continue
        assert r.verdict == "NOT-UAP", (pattern, n)
        i, j = (1, 2) if lower else (n, 1)
        assert not _reaches(pattern, n, i, j, 3 * n), (pattern, n)


def test_n_1_is_decided_below_the_range():
    below = uapcheck.check(_file(LOWER[0]), "t.uap").root.facts["below_range"]
    assert [(x.n, x.verdict.value, x.layers) for x in below] == [(1, "UAP", 1)]


@pytest.mark.parametrize("pattern", MIXED)
def test_a_list_with_arcs_both_ways_is_not_this_theorem(pattern):
    r = uapcheck.check(_file(pattern), "t.uap")
    assert r.verdict == "INCONCLUSIVE" and "SEQ-UNDECIDED" in _rules(r)


def test_the_kernel_rejects_a_pattern_that_is_not_one_way():
    OneWayLayers((S.Causal(), S.Offsets((0, -2))), True).check()
    for forged in (OneWayLayers((S.Causal(), S.Window(1)), True), OneWayLayers((S.Causal(),), False),
                   OneWayLayers((), True)):
        with pytest.raises(CertificateRejected):
            forged.check()


def test_the_verifier_checks_the_certificate_and_rejects_a_forged_pair():
    for pattern in (LOWER[0], LOWER[2], UPPER[0]):
        text = _file(pattern)
        cert = json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))
        report = verify(cert)
        assert not [s for s in report.steps if s.outcome in (REJECTED, TRUSTED)], pattern
        forged = copy.deepcopy(cert)
        step = next(s for s in forged["steps"] if s["rule"] == "PAT-DISCONNECTED")
        i, j = (2, 1) if pattern in LOWER else (1, 2)  # a pair that is reached: x_j reaches position i
        step["data"]["i"], step["data"]["j"] = step["evidence"]["witness"]["i"], step["evidence"]["witness"]["j"] = i, j
        got = {s.id: s.outcome for s in verify(forged, only={step["id"]}).steps}
        assert got[step["id"]] == REJECTED, pattern
