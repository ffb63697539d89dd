"""Theorem F170 of docs/theory.md §11.11 (Theorem F124 with the hub fixed): several heads whose union is Theorem F33's
`window(w) + strided(s) + global(1)` (D = 2, 2 layers least, its only symmetry τ fixing 1 and reflecting {2, …, n}),
while the heads' group is trivial: where τ moves some head's neighbourhood of the global 1 — which lies in every ball,
every position attending to it — no permutation meets every head's view condition, and 2 layers are least. Every tuple
against the concrete engine (graphs, BLISS rooted views with the heads as arc colours) at every n from the range's start
to 60 (through one more period past it for the tuples that start above 50), the premise re-checked on the reference
neighbourhoods of tests/graphs/brute_views.py (no code shared with the engine), and the verifier on a certificate."""
from __future__ import annotations


import pytest
import sympy

from uapcheck.show import show_pattern
from uapcheck.spec import Blocks, Offsets, PatternUnion, Star, Strided, Window

from .brute_views import neighbourhoods
from sample_sizes import lengths  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
from certificates import certificate_from_cli, verify_with_cli

from .heads_engines import closed_least, engine_least

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def _every_n_to(classes, modulus: int) -> int:
    """The normal run's engine sweep reads every n up to here (at least two whole periods of n mod M past the start of
    every class, and every n to 40), then the sweep's last n; UAPCHECK_NIGHTLY=1 every n."""
    return max(40, max(c.low for c in classes) + 2 * modulus - 1)


def U(*parts):
    return PatternUnion(tuple(parts))


# (heads, the range's start)
DECIDED = [
    ((Star(), Strided(2), Window(3)), 31),     # §13 L2′: the sweep's `star` | `strided(2)` | `blocks(4) + window(3)`
    ((Star(), Strided(3), Window(2)), 34),
    ((Star(), Strided(2), Window(2)), 23),
    ((Star(), Strided(3), Window(3)), 46),
    ((Star(), Strided(4), Window(3)), 61),
    ((Star(), Strided(2), Window(1)), 15),
    ((Star(), U(Offsets((1,)), Strided(2)), Window(3)), 31),
    ((U(Star(), Window(2)), U(Strided(3), Offsets((1,)))), 34),
    ((Star(), U(Strided(3), Offsets((1,))), Window(2)), 34),
    ((Star(), Offsets((1, 2)), U(Offsets((-2, -1)), Strided(3))), 34),
    ((Star(), U(Blocks(2), Strided(2)), Window(1)), 15),
    ((Star(), Strided(2), Window(3), Offsets((1,))), 31),
]
IDS = [" | ".join(map(show_pattern, h)) for h, _ in DECIDED]


@pytest.mark.parametrize("heads,low", DECIDED, ids=IDS)
def test_two_layers_are_the_concrete_engines_least_at_every_n_in_range(heads, low):
    found = closed_least(heads)
    assert found is not None and found.theorem == "F86" and found.union_theorem == "F33" and found.low == low
    assert {c.found_by for c in found.classes} == {"F124"} and found.layers == 2
    last = max(NMAX, low + 2 * found.modulus - 1) if low > 50 else NMAX
    for n in lengths(low, last, _every_n_to(found.classes, found.modulus)):
        here = next(c for c in found.classes if c.residue == n % found.modulus)
        if n < here.low:
            continue
        d, suffices = engine_least(heads, n)
        assert d == 2 and suffices, n


@pytest.mark.parametrize("heads,low", DECIDED, ids=IDS)
def test_the_hub_reflection_moves_a_heads_neighbourhood_of_the_hub_by_the_reference(heads, low):
    """τ(N_h(1)) ≠ N_h(τ 1) = N_h(1) for some head, τ(x) = n + 2 − x on {2, …, n}; every position attends to 1 in some
    head; and τ keeps the union (it is the union's symmetry)."""
    texts = [show_pattern(h) for h in heads]
    for n in (low, low + 1, low + 5):
        nbs = neighbourhoods(texts, n)

        def tau(x: int, n: int = n) -> int:
            return x if x == 1 else n + 2 - x
        assert any(frozenset(tau(u) for u in nb[1]) != nb[1] for nb in nbs), n
        assert all(any(1 in nb[v] for nb in nbs) for v in range(1, n + 1)), n
        union = [frozenset().union(*(nb[v] for nb in nbs)) for v in range(n + 1)]
        assert all(frozenset(tau(u) for u in union[v]) == union[tau(v)] for v in range(1, n + 1)), n


def test_the_verifier_re_checks_the_hub_class_and_rejects_a_forged_bound(tmp_path):
    text = ("tokens n\nattention { kernel k(x, y) = exp(x . y); pattern star }\n"
            "attention { kernel k(x, y) = exp(x . y); pattern strided(2) }\n"
            "attention { kernel k(x, y) = exp(x . y); pattern blocks(4) + window(3) }\n")
    cert = certificate_from_cli(text, tmp_path, no_cache=True)
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["certificate"]["theorem"] == "F86" and step["data"]["least"] and step["data"]["layers"] == 2
    done = verify_with_cli(cert, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    for c in step["certificate"]["classes"]:
        c["from"] = int(c["from"]) - 2 * int(step["certificate"]["modulus"])
    done = verify_with_cli(cert, tmp_path)
    assert done.returncode != 0 and "REJECTED" in done.stdout
