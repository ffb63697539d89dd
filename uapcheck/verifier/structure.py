"""The shape of a derivation: which head each step belongs to, the verdict recomputed from the
premises' statuses (Theorem 1's rule, as VERDICT-T1 applies it), and the summary fields (verdict,
group, layers) matched against the steps that establish them."""
from __future__ import annotations

import math
from typing import Optional

import sympy

from .trees import TreeError, decode


class StructureError(Exception):
    pass


OBSTRUCTIONS = ("PAT-DISCONNECTED", "PAT-BUDGET", "PAT-BUDGET-N", "PAT-BUDGET-WITNESS", "PAT-BUDGET-CLASS", "SEQ-DISCONNECTED",
                "SEQ-DEPTH", "SEQ-GLOBALS-DEPTH", "CONV-DISCONNECTED")
#: the per-layer windows' count rules, whose `D_Φ` None states the obstruction of a finite list that never connects
WINDOW_COUNTS = ("SEQ-WINDOWS-LAYERS", "SEQ-CYCLIC-LAYERS")
GROUP_RULES = ("SYM-DENSE", "SYM-AUT", "SYM-UNDECIDED", "SEQ-GROUP", "SEQ-ALTERNATION-GROUP", "SEQ-WINDOWS-GROUP",
               "SEQ-GLOBALS-GROUP", "SEQ-CYCLIC-GROUP", "CONV-GROUP")


HEAD_SLOT_RULES = ("TD-KERNEL", "TD-BIAS", "TD-LINFORMER", "PE-LIFT", "WP-POSITIVE", "LIM-UNSUPPORTED",
                   "LIM-NYSTROM-USE", "TD-FIXEDBIAS", "TD-ROTARY", "TD-BUCKETS", "HEADS-SHARED", "HEADS-DIFF", "HEADS-SINK",
                   "TD-RIDGE", "TD-RADIAL", "TD-WITNESS", "HEADS-ZERO-VALUE", "TD-MEANS", "TD-COMPLEX")


def root(ctx) -> dict:
    return ctx.steps[ctx.order[-1]]


def is_theorem1(ctx) -> bool:
    """The verdict is VERDICT-T1's (other verdict rules, e.g. for causal targets, are not re-checked)."""
    return root(ctx)["rule"] == "VERDICT-T1"


def slots(ctx) -> tuple[dict, list, list, dict]:
    """(ffn step, one token-distinguishing step per head, structure steps, group step)."""
    r = root(ctx)
    prem = ctx.premises(r)
    if not is_theorem1(ctx):
        tds = [p for p in prem if p["rule"] in HEAD_SLOT_RULES]
        if len(tds) != len(ctx.spec.heads):
            raise StructureError(f"the verdict ({r['rule']}) does not have one premise per head")
        return prem[0], tds, [p for p in prem if p not in tds], prem[-1]
    h = len(ctx.spec.heads)
    if len(prem) < h + 2:
        raise StructureError("the verdict does not have one premise per head plus the FFN and group steps")
    ffn, tds, rest, group = prem[0], prem[1:1 + h], prem[1 + h:-1], prem[-1]
    if ffn["rule"] != "FFN-DEF2":
        raise StructureError("the verdict's first premise is not the FFN step (FFN-DEF2)")
    if group["rule"] not in GROUP_RULES:
        raise StructureError("the verdict's last premise is not a symmetry-group step")
    return ffn, tds, rest, group


def assign_heads(ctx) -> None:
    if root(ctx)["rule"] == "BUDGET" and not root(ctx)["premises"]:
        return  # the file's budget ran out before any step: the certificate has no head's steps (and asserts nothing)
    _, tds, _, _ = slots(ctx)
    for h, td in enumerate(tds):
        stack = [td["id"]]
        while stack:
            sid = stack.pop()
            if sid in ctx.heads_of:
                continue
            ctx.heads_of[sid] = h
            stack.extend(ctx.steps[sid]["premises"])


def is_obstruction(s: dict, side=frozenset()) -> bool:
    """A proved obstruction to the verdict's range: not one stated for residue classes of n that the verdict's
    range excludes (`side`, by_class.side_classes: NOT-UAP on those classes, beside the verdict for the others,
    docs/theory.md §12)."""
    # per-layer windows whose finite list never connects (Theorem F234, §21.12; F139, §21.15): the count's rule states it
    unreached = s["rule"] in WINDOW_COUNTS and (s.get("data") or {}).get("D_Φ", 0) is None
    return (s["rule"] in OBSTRUCTIONS or unreached) and s["status"] == "proved" and s["id"] not in side


def expected_verdict(ctx, side=frozenset()) -> str:
    ffn, tds, rest, group = slots(ctx)
    if any(s["rule"] == "WP-POSITIVE" and s["status"] == "refuted" and s["id"] not in side for s in tds):
        return "ILL-POSED"  # an undefined layer comes first: no obstruction is stated of a family without models
    if any(is_obstruction(s, side) for s in rest):
        return "NOT-UAP"
    if all(s["status"] == "proved" for s in [ffn, *tds, *(s for s in rest if s["id"] not in side), group]):
        return "INCONCLUSIVE" if below_two_dimensions(ctx) else "UAP"
    return "INCONCLUSIVE"


def below_two_dimensions(ctx) -> bool:
    """The input declares `dim 1`: Theorem 1 and its receptive form assume d ≥ 2 (docs/theory.md §1.5, §14.3), so
    proved premises give no UAP there (DIM-RANGE, §12)."""
    dim = ctx.spec.dim
    return isinstance(dim, int) and not isinstance(dim, bool) and dim < 2


def _reachable(ctx) -> set:
    seen, stack = set(), [ctx.order[-1]]
    while stack:
        sid = stack.pop()
        if sid not in seen:
            seen.add(sid)
            stack.extend(ctx.steps[sid]["premises"])
    return seen


def _declared_target(ctx) -> Optional[str]:
    """VERDICT-T1 states the verdict for G-equivariant targets. An input that declares `target causal` is decided by
    TGT-VERDICT (VERDICT-T1 stands there only for ILL-POSED, which no target class changes); `target receptive` reads
    the G-equivariant verdict only on a family that is not disconnected (then every receptive field is [n] and the
    class is the G-equivariant maps, docs/theory.md §14.1), so not beside a proved PAT-DISCONNECTED."""
    target = ctx.spec.target
    if target == "equivariant" or ctx.cert["verdict"] == "ILL-POSED":
        return None
    if target == "causal":
        return ("verdict: the input declares `target causal`, decided by TGT-VERDICT; VERDICT-T1 states the verdict "
                "for G-equivariant targets")
    if any(s["rule"] == "PAT-DISCONNECTED" and s["status"] == "proved" for s in ctx.steps.values()):
        return ("verdict: the input declares `target receptive` on a disconnected family, decided by TGT-VERDICT; "
                "VERDICT-T1 states the verdict for G-equivariant targets")
    return None


def check_top_level(ctx) -> list[str]:
    problems: list[str] = []
    if root(ctx)["rule"] == "TGT-VERDICT":
        return _check_target_verdict(ctx)
    if not is_theorem1(ctx):
        if ctx.cert["verdict"] in ("UAP", "NOT-UAP"):
            return [f"the verdict step {root(ctx)['rule']} is not one the verifier reads"]
        return []
    declared = _declared_target(ctx)
    if declared is not None:
        return [declared]
    from .by_class import side_classes
    try:
        side, problems = side_classes(ctx)
        want = expected_verdict(ctx, side)
    except StructureError as exc:
        return [str(exc)]
    r = root(ctx)
    if ctx.cert["verdict"] != want:
        problems.append(f"verdict: the premises' statuses give {want}, the certificate says {ctx.cert['verdict']}")
    if (r.get("data") or {}).get("verdict", want) != want or r["evidence"].get("verdict", want) != want:
        problems.append(f"{r['id']} (VERDICT-T1): its verdict differs from {want}")
    stray = set(ctx.order) - _reachable(ctx)
    if stray:
        problems.append(f"steps {', '.join(sorted(stray))} are not premises of the verdict")
    if want == "UAP":
        problems.extend(_check_summary(ctx, side))
    return problems


def _group_name(step: dict) -> Optional[str]:
    data = step.get("data") or {}
    if step["rule"] == "SYM-DENSE":
        return data.get("group")
    return data.get("name")


def _named_order(name, n) -> Optional[int]:
    """The order a group step's name fixes at a concrete n (a dense step states a name, not an order): 1 for the
    trivial group, 2 for the reflection (n ≥ 2), n for the rotations, 2n for D_n (n ≥ 3; D_n is S_n below), n! for
    S_n (n ≤ 1000); None otherwise."""
    if name == "trivial":
        return 1
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        return 2 if name == "reflection" else None
    if name == "reflection":
        return 2 if n >= 2 else 1
    if name == "C_n":
        return n
    if name == "D_n":
        return 2 * n if n >= 3 else math.factorial(n)
    if name == "S_n" and n <= 1000:
        return math.factorial(n)
    return None


def _named_at_length(summary_name, name, order: Optional[int], n) -> bool:
    """Whether the summary's name is the step's group named at the concrete length n (docs/language.md, "Groups at
    a concrete n"): a group of positions 1..n of order n! is S_n, one of order 1 is the trivial group."""
    if summary_name == name:
        return True
    if order is None or not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 1000:
        return False
    return (summary_name, order) in (("trivial", 1), ("S_n", math.factorial(n)))


def _check_group_summary(ctx, g: dict, group: dict) -> list[str]:
    """The certificate's summary group is the one its group step establishes: the same name (or that group's name at
    the concrete n), and an order only when that step states it (or its name fixes it). Without this a certificate
    could name a larger group than the family's beside a correct derivation."""
    problems: list[str] = []
    name = _group_name(group)
    n = ctx.spec.tokens
    stated = (group.get("data") or {}).get("order")
    if stated is None:
        want = _named_order(name, n)
    else:
        try:
            value = decode(stated, ctx.symbols)
        except TreeError as exc:
            return problems + [f"{group['id']} ({group['rule']}): order: {exc}"]
        want = int(value) if isinstance(value, sympy.Integer) else None
    if not _named_at_length(g.get("name"), name, want, n):
        problems.append(f"group: the certificate names {g.get('name')!r}, {group['id']} ({group['rule']}) "
                        f"establishes {name!r}")
    problems.extend(_check_summary_generators(ctx, g, group, name))
    order = g.get("order")
    if order is None:
        return problems
    if isinstance(order, bool) or not isinstance(order, int):
        return problems + [f"group: the order {str(order)[:60]!r} is not an integer"]
    if want is None:
        problems.append(f"group: the certificate states order {order}, which {group['id']} ({group['rule']}) "
                        f"does not establish")
    elif order != want:
        problems.append(f"group: order {order} differs from {group['id']}'s ({want})")
    return problems


def _check_summary_generators(ctx, g: dict, group: dict, name) -> list[str]:
    """Generators in the summary are the group step's (whose own check puts them in G); a dense step states none, so
    there only the reflection's reversal is accepted, at a concrete n."""
    listed = g.get("generators")
    if listed is None or listed == []:
        return []
    if not isinstance(listed, list):
        return [f"group: the generators {str(listed)[:40]!r} are not a list"]  # 0 or "" used to read as none
    stated = (group.get("data") or {}).get("generators")
    if stated is not None:
        return [] if listed == stated else [f"group: the certificate's generators are not those of {group['id']} "
                                             f"({group['rule']})"]
    n = ctx.spec.tokens
    if isinstance(n, int) and _named_generators(name, n, listed):
        return []
    return [f"group: the certificate lists generators that {group['id']} ({group['rule']}) does not establish"]


def _named_generators(name, n: int, listed) -> bool:
    """The generators a step's name alone fixes, at a concrete n: the reversal for the reflection, a rotation by one
    for C_n (a convolution's group), both for D_n, and for S_n the transposition (1 2) with the n-cycle
    i ↦ i + 1 (mod n), which generate S_n (the cycle's conjugates of (1 2) are all the adjacent transpositions)."""
    reversal = list(range(n, 0, -1))
    rotations = ([*range(2, n + 1), 1], [n, *range(1, n)])
    if name == "S_n":
        if n < 2:
            return listed == []
        swap = [2, 1, *range(3, n + 1)]
        return (listed == [swap] if n == 2 else
                len(listed) == 2 and swap in listed and any(r in listed for r in rotations))
    if name == "reflection":
        return listed == [reversal]
    if name == "C_n":
        return len(listed) == 1 and listed[0] in rotations
    if name == "D_n":
        return len(listed) == 2 and reversal in listed and any(r in listed for r in rotations)
    return False


def _check_summary(ctx, side=frozenset()) -> list[str]:
    problems = []
    _, tds, rest, group = slots(ctx)
    g = ctx.cert.get("group")
    if not isinstance(g, dict):
        return ["group: a UAP certificate names its group"]
    problems.extend(_check_group_summary(ctx, g, group))
    layers_steps = [s for s in rest if s["rule"] in ("PAT-LAYERS", "SEQ-LAYERS", "SEQ-ALTERNATION-LAYERS", "CONV-LAYERS",
                                                      "BIAS-LAYERS", "SEQ-WINDOWS-LAYERS",
                                                      "SEQ-GLOBALS-LAYERS", "SEQ-CYCLIC-LAYERS")]
    try:
        layers = decode(ctx.cert.get("layers"), ctx.symbols)
    except TreeError as exc:
        return problems + [f"layers: {exc}"]
    if layers_steps:
        data = layers_steps[-1].get("data") or {}
        try:
            want = decode(data.get("layers"), ctx.symbols)
        except TreeError as exc:
            return problems + [f"{layers_steps[-1]['id']} (PAT-LAYERS): layers: {exc}"]
    else:
        if any(t["rule"] in ("TD-BIAS", "TD-BUCKETS") and (t.get("data") or {}).get("labelled_views")
               for t in (ctx.steps[sid] for sid in _reachable(ctx))):
            return problems + ["layers: a symmetric bias or shared T5 buckets on dense heads need the layer count of "
                               "BIAS-LAYERS"]
        if any(t["rule"] == "TD-FIXEDBIAS" and (t.get("data") or {}).get("fixed_even")
               for t in (ctx.steps[sid] for sid in _reachable(ctx))):
            return problems + ["layers: a fixed even bias on dense heads needs the layer count of BIAS-LAYERS"]
        # Lemma M (TD-MEANS, §20.9): an FFN block, then a uniform-weight attention block
        want = sympy.Integer(2 if any(t["rule"] == "TD-MEANS" and t["status"] == "proved" for t in tds) else 1)
    if side:
        # beside classes with another verdict: the count on the classes the verdict's range keeps (§12)
        from .by_class import same_on_kept_classes
        if not same_on_kept_classes(ctx, side, layers, want):
            problems.append(f"layers: the certificate says {sympy.sstr(layers)}, the layer step gives "
                            f"{sympy.sstr(want)} on the classes the verdict states")
    elif sympy.simplify(layers - want) != 0:
        problems.append(f"layers: the certificate says {sympy.sstr(layers)}, the layer step gives {sympy.sstr(want)}")
    from .rules_targets import budget_problem
    over = budget_problem(ctx, layers)
    if over and not side:  # beside classes with another verdict the by-class checks compare the budget per class
        problems.append(f"layers: {over}")
    return problems


def _receptive_group(ctx, r: dict, g) -> bool:
    """A UAP for the receptive class of a family with a non-trivial group G states G: every map of the class is
    G-equivariant (a σ ∈ G restricted to R(i) is a local isomorphism, §14.1). Accepted when it is exactly the group of
    the verdict's one proved SYM-AUT premise (checked by its own row)."""
    if not isinstance(g, dict) or (r.get("data") or {}).get("target") != "receptive":
        return False
    aut = [p for p in ctx.premises(r) if p["rule"] == "SYM-AUT" and p["status"] == "proved"]
    if len(aut) != 1:
        return False
    data = aut[0].get("data") or {}
    return (g.get("name"), g.get("order"), g.get("generators")) == (data.get("name"), data.get("order"),
                                                                    data.get("generators"))


def _check_target_verdict(ctx) -> list[str]:
    """A verdict for a declared target class (TGT-VERDICT): the premises' statuses, no stray step, and
    the summary's layer count is TGT-LAYERS'."""
    from .rules_targets import expected_verdict
    r = root(ctx)
    problems = []
    try:
        want = expected_verdict(ctx, r)
    except StructureError as exc:
        return [str(exc)]
    if ctx.cert["verdict"] != want:
        problems.append(f"verdict: the premises' statuses give {want}, the certificate says {ctx.cert['verdict']}")
    stray = set(ctx.order) - _reachable(ctx)
    if stray:
        problems.append(f"steps {', '.join(sorted(stray))} are not premises of the verdict")
    if want == "UAP":
        g = ctx.cert.get("group")
        one = ctx.spec.tokens == 1 and not isinstance(ctx.spec.tokens, bool)  # S_1 is the trivial group
        if g is not None and not (isinstance(g, dict) and (g.get("name") == "trivial" or one and g.get("name") == "S_n")
                                  and g.get("order") in (1, None) and not g.get("generators")) \
                and not _receptive_group(ctx, r, g):
            problems.append(f"group: a verdict for a target class states the trivial group or none, the certificate "
                            f"names {str(g.get('name') if isinstance(g, dict) else g)[:60]!r}")
        lay = [p for p in ctx.premises(r) if p["rule"] in ("TGT-LAYERS", "SEQ-CAUSAL-LAYERS", "SEQ-CAUSAL-INTERVALS",
                                                            "SEQ-CAUSAL-FORM", "SEQ-CAUSAL-SINKS", "TGT-PLAIN",
                                                            "SEQ-CAUSAL-CHUNKS")]
        try:
            layers = decode(ctx.cert.get("layers"), ctx.symbols)
            stated = decode((lay[-1].get("data") or {}).get("layers"), ctx.symbols) if lay else None
        except TreeError as exc:
            return problems + [f"layers: {exc}"]
        if stated is None or sympy.simplify(layers - stated) != 0:
            problems.append(f"layers: the certificate says {sympy.sstr(layers)}, {lay[-1]['rule'] if lay else 'TGT-LAYERS'} "
                            f"gives {sympy.sstr(stated)}")
        from .rules_targets import budget_problem
        over = budget_problem(ctx, layers)
        if over:
            problems.append(f"layers: {over}")
    return problems
