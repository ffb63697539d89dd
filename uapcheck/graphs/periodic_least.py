"""`blocks(b)` with symmetric non-cyclic window, dilated and offsets parts at symbolic n: D layers, least, by the cut
argument of Theorem F118 (docs/theory.md §11.11).

Setting of Theorems F115–F117 and F122 (a *periodic line pattern*, ``graphs/periodic_lines.py``) with S = −S: one
symmetric head without bias, so a permutation σ meets the witness condition at a root i (§11.9) exactly when it is an
isomorphism of Γ_n without the edges among i's far positions (those at distance D) onto the same at σ(i), far positions
onto far positions. The theorem:

* (locality) for n ≥ max(N₀, N_G), by F115's min-plus chains, the roots with far positions lie within
  Z = (h + σ + 2)Q of an end and their far positions within Z of the other end;
* (pinning) the group theorem's ball certificate (F116, F117 or F122) applies to every position whose ball of radius
  R avoids the far positions and the ends, so σ agrees on [Z + RJ + 1, n − Z − RJ] with one periodic symmetry α of
  the pattern on Z;
* (cut) deleting σQ positions from that middle (where σ = α) gives a view witness at n − σQ; inserting them back
  turns an automorphism into one, so the witness stays outside G.

Hence a view witness at n ≥ N₁ gives one at n − σQ, and if the exact decision finds none at every length from the
range's start to N₁ − 1, D layers suffice (and are least) at every n of the range. The exact decision at a length:
breadth-first search on bit sets from every position; at the roots with far positions, the rooted view (Γ_n without
the far positions' mutual edges, coloured by the distance to the root, capped at D) by BLISS; there is no view
witness iff Σ_i |Aut R_i|·#{j : R_j ≅ R_i} = (number of such roots)·|Aut Γ_n| (every element of G gives one
isomorphism per root, and they are the only ones iff the counts agree).

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import Callable, Optional, Sequence

import sympy
from .. import bliss
from sympy import Integer

SECTION = "docs/theory.md §11.11"
MAX_TOP = 420      # N₁ − 1: the last length the exact decision runs at
MAX_CHECK = 10_000_000  # Σ n² over the lengths checked (a breadth-first search from every position at each)


def premise_top(cut: int, sigma: int, start: int, zone: int, diameter_low: int, group_low: int, radius: int,
                span: int, b: int) -> int:
    """N₁ = max(max(N₀, N_G) + P, 2Z + (t₀ + 2)Q + P, 2(Z + RJ + W) + P + Q), P = σQ, Z = (h + σ + 2)Q, W = 3J + 4b:
    at every n ≥ N₁ a view witness gives one at n − P."""
    period = sigma * cut
    far = (zone + sigma + 2) * cut
    margin = 3 * span + 4 * b
    return max(max(diameter_low, group_low) + period, 2 * far + (start + 2) * cut + period,
               2 * (far + radius * span + margin) + period + cut)


def _neighbours(n: int, b: int, jumps: Sequence[int]) -> list[int]:
    """Closed neighbourhoods on bit sets (bit p − 1 is position p): p's block and p + k, k ∈ S, inside 1..n."""
    near = [0] * (n + 1)
    for p in range(1, n + 1):
        first = (p - 1) // b * b + 1
        bits = ((1 << (min(n, first + b - 1) - first + 1)) - 1) << (first - 1)  # the block first..min(n, first + b − 1)
        for k in jumps:
            if 1 <= p + k <= n:
                bits |= 1 << (p + k - 1)
        near[p] = bits | (1 << (p - 1))
    return near


def _eccentricities(n: int, b: int, jumps: Sequence[int]) -> Optional[list[int]]:
    """The largest distance from every position (index 0 unused), by breadth-first search from all positions at once,
    None when not connected. Row r of a bit matrix (n rows of ⌈n/64⌉ words) holds the ball of r; the graph is
    undirected (S = −S, blocks), so the ball of r at level ℓ + 1 is the union of the balls at level ℓ of r and its
    neighbours: one level is a few row shifts of the whole matrix (`eccentricities_by_columns` grows the balls by
    column shifts of a boolean matrix instead; the tests compare both)."""
    import numpy as np
    words = (n + 63) // 64
    reach = np.zeros((n, words), dtype=np.uint64)
    rows = np.arange(n)
    reach[rows, rows // 64] = np.left_shift(np.uint64(1), (rows % 64).astype(np.uint64))
    full_row = np.full(words, np.uint64(0xFFFFFFFFFFFFFFFF), dtype=np.uint64)
    if n % 64:
        full_row[-1] = np.uint64((1 << (n % 64)) - 1)
    position = rows % b
    # (shift k, the rows r with r + k a neighbour of r as a column mask): the jumps, then p ± k in p's block
    moves = [(k, None) for k in jumps]
    for k in range(1, b):
        moves.append((-k, np.where(position >= k, np.uint64(0xFFFFFFFFFFFFFFFF), np.uint64(0))[:, None]))
        moves.append((k, np.where(position < b - k, np.uint64(0xFFFFFFFFFFFFFFFF), np.uint64(0))[:, None]))
    ecc = np.full(n, -1)
    level = 0
    full = (reach == full_row).all(axis=1)
    ecc[full] = 0
    while not full.all():
        grown = reach.copy()
        for k, mask in moves:   # row r takes the ball of its neighbour r + k
            if abs(k) >= n:
                continue   # no position has a neighbour that far
            if k > 0:
                grown[:n - k] |= reach[k:] if mask is None else reach[k:] & mask[:n - k]
            elif k < 0:
                grown[-k:] |= reach[:n + k] if mask is None else reach[:n + k] & mask[-k:]
        level += 1
        if (grown == reach).all():
            return None
        reach = grown
        now = (reach == full_row).all(axis=1)
        ecc[now & ~full] = level
        full = now
    return [0] + [int(x) for x in ecc]


def eccentricities(n: int, b: int, jumps: Sequence[int]) -> Optional[tuple[int, ...]]:
    """`_eccentricities`, once per process for each length, block size and set of jumps (F118's class check and
    F117's onset search ask for the same lengths)."""
    return _eccentricities_once(n, b, tuple(sorted(set(jumps))))


@lru_cache(maxsize=2048)
def _eccentricities_once(n: int, b: int, jumps: tuple[int, ...]) -> Optional[tuple[int, ...]]:
    got = _eccentricities(n, b, jumps)
    return None if got is None else tuple(got)


def diameter(n: int, b: int, out_jumps: Sequence[int]) -> Optional[int]:
    """The diameter of the graph on 1..n with the blocks of b as cliques and an arc p → p + k for each k in
    `out_jumps` (directed when the jumps are not symmetric); None when it is not strongly connected. The largest
    eccentricity: `_eccentricities` grows each position's out-ball from its out-neighbours' balls."""
    ecc = eccentricities(n, b, out_jumps)
    return None if ecc is None else max(ecc[1:])


def eccentricities_by_columns(n: int, b: int, jumps: Sequence[int]) -> Optional[list[int]]:
    """`_eccentricities` with the balls as the rows of an n × n boolean matrix grown by column shifts (the reference
    the tests compare with)."""
    import numpy as np
    reach = np.eye(n, dtype=bool)
    position = np.arange(n)
    same = [(k, (position % b) >= k, (position % b) < b - k) for k in range(1, b)]   # p − k, p + k in p's block
    ecc = np.full(n, -1)
    level = 0
    full = reach.all(axis=1)
    ecc[full] = 0
    while not full.all():
        grown = reach.copy()
        for k in jumps:   # p sees p + k
            if k > 0:
                grown[:, :n - k] |= reach[:, k:]
            else:
                grown[:, -k:] |= reach[:, :n + k]
        for k, down, up in same:
            grown[:, k:] |= reach[:, :n - k] & down[k:]
            grown[:, :n - k] |= reach[:, k:] & up[:n - k]
        level += 1
        if (grown == reach).all():
            return None
        reach = grown
        now = reach.all(axis=1)
        ecc[now & ~full] = level
        full = now
    return [0] + [int(x) for x in ecc]


def _levels(near: list[int], n: int, root: int) -> list[int]:
    """d(v, root) for v = 1..n (index 0 unused); the graph is connected."""
    dist = [0] * (n + 1)
    seen = frontier = 1 << (root - 1)
    level = 0
    while frontier:
        bits = frontier
        nxt = 0
        while bits:
            low = bits & -bits
            v = low.bit_length()
            dist[v] = level
            nxt |= near[v]
            bits ^= low
        frontier = nxt & ~seen
        seen |= frontier
        level += 1
    return dist


def _edge_codes(kept: list, label: list, n: int) -> bytes:
    """The edges relabelled by `label`, each as min·n + max of its ends' labels, sorted (as bytes): the same
    information as the sorted pairs (min, max), in one numpy sort instead of a Python one."""
    import numpy as np
    flat = np.fromiter(chain.from_iterable(kept), dtype=np.int64, count=2 * len(kept))  # the pairs' ends, in order
    ends = np.asarray(label, dtype=np.int64)[flat.reshape(-1, 2)]
    codes = ends.min(axis=1) * n + ends.max(axis=1)
    codes.sort()
    return codes.tobytes()


def witness_problem(n: int, b: int, jumps: Sequence[int], d: int) -> Optional[str]:
    """None when D = d and no view witness exists at depth d at the length n (exact: §11.9), else what fails."""
    return _decision(n, b, tuple(jumps), d)[1]


@lru_cache(maxsize=1024)
def _decision(n: int, b: int, jumps: tuple[int, ...], d: int) -> tuple[str, Optional[str]]:
    """(kind, words) at the length n: ("none", None) when D = d and no view witness exists at depth d (exact: §11.9),
    ("witness", words) when one does, ("fail", words) when D is not d or Γ_n is not connected."""
    import igraph

    from ..bignum import count_automorphisms
    near = _neighbours(n, b, jumps)
    reach = max(b, max(jumps))
    edges = [(p - 1, q - 1) for p in range(1, n + 1) for q in range(p + 1, min(n, p + reach) + 1)
             if near[p] >> (q - 1) & 1]
    degree = [bin(near[p]).count("1") - 1 for p in range(n + 1)]
    ecc = eccentricities(n, b, jumps)
    if ecc is None:
        return "fail", f"n = {n}: not connected"
    if max(ecc[1:]) != d:
        return "fail", f"n = {n}: the diameter is {max(ecc[1:])}, not {d}"
    whole = count_automorphisms(igraph.Graph(n=n, edges=edges))
    views = []   # (root, distances, the edges without the far positions' mutual ones, invariant)
    for i in range(1, n + 1):
        if ecc[i] != d:
            continue   # a covering root: no witness there, and no partner (§11.9, R1)
        dist = _levels(near, n, i)
        far = [v for v in range(1, n + 1) if dist[v] == d]
        inner = {(p - 1, q - 1) for k, p in enumerate(far) for q in far[k + 1:] if near[p] >> (q - 1) & 1}
        kept = [e for e in edges if e not in inner] if inner else edges
        lost = [0] * (n + 1)
        for p, q in inner:
            lost[p + 1] += 1
            lost[q + 1] += 1
        invariant = tuple(sorted((dist[v], degree[v] - lost[v]) for v in range(1, n + 1)))
        views.append((i, dist, kept, invariant))
    by_invariant: dict = {}
    for k, view in enumerate(views):
        by_invariant.setdefault(view[3], []).append(k)
    isomorphisms = 0
    for members in by_invariant.values():
        forms: dict = {}
        for k in members:
            _, dist, kept, _ = views[k]
            graph = igraph.Graph(n=n, edges=kept)
            colours = dist[1:]
            count = count_automorphisms(graph, color=colours)
            key: tuple = ()
            if len(members) > 1:
                order = bliss.canonical_permutation(graph, colours)
                label = [0] * n
                for at, v in enumerate(order):
                    label[v] = at
                placed = [0] * n
                for v, c in enumerate(colours):
                    placed[label[v]] = c
                key = (tuple(placed), _edge_codes(kept, label, n))
            forms.setdefault(key, []).append(count)
        isomorphisms += sum(count * len(counts) for counts in forms.values() for count in counts)
    if isomorphisms != len(views) * whole:
        return "witness", (f"n = {n}: a view witness at depth {d} ({isomorphisms} isomorphisms between the rooted "
                           f"views of the {len(views)} roots with far positions, {len(views) * whole} from G)")
    return "none", None


@dataclass(frozen=True)
class Classes:
    """F118 run class by class of n mod P (P = σQ): ``free`` the residues with no view witness at depth D at any
    length of the class from the range's start to N₁ − 1 (D layers, least, on the class: (a)), ``bound`` those with
    one at every such length (D + 1 layers, least, on the class: (a′)), the others mixed (D + 1, sufficient)."""
    period: int
    free: tuple[int, ...]
    bound: tuple[int, ...]
    witnesses: tuple[str, ...]   # the first witness found on each class of ``bound`` and the mixed ones, in words

    @property
    def plus(self) -> frozenset:
        """The residues where the count is D + 1."""
        return frozenset(range(self.period)) - frozenset(self.free)

    @property
    def least(self) -> frozenset:
        return frozenset(self.free) | frozenset(self.bound)


@lru_cache(maxsize=32)
def class_check(b: int, jumps: tuple[int, ...], low: int, top: int, diameters: tuple[int, ...],
                period: int) -> Classes | str:
    """The exact decision at every length low..top − 1 (D there: ``diameters``), class by class of n mod ``period``
    (top − low ≥ period: every class has a length in [top − period, top − 1]); a string when D or connectivity fails
    at a length (then nothing is stated)."""
    if top - 1 > MAX_TOP:
        return f"the check would run up to n = {top - 1}, beyond {MAX_TOP}"
    kinds: dict[int, set] = {r: set() for r in range(period)}
    first: dict[int, str] = {}
    for n, d in zip(range(low, top), diameters):
        kind, words = _decision(n, b, jumps, d)
        if kind == "fail":
            return str(words)
        kinds[n % period].add(kind)
        if kind == "witness":
            first.setdefault(n % period, str(words))
    free = tuple(r for r in range(period) if kinds[r] == {"none"})
    bound = tuple(r for r in range(period) if kinds[r] == {"witness"})
    return Classes(period, free, bound, tuple(first[r] for r in sorted(first)))


def least_check(b: int, jumps: tuple[int, ...], low: int, top: int, diameters: tuple[int, ...]) -> Optional[str]:
    """The exact decision at every length low..top − 1 (D there: ``diameters``): None when no view witness exists at
    any of them, else the first problem."""
    if top - 1 > MAX_TOP:
        return f"the check would run up to n = {top - 1}, beyond {MAX_TOP}"
    for n, d in zip(range(low, top), diameters):
        problem = witness_problem(n, b, jumps, d)
        if problem:
            return problem
    return None


def _limits(b: int, jumps: tuple[int, ...], low: int, top: int) -> Optional[str]:
    if set(jumps) != {-k for k in jumps}:
        return "the jumps are not symmetric"
    if top - 1 > MAX_TOP:
        return f"the check would run up to n = {top - 1}, beyond {MAX_TOP}"
    if sum(n * n for n in range(low, top)) > MAX_CHECK:
        return f"the check at every length from {low} to {top - 1} is beyond its work limit"
    return None


def decide(b: int, jumps: tuple[int, ...], low: int, top: int, diameter_at: Callable[[int], int]) -> Optional[str]:
    """F118's premise for a symmetric periodic line stated from ``low``: None when it holds (D layers, least)."""
    return _limits(b, jumps, low, top) or least_check(b, tuple(jumps), low, top,
                                                      tuple(diameter_at(n) for n in range(low, top)))


def decide_classes(b: int, jumps: tuple[int, ...], low: int, top: int, period: int,
                   diameter_at: Callable[[int], int]) -> Classes | str:
    """F118 class by class of n mod ``period`` for a symmetric periodic line stated from ``low``: the classes, or why
    the check does not run."""
    return _limits(b, jumps, low, top) or class_check(b, tuple(jumps), low, top,
                                                      tuple(diameter_at(n) for n in range(low, top)), period)


def line_top(line, group_low: int, radius: int) -> int:
    return premise_top(line.cut, line.sigma, line.start, line.zone, line.diameter_low, group_low, radius, line.span,
                       line.b)


def line_problem(line, group_low: int, radius: int, low: int) -> Optional[str]:
    """F118 for a periodic line (``graphs/periodic_lines.PeriodicLine``: F115's data) whose group theorem (F116, F117
    or F122) holds from N_G = group_low with its certificate at `radius`, stated from `low`: None when D layers are
    proved least at every n ≥ low, else why not."""
    return decide(line.b, tuple(line.jumps), low, line_top(line, group_low, radius), line.diameter_at)


def line_classes(line, group_low: int, radius: int, low: int) -> Classes | str:
    """F118 class by class of n mod P for a periodic line (as ``line_problem``)."""
    return decide_classes(line.b, tuple(line.jumps), low, line_top(line, group_low, radius), line.period,
                          line.diameter_at)


def coarsest(period: int, residues) -> tuple[int, tuple[int, ...]]:
    """(m, the residues mod m): the least m dividing ``period`` with membership in ``residues`` (mod period) read
    from n mod m alone."""
    kept = set(residues)
    for m in range(1, period + 1):
        if period % m == 0 and all((r in kept) == (r % m in {k % m for k in kept}) for r in range(period)):
            return m, tuple(sorted({k % m for k in kept}))
    return period, tuple(sorted(kept))


def class_list(residues) -> str:
    return "{" + ", ".join(map(str, residues)) + "}"


def count_at_length(n, line, plus) -> sympy.Expr:
    """F115's D, plus one on the residues ``plus`` of n mod P: the value at an Integer, the closed form by n mod P at a
    Symbol."""
    from .symbolic_unions import _residue_pieces
    P, c, low = line.period, line.growth, line.diameter_low
    if isinstance(n, (int, Integer)):
        return Integer(line.diameter_at(int(n)) + (1 if int(n) % P in plus else 0))
    offsets = {(low + t) % P: line.base[t] - c * ((low + t) // P) + (1 if (low + t) % P in plus else 0)
               for t in range(P)}
    return _residue_pieces(n, P, offsets, lambda a: Integer(a) + c * sympy.floor(n / P))


def layers_fields(line, group_low: int, radius: int, low: int, theorem: str, diameter, n=None) -> tuple:
    """(layers, least, why, open question, least classes) of a periodic line's FamilyTheorem at the length n (a Symbol
    or an Integer): D, least, where F118's premise holds on every class of n mod P; D on the classes without a view
    witness and D + 1 on the others, class by class (least on the classes where the check finds no witness, or one at
    every length); else D + 1, sufficient, with the check's failure named."""
    top = line_top(line, group_low, radius)
    found = line_classes(line, group_low, radius, low)
    P = line.period
    cut = (f"past {top - 1} a witness at n would give one at n − {P}, deleting a period from the middle, where "
           f"{theorem}'s certificate pins it to a periodic symmetry")
    if isinstance(found, Classes) and len(found.free) == P:
        return (diameter, True,
                f"D layers suffice, so they are least (Theorem F118: no view witness at depth D at any length from "
                f"{low} to {top - 1}, exactly by rooted views; {cut})", "", ())
    question = (f"whether D layers suffice for blocks(b) with a non-cyclic line part is not proved ({SECTION}, "
                f"Theorems F115, {theorem}, F118: {{}})")
    if not isinstance(found, Classes) or not found.free and not found.bound:
        problem = found if not isinstance(found, Classes) else found.witnesses[0]
        return (diameter + 1, False,
                f"D + 1 layers suffice by the view argument (§11.2); whether D do is open (Theorems F115, {theorem}; "
                f"F118's check: {problem})", question.format(problem), ())
    mixed = sorted(found.plus - frozenset(found.bound))
    words = f"Theorem F118 class by class of n mod {P} (the cut keeps n mod {P})"
    if found.free:
        m_free, free = coarsest(P, found.free)
        words += (f": no view witness at depth D at any length from {low} to {top - 1} with n mod {m_free} in "
                  f"{class_list(free)}, so D layers suffice there, least ({cut})")
    if found.bound:
        m_bound, bound = coarsest(P, found.bound)
        words += (f"{'; ' if found.free else ': '}a view witness at depth D at every length from {low} to {top - 1} "
                  f"with n mod {m_bound} in {class_list(bound)} (first: {found.witnesses[0]}), so D + 1 layers there, least (from "
                  f"{top - P} on a witness at n gives one at n + {P}, inserting a period where the certificate pins "
                  "it to a periodic symmetry)")
    open_words = ""
    if mixed:
        m_mixed, shown = coarsest(P, mixed)
        open_words = (f"on n mod {m_mixed} in {class_list(shown)} a view witness at depth D at some lengths from "
                      f"{low} to {top - 1} and none at others: D + 1 layers suffice, whether D do at every length of "
                      "those classes is open")
        words += "; " + open_words
    if not isinstance(n, sympy.Symbol):  # a concrete length: the count and flag of its class
        r = int(n) % P
        least_here = r in found.least
        return (count_at_length(n, line, found.plus), least_here, f"n mod {P} = {r}: " + words,
                "" if least_here else question.format(open_words), ())
    layers = count_at_length(n, line, found.plus)
    if len(found.least) == P:
        return layers, True, words, "", ()
    return layers, False, words, question.format(open_words), coarsest(P, found.least)
