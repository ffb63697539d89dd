"""What an `OK` certifies, as typed data read off the fields the checks re-derived (docs/theory.md §18.1).

The top-level verdict, the summary's group (its name and, when stated, its order) and layer count are compared
with the steps that establish them (structure.check_top_level); a layer step's `least` flag and a target class's
alternative (its class, count, `least` and the first length of its closed form's range) are re-checked by those
steps' own checks. Nothing here is read from prose: a step's `claim`, `evidence` and `facts` are not certified.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import sympy
from sympy.printing.str import StrPrinter

from .structure import is_theorem1, root, slots
from .trees import TreeError, decode, decode_condition

LAYER_RULES = ("PAT-LAYERS", "SEQ-LAYERS", "SEQ-ALTERNATION-LAYERS", "SEQ-WINDOWS-LAYERS", "SEQ-GLOBALS-LAYERS",
               "SEQ-CYCLIC-LAYERS", "CONV-LAYERS", "BIAS-LAYERS")


@dataclass(frozen=True)
class Alternative:
    """UAP for a declared target class: the class, the count, whether it is least, and the range's first length."""
    target: str
    layers: sympy.Expr
    least: bool
    start: Optional[sympy.Expr]


@dataclass(frozen=True)
class Statement:
    verdict: str
    group: Optional[str] = None
    order: Optional[int] = None
    layers: Optional[sympy.Expr] = None
    least: Optional[bool] = None
    #: with `least` False: (L, residues), the classes of n mod L where the layer step's check re-derived the count as
    #: least (sufficient, not shown least, on the others); None: least nowhere in particular
    least_classes: Optional[tuple] = None
    by_class: bool = False  # the verdict step states residue classes or lengths beside its range
    target: Optional[str] = None  # a verdict for a declared target class (TGT-VERDICT)
    symbolic_n: bool = False  # the input's n is a name: each step states the lengths it holds for
    # the layer count by residue of n: (modulus, ((residues, count), ...)) when floors or ceilings of n make it periodic
    layers_by_residue: Optional[tuple] = None
    unit: str = "attention"  # what the count counts: "convolution" for the convolution mixer (CONV-LAYERS)
    alternatives: tuple[Alternative, ...] = ()
    where: Optional[str] = None  # the verdict's range of a symbolic n ("n ≥ 36"), or the concrete length ("n = 64")
    #: the other residue classes of n with their own verdict, as the verdict step's data lists them (re-checked by
    #: VERDICT-T1: each class's premise, its verdict, the range's exclusion of it, and its condition exactly on its
    #: classes, verifier/class_entries.py): ((verdict, condition), ...)
    others: tuple = ()
    #: the lengths below the range with their verdicts ("UAP at n = 1…7"), re-checked by VERDICT-T1 at each length
    below: Optional[str] = None
    layers_text: Optional[str] = None  # the count as the headline writes it (⌊n/2⌋ + 1), beside its pieces by class
    #: proved TGT-ALTERNATIVE steps left out of `alternatives`: a step they rest on was not re-checked (trusted)
    unchecked_alternatives: int = 0


def _decoded(tree, ctx) -> Optional[sympy.Expr]:
    try:
        value = decode(tree, ctx.symbols)
    except TreeError:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return sympy.Integer(value)
    return value if isinstance(value, sympy.Basic) else None


def certified(ctx, outcomes: Optional[dict] = None) -> Statement:
    """The statement of a certificate that verified; read only after `structure.check_top_level` found no problem.
    `outcomes`: each step's outcome (id -> verified, checked numerically, trusted); an alternative class is stated only
    when its step and every step it rests on were re-checked (a NOT-UAP verdict rests on its obstruction alone, so the
    alternative's steps may be trusted)."""
    verdict = ctx.cert["verdict"]
    alternatives = tuple(_alternatives(ctx, outcomes))
    skipped = len(_alternatives(ctx)) - len(alternatives)
    r = root(ctx)
    symbolic_n = not isinstance(ctx.spec.tokens, int)
    where = _where(ctx, r)
    others, below = _others(ctx, r), _below(r)
    if verdict != "UAP":
        target = (r.get("data") or {}).get("target") if r["rule"] == "TGT-VERDICT" else None
        return Statement(verdict, alternatives=alternatives, symbolic_n=symbolic_n, where=where, others=others,
                         below=below, target=target if isinstance(target, str) else None,
                         unchecked_alternatives=skipped)
    g = ctx.cert.get("group") if isinstance(ctx.cert.get("group"), dict) else {}
    order = g.get("order") if isinstance(g.get("order"), int) and not isinstance(g.get("order"), bool) else None
    layers = _decoded(ctx.cert.get("layers"), ctx) if ctx.cert.get("layers") is not None else None
    least, target, unit, least_classes = None, None, "attention", None
    if r["rule"] == "TGT-VERDICT":
        target, least = _target_class(ctx, r)
    elif is_theorem1(ctx):
        _, _, rest, _ = slots(ctx)
        steps = [s for s in rest if s["rule"] in LAYER_RULES]
        if any(s["rule"] == "CONV-LAYERS" for s in steps):
            unit = "convolution"
        if steps:
            flag = (steps[-1].get("data") or {}).get("least")
            least = flag if isinstance(flag, bool) else None
            if least is False:  # least on some classes: those the step's own check re-derived, not its data's
                least_classes = ctx.least_classes.get(steps[-1]["id"])
        elif layers is not None and layers == 1:
            least = True  # one layer, and no family has fewer
        elif any(ctx.steps[p]["rule"] == "TD-MEANS" for p in ctx.steps):
            least = False  # Lemma M's two layers (§20.9): sufficient, not shown least
    data = r.get("data") or {}
    classes = data.get("classes") or []
    stated = [c for c in (classes if isinstance(classes, list) else []) if isinstance(c, dict) and c.get("verdict") is not None]
    # residue classes or lengths the line below does not state (each class with its verdict, and the lengths, are)
    by_class = len(others) < len(stated) or (bool(data.get("lengths")) and below is None)
    return Statement(verdict, g.get("name") if isinstance(g.get("name"), str) else None, order, layers, least,
                     least_classes, by_class, target, symbolic_n, layers_by_residue=by_residue(layers, ctx),
                     unit=unit, alternatives=alternatives, where=where, others=others, below=below,
                     layers_text=condition_words(layers) if layers is not None else None,
                     unchecked_alternatives=skipped)


def _others(ctx, r) -> tuple:
    """(verdict, condition in words) for each class the verdict step's data lists with its own verdict."""
    out = []
    classes = (r.get("data") or {}).get("classes") or []
    for c in classes if isinstance(classes, list) else []:
        if not isinstance(c, dict):
            continue
        if c.get("verdict") not in ("UAP", "NOT-UAP", "INCONCLUSIVE", "ILL-POSED") or c.get("condition") is None:
            continue
        try:
            cond = decode_condition(c["condition"], ctx.symbols)
        except (TreeError, TypeError, KeyError):
            continue
        out.append((c["verdict"], condition_words(cond)))
    return tuple(out)


def _below(r) -> Optional[str]:
    """"UAP at n = 1…7; NOT-UAP at n = 8": the lengths below the range the verdict step lists, with their verdicts."""
    data = r.get("data") or {}
    # VERDICT-T1's lengths; TGT-VERDICT's below its range (re-checked by its check, or the step is trusted)
    listed = data.get("lengths") or (data.get("below_range") if r["rule"] == "TGT-VERDICT" else None) or []
    if not isinstance(listed, list):
        return None
    groups: dict = {}
    for x in listed:
        if not isinstance(x, dict) or not isinstance(x.get("n"), int):
            return None
        key = x.get("verdict") if x.get("verdict") in ("UAP", "NOT-UAP", "INCONCLUSIVE", "ILL-POSED") \
            else "not a length the file allows" if x.get("allowed") is False else "not decided"
        groups.setdefault(key, []).append(x["n"])
    return "; ".join(f"{key} at n = {_runs(ns)}" for key, ns in groups.items()) or None


def _runs(values: list) -> str:
    out, start = [], None
    for k, v in enumerate(values):
        start = v if start is None else start
        if k + 1 == len(values) or values[k + 1] != v + 1:
            out.append(str(v) if v == start else f"{start}…{v}" if v > start + 1 else f"{start}, {v}")
            start = None
    return ", ".join(out)


class _Words(StrPrinter):
    """Conditions and counts as the headline writes them: n ≥ 8, n mod 4 ∈ {1, 2}, ⌊n/2⌋ + 1."""

    def _print_floor(self, e):
        return f"⌊{self._print(e.args[0])}⌋"

    def _print_ceiling(self, e):
        return f"⌈{self._print(e.args[0])}⌉"

    def _print_Mod(self, e):
        return f"{self._print(e.args[0])} mod {self._print(e.args[1])}"

    def _print_Relational(self, e):
        op = {">=": "≥", "<=": "≤", ">": ">", "<": "<", "==": "=", "!=": "≠"}.get(e.rel_op, e.rel_op)
        return f"{self._print(e.lhs)} {op} {self._print(e.rhs)}"

    def _print_And(self, e):
        return " and ".join(self._part(a) for a in e.args)

    def _print_Or(self, e):
        eqs = [a for a in e.args if isinstance(a, sympy.Eq) and isinstance(a.lhs, sympy.Mod) and a.rhs.is_Integer]
        if len(eqs) == len(e.args) and len({a.lhs for a in eqs}) == 1:
            residues = sorted(int(a.rhs) for a in eqs)
            return f"{self._print(eqs[0].lhs)} ∈ {{{', '.join(map(str, residues))}}}"
        return " or ".join(self._part(a) for a in e.args)

    def _part(self, a) -> str:
        text = self._print(a)
        return f"({text})" if isinstance(a, (sympy.And, sympy.Or)) and not text.startswith(("n mod", "k mod")) \
            and " ∈ " not in text else text


def condition_words(cond) -> str:
    """A condition or a count in the headline's words (the verifier's own printer)."""
    return _Words().doprint(cond).replace("*", "·")



def _where(ctx, r) -> Optional[str]:
    """The lengths the verdict holds for: a concrete n, or the verdict step's range of a symbolic n (re-checked by
    VERDICT-T1 against its premises' starts and, for NOT-UAP, at its first lengths)."""
    if isinstance(ctx.spec.tokens, int):
        return f"n = {ctx.spec.tokens:,}"
    tree = (r.get("data") or {}).get("range")
    if tree is None:
        return None
    if r["rule"] == "TGT-VERDICT" and ctx.cert.get("verdict") == "NOT-UAP":  # the group route's own range
        starts = [(p.get("data") or {}).get("from") for p in ctx.premises(r) if p["rule"] == "TGT-NOT-CAUSAL"]
        if len(starts) != 1 or starts[0] is None:
            return None
        try:
            low = decode(starts[0], ctx.symbols)
        except TreeError:
            return None
        return condition_words(sympy.Ge(ctx.symbols[ctx.spec.tokens], low))
    if r["rule"] == "TGT-VERDICT":  # a target class's range is its words, "n ≥ 5" (TGT-VERDICT re-checks its start)
        import re
        found = re.fullmatch(r"n ≥ (\d+)", tree) if isinstance(tree, str) else None
        return f"n ≥ {found.group(1)}" if found else None
    try:
        cond = decode_condition(tree, ctx.symbols)
    except (TreeError, TypeError):
        return None
    return condition_words(cond)


MAX_MODULUS = 64


def by_residue(layers, ctx) -> Optional[tuple]:
    """(M, ((residues, count), ...)) when the count has floors or ceilings of n with denominators whose lcm M is at
    most MAX_MODULUS: on n = M·k + r each floor is exact, so the count is a polynomial in k there, written back in n
    (residues with the same count merged); None otherwise."""
    n = ctx.symbols.get(ctx.spec.tokens) if isinstance(ctx.spec.tokens, str) else None
    if layers is None or n is None:
        return None
    rounded = [a for a in layers.atoms(sympy.floor, sympy.ceiling) if a.has(n)]
    if not rounded:
        return None
    modulus = 1
    for a in rounded:
        coeff = sympy.Poly(a.args[0], n).coeff_monomial(n) if a.args[0].is_polynomial(n) else None
        if coeff is None or not coeff.is_Rational:
            return None
        modulus = sympy.ilcm(modulus, coeff.q)
    if modulus > MAX_MODULUS or modulus == 1:
        return None
    k = sympy.Dummy("k", integer=True, nonnegative=True)
    groups: dict = {}
    for r in range(modulus):
        at = sympy.simplify(layers.xreplace({n: modulus * k + r}))
        if at.has(sympy.floor, sympy.ceiling):
            return None
        groups.setdefault(sympy.expand(at.xreplace({k: (n - r) / modulus})), []).append(r)
    return modulus, tuple((tuple(rs), value) for value, rs in groups.items())



def _target_class(ctx, r) -> tuple[Optional[str], Optional[bool]]:
    """The class of TGT-VERDICT's TGT-RECEPTIVE premise and its TGT-LAYERS premise's `least` flag."""
    prem = {p["rule"]: p for p in ctx.premises(r)}
    target = ((prem.get("TGT-RECEPTIVE") or {}).get("data") or {}).get("target")
    least = ((prem.get("TGT-LAYERS") or {}).get("data") or {}).get("least")
    if "TGT-PLAIN" in prem:  # the plain UAP (§14.9): TGT-PLAIN checks the trivial group and the count
        target, least = "causal", ((prem["TGT-PLAIN"].get("data") or {}).get("least"))
    if "SEQ-CAUSAL-LAYERS" in prem:  # per-layer causal patterns (§21.5): SEQ-CAUSAL-REACH checks the causal class
        target, least = "causal", ((prem["SEQ-CAUSAL-LAYERS"].get("data") or {}).get("least"))
    if "SEQ-CAUSAL-INTERVALS" in prem:  # per-layer interval heads (§21.6): the step checks the causal class itself
        target, least = "causal", ((prem["SEQ-CAUSAL-INTERVALS"].get("data") or {}).get("least"))
    if "SEQ-CAUSAL-FORM" in prem:  # the same at a symbolic n (§21.8)
        target, least = "causal", ((prem["SEQ-CAUSAL-FORM"].get("data") or {}).get("least"))
    if "SEQ-CAUSAL-SINKS" in prem:  # heads with attention sinks (§21.9)
        target, least = "causal", ((prem["SEQ-CAUSAL-SINKS"].get("data") or {}).get("least"))
    if "SEQ-CAUSAL-CHUNKS" in prem:  # chunked layers with the full causal mask (§21.11)
        target, least = "causal", ((prem["SEQ-CAUSAL-CHUNKS"].get("data") or {}).get("least"))
    return (target if isinstance(target, str) else None), (least if isinstance(least, bool) else None)


def _rechecked(ctx, sid: str, outcomes: Optional[dict]) -> bool:
    """The step and its premises, transitively, verified or checked numerically."""
    if outcomes is None:
        return True
    seen, todo = set(), [sid]
    while todo:
        x = todo.pop()
        if x in seen:
            continue
        seen.add(x)
        if outcomes.get(x) not in ("verified", "checked numerically"):
            return False
        todo.extend(ctx.steps[x]["premises"])
    return True


def _alternatives(ctx, outcomes: Optional[dict] = None) -> list[Alternative]:
    out = []
    for sid in ctx.order:
        s = ctx.steps[sid]
        if s["rule"] != "TGT-ALTERNATIVE" or s["status"] != "proved" or not _rechecked(ctx, sid, outcomes):
            continue
        data = s.get("data") or {}
        layers = _decoded(data.get("layers"), ctx)
        lay = [p for p in ctx.premises(s) if p["rule"] == "TGT-LAYERS"]
        start = (lay[0].get("data") or {}).get("from") if lay else None
        if layers is None or not isinstance(data.get("target"), str):
            continue
        out.append(Alternative(data["target"], layers, bool(data.get("least")),
                               _decoded(start, ctx) if start is not None else None))
    return out

