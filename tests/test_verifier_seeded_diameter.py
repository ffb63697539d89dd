"""`uapcheck verify` re-checks the exact diameter by seeded searches (Theorem F131, uapcheck/verifier/seeded_diameter.py)
and D layers by far sets (Theorem F132, uapcheck/verifier/far_sets.py) from the certificate's seeds, with its own
searches and refinement, and rejects each corrupted field that matters: a wrong eccentricity, a certificate made on a
graph with one more arc, a diameter one too small, a far set off by one position, a root left out.

The engine takes these paths by size (seeded searches above 3·10⁷ arc visits on arc arrays, far sets past the views'
exact-first work); the tests force them at n = 400 through its knobs (connectivity.LIST_BOUNDS_MAX_N,
ARRAY_BOUNDS_LOADED_MIN_N, SEEDED_FIRST_WORK, views.EXACT_FIRST_WORK) and the verifier's large-n path through its arc
limit (verifier.patterns.MAX_N). Checked a second way: the diameter and every far set against one plain breadth-first
search per position, the D-layer verdict against the verifier's nauty rooted views at the same n, a dropped seed
against the bound the remaining seeds give by plain searches, and a false D-layer claim (a view witness exists) never
verified. One run at n = 65,536, the size the engine decides by these theorems."""
from __future__ import annotations

import copy
import hashlib
import json

import pytest
from breadth_first import distances

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import REJECTED, VERIFIED, verify

N = 400
PATTERN = "window(1) + random(2, seed=2)"  # D = 8, 8 layers (least) by far sets at n = 400
WITNESS_PATTERN = "window(1) + random(2, seed=1)"  # at n = 300: a view witness, 8 = D + 1 layers


def _text(n: int, pattern: str) -> str:
    return f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern {pattern} }}\n"


def _engine_certificate(text: str) -> dict:
    """The certificate with the engine's seeded searches and far sets forced at this small n."""
    from uapcheck.graphs import connectivity, views
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(connectivity, "LIST_BOUNDS_MAX_N", 16)
        mp.setattr(connectivity, "ARRAY_BOUNDS_LOADED_MIN_N", 16)
        mp.setattr(connectivity, "SEEDED_FIRST_WORK", 0)
        mp.setattr(views, "EXACT_FIRST_WORK", 0)
        return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


@pytest.fixture(scope="module")
def cert() -> dict:
    return _engine_certificate(_text(N, PATTERN))


@pytest.fixture
def large_path(monkeypatch):
    """The verifier's large-n path (arc arrays) at n = 400."""
    from uapcheck.verifier import patterns
    monkeypatch.setattr(patterns, "MAX_N", 16)


def _step(cert: dict, rule: str) -> dict:
    (step,) = [s for s in cert["steps"] if s["rule"] == rule]
    return step


def _outcome(cert: dict, rule: str):
    report = verify(cert)
    (got,) = [o for o in report.steps if o.rule == rule]
    return got, report


def _arcs(cert: dict) -> tuple[int, list]:
    """The union's arcs (0-based j -> i: i attends to j) rebuilt by the language's definition of the pattern."""
    from uapcheck.graphs import build_graph
    from uapcheck.parse import parse_source
    spec = parse_source(cert["input"]["text"], "t.uap")
    n = spec.tokens
    graph = build_graph(spec.heads[0].pattern, n)
    return n, [(j - 1, i - 1) for j, i in graph.arcs()]


def _all_distances(n: int, arcs: list) -> list:
    outs: list = [[] for _ in range(n)]
    for j, i in arcs:
        outs[j].append(i)
    return [distances(outs, s) for s in range(n)]


# ---------------------------------------------------------------------------------------------
# The certificate verified, and checked a second way


def test_the_engine_writes_the_seeds_and_the_far_sets(cert):
    conn = _step(cert, "PAT-CONNECTED")["certificate"]
    assert conn["upper bound method"] == "seeded"
    assert conn["seeds"] and all(len(p) == 2 for p in conn["seeds"])
    views = _step(cert, "PAT-LAYERS")["certificate"]["data"]["rooted views"]
    assert views["far sets"] and "far sets" not in _step(cert, "PAT-LAYERS")["evidence"]["rooted views"]


def test_the_verifier_checks_the_seeded_diameter_and_the_far_sets(cert, large_path):
    report = verify(cert)
    by_rule = {o.rule: o for o in report.steps}
    assert by_rule["PAT-CONNECTED"].outcome == VERIFIED and "Theorem F131" in by_rule["PAT-CONNECTED"].reason
    assert by_rule["PAT-LAYERS"].outcome == VERIFIED and "Theorem F132" in by_rule["PAT-LAYERS"].reason
    assert report.ok and report.complete


def test_the_same_certificate_verifies_by_nauty_rooted_views_below_the_arc_limit(cert):
    report = verify(cert)  # n = 400 ≤ the arc limit: every distance by BFS and the rooted views with nauty
    assert report.ok and report.complete


def test_the_diameter_seeds_and_far_sets_agree_with_plain_searches(cert):
    n, arcs = _arcs(cert)
    dist = _all_distances(n, arcs)
    ecc = [max(row) for row in dist]
    d = _step(cert, "PAT-CONNECTED")["data"]["diameter"]
    assert min(min(row) for row in dist) >= 0 and max(ecc) == d
    assert all(ecc[v - 1] == e for v, e in _step(cert, "PAT-CONNECTED")["certificate"]["seeds"])
    far: dict = {}
    for v in range(n):
        for i in range(n):
            if dist[v][i] == d:
                far.setdefault(i + 1, []).append(v + 1)
    listed = _step(cert, "PAT-LAYERS")["certificate"]["data"]["rooted views"]["far sets"]
    assert {r: tuple(g["positions"]) for g in listed for r in g["roots"]} == {r: tuple(u) for r, u in far.items()}


def test_several_heads_label_the_arcs_by_their_head_sets(large_path):
    # two heads: the marked graphs' arcs carry the set of heads holding them; the verdict agrees with the verifier's
    # nauty rooted views below the arc limit
    text = (f"tokens {N}\n" + "".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}\n"
                                      for p in (PATTERN, "window(1) + random(1, seed=7)")))
    two = _engine_certificate(text)
    report = verify(two)
    by_rule = {o.rule: o for o in report.steps}
    assert by_rule["PAT-CONNECTED"].outcome == VERIFIED and "Theorem F131" in by_rule["PAT-CONNECTED"].reason
    assert by_rule["PAT-LAYERS"].outcome == VERIFIED and "Theorem F132" in by_rule["PAT-LAYERS"].reason
    from uapcheck.verifier import patterns
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(patterns, "MAX_N", 1024)
        assert verify(two).ok


# ---------------------------------------------------------------------------------------------
# Mutations: each must be rejected


def _with(cert: dict, change) -> dict:
    out = copy.deepcopy(cert)
    change(out)
    return out


def _seed(cert: dict, k: int) -> list:
    return _step(cert, "PAT-CONNECTED")["certificate"]["seeds"][k]


@pytest.mark.parametrize("k", [0, 7, -1])
@pytest.mark.parametrize("delta", [1, -1])
def test_a_wrong_eccentricity_is_rejected(cert, large_path, k, delta):
    def change(c):
        _seed(c, k)[1] += delta
    got, _ = _outcome(_with(cert, change), "PAT-CONNECTED")
    assert got.outcome == REJECTED and "eccentricity" in got.reason


@pytest.mark.parametrize("k,other", [(0, 1), (5, -1)])
def test_a_seed_listed_twice_is_rejected(cert, large_path, k, other):
    def change(c):
        seeds = _step(c, "PAT-CONNECTED")["certificate"]["seeds"]
        seeds[other] = list(seeds[k])  # the same position and eccentricity: every claim still true
    got, _ = _outcome(_with(cert, change), "PAT-CONNECTED")
    assert got.outcome == REJECTED and "listed twice" in got.reason


def test_a_diameter_one_too_small_is_rejected(cert, large_path):
    def change(c):
        for rule in ("PAT-CONNECTED", "PAT-LAYERS"):
            step = _step(c, rule)
            step["data"]["diameter"] -= 1
        block = _step(c, "PAT-CONNECTED")["certificate"]
        for key in ("diameter", "lower", "upper"):
            block[key] -= 1
    got, _ = _outcome(_with(cert, change), "PAT-CONNECTED")
    assert got.outcome == REJECTED and "does not show D ≤" in got.reason


@pytest.mark.parametrize("key,value", [("lower", 7), ("upper", 9), ("n", 401), ("realised by", {"from j": 1, "to i": 2}),
                                       ("upper bound method", "bounds")])
def test_a_certificate_value_that_differs_from_the_checked_one_is_rejected(cert, large_path, key, value):
    got, _ = _outcome(_with(cert, lambda c: _step(c, "PAT-CONNECTED")["certificate"].__setitem__(key, value)),
                      "PAT-CONNECTED")
    if key == "upper bound method":  # no longer the seeded route: the verifier's own searches decide it
        assert got.outcome != REJECTED or "upper bound method" not in got.reason
        return
    assert got.outcome == REJECTED and key in got.reason


def test_a_seed_left_out_is_rejected_exactly_when_the_others_do_not_bound_every_position(cert, large_path):
    n, arcs = _arcs(cert)
    d = _step(cert, "PAT-CONNECTED")["data"]["diameter"]
    seeds = _step(cert, "PAT-CONNECTED")["certificate"]["seeds"]
    outs: list = [[] for _ in range(n)]
    for j, i in arcs:
        outs[j].append(i)
    for drop in (0, len(seeds) // 2, len(seeds) - 1):
        kept = [p for k, p in enumerate(seeds) if k != drop]
        bound = _least_bound(n, outs, kept)  # a second way: plain Python, position by position
        mutant = _with(cert, lambda c, kept=kept: _step(c, "PAT-CONNECTED")["certificate"].__setitem__("seeds", kept))
        got, _ = _outcome(mutant, "PAT-CONNECTED")
        assert (got.outcome == VERIFIED) == (max(bound) <= d), (drop, got.reason)


def _least_bound(n: int, outs: list, seeds: list) -> list:
    big = 1 << 30
    b = [big] * n
    fixed = set()
    for v, e in seeds:
        b[v - 1] = e
        fixed.add(v - 1)
    changed = True
    while changed:
        changed = False
        for w in range(n):
            if w not in fixed and outs[w]:
                cand = 1 + min(b[z] for z in outs[w])
                if cand < b[w]:
                    b[w], changed = cand, True
    return b


def test_a_certificate_made_on_a_graph_with_one_more_arc_is_rejected(large_path):
    n, arcs = _arcs({"input": {"text": _text(N, PATTERN)}})
    full = _all_distances(n, arcs)
    ecc = [max(row) for row in full]
    # an arc whose removal changes some eccentricity (found by plain searches)
    for a in range(len(arcs)):
        rest = arcs[:a] + arcs[a + 1:]
        outs: list = [[] for _ in range(n)]
        for j, i in rest:
            outs[j].append(i)
        j0 = arcs[a][0]
        if max(distances(outs, j0)) != ecc[j0] or min(distances(outs, j0)) < 0:
            break
    else:
        pytest.fail("no arc changes an eccentricity")

    def listing(arc_list):
        return "edges {" + ", ".join(f"{i + 1} -> {j + 1}" for j, i in sorted(arc_list)) + "}"
    made = _engine_certificate(_text(n, listing(arcs)))  # seeds and eccentricities of the graph with the arc
    assert _step(made, "PAT-CONNECTED")["certificate"]["upper bound method"] == "seeded"
    text = _text(n, listing(rest))

    def change(c):
        c["input"]["text"] = text
        c["input"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    got, _ = _outcome(_with(made, change), "PAT-CONNECTED")
    assert got.outcome == REJECTED, got.reason


def _far_sets(c: dict) -> list:
    return _step(c, "PAT-LAYERS")["certificate"]["data"]["rooted views"]["far sets"]


def test_a_far_set_off_by_one_position_is_rejected(cert, large_path):
    def change(c):
        group = _far_sets(c)[0]
        group["positions"][0] = group["positions"][0] % N + 1
    got, _ = _outcome(_with(cert, change), "PAT-LAYERS")
    assert got.outcome == REJECTED and "far sets differ" in got.reason


def test_a_root_left_out_is_rejected(cert, large_path):
    def change(c):
        group = max(_far_sets(c), key=lambda g: len(g["roots"]))
        group["roots"].pop()
    got, _ = _outcome(_with(cert, change), "PAT-LAYERS")
    assert got.outcome == REJECTED and "far sets differ" in got.reason


def test_a_far_set_left_out_is_rejected(cert, large_path):
    got, _ = _outcome(_with(cert, lambda c: _far_sets(c).pop()), "PAT-LAYERS")
    assert got.outcome == REJECTED


@pytest.mark.parametrize("key,delta", [("radius", 1), ("orbits examined", 1),
                                       ("orbits whose (D − 1)-ball is every position (no witness there)", -1)])
def test_a_wrong_count_in_the_rooted_view_block_is_rejected(cert, large_path, key, delta):
    def change(c):
        _step(c, "PAT-LAYERS")["certificate"]["data"]["rooted views"][key] += delta
    got, _ = _outcome(_with(cert, change), "PAT-LAYERS")
    assert got.outcome == REJECTED and key in got.reason


@pytest.mark.parametrize("key", ["layers", "diameter"])
def test_a_wrong_count_in_the_layer_block_is_rejected(cert, large_path, key):
    got, _ = _outcome(_with(cert, lambda c: _step(c, "PAT-LAYERS")["certificate"]["data"].__setitem__(key, 9)),
                      "PAT-LAYERS")
    assert got.outcome == REJECTED and key in got.reason


def test_the_prose_of_the_rooted_view_block_is_listed_as_not_compared(cert, large_path):
    report = verify(cert)
    assert any(p.endswith("rooted views.decided by") for p in report.unbound)
    assert any(p.endswith("rooted views.far sets (Theorem F132)") for p in report.unbound)


def test_a_false_claim_of_d_layers_is_never_verified(large_path):
    # at n = 300 a view witness exists (the engine says D + 1 = 8); claimed as D = 7 layers, least, with the
    # certificate block of a far-set decision, the verifier's own far sets must not verify it
    made = _engine_certificate(_text(300, WITNESS_PATTERN))
    layers = _step(made, "PAT-LAYERS")
    d = layers["data"]["diameter"]
    assert layers["data"]["layers"] == d + 1 and layers["data"]["least"] is True

    def change(c):
        step = _step(c, "PAT-LAYERS")
        step["data"] = {"diameter": d, "layers": d, "least": True}
        step["certificate"] = {"kind": "trusted", "engine": "views", "reason": "rooted views",
                               "data": {"layers": d, "diameter": d, "rooted views": {"radius": d - 1}}}
    got, _ = _outcome(_with(made, change), "PAT-LAYERS")
    assert got.outcome != VERIFIED, got.reason


# ---------------------------------------------------------------------------------------------
# Far sets without seeds: b ≡ D, once the verifier's own searches give D


def test_far_sets_from_the_verified_diameter_where_the_engine_used_every_eccentricity():
    # n = 2,048: the engine's exhaustive eccentricities (no seeds), then its far sets; the verifier's own searches per
    # orbit give D, every ecc_out ≤ D is the bound, and its far sets and refinements decide D layers
    text = _text(2048, "window(1) + random(2, seed=1)")
    mid = json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))
    assert _step(mid, "PAT-CONNECTED")["certificate"]["upper bound method"] == "exhaustive"
    report = verify(mid)
    by_rule = {o.rule: o for o in report.steps}
    assert by_rule["PAT-LAYERS"].outcome == VERIFIED and "the verified diameter" in by_rule["PAT-LAYERS"].reason
    assert report.ok and report.complete

    def change(c):
        group = _far_sets(c)[0]
        group["positions"][0] = group["positions"][0] % 2048 + 1
    got, _ = _outcome(_with(mid, change), "PAT-LAYERS")
    assert got.outcome == REJECTED and "far sets differ" in got.reason


# ---------------------------------------------------------------------------------------------
# The size the engine decides by these theorems


def test_window_and_random_at_65536_verifies_the_diameter_and_the_least_layers():
    text = _text(65536, "window(1) + random(2, seed=1)")
    big = json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))
    report = verify(big)
    by_rule = {o.rule: o for o in report.steps}
    assert by_rule["PAT-CONNECTED"].outcome == VERIFIED and "Theorem F131" in by_rule["PAT-CONNECTED"].reason
    assert by_rule["PAT-LAYERS"].outcome == VERIFIED and "166 roots a far set (8 distinct" in by_rule["PAT-LAYERS"].reason
    assert report.ok and report.complete
