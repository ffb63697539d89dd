"""Per-layer causal interval heads at real sizes (docs/theory.md §21.6, Theorem F121): the arithmetic reach and least
count against §21.5's rooted-view engine (which shares no code with it) for random sequences at every n tried up to
200, the transposition witnesses by the definition and on the engine's arcs, the closed forms it gives, the catalog's
real-size decoders, the verifier's checks (and forged certificates rejected), and the time of the 32,768-token file.
"""
from __future__ import annotations

import copy
import functools
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import uapcheck  # noqa: E402

from uapcheck.graphs.layers_causal import (causal_least_layers, causal_witness_holds, decide_causal_depth,  # noqa: E402
                                           prefix_reach)
from uapcheck.graphs.layers_intervals import (interval_layers, interval_least, interval_reach,  # noqa: E402
                                              interval_witness, witness_holds)
from uapcheck import certfile  # noqa: E402
from uapcheck.parse import parse_source  # noqa: E402
from uapcheck.rules.layers import build_sequence, layer_patterns  # noqa: E402
from uapcheck.rules.layers_causal import SEARCH_PERIODS  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402
from uapcheck.verifier.check import REJECTED, VERIFIED  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HEADS = ["causal", "causal & window(1)", "causal & window(2)", "causal & window(3)", "causal & window(5)",
         "causal & window(9)", "offsets {-1, 0}", "offsets {0}", "offsets {-2, -1}",
         "causal & window(2) + offsets {-4, -3, -2, -1}"]


def text(heads: list, n: int, kind: str, extra: str = "") -> str:
    blocks = "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {kind} {{ {', '.join(p)} }}\n}}\n"
                     for p in heads)
    return blocks + f"tokens {n}\ntarget causal\n{extra}"


@functools.cache
def _derived(source: str) -> tuple:
    """uapcheck.check of the text and its certificate's JSON, derived once per file's run (a Result is frozen; each
    reader parses its own copy of the certificate): several tests read the same 2,048-token files."""
    result = uapcheck.check(source, "t.uap")
    return result, json.dumps(certfile.build(result, source))


def checked(source: str):
    return _derived(source)[0]


def certificate_of(source: str) -> dict:
    """The certificate of a `.uap` text, through JSON as `--certificate` writes it (tests/certificates.py's, shared)."""
    return json.loads(_derived(source)[1])


def both(heads: list, n: int, kind: str):
    """(the engine's (D_c, missing, least or None, its reason), the arithmetic's, the interval layers, limit)."""
    spec = parse_source(text(heads, n, kind))
    seq = build_sequence(spec)
    limit = seq.depth
    per_layer, periodic = layer_patterns(spec)
    L = interval_layers(per_layer, periodic, n)
    assert L is not None
    reach, ar = prefix_reach(seq, limit), interval_reach(L, limit)
    assert (reach.depth, reach.missing) == (ar.depth, ar.missing), (heads, kind, n)
    if reach.depth is None:
        return seq, L, None, None, None
    top = limit if limit is not None else reach.depth + SEARCH_PERIODS * seq.period + 2
    return seq, L, reach.depth, causal_least_layers(seq, reach.depth, top), interval_least(L, reach.depth, limit)


def random_cases(seed: int, count: int, top_n: int):
    rng = random.Random(seed)
    for _ in range(count):
        kind = rng.choice(["periodic", "sequence"])
        length = rng.randint(1, 5)
        heads = [[rng.choice(HEADS) for _ in range(length if kind == "sequence" else rng.randint(1, 3))]
                 for _ in range(rng.choice([1, 1, 2, 3]))]
        yield heads, rng.randint(2, top_n), kind


def compare(heads, n, kind) -> str:
    seq, L, depth, engine, arith = both(heads, n, kind)
    if depth is None:
        return "unreached"
    if engine.reason:  # the engine's work limit: its decision at the two depths that matter, without the limit
        m = arith.layers if arith.layers is not None else seq.depth
        assert decide_causal_depth(seq, m).sufficient is (arith.layers is not None), (heads, kind, n)
        if arith.layers is not None and m > depth:
            assert decide_causal_depth(seq, m - 1).sufficient is False, (heads, kind, n)
        return "by the engine's depth decision"
    if engine.layers is None and seq.depth is None:
        # the engine searches a periodic Φ up to D_c + 2p + 2 only; the arithmetic decides beyond
        assert arith.layers is not None and arith.layers > engine.top
        return "beyond the engine's search"
    assert engine.layers == arith.layers, (heads, kind, n, depth, engine.layers, arith.layers)
    w = arith.witness
    if w is not None:
        perm = list(range(1, n + 1))
        perm[w.j - 1], perm[w.j] = w.j + 1, w.j
        assert witness_holds(L, w.position, w.depth, w.j)
        assert causal_witness_holds(seq, perm, w.position, w.depth)
    if arith.layers is None:
        return "whole-depth witness"
    return "least = D_c" if arith.layers == depth else "more than D_c"


def test_the_arithmetic_agrees_with_the_rooted_views_at_small_n():
    seen: dict = {}
    for heads, n, kind in random_cases(5, 260, 40):
        got = compare(heads, n, kind)
        seen[got] = seen.get(got, 0) + 1
    # every outcome occurs
    assert {"unreached", "least = D_c", "more than D_c", "whole-depth witness"} <= set(seen), seen


def test_the_arithmetic_agrees_with_the_rooted_views_up_to_200():
    for heads, n, kind in random_cases(6, 16, 200):
        compare(heads, n, kind)
    assert compare([["causal", "causal & window(1)"]], 120, "periodic") == "by the engine's depth decision"
    compare([["causal & window(9)", "causal & window(3)"], ["causal", "offsets {0}"]], 110, "periodic")


def layers_of(pattern_list: list, n: int, kind: str = "periodic"):
    spec = parse_source(text([pattern_list], n, kind))
    per_layer, periodic = layer_patterns(spec)
    L = interval_layers(per_layer, periodic, n)
    reach = interval_reach(L, L.depth)
    return L, reach, interval_least(L, reach.depth, L.depth)


@pytest.mark.parametrize("w", [1, 2, 3, 5, 8])
def test_the_window_in_every_layer_gives_the_single_pattern_count(w):
    """⌈(n − 1)/w⌉, except 2 when 3 ≤ n ≤ w + 1 (§21.6), for every n ≤ 60, and §14's single-pattern engine agrees
    at the lengths tried."""
    for n in range(2, 61):
        _, reach, least = layers_of([f"causal & window({w})"], n)
        want = 2 if 3 <= n <= w + 1 else -(-(n - 1) // w)
        assert (reach.depth, least.layers) == (-(-(n - 1) // w), want), (w, n)
    for n in (2, 3, w + 1, w + 2, 2 * w + 3, 40):
        single = uapcheck.check(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern causal & window({w})\n}}\n"
                                f"tokens {n}\ntarget causal\n", "t.uap")
        _, _, least = layers_of([f"causal & window({w})"], n)
        assert (single.verdict, single.layers) == ("UAP", least.layers), (w, n)


@pytest.mark.parametrize("w", [1, 2, 4, 7])
def test_window_then_global_needs_two_layers_from_three_tokens(w):
    """`periodic { causal & window(w), causal }`: 2 layers, least, for every n ≥ 3 (1 at n = 2), against the
    rooted-view engine at every n ≤ 60."""
    for n in range(2, 61):
        _, reach, least = layers_of([f"causal & window({w})", "causal"], n)
        assert least.layers == (1 if n == 2 else 2), (w, n)
        if n <= 40 or n % 10 == 0:
            _, _, _, engine, _ = both([[f"causal & window({w})", "causal"]], n, "periodic")
            assert engine.layers == least.layers, (w, n)


def test_the_full_mask_then_a_window_of_one_needs_three_layers_from_four_tokens():
    assert layers_of(["causal", "causal & window(1)"], 3)[2].layers == 2  # depth 2's witness needs n ≥ 4
    for n in (4, 12, 2048, 131_072, 1_048_576):
        L, reach, least = layers_of(["causal", "causal & window(1)"], n)
        assert (reach.depth, least.layers) == (1, 3)
        assert (least.witness.position, least.witness.j) == (n, n - 3)
    assert interval_witness(layers_of(["causal", "causal & window(1)"], 9)[0], 1).j == 7


def rules(result) -> dict:
    return {s.rule: s for s in result.root.walk()}


@pytest.mark.parametrize("name, layers", [("gemma2_decoder_8k.uap", 2), ("gemma3_decoder_32k.uap", 6),
                                          ("mistral_sliding_window_32k.uap", 8)])
def test_the_real_size_decoders_of_the_catalog(name, layers):
    path = ROOT / "catalog" / name
    r = uapcheck.check(path.read_text(), str(path))
    assert (r.verdict, r.layers, r.expect_holds) == ("UAP", layers, True)
    found = rules(r)
    step = found.get("SEQ-CAUSAL-INTERVALS") or found["TGT-LAYERS"]
    assert step.evidence["least"] is True
    if "mistral" not in name:
        assert step.evidence["D_c"] == layers
    report = verify(certificate_of(path.read_text()))
    assert report.ok and all(s.outcome == VERIFIED for s in report.steps), \
        [(s.rule, s.outcome, s.reason) for s in report.steps if s.outcome != VERIFIED]


@pytest.mark.parametrize("n, layers", [(131_072, 6), (1_048_576, 6)])
def test_gemma3_at_its_long_contexts(n, layers):
    source = (ROOT / "catalog" / "gemma3_decoder_32k.uap").read_text().replace("tokens 32768", f"tokens {n}")
    r = uapcheck.check(source, "t.uap")
    assert (r.verdict, r.layers) == ("UAP", layers)


def test_beyond_the_engine_outcomes_and_their_certificates():
    cases = [("periodic", ["causal", "causal & window(1)"], "UAP", 3),
             ("sequence", ["causal", "causal & window(1)"], "NOT-UAP", None),
             ("sequence", ["causal & window(4)", "causal & window(4)"], "NOT-UAP", None),
             ("periodic", ["offsets {0}", "offsets {0}"], "NOT-UAP", None),
             ("periodic", ["causal & window(3000)", "causal & window(2) + offsets {-5, -4, -3, -2, -1}"], "UAP", 3)]
    for kind, pats, verdict, layers in cases:
        source = text([pats], 2048, kind)
        r = checked(source)
        assert (r.verdict, r.layers if verdict == "UAP" else None) == (verdict, layers), (kind, pats)
        report = verify(certificate_of(source))
        assert report.ok and all(s.outcome == VERIFIED for s in report.steps), \
            [(s.rule, s.outcome, s.reason) for s in report.steps if s.outcome != VERIFIED]


@pytest.mark.parametrize("n", [120, 500])
def test_the_arithmetic_takes_over_where_the_rooted_views_stop(n):
    """At these lengths the rooted views exceed their work limit (the full mask's views), which left the file
    INCONCLUSIVE; the interval route decides it: 3 layers, least, verified."""
    source = text([["causal", "causal & window(1)"]], n, "periodic")
    r = checked(source)
    assert (r.verdict, r.layers) == ("UAP", 3)
    assert "SEQ-CAUSAL-INTERVALS" in rules(r) and "SEQ-CAUSAL-LAYERS" not in rules(r)
    report = verify(certificate_of(source))
    assert report.ok and all(s.outcome == VERIFIED for s in report.steps), \
        [(s.rule, s.outcome, s.reason) for s in report.steps if s.outcome != VERIFIED]


def test_heads_outside_the_class_stay_undecided_above_the_engine():
    for pats in (["window(4096)", "causal"], ["offsets {-2, 0}", "causal"]):
        r = uapcheck.check(text([pats], 8192, "periodic"), "t.uap")
        assert r.verdict == "INCONCLUSIVE", pats
        assert "SEQ-CAUSAL-INTERVALS" not in rules(r)
    # sinks are not interval heads: Theorem F128 (§21.9) decides them, not F121
    r = uapcheck.check(text([["causal & window(8) + sinks(2)", "causal"]], 8192, "periodic"), "t.uap")
    assert (r.verdict, r.layers) == ("UAP", 2)
    assert "SEQ-CAUSAL-INTERVALS" not in rules(r) and "SEQ-CAUSAL-SINKS" in rules(r)


def step_of(cert: dict, rule: str) -> dict:
    (found,) = [s for s in cert["steps"] if s["rule"] == rule]
    return found


def outcome(cert: dict, rule: str) -> str:
    """The verifier's outcome for the step of this rule, re-checking that step alone (`verify(..., only=...)`, as
    certificates.rejects does: a step's check reads the certificate and the input, never another step's outcome).
    The unforged certificates are verified whole by the tests above."""
    (line,) = [s for s in verify(cert, only={s["id"] for s in cert["steps"] if s["rule"] == rule}).steps
               if s.rule == rule]
    return line.outcome


def test_forged_counts_reaches_flags_and_witnesses_are_rejected():
    cert = certificate_of(text([["causal", "causal & window(1)"]], 2048, "periodic"))
    assert outcome(cert, "SEQ-CAUSAL-INTERVALS") == VERIFIED

    def forged(edit):
        c = copy.deepcopy(cert)
        edit(step_of(c, "SEQ-CAUSAL-INTERVALS"))
        return outcome(c, "SEQ-CAUSAL-INTERVALS")

    def fewer(s):  # a witness exists at depth 2
        s["data"]["layers"] = s["evidence"]["layers"] = 2

    def more(s):  # 4 layers suffice but are not least (no witness at depth 3)
        s["data"]["layers"] = s["evidence"]["layers"] = 4
        s["data"]["causal view witness"]["depth"] = 3

    def not_least(s):
        s["data"]["least"] = False

    def reach(s):  # D_c is 1, not 2
        s["data"]["depth"] = s["evidence"]["D_c"] = 2

    def pair(s):
        s["data"]["i"] = 1

    def witness(s):  # 2047 is read by the window layer at 2048, 2046 is not
        s["data"]["causal view witness"]["transposition"] = [2046, 2047]

    def position(s):
        s["data"]["causal view witness"]["position"] = 2047

    for edit in (fewer, more, not_least, reach, pair, witness, position):
        assert forged(edit) == REJECTED, edit.__name__

    g2 = certificate_of((ROOT / "catalog" / "gemma2_decoder_8k.uap").read_text())
    c = copy.deepcopy(g2)
    s = step_of(c, "SEQ-CAUSAL-INTERVALS")
    s["data"]["depth"] = s["evidence"]["D_c"] = 1  # one window layer does not reach x_1 from position 8,192
    assert outcome(c, "SEQ-CAUSAL-INTERVALS") == REJECTED
    c = copy.deepcopy(g2)
    s = step_of(c, "SEQ-CAUSAL-INTERVALS")
    s["data"]["layers"] = s["evidence"]["layers"] = 1
    assert outcome(c, "SEQ-CAUSAL-INTERVALS") == REJECTED

    not_uap = certificate_of(text([["causal", "causal & window(1)"]], 2048, "sequence"))
    c = copy.deepcopy(not_uap)
    step_of(c, "TGT-NOT-CAUSAL")["data"]["j"] = 2046  # 2047 is read by the window layer at 2048
    assert outcome(c, "TGT-NOT-CAUSAL") == REJECTED
    unreached = certificate_of(text([["causal & window(4)", "causal & window(4)"]], 2048, "sequence"))
    c = copy.deepcopy(unreached)
    step_of(c, "TGT-NOT-CAUSAL")["data"]["i"] = 9  # x_1 reaches position 9 within the two layers
    assert outcome(c, "TGT-NOT-CAUSAL") == REJECTED


def test_the_verifier_reads_the_heads_and_confirms_them_on_arcs():
    from uapcheck.verifier.causal_intervals import NotIntervals, build
    iv = build(parse_source(text([["causal & window(3)", "causal + offsets {-1, 0}"], ["offsets {-2, -1}"]],
                                 5000, "periodic")))
    assert iv.rows == [[3, 2], [float("inf"), 2]] and iv.limit is None
    for bad in (["offsets {-2, 0}"], ["window(2)"], ["causal & window(2) + sinks(1)"], ["causal & dilated(2, 2)"]):
        with pytest.raises(NotIntervals):
            build(parse_source(text([bad], 5000, "periodic")))


def test_the_32k_file_takes_well_under_five_times_a_bare_sympy_import():
    def clock(args) -> float:
        best = float("inf")
        for _ in range(2):
            t0 = time.perf_counter()
            subprocess.run(args, check=True, capture_output=True, cwd=ROOT)
            best = min(best, time.perf_counter() - t0)
        return best
    base = clock([sys.executable, "-c", "import sympy"])
    took = clock([sys.executable, "-m", "uapcheck", "--no-cache", "catalog/gemma3_decoder_32k.uap"])
    assert took < 5 * base + 1.0, (took, base)


@pytest.mark.parametrize("budget, verdict, layers", [(1, "NOT-UAP", None), (2, "NOT-UAP", None), (3, "UAP", 3),
                                                     (5, "UAP", 3)])
def test_layer_budgets_cut_the_interval_layers(budget, verdict, layers):
    """`layers M` on `periodic { causal, causal & window(1) }` at 2,048 tokens: witnesses at depths 1 and 2 (the
    whole depth of budgets 1 and 2: NOT-UAP), none from 3 on; each certificate verified."""
    source = text([["causal", "causal & window(1)"]], 2048, "periodic", f"layers {budget}\n")
    r = checked(source)
    assert (r.verdict, r.layers if verdict == "UAP" else None) == (verdict, layers)
    if verdict == "NOT-UAP":
        assert rules(r)["TGT-NOT-CAUSAL"].evidence["route"] == "interval witness"
    report = verify(certificate_of(source))
    assert report.ok and all(s.outcome == VERIFIED for s in report.steps), \
        [(s.rule, s.outcome, s.reason) for s in report.steps if s.outcome != VERIFIED]


def test_a_budget_below_the_reach_is_unreached():
    source = (ROOT / "catalog" / "gemma2_decoder_8k.uap").read_text().replace("tokens 8192", "tokens 8192\nlayers 1")
    r = checked(source)
    assert r.verdict == "NOT-UAP"
    assert rules(r)["TGT-NOT-CAUSAL"].evidence["witness"] == {"i": 4098, "j": 1, "target": "F(X)_4098 = x_1"}
    cert = certificate_of(source)
    assert verify(cert).ok
    forged = copy.deepcopy(cert)
    step_of(forged, "TGT-NOT-CAUSAL")["data"]["i"] = 4097  # x_1 reaches 4097 through the window
    assert outcome(forged, "TGT-NOT-CAUSAL") == REJECTED
