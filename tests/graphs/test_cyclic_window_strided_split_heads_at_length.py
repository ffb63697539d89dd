"""Theorem F210 at a concrete n (docs/theory.md §11.11): `window(w) cyclic` and `strided(s)` split over heads (or either
beside their union), w + 1 ≤ s ≤ 2w + 1, s ≥ 3, at an integer n ≥ s(3w + 2) whose class of n mod s is one of Theorem
F200's: 3 layers, least, read without the rooted views. With the arcs built (the graph engine), Theorem F200's
witness at n goes out as a view witness, checked on the heads' arcs by the kernel and the verifier; above the arc limit
(the closed forms at n), a "covered stride heads" certificate that carries n, which the verifier restates.

Checked a second way: at every n of one period from the range's start, for eight (w, s), F210's answer at n (a witness
exactly on F200's classes) against the concrete engine's rooted views (canonical labelling) at the same n, which run
there since the heads have fewer arcs than the family-first limit; the witness at n by the kernel's arc-by-arc check
on the engine's graphs; the files at lengths past that limit (F210 read, least, verified) and at n = 70,001 (no arcs;
the verifier accepts it, and rejects a length outside the classes, a changed length and a least flag dropped)."""
from __future__ import annotations

import dataclasses
import functools

import pytest
from certificates import certificate_of, forged, rejects, with_text

from uapcheck.certificates import CoveredStrideHeads, ViewWitness
from uapcheck.graphs import build_graph
from uapcheck.graphs import cyclic_covered_heads as H
from uapcheck.graphs import cyclic_covered_least as L
from uapcheck.parse import parse_source
from uapcheck.proof import CertificateRejected
from uapcheck.render.verdict_lines import layers_least
from uapcheck.rules import pattern as P
from uapcheck.spec import Strided, Window
from uapcheck.verifier import verify

from .cyclic_window_strided_files import split_heads_checked as checked, split_heads_source as source


def _layers(result):
    return next(x for x in result.root.walk() if x.rule == "PAT-LAYERS")


#: (w, s, heads) compared with the rooted views over one period from the range's start (s = 2w + 1 among them)
PERIOD = [(1, 3, ("window", "strided")), (2, 4, ("window", "strided")), (2, 5, ("window", "strided")),
          (3, 5, ("union", "window")), (3, 6, ("window", "strided")), (4, 5, ("strided", "union")),
          (4, 6, ("window", "strided")), (5, 7, ("window", "strided"))]


@pytest.mark.parametrize("w, s, kinds", PERIOD)
def test_f210_at_n_is_the_rooted_views_count_over_a_period(w, s, kinds):
    low, classes = L.low(w, s), L.witness_classes(w, s)
    for n in range(low, low + s):
        spec = parse_source(source(n, w, s, kinds), "t.uap")
        graphs = [build_graph(p, n, {}) for p in dict.fromkeys(P._patterns(spec))]
        assert sum(g.num_arcs for g in graphs) <= P.FAMILY_FIRST_ARCS, n  # so the engine's count is the views'
        at = P._covered_heads_at(spec, 2)
        r = checked(n, w, s, kinds)
        engine = _layers(r)
        assert "F210" not in engine.claim, n
        if n % s not in classes:
            assert at is None, n
            continue
        assert at is not None and (at.layers, at.exact) == (3, True), n
        assert (r.layers, layers_least(r)) == (3, True), n  # the rooted views find 3 least there as well
        ViewWitness(tuple(graphs), 2, at.witness["position"], at.permutation).check()  # on the arcs, by the kernel


def test_f210_needs_its_premises_at_n():
    def at(text: str, n: int):
        return P._covered_heads_at(parse_source(text, "t.uap"), 2)
    assert at(source(120, 5, 7), 120) is not None  # 120 ≡ 1 (mod 7)
    assert at(source(118, 5, 7), 118) is None  # below s(3w + 2) = 119
    assert at(source(124, 5, 7), 124) is None  # 124 ≡ 5: no witness from Theorem F200 (open, O6)
    assert at(source(120, 5, 7).replace("exp(x . y)\n  pattern window", "exp(x . y)\n  bias toeplitz\n  pattern window"),
              120) is None  # a bias labels the arcs
    assert P._covered_heads_at(parse_source(source(120, 5, 7), "t.uap"), 3) is None  # not F197's D = 2


@pytest.mark.parametrize("w, s, n", [(5, 7, 302), (2, 4, 197), (3, 5, 231)])
def test_past_the_arc_limit_the_file_reads_f210_and_the_verifier_checks_the_witness(w, s, n):
    assert n % s in L.witness_classes(w, s)
    graphs = [build_graph(Window(w, True), n, {}), build_graph(Strided(s), n, {})]
    assert sum(g.num_arcs for g in graphs) > P.FAMILY_FIRST_ARCS  # so the theorem is read before the rooted views
    r = checked(n, w, s)
    step = _layers(r)
    assert r.verdict == "UAP" and (r.layers, layers_least(r)) == (3, True)
    assert "Theorem F210" in step.claim and isinstance(step.certificate, ViewWitness)
    if (w, s) == (5, 7):
        cert = certificate_of(source(n, w, s))
        report = verify(cert)
        assert report.ok, [(x.rule, x.outcome, x.reason) for x in report.steps]
        assert "view witness checked on the arcs" in next(x for x in report.steps if x.rule == "PAT-LAYERS").reason


BIG = 70_001  # ≡ 1 (mod 7): the strided head alone has about 7 × 10⁸ arcs, so the closed forms answer at n


@functools.lru_cache(maxsize=None)
def _big_certificate() -> str:
    import json
    return json.dumps(certificate_of(source(BIG, 5, 7)))


def big_certificate() -> dict:
    import json
    return json.loads(_big_certificate())


def test_without_the_arcs_the_count_is_f210_read_at_n_and_verified():
    r = checked(BIG, 5, 7)
    step = _layers(r)
    assert r.verdict == "UAP" and (r.layers, layers_least(r)) == (3, True)
    report = verify(big_certificate())
    assert report.ok and report.complete, [(x.rule, x.outcome, x.reason) for x in report.steps]
    reason = next(x for x in report.steps if x.rule == "PAT-LAYERS").reason
    if isinstance(step.certificate, CoveredStrideHeads):
        assert step.certificate.n == BIG and "F210" in reason
    else:  # Theorem F86 on the union's count by class (Theorems F200, F218, F219 decide every class)
        assert "F86" in reason, reason


def test_the_kernel_rejects_a_length_outside_the_classes():
    found = H.match([Window(5, True), Strided(7)])
    CoveredStrideHeads((Window(5, True), Strided(7)), found, BIG).check()
    CoveredStrideHeads((Window(5, True), Strided(7)), found, 701).check()  # re-checked at 701 itself too
    for n in (BIG + 4, 118):  # n ≡ 5 (mod 7), where F200 gives no witness; below the range
        with pytest.raises(CertificateRejected):
            CoveredStrideHeads((Window(5, True), Strided(7)), dataclasses.replace(found), n).check()


@pytest.mark.parametrize("tamper", ["length", "least", "layers"])
def test_the_verifier_rejects_a_tampered_count_at_n(tamper):
    cert = big_certificate()
    step = next(x for x in cert["steps"] if x["rule"] == "PAT-LAYERS")
    if tamper == "length":  # the certificate's n is not the file's
        step["certificate"]["n"] = BIG + 4
    elif tamper == "least":
        cert = forged(cert, "PAT-LAYERS", "least", False)
    else:  # 2 layers at n ≡ 1 (mod 7), where F200's seam swap is a witness
        cert = forged(cert, "PAT-LAYERS", "layers", 2)
    assert rejects(cert, "PAT-LAYERS")


def test_the_verifier_rejects_the_file_at_a_length_outside_the_classes():
    cert = with_text(big_certificate(), f"tokens {BIG}", f"tokens {BIG + 4}")
    next(x for x in cert["steps"] if x["rule"] == "PAT-LAYERS")["certificate"]["n"] = BIG + 4
    assert rejects(cert, "PAT-LAYERS")
