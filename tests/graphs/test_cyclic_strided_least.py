"""Theorem F67 (docs/theory.md §11.11) at a concrete length: `window(w) cyclic + strided(2w + 3)`, w ≥ 2, needs D = 3
layers, least, at every n in Theorem F26's range with s | n. The family theorem at such an n against the concrete
engine (rooted views by canonical labelling) and the common-neighbour premise on the reference arcs; the lengths that
are not multiples of s keep D + 1 = 4, sufficient; the verifier restates it at the file's length."""
from __future__ import annotations

from collections import deque

import pytest
import sympy
from certificates import certificate_of, rejects, softmax_source

from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.spec import PatternUnion, Strided, Window
from uapcheck.verifier import verify

from .reference import attends


def _pattern(w: int) -> PatternUnion:
    return PatternUnion((Window(w, True), Strided(2 * w + 3)))


@pytest.mark.parametrize("w, n", [(2, 77), (2, 84), (2, 91)])
def test_at_a_multiple_of_s_against_the_concrete_engine(w, n):
    theorem = families.match([_pattern(w)], sympy.Integer(n), {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F26"
    assert theorem.least and int(theorem.layers) == 3 and "F67" in theorem.why_layers
    got = concrete(_pattern(w), n)
    assert got.least and got.layers == got.diameter == 3


@pytest.mark.parametrize("w, n", [(2, 78), (2, 83), (3, 136)])
def test_elsewhere_the_count_stays_sufficient(w, n):
    theorem = families.match([_pattern(w)], sympy.Integer(n), {})
    assert isinstance(theorem, families.FamilyTheorem) and not theorem.least and int(theorem.layers) == 4
    symbolic = families.match([_pattern(w)], sympy.Symbol("n", integer=True, positive=True), {})
    assert not symbolic.least and "F67" in symbolic.open_question


def _premise(pattern, n: int) -> bool:
    pairs = attends(pattern, n)
    adj = {v: {j for (i, j) in pairs if i == v} for v in range(1, n + 1)}
    for root in adj:
        d = {root: 0}
        queue = deque([root])
        while queue:
            u = queue.popleft()
            for v in adj[u]:
                if v not in d:
                    d[v] = d[u] + 1
                    queue.append(v)
        ball = {v for v, k in d.items() if k <= 2}
        far = sorted(v for v, k in d.items() if k == 3)
        for x, u in enumerate(far):
            for v in far[x + 1:]:
                if (v in adj[u]) != bool(adj[u] & adj[v] & ball):
                    return False
    return True


def test_the_premise_on_the_reference_arcs():
    """F67's premise where s | n, and its failure at the other residues (why the theorem needs s | n)."""
    assert _premise(_pattern(2), 84) and _premise(_pattern(3), 135)
    assert not _premise(_pattern(2), 85)


def test_the_verifier_restates_it_at_the_file_s_length():
    """At n = 700 (7 | n; about 70,000 arcs, where the closed forms answer in place of the rooted views) the engine
    states 3 layers, least, and the verifier re-checks them with its own F67 family."""
    cert = certificate_of(softmax_source("window(2) cyclic + strided(7)", 700))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is True
    report = verify(cert)
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    step["data"]["least"] = False
    assert rejects(cert, "PAT-LAYERS")


def test_the_verifier_family_off_the_multiples():
    from uapcheck.verifier.symbolic_unions import cyclic_strided
    parts = [Window(2, True), Strided(7)]
    assert cyclic_strided(parts, 700).least and cyclic_strided(parts, 700).layers == 3
    assert cyclic_strided(parts, 70).layers == 4  # below the range
    assert not cyclic_strided(parts, 701).least and cyclic_strided(parts, 701).layers == 4
    assert not cyclic_strided(parts, None).least
