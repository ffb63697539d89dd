"""The group above the verifier's set-based arc limit (n > 1,024) when the arcs carry classes: a position term in the
weights (`reweight`, seen through its offset classes, §16) or a bias. The bare arcs' group (twin classes, the window
lemma's reflection) is larger than the family's there: `blocks(3) + window(1)` with `reweight 1 + (i - j)^2` at 1,100
has the bare twins 1, 2 but a trivial group, and `window(1)` with `reweight exp(j - i)` is trivial, not the window's
reflection; the verifier REJECTED both honest certificates. It now re-derives the group on the arc arrays labelled by
their classes: colour refinement (a product of symmetric groups when every cell is a twin class), else one position
individualised (|G| = its orbit when its stabiliser is trivial), else `trusted`. Each case is checked against nauty on
the labelled structure at small n (a second way), and a tampered order or name is rejected."""
from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.parse import parse_source
from uapcheck.verifier import REJECTED, VERIFIED, arrays, groups, patterns, verify


def _text(n: int, pattern: str, weights: str) -> str:
    return f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n  {weights}\n}}\n"


def _labels(kind, codes: np.ndarray, n: int) -> np.ndarray:
    j, i = np.divmod(codes, n)
    return np.array([0 if kind is None else patterns.bias_class(kind, n, int(a) + 1, int(b) + 1)
                     for a, b in zip(j, i)], dtype=np.int64) if kind != "free" else codes.copy()


KINDS = [None, "toeplitz", "symmetric toeplitz", "circulant", "symmetric circulant"]
PATTERNS = ["window(1)", "blocks(3) + window(1)", "window(2) cyclic", "offsets {1, -2}", "window(1) + global(1)",
            "blocks(2) + window(1)", "window(1) + dilated(2, 2)", "star", "window(2) + random(1, seed=3)"]


def _order_on_arrays(pattern: str, kind, n: int):
    spec = parse_source(_text(n, pattern, ""))
    codes = arrays.head_codes(spec.heads[0].pattern, n)
    labels = [_labels(kind, codes, n)]
    cells = arrays.group_by_refinement([codes], n, labels)
    if cells is not None:
        return math.prod(math.factorial(len(c)) for c in cells)
    colour = arrays.refine([codes], n, labels, arrays.labelled_rounds([codes], n))
    found = arrays.individualised_group([codes], n, labels, colour) if colour is not None else None
    return None if found is None else found[0]


def test_labelled_refinement_and_individualisation_give_nautys_order():
    seen = 0
    for pattern in PATTERNS:
        for kind in KINDS:
            for n in (7, 9, 12, 13):
                mine = _order_on_arrays(pattern, kind, n)
                spec = parse_source(_text(n, pattern, ""))
                heads = [patterns.head_arcs(spec.heads[0].pattern, n)]
                lab = {k: tuple((h, c if kind is not None else 0) for h, c in v)
                       for k, v in patterns.labels_at(spec, heads, n, [kind]).items()}
                full, _ = groups.full_order(lab, n, "none")
                if mine is not None:
                    seen += 1
                    assert mine == full, (pattern, kind, n, mine, full)
    assert seen >= 120


def test_an_individualised_candidate_that_breaks_a_label_is_not_counted():
    # window(1) with toeplitz classes (j − i): the reflection maps offset +1 to −1, so only the identity is left
    n = 11
    codes = arrays.head_codes(parse_source(_text(n, "window(1)", "")).heads[0].pattern, n)
    labels = [_labels("toeplitz", codes, n)]
    assert arrays.group_by_refinement([codes], n, labels) == []  # refinement alone separates every position
    sym = [_labels("symmetric toeplitz", codes, n)]
    assert arrays.group_by_refinement([codes], n, sym) is None  # the reflection's pairs are no twins
    colour = arrays.refine([codes], n, sym, arrays.labelled_rounds([codes], n))
    order, gens = arrays.individualised_group([codes], n, sym, colour)
    assert order == 2 and gens == [list(range(n, 0, -1))]


def _cert(n: int, pattern: str, weights: str) -> dict:
    text = _text(n, pattern, weights)
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _group(cert: dict):
    sid = next(s["id"] for s in cert["steps"] if s["rule"] == "SYM-AUT")
    return next(s for s in verify(cert, only={sid}).steps if s.rule == "SYM-AUT")


CASES = [("blocks(3) + window(1)", "reweight c(i, j) = 1 + (i - j)^2", "trivial", 1),
         ("window(1)", "reweight c(i, j) = exp(j - i)", "trivial", 1),
         ("window(1)", "reweight c(i, j) = 1 + (i - j)^2", "reflection", 2)]


@pytest.mark.parametrize("pattern, weights, name, order", CASES)
def test_the_labelled_group_above_the_arc_limit_is_verified_and_a_changed_one_rejected(pattern, weights, name, order):
    cert = _cert(1100, pattern, weights)
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    assert (step["data"]["name"], step["data"]["order"]) == (name, order)
    found = _group(cert)
    assert found.outcome == VERIFIED and "labelled by their bias classes" in found.reason
    for other, size in (("reflection", 2), ("trivial", 1), ("C_n", 1100)):
        if other == name:
            continue
        bad = copy.deepcopy(cert)
        s = next(s for s in bad["steps"] if s["rule"] == "SYM-AUT")
        s["data"]["name"], s["data"]["order"] = other, size
        assert _group(bad).outcome == REJECTED, (other, size)


def _sym_aut_outcome(text: str):
    from certificates import certificate_of
    cert = certificate_of(text)
    report = verify(cert)
    return next(s for s in report.steps if s.rule == "SYM-AUT"), cert


def test_trivial_group_of_a_reweight_of_both_signs_is_verified_by_the_bare_arcs():
    # `causal` has only the identity, so the family's group (its labels refine the arcs) is trivial whatever the
    # weights' classes are: verified, though a reweight of both signs has no offset classes re-derived
    step, cert = _sym_aut_outcome(_text(6, "causal", "reweight c(i, j) = 1 + j - i"))
    assert step.outcome == VERIFIED and "bare arcs" in step.reason


def test_a_larger_bare_group_leaves_the_reweight_group_trusted():
    # window(1)'s bare arcs have the reflection; with weights of both signs their classes decide the family's
    # group, which is not re-derived: not verified
    step, cert = _sym_aut_outcome(_text(6, "window(1)", "reweight c(i, j) = 1 + j - i"))
    assert step.outcome != VERIFIED

