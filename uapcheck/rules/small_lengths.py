"""The lengths below a verdict's stated range, each decided by the concrete engine (docs/theory.md §12).

A verdict by residue class of n is stated for a range (n ≥ 13, or n ≥ 3 and n odd beside NOT-UAP for n ≥ 3
and n even): its closed forms do not hold below it. The lengths 1 ≤ n that no stated class covers are finitely
many when every condition is a lower bound on n and a function of n mod integers (coverage is periodic from the
largest bound on); each of them, up to `TOP`, is decided by the derivation at that integer n — the concrete
engine, exact at small n — and stated with the verdict as typed data (`LengthVerdict`). A length whose file is
refused at that n (a pattern size above n) is not a length the file allows; one whose derivation runs out of its
budget, or above `TOP`, is stated as not decided. When a condition depends on a parameter (n ≥ 2·w + 3) or has no
formula, the lengths below the range are not enumerable, and the verdict says so (`open_below`).
"""
from __future__ import annotations

import contextvars
import dataclasses
from dataclasses import dataclass
from math import lcm
from typing import Any, Optional

import sympy

from .. import proof
from .. import spec as S
from ..memo import exact_cache

#: The largest length decided below a range (the lengths above it, if any, are stated as not decided). For one
#: symmetric head the count at each length is read first off a swap witness or Theorem F111's far-adjacency table
#: (rules/pattern.py, graphs/far_view_least.py), without canonical forms, which keeps the lengths up to 128 cheap.
TOP = 128
#: the most lengths `uncovered` reads to find the lengths below a range (its largest constant plus the period of
#: its classes); beyond, the lengths are not listed (the verdict's range is stated alone)
LISTED_LIMIT = 100_000
#: The lengths below a range are decided in increasing order (at most TOP of them) while their work fits: a length n
#: is charged LENGTH_BASE_WORK + n·(n + A), A the heads' arcs at n (graphs/build's estimate; n² for a complete
#: head), about its derivation's rule steps and its rooted views (one per orbit, each reading the arcs); from the
#: first length that would take the total past LENGTHS_WORK on, the lengths are stated as not decided. Counts of the
#: file's own sizes, so the lengths listed are the same on every machine (a CPU clock of 20 s decided it before; the
#: catalog's lengths take at most about 1 s here).
LENGTH_BASE_WORK = 100_000
LENGTHS_WORK = 400_000_000
#: CPU seconds for each length's derivation: a backstop only, far above what its work bounds let it take (its graph
#: steps count their work; a derivation that still runs out is stated as not decided, naming BUDGET).
EACH_SECONDS = 30.0
#: Off while the suggestion search derives edited files (only their verdict for the range is read there).
#: The steps whose `least` fact is a length's count's (attention patterns, per-layer patterns, convolution mixers).
LAYER_RULES = ("PAT-LAYERS", "SEQ-LAYERS", "CONV-LAYERS")
ENABLED: contextvars.ContextVar[bool] = contextvars.ContextVar("lengths below the range", default=True)
#: True while a length below a range is derived: that derivation's steps are read for their facts only (the
#: verdict, the count, whether it is least; `decide`), never printed, so the rooted-view test there answers
#: without the per-orbit digests of its evidence (graphs/views.py, `certificate=False`: the same answer).
FACTS_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar("a length below the range", default=False)
#: True while a length above TOP is derived (`above_top`): there the count is a family theorem's where it states the
#: least one at that n, the rooted views' where G is transitive (one root to read), and otherwise D + 1, sufficient
#: (rules/pattern.py, `_above_top_count`): the rooted views are not run over the many root orbits of a length that
#: large.
ABOVE_TOP: contextvars.ContextVar[bool] = contextvars.ContextVar("a length above TOP", default=False)


#: the groups named with the length as their subscript (S_n; S_N in a file whose length is N, render/spoken.py)
AT_LENGTH_NAMES = ("S", "C", "D")


@dataclass(frozen=True)
class LengthVerdict:
    """The verdict at one length n below the stated range: `verdict` None when it was not decided (`why`)
    or when the file does not allow that n (`allowed` False); `group` and `layers` for UAP; `least` whether the
    count is the least one."""

    n: int
    verdict: Optional[proof.Verdict]
    group: Any = None  # GroupInfo at that n
    layers: Optional[int] = None
    least: Optional[bool] = None
    allowed: bool = True
    why: str = ""
    symbol: str = "n"  # the file's name for the length (`tokens N`), in the words only

    @property
    def group_name(self) -> Optional[str]:
        """The group's name at this length: a name the engines give for every n (S_n, C_n, D_n) read at the value
        (S_2 at n = 2), so no statement at a concrete length reads in the length's name (docs/theory.md §12)."""
        name = self.group.name if self.group is not None else None
        named = {f"{kind}_{length}" for kind in AT_LENGTH_NAMES for length in {"n", self.symbol}}
        return f"{name[:2]}{self.n}" if name in named else name

    def to_json(self) -> dict:
        from ..bignum import json_order
        g = self.group
        return {"n": self.n, "verdict": self.verdict.value if self.verdict is not None else None,
                "group": None if g is None else {"name": self.group_name, "order": json_order(g.order_value)},
                "layers": self.layers, "least": self.least, "allowed": self.allowed, "why": self.why or None}

    def words(self) -> str:
        n = self.symbol
        if not self.allowed:
            return f"{n} = {self.n}: not a length the file allows ({self.why})"
        if self.verdict is None:
            return f"{n} = {self.n}: not decided ({self.why})"
        if self.verdict is proof.Verdict.UAP:
            from ..bignum import show_order
            name = self.group_name if self.group is not None and self.group.name else \
                f"a group of order {show_order(self.group.order)}" if self.group is not None else "?"
            least = "" if self.least is None else (", least" if self.least else ", sufficient")
            return f"{n} = {self.n}: UAP · G = {name} · {self.layers} layer{'' if self.layers == 1 else 's'}{least}"
        return f"{n} = {self.n}: {self.verdict.value}"


def _bounds(cond, n) -> Optional[list]:
    """The integer constants c of the relations of `cond`: each is a·n + c ⋈ 0 with integers a, c (its truth
    changes only at n = −c/a, |c/a| ≤ |c|) or a relation between Mods of n and integers; None for any other
    relation (another symbol, a rational slope such as n/10 ≠ 2, ⌊n/2⌋ ≥ 3: their thresholds are not bounded by
    the constants, so coverage would not be periodic from the largest one on)."""
    out = []
    for rel in cond.atoms(sympy.Rel):
        if rel.free_symbols - {n}:
            return None
        diff = sympy.expand(rel.lhs - rel.rhs)
        mods = [a for a in diff.atoms(sympy.Mod) if n in a.free_symbols]
        if mods:
            if n in diff.xreplace({m: sympy.Dummy() for m in mods}).free_symbols:
                return None  # n outside its Mods
            out += [int(side) for side in (rel.lhs, rel.rhs) if side.is_Integer]
            continue
        if not diff.is_polynomial(n) or sympy.degree(diff, n) > 1 or \
                not all(c.is_Integer for c in sympy.Poly(diff, n).all_coeffs()):
            return None
        out.append(int(diff.coeff(n, 0)))
    return out


def _moduli(cond, n) -> Optional[list]:
    out = []
    for atom in cond.atoms(sympy.Mod):
        if n not in atom.free_symbols:
            continue
        if not atom.args[1].is_Integer:
            return None
        out.append(int(atom.args[1]))
    return out


def _holds(cond, n, value: int) -> Optional[bool]:
    got = cond.xreplace({n: sympy.Integer(value)}) if isinstance(cond, sympy.Basic) else cond
    return True if got is sympy.true else False if got is sympy.false else None


@exact_cache()
def uncovered(conditions, n) -> Optional[list[int]]:
    """The lengths n ≥ 1 at which none of `conditions` holds (conditions on n alone: relations with integers and
    linear Mods of n), when they are finitely many; None otherwise. Coverage is periodic with period L (the lcm
    of the moduli) from the largest constant B on, so it is decided by the lengths up to B + L. A function of its
    arguments alone (each length is substituted into the conditions), kept per process (uapcheck/memo.py): the
    derivation asks it for its range and the verdict's certificate check asks it again of the same conditions."""
    if not isinstance(n, sympy.Symbol) or any(not isinstance(c, sympy.Basic) for c in conditions):
        return None
    consts, moduli = [1], [1]
    for c in conditions:
        b, m = _bounds(c, n), _moduli(c, n)
        if b is None or m is None:
            return None
        consts += b
        moduli += m
    start, period = max(abs(c) for c in consts) + 1, lcm(*moduli)
    if start + period > LISTED_LIMIT:
        return None  # too many lengths to list (`offsets {1, 1000000000} cyclic` holds from n = 10¹⁸ + 1 on)
    out = []
    for value in range(1, start + period):
        held = [_holds(c, n, value) for c in conditions]
        if any(h is None for h in held):
            return None
        if not any(held):
            out.append(value)
    if any(v >= start for v in out):
        return None  # a whole class is never covered
    return out


def _with_length(node, name: str, value: int):
    """A position term (or any part of one) with the length's name, where a formula reads it (`reweight n - 2 * j`),
    replaced by the number `value`."""
    if isinstance(node, S.PositionTerm) and name in node.names:
        return node  # the formula's own position names it: not the length
    if isinstance(node, S.Name) and node.id == name:
        return S.Num(sympy.Rational(value), node.loc)
    if isinstance(node, tuple):
        return tuple(_with_length(x, name, value) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: _with_length(getattr(node, f.name), name, value) for f in dataclasses.fields(node)
                   if f.init and f.name != "loc"}
        return dataclasses.replace(node, **changes)
    return node


def _concrete(spec: S.Spec, value: int) -> S.Spec:
    """The file at the integer length `value`: the symbolic name replaced wherever it stands for a size."""
    values = {spec.tokens: value}
    heads = tuple(dataclasses.replace(h, pattern=S.resolve_sizes(h.pattern, values),
                                      position=_with_length(h.position, str(spec.tokens), value)) for h in spec.heads)
    layers = value if spec.layers == spec.tokens else spec.layers
    return dataclasses.replace(spec, tokens=value, heads=heads, layers=layers, expect=None)


#: The pattern sizes that count positions, which the parser refuses above `tokens N` (parse._COUNTS_POSITIONS).
_COUNTS = ((S.Global, "g", "global pattern size"), (S.Sinks, "k", "number of sinks"),
           (S.RandomPattern, "r", "random pattern count"))


def refused_at(pattern, value: int) -> Optional[str]:
    """Why the file is refused at `tokens value` (a size that counts positions above it), as the parser words it;
    None when it is allowed. A `blockwise` pattern's sizes count blocks, not positions: not walked. With the
    params at their lower bounds, a count above `value` means no value the file allows is at most n."""
    if isinstance(pattern, S.Blockwise):
        return None
    for kind, field, what in _COUNTS:
        size = getattr(pattern, field, None) if isinstance(pattern, kind) else None
        if isinstance(size, int) and abs(size) > value:
            return f"{what} {size} exceeds `tokens {value}`"
    if dataclasses.is_dataclass(pattern) and not isinstance(pattern, type):
        for f in dataclasses.fields(pattern):
            parts = getattr(pattern, f.name)
            for part in parts if isinstance(parts, tuple) else (parts,):
                why = refused_at(part, value) if dataclasses.is_dataclass(part) else None
                if why is not None:
                    return why
    return None


def length_work(spec: S.Spec, value: int) -> int:
    """The work a length is charged (LENGTH_BASE_WORK + n·(n + A), A the heads' arcs at n = ``value``)."""
    from ..graphs.build import _contains_full, _estimate
    at = {p.name: max(p.lower or 1, 1) for p in spec.params if p.constraint == "integer"}
    arcs = 0
    for h in spec.heads:
        pattern = S.resolve_sizes(h.pattern, {**at, spec.tokens: value})
        try:
            arcs += value * value if _contains_full(pattern) else min(value * value, _estimate(pattern, value, at))
        except (TypeError, ValueError, KeyError):
            arcs += value * value  # a kind the estimate does not read: charged as complete
    return LENGTH_BASE_WORK + value * (value + arcs)


class LengthsWork:
    """The work charged to the lengths decided so far, against LENGTHS_WORK: once a length does not fit, no later
    one is decided."""

    def __init__(self, spec: S.Spec):
        self.spec = spec
        self.spent = 0
        self.stopped = ""

    def admit(self, value: int) -> Optional[str]:
        """None when the length at n = ``value`` fits (and is charged); why it is not decided otherwise."""
        if not self.stopped:
            cost = length_work(self.spec, value)
            if self.spent + cost <= LENGTHS_WORK:
                self.spent += cost
                return None
            self.stopped = (f"the lengths below the range may take {LENGTHS_WORK:,} units of work in all "
                            f"(small_lengths.LENGTHS_WORK; a length n charged {LENGTH_BASE_WORK:,} + n·(n + its heads' "
                            f"arcs)), which n = {value} would pass")
        return self.stopped


def above_top(spec: S.Spec) -> Optional[int]:
    """The first length from which the lengths above TOP below the range are still derived, or None (they are stated
    as not decided): Theorem F205's range max(s(3w + 2), 20w) for one unbiased head `window(w) cyclic + strided(s)`,
    2 ≤ s ≤ w, without a layer budget or a positional encoding (docs/theory.md §11.11): the group there is F205's, D = 2
    (Theorem F197), so each length costs one graph, its group and its diameter, and the count is F224's (3, least) on
    its classes, the rooted views' when s | n (G = D_n, one root) and D + 1 = 3, sufficient, on the others. Up to
    F226's N₁ (`window(5) cyclic + strided(3)`: 216), from which F226 states the range itself."""
    from ..graphs.symbolic_unions import cyclic_dense_stride_low, cyclic_dense_stride_params
    if len(spec.heads) != 1 or spec.layers is not None or spec.positional != "none" or spec.target != "equivariant":
        return None
    head = spec.heads[0]
    found = cyclic_dense_stride_params(head.pattern)
    if found is None or head.bias or head.position is not None:
        return None
    return cyclic_dense_stride_low(*found)


def decide(spec: S.Spec, lengths: list[int]) -> tuple[tuple[LengthVerdict, Optional[proof.Step]], ...]:
    """(the verdict at each length, the root step of its derivation or None), by the derivation at that n."""
    from ..budget import FileBudgetExceeded, share
    from ..derive import check_spec
    from ..errors import UapError
    out: list = []
    work = LengthsWork(spec)
    stated_from = above_top(spec) if any(v > TOP for v in lengths) else None
    for value in lengths:
        if value > TOP and (stated_from is None or value < stated_from):
            out.append((LengthVerdict(value, None, why=f"above n = {TOP}"), None))
            continue
        at = {p.name: max(p.lower or 1, 1) for p in spec.params if p.constraint == "integer"}  # a count's least value
        reasons = (refused_at(S.resolve_sizes(h.pattern, {**at, spec.tokens: value}), value) for h in spec.heads)
        refused = next((r for r in reasons if r is not None), None)
        if refused is not None:  # the file at `tokens value` is refused, as the parser refuses it
            out.append((LengthVerdict(value, None, allowed=False, why=refused), None))
            continue
        stopped = work.admit(value)
        if stopped is not None:
            out.append((LengthVerdict(value, None, why=stopped), None))
            continue
        try:
            token, above = FACTS_ONLY.set(True), ABOVE_TOP.set(value > TOP)
            try:
                result = check_spec(_concrete(spec, value), share(EACH_SECONDS))
            finally:
                ABOVE_TOP.reset(above)
                FACTS_ONLY.reset(token)
        except UapError as exc:
            out.append((LengthVerdict(value, None, allowed=False, why=exc.message), None))
            continue
        except FileBudgetExceeded:
            raise  # the file's own budget: reported by the caller's check_spec
        except (ValueError, KeyError, TypeError) as exc:
            out.append((LengthVerdict(value, None, allowed=False, why=str(exc)), None))
            continue
        root = result.root
        if root.rule != "VERDICT-T1":
            out.append((LengthVerdict(value, None, why=f"its derivation ends in {root.rule}"), None))
            continue
        verdict = proof.Verdict(result.verdict)
        layers = result.layers if isinstance(result.layers, int) else None
        least = next((bool(s.facts.get("least")) for s in root.walk() if s.rule in LAYER_RULES and s.proved), None)
        out.append((LengthVerdict(value, verdict, result.group if verdict is proof.Verdict.UAP else None,
                                  layers if verdict is proof.Verdict.UAP else None,
                                  least if verdict is proof.Verdict.UAP else None), root))
    return tuple((dataclasses.replace(r, symbol=str(spec.tokens)), root) for r, root in out)


def applies(spec: S.Spec, verdict: proof.Verdict, group, layers, class_conditions) -> bool:
    """A UAP verdict at symbolic n stated by residue class (its group, its count, its range or another class's
    verdict depends on n mod L: docs/theory.md §11.4, §12), or for a range in n alone (n ≥ 23)."""
    from .residue_classes import pieces_by_residue
    if not isinstance(spec.tokens, str) or verdict is not proof.Verdict.UAP or group is None or spec.target != "equivariant":
        return False
    n = sympy.Symbol(spec.tokens, integer=True, positive=True)
    where = _in_n(getattr(group, "condition_formula", None), n)
    return bool(group.classes or class_conditions or pieces_by_residue(layers, n) is not None
                or (isinstance(where, sympy.Basic) and (any(n in a.free_symbols for a in where.atoms(sympy.Mod))
                                                        or where.free_symbols == {n})))


def below_range(spec: S.Spec, verdict: proof.Verdict, group, layers, class_conditions, obstruction_range=None
                ) -> tuple:
    """(the lengths below the range with their verdicts and derivations, or (), and why they are not enumerable
    when they are not: "" otherwise). `obstruction_range`: for NOT-UAP, the range of the obstruction that decides
    it (n ≥ 3), whose lengths below are listed the same way when it is a condition on n alone."""
    if not ENABLED.get():
        return (), ""
    if verdict in (proof.Verdict.NOT_UAP, proof.Verdict.ILL_POSED):  # ILL-POSED from a first length on (§4, §12)
        return _below_obstruction(spec, obstruction_range, class_conditions)
    if not applies(spec, verdict, group, layers, class_conditions):
        return (), ""
    n = sympy.Symbol(spec.tokens, integer=True, positive=True)
    where = _in_n(getattr(group, "condition_formula", None), n)
    if where is None and group.condition:
        return (), f"the range {group.condition} has no formula"
    conditions = [sympy.true if where is None else where, *class_conditions]
    lengths = uncovered(conditions, n)
    if lengths is None:
        return (), not_enumerated(conditions, n)
    return decide(spec, lengths), ""


def not_enumerated(conditions, n) -> str:
    """Why `uncovered` found no finite list: another symbol than n in a condition (a parameter), a relation whose
    truth is not periodic past its constants, or residue classes of n that no condition covers at any length (the
    verdict is stated on the others only: it says nothing of these)."""
    if any(not isinstance(c, sympy.Basic) or c.free_symbols - {n} for c in conditions):
        return "the range depends on the parameters"
    consts, moduli = [1], [1]
    for c in conditions:
        b, m = _bounds(c, n), _moduli(c, n)
        if b is None or m is None:
            return "the range is not a bound on n with residues of n"
        consts += b
        moduli += m
    start, period = max(abs(c) for c in consts) + 1, lcm(*moduli)
    if start + period > LISTED_LIMIT:
        return (f"the range leaves more than {LISTED_LIMIT:,} lengths to read below it or in its classes: they are "
                "not listed one by one")
    held = [[_holds(c, n, start + (r - start) % period) for c in conditions] for r in range(period)]
    never = [r for r, row in enumerate(held) if not any(row)]
    if not never or any(h is None for row in held for h in row):
        return "the range is not a bound on n with residues of n"
    among = f"= {never[0]}" if len(never) == 1 else "∈ {" + ", ".join(map(str, never)) + "}"
    return (f"no stated range covers n mod {period} {among} at any length: the verdict is stated on the other "
            "classes only and says nothing of these")


def _in_n(where, n):
    """The condition with every symbol named as the length read as the length itself (a named group's range
    `n ≥ 3` is written with a plain Symbol)."""
    if not isinstance(where, sympy.Basic):
        return where
    return where.xreplace({x: n for x in where.free_symbols if isinstance(x, sympy.Symbol) and x.name == n.name})


def _below_obstruction(spec: S.Spec, where, class_conditions=()) -> tuple:
    """The lengths below a NOT-UAP verdict's range (the obstruction's) and the undecided classes stated beside it
    (`class_conditions`), each decided at that n; (), "" when the range is not a condition on the symbolic n alone
    (a parameter in it: not enumerable, said so)."""
    if not isinstance(spec.tokens, str) or spec.target != "equivariant" or not isinstance(where, sympy.Basic):
        return (), ""
    n = sympy.Symbol(spec.tokens, integer=True, positive=True)
    if where.free_symbols != {n}:
        return (), "the range depends on the parameters"
    lengths = uncovered([where, *class_conditions], n)
    if lengths is None:
        return (), "the range is not a bound on n with residues of n"
    return decide(spec, lengths), ""


def _runs(values: list[int]) -> str:
    """"1…3, 5": consecutive lengths as one run."""
    out, start = [], None
    for k, v in enumerate(values):
        if start is None:
            start = v
        if k + 1 == len(values) or values[k + 1] != v + 1:
            out.append(str(v) if v == start else f"{start}…{v}" if v > start + 1 else f"{start}, {v}")
            start = None
    return ", ".join(out)


def lengths_words(records) -> str:
    """"UAP at n = 1…12" or "UAP at n = 1; NOT-UAP at n = 2": each verdict at the lengths that have it (the
    lengths the file does not allow, and those not decided, named as such)."""
    groups: dict = {}
    for r in records:
        key = r.verdict.value if r.verdict is not None else ("not allowed" if not r.allowed else "not decided")
        groups.setdefault(key, []).append(r.n)
    n = records[0].symbol if records else "n"
    return "; ".join(f"{key} at {n} = {_runs(ns)}" for key, ns in groups.items())
