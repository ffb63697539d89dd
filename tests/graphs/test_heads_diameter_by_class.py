"""Theorem F86 where the union's D depends on n mod M (docs/theory.md §11.11, F86 with Theorem F193): the union of the
heads' arcs is Theorem F11's `window(w) + strided(s)` (D = 3 on some classes, 2 on the others, 3 layers least on each)
or F74's; each class is read with its own D — F70 or F124 where the union's count is D, F71, F88 or F127 (a swap or a
permutation of the heads' own near the ends) where it is D + 1 = 3 with D = 2. Every tuple against the concrete engine
(graphs, BLISS rooted views with the heads as arc colours) at every n from the range's start to 60 (and through one
more period for the tuples that start past 50), each class's witness re-checked on the reference neighbourhoods of
tests/graphs/brute_views.py (no code shared with the engine), and the verifier on a certificate and on forged ones."""
from __future__ import annotations

import json

import pytest
import sympy

from uapcheck.show import show_pattern
from uapcheck.spec import Offsets, PatternUnion, Strided, Window

from .brute_views import _preserves, neighbourhoods
from certificates import certificate_from_cli, forged_class, layers_step, verify_with_cli

from .heads_engines import closed_least, engine_least

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


# (heads, the union's theorem, the range's start, {residue: found by})
DECIDED = [
    ((Strided(3), Window(1)), "F11", 21, {0: "F70", 1: "F127", 2: "F127"}),   # §13 L2′: the sweep's file (seed 49)
    ((Strided(3), Offsets((-1, 1))), "F11", 21, {0: "F70", 1: "F127", 2: "F127"}),
    ((Strided(3), U(Window(1), Offsets((-1,)))), "F11", 21, {0: "F70", 1: "F127", 2: "F127"}),
    ((Strided(3), Window(1), Offsets((1,))), "F11", 21, {0: "F124", 1: "F127", 2: "F127"}),
    ((U(Strided(3), Offsets((-1,))), Window(1)), "F11", 21, {0: "F124", 1: "F127", 2: "F127"}),
    ((U(Strided(3), Offsets((1,))), Window(1)), "F11", 21, {0: "F124", 1: "F127", 2: "F127"}),
    ((U(Strided(3), Offsets((1,))), Offsets((-1,))), "F11", 21, {0: "F124", 1: "F127", 2: "F127"}),
    ((Strided(5), Window(2)), "F11", 55, {0: "F70", 1: "F70", 2: "F88", 3: "F88", 4: "F70"}),
    ((Strided(5), Window(2), Offsets((1,))), "F11", 55, {0: "F124", 1: "F124", 2: "F88", 3: "F88", 4: "F124"}),
    ((Strided(5), Offsets((1, 2)), Offsets((-2, -1))), "F11", 55,
     {0: "F124", 1: "F124", 2: "F88", 3: "F88", 4: "F124"}),
    ((U(Strided(5), Offsets((-1,))), Window(2)), "F11", 55, {0: "F124", 1: "F124", 2: "F88", 3: "F88", 4: "F124"}),
    ((Strided(5), Window(1), Offsets((2,)), Offsets((-2,))), "F74", 55,
     {0: "F124", 1: "F124", 2: "F127", 3: "F127", 4: "F124"}),
]
IDS = [" | ".join(map(show_pattern, h)) for h, _, _, _ in DECIDED]


def _last(low: int, modulus: int) -> int:
    return max(NMAX, low + 2 * modulus - 1) if low > 50 else NMAX


@pytest.mark.parametrize("heads,theorem,low,classes", DECIDED, ids=IDS)
def test_the_count_is_the_concrete_engines_least_at_every_n_in_range(heads, theorem, low, classes):
    found = closed_least(heads)
    assert found is not None and found.theorem == "F86" and found.union_theorem == theorem and found.low == low
    assert {c.residue: c.found_by for c in found.classes} == classes
    assert not found.diameter.is_Integer  # D by class
    for n in range(low, _last(low, found.modulus) + 1):
        here = next(c for c in found.classes if c.residue == n % found.modulus)
        if n < here.low:
            continue
        d, suffices = engine_least(heads, n)
        assert int(found.diameter.xreplace({N: n})) == d, n
        assert int(found.layers.xreplace({N: n})) == here.layers == (d if suffices else d + 1), n


@pytest.mark.parametrize("heads,theorem,low,classes", DECIDED[:1] + DECIDED[3:4] + DECIDED[7:8] + DECIDED[11:],
                         ids=IDS[:1] + IDS[3:4] + IDS[7:8] + IDS[11:])
def test_each_classs_witness_meets_every_heads_view_condition_by_the_reference(heads, theorem, low, classes):
    """Where a class needs D + 1 = 3 with D = 2, its swap or permutation keeps every head's neighbourhood of every
    position of the ball (the root and the positions it attends to in some head) and moves some head."""
    found = closed_least(heads)
    texts = [show_pattern(h) for h in heads]
    for c in found.classes:
        if c.found_by not in ("F88", "F127"):
            continue
        for n in range(c.low, c.low + 3 * found.modulus, found.modulus):
            at = {N: n}
            if c.found_by == "F88":
                pos, (a, b) = c.witness
                pairs = [(int(a.xreplace(at)), int(b.xreplace(at))), (int(b.xreplace(at)), int(a.xreplace(at)))]
            else:
                pos, moved = c.permutation
                pairs = [(int(x.xreplace(at)), int(y.xreplace(at))) for x, y in moved]
            root = int(sympy.sympify(pos).xreplace(at))
            image = dict(pairs)
            sigma = tuple([0] + [image.get(v, v) for v in range(1, n + 1)])
            nbs = neighbourhoods(texts, n)
            ball = {root} | {v for nb in nbs for v in nb[root]}
            assert all(_preserves(nbs, sigma, v) for v in ball), (n, c.residue)
            assert not all(_preserves(nbs, sigma, v) for v in range(1, n + 1)), (n, c.residue)


def test_the_verifier_re_checks_each_class_with_its_own_d_and_rejects_forged_classes(tmp_path):
    text = ("tokens n\nattention { kernel k(x, y) = exp(x . y); pattern strided(3) }\n"
            "attention { kernel k(x, y) = exp(x . y); pattern window(1) }\n")
    cert = certificate_from_cli(text, tmp_path, no_cache=True)
    step = layers_step(cert)
    assert step["certificate"]["theorem"] == "F86" and step["data"]["least"]
    done = verify_with_cli(cert, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Theorem F86" in done.stdout
    # a class that needs D + 1 (D = 2) restated as F70 (its count D + 1 is the union's, not its D)
    done = verify_with_cli(forged_class(cert, 1, **{"found by": "F70"}), tmp_path)
    assert done.returncode != 0 and "REJECTED" in done.stdout
    # the D = 3 class claimed by a permutation of the heads' own (F127 needs D = 2)
    forged = json.loads(json.dumps(cert))
    classes = layers_step(forged)["certificate"]["classes"]
    one = next(c for c in classes if c["residue"] == 1)
    for c in classes:
        if c["residue"] == 0:
            c.update({"found by": "F127", "position": one["position"], "permutation": one["permutation"]})
    done = verify_with_cli(forged, tmp_path)
    assert done.returncode != 0 and "REJECTED" in done.stdout
