"""`circulant` beside `symmetric toeplitz` on dense heads at a symbolic n: Theorem F177 (docs/theory.md §8).

The statement (UAP, G trivial for n ≥ 3, one layer at odd n and two, least, at even n) against: the concrete
derivation (Theorem F162's row classes, or every permutation at small n) at every n ≤ 60, and a brute force over S_n
(n ≤ 7) from the definitions of §11.10; the certificate kernel and the verifier re-derive it and reject forgeries. At
n ≤ 2 the group is S_n (C_n and the reflection both are), not the trivial group."""
from __future__ import annotations

import copy
import itertools

import pytest
import sympy

import uapcheck
from uapcheck.certificates import DenseBiasLayers, parity_layers
from uapcheck.proof import CertificateRejected
from uapcheck.verifier import verify

from certificates import certificate_from_cli  # tests/ is on sys.path

KERNEL = "  kernel k(x, y) = exp(x . y)\n"


def program(n, kinds: tuple) -> str:
    heads = "".join("attention {\n" + KERNEL + (f"  bias {k}\n" if k else "") + "}\n" for k in kinds)
    return (f"tokens {n}\n" if n is not None else "tokens n\n") + heads


def label(kind: str, n: int, q: int, k: int):
    d = k - q
    return {"circulant": d % n, "symmetric toeplitz": abs(d), "symmetric circulant": min(d % n, -d % n)}[kind]


def brute(n: int, kinds: tuple) -> tuple[int, int]:
    """(|G|, least layers) of dense heads from the definitions: G keeps every label of every row; one layer unless a
    σ ∉ G keeps the labels of some row (a one-layer labelled witness), else two (the depth-2 view is the sample)."""
    kinds = tuple(k for k in kinds if k)

    def keeps(perm, row) -> bool:
        return all(label(k, n, perm[row], perm[u]) == label(k, n, row, u) for k in kinds for u in range(1, n + 1))
    order, witness = 0, False
    for images in itertools.permutations(range(1, n + 1)):
        perm = (0,) + images
        kept = [keeps(perm, row) for row in range(1, n + 1)]
        if all(kept):
            order += 1
        elif any(kept):
            witness = True
    return order, 2 if witness else 1


SETTINGS = [("circulant", "symmetric toeplitz"), ("symmetric toeplitz", "circulant", None),
            ("circulant", "symmetric circulant", "symmetric toeplitz")]


def stated_at(r, n: int):
    symbol = next(iter(r.layers.free_symbols))
    if n >= 3:
        assert r.group.condition_formula.xreplace({symbol: n}) is sympy.true
        return 1, int(r.layers.xreplace({symbol: n}))
    found = next(x for x in r.root.facts["below_range"] if x.n == n)
    return int(found.group.order), found.layers


@pytest.mark.parametrize("kinds", SETTINGS)
def test_the_symbolic_statement(kinds):
    """UAP, G trivial for n ≥ 3, one layer at odd n and two at even n, least (BIAS-LAYERS by parity, Theorem F177);
    n = 1, 2 below the range."""
    r = uapcheck.check(program(None, kinds), "t.uap")
    assert r.verdict == "UAP" and r.group.name == "trivial"
    n = next(iter(r.layers.free_symbols))
    assert r.group.condition_formula == sympy.Ge(n, 3)
    assert [int(r.layers.xreplace({n: k})) for k in (3, 4, 5, 6, 99, 100)] == [1, 2, 1, 2, 1, 2]
    step = next(s for s in r.root.walk() if s.rule == "BIAS-LAYERS")
    assert step.facts["least"] is True and step.certificate.reason == "parity"
    assert [x.n for x in r.root.facts["below_range"]] == [1, 2]


@pytest.mark.parametrize("kinds", SETTINGS)
def test_the_statement_against_the_concrete_derivation_up_to_sixty(kinds):
    """Every n ≤ 60: the concrete derivation (every permutation at n ≤ 7, the rows' joint classes of Theorem F162
    beyond) gives the stated group order and count, least."""
    r = uapcheck.check(program(None, kinds), "t.uap")
    for n in range(1, 61):
        c = uapcheck.check(program(n, kinds), "t.uap")
        step = next(s for s in c.root.walk() if s.rule == "BIAS-LAYERS")
        assert (c.verdict, int(c.group.order), c.layers) == ("UAP", *stated_at(r, n)), (kinds, n)
        assert step.facts["least"] is True, (kinds, n)


@pytest.mark.parametrize("kinds", SETTINGS)
def test_the_statement_against_brute_force(kinds):
    """n ≤ 7 over all of S_n from the definitions: the stated group order and least count, in the range and below."""
    r = uapcheck.check(program(None, kinds), "t.uap")
    for n in range(1, 8):
        assert stated_at(r, n) == brute(n, kinds), (kinds, n)


def test_the_group_at_two_tokens_is_the_symmetric_one(tmp_path):
    """C_2 and the reflection of 1, 2 are both S_2, so their meet is S_2 (the swap keeps (m mod 2, |m|)); it was
    stated trivial, a group smaller than the family's, and the verifier now verifies S_2 with its one generator."""
    r = uapcheck.check(program(2, ("circulant", "symmetric toeplitz")), "t.uap")
    assert (r.group.name, r.group.order) == ("S_n", 2)
    report = verify(certificate_from_cli(program(2, ("circulant", "symmetric toeplitz")), tmp_path))
    assert report.ok and report.complete, report


def test_the_kernel_rejects_forged_certificates():
    n = sympy.Symbol("n", integer=True, positive=True)
    kinds = ("circulant", "symmetric toeplitz")
    DenseBiasLayers(kinds, n, parity_layers(n), True, "parity", low=3).check()
    forged = [DenseBiasLayers(kinds, n, sympy.Integer(1), True, "parity", low=3),
              DenseBiasLayers(kinds, n, parity_layers(n), True, "parity", low=2),
              DenseBiasLayers(kinds, n, parity_layers(n), False, "parity", low=3),
              DenseBiasLayers(kinds, 8, 2, True, "parity", low=3),
              DenseBiasLayers(("circulant", "symmetric circulant"), n, parity_layers(n), True, "parity", low=3),
              DenseBiasLayers(("circulant", "symmetric toeplitz", "toeplitz"), n, parity_layers(n), True, "parity",
                              low=3)]
    for cert in forged:
        with pytest.raises(CertificateRejected):
            cert.check()


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_verifier_rederives_the_count_by_parity(tmp_path):
    """Fully verified; a constant count (one or two), a count not least, a range from n = 2, and the parity swapped are
    rejected by the verifier's own reading."""
    cert = certificate_from_cli(program(None, ("circulant", "symmetric toeplitz")), tmp_path)
    report = verify(cert)
    assert report.ok and report.complete, report
    mutations = {"one": lambda d: d.update(layers=1), "two": lambda d: d.update(layers=2),
                 "not least": lambda d: d.update(least=False), "range": lambda d: d.update(condition="n ≥ 2"),
                 "swapped": lambda d: d.update(layers={"op": "+", "args": [3, {"op": "*", "args": [-1, d["layers"]]}]})}
    for name, mutate in mutations.items():
        forged = copy.deepcopy(cert)
        mutate(_step(forged, "BIAS-LAYERS")["data"])
        assert any(s.rule == "BIAS-LAYERS" for s in verify(forged).rejected), name
