"""Theorem 1 with the fixed-m corollary: combine the premises into the verdict."""
from __future__ import annotations

import sympy
from dataclasses import dataclass, replace

from .. import proof
from ..certificates import Inference
from ..proof import Certificate
from ..claim import Formula, claim as claim_of, of_step
from ..show import show_condition
from ..claim import REASON, written
from .wording import ZERO_KEYS, group_claim, listed, m_layer, position, token, value

CITE_T1_TEXT = "Cheng et al. 2025, Theorem 1 and the fixed-m corollary; docs/theory.md §Verdict"
CITE_T1 = proof.paper("Theorem 1", "Theorem 2", text=CITE_T1_TEXT)
# The paper only names positional encodings as the way from G-UAP to plain UAP (a limitation remark); the mechanism,
# an equivariant extension through X ↦ X + E (standard since Yun et al. 2020), is derived here.
CITE_PE = proof.derived("Theorem 1", text="the equivariant extension through X ↦ X + E (the argument of Yun et al. "
                        "2020, Transformers are universal approximators of sequence-to-sequence functions), derived "
                        "here: docs/theory.md §10; the paper names positional encodings only as a limitation")
CITE_DIM = proof.paper("Theorem 1", text="Cheng et al. 2025, §2: \"we assume that d ≥ 2\", the standing assumption of "
                       "Theorem 1; docs/theory.md §12 DIM-RANGE")
CITE_TD_TEXT = "Cheng et al. 2025, kernel corollary with Theorem 2; docs/theory.md §Token distinguishability"
CITE_TD = proof.paper("Corollary 1", "Theorem 2", text=CITE_TD_TEXT)
CITE_LINFORMER = proof.paper("Corollary 3", text=CITE_TD_TEXT)
CITE_BIAS = proof.derived("Corollary 1", text=CITE_TD_TEXT)


# Where Corollary 1 does not apply as stated (it asks (LIM) for generic parameters and an analytic kernel), the
# argument is the corollary's, redone here: (LIM) on a data-dependent open region (LIM-REGION, §6, §20.3), or a
# layer analytic only off q = ±k (the Laplacian, §20.4).
CITE_TD_REGION = proof.derived("Corollary 1", "Theorem 2", text=(
    "the kernel corollary's argument with (LIM) on a data-dependent open region, derived here: docs/theory.md §6 "
    "(LIM-REGION) and §20.3, with Theorem 2 on that connected region"))
CITE_TD_OFF_DIAGONAL = proof.derived("Corollary 1", "Theorem 2", text=(
    "the kernel corollary's argument for a kernel that is not analytic at q = ±k, derived here: docs/theory.md "
    "§20.4, with Theorem 2 off those subspaces"))


CITE_TD_ONE_TOKEN = proof.derived("Definition 3", text=(
    "Definition 3 at n = 1, derived here: two samples from different orbits are two different tokens, and the layer "
    "with W_V = 0 (the identity) keeps them apart; docs/theory.md §8 (TD-KERNEL at n = 1)"))


@proof.rule("TD-KERNEL", "One kernel-attention layer is token distinguishing", CITE_TD, statuses=(proof.PROVED, proof.UNDECIDED),
            certificates=(Inference,), variants={"region": CITE_TD_REGION, "off-diagonal": CITE_TD_OFF_DIAGONAL,
                                                 "one-token": CITE_TD_ONE_TOKEN})
def td_kernel(lim: proof.Step, analytic: proof.Step, label: str, one_token: bool = False) -> proof.Step:
    """`one_token`: the sequence has n = 1 token and the head is well-posed (unnormalised, or its normaliser proved
    positive): one layer is token distinguishing whatever (LIM) says (docs/theory.md §8, TD-KERNEL at n = 1)."""
    if one_token and not (lim.proved and analytic.proved):
        return proof.conclude(f"{label}: at n = 1 two samples from different orbits are two different tokens, and the "
                              "layer with W_V = 0 is the identity, which keeps them apart: 1-layer token distinguishing "
                              "(the head is well-posed; (LIM) is not needed)", proof.PROVED, [lim, analytic],
                              facts={"layers": 1},
                              certificate=Inference(((lim, lim.status), (analytic, analytic.status)),
                                                    "Definition 3 at n = 1 (the identity layer separates two tokens)"),
                              variant="one-token")
    if lim.proved and analytic.proved:
        variant = ("region" if lim.rule == "LIM-REGION" else
                   "off-diagonal" if analytic.facts.get("off_diagonal") else None)
        return proof.conclude(f"{label}: one layer separates any two generic samples from different orbits (off a "
                              "null subset of the data sets with the same shared tokens; dominant-pair lemma under "
                              "LIM), and analyticity in θ extends this to every "
                              "finite data set (Theorem 2): 1-layer token distinguishing",
                              proof.PROVED, [lim, analytic], facts={"layers": 1},
                              certificate=Inference(((lim, proof.PROVED), (analytic, proof.PROVED)),
                                                    "the dominant-pair lemma under (LIM), extended by Theorem 2"),
                              variant=variant)
    return proof.conclude(f"{label}: token distinguishability is not established: {_open_premises(lim, analytic)}",
                          proof.UNDECIDED, [lim, analytic])


def _open_premises(lim: proof.Step, analytic: proof.Step) -> str:
    """Which premise of the kernel corollary is missing, and how: refuted or undecided, with the reason."""
    parts = []
    if not lim.proved:
        parts.append(f"(LIM) {'fails' if lim.status is proof.REFUTED else 'is undecided'} ({lim.rule})")
    if not analytic.proved:
        ops = analytic.evidence.get("non-analytic operations")
        names = sorted({str(op).split(":")[0] for op in ops}) if isinstance(ops, (list, tuple)) else [str(ops)] if ops else []
        why = f": {', '.join(names)}" if names else ""
        parts.append(f"analyticity in θ is not shown ({analytic.rule}{why})")
    return (" and ".join(parts) + ", so the kernel corollary does not apply; no moment route (which needs `affine "
            "query key` or a radial kernel) applies, no rotation route (TD-COMPLEX, which needs one head with an entire "
            "even profile α(x·y) whose rotation α(i s) satisfies (LIM)) applies, and no exact one-layer witness pair was "
            "found, so whether one layer is token distinguishing is open")


@proof.rule("TD-LINFORMER", "Trainable sequence projections: one layer distinguishes", CITE_LINFORMER, statuses=(proof.PROVED, proof.UNDECIDED),
            certificates=(Inference,))
def td_linformer(analytic: proof.Step, positive: proof.Step, fixed: bool, size: int, label: str,
                 zero_key_positive: bool = True) -> proof.Step:
    if fixed:
        return proof.conclude(claim_of(f"{label}: with frozen E, F ∈ ",
                                       written(f"R^{{{size}×n}}", rf"\mathbb{{R}}^{{{size} \times n}}"),
                                       f", for n > {2 * size} (= 2·{size}) ker E ∩ ker F ≠ 0, "
                                       "so two different inputs X ≠ X' can have identical contexts ",
                                       written("XEᵀ, XFᵀ", r"X E^{\top}, X F^{\top}"), "; tokens "
                                       "where they agree then stay equal for every θ (at n ≤ "
                                       f"{2 * size} the frozen case is not decided)"), proof.UNDECIDED, [analytic],
                              {"reason": "contexts of different inputs can coincide"})
    if not analytic.proved or not positive.proved:
        return proof.conclude(f"{label}: analyticity or the kernel's positivity is not established",
                              proof.UNDECIDED, [analytic, positive])
    if not zero_key_positive:
        return proof.conclude(claim_of(f"{label}: k(q, 0) > 0 is not shown, so the uniform weights at ", ZERO_KEYS,
                                       " that the argument uses may not exist"), proof.UNDECIDED, [analytic, positive])
    return proof.conclude(claim_of(f"{label}: for X ≠ X' pick a row f of the trainable F with ",
                                   written("Xfᵀ ≠ X'fᵀ", r"X f^{\top} \neq X' f^{\top}"), "; with ", ZERO_KEYS,
                                   " the weights k(q, 0) > 0 are uniform and with ", written("W_V = I", "W_{V} = I"),
                                   " a shared token's outputs differ, so one layer separates two samples, and "
                                   "Theorem 2 extends it to any finite data set"), proof.PROVED, [analytic, positive], facts={"layers": 1},
                          certificate=Inference(((analytic, proof.PROVED), (positive, proof.PROVED)),
                                                "uniform weights at W_K = 0 (k(q, 0) > 0, by the sign engine) and a "
                                                "row of the trainable F that separates, extended by Theorem 2"))


def open_kernel_premise(td: proof.Step) -> str:
    """Which premise of the kernel step a bias or bucket rule lacks: the bias argument concentrates a row on one
    shift by the dominant-pair lemma, which needs (LIM) and analyticity (docs/theory.md §8); the moment routes
    (TD-RIDGE, TD-RADIAL, §20) are for heads without a bias and are not used here."""
    lim = next((p for p in td.premises if p.rule.startswith("LIM-")), None)
    analytic = next((p for p in td.premises if p.rule == "AN-STRUCT"), None)
    missing = []
    if lim is not None and not lim.proved:
        missing.append(f"(LIM) is {lim.status.value} here ({lim.rule})")
    if analytic is not None and not analytic.proved:
        missing.append(f"analyticity in θ is {analytic.status.value} (AN-STRUCT)")
    if not missing:
        return f"the kernel step {td.rule} is not proved"
    return ("the bias rules build on the kernel's token distinguishability through (LIM) and analyticity (the "
            "dominant-pair lemma, docs/theory.md §8), and " + " and ".join(missing) + "; TD-RIDGE and TD-RADIAL, "
            "which need no (LIM), are for heads without a bias")


@proof.rule("TD-BIAS", "A trainable structured bias separates permuted copies", CITE_BIAS, statuses=(proof.PROVED, proof.UNDECIDED),
            certificates=(Inference,))
def td_bias(td: proof.Step, kind: str, label: str) -> proof.Step:
    if not td.proved:
        return proof.conclude(f"{label}: {open_kernel_premise(td)}", proof.UNDECIDED, [td])
    if kind.startswith("symmetric"):
        # B_{i,i+s} = B_{i,i-s}: one layer at i cannot tell x_{i+s} from x_{i-s}. The classes still depend
        # on the offset alone (the own arc has class 0 in every row), so Lemma V^λ holds: each layer is
        # injective on labelled views, and the layer count is the labelled views' (PAT-LAYERS, BIAS-LAYERS).
        return proof.conclude(claim_of(f"{label}: a `{kind}` bias weighs i + s and i − s alike, so with the bias one "
                                       "layer is not token distinguishing w.r.t. the biased family's group (the "
                                       "kernel step below is w.r.t. every permutation, with the bias at 0); its classes depend on "
                                       "the offset alone, so each layer "
                                       "separates different labelled views (Lemma ", written("V^λ", r"V^{\lambda}"),
                                       ", docs/theory.md §11.10), and the number of layers is the labelled views' "
                                       "(PAT-LAYERS or BIAS-LAYERS)"), proof.PROVED, [td],
                              {"reason": "one layer is not token distinguishing for symmetric bias kinds; the "
                                         "labelled view argument counts the layers"},
                              facts={"labelled_views": True},
                              certificate=Inference(((td, proof.PROVED),), "Lemma V^λ: a trainable bias whose "
                                                    "classes depend on the offset only, on a head whose kernel is "
                                                    "token distinguishing"))
    return proof.conclude(f"{label}: samples with different token sets are separated as without bias; "
                          f"for X' = σX with σ outside the group of the `{kind}` bias, a bias β large at one "
                          "shift concentrates row i on one position, so equal outputs for every β force "
                          "X' into the same orbit (derived here; docs/theory.md §Bias)", proof.PROVED, [td],
                          facts={"layers": 1},
                          certificate=Inference(((td, proof.PROVED),), "a large bias at one shift concentrates "
                                                "row i on one position"))


@proof.rule("PE-LIFT", "An absolute positional encoding lifts S_n-UAP to plain UAP", CITE_PE, statuses=(proof.PROVED, proof.UNDECIDED),
            certificates=(Inference,))
def pe_lift(td: proof.Step) -> proof.Step:
    if not td.proved:
        return proof.conclude("the premises without positional encoding are not proved", proof.UNDECIDED, [td])
    return proof.conclude("with a learned encoding E chosen with separated distinct columns, σ(K + E) ∩ (K + E) = ∅ for "
                          "σ ≠ id, so any continuous target on K extends equivariantly and is approximated "
                          "through X ↦ T(X + E) (derived here, docs/theory.md §10)", proof.PROVED, [td],
                          certificate=Inference(((td, proof.PROVED),), "an equivariant extension through X ↦ X + E"))


#: `_head_facts` of the last head lists asked, by the identity of their steps: (the steps, held so that their ids
#: are not reused, the answer). A derivation asks it of the same heads three times or more (the outcome, the verdict
#: step, its certificate's check), and the lengths below a range share their heads' cached steps (derive.py).
_HEAD_FACTS: dict = {}
_HEAD_FACTS_SIZE = 32


def _head_facts(heads) -> tuple:
    """(the first step under the heads that refutes a normaliser (`ill_posed`) or None, whether a step the verdict
    rests on is proved only for d ≥ 2): a function of the heads' steps alone, which a step never changes, so it is
    kept by their identity (the steps themselves are held with it)."""
    heads = tuple(heads)
    key = tuple(map(id, heads))
    got = _HEAD_FACTS.get(key)
    if got is not None and all(a is b for a, b in zip(got[0], heads)):
        return got[1]
    # a refutation stated for residue classes of n only (Lemma U, §4) decides those classes alone (`class_ills`)
    ills = [s for s in _walk(heads) if s.status is proof.REFUTED and s.fact("ill_posed")
            and s.fact("residue_class") is None]
    # a refutation at every n before one from a first length on (Lemma T, docs/theory.md §4): the widest range
    ill = next((s for s in ills if s.fact("range") is None), ills[0] if ills else None)
    two_dims = any(s.proved and s.fact("min_dim") == 2 for s in _walk_used(heads))
    if len(_HEAD_FACTS) >= _HEAD_FACTS_SIZE:
        _HEAD_FACTS.pop(next(iter(_HEAD_FACTS)))
    _HEAD_FACTS[key] = (heads, (ill, two_dims))
    return ill, two_dims


def class_ills(heads) -> tuple:
    """The refuted normalisers stated for residue classes of n only (the facts `residue_class`, `modulus`,
    `residues`: rows near the last one that vanish on those classes, Lemma U of docs/theory.md §4): ILL-POSED on
    those classes, which take precedence there; the verdict of the other classes is decided without them and
    states a range that excludes them (`without_ill_classes`, §12)."""
    return tuple(s for s in _walk(heads) if s.status is proof.REFUTED and s.fact("ill_posed")
                 and s.fact("residue_class") is not None)


def without_ill_classes(where, heads):
    """The condition `where` (None: every n) restricted to the residue classes of n that no class-refuted normaliser
    states (`class_ills`); `where` itself when there are none."""
    from math import lcm
    from ..conditions import simplify_condition
    from ..groups import class_condition
    ills = class_ills(heads)
    if not ills:
        return where
    n = _class_symbol(ills)
    modulus = lcm(*(s.facts["modulus"] for s in ills))
    left = [r for r in range(modulus) if not any(r % s.facts["modulus"] in s.facts["residues"] for s in ills)]
    if n is None or not left:
        return where
    cond = class_condition(n, modulus, left)
    return simplify_condition(cond if where is None else sympy.And(where, cond))


def _walk(steps):
    seen = set()
    for top in steps:
        for s in top.walk():
            if id(s) not in seen:
                seen.add(id(s))
                yield s


def _walk_used(steps):
    """The steps the verdict rests on: as `_walk`, but a head left out by Lemma Z (HEADS-ZERO-VALUE, §17.3) rests on
    the separating head, not on its own premise, so that premise's range (d ≥ 2) is not the verdict's."""
    seen: set = set()
    stack = list(steps)
    while stack:
        s = stack.pop()
        if id(s) in seen:
            continue
        seen.add(id(s))
        yield s
        if s.rule != "HEADS-ZERO-VALUE":
            stack.extend(s.premises)


def _layers_of(structure, group_step, heads=()):
    """The number of layers the premises establish: PAT-LAYERS's (SEQ-LAYERS's for per-layer patterns,
    CONV-LAYERS's for the convolution mixer, BIAS-LAYERS's for dense heads with a symmetric bias), or 1
    for dense heads each of which is 1-layer token distinguishing."""
    for s in structure:
        if s.rule in ("PAT-LAYERS", "SEQ-LAYERS", "SEQ-ALTERNATION-LAYERS", "SEQ-WINDOWS-LAYERS", "SEQ-GLOBALS-LAYERS",
                      "SEQ-CYCLIC-LAYERS", "CONV-LAYERS", "BIAS-LAYERS") \
                and s.proved:
            return s.facts["layers"]
    if group_step.rule == "SYM-DENSE" and not structure and not any(
            (s.rule in ("TD-BIAS", "TD-BUCKETS") and s.fact("labelled_views")) or (s.rule == "TD-FIXEDBIAS" and
                                                                    s.fact("fixed_even"))
            for s in _walk(heads)):
        if any(h.rule == "TD-MEANS" and h.proved for h in heads):
            return 2  # Lemma M: an FFN block, then a uniform-weight attention block (docs/theory.md §20.9)
        return 1  # one layer of dense heads, each of which is 1-layer token distinguishing
    return None


def _with_layer_range(group, structure):
    """The group with the range of n from which the layer step's count holds (BIAS-LAYERS at symbolic
    n: e.g. "n ≥ 4"). That range lies inside the named group's own (D_n, C_n: n ≥ 3; the reflection:
    n ≥ 2), so it replaces it; any other condition is kept beside it."""
    steps = [s for s in structure if s.proved and s.fact("condition")]
    if not steps or group is None:
        return group
    cond = " and ".join(s.facts["condition"] for s in steps)
    formulas = [s.facts.get("condition_formula") for s in steps]
    formula = None if any(f is None for f in formulas) else (
        formulas[0] if len(formulas) == 1 else sympy.And(*formulas, evaluate=False))
    if group.condition and group.name not in ("D_n", "C_n", "reflection", "S_n", "trivial"):
        cond = f"{group.condition} and {cond}"
        typed = getattr(group, "condition_formula", None)
        formula = None if typed is None or formula is None else sympy.And(typed, formula, evaluate=False)
    return replace(group, condition=cond, condition_formula=formula)


def decide(ffn, heads, structure, group_step, dim):
    """(verdict, the premise that decides it or None, group, layers, needs d ≥ 2) from the premises'
    statuses and typed facts alone."""
    group = group_step.fact("group") if group_step.proved else None
    # steps stated for residue classes of n only (a proved obstruction, or an undecided premise, there) leave the
    # verdict of the other classes: the stated range is restricted to the classes none of them states (§12)
    side = class_steps(structure)
    stated = _stated_range(group, side)
    if stated is None:
        side = ()
    obstruction = next((s for s in structure if s.proved and s.fact("obstruction") and s not in side), None)
    ill, two_dims = _head_facts(heads)
    layers = _layers_of(structure, group_step, heads)
    # an undefined layer comes first: a family with a head whose normaliser vanishes has no models to approximate
    # with, so no statement about its distance to a target (an obstruction) is made of it
    if ill is not None:
        return proof.Verdict.ILL_POSED, ill, group, layers, False
    if obstruction is not None:
        return proof.Verdict.NOT_UAP, obstruction, group, layers, False
    if ffn.proved and all(h.proved for h in heads) and stated is not None and layers is not None and all(
            s.proved for s in structure if s not in side):
        return (proof.Verdict.UAP, None, _with_length_range(_with_layer_range(stated, structure), heads),
                _layers_left(layers, side), two_dims)
    return proof.Verdict.INCONCLUSIVE, None, stated if stated is not None else group, layers, False


def at_length(decided: tuple, n) -> tuple:
    """`decide`'s answer with its group named at a concrete length n (groups.named_at_length: order n! is S_n,
    order 1 is trivial), so that the verdict's claim, the printed group, the JSON and the certificate agree."""
    from ..groups import named_at_length
    verdict, why, group, layers, two_dims = decided
    return verdict, why, named_at_length(group, n), layers, two_dims


def _with_length_range(group, heads):
    """The group with the range n ≥ 2 added when a step the verdict rests on is proved only for rows of two keys or
    more (WP-POSITIVE's third and fourth forms at a symbolic n, fact `length_range`; docs/theory.md §4, §12)."""
    needs = next((s.fact("length_range") for s in _walk_used(heads) if s.proved and s.fact("length_range") is not None),
                 None)
    if needs is None or group is None:
        return group
    typed = getattr(group, "condition_formula", None)
    if group.condition and typed is None:
        return replace(group, condition=f"{group.condition} and {show_condition(needs)}")
    formula = needs if typed is None else sympy.And(typed, needs)
    return replace(group, condition=show_condition(formula), condition_formula=formula)


def obstruction_range(step):
    """The range of n on which a proved obstruction that decides the whole verdict holds, as its step states it (a
    SymPy condition): the classes of a class step (`residue_class`, when no class is left beside it), or the range
    of a closed form (`range`, PAT-DISCONNECTED for n ≥ 3); None when the step states none (every n, or a
    concrete n)."""
    if step is None:
        return None
    where = step.facts.get("residue_class")
    if where is None:
        where = step.facts.get("range")
    return where if isinstance(where, sympy.Basic) and where is not sympy.true else None


def excludes_classes(group, structure) -> bool:
    """Whether the stated range of `group` excludes the classes of every premise stated for residue classes of
    n only, proved from the range's residue parts (`residue_classes.excludes`)."""
    from .residue_classes import excludes
    where = getattr(group, "condition_formula", None)
    return all(excludes(where, _class_symbol([s]), s.facts["modulus"], s.facts["residues"])
               for s in class_steps(structure))


def _layers_left(layers, side):
    """A count by residue of n on the classes the class steps leave: their one piece when it is the same on each
    of them (`layers 3` leaves n even, where the count 4 if n mod 2 = 1, else 3 is 3), else the count itself."""
    from math import lcm
    from .residue_classes import pieces_by_residue
    n = _class_symbol(side) if side else None
    split = pieces_by_residue(layers, n) if n is not None else None
    if split is None:
        return layers
    modulus = lcm(split[0], *(s.facts["modulus"] for s in side))
    left = {split[1][r % split[0]] for r in range(modulus)
            if not any(r % s.facts["modulus"] in s.facts["residues"] for s in side)}
    if len(left) != 1:
        return layers
    (piece,) = left
    return int(piece) if isinstance(piece, sympy.Integer) else piece


def class_steps(structure) -> tuple:
    """The premises stated for residue classes of n only (the facts `residue_class`, `modulus`, `residues`): a
    proved obstruction there (NOT-UAP on those classes) or an undecided step there (INCONCLUSIVE on them)."""
    return tuple(s for s in structure if s.fact("residue_class") is not None
                 and ((s.proved and s.fact("obstruction")) or s.status is proof.UNDECIDED))


def _class_symbol(steps):
    return next((a.args[0] for s in steps for a in s.facts["residue_class"].atoms(sympy.Mod)
                 if isinstance(a.args[0], sympy.Symbol)), None)


def _stated_range(group, steps):
    """The group with its range restricted to the residue classes of n that no class step states (n mod L in
    the others, L the lcm of the steps' moduli), so that the range provably excludes every such class
    (`residue_classes.excludes`); the group unchanged when its range excludes them already; None when no
    class is left, when there is no group, or when the range has no formula to restrict."""
    from math import lcm
    from ..conditions import simplify_condition
    from ..groups import class_condition
    from .residue_classes import excludes
    if group is None or not steps:
        return group
    n = _class_symbol(steps)
    where = getattr(group, "condition_formula", None)
    if n is None or (group.condition and where is None):
        return None
    if all(excludes(where, n, s.facts["modulus"], s.facts["residues"]) for s in steps):
        return group
    modulus = lcm(*(s.facts["modulus"] for s in steps))
    left = [r for r in range(modulus) if not any(r % s.facts["modulus"] in s.facts["residues"] for s in steps)]
    if not left:
        return None
    cond = class_condition(n, modulus, left)
    formula = simplify_condition(cond if where is None else sympy.And(where, cond))
    return replace(group, condition=show_condition(formula), condition_formula=formula)


@dataclass(frozen=True)
class VerdictPremises(Certificate):
    """The premises of the verdict: the FFN step, each head's step, the pattern steps and the group
    step. The check re-derives the verdict from their statuses and facts (`decide`)."""

    ffn: proof.Step
    heads: tuple
    structure: tuple
    group_step: proof.Step
    dim: object
    verdict: proof.Verdict
    #: the lengths below the stated range, each with the root of its own derivation at that n (or None when it
    #: was not decided there): (LengthVerdict, step or None), docs/theory.md §12
    lengths: tuple = ()
    kind = "verdict-premises"

    def check(self) -> None:
        decided = decide(self.ffn, self.heads, self.structure, self.group_step, self.dim)
        self._check_lengths(decided)
        for s in (self.ffn, *self.heads, *self.structure, self.group_step):
            if not proof.is_step(s):
                raise proof.CertificateRejected("VerdictPremises: a premise is not a derivation step")
        got, _, group, _, _ = decided
        if got is proof.Verdict.UAP and not excludes_classes(group, self.structure):
            # no range stated for UAP contains a class that a premise states NOT-UAP or undecided (§12)
            raise proof.CertificateRejected("VerdictPremises: the UAP range does not exclude the classes that a "
                                            "premise states for residue classes of n only")
        if self.dim == 1 and got is proof.Verdict.UAP and self.verdict is proof.Verdict.INCONCLUSIVE:
            return  # DIM-RANGE: Theorem 1 assumes d ≥ 2
        if got is not self.verdict:
            raise proof.CertificateRejected(f"VerdictPremises: the premises give {got.value}, not {self.verdict.value}")

    def _check_lengths(self, decided: tuple) -> None:
        """Each length's verdict is the one its own derivation concludes (a kernel-made VERDICT-T1 step), and the
        lengths are exactly those below the stated range: the ones no stated condition covers. `decided`: what
        `decide` gives for the premises."""
        if not self.lengths:
            return
        from .small_lengths import uncovered
        got, why, group, _, _ = decided
        if got not in (proof.Verdict.UAP, proof.Verdict.NOT_UAP, proof.Verdict.ILL_POSED):
            raise proof.CertificateRejected("VerdictPremises: lengths below a range are stated beside a UAP, NOT-UAP "
                                            "or ILL-POSED verdict only")
        if got in (proof.Verdict.NOT_UAP, proof.Verdict.ILL_POSED):
            # the obstruction's (the refuted normaliser's) range and the undecided classes beside it (§12)
            where = obstruction_range(why)
            n = next(iter(getattr(where, "free_symbols", ())), None)
            beside = [s.facts["residue_class"] for s, _ in class_verdicts(self.structure, self.group_step, got, why,
                                                                           self.heads)]
            want = uncovered([where, *beside], n) if n is not None else None
            if want is None or [r.n for r, _ in self.lengths] != want:
                raise proof.CertificateRejected("VerdictPremises: the lengths stated below the range are not the "
                                                "ones the obstruction's range leaves")
            self._check_each_length()
            return
        self._check_each_length()
        where = getattr(group, "condition_formula", None)
        n = _class_symbol(class_steps(self.structure)) or next(iter(getattr(where, "free_symbols", ())), None)
        conditions = [sympy.true if where is None else where,
                      *(s.facts["residue_class"] for s, _ in class_verdicts(self.structure, self.group_step, got,
                                                                            heads=self.heads))]
        want = uncovered(conditions, n) if n is not None else None
        if want is None or [r.n for r, _ in self.lengths] != want:
            raise proof.CertificateRejected("VerdictPremises: the lengths stated below the range are not the ones "
                                            "no stated class covers")

    def _check_each_length(self) -> None:
        """Each length's verdict and count are those of its own derivation's kernel-made VERDICT-T1 step."""
        for record, root in self.lengths:
            if root is None:
                if record.verdict is not None:
                    raise proof.CertificateRejected(f"VerdictPremises: the verdict at n = {record.n} has no derivation")
                continue
            if not proof.is_step(root) or root.rule != "VERDICT-T1" or root.facts.get("verdict") is not record.verdict:
                raise proof.CertificateRejected(f"VerdictPremises: the verdict at n = {record.n} is not its "
                                                "derivation's")
            if record.verdict is proof.Verdict.UAP and (root.facts.get("layers") != record.layers or getattr(
                    root.facts.get("group"), "order", None) != getattr(record.group, "order", None)):
                raise proof.CertificateRejected(f"VerdictPremises: the count or the group's order at n = {record.n} "
                                                "is not its derivation's")

    def to_json(self):
        return {"kind": self.kind, "verdict": self.verdict.value,
                "premises": [{"rule": s.rule, "status": s.status.value, "facts": s.facts_json}
                             for s in (self.ffn, *self.heads, *self.structure, self.group_step)]}


def class_verdicts(structure, group_step, verdict, why=None, heads=()) -> tuple:
    """As `_class_verdicts`, with the classes a class-refuted normaliser of a head states ILL-POSED (Lemma U, §4,
    §12) after them."""
    return (_class_verdicts(structure, group_step, verdict, why)
            + tuple((s, proof.Verdict.ILL_POSED) for s in class_ills(heads)))


def _class_verdicts(structure, group_step, verdict, why=None) -> tuple:
    """(step, the verdict on its classes) for the premises stated for residue classes of n only whose classes the
    stated range excludes (NOT-UAP for a proved obstruction, INCONCLUSIVE for an undecided step), beside a
    verdict `verdict` for the range (docs/theory.md §12); only those whose verdict differs from it. Beside a
    NOT-UAP decided by `why` on some classes (its range), the undecided steps on classes that range excludes."""
    if verdict is proof.Verdict.NOT_UAP:
        from .residue_classes import excludes
        where = obstruction_range(why)
        if where is None:
            return ()
        return tuple((s, proof.Verdict.INCONCLUSIVE) for s in class_steps(structure)
                     if s is not why and not s.proved
                     and excludes(where, _class_symbol([s]), s.facts["modulus"], s.facts["residues"]))
    group = group_step.facts.get("group") if group_step.proved else None
    side = class_steps(structure)
    if _stated_range(group, side) is None:
        return ()
    out = tuple((s, proof.Verdict.NOT_UAP if s.proved else proof.Verdict.INCONCLUSIVE) for s in side)
    return tuple((s, v) for s, v in out if v is not verdict)


def outcome(ffn, heads, structure, group_step, dim, decided=None):
    """(verdict, group, layers) as VERDICT-T1 concludes them, without making the step: `dim 1` turns a
    UAP that needs d ≥ 2 into INCONCLUSIVE, a symbolic dimension adds the condition d ≥ 2 to G. `decided`: what
    `decide` gives for these premises, when the caller has it already (it is not asked again)."""
    verdict, _, group, layers, two_dims = decided if decided is not None else decide(ffn, heads, structure,
                                                                                     group_step, dim)
    if verdict is proof.Verdict.UAP and dim == 1:
        verdict = proof.Verdict.INCONCLUSIVE  # Theorem 1 assumes d ≥ 2
    elif verdict is proof.Verdict.UAP and two_dims:
        if not isinstance(dim, int):
            group = _with_dimension(group, dim)
    return verdict, group, layers if verdict is proof.Verdict.UAP else None


def _with_dimension(group, dim):
    """The group's range with the token dimension's condition d ≥ 2 added (words and formula)."""
    needs = sympy.GreaterThan(sympy.Symbol(str(dim)), 2, evaluate=False)
    typed = getattr(group, "condition_formula", None)
    formula = needs if not group.condition else sympy.And(typed, needs, evaluate=False) if typed is not None else None
    return replace(group, condition=f"{group.condition} and {dim} ≥ 2" if group.condition else f"{dim} ≥ 2",
                   condition_formula=formula)


@proof.rule("VERDICT-T1", "Theorem 1 with the fixed-m corollary", CITE_T1,
            statuses=(proof.PROVED, proof.UNDECIDED), certificates=(VerdictPremises,))
def verdict_step(ffn: proof.Step, heads: list, structure: list, group_step: proof.Step, dim,
                 extra=(), *, unit: str = "attention", lengths: tuple = (), open_below: str = "",
                 decided=None) -> proof.Step:
    """The verdict, concluded from the premises' statuses and facts (docs/theory.md §2). `lengths`: (LengthVerdict,
    its derivation's root) for each length below the stated range (rules/small_lengths.py); `open_below`: why they
    are not enumerated, when they are not; `decided`: what `decide` gives for these premises, when the caller has it
    already (a function of the premises alone, which a step never changes; the certificate's check asks again)."""
    verdict, why, group, layers, two_dims = decided if decided is not None else decide(ffn, heads, structure,
                                                                                     group_step, dim)
    premises = [ffn, *heads, *structure, *extra, group_step]
    stated = None
    if verdict is proof.Verdict.NOT_UAP:
        claim = claim_of("NOT-UAP: ", REASON, of_step(why))
        # the obstruction's range: the headline states it (docs/theory.md §12), without the classes a head's
        # normaliser is refuted on (ILL-POSED there, Lemma U, §4)
        stated = without_ill_classes(obstruction_range(why), heads)
    elif verdict is proof.Verdict.ILL_POSED:
        claim = claim_of("ILL-POSED: ", REASON, of_step(why))
        stated = obstruction_range(why)  # a refutation at a symbolic n from a first length on (Lemma T, §4, §12)
    elif verdict is proof.Verdict.UAP:
        lay = layers if isinstance(layers, int) else value(layers)
        named = group_claim(group)
        claim = claim_of("UAP · ", named, " · ", lay, f" {unit} layer"
                         f"{'' if layers == 1 else 's'}: ", REASON, "Definition 2 holds and the "
                         f"{'' if unit == 'attention' else unit + ' '}family is ", *m_layer(layers, lay),
                         " token distinguishing, so Theorem 1 (fixed-m corollary) gives the G-UAP")
    else:
        failing = [s for s in [ffn, *heads, *structure, group_step] if not s.proved]
        names = listed((claim_of(f"{s.rule}: ", of_step(s)) for s in failing), "; ") if failing else \
            "a premise is undecided"
        claim = claim_of("INCONCLUSIVE: ", REASON, "not every premise of Theorem 1 is proved — ", names)
    if verdict is proof.Verdict.INCONCLUSIVE:
        stated = without_ill_classes(None, heads)  # the classes no head's normaliser is refuted on (Lemma U, §4)
    others = class_verdicts(structure, group_step, verdict, why, heads)
    for step, kind in others:  # other residue classes of n with their own verdict (docs/theory.md §12)
        where = step.facts["residue_class"]
        claim += claim_of(f"; {kind.value} for ", Formula(where, show_condition(where)), ": ", _class_reason(step))
    if verdict is proof.Verdict.UAP and dim == 1:
        # Theorem 1 assumes d ≥ 2: at d = 1 no verdict of UAP, whatever the premises.
        dim_step = dimension_range(dim, premise_needs_two=two_dims)
        premises.insert(len(premises) - 1 - len(extra), dim_step)
        verdict = proof.Verdict.INCONCLUSIVE
        claim = claim_of("INCONCLUSIVE: ", REASON, f"{dim_step.rule}: ", of_step(dim_step))
    elif verdict is proof.Verdict.UAP and two_dims:
        if not isinstance(dim, int):
            claim += f" (for token dimension {dim} ≥ 2)"
            group = _with_dimension(group, dim)
    evidence: dict = {"verdict": verdict.value}
    if verdict not in (proof.Verdict.UAP, proof.Verdict.NOT_UAP, proof.Verdict.ILL_POSED):
        lengths, open_below = (), ""
    if lengths:  # each length below the range, decided at that n (docs/theory.md §12)
        claim += claim_of("; below the range: ", _lengths_words(tuple(r for r, _ in lengths)))
        evidence["below the range"] = [r.words() for r, _ in lengths]
    elif open_below:
        evidence["below the range"] = f"not enumerated: {open_below}"
    status = proof.UNDECIDED if verdict is proof.Verdict.INCONCLUSIVE else proof.PROVED
    cert = VerdictPremises(ffn, tuple(heads), tuple(structure), group_step, dim, verdict, tuple(lengths))
    # The group is the family's whatever the verdict; a number of layers exists only for UAP.
    facts = {"verdict": verdict, "group": group, "layers": layers if verdict is proof.Verdict.UAP else None}
    if verdict in (proof.Verdict.NOT_UAP, proof.Verdict.ILL_POSED, proof.Verdict.INCONCLUSIVE) and stated is not None:
        facts["range"] = stated
    if others:
        facts["by_class"] = tuple((s.facts["residue_class"], kind) for s, kind in others)
    if lengths:
        facts["below_range"] = tuple(r for r, _ in lengths)
    return proof.conclude(claim, status, premises, evidence, facts=facts, certificate=cert)


def _lengths_words(records) -> str:
    """"UAP at n = 1…12" / "UAP at n = 1; NOT-UAP at n = 2": the verdict at each length, runs joined."""
    from .small_lengths import lengths_words
    return lengths_words(records)


def _class_reason(step):
    """Why a class has its own verdict, in the words of the step that states it."""
    if step.status is proof.REFUTED:
        return f"a row's normaliser is 0 there ({step.rule})"
    if "j" in step.facts and "i" in step.facts:
        return claim_of(token(step.facts["j"]), " never reaches position ", position(step.facts["i"]), f" ({step.rule})")
    if step.proved:
        return f"`layers {step.facts.get('budget')}` is below the count there ({step.rule})"
    if step.facts.get("open"):  # the open premise, in its own words
        return f"{step.facts['open']} ({step.rule})"
    return f"{step.rule} is undecided there"


@proof.rule("DIM-RANGE", "A premise proved only for token dimension d ≥ 2", CITE_DIM, statuses=(proof.UNDECIDED,))
def dimension_range(dim, premise_needs_two: bool = True) -> proof.Step:
    if premise_needs_two:
        return proof.conclude("`dim 1`: a premise was proved only for d ≥ 2 (its witness argument needs the "
                              "connected domain {x ≠ 0, z ≠ 0} of d ≥ 2, or one witness per sign orthant in d = 1)",
                              proof.UNDECIDED, evidence={"dim": dim})
    return proof.conclude("`dim 1`: Theorem 1 is stated for token dimension d ≥ 2 (the paper assumes d ≥ 2), "
                          "so every premise being proved does not give the UAP at d = 1",
                          proof.UNDECIDED, evidence={"dim": dim, "assumption": "d ≥ 2 (Theorem 1)"})
