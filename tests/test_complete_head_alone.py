"""Theorem F141 (docs/theory.md §16.5): a complete head whose own step proves it 1-layer token distinguishing w.r.t. the
trivial group (RoPE, a fixed offset-injective bias) beside a window with T5 buckets: one layer, least, G trivial.

Checked against a brute force over S_n (n ≤ 7) of the labelled one-layer views (the complete head's labels are its
offsets, the window's its buckets, in floating point), against the even ALiBi head that the theorem does not cover
(two layers, least, by a labelled witness), and by the verifier, which rejects forged certificates."""
from __future__ import annotations

import copy

import pytest

import uapcheck
from uapcheck.verifier import verify

from certificates import certificate_from_cli  # tests/ is on sys.path
from t5_buckets import brute, bucket_label, window_neighbours

KERNEL = "  kernel k(q, key) = exp(q . key)\n"


def program(n: int, w: int, buckets: tuple, beside: str) -> str:
    return (f"tokens {n}\nparam m > 0\nattention {{\n{KERNEL}  pattern window({w})\n  bias buckets{buckets}\n}}\n"
            f"attention {{\n{KERNEL}  {beside}\n}}\n")


ROTARY, INJECTIVE, EVEN = "rotary", "bias b(i, j) = -m * (i - j)", "bias b(i, j) = -m * |i - j|"


def complete(n: int) -> list:
    return [set()] + [set(range(1, n + 1)) for _ in range(n)]


@pytest.mark.parametrize("beside", [ROTARY, INJECTIVE])
@pytest.mark.parametrize("w,buckets", [(1, (8, 16)), (2, (4, 8)), (2, (8, 16))])
def test_one_layer_least_against_brute_force(beside, w, buckets):
    """The complete head's labels are the offsets (its weights tell every key of a row apart): the brute force finds
    the trivial group and no one-layer labelled witness at every n ≤ 7, and the engine states one layer, least."""
    for n in range(w + 2, 8):
        heads = [(window_neighbours(n, w), bucket_label(buckets)), (complete(n), lambda q, k: k - q)]
        assert brute(n, heads) == (1, 1), (n, w)
        r = uapcheck.check(program(n, w, buckets, beside), "t.uap")
        assert (r.verdict, r.group.order, r.layers) == ("UAP", 1, 1), (n, w, beside)
        step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
        assert step.facts["least"] is True and step.certificate.kind == "complete-head-alone"


def test_an_even_fixed_bias_is_not_covered_and_needs_two_layers():
    """ALiBi's even −m·|i − j| separates only up to the reflection: beside a bucket window (n ≥ 2w + 3) σ = (i − s
    i + s), s > w, keeps row i in both heads, so two layers are least; the brute force agrees at n = 7."""
    n, w, buckets = 7, 2, (8, 16)
    heads = [(window_neighbours(n, w), bucket_label(buckets)), (complete(n), lambda q, k: abs(k - q))]
    assert brute(n, heads) == (1, 2)
    r = uapcheck.check(program(n, w, buckets, EVEN), "t.uap")
    assert (r.verdict, r.layers) == ("UAP", 2)
    assert not any(s.certificate is not None and s.certificate.kind == "complete-head-alone" for s in r.root.walk())


@pytest.mark.parametrize("w", [1, 2, 3])
def test_the_even_mixture_has_a_witness_exactly_from_2w_plus_2(w):
    """docs/theory.md §16.5 after Theorem F141, (1)–(3): beside a bucket window the even head leaves a one-layer labelled
    witness exactly from n = 2w + 2 (the shift at n = 2w + 2, the mirror pair beyond): the brute force over S_n and
    the engine agree (two layers, least, from there; below, one layer, least, by Theorem F149)."""
    for n in range(w + 2, 9):
        heads = [(window_neighbours(n, w), bucket_label((8, 16))), (complete(n), lambda q, k: abs(k - q))]
        least = brute(n, heads)[1]
        assert least == (2 if n >= 2 * w + 2 else 1), (w, n)
        r = uapcheck.check(program(n, w, (8, 16), EVEN), "t.uap")
        step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
        assert (r.layers, step.facts["least"]) == (least, True), (w, n)


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_verifier_rechecks_and_rejects_forgeries(tmp_path):
    cert = certificate_from_cli(program(24, 3, (8, 16), ROTARY), tmp_path)
    report = verify(cert)
    assert report.ok and report.complete, report
    window_head = copy.deepcopy(cert)  # the window is not complete
    _step(window_head, "PAT-LAYERS")["certificate"]["head"] = 1
    assert not verify(window_head).ok
    group = copy.deepcopy(cert)  # a group other than the trivial one
    _step(group, "SYM-AUT")["data"].update(name="reflection", order=2)
    assert not verify(group).ok
    even = certificate_from_cli(program(24, 3, (8, 16), EVEN), tmp_path)
    forged = copy.deepcopy(even)  # the even head's TD-FIXEDBIAS step is Lemma E's two layers, not one alone
    layers = _step(forged, "PAT-LAYERS")
    layers["data"].update(layers=1, least=True)
    layers["certificate"] = {"kind": "complete-head-alone", "head": 2, "rule": "TD-FIXEDBIAS", "diameter": 1,
                             "layers": 1, "theorem": "F141"}
    assert not verify(forged).ok
