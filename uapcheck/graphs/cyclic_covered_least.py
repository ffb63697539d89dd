"""Theorem F200 (docs/theory.md §11.11, lemma AA): view witnesses with 2 layers for `window(w) cyclic + strided(s)`,
integers w ≥ 1, w + 1 ≤ s ≤ 2w + 1 (D = 2 by Theorem F197, G by Theorem F201), at every n ≥ s(3w + 2) of a residue
class of n mod s. On those classes D = 2 layers are not enough and D + 1 = 3 are least.

Three witnesses, each stated by residues (the rule as data; every position involved lies within 3w + 2s of an end
or in one window in the middle, so the check is the same at every length of the class):

* the block exchange (s = 2w + 1, every n): σ exchanges P = [3w + 3, 5w + 3] and P + s (x ↦ x ± s) at the root 1;
* the seam swap (n ≡ j + 1, 0 ≤ j ≤ w − 1): x = j + 1 and y = n lie in one class at cyclic distance j + 1; the
  positions adjacent to exactly one of them have the residues of R_j = {j + 1} ∪ [w + 1, w + j + 1] ∪
  [j + 1 − w, 2j + 1 − w] (mod s); when R_j misses a residue ρ, the swap (x y) is a witness at the root i ≡ ρ,
  3w + 2 ≤ i < 3w + 2 + s;
* the end-root swap: a root i ≤ w whose window wraps round the seam sees the residues [1, i + w] ∪ [e − w + i, e]
  (e = n mod s) only; when two consecutive residues r, r + 1 are missed and r + w + 1 ≢ i (mod s), the swap
  (x x + 1) with x ≡ r, 3w + 1 ≤ x < 3w + 1 + s, is a witness at i.

Theorem F219 (lemma AJ) on the other classes e ≠ 0 for s ≤ 2w: a view witness with 2 layers at n + s gives one at n
for every n ≥ max(s(3w + 2), 15s) of the class (one period cut out of the root's class, aligned with σ), so when the
rooted views find none at the class's lengths below max(s(3w + 2), 15s) + s, D = 2 layers suffice at every n of the
class (``suffice_classes``).

Theorems F224–F226 (lemma AM) for 2 ≤ s ≤ w, the stride covered densely: the seam swap (a, a + n − e), 1 ≤ a ≤ e =
n mod s, is a view witness with 2 layers at a middle root whose class misses its residues ({a} ∪ [a − w, a − w + e − 1]
∪ [a + w − e + 1, a + w] mod s; ``dense_witness_classes``); and on every class (s | n and the twins' class too) a view
witness at n + s gives one at n for n ≥ ``dense_pump_from`` (one period cut out where the witness is an index shift of
the root's class; no order of the whole class is needed), so the rooted views at the class's one length in
[N₁, N₁ + s) decide the class for every n ≥ N₁ (``dense_suffice_classes``).
"""
from __future__ import annotations

import functools
from typing import Optional

#: a witness: (root, the 2-cycles of σ); σ keeps N(v) for every v within distance 1 of the root and is not in G
Witness = tuple[int, tuple[tuple[int, int], ...]]


def low(w: int, s: int) -> int:
    """The range: Theorem F201's n ≥ s(3w + 2)."""
    return s * (3 * w + 2)


def seam_residues(w: int, s: int, j: int) -> frozenset:
    """R_j: the residues of the class of the seam pair (j + 1, n) and of the positions adjacent to exactly one of
    them, {w + 1, …, w + j + 1} and {n − w, …, n − w + j}, at n ≡ j + 1 (mod s)."""
    return frozenset({(j + 1) % s} | {(w + 1 + k) % s for k in range(j + 1)}
                     | {(j + 1 - w + k) % s for k in range(j + 1)})


def seam_root_residue(w: int, s: int, e: int) -> Optional[int]:
    """The least residue ρ outside R_j at n ≡ e = j + 1 (mod s) with 0 ≤ j ≤ w − 1; None where there is none."""
    j = (e - 1) % s
    if j > w - 1:
        return None
    missed = [r for r in range(s) if r not in seam_residues(w, s, j)]
    return missed[0] if missed else None


def end_root_pair(w: int, s: int, e: int) -> Optional[tuple[int, int]]:
    """(i, r): a root i ≤ w and a residue r with r, r + 1 outside the residues [1, i + w] ∪ [e − w + i, e] of N[i]
    and r + w + 1 ≢ i (mod s), at n ≡ e (mod s); None where there is none."""
    for i in range(1, w + 1):
        seen = {k % s for k in range(1, i + w + 1)} | {(e - w + i + k) % s for k in range(w - i + 1)}
        for r in range(s):
            if r not in seen and (r + 1) % s not in seen and (r + w + 1 - i) % s:
                return i, r
    return None


def witness_classes(w: int, s: int) -> tuple[int, ...]:
    """The residues e of n mod s on which Theorem F200 gives a witness: every residue for s = 2w + 1, else those
    with a seam swap or an end-root swap."""
    if s == 2 * w + 1:
        return tuple(range(s))
    return tuple(e for e in range(s)
                 if seam_root_residue(w, s, e) is not None or end_root_pair(w, s, e) is not None)


def _first(at_least: int, r: int, s: int) -> int:
    """The least integer ≥ at_least that is ≡ r (mod s)."""
    return at_least + (r - at_least) % s


def witness(w: int, s: int, n: int) -> Optional[Witness]:
    """Theorem F200's witness at the length n ≥ s(3w + 2), or None on a class it does not decide."""
    if not (w >= 1 and w + 1 <= s <= 2 * w + 1 and n >= low(w, s)):
        return None
    if s == 2 * w + 1:
        p = 3 * w + 3
        return 1, tuple((p + k, p + s + k) for k in range(s))
    e = n % s
    rho = seam_root_residue(w, s, e)
    if rho is not None:
        j = (e - 1) % s
        return _first(3 * w + 2, rho, s), ((j + 1, n),)
    found = end_root_pair(w, s, e)
    if found is not None:
        i, r = found
        x = _first(3 * w + 1, r, s)
        return i, ((x, x + 1),)
    return None


def pump_from(w: int, s: int) -> int:
    """Lemma AJ's range: a witness at n + s gives one at n for n ≥ max(s(3w + 2), 15s) (the root's class then has at
    least 16 members at n + s, so a period of it can be cut out away from the root, the seam and a swapped pair)."""
    return max(low(w, s), 15 * s)


def base_lengths(w: int, s: int, e: int) -> tuple[int, ...]:
    """Theorem F219's check: the lengths n ≡ e (mod s) with s(3w + 2) ≤ n < max(s(3w + 2), 15s) + s."""
    return tuple(n for n in range(low(w, s), pump_from(w, s) + s) if n % s == e)


#: Theorem F219's check runs the rooted views up to this (w, s): above, the classes stay "sufficient, not shown least"
SUFFICE_MAX_S = 16


def _no_witness(w: int, s: int, n: int) -> bool:
    """The concrete engine's rooted views (canonical labelling, §11.9) of `window(w) cyclic + strided(s)` at n: True
    when D = 2 layers suffice (no view witness at depth 2), False when a witness exists or the views ran out."""
    from .. import spec as S
    from . import analyze_connectivity, build_graph, symmetry_group
    from .symmetry import pattern_structure
    from .views import PROBE_WORK, decide_views
    graphs = [build_graph(S.PatternUnion((S.Window(w, True), S.Strided(s))), n, {})]
    conn = analyze_connectivity(graphs)
    if not conn.strongly_connected or conn.diameter != 2:
        return False
    grp = symmetry_group(graphs)
    dec = decide_views(graphs, 2, int(grp.order), grp.generators, pattern_structure(graphs).preserves,
                       probe_work=PROBE_WORK, certificate=False)
    return dec.sufficient is True


def _checked(w: int, s: int, residues, lengths) -> tuple[int, ...]:
    """The residues e among ``residues`` where the rooted views find no view witness at every length of
    ``lengths(e)``: the finite check of a lemma that carries a witness at n + s down to n (F219's lemma AJ, F225's
    lemma AM)."""
    return tuple(e for e in residues if all(_no_witness(w, s, n) for n in lengths(e)))


@functools.lru_cache(maxsize=256)
def suffice_classes(w: int, s: int) -> tuple[int, ...]:
    """Theorem F219: the residues e ≠ 0 of n mod s (w + 1 ≤ s ≤ 2w, s ≥ 3) outside Theorem F200's classes where the
    rooted views find no view witness with 2 layers at every length of ``base_lengths``; by lemma AJ D = 2 layers
    suffice at every n ≥ s(3w + 2) of such a class. () outside the family or above ``SUFFICE_MAX_S``."""
    if not (w >= 2 and w + 1 <= s <= 2 * w and 3 <= s <= SUFFICE_MAX_S):
        return ()
    stated = set(witness_classes(w, s))
    return _checked(w, s, [e for e in range(1, s) if e not in stated], lambda e: base_lengths(w, s, e))


# ---------------------------------------------------------------------------------------------
# Theorems F224–F226 (lemma AM): 2 ≤ s ≤ w


def dense_low(w: int, s: int) -> int:
    """Theorem F205's range n ≥ max(s(3w + 2), 20w) (the group)."""
    return max(s * (3 * w + 2), 20 * w)


def dense_seam_residues(w: int, s: int, e: int, a: int) -> frozenset:
    """The residues of the seam pair x = a, y = a + n − e (one class, cyclic distance e) and of the positions seeing
    exactly one of them, at n ≡ e (mod s): {a} ∪ [a − w, a − w + e − 1] ∪ [a + w − e + 1, a + w] (mod s)."""
    return frozenset({a % s} | {(a - w + k) % s for k in range(e)} | {(a + w - e + 1 + k) % s for k in range(e)})


def dense_seam_pair(w: int, s: int, e: int) -> Optional[tuple[int, int]]:
    """(a, ρ): the least a ∈ [1, e] whose seam pair has a position seeing exactly one of it (not the twins 1, n of
    s | w, e = 1) and a residue ρ outside ``dense_seam_residues``, at n ≡ e (mod s); None where there is none."""
    for a in range(1, e + 1):
        seen = dense_seam_residues(w, s, e, a)
        if seen == {a % s}:  # e = 1, s | w: every position seeing one of 1, n is in their class (twins)
            continue
        missed = [r for r in range(s) if r not in seen]
        if missed:
            return a, missed[0]
    return None


def dense_witness_classes(w: int, s: int) -> tuple[int, ...]:
    """Theorem F224: the residues e ≠ 0 of n mod s (2 ≤ s ≤ w) with a seam swap."""
    if not 2 <= s <= w:
        return ()
    return tuple(e for e in range(1, s) if dense_seam_pair(w, s, e) is not None)


def dense_witness(w: int, s: int, n: int) -> Optional[Witness]:
    """Theorem F224's witness at n ≥ max(s(3w + 2), 20w), or None on a class it does not decide."""
    if not (2 <= s <= w and n >= dense_low(w, s)):
        return None
    e = n % s
    found = dense_seam_pair(w, s, e) if e else None
    if found is None:
        return None
    a, rho = found
    return _first(3 * w + 2, rho, s), ((a, a + n - e),)


def dense_pump_from(w: int, s: int) -> int:
    """Lemma AM's range N₁: a view witness with 2 layers at n + s gives one at n for n ≥ N₁. The root's class at n + s
    then has more members than those excluded as the cut's centre, in the domain and again in the image (docs/theory.md
    §11.11, Theorem F225): within 4w + s of the seam, within 2w + s − 1 of the root, within w + s − 1 of one end and
    s − 1 of the other end of a pair the witness does not keep; and at least 4w + 4 (its members told from the root's
    window by common neighbours)."""
    def at_most(length: int) -> int:  # members of one class among `length` cyclically consecutive positions
        return -(-length // s) + 1
    zone = 4 * w + s
    excluded = 2 * (at_most(2 * zone) + at_most(4 * w + 2 * s - 1) + at_most(2 * w + 2 * s - 1) + at_most(2 * s - 1))
    return max(dense_low(w, s), s * excluded, s * (4 * w + 4))


def dense_base_length(w: int, s: int, e: int) -> int:
    """Theorem F226's check: the one length n ≡ e (mod s) with N₁ ≤ n < N₁ + s."""
    return _first(dense_pump_from(w, s), e, s)


#: Theorem F226's check, run once by ``dense_check`` (the rooted views at the class's length in [N₁, N₁ + s)) and kept
#: as data, as the engine reads it at every match (rules as data): (w, s) -> the classes where no view witness exists.
#: tests/graphs/test_cyclic_window_dense_stride_least.py re-runs ``dense_check`` against it; the verifier re-checks
#: the classes with nauty on its own arcs. Every class outside F224's is here for w ≤ 6; above, 3 layers stay
#: sufficient (least on F224's classes).
DENSE_CHECKED = {
    (2, 2): (0, 1), (3, 2): (0, 1), (3, 3): (0, 1, 2), (4, 2): (0, 1), (4, 3): (0, 1, 2), (4, 4): (0, 1, 3),
    (5, 2): (0, 1), (5, 3): (0, 1, 2), (5, 4): (0,), (5, 5): (0, 1, 3, 4),
    (6, 2): (0, 1), (6, 3): (0, 1, 2), (6, 4): (0, 2, 3), (6, 5): (0, 4), (6, 6): (0, 1, 4, 5),
}


def dense_check(w: int, s: int) -> tuple[int, ...]:
    """Theorem F226's check: the residues e of n mod s (2 ≤ s ≤ w, e = 0 and the twins' class included) outside
    Theorem F224's classes where the rooted views find no view witness with 2 layers at the class's length in
    [N₁, N₁ + s)."""
    stated = set(dense_witness_classes(w, s))
    return _checked(w, s, [e for e in range(s) if e not in stated], lambda e: (dense_base_length(w, s, e),))


def dense_suffice_classes(w: int, s: int) -> tuple[int, ...]:
    """Theorem F226: the classes of ``DENSE_CHECKED`` (by lemma AM, D = 2 layers suffice at every n ≥ N₁ of such a
    class); () outside the family or the table."""
    return DENSE_CHECKED.get((w, s), ()) if 2 <= s <= w else ()
