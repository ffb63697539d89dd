"""A diameter bounded but not decided (lower ≤ D ≤ upper, random patterns at real sizes): the layer step
claims upper + 1 layers, sufficient, and the verifier checks that count against the connectivity step's
bound instead of rejecting it for want of an exact diameter. The seeded searches (Theorem F131) now decide this
pattern's diameter; they are left out here (as when a search is deeper than their bit-parallel levels) so that the
probes' bounds stand."""
import copy

from certificates import certificate_from_cli, certificate_of

from uapcheck.graphs import connectivity as conn_mod
from uapcheck.verifier import check

WINDOW_RANDOM = """architecture "window and random keys"
attention {
  kernel k(x, y) = exp(x . y)
  pattern window(1) + random(2, seed=1)
}
tokens 65536
"""


def _layers(cert):
    return next(r for r in check.verify(cert).steps if r.rule == "PAT-LAYERS")


def test_upper_bound_plus_one_layers_is_verified(monkeypatch):
    monkeypatch.setattr(conn_mod, "_seeded_diameter", lambda *args: None)
    cert = certificate_of(WINDOW_RANDOM)
    layers = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    connected = next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")
    assert layers["data"]["diameter"] is None and not layers["data"]["least"]
    assert layers["data"]["layers"] == connected["certificate"]["upper"] + 1
    assert _layers(cert).outcome == check.VERIFIED
    fewer = copy.deepcopy(cert)
    next(s for s in fewer["steps"] if s["rule"] == "PAT-LAYERS")["data"]["layers"] -= 1
    assert _layers(fewer).outcome == check.REJECTED
    least = copy.deepcopy(cert)
    next(s for s in least["steps"] if s["rule"] == "PAT-LAYERS")["data"]["least"] = True
    assert _layers(least).outcome == check.REJECTED


def test_the_decided_count_is_verified(tmp_path):
    # with the seeded searches the diameter is 14 and 14 layers are least (Theorem F132): the verifier re-checks
    # both from the seeds and the far sets (tests/test_verifier_seeded_diameter.py)
    cert = certificate_from_cli(WINDOW_RANDOM, tmp_path)
    layers = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert layers["data"]["diameter"] == 14 and layers["data"]["layers"] == 14 and layers["data"]["least"]
    assert _layers(cert).outcome == check.VERIFIED
