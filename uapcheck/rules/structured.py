"""Patterns decided from their structure at any size, without materialising the token graph.

* Triangular patterns (every arc j → i has j ≤ i, e.g. `causal & window(4096) + sinks(4)`, or
  j ≥ i): position 1 (or n) sees only itself, so the pattern is not strongly connected, and a
  head that also contains the path 1 → 2 → … → n has the trivial group (docs/theory.md §11.7).
* Block-level patterns (`blockwise(b) { P }` in every head): connectivity, diameter, a view
  witness and the exact group are computed on the n/b blocks and lifted (§11.8).

`structured_outcome` returns None when neither applies, or when the ordinary token-level engine
is cheap enough (it then names the group and lists generators exactly as for any pattern).
"""
from __future__ import annotations

import sympy

from .. import spec as S
from ..certificates import Trusted
from ..bignum import AutomorphismCountsDisagree
from ..budget import BudgetExceeded, time_limit
from ..graphs import GraphTooLarge, analyze_connectivity, build_graph, is_automorphism, symmetry_group
from ..graphs.arith import has_path, lower_triangular, upper_triangular, uses_new_kinds
from ..memo import exact_cache
from ..graphs.blockwise import closed_twin_classes, lift_position, lifted_order, lifted_order_latex, lifted_order_text
from ..graphs.build import _estimate
from ..groups import GroupInfo, exact_int
from ..show import show_pattern
from .symmetry import group_step, group_undecided
from .pattern import LayerCount, layers_needed

#: Above this many arcs (estimated) the structural routes are used instead of the token graph.
TOKEN_GRAPH_ARCS = 400_000
MAX_TOKENS_FOR_TOKEN_ENGINE = 256


def _estimated_arcs(spec: S.Spec) -> int:
    try:
        return sum(_estimate(h.pattern, spec.tokens, {}) for h in spec.heads)
    except (KeyError, TypeError, ValueError):
        return 0


def structured_outcome(spec: S.Spec):
    from .pattern import _concrete_params
    concrete = isinstance(spec.tokens, int) and all(_concrete_params(h.pattern) for h in spec.heads)
    symbolic_new = not concrete and any(uses_new_kinds(h.pattern) for h in spec.heads)
    large = concrete and _estimated_arcs(spec) > TOKEN_GRAPH_ARCS
    if not (large or symbolic_new):
        return None
    tri = triangular_outcome(spec, concrete)
    if tri is not None:
        return tri
    if symbolic_new:
        from .pattern import PatternOutcome, _describe, undecided_step
        desc = _describe(spec)
        why = ("no closed form for intersections, sinks, listed global positions or block-level patterns "
               "with a symbolic size unless every head is triangular (give `tokens N` and integer sizes)")
        return PatternOutcome(group_undecided(desc, why), None, (undecided_step(desc, why),), None, None, None)
    if concrete and spec.tokens > MAX_TOKENS_FOR_TOKEN_ENGINE:
        return _blockwise(spec)
    return None


# ---------------------------------------------------------------------------------------------
# Triangular patterns

#: `has_path` once per process for the same pattern and n (at n = 32,768 a scan of every position;
#: the two Mistral files and the suggestion search's edits ask again).
_has_path = exact_cache()(has_path)


def head_layer_patterns(spec: S.Spec) -> list[tuple[int, S.Pattern]]:
    """(head index, pattern) for each head's pattern, and for a head with a pattern per layer (`periodic`, `sequence`)
    each of its layer patterns that the network has: every arc of the network is an arc of one of them, and G is the
    intersection of their automorphism groups (docs/theory.md §21). A budget `layers M` cuts Φ after M layers, so a
    head's list gives its first M patterns only (layer ℓ ≤ M uses P_ℓ, or P_((ℓ − 1) mod p) + 1 with ℓ − 1 < M): a
    pattern past the cut holds no arc of the network and bounds no automorphism of it."""
    budget = spec.layers if isinstance(spec.layers, int) and not isinstance(spec.layers, bool) else None

    def used(p: S.PatternSequence) -> tuple[S.Pattern, ...]:
        return p.patterns if budget is None else p.patterns[:budget]
    return [(k, p) for k, h in enumerate(spec.heads)
            for p in (used(h.pattern) if isinstance(h.pattern, S.PatternSequence) else (h.pattern,))]


def triangular_outcome(spec: S.Spec, concrete: bool):
    """Every arc of every head (of every layer, for per-layer patterns) goes one way: position 1 (or n) is reached
    from itself alone at any depth, so the family is not connected (NOT-UAP for G-equivariant targets); G is trivial
    when one of those patterns also holds the path 1 → 2 → … → n (or its reverse)."""
    from .pattern import PatternOutcome, _describe, disconnected_step
    parts = head_layer_patterns(spec)
    pats = [p for _, p in parts]
    if all(lower_triangular(p) for p in pats):
        lower = True
    elif all(upper_triangular(p) for p in pats):
        lower = False
    else:
        return None
    n = spec.tokens
    if isinstance(n, int) and n < 2:
        return None  # one position: nothing to reach (with params too, where `concrete` is False)
    desc = _describe(spec)
    heads = "every head of every layer" if any(isinstance(h.pattern, S.PatternSequence) for h in spec.heads) else (
        "every head")
    if lower:
        i, j = 1, 2
        why = (f"every arc j → i of {heads} has j ≤ i, so the only position with a path to 1 is 1 itself "
               "(no arc enters {1} from outside)")
    else:
        i, j = n, (n - 1 if concrete else f"{n} - 1")
        why = (f"every arc j → i of {heads} has j ≥ i, so the only position with a path to {n} is {n} itself")
    evidence = {"positions that reach i": [i], "why": why}
    where = None
    if not concrete:
        evidence["range"] = f"for {n} ≥ 2"
    if isinstance(n, str):  # typed: the verdict states the range
        where = sympy.Ge(sympy.Symbol(n, integer=True, positive=True), 2)
    obstruction = disconnected_step(desc, i, j, evidence, Trusted("graphs.arith", why, {"i": i, "j": j}),
                                    condition=where)
    group = None
    if concrete:
        from ..graphs.arith import path_by_structure
        from ..graphs.build import MAX_GRAPH_POSITIONS
        try:
            with time_limit("checking the path 1 → 2 → … → n", 10.0):
                # position by position only up to the token graphs' size (`random(r) & sinks(k)` at n = 10⁹ drew 10⁹
                # random rows); above it, where the structure shows the path
                path_heads = [(k, p) for k, p in parts
                              if (_has_path(p, n, lower) if n <= MAX_GRAPH_POSITIONS else path_by_structure(p, lower))]
        except BudgetExceeded:
            path_heads = []
        if path_heads:
            k, p = path_heads[0]
            info = GroupInfo("trivial", 1, ())
            arrow = "1 → 2 → … → n" if lower else "n → n − 1 → … → 1"
            head, that = f"head {spec.heads[k].label or k + 1}", "that head"
            if isinstance(spec.heads[k].pattern, S.PatternSequence):
                head, that = head + f"'s layer pattern `{show_pattern(p)}`", "that layer pattern"
            gstep = group_step(desc, info, {
                "method": f"{head} is acyclic (every arc goes one way) and contains "
                          f"the path {arrow} ({'checked for every position' if n <= MAX_GRAPH_POSITIONS else 'read off its structure'}): an automorphism maps this Hamiltonian "
                          "path of an acyclic graph onto a Hamiltonian path, which is unique, so it is the "
                          f"identity; G ⊆ Aut({that}) is trivial",
                "generators": []}, Trusted("graphs.arith", f"an acyclic head containing the path {arrow}",
                                           {"order": 1}))
            group = info
    if group is None:
        gstep = group_undecided(desc, "the group of a triangular pattern without the path 1 → 2 → … → n in some "
                                      "head is not computed at this size")
    return PatternOutcome(gstep, group, (obstruction,), None, None, obstruction)


# ---------------------------------------------------------------------------------------------
# Block-level patterns

def _blockwise(spec: S.Spec):
    from .pattern import (PatternOutcome, _describe, connected_step, disconnected_step, layers_step,
                          undecided_step)
    pats = [h.pattern for h in spec.heads]
    if not all(isinstance(p, S.Blockwise) for p in pats) or len({p.b for p in pats}) != 1:
        return None
    if any(h.bias for h in spec.heads):
        return None
    n, b = spec.tokens, pats[0].b
    nb = n // b
    if b < 2 or nb < 2:
        return None
    desc = _describe(spec)
    try:
        with time_limit("building the block graphs", 30.0):
            blocks = [build_graph(p.inner, nb, {}) for p in pats]
    except (GraphTooLarge, ValueError, KeyError, BudgetExceeded) as exc:
        step = undecided_step(desc, f"the block graph: {exc}")
        return PatternOutcome(group_undecided(desc, str(exc)), None, (step,), None, None, None)
    conn = analyze_connectivity(blocks)
    structure, layers, diameter, obstruction = [], None, None, None
    lifted = f"computed on the {nb} blocks of {b} positions and lifted (docs/theory.md §11.8)"
    if not conn.strongly_connected:
        bi, bj = conn.witness
        reach = sorted(conn.separation.reach_i)
        obstruction = disconnected_step(desc, lift_position(bi, b), lift_position(bj, b), {
            "blocks that reach block i": reach, "method": lifted,
            "why": f"the blocks with a path to block {bi} are {reach}; no arc enters them from outside, so "
                   f"no position of block {bj} reaches a position of block {bi}"},
            Trusted("graphs.blockwise", lifted, {"blocks that reach block i": reach}))
        structure.append(obstruction)
    elif conn.diameter is not None:
        diameter = max(int(conn.diameter), 1)
        connected = connected_step(desc, Trusted("graphs.blockwise", lifted, {"diameter": diameter, "exact": True}),
                                   {"diameter": diameter, "method": lifted, "block diameter": int(conn.diameter)})
        structure.append(connected)

        def in_group(perm, graphs=blocks):
            return is_automorphism(perm, graphs)
        try:
            with time_limit("searching for a view witness on the blocks", 30.0):
                count = layers_needed(blocks, int(conn.diameter), in_group) if conn.diameter >= 2 else None
        except BudgetExceeded:
            count = None
        if count is not None and count.exact and count.witness and count.layers > diameter:
            w = count.witness
            pos = lift_position(w["position"], b)
            if "swap" in w:
                a, c = w["swap"]
                perm = f"the blocks {a} and {c} exchanged (positions {lift_position(a, b)}..{a * b} with "\
                       f"{lift_position(c, b)}..{c * b}, in order)"
            else:
                perm = f"the block permutation {w['permutation']} applied to whole blocks"
            witness = {"position": pos, "block permutation": w.get("swap") or w.get("permutation"),
                       "diameter": diameter,
                       "why": f"a view witness on the blocks lifts to the positions: after {diameter} layers the "
                              f"output at {pos} is the same for X and for X with {perm}"}
            count = LayerCount(diameter + 1, True, "view witness on the blocks, lifted", witness)
        else:
            count = LayerCount(diameter + 1, False, f"view argument: D + 1 = {diameter + 1} layers suffice; "
                               f"whether D = {diameter} suffice is not decided for block patterns")
        layers = count.layers
        structure.append(layers_step(connected, diameter, layers, count.exact, count.method, count.witness))
    else:
        structure.append(undecided_step(desc, "the block diameter is not decided"))
    try:
        with time_limit("computing the automorphism group of the blocks", 60.0):
            grp = symmetry_group(blocks, [None] * len(blocks), spec.positional)
    except (BudgetExceeded, AutomorphismCountsDisagree) as exc:
        return PatternOutcome(group_undecided(desc, str(exc)), None, tuple(structure), layers, diameter,
                              obstruction)
    if spec.positional != "none":
        order, classes = 1, []
    else:
        classes = closed_twin_classes(blocks)
        order = lifted_order(int(grp.order), classes, b)
    import math
    name = "trivial" if order == 1 else ("S_n" if order == math.factorial(n) else None)
    long_order = order.bit_length() >= 1300
    shown_order = lifted_order_text(int(grp.order), classes, b) if long_order else order
    info = GroupInfo(name, shown_order, (), order_latex=lifted_order_latex(int(grp.order), classes, b)
                     if long_order else None, exact=exact_int(order))
    ev = {"method": lifted, "block group order": int(grp.order),
          "closed-twin classes of blocks": [c for c in classes if len(c) > 1] or "none (every block its own class)",
          "order formula": f"|G| = |G_blocks| · ∏ (b·|C|)! / |C|! over the closed-twin classes C of blocks, b = {b}",
          "generators": f"not listed above {MAX_TOKENS_FOR_TOKEN_ENGINE} tokens"}
    cert = Trusted("graphs.blockwise", "the block group lifted through the closed-twin classes",
                   {"order": shown_order, "block group order": int(grp.order)})
    return PatternOutcome(group_step(desc, info, ev, cert), info, tuple(structure), layers, diameter, obstruction)
