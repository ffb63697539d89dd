"""Per-layer causal heads with attention sinks at a symbolic n whose windows or sink counts are params (docs/theory.md
§21.9, Theorem F128 (e) read with params): C = c₁ layers, least, for every n ≥ max(2, W + K + 2, k*) in the params.
Checked against F128's concrete decision (reach, covering) and §21.5's rooted views (no shared code) at several param
values and every n of the range up to 40; the files end to end (text, certificate, verifier); forged starts
rejected by the kernel and the verifier."""
from __future__ import annotations

import copy
import json
import random
from dataclasses import replace

import pytest
import sympy

import uapcheck
from uapcheck import certfile, proof
from uapcheck.graphs.layers_causal import causal_least_layers, prefix_reach
from uapcheck.graphs.layers_sinks import SinkLayers, decide, instantiate, param_sink_form, param_sink_head
from uapcheck.layer_certificates import CausalSinkForm
from uapcheck.parse import parse_source
from uapcheck.rules.layers import build_sequence
from uapcheck.spec import resolve_sizes
from uapcheck.verifier import verify
from uapcheck.verifier.check import REJECTED, VERIFIED

PARAMS = "param w integer >= 1\nparam k integer >= 1\n"
FIRST = ["causal & window(w) + sinks(k)", "causal & window(2) + sinks(k)", "causal & window(w) + sinks(2)",
         "causal & window(w)", "offsets {0} + sinks(k)", "causal & window(1)"]
LATER = ["causal", "causal + sinks(k)", "causal & window(w)", "causal & window(1) + sinks(k)"]


def text(row: list, tokens: str = "n") -> str:
    return (PARAMS + f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern periodic {{ {', '.join(row)} }}\n}}\n"
            f"tokens {tokens}\ntarget causal\n")


def form_of(row: list):
    spec = parse_source(text(row))
    lower = {"w": 1, "k": 1}
    heads = tuple((param_sink_head(p, lower),) for p in spec.heads[0].pattern.patterns)
    return heads, param_sink_form(heads, True, None, lower)


def start_at(form, w: int, k: int) -> int:
    return int(form.start.xreplace({sympy.Symbol("w", integer=True, positive=True): w,
                                    sympy.Symbol("k", integer=True, positive=True): k}))


def random_rows(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        row = [rng.choice(FIRST)] + [rng.choice(FIRST + LATER) for _ in range(rng.randint(0, 1))]
        row.insert(rng.randint(1, len(row)), rng.choice(LATER[:2]))
        yield row


def test_the_param_form_equals_f128_at_every_value_and_length():
    decided = 0
    for row in random_rows(3, 60):
        heads, form = form_of(row)
        if form is None:
            continue
        decided += 1
        for w in (1, 2, 4):
            for k in (1, 3):
                at = instantiate(heads, {"w": w, "k": k})
                for n in range(max(start_at(form, w, k), 2 * k), 41):
                    got = decide(SinkLayers(n, at, True, None))
                    assert (got.depth, got.layers, got.least) == (form.layers, form.layers, True), (row, w, k, n)
    assert decided >= 25, decided


@pytest.mark.parametrize("row", [["causal & window(w) + sinks(k)", "causal"],
                                 ["causal & window(w) + sinks(k)", "causal & window(1)", "causal + sinks(k)"]])
def test_the_param_form_against_the_rooted_views(row):
    heads, form = form_of(row)
    for w, k in ((1, 1), (2, 3), (3, 2)):
        for n in range(start_at(form, w, k), 31):
            spec = parse_source(text(row, str(n)))
            spec = replace(spec, heads=resolve_sizes(spec.heads, {"w": w, "k": k}))
            seq = build_sequence(spec)
            reach = prefix_reach(seq, None)
            least = causal_least_layers(seq, max(reach.depth, 1), reach.depth + 2 * seq.period + 2)
            assert not least.reason and least.layers == form.layers, (row, w, k, n)


def certificate(src: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(src, "t.uap"), src)))


def test_the_file_is_verified_and_forged_starts_are_rejected():
    row = ["causal & window(w) + sinks(k)", "causal"]
    r = uapcheck.check(text(row), "t.uap")
    assert r.verdict == "UAP" and r.layers == 2
    cert = certificate(text(row))
    rep = verify(cert)
    assert rep.problems == [] and all(s.outcome == VERIFIED for s in rep.steps), \
        [(s.rule, s.reason) for s in rep.steps if s.outcome != VERIFIED]
    forged = copy.deepcopy(cert)
    step = next(s for s in forged["steps"] if s["rule"] == "SEQ-CAUSAL-SINKS")
    w, k = sympy.Symbol("w", integer=True, positive=True), sympy.Symbol("k", integer=True, positive=True)
    step["data"]["from"] = certfile._tree(w + k + 1)  # one below F128 (e)'s bound w + k + 2
    assert next(s.outcome for s in verify(forged).steps if s.rule == "SEQ-CAUSAL-SINKS") == REJECTED
    heads, form = form_of(row)
    CausalSinkForm(heads, True, None, form, (("k", 1), ("w", 1))).check()
    with pytest.raises(proof.CertificateRejected):
        CausalSinkForm(heads, True, None, replace(form, start=form.start - 1), (("k", 1), ("w", 1))).check()


def concrete(row: list, n: int, params: str = "param k integer >= 1\n") -> str:
    return (params + f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern periodic {{ {', '.join(row)} }}\n}}\n"
            f"tokens {n}\ntarget causal\n")


@pytest.mark.parametrize("row", [["causal & window(3) + sinks(k)", "causal"],
                                 ["causal & window(2) + sinks(k)", "causal & window(1)", "causal"]])
def test_a_param_sink_count_at_a_concrete_n_is_every_values_count(row):
    """At n = 24 the verdict for a param k holds at every k = 1 … 24, each by §21.5's rooted views on the file with
    that k (no shared code)."""
    n = 24
    r = uapcheck.check(concrete(row, n), "t.uap")
    assert r.verdict == "UAP"
    for k in range(1, n + 1):
        exact = uapcheck.check(concrete([h.replace("sinks(k)", f"sinks({k})") for h in row], n, ""), "t.uap")
        assert (exact.verdict, exact.layers) == ("UAP", r.layers), (row, k)


def test_a_param_sink_count_at_4096_tokens_is_decided_and_checked():
    row = ["causal & window(16) + sinks(k)", "causal"]
    src = concrete(row, 4096)
    r = uapcheck.check(src, "t.uap")
    assert (r.verdict, r.layers) == ("UAP", 2)
    cert = certificate(src)
    step = next(s for s in verify(cert).steps if s.rule == "SEQ-CAUSAL-SINKS")
    assert step.outcome in (VERIFIED, "trusted"), step.reason
    for change in ({"to": 4095}, {"from": 2}):
        forged = copy.deepcopy(cert)
        data = next(s for s in forged["steps"] if s["rule"] == "SEQ-CAUSAL-SINKS")["data"]
        data["values"].update(change)
        assert next(s.outcome for s in verify(forged).steps if s.rule == "SEQ-CAUSAL-SINKS") == REJECTED, change
    forged = copy.deepcopy(cert)
    next(s for s in forged["steps"] if s["rule"] == "SEQ-CAUSAL-SINKS")["data"].update({"D_c": 1, "layers": 1})
    assert next(s.outcome for s in verify(forged).steps if s.rule == "SEQ-CAUSAL-SINKS") == REJECTED
    from uapcheck.layer_certificates import CausalSinkValues
    heads = (((16, "k"),), ((None, 0),))
    CausalSinkValues(heads, True, None, 300, "k", 1, 300, 2, 2, True).check()
    with pytest.raises(proof.CertificateRejected):
        CausalSinkValues(heads, True, None, 300, "k", 1, 300, 1, 1, True).check()
