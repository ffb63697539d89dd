"""Theorem F142 (docs/theory.md §16.5): dense T5 bucket heads beside `symmetric toeplitz` or other bucket heads at a
symbolic n, where another head breaks the row-1 pair — decided by the joint classes, which do not depend on n.

The symbolic statement against the concrete derivation at every n ≤ 40 and against a brute force over S_n (n ≤ 7)
from the definitions (the released bucket function in floating point); the verifier re-derives it and rejects a
lowered range or a forged count."""
from __future__ import annotations

import copy

import pytest
import sympy

import uapcheck
from uapcheck.verifier import verify

from certificates import certificate_from_cli  # tests/ is on sys.path
from t5_buckets import brute, released_bucket

KERNEL = "  kernel k(q, key) = exp(q . key)\n"


def program(n, first: str, second: str) -> str:
    return ((f"tokens {n}\n" if n is not None else "tokens n\n") +
            "".join(f"attention {{\n{KERNEL}  {b}\n}}\n" for b in (first, second)))


def labels_of(bias: str):
    if bias == "bias symmetric toeplitz":
        return lambda q, k: abs(k - q)
    b, d = (int(x) for x in bias[len("bias buckets("):-1].split(","))
    return lambda q, k: released_bucket(k - q, b, d)


def stated_at(r, n: int):
    """(layers, least) the symbolic result states at n."""
    cond = r.group.condition_formula
    if cond is None or cond.xreplace({next(iter(cond.free_symbols)): n}) is sympy.true:
        step = next(s for s in r.root.walk() if s.rule == "BIAS-LAYERS")
        return r.layers, step.facts["least"]
    found = next(x for x in r.root.facts["below_range"] if x.n == n)
    return found.layers, found.least  # None: the length's count is stated without a least flag (dense heads)


CASES = [("bias buckets(4, 8)", "bias buckets(6, 12)", 2, 4), ("bias buckets(8, 16)", "bias buckets(20, 30)", 2, 8),
         ("bias buckets(12, 24)", "bias buckets(6, 12)", 2, 6), ("bias buckets(8, 16)", "bias symmetric toeplitz", 1, 1),
         ("bias buckets(32, 128)", "bias symmetric toeplitz", 1, 1)]


@pytest.mark.parametrize("first,second,layers,low", CASES)
def test_the_symbolic_statement_against_the_concrete_derivation(first, second, layers, low):
    r = uapcheck.check(program(None, first, second), "t.uap")
    assert (r.verdict, r.group.name, r.layers) == ("UAP", "trivial", layers)
    step = next(s for s in r.root.walk() if s.rule == "BIAS-LAYERS")
    assert step.facts["least"] is True
    for n in range(2, 41):
        c = uapcheck.check(program(n, first, second), "t.uap")
        at = next((s for s in c.root.walk() if s.rule == "BIAS-LAYERS"), None)  # none where every offset has a bucket
        layers_at, least_at = stated_at(r, n)
        assert c.verdict == "UAP" and layers_at == c.layers, (first, second, n)
        assert least_at in (None, at.facts["least"] if at else c.layers == 1), (first, second, n)
        if n >= low:
            assert c.layers == layers, (first, second, n)


@pytest.mark.parametrize("first,second,layers,low", CASES[:4])
def test_the_symbolic_statement_against_brute_force(first, second, layers, low):
    r = uapcheck.check(program(None, first, second), "t.uap")
    one, two = labels_of(first), labels_of(second)
    for n in range(2, 8):
        heads = [([set()] + [set(range(1, n + 1))] * n, lambda q, k: (one(q, k), two(q, k)))]
        assert brute(n, heads)[1] == stated_at(r, n)[0], (first, second, n)


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_verifier_rederives_and_rejects_forgeries(tmp_path):
    cert = certificate_from_cli(program(None, "bias buckets(8, 16)", "bias buckets(20, 30)"), tmp_path)
    report = verify(cert)
    assert report.ok and report.complete, report
    one = certificate_from_cli(program(None, "bias buckets(8, 16)", "bias symmetric toeplitz"), tmp_path)
    report = verify(one)
    assert report.ok and report.complete, report
    forged = copy.deepcopy(one)  # two layers stated least where the joint class names every offset
    _step(forged, "BIAS-LAYERS")["data"].update(layers=2, least=True)
    assert not verify(forged).ok
    early = copy.deepcopy(cert)  # a range below the witness's start
    data = _step(early, "BIAS-LAYERS")["data"]
    data["condition"] = data["condition"].replace("8", "7")
    assert not verify(early).ok
