"""A referee's check of Theorems F149, F150 and F151 (docs/theory.md §16.5) against the labelled view condition of
§11.10 written out here and searched over all of S_n (tests/t5_buckets.py `brute`, with the released bucket function),
and against an exact bucket function written here (integer powers in place of the floating logarithm); no engine
module is imported, the checker is called through `uapcheck.check`.

- F149 (a fixed offset bias on a complete head, D = 1): random mixes of window heads with trainable labels (T5
  buckets, `toeplitz`, `symmetric toeplitz`, `circulant`, `symmetric circulant`, none), a complete head with a fixed
  term (ALiBi's even −m·|i − j|, its injective −m·(i − j), −(i − j)², RoPE) or a fixed term on a window, and sometimes
  a complete position-blind head, at n ≤ 7: the group is the brute force's, and the count is never below the least
  (equal where it is stated least).
- F150 (the group beside a complete head labelled by the offsets): the statement at `tokens n` read at every n ≤ 7.
- F151 (a wide bucket window below w + 2): the start of the range is 1 + the least |m′| of two offsets of one sign in
  one joint bucket (for complete heads whose labels keep the sign, a σ keeping row i's labels fixes i, since the count
  of keys below i is i − 1, and then fixes every key unless two share a joint bucket; a transposition of two that do
  is not in G, as position a sees a at offset 0); one layer below it, two from it up to n = 40 (in the range or among
  the lengths listed below it), and the brute force at n ≤ 7.
"""
from __future__ import annotations

import random

import pytest
import sympy

import uapcheck
from uapcheck.errors import UapError

from t5_buckets import brute, released_bucket, window_neighbours  # tests/ is on sys.path

KERNEL = "  kernel k(q, key) = exp(q . key)\n"
FIXED_TEXT = {"even": "bias b(i, j) = -m * |i - j|", "injective": "bias b(i, j) = -m * (i - j)",
              "square": "bias b(i, j) = -(i - j)^2", "rotary": "rotary"}
TRAINABLE = ["buckets(4, 8)", "buckets(8, 16)", "buckets(4, 2)", "buckets(6, 4)", "toeplitz", "symmetric toeplitz",
             "circulant", "symmetric circulant", None]


def label(kind, n: int):
    """The class of the offset k − q (key k, query q) that a head's weights read, None for a position-blind head."""
    if kind is None:
        return None
    if kind.startswith("buckets"):
        b, d = (int(x) for x in kind[len("buckets("):-1].split(","))
        return lambda q, k: released_bucket(k - q, b, d)
    by_offset = {"toeplitz": lambda m: m, "symmetric toeplitz": abs, "circulant": lambda m: m % n,
                 "symmetric circulant": lambda m: min(m % n, -m % n), "even": abs, "square": abs,
                 "injective": lambda m: m, "rotary": lambda m: m}[kind]
    return lambda q, k: by_offset(k - q)


def head_text(pattern, kind) -> str:
    body = f"  pattern {pattern}\n" if pattern else ""
    if kind in FIXED_TEXT:
        body += f"  {FIXED_TEXT[kind]}\n"
    elif kind:
        body += f"  bias {kind}\n"
    return "attention {\n" + KERNEL + body + "}\n"


def neighbourhoods(pattern, n: int) -> list:
    if pattern is None:
        return [set()] + [set(range(1, n + 1)) for _ in range(n)]
    w = int(pattern.split("(")[1].split(")")[0])
    return window_neighbours(n, w, cyclic=pattern.endswith("cyclic"))


def random_heads(rng: random.Random) -> list:
    heads = [(rng.choice(["window(1)", "window(2)", "window(3)", "window(1) cyclic", "window(2) cyclic"]),
              rng.choice(TRAINABLE)) for _ in range(rng.choice([1, 1, 2]))]
    r = rng.random()
    if r < 0.7:
        heads.append((None, rng.choice(list(FIXED_TEXT))))
    elif r < 0.85:
        heads.append((rng.choice(["window(1)", "window(2)"]), rng.choice(list(FIXED_TEXT))))
    else:
        heads.append((None, rng.choice(TRAINABLE)))
    if rng.random() < 0.2:
        heads.append((None, None))
    rng.shuffle(heads)
    return heads


@pytest.mark.parametrize("seed", range(3))
def test_f149_mixes_at_a_concrete_n_against_s_n(seed):
    rng = random.Random(14900 + seed)
    seen = {"UAP least": 0, "one layer": 0, "other": 0}
    for _ in range(40):
        heads = random_heads(rng)
        n = rng.randint(3, 7)
        text = f"tokens {n}\nparam m > 0\n" + "".join(head_text(p, k) for p, k in heads)
        try:
            d = uapcheck.check(text, "t.uap").to_dict()
        except UapError:
            seen["other"] += 1
            continue
        order, least = brute(n, [(neighbourhoods(p, n), label(k, n)) for p, k in heads])
        assert d["verdict"] != "NOT-UAP", (heads, n)
        if d["verdict"] != "UAP":
            seen["other"] += 1
            continue
        assert d["group"]["order"] == order, (heads, n, d["group"], order)
        assert d["layers"] == least if d["least"] else d["layers"] >= least, (heads, n, d["layers"], least)
        seen["UAP least"] += bool(d["least"])
        seen["one layer"] += d["layers"] == 1
    assert seen["UAP least"] >= 25 and seen["one layer"] >= 5, seen


def statement_at(d: dict, n: int) -> tuple:
    """(verdict, layers, group order) that a verdict at `tokens n` states at the length n."""
    for entry in d.get("below_range") or []:
        if entry["n"] == n:
            return entry["verdict"], entry["layers"], (entry["group"] or {}).get("order")
    nn = sympy.Symbol("n", integer=True, positive=True)
    layers = sympy.sympify(str(d["layers"]), locals={"n": nn}).subs(nn, n)
    order = sympy.sympify(str(d["group"]["order"]), locals={"n": nn}).subs(nn, n)
    return d["verdict"], int(layers), int(order)


@pytest.mark.parametrize("window", ["window(1)", "window(2)", "window(3)", "window(1) cyclic", "window(2) cyclic"])
def test_f150_beside_a_head_labelled_by_the_offsets_at_every_length(window):
    for buckets in ("buckets(8, 16)", "buckets(4, 8)"):
        for hstar, text in (("rotary", "rotary"), ("injective", FIXED_TEXT["injective"]), ("toeplitz", "bias toeplitz")):
            src = f"tokens n\nparam m > 0\n{head_text(window, buckets)}attention {{\n{KERNEL}  {text}\n}}\n"
            d = uapcheck.check(src, "t.uap").to_dict()
            assert (d["verdict"], d["group"]["name"], d["layers"], d["least"]) == ("UAP", "trivial", 1, True), \
                (window, buckets, hstar, d["verdict"])
            for n in range(2, 8):
                heads = [(neighbourhoods(window, n), label(buckets, n)), (neighbourhoods(None, n), label(hstar, n))]
                assert brute(n, heads) == (1, 1), (window, buckets, hstar, n)
                assert statement_at(d, n) == ("UAP", 1, 1), (window, buckets, hstar, n, statement_at(d, n))


def exact_bucket(m: int, num_buckets: int, max_distance: int) -> int:
    """T5's bucket of the offset m, the logarithm's floor decided on integers: ⌊c·log(d/e)/log(D/e)⌋ is the largest
    t with D^t·e^c ≤ d^c·e^t (e = the exact buckets, c = half − e)."""
    half = num_buckets // 2
    e, c, d = half // 2, half - half // 2, abs(m)
    base = half if m > 0 else 0
    if d < e:
        return base + d
    t = 0
    while t < c and max_distance ** (t + 1) * e ** c <= d ** c * e ** (t + 1):
        t += 1
    return base + min(e + t, half - 1)


def first_joint_pair_length(settings: list) -> int:
    """1 + the least |m′| with some |m| < |m′| of the same sign in one bucket of every head."""
    d = 2
    while True:
        for sign in (1, -1):
            key = [exact_bucket(sign * d, b, dist) for b, dist in settings]
            if any([exact_bucket(sign * e, b, dist) for b, dist in settings] == key for e in range(1, d)):
                return d + 1
        d += 1


@pytest.mark.parametrize("w, settings", [(129, [(8, 16)]), (140, [(4, 8)]), (150, [(6, 4)]), (200, [(10, 3)]),
                                         (160, [(8, 16), (4, 8)]), (133, [(12, 40), (8, 16)])])
def test_f151_a_wide_window_below_w_plus_two(w, settings):
    src = "tokens n\n" + "".join(head_text(f"window({w})", f"buckets({b}, {dist})") for b, dist in settings)
    d = uapcheck.check(src, "t.uap").to_dict()
    start = first_joint_pair_length(settings)
    assert start <= min(40, w + 1)
    assert (d["verdict"], d["group"]["name"], d["least"]) == ("UAP", "trivial", True), (w, settings)
    # the range may start later than `start` (its certificate names a position v ∉ {a, b} that separates a and b,
    # which buckets(4, 8) first has at n = 4, while a itself separates them from n = 3); each length is stated below
    for n in range(2, 41):
        stated = statement_at(d, n)
        assert stated == ("UAP", 1 if n < start else 2, 1), (w, settings, n, stated, start)
        if n <= 7:
            heads = [(neighbourhoods(f"window({w})", n), label(f"buckets({b}, {dist})", n)) for b, dist in settings]
            assert brute(n, heads) == (1, stated[1]), (w, settings, n)
    for n in (w + 1, w + 2, 2 * w + 2):
        assert statement_at(d, n) == ("UAP", max(2, -(-(n - 1) // w)), 1), (w, settings, n)


def test_the_exact_bucket_is_the_released_one_on_these_settings():
    for b, dist in [(8, 16), (4, 8), (6, 4), (10, 3), (12, 40), (32, 128), (16, 64)]:
        assert [exact_bucket(m, b, dist) for m in range(-300, 301)] == \
            [released_bucket(m, b, dist) for m in range(-300, 301)], (b, dist)
    assert [exact_bucket(m, 8, 16) for m in range(-9, 10)] == [3, 3, 3, 3, 2, 2, 2, 2, 1, 0, 5, 6, 6, 6, 6, 7, 7, 7, 7]
