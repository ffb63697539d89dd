"""Target classes: causal maps and the receptive-field class of a pattern (docs/theory.md §14).

The paper's targets are the G-equivariant maps; a pattern that is not strongly connected (every
causal mask) is NOT-UAP for them. Such a family approximates exactly its *receptive-field class*:
maps whose i-th output depends only on the positions that reach i, agreeing on isomorphic receptive
fields. For a causal-class pattern whose union has every arc k − 1 → k this class is the class of
causal maps, F(X)_i = f_i(x_1, …, x_i). This module decides that class, its least number of
attention layers (the receptive diameter r, or r + 1 with a witness), and the verdict for it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

import sympy

from .. import proof
from .. import spec as S
from ..certificates import FarPair, Trusted
from ..layer_certificates import CausalBudgetSplit
from ..budget import BudgetExceeded, time_limit
from ..memo import exact_cache
from ..show import show_pattern
from ..claim import REASON, Claim, Formula, claim, eq, written
from .wording import X_J, ZERO_SCORES, _index, m_layer, token, value

CITE_TGT = proof.derived("Definition 3", "Theorem 1", text=(
    "receptive-field classes, the causal analogue of Definition 3 and Theorem 1, and the "
    "receptive view argument, docs/theory.md §14"))
TARGETS = ("equivariant", "causal", "receptive")


@dataclass(frozen=True)
class TargetVerdict(proof.Certificate):
    """The premises of a verdict for a target class. The check: UAP needs a proved TGT-LAYERS, TGT-PLAIN, SEQ-CAUSAL-INTERVALS or
    SEQ-CAUSAL-LAYERS step and every FFN and head step proved; NOT-UAP needs a proved TGT-NOT-CAUSAL or TGT-BUDGET step."""

    verdict: str
    premises: tuple
    kind = "target-verdict"

    def check(self) -> None:
        if not all(proof.is_step(s) for s in self.premises):
            raise proof.CertificateRejected("TargetVerdict: a premise is not a derivation step")
        proved = {s.rule for s in self.premises if s.proved}
        if self.verdict == "UAP":
            heads = [s for s in self.premises if s.rule == "FFN-DEF2" or s.rule.startswith(("TD-", "PE-"))]
            if not proved & {"TGT-LAYERS", "TGT-PLAIN", "SEQ-CAUSAL-LAYERS", "SEQ-CAUSAL-INTERVALS",
                                "SEQ-CAUSAL-FORM", "SEQ-CAUSAL-SINKS", "SEQ-CAUSAL-CHUNKS"} or \
                    not all(s.proved for s in heads):
                raise proof.CertificateRejected("TargetVerdict: UAP without proved layers and head premises")
        elif self.verdict == "NOT-UAP":
            if not proved & {"TGT-NOT-CAUSAL", "TGT-BUDGET"}:
                raise proof.CertificateRejected("TargetVerdict: NOT-UAP without a proved obstruction")
        else:
            raise proof.CertificateRejected(f"TargetVerdict: {self.verdict} is not a decided verdict")

    def to_json(self):
        return {"kind": self.kind, "verdict": self.verdict,
                "premises": [{"rule": s.rule, "status": s.status.value} for s in self.premises]}


PREFIX_SET = written("{x_1, …, x_i}", r"\{x_{1}, \ldots, x_{i}\}")
PREFIX_POSITIONS = written("{1, …, i}", r"\{1, \ldots, i\}")
F_I = written("F(X)_i", "F(X)_{i}")
CAUSAL_MAP = written("F(X)_i = f_i(x_1, …, x_i)", r"F(X)_{i} = f_{i}(x_{1}, \ldots, x_{i})")


def _trusted(why: str, **data) -> Trusted:
    return Trusted("graphs.receptive", why, data)


CLASS_CLAIM = {"causal": claim("causal targets (", written("F(X)_i", "F(X)_{i}"), " depends only on ",
                               written("x_1, …, x_i", r"x_{1}, \ldots, x_{i}"), ")"),
               "receptive": claim("receptive-field targets (", written("F(X)_i", "F(X)_{i}"),
                                  " depends only on the positions that reach i)")}
CLASS_TEXT = {"causal": "causal targets (F(X)_i depends only on x_1, …, x_i)",
              "receptive": "receptive-field targets (F(X)_i depends only on the positions that reach i)"}


@dataclass(frozen=True)
class TargetOutcome:
    """The verdict for a target class other than the G-equivariant maps (typed, for JSON and panels)."""
    target: str  # "causal" | "receptive"
    verdict: str  # "UAP" | "NOT-UAP" | "INCONCLUSIVE"
    layers: Union[int, sympy.Expr, None]
    least: bool
    steps: tuple = field(default=())  # derivation steps (premises of the verdict step)
    reason: str = ""
    head_steps: Optional[tuple] = None  # the head premises the class's verdict rests on (None: every TD step)
    # at symbolic n: the lengths the layer count is proved for ("n ≥ 6"; "" for every n), and the lengths below
    # that range, each decided by the derivation at that n (TargetLength), or None when they are not enumerable
    range: str = ""
    below: Optional[tuple] = ()
    # with params in the range's bound: the lengths below it in closed form (target_below.TargetPiece), or None
    pieces: Optional[tuple] = None
    # why the lengths below the range are not decided, when `below` and `pieces` are None ("" for positions or an
    # encoding, §14.7)
    below_open: str = ""

    def record(self) -> dict:
        lay = self.layers
        if lay is not None and not isinstance(lay, int):
            lay = sympy.sstr(lay)
        out = {"target": self.target, "verdict": self.verdict, "layers": lay, "least": self.least,
               "reason": self.reason or None}
        if self.verdict in ("UAP", "NOT-UAP") and self.range:
            out["range"] = self.range
            out["below_range"] = None if self.below is None else [r.to_json() for r in self.below]
            if self.pieces:
                out["below_pieces"] = [p.to_json() for p in self.pieces]
        return out

    def range_words(self) -> str:
        """" (for n ≥ 6; n = 1, 2: 1 layer; n = 3…5: 2 layers)" after a UAP count stated for a range; " (for n ≥ 2;
        n = 1: UAP with 1 layer)" after a NOT-UAP stated for a range; else ""."""
        if self.verdict not in ("UAP", "NOT-UAP") or not self.range:
            return ""
        if self.verdict == "NOT-UAP" and self.below is None:
            return f" (for {self.range}; the lengths below it are not covered)"
        if self.verdict == "NOT-UAP":
            return f" (for {self.range}" + "".join(f"; {w}" for w in lengths_words(self.below, verdicts=True)) + ")"
        if self.below is None and self.pieces:
            return f" (for {self.range}" + "".join(f"; {p.words()}" for p in self.pieces) + ")"
        if self.below is None:
            return f" (for {self.range}; the lengths below it are not decided " \
                   f"{self.below_open or 'with positions or an encoding'})"
        return f" (for {self.range}" + "".join(f"; {w}" for w in lengths_words(self.below)) + ")"  # () → " (for n ≥ 3)"

    def phrase(self) -> str:
        """"UAP for causal targets with 2 attention layers" (the panel's second half)."""
        if self.verdict == "UAP":
            from ..show import show_size
            lay = self.layers if isinstance(self.layers, int) else show_size(self.layers)
            least = "" if self.least else " (sufficient, not shown least)"
            return (f"UAP for {self.target} targets with {lay} attention layer{'' if self.layers == 1 else 's'}"
                    f"{least}{self.range_words()}")
        return f"{self.verdict} for {self.target} targets{self.range_words()}"


@dataclass(frozen=True)
class TargetLength:
    """The target-class verdict at one length n below the range of a count stated at symbolic n, by the
    derivation at that n: `verdict` None when not decided or not allowed (`why`)."""
    n: int
    verdict: Optional[str]
    layers: Optional[int] = None
    least: Optional[bool] = None
    allowed: bool = True
    why: str = ""
    symbol: str = "n"  # the file's name for the length (`tokens N`), in the words only

    def to_json(self) -> dict:
        return {"n": self.n, "verdict": self.verdict, "layers": self.layers, "least": self.least,
                "allowed": self.allowed, "why": self.why or None}

    def key(self, verdicts: bool = False) -> str:
        """"2 layers"; `verdicts`: "UAP with 2 layers" (beside a NOT-UAP range, where a bare count would read as
        part of the NOT-UAP)."""
        if not self.allowed:
            return "not a length the file allows"
        if self.verdict is None:
            return f"not decided ({self.why})"
        if self.verdict == "UAP":
            least = "" if self.least else " (sufficient, not shown least)"
            return f"{'UAP with ' if verdicts else ''}{self.layers} layer{'' if self.layers == 1 else 's'}{least}"
        return self.verdict


def lengths_words(records, verdicts: bool = False) -> list[str]:
    """["n = 1, 2: 1 layer", "n = 3…5: 2 layers"]: the lengths with the same outcome, in order of first length
    (`verdicts`: "n = 1: UAP with 1 layer")."""
    from .small_lengths import _runs
    groups: dict = {}
    for r in records:
        groups.setdefault(r.key(verdicts), []).append(r.n)
    n = records[0].symbol if records else "n"
    return [f"{n} = {_runs(ns)}: {key}" for key, ns in groups.items()]


# ---------------------------------------------------------------------------------------------
# Structural recognition (any n): the full causal mask and the causal window.

def _window_width(p: S.Pattern) -> Optional[int]:
    """w for a causal window: non-cyclic `offsets {−w, …, −1}` (0 optional), or `causal & window(w)`."""
    if isinstance(p, S.Offsets) and not p.cyclic and all(isinstance(o, int) for o in p.offsets):
        neg = {o for o in p.offsets if o != 0}
        if not neg or max(neg) > -1:
            return None
        w = -min(neg)
        return w if neg == set(range(-w, 0)) else None
    if isinstance(p, S.PatternIntersection) and len(p.parts) == 2:
        kinds = {type(q) for q in p.parts}
        if kinds == {S.Causal, S.Window}:
            win = next(q for q in p.parts if isinstance(q, S.Window))
            if not win.cyclic and ((isinstance(win.w, int) and win.w >= 1) or _plain_name(win.w)):
                return win.w
    return None


def _plain_name(term) -> bool:
    """A parameter name (not a signed one): a width or sink count `param w integer >= 1`."""
    return isinstance(term, str) and not term.startswith("-")


def _head_kind(p: S.Pattern) -> Optional[tuple[str, int, int]]:
    """("causal", 0, k) or ("window", w, k): a causal mask or causal window, with k attention sinks (k ≥ 0)."""
    sinks = 0
    if isinstance(p, S.PatternUnion) and len(p.parts) == 2 and any(isinstance(q, S.Sinks) for q in p.parts):
        if all(isinstance(q, S.Sinks) for q in p.parts):  # `sinks(1) + sinks(2)`: no causal part
            return None
        sink = next(q for q in p.parts if isinstance(q, S.Sinks))
        if not (isinstance(sink.k, int) and sink.k >= 1) and not _plain_name(sink.k):
            return None
        sinks, p = sink.k, next(q for q in p.parts if not isinstance(q, S.Sinks))
    if isinstance(p, S.Causal):
        return ("causal", 0, 0)  # sinks add nothing to the full causal mask
    w = _window_width(p)
    return None if w is None else ("window", w, sinks)


def _causal_kind(patterns) -> Optional[tuple[str, int, int]]:
    """The common kind of every head (the same causal mask or causal window, with the same sinks)."""
    kinds = {_head_kind(p) for p in patterns}
    if len(kinds) == 1 and None not in kinds:
        return kinds.pop()
    return None


def closed_from(kind: tuple) -> "int | sympy.Expr":
    """The least n from which the closed form of `kind` (radius and least layers) holds: 3 for the full causal
    mask (§14.6: two layers, one at n ≤ 2), max(k + w + 2, 2k) for a causal window with k sinks (§14.7)."""
    name, w, k = kind
    if name == "causal":
        return 3
    if isinstance(w, int) and isinstance(k, int):
        return max(k + w + 2, 2 * k)
    w_ = sympy.Symbol(w, integer=True, positive=True) if isinstance(w, str) else w
    k_ = sympy.Symbol(k, integer=True, positive=True) if isinstance(k, str) else k
    return sympy.Max(k_ + w_ + 2, 2 * k_)


def _causal_closed(kind: tuple[str, int, int], n) -> tuple:
    """(r, least layers, method) for the full causal mask, or a causal window of width w with k sinks.

    Window with k sinks (k = 0: none), n ≥ k + w + 2: r = ⌈(n − k − 1)/w⌉ ≥ 2 (from position k + 1 to n;
    the sinks are one hop from every later position), and no receptive witness exists (§14.7)."""
    name, w, k = kind
    symbolic = not isinstance(n, int)
    if isinstance(w, str) or isinstance(k, str):
        if not symbolic:
            return None  # a parameter width or sink count at a concrete n: left to the graph search
        w = sympy.Symbol(w, integer=True, positive=True) if isinstance(w, str) else w
        k = sympy.Symbol(k, integer=True, positive=True) if isinstance(k, str) else k
    if name == "window" and (symbolic or n >= k + w + 2):
        far = (n - k - 1) / sympy.sympify(w, strict=True)  # safe: strict (no text parsed)
        inner = sympy.sympify(k - 1, strict=True) / w  # safe: strict (no text parsed)
        # symbolic n: the case n ≥ max(k + w + 2, 2k), where the far pair (k + 1 → n) is the farthest
        r = sympy.ceiling(far) if symbolic else max(int(sympy.ceiling(far)), int(sympy.ceiling(inner)))
        sink = f" with {k} attention sink{'s' if k != 1 else ''}" if k else ""
        return r, r, (f"causal window of width {w}{sink}: the depth-r view of every position fixes the order of its "
                      "prefix (σ is increasing along the arcs into the known part, which then fix the rest, §14.7)")
    if name == "window" and k:
        return None  # a short window with sinks: left to the search
    # the full causal mask (a window with w ≥ n − 1 is the full mask)
    if isinstance(n, int) and n <= 2:
        return (1 if n == 2 else 0), 1, "n ≤ 2: one layer sees x_i and the set of the prefix, which fixes its order"
    return 1, 2, claim("full causal mask: one layer sees only the set ", PREFIX_SET, " (the order of a prefix of "
                       "length ≥ 2 before i is lost); two layers see the nested prefix sets and recover it (§14.6)")


# ---------------------------------------------------------------------------------------------
# Rules

def _desc(spec: S.Spec) -> str:
    return "; ".join(f"head {h.label or i + 1}: {show_pattern(h.pattern)}" for i, h in enumerate(spec.heads))


@proof.rule("TGT-RECEPTIVE", "The receptive-field class of the pattern (causal maps for a causal mask)", CITE_TGT, statuses=(proof.PROVED,),
            certificates=(Trusted,))
def receptive_step(spec: S.Spec, target: str, radius, evidence: dict, where: str = "") -> proof.Step:
    if target == "causal":
        what = claim("every arc goes from an earlier position to a later one and every position k − 1 "
                     "attends-reaches k, so the receptive field of i is ", PREFIX_POSITIONS, " and the family's "
                     "models are exactly causal: its target class is the causal maps ", CAUSAL_MAP)
    else:
        what = claim("the family's models are receptive: ", F_I, " depends only on the tokens at the positions that "
                     "reach i, and agrees at i and j whenever a head-preserving isomorphism of the receptive fields "
                     "carries i to j: that is its target class")
    return proof.conclude(claim(what, "; receptive diameter ", eq("r", radius), _for(where), ": fewer than r attention "
                                "layers leave some ", X_J, " out of the output at a position it reaches"), proof.PROVED,
                          evidence=dict(evidence, patterns=_desc(spec), target=target, radius=radius),
                          facts={"target": target, "radius": radius},
                          certificate=_trusted("the receptive fields of the pattern", target=target, radius=radius))


@dataclass(frozen=True)
class ReceptiveCount(proof.Certificate):
    """TGT-LAYERS at a concrete n by Theorem F68's exact test (docs/theory.md §14.5(f)). The check, on the
    closed in-neighbourhoods N_h(v) ∋ v of every head: x_j lies exactly r hops before i (`far`: r − 1 layers
    leave it out of the output at i); the count is r, or r + 1 with a receptive witness (σ, i) that is one
    by the definition (σ carries N_h(v) onto N_h(σ v) for every v within r − 1 hops of i, and not for some v
    that reaches i). That no witness exists when the count is r rests on BLISS (named under `trusted`)."""
    neighbourhoods: tuple  # per head, per position 0..n (0 unused): N_h(v)
    radius: int
    layers: int
    far: tuple  # (i, j): d(j → i) = r
    witness: Optional[tuple] = None  # (i, images of 1..n)
    kind = "receptive-count"

    def _distances_to(self, i: int) -> dict:
        n = len(self.neighbourhoods[0]) - 1
        union = [set().union(*(nb[v] for nb in self.neighbourhoods)) for v in range(n + 1)]
        dist, frontier = {i: 0}, [i]
        while frontier:
            nxt = []
            for a in frontier:
                for b in union[a]:
                    if b not in dist:
                        dist[b] = dist[a] + 1
                        nxt.append(b)
            frontier = nxt
        return dist

    def check(self) -> None:
        r = self.radius
        i, j = self.far
        if self._distances_to(i).get(j) != r:
            raise proof.CertificateRejected(f"ReceptiveCount: x_{j} is not exactly {r} hops before {i}")
        if self.layers != (r + 1 if self.witness else max(r, 1)):
            raise proof.CertificateRejected("ReceptiveCount: the count is not r (no witness) or r + 1 (a witness)")
        if self.witness:
            self._check_witness(*self.witness)

    def _check_witness(self, i: int, images: tuple) -> None:
        n = len(self.neighbourhoods[0]) - 1
        if sorted(images) != list(range(1, n + 1)):
            raise proof.CertificateRejected("ReceptiveCount: the witness is not a permutation of 1..n")
        sigma = (0, *images)

        def keeps(v: int) -> bool:
            return all(frozenset(sigma[u] for u in nb[v]) == nb[sigma[v]] for nb in self.neighbourhoods)
        dist = self._distances_to(i)
        if not all(keeps(v) for v, d in dist.items() if d <= self.radius - 1):
            raise proof.CertificateRejected("ReceptiveCount: σ does not keep a neighbourhood within r − 1 hops")
        if all(keeps(v) for v in dist):
            raise proof.CertificateRejected("ReceptiveCount: σ is an isomorphism of the receptive fields")

    def to_json(self):
        out: dict = {"kind": self.kind, "radius": self.radius, "layers": self.layers,
                     "far pair": {"i": self.far[0], "j": self.far[1]}}
        if self.witness:
            out["witness"] = {"position": self.witness[0], "permutation": list(self.witness[1])}
        else:
            out["trusted"] = "that no receptive witness exists at depth r: BLISS generators and canonical forms"
        return out


@proof.rule("TGT-LAYERS", "Least attention layers for the receptive-field class: r or r + 1", CITE_TGT, statuses=(proof.PROVED,),
            certificates=(Trusted, ReceptiveCount))
def layers_step(receptive: proof.Step, target: str, radius, layers, least: bool, method: "str | Claim",
                witness: Optional[dict] = None, positional: Optional[proof.Step] = None,
                start: "int | sympy.Expr | None" = None, count: Optional[ReceptiveCount] = None,
                name: str = "n") -> proof.Step:
    """`start`: at symbolic n, the least n the closed form holds from (None: every n the file allows);
    `count`: the certificate of Theorem F68's exact test at a concrete n (else the step is trusted); `name`: the
    file's name for the length."""
    lay = layers if isinstance(layers, int) else value(layers)
    where = "" if start is None else _range_text(start, name)
    if least and layers == radius:
        statement = claim(lay, f" attention layer{'s' if layers != 1 else ''} (= r) suffice for {target} targets and "
                          "are the least", _for(where))
    elif least:
        statement = claim(lay, f" attention layers are needed and suffice for {target} targets", _for(where),
                          ": with ", eq("r", radius), " layers some position cannot tell two inputs that the class "
                          "separates")
    else:
        statement = claim(lay, f" attention layers suffice for {target} targets", _for(where), " (r + 1, the receptive "
                          "view argument); ", eq("r", radius), " are necessary, and whether they suffice is not "
                          "decided: sufficient, not shown least")
    ev = {"radius": radius, "layers": layers, "least": least, "method": str(method)}
    if start is not None:
        ev["range"] = where
    if witness:
        ev["receptive witness"] = witness
    premises = [receptive] if positional is None else [receptive, positional]
    return proof.conclude(claim(statement, " (", method, ")"), proof.PROVED, premises, ev,
                          facts={"layers": layers, "radius": radius, "least": least,
                                 **({} if start is None else {"from": start})},
                          certificate=count if count is not None else _trusted(str(method), layers=layers,
                                                                               radius=radius))


def _range_text(start, name: str = "n") -> str:
    """"n ≥ 6" (a bound with params: "n ≥ max(k + w + 2, 2·k)"); `name`: the file's name for the length."""
    if isinstance(start, int):
        return f"{name} ≥ {start}"
    from ..show import show_size
    return f"{name} ≥ {show_size(start)}"


def _for(where: str):
    """", for n ≥ 6" as a claim part (a formula), or nothing."""
    if not where:
        return ""
    return claim(", for ", written(where, where.replace("≥", r"\geq").replace("·", r"\cdot ")))


@proof.rule("TGT-UNDECIDED", "Target-class analysis undecided", CITE_TGT, statuses=(proof.UNDECIDED,))
def undecided_step(spec: S.Spec, target: str, reason: str) -> proof.Step:
    return proof.conclude(f"the analysis for {target} targets is undecided: {reason}", proof.UNDECIDED,
                          evidence={"patterns": _desc(spec), "target": target, "reason": reason})


@proof.rule("TGT-NOT-CAUSAL", "A family that cannot represent every causal map: NOT-UAP for causal targets", CITE_TGT, statuses=(proof.PROVED,),
            certificates=(Trusted, FarPair, CausalBudgetSplit))
def not_causal_step(spec: S.Spec, why: "str | Claim", evidence: dict, start: "int | sympy.Expr | None" = None,
                    far: "FarPair | CausalBudgetSplit | None" = None) -> proof.Step:
    """`start`: at symbolic n, the least n the conclusion holds from (the group route, docs/theory.md §14.10; the
    budget split of per-layer finite widths, §21.10); `far`: the budget route's pair, x_j (j < i) more than
    `layers M` hops from position i (§14.9), or the split's certificate (Theorem F159)."""
    name = str(spec.tokens)
    where = "" if start is None else f" (for {_range_text(start, name)})"
    return proof.conclude(claim(f"NOT-UAP for causal targets{where}: ", why), proof.PROVED,
                          evidence=dict(evidence, patterns=_desc(spec), **({} if start is None else
                                                                           {"range": _range_text(start, name)})),
                          facts={} if start is None else {"from": start},
                          certificate=far if far is not None else _trusted(str(why)))


#: the one-layer collision is searched up to this n (every row and its keys' labels)
COLLISION_MAX_N = 2048


def _row_class(head: S.Head, n: int, i: int, u: int):
    """The label of key u in row i of a dense head whose positions enter only through trainable classes: one label
    without positions, the bias kind's class, T5's bucket of the offset; None for anything else."""
    from ..groups import bias_class
    from . import positions as P
    if head.position is None:
        return "plain" if head.bias is None else (None if head.bias == "free" else bias_class(head.bias, n, i, u))
    if head.bias is None and head.position.kind == "buckets":
        return P.t5_bucket(u - i, head.position.buckets, head.position.max_distance)
    return None


def causal_one_layer_collision(spec: S.Spec) -> Optional[TargetOutcome]:
    """`target causal`, `layers 1`, dense heads whose positions enter only through trainable classes (or not at all),
    no encoding, at an integer n (docs/theory.md §14.9, the one-layer collision): keys l < i and l′ ∉ {i, l} of a row i
    with the same label in every head. One layer's output at i reads x_i and the labelled keys {(label(i, u), x_u)},
    which X and X with x_l, x_l′ exchanged share, while the causal target F(X)_i = x_l tells them apart: NOT-UAP for
    causal targets. None when that is not the case or no row has such keys."""
    n = spec.tokens
    if spec.layers != 1 or not isinstance(n, int) or isinstance(n, bool) or not 3 <= n <= COLLISION_MAX_N \
            or spec.positional != "none":
        return None
    if any(not isinstance(h.pattern, S.Full) or h.projection is not None or h.nystrom is not None
           or (h.position is None and h.bias == "free") for h in spec.heads):
        return None
    if any(_row_class(h, n, 1, 1) is None for h in spec.heads):
        return None
    for i in range(n, 1, -1):
        first: dict = {}
        for u in range(1, n + 1):
            if u == i:
                continue
            key = tuple(_row_class(h, n, i, u) for h in spec.heads)
            first.setdefault(key, []).append(u)
        for keys in first.values():
            if len(keys) >= 2 and keys[0] < i:
                l, l2 = keys[0], keys[1]
                why = (f"one layer reads at position {i} the token x_{i} and the keys with their labels, and keys {l} and "
                       f"{l2} carry the same label in every head, so X and X with x_{l}, x_{l2} exchanged give the same "
                       f"output at {i} for every parameter, while the causal target F(X)_{i} = x_{l} ({l} < {i}) tells "
                       "them apart")
                step = not_causal_step(spec, why, {"route": "one layer collision", "collision": [i, l, l2],
                                                   "target": f"F(X)_{i} = x_{l}"})
                return TargetOutcome("causal", "NOT-UAP", None, False, (step,), step.claim.split(": ", 1)[1])
    return None


#: how many earlier positions j the budget route tries as the far token (a BFS from each)
CAUSAL_BUDGET_SOURCES = 64


def causal_budget(spec: S.Spec, obstruction: Optional[proof.Step]) -> Optional[TargetOutcome]:
    """`target causal` on a strongly connected family whose `layers M` budget is below its directed diameter
    (PAT-BUDGET's far pair, at an integer n): when some x_j with j < i needs more than M hops to reach position i,
    every model's output at i ignores x_j, whatever the positions add (an encoding X + E, position terms in the
    weights: they change values, not the arcs), while the causal target F(X)_i = x_j depends on it: NOT-UAP for
    causal targets (docs/theory.md §14.9, the budget route). None when PAT-BUDGET has no far pair or no earlier
    token among the first CAUSAL_BUDGET_SOURCES is out of reach."""
    from ..certificates import _bfs_from
    cert = obstruction.certificate if obstruction is not None else None
    if obstruction is None or obstruction.rule != "PAT-BUDGET" or not isinstance(cert, FarPair) \
            or not _has_only_patterns(spec) or not isinstance(spec.layers, int):
        return None
    graphs, budget = cert.graphs, cert.budget
    n = graphs[0].n
    for j in range(1, min(n, CAUSAL_BUDGET_SOURCES) + 1):
        dist = _bfs_from(graphs, n, [j])
        far = [i for i in range(n, j, -1) if int(dist[i]) < 0 or int(dist[i]) > budget]
        if not far:
            continue
        i = far[0]
        d = int(dist[i])
        hops = f"needs {d} hops to reach position {i}" if d >= 0 else f"never reaches position {i}"
        why = (f"x_{j} {hops} although {j} < {i}, so with {budget} layer{'s' if budget != 1 else ''} every model's "
               f"output at {i} ignores x_{j} (positions change the weights, not the arcs), while the causal target "
               f"F(X)_{i} = x_{j} depends on it")
        step = not_causal_step(spec, why, {"witness": {"i": i, "j": j, "distance from j to i": d if d >= 0 else None,
                                                       "budget": budget, "target": f"F(X)_{i} = x_{j}"}},
                               far=FarPair(graphs, i, j, budget, d if d >= 0 else None))
        return TargetOutcome("causal", "NOT-UAP", None, False, (step,), step.claim.split(": ", 1)[1])
    return None


@proof.rule("TGT-BUDGET", "A layer budget below the least layers of the receptive-field class", CITE_TGT, statuses=(proof.PROVED, proof.UNDECIDED),
            certificates=(Trusted,))
def budget_step(spec: S.Spec, target: str, radius, layers, least: bool, proved: bool, evidence: dict,
                note: str = "") -> proof.Step:
    if note:
        return proof.conclude(f"`layers {spec.layers}` against {note}; not compared", proof.UNDECIDED,
                              evidence=evidence)
    if proved:
        why = (f"`layers {spec.layers}` is below the receptive diameter r = {radius}: some x_j reaches position i "
               f"only in more hops, so the output at i ignores x_j, while the target F(X)_i = Σ_(l reaches i) x_l "
               f"of the class depends on it" if spec.layers < radius else
               f"`layers {spec.layers}` is below the least {layers} layers: the receptive witness shows that "
               f"{spec.layers} layer{'s' if spec.layers != 1 else ''} cannot tell apart two inputs the class "
               "separates")
        return proof.conclude(f"NOT-UAP for {target} targets: {why}", proof.PROVED, evidence=evidence,
                              certificate=_trusted(why, budget=spec.layers, radius=radius))
    return proof.conclude(f"`layers {spec.layers}` reaches every position (r = {radius}) but is below the {layers} "
                          "layers shown sufficient; whether it suffices is not decided", proof.UNDECIDED,
                          evidence=evidence)


@proof.rule("TGT-VERDICT", "Theorem 1 for the receptive-field class (causal form)", CITE_TGT, statuses=(proof.PROVED, proof.UNDECIDED),
            certificates=(TargetVerdict,))
def verdict_step(target: str, verdict: str, claim: str, premises: list, ranged: Optional[dict] = None) -> proof.Step:
    """`ranged`: the outcome's range and lengths below it (TargetOutcome.record()), for a count proved for a range."""
    status = proof.PROVED if verdict in ("UAP", "NOT-UAP") else proof.UNDECIDED
    cert = TargetVerdict(verdict, tuple(premises)) if status is proof.PROVED else None
    ev = {"target": target, "verdict": verdict}
    if ranged and "range" in ranged:
        ev.update({"range": ranged["range"], "below_range": ranged["below_range"]})
    return proof.conclude(claim, status, premises, ev,
                          facts={"verdict": proof.Verdict(verdict), "target": target}, certificate=cert)


# ---------------------------------------------------------------------------------------------
# Positions in the weights of a causal family (docs/theory.md §14.11)

CITE_POS_TGT = proof.derived("Definition 3", "Theorem 1", text="positions in the weights of a causal family — the linear regime W_Q = W_K = 0, "
                "the labelled view lemma and containment of the position-blind family, docs/theory.md §14.11")


@dataclass(frozen=True)
class HeadRowLabels:
    """One head's labels on a causal row, as the certificate records them."""
    source: str  # "plain" | "trainable" | "fixed" | "rotary"
    detail: str  # the bias kind, "buckets(B, D)", the formula, or "rotary"
    injective: Optional[bool]
    pattern: str  # "causal" for the full causal mask, else the pattern as written
    buckets: Optional[tuple[int, int]] = None  # (B, D) for T5 buckets
    k00: Optional[bool] = None  # k(0, 0) > 0 (the linear regime needs it)
    rotary_softmax: Optional[bool] = None  # TD-ROTARY proved (softmax kernel, analytic)
    # a fixed term on a normalised softmax head, injective on its classes (Lemma V^ρ, §14.11(f)): the classes'
    # kind (`toeplitz` or `symmetric toeplitz`), else None
    fixed_classes: Optional[str] = None


@dataclass(frozen=True)
class CausalPositions(proof.Certificate):
    """Why the positions in the heads' weights give the layer count of TGT-POSITIONS (§14.11).

    route "one layer": every head is the full causal mask and head `separating` labels the keys of every
    causal row injectively (a bias kind with singleton classes on causal rows, T5 buckets with every
    offset in its own bucket, a fixed offset bias injective on m ≤ 0 with k(0, 0) > 0, or RoPE with a
    proved TD-ROTARY step). route "collision": every head is the full causal mask and keys l < l′ < i
    of row i carry equal labels in every head (re-computed here), so one layer is not enough. route
    "contains plain": every head is position-blind or has a trainable bias (0 is in every class), so
    the family contains the position-blind one and its layer count suffices. route "labelled views": the
    labelled receptive search at a concrete n, every head position-blind, with a trainable bias of the
    offset (Lemma V^λ) or with a fixed term on a normalised softmax head injective on its classes
    (`fixed_classes`, Lemma V^ρ)."""
    route: str
    n: object  # int, or the name of a symbolic n
    heads: tuple
    separating: Optional[int] = None
    collision: Optional[tuple] = None  # (i, l, l′)
    kind = "causal-positions"

    def check(self) -> None:
        heads = self.heads
        if not heads or not all(isinstance(h, HeadRowLabels) for h in heads):
            raise proof.CertificateRejected("CausalPositions: no head labels")
        if self.route in ("contains plain", "labelled views"):
            self._check_trainable()
            return
        if not all(h.pattern == "causal" for h in heads):
            raise proof.CertificateRejected("CausalPositions: a head is not the full causal mask")
        if self.route == "one layer":
            self._check_one_layer()
        elif self.route == "collision":
            self._check_collision()
        else:
            raise proof.CertificateRejected(f"CausalPositions: unknown route {self.route}")

    def _check_trainable(self) -> None:
        fixed_ok = self.route == "labelled views"
        if not all(h.source in ("plain", "trainable") or (
                fixed_ok and h.source == "fixed" and h.fixed_classes in ("toeplitz", "symmetric toeplitz"))
                   for h in self.heads):
            raise proof.CertificateRejected("CausalPositions: a fixed position term is not a trainable class (labelled "
                                            "views take one on a normalised softmax head, Lemma V^ρ)")
        if self.route == "labelled views" and (not isinstance(self.n, int) or
                                               any(h.detail == "free" for h in self.heads)):
            raise proof.CertificateRejected("CausalPositions: labelled views need a concrete n and bias "
                                            "classes of the offset")

    def _check_one_layer(self) -> None:
        from . import positions as P
        if isinstance(self.n, int) and self.n < 2:
            raise proof.CertificateRejected("CausalPositions: one layer from the labels needs n ≥ 2 (r = 1, §14.11 "
                                            "(c), (d))")
        if self.separating is None or not 0 <= self.separating < len(self.heads):
            raise proof.CertificateRejected("CausalPositions: no separating head")
        h = self.heads[self.separating]
        if h.source == "rotary":
            ok = h.rotary_softmax is True
        elif h.source == "trainable" and h.buckets is not None:
            ok = h.k00 is True and isinstance(self.n, int) and _buckets_distinct(self.n, *h.buckets)
        elif h.source == "trainable":
            ok = h.k00 is True and h.detail in P.ROW_INJECTIVE_KINDS
        else:
            ok = h.source == "fixed" and h.k00 is True and h.injective is True
        if not ok:
            raise proof.CertificateRejected("CausalPositions: the separating head does not label causal rows "
                                            "injectively")

    def _check_collision(self) -> None:
        if not self.collision:
            raise proof.CertificateRejected("CausalPositions: no collision")
        i, l, l2 = self.collision
        if not isinstance(self.n, int):
            # symbolic n: row n, keys 1 and 2 (position-blind heads only) or 1 and n − 1 (symmetric circulant)
            kinds = {h.detail for h in self.heads if h.source != "plain"}
            if any(h.source not in ("plain", "trainable") for h in self.heads) or not kinds <= {"symmetric circulant"}:
                raise proof.CertificateRejected("CausalPositions: a symbolic collision for these heads is not known")
            expected = (str(self.n), "1", f"{self.n} - 1") if kinds else (str(self.n), "1", "2")
            if tuple(str(x) for x in self.collision) != expected:
                raise proof.CertificateRejected("CausalPositions: not the known symbolic collision")
            return
        if not (isinstance(i, int) and isinstance(l, int) and isinstance(l2, int) and 1 <= l < l2 < i <= self.n):
            raise proof.CertificateRejected("CausalPositions: the collision is not two keys of a causal row")
        if not all(_same_label(h, self.n, i, l, l2) for h in self.heads):
            raise proof.CertificateRejected("CausalPositions: the two keys are told apart by a head")

    def to_json(self):
        return {"kind": self.kind, "route": self.route, "n": self.n, "separating": self.separating,
                "collision": list(self.collision) if self.collision else None,
                "heads": [{"source": h.source, "detail": h.detail, "injective": h.injective, "pattern": h.pattern,
                           "buckets": list(h.buckets) if h.buckets else None, "k00": h.k00,
                           "rotary_softmax": h.rotary_softmax,
                           **({"fixed classes": h.fixed_classes} if h.fixed_classes else {})} for h in self.heads]}


def _same_label(h: "HeadRowLabels", n: int, i: int, l: int, l2: int) -> bool:
    """Keys l and l2 of row i carry the same label in head h (recomputed; fixed and rotary heads never do here)."""
    from . import positions as P
    if h.source == "plain":
        return True
    if h.source == "trainable" and h.buckets is not None:
        return P.t5_bucket(l - i, *h.buckets) == P.t5_bucket(l2 - i, *h.buckets)
    if h.source == "trainable" and h.detail in (*P.ROW_INJECTIVE_KINDS, "symmetric circulant"):
        return P.bias_class(h.detail, n, i, l) == P.bias_class(h.detail, n, i, l2)
    return False


def _buckets_distinct(n: int, buckets: int, max_distance: int) -> bool:
    from . import positions as P
    if n > P.BUCKET_ROW_MAX_N:
        return False
    seen = {P.t5_bucket(-d, buckets, max_distance) for d in range(1, n)}
    return len(seen) == n - 1


@proof.rule("TGT-POSITIONS", "Positions in the weights of a causal family: how many layers they save", CITE_POS_TGT,
            statuses=(proof.PROVED, proof.UNDECIDED), certificates=(CausalPositions,))
def positions_step(spec: S.Spec, statement: "str | Claim", cert: Optional[CausalPositions], evidence: dict,
                   premises: tuple = ()) -> proof.Step:
    status = proof.PROVED if cert is not None else proof.UNDECIDED
    return proof.conclude(statement, status, list(premises), dict(evidence, patterns=_desc(spec)), certificate=cert)


def _has_positions(spec: S.Spec) -> bool:
    return any(h.position is not None or h.bias is not None for h in spec.heads)


def _position_blind(spec: S.Spec) -> S.Spec:
    from dataclasses import replace
    return replace(spec, heads=tuple(replace(h, bias=None, position=None) for h in spec.heads))


def _label_records(spec: S.Spec, tds: list):
    from . import positions as P
    labels, records = [], []
    for k, h in enumerate(spec.heads):
        lab = P.causal_row_labels(spec, h)
        labels.append(lab)
        buckets = (h.position.buckets, h.position.max_distance) if (h.position is not None and
                                                                     h.position.kind == "buckets") else None
        k00 = P.kernel_at_zero_positive(spec, h) if lab.source in ("fixed", "trainable") else None
        td = tds[k] if k < len(tds) else None
        if td is not None and td.rule == "HEADS-SHARED" and td.proved:
            # `heads H kv G`: the family contains the one rotary head (every other query head's output projection
            # zero), so its TD-ROTARY premise is the head's (§14.11, containment)
            td = next((p for p in td.premises if p.rule == "TD-ROTARY"), td)
        rot = (td is not None and td.rule == "TD-ROTARY" and td.proved) if lab.source == "rotary" else None
        pattern = "causal" if isinstance(h.pattern, S.Causal) else show_pattern(h.pattern)
        records.append(HeadRowLabels(lab.source, lab.detail, lab.injective, pattern, buckets, k00, rot))
    return labels, tuple(records)


def _labelled_causal_search(spec: S.Spec, fixed_ok: bool = False):
    """The exact labelled receptive search (graphs.receptive.causal_exact with arc classes) for a concrete n
    whose heads are position-blind or carry a trainable bias of the offset (not `free`) — or, with
    `fixed_ok`, a fixed term on a normalised softmax head injective on its classes (Lemma V^ρ) — or None."""
    from ..graphs import GraphTooLarge, build_graph
    from ..graphs.receptive import TooLarge, causal_exact, receptive_fields
    from ..graphs.views import ArcClasses, offset_classes
    from . import positions as P
    n = spec.tokens
    if not isinstance(n, int) or spec.positional != "none":
        return None
    classes = []
    for h in spec.heads:
        if h.position is None and h.bias is None:
            classes.append(None)
        elif h.position is None and h.bias != "free":
            classes.append(offset_classes(h.bias, n))
        elif h.bias is None and h.position.kind == "buckets":
            classes.append(ArcClasses(tuple(P.t5_bucket(m, h.position.buckets, h.position.max_distance)
                                            for m in range(-(n - 1), n))))
        elif fixed_ok and P.fixed_softmax_classes(spec, h) is not None:
            classes.append(offset_classes(P.fixed_softmax_classes(spec, h), n))
        else:
            return None
    try:
        with time_limit("the labelled receptive views", 20.0):
            graphs = [build_graph(h.pattern, n, {}) for h in spec.heads]
            rec = receptive_fields(graphs)
            if not (rec.causal_class and rec.prefix_fields):
                return None
            return causal_exact(graphs, rec, classes=classes)
    except (GraphTooLarge, TooLarge, ValueError, KeyError, TypeError, BudgetExceeded):
        return None


def causal_positions(spec: S.Spec, info: dict, tds: list):
    """(step, layers, least, method) for a causal-class family whose heads carry positions (§14.11);
    layers is None when the count is undecided (the step is then undecided)."""
    from . import positions as P
    labels, records = _label_records(spec, tds)
    n = spec.tokens
    evidence = {"heads": [f"{lab.source}: {lab.detail} — {lab.reason}" for lab in labels]}
    all_causal = all(isinstance(h.pattern, S.Causal) for h in spec.heads)
    blind_ok = all(lab.source in ("plain", "trainable") for lab in labels)
    # §14.11 (c), (d) hold for n ≥ 2; at n = 2 position-blind or trainable heads keep the position-blind count
    # (1 layer, least, by containment (e)), so the route is taken there for fixed terms and RoPE only
    if all_causal and not (isinstance(n, int) and (n <= 1 or (n == 2 and blind_ok))):
        for k, (lab, rec) in enumerate(zip(labels, records)):
            if lab.injective is not True:
                continue
            usable = rec.rotary_softmax is True if lab.source == "rotary" else rec.k00 is True
            if not usable:
                continue
            cert = CausalPositions("one layer", n, records, separating=k)
            how = (claim("the first-order term of the softmax in a small query scale separates rearranged prefixes, "
                         "since cos(m − φ) is injective on the offsets") if lab.source == "rotary" else
                   claim("at ", ZERO_SCORES, " row i is ", written("x_i + c·Σ_l β_il x_l",
                                                                    r"x_{i} + c \sum_{l} \beta_{il} x_{l}"),
                         " with fixed weights ", written("β_il > 0", r"\beta_{il} > 0"), " that differ from key to "
                         "key, so the row's coefficients name the position of every token of the prefix"))
            statement = claim(f"head {k + 1} ({lab.detail}) labels the keys of every causal row differently (",
                              lab.reason_claim, "): ", how, "; so one attention layer separates every two inputs with "
                              "different prefixes, and it is the least (one layer is needed for ", X_J,
                              " to reach a later position)")
            step = positions_step(spec, statement, cert, dict(evidence, route="one layer", separating=k + 1))
            return step, 1, True, "positions in the weights: one layer sees the order of the prefix (§14.11)"
        collision = None
        if isinstance(n, int):
            pair = P.causal_row_collision(n, labels)
            collision = (n, pair[0], pair[1]) if pair else None
        elif all(lab.source == "plain" or lab.detail == "symmetric circulant" for lab in labels) and blind_ok:
            collision = ((n, "1", f"{n} - 1") if any(lab.detail == "symmetric circulant" for lab in labels)
                         else (n, "1", "2"))
        if collision is not None and blind_ok:
            i, l, l2 = collision
            cert = CausalPositions("collision", n, records, collision=collision)
            statement = claim(f"keys {l} and {l2} of row {i} carry the same label in every head, so one layer gives "
                              f"the same output at {i} for X and for X with ", token(l), ", ", token(l2), " exchanged, "
                              "for every parameter, while the causal target ",
                              Formula(sympy.Eq(sympy.IndexedBase("F(X)")[_index(i)], sympy.IndexedBase("x")[_index(l)],
                                               evaluate=False), f"F(X)_{i} = x_{l}"),
                              " tells them apart: one layer is not enough; every head is position-blind "
                              "or has a trainable bias (0 in each class), so the position-blind family's 2 layers "
                              "suffice")
            step = positions_step(spec, statement, cert, dict(evidence, route="collision", witness={
                "position": i, "swap": [l, l2], "why": "equal labels in every head: the row's weighted sum is the "
                                                       "same for both inputs"}))
            return step, 2, True, "positions in the weights: a row's labels collide, so 2 layers (§14.11)"
    if blind_ok:
        r = info["radius"]
        least = info["least"] and (info["layers"] == r or (isinstance(r, int) and info["layers"] == max(r, 1))
                                   or all(lab.source == "plain" for lab in labels))
        if not least or info["layers"] != r:
            labelled = _labelled_causal_search(spec)
            if labelled is not None and labelled.least:
                return _labelled_views_step(spec, "every head is position-blind or has a trainable bias of the "
                                            "offset", " (bias classes on the arcs, §11.10)", labelled, records,
                                            evidence)
        cert = CausalPositions("contains plain", n, records)
        lay = info["layers"] if isinstance(info["layers"], int) else sympy.sstr(info["layers"])
        statement = (f"every head is position-blind or has a trainable bias, and a zero bias is in every class: the "
                 f"family contains the position-blind one, whose {lay} layers suffice (Theorem 2′ on the larger "
                 "parameter set); " + ("they are the least (r layers are always necessary)" if least else
                                       "whether the labels save a layer is not decided"))
        step = positions_step(spec, statement, cert, dict(evidence, route="contains plain"))
        method = info["method"] if least else info["method"] + "; the bias may save a layer (not decided)"
        return step, info["layers"], least, method
    fixed_step = _fixed_labelled_views(spec, labels, records, evidence)
    if fixed_step is not None:
        return fixed_step
    statement = ("positions in the weights of a causal family are decided when every head is the full causal mask (one "
             "layer when a head labels the keys of every causal row differently), or when every head is "
             "position-blind or has a trainable bias; here the r layers that are always necessary are not shown "
             "sufficient for fixed position weights (§14.11)")
    step = positions_step(spec, statement, None, dict(evidence, route="undecided"))
    return step, None, False, ""


def _fixed_labelled_views(spec: S.Spec, labels, records, evidence):
    """Fixed position terms on normalised softmax heads (Lemma V^ρ, docs/theory.md §14.11(f)): the labelled
    receptive search at a concrete n decides the count, the classes being the offset (or |m| for an even
    term); (step, layers, True, method), or None."""
    from dataclasses import replace
    from . import positions as P
    if not isinstance(spec.tokens, int) or not any(lab.source == "fixed" for lab in labels):
        return None
    kinds = [P.fixed_softmax_classes(spec, h) if lab.source == "fixed" else None
             for h, lab in zip(spec.heads, labels)]
    if any(lab.source == "rotary" or (lab.source == "fixed" and kind is None) for lab, kind in zip(labels, kinds)):
        return None
    labelled = _labelled_causal_search(spec, fixed_ok=True)
    if labelled is None or not labelled.least:
        return None
    records = tuple(replace(rec, fixed_classes=kind) if kind else rec for rec, kind in zip(records, kinds))
    return _labelled_views_step(spec, "every fixed position term sits on a normalised softmax head and gives "
                                "different weights to different classes of the offset, so each layer separates "
                                "different labelled views (Lemma V^ρ, docs/theory.md §14.11(f))", "", labelled,
                                records, evidence)


def _labelled_views_step(spec: S.Spec, why: str, views: str, labelled, records, evidence):
    """(step, layers, True, method) of the route `labelled views`, decided by the labelled receptive search at a
    concrete n: `why` says why labelled views decide the count (trainable classes, or Lemma V^ρ for fixed terms),
    `views` qualifies the views; the statement's tail, the evidence with the search's witness and the step are
    shared by both routes."""
    cert = CausalPositions("labelled views", spec.tokens, records)
    statement = (f"{why}; the labelled receptive views{views} decide {labelled.layers} attention "
                 f"layer{'s' if labelled.layers != 1 else ''}, the least ({labelled.method})")
    ev = dict(evidence, route="labelled views")
    if labelled.witness:
        ev["witness"] = labelled.witness
    step = positions_step(spec, statement, cert, ev)
    return step, labelled.layers, True, labelled.method


# ---------------------------------------------------------------------------------------------
# The analysis

def _has_only_patterns(spec: S.Spec) -> bool:
    return all(h.projection is None for h in spec.heads)


def _window_range(kind) -> str:
    """max(k + w + 2, 2k): the sizes from which the causal-window closed form holds (§14.7)."""
    _, w, k = kind
    if isinstance(w, int) and isinstance(k, int):
        return str(max(k + w + 2, 2 * k))
    if k == 0:
        return f"{w} + 2"
    return f"max({k} + {w} + 2, 2·{k})"


def _structure(spec: S.Spec):
    """(target, r, far, least layers, exact?, method, witness, missing) or an undecided reason (str)."""
    return _structure_of(tuple(h.pattern for h in spec.heads), spec.tokens, spec.positional)


@exact_cache()  # a function of its arguments alone: the text panel's suggestion search asks again per edit
def _structure_of(patterns: tuple, n, positional):
    kind = _causal_kind(patterns)
    closed = None
    if kind is not None and (isinstance(n, str) or n > 8):
        closed = _causal_closed(kind, n if isinstance(n, int) else sympy.Symbol(n, integer=True, positive=True))
    if closed is not None:
        r, lay, method = closed
        if positional == "absolute":
            lay, method = (r if not isinstance(r, int) else max(r, 1)), ("an absolute positional encoding labels every token with its position, so the "
                              "depth-r view fixes the tokens of the whole receptive field")
        form = ("causal mask" if kind[0] == "causal" else f"causal window w = {kind[1]}" +
                (f" with {kind[2]} sinks" if kind[2] else ""))
        start = None if isinstance(n, int) else closed_from(kind)
        return {"target": "causal", "radius": r, "layers": lay, "least": True, "method": method, "from": start,
                "evidence": {"closed form": form,
                             "range": f"at n = {n}" if isinstance(n, int)
                             else "for n ≥ 3" if kind[0] == "causal" else f"for n ≥ {_window_range(kind)}"}}
    if not isinstance(n, int):
        shown = " | ".join(dict.fromkeys(show_pattern(p) for p in patterns))
        return (f"the receptive diameter r of {shown} at symbolic n, and whether a receptive witness exists at depth r "
                "(r + 1 layers are then the least, else r; §14.5(d)), are open: the receptive class has closed forms at "
                "symbolic n only for the full causal mask and a causal window with or without sinks (§14.9); give "
                "`tokens N` to decide them at one n")
    from ..graphs import GraphTooLarge, build_graph
    from ..graphs.receptive import TooLarge, receptive_fields, search
    try:
        with time_limit("the receptive fields of the pattern", 20.0):
            graphs = [build_graph(p, n, {}) for p in patterns]
            rec = receptive_fields(graphs)
    except (GraphTooLarge, TooLarge, ValueError, KeyError, TypeError, BudgetExceeded) as exc:
        return f"the receptive fields are not computed ({exc})"
    target = "causal" if rec.causal_class and rec.prefix_fields else "receptive"
    ev = {"far pair": {"from j": rec.far[1], "to i": rec.far[0], "distance": rec.far[2]},
          "causal class": rec.causal_class, "strongly connected": rec.strongly_connected}
    if rec.missing:
        ev["not reached"] = {"i": rec.missing[0], "j": rec.missing[1]}
    proven = None
    count = None  # Theorem F68's certificate, when its exact test decides the count
    try:
        with time_limit("searching for a receptive witness", 30.0):
            found = None
            if proven is None and rec.causal_class and rec.prefix_fields:
                from ..graphs.receptive import causal_exact
                try:
                    found = causal_exact(graphs, rec)
                except TooLarge:
                    found = None
            elif proven is None:
                from ..graphs.receptive import receptive_exact
                try:
                    found = receptive_exact(graphs, rec)
                    count = _count_certificate(graphs, rec, found)
                except TooLarge:
                    found = None
            if found is None:
                found = search(graphs, rec, proven)
    except BudgetExceeded:
        from ..graphs.receptive import WitnessSearch
        found, count = WitnessSearch(rec.radius + 1, False, "r + 1 layers suffice; the witness search ran out of "
                                                            "time"), None
    if positional == "absolute" and found.layers > max(rec.radius, 1):
        from ..graphs.receptive import WitnessSearch
        found = WitnessSearch(max(rec.radius, 1), True, "an absolute positional encoding labels every token with its "
                              "position, so the depth-r view fixes the tokens of the whole receptive field")
        count = None  # the count is not Theorem F68's
    return {"target": target, "radius": rec.radius, "layers": found.layers, "least": found.least,
            "method": found.method, "witness": found.witness, "evidence": ev, "missing": rec.missing,
            "count": count}


def _count_certificate(graphs, rec, found) -> ReceptiveCount:
    """Theorem F68's count as a certificate: the in-neighbourhoods, the far pair, the witness if any."""
    from ..graphs.receptive import in_neighbourhoods
    nbs = tuple(tuple(nb) for nb in in_neighbourhoods(graphs))
    witness = None
    if found.witness:
        w = found.witness
        perm = ({w["swap"][0]: w["swap"][1], w["swap"][1]: w["swap"][0]} if "swap" in w else
                {k + 1: v for k, v in enumerate(w["permutation"])})
        witness = (w["position"], tuple(perm.get(k, k) for k in range(1, rec.n + 1)))
    return ReceptiveCount(nbs, rec.radius, found.layers, (rec.far[0], rec.far[1]), witness)


def analyse(spec: S.Spec, target: str, ffn_step: proof.Step, tds: list) -> TargetOutcome:
    """The verdict for `target` ("causal" or "receptive") of a pattern family that is not strongly connected."""
    if not _has_only_patterns(spec):
        step = undecided_step(spec, target, "a sequence projection: receptive classes are analysed for patterns "
                                            "only")
        return _finish(spec, target, "INCONCLUSIVE", None, False, [step], step.claim, ffn_step, tds)
    positional = _has_positions(spec)
    info = _structure(_position_blind(spec) if positional else spec)
    if isinstance(info, str):
        step = undecided_step(spec, target, info)
        return _finish(spec, target, "INCONCLUSIVE", None, False, [step], step.claim, ffn_step, tds)
    pos_step = None
    if positional and info["target"] == "causal":
        pos_step, lay, least, method = causal_positions(spec, info, tds)
        if lay is None:
            return _finish(spec, "causal", "INCONCLUSIVE", None, False, [pos_step], pos_step.claim, ffn_step, tds)
        info = dict(info, layers=lay, least=least, method=method, witness=None)
    elif positional:
        step = undecided_step(spec, target, "a bias or positions in the weights on a pattern outside the causal "
                                            "class: labelled receptive classes are not analysed")
        return _finish(spec, target, "INCONCLUSIVE", None, False, [step], step.claim, ffn_step, tds)
    if target == "causal" and info["target"] != "causal":
        missing = info.get("missing")
        if missing:
            i, j = missing
            step = not_causal_step(spec, f"x_{j} never reaches position {i} although {j} < {i}, so every model's output "
                                   f"at {i} ignores x_{j}, while the causal target F(X)_{i} = x_{j} depends on it",
                                   {"witness": {"i": i, "j": j, "target": f"F(X)_{i} = x_{j}"}})
            return _finish(spec, target, "NOT-UAP", None, False, [step], step.claim, ffn_step, tds)
        step = undecided_step(spec, target, "the pattern is not in the causal class (some position attends to a later "
                                            "one); use `target receptive` for the family's own class")
        return _finish(spec, target, "INCONCLUSIVE", None, False, [step], step.claim, ffn_step, tds)
    start = info.get("from")
    where = "" if start is None else _range_text(start, str(spec.tokens))
    rec_step = receptive_step(spec, info["target"], info["radius"], info["evidence"], where)
    # a count from the positions (§14.11) holds at every n; the closed form's count for n ≥ start
    lay_step = layers_step(rec_step, info["target"], info["radius"], info["layers"], info["least"], info["method"],
                           info.get("witness"), pos_step, start if pos_step is None else None,
                           info.get("count") if pos_step is None else None, name=str(spec.tokens))
    steps = [rec_step, lay_step]
    cls = info["target"]
    if isinstance(spec.layers, int) and not isinstance(spec.layers, bool) and info["layers"] is not None and (
            not isinstance(info["layers"], int) or (start is not None and start != 1 and spec.layers < info["layers"])):
        # a count that grows with n (⌈(n − 1)/w⌉, n − 1), or a constant count that holds from a length on (2 layers
        # for `causal` from n = 3; one layer below): a fixed budget is below it on some lengths and not on others, so
        # neither UAP with the count nor NOT-UAP at every n follows (the UAP ignored the budget: `offsets {-1, 0}` with
        # `layers 1` was "UAP for causal targets with n − 1 attention layers"; `causal` with `layers 1` was NOT-UAP
        # at every n, though one layer gives it at n ≤ 2)
        split = _budget_split(spec, ffn_step, tds)
        if split is not None:  # causal interval heads of finite widths: Theorem F159's split by length
            return split
        note = (f"a count that depends on n ({sympy.sstr(info['layers'])})" if not isinstance(info["layers"], int)
                else f"{info['layers']} layers for {where} (fewer below)")
        b = budget_step(spec, cls, info["radius"], info["layers"], info["least"], False,
                        {"budget": spec.layers, "radius": str(info["radius"]), "layers": str(info["layers"])}, note)
        steps.append(b)
        return _finish(spec, cls, "INCONCLUSIVE", None, False, steps, b.claim, ffn_step, tds)
    if spec.layers is not None and isinstance(spec.layers, int) and isinstance(info["layers"], int) \
            and spec.layers < info["layers"]:
        below_r = isinstance(info["radius"], int) and spec.layers < info["radius"]
        proved = below_r or info["least"]
        b = budget_step(spec, cls, info["radius"], info["layers"], info["least"], proved,
                        {"budget": spec.layers, "radius": info["radius"], "layers": info["layers"]})
        steps.append(b)
        if proved:
            return _finish(spec, cls, "NOT-UAP", None, False, steps, b.claim, ffn_step, tds)
        return _finish(spec, cls, "INCONCLUSIVE", None, False, steps, b.claim, ffn_step, tds)
    if pos_step is not None and pos_step.proved:
        tds = _causal_head_steps(tds)
    if ffn_step.proved and all(td.proved for td in tds):
        outcome = _finish(spec, cls, "UAP", info["layers"], info["least"], steps, "", ffn_step, tds)
        return _with_range(spec, outcome, start) if start is not None else outcome
    failing = [s for s in [ffn_step, *tds] if not s.proved]
    reason = "; ".join(f"{s.rule}: {s.claim}" for s in failing)
    return _finish(spec, cls, "INCONCLUSIVE", None, False, steps, reason, ffn_step, tds)


def _budget_split(spec: S.Spec, ffn_step: proof.Step, tds: list) -> Optional[TargetOutcome]:
    """`target causal` with `layers M` at a symbolic n on plain causal interval heads of integer finite widths (one
    pattern in every layer, §14.7): Theorem F159 with a period of one layer (docs/theory.md §21.10), NOT-UAP from N* on
    and UAP below; None outside it (positions or an encoding label the keys, a `causal` head, a param width)."""
    from ..graphs.layers_interval_forms import FormOutside, read_form_layers, split_applies
    from .layers_intervals import split_outcome
    if spec.target != "causal" or not isinstance(spec.tokens, str) or _has_positions(spec) or spec.positional != "none":
        return None
    try:
        L = read_form_layers(spec)
    except FormOutside:
        return None
    return split_outcome(spec, L, ffn_step, tds) if split_applies(L) else None


def _with_range(spec: S.Spec, outcome: TargetOutcome, start) -> TargetOutcome:
    """A UAP count at symbolic n from a closed form that holds for n ≥ `start`: the lengths below it decided one by
    one by the derivation at that n (the concrete engine). When each of them has the formula's count (and its
    `least`), the count holds for every n and no range is stated; otherwise the range is stated with the lengths
    below it (docs/theory.md §14.9). A bound with params (n ≥ max(k + w + 2, 2k)) leaves them not enumerated."""
    from dataclasses import replace
    from .small_lengths import ENABLED
    where = _range_text(start, str(spec.tokens))
    if not isinstance(start, int):
        return _with_pieces(spec, replace(outcome, range=where, below=None), where)
    if not ENABLED.get():  # the suggestion search reads the verdict only: the range, the lengths below not derived
        return replace(outcome, range=where, below=())
    records = _lengths_below(spec, outcome.target, start)
    n = sympy.Symbol(spec.tokens, integer=True, positive=True)

    def formula_at(value: int) -> int:
        lay = outcome.layers
        return lay if isinstance(lay, int) else int(sympy.sympify(lay, strict=True).xreplace({n: value}))  # safe: strict (no text parsed)
    allowed = [r for r in records if r.allowed]
    if all(r.verdict == "UAP" and r.layers == formula_at(r.n) and r.least == outcome.least for r in allowed):
        return replace(outcome, below=tuple(records))  # the count holds at every length: no range to state
    return replace(outcome, range=where, below=tuple(records))


def _with_pieces(spec: S.Spec, outcome: TargetOutcome, where: str) -> TargetOutcome:
    """A causal window (k ≥ 0 sinks) whose range has params: the lengths below it in closed form (TGT-BELOW, §14.7),
    for plain heads without a positional encoding; otherwise they stay not covered."""
    from dataclasses import replace
    from .target_below import below_step
    kind = _causal_kind(tuple(h.pattern for h in spec.heads))
    if kind is None or kind[0] != "window" or _has_positions(spec) or spec.positional != "none" \
            or outcome.target != "causal" or not outcome.least:
        return outcome
    lay = next(s for s in outcome.steps if s.rule == "TGT-LAYERS")
    k_lower = next((p.lower for p in spec.params if p.name == kind[2] and p.lower is not None), 1)
    step = below_step(lay, kind[1], kind[2], str(spec.tokens), where, max(k_lower, 1))
    return replace(outcome, pieces=step.facts["pieces"], steps=(*outcome.steps, step))


def _lengths_below(spec: S.Spec, target: str, start: int) -> list:
    """The verdict for `target` at n = 1 … start − 1, each by the derivation at that n (the file with `target
    TARGET`, also when the class is the alternative of a NOT-UAP verdict), within the limits of the equivariant
    verdict's lengths below a range (small_lengths: up to n = TOP, LENGTHS_WORK for them all)."""
    from dataclasses import replace
    from ..budget import FileBudgetExceeded, share
    from ..derive import check_spec
    from ..errors import UapError
    from .small_lengths import EACH_SECONDS, FACTS_ONLY, TOP, LengthsWork, _concrete
    out = []
    work = LengthsWork(spec)
    for length in range(1, start):
        counted = [(p.k, "number of sinks") if isinstance(p, S.Sinks) else (p.g, "global pattern size")
                   for h in spec.heads for p in _parts(h.pattern) if isinstance(p, (S.Sinks, S.Global))]
        over = [(k, what) for k, what in counted if isinstance(k, int) and k > length]
        if over:  # as the parser refuses `tokens 1` with sinks(2) or global(2)
            k, what = max(over)
            out.append(TargetLength(length, None, allowed=False, why=f"{what} {k} exceeds n = {length}"))
            continue
        stopped = f"above n = {TOP}" if length > TOP else work.admit(length)
        if stopped is not None:
            out.append(TargetLength(length, None, why=stopped))
            continue
        token = FACTS_ONLY.set(True)
        try:
            result = check_spec(_concrete(replace(spec, target=target), length), share(EACH_SECONDS))
        except UapError as exc:
            out.append(TargetLength(length, None, allowed=False, why=exc.message))
            continue
        except FileBudgetExceeded:
            raise  # the file's own budget: reported by the caller's check_spec
        finally:
            FACTS_ONLY.reset(token)
        outcome = getattr(result, "target", None)
        if outcome is None or result.verdict not in ("UAP", "NOT-UAP") or outcome.target != target:
            out.append(TargetLength(length, None, why=f"the derivation at n = {length} gives {result.verdict} for "
                                    f"{'G-equivariant' if outcome is None else outcome.target} targets"))
            continue
        out.append(TargetLength(length, result.verdict, result.layers if result.verdict == "UAP" else None,
                                outcome.least if result.verdict == "UAP" else None))
    return [replace(r, symbol=str(spec.tokens)) for r in out]


def _parts(p: S.Pattern) -> list:
    """The pattern's parts through unions and intersections."""
    if isinstance(p, (S.PatternUnion, S.PatternIntersection)):
        return [q for part in p.parts for q in _parts(part)]
    if isinstance(p, S.PatternSequence):  # a pattern per layer: every layer's parts
        return [q for part in p.patterns for q in _parts(part)]
    return [p]


def _causal_head_steps(tds: list) -> list:
    """The head premises the causal analysis with positions uses (§14.11). TD-BIAS and TD-BUCKETS are
    undecided when one layer cannot tell i + s from i − s: that is a G-equivariant question, and the
    causal count rests on the head's own TD-KERNEL step (Lemma V, containment) instead. Every other
    step is kept as it is (an even fixed bias keeps its undecided TD-FIXEDBIAS step: §14.11(e))."""
    out = []
    for td in tds:
        if not td.proved and td.rule in ("TD-BIAS", "TD-BUCKETS"):
            kernel = [p for p in td.premises if p.rule == "TD-KERNEL" and p.proved]
            if kernel:
                out.append(kernel[0])
                continue
        out.append(td)
    return out


def _finish(spec, target, verdict, layers, least, steps, reason, ffn_step, tds) -> TargetOutcome:
    return TargetOutcome(target, verdict, layers, least, tuple(steps), reason, tuple(tds))


@dataclass(frozen=True)
class Decision:
    """What derive reports once the target class is taken into account."""
    verdict: str
    layers: object
    root: proof.Step
    outcome: Optional[TargetOutcome]  # the verdict for the declared target (None: G-equivariant)
    alternative: Optional[TargetOutcome]  # without a declaration: the class a NOT-UAP family does approximate


def decide(spec: S.Spec, ffn_step: proof.Step, tds: list, structure: list, group_step: proof.Step, group,
           obstruction: Optional[proof.Step], verdict: str, layers, make_root) -> Decision:
    """The verdict for the declared target class (or the alternative class of a NOT-UAP pattern).

    `make_root(extra_steps)` builds the G-equivariant verdict step with extra premises."""
    from .layers import has_sequence
    disconnected = obstruction is not None and obstruction.rule == "PAT-DISCONNECTED"
    if spec.target == "equivariant" or (spec.target == "receptive" and not disconnected) or verdict == "ILL-POSED":
        # `target receptive` on a strongly connected (or dense) family: every receptive field is 1..n and
        # the class is the G-equivariant maps, so the verdict is the equivariant one.
        # (per-layer patterns have no receptive analysis: their alternative is the suggestion of `target causal`)
        if spec.target == "equivariant" and verdict == "NOT-UAP" and disconnected and not has_sequence(spec):
            alt = within_dimension(spec, analyse(spec, "receptive", ffn_step, tds))
            return Decision(verdict, layers, make_root([_alternative_step(alt)]), None, alt)
        return Decision(verdict, layers, make_root([]), None, None)
    sequence = has_sequence(spec) and spec.target == "causal"
    if sequence:  # per-layer patterns (§21.5): their own prefix reach and causal views
        from .layers_causal import causal_outcome
        outcome = within_dimension(spec, causal_outcome(spec, ffn_step, tds))
    elif disconnected:
        outcome = within_dimension(spec, analyse(spec, spec.target, ffn_step, tds))
    else:
        outcome = causal_from_equivariant(spec, verdict, group, layers)
        if outcome is None and verdict == "NOT-UAP":
            outcome = causal_budget(spec, next((s for s in structure if s.rule == "PAT-BUDGET" and s.proved), None))
        if outcome is None:  # whatever the G-equivariant verdict: one layer cannot tell the exchange apart
            outcome = causal_one_layer_collision(spec)
        if outcome is None:
            step = undecided_step(spec, "causal", f"the family is {verdict} for its G-equivariant targets and its "
                                                  "group is not shown non-trivial")
            outcome = TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), step.claim)
    claim = _claim(outcome)
    # the receptive analysis of a disconnected family does not read the group: an open group step is not
    # among its premises (it would show an undecided step under a proved verdict)
    # per-layer patterns' causal analysis does not read G either, but their G-equivariant layer steps stand among the
    # premises and read it (SEQ-LAYERS and SEQ-DEPTH take G from the SEQ-GROUP step): then it stands with them
    reads_group = any(s.rule in ("SEQ-LAYERS", "SEQ-DEPTH") for s in structure)
    group_premise = [group_step] if (group_step.proved or not disconnected) and (not sequence or reads_group) else []
    top = verdict_step(outcome.target, outcome.verdict, claim,
                       [ffn_step, *(tds if outcome.head_steps is None else outcome.head_steps), *structure,
                        *group_premise, *outcome.steps], outcome.record())
    return Decision(outcome.verdict, outcome.layers if outcome.verdict == "UAP" else None, top, outcome, None)


def within_dimension(spec: S.Spec, outcome: TargetOutcome) -> TargetOutcome:
    """Theorem 1′ assumes d ≥ 2, as Theorem 1 does (docs/theory.md §14.3, §12 DIM-RANGE): under `dim 1` a UAP
    outcome for a target class becomes INCONCLUSIVE, its steps kept and the DIM-RANGE step added."""
    if outcome.verdict != "UAP" or not (isinstance(spec.dim, int) and spec.dim < 2):
        return outcome
    from .verdict import dimension_range
    step = dimension_range(spec.dim, premise_needs_two=False)
    return TargetOutcome(outcome.target, "INCONCLUSIVE", None, False, (*outcome.steps, step), step.claim,
                         outcome.head_steps)


def _phrase_parts(outcome: TargetOutcome) -> tuple[str, str]:
    """TargetOutcome.phrase() around its layer count, for a UAP outcome."""
    least = "" if outcome.least else " (sufficient, not shown least)"
    return (f"UAP for {outcome.target} targets with ",
            f" attention layer{'' if outcome.layers == 1 else 's'}{least}{outcome.range_words()}")


def _claim(outcome: TargetOutcome) -> "str | Claim":
    if outcome.verdict == "UAP":
        lay = outcome.layers if isinstance(outcome.layers, int) else value(outcome.layers)
        phrase = outcome.phrase()
        if not isinstance(outcome.layers, int):  # the phrase's layer count as a formula
            before, after = _phrase_parts(outcome)
            phrase = claim(before, lay, after)
        return claim(phrase, ": ", REASON, "Definition 2 holds and the family is ", *m_layer(outcome.layers, lay),
                     " token distinguishing in the receptive sense (tokens differ unless they sit at positions with isomorphic receptive fields and "
                     "equal tokens there), so Theorem 1 in its receptive form gives the UAP for ",
                     CLASS_CLAIM[outcome.target])
    return claim(f"{outcome.verdict} for {outcome.target} targets{outcome.range_words()}: ", REASON, outcome.reason)


@proof.rule("TGT-ALTERNATIVE", "The class a NOT-UAP pattern does approximate", CITE_TGT, statuses=(proof.PROVED, proof.UNDECIDED),
            certificates=(TargetVerdict,))
def _alternative_step(alt: TargetOutcome) -> proof.Step:
    claim = (f"not part of the verdict above: {alt.phrase()}" +
             (f" — {alt.reason}" if alt.reason and alt.verdict != "UAP" else ""))
    status = proof.PROVED if alt.verdict in ("UAP", "NOT-UAP") else proof.UNDECIDED
    cert = TargetVerdict(alt.verdict, tuple(alt.steps)) if status is proof.PROVED else None
    return proof.conclude(claim, status, list(alt.steps), {"alternative": alt.record()}, certificate=cert)


def causal_from_equivariant(spec: S.Spec, verdict: str, group, layers) -> Optional[TargetOutcome]:
    """`target causal` for a strongly connected family: plain UAP covers causal maps; a non-trivial
    group excludes some of them. None when neither applies."""
    if verdict == "UAP" and group is not None and (group.name == "trivial" or str(group.order) == "1"):
        ranged = isinstance(spec.tokens, str) and (group.classes or group.condition or
                                                   group.condition_formula is not None)
        start = _plain_from(group) if ranged else None
        if ranged and start is None:
            # the plain UAP (and its trivial group) is stated on a range or by residue class only: below it the group
            # may be non-trivial (dilated(2, 3) + offsets {-1, 2}: NOT-UAP for causal targets at n = 3, 4)
            step = undecided_step(spec, "causal", f"the family's plain UAP and its trivial group are stated for "
                                  f"{group.condition or 'some residue classes of n'} only, and the causal class at "
                                  "the other lengths is not derived at a symbolic n; an integer `tokens` decides it")
            return TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), step.claim)
        step = _from_plain(spec, layers, start)
        outcome = TargetOutcome("causal", "UAP", layers, layers == 1, (step,), "")
        return _with_range(spec, outcome, start) if start is not None else outcome
    nontrivial = group is not None and group.name != "trivial" and str(group.order) != "1" and spec.tokens != 1
    start = _not_trivial_from(group) if nontrivial and isinstance(spec.tokens, str) else None
    if start is not None:
        return _not_causal_on_range(spec, group, start)
    split = _class_split(group) if nontrivial and isinstance(spec.tokens, str) else None
    if split is not None:
        # some classes of n mod L have a trivial G (the plain UAP covers causal maps there), the others a G that is
        # not trivial from a length on (NOT-UAP there, range lemma (c)); a verdict by class is not stated for causal
        # targets: the step names both sets of classes, and each integer n decides it
        modulus, moved, start, fixed = split
        step = undecided_step(spec, "causal", f"the family's group is trivial for n mod {modulus} ∈ "
                              f"{_residues(fixed)}, where the plain UAP covers every causal map, and not trivial for "
                              f"n mod {modulus} ∈ {_residues(moved)} from n = {start} on, where causal targets are "
                              "out of reach (NOT-UAP there, §14.9, the range lemma (c)); a verdict by residue class "
                              "is not stated for causal targets, and an integer `tokens` decides each length")
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), step.claim)
    if nontrivial and isinstance(spec.tokens, str):
        # G is trivial at n = 1 (every map of one token is causal: UAP there), and a group stated by residue class
        # or from a bound can be trivial at other lengths too, so a NOT-UAP by the group holds on a range of n only;
        # that range is not stated at a symbolic n (docs/theory.md §14.10): each integer n decides it
        step = undecided_step(spec, "causal", f"the family's group G = {group.name or f'of order {group.order}'} is "
                              "not trivial where it is stated, but G is trivial at n = 1, where every map of one token "
                              "is causal, and may be at other lengths, so a non-trivial G excludes causal targets on "
                              "a range of n only, which is not derived at a symbolic n; an integer `tokens` decides it")
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), step.claim)
    if nontrivial:
        where = f" (for {group.condition})" if group.condition else ""
        step = not_causal_step(spec, f"every model is equivariant under the family's group G = "
                               f"{group.name or f'of order {group.order}'}{where}, which is not trivial, while the causal target "
                               "F(X)_l = x_k for l ≥ k (0 before k), with k the first position some σ ∈ G moves, is "
                               "not σ-equivariant", {"group": group.name, "order": group.order_value})
        return TargetOutcome("causal", "NOT-UAP", None, False, (step,), step.claim.split(": ", 1)[1])
    return None


def _class_split(group) -> Optional[tuple[int, list, int, list]]:
    """For an order by residue class of n mod L (a Piecewise covering every residue) with some pieces 1 and the
    others never decreasing and above 1 from a length on (range lemma (c)): (L, the residues where G is not trivial,
    the first length from which it is not trivial on every one of them, the residues where G is trivial); else None."""
    order = group.exact
    cond = group.condition_formula
    low = 1 if not group.condition and cond is None else (_lower_bound(cond) if cond is not None else None)
    if not isinstance(order, sympy.Piecewise) or not isinstance(low, int) or _residue_pieces(order) is None:
        return None
    modulus = None
    moved: list = []
    fixed: list = []
    starts: list = []
    for expr, clause in order.args:
        rels = clause.args if isinstance(clause, sympy.Or) else (clause,)
        residues = [int(rel.rhs) for rel in rels]
        modulus = int(rels[0].lhs.args[1])
        if expr == 1:
            fixed += residues
            continue
        first = _growing_order_from(expr, low) if expr.free_symbols else (max(2, low) if expr > 1 else None)
        if first is None:
            return None
        moved += residues
        starts.append(first)
    if modulus is None or not moved or not fixed:
        return None
    return modulus, sorted(moved), max(starts), sorted(fixed)


def _residues(residues: list) -> str:
    return "{" + ", ".join(map(str, residues)) + "}"


#: groups that are not trivial at any n ≥ 2 wherever they are stated: S_n, C_n and D_n move 1 there, and the reflection
#: i ↦ n + 1 − i moves 1 to n
NOT_TRIVIAL_NAMES = ("S_n", "C_n", "D_n", "reflection")


def _plain_from(group) -> "int | sympy.Expr | None":
    """N when the plain UAP's trivial group is stated for n ≥ N (not by residue class): the causal UAP it gives holds
    there, the lengths below decided one by one (`_with_range`); None when that is not shown."""
    cond = group.condition_formula
    if group.classes or cond is None:
        return None
    low = _lower_bound(cond)
    if isinstance(low, int):
        return max(2, low)
    return low if low is not None and (low - 2).is_nonnegative is True else None


def _not_trivial_from(group) -> "int | sympy.Expr | None":
    """The least N ≥ 2 such that G is stated, and not trivial, at every n ≥ N; None when that is not shown
    (docs/theory.md §14.9, the range lemma). G must be stated for every n or for n ≥ a bound (an integer, or one
    expression in the params shown ≥ 2), and be a named group of NOT_TRIVIAL_NAMES, of a constant order above 1, or
    of an order in n that never decreases (`_growing_order_from`), also one order by residue class of n whose every
    class's formula never decreases (range lemma (c)). A group stated as a different group on each class
    (`group.classes`) is not read here."""
    if group.classes:
        return None
    cond = group.condition_formula
    if not group.condition and cond is None:
        low: "int | sympy.Expr | None" = 1
    elif cond is None:
        return None
    else:
        low = _lower_bound(cond)
    if low is None:
        return None
    if group.name in NOT_TRIVIAL_NAMES or (isinstance(group.order, int) and group.order > 1):
        if isinstance(low, int):
            return max(2, low)
        return low if (low - 2).is_nonnegative is True else None
    return _growing_order_from(group.exact, low) if isinstance(low, int) else None


#: how far past the group's first length a growing order is evaluated for its first value above 1
GROWING_ORDER_SEARCH = 64


def _growing_order_from(order, low: int) -> Optional[int]:
    """For an order in n alone that never decreases in n (range lemma (b), docs/theory.md §14.9): a product of
    positive integers, integer powers b^e (b ≥ 1) and factorials of integer expressions e that never decrease (made of
    n, integers, non-negative rational multiples, sums, ⌊·⌋ and ⌈·⌉: a·n + b with a ≥ 0, ⌈n/4⌉ − 2), the first
    n ≥ max(2, low) where every e is ≥ 0 and the order is above 1 (from there it stays above 1). An order by residue
    class of n (range lemma (c): a Piecewise on n mod L = r covering every residue) gets the largest such n over
    its pieces, each piece a formula of that kind. None otherwise."""
    if isinstance(order, sympy.Piecewise):
        pieces = _residue_pieces(order)
        if pieces is None:
            return None
        firsts = [_growing_order_from(expr, low) if isinstance(expr, sympy.Basic) and expr.free_symbols
                  else (max(2, low) if expr.is_Integer and expr > 1 else None) for expr in pieces]
        return None if any(f is None for f in firsts) else max(firsts)
    if not isinstance(order, sympy.Basic) or len(order.free_symbols) != 1:
        return None
    (n,) = order.free_symbols
    floors = _monotone_arguments(order, n)
    if floors is None:
        return None
    for length in range(max(2, low), max(2, low) + GROWING_ORDER_SEARCH):
        if all(a.subs(n, length) >= 0 for a in floors) and order.subs(n, length) > 1:
            return length
    return None


def _residue_pieces(order: sympy.Piecewise) -> Optional[list]:
    """The pieces of an order stated by residue class, when its conditions are n mod L = r (or an Or of such) for one
    symbol and one L, and cover every residue mod L exactly once; else None."""
    modulus, residues, pieces = None, [], []
    for expr, cond in order.args:
        for rel in (cond.args if isinstance(cond, sympy.Or) else (cond,)):
            if not (isinstance(rel, sympy.Eq) and isinstance(rel.lhs, sympy.Mod) and rel.rhs.is_Integer
                    and isinstance(rel.lhs.args[0], sympy.Symbol) and rel.lhs.args[1].is_Integer):
                return None
            if modulus not in (None, int(rel.lhs.args[1])):
                return None
            modulus = int(rel.lhs.args[1])
            residues.append(int(rel.rhs))
        pieces.append(expr)
    if modulus is None or sorted(residues) != list(range(modulus)):
        return None
    return pieces


def _monotone_arguments(order, n) -> Optional[list]:
    """The exponents and factorial arguments of `order` when it is a product of positive integers, powers b^e with an
    integer b ≥ 1, and factorials (or their positive integer powers) of integer expressions, every e and argument
    never decreasing in n (`_never_decreasing`): then the order never decreases where they are all ≥ 0. Else None."""
    out = []
    for factor in sympy.Mul.make_args(order):
        if factor.is_Integer and factor >= 1:
            continue
        if isinstance(factor, sympy.Pow) and factor.base.is_Integer and factor.base >= 1:
            if not (factor.exp.is_integer and _never_decreasing(factor.exp, n)):
                return None
            out.append(factor.exp)
            continue
        base = factor.base if isinstance(factor, sympy.Pow) and factor.exp.is_Integer and factor.exp > 0 else factor
        if not isinstance(base, sympy.factorial) or not base.args[0].is_integer \
                or not _never_decreasing(base.args[0], n):
            return None
        out.append(base.args[0])
    return out


def _never_decreasing(expr, n) -> bool:
    """Whether `expr` never decreases as the integer n grows, read off its form: n, a constant, a sum of such, a
    non-negative rational multiple, ⌊·⌋ or ⌈·⌉ of such."""
    if expr == n or expr.is_Rational:
        return True
    if isinstance(expr, sympy.Add):
        return all(_never_decreasing(a, n) for a in expr.args)
    if isinstance(expr, sympy.Mul):
        consts = [a for a in expr.args if a.is_Rational]
        rest = [a for a in expr.args if not a.is_Rational]
        return len(rest) == 1 and all(c >= 0 for c in consts) and _never_decreasing(rest[0], n)
    if isinstance(expr, (sympy.floor, sympy.ceiling)):
        return _never_decreasing(expr.args[0], n)
    return False


def _lower_bound(cond) -> "int | sympy.Expr | None":
    """N when `cond` is n ≥ N, n > N − 1, or a conjunction of such bounds on one symbol: the largest integer, or the
    bound with params that every other one is shown not to exceed (n ≥ w + 2 and n ≥ 2·w + 1: 2·w + 1); else None."""
    parts = cond.args if isinstance(cond, sympy.And) else (cond,)
    bounds, symbols = [], set()
    for part in parts:
        if not isinstance(part, (sympy.GreaterThan, sympy.StrictGreaterThan)) or not isinstance(part.lhs, sympy.Symbol) \
                or not part.rhs.is_integer or part.lhs in part.rhs.free_symbols:
            return None
        symbols.add(part.lhs)
        bounds.append(part.rhs + (1 if isinstance(part, sympy.StrictGreaterThan) else 0))
    if not bounds or len(symbols) != 1:
        return None
    top = next((b for b in bounds if all(b == c or (b - c).is_nonnegative is True for c in bounds)), None)
    if top is None:
        return None
    return int(top) if top.is_Integer else top


def _not_causal_on_range(spec: S.Spec, group, start: "int | sympy.Expr") -> TargetOutcome:
    """At a symbolic n, a group not trivial at every n ≥ `start` excludes causal targets there (§14.9); the lengths
    below are each decided by the derivation at that n (n = 1: every map of one token is causal), as a UAP count's
    lengths below its range are (docs/theory.md §14.10); below a bound with params they are not enumerated."""
    from .small_lengths import ENABLED
    name = group.name or f"of order {group.order}"
    step = not_causal_step(spec, f"every model is equivariant under the family's group G = {name}, which is not "
                           f"trivial at any {spec.tokens} ≥ {start} where it is stated, while the causal target F(X)_l = x_k for "
                           "l ≥ k (0 before k), with k the first position some σ ∈ G moves, is not σ-equivariant",
                           {"group": group.name, "order": group.order_value}, start=start)
    below = (None if not isinstance(start, int) else
             tuple(_lengths_below(spec, "causal", start)) if ENABLED.get() else ())
    return TargetOutcome("causal", "NOT-UAP", None, False, (step,), step.claim.split(": ", 1)[1],
                         range=_range_text(start, str(spec.tokens)), below=below)


@proof.rule("TGT-PLAIN", "Plain UAP covers the causal maps", CITE_TGT, statuses=(proof.PROVED,),
            certificates=(Trusted,))
def _from_plain(spec: S.Spec, layers, start=None) -> proof.Step:
    lay = layers if isinstance(layers, int) else sympy.sstr(layers)
    where = "" if start is None else f" for {_range_text(start, str(spec.tokens))}"
    return proof.conclude(f"the family has the plain UAP (trivial group) with {lay} attention layers{where}, and every causal "
                          "map is a continuous map: UAP for causal targets" +
                          ("" if layers == 1 else " (sufficient, not shown least: causal targets may need fewer)"),
                          proof.PROVED, evidence={"layers": layers, "least": layers == 1},
                          facts={"layers": layers, "least": layers == 1, **({} if start is None else {"from": start})},
                          certificate=Trusted("VERDICT-T1", "plain UAP (the trivial group) covers every continuous "
                                              "causal map", {"layers": layers}))
