"""Fixed position terms decided by monotonicity (docs/theory.md §16.1): a reweight linear in the offset is positive
at a concrete n when it is positive at both end offsets (10 − (i − j) at n = 8: least 3), and an offset function
whose derivative has one sign on the real line (e^δ, δ³ + δ) is injective at every n. Compared with brute force over
the pairs (i, j) and the verifier's own derivative check; the certificate rejects a non-monotone h."""
from __future__ import annotations

import math

import pytest
import sympy

import uapcheck
from certificates import certificate_of
from uapcheck.certificates import OffsetClass
from uapcheck.proof import CertificateRejected
from uapcheck.rules.positions import I, J, M
from uapcheck.verifier import verify

SOFTMAX = "kernel k(x, y) = exp(x . y)"


@pytest.mark.parametrize("n, verdict", [(8, "UAP"), (10, "UAP"), (11, "INCONCLUSIVE")])
def test_a_linear_reweight_is_positive_exactly_when_its_end_offsets_are(n, verdict):
    r = uapcheck.check(f"tokens {n}\nattention {{ {SOFTMAX}; reweight c(i, j) = 10 - (i - j) }}\n", "t.uap")
    assert r.verdict == verdict
    brute = min(10 - (i - j) for i in range(1, n + 1) for j in range(1, n + 1))
    assert (brute > 0) == (verdict == "UAP")


@pytest.mark.parametrize("position", ["reweight c(i, j) = exp(j - i)", "bias b(i, j) = exp(j - i)",
                                      "bias b(i, j) = (j - i)^3 + (j - i)"])
def test_a_strictly_monotone_offset_function_has_toeplitz_classes_at_every_n(position):
    r = uapcheck.check(f"attention {{ {SOFTMAX}; {position} }}\n", "t.uap")
    assert r.verdict == "UAP" and r.layers == 1 and r.group.name == "trivial"
    h = (lambda d: math.exp(d)) if "exp" in position else (lambda d: d ** 3 + d)
    for n in range(2, 40):  # injective on the offsets: pairwise different values
        values = sorted(h(d) for d in range(-(n - 1), n))
        assert all(b > a for a, b in zip(values, values[1:]))


def test_the_verifier_re_derives_the_monotone_bias():
    report = verify(certificate_of(f"attention {{ {SOFTMAX}; bias b(i, j) = exp(j - i) }}\n"))
    assert report.ok
    assert next(s.outcome for s in report.steps if s.rule == "POS-OFFSET") == "verified"


def test_the_derivative_certificate_rejects_a_non_monotone_h():
    OffsetClass(sympy.exp(J - I), I, J, M, sympy.exp(M), True, False, sympy.Symbol("n"), "derivative").check()
    with pytest.raises(CertificateRejected):
        OffsetClass(sympy.sin(J - I), I, J, M, sympy.sin(M), True, False, sympy.Symbol("n"), "derivative").check()
