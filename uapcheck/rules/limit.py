"""The kernel-limit rules: is lim_{t→∞} k(x, tWy₁)/k(x, tWy₂) ∈ {0, ∞} for generic parameters?

The rules conclude from the analysis in uapcheck/kernel_limit/ (docs/theory.md, "Kernel limit"):
LIM-REDUCE writes the kernel in invariants; the class rules (LIM-EXPPOLY, …) conclude (LIM) from the
per-region growth, with exact witness points as certificate and the numeric cross-check as evidence;
LIM-REGION concludes on a parameter region that `affine query key` reaches.
"""
from __future__ import annotations

import dataclasses

import sympy

from .. import proof
from .wording import described, listed, LOG_RATIO, RATIO_LIMIT, region_claim
from ..claim import chain, claim as claim_of, Formula, of_step, written
from ..asymptotics import Growth, ZERO
from ..certificates import KeyPoints, LimitCertificate, RegionCertificate, RegionStatus, Trusted
from ..kernel_limit.analysis import (RegionResult, analyse_closed, analyse_exponent, analyse_features,
                                     exponent_model, invariants_at, is_polynomial_growth, key_invariants,
                                     key_regions_for_features, query_positive)
from ..kernel_limit.null_sets import adversarial_notes
from ..kernel_limit.numeric_check import cross_check, disagreeing
# the invariants under the docs' names (uapcheck/lower.py)
from ..lower import (KEY_COORD as v, KEY_NORM2 as b, QUERY_COORD as u, QUERY_DOT_KEY as a, QUERY_NORM2 as c,
                     RANDOM_DOT_KEY as e, RANDOM_DOT_QUERY as f, SCALE as t, ClosedKernel, FeatureKernel,
                     KernelModel)

CITE_LIM = proof.derived("Corollary 1", text="Cheng et al. 2025, kernel corollary (condition LIM); proof: "
                         "docs/theory.md §Kernel limit")


def _growth_text(g: Growth) -> str:
    parts = [f"({proof.printed(co)})*t^{al}" if al != 1 else f"({proof.printed(co)})*t" for al, co in g.E]
    if g.p != 0:
        parts.append(f"({proof.printed(g.p)})*log t")
    return " + ".join(parts) if parts else "0 (bounded)"


@proof.rule("LIM-REDUCE", "Reduce the kernel limit to scalar invariants",
            proof.derived("Corollary 1", text="Cheng et al. 2025, kernel corollary; reduction: docs/theory.md §Reduction"), statuses=(proof.PROVED,),
            certificates=(Trusted,))
def reduce_step(model: KernelModel, head_text: str) -> proof.Step:
    if isinstance(model, ClosedKernel):
        claim = claim_of(model.description, ": ", chain(written("k = ", "k(x, t z) ="),
                                                        Formula(model.scaled, proof.printed(model.scaled))))
        ev = {"k(x, t z)": model.scaled, "invariants": "x·z (query · key direction), |z|², |x|²"}
    elif model.single:
        claim = claim_of(described(model), ": ", chain(
            written("k = Σ_r ", r"k = \sum_{r}"),
            Formula(sympy.Mul(model.query, model.key, evaluate=False),
                    f"({proof.printed(model.query)}) · ({proof.printed(model.key)})")))
        ev = {"query factor": model.query, "key factor": model.key,
              "invariants": f"{model.query_symbol}, {model.key_symbol} per feature r; {b}, {c}"}
    else:
        terms = [sympy.Mul(q, k, evaluate=False) for q, k in model.parts]
        claim = claim_of(described(model), ": ", chain(
            written("k = Σ_r ", r"k = \sum_{r}"),
            Formula(sympy.Add(*terms, evaluate=False),
                    " + ".join(f"({proof.printed(q)}) · ({proof.printed(k)})" for q, k in model.parts))))
        ev = {"components": [{"query factor": q, "key factor": k} for q, k in model.parts],
              "invariants": f"{model.query_symbol}, {model.key_symbol} per feature r; {b}, {c}"}
    facts = ({"kernel": model.scaled} if isinstance(model, ClosedKernel) else
             {"query factor": model.query, "key factor": model.key} if model.single else
             {"feature term": model.term})
    return proof.conclude(claim, proof.PROVED, evidence=dict(ev, head=head_text), facts=facts,
                          certificate=Trusted("lowering", "the kernel written in the Gram invariants by construction "
                                              "(uapcheck/lower.py; the identities of docs/theory.md §6.1)",
                                              {"head": head_text}))


def _classify(results: list[RegionResult], model: KernelModel) -> str:
    if any(r.status is RegionStatus.OSCILLATES for r in results):
        return "LIM-OSC"
    holds = all(r.status.holds for r in results)
    if isinstance(model, FeatureKernel) and holds:
        return "LIM-FEATSUM"
    if holds and any(r.growth is not None and r.growth.oscillating for r in results):
        return "LIM-OSCPROD"
    if holds:
        gs = [r.growth for r in results if r.growth is not None]  # every holding region has its growth
        if all(is_polynomial_growth(g, model) and all(al.is_integer for al, _ in g.E) for g in gs):
            return "LIM-EXPPOLY"
        return "LIM-EXPALG"
    if isinstance(model, ClosedKernel) and model.scaled.subs(t, 1) == model.scaled:
        return "LIM-SCALEINV"
    fails = [r.growth for r in results if r.status is RegionStatus.FAILS and r.growth is not None]  # (all of them)
    if fails and all(not g.E for g in fails):
        if all(g.p == 0 for g in fails):
            return "LIM-BOUNDED"
        return "LIM-REGVAR"
    return "LIM-UNDECIDED"


def limit_premise(model: KernelModel, affine: bool, reduce: proof.Step) -> proof.Step:
    """Analyse and return the (LIM) step; the rule id names the asymptotic class."""
    if isinstance(model, ClosedKernel):
        results = analyse_closed(model)
        problem = None
        regions = {r.region.describe(): r for r in results}
    else:
        results, problem = analyse_features(model)
        regions = key_regions_for_features(results, model)
    rule_id = _classify(results, model)
    if problem:
        rule_id = "LIM-UNDECIDED"
    if isinstance(model, ClosedKernel) and not all(r.status.holds for r in results):
        inner = exponent_model(model)
        inner_results = analyse_exponent(inner) if inner is not None else []
        if inner is not None and inner_results and all(r.status.holds for r in inner_results):
            return double_exponential(model, inner, reduce, inner_results)
    return CLASS_RULES[rule_id](model, affine, reduce, results, regions, problem)


def _region_evidence(regions: dict) -> dict:
    ev = {}
    for name, r in regions.items():
        if r is None:
            ev[name] = {"status": RegionStatus.UNDECIDED, "reason": "the dominant terms could not be compared"}
            continue
        item = {"status": r.status, "growing part of log k(x, t z)": _growth_text(r.growth) if r.growth else None,
                "reason": r.reason}
        if r.witness:
            item["witness"] = r.witness
        ev[name] = item
    return ev


def _growing_parts(regions: dict) -> tuple:
    """Typed facts for printers: per decided region, its signs (invariant symbol, ±1) and the growing
    part Σ c_α t^α + p log t of log k(x, t z)."""
    atoms = {sym.name: sym for sym in (a, b, c, v, e, u, f)}
    out = []
    for r in regions.values():
        if r is None or r.growth is None:
            continue
        g = r.growth
        expr = sympy.Add(*[co * t ** al for al, co in g.E]) + g.p * sympy.log(t)
        signs = tuple((atoms[n], s) for n, s in r.region.signs if n in atoms)
        out.append((signs, expr))
    return tuple(out)


def _conclude_lim(model, affine, reduce, results, regions, problem, label: str,
                  can_prove: bool = True) -> proof.Step:
    ev = _region_evidence(regions)
    statuses = {name: (r.status if r else RegionStatus.UNDECIDED) for name, r in regions.items()}
    if not regions and not problem:
        problem = "no sign region of the invariants was analysed"
    holds_all = can_prove and all(s.holds for s in statuses.values())
    dims = "d ≥ 2" if any(s is RegionStatus.HOLDS_D2 for s in statuses.values()) else "d ≥ 1"
    notes = []
    if problem:
        return proof.conclude(f"(LIM) undecided: {problem}", proof.UNDECIDED, [reduce], ev)
    if holds_all:
        draws = (claim_of(" and almost every draw of the random vectors ", written("w_r", "w_{r}"))
                 if isinstance(model, FeatureKernel) and model.index == "random" else "")
        claim = claim_of(f"{label}: the growing part of ", LOG_RATIO, " depends on the key, so ", RATIO_LIMIT,
                         " for generic W, x and keys", draws, f" ({dims})")
        notes.extend(adversarial_notes(model, results))
        checked = [cross_check(model, r) for r in regions.values() if r is not None and r.witness]
        return _unless_disagreeing(proof.conclude(
            claim, proof.PROVED, [reduce], dict(ev, dimensions=dims, **{"numeric cross-check": checked}), notes,
            facts={"min_dim": 2 if dims == "d ≥ 2" else 1, "growth class": label,
                   "growing parts": _growing_parts(regions)},
            certificate=_limit_certificate(model, regions, proof.PROVED)), checked)
    # A region that every finite key set can reach at once, with affine query/key terms.
    reachable = []
    for name, r in regions.items():
        if r is None or not r.status.holds:
            continue
        if name.startswith("all ") or (isinstance(model, ClosedKernel) and name in (f"{a.name} < 0", f"{a.name} > 0")):
            reachable.append(name)
    if isinstance(model, FeatureKernel):
        # On the region the query coordinates have the same sign; the kernel must not vanish there.
        reachable = [name for name in reachable if query_positive(model, name)]
    if affine and reachable and (isinstance(model, ClosedKernel) or model.index == "coordinate"):
        return region_rule(model, reduce, regions, statuses, reachable[0], label)
    return _not_established(model, affine, reduce, regions, statuses, reachable)


@proof.rule("LIM-REGION", "An open parameter region that every finite key set reaches", CITE_LIM,
            statuses=(proof.PROVED, proof.UNDECIDED),  # undecided only when the numeric cross-check disagrees
            certificates=(LimitCertificate,))
def region_rule(model, reduce, regions, statuses, name, label) -> proof.Step:
    ev = _region_evidence(regions)
    notes = []
    claim = claim_of("on the open parameter region where ", region_claim(name, regions[name], model),
                     " for every key (and query) the ratio "
                     "tends to 0 or ∞ for generic parameters; `affine query key` reaches this region for "
                     "any finite key set (bias terms of one sign dominate), and scaling the affine key keeps it")
    notes.append("outside this region (LIM) fails: " + "; ".join(
        f"{n}: {s}" for n, s in statuses.items() if not s.holds))
    ev["numeric cross-check"] = cross_check(model, regions[name])
    dims = "d ≥ 2" if statuses.get(name) is RegionStatus.HOLDS_D2 else "d ≥ 1"
    region = regions[name]
    atoms = {sym.name: sym for sym in (a, v, e, u, f)}
    signs = tuple((atoms[n], s) for n, s in region.region.signs if n in atoms)
    return _unless_disagreeing(proof.conclude(
        claim, proof.PROVED, [reduce], dict(ev, region=name, dimensions=dims), notes,
        facts={"min_dim": 2 if dims == "d ≥ 2" else 1, "region": signs,
               "growing parts": _growing_parts({name: region})},
        certificate=_limit_certificate(model, {name: region}, proof.PROVED)), ev["numeric cross-check"])


def _not_established(model, affine, reduce, regions, statuses, reachable) -> proof.Step:
    ev = _region_evidence(regions)
    notes = []
    failing = [n for n, s in statuses.items() if not s.holds]
    if reachable and not affine:
        notes.append(f"(LIM) holds on the region {reachable[0]}, but without `affine query key` no "
                     "parameter choice puts every key there (keys y and −y have opposite signs)")
    refuted = bool(failing) and all(statuses[n].fails for n in failing)
    claim = claim_of("(LIM) fails on " if refuted else "(LIM) is not established: it fails or is undecided on ",
                     listed(region_claim(n, regions[n], model) for n in failing))
    checked = [cross_check(model, regions[n]) for n in failing if regions[n] is not None and regions[n].witness]
    if checked:
        ev["numeric cross-check"] = checked
    status = proof.REFUTED if refuted else proof.UNDECIDED
    return _unless_disagreeing(proof.conclude(
        claim, status, [reduce], ev, notes, facts={"growing parts": _growing_parts(regions)},
        certificate=_limit_certificate(model, regions, status) if status is proof.REFUTED else None), checked)


def _coefficient(g: Growth, term: str):
    if term == "log t":
        return g.p
    return next(co for al, co in g.E if f"t^{al}" == term)


def _limit_certificate(model: KernelModel, regions: dict, conclusion) -> LimitCertificate:
    """Per region: the exact witness points of the growing coefficients (holds), or the symbols of the
    growing part (fails)."""
    out = []
    key = tuple(sorted(s.name for s in key_invariants(model)))
    for name, r in regions.items():
        if r is None:
            out.append(RegionCertificate(name, RegionStatus.UNDECIDED, ()))
            continue
        points = []
        if r.status.holds and r.witness and r.growth is not None:
            for w in r.witness.get("points", []):
                x, z1, z2 = w["x"][0], w["z1"][0], w["z2"][0]
                points.append(KeyPoints(w["term"], _coefficient(r.growth, w["term"]),
                                        invariants_at(model, x, z1), invariants_at(model, x, z2)))
        symbols = ()
        if r.growth is not None and r.growth is not ZERO:
            syms = set(r.growth.p.free_symbols)
            for _, co in r.growth.E:
                syms |= co.free_symbols
            symbols = tuple(sorted(s.name for s in syms))
        out.append(RegionCertificate(name, r.status, r.region.signs, tuple(points), symbols, key))
    return LimitCertificate(tuple(out), conclusion)


def _make(rule_id: str, title: str, label: str):
    # LIM-UNDECIDED never proves (LIM): it reports an open premise or a proved failure, and may hand
    # over to LIM-REGION.
    can_prove = rule_id != "LIM-UNDECIDED"
    statuses = (proof.PROVED, proof.REFUTED, proof.UNDECIDED) if can_prove else (proof.REFUTED, proof.UNDECIDED)

    @proof.rule(rule_id, title, CITE_LIM, statuses=statuses, certificates=(LimitCertificate,))
    def rule_fn(model, affine, reduce, results, regions, problem):
        return _conclude_lim(model, affine, reduce, results, regions, problem, label, can_prove)
    rule_fn.__name__ = rule_fn.__qualname__ = "rule_" + rule_id.replace("-", "_").lower()
    return rule_fn


#: The kernel class rules by id. Each concludes through `_conclude_lim` from the region results and
#: their LimitCertificate (docs/theory.md §6.5): the class only names the argument, so a new class is
#: one entry here, its branch in `_classify`, its page uapcheck/rule_docs/ID.md and its test.
CLASS_RULES = {
    "LIM-EXPPOLY": _make("LIM-EXPPOLY", "Exp-polynomial kernels: log k(x,tz) is a polynomial in t",
                         "exp-polynomial class"),
    "LIM-EXPALG": _make("LIM-EXPALG", "Algebraic growth: log k(x,tz) grows like a sum of powers t^α",
                        "algebraic growth class"),
    "LIM-FEATSUM": _make("LIM-FEATSUM", "Feature sums: the generically unique dominant feature decides",
                         "feature-sum class (the generic maximum dominates)"),
    "LIM-REGVAR": _make("LIM-REGVAR", "Regularly varying or homogeneous kernels: the ratio has a finite limit",
                        "regularly varying class"),
    "LIM-BOUNDED": _make("LIM-BOUNDED", "Bounded kernels: the ratio stays bounded",
                         "bounded class"),
    "LIM-OSC": _make("LIM-OSC", "Oscillating kernels: the ratio has no limit", "oscillating class"),
    "LIM-OSCPROD": _make("LIM-OSCPROD", "A growing kernel times a bounded positive oscillating factor",
                         "growth with a bounded positive oscillating factor (it only adds O(1) to log k)"),
    "LIM-SCALEINV": _make("LIM-SCALEINV", "Scale-invariant kernels: scaling the key changes nothing",
                          "scale-invariant class"),
    "LIM-UNDECIDED": _make("LIM-UNDECIDED", "The engine could not decide the kernel limit",
                           "undecided"),
}


@proof.rule("LIM-EXPEXP", "Double-exponential kernels: k = exp(H) with H → ±∞ and (LIM) for H", CITE_LIM,
            statuses=(proof.PROVED, proof.UNDECIDED),  # undecided only when the numeric cross-check disagrees
            certificates=(LimitCertificate,))
def double_exponential(model: ClosedKernel, inner: ClosedKernel, reduce: proof.Step,
                       inner_results: list[RegionResult]) -> proof.Step:
    """Theorem F209 (docs/theory.md §6.5): k(x, t z) = exp(H(x, t z)); on every sign region H → +∞ or H → −∞ and the
    growing part of log |H(x,tz₁)| − log |H(x,tz₂)| depends on the key (exact witnesses), so |H(x,tz₁)/H(x,tz₂)| → 0
    or ∞ and log k(x,tz₁) − log k(x,tz₂) = H(x,tz₁) − H(x,tz₂) → ±∞. The regions, witnesses, cross-check and certificate are
    those of H (the verifier re-derives H from the re-parsed formula)."""
    regions = {r.region.describe(): r for r in inner_results}
    ev = {name: {("growing part of log |H(x, t z)|" if key == "growing part of log k(x, t z)" else key): val
                 for key, val in item.items()} for name, item in _region_evidence(regions).items()}
    dims = "d ≥ 2" if any(r.status is RegionStatus.HOLDS_D2 for r in inner_results) else "d ≥ 1"
    claim = claim_of("double-exponential class: k(x, t z) = exp(H) with H = ",
                     Formula(inner.scaled, proof.printed(inner.scaled)),
                     " → +∞ or −∞ on each sign region and the growing part of log |H(x,tz₁)| − log |H(x,tz₂)| depends on "
                     "the key, so ", LOG_RATIO, " = H(x,tz₁) − H(x,tz₂) → ±∞ and ", RATIO_LIMIT,
                     f" for generic W, x and keys ({dims})")
    notes = []
    with_flip = inner.scaled.xreplace({a: -a})
    if with_flip == inner.scaled or sympy.expand(with_flip - inner.scaled) == 0:
        notes.append("(LIM) fails on antipodal keys (y, −y): the kernel is even in x·z (a null set of key pairs)")
    # log H needs H > 0: a region where H → −∞ is cross-checked on −H (the same growing part of log |H|)
    negated = dataclasses.replace(inner, scaled=-inner.scaled, plain=-inner.plain)
    checked = [cross_check(inner, r) if r.witness.get("sign of H", 1) > 0 else
               cross_check(negated, dataclasses.replace(r, growth=dataclasses.replace(r.growth, C=-r.growth.C)))
               for r in inner_results if r.witness and r.growth is not None]
    return _unless_disagreeing(proof.conclude(
        claim, proof.PROVED, [reduce],
        dict(ev, exponent=inner.scaled, dimensions=dims, **{"numeric cross-check": checked}), notes,
        facts={"min_dim": 2 if dims == "d ≥ 2" else 1, "growth class": "double-exponential class",
               "growing parts": ()},
        certificate=_limit_certificate(inner, regions, proof.PROVED)), checked)


@proof.rule("LIM-UNSUPPORTED", "Outside the engines' scope", CITE_LIM, statuses=(proof.UNDECIDED,))
def unsupported(label: str, reason: str) -> proof.Step:
    return proof.conclude(f"{label}: {reason}", proof.UNDECIDED, evidence={"reason": reason})


def _unless_disagreeing(step: proof.Step, checks) -> proof.Step:
    """The step as concluded, or, when the numbers disagree with it even at the largest t, the same
    rule's step with status undecided and the numbers (called inside the rule that made `step`)."""
    bad = disagreeing(checks)
    if not bad:
        return step
    return proof.conclude(claim_of("(LIM) undecided: a 40-digit evaluation does not confirm the derived growth "
                                   f"even at the largest t tried ({bad[0]['disagreement']}); the derivation was: ",
                                   of_step(step)),
                          proof.UNDECIDED, list(step.premises), dict(step.evidence), step.notes)
