"""Pattern steps at symbolic n: the verifier's own table of closed forms (lemmas with proofs in
docs/theory.md §18.4), each applied only when the re-parsed patterns match it, each value
compared with the certificate's, and each lemma re-checked by brute force at every instance
n = 2..N (parameters 1..3) with the verifier's concrete graph code.

    forward        every head causal or non-cyclic offsets ≤ 0: position 1 sees only x_1
    window         one non-cyclic window(w): D = ⌈(n − 1)/w⌉, G = reflection (n ≥ 2w + 1), D layers
    cyclic window  one cyclic window(w): D = ⌈⌊n/2⌋/w⌉, G = D_n (n ≥ 2w + 3)
    one-sided      cyclic offsets {0, 1, ..., w}: D = ⌈(n − 1)/w⌉, G = C_n (n ≥ 3)
    star           star: D = 2 (n ≥ 3), G = stabilizer 1, D layers
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from typing import Optional

import sympy

from .. import spec as S
from . import groups, patterns

INSTANCE_MAX_N = 14
PARAM_VALUES = (1, 2, 3)


@dataclasses.dataclass(frozen=True)
class Lemma:
    name: str
    param: Optional[str]  # the pattern's integer param, if any
    diameter: Optional[sympy.Expr]  # in n and the param; None: not strongly connected
    group: Optional[str]
    group_from: object  # n0(w): the least n from which the group holds
    least_layers: bool  # D layers suffice (else D + 1 by the view argument)
    witness: Optional[tuple] = None  # (i, j) for a disconnected pattern
    conn_from: int = 2  # the least n from which the connectivity statement holds
    rooted_from: object = None  # n0(w) from which §11.9's rooted-view lemma gives D layers (cyclic families)


def _term(t):
    """A pattern quantity as (kind, value): ("int", k) or ("name", w)."""
    if isinstance(t, int) and not isinstance(t, bool):
        return "int", t
    if isinstance(t, str) and not t.startswith("-"):
        return "name", t
    return None, None


def classify(spec: S.Spec, n: sympy.Symbol, symbols: dict) -> Optional[Lemma]:
    pats = [h.pattern for h in spec.heads]
    if any(h.bias for h in spec.heads) or spec.positional != "none":
        # a trainable bias or an encoding labels the arcs (or the positions) without adding any: the `forward` lemma's
        # statements are about arcs (x_2 never reaches 1), and its trivial group only shrinks under labels (a labelled
        # automorphism is an automorphism of the arcs, and the causal mask's are the identity only); the other lemmas'
        # groups are of unlabelled arcs (so is the `forward` lemma's when some head is not the causal mask: no group)
        if not all(isinstance(p, S.Causal) for p in pats):
            return None
    if any(isinstance(p, S.PatternSequence) for p in pats):
        # a pattern per layer (docs/theory.md §21.14, Theorem F138): every arc of the network is an arc of some layer's pattern, and
        # a path through increasing layers is a path of their union, so x_2 never reaching 1 in the union is enough
        layers = [q for p in pats for q in (p.patterns if isinstance(p, S.PatternSequence) else (p,))]
        if layers and all(forward(q) for q in layers):
            return Lemma("forward", None, None, None, lambda w: 2, False, (1, 2))
        return None
    if all(forward(p) for p in pats):
        chain = any(isinstance(p, S.Causal) or (isinstance(p, S.Offsets) and -1 in p.offsets) for p in pats)
        return Lemma("forward", None, None, "trivial" if all(isinstance(p, S.Causal) for p in pats) and chain else None,
                     lambda w: 2, False, (1, 2))
    if len(set(pats)) != 1:
        return None
    p = pats[0]
    split = _block_split(p)
    if split is not None:
        return Lemma("block split", None, None, None, lambda w: 2, False, (1, split + 1), conn_from=split + 1)
    if isinstance(p, S.Star):
        return Lemma("star", None, sympy.Integer(2), "stabilizer 1", lambda w: 3, True, conn_from=3)
    if isinstance(p, S.Window):
        kind, w = _term(p.w)
        if kind is None:
            return None
        wv = sympy.Integer(w) if kind == "int" else symbols[w]
        if not p.cyclic:
            # the group's range starts at 2w + 1 for the pattern's own w (a literal w is not a param value)
            return Lemma("window", w if kind == "name" else None, sympy.ceiling((n - 1) / wv), "reflection",
                         (lambda x: 2 * x + 1) if kind == "name" else (lambda x, w=w: 2 * w + 1), True)
        return Lemma("cyclic window", w if kind == "name" else None, sympy.ceiling(sympy.floor(n / 2) / wv), "D_n",
                     (lambda x: 2 * x + 3) if kind == "name" else (lambda x, w=w: 2 * w + 3), False, rooted_from=(lambda x: 2 * x + 3) if kind == "name" else (lambda x, w=w: 2 * w + 3))
    if isinstance(p, S.Offsets) and p.cyclic and all(isinstance(o, int) and not isinstance(o, bool) for o in p.offsets):
        offs = set(p.offsets) - {0}
        w = len(offs)
        if offs == set(range(1, w + 1)) or offs == set(range(-w, 0)):
            return Lemma("one-sided", None, sympy.ceiling((n - 1) / sympy.Integer(w)), "C_n", lambda x, w=w: 2 * w + 2, False,
                         rooted_from=lambda x, w=w: 2 * w + 2)
    return None


def _block_split(p: S.Pattern) -> Optional[int]:
    """b for `blocks(b) + strided(kb)`, integers b ≥ 2, k ≥ 2: every arc keeps ⌈p/b⌉ mod k (one block, or a multiple
    of kb apart), so x_{b+1} never reaches position 1 for n ≥ b + 1 (docs/theory.md §11.11, after Theorem F34)."""
    if not isinstance(p, S.PatternUnion) or sorted(type(q).__name__ for q in p.parts) != ["Blocks", "Strided"]:
        return None
    b = next(q for q in p.parts if isinstance(q, S.Blocks)).b
    s = next(q for q in p.parts if isinstance(q, S.Strided)).s
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (b, s)) or b < 2 or s % b or s < 2 * b:
        return None
    return b


def forward(p: S.Pattern) -> bool:
    """Every arc j → i of p has j < i, read off the pattern's structure: the causal mask, non-cyclic
    offsets ≤ 0, sinks (j ≤ k < i), a union of such parts, an intersection with one of them."""
    if isinstance(p, (S.Causal, S.Sinks)):
        return True
    if isinstance(p, S.Offsets):
        return not p.cyclic and all(isinstance(o, int) and not isinstance(o, bool) and o <= 0 for o in p.offsets)
    if isinstance(p, S.PatternUnion):
        return all(forward(q) for q in p.parts)
    if isinstance(p, S.PatternIntersection):
        return any(forward(q) for q in p.parts)
    return False


def _names(p: S.Pattern) -> set:
    """The param names a pattern's sizes use (window, sinks, global sizes)."""
    if isinstance(p, (S.PatternUnion, S.PatternIntersection)):
        return set().union(*(_names(q) for q in p.parts))
    if isinstance(p, S.PatternSequence):
        return set().union(*(_names(q) for q in p.patterns))
    for attr in ("w", "k", "g"):
        t = getattr(p, attr, None)
        if isinstance(t, str):
            return {t}
    return set()


def _instantiate(p: S.Pattern, values: dict) -> S.Pattern:
    def v(t):
        return values.get(t, t) if isinstance(t, str) else t
    if isinstance(p, S.Window):
        return dataclasses.replace(p, w=v(p.w))
    if isinstance(p, S.Sinks):
        return dataclasses.replace(p, k=v(p.k))
    if isinstance(p, S.Global):
        return dataclasses.replace(p, g=v(p.g))
    if isinstance(p, (S.PatternUnion, S.PatternIntersection)):
        return dataclasses.replace(p, parts=tuple(_instantiate(q, values) for q in p.parts))
    return p


def _assignments(spec: S.Spec, lemma: Lemma):
    if lemma.param:
        return [{lemma.param: wv} for wv in PARAM_VALUES]
    names = sorted(set().union(*(_names(h.pattern) for h in spec.heads)) - {spec.tokens})
    return [dict(zip(names, vals)) for vals in itertools.product(PARAM_VALUES, repeat=len(names))]


def instances(spec: S.Spec, lemma: Lemma):
    """(n, param values, per-head arcs) for n = 2..INSTANCE_MAX_N and every param at 1..3."""
    for values in _assignments(spec, lemma):
        for n in range(lemma.conn_from, INSTANCE_MAX_N + 1):
            # a pattern per layer: the arcs of each of its layers (their union holds every path through increasing
            # layers; only the `forward` lemma, a statement about the union, classifies such a file)
            heads = [patterns.head_arcs(_instantiate(q, values), n) for h in spec.heads
                     for q in (h.pattern.patterns if isinstance(h.pattern, S.PatternSequence) else (h.pattern,))]
            yield n, values, heads


def diameter(heads, n: int) -> Optional[int]:
    outs = patterns.union_out(heads, n)
    best = 0
    for s in range(1, n + 1):
        d = patterns.bfs(outs, s)
        if any(x is None for x in d[1:]):
            return None
        best = max(best, max(d[1:]))
    return best


def check_instances(spec: S.Spec, lemma: Lemma, n_sym: sympy.Symbol, symbols: dict, what: str) -> Optional[str]:
    """Brute force at every instance; None when the lemma holds at all of them, else the first failure."""
    for n, values, heads in instances(spec, lemma):
        sub = {n_sym: n, **{symbols[k]: val for k, val in values.items()}}
        where = f"n = {n}" + "".join(f", {k} = {val}" for k, val in values.items())
        if what == "connectivity":
            d = diameter(heads, n)
            if lemma.diameter is None:
                i, j = lemma.witness
                outs = patterns.union_out(heads, n)
                if patterns.bfs(outs, j)[i] is not None:
                    return f"{where}: x_{j} reaches position {i}"
            elif d != int(lemma.diameter.xreplace(sub)):
                return f"{where}: the diameter is {d}, the closed form gives {lemma.diameter.xreplace(sub)}"
        elif what == "group" and lemma.group:
            w = next(iter(values.values()), 1)
            if n < lemma.group_from(w) or n > 9:
                continue
            lab = patterns.labels_at(spec, heads, n)
            full, _ = groups.full_order(lab, n, spec.positional)
            if full is None:
                continue
            gens = groups.named_generators(lemma.group, n)
            if full != groups.order(gens, n) or not all(patterns.preserves(g, lab) for g in gens):
                return f"{where}: the pattern's group has order {full}, not {lemma.group}"
    return None


def _same(a: sympy.Expr, b: sympy.Expr) -> bool:
    return a == b or sympy.simplify(a - b) == 0


def n_symbol(ctx) -> sympy.Symbol:
    return ctx.symbols[ctx.spec.tokens]


def lemma_for(ctx) -> Lemma:
    from .check import Trust
    key = "lemma"
    if key not in ctx.cache:
        ctx.cache[key] = classify(ctx.spec, n_symbol(ctx), ctx.symbols)
    lemma = ctx.cache[key]
    if lemma is None:
        raise Trust("symbolic n: no closed form of the verifier's table matches these patterns")
    return lemma


def arcs_of(spec: S.Spec) -> S.Spec:
    """The file with every head's bias and the positional encoding taken out. A bias adds a finite logit to each arc
    and an encoding a vector to each token: they label arcs and positions and add or remove none, so the pattern
    graph — whether x_j reaches i, every distance, the diameter — is the plain pattern's (the groups and the least
    count are not: labels can break symmetries)."""
    return dataclasses.replace(spec, heads=tuple(dataclasses.replace(h, bias=None) for h in spec.heads),
                               positional="none")


def arc_lemma_for(ctx) -> Lemma:
    """The lemma of the file's arcs alone (`arcs_of`), for the statements about the pattern graph only: PAT-CONNECTED's
    diameter and PAT-DISCONNECTED's pair hold with a bias or an encoding as without (`window(w)` with `bias toeplitz`:
    D = ⌈(n − 1)/w⌉)."""
    from .check import Trust
    key = "arc lemma"
    if key not in ctx.cache:
        ctx.cache[key] = complete_head_lemma(ctx.spec) or classify(arcs_of(ctx.spec), n_symbol(ctx), ctx.symbols)
    lemma = ctx.cache[key]
    if lemma is None:
        raise Trust("symbolic n: no closed form of the verifier's table matches these patterns")
    return lemma


def complete_head_lemma(spec: S.Spec) -> Optional[Lemma]:
    """A head whose pattern is `full` attends from every position to every position, so the union of the heads' arcs
    is complete whatever the other heads are: strongly connected with diameter 1 from n = 2 on. (Arcs only: the
    group and the layer count depend on the other heads too, so `lemma_for` does not use it.)"""
    if any(isinstance(h.pattern, S.Full) for h in spec.heads):
        return Lemma("complete head", None, sympy.Integer(1), None, lambda w: 2, False)
    return None


def _instances_ok(ctx, lemma: Lemma, what: str) -> str:
    from .check import Reject
    key = ("instances", what)
    if key not in ctx.cache:
        ctx.cache[key] = check_instances(ctx.spec, lemma, n_symbol(ctx), ctx.symbols, what)
    problem = ctx.cache[key]
    if problem:
        raise Reject(f"the closed form fails at an instance: {problem}")
    return (f"re-checked by brute force at n = {lemma.conn_from}..{INSTANCE_MAX_N}"
            + (f", {lemma.param} = 1, 2, 3" if lemma.param else ""))


def symbolic_connected(ctx, s):
    from .check import VERIFIED, Reject
    from .trees import decode
    lemma = arc_lemma_for(ctx)
    if lemma.diameter is None:
        raise Reject(f"the `{lemma.name}` patterns are not strongly connected")
    d = decode((s.get("data") or {}).get("diameter"), ctx.symbols)
    if not _same(d, lemma.diameter):
        raise Reject(f"the diameter {sympy.sstr(d)} is not the `{lemma.name}` closed form {sympy.sstr(lemma.diameter)}")
    labels = "" if arcs_of(ctx.spec) == ctx.spec else " (the bias or encoding labels arcs and adds none)"
    return VERIFIED, (f"`{lemma.name}` lemma (docs/theory.md §18.4): diameter {sympy.sstr(lemma.diameter)} for "
                      f"n ≥ {lemma.conn_from}{labels}; " + _instances_ok(ctx, lemma, "connectivity"))


def symbolic_disconnected(ctx, s):
    from .check import VERIFIED, Reject
    lemma = arc_lemma_for(ctx)
    data = s.get("data") or {}
    printed = s["evidence"].get("witness") or {}
    if lemma.witness is None or (data.get("i"), data.get("j")) != lemma.witness or (
            printed.get("i"), printed.get("j")) != lemma.witness:
        raise Reject(f"the witness is not the `{lemma.name}` lemma's (i, j) = {lemma.witness}")
    if lemma.name == "block split":
        b = lemma.witness[1] - 1
        return VERIFIED, (f"`block split` lemma: every arc of blocks({b}) + strided(k·{b}), k ≥ 2, keeps ⌈p/{b}⌉ mod k, "
                          f"so x_{b + 1} never reaches position 1, for every n ≥ {b + 1}; "
                          + _instances_ok(ctx, lemma, "connectivity"))
    return VERIFIED, ("`forward` lemma: every arc j -> i of every head has j ≤ i, so no arc enters {1} and x_2 never "
                      "reaches position 1, for every n ≥ 2; " + _instances_ok(ctx, lemma, "connectivity"))


def symbolic_layers(ctx, s):
    from .check import VERIFIED, Reject, Trust
    from .trees import decode
    from . import labelled_window
    by_labels = labelled_window.symbolic_layers(ctx, s)  # Theorem F140 (§16.5)
    if by_labels:
        return by_labels
    lemma = lemma_for(ctx)
    data = s.get("data") or {}
    if labelled_window.labelled(ctx.spec) and data.get("least"):
        # the lemma's D (and its rooted-view re-decision, `_rooted_family`) is for position-blind heads: labels or
        # position weights may need D + 1 (§11.10), and they make the group smaller than the lemma's
        raise Trust(f"D layers, least, with labels or position weights: the `{lemma.name}` lemma is for plain heads")
    if lemma.diameter is None:
        raise Reject("no diameter")
    layers = decode(data.get("layers"), ctx.symbols)
    want = lemma.diameter if lemma.least_layers else lemma.diameter + 1
    if not lemma.least_layers and _same(layers, lemma.diameter) and data.get("least"):
        return _rooted_family(ctx, lemma)
    if not _same(layers, want) or bool(data.get("least")) != lemma.least_layers:
        _position_terms_trusted(ctx, "count")
        raise Reject(f"{sympy.sstr(layers)} layers (least: {data.get('least')}) is not the `{lemma.name}` lemma's "
                     f"{sympy.sstr(want)}")
    why = ("D layers suffice and are least for this family (docs/theory.md §11.2)" if lemma.least_layers
           else "D + 1 layers suffice by the view argument (docs/theory.md §11.2)")
    return VERIFIED, f"`{lemma.name}` lemma: {why}; " + _instances_ok(ctx, lemma, "connectivity")


def _position_terms_trusted(ctx, what: str) -> None:
    """The family lemmas' groups and counts are those of plain heads: with a position term in a head's weights
    (`reweight`, `bias b(i, j) = …`) the group may be smaller and the count larger (`window(1)` with `reweight
    exp(j - i)`: trivial, n layers, not least), so a statement that differs from the lemma's is not re-checked here
    (trusted), rather than rejected; the arcs, and so the lemmas' connectivity, are the same."""
    from .check import Trust
    if any(h.position is not None for h in ctx.spec.heads):
        raise Trust(f"a position term in the weights: the `{what}` of the verifier's family lemmas is for plain heads")


def _structural_name(lemma: Lemma, name) -> bool:
    """The star's group named by structure (docs/theory.md §11.11, Theorem F1): S_(n − 1) on {2, …, n}."""
    import re
    return lemma.name == "star" and isinstance(name, str) and re.fullmatch(r"S_\((\w+) − 1\) on \{2, …, \1\}",
                                                                            name) is not None


def symbolic_group(ctx, s):
    from .check import VERIFIED, Reject
    from . import labelled_window
    by_labels = labelled_window.group(ctx, s.get("data") or {})  # Theorem F140's trivial group (§16.5)
    if by_labels:
        return by_labels
    lemma = lemma_for(ctx)
    name = (s.get("data") or {}).get("name")
    if lemma.group is None or (name != lemma.group and not _structural_name(lemma, name)):
        _position_terms_trusted(ctx, "group")
        raise Reject(f"the group {name!r} is not the `{lemma.name}` lemma's {lemma.group!r}")
    if lemma.group != "trivial":
        # a position term may break the plain heads' symmetry (a fixed bias -(i - j) breaks the window's
        # reflection): the lemma's group is then an upper bound only, and a statement equal to it is not re-checked
        _position_terms_trusted(ctx, "group")
    _instances_ok(ctx, lemma, "group")
    return VERIFIED, (f"`{lemma.name}` lemma (docs/theory.md §18.4): G = {lemma.group} for n ≥ {_group_bound(ctx, lemma)}; "
                      "every instance up to n = 9 re-checked (every permutation, or nauty)")


def _group_bound(ctx, lemma: Lemma) -> str:
    """The first length of the lemma's group, in the pattern's own parameter (a literal size: its number)."""
    w = ctx.symbols.get(lemma.param, sympy.Symbol(lemma.param, positive=True, integer=True)) if lemma.param else 1
    return sympy.sstr(lemma.group_from(w))


def _rooted_family(ctx, lemma: Lemma):
    """D layers for the cyclic families: §11.9's lemma (for n ≥ its n0), re-decided with nauty's rooted views
    at every instance from the group's range to INSTANCE_MAX_N (parameters 1..3)."""
    from . import views
    from .check import VERIFIED, Reject, Trust
    if lemma.rooted_from is None:
        raise Trust(f"D layers for the `{lemma.name}` family: no rooted-view lemma in the verifier's table")
    key = ("rooted instances", lemma.name)
    if key not in ctx.cache:
        problem, low = None, None
        try:
            for n, values, heads in instances(ctx.spec, lemma):
                w = next(iter(values.values()), 1)
                if n < lemma.group_from(w):
                    continue
                d = diameter(heads, n)
                gens = groups.named_generators(lemma.group, n)
                found = views.decide(heads, n, d, gens)
                if found:
                    problem = f"n = {n}" + "".join(f", {k} = {v}" for k, v in values.items()) + f": {found}"
                    break
                low = n if low is None else min(low, n)
        except views.NoNauty as exc:
            problem = exc
        ctx.cache[key] = problem
    problem = ctx.cache[key]
    if isinstance(problem, Exception):
        raise Trust(f"D layers for the `{lemma.name}` family: the rooted views are not re-decided ({problem})")
    if problem:
        raise Reject(f"D layers do not suffice at an instance: {problem}")
    n0 = "2w + 3" if lemma.name == "cyclic window" else "2w + 2"
    return VERIFIED, (f"`{lemma.name}` family: D layers suffice for n ≥ {n0} by §11.9's rooted-view lemma (Aut(R_i) ⊆ "
                      f"Stab_G(i), G transitive); re-decided with nauty's rooted views at every instance n ≤ "
                      f"{INSTANCE_MAX_N} from the group's range" + (", parameter 1, 2, 3" if lemma.param else ""))


# ---------------------------------------------------------------------------------------------
# Window + the first g positions as globals, at a concrete n (docs/theory.md §11.11, Theorem F2 and
# "Listed globals"; §18.4). Its own entry: the formula is restated here from theory.md, the range is
# re-checked at the input's n, and the lemma is re-checked at small instances with the verifier's own
# arc builder, BFS, view check and group code.

WINDOW_GLOBALS_MAX_N = 16  # instances n = g + 2w + 3 .. this, for w, g in PARAM_VALUES


@dataclasses.dataclass(frozen=True)
class WindowGlobals:
    """One head `window(w) + global {1, …, g}` (the positions listed in any order) or `window(w) +
    global(g)`, w, g ≥ 1 integers, non-cyclic window, no bias, no positional encoding."""
    w: int
    g: int
    listed: bool

    def low(self) -> int:
        return self.g + 2 * self.w + 3

    def witness(self) -> tuple[int, tuple[int, int]]:
        """(position i, swap (a b)): σ = (g+1 g+2) changes only N(g+1), N(g+2), N(g+w+2), all at distance 2
        from i = g + 2w + 3."""
        return self.g + 2 * self.w + 3, (self.g + 1, self.g + 2)

    def group_names(self, n: int) -> set:
        """The group by structure, the position sets written {a, …, b} or listed in full."""
        def sets(a, b):
            return {f"{{{a}, …, {b}}}", "{" + ", ".join(str(k) for k in range(a, b + 1)) + "}"} if b - a < 8 \
                else {f"{{{a}, …, {b}}}"}
        refl = {f"the reflection of {r}" for r in sets(self.g + 1, n)}
        if self.g == 1:
            return refl
        return {f"S_{self.g} on {s} × {r}" for s in sets(1, self.g) for r in refl}

    def order(self) -> int:
        return 2 * math.factorial(self.g)

    def pattern(self, w: int, g: int) -> S.Pattern:
        part = S.GlobalAt(tuple(range(g, 0, -1))) if self.listed else S.Global(g)
        return S.PatternUnion((S.Window(w), part))


def window_globals(spec: S.Spec) -> Optional[WindowGlobals]:
    """The lemma's pattern at an integer n, else None."""
    if not isinstance(spec.tokens, int) or isinstance(spec.tokens, bool) or spec.positional != "none":
        return None
    if not spec.heads or any(h.bias for h in spec.heads) or len({h.pattern for h in spec.heads}) != 1:
        return None
    p = spec.heads[0].pattern
    if not isinstance(p, S.PatternUnion) or len(p.parts) != 2:
        return None
    windows = [q for q in p.parts if isinstance(q, S.Window)]
    others = [q for q in p.parts if not isinstance(q, S.Window)]
    if len(windows) != 1 or len(others) != 1 or windows[0].cyclic:
        return None
    w, glob = windows[0].w, others[0]
    if not _positive_int(w):
        return None
    if isinstance(glob, S.Global) and _positive_int(glob.g):
        return WindowGlobals(w, glob.g, False)
    if isinstance(glob, S.GlobalAt) and glob.positions and set(glob.positions) == set(range(1, len(glob.positions) + 1)):
        return WindowGlobals(w, len(glob.positions), True)
    return None


def _positive_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 1


def _window_globals_instances(lemma: WindowGlobals) -> Optional[str]:
    """The lemma at every instance w, g ∈ PARAM_VALUES, n = g + 2w + 3 .. WINDOW_GLOBALS_MAX_N, on the
    verifier's own arcs: the listed form has the arcs of global(g); BFS gives diameter 2; the swap is a
    view witness at the stated position (every position whose neighbourhood it changes is at distance
    ≥ 2 from it) and not a symmetry; the group has the stated order (every permutation, or nauty) and
    contains the stated generators. None when all hold, else the first failure."""
    for w in PARAM_VALUES:
        for g in PARAM_VALUES:
            small = WindowGlobals(w, g, lemma.listed)
            for n in range(small.low(), WINDOW_GLOBALS_MAX_N + 1):
                where = f"w = {w}, g = {g}, n = {n}"
                arcs = patterns.head_arcs(small.pattern(w, g), n)
                if arcs != patterns.head_arcs(S.PatternUnion((S.Window(w), S.Global(g))), n):
                    return f"{where}: the listed globals do not have the arcs of global({g})"
                heads = [arcs]
                if diameter(heads, n) != 2:
                    return f"{where}: the diameter is {diameter(heads, n)}, not 2"
                i, (a, b) = small.witness()
                perm = [b if k == a else a if k == b else k for k in range(1, n + 1)]
                outs = patterns.union_out(heads, n)
                bad = patterns.view_bad_positions(perm, heads, n)
                near = [v for v in bad if patterns.bfs(outs, v)[i] is not None and patterns.bfs(outs, v)[i] < 2]
                lab = {arc: 1 for arc in arcs}  # one head, no bias: every arc has the same label
                if not bad or near or patterns.preserves(perm, lab):
                    return f"{where}: the swap ({a} {b}) is not a view witness at position {i}"
                full, _ = groups.full_order(lab, n, "none")
                gens = _window_globals_generators(g, n)
                if full is not None and (full != small.order() or groups.order(gens, n) != full
                                         or not all(patterns.preserves(p, lab) for p in gens)):
                    return f"{where}: the group has order {full}, not {small.order()}"
    return None


def _window_globals_generators(g: int, n: int) -> list[list[int]]:
    """(1 2), (1 2 … g) on the globals and the reflection of {g + 1, …, n}, as image lists."""
    ident = list(range(1, n + 1))
    gens = []
    if g >= 2:
        swap = ident[:]
        swap[0], swap[1] = 2, 1
        cycle = ident[:]
        for k in range(g):
            cycle[k] = (k + 1) % g + 1
        gens += [swap, cycle]
    gens.append(list(range(1, g + 1)) + [n + g + 1 - k for k in range(g + 1, n + 1)])
    return gens


def _stated(s: dict, key: str) -> list:
    """Every value the step states for `key`: in its data, its facts and its certificate's claims."""
    out = []
    for where in (s.get("data"), s.get("facts"), (s.get("certificate") or {}).get("claims")):
        if isinstance(where, dict) and where.get(key) is not None:
            out.append(where[key])
    return out


def window_globals_step(ctx, s: dict) -> Optional[tuple[str, str]]:
    """PAT-CONNECTED, PAT-LAYERS or SYM-AUT concluded from the family theorem for `window(w) + global
    {1, …, g}` (or global(g)) at an integer n: (VERIFIED, reason), a Reject, or None when the step is not
    this lemma's (another check applies)."""
    from .check import VERIFIED, Reject
    if (s.get("certificate") or {}).get("kind") != "family theorem":
        return None
    lemma = window_globals(ctx.spec)
    check = {"PAT-CONNECTED": _wg_connected, "PAT-LAYERS": _wg_layers, "SYM-AUT": _wg_group}.get(s["rule"])
    if lemma is None or check is None:
        return None
    n = ctx.spec.tokens
    if n < lemma.low():
        raise Reject(f"n = {n} is below the range n ≥ g + 2w + 3 = {lemma.low()} of the window + globals lemma")
    key = ("window globals instances", lemma.listed)
    if key not in ctx.cache:
        ctx.cache[key] = _window_globals_instances(lemma)
    if ctx.cache[key]:
        raise Reject(f"the window + globals lemma fails at an instance: {ctx.cache[key]}")
    head = (f"window + globals lemma (docs/theory.md §11.11, Theorem F2{' and listed globals' if lemma.listed else ''};"
            f" w = {lemma.w}, g = {lemma.g}, n = {n} ≥ {lemma.low()})")
    checked = (f"; the lemma re-checked on the verifier's own arcs at every n = g + 2w + 3..{WINDOW_GLOBALS_MAX_N}, "
               "w, g = 1, 2, 3 (BFS, the swap's view check, the group by every permutation or nauty)")
    return VERIFIED, f"{head}: {check(ctx, s, lemma, n)}{checked}"


def _wg_connected(ctx, s: dict, lemma: WindowGlobals, n: int) -> str:
    from .check import Reject
    stated = _stated(s, "diameter")
    if not stated or any(v != 2 for v in stated):
        raise Reject(f"the diameter {stated} is not the lemma's 2")
    return "diameter 2 (g + 1 and g + w + 2 are not adjacent; j ~ 1 ~ i)"


def _wg_layers(ctx, s: dict, lemma: WindowGlobals, n: int) -> str:
    from .check import Reject
    prem = ctx.premises(s)
    if len(prem) != 1 or prem[0]["rule"] != "PAT-CONNECTED":
        raise Reject("its premise is not the connectivity step")
    layers, least = _stated(s, "layers"), _stated(s, "least")
    if any(v != 2 for v in _stated(s, "diameter")) or not layers or any(v != 3 for v in layers) \
            or not least or any(v is not True for v in least):
        raise Reject("the lemma gives D = 2 and 3 layers, least")
    i, (a, b) = lemma.witness()
    wit = (s.get("data") or {}).get("view witness")
    printed = s["evidence"].get("view witness") or {}
    if isinstance(wit, dict) and wit.get("position") not in (None, i):
        raise Reject(f"the view witness's position is not the lemma's {i}")
    if isinstance(wit, dict) and wit.get("permutation") is not None:
        perm = wit["permutation"]
        if not patterns.is_permutation(perm, n) or [k for k in range(1, n + 1) if perm[k - 1] != k] != [a, b]:
            raise Reject(f"the view witness is not the lemma's swap ({a} {b})")
    if str(printed.get("position")) != str(i) or [str(x) for x in printed.get("swap") or []] != [str(a), str(b)]:
        raise Reject(f"the printed view witness is not the lemma's swap ({a} {b}) at position {i}")
    return (f"the swap ({a} {b}) can change only the neighbourhoods of {a}, {b} and {lemma.g + lemma.w + 2}, none "
            f"within distance 1 of {i}, and is not in G: 2 layers are not enough, 3 suffice (view argument)")


def _wg_group(ctx, s: dict, lemma: WindowGlobals, n: int) -> str:
    from .check import Reject
    data = s.get("data") or {}
    name, order = data.get("name"), data.get("order")
    if name not in lemma.group_names(n) or any(v != lemma.order() for v in _stated(s, "order")) or order is None:
        raise Reject(f"the group {name!r} of order {order} is not the lemma's "
                     f"{min(lemma.group_names(n), key=len)!r} of order {lemma.order()}")
    return f"G = {name}, order 2·g! = {lemma.order()}"
