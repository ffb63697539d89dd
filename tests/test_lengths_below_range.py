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


def test_a_verdict_without_classes_states_no_lengths():
    text = HEADS.format(n="n").replace("blocks(4)", "global(1)")
    result = uapcheck.check(text, "t.uap")
    assert not _records(result) and "below_range" not in jsonout.result_json(result)


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
