"""Theorem F149 (docs/theory.md §16.5), re-checked from the re-parsed heads at a concrete n: one layer, least, when the
union is complete (D = 1), the fixed position terms are offset biases on complete normalised heads whose TD-FIXEDBIAS
steps are proved, every other head is position-blind or carries trainable classes of the offset, the family's group
is the trivial one, and no permutation but the identity keeps a row's labels in every head. The labels are the
verifier's own (`rules_budget._label_kinds`: T5's buckets with its own exact bucket function, a fixed bias's classes
from its own offset analysis, k(0, 0) > 0 re-derived), and the rows are compared here, joint label by joint label.
Shares no code with the engines."""
from __future__ import annotations

from .. import spec as S
from .check import VERIFIED, Reject


def _rows(heads, kinds: list, n: int) -> list:
    """Row i as the tuple over keys u = 1..n of the tuple over heads of u's class in row i, or "out" (index 0 unused)."""
    from . import patterns
    from .rules_budget import _class
    nbs = patterns.in_neighbourhoods(heads, n)
    return [()] + [tuple(tuple((_class(kind, n, i, u) if kind is not None else "in") if u in nb[i] else "out"
                               for kind, nb in zip(kinds, nbs)) for u in range(1, n + 1)) for i in range(1, n + 1)]


def witness(heads, kinds: list, n: int):
    """(i, j) when some σ ≠ id with σ(i) = j keeps row i's labelled neighbourhood in every head, else None: σ must map
    every joint class of row i onto the same class of row j, own key onto own key."""
    rows = _rows(heads, kinds, n)
    first: dict = {}
    for i in range(1, n + 1):
        if len(set(rows[i])) < n:
            return i, i
        j = first.setdefault((rows[i][i - 1], frozenset(rows[i])), i)
        if j != i:
            return j, i
    return None


def layers(ctx, s, n: int, heads, d: int):
    """PAT-LAYERS with a `depth-one-labelled` certificate: (VERIFIED, why), or Reject."""
    from .rules_budget import _label_kinds
    from .structure import slots
    data = s.get("data") or {}
    if (d, data.get("layers"), data.get("least")) != (1, 1, True):
        raise Reject("Theorem F149 gives one layer, least, at D = 1")
    if ctx.spec.positional != "none":
        raise Reject("an absolute encoding: Theorem F149 is stated without one")
    kinds = _label_kinds(ctx, n)
    _, tds, _, group = slots(ctx)
    fixed = 0
    for k, (head, kind, td) in enumerate(zip(ctx.spec.heads, kinds, tds), 1):
        if td["status"] != "proved":
            raise Reject(f"head {k}'s step is not proved")
        if kind == "free":
            raise Reject(f"head {k}: a `free` bias is not a trainable class of the offset (Lemma V^λ)")
        if head.position is not None and head.position.kind != "buckets":
            if not isinstance(head.pattern, S.Full) or td["rule"] != "TD-FIXEDBIAS":
                raise Reject(f"head {k}: a fixed position term is read in one layer only on a complete head with a "
                             "proved TD-FIXEDBIAS step")
            fixed += 1
    if not fixed:
        raise Reject("no fixed position term: Theorem F149 is not needed (Lemma V^λ)")
    gdata = group.get("data") or {}
    if group["rule"] != "SYM-AUT" or gdata.get("name") != "trivial" or gdata.get("order") not in (None, 1):
        raise Reject("the family's group is not stated trivial")
    found = witness(heads, kinds, n)
    if found is not None:
        raise Reject(f"a permutation σ ≠ id with σ({found[0]}) = {found[1]} keeps row {found[0]}'s labels in every "
                     "head: one layer does not suffice")
    return VERIFIED, (f"Theorem F149 (§16.5): D = 1, and at n = {n} no permutation but the identity keeps a row's joint "
                      "labels (re-computed with the verifier's own classes); the fixed biases sit on complete heads "
                      "with proved TD-FIXEDBIAS steps and the other heads carry trainable classes: one layer, least")
