"""SYM-AUT for `offsets {2, 4} cyclic` (or {−2, −4}, with or without the offset 0) beside `global(g)` (g ≥ 1) or
`star`, at symbolic n or at a length of a class (docs/theory.md §11.11, Theorem F221), re-checked with the verifier's own code.

What is checked (a certificate of kind "cyclic parity hubs"):
* the re-parsed heads are exactly those two (the verifier's own reading of spec.Offsets and spec.Global); the sign,
  the offset 0 and g are the certificate's;
* the classes are the verifier's restatement of F221: n even from max(8, g + 2) (rounded up to even) with order 2
  when g is even ({id, σ}, σ = (1 2)(3 4)…), 1 when g is odd ≥ 3 and n/2 when g = 1 (the rotations of the even
  positions); n odd from max(5, g + 2) (rounded up to odd), order 1;
* the step's class and order are one of them, and a stated length lies in that class from its bound on; the order
  and the name the step states (its data) are the class's (the name as written here);
* nauty's order on the verifier's own arcs equals the class's at every length of each class from its bound through
  RECOUNT_TOP (at least the first two of each class, for a large g; past RECOUNT_MAX_N the step is trusted), and at even
  lengths σ (g even) or the rotation by 2 of the even positions (g = 1) keeps both heads'
  arcs.
The theorem's proof (Lemma AI, the rotations of C_m(1, 2)) is the part taken from docs/theory.md.
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import spec as S
from .check import VERIFIED, Reject, Trust
from . import groups, patterns
from .trees import TreeError, decode

#: the lengths re-counted with nauty: every length of each class from its bound up to this
RECOUNT_TOP = 36
#: a hub count whose classes start past this many positions is not re-counted (the step is then trusted)
RECOUNT_MAX_N = 200


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def read(pats: list) -> Optional[tuple[int, bool, int]]:
    """(sign, loops, g) of the re-parsed distinct heads, or None outside the theorem."""
    if len(pats) != 2:
        return None
    offsets, hubs = None, None
    for p in pats:
        if isinstance(p, S.Offsets) and p.cyclic and offsets is None:
            values = [_int(k) for k in p.offsets]
            if any(v is None for v in values):
                return None
            nonzero = {v for v in values if v != 0}
            if nonzero == {2, 4}:
                offsets = (1, 0 in values)
            elif nonzero == {-2, -4}:
                offsets = (-1, 0 in values)
            else:
                return None
        elif isinstance(p, S.Global) and (_int(p.g) or 0) >= 1 and hubs is None:
            hubs = _int(p.g)
        elif isinstance(p, S.Star) and hubs is None:
            hubs = 1
        else:
            return None
    if offsets is None or hubs is None:
        return None
    return offsets[0], offsets[1], hubs


def classes(g: int, n) -> dict[int, tuple[int, sympy.Expr]]:
    """residue → (bound, order as an expression in n), the verifier's restatement of F221."""
    even = max(8, g + 2)
    odd = max(5, g + 2)
    order = n / 2 if g == 1 else sympy.Integer(2 if g % 2 == 0 else 1)
    return {0: (even + even % 2, order), 1: (odd + 1 - odd % 2, sympy.Integer(1))}


def name_of(g: int, residue: int) -> str:
    """The class's group in words: trivial (n odd, or g odd ≥ 3), σ exchanging 2j − 1 and 2j (g even), the rotations
    of the even positions (g = 1)."""
    if residue == 1 or (g % 2 and g > 1):
        return "trivial"
    if g % 2 == 0:
        return "the exchange of 2j − 1 and 2j for every j"
    return "C_{n/2}: the rotations i ↦ i + 2t (mod n) of the even positions, the odd ones fixed"


def _kept(arcs: list, image: dict) -> bool:
    return all(frozenset((image[j], image[i]) for j, i in a) == a for a in arcs)


def _recount(pats: list, g: int, table: dict, n_symbol) -> int:
    """nauty's order at every length of each class from its bound to RECOUNT_TOP (the first two of a class past it),
    and the even class's generator on its lengths; the number of lengths re-counted."""
    count = 0
    for r, (low, order) in table.items():
        for n in range(low, max(RECOUNT_TOP, low + 2) + 1, 2):
            arcs = [patterns.head_arcs(p, n) for p in pats]
            got, method = groups.full_order(patterns.head_labels(arcs), n, "none")
            want = int(order.xreplace({n_symbol: sympy.Integer(n)}))
            if got != want:
                raise Reject(f"Theorem F221: at n = {n} the order is {got} ({method}), not the class's {want}")
            if r == 0 and g % 2 == 0 and not _kept(arcs, {i: i + 1 if i % 2 else i - 1 for i in range(1, n + 1)}):
                raise Reject(f"Theorem F221: at n = {n} the exchange of 2j − 1 and 2j moves a head's arcs")
            if r == 0 and g == 1 and not _kept(arcs, {i: i if i % 2 else (i + 1) % n + 1 for i in range(1, n + 1)}):
                raise Reject(f"Theorem F221: at n = {n} the rotation of the even positions moves a head's arcs")
            count += 1
    return count


def _stated(tree, symbols: dict, n_symbol, length_names: frozenset) -> sympy.Expr:
    """An order as written, the length (as the file names it, `length_names`) read as ``n_symbol``; any other name (a
    param, or n beside another symbolic length) is kept, so an order in it differs from the class's."""
    try:
        value = decode(tree, symbols)
    except TreeError as exc:
        raise Reject(f"Theorem F221: an order is not an expression ({exc})") from exc
    return value.xreplace({x: n_symbol for x in value.free_symbols if x.name in length_names})


def check(ctx, s) -> tuple[str, str]:  # noqa: C901 - one problem per claim of the certificate
    spec = ctx.spec
    cert = s.get("certificate") or {}
    if spec.positional != "none" or any(h.bias for h in spec.heads):
        raise Reject("Theorem F221 is for unbiased heads without a positional encoding")
    pats = list(dict.fromkeys(h.pattern for h in spec.heads))
    got = read(pats)
    if got is None:
        raise Reject("Theorem F221 is for one head offsets {2, 4} cyclic (or {−2, −4}) beside one head global(g) or star")
    sign, loops, g = got
    if (cert.get("sign"), bool(cert.get("loops")), cert.get("hubs")) != (sign, loops, g):
        raise Reject("Theorem F221: the sign, the offset 0 or the hub count is not the heads'")
    n_symbol = sympy.Symbol("n", integer=True, positive=True)
    symbols = dict(ctx.symbols) if isinstance(spec.tokens, str) else {**dict(ctx.symbols), "n": n_symbol}
    # the length's name in an order: the file's symbolic `tokens` (an order in another name, n beside `tokens N`, is
    # about a length the file does not have), the theorems' n at an integer length; a param's name is never one
    names = frozenset({spec.tokens if isinstance(spec.tokens, str) else "n"})
    table = classes(g, n_symbol)
    stated = {int(c["residue"]): (int(c["from"]), _stated(c["order"], symbols, n_symbol, names))
              for c in cert.get("classes") or []}
    if sorted(stated) != [0, 1] or any(stated[r][0] != table[r][0] or sympy.expand(stated[r][1] - table[r][1]) != 0
                                       for r in (0, 1)):
        raise Reject(f"Theorem F221: the classes are {table}, not the certificate's {stated}")
    residue = cert.get("residue")
    if residue not in table:
        raise Reject("Theorem F221: the step states no class of n mod 2")
    data = s.get("data") or {}
    if data.get("residues") is not None and sorted({int(r) % 2 for r in data["residues"]}) != [residue]:
        raise Reject("Theorem F221: the step's residues are not the certificate's class")
    low, order = table[residue]
    length = cert.get("n")
    if length is not None:
        if _int(length) is None or length < low or length % 2 != residue or length != spec.tokens:
            raise Reject(f"Theorem F221: n = {length} is not the file's length in the class n ≡ {residue} (mod 2), "
                         f"n ≥ {low}")
        order = order.xreplace({n_symbol: sympy.Integer(length)})
    claimed = _stated(cert.get("order"), symbols, n_symbol, names) if cert.get("order") is not None else None
    if claimed is None or sympy.expand(claimed - order) != 0:
        raise Reject(f"Theorem F221: the order on the class n ≡ {residue} (mod 2) is {order}, not {cert.get('order')}")
    # the group the step states (its data; a class of a by-residue step: that class's), not only the certificate's
    if data.get("order") is not None:
        said = data["order"]
        said = sympy.Integer(said) if _int(said) is not None else _stated(said, symbols, n_symbol, names)
        if sympy.expand(said - order) != 0:
            raise Reject(f"Theorem F221: the step states the order {said} on the class n ≡ {residue} (mod 2), not "
                         f"{order}")
    name = name_of(g, residue)
    if data.get("name") is not None and data["name"] != name:
        raise Reject(f"Theorem F221: the step names the group {str(data['name'])[:80]!r} on the class n ≡ {residue} "
                     f"(mod 2), not {name!r}")
    top = max(RECOUNT_TOP, max(low for low, _ in table.values()) + 2)  # the last length re-counted
    if top > RECOUNT_MAX_N:
        raise Trust(f"Theorem F221 with {g} hubs: its classes start past n = {RECOUNT_MAX_N - 2}, where nauty's order "
                    "is not re-counted here")
    counted = _recount(pats, g, table, n_symbol)
    at = "" if length is None else f", read at n = {length:,}"
    kept = ""
    if g % 2 == 0:
        kept = ", and the exchange of 2j − 1 and 2j keeps both heads at the even ones"
    elif g == 1:
        kept = ", and the rotation by 2 of the even positions keeps both heads at the even ones"
    return VERIFIED, (f"Theorem F221 (docs/theory.md §11.11): offsets {{{2 * sign}, {4 * sign}}} cyclic beside "
                      f"{g} hub{'s' if g > 1 else ''}; the class n ≡ {residue} (mod 2) from n = {low}, order {order}{at}; "
                      f"nauty's order on the verifier's arcs matched at {counted} lengths of both classes up to "
                      f"{top}{kept}")
