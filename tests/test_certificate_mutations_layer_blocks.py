"""Forged values in the kernel certificate blocks of the per-layer steps (SEQ-*, docs/theory.md §21) and of the
convolution mixer (CONV-*, §22), rejected by `uapcheck verify` (uapcheck/verifier/blocks_layers.py): each block states
again a depth, a pair, a closed set, a witness, G's generators and order, the rooted views' orbits, an alternation's
theorem and parameters, or the taps, and each is compared with the checked data or the verifier's own reading. These
blocks used to be neither compared nor named on the `not certified` line, so every mutant below passed as `OK`.
A value with no checked copy (BLISS's canonical digests) is named on that line instead."""
from __future__ import annotations

import copy
import json
from functools import lru_cache

import pytest

from certificates import certificate, certificate_of  # tests/ is on sys.path

from uapcheck.verifier import REJECTED, verify


def _attention(n: int, pattern: str, extra: str = "") -> str:
    return f"tokens {n}\n{extra}attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


ALTERNATION = _attention(8, "periodic { window(1), strided(2) }")
DEPTH = _attention(5, "sequence { full, window(1) }")
WITHIN = _attention(10, "sequence { window(1), window(1) }")
CIRCULANT = "tokens 12\nconvolution circular(2)\n"
SUMSETS = "convolution circular {1, 3}\n"
SCALED = "convolution circular {0, 2}\n"
ZERO = "convolution circular {0}\n"
SINK_VALUES = ("param k integer >= 1\nattention {\n  kernel k(x, y) = exp(x . y)\n"
               "  pattern periodic { causal & window(3) + sinks(k), causal }\n}\ntokens 12\ntarget causal\n")


@lru_cache(maxsize=None)
def _text(source: str) -> str:
    return json.dumps(certificate(source) if source.endswith(".uap") else certificate_of(source))


def _plus(d):
    return lambda v: v + d


def _twice(v):
    return 2 * v


# (file or source, rule, path in the step's certificate block, change, what the mutant claims)
MUTANTS = [
    (ALTERNATION, "SEQ-CONNECTED", ("depth",), _plus(1), "D_Φ = 3"),
    (ALTERNATION, "SEQ-CONNECTED", ("n",), _plus(1), "another length"),
    (ALTERNATION, "SEQ-CONNECTED", ("not within depth − 1", "j"), _plus(1), "another pair"),
    (ALTERNATION, "SEQ-LAYERS", ("depth",), _plus(1), "views decided at depth 3"),
    (ALTERNATION, "SEQ-LAYERS", ("G-orbits",), _plus(1), "five G-orbits"),
    (ALTERNATION, "SEQ-LAYERS", ("per orbit", 0, "|Aut(rooted view)|"), _twice, "a rooted view with two automorphisms"),
    (ALTERNATION, "SEQ-LAYERS", ("per orbit", 1, "orbit size"), _plus(1), "an orbit of three"),
    (ALTERNATION, "SEQ-GROUP", ("order",), _twice, "a group of order 4"),
    (ALTERNATION, "SEQ-GROUP", ("generators", 0), lambda g: list(range(1, len(g) + 1)), "the identity as generator"),
    (DEPTH, "SEQ-DEPTH", ("position",), _plus(1), "a witness at another position"),
    (DEPTH, "SEQ-DEPTH", ("depth",), _plus(-1), "a witness one layer shallower"),
    (WITHIN, "SEQ-DISCONNECTED", ("within layers",), _plus(1), "unreached within 3 layers"),
    (WITHIN, "SEQ-DISCONNECTED", ("within layers",), lambda v: None, "unreached at any depth (a finite sequence)"),
    (WITHIN, "SEQ-DISCONNECTED", ("j",), _plus(-2), "another unreached token"),
    ("gemma_alternating_decoder.uap", "SEQ-DISCONNECTED", ("reaches i (closed under every layer)",),
     lambda v: v + [max(v) + 1], "a larger closed set"),
    ("gemma_alternating_decoder.uap", "SEQ-CAUSAL-REACH", ("depth",), _plus(-1), "D_c = 1"),
    ("gemma_alternating_decoder.uap", "SEQ-CAUSAL-LAYERS", ("rooted views",), _plus(-1), "a position without a view"),
    ("gemma_alternating_decoder.uap", "SEQ-CAUSAL-LAYERS", ("every |Aut(rooted view)|",), _plus(1),
     "rooted views with two automorphisms"),
    ("sparse_transformer_fixed_4096.uap", "SEQ-ALTERNATION-LAYERS", ("D_Φ",), _plus(1), "D_Φ = 3"),
    ("sparse_transformer_fixed_4096.uap", "SEQ-ALTERNATION-LAYERS", ("parameters", 0), _twice, "blocks of 256"),
    ("sparse_transformer_fixed_4096.uap", "SEQ-ALTERNATION-GROUP", ("theorem",), lambda v: "F133", "Theorem F133"),
    ("sparse_transformer_fixed_4096.uap", "SEQ-ALTERNATION-GROUP", ("n",), _twice, "8192 tokens"),
    (CIRCULANT, "CONV-REACH", ("gcd",), _plus(1), "gcd(n, K) = 2"),
    (CIRCULANT, "CONV-LAYERS", ("depth",), _plus(-1), "the sum sets fill Z_12 after 5 layers"),
    (CIRCULANT, "CONV-GROUP", ("taps",), lambda v: v + [5], "another tap"),
    (SUMSETS, "CONV-REACH", ("step",), _plus(1), "the non-zero taps share a factor 2"),
    (SUMSETS, "CONV-LAYERS", ("from",), _plus(-1), "Lemma P from n = 1"),
    (SCALED, "CONV-GROUP", ("taps",), lambda v: [0, 4], "taps {0, 4}"),
    (ZERO, "CONV-GROUP", ("taps",), lambda v: [0, 1], "taps {0, 1}"),
    ("cn_convolution.uap", "CONV-REACH", ("span lower bound",), _plus(1), "l ≥ 2"),
    ("cn_convolution.uap", "CONV-GROUP", ("span",), lambda v: "m", "another span"),
    (SINK_VALUES, "SEQ-CAUSAL-SINKS", ("layers",), _plus(1), "3 layers for every k"),
    (SINK_VALUES, "SEQ-CAUSAL-SINKS", ("values",), lambda v: {**v, "to": 11}, "k up to 11"),
]


@pytest.mark.parametrize("source, rule, path, change, claim", MUTANTS, ids=[m[4] for m in MUTANTS])
def test_a_forged_value_in_a_per_layer_block_is_rejected(source, rule, path, change, claim):
    cert = json.loads(_text(source))
    sid = next(s["id"] for s in cert["steps"] if s["rule"] == rule)
    assert all(s.outcome != REJECTED for s in verify(cert, only={sid}).steps)
    mutant = copy.deepcopy(cert)
    obj = next(s for s in mutant["steps"] if s["id"] == sid)["certificate"]
    for p in path[:-1]:
        obj = obj[p]
    obj[path[-1]] = change(obj[path[-1]])
    report = verify(mutant, only={sid})
    step = next(s for s in report.steps if s.id == sid)
    assert step.outcome == REJECTED, f"{claim}: {step.outcome} ({step.reason})"
    assert "certificate block" in step.reason


def test_the_rooted_views_digests_are_named_not_certified():
    """BLISS's canonical digests have no checked copy: an `OK` names them on the `not certified` line."""
    report = verify(json.loads(_text(ALTERNATION)))
    assert report.ok
    assert any(u.endswith("per orbit[].canonical form (sha256, first 16 hex)") for u in report.unbound)


def test_generators_listed_for_an_alternation_above_the_arc_limit_are_named_not_certified():
    """Theorems F133 and F134 name the group and its order; the engine lists no generators there. A list written into
    both the data and the block (which SEQ-ALTERNATION-GROUP's check does not read) is named on the `not certified`
    line: above 1,024 positions the verifier does not rebuild the arcs to test it."""
    cert = json.loads(_text("sparse_transformer_strided_4096.uap"))
    step = next(s for s in cert["steps"] if s["rule"] == "SEQ-ALTERNATION-GROUP")
    assert step["data"]["generators"] == [] == step["certificate"]["generators"]
    forged = [list(range(4096, 0, -1)), [2, 1, *range(3, 4097)]]
    step["data"]["generators"] = step["certificate"]["generators"] = forged
    report = verify(cert, only={step["id"]})
    assert next(s for s in report.steps if s.id == step["id"]).outcome != REJECTED
    assert f"{step['id']} certificate.generators" in report.unbound
