"""Null sets of key pairs on which (LIM) fails although it holds generically: antipodal keys,
positively collinear keys, equal-norm keys, the zero query. They become notes on a generic verdict.
"""
from __future__ import annotations

from typing import Optional

import sympy

from ..asymptotics import Growth
from ..memo import exact_cache
from ..zero import is_zero
# the invariants under the docs' names (uapcheck/lower.py)
from ..lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c, FeatureKernel, KernelModel
from .analysis import RegionResult


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
    flipped: dict[Optional[int], Optional[Growth]]
    if None in by_sign:
        g = by_sign[None]
        flipped = {1: g, -1: g}
    else:
        flipped = {1: by_sign.get(-1), -1: by_sign.get(1)}
        g = None

    def even(gs: Optional[Growth], other: Optional[Growth]) -> bool:
        return gs is not None and other is not None and _same_growth(gs, _subs_growth(other, {k: -k}))
    antipodal = all(even(gs, flipped.get(s)) for s, gs in (by_sign.items() if g is None else [(1, g)]))
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
