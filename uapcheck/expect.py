"""The `expect` line of a file checked against its derivation: the verdict, the group (by name, order
or stabilizer, compared as groups when n is an integer and names coincide) and the layer count.
The catalog is a regression suite through these lines (tests/test_catalog.py)."""
from __future__ import annotations

import itertools
import math
from typing import Optional

import sympy

from . import spec as S
from .bignum import show_order
from .groups import MAX_CONCRETE, concrete_group, order_value, same_order, stabilizer_generators
from .show import show_expr
from .zero import is_zero


def _layers_value(expect: S.Expectation, spec: S.Spec):
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
            return {"+": l + r, "-": l - r, "*": l * r, "/": l / r}[node.op]
        if isinstance(node, S.Call):
            args = [go(x) for x in node.args]
            return LAYER_FUNCTIONS[node.fn].build(*args)
        raise ValueError(node)
    return go(expect.layers)


def _same_layers(derived, expected) -> bool:
    if derived is None:
        return False
    if isinstance(derived, int):
        return is_zero(expected - derived)
    if is_zero(derived - expected):
        return True
    # Compare on a grid of admissible values (the closed forms are stated for these ranges).
    syms = sorted((derived.free_symbols | expected.free_symbols), key=str)
    for values in itertools.product(range(2, 30), repeat=len(syms)) if len(syms) <= 2 else []:
        sub = dict(zip(syms, values))
        if derived.xreplace(sub) != expected.xreplace(sub):
            return False
    return len(syms) <= 2


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
    derived one (L' the derived classes' modulus; a derived group without classes is the same in every class)."""
    if group is None:
        return "no group derived"
    modulus = ex.group_classes[0][0]
    derived = group.classes[0].modulus if group.classes else 1
    both = math.lcm(modulus, derived)
    for r in range(both):
        want = next((g for m, residues, g in ex.group_classes if r % m in residues), ex.group)
        assert want is not None  # the parser requires the `else` group
        have = next((c.group for c in group.classes if r % c.modulus in c.residues), None) if group.classes else \
            group
        mismatch = _group_mismatch(spec, have, *want)
        if mismatch:
            return f"for n mod {both} = {r}: {mismatch}"
    return ""


def check_expect(spec: S.Spec, verdict_name: str, group, layers) -> tuple[Optional[bool], str]:
    """(None, "") without an `expect` line; else whether the derivation meets it, and why not."""
    ex = spec.expect
    if ex is None:
        return None, ""
    want = {"uap": "UAP", "not-uap": "NOT-UAP", "inconclusive": "INCONCLUSIVE", "ill-posed": "ILL-POSED"}[ex.verdict]
    if want != verdict_name:
        return False, f"expected {want}, derived {verdict_name}"
    if ex.group_classes:
        mismatch = _classes_mismatch(spec, group, ex)
        if mismatch:
            return False, mismatch
    elif ex.group:
        mismatch = _group_mismatch(spec, group, *ex.group)
        if mismatch:
            return False, mismatch
    if ex.layers is not None:
        expected = _layers_value(ex, spec)
        if not _same_layers(layers, expected):
            return False, f"expected {show_expr(ex.layers)} attention layers, derived {layers}"
    return True, ""
