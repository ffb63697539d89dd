"""Labelled views (docs/theory.md §11.10): bias classes label arcs, and the exact rooted-view decision
with arc colours agrees with brute force over all of S_n (n ≤ 7).

The brute force shares no code with ``uapcheck.graphs.views``: neighbourhoods from the naive reference
semantics, bias classes from their definition (TD-BIAS), every permutation, the labelled witness
condition read literally, and the group as the permutations that keep every head's labelled arcs.
"""
from __future__ import annotations

import itertools

import pytest

from uapcheck.graphs import analyze_connectivity, build_graph, symmetry_group
from uapcheck.graphs.symmetry import group_structure
from uapcheck.graphs.views import PROBE_WORK, decide_views, offset_classes, verify_witness
from uapcheck.parse import parse_source

from .reference import attends, distances_from


def _cls(kind, n, i, l):
    m = l - i
    return {"toeplitz": m, "circulant": m % n, "symmetric toeplitz": abs(m),
            "symmetric circulant": min(m % n, (-m) % n)}[kind]


def _brute(patterns, kinds, n):
    """(D, whether D layers suffice) with labelled views, by the definition."""
    nbs = []
    for p in patterns:
        spec = parse_source(f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern {p} }}", "b.uap")
        pairs = attends(spec.heads[0].pattern, n)
        nbs.append([frozenset([v] + [j for (i, j) in pairs if i == v]) for v in range(n + 1)])
    union_in = [set().union(*(nb[v] for nb in nbs)) for v in range(n + 1)]

    dists = {i: distances_from(union_in, i) for i in range(1, n + 1)}
    D = max(max(d.values()) for d in dists.values())
    balls = {i: [v for v, k in dists[i].items() if k <= D - 1] for i in dists}

    def keeps(s, v):
        for nb, kind in zip(nbs, kinds):
            if frozenset(s[k] for k in nb[v]) != nb[s[v]]:
                return False
            if kind and any(_cls(kind, n, s[v], s[u]) != _cls(kind, n, v, u) for u in nb[v]):
                return False
        return True
    for p in itertools.permutations(range(1, n + 1)):
        s = (0,) + p
        good = [keeps(s, v) for v in range(n + 1)]
        if all(good[1:]):
            continue  # σ ∈ G (it keeps every head's labelled arcs)
        if any(all(good[v] for v in balls[i]) for i in range(1, n + 1)):
            return D, False
    return D, True


def _decide(patterns, kinds, n, probe_work=PROBE_WORK):
    heads = "\n".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p}"
                      f"{'; bias ' + k if k else ''} }}" for p, k in zip(patterns, kinds))
    spec = parse_source(f"tokens {n}\n{heads}", "v.uap")
    graphs = [build_graph(h.pattern, n, {}) for h in spec.heads]
    conn = analyze_connectivity(graphs)
    if not conn.strongly_connected:
        pytest.skip("not strongly connected")
    biases = [h.bias for h in spec.heads]
    grp = symmetry_group(graphs, biases)
    preserves = group_structure(graphs, biases).preserves
    classes = [offset_classes(k, n) if k else None for k in kinds]
    d = int(conn.diameter)
    decision = decide_views(graphs, d, int(grp.order), grp.generators, preserves, arc_classes=classes,
                            probe_work=probe_work)
    return graphs, d, decision, preserves, classes


LABELLED = [
    (["window(1)"], ["symmetric toeplitz"], 6), (["window(1)"], ["toeplitz"], 6),
    (["window(2)"], ["symmetric toeplitz"], 7), (["window(1) cyclic"], ["symmetric circulant"], 6),
    (["window(1) cyclic"], ["circulant"], 7), (["window(2) cyclic"], ["symmetric circulant"], 7),
    (["window(1) + global(1)"], ["symmetric toeplitz"], 6), (["window(1) + global(1)"], ["toeplitz"], 7),
    (["window(2) + global(1)"], ["symmetric toeplitz"], 7), (["star"], ["symmetric toeplitz"], 6),
    (["star"], ["circulant"], 5), (["window(1) + strided(2)"], ["symmetric toeplitz"], 6),
    (["window(1) + dilated(1, 3)"], ["symmetric circulant"], 7),
    (["edges {1 -> 2, 1 -> 3, 1 -> 4, 2 -> 1, 2 -> 3, 2 -> 4, 3 -> 2, 4 -> 1}"], ["symmetric toeplitz"], 4),
    (["edges {1 -> 2, 1 -> 3, 1 -> 4, 2 -> 1, 2 -> 3, 2 -> 4, 3 -> 2, 4 -> 1}"], ["symmetric circulant"], 4),
    (["window(1)", "global(1)"], ["symmetric toeplitz", None], 6),
    (["window(1)", "global(1)"], [None, "symmetric toeplitz"], 6),
    (["blocks(2)", "global(1)"], ["symmetric toeplitz", None], 6),
    (["window(1) + random(1, seed=0)"], ["symmetric toeplitz"], 6),
    (["random(2, seed=1)"], ["symmetric circulant"], 6), (["random(2, seed=5)"], ["symmetric toeplitz"], 7),
    (["window(1) cyclic", "window(2) cyclic"], ["symmetric circulant", None], 7),
    (["offsets {1, -2} cyclic"], ["symmetric circulant"], 7), (["window(3) + global(1)"], ["symmetric toeplitz"], 7),
    # witnesses that keep the labels
    (["window(1)", "global(1)"], ["toeplitz", None], 7), (["window(1)", "star"], ["symmetric toeplitz", None], 6),
    (["blocks(3)", "global(1)"], ["circulant", None], 7),
    (["window(1) cyclic", "global(1)"], ["symmetric circulant", None], 7),
    (["offsets {1} cyclic", "global(1)"], ["circulant", None], 6),
]


@pytest.mark.parametrize("patterns,kinds,n", LABELLED)
def test_the_labelled_decision_agrees_with_brute_force_over_all_permutations(patterns, kinds, n):
    graphs, d, decision, preserves, classes = _decide(patterns, kinds, n)
    bd, suffices = _brute(patterns, kinds, n)
    assert bd == d
    assert decision.sufficient is suffices, decision
    if not suffices:
        assert verify_witness(graphs, d, decision.witness, preserves, arc_classes=classes)
    graphs, d, alone, preserves, classes = _decide(patterns, kinds, n, probe_work=0)
    assert alone.sufficient is suffices
    if not suffices:
        assert verify_witness(graphs, d, alone.witness, preserves, arc_classes=classes)


def test_labels_remove_a_witness_of_the_unlabelled_views():
    """The §11.2 counterexample: σ = (2 3) at position 4 keeps the unlabelled neighbourhoods within
    distance 1, but a symmetric Toeplitz bias tells the key 2 of row 1 (offset 1) from the key 3
    (offset 2): with the labels, D = 2 layers suffice."""
    edges = "edges {1 -> 2, 1 -> 3, 1 -> 4, 2 -> 1, 2 -> 3, 2 -> 4, 3 -> 2, 4 -> 1}"
    _, d, plain, _, _ = _decide([edges], [None], 4)
    assert plain.sufficient is False
    _, d, labelled, _, _ = _decide([edges], ["symmetric toeplitz"], 4)
    assert d == 2 and labelled.sufficient is True


def test_enough_labelled_patterns_are_checked():
    assert len(LABELLED) >= 20


# -- the causal class: labelled receptive witnesses (§11.10, §14.11) -----------------------------

CAUSAL = [  # causal-class patterns whose position-blind count is r + 1 (a receptive witness)
    (5, "2 -> 1, 3 -> 2, 4 -> 1, 4 -> 2, 4 -> 3, 5 -> 1, 5 -> 4"),
    (7, "2 -> 1, 3 -> 2, 4 -> 2, 4 -> 3, 5 -> 1, 5 -> 4, 6 -> 5, 7 -> 6"),
    (5, "2 -> 1, 3 -> 1, 3 -> 2, 4 -> 3, 5 -> 2, 5 -> 3, 5 -> 4"),
    (5, "2 -> 1, 3 -> 1, 3 -> 2, 4 -> 3, 5 -> 3, 5 -> 4"),
    (6, "2 -> 1, 3 -> 2, 4 -> 2, 4 -> 3, 5 -> 1, 5 -> 4, 6 -> 5"),
    (6, "2 -> 1, 3 -> 1, 3 -> 2, 4 -> 1, 4 -> 2, 4 -> 3, 5 -> 1, 5 -> 2, 5 -> 3, 5 -> 4, 6 -> 1, 6 -> 2, 6 -> 3, "
        "6 -> 4, 6 -> 5"),  # the full causal mask
]


def _receptive_brute(n, arcs, kind):
    """(r, whether a labelled receptive witness exists), by the definition over all of S_n."""
    nb = [frozenset([v] + [j for (i, j) in arcs if i == v]) for v in range(n + 1)]

    dists = {i: distances_from(nb, i) for i in range(1, n + 1)}
    r = max(max(d.values()) for d in dists.values())

    def keeps(s, v):
        if frozenset(s[k] for k in nb[v]) != nb[s[v]]:
            return False
        return kind is None or all(_cls(kind, n, s[v], s[u]) == _cls(kind, n, v, u) for u in nb[v])
    for p in itertools.permutations(range(1, n + 1)):
        s = (0,) + p
        good = [keeps(s, v) for v in range(n + 1)]
        for i in range(1, n + 1):
            known = [v for v, k in dists[i].items() if k <= r - 1]
            if all(good[v] for v in known) and not all(good[v] for v in dists[i]):
                return r, True
    return r, False


@pytest.mark.parametrize("n,edges", CAUSAL)
@pytest.mark.parametrize("kind", [None, "toeplitz", "symmetric toeplitz", "symmetric circulant"])
def test_the_labelled_causal_search_agrees_with_brute_force(n, edges, kind):
    from uapcheck.graphs.receptive import causal_exact, receptive_fields
    spec = parse_source(f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern edges {{{edges}}} }}", "c.uap")
    graphs = [build_graph(spec.heads[0].pattern, n, {})]
    rec = receptive_fields(graphs)
    assert rec.causal_class and rec.prefix_fields
    got = causal_exact(graphs, rec, classes=[offset_classes(kind, n) if kind else None])
    arcs = {(int(a), int(b)) for a, b in (pair.split(" -> ") for pair in edges.split(", "))}
    r, witness = _receptive_brute(n, arcs, kind)
    assert rec.radius == r
    assert got.layers == (r + 1 if witness else r) and got.least


# -- end to end: PAT-LAYERS with labelled views (§11.10) ------------------------------------------

EDGES = "edges {1 -> 2, 1 -> 3, 1 -> 4, 2 -> 1, 2 -> 3, 2 -> 4, 3 -> 2, 4 -> 1}"


def _layers_step(text):
    import uapcheck
    r = uapcheck.check(text, "t.uap")
    return r, next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")


def test_a_trainable_symmetric_bias_removes_the_witness_end_to_end():
    _, plain = _layers_step(f"tokens 4\nattention {{ kernel k(x, y) = exp(x . y); pattern {EDGES} }}")
    assert (plain.evidence["layers"], plain.evidence["least"]) == (3, True)
    _, lab = _layers_step(f"tokens 4\nattention {{ kernel k(x, y) = exp(x . y); pattern {EDGES}; "
                          "bias symmetric toeplitz }")
    assert (lab.evidence["layers"], lab.evidence["least"]) == (2, True)


def test_a_fixed_bias_without_labelled_witness_is_least_on_a_softmax_head():
    """Lemma V^ρ (Theorem F161): the fixed even weights of a normalised softmax head separate labelled views, so no
    labelled witness gives D layers, least (formerly D + 1, not shown least); under `tie query key` it does not."""
    _, step = _layers_step(f"tokens 4\nattention {{ kernel k(x, y) = exp(x . y); pattern {EDGES}; "
                           "bias b(i, j) = -(i - j)^2 }")
    assert (step.evidence["layers"], step.evidence["least"]) == (2, True)
    _, tied = _layers_step(f"tokens 4\nattention {{ kernel k(x, y) = exp(x . y); tie query key; pattern {EDGES}; "
                           "bias b(i, j) = -(i - j)^2 }")
    assert (tied.evidence["layers"], tied.evidence["least"]) == (3, False)


def test_a_labelled_witness_is_least_end_to_end():
    r, step = _layers_step("tokens 7\nattention { kernel k(x, y) = exp(x . y); pattern window(1); bias toeplitz }\n"
                           "attention { kernel k(x, y) = exp(x . y); pattern global(1) }")
    assert (step.evidence["layers"], step.evidence["least"]) == (3, True)
    assert "labelled view witness" in step.evidence["method"]
    assert r.verdict == "UAP" and r.layers == 3


def test_an_absolute_encoding_makes_the_diameter_enough():
    r, step = _layers_step(f"tokens 4\npositional absolute\nattention {{ kernel k(x, y) = exp(x . y); "
                           f"pattern {EDGES} }}")
    assert (step.evidence["layers"], step.evidence["least"]) == (2, True)
    assert r.verdict == "UAP" and r.layers == 2


def _two_layers(X, masks_bias, rng_params):
    """Two residual softmax layers (no FFN), own numpy: mask[i, j] = query i sees key j, bias B[i, j]."""
    import numpy as np
    mask, B = masks_bias
    for Wq, Wk, Wv in rng_params:
        S = (X @ Wq.T) @ (X @ Wk.T).T + B
        S = np.where(mask, S, -np.inf)
        A = np.exp(S - S.max(axis=1, keepdims=True))
        A /= A.sum(axis=1, keepdims=True)
        X = X + A @ (X @ Wv.T)
    return X


def test_a_trainable_bias_saves_the_layer_numerically():
    """n = 5, arcs 1 → 2 → 3 → 4 → 5, 1 → 4, 2 → 4, 1 → 5: σ = (2 3) is a receptive witness at 5
    at depth 2 without labels (two layers agree on X and σX at 5); `bias toeplitz` tells the keys 2
    and 3 of row 4 apart, and two layers then differ — the labelled search's 2 layers (§11.10)."""
    import numpy as np
    n, d = 5, 3
    sees = {2: [1], 3: [2], 4: [1, 2, 3], 5: [1, 4]}
    mask = np.eye(n, dtype=bool)
    for i, js in sees.items():
        for j in js:
            mask[i - 1, j - 1] = True
    rng = np.random.default_rng(4)
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    swap = [0, 2, 1, 3, 4]
    for _ in range(4):
        params = [tuple(0.5 * rng.normal(size=(d, d)) for _ in range(3)) for _ in range(2)]
        X = rng.normal(size=(n, d))
        plain = _two_layers(X, (mask, 0.0 * i), params)[4] - _two_layers(X[swap], (mask, 0.0 * i), params)[4]
        assert np.abs(plain).max() < 1e-12
        B = rng.normal(size=2 * n)[j - i + n - 1]  # a random toeplitz bias
        lab = _two_layers(X, (mask, B), params)[4] - _two_layers(X[swap], (mask, B), params)[4]
        assert np.abs(lab).max() > 1e-6


def test_the_counterexample_of_11_2_with_a_symmetric_bias_separates_at_depth_two_numerically():
    """§11.2's counterexample: σ = (2 3) at position 4 is a view witness without labels (two layers
    agree on X and σX at 4); a symmetric Toeplitz bias labels key 2 of row 1 (offset 1) and key 3
    (offset 2) differently, and two layers then differ, as the labelled decision says."""
    import numpy as np
    n, d = 4, 3
    sees = {1: [2, 3, 4], 2: [1, 3, 4], 3: [2], 4: [1]}
    mask = np.eye(n, dtype=bool)
    for i, js in sees.items():
        for j in js:
            mask[i - 1, j - 1] = True
    rng = np.random.default_rng(7)
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    swap = [0, 2, 1, 3]
    for _ in range(4):
        params = [tuple(0.5 * rng.normal(size=(d, d)) for _ in range(3)) for _ in range(2)]
        X = rng.normal(size=(n, d))
        plain = _two_layers(X, (mask, 0.0 * i), params)[3] - _two_layers(X[swap], (mask, 0.0 * i), params)[3]
        assert np.abs(plain).max() < 1e-12
        B = rng.normal(size=n)[np.abs(j - i)]  # a random symmetric Toeplitz bias
        lab = _two_layers(X, (mask, B), params)[3] - _two_layers(X[swap], (mask, B), params)[3]
        assert np.abs(lab).max() > 1e-6


COMPLETE_WITH_BIAS = [("window(3)", "symmetric toeplitz", 4), ("window(5)", "symmetric toeplitz", 6),
                      ("window(5)", "symmetric circulant", 6), ("window(1) cyclic + window(2)", "symmetric toeplitz", 4),
                      ("window(3)", "toeplitz", 4), ("window(5)", "circulant", 6)]


@pytest.mark.parametrize("pattern, kind, n", COMPLETE_WITH_BIAS)
def test_a_complete_pattern_with_a_bias_is_decided_by_labelled_views(pattern, kind, n):
    """Every position sees every token, yet a symmetric bias class can hide which of two keys at equal distance is
    which: σ = (2 4) keeps row 3's labels |j − i| at n = 4. One layer is least only when no labelled witness exists;
    the count is checked against the definition over all of S_n."""
    D, enough = _brute([pattern], [kind], n)
    assert D == 1
    r, step = _layers_step(f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern {pattern}; bias {kind} }}")
    assert (step.evidence["layers"], step.evidence["least"]) == (1 if enough else 2, True)
    assert r.verdict == "UAP" and r.layers == (1 if enough else 2)


@pytest.mark.parametrize("pattern, kind, n", [c for c in COMPLETE_WITH_BIAS if c[1].startswith("symmetric")])
def test_the_verifier_rejects_one_layer_for_a_complete_pattern_with_a_symmetric_bias(pattern, kind, n):
    """The verifier's exhaustive search reads the labelled neighbourhoods: a σ that keeps the bare arcs everywhere
    (every σ, on a complete pattern) but the labels only near one position is a witness there."""
    from certificates import certificate_of, rejects

    from uapcheck.verifier import verify
    from uapcheck.verifier.trees import encode
    cert = certificate_of(f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern {pattern}; bias {kind} }}\n")
    assert verify(cert).ok
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    step["data"]["layers"] = encode(1)
    step["data"].pop("view witness", None)
    assert rejects(cert, "PAT-LAYERS")


@pytest.mark.parametrize("kind", ["circulant", "symmetric circulant", "toeplitz", "symmetric toeplitz"])
@pytest.mark.parametrize("n", [3, 5, 6])
def test_a_dense_biased_certificate_verifies_with_its_order(kind, n):
    """SYM-DENSE names C_n or D_n at a concrete n; the summary's order (n, 2n) follows from the name and is accepted,
    and a wrong order is rejected (an honest certificate was rejected for stating it)."""
    from certificates import certificate_of

    from uapcheck.verifier import verify
    cert = certificate_of(f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); bias {kind} }}\n")
    report = verify(cert)
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    cert["group"]["order"] += 1
    assert not verify(cert).ok
