"""The verifier's own `window + globals` lemma (uapcheck/verifier/lemmas.py, docs/theory.md §18.4):
the pattern steps of `window(w) + global {1, …, g}` (or global(g)) at a concrete n, concluded from
Theorem F2 without a token graph, are re-checked from the lemma's formula, its range and its small
instances, and a tampered step is rejected."""
from __future__ import annotations

import copy
import hashlib
import json

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import REJECTED, VERIFIED, lemmas, verify

from certificates import certificate


def _cert(n: int, pattern: str) -> dict:
    text = f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern {pattern} }}\n"
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _outcomes(cert) -> dict:
    return {s.rule: s for s in verify(cert).steps}


def _step(cert, rule):
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_longformer_task_tokens_are_verified_by_the_lemma():
    report = verify(certificate("longformer_4096.uap"))
    assert report.ok and report.complete
    steps = {s.rule: s for s in report.steps}
    for rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
        assert steps[rule].outcome == VERIFIED and "window + globals lemma" in steps[rule].reason


@pytest.mark.parametrize("n,pattern", [(65536, "window(3) + global(2)"), (40000, "window(5) + global {2, 1, 3}"),
                                       (200000, "window(1) + global(1)")])
def test_window_plus_first_globals_at_a_concrete_n_is_verified(n, pattern):
    """Sizes where the derivation takes F2 at n (no token graph), so the lemma is what checks it."""
    report = verify(_cert(n, pattern))
    assert report.ok and report.complete, [(s.rule, s.reason) for s in report.steps if s.outcome != VERIFIED]
    assert all("window + globals lemma" in s.reason for s in report.steps if s.rule in ("PAT-LAYERS", "SYM-AUT"))


def test_tampered_steps_are_rejected():
    cert = certificate("longformer_4096.uap")
    bad = copy.deepcopy(cert)
    _step(bad, "SYM-AUT")["data"]["order"] = 24
    assert _outcomes(bad)["SYM-AUT"].outcome == REJECTED
    bad = copy.deepcopy(cert)
    _step(bad, "SYM-AUT")["data"]["name"] = "S_4 on {1, …, 4} × S_4092 on {5, …, 4096}"
    assert _outcomes(bad)["SYM-AUT"].outcome == REJECTED
    bad = copy.deepcopy(cert)
    _step(bad, "PAT-CONNECTED")["facts"]["diameter"] = 3
    assert _outcomes(bad)["PAT-CONNECTED"].outcome == REJECTED
    bad = copy.deepcopy(cert)
    layers = _step(bad, "PAT-LAYERS")
    layers["data"]["layers"] = layers["facts"]["layers"] = 2
    assert _outcomes(bad)["PAT-LAYERS"].outcome == REJECTED
    bad = copy.deepcopy(cert)
    layers = _step(bad, "PAT-LAYERS")
    perm = layers["data"]["view witness"]["permutation"]
    perm[4], perm[5], perm[6] = 5, 7, 6  # the swap (6 7) in place of (5 6)
    assert _outcomes(bad)["PAT-LAYERS"].outcome == REJECTED


def test_below_the_range_a_family_step_is_rejected():
    """A family-theorem step for n < g + 2w + 3 (forged: the engine uses the token graph there)."""
    cert = _cert(100000, "window(2) + global {1, 2}")
    text = cert["input"]["text"].replace("tokens 100000", "tokens 8")
    cert["input"].update(text=text, sha256=hashlib.sha256(text.encode("utf-8")).hexdigest())
    outcomes = _outcomes(cert)
    assert outcomes["PAT-CONNECTED"].outcome == REJECTED and "below the range" in outcomes["PAT-CONNECTED"].reason


def test_the_lemma_is_re_checked_at_its_instances(monkeypatch):
    assert lemmas._window_globals_instances(lemmas.WindowGlobals(1, 1, True)) is None
    # a wrong witness position in the lemma is caught by the instance check
    monkeypatch.setattr(lemmas.WindowGlobals, "witness", lambda self: (self.g + 2 * self.w + 2, (self.g + 1, self.g + 2)))
    assert "not a view witness" in lemmas._window_globals_instances(lemmas.WindowGlobals(1, 1, True))


def test_the_lemma_applies_only_to_the_first_positions():
    from uapcheck.parse import parse_source as parse
    spec = parse("tokens 40\nattention { kernel k(x, y) = exp(x . y); pattern window(2) + global {1, 3} }\n")
    assert lemmas.window_globals(spec) is None
    spec = parse("tokens 40\nattention { kernel k(x, y) = exp(x . y); pattern window(2) cyclic + global(2) }\n")
    assert lemmas.window_globals(spec) is None
