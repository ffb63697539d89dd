"""A premise open on some residue classes of n only (docs/theory.md §11.4, §12): when the closed forms prove the
group on some classes of n mod L and give none at large n on the others, the verdict is UAP on the decided
classes (their groups by class, the range restricted to them) and INCONCLUSIVE on the open ones, naming the open
premise (SYM-UNDECIDED stated for those classes), in every printer, in `expect`, for the kernel and for the
verifier. Before, one open class made the whole file INCONCLUSIVE. The decided classes are compared with the
concrete engine at every n of the range up to 24."""
from __future__ import annotations

import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile, proof
from uapcheck.certificates import ByResidueClass
from uapcheck.graphs.closed_forms import ClosedForm, ConnectivityCase
from uapcheck.render import jsonout
from uapcheck.render.latex import headline_tex
from uapcheck.render.markdown import headline_markdown
from uapcheck.render.verdict_lines import headline
from uapcheck.rules.residue_classes import split_by_residue, split_partially
from uapcheck.verifier import REJECTED, VERIFIED, verify

N = sympy.Symbol("n", integer=True, positive=True)
W = sympy.Symbol("w", integer=True, positive=True)

# the ring and the blocks of 3: Theorems F35–F38 decide n ≡ 0 (the rotations by 3 and their reflections) and
# n ≡ 1 (the reflection fixing n) mod 3; on n ≡ 2 no rotation keeps the blocks and no seam pins a reflection
RING_BLOCKS = """tokens {n}
attention ring {{
  kernel k(x, y) = exp(x . y)
  pattern window(1) cyclic
}}
attention block {{
  kernel k(x, y) = exp(x . y)
  pattern blocks(3)
}}
"""


@pytest.fixture(scope="module")
def result():
    return uapcheck.check(RING_BLOCKS.format(n="n"), "ring.uap")


def test_the_verdict_is_uap_on_the_decided_classes_and_inconclusive_on_the_open_one(result):
    assert result.verdict == "UAP"  # was INCONCLUSIVE for the whole file
    assert [(c.modulus, c.residues, c.group.order) for c in result.group.classes] == [
        (3, (0,), "2 · n/3"), (3, (1,), 2)]
    assert result.group.condition == "n ≥ 13 and (n mod 3 ∈ {0, 1})"
    assert [(str(cond), kind) for cond, kind in result.root.facts["by_class"]] == [
        (str(sympy.And(N >= 13, sympy.Eq(sympy.Mod(N, 3), 2))), proof.Verdict.INCONCLUSIVE)]
    text = headline(result)
    assert " if n mod 3 = 1 · " in text and "else" not in text.split(" · ")[1]  # no class is printed "else"
    assert "; INCONCLUSIVE for n ≥ 13 and n mod 3 = 2; UAP at n = 1…12" in text
    assert "no closed form gives the group there (SYM-UNDECIDED)" in str(result.root.claim)


def test_the_open_premise_is_stated_for_its_classes_only(result):
    open_step = next(s for s in result.root.walk() if s.rule == "SYM-UNDECIDED")
    assert open_step.status is proof.UNDECIDED
    assert (open_step.facts["modulus"], open_step.facts["residues"]) == (3, (2,))
    group = next(s for s in result.root.walk() if s.rule == "SYM-AUT")
    assert group.proved and group.certificate.open_residues == (2,)


@pytest.mark.parametrize("n", range(13, 25))
def test_each_decided_class_is_the_concrete_group(result, n):
    cls = next((c for c in result.group.classes if n % c.modulus in c.residues), None)
    concrete = uapcheck.check(RING_BLOCKS.format(n=n), "ring.uap")
    if cls is None:  # the open class: nothing is stated there (the concrete engine finds a reflection, order 2)
        assert n % 3 == 2 and concrete.group.order == 2
        return
    want = 2 * n // 3 if n % 3 == 0 else 2  # the class's order, 2·n/3 or 2
    assert cls.group.order == ("2 · n/3" if n % 3 == 0 else 2)
    assert concrete.verdict == "UAP" and concrete.group.order == want


def test_the_lengths_below_the_range_include_the_open_class(result):
    below = result.root.facts["below_range"]
    assert [r.n for r in below] == list(range(1, 13))
    for r in below:
        assert r.verdict is proof.Verdict.UAP
        concrete = uapcheck.check(RING_BLOCKS.format(n=r.n), "ring.uap")
        assert (r.group.order, r.layers) == (concrete.group.order, concrete.layers)


def test_the_printers_and_the_json_state_each_class(result):
    md = headline_markdown(result)
    assert "if $`n \\bmod 3 = 1`$" in md and "INCONCLUSIVE for" in md and ", else " not in md
    tex = headline_tex(result)
    assert "if $n \\bmod 3 = 1$" in tex and "INCONCLUSIVE for" in tex and ", else " not in tex
    out = json.loads(jsonout.dumps(jsonout.result_json(result)))
    assert out["verdict"] == "UAP"
    assert [c["residues"] for c in out["group"]["classes"]] == [[0], [1]]
    assert out["by_class"] == [{"condition": "n ≥ 13 and n mod 3 = 2", "verdict": "INCONCLUSIVE"}]


@pytest.mark.parametrize("line, holds", [
    ("expect uap, inconclusive if n mod 3 = 2", True),
    ("expect uap, inconclusive if n mod 6 in {2, 5}", True),
    ("expect uap layers floor(n / 2) + 1, inconclusive if n mod 3 = 2", True),
    ("expect uap, inconclusive if n mod 3 = 1", False),  # n ≡ 1 is UAP
    ("expect uap, not-uap if n mod 3 = 2", False),  # n ≡ 2 is open, not NOT-UAP
    ("expect uap, inconclusive if n mod 3 in {1, 2}", False),
    ("expect inconclusive", False),
    ("expect uap group order 2 if n mod 3 = 1, else trivial, inconclusive if n mod 3 = 2", False),  # n ≡ 0
])
def test_expect_compares_every_class(line, holds):
    r = uapcheck.check(RING_BLOCKS.format(n="n") + line + "\n", "t.uap")
    assert r.expect_holds is holds, r.expect_reason


def test_a_group_expect_skips_the_classes_expected_with_another_verdict():
    """`group … else B, inconclusive if n mod 3 = 2`: B is compared on the UAP classes only (the open class has
    no group). blocks(3) | offsets {0, 1} cyclic has no name for its n ≡ 0 group, so the check is made on a
    derived group whose classes are the ring's n ≡ 1 class alone."""
    from dataclasses import replace
    from uapcheck.expect import _classes_mismatch
    from uapcheck.parse import parse_source
    r = uapcheck.check(RING_BLOCKS.format(n="n"), "t.uap")
    only_one = replace(r.group, classes=r.group.classes[1:])
    spec = parse_source(RING_BLOCKS.format(n="n") + "expect uap group order 2, inconclusive if n mod 3 in {0, 2}\n",
                        "t.uap")
    spec = replace(spec, expect=replace(spec.expect, group_classes=((3, (1,), ("order", 2)),), group=("order", 2)))
    assert _classes_mismatch(spec, only_one, spec.expect) == ""
    wrong = replace(spec, expect=replace(spec.expect, group=("order", 4), group_classes=((3, (1,), ("order", 4)),)))
    assert "n mod 3 = 1" in _classes_mismatch(wrong, only_one, wrong.expect)


def test_the_kernel_rejects_a_range_that_keeps_an_open_class(result):
    from dataclasses import replace
    from uapcheck.rules.symmetry import group_step
    step = next(s for s in result.root.walk() if s.rule == "SYM-AUT")
    cert, info = step.certificate, result.group
    group_step("d", info, {}, cert)  # as derived: accepted
    wide = replace(info, condition="n ≥ 13", condition_formula=N >= 13)  # the open class inside the range
    with pytest.raises(proof.CertificateRejected):
        group_step("d", wide, {}, cert)
    with pytest.raises(proof.CertificateRejected):  # the open residue dropped: no partition
        ByResidueClass(3, cert.entries).check()
    with pytest.raises(proof.CertificateRejected):  # nothing proved at all
        ByResidueClass(3, (), (0, 1, 2)).check()


def _cert():
    text = RING_BLOCKS.format(n="n")
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _outcomes(cert):
    report = verify(cert)
    return report, {s.rule: s for s in report.steps}


def test_the_verifier_re_checks_the_decided_classes_and_the_open_one():
    report, steps = _outcomes(_cert())
    assert not any(s.outcome == REJECTED for s in report.steps), report.problems
    assert steps["SYM-AUT"].outcome == VERIFIED and "n mod 3 ∈ [2] open" in steps["SYM-AUT"].reason
    assert steps["VERDICT-T1"].outcome == VERIFIED


def _step(cert, rule):
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("tamper", ["open dropped", "open not stated", "range widened", "open class stated"])
def test_the_verifier_rejects_a_tampered_open_class(tamper):
    cert = _cert()
    sym = _step(cert, "SYM-AUT")
    if tamper == "open dropped":
        del sym["certificate"]["open"]
    elif tamper == "open not stated":  # the undecided step states another class
        _step(cert, "SYM-UNDECIDED")["data"]["classes"]["residues"] = [1]
    elif tamper == "range widened":  # the verdict's range keeps n ≡ 2
        _step(cert, "VERDICT-T1")["data"]["range"] = {"rel": ">=", "args": [{"sym": "n"}, 13]}
    else:  # a class stated on the open residue with a decided class's certificate
        entry = sym["certificate"]["classes"][1]
        entry["certificate"]["stated class"] = {"residue": 2, "from": 14}
        entry["residues"] = [1, 2]
        del sym["certificate"]["open"]
        sym["data"]["classes"][1]["residues"] = [1, 2]
    report, _ = _outcomes(cert)
    assert not report.ok and (any(s.outcome == REJECTED for s in report.steps) or report.problems)


def test_the_head_intersection_keeps_the_open_class_open():
    from uapcheck.graphs.head_intersection import describe, intersect
    from uapcheck.parse import parse_source
    spec = parse_source(RING_BLOCKS.format(n="n"), "t.uap")
    cases = intersect([h.pattern for h in spec.heads], [None, None], N, {})
    assert cases is not None and len(cases) == 2
    found = cases[0].intersection[0]
    kinds = {c.residue: c.kind for c in found.classes}
    assert kinds[2] == "open" and kinds[0] != "open" and kinds[1] != "open"
    assert describe(next(c for c in found.classes if c.residue == 2), N) is None


def _form(*cases):
    return ClosedForm(tuple(ConnectivityCase(c, True, d, rule=r) for c, d, r in cases))


def test_a_partial_split_is_made_only_when_some_classes_have_no_proved_case():
    even = (sympy.And(N >= 5, sympy.Eq(sympy.Mod(N, 2), 0)), N / 2, "even")
    odd_wide = (sympy.And(N >= 5, sympy.Eq(sympy.Mod(N, 2), 1), W >= 2), (N + 1) / 2, "wide")
    odd = (sympy.And(N >= 7, sympy.Eq(sympy.Mod(N, 2), 1)), (N + 1) / 2, "odd")
    # n odd: no case at all
    part = split_partially(_form(even), N, {})
    assert part is not None and part.open == (1,) and part.decided() == (0,)
    assert [c.rule if c else None for c in part.split.chosen] == ["even", None]
    assert part.split.bound == (N >= 5) and "n mod 2 = 1: no case holds at large n" in part.why
    # n odd: a case for w ≥ 2 only (w ≥ 1 declared): open, and why names it
    part = split_partially(_form(even, odd_wide), N, {"w": 1})
    assert part is not None and part.open == (1,) and "`wide` where" in part.why
    # every class decided: the full split applies instead; no class decided: nothing
    assert split_partially(_form(even, odd), N, {}) is None and split_by_residue(_form(even, odd), N, {}) is not None
    assert split_partially(_form((N <= 3, N, "small")), N, {}) is None
    # two cases proved on one class: not split (as before)
    twice = (sympy.And(N >= 9, sympy.Eq(sympy.Mod(N, 2), 0)), N / 2 + 1, "twice")
    assert split_partially(_form(even, twice), N, {}) is None
