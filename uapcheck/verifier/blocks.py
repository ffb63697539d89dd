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
        claims = cert.get("claims")
        if claims is None:
            return []
        if not isinstance(claims, dict):
            raise Mismatch(f"{where}.claims is not an object")
        return [p for key, value in claims.items()
                for p in _bind_value(ctx, f"{where}.claims.{key}", key, value, s)]
    if kind == "verdict-premises":
        return _bind_premises(ctx, s, cert, where)
    if kind == "mixed-row":
        return _bind_mixed_row(ctx, s, cert, where)
    return []


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
    if key in data:
        return True, data[key]
    return False, None


def _bind_value(ctx, path: str, key: str, value: Any, step: dict) -> list[str]:
    if key in _META:
        return []
    if key == "group" and isinstance(value, dict):  # a premise's fact: the group's name, order, generators
        return [p for k, v in value.items() for p in _bind_value(ctx, f"{path}.{k}", k, v, step)]
    found, checked = _checked_copy(key, step)
    if not found:
        return [path]
    same = _same(ctx, key, value, checked)
    if same is None:
        return [path]
    if not same:
        raise Mismatch(f"{path} = {_short(value)} differs from the checked {step['id']} ({step['rule']}) "
                       f"value {_short(checked)}")
    return []


def _same(ctx, key: str, a: Any, b: Any) -> Optional[bool]:
    """Whether the stated a equals the checked b after normalising the forms; None: a form not normalised here."""
    if key == "order":
        ma, mb = _by_residue(ctx, a), _by_residue(ctx, b)
        if ma is not None or mb is not None:
            if ma is None or mb is None:
                # one side by residue, the other one value: the value must hold on every residue
                one, cases = (a, mb) if ma is None else (b, ma)
                ev = _expr(ctx, one)
                if ev is None or cases is None:
                    return None
                return all(_equal(ev, v) for v in cases.values())
            if set(ma) != set(mb):
                return False
            results = [_equal(ma[r], mb[r]) for r in ma]
            return None if None in results and False not in results else all(x is True for x in results)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b if isinstance(a, bool) and isinstance(b, bool) else False
    if isinstance(a, str) and isinstance(b, str) and a == b:
        return True
    if key == "generators" and a == [] and b != []:
        return None  # a block lists no generators where there are too many to list: not a claim of none
    if isinstance(a, list) and isinstance(b, list):
        if any(isinstance(x, dict) for x in (*a, *b)):
            return True if a == b else None  # cases with conditions: a layout not normalised here
        if len(a) != len(b):
            return False
        results = [_same(ctx, key, x, y) for x, y in zip(a, b)]
        if False in results:
            return False
        return None if None in results else True
    ea, eb = _expr(ctx, a), _expr(ctx, b)
    if ea is None or eb is None:
        return None if not (isinstance(a, (int, dict)) and isinstance(b, (int, dict)) and a == b) else True
    return _equal(ea, eb)


def _equal(a, b) -> Optional[bool]:
    if a is None or b is None:
        return None
    if a == b:
        return True
    try:
        diff = sympy.simplify(a - b)
    except (TypeError, ValueError, AttributeError):
        return None
    if diff == 0:
        return True
    if diff.is_number:
        return False
    free = sorted(diff.free_symbols, key=str)
    if len(free) == 1:  # a closed form in n: told apart at a length (far above every range's start) where they differ
        for k in range(1000, 1241):
            value = diff.xreplace({free[0]: sympy.Integer(k)})
            if not value.is_number:
                return None
            if value != 0 and sympy.simplify(value) != 0:
                return False
    return None


def _by_residue(ctx, value) -> Optional[dict]:
    """An order by residue class, in either layout ({modulus, order, residues} or {order, residue}): residue ↦
    the order as an expression; None when the value is not one."""
    if not isinstance(value, list) or not value or not all(isinstance(e, dict) for e in value):
        return None
    out = {}
    for e in value:
        rs = e.get("residues", [e.get("residue")] if "residue" in e else None)
        if not isinstance(rs, list) or "order" not in e:
            return None
        for r in rs:
            if not isinstance(r, int) or isinstance(r, bool) or r in out:
                return None
            out[r] = _expr(ctx, e["order"])
    return out


def _expr(ctx, value) -> Optional[sympy.Expr]:
    """An exact expression for a stated integer, expression tree or closed-form string; None when not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return sympy.Integer(value)
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
    return json.dumps(value, ensure_ascii=False)[:80]


# ---------------------------------------------------------------------------------------------
# The closed-form strings the engine prints ("8192 · 4^(⌊n/10⌋ − 4)", "2 · 5!"), read by a small parser of
# its own (numbers, the declared names, + − · × * / ^ !, parentheses, ⌊ ⌋, ⌈ ⌉): nothing is evaluated as code.

def closed_form(text: str, symbols: dict) -> Optional[sympy.Expr]:
    if len(text) > 400:
        return None
    tokens = _tokens(text)
    if tokens is None:
        return None
    parser = _Parser(tokens, symbols)
    try:
        value = parser.expr()
    except (_ParseError, RecursionError, ValueError, TypeError):
        return None
    return value if parser.k == len(tokens) else None


class _ParseError(Exception):
    pass


def _tokens(text: str) -> Optional[list]:
    out: list[tuple[str, Any]] = []
    k = 0
    while k < len(text):
        c = text[k]
        if c.isspace():
            k += 1
        elif c.isdigit():
            j = k
            while j < len(text) and text[j].isdigit():
                j += 1
            out.append(("num", int(text[k:j])))
            k = j
        elif c.isalpha() or c == "_":
            j = k
            while j < len(text) and (text[j].isalnum() or text[j] == "_"):
                j += 1
            out.append(("name", text[k:j]))
            k = j
        elif c in "+-−·×*/^!()⌊⌋⌈⌉":
            out.append(("op", {"−": "-", "×": "*", "·": "*"}.get(c, c)))
            k += 1
        else:
            return None
    return out


class _Parser:
    def __init__(self, tokens: list, symbols: dict):
        self.t, self.k, self.symbols = tokens, 0, symbols

    def _peek(self):
        return self.t[self.k] if self.k < len(self.t) else (None, None)

    def _take(self, op: str) -> bool:
        if self._peek() == ("op", op):
            self.k += 1
            return True
        return False

    def expr(self):
        value = self.term()
        while True:
            if self._take("+"):
                value = value + self.term()
            elif self._take("-"):
                value = value - self.term()
            else:
                return value

    def term(self):
        value = self.unary()
        while True:
            if self._take("*"):
                value = value * self.unary()
            elif self._take("/"):
                value = value / self.unary()
            else:
                return value

    def unary(self):
        if self._take("-"):
            return -self.unary()
        base = self.postfix()
        if self._take("^"):
            exponent = self.unary()
            if isinstance(exponent, sympy.Integer) and abs(exponent) > 10_000:
                raise _ParseError("exponent too large")
            return sympy.Pow(base, exponent)
        return base

    def postfix(self):
        value = self.atom()
        while self._take("!"):
            if isinstance(value, sympy.Integer) and not 0 <= value <= 5000:
                raise _ParseError("factorial out of range")
            value = sympy.factorial(value)
        return value

    def atom(self):
        kind, tok = self._peek()
        if kind == "num":
            self.k += 1
            return sympy.Integer(tok)
        if kind == "name":
            if tok not in self.symbols:
                raise _ParseError(f"unknown name {tok}")
            self.k += 1
            return self.symbols[tok]
        for left, right, fn in (("(", ")", None), ("⌊", "⌋", sympy.floor), ("⌈", "⌉", sympy.ceiling)):
            if self._take(left):
                value = self.expr()
                if not self._take(right):
                    raise _ParseError(f"missing {right}")
                return fn(value) if fn else value
        raise _ParseError("unexpected token")


# ---------------------------------------------------------------------------------------------
# A verdict's premises and a mixed row

def _bind_premises(ctx, s: dict, cert: dict, where: str) -> list[str]:
    listed = cert.get("premises")
    if not isinstance(listed, list):
        raise Mismatch(f"{where}.premises is not a list")
    steps = ctx.premises(s)
    unbound, at = [], 0
    for k, entry in enumerate(listed):
        # the block lists the premises Theorem 1 reads (the FFN, the heads, the structure, the group), in the step's
        # order; the step may have more (a target alternative, the lengths below the range)
        path = f"{where}.premises[{k}]"
        if not isinstance(entry, dict):
            raise Mismatch(f"{path} is not an object")
        while at < len(steps) and (steps[at]["rule"], steps[at]["status"]) != (entry.get("rule"), entry.get("status")):
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
    return unbound


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
