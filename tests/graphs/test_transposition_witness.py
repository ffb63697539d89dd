"""The transposition search for a view witness per layer (graphs/layers.py `transposition_witness`, docs/theory.md
§21.4 "Past the work limit"), checked against its definition: on random per-layer sequences at n ≤ 8 and every depth
up to 3, it returns the first transposition, in its candidate order, that keeps the root's view (by the definition,
`witness_condition_holds`) and lies outside G (arc by arc) — the transpositions of G it skips by the bitset test of
every layer whole are exactly the ones `in_group` accepts. And the CPU time of `periodic { global(2), global(2) }` at
n = 800, past the views' work limit, whose search over about 640,000 pairs of twins (all in G) ran out of the 60 s
budget when each was tested arc by arc, and which the rooted views counted per G-orbit then settle (2 layers,
least)."""
from __future__ import annotations

import random
import time

import pytest

import uapcheck
from uapcheck.graphs import symmetry_group
from uapcheck.graphs.layers import _InLists, _swap_candidates, connectivity, least_layers, transposition_witness, \
    witness_condition_holds
from uapcheck.graphs.symmetry import pattern_structure
from uapcheck.groups import orbits
from uapcheck.rules.layers import build_sequence

from .test_layers import _spec
from .test_layers_covering import _random_heads


def _first_by_definition(seq, m, in_group, roots):
    n = seq.n
    for root, a, b in _swap_candidates(roots, n):
        perm = list(range(1, n + 1))
        perm[a], perm[b] = b + 1, a + 1
        if witness_condition_holds(seq, perm, root, m) and not in_group(perm):
            return root, tuple(perm)
    return None


@pytest.mark.parametrize("seed", range(8))
def test_the_search_finds_the_first_witness_by_the_definition(seed):
    rng = random.Random(4200 + seed)
    checked = 0
    for _ in range(8):
        heads, n = _random_heads(rng), rng.randint(4, 8)
        seq = build_sequence(_spec(heads, n))
        graphs = seq.distinct_graphs()
        grp = symmetry_group(graphs)
        in_group = pattern_structure(graphs).preserves
        roots = [r + 1 for r in sorted(set(orbits(n, grp.generators)))]
        lists = _InLists(seq)
        top = seq.depth or 3
        for m in range(1, min(top, 3) + 1):
            got = transposition_witness(seq, m, in_group, roots, lists)
            want = _first_by_definition(seq, m, in_group, roots)
            assert (got.position, got.permutation) == want if got is not None else want is None
            checked += 1
    assert checked >= 8


def test_global2_alternation_at_800_past_the_work_limit_is_decided():
    """Past the views' work limit (counted with n roots): the covering lemma's count 3 after the whole transposition
    search (no witness: 2 layers suffice), fast; then, in the rule, the rooted views counted per G-orbit (two) settle
    it: 2 layers, least."""
    seq = build_sequence(_spec(["periodic { global(2), global(2) }"], 800))
    graphs = seq.distinct_graphs()
    grp = symmetry_group(graphs)
    assert connectivity(seq).depth == 2
    start = time.process_time()
    covered = least_layers(seq, 2, int(grp.order), grp.generators, pattern_structure(graphs).preserves, None)
    assert time.process_time() - start < 8
    assert covered.layers == 3 and covered.covering is not None and not covered.least
    source = "tokens 800\nattention {\n kernel k(x, y) = exp(x . y)\n pattern periodic { global(2), global(2) }\n}\n"
    start = time.process_time()
    result = uapcheck.check(source)
    spent = time.process_time() - start
    assert result.verdict == "UAP" and result.layers == 2
    out = result.to_dict()
    step = next(s for s in out["steps"] if s["rule"] == "SEQ-LAYERS")
    assert out["least"] is True and step["certificate"]["kind"] == "layer-rooted-views"
    assert spent < 12, f"{spent:.1f} s of CPU"


def test_global2_alternation_at_200_checks_its_group_order_at_once():
    """At n = 200 (≤ 256 points) the kernel checks the per-layer group's order from its generators (1 2), (3 4) and
    a 198-cycle: S_2 × S_198, read from the transpositions' conjugates (uapcheck/schreier_sims.py). Schreier–Sims
    alone took two minutes and the file ran out of its 60 s budget."""
    source = "tokens 200\nattention {\n kernel k(x, y) = exp(x . y)\n pattern periodic { global(2), global(2) }\n}\n"
    start = time.process_time()
    result = uapcheck.check(source)
    spent = time.process_time() - start
    assert result.verdict == "UAP" and result.layers == 2 and result.to_dict()["least"] is True
    assert result.group.name == "S_2 on {1, 2} × S_198 on {3, …, 200}"
    assert spent < 12, f"{spent:.1f} s of CPU"


def test_views_per_orbit_settle_the_covering_count_as_the_exact_decision():
    """On random sequences at n ≤ 7: whenever the covering route gives a count, the rooted views below it (work counted
    per G-orbit, `least_by_views_per_orbit`) give the exact decision's least count, which is never above it."""
    from uapcheck.graphs.layers import _least_by_covering, covering_depth, least_by_views_per_orbit
    rng = random.Random(77)
    settled = 0
    for _ in range(40):
        heads, n = _random_heads(rng), rng.randint(4, 7)
        seq = build_sequence(_spec(heads, n))
        depth = connectivity(seq).depth
        if depth is None:
            continue
        graphs = seq.distinct_graphs()
        grp = symmetry_group(graphs)
        in_group = pattern_structure(graphs).preserves
        lists = _InLists(seq)
        top = seq.depth or covering_depth(seq, lists)
        if top is None:
            continue
        d = max(depth, 1)
        exact = least_layers(seq, d, int(grp.order), grp.generators, in_group, seq.depth)
        covered = _least_by_covering(seq, d, int(grp.order), grp.generators, in_group, top, lists, "views off")
        if covered.layers is None:
            continue
        got = least_by_views_per_orbit(seq, d, int(grp.order), grp.generators, in_group, below=covered.layers)
        assert got is not None and got.layers == exact.layers <= covered.layers and got.least
        settled += 1
    assert settled >= 10


def test_a_witness_at_the_covering_count_is_an_internal_error(monkeypatch):
    """The rooted views per G-orbit run below a count the covering lemma shows sufficient: a witness at that count
    contradicts the lemma, so it is an internal error, never a count quietly left as the covering lemma's."""
    from uapcheck.graphs import layers as L
    seq = build_sequence(_spec(["window(1) cyclic", "window(1) cyclic"], 6))
    graphs = seq.distinct_graphs()
    grp = symmetry_group(graphs)
    in_group = pattern_structure(graphs).preserves
    d = max(connectivity(seq).depth, 1)
    monkeypatch.setattr(L, "decide_depth", lambda *args, **kw: L.SeqViewDecision(False))
    with pytest.raises(AssertionError, match="a witness at the covering depth"):
        L.least_by_views_per_orbit(seq, d, int(grp.order), grp.generators, in_group, below=d + 1)
