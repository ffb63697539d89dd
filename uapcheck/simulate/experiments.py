"""The experiments: each shows the content of one kind of verdict on random networks of the family.

Every experiment returns a `Demonstration`: what the derivation predicts, what the numbers are,
and whether they agree (`holds`: True agrees, False contradicts, None: no prediction to test).
Distances are Euclidean norms of token differences; "relative" ones are divided by the scale of
the states (the largest coordinate, at least 1). Coincidences are checked twice: in float64
(round-off about 1e-16) and, where the claim is an exact equality, again at 50 significant digits
with mpmath, so that an agreement "to round-off" is not an artefact of the arithmetic.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

from .network import Network

#: A coincidence in float64: relative distance at most this (round-off is ~1e-16 per operation).
COINCIDENT = 1e-12
#: A separation: relative distance at least this, six orders of magnitude above float64 round-off
#: (the delicate ones are re-computed at 50 digits as well).
SEPARATED = 1e-10
#: The precision of the mpmath re-runs: 50 significant digits, more for deep networks (a signal
#: that crosses many attention layers shrinks geometrically, about a factor 10 per hop).
MP_DIGITS = 50


def mp_digits(depth: int) -> int:
    return max(MP_DIGITS, 30 + 2 * depth)


def mp_coincident(digits: int) -> float:
    """A coincidence at `digits` digits: relative distance at most this."""
    return 10.0 ** (5 - digits)


def mp_separated(digits: int) -> float:
    """A separation at `digits` digits: ten orders of magnitude above that round-off."""
    return 10.0 ** (15 - digits)


@dataclass
class Demonstration:
    kind: str
    title: str
    holds: Optional[bool]
    lines: list[str] = field(default_factory=list)
    data: dict = field(default_factory=dict)


class GroupOracle:
    """Membership in, and random elements of, the derived group G (1-based image lists)."""

    def __init__(self, group, n: int):
        self.n = n
        self.known = group is not None
        self.symmetric = bool(group is not None and group.name == "S_n")
        self._group = None
        if group is not None and not self.symmetric:
            gens = [g for g in group.generators if not isinstance(g, str)]
            if len(gens) != len(group.generators):
                self.known = False
            elif gens:
                from sympy.combinatorics import Permutation, PermutationGroup
                self._group = PermutationGroup([Permutation([x - 1 for x in g]) for g in gens])

    @property
    def trivial(self) -> bool:
        return self.known and not self.symmetric and self._group is None

    def contains(self, images: Sequence[int]) -> bool:
        if self.symmetric:
            return True
        if self._group is None:
            return list(images) == list(range(1, self.n + 1))
        from sympy.combinatorics import Permutation
        return self._group.contains(Permutation([x - 1 for x in images]))

    def random_element(self, rng: np.random.Generator) -> Optional[list[int]]:
        """A random non-identity element (None for the trivial group)."""
        if self.symmetric:
            if self.n < 2:
                return None
            while True:
                p = list(rng.permutation(self.n) + 1)
                if p != list(range(1, self.n + 1)):
                    return [int(x) for x in p]
        if self._group is None:
            return None
        gens = [list(g.array_form) for g in self._group.generators]
        perm = list(range(self.n))
        for _ in range(4 * len(gens) + 8):  # a random word in the generators
            g = gens[int(rng.integers(len(gens)))]
            perm = [g[x] for x in perm]
        if perm == list(range(self.n)):
            perm = gens[0]
        return [x + 1 for x in perm]


def permute(X: np.ndarray, images: Sequence[int]) -> np.ndarray:
    """σX: the token x_k moves to position σ(k) (images are 1-based)."""
    out = np.empty_like(X)
    out[np.asarray(images) - 1] = X
    return out


def show_perm(images: Sequence[int]) -> str:
    """Cycle notation of a permutation given by its 1-based images."""
    seen, cycles = set(), []
    for start in range(1, len(images) + 1):
        if start in seen or images[start - 1] == start:
            continue
        cyc, k = [], start
        while k not in seen:
            seen.add(k)
            cyc.append(k)
            k = images[k - 1]
        cycles.append("(" + " ".join(map(str, cyc)) + ")")
    text = "".join(cycles) or "id"
    return text if len(text) <= 60 else text[:57] + "…"


def fmt(x: float) -> str:
    return "0" if x == 0 else f"{x:.2e}"


class Lab:
    """Shared state of the experiments: the network, the random generator, the sample count."""

    def __init__(self, network: Network, rng: np.random.Generator, samples: int):
        self.net = network
        self.model = network.model
        self.rng = rng
        self.samples = samples
        self.n, self.d = network.model.n, network.model.d

    def sample(self) -> np.ndarray:
        return self.rng.normal(size=(self.n, self.d))

    def scale(self, *states: np.ndarray) -> float:
        return max(1.0, max(float(np.max(np.abs(s))) for s in states))

    def exact_distances(self, X: np.ndarray, Y: np.ndarray, pairs: Sequence[tuple[int, int]],
                        depth: int) -> tuple[int, list[list[float]]]:
        """(digits, D) with D[L][k] = |S_L(X)_i − S_L(Y)_j| for the k-th (i, j) (1-based) after L
        layers, computed with mpmath at `mp_digits(depth)` significant digits."""
        import mpmath
        from .evaluate import MpArithmetic
        digits = mp_digits(depth)
        with mpmath.workdps(digits):
            ar = MpArithmetic()
            sa, sb = self.net.forward(X, depth, ar=ar), self.net.forward(Y, depth, ar=ar)
            out = []
            for L in range(depth + 1):
                row = []
                for i, j in pairs:
                    diff = sa[L][i - 1] - sb[L][j - 1]
                    row.append(float(mpmath.sqrt(sum(x * x for x in diff))))
                out.append(row)
        return digits, out


def _non_finite(value) -> bool:
    """A nan or an infinity anywhere in an experiment's numbers."""
    if isinstance(value, dict):
        return any(_non_finite(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_non_finite(v) for v in value)
    if isinstance(value, (float, np.floating)):
        return not np.isfinite(value)
    return False


def judged(demo: Demonstration) -> Demonstration:
    """The demonstration as reported: one whose numbers contain a nan or an infinity (the random
    network overflowed) neither agrees nor contradicts: it is marked unusable, whatever its
    comparisons said (a nan compares false, an infinity compares above every threshold)."""
    if demo.holds is None or not _non_finite(demo.data):
        return demo
    lines = [*demo.lines, "unusable: the random network overflowed (nan or inf among these numbers), so this "
             "experiment neither confirms nor contradicts the verdict; try another --seed"]
    return Demonstration(demo.kind, demo.title, None, lines, dict(demo.data, unusable=True))


def _norm(v: np.ndarray) -> float:
    return float(np.sqrt(np.sum(np.asarray(v, dtype=float) ** 2)))


# ---------------------------------------------------------------------------------------------
# UAP: m layers separate the tokens of samples from different orbits

def _closest_pair(tokens: np.ndarray) -> tuple[float, int, int]:
    """The smallest distance between two different rows, and the rows (differences taken
    directly, never through |a|² + |b|² − 2a·b, which cancels exactly where distances are small)."""
    count, d = tokens.shape
    block = max(1, 2_000_000 // max(1, count * d))
    best, p, q = np.inf, 0, 0
    for start in range(0, count, block):
        rows = tokens[start:start + block]
        diff = rows[:, None, :] - tokens[None, :, :]
        dist = np.sqrt(np.sum(diff * diff, axis=-1))
        for r in range(len(rows)):
            dist[r, start + r] = np.inf
        k = int(np.argmin(dist))
        if dist.flat[k] < best:
            best, p, q = float(dist.flat[k]), start + k // count, k % count
    return best, p, q


def _layers(k: int) -> str:
    return f"{k} layer{'s' if k != 1 else ''}"


def separation(lab: Lab, layers: int, group: GroupOracle, predicted: bool, label: str) -> Demonstration:
    """Samples from pairwise different G-orbits: rearrangements σX with σ ∉ G and copies sharing
    one token with X. No two of their tokens share an orbit, so after `layers` layers all of them
    must be distinct (Definition 3); G-rearrangements τX must give τ-moved outputs. The closest
    pair is re-computed at 50 digits when float64 alone cannot vouch for it."""
    rng = lab.rng
    originals = [lab.sample() for _ in range(lab.samples)]
    rearranged, shared = [], []
    sigma_text = []
    if group.known and not group.symmetric:
        for X in originals:
            for _ in range(50):
                sigma = [int(x) + 1 for x in rng.permutation(lab.n)]
                if not group.contains(sigma):
                    rearranged.append(permute(X, sigma))
                    sigma_text.append(show_perm(sigma))
                    break
    for X in originals if lab.n >= 2 else ():  # at n = 1 a copy sharing the token is the sample itself
        Y = lab.sample()
        i, j = int(rng.integers(lab.n)), int(rng.integers(lab.n))
        Y[j] = X[i]
        shared.append(Y)
    family = originals + rearranged + shared
    states = [lab.net.forward(X, layers) for X in family]
    per_layer = []
    for depth in range(layers + 1):
        per_layer.append(_closest_pair(np.concatenate([s[depth] for s in states]))[0])
    min_sep, p, q = _closest_pair(np.concatenate([s[layers] for s in states]))
    scale = lab.scale(*(s[layers] for s in states))
    exact = None
    if min_sep / scale < SEPARATED * 100:
        (sa, i), (sb, j) = divmod(p, lab.n), divmod(q, lab.n)
        digits, dist = lab.exact_distances(family[sa], family[sb], [(i + 1, j + 1)], layers)
        exact = (digits, dist[layers][0])
    # Equivariance: τ ∈ G moves the outputs with the tokens.
    equiv = None
    if group.known and not group.trivial:
        worst = 0.0
        for X, s in zip(originals, states):
            tau = group.random_element(rng)
            if tau is None:
                continue
            t_states = lab.net.forward(permute(X, tau), layers)
            moved = permute(s[layers], tau)
            worst = max(worst, float(np.max(np.sqrt(np.sum((t_states[layers] - moved) ** 2, axis=-1)))))
        equiv = worst
    separated = (exact[1] / scale >= mp_separated(exact[0])) if exact else min_sep / scale >= SEPARATED
    ok = separated and (equiv is None or equiv / scale <= COINCIDENT)
    lines = [f"{len(family)} samples from pairwise different G-orbits ({len(originals)} random, "
             f"{len(rearranged)} rearranged by σ ∉ G, {len(shared)} sharing a token with another)",
             "closest two of their tokens after " +
             ", ".join(f"{_layers(k)}: {fmt(v)}" for k, v in enumerate(per_layer)) + f" (scale {scale:.2g})"]
    if exact:
        lines.append(f"the closest pair re-computed at {exact[0]} digits: {fmt(exact[1])}")
    if equiv is not None:
        lines.append(f"G-rearranged samples τX (τ ∈ G) give τ-moved outputs: largest deviation {fmt(equiv)}")
    lines.append(f"{label}: {'yes' if ok else 'NO'} — every token pair is "
                 f"{'far above' if separated else 'not far above'} round-off after {_layers(layers)}")
    data = {"layers": layers, "samples": len(family), "rearranged": len(rearranged), "shared_token": len(shared),
            "min_token_distance_per_layer": per_layer, "min_token_distance": min_sep,
            "relative_min_token_distance": min_sep / scale, "scale": scale,
            "exact_min_token_distance": exact[1] if exact else None, "digits": exact[0] if exact else None,
            "max_equivariance_deviation": equiv, "rearrangements": sigma_text}
    return Demonstration("separation", f"{_layers(layers)} separate{'s' if layers == 1 else ''} tokens of samples from different G-orbits",
                         ok if predicted else None, lines, data)


# ---------------------------------------------------------------------------------------------
# A view witness: D layers cannot tell X from σX at position i, D + 1 can

def view_witness(lab: Lab, position: int, images: list[int], depth: int) -> Demonstration:
    """The outputs at `position` for X and at σ(position) for σX: equal after `depth` layers (the
    view lemma, docs/theory.md §11.2), different after `depth` + 1. The first sample is re-run with
    mpmath: the coincidence holds at that precision too, and the separation keeps its size."""
    sigma_i = images[position - 1]
    coincide, separate = [], []
    exact = None
    scale = 1.0
    for k in range(lab.samples):
        X = lab.sample()
        Xs = permute(X, images)
        a, b = lab.net.forward(X, depth + 1), lab.net.forward(Xs, depth + 1)
        # the scale of the two compared tokens (not of the whole state: an unnormalised head may make
        # other tokens far larger, and a difference is judged against the tokens it is a difference of)
        scale = max(scale, *(float(np.max(np.abs(s[L][p - 1]))) for s, p in ((a, position), (b, sigma_i))
                             for L in (depth, depth + 1)))
        coincide.append(_norm(a[depth][position - 1] - b[depth][sigma_i - 1]))
        separate.append(_norm(a[depth + 1][position - 1] - b[depth + 1][sigma_i - 1]))
        if k == 0:
            digits, dist = lab.exact_distances(X, Xs, [(position, sigma_i)], depth + 1)
            exact = (digits, dist[depth][0], dist[depth + 1][0])
    digits, at_d, at_d1 = exact
    worst, best = max(coincide), min(separate)
    ok = (worst / scale <= COINCIDENT and at_d / scale <= mp_coincident(digits)
          and at_d1 / scale >= mp_separated(digits))
    where = f"position {position}" if sigma_i == position else f"positions {position} and {sigma_i}"
    lines = [f"σ = {show_perm(images)} ∉ G, at {where}, over {lab.samples} samples X and σX:",
             f"after {_layers(depth)}: the outputs agree — largest distance {fmt(worst)} in float64, "
             f"{fmt(at_d)} at {digits} digits",
             f"after {_layers(depth + 1)}: they differ — smallest distance {fmt(best)}; at {digits} digits "
             f"{fmt(at_d1)} for the first sample (scale {scale:.2g})"]
    data = {"position": position, "permutation": images, "diameter": depth, "digits": digits,
            "max_distance_at_D": worst, "exact_distance_at_D": at_d, "min_distance_at_D_plus_1": best,
            "exact_distance_at_D_plus_1": at_d1, "scale": scale}
    return Demonstration("view-witness", f"view witness: {_layers(depth)} coincide, {depth + 1} separate",
                         ok, lines, data)


# ---------------------------------------------------------------------------------------------
# Receptive fields: the output at i does not move when x_j moves

def receptive_field(lab: Lab, i: int, j: int, blind: Sequence[int], seeing: Optional[int],
                    reason: str) -> Demonstration:
    """`blind`: depths at which x_j cannot reach i (the output must not move: bit for bit in
    float64); `seeing`: a depth at which it reaches i (the output moves; checked with mpmath, as
    the signal shrinks with every hop), or None."""
    top = max([*blind, seeing or 0])
    moved_blind = {L: 0.0 for L in blind}
    moved_seeing, moved_self = [], []
    exact = None
    for k in range(lab.samples):
        X = lab.sample()
        X2 = X.copy()
        X2[j - 1] = 3 * lab.rng.normal(size=lab.d)
        a, b = lab.net.forward(X, top), lab.net.forward(X2, top)
        for L in blind:
            moved_blind[L] = max(moved_blind[L], _norm(a[L][i - 1] - b[L][i - 1]))
        if seeing:
            moved_seeing.append(_norm(a[seeing][i - 1] - b[seeing][i - 1]))
            if k == 0:
                digits, dist = lab.exact_distances(X, X2, [(i, i)], seeing)
                exact = (digits, dist[seeing][0], lab.scale(a[seeing], b[seeing]))
        moved_self.append(_norm(a[1][j - 1] - b[1][j - 1]))
    worst = max(moved_blind.values())
    ok = worst <= COINCIDENT
    lines = [f"x_{j} moved (in {lab.samples} samples), {reason}:",
             f"the output at position {i} moves by " +
             ", ".join(f"{fmt(v)} after {_layers(L)}" for L, v in moved_blind.items()) +
             (" (bit-identical)" if worst == 0 else "")]
    if seeing:
        digits, at, scale = exact
        ok = ok and at / scale >= mp_separated(digits)
        lines.append(f"after {_layers(seeing)} x_{j} reaches position {i}: it moves by at least "
                     f"{fmt(min(moved_seeing))}; at {digits} digits {fmt(at)} for the first sample")
    lines.append(f"control: the output at position {j} itself moves by at least {fmt(min(moved_self))} after 1 layer")
    data = {"i": i, "j": j, "moved_at_i": {str(k): v for k, v in moved_blind.items()},
            "moved_at_i_when_reached": min(moved_seeing) if moved_seeing else None, "seeing_layers": seeing,
            "exact_moved_at_i_when_reached": exact[1] if exact else None, "digits": exact[0] if exact else None,
            "moved_at_j": min(moved_self)}
    return Demonstration("receptive-field", f"the output at {i} ignores x_{j}", ok, lines, data)


# ---------------------------------------------------------------------------------------------
# ILL-POSED: the row normaliser crosses zero

SCALES = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
FLOAT_BISECTIONS = 30
MP_BISECTIONS = 60


def _denominators(net: Network, X: np.ndarray, ar=None) -> list:
    traces: list = []
    if ar is None:
        net.forward(X, 1, traces=traces)
    else:
        net.forward(X, 1, ar=ar, traces=traces)
    return [t.denominators for t in traces[0]]


def ill_posed(lab: Lab, networks: Sequence[Network]) -> Demonstration:  # noqa: C901 - search, then bisection, with their exits; to be split
    """Find one network and two samples on which a normaliser Σ_j k(q_i, k_j) has opposite signs;
    bisect on the segment between them to a sample where it crosses zero."""
    found = None
    for net in networks:
        heads = [h for h, head in enumerate(net.model.heads) if head.normalized]
        if not heads:
            continue
        pos: dict = {}
        neg: dict = {}
        for s in SCALES:
            for _ in range(lab.samples):
                X = s * lab.sample()
                dens = _denominators(net, X)
                for h in heads:
                    den = dens[h]
                    for i in range(lab.n):
                        if not np.isfinite(den[i]):
                            continue
                        (pos if den[i] > 0 else neg if den[i] < 0 else pos).setdefault((h, i), X)
                        if (h, i) in pos and (h, i) in neg:
                            found = (net, h, i, pos[(h, i)], neg[(h, i)])
                            break
                    if found:
                        break
                if found:
                    break
            if found:
                break
        if found:
            break
    if not found:
        return Demonstration("ill-posed", "a normaliser that crosses zero", None,
                             ["no sample with a sign change of a row normaliser was found in the search "
                              "(the derivation's witness stands on its own; this is not a contradiction)"], {})
    net, h, i, Xa, Xb = found
    lo, hi = 0.0, 1.0  # den(lo) > 0 > den(hi)
    for _ in range(FLOAT_BISECTIONS):  # float64 while the normaliser is far above round-off
        mid = (lo + hi) / 2
        den = _denominators(net, (1 - mid) * Xa + mid * Xb)[h][i]
        if not np.isfinite(den):
            break
        if den > 0:
            lo = mid
        else:
            hi = mid
    den_a, den_b = float(_denominators(net, Xa)[h][i]), float(_denominators(net, Xb)[h][i])
    # Then at 50 digits: the signs at both ends of the bracket, and the bisection carried on.
    import mpmath
    from .evaluate import MpArithmetic
    with mpmath.workdps(MP_DIGITS):
        ar = MpArithmetic()
        A, B = ar.array(Xa), ar.array(Xb)

        def den_at(t):
            return _denominators(net, (1 - t) * A + t * B, ar)[h][i]

        t_lo, t_hi = mpmath.mpf(lo), mpmath.mpf(hi)
        signs = (int(mpmath.sign(den_at(t_lo))), int(mpmath.sign(den_at(t_hi))))
        if signs == (1, -1):
            for _ in range(MP_BISECTIONS):
                t_mid = (t_lo + t_hi) / 2
                if den_at(t_mid) > 0:
                    t_lo = t_mid
                else:
                    t_hi = t_mid
        t_mid = (t_lo + t_hi) / 2
        traces: list = []
        states = net.forward((1 - t_mid) * A + t_mid * B, 1, ar=ar, traces=traces)
        den_mid = float(abs(traces[0][h].denominators[i]))
        mag_mid = float(traces[0][h].magnitudes[i])
        out_mid = float(mpmath.sqrt(sum(x * x for x in states[1][i])))
        width = float(t_hi - t_lo)
    ok = signs == (1, -1)
    label = net.model.heads[h].label or str(h + 1)
    lines = [f"head {label}, row {i + 1}: the normaliser Σ_j k(q_{i + 1}, k_j) is {den_a:.3g} on one sample "
             f"and {den_b:.3g} on another (the same parameters)",
             f"on the segment between them it changes sign (signs {'+' if signs[0] > 0 else '−'}/"
             f"{'+' if signs[1] > 0 else '−'} at {MP_DIGITS} digits), within an interval of width {width:.1e} "
             f"around t = {float(t_mid):.12f}",
             f"there |Σ_j k| = {fmt(den_mid)} while Σ_j |k| = {mag_mid:.3g}, and the output at position "
             f"{i + 1} has norm {out_mid:.3g}: the layer has a pole"]
    data = {"head": h + 1, "row": i + 1, "t": float(t_mid), "bracket_width": width,
            "signs_at_50_digits": list(signs), "denominator_at_crossing": den_mid, "row_magnitude": mag_mid,
            "output_norm_at_crossing": out_mid}
    return Demonstration("ill-posed", "a row normaliser crosses zero", ok, lines, data)


# ---------------------------------------------------------------------------------------------
# Causal targets: one layer sees the prefix as a set, two see its order

def _masks(lab: Lab, layer_index: int = 0) -> list[np.ndarray]:
    """Every head's mask in layer layer_index + 1 (per-layer patterns, §21, differ by layer)."""
    n = lab.n
    return [np.ones((n, n), dtype=bool) if m is None else m
            for m in (lab.model.mask(k, layer_index) for k in range(len(lab.model.masks)))]


def _sees(lab: Lab, layer_index: int) -> np.ndarray:
    """sees[i, v]: the output of layer layer_index + 1 at i reads its input at v (some head, or i itself)."""
    sees = np.eye(lab.n, dtype=bool)
    for m in _masks(lab, layer_index):
        sees |= m
    return sees


def prefix_rearrangement(lab: Lab, position: Optional[int] = None, one_layer: bool = False,
                         swap: Optional[tuple[int, int, int]] = None) -> Demonstration:
    """Position i with its prefix reversed (or, with `swap` = (i, l, l′), two keys of row i whose labels
    agree in every head exchanged). Without positions one layer sees the prefix as a set (§14.5(e));
    with `one_layer` (TGT-POSITIONS: the heads label the keys of a causal row), one layer sees the
    order (§14.11)."""
    n = lab.n
    masks = _masks(lab)
    i = n if position is None else position
    if swap is not None:
        i = swap[0]
    prefix = [j + 1 for j in np.flatnonzero(masks[0][i - 1]) if j + 1 != i]
    if len(prefix) < 2:
        return Demonstration("prefix", "prefix rearrangement", None,
                             [f"position {i} sees fewer than two other positions: nothing to rearrange"], {})
    images = list(range(1, n + 1))
    if swap is not None:
        images[swap[1] - 1], images[swap[2] - 1] = swap[2], swap[1]
    else:
        for a, b in zip(prefix, reversed(prefix)):
            images[a - 1] = b
    for m in masks:  # σ must map every head's neighbourhood of i onto itself
        nb = set(np.flatnonzero(m[i - 1]) + 1)
        if {images[k - 1] for k in nb} != nb:
            return Demonstration("prefix", "prefix rearrangement", None,
                                 [f"the heads see different sets at position {i}: no common rearrangement"], {})
    labelled = (lab.model.spec.positional != "none" or
                any(h.bias or getattr(h, "position", None) is not None for h in lab.model.heads))
    # View lemma at depth 2 (§21.3, layer by layer): the outputs at i agree if σ keeps layer 2's
    # neighbourhoods of i and layer 1's of every v that layer 2 reads at i.
    second = _masks(lab, 1)
    near = {i} | {j + 1 for m in second for j in np.flatnonzero(m[i - 1])}

    def keeps(layer: list[np.ndarray], v: int) -> bool:
        return all({images[k - 1] for k in np.flatnonzero(m[v - 1]) + 1} ==
                   set(np.flatnonzero(m[images[v - 1] - 1]) + 1) for m in layer)
    keeps2 = keeps(second, i) and all(keeps(masks, v) for v in near)
    one, two = [], []
    exact = None
    scale = 1.0
    for k in range(lab.samples):
        X = lab.sample()
        Xs = permute(X, images)
        a, b = lab.net.forward(X, 2), lab.net.forward(Xs, 2)
        scale = max(scale, lab.scale(a[2], b[2]))
        one.append(_norm(a[1][i - 1] - b[1][i - 1]))
        two.append(_norm(a[2][i - 1] - b[2][i - 1]))
        if k == 0:
            digits, dist = lab.exact_distances(X, Xs, [(i, i)], 2)
            exact = (digits, dist[1][0], dist[2][0])
    digits, at1, at2 = exact
    agree1 = max(one) / scale <= COINCIDENT and at1 / scale <= mp_coincident(digits)
    differ2 = at2 / scale >= mp_separated(digits)
    span = f"{prefix[0]}..{prefix[-1]}" if prefix == list(range(prefix[0], prefix[-1] + 1)) else "its other positions"
    what = (f"the tokens at {swap[1]} and {swap[2]} exchanged (their labels agree in every head)" if swap is not None
            else f"the tokens at {span} reversed")
    lines = [f"position {i}; {what} (σ = {show_perm(images)}), x_{i} kept, {lab.samples} samples:",
             # an agreement is shown by the largest distance over the samples, a difference by the smallest
             f"after 1 layer the outputs at {i} " + (f"agree: largest distance {fmt(max(one))}" if agree1 else
                                                     f"differ: smallest distance {fmt(min(one))}")
             + f" ({fmt(at1)} at {digits} digits)",
             "after 2 layers they " + (f"differ: smallest distance {fmt(min(two))}" if differ2 else
                                       f"agree: largest distance {fmt(max(two))}")
             + f" ({fmt(at2)} at {digits} digits; scale {scale:.2g})"]
    if labelled and one_layer:
        ok = differ2 and min(one) / scale >= SEPARATED and at1 / scale >= mp_separated(digits)
        lines.append("the heads label the keys of a causal row, so one layer already sees the order (§14.11)")
    elif labelled and swap is not None:
        ok = agree1 and differ2
        lines.append("the two keys carry the same label in every head: one layer cannot tell them apart (§14.11)")
    elif labelled:
        ok = None
        lines.append("a bias or positional encoding labels positions, so the view lemma predicts nothing here")
    elif keeps2:
        ok = agree1 and max(two) / scale <= COINCIDENT and at2 / scale <= mp_coincident(digits)
        lines.append("σ keeps every neighbourhood within distance 1 of the position: 2 layers cannot see the order either")
    else:
        ok = agree1 and differ2
    data = {"position": i, "permutation": images, "max_distance_1_layer": max(one), "exact_distance_1_layer": at1,
            "exact_distance_2_layers": at2, "digits": digits,
            "min_distance_2_layers": min(two), "max_distance_2_layers": max(two), "scale": scale,
            "labelled": labelled, "one_layer_predicted": one_layer}
    title = ("one layer sees the order of a prefix (positions in the weights)" if labelled and one_layer else
             "one layer sees a prefix as a set, two see its order")
    return Demonstration("prefix", title, ok, lines, data)


# ---------------------------------------------------------------------------------------------
# Receptive target classes (causal maps and their generalisation, docs/theory.md §14)

def reach_and_distance(lab: Lab, depth: Optional[int] = None) -> tuple[np.ndarray, np.ndarray]:
    """(R, dist): R[i, j] when x_j reaches position i within `depth` layers (within the network's
    depth when None), dist[i, j] = the least number of layers within which x_j reaches i (−1 when never).
    Layer by layer (docs/theory.md §21.1: In_m(i) is the union of In_{m−1}(v) over the v that layer m
    reads at i), so per-layer patterns, sinks included, are read as the network uses them; one pattern
    in every layer gives the hop distance of its graph."""
    n = lab.n
    period = len(lab.model.layer_masks) if lab.model.layer_masks is not None else 1
    dist = np.full((n, n), -1, dtype=int)
    np.fill_diagonal(dist, 0)
    reached = np.eye(n, dtype=bool)
    still, m, limit = 0, 0, lab.net.depth if depth is None else depth
    while m < limit and still < period:
        nxt = (_sees(lab, m).astype(np.int64) @ reached.astype(np.int64)) > 0
        m += 1
        dist[nxt & ~reached] = m
        still = still + 1 if np.array_equal(nxt, reached) else 0
        reached = nxt
    return reached, dist


def receptive_separation(lab: Lab, layers: int, predicted: bool, label: str) -> Demonstration:
    """Definition 3 in receptive form: after `layers` layers the tokens at (X, i) and (Y, i′) must be
    distinct unless i = i′ and X, Y agree on the positions that reach i; those must coincide.
    Samples: random ones and random copies sharing one token with them."""
    rng = lab.rng
    reach, _ = reach_and_distance(lab, layers)
    originals = [lab.sample() for _ in range(lab.samples)]
    shared = []
    for X in originals:
        Y = lab.sample()
        i = int(rng.integers(lab.n))
        Y[i if rng.random() < 0.5 else int(rng.integers(lab.n))] = X[i]
        shared.append(Y)
    family = originals + shared
    states = [lab.net.forward(X, layers) for X in family]
    out = [s[layers] for s in states]
    scale = lab.scale(*out)
    n = lab.n
    closest, same_worst, closest_pair = np.inf, 0.0, None
    for a in range(len(family)):
        for b in range(a, len(family)):
            diff = out[a][:, None, :] - out[b][None, :, :]
            dist = np.sqrt(np.sum(diff * diff, axis=-1))
            for i in range(n):
                for j in range(n):
                    if a == b and i >= j:
                        continue
                    if i == j:
                        r = reach[i]
                        if np.array_equal(family[a][r], family[b][r]):
                            same_worst = max(same_worst, float(dist[i, j]))
                            continue
                    elif reach[i].sum() == 1 and reach[j].sum() == 1 and np.array_equal(family[a][i], family[b][j]):
                        continue  # one-token fields holding the same token: no prediction
                    if dist[i, j] < closest:
                        closest, closest_pair = float(dist[i, j]), (a, i, b, j)
    exact = None
    if closest_pair is not None and closest / scale < SEPARATED * 100:
        a, i, b, j = closest_pair
        digits, d = lab.exact_distances(family[a], family[b], [(i + 1, j + 1)], layers)
        exact = (digits, d[layers][0])
    separated = (exact[1] / scale >= mp_separated(exact[0])) if exact else closest / scale >= SEPARATED
    ok = separated and same_worst / scale <= COINCIDENT
    lines = [f"{len(family)} samples ({len(originals)} random, {len(shared)} sharing a token with one of them); "
             "two tokens must differ unless they sit at the same position i and their samples agree on "
             "the positions that reach i",
             f"after {_layers(layers)}: closest pair that must differ {fmt(closest)}"
             + (f" ({fmt(exact[1])} at {exact[0]} digits)" if exact else "")
             + f"; pairs that must agree differ by at most {fmt(same_worst)} (scale {scale:.2g})",
             f"{label}: {'yes' if ok else 'NO'}"]
    data = {"layers": layers, "samples": len(family), "min_token_distance": closest,
            "exact_min_token_distance": exact[1] if exact else None, "digits": exact[0] if exact else None,
            "max_distance_of_agreeing_pairs": same_worst, "scale": scale}
    return Demonstration("receptive-separation", f"{_layers(layers)} separate{'s' if layers == 1 else ''} tokens "
                         "with different receptive fields", ok if predicted else None, lines, data)


# ---------------------------------------------------------------------------------------------
# TD-WITNESS: a pair one layer never separates

def witness_pair(lab: Lab, networks: Sequence[Network], first: Sequence[int], second: Sequence[int]) -> Demonstration:
    """TD-WITNESS's pair (docs/theory.md §20.5): the tokens X = x·e and X′ = x′·e on a line through 0 (e a
    random dyadic vector, the same in both, so the tokens are exact; positions beyond the pair's length get the same random tokens in
    both samples, which add the same terms to both rows). The derivation says their one-layer outputs at
    position 1 coincide for every parameter: checked on every network in float64, and on the first at 50
    digits; a random pair of samples is separated by the same networks, so the coincidence is the pair's."""
    n, d = lab.n, lab.d
    if len(first) > n:
        return Demonstration("witness-pair", "the witness pair of TD-WITNESS", None,
                             [f"the pair has {len(first)} tokens, more than n = {n}: not run"], {})
    coincide, random_gap, scale = [], [], 1.0
    exact = None
    for k in range(lab.samples):
        e = np.zeros(d)
        while not e.any():  # a dyadic direction: the products x·e are exact in float64, so X stays on one line
            e = lab.rng.integers(-8, 9, size=d) / 8.0
        pad = lab.rng.normal(size=(n - len(first), d))
        X = np.vstack([np.outer(np.asarray(first, dtype=float), e), pad])
        Y = np.vstack([np.outer(np.asarray(second, dtype=float), e), pad])
        for net in networks:
            a, b = net.forward(X, 1), net.forward(Y, 1)
            scale = max(scale, lab.scale(a[1], b[1]))
            coincide.append(_norm(a[1][0] - b[1][0]))
            R1, R2 = lab.sample(), lab.sample()
            ra, rb = net.forward(R1, 1), net.forward(R2, 1)
            random_gap.append(_norm(ra[1][0] - rb[1][0]) / lab.scale(ra[1], rb[1]))
        if k == 0:
            digits, dist = lab.exact_distances(X, Y, [(1, 1)], 1)
            exact = (digits, dist[1][0])
    digits, at_one = exact
    worst = max(coincide)
    ok = worst / scale <= COINCIDENT and at_one / scale <= mp_coincident(digits) and min(random_gap) >= SEPARATED
    lines = [f"X = ({', '.join(map(str, first))})·e and X′ = ({', '.join(map(str, second))})·e"
             + (f", positions {len(first) + 1}..{n} the same random tokens in both" if n > len(first) else ""),
             f"{len(networks)} networks × {lab.samples} directions e: after 1 layer the outputs at position 1 agree — "
             f"largest distance {fmt(worst)} in float64 (scale {scale:.2g}), {fmt(at_one)} at {digits} digits",
             f"random pairs of samples through the same networks differ at position 1: smallest relative distance "
             f"{fmt(min(random_gap))}"]
    data = {"X": list(first), "X′": list(second), "networks": len(networks), "max_distance": worst,
            "exact_distance": at_one, "digits": digits, "scale": scale, "min_random_relative": min(random_gap)}
    return Demonstration("witness-pair", "the witness pair of TD-WITNESS: one layer gives equal outputs at "
                         "position 1", ok, lines, data)
