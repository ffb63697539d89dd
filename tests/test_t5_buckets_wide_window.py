"""Theorem F151 (docs/theory.md §16.5): a non-cyclic window of radius w ≥ 128 with T5 buckets at a symbolic n. Below
Theorem F140's range n ≥ w + 2 the window is complete, and the lengths 129, …, w + 1 lay above those decided one by one
(formerly "not decided"); there the heads are dense bucket heads, two layers, least, from Theorem F142 (b)'s start s on,
so the count is max(2, ⌈(n − 1)/w⌉), least, for every n ≥ s.

Checked against the concrete derivation at every n ≤ 60 and at lengths around 129, w + 1, w + 2 and 2w + 1, against a
brute force over S_n (n ≤ 6) with the released bucket function in floating point, and by the verifier, which
re-finds the start with its own bucket function and rejects forged starts and counts."""
from __future__ import annotations

import copy

import pytest
import sympy

import uapcheck
from uapcheck.verifier import verify

from certificates import certificate_from_cli  # tests/ is on sys.path
from t5_buckets import brute, bucket_label, window_neighbours

KERNEL = "  kernel k(q, key) = exp(q . key)\n"


def program(n, w: int, buckets: tuple) -> str:
    return f"tokens {n}\nattention {{\n{KERNEL}  pattern window({w})\n  bias buckets{buckets}\n}}\n"


def count_at(n: int, w: int, start: int) -> int:
    """The statement from the start on: max(2, ⌈(n − 1)/w⌉)."""
    assert n >= start
    return max(2, -(-(n - 1) // w))


SETTINGS = [(130, (32, 128), 10), (160, (16, 64), 6), (200, (4, 8), 4)]


@pytest.mark.parametrize("w,buckets,start", SETTINGS)
def test_the_symbolic_statement(w, buckets, start):
    r = uapcheck.check(program("n", w, buckets), "t.uap")
    n = sympy.Symbol("n", integer=True, positive=True)
    assert (r.verdict, r.group.name) == ("UAP", "trivial")
    assert sympy.simplify(r.layers.xreplace({s: n for s in r.layers.free_symbols})
                          - sympy.Max(2, sympy.ceiling((n - 1) / w))) == 0
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.facts["least"] is True and step.certificate.low == start
    root = r.root
    below = root.facts.get("below_range", ())
    assert [x.n for x in below] == list(range(1, start)) and all(x.least is not False for x in below)


@pytest.mark.parametrize("w,buckets,start", SETTINGS[:2])
def test_the_statement_against_the_concrete_derivation(w, buckets, start):
    """Every start ≤ n ≤ 60, and lengths at both ends of the complete windows and beyond: the same count, least."""
    for n in [*range(start, 61), 129, 130, w, w + 1, w + 2, w + 3, 2 * w + 1, 2 * w + 2]:
        r = uapcheck.check(program(n, w, buckets), "t.uap")
        assert (r.verdict, r.group.order, r.layers) == ("UAP", 1, count_at(n, w, start)), (w, n)
        assert not any(s.facts.get("least") is False for s in r.root.walk() if s.rule in ("PAT-LAYERS", "BIAS-LAYERS"))


def test_against_brute_force_over_s_n():
    """A complete window with buckets(4, 8) (every positive offset in one bucket, every negative one in another): from
    the start s = 4 on two layers, least, as max(2, D) states; below it the concrete derivation; the brute force over
    S_n agrees with both at n ≤ 6."""
    w, buckets, start = 200, (4, 8), 4
    for n in range(2, 7):
        want = count_at(n, w, start) if n >= start else uapcheck.check(program(n, w, buckets), "t.uap").layers
        assert brute(n, [(window_neighbours(n, w), bucket_label(buckets))]) == (1, want), n


def test_radius_127_keeps_theorem_f140s_statement():
    """LongT5's radius 127: the complete windows n ≤ 128 are all decided one by one, so the statement is unchanged."""
    r = uapcheck.check(program("n", 127, (32, 128)), "t.uap")
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.certificate.low == 129


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_verifier_rechecks_and_rejects_forgeries(tmp_path):
    cert = certificate_from_cli(program("n", 130, (32, 128)), tmp_path)
    report = verify(cert)
    assert report.ok and report.complete, report
    layers = _step(cert, "PAT-LAYERS")
    assert layers["data"]["from"] == 10
    early = copy.deepcopy(cert)  # a start below the first joint witness: one layer holds at n = 9
    _step(early, "PAT-LAYERS")["data"]["from"] = 9
    assert not verify(early).ok
    plain = copy.deepcopy(cert)  # Theorem F140's count from the dense start: ⌈(n − 1)/w⌉ = 1 at n ≤ w + 1
    _step(plain, "PAT-LAYERS")["data"]["layers"] = copy.deepcopy(_step(plain, "PAT-CONNECTED")["data"]["diameter"])
    assert not verify(plain).ok
