"""A referee's check of Theorems F123 (§21.8, per-layer causal interval heads at a symbolic n) and F128 (§21.9,
heads with attention sinks), against a brute-force decision written here from the definitions of docs/theory.md
§21.1, §21.3 and §21.5 alone (no engine code is imported; the checker is called through `uapcheck.check`).

The definitions, as implemented below:
- head (w, k): N(v) = [max(1, v − w), v] ∪ ([1, k] when v > k), w ∈ ℕ ∪ {∞} (§21.6, §21.9);
- reach: In_0(i) = {i}, In_ℓ(i) = ∪_{u ∈ N_ℓ(i)} In_{ℓ−1}(u) (§21.1); D_c the least m with In_m(i) = [1, i] for all i;
- views: V_m = {i}, V_{ℓ−1} = ∪_{v ∈ V_ℓ} N_ℓ(v) (§21.3);
- a causal view witness at depth m: (i, σ) with σ(N_{ℓ,h}(v)) = N_{ℓ,h}(σ v) for every ℓ ≤ m, head h, v ∈ V_ℓ, and
  σ not the identity on [1, i] (§21.5), searched over every injective map of V_0(i) into [n] (the condition reads σ
  on V_0 only), by backtracking, and cross-checked against a plain loop over S_n at n ≤ 6;
- the least count: the first m ≥ max(D_c, 1) without a witness; NOT-UAP when the network's layers run out first.
"""
from __future__ import annotations

import itertools
import math
import random
import re

import pytest
import sympy

import uapcheck
from sample_sizes import sample_size  # tests/ is on sys.path
from uapcheck.errors import UapError

INF = math.inf


# ---------------------------------------------------------------------------------------------
# the brute force (definitions only)

def nb(head, v):
    w, k = head
    lo = 1 if w == INF else max(1, v - w)
    s = set(range(lo, v + 1))
    if k and v > k:
        s |= set(range(1, k + 1))
    return frozenset(s)


class Family:
    """blocks: one list of per-layer heads (w, k) per attention block; kind 'periodic' or 'sequence'."""

    def __init__(self, blocks, kind, budget=None):
        self.blocks, self.kind, self.budget = blocks, kind, budget
        self.period = math.lcm(*(len(b) for b in blocks))

    def depth(self):
        d = INF if self.kind == "periodic" else len(self.blocks[0])
        return d if self.budget is None else min(d, self.budget)

    def heads(self, layer):
        return sorted({b[(layer - 1) % len(b)] for b in self.blocks})


def reach_depth(fam, n):
    """D_c, or None when no depth the network has reaches every prefix."""
    ins = {i: frozenset([i]) for i in range(1, n + 1)}
    full = {i: frozenset(range(1, i + 1)) for i in range(1, n + 1)}
    if ins == full:
        return 0
    still = 0
    layer = 0
    while layer < fam.depth():
        layer += 1
        hs = fam.heads(layer)
        new = {i: frozenset().union(*(ins[u] for h in hs for u in nb(h, i))) for i in ins}
        if new == full:
            return layer
        still = still + 1 if new == ins else 0
        if still >= fam.period:
            return None
        ins = new
    return None


def views(fam, i, m):
    V = {m: frozenset([i])}
    for layer in range(m, 0, -1):
        V[layer - 1] = frozenset().union(*(nb(h, v) for h in fam.heads(layer) for v in V[layer]))
    return V


def witness_at_root(fam, n, i, m):
    """A σ meeting the condition at (i, m), not the identity on [1, i], by backtracking over injective maps of
    V_0 = [1, i] into [n] (m ≥ D_c), checking each (ℓ, h, v) as soon as σ is known on N(v) ∪ {v} ⊆ [1, v]."""
    V = views(fam, i, m)
    assert V[0] == frozenset(range(1, i + 1))
    cons = {v: set() for v in range(1, i + 1)}
    for layer in range(1, m + 1):
        for v in V[layer]:
            cons[v].update(fam.heads(layer))
    sigma = {}
    used = set()

    def go(v):
        if v > i:
            return any(sigma[u] != u for u in sigma)
        for t in range(1, n + 1):
            if t in used:
                continue
            sigma[v] = t
            if all(frozenset(sigma[u] for u in nb(h, v)) == nb(h, t) for h in cons[v]):
                used.add(t)
                if go(v + 1):
                    return True
                used.discard(t)
            del sigma[v]
        return False

    return go(1)


def witness_by_permutations(fam, n, m):
    """The definition verbatim: every σ ∈ S_n, every root (n ≤ 6)."""
    for i in range(1, n + 1):
        V = views(fam, i, m)
        for perm in itertools.permutations(range(1, n + 1)):
            s = dict(zip(range(1, n + 1), perm))
            if all(s[u] == u for u in range(1, i + 1)):
                continue
            if all(frozenset(s[u] for u in nb(h, v)) == nb(h, s[v])
                   for layer in range(1, m + 1) for h in fam.heads(layer) for v in V[layer]):
                return True
    return False


def has_witness(fam, n, m):
    return any(witness_at_root(fam, n, i, m) for i in range(1, n + 1))


def least_count(fam, n):
    """('UAP', m) with m the least count, ('NOT-UAP', why), or ('?', None) past the periodic search bound."""
    dc = reach_depth(fam, n)
    if dc is None:
        return ("NOT-UAP", "unreached")
    m = max(dc, 1)
    bound = dc + 3 * fam.period + 8
    while True:
        if m > fam.depth():
            return ("NOT-UAP", "witness at the whole depth")
        if m > bound:
            return ("?", None)
        if not has_witness(fam, n, m):
            return ("UAP", m)
        m += 1


# ---------------------------------------------------------------------------------------------
# files

def head_text(head, rng):
    w, k = head
    if w == "w":
        base = "causal & window(w)"
    elif w == INF:
        base = "causal"
    elif w == 0:
        base = "offsets {0}"
    else:
        choice = rng.randint(0, 2) if k == 0 else 0
        if choice == 0:
            base = f"causal & window({w})"
        elif choice == 1:
            base = "offsets {" + ", ".join(str(-d) for d in range(w, -1, -1)) + "}"
        else:
            a = rng.randint(1, w)
            base = f"causal & window({a}) + offsets {{" + ", ".join(str(-d) for d in range(w, 0, -1)) + "}"
    return base + (f" + sinks({k})" if k else "")


def file_text(fam, rng, tokens=None, param=None):
    out = f"param w integer >= {param}\n" if param is not None else ""
    for b in fam.blocks:
        out += ("attention {\n  kernel k(x, y) = exp(x . y)\n  pattern "
                f"{fam.kind} {{ {', '.join(head_text(h, rng) for h in b)} }}\n}}\n")
    if tokens is not None:
        out += f"tokens {tokens}\n"
    out += "target causal\n"
    if fam.budget is not None:
        out += f"layers {fam.budget}\n"
    return out


def with_w(fam, w):
    return Family([[(w if h[0] == "w" else h[0], h[1]) for h in b] for b in fam.blocks], fam.kind, fam.budget)


def run(src):
    """The checker's verdict as JSON; bad input as ERROR (any other exception fails the test: a traceback)."""
    try:
        return uapcheck.check(src, "t.uap").to_dict()
    except UapError as e:
        return {"verdict": "ERROR", "error": str(e)}


def assert_sound(d, mine, where):
    """The checker's concrete verdict against the brute force: a UAP must be one, its count never below the least,
    and a count flagged least must be the least."""
    v = d["verdict"]
    if v == "UAP":
        assert mine[0] in ("UAP", "?"), (where, d["layers"], mine)
        if mine[0] == "UAP":
            assert d["layers"] >= mine[1], (where, d["layers"], mine)
            if d.get("least"):
                assert d["layers"] == mine[1], (where, d["layers"], mine)
    elif v == "NOT-UAP":
        assert mine[0] in ("NOT-UAP", "?"), (where, mine)
    return v


# ---------------------------------------------------------------------------------------------
# random families

def random_interval_family(rng, param=False, sinks=False, kinds=("periodic", "periodic", "sequence")):
    kind = rng.choice(kinds)
    nblocks = rng.choice([1, 1, 1, 2])
    length = rng.randint(1, 5)
    widths = [0, INF, INF, "w", "w", "w", 2] if param else [0, 1, 1, 2, 3, INF, INF]

    def head():
        w = rng.choice(widths)
        k = rng.choice([0, 0, 1, 2, 3]) if sinks and w != "w" else 0
        return (w, k)

    blocks = [[head() for _ in range(length if kind == "sequence" else rng.randint(1, 4))]
              for _ in range(nblocks)]
    budget = rng.randint(1, 7) if rng.random() < 0.15 else None
    return Family(blocks, kind, budget)


def form_count(step, n, wval):
    """The count F123 states at n: its pieces below the start, C from the start on."""
    w = sympy.Symbol("w", integer=True, positive=True)
    nn = sympy.Symbol("n", integer=True, positive=True)
    loc = {"w": w, "n": nn}

    def ev(s, nv):
        return sympy.sympify(str(s), locals=loc).subs({nn: nv} if wval is None else {w: wval, nn: nv})

    facts = step["facts"]
    start = ev(facts["from"], n)
    if n >= start:  # a count growing with n (finite widths, Theorem F137) is a formula in n
        return facts["layers"] if isinstance(facts["layers"], int) else int(ev(facts["layers"], n))
    if not facts["form pieces"]:  # a param among finite widths (F137): the lengths below 2u are not stated
        return None
    hits = []
    for p in facts["form pieces"]:
        m = re.fullmatch(r"Piece\(lower=(.*), upper=(.*), layers=(.*)\)", str(p))
        assert m, p
        lo, hi = ev(m.group(1), n), ev(m.group(2), n)
        if lo <= n < hi:
            hits.append(int(ev(m.group(3), n)))
    assert len(hits) == 1, (facts, n, wval, hits)
    return hits[0]


def step(d, rule):
    return next((s for s in d.get("steps", []) if s["rule"] == rule), None)


def stated_layers(d, n: int):
    """The verdict's count at n: an integer, or a formula in n (Theorems F137 and F146 state a count growing with n)."""
    lay = d.get("layers")
    if lay is None or isinstance(lay, int):
        return lay
    nn = sympy.Symbol("n", integer=True, positive=True)
    return int(sympy.sympify(str(lay), locals={"n": nn}).subs({nn: n}))


# ---------------------------------------------------------------------------------------------
# tests

def test_the_backtracking_search_is_the_permutation_definition():
    rng = random.Random(901)
    checked = 0
    for _ in range(60):
        fam = random_interval_family(rng, sinks=rng.random() < 0.5, kinds=("periodic",))
        for n in range(1, 6):
            dc = reach_depth(fam, n)
            if dc is None:
                continue
            for m in range(max(dc, 1), max(dc, 1) + 3):
                assert has_witness(fam, n, m) == witness_by_permutations(fam, n, m), (fam.blocks, n, m)
                checked += 1
    assert checked >= 300


def test_the_brute_force_on_known_values():
    gemma2 = Family([[(3, 0), (INF, 0)]], "periodic")
    assert [least_count(gemma2, n) for n in (1, 2, 3, 7)] == [("UAP", 1), ("UAP", 1), ("UAP", 2), ("UAP", 2)]
    f = Family([[(INF, 0), (1, 0)]], "periodic")  # §21.5: 3 layers at n = 12 (checked here at n ≥ 4), 2 at n = 3
    assert least_count(f, 3) == ("UAP", 2) and least_count(f, 6) == ("UAP", 3)
    assert least_count(Family([[(INF, 0), (1, 0)]], "sequence"), 6)[0] == "NOT-UAP"


def test_f123_symbolic_forms_against_the_brute_force_and_concrete_runs():
    """Random periodic and finite lists of interval heads at a symbolic n: the stated count at every n ≤ 7 equals
    the brute force; at random n ≤ 60 and one n in 1,025…5,000 it equals the checker's own run with `tokens n`."""
    rng = random.Random(1230)
    seen = {"decided": 0, "brute": 0, "concrete": 0, "other": 0}
    for _ in range(160):
        fam = random_interval_family(rng)
        d = run(file_text(fam, random.Random(rng.random())))
        st = step(d, "SEQ-CAUSAL-FORM")
        if d["verdict"] != "UAP" or st is None:
            seen["other"] += 1
            continue
        seen["decided"] += 1
        assert st["facts"].get("least", True)
        for n in range(1, 8):
            mine = least_count(fam, n)
            assert mine == ("UAP", form_count(st, n, None)), (fam.blocks, fam.kind, fam.budget, n, mine)
            seen["brute"] += 1
        for n in [*rng.sample(range(2, 61), 3), rng.randint(1025, 5000)]:
            c = run(file_text(fam, random.Random(rng.random()), tokens=n))
            assert (c["verdict"], c["layers"]) == ("UAP", form_count(st, n, None)), (fam.blocks, n, c["verdict"])
            seen["concrete"] += 1
    print(seen)
    assert seen["decided"] >= 40 and seen["brute"] >= 280, seen


@pytest.mark.parametrize("low", [1, 2, 3])
def test_f123_param_width_against_the_brute_force(low):
    """`param w integer >= L`, L = 1, 2, 3 (w = 1 is where Theorem F123 (c) needs w ≥ 2 for a head of width w in
    layer c₁): the stated pieces and start at w = L, L + 1, L + 2 against the brute force at every n ≤ 11, and
    against a concrete run at one n ≤ 40."""
    rng = random.Random(1231 + low)
    seen = {"decided": 0, "brute": 0, "concrete": 0, "other": 0}
    for _ in range(110):
        fam = random_interval_family(rng, param=True)
        if not any(h[0] == "w" for b in fam.blocks for h in b):
            continue
        d = run(file_text(fam, random.Random(rng.random()), param=low))
        st = step(d, "SEQ-CAUSAL-FORM")
        if d["verdict"] != "UAP" or st is None:
            seen["other"] += 1
            continue
        seen["decided"] += 1
        for wv in (low, low + 1, low + 2):
            fw = with_w(fam, wv)
            for n in range(1, 12 if wv == low else 8):
                stated = form_count(st, n, wv)
                if stated is None:  # below F137's range with a param width: nothing is stated
                    continue
                assert least_count(fw, n) == ("UAP", stated), (fam.blocks, fam.kind, wv, n)
                seen["brute"] += 1
            n = rng.randint(8, 40)
            if form_count(st, n, wv) is None:
                continue
            c = run(file_text(fw, random.Random(rng.random()), tokens=n))
            assert (c["verdict"], c.get("layers")) == ("UAP", form_count(st, n, wv)), (fam.blocks, wv, n)
            seen["concrete"] += 1
    print(seen)
    assert seen["decided"] >= 8, seen


def test_f128_concrete_runs_against_the_brute_force():
    """Random lists with sink heads at concrete n ≤ 10: the checker's verdict is sound against the brute force."""
    rng = random.Random(1280)
    seen = {"UAP": 0, "NOT-UAP": 0, "other": 0, "least": 0}
    for _ in range(140):
        fam = random_interval_family(rng, sinks=True)
        kmax = max(h[1] for b in fam.blocks for h in b)
        for n in sorted(rng.sample(range(max(kmax, 1), 11), 3)):
            d = run(file_text(fam, random.Random(rng.random()), tokens=n))
            if d["verdict"] not in ("UAP", "NOT-UAP"):
                seen["other"] += 1
                continue
            seen[assert_sound(d, least_count(fam, n), (fam.blocks, fam.kind, fam.budget, n))] += 1
            seen["least"] += bool(d.get("least"))
    print(seen)
    assert seen["UAP"] >= 100 and seen["NOT-UAP"] >= 10, seen


def test_f128_symbolic_statements_against_the_brute_force_and_concrete_runs():
    """F128 (e): a window with sinks before a global layer at a symbolic n. The range's count and each length below
    it against the brute force at n ≤ 7, and against concrete runs up to 40 and at one n in 1,025…1,100."""
    rng = random.Random(1281)
    seen = {"decided": 0, "brute": 0, "concrete": 0}
    for _ in range(sample_size(100, 200)):  # 44 files decided in the normal run's 100, 72 in all 200
        fam = random_interval_family(rng, sinks=True, kinds=("periodic",))
        if not any(h[1] for b in fam.blocks for h in b):
            continue
        d = run(file_text(fam, random.Random(rng.random())))
        st = step(d, "SEQ-CAUSAL-SINKS")
        if d["verdict"] != "UAP" or st is None:
            continue
        seen["decided"] += 1
        start = st["facts"]["from"]
        kmax = max(h[1] for b in fam.blocks for h in b)
        verdict = step(d, "TGT-VERDICT")["evidence"]
        if "range" not in verdict:  # one count at every length the file allows
            assert "below_range" not in verdict
            start = 1
        below = {e["n"]: e for e in verdict.get("below_range", [])}
        assert set(below) == set(range(1, start)), (fam.blocks, start, sorted(below))
        for n in range(1, 8):
            if n < kmax and n not in below:  # not a length the file allows
                continue
            mine = least_count(fam, n)
            if n >= start:
                assert mine == ("UAP", stated_layers(d, n)), (fam.blocks, n, mine, d["layers"])
            else:
                e = below[n]
                if not e["allowed"]:
                    assert n < kmax, (fam.blocks, n, e)
                    continue
                assert e["verdict"] == "UAP" and mine[0] == "UAP", (fam.blocks, n, e, mine)
                assert e["layers"] >= mine[1] and (not e["least"] or e["layers"] == mine[1]), (fam.blocks, n, e, mine)
            seen["brute"] += 1
        first = max(start, kmax)
        for n in (first, first + rng.randint(1, 20), rng.randint(1025, 1100)):
            if 40 < n <= 1024:
                continue
            c = run(file_text(fam, random.Random(rng.random()), tokens=n))
            assert (c["verdict"], c.get("layers")) == ("UAP", stated_layers(d, n)), \
                (fam.blocks, n, c["verdict"], c.get("layers"))
            seen["concrete"] += 1
    print(seen)
    assert seen["decided"] >= 15, seen


# ---------------------------------------------------------------------------------------------
# boundaries

@pytest.mark.parametrize("blocks, kind, budget", [
    ([[(3, 0), (INF, 0)]], "periodic", None),
    ([[(0, 0), (2, 0), (INF, 0)]], "periodic", None),
    ([[(0, 0), (INF, 0)]], "periodic", None),
    ([[(2, 0), (2, 0), (INF, 0)]], "periodic", 2),
    ([[(2, 0), (INF, 0)]], "sequence", None),
    ([[(1, 0)]], "sequence", None),
    ([[(INF, 0), (1, 0)]], "periodic", 2),
    ([[(2, 1), (INF, 0)]], "periodic", None),
    ([[(1, 2), (1, 0), (INF, 0)]], "periodic", 2),
])
def test_boundaries_at_n_1_2_3_widths_0_and_budgets(blocks, kind, budget):
    fam = Family(blocks, kind, budget)
    rng = random.Random(7)
    kmax = max(h[1] for b in blocks for h in b)
    for n in range(max(kmax, 1), 8):
        d = run(file_text(fam, rng, tokens=n))
        assert d["verdict"] in ("UAP", "NOT-UAP"), (blocks, n, d["verdict"])
        assert_sound(d, least_count(fam, n), (blocks, n))


@pytest.mark.parametrize("k", [3, 4])
def test_sinks_at_or_above_n(k):
    """k = n sinks: no query is after the sinks, the head is its window; k > n: not a length the file allows."""
    fam = Family([[(1, k), (INF, 0)]], "periodic")
    d = run(file_text(fam, random.Random(1), tokens=3))
    if k == 3:
        assert (d["verdict"], d["layers"]) == ("UAP", least_count(fam, 3)[1])
    else:
        assert d["verdict"] == "ERROR" and "sinks" in d["error"], d


# ---------------------------------------------------------------------------------------------
# above the rooted views' lengths: the reach and transposition witnesses on bitsets

def mask(lo, hi):
    """positions lo..hi as bits."""
    return 0 if hi < lo else ((1 << (hi + 1)) - (1 << lo))


def big_reach_depth(fam, n, limit):
    """D_c by the recursion of §21.1 on bitsets (prefix ORs for the causal mask and the sinks)."""
    ins = [0] + [1 << i for i in range(1, n + 1)]
    full = [mask(1, i) for i in range(n + 1)]
    if n == 1:
        return 0
    for layer in range(1, limit + 1):
        pre = [0] * (n + 1)
        for i in range(1, n + 1):
            pre[i] = pre[i - 1] | ins[i]
        new = [0] * (n + 1)
        for i in range(1, n + 1):
            acc = 0
            for w, k in fam.heads(layer):
                if w == INF:
                    acc |= pre[i]
                else:
                    for u in range(max(1, i - w), i + 1):
                        acc |= ins[u]
                if k and i > k:
                    acc |= pre[k]
            new[i] = acc
        ins = new
        if ins == full:
            return layer
    return None


def big_views(fam, i, m):
    V = {m: 1 << i}
    for layer in range(m, 0, -1):
        acc = 0
        vs = V[layer]
        for w, k in fam.heads(layer):
            top = vs.bit_length() - 1
            if w == INF:
                acc |= mask(1, top)
            else:
                v = vs
                while v:
                    low = v & -v
                    p = low.bit_length() - 1
                    acc |= mask(max(1, p - w), p)
                    v ^= low
            if k and top > k:
                acc |= mask(1, k)
        V[layer - 1] = acc | vs
    return V


def big_nb(head, v):
    w, k = head
    return mask(1 if w == INF else max(1, v - w), v) | (mask(1, k) if k and v > k else 0)


def readers(head, a, n):
    """the positions v whose N(v) holds a."""
    w, k = head
    return mask(a, n if w == INF else min(n, a + w)) | (mask(k + 1, n) if k and a <= k else 0)


def swap_meets_condition(fam, n, V, m, a, b):
    """σ = (a b) meets §21.3's condition at the views V (depth m), by the definition: for v ∉ {a, b}, σ(N(v)) = N(v)
    iff N(v) holds both or neither; for v ∈ {a, b}, σ(N(v)) must be N(σ v)."""
    def swapped(bits):
        ha, hb = bits >> a & 1, bits >> b & 1
        return bits if ha == hb else bits ^ (1 << a) ^ (1 << b)

    for layer in range(1, m + 1):
        for h in fam.heads(layer):
            odd = (readers(h, a, n) ^ readers(h, b, n)) & ~((1 << a) | (1 << b))
            if odd & V[layer]:
                return False
            for v, t in ((a, b), (b, a)):
                if V[layer] >> v & 1 and swapped(big_nb(h, v)) != big_nb(h, t):
                    return False
    return True


def swap_witness(fam, n, m, roots):
    """a transposition meeting the condition at some root, not the identity on its prefix (every adjacent pair
    and every pair among the first and last 10 positions)."""
    ends = {p for p in [*range(1, 11), *range(n - 9, n + 1)] if 1 <= p <= n}
    pairs = {(j, j + 1) for j in range(1, n)} | {(a, b) for a in ends for b in ends if a < b}
    for i in roots:
        V = big_views(fam, i, m)
        for a, b in sorted(pairs):
            if a <= i and swap_meets_condition(fam, n, V, m, a, b):
                return i, (a, b)
    return None


def test_the_bitset_swaps_agree_with_the_brute_force_at_small_n():
    rng = random.Random(77)
    for _ in range(40):
        fam = random_interval_family(rng, sinks=True, kinds=("periodic",))
        for n in range(2, 8):
            dc = reach_depth(fam, n)
            assert big_reach_depth(fam, n, 40) == dc
            if dc is None:
                continue
            for m in (max(dc, 1), max(dc, 1) + 1):
                found = swap_witness(fam, n, m, range(1, n + 1))
                if found:
                    assert has_witness(fam, n, m), (fam.blocks, n, m, found)


def test_f128_above_the_views_no_transposition_defeats_the_count():
    """At 1,025 ≤ n ≤ 1,100 (F128's concrete decision): D_c as stated; no transposition meets the condition at the
    stated count (a witness there would make it insufficient); a count flagged least has D_c equal to it or a
    transposition witness one layer below."""
    rng = random.Random(1282)
    seen = {"checked": 0, "least by D_c": 0, "least by a swap": 0, "least unconfirmed": 0}
    for _ in range(sample_size(75, 120)):  # 37 files checked in the normal run's 75, 66 in all 120
        fam = random_interval_family(rng, sinks=True, kinds=("periodic",))
        fam = Family([[(h[0] if h[0] == INF else min(h[0], 3), h[1]) for h in b] for b in fam.blocks], fam.kind)
        n = rng.randint(1025, 1100)
        d = run(file_text(fam, random.Random(1), tokens=n))
        st = step(d, "SEQ-CAUSAL-SINKS")
        if d["verdict"] != "UAP" or st is None or d["layers"] > 8:
            continue
        m = d["layers"]
        dc = big_reach_depth(fam, n, m)
        assert dc is not None and dc <= m, (fam.blocks, n, m, dc)
        kk = sorted({h[1] for b in fam.blocks for h in b if h[1]})
        roots = sorted({n, n - 1, n // 2, *(k for k in kk), *(k + 1 for k in kk), *(k + 2 for k in kk)})
        assert swap_witness(fam, n, m, roots) is None, (fam.blocks, n, m)
        seen["checked"] += 1
        if d["least"]:
            if max(dc, 1) == m:
                seen["least by D_c"] += 1
            elif swap_witness(fam, n, m - 1, [n]):
                seen["least by a swap"] += 1
            else:
                seen["least unconfirmed"] += 1
    print(seen)
    assert seen["checked"] >= 30 and seen["least unconfirmed"] == 0, seen


def test_sink_and_interval_statements_with_finite_lists_and_budgets_at_a_symbolic_n():
    """Finite lists and `layers M` budgets with sink heads at a symbolic n: the verdict from its start on, and each
    length below it, against the brute force at every allowed n ≤ 8 (a NOT-UAP where the depth runs out included)."""
    rng = random.Random(31)
    seen = {"decided": 0, "compared": 0}
    for _ in range(150):
        fam = random_interval_family(rng, sinks=True, kinds=("sequence", "periodic"))
        if fam.budget is None and rng.random() < 0.5:
            fam.budget = rng.randint(1, 5)
        if not any(h[1] for b in fam.blocks for h in b):
            continue
        d = run(file_text(fam, random.Random(rng.random())))
        st = step(d, "SEQ-CAUSAL-SINKS") or step(d, "SEQ-CAUSAL-FORM")
        if d["verdict"] not in ("UAP", "NOT-UAP") or st is None:
            continue
        seen["decided"] += 1
        kmax = max(h[1] for b in fam.blocks for h in b)
        verdict = step(d, "TGT-VERDICT")["evidence"]
        start = st["facts"].get("from", 1) if "range" in verdict else 1
        below = {e["n"]: e for e in verdict.get("below_range") or []}
        for n in range(max(kmax, 1), 9):
            mine = least_count(fam, n)
            if n >= start:
                assert (d["verdict"], stated_layers(d, n) if mine[0] == "UAP" else None) == \
                    (mine[0], mine[1] if mine[0] == "UAP" else None), (fam.blocks, fam.kind, fam.budget, n, mine)
            else:
                e = below[n]
                assert e["verdict"] == mine[0], (fam.blocks, fam.kind, fam.budget, n, e, mine)
                if mine[0] == "UAP":
                    assert e["layers"] >= mine[1] and (not e["least"] or e["layers"] == mine[1]), (fam.blocks, n, e)
            seen["compared"] += 1
    print(seen)
    assert seen["decided"] >= 20 and seen["compared"] >= 150, seen
