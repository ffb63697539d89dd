"""The lengths below a verdict's stated range (docs/theory.md §12): when the verdict is stated by residue class of
n, every length 1 ≤ n that no stated class covers is decided by the derivation at that n (the concrete engine) and
stated with the verdict as typed data (the verdict step's fact `below_range`, JSON `below_range`), checked by the
kernel against each length's own derivation. Compared with the concrete engine at each such n."""
from __future__ import annotations

import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile, proof
from uapcheck.render import jsonout
from uapcheck.render.verdict_lines import headline
from uapcheck.rules.small_lengths import LengthVerdict, lengths_words, uncovered
from uapcheck.verifier import REJECTED, verify

HEADS = """tokens {n}
attention a {{
  kernel k(x, y) = exp(x . y)
  pattern window(2)
}}
attention b {{
  kernel k(x, y) = exp(x . y)
  pattern blocks(4)
}}
"""
JUMPS = """tokens {n}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern offsets {{0, 2}} cyclic
}}
"""
BLOCKS = """tokens {n}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern blocks(2) + strided(3)
}}
layers 3
"""
N = sympy.Symbol("n", integer=True, positive=True)


def _records(result):
    return result.root.facts.get("below_range", ())


@pytest.mark.parametrize("text, below", [(HEADS, list(range(1, 13))), (JUMPS, [1, 2]), (BLOCKS, list(range(1, 9)))])
def test_every_length_below_the_range_is_the_concrete_engine_s(text, below):
    result = uapcheck.check(text.format(n="n"), "t.uap")
    records = _records(result)
    assert [r.n for r in records] == below
    for r in records:
        concrete = uapcheck.check(text.format(n=r.n), "t.uap")
        assert r.allowed and r.verdict is not None and r.verdict.value == concrete.verdict
        if concrete.verdict == "UAP":
            assert r.layers == concrete.layers and r.group.order == concrete.group.order
            assert r.group.name == concrete.group.name


def test_the_headline_and_the_json_state_the_lengths():
    jumps = uapcheck.check(JUMPS.format(n="n"), "j.uap")
    assert headline(jumps).endswith("; NOT-UAP for n ≥ 3 and n even; UAP at n = 1; NOT-UAP at n = 2")
    out = json.loads(jsonout.dumps(jsonout.result_json(jumps)))
    assert [(r["n"], r["verdict"], r["layers"]) for r in out["below_range"]] == [(1, "UAP", 1), (2, "NOT-UAP", None)]
    heads = uapcheck.check(HEADS.format(n="n"), "h.uap")
    assert headline(heads).endswith("(for n ≥ 13); UAP at n = 1…12")


def test_a_verdict_for_one_bound_on_n_states_its_lengths_and_one_for_every_n_none():
    text = HEADS.format(n="n").replace("blocks(4)", "global(1)")
    result = uapcheck.check(text, "t.uap")  # UAP for n ≥ 8 (no classes): the lengths 1…7 each decided
    assert [r.n for r in _records(result)] == list(range(1, 8))
    dense = uapcheck.check(JUMPS.format(n="n").replace("offsets {0, 2} cyclic", "full"), "t.uap")
    assert dense.verdict == "UAP" and not _records(dense) and "below_range" not in jsonout.result_json(dense)


def test_a_range_in_the_parameters_is_stated_as_not_enumerated():
    from uapcheck.rules import small_lengths
    from uapcheck.parse import parse_source
    from uapcheck.groups import GroupInfo
    w = sympy.Symbol("w", integer=True, positive=True)
    spec = parse_source(HEADS.format(n="n"), "t.uap")
    group = GroupInfo("trivial", 1, (), "n ≥ 2·w + 3", sympy.And(N >= 2 * w + 3, sympy.Eq(sympy.Mod(N, 2), 0)))
    lengths, why = small_lengths.below_range(spec, proof.Verdict.UAP, group, 3, [])
    assert lengths == () and "parameters" in why


def test_uncovered_is_exact_and_finite():
    odd = sympy.And(N >= 3, sympy.Ne(sympy.Mod(N, 2), 0))
    even = sympy.And(N >= 3, sympy.Eq(sympy.Mod(N, 2), 0))
    assert uncovered([odd, even], N) == [1, 2]
    assert uncovered([N >= 13], N) == list(range(1, 13))
    assert uncovered([odd], N) is None  # the even class is never covered: not finitely many
    assert uncovered([sympy.true], N) == []
    # a brute-force comparison at every n ≤ 60
    conds = [sympy.And(N >= 7, sympy.Eq(sympy.Mod(N, 3), 1)), sympy.And(N >= 5, sympy.Ne(sympy.Mod(N, 3), 1))]
    want = [v for v in range(1, 61) if not any(bool(c.subs(N, v)) for c in conds)]
    assert uncovered(conds, N) == want == [1, 2, 3, 4]


def test_the_words_join_runs():
    rs = [LengthVerdict(k, proof.Verdict.UAP if k != 4 else proof.Verdict.NOT_UAP) for k in (1, 2, 3, 4, 5, 7)]
    assert lengths_words(rs) == "UAP at n = 1…3, 5, 7; NOT-UAP at n = 4"
    assert lengths_words([LengthVerdict(1, None, allowed=False, why="x"), LengthVerdict(2, None, why="y")]) == \
        "not allowed at n = 1; not decided at n = 2"


def test_the_kernel_checks_each_length_against_its_derivation():
    from uapcheck.rules.verdict import VerdictPremises
    result = uapcheck.check(JUMPS.format(n="n"), "j.uap")
    cert = result.root.certificate
    args = (cert.ffn, cert.heads, cert.structure, cert.group_step, cert.dim, proof.Verdict.UAP)
    VerdictPremises(*args, cert.lengths).check()
    (one, root1), (two, root2) = cert.lengths
    flipped = ((one, root1), (LengthVerdict(2, proof.Verdict.UAP, layers=1), root2))  # n = 2 stated UAP
    swapped = ((one, root2), (two, root1))  # each with the other's derivation
    for bad in (flipped, swapped, ((one, root1),), ((one, root1), (two, root2), (LengthVerdict(3, None), None)),
                ((one, root1), (LengthVerdict(2, proof.Verdict.NOT_UAP), None))):
        with pytest.raises(proof.CertificateRejected):
            VerdictPremises(*args, bad).check()


def _cert(text):
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def test_the_verifier_re_derives_the_lengths():
    cert = _cert(JUMPS.format(n="n"))
    report = verify(cert)
    assert report.ok, report.problems
    step = next(s for s in report.steps if s.rule == "VERDICT-T1")
    assert "n = 1, 2" in step.reason


@pytest.mark.parametrize("tamper", ["missing", "extra", "verdict", "layers"])
def test_the_verifier_rejects_tampered_lengths(tamper):
    cert = _cert(JUMPS.format(n="n"))
    lengths = cert["steps"][-1]["data"]["lengths"]
    if tamper == "missing":
        del lengths[1]
    elif tamper == "extra":
        lengths.append({"n": 3, "verdict": "UAP", "layers": 2})
    elif tamper == "verdict":  # n = 2 is not strongly connected
        lengths[1]["verdict"], lengths[1]["layers"] = "UAP", 1
    else:  # n = 1 in zero layers
        lengths[0]["layers"] = 0
    report = verify(cert)
    assert not report.ok
    assert next(s for s in report.steps if s.rule == "VERDICT-T1").outcome == REJECTED


def _diameter(text, value):
    from uapcheck.parse import parse_source
    from uapcheck.verifier import patterns
    spec = parse_source(text.format(n=value), "t.uap")
    heads = [patterns.head_arcs(h.pattern, value) for h in spec.heads]
    outs = patterns.union_out(heads, value)
    return max(d for j in range(1, value + 1) for d in patterns.bfs(outs, j)[1:])


def test_the_certificate_states_each_length_s_order_and_whether_its_count_is_least():
    cert = _cert(HEADS.format(n="n"))
    lengths = cert["steps"][-1]["data"]["lengths"]
    assert [(x["n"], x["order"], x["layers"], x["least"]) for x in lengths[:5]] == [
        (1, 1, 1, True), (2, 2, 1, True), (3, 6, 1, True), (4, 4, 2, True), (5, 1, 2, True)]


def _tampered(text, change):
    cert = _cert(text.format(n="n"))
    lengths = cert["steps"][-1]["data"]["lengths"]
    change(lengths)
    report = verify(cert)
    return next(s for s in report.steps if s.rule == "VERDICT-T1")


def test_the_verifier_re_derives_each_length_s_group_order():
    def order(lengths):  # n = 5: trivial (window(2) | blocks(4)), stated as the reflection's order
        lengths[4]["order"] = 2
    step = _tampered(HEADS, order)
    assert step.outcome == REJECTED and "n = 5" in step.reason and "order 2" in step.reason


def test_the_verifier_rejects_d_layers_where_a_view_witness_exists():
    """At n = 4 the count is D + 1 = 2, least (the blocks head is complete, the window head is not: a view
    witness at depth 1): stating 1 layer is rejected."""
    value = 4
    d = _diameter(HEADS, value)

    def fewer(lengths):
        x = lengths[value - 1]
        assert x["layers"] == d + 1 and x["least"]
        x["layers"] = d
    step = _tampered(HEADS, fewer)
    assert step.outcome == REJECTED and f"n = {value}" in step.reason and "do not suffice" in step.reason


def test_the_verifier_rejects_d_plus_one_stated_least_where_d_layers_suffice():
    value = next(k for k in range(5, 13) if _diameter(HEADS, k) == uapcheck.check(HEADS.format(n=k), "t.uap").layers)

    def more(lengths):
        lengths[value - 1]["layers"] += 1
    step = _tampered(HEADS, more)
    assert step.outcome == REJECTED and "D layers suffice" in step.reason


def test_a_larger_count_not_claimed_least_is_accepted_and_a_missing_order_is_trusted():
    from uapcheck.verifier import TRUSTED, VERIFIED

    def weaker(lengths):  # D + 2 layers, not least: true, only weaker
        lengths[5]["layers"] += 1
        lengths[5]["least"] = False
    assert _tampered(HEADS, weaker).outcome == VERIFIED

    def no_order(lengths):
        lengths[5]["order"] = None
    assert _tampered(HEADS, no_order).outcome == TRUSTED


@pytest.mark.parametrize("conditions, want", [
    ([sympy.Ne(sympy.Symbol("n", integer=True, positive=True) / 10, 2)], None),  # n = 20 uncovered, past 2
    ([sympy.floor(sympy.Symbol("n", integer=True, positive=True) / 10) >= 3], None),
    ([2 * sympy.Symbol("n", integer=True, positive=True) >= 13], [1, 2, 3, 4, 5, 6]),
])
def test_lengths_are_enumerated_only_for_relations_whose_thresholds_the_constants_bound(conditions, want):
    """A relation a·n + c ⋈ 0 with integers a, c changes truth only at n = −c/a, within |c|: coverage is periodic from
    the largest constant on. A rational slope (n/10 ≠ 2 fails at n = 20 only) or a floor of n is refused, by the
    engine and by the verifier's own reading (both used to call every length covered at n/10 ≠ 2)."""
    from uapcheck.rules.small_lengths import uncovered
    from uapcheck.verifier.by_class import _uncovered
    n = sympy.Symbol("n", integer=True, positive=True)
    assert uncovered(conditions, n) == want and _uncovered(conditions, n) == want


BUDGET = """tokens {n}
layers 2
attention {{
  kernel k(x, y) = exp(x . y)
  pattern window(3) cyclic + strided(5)
}}
"""


def test_a_not_uap_length_within_the_budget_is_held_to_a_view_witness():
    """window(3) cyclic + strided(5) with `layers 2`: at n = 21, 22, 26, … below the range D = 2 = the budget and the
    lengths are NOT-UAP (a view witness at depth D, re-decided with nauty on the verifier's rooted views); n = 23 is
    UAP in 2 layers, and stating it NOT-UAP is rejected (it was accepted: a budget at least D was not re-decided)."""
    cert = _cert(BUDGET.format(n="n"))
    lengths = cert["steps"][-1]["data"]["lengths"]
    assert [x["verdict"] for x in lengths[20:23]] == ["NOT-UAP", "NOT-UAP", "UAP"]
    report = verify(cert, only={cert["steps"][-1]["id"]})
    assert report.ok, report.problems

    def not_uap(lengths):
        x = lengths[22]
        assert x["n"] == 23 and x["verdict"] == "UAP" and x["layers"] == 2
        for key in ("layers", "least", "order"):
            x.pop(key, None)
        x["verdict"] = "NOT-UAP"
    step = _tampered(BUDGET, not_uap)
    assert step.outcome == REJECTED and "n = 23: stated NOT-UAP, but no view witness exists" in step.reason, step
