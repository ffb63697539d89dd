"""The exact symmetry group G of the attention family, for heads with the full pattern.

Sparse patterns go through rules/pattern.py (graph automorphisms); here: dense kernel attention
is S_n-equivariant, and a bias structure or an absolute positional encoding cuts G down to the
group of the bias (free, toeplitz → trivial; circulant → C_n; symmetric circulant → D_n;
symmetric toeplitz → reflection) or to the trivial group.
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import proof
from .wording import condition_claim, group_claim
from ..claim import claim as claim_of, group as group_of
from .. import spec as S
from ..certificates import (ByResidueClass, CyclicHeadsGroup, Generators, GridHubsGroup, HeadIntersection,
                            ParityHubsGroup, PartitionHeads, ResidueExchangesGroup, SplitLinesGroup, StandardFamily, TrivialBesideCompleteHead,
                            Trusted)
from ..groups import (ROTATION_AND_REFLECTION_GROUPS, GroupInfo, NamedGroup, bias_group, meet, order_text,
                      symbolic_group)

CITE_SYM = proof.derived("Definition 1", text="Cheng et al. 2025, G-UAP; the exact equivariance group "
                         "(docs/theory.md §Symmetry)")

@proof.rule("SYM-DENSE", "Symmetry group of dense heads with their bias and positional encoding", CITE_SYM, statuses=(proof.PROVED,),
            certificates=(Trusted,))
def dense_symmetry(spec: S.Spec, positions: Optional[dict] = None) -> tuple[proof.Step, GroupInfo]:
    n = spec.tokens
    name = NamedGroup.SYMMETRIC
    positions = positions or {}
    reasons = ["kernel attention with the full pattern: g(σX) = σ g(X) for every permutation σ, since "
               "Σ_j k(q_i, k_j) v_j / Σ_j k(q_i, k_j) does not depend on the order of j"]
    small = isinstance(n, int) and n <= 2  # every named group is S_n there (meet reads n ≥ 3)
    met = []  # the heads' groups that meet reads
    for k, h in enumerate(spec.heads):
        if k in positions:
            kind, why = positions[k]
            g = bias_group(kind)
            reasons.append(f"head {h.label or k + 1}: positions enter the weights through classes of j − i "
                           f"({why}), the classes of a `{kind}` bias: σ preserves them exactly when σ ∈ {g} "
                           "(docs/theory.md §16)")
        elif h.bias:
            g = bias_group(h.bias)
            reasons.append(f"bias `{h.bias}`: B_σ(i)σ(j) = B_ij for all trainable B exactly when σ ∈ {g}")
        else:
            g = None
        if g is not None:
            met.append(g)
            name = meet(name, NamedGroup.SYMMETRIC if small and g in ROTATION_AND_REFLECTION_GROUPS else g)
        if h.projection:
            reasons.append("trainable sequence projections E, F ∈ R^{K×n} mix positions: only the identity "
                           "commutes with every E, F" if not h.projection.fixed else
                           "frozen sequence projections E, F: for generic frozen E, F only the identity "
                           "preserves them (special frozen choices may keep more symmetry)")
            name = NamedGroup.TRIVIAL
    if spec.positional == "absolute":
        reasons.append("an absolute positional encoding E: σ(X + E) = σX + E for all X only if σE = E, "
                       "and a generic E has distinct columns")
        name = NamedGroup.TRIVIAL
    if isinstance(n, int) and n <= 2 and name in ROTATION_AND_REFLECTION_GROUPS:
        name = NamedGroup.SYMMETRIC  # for n ≤ 2 they are all S_n
    group = symbolic_group(name, n)
    if name == NamedGroup.TRIVIAL and not isinstance(n, int) and met and \
            all(g in ROTATION_AND_REFLECTION_GROUPS for g in met) and spec.positional != "absolute" and \
            not any(h.projection for h in spec.heads):
        # C_n ∩ the reflection is trivial for n ≥ 3 only: at n ≤ 2 both are S_n (`circulant` beside `symmetric
        # toeplitz` at n = 2 keeps the swap), so the lengths below are decided one by one (§12)
        n_symbol = sympy.Symbol(str(n), integer=True, positive=True)
        group = GroupInfo(name, 1, (), f"{n} ≥ 3", sympy.GreaterThan(n_symbol, 3, evaluate=False))
    if any(h.projection and h.projection.fixed for h in spec.heads):
        step = proof.conclude(claim_of("for generic frozen projections E, F the equivariance group is ",
                                       group_of(name, "G"), " (special frozen choices may keep more symmetry)"), proof.PROVED,
                              evidence={"group": name, "order": group.order_value,
                                        "generators": list(group.generators), "reasons": reasons},
                              facts={"group": group}, certificate=_table(reasons))
        return step, group
    step = proof.conclude(claim_of("the exact equivariance group of the attention family is ", group_of(name, "G"),
                                   condition_claim(group, " (", ")")),
                          proof.PROVED, evidence={"group": name, "order": group.order_value,
                                                  "generators": list(group.generators), "reasons": reasons},
                          facts={"group": group}, certificate=_table(reasons))
    return step, group


def _table(reasons: list) -> Trusted:
    return Trusted("the group table", "the groups of dense heads, bias kinds and encodings (docs/theory.md §9), "
                   "met pairwise", {"reasons": reasons})


# ---------------------------------------------------------------------------------------------
# The group of a sparse pattern, from the graph engine's certificate (rules/pattern.py computes it)

CITE_GROUP = proof.derived("Corollary 2", text="Cheng et al. 2025, G-UAP; G = ∩ heads Aut(Γ_head) ∩ bias ∩ PE "
                           "(docs/theory.md §Symmetry)")


def _order_text(order) -> str:
    """An order as the report shows it (orders_text bounds long numbers), for comparison."""
    shown = order_text(order)
    return shown if isinstance(shown, str) else sympy.sstr(shown)


def _certified_orders(certificate) -> set:
    """The orders (as the report shows them) a group certificate proves."""
    if isinstance(certificate, PartitionHeads) and certificate.length is not None:
        return {_order_text(certificate.order_at_length())}  # Theorem F126: the class's formula at the length
    if isinstance(certificate, (HeadIntersection, PartitionHeads, TrivialBesideCompleteHead, CyclicHeadsGroup,
                                ResidueExchangesGroup, SplitLinesGroup, GridHubsGroup, ParityHubsGroup)):
        return {_order_text(certificate.order)}
    if isinstance(certificate, Generators):
        return {_order_text(certificate.order), _order_text(certificate.shown or certificate.order)}
    if isinstance(certificate, StandardFamily):
        claims = dict(certificate.claims)
        return {_order_text(claims["order"])} | ({claims["order_shown"]} if claims.get("order_shown") else set())
    if isinstance(certificate, Trusted) and "order" in certificate.data:
        return {_order_text(certificate.data["order"]),
                _order_text(certificate.data.get("shown", certificate.data["order"]))}
    return set()


def _check_classes(info: GroupInfo, certificate) -> None:
    """G by residue class: the certificate's classes are the group's (one modulus), and every entry proves
    the order of the class its residues lie in. Residues the certificate leaves open (no group proved there)
    must be excluded by the group's stated range, proved from its residue parts (docs/theory.md §11.4)."""
    from .residue_classes import excludes
    if not isinstance(certificate, ByResidueClass):
        raise proof.CertificateRejected("SYM-AUT: a group by residue class is proved class by class")
    where = {r: cls for cls in info.classes for r in cls.residues}
    if any(cls.modulus != certificate.modulus for cls in info.classes) or \
            sorted([*where, *certificate.open_residues]) != list(range(certificate.modulus)):
        raise proof.CertificateRejected("SYM-AUT: the group's classes are not the certificate's")
    formula = info.condition_formula
    n = next((a.args[0] for a in getattr(formula, "atoms", lambda *_: ())(sympy.Mod)
              if isinstance(a.args[0], sympy.Symbol)), None)
    if certificate.open_residues and (n is None or not excludes(formula, n, certificate.modulus,
                                                                certificate.open_residues)):
        raise proof.CertificateRejected("SYM-AUT: the stated range does not exclude the classes where no group is "
                                        "proved")
    for residues, entry in certificate.entries:
        stated = {_order_text(where[r].group.order) for r in residues}
        if len(stated) != 1 or not stated <= _certified_orders(entry):
            raise proof.CertificateRejected(f"SYM-AUT: the classes n mod {certificate.modulus} ∈ {list(residues)} "
                                            "do not have the certified order")


@proof.rule("SYM-AUT", "G = ∩ heads Aut(Γ_head) ∩ bias ∩ PE, computed exactly", CITE_GROUP,
            statuses=(proof.PROVED,), certificates=(Generators, StandardFamily, HeadIntersection, PartitionHeads, CyclicHeadsGroup, ResidueExchangesGroup,
                                                    SplitLinesGroup, GridHubsGroup, ParityHubsGroup, Trusted,
                                                    ByResidueClass,
                                                    TrivialBesideCompleteHead))
def group_step(desc: str, info: GroupInfo, evidence: dict, certificate, notes=()) -> proof.Step:
    if info.classes:
        _check_classes(info, certificate)
    elif _order_text(info.order) not in _certified_orders(certificate):
        raise proof.CertificateRejected(f"SYM-AUT: the group of order {info.order} is not the certified one")
    return proof.conclude(claim_of("the exact equivariance group of the attention family is ", group_claim(info),
                                   condition_claim(info, " (for ", ")"), ": each head's pattern and bias must be "
                                   "preserved separately (never Aut of the union)"),
                          proof.PROVED, evidence=dict(evidence, patterns=desc, order=info.order_value,
                                                      name=info.name), notes=notes,
                          facts={"group": info}, certificate=certificate)


@proof.rule("SYM-UNDECIDED", "Symmetry group undecided", CITE_GROUP, statuses=(proof.UNDECIDED,))
def group_undecided(desc: str, reason: str, by_class: Optional[tuple] = None, open_words: str = "") -> proof.Step:
    """`by_class`: (n, L, residues, range) when the group is undecided on these residue classes of n mod L only
    (the group step states the others, docs/theory.md §11.4), within the range of the closed forms' bounds: the
    facts `residue_class` (the classes within that range), `modulus` and `residues` carry them, so the verdict is
    INCONCLUSIVE on these classes only (§12) and the lengths below the range are decided one by one. `open_words`:
    the open question there, as the verdict names it (else "no closed form gives the group there")."""
    if by_class is None:
        return proof.conclude(f"the symmetry group is undecided: {reason}", proof.UNDECIDED,
                              evidence={"patterns": desc, "reason": reason})
    from ..claim import Formula
    from ..groups import class_condition
    from ..show import show_condition
    from ..conditions import simplify_condition
    n, modulus, residues, bound = by_class
    where = simplify_condition(sympy.And(bound, class_condition(n, modulus, residues)))
    return proof.conclude(claim_of("the symmetry group is undecided for ", Formula(where, show_condition(where)),
                                   f": {reason}"), proof.UNDECIDED,
                          evidence={"patterns": desc, "reason": reason, "classes": show_condition(where)},
                          facts={"residue_class": where, "modulus": modulus, "residues": tuple(residues),
                                 "open": open_words or "no closed form gives the group there"})
