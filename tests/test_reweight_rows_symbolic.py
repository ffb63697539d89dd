"""Lemma T (docs/theory.md §4): a reweight row of both signs at a symbolic n. On a local pattern (its arcs at every
length are one relation on the positive integers cut to [1, n], with j ≤ i + R) row i sees the same keys K_i at
every n ≥ max K_i, so Lemma Q's witness at that length holds at every such n: the verdict is ILL-POSED for n ≥ max K_i,
and the lengths below are each decided at that n. Checked a second way: the rows' keys by brute force at many
lengths, the concrete engine at `tokens N` for each N, and the verifier's own re-derivation, which rejects tampered
certificates."""
from __future__ import annotations

import hashlib
import json

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.graphs.build import build_graph
from uapcheck.parse import parse_source
from uapcheck.rules.reweight_rows import reach
from uapcheck.verifier import REJECTED, VERIFIED, verify
from uapcheck.verifier import patterns as vpatterns
from uapcheck.verifier.rules_kernel import _local_reach


def _text(tokens, pattern: str, reweight: str, kernel: str = "exp(x . y)") -> str:
    return (f"tokens {tokens}\nattention {{\n  kernel k(x, y) = {kernel}\n  pattern {pattern}\n"
            f"  reweight c(i, j) = {reweight}\n}}\n")


def _check(tokens, pattern, reweight, kernel="exp(x . y)"):
    return uapcheck.check(_text(tokens, pattern, reweight, kernel), "case.uap")


def _certificate(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _outcomes(cert: dict) -> dict:
    return {s.rule: s.outcome for s in verify(cert).steps}


def test_causal_one_plus_j_minus_i_is_ill_posed_from_three_on():
    result = _check("n", "causal", "1 + j - i")
    assert result.verdict == "ILL-POSED"
    assert str(result.root.facts["range"]) == "n >= 3"
    below = {r.n: r.verdict.value for r in result.root.facts["below_range"]}
    assert below == {1: "UAP", 2: "NOT-UAP"}
    wp = next(s for s in result.root.walk() if s.rule == "WP-POSITIVE")
    assert wp.status == "refuted" and wp.evidence["mixed row"]["row"] == 3
    assert wp.evidence["mixed row"]["from n"] == 3 and wp.evidence["mixed row"]["visible"] == [1, 2, 3]


@pytest.mark.parametrize("pattern,reweight,start", [
    ("causal", "1 + j - i", 3), ("causal", "2 + j - i", 4), ("causal", "cos(pi * (i - j) / 2)", 3),
    ("window(2)", "1 + j - i", 5), ("blocks(3)", "j - 2", 3), ("offsets {-2, -1}", "1 + j - i", 3),
])
def test_the_symbolic_range_agrees_with_the_concrete_engine(pattern, reweight, start):
    """Second check: `tokens N` for each N up to start + 5, decided by the concrete engine (its own rows at N),
    is ILL-POSED at every N ≥ start, as the symbolic verdict states; below the start the symbolic verdict lists the
    concrete one."""
    symbolic = _check("n", pattern, reweight)
    assert symbolic.verdict == "ILL-POSED" and str(symbolic.root.facts["range"]) == f"n >= {start}"
    below = {r.n: r.verdict.value if r.verdict is not None else None for r in symbolic.root.facts["below_range"]}
    assert sorted(below) == list(range(1, start))
    for n in range(1, start + 6):
        concrete = _check(n, pattern, reweight)
        if n >= start:
            assert concrete.verdict == "ILL-POSED", n
        else:
            assert concrete.verdict == below[n], n


LOCAL = ["causal", "window(2)", "window(1)", "offsets {-3, 1}", "offsets {-1, 0}", "dilated(2, 3)", "blocks(3)",
         "blocks(4) + window(1)", "causal + offsets {2}"]


def _pattern(text: str):
    return parse_source(_text("n", text, "1"), "p.uap").heads[0].pattern


@pytest.mark.parametrize("text", LOCAL)
def test_a_local_patterns_rows_are_fixed_from_their_last_key_on(text):
    """Brute force: row i's keys at every n from i to 40 are its keys at i + R cut to [1, n] — the engine's graph and
    the verifier's arcs both; the engine's R and the verifier's agree."""
    p = _pattern(text)
    r = reach(p)
    assert r is not None and r == _local_reach(p)
    for i in range(1, 8):
        graph = build_graph(p, i + r)
        full = {i} | {code // (i + r) + 1 for code in graph.codes if code % (i + r) + 1 == i} \
            if not graph.complete else set(range(1, i + r + 1))
        for n in range(i, 41):
            arcs = vpatterns.head_arcs(p, n)
            keys = {j for j, q in arcs if q == i} | {i}
            assert keys == {j for j in full if j <= n}, (text, i, n)
            assert max(full) <= i + r


@pytest.mark.parametrize("text", ["global(1)", "window(2) cyclic", "strided(2)", "causal + global(1)", "full"])
def test_patterns_whose_rows_change_with_n_are_not_local(text):
    p = _pattern(text)
    assert reach(p) is None and _local_reach(p) is None


def test_non_local_patterns_keep_their_previous_verdict():
    assert _check("n", "causal + global(1)", "1 + j - i").verdict != "ILL-POSED"


def test_a_dense_head_is_decided_by_the_ratio_form_instead():
    """`full` is not local, but a dense row sees every key: row n has c(n, 1) = 2 − n < 0 and c(n, n) = 1 > 0 from
    n = 3 on, and exp's ratio takes every positive value (Lemma Q's ratio form, docs/theory.md §4)."""
    result = _check("n", "full", "1 + j - i")
    assert result.verdict == "ILL-POSED"
    assert "ratio row" in next(s for s in result.root.walk() if s.rule == "WP-POSITIVE").evidence
    from uapcheck.show import show_condition
    assert show_condition(result.root.facts["range"]) == "n ≥ 3"


def test_the_verifier_re_derives_the_row_and_the_range():
    cert = _certificate(_text("n", "causal", "1 + j - i"))
    out = _outcomes(cert)
    assert out["WP-POSITIVE"] == VERIFIED and out["VERDICT-T1"] == VERIFIED


def _tamper(cert: dict, rule: str, edit) -> dict:
    cert = json.loads(json.dumps(cert))
    step = next(s for s in cert["steps"] if s["rule"] == rule)
    edit(step)
    return cert


def test_tampered_certificates_are_rejected():
    cert = _certificate(_text("n", "causal", "1 + j - i"))

    def earlier(step):  # the row claimed from n = 2 on, where row 3 does not exist
        step["evidence"]["mixed row"]["from n"] = 2
        step["evidence"]["mixed row"]["n"] = 2
    assert _outcomes(_tamper(cert, "WP-POSITIVE", earlier))["WP-POSITIVE"] == REJECTED

    def fewer_keys(step):
        row = step["evidence"]["mixed row"]
        row["visible"] = [1, 3]
        for point in ("positive at", "negative at"):
            row[point]["keys"].pop("2")
    assert _outcomes(_tamper(cert, "WP-POSITIVE", fewer_keys))["WP-POSITIVE"] == REJECTED

    def every_n(step):  # ILL-POSED stated for every n
        step["data"].pop("range")
        step["data"]["lengths"] = []
    assert _outcomes(_tamper(cert, "VERDICT-T1", every_n))["VERDICT-T1"] == REJECTED

    def lower(step):  # ILL-POSED from n = 2 on
        step["data"]["range"] = {"rel": ">=", "args": [{"sym": "n"}, 2]}
        step["data"]["lengths"] = step["data"]["lengths"][:1]
    assert _outcomes(_tamper(cert, "VERDICT-T1", lower))["VERDICT-T1"] == REJECTED


def test_a_non_local_pattern_under_a_symbolic_mixed_row_is_rejected():
    """The certificate of `causal` with its input's pattern replaced by `causal + global(1)` (hash recomputed): row 3
    then sees every key at every n, so the verifier's own reading finds no fixed row."""
    cert = _certificate(_text("n", "causal", "1 + j - i"))
    text = _text("n", "causal + global(1)", "1 + j - i")
    cert["input"]["text"] = text
    cert["input"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert _outcomes(cert).get("WP-POSITIVE") == REJECTED


# WP-POSITIVE's third and fourth forms need two keys per row (docs/theory.md §4): a symbolic UAP resting on them
# states the range n ≥ 2, and n = 1 is decided by its own derivation where the range is a condition on n alone.

def _dense(tokens, kernel: str, dim: str = "") -> str:
    return f"tokens {tokens}\n{dim}attention {{\n  kernel k(x, y) = {kernel}\n}}\n"


def test_a_uap_on_the_third_form_states_n_at_least_two():
    result = uapcheck.check(_dense("n", "(x . y)^2 * exp(x . y)"), "case.uap")
    assert result.verdict == "UAP"
    assert "n ≥ 2" in result.group.condition and "d ≥ 2" in result.group.condition
    wp = next(s for s in result.root.walk() if s.rule == "WP-POSITIVE")
    assert str(wp.facts["length_range"]) == "n >= 2"


def test_the_fourth_form_with_a_fixed_dimension_lists_n_equal_one():
    result = uapcheck.check(_dense("n", "|x - y|^2 * exp(x . y)", "dim 3\n"), "case.uap")
    assert result.verdict == "UAP" and result.group.condition == "n ≥ 2"
    below = {r.n: r.verdict.value for r in result.root.facts["below_range"]}
    assert below == {1: "INCONCLUSIVE"}
    # second check: `tokens 1` on its own
    assert uapcheck.check(_dense(1, "|x - y|^2 * exp(x . y)", "dim 3\n"), "case.uap").verdict == "INCONCLUSIVE"
    assert uapcheck.check(_dense(2, "|x - y|^2 * exp(x . y)", "dim 3\n"), "case.uap").verdict == "UAP"


def test_forms_that_hold_at_every_n_state_no_length_range():
    result = uapcheck.check(_dense("n", "exp(x . y)"), "case.uap")
    assert result.verdict == "UAP" and not (result.group.condition or "").count("n ≥ 2")
    assert not any(s.fact("length_range") is not None for s in result.root.walk())


@pytest.mark.parametrize("kernel,dim", [("(x . y)^2 * exp(x . y)", ""), ("|x - y|^2 * exp(x . y)", "dim 3\n")])
def test_the_verifier_requires_the_two_key_range(kernel, dim):
    cert = _certificate(_dense("n", kernel, dim))
    assert _outcomes(cert)["VERDICT-T1"] == VERIFIED

    def every_n(step):
        step["data"].pop("range", None)
        step["data"].pop("lengths", None)
    assert _outcomes(_tamper(cert, "VERDICT-T1", every_n))["VERDICT-T1"] == REJECTED


def test_a_row_expressed_in_n_is_refuted_at_symbolic_n_by_the_ratio_form():
    """Old L10 (g): row n of a dense head has factors n − 2 > 0 and −n < 0 for n ≥ 3 (`5 - 2 * j` at `tokens 5` is
    ILL-POSED); no fixed row of a local pattern carries it to a symbolic n, but Lemma Q's ratio form does (exp's ratio
    takes every positive value): ILL-POSED for n ≥ 3 (tests/test_reweight_dense_rows.py). With a kernel whose ratio is
    1 it is still not refuted at symbolic n, never UAP."""
    text = "tokens {}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  reweight c(i, j) = n - 2 * j\n}}\n"
    assert uapcheck.check(text.format(5).replace("n - 2", "5 - 2"), "case.uap").verdict == "ILL-POSED"
    assert uapcheck.check(text.format("n"), "case.uap").verdict == "ILL-POSED"
    flat = uapcheck.check(text.format("n").replace("exp(x . y)", "1 + (x . y)^2"), "case.uap")
    assert flat.verdict not in ("UAP", "ILL-POSED")


def test_a_refutation_at_every_n_is_preferred_to_one_from_a_first_length():
    text = ("tokens n\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern causal\n  reweight c(i, j) = 1 + j - i\n}\n"
            "attention {\n  kernel k(x, y) = exp(x . y) - 1/3\n}\n")
    result = uapcheck.check(text, "case.uap")
    assert result.verdict == "ILL-POSED" and result.root.facts.get("range") is None
    assert _outcomes(_certificate(text))["VERDICT-T1"] == VERIFIED
