"""One verdict for every n in range when G depends on n mod L (docs/theory.md §11.4): the group step states
each residue class's group (typed, GroupInfo.classes), the verdict and every printer say it by class, the
kernel checks each class against its own certificate, and the verifier re-checks every class. The classes
are compared with the concrete engine at every n of the range up to a bound (a second way)."""
from __future__ import annotations

import copy
import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile, proof
from uapcheck.certificates import ByResidueClass, Trusted
from uapcheck.render import jsonout
from uapcheck.render.latex import headline_tex
from uapcheck.render.markdown import headline_markdown
from uapcheck.render.verdict_lines import headline
from uapcheck.verifier import REJECTED, VERIFIED, verify

HEADS = """architecture "window and blocks heads"
tokens {n}
attention a {{
  kernel k(x, y) = exp(x . y)
  pattern window(2)
}}
attention b {{
  kernel k(x, y) = exp(x . y)
  pattern blocks(4)
}}
"""


@pytest.fixture(scope="module")
def result():
    return uapcheck.check(HEADS.format(n="n"), "heads.uap")


def _group_step(result):
    return next(s for s in result.root.walk() if s.rule == "SYM-AUT")


def test_the_verdict_states_the_group_of_every_class(result):
    assert result.verdict == "UAP"
    assert headline(result).startswith("UAP · G = reflection if n mod 4 = 0, else trivial · ")
    assert headline(result).endswith("attention layers (for n ≥ 13); UAP at n = 1…12")  # D, least (Theorem F75)
    g = result.group
    assert [(c.modulus, c.residues, c.group.name, c.group.order) for c in g.classes] == [
        (4, (0,), "reflection", 2), (4, (1, 2, 3), "trivial", 1)]
    assert str(result.root.claim).startswith("UAP · G = reflection if n mod 4 = 0, else trivial · ")


@pytest.mark.parametrize("n", range(13, 21))
def test_each_class_is_the_concrete_group(result, n):
    """The class of n gives the group the concrete engine computes at that n."""
    concrete = uapcheck.check(HEADS.format(n=n), "heads.uap").group
    cls = next(c for c in result.group.classes if n % c.modulus in c.residues)
    assert concrete.order == cls.group.order
    assert concrete.name == cls.group.name


def test_the_printers_walk_the_classes(result):
    md = headline_markdown(result)
    assert "reflection if $`n \\bmod 4 = 0`$, else trivial" in md and "(for $`n \\geq 13`$)" in md
    tex = headline_tex(result)
    assert "reflection if $n \\bmod 4 = 0$, else trivial" in tex


def test_the_json_group_has_typed_classes(result):
    out = json.loads(jsonout.dumps(jsonout.result_json(result)))
    assert out["group"]["classes"] == [
        {"modulus": 4, "residues": [0], "name": "reflection", "order": 2, "generators": ["i ↦ n + 1 − i"]},
        {"modulus": 4, "residues": [1, 2, 3], "name": "trivial", "order": 1, "generators": []}]
    assert out["group"]["condition"] == "n ≥ 13"


def test_a_group_without_classes_has_no_classes_key():
    text = HEADS.format(n="n").replace("blocks(4)", "global(1)")
    out = jsonout.result_json(uapcheck.check(text, "t.uap"))
    assert "classes" not in out["group"]


def test_the_kernel_rejects_a_partial_or_wrong_class_certificate(result):
    step = _group_step(result)
    cert = step.certificate
    assert isinstance(cert, ByResidueClass) and cert.modulus == 4
    with pytest.raises(proof.CertificateRejected):
        ByResidueClass(4, cert.entries[:-1]).check()  # a residue not covered
    with pytest.raises(proof.CertificateRejected):
        ByResidueClass(4, cert.entries + cert.entries[:1]).check()  # a residue twice
    from uapcheck.rules.symmetry import group_step
    info = result.group
    swapped = tuple((rs, Trusted("x", "y", {"order": 2})) for rs, _ in cert.entries)  # every class of order 2
    with pytest.raises(proof.CertificateRejected):
        group_step("d", info, {}, ByResidueClass(4, swapped))
    with pytest.raises(proof.CertificateRejected):
        group_step("d", info, {}, Trusted("x", "y", {"order": 2}))  # by class needs a class certificate


def test_expect_one_group_fails_when_g_depends_on_the_class():
    text = HEADS.format(n="n") + "expect uap group reflection\n"
    r = uapcheck.check(text, "t.uap")
    assert r.expect_holds is False and "depends on n mod 4" in r.expect_reason


def _cert():
    text = HEADS.format(n="n")
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _sym(cert):
    return next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")


def _outcome(cert):
    return next(s for s in verify(cert).steps if s.rule == "SYM-AUT")


def test_the_verifier_checks_every_class():
    step = _outcome(_cert())
    assert step.outcome == VERIFIED, step.reason
    assert "n mod 4 ∈ [0]: reflection" in step.reason and "F35" in step.reason


@pytest.mark.parametrize("tamper", ["name", "residues", "partition", "stated class"])
def test_the_verifier_rejects_a_tampered_class(tamper):
    cert = _cert()
    step = _sym(cert)
    if tamper == "name":  # the class n ≡ 1 stated reflection
        step["data"]["classes"][1]["name"] = "reflection"
        step["data"]["classes"][1]["order"] = 2
    elif tamper == "residues":  # the step's classes are not the certificate's
        step["data"]["classes"][1]["residues"] = [1, 2]
    elif tamper == "partition":
        step["certificate"]["classes"] = step["certificate"]["classes"][:-1]
    else:  # a class's certificate states another class
        entries = step["certificate"]["classes"]
        entries[1]["certificate"], entries[2]["certificate"] = (copy.deepcopy(entries[2]["certificate"]),
                                                                copy.deepcopy(entries[1]["certificate"]))
    assert _outcome(cert).outcome == REJECTED


def test_conditions_are_simplified_exactly():
    from uapcheck.conditions import simplify_condition as simplify
    from uapcheck.show import show_condition
    n = sympy.Symbol("n", integer=True, positive=True)
    w = sympy.Symbol("w", integer=True, positive=True)
    assert simplify(sympy.And(n >= 5, n >= 8, n >= 13)) == (n >= 13)
    assert show_condition(simplify(sympy.And(sympy.Eq(n, 1), n < 8))) == "n = 1"
    assert show_condition(simplify(sympy.Or(n <= 3, sympy.Eq(n, 4)))) == "n ≤ 4"
    assert show_condition(simplify(sympy.Or(sympy.And(n >= 5, n <= 7), n >= 8))) == "n ≥ 5"
    assert show_condition(simplify(sympy.Or(n <= 3, n >= 5))) in ("n ≤ 3 or n ≥ 5", "n ≥ 5 or n ≤ 3")  # kept
    assert show_condition(simplify(sympy.And(n >= w + 2, n >= 2 * w + 1))) == "n ≥ 2·w + 1"
    assert show_condition(simplify(sympy.And(n > 12, n <= 12))) != ""
    # every simplification is equivalent: compare at every n ≤ 40 and w ≤ 5
    conds = [sympy.And(n >= 5, n >= 8, n >= 13), sympy.And(sympy.Eq(n, 1), n < 8), sympy.Or(n <= 3, sympy.Eq(n, 4)),
             sympy.Or(sympy.And(n >= 5, n <= 7), n >= 8), sympy.And(n >= w + 2, n >= 2 * w + 1),
             sympy.And(n > 12, sympy.Eq(sympy.Mod(n, 4), 0)), sympy.Or(sympy.And(n >= 2, n <= 4), sympy.Eq(n, 9))]
    for c in conds:
        s = simplify(c)
        for nv in range(1, 41):
            for wv in range(1, 6):
                assert bool(c.subs({n: nv, w: wv})) == bool(s.subs({n: nv, w: wv})), (c, s, nv, wv)
    assert show_condition(sympy.Or(*(sympy.Eq(sympy.Mod(n, 4), r) for r in (1, 2, 3)))) == "n mod 4 ∈ {1, 2, 3}"


def test_equal_values_by_class_read_once():
    from uapcheck.show import show_classes
    n = sympy.Symbol("n", integer=True, positive=True)

    def c(r):
        return sympy.Eq(sympy.Mod(n, 4), r)
    assert show_classes([("A", c(0)), ("A", c(2)), ("A", c(1))]) == "A"
    assert show_classes([("A", c(0)), ("B", c(2)), ("A", c(3)), ("C", c(1))]) == \
        "A if n mod 4 ∈ {0, 3}, B if n mod 4 = 2, else C"
    assert show_classes([("A", c(0)), ("C", c(2)), ("C", c(1))]) == "A if n mod 4 = 0, else C"


def test_a_group_whose_name_holds_in_every_class_is_named_once():
    # blocks(4) | strided(4): one description for every class, orders that differ by class
    heads = HEADS.replace("pattern window(2)", "pattern blocks(4)").replace(
        "attention b {{\n  kernel k(x, y) = exp(x . y)\n  pattern blocks(4)", "attention b {{\n  kernel k(x, y) = exp(x . y)\n  pattern strided(4)")
    r = uapcheck.check(heads.format(n="n"), "heads.uap")
    assert r.verdict == "UAP"
    assert len(r.group.classes) >= 2
    assert len({c.group.name for c in r.group.classes}) == 1
    assert " if n mod" not in r.group.name
    assert r.group.name == r.group.classes[0].group.name
    assert " if n mod" in r.group.order  # the orders still differ by class


# ---------------------------------------------------------------------------------------------
# `expect uap group A if n mod L = r, …, else B` (docs/language.md §7)

@pytest.mark.parametrize("expected, holds", [
    ("reflection if n mod 4 = 0, else trivial", True),
    ("reflection if n mod 4 = 0 else trivial", True),
    ("trivial if n mod 4 in {1, 2, 3} else reflection", True),
    ("reflection if n mod 8 in {0, 4} else trivial", True),  # a multiple of the derived modulus
    ("reflection if n mod 4 = 0, trivial if n mod 4 = 1, else trivial", True),
    ("reflection if n mod 2 = 0 else trivial", False),  # n ≡ 2 (mod 4) is trivial
    ("order 2 if n mod 4 = 0 else order 1", True),
    ("S_n if n mod 4 = 0 else trivial", False),
])
def test_expect_by_class(expected, holds):
    r = uapcheck.check(HEADS.format(n="n") + f"expect uap group {expected}\n", "t.uap")
    assert r.expect_holds is holds, r.expect_reason
    if not holds:
        assert r.expect_reason.startswith("for n mod ")


def test_expect_by_class_of_a_group_without_classes():
    """A derived group that does not depend on n mod L is the same in every expected class."""
    text = HEADS.format(n="n").replace("blocks(4)", "global(1)")
    assert uapcheck.check(text + "expect uap group trivial if n mod 2 = 0 else trivial\n", "t.uap").expect_holds
    assert not uapcheck.check(text + "expect uap group reflection if n mod 2 = 0 else trivial\n", "t.uap").expect_holds


@pytest.mark.parametrize("line, where, message", [
    ("reflection if m mod 4 = 0 else trivial", "m", "symbolic `tokens` name"),
    ("reflection if n mod 4 = 4 else trivial", "4", "one of 0, …, 3"),
    ("reflection if n mod 1 = 0 else trivial", "1", "from 2"),
    ("reflection if n mod 4 in {0, 1, 2, 3} else trivial", None, "leave one to `else`"),
    ("reflection if n mod 4 = 0, trivial if n mod 2 = 1 else trivial", None, "one modulus"),
    ("reflection if n mod 4 = 0, trivial if n mod 4 = 0 else trivial", None, "two classes"),
])
def test_expect_by_class_errors(line, where, message):
    from uapcheck.errors import UapError
    text = HEADS.format(n="n") + f"expect uap group {line}\n"
    with pytest.raises(UapError) as err:
        uapcheck.check(text, "t.uap")
    assert message in err.value.message
    if where is not None:
        assert text.splitlines()[err.value.line - 1][err.value.column - 1:].startswith(where)


def test_expect_by_class_needs_a_symbolic_length():
    from uapcheck.errors import UapError
    with pytest.raises(UapError, match="integer `tokens`"):
        uapcheck.check(HEADS.format(n=16) + "expect uap group reflection if n mod 4 = 0 else trivial\n", "t.uap")


# ---------------------------------------------------------------------------------------------
# Different verdict kinds by class: UAP for odd n, NOT-UAP for even n (Theorem F27 (a))

EVEN_JUMPS = """tokens {n}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern offsets {{0, 2}} cyclic
}}
"""


@pytest.fixture(scope="module")
def jumps():
    return uapcheck.check(EVEN_JUMPS.format(n="n"), "j.uap")


def test_the_verdict_states_each_class_s_kind(jumps):
    assert jumps.verdict == "UAP" and jumps.group.name == "C_n"
    assert headline(jumps) == ("UAP · G = C_n · n - 1 attention layers (for n ≥ 3 and n odd); NOT-UAP for n ≥ 3 and n "
                               "even; UAP at n = 1; NOT-UAP at n = 2")
    assert "; NOT-UAP for n ≥ 3 and n even: x_2 never reaches position 1 (PAT-DISCONNECTED)" in str(jumps.root.claim)
    out = jsonout.result_json(jumps)
    assert out["by_class"] == [{"condition": "n ≥ 3 and n even", "verdict": "NOT-UAP"}]
    assert "NOT-UAP for $`n \\bmod 2 = 0 \\wedge n \\geq 3`$" in headline_markdown(jumps)
    assert "NOT-UAP for $n \\bmod 2 = 0 \\wedge n \\geq 3$" in headline_tex(jumps)


@pytest.mark.parametrize("n", range(3, 13))
def test_each_verdict_kind_is_the_concrete_one(n):
    concrete = uapcheck.check(EVEN_JUMPS.format(n=n), "j.uap")
    if n % 2:
        assert concrete.verdict == "UAP" and concrete.layers == n - 1 and concrete.group.order == n
    else:
        assert concrete.verdict == "NOT-UAP"


def test_a_class_obstruction_leaves_the_other_classes_verdict():
    """The kernel's verdict rule: an obstruction stated for residue classes only does not decide the verdict."""
    from uapcheck.rules.verdict import class_verdicts, decide
    r = uapcheck.check(EVEN_JUMPS.format(n="n"), "j.uap")
    root = r.root
    step = root.certificate
    assert class_verdicts(step.structure, step.group_step, proof.Verdict.UAP) and decide(
        step.ffn, step.heads, step.structure, step.group_step, step.dim)[0] is proof.Verdict.UAP
    assert root.facts["by_class"][0][1] is proof.Verdict.NOT_UAP


def test_the_coset_certificate_is_checked():
    from uapcheck.certificates import CosetInvariant
    from uapcheck import spec as S
    ring = S.Offsets((0, 2), cyclic=True)
    CosetInvariant((ring,), 2, (0,)).check()
    for bad in (CosetInvariant((ring,), 2, (1,)), CosetInvariant((ring,), 3, (0,)),
                CosetInvariant((S.Offsets((0, 2)),), 2, (0,)), CosetInvariant((ring,), 2, ())):
        with pytest.raises(proof.CertificateRejected):
            bad.check()


def _jumps_cert():
    text = EVEN_JUMPS.format(n="n")
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "j.uap"), text)))


def _apart(cert):
    return next(s for s in cert["steps"] if s["rule"] == "PAT-DISCONNECTED")


def test_the_verifier_checks_the_class_obstruction():
    report = verify(_jumps_cert())
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    step = next(s for s in report.steps if s.rule == "PAT-DISCONNECTED")
    assert step.outcome == VERIFIED and "BFS" in step.reason


@pytest.mark.parametrize("tamper", ["odd class", "modulus", "witness", "no classes", "range with even n", "no range",
                                    "range tree", "unlisted class"])
def test_the_verifier_rejects_a_tampered_class_obstruction(tamper):
    cert = _jumps_cert()
    step = _apart(cert)
    if tamper == "odd class":  # claims NOT-UAP for odd n too
        step["data"]["classes"]["residues"] = [1]
        step["certificate"]["residues"] = [1]
    elif tamper == "modulus":
        step["data"]["classes"]["modulus"] = 4
        step["certificate"]["modulus"] = 4
    elif tamper == "witness":
        step["data"]["j"] = 3
    elif tamper == "no classes":  # read as an obstruction for every n, the premises give NOT-UAP, not the UAP
        del step["data"]["classes"]
    elif tamper == "range with even n":  # the verifier re-derives that the UAP range excludes the even classes
        cert["steps"][-1]["data"]["range"] = {"rel": ">=", "args": [{"sym": "n"}, 3]}
    elif tamper == "no range":
        cert["steps"][-1]["data"]["range"] = None
    elif tamper == "range tree":
        cert["steps"][-1]["data"]["range"] = {"rel": "=~", "args": [{"sym": "n"}, 3]}
    else:  # the even classes' NOT-UAP is not stated beside the UAP
        cert["steps"][-1]["data"]["classes"] = []
    report = verify(cert)
    assert not report.ok


def test_connectivity_by_class_gives_one_diameter_per_class():
    """All classes connected, by different cases: one case over the range, its diameter a Piecewise by class."""
    from uapcheck.graphs.closed_forms import ClosedForm, ConnectivityCase
    from uapcheck.rules.pattern import _connected_by_class
    from uapcheck import spec as S
    n = sympy.Symbol("n", integer=True, positive=True)
    form = ClosedForm((ConnectivityCase(sympy.And(n >= 5, sympy.Eq(sympy.Mod(n, 2), 0)), True, n / 2, rule="even"),
                       ConnectivityCase(sympy.And(n >= 7, sympy.Eq(sympy.Mod(n, 2), 1)), True, (n + 1) / 2, rule="odd"),
                       ConnectivityCase(n < 5, True, None, rule="small")))
    from uapcheck.parse import parse_source
    spec = parse_source(EVEN_JUMPS.format(n="n"), "j.uap")
    assert isinstance(spec, S.Spec)
    case, apart = _connected_by_class(form, spec, n)
    assert apart == [] and case.condition == (n >= 7)
    for value in range(7, 30):
        want = value // 2 if value % 2 == 0 else (value + 1) // 2
        assert case.diameter.subs(n, value) == want


def test_a_class_obstruction_inside_the_stated_range_restricts_the_range(monkeypatch):
    """The kernel's rule: NOT-UAP on some classes leaves the verdict of the others, on a range restricted to them
    (a range that does not exclude the classes gets the other classes' residue condition); the certificate check
    rejects a UAP whose stated range still contains them; no group leaves the obstruction decisive."""
    from uapcheck.groups import GroupInfo
    from uapcheck.rules import verdict as V
    from uapcheck.rules.symmetry import group_step
    r = uapcheck.check(EVEN_JUMPS.format(n="n"), "j.uap")
    cert = r.root.certificate
    n = sympy.Symbol("n", integer=True, positive=True)
    wide = GroupInfo("C_n", "n", (), "n ≥ 3", n >= 3)  # the range n ≥ 3 contains the even class
    step = group_step("d", wide, {}, Trusted("x", "y", {"order": "n"}))
    got, _, group, _, _ = V.decide(cert.ffn, cert.heads, cert.structure, step, cert.dim)
    assert got is proof.Verdict.UAP and V.excludes_classes(group, cert.structure)
    assert [bool(group.condition_formula.subs(n, v)) for v in range(1, 9)] == [False, False, True, False, True,
                                                                                 False, True, False]
    # without a formula for the range nothing can be excluded: the obstruction decides
    words = GroupInfo("C_n", "n", (), "n ≥ 3")
    step = group_step("d", words, {}, Trusted("x", "y", {"order": "n"}))
    assert V.decide(cert.ffn, cert.heads, cert.structure, step, cert.dim)[0] is proof.Verdict.NOT_UAP
    # the certificate's own guard: a UAP verdict whose range was not restricted is rejected
    monkeypatch.setattr(V, "_stated_range", lambda group, steps: group)
    with pytest.raises(proof.CertificateRejected, match="does not exclude"):
        V.VerdictPremises(cert.ffn, cert.heads, cert.structure, group_step("d", wide, {}, Trusted("x", "y", {"order": "n"})),
                          cert.dim, proof.Verdict.UAP).check()


def test_excludes_reads_the_residue_parts_exactly():
    from uapcheck.rules.residue_classes import excludes
    n = sympy.Symbol("n", integer=True, positive=True)
    odd = sympy.And(n >= 3, sympy.Ne(sympy.Mod(n, 2), 0))
    assert excludes(odd, n, 2, (0,)) and excludes(odd, n, 4, (0, 2)) and not excludes(odd, n, 4, (0, 1))
    assert not excludes(n >= 3, n, 2, (0,)) and not excludes(None, n, 2, (0,))
    coprime6 = sympy.And(sympy.Ne(sympy.Mod(n, 2), 0), sympy.Ne(sympy.Mod(n, 3), 0))
    assert excludes(coprime6, n, 6, (0, 2, 3, 4)) and not excludes(coprime6, n, 6, (1,))
