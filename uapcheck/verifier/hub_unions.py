"""Theorems F30–F33 (docs/theory.md §11.11), restated for the verifier with its own reading of the
re-parsed pattern: globals added to a base pattern, integer parameters.

    F31 global(g) (or star) + a union of window, offsets and dilated parts, every offset at most r:
        n ≥ g + 3r + 3 (and ≥ 4r + 3 with a cyclic part): D = 2, 3 layers (least), the witness the swap
        (g+2r+2 g+2r+3) at position g + 1; G (F32) when every cyclic part has offsets at most g and then
        - every part offsets of one sign with ±1 among them: S_g on the globals (order g!), n ≥ g + 2;
        - dilated(w, r) alone: order g!·2^r·e!·(r − e)! with n − g ≡ e (mod r), n ≥ g + r(2w + 1);
        - window(w) + dilated(w', r): S_g × the reflection of the rest (order 2·g!), from g + the range of
          the verifier's own F9 or F15;
    F33 window(w) + strided(s) + global(g): n ≥ g + the reflection's range (F7's group range, or s(4w + 3)):
        D = 2, order 2·g!; 3 layers least with the theorem's witness when s ≥ w + 3 or (w, s) = (1, 3)
        (n ≥ g + 2s + w + 2, or g + 9); 2 layers least (rooted views with nauty at the instances) where its own F7
        entry proves 2 layers for window(w) + strided(s), from g + that entry's range, or, for s = w + 2, where its own
        restatement of Theorem F81 succeeds (the check of F7's step (6) for w ≤ 3, the premises of step (6′) beyond),
        from g + s(4w + 3); else 3 layers, not least.

The instance check (`families.instance_problem`) then re-checks D, |G| and the witness on the verifier's
own arcs at the first lengths of the range.
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import spec as S


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def _swap(n: int, a: int, b: int) -> list:
    return [b if k == a else a if k == b else k for k in range(1, n + 1)]


def _offsets_of(q) -> Optional[list]:
    """The integer offsets of a local part (window: ±1..±w; offsets: as listed, 0 dropped; dilated: ±kr)."""
    if isinstance(q, S.Window):
        w = _int(q.w)
        return None if w is None or w < 1 else [k for k in range(-w, w + 1) if k]
    if isinstance(q, S.Offsets):
        ks = [_int(k) for k in q.offsets]
        return None if any(k is None for k in ks) else [k for k in ks if k]
    if isinstance(q, S.Dilated):
        w, r = _int(q.w), _int(q.r)
        return None if w is None or r is None or w < 1 or r < 2 else [s * k * r for k in range(1, w + 1) for s in (1, -1)]
    return None


def match(parts: list):
    """The verifier's Family for these union parts (one global part and a base), or None."""
    glob = [q for q in parts if isinstance(q, (S.Global, S.Star))]
    base = [q for q in parts if not isinstance(q, (S.Global, S.Star))]
    if len(glob) != 1 or not base:
        return None
    g = 1 if isinstance(glob[0], S.Star) else _int(glob[0].g)
    if g is None or g < 1:
        return None
    kinds = sorted(type(q).__name__ for q in base)
    if kinds == ["Strided", "Window"]:
        win = next(q for q in base if isinstance(q, S.Window))
        w, s = _int(win.w), _int(next(q for q in base if isinstance(q, S.Strided)).s)
        if win.cyclic or w is None or s is None or w < 1 or s < 2:
            return None
        return _window_strided(g, w, s)
    if not all(isinstance(q, (S.Window, S.Offsets, S.Dilated)) for q in base):
        return None
    found = [_offsets_of(q) for q in base]
    offsets = [o for o in found if o is not None]
    if len(offsets) != len(found) or not any(offsets):
        return None
    ks = {k for o in offsets for k in o}
    w = max(abs(k) for k in ks)
    if ks == set(range(-w, w + 1)) - {0} and _one_window(base, w):
        return None  # a window (cyclic or not) with globals: Theorems F2, F3, F10
    if len(base) == 1 and isinstance(base[0], S.Offsets) and base[0].cyclic and ks in ({1}, {-1}):
        return None  # Theorem F24
    return _local(g, base, offsets)


def _one_window(base: list, w: int) -> bool:
    """Whether the base's arcs are those of one window(w), cyclic or not (by the verifier's arc description,
    verifier/normal_form.py): `window(2) + window(1) cyclic` has the offsets of window(2) and the wrap-around arcs
    (1, n), (n, 1) besides, so it is neither, and Theorem F31 is its theorem."""
    from .normal_form import arcs_description
    union = base[0] if len(base) == 1 else S.PatternUnion(tuple(base))
    return any(arcs_description(union) == arcs_description(S.Window(w, cyclic)) for cyclic in (False, True))


def _local(g: int, base: list, offsets: list):
    from .families import Family
    r = max(abs(k) for o in offsets for k in o)
    cyclic = any(getattr(q, "cyclic", False) for q in base)
    low = max(g + 3 * r + 3, 4 * r + 3) if cyclic else g + 3 * r + 3
    a = g + 2 * r + 2

    def witness(n):
        return g + 1, _swap(n, a, a + 1)
    from .cyclic_hubs import hole_jumps, mixed_jumps
    hole = hole_jumps(g, base, offsets) if cyclic else None
    mixed = mixed_jumps(g, base, offsets) if cyclic and hole is None else None
    if mixed is not None:   # Theorem F230: the circulant with the hole and non-cyclic jumps above g
        found = _mixed_group(g, mixed, low, tuple(base))
    else:
        found = _hole_group(g, hole, low) if hole is not None else _local_group(g, base, offsets)
    theorem = "F62" if hole is not None else "F230" if mixed is not None and found is not None else "F31"
    if found is None:
        return Family(theorem, low, 2, 3, True, lambda n: sympy.nan, 1, None, witness)
    glow, order, modulus, name = found
    return Family(theorem, max(low, glow), 2, 3, True, order, modulus, name, witness)


def _hole_group(g: int, jumps: tuple, floor: int):
    """Theorem F62: the circulant of the jumps with the hole {1, …, g}; (range, order, modulus, name test) from the
    verifier's own restatement (uapcheck/verifier/cyclic_hubs.py), or None."""
    from .cyclic_hubs import restated
    return _hub_group(g, restated(jumps, g, floor))


def _mixed_group(g: int, jumps: tuple, floor: int, base: tuple):
    """Theorem F230: (range, order, modulus, name test) from the verifier's own restatement
    (uapcheck/verifier/cyclic_hubs.py), or None."""
    from .cyclic_hubs import restated_mixed
    return _hub_group(g, restated_mixed(jumps[0], jumps[1], g, floor, base))


def _hub_group(g: int, found):
    """(range, order, modulus, name test) of a hub theorem's restatement (its range and whether the base is symmetric):
    S_g × the reflection when it is, else S_g alone (trivial for g = 1); None when the restatement is None."""
    if found is None:
        return None
    low, symmetric = found
    if symmetric:
        return low, lambda n: 2 * sympy.factorial(g), 1, _reflection_name(g)

    def trivial(text):
        return text == "trivial" if g == 1 else text.startswith(f"S_{g} on {{1, ") and "×" not in text
    return low, lambda n: sympy.factorial(g), 1, trivial


def _local_group(g: int, base: list, offsets: list):
    """(range, order, modulus, name test) of F32's group, or None (not proved)."""
    from . import families
    for q, o in zip(base, offsets):
        if getattr(q, "cyclic", False) and max(abs(k) for k in o) > g:
            return None  # wrap-around arcs inside the non-globals
    ks = {k for o in offsets for k in o}
    if all(isinstance(q, S.Offsets) for q in base) and (
            (min(ks) > 0 and 1 in ks) or (max(ks) < 0 and -1 in ks)):
        def trivial(text):
            return text == "trivial" if g == 1 else text.startswith(f"S_{g} on {{1, ") and "×" not in text
        return g + 2, lambda n: sympy.factorial(g), 1, trivial
    if len(base) == 1 and isinstance(base[0], S.Dilated):
        w, r = int(base[0].w), int(base[0].r)

        def order(n):
            from .symbolic_unions import _residue_of
            found = _residue_of(n, r)
            e = ((int(n) if found is None else found[1]) - g) % r
            return sympy.factorial(g) * 2 ** r * sympy.factorial(e) * sympy.factorial(r - e)

        def paths(text):
            return f"residue classes mod {r}" in text and "path" in text
        return g + r * (2 * w + 1), order, r, paths
    kinds = sorted(type(q).__name__ for q in base)
    if kinds == ["Dilated", "Window"]:
        win = next(q for q in base if isinstance(q, S.Window))
        dil = next(q for q in base if isinstance(q, S.Dilated))
        w, wd, r = int(win.w), int(dil.w), int(dil.r)
        fam = families._f15(w, wd, r) if r >= w + 2 else (
            families._f9(w, wd, r) if 2 <= r <= w + 1 and wd * r >= w + 2 else None)
        if fam is not None:
            return g + fam.low, lambda n: 2 * sympy.factorial(g), 1, _reflection_name(g)
    return _line_group(g, sorted(ks))


def _line_group(g: int, jumps: list):
    """Theorem F43: the base is `offsets S` on the positions g + 1..n (F30 (c)); F41's group there, when the
    verifier's own restatement proves it (uapcheck/verifier/offsets_line.py), and no universal position."""
    from . import offsets_line
    found = offsets_line.group_range(jumps)
    if found is None:
        return None
    m0, symmetric = found
    low = g + max(m0, len(jumps) + 2)
    if symmetric:
        return low, lambda n: 2 * sympy.factorial(g), 1, _reflection_name(g)

    def trivial(text):
        return text == "trivial" if g == 1 else text.startswith(f"S_{g} on {{1, ") and "×" not in text
    return low, lambda n: sympy.factorial(g), 1, trivial


def _reflection_name(g: int):
    def name(text):
        if g == 1:
            return text == "the reflection of {2, …, n}"
        return text.startswith(f"S_{g} on {{1, ") and text.endswith(f"× the reflection of {{{g + 1}, …, n}}")
    return name


def _window_strided(g: int, w: int, s: int):
    from . import families
    from .families import Family
    if 2 <= s <= w + 1:
        d_star = w + 2 if (w + 1) % s == 0 else w + 1
        extent = next((1 + k * w for k in range(max(1, w - 1), w + 5) if families._cross_ball_separates(w, s, k)), None)
        if extent is None:
            return None
        mlow = max(d_star + 1, s * (4 * w + 3), 2 * w + 1, extent)
    else:
        mlow = s * (4 * w + 3)

    def order(n):
        return 2 * sympy.factorial(g)
    fam7 = families._f7(w, s) if 2 <= s <= w + 1 else None
    wide = s == w + 2 and families._wide_views_rigid(w)  # Theorem F81: the base is rigid at depth 2
    if (fam7 is not None and fam7.least and fam7.layers == 2) or wide:
        def gens(n):
            out = [list(range(1, g + 1)) + list(range(n, g, -1))]      # the reflection of {g + 1, …, n}
            if g >= 2:
                out.append([2, 1] + list(range(3, n + 1)))
                out.append(list(range(2, g + 1)) + [1] + list(range(g + 1, n + 1)))
            return out
        base_low = mlow if fam7 is None else max(mlow, fam7.low)
        return Family("F33", g + base_low, 2, 2, True, order, 1, _reflection_name(g), None, gens)
    if (w, s) == (1, 3):
        def witness(n):
            return g + 1, _swap(n, g + 3, g + 5)
        return Family("F33", max(g + mlow, g + 9), 2, 3, True, order, 1, _reflection_name(g), witness)
    if s >= w + 3:
        a = g + s + w + 2
        b = a + s if s >= 2 * w + 2 else a + 1

        def witness_(n):
            return g + 1, _swap(n, a, b)
        return Family("F33", max(g + mlow, g + 2 * s + w + 2), 2, 3, True, order, 1, _reflection_name(g), witness_)
    return Family("F33", g + mlow, 2, 3, False, order, 1, _reflection_name(g), None)
