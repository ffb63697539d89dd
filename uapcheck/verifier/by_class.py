"""Steps stated by residue class of n (docs/theory.md §11.4, §12, §18), re-checked without the engines.

SYM-AUT when G depends on n mod L, and the step states one group per class:

* the certificate's classes (kind "by residue class") and its open residues (no group proved there) partition
  the residues 0, …, L − 1, and the step's stated classes (its data) are the certificate's classes, each stated
  class with one name; open residues need a premise of the verdict stating the group undecided on exactly those
  classes (SYM-UNDECIDED with `classes`), whose classes the verdict's range must exclude (`side_classes`);
* each class's certificate is re-checked by the verifier's own check of its kind (Theorems F35–F39 for a
  "head intersection"), as a SYM-AUT step stating that class's group; a "head intersection" class must
  state the residue class of its own modulus that the class's residues lie in;
* the step is verified when every class is; a class that is only trusted makes the step trusted;
* the step's `name` (the words the summary states as G) is read back as the classes' names with their conditions,
  "W₁ if C₁, …, else W_k" (C: "n even", "n odd", "n mod m = r", "n mod m ∈ {r, …}", m dividing L), and each name must
  hold on exactly the residues of the classes that state it (`name_states_classes`); a name that says another group
  on some class is rejected, one not read so is left trusted. (It used to be read nowhere: the classes re-checked,
  "reflection" in place of "reflection if n mod 7 = 0, else trivial" passed and was certified.)

PAT-DISCONNECTED on residue classes of n mod g only (the verdict states the other classes): with a
"coset invariant" certificate (Theorem F27 (a)), every head re-parsed must be cyclic offsets with integer
offsets, g must divide each of them and gcd(r, g) > 1 for every stated residue r, the witness must be
(i, j) = (1, 2), and at every n ≤ INSTANCE_TOP of the classes a BFS on the verifier's arcs from position 2
must miss position 1. Any other certificate (a closed form of the engine) is trusted.
"""
from __future__ import annotations

import functools
import json
import math
import operator
import re
from fractions import Fraction
from typing import Optional


#: class certificates whose structure names are checked for the order they state, their other words not compared
#: (Theorems F186 and F187, docs/theory.md §18.5)
WORDS_NOT_COMPARED = ("split line heads", "residue exchanging heads")


def _stated(s) -> dict:
    """residue → (name, order) of the step's data classes."""
    from .check import Reject
    data = s.get("data") or {}
    out: dict = {}
    for cls in data.get("classes") or []:
        for r in cls["residues"]:
            if int(r) in out:
                raise Reject(f"the residue {r} is stated in two classes")
            out[int(r)] = (cls.get("name"), cls.get("order"))
    return out


def check(ctx, s, check_one) -> tuple[str, str]:
    """`check_one(ctx, step)`: the verifier's SYM-AUT check, for one class's step."""
    from .check import VERIFIED, Reject, Trust
    cert = s.get("certificate") or {}
    modulus = int(cert["modulus"])
    entries = cert["classes"]
    covered = sorted(int(r) for e in entries for r in e["residues"])
    left = sorted(int(r) for r in cert.get("open") or [])
    if modulus < 2 or not entries or sorted(covered + left) != list(range(modulus)):
        raise Reject(f"the classes do not partition the residues of n mod {modulus}")
    if left:
        _open_classes_stated(ctx, modulus, left)
    stated = _stated(s)
    if sorted(stated) != covered:
        raise Reject("the step's classes are not the certificate's")
    reasons, trusted = [], []
    for e in entries:
        residues = [int(r) for r in e["residues"]]
        names = {json.dumps(stated[r], sort_keys=True): stated[r] for r in residues}  # orders may be trees
        if len(names) != 1:
            raise Reject(f"the residues {residues} have one certificate but different stated groups")
        (name, order), = names.values()
        sub = e["certificate"]
        if sub.get("kind") == "head intersection" and sub.get("stated class") is not None:
            own = int(sub["modulus"])
            at = int(sub["stated class"]["residue"])
            if any(r % own != at for r in residues) or modulus % own:
                raise Reject(f"the residues {residues} mod {modulus} are not the class n ≡ {at} (mod {own}) "
                             "their certificate states")
        if isinstance(sub.get("order"), dict) and order != sub["order"]:
            # the class's certificate states its order as a formula: the step must state that formula
            raise Reject(f"the order stated for n mod {modulus} ∈ {residues} is not its certificate's")
        data = {"name": name} if not isinstance(order, int) else {"name": name, "order": order}
        data.update({"residues": residues, "modulus": modulus})  # the class a class-specific check must match
        step = dict(s, certificate=sub, data=data)
        try:
            outcome, why = check_one(ctx, step)
        except Trust as exc:
            trusted.append(f"n mod {modulus} ∈ {residues}: {exc}")
            continue
        if outcome != VERIFIED:
            trusted.append(f"n mod {modulus} ∈ {residues}: {why}")
            continue
        reasons.append((residues, name, why))
        if sub.get("kind") in WORDS_NOT_COMPARED:  # the order a name states is checked, not its other words (§18.5)
            index = next((k for k, c in enumerate((s.get("data") or {}).get("classes") or [])
                          if any(int(r) in residues for r in c["residues"])), None)
            if index is not None and f"{s['id']} data.classes[{index}].name" not in ctx.unbound:
                ctx.unbound.append(f"{s['id']} data.classes[{index}].name")
    if trusted:
        raise Trust("G by residue class: " + "; ".join(trusted))
    length = ctx.spec.tokens if isinstance(ctx.spec.tokens, str) else "n"  # the name the conditions read the length by
    problem = name_states_classes((s.get("data") or {}).get("name"), stated, modulus, every=not left, length=length)
    if problem:
        raise problem
    stated_groups = "; ".join(f"n mod {modulus} ∈ {rs}: {name}" for rs, name, _ in reasons)
    whys = list(dict.fromkeys(why for _, _, why in reasons))  # one certificate often proves every class
    return VERIFIED, (f"G on each of the {len(entries)} certified classes ({stated_groups}), each re-checked: "
                      + "; ".join(whys))


@functools.lru_cache(maxsize=16)
def _condition(length: str) -> re.Pattern:
    """A class's condition as the name writes it, the length read by its name (`tokens N`: "N mod 4 = 1")."""
    x = re.escape(length)
    return re.compile(rf"{x} (even|odd)|{x} mod (\d+) = (\d+)|{x} mod (\d+) ∈ \{{(\d+(?:, \d+)*)\}}")


def _condition_at(text: str, pos: int, modulus: int, length: str = "n"):
    """(the residues mod `modulus` the condition at text[pos:] holds on, the position after it), or None."""
    found = _condition(length).match(text, pos)
    if found is None:
        return None
    parity, m1, r1, m2, rs = found.groups()
    if parity:
        m, allowed = 2, {0 if parity == "even" else 1}
    else:
        m = int(m1 or m2)
        allowed = {int(r1)} if m1 else {int(x) for x in rs.split(", ")}
    if m < 1 or modulus % m:
        return None
    return frozenset(r for r in range(modulus) if r % m in allowed), found.end()


def _read_name(text: str, pos: int, names: list, modulus: int, length: str = "n"):
    """The pieces (name, residues or None for "else") of text[pos:], "W if C, …, else W", or None when it is not
    of that form with the classes' names (tried longest first, with backtracking)."""
    for word in names:
        if text.startswith(word + " if ", pos):
            cond = _condition_at(text, pos + len(word) + 4, modulus, length)
            if cond is None:
                continue
            residues, end = cond
            if end == len(text):
                return [(word, residues)]
            if text.startswith(", ", end):
                rest = _read_name(text, end + 2, names, modulus, length)
                if rest is not None:
                    return [(word, residues)] + rest
        if pos > 0 and text[pos:] == "else " + word:
            return [(word, None)]
    return None


def name_states_classes(name, stated: dict, modulus: int, every: bool, length: str = "n") -> Optional[Exception]:
    """None when `name` states, residue by residue of n mod `modulus`, the classes' names `stated` (residue → (name,
    order)); a Reject when it states another one on some residue; a Trust when it is not read (not of the form
    `show_classes` writes, docs/theory.md §11.4)."""
    from .check import Reject, Trust
    words = {r: w for r, (w, _) in stated.items()}
    if not isinstance(name, str) or not all(isinstance(w, str) for w in words.values()):
        return Trust("the group's name by residue class is not read (a class without a name)")
    names = sorted(set(words.values()), key=len, reverse=True)
    if name in names:
        pieces: Optional[list] = [(name, None)]
    else:
        pieces = _read_name(name, 0, names, modulus, length)
    if pieces is None:
        return Trust(f"the group's name {name[:80]!r} is not read as the classes' names with their conditions")
    said: dict = {}
    for word, residues in pieces:
        if residues is None:
            taken = {r for w, rs in pieces if rs is not None for r in rs}
            residues = frozenset(r for r in (range(modulus) if every else words) if r not in taken)
        for r in residues:
            if said.setdefault(r, word) != word:
                return Reject(f"the group's name states two groups for n mod {modulus} = {r}")
    for r in range(modulus):
        if said.get(r) != words.get(r):
            return Reject(f"the group's name {name[:80]!r} states {said.get(r)!r} for n mod {modulus} = {r}, where "
                          f"the class re-checked is {words.get(r)!r}")
    return None


def _open_classes_stated(ctx, modulus: int, left: list) -> None:
    """Residues where the certificate proves no group: a premise of the verdict must state the group undecided on
    exactly those classes (SYM-UNDECIDED with `classes`), so that the verdict's range is checked to exclude them
    (`side_classes`) or the verdict is INCONCLUSIVE."""
    from .check import Reject
    from .structure import slots
    _, _, rest, _ = slots(ctx)
    for p in rest:
        cls = (p.get("data") or {}).get("classes")
        if p["rule"] == "SYM-UNDECIDED" and isinstance(cls, dict) and int(cls["modulus"]) == modulus and \
                sorted(int(r) for r in cls["residues"]) == left:
            return
    raise Reject(f"no group is proved for n mod {modulus} ∈ {left}, and no premise states it undecided there")


INSTANCE_TOP = 40


def disconnected(ctx, s) -> tuple[str, str]:
    from math import gcd
    from .. import spec as S
    from . import patterns
    from .check import VERIFIED, Reject, Trust
    cert = s.get("certificate") or {}
    data = s.get("data") or {}
    classes = data["classes"]
    if cert.get("kind") != "coset invariant":
        raise Trust("NOT-UAP on residue classes of n from the engine's closed form (not re-derived)")
    modulus, residues = int(classes["modulus"]), [int(r) for r in classes["residues"]]
    if modulus != int(cert["modulus"]) or residues != [int(r) for r in cert["residues"]]:
        raise Reject("the step's classes are not the certificate's")
    if (data.get("i"), data.get("j")) != (1, 2):
        raise Reject("the witness of a coset invariant is x_2 and position 1")
    offsets: list = []
    for h in ctx.spec.heads:
        p = h.pattern
        if not isinstance(p, S.Offsets) or not p.cyclic or not all(isinstance(o, int) for o in p.offsets):
            raise Reject("a coset invariant is for heads of cyclic offsets with integer offsets")
        offsets.extend(p.offsets)
    if modulus < 2 or any(o % modulus for o in offsets):
        raise Reject(f"{modulus} does not divide every offset")
    if not residues or any(not 0 <= r < modulus or gcd(r, modulus) == 1 for r in residues):
        raise Reject(f"a class n ≡ r (mod {modulus}) with gcd(r, {modulus}) = 1 is connected")
    checked = 0
    for n in range(2, INSTANCE_TOP + 1):
        if n % modulus not in residues:
            continue
        outs: list = [set() for _ in range(n + 1)]
        for h in ctx.spec.heads:
            for j, i in patterns.head_arcs(h.pattern, n):
                outs[j].add(i)
        if patterns.bfs([sorted(o) for o in outs], 2)[1] is not None:
            raise Reject(f"at n = {n} x_2 reaches position 1")
        checked += 1
    return VERIFIED, (f"every offset is a multiple of {modulus}: for n ≡ r (mod {modulus}) with gcd(r, {modulus}) > 1, "
                      f"e = gcd(n, {modulus}) > 1 divides every offset and n, so every arc keeps a position's residue "
                      f"mod e and x_2 never reaches position 1; BFS on the verifier's arcs agrees at {checked} lengths "
                      f"n ≤ {INSTANCE_TOP}")


# ---------------------------------------------------------------------------------------------
# A verdict beside premises stated for residue classes of n only (docs/theory.md §12): the verdict's range,
# read from its condition tree, must exclude every such class; re-derived here from the range's residue parts.

def _linear_mod(atom, n) -> bool:
    """Mod(a·n + c, m) with integers a, c and an integer m ≥ 1."""
    import sympy
    arg, m = atom.args
    if not (isinstance(m, sympy.Integer) and m >= 1) or arg.free_symbols - {n}:
        return False
    arg = sympy.expand(arg)
    return all(isinstance(c, sympy.Integer) for c in (arg.coeff(n, 1), arg.coeff(n, 0))) and \
        sympy.expand(arg - arg.coeff(n, 1) * n - arg.coeff(n, 0)) == 0


def _residue_parts(cond, n) -> list:
    """The conjuncts of `cond` that are functions of n mod integers alone (n only inside linear Mod atoms)."""
    import sympy
    parts = list(cond.args) if isinstance(cond, sympy.And) else [cond]
    out = []
    for p in parts:
        mods = [a for a in p.atoms(sympy.Mod) if n in a.free_symbols]
        if not mods or not all(_linear_mod(a, n) for a in mods):
            continue
        hidden = p.xreplace({a: sympy.Dummy() for a in mods})
        if not any(not isinstance(s, sympy.Dummy) for s in hidden.free_symbols):
            out.append(p)
    return out


#: the most residues `range_excludes` reads (the lcm of the classes' modulus and the range's)
EXCLUDES_TOP = 100_000


def range_excludes(cond, n, modulus: int, residues) -> bool:
    """Whether the range `cond` is false at every n ≡ r (mod `modulus`), r in `residues`: at each residue t of
    n mod lcm(modulus, the parts' moduli) with t mod `modulus` among them, some residue part is false (it
    depends on n mod its moduli only, so its value at t is its value on the whole class)."""
    import sympy
    from math import lcm
    if cond is None:
        return False
    parts = _residue_parts(cond, n)
    if not parts:
        return False
    moduli = [int(a.args[1]) for p in parts for a in p.atoms(sympy.Mod) if n in a.free_symbols]
    both = lcm(modulus, *moduli)
    if both > EXCLUDES_TOP:
        return False  # not read (forged moduli): the premise then holds for the whole range, the stricter reading
    residues = set(residues)
    for t in range(both):
        if t % modulus not in residues:
            continue
        if not any(p.xreplace({n: sympy.Integer(t)}) is sympy.false for p in parts):
            return False
    return True


def on_class(expr, n, modulus: int, r: int):
    """{r': expr at n = M·k + r'} for the residues r' ≡ r (mod `modulus`) of n mod M (M: `modulus` times what the
    floors, ceilings and Mods of expr need), each an expression in k with every floor(a·n + b), ceiling and
    Mod(a·n + b, m) reduced exactly (a·M an integer: floor(a·M·k + c) = a·M·k + floor(c)); None when one is
    not of that form."""
    import sympy
    from math import lcm
    def flat(e):
        # the average slope of a nested rounding: floors and ceilings by their arguments, Mods by 0 (the classes are
        # then checked exact by `reduce` below, so a modulus too small only gives None)
        while e.atoms(sympy.floor, sympy.ceiling, sympy.Mod):
            e = e.xreplace({a: (sympy.Integer(0) if isinstance(a, sympy.Mod) else a.args[0])
                            for a in e.atoms(sympy.floor, sympy.ceiling, sympy.Mod)})
        return e

    dens = [modulus]
    for atom in expr.atoms(sympy.floor, sympy.ceiling, sympy.Mod):
        arg = sympy.expand(flat(atom.args[0]))
        if arg.free_symbols - {n} or sympy.degree(arg, n) > 1:
            return None
        a = arg.coeff(n, 1)
        if not isinstance(a, sympy.Rational):
            return None
        dens.append(int(a.q) * (int(atom.args[1]) if isinstance(atom, sympy.Mod) else 1))
    big = lcm(*dens)
    k = sympy.Symbol("k·class", integer=True, nonnegative=True)

    def reduce(e):
        if not e.args:
            return e
        args = [reduce(a) for a in e.args]
        if isinstance(e, (sympy.floor, sympy.ceiling, sympy.Mod)):
            arg = sympy.expand(args[0])
            slope, rest = arg.coeff(k, 1), sympy.expand(arg - arg.coeff(k, 1) * k)
            if k in rest.free_symbols or not isinstance(slope, sympy.Integer):
                raise ValueError("not linear in k")
            if isinstance(e, sympy.Mod):
                m = args[1]
                if not isinstance(m, sympy.Integer) or slope % m:
                    raise ValueError("Mod not periodic in k")
                return sympy.Mod(rest, m)
            return slope * k + (sympy.floor(rest) if isinstance(e, sympy.floor) else sympy.ceiling(rest))
        return e.func(*args)
    out = {}
    for rr in range(r, big, modulus):
        try:
            out[rr] = sympy.expand(reduce(expr.xreplace({n: big * k + rr})))
        except ValueError:
            return None
    return out


def side_classes(ctx) -> tuple[set, list]:
    """(the ids of the premises stated for residue classes of n only whose classes the verdict's range
    excludes, the problems found): each such premise must be listed in the verdict's `classes` with its verdict
    (NOT-UAP proved, INCONCLUSIVE undecided), and its classes excluded from the range, re-derived here."""
    from . import class_entries
    from .structure import root, slots
    from .trees import TreeError, decode_condition
    r = root(ctx)
    _, tds, rest, _ = slots(ctx)
    stepped = [s for s in rest if (s.get("data") or {}).get("classes")]
    # a head's normaliser refuted on residue classes only (Lemma U, docs/theory.md §4): ILL-POSED there
    stepped += [s for s in tds if s["rule"] == "WP-POSITIVE" and s["status"] == "refuted"
                and (s.get("data") or {}).get("classes")]
    data = r.get("data") or {}
    n = ctx.symbols.get(ctx.spec.tokens) if isinstance(ctx.spec.tokens, str) else None
    if not stepped:
        return set(), class_entries.problems(ctx, r, [], set(), n)
    try:
        where = decode_condition(data["range"], ctx.symbols) if data.get("range") is not None else None
    except TreeError as exc:
        return set(), [f"{r['id']} (VERDICT-T1): its range: {exc}"]
    entries = data.get("classes")
    listed = [c for c in entries if isinstance(c, dict) and class_entries.well_formed(c)] \
        if isinstance(entries, list) else []
    side, problems = set(), []
    well_formed = []
    for s in stepped:
        cls = s["data"]["classes"]
        got = class_entries.classes_of(cls.get("modulus"), cls.get("residues")) if isinstance(cls, dict) else None
        if got is None:  # a forged modulus 0, 10⁹ or a word ended the verifier in an error, or read 10⁹ residues
            problems.append(f"{s['id']} ({s['rule']}): its classes {str(cls)[:80]} are not a modulus from 1 to "
                            f"{class_entries.PERIOD_TOP:,} with distinct residues below it")
            continue
        well_formed.append(s)
        modulus, residues = got[0], sorted(got[1])
        if n is None or not range_excludes(where, n, modulus, residues):
            continue  # then it is an obstruction (or an open premise) for the whole range
        want = "NOT-UAP" if s["status"] == "proved" else "ILL-POSED" if s["status"] == "refuted" else "INCONCLUSIVE"
        if not class_entries.lists(listed, modulus, residues, want) and ctx.cert["verdict"] != want:
            problems.append(f"{r['id']} (VERDICT-T1): the classes n mod {modulus} in {residues} of {s['id']} are "
                            f"not stated {want}")
        side.add(s["id"])
    # each class entry restates one of these premises, with its verdict and a condition exactly on its classes
    return side, problems + class_entries.problems(ctx, r, well_formed, side, n)


def same_on_kept_classes(ctx, side: set, layers, want) -> bool:
    """The summary's count equals the layer step's on every residue class of n the side premises leave (exactly:
    their difference, reduced on each class by `on_class`, is 0)."""
    from math import lcm
    steps = [ctx.steps[sid] for sid in side]
    moduli = [int(s["data"]["classes"]["modulus"]) for s in steps]
    modulus = lcm(*moduli)
    n = ctx.symbols.get(ctx.spec.tokens) if isinstance(ctx.spec.tokens, str) else None
    if n is None or modulus > EXCLUDES_TOP:
        return False  # (side premises with moduli 9,999 and 10,000 would be read on 10⁸ classes: not the same)
    diff = layers - want
    stated = [(int(s["data"]["classes"]["modulus"]), {int(x) for x in s["data"]["classes"]["residues"]})
              for s in steps]
    for t in range(modulus):
        if any(t % m in residues for m, residues in stated):
            continue
        values = on_class(diff, n, modulus, t)
        if values is None or any(v != 0 for v in values.values()):
            return False
    return True


# ---------------------------------------------------------------------------------------------
# The lengths below a verdict's stated range (docs/theory.md §12): the verdict step lists each length 1 ≤ n that
# no stated condition covers, with the verdict the derivation at that n concluded.

def _threshold_bound(rel, n) -> "int | None":
    """A bound on the n where the relation's truth can change: |c| for a·n + c ⋈ 0 with integers a, c; the
    integers it compares with for a relation of Mods of n alone, each Mod(a·n + c, m) with integers a, c
    (`_linear_mod`: periodic with period m); None otherwise (a rational slope or a floor of n changes truth beyond
    its constants, and Mod(n/62, 2) has period 124, not 2, so the relation is not read)."""
    import sympy
    diff = sympy.expand(rel.lhs - rel.rhs)
    mods = {a: sympy.Dummy() for a in diff.atoms(sympy.Mod) if n in a.free_symbols}
    if mods:
        if not all(_linear_mod(a, n) for a in mods):
            return None
        if n in diff.xreplace(mods).free_symbols:
            return None
        return max([0] + [abs(int(x)) for x in (rel.lhs, rel.rhs) if isinstance(x, sympy.Integer)])
    if not diff.is_polynomial(n):
        return None
    poly = sympy.Poly(diff, n)
    if poly.degree() > 1 or not all(c.is_Integer for c in poly.all_coeffs()):
        return None
    return abs(int(diff.coeff(n, 0)))


#: the most lengths `lengths` reads the conditions at (the largest constant they compare n with, plus their period)
LENGTHS_READ_TOP = 20_000


class _TooManyLengths(Exception):
    """The conditions' constants and period need more than LENGTHS_READ_TOP lengths read."""


def condition_window(cond, n) -> "tuple[int, int] | str":
    """(B, P): from B + 1 on the condition of n is periodic with period P (B the largest constant its relations
    compare n with, `_threshold_bound`; P the lcm of its moduli); words when it is not read so."""
    import sympy
    from math import lcm
    if cond.free_symbols - {n}:
        return f"it names {', '.join(sorted(str(x) for x in cond.free_symbols - {n}))} beside n"
    bound, moduli = 0, [1]
    for rel in cond.atoms(sympy.Rel):
        found = _threshold_bound(rel, n)
        if found is None:
            return f"its relation {rel} is not one of n mod integers or a·n + c with integers a, c"
        bound = max(bound, found)
    for a in cond.atoms(sympy.Mod):
        if n in a.free_symbols:
            if not isinstance(a.args[1], sympy.Integer) or int(a.args[1]) < 1:
                return f"{a} has no integer modulus"
            moduli.append(int(a.args[1]))
    return bound, lcm(*moduli)


class _NotRead(Exception):
    """A part of a condition `condition_at` does not evaluate itself (SymPy then does)."""


_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


def _number_at(e, n, v: int):
    """e (integers, rationals, n, sums, products, Mods) at n = v, exactly, in Python's integers and fractions."""
    import sympy
    if e == n:
        return v
    if isinstance(e, sympy.Integer):
        return int(e)
    if isinstance(e, sympy.Rational):
        return Fraction(int(e.p), int(e.q))
    if isinstance(e, (sympy.Add, sympy.Mul)):
        values = [_number_at(a, n, v) for a in e.args]
        return sum(values) if isinstance(e, sympy.Add) else math.prod(values)
    if isinstance(e, sympy.Mod):
        a, m = (_number_at(x, n, v) for x in e.args)
        if m == 0:
            raise _NotRead
        return a % m  # the sign of the modulus, as SymPy's Mod
    raise _NotRead


def _truth_at(c, n, v: int) -> bool:
    import sympy
    if c is sympy.true or c is sympy.false:
        return c is sympy.true
    if isinstance(c, (sympy.And, sympy.Or)):
        values = (_truth_at(a, n, v) for a in c.args)
        return all(values) if isinstance(c, sympy.And) else any(values)
    if isinstance(c, sympy.Not):
        return not _truth_at(c.args[0], n, v)
    if isinstance(c, sympy.Rel) and c.rel_op in _COMPARE:
        return _COMPARE[c.rel_op](_number_at(c.lhs, n, v), _number_at(c.rhs, n, v))
    raise _NotRead


def condition_at(cond, n, v: int):
    """cond at n = v: sympy.true or sympy.false, evaluated in Python's exact integers and fractions where cond is
    built of relations of sums, products and Mods (about ten times faster than SymPy's substitution: the conditions
    of a range and its classes are read at up to LENGTHS_READ_TOP lengths each), else SymPy's own substitution."""
    import sympy
    try:
        return sympy.true if _truth_at(cond, n, v) else sympy.false
    except _NotRead:
        return cond.xreplace({n: sympy.Integer(v)})


def _uncovered(conditions, n) -> "list[int] | None":
    """The lengths n ≥ 1 where no condition holds, when finitely many (periodic from the largest constant on);
    _TooManyLengths when reading them would take more than LENGTHS_READ_TOP lengths (a constant such as 10¹²
    in a forged range would otherwise be read length by length)."""
    import sympy
    from math import lcm
    bounds, periods = [1], [1]
    for c in conditions:
        window = condition_window(c, n)
        if isinstance(window, str):
            return None
        bounds.append(window[0])
        periods.append(window[1])
    start, period = max(bounds) + 1, lcm(*periods)
    if start + period - 1 > LENGTHS_READ_TOP:
        raise _TooManyLengths(f"the conditions' largest constant and period ({start - 1}, {period}) would need "
                              f"{start + period - 1:,} lengths read, more than {LENGTHS_READ_TOP:,}")
    out = []
    for v in range(1, start + period):
        values = [condition_at(c, n, v) for c in conditions]
        if any(x not in (sympy.true, sympy.false) for x in values):
            return None
        if not any(x is sympy.true for x in values):
            out.append(v)
    return None if any(v >= start for v in out) else out


def _resolved(pattern, name: str, n: int):
    """The pattern with the symbolic length's name replaced by n; ValueError for any other name."""
    import dataclasses
    if isinstance(pattern, str):
        sign, bare = (-1, pattern[1:]) if pattern.startswith("-") else (1, pattern)
        if bare != name:
            raise ValueError(f"the size {pattern} is a parameter")
        return sign * n
    if isinstance(pattern, tuple):
        return tuple(_resolved(x, name, n) for x in pattern)
    if dataclasses.is_dataclass(pattern) and not isinstance(pattern, type):
        return dataclasses.replace(pattern, **{f.name: _resolved(getattr(pattern, f.name), name, n)
                                                for f in dataclasses.fields(pattern) if f.init})
    return pattern


def _windows_never_from(ctx, s, where, n) -> bool:
    """A proved premise of per-layer windows whose finite list never connects (Theorems F234, F139; its checker holds
    its start against the widths' sum) states exactly this range."""
    import sympy

    from .structure import WINDOW_COUNTS
    for p in ctx.premises(s):
        data = p.get("data") or {}
        if p["rule"] in WINDOW_COUNTS and p["status"] == "proved" and "D_Φ" in data and data["D_Φ"] is None \
                and isinstance(data.get("from"), int) and where == sympy.Ge(n, data["from"]):
            return True
    return False


def _finite_list(ctx) -> bool:
    """Some head has a finite `pattern sequence`, or a periodic one cut by a budget (the union of its layers' arcs may
    join what its layers never do)."""
    return any(type(h.pattern).__name__ == "PatternSequence" and (not h.pattern.periodic or ctx.spec.layers is not None)
               for h in ctx.spec.heads)


def reach_at(ctx, value: int) -> "tuple[list, bool, int]":
    """(the heads' arcs, strongly connected, the diameter of the strongly connected union, else the largest finite
    distance) at the length `value`, by BFS on the verifier's own arcs; ValueError (or KeyError, TypeError) when a
    pattern size is a parameter (no arcs at a length alone)."""
    from . import patterns
    # one position: no arc, whatever the sizes; a pattern per layer gives the arcs of each of its layers (their union
    # holds every path through increasing layers: not strongly connected there, never connected per layer)
    heads = [patterns.head_arcs(p if value == 1 else _resolved(p, ctx.spec.tokens, value), value)
             for h in ctx.spec.heads
             for p in (h.pattern.patterns if type(h.pattern).__name__ == "PatternSequence" else (h.pattern,))]
    outs = patterns.union_out(heads, value)
    dists = [patterns.bfs(outs, j) for j in range(1, value + 1)]
    connected = all(d is not None for row in dists for d in row[1:])
    diameter: int = max((d for row in dists for d in row[1:] if d is not None), default=0)
    return heads, connected, diameter


def lengths(ctx, s) -> str:
    """The verdict step's lengths below its range: exactly the lengths no stated condition covers (the range and
    the classes stated beside it, decoded here), and at each one the verdict agrees with BFS on the verifier's own
    arcs (NOT-UAP: not strongly connected, or a budget below the diameter, or a budget of D with a view witness at
    depth D, `_not_uap_within_budget`; UAP: strongly connected with the diameter at most the count, and the count within the budget).
    Returns the words for the step's reason ("" without lengths)."""
    import sympy
    from .check import Reject, Trust
    from .trees import TreeError, decode_condition
    data = s.get("data") or {}
    listed = data.get("lengths")
    if not listed:
        return ""
    if not isinstance(ctx.spec.tokens, str):
        raise Reject("lengths below a range are stated for a symbolic n only")
    n = ctx.symbols[ctx.spec.tokens]
    try:
        conds = [decode_condition(data["range"], ctx.symbols) if data.get("range") is not None else sympy.true]
        conds += [decode_condition(c["condition"], ctx.symbols) for c in data.get("classes") or []
                  if c.get("verdict") is not None]
    except (TreeError, KeyError, TypeError) as exc:
        raise Reject(f"the range or a class condition: {exc}") from None
    try:
        want = _uncovered(conds, n)
    except _TooManyLengths as exc:
        raise Trust(f"the lengths below the range are not re-derived: {exc}") from None
    if not isinstance(listed, list) or not all(isinstance(x, dict) and isinstance(x.get("n"), int)
                                               and not isinstance(x.get("n"), bool) for x in listed):
        raise Reject("the lengths below the range are not a list of lengths, each an integer n")
    got = [x["n"] for x in listed]
    if want is None or got != want:
        raise Reject(f"the lengths below the range are {want}, the step states {got}")
    special = _mixer_lengths if ctx.spec.mixer is not None else _layer_lengths if any(
        type(h.pattern).__name__ == "PatternSequence" for h in ctx.spec.heads) else None
    if special is not None:  # a convolution mixer (§22), per-layer patterns (§21)
        return special(ctx, listed, got)
    budget = ctx.spec.layers
    for x, value, verdict, layers in _decisive(listed):
        if _not_allowed(ctx, value):
            raise Reject(f"n = {value} is not a length the file allows (a global or sinks part exceeds it): no verdict "
                         "is stated there")
        try:
            heads, connected, diameter = reach_at(ctx, value)
        except (ValueError, KeyError, TypeError) as exc:
            raise Trust(f"the lengths below the range: n = {value}: {exc}") from None
        cap = value if budget == ctx.spec.tokens else budget if isinstance(budget, int) else None
        if verdict == "NOT-UAP" and connected and (cap is None or cap >= diameter):
            if cap is None:
                raise Reject(f"n = {value}: stated NOT-UAP, but the pattern is strongly connected")
            _not_uap_within_budget(ctx, heads, value, diameter, cap)  # a budget at least D: a view witness's business
            continue
        if verdict == "UAP":
            if not connected or not isinstance(layers, int) or layers < max(diameter, 1) or (
                    cap is not None and layers > cap):
                raise Reject(f"n = {value}: stated UAP with {layers} layers, but BFS gives "
                             f"{'no strong connectivity' if not connected else f'D = {diameter}'}")
            _group_and_layers_at(ctx, heads, value, diameter, x)
    return (f"; the lengths below the range, n = {', '.join(map(str, got))}, are exactly those no stated condition "
            "covers (re-derived from the range and the classes), and at each BFS on the verifier's arcs agrees with "
            "the stated verdict; where UAP, the group's order is re-derived (nauty's generators on the verifier's "
            "labelled arcs, order by Schreier–Sims) and the count checked against the rooted views at that n, or, for "
            "one symmetric head, a swap witness or Theorem F111's far-adjacency table on the verifier's arcs "
            "(D layers only when no view witness exists, D + 1 stated least only when one does)")


def _layer_depth(L) -> "int | None":
    """D_Φ of the verifier's per-layer arcs: the least m with In_m(i) = [n] for every i (None: not within the network's
    depth, or not within n periods of a periodic list, after which the reach no longer changes)."""
    from . import layer_views
    full = (1 << (L.n + 1)) - 2
    top = L.limit if L.limit is not None else (L.n + 1) * L.period
    for m in range(0, top + 1):
        if all(mask == full for mask in layer_views.reach(L, m)[1:]):
            return m
    return None


def _layer_lengths(ctx, listed, got) -> str:
    """Per-layer patterns' lengths below the range (docs/theory.md §21): at each one, on the verifier's own arcs, D_Φ
    by the reach recurrence (NOT-UAP only where the network's layers never connect), G's order by nauty's generators,
    no view witness at the stated count (§21.4's rooted views, with nauty) and, where it is above max(D_Φ, 1) and
    stated least, a witness one layer below."""
    from dataclasses import replace

    from . import groups, layer_views
    from .check import Reject, Trust
    from .views import NoNauty
    for x, value, verdict, layers in _decisive(listed):
        try:
            L = layer_views.build(replace(ctx.spec, tokens=value))
        except layer_views.NotLayered as exc:
            raise Trust(f"the lengths below the range: n = {value}: {exc}") from None
        d = _layer_depth(L)
        if verdict == "NOT-UAP":
            if d is not None:
                raise Trust(f"n = {value}: stated NOT-UAP with the layers connected within {d}: a view witness at the "
                            "whole depth is not re-derived here")
            continue
        if d is None or layers < max(d, 1) or (L.limit is not None and layers > L.limit):
            raise Reject(f"n = {value}: stated UAP with {layers} layers, but the reach gives D_Φ = {d}")
        gens, method = groups.full_generators(L.labels(), value, "none")
        if gens is None:
            raise Trust(f"the lengths below the range: n = {value}: the group is not re-derived ({method})")
        if x.get("order") != groups.order(gens, value):
            raise Reject(f"n = {value}: the group stated has order {x.get('order')}, the layers' arcs "
                         f"{groups.order(gens, value)} symmetries ({method})")
        try:
            problem = layer_views.no_witness(L, layers, gens)
            below = layer_views.no_witness(L, layers - 1, gens) if x.get("least") and layers > max(d, 1) else "-"
        except NoNauty as exc:
            raise Trust(f"the lengths below the range: n = {value}: {exc}") from None
        if problem:
            raise Reject(f"n = {value}: {layers} layers do not suffice: {problem}")
        if not below:
            raise Reject(f"n = {value}: {layers} layers stated least, but no view witness exists at depth {layers - 1}")
    return (f"; the lengths below the range, n = {', '.join(map(str, got))}, are exactly those no stated condition "
            "covers, and at each the verifier's own per-layer arcs give the stated verdict: D_Φ by the reach "
            "recurrence, G's order by nauty's generators (Schreier–Sims), no view witness at the stated count and one "
            "below it where the count is above D_Φ and stated least (§21.4's rooted views, with nauty)")


def _decisive(listed):
    """(entry, n, verdict, layers) for each listed length stated UAP or NOT-UAP; Reject for an unknown verdict, and for
    a count that is not a positive integer at a UAP length or is stated at all at any other (no count holds there: a
    length not decided, NOT-UAP, INCONCLUSIVE or ILL-POSED has none)."""
    from .check import Reject
    for x in listed:
        value, verdict, layers = int(x["n"]), x.get("verdict"), x.get("layers")
        if verdict not in ("UAP", "NOT-UAP", "INCONCLUSIVE", "ILL-POSED", None):
            raise Reject(f"n = {value}: unknown verdict {verdict!r}")
        if verdict == "UAP" and (not isinstance(layers, int) or isinstance(layers, bool) or layers < 1):
            raise Reject(f"n = {value}: stated UAP with {layers!r} layers, not a positive count")
        if verdict != "UAP" and (layers is not None or x.get("least") is not None or x.get("order") is not None):
            raise Reject(f"n = {value}: a count, least flag or order is stated beside the verdict {verdict}, where "
                         "none holds")
        if verdict in ("UAP", "NOT-UAP"):
            yield x, value, verdict, layers


def _mixer_lengths(ctx, listed, got) -> str:
    """A convolution mixer's lengths below its range (docs/theory.md §22): at each one the sum sets of the
    verifier's own taps mod n fill Z_n exactly when UAP is stated, at the depth stated (least: fewer leave an offset
    unread, §22.2), and the stated group's order is the centraliser's, C_{n/g} ≀ S_g with g = gcd(n, taps)."""
    from .check import Reject
    from .rules_conv import _taps, _wreath_order, sumset_depth, tap_gcd
    for x, value, verdict, layers in _decisive(listed):
        taps = _taps(ctx, {}, value)
        depth, _ = sumset_depth(value, taps)
        budget = ctx.spec.layers
        cap = value if budget == ctx.spec.tokens else budget if isinstance(budget, int) else None
        if verdict == "NOT-UAP" and depth is not None and (budget is None or (cap is not None and cap >= max(depth, 1))):
            raise Reject(f"n = {value}: stated NOT-UAP, but the taps' sum sets fill Z_{value} at depth {depth}"
                         + ("" if budget is None else f", within the budget of {cap}"))
        if verdict != "UAP":
            continue
        if depth is None:
            raise Reject(f"n = {value}: stated UAP, but the taps generate only the multiples of "
                         f"{tap_gcd(value, taps)} in Z_{value}")
        if layers != max(depth, 1) or x.get("least") is not True:
            raise Reject(f"n = {value}: stated {layers} layers (least {x.get('least')}), but the sum sets fill "
                         f"Z_{value} first at depth {depth}")
        order = x.get("order")
        want = _wreath_order(value, tap_gcd(value, taps))
        if order != want:
            raise Reject(f"n = {value}: the group stated has order {order}, the centraliser of the tap shifts {want}")
    return (f"; the lengths below the range, n = {', '.join(map(str, got))}, are exactly those no stated condition "
            "covers (re-derived from the range and the classes), and at each the sum sets of the taps mod n, "
            "recomputed here, fill Z_n first at the stated count (least, §22.2), with the centraliser's order")


def range_within_premises(ctx, s) -> str:
    """A UAP verdict stated for a range of a symbolic n rests on premises each proved from its own start (their
    data's `from`, checked by their own checks): the verdict's range must hold at no length below the largest
    integer start, re-derived here at every such length (a lowered range would certify lengths the theorems do not
    cover). Starts with parameters are the family theorems with named sizes (§18.5). "" when nothing applies."""
    import sympy
    from .check import Reject
    from .trees import TreeError, decode, decode_condition
    data = s.get("data") or {}
    if ctx.cert.get("verdict") != "UAP" or data.get("range") is None or not isinstance(ctx.spec.tokens, str):
        return ""
    n = ctx.symbols[ctx.spec.tokens]
    starts = []
    for p in ctx.premises(s):
        low = (p.get("data") or {}).get("from") if p.get("status") == "proved" else None
        if low is None:
            continue
        try:
            value = decode(low, ctx.symbols)
        except TreeError as exc:
            raise Reject(f"premise {p['id']}'s start: {exc}") from None
        if isinstance(value, sympy.Integer):
            starts.append((int(value), p["id"]))
    if not starts:
        return ""
    start, pid = max(starts)
    try:
        where = decode_condition(data["range"], ctx.symbols)
    except (TreeError, TypeError) as exc:
        raise Reject(f"the range: {exc}") from None
    for v in range(1, start):
        if where.xreplace({n: sympy.Integer(v)}) is not sympy.false:
            raise Reject(f"the range {where} holds (or is not decided) at n = {v}, below premise {pid}'s start "
                         f"n ≥ {start}")
    return f"; the range holds at no length below n = {start}, the largest start of its premises ({pid})"


def two_key_range(ctx, s) -> str:
    """A UAP verdict at a symbolic n resting on WP-POSITIVE's third or fourth form (k > 0 off x·z = 0 or off q = ±k:
    the parameters where a row's normaliser vanishes have a connected complement only when the row has two keys,
    docs/theory.md §4) must be stated for a range that excludes n = 1 (§12). The steps it rests on are walked here
    from the verdict (a head left out by Lemma Z, HEADS-ZERO-VALUE, rests on the separating head, not on its own
    premises). "" when nothing applies."""
    import sympy
    from .check import Reject
    from .trees import TreeError, decode_condition
    if ctx.cert.get("verdict") != "UAP" or not isinstance(ctx.spec.tokens, str):
        return ""
    seen, stack, forms = set(), [s["id"]], []
    while stack:
        sid = stack.pop()
        if sid in seen:
            continue
        seen.add(sid)
        step = ctx.steps[sid]
        if step["rule"] == "WP-POSITIVE" and step["status"] == "proved" and (step.get("evidence") or {}).get("boundary"):
            forms.append(sid)
        if step["rule"] != "HEADS-ZERO-VALUE":
            stack.extend(step["premises"])
    if not forms:
        return ""
    data = s.get("data") or {}
    n = ctx.symbols[ctx.spec.tokens]
    try:
        where = decode_condition(data["range"], ctx.symbols) if data.get("range") is not None else sympy.true
    except (TreeError, TypeError) as exc:
        raise Reject(f"the range: {exc}") from None
    if where.xreplace({n: sympy.Integer(1)}) is not sympy.false:
        raise Reject(f"the UAP range {where} admits n = 1, but {forms[0]} (WP-POSITIVE, positive off a hypersurface) "
                     "needs two keys per row")
    return f"; the range excludes n = 1, where {forms[0]}'s form (two keys per row) does not hold"


#: The lengths of a NOT-UAP verdict's range re-checked on the verifier's arcs.
def ill_posed_range(ctx, s) -> str:
    """An ILL-POSED verdict's range (docs/theory.md §4 Lemma T, §12): none when some refuted normaliser step holds at
    every n; otherwise n ≥ N for a refuted step whose mixed row holds from N on (checked by that step's own check,
    which re-derives the row's keys on a local pattern). Rejects a verdict stated for every n that rests only on
    refutations from a first length on, and a range no refuted step states. "" for another verdict."""
    import sympy
    from .check import Reject
    from .structure import slots
    from .trees import TreeError, decode_condition
    if ctx.cert.get("verdict") != "ILL-POSED":
        return ""
    _, tds, _, _ = slots(ctx)
    refuted = [t for t in tds if t["rule"] == "WP-POSITIVE" and t["status"] == "refuted"]
    starts = []
    for t in refuted:
        ev = t.get("evidence") or {}
        row = ev.get("mixed row") if "mixed row" in ev else ev.get("ratio row")
        start = row.get("from n") if isinstance(row, dict) else None
        starts.append(start if isinstance(start, int) and not isinstance(start, bool) and start > 1 else None)
    data = s.get("data") or {}
    if data.get("range") is None:
        known = [x for x in starts if x is not None]
        if refuted and len(known) == len(starts):
            raise Reject(f"ILL-POSED is stated for every n, but each refuted normaliser holds from n = {min(known)} on")
        return ""
    if not isinstance(ctx.spec.tokens, str):
        raise Reject("an ILL-POSED range at a concrete length")
    n = ctx.symbols[ctx.spec.tokens]
    try:
        where = decode_condition(data["range"], ctx.symbols)
    except (TreeError, KeyError, TypeError) as exc:
        raise Reject(f"the range: {exc}") from None
    for start in starts:
        if start is not None and all(bool(where.xreplace({n: sympy.Integer(v)})) == (v >= start)
                                     for v in range(1, start + 64)):
            return (f"; the ILL-POSED range {where} is that of the refuted normaliser's row, whose keys are fixed from "
                    f"n = {start} on (re-checked at n = 1…{start + 63})")
    raise Reject(f"the ILL-POSED range {where} is not n ≥ N for a refuted normaliser holding from N on")


RANGE_TOP = 60


def not_uap_range(ctx, s) -> str:
    """A NOT-UAP verdict stated for a range R of a symbolic n (its data's `range`, the obstruction's): at every
    n ≤ RANGE_TOP in R the verifier's own arcs are not strongly connected, or the budget is below their diameter,
    or a proved PAT-BUDGET-CLASS premise states the same range (its check holds that range against the count's
    theorem, which is a view witness's business). Rejects a length of R where none of these holds, so no NOT-UAP
    is stated below the obstruction's range; "" for another verdict or without a range, words otherwise."""
    import sympy
    from .check import Reject, Trust
    from .trees import TreeError, decode_condition
    data = s.get("data") or {}
    if ctx.cert.get("verdict") != "NOT-UAP" or data.get("range") is None or not isinstance(ctx.spec.tokens, str):
        return ""
    n = ctx.symbols[ctx.spec.tokens]
    try:
        where = decode_condition(data["range"], ctx.symbols)
    except (TreeError, KeyError, TypeError) as exc:
        raise Reject(f"the range: {exc}") from None
    if where.free_symbols != {n}:
        return f"; the range {where} has parameters: it is the obstruction premise's, not re-checked at lengths"
    beyond = [p for p in ctx.premises(s) if p["rule"] == "PAT-BUDGET-N" and p["status"] == "proved"]
    if beyond and (beyond[0].get("data") or {}).get("range") != data["range"]:
        raise Reject(f"the NOT-UAP range is not the range of {beyond[0]['id']} (PAT-BUDGET-N), which its check holds "
                     "against the diameter's closed form")
    by_budget = any(p["rule"] == "PAT-BUDGET-CLASS" and p["status"] == "proved" and
                    (p.get("data") or {}).get("range") == data["range"] for p in ctx.premises(s))
    budget, checked = ctx.spec.layers, []
    by_count = _windows_never_from(ctx, s, where, n)
    for value in range(1, RANGE_TOP + 1):
        if where.xreplace({n: sympy.Integer(value)}) is not sympy.true:
            continue
        try:
            _, connected, diameter = reach_at(ctx, value)
        except (ValueError, KeyError, TypeError) as exc:
            # a pattern size that is a parameter: no arcs at a length alone; the range is the obstruction premise's
            return (f"; the NOT-UAP range {where} is not re-checked at lengths ({exc}): it rests on the obstruction "
                    "premise's check")
        if connected and by_count:
            checked.append(value)
            continue
        if connected and _finite_list(ctx):
            raise Trust(f"n = {value} lies in the NOT-UAP range {where}: the union of a finite per-layer list's arcs is "
                        "strongly connected there, and its layers' reach is not re-derived here")
        if connected and not (isinstance(budget, int) and budget < diameter) and not by_budget:
            raise Reject(f"n = {value} lies in the NOT-UAP range {where}, but the pattern is strongly connected "
                         f"(D = {diameter}) and no budget premise states that range")
        checked.append(value)
    if not checked:
        return ""
    return (f"; the NOT-UAP range {where} re-checked at n = {checked[0]}…{checked[-1]} on the verifier's arcs (not "
            "strongly connected, or the budget below the diameter" + (", or the budget step's range" if by_budget
                                                                     else "") + ")")


def _complete_at(pattern, n: int) -> bool:
    """The pattern is complete at n: `full`, a non-cyclic window whose radius reaches n − 1, or a cyclic one whose
    radius reaches ⌊n/2⌋ (n ≤ 2w + 1; its arcs carry the real offsets, as a dense head's)."""
    from .. import spec as S
    return isinstance(pattern, S.Full) or (isinstance(pattern, S.Window) and isinstance(pattern.w, int)
                                           and pattern.w >= (n // 2 if pattern.cyclic else n - 1))


def _dense_bias_at(ctx, n: int, layers: int, depth: int, least=None) -> bool:
    """Dense heads (complete at n) whose only position information is a trainable bias, at a small n (depth D = 1):
    whether one layer suffices is re-decided over all of S_n by the BIAS-LAYERS check's brute force (a row's labels
    kept by a σ outside the group), and beyond it, with T5 buckets, by the joint classes of the offsets (Theorem
    F136); True when the stated count agrees, Reject when it does not, False when this does not apply."""
    from .check import Reject
    from .rules_bias import EXHAUSTIVE_N, JOINT_N, by_joint_labels, label_kinds, one_layer_witness
    heads = ctx.spec.heads
    trainable = [h for h in heads if h.bias or (h.position is not None and h.position.kind == "buckets")]
    if depth != 1 or ctx.spec.positional != "none" or not trainable or any(
            not _complete_at(h.pattern, n) or (h.position is not None and h not in trainable) for h in heads):
        return False
    kinds = label_kinds(ctx.spec, n)
    if {"free", "toeplitz"} & set(kinds):  # a head giving each key of a row its own class: one layer (TD-BIAS)
        if layers != 1:
            raise Reject(f"n = {n}: {layers} layers stated, but a `free` or `toeplitz` head (or T5 buckets with a "
                         "bucket per offset) separates in one layer")
        return True
    if n > EXHAUSTIVE_N:
        if least is not True or n > JOINT_N or not any(isinstance(k, tuple) for k in kinds):
            return False
        return by_joint_labels(n, kinds, layers, least) is not None  # Theorem F136 (§16.5), or Reject
    found = one_layer_witness(kinds, n)
    if (found is not None) != (layers == 2):
        raise Reject(f"n = {n}: {layers} layer(s) stated, but a one-layer labelled witness "
                     f"{'exists' if found else 'does not exist'} (all of S_{n})")
    return True


def _view_problem(heads, n: int, depth: int, gens) -> "str | None":
    """None when no view witness exists at depth D = `depth` at n, else why one does: for one symmetric head a swap
    witness or Theorem F111's far-adjacency table on the verifier's arcs (verifier/far_table.py), else the rooted
    views with nauty."""
    from . import far_table, views
    from .check import Trust
    quick = far_table.decide(heads, n, depth, [min(orbit) for orbit in views.orbits(gens, n)])
    if quick is not None:
        return None if quick == "enough" else "a swap of two positions at distance D is a view witness"
    try:
        return views.decide(heads, n, depth, gens)
    except views.NoNauty as exc:
        raise Trust(f"the lengths below the range: n = {n}: the rooted views are not re-decided: {exc}") from None


def _group_kinds(ctx, n: int):
    """The label kinds for the group at n: a position term's classes where the verifier re-derives them (§16.1),
    else None (the arcs and trainable biases, as before T5 buckets were read)."""
    from .check import Trust
    from .rules_positions import group_bias
    if not any(h.position is not None for h in ctx.spec.heads):
        return None
    try:
        return [group_bias(ctx, h, n) for h in ctx.spec.heads]
    except Trust:
        return None


def _fixed_weights_exhaustive(ctx, heads, n: int, layers: int, depth: int) -> bool:
    """Whether D layers at a length below the range are re-decided as PAT-LAYERS re-decides them at a concrete n for
    fixed position weights (rules_graph: Lemma V^ρ's heads, every σ ∈ S_n tried on the labelled views, n ≤ 8): True
    when no view witness exists (a witness rejects), False when the case is not that one."""
    from . import rules_graph
    fixed = [h for h in ctx.spec.heads if h.position is not None and h.position.kind != "buckets"]
    if (layers != depth or not fixed or n > rules_graph.EXHAUSTIVE_MAX_N or ctx.spec.positional != "none"
            or any(h.bias for h in ctx.spec.heads) or not all(rules_graph._lemma_v_rho(ctx, h) for h in fixed)):
        return False
    rules_graph._exhaustive(ctx, heads, n, depth)
    return True


def _group_and_layers_at(ctx, heads, n: int, diameter: int, x: dict) -> None:
    """At a length stated UAP below the range: the stated order of G is |Aut| of the verifier's labelled arcs at n
    (nauty's generators, their order by Schreier–Sims), and the count is D only when no view witness exists at
    depth D (so D layers suffice), D + 1 stated least only when one does (docs/theory.md §11.9, decided with nauty
    on the rooted views), any larger count not least. Rejects a disagreement; Trust when nauty is not available,
    the order is not stated as a number, or the heads carry bias or a positional encoding (labelled views, not
    re-decided here)."""
    from . import groups, patterns
    from .check import Reject, Trust
    lab = patterns.labels_at(ctx.spec, heads, n, _group_kinds(ctx, n))
    gens, method = groups.full_generators(lab, n, ctx.spec.positional)
    if gens is None:
        raise Trust(f"the lengths below the range: n = {n}: the group is not re-derived ({method})")
    if not all(patterns.preserves(g, lab, ctx.spec.positional) for g in gens):
        raise Reject(f"n = {n}: a generator found does not preserve the labelled arcs")
    order = groups.order(gens, n)
    stated = x.get("order")
    if not isinstance(stated, int) or isinstance(stated, bool):
        raise Trust(f"the lengths below the range: n = {n}: the group's order is not stated as a number")
    if stated != order:
        raise Reject(f"n = {n}: the group stated has order {stated}, but the labelled arcs have {order} symmetries "
                     f"({method})")
    layers, least = int(x["layers"]), x.get("least")
    if least not in (True, False, None):
        raise Reject(f"n = {n}: `least` is not a truth value")
    depth = max(diameter, 1)
    if layers > depth + 1:
        if least:
            raise Reject(f"n = {n}: {layers} layers stated least, above D + 1 = {depth + 1} (which always suffice)")
        return
    if layers == depth + 1 and not least:
        return  # D + 1 suffice by the view argument (§11.2)
    if layers == depth and order == math.factorial(n):
        return  # G = S_n: no permutation lies outside G, so no view witness exists and D layers suffice (§11.9)
    if _dense_bias_at(ctx, n, layers, depth, least):
        return  # dense heads with trainable biases, re-decided over S_n (BIAS-LAYERS' own check)
    if _fixed_weights_exhaustive(ctx, heads, n, layers, depth):
        return  # fixed position weights on softmax heads, D layers re-decided over S_n (Lemma V^ρ, Theorem F161)
    if any(h.bias or h.position is not None for h in ctx.spec.heads) or ctx.spec.positional != "none":
        raise Trust(f"the lengths below the range: n = {n}: whether D layers suffice with bias or a positional "
                    "encoding (labelled views) is not re-decided here")
    problem = _view_problem(heads, n, depth, gens)
    if layers == depth and problem:
        raise Reject(f"n = {n}: {layers} = D layers stated, but {problem}, so D layers do not suffice")
    if layers == depth + 1 and problem is None:
        raise Reject(f"n = {n}: {layers} = D + 1 layers stated least, but no view witness exists at depth D = "
                     f"{depth}: D layers suffice")


def _not_uap_within_budget(ctx, heads, n: int, diameter: int, budget: int) -> None:
    """At a length stated NOT-UAP below the range whose pattern is strongly connected with D ≤ the budget: the least
    count is above the budget, so the budget is D and a view witness exists at depth D (D + 1 layers always suffice,
    §11.2), decided with nauty on the rooted views as at a UAP length. Rejects a budget of D + 1 or more, and D where
    no view witness exists (or G = S_n); Trust where the views are labelled or nauty is not available."""
    from . import groups, patterns
    from .check import Reject, Trust
    depth = max(diameter, 1)
    if budget > depth:
        raise Reject(f"n = {n}: stated NOT-UAP, but D + 1 = {depth + 1} layers suffice (the view argument) within the "
                     f"budget of {budget}")
    if any(h.bias or h.position is not None for h in ctx.spec.heads) or ctx.spec.positional != "none":
        raise Trust(f"the lengths below the range: n = {n}: whether D layers suffice with bias or a positional "
                    "encoding (labelled views) is not re-decided here")
    lab = patterns.labels_at(ctx.spec, heads, n, None)
    gens, method = groups.full_generators(lab, n, ctx.spec.positional)
    if gens is None:
        raise Trust(f"the lengths below the range: n = {n}: the group is not re-derived ({method})")
    if not all(patterns.preserves(g, lab, ctx.spec.positional) for g in gens):
        raise Reject(f"n = {n}: a generator found does not preserve the labelled arcs")
    if groups.order(gens, n) == math.factorial(n) or _view_problem(heads, n, depth, gens) is None:
        raise Reject(f"n = {n}: stated NOT-UAP, but no view witness exists at depth D = {depth}: D layers suffice "
                     f"within the budget of {budget}")


def _not_allowed(ctx, value: int) -> bool:
    """A length the file does not allow: some `global(g)` or `sinks(k)` of a head with an integer g or k above it (the
    parser refuses the file there), or a param g or k whose lower bound is above it (no value the file allows is at
    most n)."""
    from .. import spec as S
    from .rules_targets import _pattern_parts
    least = {p.name: max(p.lower or 1, 1) for p in ctx.spec.params if p.constraint == "integer"}
    sizes = [p.g if isinstance(p, S.Global) else p.k for h in ctx.spec.heads for p in _pattern_parts(h.pattern)
             if isinstance(p, (S.Global, S.Sinks))]
    sizes = [least.get(k, k) if isinstance(k, str) else k for k in sizes]
    return any(isinstance(k, int) and not isinstance(k, bool) and k > value for k in sizes)
