"""T5's released bucket function in floating point, for the tests that compare the engines' exact buckets with it
(shared by the tests of T5 buckets; tests/ is on sys.path)."""
from __future__ import annotations

import itertools
import math


def released_bucket(m: int, num_buckets: int, max_distance: int) -> int:
    """T5's bidirectional _relative_position_bucket(j − i = m), as released (floating-point logarithm)."""
    half = num_buckets // 2
    ret = half if m > 0 else 0
    d = abs(m)
    exact = half // 2
    if d < exact:
        return ret + d
    large = exact + int(math.log(d / exact) / math.log(max_distance / exact) * (half - exact))
    return ret + min(large, half - 1)


# The labelled group and the labelled view witnesses from their definitions (docs/theory.md §11.10), by brute force

def window_neighbours(n: int, w: int, cyclic: bool = False) -> list:
    """N(v) for v = 1..n (index 0 unused): the keys query v sees."""
    out: list = [set()]
    for v in range(1, n + 1):
        if cyclic:
            out.append({(v - 1 + d) % n + 1 for d in range(-w, w + 1)})
        else:
            out.append({u for u in range(1, n + 1) if abs(u - v) <= w})
    return out


def distances_to(nbs: list, n: int, i: int) -> list:
    """d(v → i) in the union graph (arc u → v when v sees u), by BFS backwards from i."""
    dist = [None] * (n + 1)
    dist[i] = 0
    frontier = [i]
    while frontier:
        nxt = []
        for v in frontier:
            for u in nbs[v]:
                if dist[u] is None:
                    dist[u] = dist[v] + 1
                    nxt.append(u)
        frontier = nxt
    return dist


def brute(n: int, heads: list) -> tuple[int, int]:
    """(|G|, least layers) for heads given as (N, label function or None): G keeps every head's arcs and labels;
    the count is D when no σ ∉ G and position i meet the labelled view condition on the ball of radius D − 1 of i,
    else D + 1 (D necessary, D + 1 sufficient: §11.1, §11.2)."""
    union = [set().union(*(nb[v] for nb, _ in heads)) if v else set() for v in range(n + 1)]
    dist = [distances_to(union, n, i) for i in range(n + 1)]
    diameter = max(dist[i][v] for i in range(1, n + 1) for v in range(1, n + 1))

    def keeps(perm, v) -> bool:
        for nb, label in heads:
            if {perm[u] for u in nb[v]} != nb[perm[v]]:
                return False
            if label is not None and any(label(perm[v], perm[u]) != label(v, u) for u in nb[v]):
                return False
        return True

    order, witness = 0, False
    for images in itertools.permutations(range(1, n + 1)):
        perm = (0,) + images
        kept = [keeps(perm, v) for v in range(n + 1)]
        if all(kept[1:]):
            order += 1
            continue
        if not witness:
            witness = any(all(kept[v] for v in range(1, n + 1) if dist[i][v] <= diameter - 1)
                          for i in range(1, n + 1))
    return order, max(diameter, 1) + (1 if witness else 0)


def bucket_label(buckets):
    return lambda q, k: released_bucket(k - q, *buckets)


def labelled_views(text: str) -> tuple:
    """(|G|, layers, least) of a file at a concrete n from the labelled arcs alone: the group engine on the labelled
    arcs and the labelled rooted-view decision of docs/theory.md §11.10 (graphs/views.py), without the closed forms
    or the labelled window theorems (F135, F152) that the derivation applies first."""
    from uapcheck.derive import pattern_spec
    from uapcheck.graphs import analyze_connectivity, build_graph, symmetry_group
    from uapcheck.parse import parse_source
    from uapcheck.rules import pattern as P
    pspec, _, fixed = pattern_spec(parse_source(text, "t.uap"))
    graphs = [build_graph(h.pattern, pspec.tokens, {}) for h in pspec.heads]
    grp = symmetry_group(graphs, P._biases(pspec), pspec.positional)
    diameter = int(analyze_connectivity(graphs).diameter)
    count = P._labelled_count(pspec, graphs, diameter, grp, fixed)
    return grp.order, count.layers, count.exact
