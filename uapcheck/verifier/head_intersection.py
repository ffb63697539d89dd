"""SYM-AUT for several heads with different patterns at symbolic n (docs/theory.md §11.11, Theorems
F35–F39), re-checked with the verifier's own code: its own arcs (patterns.head_arcs), its own boundary
maps, its own reading of the sizes K, L and of N₀, and its own tables for the anchor head's group.

What is checked (a certificate of kind "head intersection"):
* the anchor head's group: the verifier's own lemma table (§18.4) or family table (§11.11) names that
  group for that head alone from a length at most the anchor's bound, or (trivial) the head has one-way
  arcs with every neighbour arc, re-checked on its arcs; else the step is trusted, never verified;
* a containing anchor (Theorem F206, `"contains": true`): D_n holds the group of a head that the verifier's own family
  table restates as F26, F201 or F205 with the order 2n or 2 on every class; every head's arcs, the anchor's too,
  are then tested;
* Theorem F35's N₀ from the verifier's own K and L: the certificate's start is at least it;
* every residue class: the decision (the anchor's elements tested on the other heads' arcs; rotations,
  seams and marked sets for C_n and D_n, Theorems F36–F38) re-made at two lengths ≥ N₀ of the class and
  at every length from the class's stated bound up to there (the lengths below N₀ are single instances);
  a class of kind "open" (not decided) claims nothing and is skipped, and the stated class must not be one;
* the stated group: its name and order are the class's;
* instances: at the first lengths of every class (up to INSTANCE_TOP), the order of the coloured union's
  automorphism group by nauty equals the class's order.
"""
from __future__ import annotations

import json
from itertools import permutations
from math import gcd
from typing import Any, Optional

import sympy

from .. import spec as S
from . import patterns
from .named_structure import interval

INSTANCE_TOP = 30
PREFIX_MAX = 4


#: the decisions re-made and passed (their instances' words): the same heads, anchor and classes are re-decided once
_REDECIDED: dict = {}


class Unsupported(Exception):
    """The heads are outside what this check covers (the step is then trusted, not verified)."""


# ---------------------------------------------------------------------------------------------
# Sizes (Theorem F35)

def _int(t) -> int:
    if not isinstance(t, int) or isinstance(t, bool):
        raise Unsupported(f"a symbolic size {t!r}")
    return t


def sizes(pats) -> tuple[int, int]:
    """(K, L) of Theorem F35 from the re-parsed patterns."""
    reach, modulus = 1, 1

    def lcm(a, b):
        return a * b // gcd(a, b)

    def walk(p):
        nonlocal reach, modulus
        if isinstance(p, S.PatternUnion):
            for q in p.parts:
                walk(q)
        elif isinstance(p, (S.Full, S.Causal)):
            pass
        elif isinstance(p, S.Window):
            reach = max(reach, _int(p.w))
        elif isinstance(p, S.Offsets):
            reach = max([reach] + [abs(_int(k)) for k in p.offsets])
        elif isinstance(p, S.Dilated):
            reach = max(reach, _int(p.w) * _int(p.r))
        elif isinstance(p, S.Blocks):
            reach = max(reach, _int(p.b))
            modulus = lcm(modulus, _int(p.b))
        elif isinstance(p, S.Strided):
            reach = max(reach, _int(p.s))
            modulus = lcm(modulus, _int(p.s))
        elif isinstance(p, S.Star):
            reach = max(reach, 1)
        elif isinstance(p, S.Global):
            reach = max(reach, _int(p.g))
        elif isinstance(p, S.GlobalAt) and set(p.positions) == set(range(1, len(p.positions) + 1)):
            reach = max(reach, len(p.positions))
        else:
            raise Unsupported(f"pattern {type(p).__name__}")
    for p in pats:
        walk(p)
    return reach, modulus


def start(reach: int, modulus: int) -> int:
    """N₀ of Theorem F35: K' = K + T + 2 with T = 2K + 2 + L; max(4K' + 2L + 1, 2K' + (K + 2)L + 1)."""
    wide = reach + (2 * reach + 2 + modulus) + 2
    return max(4 * wide + 2 * modulus + 1, 2 * wide + (reach + 2) * modulus + 1)


# ---------------------------------------------------------------------------------------------
# Boundary maps and the decision at one length

def image(element: list, n: int) -> list:
    kind = element[0]
    if kind == "id":
        return list(range(1, n + 1))
    if kind == "rot":
        return [(i - 1 + element[1]) % n + 1 for i in range(1, n + 1)]
    if kind == "refl":
        return [(element[1] - i - 1) % n + 1 for i in range(1, n + 1)]
    if kind == "prefix":
        pi, e = list(element[1]), element[2]
        u = len(pi)
        return pi + [(n + u + 1 - i) if e else i for i in range(u + 1, n + 1)]
    raise ValueError(f"unknown map {element!r}")


def _kept(p: list, arcs: frozenset, complete: bool) -> bool:
    return complete or all((p[j - 1], p[i - 1]) in arcs for (j, i) in arcs)


def _norm(element: list, n: int) -> tuple:
    if element[0] == "prefix" and element[2] == 0 and list(element[1]) == list(range(1, len(element[1]) + 1)):
        return ("id",)
    if element[0] == "refl":
        c = element[1] % n
        return ("refl", c if c <= n // 2 else c - n)
    if element[0] == "prefix":
        return ("prefix", tuple(element[1]), element[2])
    return tuple(element)


def _seam(arcs: frozenset, n: int, reach: int) -> Optional[list]:
    """A seam of step d ≤ K, d < n/2 (every unwrapped arc x → x + d, not every wrapped one): the candidate
    reflections c; None when there is none."""
    for d in range(1, min(reach, (n - 1) // 2) + 1):
        if all((x, x + d) in arcs for x in range(1, n - d + 1)):
            missing = [x for x in range(n - d + 1, n + 1) if (x, x + d - n) not in arcs]
            if missing:
                back = [y for y in range(1, n + 1) if (y, (y - d - 1) % n + 1) not in arcs]
                if len(back) != len(missing):
                    return []
                return [(missing[0] + y) % n for y in back]
    return None


def _rotations_pinned(arcs: frozenset, n: int, reach: int) -> Optional[list]:
    """The candidate reflections c when this head fixes the rotations (a seam; a mirrored seam, every unwrapped arc
    x → x − d and not every wrapped one, which is a seam of the head reflected by i ↦ n + 1 − i, with σ_c read as
    σ_{2 − c}; or a universal / one-way-universal / isolated / sourceless / sinkless set of positions all within K of
    the ends); None otherwise."""
    found = _seam(arcs, n, reach)
    if found is not None:
        return found
    found = _seam(frozenset((n + 1 - j, n + 1 - i) for j, i in arcs), n, reach)
    if found is not None:
        return [(2 - c) % n for c in found]
    if 4 * reach > n:
        return None  # a coset of a non-trivial subgroup of Z_n fits in no cyclic interval of n/2 positions
    outs, ins = [0] * (n + 1), [0] * (n + 1)
    for (j, i) in arcs:
        outs[j] += 1
        ins[i] += 1
    for test in (lambda v: outs[v] == ins[v] == n - 1, lambda v: outs[v] == n - 1, lambda v: ins[v] == n - 1,
                 lambda v: outs[v] == ins[v] == 0, lambda v: outs[v] == 0, lambda v: ins[v] == 0):
        xs = [v for v in range(1, n + 1) if test(v)]
        if xs and len(xs) < n and all(x <= reach or x > n - reach for x in xs):
            first = max(xs) if min(xs) == 1 and max(xs) > n // 2 else min(xs)
            return [(first + y) % n for y in xs]
    return None


def _elements(anchor: dict) -> list:
    kind = anchor["group"]
    if kind == "trivial":
        return [["id"]]
    if kind == "reflection":
        return [["id"], ["refl", 1]]
    u = int(anchor["prefix"])
    if not 1 <= u <= PREFIX_MAX:
        raise Unsupported(f"a prefix of {u} positions")
    return [["prefix", list(pi), e] for pi in permutations(range(1, u + 1)) for e in (0, 1)]


def _all_keep(element: list, n: int, others: list) -> bool:
    p = image(element, n)
    return all(_kept(p, a, c) for a, c in others)


def _rotations(n: int, dihedral: bool, others: list, modulus: int) -> Optional[tuple]:
    for m in range(1, min(modulus, n - 1) + 1):
        if n % m == 0 and _all_keep(["rot", m], n, others):
            firsts = [c + (1 if m == 1 else 0) for c in range(m)] if dihedral else []
            t = next((c for c in firsts if _all_keep(["refl", c], n, others)), None)
            return ("rotations", m, t)
    return None


def decide(n: int, anchor: dict, others: list, reach: int, modulus: int) -> Optional[tuple]:
    """("finite", frozenset) or ("rotations", m, t) at this n: the anchor's group ∩ the others' arcs."""
    kind = anchor["group"]
    if kind in ("trivial", "reflection", "prefix"):
        return ("finite", frozenset(_norm(e, n) for e in _elements(anchor) if _all_keep(e, n, others)))
    if kind not in ("cyclic", "dihedral"):
        raise Unsupported(f"an anchor group {kind!r}")
    found = _rotations(n, kind == "dihedral", others, modulus)
    if found is not None:
        return found
    for arcs, complete in others:
        cands = None if complete else _rotations_pinned(arcs, n, reach)
        if cands is None:
            continue
        if kind == "cyclic":
            return ("finite", frozenset({("id",)}))
        passing = {_norm(["refl", c], n) for c in cands if _all_keep(["refl", c], n, others)}
        if len(passing) > 1:
            return None
        return ("finite", frozenset({("id",)}) | frozenset(passing))
    return None


# ---------------------------------------------------------------------------------------------
# The anchor's own group

def _forward_trivial(p) -> bool:
    parts = list(p.parts) if isinstance(p, S.PatternUnion) else [p]
    if not all(isinstance(q, S.Causal) or (isinstance(q, S.Offsets) and not q.cyclic) for q in parts):
        return False
    n = 2 + max([abs(_int(k)) for q in parts if isinstance(q, S.Offsets) for k in q.offsets] + [1])
    arcs = patterns.head_arcs(p, n)
    if len(arcs) == n * (n - 1):
        return False
    for sign in (1, -1):
        if all((j - i) * sign > 0 for (j, i) in arcs) and all((i + sign, i) in arcs
                                                              for i in range(1, n + 1) if 1 <= i + sign <= n):
            return True
    return False


def _names(kind: str, u: int) -> list:
    if kind == "trivial":
        return ["trivial"]
    if kind == "reflection":
        return ["reflection", "the reflection"]
    if kind == "cyclic":
        return ["C_n"]
    if kind == "dihedral":
        return ["D_n"]
    if u == 1:
        return ["the reflection of {2, …, n}"]
    first = interval(1, u)
    rest = f"{{{u + 1}, …, n}}"
    return [f"S_{u} on {first} × the reflection of {rest}"]


def anchor_checked(spec: S.Spec, head: S.Pattern, anchor: dict, n: sympy.Symbol, symbols: dict) -> str:
    """Why the anchor head's group is the stated one from its stated bound on; Unsupported otherwise."""
    from dataclasses import replace
    from . import families, lemmas
    kind, low, u = anchor["group"], int(anchor["from"]), int(anchor.get("prefix") or 0)
    if kind == "trivial" and _forward_trivial(head):
        return "the anchor head's arcs all point one way and contain every neighbour arc (a DAG with a Hamiltonian path)"
    if isinstance(head, S.Offsets) and head.cyclic and all(isinstance(k, int) and not isinstance(k, bool)
                                                            for k in head.offsets):
        jumps = {int(k) for k in head.offsets} - {0}
        w = max((abs(k) for k in jumps), default=0)
        if w and jumps == set(range(-w, w + 1)) - {0}:
            head = S.Window(w, True)  # the same arcs: offsets {±1, …, ±w} cyclic is window(w) cyclic
    alone = replace(spec, heads=(replace(spec.heads[0], pattern=head),))
    lemma = lemmas.classify(alone, n, symbols)
    if lemma is not None and lemma.group in _names(kind, u) and lemma.param is None:
        start_of: Any = lemma.group_from
        own = int(start_of(None))
        return (f"the verifier's `{lemma.name}` lemma (§18.4) gives the anchor head's group {lemma.group} from "
                f"n = {own}" + _below(head, kind, u, low, own))
    fam = families.match(alone)
    if (fam is not None and fam.name is not None and fam.coprime_to == 1 and any(fam.name(t) for t in _names(kind, u))
            and _orders_fit(fam, kind, u)):
        return (f"the verifier's Theorem {fam.theorem} (§11.11) gives the anchor head's group from n = {fam.low}"
                + _below(head, kind, u, low, fam.low))
    raise Unsupported(f"the anchor head's group ({kind} from n = {low}) is not in the verifier's tables")


#: the verifier's family theorems whose group is D_n on some classes of n and the reflection on the others
_DIHEDRAL_BY_CLASS = ("F26", "F201", "F205")


def contained_anchor_checked(spec: S.Spec, head: S.Pattern, anchor: dict) -> str:
    """Theorem F206: the anchor head's group lies in D_n at every n from the anchor's bound on. The verifier's own
    restatement of F26, F201 or F205 for the head alone gives, on every class of one period from its range's start, the
    order 2n (D_n) or 2 (the reflection, a subgroup of D_n), its names D_n and the reflection only; an F205 head with
    its twins' class (order 4, S_2 on {1, n} × the reflection of {2, …, n − 1}, not inside D_n) is refused. Every
    head, the anchor's too, is then tested, so what is kept is exactly G."""
    from dataclasses import replace
    from . import families
    if anchor.get("group") != "dihedral" or int(anchor.get("prefix") or 0):
        raise Unsupported(f"a containing anchor of group {anchor.get('group')!r} (Theorem F206 takes D_n only)")
    alone = replace(spec, heads=(replace(spec.heads[0], pattern=head),))
    fam = families.match(alone)
    if fam is None or fam.theorem not in _DIHEDRAL_BY_CLASS or fam.group_open or fam.coprime_to != 1:
        raise Unsupported("the containing anchor head is not one of Theorems F26, F201, F205 in the verifier's table")
    low = int(fam.group_low or fam.low)  # F205 with F226: the group's range, below the layer count's
    if int(anchor["from"]) < low:
        from .check import Reject
        raise Reject(f"the containing anchor's bound {anchor['from']} lies below Theorem {fam.theorem}'s {low}")
    for m in range(low, low + max(int(fam.modulus or 1), 1)):
        if int(fam.order(sympy.Integer(m))) not in (2 * m, 2):
            raise Unsupported(f"Theorem {fam.theorem}'s group at n = {m} has order {fam.order(sympy.Integer(m))}, "
                              "neither D_n nor the reflection")
    return (f"the verifier's Theorem {fam.theorem} (§11.11) puts the anchor head's group inside D_n from n = {low} "
            "(D_n or the reflection by class), and every head's arcs, the anchor's too, are tested (Theorem F206)")


def _orders_fit(fam, kind: str, u: int) -> bool:
    """The family's order is at most the anchor's at one length of every residue class from its bound on (a family whose
    name covers several groups by class, Theorem F116's "the reflection when b | n, else trivial", names the anchor
    only when no class has a larger group: its end groups trivial, Theorem F179)."""
    m = max(int(fam.modulus or 1), 1)
    low = max(int(fam.low), 1)
    if kind in ("cyclic", "dihedral"):  # C_n or D_n on every class: F201's "D_n when s | n, else the reflection"
        # names D_n on one class only, and its head's own arcs are not tested (Theorem F206 is the containing anchor)
        return all(int(fam.order(sympy.Integer(n))) == _anchor_order(kind, u, n) for n in range(low, low + m))
    return all(int(fam.order(sympy.Integer(n))) <= _anchor_order(kind, u, n) for n in range(low, low + m))


def _anchor_generators(kind: str, u: int) -> list:
    if kind == "trivial":
        return []
    if kind == "reflection":
        return [["refl", 1]]
    if kind == "cyclic":
        return [["rot", 1]]
    if kind == "dihedral":
        return [["rot", 1], ["refl", 1]]
    return [["prefix", list(pi), e] for pi in permutations(range(1, u + 1)) for e in (0, 1)]


def _anchor_order(kind: str, u: int, n: int) -> int:
    return {"trivial": 1, "reflection": 2, "cyclic": n, "dihedral": 2 * n}.get(kind) or 2 * _fact(u)


def _fact(u: int) -> int:
    out = 1
    for k in range(2, u + 1):
        out *= k
    return out


def _below(head, kind: str, u: int, low: int, own: int) -> str:
    """The lengths from the certificate's bound to the table's: the head's group at each, exactly (its
    order by nauty or by every permutation, and the anchor's generators keep its arcs)."""
    from .check import Reject
    from . import groups
    if low >= own:
        return ""
    for n in range(low, own):
        arcs = patterns.head_arcs(head, n)
        lab = {a: (0,) for a in arcs}
        full, method = groups.full_order(lab, n, "none")
        if full is None:
            raise Unsupported(f"the anchor head's group at n = {n} is not re-counted ({method})")
        complete = len(arcs) == n * (n - 1)
        if full != _anchor_order(kind, u, n) or not all(_kept(image(g, n), arcs, complete)
                                                        for g in _anchor_generators(kind, u)):
            raise Reject(f"at n = {n} the anchor head's group is not the stated {kind} (order {full})")
    return f", and at n = {low}..{own - 1} by its order and generators on the verifier's arcs"


# ---------------------------------------------------------------------------------------------
# Orders and names

def order_of(cls: dict, n: int) -> int:
    if cls["kind"] == "rotations":
        (_, m, t), = [e for e in cls["elements"]]
        return (n // m) * (1 if t is None else 2)
    return len(cls["elements"])


def name_fits(cls: dict, name: Optional[str]) -> bool:
    """The stated name is the class's: a standard name for C_n, D_n, the reflection and the trivial group;
    a structure otherwise (its order is checked separately)."""
    elements = [tuple(e) for e in cls["elements"]]
    if cls["kind"] == "rotations":
        (_, m, t), = elements
        if m == 1:
            return name == ("C_n" if t is None else "D_n")
        return isinstance(name, str) and f"i ↦ i + {m}k" in name
    if elements == [("id",)]:
        return name == "trivial"
    if sorted(elements, key=repr) == sorted([("id",), ("refl", 1)], key=repr):
        return name == "reflection"
    return isinstance(name, str) and name not in ("trivial", "reflection", "C_n", "D_n", "S_n")


# ---------------------------------------------------------------------------------------------
# The check

def _classes(cert: dict) -> list:
    out = []
    for c in cert["classes"]:
        elements = frozenset(tuple(tuple(x) if isinstance(x, list) else x for x in e) for e in c["elements"])
        out.append({"residue": int(c["residue"]), "from": int(c["from"]), "kind": c["kind"], "elements": elements})
    return out


def _result_of(cls: dict) -> tuple:
    if cls["kind"] == "rotations":
        ((_, m, t),) = cls["elements"]
        return ("rotations", m, t)
    return ("finite", cls["elements"])


def _setting(ctx, cert: dict, n: Optional[sympy.Symbol] = None, symbols: Optional[dict] = None):
    """(distinct patterns, K, L, anchor index, why the anchor's group holds); Trust when unsupported. `n`, `symbols`:
    the length's symbol and the symbols (default: the file's own, at symbolic n)."""
    from .check import Reject, Trust
    spec = ctx.spec
    if n is None or symbols is None:
        n, symbols = ctx.symbols[spec.tokens], ctx.symbols
    if spec.positional != "none" or any(h.bias for h in spec.heads):
        raise Reject("Theorems F35–F39 are for unbiased heads without a positional encoding")
    pats = list(dict.fromkeys(h.pattern for h in spec.heads))
    if len(pats) < 2:
        raise Reject("Theorems F35–F39 are for several heads with different patterns")
    try:
        reach, modulus = sizes(pats)
        anchor = cert["anchor"]
        k = int(anchor["head"]) - 1  # 0: the union of the heads (its group contains G)
        if not -1 <= k < len(pats):
            raise Reject("the anchor is not one of the heads nor their union")
        # the union read as one pattern through the verifier's own normal form of unions (each part once, flat; the
        # same arcs at every n), so that its tables see `dilated(3, 3) + blocks(2)` | `offsets {5}` as F115's pattern
        from .rules_families import union_pattern
        head = pats[k] if k >= 0 else union_pattern(pats)
        from . import coloured_lines  # Theorem F180: the coloured union's own certificate
        coloured = coloured_lines.anchor_checked(pats, anchor) if k < 0 and "F180" in str(anchor.get("source")) \
            else None
        try:
            if anchor.get("contains"):
                if k < 0:
                    raise Reject("a containing anchor (Theorem F206) is one head")
                why = contained_anchor_checked(spec, head, anchor)
            else:
                why = coloured or anchor_checked(spec, head, anchor, n, symbols)
        except Unsupported:
            _counted_against(head, anchor, k < 0 or bool(anchor.get("contains")))  # a stated group a length contradicts
            raise
        if k < 0:
            why = "the union's group contains G: " + why
    except Unsupported as exc:
        raise Trust(f"outside the verifier's check of Theorems F35–F39: {exc}") from None
    return pats, reach, modulus, k, why


#: the lengths of an anchor's range at which the verifier counts the anchor head's group when its tables do not
#: name it (nauty, or every permutation up to n = 7): the first ones, and none above this length
COUNT_LENGTHS, COUNT_MAX_N = 4, 128


def _counted_against(head, anchor: dict, union: bool) -> None:
    """An anchor group that the verifier's tables do not name: its order counted on the verifier's arcs at the first
    lengths of its stated range (n ≥ `from`). A head anchor's group is Aut(A) = H at every n ≥ n_A (F36–F38), and
    its maps are tested on the other heads' arcs only, so a count that differs from |H| is a length where the
    certificate's premise fails; the union as anchor (Theorem F179, head 0) needs Aut(Γ) ⊆ H only (its maps are tested
    on every head), so there a count that does not divide |H| fails. Either rejects the certificate. A forged larger
    anchor group (`dihedral` for a head whose group is the reflection) used to be reported trusted only, its elements
    tested on the other heads' arcs and never on the anchor's own. A count that fits at these lengths proves nothing
    for the range: the caller trusts."""
    from .check import Reject
    from . import groups
    kind, low, u = anchor["group"], int(anchor["from"]), int(anchor.get("prefix") or 0)
    if kind not in ("trivial", "reflection", "cyclic", "dihedral", "prefix"):
        raise Reject(f"the anchor group {kind!r} is not one of F36–F38's (trivial, reflection, prefix, C_n, D_n)")
    start = max(low, 3, u + 2)
    for m in range(start, min(start + COUNT_LENGTHS, COUNT_MAX_N + 1)):
        arcs = patterns.head_arcs(head, m)
        full, _ = groups.full_order({a: (0,) for a in arcs}, m, "none")
        want = _anchor_order(kind, u, m)
        if full is not None and (want % full if union else full != want):
            raise Reject(f"the anchor's group at n = {m} has order {full} (the verifier's count on its own arcs), "
                         + (f"which does not divide the stated {kind}'s {want}: Aut(Γ) ⊆ H fails" if union else
                            f"not the stated {kind}'s {want}: Aut(A) = H fails"))


def _redecide(pats, k: int, anchor: dict, classes: list, reach: int, modulus: int, n0: int) -> None:
    """Every class re-decided at two lengths ≥ N₀ and at every length from its bound."""
    from .check import Reject
    cache: dict = {}

    def others(n):
        if n not in cache:
            cache[n] = [(arcs, len(arcs) == n * (n - 1))
                        for arcs in (patterns.head_arcs(p, n) for j, p in enumerate(pats) if j != k)]
        return cache[n]

    for c in classes:
        if c["kind"] == "open":
            continue  # not decided: no group is stated there (the step must not state this class)
        if c["from"] < int(anchor["from"]):
            raise Reject(f"the class n ≡ {c['residue']} (mod {modulus}) starts at n = {c['from']}, below the "
                         f"anchor's bound {anchor['from']}")
        if any(e[0] == "refl" and abs(e[1]) > 2 * reach + 2 + modulus for e in c["elements"]):
            raise Reject("a reflection beyond Theorem F35's bound")
        want = _result_of(c)
        rep = n0 + (c["residue"] - n0) % modulus
        for n in [m for m in range(c["from"], rep) if (m - c["residue"]) % modulus == 0] + [rep, rep + modulus]:
            got = decide(n, anchor, others(n), reach, modulus)
            if got != want:
                raise Reject(f"at n = {n} the intersection is {got}, not the certificate's {want}")


def check(ctx, s) -> tuple[str, str]:
    from .check import VERIFIED, Reject
    cert = s.get("certificate") or {}
    length = cert.get("n")
    if length is None:
        n, symbols = ctx.symbols[ctx.spec.tokens], ctx.symbols
    else:  # Theorem F125 (a): the symbolic decision, and this length in its stated class
        if not isinstance(length, int) or isinstance(length, bool) or length != ctx.spec.tokens:
            raise Reject(f"the certificate's length {length!r} is not the file's n = {ctx.spec.tokens}")
        n = sympy.Symbol("n", integer=True, positive=True)
        symbols = dict(ctx.symbols, n=n)
    pats, reach, modulus, k, why_anchor = _setting(ctx, cert, n, symbols)
    anchor = cert["anchor"]
    if anchor.get("contains"):
        k = -1  # Theorem F206: the anchor head's own arcs are tested like the others'; G is then exactly what is kept
    n0 = max(start(reach, modulus), int(anchor["from"]))
    if int(cert.get("modulus", 0)) != modulus:
        raise Reject(f"the classes are not the residues mod L = {modulus} (the lcm of block sizes and strides)")
    classes = _classes(cert)
    if sorted(c["residue"] for c in classes) != list(range(modulus)):
        raise Reject(f"the classes do not cover every residue of n mod {modulus}")
    key = (repr(pats), k, json.dumps(anchor, sort_keys=True),
           json.dumps(classes, sort_keys=True, default=lambda x: sorted(map(repr, x))), reach, modulus, n0)
    if key not in _REDECIDED:  # a certificate by residue class holds one copy of the same decision per class
        _redecide(pats, k, anchor, classes, reach, modulus, n0)
        _REDECIDED[key] = _nauty_instances(ctx.spec, pats, classes, modulus)
    checked = _REDECIDED[key]
    stated = cert.get("stated class")
    data = s.get("data") or {}
    shown = [c for c in classes if stated is None or (c["residue"], c["from"]) == (stated["residue"], stated["from"])]
    if not shown:
        raise Reject("the stated class is not one of the classes")
    if shown[0]["kind"] not in ("finite", "rotations") or (
            stated is None and any(c["kind"] == "open" for c in classes)):
        raise Reject("the stated class is not decided (an open class states no group)")
    if stated is None and len({(c["kind"], c["elements"]) for c in classes}) != 1:
        raise Reject("the classes differ, so the step must state one")
    if not name_fits(shown[0], data.get("name")):
        raise Reject(f"the name {data.get('name')!r} is not the class's group")
    if length is None:
        _order_fits(ctx, cert, data, shown[0], n)
        at = ""
    else:
        at = _length_fits(cert, data, classes, shown[0] if stated is not None else None, modulus, length)
    return VERIFIED, (f"Theorems F35–F39 (docs/theory.md §11.11): {why_anchor}; N₀ = {n0} from K = {reach}, L = {modulus}; "
                      f"each {'decided class' if _open_words(classes, modulus) else f'of the {modulus} classes'} re-decided on the verifier's arcs at two lengths ≥ N₀ and at every "
                      f"length from its bound{_open_words(classes, modulus)}; {checked}{at}")


def _open_words(classes: list, modulus: int) -> str:
    left = [c["residue"] for c in classes if c["kind"] == "open"]
    return f" (n mod {modulus} ∈ {left} open: no group stated there)" if left else ""


def _order_fits(ctx, cert: dict, data: dict, cls: dict, n: sympy.Symbol) -> None:
    """The certificate's order (and the step's, when it states one) is the class's: equal at a length of
    the class far out (both are n, 2n, n/m, 2n/m or a constant)."""
    from .check import Reject
    from .trees import decode
    big = 10 ** 6 * int(cert["modulus"]) + cls["residue"]  # in the class (m | L for the rotations by m)
    for where in (cert.get("order"), data.get("order")):
        if where is None:
            continue
        claimed = decode(where, ctx.symbols) if not isinstance(where, int) else sympy.Integer(where)
        claimed = sympy.sympify(claimed, strict=True).xreplace({n: sympy.Integer(big)})  # safe: strict (no text parsed)
        if claimed != order_of(cls, big):
            raise Reject(f"the order {sympy.sstr(claimed)} at n = {big} is not the class's {order_of(cls, big)}")


def _length_fits(cert: dict, data: dict, classes: list, cls: Optional[dict], modulus: int, length: int) -> str:
    """Theorem F125 (a): the file's length lies in the stated class `cls` from its bound on (in the class of its
    residue when none is stated: every class then has the same group), and the certificate's and the step's orders
    are the class's at that length."""
    from .check import Reject
    here = [c for c in classes if c["residue"] == length % modulus]
    if len(here) != 1 or (cls is not None and (here[0]["residue"], here[0]["from"]) != (cls["residue"], cls["from"])):
        raise Reject(f"n = {length} is not in the stated class")
    if here[0]["kind"] == "open" or length < here[0]["from"]:
        raise Reject(f"n = {length} is below the class's bound {here[0]['from']} or in an open class")
    want = order_of(here[0], length)
    for where in (cert.get("order"), data.get("order")):
        if where is None:
            continue
        if not isinstance(where, int) or isinstance(where, bool):
            from .trees import decode
            where = decode(where, {})
        if sympy.Integer(where) != want:
            raise Reject(f"the order {where} at n = {length} is not the class's {want}")
    return f"; n = {length} lies in the class n ≡ {length % modulus} (mod {modulus}) from n = {here[0]['from']}, order {want}"


def _nauty_instances(spec, pats, classes, modulus, top: int = INSTANCE_TOP) -> str:
    from .check import Reject
    from . import groups
    count = 0
    for c in classes:
        if c["kind"] == "open":
            continue
        for n in range(c["from"], top + 1):
            if (n - c["residue"]) % modulus:
                continue
            full, method = groups.full_order(patterns.head_labels([patterns.head_arcs(p, n) for p in pats]), n, "none")
            if full is None:
                return f"instances not re-counted ({method})"
            if full != order_of({"kind": c["kind"], "elements": list(c["elements"])}, n):
                raise Reject(f"at n = {n} the heads have {full} common symmetries, not {order_of(c, n)}")
            count += 1
    return f"the orders re-counted at {count} instances n ≤ {top} (nauty on the coloured union)"

