"""A union with few wide blocks at a concrete n, decided on its twin quotient (Lemma L, Theorem F196, docs/theory.md
§11.11): the stand-in graph (the quotient blown up by R-equivalent small sizes) is decided by the concrete engine,
and its connectivity, diameter, least layer count and class permutations are the pattern's; or, when no small
stand-in exists, the quotient itself at the true sizes (Lemma N, Theorem F181: a search over class maps,
graphs/twin_views.py). G is named by its twin classes. No arc of the pattern is built."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from .. import spec as S
from ..certificates import Trusted
from ..groups import GroupInfo

if TYPE_CHECKING:
    from ..graphs.twin_quotient import Quotient
    from .pattern import LayerCount

ENGINE = "graphs.twin_quotient"
THEOREM = "Lemma L, Theorem F196, docs/theory.md §11.11"
THEOREM_N = "Lemma N, Theorem F181, docs/theory.md §11.11"
#: a stand-in of more positions than this is not built when the quotient itself decides (Theorem F181)
STANDIN_MAX = 120
#: from this length on, a quotient of more than MAX_CLASSES (up to WIDE_CLASSES) classes is decided by Theorem F181
WIDE_FROM = 10_000


def _run_text(runs) -> str:
    parts = []
    for lo, hi, step in runs:
        if lo == hi:
            parts.append(f"{{{lo}}}")
        elif hi == lo + step:
            parts.append(f"{{{lo}, {hi}}}")
        else:
            parts.append(f"{{{lo}, {lo + step}, …, {hi}}}" if step > 1 else f"{{{lo}, …, {hi}}}")
    return " ∪ ".join(parts)


def _order_words(sizes, exchanges: int) -> int | str:
    """|G| = (the class permutations' order) · ∏ c_t!: an int when short, else the factorials in words."""
    factors = [c for c in sizes if c >= 2]
    if all(c <= 20 for c in factors):
        value = exchanges
        for c in factors:
            value *= math.factorial(c)
        if value < 10 ** 15:
            return value
    words = [f"{c}!" for c in factors]
    return " · ".join(([str(exchanges)] if exchanges > 1 else []) + words) or "1"


@dataclass(frozen=True)
class TwinDecision:
    """What the stand-in decided, in the pattern's positions: `pair` (j never reaches i) when not strongly
    connected, else the diameter and the layer count (its witness lifted when it is a swap); `exchanges` the order of
    the class permutations that keep the quotient and the sizes (|G| = exchanges · ∏ c_t!)."""

    quotient: "Quotient"
    small: Optional[tuple]  # None: decided on the quotient itself (Theorem F181), no stand-in
    standin_n: Optional[int]
    pair: Optional[tuple[int, int]]
    diameter: Optional[int]
    count: Optional["LayerCount"]
    witness: Optional[dict]
    exchanges: int

    def order(self) -> int:
        """|G| as an integer (for small n: the tests compare it with the concrete engine's)."""
        return self.exchanges * math.prod(math.factorial(c) for c in self.quotient.sizes)


def _approximately(sizes, exchanges: int) -> str:
    """|G| = exchanges · ∏ c_t! in the bounded form "≈ m × 10^e" (two decimals), from log-gamma: the certificate's
    statement of an order too long to write out (the verifier recomputes the order and compares it)."""
    lg = math.log10(exchanges) + sum(math.lgamma(c + 1) for c in sizes) / math.log(10)
    exponent = math.floor(lg)
    mantissa = 10 ** (lg - exponent)
    if mantissa >= 9.995:
        mantissa, exponent = 1.0, exponent + 1
    return f"≈ {mantissa:.2f} × 10^{exponent}"


def twin_decision(spec: S.Spec) -> Optional[TwinDecision]:
    """The twin quotient route at a concrete n, or None when it does not apply (not one unbiased head without a
    positional encoding, not `blocks(b)` beside window/offsets/dilated/strided/global/star parts, too many twin
    classes, or sizes without an R-equivalent stand-in that the quotient itself does not decide either). A stand-in
    above STANDIN_MAX positions, or none, leaves the decision to the quotient at the true sizes (Theorem F181)."""
    from . import pattern as P
    from ..graphs import analyze_connectivity, build_graph
    from ..graphs.symmetry import symmetry_group
    from ..graphs import twin_quotient as T
    n = spec.tokens
    if not isinstance(n, int) or len(spec.heads) != 1 or spec.positional != "none" or spec.heads[0].bias:
        return None
    q = T.quotient(spec.heads[0].pattern, n)
    if q is None:
        # more classes than a stand-in is built for: the quotient itself, up to WIDE_CLASSES (Theorem F181), at real
        # sizes only (below WIDE_FROM the concrete engine builds the token graph quickly)
        if n < WIDE_FROM:
            return None
        wide = T.quotient(spec.heads[0].pattern, n, T.WIDE_CLASSES)
        return None if wide is None else _on_quotient(wide)
    small = T.stand_in_sizes(q.sizes)
    if small is None or sum(small) > STANDIN_MAX:
        on_quotient = _on_quotient(q)
        if on_quotient is not None or small is None:
            return on_quotient
    n2, pairs = T.stand_in_arcs(q, small)
    if len(pairs) > 400_000:
        return None
    standin = dataclasses.replace(spec, tokens=n2, heads=(dataclasses.replace(spec.heads[0], pattern=S.Edges(pairs)),))
    graph = build_graph(S.Edges(pairs), n2, {})
    grp = symmetry_group([graph], [None], "none")
    conn = analyze_connectivity([graph], union_automorphisms=grp.generators)
    exchanges = int(grp.order) // math.prod(math.factorial(c) for c in small)
    starts2 = T.class_starts(small)

    def lift(x: int) -> int:
        """The stand-in's position x (the k-th of its class) as the pattern's k-th position of that class."""
        t = max(u for u in range(q.k) if starts2[u] <= x)
        k = x - starts2[t]
        for lo, hi, step in q.runs[t]:
            if k <= (hi - lo) // step:
                return lo + k * step
            k -= (hi - lo) // step + 1
        raise AssertionError("a stand-in class is never larger than its class")

    if not conn.strongly_connected:
        assert conn.witness is not None
        i, j = conn.witness
        return TwinDecision(q, small, n2, (lift(i), lift(j)), None, None, None, exchanges)
    if conn.diameter is None:
        return None
    diameter = int(conn.diameter)
    count = P._layer_count(standin, [graph], diameter, grp, frozenset(), P._ecc_bound(conn))
    witness = None
    if count.witness and "swap" in count.witness and "position" in count.witness:
        a, b = count.witness["swap"]
        witness = {"diameter": diameter, "position": lift(int(count.witness["position"])),
                   "swap": [lift(int(a)), lift(int(b))], "found by": "the stand-in's witness, lifted (Lemma L (e))"}
    return TwinDecision(q, small, n2, None, diameter, count, witness, exchanges)


def _on_quotient(q: "Quotient") -> Optional[TwinDecision]:
    """The decision of Theorem F181 on the quotient at the true sizes, in the pattern's positions (the first members
    of the classes), or None when it does not apply."""
    from . import pattern as P
    from ..graphs import twin_views as V
    found = V.decide(q)
    if found is None:
        return None
    first = [next(iter(_members(r))) for r in q.runs]
    if found.pair is not None:
        t, u = found.pair
        return TwinDecision(q, None, None, (first[t], first[u]), None, None, None, found.exchanges)
    assert found.diameter is not None and found.layers is not None
    witness = None
    if found.swap is not None:
        r, t, u = found.swap
        root = next((x for x in _members(q.runs[r]) if x not in (first[t], first[u])), first[r])
        witness = {"diameter": found.diameter, "position": root, "swap": [first[t], first[u]],
                   "found by": "a transposition of two twin classes, checked on the quotient (Theorem F181)"}
    if found.witness_exists:
        outcome = f"a view witness of depth {found.diameter} exists, so {found.layers} layers are least"
    else:
        outcome = f"no view witness of depth {found.diameter} exists at any class, so {found.layers} layers suffice"
    method = ("the twin quotient's class maps at the true class sizes (Lemma N, Theorem F181, docs/theory.md "
              "§11.11): " + outcome)
    count = P.LayerCount(found.layers, True, method, witness)
    return TwinDecision(q, None, None, None, found.diameter, count, witness, found.exchanges)


def _members(runs):
    from ..graphs.twin_quotient import members
    return members(runs)


def twin_outcome(spec: S.Spec):
    """The pattern outcome from the twin quotient (`twin_decision`), or None when the route does not apply."""
    from . import pattern as P
    from .symmetry import group_step
    found = twin_decision(spec)
    if found is None:
        return None
    q, small, n2 = found.quotient, found.small, found.standin_n
    desc = P._describe(spec)
    if small is None:
        classes: list[dict] = [{"positions": _run_text(r), "size": c} for r, c in zip(q.runs, q.sizes)]
        ev: dict = {"twin classes": classes, "theorem": f"{THEOREM}; {THEOREM_N}"}
        reason = ("Lemma L (a), (b) and Lemma N (Theorem F196 and Theorem F181, docs/theory.md §11.11): the twin "
                  "classes are read off the parts' neighbour intervals; the pattern's connectivity, diameter and "
                  "class permutations are its quotient's, and a view witness exists exactly when a class map of the "
                  "view's classes keeps their arcs and the sizes of every type, decided on the quotient at the true "
                  "class sizes")
        data: dict = {"twin classes": classes}
    else:
        classes = [{"positions": _run_text(r), "size": c, "stand-in size": c2}
                   for r, c, c2 in zip(q.runs, q.sizes, small)]
        ev = {"twin classes": classes, "stand-in positions": n2, "theorem": THEOREM}
        reason = ("Lemma L (Theorem F196, docs/theory.md §11.11): the twin classes are read off the parts' neighbour "
                  "intervals, and the stand-in graph (the twin quotient blown up by R-equivalent sizes, R = Σ "
                  "min(c_t, k)) has the pattern's connectivity, diameter, class permutations and view witnesses; the "
                  "stand-in was decided by the concrete engine")
        data = {"twin classes": classes, "stand-in positions": n2}
    structure: list = []
    obstruction = None
    layers = diameter = None
    if found.pair is not None:
        i, j = found.pair
        obstruction = P.disconnected_step(desc, i, j, ev, Trusted(ENGINE, reason, data))
        structure.append(obstruction)
    else:
        assert found.count is not None and found.diameter is not None
        diameter, count = found.diameter, found.count
        connected = P.connected_step(desc, Trusted(ENGINE, reason, dict(data, diameter=diameter, exact=True)), ev)
        structure.append(connected)
        layers = count.layers
        method = count.method if small is None else (
            f"{count.method}, on the stand-in graph of {n2} positions, whose answer is the pattern's by Lemma L "
            f"(Theorem F196, docs/theory.md §11.11)")
        cert = Trusted(ENGINE, reason, dict(data, layers=layers, diameter=diameter, least=count.exact,
                                            witness=found.witness))
        structure.append(P.layers_step(connected, diameter, layers, count.exact, method, found.witness, family=cert))
    exchanges = found.exchanges
    factors = [f"S_{c} on {_run_text(r)}" for r, c in zip(q.runs, q.sizes) if c >= 2]
    name = " × ".join(factors) if factors else "trivial"
    if exchanges > 1:
        name = (f"({name}) ⋊ the {exchanges} permutations of whole twin classes that keep the pattern"
                if factors else f"the {exchanges} permutations of the positions that keep the pattern")
    order = _order_words(q.sizes, exchanges)
    stated = order if isinstance(order, int) else _approximately(q.sizes, exchanges)
    info = GroupInfo(name, order, ())
    gev = {"structure": name, "twin classes": classes, "theorem": THEOREM,
           "method": ("the symmetric groups of the twin classes, with the quotient's class permutations (Lemma L (b))"
                      if small is None else
                      "the symmetric groups of the twin classes, with the stand-in's class permutations (Lemma L (c))")}
    gstep = group_step(desc, info, gev, Trusted(ENGINE, reason, dict(data, order=stated, shown=order)))
    return P.PatternOutcome(gstep, info, tuple(structure), layers, diameter, obstruction)
