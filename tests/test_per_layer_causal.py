"""Per-layer causal patterns checked for causal targets (docs/theory.md §21.5): prefix reach within D_c layers and
the least m by causal view witnesses. Checked a second way: an independent brute force over every permutation at
small n (its own reach, view sets and witness condition), and, for one pattern repeated in every layer, the
single-pattern engine of §14 (graphs/receptive.py), which shares no code with the per-layer decision."""
from __future__ import annotations

import copy
import itertools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import uapcheck  # noqa: E402
from certificates import certificate_of  # noqa: E402

from uapcheck.errors import UapError  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402
from uapcheck.verifier.check import REJECTED, VERIFIED  # noqa: E402


def source(patterns: str, tokens: int, kind: str = "periodic", extra: str = "") -> str:
    return (f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {kind} {{ {patterns} }}\n}}\n"
            f"tokens {tokens}\ntarget causal\n{extra}")


# ----------------------------------------------------------------------------------------------
# The brute force: its own arcs for the few patterns used here, its own reach and views


def arcs(name: str, n: int) -> set:
    """(j, i): query i attends to key j, every position to itself; 1-based."""
    out = {(i, i) for i in range(1, n + 1)}
    if name == "causal":
        out |= {(j, i) for i in range(1, n + 1) for j in range(1, i)}
    elif name.startswith("win"):  # causal & window(w)
        w = int(name[3:])
        out |= {(j, i) for i in range(1, n + 1) for j in range(max(1, i - w), i)}
    elif name.startswith("off"):  # offsets {-a, 0}
        a = int(name[3:])
        out |= {(i - a, i) for i in range(a + 1, n + 1)}
    return out


UAP_NAMES = {"causal": "causal", "win1": "causal & window(1)", "win2": "causal & window(2)", "off1": "offsets {-1, 0}",
             "off2": "offsets {-2, 0}"}


def brute_least(names: list, n: int, periodic: bool, top: int):
    """("UAP", m) for the least m ≤ top (the depth of a finite list) with every prefix reached and no permutation σ
    keeping the layered in-neighbourhoods of some position's view while moving its prefix; ("NOT-UAP", None) when the
    finite depth never works; ("OPEN", None) when a periodic list has a witness at every depth up to top."""
    def layer(ell):
        return arcs(names[(ell - 1) % len(names)], n)

    def ins(a, v):
        return frozenset(j for j, i in a if i == v)

    depth_max = top if periodic else len(names)
    for m in range(1, depth_max + 1):
        reach = {i: {i} for i in range(1, n + 1)}
        for ell in range(1, m + 1):
            a = layer(ell)
            reach = {i: set().union(*(reach[j] for j in ins(a, i))) for i in range(1, n + 1)}
        if any(reach[i] != set(range(1, i + 1)) for i in range(1, n + 1)):
            continue
        witness = False
        for i in range(1, n + 1):
            V = {m: {i}}
            for ell in range(m, 0, -1):
                V[ell - 1] = set(V[ell]).union(*(ins(layer(ell), v) for v in V[ell]))
            for perm in itertools.permutations(range(1, n + 1)):
                s = dict(zip(range(1, n + 1), perm))
                if all(s[k] == k for k in range(1, i + 1)):
                    continue
                if all(frozenset(s[u] for u in ins(layer(ell), v)) == ins(layer(ell), s[v])
                       for ell in range(1, m + 1) for v in V[ell]):
                    witness = True
                    break
            if witness:
                break
        if not witness:
            return ("UAP", m)
    return ("NOT-UAP", None) if not periodic else ("OPEN", None)


CASES = [["win1", "causal"], ["causal", "win1"], ["off1", "off2"], ["win2", "causal"], ["causal", "off1"],
         ["off1", "causal", "off2"], ["win1"], ["causal"], ["off2", "off1"]]


@pytest.mark.parametrize("names", CASES, ids=["-".join(c) for c in CASES])
@pytest.mark.parametrize("periodic", [True, False], ids=["periodic", "sequence"])
def test_the_least_count_is_the_brute_forces(names, periodic):
    for n in range(2, 6):
        kind = "periodic" if periodic else "sequence"
        text = source(", ".join(UAP_NAMES[x] for x in names), n, kind)
        result = uapcheck.check(text, "t.uap")
        truth = brute_least(names, n, periodic, top=8)
        if truth[0] == "OPEN":
            assert result.verdict in ("INCONCLUSIVE", "UAP"), (names, n, result.verdict)
            continue
        got = (result.verdict, result.layers if result.verdict == "UAP" else None)
        assert got == truth, (names, n, periodic, got, truth)
        if result.verdict == "UAP":
            assert result.target.least is True


@pytest.mark.parametrize("pattern", ["causal", "causal & window(1)", "causal & window(2)", "offsets {-2, -1, 0}",
                                     "offsets {-1, 0} + sinks(1)", "offsets {-3, -1, 0}", "offsets {-2, 0}"])
def test_one_pattern_in_every_layer_is_the_single_pattern_count(pattern):
    for n in range(2, 14):
        single = uapcheck.check(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"
                                f"tokens {n}\ntarget causal\n", "t.uap")
        layered = uapcheck.check(source(pattern, n), "t.uap")
        assert (layered.verdict, layered.layers) == (single.verdict, single.layers), (pattern, n)


def test_alternating_local_and_global_layers():
    """Gemma-style: a sliding window then the full causal mask: 2 layers, least (one layer never reaches x_1 from
    far positions); the full mask first needs 3 (after it, a window layer of width 1 cannot restore the order)."""
    r = uapcheck.check(source("causal & window(8), causal", 64), "t.uap")
    assert (r.verdict, r.layers, r.target.least) == ("UAP", 2, True)
    r = uapcheck.check(source("causal, causal & window(1)", 12), "t.uap")
    assert (r.verdict, r.layers) == ("UAP", 3)
    r = uapcheck.check(source("causal, causal & window(1)", 12, kind="sequence"), "t.uap")
    assert r.verdict == "NOT-UAP"
    assert [s for s in r.root.walk() if s.rule == "TGT-NOT-CAUSAL"][0].evidence["route"] == "view witness"


@pytest.mark.parametrize("patterns, kind", [("causal & window(8), causal", "periodic"),
                                            ("causal, causal & window(1)", "periodic"),
                                            ("causal, causal & window(1)", "sequence"),
                                            ("offsets {-2, 0}, offsets {-2, 0}", "periodic")])
def test_the_certificates_verify(patterns, kind):
    cert = certificate_of(source(patterns, 24, kind))
    report = verify(cert)
    assert report.ok and all(s.outcome == VERIFIED for s in report.steps), \
        [(s.rule, s.outcome, s.reason) for s in report.steps if s.outcome != VERIFIED]


def step(cert: dict, rule: str) -> dict:
    (found,) = [s for s in cert["steps"] if s["rule"] == rule]
    return found


def outcome(cert: dict, rule: str) -> str:
    (line,) = [s for s in verify(cert).steps if s.rule == rule]
    return line.outcome


def test_forged_counts_and_witnesses_are_rejected():
    cert = certificate_of(source("causal, causal & window(1)", 12))
    forged = copy.deepcopy(cert)
    step(forged, "SEQ-CAUSAL-LAYERS")["data"]["layers"] = 2  # a witness exists at depth 2
    assert outcome(forged, "SEQ-CAUSAL-LAYERS") == REJECTED
    forged = copy.deepcopy(cert)
    wit = step(forged, "SEQ-CAUSAL-LAYERS")["data"]["causal view witness"]
    wit["permutation"] = list(range(1, 13))  # the identity moves nothing
    assert outcome(forged, "SEQ-CAUSAL-LAYERS") == REJECTED
    for text in (source("causal, causal & window(1)", 12), source("causal & window(2), causal", 12)):
        forged = copy.deepcopy(certificate_of(text))
        reach = step(forged, "SEQ-CAUSAL-REACH")
        for key, box in (("depth", reach["data"]), ("D_c", reach["evidence"])):
            box[key] -= 1  # one layer fewer than the prefixes need
        assert outcome(forged, "SEQ-CAUSAL-REACH") == REJECTED
    not_uap = certificate_of(source("causal, causal & window(1)", 12, kind="sequence"))
    forged = copy.deepcopy(not_uap)
    step(forged, "TGT-NOT-CAUSAL")["data"]["permutation"] = list(range(1, 13))
    assert outcome(forged, "TGT-NOT-CAUSAL") == REJECTED


def test_a_layer_that_reads_a_later_position_is_not_analysed():
    r = uapcheck.check(source("window(1), causal", 12), "t.uap")
    assert r.verdict == "INCONCLUSIVE"
    assert "later position" in str(r.root.claim)


def test_receptive_targets_and_positions_stay_refused():
    for extra in ("", "positional absolute\n"):
        text = source("causal & window(1), causal", 8).replace("target causal", "target receptive" if not extra
                                                                 else "target causal") + extra
        with pytest.raises(UapError):
            uapcheck.check(text, "t.uap")
