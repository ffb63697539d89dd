"""Theorem F236 (with F235, lemma AR) in the engine, the proof kernel and the verifier (graphs/head_layers.py,
`union_automorphism_heads`; uapcheck/verifier/head_layers.py, `_union_automorphisms`): the catalog's pair
`blocks(3) + offsets {1}` | `blocks(2) + offsets {-1}` gets D + 1 layers on n ≡ 0 (mod 6) and D elsewhere, least, at
symbolic n; the certificate is verified, and forged ones are rejected (a count of D or D + 1 on every class, a class
moved, the range's start lowered, another modulus), as is a forged decision the kernel re-runs. Other pairs (the
mirrored heads) are not taken by the theorem. The count at each n against the rooted views is in
tests/graphs/test_union_automorphism_heads.py."""
from __future__ import annotations

import functools
import json
import sys
from dataclasses import replace
from pathlib import Path

import sympy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import heads_certificate, rejects  # noqa: E402

import uapcheck  # noqa: E402
from uapcheck import certificates as C  # noqa: E402
from uapcheck.certfile import _without_residue_cases  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402
from uapcheck.verifier.trees import encode  # noqa: E402

PAIR = ("blocks(3) + offsets {1}", "blocks(2) + offsets {-1}")
N = sympy.Symbol("n", integer=True, positive=True)


@functools.lru_cache(maxsize=None)
def _certificate_json(heads: tuple) -> str:
    return json.dumps(heads_certificate(*heads))


def _certificate(heads: tuple = PAIR) -> dict:
    return json.loads(_certificate_json(heads))


def _step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")


def _d(n):
    q = sympy.floor(n / 3)
    return sympy.Piecewise((2 * q - 1, sympy.Eq(sympy.Mod(n, 3), 0)), (2 * q + 1, sympy.Eq(sympy.Mod(n, 3), 2)),
                           (2 * q, True))


def test_the_pair_gets_d_plus_one_exactly_on_six_dividing_n_least_and_verified():
    cert = _certificate()
    step = _step(cert)
    assert step["data"]["least"] is True
    assert step["certificate"]["theorem"] == "F236" and step["certificate"]["extra residues"] == [0]
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert "F236" in {s.rule: s.reason for s in report.steps}["PAT-LAYERS"]


def test_the_count_at_every_n_of_two_periods_is_d_plus_one_on_six_dividing_n():
    text = "tokens n\n" + "".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}\n" for p in PAIR)
    r = uapcheck.check(text, "t.uap")
    n = next(s for s in r.layers.free_symbols if s.name == "n")
    for m in range(10, 22):
        want = int(_d(sympy.Integer(m))) + (m % 6 == 0)
        assert int(r.layers.subs(n, m)) == want, m


def test_the_heads_in_the_other_order_are_taken_and_the_mirrored_pair_is_not():
    assert _step(_certificate(PAIR[::-1]))["certificate"]["theorem"] == "F236"
    mirrored = _step(_certificate(("blocks(3) + offsets {-1}", "blocks(2) + offsets {1}")))
    assert (mirrored["certificate"] or {}).get("theorem") != "F236"


def test_a_count_of_d_on_every_class_is_rejected():
    cert = _certificate()
    _step(cert)["data"]["layers"] = encode(_without_residue_cases(_d(N)))
    assert rejects(cert, "PAT-LAYERS")


def test_a_count_of_d_plus_one_on_every_class_is_rejected():
    cert = _certificate()
    _step(cert)["data"]["layers"] = encode(_without_residue_cases(_d(N) + 1))
    assert rejects(cert, "PAT-LAYERS")


def test_a_class_moved_is_rejected():
    cert = _certificate()
    _step(cert)["certificate"]["extra residues"] = [3]
    assert rejects(cert, "PAT-LAYERS")


def test_the_range_start_lowered_is_rejected():
    cert = _certificate()
    _step(cert)["certificate"]["from"] = 9
    _step(cert)["data"]["from"] = 9
    assert rejects(cert, "PAT-LAYERS")


def test_another_modulus_is_rejected():
    cert = _certificate()
    _step(cert)["certificate"]["modulus"] = 12
    assert rejects(cert, "PAT-LAYERS")


def test_the_kernel_rejects_a_forged_decision():
    text = "tokens n\n" + "".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}\n" for p in PAIR)
    r = uapcheck.check(text, "t.uap")
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    cert = step.certificate
    assert isinstance(cert, C.HeadLayers) and cert.found.theorem == "F236"
    cert.check()
    forged = replace(cert, found=replace(cert.found, extra_residues=(3,)))
    try:
        forged.check()
    except Exception as exc:  # the kernel's rejection
        assert "another answer" in str(exc)
    else:
        raise AssertionError("the kernel accepted a forged F236 decision")
