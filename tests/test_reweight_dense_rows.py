"""A dense normalised head whose reweight depends on n (`reweight n - 2 * j`): row n has factors n − 2 > 0 at j = 1 and
−n < 0 at j = n for every n ≥ 3, and for exp(x·y) the ratio k(q, 1)/k(q, −1) = e^{2q} takes every positive value, so
row n's normaliser A e^{q} + B e^{−q} (A > 0 > B) takes both signs: ILL-POSED for n ≥ 3 (docs/theory.md §4, Lemma Q,
the ratio form). Checked with mpmath at n = 3…12, against the concrete engine, and by the verifier, which rejects
tampered certificates."""
from __future__ import annotations

import copy
import hashlib
import json

import mpmath
import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import verify

DENSE = "reweight c(i, j) = n - 2 * j"


def _text(kernel: str = "exp(x . y)", body: str = DENSE, tokens: str = "") -> str:
    return f"{tokens}attention {{\n  kernel k(x, y) = {kernel}\n  {body}\n}}\n"


def _certificate(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "r.uap"), text)))


def _wp(result):
    return next(s for s in result.root.walk() if s.rule == "WP-POSITIVE")


def test_a_dense_row_of_both_signs_is_ill_posed_from_n_3():
    result = uapcheck.check(_text(), "r.uap")
    assert result.verdict == "ILL-POSED"
    step = _wp(result)
    assert step.status == "refuted"
    row = step.evidence["ratio row"]
    assert (row["row"], row["plus"], row["minus"], row["from n"]) == ("n", "1", "n", 3)
    from uapcheck.show import show_condition
    assert show_condition(result.root.facts["range"]) == "n ≥ 3"
    assert [(r.n, r.verdict.value) for r in result.root.facts["below_range"]] == [(1, "INCONCLUSIVE"),
                                                                                 (2, "INCONCLUSIVE")]
    report = verify(_certificate(_text()))
    assert report.ok and report.verdict == "ILL-POSED"


@pytest.mark.parametrize("n", range(1, 9))
def test_each_length_agrees_with_the_concrete_engine(n):
    concrete = _text(body=f"reweight c(i, j) = {n} - 2 * j", tokens=f"tokens {n}\n")
    assert uapcheck.check(concrete, "r.uap").verdict == ("ILL-POSED" if n >= 3 else "INCONCLUSIVE")


def test_the_normaliser_takes_both_signs_with_mpmath():
    """Row n's normaliser with keys of c > 0 (and c = 0) at 1 and those of c < 0 at −1: A e^{q} + B e^{−q}; at
    q = log(−B/A)/2 ± 1 it is positive and negative, for every n = 3…12."""
    with mpmath.workdps(30):
        for n in range(3, 13):
            c = [n - 2 * j for j in range(1, n + 1)]
            a, b = sum(x for x in c if x > 0), sum(x for x in c if x < 0)
            assert a > 0 > b
            mid = mpmath.log(-mpmath.mpf(b) / a) / 2
            for q, sign in ((mid + 1, 1), (mid - 1, -1)):
                total = sum(x * mpmath.exp(q * (1 if x >= 0 else -1)) for x in c)
                assert total * sign > 0


@pytest.mark.parametrize("kernel", ["exp(-|x - y|^2)", "exp(x . y + |x|^2)"])
def test_other_kernels_whose_ratio_takes_every_value(kernel):
    assert uapcheck.check(_text(kernel), "r.uap").verdict == "ILL-POSED"


def test_a_kernel_with_a_constant_ratio_is_not_refuted_this_way():
    """1 + (x·y)² has k(q, 1) = k(q, −1): the ratio is 1, and the ratio form says nothing."""
    result = uapcheck.check(_text("1 + (x . y)^2"), "r.uap")
    assert "ratio row" not in _wp(result).evidence
    assert result.verdict != "UAP"


def _block(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "WP-POSITIVE")


def _rejected(cert: dict) -> bool:
    report = verify(cert)
    return next(s.outcome for s in report.steps if s.rule == "WP-POSITIVE") == "rejected" or not report.ok


def test_tampered_certificates_are_rejected():
    text = _text()
    cert = _certificate(text)
    assert verify(cert).ok
    for field, value in (("from n", 2), ("plus", "n"), ("minus", "1"), ("row", "n - 70"), ("plus", "5")):
        other = copy.deepcopy(cert)
        _block(other)["evidence"]["ratio row"][field] = value
        assert _rejected(other), (field, value)
    for old, new in (("exp(x . y)", "1 + (x . y)^2"), ("  reweight", "  pattern window(1)\n  reweight"),
                     ("n - 2 * j", "n + 2 * j")):
        other = copy.deepcopy(cert)
        other["input"]["text"] = text.replace(old, new)
        other["input"]["sha256"] = hashlib.sha256(other["input"]["text"].encode("utf-8")).hexdigest()
        assert _rejected(other), new
