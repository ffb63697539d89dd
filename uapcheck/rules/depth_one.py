"""Theorem F149 (docs/theory.md §16.5): one layer when the heads' union is complete (D = 1), some head carries a fixed
offset bias on a complete pattern, and no permutation but the identity keeps a row's labels in every head.

At D = 1 the first layer's states are the tokens themselves. A fixed offset bias on a complete normalised head reads,
at W_Q = W_K = 0, the fixed weights of a row, which differ between two rows exactly when their labels (the classes of
its offset function) differ; a head with trainable classes of the offset separates different labelled rows by
Lemma V^λ; with W_V = 0 in every other head each head works alone, and the layer is analytic in all parameters
(Theorem 2). So one layer separates every two samples whose joint labelled rows differ, and with no one-layer
labelled witness that is every two samples from different orbits of the trivial group. The PAT-LAYERS step of the
pattern engines (D + 1 = 2, sufficient, for fixed position weights) is replaced by this count."""
from __future__ import annotations

from typing import Optional

from .. import spec as S
from ..certificates import DepthOneLabelled


def _fixed_heads(spec: S.Spec) -> list:
    return [k for k, h in enumerate(spec.heads) if h.position is not None and h.position.kind != "buckets"]


def applies(spec: S.Spec, tds: list, group) -> bool:
    """The theorem's hypotheses on the forms: an integer n, no encoding, the trivial group, at least one fixed head,
    every fixed head a complete normalised head with a fixed bias whose TD-FIXEDBIAS step is proved, every other
    head position-blind or with trainable classes of the offset (no `free` bias), every head's step proved."""
    fixed = _fixed_heads(spec)
    if not isinstance(spec.tokens, int) or spec.positional != "none" or group is None or group.name != "trivial" \
            or not fixed or not all(td.proved for td in tds):
        return False
    for k, (h, td) in enumerate(zip(spec.heads, tds)):
        if h.bias == "free" or h.projection or h.nystrom or h.heads is not None or (h.differential or h.sink is not None):
            return False
        if k in fixed and not (isinstance(h.pattern, S.Full) and h.position is not None and h.position.kind == "bias"
                               and h.bias is None and h.normalized and td.rule == "TD-FIXEDBIAS"):
            return False
    return True


def joint_rows(kinds: list, graphs: list, n: int) -> list:
    """Row i's joint labels: for each key u, the tuple over the heads of u's class in row i (None for a
    position-blind head) or `out` when the head's row i does not see u; rows 1..n (index 0 unused)."""
    from ..groups import offset_class
    rows: list = [None]
    for i in range(1, n + 1):
        rows.append(tuple(tuple(("in", None if kind is None else offset_class(kind, n, u - i))
                                if g.attends(i, u) else "out" for kind, g in zip(kinds, graphs))
                          for u in range(1, n + 1)))
    return rows


def one_layer_witness(kinds: list, graphs: list, n: int) -> Optional[tuple]:
    """A one-layer labelled witness for the trivial group — (i, j): a σ ≠ id with σ(i) = j keeps row i's labels
    in every head — or None when there is none. Such a σ maps each joint class of row i onto the same class of row
    j; it exists and differs from the identity exactly when the rows' own labels agree, their joint labels agree
    as multisets, and j ≠ i or some class of row i holds two keys."""
    rows = joint_rows(kinds, graphs, n)
    seen: dict = {}
    for i in range(1, n + 1):
        row = rows[i]
        if len(set(row)) < n:
            return i, i  # two keys of row i in one joint class: their transposition keeps the row
        key = (row[i - 1], frozenset(row))
        if key in seen:
            return seen[key], i
        seen[key] = i
    return None


def one_layer(spec: S.Spec, group_spec: S.Spec, tds: list, structure: list, group) -> Optional[list]:
    """The structure steps with the PAT-LAYERS step replaced by Theorem F149's one layer, least; None when the
    theorem does not apply (its hypotheses, D ≠ 1, the count already one, or a one-layer labelled witness)."""
    if not applies(spec, tds, group):
        return None
    at = next((i for i, s in enumerate(structure) if s.rule == "PAT-LAYERS" and s.proved), None)
    if at is None:
        return None
    old = structure[at]
    if old.facts.get("diameter") != 1 or (old.facts.get("layers"), old.facts.get("least")) == (1, True) \
            or old.facts.get("layers") != 2:
        return None
    from ..graphs.build import build_graph
    n = spec.tokens
    assert isinstance(n, int)  # applies() asked for an integer n
    kinds = [h.bias for h in group_spec.heads]
    try:
        graphs = [build_graph(h.pattern, n, {}) for h in spec.heads]
    except KeyError:  # a pattern size given by a param (`window(w)`): its arcs are not read at one value of w
        return None
    if one_layer_witness(kinds, graphs, n) is not None:
        return None
    from .pattern import layers_step
    connected = next(p for p in old.premises if p.rule == "PAT-CONNECTED")
    fixed = tuple(_fixed_heads(spec))
    method = ("the union is complete (D = 1) and no permutation but the identity keeps a row's labels in every head "
              "(joint labels re-computed row by row); a fixed offset bias on a complete head separates rows whose "
              "labels differ in one layer (its fixed weights, with zero query and key maps), trainable classes of the offset do "
              "(§11.10), so one layer suffices (Theorem F149, docs/theory.md §16.5)")
    step = layers_step(connected, 1, 1, True, method, family=DepthOneLabelled(n, tuple(kinds), fixed, 1, 1))
    return [*structure[:at], step, *structure[at + 1:]]
