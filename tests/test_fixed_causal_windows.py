"""Fixed position weights on causal patterns other than the full mask (ALiBi on a causal window):
Lemma V^ρ (docs/theory.md §14.11(f)) lets the labelled receptive search decide the count at a
concrete n. Checked against a brute force over S_n written here (the receptive witness condition with
the offsets as labels, §14.5(d), §11.10), and numerically on the witness of the position-blind head."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import uapcheck

from graphs.brute_views import distances_to  # tests/graphs (tests/ is on sys.path)

ALIBI = "bias b(i, j) = -m * (i - j)"
EVEN = "bias b(i, j) = -m * |i - j|"


def program(n: int, pattern: str, bias: str, kernel: str = "exp(q . key)") -> str:
    return (f"tokens {n}\nparam m > 0\ntarget causal\nattention {{\n  kernel k(q, key) = {kernel}\n"
            f"  pattern {pattern}\n  {bias}\n}}\n")


def brute_least(n: int, keys, label) -> int:
    """r, or r + 1 when a labelled receptive witness exists (every σ ∈ S_n and position i tried).
    keys[v]: the positions v attends to (itself included); label(v, u): the arc's label."""
    pred = {v: set(keys[v]) for v in range(1, n + 1)}
    dist = distances_to([[frozenset()] + [frozenset(pred[v]) for v in range(1, n + 1)]], n)
    r = max(max(d.values()) for d in dist.values())

    def kept(s, v) -> bool:
        return {s[u] for u in pred[v]} == pred[s[v]] and all(label(s[v], s[u]) == label(v, u) for u in pred[v])
    for images in itertools.permutations(range(1, n + 1)):
        s = (0,) + images
        for i in range(1, n + 1):
            ball = [v for v in dist[i] if dist[i][v] <= r - 1]
            if all(kept(s, v) for v in ball) and not all(kept(s, v) for v in dist[i]):
                return r + 1
    return r


def window_keys(n: int, w: int):
    return {v: [u for u in range(max(1, v - w), v + 1)] for v in range(1, n + 1)}


@pytest.mark.parametrize("n,w", [(4, 1), (5, 1), (6, 2), (7, 2), (7, 3)])
@pytest.mark.parametrize("bias,label", [(ALIBI, lambda v, u: u - v), (EVEN, lambda v, u: abs(u - v))])
def test_alibi_on_a_causal_window_gets_the_brute_force_least_count(n, w, bias, label):
    """The labelled count is the brute force's, and the verdict is UAP with it for both biases: on a causal
    window no row sees i + s and i − s together, so the even bias's TD-FIXEDBIAS step is proved (Lemma O,
    docs/theory.md §16.2)."""
    r = uapcheck.check(program(n, f"causal & window({w})", bias))
    want = brute_least(n, window_keys(n, w), label)
    step = next(s for s in r.root.walk() if s.rule == "TGT-POSITIONS")
    assert step.proved and step.evidence["route"] == "labelled views"
    layers = next(s for s in r.root.walk() if s.rule == "TGT-LAYERS")
    assert layers.proved and layers.evidence["layers"] == want and layers.evidence["least"] is True
    assert (r.verdict, r.layers) == ("UAP", want), r.root.claim
    assert next(s for s in r.root.walk() if s.rule == "TD-FIXEDBIAS").proved


EDGES = "edges {2 -> 1, 3 -> 2, 4 -> 1, 4 -> 2, 4 -> 3, 5 -> 1, 5 -> 4}"
EDGE_KEYS = {1: [1], 2: [1, 2], 3: [2, 3], 4: [1, 2, 3, 4], 5: [1, 4, 5]}


def test_alibi_saves_the_layer_the_blind_head_needs_on_the_edges_pattern():
    blind = uapcheck.check(program(5, EDGES, ""))
    alibi = uapcheck.check(program(5, EDGES, ALIBI))
    assert (blind.layers, alibi.layers) == (3, 2)
    assert brute_least(5, EDGE_KEYS, lambda v, u: u - v) == 2
    assert brute_least(5, EDGE_KEYS, lambda v, u: None) == 3


def _forward(X, keys, bias, params):
    """Residual softmax layers with a fixed bias on a pattern (numpy, written here)."""
    n = len(X)
    mask = np.full((n, n), -np.inf)
    for v, us in keys.items():
        for u in us:
            mask[v - 1, u - 1] = bias(v, u)
    for Wq, Wk, Wv in params:
        scores = (X @ Wq.T) @ (X @ Wk.T).T + mask
        scores -= scores.max(axis=1, keepdims=True)
        A = np.exp(scores)
        A /= A.sum(axis=1, keepdims=True)
        X = X + A @ (X @ Wv.T)
    return X


def test_numerically_two_alibi_layers_separate_the_blind_heads_witness():
    """σ = (2 3) at position 5: two position-blind layers give X and σX the same output at 5, two ALiBi
    layers do not (σ moves key 2 of row 4 from offset −2 to −1)."""
    rng = np.random.default_rng(3)
    d = 3
    # small query and key maps, so that no key's weight underflows next to another's
    params = [(rng.normal(size=(d, d)) * 0.3, rng.normal(size=(d, d)) * 0.3, rng.normal(size=(d, d)))
              for _ in range(2)]
    for _ in range(5):
        X = rng.normal(size=(5, d))
        Xs = X.copy()
        Xs[[1, 2]] = X[[2, 1]]
        blind = _forward(X, EDGE_KEYS, lambda v, u: 0.0, params)[4] - _forward(Xs, EDGE_KEYS, lambda v, u: 0.0, params)[4]
        alibi = (_forward(X, EDGE_KEYS, lambda v, u: -0.7 * (v - u), params)[4]
                 - _forward(Xs, EDGE_KEYS, lambda v, u: -0.7 * (v - u), params)[4])
        assert np.linalg.norm(blind) < 1e-13
        assert np.linalg.norm(alibi) > 1e-4


@pytest.mark.parametrize("body", ["rotary", ALIBI])
def test_what_lemma_v_rho_does_not_cover_stays_undecided(body):
    """RoPE on a causal window, and a fixed bias on another kernel or at a symbolic n."""
    if body == "rotary":
        r = uapcheck.check(program(8, "causal & window(2)", "rotary"))
        assert r.verdict == "INCONCLUSIVE"
        return
    r = uapcheck.check(program(8, "causal & window(2)", body, kernel="exp(-|q - key|^2)"))
    assert r.verdict == "INCONCLUSIVE"
    r = uapcheck.check(program(8, "causal & window(2)", body).replace("tokens 8", "tokens n"))
    assert r.verdict == "INCONCLUSIVE"


def test_the_certificate_accepts_fixed_heads_only_with_their_classes():
    from uapcheck import proof
    from uapcheck.rules.targets import CausalPositions, HeadRowLabels
    ok = HeadRowLabels("fixed", "bias b(i, j)", True, "causal & window(2)", k00=True, fixed_classes="toeplitz")
    CausalPositions("labelled views", 8, (ok,)).check()
    bare = HeadRowLabels("fixed", "bias b(i, j)", True, "causal & window(2)", k00=True)
    with pytest.raises(proof.CertificateRejected, match="trainable class"):
        CausalPositions("labelled views", 8, (bare,)).check()
    with pytest.raises(proof.CertificateRejected, match="trainable class"):
        CausalPositions("contains plain", 8, (ok,)).check()
