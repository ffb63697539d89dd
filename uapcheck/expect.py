"""The `expect` line of a file checked against its derivation: the verdict, the group (by name, order
or stabilizer, compared as groups when n is an integer and names coincide) and the layer count.
The catalog is a regression suite through these lines (tests/test_catalog.py)."""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Optional

import sympy

from . import spec as S
from .bignum import show_order
from .groups import MAX_CONCRETE, concrete_group, order_value, same_order, stabilizer_generators
from .show import show_expr
from .zero import is_zero


def _layers_value(expect: S.Expectation, spec: S.Spec):
    return _layers_of(expect.layers, spec)


def _layers_of(node, spec: S.Spec):
    """An `expect ... layers` expression as a SymPy value (the symbolic length and the params as Symbols)."""
    from .functions import LAYER_FUNCTIONS
    from .lower import param_symbol
    syms = {p.name: param_symbol(p) for p in spec.params}
    if isinstance(spec.tokens, str):
        syms[spec.tokens] = sympy.Symbol(spec.tokens, integer=True, positive=True)

    def go(node):
        if isinstance(node, S.Num):
            return node.value
        if isinstance(node, S.Name):
            return syms[node.id]
        if isinstance(node, S.Neg):
            return -go(node.operand)
        if isinstance(node, S.BinOp):
            l, r = go(node.left), go(node.right)
            if node.op == "/" and r == 0:  # `n / (n - n)`: zero for every n, a located input error
                from .errors import UapError
                raise UapError("division by zero", node.right.loc.line, node.right.loc.column)
            return {"+": l + r, "-": l - r, "*": l * r, "/": l / r}[node.op]
        if isinstance(node, S.Call):
            args = [go(x) for x in node.args]
            return LAYER_FUNCTIONS[node.fn].build(*args)
        raise ValueError(node)
    return go(node)


def _same_layers(derived, expected, n=None) -> Optional[bool]:
    """Whether the expected count is the derived one at every n (and parameter value): True when proved (equal as
    expressions, after writing each ⌈p/q⌉ as ⌊(p − 1)/q⌋ + 1, or, in n alone, equal on every residue class of n mod
    the period of their floors, reduced exactly); False when they differ (on a class, or at a point of the grid
    {2, …, 29} for each name); None when neither is shown (a grid can refute, never confirm)."""
    if derived is None:
        return False
    if isinstance(derived, int):
        return is_zero(expected - derived)
    if is_zero(derived - expected):
        return True
    diff = _floors_only(sympy.sympify(derived - expected, strict=True))  # safe: SymPy values, no text
    if is_zero(diff):
        return True
    if isinstance(n, sympy.Symbol) and diff.free_symbols <= {n}:
        same = _zero_on_every_class(diff, n)
        if same is not None:
            return same
    syms = sorted((derived.free_symbols | expected.free_symbols), key=str)
    for values in itertools.product(range(2, 30), repeat=len(syms)) if len(syms) <= 2 else []:
        sub = dict(zip(syms, values))
        if derived.xreplace(sub) != expected.xreplace(sub):
            return False
    return None


def _floors_only(expr):
    """⌈p/q⌉ written ⌊(p − 1)/q⌋ + 1 (p an integer-valued polynomial, q a positive one): equal for integers, so
    ceil((n − 1)/w) and floor((n − 2)/w) + 1 become one expression."""
    def rewrite(e):
        p, q = sympy.fraction(sympy.together(e.args[0]))
        if all(x.is_integer for x in (p, q)) and q.is_positive:
            return sympy.floor((p - 1) / q) + 1
        return e
    return sympy.expand(expr.replace(lambda e: isinstance(e, sympy.ceiling), rewrite))


def _zero_on_every_class(diff, n) -> Optional[bool]:
    """diff (in n alone, floors, ceilings and Mods of a·n + b with rational a, b) is 0 at every n ≥ 1: on each class
    n = P·k + r (P the lcm of what they need) every floor(a·n + b) is a·P·k + floor(a·r + b) exactly, and the rest a
    polynomial in k, zero for every k iff its expansion is 0. None when an atom is not of that form."""
    atoms = list(diff.atoms(sympy.floor, sympy.ceiling, sympy.Mod))
    period = 1
    for atom in atoms:
        arg = sympy.expand(atom.args[0])
        if arg.free_symbols - {n} or not arg.is_polynomial(n) or sympy.degree(arg, n) > 1:
            return None
        a = arg.coeff(n, 1)
        m = atom.args[1] if isinstance(atom, sympy.Mod) else sympy.Integer(1)
        if not (isinstance(a, sympy.Rational) and isinstance(m, sympy.Integer)):
            return None
        period = math.lcm(period, int(a.q) * int(m))
    k = sympy.Symbol("k", integer=True, nonnegative=True)
    for r in range(1, period + 1):
        at = diff.xreplace({n: period * k + r})
        reduced = at.replace(lambda e: isinstance(e, (sympy.floor, sympy.ceiling, sympy.Mod)) and k in e.free_symbols,
                             lambda e: _reduce(e, k))
        if k in reduced.atoms(sympy.floor, sympy.ceiling, sympy.Mod) or sympy.expand(reduced) != 0:
            return False
    return True


def _reduce(e, k):
    arg = sympy.expand(e.args[0])
    slope, rest = arg.coeff(k, 1), sympy.expand(arg - arg.coeff(k, 1) * k)
    if isinstance(e, sympy.Mod):
        return sympy.Mod(rest, e.args[1])  # slope·k is a multiple of the modulus by the choice of the period
    return slope * k + type(e)(rest)


def _same_concrete_group(spec: S.Spec, group, name: str, arg) -> bool:
    """With an integer n, named groups can coincide (D_3 = S_3, C_2 = S_2, ...): compare the groups
    themselves — equal orders and every expected generator inside the derived group."""
    n = spec.tokens
    if n == 1:
        return group.order in (1, "1")  # S_1 is the trivial group: every named group coincides
    if not isinstance(n, int) or n > MAX_CONCRETE or not group.generators:
        return False
    if any(isinstance(g, str) for g in group.generators):
        return False
    from sympy.combinatorics import Permutation, PermutationGroup
    derived = PermutationGroup([Permutation([x - 1 for x in g]) for g in group.generators])
    if name == "stabilizer":
        gens = [list(g) for g in stabilizer_generators(n, arg)]
        expected_order = math.factorial(n - 1)
    else:
        want = concrete_group(name, n)
        gens = [list(g) for g in want.generators]
        assert isinstance(want.order, int)  # n ≤ MAX_CONCRETE: the order is computed
        expected_order = want.order
    known = order_value(group.order)
    if known is not None and known != expected_order:
        return False  # compare the known orders first: building the group can take minutes
    if derived.order() != expected_order:
        return False
    return all(derived.contains(Permutation([x - 1 for x in g])) for g in gens)


def _stabilizer_structure(spec: S.Spec, k: int) -> Optional[str]:
    """The stabilizer of k named by structure ("S_(n − 1) on {2, …, n}"), as the family theorems name it."""
    from .graphs.families import stabilizer_name
    n = sympy.Integer(spec.tokens) if isinstance(spec.tokens, int) else sympy.Symbol(spec.tokens)
    return stabilizer_name(int(k), n)


def _group_mismatch(spec: S.Spec, group, name: str, arg: Optional[int]) -> str:
    """Why the derived group is not the expected one ("" when it is)."""
    if group is None:
        return "no group derived"
    if group.classes:
        # G depends on n mod L (docs/language.md, `expect`): one name holds only if every class has that group
        return f"expected group {name if arg is None else f'{name} {arg}'}, derived G = {group.name} (G depends on n mod " \
               f"{group.classes[0].modulus})"
    if name == "order":
        assert arg is not None  # the parser requires `order N`
        if not same_order(group.order, arg):
            return f"expected a group of order {arg}, derived order {show_order(group.order)}"
    elif name == "stabilizer":
        assert arg is not None  # the parser requires `stabilizer K`
        if group.name not in (f"stabilizer {arg}", _stabilizer_structure(spec, arg)) and \
                not _same_concrete_group(spec, group, name, arg):
            return f"expected stabilizer {arg}, derived {group.name}"
    elif group.name != name and not _same_concrete_group(spec, group, name, arg):
        return f"expected group {name}, derived {group.name} (order {show_order(group.order)})"
    return ""


def _classes_mismatch(spec: S.Spec, group, ex: S.Expectation) -> str:
    """`group A if n mod L = r, …, else B`: residue by residue of n mod lcm(L, L'), the expected group is the
    derived one (L' the derived classes' modulus; a derived group without classes is the same in every class), on
    every class where the expected verdict is UAP (a class expected with another verdict has no group to compare;
    its verdict is compared by `_verdict_classes_mismatch`)."""
    if group is None:
        return "no group derived"
    modulus = ex.group_classes[0][0]
    derived = group.classes[0].modulus if group.classes else 1
    both = math.lcm(modulus, derived, *(m for m, _, _ in ex.verdict_classes))
    for r in range(both):
        if any(r % m in rs for m, rs, _ in ex.verdict_classes):
            continue  # another verdict expected there: no group
        want = next((g for m, residues, g in ex.group_classes if r % m in residues), ex.group)
        assert want is not None  # the parser requires the `else` group
        have = next((c.group for c in group.classes if r % c.modulus in c.residues), None) if group.classes else \
            group
        mismatch = _group_mismatch(spec, have, *want)
        if mismatch:
            return f"for n mod {both} = {r}: {mismatch}"
    return ""


VERDICTS = {"uap": "UAP", "not-uap": "NOT-UAP", "inconclusive": "INCONCLUSIVE", "ill-posed": "ILL-POSED"}


def _n_symbol(spec: S.Spec):
    return sympy.Symbol(spec.tokens, integer=True, positive=True) if isinstance(spec.tokens, str) else None


def _moduli(cond, n) -> list[int]:
    return [int(a.args[1]) for a in cond.atoms(sympy.Mod) if n in a.free_symbols and a.args[1].is_Integer] \
        if isinstance(cond, sympy.Basic) else []


def _derived_verdict_at(verdict_name: str, group, by_class, n, modulus: int, r: int) -> Optional[str]:
    """The verdict the derivation states for the residue class n ≡ r (mod `modulus`): a class verdict whose
    condition's residue parts hold there, else the verdict stated first, unless its range provably excludes the
    class (then none)."""
    from .rules.residue_classes import excludes
    for cond, kind in by_class:
        if excludes(cond, n, modulus, (r,)):
            continue
        if _residue_parts_hold(cond, n, modulus, r):
            return kind.value
    where = getattr(group, "condition_formula", None) if verdict_name == "UAP" else None
    return None if excludes(where, n, modulus, (r,)) else verdict_name


def _residue_parts_hold(cond, n, modulus: int, r: int) -> bool:
    """Every conjunct of `cond` that is a function of n mod integers holds on the class n ≡ r (mod `modulus`), and
    there is one (`modulus` a multiple of their moduli)."""
    from .rules.residue_classes import _conjuncts, _residue_part
    parts = [p for p in _conjuncts(cond) if p.atoms(sympy.Mod) and n in p.free_symbols and _residue_part(p, n)]
    return bool(parts) and all(p.xreplace({n: sympy.Integer(r)}) is sympy.true for p in parts)


def _derived_words(verdict_name: str, group, by_class) -> str:
    """The derived verdict as the headline states it: "UAP for n ≥ 8 and (n mod 4 ∈ {0, 3}); NOT-UAP for n ≥ 8 and
    (n mod 4 ∈ {1, 2})" beside residue classes of n with another verdict (docs/theory.md §12), else the verdict."""
    if not by_class:
        return verdict_name
    from .show import show_condition
    where = getattr(group, "condition", None)
    out = verdict_name + (f" for {where}" if where else "")
    return out + "".join(f"; {kind.value} for {show_condition(cond)}" for cond, kind in by_class)


def _verdict_classes_mismatch(spec: S.Spec, verdict_name: str, group, by_class, ex: S.Expectation) -> str:
    """`expect V …, W if n mod L = r, …`: residue by residue of n mod lcm(L, the derived moduli), the expected
    verdict is the one the derivation states for that class."""
    n = _n_symbol(spec)
    if n is None:
        return "verdicts by class need a symbolic n"
    modulus = math.lcm(*(m for m, _, _ in ex.verdict_classes),
                       *(m for cond, _ in by_class for m in _moduli(cond, n)),
                       *_moduli(getattr(group, "condition_formula", None), n))
    for r in range(modulus):
        want = next((VERDICTS[v] for m, rs, v in ex.verdict_classes if r % m in rs), VERDICTS[ex.verdict])
        have = _derived_verdict_at(verdict_name, group, by_class, n, modulus, r)
        if have != want:
            return f"for n mod {modulus} = {r}: expected {want}, derived {have or 'no verdict for this class'}"
    return ""


def _same_on_class(derived, expected, n, modulus: int, r: int) -> bool:
    """Two counts agree on n = modulus·k + r for k = 1, …, 40 (and each other name on 2, …, 29)."""
    if is_zero(sympy.sympify(derived - expected, strict=True)):  # safe: SymPy values, no text
        return True
    derived = sympy.sympify(derived, strict=True)  # safe: a derived count (int or SymPy value), no text
    others = sorted((derived.free_symbols | expected.free_symbols) - {n}, key=str)
    if len(others) > 1:
        return False
    for k in range(1, 41):
        for values in itertools.product(range(2, 30), repeat=len(others)):
            sub = {n: modulus * k + r, **dict(zip(others, values))}
            if derived.xreplace(sub) != expected.xreplace(sub):
                return False
    return True


def _layer_classes_mismatch(spec: S.Spec, layers, ex: S.Expectation) -> str:
    """`layers E if n mod L = r, …, else F`: on every residue class of n mod lcm(L, the derived count's modulus)
    where the expected verdict is UAP, the expected count is the derived one (compared on the class)."""
    from .rules.residue_classes import pieces_by_residue
    n = _n_symbol(spec)
    if layers is None or n is None:
        return "no layer count derived"
    split = pieces_by_residue(layers, n) if isinstance(layers, sympy.Basic) else None
    modulus = math.lcm(*(m for m, _, _ in ex.layer_classes), *(m for m, _, _ in ex.verdict_classes),
                       split[0] if split else 1)
    wants: dict[int, sympy.Expr] = {}  # each expected count's value, by node (a modulus may be 10⁶)
    equal: dict[tuple, bool] = {}  # pairs (derived, expected) proved equal as expressions hold on every class
    for r in range(modulus):
        if any(r % m in rs for m, rs, _ in ex.verdict_classes):
            continue  # another verdict expected there: no count
        node = next((e for m, rs, e in ex.layer_classes if r % m in rs), ex.layers)
        assert node is not None  # the parser requires the `else` count
        if id(node) not in wants:
            wants[id(node)] = _layers_of(node, spec)
        want = wants[id(node)]
        have = split[1][r % split[0]] if split else layers
        if (have, id(node)) not in equal:
            equal[have, id(node)] = is_zero(sympy.sympify(have - want, strict=True))  # safe: SymPy values, no text
        if not equal[have, id(node)] and not _same_on_class(have, want, n, modulus, r):
            return f"for n mod {modulus} = {r}: expected {show_expr(node)} {_kind_of_layers(spec, node)}, derived {have}"
    return ""


def check_expect(spec: S.Spec, verdict_name: str, group, layers, by_class=(), root=None) -> tuple[Optional[bool], str]:
    """(None, "") without an `expect` line; else whether the derivation meets it, and why not. `by_class`: the
    verdict step's (condition, verdict) for the residue classes of n with another verdict (docs/theory.md §12);
    `root`: the verdict step, whose range and lengths below it a split `expect … for n …` is compared with."""
    ex = spec.expect
    if ex is None:
        return None, ""
    if ex.lengths is None:
        return _check_line(spec, ex, verdict_name, group, layers, by_class)
    split = split_verdict(spec, verdict_name, root)
    for line in (ex, *ex.more):
        mismatch = _range_mismatch(spec, line, split, verdict_name, group, layers, by_class)
        if mismatch:
            return False, f"`expect {line.line_text or line.text}`: {mismatch}"
    return True, ""


@dataclass(frozen=True)
class SplitVerdict:
    """The derived verdict as a function of a symbolic n: the verdict stated first from `start` on (None: the
    start is not a number), and each length below it decided at that n, {n: (verdict, layers)}."""

    start: Optional[int]
    below: dict


def split_verdict(spec: S.Spec, verdict_name: str, root) -> SplitVerdict:
    """The range of the verdict step `root` and its lengths below the range (a target verdict's, TGT-VERDICT, or the
    equivariant verdict's, §12)."""
    if root is None:
        return SplitVerdict(1, {})
    if root.rule == "TGT-VERDICT":
        entries = root.evidence.get("below_range") or ()
        below = {e["n"]: (e["verdict"], e["layers"]) for e in entries if e.get("allowed", True)}
        if not root.evidence.get("range"):
            return SplitVerdict(1, below)
        ranged = [s for s in root.walk() if s is not root and s.proved and "from" in s.facts
                  and s.rule.startswith(("TGT-", "SEQ-CAUSAL-"))]
        start = ranged[0].facts["from"] if ranged else None
        for piece in ranged[0].facts.get("form pieces", ()) if ranged and not below else ():
            if all(isinstance(x, (int, sympy.Integer)) for x in (piece.lower, piece.upper, piece.layers)):
                below.update({k: ("UAP", int(piece.layers)) for k in range(int(piece.lower), int(piece.upper))})
        return SplitVerdict(int(start) if isinstance(start, (int, sympy.Integer)) else None, below)
    records = root.facts.get("below_range", ())
    below = {r.n: (r.verdict.value if r.verdict is not None else None, r.layers) for r in records if r.allowed}
    where = root.facts.get("range") if verdict_name != "UAP" else \
        getattr(root.facts.get("group"), "condition_formula", None)
    return SplitVerdict(_start_of(where, _n_symbol(spec)), below)


def _start_of(condition, n) -> Optional[int]:
    """c of a range `n ≥ c` (1 for no range); None for any other condition."""
    if condition is None or condition is sympy.true:
        return 1
    if isinstance(condition, sympy.GreaterThan) and condition.lhs == n and condition.rhs.is_Integer:
        return int(condition.rhs)
    if isinstance(condition, sympy.StrictGreaterThan) and condition.lhs == n and condition.rhs.is_Integer:
        return int(condition.rhs) + 1
    return None


#: a bounded range above the derived start is compared length by length up to this many lengths, else as counts
MAX_COMPARED_LENGTHS = 4096


def _range_mismatch(spec: S.Spec, line: S.Expectation, split: SplitVerdict, verdict_name: str, group, layers,
                    by_class) -> str:
    """Why one line `expect V [layers E] for <range>` does not hold ("" when it does): at each length of the range
    below the derived start, the verdict and count decided at that n; from the start on, the verdict stated first
    (and its group and count, as a line without a range is compared)."""
    assert line.lengths is not None  # the parser gives every line of a split its range
    low, high = line.lengths
    want = VERDICTS[line.verdict]
    n = _n_symbol(spec)
    if split.start is None:
        return "the derived verdict's range does not start at a stated number, so lengths are not compared"
    below_end = split.start - 1 if high is None else min(high, split.start - 1)
    stated = _layers_of(line.layers, spec) if line.layers is not None else sympy.S.Zero  # the same at every length
    for at in range(low, below_end + 1):
        if at not in split.below:
            return f"at {spec.tokens} = {at} no verdict is derived"
        have, count = split.below[at]
        if have != want:
            return f"at {spec.tokens} = {at} expected {want}, derived {have or 'no verdict'}"
        if want == "UAP" and line.layers is not None:
            expected = stated.xreplace({n: at}) if n is not None else stated
            if not is_zero(expected - count):
                return f"at {spec.tokens} = {at} expected UAP with {_count_words(spec, expected)}, derived UAP with " \
                       f"{_count_words(spec, count)}"
    if high is not None and high < split.start:
        return ""
    if high is None:
        holds, reason = _check_line(spec, line, verdict_name, group, layers, by_class)
        return "" if holds else f"from {spec.tokens} = {max(low, split.start)} on, {reason}"
    if want != verdict_name:
        return f"at {spec.tokens} = {max(low, split.start)} expected {want}, derived {verdict_name}"
    if want != "UAP" or line.layers is None:
        return ""
    expected = _layers_of(line.layers, spec)
    first = max(low, split.start)
    if high - first >= MAX_COMPARED_LENGTHS or n is None:
        same = _same_layers(layers, expected, n)
        return "" if same else f"for {first} ≤ {spec.tokens} ≤ {high} expected {show_expr(line.layers)} " \
                               f"{_kind_of_layers(spec, line.layers)}, derived {layers}" + \
            ("" if same is False else ": not shown equal")
    derived = sympy.sympify(layers, strict=True)  # safe: a derived count (int or SymPy value), no text
    for at in range(first, high + 1):
        have, value = derived.xreplace({n: at}), expected.xreplace({n: at})
        if not is_zero(have - value):
            return f"at {spec.tokens} = {at} expected UAP with {_count_words(spec, value)}, derived UAP with " \
                       f"{_count_words(spec, have)}"
    return ""


def _check_line(spec: S.Spec, ex: S.Expectation, verdict_name: str, group, layers,
                by_class) -> tuple[bool, str]:
    """One `expect` line against the verdict stated first, for its range."""
    want = VERDICTS[ex.verdict]
    if ex.verdict_classes:
        mismatch = _verdict_classes_mismatch(spec, verdict_name, group, by_class, ex)
        if mismatch:
            return False, mismatch
        if want != "UAP":
            return True, ""
    elif want != verdict_name:
        return False, f"expected {want}, derived {_derived_words(verdict_name, group, by_class)}"
    if ex.group_classes:
        mismatch = _classes_mismatch(spec, group, ex)
        if mismatch:
            return False, mismatch
    elif ex.group:
        mismatch = _group_mismatch(spec, group, *ex.group)
        if mismatch:
            return False, mismatch
    if ex.layer_classes:
        mismatch = _layer_classes_mismatch(spec, layers, ex)
        if mismatch:
            return False, mismatch
    elif ex.layers is not None:
        expected = _layers_value(ex, spec)
        same = _same_layers(layers, expected, _n_symbol(spec))
        if same is None:  # equal on a grid is not a proof (docs/language.md §7)
            return False, (f"expected {show_expr(ex.layers)} {_kind_of_layers(spec, ex.layers)}, derived {layers}: not shown "
                           "equal (they agree on the grid of values 2, …, 29 only)")
        if not same:
            return False, f"expected {show_expr(ex.layers)} {_kind_of_layers(spec, ex.layers)}, derived {layers}"
    return True, ""


def _kind_of_layers(spec: S.Spec, count=None) -> str:
    """What the layer count counts: convolution layers for the convolution mixer, else attention layers (one layer
    when the expected count is the number 1)."""
    kind = "convolution layer" if spec.mixer is not None else "attention layer"
    return kind if count is not None and show_expr(count) == "1" else kind + "s"


def _count_words(spec: S.Spec, value) -> str:
    """"2 attention layers" / "1 attention layer" for a count at one length."""
    kind = _kind_of_layers(spec)
    return f"{value} {kind[:-1] if value == 1 else kind}"
