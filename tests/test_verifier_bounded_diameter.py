"""A diameter bounded but not decided (lower ≤ D ≤ upper, random patterns at real sizes): the layer step
claims upper + 1 layers, sufficient, and the verifier checks that count against the connectivity step's
bound instead of rejecting it for want of an exact diameter."""
import copy

from certificates import certificate_from_cli

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


def test_upper_bound_plus_one_layers_is_verified(tmp_path):
    cert = certificate_from_cli(WINDOW_RANDOM, tmp_path)
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
