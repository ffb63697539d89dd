"""The family of a `.uap` file as a numpy network with random parameters.

A layer is the paper's residual block pair: X ↦ X + Σ_h Atten_h(X) W_O^h, then the token-wise FFN
x ↦ x + W_2 σ(W_1 x − b) of a random width with the file's activation σ. Each head has its own
random W_Q, W_K, W_V, W_O (W_K = W_Q under `tie query key`), bias vectors under `affine query key`,
random features w_r, Nyström landmarks, sequence projections E, F, and a score bias B of its class;
`heads H kv G` gives H query heads, each with its own W_Q and W_O, the query heads of one of the G
groups sharing W_K and W_V (grouped-query attention); the pattern's arcs give the mask (position i
always sees itself). Every layer has its own
parameters; the network of m layers is the first m layers of a deeper one, so one forward pass
gives every depth. The file's scalar `param`s are fixed constants, the same in every layer.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Mapping, Optional

import numpy as np

from .. import spec as S
from .evaluate import ACTIVATIONS, FLOAT, Arithmetic, SimulationUnsupported, Value, evaluate

RANDOM_FEATURES = 16
#: Scale of the residual branches: small enough that exponential kernels stay finite over the
#: depths the experiments use, large enough that separations stand far above round-off.
BRANCH_SCALE = 1.0
#: An unnormalised head (a `score`, or a kernel marked `unnormalized`) sums n weights k(q_i, k_j)
#: without dividing by their total, so exponential scores of random W_Q, W_K grow with every layer
#: (e^{q·k} of states that are themselves large) until float64 overflows. Such heads get W_Q, W_K
#: scaled by this factor (scores q·k by its square) and W_O divided by n times the largest fixed
#: weight e^{b(i, j)} or c(i, j); any fixed scaling of the parameters is a network of the family.
UNNORMALISED_QK = 0.5

# Head and spec fields the network models; any other field (a construct added to the language
# after this module) with a non-default value is refused rather than silently ignored.
_HEAD_FIELDS = {"label", "kind", "fn", "params", "expr", "random", "normalize", "nystrom", "pattern",
                "bias", "projection", "tie", "affine", "position", "heads", "sink", "loc"}
#: RoPE's base (Su et al. 2021): coordinate pair k of a d-dimensional query turns by p·ROPE_BASE^(−2k/d) at position p.
ROPE_BASE = 10000.0
_SPEC_FIELDS = {"path", "architecture", "cites", "tokens", "dim", "params", "heads", "ffn", "positional",
                "layers", "expect", "target", "source", "mixer"}  # target: the verdict, not the network; source: text only;
# mixer: the convolution, modelled in `draw_layer` and `Network.forward`


def refuse_unknown(spec: S.Spec) -> None:
    """Exit-2 error for constructs the simulator does not know (never a silent approximation)."""
    for f in dataclasses.fields(spec):
        if f.name not in _SPEC_FIELDS and getattr(spec, f.name) != _default(f):
            raise SimulationUnsupported(f"`{f.name}` is not modelled by the simulator")
    for head in spec.heads:
        for f in dataclasses.fields(head):
            if f.name not in _HEAD_FIELDS and getattr(head, f.name) != _default(f):
                raise SimulationUnsupported(f"the head's `{f.name}` is not modelled by the simulator", head.loc)
        if head.kind not in ("kernel", "features", "score"):
            raise SimulationUnsupported(f"a `{head.kind}` head is not modelled by the simulator", head.loc)
        if head.bias is not None and head.bias not in S.BIAS_KINDS:
            raise SimulationUnsupported(f"the bias kind `{head.bias}` is not modelled by the simulator", head.loc)
    if spec.positional not in ("none", "absolute"):
        raise SimulationUnsupported(f"`positional {spec.positional}` is not modelled by the simulator")
    if spec.ffn.kind not in ("named", "custom", "none") or (
            spec.ffn.kind == "named" and spec.ffn.name not in ACTIVATIONS):
        raise SimulationUnsupported(f"the FFN `{spec.ffn.name or spec.ffn.kind}` is not modelled by the "
                                    "simulator", spec.ffn.loc)


def _default(f: dataclasses.Field):
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
        return f.default_factory()  # type: ignore[misc]
    return object()  # a required field: never equal


def bias_matrix(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """A random B in the class of `kind` (docs/theory.md TD-BIAS): B_ij = β_class(i, j)."""
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    if kind == "free":
        return rng.normal(size=(n, n))
    if kind == "circulant":
        cls = (j - i) % n
    elif kind == "symmetric circulant":
        cls = np.minimum((j - i) % n, (i - j) % n)
    elif kind == "toeplitz":
        cls = j - i + n - 1
    elif kind == "symmetric toeplitz":
        cls = np.abs(j - i)
    else:  # pragma: no cover - refused earlier
        raise SimulationUnsupported(f"the bias kind `{kind}` is not modelled by the simulator")
    beta = rng.normal(size=2 * n)
    return beta[cls]


def bucket_matrix(buckets: int, max_distance: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """A random trainable bias per T5 bucket of the offset j − i (the released bucket function)."""
    from ..rules.positions import t5_bucket
    beta = rng.normal(size=buckets)
    return np.array([[beta[t5_bucket(j - i, buckets, max_distance)] for j in range(n)] for i in range(n)])


def rotate(X, ar, n: int):
    """RoPE: row p (position p + 1) of X turned pair by pair, (x_2k, x_2k+1) by (p + 1)·θ_k,
    θ_k = ROPE_BASE^(−2k/d); an odd last coordinate is left as it is."""
    d = X.shape[1]
    out = X.copy()
    for k in range(d // 2):
        theta = ar.const(ROPE_BASE ** (-2.0 * k / d)) if k else ar.const(1)
        angle = ar.array(np.arange(1, n + 1, dtype=float)) * theta
        c, s = ar.cos(angle), ar.sin(angle)
        a, b = X[:, 2 * k], X[:, 2 * k + 1]
        out[:, 2 * k] = a * c - b * s
        out[:, 2 * k + 1] = a * s + b * c
    return out


@dataclass(frozen=True)
class Model:
    """What the network needs from the (concrete) spec."""
    spec: S.Spec
    n: int
    d: int
    masks: tuple[Optional[np.ndarray], ...]  # per head: mask[i, j] = query i sees key j (None: full)
    constants: Mapping[str, float]  # the file's scalar params
    #: per-layer patterns (docs/theory.md §21): layer_masks[q][k] is head k's mask in layer q + 1 of the
    #: period (layer ℓ uses q = (ℓ − 1) mod len); None: every layer uses `masks`
    layer_masks: Optional[tuple[tuple[Optional[np.ndarray], ...], ...]] = None

    def mask(self, k: int, layer_index: int) -> Optional[np.ndarray]:
        """Head k's mask in layer layer_index + 1."""
        if self.layer_masks is None:
            return self.masks[k]
        return self.layer_masks[layer_index % len(self.layer_masks)][k]

    @property
    def heads(self) -> tuple[S.Head, ...]:
        return self.spec.heads


@dataclass
class HeadParams:
    WQ: np.ndarray
    WK: np.ndarray
    WV: np.ndarray
    WO: np.ndarray
    bQ: np.ndarray
    bK: np.ndarray
    features: Optional[np.ndarray] = None  # (R, d) random vectors w_r
    landmarks: Optional[np.ndarray] = None  # (M, d) Nyström landmarks
    E: Optional[np.ndarray] = None
    F: Optional[np.ndarray] = None
    B: Optional[np.ndarray] = None
    #: `heads H kv G`: the H query heads (each a HeadParams; those of one group hold the same W_K, W_V
    #: arrays); None: one head, these matrices
    query_heads: Optional[list["HeadParams"]] = None
    #: `sink logit`: the logit b whose exp(b) joins the normaliser (drawn per query head when learned); None: no sink
    sink: Optional[float] = None


@dataclass
class LayerParams:
    heads: list[HeadParams]
    W1: Optional[np.ndarray]
    b1: Optional[np.ndarray]
    W2: Optional[np.ndarray]
    taps: Optional[np.ndarray] = None  # a `convolution` mixer: ψ_k per tap (docs/theory.md §22)


@dataclass
class HeadTrace:
    """The row normalisers of one head in one layer (for the well-posedness experiment)."""
    denominators: np.ndarray  # Σ_j weights_ij (row sums), or None for unnormalised heads
    magnitudes: np.ndarray  # Σ_j |weights_ij|


def draw_layer(model: Model, rng: np.random.Generator, depth: int) -> LayerParams:
    d, n = model.d, model.n
    scale = BRANCH_SCALE / max(1.0, np.sqrt(depth))
    heads = []
    for head in model.heads:
        hp = _draw_projections(head, d, scale / np.sqrt(len(model.heads)), rng)
        if head.random:
            hp.features = rng.normal(size=(RANDOM_FEATURES, d))
        if head.nystrom:
            hp.landmarks = rng.normal(size=(head.nystrom, d))
        if head.projection:
            k = head.projection.size
            hp.E = rng.normal(size=(k, n)) / np.sqrt(n)
            hp.F = rng.normal(size=(k, n)) / np.sqrt(n)
        if head.bias:
            hp.B = bias_matrix(head.bias, n, rng) / 2
        if head.position is not None and head.position.kind == "buckets":
            hp.B = bucket_matrix(head.position.buckets, head.position.max_distance, n, rng) / 2
        if not head.normalized:
            largest = _largest_fixed_weight(model, head, hp)
            for sub in hp.query_heads or (hp,):
                sub.WO = sub.WO / (n * largest)
        for sub in hp.query_heads or ():  # the query heads share the head's features, landmarks, E, F, B
            sub.features, sub.landmarks, sub.E, sub.F, sub.B = hp.features, hp.landmarks, hp.E, hp.F, hp.B
        heads.append(hp)
    conv = model.spec.mixer
    taps = None if conv is None else rng.normal(size=len(conv_taps(conv))) * scale
    if model.spec.ffn.kind == "none":
        return LayerParams(heads, None, None, None, taps)
    width = int(rng.integers(d + 2, 4 * d + 9))
    W1 = rng.normal(size=(width, d)) / np.sqrt(d)
    b1 = rng.normal(size=width)
    W2 = rng.normal(size=(d, width)) / np.sqrt(width) * scale
    return LayerParams(heads, W1, b1, W2, taps)


def _draw_projections(head: S.Head, d: int, out_scale: float, rng: np.random.Generator) -> HeadParams:
    """W_Q, W_K, W_V, W_O (and the affine biases) of one head; under `heads H kv G`, H query heads
    in G groups, the query heads of a group sharing W_K, W_V (and b_K), each with its own W_Q, W_O."""
    qk = 1.0 if head.normalized else UNNORMALISED_QK
    zeros = np.zeros(d)

    def key_value():
        WK = rng.normal(size=(d, d)) / np.sqrt(d) * qk
        WV = rng.normal(size=(d, d)) / np.sqrt(d)
        bK = rng.normal(size=d) / 2 if head.affine else zeros
        return WK, WV, bK

    def one(shared, out):
        WQ = rng.normal(size=(d, d)) / np.sqrt(d) * qk
        WK, WV, bK = shared if shared is not None else key_value()
        if head.tie:
            WK = WQ
        WO = rng.normal(size=(d, d)) / np.sqrt(d) * out
        bQ = rng.normal(size=d) / 2 if head.affine else zeros
        sink = None if head.sink is None else float(rng.normal()) if head.sink.learned else float(head.sink.value)
        return HeadParams(WQ, WK, WV, WO, bQ, bK, sink=sink)

    if head.heads is None:
        return one(None, out_scale)
    count, groups = head.heads
    shared = [key_value() for _ in range(groups)]
    per_group = count // groups
    subs = [one(shared[q // per_group], out_scale / np.sqrt(count)) for q in range(count)]
    first = subs[0]
    return HeadParams(first.WQ, first.WK, first.WV, first.WO, first.bQ, first.bK, query_heads=subs, sink=first.sink)


def _largest_fixed_weight(model: Model, head: S.Head, hp: HeadParams) -> float:
    """The largest fixed factor of an unnormalised head's weights: e^{B_ij} of a bias class,
    e^{b(i, j)} of a fixed bias, |c(i, j)| of a reweighting (1 when there is none, or when the
    formula cannot be evaluated here: the forward pass reports that itself)."""
    largest = 1.0
    if hp.B is not None:
        largest = max(largest, float(np.max(np.exp(hp.B))))
    pos = head.position
    if pos is not None and pos.kind in ("bias", "reweight"):
        try:
            fixed = np.asarray(Network.position_values(model, pos, FLOAT), dtype=float)
        except (SimulationUnsupported, ArithmeticError, TypeError, ValueError):
            return largest
        with np.errstate(over="ignore", invalid="ignore"):
            values = np.exp(fixed) if pos.kind == "bias" else np.abs(fixed)
        if np.all(np.isfinite(values)) and values.size:
            largest = max(largest, float(np.max(values)))
    return largest


def conv_taps(conv: S.Convolution) -> tuple[int, ...]:
    """The integer taps of a concrete `convolution` mixer."""
    if conv.span is not None:
        if not isinstance(conv.span, int):
            raise SimulationUnsupported("the convolution's span l needs a value")
        return tuple(range(conv.span + 1))
    return tuple(int(t) for t in conv.taps)


def _scalar_body(head: S.Head) -> S.Expr:
    """The formula of a kernel or score head (only a feature map is ever a list of components)."""
    if isinstance(head.expr, S.FeatureList):
        raise SimulationUnsupported("a kernel or score is one scalar, not a list", head.loc)
    return head.expr


def _constants(model: Model, ar: Arithmetic) -> dict:
    """The model's named constants as scalar values of the arithmetic `ar`."""
    return {name: Value(ar.array(ar.const(v)), False) for name, v in model.constants.items()}


class Network:
    """A `depth`-layer network of the family with random parameters (and a random positional
    encoding under `positional absolute`)."""

    def __init__(self, model: Model, rng: np.random.Generator, depth: int):
        self.model = model
        self.depth = depth
        self.layers = [draw_layer(model, rng, depth) for _ in range(depth)]
        self.encoding = rng.normal(size=(model.n, model.d)) if model.spec.positional == "absolute" else None

    # -- one head --------------------------------------------------------------------------------
    def _pairwise(self, head: S.Head, body, Q, K, ar: Arithmetic) -> Value:
        """The expression `body` in the head's two names at every pair (q_i, k_j): shape (n, m) once broadcast."""
        xq, yk = head.params
        return evaluate(body, dict(_constants(self.model, ar), **{xq: Value(Q[:, None, :], True),
                                                                  yk: Value(K[None, :, :], True)}), ar)

    def _kernel(self, head: S.Head, hp: HeadParams, Q, K, ar: Arithmetic):
        """The weight matrix k(q_i, k_j) (queries Q: (n, d), keys K: (m, d)) → (n, m)."""
        if head.kind in ("kernel", "score"):
            w = self._pairwise(head, _scalar_body(head), Q, K, ar)
            if w.vector:
                raise SimulationUnsupported("the kernel is not a scalar", head.loc)
            return np.broadcast_to(w.array, (Q.shape[0], K.shape[0]))
        consts = _constants(self.model, ar)
        (xname,) = head.params
        if head.random:
            W = ar.array(hp.features)
            fq = self._feature(head, dict(consts, **{xname: Value(Q[:, None, :], True),
                                                      head.random: Value(W[None, :, :], True)}), ar,
                               (Q.shape[0], W.shape[0]))
            fk = self._feature(head, dict(consts, **{xname: Value(K[:, None, :], True),
                                                      head.random: Value(W[None, :, :], True)}), ar,
                               (K.shape[0], W.shape[0]))
        else:
            fq = self._feature(head, dict(consts, **{xname: Value(Q, True)}), ar, None)
            fk = self._feature(head, dict(consts, **{xname: Value(K, True)}), ar, None)
        return fq @ fk.T

    def _position_matrix(self, head: S.Head, ar: Arithmetic):
        """The fixed b(i, j) or c(i, j) of the head at every pair of positions (1-based)."""
        return Network.position_values(self.model, head.position, ar)

    @staticmethod
    def position_values(model: Model, pos, ar: Arithmetic):
        """The values of a fixed position term b(i, j) or c(i, j) on the n × n grid of positions."""
        n = model.n
        grid = np.arange(1, n + 1, dtype=float)
        consts = _constants(model, ar)
        pi = ar.const(getattr(getattr(ar, "mp", None), "pi", np.pi))
        env = dict(consts, pi=Value(ar.array(pi), False),
                   **{pos.names[0]: Value(ar.array(grid)[:, None], False),
                      pos.names[1]: Value(ar.array(grid)[None, :], False)})
        value = evaluate(pos.expr, env, ar)
        if value.vector:
            raise SimulationUnsupported("a position term is a scalar", pos.loc)
        return np.broadcast_to(value.array, (n, n))

    def _masked_kernel(self, head: S.Head, hp: HeadParams, Q, K, mask: np.ndarray, ar: Arithmetic):
        """The same weights, evaluated only on the pattern's pairs (slow arithmetics: a sparse
        pattern then costs its arcs, not n²); the other entries are 0, as the mask makes them."""
        rows, cols = np.nonzero(mask)
        pairs = self._kernel_pairs(head, Q[rows], K[cols], ar)
        weights = np.full(mask.shape, ar.const(0), dtype=object)
        weights[rows, cols] = pairs
        return weights

    def _kernel_pairs(self, head: S.Head, Qp, Kp, ar: Arithmetic):
        consts = _constants(self.model, ar)
        xq, yk = head.params
        w = evaluate(_scalar_body(head), dict(consts, **{xq: Value(Qp, True), yk: Value(Kp, True)}), ar)
        if w.vector:
            raise SimulationUnsupported("the kernel is not a scalar", head.loc)
        return np.broadcast_to(w.array, (Qp.shape[0],))

    @staticmethod
    def _feature(head: S.Head, env, ar, shape):
        body = head.expr
        if isinstance(body, S.FeatureList):  # the components side by side: Σ_c φ_c(x)·φ_c(y) in fq @ fk.T
            return np.concatenate([Network._component(head, item, env, ar, shape) for item in body.items], axis=-1)
        return Network._component(head, body, env, ar, shape)

    @staticmethod
    def _component(head: S.Head, body: S.Expr, env, ar, shape):
        phi = evaluate(body, env, ar)
        if shape is not None:  # random features: one scalar per (token, w_r)
            if phi.vector:
                raise SimulationUnsupported("a random feature must be a scalar", head.loc)
            return np.broadcast_to(phi.array, shape)
        if phi.vector:
            return phi.array
        n = env[head.params[0]].array.shape[0]
        return np.broadcast_to(phi.array, (n,))[:, None]  # a scalar feature map: one feature

    def head_output(self, k: int, hp: HeadParams, X, ar: Arithmetic, trace: Optional[list] = None,
                    layer_index: int = 0):
        """Head k's contribution Σ_q Atten_q(X) W_O^q over its query heads (one without `heads H kv G`);
        the trace records the first query head's normalisers."""
        if hp.query_heads is None:
            return self._one_head_output(k, hp, X, ar, trace, layer_index)
        out = None
        for index, sub in enumerate(hp.query_heads):
            part = self._one_head_output(k, sub, X, ar, trace if index == 0 else None, layer_index)
            out = part if out is None else out + part
        return out

    def _one_head_output(self, k: int, hp: HeadParams, X, ar: Arithmetic, trace: Optional[list] = None,
                         layer_index: int = 0):
        head = self.model.heads[k]
        layer_mask = self.model.mask(k, layer_index)
        WQ, WK, WV = ar.array(hp.WQ), ar.array(hp.WK), ar.array(hp.WV)
        Q = X @ WQ.T + ar.array(hp.bQ)
        K = X @ WK.T + ar.array(hp.bK)
        V = X @ WV.T
        if head.position is not None and head.position.kind == "rotary":
            Q, K = rotate(Q, ar, Q.shape[0]), rotate(K, ar, K.shape[0])
        if hp.E is not None:
            K = ar.array(hp.E) @ K
            V = ar.array(hp.F) @ V
        if hp.landmarks is not None:
            Z = ar.array(hp.landmarks)
            kqz = self._kernel(head, hp, Q, Z, ar)
            kzz = self._kernel(head, hp, Z, Z, ar)
            kzk = self._kernel(head, hp, Z, K, ar)
            weights = kqz @ ar.pinv(kzz) @ kzk
        elif layer_mask is not None and ar.name != "float64" and head.kind in ("kernel", "score"):
            weights = self._masked_kernel(head, hp, Q, K, layer_mask, ar)
        else:
            weights = self._kernel(head, hp, Q, K, ar)
        if hp.B is not None:
            weights = weights * ar.exp(ar.array(hp.B))
        if head.position is not None and head.position.kind in ("bias", "reweight"):
            fixed = self._position_matrix(head, ar)
            weights = weights * (ar.exp(fixed) if head.position.kind == "bias" else fixed)
        mask = layer_mask
        if mask is not None:
            weights = ar.where(mask, weights, ar.const(0))
        if head.normalized and hp.landmarks is None and ar.name == "float64" and not np.all(np.isfinite(weights)):
            rescued = self._log_domain_output(head, hp, Q, K, V, mask, ar, trace)
            if rescued is not None:
                return rescued @ ar.array(hp.WO).T
        out = weights @ V
        if head.normalized:
            den = weights.sum(axis=1)
            if hp.sink is not None:  # the sink logit's column, dropped from the output: exp(b) + Σ_l k(q_i, k_l)
                den = den + ar.exp(ar.const(hp.sink))
            if trace is not None:
                trace.append(HeadTrace(den, ar.abs(weights).sum(axis=1)))
            out = out / den[:, None]
        elif trace is not None:
            trace.append(HeadTrace(None, ar.abs(weights).sum(axis=1)))
        return out @ ar.array(hp.WO).T

    def _log_domain_output(self, head: S.Head, hp: HeadParams, Q, K, V, mask, ar: Arithmetic,
                           trace: Optional[list]):
        """A normalised head whose kernel is exp(E) and whose weights overflowed float64: the same output
        Σ_j e^{L_ij} v_j / Σ_j e^{L_ij} (L = E plus the log of each fixed factor) computed as
        Σ_j e^{L_ij − m_i} v_j / Σ_j e^{L_ij − m_i} with m_i = max_j L_ij, an exact identity, so a double
        exponential such as exp(exp((q·k)²)) stays finite wherever its exponent E does. None when the kernel is
        not exp(E), a fixed factor is not a positive exponential, or the exponents themselves overflow."""
        body = head.expr
        if (head.kind != "kernel" or not isinstance(body, S.Call) or body.fn != "exp" or len(body.args) != 1
                or hp.E is not None or (head.position is not None and head.position.kind == "reweight")):
            return None
        exponent = self._pairwise(head, body.args[0], Q, K, ar)
        if exponent.vector:
            return None
        logits = np.array(np.broadcast_to(exponent.array, (Q.shape[0], K.shape[0])), dtype=float)
        if hp.B is not None:
            logits = logits + np.asarray(hp.B, dtype=float)
        if head.position is not None and head.position.kind == "bias":
            logits = logits + np.asarray(self._position_matrix(head, ar), dtype=float)
        if mask is not None:
            logits = np.where(mask, logits, -np.inf)
        if np.isnan(logits).any() or np.isposinf(logits).any():
            return None  # an exponent itself overflowed (+inf or nan): nothing exact to rescue
        top = logits.max(axis=1)
        if hp.sink is not None:
            top = np.maximum(top, float(hp.sink))
        scaled = np.exp(logits - top[:, None])
        den = scaled.sum(axis=1)
        if hp.sink is not None:
            den = den + np.exp(float(hp.sink) - top)
        if trace is not None:
            trace.append(HeadTrace(np.exp(top) * den, np.exp(top) * scaled.sum(axis=1)))
        return (scaled @ V) / den[:, None]

    # -- the network -------------------------------------------------------------------------------
    def forward(self, X: np.ndarray, depth: Optional[int] = None, ar: Arithmetic = FLOAT,
                traces: Optional[list] = None) -> list[np.ndarray]:
        """The states after 0, 1, ..., depth layers (state 0 is the input plus the encoding)."""
        depth = self.depth if depth is None else depth
        if depth > self.depth:
            raise ValueError(f"the network has {self.depth} layers, not {depth}")
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            state = ar.array(X)
            if self.encoding is not None:
                state = state + ar.array(self.encoding)
            states = [state]
            for index, layer in enumerate(self.layers[:depth]):
                trace: Optional[list] = [] if traces is not None else None
                attn = None
                for k, hp in enumerate(layer.heads):
                    out = self.head_output(k, hp, state, ar, trace, index)
                    attn = out if attn is None else attn + out
                if layer.taps is not None:  # [g(X)]_i = Σ_k ψ_k x_{(i + k) mod n}
                    for tap, psi in zip(conv_taps(self.model.spec.mixer), layer.taps):
                        out = np.roll(state, -tap, axis=0) * ar.const(psi)
                        attn = out if attn is None else attn + out
                state = state + attn
                if layer.W1 is not None:
                    state = state + self._ffn(state, layer, ar)
                states.append(state)
                if traces is not None:
                    traces.append(trace)
        return states

    def _ffn(self, X, layer: LayerParams, ar: Arithmetic):
        pre = X @ ar.array(layer.W1).T - ar.array(layer.b1)
        ffn = self.model.spec.ffn
        if ffn.kind == "named":
            act = ACTIVATIONS[ffn.name](ar, pre)
        else:
            consts = _constants(self.model, ar)
            act = evaluate(ffn.expr, dict(consts, **{ffn.var: Value(pre, False)}), ar)
            if act.vector:
                raise SimulationUnsupported("the FFN activation is not a scalar", ffn.loc)
            act = np.broadcast_to(act.array, pre.shape)
        return act @ ar.array(layer.W2).T
