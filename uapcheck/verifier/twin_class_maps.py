"""D layers, least, of one head at a concrete n decided on its twin quotient at the true class sizes, by the
verifier's own search over class maps (Theorem F181, with the prefix cut of Theorem F204; docs/theory.md §11.11).

    twin classes   the verifier's own (`twin_stand_in.classes`: modules on the interval model, checked exactly,
                   maximal); their sizes must be the certificate's as a multiset, else the block states other classes
    quotient Q     In(t) = the classes in the in-neighbourhood of C_t's first member (`twin_stand_in.quotient`); the
                   key sets must be pairwise distinct and every class of two or more positions must hold its own
                   keys (the theorem's hypotheses), else the route stands aside
    Aut_c(Q)       nauty on the quotient, coloured by the classes' sizes; the orbits of a pointwise stabiliser with
                   the fixed classes coloured apart
    the search     for every root class r (one per orbit of Aut_c(Q)), the classes K within d_Q(· → r) ≤ D − 1 in
                   the order (distance, index), and the maps π: K → classes with (1) π injective, c_π(s) ≥ c_s,
                   (2) t ∈ In(s) ⟺ π(t) ∈ In(π(s)) on K (s = t included), each prefix K_x cut by Theorem F204 — for
                   every type τ ⊆ K_x the sizes of the classes whose members are keys of exactly τ equal those of the
                   classes whose members are keys of exactly π(τ) — which at x = |K| is (3); a complete map is a view
                   witness iff (4): (i) a class of K grows, (ii) a type's classes are not one onto one nor all single
                   positions, or (iii) the class permutation ρ (π on K, each type's classes outside K onto those
                   outside π(K) in order) or an exchange of two single-position classes of one type is not in Aut_c(Q);
                   π(K[x]) taken among the orbit representatives of the stabiliser of π(K[0..x−1]) (the theorem's
                   restriction)

No witness at any root: D layers suffice (least: D is a lower bound). A witness: D layers do not suffice, and a count
of D claimed least is rejected. The diameter D is the quotient's own (Theorem F196 (a): d_Q between classes, 1 inside
a class of two or more) and must be the connectivity step's.
"""
from __future__ import annotations

from collections import deque
from typing import Optional

from .check import VERIFIED, Reject, Trust

THEOREMS = "Theorem F181 with the prefix cut of Theorem F204"
MAX_CLASSES = 64


def _sizes_stated(s: dict) -> Optional[list]:
    listed = ((s.get("certificate") or {}).get("data") or {}).get("twin classes")
    if not isinstance(listed, list):
        return None
    out = []
    for entry in listed:
        c = entry.get("size") if isinstance(entry, dict) else None
        if not isinstance(c, int) or isinstance(c, bool):
            raise Reject("a twin class of the certificate states no integer size")
        out.append(c)
    return out


def _to_root(into: list, r: int) -> dict:
    """d_Q(s → r) for the classes s that reach r: C_r's members attend to C_u's for u ∈ In(r)."""
    dist = {r: 0}
    queue = deque([r])
    while queue:
        t = queue.popleft()
        for u in sorted(into[t]):
            if u not in dist:
                dist[u] = dist[t] + 1
                queue.append(u)
    return dist


class _Aut:
    """Aut_c(Q) (class permutations keeping In and the sizes) by nauty, with the orbits of pointwise stabilisers."""

    def __init__(self, into: list, sizes: list):
        from . import nauty_digraph
        self.k = k = len(sizes)
        self.arcs = {u: [t for t in range(k) if u in into[t]] for u in range(k)}
        by_size: dict = {}
        for t, c in enumerate(sizes):
            by_size.setdefault(c, set()).add(t)
        self.cells = [by_size[c] for c in sorted(by_size)]
        self._gens = nauty_digraph.generators
        self.memo: dict = {}

    def representatives(self, fixed: tuple) -> list:
        """One class per orbit of the pointwise stabiliser of the classes `fixed` (in Aut_c(Q) itself for ())."""
        if fixed in self.memo:
            return self.memo[fixed]
        if fixed and self.memo.get(fixed[:-1]) is not None and len(self.memo[fixed[:-1]]) == self.k:
            reps = list(range(self.k))  # a subgroup of a group with every orbit a single class
        else:
            alone = set(fixed)
            cells = [cell - alone for cell in self.cells] + [{t} for t in fixed]
            gens = self._gens(self.k, self.arcs, [c for c in cells if c])
            reps, seen = [], set()
            for t in range(self.k):
                if t in seen:
                    continue
                reps.append(t)
                seen.add(t)
                stack = [t]
                while stack:
                    x = stack.pop()
                    for g in gens:
                        if g[x] not in seen:
                            seen.add(g[x])
                            stack.append(g[x])
        self.memo[fixed] = reps
        return reps


def _keeps(into: list, sizes: list, rho: list) -> bool:
    """ρ ∈ Aut_c(Q)."""
    return all(sizes[rho[t]] == sizes[t] and {rho[u] for u in into[t]} == into[rho[t]] for t in range(len(sizes)))


class _Maps:
    """The class maps of one root class r at depth m ≥ 2."""

    def __init__(self, into: list, sizes: list, r: int, m: int, aut: _Aut):
        self.into, self.sizes, self.aut = into, sizes, aut
        k = len(sizes)
        dist = _to_root(into, r)
        self.view = sorted((s for s, x in dist.items() if x <= m - 1), key=lambda s: (dist[s], s))
        # μ_x(t): bit x set when C_t's members are keys of view[x]'s; the size of each prefix type, for every x
        self.mu = [0] * k
        self.need: list = [{0: sum(sizes)}]
        for x, s in enumerate(self.view):
            for t in into[s]:
                self.mu[t] |= 1 << x
            mask = (1 << (x + 1)) - 1
            count: dict = {}
            for t in range(k):
                count[self.mu[t] & mask] = count.get(self.mu[t] & mask, 0) + sizes[t]
            self.need.append(count)
        self.nu = [0] * k  # ν_x(u): bit x set when C_u's members are keys of π(view[x])'s
        self.pi: list = []
        self.nodes = 0

    def _fits(self, x: int, u: int) -> bool:
        into, s = self.into, self.view[x]
        if self.sizes[u] < self.sizes[s] or u in self.pi or (s in into[s]) != (u in into[u]):
            return False
        return all((t in into[s]) == (v in into[u]) and (s in into[t]) == (u in into[v])
                   for t, v in zip(self.view, self.pi))

    def _cut(self, x: int, u: int) -> bool:
        """Theorem F204 at the prefix K_{x+1} with π(view[x]) = u: every type's sizes agree on both sides."""
        bit = 1 << x
        count = dict(self.need[x + 1])
        for t in range(len(self.sizes)):
            mask = self.nu[t] | (bit if t in self.into[u] else 0)
            left = count.get(mask, 0) - self.sizes[t]
            if left < 0:
                return False
            count[mask] = left
        return True

    def _witness(self) -> bool:
        """Condition (4) for the complete map (condition (3) is the cut at |K|)."""
        into, sizes, view, pi = self.into, self.sizes, self.view, self.pi
        k = len(sizes)
        if any(sizes[u] > sizes[s] for s, u in zip(view, pi)):
            return True  # (i)
        inside, images = set(view), set(pi)
        full = (1 << len(view)) - 1
        sides: dict = {}
        for t in range(k):
            if t not in inside:
                sides.setdefault(self.mu[t] & full, ([], []))[0].append(t)
            if t not in images:
                sides.setdefault(self.nu[t], ([], []))[1].append(t)
        rho = list(range(k))
        for s, u in zip(view, pi):
            rho[s] = u
        exchanges = []
        for mine, theirs in sides.values():
            if not (len(mine) == len(theirs) == 1 or all(sizes[t] == 1 for t in mine + theirs)):
                return True  # (ii)
            for t, u in zip(mine, theirs):
                rho[t] = u
            exchanges += list(zip(mine, mine[1:]))
        if not _keeps(into, sizes, rho):
            return True  # (iii)
        for a, b in exchanges:
            swap = list(range(k))
            swap[a], swap[b] = b, a
            if not _keeps(into, sizes, swap):
                return True  # (iii)
        return False

    def search(self, x: int = 0) -> bool:
        self.nodes += 1
        if x == len(self.view):
            return self._witness()
        for u in self.aut.representatives(tuple(self.pi)):
            if not self._fits(x, u) or not self._cut(x, u):
                continue
            saved = list(self.nu)
            for t in self.into[u]:
                self.nu[t] |= 1 << x
            self.pi.append(u)
            found = self.search(x + 1)
            self.pi.pop()
            self.nu = saved
            if found:
                return True
        return False


def quotient_diameter(into: list, sizes: list) -> Optional[int]:
    """Γ(Q, c)'s diameter by Theorem F196 (a): d_Q between classes, 1 inside a class of two or more; None when some
    class does not reach another."""
    k = len(sizes)
    d = 1 if any(c >= 2 for c in sizes) else 0
    for r in range(k):
        dist = _to_root(into, r)
        if len(dist) < k:
            return None
        d = max([d] + list(dist.values()))
    return d


def witness_root(into: list, sizes: list, d: int) -> tuple[Optional[int], int]:
    """A root class with a view witness of depth d ≥ 2 (Theorem F181), or None; and the number of partial maps."""
    aut = _Aut(into, sizes)
    nodes = 0
    for r in aut.representatives(()):
        maps = _Maps(into, sizes, r, d, aut)
        found = maps.search()
        nodes += maps.nodes
        if found:
            return r, nodes
    return None, nodes


def _applies(ctx, s: dict, d: int) -> bool:
    """The step's certificate is the twin quotient's at the true sizes (no stand-in: that is Theorem F196 (c),
    `twin_stand_in`), for one plain head and D ≥ 2."""
    from . import twin_stand_in
    spec = ctx.spec
    if (not twin_stand_in.applies(s) or len(spec.heads) != 1 or spec.positional != "none" or spec.heads[0].bias
            or spec.heads[0].position is not None or d < 2):
        return False
    return not any(isinstance(entry, dict) and "stand-in size" in entry for entry in s["certificate"]["data"]["twin classes"])


def layers(ctx, s: dict, d: int):
    """PAT-LAYERS: D = d layers, least, on the verifier's own twin quotient (module docstring); None when the step's
    certificate is not the twin quotient's at the true sizes or the pattern is not one plain head."""
    from . import large, twin_stand_in
    if not _applies(ctx, s, d):
        return None
    cls = twin_stand_in.classes(ctx)
    sizes = [len(c) for c in cls]
    _sizes_are_stated(s, sizes, "on the interval model")
    if len(cls) > MAX_CLASSES:
        raise Trust(f"{len(cls)} twin classes: the class maps are searched here for at most {MAX_CLASSES}")
    into = twin_stand_in.quotient(large._spans(ctx), cls)
    return decide(d, sizes, into, [c[0] for c in cls], "on the interval model")


def layers_on(ctx, s: dict, d: int, sizes: list, into: list, firsts: list, where: str):
    """PAT-LAYERS as `layers`, on a twin quotient another module of the verifier found (its classes maximal, each a
    module): sizes, In-sets and first members, found `where`; None when the step is not the twin quotient's."""
    if not _applies(ctx, s, d):
        return None
    _sizes_are_stated(s, sizes, where)
    return decide(d, sizes, into, firsts, where)


def _sizes_are_stated(s: dict, sizes: list, where: str) -> None:
    stated = _sizes_stated(s)
    if stated is None or sorted(stated) != sorted(sizes):
        raise Reject(f"the certificate's twin classes have the sizes {sorted(stated or [])[:8]}, the pattern's "
                     f"(re-derived {where}) {sorted(sizes)[:8]}")


def decide(d: int, sizes: list, into: list, firsts: list, where: str):
    """D = d layers, least, on the twin quotient with class sizes `sizes`, In-sets `into` and first members `firsts`
    (the verifier's own, found `where`): the theorem's hypotheses, the quotient's diameter, then the class-map search
    at every root orbit (VERIFIED, why); Reject at a witness or another diameter, Trust outside the hypotheses."""
    k = len(sizes)
    if k > MAX_CLASSES:
        raise Trust(f"{k} twin classes: the class maps are searched here for at most {MAX_CLASSES}")
    if len(set(into)) != k:
        raise Trust("two twin classes share their key set: the class-map search needs distinct ones")
    if any(c >= 2 and t not in into[t] for t, c in enumerate(sizes)):
        raise Trust("a twin class of two or more positions does not attend to itself")
    found = quotient_diameter(into, sizes)
    if found != d:
        raise Reject(f"the diameter on the twin quotient is {found}, not {d}")
    try:
        root, nodes = witness_root(into, sizes, d)
    except ImportError:
        raise Trust("pynauty is not installed: the class permutations are not re-derived") from None
    if root is not None:
        raise Reject(f"{d} layers do not suffice: the class maps of {THEOREMS} give a view witness of depth {d} at "
                     f"the members of the twin class of position {firsts[root]} (the verifier's own quotient of {k} "
                     f"classes at their true sizes)")
    return VERIFIED, (f"{THEOREMS}: the verifier's own twin classes ({k}, {where}, their sizes the "
                      f"certificate's) and quotient, key sets pairwise distinct; Aut_c(Q) by nauty; no class map at "
                      f"any root gives a view witness of depth {d} ({nodes} partial maps, each prefix cut by its "
                      f"types' sizes), so D = {d} layers suffice")
