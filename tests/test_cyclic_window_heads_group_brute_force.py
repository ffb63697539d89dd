"""A referee's check of Theorem F153 (docs/theory.md §11.11: the group of several heads whose union is a cyclic
window, Theorem F143's tuples, at a symbolic n and read at a concrete one) against the group computed here from the
heads' arcs: over all of S_n at n ≤ 7, and beyond over the 2n rotations and reflections, which hold the group once
n ≥ 2w + 3 (the union `window(w) cyclic` has the automorphism group D_n there, Theorem F5, and the one-sided union
`offsets {1, …, w} cyclic` the group C_n from 2w + 2, Theorem F6: a σ keeping every head keeps the union). Random
tuples (a fixed seed) whose every offset is cyclic in some head, so that the union is the cyclic window; the group
order the statement at `tokens n` gives at every n ≤ 40 (its range or the lengths listed below it), and the run at
`tokens <n>` at three lengths up to 120. No engine module is imported."""
from __future__ import annotations

import itertools
import random

import pytest
import sympy

import uapcheck

N = sympy.Symbol("n", integer=True, positive=True)


def arcs(head: tuple, n: int) -> frozenset:
    cyclic, plain = head
    out = {(v, (v - 1 + d) % n + 1) for v in range(1, n + 1) for d in cyclic}
    return frozenset(out | {(v, v + d) for v in range(1, n + 1) for d in plain if 1 <= v + d <= n})


def order_over(perms, heads: list, n: int) -> int:
    sets = [arcs(h, n) for h in heads]
    return sum(all(frozenset((s[a], s[b]) for a, b in arc_set) == arc_set for arc_set in sets) for s in perms)


def all_of_s_n(n: int):
    return ((0, *p) for p in itertools.permutations(range(1, n + 1)))


def rotations_and_reflections(n: int):
    return ((0, *((e * (x - 1) + t) % n + 1 for x in range(1, n + 1))) for e in (1, -1) for t in range(n))


def true_order(heads: list, n: int, w: int):
    if n <= 7:
        return order_over(all_of_s_n(n), heads, n)
    return order_over(rotations_and_reflections(n), heads, n) if n >= 2 * w + 3 else None


def text(heads: list) -> str:
    out = ""
    for cyclic, plain in heads:
        parts = [f"offsets {{{', '.join(map(str, sorted(s)))}}}{suffix}"
                 for s, suffix in ((cyclic, " cyclic"), (plain, "")) if s]
        out += "attention {\n  kernel k(x, y) = exp(x . y)\n  pattern " + " + ".join(parts) + "\n}\n"
    return out


def random_tuple(rng: random.Random) -> tuple:
    """(w, heads): each offset ±1 … ±w cyclic in some head, and cyclic, plain or absent in the others; sometimes
    only the positive offsets (the one-sided case (O))."""
    w = rng.choice([1, 2, 2, 3])
    count = rng.choice([2, 2, 3])
    heads = [(set(), set()) for _ in range(count)]
    for d in [d for d in range(-w, w + 1) if d]:
        heads[rng.randrange(count)][0].add(d)
        for cyclic, plain in heads:
            r = rng.random()
            if r < 0.25:
                cyclic.add(d)
            elif r < 0.5:
                plain.add(d)
    if rng.random() < 0.2:
        heads = [({d for d in c if d > 0}, {d for d in p if d > 0}) for c, p in heads]
    return w, [(frozenset(c), frozenset(p - c)) for c, p in heads if c or p]


def order_at(d: dict, n: int):
    for entry in d.get("below_range") or []:
        if entry["n"] == n:
            return (entry.get("group") or {}).get("order")
    group = d.get("group")
    if not group:
        return None
    return int(sympy.sympify(str(group["order"]).replace("·", "*"), locals={"n": N}).subs(N, n))


@pytest.mark.parametrize("seed", range(2))
def test_the_heads_group_at_every_length_is_the_one_on_their_arcs(seed):
    rng = random.Random(15300 + seed)
    seen = {"F153": 0, "lengths": 0, "concrete": 0}
    for _ in range(25):
        w, heads = random_tuple(rng)
        d = uapcheck.check("tokens n\n" + text(heads), "t.uap").to_dict()
        assert d["verdict"] == "UAP" and d["group"], ([(sorted(c), sorted(p)) for c, p in heads], d["verdict"])
        seen["F153"] += any((s.get("certificate") or {}).get("kind") == "cyclic window heads" for s in d["steps"])
        for n in range(3, 41):
            stated, true = order_at(d, n), true_order(heads, n, w)
            if stated is None or true is None:
                continue
            assert stated == true, ([(sorted(c), sorted(p)) for c, p in heads], n, stated, true)
            seen["lengths"] += 1
        for n in rng.sample(range(2 * w + 3, 121), 3):
            c = uapcheck.check(f"tokens {n}\n" + text(heads), "t.uap").to_dict()
            assert c["group"]["order"] == true_order(heads, n, w), ([(sorted(a), sorted(b)) for a, b in heads], n)
            seen["concrete"] += 1
    # F35–F39 (with the mirrored seam) decide most narrow tuples first; F153 the others: both are read here
    assert seen["F153"] >= 2 and seen["lengths"] >= 600, seen
