"""Nyström attention on fixed landmarks: the approximate kernel as a landmark feature sum."""
from __future__ import annotations

from typing import Optional

import sympy

from .. import proof
from ..certificates import ExactIdentity, Inference
from .. import spec as S
# the invariants under the docs' names (uapcheck/lower.py)
from ..lower import (KAPPA, KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c, RANDOM_DOT_KEY as e, SCALE as t,
                     ZETA, FeatureKernel)
from .limit import CITE_LIM as _CITE
from ..zero import is_zero
from ..claim import Claim, claim, eq, written

CITE_NYSTROM = proof.derived("Corollary 3", text=_CITE.text)  # the SkyFormer part of Corollary 3
LANDMARK_SUM = written("k̃(x, t z) = Σ_b κ_b(x)·exp(−γ(|z_b|² − 2t z_b·z + t²|z|²))",
                       r"\tilde{k}(x, t z) = \sum_{b} \kappa_{b}(x)\, e^{-\gamma (\lVert z_{b} \rVert^{2} "
                       r"- 2 t\, z_{b} \cdot z + t^{2} \lVert z \rVert^{2})}")


@proof.rule("LIM-NYSTROM", "Nyström kernel on fixed landmarks: a landmark feature sum", CITE_NYSTROM,
            statuses=(proof.PROVED, proof.UNDECIDED), certificates=(ExactIdentity,))
def nystrom_model(head: S.Head, model) -> tuple[proof.Step, Optional[FeatureKernel]]:
    """k̃(x, y) = Σ_{a,b} k(x, z_a) (K_ZZ⁺)_{ab} k(z_b, y). For the Gaussian kernel (strictly positive
    definite) K_ZZ is invertible and the coefficient κ_b(x) = Σ_a k(x, z_a)(K⁻¹)_{ab} is a non-trivial
    combination of linearly independent Gaussians, so it is non-zero for generic x."""
    plain = getattr(model, "plain", None)
    if plain is None:
        return proof.conclude("Nyström is supported for closed-form kernels", proof.UNDECIDED), None
    log_plain = sympy.expand(sympy.expand_log(sympy.log(plain), force=True))
    poly = sympy.Poly(log_plain, a, b, c) if log_plain.is_polynomial(a, b, c) else None
    gamma = None
    if poly is not None and poly.total_degree() == 1:
        cb, ca, cc = poly.coeff_monomial(b), poly.coeff_monomial(a), poly.coeff_monomial(c)
        if is_zero(ca + 2 * cb) and is_zero(cb - cc) and (-cb).is_positive:
            gamma = -cb
    if gamma is None or poly is None:
        return proof.conclude(claim("Nyström on this kernel: strict positive definiteness is not established "
                                    "(supported: Gaussian kernels ",
                                    written("exp(−γ|x − y|²)", r"e^{-\gamma \lVert x - y \rVert^{2}}"), ")"), proof.UNDECIDED,
                              evidence={"kernel": plain}), None
    zeta = ZETA
    key = sympy.exp(-gamma * (zeta - 2 * t * e + t ** 2 * b))
    kappa = KAPPA
    fk = FeatureKernel(((kappa, key),), kappa, e, "landmark",
                       "k̃(x, t z) = Σ_b κ_b(x) k(z_b, t z) over the fixed landmarks z_b")
    step = proof.conclude(claim("Gaussian kernel with ", eq("γ", gamma, latex_name="gamma"), ": ", LANDMARK_SUM, "; ",
                                written("κ_b(x) ≠ 0", r"\kappa_{b}(x) \neq 0"), " for generic x (",
                                written("K_ZZ", "K_{ZZ}"), " invertible, Gaussians linearly independent)"),
                          proof.PROVED, evidence={"key factor": key, "gamma": gamma, "w·z": "here the landmark z_b · the key direction z"},
                          certificate=ExactIdentity(log_plain - poly.coeff_monomial(1), -gamma * (b + c - 2 * a),
                                                    f"log k(x, z) = const − γ|x − z|² with γ = {gamma} > 0: a "
                                                    "Gaussian kernel"))
    return step, fk


@proof.rule("LIM-NYSTROM-USE", "The Nyström limit rests on the landmark expansion", CITE_NYSTROM,
            statuses=(proof.PROVED, proof.REFUTED, proof.UNDECIDED), certificates=(Inference,))
def with_premises(step: proof.Step, extra: list) -> proof.Step:
    cert = Inference(tuple((x, proof.PROVED) for x in extra) + ((step, step.status),),
                     "the limit step, on the landmark expansion it was computed for")
    return proof.conclude(Claim(step.claim_parts), step.status, [*extra, step], {}, facts=step.facts,
                          certificate=cert if step.status is not proof.UNDECIDED else None)
