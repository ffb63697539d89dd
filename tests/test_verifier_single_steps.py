"""`verify(cert, only={sid})` re-checks one step as the whole verify does: a step's check reads the certificate and
the input, never another step's outcome. The mutation tests and `certificates.rejects` rely on it; here every step of
certificates of several kinds (dense, a pattern at a concrete and at a symbolic n, several heads, a NOT-UAP) gets the
same outcome and reason alone as in the whole verify, and a forged step is rejected alone as in the whole verify."""
from __future__ import annotations

import copy

import pytest
from certificates import certificate, certificate_of, heads_certificate

from uapcheck.verifier import REJECTED, verify

CASES = {
    "softmax": lambda: certificate("softmax.uap"),
    "window at 12": lambda: certificate_of("tokens 12\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(2)\n}\n"),
    "blocks + global at n": lambda: certificate_of(
        "tokens n\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern blocks(3) + global(1)\n}\n"),
    "two heads at n": lambda: heads_certificate("window(1) cyclic", "strided(3)"),
    "disconnected": lambda: certificate_of("tokens 8\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern blocks(4)\n}\n"),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def cert(request):
    return CASES[request.param]()


def test_each_step_alone_gets_its_whole_verify_outcome(cert):
    whole = {s.id: (s.outcome, s.reason) for s in verify(cert).steps}
    assert len(whole) == len(cert["steps"])
    for s in cert["steps"]:
        (alone,) = verify(cert, only={s["id"]}).steps
        assert (alone.outcome, alone.reason) == whole[s["id"]], s["id"]


def test_a_forged_status_is_rejected_alone_as_in_the_whole_verify(cert):
    rejected = 0
    for idx, s in enumerate(cert["steps"][:-1]):
        forged = copy.deepcopy(cert)
        forged["steps"][idx]["status"] = "refuted" if s["status"] != "refuted" else "proved"
        whole = {o.id: (o.outcome, o.reason) for o in verify(forged).steps}
        (alone,) = verify(forged, only={s["id"]}).steps
        assert (alone.outcome, alone.reason) == whole[s["id"]], s["id"]
        rejected += alone.outcome == REJECTED
    assert rejected >= 1
