"""Theorem F188 (docs/theory.md §11.11): heads `full` and `star` (each present), unbiased, without an encoding: the
union is complete, the heads' group is the stabiliser of position 1, and one layer suffices from n = 3, least (it
was stated two, sufficient, at a symbolic n). Checked against the concrete engine at every n from 3 to 40, against a
brute force over S_n of the radius-0 view condition, and by the verifier, which rejects the count for `global(2)`
beside `full` (a hub's swap with a non-hub is a witness there)."""
from __future__ import annotations

import copy
from itertools import permutations

import pytest

import uapcheck
from uapcheck.verifier import verify

from certificates import heads_certificate  # tests/ is on sys.path

KERNEL = "  kernel k(x, y) = exp(x . y)\n"


def program(n, *patterns: str) -> str:
    return f"tokens {n}\n" + "".join(f"attention {{\n{KERNEL}  pattern {p}\n}}\n" for p in patterns)


def _neighbourhoods(pattern: str, n: int) -> list:
    """In-neighbourhoods N(v) (v included), written here from the language's definitions."""
    if pattern == "full":
        return [None] + [frozenset(range(1, n + 1)) for _ in range(n)]
    g = {"star": 1, "global(1)": 1, "global(2)": 2}[pattern]
    return [None] + [frozenset(range(1, n + 1)) if v <= g else frozenset(range(1, g + 1)) | {v}
                     for v in range(1, n + 1)]


def brute(n: int, patterns: tuple) -> tuple:
    """(the order of ⋂ Aut of the heads, whether a view witness at radius 0 exists), trying every σ in S_n."""
    heads = [_neighbourhoods(p, n) for p in patterns]

    def kept(sigma: tuple, v: int) -> bool:
        return all(frozenset(sigma[u] for u in h[v]) == h[sigma[v]] for h in heads)
    order, witness = 0, False
    for perm in permutations(range(1, n + 1)):
        sigma = (0,) + perm
        if all(kept(sigma, v) for v in range(1, n + 1)):
            order += 1
        elif any(kept(sigma, i) for i in range(1, n + 1)):
            witness = True
    return order, witness


@pytest.mark.parametrize("patterns", [("star", "full"), ("full", "star", "star"), ("global(1)", "full")])
def test_one_layer_least_at_every_length(patterns):
    r = uapcheck.check(program("n", *patterns), "t.uap")
    assert (r.verdict, r.layers) == ("UAP", 1)
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.facts["least"] is True and step.certificate.found.theorem == "F188"
    assert r.group.name == "stabilizer 1", r.group


def test_the_count_agrees_with_the_concrete_engine_from_3_to_40():
    for n in range(3, 41):
        r = uapcheck.check(program(n, "star", "full"), "t.uap")
        assert (r.verdict, r.layers) == ("UAP", 1), n
        assert r.group.name == "stabilizer 1" and r.group.order in (_factorial(n - 1), f"{n - 1}!"), n


def _factorial(k: int) -> int:
    out = 1
    for v in range(2, k + 1):
        out *= v
    return out


@pytest.mark.parametrize("n", range(3, 8))
def test_the_brute_force_finds_the_stabiliser_and_no_witness(n):
    assert brute(n, ("star", "full")) == (_factorial(n - 1), False)


@pytest.mark.parametrize("n", range(4, 8))
def test_two_hubs_beside_full_have_a_witness_and_are_not_covered(n):
    """`global(2)` beside `full` (n ≥ g + 2): the swap of a hub and a non-hub keeps a hub's neighbourhood, so two
    layers; the engine states two, least, and the theorem is not applied."""
    assert brute(n, ("global(2)", "full"))[1] is True
    r = uapcheck.check(program(n, "global(2)", "full"), "t.uap")
    assert (r.verdict, r.layers) == ("UAP", 2), n
    assert next(s for s in r.root.walk() if s.rule == "PAT-LAYERS").facts["least"] is True


def _layers_step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")


def _outcome(cert: dict) -> str:
    """The verifier's outcome for the PAT-LAYERS step (the symbolic group step beside it is trusted: no closed form of
    the verifier's table names the stabiliser)."""
    sid = _layers_step(cert)["id"]
    report = verify(cert)
    return next(s.outcome for s in report.steps if s.id == sid)


def test_the_verifier_rechecks_it_and_rejects_forgeries():
    cert = heads_certificate("star", "full")
    step = _layers_step(cert)
    assert step["certificate"]["theorem"] == "F188"
    assert _outcome(cert) == "verified"
    assert not verify(cert).rejected
    early = copy.deepcopy(cert)  # the range from n = 2, where the star is complete
    _layers_step(early)["certificate"]["from"] = 2
    _layers_step(early)["data"]["from"] = 2
    assert _outcome(early) == "rejected"
    two = copy.deepcopy(cert)  # a count of two stated under the theorem
    _layers_step(two)["data"]["layers"] = 2
    assert _outcome(two) == "rejected"
    two_hubs = heads_certificate("global(2)", "full")  # two layers there: F188's one layer forged onto it
    forged = copy.deepcopy(two_hubs)
    layers = _layers_step(forged)
    layers["data"].update(layers=step["data"]["layers"], least=True, **{"from": 3})
    layers["certificate"] = copy.deepcopy(step["certificate"])
    assert _outcome(forged) == "rejected"
