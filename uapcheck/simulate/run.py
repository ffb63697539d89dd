"""Run the experiments that show a file's verdict numerically.

The derivation is made (or re-made) for the concrete size simulated: a symbolic `tokens n` becomes
`--tokens` (8 by default), a symbolic `dim` becomes 3, integer `param`s take their lower bound (at
least 1) and scalar `param`s a random admissible value. The experiments then read the derivation's
certificates from its steps (the view witness of PAT-LAYERS, the receptive-field pair of
PAT-DISCONNECTED or PAT-BUDGET, the realising pair of PAT-CONNECTED, the group of SYM-AUT or
SYM-DENSE) and test what each one says on random networks of the family.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from .. import spec as S
from .evaluate import SimulationUnsupported
from .experiments import (Demonstration, GroupOracle, Lab, ill_posed, judged, prefix_rearrangement, reach_and_distance,
                          receptive_field, receptive_separation, separation, view_witness, witness_pair)
from .network import Model, Network, refuse_unknown

DEFAULT_TOKENS = 8
DEFAULT_DIM = 3
MAX_TOKENS = 256
MAX_DIM = 64
MAX_LAYERS = 64
MAX_WIDTH = 1024  # Nyström landmarks, projection rows and convolution taps the simulator builds (arrays of that many rows)
ILL_POSED_NETWORKS = 4
WITNESS_NETWORKS = 4


@dataclass(frozen=True)
class Options:
    seed: int = 0
    samples: int = 4
    layers: Optional[int] = None  # the depth of the separation experiment (default: the derived count)
    tokens: Optional[int] = None  # n when the file leaves it symbolic
    causal: bool = False  # also run the prefix-rearrangement experiment


@dataclass
class Simulation:
    path: str
    architecture: str
    verdict: str
    n: int
    d: int
    seed: int
    samples: int
    instance: dict  # the values chosen for the file's symbolic quantities
    derived: str  # the derivation at the simulated size, in one line
    demonstrations: list[Demonstration] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def consistent(self) -> bool:
        """No demonstration contradicts the verdict."""
        return all(d.holds is not False for d in self.demonstrations)


# ---------------------------------------------------------------------------------------------
# The concrete instance

def _scalar_value(p: S.Param, rng: np.random.Generator) -> float:
    if p.constraint in ("> 0", ">= 0"):
        return float(rng.uniform(0.5, 1.5))
    if p.constraint == "!= 0":
        return float(rng.choice([-1.0, 1.0]) * rng.uniform(0.5, 1.5))
    return float(rng.normal())


def _causal_one_layer(result) -> bool:
    """The derivation says one layer suffices for causal targets (positions in the weights, §14.11)."""
    ev = _evidence(result, "TGT-POSITIONS")
    return bool(ev) and ev.get("route") == "one layer"


def _row_collision(result) -> Optional[tuple[int, int, int]]:
    """(i, l, l′): keys of row i with equal labels in every head (TGT-POSITIONS), for the prefix experiment."""
    ev = _evidence(result, "TGT-POSITIONS")
    w = ev.get("witness") if ev else None
    if isinstance(w, dict) and isinstance(w.get("position"), int) and isinstance(w.get("swap"), list) \
            and all(isinstance(x, int) for x in w["swap"]):
        return (w["position"], *w["swap"])
    return None


def instantiate(spec: S.Spec, options: Options, rng: np.random.Generator) -> tuple[S.Spec, dict, dict]:
    """(the concrete spec, the scalar constants, the chosen values to report)."""
    if isinstance(spec.tokens, int):
        if options.tokens is not None and options.tokens != spec.tokens:
            raise SimulationUnsupported(f"the file fixes `tokens {spec.tokens}`; --tokens {options.tokens} "
                                        "would simulate another family")
        n = spec.tokens
    else:
        n = options.tokens if options.tokens is not None else DEFAULT_TOKENS
    if not 1 <= n <= MAX_TOKENS:
        raise SimulationUnsupported(f"simulate runs at 1 ≤ n ≤ {MAX_TOKENS} tokens, not n = {n}")
    d = spec.dim if isinstance(spec.dim, int) else DEFAULT_DIM
    if not 1 <= d <= MAX_DIM:
        raise SimulationUnsupported(f"simulate runs at token dimension 1 ≤ d ≤ {MAX_DIM}, not d = {d}")
    chosen: dict = {}
    if not isinstance(spec.tokens, int):
        chosen[spec.tokens] = n
    if not isinstance(spec.dim, int):
        chosen[spec.dim] = d
    ints = {p.name: max(p.lower if p.lower is not None else 1, 1) for p in spec.params if p.constraint == "integer"}
    chosen.update(ints)
    constants = {}
    for p in spec.params:
        constants[p.name] = float(ints[p.name]) if p.name in ints else _scalar_value(p, rng)
        if p.name not in ints:
            chosen[p.name] = round(constants[p.name], 6)
    values = dict(ints)
    if isinstance(spec.tokens, str):
        values[spec.tokens] = n
        constants[spec.tokens] = float(n)  # a position formula may name n (cosFormer's c(i, j))
    heads = tuple(dataclasses.replace(h, pattern=S.resolve_sizes(h.pattern, values)) for h in spec.heads)
    layers = spec.layers
    if isinstance(layers, str):
        layers = values.get(layers, layers)
    mixer = S.resolve_sizes(spec.mixer, values) if spec.mixer is not None else None
    _check_widths(heads, mixer)
    concrete = dataclasses.replace(spec, tokens=n, dim=d, heads=heads, layers=layers, expect=None, mixer=mixer)
    return concrete, constants, chosen


def _check_widths(heads, mixer) -> None:
    """The sizes the simulator turns into arrays, within MAX_WIDTH (`nystrom landmarks 999999999` allocated
    10⁹ × d landmarks: a MemoryError, or minutes of work)."""
    for head in heads:
        if head.nystrom and head.nystrom > MAX_WIDTH:
            raise SimulationUnsupported(f"simulate builds at most {MAX_WIDTH} Nyström landmarks, not {head.nystrom}",
                                        head.loc)
        if head.projection and head.projection.size > MAX_WIDTH:
            raise SimulationUnsupported(f"simulate builds projections to at most {MAX_WIDTH} rows, not "
                                        f"{head.projection.size}", head.loc)
    span = mixer.span if mixer is not None else None
    if isinstance(span, int) and span >= MAX_WIDTH:
        raise SimulationUnsupported(f"simulate builds at most {MAX_WIDTH} convolution taps, not {span + 1}", mixer.loc)


def _masks(spec: S.Spec) -> tuple:
    n, out = spec.tokens, []
    for head in spec.heads:
        if isinstance(head.pattern, S.Full):
            out.append(None)
            continue
        if isinstance(head.pattern, S.PatternSequence):
            raise SimulationUnsupported("per-layer patterns (`pattern sequence/periodic`) are not modelled by the "
                                        "simulator", head.loc)
        out.append(_pattern_mask(head.pattern, n, head))
    return tuple(out)


def _pattern_mask(pattern, n: int, head):
    """The boolean mask [query, key] of one head's pattern at n (every position attends to itself)."""
    from ..graphs import build_graph
    try:
        graph = build_graph(pattern, n, {})
    except (ValueError, KeyError, TypeError) as exc:
        raise SimulationUnsupported(f"the pattern cannot be built at n = {n}: {exc}", head.loc) from None
    mask = np.eye(n, dtype=bool)
    if graph.complete:
        mask[:] = True
    else:
        for j, i in graph.arcs():
            mask[i - 1, j - 1] = True
    return mask


# ---------------------------------------------------------------------------------------------
# Reading the derivation

def _layer_masks(spec: S.Spec):
    """Per-layer patterns: (the masks of layers 1..p per head, the depth of a finite sequence or None);
    (None, None) without them."""
    if not any(isinstance(h.pattern, S.PatternSequence) for h in spec.heads):
        return None, None
    from ..rules.layers import layer_patterns
    per_layer, periodic = layer_patterns(spec)
    n, out = spec.tokens, []
    for pats in per_layer:
        row = []
        for head, pat in zip(spec.heads, pats):
            if isinstance(pat, S.Full):
                row.append(None)
                continue
            row.append(_pattern_mask(pat, n, head))
        out.append(tuple(row))
    return tuple(out), (None if periodic else len(per_layer))


def _evidence(result, rule: str) -> Optional[dict]:
    for step in result.root.walk():
        if step.rule == rule:
            return dict(step.evidence)
    return None


def _budget_witness(result) -> Optional[tuple[int, list[int], int]]:
    """The witness of a PAT-BUDGET-WITNESS step (its depth is the budget), as `_view_witness` reads it."""
    return _view_witness(result, ("PAT-BUDGET-WITNESS",))


def _view_witness(result, rules=("PAT-LAYERS", "SEQ-LAYERS", "BIAS-LAYERS")) -> Optional[tuple[int, list[int], int]]:
    ev = next((e for e in (_evidence(result, r) for r in rules) if e), None)
    if not ev or not isinstance(ev.get("view witness"), dict):
        return None
    w = ev["view witness"]
    n = result.spec.tokens
    try:
        position, depth = int(w["position"]), int(w.get("diameter", w.get("depth", ev.get("diameter"))))
        if "swap" in w:
            a, b = (int(x) for x in w["swap"])
            images = list(range(1, n + 1))
            images[a - 1], images[b - 1] = b, a
        elif "permutation" in w:
            images = [int(x) for x in w["permutation"]]
        else:
            return None
    except (KeyError, TypeError, ValueError):
        return None
    if sorted(images) != list(range(1, n + 1)) or not 1 <= position <= n:
        return None
    return position, images, depth


def _realising_pair(result) -> Optional[tuple[int, int, int]]:
    """(i, j, D): x_j needs D hops to reach i (PAT-CONNECTED), or D layers (SEQ-CONNECTED, CONV-REACH)."""
    for rule, depth_key in (("SEQ-CONNECTED", "D_Φ"), ("CONV-REACH", "D")):
        ev = _evidence(result, rule)
        if ev and isinstance(ev.get("not within D − 1"), dict):
            try:
                r = ev["not within D − 1"]
                return int(r["i"]), int(r["j"]), int(ev[depth_key])
            except (KeyError, TypeError, ValueError):
                return None
    ev = _evidence(result, "PAT-CONNECTED")
    if not ev or not isinstance(ev.get("realised by"), dict):
        return None
    try:
        r = ev["realised by"]
        return int(r["to i"]), int(r["from j"]), int(ev["diameter"])
    except (KeyError, TypeError, ValueError):
        return None


def _witness_samples(result) -> Optional[tuple[list[int], list[int]]]:
    """The two samples of a refuted TD-WITNESS step (integers along a line), for the witness experiment."""
    for step in result.root.walk():
        if step.rule == "TD-WITNESS" and step.status.value == "refuted":
            X, Y = step.evidence.get("X"), step.evidence.get("X′")
            if isinstance(X, list) and isinstance(Y, list) and len(X) == len(Y) and \
                    all(isinstance(v, int) for v in X + Y):
                return list(X), list(Y)
    return None


def _pair(witness) -> Optional[tuple[int, int]]:
    try:
        return int(witness["i"]), int(witness["j"])
    except (KeyError, TypeError, ValueError):
        return None


def _has_causal(pattern) -> bool:
    if isinstance(pattern, S.Causal):
        return True
    if isinstance(pattern, S.PatternUnion):
        return any(_has_causal(p) for p in pattern.parts)
    return False


# ---------------------------------------------------------------------------------------------

def _derived_line(result) -> str:
    g = result.group
    target = getattr(result.spec, "target", "equivariant")
    if target != "equivariant":  # a verdict for causal or receptive targets states no group
        parts = [f"{result.verdict} for {target} targets"]
        if result.verdict == "UAP" and result.layers is not None:
            parts.append(f"{result.layers} attention layer{'s' if result.layers != 1 else ''}")
        return " · ".join(parts)
    parts = [result.verdict]
    if result.verdict == "UAP":
        if g is not None:
            parts.append(f"G = {g.name or f'a group of order {g.order}'}")
        if result.layers is not None:
            kind = "convolution" if result.spec.mixer is not None else "attention"
            parts.append(f"{result.layers} {kind} layer{'s' if result.layers != 1 else ''}")
    return " · ".join(parts)


def simulate(spec: S.Spec, result=None, options: Options = Options()) -> Simulation:  # noqa: C901 - one step per experiment, each optional; to be split
    """Run the experiments for `spec`; `result` is its derivation when already made (it is re-made
    when the simulated instance differs from the file)."""
    start = time.perf_counter()
    refuse_unknown(spec)
    if options.samples < 1 or options.samples > 64:
        raise SimulationUnsupported("--samples takes a value from 1 to 64")
    if options.layers is not None and not 1 <= options.layers <= MAX_LAYERS:
        raise SimulationUnsupported(f"--layers takes a value from 1 to {MAX_LAYERS}")
    rng = np.random.default_rng(options.seed)
    concrete, constants, chosen = instantiate(spec, options, rng)
    if result is None or concrete != dataclasses.replace(spec, expect=None):
        from ..derive import check_spec
        result = check_spec(concrete)
    layer_masks, finite_depth = _layer_masks(concrete)
    masks = layer_masks[0] if layer_masks else _masks(concrete)
    model = Model(concrete, concrete.tokens, concrete.dim, masks, constants, layer_masks)
    n = model.n

    plan = []  # (experiment, depth needed)
    verdict = result.verdict
    group = GroupOracle(result.group, n)
    witness = _view_witness(result)
    target = getattr(concrete, "target", "equivariant")
    if target != "equivariant":
        # Causal or receptive targets (docs/theory.md §14): Definition 3 in receptive form.
        m = options.layers or (result.layers if isinstance(result.layers, int) else 2)
        plan.append(("receptive", m))
        if verdict == "UAP" and isinstance(result.layers, int) and result.layers >= 2:
            plan.append(("radius", result.layers))
        if target == "causal" or any(_has_causal(h.pattern) for h in concrete.heads):
            plan.append(("prefix", 2))
    elif verdict == "UAP" and isinstance(result.layers, int):
        m = options.layers or result.layers
        plan.append(("separation", m))
        if witness:
            plan.append(("view", witness[2] + 1))
        pair = _realising_pair(result)
        if pair and pair[2] == result.layers and pair[2] >= 2:
            plan.append(("least", pair[2]))
    elif verdict == "NOT-UAP":
        dis = (_evidence(result, "PAT-DISCONNECTED") or _evidence(result, "SEQ-DISCONNECTED")
               or _evidence(result, "CONV-DISCONNECTED"))
        bud = _evidence(result, "PAT-BUDGET")
        refuted = _budget_witness(result)  # a budget a view witness defeats (PAT-BUDGET-WITNESS)
        if refuted:
            plan.append(("budget view", refuted[2] + 1))
        elif dis and _pair(dis.get("witness")):
            within = dis.get("within layers")  # per-layer patterns and convolutions: within a depth only
            default = min(max(n, 2), 4) if not isinstance(within, int) else within
            plan.append(("disconnected", options.layers or default))
        elif bud and isinstance(bud.get("witness"), dict) and _pair(bud["witness"]):
            dist = bud["witness"].get("distance from j to i")
            plan.append(("budget", int(dist) if isinstance(dist, int) else int(bud["budget"])))
    elif verdict == "ILL-POSED":
        plan.append(("ill", 1))
    elif verdict == "INCONCLUSIVE":
        ev = _evidence(result, "PAT-LAYERS")
        m = options.layers or (int(ev["layers"]) if ev and isinstance(ev.get("layers"), int) else 1)
        plan.append(("evidence", m))
    if ("prefix", 2) not in plan and (options.causal or (
            verdict == "NOT-UAP" and any(_has_causal(h.pattern) for h in concrete.heads))):
        plan.append(("prefix", 2))
    if _witness_samples(result) is not None:  # the pair TD-WITNESS cites: equal one-layer outputs at position 1
        plan.append(("witness", 1))
    if finite_depth is not None:  # a finite sequence has no layers beyond its own
        plan = [(kind, min(d, finite_depth)) if kind == "disconnected" else (kind, d) for kind, d in plan
                if kind == "disconnected" or d <= finite_depth]
    depth = max([d for _, d in plan] + [1])
    if depth > MAX_LAYERS:
        raise SimulationUnsupported(f"the experiment needs {depth} layers (at most {MAX_LAYERS} are simulated)")
    net = Network(model, rng, depth)
    lab = Lab(net, rng, options.samples)
    demos: list[Demonstration] = []
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is judged (experiments.judged), not warned
        for kind, need in plan:
            if kind == "separation":
                enough = need >= result.layers  # fewer layers than derived: nothing is predicted
                demos.append(separation(lab, need, group, enough, f"{need}-layer token distinguishing" if enough
                                        else f"separated with fewer layers than the derived {result.layers} "
                                             "(no prediction)"))
            elif kind == "evidence":
                demos.append(separation(lab, need, group, False, "separated (evidence only: the verdict is open)"))
            elif kind == "view":
                position, images, d = witness
                demos.append(view_witness(lab, position, images, d))
            elif kind == "budget view":
                position, images, d = _budget_witness(result)
                demos.append(view_witness(lab, position, images, d))
            elif kind == "least":
                i, j, d = _realising_pair(result)
                demos.append(receptive_field(lab, i, j, [d - 1], d, f"x_{j} is {d} hops from position {i}, so "
                                             f"{d - 1} layers are not enough"))
            elif kind == "disconnected":
                i, j = _pair(dis["witness"])
                demos.append(receptive_field(lab, i, j, list(range(1, need + 1)), None,
                                             f"x_{j} never reaches position {i}"))
            elif kind == "budget":
                bud = _evidence(result, "PAT-BUDGET")
                i, j = _pair(bud["witness"])
                budget = int(bud["budget"])
                demos.append(receptive_field(lab, i, j, [budget], need if need > budget else None,
                                             f"the budget is {budget} layers"))
            elif kind == "ill":
                nets = [net] + [Network(model, rng, 1) for _ in range(ILL_POSED_NETWORKS - 1)]
                demos.append(ill_posed(lab, nets))
            elif kind == "receptive":
                predicted = verdict == "UAP" and isinstance(result.layers, int) and need >= result.layers
                demos.append(receptive_separation(lab, need, predicted, f"{need}-layer token distinguishing for "
                                                  f"{target} targets" if predicted else "evidence only (no prediction)"))
            elif kind == "radius":
                _, dist = reach_and_distance(lab)
                radius = int(dist.max())
                if radius == need:  # the least count is the receptive radius: one layer fewer misses a token
                    i, j = (int(x) + 1 for x in np.argwhere(dist == radius)[0])
                    demos.append(receptive_field(lab, i, j, [radius - 1], radius, f"x_{j} is {radius} hops from "
                                                 f"position {i}, so {radius - 1} layers are not enough"))
            elif kind == "witness":
                first, second = _witness_samples(result)
                nets = [net] + [Network(model, rng, 1) for _ in range(WITNESS_NETWORKS - 1)]
                demos.append(witness_pair(lab, nets, first, second))
            elif kind == "prefix":
                demos.append(prefix_rearrangement(lab, one_layer=_causal_one_layer(result), swap=_row_collision(result)))
    demos = [judged(demo) for demo in demos]
    return Simulation(spec.path, spec.architecture, verdict, n, model.d, options.seed, options.samples, chosen,
                      _derived_line(result), demos, time.perf_counter() - start)
