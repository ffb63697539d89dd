"""Unit tests for the proof kernel, the FFN rule, budgets, the asymptotic engine and dense symmetry."""
from __future__ import annotations

import time

import pytest
import sympy

import uapcheck
from uapcheck import proof
from uapcheck.asymptotics import Context, NeedSign, Oscillates, ZERO, growth
from uapcheck.budget import BudgetExceeded, time_limit
from uapcheck.functions import elu, gelu, relu
# the invariants under the docs' names
from uapcheck.lower import KEY_COORD as v, KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c, SCALE as t
from uapcheck.rules.ffn import ffn_definition2


# -- the proof kernel -----------------------------------------------------------------------------

def test_steps_record_their_rule_and_citation():
    step = uapcheck.check("attention { kernel k(x, y) = exp(x . y) }\n").root
    assert step.rule == "VERDICT-T1" and "Theorem 1" in step.cite


def test_derivation_numbering_is_premises_first():
    result = uapcheck.check("attention { kernel k(x, y) = exp(x . y) }\n")
    ids = proof.number_steps(result.root)
    order = list(result.root.walk())
    assert ids[id(order[-1])] == f"s{len(order)}"
    for step in order:
        for premise in step.premises:
            assert int(ids[id(premise)][1:]) < int(ids[id(step)][1:])


# -- FFN, Definition 2 ----------------------------------------------------------------------------

z = sympy.Symbol("z", real=True)


@pytest.mark.parametrize("name,sigma", [
    ("relu", relu(z)), ("gelu", gelu(z)), ("tanh", sympy.tanh(z)), ("elu", elu(z)),
    ("sigmoid", 1 / (1 + sympy.exp(-z))), ("softplus", sympy.log(1 + sympy.exp(z))), ("sin", sympy.sin(z)),
])
def test_lipschitz_non_affine_activations(name, sigma):
    step = ffn_definition2(sigma, z, name)
    assert step.status == proof.PROVED
    second = step.evidence["non-affine"]
    p, q, r = second["points"]
    value = sigma.subs(z, p) - 2 * sigma.subs(z, q) + sigma.subs(z, r)
    assert value.is_zero is False  # the witness re-checks


@pytest.mark.parametrize("name,sigma", [("square", z ** 2), ("exp", sympy.exp(z))])
def test_non_lipschitz_activations_are_not_accepted(name, sigma):
    step = ffn_definition2(sigma, z, name)
    assert step.status == proof.UNDECIDED  # not REFUTED: other members might be Lipschitz
    assert "not globally Lipschitz" in step.claim


@pytest.mark.parametrize("sigma", [3 * z - 2, z])
def test_affine_activation_fails_definition_2(sigma):
    assert ffn_definition2(sigma, z, "affine").status == proof.REFUTED


def test_ffn_none_fails_definition_2():
    assert ffn_definition2(None, z, "none").status == proof.REFUTED


def test_ffn_identity_is_inconclusive_citing_definition_2():
    result = uapcheck.check("attention { kernel k(x, y) = exp(x . y) }\nffn identity\n")
    assert result.verdict == "INCONCLUSIVE"
    ffn = [s for s in result.root.walk() if s.rule == "FFN-DEF2"][0]
    assert ffn.status == proof.REFUTED and "Definition 2" in ffn.cite


def test_custom_activation():
    ok = uapcheck.check("attention { kernel k(x, y) = exp(x . y) }\nffn sigma(u) = u / (1 + u^2)\n")
    assert ok.verdict == "UAP"
    sq = uapcheck.check("attention { kernel k(x, y) = exp(x . y) }\nffn sigma(u) = u^2\n")
    assert sq.verdict == "INCONCLUSIVE"


# -- budgets --------------------------------------------------------------------------------------

def test_time_limit_interrupts_and_names_the_step():
    start = time.monotonic()
    with pytest.raises(BudgetExceeded) as info:
        with time_limit("a deliberately slow step", 0.2):
            while True:
                pass
    assert time.monotonic() - start < 2
    assert "a deliberately slow step" in str(info.value)


# -- the asymptotic engine ------------------------------------------------------------------------

def test_growth_of_exp_polynomial():
    g = growth(sympy.exp(-(c - 2 * t * a + t ** 2 * b)), Context())
    assert dict(g.E) == {2: -b, 1: 2 * a}


def test_growth_asks_for_a_sign_and_follows_it():
    with pytest.raises(NeedSign):
        growth(relu(t * v), Context())
    assert growth(relu(t * v), Context({v: 1})).p == 1
    assert growth(relu(t * v), Context({v: -1})) is ZERO
    assert dict(growth(elu(t * v) + 1, Context({v: -1})).E) == {1: v}


def test_oscillation_is_detected():
    with pytest.raises(Oscillates):
        growth(sympy.cos(t * a), Context())


def test_puiseux_growth():
    g = growth(sympy.sqrt(1 + c - 2 * t * a + t ** 2 * b), Context())
    assert g.p == 1 and sympy.simplify(g.C - sympy.sqrt(b)) == 0


# -- dense symmetry -------------------------------------------------------------------------------

@pytest.mark.parametrize("extra,group", [
    ("", "S_n"), ("\n bias free", "trivial"), ("\n bias circulant", "C_n"),
    ("\n bias toeplitz", "trivial"), ("\n project keys values to 16", "trivial"),
])
def test_dense_group(extra, group):
    result = uapcheck.check("attention {\n kernel k(x, y) = exp(x . y)" + extra + "\n}\n")
    assert result.verdict == "UAP"
    assert result.group.name == group
    assert result.layers == 1


def test_absolute_positional_encoding_gives_trivial_group():
    result = uapcheck.check("attention { kernel k(x, y) = exp(x . y) }\npositional absolute\n")
    assert result.verdict == "UAP" and result.group.name == "trivial"


def test_fixed_linformer_projections_are_inconclusive():
    result = uapcheck.check("attention {\n kernel k(x, y) = exp(x . y)\n project keys values to 4 fixed\n}\n")
    assert result.verdict == "INCONCLUSIVE"
    td = [s for s in result.root.walk() if s.rule == "TD-LINFORMER"][0]
    assert "identical contexts" in td.claim and td.status == "undecided"


def test_concrete_tokens_give_concrete_generators():
    result = uapcheck.check("tokens 5\nattention { kernel k(x, y) = exp(x . y) }\n")
    assert result.group.order == 120
    assert [list(g) for g in result.group.generators] == [[2, 1, 3, 4, 5], [2, 3, 4, 5, 1]]


def test_claimed_smaller_group_fails_the_expectation():
    result = uapcheck.check("attention { kernel k(x, y) = exp(x . y) }\nexpect uap group trivial\n")
    assert result.verdict == "UAP" and result.expect_holds is False


class _JumpingClock:
    """A CPU clock that jumps past every deadline once the first budget is set: the budget then runs out
    at the next step, however fast the machine and however warm the caches (a scaled-down real budget
    let a warm analysis finish in time)."""

    def __init__(self) -> None:
        import time
        self._real = time.process_time
        self.calls = 0

    def process_time(self) -> float:
        self.calls += 1
        return self._real() + (0.0 if self.calls <= 1 else 1e6)


def test_running_out_of_time_is_inconclusive_and_names_the_step(monkeypatch):
    from sympy.core.cache import clear_cache

    from uapcheck import budget, memo
    clear_cache()
    memo.clear_caches()  # an analysis cached by an earlier test would not spend the budget
    monkeypatch.setattr(budget, "time", _JumpingClock())
    try:
        result = uapcheck.check("param gamma > 0\nattention { kernel k(x, y) = exp(-gamma * |x - y|^2) }\n")
    finally:
        monkeypatch.undo()
        clear_cache()
        memo.clear_caches()
    assert result.verdict == "INCONCLUSIVE"
    text = " ".join(s.claim + str(s.evidence) for s in result.root.walk() if s.status != proof.PROVED)
    assert "time budget" in text and "ran out in" in text


@pytest.mark.parametrize("kind", ["symmetric circulant", "symmetric toeplitz"])
def test_symmetric_bias_kinds_are_not_claimed_one_layer(kind):
    """B_{i,i+s} = B_{i,i-s}: one layer at i cannot tell x_{i+s} from x_{i-s}."""
    result = uapcheck.check("attention {\n kernel k(x, y) = exp(x . y)\n bias " + kind + "\n}\n")
    assert (result.verdict, result.layers) == ("UAP", 2)  # BIAS-LAYERS: two, least (docs/theory.md §8)
    td = [s for s in result.root.walk() if s.rule == "TD-BIAS"][0]
    assert td.proved and td.facts["labelled_views"] is True  # the count is the labelled views'
    assert td.facts.get("layers") is None


def test_dim_one_is_never_uap_since_theorem_1_assumes_d_at_least_two():
    one = uapcheck.check("dim 1\nattention { kernel k(x, y) = exp(x . y) }\n")
    assert one.verdict == "INCONCLUSIVE"
    assert any(s.rule == "DIM-RANGE" and "d ≥ 2" in s.claim for s in one.root.walk())
    assert uapcheck.check("dim 2\nattention { kernel k(x, y) = exp(x . y) }\n").verdict == "UAP"


def test_an_inconclusive_verdict_names_an_undecided_group():
    """When only the symmetry group is undecided, the verdict names SYM-UNDECIDED and its reason."""
    from uapcheck.rules import symmetry, verdict
    r = uapcheck.check("tokens 8\nattention {\n kernel k(x, y) = exp(x . y)\n pattern window(1)\n}\n")
    steps = {s.rule: s for s in r.root.walk()}
    undecided = symmetry.group_undecided("head 1: window(1)", "the group engine ran out of its budget")
    root = verdict.verdict_step(steps["FFN-DEF2"], [steps["TD-KERNEL"]], [steps["PAT-CONNECTED"], steps["PAT-LAYERS"]],
                                undecided, r.spec.dim)
    assert root.claim.startswith("INCONCLUSIVE")
    assert "SYM-UNDECIDED: the symmetry group is undecided: the group engine ran out of its budget" in root.claim
