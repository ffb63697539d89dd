"""Theorem F143's case (S) (docs/theory.md §11.11: heads whose union is `window(w) cyclic`, every head's offsets
symmetric, some head not kept by the reflection) read off the checker's statement — at `tokens n` evaluated at each
length and at each concrete `tokens <n>` — against a view-witness search by backtracking written apart from the engine
(tests/graphs/backtrack_views.py, itself checked against brute_views' n! search at n = 7, 8). Random tuples are drawn
as `.uap` text (a fixed seed) and kept when the backtracking's own reading says case (S): the union's arcs are
`window(w) cyclic`, every head's offset set is symmetric, and some head's cyclic or non-cyclic offsets are not."""
from __future__ import annotations

import random

import pytest
import sympy

import uapcheck

from .backtrack_views import group
from .backtrack_views import least_layers as backtrack_least
from .brute_views import neighbourhoods
from .brute_views import least_layers as brute_least

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 22


def _file(patterns, tokens: str) -> str:
    heads = "\n".join(f"attention h{k} {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}"
                      for k, p in enumerate(patterns))
    return f'architecture "heads"\ntokens {tokens}\n{heads}\n'


def _part(rng, w: int) -> tuple[str, frozenset[int], frozenset[int]]:
    """One part as text with its cyclic and non-cyclic offsets."""
    kind = rng.choice(["window cyclic", "window", "offsets cyclic", "offsets"])
    if kind.startswith("window"):
        r = rng.randint(1, w)
        span = frozenset(range(-r, r + 1)) - {0}
        return (f"window({r}) cyclic", span, frozenset()) if kind == "window cyclic" else (f"window({r})", frozenset(), span)
    offsets = frozenset(rng.choice([-1, 1]) * rng.randint(1, w) for _ in range(rng.randint(1, 2)))
    text = "offsets {" + ", ".join(map(str, sorted(offsets))) + "}"
    return (text + " cyclic", offsets, frozenset()) if kind == "offsets cyclic" else (text, frozenset(), offsets)


def _symmetric_tuples(seed: int, count: int):
    """`count` random case-(S) tuples: (patterns, w), by the offsets read off the text."""
    rng = random.Random(seed)
    found: list[tuple[tuple[str, ...], int]] = []
    while len(found) < count:
        w = rng.choice([1, 2, 3])
        heads = []
        for _ in range(rng.choice([2, 3])):
            parts = [_part(rng, w) for _ in range(rng.choice([1, 2]))]
            cyc = frozenset().union(*(p[1] for p in parts))
            line = frozenset().union(*(p[2] for p in parts)) - cyc
            heads.append((" + ".join(dict.fromkeys(p[0] for p in parts)), cyc, line))
        texts = tuple(dict.fromkeys(h[0] for h in heads))
        if len(texts) < 2 or texts in (f[0] for f in found):
            continue
        if frozenset().union(*(h[1] for h in heads)) != frozenset(range(-w, w + 1)) - {0}:
            continue  # the union is not window(w) cyclic
        if any(c | p != frozenset(-x for x in c | p) for _, c, p in heads):
            continue  # some head's offsets are not symmetric: case (A)
        if all(c == frozenset(-x for x in c) and p == frozenset(-x for x in p) for _, c, p in heads):
            continue  # every head kept by the reflection: case (R)
        found.append((texts, w))
    return found


TUPLES = _symmetric_tuples(seed=11, count=8)


def test_the_backtracking_agrees_with_the_search_over_s_n():
    for patterns, w in TUPLES[:3]:
        for n in (7, 8):
            if n >= 2 * w + 3:
                nbs = neighbourhoods(patterns, n)
                assert backtrack_least(nbs, n) == brute_least(nbs, n), (patterns, n)


@pytest.mark.parametrize("patterns,w", TUPLES, ids=[" | ".join(t) for t, _ in TUPLES])
def test_the_stated_count_is_the_least_one_and_the_group_the_heads_own(patterns, w):
    symbolic = uapcheck.check(_file(patterns, "n"))
    # the count is the layer step's; the verdict is UAP, or INCONCLUSIVE on the group alone (no closed form at n)
    assert symbolic.verdict == "UAP" or {s.rule for s in symbolic.root.walk()} >= {"SYM-UNDECIDED"}, patterns
    (step,) = [s for s in symbolic.root.walk() if s.rule == "PAT-LAYERS"]
    assert step.facts["least"] is True, patterns
    layers = step.facts["layers"]
    for n in range(2 * w + 3, NMAX + 1):
        nbs = neighbourhoods(patterns, n)
        least = backtrack_least(nbs, n)
        assert int(layers.xreplace({N: n})) == least, (patterns, n)
        concrete = uapcheck.check(_file(patterns, str(n)))
        assert concrete.verdict == "UAP" and concrete.layers == least, (patterns, n, concrete.summary())
        assert concrete.to_dict()["least"] is True, (patterns, n)
        assert concrete.group.order == len(group(nbs, n)), (patterns, n, concrete.group)


def test_the_catalogs_ring_cut_at_the_wrap_needs_one_more_layer_through_the_reflection_alone():
    """catalog/ring_one_way_wrap_heads_n.uap on n ≡ 2 (mod 4): the rotation's ball and shift do not fit beside the
    zone, and still D + 1 layers are least, through a witness that fixes a position (a reflection)."""
    patterns = ("offsets {1} cyclic + offsets {-1}", "window(2) cyclic")
    from .backtrack_views import view_witness
    for n in (10, 14, 18):
        nbs = neighbourhoods(patterns, n)
        d = -(-(n // 2) // 2)
        found = view_witness(nbs, n, d)
        assert found is not None, n
        sigma, _ = found
        assert any(sigma[v] == v for v in sigma), (n, sigma)  # not a rotation
