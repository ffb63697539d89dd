"""Per-layer causal interval patterns checked for causal targets at any concrete n (docs/theory.md §21.6): D_c and
the least m by arithmetic on the head widths (Theorem F121), without materialising arcs. The concrete engine of
rules/layers_causal.py decides n ≤ 1,024; this route takes the lengths above it when every head of every layer is an
interval head (`causal`, `causal & window(w)`, `offsets {−w, …, 0}`, unions of those).
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import proof
from .. import spec as S
from ..claim import claim as claim_of
from ..claim import written
from ..graphs.layers_intervals import IntervalLayers, interval_layers, interval_least, interval_reach
from ..layer_certificates import CausalBudgetSplit, CausalGrowingForm, CausalIntervalCount, CausalIntervalForm
from .wording import token

CITE_SEQ_INTERVALS = proof.derived(
    "Definition 4", "Theorem 1",
    text="derived here: per-layer causal interval heads, prefix reach by the sums of the widths and the least count "
         "by Theorem F121 (the causal view witnesses of §21.5 decided from the widths), docs/theory.md §21.6")


def _widths_text(L: IntervalLayers) -> list:
    return [["∞" if w is None else w for w in row] for row in L.widths]


@proof.rule("SEQ-CAUSAL-INTERVALS",
            "Per-layer causal interval heads at any n: D_c by the sums of the widths, the least count by Theorem F121",
            CITE_SEQ_INTERVALS, statuses=(proof.PROVED,), certificates=(CausalIntervalCount,))
def intervals_step(desc: str, cert: CausalIntervalCount, missing: Optional[tuple]) -> proof.Step:
    L, d, m = cert.layers_, cert.depth, cert.layers
    statement = claim_of(
        "every head of every layer attends at v to an interval [v − w, v] (w its width, ∞ for the causal mask), so "
        "every model's output at i reads ", written("x_1, …, x_i", r"x_{1}, \ldots, x_{i}"), " only, and the output "
        f"after m layers reads exactly the positions within the sum of the layers' widths: every prefix is reached "
        f"within {d} layer{'s' if d != 1 else ''}")
    ev: dict = {"patterns": desc, "widths": _widths_text(L), "periodic": L.periodic, "D_c": d, "layers": m,
                "least": True}
    if missing:
        i, j = missing
        statement += claim_of(f" (not within {d - 1}: ", token(j), f" does not reach position {i})")
        ev["not within D_c − 1"] = {"i": i, "j": j}
    if m == d:
        statement += claim_of(f"; {m} attention layer{'s' if m != 1 else ''} suffice for causal targets and are least: "
                              "no view has a symmetry moving its prefix (Theorem F121)")
    else:
        w = cert.witness
        statement += claim_of(f"; {m} attention layers are needed and suffice for causal targets: with {m - 1} the "
                              f"output at position {w.position} is the same for X and σX, σ the transposition of "
                              f"positions {w.j} and {w.j + 1}, which moves its prefix; at depth {m} no view has such "
                              "a symmetry (Theorem F121)")
        ev["causal view witness"] = {"position": w.position, "depth": w.depth, "transposition": [w.j, w.j + 1]}
    return proof.conclude(statement, proof.PROVED, evidence=ev, facts={"layers": m, "least": True, "depth": d},
                          certificate=cert)


def interval_sequence(spec: S.Spec) -> Optional[tuple[IntervalLayers, Optional[int]]]:
    """The interval widths of the network's layers and the depth limit (a finite Φ's length or the budget), or None
    when some head of some layer is not an interval head."""
    from .layers import budget_of, concrete_layer_patterns, network_rows
    got = concrete_layer_patterns(spec)
    if got is None:
        return None
    n, per_layer, periodic = got
    L = interval_layers(per_layer, periodic, n)
    if L is None:
        return None
    rows, periodic, limit = network_rows(L.widths, L.periodic, budget_of(spec))
    return IntervalLayers(n, rows, periodic), limit


def interval_outcome(spec: S.Spec, ffn_step: proof.Step, tds: list):
    """The TargetOutcome for `target causal` on per-layer interval heads at a concrete n (None: not in the class)."""
    from .layers import _describe
    from .targets import TargetOutcome, not_causal_step
    got = interval_sequence(spec)
    if got is None:
        return None
    L, limit = got
    desc = _describe(spec)
    reach = interval_reach(L, limit)
    if reach.depth is None:
        if reach.missing is None:
            return None
        i, j = reach.missing
        where = "at any depth" if limit is None else f"within the network's {limit} attention layers"
        step = not_causal_step(spec, f"x_{j} never reaches position {i} {where} although {j} < {i} (the layers' widths "
                               f"sum to {i - 2}{' per period' if limit is None else ''}), so every model's output "
                               f"at {i} ignores x_{j}, while the causal target F(X)_{i} = x_{j} depends on it",
                               {"witness": {"i": i, "j": j, "target": f"F(X)_{i} = x_{j}"}})
        return TargetOutcome("causal", "NOT-UAP", None, False, (step,), step.claim.split(": ", 1)[1], tuple(tds))
    least = interval_least(L, reach.depth, limit)
    if least.layers is None:
        w = least.witness
        if w is None:
            return None
        step = not_causal_step(spec, f"at the network's whole depth of {limit} attention layers the output at position "
                               f"{w.position} is the same for X and σX, σ the transposition of positions {w.j} and "
                               f"{w.j + 1}, which moves its prefix (a causal view witness, Theorem F121), while a "
                               "causal target tells them apart",
                               {"interval witness": {"position": w.position, "depth": w.depth, "j": w.j},
                                "route": "interval witness"})
        return TargetOutcome("causal", "NOT-UAP", None, False, (step,), step.claim.split(": ", 1)[1], tuple(tds))
    cert = CausalIntervalCount(L, limit, reach.depth, least.layers, least.witness)
    lstep = intervals_step(desc, cert, reach.missing)
    failing = [s for s in [ffn_step, *tds] if not s.proved]
    if failing:
        reason = "; ".join(f"{s.rule}: {s.claim}" for s in failing)
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (lstep,), reason, tuple(tds))
    return TargetOutcome("causal", "UAP", least.layers, True, (lstep,), "", tuple(tds))


# ---------------------------------------------------------------------------------------------
# Symbolic n (docs/theory.md §21.8, Theorem F123)

CITE_SEQ_FORM = proof.derived(
    "Definition 4", "Theorem 1",
    text="derived here: per-layer causal interval heads at a symbolic n, the least count from a sharp start on and "
         "each shorter length in closed form (Theorem F123, from Theorem F121), docs/theory.md §21.8")


def _pieces_claim(pieces, name: str):
    """`TargetPiece.words` of each piece, joined by "; ", each condition and count a formula part."""
    from .target_below import TargetPiece
    from .wording import listed, quantity
    out = []
    for p in pieces:
        piece = TargetPiece(p.lower, p.upper, p.layers, symbol=name)
        count = piece.layers if isinstance(piece.layers, int) else quantity(piece.layers)
        out.append(claim_of(written(piece.condition(), piece.condition_latex()), ": ", count,
                            f" layer{'' if piece.layers == 1 else 's'}",
                            "" if piece.least else " (sufficient, not shown least)"))
    return listed(out, "; ")


def _range_claim(start, name: str):
    """`targets._range_text` as a formula part."""
    from .targets import _range_text
    where = _range_text(start, name)
    return written(where, where.replace("≥", r"\geq").replace("·", r"\cdot "))


_INTERVAL = written("[v − w, v]", r"[v - w, v]")


@proof.rule("SEQ-CAUSAL-FORM",
            "Per-layer causal interval heads at a symbolic n: the least count for every n (Theorem F123)",
            CITE_SEQ_FORM, statuses=(proof.PROVED,), certificates=(CausalIntervalForm, CausalGrowingForm))
def form_step(desc: str, cert: "CausalIntervalForm | CausalGrowingForm") -> proof.Step:
    from ..show import show_size
    from .targets import _range_text
    if isinstance(cert, CausalGrowingForm):
        return _growing_step(desc, cert)
    L, f = cert.layers_, cert.form
    where = _range_text(f.start, cert.tokens)
    statement = claim_of(
        "every head of every layer attends at v to an interval ", _INTERVAL, " (w its width, ∞ for the causal mask), "
        "so every model's output at i reads ", written("x_1, …, x_i", r"x_{1}, \ldots, x_{i}"), f" only; layer "
        f"{f.first_wide} is the first of positive width and layer {f.layers} the first of width ∞ after it, so for ",
        _range_claim(f.start, cert.tokens), f" every prefix is reached within {f.first_global} "
        f"layer{'s' if f.first_global != 1 else ''} and {f.layers} attention layers are needed and suffice for causal "
        "targets (with fewer a transposition of two early positions keeps the output at n), the least (Theorem "
        "F123); below the range, by Theorem F121 at each length: ", _pieces_claim(f.pieces, cert.tokens))
    ev: dict = {"patterns": desc, "widths": [["∞" if w is None else w for w in row] for row in L.rows],
                "periodic": L.periodic, "layers": f.layers, "least": True, "range": where,
                "first wide layer": f.first_wide, "first global layer": f.first_global,
                "below": [{"lengths": f"{show_size(p.lower)} ≤ n < {show_size(p.upper)}",
                           "layers": p.layers if isinstance(p.layers, int) else show_size(p.layers)}
                          for p in f.pieces]}
    if L.param is not None:
        ev["param width"] = L.param
    return proof.conclude(statement, proof.PROVED, evidence=ev,
                          facts={"layers": f.layers, "least": True, "from": f.start, "form pieces": f.pieces},
                          certificate=cert)


def _growing_step(desc: str, cert: CausalGrowingForm) -> proof.Step:
    from ..show import show_size
    from .targets import _range_text
    L, f = cert.layers_, cert.form
    where = _range_text(f.start, cert.tokens)
    statement = claim_of(
        "every head of every layer attends at v to an interval ", _INTERVAL, " of finite width w, so every model's "
        "output at i reads ", written("x_1, …, x_i", r"x_{1}, \ldots, x_{i}"), " only, and after m layers exactly the "
        "last ", written("W(0, m] + 1", r"W(0, m] + 1"), " positions, ", written("W(0, m]", r"W(0, m]"), " the sum of "
        f"the layers' widths ({show_size(f.total)} per period of {f.period}); for ", _range_claim(f.start, cert.tokens),
        " the least number of attention layers for causal targets is the least m with ",
        written("W(0, m] ≥ n − 1", r"W(0, m] \geq n - 1"), ", ", written(show_size(f.layers), sympy.latex(f.layers)),
        f" (with fewer a position misses an earlier token, and from n = {show_size(f.bound)} on no view at that depth "
        "has a symmetry moving its prefix: Theorem F137); ",
        claim_of("below the range, by Theorem F121 at each length: ", _pieces_claim(f.pieces, cert.tokens))
        if f.pieces is not None else "the lengths below the range are not decided (the start by Theorem F158; the "
        "pieces below it are derived for integer widths)")
    ev: dict = {"patterns": desc, "widths": [list(row) for row in L.rows], "periodic": True,
                "layers": show_size(f.layers), "least": True, "range": where, "first wide layer": f.first_wide,
                "widths per period": f.total if isinstance(f.total, int) else show_size(f.total),
                "below": None if f.pieces is None else
                [{"lengths": f"{p.lower} ≤ n < {p.upper}", "layers": p.layers} for p in f.pieces]}
    if L.param is not None:
        ev["param width"] = L.param
    return proof.conclude(statement, proof.PROVED, evidence=ev,
                          facts={"layers": f.layers, "least": True, "from": f.start, "form pieces": f.pieces or ()},
                          certificate=cert)


def form_outcome(spec: S.Spec, ffn_step: proof.Step, tds: list):
    """The TargetOutcome for `target causal` on per-layer interval heads at a symbolic n (None: outside Theorem
    F123, with the premise that fails as the second value)."""
    from ..graphs.layers_interval_forms import FormOutside, GrowingForm, interval_form, read_form_layers, split_applies
    from .layers import _describe
    from .target_below import TargetPiece
    from .targets import TargetOutcome, _range_text
    try:
        L = read_form_layers(spec)
        if split_applies(L):
            return split_outcome(spec, L, ffn_step, tds), None
        form = interval_form(L, str(spec.tokens))
    except FormOutside as exc:
        return None, str(exc)
    cert = (CausalGrowingForm(L, form, str(spec.tokens)) if isinstance(form, GrowingForm)
            else CausalIntervalForm(L, form, str(spec.tokens)))
    step = form_step(_describe(spec), cert)
    pieces = None if form.pieces is None else tuple(TargetPiece(p.lower, p.upper, p.layers, symbol=str(spec.tokens)) for p in form.pieces)
    failing = [s for s in [ffn_step, *tds] if not s.proved]
    if failing:
        reason = "; ".join(f"{s.rule}: {s.claim}" for s in failing)
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), reason, tuple(tds)), None
    return TargetOutcome("causal", "UAP", form.layers, True, (step,), "", tuple(tds),
                         range=_range_text(form.start, str(spec.tokens)), below=None, pieces=pieces,
                         below_open="" if pieces is not None else
                         "for a param width (Theorem F137 derives them for integer widths)"), None


def split_outcome(spec: S.Spec, L, ffn_step: proof.Step, tds: list):
    """Theorem F159 (docs/theory.md §21.10): M layers of finite widths at a symbolic n are NOT-UAP for causal targets
    from N* on, and UAP below it with F121's count at each length (listed one by one up to SPLIT_LISTED lengths; the
    heads' premises unproved leave them not decided)."""
    from ..graphs.layers_interval_forms import SPLIT_LISTED, budget_split
    from .targets import TargetLength, TargetOutcome, _range_text, not_causal_step
    split = budget_split(L)
    name = str(spec.tokens)
    M = split.depth
    why = claim_of(f"with the network's {M} attention layer{'s' if M != 1 else ''} every model's output at a position "
                   f"reads only the last {split.reach_end - 1} positions up to it (the sum of the widths plus one), so "
                   f"from {name} = {split.reach_end} on the output at {name} ignores the token at position 1, which a "
                   "causal target reads")
    if split.threshold is not None and split.threshold <= split.reach_end:
        why = claim_of(why, f", and from {name} = {split.threshold} on a transposition of two early positions keeps "
                       f"the output at {name} at the whole depth {M} (a causal view witness, Theorem F121)")
    why = claim_of(why, f": NOT-UAP for every {name} ≥ {split.start}, and below it every prefix is reached and no "
                   "view at the whole depth has a symmetry moving its prefix (Theorem F159)")
    step = not_causal_step(spec, why, {"route": "budget split", "budget split": {
        "from": split.start, "depth": M, "reach end": split.reach_end, "threshold": split.threshold,
        "first wide layer": split.first_wide}}, start=split.start,
        far=CausalBudgetSplit(L, split, name))
    failing = [s.rule for s in [ffn_step, *tds] if not s.proved]
    below: Optional[tuple] = None
    if split.start - 1 <= SPLIT_LISTED:
        below = tuple(TargetLength(n, None, why=f"{', '.join(failing)} not proved", symbol=name) if failing else
                      TargetLength(n, "UAP", next(q.layers for q in split.pieces if q.lower <= n < q.upper), True,
                                   symbol=name)
                      for n in range(1, split.start))
    return TargetOutcome("causal", "NOT-UAP", None, False, (step,), step.claim.split(": ", 1)[1], tuple(tds),
                         range=_range_text(split.start, name), below=below)
