"""PAT-BUDGET-WITNESS (docs/theory.md §11.12): a `layers M` budget that a view witness defeats, re-checked
from the re-parsed heads. Row swap (dense heads, one layer): every head's label of the keys a and b in row
i, recomputed here (the bias classes, T5's buckets in integer arithmetic, the fixed term's exact values),
agrees, and one head with k(0, 0) > 0 labels them differently in a row v ∉ {a, b}. View witness (a
pattern, M = D): σ ∉ Aut, and every position whose neighbourhood σ changes is at distance ≥ M from i,
checked on the verifier's own arcs."""
from __future__ import annotations

import sympy

from .. import spec as S
from . import kernels, patterns
from .check import VERIFIED, Reject, Trust, checker

I_POS = sympy.Symbol("i·pos", integer=True, positive=True)
J_POS = sympy.Symbol("j·pos", integer=True, positive=True)


def _class(kind, n: int, i: int, u: int):
    d = u - i
    if isinstance(kind, tuple):  # T5's buckets (B, D): the bucket of the offset, exactly (§16.5)
        return ("bucket", t5_bucket(d, *kind))
    table = {"free": (i, u), "toeplitz": d, "circulant": d % n, "symmetric toeplitz": abs(d),
             "symmetric circulant": min(d % n, -d % n)}
    if kind not in table:
        raise Reject(f"unknown bias kind {kind}")
    return table[kind]


def t5_bucket(m: int, buckets: int, max_distance: int) -> int:
    """T5's bidirectional bucket of the offset m = j − i, in integer arithmetic: half the buckets per
    direction; |m| < B/4 exact; beyond, B/4 + ⌊log(|m|/(B/4)) / log(D/(B/4)) · B/4⌋ clipped at B/2 − 1, the
    floor decided by comparing powers (k ≤ x ⇔ (|m|/e)^s ≥ (D/e)^k, e = B/4, s = B/2 − e)."""
    half = buckets // 2
    base = half if m > 0 else 0
    d, exact = abs(m), half // 2
    if d < exact:
        return base + d
    span = half - exact
    k = 0
    while k < span and d ** span * exact ** (k + 1) >= max_distance ** (k + 1) * exact ** span:
        k += 1
    return base + min(exact + k, half - 1)


def _fixed_value(spec: S.Spec, pos: S.PositionTerm, i: int, u: int) -> sympy.Expr:
    env: dict = dict(kernels.param_symbols(spec))
    env["pi"] = sympy.pi
    env[pos.names[0]], env[pos.names[1]] = sympy.Integer(i), sympy.Integer(u)
    if pos.expr is None:
        raise Reject("the position term has no formula")
    try:
        value = kernels.evaluate(pos.expr, env)
    except (kernels.OutOfScope, KeyError, TypeError, ValueError) as exc:
        raise Reject(f"the position formula is not evaluated at ({i}, {u}): {exc}") from None
    if isinstance(value, tuple):
        raise Reject("the position formula is not a scalar")
    return value


def _label(spec: S.Spec, head: S.Head, n: int, i: int, u: int):
    """λ(i, u): what the head's weights in row i see of the key's position (None: no label, plain)."""
    pos = head.position
    if head.projection is not None or head.nystrom or not isinstance(head.pattern, S.Full):
        raise Reject("a head whose weights see more than a position label (projections, landmarks, a pattern)")
    if pos is None:
        return None if head.bias is None else ("class", _class(head.bias, n, i, u))
    if head.bias is not None:
        raise Reject("a head with both a bias and a position term")
    if pos.kind == "buckets":
        return ("bucket", t5_bucket(u - i, pos.buckets, pos.max_distance))
    if pos.kind in ("bias", "reweight"):
        return ("value", _fixed_value(spec, pos, i, u))
    raise Reject("RoPE's score depends on the signed offset: no label")


def _same(x, y) -> bool:
    if x is None or y is None:
        return x is None and y is None
    if x[0] == "value":
        return sympy.simplify(x[1] - y[1]) == 0
    return x == y


def _different(spec: S.Spec, head: S.Head, x, y) -> bool:
    """Different position-only weights at W_Q = W_K = 0: different classes or buckets, or a fixed bias whose
    two values differ for every admissible parameter."""
    if x is None or head.heads is not None or (head.differential or head.sink is not None):
        return False
    if x[0] == "value":
        if head.position is None or head.position.kind != "bias":
            return False
        diff = sympy.simplify(x[1] - y[1])
        return bool(diff.is_nonzero is True or (diff.is_number and diff.is_zero is False))
    return x != y


def _k00_positive(spec: S.Spec, head: S.Head) -> sympy.Expr:
    try:
        k00 = sympy.simplify(kernels.kernel_value(spec, head, (sympy.Integer(0),), (sympy.Integer(0),)))
    except (kernels.OutOfScope, TypeError, ValueError, ZeroDivisionError) as exc:
        raise Trust(f"k(0, 0) is not re-evaluated here ({exc})") from None
    if k00.is_positive is not True:
        raise Reject(f"k(0, 0) = {sympy.sstr(k00)} is not shown positive")
    return k00


def _int(v, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise Reject(f"{what} is not an integer")
    return v


#: Symbolic n: the witness sits on positions ≤ 4, whose labels compare alike for every n ≥ 7 (no label may
#: depend on n; min(|d|, n − |d|) = |d| for |d| ≤ 3 once n ≥ 6), so n = low, …, 7 covers every n ≥ low.
SYMBOLIC_ROWS, STABLE_FROM = 4, 7


def _row_swap(ctx, s, data: dict):
    n = ctx.spec.tokens
    if not isinstance(n, int):
        low = data.get("low")
        if not isinstance(low, int) or low < SYMBOLIC_ROWS:
            raise Reject(f"a symbolic n needs the range n ≥ low ≥ {SYMBOLIC_ROWS}")
        if s["evidence"].get("range") != f"{n} ≥ {low}":
            raise Reject("the range is not the one the derivation printed")
        reasons = [_row_swap_at(ctx, s, data, m, SYMBOLIC_ROWS) for m in range(low, STABLE_FROM + 1)]
        return VERIFIED, reasons[0][1] + f"; at every n from {low} to {STABLE_FROM}, hence for every n ≥ {low}"
    return _row_swap_at(ctx, s, data, n, n)


def _row_swap_at(ctx, s, data: dict, n: int, top: int):
    spec = ctx.spec
    if spec.layers != 1 or data.get("budget") != 1:
        raise Reject("a row swap defeats a budget of one layer only")
    if spec.positional != "none":
        raise Reject("an absolute encoding moves with the tokens: a swap changes the states")
    if any(not isinstance(h.pattern, S.Full) for h in spec.heads):
        raise Reject("a row swap is for dense heads")
    i, v = _int(data.get("position"), "the position"), _int(data.get("row"), "the row")
    swap = data.get("swap")
    if not (isinstance(swap, list) and len(swap) == 2):
        raise Reject("the swap is not a pair")
    a, b = (_int(x, "a swapped position") for x in swap)
    if not all(1 <= p <= top for p in (i, a, b, v)) or len({i, a, b}) != 3 or v in (a, b):
        raise Reject(f"the positions are not i, a, b distinct in 1..{top} with v ∉ {{a, b}}")
    printed = s["evidence"].get("view witness") or {}
    if printed.get("position") != i or printed.get("swap") != [a, b]:
        raise Reject("the witness is not the one the derivation printed")
    for k, head in enumerate(spec.heads):
        if not _same(_label(spec, head, n, i, a), _label(spec, head, n, i, b)):
            raise Reject(f"head {k + 1}: keys {a} and {b} carry different labels in row {i}")
    h = _int(data.get("breaker"), "the breaking head")
    if not 0 <= h < len(spec.heads):
        raise Reject("no such head")
    head = spec.heads[h]
    if not _different(spec, head, _label(spec, head, n, v, a), _label(spec, head, n, v, b)):
        raise Reject(f"head {h + 1} does not tell keys {a} and {b} apart in row {v}")
    k00 = _k00_positive(spec, head)
    return VERIFIED, (f"every head labels keys {a} and {b} alike in row {i} (recomputed), so one layer gives X and "
                      f"({a} {b})X the same output at {i}; head {h + 1} labels them differently in row {v} with "
                      f"k(0, 0) = {sympy.sstr(k00)} > 0, so ({a} {b}) is not in G")


def _label_kinds(ctx, n: int) -> list:
    """Per head: None (position-blind), its trainable bias kind, or for a fixed bias on a normalised head with
    k(0, 0) > 0 the kind whose classes its offset function has (re-derived: injective → `toeplitz`, even and
    injective on |m| → `symmetric toeplitz`); anything else is refused."""
    from .rules_positions import effective_bias
    kinds = []
    for head in ctx.spec.heads:
        pos = head.position
        if pos is None:
            kinds.append(head.bias)
            continue
        if pos.kind == "buckets" and head.bias is None and head.heads is None and not (head.differential or head.sink is not None):
            kinds.append(effective_bias(ctx, head, n))  # T5's buckets, recomputed here (or `toeplitz`), §16.5
            continue
        if pos.kind != "bias" or head.bias is not None or not head.normalized or head.heads is not None \
                or (head.differential or head.sink is not None):
            raise Reject("a labelled witness for a position term other than a fixed bias on a normalised head")
        _k00_positive(ctx.spec, head)
        kinds.append(effective_bias(ctx, head, n))
    return kinds


def _labelled_bad(spec: S.Spec, heads, n: int, perm: list, kinds: list) -> set:
    """Positions v where, in some head, σ does not carry {(class(v, u), u) : u ∈ N(v) ∪ {v}} onto σ(v)'s
    (a position-blind head: the neighbourhood alone)."""
    bad: set = set()
    for kind, nb in zip(kinds, patterns.in_neighbourhoods(heads, n)):
        for v in range(1, n + 1):
            sv = perm[v - 1]
            if frozenset(perm[u - 1] for u in nb[v]) != nb[sv]:
                bad.add(v)
            elif kind is not None and any(_class(kind, n, sv, perm[u - 1]) != _class(kind, n, v, u) for u in nb[v]):
                bad.add(v)
    return bad


def _view(ctx, s, data: dict, labelled: bool = False):
    from .rules_graph import LargeN, SymbolicN, _concrete, _in_family_group
    spec = ctx.spec
    if spec.positional != "none" or (not labelled and any(h.bias or h.position is not None for h in spec.heads)):
        raise Reject("the view lemma used needs no encoding, and (unlabelled) heads without bias or position term")
    try:
        n, heads = _concrete(ctx)
    except SymbolicN:
        raise Reject("a view witness is stated at a concrete n") from None
    except LargeN:
        raise Trust("n above the verifier's arc limit: the view witness is not re-checked here") from None
    d = _int(data.get("depth"), "the depth")
    if spec.layers != d or data.get("budget") != d:
        raise Reject("the depth is not the budget")
    i = _int(data.get("position"), "the position")
    perm = data.get("permutation")
    if not isinstance(perm, list) or not patterns.is_permutation(perm, n) or not 1 <= i <= n:
        raise Reject("the witness is not a permutation of 1..n with a position")
    if labelled:
        kinds = _label_kinds(ctx, n)
        if patterns.preserves(perm, patterns.labels_at(spec, heads, n, kinds), spec.positional):
            raise Reject("the witness keeps every labelled arc: it is a symmetry of the family")
        bad = _labelled_bad(spec, heads, n, perm, kinds)
    else:
        if _in_family_group(ctx, heads, perm):
            raise Reject("the witness is a symmetry of the family: it shows nothing")
        bad = patterns.view_bad_positions(perm, heads, n)
    outs = patterns.union_out(heads, n)
    near = []
    for v in sorted(bad):
        dist = patterns.bfs(outs, v)[i]
        if dist is not None and dist <= d - 1:
            near.append(v)
    if near:
        raise Reject(f"position {near[0]}, whose neighbourhood σ changes, is within {d - 1} of {i}")
    what = "labelled view witness (classes recomputed)" if labelled else "view witness"
    return VERIFIED, (f"{what} re-checked on the arcs: σ is not a symmetry and every position whose "
                      f"neighbourhood it changes is at distance ≥ {d} from {i}: {d} layers give X and σX the same "
                      f"output at {i}")


@checker("PAT-BUDGET-WITNESS")
def budget_witness(ctx, s):
    if s["status"] != "proved":
        raise Reject("PAT-BUDGET-WITNESS only concludes `proved`")
    if not _equivariant_class(ctx):
        raise Reject("the witness defeats G-equivariant targets; the input declares another class")
    data = s.get("data") or {}
    route = data.get("route")
    if route == "row swap":
        return _row_swap(ctx, s, data)
    if route in ("view witness", "labelled view witness"):
        return _view(ctx, s, data, labelled=route == "labelled view witness")
    raise Reject(f"unknown route {route!r}")


@checker("PAT-BUDGET-CLASS")
def budget_by_class(ctx, s):
    """A `layers M` budget below the count on some residue classes of n only (docs/theory.md §12): from the
    premise PAT-LAYERS step's count m and diameter D (its data's trees, reduced exactly on each stated class),
    M < D there, or M < m with the count least."""
    from .by_class import on_class
    from .trees import TreeError, decode
    if s["status"] != "proved":
        raise Reject("PAT-BUDGET-CLASS only concludes `proved`")
    if not _equivariant_class(ctx):
        raise Reject("the budget argument is for G-equivariant targets; the input declares another class")
    prem = ctx.premises(s)
    if len(prem) != 1 or prem[0]["rule"] != "PAT-LAYERS" or prem[0]["status"] != "proved":
        raise Reject("its premise is the proved PAT-LAYERS step")
    budget = ctx.spec.layers
    if not isinstance(budget, int) or (s.get("data") or {}).get("budget") != budget:
        raise Reject("the budget is not the input's `layers`")
    data = prem[0].get("data") or {}
    cls = (s.get("data") or {}).get("classes") or {}
    n = ctx.symbols.get(ctx.spec.tokens) if isinstance(ctx.spec.tokens, str) else None
    try:
        layers, diameter = decode(data.get("layers"), ctx.symbols), decode(data.get("diameter"), ctx.symbols)
        modulus, residues = int(cls["modulus"]), [int(r) for r in cls["residues"]]
    except (TreeError, KeyError, TypeError, ValueError) as exc:
        raise Reject(f"the count or the classes: {exc}") from None
    if n is None or modulus < 1 or not residues or any(not 0 <= r < modulus for r in residues):
        raise Reject("the classes are not residues of a symbolic n")
    least = data.get("least") is True
    least_on = _least_classes(ctx, data)
    start = _range_start(ctx, s, data, n)
    for r in residues:
        ms, ds = on_class(layers, n, modulus, r), on_class(diameter, n, modulus, r)
        if ms is None or ds is None:
            raise Reject(f"the count on n ≡ {r} (mod {modulus}) is not a function of the class")
        for m, d in zip(ms.values(), ds.values()):
            if not (m.is_Integer and d.is_Integer):
                raise Reject(f"the count on n ≡ {r} (mod {modulus}) is not one number")
            least_r = least or bool(least_on and modulus % least_on[0] == 0 and r % least_on[0] in least_on[1])
            if not (budget < d or (least_r and budget < m)):
                raise Reject(f"on n ≡ {r} (mod {modulus}) the budget {budget} is below neither D = {d} nor a least "
                             f"count ({m})")
    where = "on the whole range" if modulus == 1 else f"reduced exactly on each class n ≡ r (mod {modulus}), r ∈ " \
        f"{residues}"
    return VERIFIED, (f"the PAT-LAYERS count and diameter, {where}: `layers {budget}` is below D there, or below the "
                      "count that step proves least (receptive field, or its view witness at the smaller depth)"
                      + (f"; the stated range holds at no n below the count's n ≥ {start}" if start else ""))


def _least_classes(ctx, layer_data: dict) -> tuple:
    """(L, residues) where the PAT-LAYERS count is least on the classes n mod L only (its data's `least classes`,
    a least flag by class, Theorems F67 and F110), or (): restated from the verifier's own family theorem of the
    pattern (or of the heads' union), so that a count is read as least on no class the verifier's table does not
    name."""
    stated = layer_data.get("least classes")
    if stated is None:
        return ()
    from . import rules_families
    fam = rules_families.family(ctx) or rules_families.union_family(ctx)
    classes = fam.least_classes if fam is not None else ()
    mine = {"modulus": classes[0], "residues": list(classes[1])} if classes else None
    if not classes or stated != mine:
        raise Reject(f"the classes where the count is least, {stated}, are not those of the verifier's family "
                     f"theorem ({mine})")
    return int(classes[0]), tuple(int(r) for r in classes[1])


def _range_start(ctx, s, layer_data: dict, n) -> "int | None":
    """The PAT-LAYERS step's range n ≥ `from`, when it states one: the budget step's range (its data's condition
    tree) must hold at no n below it, so no NOT-UAP is stated where the count is not proved. None without one."""
    import sympy
    from .trees import TreeError, decode_condition
    start = layer_data.get("from")
    if not isinstance(start, int) or isinstance(start, bool):
        return None
    tree = (s.get("data") or {}).get("range")
    if tree is None:
        raise Reject(f"the count is proved for n ≥ {start}, and the step states no range")
    try:
        cond = decode_condition(tree, ctx.symbols)
    except (TreeError, KeyError, TypeError) as exc:
        raise Reject(f"the range: {exc}") from None
    for value in range(1, start):
        if cond.xreplace({n: sympy.Integer(value)}) is not sympy.false:
            raise Reject(f"the stated range holds (or is not decided) at n = {value}, below the count's n ≥ {start}")
    return start


@checker("PAT-BUDGET-N")
def budget_beyond(ctx, s):
    """A `layers M` budget below a diameter closed form that grows with n (docs/theory.md §12): the premise
    PAT-CONNECTED's diameter tree (checked by its own step, with its range n ≥ `from`), reduced exactly on each
    class n = L·k + r by the verifier's own `on_class`, is a·k + b with a ≥ 0 on every class and exceeds M from
    some k on; so D(n) > M for every n ≥ N (N the first length from which every class is beyond M). The stated
    range must hold at no length below max(N, from), and the stated modulus is L. A step without a range (the
    sampled limit of a closed form with parameters) is trusted."""
    from .by_class import on_class
    from .trees import TreeError, decode, decode_condition
    if s["status"] != "proved":
        raise Reject("PAT-BUDGET-N only concludes `proved`")
    if not _equivariant_class(ctx):
        raise Reject("the budget argument is for G-equivariant targets; the input declares another class")
    data = s.get("data") or {}
    budget = ctx.spec.layers
    if not isinstance(budget, int) or isinstance(budget, bool) or data.get("budget") != budget:
        raise Reject("the budget is not the input's `layers`")
    if data.get("range") is None:
        raise Trust("no range: the diameter's limit as n grows (a closed form with parameters) is not re-checked")
    prem = ctx.premises(s)
    if len(prem) != 1 or prem[0]["rule"] != "PAT-CONNECTED" or prem[0]["status"] != "proved":
        raise Reject("its premise is the proved PAT-CONNECTED step")
    pdata = prem[0].get("data") or {}
    if not isinstance(ctx.spec.tokens, str) or "diameter bound" in pdata:
        raise Reject("the diameter is an exact closed form at a symbolic n")
    n = ctx.symbols[ctx.spec.tokens]
    try:
        diameter = decode(pdata.get("diameter"), ctx.symbols)
        where = decode_condition(data["range"], ctx.symbols)
        start = decode(pdata["from"], ctx.symbols) if pdata.get("from") is not None else sympy.Integer(1)
    except (TreeError, KeyError, TypeError) as exc:
        raise Reject(f"the diameter, the range or the premise's start: {exc}") from None
    if not isinstance(start, sympy.Integer) or diameter.free_symbols - {n}:
        raise Reject("the diameter's closed form has parameters, or its range no integer start")
    lines = on_class(diameter, n, 1, 0)
    if lines is None:
        raise Reject("the diameter is not exact on the residue classes of n (floors of linear functions of n)")
    big = len(lines)
    if data.get("modulus") != big:
        raise Reject(f"the stated modulus {data.get('modulus')} is not {big}, the one the closed form's floors need")
    beyond = _first_beyond(lines, budget)
    low = max(beyond, int(start))
    for v in range(1, low):
        if where.xreplace({n: sympy.Integer(v)}) is not sympy.false:
            raise Reject(f"the range {where} holds (or is not decided) at n = {v}, below n = {low} (D > {budget} "
                         f"from n = {beyond} on; the diameter's closed form from n = {start} on)")
    return VERIFIED, (f"the PAT-CONNECTED diameter, reduced exactly on each class n = {big}k + r, is linear and "
                      f"not decreasing in k, and exceeds `layers {budget}` from n = {beyond} on; the range {where} "
                      f"holds at no length below n = {low}")


def _first_beyond(lines: dict, budget: int) -> int:
    """The first length N from which the diameter, a·k + b on each class n = L·k + r (`lines`: r → that
    expression), exceeds the budget on every class: each class from k_r = ⌊(M − b)/a⌋ + 1 on (0 when b > M), and N
    one past the largest L·k_r + r − L (docs/theory.md §12, Theorem F130). Rejects a class that is not linear in k,
    decreases, or stays at or below M."""
    big = len(lines)
    lasts = []
    k = next(iter(set().union(*(e.free_symbols for e in lines.values()))), None)
    for r, e in sorted(lines.items()):
        a, b = (e.coeff(k, 1), e.coeff(k, 0)) if k is not None else (sympy.Integer(0), e)
        if (k is not None and sympy.expand(e - a * k - b) != 0) or not (a.is_Rational and b.is_Rational):
            raise Reject(f"on n = {big}k + {r} the diameter {e} is not linear in k")
        if a < 0 or (a == 0 and b <= budget):
            raise Reject(f"on n = {big}k + {r} the diameter {e} does not stay above the budget {budget}")
        first = 0 if b > budget else int(sympy.floor((budget - b) / a)) + 1
        lasts.append(big * first + r - big)
    return max(1, max(lasts) + 1)


def _equivariant_class(ctx) -> bool:
    """The step's G-equivariant argument stands: `target equivariant`, a declared class's verdict beside it, or
    `target receptive` on a strongly connected family (a proved PAT-CONNECTED step: every receptive field is 1..n and the class is the G-equivariant maps, §14.1
    case 1), where the budget arguments hold as they are."""
    if ctx.spec.target == "equivariant":
        return True
    if ctx.steps[ctx.order[-1]]["rule"] == "TGT-VERDICT":
        # under a declared class's own verdict the step states the obstruction for G-equivariant targets only (true
        # whatever is declared); that verdict reads TGT-NOT-CAUSAL and TGT-BUDGET, never this step
        return True
    dense = all(h.pattern is None or isinstance(h.pattern, S.Full) for h in ctx.spec.heads)  # every field is 1..n
    return ctx.spec.target == "receptive" and (dense or any(st["rule"] == "PAT-CONNECTED" and st["status"] == "proved"
                                                            for st in ctx.steps.values()))
