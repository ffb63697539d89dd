"""A non-cyclic window with T5 buckets (or a `toeplitz` bias) at a symbolic n: Theorem F140 (docs/theory.md §16.5).

The symbolic statement (UAP, G trivial, D = ⌈(n − 1)/w⌉ layers, least, for n ≥ w + 2, and each length below the range
decided) against: the concrete labelled rooted-view engine at every n ≤ 60, the concrete derivation at the lengths
below the range, and the brute force over S_n (n ≤ 7) from the definitions of §11.10; the verifier re-derives the
count, its start and the group, and rejects forgeries; fixed position weights on a window stay unclaimed."""
from __future__ import annotations

import copy

import pytest
import sympy

import uapcheck
from uapcheck.verifier import verify

from certificates import certificate_from_cli  # tests/ is on sys.path
from t5_buckets import brute, bucket_label, labelled_views, window_neighbours

KERNEL = "  kernel k(q, key) = exp(q . key)\n"


def program(n, w: int, label: str, cyclic: bool = False) -> str:
    return ((f"tokens {n}\n" if n is not None else "tokens n\n") + "attention {\n" + KERNEL +
            f"  pattern window({w}){' cyclic' if cyclic else ''}\n  {label}\n}}\n")


def symbolic(w: int, label: str):
    r = uapcheck.check(program(None, w, label), "t.uap")
    assert r.verdict == "UAP", (w, label)
    return r


def stated_at(r, n: int):
    """(order, layers, least) the symbolic result states at n: the closed form in its range, else the length's own."""
    symbol = next(iter(r.layers.free_symbols))
    if r.group.condition_formula.xreplace({symbol: n}) is sympy.true:
        return 1, int(r.layers.xreplace({symbol: n})), True
    found = next(x for x in r.root.facts["below_range"] if x.n == n)
    return int(found.group.order), found.layers, found.least


SETTINGS = [(1, "bias buckets(32, 128)"), (3, "bias buckets(8, 16)"), (5, "bias buckets(8, 16)"),
            (2, "bias buckets(4, 8)"), (9, "bias buckets(16, 24)"), (20, "bias buckets(32, 128)"),
            (4, "bias toeplitz")]


@pytest.mark.parametrize("w,label", SETTINGS)
def test_the_symbolic_statement(w, label):
    """UAP, G trivial, ⌈(n − 1)/w⌉ layers, least, from n = w + 2 on (below, the window is complete)."""
    r = symbolic(w, label)
    n = next(iter(r.layers.free_symbols))
    assert r.group.name == "trivial" and r.group.condition_formula == sympy.Ge(n, w + 2)
    assert sympy.simplify(r.layers - sympy.ceiling((n - 1) / w)) == 0
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.facts["least"] is True and step.certificate.kind == "labelled-window-range"
    assert [x.n for x in r.root.facts["below_range"]] == list(range(1, w + 2))


@pytest.mark.parametrize("w,label", SETTINGS)
def test_the_closed_form_against_the_concrete_engines_up_to_sixty(w, label):
    """Every n ≤ 60: in the range, the labelled rooted views (graphs/views.py, without the closed form) give the
    stated count, least, and the group is trivial; below it, the stated length verdict is the concrete derivation's."""
    r = symbolic(w, label)
    for n in range(1, 61):
        order, layers, least = stated_at(r, n)
        if n <= w + 1:
            c = uapcheck.check(program(n, w, label), "t.uap")
            assert (c.verdict, c.group.order, c.layers) == ("UAP", order, layers), (w, n)
            continue
        assert labelled_views(program(n, w, label)) == (order, layers, least), (w, n)


@pytest.mark.parametrize("w,buckets", [(1, (8, 16)), (2, (8, 16)), (3, (4, 8)), (2, (12, 20))])
def test_the_symbolic_statement_against_brute_force(w, buckets):
    """n ≤ 7 over all of S_n, from the definitions (tests/t5_buckets.py, the released bucket function in floating
    point): the stated group order and least count at every length, in the range and below it."""
    r = symbolic(w, f"bias buckets{buckets}")
    for n in range(2, 8):
        assert stated_at(r, n)[:2] == brute(n, [(window_neighbours(n, w), bucket_label(buckets))]), (w, n)


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_verifier_rederives_the_count_its_start_and_the_group(tmp_path):
    """LongT5's local attention at any length: fully verified; a count off by one, a count not least, a start below
    w + 2 (with the verdict's range lowered to it), a group other than the trivial one: rejected."""
    cert = certificate_from_cli(program(None, 127, "bias buckets(32, 128)"), tmp_path)
    report = verify(cert)
    assert report.ok and report.complete, report
    more = copy.deepcopy(cert)
    layers = _step(more, "PAT-LAYERS")["data"]["layers"]
    _step(more, "PAT-LAYERS")["data"]["layers"] = {"op": "+", "args": [layers, 1]}
    assert not verify(more).ok
    not_least = copy.deepcopy(cert)
    _step(not_least, "PAT-LAYERS")["data"]["least"] = False
    assert not verify(not_least).ok
    early = copy.deepcopy(cert)
    _step(early, "PAT-LAYERS")["data"]["from"] = 2
    assert not verify(early).ok
    group = copy.deepcopy(cert)
    _step(group, "SYM-AUT")["data"]["name"] = "reflection"
    assert not verify(group).ok


def test_rotary_on_a_window_is_not_claimed_least():
    """RoPE is not a class Lemma V^λ or V^ρ covers: Theorem F140 does not apply, and no count at a symbolic n is stated
    least for it. (A fixed even ALiBi bias is Theorem F176's: tests/test_even_labelled_window.py.)"""
    r = uapcheck.check(program(None, 3, "rotary"), "t.uap")
    assert not any(s.certificate is not None and s.certificate.kind == "labelled-window-range" for s in r.root.walk())
    layers = next((s for s in r.root.walk() if s.rule == "PAT-LAYERS"), None)
    assert layers is None or layers.facts.get("least") is not True
