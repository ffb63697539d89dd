"""The verifier above its set-based arc limit (n > 1,024): compact arc arrays (uapcheck/verifier/arrays.py)
rebuilt from the re-parsed patterns, the diameter from a few searches (a transitive group of
automorphisms checked on the arcs, hub bounds, or one search per orbit), and the lemma table's closed
forms at an integer n for one window(w). Each shortcut is tested against a tampered certificate it must
reject: a shortcut that trusted the certificate's diameter, generators or group name would accept it."""
from __future__ import annotations

import json

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.parse import parse_source
from uapcheck.verifier import REJECTED, VERIFIED, arrays, patterns, verify


def _text(n: int, pattern: str) -> str:
    return f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern {pattern} }}\n"


def _cert(n: int, pattern: str) -> dict:
    text = _text(n, pattern)
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _outcomes(cert) -> dict:
    return {s.rule: s for s in verify(cert).steps}


def _step(cert, rule):
    return next(s for s in cert["steps"] if s["rule"] == rule)


def _set_diameter(cert, d) -> None:
    _step(cert, "PAT-CONNECTED")["data"]["diameter"] = d
    lay = _step(cert, "PAT-LAYERS")
    lay["data"]["diameter"] = d


# ---------------------------------------------------------------------------------------------
# The array builder against the set builder (patterns.head_arcs), a second way

ARRAY_PATTERNS = ["window(3)", "window(3) cyclic", "window(5) cyclic", "offsets {1, -3} cyclic", "offsets {2, 5}",
                  "dilated(2, 3)", "window(1) + global(2)", "star", "blocks(4)", "window(2) + random(3, seed=7)",
                  "global {1, 5}", "sinks(2)", "window(3) + global(2) + random(3, seed=0)", "edges {1 -> 2, 3 -> 1, 5 -> 4}",
                  "window(1) + dilated(3, 2)", "window(2) cyclic + offsets {5} cyclic"]


@pytest.mark.parametrize("pattern", ARRAY_PATTERNS)
def test_the_array_builder_gives_the_set_builders_arcs(pattern):
    for n in (5, 7, 12, 30):
        spec = parse_source(_text(n, pattern))
        want = patterns.head_arcs(spec.heads[0].pattern, n)
        codes = arrays.head_codes(spec.heads[0].pattern, n)
        got = {(int(c) // n + 1, int(c) % n + 1) for c in codes}
        assert got == want and codes.size == len(want), (pattern, n)


def test_array_searches_and_automorphism_checks_agree_with_brute_force():
    n = 40
    for pattern in ("window(2) + random(2, seed=3)", "window(3) cyclic", "window(2) + global(1)"):
        spec = parse_source(_text(n, pattern))
        codes = arrays.head_codes(spec.heads[0].pattern, n)
        adj = arrays.Adjacency([codes], n)
        outs = patterns.union_out([patterns.head_arcs(spec.heads[0].pattern, n)], n)
        for src in (1, 7, n):
            mine = arrays.distances_from(adj, src - 1)
            assert [None if d < 0 else int(d) for d in mine] == patterns.bfs(outs, src)[1:]
            into = arrays.distances_to(adj, src - 1)
            assert [None if d < 0 else int(d) for d in into] == [patterns.bfs(outs, j)[src] for j in range(1, n + 1)]
        lab = patterns.labels(spec, [patterns.head_arcs(spec.heads[0].pattern, n)])
        for perm in (arrays.rotation(n), arrays.reflection(n)):
            assert arrays.preserves(perm, codes, n) == patterns.preserves([int(v) + 1 for v in perm], lab)


# ---------------------------------------------------------------------------------------------
# Connectivity on the arrays

def test_bigbird_above_the_arc_limit_is_verified_by_hub_bounds_and_a_wrong_diameter_is_rejected():
    cert = _cert(2048, "window(3) + global(2) + random(3, seed=0)")
    steps = _outcomes(cert)
    assert steps["PAT-CONNECTED"].outcome == VERIFIED and "arc arrays" in steps["PAT-CONNECTED"].reason
    assert "bound D by 2" in steps["PAT-CONNECTED"].reason
    for wrong in (1, 3):
        bad = json.loads(json.dumps(cert))
        _set_diameter(bad, wrong)
        assert _outcomes(bad)["PAT-CONNECTED"].outcome == REJECTED, wrong
    bad = json.loads(json.dumps(cert))
    _step(bad, "PAT-CONNECTED")["data"]["pair"] = [1, 3]  # d(1 -> 3) = 1: position 1 is global
    assert _outcomes(bad)["PAT-CONNECTED"].outcome == REJECTED


def test_a_claimed_rotation_is_checked_on_the_arcs_before_its_orbits_are_used():
    # Position 1 is global, so its backward eccentricity is 1 while D = 2. A verifier that took the
    # certificate's word for a rotation symmetry would search from position 1 only and accept D = 1.
    cert = _cert(2048, "window(1) + global(1) + random(1, seed=5)")
    assert _outcomes(cert)["PAT-CONNECTED"].outcome == VERIFIED
    n = 2048
    rot = [k % n + 1 for k in range(1, n + 1)]
    bad = json.loads(json.dumps(cert))
    grp = _step(bad, "SYM-AUT")
    grp["data"].update({"name": "C_n", "generators": [rot], "order": n})
    _set_diameter(bad, 1)
    _step(bad, "PAT-CONNECTED")["data"]["pair"] = [None, None]
    steps = _outcomes(bad)
    assert steps["PAT-CONNECTED"].outcome == REJECTED and "not 1" in steps["PAT-CONNECTED"].reason
    assert steps["SYM-AUT"].outcome == REJECTED


def test_a_generator_that_is_no_symmetry_is_rejected_above_the_arc_limit():
    cert = _cert(2048, "window(3) + global(2) + random(3, seed=0)")
    n = 2048
    wrong = list(range(1, n + 1))
    wrong[2], wrong[3] = 4, 3  # (3 4): the view witness, not a symmetry
    bad = json.loads(json.dumps(cert))
    _step(bad, "SYM-AUT")["data"]["generators"] = [wrong]
    assert _outcomes(bad)["SYM-AUT"].outcome == REJECTED


def test_a_circulant_union_is_transitive_and_one_search_decides_it():
    # two cyclic parts that no lemma of the table covers: the rotation is checked on the arcs
    from uapcheck.verifier import large
    from uapcheck.verifier.check import Reject, Trust

    class Ctx:
        def __init__(self, n, pattern, d, pair=(None, None)):
            self.spec = parse_source(_text(n, pattern))
            self.cert = {"steps": []}
            self.cache = {}
            self.step = {"rule": "PAT-CONNECTED", "data": {"diameter": d, "pair": list(pair)}}

    n = 3000
    # offsets ±1, ±2 and +5: from j, distances to i: the search from position 1 is every position's
    spec = parse_source(_text(n, "window(2) cyclic + offsets {5} cyclic"))
    codes = arrays.head_codes(spec.heads[0].pattern, n)
    true_d = int(arrays.distances_to(arrays.Adjacency([codes], n), 0).max())
    ctx = Ctx(n, "window(2) cyclic + offsets {5} cyclic", true_d)
    status, why = large.connected(ctx, ctx.step)
    assert status == VERIFIED and "act transitively" in why
    for wrong in (true_d - 1, true_d + 1):
        ctx = Ctx(n, "window(2) cyclic + offsets {5} cyclic", wrong)
        with pytest.raises(Reject):
            large.connected(ctx, ctx.step)
    # not transitive, hub bounds apart: one search per orbit (here every position), exact
    ctx = Ctx(1500, "window(1) + random(1, seed=2)", None)
    with pytest.raises(Trust):  # bounds only: strongly connected is checked, the value is not claimed
        large.connected(ctx, ctx.step)
    spec = parse_source(_text(1500, "window(1) + random(1, seed=2)"))
    lab = [patterns.head_arcs(spec.heads[0].pattern, 1500)]
    outs = patterns.union_out(lab, 1500)
    exact = max(max(patterns.bfs(outs, s)[1:]) for s in range(1, 1501, 7))  # a lower bound, brute force
    ctx = Ctx(1500, "window(1) + random(1, seed=2)", exact - 1)
    with pytest.raises(Reject):
        large.connected(ctx, ctx.step)


# ---------------------------------------------------------------------------------------------
# The lemma table at an integer n (one window(w))

@pytest.mark.parametrize("n, pattern, d, name, order", [
    (4096, "window(64)", 64, "reflection", 2),
    (4096, "window(8) cyclic", 256, "D_n", 8192),
])
def test_one_window_at_a_large_n_is_verified_by_the_lemmas_closed_form(n, pattern, d, name, order):
    cert = _cert(n, pattern)
    assert _step(cert, "PAT-CONNECTED")["data"]["diameter"] == d  # written for the closed form too
    report = verify(cert)
    assert report.ok and report.complete
    steps = {s.rule: s for s in report.steps}
    # a stated realising pair is checked by a search on the arrays; else the lemma's closed form
    assert "lemma" in steps["PAT-CONNECTED"].reason or "arc arrays" in steps["PAT-CONNECTED"].reason
    # generators a certificate lists (up to n = 4,096, when a graph was built) are checked on the arcs;
    # without them the lemma's closed form concludes
    bare = json.loads(json.dumps(cert))
    _step(bare, "SYM-AUT")["data"]["generators"] = None
    assert "lemma" in _outcomes(bare)["SYM-AUT"].reason
    bad = json.loads(json.dumps(cert))
    _set_diameter(bad, d + 1)
    assert _outcomes(bad)["PAT-CONNECTED"].outcome == REJECTED
    for key, value in (("order", order + 2), ("name", "C_n" if name == "D_n" else "trivial")):
        bad = json.loads(json.dumps(cert))
        _step(bad, "SYM-AUT")["data"][key] = value
        assert _outcomes(bad)["SYM-AUT"].outcome == REJECTED, key


def test_the_lemma_is_not_applied_below_its_range():
    # D_n needs n ≥ 2w + 3: a cyclic window(600) at n = 1,100 is a complete graph (group S_n), so a
    # step claiming D_n there must not be concluded from the lemma
    from uapcheck.verifier import rules_graph

    class Ctx:
        spec = parse_source(_text(1100, "window(600) cyclic"))
        cert: dict = {"steps": []}
        cache: dict = {}

    step = {"rule": "SYM-AUT", "data": {"name": "D_n", "order": 2200, "generators": None}}
    assert rules_graph._lemma_at_length(Ctx(), step) is None
    Ctx.spec = parse_source(_text(1100, "window(8) cyclic"))
    Ctx.cache = {}
    assert rules_graph._lemma_at_length(Ctx(), step)[0] == VERIFIED


# ---------------------------------------------------------------------------------------------
# The group by colour refinement and twin checks; the view witness on the arrays

def test_refinement_cells_give_the_brute_force_group_order():
    import math

    from uapcheck.verifier import groups
    seen = 0
    for pattern in ("window(1) + global(2) + random(1, seed=4)", "star", "global {1, 2, 3}", "window(1) + random(2, seed=9)",
                    "window(2) + global(2)", "blocks(3)", "offsets {1, -2}"):
        for n in (6, 7, 8):
            spec = parse_source(_text(n, pattern))
            codes = arrays.head_codes(spec.heads[0].pattern, n)
            cells = arrays.group_by_refinement([codes], n)
            lab = patterns.labels(spec, [patterns.head_arcs(spec.heads[0].pattern, n)])
            full, _ = groups.full_order(lab, n, "none")
            if cells is not None:
                seen += 1
                assert math.prod(math.factorial(len(c)) for c in cells) == full, (pattern, n, cells)
    assert seen >= 8


def test_changed_positions_are_the_set_builders():
    import itertools
    n = 8
    spec = parse_source(_text(n, "window(1) + global(1) + random(1, seed=3)"))
    heads = [patterns.head_arcs(spec.heads[0].pattern, n)]
    codes = [arrays.head_codes(spec.heads[0].pattern, n)]
    for images in itertools.islice(itertools.permutations(range(1, n + 1)), 0, 40320, 97):
        perm = list(images)
        mine = {int(v) + 1 for v in arrays.changed_positions(arrays.as_permutation(perm, n), codes, n)}
        assert mine == patterns.view_bad_positions(perm, heads, n)


def test_bigbird_group_and_view_witness_above_the_arc_limit_are_checked_on_the_arrays():
    cert = _cert(2048, "window(3) + global(2) + random(3, seed=0)")
    steps = _outcomes(cert)
    assert steps["SYM-AUT"].outcome == VERIFIED and "colour refinement" in steps["SYM-AUT"].reason
    assert steps["PAT-LAYERS"].outcome == VERIFIED and "arc arrays" in steps["PAT-LAYERS"].reason
    bad = json.loads(json.dumps(cert))
    _step(bad, "SYM-AUT")["data"]["order"] = 4
    assert _outcomes(bad)["SYM-AUT"].outcome == REJECTED
    bad = json.loads(json.dumps(cert))
    wit = _step(bad, "PAT-LAYERS")["data"]["view witness"]
    n = 2048
    wit["permutation"] = [2, 1] + list(range(3, n + 1))  # (1 2): a symmetry, it changes nothing
    assert _outcomes(bad)["PAT-LAYERS"].outcome == REJECTED
    bad = json.loads(json.dumps(cert))
    wit = _step(bad, "PAT-LAYERS")["data"]["view witness"]
    swapped = [k for k in range(1, n + 1) if wit["permutation"][k - 1] != k]
    wit["position"] = swapped[0]  # the witness's own moved position is within distance 0
    _step(bad, "PAT-LAYERS")["evidence"]["view witness"]["position"] = swapped[0]
    assert _outcomes(bad)["PAT-LAYERS"].outcome == REJECTED


@pytest.mark.parametrize("pattern", ["offsets {-1, -3}", "offsets {-2, -3}", "offsets {-1, 2}", "window(1)",
                                     "edges {2 -> 1, 3 -> 2}", "offsets {-1} + random(1, seed=3)", "offsets {-1}"])
def test_the_forward_chain_on_the_arrays_is_the_interval_models(pattern):
    # SYM-AUT's forward chain (every arc forward, every arc k − 1 → k present) read off the arc arrays, as the
    # interval model reads it (a second way: the model with the arrays left out)
    from uapcheck.verifier import large
    from uapcheck.verifier.check import Context
    spec = parse_source(_text(3000, pattern))
    on_arrays = Context({}, spec, {}, [], {}, {})
    assert large.arrays(on_arrays) is not None
    on_model = Context({}, spec, {}, [], {}, {})
    on_model.cache["arrays"] = None
    assert (large.forward_chain(on_arrays) is None) == (large.forward_chain(on_model) is None)
    assert (large.forward_chain(on_model) is not None) == (pattern in ("offsets {-1, -3}", "offsets {-1}"))
