"""Pattern steps, re-checked on arcs the verifier rebuilds itself from the re-parsed patterns."""
from __future__ import annotations

import itertools

from . import (complete_head, cyclic_covered_heads, depth_one, far_sets, global_unions, grid_cells, groups, head_layers, invariants, labelled_window, large, lemmas,
               named_structure, patterns, rules_families, spanning_bound, twin_class_maps, twin_stand_in,
               views)
from .check import VERIFIED, Reject, Trust, checker
from .structure import slots

EXHAUSTIVE_MAX_N = 8
STANDARD_NAMES = ("S_n", "C_n", "D_n", "reflection", "trivial")  # other names describe the structure


class SymbolicN(Exception):
    pass


class LargeN(Exception):
    """n above the arc limit: the step is checked on the interval model (uapcheck/verifier/large.py)."""


def _concrete(ctx):
    n = ctx.spec.tokens
    if not isinstance(n, int):
        raise SymbolicN()
    if n > patterns.MAX_N:
        raise LargeN()
    heads = ctx.arcs()
    _match_written_arcs(ctx, heads)
    return n, heads


def _match_written_arcs(ctx, heads):
    """The certificate's arc lists (when written) must be the verifier's own."""
    if ctx.cache.get("arcs matched"):
        return
    section = ctx.cert.get("patterns")
    if section is not None:
        if not isinstance(section, dict) or section.get("n") != ctx.spec.tokens or not isinstance(section.get("heads"), list) \
                or len(section["heads"]) != len(heads):
            raise Reject("the certificate's pattern section does not describe this input's heads")
        for h, (written, mine) in enumerate(zip(section["heads"], heads)):
            arcs = written.get("arcs") if isinstance(written, dict) else None
            if not isinstance(arcs, list) or {tuple(a) for a in arcs if isinstance(a, list)} != mine or len(arcs) != len(mine):
                raise Reject(f"head {h + 1}: the certificate's arcs differ from the pattern's")
    ctx.cache["arcs matched"] = True


def _same_as_printed(s, i, j):
    """The witness re-checked is the one the derivation's evidence states."""
    printed = s["evidence"].get("witness")
    if isinstance(printed, dict) and (printed.get("i"), printed.get("j")) != (i, j):
        raise Reject(f"the witness (i, j) = ({i}, {j}) is not the one the derivation printed")


def _all_distances(ctx, n, heads):
    if "dist" not in ctx.cache:
        outs = patterns.union_out(heads, n)
        ctx.cache["dist"] = {s: patterns.bfs(outs, s) for s in range(1, n + 1)}
    return ctx.cache["dist"]


def _int(v, what):
    if not isinstance(v, int) or isinstance(v, bool):
        raise Reject(f"{what} is not an integer")
    return v


def _symbolic(ctx, s, by_lemma, by_family):
    """Symbolic n: the verifier's lemma table (§18.4) first, then its family theorems (§11.11)."""
    stated_range = "from" in (s.get("data") or {})  # a family theorem's step states its range
    if stated_range:
        from . import parametric  # named sizes (F47–F49, F2/F3/F10 with named w, g)
        param = parametric.family(ctx)
        if param is not None:
            return parametric.check_step(ctx, s, param)
    if stated_range or lemmas.classify(ctx.spec, lemmas.n_symbol(ctx), ctx.symbols) is None:
        fam = rules_families.family(ctx)
        if fam is not None:
            return by_family(ctx, s, fam)
    return by_lemma(ctx, s)


def _symbolic_or_ranged_bound(ctx, s, by_lemma, by_family, rule: str):
    """`_symbolic`; where it rejects a step with a range that states only D ≤ a bound, the bound is checked as a
    spanning part's (it holds at every n ≥ 1: the closed forms' fallback when a family theorem was not reached in its
    time limit states it so), and the rejection stands when no part gives that bound."""
    try:
        return _symbolic(ctx, s, by_lemma, by_family)
    except Reject:
        found = spanning_bound.ranged_step(ctx, s, rule) if spanning_bound.applies(ctx, s, ranged=True) else None
        if found is None:
            raise
        return found


@checker("PAT-NORMAL")
def normal_form(ctx, s):
    """Checked before every other step (normal_form.apply), so the later steps see the normal forms."""
    ok, why = ctx.cache.get(("normal form", s["id"]), (False, "the step was not checked before the others"))
    if not ok:
        raise Reject(why)
    return VERIFIED, why


def _stated_pair(ctx, s) -> tuple[int, int] | None:
    """The receptive-field pair [j, i] the step states, or None for none ([null, null] or absent). Anything else (three
    entries, one null, a boolean, a position outside 1..n, a pair at symbolic n) is malformed and rejected here, whatever
    route then checks the diameter."""
    pair = (s.get("data") or {}).get("pair")
    if pair is None or pair == [None, None]:
        return None
    if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                                               for v in pair):
        raise Reject("the receptive-field pair is neither two positions nor [null, null]")
    n = ctx.spec.tokens
    if not isinstance(n, int):
        raise Reject("a pair of positions is stated at symbolic n, where no length fixes them")
    if not all(1 <= v <= n for v in pair):
        raise Reject("the pair is outside 1..n")
    return pair[0], pair[1]


def pair_checked(ctx, s) -> None:
    """A route records that it checked d(j → i) = D for the stated pair itself."""
    ctx.cache[("pair checked", s["id"])] = True


@checker("PAT-CONNECTED")
def connected(ctx, s):
    """Every route below, then the stated pair: d(j → i) = D by one search from j when the route did not check it
    (at n ≤ patterns.MAX_N; above it an unchecked pair leaves the step trusted)."""
    pair = _stated_pair(ctx, s)
    outcome, why = _connected(ctx, s)
    if pair is None or ctx.cache.get(("pair checked", s["id"])):
        return outcome, why
    j, i = pair
    n = ctx.spec.tokens
    if n > patterns.MAX_N:
        raise Trust(f"the stated pair ({j}, {i}) is not re-checked at n = {n} by this route ({why})")
    d = _int((s.get("data") or {}).get("diameter"), "the diameter")
    if patterns.bfs(patterns.union_out(ctx.arcs(), n), j)[i] != d:
        raise Reject(f"d({j} -> {i}) is not the diameter {d}: the receptive-field pair is wrong")
    return outcome, f"{why}; attained by x_{j} reaching position {i} (one search from x_{j})"


def _connected(ctx, s):  # noqa: C901 - one route per kind of connectivity statement (union, lemma, family, bound, arcs)
    if s["status"] != "proved":
        raise Reject("PAT-CONNECTED only concludes `proved`")
    found = (global_unions.check(ctx, s) if global_unions.applies(s) else None  # a union with globals (F87), any n
             ) or lemmas.window_globals_step(ctx, s) or rules_families.concrete_step(ctx, s)  # at an integer n
    if found:
        return found
    try:
        n, heads = _concrete(ctx)
    except SymbolicN:
        complete = complete_head.connected(ctx, s)  # a complete head: D = 1 at every n ≥ 2
        if complete:
            return complete
        several = rules_families.several_heads(ctx, s, "PAT-CONNECTED")  # the union's theorem (Theorem F39)
        if several:
            return several
        bounded = spanning_bound.connected(ctx, s) if spanning_bound.applies(ctx, s) else None
        if bounded:  # D ≤ a spanning part's bound, no exact closed form (§11.11)
            return bounded
        return _symbolic_or_ranged_bound(ctx, s, lemmas.symbolic_connected, rules_families.connected, "PAT-CONNECTED")
    except LargeN:
        # several heads at a large n: their union's theorem read at n (Theorem F125 (c))
        return (rules_families.several_heads_at(ctx, s) or _lemma_at_length(ctx, s) or _window_union_at_length(ctx, s)
                or grid_cells.connected(ctx, s) or large.connected(ctx, s))
    data = s.get("data") or {}
    if data.get("pair") == [None, None]:  # a closed form's diameter without a pair: the verifier's own lemma at n
        by_lemma = _lemma_at_length(ctx, s)
        if by_lemma:
            return by_lemma
        if "diameter" in data:  # no lemma of the verifier's for these heads: its own breadth-first searches at n
            return _diameter_by_search(ctx, n, heads, _int(data["diameter"], "the diameter"))
    if "diameter" not in data or data.get("pair") is None:
        raise Trust("only bounds on the diameter are certified")
    d = _int(data["diameter"], "the diameter")
    written = data.get("distances")
    if written is not None:
        if not isinstance(written, dict) or len(written) != n:
            raise Reject("the distance certificate does not have one array per position")
        for src, arr in written.items():
            src_i = int(src)
            problem = patterns.check_distances(heads, n, src_i, arr)
            if problem:
                raise Reject(problem)
            if any(v is None for v in arr[1:]):
                raise Reject(f"position {arr[1:].index(None) + 1} is unreachable from {src_i}: not strongly connected")
        dist = {int(k): v for k, v in written.items()}
    else:
        dist = _all_distances(ctx, n, heads)
    mine = _all_distances(ctx, n, heads)
    if any(dist[v] != mine[v] for v in range(1, n + 1)):
        raise Reject("the distance arrays differ from the verifier's BFS")
    true_d = max(v for arr in mine.values() for v in arr[1:])
    if true_d != d:
        raise Reject(f"the directed diameter is {true_d}, not {d}")
    j, i = data["pair"]
    if mine[_int(j, "the pair")][_int(i, "the pair")] != d:
        raise Reject(f"d({j} -> {i}) is {mine[j][i]}, not the diameter {d}: the receptive-field pair is wrong")
    pair_checked(ctx, s)
    return VERIFIED, (f"every distance array checked arc by arc; strongly connected with diameter {d}, attained "
                      f"by x_{j} reaching position {i}")


@checker("PAT-DISCONNECTED")
def disconnected(ctx, s):
    if s["status"] != "proved":
        raise Reject("PAT-DISCONNECTED only concludes `proved`")
    if (s.get("data") or {}).get("classes"):
        from . import by_class  # NOT-UAP on residue classes of n only
        return by_class.disconnected(ctx, s)
    try:
        n, heads = _concrete(ctx)
    except SymbolicN:
        if lemmas.classify(ctx.spec, lemmas.n_symbol(ctx), ctx.symbols) is None:
            data = s.get("data") or {}
            printed = s["evidence"].get("witness") or {}
            i, j = data.get("i"), data.get("j")
            why = invariants.separated(ctx.spec, i, j) if (printed.get("i"), printed.get("j")) == (i, j) else None
            if why is not None:
                return VERIFIED, "invariant (docs/theory.md §18.4): " + why
        try:
            return lemmas.symbolic_disconnected(ctx, s)
        except Trust:
            _pair_reached(ctx, s)  # a pair that some length of the range joins is wrong, whatever the closed form
            raise
    except LargeN:
        data = s.get("data") or {}
        i, j = _int(data.get("i"), "the witness i"), _int(data.get("j"), "the witness j")
        _same_as_printed(s, i, j)
        return large.disconnected(ctx, s, i, j)
    data = s.get("data") or {}
    i, j = _int(data.get("i"), "the witness i"), _int(data.get("j"), "the witness j")
    _same_as_printed(s, i, j)
    if "reach" not in data:
        # the engine decided it by a closed form at n and wrote no closed set: the verifier's own search
        if patterns.bfs(patterns.union_out(heads, n), j)[i] is not None:
            raise Reject(f"x_{j} reaches position {i} (breadth-first search on the verifier's arcs)")
        return VERIFIED, (f"breadth-first search from {j} on the verifier's arcs never reaches position {i}: position "
                          f"{i} never sees x_{j}")
    reach = data["reach"]
    if not isinstance(reach, list) or not all(isinstance(v, int) for v in reach):
        raise Reject("no closed set of positions is certified")
    closed = set(reach)
    if i not in closed or j in closed or not closed <= set(range(1, n + 1)):
        raise Reject(f"the closed set must contain {i} and not {j}")
    for arcs in heads:
        for u, v in arcs:
            if v in closed and u not in closed:
                raise Reject(f"arc {u} -> {v} enters the closed set from outside")
    return VERIFIED, (f"no arc enters the {len(closed)} positions that reach {i} from outside, and x_{j} is not "
                      f"among them: position {i} never sees x_{j}")


#: The lengths at which a symbolic PAT-DISCONNECTED pair is tried on the verifier's arcs.
PAIR_TOP = 40


def _pair_reached(ctx, s) -> None:
    """A symbolic PAT-DISCONNECTED step that no closed form of the verifier's table covers: its pair (i, j) is
    tried at each n ≤ PAIR_TOP of the verdict's NOT-UAP range (every n ≥ max(i, j) without one) by BFS on the
    verifier's arcs; x_j reaching position i there refutes "x_j never reaches position i" (Reject, naming the pair
    and the length). Returns when no length refutes it (the step stays trusted)."""
    import sympy
    from .by_class import _resolved
    from .structure import root
    from .trees import TreeError, decode_condition
    data = s.get("data") or {}
    i, j = data.get("i"), data.get("j")
    if not (isinstance(i, int) and isinstance(j, int)) or isinstance(i, bool) or isinstance(j, bool):
        return
    n = ctx.symbols[ctx.spec.tokens]
    tree = (root(ctx).get("data") or {}).get("range")
    try:
        where = decode_condition(tree, ctx.symbols) if tree is not None else sympy.true
    except (TreeError, TypeError, KeyError):
        return
    for value in range(max(i, j, 2), PAIR_TOP + 1):
        if where.xreplace({n: sympy.Integer(value)}) is not sympy.true:
            continue
        try:
            # a periodic pattern per layer: each layer's arcs (a path of their union is one through increasing layers,
            # one period per arc); a finite list's union may join what its layers never do: not refuted here
            if any(type(h.pattern).__name__ == "PatternSequence" and (not h.pattern.periodic or ctx.spec.layers is not None)
                   for h in ctx.spec.heads):
                return
            heads = [patterns.head_arcs(_resolved(p, ctx.spec.tokens, value), value) for h in ctx.spec.heads
                     for p in (h.pattern.patterns if type(h.pattern).__name__ == "PatternSequence" else (h.pattern,))]
        except (ValueError, KeyError, TypeError):
            return  # a parameter size: no arcs at a length alone
        if patterns.bfs(patterns.union_out(heads, value), j)[i] is not None:
            raise Reject(f"the pair (i, j) = ({i}, {j}) fails: x_{j} reaches position {i} at n = {value}, a length "
                         "of the NOT-UAP range (BFS on the verifier's arcs)")


@checker("PAT-BUDGET")
def budget(ctx, s):
    n, heads = _concrete(ctx)
    data = s.get("data") or {}
    if s["status"] != "proved":
        return VERIFIED, "an undecided step asserts nothing"
    i, j = _int(data.get("i"), "i"), _int(data.get("j"), "j")
    _same_as_printed(s, i, j)
    dist = data.get("distances")
    problem = patterns.check_distances(heads, n, j, dist) if isinstance(dist, list) else "no distance array"
    if problem:
        raise Reject(problem)
    budget_ = ctx.spec.layers
    if not isinstance(budget_, int) or data.get("budget") != budget_:
        raise Reject("the layer budget is not the input's")
    if dist[i] != data.get("distance") or dist[i] is None or dist[i] <= budget_:
        raise Reject(f"d({j} -> {i}) = {dist[i]} is not above the budget {budget_}")
    return VERIFIED, f"d({j} -> {i}) = {dist[i]} > {budget_} = the budget, checked arc by arc"


def _group_step(ctx):
    return slots(ctx)[3]


def _in_family_group(ctx, heads, perm) -> bool:
    lab = _labels(ctx, heads, len(perm))  # the family's group: the arcs with their classes, position terms included
    return patterns.preserves(perm, lab, ctx.spec.positional)


FAMILY_LEMMAS = {
    "window": "non-cyclic window: D layers suffice (docs/theory.md §11.2)",
    "star": "star: D layers suffice (docs/theory.md §11.2)",
    "complete": "every head complete: one layer sees every token",
}


def _family(spec, heads, n) -> str | None:
    from .. import spec as S
    pats = [h.pattern for h in spec.heads]
    if any(h.bias or h.position is not None for h in spec.heads):
        return None  # labels (a bias, or positions in the weights): not the unlabelled lemmas (§11.10, §16.5)
    if all(len(a) == n * (n - 1) for a in heads):
        return "complete"
    if all(isinstance(p, S.Window) and not p.cyclic for p in pats) and len(set(pats)) == 1:
        return "window"
    if all(isinstance(p, S.Star) for p in pats):
        return "star"
    return None


def _quoted_witness(s, data, n: int) -> tuple:
    """The view witness a D + 1 (least) step quotes: its position and permutation, the one it printed."""
    wit = data.get("view witness")
    if not isinstance(wit, dict):
        raise Reject("D + 1 layers are claimed necessary without a view witness")
    i = _int(wit.get("position"), "the witness position")
    printed = s["evidence"].get("view witness")
    if isinstance(printed, dict) and printed.get("position") != i:
        raise Reject("the view witness is not the one the derivation printed")
    perm = wit.get("permutation")
    if not patterns.is_permutation(perm, n):
        raise Reject("the view witness is not a permutation of 1..n")
    return i, perm


def check_view_witness(ctx, heads, n: int, d: int, i: int, perm: list) -> None:
    """A view witness (position i, σ) on the verifier's own arcs: σ is not a symmetry of the family and every position
    whose neighbourhood σ changes is at distance ≥ d from i, so d layers do not suffice; Reject otherwise."""
    if _in_family_group(ctx, heads, perm):
        raise Reject("the view witness is a symmetry of the family: it shows nothing")
    bad = _witness_bad_positions(ctx, heads, n, perm)
    dist = _all_distances(ctx, n, heads)
    near = [v for v in bad if dist[v][i] is not None and dist[v][i] <= d - 1]
    if near:
        raise Reject(f"position {near[0]}, whose neighbourhood σ changes, is within {d - 1} of {i}: "
                     "the view witness fails")


def _layers_premise(ctx, s, data: dict) -> tuple:
    """The connectivity premise every PAT-LAYERS route reads: (its exact diameter d, None), or, when the step
    claims one layer more than a bounded, undecided diameter (lower ≤ D ≤ upper, or the premise's stated `diameter bound`), (None,
    the outcome): one layer more than the upper bound suffices by the view argument, and that bound is the premise's
    to prove."""
    prem = ctx.premises(s)
    if len(prem) != 1 or prem[0]["rule"] != "PAT-CONNECTED":
        raise Reject("its premise is not the connectivity step")
    if data.get("diameter") is None and not data.get("least"):
        upper = (prem[0].get("certificate") or {}).get("upper")
        if upper is None:  # a bound the connectivity step states as its claim (a closed form's D ≤ bound, §11.11)
            upper = (prem[0].get("data") or {}).get("diameter bound")
        m = _int(data.get("layers"), "the number of layers")
        if not isinstance(upper, int) or isinstance(upper, bool) or m != upper + 1:
            raise Reject("the layer count is not one more than the connectivity step's upper bound")
        return None, (VERIFIED, f"{m} layers = the connectivity step's bound D ≤ {upper}, plus one: they suffice "
                                "by the view argument (docs/theory.md §11.2); not claimed least")
    d = _int(data.get("diameter"), "the diameter")
    if (prem[0].get("data") or {}).get("diameter") != d:
        raise Reject("its diameter is not the connectivity step's")
    return d, None


@checker("PAT-LAYERS")
def layers(ctx, s):  # noqa: C901 - one branch per layer-count case (D + 1, a view witness, D by lemma, search or views)
    if s["status"] != "proved":
        raise Reject("PAT-LAYERS only concludes `proved`")
    if (s.get("certificate") or {}).get("kind") == "complete-head-alone":
        return complete_head.layers(ctx, s)  # a complete head separating alone (Theorem F141, §16.5)
    if head_layers.applies(s) and (s.get("certificate") or {}).get("n") is not None:
        return head_layers.check(ctx, s)  # several heads at a concrete length, least from the union (Theorem F125 (b))
    if cyclic_covered_heads.applies(s) and (s.get("certificate") or {}).get("n") is not None:
        return cyclic_covered_heads.layers(ctx, s)  # Theorem F210 read at a concrete length without its arcs
    found = lemmas.window_globals_step(ctx, s) or rules_families.concrete_step(ctx, s)  # at an integer n
    if found:
        return found
    try:
        n, heads = _concrete(ctx)
    except SymbolicN:
        if head_layers.applies(s):  # several heads, least from the union (Theorems F70–F71)
            return head_layers.check(ctx, s)
        if cyclic_covered_heads.applies(s):  # a cyclic window and a covered stride split over heads (Theorem F210)
            return cyclic_covered_heads.layers(ctx, s)
        on_hub = global_unions.layers(ctx, s)  # D + 1 on Theorem F87's D = 2
        if on_hub:
            return on_hub
        several = rules_families.several_heads(ctx, s, "PAT-LAYERS")  # D + 1 with the union's D (Theorem F39)
        if several:
            return several
        bounded = spanning_bound.layers(ctx, s) if spanning_bound.applies(ctx, s) else None
        if bounded:  # one layer more than a spanning part's bound on D (§11.2, §11.11)
            return bounded
        return _symbolic_or_ranged_bound(ctx, s, lemmas.symbolic_layers, rules_families.layers, "PAT-LAYERS")
    except LargeN:
        return _large_layers(ctx, s)
    data = s.get("data") or {}
    d, bounded = _layers_premise(ctx, s, data)
    if bounded:
        return bounded
    m = _int(data.get("layers"), "the number of layers")
    least = data.get("least")
    if m == d + 1 and not least:
        return VERIFIED, "D + 1 layers suffice by the view argument (docs/theory.md §11.2)"
    if m == d + 1 and least and n == 1:
        return VERIFIED, "n = 1: D = 0, and one attention layer is the fewest a model has"
    if m == d + 1 and least:
        i, perm = _quoted_witness(s, data, n)
        check_view_witness(ctx, heads, n, d, i, perm)
        return VERIFIED, (f"view witness checked on the arcs: every position whose neighbourhood σ changes is at "
                          f"distance ≥ {d} from {i}, and σ is not a symmetry, so {d} layers do not suffice; "
                          f"D + 1 = {m} do (view argument)")
    if (s.get("certificate") or {}).get("kind") == "depth-one-labelled":
        return depth_one.layers(ctx, s, n, heads, d)  # fixed offset weights at D = 1 (Theorem F149, §16.5)
    if m == d and least:
        labelled = labelled_window.layers(ctx, n, d, m, least)  # Theorem F135 (§16.5)
        if labelled:
            return labelled
        if any(h.position is not None and h.position.kind != "buckets" for h in ctx.spec.heads):
            # Lemma V^λ gives D layers for trainable classes; fixed position weights need Lemma V^ρ (Theorem F161):
            # a normalised softmax head without projections; then the labelled views are re-decided over S_n
            if n > EXHAUSTIVE_MAX_N or not all(_lemma_v_rho(ctx, h) for h in ctx.spec.heads
                                               if h.position is not None and h.position.kind != "buckets"):
                raise Trust("D layers, least, with fixed position weights: Lemma V^ρ (Theorem F161) with the engine's "
                            f"labelled rooted views, not re-decided here above n = {EXHAUSTIVE_MAX_N} or off softmax "
                            "heads (§11.10)")
            found = _exhaustive(ctx, heads, n, d)
            return found[0], found[1] + " (labelled; the fixed weights separate labelled views: Lemma V^ρ, Theorem F161)"
        if any(h.bias == "free" for h in ctx.spec.heads):
            return _free_bias_layers(ctx, heads, n, d)  # Theorem F163 (§11.10); the plain lemmas are not for labels
        fam = _family(ctx.spec, heads, n)
        if fam:
            return VERIFIED, FAMILY_LEMMAS[fam]
        if n <= EXHAUSTIVE_MAX_N:
            return _exhaustive(ctx, heads, n, d)
        by_twins = twin_stand_in.layers(ctx, s, d) or twin_class_maps.layers(ctx, s, d)  # F196 (c), F181
        if by_twins:
            return by_twins
        return _rooted_views(ctx, heads, n, d)
    raise Reject(f"{m} layers with diameter {d} is neither D nor D + 1")


def _witness_bad_positions(ctx, heads, n: int, perm: list) -> set:
    """The positions whose neighbourhood σ changes; with bias classes (§11.10) the labelled neighbourhoods,
    the classes recomputed here: a σ that keeps the bare arcs near i but not their classes is no witness."""
    spec = ctx.spec
    if spec.positional == "none" and not any(h.bias or h.position is not None for h in spec.heads):
        return patterns.view_bad_positions(perm, heads, n)
    if spec.positional != "none":
        raise Trust("a view witness under an absolute positional encoding is not re-checked here")
    from .rules_budget import _label_kinds, _labelled_bad
    try:
        kinds = _label_kinds(ctx, n)
    except Reject as exc:
        raise Trust(f"the labels of this position term are not re-derived here ({exc})") from None
    return _labelled_bad(spec, heads, n, perm, kinds)


# the trainable bias kinds whose class is a function of the offset: Lemma V^λ (§11.10) gives D layers when no
# labelled view witness exists (a `free` bias is not one: its classes are the arcs themselves)
OFFSET_KINDS = ("toeplitz", "circulant", "symmetric toeplitz", "symmetric circulant")


def _diameter_by_search(ctx, n: int, heads, d: int):
    """A diameter stated without its pair (a closed form read at n, Theorem F125 (c)): the verifier's own
    breadth-first search from every position gives strong connectivity and the diameter itself."""
    mine = _all_distances(ctx, n, heads)
    unreached = next(((v, i) for v, arr in mine.items() for i, x in enumerate(arr[1:], 1) if x is None), None)
    if unreached is not None:
        raise Reject(f"position {unreached[1]} is unreachable from {unreached[0]}: not strongly connected")
    true_d = max(x for arr in mine.values() for x in arr[1:])
    if true_d != d:
        raise Reject(f"the directed diameter is {true_d}, not {d}")
    return VERIFIED, (f"the closed form's diameter re-derived by the verifier's own breadth-first search from every "
                      f"position: strongly connected with diameter {d}")


def _rooted_views(ctx, heads, n, d):
    if ctx.spec.positional != "none":
        raise Trust("rooted views are decided here for heads without a positional encoding")
    kinds = None
    if any(h.bias for h in ctx.spec.heads):
        if any((h.bias and h.bias not in OFFSET_KINDS) or h.position is not None for h in ctx.spec.heads):
            # Lemma V^λ gives D layers for trainable classes only; a fixed position term in another head is not one
            raise Trust("labelled rooted views are decided here for trainable biases of the offset only (§11.10)")
        kinds = [h.bias for h in ctx.spec.heads]
    group = _group_step(ctx)
    gens = (group.get("data") or {}).get("generators") if group["rule"] == "SYM-AUT" else None
    if not isinstance(gens, list) or not all(patterns.is_permutation(g, n) for g in gens):
        raise Trust("the group's generators are not listed, so the G-orbits are not known")
    lab = patterns.labels(ctx.spec, heads)
    if not all(patterns.preserves(g, lab) for g in gens):
        raise Reject("a generator of G is not a symmetry of the heads")
    try:
        problem = views.decide(heads, n, d, gens, kinds)
    except views.NoNauty as exc:
        raise Trust(f"D layers claimed sufficient; the rooted views are not re-decided: {exc}") from None
    if problem:
        raise Reject(f"{d} layers do not suffice: {problem}")
    if kinds is not None:
        return VERIFIED, (f"labelled rooted views (§11.10: each arc labelled by its (head, bias class) pairs) decided "
                          f"with nauty, not BLISS: for every G-orbit representative i, |Aut(R_i^λ)| = |Stab_G(i)| and no "
                          f"two views are isomorphic, so no labelled view witness exists and, the biases being "
                          f"trainable classes of the offset (Lemma V^λ), D = {d} layers suffice")
    return VERIFIED, (f"rooted views (§11.9) decided with nauty, not BLISS: for every G-orbit representative i, "
                      f"|Aut(R_i)| = |Stab_G(i)| and no two views are isomorphic, so no view witness exists and "
                      f"D = {d} layers suffice")


def _free_bias_layers(ctx, heads, n: int, d: int):
    """Theorem F163 (§11.10): D layers, least, with a `free` bias when a `free` head's arcs hold every head's arcs
    (a labelled witness would fix every position within D of its root: none exists) and every row of every `free`
    head sees two keys or more (Lemma V^λ for `free` classes); the other heads position-blind or with trainable
    classes of the offset. Re-checked on the verifier's arcs; otherwise trusted."""
    spec = ctx.spec
    if spec.positional != "none" or any(h.position is not None or (h.bias and h.bias != "free" and h.bias not in
                                                                    OFFSET_KINDS) for h in spec.heads):
        raise Trust("D layers with a `free` bias beside position terms or an encoding: not re-checked here")
    nbs = patterns.in_neighbourhoods(heads, n)
    free = [nb for nb, h in zip(nbs, spec.heads) if h.bias == "free"]
    if not all(h.normalized for h in spec.heads if h.bias == "free"):
        raise Trust("D layers with a `free` bias on an unnormalised head: not re-checked here")
    if any(len(nb[v]) < 2 for nb in free for v in range(1, n + 1)):
        raise Reject("a row of a `free` head sees itself alone: its labelled views are not separated (Lemma V^λ "
                     "fails for `free` classes there), so D layers are not shown")
    if not any(all(nb[v] >= other[v] for other in nbs for v in range(1, n + 1)) for nb in free):
        if n <= EXHAUSTIVE_MAX_N:  # Theorem F178 (§11.10): the labelled views decide, re-decided over S_n
            found = _exhaustive(ctx, heads, n, d)
            return found[0], found[1] + (" (labelled, a `free` class being the arc itself; every row of a `free` head "
                                         "sees two keys or more, so each layer separates different labelled views: "
                                         "Theorem F178)")
        raise Trust("D layers with a `free` bias on a head that does not hold every arc: the labelled views are not "
                    f"re-decided above n = {EXHAUSTIVE_MAX_N} here (Theorem F178, §18.5)")
    return VERIFIED, (f"Theorem F163 (§11.10): a `free` head holds every arc (checked on the verifier's arcs), so a "
                      f"labelled witness would fix every position within D = {d} of its root, all of them; every row "
                      "of a `free` head sees two keys or more, so D layers suffice, and are least")


def _lemma_v_rho(ctx, head) -> bool:
    """Lemma V^ρ's head (§14.11(f), Theorem F161): a fixed bias on a normalised head k(x, y) = exp(γ x·y), γ > 0,
    neither tied nor affine, without projections (its classes are re-derived by the labelled check itself)."""
    from .rules_positions import softmax_gamma
    return head.position.kind == "bias" and head.bias is None and head.projection is None and not head.nystrom and \
        head.heads is None and not (head.differential or head.sink is not None) and softmax_gamma(ctx.spec, head) is not None


def _exhaustive(ctx, heads, n, d):
    """Every σ ∈ S_n: with bias classes the labelled neighbourhoods decide which positions σ disturbs (§11.10); a σ
    outside G that disturbs none (an automorphism of the bare arcs that moves labels elsewhere only) is tried too."""
    dist = _all_distances(ctx, n, heads)
    for images in itertools.permutations(range(1, n + 1)):
        perm = list(images)
        bad = _witness_bad_positions(ctx, heads, n, perm)
        if len(bad) == n or _in_family_group(ctx, heads, perm):  # every position disturbed: a witness nowhere
            continue
        for i in range(1, n + 1):
            if all(dist[v][i] is None or dist[v][i] > d - 1 for v in bad):
                raise Reject(f"σ = {perm} is a view witness at position {i}: {d} layers do not suffice")
    return VERIFIED, f"every one of the {n}! permutations tried: no view witness, so D = {d} layers suffice"


def _several_heads_group(ctx, s):
    """Several heads at symbolic n: Theorems F35–F39 (a head intersection), F72 (two partition heads) or F153 (heads
    whose union is a cyclic window); None for another certificate."""
    kind = (s.get("certificate") or {}).get("kind")
    if kind == "partition heads":
        from . import partition_heads
        return partition_heads.check(ctx, s)
    if kind == "head intersection":
        from . import head_intersection
        return head_intersection.check(ctx, s)
    if kind == "cyclic window heads":  # Theorem F153: heads whose union is a cyclic window
        from . import cyclic_window_heads
        return cyclic_window_heads.group_check(ctx, s)
    if kind == "grid hub heads":  # Theorem F171: blocks and residue classes beside hubs
        from . import grid_hubs
        return grid_hubs.check(ctx, s)
    if kind == "cyclic parity hubs":  # Theorem F221: offsets {2, 4} cyclic beside global(g)
        from . import cyclic_parity_hubs
        return cyclic_parity_hubs.check(ctx, s)
    if kind == "split line heads":  # Theorem F187: a line split into the classes mod m
        from . import split_lines
        return split_lines.group_check(ctx, s)
    if kind == "residue exchanging heads":  # Theorem F186: symmetries exchanging residue classes
        from . import residue_exchanges
        return residue_exchanges.group_check(ctx, s)
    return None


@checker("SYM-AUT")
def sym_aut(ctx, s):
    if s["status"] != "proved":
        raise Reject("SYM-AUT only concludes `proved`")
    large.stated_generators(s.get("data") or {})  # null or image lists, on every route below
    if (s.get("certificate") or {}).get("kind") == "by residue class":
        from . import by_class  # G by residue class of n: each class re-checked by its own kind
        return by_class.check(ctx, s, sym_aut)
    if (s.get("certificate") or {}).get("kind") == "trivial-beside-complete-head":
        return complete_head.group(ctx, s)  # a complete head labelled by the offsets (Theorem F150, §16.5)
    several = _several_heads_group(ctx, s)
    if several:
        return several
    found = lemmas.window_globals_step(ctx, s) or rules_families.concrete_step(ctx, s)  # at an integer n
    if found:
        return found
    try:
        n, heads = _concrete(ctx)
    except SymbolicN:
        return _symbolic(ctx, s, lemmas.symbolic_group, rules_families.group)
    except LargeN:
        return _large_group(ctx, s)
    return _concrete_group(ctx, s, n, heads)


def _concrete_group(ctx, s, n: int, heads):
    """SYM-AUT at an integer n with the arcs built: the listed generators preserve every labelled arc, generate the
    stated order, and the family has no more symmetries."""
    data = s.get("data") or {}
    gens = data.get("generators")
    if gens is None and twin_stand_in.applies(s) and not large.labelled(ctx):
        # Theorem F196's group, stated by its twin classes without generators: |Aut| = |Aut(Q)| · ∏ |C|! from the
        # verifier's own twin classes and nauty on the quotient, as above the arc limit, and its name
        return _twin_group(ctx, s)
    if not isinstance(gens, list):
        raise Trust("the generators are not listed (too many tokens)")
    if data.get("order") is None and not gens:
        # a closed form's group at n, stated by its order's text alone (a number too long to write: `strided(4)` at
        # n = 1,000 has 24 · (250!)^4 symmetries): nothing exact to re-derive against
        raise Trust("the group is stated by its order's text alone, with no generators: not re-derived")
    for g in gens:
        if not patterns.is_permutation(g, n):
            raise Reject(f"generator {str(g)[:60]} is not a permutation of 1..n")
    lab = _labels_or_trivial(ctx, heads, n, gens, data)
    if isinstance(lab, tuple):
        return lab
    for g in gens:
        if not patterns.preserves(g, lab, ctx.spec.positional):
            moved = [k + 1 for k in range(n) if g[k] != k + 1][:6]
            raise Reject(f"a generator (moving {moved}) does not preserve every head's arcs and bias classes")
    order = groups.order(gens, n)
    if data.get("order") != order:
        raise Reject(f"the generators generate a group of order {order}, not {data.get('order')}")
    full, method = groups.full_order(lab, n, ctx.spec.positional)
    if full is None:
        raise Trust(f"the order {order} is re-derived (Schreier–Sims), completeness not re-checked: {method}")
    if full != order:
        raise Reject(f"the family has {full} symmetries ({method}); the generators give only {order}")
    # ⟨gens⟩ is now the whole group of `lab`: a permutation lies in it iff it preserves the labels
    why = name_checked(data, gens, n, order, whole=(lab, ctx.spec.positional))
    return VERIFIED, (f"every generator preserves every arc and bias class; order {order} by Schreier–Sims; "
                      f"complete: {method}{why}")


def _twin_group(ctx, s):
    """SYM-AUT of Theorem F196's twin quotient: the order (large.group) and the name (twin_stand_in.group_name), which
    was read nowhere (`trivial` in place of the twin classes' symmetric groups was certified)."""
    outcome, why = large.group(ctx, s)
    if outcome != VERIFIED or large.labelled(ctx) or len(ctx.spec.heads) != 1:
        return outcome, why
    return outcome, why + twin_stand_in.group_name(ctx, s)


def _labels_or_trivial(ctx, heads, n: int, gens: list, data: dict):
    """The labelled arcs (`_labels`), or the verified outcome of a trivial claim when the weights' classes are not
    re-derived but the bare arcs settle it (`_trivial_by_bare_arcs`); Trust otherwise."""
    try:
        return _labels(ctx, heads, n)
    except Trust:
        trivial = _trivial_by_bare_arcs(ctx, heads, n, gens, data)
        if trivial:
            return trivial
        raise


def _trivial_by_bare_arcs(ctx, heads, n: int, gens: list, data: dict):
    """A trivial group claimed where the position terms' classes are not re-derived: the family's group is a
    subgroup of the bare arcs' (classes only refine the labels), so a trivial bare group proves it (`causal`
    with `reweight 1 + j - i`). None when that does not settle it."""
    if data.get("order") != 1 or any(g != list(range(1, n + 1)) for g in gens):
        return None
    full, method = groups.full_order(patterns.labels_at(ctx.spec, heads, n, None), n, ctx.spec.positional)
    if full != 1:
        return None
    return VERIFIED, (f"order 1: the bare arcs already have only the identity ({method}), and the family's group, "
                      f"whose labels refine the arcs by the weights' classes, is a subgroup of it")


def _labels(ctx, heads, n: int) -> dict:
    """Every head's arcs with their classes: a bias's, or a position term's as `rules_positions.effective_bias`
    reads it (§16: the weights act on the group as the bias with the same offset classes), so that the group
    re-derived is the family's, not the bare arcs' (`window(1) + global(1)` with `reweight 1 + (i - j)^2` at 12:
    trivial, where the bare arcs have the reflection of 2…12)."""
    kinds = None
    if any(h.position is not None for h in ctx.spec.heads):
        from .rules_positions import effective_bias
        kinds = [effective_bias(ctx, h, n) for h in ctx.spec.heads]
    return patterns.labels_at(ctx.spec, heads, n, kinds)


def name_checked(data: dict, gens, n: int, order: int, whole=None) -> str:
    """The stated name is G's: a standard name by its standard generators, a name by structure by its
    listed factors (named_structure); "" or "; why" for the step's reason. `whole`: (labels, positional) when
    ⟨gens⟩ is already shown to be the whole group of those labels, so that a named generator lies in it iff it
    preserves them (no membership test by Schreier–Sims: `pattern star` at 400)."""
    name = data.get("name")
    if name in STANDARD_NAMES or (isinstance(name, str) and name.startswith("stabilizer ")):
        named = groups.named_generators(name, n)

        def inside(g) -> bool:
            return patterns.preserves(g, *whole) if whole is not None else groups.contains(gens, n, g)
        if named is None or groups.order(named, n) != order or not all(inside(g) for g in named):
            raise Reject(f"the group is not {name}")
    if "structure" not in data:
        return ""
    try:
        return "; " + named_structure.check(name, data["structure"], gens, n, order)
    except named_structure.NotTheName as exc:
        raise Reject(f"the group is not {name!r}: {exc}") from None


def _large_layers(ctx, s):
    data = s.get("data") or {}
    d, bounded = _layers_premise(ctx, s, data)
    if bounded:
        return bounded
    m = _int(data.get("layers"), "the number of layers")
    n = ctx.spec.tokens
    if m == d + 1 and not data.get("least"):
        return VERIFIED, "D + 1 layers suffice by the view argument (docs/theory.md §11.2)"
    if m == d + 1:
        if ctx.spec.positional != "none" or any(h.bias or h.position is not None for h in ctx.spec.heads):
            raise Trust("a labelled view witness at this n is not re-checked with its classes here")
        i, perm = _quoted_witness(s, data, n)
        return VERIFIED, (large.view_witness(ctx, perm, i, d) + f", and σ is not a symmetry of the heads, so {d} "
                          f"layers do not suffice; D + 1 = {m} do (view argument)")
    if m == d and data.get("least"):
        labelled = labelled_window.layers(ctx, n, d, m, True)  # Theorem F135 (§16.5)
        if labelled:
            return labelled
        fam = _family(ctx.spec, [frozenset()] * len(ctx.spec.heads), n)
        if fam in ("window", "star"):
            return VERIFIED, FAMILY_LEMMAS[fam]
        by_lemma = _lemma_layers(ctx, n)
        if by_lemma:
            return by_lemma
        by_theorem = rules_families.at_length(ctx, n, d, m)  # a family theorem of §11.11 at this n
        if by_theorem:
            return VERIFIED, by_theorem
        by_far_sets = far_sets.check(ctx, s, d)  # Theorem F132 on the seeded bound of Theorem F131
        if by_far_sets:
            return by_far_sets
        by_twins = (grid_cells.layers(ctx, s, d)  # F181 on the cells of blocks(b) + strided(s)
                    or twin_stand_in.layers(ctx, s, d) or twin_class_maps.layers(ctx, s, d))  # F196 (c), F181
        if by_twins:
            return by_twins
        raise Trust(f"D layers claimed sufficient by a search the verifier does not repeat at n = {n}")
    raise Reject(f"{m} layers with diameter {d} is neither D nor D + 1")


def _large_group(ctx, s):
    data = s.get("data") or {}
    found = (_lemma_at_length(ctx, s) or labelled_window.group(ctx, data)  # Theorem F135's trivial group (§16.5)
             or grid_cells.group(ctx, s))  # blocks(b) + strided(s) on its cells
    if found:
        return found
    why = large.forward_chain(ctx)
    if why is None:
        return _twin_group(ctx, s) if twin_stand_in.applies(s) else large.group(ctx, s)
    if data.get("order") != 1 or data.get("generators") not in (None, []) or data.get("name") not in (None, "trivial"):
        raise Reject(f"the group is trivial ({why}), not the stated one")
    return VERIFIED, why


# ---------------------------------------------------------------------------------------------
# The verifier's lemma table (§18.4) at an integer n above the arc limit: the closed form evaluated
# at n instead of a search per position (window, cyclic window, one-sided cyclic offsets)

AT_LENGTH_LEMMAS = ("window", "cyclic window")
_N, _W = "n", "w"


def _lemma_here(ctx):
    """The lemma of the verifier's table for the re-parsed pattern (one window(w), w an integer) with w
    read as the lemma's parameter, or None: its closed forms are in n and w, and its instance check runs
    over w = 1, 2, 3 (the lemma for every w, not this pattern's near-complete small instances)."""
    if "lemma at n" not in ctx.cache:
        import dataclasses

        import sympy

        from .. import spec as S
        lemma, spec = None, ctx.spec
        pats = {h.pattern for h in spec.heads}
        p = next(iter(pats)) if len(pats) == 1 else None
        if isinstance(p, S.Window) and isinstance(p.w, int) and not isinstance(p.w, bool) and p.w >= 1:
            general = dataclasses.replace(spec, heads=[dataclasses.replace(h, pattern=dataclasses.replace(p, w=_W))
                                                       for h in spec.heads])
            found = lemmas.classify(general, sympy.Symbol(_N), {_W: sympy.Symbol(_W, positive=True, integer=True)})
            if found is not None and found.param == _W and found.name in AT_LENGTH_LEMMAS:
                lemma = (found, general, p.w)
        ctx.cache["lemma at n"] = lemma
    return ctx.cache["lemma at n"]


def _lemma_instances(ctx, found, what: str) -> str:
    lemma, general, _ = found
    key = ("lemma at n instances", what)
    if key not in ctx.cache:
        ctx.cache[key] = lemmas.check_instances(general, lemma, _n_symbol(), _w_symbols(), what)
    if ctx.cache[key]:
        raise Reject(f"the `{lemma.name}` lemma fails at an instance: {ctx.cache[key]}")
    return f"the lemma re-checked by brute force at n = {lemma.conn_from}..{lemmas.INSTANCE_MAX_N}, w = 1, 2, 3"


def _n_symbol():
    import sympy
    return sympy.Symbol(_N)


def _w_symbols() -> dict:
    import sympy
    return {_W: sympy.Symbol(_W, positive=True, integer=True)}


def _at(expr, n: int, w: int) -> int:
    return int(expr.subs({_n_symbol(): n, _w_symbols()[_W]: w}))


def _lemma_at_length(ctx, s):
    """PAT-CONNECTED or SYM-AUT at an integer n (above the arc limit, or a closed form's diameter stated without
    a pair below it) concluded from the verifier's own lemma (docs/theory.md §18.4) when the re-parsed pattern is
    one window(w): its closed form at n and w (D, or the group with its order) must be the step's, n in the
    lemma's range; None when no lemma matches (the general checks apply)."""
    found = _lemma_here(ctx)
    if found is None:
        return None
    lemma, _, w = found
    n = ctx.spec.tokens
    data = s.get("data") or {}
    head = f"`{lemma.name}` lemma (docs/theory.md §18.4) at n = {n}, w = {w}"
    if s["rule"] == "PAT-CONNECTED":
        if lemma.diameter is None or n < lemma.conn_from or data.get("diameter") is None:
            return None
        want = _at(lemma.diameter, n, w)
        d = _int(data.get("diameter"), "the diameter")
        if d != want:
            raise Reject(f"the directed diameter is {want} ({head}: {lemma.diameter}), not {d}")
        pair = data.get("pair") or [None, None]
        if pair != [None, None] and lemma.name == "window":
            # a non-cyclic window: d(j → i) = ⌈|i − j|/w⌉ (an arc moves at most w, and hops of w stay inside 1..n)
            j, i = (_int(v, "the pair") for v in pair)
            if not (1 <= i <= n and 1 <= j <= n) or -(-abs(i - j) // w) != d:
                raise Reject(f"d({j} -> {i}) = ⌈|{i} − {j}|/{w}⌉ on window({w}), not the diameter {d}")
            pair_checked(ctx, s)
            return VERIFIED, (f"{head}: strongly connected with diameter {lemma.diameter} = {want}, attained by x_{j} "
                              f"reaching position {i} (d = ⌈|i − j|/w⌉); " + _lemma_instances(ctx, found, "connectivity"))
        if pair != [None, None]:
            return None  # a stated pair is checked by a search (large.connected)
        return VERIFIED, (f"{head}: strongly connected with diameter {lemma.diameter} = {want}; "
                          + _lemma_instances(ctx, found, "connectivity"))
    if s["rule"] == "SYM-AUT":
        want = {"D_n": 2 * n, "reflection": 2}.get(lemma.group or "")
        if want is None or n < lemma.group_from(w) or large.labelled(ctx):
            return None  # the lemma's group is the bare window's; bias classes or position terms may shrink it
        if data.get("name") != lemma.group or data.get("order") != want:
            raise Reject(f"the group is {lemma.group} of order {want} ({head}), not {data.get('name')!r} of order "
                         f"{str(data.get('order'))[:40]}")
        if isinstance(data.get("generators"), list) and data["generators"]:
            return None  # listed generators are checked on the arcs (large.group)
        return VERIFIED, (f"{head}: G = {lemma.group} of order {want} for n ≥ {lemma.group_from(w)}; "
                          + _lemma_instances(ctx, found, "group") + " (the group up to n = 9, every permutation or nauty)")
    return None


def _window_union_at_length(ctx, s):
    """PAT-CONNECTED at an integer n above the arc limit for several heads whose union is one head's window(w): every
    other head's arcs lie in it (each part a window or offsets within w, a cyclic part only beside a cyclic window,
    and n ≥ 2w + 2 so that a cyclic window joins exactly the positions at cyclic distance ≤ w). The union's directed
    graph is that head's, so its diameter is the lemma's for that head alone (`_lemma_at_length`): counted, not searched
    (one breadth-first search per position at n = 1,048,576 ran out of any budget). None when no head contains the
    others."""
    import dataclasses

    from .. import spec as S
    n = ctx.spec.tokens
    if s["rule"] != "PAT-CONNECTED" or len({h.pattern for h in ctx.spec.heads}) < 2:
        return None
    for head in ctx.spec.heads:
        p = head.pattern
        if not (isinstance(p, S.Window) and isinstance(p.w, int) and not isinstance(p.w, bool) and 1 <= p.w
                and n >= 2 * p.w + 2):
            continue
        if all(_arcs_within_window(other.pattern, p.w, p.cyclic) for other in ctx.spec.heads):
            alone = dataclasses.replace(ctx, spec=dataclasses.replace(ctx.spec, heads=[head]), cache={})
            found = _lemma_at_length(alone, s)
            if found is not None:
                status, why = found
                shown = f"window({p.w}){' cyclic' if p.cyclic else ''}"
                return status, f"every head's arcs lie in {shown}'s, so the union is {shown} alone; {why}"
    return None


def _arcs_within_window(p, w: int, cyclic: bool) -> bool:
    """Whether every arc of pattern `p` joins positions within distance w (cyclic distance for a cyclic window)."""
    from .. import spec as S
    if isinstance(p, S.PatternUnion):
        return all(_arcs_within_window(q, w, cyclic) for q in p.parts)
    if isinstance(p, S.Window):
        return isinstance(p.w, int) and not isinstance(p.w, bool) and 0 <= p.w <= w and (cyclic or not p.cyclic)
    if isinstance(p, S.Offsets):
        return (all(isinstance(d, int) and not isinstance(d, bool) and abs(d) <= w for d in p.offsets)
                and (cyclic or not p.cyclic))
    return False


def _lemma_layers(ctx, n: int):
    """D layers (least) for one cyclic window(w) at an integer n ≥ 2w + 3: §11.9's rooted-view lemma, its
    instances re-decided with nauty over w = 1, 2, 3; None when the lemma does not apply."""
    found = _lemma_here(ctx)
    if found is None or large.labelled(ctx):
        return None  # the rooted-view lemma is about the bare window's views and group, not labelled ones
    lemma, general, w = found
    if lemma.rooted_from is None or n < lemma.rooted_from(w):
        return None
    import dataclasses
    if "rooted lemma" not in ctx.cache:  # the lemma's instances, over w = 1, 2, 3 (the general pattern)
        ctx.cache["rooted lemma"] = dataclasses.replace(ctx, spec=general, cache={})
    status, why = lemmas._rooted_family(ctx.cache["rooted lemma"], lemma)
    return status, why.replace("n ≥ 2w + 3", f"n ≥ 2w + 3 = {2 * w + 3} (here n = {n}, w = {w})")
