"""The order of a permutation group on at most 256 points from its generators: the deterministic
Schreier–Sims algorithm (Sims 1970; Holt, Eick, O'Brien, Handbook of Computational Group Theory,
§4.4.2), exact, with no random choices.

The proof kernel's group certificates check a stated order with it (certificates.Generators,
layer_certificates.LayerGenerators). It computes what SymPy's `PermutationGroup.order()` does, several
times faster: a permutation is a 256-byte translation table (points ≥ n fixed), so composing two is
one `bytes.translate` in C. `uapcheck verify` keeps SymPy's Schreier–Sims as its second, independent
implementation (uapcheck/verifier/groups.py), and tests/test_schreier_sims.py compares the two.

The algorithm keeps a base b_0, b_1, … and strong generators S_i (those fixing b_0 … b_{i−1}, so
S_0 ⊇ S_1 ⊇ …) with the orbit Δ_i of b_i under ⟨S_i⟩ and, for each δ ∈ Δ_i, an element u_δ of ⟨S_i⟩
with u_δ(b_i) = δ. Level i is complete when every Schreier generator u_β · s · u_{s(β)}⁻¹ (β ∈ Δ_i,
s ∈ S_i), which fixes b_i, sifts to the identity through the levels below; Schreier's lemma says these
generate the stabiliser of b_i in ⟨S_i⟩, so when every level is complete ⟨S_{i+1}⟩ is that
stabiliser and |G| = Π |Δ_i| (orbit–stabiliser). A generator that does not sift is added to the
levels it fixes, and checking resumes there. Transversal elements are never replaced once made, so a
Schreier generator checked once stays checked (only new pairs (β, s) are sifted later); each element
added lies in G, so the product of the orbit sizes never exceeds |G|.

Two exact reductions come first (docs/theory.md §2.2, "The order of a generated group"):
- *Orbits.* When every generator moves points of one orbit of G only, generators on different orbits
  have disjoint supports and commute, so G is the direct product of the groups its generators make on
  each orbit, and |G| is the product of their orders, each computed on the orbit's own points.
- *Transpositions.* On an orbit O whose generators include transpositions, every conjugate
  g (a b) g⁻¹ = (g(a) g(b)) of one lies in G; those pairs are the orbit of the generators'
  transpositions under the generators. Read as edges they split O into components C_1, …, C_k, which
  G permutes (it permutes the edges), and they generate N = Sym(C_1) × … × Sym(C_k) ⊆ G. An element
  of G fixing every component lies in N, so N is the kernel of G's action on the components and
  |G| = Π |C_i|! · |the group the generators induce on the k components| (k < |O|, computed the same
  way). Otherwise Schreier–Sims decides.
A large symmetric group then costs a walk over pairs, not one Schreier generator per base point and
strong generator (S_198 took a minute).
"""
from __future__ import annotations

import math
from typing import Sequence

MAX_POINTS = 256


def generated_order(n: int, generators: Sequence[Sequence[int]]) -> int:
    """|⟨generators⟩| for permutations of 1..n given as 1-based image lists (n ≤ 256)."""
    if not 0 <= n <= MAX_POINTS:
        raise ValueError(f"at most {MAX_POINTS} points, not {n}")
    tail = bytes(range(n, MAX_POINTS))  # the points ≥ n stay put
    identity = bytes(range(MAX_POINTS))
    gens = []
    for g in generators:
        if len(g) != n or sorted(g) != list(range(1, n + 1)):
            raise ValueError("not a permutation of 1..n")
        table = bytes(x - 1 for x in g) + tail
        if table != identity:
            gens.append(table)
    if not gens:
        return 1
    return _order_by_orbits(n, gens)


def _root(parent, x: int) -> int:
    """x's root in a union-find forest (`parent`, a list or a dict), halving the path on the way."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _orbits(n: int, gens: Sequence[bytes]) -> list[int]:
    """The orbit of each point 0..n−1 under the generators, as the least point of its orbit."""
    parent = list(range(n))
    for g in gens:
        for x in range(n):
            if g[x] != x:
                a, b = _root(parent, x), _root(parent, g[x])
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return [_root(parent, x) for x in range(n)]


def _order_by_orbits(n: int, gens: list[bytes]) -> int:
    """|⟨gens⟩| as the product over orbits when each generator moves one orbit's points only."""
    orbit_of = _orbits(n, gens)
    by_orbit: dict[int, list[bytes]] = {}
    for g in gens:
        moved = {orbit_of[x] for x in range(n) if g[x] != x}
        if len(moved) != 1:  # a generator moving two orbits at once: no product, the whole group
            return _schreier_sims_order(n, gens)
        by_orbit.setdefault(moved.pop(), []).append(g)
    order = 1
    for label, orbit_gens in by_orbit.items():
        points = [x for x in range(n) if orbit_of[x] == label]
        order *= _orbit_order(points, orbit_gens)
    return order


def _orbit_order(points: list[int], gens: list[bytes]) -> int:
    """The order of the group the generators make on one of their orbits (its points)."""
    m = len(points)
    root = _component_roots(points, gens)
    if root is not None:
        components: dict[int, int] = {}  # each component's least point, with its size
        for x in points:
            components[root[x]] = components.get(root[x], 0) + 1
        order = 1
        for size in components.values():
            order *= math.factorial(size)
        if len(components) == 1:
            return order
        # G permutes the components; the kernel of that action is the product of their symmetric groups
        label = {c: i for i, c in enumerate(components)}
        induced = [[label[root[g[c]]] + 1 for c in components] for g in gens]
        return order * generated_order(len(components), induced)
    if points == list(range(m)):  # the other points, all ≥ m, are fixed already
        return _schreier_sims_order(m, gens)
    index = {x: i for i, x in enumerate(points)}  # the orbit's points renumbered 0..m−1
    tail = bytes(range(m, MAX_POINTS))
    local = [bytes(index[g[x]] for x in points) + tail for g in gens]
    return _schreier_sims_order(m, local)


def _component_roots(points: list[int], gens: list[bytes]) -> dict[int, int] | None:
    """Each point's component (its least point) in the graph of the transpositions' conjugates: the
    orbit of each transposition generator's pair under the generators."""
    seeds = []
    for g in gens:
        moved = [x for x in points if g[x] != x]
        if len(moved) == 2:
            seeds.append((moved[0], moved[1]))
    if not seeds:
        return None
    parent = {x: x for x in points}
    components = len(points)
    seen = set(seeds)
    frontier = list(seeds)
    while frontier and components > 1:
        a, b = frontier.pop()
        ra, rb = _root(parent, a), _root(parent, b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
            components -= 1
        for g in gens:
            c, d = g[a], g[b]
            pair = (c, d) if c < d else (d, c)
            if pair not in seen:
                seen.add(pair)
                frontier.append(pair)
    return {x: _root(parent, x) for x in points}


def _schreier_sims_order(n: int, gens: list[bytes]) -> int:  # noqa: C901 - one algorithm with its nested helpers
    """|⟨gens⟩| by the deterministic Schreier–Sims algorithm (the tables fix every point ≥ n)."""
    identity = bytes(range(MAX_POINTS))
    base: list[int] = []
    strong: list[list[bytes]] = []            # strong[i]: generators fixing base[:i]
    transversal: list[dict[int, tuple[bytes, bytes]]] = []  # δ -> (u_δ, u_δ⁻¹)
    orbit: list[list[int]] = []               # the points of each transversal, in the order found
    checked: list[set[tuple[int, int]]] = []  # (β, index of s in strong[i]) already sifted

    def inverse(p: bytes) -> bytes:
        return bytes.maketrans(p, identity)  # entry p[i] is i

    def close_orbit(i: int) -> None:
        t, points, k = transversal[i], orbit[i], 0
        while k < len(points):
            u = t[points[k]][0]
            for s in strong[i]:
                delta = s[points[k]]
                if delta not in t:
                    v = u.translate(s)  # u, then s
                    t[delta] = (v, inverse(v))
                    points.append(delta)
            k += 1

    def new_level(g: bytes) -> None:
        b = next(x for x in range(n) if g[x] != x)
        base.append(b)
        strong.append([])
        transversal.append({b: (identity, identity)})
        orbit.append([b])
        checked.append(set())

    def sift(g: bytes, start: int) -> tuple[bytes, int]:
        for i in range(start, len(base)):
            entry = transversal[i].get(g[base[i]])
            if entry is None:
                return g, i
            g = g.translate(entry[1])  # g, then u⁻¹: now g fixes base[i]
        return g, len(base)

    for g in gens:
        if all(g[b] == b for b in base):
            new_level(g)
    for i in range(len(base)):
        strong[i] = [g for g in gens if all(g[b] == b for b in base[:i])]
        close_orbit(i)
    i = len(base) - 1
    while i >= 0:
        t, done, resume = transversal[i], checked[i], -1
        for beta in orbit[i]:
            u = t[beta][0]
            for k, s in enumerate(strong[i]):
                if (beta, k) in done:
                    continue
                done.add((beta, k))
                h = u.translate(s).translate(t[s[beta]][1])  # u_β, then s, then u_{s(β)}⁻¹
                if h == identity:
                    continue
                h, j = sift(h, i + 1)
                if h == identity:
                    continue
                if j == len(base):
                    new_level(h)
                for level in range(i + 1, j + 1):
                    strong[level].append(h)
                    close_orbit(level)
                resume = j
                break
            if resume >= 0:
                break
        i = i - 1 if resume < 0 else resume
    order = 1
    for t in transversal:
        order *= len(t)
    return order
