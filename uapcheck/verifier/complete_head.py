"""Theorem F141 (docs/theory.md §16.5), re-checked from the re-parsed heads: one layer, least, when a complete head's
own step proves it 1-layer token distinguishing w.r.t. the trivial group and the family's group is the trivial one
(with W_V = 0 in the other heads the layer is that head's). The head's step is re-checked by its own checker; here:
the head is complete, its step is the verdict's premise for that head, proved, of a rule whose conclusion is the
trivial group in one layer for this head's form (re-derived: RoPE; a fixed bias or factor that the verifier's own
offset analysis finds injective; T5 buckets with a bucket per offset at n, recomputed; a `free` or `toeplitz` bias),
without the two-layer facts, and the group step names the trivial group. Shares no code with the engines."""
from __future__ import annotations

from .. import spec as S
from .check import VERIFIED, Reject, Trust


def _one_layer_form(ctx, head, rule: str) -> bool:
    """Whether the head's form is one whose `rule` step concludes the trivial group in one layer (re-derived)."""
    from .rules_positions import _own_buckets, offset_class
    pos = head.position
    if rule == "TD-ROTARY":
        return pos is not None and pos.kind == "rotary"
    if rule == "TD-BIAS":
        return pos is None and head.bias in ("free", "toeplitz")
    if rule == "TD-BUCKETS":
        n = ctx.spec.tokens
        if not isinstance(n, int):
            return False
        return pos is not None and pos.kind == "buckets" and _own_buckets(n, pos.buckets, pos.max_distance)
    if rule == "TD-FIXEDBIAS":
        if pos is None or pos.kind not in ("bias", "reweight"):
            return False
        try:
            return offset_class(ctx.spec, head)[0] == "injective"
        except Trust:
            return False
    return False


def layers(ctx, s):
    """PAT-LAYERS with a `complete-head-alone` certificate: (VERIFIED, why), or Reject."""
    from .structure import slots
    cert = s.get("certificate") or {}
    data = s.get("data") or {}
    k, rule = cert.get("head"), cert.get("rule")
    heads = ctx.spec.heads
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= len(heads):
        raise Reject("the separating head is not one of the file's heads")
    head = heads[k - 1]
    if not isinstance(head.pattern, S.Full):
        raise Reject(f"head {k} is not complete: one layer of it does not see every token")
    if ctx.spec.positional != "none":
        raise Reject("an absolute encoding: Theorem F141 is stated without one")
    if (data.get("layers"), data.get("least"), data.get("diameter")) != (1, True, 1):
        raise Reject("Theorem F141 gives one layer, least, with D = 1")
    _, tds, _, group = slots(ctx)
    td = tds[k - 1]
    if td["rule"] != rule or td["status"] != "proved":
        raise Reject(f"head {k}'s step is not a proved {rule} step")
    if (td.get("data") or {}).get("labelled_views") or (td.get("data") or {}).get("fixed_even"):
        raise Reject(f"head {k}'s step counts layers by labelled views or Lemma E: not one layer alone")
    if not _one_layer_form(ctx, head, rule):
        raise Reject(f"head {k}'s form is not one whose {rule} step gives the trivial group in one layer")
    gdata = group.get("data") or {}
    if group["rule"] != "SYM-AUT" or gdata.get("name") != "trivial" or gdata.get("order") not in (None, 1):
        raise Reject("the family's group is not stated trivial: head alone separates w.r.t. its own group only")
    return VERIFIED, (f"Theorem F141 (§16.5): head {k} is complete and its proved {rule} step (form re-derived) makes it "
                      "1-layer token distinguishing w.r.t. the trivial group, the family's stated group; with W_V = 0 "
                      "in the other heads the layer is that head's: one layer, least")


def connected(ctx, s):
    """PAT-CONNECTED at a symbolic n when some head is complete: the union is complete, so D = 1 (n ≥ 2; at n = 1,
    D = 0 and one layer is still the fewest). None when no head is complete or another diameter is stated (the
    other routes decide it)."""
    if not any(isinstance(h.pattern, S.Full) for h in ctx.spec.heads) or (s.get("data") or {}).get("diameter") != 1:
        return None
    return VERIFIED, "a head is complete (`full`), so every position sees every token in one step: D = 1 for n ≥ 2"


def group(ctx, s):
    """SYM-AUT with a `trivial-beside-complete-head` certificate (Theorem F150, §16.5): head k is complete and its form
    (re-derived) labels its arcs by the offsets — RoPE with d ≥ 2, a fixed bias the verifier's own offset analysis
    finds injective, a `toeplitz` bias — with its step proved; a permutation keeping those labels is a translation of
    1..n, the identity, and the family's group lies inside that head's. (VERIFIED, why), or Reject."""
    from .structure import slots
    cert = s.get("certificate") or {}
    data = s.get("data") or {}
    k, rule = cert.get("head"), cert.get("rule")
    heads = ctx.spec.heads
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= len(heads):
        raise Reject("the head is not one of the file's heads")
    head = heads[k - 1]
    if not isinstance(head.pattern, S.Full) or ctx.spec.positional != "none":
        raise Reject(f"head {k} is not complete, or an absolute encoding is present")
    if rule not in ("TD-ROTARY", "TD-FIXEDBIAS", "TD-BIAS") or not _one_layer_form(ctx, head, rule):
        raise Reject(f"head {k}'s form does not label its arcs by the offsets ({rule})")
    if rule == "TD-ROTARY" and ctx.spec.dim == 1:
        raise Reject("RoPE under `dim 1` has no rotation plane: its weights do not read the offsets")
    td = slots(ctx)[1][k - 1]
    if td["rule"] != rule or td["status"] != "proved":
        raise Reject(f"head {k}'s step is not a proved {rule} step")
    if data.get("name") != "trivial" or data.get("order") not in (None, 1):
        raise Reject("Theorem F150 gives the trivial group")
    return VERIFIED, (f"Theorem F150 (§16.5): head {k} is complete and its proved {rule} step's form (re-derived) labels "
                      "every arc by its offset; only the identity keeps every difference l − i, and the family's group "
                      "lies inside that head's: G trivial at every n")
