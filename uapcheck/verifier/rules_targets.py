"""Target-class steps (docs/theory.md §14): the receptive-field class and its radius recomputed on the
interval model of the re-parsed patterns (any integer n up to 2^17), the closed forms at symbolic n
re-checked at every instance n = n0..INSTANCE_MAX_N, and the least layers by Theorem L, §14.6 and
§14.7 with the exhaustive receptive-witness search at every instance up to n = 7."""
from __future__ import annotations

import functools

import sympy

from . import intervals as I
from . import patterns
from . import receptive as R
from .. import spec as S
from .check import VERIFIED, Reject, Trust, checker
from .trees import decode

INSTANCE_MAX_N = 24
TARGET_RULES = ("TGT-RECEPTIVE", "TGT-LAYERS", "TGT-BUDGET", "TGT-NOT-CAUSAL", "TGT-PLAIN", "TGT-BELOW")
#: the equivariant layer steps whose count the plain UAP carries over to causal targets (TGT-PLAIN)
PLAIN_LAYER_RULES = ("PAT-LAYERS", "SEQ-LAYERS", "BIAS-LAYERS")


def _same(a, b) -> bool:
    return a == b or sympy.simplify(a - b) == 0


def _value(ctx, s, key):
    data = s.get("data") or {}
    if data.get(key) is None:
        raise Reject(f"the step does not state its {key} as a value")
    return decode(data[key], ctx.symbols)


def _plain(ctx):
    if any(h.bias or h.projection or h.position for h in ctx.spec.heads):
        raise Trust("a bias, position term or projection: the verifier's target analysis covers plain patterns")


def _concrete_facts(ctx) -> R.Facts:
    if "receptive" not in ctx.cache:
        try:
            spans = I.union_spans(ctx.spec)
            ctx.cache["receptive"] = R.scan(spans)
        except I.Unsupported as exc:
            ctx.cache["receptive"] = exc
    facts = ctx.cache["receptive"]
    if isinstance(facts, Exception):
        raise Trust(f"the interval model does not cover these patterns: {facts}")
    return facts


def _kind(ctx, patterns_only: bool = False):
    """The closed form's kind, with a param name replaced by its symbol."""
    kind = R.causal_kind(ctx.spec, patterns_only)
    if kind is None:
        raise Trust("no closed form of the verifier's table (§14.6, §14.7) matches these heads")
    return (kind[0],) + tuple(ctx.symbols[t] if isinstance(t, str) else t for t in kind[1:])


def _named(kind) -> bool:
    return not all(isinstance(t, int) for t in kind[1:])


def _instances(ctx, kind) -> str:
    """The closed form at every instance from its n0 to INSTANCE_MAX_N, for the stated (w, k) when that range
    is not empty and for every w = 1..3 (k = 1..3 when there are sinks): the closed form is parametric in w,
    k; the least layers (no receptive witness at that depth, one below it when it exceeds r) by trying every
    permutation up to n = 7."""
    for kd in instance_kinds(kind):
        problem = check_instances(kd)
        if problem:
            raise Reject(f"the closed form fails at an instance (w = {kd[1]}, k = {kd[2]}): {problem}")
    name, w, k = kind
    what = "" if name == "causal" else (" for w = 1, 2, 3" + (", k = 1, 2, 3" if k != 0 else "") + (
        f" and w = {w}, k = {k}" if not _named(kind) and R.closed_from(kind) <= INSTANCE_MAX_N and w > 3 else ""))
    return (f"re-checked on the interval model at every n ≤ {INSTANCE_MAX_N} in the closed form's range{what}, the "
            f"least layers by trying every permutation up to n = {R.WITNESS_MAX_N}")


def instance_kinds(kind) -> list:
    name, w, k = kind
    if name == "causal":
        return [kind]
    small = [(name, w2, k2) for w2 in (1, 2, 3) for k2 in ((0,) if k == 0 else (1, 2, 3))]
    if _named(kind):
        return small
    return ([kind] if R.closed_from(kind) <= INSTANCE_MAX_N and kind not in small else []) + small


@functools.lru_cache(maxsize=None)
def check_instances(kind):
    """None when the closed form of `kind` holds at every instance, else the first failure."""
    p = R.instance_pattern(kind)
    for n in range(max(2, R.closed_from(kind)), INSTANCE_MAX_N + 1):
        spans = I.Spans([p], n)
        facts = R.scan(spans)
        if not facts.causal:
            return f"n = {n}: the pattern is not in the causal class"
        if facts.radius != int(R.closed_radius(kind, n)):
            return f"n = {n}: the radius is {facts.radius}, the closed form gives {R.closed_radius(kind, n)}"
        if n <= R.WITNESS_MAX_N:
            m = int(R.closed_layers(kind, n))
            if R.find_witness([spans], spans, m) is not None:
                return f"n = {n}: a receptive witness at depth {m}"
            if m > facts.radius and R.find_witness([spans], spans, m - 1) is None:
                return f"n = {n}: no receptive witness at depth {m - 1}, so {m} layers are not the least"
    return None


@checker("TGT-RECEPTIVE")
def receptive(ctx, s):
    if s["status"] != "proved":
        raise Reject("TGT-RECEPTIVE only concludes `proved`")
    if any(h.projection for h in ctx.spec.heads):
        raise Trust("a sequence projection: the verifier's target analysis covers patterns")
    target = (s.get("data") or {}).get("target")
    claimed = _value(ctx, s, "radius")
    n = ctx.spec.tokens
    if isinstance(n, int):
        facts = _concrete_facts(ctx)
        want = "causal" if facts.causal else "receptive"
        if target != want:
            raise Reject(f"the class is {want}, not {target}")
        if claimed != facts.radius:
            raise Reject(f"the receptive diameter is {facts.radius}, not {sympy.sstr(claimed)}")
        j, i, d = facts.far
        return VERIFIED, (f"receptive fields recomputed on the interval model at n = {n}: "
                          + ("every arc goes forward and every arc k − 1 → k is present, so R(i) = {1, …, i} "
                             "(the causal class, §14.1); " if facts.causal else "not the causal class; ")
                          + f"r = {d}, attained by x_{j} reaching position {i}")
    kind = _kind(ctx, patterns_only=True)  # the receptive fields are the patterns'; biases label arcs only
    if target != "causal":
        raise Reject("the closed forms are of the causal class")
    want = R.closed_radius(kind, ctx.symbols[n])
    if not _same(claimed, want):
        raise Reject(f"the radius {sympy.sstr(claimed)} is not the closed form {sympy.sstr(want)}")
    return VERIFIED, (f"{'causal mask' if kind[0] == 'causal' else f'causal window w = {kind[1]}, {kind[2]} sinks'}: "
                      f"r = {sympy.sstr(want)} for n ≥ {R.closed_from(kind)} (§14.6, §14.7); " + _instances(ctx, kind))


@checker("TGT-PLAIN")
def plain(ctx, s):
    """UAP for causal targets from the plain UAP (§14.9): the family's group step states the trivial group (at a
    symbolic n from a first length N₀: the step's range n ≥ N must start at or above it), and the count is the
    equivariant count (the derivation's one proved layer step, or one layer for dense heads), least only when it is
    one. Every causal map is continuous, so the plain UAP with m layers gives it."""
    if s["status"] != "proved":
        raise Reject("TGT-PLAIN only concludes `proved`")
    if ctx.spec.target != "causal":
        raise Reject(f"the input declares `target {ctx.spec.target}`, not causal")
    g = _group_step(ctx)
    gdata = g.get("data") or {}
    name = gdata.get("group") if g["rule"] == "SYM-DENSE" else gdata.get("name")
    order = gdata.get("order")
    if any(gdata.get(key) for key in ("classes", "open classes", "order cases", "order by cases")):
        raise Reject(f"the group of step {g['id']} is stated by residue class: the plain UAP's range is not one bound")
    one = ctx.spec.tokens == 1 and not isinstance(ctx.spec.tokens, bool)  # S_1 is the trivial group
    if name != "trivial" and not (order == 1 and not isinstance(order, bool)) and not (one and name == "S_n"):
        raise Reject(f"the group of step {g['id']} is {name!r}, not trivial")
    data = s.get("data") or {}
    m = _value(ctx, s, "layers")
    layer_steps = [x for x in ctx.steps.values() if x["rule"] in PLAIN_LAYER_RULES and x["status"] == "proved"]
    if len(layer_steps) == 1:
        want = decode((layer_steps[0].get("data") or {}).get("layers"), ctx.symbols)
        source = f"the layer step {layer_steps[0]['id']}"
    elif not layer_steps and all(h.pattern is None or isinstance(h.pattern, S.Full) for h in ctx.spec.heads):
        want, source = 1, "one layer for dense heads (Theorem 1)"
    else:
        raise Trust(f"{len(layer_steps)} proved equivariant layer steps: the count is read from one")
    if not _same(m, want):
        raise Reject(f"the count {sympy.sstr(m)} is not the plain UAP's {sympy.sstr(want)} ({source})")
    if bool(data.get("least")) != (m == 1):
        raise Reject("the causal count from the plain UAP is least only when it is one layer")
    where = ""
    if not isinstance(ctx.spec.tokens, int):
        low = _group_from(ctx, g, name)
        if low != 1 or data.get("from") is not None:
            start = _range_start(ctx, s)
            if not _at_least(start, low):
                raise Reject(f"the range n ≥ {sympy.sstr(start)} starts below the trivial group's n ≥ "
                             f"{sympy.sstr(low)} (step {g['id']})")
            where = f", for n ≥ {sympy.sstr(start)} (at or above the trivial group's first length {sympy.sstr(low)})"
    return VERIFIED, (f"the group step {g['id']} states the trivial group and {source} gives {sympy.sstr(m)} "
                      f"layer{'s' if m != 1 else ''}{where}: the plain UAP covers every continuous causal map (§14.9)")


@checker("TGT-NOT-CAUSAL")
def not_causal(ctx, s):
    """NOT-UAP for causal targets (docs/theory.md §14.1, §14.9): an earlier x_j that never reaches position i on the
    verifier's own arcs, or a non-trivial group of the family (an element other than the identity, from the verified group step)."""
    if s["status"] != "proved":
        raise Reject("TGT-NOT-CAUSAL only concludes `proved`")
    if ctx.spec.target != "causal":
        raise Reject(f"the input declares `target {ctx.spec.target}`, not causal")
    data = s.get("data") or {}
    if data.get("route") == "view witness":  # per-layer patterns at their whole depth (§21.5)
        from .rules_layers import causal_depth_witness
        return causal_depth_witness(ctx, s, data)
    if data.get("route") == "interval witness":  # per-layer interval heads at their whole depth (§21.6)
        from .rules_layers import interval_depth_witness
        return interval_depth_witness(ctx, data)
    if data.get("route") == "sink witness":  # per-layer heads with attention sinks at their whole depth (§21.9)
        from .rules_layers import sink_depth_witness
        return sink_depth_witness(ctx, data)
    if data.get("route") == "unreached":
        return _unreached(ctx, s, data)
    if data.get("route") == "budget":
        return _beyond_budget(ctx, s, data)
    if data.get("route") == "budget split":  # M layers of finite widths at a symbolic n (§21.10, Theorem F159)
        from .rules_layers import budget_split
        return budget_split(ctx, data)
    if data.get("route") == "one layer collision":
        return _one_layer_collision(ctx, s, data)
    if data.get("route") == "group":
        return _not_trivial(ctx, s)
    raise Reject("the step states neither an earlier position that never reaches a later one nor a group")


def _unreached(ctx, s, data):
    """x_j with j < i never reaches position i: a backward search from i on the union of every head's arcs closes
    without j, so no number of layers brings x_j to i, while the causal target F(X)_i = x_j depends on it."""
    i, j = data.get("i"), data.get("j")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (i, j)):
        raise Reject("the witness (i, j) is not a pair of positions")
    printed = s["evidence"].get("witness")
    if not isinstance(printed, dict) or (printed.get("i"), printed.get("j")) != (i, j):
        raise Reject(f"the witness (i, j) = ({i}, {j}) is not the one the derivation printed")
    _pair_at_length(ctx, i, j, "the unreached pair")
    if any(isinstance(h.pattern, S.PatternSequence) for h in ctx.spec.heads):
        from .rules_layers import causal_unreached
        return causal_unreached(ctx, i, j)
    try:
        heads = ctx.arcs()
    except patterns.Symbolic as exc:
        raise Trust(f"the verifier does not build these arcs: {exc}") from None
    into: dict = {}
    for arcs in heads:
        for u, v in arcs:
            into.setdefault(v, set()).add(u)
    seen, todo = {i}, [i]
    while todo:
        for u in into.get(todo.pop(), ()):
            if u not in seen:
                seen.add(u)
                todo.append(u)
    if j in seen:
        raise Reject(f"x_{j} reaches position {i} on the verifier's arcs")
    return VERIFIED, (f"the backward search from position {i} on the union of the heads' arcs closes on {len(seen)} "
                      f"position{'s' if len(seen) != 1 else ''} without {j} < {i}: every model's output at {i} ignores "
                      f"x_{j}, while the causal target F(X)_{i} = x_{j} depends on it (§14.1)")


def _beyond_budget(ctx, s, data):
    """The budget route (§14.9): x_j with j < i needs more than M hops to reach position i, M the file's `layers M`,
    so with M layers every model's output at i ignores x_j (positions change the weights, not the arcs), while the
    causal target F(X)_i = x_j depends on it. A backward search from i on the union of every head's arcs, M levels
    deep, must not meet j; the stated distance (None: never reached) is the search's."""
    i, j, budget, distance = _budget_pair(ctx, s, data)
    try:
        heads = ctx.arcs()
    except patterns.Symbolic as exc:
        raise Trust(f"the verifier does not build these arcs: {exc}") from None
    d = _backward_distances(heads, i).get(j)
    if d is not None and d <= budget:
        raise Reject(f"x_{j} reaches position {i} in {d} ≤ {budget} layers on the verifier's arcs")
    if d != distance:
        raise Reject(f"x_{j} reaches position {i} in {d if d is not None else 'no number of'} hops, not {distance}")
    return VERIFIED, (f"the backward search from position {i} on the union of the heads' arcs meets x_{j} (j = {j} < "
                      f"{i}) " + (f"only at depth {d}" if d is not None else "at no depth") + f", beyond the file's "
                      f"`layers {budget}`: every model's output at {i} ignores x_{j}, while the causal target "
                      f"F(X)_{i} = x_{j} depends on it (§14.9)")


def _one_layer_collision(ctx, s, data):
    """`layers 1` on dense heads (§14.9): keys l < i and l′ ∉ {i, l} of row i carry the same label in every head (the
    verifier's own labels: one label without positions, a trainable bias kind's class, T5's bucket), no encoding, no
    Nyström landmarks or projection (which read positions): one layer's output at i is a symmetric function of the
    labelled keys, the same for X and X with x_l, x_l′ exchanged, while F(X)_i = x_l tells them apart."""
    spec, n = ctx.spec, ctx.spec.tokens
    got = data.get("collision")
    if spec.layers != 1 or isinstance(spec.layers, bool):
        raise Reject("the one-layer collision needs the file's `layers 1`")
    if not isinstance(n, int):
        raise Trust("symbolic n: the collision is not re-checked at every length")
    if spec.positional != "none":
        raise Reject("an absolute encoding tells the exchanged positions apart")
    if not isinstance(got, list) or len(got) != 3 or not all(isinstance(v, int) and not isinstance(v, bool)
                                                             for v in got):
        raise Reject("the collision (i, l, l′) is not three positions")
    printed = s["evidence"].get("collision")
    if printed != got:
        raise Reject("the collision is not the one the derivation printed")
    i, l, l2 = got
    if not (1 <= l < i <= n and 1 <= l2 <= n and l2 not in (i, l)):
        raise Reject(f"({i}, {l}, {l2}) is not a row i with a key l < i and another key l′ ∉ {{i, l}}")
    for k, h in enumerate(spec.heads, 1):
        if not (h.pattern is None or isinstance(h.pattern, S.Full)) or h.projection or h.nystrom is not None:
            raise Reject(f"head {k} is not a dense head whose weights read positions through labels only")
        a, b = _row_label(h, n, i, l), _row_label(h, n, i, l2)
        if a is None or a != b or (h.bias == "free" and h.position is None):
            raise Reject(f"head {k} tells keys {l} and {l2} of row {i} apart")
    return VERIFIED, (f"keys {l} < {i} and {l2} of row {i} carry the same label in every dense head (recomputed): one "
                      f"layer gives the same output at {i} for X and X with x_{l}, x_{l2} exchanged, while the causal "
                      f"target F(X)_{i} = x_{l} tells them apart (§14.9)")


def _backward_distances(heads, i: int) -> dict:
    """Hops from each position to position i on the union of the heads' arcs (u → v: v reads u)."""
    into: dict = {}
    for arcs in heads:
        for u, v in arcs:
            into.setdefault(v, set()).add(u)
    dist, frontier, depth = {i: 0}, [i], 0
    while frontier:
        depth += 1
        nxt = []
        for v in frontier:
            for u in into.get(v, ()):
                if u not in dist:
                    dist[u] = depth
                    nxt.append(u)
        frontier = nxt
    return dist


def _budget_pair(ctx, s, data) -> tuple:
    """The budget route's (i, j, M, distance), bound to the printed witness, the file's `layers M` and 1 ≤ j < i ≤ n."""
    i, j, budget, distance = data.get("i"), data.get("j"), data.get("budget"), data.get("distance")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (i, j, budget)):
        raise Reject("the witness (i, j) and the budget are not integers")
    if distance is not None and (not isinstance(distance, int) or isinstance(distance, bool)):
        raise Reject("the stated distance is not an integer")
    printed = s["evidence"].get("witness")
    if not isinstance(printed, dict) or (printed.get("i"), printed.get("j"), printed.get("budget")) != (i, j, budget):
        raise Reject(f"the witness (i, j) = ({i}, {j}) with budget {budget} is not the one the derivation printed")
    layers = ctx.spec.layers
    if not isinstance(layers, int) or isinstance(layers, bool):
        raise Reject("the input states no integer `layers` budget: the budget route needs one")
    if budget != layers:
        raise Reject(f"the budget {budget} is not the file's `layers {layers}`")
    if any(isinstance(h.pattern, S.PatternSequence) for h in ctx.spec.heads):
        raise Reject("per-layer patterns: the budget route reads one pattern graph for every layer")
    _pair_at_length(ctx, i, j, "the far pair")
    return i, j, budget, distance


def _pair_at_length(ctx, i: int, j: int, what: str) -> int:
    """What every route naming a pair (x_j not at position i) asks of the input: no sequence projection, an integer n
    (at a symbolic n `what` is trusted, not re-checked at every length) and 1 ≤ j < i ≤ n. Returns n."""
    if any(h.projection for h in ctx.spec.heads):
        raise Reject("a sequence projection mixes every position into every key: x_j reaches every position")
    n = ctx.spec.tokens
    if not isinstance(n, int):
        raise Trust(f"symbolic n: {what} is not re-checked at every length")
    if not 1 <= j < i <= n:
        raise Reject(f"the witness needs 1 ≤ j < i ≤ n = {n}: a causal target at i reads x_j only for j ≤ i, and x_i "
                     "reaches i")
    return n


#: groups of the dense table (SYM-DENSE) that are not trivial at every n ≥ 2
_NOT_TRIVIAL = ("S_n", "C_n", "D_n", "reflection")


def _group_step(ctx) -> dict:
    """The derivation's one group step (SYM-AUT or SYM-DENSE), proved."""
    groups = [ctx.step(x) for x in ctx.order if ctx.step(x)["rule"] in ("SYM-AUT", "SYM-DENSE")]
    if len(groups) != 1:
        raise Trust(f"{len(groups)} group steps (SYM-AUT or SYM-DENSE): the family's group is read from one")
    if groups[0]["status"] != "proved":
        raise Reject(f"the group step {groups[0]['id']} is not proved")
    return groups[0]


def _not_trivial_range(ctx, s, g: dict):
    """At a symbolic n the group route holds on a range only (G is trivial at n = 1, §14.10): the step states n ≥ N,
    N ≥ 2 (an integer, or a bound with params shown ≥ 2), and the group step states a group that is not trivial at
    any n ≥ N of its range: a named group of _NOT_TRIVIAL or a constant order above 1 (from n = 2), or an order in n
    the group step's theorem checks that never decreases (from its first value above 1), also one formula per residue
    class of n (`_by_residue_first`);
    its first length (SYM-DENSE's every n, a family theorem's `from`, or the verifier's own lemma table's range for
    the stated name) at or below N."""
    start = _range_start(ctx, s)
    data = g.get("data") or {}
    name = data.get("group") if g["rule"] == "SYM-DENSE" else data.get("name")
    by_residue = any(data.get(key) for key in ("classes", "open classes", "order cases", "order by cases"))
    low = _group_from(ctx, g, name)
    first = _by_residue_first(ctx, g, low) if by_residue else _first_not_trivial(ctx, g, name, low)
    for bound, what in ((low, "the group's first length"), (first, "the first length where the group is not trivial")):
        if not _at_least(start, bound):
            raise Reject(f"the stated range n ≥ {sympy.sstr(start)} is not shown to start at or above {what}, "
                         f"n = {sympy.sstr(bound)} (step {g['id']})")
    return VERIFIED, (f"the group step {g['id']} states G = {name} for every n ≥ {sympy.sstr(low)} (checked there), "
                      f"not trivial at any n ≥ {sympy.sstr(first)} of it: at every n ≥ {sympy.sstr(start)} every model "
                      "is G-equivariant, and F(X)_l = x_k for l ≥ k (0 before), k the first position some σ ∈ G "
                      "moves, is a causal target that is not (§14.9, §14.10)")


def _range_start(ctx, s) -> sympy.Expr:
    """The step's `from`: an integer ≥ 2, or a bound with params shown ≥ 2."""
    low = (s.get("data") or {}).get("from")
    if low is None or isinstance(low, bool):
        raise Reject("symbolic n: G is trivial at n = 1, so a non-trivial group excludes causal targets on a range "
                     "n ≥ N (N ≥ 2) only, and the step states none")
    start = decode(low, ctx.symbols)
    start = sympy.Integer(start) if isinstance(start, int) else start
    if not isinstance(start, sympy.Expr) or not _at_least(start, sympy.Integer(2)):
        raise Reject(f"the stated range n ≥ {start} is not shown to exclude n = 1 (it must start at 2 or above)")
    return start


def _at_least(a: sympy.Expr, b: sympy.Expr) -> bool:
    """a ≥ b for every value of the params (positive integers), shown by SymPy's assumptions."""
    return a == b or bool((a - b).is_nonnegative)


def _first_not_trivial(ctx, g: dict, name, low: sympy.Expr) -> sympy.Expr:
    order = (g.get("data") or {}).get("order")
    if name in _NOT_TRIVIAL or (isinstance(order, int) and not isinstance(order, bool) and order > 1):
        return sympy.Integer(2)
    if order is None or (g.get("data") or {}).get("from") is None or not low.is_Integer:
        raise Trust(f"the group {name!r} of step {g['id']} is not a named group or a constant order above 1")
    first = growing_order_first(decode(order, ctx.symbols), int(low))
    if first is None:
        raise Trust(f"the order of step {g['id']}'s group is not shown to grow from a value above 1")
    return sympy.Integer(first)


def growing_order_first(order, low: int, search: int = 64):
    """For an order in one symbol n that is a product of positive integers, powers b^e with an integer b ≥ 1 and
    factorials (or their positive integer powers) of integer expressions, each e and argument built from n, integers,
    sums, non-negative rational multiples, ⌊·⌋ and ⌈·⌉ (so it never decreases as n grows), which never decreases
    where every e and argument is ≥ 0: the first n ≥ max(2, low) where it is above 1 with every e and argument ≥ 0
    (the verifier's own statement of the lemma, §14.9 (b)); None otherwise."""
    if not isinstance(order, sympy.Expr) or len(order.free_symbols) != 1:
        return None
    (n,) = order.free_symbols
    watched = []
    for factor in sympy.Mul.make_args(order):
        if factor.is_Integer and factor >= 1:
            continue
        if isinstance(factor, sympy.Pow) and factor.base.is_Integer and factor.base >= 1:
            if factor.exp.is_integer is not True or not _grows_with(factor.exp, n):
                return None
            watched.append(factor.exp)
            continue
        inner = factor
        if isinstance(factor, sympy.Pow) and factor.exp.is_Integer and factor.exp > 0:
            inner = factor.base
        if not isinstance(inner, sympy.factorial):
            return None
        arg = inner.args[0]
        if arg.is_integer is not True or not _grows_with(arg, n):
            return None
        watched.append(arg)
    for value in range(max(2, low), max(2, low) + search):
        if all(w.subs(n, value) >= 0 for w in watched) and order.subs(n, value) > 1:
            return value
    return None


def _grows_with(e, n) -> bool:
    """e never decreases as n grows: n itself, a rational constant, or a sum, a non-negative rational multiple, a
    floor or a ceiling of such expressions."""
    if e.is_Rational or e == n:
        return True
    if isinstance(e, (sympy.floor, sympy.ceiling)):
        return _grows_with(e.args[0], n)
    if isinstance(e, sympy.Add):
        return all(_grows_with(term, n) for term in e.args)
    if isinstance(e, sympy.Mul):
        coefficient, rest = e.as_coeff_Mul()
        return coefficient.is_Rational and coefficient >= 0 and not rest.is_Mul and _grows_with(rest, n)
    return False


def _by_residue_first(ctx, g: dict, low: sympy.Expr) -> sympy.Expr:
    """Range lemma (c), §14.9: the group step states its order by residue class of n ("order cases": one case per
    residue r = 0, …, L − 1 of n mod L, each checked there as the theorem's closed form on its class); each case's
    formula never decreases and is above 1 from some length on, so G is not trivial at any n ≥ the largest of those
    lengths. Returns it, or raises Trust when a case is not of that kind."""
    data = g.get("data") or {}
    cases = data.get("order cases")
    if any(data.get(key) for key in ("classes", "open classes", "order by cases")) or not isinstance(cases, list) \
            or not cases:
        raise Trust(f"the group of step {g['id']} is stated by residue class of n: its non-triviality by class is "
                    "not re-checked here")
    residues = [c.get("residue") if isinstance(c, dict) else None for c in cases]
    if not all(isinstance(r, int) and not isinstance(r, bool) for r in residues) \
            or sorted(r for r in residues if isinstance(r, int)) != list(range(len(cases))):
        raise Reject(f"the order cases of step {g['id']} do not cover every residue of n mod {len(cases)} once")
    if not low.is_Integer:
        raise Trust(f"the group of step {g['id']} starts at a bound with params: its cases are not evaluated")
    firsts = []
    for case in cases:
        order = decode(case.get("order"), ctx.symbols)
        if isinstance(order, int) and not isinstance(order, bool):
            first = max(2, int(low)) if order > 1 else None
        else:
            first = growing_order_first(order, int(low))
        if first is None:
            raise Trust(f"the order of step {g['id']}'s group for n ≡ {case.get('residue')} is not shown to grow "
                        "from a value above 1")
        firsts.append(first)
    return sympy.Integer(max(firsts))


def _group_from(ctx, g: dict, name) -> sympy.Expr:
    """The first length of the group step's statement: every n for SYM-DENSE, a family theorem's `from`, or the
    verifier's lemma table's range when the stated name is its lemma's group."""
    if g["rule"] == "SYM-DENSE":
        return sympy.Integer(1)
    low = (g.get("data") or {}).get("from")
    if low is not None:
        value = decode(low, ctx.symbols)
        return sympy.Integer(value) if isinstance(value, int) else value
    from .lemmas import lemma_for
    lemma = lemma_for(ctx)
    if lemma.group != name:
        raise Trust(f"the group {name!r} of step {g['id']} is not the `{lemma.name}` lemma's: its range is not read")
    w = ctx.symbols.get(lemma.param) if lemma.param else 1
    bound = lemma.group_from
    if not callable(bound):
        raise Trust(f"the `{lemma.name}` lemma states no first length for its group")
    return sympy.sympify(bound(w))  # safe: the verifier's own closed form, no text parsed


def _not_trivial(ctx, s):
    """Every model is G-equivariant, G the family's group stated by the derivation's one group step; when G has an
    element σ other than the identity, the causal target F(X)_l = x_k for l ≥ k (0 before k), k the first position
    σ moves, is not σ-equivariant (at l = k: x_{σ⁻¹(k)} against x_k)."""
    n = ctx.spec.tokens
    g = _group_step(ctx)
    if not isinstance(n, int):
        return _not_trivial_range(ctx, s, g)
    data = g.get("data") or {}
    if g["rule"] == "SYM-AUT":
        moved = next((gen for gen in data.get("generators") or []
                      if isinstance(gen, list) and gen != list(range(1, len(gen) + 1))), None)
        order = data.get("order")
        if moved is None and isinstance(order, int) and not isinstance(order, bool) and order > 1:
            return VERIFIED, (f"the group step {g['id']} states |G| = {order} > 1 (checked there): every model is "
                              "G-equivariant, and F(X)_l = x_k for l ≥ k (0 before), k the first position some σ ∈ G "
                              "moves, is a causal target that is not (§14.9)")
        if moved is None and not data.get("generators"):
            raise Trust(f"the group step {g['id']} lists no generators and no order")
        if moved is None:
            raise Reject(f"the group step {g['id']} lists no generator other than the identity")
        k = next(p for p, q in enumerate(moved, start=1) if p != q)
        return VERIFIED, (f"the group step {g['id']} has the generator σ = {moved[:12]}{'…' if len(moved) > 12 else ''}"
                          f" (checked there to keep every labelled arc): every model is σ-equivariant, and the causal "
                          f"target F(X)_l = x_{k} for l ≥ {k} (0 before) is not, at l = {k} (§14.9)")
    name = data.get("group")
    if name not in _NOT_TRIVIAL + ("trivial",):
        raise Trust(f"the group {name!r} of step {g['id']} is not one of the dense table's named groups")
    if name not in _NOT_TRIVIAL or n < 2:
        raise Reject(f"the group {name!r} of step {g['id']} is not shown non-trivial at n = {n}")
    return VERIFIED, (f"the group step {g['id']} states G = {name} at n = {n} ≥ 2 (checked there), which is not "
                      "trivial: every model is G-equivariant, and F(X)_l = x_k for l ≥ k (0 before), k the first "
                      "position some σ ∈ G moves, is a causal target that is not (§14.9)")


@checker("TGT-LAYERS")
def layers(ctx, s):
    if s["status"] != "proved":
        raise Reject("TGT-LAYERS only concludes `proved`")
    prem = ctx.premises(s)
    if [p["rule"] for p in prem] == ["TGT-RECEPTIVE", "TGT-POSITIONS"]:
        return _layers_from_positions(ctx, s, prem)
    if len(prem) != 1 or prem[0]["rule"] != "TGT-RECEPTIVE":
        raise Reject("its premise is not the TGT-RECEPTIVE step")
    r = _value(ctx, s, "radius")
    if not _same(r, _value(ctx, prem[0], "radius")):
        raise Reject("its radius is not the TGT-RECEPTIVE step's")
    m = _value(ctx, s, "layers")
    least = (s.get("data") or {}).get("least")
    if ctx.spec.positional != "none":
        raise Trust("a positional encoding: the layer count max(r, 1) is not re-checked here")
    if not least:
        if not _same(m, r + 1):
            raise Reject(f"{sympy.sstr(m)} layers, not shown least, is not r + 1 = {sympy.sstr(r + 1)}")
        return VERIFIED, "Theorem L (§14.5(d)): r + 1 layers always suffice for the receptive-field class"
    if isinstance(ctx.spec.tokens, int) and R.causal_kind(ctx.spec) is None:
        return _exact_layers(ctx, r, m)
    kind = _kind(ctx)
    n = ctx.spec.tokens
    nn = ctx.symbols[n] if not isinstance(n, int) else n
    if isinstance(n, int) and n < R.closed_from(kind):
        raise Trust(f"n = {n} is below the closed form's range")
    if not isinstance(n, int):
        _check_stated_range(ctx, s, kind)
    want = R.closed_layers(kind, nn)
    if not _same(m, want):
        raise Reject(f"{sympy.sstr(m)} layers is not the closed form's {sympy.sstr(want)}")
    if isinstance(n, int) and not _same(r, R.closed_radius(kind, n)):
        raise Reject("the radius is not the closed form's")
    why = ("§14.6: one causal layer sees only the set of the prefix (σ = (1 2) at i = 3 is a receptive witness at "
           "depth 1), two layers see the nested prefix sets" if kind[0] == "causal" else
           "§14.7: r layers are needed (the far pair) and no receptive witness exists at depth r")
    if isinstance(n, int):
        why += f" (n = {n} ≥ {R.closed_from(kind)}, the closed form's range)"
    return VERIFIED, f"{why}; " + _instances(ctx, kind)


def _exact_layers(ctx, r, m):
    """A least count at a concrete n without a closed form: Theorem F68's exact decision with nauty on the
    interval model (uapcheck/verifier/receptive.py, exact_least)."""
    _plain(ctx)
    facts = _concrete_facts(ctx)
    if r != facts.radius:
        raise Reject(f"the receptive diameter is {facts.radius}, not {sympy.sstr(r)}")
    try:
        least, why = R.exact_least(I.head_spans(ctx.spec), I.union_spans(ctx.spec), facts.radius)
    except I.Unsupported as exc:
        raise Trust(f"the exact receptive search does not cover this file: {exc}") from None
    except ImportError:
        raise Trust("pynauty is not installed (pip install pynauty)") from None
    if m != least:
        raise Reject(f"{sympy.sstr(m)} layers, stated least, but the least is {least}: {why}")
    return VERIFIED, (f"Theorem F68 (§14.5(f)), re-derived at n = {ctx.spec.tokens}: {why}, so {least} layer"
                      f"{'s are' if least != 1 else ' is'} the least (r = {facts.radius} needed: the far pair)")


def _check_stated_range(ctx, s, kind) -> None:
    """At symbolic n the closed form holds for n ≥ closed_from(kind) only (§14.6: 2 layers for n ≥ 3, 1 below;
    §14.7): the step must state a range that starts there or later."""
    start = (s.get("data") or {}).get("from")
    want = R.closed_from(kind)
    if start is None:
        raise Reject(f"the closed form holds for n ≥ {sympy.sstr(want)} only, and the step states no range")
    stated = start if isinstance(start, int) else decode(start, ctx.symbols)
    if not _same(stated, want) and not (isinstance(stated, int) and isinstance(want, int) and stated >= want):
        raise Reject(f"the stated range n ≥ {sympy.sstr(stated)} is not within the closed form's n ≥ {sympy.sstr(want)}")


def own_pieces(kind, k_lower: int = 1) -> list:
    """§14.7 below the range of a causal window with k ≥ 0 sinks, as the verifier states it: (first n, first n above,
    least layers) for n ≤ 2 (1 layer: r ≤ 1 and no rearranged prefix of length ≥ 2 before a row) and for
    3 ≤ n < the range (max(2, ⌈(k − 1)/w⌉): the diameter is at most max(1, ⌈(k − 1)/w⌉) there, 2 layers when it is
    1 as for the full causal mask, and no receptive witness when it is ≥ 2). No length is below the number of sinks:
    when every allowed k (`k_lower`, a param's least value) is ≥ 3, n ≤ 2 is no length of the file and the second
    piece starts at the least allowed k."""
    _, w, k = kind
    short = 2 if isinstance(k, int) and k <= 2 else sympy.Max(2, sympy.ceiling((k - 1) / w))
    least = k if isinstance(k, int) else k_lower
    upper = (max(3, least), R.closed_from(kind), short)
    return [upper] if least >= 3 else [(1, 3, 1), upper]  # a length is at least the number of sinks


@checker("TGT-BELOW")
def below(ctx, s):
    """The lengths below a causal window's range with params: the stated pieces are the verifier's own statement of
    §14.7's lemma, and at every instance w = 1..3 (k = 1..3 with sinks) each length max(k, 1) ≤ n < the range,
    n ≤ 7, lies in one piece whose count is the least the exhaustive witness search finds."""
    if s["status"] != "proved":
        raise Reject("TGT-BELOW only concludes `proved`")
    prem = ctx.premises(s)
    if [p["rule"] for p in prem] != ["TGT-LAYERS"] or prem[0]["status"] != "proved" or \
            not (prem[0].get("data") or {}).get("least"):
        raise Reject("its premise is not a proved TGT-LAYERS step with the least count")
    if isinstance(ctx.spec.tokens, int) or ctx.spec.positional != "none" or \
            any(h.bias or h.position or h.projection for h in ctx.spec.heads):
        raise Reject("§14.7's lengths below the range are stated for plain heads at symbolic n")
    kind = _kind(ctx)
    if kind[0] != "window" or not _named(kind):
        raise Reject("the lemma is about a causal window whose range has params")
    stated = [(_piece_value(ctx, p, "from"), _piece_value(ctx, p, "below"), _piece_value(ctx, p, "layers"),
               p.get("least")) for p in (s.get("data") or {}).get("pieces") or []]
    k_lower = _sink_lower(ctx, kind)
    want = own_pieces(kind, k_lower)
    if len(stated) != len(want) or not all(
            least is True and _same(a, x) and _same(b, y) and _same(m, z)
            for (a, b, m, least), (x, y, z) in zip(stated, want)):
        raise Reject("the pieces are not §14.7's below the range: n ≤ 2: 1 layer; 3 ≤ n < the range: "
                     f"{sympy.sstr(want[1][2])} layers")
    ws = [kind[1]] if isinstance(kind[1], int) else [1, 2, 3]
    ks = [kind[2]] if isinstance(kind[2], int) else [k_lower, k_lower + 1, k_lower + 2]
    for inst in [("window", w, k) for w in ws for k in ks]:
        values = {sym: v for sym, v in zip(kind[1:], inst[1:]) if isinstance(sym, sympy.Symbol)}
        for n in range(max(inst[2], 1), min(R.closed_from(inst), R.WITNESS_MAX_N + 1)):
            hits = [m for a, b, m, _ in stated if _at(a, values) <= n < _at(b, values)]
            truth = least_layers_at(inst, n)
            if len(hits) != 1 or _at(hits[0], values) != truth:
                raise Reject(f"at w = {inst[1]}, k = {inst[2]}, n = {n} the least is {truth} layers")
    return VERIFIED, ("§14.7 below the range (n ≤ 2: 1 layer; 3 ≤ n < the range: max(2, ⌈(k − 1)/w⌉)), re-derived; "
                      f"every length n ≤ {R.WITNESS_MAX_N} below the range re-checked at w = {', '.join(map(str, ws))}, "
                      f"k = {', '.join(map(str, ks))} by trying every permutation")


def _sink_lower(ctx, kind) -> int:
    """The least value of a param sink count (its `integer >= K` bound; 1 when unbounded or an integer)."""
    if isinstance(kind[2], int):
        return 1
    name = next((nm for nm, sym in ctx.symbols.items() if sym == kind[2]), None)
    return max(1, next((p.lower for p in ctx.spec.params if p.name == name and p.lower is not None), 1))


def _piece_value(ctx, piece: dict, key: str):
    if piece.get(key) is None:
        raise Reject(f"a piece does not state its {key}")
    return decode(piece[key], ctx.symbols)


def _at(value, values: dict) -> int:
    return int(value.xreplace(values)) if isinstance(value, sympy.Basic) else int(value)


def least_layers_at(kind, n: int) -> int:
    """The least layers for the causal class of `kind` at a small n, by the verifier's own search: from
    max(r, 1) up, the first depth with no receptive witness (Theorem L: r + 1 always suffice)."""
    spans = I.Spans([R.instance_pattern(kind)], n)
    m = max(R.scan(spans).radius, 1)
    while R.find_witness([spans], spans, m) is not None:
        m += 1
    return m


def check_lengths_below(ctx, lay_step, data, step=None) -> str:
    """A count at symbolic n whose TGT-LAYERS step holds for n ≥ start: the verdict step either states that range
    (the lengths below it are then stated one by one: each re-checked here) or claims the count at every n, in
    which case every length below the range must have the formula's count. Plain patterns with integer widths,
    n ≤ WITNESS_MAX_N; otherwise the lengths are trusted."""
    start = (lay_step.get("data") or {}).get("from")
    n = ctx.spec.tokens
    if start is None or isinstance(n, int):
        return ""
    if "TGT-POSITIONS" in [p["rule"] for p in ctx.premises(lay_step)]:
        return ""  # §14.11's one layer holds at every n (its TGT-LAYERS check)
    if not isinstance(start, int):
        if data.get("range") is None:
            raise Reject("a count proved for a range with params is stated for every n")
        if data.get("below_pieces") is None:
            return "; the range with params is stated, the lengths below it are not covered"
        return _check_pieces(ctx, data["below_pieces"], step)
    kind = _kind(ctx)
    if ctx.spec.positional != "none" or any(h.bias or h.position for h in ctx.spec.heads) or _named(kind) \
            or start - 1 > R.WITNESS_MAX_N:
        raise Trust("the lengths below the closed form's range are not re-checked for positions, params or n > 7")
    formula = _value(ctx, lay_step, "layers")
    least = bool((lay_step.get("data") or {}).get("least"))
    stated = {r.get("n"): r for r in (data.get("below_range") or [])}
    sinks = kind[2] if len(kind) > 2 else 0
    for value in range(1, start):
        if value < sinks:  # `sinks(k)` needs k ≤ n: a length the file does not allow, listed as such
            rec = stated.get(value)
            if data.get("range") is not None and (rec is None or rec.get("allowed") is not False
                                                  or rec.get("verdict") is not None):
                raise Reject(f"n = {value} is below the sink count {sinks}, but is not stated as a length the file "
                             "does not allow")
            continue
        truth = least_layers_at(kind, value)
        if data.get("range") is None:
            at = formula.xreplace({ctx.symbols[n]: value}) if isinstance(formula, sympy.Basic) else formula
            if int(at) != truth or not least:
                raise Reject(f"the count is stated for every n, but at n = {value} the least is {truth}, not {at}")
            continue
        rec = stated.get(value)
        if rec is None or rec.get("verdict") != "UAP" or rec.get("layers") != truth or not rec.get("least"):
            raise Reject(f"at n = {value} below the range the least is {truth} layers: the stated length differs")
    return (f"; the lengths n < {start} below the closed form's range re-checked by the verifier's witness search "
            "(every permutation)")


#: the longest length below a NOT-UAP range whose group the verifier computes (every permutation up to 7, then nauty)
BELOW_GROUP_MAX_N = 200
#: A budget split (Theorem F159) lists its lengths below N* one by one when there are at most this many.
SPLIT_LISTED = 1024


def _plain_lengths_below(ctx, plain_step, data: dict) -> str:
    """A causal UAP from the plain UAP for n ≥ N (TGT-PLAIN's `from`): the verdict states exactly that range and
    lists n = 1 … N − 1 once each, each re-checked as below a NOT-UAP range (a UAP there where the group is trivial
    is the derivation's at that n, trusted)."""
    start = (plain_step.get("data") or {}).get("from")
    if start is None:
        if data.get("range") is not None:
            raise Reject("a range is stated, but the plain UAP holds at every n")
        return ""
    if not isinstance(start, int) or isinstance(start, bool):
        if not isinstance(data.get("range"), str) or data.get("below_range") is not None:
            raise Reject("a UAP range with params is stated with its words and no lengths below it")
        return "; the range with params is the TGT-PLAIN premise's, the lengths below it not stated"
    if data.get("range") != f"n ≥ {start}":
        raise Reject(f"the plain UAP holds for n ≥ {start} (TGT-PLAIN), but the verdict states {data.get('range')!r}")
    listed = data.get("below_range")
    if not isinstance(listed, list) or [r.get("n") if isinstance(r, dict) else None for r in listed] != \
            list(range(1, start)):
        raise Reject(f"the lengths below the range are not listed once each, n = 1 … {start - 1}")
    _check_lengths(ctx, listed)
    return f"; UAP for n ≥ {start}, the TGT-PLAIN premise's range; the lengths below it re-checked"


def check_not_uap_range(ctx, s, data: dict) -> str:
    """A NOT-UAP for causal targets at a symbolic n from the group route holds for n ≥ N only (§14.10): the verdict
    states exactly the route's range, and lists each length below it, re-checked here: n = 1 is UAP with one
    layer, the least (G is trivial, and the residual FFN of one layer with W_V = 0 approximates every map of one
    token, FFN-DEF2 proved, d ≥ 2, the normaliser positive at a single key); a NOT-UAP length is one where the
    verifier's own group of the labelled arcs is not trivial (plain heads, every permutation or nauty). "" for a verdict that
    needs no range (an integer n, or a route that holds at every n)."""
    routes = [p for p in ctx.premises(s) if p["rule"] == "TGT-NOT-CAUSAL" and p["status"] == "proved"]
    ranged = [p for p in routes if (p.get("data") or {}).get("route") in ("group", "budget split")]
    starts = [(p.get("data") or {}).get("from") for p in ranged]
    if isinstance(ctx.spec.tokens, int) or not starts or len(routes) != 1:
        if data.get("range") is not None and isinstance(ctx.spec.tokens, str):
            raise Reject("a NOT-UAP range is stated, but no group route states one")
        return ""
    start = starts[0]
    if not isinstance(start, int) or isinstance(start, bool):  # a bound with params: the lengths below not listed
        if not isinstance(data.get("range"), str) or data.get("below_range") is not None:
            raise Reject("a NOT-UAP range with params is stated with its words and no lengths below it")
        return (f"; NOT-UAP for n ≥ {sympy.sstr(decode(start, ctx.symbols))}, the TGT-NOT-CAUSAL premise's range "
                "(the lengths below a bound with params are not stated)")
    if data.get("range") != f"n ≥ {start}":
        raise Reject(f"the NOT-UAP holds for n ≥ {start} (the TGT-NOT-CAUSAL premise), but the verdict states "
                     f"{data.get('range')!r}")
    listed = data.get("below_range")
    split = (ranged[0].get("data") or {}).get("route") == "budget split"
    if split and listed is None and start - 1 > SPLIT_LISTED:
        return (f"; NOT-UAP for n ≥ {start}, the TGT-NOT-CAUSAL premise's range (Theorem F159; the lengths below it "
                "not listed)")
    if not isinstance(listed, list) or [r.get("n") if isinstance(r, dict) else None for r in listed] != \
            list(range(1, start)):
        raise Reject(f"the lengths below the range are not listed once each, n = 1 … {start - 1}")
    if split:
        from .rules_layers import budget_split_lengths
        budget_split_lengths(ctx, listed)
        return (f"; NOT-UAP for n ≥ {start}, the TGT-NOT-CAUSAL premise's range (Theorem F159); the lengths below it "
                "re-checked: each UAP with the verifier's own F121 count, the least")
    _check_lengths(ctx, listed)
    return (f"; NOT-UAP for n ≥ {start}, the TGT-NOT-CAUSAL premise's range; the lengths below it re-checked "
            "(n = 1: one layer; each NOT-UAP length: the verifier's own group of the labelled arcs is not trivial)")


def _check_lengths(ctx, listed: list) -> None:
    """Each length below a range re-checked (`_check_length_below`): a rejection anywhere rejects, even after a
    length that is only trusted."""
    trusted = []
    for rec in listed:
        try:
            _check_length_below(ctx, None, rec)
        except Trust as exc:
            trusted.append(str(exc))
    if trusted:
        raise Trust(trusted[0] + (f" (and {len(trusted) - 1} more)" if len(trusted) > 1 else ""))


def _check_length_below(ctx, s, rec: dict) -> None:
    from . import groups, patterns
    from .structure import below_two_dimensions, slots
    n, verdict = rec["n"], rec.get("verdict")
    if verdict is None and rec.get("allowed") is not False:
        return  # not decided at that length: the entry asserts nothing (the statement says "not decided")
    if rec.get("allowed") is False:  # a length the file does not allow: some global(g) or sinks(k) with g, k > n
        sizes = [p.g if isinstance(p, S.Global) else p.k for h in ctx.spec.heads for p in _pattern_parts(h.pattern)
                 if isinstance(p, (S.Global, S.Sinks))]
        if not any(isinstance(k, int) and k > n for k in sizes):
            raise Reject(f"n = {n} is stated not a length the file allows, but no global or sinks part exceeds it")
        if verdict is not None or rec.get("layers") is not None:
            raise Reject(f"n = {n} is not a length the file allows: no verdict or count is stated there")
        return
    if n == 1:
        if verdict != "UAP" or rec.get("layers") != 1 or rec.get("least") is not True:
            raise Trust(f"n = 1 is stated {verdict} ({rec.get('why')}): only one layer, UAP, is re-checked there")
        ffn, tds, _, _ = slots(ctx)
        boundary = [x for x in ctx.steps.values() if x["rule"] == "WP-POSITIVE" and x["status"] == "proved"
                    and (x.get("evidence") or {}).get("boundary")]
        if below_two_dimensions(ctx) or boundary or not ffn or ffn.get("status") != "proved" \
                or any(t["status"] != "proved" for t in tds):
            raise Trust("n = 1: UAP with one layer is re-checked only with FFN-DEF2 and every head proved, d ≥ 2, "
                        "and a kernel positive at a single key")
        return
    if ctx.spec.positional != "none" or any(h.position for h in ctx.spec.heads) or n > BELOW_GROUP_MAX_N:
        raise Trust(f"n = {n} below the range: the group is re-checked for plain heads at n ≤ {BELOW_GROUP_MAX_N} only")
    try:
        heads = [patterns.head_arcs(h.pattern, n) for h in ctx.spec.heads]
    except Exception as exc:  # a width with params, an unknown part: not instantiated here
        raise Trust(f"n = {n} below the range: the heads are not instantiated here ({exc})") from None
    full, method = groups.full_order(patterns.labels_at(ctx.spec, heads, n), n, ctx.spec.positional)
    if full is None:
        raise Trust(f"n = {n} below the range: {method}")
    if verdict == "NOT-UAP" and full == 1:
        raise Reject(f"at n = {n} below the range the group is trivial ({method}), so the group route gives no "
                     "NOT-UAP there")
    if verdict != "NOT-UAP" and full > 1:
        raise Reject(f"n = {n} below the range is stated {verdict}, but the group there has order {full} ({method}): "
                     "NOT-UAP for causal targets (§14.9)")
    if verdict != "NOT-UAP":
        raise Trust(f"n = {n} below the range is stated {verdict}, where the group is trivial: that verdict is not "
                    "re-checked here")


def _pattern_parts(p) -> list:
    if isinstance(p, (S.PatternUnion, S.PatternIntersection)):
        return [q for part in p.parts for q in _pattern_parts(part)]
    return [p]


def _check_pieces(ctx, pieces: list, step) -> str:
    """The verdict's lengths below a range with params are its TGT-BELOW premise's (checked on its own)."""
    below = [p for p in (ctx.premises(step) if step is not None else []) if p["rule"] == "TGT-BELOW"]
    if len(below) != 1 or below[0]["status"] != "proved":
        raise Reject("the lengths below the range with params are stated without a proved TGT-BELOW premise")
    given = (below[0].get("data") or {}).get("pieces") or []
    if len(given) != len(pieces) or not all(
            all(_same(_piece_value(ctx, p, key), _piece_value(ctx, q, key)) for key in ("from", "below", "layers"))
            and p.get("least") == q.get("least") for p, q in zip(pieces, given)):
        raise Reject("the lengths below the range are not the TGT-BELOW premise's")
    return "; the lengths below the range with params are the TGT-BELOW premise's (§14.7)"


def _layers_from_positions(ctx, s, prem):
    rec, pos = prem
    data = s.get("data") or {}
    r, m = _value(ctx, s, "radius"), _value(ctx, s, "layers")
    if not _same(r, _value(ctx, rec, "radius")):
        raise Reject("its radius is not the TGT-RECEPTIVE step's")
    route = (pos.get("data") or {}).get("route")
    if pos["status"] == "proved" and route == "collision":
        # §14.11(e): a row's collision makes one layer too few; every head position-blind or a trainable bias (0 in
        # each class), so the family contains the position-blind one, whose causal mask needs 2 layers (§14.6)
        if m != 2 or not data.get("least") or r != 1:
            raise Reject("a collision on the full causal mask with trainable or no labels gives 2 layers, the least "
                         "(r = 1)")
        n = ctx.spec.tokens
        if isinstance(n, int) and n < 3:
            raise Reject("a collision needs two keys before a row: n ≥ 3")
        if not isinstance(n, int):  # the count holds for n ≥ 3; one layer, the least, at n = 1, 2 (§14.6)
            vdata = _parent(ctx, s).get("data") or {}
            below = {b.get("n"): b for b in (vdata.get("below_range") or []) if isinstance(b, dict)}
            if vdata.get("range") != f"{n} ≥ 3" or set(below) != {1, 2} or any(
                    (b.get("verdict"), b.get("layers"), b.get("least")) != ("UAP", 1, True) for b in below.values()):
                raise Reject("the collision's 2 layers hold for n ≥ 3: the verdict states that range, with n = 1, 2 "
                             "at one layer, the least")
        return VERIFIED, ("§14.11: one layer is not enough (the TGT-POSITIONS collision), and the family contains the "
                          "position-blind causal mask, whose 2 layers suffice (§14.6): 2, the least")
    if pos["status"] == "proved" and route == "contains plain":
        return _layers_contains_plain(ctx, data, r, m)
    if pos["status"] == "proved" and route == "labelled views":
        return _layers_labelled_views(ctx, data, r, m)
    if pos["status"] != "proved" or route != "one layer":
        raise Trust("a layer count from positions other than §14.11's one-layer and collision routes is not "
                    "re-checked here")
    if m != 1 or not data.get("least") or r != 1:
        raise Reject("positions that tell the keys of every causal row apart give one layer, the least (r = 1)")
    return VERIFIED, "§14.11(c), (d): one layer, the least (r = 1), from the TGT-POSITIONS step"


@checker("TGT-POSITIONS")
def positions(ctx, s):
    """§14.11(c), (d): every head the full causal mask, and the stated head's position term tells the keys of
    every causal row apart (injective or even-injective offset function with k(0, 0) > 0, a trainable
    bias whose classes separate the causal offsets, T5 buckets in the exact range, or RoPE on a softmax head); the
    route `contains plain` at an integer n (`_contains_plain`); the collision route (`_positions_collision`)."""
    data = s.get("data") or {}
    if s["status"] == "undecided":
        return VERIFIED, "an undecided step asserts nothing"
    if s["status"] != "proved":
        raise Reject("TGT-POSITIONS never refutes")
    if data.get("route") == "collision":
        return _positions_collision(ctx, data)
    if data.get("route") == "contains plain":
        return VERIFIED, _contains_plain(ctx)
    if data.get("route") == "labelled views":
        return VERIFIED, _labelled_heads(ctx)
    if data.get("route") != "one layer":
        raise Trust("a positions route other than §14.11's one layer and collision is not re-checked here")
    spec = ctx.spec
    if not all(isinstance(h.pattern, S.Causal) for h in spec.heads):
        raise Reject("§14.11's one-layer route needs every head to be the full causal mask")
    k = data.get("separating")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= len(spec.heads):
        raise Reject("the separating head is not named")
    why = _one_layer_why(ctx, spec.heads[k - 1])
    return VERIFIED, f"head {k}: {why}; every head is the full causal mask: one layer (§14.11)"


def _one_layer_why(ctx, head) -> str:
    """Why the head's positions tell the keys of every causal row apart (§14.11(c), (d)), or Reject / Trust."""
    from . import rules_positions as P
    spec = ctx.spec
    pos, n = head.position, spec.tokens
    if head.bias in ("free", "toeplitz", "circulant", "symmetric toeplitz") and pos is None:
        why = f"a trainable `{head.bias}` bias: the causal offsets 0, −1, …, −(n − 1) lie in different classes"
    elif pos is not None and pos.kind == "rotary":
        if P.softmax_gamma(spec, head, affine_ok=True) is None or (isinstance(spec.dim, int) and spec.dim < 2):
            raise Reject("RoPE's one layer needs a normalised softmax head and d ≥ 2")
        why = "RoPE on a softmax head (§14.11(d))"
    elif pos is not None and pos.kind == "buckets":
        if not (isinstance(n, int) and n - 1 < pos.buckets // 4):
            raise Trust("T5 buckets beyond the exact range: the buckets of the causal offsets are not re-derived here")
        why = "T5 buckets: every causal offset in the exact range has its own bucket"
    elif pos is not None and pos.kind == "bias":
        key = ("offset class", head)
        if key not in ctx.cache:
            ctx.cache[key] = P.offset_class(spec, head)
        kind, _, reason = ctx.cache[key]
        k00 = sympy.simplify(kernels_value_at_zero(spec, head))
        if k00.is_positive is not True:
            raise Reject(f"k(0, 0) = {sympy.sstr(k00)} is not shown positive")
        why = f"{reason}: {kind} on the offsets, hence injective on the causal offsets m ≤ 0; k(0, 0) = {sympy.sstr(k00)} > 0"
    else:
        raise Trust("this head's position term is not re-checked for §14.11")
    return why


#: the trainable bias kinds: a free value per class (0 in each class gives the head without positions)
TRAINABLE_KINDS = ("free", "toeplitz", "circulant", "symmetric toeplitz", "symmetric circulant")


def _contains_plain(ctx) -> str:
    """§14.11(e), the route `contains plain` at an integer n: every head is position-blind or carries a trainable class
    (a bias kind of TRAINABLE_KINDS, or T5 buckets), no fixed term, no encoding; the zero bias lies in every class, so
    the family contains the position-blind one (its parameters at 0), and Theorem 2′ on the larger parameter set
    gives every count that suffices for the position-blind family."""
    spec = ctx.spec
    if not isinstance(spec.tokens, int):
        raise Trust("symbolic n: the route `contains plain` is re-checked at an integer n (its count holds from the "
                    "closed form's first length, and the lengths below it are not re-derived with labels)")
    if spec.positional != "none":
        raise Trust("an absolute encoding: the route `contains plain` is re-checked for bias classes only")
    for k, h in enumerate(spec.heads, 1):
        if h.projection:
            raise Reject(f"head {k} has a sequence projection: not a causal family of patterns")
        blind = h.bias is None and h.position is None
        trainable = (h.position is None and h.bias in TRAINABLE_KINDS) or (
            h.bias is None and h.position is not None and h.position.kind == "buckets")
        if not (blind or trainable):
            raise Reject(f"head {k} has a fixed position term or RoPE: the family does not contain the "
                         "position-blind one")
    return ("every head is position-blind or has a trainable bias or T5 buckets (0 in every class): the family "
            "contains the position-blind one (§14.11(e))")


def _layers_contains_plain(ctx, data, r, m) -> tuple:
    """The count of the route `contains plain` at an integer n: r + 1 by Theorem L (§14.5(d)) for the position-blind
    subfamily; r (stated least or not) only when the position-blind family's least count is r, re-derived by the
    closed form (§14.6, §14.7, in its range) or Theorem F68's exact search with nauty on the patterns' spans. r layers
    are needed whatever the labels (the far pair of TGT-RECEPTIVE)."""
    why = _contains_plain(ctx)
    least = bool(data.get("least"))
    if not least and _same(m, r + 1):
        return VERIFIED, (f"{why}; Theorem L (§14.5(d)): r + 1 = {sympy.sstr(m)} layers suffice for the position-blind "
                          "family, hence for this one")
    if not _same(m, r):
        raise Reject(f"{sympy.sstr(m)} layers: the route gives r + 1 = {sympy.sstr(r + 1)} (not shown least) or r = "
                     f"{sympy.sstr(r)} when the position-blind family needs no more")
    n = ctx.spec.tokens
    kind = R.causal_kind(ctx.spec, patterns_only=True)
    if kind is not None and not _named(kind) and n >= R.closed_from(kind):
        blind, how = int(R.closed_layers(kind, n)), "the closed form (§14.6, §14.7; " + _instances(ctx, kind) + ")"
    else:
        facts = _concrete_facts(ctx)
        if facts.radius != r:
            raise Reject(f"the receptive diameter is {facts.radius}, not {sympy.sstr(r)}")
        try:
            blind, how = R.exact_least(I.head_spans(ctx.spec), I.union_spans(ctx.spec), facts.radius)
        except I.Unsupported as exc:
            raise Trust(f"the exact receptive search does not cover this file: {exc}") from None
        except ImportError:
            raise Trust("pynauty is not installed (pip install pynauty)") from None
        how = f"Theorem F68 (§14.5(f)) on the patterns' spans: {how}"
    if blind != r:
        raise Reject(f"the position-blind family needs {blind} layers, not r = {sympy.sstr(r)}: the route `contains "
                     "plain` does not give r")
    return VERIFIED, (f"{why}; the position-blind family needs r = {sympy.sstr(r)} layers ({how}), and r are needed "
                      "whatever the labels (the far pair): the least")


def _labelled_heads(ctx) -> str:
    """The route `labelled views` (§14.11(e), Lemma V^λ) as the verifier re-checks it: an integer n ≤ R.WITNESS_MAX_N,
    every head position-blind, with a trainable bias kind other than `free`, or T5 buckets (trainable classes of the
    offset); a fixed term (Lemma V^ρ) is not re-checked here."""
    spec = ctx.spec
    n = spec.tokens
    if not isinstance(n, int) or n > R.WITNESS_MAX_N:
        raise Trust(f"the labelled receptive search is re-done by trying every permutation, up to n = {R.WITNESS_MAX_N}")
    _contains_plain(ctx)
    if any(h.bias == "free" for h in spec.heads):
        raise Trust("a `free` bias: the labelled receptive search is not re-done for it")
    return "every head is position-blind or a trainable class of the offset (Lemma V^λ: each layer separates labelled views)"


def _keeps_labelled(ctx, sigma, v: int, nbs) -> bool:
    """σ(N_h(v)) = N_h(σ v) for every head h, and each arc u → v keeps its label: label_h(σ v, σ u) = label_h(v, u)."""
    n = ctx.spec.tokens
    for head, nb in zip(ctx.spec.heads, nbs):
        if frozenset(sigma[u] for u in nb[v]) != nb[sigma[v]]:
            return False
        if any(_row_label(head, n, sigma[v], sigma[u]) != _row_label(head, n, v, u) for u in nb[v]):
            return False
    return True


def _labelled_witness(ctx, m: int):
    """(σ, i) a labelled receptive witness at depth m (σ keeps every labelled neighbourhood of the positions within
    m − 1 of i, and not every one of R(i)), trying every permutation; None when there is none."""
    import itertools
    n = ctx.spec.tokens
    heads = I.head_spans(ctx.spec)
    union = I.union_spans(ctx.spec)
    nbs = R.neighbourhoods(heads, n)
    perms = [(0,) + p for p in itertools.permutations(range(1, n + 1))]
    for i in range(1, n + 1):
        levels = union.levels(i)
        inner = [v for t, lv in enumerate(levels) if t <= m - 1 for lo, hi in lv for v in range(lo, hi + 1)]
        field = [v for lv in levels for lo, hi in lv for v in range(lo, hi + 1)]
        for sigma in perms:
            if all(_keeps_labelled(ctx, sigma, v, nbs) for v in inner) and \
                    not all(_keeps_labelled(ctx, sigma, v, nbs) for v in field):
                return list(sigma[1:]), i
    return None


def _layers_labelled_views(ctx, data, r, m) -> tuple:
    """The count of the route `labelled views`, re-decided by the verifier's own labelled receptive search (every
    permutation, n ≤ R.WITNESS_MAX_N): m ≥ r layers suffice when no labelled witness exists at depth m (Lemma V^λ with
    the receptive view argument, §11.10, §14.5), and m is the least when m = r (the far pair) or a labelled witness
    exists at depth m − 1."""
    why = _labelled_heads(ctx)
    if not data.get("least"):
        raise Reject("the route `labelled views` decides the least count")
    facts = _concrete_facts(ctx)
    if facts.radius != r:
        raise Reject(f"the receptive diameter is {facts.radius}, not {sympy.sstr(r)}")
    if not (isinstance(m, int) or getattr(m, "is_Integer", False)) or not (isinstance(r, int) or
                                                                      getattr(r, "is_Integer", False)):
        raise Reject("the count and the radius are not integers at an integer n")
    m, r = int(m), int(r)
    if m < max(r, 1):
        raise Reject(f"{m} layers: fewer than r = {r} (or one) never suffice")
    try:
        above = _labelled_witness(ctx, m)
        below = None if m <= max(r, 1) else _labelled_witness(ctx, m - 1)
    except I.Unsupported as exc:
        raise Trust(f"the labelled receptive search does not cover this file: {exc}") from None
    if above is not None:
        raise Reject(f"a labelled receptive witness at depth {m} (σ = {above[0]}, i = {above[1]}): {m} layers do not "
                     "suffice")
    if below is not None:
        least = f"σ = {below[0]} at i = {below[1]} is a labelled witness at depth {m - 1}"
    elif m > max(r, 1):
        raise Reject(f"no labelled receptive witness at depth {m - 1}: {m} layers are not the least")
    else:
        least = f"r = {r} layers are needed (the far pair; one layer at least)"
    return VERIFIED, (f"{why}; no labelled receptive witness at depth {m} (every permutation tried at n = "
                      f"{ctx.spec.tokens}), so {m} layers suffice; {least}: the least")


def _row_label(head, n: int, i: int, l: int):
    """The label head puts on key l of causal row i (the verifier's own reading, §14.11): one label for a head without
    positions, the class of a trainable bias kind (free: the pair; toeplitz: the offset; circulant: the offset mod n;
    symmetric toeplitz: |offset|; symmetric circulant: min(δ mod n, −δ mod n)), T5's released bucket; None for a fixed
    term or RoPE (not a trainable class: no collision is accepted)."""
    from .rules_positions import _released_bucket
    pos, kind, d = head.position, head.bias, l - i
    if pos is None and kind is None:
        return "plain"
    if pos is None:
        return {"free": (i, l), "toeplitz": d, "circulant": d % n, "symmetric toeplitz": abs(d),
                "symmetric circulant": min(d % n, -d % n)}.get(kind)
    if kind is None and pos.kind == "buckets":
        return _released_bucket(d, pos.buckets, pos.max_distance)
    return None


def _positions_collision(ctx, data) -> tuple:
    """§14.11's collision route: every head is the full causal mask and position-blind or a trainable class, and keys
    l < l′ of row i carry the same label in every head (recomputed), so one layer gives the same output at i for X
    and X with x_l, x_l′ exchanged, while the causal target F(X)_i = x_l tells them apart."""
    spec, n = ctx.spec, ctx.spec.tokens
    if not all(isinstance(h.pattern, S.Causal) for h in spec.heads):
        raise Reject("§14.11's collision route needs every head to be the full causal mask")
    if not all(h.position is None or (h.bias is None and h.position.kind == "buckets") for h in spec.heads):
        raise Reject("the collision route needs every head position-blind or a trainable class (0 in each class)")
    got = data.get("collision")
    if not isinstance(got, list) or len(got) != 3:
        raise Reject("the collision (i, l, l′) is not stated")
    if not isinstance(n, int):
        kinds = {h.bias for h in spec.heads if h.bias is not None or h.position is not None}
        if any(h.position is not None for h in spec.heads) or not kinds <= {"symmetric circulant"}:
            raise Trust("a symbolic collision for these heads is not re-derived here")
        # row n: keys 1 and 2 (no positions: every key alike), or 1 and n − 1 (offsets −(n − 1) and −1 share the
        # symmetric-circulant class 1), for n ≥ 3
        want = [n, "1", f"{n} - 1"] if kinds else [n, "1", "2"]
        if [str(v) for v in got] != [str(v) for v in want]:
            raise Reject(f"the collision is not row n's keys {want[1]} and {want[2]}")
        return VERIFIED, (f"row n, keys {want[1]} and {want[2]}: " + ("offsets −(n − 1) and −1 share the symmetric "
                          "circulant class 1" if kinds else "no head sees positions") + " for every n ≥ 3, so one "
                          "layer does not tell the exchange apart (§14.11)")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in got):
        raise Reject("the collision is not three positions")
    i, l, l2 = got
    if not 1 <= l < l2 < i <= n:
        raise Reject(f"({i}, {l}, {l2}) is not two keys l < l′ of a causal row i ≤ n")
    for k, h in enumerate(spec.heads, 1):
        a, b = _row_label(h, n, i, l), _row_label(h, n, i, l2)
        if a is None or a != b:
            raise Reject(f"head {k} tells keys {l} and {l2} of row {i} apart")
    return VERIFIED, (f"keys {l} and {l2} of row {i} carry the same label in every head (recomputed): one layer gives "
                      "the same output at i for X and X with them exchanged, while F(X)_i = x_l reads x_l (§14.11)")


def kernels_value_at_zero(spec, head):
    from . import kernels
    return kernels.kernel_value(spec, head, (sympy.Integer(0),), (sympy.Integer(0),))


def _parent(ctx, s) -> dict:
    """The one step that cites `s` (TGT-VERDICT or TGT-ALTERNATIVE for the target steps)."""
    parents = [p for p in ctx.steps.values() if s["id"] in (p.get("premises") or [])]
    if len(parents) != 1 or parents[0]["rule"] not in ("TGT-VERDICT", "TGT-ALTERNATIVE"):
        raise Reject("the step is not the premise of one verdict step")
    return parents[0]


def _siblings(ctx, s, rule: str) -> list:
    """The steps of `rule` beside `s` under the step that cites it (TGT-VERDICT or TGT-ALTERNATIVE)."""
    return [p for p in ctx.premises(_parent(ctx, s)) if p["rule"] == rule]


def _budget(ctx) -> int:
    m = ctx.spec.layers
    if not isinstance(m, int) or isinstance(m, bool):
        raise Reject("the input declares no integer `layers M` budget")
    return m


@checker("TGT-BUDGET")
def budget(ctx, s):
    """§14 TGT-BUDGET: `layers M` against the class's radius r (TGT-RECEPTIVE) and count (TGT-LAYERS), each checked by
    its own row. Proved (NOT-UAP for the class): M < r, or M below a count stated least — at a concrete n, or at a
    symbolic n where r or the count is one integer for every n (the count's range starting at n = 1). Undecided: it
    asserts nothing, and the verdict above it is INCONCLUSIVE."""
    m = _budget(ctx)
    data = s.get("data") or {}
    if data.get("budget") != m:
        raise Reject(f"the budget compared is {data.get('budget')!r}, not the input's `layers {m}`")
    if s["status"] == "undecided":
        return VERIFIED, f"an undecided step asserts nothing (`layers {m}` not compared)"
    if s["status"] != "proved":
        raise Reject("TGT-BUDGET concludes `proved` or `undecided`")
    rec, lay = _siblings(ctx, s, "TGT-RECEPTIVE"), _siblings(ctx, s, "TGT-LAYERS")
    if len(rec) != 1 or len(lay) != 1 or rec[0]["status"] != "proved" or lay[0]["status"] != "proved":
        raise Reject("the radius and the count are not those of one proved TGT-RECEPTIVE and one TGT-LAYERS step")
    r, count = _value(ctx, rec[0], "radius"), _value(ctx, lay[0], "layers")
    start = (lay[0].get("data") or {}).get("from")
    every_n = isinstance(ctx.spec.tokens, int) or start in (None, 1)
    if r.is_Integer and m < int(r) and (isinstance(ctx.spec.tokens, int) or every_n):
        return VERIFIED, (f"`layers {m}` is below the receptive diameter r = {r} (TGT-RECEPTIVE): some x_j reaches its "
                          "position only in more hops, and the class's target depends on it (§14.5(a))")
    least = (lay[0].get("data") or {}).get("least") is True
    if least and count.is_Integer and m < int(count) and every_n:
        return VERIFIED, (f"`layers {m}` is below the {count} layers TGT-LAYERS states least: the receptive witness at "
                          f"depth {int(count) - 1} (and, views growing with the depth, below) is not told apart (§14.5(d))")
    raise Reject(f"`layers {m}` is not shown below the class's count: r = {sympy.sstr(r)}, {sympy.sstr(count)} layers"
                 f"{' (least)' if least else ' (not shown least)'}" + ("" if every_n else f", for n ≥ {start} only"))


def budget_problem(ctx, layers) -> str:
    """'' when a UAP with `layers` attention layers fits the input's `layers M` budget (or there is none); else why not.
    A UAP needs its count within the network's M layers at every length it is stated for: an integer count ≤ M, or a
    count SymPy shows ≤ M for every positive integer n."""
    m = ctx.spec.layers
    if not isinstance(m, int) or isinstance(m, bool) or layers is None:
        return ""
    fits = sympy.Le(layers, m)
    if fits is sympy.true:
        return ""
    if fits is sympy.false:
        return f"the input's budget `layers {m}` is below the {sympy.sstr(layers)} layers of the UAP stated"
    return f"the {sympy.sstr(layers)} layers of the UAP stated are not shown within the input's budget `layers {m}`"


def _slot_statuses(ctx) -> tuple[list, list]:
    """(FFN steps, head token-distinguishing steps) of the certificate, wherever they sit."""
    from .structure import HEAD_SLOT_RULES, slots
    ffn, tds, _, _ = slots(ctx)
    ffns = [x for x in ctx.steps.values() if x["rule"] == "FFN-DEF2"]
    tds = [x for x in tds if x["rule"] in HEAD_SLOT_RULES] or tds
    return ffns, tds


@checker("TGT-VERDICT")
def verdict(ctx, s):
    if s["id"] != ctx.order[-1]:
        raise Reject("TGT-VERDICT is the last step")
    data = s.get("data") or {}
    target = data.get("target")
    if target != ctx.spec.target and not _receptive_is_causal(ctx, s, target):
        raise Reject(f"the input declares `target {ctx.spec.target}`, not {target}")
    want = expected_verdict(ctx, s)
    if data.get("verdict") != want or ctx.cert["verdict"] != want:
        raise Reject(f"the premises give {want}")
    if (s["status"] == "proved") != (want in ("UAP", "NOT-UAP")):
        raise Reject(f"a {want} verdict step is not {s['status']}")
    if isinstance(ctx.spec.tokens, int) and (data.get("range") is not None or data.get("below_range") is not None):
        # one length: no range and no lengths below one (a stated range there was read by no check)
        raise Reject(f"a range or lengths below one are stated at the one length n = {ctx.spec.tokens}")
    lay = [p for p in ctx.premises(s) if p["rule"] == "TGT-LAYERS"]
    below = check_lengths_below(ctx, lay[0], data, s) if want == "UAP" and lay else ""
    plain_steps = [p for p in ctx.premises(s) if p["rule"] == "TGT-PLAIN"]
    if want == "UAP" and plain_steps and not isinstance(ctx.spec.tokens, int):
        below = _plain_lengths_below(ctx, plain_steps[0], data)
    if want == "NOT-UAP":
        below = check_not_uap_range(ctx, s, data)
    if want == "UAP" and any(p["rule"] == "SEQ-CAUSAL-FORM" for p in ctx.premises(s)):
        from .rules_layers import check_form_verdict
        below = check_form_verdict(ctx, s, data)
    if want == "UAP" and any(p["rule"] == "SEQ-CAUSAL-CHUNKS" for p in ctx.premises(s)) and \
            not isinstance(ctx.spec.tokens, int):
        from .rules_layers import check_form_verdict
        below = check_form_verdict(ctx, s, data, rule="SEQ-CAUSAL-CHUNKS")
    if want == "UAP" and any(p["rule"] == "SEQ-CAUSAL-SINKS" for p in ctx.premises(s)):
        from .rules_layers import check_sinks_verdict
        below = check_sinks_verdict(ctx, s, data)
    return VERIFIED, ("inference: UAP for the class when FFN-DEF2, every head's token distinguishing step and "
                      "TGT-LAYERS are proved (Lemma V with Theorems 1′ and 2′, §14.3–14.5); NOT-UAP from a proved "
                      "TGT-NOT-CAUSAL or TGT-BUDGET" + below)


def _receptive_is_causal(ctx, s, target) -> bool:
    """`target receptive` on a family whose receptive class is the causal one: the verdict names the causal class when
    its proved TGT-RECEPTIVE premise (checked by its own row) says so (§14.1: R(i) = {1, …, i})."""
    if ctx.spec.target != "receptive" or target != "causal":
        return False
    rec = [p for p in ctx.premises(s) if p["rule"] == "TGT-RECEPTIVE"]
    return len(rec) == 1 and rec[0]["status"] == "proved" and (rec[0].get("data") or {}).get("target") == "causal"


def expected_verdict(ctx, s) -> str:
    from .structure import below_two_dimensions, slots
    prem = ctx.premises(s)
    if any(p["rule"] in ("TGT-NOT-CAUSAL", "TGT-BUDGET") and p["status"] == "proved" for p in prem):
        return "NOT-UAP"
    if any(p["rule"] == "TGT-BUDGET" for p in prem):  # `layers M` not compared with the count: nothing follows
        return "INCONCLUSIVE"
    ffn = [p for p in prem if p["rule"] == "FFN-DEF2"]
    lay = [p for p in prem if p["rule"] in ("TGT-LAYERS", "TGT-PLAIN", "SEQ-CAUSAL-LAYERS", "SEQ-CAUSAL-INTERVALS",
                                            "SEQ-CAUSAL-FORM", "SEQ-CAUSAL-SINKS", "SEQ-CAUSAL-CHUNKS")]
    heads = slots(ctx)[1]
    if len(ffn) == 1 and lay and all(p["status"] == "proved" for p in ffn + lay + heads):
        return "INCONCLUSIVE" if below_two_dimensions(ctx) else "UAP"
    return "INCONCLUSIVE"


@checker("TGT-ALTERNATIVE")
def alternative(ctx, s):
    data = s.get("data") or {}
    prem = ctx.premises(s)
    if s["status"] == "undecided":
        if data.get("verdict") not in (None, "INCONCLUSIVE"):
            raise Reject("an undecided alternative has no verdict")
        return VERIFIED, "an undecided step asserts nothing"
    budgets = [p for p in prem if p["rule"] == "TGT-BUDGET"]
    if s["status"] == "proved" and data.get("verdict") == "NOT-UAP":
        # the family's own class under a budget below its count (§14, TGT-BUDGET, checked by its own row)
        if [p["rule"] for p in prem] != ["TGT-RECEPTIVE", "TGT-LAYERS", "TGT-BUDGET"] or budgets[0]["status"] != "proved":
            raise Reject("a NOT-UAP alternative rests on TGT-RECEPTIVE, TGT-LAYERS and a proved TGT-BUDGET")
        if data.get("target") != (prem[0].get("data") or {}).get("target"):
            raise Reject("its class is not TGT-RECEPTIVE's")
        if data.get("layers") is not None:
            raise Reject("a NOT-UAP alternative states no layer count")
        return VERIFIED, "inference: a proved TGT-BUDGET gives NOT-UAP for the family's own class"
    if s["status"] != "proved" or data.get("verdict") != "UAP":
        raise Reject("a proved alternative here is UAP for the family's own class")
    from .structure import below_two_dimensions
    if below_two_dimensions(ctx):
        raise Reject("the input declares `dim 1`, and Theorem 1's receptive form assumes d ≥ 2 (§14.3): no UAP there")
    rules = [p["rule"] for p in prem]
    if rules not in (["TGT-RECEPTIVE", "TGT-LAYERS"], ["TGT-RECEPTIVE", "TGT-LAYERS", "TGT-BELOW"]):
        raise Reject("its premises are not TGT-RECEPTIVE and TGT-LAYERS (and TGT-BELOW)")
    rec, lay = prem[:2]
    if rec["status"] != "proved" or lay["status"] != "proved":
        raise Reject("a premise is not proved")
    if data.get("target") != (rec.get("data") or {}).get("target"):
        raise Reject("its class is not TGT-RECEPTIVE's")
    if not _same(_value(ctx, s, "layers"), _value(ctx, lay, "layers")) or bool(data.get("least")) != bool(
            (lay.get("data") or {}).get("least")):
        raise Reject("its layer count is not TGT-LAYERS'")
    ffns, tds = _slot_statuses(ctx)
    if not ffns or any(x["status"] != "proved" for x in ffns + tds):
        raise Reject("UAP for the class needs FFN-DEF2 and every head's token distinguishing step proved")
    problem = budget_problem(ctx, _value(ctx, s, "layers"))
    if problem:
        raise Reject(problem)
    below = check_lengths_below(ctx, lay, data, s)
    return VERIFIED, ("inference: TGT-LAYERS proved, FFN-DEF2 and every head's token distinguishing step proved "
                      "give UAP for the family's own class (TGT-VERDICT's rule)" + below)


@checker("SEQ-CAUSAL-CHUNKS")
def causal_chunks(ctx, s):
    """Theorem F169 (§21.11): the verifier's own reading of the chunked layout, its own count from the statement, and
    the brute force over the permutations of the prefix at chunk sizes 1, 2, 3 (verifier/causal_chunks.py)."""
    import sympy

    from . import causal_chunks as chunks
    from .rules_layers import _form_number, _reading
    if s.get("status") != "proved":
        raise Reject("SEQ-CAUSAL-CHUNKS concludes a proved count")
    if ctx.spec.target != "causal":
        raise Reject(f"the input declares `target {ctx.spec.target}`, not causal")
    c = _reading(ctx, "chunks", chunks.read, chunks.NotChunks,
                 lambda exc: Reject(f"the layers are not Theorem F169's chunked layout: {exc}"))
    data = s.get("data") or {}
    if (data.get("layout"), data.get("b"), data.get("least")) != (c.kinds, c.b, True):
        raise Reject(f"the step states the layout {data.get('layout')!r} with b = {data.get('b')!r}, the verifier "
                     f"reads {c.kinds!r} with b = {c.b!r} (and a least count)")
    disagree = chunks.confirm(c)
    if disagree:
        raise Reject(f"the brute force over the prefix's permutations disagrees with Theorem F169: {disagree}")
    n = ctx.spec.tokens
    if isinstance(n, int):
        if not isinstance(c.b, int) or data.get("layers") != c.count(n) or data.get("n") != n:
            raise Reject(f"Theorem F169 gives {c.count(n) if isinstance(c.b, int) else 'no count'} layers at n = {n}")
        return VERIFIED, (f"Theorem F169 at n = {n}: {c.count(n)} layers (layers {c.g1} and {c.g2} the full causal "
                          "ones), the brute force over S_n agreeing at chunk sizes 1, 2, 3")
    b = c.b if isinstance(c.b, int) else sympy.Symbol(c.b, integer=True, positive=True)
    start, mine = chunks.pieces(c, b)
    stated = [tuple(_form_number(ctx, p.get(k), f"a piece's {k}") for k in ("from", "below", "layers"))
              for p in data.get("pieces") or []]
    given = _form_number(ctx, data.get("from"), "the range's start")

    def same(x, y) -> bool:
        return sympy.simplify(sympy.sympify(x, strict=True) - sympy.sympify(y, strict=True)) == 0  # safe: strict

    if data.get("layers") != c.g2 or not same(given, start) or len(stated) != len(mine) or \
            not all(same(x, y) for p, q in zip(stated, mine) for x, y in zip(p, q)):
        raise Reject(f"Theorem F169 gives {c.g2} layers from n ≥ {start} and the pieces {mine}")
    return VERIFIED, (f"Theorem F169: {c.g2} layers from n ≥ {start}, the pieces below recomputed, the brute force "
                      "over S_n agreeing at chunk sizes 1, 2, 3")
