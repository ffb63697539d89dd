"""Theorems F21 and F22 (docs/theory.md §11.11), restated for the verifier with its own arcs:
`blocks(b) + window(w)` and `blocks(b) + window(w) + global(g)`, integers b ≥ 3, 1 ≤ w ≤ b − 2, g ≥ 1.

    F21 blocks(b) + window(w):           n ≥ 3b + 1: D by residue of n mod Q (the greedy walk from 1,
                                         p ↦ max(b⌈p/b⌉, p + w), gains T steps every Q positions; D at one
                                         length per residue by BFS on the verifier's arcs); |G| = ∏ |C|! over
                                         the twin classes (the verifier's own, from its arcs), times 2 when
                                         the reversal preserves the arcs, and |G|(n + b) = |G|(n)·(b − 2w)!
                                         (or ·1 when b ≤ 2w + 1); D layers (least): rooted views with nauty
    F22 … + global(g):                   n ≥ max((⌊g/b⌋ + 3)b + 1, (⌊g/b⌋ + 1)b + 3w + 2): D = 2, |G| as
                                         above times g! (classes of the non-globals), 3 layers (least),
                                         witness the swap (x x+1), x = (⌊g/b⌋ + 1)b + w, at position n
"""
from __future__ import annotations

from math import factorial
from typing import Optional

import sympy

from .. import spec as S
from . import patterns
from .residue_layers import DiameterTwoByResidue


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def _swap(n: int, a: int, b: int) -> list:
    return [b if k == a else a if k == b else k for k in range(1, n + 1)]


def _globals(parts: list) -> Optional[int]:
    """g for `blocks + window` (0) and `blocks + window + global(g)` or `+ star` (g), else None."""
    kinds = sorted(type(q).__name__ for q in parts)
    if kinds == ["Blocks", "Window"]:
        return 0
    if kinds in (["Blocks", "Global", "Window"], ["Blocks", "Star", "Window"]):
        glob = next(q for q in parts if isinstance(q, (S.Global, S.Star)))
        return 1 if isinstance(glob, S.Star) else _int(glob.g)
    return None


def match(parts: list, spec: S.Spec):
    """The verifier's Family for these union parts, or None."""
    from . import (blocks_dilated, blocks_dilated_chains, blocks_strided, blocks_window_strided,  # F30–F34, F63, F64,
                   hub_unions, periodic_determined, periodic_exchanges, periodic_lines,  # F73, F74, F89, F91,
                   strided_dilations, strided_lines, strided_pairs, strided_unions)  # F92, F95, F96, F115–F117, F122
    return (_blocks_window(parts) or strided_global(parts) or cyclic_step_global(parts) or rook(parts, spec)
            or cyclic_strided(parts, spec.tokens) or hub_unions.match(parts) or blocks_strided.match(parts, spec)
            or blocks_dilated.match(parts) or blocks_dilated_chains.match(parts)
            or blocks_dilated_chains.match_global(parts) or blocks_window_strided.match(parts, spec.tokens) or strided_pairs.match(parts)
            or strided_lines.match(parts) or strided_unions.match(parts) or strided_dilations.match(parts)
            or periodic_lines.match(parts) or periodic_exchanges.match(parts) or periodic_determined.match(parts))


def _blocks_window(parts: list):
    g = _globals(parts)
    if g is None or g < 0:
        return None
    win = next(q for q in parts if isinstance(q, S.Window))
    blk = next(q for q in parts if isinstance(q, S.Blocks))
    b, w = _int(blk.b), _int(win.w)
    if win.cyclic or b is None or w is None or not (b >= 3 and 1 <= w <= b - 2):
        return None
    return _BlocksWindow(b, w, g, S.PatternUnion(tuple(parts))).family()


class _BlocksWindow:
    """The verifier's own values of F21/F22 on its own arcs."""

    def __init__(self, b: int, w: int, g: int, pattern: S.Pattern):
        self.b, self.w, self.g, self.pattern = b, w, g, pattern
        self.k0 = g // b + 1
        self.low = (self.k0 + 2) * b + 1 if g == 0 else max((self.k0 + 2) * b + 1, self.k0 * b + 3 * w + 2)
        self.inner = factorial(max(b - 2 * w, 1))
        self.cache: dict = {}

    def arcs(self, n: int) -> frozenset:
        if ("a", n) not in self.cache:
            self.cache[("a", n)] = patterns.head_arcs(self.pattern, n)
        return self.cache[("a", n)]

    def bfs_diameter(self, n: int) -> int:
        if ("d", n) not in self.cache:
            outs = patterns.union_out([self.arcs(n)], n)
            self.cache[("d", n)] = max(x for v in range(1, n + 1) for x in patterns.bfs(outs, v)[1:] if x is not None)
        return self.cache[("d", n)]

    def reversal(self, n: int) -> list:
        """i ↦ n + g + 1 − i on the non-globals, the globals fixed."""
        return list(range(1, self.g + 1)) + [n + self.g + 1 - p for p in range(self.g + 1, n + 1)]

    def own_order(self, n: int) -> int:
        """g! · ∏ |C|! over the twin classes of the non-globals (equal closed neighbourhoods, on the arcs),
        times 2 when the reversal of the non-globals preserves the arcs."""
        if ("o", n) not in self.cache:
            a, g = self.arcs(n), self.g
            closed: dict = {}
            for p in range(g + 1, n + 1):
                closed.setdefault(frozenset([p] + [j for j in range(g + 1, n + 1) if (j, p) in a]), []).append(p)
            out = factorial(g)
            for members in closed.values():
                out *= factorial(len(members))
            refl = self.reversal(n)
            self.cache[("o", n)] = out * (2 if all((refl[j - 1], refl[i - 1]) in a for j, i in a) else 1)
        return self.cache[("o", n)]

    def order(self, n):
        from .families import ResidueLength
        if isinstance(n, ResidueLength):
            k = next(iter(n.n.free_symbols))
            r = int(n.n.xreplace({k: 0}))
            n0 = self.low + (r - self.low) % self.b
            return sympy.Integer(self.own_order(n0)) * sympy.Integer(self.inner) ** (k - n0 // self.b)
        return sympy.Integer(self.own_order(int(n)))

    def period(self) -> tuple[int, int]:
        """(T, Q): the greedy walk from 1 gains T steps every Q positions (back to a block end)."""
        reach = [1]
        while len(reach) < 3 or reach[-1] % self.b:
            p = reach[-1]
            reach.append(max(self.b * -(-p // self.b), p + self.w))
        return len(reach) - 2, reach[-1] - reach[1]

    def diameter(self, n):
        if isinstance(n, int):
            return sympy.Integer(self.bfs_diameter(n))
        steps, q = self.period()
        total = sympy.Integer(0)
        for r in range(q):
            n0 = self.low + (r - self.low) % q
            here = self.bfs_diameter(n0) + steps * (sympy.floor(n / q) - n0 // q)
            total += here * (sympy.floor((n - r) / q) - sympy.floor((n - r - 1) / q))
        return total

    def generators(self, n: int) -> list:
        """Swaps of consecutive twins (on the arcs) and the reversal when it preserves the arcs."""
        a = self.arcs(n)
        out = []
        for p in range(1, n):
            if ({j for j in range(1, n + 1) if (j, p) in a} | {p}) == ({j for j in range(1, n + 1) if (j, p + 1) in a}
                                                                       | {p + 1}):
                out.append(_swap(n, p, p + 1))
        refl = list(range(n, 0, -1))
        if all((refl[j - 1], refl[i - 1]) in a for j, i in a):
            out.append(refl)
        return out or [list(range(1, n + 1))]

    def family(self):
        from .families import Family

        def name(text):
            return "twin classes" in text
        if self.g:
            x = self.k0 * self.b + self.w

            def witness(n):
                return n, _swap(n, x, x + 1)
            return Family("F22", self.low, 2, 3, True, self.order, self.b, name, witness)
        return Family("F21", self.low, 0, 0, True, self.order, self.b, name, None, self.generators,
                      diameter_at=self.diameter, period=self.period()[1])


# ---------------------------------------------------------------------------------------------
# F23 strided(s) + global(g), F24 offsets {±1} cyclic + global(g), F25 blocks(s) + strided(s)

def _residue_of(n, modulus: int):
    """(k, r) for a ResidueLength n = modulus·k + r (k its symbol), else None."""
    from .families import ResidueLength
    if isinstance(n, ResidueLength):
        k = next(iter(n.n.free_symbols))
        return k, int(n.n.xreplace({k: 0})) % modulus
    return None


def _class_generators(n: int, classes: list) -> list:
    """Generators of ∏ Sym(C) and of the exchanges of equal-size classes (in increasing order)."""
    out = []
    for c in classes:
        for a, b in zip(c, c[1:]):
            out.append(_swap(n, a, b))
    by_size: dict = {}
    for c in classes:
        by_size.setdefault(len(c), []).append(c)
    for same in by_size.values():
        for c1, c2 in zip(same, same[1:]):
            perm = list(range(1, n + 1))
            for a, b in zip(c1, c2):
                perm[a - 1], perm[b - 1] = b, a
            out.append(perm)
    return out or [list(range(1, n + 1))]


def strided_global(parts: list):
    """F23: strided(s) + global(g) (or star), integers s ≥ 2, g ≥ 1: n ≥ g + s + 1, D = 2, |G| = g!·((q+1)!)^e·e!·
    (q!)^(s−e)·(s−e)! with n − g = qs + e; D = 2 layers (least) for s = 2 (nauty on the instances), else 3
    (least), witness the swap (g+1 g+3) at position g + 2."""
    from .families import Family
    kinds = sorted(type(q).__name__ for q in parts)
    if kinds not in (["Global", "Strided"], ["Star", "Strided"]):
        return None
    glob = next(q for q in parts if isinstance(q, (S.Global, S.Star)))
    g = 1 if isinstance(glob, S.Star) else _int(glob.g)
    s = _int(next(q for q in parts if isinstance(q, S.Strided)).s)
    if g is None or s is None or g < 1 or s < 2:
        return None

    def order(n):
        found = _residue_of(n, s)
        if found is None:
            q, e = divmod(int(n) - g, s)
            qq: sympy.Expr = sympy.Integer(q)
        else:
            k, r = found
            e = (r - g) % s
            qq = k + (r - g - e) // s
        return (sympy.factorial(g) * sympy.factorial(qq + 1) ** e * sympy.factorial(e) * sympy.factorial(qq) ** (s - e)
                * sympy.factorial(s - e))

    def name(text):
        return "residue classes" in text and "disjoint cliques" in text

    if s >= 3:
        def witness(n):
            return g + 2, _swap(n, g + 1, g + 3)
        return Family("F23", g + s + 1, 2, 3, True, order, s, name, witness)

    def gens(n):
        classes = [list(range(r, n + 1, s)) for r in range(g + 1, g + s + 1)]
        return _class_generators(n, classes) + [_swap(n, a, a + 1) for a in range(1, g)]
    return Family("F23", g + s + 1, 2, 2, True, order, s, name, None, gens)


def cyclic_step_global(parts: list):
    """F24: offsets {1} (or {−1}) cyclic + global(g), integer g ≥ 1: n ≥ g + 3, D = 2, |G| = g!, 3 layers (least),
    witness (g+1 g+2) at n for {1}, (n−1 n) at g + 1 for {−1}."""
    from .families import Family
    kinds = sorted(type(q).__name__ for q in parts)
    if kinds not in (["Global", "Offsets"], ["Offsets", "Star"]):
        return None
    glob = next(q for q in parts if isinstance(q, (S.Global, S.Star)))
    g = 1 if isinstance(glob, S.Star) else _int(glob.g)
    off = next(q for q in parts if isinstance(q, S.Offsets))
    jumps = {_int(x) for x in off.offsets} - {0}
    if g is None or g < 1 or not off.cyclic or None in jumps or jumps not in ({1}, {-1}):
        return None
    up = jumps == {1}

    def witness(n):
        return (n, _swap(n, g + 1, g + 2)) if up else (g + 1, _swap(n, n - 1, n))

    def name(text):
        return text == "trivial" if g == 1 else text.startswith(f"S_{g} on {{1, ")
    return Family("F24", g + 3, 2, 3, True, lambda n: sympy.factorial(g), 1, name, witness)


def rook(parts: list, spec: S.Spec):
    """F25: blocks(s) + strided(s), integer s ≥ 3: n ≥ s(s + 1), D = 2, |G| = m!·ρ!·(s − ρ)! with n = ms + ρ; 3 layers
    (least; witness (ρ+1 ρ+2) at n − ρ + 1) when 1 ≤ ρ ≤ s − 2, else 2 (least; nauty on the instances)."""
    kinds = sorted(type(q).__name__ for q in parts)
    if kinds != ["Blocks", "Strided"]:
        return None
    b = _int(next(q for q in parts if isinstance(q, S.Blocks)).b)
    s = _int(next(q for q in parts if isinstance(q, S.Strided)).s)
    if b is None or s is None or b != s or s < 3:
        return None
    return _Rook(s, S.PatternUnion(tuple(parts)), spec).family()


class _Rook(DiameterTwoByResidue):
    def __init__(self, s: int, pattern: S.Pattern, spec: S.Spec):
        self.s, self.pattern, self.spec, self.low = s, pattern, spec, s * (s + 1)
        self.layer_modulus = s

    def order(self, n):
        found = _residue_of(n, self.s)
        if found is None:
            m, rho = divmod(int(n), self.s)
            mm: sympy.Expr = sympy.Integer(m)
        else:
            k, rho = found
            mm = k
        return sympy.factorial(mm) * sympy.factorial(rho) * sympy.factorial(self.s - rho)

    def expected_order(self, n: int) -> int:
        return int(self.order(n))

    def _layers_problem(self, n: int, heads: list, dist: dict, lab: dict) -> Optional[str]:
        """3 layers (1 ≤ ρ ≤ s − 2): the witness is no symmetry and changes nothing within distance 1 of its root;
        2 layers: the generators are symmetries and nauty finds no view witness."""
        from . import views
        m, rho = divmod(n, self.s)
        if 1 <= rho <= self.s - 2:
            root, perm = m * self.s + 1, _swap(n, rho + 1, rho + 2)
            if patterns.preserves(perm, lab):
                return f"n = {n}: the witness is a symmetry"
            if any(dist[v][root] is not None and dist[v][root] <= 1 for v in patterns.view_bad_positions(perm, heads, n)):
                return f"n = {n}: the witness changes a neighbourhood within distance 1 of {root}"
            return None
        gens = self.generators(n)
        if not all(patterns.preserves(p, lab) for p in gens):
            return f"n = {n}: a generator is not a symmetry"
        try:
            found = views.decide(heads, n, 2, gens)
        except views.NoNauty as exc:
            return f"n = {n}: the rooted views are not decided ({exc})"
        return f"n = {n}: {found}" if found else None

    def generators(self, n: int) -> list:
        """Exchanges of consecutive whole blocks, and of consecutive residues within {1..ρ} and within {ρ+1..s}."""
        s = self.s
        m, rho = divmod(n, s)
        gens: list = []
        rows = [list(range(k * s + 1, k * s + s + 1)) for k in range(m)]
        for r1, r2 in zip(rows, rows[1:]):
            perm = list(range(1, n + 1))
            for a, b in zip(r1, r2):
                perm[a - 1], perm[b - 1] = b, a
            gens.append(perm)
        for lo_, hi_ in ((1, rho), (rho + 1, s)):
            for c in range(lo_, hi_):
                perm = list(range(1, n + 1))
                for p in range(1, n + 1):
                    if p % s == c % s:
                        perm[p - 1] = p + 1
                    elif p % s == (c + 1) % s:
                        perm[p - 1] = p - 1
                gens.append(perm)
        return gens

    def family(self):
        from .families import Family

        def name(text):
            return "whole blocks" in text and "residues" in text
        return Family("F25", self.low, 2, 2, True, self.order, self.s, name, None, None,
                      diameter_at=lambda n: sympy.Integer(2), period=self.s, instances=self.instances,
                      instances_text=(f"instances n = {self.low}..{self.low + self.s} re-checked on the verifier's arcs "
                                      "(BFS, the group code, the witness or nauty's rooted views)"),
                      layers_by=self.layers, class_witness=self.witness_at)

    def witness_at(self, n: int) -> Optional[tuple]:
        """The theorem's view witness at n when 1 ≤ ρ ≤ s − 2: (ρ+1 ρ+2) at position ms + 1; None otherwise."""
        m, rho = divmod(n, self.s)
        return (m * self.s + 1, _swap(n, rho + 1, rho + 2)) if 1 <= rho <= self.s - 2 else None


def _cyclic_stride_order(s: int):
    """Theorem F201's |G| of window(w) cyclic + strided(s), s ≥ w + 1, n ≥ s(3w + 2): 2n when s | n (D_n), else 2
    (the reflection i ↦ n + 1 − i): at an integer n, or at a length k·s + r of a residue class."""
    def order(n):
        found = _residue_of(n, s)
        if found is None:
            return sympy.Integer(2 * int(n) if int(n) % s == 0 else 2)
        k, r = found
        return 2 * (s * k + r) if r == 0 else sympy.Integer(2)
    return order


def _cyclic_stride_name(text: str) -> bool:
    """The words of F26's and F201's group: by class at a symbolic n, or one class's group at an integer n (which
    one is `_cyclic_stride_words`' check)."""
    return ("D_n" in text and "reflection" in text) or text in ("D_n", _REFLECTION)


_REFLECTION = "the reflection i ↦ n + 1 − i"


def _cyclic_stride_words(s: int):
    """At an integer n the step names the group of n's class: D_n when s | n, else the reflection; at a symbolic n
    both classes."""
    def check(data: dict, n) -> Optional[str]:
        name = data.get("name")
        if n is None:
            return None if isinstance(name, str) and "D_n" in name and "reflection" in name else \
                f"the group {str(name)[:80]!r} does not name both classes"
        want = "D_n" if int(n) % s == 0 else _REFLECTION
        return None if name == want else f"at n = {n} the group is {want}, not {str(name)[:80]!r}"
    return check


_TWINS = "S_2 on {1, n} × the reflection of {2, …, n − 1}"


def _cyclic_dense_class(w: int, s: int, r: int) -> str:
    """Theorem F205's group on the class n mod s = r, by its own name."""
    if r == 0:
        return "D_n"
    return _TWINS if w % s == 0 and r == 1 else _REFLECTION


def _cyclic_dense_order(w: int, s: int):
    """Theorem F205's |G| of window(w) cyclic + strided(s), 2 ≤ s ≤ w, n ≥ max(s(3w + 2), 20w): 2n when s | n (D_n),
    4 when s | w and n mod s = 1 (the twins 1 and n exchanged, beside the reflection), else 2 (the reflection)."""
    def order(n):
        found = _residue_of(n, s)
        k, r = found if found is not None else (None, int(n) % s)
        if r == 0:
            return 2 * (s * k + r) if found is not None else sympy.Integer(2 * int(n))
        return sympy.Integer(4 if w % s == 0 and r == 1 else 2)
    return order


def _cyclic_dense_every_class(w: int, s: int, text: str) -> bool:
    """The words of F205's group at a symbolic n: every class's group named."""
    return all(_cyclic_dense_class(w, s, r) in text for r in range(s))


def _cyclic_dense_name(w: int, s: int):
    """F205's group by name: every class's group (a symbolic n) or one class's (an integer n: the step names the
    group of n's class, and `_cyclic_dense_words` checks it is n's; a name of every class alone left every integer n's
    step rejected)."""
    def name(text: str) -> bool:
        return text in {_cyclic_dense_class(w, s, r) for r in range(s)} or _cyclic_dense_every_class(w, s, text)
    return name


def _cyclic_dense_words(w: int, s: int):
    """At an integer n the step names the group of n's class (F205); at a symbolic n every class's group."""
    def check(data: dict, n) -> Optional[str]:
        name = data.get("name")
        if n is None:
            return None if isinstance(name, str) and _cyclic_dense_every_class(w, s, name) else \
                f"the group {str(name)[:80]!r} does not name every class"
        want = _cyclic_dense_class(w, s, int(n) % s)
        return None if name == want else f"at n = {n} the group is {want}, not {str(name)[:80]!r}"
    return check


def _covered_stride(w: int, s: int):
    """F201 with F197: window(w) cyclic + strided(s), w + 1 ≤ s ≤ 2w + 1: n ≥ s(3w + 2), D = 2, G = D_n when s | n, else
    the reflection. Layers: D = 2, least, for s = 2 (Theorem F202); 3, least on every class, for s = 2w + 1 (Theorem
    F200's block exchange); else a count by class: D = 2, least, on n ≡ 0 (mod s) (Theorem F218, lemma AH), D + 1 = 3
    on the other classes, least on Theorem F200's classes."""
    from .families import Family
    order, name = _cyclic_stride_order(s), _cyclic_stride_name
    # F200: 3 layers least on the classes with a view witness (restated here, re-checked at every instance)
    from . import cyclic_covered_least as covered
    if s == 2:  # w = 1, Theorem F202: the far positions of a root are the other parity (re-checked at every instance)
        from .blocks_dilated_chains import far_clique_problem
        pattern = S.PatternUnion((S.Window(w, True), S.Strided(s)))
        return Family("F201", s * (3 * w + 2), 2, 2, True, order, s, name, None,
                      diameter_at=lambda n: sympy.Integer(2), period=s, data_check=_cyclic_stride_words(s),
                      layers_check=lambda n, d: far_clique_problem(pattern, n, d),
                      layers_text=("D = 2 layers least (Theorem F202): the positions at distance 2 from a root are "
                                   "those of the other parity, pairwise adjacent (the far-clique lemma; checked by "
                                   "breadth-first search on the verifier's arcs at every instance)"))
    least = covered.classes(w, s)
    if len(least) == s:  # s = 2w + 1: F200's block exchange on every class
        return Family("F201", s * (3 * w + 2), 2, 3, True, order, s, name, None,
                      diameter_at=lambda n: sympy.Integer(2), period=s, data_check=_cyclic_stride_words(s),
                      layers_check=lambda n, d: covered.layers_problem(w, s, n, d),
                      layers_text=("D + 1 = 3 layers suffice (the view argument, §11.2), least on every class of n "
                                   "(Theorem F200: a block exchange that changes no neighbourhood within distance 1 "
                                   "of its root and is no symmetry, restated here and re-checked on the verifier's "
                                   "arcs at every instance)"))
    # s ≤ 2w: a count by class. Theorem F218 on n ≡ 0 (mod s): D = 2 layers, least (lemma AH's steps re-checked on
    # the verifier's arcs at every instance of that class); Theorem F219 on the classes where the verifier's rooted
    # views find no witness at the lengths lemma AJ needs: 2, least; D + 1 = 3 on the others, least on F200's classes
    two = (0,) + covered.suffice_classes(w, s)
    on = tuple(sorted(set(two) | set(least)))
    every = len(on) == s

    def count(n):
        pieces = [(sympy.Integer(2), sympy.Eq(sympy.Mod(n, s), e)) for e in two]
        return sympy.Piecewise(*pieces, (sympy.Integer(3), True))

    def check(n: int, d: int) -> Optional[str]:
        if n % s == 0:
            return covered.lemma_ah_problem(w, s, n)
        if n % s in two:
            return covered.suffice_problem(w, s, n)
        return covered.layers_problem(w, s, n, d)
    where = "on every other class" if every else f"for n mod {s} in {set(least)}" if least else "on no other class"
    return Family("F201", s * (3 * w + 2), 2, 3, every, order, s, name, None,
                  diameter_at=lambda n: sympy.Integer(2), period=s, data_check=_cyclic_stride_words(s),
                  least_classes=() if every else (s, on), layers_by=count, layers_check=check,
                  layers_text=(f"D = 2 layers least for n mod {s} = 0 (Theorem F218: lemma AH's steps, the root's "
                               "class and window told apart, the window's levels, the consecutive members of the "
                               "class related by far traces and the far traces distinct, re-checked on the "
                               "verifier's arcs at every instance that is a multiple of "
                               f"{s}); D = 2 layers least for n mod {s} in {set(two[1:])} (Theorem F219: lemma AJ "
                               "carries the absence of a view witness from n to n + s, and nauty's rooted views on the "
                               "verifier's arcs find none at the class's lengths below max(s(3w + 2), 15s) + s); "
                               "D + 1 = 3 layers on the other classes (the view argument, §11.2), least "
                               f"{where} (Theorem F200: a swap that changes no neighbourhood within distance 1 of "
                               "its root and is no symmetry, restated here and re-checked on the verifier's arcs "
                               "at every instance of such a class)"))


def _dense_stride(w: int, s: int, tokens=None):
    """F205 with F197 and F224–F226: window(w) cyclic + strided(s), 2 ≤ s ≤ w: n ≥ max(s(3w + 2), 20w), D = 2, F205's
    group; layers by class: 3, least, on F224's classes (a seam swap, searched for and re-checked on the verifier's
    arcs at every instance); 2, least, on the classes where nauty's rooted views on the verifier's arcs find no view
    witness at the class's length in [N₁, N₁ + s) (lemma AM, F225), the range then n ≥ N₁; 3, not least, elsewhere."""
    from . import cyclic_covered_least as covered
    from .families import Family
    low, order, name = covered.dense_start(w, s), _cyclic_dense_order(w, s), _cyclic_dense_name(w, s)
    three, two = covered.dense_classes(w, s), covered.dense_suffice_classes(w, s)
    common = dict(diameter_at=lambda n: sympy.Integer(2), period=s, data_check=_cyclic_dense_words(w, s),
                  layers_check=lambda n, d: covered.dense_layers_problem(w, s, n, d))
    text3 = (f"D + 1 = 3 layers least for n mod {s} in {set(three)} (Theorem F224: a seam pair's swap that changes "
             "no neighbourhood within distance 1 of its root and is no symmetry, searched for and re-checked on the "
             "verifier's arcs at every instance)")
    if isinstance(tokens, int) and not (two and tokens >= covered.dense_pump_start(w, s) and tokens % s in two):
        # at this n the step states F205's 3 layers, least by F224 on n's class: an instance the check reads on a class
        # F226 would decide (below N₁ there) is a class where 3 layers are only sufficient here, with nothing to check
        common["layers_check"] = lambda n, d: (covered.dense_layers_problem(w, s, n, d) if n % s in three else None)
        if tokens % s in three:
            return Family("F205", low, 2, 3, True, order, s, name, None, layers_text=text3, **common)
        return Family("F205", low, 2, 3, False, order, s, name, None, **common)
    if not two:
        if not three:
            return Family("F205", low, 2, 3, False, order, s, name, None, **common)
        return Family("F205", low, 2, 3, False, order, s, name, None, least_classes=(s, three), layers_text=text3,
                      **common)
    start = covered.dense_pump_start(w, s)
    on = tuple(sorted(set(two) | set(three)))
    every = len(on) == s

    def count(n):
        pieces = [(sympy.Integer(2), sympy.Eq(sympy.Mod(n, s), e)) for e in two]
        return sympy.Piecewise(*pieces, (sympy.Integer(3), True))
    text2 = (f"D = 2 layers least for n mod {s} in {set(two)} and n ≥ {start} (Theorem F226: lemma AM carries a view "
             f"witness from n + {s} down to n from n = {start} on, and nauty's rooted views on the verifier's arcs, with "
             f"F205's generators, find none at n = {start}, …, {start + s - 1})")
    if isinstance(tokens, int):
        return Family("F205", start, 2, 2, True, order, s, name, None, layers_text=text2, group_low=low, **common)
    return Family("F205", start, 2, 3, every, order, s, name, None, least_classes=() if every else (s, on),
                  layers_by=count, layers_text=text2 + ("; " + text3 if three else ""), group_low=low, **common)


def cyclic_strided(parts: list, tokens=None):
    """F26: window(w) cyclic + strided(s), integers w ≥ 1, s ∈ {2w + 2, 2w + 3}: n ≥ s(4w + 3), D = 3; D = 3 layers,
    least, for s = 2w + 2 (Theorem F56), D + 1 = 4, least, for (w, s) = (1, 5) (Theorem F55), else D + 1 = 4 (not
    least); |G| = 2n when s | n (D_n), else 2 (the reflection), on every class (for w ≥ 2 and n mod s ∈ {1, …, w} by
    Theorem F201, whose range s(3w + 2) lies below F26's). F201 with F197: window(w) cyclic + strided(s), w + 1 ≤ s
    ≤ 2w + 1: n ≥ s(3w + 2), D = 2, the same group, the count of ``_covered_stride``. F205 with F197: 2 ≤ s ≤ w,
    n ≥ max(s(3w + 2), 20w), D = 2, the same group except S_2 on {1, n} × the reflection of {2, …, n − 1} (order 4)
    on the class n mod s = 1 when s | w, D + 1 = 3 layers (not least)."""
    from .families import Family
    kinds = sorted(type(q).__name__ for q in parts)
    if kinds != ["Strided", "Window"]:
        return None
    win = next(q for q in parts if isinstance(q, S.Window))
    w, s = _int(win.w), _int(next(q for q in parts if isinstance(q, S.Strided)).s)
    if not win.cyclic or w is None or s is None or w < 1:
        return None
    order, name = _cyclic_stride_order(s), _cyclic_stride_name
    if 2 <= s <= w:  # F205 with F197 (b): D = 2 from n = 2w + 3; one whole period re-checked on the arcs
        return _dense_stride(w, s, tokens)
    if w + 1 <= s <= 2 * w + 1:  # F201 with F197 (b): D = 2 from n = 2w + 3; one whole period re-checked on the arcs
        return _covered_stride(w, s)
    if s not in (2 * w + 2, 2 * w + 3):
        return None
    open_: tuple = ()
    if s == 2 * w + 2:  # Theorem F56: the far positions of every root lie in one class (re-checked at every instance)
        from .strided_least import cyclic_far_class_problem
        return Family("F26", s * (4 * w + 3), 3, 3, True, order, s, name, None, group_open=open_,
                      data_check=_cyclic_stride_words(s),
                      diameter_at=lambda n: sympy.Integer(3), period=s,
                      layers_check=lambda n, d: cyclic_far_class_problem(w, n),
                      layers_text=("D = 3 layers least (Theorem F56): every position at distance 3 from a position i "
                                   f"lies in the class of i + {w + 1} (mod {s}), so the far positions are pairwise "
                                   "adjacent (the far-clique lemma; checked by breadth-first search on the verifier's "
                                   "arcs at every instance)"))
    if (w, s) == (1, 5):  # Theorem F55: 4 layers least (a block exchange at position 2, re-checked at every instance)
        from .strided_least import cyclic_block_problem
        return Family("F26", s * (4 * w + 3), 3, 4, True, order, s, name, None, group_open=open_,
                      data_check=_cyclic_stride_words(s),
                      layers_check=lambda n, d: cyclic_block_problem(n),
                      layers_text=("4 layers least (Theorem F55): exchanging the blocks {10, …, 14} and {15, …, 19} "
                                   "keeps every neighbourhood within distance 2 of position 2 and is not in G (checked "
                                   "on the verifier's arcs at every instance); D + 1 = 4 suffice"))
    low = s * (4 * w + 3)
    if s == 2 * w + 3 and w >= 2 and isinstance(tokens, int) and tokens % s == 0 and tokens >= low:
        # Theorem F67 at the file's length, a multiple of s: the common-neighbour premise, re-checked on the verifier's
        # arcs at the range's first multiple of s here and at every instance that is a multiple of s (at the others
        # the theorem says nothing)
        from .strided_lines import common_neighbour_problem
        pattern = S.PatternUnion((S.Window(w, True), S.Strided(s)))
        if common_neighbour_problem(pattern, low + (-low) % s, 3) is not None:
            return Family("F26", low, 3, 4, False, order, s, name, None, group_open=open_,
                          data_check=_cyclic_stride_words(s))
        return Family("F26", s * (4 * w + 3), 3, 3, True, order, s, name, None, group_open=open_,
                      data_check=_cyclic_stride_words(s),
                      layers_check=lambda n, d: None if n % s else common_neighbour_problem(pattern, n, d),
                      layers_text=(f"D = 3 layers least at n = {tokens}, a multiple of {s} (Theorem F67): two positions at "
                                   "distance 3 from a root are adjacent exactly when a position within distance 2 of it "
                                   "is adjacent to both (checked on the verifier's arcs at every instance that is a "
                                   f"multiple of {s}; the common-neighbour lemma)"))
    if s == 2 * w + 3 and w >= 2 and not isinstance(tokens, int):
        # Theorem F67 on the class s | n at symbolic n: 3 layers, least there (the common-neighbour premise re-checked
        # on the verifier's arcs at the range's first multiple of s and at every instance that is one), 4 elsewhere
        from .strided_lines import common_neighbour_problem
        pattern = S.PatternUnion((S.Window(w, True), S.Strided(s)))
        if common_neighbour_problem(pattern, low + (-low) % s, 3) is None:
            return Family("F26", low, 3, 4, False, order, s, name, None, group_open=open_,
                          data_check=_cyclic_stride_words(s),
                          diameter_at=lambda n: sympy.Integer(3), period=s, least_classes=(s, (0,)),
                          layers_by=lambda n: sympy.Piecewise((sympy.Integer(3), sympy.Eq(sympy.Mod(n, s), 0)),
                                                              (sympy.Integer(4), True)),
                          layers_check=lambda n, d: None if n % s else common_neighbour_problem(pattern, n, d),
                          layers_text=(f"3 layers least for n mod {s} = 0 (Theorem F67: the common-neighbour premise, "
                                       f"re-checked on the verifier's arcs at n = {low + (-low) % s} and at every "
                                       f"instance that is a multiple of {s}), D + 1 = 4 layers, not claimed least, "
                                       "on the other classes (the view argument, §11.2)"))
    return Family("F26", s * (4 * w + 3), 3, 4, False, order, s, name, None, group_open=open_,
                  data_check=_cyclic_stride_words(s),
                  diameter_at=lambda n: sympy.Integer(3), period=s)  # a whole period re-checked, past MAX_INSTANCE_N
