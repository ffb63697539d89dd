"""Theorem F216 (docs/theory.md §6.5, LIM-EXPEXP): the sign of the exponent H of a double-exponential kernel
k = exp(H) may be shown off a null set, on both halves ι > 0 and ι < 0 of a sign atom ι the region leaves open.
e^{e^{(x·y)²}} has H = e^{t²(x·z)²}, whose leading coefficient (x·z)² is only ≥ 0 on the region of all invariants
and > 0 on both halves; it was LIM-UNDECIDED and is UAP · S_n · 1 layer. A coefficient whose sign differs between
the halves stays undecided. The numbers are checked with mpmath, independently of the engines, and the verifier
re-checks the witness points (and rejects the certificate moved to e^{e^{x·y}}, whose H → 0 where x·z < 0)."""
from __future__ import annotations

import random
from pathlib import Path

import mpmath as mp
import pytest
import sympy

import uapcheck
from certificates import certificate_of, step_outcome as _outcome, with_text
from uapcheck.asymptotics import Context, Undecided
from uapcheck.kernel_limit.analysis import _sign_off_null
from uapcheck.lower import QUERY_DOT_KEY as a
from uapcheck.verifier import verify


def _text(body: str) -> str:
    return f"attention {{\n  {body}\n}}\n"


def _lim(result):
    (step,) = [s for s in result.root.walk() if s.rule.startswith("LIM-") and s.rule != "LIM-REDUCE"]
    return step


COVERED = [
    "kernel k(x, y) = exp(exp((x . y)^2))",
    "kernel k(x, y) = exp(-exp((x . y)^2))",  # H → −∞ off x·z = 0
    "score s(x, y) = exp(exp((x . y)^2))",
]


@pytest.mark.parametrize("body", COVERED)
def test_an_exponent_positive_off_a_null_set_makes_the_kernel_uap(body):
    result = uapcheck.check(_text(body))
    lim = _lim(result)
    assert lim.rule == "LIM-EXPEXP" and lim.proved
    assert (result.verdict, result.group.name, result.layers) == ("UAP", "S_n", 1)
    (region,) = [v for k, v in lim.evidence.items() if isinstance(v, dict) and "witness" in v]
    assert region["witness"]["H → ±∞ off the null set"] == "x·z = 0"
    assert region["witness"]["sign of H"] == (-1 if "-exp" in body else 1)
    # the kernel is even in x·z: the antipodal keys are named
    assert any("antipodal keys" in note for note in lim.notes)


def test_the_sign_is_the_common_sign_of_both_halves():
    assert _sign_off_null(a ** 2, Context()) == (1, (a,))
    assert _sign_off_null(-3 * a ** 4, Context()) == (-1, (a,))
    assert _sign_off_null(sympy.Integer(2), Context()) == (1, ())
    with pytest.raises(Undecided):
        _sign_off_null(a, Context())  # positive on one half, negative on the other: no sign off a null set
    with pytest.raises(Undecided):
        _sign_off_null(a ** 3, Context())


def test_a_region_the_explorer_already_split_is_unchanged():
    """e^{cosh(x·y)}: the sign engine decides on each region, no atom is split, no null set is named."""
    lim = _lim(uapcheck.check(_text("kernel k(x, y) = exp(cosh(x . y))")))
    assert lim.rule == "LIM-EXPEXP" and lim.proved
    assert not any("H → ±∞ off the null set" in (v.get("witness") or {})
                   for v in lim.evidence.values() if isinstance(v, dict))


def test_the_catalog_file_is_uap():
    result = uapcheck.check_file(Path(__file__).resolve().parent.parent / "catalog" / "exp_exp_square.uap")
    assert (result.verdict, result.group.name, result.layers) == ("UAP", "S_n", 1)


# ---------------------------------------------------------------------------------------------
# Numbers, independent of the engines (mpmath at 60 digits)

def test_the_log_ratio_diverges_with_the_larger_modulus_of_the_score():
    """log k(x, t z₁) − log k(x, t z₂) = e^{t² s₁²} − e^{t² s₂²} (s_i = x·z_i) at random pairs with |s₁| ≠ |s₂|: past
    10¹⁰ in modulus at t = 16, with the sign of |s₁| − |s₂|; e^{−e^{(x·y)²}} gives the opposite sign."""
    mp.mp.dps = 60
    rng = random.Random(11)
    t, checked = mp.mpf(16), 0
    for _ in range(60):
        s1, s2 = (mp.mpf(rng.uniform(-2, 2)) for _ in range(2))
        if abs(abs(s1) - abs(s2)) < mp.mpf("0.1") or max(abs(s1), abs(s2)) < mp.mpf("0.5"):
            continue
        diff = mp.exp((t * s1) ** 2) - mp.exp((t * s2) ** 2)
        assert abs(diff) > 10 ** 10 and mp.sign(diff) == mp.sign(abs(s1) - abs(s2))
        assert mp.sign(-diff) == -mp.sign(abs(s1) - abs(s2))
        checked += 1
    assert checked > 20
    # antipodal keys s₂ = −s₁: the difference is 0 for every t (the null set the reading leaves out)
    assert mp.exp((t * mp.mpf("0.7")) ** 2) - mp.exp((t * mp.mpf("-0.7")) ** 2) == 0


# ---------------------------------------------------------------------------------------------
# The verifier

SQUARE = "exp(exp((x . y)^2))"


def test_the_verifier_checks_the_exponent_at_the_witness_points():
    report = verify(certificate_of(_text(f"kernel k(x, y) = {SQUARE}")))
    assert report.ok and not report.rejected
    assert _outcome(report, "LIM-EXPEXP") == "checked numerically"
    assert _outcome(report, "TD-KERNEL") == "verified"


@pytest.mark.parametrize("new", [
    "exp(exp(x . y))",            # H = e^{t x·z} decreases at the witness points with x·z < 0
    "exp(exp(x . y) - 1)",        # H changes sign along t where x·z < 0
    "exp(exp(2 * (x . y)^2))",    # the stated growth coefficient of log H is half the true one
])
def test_a_forged_step_is_rejected(new):
    cert = with_text(certificate_of(_text(f"kernel k(x, y) = {SQUARE}")), SQUARE, new)
    assert _outcome(verify(cert), "LIM-EXPEXP") == "rejected"
