"""Certificates of per-layer cyclic windows at any n (docs/theory.md §21.15, Theorems F139 and F160, Lemma AQ)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from .certificates import _reject
from .proof import Certificate, CertificateRejected

#: the lengths at which a symbolic count's formula is read against D_Φ by the reach recurrence
FORMULA_TOP = 200


def _json(layers: Any, n: Any) -> dict:
    return {"widths": list(layers.widths), "periodic": layers.periodic, "n": n}


def _aq(L: Any, n: int, m: int, ell: int) -> bool:
    """Lemma AQ's premises at depth m and layer ℓ (written from the lemma, not from the engine's search)."""
    if not 1 <= ell <= m:
        return False
    w, r = L.width(ell), L.reach(m) - L.reach(ell)
    return w >= 1 and n >= 2 * w + 3 and n - 2 * r - 2 <= w


@dataclass(frozen=True)
class CyclicGroup(Certificate):
    """G = D_n (Theorem F139): some layer's width w has n ≥ 2w + 3 (at a symbolic n: the range's start does)."""
    layers: Any  # graphs.layers_cyclic_windows.CyclicLayers
    n: Any  # an int, or the symbolic length's name
    start: Optional[int]
    kind = "layer-cyclic-group"

    def check(self) -> None:
        w = min((x for x in self.layers.widths if x > 0), default=None)
        if w is None:
            raise CertificateRejected("CyclicGroup: no layer has a positive width")
        first = self.n if isinstance(self.n, int) else self.start
        if first is None or first < 2 * w + 3:
            _reject(CyclicGroup, f"the length must be at least 2w_* + 3 = {2 * w + 3} (Aut(window({w}) cyclic) = D_n)")

    def to_json(self) -> Any:
        out = {"kind": self.kind, "theorem": "F139", **_json(self.layers, self.n), "name": "D_n",
               "least positive width": min((x for x in self.layers.widths if x > 0), default=None)}
        if self.start is not None:
            out["from"] = self.start
        return out


@dataclass(frozen=True)
class CyclicCount(Certificate):
    """D_Φ (Theorem F139) and the least count (Theorem F160 through Lemma AQ at the layer `pinned`), or, for a finite
    list whose widths sum below ⌊n/2⌋ (`depth` None), the pair (1, 1 + ⌊n/2⌋) not reached. At a symbolic n: the formula
    Σ_r ⌈(⌊n/2⌋ − S_r)/P⌉ read against R(m) at every n ≤ 200, Lemma AQ at some layer at every n from `start` to T + 2P
    (from T on it depends on n mod 2P alone); a finite list: `start` ≥ 2R(k) + 2."""
    layers: Any
    n: Any
    depth: Any  # an int, a SymPy expression (symbolic n), or None (never connected within a finite list)
    pinned: Optional[int]
    start: Optional[int]
    kind = "layer-cyclic-count"

    def check(self) -> None:
        if isinstance(self.n, int):
            self._check_concrete()
        elif self.depth is None:
            L = self.layers
            if L.periodic or self.start is None or self.start < 2 * L.reach(len(L.widths)) + 2:
                _reject(CyclicCount, "the finite list's widths must sum below ⌊n/2⌋ from the range's start on")
        else:
            self._check_symbolic()

    def _check_concrete(self) -> None:
        from .graphs.layers_cyclic_windows import reach_depth
        L, n = self.layers, self.n
        d = reach_depth(L, n)
        if d != self.depth:
            _reject(CyclicCount, f"D_Φ is {d} by R(m), not {self.depth}")
        if d is None:
            if L.periodic or L.reach(len(L.widths)) >= n // 2:
                _reject(CyclicCount, "the network's layers reach every position")
            return
        if d >= 1 and L.reach(d - 1) >= n // 2:
            _reject(CyclicCount, f"x_{1 + n // 2} reaches position 1 within {d - 1} layers")
        if self.pinned is None or not _aq(L, n, d, self.pinned):
            _reject(CyclicCount, f"Lemma AQ's premises fail at layer {self.pinned} and depth {d}")

    def _check_symbolic(self) -> None:
        import sympy
        from .graphs.layers_cyclic_windows import periodic_from, reach_depth, reach_formula
        L = self.layers
        if not L.periodic or sum(L.widths) == 0 or self.start is None:
            raise CertificateRejected("CyclicCount: a symbolic count needs a periodic list with a positive width")
        if sympy.simplify(reach_formula(L, str(self.n)) - self.depth) != 0:
            raise CertificateRejected("CyclicCount: the formula is not Σ_r ⌈(⌊n/2⌋ − S_r)/P⌉ for these widths")
        n = sympy.Symbol(str(self.n), integer=True, positive=True)
        for k in (*range(max(2, self.start), FORMULA_TOP + 1), 10 ** 6 + 3):
            if int(self.depth.xreplace({n: k})) != reach_depth(L, k):
                _reject(CyclicCount, f"the formula is not D_Φ at n = {k}")
        top = periodic_from(L) + 2 * sum(L.widths)
        for k in range(self.start, top):
            d = reach_depth(L, k)
            if d is None or not any(_aq(L, k, d, ell) for ell in range(1, min(d, len(L.widths)) + 1)):
                _reject(CyclicCount, f"Lemma AQ pins no layer at n = {k}")

    def to_json(self) -> Any:
        from .certfile import _tree
        d = self.depth if self.depth is None or isinstance(self.depth, int) else _tree(self.depth)
        out = {"kind": self.kind, "theorem": "F139" if self.depth is None else "F160", **_json(self.layers, self.n),
               "D_Φ": d, "pinned layer": self.pinned}
        if self.depth is not None:
            out.update({"layers": d, "least": True})
        if self.start is not None:
            out["from"] = self.start
        return out
