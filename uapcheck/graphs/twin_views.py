"""A blow-up decided on its twin quotient itself, at the true class sizes (Lemma N, Theorem F181, docs/theory.md
§11.11): strong connectivity, the diameter, the class permutations Aut_c(Q) and whether D layers suffice, without
a stand-in graph and without any arc of the pattern.

Theorem F181: when the twin classes have pairwise distinct key sets In(t), a permutation σ that keeps the keys of
every position within distance m − 1 ≥ 1 of a root in C_r maps each such class C_s into one class C_{π(s)}, π is
injective and keeps the arcs among those classes, and the rest of σ is any bijection that keeps, for every such s,
whether a position is a key of C_s (its *type*). So a view witness exists iff some such π, with the sizes of each
type equal on both sides (exact integer sums of the class sizes), admits a σ outside G; which σ are in G is read
off the types (a class mapped onto a class, the class permutation in Aut_c(Q)). Everything is a search over the k
classes (k ≤ 32), with exact sizes: the near-cancelling sums of equal residue cells that defeat the stand-in of
Lemma L (`blocks(600000) + strided(4)` at n = 1,048,576) are compared as they are.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Optional

from .twin_quotient import Quotient
from .. import bliss
from ..bignum import count_automorphisms

#: the stage a whole-file budget that runs out during the search is reported in (there is no search limit: the
#: prefix types of Lemma F keep the search small, and a search that is not is a real resource limit, named so)
STAGE = "the class maps of the view witnesses on the twin quotient (Theorem F181, pruned by Lemma F, Theorem F204)"


@dataclass(frozen=True)
class QuotientDecision:
    """What the quotient decides, in classes: `pair` = (t, u) when class u never reaches class t (else None);
    the diameter; the layer count (D, or D + 1 when a view witness of depth D exists; always least); `swap`
    = (root class, t, u) when a transposition of a member of C_t with a member of C_u is a witness at the root's
    members; `exchanges` = |Aut_c(Q)|."""

    pair: Optional[tuple[int, int]]
    diameter: Optional[int]
    layers: Optional[int]
    witness_exists: Optional[bool]
    swap: Optional[tuple[int, int, int]]
    exchanges: int


def _distances_to(q: Quotient, r: int) -> dict[int, int]:
    """d_Q(s → r) for the classes s that reach r (an arc u → t when u ∈ In(t): t's members attend to u's)."""
    dist = {r: 0}
    queue = deque([r])
    while queue:
        t = queue.popleft()
        for u in q.keys[t]:
            if u not in dist:
                dist[u] = dist[t] + 1
                queue.append(u)
    return dist


class _Group:
    """Aut_c(Q) by BLISS on the k classes coloured by their sizes, and the orbits of its pointwise stabilisers (the
    classes in `fixed` coloured apart), cached."""

    def __init__(self, q: Quotient):
        from ..lazy import igraph as ig, igraph_without_numpy  # without its drawing backends (matplotlib) and numpy
        k = q.k
        edges = [(u, t) for t in range(k) for u in q.keys[t] if u != t]
        with igraph_without_numpy():
            self.graph = ig.Graph(n=k, edges=edges, directed=True)
        rank = {c: x for x, c in enumerate(sorted(set(q.sizes)))}
        self.colour = [rank[c] for c in q.sizes]
        self.order = count_automorphisms(self.graph, color=self.colour)
        self.k = k
        self._reps: dict = {}

    def representatives(self, fixed: tuple) -> list[int]:
        """One class per orbit of the pointwise stabiliser of `fixed` in Aut_c(Q)."""
        if fixed not in self._reps:
            if self.order == 1 or (fixed and len(self.representatives(fixed[:-1])) == self.k):
                # a trivial group, or a stabiliser inside a trivial one: every class is its own orbit
                self._reps[fixed] = list(range(self.k))
                return self._reps[fixed]
            colour = list(self.colour)
            top = max(colour) + 1
            for x, t in enumerate(fixed):
                colour[t] = top + x
            gens = [list(p) for p in bliss.generators(self.graph, colour)]
            self._reps[fixed] = _orbit_representatives(self.k, gens)
        return self._reps[fixed]


def _orbit_representatives(k: int, gens: list[list[int]]) -> list[int]:
    seen: set[int] = set()
    reps = []
    for t in range(k):
        if t in seen:
            continue
        reps.append(t)
        stack = [t]
        seen.add(t)
        while stack:
            x = stack.pop()
            for g in gens:
                if g[x] not in seen:
                    seen.add(g[x])
                    stack.append(g[x])
    return reps


def _is_automorphism(q: Quotient, rho: list[int]) -> bool:
    return all(q.sizes[rho[t]] == q.sizes[t] and
               all((u in q.keys[t]) == (rho[u] in q.keys[rho[t]]) for u in range(q.k)) for t in range(q.k))


class _Search:
    """The class maps π of Theorem F181 for one root class r and depth m ≥ 2."""

    def __init__(self, q: Quotient, r: int, m: int, group: _Group):
        self.q, self.group = q, group
        self.nodes = 0
        dist = _distances_to(q, r)
        self.known = sorted((s for s in dist if dist[s] <= m - 1), key=lambda s: (dist[s], s))
        inside = set(self.known)
        self.outside = [t for t in range(q.k) if t not in inside]
        self.kind = {t: frozenset(s for s in self.known if t in q.keys[s]) for t in range(q.k)}
        self.pi: dict[int, int] = {}
        self.images: set[int] = set()
        # Lemma F (Theorem F204): the view's prefix types, position side (bit x: a key of known[x]'s members) and
        # image side (bit x: a key of π(known[x])'s members), as bit masks per class
        self.mine: list[list[int]] = [[0] * q.k]
        for x, s in enumerate(self.known):
            self.mine.append([m | (1 << x if t in q.keys[s] else 0) for t, m in enumerate(self.mine[-1])])
        self.counts: list[dict[int, int]] = []
        for masks in self.mine:
            count: dict[int, int] = {}
            for t, m in enumerate(masks):
                count[m] = count.get(m, 0) + q.sizes[t]
            self.counts.append(count)
        self.theirs: list[list[int]] = [[0] * q.k]

    def balanced(self, x: int, u: int) -> bool:
        """Lemma F (Theorem F204): with π(known[x]) = u, the positions of each prefix type (for which of
        known[0..x] they are keys) are as many as the positions of that type under π (for which images they are
        keys of), the sizes summed over all classes; else no witness extends this prefix. Pushes the image side's
        masks when balanced."""
        c, keys = self.q.sizes, self.q.keys[u]
        bit = 1 << x
        theirs = [m | bit if t in keys else m for t, m in enumerate(self.theirs[-1])]
        count = dict(self.counts[x + 1])
        for t, m in enumerate(theirs):
            left = count.get(m, 0) - c[t]
            if left < 0:
                return False
            count[m] = left
        self.theirs.append(theirs)
        return True

    def types(self) -> Optional[tuple[bool, dict]]:
        """The types of both sides under π: None when their sizes differ (condition (3)); else whether a class of
        the view grows (condition (4) (i)) and, for each type, its classes (T_τ, U_τ)."""
        q, pi = self.q, self.pi
        c = q.sizes
        balance: dict = {}
        sides: dict = {}
        for t in self.outside:
            balance[self.kind[t]] = balance.get(self.kind[t], 0) + c[t]
            sides.setdefault(self.kind[t], ([], []))[0].append(t)
        grown = False
        for s in self.known:
            extra = c[pi[s]] - c[s]
            if extra:
                grown = True
                balance[self.kind[s]] = balance.get(self.kind[s], 0) - extra
        images = set(pi.values())
        for u in range(q.k):
            if u not in images:
                tau = frozenset(s for s in self.known if u in q.keys[pi[s]])
                balance[tau] = balance.get(tau, 0) - c[u]
                sides.setdefault(tau, ([], []))[1].append(u)
        if any(balance.values()):
            return None
        return grown, sides

    def outside_group(self) -> bool:
        """Whether some σ with the class map π is a witness (conditions (3) and (4))."""
        found = self.types()
        if found is None:
            return False  # no bijection keeps the types
        grown, sides = found
        if grown:
            return True  # a class of the view is mapped into a larger class: not onto, so σ ∉ G
        q, c = self.q, self.q.sizes
        rho = list(range(q.k))
        for s in self.known:
            rho[s] = self.pi[s]
        swaps: list[tuple[int, int]] = []
        for ts, us in sides.values():
            if not (len(ts) == len(us) == 1 or all(c[x] == 1 for x in ts + us)):
                return True  # the bijection can split a class over two classes, or fill one from two: σ ∉ G
            for t, u in zip(ts, us):
                rho[t] = u
            swaps.extend(zip(ts, ts[1:]))
        if not _is_automorphism(q, rho):
            return True
        for a, b in swaps:  # every choice is in G iff the exchanges of equal-type singleton classes are in Aut_c(Q)
            exchange = list(range(q.k))
            exchange[a], exchange[b] = b, a
            if not _is_automorphism(q, exchange):
                return True
        return False

    def fits(self, s: int, u: int) -> bool:
        """π(s) = u keeps the sizes (1) and the arcs to and from the classes mapped so far (2)."""
        q, pi = self.q, self.pi
        keys = q.keys
        return q.sizes[u] >= q.sizes[s] and u not in self.images and all(
            (t in keys[s]) == (pi[t] in keys[u]) and (s in keys[t]) == (u in keys[pi[t]]) for t in pi)

    def extend(self, x: int) -> bool:
        """Map the view's classes from the x-th on. π(known[x]) is taken up to the pointwise stabiliser of the images
        so far in Aut_c(Q): for g there, gσ is a witness whenever σ is, with the same images so far."""
        self.nodes += 1
        if x == len(self.known):
            return self.outside_group()
        s = self.known[x]
        for u in self.group.representatives(tuple(self.pi[t] for t in self.known[:x])):
            if not self.fits(s, u) or not self.balanced(x, u):
                continue
            self.pi[s] = u
            self.images.add(u)
            found = self.extend(x + 1)
            del self.pi[s]
            self.images.discard(u)
            self.theirs.pop()
            if found:
                return True
        return False


def _witness_at(q: Quotient, r: int, m: int, group: _Group) -> bool:
    """Whether a view witness of depth m ≥ 2 exists at the members of class r (Theorem F181)."""
    return _Search(q, r, m, group).extend(0)


def _swap_witness(q: Quotient, r: int, m: int) -> Optional[tuple[int, int, int]]:
    """A transposition (x y), x ∈ C_t, y ∈ C_u (t ≠ u), that is a view witness at the members of C_r, or None. Its
    support is the diagonal (t, t), (u, u) only where the class has another member, with (t, u) and (u, t)."""
    k, c, keys = q.k, q.sizes, q.keys
    dist = _distances_to(q, r)
    known = [s for s in dist if dist[s] <= m - 1]

    def keeps(s: int, s2: int, t: int, u: int) -> bool:
        support = [(w, w) for w in range(k) if w not in (t, u)] + [(t, u), (u, t)]
        support += [(w, w) for w in (t, u) if c[w] >= 2]
        return all((a in keys[s]) == (b in keys[s2]) for a, b in support)

    for t in range(k):
        for u in range(t + 1, k):
            ok = True
            for s in known:
                others = c[s] - (s == t) - (s == u)
                if others and not keeps(s, s, t, u):
                    ok = False
                    break
                if s == t and not keeps(t, u, t, u) or s == u and not keeps(u, t, t, u):
                    ok = False
                    break
            if not ok:
                continue
            rho = list(range(k))
            rho[t], rho[u] = u, t
            if c[t] == 1 and c[u] == 1 and _is_automorphism(q, rho):
                continue  # (x y) is then in G
            return r, t, u
    return None


def decide(q: Quotient) -> Optional[QuotientDecision]:
    """The pattern's answers from its quotient (Lemma L (a), (b); Theorem F181), or None when two classes share
    their key set (the theorem needs distinct ones). The search has no limit of its own: the file's budget ends it,
    reported in STAGE."""
    k = q.k
    if len(set(q.keys)) != k:
        return None
    group = _Group(q)
    exchanges = group.order
    diameter = 1 if any(c >= 2 for c in q.sizes) else 0
    for t in range(k):
        dist = _distances_to(q, t)
        if len(dist) < k:
            u = min(x for x in range(k) if x not in dist)
            return QuotientDecision((t, u), None, None, None, None, exchanges)
        diameter = max([diameter] + list(dist.values()))
    if diameter <= 1:
        return QuotientDecision(None, diameter, 1, False, None, exchanges)
    from ..budget import stage
    with stage(STAGE):
        for r in group.representatives(()):
            if _witness_at(q, r, diameter, group):
                return QuotientDecision(None, diameter, diameter + 1, True, _swap_witness(q, r, diameter), exchanges)
    return QuotientDecision(None, diameter, diameter, False, None, exchanges)
