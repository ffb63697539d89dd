"""A family theorem that proves the group on some residue classes of n only: the verdict is UAP with that group on
the proved classes and INCONCLUSIVE, naming the open question, on the others (docs/theory.md §11.4, §12), instead of
INCONCLUSIVE for the whole file. No theorem of §11.11 does so now (Theorem F201 gave Theorem F26 its group on the
classes n mod s ∈ {1, …, w} it had left open for w ≥ 2), so the mechanism is exercised with F26 restricted on purpose
to the classes n mod s ∉ {1, …, w}, on both sides (the engine's theorem and the verifier's restatement). Compared
with the concrete engine at every n of a period from the range's start; the verifier re-checks the open classes
and rejects them tampered."""
from __future__ import annotations

import copy
import dataclasses
import functools
import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile, memo, proof
from uapcheck.graphs import families as graph_families
from uapcheck.graphs import symbolic_unions as graph_unions
from uapcheck.render.verdict_lines import headline
from uapcheck.rules import verdict as V
from uapcheck.verifier import REJECTED, verify
from uapcheck.verifier import symbolic_unions as verifier_unions

WHY = ("for n mod s ∈ {1, …, w} a wrap-around window pair lies in one residue class, and the automorphisms of what is "
       "left of the cyclic window are not determined here (restricted on purpose)")


def _clear() -> None:
    graph_families._match_cached.cache_clear()
    memo.clear_caches()
    _check.cache_clear()
    _cert_text.cache_clear()


@pytest.fixture(autouse=True)
def restricted(monkeypatch):
    """F26 stated, for w ≥ 2, on the classes n mod s ∉ {1, …, w} only (engine and verifier alike)."""
    engine, verifier = graph_unions.cyclic_strided_theorem, verifier_unions.cyclic_strided

    def engine_theorem(n, w: int, s: int):
        found = engine(n, w, s)
        if w < 2:
            return found
        return dataclasses.replace(found, group_open=(s, tuple(range(1, w + 1)), WHY),
                                   open_question=WHY + ("; " + found.open_question if found.open_question else ""))

    def verifier_family(parts, tokens=None):
        found = verifier(parts, tokens)
        if found is None or found.theorem != "F26" or found.modulus < 6:
            return found
        w = (found.modulus - 2) // 2  # s ∈ {2w + 2, 2w + 3}
        return dataclasses.replace(found, group_open=tuple(range(1, w + 1)))
    monkeypatch.setattr(graph_unions, "cyclic_strided_theorem", engine_theorem)
    monkeypatch.setattr(verifier_unions, "cyclic_strided", verifier_family)
    _clear()
    yield
    monkeypatch.undo()
    _clear()


SOURCE = """tokens {n}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern window({w}) cyclic + strided({s})
}}
"""
N = sympy.Symbol("n", integer=True, positive=True)
CASES = [(2, 7, 77), (2, 6, 66)]  # (w, s, the range's start s(4w + 3))


@functools.lru_cache(maxsize=None)
def _check(n, w: int, s: int):
    return uapcheck.check(SOURCE.format(n=n, w=w, s=s), "t.uap")


@pytest.mark.parametrize("w, s, low", CASES)
def test_the_verdict_is_uap_on_the_proved_classes_and_inconclusive_on_the_others(w, s, low):
    r = _check("n", w, s)
    assert r.verdict == "UAP" and r.group.name == f"D_n when {s} | n, else the reflection i ↦ n + 1 − i"
    where = r.group.condition_formula
    assert [bool(where.subs(N, v)) for v in range(low, low + s)] == [v % s not in (1, 2) for v in range(low, low + s)]
    assert not where.subs(N, low - s)
    step = next(x for x in r.root.walk() if x.rule == "SYM-UNDECIDED")
    assert step.facts["modulus"] == s and step.facts["residues"] == (1, 2)
    assert "a wrap-around window pair lies in one residue class" in step.facts["open"]
    cert = r.root.certificate
    assert [(c.rule, v) for c, v in V.class_verdicts(cert.structure, cert.group_step, proof.Verdict.UAP)] == [
        ("SYM-UNDECIDED", proof.Verdict.INCONCLUSIVE)]
    assert f"; INCONCLUSIVE for n ≥ {low} and (n mod {s} ∈ {{1, 2}})" in headline(r)
    assert "restricted on purpose" in r.root.claim


@pytest.mark.parametrize("w, s, low", CASES)
def test_each_proved_class_is_the_concrete_engine_s(w, s, low):
    """At every n of a period from the start: on a proved class the concrete group is the one stated (order 2n
    when s | n, else 2) and the concrete count is at most the stated sufficient one."""
    symbolic = _check("n", w, s)
    for n in range(low, low + s):
        if n % s in (1, 2):
            continue
        concrete = _check(n, w, s)
        assert concrete.verdict == "UAP", n
        assert concrete.group.order == (2 * n if n % s == 0 else 2), n
        stated = symbolic.layers if isinstance(symbolic.layers, int) else \
            int(symbolic.layers.subs(sympy.Symbol("n", integer=True, positive=True), n))  # by class (F67)
        assert concrete.layers <= stated, n


def test_w_one_keeps_every_class():
    r = _check("n", 1, 5)
    assert r.verdict == "UAP" and not any(x.rule == "SYM-UNDECIDED" for x in r.root.walk())


@functools.lru_cache(maxsize=None)
def _cert_text(w: int, s: int) -> str:
    text = SOURCE.format(n="n", w=w, s=s)
    return json.dumps(certfile.build(_check("n", w, s), text))


def _cert(w: int, s: int):
    return copy.deepcopy(json.loads(_cert_text(w, s)))


def _step(cert, rule):
    return next(x for x in cert["steps"] if x["rule"] == rule)


def test_the_verifier_re_checks_the_open_classes():
    report = verify(_cert(2, 7))
    assert report.ok and report.complete, [(x.rule, x.outcome, x.reason) for x in report.steps] + report.problems
    step = next(x for x in report.steps if x.rule == "SYM-AUT")
    assert "except on n mod 7 ∈ [1, 2]" in step.reason


@pytest.mark.parametrize("tamper", ["no open classes", "fewer open classes", "no undecided step", "range"])
def test_the_verifier_rejects_tampered_open_classes(tamper):
    cert = _cert(2, 7)
    sym, undecided, root = _step(cert, "SYM-AUT"), _step(cert, "SYM-UNDECIDED"), cert["steps"][-1]
    if tamper == "no open classes":  # the group claimed on every class
        del sym["data"]["open classes"]
    elif tamper == "fewer open classes":
        sym["data"]["open classes"]["residues"] = [1]
    elif tamper == "no undecided step":
        undecided["data"]["classes"]["residues"] = [1]
    else:  # the UAP range n ≥ 77 contains the open classes
        root["data"]["range"] = {"rel": ">=", "args": [{"sym": "n"}, 77]}
    report = verify(cert)
    assert not report.ok
    if tamper != "range":
        assert next(x for x in report.steps if x.rule == "SYM-AUT").outcome == REJECTED


def test_the_kernel_requires_the_range_to_exclude_the_open_classes():
    """VerdictPremises re-derives the verdict: the group step's range excludes the SYM-UNDECIDED classes."""
    r = _check("n", 2, 7)
    cert = r.root.certificate
    assert V.excludes_classes(cert.group_step.facts["group"], cert.structure)
    cert.check()
    assert proof.Verdict.UAP is r.root.facts["verdict"]
