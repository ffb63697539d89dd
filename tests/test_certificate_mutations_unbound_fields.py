"""Certificate block values that the verifier named as "not compared" (or did not read) where it has the checked copy:
each is now compared, and a forged value is rejected (tests/test_certificate_mutations.py style). The honest
certificate verifies, and the field is no longer listed as not certified."""
from __future__ import annotations

import copy

import pytest

from certificates import certificate, certificate_of
from uapcheck.verifier import verify

SOFTMAX = "attention { kernel k(x, y) = exp(x . y) }\n"
# Theorem F149 (docs/theory.md §16.5): T5's buckets beside a fixed symmetric offset bias at D = 1
F149 = "alibi_beside_t5_window.uap"


def _block(cert: dict, kind: str) -> dict:
    return next(s["certificate"] for s in cert["steps"] if (s.get("certificate") or {}).get("kind") == kind)


def _rejected(cert: dict) -> bool:
    report = verify(cert)
    return not report.ok


@pytest.mark.parametrize("ffn", ["", "ffn tanh\n", "ffn gelu\n", "ffn leaky_relu\n"])
def test_ffn_second_difference_point_is_compared(ffn):
    cert = certificate_of(SOFTMAX + ffn)
    report = verify(cert)
    assert report.ok and not any(".point" in u for u in report.unbound), report.unbound
    for name in ("p", "q", "r"):
        bad = copy.deepcopy(cert)
        _block(bad, "nonzero-at-point")["point"][name] = 7
        assert _rejected(bad), name
    bad = copy.deepcopy(cert)
    point = _block(bad, "nonzero-at-point")["point"]
    point["p"], point["r"] = point["r"], point["p"]  # the points out of order
    assert _rejected(bad)
    bad = copy.deepcopy(cert)
    del _block(bad, "nonzero-at-point")["point"]["q"]
    assert _rejected(bad)


@pytest.fixture(scope="module")
def f149_certificate():
    cert = certificate(F149)
    assert any((s.get("certificate") or {}).get("kind") == "depth-one-labelled" for s in cert["steps"])
    return cert


def test_f149_block_is_compared(f149_certificate):
    report = verify(f149_certificate)
    assert report.ok, report.problems
    assert not any(u.split()[1].startswith("certificate.") and _kind_of(f149_certificate, u) == "depth-one-labelled"
                   for u in report.unbound), report.unbound


def _kind_of(cert: dict, unbound: str) -> str:
    sid = unbound.split()[0]
    return next((s.get("certificate") or {}).get("kind") for s in cert["steps"] if s["id"] == sid)


@pytest.mark.parametrize("field, forged", [("n", 17), ("n", 15), ("theorem", "F150"), ("fixed", [1]), ("fixed", []),
                                           ("kinds", ["toeplitz", "symmetric toeplitz"]), ("diameter", 2),
                                           ("layers", 2)])
def test_f149_forged_block_value_is_rejected(f149_certificate, field, forged):
    bad = copy.deepcopy(f149_certificate)
    _block(bad, "depth-one-labelled")[field] = forged
    assert _rejected(bad)


# -- a view witness quoted by a family step whose theorem names none (verifier/rules_families._check_quoted_witness)

F64_AT_2000 = "tokens 2000\nattention { kernel k(x, y) = exp(x . y)\n pattern blocks(4) + window(1) + strided(4) }\n"


@pytest.fixture(scope="module")
def f64_certificate():
    cert = certificate_of(F64_AT_2000)
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert (step.get("certificate") or {}).get("kind") == "family theorem" and "view witness" not in step["data"]
    return cert


def test_family_step_without_a_witness_verifies(f64_certificate):
    assert verify(f64_certificate).ok


def _quote_witness(cert, n: int, perm: str):
    bad = copy.deepcopy(cert)
    step = next(s for s in bad["steps"] if s["rule"] == "PAT-LAYERS")
    images = list(range(1, n + 1))
    if perm == "exchange":
        images[8:12], images[12:16] = images[12:16], images[8:12]
    step["data"]["view witness"] = {"position": 2, "permutation": images}
    return bad, step["id"]


@pytest.mark.parametrize("perm", ["identity", "exchange"])
def test_a_witness_quoted_beside_a_theorem_that_names_none_is_named_where_the_arcs_are_not_built(f64_certificate,
                                                                                                   perm):
    """Theorem F64 (3 layers least) names no view witness: one quoted in its step was never read. Above the length
    where the verifier builds arcs (n = 2000 here) the count rests on the theorem's own argument and the quoted
    witness is named on the not-certified line (an honest F100 step at 1,048,576 quotes the swap of its proof)."""
    bad, sid = _quote_witness(f64_certificate, 2000, perm)
    report = verify(bad)
    assert f"{sid} data.view witness" in report.unbound
    assert f"{sid} data.view witness" not in verify(f64_certificate).unbound


F64_AT_200 = F64_AT_2000.replace("tokens 2000", "tokens 200")


def test_a_forged_witness_quoted_beside_a_theorem_that_names_none_is_rejected_on_the_arcs():
    """Where the arcs are built, a quoted witness is checked as a view witness: the identity is none, rejected."""
    cert = certificate_of(F64_AT_200)
    assert verify(cert).ok
    bad, sid = _quote_witness(cert, 200, "identity")
    report = verify(bad)
    assert not report.ok
    assert any(s.id == sid and s.outcome == "rejected" for s in report.steps)
