"""The verdict step's class entries (VERDICT-T1 at a symbolic n, docs/theory.md §12, §18): what the statement
prints beside the range ("INCONCLUSIVE for n ≥ 119 and n mod 7 ∈ {0, 5, 6}") is each entry's verdict and condition,
so each entry is held against the premise it restates.

* Each entry restates one premise stated for residue classes of n only (its rule, and the same classes, compared
  mod the lcm of the two moduli); an entry that restates no such premise, or one another entry restates already, is
  named.
* An entry with a verdict states the verdict its premise's status gives (NOT-UAP proved, ILL-POSED refuted,
  INCONCLUSIVE undecided), and only on classes the verdict's range excludes (the premise is a side premise,
  `by_class.side_classes`); an entry without a verdict is printed nowhere (the obstruction that decides the range
  itself, or a class with the range's own verdict).
* Its condition holds exactly on its classes: never off them, and on every one of them from the largest constant
  its relations compare with on (the condition is periodic there), read at every n from 1 to that constant plus the
  lcm of the moduli (as `by_class.lengths` reads the conditions it covers the lengths with; at most READ_TOP lengths,
  a condition needing more is named).
* A NOT-UAP condition is re-checked at each n ≤ RANGE_TOP it holds at, as the range's (`by_class.not_uap_range`):
  the verifier's arcs are not strongly connected there, or the budget is below their diameter (for a convolution
  mixer: the taps' sum sets never fill Z_n, or fill it after the budget), or the entry restates a PAT-BUDGET-CLASS
  premise and its condition is that step's range (which its check holds against the count's theorem).
* The classes the entries with a verdict state are pairwise disjoint (mod the lcm of their moduli), so no class is
  printed twice; each is disjoint from the range already (`side_classes`). That they leave no class unstated beside
  the range, where the step claims it by listing the lengths below, is `by_class.lengths`' (an unstated class
  leaves infinitely many lengths no condition covers).

Before, an extra entry, an entry off its premise's classes or a condition off its residues passed unnamed: nothing
false was derived, but a false restatement of the derivation was printed as certified.
"""
from __future__ import annotations

from math import gcd, lcm
from typing import Optional

from .by_class import LENGTHS_READ_TOP as READ_TOP  # the same limit as the lengths below a range
from .by_class import condition_at  # a condition at one length, as the lengths below a range read it
from .by_class import condition_window as _window  # the same reading of a condition as the lengths below a range

#: the verdict a class premise's status gives on its classes
VERDICT_OF = {"proved": "NOT-UAP", "refuted": "ILL-POSED", "undecided": "INCONCLUSIVE"}
#: the largest period of a condition read (the lcm of its moduli and its entry's)
PERIOD_TOP = 10_000


def classes_of(modulus, residues) -> Optional[tuple[int, frozenset]]:
    """(modulus, residues) when they are a modulus ≥ 1 and distinct residues in 0…modulus − 1, at least one."""
    if not isinstance(modulus, int) or isinstance(modulus, bool) or not 1 <= modulus <= PERIOD_TOP:
        return None
    if not isinstance(residues, list) or not residues or not all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x < modulus for x in residues):
        return None
    if len(set(residues)) != len(residues):
        return None
    return modulus, frozenset(residues)


def well_formed(entry: dict) -> bool:
    """The entry states a modulus ≥ 1 and distinct residues below it (what `problems` reads further)."""
    return classes_of(entry.get("modulus"), entry.get("residues")) is not None


def lists(entries: list, modulus: int, residues, verdict: str) -> bool:
    """Some well-formed entry states `verdict` on the classes n mod `modulus` in `residues` (written with any
    modulus)."""
    want = (modulus, frozenset(residues))
    return any(e.get("verdict") == verdict and _same(classes_of(e["modulus"], e["residues"]) or (1, frozenset()), want)
               for e in entries)


def _on_gcd(a: tuple, g: int) -> Optional[frozenset]:
    """The residues mod g of the classes a = (m, residues mod m), g | m, when they are a union of classes mod g
    (closed under + g mod m), else None."""
    m, residues = a
    if any((r + g) % m not in residues for r in residues):
        return None
    return frozenset(r % g for r in residues)


def _same(a: tuple, b: tuple) -> bool:
    """The same classes of n. Equal sets of integers periodic with periods m and m′ are periodic with period
    g = gcd(m, m′), so they are the same exactly when both are unions of classes mod g with the same residues mod g
    (read in |a| + |b| steps, not on the lcm's residues, which forged moduli of 10⁴ would make 10⁸)."""
    g = gcd(a[0], b[0])
    on_a = _on_gcd(a, g)
    return on_a is not None and on_a == _on_gcd(b, g)


def _meet(a: tuple, b: tuple) -> Optional[int]:
    """A residue of n mod lcm(a's modulus, b's) in both classes, or None: n ≡ r (mod m) and n ≡ r′ (mod m′) meet
    exactly when r ≡ r′ (mod gcd(m, m′)), at the n the Chinese remainder theorem gives."""
    (m, ra), (mb, rb) = a, b
    g = gcd(m, mb)
    by_rest: dict = {}
    for r in ra:
        by_rest.setdefault(r % g, r)
    for r2 in sorted(rb):
        r = by_rest.get(r2 % g)
        if r is not None:
            # n = r + m·k with m·k ≡ r2 − r (mod mb): k = ((r2 − r)/g)·(m/g)⁻¹ mod mb/g
            k = (r2 - r) // g * pow(m // g, -1, mb // g) % (mb // g) if mb // g > 1 else 0
            return (r + m * k) % lcm(m, mb)
    return None


def exact_on(cond, n, classes: tuple) -> Optional[str]:
    """None when `cond` holds at no n ≥ 1 off `classes` and at every n of them above the largest constant it
    compares n with; words for the first n where it does not (or why it is not read)."""
    import sympy
    found = _window(cond, n)
    if isinstance(found, str):
        return found
    bound, period = found
    period = lcm(period, classes[0])
    if period > PERIOD_TOP or bound + period > READ_TOP:
        return f"its constants and period ({bound}, {period}) would need more than {READ_TOP} lengths read"
    for v in range(1, bound + period + 1):
        value = condition_at(cond, n, v)
        if value not in (sympy.true, sympy.false):
            return f"it is not decided at n = {v}"
        inside = v % classes[0] in classes[1]
        if value is sympy.true and not inside:
            return f"it holds at n = {v}, off the classes"
        if value is sympy.false and inside and v > bound:
            return f"it fails at n = {v}, a length of the classes above every constant it compares n with"
    return None


def _equal(a, b, n) -> bool:
    """Two conditions of n that hold at the same n ≥ 1 (read up to the larger start plus both periods)."""
    wa, wb = _window(a, n), _window(b, n)
    if isinstance(wa, str) or isinstance(wb, str) or lcm(wa[1], wb[1]) > PERIOD_TOP:
        return False
    top = max(wa[0], wb[0]) + lcm(wa[1], wb[1])
    if top > READ_TOP:
        return False
    return all(condition_at(a, n, v) is condition_at(b, n, v) for v in range(1, top + 1))


def _not_uap_problem(ctx, cond, n, premise) -> Optional[str]:
    """None when the NOT-UAP condition holds at no n ≤ RANGE_TOP where the verifier finds the family's pattern
    strongly connected within the budget (or the entry restates a PAT-BUDGET-CLASS premise with this range);
    words for the first such n."""
    import sympy

    from .by_class import RANGE_TOP, reach_at
    from .trees import TreeError, decode_condition
    if premise["rule"] == "PAT-BUDGET-CLASS":
        try:
            stated = decode_condition((premise.get("data") or {}).get("range"), ctx.symbols)
        except (TreeError, TypeError):
            return f"{premise['id']} (PAT-BUDGET-CLASS) states no range to hold it against"
        return None if _equal(cond, stated, n) else f"it is not the range {stated} of {premise['id']} (PAT-BUDGET-CLASS)"
    budget = ctx.spec.layers if isinstance(ctx.spec.layers, int) and not isinstance(ctx.spec.layers, bool) else None
    for value in range(1, RANGE_TOP + 1):
        if cond.xreplace({n: sympy.Integer(value)}) is not sympy.true:
            continue
        if ctx.spec.mixer is not None:
            from .check import Trust
            from .rules_conv import _taps, sumset_depth
            try:
                depth, _ = sumset_depth(value, _taps(ctx, {}, value))
            except Trust:
                return None  # a span that is a parameter: the premise's own check holds the classes
            if depth is not None and not (budget is not None and budget < depth):
                return f"at n = {value} the taps' sum sets fill Z_{value} at depth {depth}"
            continue
        try:
            _, connected, diameter = reach_at(ctx, value)
        except (ValueError, KeyError, TypeError):
            return None  # a pattern size that is a parameter: no arcs at a length alone (the premise's check)
        if connected and not (budget is not None and budget < diameter):
            return f"at n = {value} the pattern is strongly connected (D = {diameter}) within the budget"
    return None


def problems(ctx, r, stepped: list, side: set, n) -> list[str]:
    """The problems of the verdict step `r`'s class entries (module docstring). `stepped`: the premises stated for
    residue classes of n only; `side`: the ids of those whose classes the verdict's range excludes; `n`: the
    symbolic length (None at a concrete one)."""
    entries = (r.get("data") or {}).get("classes")
    if entries is None:
        return []
    head = f"{r['id']} (VERDICT-T1)"
    if not isinstance(entries, list):
        return [f"{head}: its classes are not a list of entries"]
    premises = []
    for s in stepped:
        cls = s["data"]["classes"]
        got = classes_of(cls.get("modulus"), cls.get("residues")) if isinstance(cls, dict) else None
        if got is not None:
            premises.append((s, got))
    out: list[str] = []
    used: set = set()
    printed: list[tuple[str, tuple]] = []
    for e in entries:
        name, classes, wrong = _entry(ctx, e, premises, used, side, n)
        if wrong is not None:
            out.append(f"{head}: {wrong}")
            continue
        if classes is None or e.get("verdict") is None:
            continue
        for other_name, other in printed:
            t = _meet(other, classes)
            if t is not None:
                out.append(f"{head}: {name} and {other_name} both state the classes n ≡ {t} "
                           f"(mod {lcm(other[0], classes[0])})")
        printed.append((name, classes))
    return out


def _entry(ctx, e, premises: list, used: set, side: set, n) -> tuple[str, Optional[tuple], Optional[str]]:
    """(the entry's words, its classes, its problem or None) for one class entry; the premise it restates is added
    to `used`."""
    from .trees import TreeError, decode_condition
    classes = classes_of(e.get("modulus"), e.get("residues")) if isinstance(e, dict) else None
    verdict = e.get("verdict") if isinstance(e, dict) else None
    if classes is None or verdict not in (None, *VERDICT_OF.values()):
        return "", None, f"the class entry {str(e)[:80]} is not a modulus, its residues and a verdict"
    name = f"the class entry n mod {classes[0]} in {sorted(classes[1])} ({verdict})"
    match = [s for s, c in premises if s["rule"] == e.get("rule", s["rule"]) and _same(c, classes)]
    if not match:
        return name, classes, f"{name} restates no premise's classes"
    s = next((x for x in match if x["id"] not in used), None)
    if s is None:
        return name, classes, f"{name} restates {match[0]['id']} a second time (an extra entry)"
    used.add(s["id"])
    want = VERDICT_OF.get(s["status"])
    if verdict is not None and verdict != want:
        return name, classes, f"{name} states {verdict}, but {s['id']} ({s['rule']}, {s['status']}) gives {want}"
    if verdict is not None and s["id"] not in side:
        return name, classes, f"{name} states a verdict on classes the verdict's range does not exclude"
    if n is None:
        return name, classes, None
    if e.get("condition") is None:
        return name, classes, f"{name} states a verdict with no condition" if verdict is not None else None
    try:
        cond = decode_condition(e["condition"], ctx.symbols)
    except (TreeError, TypeError) as exc:
        return name, classes, f"{name}: its condition: {exc}"
    wrong = exact_on(cond, n, classes)
    if wrong is not None:
        return name, classes, f"{name}: its condition does not hold exactly on its classes ({wrong})"
    if verdict == "NOT-UAP":
        wrong = _not_uap_problem(ctx, cond, n, s)
        if wrong is not None:
            return name, classes, f"{name}: its NOT-UAP condition {cond} is not re-derived ({wrong})"
    return name, classes, None
