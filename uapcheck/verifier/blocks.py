"""Bind a step's kernel certificate block to what the verifier re-checked (docs/theory.md §18.1).

The block (the kernel Certificate's JSON) states some values a second time: a family theorem's `claims`, the facts
of a verdict's premises, a mixed row's witness. After a step's own check passes, each such value must equal its
checked copy — the step's `data`, the evidence the check read, or the premise step's checked data — exactly, after
normalising the JSON forms (an expression tree, a closed-form string such as "8192 · 4^(⌊n/10⌋ − 4)", an order by
residue class in either of its two layouts, a key list or a key map by visible position). A stated value whose
checked copy differs is rejected; one with no checked copy, or in a form not normalised here, is listed as not
compared (the report's `not certified` line names it), never silently taken as checked.
"""
from __future__ import annotations

from typing import Any, Optional

import sympy

from .exact_forms import closed_form, equal_in_n
from .trees import TreeError, decode

# descriptive text of a block, not a stated value: what the block is, where its proof is, what it trusts
_META = {"kind", "meaning", "reason", "engine", "trusted", "argument", "section"}


class Mismatch(Exception):
    """A block value differs from its checked copy."""


def bind(ctx, s: dict) -> list[str]:
    """Compare the stated values of step s's certificate block with their checked copies: raises Mismatch for a
    differing value; returns the paths (e.g. "s7 certificate.claims.diameter") of those not compared."""
    cert = s.get("certificate")
    if not isinstance(cert, dict):
        return []
    kind = cert.get("kind")
    where = f"{s['id']} certificate"
    if kind == "family theorem":
        # the engine's label of the theorem against the verifier's own match on the re-parsed pattern, and its reading
        # of the sizes against the input's names; the values its instance check ran at are the engine's record (the
        # verifier runs its own instance checks), named not compared
        named = _bind_family_record(ctx, cert, where)
        claims = cert.get("claims")
        if claims is None:
            return named
        if not isinstance(claims, dict):
            raise Mismatch(f"{where}.claims is not an object")
        return named + [p for key, value in claims.items()
                        for p in _bind_value(ctx, f"{where}.claims.{key}", key, value, s)]
    if kind == "verdict-premises":
        return _bind_premises(ctx, s, cert, where)
    if kind == "mixed-row":
        return _bind_mixed_row(ctx, s, cert, where)
    if kind == "causal-positions":
        return _bind_causal_positions(ctx, s, cert, where)
    if kind in CAUSAL_LAYER_BLOCKS:
        return _bind_causal_layers(ctx, s, cert, where)
    if kind == "kernel-limit":
        from . import blocks_kernel
        try:
            return blocks_kernel.bind(ctx, s, cert, where)
        except blocks_kernel.KernelBlockMismatch as exc:
            raise Mismatch(str(exc)) from None
    if kind == "nonzero-at-point" and s.get("rule") == "FFN-DEF2":
        return _bind_second_difference(ctx, s, cert, where)
    if kind == "depth-one-labelled":
        return _bind_depth_one(ctx, s, cert, where)
    from . import blocks_layers
    if kind in blocks_layers.BLOCKS:
        try:
            return blocks_layers.bind(ctx, s, cert, where)
        except blocks_layers.LayerBlockMismatch as exc:
            raise Mismatch(str(exc)) from None
    return _bind_other(ctx, s, cert, where)


def _family_theorems(ctx) -> set:
    """The theorems the verifier's own tables match on the re-parsed pattern (after the checked normal form): the
    family of named sizes (F5–F6, F47–F52), the family of the one pattern, the family of the heads' union."""
    from . import parametric, rules_families
    found = set()
    for match in (parametric.family, rules_families.family, rules_families.union_family):
        fam = match(ctx)
        if fam is not None:
            found.add(fam.theorem)
    return found


def _bind_family_record(ctx, cert: dict, where: str) -> list[str]:
    """A family theorem block's `theorem`: where the verifier's tables match a theorem on the re-parsed pattern, the
    label must be one of those (the step's check re-derived every value from it); where they match none (a lemma of
    §18.4 restates the family, e.g. F5's cyclic window), the label is named. Its `parameters` (each theorem letter's
    reading: the symbolic length or a declared param) must name the input's own: the length as `tokens` names it, a
    param by its name. `instance parameters` (where the engine's own instance check ran) is named: the verifier runs
    its own. A forged label or reading used to be named only, never compared."""
    named = []
    if "theorem" in cert:
        mine = _family_theorems(ctx)
        if not mine:
            named.append(f"{where}.theorem")
        elif cert["theorem"] not in mine:
            raise Mismatch(f"{where}.theorem {_short(cert['theorem'])} is not the verifier's own match on the "
                           f"re-parsed pattern (Theorem {', '.join(sorted(mine))})")
    if "parameters" in cert:
        given = cert["parameters"]
        if not isinstance(given, dict):
            raise Mismatch(f"{where}.parameters is not an object")
        spec = ctx.spec
        names = {p.name for p in spec.params} | ({spec.tokens} if isinstance(spec.tokens, str) else set())
        for key, value in given.items():
            if key not in names or value != key:
                raise Mismatch(f"{where}.parameters.{key} = {_short(value)} is not a name the input declares "
                               f"(the length `tokens {spec.tokens}` or a param)")
    if "instance parameters" in cert:
        named.append(f"{where}.instance parameters")
    return named


def _bind_other(ctx, s: dict, cert: dict, where: str) -> list[str]:
    """A block of any other kind (uapcheck/certificates.py, layer_certificates.py): each value the step's checked
    copy states too — its data's field of that name, or a value the rule's theorem fixes (`_bind_value`) — must equal
    it; the premises it names must be the step's, in order, with their statuses (and an inference's required facts
    their checked copies); its `n` the input's length. Every other value, and a side condition's block, is listed as
    not compared: such blocks used to be neither compared nor named, so a forged value passed as part of an `OK`."""
    data = _data(s)
    unread: list[str] = []
    for key, value in cert.items():
        path = f"{where}.{key}"
        if key in _META:
            continue
        if key == "premises" and isinstance(value, list):
            if not value and cert.get("kind") == "inference":  # certificates.Inference rejects one without premises
                raise Mismatch(f"{path} is empty: an inference rests on at least one premise of the step")
            unread.extend(_bind_premises(ctx, s, cert, where))
        elif key == "requires" and isinstance(value, list):
            unread.extend(_bind_required(ctx, s, value, path))
        elif key == "n" and "n" not in data:
            if value != ctx.spec.tokens:
                unread.append(path)  # a block made at another length (a sample, a length below a range)
        elif key == "data" and isinstance(value, dict) and "data" not in data:  # a trusted conclusion's facts
            unread.extend(p for k, v in value.items() for p in _bind_value(ctx, f"{path}.{k}", k, v, s))
        else:
            unread.extend(_bind_value(ctx, path, key, value, s))
    return unread


def _bind_second_difference(ctx, s: dict, cert: dict, where: str) -> list[str]:
    """FFN-DEF2's block: its `point` {p, q, r} is the step's checked `points` [p, q, r] (the three points at which the
    check evaluated σ's second difference itself); a forged point used to pass, named only as not compared."""
    point, points = cert.get("point"), _data(s).get("points")
    if not isinstance(point, dict) or set(point) != {"p", "q", "r"} or not isinstance(points, list) or len(points) != 3:
        raise Mismatch(f"{where}.point {_short(point)} is not the three checked points {_short(points)} as p, q, r")
    unread = []
    for name, checked in zip("pqr", points):
        same = _same(ctx, "point", point[name], checked)
        if same is None:
            unread.append(f"{where}.point.{name}")
        elif not same:
            raise Mismatch(f"{where}.point.{name} = {_short(point[name])} differs from the checked {s['id']} "
                           f"(FFN-DEF2) point {_short(checked)}")
    return unread + _bind_other(ctx, s, {k: v for k, v in cert.items() if k != "point"}, where)


def _bind_depth_one(ctx, s: dict, cert: dict, where: str) -> list[str]:
    """Theorem F149's block (docs/theory.md §16.5): its check runs at the input's n, so the block's `n` is that length
    (a forged n used to be named as a block made at another length); its theorem is F149; its heads with a fixed
    position term and its label kinds are the verifier's own reading of the input (verifier/depth_one.py reads them
    the same way). Its diameter and layer count are the step's data."""
    from .rules_budget import _label_kinds
    n = ctx.spec.tokens
    if cert.get("n") != n or isinstance(cert.get("n"), bool):
        raise Mismatch(f"{where}.n {_short(cert.get('n'))} is not the input's `tokens {n}`, where F149's check ran")
    if cert.get("theorem") != "F149":
        raise Mismatch(f"{where}.theorem {_short(cert.get('theorem'))} is not F149")
    fixed = [k for k, h in enumerate(ctx.spec.heads, 1) if h.position is not None and h.position.kind != "buckets"]
    if cert.get("fixed") != fixed:
        raise Mismatch(f"{where}.fixed {_short(cert.get('fixed'))} is not the heads with a fixed position term {fixed}")
    # T5's buckets (B, D) as the engine names the kind
    kinds = [f"buckets({k[0]}, {k[1]})" if isinstance(k, (tuple, list)) else k for k in _label_kinds(ctx, n)]
    if cert.get("kinds") != kinds:
        raise Mismatch(f"{where}.kinds {_short(cert.get('kinds'))} are not the heads' label kinds {_short(kinds)}")
    rest = {k: v for k, v in cert.items() if k not in ("n", "theorem", "fixed", "kinds")}
    return _bind_other(ctx, s, rest, where)


def _bind_required(ctx, s: dict, required: list, where: str) -> list[str]:
    """An inference's required facts: each {rule, fact, value} names a premise of the step (by its rule) and states
    the value the argument needs; it is compared with that premise's checked copy when it has one."""
    unread = []
    steps = ctx.premises(s)
    for k, entry in enumerate(required):
        path = f"{where}[{k}]"
        if not isinstance(entry, dict):
            raise Mismatch(f"{path} is not an object")
        step = next((p for p in steps if p["rule"] == entry.get("rule")), None)
        if step is None:
            raise Mismatch(f"{path} names {_short(entry.get('rule'))}, not a premise of the step")
        unread.extend(_bind_value(ctx, f"{path}.{entry.get('fact')}", str(entry.get("fact")), entry.get("value"),
                                  step))
    return unread


#: The per-layer causal heads' blocks (docs/theory.md §21.6–§21.10), which state the step's checked data again, and
#: the data's name for a field they name otherwise (F121's count names D_c and the witness its own way).
CAUSAL_LAYER_BLOCKS = {"layers-causal-intervals": {"D_c": "depth", "witness": "causal view witness"},
                       "layers-causal-interval-form": {}, "layers-causal-growing-form": {},
                       "layers-causal-sinks": {}, "layers-causal-sinks-form": {}, "layers-causal-sinks-values": {},
                       "layers-causal-sinks-growth": {}}


def _bind_causal_layers(ctx, s: dict, cert: dict, where: str) -> list[str]:
    """Each field of the block that the step's checked data states too (under its name or the data's) is that value,
    and its n the input's length; F121's widths and period are the verifier's own reading of the input
    (`_bind_interval_widths`); any other field is listed as not compared. A forged count, flag, range or witness in
    the block used to pass unnamed, and forged widths passed named."""
    data = s.get("data") or {}
    renamed = CAUSAL_LAYER_BLOCKS[cert["kind"]]
    unread = []
    if cert["kind"] == "layers-causal-intervals":
        _bind_interval_widths(ctx, cert, where)
    for key, value in cert.items():
        if key == "kind" or (cert["kind"] == "layers-causal-intervals" and key in ("widths", "periodic")):
            continue
        if key == "n" and "n" not in data:
            if value != ctx.spec.tokens:
                raise Mismatch(f"{where}.n {value!r} is not the input's `tokens {ctx.spec.tokens}`")
            continue
        name = renamed.get(key, key)
        if name not in data:
            unread.append(f"{where}.{key}")
        elif data[name] != value:
            raise Mismatch(f"{where}.{key} {value!r} is not the checked {name} {data[name]!r}")
    return unread


def _bind_interval_widths(ctx, cert: dict, where: str) -> None:
    """F121's block states the network's layers again: per layer and per head a width ("∞" for the causal mask), and
    whether they repeat. Both must be the verifier's own reading of the input (verifier/causal_intervals.py), the
    list cut at the network's depth as the block states it."""
    from .causal_intervals import Intervals, NotIntervals, build
    try:
        reading = ctx.cache.get("intervals")  # the step's check made it (rules_layers._intervals)
        widths, periodic = (reading if isinstance(reading, Intervals) else build(ctx.spec)).network_widths()
    except NotIntervals as exc:
        raise Mismatch(f"{where} states interval widths, but the heads are not interval heads: {exc}") from None
    if cert.get("widths") != widths or cert.get("periodic") is not periodic:
        raise Mismatch(f"{where} states the widths {cert.get('widths')!r} (periodic: {cert.get('periodic')!r}), the "
                       f"verifier reads {widths!r} (periodic: {periodic!r})")


def _bind_causal_positions(ctx, s: dict, cert: dict, where: str) -> list[str]:
    """TGT-POSITIONS's block (§14.11): its route, its separating head (0-based; the data's is 1-based), its collision
    (i, l, l′) and its n are the step's checked data and the input's length; the per-head records are the engine's
    reading of the heads, which the check re-reads from the input itself (listed as not compared)."""
    data = s.get("data") or {}
    if cert.get("route") != data.get("route"):
        raise Mismatch(f"{where}.route {cert.get('route')!r} is not the checked route {data.get('route')!r}")
    sep, stated = cert.get("separating"), data.get("separating")
    want = stated - 1 if isinstance(stated, int) and not isinstance(stated, bool) else None
    if sep != want or (sep is not None and data.get("route") != "one layer"):
        raise Mismatch(f"{where}.separating {sep!r} is not the checked separating head (0-based: {want!r})")
    if cert.get("collision") != data.get("collision"):
        raise Mismatch(f"{where}.collision {cert.get('collision')!r} is not the checked {data.get('collision')!r}")
    if (cert.get("collision") is None) != (data.get("route") != "collision"):
        raise Mismatch(f"{where}.collision: a collision is stated exactly on the collision route")
    if cert.get("n") != ctx.spec.tokens:
        raise Mismatch(f"{where}.n {cert.get('n')!r} is not the input's `tokens {ctx.spec.tokens}`")
    return [f"{where}.heads"] if cert.get("heads") else []


# ---------------------------------------------------------------------------------------------
# The checked copy of a stated value

def _checked_copy(key: str, step: dict) -> tuple[bool, Any]:
    """(found, value): the checked counterpart of a stated `key` in the step's data."""
    data = step.get("data") or {}
    if not isinstance(data, dict):
        return False, None
    if key == "low" and "from" in data:  # the theorem's range n ≥ low, as the step's data states it
        return True, data["from"]
    if key == "order":
        for name in ("order cases", "order by cases"):
            if name in data:
                return True, data[name]
        if "order" in data:
            return True, data["order"]
        return False, None
    if key in ("group", "name"):
        if "name" in data:
            return True, data["name"]
        return False, None
    if key == "diameter" and step.get("rule") == "PAT-CONNECTED" and data.get("diameter") is None \
            and data.get("diameter bound") is not None:
        return True, data["diameter bound"]  # a step that proves D ≤ bound only: its stated `diameter` is the bound
    if key in data:
        return True, data[key]
    return False, None


# A fact that a rule's theorem fixes: the step's check establishes that theorem (docs/theory.md §8, §16, §17, §20),
# so the fact's checked copy is the theorem's value, not a field of the step's data
_ONE_LAYER = {"TD-KERNEL", "TD-FIXEDBIAS", "TD-BUCKETS", "TD-LINFORMER", "TD-ROTARY", "TD-RADIAL", "TD-RIDGE", "TD-COMPLEX",
              "HEADS-SHARED", "HEADS-DIFF", "HEADS-SINK"}  # one layer is token distinguishing
_TWO_DIMENSIONS = {"TD-ROTARY", "TD-RADIAL", "TD-RIDGE"}  # … for d ≥ 2
_LABELS = {"name", "group", "obstruction", "verdict", "target"}
_NAMED_ORDERS = {"trivial": lambda n: sympy.Integer(1), "reflection": lambda n: sympy.Integer(2), "C_n": lambda n: n,
                 "D_n": lambda n: 2 * n, "S_n": sympy.factorial}


def _data(step: dict) -> dict:
    data = step.get("data")
    return data if isinstance(data, dict) else {}


def _theorem_fact(ctx, key: str, step: dict) -> tuple[bool, Any]:
    """(found, value): the value of a fact that the step's rule fixes, as the verifier's check of the step
    establishes it; (False, None) when the rule fixes none."""
    rule, status = step["rule"], step["status"]
    data = _data(step)
    if status == "proved":
        if key == "layers" and ((rule in _ONE_LAYER and data.get("labelled_views") is not True) or
                                (rule == "TD-BIAS" and data.get("labelled_views") is False)):
            return True, 1
        if key == "min_dim" and rule in _TWO_DIMENSIONS:
            return True, 2
        if rule == "TD-MEANS" and key == "least":
            return True, False  # two layers, not shown least (§20.6)
        if rule == "TD-MEANS" and key == "kernel_at_zero":
            from .rules_infer import _head
            from .rules_means import kernel_at_zero
            return True, kernel_at_zero(ctx.spec, _head(ctx, step))
        if key == "obstruction":
            from .structure import is_obstruction
            if not is_obstruction(step):
                return False, None
            return True, {"PAT-DISCONNECTED": "unreachable"}.get(
                rule, "layer budget" if rule.startswith("PAT-BUDGET") else True)
        if rule == "PAT-CONNECTED" and key in ("exact", "diameter_exact") and "diameter" in data:
            return True, data["diameter"] is not None  # a closed form, not only a bound
    if status == "refuted" and rule == "WP-POSITIVE" and key == "ill_posed":
        return True, True  # a normaliser that changes sign: the layer is undefined (ILL-POSED)
    classes = data.get("classes")
    if key in ("modulus", "residues") and isinstance(classes, dict) and key in classes:
        return True, classes[key]
    return _group_fact(ctx, key, rule, data)


def _group_fact(ctx, key: str, rule: str, data: dict) -> tuple[bool, Any]:
    """(found, value) for a group premise's range, generators, and a dense group's name and order."""
    if key == "condition":
        return _checked_condition(ctx, rule, data)
    if key == "generators" and not isinstance(ctx.spec.tokens, int):
        name = data.get("group") if rule == "SYM-DENSE" else data.get("name")
        if name == "trivial":  # no generator at any length: a fact of the name alone
            return True, []
        lengths = _sample_lengths(rule, data)
        if isinstance(name, str) and lengths and all(
                groups_named(name, m) is not None for m in lengths):
            return True, ("generate at", name, lengths)
        return False, None
    if rule == "SYM-DENSE" and isinstance(data.get("group"), str):
        name = data["group"]
        if key == "name":
            return True, name
        if key == "order" and name in _NAMED_ORDERS:
            tokens = ctx.spec.tokens
            n = sympy.Integer(tokens) if isinstance(tokens, int) else ctx.symbols.get(tokens)
            return (True, _NAMED_ORDERS[name](n)) if n is not None else (False, None)
        if key == "generators" and isinstance(ctx.spec.tokens, int):
            from . import groups
            named = groups.named_generators(name, ctx.spec.tokens)
            return (True, ("generate", name, named)) if named is not None else (False, None)
    return False, None


def groups_named(name: str, m: int):
    from . import groups
    return groups.named_generators(name, m)


def _sample_lengths(rule: str, data: dict) -> list:
    """The lengths at which a named group's text generators are compared: those SYM-DENSE's check tries (3…7),
    or the first three of a SYM-AUT range n ≥ `from`."""
    if rule == "SYM-DENSE":
        return [3, 4, 5, 6, 7]
    low = data.get("from")
    if rule in ("SYM-AUT", "CONV-GROUP") and isinstance(low, int) and not isinstance(low, bool) and 2 <= low <= 200:
        return [low, low + 1, low + 2]
    return []


def _checked_condition(ctx, rule: str, data: dict) -> tuple[bool, Any]:
    """The range a group premise is checked on: none at an integer n (the group is that length's), none for a dense
    group at a symbolic n (its check states it for every n), n ≥ `from` for a step whose data states its range."""
    if isinstance(ctx.spec.tokens, int) or (rule == "SYM-DENSE" and not data.get("from")):
        return True, None
    low = data.get("from")
    if low is None or isinstance(low, bool):
        return False, None
    n = ctx.symbols.get(ctx.spec.tokens)
    start = _expr(ctx, low)
    if n is None or start is None:
        return False, None
    return True, ("n ≥", n, start)


def _bind_value(ctx, path: str, key: str, value: Any, step: dict) -> list[str]:
    if key in _META:
        return []
    if key == "group" and isinstance(value, dict):  # a premise's fact: the group's name, order, generators
        return [p for k, v in value.items() for p in _bind_value(ctx, f"{path}.{k}", k, v, step)]
    found, checked = _checked_copy(key, step)
    if not found:
        found, checked = _theorem_fact(ctx, key, step)
    if not found:
        return [path]
    data = _data(step)
    low = data.get("from") if isinstance(data.get("from"), int) and not isinstance(data.get("from"), bool) else None
    same = _same(ctx, key, value, checked, low)
    if same is None:
        return [path]
    if not same:
        raise Mismatch(f"{path} = {_short(value)} differs from the checked {step['id']} ({step['rule']}) "
                       f"value {_short(checked)}")
    return []


def _integers(value: Any) -> bool:
    """An int that is not a bool, or a list of such, nested."""
    if type(value) is int:
        return True
    return isinstance(value, list) and all(_integers(x) for x in value)


def _same(ctx, key: str, a: Any, b: Any, low: Optional[int] = None) -> Optional[bool]:
    """Whether the stated a equals the checked b after normalising the forms; None: a form not normalised here.
    `low`: the step's range starts there (n ≥ low), where two closed forms in n must agree."""
    if key == "order":
        ma, mb = _by_residue(ctx, a), _by_residue(ctx, b)
        if ma is not None or mb is not None:
            return _same_by_residue(ctx, a, b, ma, mb, low)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b if isinstance(a, bool) and isinstance(b, bool) else False
    if isinstance(a, str) and isinstance(b, str) and a == b:
        return True
    if key in _LABELS and isinstance(a, str) and isinstance(b, str):
        return False  # a name or a kind, not a value in n: the text itself is the value
    if a is None or b is None:
        return True if a is b else None  # a value the other side does not state
    if isinstance(b, tuple):  # a checked copy the verifier derives (_group_fact): compared by its own rule
        return _same_derived(ctx, a, b)
    if key == "generators" and a == [] and b != []:
        return None  # a block lists no generators where there are too many to list: not a claim of none
    if isinstance(a, list) and isinstance(b, list):
        if a == b and _integers(a):
            return True  # equal lists of integers (generators: a million entries at n = 2,048) are the same value
        if any(isinstance(x, dict) for x in (*a, *b)):
            return True if a == b else None  # cases with conditions: a layout not normalised here
        if len(a) != len(b):
            return False
        return _all([_same(ctx, key, x, y, low) for x, y in zip(a, b)])
    ea, eb = _expr(ctx, a), _expr(ctx, b)
    if ea is None or eb is None:
        return None if not (isinstance(a, (int, dict)) and isinstance(b, (int, dict)) and a == b) else True
    return _equal(ea, eb, low)


def _same_by_residue(ctx, a: Any, b: Any, ma: Optional[dict], mb: Optional[dict],
                     low: Optional[int]) -> Optional[bool]:
    """Two orders of which at least one is stated by residue class, compared class by class."""
    if ma is None or mb is None:
        # one side by residue, the other one value: the value must hold on every residue
        one, cases = (a, mb) if ma is None else (b, ma)
        ev = _expr(ctx, one)
        if ev is None or cases is None:
            return None
        return _all([_equal(ev, v, low, cls) for cls, v in cases.items()])
    ra, rb = {r: (m, v) for (m, r), v in ma.items()}, {r: (m, v) for (m, r), v in mb.items()}
    if len(ra) != len(ma) or len(rb) != len(mb):
        return None  # a residue listed under two moduli: a layout not normalised here
    if set(ra) != set(rb):
        return False
    return _all([_equal(ra[r][1], rb[r][1], low, (ra[r][0] or rb[r][0], r)) for r in ra])


def _same_derived(ctx, a: Any, b: tuple) -> Optional[bool]:
    """A stated value against a derived checked copy: ("generate", name, generators) at an integer n, ("generate
    at", name, lengths) at a symbolic n, ("n ≥", n, start) for a range."""
    tag = b[0]
    if tag == "generate at":
        return _same_text_group(ctx, a, b[1], b[2])
    if tag == "generate":
        if isinstance(a, list) and any(isinstance(g, str) for g in a):
            from .generator_text import permutation
            a = [permutation(g, "n", ctx.spec.tokens) if isinstance(g, str) else g for g in a]
        return _same_group(a, b[2], ctx.spec.tokens)
    if tag == "n ≥":
        return _same_start(ctx, a, b[1], b[2])
    return None


def _same_text_group(ctx, stated, name: str, lengths: list) -> Optional[bool]:
    """Generators stated as text at a symbolic n ("(1 2 ... n)", "i ↦ n + 1 − i") generate the named group at each
    sample length; None when a text is not one generator_text reads."""
    from .generator_text import permutation
    if not isinstance(stated, list) or not stated:
        return None
    results = []
    for m in lengths:
        perms = [permutation(g, ctx.spec.tokens, m) for g in stated]
        if any(p is None for p in perms):
            return None
        results.append(_same_group(perms, groups_named(name, m), m))
    return _all(results)


def _same_start(ctx, stated, n, start) -> Optional[bool]:
    """A stated range "n ≥ a" against the checked n ≥ start (a compared exactly); None for another form."""
    if not isinstance(stated, str):
        return None
    cond = closed_form(stated, ctx.symbols)
    if not isinstance(cond, sympy.GreaterThan) or cond.lhs != n:
        return None
    return _equal(cond.rhs, start)


def _same_group(stated, named: list, n: int) -> Optional[bool]:
    """Whether the stated generators generate the named group at n (Schreier–Sims: both orders and the order of
    their union are equal); None when they are not permutations of 1..n."""
    from . import groups
    if not isinstance(stated, list) or not all(
            isinstance(g, list) and sorted(g) == list(range(1, n + 1)) for g in stated):
        return None
    order = groups.order(named, n)
    return groups.order(stated, n) == order and groups.order([*named, *stated], n) == order


def _all(results: list) -> Optional[bool]:
    """False when one differs, None when one is not decided, else True."""
    if False in results:
        return False
    return None if None in results else True


def _equal(a, b, low: Optional[int] = None, cls: Optional[tuple] = None) -> Optional[bool]:
    """Whether two exact values agree (at every n ≥ low of the class n mod M = r when cls = (M, r)): True, False, or
    None when neither is shown (then the value is listed as not compared, never taken as checked)."""
    if a is None or b is None:
        return None
    if a == b:
        return True
    if isinstance(a, sympy.logic.boolalg.Boolean) or isinstance(b, sympy.logic.boolalg.Boolean):
        return None
    exact = equal_in_n(a, b, low, cls)
    if exact is not None:
        return exact
    try:
        diff = sympy.simplify(a - b)
    except (TypeError, ValueError, AttributeError):
        return None
    if diff == 0:
        return True
    if diff.is_number:
        return False
    return None  # in several symbols, or forms equal_in_n does not decide: not compared


def _by_residue(ctx, value) -> Optional[dict]:
    """An order by residue class, in either layout ({modulus, order, residues} or {order, residue}): (modulus,
    residue) ↦ the order as an expression (modulus None when the layout does not state it); None when the value is
    not one."""
    if not isinstance(value, list) or not value or not all(isinstance(e, dict) for e in value):
        return None
    out: dict = {}
    for e in value:
        rs = e.get("residues", [e.get("residue")] if "residue" in e else None)
        if not isinstance(rs, list) or "order" not in e:
            return None
        modulus = e.get("modulus")
        if modulus is not None and (not isinstance(modulus, int) or isinstance(modulus, bool) or modulus < 1):
            return None
        for r in rs:
            if not isinstance(r, int) or isinstance(r, bool) or (modulus, r) in out:
                return None
            out[(modulus, r)] = _expr(ctx, e["order"])
    return out


def _expr(ctx, value) -> Optional[sympy.Expr]:
    """An exact expression for a stated integer, expression tree or closed-form string; None when not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, sympy.Basic):  # a value the verifier computed (a theorem's fact)
        return value
    if isinstance(value, dict):
        try:
            return decode(value, ctx.symbols)
        except (TreeError, TypeError, ValueError, RecursionError):
            return None
    if isinstance(value, str):
        return closed_form(value, ctx.symbols)
    return None


def _short(value) -> str:
    import json
    return json.dumps(value, ensure_ascii=False, default=str)[:80]


# ---------------------------------------------------------------------------------------------
# A verdict's premises and a mixed row

def _bind_premises(ctx, s: dict, cert: dict, where: str) -> list[str]:
    # the verdict the block states the premises give: the step's own, which its check recomputed from them
    stated, checked = cert.get("verdict"), (s.get("data") or {}).get("verdict")
    if "verdict" in cert and stated != checked:
        raise Mismatch(f"{where}.verdict {_short(stated)} is not the checked step's {_short(checked)}")
    listed = cert.get("premises")
    if not isinstance(listed, list):
        raise Mismatch(f"{where}.premises is not a list")
    steps = ctx.premises(s)
    # a verdict's block lists every premise its verdict is recomputed from, in the step's order: Theorem 1's (the FFN,
    # the heads, the structure, the group), of which VerdictPremises leaves out only the declared target's alternative
    # (TGT-ALTERNATIVE, which the verdict does not read) and DIM-RANGE (which turns it INCONCLUSIVE); a target
    # verdict's every premise. A block that left out another premise used to pass (only the listed ones were compared)
    kind = cert.get("kind")
    omissible = _VERDICT_OMISSIBLE if kind == "verdict-premises" else frozenset() if kind == "target-verdict" else None
    unbound, at = [], 0
    for k, entry in enumerate(listed):
        path = f"{where}.premises[{k}]"
        if not isinstance(entry, dict):
            raise Mismatch(f"{path} is not an object")
        while at < len(steps) and (steps[at]["rule"], steps[at]["status"]) != (entry.get("rule"), entry.get("status")):
            _omitted(steps[at], omissible, where)
            at += 1
        if at == len(steps):
            raise Mismatch(f"{path} ({_short(entry.get('rule'))}, {_short(entry.get('status'))}) is not one of the "
                           f"step's premises, in their order")
        step = steps[at]
        at += 1
        facts = entry.get("facts") or {}
        if not isinstance(facts, dict):
            raise Mismatch(f"{path}.facts is not an object")
        for key, value in facts.items():
            unbound.extend(_bind_value(ctx, f"{path}.facts.{key}", key, value, step))
    for step in steps[at:]:
        _omitted(step, omissible, where)
    return unbound


# the premises of VERDICT-T1 that its verdict-premises block does not list (rules/verdict.py, VerdictPremises); a
# PAT-NORMAL premise of dense heads (`full & full` read as `full`) is checked by itself, before every other step
_VERDICT_OMISSIBLE = frozenset({"TGT-ALTERNATIVE", "DIM-RANGE", "PAT-NORMAL"})


def _omitted(step: dict, omissible: Optional[frozenset], where: str) -> None:
    """A premise of the step that its block does not list: allowed only for the rules the block's kind leaves out
    (`omissible`; None: a block of another kind, which may list some premises only)."""
    if omissible is not None and step.get("rule") not in omissible:
        raise Mismatch(f"{where}.premises omits the step's premise {step.get('id')} ({_short(step.get('rule'))}, "
                       f"{_short(step.get('status'))})")


def _bind_mixed_row(ctx, s: dict, cert: dict, where: str) -> list[str]:
    """A mixed row (Lemma Q): every stated field is the evidence's `mixed row`, which the step's check re-derived;
    the block lists each point's keys in the order of `visible`, the evidence maps them by visible position."""
    row = (s.get("evidence") or {}).get("mixed row")
    if not isinstance(row, dict):
        raise Mismatch(f"{where}: a mixed-row block needs the evidence's mixed row")
    unbound = []
    for key, value in cert.items():
        if key in _META:
            continue
        if key not in row:
            unbound.append(f"{where}.{key}")
            continue
        want = row[key]
        if key in ("positive at", "negative at"):
            want = _keys_in_order(want, row.get("visible"))
        if value != want:
            raise Mismatch(f"{where}.{key} = {_short(value)} differs from the checked mixed row's {_short(row[key])}")
    return unbound


def _keys_in_order(point, visible) -> Any:
    if not isinstance(point, dict) or not isinstance(point.get("keys"), dict) or not isinstance(visible, list):
        return point
    keys = point["keys"]
    if set(keys) != {str(v) for v in visible}:
        return point
    return {**point, "keys": [keys[str(v)] for v in visible]}
