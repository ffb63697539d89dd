"""Theorems F176 (an even labelled window), F177 (`circulant` beside `symmetric toeplitz`) and F178 (a `free` bias on a
head that does not hold every arc), docs/theory.md §16.5, §8, §11.10, against a reference written from the definitions
alone (tests/view_witness_reference.py: LANGUAGE.md's neighbourhoods, the labelled witness condition of §11.10, brute
force over S_n): the group order, and a count that is never below the least one and equals it when stated least, at
every n ≤ 7 (8 for the catalog files), at `tokens <n>` and read off the statement at `tokens n`."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import sympy

import uapcheck

import view_witness_reference as R  # tests/ is on sys.path

CATALOG = Path(__file__).resolve().parents[1] / "catalog"
KERNEL = "  kernel k(x, y) = exp(x . y)\n"

LABELS = {
    None: None,
    "free": lambda v, u, n: (v, u),
    "toeplitz": lambda v, u, n: u - v,
    "symmetric toeplitz": lambda v, u, n: abs(u - v),
    "circulant": lambda v, u, n: (u - v) % n,
    "symmetric circulant": lambda v, u, n: min((u - v) % n, (v - u) % n),
    "b(i, j) = -m * |i - j|": lambda v, u, n: abs(u - v),
    "b(i, j) = -m * (i - j)^2": lambda v, u, n: abs(u - v),
}

PATTERNS = {
    "full": R.full(), "window(1)": R.window(1), "window(2)": R.window(2), "window(3)": R.window(3),
    "window(1) cyclic": R.window_cyclic(1), "global(1)": R.global_(1), "strided(2)": R.strided(2),
    "strided(3)": R.strided(3), "offsets {1}": R.offsets([1]), "offsets {1, -2}": R.offsets([1, -2]),
    "offsets {2, -2} cyclic": R.offsets([2, -2], True), "dilated(1, 2)": R.dilated(1, 2),
    "window(1) + offsets {3}": R.union(R.window(1), R.offsets([3])),
}


def program(n, heads) -> str:
    params = "param m > 0\n" if any(b and "m *" in b for _, b in heads) else ""
    return f"tokens {n}\n{params}" + "".join(
        "attention {\n" + KERNEL + (f"  pattern {p}\n" if p != "full" else "") + (f"  bias {b}\n" if b else "") + "}\n"
        for p, b in heads)


def reference(n: int, heads):
    return R.brute_force(n, [(R.neighbourhoods(PATTERNS[p], n), LABELS[b]) for p, b in heads])


def count_step(result):
    return next((s for s in result.root.walk() if s.rule in ("PAT-LAYERS", "BIAS-LAYERS")), None)


def assert_sound(result, ref, where) -> None:
    """UAP only when the union is strongly connected; then the group order is the brute force's, the count is never
    below the least count, and equals it when stated least."""
    if result.verdict != "UAP":
        return
    assert ref is not None, (where, "UAP on a pattern that is not strongly connected")
    order, _, least, _ = ref
    assert int(result.group.order) == order, (where, result.group, order)
    assert result.layers >= least, (where, result.layers, least)
    step = count_step(result)
    if step is not None and step.facts.get("least"):
        assert result.layers == least, (where, result.layers, least)


F176_HEADS = [(("window(1)", "symmetric toeplitz"),), (("window(2)", "b(i, j) = -m * |i - j|"),),
              (("window(2)", "b(i, j) = -m * (i - j)^2"),), (("window(3)", "symmetric toeplitz"),),
              (("window(1)", "symmetric toeplitz"), ("window(1)", "symmetric circulant")),
              (("window(2)", "b(i, j) = -m * |i - j|"), ("window(2)", None)),
              (("window(2)", "symmetric circulant"),)]


@pytest.mark.parametrize("heads", F176_HEADS)
def test_even_labelled_windows_against_brute_force(heads):
    """F176's setting (and `symmetric circulant` alone, which it does not cover) at every n ≤ 7: the reflection and
    ⌈(n − 1)/w⌉ layers, least, from n = w + 2, as the brute force finds."""
    for n in range(2, 8):
        r = uapcheck.check(program(n, heads), "t.uap")
        ref = reference(n, heads)
        assert r.verdict == "UAP", (heads, n)
        assert_sound(r, ref, (heads, n))


def _at(expr, n: int) -> int:
    symbols = [s for s in getattr(expr, "free_symbols", ()) if s.name == "n"]
    return int(expr.subs(symbols[0], n)) if symbols else int(expr)


@pytest.mark.parametrize("name, heads", [
    ("alibi_window_bidirectional_any_length", (("window(2)", "b(i, j) = -m * |i - j|"),)),
    ("bias_circulant_beside_symmetric_any_length", (("full", "circulant"), ("full", "symmetric toeplitz")))])
def test_the_catalog_statements_at_every_n_to_8(name, heads):
    """The statement at `tokens n`, read at each n of its range, and the file at `tokens <n>` (n = 1…8): the group
    and the count the brute force finds, each count least."""
    text = (CATALOG / f"{name}.uap").read_text()
    stated = uapcheck.check(text, "t.uap")
    nsym = next(s for s in stated.layers.free_symbols if s.name == "n")
    assert stated.verdict == "UAP" and count_step(stated).facts["least"] is True
    concrete_text = re.sub(r"expect .*", "", text)
    for n in range(1, 9):
        ref = reference(n, heads) if n > 1 else (1, 0, 1, None)
        r = uapcheck.check(concrete_text.replace("tokens n", f"tokens {n}"), "t.uap")
        assert (r.verdict, int(r.group.order), r.layers) == ("UAP", ref[0], ref[2]), (name, n)
        if bool(stated.group.condition_formula.subs(nsym, n)):
            assert (int(stated.group.order), _at(stated.layers, n)) == (ref[0], ref[2]), (name, n)


def test_circulant_beside_symmetric_toeplitz_reads_the_parity():
    """F177 at every 3 ≤ n ≤ 7 with a third head beside (position-blind or `symmetric circulant`): one layer at odd n
    (no row keeps its labels under any σ ≠ id), two at even n (the rotation keeps row n/2)."""
    for third in (None, "symmetric circulant"):
        heads = (("full", "circulant"), ("full", "symmetric toeplitz"), ("full", third))
        for n in range(3, 8):
            r = uapcheck.check(program(n, heads), "t.uap")
            ref = reference(n, heads)
            assert ref[2] == (1 if n % 2 else 2)
            assert (r.verdict, int(r.group.order), r.layers) == ("UAP", 1, ref[2]), (third, n)


def _random_free_heads(rng: random.Random):
    kinds = [None, "free", "symmetric toeplitz", "toeplitz", "circulant", "symmetric circulant"]
    heads = [(rng.choice(sorted(PATTERNS)), rng.choice(kinds)) for _ in range(rng.choice((1, 2, 2, 3)))]
    heads[0] = (heads[0][0], "free")
    return tuple(heads)


@pytest.mark.parametrize("seed", range(4))
def test_free_bias_beside_other_heads_against_brute_force(seed):
    """F178 (and F163): random head sets with a `free` head, at every n ≤ 7; a `free` row that sees itself alone
    (`offsets {1}`) must not be stated least where the brute force's count is lower."""
    rng = random.Random(1400 + seed)
    for _ in range(6):
        heads = _random_free_heads(rng)
        for n in range(2, 8):
            assert_sound(uapcheck.check(program(n, heads), "t.uap"), reference(n, heads), (heads, n))


def test_free_window_beside_global_has_its_witness_beyond_the_free_neighbourhoods():
    """catalog/free_bias_window_beside_global.uap's heads: D = 2 layers at n = 4, 5, and a labelled witness from n = 7
    (3 layers, least), the witness a transposition, found by the small-move search at n = 12 (the file's length)."""
    heads = (("window(1)", "free"), ("global(1)", None))
    assert [reference(n, heads)[2] for n in (4, 5, 7)] == [2, 2, 3]
    n = 12
    ref = [(R.neighbourhoods(PATTERNS[p], n), LABELS[b]) for p, b in heads]
    assert R.diameter([nb for nb, _ in ref], n) == 2
    assert R.witness_among_small_moves(n, ref, 2) is not None
    r = uapcheck.check((CATALOG / "free_bias_window_beside_global.uap").read_text(), "t.uap")
    assert (r.verdict, int(r.group.order), r.layers, count_step(r).facts["least"]) == ("UAP", 1, 3, True)
    assert R.group_order(n, ref) == 1


def test_the_reference_finds_the_view_lemma_counterexample():
    """§11.2's counterexample (n = 4): the brute force finds |G| = 2, D = 2 and a witness, so 3 layers; the exact
    rooted-view search finds one too, and a symmetric Toeplitz label removes it (§11.10's example)."""
    nb = [frozenset()] + [frozenset(s) for s in ({1, 2, 3, 4}, {1, 2, 3, 4}, {2, 3}, {1, 4})]
    order, d, least, witness = R.brute_force(4, [(nb, None)])
    assert (order, d, least) == (2, 2, 3) and witness is not None
    assert R.rooted_view_witness(4, [nb], 2, [(0, 1, 2, 3, 4), (0, 2, 1, 4, 3)]) is not None
    assert R.brute_force(4, [(nb, LABELS["symmetric toeplitz"])])[2] == 2
    assert sympy.Integer(R.group_order(4, [(nb, None)])) == 2
