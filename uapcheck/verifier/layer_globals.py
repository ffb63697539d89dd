"""Per-layer windows with global tokens at any n, for the verifier (docs/theory.md §21.13, Theorems F237–F239, F129,
Lemma AP). Written here from the statements, not from the engine (uapcheck/graphs/layers_globals.py).

The verifier's own reading of the file: one head whose pattern is a `periodic` or `sequence` list of layers, each
`window(w)`, `global(g)`, `star` or `window(w) + global(g)` (non-cyclic, integers, w ≥ 0, one g ≥ 1 for every layer
with globals), a budget `layers M` cutting it. Then, without arcs:

    F237  D_Φ is a_2, the second global layer (into the globals in one global layer, out of them in the next), and
          not fewer from n ≥ g + 2R(a_2) + 2 on; a finite list with one global layer at most never connects from
          n ≥ N* on. At the range's start (when it is at most 400) the reach is recomputed on the verifier's own arcs.
    F238  G trivial with a layer without globals of positive width (threshold max(3, 2w + 1, g + w + 2)); otherwise
          S_g × C_2 (threshold g + 2w + 2 over the layers with globals and positive width); the order is compared
          with nauty's on the verifier's own arcs at the threshold and the two lengths above it (up to 60 positions).
    F239  Lemma AP's case analysis at the stated count (no witness) and one below it (a witness), with C_m the layers
          followed by two global layers within m, and the range's start recomputed: F238's threshold, D_Φ's
          g + 2R(a_2 − 1) + 2, the pinning layers' thresholds, and g + 2R(m − 1) + 3 for the witness below.
    F129  a finite list: at most one global layer, or a witness at its whole depth.
"""
from __future__ import annotations

import math
from typing import Optional

from .. import spec as S
from .check import VERIFIED, Reject, checker


class NotGlobals(Exception):
    pass


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _one(p) -> tuple[int, int]:
    if isinstance(p, S.Window) and not p.cyclic and _int(p.w) and int(p.w) >= 0:
        return int(p.w), 0
    if isinstance(p, S.Global) and _int(p.g) and int(p.g) >= 1:
        return 0, int(p.g)
    if isinstance(p, S.Star):
        return 0, 1
    if isinstance(p, S.PatternUnion) and len(p.parts) == 2:
        x, y = _one(p.parts[0]), _one(p.parts[1])
        win, glob = (x, y) if x[1] == 0 else (y, x)
        if win[1] == 0 and glob[0] == 0 and glob[1] >= 1:
            return win[0], glob[1]
    raise NotGlobals("a layer is not a window, a global part or their union")


class Layers:
    def __init__(self, pairs: list[tuple[int, int]], periodic: bool):
        self.pairs, self.periodic = pairs, periodic
        self.g = max(h for _, h in pairs)

    def at(self, ell: int) -> tuple[int, int]:
        return self.pairs[(ell - 1) % len(self.pairs)]

    def kind(self, ell: int) -> str:
        w, h = self.at(ell)
        return ("GW" if w else "G0") if h else ("P" if w else "Z")

    def R(self, m: int) -> int:
        return sum(self.at(ell)[0] for ell in range(1, m + 1))

    def glob(self, m: int) -> list[int]:
        top = m if self.periodic else min(m, len(self.pairs))
        return [ell for ell in range(1, top + 1) if self.at(ell)[1]]

    def group(self) -> Optional[str]:
        kinds = {self.kind(q) for q in range(1, len(self.pairs) + 1)}
        return "trivial" if "P" in kinds else "globals" if "GW" in kinds else None

    def group_start(self) -> int:
        if self.group() == "trivial":
            return max(3, min(2 * w + 1 for w, h in self.pairs if not h and w),
                       min(self.g + w + 2 for w, h in self.pairs if h))
        return min(self.g + 2 * w + 2 for w, h in self.pairs if h and w)

    def sets(self, m: int) -> tuple[list[int], list[int]]:
        """C_m (two global layers after ℓ within m, ℓ < m) and B_m (one at least, ℓ ≤ m)."""
        glob = self.glob(m)
        whole = [ell for ell in range(1, m) if sum(1 for a in glob if a > ell) >= 2]
        return whole, [ell for ell in range(1, m + 1) if any(a > ell for a in glob)]

    def pin_start(self, m: int, pins) -> Optional[int]:
        """The threshold of the no-witness case of Lemma AP the pins name (None: they name none)."""
        whole, followed = self.sets(m)
        if not isinstance(pins, list) or not all(_int(q) and 1 <= q <= m for q in pins):
            return None
        kinds, g = [self.kind(q) for q in pins], self.g
        if self.group() == "trivial" and kinds == ["P"] and pins[0] in whole:
            return max(2 * self.at(pins[0])[0] + 1, g + self.at(self.glob(m)[0])[0] + 2)
        if self.group() == "trivial" and kinds == ["GW", "P"] and pins[0] in whole and pins[1] in followed:
            return max(g + 2 * self.at(pins[0])[0] + 2, g + self.at(pins[1])[0] + 1)
        if self.group() == "globals" and kinds == ["GW"] and pins[0] in whole:
            return g + 2 * self.at(pins[0])[0] + 2
        return None

    def witness(self, m: int) -> Optional[str]:
        """Lemma AP at depth m: None (no witness), or the kind of the witness."""
        glob = self.glob(m)
        whole = self.sets(m)[0]
        has_p = any(self.kind(ell) == "P" for ell in whole)
        has_gw = any(self.kind(ell) == "GW" for ell in whole)
        if self.group() == "globals":
            return None if has_gw else "swap"
        if has_p:
            return None
        if not has_gw:
            return "swap"
        before = any(self.kind(ell) == "P" and any(a > ell for a in glob) for ell in range(1, m + 1))
        return None if before else "reflection"


def _kept_periodic(pairs: list[tuple[int, int]]) -> int:
    """a_2 + 3p: a budget at least this on a periodic list keeps its decision (the count is at most a_2 + 3p, and the
    network keeps every layer of the period); the count stated is checked against the budget too."""
    p = len(pairs)
    glob = [k for k in range(1, 2 * p + 1) if pairs[(k - 1) % p][1]]
    return (glob[1] if len(glob) >= 2 else 1) + 3 * p


def read(spec: S.Spec) -> Layers:
    if len(spec.heads) != 1:
        raise NotGlobals("more than one head")
    h = spec.heads[0]
    pat = h.pattern
    if not isinstance(pat, S.PatternSequence) or h.bias is not None or h.position is not None:
        raise NotGlobals("not a per-layer list without bias or position term")
    pairs = [_one(p) for p in pat.patterns]
    periodic = pat.periodic
    budget = int(spec.layers) if _int(spec.layers) else None  # type: ignore[arg-type]  # an int
    if budget is not None and periodic and budget >= _kept_periodic(pairs):
        budget = None  # every depth the theorems read lies within the budget: the periodic list's decision
    if budget is not None:
        top = budget if periodic else min(budget, len(pairs))
        pairs = [pairs[(k - 1) % len(pairs)] for k in range(1, top + 1)]
        periodic = False
    if len({h for _, h in pairs if h}) != 1:
        raise NotGlobals("not one global count shared by the layers with globals")
    return Layers(pairs, periodic)


def _reading(ctx, data: dict) -> Layers:
    try:
        L = read(ctx.spec)
    except NotGlobals as exc:
        raise Reject(f"the layers are not windows with global tokens of Theorem F237: {exc}") from None
    if (data.get("widths"), data.get("globals"), data.get("periodic")) != (
            [w for w, _ in L.pairs], [h for _, h in L.pairs], L.periodic):
        raise Reject("the step's layers are not the input's")
    if data.get("n") != ctx.spec.tokens:
        raise Reject("the step's length is not the input's")
    if L.group() is None:
        raise Reject("no layer has a positive width: outside Theorem F238")
    return L


def _arcs(L: Layers, n: int, ell: int) -> list[set[int]]:
    """N_ℓ(v) for v = 1..n (index 0 unused), on the verifier's own reading."""
    w, h = L.at(ell)
    out: list[set[int]] = [set()]
    for v in range(1, n + 1):
        if h and v <= h:
            out.append(set(range(1, n + 1)))
        else:
            out.append(set(range(max(1, v - w), min(n, v + w) + 1)) | set(range(1, min(h, n) + 1)))
    return out


def _order_at(L: Layers, n: int) -> Optional[int]:
    from . import groups
    lab: dict = {}
    for q in range(1, len(L.pairs) + 1):
        nb = _arcs(L, n, q)
        for i in range(1, n + 1):
            for j in nb[i]:
                if j != i:
                    lab.setdefault((j, i), set()).add((q, 0))
    order, _ = groups.full_order({k: tuple(sorted(v)) for k, v in lab.items()}, n, "none")
    return order


def _instance(L: Layers, t: int, want: int) -> str:
    if t + 2 > 60:
        return ""
    for n in range(t, t + 3):
        got = _order_at(L, n)
        if got is None:
            return ""
        if got != want:
            raise Reject(f"the layers' arcs have {got} symmetries at n = {n}, not {want}")
    return f"; the order is nauty's on the verifier's own arcs at n = {t}, {t + 1}, {t + 2}"


def _words(L: Layers, n) -> str:
    """F238's group in the engine's words: trivial, the reflection of {2, …, n}, S_g on {1, …, g} × the reflection
    of {g + 1, …, n} (three positions or fewer listed in full)."""
    if L.group() == "trivial":
        return "trivial"
    g = L.g
    tail = f"the reflection of {{{g + 1}, …, {n}}}"
    if g == 1:
        return tail
    head = "{" + ", ".join(map(str, range(1, g + 1))) + "}" if g <= 3 else f"{{1, …, {g}}}"
    return f"S_{g} on {head} × {tail}"


@checker("SEQ-GLOBALS-GROUP")
def globals_group(ctx, s):
    if s["status"] != "proved":
        raise Reject("SEQ-GLOBALS-GROUP only concludes `proved`")
    data = s.get("data") or {}
    L = _reading(ctx, data)
    name, t = L.group(), L.group_start()
    order = 1 if name == "trivial" else 2 * math.factorial(L.g)
    n = ctx.spec.tokens
    if (data.get("case"), data.get("order"), data.get("g")) != (name, order, L.g) or data.get("name") != _words(L, n):
        raise Reject(f"the group is {_words(L, n)} of order {order} by Theorem F238")
    if isinstance(n, int):
        if n < t:
            raise Reject(f"n = {n} is below Theorem F238's threshold {t}")
    elif not _int(data.get("from")) or data["from"] < t:
        raise Reject(f"the range must start at n ≥ {t}")
    return VERIFIED, f"Theorem F238: G is {name} (order {order}) from n = {t} on{_instance(L, t, order)}"


def _connected_at(L: Layers, n: int, m: int) -> bool:
    """Every x_j reaches every position within m layers, by the reach recurrence on the verifier's own arcs (bit j of
    masks[i]: x_j read at i)."""
    masks = [0] + [1 << i for i in range(1, n + 1)]
    top = m if L.periodic else min(m, len(L.pairs))
    for ell in range(1, top + 1):
        nb = _arcs(L, n, ell)
        new = [0] * (n + 1)
        for i in range(1, n + 1):
            acc = 0
            for u in nb[i]:
                acc |= masks[u]
            new[i] = acc
        masks = new
    full = (1 << (n + 1)) - 2
    return all(masks[i] == full for i in range(1, n + 1))


def _reach_instance(L: Layers, start: int, depth: Optional[int]) -> str:
    if start > 400:
        return ""
    if depth is None:
        if _connected_at(L, start, len(L.pairs)):
            raise Reject(f"at n = {start} the network's layers connect")
        return f"; at n = {start} the reach recurrence on the verifier's arcs agrees"
    if not _connected_at(L, start, depth) or _connected_at(L, start, depth - 1):
        raise Reject(f"at n = {start} the reach recurrence does not give D_Φ = {depth}")
    return f"; at n = {start} the reach recurrence on the verifier's arcs gives D_Φ = {depth}"


def _common(ctx, s, rule: str) -> tuple[Layers, dict, int]:
    if s["status"] != "proved":
        raise Reject(f"{rule} only concludes `proved`")
    data = s.get("data") or {}
    L = _reading(ctx, data)
    n, start = ctx.spec.tokens, data.get("from")
    if not isinstance(start, int) or isinstance(start, bool) or (isinstance(n, int) and n < start):
        raise Reject("the length is below the range's start")
    if not isinstance(n, int) and not L.periodic:
        raise Reject("a finite list at a symbolic n is outside Theorem F239")
    return L, data, start


@checker("SEQ-GLOBALS-LAYERS")
def globals_layers(ctx, s):
    L, data, start = _common(ctx, s, "SEQ-GLOBALS-LAYERS")
    glob = L.glob(3 * len(L.pairs) + 3 if L.periodic else len(L.pairs))
    if len(glob) < 2 or data.get("D_Φ") != glob[1]:
        raise Reject("D_Φ is the second global layer (Theorem F237)")
    d, m = glob[1], data.get("layers")
    cap = ctx.spec.layers if _int(ctx.spec.layers) else None
    if not _int(m) or m < d or (not L.periodic and m > len(L.pairs)) or data.get("least") is not True or (
            cap is not None and m > cap):
        raise Reject("the count is not within the network's layers from D_Φ on")
    pinned = L.pin_start(m, data.get("pins"))
    if pinned is None:
        raise Reject(f"the pinning layers {data.get('pins')} name no case of Lemma AP at depth {m}")
    need = max(L.group_start(), L.g + 2 * L.R(d - 1) + 2, pinned, L.g + 2 * L.R(m - 1) + 3 if m > d else 0)
    if start < need:
        raise Reject(f"the range must start at n = {need} or later")
    if L.witness(m) is not None:
        raise Reject(f"Lemma AP leaves a {L.witness(m)} witness at depth {m}")
    below = L.witness(m - 1) if m > d else None
    if m > d and below is None:
        raise Reject(f"Lemma AP leaves no witness at depth {m - 1}: {m} is not least")
    if data.get("witness") != below:
        raise Reject("the witness below the count is not Lemma AP's")
    return VERIFIED, (f"Theorem F237: D_Φ = a_2 = {d}; Lemma AP: no view witness at depth {m}"
                      + (f", a {below} witness at {m - 1}" if below else "") + f", from n = {need} on "
                      f"(Theorem F239){_reach_instance(L, start, d)}")


@checker("SEQ-GLOBALS-DEPTH")
def globals_depth(ctx, s):
    L, data, start = _common(ctx, s, "SEQ-GLOBALS-DEPTH")
    k = len(L.pairs)
    glob = L.glob(k)
    need = max(L.group_start(), L.g + 2 * L.R(k) + (2 if len(glob) <= 1 else 3))
    if L.periodic or start < need:
        raise Reject(f"a periodic list, or a start below {need}")
    if len(glob) <= 1:
        if data.get("D_Φ") is not None:
            raise Reject("with one global layer at most the network never connects: no D_Φ")
        return VERIFIED, (f"Theorem F237: at most one of the {k} layers has globals, so x_n never reaches position "
                          f"g + R(k) + 1 from n = {start} on (Theorem F129){_reach_instance(L, start, None)}")
    if data.get("D_Φ") != glob[1] or L.witness(k) is None or data.get("witness") != L.witness(k) or \
            start < L.g + 2 * L.R(glob[1] - 1) + 2:
        raise Reject("Lemma AP gives no witness at the whole depth (or D_Φ is not a_2)")
    return VERIFIED, (f"Lemma AP: a {L.witness(k)} witness at the whole depth {k}, so no member of the family "
                      "separates X from σX there (Theorem F129)")
