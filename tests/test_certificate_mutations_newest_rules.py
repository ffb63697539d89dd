"""Forged certificates of the newest rules, each stating something false, rejected by `uapcheck verify`: the count,
the least flag, the range's start, the pieces below it, D_c and the group of Theorems F121 (SEQ-CAUSAL-INTERVALS),
F123 (SEQ-CAUSAL-FORM), F128 (SEQ-CAUSAL-SINKS, concrete and symbolic n), F135 and F140 (PAT-LAYERS on a labelled
window) and F136 (BIAS-LAYERS by the joint classes). tests/test_certificate_mutations.py samples its mutants from
every catalog certificate and changes none of these fields for these rules. The heads a step states it read (widths,
sinks, period, depth, n) are bound to the verifier's own reading too: they used to pass unread.

A mutant that states a weaker fact (a least count stated not least, a later start) is true and not listed here."""
from __future__ import annotations

import copy
import json
from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
from functools import lru_cache

import pytest

from certificates import certificate, certificate_of, verified_in_full_by_the_catalog_test  # tests/ is on sys.path

from uapcheck.verifier import REJECTED, verify

SINKS_ANY_N = ("tokens n\nattention {\n  kernel k(x, y) = exp(x . y)\n"
               "  pattern periodic { causal & window(3) + sinks(2), causal }\n}\ntarget causal\n")
# a layer of width 0 with sinks before the first of positive width: D_c layers, least, by F157's banded keys (the
# covering lemma gives one more; it was the covering count, not least, before F157)
SINKS_EARLY = ("tokens 2048\nattention {\n  kernel k(x, y) = exp(x . y)\n"
                   "  pattern periodic { offsets {0} + sinks(2), causal & window(64) + sinks(4), "
                   "causal & window(32) + sinks(4) }\n}\ntarget causal\n")

SINKS_PARAM_N = ("param k integer >= 1\nattention {\n  kernel k(x, y) = exp(x . y)\n"
                 "  pattern periodic { causal & window(3) + sinks(k), causal }\n}\ntokens 12\ntarget causal\n")
SINKS_PARAMS = ("param k integer >= 1\nparam w integer >= 1\nattention {\n  kernel k(x, y) = exp(x . y)\n"
                "  pattern periodic { causal & window(w) + sinks(k), causal }\n}\ntarget causal\n")


@lru_cache(maxsize=None)
def _source_text(name: str) -> str:
    return json.dumps(certificate(name) if name.endswith(".uap") else certificate_of(name))


@lru_cache(maxsize=None)
def _verified(name: str) -> bool:
    """The unforged certificate passes (some verdicts trust a step: not `ok`, but nothing rejected). A decisive catalog
    file's certificate is verified in full, no step trusted, by tests/test_verifier.py's catalog test."""
    if verified_in_full_by_the_catalog_test(name):
        return True
    report = verify(json.loads(_source_text(name)))
    return report.ok or not any(s.outcome == REJECTED for s in report.steps)


def _step(cert: dict, rule: str) -> int:
    return next(k for k, s in enumerate(cert["steps"]) if s["rule"] == rule)


def _change(cert: dict, rule: str, path: tuple, value) -> tuple:
    mutant = copy.deepcopy(cert)
    k = _step(mutant, rule)
    obj = mutant["steps"][k]["data"]
    for p in path[:-1]:
        obj = obj[p]
    obj[path[-1]] = value(obj[path[-1]])
    return mutant, mutant["steps"][k]["id"]


def _plus(d):
    return lambda v: v + d


def _true(_):
    return True


def _twice(v):
    return 2 * v


# (file or source, rule, path in the step's data, change, what the mutant claims)
MUTANTS = [
    ("gemma2_decoder_8k.uap", "SEQ-CAUSAL-INTERVALS", ("layers",), _plus(1), "3 layers, least"),
    ("gemma2_decoder_8k.uap", "SEQ-CAUSAL-INTERVALS", ("layers",), _plus(-1), "1 layer"),
    ("gemma2_decoder_8k.uap", "SEQ-CAUSAL-INTERVALS", ("depth",), _plus(-1), "D_c = 1"),
    ("gemma2_decoder_8k.uap", "SEQ-CAUSAL-INTERVALS", ("depth",), _plus(1), "D_c = 3"),
    ("gemma2_decoder_8k.uap", "SEQ-CAUSAL-INTERVALS", ("j",), _plus(4096), "a pair that is reached"),
    ("gemma3_decoder_any_length.uap", "SEQ-CAUSAL-FORM", ("layers",), _plus(1), "7 layers from the start on"),
    ("gemma3_decoder_any_length.uap", "SEQ-CAUSAL-FORM", ("layers",), _plus(-1), "5 layers from the start on"),
    ("gemma2_decoder_any_length.uap", "SEQ-CAUSAL-FORM", ("from",), _plus(-1), "a range one length too early"),
    ("gemma2_decoder_any_length.uap", "SEQ-CAUSAL-FORM", ("pieces", 0, "layers"), _plus(1), "2 layers at n ≤ 2"),
    ("gemma2_decoder_any_length.uap", "SEQ-CAUSAL-FORM", ("least",), lambda v: False, "F123's count not least"),
    ("window_sinks_global_32k.uap", "SEQ-CAUSAL-SINKS", ("layers",), _plus(-1), "1 layer"),
    ("window_sinks_global_32k.uap", "SEQ-CAUSAL-SINKS", ("D_c",), _plus(-1), "D_c = 1"),
    ("window_sinks_global_32k.uap", "SEQ-CAUSAL-SINKS", ("not within D_c − 1", "j"), lambda v: 1, "x_1 unreached"),
    (SINKS_EARLY, "SEQ-CAUSAL-SINKS", ("sufficiency",), lambda v: None, "F157's count by the covering lemma"),
    (SINKS_EARLY, "SEQ-CAUSAL-SINKS", ("layers",), _plus(1), "D_c + 1 stated least without a witness"),
    (SINKS_ANY_N, "SEQ-CAUSAL-SINKS", ("from",), _plus(-1), "F128 (e) from a length below N₀"),
    (SINKS_ANY_N, "SEQ-CAUSAL-SINKS", ("layers",), _plus(1), "3 layers, D_c = 2"),
    (SINKS_ANY_N, "SEQ-CAUSAL-SINKS", ("D_c",), _plus(1), "D_c = 3"),
    ("alternating_windows_any_length.uap", "SEQ-CAUSAL-FORM", ("widths", 0, 0), _plus(1), "a window one wider"),
    ("gemma2_decoder_any_length.uap", "SEQ-CAUSAL-FORM", ("periodic",), lambda v: False, "a finite list"),
    ("gemma2_decoder_any_length.uap", "SEQ-CAUSAL-FORM", ("param",), lambda v: None, "integer widths"),
    ("window_sinks_global_32k.uap", "SEQ-CAUSAL-SINKS", ("heads", 0, 0, 1), _plus(1), "five sinks"),
    ("window_sinks_global_32k.uap", "SEQ-CAUSAL-SINKS", ("n",), _plus(1), "another length"),
    (SINKS_ANY_N, "SEQ-CAUSAL-SINKS", ("heads", 0, 0, 0), _plus(1), "a window of width 4"),
    (SINKS_ANY_N, "SEQ-CAUSAL-SINKS", ("limit",), lambda v: 2, "a depth of 2"),
    ("window3_sinks2_global_any_length.uap", "TGT-VERDICT", ("below_range", 1, "layers"), _plus(1),
     "2 layers, least, at n = 2 (one suffices: no causal view witness at depth 1)"),
    ("window3_sinks2_global_any_length.uap", "TGT-VERDICT", ("below_range", 3, "layers"), _plus(-1),
     "1 layer at n = 4 (D_c = 1, but a causal view witness at depth 1)"),
    ("window3_sinks2_global_any_length.uap", "TGT-VERDICT", ("below_range", 4, "layers"), _plus(1),
     "3 layers, least, at n = 5"),
    ("longt5_local_512.uap", "PAT-LAYERS", ("layers",), _plus(-1), "4 layers"),
    ("longt5_local_512.uap", "PAT-LAYERS", ("layers",), _plus(1), "6 layers, least"),
    ("longt5_local_512.uap", "PAT-LAYERS", ("diameter",), _plus(1), "diameter 6"),
    ("longt5_local_512.uap", "SYM-AUT", ("order",), _twice, "a group of order 2"),
    ("longt5_local_any_length.uap", "PAT-LAYERS", ("from",), _plus(-1), "F140 at n = w + 1 (a complete window)"),
    ("longt5_local_any_length.uap", "VERDICT-T1", ("lengths", 0, "layers"), _plus(1), "2 layers at n = 1"),
    ("longt5_local_any_length.uap", "VERDICT-T1", ("lengths", 5, "order"), _twice, "a group of order 2 at n = 6"),
    ("t5_buckets_symmetric_head.uap", "BIAS-LAYERS", ("layers",), _plus(1), "2 layers, least"),
    ("t5_buckets_symmetric_head.uap", "SYM-DENSE", ("group",), lambda v: "reflection", "the reflection"),
]
if NIGHTLY:  # F136's joint classes re-enumerated at every length below F140's range
    MUTANTS.append(("longt5_local_any_length.uap", "VERDICT-T1", ("lengths", 127, "layers"), _plus(-1),
                    "1 layer at n = 128"))


@pytest.mark.parametrize("source, rule, path, value, claim", MUTANTS, ids=[m[4] for m in MUTANTS])
def test_a_forged_value_of_the_newest_rules_is_rejected(source, rule, path, value, claim):
    assert _verified(source)
    mutant, sid = _change(json.loads(_source_text(source)), rule, path, value)
    report = verify(mutant, only={sid})
    rejected = [s.id for s in report.steps if s.outcome == REJECTED]
    assert sid in rejected or report.problems, f"{claim}: accepted ({[(s.id, s.outcome) for s in report.steps]})"


def test_the_lengths_below_a_symbolic_sink_range_are_re_derived():
    """`tokens n`, `periodic { causal & window(3) + sinks(2), causal }`: the lengths n = 3…6 need two layers where
    the covering lemma does not give the count (at n ≤ 4 the window layer is the whole causal mask, D_c = 1) and n = 2
    one; the verifier re-derives them by its rooted views on the prefixes, so the certificate is `OK` (the lengths
    used to be trusted)."""
    report = verify(certificate("window3_sinks2_global_any_length.uap"))
    assert report.ok, [(s.id, s.outcome, s.reason) for s in report.steps if s.outcome != "verified"]
    verdict = next(s for s in report.steps if s.rule == "TGT-VERDICT")
    assert "rooted views on the prefixes" in verdict.reason


# The heads a sink step states with params, forged alike in its data and in its kernel block (which the block binding
# compares with the data): the values branch at a concrete n and F128 (e) with params used to read neither.
PARAM_READINGS = [
    (SINKS_PARAM_N, ("heads", 0, 0, 1), lambda v: 3, "three sinks where the file has k"),
    (SINKS_PARAM_N, ("heads", 0, 0, 0), lambda v: "k", "a window of k where the file has 3"),
    (SINKS_PARAMS, ("heads", 0, 0), lambda v: v[::-1], "window(k) + sinks(w)"),
    (SINKS_PARAMS, ("heads", 1, 0, 0), lambda v: "w", "a second layer of window w"),
    (SINKS_PARAMS, ("params", "k"), _plus(1), "k ≥ 2"),
]


@pytest.mark.parametrize("source, path, value, claim", PARAM_READINGS, ids=[m[3] for m in PARAM_READINGS])
def test_a_forged_reading_of_param_heads_is_rejected(source, path, value, claim):
    assert _verified(source)
    mutant, sid = _change(json.loads(_source_text(source)), "SEQ-CAUSAL-SINKS", path, value)
    step = next(s for s in mutant["steps"] if s["id"] == sid)
    step["certificate"][path[0]] = copy.deepcopy(step["data"][path[0]])
    report = verify(mutant, only={sid})
    outcome = next(s for s in report.steps if s.id == sid)
    assert outcome.outcome == REJECTED and "certificate block" not in outcome.reason, (claim, outcome.reason)


@pytest.mark.parametrize("name", ["t5_buckets_symmetric_head.uap", "gemma3_decoder_any_length.uap"])
def test_the_verdicts_count_and_group_are_bound(name):
    """The top-level count one higher or lower, and a group twice as large, are rejected (the LongT5 files are in
    tests/test_certificate_mutations.py's sample)."""
    cert = certificate(name)
    for change in ("layers+1", "layers-1", "order"):
        mutant = copy.deepcopy(cert)
        if change == "order":
            if not mutant.get("group"):
                continue
            mutant["group"]["order"] = 2 * int(mutant["group"]["order"])
        elif isinstance(mutant["layers"], int):
            mutant["layers"] += 1 if change == "layers+1" else -1
        else:
            mutant["layers"] = {"op": "+", "args": [1 if change == "layers+1" else -1, mutant["layers"]]}
        assert not verify(mutant).ok, (name, change)


BLOCK_MUTANTS = [
    ("gemma3_decoder_any_length.uap", "SEQ-CAUSAL-FORM", ("layers",), _plus(-1), "5 layers in the block"),
    ("gemma2_decoder_any_length.uap", "SEQ-CAUSAL-FORM", ("from",), _plus(-2), "a range from n = 1 in the block"),
    ("alternating_windows_any_length.uap", "SEQ-CAUSAL-FORM", ("least",), lambda v: False, "not least in the block"),
    ("window_sinks_global_32k.uap", "SEQ-CAUSAL-SINKS", ("layers",), _plus(1), "3 layers in the block"),
    (SINKS_ANY_N, "SEQ-CAUSAL-SINKS", ("from",), _plus(-3), "F128 (e) from n = 4 in the block"),
    ("gemma2_decoder_8k.uap", "SEQ-CAUSAL-INTERVALS", ("D_c",), _plus(-1), "D_c = 1 in the block"),
    ("gemma2_decoder_8k.uap", "SEQ-CAUSAL-INTERVALS", ("n",), _plus(1), "another length in the block"),
]


@pytest.mark.parametrize("source, rule, path, value, claim", BLOCK_MUTANTS, ids=[m[4] for m in BLOCK_MUTANTS])
def test_a_forged_value_in_the_kernel_block_is_rejected(source, rule, path, value, claim):
    """The kernel's certificate block of these steps states the checked data again: a value that differs is rejected
    (it used to pass, neither compared nor named on the `not certified` line)."""
    mutant = json.loads(_source_text(source))
    k = _step(mutant, rule)
    block = mutant["steps"][k]["certificate"]
    block[path[0]] = value(block[path[0]])
    report = verify(mutant, only={mutant["steps"][k]["id"]})
    assert any(s.outcome == REJECTED for s in report.steps), f"{claim}: accepted"


# a budget of 2 below the period of 3: the network's list is the first two layers, which no longer repeat (§21.2)
INTERVAL_WIDTHS = ("tokens 2000\nlayers 2\ntarget causal\nattention {\n  kernel k(x, y) = exp(x . y)\n"
                   "  pattern periodic { causal & window(900), causal & window(1200), causal & window(5) }\n}\n")


@pytest.mark.parametrize("source, field, value, claim", [
    ("gemma2_decoder_8k.uap", "widths", lambda v: [[w + 1 if isinstance(w, int) else w for w in row] for row in v],
     "every finite width one wider"),
    ("gemma2_decoder_8k.uap", "widths", lambda v: v[::-1], "the layers in the other order"),
    ("gemma2_decoder_8k.uap", "widths", lambda v: [*v, v[-1]], "one layer more per period"),
    ("gemma2_decoder_8k.uap", "periodic", lambda v: not v, "the list's repetition flipped"),
    (INTERVAL_WIDTHS, "widths", lambda v: [*v, [5]], "the list not cut at the depth"),
    (INTERVAL_WIDTHS, "periodic", lambda v: not v, "a cut list that repeats"),
])
def test_forged_interval_widths_in_the_f121_block_are_rejected(source, field, value, claim):
    """F121's block states the network's widths and whether they repeat; they are compared with the verifier's own
    reading of the input (they used to be named on the `not certified` line only, so a forged list passed `OK`)."""
    cert = json.loads(_source_text(source))
    k = _step(cert, "SEQ-CAUSAL-INTERVALS")
    assert verify(cert, only={cert["steps"][k]["id"]}).ok
    block = cert["steps"][k]["certificate"]
    block[field] = value(block[field])
    report = verify(cert, only={cert["steps"][k]["id"]})
    assert any(s.outcome == REJECTED for s in report.steps), f"{claim}: accepted"


def test_the_f121_blocks_widths_are_no_longer_named_as_not_compared():
    cert = json.loads(_source_text("gemma2_decoder_8k.uap"))
    report = verify(cert)
    assert report.ok and not any("widths" in u or "periodic" in u for u in report.unbound)
