"""Theorem F141 (docs/theory.md §16.5): a complete head that separates alone in one layer w.r.t. the trivial group.

Beside any other heads (sparse ones with T5 buckets, a window, …), a head whose pattern is complete and whose own
step proves it 1-layer token distinguishing w.r.t. the trivial group — RoPE (TD-ROTARY), a fixed offset-injective
bias (TD-FIXEDBIAS, not the even case), T5 buckets with a bucket per offset at this n (TD-BUCKETS' one-layer case), a
`free` or `toeplitz` trainable bias (TD-BIAS) — makes the family 1-layer token distinguishing when the family's group
is the trivial one: with W_V = 0 in every other head (each head has its own value map) the layer is that head's. So
one layer suffices, and it is least. The PAT-LAYERS step of the pattern engines (D + 1 = 2, sufficient) is replaced
by this count."""
from __future__ import annotations

from typing import Optional

from .. import proof
from .. import spec as S
from ..certificates import CompleteHeadAlone, TrivialBesideCompleteHead

#: the steps that prove a head 1-layer token distinguishing w.r.t. the trivial group (with the facts that rule it out)
ONE_LAYER_TRIVIAL = ("TD-ROTARY", "TD-FIXEDBIAS", "TD-BUCKETS", "TD-BIAS")


def separates_alone(head: S.Head, td: proof.Step) -> bool:
    """Whether the head is complete and its step proves it 1-layer token distinguishing w.r.t. the trivial group."""
    if not isinstance(head.pattern, S.Full) or not td.proved or td.rule not in ONE_LAYER_TRIVIAL:
        return False
    if td.facts.get("labelled_views") or td.facts.get("fixed_even"):
        return False  # the count is the labelled views' or Lemma E's (two layers), not one
    if td.rule == "TD-BIAS":
        return head.bias in ("free", "toeplitz") and head.position is None
    if td.rule == "TD-BUCKETS":
        return head.position is not None and head.position.kind == "buckets"
    return head.position is not None and head.position.kind in (("rotary",) if td.rule == "TD-ROTARY"
                                                                else ("bias", "reweight"))


def one_layer(spec: S.Spec, tds: list, structure: list, group) -> Optional[list]:
    """The structure steps with the PAT-LAYERS step replaced by Theorem F141's one layer, least; None when the
    theorem does not apply (no such head, a group other than the trivial one, an encoding, or the count already 1)."""
    if group is None or group.name != "trivial" or spec.positional != "none" or len(spec.heads) < 2:
        return None
    k = next((k for k, (h, td) in enumerate(zip(spec.heads, tds)) if separates_alone(h, td)), None)
    at = next((i for i, s in enumerate(structure) if s.rule == "PAT-LAYERS" and s.proved), None)
    if k is None or at is None:
        return None
    old = structure[at]
    if old.facts.get("diameter") != 1 or (old.facts.get("layers"), old.facts.get("least")) == (1, True):
        return None
    from .pattern import layers_step
    connected = next(p for p in old.premises if p.rule == "PAT-CONNECTED")
    label = spec.heads[k].label or str(k + 1)
    method = (f"head {label} is complete and its step ({tds[k].rule}) proves it 1-layer token distinguishing w.r.t. "
              "the trivial group, the family's group: with the value map of every other head set to zero the layer "
              "is that head's, so one layer suffices whatever the other heads compute (Theorem F141, docs/theory.md §16.5)")
    step = layers_step(connected, 1, 1, True, method, family=CompleteHeadAlone(k, tds[k].rule, 1, 1))
    return [*structure[:at], step, *structure[at + 1:]]


def trivial_group(spec: S.Spec, group_spec: S.Spec, tds: list) -> Optional[tuple]:
    """Theorem F150 (docs/theory.md §16.5): (the SYM-AUT step naming the trivial group, its GroupInfo) when some head
    is complete and its weights' classes are the offsets — RoPE (TD-ROTARY), a fixed offset-injective bias
    (TD-FIXEDBIAS), a `toeplitz` bias (TD-BIAS), each proved — whatever the other heads' groups are (a window with T5
    buckets at a symbolic n, whose own group is not decided); None otherwise."""
    if spec.positional != "none":
        return None
    for k, (head, kind, td) in enumerate(zip(spec.heads, group_spec.heads, tds)):
        if not isinstance(head.pattern, S.Full) or kind.bias != "toeplitz" or not td.proved or \
                td.rule not in ("TD-ROTARY", "TD-FIXEDBIAS", "TD-BIAS") or td.facts.get("fixed_even"):
            continue
        from ..groups import GroupInfo
        from .symmetry import group_step
        label = head.label or str(k + 1)
        info = GroupInfo("trivial", 1, ())
        why = (f"head {label} is complete and its weights' classes are the offsets ({td.rule}): a permutation keeping "
               "them keeps every difference l − i, so it is a translation of 1..n, the identity; the family's group "
               "lies inside that head's (with every other head's value map zero the layer is that head's), so it is "
               "trivial at every n, whatever the other heads' groups (Theorem F150, docs/theory.md §16.5)")
        step = group_step("; ".join(show for show in (str(h.pattern) for h in spec.heads)), info,
                          {"method": why}, TrivialBesideCompleteHead(k, td.rule))
        return step, info
    return None
