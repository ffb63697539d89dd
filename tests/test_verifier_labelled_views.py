"""Labelled rooted views (docs/theory.md §11.10) in the verifier, and the group of heads with a position term at an
integer n. With a trainable bias of the offset (`bias toeplitz`, `symmetric toeplitz`, …) above n = 8 the verifier
left "D layers, least" trusted ("rooted views are decided here for heads without bias"); it now decides the labelled
views R_i^λ with nauty, each arc labelled by its (head, class) pairs. And the group of heads with a position term in
the weights was re-derived from the bare arcs at an integer n, so honest SYM-AUT steps were REJECTED (`window(1) +
global(1)` with `reweight 1 + (i - j)^2` at 12: "the family has 2 symmetries … the generators give only 1"); the
classes are now read as at larger n (`rules_positions.effective_bias`)."""
from __future__ import annotations

import copy
import itertools
import json

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.parse import parse_source
from uapcheck.verifier import REJECTED, VERIFIED, groups, patterns, verify, views


def _text(n: int, pattern: str, weights: str) -> str:
    return f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n  {weights}\n}}\n"


def _cert(n: int, pattern: str, weights: str) -> dict:
    text = _text(n, pattern, weights)
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _brute_witness(heads, n: int, d: int, kind, lab: dict) -> bool:
    """Some σ outside the labelled group and some i such that every position whose labelled neighbourhood σ
    changes is at distance ≥ d from i (§11.10's labelled view witness), by trying every σ."""
    outs = patterns.union_out(heads, n)
    ins = [[] for _ in range(n + 1)]
    for j, succ in enumerate(outs):
        for i in succ:
            ins[i].append(j)
    to = {i: patterns.bfs(ins, i) for i in range(1, n + 1)}
    nb = patterns.in_neighbourhoods(heads, n)[0]
    for images in itertools.permutations(range(1, n + 1)):
        perm = list(images)
        if patterns.preserves(perm, lab):
            continue
        bad = set()
        for v in range(1, n + 1):
            sv = perm[v - 1]
            if frozenset(perm[u - 1] for u in nb[v]) != nb[sv] or any(
                    patterns.bias_class(kind, n, perm[u - 1], sv) != patterns.bias_class(kind, n, u, v) for u in nb[v]):
                bad.add(v)
        if len(bad) == n:
            continue
        for i in range(1, n + 1):
            if all(to[i][v] is None or to[i][v] > d - 1 for v in bad):
                return True
    return False


@pytest.mark.parametrize("pattern", ["window(1)", "window(2) cyclic", "window(1) + global(1)", "blocks(2) + window(1)",
                                     "offsets {1, -2}", "window(1) cyclic"])
@pytest.mark.parametrize("kind", ["toeplitz", "symmetric toeplitz", "circulant", "symmetric circulant"])
def test_labelled_rooted_views_agree_with_every_permutation(pattern, kind):
    for n in (6, 7):
        spec = parse_source(_text(n, pattern, ""))
        heads = [patterns.head_arcs(spec.heads[0].pattern, n)]
        lab = patterns.labels_at(spec, heads, n, [kind])
        d = max(x for s in range(1, n + 1) for x in patterns.bfs(patterns.union_out(heads, n), s)[1:] if x is not None)
        gens, _ = groups.full_generators(lab, n, "none")
        witness = views.decide(heads, n, d, gens, [kind]) is not None
        assert witness == _brute_witness(heads, n, d, kind, lab), (pattern, kind, n)


# (a window with `bias toeplitz` is Theorem F135's, or F152's when cyclic, re-derived in closed form:
# test_t5_buckets_sparse.py, test_t5_buckets_cyclic_any_length.py; with `bias circulant` its classes are not the
# sign-keeping ones those theorems read, so the rooted views decide)
BIASED = [("window(2)", "bias circulant"), ("window(1) + global(1)", "bias symmetric toeplitz"),
          ("blocks(3) + window(1)", "bias symmetric toeplitz"), ("window(2) cyclic", "bias circulant")]


@pytest.mark.parametrize("pattern, weights", BIASED)
def test_d_layers_with_a_trainable_bias_are_verified_by_labelled_views(pattern, weights):
    cert = _cert(12, pattern, weights)
    layers = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert layers["data"]["least"] is True and layers["data"]["layers"] == layers["data"]["diameter"]
    out = {s.rule: s for s in verify(cert).steps}
    assert out["PAT-LAYERS"].outcome == VERIFIED and "labelled rooted views" in out["PAT-LAYERS"].reason
    assert all(s.outcome == VERIFIED for s in out.values())


def test_a_labelled_witness_makes_a_claim_of_d_layers_rejected():
    """`window(1) + global(1)` with `bias symmetric circulant` at 12: the labelled views have a witness (the engine
    states D + 1 = 3, least); a certificate stating D layers instead is rejected by the labelled rooted views."""
    cert = _cert(12, "window(1) + global(1)", "bias symmetric circulant")
    layers = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    d = layers["data"]["diameter"]
    assert layers["data"]["layers"] == d + 1 == 3 and layers["data"]["least"] is True
    assert {r.rule: r for r in verify(cert).steps}["PAT-LAYERS"].outcome == VERIFIED
    bad = copy.deepcopy(cert)
    s = next(s for s in bad["steps"] if s["rule"] == "PAT-LAYERS")
    s["data"]["layers"], s["data"]["least"] = d, True
    s["data"].pop("view witness", None)
    out = {r.rule: r for r in verify(bad, only={s["id"]}).steps}
    assert out["PAT-LAYERS"].outcome == REJECTED


def test_a_free_bias_is_not_decided_by_labelled_views():
    spec = parse_source(_text(12, "window(2)", "bias free"))
    assert spec.heads[0].bias == "free"
    from uapcheck.verifier import rules_graph
    assert "free" not in rules_graph.OFFSET_KINDS


@pytest.mark.parametrize("pattern, order", [("window(1) + global(1)", 1), ("blocks(3) + window(1)", 2),
                                            ("window(2) cyclic", 2)])
def test_the_group_with_a_position_term_at_an_integer_n_is_the_labelled_one(pattern, order):
    cert = _cert(12, pattern, "reweight c(i, j) = 1 + (i - j)^2")
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    assert step["data"]["order"] == order
    out = {r.rule: r for r in verify(cert, only={step["id"]}).steps}
    assert out["SYM-AUT"].outcome == VERIFIED
    bigger = copy.deepcopy(cert)  # the bare arcs' group: a generator that breaks the classes is rejected
    s = next(s for s in bigger["steps"] if s["rule"] == "SYM-AUT")
    spec = parse_source(_text(12, pattern, ""))
    bare, _ = groups.full_generators(patterns.labels(spec, [patterns.head_arcs(spec.heads[0].pattern, 12)]), 12, "none")
    s["data"]["generators"] = bare
    s["data"]["order"] = groups.order(bare, 12)
    assert groups.order(bare, 12) > order
    out = {r.rule: r for r in verify(bigger, only={s["id"]}).steps}
    assert out["SYM-AUT"].outcome == REJECTED


def test_a_fixed_position_term_beside_a_trainable_bias_is_not_decided_by_labelled_views():
    """Lemma V^λ (D layers when no labelled witness exists) is for trainable classes: a head with a fixed position
    term beside a biased one leaves a claim of D layers trusted, never verified."""
    text = ("tokens 12\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(2)\n  bias toeplitz\n}\n"
            "attention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(2)\n  reweight c(i, j) = 1 + (i - j)^2\n}\n")
    cert = json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))
    s = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    s["data"]["layers"], s["data"]["least"] = s["data"]["diameter"], True
    s["data"].pop("view witness", None)
    out = next(r for r in verify(cert, only={s["id"]}).steps if r.rule == "PAT-LAYERS")
    assert out.outcome != VERIFIED
