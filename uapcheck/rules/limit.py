"""The kernel-limit rules: is lim_{t→∞} k(x, tWy₁)/k(x, tWy₂) ∈ {0, ∞} for generic parameters?

Method (docs/theory.md, "Kernel limit"): reduce to invariants, compute the growth of
log k(x, t z) = E(t) + p·log t + O(1) on each sign region of the invariants, and decide whether
the growing part depends on the key. If it does, the growing part of
log k(x,tz₁) − log k(x,tz₂) is a non-zero analytic function of (x, z₁, z₂) on each region, so it
is non-zero off a null set and the ratio tends to 0 or ∞; an exact witness point shows the
dependence. If it does not, the ratio has a finite limit at generic points and (LIM) fails.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Optional

import sympy

from .. import proof
from ..certificates import KeyPoints, LimitCertificate, RegionCertificate, Trusted
from ..asymptotics import (Context, Growth, NeedSign, Oscillates, Undecided, ZERO, compare,
                           explore_regions, growth, sign_of)
from ..budget import BudgetExceeded, time_limit
from ..memo import exact_cache
from ..zero import is_zero, simplified
from ..lower import ZETA, ClosedKernel, FeatureKernel, KernelModel, a, b, c, e, f, t, u, v

CITE_LIM = proof.derived("Corollary 1", text="Cheng et al. 2025, kernel corollary (condition LIM); proof: "
                         "docs/theory.md §Kernel limit")

MAX_SPLITS = 4


@dataclass(frozen=True)
class Region:
    signs: tuple[tuple[str, int], ...]  # atom name → sign

    def describe(self) -> str:
        if not self.signs:
            return "all invariants"
        return ", ".join(f"{n} {'> 0' if s > 0 else '< 0'}" for n, s in self.signs)


@dataclass(frozen=True)
class RegionResult:
    region: Region
    growth: Optional[Growth]  # None when undecided
    status: str  # "holds" | "fails" | "oscillates" | "zero" | "undecided"
    reason: str = ""
    witness: Optional[dict] = None


def _explore(fn, ctx: Context):
    return explore_regions(fn, ("the asymptotic expansion of log k(x, t z)", 10.0), ctx, MAX_SPLITS)


def _region(ctx: Context) -> Region:
    return Region(tuple(sorted((k.name, s) for k, s in ctx.signs.items())))


# ---------------------------------------------------------------------------------------------
# Witness points: exact 1-dimensional vectors (they embed in every dimension d).

def _candidate_points(region: Region, feature: bool):
    """(x, z1, z2) triples of non-zero integers in each sign orthant consistent with the region."""
    signs = dict(region.signs)
    for xs, zs in itertools.product((1, -1), (1, -1)):
        found = []
        for x0, (z1, z2) in itertools.product((1, 2), ((1, 2), (1, 3), (2, 3), (2, 1))):
            x, k1, k2 = xs * x0, zs * z1, zs * z2
            ok = True
            for name, s in signs.items():
                for z in (k1, k2):
                    val = {a.name: x * z, v.name: z, e.name: z, u.name: x, f.name: x}[name]
                    if (val > 0) != (s > 0):
                        ok = False
            if ok:
                found.append((x, k1, k2))
        if found:
            yield (xs, zs), found


def _invariants(model: KernelModel, x: int, z: int, tie: bool = False) -> dict:
    if isinstance(model, FeatureKernel):
        return {model.key_symbol: sympy.Integer(z), model.query_symbol: sympy.Integer(x),
                b: sympy.Integer(z * z), c: sympy.Integer(x * x)}
    return {a: sympy.Integer(x * z), b: sympy.Integer(z * z), c: sympy.Integer(x * x)}


def _growing_difference(g: Growth, model: KernelModel, x: int, z1: int, z2: int):
    """Exact coefficients of log k(x,tz1) − log k(x,tz2) that grow; the first non-zero one."""
    s1, s2 = _invariants(model, x, z1), _invariants(model, x, z2)
    exps = sorted({alpha for alpha, _ in g.E}, reverse=True)
    coeffs = dict(g.E)
    for alpha in exps:
        with time_limit("simplifying a witness coefficient", 3.0):
            diff = simplified(coeffs[alpha].xreplace(s1) - coeffs[alpha].xreplace(s2))
        try:
            if sign_of(diff, Context()) != 0:
                return f"t^{alpha}", diff
        except (Undecided, NeedSign):
            continue
    with time_limit("simplifying a witness coefficient", 3.0):
        diff = simplified(g.p.xreplace(s1) - g.p.xreplace(s2))
    try:
        if diff != 0 and sign_of(diff, Context()) != 0:
            return "log t", diff
    except (Undecided, NeedSign):
        pass
    return None


def _depends_on_key(g: Growth, model: KernelModel) -> bool:
    key = {b, model.key_symbol} if isinstance(model, FeatureKernel) else {a, b}
    syms = set(g.p.free_symbols)
    for _, coeff in g.E:
        syms |= coeff.free_symbols
    return bool(syms & key)


def _is_polynomial_growth(g: Growth, model: KernelModel) -> bool:
    gens = [a, b, c] if isinstance(model, ClosedKernel) else [b, c, model.key_symbol, model.query_symbol]
    return all(coeff.is_polynomial(*gens) for _, coeff in g.E) and g.p.is_polynomial(*gens)


def _witness_for(g: Growth, model: KernelModel, region: Region):
    """Exact points where the growing part differs between two keys, per sign orthant."""
    witnesses = {}
    for orthant, points in _candidate_points(region, isinstance(model, FeatureKernel)):
        for x, z1, z2 in points:
            hit = _growing_difference(g, model, x, z1, z2)
            if hit:
                witnesses[orthant] = {"x": [x], "z1": [z1], "z2": [z2], "term": hit[0],
                                      "coefficient difference": hit[1]}
                break
    return witnesses


def _finite_limit_witness(g: Growth, model: KernelModel, region: Region) -> Optional[dict]:
    for _, points in _candidate_points(region, isinstance(model, FeatureKernel)):
        for x, z1, z2 in points:
            s1, s2 = _invariants(model, x, z1), _invariants(model, x, z2)
            try:
                with time_limit("simplifying the limit of the ratio at a witness point", 3.0):
                    c1, c2 = simplified(g.C.xreplace(s1)), simplified(g.C.xreplace(s2))
                    if c2 != 0:
                        return {"x": [x], "z1": [z1], "z2": [z2], "limit of the ratio": simplified(c1 / c2)}
            except BudgetExceeded:
                return None
    return None


# ---------------------------------------------------------------------------------------------
# Analysis per model

def _closed_growth(model: ClosedKernel):
    def run(ctx: Context):
        return growth(model.scaled, ctx)
    return run


def _judge(g, model, region: Region, ctx: Context) -> RegionResult:
    if isinstance(g, Oscillates):
        return RegionResult(region, None, "oscillates", str(g))
    if isinstance(g, BudgetExceeded):
        return RegionResult(region, None, "undecided", str(g))
    if isinstance(g, Undecided):
        return RegionResult(region, None, "undecided", str(g))
    if g is ZERO:
        return RegionResult(region, g, "zero", "the kernel vanishes for all large t")
    if not _depends_on_key(g, model):
        if g.oscillating:
            return RegionResult(region, g, "oscillates", "the growing part does not depend on the key and a "
                                "bounded oscillating factor remains: the ratio has no limit")
        wit = _finite_limit_witness(g, model, region)
        return RegionResult(region, g, "fails",
                            "the growing part of log k(x, t z) does not depend on the key", wit)
    try:
        wits = _witness_for(g, model, region)
    except BudgetExceeded as exc:
        return RegionResult(region, g, "undecided", str(exc))
    if not wits:
        return RegionResult(region, g, "undecided",
                            "no exact witness point shows that the growing part depends on the key")
    first = next(iter(wits.values()))
    lead = g.C.xreplace(_invariants(model, first["x"][0], first["z1"][0]))
    try:
        lead_sign = sign_of(lead, Context())
    except (Undecided, NeedSign, BudgetExceeded):
        lead_sign = 0
    if lead_sign == 0:
        # e.g. (g − 1)·exp(x·z) with g > 0: at g = 1 the kernel is identically 0.
        return RegionResult(region, g, "undecided", f"the kernel's leading coefficient {sympy.sstr(g.C)} is not "
                            "shown non-zero for every admissible parameter value")
    poly = _is_polynomial_growth(g, model)
    need = 1 if poly else len(list(_candidate_points(region, isinstance(model, FeatureKernel))))
    status = "holds" if len(wits) >= need else "holds-d2"
    first = next(iter(wits.values()))
    return RegionResult(region, g, status, "polynomial coefficients" if poly else "analytic coefficients",
                        {"points": [dict(w, orthant=list(o)) for o, w in wits.items()], "first": first})


@exact_cache()  # a function of the model alone: computed once per batch
def analyse_closed(model: ClosedKernel) -> list[RegionResult]:
    out = []
    for ctx, g in _explore(_closed_growth(model), Context()):
        out.append(_judge(g, model, _region(ctx), ctx))
    return out


@exact_cache()  # a function of the model alone: computed once per batch
def analyse_features(model: FeatureKernel) -> tuple[list[RegionResult], Optional[str]]:
    """Per sign region of the key feature: the growth of one term Q(q) K(t, k_r)."""
    problem = None
    # The query factors must be non-negative so that no terms cancel. Landmark coefficients may
    # have either sign, but the dominant landmark is generically unique and its coefficient is
    # generically non-zero (LIM-NYSTROM), so no cancellation can happen there either.
    checks = [] if model.index == "landmark" else _explore(lambda cx: sign_of(model.query, cx), Context())
    for _ctx, res in checks:
        if isinstance(res, Exception) or res < 0:
            problem = (f"the feature map φ = {sympy.sstr(model.query)} is not shown non-negative, "
                       "so terms of the feature sum may cancel")
    if not problem and model.index != "landmark":
        # A parameter factor (γ·φ with γ ≥ 0, say) could make every feature vanish.
        probe = model.query.xreplace({model.query_symbol: sympy.Integer(1), c: sympy.Integer(1)})
        try:
            nonzero = sign_of(probe, Context()) != 0
        except (Undecided, NeedSign, BudgetExceeded):
            nonzero = False
        if not nonzero:
            problem = (f"the feature map φ = {sympy.sstr(model.query)} is not shown non-zero for every "
                       "admissible parameter value")
    out = []
    for ctx, g in _explore(lambda cx: growth(model.key, cx), Context()):
        out.append(_judge(g, model, _region(ctx), ctx))
    return out, problem


def key_regions_for_features(results: list[RegionResult], model: FeatureKernel):
    """Combine per-feature regions into regions of the whole key: all +, all −, mixed."""
    by_sign = {}
    for r in results:
        sign = dict(r.region.signs).get(model.key_symbol.name)
        by_sign[sign] = r
    if None in by_sign:
        return {"every key": by_sign[None]}
    pos, neg = by_sign.get(1), by_sign.get(-1)
    regions = {f"all {model.key_symbol} > 0": pos, f"all {model.key_symbol} < 0": neg}
    # Mixed keys: the sign class whose terms dominate decides.
    if pos and neg and pos.growth is not None and neg.growth is not None:
        if neg.growth is ZERO:
            regions["mixed signs"] = pos
        elif pos.growth is ZERO:
            regions["mixed signs"] = neg
        else:
            kp = sympy.Symbol(model.key_symbol.name + "_p", positive=True)
            kn = sympy.Symbol(model.key_symbol.name + "_n", negative=True)
            gp = Growth(pos.growth.C.xreplace({model.key_symbol: kp}), pos.growth.p.xreplace({model.key_symbol: kp}),
                        tuple((al, co.xreplace({model.key_symbol: kp})) for al, co in pos.growth.E))
            gn = Growth(neg.growth.C.xreplace({model.key_symbol: kn}), neg.growth.p.xreplace({model.key_symbol: kn}),
                        tuple((al, co.xreplace({model.key_symbol: kn})) for al, co in neg.growth.E))
            try:
                s = compare(gp, gn, Context())
                regions["mixed signs"] = pos if s > 0 else neg if s < 0 else None
            except (Undecided, NeedSign):
                # Which sign class dominates depends on the key; each open sub-region is ruled by
                # one family, so the mixed region holds when both families hold.
                both = pos.status in ("holds", "holds-d2") and neg.status in ("holds", "holds-d2")
                regions["mixed signs"] = RegionResult(
                    Region(()), None if not both else pos.growth, "holds" if both else "undecided",
                    "either sign class may dominate; both make the growing part depend on the key"
                    if both else "the dominant sign class is undecided", pos.witness if both else None)
    else:
        regions["mixed signs"] = None
    return regions


# ---------------------------------------------------------------------------------------------
# Rules

def _growth_text(g: Growth) -> str:
    parts = [f"({sympy.sstr(co)})*t^{al}" if al != 1 else f"({sympy.sstr(co)})*t" for al, co in g.E]
    if g.p != 0:
        parts.append(f"({sympy.sstr(g.p)})*log t")
    return " + ".join(parts) if parts else "0 (bounded)"


@proof.rule("LIM-REDUCE", "Reduce the kernel limit to scalar invariants",
            proof.derived("Corollary 1", text="Cheng et al. 2025, kernel corollary; reduction: docs/theory.md §Reduction"), statuses=(proof.PROVED,),
            certificates=(Trusted,))
def reduce_step(model: KernelModel, head_text: str) -> proof.Step:
    if isinstance(model, ClosedKernel):
        claim = f"{model.description}: k = {sympy.sstr(model.scaled)}"
        ev = {"k(x, t z)": model.scaled, "invariants": "x·z (query · key direction), |z|², |x|²"}
    else:
        claim = (f"{model.description}: k = Σ_r ({sympy.sstr(model.query)}) · ({sympy.sstr(model.key)})")
        ev = {"query factor": model.query, "key factor": model.key,
              "invariants": f"{model.query_symbol}, {model.key_symbol} per feature r; {b}, {c}"}
    facts = ({"kernel": model.scaled} if isinstance(model, ClosedKernel) else
             {"query factor": model.query, "key factor": model.key})
    return proof.conclude(claim, proof.PROVED, evidence=dict(ev, head=head_text), facts=facts,
                          certificate=Trusted("lowering", "the kernel written in the Gram invariants by construction "
                                              "(uapcheck/lower.py; the identities of docs/theory.md §6.1)",
                                              {"head": head_text}))


def _classify(results: list[RegionResult], model: KernelModel) -> str:
    statuses = {r.status for r in results}
    if "oscillates" in statuses:
        return "LIM-OSC"
    if isinstance(model, FeatureKernel) and statuses <= {"holds", "holds-d2"}:
        return "LIM-FEATSUM"
    if statuses <= {"holds", "holds-d2"} and any(r.growth is not None and r.growth.oscillating for r in results):
        return "LIM-OSCPROD"
    if statuses <= {"holds", "holds-d2"}:
        gs = [r.growth for r in results]
        if all(_is_polynomial_growth(g, model) and all(al.is_integer for al, _ in g.E) for g in gs):
            return "LIM-EXPPOLY"
        return "LIM-EXPALG"
    if isinstance(model, ClosedKernel) and model.scaled.subs(t, 1) == model.scaled:
        return "LIM-SCALEINV"
    fails = [r for r in results if r.status == "fails"]
    if fails and all(not r.growth.E for r in fails):
        if all(r.growth.p == 0 for r in fails):
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
    return _LIM_RULES[rule_id](model, affine, reduce, results, regions, problem)


def _region_evidence(regions: dict) -> dict:
    ev = {}
    for name, r in regions.items():
        if r is None:
            ev[name] = {"status": "undecided", "reason": "the dominant terms could not be compared"}
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
    statuses = {name: (r.status if r else "undecided") for name, r in regions.items()}
    if not regions and not problem:
        problem = "no sign region of the invariants was analysed"
    holds_all = can_prove and all(s in ("holds", "holds-d2") for s in statuses.values())
    dims = "d ≥ 2" if any(s == "holds-d2" for s in statuses.values()) else "d ≥ 1"
    notes = []
    if problem:
        return proof.conclude(f"(LIM) undecided: {problem}", proof.UNDECIDED, [reduce], ev)
    if holds_all:
        draws = (" and almost every draw of the random vectors w_r"
                 if isinstance(model, FeatureKernel) and model.index == "random" else "")
        claim = (f"{label}: the growing part of log k(x,tz₁) − log k(x,tz₂) depends on the key, so "
                 f"k(x,tWy₁)/k(x,tWy₂) → 0 or ∞ for generic W, x and keys{draws} ({dims})")
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
        if r is None or r.status not in ("holds", "holds-d2"):
            continue
        if name.startswith("all ") or (isinstance(model, ClosedKernel) and name in (f"{a.name} < 0", f"{a.name} > 0")):
            reachable.append(name)
    if isinstance(model, FeatureKernel):
        # On the region the query coordinates have the same sign; the kernel must not vanish there.
        reachable = [name for name in reachable if _query_positive(model, name)]
    if affine and reachable and (isinstance(model, ClosedKernel) or model.index == "coordinate"):
        return region_rule(model, reduce, regions, statuses, reachable[0], label)
    return _not_established(model, affine, reduce, regions, statuses, reachable)


@proof.rule("LIM-REGION", "An open parameter region that every finite key set reaches", CITE_LIM,
            statuses=(proof.PROVED, proof.UNDECIDED),  # undecided only when the numeric cross-check disagrees
            certificates=(LimitCertificate,))
def region_rule(model, reduce, regions, statuses, name, label) -> proof.Step:
    ev = _region_evidence(regions)
    notes = []
    claim = (f"on the open parameter region where {name} for every key (and query) the ratio "
             f"tends to 0 or ∞ for generic parameters; `affine query key` reaches this region for "
             f"any finite key set (bias terms of one sign dominate), and scaling the affine key keeps it")
    notes.append("outside this region (LIM) fails: " + "; ".join(
        f"{n}: {s}" for n, s in statuses.items() if s not in ("holds", "holds-d2")))
    ev["numeric cross-check"] = cross_check(model, regions[name])
    dims = "d ≥ 2" if statuses.get(name) == "holds-d2" else "d ≥ 1"
    region = regions[name]
    atoms = {sym.name: sym for sym in (a, v, e, u, f)}
    signs = tuple((atoms[n], s) for n, s in region.region.signs if n in atoms)
    return _unless_disagreeing(proof.conclude(
        claim, proof.PROVED, [reduce], dict(ev, region=name, dimensions=dims), notes,
        facts={"min_dim": 2 if dims == "d ≥ 2" else 1, "region": signs,
               "growing parts": _growing_parts({name: region})},
        certificate=_limit_certificate(model, {name: region}, proof.PROVED)), ev["numeric cross-check"])


def _query_positive(model: FeatureKernel, name: str) -> bool:
    sign = -1 if "<" in name else 1
    try:
        return sign_of(model.query, Context({model.query_symbol: sign})) > 0
    except (Undecided, NeedSign, BudgetExceeded):
        return False


def _not_established(model, affine, reduce, regions, statuses, reachable) -> proof.Step:
    ev = _region_evidence(regions)
    notes = []
    failing = [n for n, s in statuses.items() if s not in ("holds", "holds-d2")]
    if reachable and not affine:
        notes.append(f"(LIM) holds on the region {reachable[0]}, but without `affine query key` no "
                     "parameter choice puts every key there (keys y and −y have opposite signs)")
    claim = f"(LIM) is not established: it fails or is undecided on {', '.join(failing)}"
    checked = [cross_check(model, regions[n]) for n in failing if regions[n] is not None and regions[n].witness]
    if checked:
        ev["numeric cross-check"] = checked
    refuted = bool(failing) and all(statuses[n] in ("fails", "oscillates", "zero") for n in failing)
    status = proof.REFUTED if refuted else proof.UNDECIDED
    return _unless_disagreeing(proof.conclude(
        claim, status, [reduce], ev, notes, facts={"growing parts": _growing_parts(regions)},
        certificate=_limit_certificate(model, regions, status) if status is proof.REFUTED else None), checked)


def _key_invariants(model: KernelModel) -> set:
    return {b, model.key_symbol} if isinstance(model, FeatureKernel) else {a, b}


def _coefficient(g: Growth, term: str):
    if term == "log t":
        return g.p
    return next(co for al, co in g.E if f"t^{al}" == term)


def _limit_certificate(model: KernelModel, regions: dict, conclusion) -> LimitCertificate:
    """Per region: the exact witness points of the growing coefficients (holds), or the symbols of the
    growing part (fails)."""
    out = []
    key = tuple(sorted(s.name for s in _key_invariants(model)))
    for name, r in regions.items():
        if r is None:
            out.append(RegionCertificate(name, "undecided", ()))
            continue
        points = []
        if r.status in ("holds", "holds-d2") and r.witness and r.growth is not None:
            for w in r.witness.get("points", []):
                x, z1, z2 = w["x"][0], w["z1"][0], w["z2"][0]
                points.append(KeyPoints(w["term"], _coefficient(r.growth, w["term"]),
                                        _invariants(model, x, z1), _invariants(model, x, z2)))
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


_LIM_RULES = {
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


@proof.rule("LIM-UNSUPPORTED", "Outside the engines' scope", CITE_LIM, statuses=(proof.UNDECIDED,))
def unsupported(label: str, reason: str) -> proof.Step:
    return proof.conclude(f"{label}: {reason}", proof.UNDECIDED, evidence={"reason": reason})


# ---------------------------------------------------------------------------------------------
# Adversarial key pairs and the numeric cross-check

class CrossCheckFailed(AssertionError):
    """Kept for callers that import it; the cross-check no longer raises (a persisting disagreement
    makes the step undecided, with the numbers)."""


CROSS_CHECK_STEPS = 4  # t = T, T·10⁶, T·10¹², T·10¹⁸ with T = 10⁶ · (the largest constant)


def _log_k(model: KernelModel, x: int, z: int, tval, digits: int = 40):
    inv = _invariants(model, x, z)
    expr = model.scaled if isinstance(model, ClosedKernel) else model.query * model.key
    if isinstance(model, FeatureKernel) and model.index == "landmark":
        expr = model.key  # the landmark coefficient cancels in the ratio
        inv = dict(inv, **{})
        inv[ZETA] = sympy.Integer(1)
    val = expr.xreplace(inv).xreplace({t: tval})
    return sympy.log(val).xreplace(_sample_params(val)).evalf(digits)


def _sample_params(expr) -> dict:
    """One admissible value per declared param (the cross-check is numeric, the proof is not)."""
    out = {}
    for sym in expr.free_symbols:
        if sym.is_integer:
            out[sym] = sympy.Integer(3)
        elif sym.is_positive or sym.is_nonnegative or sym.is_nonzero or sym.is_real:
            out[sym] = sympy.Rational(3, 2)
    return out


def _scale_of_constants(model: KernelModel) -> sympy.Integer:
    """A power of ten at least the largest constant of the kernel (and at least 1): the expansion's
    lower-order terms are relatively O(constant / t), so t is chosen as 10⁶ times this."""
    exprs = [model.scaled] if isinstance(model, ClosedKernel) else [model.query, model.key]
    biggest = sympy.Integer(1)
    for expr in exprs:
        for num in expr.atoms(sympy.Rational):
            for part in (abs(num.p), abs(num.q)):
                if part > biggest:
                    biggest = sympy.Integer(part)
    from ..bignum import digits
    return sympy.Integer(10) ** min(digits(int(biggest)) - 1, 200)


@exact_cache()  # a function of the model alone: computed once per batch
def cross_check(model: KernelModel, result: RegionResult) -> dict:
    """Evaluate log k(x,tz₁) − log k(x,tz₂) at large t with high precision and compare it with the
    growing part the rules derived (or with the finite limit they derived).

    t starts at 10⁶ times the kernel's largest constant (so a constant such as the 10⁹ of
    elu(x) + 10⁹ cannot dominate) and grows by 10⁶ while the numbers disagree. A disagreement that
    persists is returned with "agrees": False and the numbers; the rule then reports its step
    undecided. It never raises: a numeric check cannot turn a derivation into an internal error."""
    wit = result.witness or {}
    point = wit.get("first", wit)
    if "x" not in point:
        return {"skipped": "no witness point"}
    x, z1, z2 = point["x"][0], point["z1"][0], point["z2"][0]
    if isinstance(model, FeatureKernel) and model.index == "landmark":
        return {"skipped": "landmark sums are checked through their key factor only"}
    g = result.growth
    out = {"x": x, "z1": z1, "z2": z2, "values": {}}
    base = sympy.Integer(10) ** 6 * _scale_of_constants(model)
    try:
        with time_limit("the numeric cross-check of the kernel limit", 10.0):
            small = base / sympy.Integer(10) ** 3
            digits = 40 + 2 * len(str(base))
            out["values"][f"t = {small}"] = sympy.Float(
                _log_k(model, x, z1, small, digits) - _log_k(model, x, z2, small, digits), 12)
            for step in range(CROSS_CHECK_STEPS):
                big = base * sympy.Integer(10) ** (6 * step)
                digits = 40 + 2 * len(str(big))
                actual = _log_k(model, x, z1, big, digits) - _log_k(model, x, z2, big, digits)
                out["values"][f"t = {big}"] = sympy.Float(actual, 12)
                mismatch = _cross_check_mismatch(model, result, g, wit, x, z1, z2, big, actual, digits, out)
                if mismatch is None:
                    out["agrees"] = True
                    return out
            out["agrees"] = False
            out["disagreement"] = mismatch
    except (TypeError, ValueError, ZeroDivisionError, BudgetExceeded, ArithmeticError) as exc:
        return {"skipped": f"numeric evaluation failed: {exc}"}
    return out


def _cross_check_mismatch(model, result, g, wit, x, z1, z2, big, actual, digits, out) -> Optional[str]:
    """None if the value at t = big agrees with the derivation, else what disagrees."""
    if result.status in ("holds", "holds-d2"):
        s1, s2 = _invariants(model, x, z1), _invariants(model, x, z2)
        predicted = sum((co.xreplace(s1) - co.xreplace(s2)) * big ** al for al, co in g.E) + \
            (g.p.xreplace(s1) - g.p.xreplace(s2)) * sympy.log(big)
        predicted = sympy.Float(predicted.xreplace(_sample_params(predicted)).evalf(digits), 12)
        out["predicted growing part at t = 10^6" if big == 10 ** 6 else f"predicted growing part at t = {big}"] = predicted
        if predicted == 0 or abs(actual / predicted - 1) > sympy.Rational(1, 10):
            return (f"at x={x}, z1={z1}, z2={z2}, t = {sympy.sstr(big)}: log-ratio {sympy.Float(actual, 12)} "
                    f"but the derived growing part is {predicted}")
    elif result.status == "fails" and "limit of the ratio" in wit:
        lim = wit["limit of the ratio"]
        target = sympy.log(lim).xreplace(_sample_params(lim)).evalf(40) if lim != 0 else None
        out["derived limit of the log-ratio"] = target
        if target is not None and abs(actual - target) > sympy.Rational(1, 100):
            return (f"at x={x}, z1={z1}, z2={z2}, t = {sympy.sstr(big)}: log-ratio {sympy.Float(actual, 12)} "
                    f"but the derived limit is log({lim}) = {target}")
    return None


def _disagreeing(checks) -> list:
    items = checks if isinstance(checks, list) else [checks]
    return [c for c in items if isinstance(c, dict) and c.get("agrees") is False]


def _unless_disagreeing(step: proof.Step, checks) -> proof.Step:
    """The step as concluded, or, when the numbers disagree with it even at the largest t, the same
    rule's step with status undecided and the numbers (called inside the rule that made `step`)."""
    bad = _disagreeing(checks)
    if not bad:
        return step
    return proof.conclude("(LIM) undecided: a 40-digit evaluation does not confirm the derived growth even at "
                          f"the largest t tried ({bad[0]['disagreement']}); the derivation was: {step.claim}",
                          proof.UNDECIDED, list(step.premises), dict(step.evidence), step.notes)


def _same_growth(g1: Growth, g2: Growth) -> bool:
    """The growing parts coincide identically (then (LIM) fails on that key-pair class)."""
    d1, d2 = dict(g1.E), dict(g2.E)
    for alpha in set(d1) | set(d2):
        if not is_zero(d1.get(alpha, 0) - d2.get(alpha, 0)):
            return False
    return is_zero(g1.p - g2.p)


def _subs_growth(g: Growth, sub: dict) -> Growth:
    return Growth(g.C.xreplace(sub), g.p.xreplace(sub), tuple((al, co.xreplace(sub)) for al, co in g.E))


def feature_adversarial_notes(model: FeatureKernel, results: list[RegionResult]) -> list[str]:
    """The same classes for a feature sum, per feature: antipodal keys flip the sign of every key
    feature (and swap the sign regions), positively collinear keys scale them by λ > 0."""
    k = model.key_symbol
    by_sign = {dict(r.region.signs).get(k.name): r.growth for r in results}
    if any(g is None for g in by_sign.values()) or model.index == "landmark":
        return []
    lam = sympy.Symbol("λ", positive=True)
    notes = []
    if None in by_sign:
        g = by_sign[None]
        flipped = {1: g, -1: g}
    else:
        flipped = {1: by_sign.get(-1), -1: by_sign.get(1)}
        g = None
    antipodal = all(
        gs is not None and flipped[s] is not None and _same_growth(gs, _subs_growth(flipped[s], {k: -k}))
        for s, gs in (by_sign.items() if g is None else [(1, g)]))
    if antipodal:
        notes.append("(LIM) fails on antipodal keys (y, −y): each feature's growing part is even in the "
                     "key feature (a null set of key pairs)")
    collinear = all(gs is not None and _same_growth(gs, _subs_growth(gs, {k: lam * k, b: lam ** 2 * b}))
                    for gs in by_sign.values())
    if collinear:
        notes.append("(LIM) fails on positively collinear keys (y, λy) (a null set of key pairs)")
    return notes


@exact_cache()  # a function of the model alone: computed once per batch
def adversarial_notes(model: KernelModel, results: list[RegionResult]) -> list[str]:
    """Key-pair classes of measure zero on which (LIM) fails; notes on a generic verdict."""
    if isinstance(model, FeatureKernel):
        return feature_adversarial_notes(model, results)
    if len(results) != 1 or results[0].growth is None:
        return []
    g = results[0].growth
    lam = sympy.Symbol("λ", positive=True)
    a2 = sympy.Symbol("x·z₂", real=True)
    classes = {
        "antipodal keys (y, −y)": {a: -a, b: b},
        "positively collinear keys (y, λy)": {a: lam * a, b: lam ** 2 * b},
        "equal-norm keys": {a: a2, b: b},
    }
    notes = []
    for name, sub in classes.items():
        zero = True
        for _, co in g.E:
            if not is_zero(co - co.xreplace(sub)):
                zero = False
        if not is_zero(g.p - g.p.xreplace(sub)):
            zero = False
        if zero:
            notes.append(f"(LIM) fails on {name}: the growing parts coincide there (a null set of key pairs)")
    query0 = {a: sympy.Integer(0), c: sympy.Integer(0)}
    if all(co.xreplace(query0).free_symbols.isdisjoint({b}) for _, co in g.E) and \
            g.p.xreplace(query0).free_symbols.isdisjoint({b}):
        notes.append("(LIM) fails for the zero query x = 0 (a null set; a query bias removes it)")
    return notes
