"""Forged certificates of Theorems F145 and F146 (docs/theory.md §21.9: twins by out-sets, the count of periodic sink
lists at a symbolic n, and the corrected lengths n = 6 … 9 of `sink_windows_any_length.uap`), of Theorem F149
(§16.5: one layer beside a fixed offset bias on a complete head) and of Theorem F151's shorter lengths, each stating
something false, alike in the step's data and in its kernel block: `uapcheck verify` rejects every one.

The twins case is a concrete length above the per-layer rooted views (1,100 tokens), where F145 decides the count
D_c + 1 with the twins 1 and 2 (both sinks of layer 1) at depth D_c = 2."""
from __future__ import annotations

import copy
import json
from functools import lru_cache

import pytest

from certificates import REPO, certificate, certificate_of  # tests/ is on sys.path

from uapcheck.verifier import REJECTED, verify

TWINS_1100 = ("tokens 1100\nattention {\n  kernel k(x, y) = exp(x . y)\n"
              "  pattern periodic { causal & window(600) + sinks(2), causal & window(600) }\n}\ntarget causal\n")


@lru_cache(maxsize=None)
def _text(source: str) -> str:
    return json.dumps(certificate(source) if source.endswith(".uap") else certificate_of(source))


def _forged(source: str, rule: str, path: tuple, value) -> tuple[dict, str]:
    """The certificate with `path` set to `value` in the step's data and, where it states it, its kernel block."""
    cert = json.loads(_text(source))
    step = next(s for s in cert["steps"] if s["rule"] == rule)
    for where in ("data", "certificate"):
        obj = step.get(where)
        for key in path[:-1]:
            obj = obj.get(key) if isinstance(obj, dict) else (obj[key] if isinstance(obj, list) else None)
        if isinstance(obj, (dict, list)) and (isinstance(obj, list) or path[-1] in obj):
            obj[path[-1]] = copy.deepcopy(value)
    return cert, step["id"]


def test_the_unforged_certificates_verify():
    for source in (TWINS_1100, "sink_windows_any_length.uap", "sink_windows_decoder_2k.uap"):
        report = verify(json.loads(_text(source)))
        assert report.ok, (source, [(s.id, s.outcome, s.reason) for s in report.steps if s.outcome != "verified"])
    data = next(s for s in json.loads(_text(TWINS_1100))["steps"] if s["rule"] == "SEQ-CAUSAL-SINKS")["data"]
    assert (data["D_c"], data["layers"], data["least"], data["witness"]["transposition"]) == (2, 3, True, [1, 2])


# (source, rule, path, forged value, what the forgery claims)
FORGERIES = [
    (TWINS_1100, "SEQ-CAUSAL-SINKS", ("layers",), 2, "D_c = 2 layers suffice (the sinks 1 and 2 are twins there)"),
    (TWINS_1100, "SEQ-CAUSAL-SINKS", ("witness", "transposition"), [1, 3], "1 and 3 are twins"),
    (TWINS_1100, "SEQ-CAUSAL-SINKS", ("witness", "transposition"), [2, 3], "2 and 3 are twins"),
    (TWINS_1100, "SEQ-CAUSAL-SINKS", ("witness", "position"), 500, "twins at root 500 (its view has no gap)"),
    (TWINS_1100, "SEQ-CAUSAL-SINKS", ("witness", "depth"), 3, "twins at depth 3"),
    (TWINS_1100, "SEQ-CAUSAL-SINKS", ("D_c",), 3, "D_c = 3"),
    ("sink_windows_decoder_2k.uap", "SEQ-CAUSAL-SINKS", ("layers",), 44, "44 layers, least, D_c = 43"),
    ("sink_windows_any_length.uap", "SEQ-CAUSAL-SINKS", ("from",), 9, "F146's count at n = 9 (the twins 1, 2)"),
    ("sink_windows_any_length.uap", "TGT-VERDICT", ("below_range", 4, "layers"), 1, "1 layer at n = 5"),
    *[("sink_windows_any_length.uap", "TGT-VERDICT", ("below_range", n - 1, "layers"), 2, f"2 = D_c layers at n = {n}")
      for n in (6, 7, 8, 9)],
    ("t5_wide_window_any_length.uap", "VERDICT-T1", ("lengths", 8, "layers"), 2, "F151: 2 layers, least, at n = 9"),
    ("t5_wide_window_any_length.uap", "VERDICT-T1", ("lengths", 8, "order"), 2, "F151: a group of order 2 at n = 9"),
]


@pytest.mark.parametrize("source, rule, path, value, claim", FORGERIES, ids=[f[4] for f in FORGERIES])
def test_a_forged_value_is_rejected(source, rule, path, value, claim):
    cert, sid = _forged(source, rule, path, value)
    if path == ("layers",):
        cert["layers"] = value
    report = verify(cert, only={sid})
    assert any(s.id == sid and s.outcome == REJECTED for s in report.steps) or report.problems, \
        (claim, [(s.id, s.outcome, s.reason) for s in report.steps])


def test_theorem_f149_moved_to_a_length_with_a_witness_is_rejected():
    """ALiBi's −m·|i − j| beside a `window(8)` bucket head: one layer, least, at n = 16 (F149); at n = 18 = 2w + 2 the
    shift keeps a row's labels. The n = 16 step, its count and its verdict premises carried into the n = 18
    certificate, are rejected: the verifier compares the rows itself."""
    text = (REPO / "catalog" / "alibi_beside_t5_window.uap").read_text("utf-8")
    one, two = certificate_of(text), certificate_of(text.replace("tokens 16", "tokens 18"))
    assert (one["layers"], two["layers"]) == (1, 2)
    forged = copy.deepcopy(two)
    source = next(s for s in one["steps"] if s["rule"] == "PAT-LAYERS")
    target = next(s for s in forged["steps"] if s["rule"] == "PAT-LAYERS")
    target["data"], target["certificate"] = copy.deepcopy(source["data"]), copy.deepcopy(source["certificate"])
    target["certificate"]["n"] = 18
    forged["layers"] = 1
    for premise in next(s for s in forged["steps"] if s["rule"] == "VERDICT-T1")["certificate"]["premises"]:
        if premise["rule"] == "PAT-LAYERS":
            premise["facts"].update(layers=1, least=True)
    report = verify(forged)
    assert not report.ok
    assert any(s.id == target["id"] and s.outcome == REJECTED and "one layer does not suffice" in s.reason
               for s in report.steps), [(s.id, s.outcome, s.reason) for s in report.steps]
