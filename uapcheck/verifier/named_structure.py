"""A group named by its structure, re-checked (docs/theory.md §18, SYM-AUT).

The certificate lists the structure behind a name such as "S_7 on {2, …, 8} × (S_8 ≀ S_3 on the blocks
{9, …, 16}, {17, …, 24}, {25, …, 32})" as typed factors on position sets. The verifier writes the name
from them with its own wording (it must be the printed name), builds generators of the named group from
them, and accepts when every named generator lies in ⟨generators⟩ and the named group has the order of
G (so the named group is G). The form "(∏ S_m on C) ⋊ a group of order N permuting the q twin classes"
is accepted when ∏ Sym(C) ≤ G with index N. Independent of the engines' naming code.
"""
from __future__ import annotations

import math

from . import groups


class Unworded(Exception):
    """The structure's words hold a number too long for the verifier to word as the report does ("≈ 10^45"):
    `check` then reads the name's words of it as a bounded wording of the listed number (`_approximates`)."""


class NotTheName(Exception):
    """The structure data is malformed or does not word as the printed name."""


# ---------------------------------------------------------------------------------------------
# Wording

def interval(lo: int, hi: int) -> str:
    """{lo, …, hi}, listed in full when it has at most three positions ({1}, {1, 2}, {1, 2, 3})."""
    if hi - lo < 3:
        return "{" + ", ".join(str(k) for k in range(lo, hi + 1)) + "}"
    return f"{{{lo}, …, {hi}}}"


def _set(points) -> str:
    pts = sorted(points)
    if not pts:
        return "∅"
    if len(pts) <= 3:
        return "{" + ", ".join(map(str, pts)) + "}"
    step = pts[1] - pts[0]
    if all(pts[k + 1] - pts[k] == step for k in range(len(pts) - 1)):
        return f"{{{pts[0]}, …, {pts[-1]}}}" if step == 1 else f"{{{pts[0]}, {pts[1]}, …, {pts[-1]}}}"
    if len(pts) <= 6:
        return "{" + ", ".join(map(str, pts)) + "}"
    return "{" + ", ".join(map(str, pts[:4])) + f", …}} ({len(pts)} positions)"


def _blocks(blocks: list, ordered: bool) -> str:
    k = len(blocks)
    if k <= (6 if ordered else 4):
        return ", ".join(_set(b) for b in blocks)
    shift = blocks[1][0] - blocks[0][0]
    if all([x + shift * j for x in blocks[0]] == list(b) for j, b in enumerate(blocks)):
        return f"{_set(blocks[0])}, {_set(blocks[1])}, …, {_set(blocks[-1])}"
    if ordered:
        raise NotTheName("the blocks of a cyclic order cannot be written")
    covered = sorted(x for b in blocks for x in b)
    return f"{k} blocks of {len(blocks[0])} positions covering {_set(covered)}"


def _cycle(cycle: list) -> str:
    if len(cycle) <= 6:
        return "(" + ", ".join(map(str, cycle)) + ")"
    step = cycle[1] - cycle[0]
    if step > 0 and all(cycle[k + 1] - cycle[k] == step for k in range(len(cycle) - 1)):
        return f"({cycle[0]}, {cycle[1]}, …, {cycle[-1]})"
    raise NotTheName("the cycle cannot be written")


def _intervals(f: dict) -> list:
    """The intervals of a `reflections` factor: two or more (first, last) pairs of integers, first < last, each
    after the one before."""
    out = [(int(lo), int(hi)) for lo, hi in f["intervals"]]
    if len(out) < 2 or any(lo >= hi for lo, hi in out) or any(a[1] >= b[0] for a, b in zip(out, out[1:])):
        raise NotTheName("the reflected intervals are not two or more disjoint increasing intervals")
    return out


def _factor_words(f: dict) -> str:
    kind = f.get("kind")
    if kind == "symmetric":
        return f"S_{len(f['positions'])} on {_set(f['positions'])}"
    if kind == "power":
        classes = f["classes"]
        size, count = len(classes[0]), len(classes)
        covered = sorted(x for c in classes for x in c)
        return f"(S_{size})^{count} on {count} classes of {size} positions covering {_set(covered)}"
    if kind == "reflection":
        return "the reflection" + ("" if f.get("positions") is None else f" of {_set(f['positions'])}")
    if kind == "reflections":
        sets = [interval(lo, hi) for lo, hi in _intervals(f)]
        return "the reflection of " + ", of ".join(sets[:-1]) + f" and of {sets[-1]} at once"
    if kind == "cycle":
        return f"{f['top']}_{len(f['cycle'])} on the cycle {_cycle(f['cycle'])}"
    if kind == "wreath":
        parts = f["parts"]
        first = parts[0]
        if len(first) == 1:
            base = f"S_{len(first[0])}"
        else:
            base = "(" + " × ".join(f"S_{len(c)} on {_set(c)}" for c in first if len(c) > 1) + ")"
        blocks = [sorted(x for c in block for x in c) for block in parts]
        order = " in cyclic order" if f["top"] != "S" else ""
        return f"{base} ≀ {f['top']}_{len(parts)} on the blocks {_blocks(blocks, f['top'] != 'S')}{order}"
    raise NotTheName(f"unknown factor kind {kind!r}")


def _order_words(value: int):
    if int(value.bit_length() * 0.30103) + 1 <= 24:  # the report prints orders of up to 24 digits
        return str(value)
    return None  # a long order: the verifier does not re-word it (the name is then not accepted here)


def words(structure: dict) -> str:
    factors = structure["factors"]
    texts = [f"({_factor_words(f)})" if f.get("kind") == "wreath" and len(factors) > 1 else _factor_words(f)
             for f in factors]
    product = " × ".join(texts)
    q = structure.get("quotient order")
    if q is None:
        return product
    shown = _order_words(q)
    if shown is None:
        raise Unworded("the quotient's order is too long for the verifier's wording")
    return f"({product}) ⋊ a group of order {shown} permuting the {structure['classes']} twin classes"


# ---------------------------------------------------------------------------------------------
# Generators of the named group

def _symmetric(points: list, n: int) -> list:
    if len(points) < 2:
        return []
    ident = list(range(1, n + 1))
    swap = ident[:]
    swap[points[0] - 1], swap[points[1] - 1] = points[1], points[0]
    cyc = ident[:]
    for a, b in zip(points, points[1:] + points[:1]):
        cyc[a - 1] = b
    return [swap, cyc]


def _on_cycle(cycle: list, images: list, n: int) -> list:
    """The permutation c_i ↦ c_images[i] (indices into the cycle), other positions fixed."""
    perm = list(range(1, n + 1))
    for i, c in enumerate(cycle):
        perm[c - 1] = cycle[images[i]]
    return perm


def _block_moves(top: str, k: int) -> list:
    rot = [(i + 1) % k for i in range(k)]
    if top == "S":
        swap = list(range(k))
        swap[0], swap[1] = 1, 0
        return [swap, rot]
    if top == "C":
        return [rot]
    if top == "D":
        return [rot, [(-i) % k for i in range(k)]]
    raise NotTheName(f"unknown top group {top!r}")


def _reflection_generators(f: dict, n: int) -> tuple[list, int, set]:
    """The one involution of a `reflection` factor (its positions, or 1..n, reversed) or of a `reflections` factor
    (each interval reversed at once)."""
    if f["kind"] == "reflection":
        pts = sorted(f["positions"]) if f.get("positions") is not None else list(range(1, n + 1))
        return [_on_cycle(pts, [len(pts) - 1 - i for i in range(len(pts))], n)], 2, set(pts)
    perm = list(range(1, n + 1))
    for lo, hi in _intervals(f):
        for p in range(lo, hi + 1):
            perm[p - 1] = lo + hi - p
    return [perm], 2, {p for lo, hi in _intervals(f) for p in range(lo, hi + 1)}


def _factor_generators(f: dict, n: int) -> tuple[list, int, set]:
    """(generators, order, positions) of one factor."""
    kind = f["kind"]
    if kind == "symmetric":
        pts = sorted(f["positions"])
        return _symmetric(pts, n), math.factorial(len(pts)), set(pts)
    if kind == "power":
        gens: list = []
        order, covered = 1, set()
        for c in f["classes"]:
            gens += _symmetric(sorted(c), n)
            order *= math.factorial(len(c))
            covered |= set(c)
        return gens, order, covered
    if kind in ("reflection", "reflections"):
        return _reflection_generators(f, n)
    if kind == "cycle":
        cyc, k = list(f["cycle"]), len(f["cycle"])
        gens = [_on_cycle(cyc, [(i + 1) % k for i in range(k)], n)]
        if f["top"] == "D":
            gens.append(_on_cycle(cyc, [(-i) % k for i in range(k)], n))
        return gens, (2 * k if f["top"] == "D" else k), set(cyc)
    if kind == "wreath":
        parts = [[sorted(c) for c in block] for block in f["parts"]]
        k = len(parts)
        sizes = [len(c) for c in parts[0]]
        if len(set(sizes)) != len(sizes) or any(sorted(len(c) for c in b) != sorted(sizes) for b in parts):
            raise NotTheName("the blocks do not correspond class by class")
        lifted: list = []
        base = 1
        for c in parts[0]:
            lifted += _symmetric(c, n)
            base *= math.factorial(len(c))
        for move in _block_moves(f["top"], k):
            perm = list(range(1, n + 1))
            for i, block in enumerate(parts):
                target = {len(c): c for c in parts[move[i]]}
                for c in block:
                    for a, b in zip(c, target[len(c)]):
                        perm[a - 1] = b
            lifted.append(perm)
        top = {"S": math.factorial(k), "C": k, "D": 2 * k}[f["top"]]
        return lifted, base ** k * top, {x for b in parts for c in b for x in c}
    raise NotTheName(f"unknown factor kind {kind!r}")


def _approximates(text: str, value: int) -> bool:
    """Whether `text` is a bounded wording of the positive integer `value`: "≈ 10^e" with |e − log10 value| < 1, or
    "≈ m × 10^e" within one unit of m's last digit (exact rational arithmetic, never floats)."""
    import re
    from fractions import Fraction
    plain = re.fullmatch(r"≈ 10\^(\d+)", text)
    if plain:
        e = int(plain.group(1))
        return 10 ** (e - 1) < value < 10 ** (e + 1)
    scaled = re.fullmatch(r"≈ (\d+)(?:\.(\d+))? × 10\^(\d+)", text)
    if not scaled:
        return False
    whole, frac, e = scaled.group(1), scaled.group(2) or "", int(scaled.group(3))
    mantissa = Fraction(int(whole + frac), 10 ** len(frac))
    return abs(mantissa * 10 ** e - value) <= Fraction(10 ** e, 10 ** len(frac))


def _long_order_wording(name, structure: dict) -> str:
    """The printed name when its words around the quotient's order are the structure's and the order's words are a
    bounded wording of the listed quotient order (`_approximates`); otherwise the structure's frame, which then
    differs from the name."""
    factors = structure["factors"]
    texts = [f"({_factor_words(f)})" if f.get("kind") == "wreath" and len(factors) > 1 else _factor_words(f)
             for f in factors]
    head = f"({' × '.join(texts)}) ⋊ a group of order "
    tail = f" permuting the {structure['classes']} twin classes"
    q = structure["quotient order"]
    if isinstance(name, str) and name.startswith(head) and name.endswith(tail) and isinstance(q, int) and q > 0 \
            and _approximates(name[len(head):len(name) - len(tail)], q):
        return name
    return head + "(the listed quotient order, worded)" + tail


def check(name, structure, gens: list, n: int, order: int) -> str:
    """Why the structure names G (a sentence), or NotTheName saying why not."""
    if not isinstance(structure, dict) or not isinstance(structure.get("factors"), list) or not structure["factors"]:
        raise NotTheName("no structure is listed for the name")
    try:
        wording = words(structure)
    except Unworded:
        wording = _long_order_wording(name, structure)
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise NotTheName(f"the structure is malformed ({exc})") from None
    if wording != name:
        raise NotTheName(f"the structure words as {wording!r}, not the printed name")
    named: list = []
    named_order, used = 1, set[int]()
    try:
        for f in structure["factors"]:
            fg, fo, pts = _factor_generators(f, n)
            if used & pts or any(not 1 <= p <= n for p in pts):
                raise NotTheName("the factors do not act on disjoint sets of positions 1..n")
            used |= pts
            named += fg
            named_order *= fo
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise NotTheName(f"the structure is malformed ({exc})") from None
    outside = [p for p in named if not groups.contains(gens, n, p)]
    if outside:
        raise NotTheName(f"a generator of the named group (moving {[k + 1 for k in range(n) if outside[0][k] != k + 1][:6]}) "
                         "is not in G")
    q = structure.get("quotient order")
    if q is None:
        if named_order != order:
            raise NotTheName(f"the named group has order {named_order}, G has {order}")
        return "the name's own generators lie in G and its order is |G|: the named group is G"
    if not isinstance(q, int) or named_order * q != order:
        raise NotTheName(f"|∏ Sym(C)| · {q} is not |G| = {order}")
    return f"∏ Sym(C) ≤ G with index {q}"
