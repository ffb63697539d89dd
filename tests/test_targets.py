"""Target classes (docs/theory.md §14): causal maps and the receptive-field class of a pattern.

The layer counts are checked three ways: the closed forms (full causal mask: 2 for n ≥ 3; causal
window of width w: ⌈(n − 1)/w⌉ for n ≥ w + 2), the exhaustive witness search at small n, and a
numeric simulation of softmax transformers (random parameters, ReLU FFNs between layers).
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import uapcheck
from uapcheck.graphs import build_graph
from uapcheck.graphs.receptive import receptive_fields, search
from uapcheck.errors import UapError
from uapcheck import spec as S

SOFTMAX = "kernel k(x, y) = exp(x . y)"


def check(text: str):
    return uapcheck.check(text, "t.uap")


def rules(result) -> dict:
    return {s.rule: s for s in result.root.walk()}


# -- numeric simulation ------------------------------------------------------------------------

def _layer(X, mask, params):
    """One residual softmax-attention layer (tokens are rows here), then a residual ReLU FFN."""
    Wq, Wk, Wv, A, b, W = params
    Q, K, V = X @ Wq.T, X @ Wk.T, X @ Wv.T
    scores = Q @ K.T
    scores = np.where(mask, scores, -np.inf)
    scores -= scores.max(axis=1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(axis=1, keepdims=True)
    X = X + w @ V
    return X + np.maximum(X @ A.T + b, 0.0) @ W.T


def simulate(X, masks, layers, seed=0):
    """`layers` layers; layer ℓ uses masks[ℓ mod len] (one head per layer)."""
    rng = np.random.default_rng(seed)
    d = X.shape[1]
    out = X
    for ell in range(layers):
        # small query/key scales: large scores would round the softmax to a one-hot vector
        params = (rng.normal(size=(d, d)) * 0.3, rng.normal(size=(d, d)) * 0.3, rng.normal(size=(d, d)) * 0.5,
                  rng.normal(size=(8, d)), rng.normal(size=8), rng.normal(size=(d, 8)) * 0.3)
        out = _layer(out, masks[ell % len(masks)], params)
    return out


def mask_of(graph, n):
    """mask[i-1, j-1] = True when query i attends to key j."""
    return np.array([[graph.attends(i, j) for j in range(1, n + 1)] for i in range(1, n + 1)])


@pytest.mark.parametrize("seed", range(5))
def test_causal_one_layer_sees_only_the_prefix_set_two_layers_see_its_order(seed):
    n, d = 5, 3
    mask = np.tril(np.ones((n, n), dtype=bool))
    X = np.random.default_rng(100 + seed).normal(size=(n, d))
    Xs = X.copy()
    Xs[[0, 1]] = Xs[[1, 0]]  # x_1 and x_2 exchanged: the prefix of length ≥ 3 is rearranged
    one = simulate(X, [mask], 1, seed), simulate(Xs, [mask], 1, seed)
    two = simulate(X, [mask], 2, seed), simulate(Xs, [mask], 2, seed)
    for i in (2, 3, 4):  # positions 3, 4, 5: the same set {x_1, …, x_i}, a different order
        assert np.max(np.abs(one[0][i] - one[1][i])) < 1e-12
        assert np.max(np.abs(two[0][i] - two[1][i])) > 1e-6
    # position 2 sees {x_1, x_2} with x_2 ≠ x_1 as its own token: one layer already tells them apart
    assert np.max(np.abs(one[0][1] - one[1][1])) > 1e-6


def _witness_perm(w: dict, n: int) -> list[int]:
    if "swap" in w:
        a, b = w["swap"]
        perm = list(range(1, n + 1))
        perm[a - 1], perm[b - 1] = b, a
        return perm
    return list(w["permutation"])


@pytest.mark.parametrize("pattern,n", [(S.Causal(), 4), (S.Causal(), 6), (S.Offsets((-1, 0)), 5),
                                       (S.PatternUnion((S.Causal(), S.Edges(((4, 2),)))), 5)])
def test_receptive_witness_is_numerically_a_witness(pattern, n):
    """Where the search reports a witness σ at i with radius r: r layers give equal outputs at i for X
    and at σ(i) for σX; r + 1 layers separate them."""
    g = build_graph(pattern, n, {})
    rec = receptive_fields([g])
    found = search([g], rec)
    if found.witness is None:
        assert found.layers == rec.radius
        return
    r, i = rec.radius, found.witness["position"]
    perm = _witness_perm(found.witness, n)
    X = np.random.default_rng(7).normal(size=(n, 3))
    sX = np.empty_like(X)
    for k in range(n):  # (σX)_{σ(k)} = x_k
        sX[perm[k] - 1] = X[k]
    mask = mask_of(g, n)
    j = perm[i - 1]
    for seed in range(3):
        a, b = simulate(X, [mask], r, seed), simulate(sX, [mask], r, seed)
        assert np.max(np.abs(a[i - 1] - b[j - 1])) < 1e-10
        a, b = simulate(X, [mask], r + 1, seed), simulate(sX, [mask], r + 1, seed)
        assert np.max(np.abs(a[i - 1] - b[j - 1])) > 1e-6


# -- the search against the closed forms --------------------------------------------------------

@pytest.mark.parametrize("n", range(1, 9))
def test_full_causal_mask_least_layers(n):
    g = build_graph(S.Causal(), n, {})
    rec = receptive_fields([g])
    found = search([g], rec)
    assert rec.causal_class and rec.prefix_fields
    assert found.least
    assert found.layers == (2 if n >= 3 else 1)


@pytest.mark.parametrize("w,n", [(w, n) for w in (1, 2, 3) for n in range(2, 9)])
def test_causal_window_least_layers(w, n):
    g = build_graph(S.Offsets(tuple(range(-w, 1))), n, {})
    rec = receptive_fields([g])
    found = search([g], rec)
    assert found.least
    want = math.ceil((n - 1) / w) if n >= w + 2 else (2 if n >= 3 else 1)
    assert found.layers == want
    assert rec.radius == math.ceil((n - 1) / w)


def test_local_isomorphisms_make_the_class_receptive_not_causal():
    # 3 sees 1, 4 sees 2: R(3) = {1, 3} ≅ R(4) = {2, 4}, so F(X)_3 and F(X)_4 are the same function.
    g = build_graph(S.Edges(((3, 1), (4, 2), (5, 3))), 5, {})
    rec = receptive_fields([g])
    assert rec.causal_class and not rec.prefix_fields
    assert rec.missing == (2, 1)
    assert rec.radius == 2


# -- verdicts -----------------------------------------------------------------------------------

def test_causal_not_uap_names_the_causal_result():
    r = check(f"attention {{ {SOFTMAX}; pattern causal }}")
    assert r.verdict == "NOT-UAP"
    assert r.alternative is not None
    assert (r.alternative.target, r.alternative.verdict, r.alternative.layers, r.alternative.least) == \
        ("causal", "UAP", 2, True)
    from uapcheck.render.verdict_lines import headline
    # the NOT-UAP headline states its obstruction's range and the lengths below it (docs/theory.md §12)
    assert headline(r) == ("NOT-UAP for G-equivariant targets (for n ≥ 2; UAP at n = 1); UAP for causal targets with 2 "
                           "attention layers (for n ≥ 3; n = 1, 2: 1 layer)")
    assert "TGT-ALTERNATIVE" in rules(r)


def test_json_has_typed_target_and_alternative():
    r = check(f"attention {{ {SOFTMAX}; pattern causal }}")
    d = r.to_dict()
    assert d["target"] == {"class": "equivariant", "declared": "equivariant"}
    below = [{"n": n, "verdict": "UAP", "layers": 1, "least": True, "allowed": True, "why": None} for n in (1, 2)]
    assert d["alternative"] == {"target": "causal", "verdict": "UAP", "layers": 2, "least": True, "reason": None,
                                "range": "n ≥ 3", "below_range": below}  # §14.6: 2 layers for n ≥ 3, 1 below
    r = check(f"attention {{ {SOFTMAX}; pattern offsets {{-2, -1, 0}} }}\ntarget causal")
    d = r.to_dict()
    assert d["verdict"] == "UAP" and d["layers"] == "ceiling(n/2 - 1/2)"
    assert {k: d["target"][k] for k in ("class", "declared", "least", "range")} == {
        "class": "causal", "declared": "causal", "least": True, "range": "n ≥ 4"}
    assert [(r["n"], r["layers"]) for r in d["target"]["below_range"]] == [(1, 1), (2, 1), (3, 2)]
    assert d["alternative"] is None


def test_strongly_connected_has_no_alternative():
    r = check(f"attention {{ {SOFTMAX}; pattern window(1) }}")
    assert r.verdict == "UAP" and r.alternative is None and r.target is None


@pytest.mark.parametrize("tokens,layers", [(1, 1), (2, 1), (3, 2), (9, 2), (1000, 2), ("n", 2)])
def test_target_causal_full_mask(tokens, layers):
    r = check(f"tokens {tokens}\nattention {{ {SOFTMAX}; pattern causal }}\ntarget causal\n"
              f"expect uap layers {layers}")
    assert r.verdict == "UAP" and r.layers == layers and r.expect_holds, r.expect_reason


def test_target_causal_expect_fails_on_one_layer():
    r = check(f"attention {{ {SOFTMAX}; pattern causal }}\ntarget causal\nexpect uap layers 1")
    assert r.verdict == "UAP" and r.expect_holds is False
    assert "derived 2" in r.expect_reason


def test_causal_window_symbolic_matches_formula():
    r = check(f"attention {{ {SOFTMAX}; pattern offsets {{-2, -1, 0}} }}\ntarget causal\n"
              "expect uap layers ceil((n - 1) / 2)")
    assert r.verdict == "UAP" and r.expect_holds, r.expect_reason
    assert rules(r)["TGT-LAYERS"].evidence["least"] is True


@pytest.mark.parametrize("budget,verdict,tokens", [(1, "NOT-UAP", "tokens 8\n"), (2, "UAP", ""), (5, "UAP", ""),
                                                  (1, "INCONCLUSIVE", "")])
def test_budget_for_causal_targets(budget, verdict, tokens):
    """At a symbolic n one layer is below the count 2 from n = 3 on only (one layer gives it at n ≤ 2): not
    concluded there (tests/test_target_budget_symbolic.py); at n = 8 it is NOT-UAP."""
    r = check(f"{tokens}attention {{ {SOFTMAX}; pattern causal }}\nlayers {budget}\ntarget causal")
    assert r.verdict == verdict
    if verdict == "NOT-UAP":
        assert rules(r)["TGT-BUDGET"].proved


def test_budget_below_receptive_diameter():
    r = check(f"tokens 9\nattention {{ {SOFTMAX}; pattern offsets {{-1, 0}} }}\nlayers 7\ntarget causal")
    assert r.verdict == "NOT-UAP"
    assert "receptive diameter r = 8" in rules(r)["TGT-BUDGET"].claim


def test_budget_without_least_is_inconclusive():
    # Mixed heads at n = 12: the witness search covers transpositions only, so r + 1 is not shown least.
    r = check("tokens 12\n"
              f"attention {{ {SOFTMAX}; pattern causal }}\n"
              f"attention {{ {SOFTMAX}; pattern offsets {{-1, -3}} }}\n"
              "target causal")
    lay = rules(r)["TGT-LAYERS"]
    assert r.verdict == "UAP"
    if not lay.evidence["least"]:
        r2 = check("tokens 12\n"
                   f"attention {{ {SOFTMAX}; pattern causal }}\n"
                   f"attention {{ {SOFTMAX}; pattern offsets {{-1, -3}} }}\n"
                   f"layers {lay.evidence['radius']}\ntarget causal")
        assert r2.verdict == "INCONCLUSIVE"


def test_causal_target_on_a_pattern_that_misses_earlier_positions():
    r = check(f"tokens 5\nattention {{ {SOFTMAX}; pattern edges {{3 -> 1, 4 -> 2, 5 -> 3}} }}\ntarget causal")
    assert r.verdict == "NOT-UAP"
    assert rules(r)["TGT-NOT-CAUSAL"].evidence["witness"] == {"i": 2, "j": 1, "target": "F(X)_2 = x_1"}


def test_receptive_target_on_a_non_causal_class():
    r = check(f"tokens 5\nattention {{ {SOFTMAX}; pattern edges {{3 -> 1, 4 -> 2, 5 -> 3}} }}\ntarget receptive\n"
              "expect uap layers 2")
    assert r.verdict == "UAP" and r.target.target == "receptive" and r.expect_holds


def test_dense_attention_causal_target():
    # S_n-equivariant only: NOT-UAP at every n ≥ 2, UAP at n = 1 (S_1 is trivial and every map of one token is
    # causal); at a symbolic n the verdict states that range (docs/theory.md §14.10)
    assert check(f"tokens 8\nattention {{ {SOFTMAX} }}\ntarget causal").verdict == "NOT-UAP"
    assert check(f"tokens 1\nattention {{ {SOFTMAX} }}\ntarget causal").verdict == "UAP"
    symbolic = check(f"attention {{ {SOFTMAX} }}\ntarget causal")
    assert symbolic.verdict == "NOT-UAP" and symbolic.target.range == "n ≥ 2"
    assert symbolic.target.phrase() == "NOT-UAP for causal targets (for n ≥ 2; n = 1: UAP with 1 layer)"
    r = check(f"attention {{ {SOFTMAX} }}\npositional absolute\ntarget causal\nexpect uap layers 1")
    assert r.verdict == "UAP" and r.expect_holds


def test_positional_encoding_needs_only_the_radius():
    r = check(f"tokens 6\nattention {{ {SOFTMAX}; pattern causal }}\npositional absolute\ntarget causal")
    assert r.verdict == "UAP" and r.layers == 1


def test_target_receptive_on_strongly_connected_is_the_equivariant_verdict():
    a = check(f"attention {{ {SOFTMAX}; pattern window(2) }}")
    b = check(f"attention {{ {SOFTMAX}; pattern window(2) }}\ntarget receptive")
    assert (a.verdict, a.layers, a.group.name) == (b.verdict, b.layers, b.group.name)


def test_a_pattern_without_closed_form_at_symbolic_n_is_undecided():
    r = check(f"attention {{ {SOFTMAX}; pattern offsets {{-3, -1, 0}} }}\ntarget causal")
    assert r.verdict == "INCONCLUSIVE"
    assert "TGT-UNDECIDED" in rules(r)


def test_unknown_target_is_an_input_error():
    with pytest.raises(UapError) as exc:
        check(f"attention {{ {SOFTMAX} }}\ntarget decoder")
    assert "unknown target class `decoder`" in exc.value.message
    assert (exc.value.line, exc.value.column) == (2, 8)


def test_target_given_twice_is_an_error():
    with pytest.raises(UapError) as exc:
        check(f"attention {{ {SOFTMAX} }}\ntarget causal\ntarget causal")
    assert "given twice" in exc.value.message


def test_cli_panel_and_exit_code(tmp_path):
    f = tmp_path / "dec.uap"
    f.write_text(f"attention {{ {SOFTMAX}; pattern causal }}\ntarget causal\nexpect uap layers 2\n")
    out = subprocess.run([sys.executable, "-m", "uapcheck", str(f), "--color", "never"], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "UAP for causal targets with 2 attention layers" in out.stdout
    out = subprocess.run([sys.executable, "-m", "uapcheck", str(f), "--format", "json"], capture_output=True,
                         text=True)
    assert json.loads(out.stdout)["target"]["class"] == "causal"


def _random_causal_heads(rng, n, heads):
    """Random causal-class heads whose union has every arc k − 1 → k (so R(i) = {1, …, i})."""
    out = []
    for _ in range(heads):
        edges = {(i, j) for i in range(2, n + 1) for j in range(1, i) if rng.random() < 0.35}
        out.append(edges)
    for k in range(2, n + 1):  # put k − 1 → k into a random head
        out[rng.randrange(heads)].add((k, k - 1))
    return [S.Edges(tuple(sorted(e))) if e else S.Edges(((2, 1),)) for e in out]


@pytest.mark.parametrize("seed", range(40))
def test_exact_causal_search_agrees_with_the_exhaustive_search(seed):
    """The generator test of causal_exact (BLISS) against every permutation (n ≤ 7)."""
    import random
    from uapcheck.graphs.receptive import causal_exact
    rng = random.Random(seed)
    n = rng.randrange(3, 8)
    pats = _random_causal_heads(rng, n, rng.choice((1, 1, 2)))
    graphs = [build_graph(p, n, {}) for p in pats]
    rec = receptive_fields(graphs)
    assert rec.causal_class and rec.prefix_fields
    exhaustive = search(graphs, rec)
    exact = causal_exact(graphs, rec)
    assert exhaustive.least and exact.least
    assert exact.layers == exhaustive.layers, (pats, exact, exhaustive)


@pytest.mark.parametrize("w,n", [(1, 30), (2, 41), (3, 50), (5, 64)])
def test_exact_causal_search_agrees_with_the_window_closed_form(w, n):
    from uapcheck.graphs.receptive import causal_exact
    g = build_graph(S.Offsets(tuple(range(-w, 1))), n, {})
    rec = receptive_fields([g])
    assert causal_exact([g], rec).layers == math.ceil((n - 1) / w)
    assert causal_exact([build_graph(S.Causal(), n, {})], receptive_fields([build_graph(S.Causal(), n, {})])).layers == 2


def test_window_with_a_sink_is_decided_exactly():
    # Mistral-style: a causal window of 4 keys plus an attention sink at position 1 (n = 24).
    sink = ", ".join(f"{i} -> 1" for i in range(5, 25))
    r = check(f"tokens 24\nattention {{ {SOFTMAX}; pattern offsets {{-3, -2, -1, 0}} + edges {{{sink}}} }}\n"
              "target causal")
    lay = rules(r)["TGT-LAYERS"]
    assert r.verdict == "UAP" and lay.evidence["least"] is True
    assert r.layers == lay.evidence["radius"] == math.ceil((24 - 2) / 3)


@pytest.mark.parametrize("w,k,n", [(w, k, n) for w in (1, 2, 3) for k in (1, 2, 3) for n in (9, 12, 17, 26)])
def test_window_with_sinks_closed_form_agrees_with_the_exact_search(w, k, n):
    """causal & window(w) + sinks(k): the closed form of §14.7 against the BLISS-generator search."""
    from uapcheck.graphs.receptive import causal_exact
    from uapcheck.rules.targets import _causal_closed, _causal_kind
    pat = S.PatternUnion((S.PatternIntersection((S.Causal(), S.Window(w))), S.Sinks(k)))
    g = build_graph(pat, n, {})
    rec = receptive_fields([g])
    assert rec.causal_class and rec.prefix_fields
    closed = _causal_closed(_causal_kind([pat]), n)
    exact = causal_exact([g], rec)
    assert exact.least
    if closed is None:
        return  # n < k + w + 2: left to the search
    assert closed[0] == rec.radius
    assert closed[1] == exact.layers, (w, k, n, closed, exact)


def test_mistral_7b_causal_target():
    text = open("catalog/mistral_7b.uap").read().replace("expect not-uap", "target causal\nexpect uap layers 8")
    r = check(text)
    assert r.verdict == "UAP" and r.expect_holds, r.expect_reason
    assert rules(r)["TGT-LAYERS"].evidence["least"] is True


def test_mistral_alternative_in_the_default_verdict():
    r = check(open("catalog/mistral_7b.uap").read())
    assert r.verdict == "NOT-UAP" and r.alternative.phrase() == "UAP for causal targets with 8 attention layers"


# -- positions in the weights of a causal family (docs/theory.md §14.11) ----------------------------

CATALOG = __import__("pathlib").Path(__file__).resolve().parents[1] / "catalog"

# Every decoder of the catalog (`target causal`), with its least number of attention layers.
DECODERS = {
    "causal_decoder.uap": 2,
    "causal_window_decoder.uap": "ceiling(n/2 - 1/2)",
    "linear_elu_causal_decoder.uap": 2,
    "mistral_7b_decoder.uap": 8,
    "window_sink_decoder.uap": "ceiling(n/3 - 2/3)",
    "alibi_decoder.uap": 1,
    "rope_decoder.uap": 1,
    "llama_decoder.uap": 1,
    "gemma_alternating_decoder.uap": 2,
    "gemma2_decoder_8k.uap": 2,
    "gemma3_decoder_32k.uap": 6,
    "mistral_sliding_window_32k.uap": 8,
    "gemma2_decoder_any_length.uap": 2,
    "gpt_oss_decoder_128k.uap": 2,
    "gpt_oss_decoder_any_length.uap": 2,
    "gemma3_decoder_any_length.uap": 6,
    "streaming_llm_32k.uap": 8,
    "window_sinks_global_32k.uap": 2,
    "alternating_windows_any_length.uap": "ceiling(n/5 - 4/5) + ceiling(n/5 - 1/5)",
    "window_sinks_global_any_length.uap": 2,
    "window3_sinks2_global_any_length.uap": 2,
    "sink_windows_decoder_2k.uap": 43,
    "sink_windows_any_length.uap": "ceiling(n/6) + ceiling(n/6 - 1/2) - 1",
    "early_sinks_window_any_length.uap": "2*ceiling(n/3) - 2",
    "llama4_chunked_decoder_256k.uap": 8,
    "llama4_chunked_decoder_any_length.uap": 8,
    # NOT-UAP from n = 12 on, UAP below with these least counts (Theorem F159: a budget on finite widths)
    "alternating_windows_four_layers_any_length.uap": ("n ≥ 12", [1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4]),
}


def check_file(name: str):
    path = CATALOG / name
    return uapcheck.check(path.read_text(), str(path))


def test_every_catalog_decoder_is_listed():
    decoders = {p.name for p in CATALOG.glob("*.uap") if "\ntarget causal" in "\n" + p.read_text()}
    assert decoders == set(DECODERS)


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_every_catalog_decoder_is_uap_with_its_least_layers(name):
    r = check_file(name)
    if isinstance(DECODERS[name], tuple):  # a split by length: NOT-UAP from a length on, UAP below with these counts
        where, counts = DECODERS[name]
        t = r.to_dict()["target"]
        assert r.verdict == "NOT-UAP" and r.expect_holds and t["range"] == where
        assert [(x["verdict"], x["layers"], x["least"]) for x in t["below_range"]] == [("UAP", c, True) for c in counts]
        return
    assert r.verdict == "UAP" and r.expect_holds
    layers = r.layers if isinstance(r.layers, int) else __import__("sympy").sstr(r.layers)
    assert layers == DECODERS[name]
    found = rules(r)
    rule = next(r for r in ("TGT-LAYERS", "SEQ-CAUSAL-LAYERS", "SEQ-CAUSAL-INTERVALS", "SEQ-CAUSAL-FORM",
                                 "SEQ-CAUSAL-SINKS", "SEQ-CAUSAL-CHUNKS") if r in found)
    assert found[rule].evidence["least"] is True


def _causal_not_uap_files():
    out = []
    for p in sorted(CATALOG.glob("*.uap")):
        text = p.read_text()
        if "causal" in text and "\ntarget " not in "\n" + text and "expect not-uap" in text:
            out.append(p.name)
    return out


def _per_layer(name: str) -> bool:
    text = (CATALOG / name).read_text()
    return "periodic {" in text or "sequence {" in text


@pytest.mark.parametrize("name", _causal_not_uap_files())
def test_a_causal_not_uap_panel_names_the_causal_result(name):
    r = check_file(name)
    assert r.verdict == "NOT-UAP"
    if _per_layer(name):
        # per-layer lists have no receptive analysis (rules/targets.decide): no alternative class is derived (the CLI
        # suggests `target causal` instead); the NOT-UAP panel names the position that is never reached
        from uapcheck.render.verdict_lines import headline
        assert r.alternative is None and headline(r).startswith("NOT-UAP (for n ≥ 2)")
        assert any("never reaches position 1" in str(s.claim) for s in r.root.walk())
        return
    alt = r.alternative
    assert alt is not None and alt.target == "causal" and alt.verdict == "UAP", (name, alt)
    assert alt.least
    from uapcheck.render.verdict_lines import headline  # the panel's first line
    first = headline(r)
    assert first.startswith("NOT-UAP for G-equivariant targets") and "; UAP for causal targets with " in first


def test_the_alibi_and_streaming_llm_panels():
    alibi, streaming = check_file("alibi.uap"), check_file("streaming_llm.uap")
    assert alibi.alternative.phrase() == "UAP for causal targets with 1 attention layer"
    assert streaming.alternative.phrase() == ("UAP for causal targets with ⌈(n - k - 1)/w⌉ attention layers (for "
                                              "n ≥ max(2·k, k + w + 2); n ≤ 2: 1 layer; 3 ≤ n < max(2·k, k + w + 2): "
                                              "max(2, ⌈(k - 1)/w⌉) layers)")
    assert rules(streaming)["TGT-RECEPTIVE"].evidence["range"] == "for n ≥ max(k + w + 2, 2·k)"


def _positions(body: str, tokens: str = "") -> object:
    return check(f"{tokens}\nattention {{ {SOFTMAX}; {body}; pattern causal }}\ntarget causal")


@pytest.mark.parametrize("kind", ["free", "toeplitz", "circulant", "symmetric toeplitz"])
def test_a_bias_with_single_keys_per_causal_row_needs_one_layer(kind):
    for tokens in ("", "tokens 7"):
        r = _positions(f"bias {kind}", tokens)
        assert (r.verdict, r.layers) == ("UAP", 1)
        step = rules(r)["TGT-POSITIONS"]
        assert step.proved and step.evidence["route"] == "one layer"


def test_symmetric_circulant_shares_a_class_on_causal_rows_so_two_layers():
    for tokens, swap in (("", None), ("tokens 7", [1, 6]), ("tokens 3", [1, 2])):
        r = _positions("bias symmetric circulant", tokens)
        assert (r.verdict, r.layers) == ("UAP", 2)
        step = rules(r)["TGT-POSITIONS"]
        assert step.evidence["route"] == "collision"
        assert rules(r)["TGT-LAYERS"].evidence["least"] is True
        if swap:
            assert step.evidence["witness"]["swap"] == swap


def test_t5_buckets_one_layer_while_every_offset_has_its_bucket():
    assert _positions("bias buckets(32, 128)", "tokens 9").layers == 1  # offsets 1..8: 8 is the first log bucket
    r = _positions("bias buckets(32, 128)", "tokens 10")  # offsets 8 and 9 share bucket 8
    assert (r.verdict, r.layers) == ("UAP", 2)
    assert rules(r)["TGT-POSITIONS"].evidence["witness"]["swap"] == [1, 2]


@pytest.mark.parametrize("body", ["bias b(i, j) = -(i - j)", "rotary"])
def test_fixed_positions_injective_on_causal_offsets_need_one_layer(body):
    r = _positions(body, "tokens 9")
    assert (r.verdict, r.layers) == ("UAP", 1)
    assert rules(r)["TGT-LAYERS"].evidence["least"] is True


@pytest.mark.parametrize("heads", ["heads 8", "heads 8 kv 1", "heads 32 kv 8"])
@pytest.mark.parametrize("tokens", ["tokens 9", ""])
def test_rope_with_several_or_grouped_query_heads_needs_one_layer(heads, tokens):
    """`heads H kv G` (multi-head, multi-query, grouped-query): the family contains the one rotary head (the other
    query heads' output projections zero), whose TD-ROTARY step is the premise of HEADS-SHARED, so §14.11's one
    layer holds (it was INCONCLUSIVE: the route read only a bare TD-ROTARY step); the certificate verifies."""
    from uapcheck.verifier import verify
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from certificates import certificate_of
    text = f"{tokens}\nattention {{ {SOFTMAX}; {heads}; rotary; pattern causal }}\ntarget causal\n"
    r = check(text)
    assert (r.verdict, r.layers) == ("UAP", 1)
    assert rules(r)["TGT-POSITIONS"].evidence["route"] == "one layer"
    assert rules(r)["TGT-LAYERS"].evidence["least"] is True
    report = verify(certificate_of(text))
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    plain = check(f"{tokens}\nattention {{ {SOFTMAX}; {heads}; pattern causal }}\ntarget causal\n")
    assert plain.layers == 2  # without positions the causal mask needs two (§14.6)


@pytest.mark.parametrize("body", ["bias b(i, j) = -(i - j)^2", "reweight c(i, j) = cos(pi * (i - j) / 18)"])
def test_an_even_fixed_bias_on_the_causal_mask_is_one_layer(body):
    """Even in j − i, injective in |j − i|: one layer on causal rows (§14.11(c)), and TD-FIXEDBIAS is proved
    by Lemma O (§16.2): on the causal mask no row sees i + s and i − s together."""
    r = _positions(body, "tokens 9")
    assert (r.verdict, r.layers) == ("UAP", 1)
    layers = rules(r)["TGT-LAYERS"]
    assert layers.evidence["layers"] == 1 and layers.evidence["least"] is True
    assert rules(r)["TD-FIXEDBIAS"].proved and rules(r)["TD-FIXEDBIAS"].facts["one_sided"] == -1


def test_a_trainable_bias_on_a_causal_window_keeps_the_window_count():
    r = check(f"tokens 12\nattention {{ {SOFTMAX}; bias toeplitz; pattern causal & window(2) }}\ntarget causal")
    assert (r.verdict, r.layers) == ("UAP", 6)
    assert rules(r)["TGT-POSITIONS"].evidence["route"] == "contains plain"
    assert rules(r)["TGT-LAYERS"].evidence["least"] is True


def test_a_fixed_bias_on_a_causal_window_gets_the_labelled_count():
    """Lemma V^ρ (§14.11(f)): a fixed bias on a softmax head is decided by the labelled receptive search
    at a concrete n; at a symbolic n it stays undecided (tests/test_fixed_causal_windows.py has more)."""
    r = check(f"tokens 12\nattention {{ {SOFTMAX}; bias b(i, j) = -(i - j); pattern causal & window(2) }}\n"
              "target causal")
    assert (r.verdict, r.layers) == ("UAP", 6)
    assert rules(r)["TGT-POSITIONS"].evidence["route"] == "labelled views"
    r = check(f"attention {{ {SOFTMAX}; bias b(i, j) = -(i - j); pattern causal & window(2) }}\ntarget causal")
    assert r.verdict == "INCONCLUSIVE"
    assert not rules(r)["TGT-POSITIONS"].proved


def test_the_positions_certificate_rechecks_its_data():
    from uapcheck.proof import CertificateRejected
    from uapcheck.rules.targets import CausalPositions, HeadRowLabels
    circ = HeadRowLabels("trainable", "symmetric circulant", False, "causal", k00=True)
    CausalPositions("collision", 7, (circ,), collision=(7, 1, 6)).check()
    with pytest.raises(CertificateRejected):
        CausalPositions("collision", 7, (circ,), collision=(7, 1, 5)).check()  # classes 1 and 2
    with pytest.raises(CertificateRejected):
        CausalPositions("one layer", 7, (circ,), separating=0).check()
    toe = HeadRowLabels("trainable", "toeplitz", True, "causal", k00=True)
    CausalPositions("one layer", 7, (toe,), separating=0).check()
    with pytest.raises(CertificateRejected):
        CausalPositions("one layer", 7, (HeadRowLabels("trainable", "toeplitz", True, "window(2)", k00=True),),
                        separating=0).check()
    with pytest.raises(CertificateRejected):
        CausalPositions("contains plain", 7, (HeadRowLabels("fixed", "bias", True, "causal", k00=True),)).check()
    buckets = HeadRowLabels("trainable", "buckets(32, 128)", True, "causal", (32, 128), True)
    CausalPositions("one layer", 9, (buckets,), separating=0).check()
    with pytest.raises(CertificateRejected):
        CausalPositions("one layer", 10, (buckets,), separating=0).check()


# An implementation of one causal layer independent of uapcheck (numpy, then mpmath).

def _one_layer(X, weights_bias, Wq, Wk, Wv, rotate=None):
    n = X.shape[0]
    Q, K, V = X @ Wq.T, X @ Wk.T, X @ Wv.T
    if rotate is not None:
        Q, K = rotate(Q), rotate(K)
    S = Q @ K.T + weights_bias
    S = np.where(np.tril(np.ones((n, n), dtype=bool)), S, -np.inf)
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    return X + A @ V


def _rope(Y):
    n, d = Y.shape
    out = Y.copy()
    for k in range(d // 2):
        ang = np.arange(1, n + 1) * 10000.0 ** (-2 * k / d)
        c, s = np.cos(ang), np.sin(ang)
        out[:, 2 * k], out[:, 2 * k + 1] = Y[:, 2 * k] * c - Y[:, 2 * k + 1] * s, Y[:, 2 * k] * s + Y[:, 2 * k + 1] * c
    return out


def test_one_causal_layer_numerically_alibi_rope_and_a_shared_class():
    rng = np.random.default_rng(5)
    n, d = 7, 4
    i, j = np.meshgrid(np.arange(1, n + 1), np.arange(1, n + 1), indexing="ij")
    alibi = -0.5 * (i - j)
    reverse = [5, 4, 3, 2, 1, 0, 6]  # the prefix of position 7 reversed
    for _ in range(5):
        Wq, Wk, Wv = (0.3 * rng.normal(size=(d, d)) for _ in range(3))
        X = rng.normal(size=(n, d))
        Xr = X[reverse]
        blind = _one_layer(X, 0 * alibi, Wq, Wk, Wv)[-1] - _one_layer(Xr, 0 * alibi, Wq, Wk, Wv)[-1]
        assert np.abs(blind).max() < 1e-12  # no positions: the prefix is a set
        ali = _one_layer(X, alibi, Wq, Wk, Wv)[-1] - _one_layer(Xr, alibi, Wq, Wk, Wv)[-1]
        assert np.abs(ali).max() > 1e-4
        rot = _one_layer(X, 0 * alibi, Wq, Wk, Wv, _rope)[-1] - _one_layer(Xr, 0 * alibi, Wq, Wk, Wv, _rope)[-1]
        assert np.abs(rot).max() > 1e-4
        beta = rng.normal(size=n)  # symmetric circulant: class min(|i − j| mod n, n − ...)
        B = beta[np.minimum((j - i) % n, (i - j) % n)]
        swap = [5, 1, 2, 3, 4, 0, 6]  # keys 1 and 6 of row 7 share class 1
        same = _one_layer(X, B, Wq, Wk, Wv)[-1] - _one_layer(X[swap], B, Wq, Wk, Wv)[-1]
        assert np.abs(same).max() < 1e-12


def test_the_linear_regime_separates_a_rearranged_prefix_at_forty_digits():
    """§14.11(c) at W_Q = W_K = 0: row i is x_i + c Σ β_il x_l with ALiBi's weights."""
    mpmath = pytest.importorskip("mpmath")
    with mpmath.workdps(40):
        n, c, mu = 6, mpmath.mpf("0.5"), mpmath.mpf("0.25")
        rng = np.random.default_rng(2)
        X = [[mpmath.mpf(float(v)) for v in row] for row in rng.normal(size=(n, 2))]

        def row(Y, bias):
            w = [mpmath.e ** bias(l) for l in range(1, n + 1)]
            z = sum(w)
            return [Y[n - 1][k] + c * sum(w[l] / z * Y[l][k] for l in range(n)) for k in range(2)]
        Xr = [X[l] for l in (4, 3, 2, 1, 0, 5)]
        alibi = lambda l: -mu * (n - l)  # noqa: E731
        diff = max(abs(a - b) for a, b in zip(row(X, alibi), row(Xr, alibi)))
        assert diff > mpmath.mpf("1e-3")
        flat = lambda l: 0  # noqa: E731 - no positions: equal weights, the same row
        assert max(abs(a - b) for a, b in zip(row(X, flat), row(Xr, flat))) < mpmath.mpf("1e-35")


@pytest.mark.parametrize("heads", [("sinks(1) + sinks(2)",), ("causal", "sinks(2) + sinks(2)"),
                                   ("sinks(1) + sinks(1)", "causal & window(2) + sinks(1)")])
@pytest.mark.parametrize("target", ["", "target causal\n", "target receptive\n"])
def test_a_union_of_sinks_alone_is_no_causal_kind(heads, target):
    """A head whose union has only `sinks` parts has no causal mask or window to read a kind from: it is decided
    as any other pattern (it was an internal error)."""
    text = "tokens 5\n" + "".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}\n" for p in heads)
    result = uapcheck.check(text + target, "sinks.uap")
    assert result.verdict in ("UAP", "NOT-UAP", "INCONCLUSIVE")
