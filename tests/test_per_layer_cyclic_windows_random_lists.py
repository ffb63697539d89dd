"""Per-layer cyclic windows (docs/theory.md §21.15, Theorems F139 and F160, Lemma AQ) on random width lists, against the
arc engine of §21.1–21.4 (rooted views, BLISS), which shares no code with the closed forms: at every n from 5 to 30
where the closed forms decide (a layer pinned by Lemma AQ at D_Φ, or a finite list that never connects), D_Φ, |G| = 2n
and the least count D_Φ; and for a periodic list with a symbolic form, the form's count at every n from its start to
30. Random lists: periodic and finite, two to four layers, widths 1–4."""
from __future__ import annotations

import random

import pytest
import sympy

from uapcheck import spec as S
from uapcheck.graphs import build_graph, symmetry_group
from uapcheck.graphs.layers import LayerSequence, connectivity, least_layers
from uapcheck.graphs.layers_cyclic_windows import decide, recognise, symbolic_form
from uapcheck.rules.layers import _membership

from sample_sizes import sample_size  # tests/ is on sys.path

N = sympy.Symbol("n", integer=True, positive=True)


def _random_lists(seed: int, count: int) -> list[tuple[tuple[int, ...], bool]]:
    rng = random.Random(seed)
    out: list[tuple[tuple[int, ...], bool]] = []
    while len(out) < count:
        periodic = rng.random() < 0.7
        widths = tuple(rng.randint(1, 4) for _ in range(rng.randint(2, 4)))
        if (widths, periodic) not in out:
            out.append((widths, periodic))
    return out


# a first width of 1 (every length pinned from 5 on) and a finite list that never connects from 18 on, then random
LISTS = [((1, 3), True), ((3, 5), False)] + _random_lists(2915, sample_size(8, 200))


def _arc_engine(widths, periodic, n):
    seq = LayerSequence(n, tuple((build_graph(S.Window(w, True), n, {}),) for w in widths), periodic)
    grp = symmetry_group(seq.distinct_graphs())
    limit = None if periodic else len(widths)
    reach = connectivity(seq, limit)
    if reach.depth is None:
        return int(grp.order), None, None
    gens = tuple(tuple(g) for g in grp.generators)
    least = least_layers(seq, max(reach.depth, 1), int(grp.order), gens, _membership(seq), limit)
    return int(grp.order), reach.depth, (least.layers, least.least)


@pytest.mark.parametrize("widths,periodic", LISTS)
def test_the_closed_forms_match_the_arc_engine_where_they_decide(widths, periodic):
    L = recognise([S.Window(w, True) for w in widths], periodic)
    assert L is not None
    form = symbolic_form(L) if periodic else None
    for n in range(5, 31):
        dec = decide(L, n)
        never = dec.depth is None and not periodic and n >= 2 * min(widths) + 3
        in_form = form is not None and n >= form.start
        if dec.pinned is None and not never and not in_form:
            continue
        order, depth, least = _arc_engine(widths, periodic, n)
        if never:
            assert depth is None, (widths, periodic, n)
            continue
        assert (order, depth, least) == (2 * n, dec.depth, (dec.depth, True)), (widths, periodic, n)
        if in_form:
            assert int(form.layers.subs(N, n)) == depth, (widths, n, form)
