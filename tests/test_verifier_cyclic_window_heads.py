"""Theorem F143 in the verifier (uapcheck/verifier/cyclic_window_heads.py): the union is its own `cyclic window` lemma's
pattern, the heads' offsets are read off its own arcs at two lengths, and the classes of n mod 2w needing D + 1 come
from the theorem's inequality evaluated by the verifier. Certificates of two head tuples are verified; tampered ones
are rejected: other classes, another zone, another case, a count of D + 1 on a class that needs D, a range below the
union's."""
from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import heads_certificate, rejects  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402
from uapcheck.verifier.trees import decode, encode  # noqa: E402

ONE_SIDED = ("offsets {2}", "window(6) cyclic")   # §13 L2′ (ii): D + 1 except on n ≡ 2, 3 (mod 12)
REFLECTED = ("window(2)", "window(6) cyclic")     # every head invariant under n + 1 − i
SYMMETRIC = ("offsets {1} cyclic + offsets {-1, 2, -2}", "window(2) cyclic")  # case (S): ρ_Z fails at x = 0, 1


@functools.lru_cache(maxsize=None)
def _certificate_json(heads: tuple) -> str:
    return json.dumps(heads_certificate(*heads))


def _certificate(heads: tuple) -> dict:
    return json.loads(_certificate_json(heads))


def _step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")


@pytest.mark.parametrize("heads, case", [(ONE_SIDED, "asymmetric"), (REFLECTED, "reflected"),
                                         (SYMMETRIC, "symmetric")], ids=["one-sided", "reflected", "symmetric"])
def test_the_certificate_is_verified_by_f143(heads, case):
    cert = _certificate(heads)
    step = _step(cert)
    assert step["data"]["least"] is True and step["certificate"]["theorem"] == "F143"
    assert step["certificate"]["cyclic heads"]["case"] == case
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert "F143" in {s.rule: s.reason for s in report.steps}["PAT-LAYERS"]


def test_other_classes_are_rejected():
    cert = _certificate(ONE_SIDED)
    _step(cert)["certificate"]["cyclic heads"]["extra residues"] = [0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11]
    assert rejects(cert, "PAT-LAYERS")


def test_another_zone_is_rejected():
    cert = _certificate(REFLECTED)
    _step(cert)["certificate"]["cyclic heads"]["a"] = 1
    assert rejects(cert, "PAT-LAYERS")


def test_another_case_is_rejected():
    cert = _certificate(ONE_SIDED)
    _step(cert)["certificate"]["cyclic heads"]["case"] = "reflected"
    assert rejects(cert, "PAT-LAYERS")


def test_d_plus_one_on_every_class_is_rejected():
    import sympy
    cert = _certificate(ONE_SIDED)
    step = _step(cert)
    n = sympy.Symbol("n", integer=True, positive=True)
    d = decode(step["data"]["diameter"], {"n": n})
    step["data"]["layers"] = encode(d + 1)
    assert rejects(cert, "PAT-LAYERS")


def test_a_range_below_the_unions_is_rejected():
    cert = _certificate(ONE_SIDED)
    step = _step(cert)
    step["certificate"]["from"] = 14
    step["data"]["from"] = 14
    assert rejects(cert, "PAT-LAYERS")


ONE_SIDED_UNION = ("offsets {2}", "offsets {1, 2, 3} cyclic")   # F143 (O): D + 1 on n ≡ 1 (mod 3)


def test_the_one_sided_union_is_verified():
    cert = _certificate(ONE_SIDED_UNION)
    step = _step(cert)
    assert step["certificate"]["cyclic heads"]["case"] == "one-sided"
    assert step["certificate"]["cyclic heads"]["extra residues"] == [1]
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]


def test_one_sided_classes_of_the_cyclic_window_are_rejected():
    cert = _certificate(ONE_SIDED_UNION)
    _step(cert)["certificate"]["cyclic heads"]["extra residues"] = [0, 1]
    assert rejects(cert, "PAT-LAYERS")


def test_the_symmetric_case_states_the_reflections_classes():
    data = _step(_certificate(SYMMETRIC))["certificate"]["cyclic heads"]
    assert (data["a"], data["b"], data["failing"], data["extra residues"]) == (2, 2, [0, 1], [0, 1, 3])


@pytest.mark.parametrize("failing", [[0, 0], [], [-1, 2]], ids=["narrower", "none", "wider"])
def test_another_failing_hull_is_rejected(failing):
    cert = _certificate(SYMMETRIC)
    _step(cert)["certificate"]["cyclic heads"]["failing"] = failing
    assert rejects(cert, "PAT-LAYERS")


def test_the_rotations_classes_alone_are_rejected_in_the_symmetric_case():
    cert = _certificate(SYMMETRIC)
    _step(cert)["certificate"]["cyclic heads"]["extra residues"] = []   # z = 4 > 2w − 1: no rotation witness
    assert rejects(cert, "PAT-LAYERS")


# ---------------------------------------------------------------------------------------------
# Theorem F153: the heads' group (SYM-AUT, certificate kind "cyclic window heads")

# case (S) with a window too wide for Theorems F35–F39's representative lengths: formerly INCONCLUSIVE
MIRRORED = ("offsets {-2, -1} cyclic + offsets {1, 2}", "window(40) cyclic")


def _group_step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")


def test_the_group_is_verified_by_f153():
    """The group step alone is re-checked here (0.5 s, where the whole certificate takes 30 s): every step of the same
    two heads at symbolic n is verified, none trusted, in tests/test_verifier.py's catalog test
    (catalog/ring_mirrored_wide_window_heads_n.uap)."""
    catalog = (Path(__file__).resolve().parents[1] / "catalog" / "ring_mirrored_wide_window_heads_n.uap").read_text()
    assert "tokens n\n" in catalog and all(f"  pattern {p}\n" in catalog for p in MIRRORED)
    cert = _certificate(MIRRORED)
    step = _group_step(cert)
    assert step["certificate"]["kind"] == "cyclic window heads" and step["data"]["name"] == "trivial"
    report = verify(cert, only={step["id"]})
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert [s.rule for s in report.steps] == ["SYM-AUT"]
    assert "F153" in {s.rule: s.reason for s in report.steps}["SYM-AUT"]


def test_a_larger_group_is_rejected():
    cert = _certificate(MIRRORED)
    step = _group_step(cert)
    step["certificate"]["group"]["elements"] = [["id"], ["refl", 1]]
    step["certificate"]["order"] = 2
    step["data"]["name"] = "reflection"
    assert rejects(cert, "SYM-AUT")


def test_another_order_is_rejected():
    cert = _certificate(MIRRORED)
    _group_step(cert)["certificate"]["order"] = 2
    assert rejects(cert, "SYM-AUT")


def test_the_group_with_another_case_is_rejected():
    cert = _certificate(MIRRORED)
    _group_step(cert)["certificate"]["cyclic heads"]["case"] = "reflected"
    assert rejects(cert, "SYM-AUT")


def test_the_group_below_the_unions_range_is_rejected():
    cert = _certificate(MIRRORED)
    _group_step(cert)["certificate"]["from"] = 80
    assert rejects(cert, "SYM-AUT")


def _at_length(heads: tuple, n: int) -> dict:
    from certificates import certificate_of
    text = f"tokens {n}\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n" for p in heads)
    return certificate_of(text)


def test_the_group_read_at_a_concrete_length_is_verified_and_another_length_rejected():
    from uapcheck.verifier import VERIFIED
    cert = _at_length(MIRRORED, 1000)   # 80,000 arcs: the closed forms are read at n before the token graph
    step = _group_step(cert)
    assert step["certificate"]["kind"] == "cyclic window heads" and step["certificate"]["n"] == 1000
    read = {s["id"] for s in cert["steps"] if s["rule"] in ("SYM-AUT", "PAT-LAYERS")}  # the steps this test reads
    outcomes = {s.rule: s.outcome for s in verify(cert, only=read).steps}
    assert outcomes["SYM-AUT"] == VERIFIED and outcomes["PAT-LAYERS"] == VERIFIED
    layers = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert (layers["data"]["least"], layers["data"]["layers"]) == (True, 14)   # F143 at n ≡ 40 (mod 80): D + 1
    step["certificate"]["n"] = 1001
    assert rejects(cert, "SYM-AUT")
