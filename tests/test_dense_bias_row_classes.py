"""Dense heads with trainable classes of the offset at any concrete n: Theorem F162 (docs/theory.md §8, BIAS-LAYERS).

A σ with σ(i) = j keeps row i's labels iff it maps the offsets 1 − i, …, n − i onto 1 − j, …, n − j class by class, so
comparing the rows' joint class multisets decides one layer or two exactly (formerly over S_n up to n = 6 only, and
"two, sufficient" beyond). §13 L10 (d)'s file: `bias circulant` beside `bias symmetric toeplitz` at 7 tokens, one
layer (the joint class (m mod 7, |m|) names every offset); at even n the shift σ(u) = u + 1 keeps row n/2 (offsets
±n/2 share a class), two layers. Checked against a brute force over S_n (n ≤ 8) and that closed form up to n = 60."""
from __future__ import annotations

import copy
import itertools

import pytest

import uapcheck
from uapcheck import proof
from uapcheck.certificates import DenseBiasLayers, keeps_all_labels, keeps_row_labels, row_class_candidates
from uapcheck.verifier import verify

from certificates import certificate_from_cli  # tests/ is on sys.path

KERNEL = "  kernel k(x, y) = exp(x . y)\n"


def program(n: int, kinds) -> str:
    return f"tokens {n}\n" + "".join(f"attention {{\n{KERNEL}  bias {k}\n}}\n" for k in kinds)


def layers_step(r):
    return next(s for s in r.root.walk() if s.rule == "BIAS-LAYERS")


def brute_force_layers(kinds: tuple, n: int) -> int:
    """Two when some σ ∈ S_n outside the group keeps a row's labels, else one (§11.10 at D = 1)."""
    for perm in itertools.permutations(range(1, n + 1)):
        if keeps_all_labels(kinds, n, perm):
            continue
        if any(keeps_row_labels(kinds, n, perm, i) for i in range(1, n + 1)):
            return 2
    return 1


COMBOS = [("circulant", "symmetric toeplitz"), ("circulant", "symmetric circulant"),
          ("symmetric circulant", "symmetric toeplitz"), ("buckets(8, 16)", "circulant"),
          ("buckets(4, 8)", "symmetric circulant")]


@pytest.mark.parametrize("kinds", COMBOS)
def test_the_row_classes_against_brute_force(kinds):
    """n = 3, …, 8 over all of S_n: the rows' class multisets give one layer exactly when no σ outside the group keeps
    a row; where they give two, the σ found is outside the group."""
    kinds = tuple(sorted(kinds))
    for n in range(3, 9):
        candidates = list(row_class_candidates(kinds, n))
        outside = [(i, p) for i, p in candidates if not keeps_all_labels(kinds, n, p)]
        for i, perm in candidates:
            assert perm != tuple(range(1, n + 1)) and keeps_row_labels(kinds, n, perm, i), (kinds, n)
        if not candidates:
            assert brute_force_layers(kinds, n) == 1, (kinds, n)
        elif outside:
            assert brute_force_layers(kinds, n) == 2, (kinds, n)


def test_circulant_beside_symmetric_toeplitz_up_to_sixty():
    """The engine states one layer, least, exactly at odd n and two, least, at even n (7 ≤ n ≤ 60): (m mod n, |m|) is
    injective on −(n − 1), …, n − 1 iff n is odd, and at even n the shift keeps row n/2."""
    for n in range(7, 61):
        r = uapcheck.check(program(n, ("circulant", "symmetric toeplitz")), "t.uap")
        step = layers_step(r)
        assert (r.verdict, r.group.order, r.layers, step.facts["least"]) == ("UAP", 1, 1 if n % 2 else 2, True), n


def test_the_referee_file_is_one_layer():
    r = uapcheck.check(program(7, ("circulant", "symmetric toeplitz")), "t.uap")
    assert (r.verdict, r.layers) == ("UAP", 1)
    assert layers_step(r).certificate.reason == "row classes"


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("n,layers", [(8, 2), (9, 1)])
def test_the_verifier_redecides_the_rows(n, layers, tmp_path):
    """Fully verified (the verifier's own joint classes and σ); the other count rejected."""
    cert = certificate_from_cli(program(n, ("circulant", "symmetric toeplitz")), tmp_path)
    assert _step(cert, "BIAS-LAYERS")["data"]["layers"] == layers
    report = verify(cert)
    assert report.ok and report.complete, report
    forged = copy.deepcopy(cert)
    _step(forged, "BIAS-LAYERS")["data"]["layers"] = 3 - layers
    assert not verify(forged).ok


def test_the_kernel_rejects_forged_row_class_counts():
    kinds = ("circulant", "symmetric toeplitz")
    DenseBiasLayers(kinds, 9, 1, True, "row classes").check()
    i, perm = next(row_class_candidates(kinds, 8))
    DenseBiasLayers(kinds, 8, 2, True, "row classes", (i, perm)).check()
    for forged in (DenseBiasLayers(kinds, 8, 1, True, "row classes"),  # a σ keeps row 4
                   DenseBiasLayers(kinds, 9, 2, True, "row classes", (i, tuple(range(1, 10)))),  # the identity
                   DenseBiasLayers(kinds, 5000, 1, True, "row classes")):  # beyond the limit
        with pytest.raises(proof.CertificateRejected):
            forged.check()
