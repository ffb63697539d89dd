"""Pattern steps at symbolic n concluded from a family theorem (docs/theory.md §11.11), re-checked by
the verifier's own table (uapcheck/verifier/families.py): the family re-matched on the re-parsed
pattern, the stated range at least the theorem's, each value the theorem's, and an instance check."""
from __future__ import annotations

from typing import Optional

import sympy

from . import families
from .check import VERIFIED, Reject, Trust
from .trees import decode


def family(ctx) -> Optional[families.Family]:
    if "family" not in ctx.cache:
        ctx.cache["family"] = families.match(ctx.spec)
    return ctx.cache["family"]


def union_family(ctx) -> Optional[families.Family]:
    """Several distinct unbiased heads without a positional encoding: the family theorem of their union
    (connectivity and the diameter are the union's), or None."""
    spec = ctx.spec
    pats = list(dict.fromkeys(h.pattern for h in spec.heads))
    if len(pats) < 2 or spec.positional != "none" or any(h.bias for h in spec.heads):
        return None
    if "union family" not in ctx.cache:
        from dataclasses import replace
        alone = replace(spec, heads=(replace(spec.heads[0], pattern=union_pattern(pats)),))
        ctx.cache["union family"] = families.match(alone)
    return ctx.cache["union family"]


def union_pattern(pats: list):
    """One pattern with the arcs of the heads' union (docs/theory.md §11.13, written here apart from the engine's
    normal form): every head's parts side by side (a union of heads is the union of their parts' arcs), each part
    once; the cyclic offset parts joined into one cyclic set, the leading globals (and `star`) into the largest, the
    non-cyclic `offsets` parts into one set; then each part left out whose arcs the others have at every n, which is
    when the verifier's arc description (verifier/normal_form.py: cyclic offsets, other offsets, leading globals,
    blocks, strides, other parts) is the same without it (`window(1) + blocks(4)` | `window(2)` is `window(2) +
    blocks(4)`, `blocks(5) + strided(5)` | `window(5)` is `window(5) + strided(5)`). The result's description is
    compared with the parts' as written; where it differs (never, by the steps above), the parts as written are
    returned."""
    from .. import spec as S
    from .normal_form import arcs_description
    parts: list = []
    for p in pats:
        for q in _parts(p):
            if q not in parts:
                parts.append(q)
    written = parts[0] if len(parts) == 1 else S.PatternUnion(tuple(parts))
    try:
        want = arcs_description(written)
        out = _joined(parts)
        for q in list(out):
            rest = [o for o in out if o is not q]
            if rest and arcs_description(_one(rest)) == want:
                out = rest
        union = _one(out)
        if arcs_description(union) != want:
            return written
    except TypeError:
        return written
    return union


def _parts(p) -> list:
    from .. import spec as S
    return [r for q in p.parts for r in _parts(q)] if isinstance(p, S.PatternUnion) else [p]


def _one(parts: list):
    from .. import spec as S
    return parts[0] if len(parts) == 1 else S.PatternUnion(tuple(parts))


def _int_size(t) -> bool:
    return isinstance(t, int) and not isinstance(t, bool)


def _offsets_of(q) -> Optional[set[int]]:
    """The offsets j − i of a window or offsets part with integer sizes, or None."""
    from .. import spec as S
    if isinstance(q, S.Window) and isinstance(q.w, int) and not isinstance(q.w, bool) and q.w >= 0:
        return set(range(-q.w, q.w + 1))
    if isinstance(q, S.Offsets) and all(_int_size(t) for t in q.offsets):
        return {int(t) for t in q.offsets}
    return None


def _joined(parts: list) -> list:
    """The parts with the cyclic offset parts (integer sizes) as one cyclic part, `star` and the globals as the
    largest global, the non-cyclic `offsets` parts as one (each a union of arc sets with the same arcs), each joined
    part at the place of the first it replaces; an offset set {−w, …, w} is written `window(w)`, and a non-cyclic one
    also when it lacks 0 (no arc: every position sees itself), also when it is one part (`offsets {−1, 1}` is
    `window(1)`)."""
    from .. import spec as S

    def as_set(values: set[int], cyclic: bool):
        w = max((abs(v) for v in values), default=0)
        if values == set(range(-w, w + 1)):
            return S.Window(w, cyclic)
        return S.Offsets(tuple(sorted(values)), cyclic)

    def joined(kind: str, group: list):
        if kind == "global":
            return S.Global(max(1 if isinstance(q, S.Star) else int(q.g) for q in group))
        sets = [_offsets_of(q) or set() for q in group]
        values = set().union(*sets)
        if kind == "offsets" and isinstance(as_set(values | {0}, False), S.Window):
            values |= {0}  # d = 0 is no arc: every position sees itself
        return as_set(values, kind == "cyclic")

    groups: list[tuple[str, list]] = [
        ("cyclic", [q for q in parts if isinstance(q, (S.Window, S.Offsets)) and q.cyclic and _offsets_of(q) is not None]),
        ("global", [q for q in parts if isinstance(q, S.Star) or isinstance(q, S.Global) and _int_size(q.g)]),
        ("offsets", [q for q in parts if isinstance(q, S.Offsets) and not q.cyclic and _offsets_of(q) is not None]),
    ]
    out = list(parts)
    for kind, group in groups:
        if not group or len(group) == 1 and (kind == "global" or joined(kind, group) == group[0]):
            continue
        first = out.index(group[0])
        out = [q for q in out if q not in group]
        out.insert(first, joined(kind, group))
    return out


def several_heads(ctx, s, rule: str):
    """PAT-CONNECTED or PAT-LAYERS of several distinct heads at symbolic n from their union: its family theorem
    (when the step states its range) or its lemma; None when neither applies (another check runs)."""
    union = union_family(ctx)
    if union is not None and "from" in (s.get("data") or {}):
        return connected(ctx, s, union) if rule == "PAT-CONNECTED" else union_layers(ctx, s, union)
    from . import spanning_bound
    found = union_lemma(ctx)
    if found is not None and not spanning_bound.applies(ctx, s):  # a step stating only D ≤ a bound: its own check
        return union_lemma_step(ctx, s, found, rule)
    return None


def union_lemma(ctx):
    """Several distinct unbiased heads whose union is a pattern of the verifier's lemma table (§18.4: cyclic
    windows, one-sided cyclic offsets, windows, stars): (the union's spec, its lemma), or None."""
    spec = ctx.spec
    pats = list(dict.fromkeys(h.pattern for h in spec.heads))
    if len(pats) < 2 or spec.positional != "none" or any(h.bias for h in spec.heads):
        return None
    if "union lemma" not in ctx.cache:
        from dataclasses import replace
        from . import lemmas
        parts = _parts(union_pattern(pats))  # the heads' parts side by side, those inside the others left out
        union = _as_one_pattern(parts)
        found = None
        if union is not None:
            alone = replace(spec, heads=(replace(spec.heads[0], pattern=union),))
            lemma = lemmas.classify(alone, lemmas.n_symbol(ctx), ctx.symbols)
            if lemma is not None and lemma.diameter is not None and lemma.param is None:
                found = (alone, lemma)
        ctx.cache["union lemma"] = found
    return ctx.cache["union lemma"]


def _as_one_pattern(parts: list):
    """Cyclic offsets and cyclic windows with integer jumps whose union is {±1, …, ±w} (a cyclic window) or
    {1, …, w} / {−w, …, −1} (one-sided offsets): that one pattern; non-cyclic windows, offsets and dilated parts with
    integer sizes whose differences j − i ≠ 0 make {±1, …, ±w}: the non-cyclic window(w) (both have the arcs with
    j − i in that set and both ends in 1..n); else None."""
    from .. import spec as S
    line = _as_window(parts)
    if line is not None:
        return line
    jumps: set = set()
    for q in parts:
        if isinstance(q, S.Window) and q.cyclic and isinstance(q.w, int) and not isinstance(q.w, bool):
            jumps |= set(range(-q.w, q.w + 1))
        elif isinstance(q, S.Offsets) and q.cyclic and all(isinstance(k, int) and not isinstance(k, bool)
                                                            for k in q.offsets):
            jumps |= set(q.offsets)
        else:
            return None
    jumps -= {0}
    w = max((abs(k) for k in jumps), default=0)
    if not w:
        return None
    if jumps == set(range(-w, w + 1)) - {0}:
        return S.Window(w, True)
    if jumps == set(range(1, w + 1)) or jumps == set(range(-w, 0)):
        return S.Offsets(tuple(sorted(jumps)), True)
    return None


def _as_window(parts: list):
    """The non-cyclic window(w) whose arcs are the union of these parts' (non-cyclic windows, offsets and dilated
    parts with integer sizes), or None."""
    from .. import spec as S

    def num(t) -> Optional[int]:
        return t if isinstance(t, int) and not isinstance(t, bool) else None
    diffs: set = set()
    for q in parts:
        w = num(q.w) if isinstance(q, (S.Window, S.Dilated)) else None
        r = num(q.r) if isinstance(q, S.Dilated) else None
        if isinstance(q, S.Window) and not q.cyclic and w is not None and w >= 0:
            diffs |= set(range(-w, w + 1))
        elif isinstance(q, S.Offsets) and not q.cyclic and all(num(o) is not None for o in q.offsets):
            diffs |= set(q.offsets)
        elif isinstance(q, S.Dilated) and w is not None and r is not None and w >= 0 and r >= 1:
            diffs |= {k * r for k in range(-w, w + 1)}
        else:
            return None
    diffs.discard(0)
    w = max(diffs, default=0)
    return S.Window(w, False) if w >= 1 and diffs == set(range(-w, w + 1)) - {0} else None


def union_lemma_step(ctx, s, found, rule: str):
    """PAT-CONNECTED (D is the lemma's) or PAT-LAYERS (D + 1, not least) of several heads whose union is a
    lemma's pattern, with the lemma's brute-force instances on the union."""
    from . import lemmas
    from .trees import decode
    alone, lemma = found
    data = s.get("data") or {}
    d = decode(data.get("diameter"), ctx.symbols)
    if not lemmas._same(d, lemma.diameter):
        raise Reject(f"the diameter {sympy.sstr(d)} is not the union's `{lemma.name}` closed form {sympy.sstr(lemma.diameter)}")
    if rule == "PAT-LAYERS":
        prem = ctx.premises(s)
        m = decode(data.get("layers"), ctx.symbols)
        if len(prem) != 1 or prem[0]["rule"] != "PAT-CONNECTED" or not lemmas._same(m, lemma.diameter + 1) \
                or data.get("least"):
            raise Reject("several heads: the layers are not D + 1 (not least) with the union's D")
    key = ("union lemma instances",)
    if key not in ctx.cache:
        ctx.cache[key] = lemmas.check_instances(alone, lemma, lemmas.n_symbol(ctx), ctx.symbols, "connectivity")
    if ctx.cache[key]:
        raise Reject(f"the union's closed form fails at an instance: {ctx.cache[key]}")
    what = ("D + 1 layers suffice by the view argument (§11.2), not claimed least" if rule == "PAT-LAYERS"
            else f"diameter {sympy.sstr(lemma.diameter)} for n ≥ {lemma.conn_from}")
    return VERIFIED, (f"several heads: the union is the `{lemma.name}` lemma's pattern (docs/theory.md §18.4): {what}; "
                      f"re-checked by brute force at n = {lemma.conn_from}..{lemmas.INSTANCE_MAX_N} on the union")


def _layer_values(ctx, s) -> tuple:
    """A PAT-LAYERS step's (layers, diameter, n), after checking its one premise is the connectivity step."""
    data = s.get("data") or {}
    prem = ctx.premises(s)
    if len(prem) != 1 or prem[0]["rule"] != "PAT-CONNECTED":
        raise Reject("its premise is not the connectivity step")
    return (_value(ctx, data.get("layers"), "the number of layers"), _value(ctx, data.get("diameter"), "the diameter"),
            _n(ctx))


def union_layers(ctx, s, fam: families.Family):
    """Several heads: D + 1 layers, not claimed least, with D the union's (Theorem F39: the least count of
    several heads needs coloured views, not decided at symbolic n). A union stated with a bound on D and no D (F101
    where Theorem F168's base check lies beyond its budget; where it fits, F168 gives D exactly and the union is
    checked as above): the bound + 1, not least, as for one head (the view argument needs only D ≤ the bound)."""
    data = s.get("data") or {}
    if fam.bound:
        return layers(ctx, s, fam)
    m, d, n = _layer_values(ctx, s)
    if not families.same_value(fam, d, n) or not families.same_value(fam, m - 1, n) or data.get("least") \
            or data.get("least classes"):  # a least flag by class is a claim this check does not re-derive
        raise Reject(f"{sympy.sstr(m)} layers (least: {data.get('least')}) is not D + 1 = {sympy.sstr(fam.d(n) + 1)} "
                     f"(not least) with the union's D (Theorem {fam.theorem})")
    low = _range(ctx, s, fam)
    _within_premise(ctx, s, low)
    return VERIFIED, (f"several heads: D = {sympy.sstr(fam.d(n))} is the union's (Theorem {fam.theorem}, n ≥ {low}), and "
                      f"D + 1 layers suffice by the view argument (§11.2); not claimed least; "
                      + _instances(ctx, fam, "connectivity") + " (BFS on the union)")


def _within_premise(ctx, s, low: int) -> None:
    """A layer count rests on its connectivity step: its range may not start below the premise's stated range
    (a count stated from n = 64 on a connectivity stated from n = 65 on claims more than its premise gives)."""
    for prem in ctx.premises(s):
        start = (prem.get("data") or {}).get("from")
        if prem["rule"] == "PAT-CONNECTED" and start is not None:
            value = _value(ctx, start, "the premise's range")
            if value.is_Integer and int(value) > low:
                raise Reject(f"the range n ≥ {low} starts below its connectivity premise's n ≥ {int(value)}")


def _n(ctx) -> sympy.Symbol:
    return ctx.symbols[ctx.spec.tokens]


def _value(ctx, tree, what) -> sympy.Expr:
    if tree is None:
        raise Reject(f"{what} is not given")
    return decode(tree, ctx.symbols)


def _range(ctx, s, fam: families.Family) -> int:
    low = _value(ctx, (s.get("data") or {}).get("from"), "the range (n ≥ from)")
    if not low.is_Integer or int(low) < fam.low:
        raise Reject(f"the range n ≥ {sympy.sstr(low)} starts below Theorem {fam.theorem}'s n ≥ {fam.low}")
    coprime = (s.get("data") or {}).get("coprime to", 1)
    if fam.coprime_to > 1 and coprime != fam.coprime_to:
        raise Reject(f"the range does not ask gcd(n, {fam.coprime_to}) = 1 (Theorem {fam.theorem}: the jumps share "
                     f"the factor {fam.coprime_to}, so other n are not strongly connected)")
    return int(low)


def _instances(ctx, fam: families.Family, what: str) -> str:
    key = ("family instances", what)
    if key not in ctx.cache:
        ctx.cache[key] = families.instance_problem(ctx.spec, fam, what, ctx.cache.setdefault("instance diameters", {}))
    if ctx.cache[key]:
        raise Reject(f"Theorem {fam.theorem} fails at an instance: {ctx.cache[key]}")
    if fam.instances_text:
        return fam.instances_text
    top = families.instance_top(fam)
    if top < fam.low:  # the range starts above the instance limit: say so rather than name an empty range
        return (f"no instance re-checked on the verifier's arcs (the range starts at n = {fam.low}, above the instance "
                f"limit n = {families.MAX_INSTANCE_N})")
    return f"instances n = {fam.low}..{top} re-checked on the verifier's arcs"


def _bounded_at(ctx, s, fam: families.Family, n: int, head: str) -> tuple:
    """At an integer n, a theorem stated with a bound on D and no D (F101 where Theorem F168's base check lies beyond
    its budget; where it fits, F168's exact D is checked as a diameter): PAT-CONNECTED states the bound and no
    diameter, PAT-LAYERS one layer more, not least."""
    data = s.get("data") or {}
    bound = int(fam.d(n))
    if data.get("diameter") is not None or data.get("diameter bound", bound) != bound:
        raise Reject(f"Theorem {fam.theorem} bounds the diameter by {bound} at n = {n}; the step states "
                     f"{data.get('diameter')!r} (bound {data.get('diameter bound')!r})")
    if s["rule"] == "PAT-CONNECTED":
        if "diameter bound" not in data:
            raise Reject("the diameter bound is not given")
        return VERIFIED, f"{head}: strongly connected with D ≤ {bound}; " + _instances(ctx, fam, "connectivity") + \
            " (BFS: D at most the bound)"
    prem = ctx.premises(s)
    if len(prem) != 1 or prem[0]["rule"] != "PAT-CONNECTED":
        raise Reject("its premise is not the connectivity step")
    if data.get("layers") != int(fam.layers_at(n)) or data.get("least") is not False:
        raise Reject(f"Theorem {fam.theorem} gives {int(fam.layers_at(n))} layers (not least) at n = {n}")
    return VERIFIED, (f"{head}: D ≤ {bound}, so {bound + 1} layers suffice by the view argument (§11.2); not claimed "
                      "least; " + _instances(ctx, fam, "layers"))


def _bounded(ctx, s, fam: families.Family) -> sympy.Expr:
    """A theorem stated with an upper bound on D and no D (F101 where Theorem F168's base check lies beyond its budget):
    the step states that bound and no diameter; the bound."""
    data = s.get("data") or {}
    if data.get("diameter") is not None:
        raise Reject(f"Theorem {fam.theorem} bounds the diameter; the step states D itself")
    claimed = _value(ctx, data.get("diameter bound"), "the diameter bound")
    if not families.same_value(fam, claimed, _n(ctx)):
        raise Reject(f"the diameter bound {sympy.sstr(claimed)} is not Theorem {fam.theorem}'s {sympy.sstr(fam.d(_n(ctx)))}")
    return claimed


def connected(ctx, s, fam: families.Family):
    if fam.bound:
        bound = _bounded(ctx, s, fam)
        low = _range(ctx, s, fam)
        return VERIFIED, (f"Theorem {fam.theorem} (docs/theory.md §11.11), matched on the re-parsed pattern: strongly "
                          f"connected with D ≤ {sympy.sstr(bound)} for n ≥ {low}; "
                          + _instances(ctx, fam, "connectivity") + " (BFS: D at most the bound)")
    d = _value(ctx, (s.get("data") or {}).get("diameter"), "the diameter")
    mine = fam.d(_n(ctx))
    if not families.same_value(fam, d, _n(ctx)):
        raise Reject(f"the diameter {sympy.sstr(d)} is not Theorem {fam.theorem}'s {sympy.sstr(mine)}")
    low = _range(ctx, s, fam)
    return VERIFIED, (f"Theorem {fam.theorem} (docs/theory.md §11.11), matched on the re-parsed pattern: D = "
                      f"{sympy.sstr(mine)} for n ≥ {low}; " + _instances(ctx, fam, "connectivity") + " (BFS)")


def layers(ctx, s, fam: families.Family):
    data = s.get("data") or {}
    if fam.bound:
        bound = _bounded(ctx, s, fam)
        prem = ctx.premises(s)
        m = _value(ctx, data.get("layers"), "the number of layers")
        if len(prem) != 1 or prem[0]["rule"] != "PAT-CONNECTED":
            raise Reject("its premise is not the connectivity step")
        if not families.same_value(fam, m, _n(ctx), layers=True) or data.get("least"):
            raise Reject(f"{sympy.sstr(m)} layers (least: {data.get('least')}) is not Theorem {fam.theorem}'s "
                         f"{sympy.sstr(fam.layers_at(_n(ctx)))} (not least)")
        low = _range(ctx, s, fam)
        _within_premise(ctx, s, low)
        return VERIFIED, (f"Theorem {fam.theorem} for n ≥ {low}: D ≤ {sympy.sstr(bound)}, so one layer more suffices by "
                          "the view argument (§11.2); not claimed least; " + _instances(ctx, fam, "layers"))
    m, d, n = _layer_values(ctx, s)
    if (not families.same_value(fam, d, n) or not families.same_value(fam, m, n, layers=True)
            or bool(data.get("least")) != fam.least_at(n)):
        raise Reject(f"{sympy.sstr(m)} layers (least: {data.get('least')}, D = {sympy.sstr(d)}) is not Theorem "
                     f"{fam.theorem}'s {sympy.sstr(fam.layers_at(n))} (least: {fam.least_at(n)}, D = "
                     f"{sympy.sstr(fam.d(n))})")
    want_classes = ({"modulus": fam.least_classes[0], "residues": list(fam.least_classes[1])}
                    if fam.least_classes and isinstance(n, sympy.Symbol) else None)
    if data.get("least classes") != want_classes:
        raise Reject(f"the classes where the count is least, {data.get('least classes')}, are not Theorem "
                     f"{fam.theorem}'s {want_classes}")
    if want_classes is not None:  # re-derived from the verifier's own table: the statement may say least there
        ctx.least_classes[s["id"]] = (int(fam.least_classes[0]), tuple(int(r) for r in fam.least_classes[1]))
    low = _range(ctx, s, fam)
    _within_premise(ctx, s, low)
    if fam.layers_text:
        why = fam.layers_text
    elif not fam.least:
        why = "D + 1 layers suffice by the view argument (§11.2); not claimed least"
    elif fam.witness is not None:
        why = (f"D + 1 = {sympy.sstr(fam.layers_at(n))} layers least: the theorem's view witness (a swap outside G) changes no "
               f"neighbourhood within D − 1 of its position, checked at every instance")
    else:
        why = (f"D = {sympy.sstr(fam.layers_at(n))} layers suffice: no view witness, rooted views decided with "
               "nauty at every instance")
    return VERIFIED, f"Theorem {fam.theorem} for n ≥ {low}: {why}; " + _instances(ctx, fam, "layers")


def group(ctx, s, fam: families.Family):
    data = s.get("data") or {}
    name = data.get("name")
    if fam.name is not None and not (isinstance(name, str) and fam.name(name)):
        raise Reject(f"the group {str(name)[:80]!r} is not Theorem {fam.theorem}'s")
    _check_data(fam, data, None)
    n = _n(ctx)
    if "order cases" in data:
        cases = data["order cases"]
        if not isinstance(cases, list) or sorted(c.get("residue") for c in cases) != list(range(fam.modulus)):
            raise Reject(f"the order is not given for every residue of n mod {fam.modulus}")
        for case in cases:
            claimed = _value(ctx, case.get("order"), "the order")
            if not families.same_order(fam, claimed, n, case["residue"]):
                raise Reject(f"for n ≡ {case['residue']} (mod {fam.modulus}) the order {sympy.sstr(claimed)} is not "
                             f"Theorem {fam.theorem}'s")
            if name in _ONE_GROUP and claimed != _ONE_GROUP[name]:
                # the name of one class's group (F116's "reflection" where b | n) stated for every class
                raise Reject(f"the group is named {name!r} for every n, and its order is {sympy.sstr(claimed)} for "
                             f"n ≡ {case['residue']} (mod {fam.modulus})")
    else:
        claimed = _value(ctx, data.get("order"), "the order")
        # one order for every n: the theorem's on every residue class of n mod its modulus (F116's group is
        # trivial on every class for `dilated(3, 3) + blocks(2) + offsets {5}`, stated as the order 1)
        residues = [None] if fam.modulus == 1 else list(range(fam.modulus))
        if not all(families.same_order(fam, claimed, n, r) for r in residues):
            raise Reject(f"the order {sympy.sstr(claimed)} is not Theorem {fam.theorem}'s")
    low = _range(ctx, s, fam)
    left = _open_classes(ctx, s, fam)
    return VERIFIED, (f"Theorem {fam.theorem} for n ≥ {low}: the stated order is the theorem's closed form"
                      + (f" in every residue class mod {fam.modulus}" if fam.modulus > 1 else "") + left + "; "
                      + _instances(ctx, fam, "group") + " (every permutation, or nauty)")


#: Names of one group of a fixed order: a step naming the group so for every n states that order in every class.
_ONE_GROUP = {"trivial": 1, "reflection": 2, "the reflection": 2, "the reflection i ↦ n + 1 − i": 2}


def _check_data(fam: families.Family, data: dict, n: Optional[int]) -> None:
    """The theorem's own check of the step's data at an integer n or (None) a symbolic one (F117: the group's words
    by class, the periodic symmetries and the certificate's radius)."""
    problem = fam.data_check(data, n) if fam.data_check is not None else None
    if problem:
        raise Reject(problem)


def _open_classes(ctx, s, fam: families.Family) -> str:
    """A theorem that states no group on some classes (F26, w ≥ 2): the step must name exactly those as open (its
    data's `open classes`), and a SYM-UNDECIDED step must state them (the verdict's range is then re-derived to
    exclude them, by_class.side_classes); words for the reason, "" for a theorem without open classes."""
    stated = (s.get("data") or {}).get("open classes")
    if not fam.group_open:
        if stated:
            raise Reject(f"Theorem {fam.theorem} states the group on every class: none is open")
        return ""
    want = {"modulus": fam.modulus, "residues": list(fam.group_open)}
    if stated != want:
        raise Reject(f"Theorem {fam.theorem} states no group for n mod {fam.modulus} in {list(fam.group_open)}: the "
                     "step must leave exactly those open")
    if not any(x["rule"] == "SYM-UNDECIDED" and (x.get("data") or {}).get("classes") == want
               for x in ctx.steps.values()):
        raise Reject(f"no SYM-UNDECIDED step states the classes n mod {fam.modulus} in {list(fam.group_open)}")
    return (f", except on n mod {fam.modulus} ∈ {list(fam.group_open)}, where the theorem states no group and a "
            "SYM-UNDECIDED step leaves it open")


def at_length(ctx, n: int, d: int, m: int) -> Optional[str]:
    """Above the arc limit: D layers claimed least at an integer n, concluded from a family theorem of the
    verifier's table that proves D layers without a witness (F1, F9) when n is in its range and D is its
    diameter at n; None otherwise."""
    fam = family(ctx)
    if fam is None or not fam.least or fam.witness is not None or n < fam.low:
        return None
    if int(fam.d(n)) != d or int(fam.layers_at(n)) != m or m != d:
        return None
    return (f"Theorem {fam.theorem} (docs/theory.md §11.11) at n = {n} ≥ {fam.low}: D = {d} layers suffice (no view "
            f"witness); " + _instances(ctx, fam, "layers"))


def _at_symbolic_n(name: str, n: int) -> str:
    """A group's name at an integer n written as the theorem writes it at symbolic n: the last position
    n and the size n − 1 by name ("S_1048575 on {2, …, 1048576}" → "S_(n − 1) on {2, …, n}")."""
    return name.replace(f"S_{n - 1} on", "S_(n − 1) on").replace(f", …, {n}}}", ", …, n}")


def _check_quoted_witness(ctx, s, fam: families.Family, n: int) -> None:
    """A view witness the step quotes at an integer n is the theorem's own (F53: position 1 and its swap;
    F2, F4, F10: the swap the theorem names, at its position). For a family that names no witness of its own the
    quoted one was left unread (a forged witness passed as part of a verified step): it is now checked as a view
    witness on the verifier's own arcs (D layers do not suffice with it) where they are built, and named not
    certified above that length (the theorem's own argument, `layers_check`, stands for the count)."""
    wit = (s.get("data") or {}).get("view witness")
    if wit is None:
        return
    theirs = fam.quoted_witness or fam.witness or fam.class_witness
    if theirs is None:
        from .rules_graph import LargeN, _concrete, _quoted_witness, check_view_witness
        i, perm = _quoted_witness(s, s.get("data") or {}, n)
        try:
            _, heads = _concrete(ctx)
        except LargeN:
            # the count rests on the theorem's own argument (`layers_check`); the quoted witness is extra data the
            # verifier cannot check without the arcs, so it is named on the not-certified line (F100 at 1,048,576
            # quotes the swap its proof uses: rejecting it rejected an honest certificate)
            ctx.unbound.append(f"{s['id']} data.view witness")
            return
        check_view_witness(ctx, heads, n, int(fam.d(n)), i, perm)
        return
    named = theirs(n)
    if named is None:  # F25: D layers suffice in n's class, so no witness exists to quote
        raise Reject(f"Theorem {fam.theorem} gives D layers in n's class: the step quotes a view witness")
    i, perm = named
    if not isinstance(wit, dict) or wit.get("position") != i or wit.get("permutation") != perm:
        raise Reject(f"the view witness is not Theorem {fam.theorem}'s (position {i}, "
                     f"{[k for k in range(1, n + 1) if perm[k - 1] != k]} exchanged)")


def several_heads_at(ctx, s) -> Optional[tuple]:
    """PAT-CONNECTED of several distinct heads at an integer n (Theorem F125 (c)): the verifier's own entry for the
    union of their arcs, n ≥ its range, the stated diameter its own at n, and its instance check; None when the
    union has no entry with an exact D (another check applies)."""
    from .lemmas import _stated
    n = ctx.spec.tokens
    if s["rule"] != "PAT-CONNECTED" or not isinstance(n, int):
        return None
    union = union_family(ctx)
    if union is None or union.bound or union.coprime_to > 1 or n < union.low:
        return None
    want = int(union.d(n))
    stated = _stated(s, "diameter")
    if not stated:
        return None  # a bound only: another check applies
    if any(v != want for v in stated):
        raise Reject(f"the diameter {stated} is not Theorem {union.theorem}'s {want} for the union of the heads")
    return VERIFIED, (f"Theorem {union.theorem} (docs/theory.md §11.11) for the union of the heads' arcs at n = {n} ≥ "
                      f"{union.low} (Theorem F125 (c)), matched on the re-parsed patterns: D = {want}; "
                      + _instances(ctx, union, "connectivity") + " (BFS)")


def concrete_step(ctx, s) -> Optional[tuple]:
    """PAT-CONNECTED, PAT-LAYERS or SYM-AUT concluded from a family theorem at an integer n in its range
    (docs/theory.md §11.11: real sizes are decided without a token graph): the verifier's own table entry
    for the re-parsed pattern, n ≥ its range, every stated value its own, and its instance check. None
    when the step is not such a step (another check applies)."""
    from .lemmas import _stated
    n = ctx.spec.tokens
    if (s.get("certificate") or {}).get("kind") != "family theorem" or not isinstance(n, int):
        return None
    fam = family(ctx)
    if fam is None:
        return None
    if n < fam.low:
        raise Reject(f"n = {n} is below the range n ≥ {fam.low} of Theorem {fam.theorem}")
    head = f"Theorem {fam.theorem} (docs/theory.md §11.11) at n = {n} ≥ {fam.low}, matched on the re-parsed pattern"
    if fam.bound and s["rule"] in ("PAT-CONNECTED", "PAT-LAYERS"):
        return _bounded_at(ctx, s, fam, n, head)
    if s["rule"] == "PAT-CONNECTED":
        want = int(fam.d(n))
        stated = _stated(s, "diameter")
        if not stated or any(v != want for v in stated):
            raise Reject(f"the diameter {stated} is not Theorem {fam.theorem}'s {want}")
        return VERIFIED, f"{head}: D = {want}; " + _instances(ctx, fam, "connectivity") + " (BFS)"
    if s["rule"] == "PAT-LAYERS":
        prem = ctx.premises(s)
        if len(prem) != 1 or prem[0]["rule"] != "PAT-CONNECTED":
            raise Reject("its premise is not the connectivity step")
        layers, least = _stated(s, "layers"), _stated(s, "least")
        d, m = int(fam.d(n)), int(fam.layers_at(n))
        if any(v != d for v in _stated(s, "diameter")) or not layers or \
                any(v != m for v in layers) or not least or any(v is not fam.least_at(n) for v in least):
            raise Reject(f"Theorem {fam.theorem} gives D = {d} and {m} layers (least: {fam.least_at(n)})")
        _check_quoted_witness(ctx, s, fam, n)
        why = f", {fam.length_text}" if fam.length_text else ""
        return VERIFIED, f"{head}: {m} layers (least: {fam.least_at(n)}){why}; " + _instances(ctx, fam, "layers")
    if s["rule"] == "SYM-AUT":
        name = (s.get("data") or {}).get("name")
        if fam.name is not None and not (isinstance(name, str) and (fam.name(name) or fam.name(_at_symbolic_n(name, n)))):
            raise Reject(f"the group {str(name)[:80]!r} is not Theorem {fam.theorem}'s")
        _check_data(fam, s.get("data") or {}, n)
        stated = _stated(s, "order")
        if stated and all(isinstance(v, str) for v in stated):
            # (n − 1)! at n = 1,048,576 and the like: the certificate states the order only as text, which
            # the verifier does not parse, and the exact integer has millions of digits
            raise Trust(f"Theorem {fam.theorem}'s group by name at n = {n}; its order is stated only as text "
                        "(too large to restate exactly), so it is not re-checked")
        if not stated or not all(isinstance(v, int) and not isinstance(v, bool) for v in stated):
            return None  # an order written out as a long decimal or a tree: not this check's
        want = int(fam.order(n))
        if any(v != want for v in stated):
            raise Reject(f"the order stated is not Theorem {fam.theorem}'s at n = {n}")
        return VERIFIED, f"{head}: the stated order is the theorem's; " + _instances(ctx, fam, "group")
    return None

