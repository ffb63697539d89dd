"""Per-layer causal patterns with `target causal` (docs/theory.md §21.5) against an independent brute force over S_n on
random families: one or two heads, periodic and sequence lists of 1–3 patterns (`causal`, `causal & window(w)`,
`offsets {…}` with non-positive offsets, `causal & strided(s)`, unions with `sinks(k)` and with each other), with
and without a `layers M` budget. The brute force builds its own arcs, prefix reach and view sets and tries every
permutation against §21.3's condition; it shares no code with graphs/layers_causal.py."""

from __future__ import annotations

import itertools
import math
import random


def pat_arcs(p, n):
    """p: tuple spec -> set of (j,i) 1-based, i attends j (self always)."""
    kind = p[0]
    s = set()
    if kind == "causal":
        s = {(j, i) for i in range(1, n + 1) for j in range(1, i + 1)}
    elif kind == "cwin":
        w = p[1]
        s = {(j, i) for i in range(1, n + 1) for j in range(1, i + 1) if i - j <= w}
    elif kind == "off":
        s = {(i + a, i) for i in range(1, n + 1) for a in p[1] if 1 <= i + a <= n}
    elif kind == "cstr":
        st = p[1]
        s = {(j, i) for i in range(1, n + 1) for j in range(1, i + 1) if (i - j) % st == 0}
    elif kind == "sinks":
        k = p[1]
        s = {(j, i) for i in range(1, n + 1) for j in range(1, n + 1) if j <= k < i}
    elif kind == "union":
        for q in p[1]:
            s |= pat_arcs(q, n)
    s |= {(i, i) for i in range(1, n + 1)}
    return s


def pat_text(p):
    kind = p[0]
    if kind == "causal":
        return "causal"
    if kind == "cwin":
        return f"causal & window({p[1]})"
    if kind == "off":
        return "offsets {" + ", ".join(str(a) for a in p[1]) + "}"
    if kind == "cstr":
        return f"causal & strided({p[1]})"
    if kind == "sinks":
        return f"sinks({p[1]})"
    if kind == "union":
        return " + ".join(pat_text(q) for q in p[1])


def rand_base(rng):
    r = rng.random()
    if r < 0.2:
        return ("causal",)
    if r < 0.45:
        return ("cwin", rng.randint(1, 3))
    if r < 0.8:
        k = rng.randint(1, 3)
        offs = sorted(set(rng.sample(range(-4, 1), k)))
        return ("off", tuple(offs))
    return ("cstr", rng.randint(2, 3))


def rand_pat(rng):
    p = rand_base(rng)
    r = rng.random()
    if r < 0.2:
        return ("union", (p, ("sinks", rng.randint(1, 2))))
    if r < 0.3:
        return ("union", (p, rand_base(rng)))
    return p


def ins_map(arcs, n):
    d = {i: set() for i in range(1, n + 1)}
    for j, i in arcs:
        d[i].add(j)
    return {i: frozenset(v) for i, v in d.items()}


class Fam:
    def __init__(self, heads, n, periodic):
        # heads: list of lists of patterns
        self.n = n
        self.periodic = periodic
        self.heads = heads
        if periodic:
            self.p = math.lcm(*[len(h) for h in heads])
        else:
            self.p = len(heads[0])
        self.cache = {}

    def layer(self, ell):  # list of ins maps per head
        key = (ell - 1) % self.p
        if key not in self.cache:
            self.cache[key] = [ins_map(pat_arcs(h[(ell - 1) % len(h)], self.n), self.n) for h in self.heads]
        return self.cache[key]


def reach_at(F, m):
    n = F.n
    reach = {i: {i} for i in range(1, n + 1)}
    for ell in range(1, m + 1):
        L = F.layer(ell)
        reach = {i: set().union(*(reach[j] for h in L for j in h[i])) for i in range(1, n + 1)}
    return reach


def causal_ok(F):
    for ell in range(1, F.p + 1):
        for h in F.layer(ell):
            for i, s in h.items():
                if any(j > i for j in s):
                    return False
    return True


def witness(F, m):
    n = F.n
    perms = list(itertools.permutations(range(1, n + 1)))
    for i in range(1, n + 1):
        V = {m: {i}}
        for ell in range(m, 0, -1):
            V[ell - 1] = set(V[ell]).union(*(h[v] for h in F.layer(ell) for v in V[ell]))
        conds = [(ell, hi, v) for ell in range(1, m + 1) for hi in range(len(F.heads)) for v in V[ell]]
        for perm in perms:
            s = (None,) + perm
            if all(s[k] == k for k in range(1, i + 1)):
                continue
            ok = True
            for ell, hi, v in conds:
                h = F.layer(ell)[hi]
                if frozenset(s[u] for u in h[v]) != h[s[v]]:
                    ok = False
                    break
            if ok:
                return (i, perm)
    return None


def brute(F, top):
    """returns list per depth m: 'unreached' / 'witness' / 'ok'"""
    out = []
    for m in range(1, top + 1):
        r = reach_at(F, m)
        if any(r[i] != set(range(1, i + 1)) for i in range(1, F.n + 1)):
            out.append("unreached")
            continue
        out.append("witness" if witness(F, m) else "ok")
    return out


import pytest  # noqa: E402

import uapcheck  # noqa: E402


def text_of(heads, n, periodic, budget=None):
    kind = "periodic" if periodic else "sequence"
    blocks = "".join(
        f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {kind} {{ {', '.join(pat_text(p) for p in h)} }}\n}}\n"
        for h in heads
    )
    return blocks + f"tokens {n}\ntarget causal\n" + ("" if budget is None else f"layers {budget}\n")


def family(seed):
    rng = random.Random(seed)
    periodic = rng.random() < 0.6
    nh = 1 if rng.random() < 0.65 else 2
    n = rng.randint(2, 5)
    length = rng.randint(1, 3)
    heads = [[rand_pat(rng) for _ in range(rng.randint(1, 3) if periodic else length)] for _ in range(nh)]
    budget = rng.randint(1, 5) if periodic and rng.random() < 0.3 else None
    return heads, n, periodic, budget


@pytest.mark.parametrize("seed", range(80))
def test_random_per_layer_families_agree_with_the_brute_force(seed):
    heads, n, periodic, budget = family(seed)
    r = uapcheck.check(text_of(heads, n, periodic, budget), "t.uap")
    fam = Fam(heads, n, periodic)
    assert causal_ok(fam)
    depth = budget if budget is not None else (None if periodic else fam.p)
    if depth is None:  # a periodic list: the least m, or a reach that stops growing
        top = max(14, (r.layers or 0) + 1)
        b = brute(fam, top)
        if "ok" in b:
            truth = ("UAP", b.index("ok") + 1)
        else:
            reach = reach_at(fam, n * fam.p + 2 * fam.p)
            assert any(reach[i] != set(range(1, i + 1)) for i in range(1, n + 1)), "witness at every depth tried"
            truth = ("NOT-UAP", None)
    else:
        b = brute(fam, depth)
        truth = ("UAP", b.index("ok") + 1) if "ok" in b else ("NOT-UAP", None)
    got = (r.verdict, r.layers if r.verdict == "UAP" else None)
    assert got == truth, (text_of(heads, n, periodic, budget), b)
    if r.verdict == "UAP":
        assert r.target.least is True
