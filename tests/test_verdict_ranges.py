"""A verdict at symbolic n states its range in the headline and lists the lengths below it (docs/theory.md §12,
*the lengths below the range*): a NOT-UAP verdict whose obstruction holds on a range only (the pattern falls
apart for n ≥ 3; a `layers M` budget below a count proved for n ≥ 36) has the verdict step's fact `range` (JSON
`range`), and a UAP verdict for one bound on n (n ≥ 23) lists its lengths as a verdict by class does. Each length
is compared with the concrete engine at that n, each n of the range up to 60 with the concrete verdict; the
kernel and the verifier re-check the lengths and the range, and reject them tampered."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import sympy

import uapcheck
from uapcheck import certfile, proof
from uapcheck.render import jsonout, latex, markdown
from uapcheck.render.verdict_lines import headline
from uapcheck.errors import UapError
from uapcheck.verifier import REJECTED, verify

ROOT = Path(__file__).resolve().parents[1]
N = sympy.Symbol("n", integer=True, positive=True)
SOURCE = """tokens {n}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern {pattern}
}}
"""
SPLIT = "blocks(2) + strided(4)"  # not strongly connected for n ≥ 3 (every arc keeps ⌈p/2⌉ mod 2)
RELAY = "offsets {1, 5} cyclic + global(2)"  # UAP for n ≥ 23


def _check(pattern: str, n):
    return uapcheck.check(SOURCE.format(n=n, pattern=pattern), "t.uap")


@pytest.fixture(scope="module")
def split():
    return _check(SPLIT, "n")


@pytest.fixture(scope="module")
def relay():
    return _check(RELAY, "n")


def test_a_not_uap_headline_states_its_range_and_the_lengths_below(split):
    assert split.verdict == "NOT-UAP"
    assert split.root.facts["range"] == sympy.Ge(N, 3)
    assert headline(split) == ("NOT-UAP for G-equivariant targets (for n ≥ 3; UAP at n = 1, 2); INCONCLUSIVE for "
                               "receptive targets")
    assert markdown.headline_markdown(split).startswith("NOT-UAP for G-equivariant targets (for $`n \\geq 3`$; "
                                                        "UAP at n = 1, 2); INCONCLUSIVE")
    assert latex.headline_tex(split).startswith("NOT-UAP for G-equivariant targets (for $n \\geq 3$; UAP at n = 1, 2);")
    out = json.loads(jsonout.dumps(jsonout.result_json(split)))
    assert out["range"] == "n ≥ 3"
    assert [(r["n"], r["verdict"]) for r in out["below_range"]] == [(1, "UAP"), (2, "UAP")]


@pytest.mark.parametrize("pattern, text", [(SPLIT, None), (RELAY, None)])
def test_each_length_below_and_in_the_range_is_the_concrete_engine_s(pattern, text):
    symbolic = _check(pattern, "n")
    records = symbolic.root.facts["below_range"]
    low = records[-1].n + 1
    assert [r.n for r in records] == list(range(1, low))
    for r in records:
        if not r.allowed:  # the parser refuses the file at that n (global(2) at n = 1)
            with pytest.raises(UapError, match="exceeds `tokens"):
                _check(pattern, r.n)
            assert r.verdict is None and "exceeds `tokens" in r.why
            continue
        concrete = _check(pattern, r.n)
        assert r.verdict is not None and r.verdict.value == concrete.verdict, r.n
        if concrete.verdict == "UAP":
            assert (r.layers, r.group.order, r.group.name) == (concrete.layers, concrete.group.order,
                                                               concrete.group.name), r.n
    for n in range(low, 61):
        concrete = _check(pattern, n)
        assert concrete.verdict == symbolic.verdict, n
        if symbolic.verdict == "UAP":
            assert concrete.layers == symbolic.layers, n


def test_a_uap_verdict_for_one_bound_lists_the_lengths_below(relay):
    assert relay.verdict == "UAP" and relay.group.condition == "n ≥ 23"
    assert headline(relay).endswith("(for n ≥ 23); not allowed at n = 1; UAP at n = 2…22")
    assert "range" not in relay.root.facts


def test_a_not_uap_verdict_without_a_range_states_none():
    concrete = _check(SPLIT, 12)
    assert concrete.verdict == "NOT-UAP" and "range" not in concrete.root.facts
    assert headline(concrete).startswith("NOT-UAP for G-equivariant targets; ")


def test_the_kernel_checks_the_lengths_below_the_obstruction_s_range(split):
    from uapcheck.rules.small_lengths import LengthVerdict
    from uapcheck.rules.verdict import VerdictPremises
    cert = split.root.certificate
    args = (cert.ffn, cert.heads, cert.structure, cert.group_step, cert.dim, proof.Verdict.NOT_UAP)
    VerdictPremises(*args, cert.lengths).check()
    (one, root1), (two, root2) = cert.lengths
    for bad in (((one, root1),), ((one, root2), (two, root1)),
                ((one, root1), (LengthVerdict(2, proof.Verdict.NOT_UAP), root2))):
        with pytest.raises(proof.CertificateRejected):
            VerdictPremises(*args, bad).check()


def _cert(pattern):
    text = SOURCE.format(n="n", pattern=pattern)
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def test_the_verifier_re_derives_the_range_and_the_lengths():
    report = verify(_cert(SPLIT))
    assert report.ok and report.complete, report.problems
    step = next(s for s in report.steps if s.rule == "VERDICT-T1")
    assert "n = 1, 2" in step.reason and "re-checked at n = 3…60" in step.reason


@pytest.mark.parametrize("tamper", ["range from 2", "missing length", "length verdict"])
def test_the_verifier_rejects_a_tampered_range(tamper):
    cert = _cert(SPLIT)
    data = cert["steps"][-1]["data"]
    if tamper == "range from 2":  # at n = 2 the blocks(2) head joins both positions: not NOT-UAP there
        data["range"] = {"rel": ">=", "args": [{"sym": "n"}, 2]}
        data["lengths"] = data["lengths"][:1]
    elif tamper == "missing length":
        del data["lengths"][1]
    else:  # n = 2 stated NOT-UAP, but BFS finds it connected
        data["lengths"][1]["verdict"] = "NOT-UAP"
    report = verify(cert)
    assert not report.ok
    if tamper != "length verdict":
        assert next(s for s in report.steps if s.rule == "VERDICT-T1").outcome == REJECTED


def test_every_catalog_not_uap_verdict_with_a_range_states_it():
    """No catalog headline says NOT-UAP without the range its obstruction holds on (the golden JSON: a NOT-UAP
    verdict whose reason is stated "for n ≥ …" has `range`, and `below_range` when the range is a bound on n)."""
    missing = []
    for path in sorted((ROOT / "tests" / "golden" / "catalog_json").glob("*.json")):
        out = json.loads(path.read_text())
        if out["verdict"] != "NOT-UAP":
            continue
        claim = out["steps"][-1]["claim"]
        if "(for n ≥" in claim.split(":", 2)[1] and ("range" not in out or "below_range" not in out):
            missing.append(path.stem)
    assert not missing
