"""Theorem F159 wired (docs/theory.md §21.10): a `layers M` budget on per-layer causal interval heads of finite widths at
a symbolic n is NOT-UAP for causal targets from N* on and UAP below it, each length with its least count. The verdict
is checked against the concrete derivation (§21.5's rooted views) at every n ≤ 60, against a brute force over S_n at
n ≤ 6 (the view condition of §21.3 verbatim, tests/test_review_causal_forms.py), against N* written from the statement
(tests/test_per_layer_causal_budget_split.py); the certificate is verified, and forged starts and lengths are rejected
by the kernel and by the verifier."""
from __future__ import annotations

import copy
import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of  # noqa: E402
from test_per_layer_causal_budget_split import first_not_uap, head  # noqa: E402
from test_review_causal_forms import Family, least_count, witness_by_permutations  # noqa: E402

import uapcheck  # noqa: E402
from uapcheck import proof  # noqa: E402
from uapcheck.graphs.layers_interval_forms import budget_split, read_form_layers  # noqa: E402
from uapcheck.layer_certificates import CausalBudgetSplit  # noqa: E402
from uapcheck.parse import parse_source  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402

CATALOG = Path(__file__).resolve().parents[1] / "catalog"


def text(rows: tuple, M: int, tokens="n", kind: str = "periodic") -> str:
    """rows[ℓ − 1]: the widths of layer ℓ's heads, one attention block per head."""
    blocks = [f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {kind} {{ "
              f"{', '.join(head(row[h]) for row in rows)} }}\n}}\n" for h in range(len(rows[0]))]
    return "".join(blocks) + f"layers {M}\ntokens {tokens}\ntarget causal\n"


def target(src: str) -> dict:
    return uapcheck.check(src, "t.uap").to_dict()


def rows_family(rows: tuple, M: int) -> Family:
    """The same heads for the brute force: one block per head."""
    return Family([[(row[h], 0) for row in rows] for h in range(len(rows[0]))], "periodic", M)


LISTS = [(((3,), (2,)), 4), (((5,), (1,)), 3), (((0,), (4,), (1,)), 5), (((2,), (2,), (1,)), 3), (((1,), (3,)), 2),
         (((4,), (0,)), 1), (((0,), (0,)), 2), (((3, 1), (2, 2)), 3), (((5, 1), (1, 0)), 2), (((6, 0), (1, 1)), 2),
         (((2,),), 3), (((1,),), 4), (((3,),), 1)]  # the last three: one pattern in every layer (§14.7's route)


@pytest.mark.parametrize("rows, M", LISTS)
def test_the_verdict_equals_the_concrete_derivation_at_every_n_to_60(rows, M):
    d = target(text(rows, M))
    N = first_not_uap(rows, M)
    assert d["verdict"] == "NOT-UAP" and d["target"]["range"] == f"n ≥ {N}"
    below = d["target"]["below_range"]
    assert [r["n"] for r in below] == list(range(1, N))
    for n in range(1, 61):
        c = target(text(rows, M, tokens=n))
        if n >= N:
            assert c["verdict"] == "NOT-UAP", (rows, M, n)
            continue
        r = below[n - 1]
        assert c["verdict"] == "UAP" and (r["verdict"], r["layers"], r["least"]) == ("UAP", c["layers"], True), \
            (rows, M, n, r, c["layers"])


@pytest.mark.parametrize("rows, M", LISTS)
def test_the_verdict_equals_the_brute_force_over_s_n(rows, M):
    d = target(text(rows, M))
    N = first_not_uap(rows, M)
    fam = rows_family(rows, M)
    below = {r["n"]: r for r in d["target"]["below_range"]}
    for n in range(1, 7):
        verdict, layers = least_count(fam, n)
        if n >= N:
            assert verdict == "NOT-UAP", (rows, M, n)
            if verdict == "NOT-UAP" and layers != "unreached":  # a witness at the whole depth, by every σ ∈ S_n
                assert witness_by_permutations(fam, n, M)
        else:
            assert (verdict, layers) == ("UAP", below[n]["layers"]), (rows, M, n)


def test_random_lists_state_the_start_of_the_statement():
    rng = random.Random(159)
    seen = 0
    for _ in range(60):
        heads = rng.choice([1, 2])
        rows = tuple(tuple(rng.choice([0, 1, 2, 3, 5]) for _ in range(heads)) for _ in range(rng.choice([2, 3])))
        if len(set(rows)) == 1:
            continue  # one pattern in every layer is read as that pattern (not a per-layer list)
        M = rng.randint(1, 5)
        L = read_form_layers(parse_source(text(rows, M), "t.uap"))
        split = budget_split(L)
        assert split.start == first_not_uap(rows, M), (rows, M)
        CausalBudgetSplit(L, split, "n").check()  # the kernel's own re-check
        seen += split.start > 2
    assert seen > 30


def test_a_finite_list_without_a_budget_splits_too():
    d = target(text(((3,), (2,)), 2, kind="sequence").replace("layers 2\n", ""))
    assert d["verdict"] == "NOT-UAP" and d["target"]["range"] == f"n ≥ {first_not_uap(((3,), (2,)), 2)}"


@pytest.fixture(scope="module")
def catalog_cert():
    return certificate_of((CATALOG / "alternating_windows_four_layers_any_length.uap").read_text())


def _split_step(cert) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "TGT-NOT-CAUSAL")


def test_the_catalog_file_is_verified(catalog_cert):
    report = verify(catalog_cert)
    assert report.ok and not any(o.outcome == "trusted" for o in report.steps)
    assert _split_step(catalog_cert)["data"]["from"] == 12


@pytest.mark.parametrize("start", [11, 13, 2])
def test_a_forged_start_is_rejected_by_the_verifier(catalog_cert, start):
    bad = copy.deepcopy(catalog_cert)
    _split_step(bad)["data"]["from"] = start
    assert not verify(bad).ok


@pytest.mark.parametrize("change", [{"layers": 3}, {"layers": 5}, {"least": False}, {"verdict": "NOT-UAP",
                                                                                       "layers": None}])
def test_a_forged_length_below_the_start_is_rejected_by_the_verifier(catalog_cert, change):
    bad = copy.deepcopy(catalog_cert)
    bad["steps"][-1]["data"]["below_range"][9].update(change)  # n = 10: UAP with 4 layers
    assert not verify(bad).ok


@pytest.mark.parametrize("key, value", [("depth", 3), ("depth", 5), ("reach end", 11), ("reach end", 13)])
def test_a_forged_depth_or_reach_is_rejected_by_the_verifier(catalog_cert, key, value):
    bad = copy.deepcopy(catalog_cert)
    _split_step(bad)["data"][key] = value
    assert not verify(bad).ok


def test_forged_splits_are_rejected_by_the_kernel():
    L = read_form_layers(parse_source(text(((3,), (2,)), 4), "t.uap"))
    good = budget_split(L)
    pieces = tuple(replace(p, layers=p.layers + 1) if p.lower == 10 else p for p in good.pieces)
    for bad in (replace(good, start=11), replace(good, start=13), replace(good, pieces=pieces)):
        with pytest.raises(proof.CertificateRejected):
            CausalBudgetSplit(L, bad, "n").check()
