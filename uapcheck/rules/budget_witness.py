"""PAT-BUDGET-WITNESS: a `layers M` budget below a count that a view witness shows least: NOT-UAP.

A view witness σ ∉ G at position i and depth M gives T(X)_i = T(σX)_{σ(i)} for every model with at most M
attention layers, and §11.2's G-equivariant target then stays away from the family (docs/theory.md
§11.12). Two routes:

* row swap — dense heads, `layers 1`: a row i and two keys a, b that every head weighs alike in row i
  (an even position term weighs i − s and i + s alike; a symmetric bias puts them in one class), so
  exchanging x_a and x_b permutes the terms of every head's sum at row i; a row v ∉ {a, b} where one head
  gives a and b different position-only weights shows that (a b) is not in G;
* pattern — the PAT-LAYERS step shows D + 1 least by an (unlabelled) view witness at depth D, and the
  budget is D: the same witness, checked arc by arc at depth M = D.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import sympy

from .. import proof
from .. import spec as S
from ..certificates import (OFFSET_BIAS_KINDS, Certificate, bucket_kind, OffsetClass, ViewWitness, _bfs_from, _exact, _is_nonzero,
                            _reject, bias_class)
from ..claim import Formula, claim
from ..zero import is_zero
from .wording import ZERO_SCORES, token

CITE = proof.derived(text="the view lemma and its target (docs/theory.md §11.2), with labels (§11.10, §14.11(a)); "
                     "docs/theory.md §11.12, PAT-BUDGET-WITNESS")

#: Rows tried as the centre of a swap (i − s, i + s), and as the row that tells a from b.
CENTRE_ROWS = 6
BREAK_ROWS = 12
#: Symbolic n: the witness (1 3) at row 2, told apart at row 4; the labels of positions ≤ 4 compare the
#: same way for every n ≥ STABLE_FROM.
SYMBOLIC_ROWS = 4
STABLE_FROM = 7


@dataclass(frozen=True)
class HeadLabels:
    """How one dense head's weights in row i depend on the key's position u: through a label λ(i, u).

    source "plain" (no position: one label), "trainable" (`bias KIND`: the class of (i, u)), "buckets"
    (T5: the bucket of u − i), "fixed" (a fixed bias or factor: its value at (i, u)). `k00`: k(0, 0),
    shown positive, when the head can put position-only weights on a row (W_Q = W_K = 0); None when it
    cannot be used to tell two keys apart."""

    source: str
    kind: Optional[str] = None  # the trainable kind; "bias" or "reweight" for a fixed term
    term: Optional[sympy.Expr] = None  # the fixed term in the position symbols (rules/positions.I, J)
    buckets: Optional[tuple] = None  # (B, D) for T5
    k00: Optional[sympy.Expr] = None

    def label(self, n, i: int, u: int) -> Any:
        if self.source == "plain":
            return 0
        if self.source == "trainable" and self.kind is not None:
            return bias_class(self.kind, n, i, u)
        if self.source == "buckets" and self.buckets is not None:
            from .positions import t5_bucket
            return t5_bucket(u - i, *self.buckets)
        from .positions import I, J
        if self.term is None:
            raise ValueError("a fixed head without its term")
        return self.term.xreplace({I: sympy.Integer(i), J: sympy.Integer(u)})

    def same(self, n, i: int, a: int, b: int) -> bool:
        """Keys a and b carry the same label in row i (exactly)."""
        la, lb = self.label(n, i, a), self.label(n, i, b)
        if self.source == "fixed":
            return is_zero(sympy.simplify(la - lb))
        return bool(la == lb)

    def differ(self, n, v: int, a: int, b: int) -> bool:
        """Keys a and b get different position-only weights in row v for some parameter of this head."""
        if self.k00 is None or self.source == "plain":
            return False
        la, lb = self.label(n, v, a), self.label(n, v, b)
        if self.source == "fixed":
            return self.kind == "bias" and _is_nonzero(la - lb)
        return bool(la != lb)

    def to_json(self) -> dict:
        out: dict = {"source": self.source}
        if self.kind is not None:
            out["kind"] = self.kind
        if self.term is not None:
            out["term"] = _exact(self.term)
        if self.buckets is not None:
            out["buckets"] = list(self.buckets)
        out["k00"] = None if self.k00 is None else _exact(self.k00)
        return out


@dataclass(frozen=True)
class RowSwap(Certificate):
    """One layer of dense heads gives X and (a b)X the same output at row i, and (a b) ∉ G.

    The check recomputes every head's labels: λ_h(i, a) = λ_h(i, b) for every head (the swap permutes
    the terms of every sum at row i, which it fixes), and λ_h(v, a) ≠ λ_h(v, b) in the head `breaker`,
    at a row v ∉ {a, b}, with k(0, 0) > 0 shown (at W_Q = W_K = 0 and W_V = I in that head, W_V = 0 in the
    others, the output at v has different coefficients at x_a and x_b, so the model is not
    (a b)-equivariant).

    A symbolic n (`n` the tokens name) states the witness for every n ≥ `low`: the positions are at most
    SYMBOLIC_ROWS, no label may depend on n (a fixed term without the tokens name; the class functions
    compare offsets |d| ≤ 3, whose equalities are the same for every n ≥ 7 — min(|d|, n − |d|) = |d| once
    n ≥ 6), so checking every n from `low` to 7 checks them all."""

    n: Any  # int, or the tokens name
    budget: int
    position: int
    swap: tuple  # (a, b)
    row: int  # v
    breaker: int  # the head (from 0) that tells a from b in row v
    heads: tuple  # HeadLabels per head
    low: Optional[int] = None  # symbolic n: the witness holds for n ≥ low
    kind = "row-swap"

    def check(self) -> None:
        try:
            if isinstance(self.n, int):
                self._check(self.n)
                return
            low = self.low if isinstance(self.low, int) else 0
            if low < SYMBOLIC_ROWS or max(self.position, self.row, *self.swap) > SYMBOLIC_ROWS:
                _reject(RowSwap, f"a symbolic n needs positions ≤ {SYMBOLIC_ROWS} and a range n ≥ low ≥ "
                                 f"{SYMBOLIC_ROWS}")
            for lab in self.heads:
                if isinstance(lab, HeadLabels) and lab.term is not None and any(
                        str(x) == str(self.n) for x in lab.term.free_symbols):
                    _reject(RowSwap, "a fixed term depends on n: its labels are not checked for every n")
            for m in range(low, STABLE_FROM + 1):
                self._check(m)
        except (ValueError, TypeError) as exc:
            _reject(RowSwap, f"a label could not be computed ({exc})")

    def _check(self, n: int) -> None:
        i, (a, b), v = self.position, self.swap, self.row
        if self.budget != 1:
            _reject(RowSwap, "a row swap is a one-layer witness")
        if not all(isinstance(p, int) and 1 <= p <= n for p in (i, a, b, v)) or len({i, a, b}) != 3 or v in (a, b):
            _reject(RowSwap, "the positions are not i, a, b distinct with v ∉ {a, b}")
        for h, lab in enumerate(self.heads):
            if not isinstance(lab, HeadLabels) or lab.source not in ("plain", "trainable", "buckets", "fixed"):
                _reject(RowSwap, f"head {h + 1}: its weights are not a function of a position label")
            if not lab.same(n, i, a, b):
                _reject(RowSwap, f"head {h + 1}: keys {a} and {b} carry different labels in row {i}")
        if not 0 <= self.breaker < len(self.heads):
            _reject(RowSwap, "no head tells a from b")
        lab = self.heads[self.breaker]
        if lab.k00 is not None and (sympy.simplify(lab.k00).is_positive is not True):
            _reject(RowSwap, "k(0, 0) is not shown positive")
        if not lab.differ(n, v, a, b):
            _reject(RowSwap, f"head {self.breaker + 1} does not tell keys {a} and {b} apart in row {v}")

    def to_json(self) -> Any:
        return {"kind": self.kind, "n": self.n, "budget": self.budget, "position": self.position,
                "swap": list(self.swap), "row": self.row, "breaker": self.breaker, "low": self.low,
                "heads": [h.to_json() for h in self.heads]}


@dataclass(frozen=True)
class LabelledViewWitness(Certificate):
    """A view witness with bias classes as arc labels (docs/theory.md §11.10): σ does not keep some head's
    labelled arcs (so σ ∉ G, the group of the labelled heads, §11.4), and every position v at which σ does
    not carry head h's labelled in-neighbourhood {(class_h(v, u), u) : u ∈ N_h(v) ∪ {v}} onto σ(v)'s is at
    distance ≥ `depth` from `position`. Each head is position-blind (kind None) or has a trainable bias of
    the given kind; the labels are recomputed here from the kinds."""

    graphs: tuple
    kinds: tuple  # per head: None or a trainable bias kind (for a fixed bias: the kind of its classes)
    depth: int
    position: int
    permutation: tuple  # [σ(1), ..., σ(n)]
    fixed: tuple = ()  # per head: None, or the OffsetClass of its fixed bias (normalised, k(0, 0) > 0)
    kind = "labelled-view-witness"

    def check(self) -> None:
        n = self.graphs[0].n
        perm = list(self.permutation)
        if sorted(perm) != list(range(1, n + 1)) or not 1 <= self.position <= n or self.depth < 1:
            _reject(LabelledViewWitness, "not a permutation with a position and a depth")
        if any(k is not None and k not in ("free",) + OFFSET_BIAS_KINDS and bucket_kind(k) is None for k in self.kinds):
            _reject(LabelledViewWitness, "a head's labels are not trainable bias classes")
        for k, offset in enumerate(self.fixed):
            if offset is None:
                continue
            if not isinstance(offset, OffsetClass) or offset.multiplicative:
                _reject(LabelledViewWitness, f"head {k + 1}: a fixed term needs the offset classes of its bias")
            offset.check()  # h(j − i), injective on the offsets (on |m| when even)
            if self.kinds[k] != ("symmetric toeplitz" if offset.even else "toeplitz"):
                _reject(LabelledViewWitness, f"head {k + 1}: the classes are not those of its fixed bias")
        bad, outside = _labelled_bad(self.graphs, self.kinds, perm)
        if not outside:
            _reject(LabelledViewWitness, "σ keeps every head's labelled arcs: it is in the group")
        dist = _bfs_from(self.graphs, n, sorted(bad), radius=self.depth - 1)
        if dist[self.position] >= 0:
            _reject(LabelledViewWitness, f"position {self.position} is within {self.depth - 1} of a changed "
                                         "labelled neighbourhood")

    def to_json(self) -> Any:
        return {"kind": self.kind, "depth": self.depth, "position": self.position, "kinds": list(self.kinds),
                "permutation": list(self.permutation),
                "fixed": [None if f is None else f.to_json() for f in self.fixed]}


def _labelled_bad(graphs, kinds, perm) -> tuple[set, bool]:
    """(the positions whose labelled in-neighbourhood σ does not carry onto σ(v)'s in some head, whether σ
    moves some labelled arc out of its head's labelled arc set)."""
    n = graphs[0].n
    bad: set = set()
    outside = False
    for g, kind in zip(graphs, kinds):
        nb: list[set] = [set([v]) for v in range(n + 1)]
        for j, i in g.arcs():
            nb[i].add(j)

        for v in range(1, n + 1):
            sv = perm[v - 1]
            image = {perm[u - 1] for u in nb[v]}
            if image != nb[sv] or (kind is not None and any(
                    bias_class(kind, n, sv, perm[u - 1]) != bias_class(kind, n, v, u) for u in nb[v])):
                bad.add(v)
                outside = True
    return bad, outside


# ---------------------------------------------------------------------------------------------
# Dense heads, one layer: the row swap

def head_labels(spec: S.Spec, head: S.Head) -> Optional[HeadLabels]:
    """The head's labels, or None when its weights see more of the positions than a label (RoPE's score,
    projections, landmarks) or the head is not dense."""
    from . import positions as P
    if not isinstance(head.pattern, S.Full) or head.projection is not None or head.nystrom:
        return None
    pos = head.position
    if pos is not None and head.bias is not None:
        return None
    usable = head.heads is None and not (head.differential or head.sink is not None)
    k00 = None
    if usable and (pos is not None or head.bias is not None):
        k00 = _k00(spec, head)
    if pos is None and head.bias is None:
        return HeadLabels("plain")
    if pos is None:
        return HeadLabels("trainable", head.bias, k00=k00)
    if pos.kind == "buckets":
        return HeadLabels("buckets", buckets=(pos.buckets, pos.max_distance), k00=k00)
    if pos.kind in ("bias", "reweight"):
        try:
            term = P.position_expr(spec, head)
        except (ValueError, TypeError, KeyError):
            return None
        return HeadLabels("fixed", pos.kind, term, k00=k00)
    return None  # rotary: the score depends on the signed offset


def _k00(spec: S.Spec, head: S.Head) -> Optional[sympy.Expr]:
    from ..lower import Unsupported, lower_head
    from .positions import _kernel_at_zero
    try:
        return _kernel_at_zero(lower_head(spec, head))
    except (Unsupported, ValueError, TypeError):
        return None


def _candidates(n: int, labels: list) -> list:
    """(i, a, b): mirror pairs (i − s, i + s) around the first rows, and the first pair of keys that share
    a T5 bucket from row 1."""
    from .positions import bucket_pair
    out = [(i, i - s, i + s) for i in range(2, min(n - 1, CENTRE_ROWS) + 1) for s in range(1, min(i - 1, n - i) + 1)]
    for lab in labels:
        if lab.source == "buckets":
            pair = bucket_pair(n, *lab.buckets)
            if pair:
                out.append((1, *pair))
    return out


def row_swap(spec: S.Spec) -> Optional[RowSwap]:
    """A one-layer row swap for dense heads at a concrete n, or None (none of the candidates works, or the
    heads are not all label-weighted)."""
    n = spec.tokens
    if spec.positional != "none" or not spec.heads or (isinstance(n, int) and n < 3):
        return None
    found = [head_labels(spec, h) for h in spec.heads]
    labels = [lab for lab in found if lab is not None]
    if len(labels) != len(found) or all(lab.source == "plain" for lab in labels):
        return None
    if not isinstance(n, int):
        return _symbolic_swap(n, labels)
    rows = sorted(set(range(1, min(n, BREAK_ROWS) + 1)) | set(range(max(1, n - 2), n + 1)))
    for i, a, b in _candidates(n, labels):
        if not all(lab.same(n, i, a, b) for lab in labels):
            continue
        for v in rows:
            if v in (a, b):
                continue
            for h, lab in enumerate(labels):
                if lab.differ(n, v, a, b):
                    return RowSwap(n, 1, i, (a, b), v, h, tuple(labels))
    return None


def _symbolic_swap(n: str, labels: list) -> Optional[RowSwap]:
    """Symbolic n: σ = (1 3) at row 2, told apart at row 4, for every n ≥ low (4, or 5 when only a
    `symmetric circulant` head tells 1 from 3: at n = 4 its circular distances from 4 are 1 and 1)."""
    for low in (4, 5):
        for h in range(len(labels)):
            cert = RowSwap(n, 1, 2, (1, 3), 4, h, tuple(labels), low)
            try:
                cert.check()
            except proof.CertificateRejected:
                continue
            return cert
    return None


def _describe(lab: HeadLabels) -> str:
    if lab.source == "trainable":
        return f"the `{lab.kind}` classes"
    if lab.source == "buckets":
        return "the T5 buckets"
    return "the fixed position weights"


# ---------------------------------------------------------------------------------------------
# Patterns: a budget of D layers when D + 1 are least by an unlabelled view witness

def pattern_witness(spec: S.Spec, layer_step: Optional[proof.Step]) -> "ViewWitness | LabelledViewWitness | None":
    """The PAT-LAYERS step's view witness at depth D when it applies to a budget M = D (D + 1 least): the
    unlabelled witness (heads without bias or position term), or a labelled one whose labels are trainable
    bias classes (every head position-blind or with `bias KIND`); no encoding."""
    if layer_step is None or layer_step.rule != "PAT-LAYERS" or not layer_step.proved:
        return None
    if not layer_step.facts.get("least") or spec.positional != "none":
        return None
    buckets = tuple(_bucket_label(spec, h) for h in spec.heads)  # T5's buckets: trainable classes (§16.5)
    fixed = tuple(_fixed_offset(spec, h) if h.position is not None and b is None else None
                  for h, b in zip(spec.heads, buckets))
    if any(h.position is not None and f is None and b is None for h, f, b in zip(spec.heads, fixed, buckets)):
        return None  # RoPE, a factor, or an offset function not shown injective on its classes
    cert = layer_step.certificate
    if isinstance(cert, ViewWitness):
        if any(h.bias for h in spec.heads) or any(buckets) or spec.layers != cert.diameter:
            return None
        return cert if layer_step.facts.get("layers") == cert.diameter + 1 else None
    witness = layer_step.evidence.get("view witness")
    d = layer_step.facts.get("diameter")
    if not isinstance(witness, dict) or not isinstance(d, int) or spec.layers != d or \
            layer_step.facts.get("layers") != d + 1 or not layer_step.premises:
        return None
    graphs = getattr(layer_step.premises[0].certificate, "graphs", None)
    if not graphs:
        return None
    perm = _permutation(witness, graphs[0].n)
    if perm is None or not isinstance(witness.get("position"), int):
        return None
    kinds = tuple(b if b is not None else h.bias if f is None else ("symmetric toeplitz" if f.even else "toeplitz")
                  for h, f, b in zip(spec.heads, fixed, buckets))
    labelled = LabelledViewWitness(tuple(graphs), kinds, d, witness["position"], perm,
                                   fixed if any(f is not None for f in fixed) else ())
    try:
        labelled.check()
    except proof.CertificateRejected:
        return None
    return labelled


def _bucket_label(spec: S.Spec, head: S.Head) -> Optional[str]:
    """The label kind of a T5 bucket head at a concrete n (`toeplitz` where every offset has its own bucket, else
    `buckets(B, D)`: a trainable bias per bucket, docs/theory.md §16.5), or None for any other head."""
    pos = head.position
    if pos is None or pos.kind != "buckets" or head.bias is not None or head.heads is not None or (head.differential or head.sink is not None) \
            or head.projection is not None or head.nystrom or not isinstance(spec.tokens, int):
        return None
    from .dense_bias import bucket_label_kind
    return bucket_label_kind(spec, head)


def _fixed_offset(spec: S.Spec, head: S.Head) -> Optional[OffsetClass]:
    """The OffsetClass of a fixed bias on a normalised head with k(0, 0) > 0 whose offset function is injective
    (or even and injective on |m|): its weights on an arc are a function of the arc's class, the row constant
    b(v, v) cancelling in the normalisation (the labelled view lemma, §14.11(a)), and a σ moving a labelled arc
    is not a symmetry (§16.1); else None."""
    from . import positions as P
    pos = head.position
    if pos is None or pos.kind != "bias" or head.bias is not None or not head.normalized or head.projection \
            is not None or head.nystrom or (head.differential or head.sink is not None) or head.heads is not None:
        return None
    info = P.analyse(spec, head)
    if info.kind not in ("injective", "symmetric") or info.h is None or _k00(spec, head) is None:
        return None
    try:
        term = P.position_expr(spec, head)
    except (ValueError, TypeError, KeyError):
        return None
    offset = OffsetClass(term, P.I, P.J, P.M, info.h, False, info.kind == "symmetric", spec.tokens, info.method,
                         info.bits)
    try:
        offset.check()
    except proof.CertificateRejected:
        return None
    return offset


def _permutation(witness: dict, n: int) -> Optional[tuple]:
    """σ in full from a witness's evidence: a swap, the permutation, or its moved points when all are listed."""
    if isinstance(witness.get("swap"), list) and len(witness["swap"]) == 2:
        a, b = witness["swap"]
        return tuple(b if k == a else a if k == b else k for k in range(1, n + 1))
    if isinstance(witness.get("permutation"), list) and len(witness["permutation"]) == n:
        return tuple(int(v) for v in witness["permutation"])
    moved = witness.get("permutation (moved points)")
    if isinstance(moved, dict) and "moved points" not in witness:
        images = list(range(1, n + 1))
        for k, v in moved.items():
            images[int(k) - 1] = int(v)
        return tuple(images)
    return None


@proof.rule("PAT-BUDGET-WITNESS", "A layer budget below a count a view witness shows least: NOT-UAP", CITE,
            statuses=(proof.PROVED,), certificates=(RowSwap, ViewWitness, LabelledViewWitness))
def budget_witness_step(spec: S.Spec, cert: "RowSwap | ViewWitness | LabelledViewWitness",
                        layer_step: Optional[proof.Step] = None) -> proof.Step:
    """The NOT-UAP step: a row swap (dense heads, one layer), or the PAT-LAYERS step's view witness at depth D."""
    if isinstance(cert, (ViewWitness, LabelledViewWitness)):
        return _pattern_claim(spec, cert, layer_step)
    i, (a, b), v = cert.position, cert.swap, cert.row
    lab = cert.heads[cert.breaker]
    who = "every head" if len(cert.heads) > 1 else "the head"
    where = claim("for ", Formula(sympy.GreaterThan(sympy.Symbol(str(cert.n), integer=True, positive=True), cert.low,
                                                    evaluate=False), f"{cert.n} ≥ {cert.low}"), ", ") \
        if cert.low is not None else ""
    statement = claim(f"`layers {spec.layers}`: ", where, f"{who} weighs keys {a} and {b} alike in row {i} (their "
                      f"offsets from {i} carry one label), so exchanging ", token(a), " and ", token(b), " permutes the "
                      f"terms of every attention sum at row {i}, and one layer gives X and σX, σ = ({a} {b}), the same "
                      f"output at position {i} for every parameter; σ is not in G: in row {v}, head {cert.breaker + 1} "
                      f"weighs keys {a} and {b} differently ({_describe(lab)}, at ", ZERO_SCORES, "), so some model is "
                      "not σ-equivariant; a G-equivariant target that tells X from σX at position "
                      f"{i} (docs/theory.md §11.2) is not approximated with one layer")
    evidence = {"budget": spec.layers, "route": "row swap",
                "view witness": {"position": i, "swap": [a, b], "depth": 1},
                "breaking row": {"row": v, "head": cert.breaker + 1}}
    if cert.low is not None:
        evidence["range"] = f"{cert.n} ≥ {cert.low}"
    return proof.conclude(statement, proof.PROVED, [], evidence, certificate=cert,
                          facts={"obstruction": "layer budget", "budget": spec.layers})


def _pattern_claim(spec: S.Spec, cert: "ViewWitness | LabelledViewWitness", layer_step: Optional[proof.Step]
                   ) -> proof.Step:
    # labelled only when some head carries labels (a family theorem's witness on unbiased heads has none)
    labelled = isinstance(cert, LabelledViewWitness) and (any(k is not None for k in cert.kinds)
                                                          or any(f is not None for f in cert.fixed))
    i, d = cert.position, (cert.depth if isinstance(cert, LabelledViewWitness) else cert.diameter)
    n = len(cert.permutation)
    moved = [k for k, img in enumerate(cert.permutation, start=1) if img != k]
    sigma = (f"σ = ({moved[0]} {moved[1]})" if len(moved) == 2 else "the witness σ")
    what = ("labelled neighbourhood (the arcs with their bias classes, or the classes of the offset of a fixed "
            "bias, docs/theory.md §11.10)" if labelled else "neighbourhood")
    statement = claim(f"`layers {spec.layers}` is the directed diameter D = {d}, below the least count D + 1: "
                      f"{sigma} is not a symmetry of the {'labelled ' if labelled else ''}pattern, and every "
                      f"position whose {what} it changes is at distance ≥ {d} from position {i}, so with {d} layers "
                      f"the output at {i} is the same for X and σX ({'labelled ' if labelled else ''}view lemma); a "
                      "G-equivariant target that tells them apart (docs/theory.md §11.2) is not approximated "
                      "within the budget")
    witness: dict = {"position": i, "depth": d}
    if len(moved) == 2:
        witness["swap"] = moved
    elif n <= 64:
        witness["permutation"] = list(cert.permutation)
    else:
        witness["moved points"] = len(moved)
    evidence = {"budget": spec.layers, "route": "labelled view witness" if labelled else "view witness",
                "view witness": witness}
    return proof.conclude(statement, proof.PROVED, [layer_step] if layer_step is not None else [], evidence,
                          certificate=cert, facts={"obstruction": "layer budget", "budget": spec.layers})


def budget_step(spec: S.Spec, structure) -> Optional[proof.Step]:
    """The NOT-UAP step for a `layers M` budget that a view witness defeats, or None: dense heads with
    `layers 1` (a row swap), or a pattern whose D + 1 layers are least by a view witness, with M = D."""
    if not isinstance(spec.layers, int) or spec.layers < 1 or spec.target not in ("equivariant", "receptive"):
        return None
    if any(isinstance(h.pattern, S.PatternSequence) for h in spec.heads):
        return None  # per-layer patterns: their depth is SEQ-DEPTH's (rules/layers.py)
    connected = any(s.rule == "PAT-CONNECTED" and s.proved for s in structure)
    dense = all(isinstance(h.pattern, S.Full) for h in spec.heads)
    if spec.target == "receptive" and not (dense or connected):
        return None  # the receptive class is the G-equivariant maps on a strongly connected family only (§14.1)
    if dense:
        if spec.layers != 1:
            return None
        swap = row_swap(spec)
        return None if swap is None else budget_witness_step(spec, swap)
    layer_step = next((s for s in structure if s.rule == "PAT-LAYERS"), None)
    cert = pattern_witness(spec, layer_step)
    return None if cert is None else budget_witness_step(spec, cert, layer_step)
