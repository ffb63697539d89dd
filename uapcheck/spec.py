"""The Spec IR: what a `.uap` file says, as frozen dataclasses.

The parser is the only producer of these records; the rule engines only read them. Source
locations ride along (excluded from equality) so that every later diagnostic can point at the
text the user wrote.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Optional, Union

import sympy


@dataclass(frozen=True)
class Loc:
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0


NOLOC = Loc(0, 0)


# ---------------------------------------------------------------------------------------------
# Expressions, as written (kept apart from SymPy so reports can quote the user's own form).

@dataclass(frozen=True)
class Num:
    value: sympy.Rational
    loc: Loc = field(default=NOLOC, compare=False)


@dataclass(frozen=True)
class Name:
    id: str
    loc: Loc = field(default=NOLOC, compare=False)


@dataclass(frozen=True)
class Call:
    fn: str
    args: tuple["Expr", ...]
    loc: Loc = field(default=NOLOC, compare=False)


@dataclass(frozen=True)
class BinOp:
    op: str  # one of + - * / ^
    left: "Expr"
    right: "Expr"
    loc: Loc = field(default=NOLOC, compare=False)


@dataclass(frozen=True)
class Neg:
    operand: "Expr"
    loc: Loc = field(default=NOLOC, compare=False)


@dataclass(frozen=True)
class Dot:
    left: "Expr"
    right: "Expr"
    loc: Loc = field(default=NOLOC, compare=False)


@dataclass(frozen=True)
class Norm:
    operand: "Expr"
    loc: Loc = field(default=NOLOC, compare=False)


Expr = Union[Num, Name, Call, BinOp, Neg, Dot, Norm]


@dataclass(frozen=True)
class FeatureList:
    """A vector-valued feature map written as a bracketed list of components, `[φ_1(x), …, φ_C(x)]`:
    its kernel is Σ_c φ_c(x) · φ_c(y) (per random vector, or per coordinate for coordinate-wise
    components). Only the body of a `features` item is one."""
    items: tuple[Expr, ...]
    loc: Loc = field(default=NOLOC, compare=False)


#: The body of a head's defining item: an expression, or a list of feature components.
HeadExpr = Union[Expr, FeatureList]


# ---------------------------------------------------------------------------------------------
# Integer-valued quantities in patterns and sizes: a literal or the name of an integer param.

IntTerm = Union[int, str]


@dataclass(frozen=True)
class Full:
    pass


@dataclass(frozen=True)
class Causal:
    pass


@dataclass(frozen=True)
class Window:
    w: IntTerm
    cyclic: bool = False


@dataclass(frozen=True)
class Offsets:
    offsets: tuple[IntTerm, ...]  # a name may carry a sign: "-a"
    cyclic: bool = False


@dataclass(frozen=True)
class Dilated:
    w: IntTerm
    r: IntTerm


@dataclass(frozen=True)
class Strided:
    s: IntTerm


@dataclass(frozen=True)
class Blocks:
    b: IntTerm


@dataclass(frozen=True)
class Global:
    g: IntTerm


@dataclass(frozen=True)
class Star:
    pass


@dataclass(frozen=True)
class RandomPattern:
    r: IntTerm
    seed: int


@dataclass(frozen=True)
class Edges:
    edges: tuple[tuple[int, int], ...]  # (i, j): i attends to j, 1-based

    def __hash__(self) -> int:
        """The dataclass's hash, hash((edges,)), computed once: every cache keyed on the pattern or the file hashes
        the list again (262,138 pairs at 65,536 tokens: a few milliseconds each time)."""
        got = self.__dict__.get("_hash")
        if got is None:
            got = hash((self.edges,))
            object.__setattr__(self, "_hash", got)
        return got


@dataclass(frozen=True)
class PatternUnion:
    parts: tuple["Pattern", ...]


@dataclass(frozen=True)
class PatternIntersection:
    """`P & Q`: i attends to j when every part allows it (causal & window(w): Mistral)."""
    parts: tuple["Pattern", ...]


@dataclass(frozen=True)
class Sinks:
    """`sinks(k)`: every query after the first k positions also attends to positions 1..k
    (StreamingLLM's attention sinks); the sink queries 1..k add nothing (they follow the base mask)."""
    k: IntTerm


@dataclass(frozen=True)
class GlobalAt:
    """`global {p, q, ...}`: the listed positions attend to all, and all attend to them
    (Longformer's task tokens, ETC's global tokens)."""
    positions: tuple[int, ...]


@dataclass(frozen=True)
class Blockwise:
    """`blockwise(b) { P }`: the positions are cut into n/b blocks of b consecutive positions;
    i attends to j when they share a block or block ⌈i/b⌉ attends to block ⌈j/b⌉ in P, a pattern
    on the n/b block indices (BigBird ITC as released: sliding, global and random blocks)."""
    b: int
    inner: "Pattern"


@dataclass(frozen=True)
class Columns:
    """`columns(l, c)`: every query attends to the last c positions of each block of l consecutive
    positions, i.e. to every j with j mod l ∈ {0, l − 1, …, l − c + 1} (1-based j): Sparse
    Transformer's "fixed" summary columns (Child et al. 2019, A^(2) with stride l)."""
    l: IntTerm
    c: IntTerm


Pattern = Union[Full, Causal, Window, Offsets, Dilated, Strided, Blocks, Global, Star,
                RandomPattern, Edges, PatternUnion, PatternIntersection, Sinks, GlobalAt, Blockwise, Columns,
                "PatternSequence"]  # a sequence is a head's pattern only (one per layer), never nested


@dataclass(frozen=True)
class PatternSequence:
    """`pattern sequence { P1, …, Pk }` (exactly k attention layers, layer ℓ uses P_ℓ) or
    `pattern periodic { P1, …, Pp }` (layer ℓ uses P_((ℓ − 1) mod p) + 1, any depth): the paper's
    Φ = (N_1, N_2, …), a pattern per layer (Definition 4, "dynamic sparse attention")."""
    patterns: tuple[Pattern, ...]
    periodic: bool

    def at(self, layer: int) -> Optional[Pattern]:
        """The pattern of attention layer `layer` (1-based); None beyond a finite sequence."""
        k = len(self.patterns)
        if self.periodic:
            return self.patterns[(layer - 1) % k]
        return self.patterns[layer - 1] if layer <= k else None


@dataclass(frozen=True)
class Convolution:
    """`convolution circular(l)` (taps 0..l) or `convolution circular {a, b, …}`: the token mixer
    [g(X)]_i = Σ_{k ∈ taps} ψ_k x_{(i + k) mod n} with one trainable scalar ψ_k per tap (the paper's
    C_n design, §4.4.2, (23)); the layer is X ↦ X + g(X)."""
    taps: tuple[IntTerm, ...]  # offsets; for `circular(l)`: (0, "l") with `span` set
    span: Optional[IntTerm] = None  # l of `circular(l)`: the taps are 0, 1, …, l
    loc: Loc = field(default=NOLOC, compare=False)


TARGETS = ("equivariant", "causal", "receptive")

BIAS_KINDS = ("free", "circulant", "symmetric circulant", "toeplitz", "symmetric toeplitz")


@dataclass(frozen=True)
class PositionTerm:
    """How positions enter a head's weights (docs/language.md §3, docs/theory.md §16).

    kind: "rotary" (RoPE: q_i, k_j rotated by R(i), R(j), so the score is q_iᵀ R(j − i) k_j),
    "bias" (a fixed additive bias b(i, j) in the score: weights ∝ k(q_i, k_j)·e^{b(i, j)}),
    "reweight" (a fixed factor: weights ∝ k(q_i, k_j)·c(i, j)), "buckets" (T5: a trainable bias
    per bucket of j − i; `buckets` buckets, logarithmic up to `max_distance`).
    """
    kind: str
    fn: str = ""
    names: tuple[str, ...] = ()  # the position names (i, j) of a formula
    expr: Optional["Expr"] = None
    buckets: int = 0
    max_distance: int = 0
    loc: Loc = field(default=NOLOC, compare=False)


@dataclass(frozen=True)
class Projection:
    size: int
    fixed: bool


@dataclass(frozen=True)
class Head:
    label: Optional[str]
    kind: str  # "kernel" | "features" | "score"
    fn: str  # the name the user gave the function (k, phi, s, ...)
    params: tuple[str, ...]  # its vector arguments: (x, y) for kernel/score, (x,) for features
    expr: HeadExpr  # a FeatureList only for `features phi(x) = [..., ...]`
    random: Optional[str] = None  # the random vector's name for random features
    normalize: Optional[bool] = None  # None: the default for the kind
    nystrom: Optional[int] = None
    pattern: Pattern = Full()  # a PatternSequence: a pattern per layer
    bias: Optional[str] = None
    projection: Optional[Projection] = None
    tie: bool = False
    affine: bool = False
    position: Optional[PositionTerm] = None
    heads: Optional[tuple[int, int]] = None  # `heads H kv G`: H query heads sharing W_K, W_V in G groups
    differential: bool = False  # softmax(Q1 K1ᵀ) − λ softmax(Q2 K2ᵀ), λ trainable
    sink: Optional["SinkLogit"] = None  # an extra logit in the normaliser: exp(b) + Σ_l k(q_i, k_l)
    loc: Loc = field(default=NOLOC, compare=False)

    @property
    def normalized(self) -> bool:
        if self.normalize is not None:
            return self.normalize
        return self.kind in ("kernel", "features")


@dataclass(frozen=True)
class SinkLogit:
    """`sink logit learned` (b trainable, one per head: gpt-oss) or `sink logit B` (b = B fixed; B = 0 is softmax1):
    the head's weights are k(q_i, k_j) / (exp(b) + Σ_l k(q_i, k_l)) (docs/theory.md §17.4)."""
    learned: bool
    value: int = 0  # the fixed logit b when not learned

    def text(self) -> str:
        return "sink logit " + ("learned" if self.learned else str(self.value))


@dataclass(frozen=True)
class Param:
    name: str
    constraint: str  # "> 0", ">= 0", "!= 0", "real", "integer"
    lower: Optional[int] = None  # for "integer >= K"
    loc: Loc = field(default=NOLOC, compare=False)


@dataclass(frozen=True)
class FFN:
    kind: str  # "named" | "custom" | "none"
    name: Optional[str] = None  # for named activations
    var: Optional[str] = None  # for custom: the activation's argument
    expr: Optional[Expr] = None
    loc: Loc = field(default=NOLOC, compare=False)


@dataclass(frozen=True)
class Expectation:
    verdict: str  # "uap" | "not-uap" | "inconclusive" | "ill-posed"
    group: Optional[tuple[str, Optional[int]]] = None  # (name, arg) e.g. ("S_n", None), ("order", 48)
    layers: Optional[Expr] = None
    text: str = ""
    loc: Loc = field(default=NOLOC, compare=False)
    #: G by residue class of n: ((modulus, residues, (name, arg)), ...) for the classes written with `if`;
    #: `group` is then the `else` group, for every other residue
    group_classes: tuple = ()
    #: the layer count by residue class of n: ((modulus, residues, Expr), ...); `layers` is then the `else` count
    layer_classes: tuple = ()
    #: other verdicts on residue classes of n: ((modulus, residues, verdict), ...); `verdict` holds on the others
    verdict_classes: tuple = ()
    #: the lengths the line speaks of, `for n >= 12` (12, None) or `for 3 <= n <= 6` (3, 6); None: the verdict's range
    lengths: Optional[tuple[int, Optional[int]]] = None
    #: the file's further `expect ... for n ...` lines (a split verdict, docs/language.md §7), each with `lengths`
    more: tuple = ()
    #: the first line's own text when `text` joins every line's
    line_text: str = ""


@dataclass(frozen=True)
class Spec:
    path: str
    architecture: str
    cites: tuple[str, ...]
    tokens: IntTerm  # int, or the name of the symbolic length
    dim: IntTerm
    params: tuple[Param, ...]
    heads: tuple[Head, ...]
    ffn: FFN
    positional: str  # "none" | "absolute"
    layers: Optional[IntTerm]  # the `layers M` budget
    expect: Optional[Expectation]
    target: str = "equivariant"  # the target class: one of TARGETS (docs/theory.md §16)
    mixer: Optional[Convolution] = None  # a token mixer that is not attention (then `heads` is empty)
    source: str = field(default="", compare=False, repr=False)  # the file's text, for reports that quote it

    def param(self, name: str) -> Optional[Param]:
        for p in self.params:
            if p.name == name:
                return p
        return None


def resolve_sizes(obj, values: dict):
    """`obj` (a pattern, a mixer, or a tuple of them) with the integer names in `values` (and "-name")
    replaced by their values wherever they stand for a size."""
    if isinstance(obj, str):
        name, sign = (obj[1:], -1) if obj.startswith("-") else (obj, 1)
        return sign * values[name] if name in values else obj
    if isinstance(obj, tuple):
        return tuple(resolve_sizes(x, values) for x in obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        changes = {f.name: resolve_sizes(getattr(obj, f.name), values) for f in dataclasses.fields(obj) if f.init}
        return dataclasses.replace(obj, **changes)
    return obj
