"""D layers, least, of one head from its twin quotient (Theorem F196, Lemma L (c)), decided by the verifier on a
stand-in it builds itself (uapcheck/verifier/twin_stand_in.py): its R-equivalence test against every signed sum, the
route against nauty's rooted views of the whole pattern, and the certificates the engine writes at real sizes (the
count was `trusted` before)."""
from __future__ import annotations

import itertools
import json
import random

import pytest

from verifier_arcs import arcs_and_diameter, verifier_context
from certificates import certificate_of, softmax_source

from uapcheck.verifier import REJECTED, TRUSTED, VERIFIED, verify
from uapcheck.verifier import check as C
from uapcheck.verifier import groups, patterns, twin_stand_in, views

F196_REASON = "Lemma L (Theorem F196, docs/theory.md §11.11): the stand-in"


def _brute_r_equivalent(sizes, stand) -> bool:
    k = len(sizes)
    r = sum(min(c, k) for c in sizes)
    for eps in itertools.product((-1, 0, 1), repeat=k):
        s = sum(e * c for e, c in zip(eps, sizes))
        s2 = sum(e * c for e, c in zip(eps, stand))
        if abs(s) <= r and s2 != s:
            return False
        if abs(s) > r and not (abs(s2) > r and (s2 > 0) == (s > 0)):
            return False
    return True


def test_r_equivalence_is_every_signed_sum():
    rng = random.Random(196)
    seen = {True: 0, False: 0}
    for _ in range(400):
        k = rng.randint(1, 6)
        sizes = [rng.choice([1, 1, 2, 3, rng.randint(1, 12), rng.randint(10, 60)]) for _ in range(k)]
        table = {c: (c if rng.random() < 0.4 else max(1, c + rng.randint(-12, 12))) for c in set(sizes)}
        stand = [table[c] for c in sizes]
        got = twin_stand_in.r_equivalent(sizes, stand) is None
        assert got == _brute_r_equivalent(sizes, stand), (sizes, stand)
        seen[got] += 1
    assert min(seen.values()) >= 40


def _step(sizes, hint) -> dict:
    return {"id": "s", "rule": "PAT-LAYERS", "certificate": {"kind": "trusted", "reason": F196_REASON, "data": {
        "twin classes": [{"positions": "", "size": c, "stand-in size": hint[c]} for c in sizes]}}}


CASES = [("blocks({b}) + global(1)", (14, 40)), ("blocks({b}) + window(1)", (50, 70)), ("blocks({b}) + global(2)", (16, 40)),
         ("blocks({b}) + star", (14, 40)), ("blocks({b}) + global(3)", (16, 40)), ("blocks({b}) + window(1) + star", (50, 70)),
         ("blocks({b}) + window(1) + global(1)", (50, 70)), ("blocks({b}) + window(1) + global(2)", (50, 70))]


@pytest.mark.parametrize("pattern, widths", CASES)
def test_the_route_agrees_with_the_rooted_views_of_the_whole_pattern(pattern, widths):
    """On seeded lengths: wherever the route decides (its stand-in smaller than the pattern), its answer is nauty's on
    the pattern's own arcs under the pattern's whole group — no view witness at depth D iff the route verifies."""
    from uapcheck.graphs import twin_quotient as T  # the engine's stand-in sizes, only as the certificate's hint
    rng = random.Random(sum(map(ord, pattern)))
    decided = 0
    for _ in range(10):
        b = rng.randint(*widths)
        n = rng.randint(2 * b + 1, 3 * b + 3)
        text = softmax_source(pattern.format(b=b), n)
        ctx = verifier_context(text)
        arcs, d = arcs_and_diameter(ctx, n)
        if d is None:
            continue
        try:
            sizes = [len(c) for c in twin_stand_in.classes(ctx)]
        except C.Trust:
            continue
        small = T.stand_in_sizes(tuple(sizes))
        if d < 2 or small is None or sum(small) == n:
            continue
        step = _step(sizes, dict(zip(sizes, small)))
        try:
            outcome = twin_stand_in.layers(ctx, step, d)[0]
        except C.Reject:
            outcome = REJECTED
        except C.Trust:
            continue
        gens, _ = groups.full_generators(patterns.head_labels(arcs), n, "none")
        truth = views.decide(arcs, n, d, gens) is None
        assert (outcome == VERIFIED) == truth, (pattern, b, n, d, outcome)
        decided += 1
    assert decided >= 2


def _pat_layers(report):
    return next(s for s in report.steps if s.rule == "PAT-LAYERS")


def test_d_layers_from_the_stand_in_are_verified():
    cert = certificate_of(softmax_source("blocks(6000) + global(1)", 10000))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["layers"] == step["data"]["diameter"] == 2 and step["data"]["least"]
    assert twin_stand_in.applies(step)
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert "Theorem F196" in _pat_layers(report).reason


def _layers_only(cert: dict) -> dict:
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    return _pat_layers(verify(cert, only={step["id"], cert["steps"][-1]["id"]}))


def test_d_layers_claimed_where_the_stand_in_has_a_view_witness_are_rejected():
    """blocks(5000) + global(1) at 15,001 (four blocks, the last of one position) needs 3 = D + 1 layers: the count
    forged to D, least, without its witness."""
    cert = certificate_of(softmax_source("blocks(5000) + global(1)", 15001))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["layers"] == 3 and step["data"]["diameter"] == 2
    step["data"].update(layers=2, **{"view witness": None})
    step["certificate"]["data"].update(layers=2, witness=None)
    cert["layers"] = 2
    got = _layers_only(cert)
    assert got.outcome == REJECTED and "do not suffice" in got.reason and "Lemma L" in got.reason


@pytest.fixture(scope="module")
def window_certificate() -> str:
    return json.dumps(certificate_of(softmax_source("blocks(12000) + window(1)", 20000)))


def _classes(cert: dict) -> list:
    return next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["certificate"]["data"]["twin classes"]


def test_twin_classes_the_pattern_does_not_have_are_rejected(window_certificate):
    cert = json.loads(window_certificate)
    widest = max(_classes(cert), key=lambda c: c["size"])
    widest["size"] += 1
    got = _layers_only(cert)
    assert got.outcome == REJECTED and "twin classes have the sizes" in got.reason


@pytest.mark.parametrize("stand_in", [3, 0])
def test_stand_in_sizes_that_are_not_r_equivalent_leave_the_count_trusted(window_certificate, stand_in):
    cert = json.loads(window_certificate)
    assert _layers_only(cert).outcome == VERIFIED
    max(_classes(cert), key=lambda c: c["size"])["stand-in size"] = stand_in
    got = _layers_only(cert)
    assert got.outcome == TRUSTED and "R-equivalent" in got.reason


def test_below_the_arc_limit_the_count_and_the_group_are_verified_without_generators():
    """blocks(600) + window(1) at n = 1,000: the engine states the group by its twin classes, with no generators (the
    verifier reported both the count and the group `trusted`, the G-orbits unknown); the group is now re-derived from
    the verifier's own twin classes and nauty on the quotient, and a doubled order is rejected."""
    cert = certificate_of(softmax_source("blocks(600) + window(1)", 1000))
    group = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    assert group["data"]["generators"] is None and group["data"]["order"] is None
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert "Theorem F196" in _pat_layers(report).reason
    stated = group["certificate"]["data"]["order"]
    assert stated.startswith("≈ 3.")
    group["certificate"]["data"]["order"] = "≈ 6." + stated[4:]
    got = next(s for s in verify(cert, only={group["id"], cert["steps"][-1]["id"]}).steps if s.id == group["id"])
    assert got.outcome == REJECTED and "twin classes" in got.reason


def _renamed(cert: dict, new: str) -> dict:
    """The certificate with G's name replaced wherever it is written (the step, the summary, the verdict's facts)."""
    old = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")["data"]["name"]
    return json.loads(json.dumps(cert).replace(json.dumps(old)[1:-1], json.dumps(new)[1:-1]))


@pytest.mark.parametrize("new", ["trivial", "S_5999 on {2, …, 6000} × S_4000 on {6001, …, 10000} × S_2 on {1, 2}",
                                 "S_5999 on {1, …, 5999} × S_4000 on {6001, …, 10000}",
                                 "(S_5999 on {2, …, 6000} × S_4000 on {6001, …, 10000}) ⋊ the 2 permutations of whole "
                                 "twin classes that keep the pattern"])
def test_a_twin_quotient_group_named_as_another_group_is_rejected(new):
    """The name of the twin quotient's group was read nowhere: `trivial`, written alike in the step, the summary and
    the verdict's facts, was certified beside the order of the classes' symmetric groups."""
    cert = certificate_of(softmax_source("blocks(6000) + global(1)", 10000))
    name = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")["data"]["name"]
    assert name == "S_5999 on {2, …, 6000} × S_4000 on {6001, …, 10000}"
    report = verify(_renamed(cert, new))
    group = next(s for s in report.steps if s.rule == "SYM-AUT")
    assert not report.ok and group.outcome == REJECTED, (group.outcome, group.reason)


def test_the_class_permutations_in_a_twin_quotient_group_s_name_are_counted():
    """blocks(700) + strided(2) at 1,000: G is the residue cells' symmetric groups with the 2 permutations exchanging
    the two residue classes; the count of those permutations is re-derived (nauty on the quotient)."""
    cert = certificate_of(softmax_source("blocks(700) + strided(2)", 1000))
    name = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")["data"]["name"]
    assert name.endswith("⋊ the 2 permutations of whole twin classes that keep the pattern")
    assert next(s for s in verify(cert).steps if s.rule == "SYM-AUT").outcome == VERIFIED
    report = verify(_renamed(cert, name.replace("the 2 permutations", "the 4 permutations")))
    assert next(s for s in report.steps if s.rule == "SYM-AUT").outcome == REJECTED
