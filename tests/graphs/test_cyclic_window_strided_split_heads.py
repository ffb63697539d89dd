"""Theorem F210 (docs/theory.md §11.11): `window(w) cyclic` and `strided(s)` split over heads (or either beside their union),
w + 1 ≤ s ≤ 2w + 1, s ≥ 3, n ≥ s(3w + 2): D = 2 (the union's, Theorem F197), G = F201's; for s ≤ 2w, 2 layers, least, on
n ≡ 0 (mod s) (Theorem F218); 3 layers on the other classes, least on Theorem F200's classes of n mod s (every class for
s = 2w + 1), sufficient on the others.

Checked a second way: the count and its least flag against the concrete engine (rooted views of the heads' arcs by
canonical labelling) at every length of one period from the range's start for ten (w, s), and at every n from the start
to 60 for (2, 4); the verdict at symbolic n; the certificate's own check and the verifier's restatement (w and s read
off the re-parsed heads, the witness re-checked on each head's arcs) and their rejections. That F200's witness keeps
each head's neighbourhoods is checked on the reference arcs in tests/graphs/test_cyclic_window_strided_least.py."""
from __future__ import annotations

import copy
import functools
import json
from dataclasses import replace

import pytest
import sympy

from uapcheck import certfile
from uapcheck.certificates import CoveredStrideHeads
from uapcheck.graphs import cyclic_covered_heads as H
from uapcheck.graphs import cyclic_covered_least as L
from uapcheck.proof import CertificateRejected
from uapcheck.render.verdict_lines import headline, layers_least
from uapcheck.spec import PatternUnion, Strided, Window
from uapcheck.verifier import REJECTED, VERIFIED, verify

from .cyclic_window_strided_files import split_heads_checked as checked, split_heads_source as source


@functools.lru_cache(maxsize=None)
def _cert_text(n, w: int, s: int, kinds=("window", "strided")) -> str:
    return json.dumps(certfile.build(checked(n, w, s, kinds), source(n, w, s, kinds)))


def certificate(n, w: int, s: int, kinds=("window", "strided")) -> dict:
    return copy.deepcopy(json.loads(_cert_text(n, w, s, kinds)))


def _layers(cert: dict) -> dict:
    return next(x for x in cert["steps"] if x["rule"] == "PAT-LAYERS")


#: (w, s) of the family with a class that F200 decides, compared with the concrete engine over one period
ENGINE = [(1, 3), (2, 4), (2, 5), (3, 4), (3, 5), (3, 6), (3, 7), (4, 6), (5, 7), (5, 8)]


def test_the_match():
    win, st = Window(5, True), Strided(7)
    found = H.match([win, st])
    assert found == H.CoveredHeads(5, 7, 119, (1, 2, 3, 4)) and not found.every
    assert H.match([win, PatternUnion((win, st))]) == found and H.match([st, PatternUnion((st, win))]) == found
    assert H.match([PatternUnion((win, st))]) is None  # one head: Theorem F200 itself
    assert H.match([win, win]) is None and H.match([Window(5), st]) is None  # one pattern; a non-cyclic window
    assert H.match([Window(1, True), Strided(2)]) is None  # s = 2 (w = 1): not this theorem's
    assert H.match([Window(2, True), Strided(6)]) is None  # s > 2w + 1
    assert H.match([Window(2, True), Strided(5)]).every
    assert H.match([win, Strided(12)]) is None and H.match([win, st, Strided(3)]) is None  # s > 2w + 1; two strides


@pytest.mark.parametrize("w, s", ENGINE)
def test_the_count_is_the_concrete_engine_s_over_a_period(w, s):
    low, classes = L.low(w, s), L.witness_classes(w, s)
    top = max(60, low + s - 1) if (w, s) == (2, 4) else low + s - 1
    for n in range(low, top + 1):
        r = checked(n, w, s)
        assert r.verdict == "UAP" and layers_least(r), n
        assert r.layers == (3 if n % s in classes else 2), n  # 2 elsewhere: never below F210's 3, open there


@pytest.mark.parametrize("w, s, kinds", [(5, 7, ("window", "strided")), (2, 4, ("strided", "union")),
                                         (2, 5, ("window", "strided")), (3, 5, ("union", "window"))])
def test_the_verdict_at_symbolic_n(w, s, kinds):
    r = checked("n", w, s, kinds)
    text = headline(r)
    if s == 2 * w + 1:
        assert r.verdict == "UAP" and r.layers == 3
        assert "sufficient" not in text and f"(for n ≥ {L.low(w, s)})" in text
    else:  # Theorems F218 and F219: 2 layers, least, on s | n and on F219's classes; 3, least, on F200's
        two = (0,) + L.suffice_classes(w, s)
        assert set(two) | set(L.witness_classes(w, s)) == set(range(s))
        n = sympy.Symbol("n", integer=True, positive=True)
        assert r.verdict == "UAP" and layers_least(r) and "sufficient" not in text
        for e in range(s):
            assert int(sympy.sympify(r.layers).xreplace({n: 40 * s + e})) == (2 if e in two else 3), (e, r.layers)


def test_the_certificate_check_re_decides():
    found = H.match([Window(5, True), Strided(7)])
    n = sympy.Symbol("n", integer=True, positive=True)
    count = sympy.Piecewise((2, sympy.Eq(sympy.Mod(n, 7), 0)), (3, True))
    least = (7, (0, 1, 2, 3, 4))
    CoveredStrideHeads((Window(5, True), Strided(7)), found, layers=count, least_classes=least).check()
    with pytest.raises(CertificateRejected):
        CoveredStrideHeads((Window(5, True), Strided(7)), replace(found, classes=(1, 2, 3, 4, 5)), layers=count,
                           least_classes=least).check()
    with pytest.raises(CertificateRejected):
        CoveredStrideHeads((Window(5, True), Strided(8)), found, layers=count, least_classes=least).check()
    with pytest.raises(CertificateRejected):  # 3 layers on every class: not Theorem F218's count on 7 | n
        CoveredStrideHeads((Window(5, True), Strided(7)), found, layers=sympy.Integer(3), least_classes=least).check()
    with pytest.raises(CertificateRejected):  # 2 layers on every class
        CoveredStrideHeads((Window(5, True), Strided(7)), found, layers=sympy.Integer(2), least_classes=least).check()
    with pytest.raises(CertificateRejected):  # least on a class where nothing shows it
        CoveredStrideHeads((Window(5, True), Strided(7)), found, layers=count,
                           least_classes=(7, (0, 1, 2, 3, 4, 5))).check()
    with pytest.raises(CertificateRejected):  # no count stated
        CoveredStrideHeads((Window(5, True), Strided(7)), found).check()


@pytest.mark.parametrize("w, s, kinds", [(2, 4, ("window", "strided")), (3, 5, ("union", "window"))])
def test_the_verifier_restates_it(w, s, kinds):
    report = verify(certificate("n", w, s, kinds))
    assert report.ok and report.complete, [(x.rule, x.outcome, x.reason) for x in report.steps] + report.problems
    step = next(x for x in report.steps if x.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED and ("F210" in step.reason or "F86" in step.reason)


def test_every_class_is_left_to_the_heads_theorem():
    # s = 2w + 1: least on every class, which Theorem F86 (the union's swap kept by every head) already states
    r = checked("n", 2, 5, ("window", "strided"))
    step = next(x for x in r.root.walk() if x.rule == "PAT-LAYERS")
    assert step.facts["least"] is True and step.facts["layers"] == 3


@pytest.mark.parametrize("tamper", ["layers", "three", "range", "as an inference"])
def test_the_verifier_rejects_a_tampered_count(tamper):
    # (the count is least on every class now, F200 on n ≡ 1, F218 on 4 | n, F219 on n ≡ 2, 3: a least flag on any
    # class is the statement itself, and the forgeries are a count below the least one or above it stated least)
    cert = certificate("n", 2, 4)
    step = _layers(cert)
    if tamper == "layers":  # 2 on every class: F200's witness refutes it on n ≡ 1
        step["data"]["layers"] = 2
    elif tamper == "three":  # 3 on 4 | n too, stated least: not Theorem F218's count there
        step["data"]["layers"] = 3
    elif tamper == "range":
        step["data"]["from"] = 31
    else:  # the least flag by class without F210's certificate: the several-heads check does not re-derive it
        step["certificate"] = {"kind": "inference", "premises": [{"step": "s12", "status": "proved"}],
                               "argument": "the view argument"}
    report = verify(cert)
    assert not report.ok
    assert next(x for x in report.steps if x.rule == "PAT-LAYERS").outcome == REJECTED
