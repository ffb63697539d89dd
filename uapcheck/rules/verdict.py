"""Theorem 1 with the fixed-m corollary: combine the premises into the verdict."""
from __future__ import annotations

from .. import proof
from .. import spec as S
from .limit import CITE_LIM

CITE_T1 = "Cheng et al. 2025, Theorem 1 and the fixed-m corollary; docs/theory.md §Verdict"
CITE_TD = "Cheng et al. 2025, kernel corollary with Theorem 2; docs/theory.md §Token distinguishability"


@proof.rule("TD-KERNEL", "One kernel-attention layer is token distinguishing", CITE_TD, statuses=(proof.PROVED, proof.UNDECIDED))
def td_kernel(lim: proof.Step, analytic: proof.Step, label: str) -> proof.Step:
    if lim.proved and analytic.proved:
        return proof.conclude(f"{label}: one layer separates any two samples from different orbits "
                              "(dominant-pair lemma under LIM), and analyticity in θ extends this to every "
                              "finite data set (Theorem 2): 1-layer token distinguishing",
                              proof.PROVED, [lim, analytic])
    failing = [s.rule for s in (lim, analytic) if not s.proved]
    return proof.conclude(f"{label}: token distinguishability is not established (premise {', '.join(failing)} "
                          "not proved)", proof.UNDECIDED, [lim, analytic])


@proof.rule("TD-LINFORMER", "Trainable sequence projections: one layer distinguishes", CITE_TD, statuses=(proof.PROVED, proof.UNDECIDED))
def td_linformer(analytic: proof.Step, positive: proof.Step, fixed: bool, size: int, label: str,
                 zero_key_positive: bool = True) -> proof.Step:
    if fixed:
        return proof.conclude(f"{label}: with frozen E, F ∈ R^{{{size}×n}} and n > 2·{size}, ker E ∩ ker F ≠ 0, "
                              "so two different inputs X ≠ X' can have identical contexts XEᵀ, XFᵀ; tokens "
                              "where they agree then stay equal for every θ", proof.UNDECIDED, [analytic],
                              {"reason": "contexts of different inputs can coincide"})
    if not analytic.proved or not positive.proved:
        return proof.conclude(f"{label}: analyticity or the kernel's positivity is not established",
                              proof.UNDECIDED, [analytic, positive])
    if not zero_key_positive:
        return proof.conclude(f"{label}: k(q, 0) > 0 is not shown, so the uniform weights at W_K = 0 that the "
                              "argument uses may not exist", proof.UNDECIDED, [analytic, positive])
    return proof.conclude(f"{label}: for X ≠ X' pick a row f of the trainable F with Xfᵀ ≠ X'fᵀ; with W_K = 0 "
                          "the weights k(q, 0) > 0 are uniform and with W_V = I a shared token's outputs "
                          "differ, so one layer separates two samples, and Theorem 2 extends it to any finite "
                          "data set", proof.PROVED, [analytic, positive])


@proof.rule("TD-BIAS", "A trainable structured bias separates permuted copies", CITE_TD, statuses=(proof.PROVED, proof.UNDECIDED))
def td_bias(td: proof.Step, kind: str, label: str) -> proof.Step:
    if not td.proved:
        return proof.conclude(f"{label}: the kernel premises are not proved", proof.UNDECIDED, [td])
    if kind.startswith("symmetric"):
        # B_{i,i+s} = B_{i,i-s}: one layer at i cannot tell x_{i+s} from x_{i-s}, so X and X with
        # those two tokens exchanged (not a symmetry for n large enough) agree at i.
        return proof.conclude(f"{label}: with a `{kind}` bias, position i weighs i + s and i − s alike, so one "
                              "layer does not separate X from X with x_(i+s) and x_(i−s) exchanged; more layers "
                              "are not analysed here", proof.UNDECIDED, [td],
                              {"reason": "one layer is not token distinguishing for symmetric bias kinds"})
    return proof.conclude(f"{label}: samples with different token sets are separated as without bias; "
                          f"for X' = σX with σ outside the group of the `{kind}` bias, a bias β large at one "
                          "shift concentrates row i on one position, so equal outputs for every β force "
                          "X' into the same orbit (derived here; docs/theory.md §Bias)", proof.PROVED, [td])


@proof.rule("PE-LIFT", "An absolute positional encoding lifts S_n-UAP to plain UAP", CITE_T1, statuses=(proof.PROVED, proof.UNDECIDED))
def pe_lift(td: proof.Step) -> proof.Step:
    if not td.proved:
        return proof.conclude("the premises without positional encoding are not proved", proof.UNDECIDED, [td])
    return proof.conclude("with a learned encoding E chosen with separated distinct columns, σ(K + E) ∩ (K + E) = ∅ for "
                          "σ ≠ id, so any continuous target on K extends equivariantly and is approximated "
                          "through X ↦ T(X + E) (paper §6.9)", proof.PROVED, [td])


@proof.rule("VERDICT-T1", "Theorem 1 with the fixed-m corollary", CITE_T1, statuses=(proof.PROVED, proof.UNDECIDED))
def verdict_step(ffn: proof.Step, td: list, structure: list, group_step: proof.Step,
                 verdict: str, claim: str) -> proof.Step:
    status = proof.PROVED if verdict in ("UAP", "NOT-UAP", "ILL-POSED") else proof.UNDECIDED
    return proof.conclude(claim, status, [ffn, *td, *structure, group_step], {"verdict": verdict})


@proof.rule("DIM-RANGE", "A premise proved only for token dimension d ≥ 2", CITE_LIM, statuses=(proof.UNDECIDED,))
def dimension_range(spec: S.Spec, premise_needs_two: bool = True) -> proof.Step:
    if premise_needs_two:
        return proof.conclude("`dim 1`: a premise was proved only for d ≥ 2 (its witness argument needs the "
                              "connected domain {x ≠ 0, z ≠ 0} of d ≥ 2, or one witness per sign orthant in d = 1)",
                              proof.UNDECIDED, evidence={"dim": spec.dim})
    return proof.conclude("`dim 1`: Theorem 1 is stated for token dimension d ≥ 2 (the paper assumes d ≥ 2), "
                          "so every premise being proved does not give the UAP at d = 1",
                          proof.UNDECIDED, evidence={"dim": spec.dim, "assumption": "d ≥ 2 (Theorem 1)"})
