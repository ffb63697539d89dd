"""Theorem F150 (docs/theory.md §16.5): a complete head whose weights' classes are the offsets (RoPE, a fixed
offset-injective bias, a `toeplitz` bias) makes the family's group trivial at every n, whatever the other heads'
groups; with Theorem F141 a window with T5 buckets beside it is one layer, least, at a symbolic n (formerly
INCONCLUSIVE: the bucket window's group at a symbolic n is not decided).

Checked against the concrete derivation at every n ≤ 60 for three settings, a brute force over S_n (n ≤ 6) of the
labelled group and one-layer views, and the verifier, which rejects forged certificates."""
from __future__ import annotations

import copy

import pytest

import uapcheck
from uapcheck.verifier import verify

from certificates import certificate_from_cli  # tests/ is on sys.path
from t5_buckets import brute, bucket_label, window_neighbours

KERNEL = "  kernel k(q, key) = exp(q . key)\n"
ROTARY, INJECTIVE, TOEPLITZ = "rotary", "bias b(i, j) = -m * (i - j)", "bias toeplitz"


def program(n, window: str, buckets: tuple, beside: str) -> str:
    return (f"tokens {n}\nparam m > 0\nattention {{\n{KERNEL}  pattern {window}\n  bias buckets{buckets}\n}}\n"
            f"attention {{\n{KERNEL}  {beside}\n}}\n")


def group_rule(r) -> tuple:
    step = next(s for s in r.root.walk() if s.rule.startswith("SYM-"))
    return step.rule, None if step.certificate is None else step.certificate.kind


@pytest.mark.parametrize("window,buckets,beside", [("window(2)", (8, 16), ROTARY), ("window(3) cyclic", (8, 16),
                                                                                   INJECTIVE),
                                                   ("window(1)", (4, 8), TOEPLITZ)])
def test_the_symbolic_statement_against_the_concrete_derivation(window, buckets, beside):
    """At a symbolic n: UAP, G trivial, one layer, least, by Theorems F150 and F141; at every n ≤ 60 the concrete
    derivation (the labelled arcs' group, F141's one layer) states the same."""
    r = uapcheck.check(program("n", window, buckets, beside), "t.uap")
    assert (r.verdict, r.group.name, r.layers) == ("UAP", "trivial", 1)
    assert group_rule(r) == ("SYM-AUT", "trivial-beside-complete-head")
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.facts["least"] is True and step.certificate.kind == "complete-head-alone"
    for n in range(2, 61):
        c = uapcheck.check(program(n, window, buckets, beside), "t.uap")
        assert (c.verdict, c.group.order, c.layers) == ("UAP", 1, 1), (window, n)


@pytest.mark.parametrize("w,cyclic", [(1, False), (2, False), (1, True), (2, True)])
def test_the_group_and_count_against_brute_force(w, cyclic):
    """Over S_n (n ≤ 6): the complete head labelled by its offsets beside the bucket window leaves the trivial group
    and no one-layer labelled witness."""
    for n in range(3, 7):
        heads = [(window_neighbours(n, w, cyclic), bucket_label((8, 16))),
                 ([set()] + [set(range(1, n + 1)) for _ in range(n)], lambda q, k: k - q)]
        assert brute(n, heads) == (1, 1), (w, cyclic, n)


def test_an_even_complete_head_is_not_covered():
    """ALiBi's even term labels by |m|: its own group is the reflection, so the theorem does not apply and the bucket
    window's group at a symbolic n stays undecided (INCONCLUSIVE, the group named open)."""
    r = uapcheck.check(program("n", "window(2)", (8, 16), "bias b(i, j) = -m * |i - j|"), "t.uap")
    assert r.verdict == "INCONCLUSIVE" and group_rule(r)[0] == "SYM-UNDECIDED"


def test_rope_under_dim_one_is_not_covered():
    r = uapcheck.check("dim 1\n" + program("n", "window(2)", (8, 16), ROTARY), "t.uap")
    assert group_rule(r) != ("SYM-AUT", "trivial-beside-complete-head")


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_verifier_rechecks_and_rejects_forgeries(tmp_path):
    cert = certificate_from_cli(program("n", "window(2)", (8, 16), ROTARY), tmp_path)
    report = verify(cert)
    assert report.ok and report.complete, report
    window_head = copy.deepcopy(cert)  # the window is not complete
    _step(window_head, "SYM-AUT")["certificate"]["head"] = 1
    assert not verify(window_head).ok
    reflection = copy.deepcopy(cert)  # a group other than the trivial one
    _step(reflection, "SYM-AUT")["data"]["name"] = "reflection"
    assert not verify(reflection).ok
    even = certificate_from_cli(program("n", "window(2)", (8, 16), "bias b(i, j) = -m * |i - j|"), tmp_path)
    forged = copy.deepcopy(even)  # the even head's classes are |m|: its own group is the reflection
    group = _step(forged, "SYM-UNDECIDED")
    group.update(rule="SYM-AUT", status="proved", data={"name": "trivial"},
                 certificate={"kind": "trivial-beside-complete-head", "head": 2, "rule": "TD-FIXEDBIAS", "order": 1,
                              "theorem": "F150"})
    assert not verify(forged).ok
