"""Theorems F224–F226 (docs/theory.md §11.11, lemma AM): the least layer count of `window(w) cyclic + strided(s)`,
2 ≤ s ≤ w. F224: on the classes n mod s with a seam swap, 3 layers least from F205's range N₀; F225 (lemma AM): a view
witness with 2 layers at n + s gives one at n for n ≥ N₁; F226: the rooted views at the class's one length in
[N₁, N₁ + s) decide the class (2 layers, least) at every n ≥ N₁.

Checked a second way: F224's swap by the definition (it keeps N(v) for every v in the root's ball and is no symmetry)
on arcs written from the language's definitions over one period from N₀ for every 2 ≤ s ≤ w ≤ 6, and on exactly its
classes; F224's classes against the concrete engine's rooted views (canonical labelling) at every n ≤ 60 of F205's
range and over a period from N₀ for pairs with and without classes; lemma AM's step (2) (the pairs of the root's class
with |S| = c_1 are exactly the consecutive regular members) on the reference arcs; the table of F226's check re-run
by the rooted views (the small pairs here, the others in the nightly run); the verifier's own N₁, classes and checked
classes against the engine's, and its rejections (a class claimed 2 below N₁, a seam swap's class claimed 2). Brute
force over S_n is out of reach: the range starts at N₀ ≥ 40."""
from __future__ import annotations

import pytest

from uapcheck.graphs import cyclic_covered_least as L
from uapcheck.verifier import cyclic_covered_least as V

from .cyclic_window_strided_files import pattern
from .reference import closed_neighbourhoods

PAIRS = [(w, s) for w in range(2, 7) for s in range(2, w + 1)]


def _ball_kept(nb: dict, n: int, root: int, cycles) -> tuple[bool, bool]:
    """(σ keeps N[v] for every v in N[root], σ keeps every N[v]) for the permutation with these 2-cycles."""
    sigma = list(range(n + 1))
    for a, b in cycles:
        sigma[a], sigma[b] = b, a

    def keeps(v: int) -> bool:
        return frozenset(sigma[u] for u in nb[v]) == frozenset(nb[sigma[v]])
    return all(keeps(v) for v in nb[root]), all(keeps(v) for v in range(1, n + 1))


@pytest.mark.parametrize("w, s", PAIRS)
def test_every_seam_swap_keeps_the_ball_and_is_no_symmetry(w, s):
    low, classes = L.dense_low(w, s), L.dense_witness_classes(w, s)
    assert 0 not in classes and (w % s or 1 not in classes or s > 2)  # never s | n; never the twins' own swap
    for n in range(low, low + s):
        found = L.dense_witness(w, s, n)
        assert (found is not None) == (n % s in classes), n
        if found is not None:
            root, cycles = found
            (a, b), = cycles
            assert a <= n % s and b == a + n - n % s and (b - a) % s == 0  # one class, across the seam
            ball, every = _ball_kept(closed_neighbourhoods(pattern(w, s), n), n, root, cycles)
            assert ball and not every, (n, found)
    assert L.dense_witness(w, s, low - 1) is None


@pytest.mark.parametrize("w, s, lengths", [
    (2, 2, range(40, 61)),          # every n ≤ 60 of F205's range: no class of F224, 2 layers at each length
    (3, 3, range(60, 61)),
    (4, 4, range(80, 84)),          # F224 on n ≡ 2
    (5, 4, range(100, 104)),        # F224 on n ≡ 1, 2, 3
])
def test_the_seam_swap_classes_are_where_the_rooted_views_find_a_witness(w, s, lengths):
    for n in lengths:
        assert L._no_witness(w, s, n) == (n % s not in L.dense_witness_classes(w, s)), n


def test_the_seam_swap_classes_for_small_windows():
    want = {(4, 4): (2,), (5, 4): (1, 2, 3), (5, 5): (2,), (6, 4): (1,), (6, 5): (1, 2, 3), (6, 6): (2, 3)}
    assert {p: L.dense_witness_classes(*p) for p in PAIRS if L.dense_witness_classes(*p)} == want
    # the two catalog pairs have none: lemma AM and the check decide every class
    assert L.dense_witness_classes(5, 3) == L.dense_witness_classes(4, 2) == ()


@pytest.mark.parametrize("w, s, n", [(4, 2, 161), (5, 3, 217), (4, 4, 209)])
def test_lemma_am_step_two_the_weight_c1_pairs_of_a_class_are_its_consecutive_regular_members(w, s, n):
    nb = closed_neighbourhoods(pattern(w, s), n)
    r0 = 1
    members = list(range(r0, n + 1, s))
    cls = set(members)
    q = w // s
    c1 = 2 * w - 2 * q - s + 1
    assert c1 >= 1

    def weight(a: int, b: int) -> int:
        return len((nb[a] & nb[b]) - cls)
    for a in members:
        if a - 2 * w < 1 or a + 2 * w > n:
            continue  # not regular
        heavy = {b for b in members if b != a and weight(a, b) == c1}
        assert heavy == {a - s, a + s}, (a, heavy)


def test_lemma_am_range_grows_with_the_window_and_covers_the_group_range():
    assert (L.dense_pump_from(4, 2), L.dense_pump_from(5, 3)) == (160, 216)
    for w, s in PAIRS:
        assert L.dense_pump_from(w, s) >= max(L.dense_low(w, s), s * (4 * w + 4))
        assert V.dense_pump_start(w, s) == L.dense_pump_from(w, s)
        assert V.dense_classes(w, s) == L.dense_witness_classes(w, s)


@pytest.mark.parametrize("w, s", [(2, 2), (3, 2), (4, 2), (3, 3), (4, 3), (4, 4), (5, 2), (5, 3), (5, 4), (5, 5),
                                  (6, 2), (6, 3), (6, 4), (6, 5), (6, 6)])
def test_the_kept_check_is_the_rooted_views_answer(w, s):
    checked = L.dense_check(w, s)
    assert checked == L.DENSE_CHECKED[(w, s)]
    # with F224's classes every class is decided
    assert sorted(set(checked) | set(L.dense_witness_classes(w, s))) == list(range(s))


def test_the_verifier_re_checks_the_classes_on_its_own_arcs():
    assert V.dense_suffice_classes(2, 2) == L.dense_suffice_classes(2, 2) == (0, 1)
    assert V.dense_layers_problem(2, 2, 105, 2) is None  # 2 layers at n ≥ N₁ = 104: no witness at n itself
    assert "below lemma AM's range" in V.dense_layers_problem(2, 2, 100, 2)
    assert V.dense_layers_problem(4, 4, 82, 2) is None  # F224's swap re-checked at n ≡ 2
    assert V.dense_witness(4, 4, 83) is None and V.dense_witness(4, 4, 81) is None  # twins' class 1: no swap
