"""`dim 1`: Theorem 1 and its receptive form (Theorem 1′) assume d ≥ 2 (docs/theory.md §1.5, §14.3, §12 DIM-RANGE).
The engine gives no UAP there, for G-equivariant targets or for a target class, and the verifier rejects a certificate
whose input was changed to `dim 1` beside a UAP verdict."""
from __future__ import annotations

import copy
import hashlib

import uapcheck
from certificates import certificate, certificate_of
from uapcheck.verifier import verify

CAUSAL = "tokens n\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern causal\n}\n"


def _with_dim_one(cert: dict) -> dict:
    out = copy.deepcopy(cert)
    text = "dim 1\n" + out["input"]["text"]
    out["input"]["text"] = text
    out["input"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return out


def test_a_target_class_is_not_uap_at_dim_one():
    result = uapcheck.check("dim 1\ntarget causal\n" + CAUSAL, "t.uap")
    assert result.verdict == "INCONCLUSIVE"
    assert "DIM-RANGE" in {s.rule for s in result.root.premises}


def test_the_alternative_class_of_a_not_uap_family_is_not_uap_at_dim_one():
    result = uapcheck.check("dim 1\n" + CAUSAL, "t.uap")
    assert result.verdict == "NOT-UAP"
    assert result.alternative.verdict == "INCONCLUSIVE"
    assert uapcheck.check(CAUSAL, "t.uap").alternative.verdict == "UAP"  # d ≥ 2: the causal class is approximated


def test_the_verifier_rejects_a_uap_certificate_moved_to_dim_one():
    cert = certificate("softmax.uap")
    assert verify(cert).ok
    report = verify(_with_dim_one(cert))
    assert not report.ok and any("INCONCLUSIVE" in p for p in report.problems)


def test_the_verifier_rejects_a_target_class_certificate_moved_to_dim_one():
    cert = certificate_of("target causal\n" + CAUSAL)
    assert cert["verdict"] == "UAP" and verify(cert).ok
    assert not verify(_with_dim_one(cert)).ok


def test_the_verifier_rejects_a_uap_alternative_moved_to_dim_one():
    cert = certificate_of(CAUSAL)
    assert verify(cert).ok
    report = verify(_with_dim_one(cert))
    assert any(s.rule == "TGT-ALTERNATIVE" and s.outcome == "rejected" for s in report.steps)


def test_the_engine_certificate_at_dim_one_verifies():
    cert = certificate_of("dim 1\n" + CAUSAL)
    assert verify(cert).ok
