"""Theorem F182 (docs/theory.md §11.11): k ≥ 2 `blocks(b_i)` parts, L = lcm(b_i), with strided or dilated parts whose
steps are multiples of L sharing a factor M ≥ 2, are not strongly connected for n ≥ L + 1 (complete for n ≤ max b_i,
strongly connected up to L). Checked apart from the engines on seeded random unions, one head or several, read on
arcs written from docs/language.md's definitions (scripts/sweep_patterns.py's reference: breadth-first search), and
on near misses outside the premise (a step not a multiple of L, steps whose quotients by L are coprime, a window or
an offset beside the blocks; F182 (b)'s offsets of one sign, and offsets of both signs), where the union may well be connected: `uapcheck`'s connectivity verdict at
`tokens n`, read at every length up to NMAX, and at one concrete length, is the reference's in every case."""
from __future__ import annotations

import math
import random
import sys
from functools import reduce
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

NMAX = 40


def lcm(values) -> int:
    return reduce(lambda x, y: x * y // math.gcd(x, y), values)


def _union(rng: random.Random, near_miss: bool):
    """Parts (and how they are split into heads) of a random union: two or three blocks parts, maybe a step part."""
    sizes = rng.sample([2, 3, 4, 5, 6, 8, 9, 10, 12], rng.choice((2, 2, 3)))
    L = lcm(sizes)
    parts = [("blocks", b) for b in sizes]
    if L <= 30 and rng.random() < 0.6:
        m = rng.choice((2, 3))
        parts.append(("strided", L * m) if rng.random() < 0.5 else ("dilated", rng.randint(1, 2), L * m))
    if near_miss:
        kind = rng.choice(("coprime", "off", "window", "offsets", "one sign", "both signs"))
        if kind == "coprime" and L <= 20:
            parts += [("strided", 2 * L), ("strided", 3 * L)]
        elif kind == "off":
            parts.append(("strided", L + rng.choice((1, -1)) if L > 2 else 3))
        elif kind == "window":
            parts.append(("window", 1))
        elif kind == "offsets":
            parts.append(("offsets", (rng.choice((-1, 1)) * rng.randint(1, 3),)))
        elif kind == "one sign":  # F182 (b): never across a stretch one way
            sign = rng.choice((-1, 1))
            parts.append(("offsets", tuple(sorted({0, sign * rng.randint(1, 4), sign * rng.randint(1, 4)}))))
        else:
            parts.append(("offsets", (-rng.randint(1, 3), rng.randint(1, 3))))
    parts = sorted(set(parts))
    if rng.random() < 0.4:  # several heads
        cut = rng.randint(1, len(parts) - 1)
        return (tuple(parts[:cut]), tuple(parts[cut:]))
    return (tuple(parts),)


def _cases():
    rng = random.Random(182)
    out = []
    while len(out) < 36:
        heads = _union(rng, near_miss=len(out) % 3 == 2)
        if heads not in out:
            out.append(heads)
    return out


CASES = _cases()


def connected(heads, n: int) -> bool:
    return SP.diameter([SP.head_arcs(h, n) for h in heads], n) is not None


@pytest.mark.parametrize("heads", CASES, ids=[" | ".join(SP.head_text(h) for h in c) for c in CASES])
def test_the_connectivity_verdict_at_every_length(heads):
    text = " | ".join(SP.head_text(h) for h in heads)
    result = SP.engine(SP.file_text(list(heads), "n"))
    assert result is not None, text
    for n in range(2, NMAX + 1):
        claim = SP.claims_at(result, n)
        if claim is None:
            continue
        verdict = claim[0]
        if verdict in ("UAP", "NOT-UAP"):
            assert (verdict == "UAP") == connected(heads, n), (text, n, claim)


@pytest.mark.parametrize("heads", CASES, ids=[" | ".join(SP.head_text(h) for h in c) for c in CASES])
def test_the_premise_gives_what_the_theorem_says(heads):
    """Where F182's premise holds, the reference is disconnected at every n from L + 1 and connected up to L."""
    parts = [p for h in heads for p in h]
    blocks = [p[1] for p in parts if p[0] == "blocks"]
    L = lcm(blocks)
    steps = [p[1] if p[0] == "strided" else p[2] for p in parts if p[0] in ("strided", "dilated")]
    if any(p[0] not in ("blocks", "strided", "dilated") for p in parts) or any(s % L for s in steps) \
            or (steps and math.gcd(*(s // L for s in steps)) < 2):
        return
    for n in range(2, NMAX + 1):
        assert connected(heads, n) == (n <= L), (heads, n)


def test_a_concrete_length_far_beyond_the_lcm():
    """`blocks(11) + blocks(2)` at n = 1,048,576: NOT-UAP (no arc is built), as the reference says at small n."""
    heads = ((("blocks", 2), ("blocks", 11)),)
    assert not connected(heads, 23) and connected(heads, 22)
    result = SP.engine(SP.file_text(list(heads), 1048576))
    assert result is not None and result.to_dict()["verdict"] == "NOT-UAP"
