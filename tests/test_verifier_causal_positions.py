"""TGT-POSITIONS's certificate block (CausalPositions, docs/theory.md §14.11) is bound to what the verifier checks:
its route, its separating head (0-based, the data's 1-based), its collision (i, l, l′) and its n. The collision route
is re-checked (every head the full causal mask, position-blind or a trainable class, keys l < l′ of row i alike in
every head by the verifier's own labels), and the 2 layers it gives (least; for n ≥ 3 at a symbolic n, with n = 1, 2
at one layer). Before, the block's values were never compared (not even listed as not compared) and the collision
route and its count were trusted."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, rejects  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402


def _text(tokens, *heads: str) -> str:
    body = "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern causal\n{h}}}\n" for h in heads)
    return f"tokens {tokens}\ntarget causal\n" + body


TOEPLITZ = _text(8, "  bias toeplitz\n")
TWO_HEADS = _text(8, "", "  bias toeplitz\n")
COLLISION = _text(8, "  bias symmetric circulant\n")
COLLISION_N = _text("n", "  bias symmetric circulant\n")


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("text,route", [(TOEPLITZ, "one layer"), (TWO_HEADS, "one layer"),
                                        (COLLISION, "collision"), (COLLISION_N, "collision")])
def test_the_routes_verify(text, route):
    cert = certificate_of(text)
    report = verify(cert)
    # at a symbolic n the group step of the causal mask with a bias is trusted (no closed form of the verifier's table)
    assert report.ok or text == COLLISION_N, [(s.rule, s.reason) for s in report.steps if s.outcome != "verified"]
    assert not [s for s in report.steps if s.outcome == "rejected"]
    assert _step(cert, "TGT-POSITIONS")["data"]["route"] == route
    assert {s.rule: s.outcome for s in report.steps}["TGT-POSITIONS"] == "verified"
    assert {s.rule: s.outcome for s in report.steps}["TGT-LAYERS"] == "verified"


def _mutated(text: str, change) -> dict:
    cert = copy.deepcopy(certificate_of(text))
    change(_step(cert, "TGT-POSITIONS"))
    return cert


@pytest.mark.parametrize("text,change", [
    (TOEPLITZ, lambda s: s["certificate"].update(route="collision")),
    (TWO_HEADS, lambda s: s["certificate"].update(separating=0)),
    (TOEPLITZ, lambda s: s["certificate"].update(separating=None)),
    (TOEPLITZ, lambda s: s["certificate"].update(n=9)),
    (TOEPLITZ, lambda s: s["certificate"].update(collision=[8, 1, 2])),
    (COLLISION, lambda s: s["certificate"].update(collision=[8, 2, 6])),
    (COLLISION, lambda s: s["certificate"].update(separating=0)),
    (COLLISION_N, lambda s: s["certificate"].update(collision=["n", "1", "2"])),
])
def test_a_block_value_other_than_the_checked_one_is_rejected(text, change):
    assert rejects(_mutated(text, change), "TGT-POSITIONS")


def _both(collision):
    def change(s):
        s["data"]["collision"] = collision
        s["certificate"]["collision"] = collision
    return change


@pytest.mark.parametrize("collision", [[8, 1, 2], [8, 2, 1], [8, 1, 8], [9, 1, 8], [8, 0, 8], [8, 1, True]])
def test_a_collision_that_a_head_tells_apart_or_that_is_not_a_causal_row_is_rejected(collision):
    # symmetric circulant at n = 8, row 8: only the offsets −d and −(8 − d) share a class (keys 8 − d and d)
    assert rejects(_mutated(COLLISION, _both(collision)), "TGT-POSITIONS")


def test_every_true_collision_of_row_eight_is_accepted():
    for l in range(1, 4):
        cert = _mutated(COLLISION, _both([8, l, 8 - l]))
        assert verify(cert).ok, l


def test_a_symbolic_collision_other_than_the_known_one_is_rejected():
    assert rejects(_mutated(COLLISION_N, _both(["n", "1", "2"])), "TGT-POSITIONS")


def test_a_collision_on_heads_that_see_positions_is_rejected():
    # the toeplitz head labels every key of a causal row differently: a stated collision is false
    cert = _mutated(TOEPLITZ, lambda s: (s["data"].update(route="collision", separating=None, collision=[8, 1, 2]),
                                         s["certificate"].update(route="collision", separating=None,
                                                                 collision=[8, 1, 2])))
    assert rejects(cert, "TGT-POSITIONS")


@pytest.mark.parametrize("layers,least", [(1, True), (3, True), (2, False)])
def test_the_collision_count_is_two_least(layers, least):
    cert = copy.deepcopy(certificate_of(COLLISION))
    _step(cert, "TGT-LAYERS")["data"].update(layers=layers, least=least)
    assert rejects(cert, "TGT-LAYERS")


def test_the_symbolic_collision_count_states_its_range():
    cert = copy.deepcopy(certificate_of(COLLISION_N))
    root = cert["steps"][-1]
    root["data"]["range"] = None
    root["data"]["below_range"] = None
    assert not verify(cert).ok
    cert = copy.deepcopy(certificate_of(COLLISION_N))
    cert["steps"][-1]["data"]["below_range"][0]["layers"] = 2
    assert not verify(cert).ok
