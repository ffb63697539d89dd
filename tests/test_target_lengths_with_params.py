"""The lengths below a causal window's range when the range has params (docs/theory.md §14.7, *the lengths below the
range*; TGT-BELOW): 1 layer for n ≤ 2 and max(2, ⌈(k − 1)/w⌉) for 3 ≤ n < max(k + w + 2, 2k), the least.

Compared with the exact receptive search on the graphs (graphs.receptive, not the closed forms) at every length
n ≤ 60 below the range, for widths and sink counts up to 40, and with the derivation at each length (the file with
`tokens n` and the params' values) for small ones; the kernel's certificate and the verifier reject altered pieces."""
from __future__ import annotations

import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile, proof
from uapcheck.graphs import build_graph
from uapcheck.graphs.receptive import causal_exact, receptive_fields, search
from uapcheck.parse import parse_source
from uapcheck.render import jsonout
from uapcheck.rules.target_below import TargetPiece, WindowBelowRange, window_pieces
from uapcheck.verifier import REJECTED, VERIFIED, verify

PARAMS = "param w integer >= 1\nparam k integer >= 1\n"
BODY = "attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\ntarget causal\n"


def pattern(w, k) -> str:
    return f"causal & window({w})" + (f" + sinks({k})" if k else "")


def least_by_search(w: int, k: int, n: int) -> int:
    spec = parse_source(f"tokens {n}\n" + BODY.format(p=pattern(w, k)))
    graphs = [build_graph(h.pattern, n, {}) for h in spec.heads]
    rec = receptive_fields(graphs)
    found = causal_exact(graphs, rec) or search(graphs, rec, None)
    assert found.least
    return found.layers


def stated(pieces, w: int, k: int, n: int) -> int:
    """The count the pieces state at n for the values (w, k) of the params."""
    values = {sympy.Symbol(name, integer=True, positive=True): v for name, v in (("w", w), ("k", k))}

    def at(e):
        return e if isinstance(e, int) else int(e.xreplace(values))
    (hit,) = [p for p in pieces if at(p.lower) <= n < at(p.upper)]
    return at(hit.layers)


def pieces_of(source: str):
    result = uapcheck.check(source, "t.uap")
    outcome = result.target or result.alternative
    (step,) = [s for s in result.root.walk() if s.rule == "TGT-BELOW"]
    assert step.proved and outcome.pieces == step.facts["pieces"]
    return result, outcome


def test_streaming_llm_states_the_lengths_below_its_range():
    result, alt = pieces_of(open("catalog/streaming_llm.uap").read())
    assert result.verdict == "NOT-UAP" and alt.below is None
    assert alt.phrase() == ("UAP for causal targets with ⌈(n - k - 1)/w⌉ attention layers (for n ≥ max(2·k, k + w + 2); "
                            "n ≤ 2: 1 layer; 3 ≤ n < max(2·k, k + w + 2): max(2, ⌈(k - 1)/w⌉) layers)")
    pieces = jsonout.result_json(result)["alternative"]["below_pieces"]
    assert pieces == [{"condition": "n ≤ 2", "from": 1, "below": 3, "layers": 1, "least": True},
                      {"condition": "3 ≤ n < max(2·k, k + w + 2)", "from": 3, "below": "Max(2*k, k + w + 2)",
                       "layers": "Max(2, ceiling((k - 1)/w))", "least": True}]


# (w, k): small ones, k ≥ w + 2 (the range starts at 2k), k ≤ w + 1 (at k + w + 2), no sinks, and large ones
VALUES = [(1, 1), (1, 2), (2, 1), (3, 2), (1, 3), (2, 5), (3, 7), (1, 6), (4, 1), (5, 3), (3, 0), (7, 0),
          (2, 12), (5, 20), (20, 30), (40, 10), (6, 27), (9, 2)]


@pytest.mark.parametrize("w,k", VALUES, ids=[f"w{w}k{k}" for w, k in VALUES])
def test_the_pieces_are_the_least_by_the_receptive_search(w, k):
    pieces = window_pieces("w", "k" if k else 0)
    start = max(k + w + 2, 2 * k)
    for n in range(max(k, 1), min(start, 61)):
        assert stated(pieces, w, k, n) == least_by_search(w, k, n), n
    if start <= 60:  # and the closed form takes over at the range
        assert least_by_search(w, k, start) == -(-(start - k - 1) // w)


@pytest.mark.parametrize("w,k", [(1, 1), (2, 3), (3, 7), (2, 0), (4, 2)])
def test_each_length_agrees_with_the_derivation_at_that_n(w, k):
    """The symbolic file's pieces at (w, k) against the file with `tokens n` and the integers, n below the range."""
    source = PARAMS + BODY.format(p="causal & window(w)" + (" + sinks(k)" if k else ""))
    _, outcome = pieces_of(source)
    for n in range(max(k, 1), max(k + w + 2, 2 * k)):
        concrete = uapcheck.check(f"tokens {n}\n" + BODY.format(p=pattern(w, k)), "t.uap")
        assert concrete.verdict == "UAP" and concrete.target.least, n
        assert stated(outcome.pieces, w, k, n) == concrete.layers, n


@pytest.mark.parametrize("p", ["causal & window(w)", "causal & window(w) + sinks(2)", "causal & window(3) + sinks(k)",
                               "causal & window(w) + sinks(6)"])
def test_one_named_size_gets_its_pieces_with_the_other_fixed(p):
    _, outcome = pieces_of(PARAMS + BODY.format(p=p))
    w = 3 if "window(3)" in p else "w"
    k = 0 if "sinks" not in p else (2 if "sinks(2)" in p else 6 if "sinks(6)" in p else "k")
    assert outcome.pieces == window_pieces(w, k)
    if k == 6:  # every length is at least the 6 sinks: n ≤ 2 is no length of the file
        assert "n ≤ 2" not in outcome.phrase() and "6 ≤ n < max(12, w + 8): max(2, ⌈5/w⌉) layers" in outcome.phrase()
    else:
        assert "n ≤ 2: 1 layer; 3 ≤ n < " in outcome.phrase()
    if k in (0, 2):  # ⌈(k − 1)/w⌉ ≤ 1: two layers throughout
        assert outcome.pieces[1].layers == 2


@pytest.mark.parametrize("lower", [3, 4, 7])
def test_a_sink_count_of_at_least_three_states_no_length_below_it(lower):
    """`param k integer >= 3`: every allowed length is ≥ k ≥ 3, so "n ≤ 2: 1 layer" is no length of the file and is
    not stated; the one piece below the range starts at the least allowed k and agrees with the receptive search."""
    source = PARAMS.replace("k integer >= 1", f"k integer >= {lower}") + BODY.format(p="causal & window(2) + sinks(k)")
    result, outcome = pieces_of(source)
    assert "n ≤ 2" not in outcome.phrase() and f"{max(3, lower)} ≤ n < max(2·k, k + 4)" in outcome.phrase()
    assert outcome.pieces == window_pieces(2, "k", lower) and len(outcome.pieces) == 1
    for k in range(lower, lower + 4):
        for n in range(k, max(k + 4, 2 * k)):
            assert stated(outcome.pieces, 2, k, n) == least_by_search(2, k, n), (k, n)
    with pytest.raises(proof.CertificateRejected):  # the pieces of an unbounded k under the bound's certificate
        WindowBelowRange(2, "k", window_pieces(2, "k"), lower).check()
    text = source
    cert = json.loads(json.dumps(certfile.build(result, text)))
    assert _outcome(cert, "TGT-BELOW").outcome == VERIFIED
    _step(cert, "TGT-BELOW")["data"]["pieces"].insert(0, {"condition": "n ≤ 2", "from": 1, "below": 3, "layers": 1,
                                                          "least": True})
    assert _outcome(cert, "TGT-BELOW").outcome == REJECTED


def test_with_an_encoding_or_a_bias_the_lengths_below_are_not_decided():
    for extra, head in [("positional absolute\n", ""), ("", "  bias toeplitz\n")]:
        source = PARAMS + extra + BODY.format(p="causal & window(w) + sinks(k)").replace("  pattern", head + "  pattern")
        result = uapcheck.check(source, "t.uap")
        assert result.target.pieces is None and "TGT-BELOW" not in {s.rule for s in result.root.walk()}
        assert "the lengths below it are not decided with positions or an encoding" in result.target.phrase()


def test_the_kernel_rejects_altered_pieces():
    good = window_pieces("w", "k")
    WindowBelowRange("w", "k", good).check()
    wrong_count = (good[0], TargetPiece(good[1].lower, good[1].upper, 2))
    short_range = (good[0], TargetPiece(3, sympy.Symbol("k", integer=True, positive=True) + 5, good[1].layers))
    for pieces in (wrong_count, short_range, good[:1], (TargetPiece(1, 3, 2), good[1])):
        with pytest.raises(proof.CertificateRejected):
            WindowBelowRange("w", "k", pieces).check()
    with pytest.raises(proof.CertificateRejected):  # the pieces of another sink count
        WindowBelowRange("w", 5, window_pieces("w", "k")).check()


def _certificate() -> dict:
    text = open("catalog/streaming_llm.uap").read()
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "catalog/streaming_llm.uap"), text)))


def _outcome(cert, rule):
    return next(s for s in verify(cert).steps if s.rule == rule)


def _step(cert, rule):
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_verifier_re_derives_the_pieces():
    cert = _certificate()
    assert _outcome(cert, "TGT-BELOW").outcome == VERIFIED and _outcome(cert, "TGT-ALTERNATIVE").outcome == VERIFIED


def test_the_verifier_rejects_altered_pieces():
    cert = _certificate()
    _step(cert, "TGT-BELOW")["data"]["pieces"][1]["layers"] = 2  # wrong for k ≥ w + 3
    assert _outcome(cert, "TGT-BELOW").outcome == REJECTED
    cert = _certificate()
    _step(cert, "TGT-BELOW")["data"]["pieces"][0]["below"] = 4  # n = 3 put in the one-layer piece
    assert _outcome(cert, "TGT-BELOW").outcome == REJECTED
    cert = _certificate()
    _step(cert, "TGT-ALTERNATIVE")["data"]["below_pieces"][0]["layers"] = 2  # the verdict states other pieces
    outcome = _outcome(cert, "TGT-ALTERNATIVE")
    assert outcome.outcome == REJECTED and "TGT-BELOW premise" in outcome.reason
    cert = _certificate()
    alt = _step(cert, "TGT-ALTERNATIVE")
    below = _step(cert, "TGT-BELOW")["id"]
    alt["premises"] = [p for p in alt["premises"] if p != below]  # pieces without their premise
    outcome = _outcome(cert, "TGT-ALTERNATIVE")
    assert outcome.outcome == REJECTED and "without a proved TGT-BELOW premise" in outcome.reason
