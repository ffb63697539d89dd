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
"""
from __future__ import annotations

from typing import Sequence

MAX_POINTS = 256


def generated_order(n: int, generators: Sequence[Sequence[int]]) -> int:  # noqa: C901 - one algorithm with its nested helpers
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
