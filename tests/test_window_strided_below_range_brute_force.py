"""Theorem F164 (docs/theory.md §11.11): `window(w) + strided(s)` at a concrete n below Theorem F7's range, decided by
pair keys: G = the reflection and D = 2 layers, least. Each length where the theorem answers is compared with a
reference written from the definitions alone (tests/view_witness_reference.py): the group order by backtracking and an
exact search for a view witness at depth 2 (every isomorphism of rooted views, §11.9's Lemma 1, by individualisation
and refinement), and the concrete engine's answer at `tokens <n>` agrees."""
from __future__ import annotations

import pytest

import uapcheck
from uapcheck.graphs import families

import view_witness_reference as R  # tests/ is on sys.path


@pytest.mark.parametrize("w, s, n", [(2, 2, 21), (2, 3, 25), (2, 3, 32)])
def test_f164_against_the_exact_view_search(w, s, n):
    theorem = families._below_f7_range(n, w, s, s * (4 * w + 3))
    assert theorem is not None and theorem.theorem == "F164"
    assert (int(theorem.layers), theorem.least, theorem.group) == (2, True, "reflection")
    nb = R.neighbourhoods(R.union(R.window(w), R.strided(s)), n)
    assert R.diameter([nb], n) == 2
    reflection = tuple([0] + [n + 1 - v for v in range(1, n + 1)])
    assert R.group_order(n, [(nb, None)]) == 2
    # roots beyond the middle are reflections of roots before it (the reflection is in G)
    assert R.rooted_view_witness(n, [nb], 2, [tuple(range(n + 1)), reflection], roots=range(1, (n + 1) // 2 + 1)) is None
    r = uapcheck.check(f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern window({w}) + "
                       f"strided({s})\n}}\n", "t.uap")
    assert (r.verdict, int(r.group.order), r.layers) == ("UAP", 2, 2)


def test_the_exact_view_search_finds_a_witness_where_one_exists():
    """The reference is able to fail: window(3) + strided(6) (w + 2 < s ≤ 2w + 1, Theorem F53's witness) at n = 31 has a view
    witness at depth 2 (the small-move search finds a swap), and the exact search finds one too."""
    n, w, s = 31, 3, 6
    nb = R.neighbourhoods(R.union(R.window(w), R.strided(s)), n)
    group = [tuple(range(n + 1)), tuple([0] + [n + 1 - v for v in range(1, n + 1)])]
    assert R.group_order(n, [(nb, None)]) == 2
    found = R.witness_among_small_moves(n, [(nb, None)], 2)
    exact = R.rooted_view_witness(n, [nb], 2, group, roots=[found[0]] if found else None)
    assert found is not None and exact is not None


def test_the_transposition_search_agrees_with_brute_force_and_finds_no_swap_where_f164_answers():
    """The numpy transposition search (depth 2) finds only real witnesses (brute force over S_n on random unions of
    two patterns, n ≤ 7) and every transposition witness; at F164's lengths for (3, 3) and (4, 3) it finds none, at
    window(3) + strided(6) one."""
    import random
    rng = random.Random(5)
    parts = [R.window(1), R.window_cyclic(1), R.strided(2), R.global_(1), R.offsets([2, -2], True),
             R.offsets([1, -2]), R.dilated(1, 2), R.window(2), R.strided(3)]
    for _ in range(120):
        n = rng.randint(4, 7)
        nb = R.neighbourhoods(R.union(*rng.sample(parts, 2)), n)
        if R.diameter([nb], n) != 2:
            continue
        found = R.transposition_witness_depth_two(nb, n)
        small = R.witness_among_small_moves(n, [(nb, None)], 2)
        assert found is None or R.brute_force(n, [(nb, None)])[3] is not None
        swap = small is not None and sum(1 for v in range(1, n + 1) if small[1][v] != v) == 2
        assert found is not None or not swap
    for w, s, n in ((3, 3, 31), (3, 3, 44), (4, 3, 37)):
        assert families._below_f7_range(n, w, s, s * (4 * w + 3)) is not None
        assert R.transposition_witness_depth_two(R.neighbourhoods(R.union(R.window(w), R.strided(s)), n), n) is None
    assert R.transposition_witness_depth_two(R.neighbourhoods(R.union(R.window(3), R.strided(6)), 31), 31) is not None
