"""Groups named by structure (uapcheck/class_action.py, docs/theory.md §11.9): every name is read back as
a set of permutations, by its own definition written out here, and compared with the set of all
permutations of S_n that preserve every head (brute force over S_n on the reference arcs)."""
import itertools
import math
import random

import pytest

from uapcheck.class_action import CycleOn, WreathOn, _reversed_intervals, name_action
from uapcheck.graphs import build_graph, symmetry_group
from uapcheck.groups import ReflectionOf, ReflectionsOf, SymmetricOn
from uapcheck.spec import (Blocks, Columns, Dilated, Edges, Global, Offsets, PatternUnion, Star,
                           Strided, Window)

from .reference import attends


def brute_group(heads, n) -> set:
    """Every σ (1-based images) preserving every head's arcs, by trying all of S_n."""
    arcs = [attends(p, n) for p in heads]
    out = set()
    for perm in itertools.permutations(range(1, n + 1)):
        if all({(perm[i - 1], perm[j - 1]) for i, j in a} == a for a in arcs):
            out.add(perm)
    return out


def _dihedral(k: int, cyclic_only: bool) -> set:
    rots = {tuple((a + i) % k for i in range(k)) for a in range(k)}
    if cyclic_only:
        return rots
    return rots | {tuple((a - i) % k for i in range(k)) for a in range(k)}


def _in_factor(perm, f) -> bool:
    """σ restricted to the factor's positions lies in the factor (read from its typed parts)."""
    img = lambda p: perm[p - 1]  # noqa: E731
    if isinstance(f, SymmetricOn):
        return {img(p) for p in f.positions} == set(f.positions)
    if isinstance(f, ReflectionOf):
        pts = sorted(f.positions)
        got = [img(p) for p in pts]
        return got == pts or got == pts[::-1]
    if isinstance(f, ReflectionsOf):  # one involution: every interval reversed, or none
        reversed_all = all(img(p) == lo + hi - p for lo, hi in f.intervals for p in range(lo, hi + 1))
        return reversed_all or all(img(p) == p for p in f.positions)
    if isinstance(f, CycleOn):
        cyc = list(f.cycle)
        where = {p: i for i, p in enumerate(cyc)}
        if any(img(p) not in where for p in cyc):
            return False
        return tuple(where[img(p)] for p in cyc) in _dihedral(len(cyc), f.top == "C")
    if isinstance(f, WreathOn):
        blocks = [set(b) for b in f.blocks]
        pi = []
        for b in blocks:
            image = {img(p) for p in b}
            if image not in blocks:
                return False
            pi.append(blocks.index(image))
        k = len(blocks)
        if f.top != "S" and tuple(pi) not in _dihedral(k, f.top == "C"):
            return False
        for i, classes in enumerate(f.parts):
            target = {len(c): set(c) for c in f.parts[pi[i]]}
            if any({img(p) for p in c} != target[len(c)] for c in classes):
                return False
        return True
    raise AssertionError(f"no reading of {type(f).__name__} in this test")


def named_group(structure, n) -> set:
    """The named group as a set: direct product of the factors, fixing every other position."""
    covered = set()
    for f in structure.factors:
        pts = f.blocks if isinstance(f, WreathOn) else [f.cycle] if isinstance(f, CycleOn) else [f.positions]
        covered |= {p for b in pts for p in b}
    out = set()
    for perm in itertools.permutations(range(1, n + 1)):
        if all(perm[p - 1] == p for p in range(1, n + 1) if p not in covered) and \
                all(_in_factor(perm, f) for f in structure.factors):
            out.add(perm)
    return out


def structural(heads, n):
    G = symmetry_group([build_graph(p, n) for p in heads])
    return G


# (heads, n, the name the engine gives)
NAMED = [
    ([Window(2, cyclic=True)], 6, "S_2 ≀ S_3 on the blocks {1, 4}, {2, 5}, {3, 6}"),  # octahedron
    ([Blocks(2)], 6, "S_2 ≀ S_3 on the blocks {1, 2}, {3, 4}, {5, 6}"),
    ([Strided(2)], 6, "S_3 ≀ S_2 on the blocks {1, 3, 5}, {2, 4, 6}"),
    ([PatternUnion((Window(2), Global(1)))], 8, "the reflection of {2, …, 8}"),
    ([PatternUnion((Window(1, cyclic=True), Global(1)))], 7, "the reflection of {2, …, 7}"),
    ([Edges(((1, 2), (2, 3), (3, 1)))], 5, "C_3 on the cycle (1, 2, 3) × S_2 on {4, 5}"),
    ([Edges(((1, 2), (2, 3), (3, 4), (4, 1)))], 6, "C_4 on the cycle (1, 2, 3, 4) × S_2 on {5, 6}"),
    ([Edges(((1, 2), (2, 1), (2, 3), (3, 2), (3, 4), (4, 3), (4, 5), (5, 4), (5, 1), (1, 5)))], 7,
     "D_5 on the cycle (1, 2, 3, 4, 5) × S_2 on {6, 7}"),
    ([Window(3, cyclic=True)], 8, "S_2 ≀ S_4 on the blocks {1, 5}, {2, 6}, {3, 7}, {4, 8}"),
    ([Offsets((2, -2), True)], 6, "S_3 ≀ S_2 on the blocks {1, 3, 5}, {2, 4, 6}"),
    # the cyclic reflection i ↦ 3 − i (mod n): two intervals reversed at once
    ([Global(2), Window(2, cyclic=True)], 7, "the reflection of {1, 2} and of {3, …, 7} at once"),
    ([Global(3), Window(1, cyclic=True)], 8, "the reflection of {1, 2, 3} and of {4, …, 8} at once"),
]


@pytest.mark.parametrize("heads,n,name", NAMED, ids=lambda x: repr(x)[:40])
def test_each_name_is_the_group_by_brute_force(heads, n, name):
    G = structural(heads, n)
    assert G.structure == name
    assert named_group(G.structure_parts, n) == brute_group(heads, n)
    assert G.order == len(brute_group(heads, n))


def test_blocks_with_a_global_token_and_with_a_lone_position_per_block():
    """Blocks beside a fixed class (bracketed among other factors), and blocks of a class of 3 with a
    lone position each (the fixed Sparse Transformer's shape): the wreath products, by brute force."""
    cases = [([PatternUnion((Blocks(3), Global(1)))], 10,
              "S_2 on {2, 3} × (S_3 ≀ S_2 on the blocks {4, 5, 6}, {7, 8, 9})"),
             ([PatternUnion((Blocks(4), Columns(4, 1)))], 8,
              "(S_3 on {1, 2, 3}) ≀ S_2 on the blocks {1, …, 4}, {5, …, 8}"),
             ([Window(3)], 6, "S_2 on {3, 4} × the reflection of {1, 2, 5, 6}")]
    for heads, n, name in cases:
        G = structural(heads, n)
        assert G.structure == name
        if n <= 8:
            assert named_group(G.structure_parts, n) == brute_group(heads, n)


SWEEP = [Window(1), Window(2), Window(1, cyclic=True), Window(2, cyclic=True), Global(1), Global(2),
         Blocks(2), Blocks(3), Strided(2), Strided(3), Dilated(1, 2), Dilated(1, 3), Star(),
         Offsets((1,), True), Offsets((2, -2), True), Offsets((3, -3), True), Columns(3, 1)]


def test_every_structural_name_in_a_sweep_is_its_group():
    """Unions of one to three structured patterns at n = 5, 6, 7 (and two heads): whenever the engine
    names G by structure, the name read back as a set is exactly the brute-force group."""
    rng = random.Random(9)
    named = 0
    cases = []
    for _ in range(150):
        n = rng.choice((5, 6, 7))
        parts = rng.sample(SWEEP, rng.choice((1, 2, 3)))
        heads = [parts[0] if len(parts) == 1 else PatternUnion(tuple(parts))]
        if rng.random() < 0.25:
            heads.append(rng.choice(SWEEP))
        cases.append((heads, n))
    for heads, n in cases:
        G = structural(heads, n)
        if G.structure_parts is None:
            continue
        if any(type(f).__name__ == "PowerOn" for f in G.structure_parts.factors):
            continue
        if G.structure_parts.quotient_order is not None:
            continue  # "⋊ a group of order N": nothing named to check
        named += 1
        assert named_group(G.structure_parts, n) == brute_group(heads, n), (heads, n, G.structure)
    assert named >= 30


# ---------------------------------------------------------------------------------------------
# The action on classes, on hand-made generators

def _singletons(q):
    return [[x] for x in range(q)]


def test_the_dihedral_action_is_found_from_two_reflections():
    q = 6
    s = tuple((-i) % q for i in range(q))        # i ↦ −i
    t = tuple((1 - i) % q for i in range(q))     # i ↦ 1 − i: st is a rotation
    parts = name_action(_singletons(q), [s, t], 2 * q)
    assert [p.text for p in parts] == ["D_6 on the cycle (1, 2, 3, 4, 5, 6)"]


def test_a_cyclic_order_other_than_the_natural_one_is_named_by_its_cycle():
    cyc = [0, 2, 4, 1, 3, 5]  # a rotation of this 6-cycle keeps no cycle in the natural order
    g = [0] * 6
    for a, b in zip(cyc, cyc[1:] + cyc[:1]):
        g[a] = b
    parts = name_action(_singletons(6), [tuple(g)], 6)
    assert [p.text for p in parts] == ["C_6 on the cycle (1, 3, 5, 2, 4, 6)"]


def test_a_wrong_or_unproved_order_names_nothing():
    """The name comes only from the generators with their exact order: an order the bound does not
    reach (or exceed) leaves the honest 'a group of order N'."""
    q = 6
    rot = tuple((i + 1) % q for i in range(q))
    assert name_action(_singletons(q), [rot], 2 * q) is None       # C_6 claimed to have order 12
    classes = [[2 * x, 2 * x + 1] for x in range(4)]
    a4 = [(1, 2, 0, 3), (0, 2, 3, 1)]                                # A_4 on 4 classes: order 12
    assert name_action(classes, a4, 12) is None
    # the order is a premise (BLISS's exact count): with it, Sym(4) is the bound and 4! proves it reached
    assert [p.text for p in name_action(classes, [(1, 0, 2, 3), (1, 2, 3, 0)], math.factorial(4))] == \
        ["S_2 ≀ S_4 on the blocks {1, 2}, {3, 4}, {5, 6}, {7, 8}"]


def test_the_colour_bound_names_q_without_its_generators():
    """Q keeps the colours of the classes: |Q| = ∏ (classes per colour)! proves Q is that product."""
    from uapcheck.class_action import name_by_colours
    classes = [[0], [1, 2], [3, 4], [5, 6], [7, 8, 9], [10, 11, 12]]
    colours = [0, 1, 1, 1, 2, 2]
    parts = name_by_colours(classes, colours, 6 * 2)
    assert [p.text for p in parts] == ["S_2 ≀ S_3 on the blocks {2, 3}, {4, 5}, {6, 7}",
                                       "S_3 ≀ S_2 on the blocks {8, 9, 10}, {11, 12, 13}"]
    assert name_by_colours(classes, colours, 6) is None            # |Q| below the bound: not the product
    assert name_by_colours([[0], [1], [2]], [0, 0, 0], 6) is None   # single positions cannot be permuted freely


def test_a_large_group_permuting_classes_is_named_and_its_order_written_with_factorials():
    from uapcheck.groups import factorial_order_text
    G = structural([Blocks(2)], 64)
    assert G.structure == "S_2 ≀ S_32 on the blocks {1, 2}, {3, 4}, …, {63, 64}"
    assert G.order_text == "32! · (2!)^32" and G.order == math.factorial(32) * 2 ** 32
    assert factorial_order_text([[0, 1], [2]], math.factorial(30)) == "30! · 2!"
    assert factorial_order_text([[0, 1], [2]], math.factorial(30) + 2) != "30! · 2!"


def test_an_involution_reversing_intervals_is_named_up_to_three_of_them():
    """_reversed_intervals: the least moved position and its image bound an interval reversed whole (a fixed
    midpoint allowed); two or three such intervals are named, one (ReflectionOf's case) or four are not, and an
    involution that does not reverse its intervals is not."""
    def swap_of(intervals):
        return {p: lo + hi - p for lo, hi in intervals for p in range(lo, hi + 1) if 2 * p != lo + hi}
    three = [(1, 2), (3, 7), (9, 12)]
    fixed = {5, 8}
    got = _reversed_intervals(swap_of(three), fixed)
    assert got == ReflectionsOf(tuple(three)) and fixed == {8}  # the midpoint 5 now belongs to the factor
    assert got.text == "the reflection of {1, 2}, of {3, …, 7} and of {9, …, 12} at once"
    assert _reversed_intervals(swap_of([(1, 2), (3, 4), (5, 6), (7, 8)]), set()) is None
    assert _reversed_intervals(swap_of([(1, 6)]), set()) is None
    assert _reversed_intervals({1: 2, 2: 1, 3: 5, 5: 3, 4: 6, 6: 4}, set()) is None  # (3 5)(4 6): not reversed
    assert _reversed_intervals(swap_of([(1, 2), (3, 7)]), set()) is None  # the midpoint 5 is not a fixed position
