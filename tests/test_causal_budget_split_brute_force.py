"""Theorem F159 (docs/theory.md §21.10): a `layers M` budget on per-layer causal windows is NOT-UAP for causal targets
from N* on and UAP below it, each length with its least count. The statement at `tokens n` (its range and the lengths
listed below it) and the file at `tokens <n>` against a brute force over S_n (n ≤ 7) of §21.5's causal view condition,
written from the definitions alone (tests/view_witness_reference.py), `tokens 1` included."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import uapcheck

import view_witness_reference as R  # tests/ is on sys.path

CATALOG = Path(__file__).resolve().parents[1] / "catalog"


def head(w: int) -> str:
    return "offsets {0}" if w == 0 else f"causal & window({w})"


def program(rows: tuple, M: int, tokens) -> str:
    blocks = [f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern periodic {{ "
              f"{', '.join(head(row[h]) for row in rows)} }}\n}}\n" for h in range(len(rows[0]))]
    return "".join(blocks) + f"layers {M}\ntokens {tokens}\ntarget causal\n"


def brute(rows: tuple, M: int, n: int):
    """('UAP', least count) or ('NOT-UAP', None) for causal targets, by brute force over S_n."""
    layers = [[R.neighbourhoods(R.meet(R.causal(), R.window(w)), n) for w in rows[ell % len(rows)]] for ell in range(M)]
    least = R.causal_least(n, layers, M)
    return ("UAP", least) if least is not None else ("NOT-UAP", None)


def stated_at(d: dict, n: int):
    """The symbolic statement read at n: NOT-UAP in its range, else the length listed below it."""
    start = int(d["target"]["range"].split("≥")[1])
    if n >= start:
        return "NOT-UAP", None
    row = next(r for r in d["target"]["below_range"] if r["n"] == n)
    assert row["least"] is True
    return row["verdict"], row["layers"]


def check_list(rows: tuple, M: int, lengths) -> None:
    """At a symbolic n F159's split is stated (two heads of one pattern in every layer stay INCONCLUSIVE there, §21.10);
    at each concrete n the verdict and the count are the brute force's."""
    d = uapcheck.check(program(rows, M, "n"), "t.uap").to_dict()
    single_two_heads = len(rows) == 1 and len(rows[0]) == 2
    assert d["verdict"] == ("INCONCLUSIVE" if single_two_heads else "NOT-UAP"), (rows, M, d["verdict"])
    for n in lengths:
        want = brute(rows, M, n)
        if not single_two_heads:
            assert stated_at(d, n) == want, (rows, M, n)
        r = uapcheck.check(program(rows, M, n), "t.uap")
        assert (r.verdict, r.layers if r.verdict == "UAP" else None) == want, (rows, M, n)


def test_the_catalog_file_at_every_n_to_7():
    """alternating_windows_four_layers_any_length.uap: 1 layer at n ≤ 2, 2 at n = 3…6, 3 at n = 7 (the brute force
    reaches n = 7 of its 11 lengths below N* = 12)."""
    d = uapcheck.check((CATALOG / "alternating_windows_four_layers_any_length.uap").read_text(), "t.uap").to_dict()
    assert d["target"]["range"] == "n ≥ 12"
    assert [stated_at(d, n) for n in range(1, 8)] == [brute(((3,), (2,)), 4, n) for n in range(1, 8)] == \
        [("UAP", 1)] * 2 + [("UAP", 2)] * 4 + [("UAP", 3)]


@pytest.mark.parametrize("seed", range(3))
def test_random_lists_and_budgets(seed):
    """Random periodic lists (one or two heads, widths 0…4, period 1…3) with budgets 1…5, every n ≤ 6; N* ≤ 7 is
    reached by some (a NOT-UAP with its real unreached position or witness)."""
    rng = random.Random(159 + seed)
    for _ in range(3):
        heads, period = rng.choice((1, 1, 2)), rng.randint(1, 3)
        rows = tuple(tuple(rng.randint(0, 4) for _ in range(heads)) for _ in range(period))
        if all(w == 0 for row in rows for w in row):
            continue
        check_list(rows, rng.randint(1, 5), range(1, 7))


def test_lengths_at_and_past_a_small_start():
    """Lists whose N* is at most 7, every n to 7: the first NOT-UAP length is a real one (brute force) and the length
    before it is UAP."""
    for rows, M in ((((1,), (0,)), 4), (((3,), (3,)), 1), (((1,), (1,)), 5), (((0,), (1,)), 2)):
        check_list(rows, M, range(1, 8))
