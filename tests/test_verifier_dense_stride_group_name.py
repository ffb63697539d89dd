"""The verifier's name check of Theorem F205's group (`window(w) cyclic + strided(s)`, 2 ≤ s ≤ w): at an integer n the
step names the group of n's class alone, which the verifier accepted only when it named every class, so every such
certificate at an integer n was rejected at SYM-AUT (at n = 5,000 with `window(5) cyclic + strided(3)`, the reflection).
Checked here: the sound step verifies; another class's group at that n, and one class's group at a symbolic n (which
must name every class), are still rejected."""
from __future__ import annotations

import copy

from certificates import certificate, certificate_of, rejects  # tests/ is on sys.path
from uapcheck.verifier import verify
from uapcheck.verifier.check import VERIFIED

PATTERN = "window(5) cyclic + strided(3)"


def _source(tokens) -> str:
    return f"tokens {tokens}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {PATTERN}\n}}\n"


def _group_step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")


def test_the_group_of_ns_class_is_verified_at_an_integer_length_and_another_class_rejected():
    cert = certificate_of(_source(5000))  # 5,000 ≡ 2 (mod 3): the reflection
    step = _group_step(cert)
    assert step["data"]["name"] == "the reflection i ↦ n + 1 − i"
    report = verify(cert, only={step["id"]})
    assert [s.outcome for s in report.steps if s.rule == "SYM-AUT"] == [VERIFIED], report.steps
    forged = copy.deepcopy(cert)
    _group_step(forged)["data"]["name"] = "D_n"  # the group of s | n, not of n's class
    assert rejects(forged, "SYM-AUT")


def test_one_classs_group_at_a_symbolic_length_is_rejected():
    cert = certificate("cyclic_window_dense_stride_n.uap")  # the same pattern at a symbolic n
    name = _group_step(cert)["data"]["name"]
    assert "D_n" in name and "the reflection i ↦ n + 1 − i" in name
    forged = copy.deepcopy(cert)
    _group_step(forged)["data"]["name"] = "the reflection i ↦ n + 1 − i"
    assert rejects(forged, "SYM-AUT")


def test_a_certificate_at_an_integer_length_on_f224s_class_verifies_whatever_class_the_instance_check_reads():
    # window(4) cyclic + strided(4) at n = 5,002 (class 2: F224's seam swap, 3 layers least): the family's instance check
    # read its first length, n = 80 (class 0, which F226 decides only from N₁ = 208), and rejected the sound step with
    # "below lemma AM's range"; at this n the step states 3 layers, least on class 2 only
    cert = certificate_of("tokens 5002\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(4) cyclic + strided(4)\n}\n")
    layers = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    report = verify(cert, only={layers["id"]})
    assert [s.outcome for s in report.steps if s.rule == "PAT-LAYERS"] == [VERIFIED], report.steps
