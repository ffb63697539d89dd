"""Bind the per-layer and convolution steps' kernel certificate blocks to what the verifier re-checked (docs/theory.md
§18.1; the blocks of uapcheck/layer_certificates.py other than the causal interval and sink ones, which blocks.py binds).

Each block states again what its step's check established: a depth and the pair not reached below it, a closed set of
positions, a view witness, the group's generators and order, the rooted views' G-orbits, an alternation's theorem
and parameters, the taps of a convolution. After the check passes, every stated value is compared with its checked
copy: the step's checked data, the verifier's own reading of the input (the length, the network's depth, the taps,
their gcd and sum-set depth), or a fact the check established (the orbits of the checked G; |Aut(R_i)| = |G| / |orbit|
and a single automorphism of every prefix view where the check found no view witness). A value differing from its
copy is rejected; a value with none (BLISS's canonical digests, Lemma P's intermediate sets) is named on the
`not certified` line. These blocks used to be neither compared nor named: a forged field passed unnoticed.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Optional

#: descriptive fields of a block, not stated values
_META = {"kind", "trusted"}

#: the digest field of a rooted view, BLISS's canonical form: no checked copy
_DIGEST = "canonical form (sha256, first 16 hex)"


class LayerBlockMismatch(Exception):
    """A per-layer block value differs from its checked copy."""


#: A checked copy: a value the stated one must equal, or a test of the stated value (True: it holds, False: it
#: differs, None: not decided here, named as not compared).
Test = Callable[[Any], Optional[bool]]


def bind(ctx, s: dict, cert: dict, where: str) -> list[str]:
    """Compare each stated value of a per-layer block with its checked copy; raise LayerBlockMismatch for one that
    differs; return the paths of those not compared."""
    kind = cert["kind"]
    rules, copies = BLOCKS[kind]
    if s["rule"] not in rules:
        return [f"{where}.{key}" for key in cert if key not in _META]
    checked = copies(ctx, s, cert)
    unread = []
    for key, value in cert.items():
        if key in _META:
            continue
        path = f"{where}.{key}"
        if key not in checked:
            unread.append(path)
            continue
        want = checked[key]
        same = want(value) if callable(want) else _equal(value, want)
        if same is None:
            unread.append(path)
        elif not same:
            shown = "" if callable(want) else f" {_short(want)}"
            raise LayerBlockMismatch(f"{path} = {_short(value)} is not the checked value{shown} ({s['id']}, "
                                     f"{s['rule']})")
    if kind == "layer-rooted-views" and isinstance(cert.get("per orbit"), list):
        unread.append(f"{where}.per orbit[].{_DIGEST}")
    return unread


def _equal(a: Any, b: Any) -> bool:
    """JSON values equal as JSON (an int is not a bool)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


#: an order with this many digits or more is written in a certificate in the bounded form "≈ m × 10^e"
#: (docs/language.md, "Orders"), not as an integer
LONG_ORDER_DIGITS = 1000


def states_order(value: Any, order: int) -> bool:
    """Whether a stated group or automorphism order is the checked ``order``: the integer itself, or, for an order of
    LONG_ORDER_DIGITS digits or more, a bounded wording of it (named_structure's `_approximates`: "≈ m × 10^e" within
    one unit of m's last digit, by exact arithmetic)."""
    from .named_structure import _approximates
    if isinstance(value, int) and not isinstance(value, bool):
        return value == order
    return isinstance(value, str) and order >= 10 ** (LONG_ORDER_DIGITS - 1) and _approximates(value, order)


def _short(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)[:80]


def _data(s: dict) -> dict:
    data = s.get("data")
    return data if isinstance(data, dict) else {}


# ---------------------------------------------------------------------------------------------
# Per-layer patterns (docs/theory.md §21.1–§21.5, §21.7)


def _reach(ctx, s: dict, cert: dict) -> dict:
    """layers-connected (SEQ-CONNECTED), layers-prefix-reach (SEQ-CAUSAL-REACH): the depth and the pair of the data,
    the input's length."""
    data = _data(s)
    pair = {"i": data.get("i"), "j": data.get("j")} if data.get("i") is not None else None
    return {"n": ctx.spec.tokens, "depth": data.get("depth"), "not within depth − 1": pair}


def _any_depth_reach(ctx, i: int) -> set:
    """The positions whose token ever reaches i, through any number of layers of the period (§21.1)."""
    from . import layer_views
    from .rules_layers import _layers
    L = _layers(ctx)
    mask, _ = layer_views.reach_limit(L.with_limit(None), i)
    return {v for v in range(1, L.n + 1) if mask >> v & 1}


def _unreached(ctx, s: dict, cert: dict) -> dict:
    """layers-receptive-field (SEQ-DISCONNECTED): i and j of the data; `within layers` the network's depth as the
    verifier reads it, or none (at any depth) when x_j never reaches i through any number of periods; the closed set
    the positions whose token ever reaches i."""
    from .rules_layers import _layers
    data = _data(s)
    L = _layers(ctx)
    i, j = data.get("i"), data.get("j")

    def within(value) -> bool:
        if value is None:  # at any depth: a periodic sequence whose reach of i never takes j in
            return L.periodic and isinstance(i, int) and j not in _any_depth_reach(ctx, i)
        return _equal(value, L.limit)

    def closed(value) -> bool:
        return isinstance(i, int) and isinstance(value, list) and L.periodic and value == sorted(_any_depth_reach(ctx, i))
    return {"i": i, "j": j, "within layers": within, "reaches i (closed under every layer)": closed}


def _view_witness(ctx, s: dict, cert: dict) -> dict:
    """layer-view-witness (SEQ-DEPTH), layer-causal-witness: the witness of the step's data."""
    data = _data(s)
    wit = data.get("view witness", data.get("causal view witness", data))
    wit = wit if isinstance(wit, dict) else {}
    return {k: wit.get(k) for k in ("depth", "position", "permutation")}


def _group(ctx):
    """(the checked generators of G, |G|) of the derivation's SEQ-GROUP step, as its check established them."""
    from .rules_layers import _checked_group, _group_step, _layers
    return _checked_group(ctx, _group_step(ctx), _layers(ctx))


def _orbits(n: int, generators: list) -> dict:
    """The least member (1-based) of each orbit of the generated group ↦ its size."""
    from .views import orbits
    return {orbit[0]: len(orbit) for orbit in orbits(generators, n)}


def _rooted_views(ctx, s: dict, cert: dict) -> dict:
    """layer-rooted-views (SEQ-LAYERS, no view witness at the count, decided by the check with nauty): the depth is the
    count; the G-orbits and, per orbit, its least position, its size and |Aut(R_i)| = |G| / |orbit| (the stabiliser's
    order, which is what "no view witness" means, §21.4) from the checked G; the canonical digests are BLISS's."""
    from .rules_layers import _layers
    gens, order = _group(ctx)
    orbits = _orbits(_layers(ctx).n, gens)

    def per_orbit(value) -> bool:
        if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
            return False
        stated = [{k: v for k, v in e.items() if k != _DIGEST} for e in value]
        want = [{"position": rep, "orbit size": size} for rep, size in orbits.items()]
        counts = [e.pop("|Aut(rooted view)|", None) for e in stated]
        return _equal(stated, want) and all(states_order(count, order // size)
                                            for count, size in zip(counts, orbits.values()))
    return {"depth": _data(s).get("layers"), "G-orbits": len(orbits), "per orbit": per_orbit}


def _generate_g(ctx) -> Test:
    """Generators stated for G: each preserves every layer's heads (the verifier's arcs) and they generate |G|."""
    from . import groups, patterns
    from .rules_layers import _layers
    L = _layers(ctx)
    _, order = _group(ctx)

    def test(value) -> Optional[bool]:
        if isinstance(value, int):
            return None  # a count where too many to list
        if not isinstance(value, list) or not all(patterns.is_permutation(g, L.n) for g in value):
            return False
        lab = L.labels()
        return all(patterns.preserves(g, lab) for g in value) and groups.order(value, L.n) == order
    return test


def _covering(ctx, s: dict, cert: dict) -> dict:
    """layer-group-covering (SEQ-LAYERS by the covering lemma): the depth is the count; the layers seen whole are what
    the check read and re-checked; the order is |G| and the generators generate G."""
    _, order = _group(ctx)
    return {"depth": _data(s).get("layers"), "layers seen whole": lambda value: True,
            "order": lambda value: states_order(value, order), "generators": _generate_g(ctx)}


def _group_generators(ctx, s: dict, cert: dict) -> dict:
    """layer-automorphism-generators (SEQ-GROUP): the order and generators of the step's checked data (the check
    reads the block's generators where the data lists none)."""
    data = _data(s)
    gens = data.get("generators")
    _, order = _group(ctx)  # the check re-derived it (Schreier–Sims) and compared it with the stated one
    return {"order": lambda value: states_order(value, order),
            "generators": (lambda value: None if isinstance(value, int) else _equal(value, gens))
            if gens is not None else (lambda value: True)}


def _causal_views(ctx, s: dict, cert: dict) -> dict:
    """layer-causal-views (SEQ-CAUSAL-LAYERS, no causal view witness at the count, decided by the check with nauty): the
    depth is the count, one rooted view per position, and each has the identity alone (§21.5)."""
    from .rules_layers import _layers
    return {"depth": _data(s).get("layers"), "rooted views": _layers(ctx).n, "every |Aut(rooted view)|": 1}


def _alternation(ctx, s: dict, cert: dict) -> dict:
    """layer-alternation-group, layer-alternation-count (§21.7): every field the step's checked data states, the
    input's length, and the group's order by the verifier's closed form (Theorems F133, F134)."""
    out: dict = dict(_data(s))
    out["n"] = ctx.spec.tokens
    if cert["kind"] == "layer-alternation-group":
        from .alternations import group_words
        from .rules_layers import _alternation as reading
        order = group_words(reading(ctx))[1]
        if "order" not in out:
            out["order"] = order
        stated = out.get("generators")
        out["generators"] = lambda value: _equal(value, stated) and _generate_alternation(ctx, value, order)
    return out


def _generate_alternation(ctx, generators, order) -> Optional[bool]:
    """An alternation's listed generators (none above the length the engine lists them at): each preserves both
    layers' heads on the verifier's own arcs and together they generate the theorem's order; None (not compared)
    above the verifier's per-layer limit."""
    from . import groups, layer_views, patterns
    if generators == []:
        return True  # none listed: the name and the order are the claim
    if not isinstance(ctx.spec.tokens, int) or ctx.spec.tokens > layer_views.MAX_N or not isinstance(order, int):
        return None
    L = layer_views.build(ctx.spec)
    lab = L.labels()
    return isinstance(generators, list) and all(patterns.is_permutation(g, L.n) and patterns.preserves(g, lab)
                                                for g in generators) and groups.order(generators, L.n) == order


# ---------------------------------------------------------------------------------------------
# The circular convolution mixer (docs/theory.md §22)


def _taps(ctx, n=None) -> Test:
    from .rules_conv import _taps as own
    return lambda value: isinstance(value, list) and sorted(value) == sorted(own(ctx, {}, n))


def _circulant(ctx, s: dict, cert: dict) -> dict:
    """circulant-span (an integer n): the taps (read mod n: {0} at n = 1), g = gcd(n, K \\ {0}) and the sum sets'
    depth, recomputed."""
    from .rules_conv import _taps as own
    from .rules_conv import sumset_depth, tap_gcd
    n = ctx.spec.tokens
    taps = own(ctx, {}, n)
    return {"n": n, "taps": _taps(ctx, n), "gcd": tap_gcd(n, taps), "depth": sumset_depth(n, taps)[0]}


def _scaled(ctx, s: dict, cert: dict) -> dict:
    """zero-taps, scaled-tap-interval, tap-sumsets: the taps and the gcd s of the non-zero ones; Lemma P's range
    start as the step's data states it (the check re-derives it); its intermediate sets are not compared."""
    from .rules_conv import _step
    out: dict = {"taps": _taps(ctx), "step": _step(ctx)}
    if "from" in _data(s):
        out["from"] = _data(s)["from"]
    return out


def _tap_interval(ctx, s: dict, cert: dict) -> dict:
    """tap-interval: the taps (none listed for `circular(l)`), the span (its name and declared lower bound, or the
    integer l)."""
    from .rules_conv import _lower, _mixer
    conv = _mixer(ctx)
    if isinstance(conv.span, str):
        return {"taps": [], "span": conv.span, "span lower bound": _lower(ctx, conv.span)}
    if conv.span is not None:  # an integer span l: the taps 0..l, not listed
        return {"taps": [], "span": conv.span, "span lower bound": None}
    return {"taps": _taps(ctx), "span": None, "span lower bound": None}


_CONV = {"CONV-REACH", "CONV-LAYERS", "CONV-GROUP", "CONV-DISCONNECTED"}

#: kind ↦ (the rules whose step carries it, its checked copies)
BLOCKS: dict[str, tuple[set, Callable[[Any, dict, dict], dict]]] = {
    "layers-connected": ({"SEQ-CONNECTED"}, _reach),
    "layers-prefix-reach": ({"SEQ-CAUSAL-REACH"}, _reach),
    "layers-receptive-field": ({"SEQ-DISCONNECTED"}, _unreached),
    "layer-view-witness": ({"SEQ-DEPTH"}, _view_witness),
    "layer-causal-witness": ({"SEQ-CAUSAL-LAYERS", "TGT-NOT-CAUSAL"}, _view_witness),
    "layer-rooted-views": ({"SEQ-LAYERS"}, _rooted_views),
    "layer-group-covering": ({"SEQ-LAYERS"}, _covering),
    "layer-automorphism-generators": ({"SEQ-GROUP"}, _group_generators),
    "layer-causal-views": ({"SEQ-CAUSAL-LAYERS"}, _causal_views),
    "layer-alternation-group": ({"SEQ-ALTERNATION-GROUP"}, _alternation),
    "layer-alternation-count": ({"SEQ-ALTERNATION-LAYERS"}, _alternation),
    "circulant-span": (_CONV, _circulant),
    "zero-taps": (_CONV, _scaled),
    "scaled-tap-interval": (_CONV, _scaled),
    "tap-sumsets": (_CONV, _scaled),
    "tap-interval": (_CONV, _tap_interval),
}
