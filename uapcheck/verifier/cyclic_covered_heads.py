"""Theorem F210 (docs/theory.md §11.11), restated for the verifier: several unbiased heads without a positional encoding
whose distinct patterns are `window(w) cyclic`, `strided(s)` and their union (at least two of them, both parts
present), integers w + 1 ≤ s ≤ 2w + 1, s ≥ 3, n ≥ s(3w + 2). The union of the heads is Theorem F201's pattern (D = 2,
Theorem F197); on the classes of n mod s where Theorem F200 gives a view witness of the union, the same witness keeps
every head's neighbourhood of every position within distance 1 of its root and is no symmetry of the union, so it is
not in G (a subgroup of the union's automorphisms): 3 layers are least there.

What is checked (a PAT-LAYERS step with a certificate of kind "covered stride heads"): w and s read off the re-parsed
heads (not the certificate's), the count 3 and D = 2, the range's start s(3w + 2) or later, the least flag (every class
when the verifier's own F200 classes are every residue, else exactly those classes), and at every length of two periods
from the range's start on a stated class, the verifier's own F200 witness re-checked on each head's arcs (the
verifier's patterns): every position whose neighbourhood in some head σ changes lies at distance ≥ 2 from the root in
the union, and σ is no symmetry of the union.
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import spec as S
from . import cyclic_covered_least as covered
from . import patterns
from .check import VERIFIED, Reject


def applies(s) -> bool:
    return (s.get("certificate") or {}).get("kind") == "covered stride heads"


def _int(v) -> Optional[int]:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def heads_of(spec) -> tuple[int, int, list]:
    """(w, s, the distinct head patterns) read off the re-parsed file; Reject when it is not F210's setting."""
    if spec.positional != "none" or any(h.bias or h.position is not None for h in spec.heads):
        raise Reject("Theorem F210 is for heads without a bias or a positional encoding")
    pats = list(dict.fromkeys(h.pattern for h in spec.heads))
    if len(pats) < 2:
        raise Reject("Theorem F210 is for several distinct heads")
    ws: set = set()
    ss: set = set()
    for p in pats:
        parts = p.parts if isinstance(p, S.PatternUnion) else (p,)
        for q in parts:
            if isinstance(q, S.Window) and q.cyclic and _int(q.w) is not None:
                ws.add(q.w)
            elif isinstance(q, S.Strided) and _int(q.s) is not None:
                ss.add(q.s)
            else:
                raise Reject(f"a head's part {q!r} is not a cyclic window or a stride with an integer size")
    if len(ws) != 1 or len(ss) != 1:
        raise Reject("the heads do not have one cyclic window and one stride between them")
    w, s = ws.pop(), ss.pop()
    if not (w >= 1 and w + 1 <= s <= 2 * w + 1 and s >= 3):
        raise Reject(f"(w, s) = ({w}, {s}) is outside w + 1 ≤ s ≤ 2w + 1, s ≥ 3")
    return w, s, pats


def _instance_problem(w: int, s: int, n: int, pats: list) -> Optional[str]:
    found = covered.witness(w, s, n)
    if found is None:
        return f"n = {n}: no witness on a class the theorem states"
    root, cycles = found
    perm = list(range(1, n + 1))
    for a, b in cycles:
        perm[a - 1], perm[b - 1] = b, a
    heads = [patterns.head_arcs(p, n) for p in pats]
    union = patterns.head_arcs(S.PatternUnion((S.Window(w, True), S.Strided(s))), n)
    if all((perm[u - 1], perm[v - 1]) in union for u, v in union):
        return f"n = {n}: the witness is a symmetry of the union"
    dist = patterns.bfs(patterns.union_out(heads, n), root)
    near = [v for v in patterns.view_bad_positions(perm, heads, n) if dist[v] is not None and dist[v] <= 1]
    if near:
        return f"n = {n}: position {near[0]}, whose neighbourhood in a head the witness changes, is within 1 of {root}"
    return None


def layers(ctx, s):
    if s["status"] != "proved":
        raise Reject("PAT-LAYERS only concludes `proved`")
    w, st, pats = heads_of(ctx.spec)
    data = s.get("data") or {}
    if data.get("layers") == 2 and (s.get("certificate") or {}).get("n") is not None:
        return _divisible(ctx, s, w, st, data)
    if (s.get("certificate") or {}).get("n") is not None:
        if data.get("layers") != 3 or data.get("diameter") != 2:
            raise Reject(f"Theorem F210 gives D = 2 and 3 layers, not {data.get('diameter')} and {data.get('layers')}")
        return _at_length(ctx, s, w, st, pats, data)
    if data.get("diameter") != 2:
        raise Reject(f"Theorem F210 gives D = 2, not {data.get('diameter')}")
    divisible = st <= 2 * w  # Theorem F218: 2 layers, least, on n ≡ 0 (mod s)
    _check_count(ctx, data, st, divisible)
    start = covered.start(w, st)
    low = _int(data.get("from"))
    if low is None or low < start:
        raise Reject(f"the range n ≥ {data.get('from')} starts below Theorem F210's n ≥ {start}")
    classes = covered.classes(w, st)
    on = tuple(sorted(set(classes) | ({0} if divisible else set())))
    if not on:
        raise Reject("Theorems F200 and F218 give no class here, so no count is least")
    every = len(on) == st
    want = None if every else {"modulus": st, "residues": list(on)}
    if data.get("least") is not every or data.get("least classes") != want:
        raise Reject(f"the least flag ({data.get('least')}, classes {data.get('least classes')}) is not Theorems "
                     f"F210 and F218's (least on {'every class' if every else want})")
    if not every:  # re-derived here: the statement may say least on these classes
        ctx.least_classes[s["id"]] = (st, on)
    for n in range(start, start + 2 * st):
        if n % st == 0 and divisible:
            problem = covered.lemma_ah_problem(w, st, n)
            if problem:
                raise Reject(f"lemma AH fails at an instance: {problem}")
        elif n % st in classes:
            problem = _instance_problem(w, st, n, pats)
            if problem:
                raise Reject(f"Theorem F210 fails at an instance: {problem}")
    where = "on every class" if set(classes) == set(range(st)) else f"for n mod {st} in {set(classes)}"
    two = (f"2 layers, least, for n mod {st} = 0 (Theorem F218: lemma AH's steps re-checked on the union's arcs at "
           f"every instance that is a multiple of {st}; a view witness of the heads would be one of the union); "
           if divisible else "")
    return VERIFIED, (f"Theorems F210 and F218 (docs/theory.md §11.11), w = {w} and s = {st} read off the re-parsed "
                      f"heads: the union is Theorem F201's pattern (D = 2); {two}3 layers on the "
                      f"{'other ' if divisible else ''}classes, least {where} (Theorem F200's witness, restated here, "
                      f"keeps every head's neighbourhood within distance 1 of its root and is no symmetry of the "
                      f"union), sufficient on the others; re-checked on each head's arcs at every instance "
                      f"n = {start}..{start + 2 * st - 1} of such a class")


def _check_count(ctx, data: dict, st: int, divisible: bool) -> None:
    """The stated count at symbolic n is 2 on n ≡ 0 (mod s) when s ≤ 2w (Theorem F218) and 3 on every other class
    (Theorem F210): the decoded tree reduced exactly on n = s·k + r for every residue r."""
    from .trees import decode
    tree = data.get("layers")
    if tree is None:
        raise Reject("the count is not given")
    claimed = decode(tree, ctx.symbols)
    n = ctx.symbols.get(ctx.spec.tokens) if isinstance(ctx.spec.tokens, str) else None
    k = sympy.Symbol("k", integer=True, positive=True)
    for r in range(st):
        want = 2 if r == 0 and divisible else 3
        got = claimed.xreplace({n: st * k + r}) if n is not None else claimed
        if sympy.simplify(got - want) != 0:
            raise Reject(f"the count on n mod {st} = {r} is {sympy.sstr(got)}, not Theorem "
                         f"{'F218' if want == 2 else 'F210'}'s {want}")


#: at a concrete length up to this n the witness is re-checked at n itself as well (the arcs written out whole)
AT_LENGTH_CHECK_N = 4_000


def _at_length(ctx, s, w: int, st: int, pats: list, data: dict):
    """Theorem F210 read at the file's concrete length n (no arcs at n in the certificate): n is the file's, n ≥
    s(3w + 2), n mod s a class of the verifier's own F200 classes, the count least; the witness re-checked on each
    head's arcs at every instance of that class in two periods from the range's start, and at n itself when
    n ≤ AT_LENGTH_CHECK_N."""
    n = (s.get("certificate") or {}).get("n")
    if _int(n) is None or n != ctx.spec.tokens:
        raise Reject(f"the certificate's length {n!r} is not the file's n = {ctx.spec.tokens}")
    start = covered.start(w, st)
    classes = covered.classes(w, st)
    if n < start or n % st not in classes:
        raise Reject(f"n = {n} is below Theorem F210's n ≥ {start} or outside the classes {set(classes)} of n mod {st} "
                     "where Theorem F200 gives a witness")
    if data.get("least") is not True or data.get("least classes") is not None:
        raise Reject(f"at n = {n} Theorem F210 gives 3 layers, least (not least {data.get('least')} with classes "
                     f"{data.get('least classes')})")
    lengths = [m for m in range(start, start + 2 * st) if m % st == n % st]
    if n <= AT_LENGTH_CHECK_N:
        lengths.append(n)
    for m in lengths:
        problem = _instance_problem(w, st, m, pats)
        if problem:
            raise Reject(f"Theorem F210 fails at an instance: {problem}")
    return VERIFIED, (f"Theorem F210 (docs/theory.md §11.11) at n = {n}, w = {w} and s = {st} read off the re-parsed "
                      f"heads: n ≥ {start} and n mod {st} = {n % st} is a class of Theorem F200's witnesses (restated "
                      f"here), so 3 layers are least; the witness re-checked on each head's arcs at n = "
                      f"{', '.join(map(str, lengths))}")


def _divisible(ctx, s, w: int, st: int, data: dict):
    """Theorem F218 at the file's concrete length n: s | n, n ≥ s(3w + 2), w + 1 ≤ s ≤ 2w, D = 2 and 2 layers, least;
    lemma AH's steps re-checked on the verifier's arcs at n = s(3w + 2), s(3w + 3) and at n itself up to
    AT_LENGTH_CHECK_N."""
    n = (s.get("certificate") or {}).get("n")
    if _int(n) is None or n != ctx.spec.tokens:
        raise Reject(f"the certificate's length {n!r} is not the file's n = {ctx.spec.tokens}")
    start = covered.start(w, st)
    if n < start or n % st or st > 2 * w:
        raise Reject(f"Theorem F218 needs s | n, n ≥ {start} and s ≤ 2w (n = {n}, w = {w}, s = {st})")
    if data.get("diameter") != 2 or data.get("least") is not True or data.get("least classes") is not None:
        raise Reject("Theorem F218 gives D = 2 and 2 layers, least")
    lengths = [start, start + st] + ([n] if n <= AT_LENGTH_CHECK_N else [])
    for m in lengths:
        problem = covered.lemma_ah_problem(w, st, m)
        if problem:
            raise Reject(f"lemma AH fails at an instance: {problem}")
    return VERIFIED, (f"Theorem F218 (docs/theory.md §11.11) at n = {n}, w = {w} and s = {st} read off the re-parsed "
                      f"heads: {st} | n, n ≥ {start}, s ≤ 2w, so no view witness (lemma AH, its steps re-checked on "
                      f"the union's arcs at n = {', '.join(map(str, lengths))}): 2 layers, least")
