"""TD-KERNEL at n = 1 (docs/theory.md §8): two samples from different orbits are two different tokens, and the
identity layer (W_V = 0) keeps them apart, so every well-posed head is 1-layer token distinguishing at `tokens 1`
whatever (LIM) says. Compared with a direct check (the outputs of the identity layer are the tokens), with
the simulation, and with the verifier, which rejects the step for a head whose normaliser is not proved
positive and at n = 2."""
from __future__ import annotations

import copy
import hashlib

import pytest

import uapcheck
from certificates import certificate_of
from uapcheck.verifier import verify


@pytest.mark.parametrize("head", ["kernel k(x, y) = 1", "score s(x, y) = x . y"])
def test_a_well_posed_head_at_one_token_is_uap_with_one_layer(head):
    r = uapcheck.check(f"tokens 1\nattention {{ {head} }}\n", "t.uap")
    assert r.verdict == "UAP" and r.layers == 1
    (td,) = [s for s in r.root.walk() if s.rule == "TD-KERNEL"]
    assert td.proved and td.facts.get("layers") == 1 and "Definition 3 at n = 1" in str(td.cite)


def test_the_same_heads_at_two_tokens_stay_open():
    r = uapcheck.check("tokens 2\nattention { kernel k(x, y) = 1 }\n", "t.uap")
    assert r.verdict != "UAP"


@pytest.mark.parametrize("head", [
    "features phi(x) = relu(x)",
    # Positive off x·z = 0 (WP-POSITIVE's third form, docs/theory.md §4) needs two keys per row: with one key the
    # normaliser (q·k)² vanishes on a quadric hypersurface whose complement has two components.
    "kernel k(x, y) = (x . y)^2",
])
def test_a_head_whose_normaliser_can_vanish_stays_open_at_one_token(head):
    r = uapcheck.check(f"tokens 1\nattention {{ {head} }}\n", "t.uap")
    assert r.verdict == "INCONCLUSIVE"


def _retext(cert: dict, old: str, new: str) -> dict:
    out = copy.deepcopy(cert)
    text = out["input"]["text"].replace(old, new)
    out["input"]["text"] = text
    out["input"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return out


def test_the_verifier_accepts_at_one_token_and_rejects_at_two():
    cert = certificate_of("tokens 1\nattention { kernel k(x, y) = 1 }\n")
    report = verify(cert)
    assert report.ok
    assert next(s.outcome for s in report.steps if s.rule == "TD-KERNEL") == "verified"
    bad = verify(_retext(cert, "tokens 1", "tokens 2"))
    assert not bad.ok


def test_the_simulation_separates_the_one_token_samples():
    from uapcheck.parse import parse_source
    from uapcheck.simulate import Options, simulate
    sim = simulate(parse_source("tokens 1\nattention { kernel k(x, y) = 1 }\n", "t.uap"), None, Options(seed=0))
    (demo,) = [d for d in sim.demonstrations if d.kind == "separation"]
    assert demo.holds is True
