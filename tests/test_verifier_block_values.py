"""Certificate block values the verifier now compares with its own checked copies (uapcheck/verifier/blocks.py,
exact_forms.py; docs/theory.md §18.1): the layer counts, dimensions, obstruction kinds, exactness flags, residue
classes and dense group facts inside a verdict's premises, the closed forms in n that SymPy prints (a Piecewise
diameter or count), compared exactly by residue class of n. A value changed only in the block is rejected with a
message naming the block path and both values; the comparison of closed forms is checked against brute force."""
from __future__ import annotations

import copy
import random

import pytest
import sympy
from certificates import certificate

from uapcheck.verifier import REJECTED, verify
from uapcheck.verifier.exact_forms import closed_form, equal_in_n

N = sympy.Symbol("n", integer=True, positive=True)


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def _premise(cert: dict, rule: str) -> dict:
    return next(p for p in _step(cert, "VERDICT-T1")["certificate"]["premises"] if p["rule"] == rule)


def _rejection(cert: dict, rule: str) -> str:
    """The reason the verifier rejects the step of this rule ('' when it does not)."""
    report = verify(cert)
    reasons = [s.reason for s in report.steps if s.rule == rule and s.outcome == REJECTED]
    return reasons[0] if reasons and not report.ok else ""


def _unbound(cert: dict) -> list:
    report = verify(cert)
    assert report.ok, [s.reason for s in report.rejected]
    return report.unbound


# ---------------------------------------------------------------------------------------------
# The SymPy-printed forms and their exact comparison

def test_sympy_printed_forms_are_read():
    s = {"n": N}
    text = "Piecewise((2*ceiling(n/4) - 2, Eq(Mod(n, 4), 1) | Eq(Mod(n, 4), 2)), (2*ceiling(n/4) - 1, True))"
    assert closed_form(text, s) == sympy.Piecewise(
        (2 * sympy.ceiling(N / 4) - 2, sympy.Or(sympy.Eq(sympy.Mod(N, 4), 1), sympy.Eq(sympy.Mod(N, 4), 2))),
        (2 * sympy.ceiling(N / 4) - 1, True))
    assert closed_form("ceiling((n - 1)/3)", s) == sympy.ceiling((N - 1) / 3)
    assert closed_form("Max(6, n**2 + 1)", s) == sympy.Max(6, N ** 2 + 1)
    assert closed_form("(n >= 3) & Eq(Mod(n, 2), 0)", s) == sympy.And(N >= 3, sympy.Eq(sympy.Mod(N, 2), 0))
    for bad in ("Piecewise(n)", "eval(n)", "Mod(n)", "n.__class__", "(n, 1)", "2 ** 100000"):
        assert closed_form(bad, s) is None, bad


def test_a_difference_outside_the_old_sample_is_found():
    # they differ only at n = 12, inside the range n ≥ 12: the old comparison sampled n = 1000…1240 and missed it
    a = sympy.Piecewise((N, N >= 13), (N + 1, True))
    assert equal_in_n(a, N, low=12) is False
    assert equal_in_n(a, N, low=13) is True
    # and only on one class of 24 (n ≡ 23), at every length of that class
    b = sympy.floor((N + 1) / 24) - sympy.floor(N / 24)
    assert equal_in_n(b, sympy.Integer(0), low=1) is False
    assert equal_in_n(b, sympy.Integer(0), low=1, cls=(24, 5)) is True


def test_piecewise_by_residue_equals_its_floor_form():
    # the diameter of blocks_dilated_chains_n, in the two forms a certificate writes it
    piecewise = closed_form("Piecewise((2*ceiling(n/4) - 2, Eq(Mod(n, 4), 1) | Eq(Mod(n, 4), 2)), "
                            "(2*ceiling(n/4) - 1, True))", {"n": N})
    floors = 2 * sympy.ceiling(N / 4) - 1 - sympy.floor((N + 3) / 4) + sympy.floor((N + 1) / 4)
    assert equal_in_n(piecewise, floors) is True
    assert equal_in_n(piecewise, floors + sympy.Piecewise((1, sympy.Eq(sympy.Mod(N, 4), 3)), (0, True))) is False


def test_lengths_below_the_range_count_only_from_low():
    a, b = sympy.Piecewise((N, N >= 5), (1, True)), N
    assert equal_in_n(a, b, low=5) is True
    assert equal_in_n(a, b, low=3) is False
    assert equal_in_n(a, b) is None  # a difference at a small n with no stated range: not compared, not rejected


def test_a_class_restricts_the_comparison():
    assert equal_in_n(N / 2, sympy.floor(N / 2), cls=(2, 0)) is True
    assert equal_in_n(N / 2, sympy.floor(N / 2), cls=(2, 1)) is False
    assert equal_in_n(N / 2, sympy.floor(N / 2), cls=(None, 0)) is None


def test_forms_out_of_reach_are_not_decided():
    m = sympy.Symbol("m", integer=True, positive=True)
    assert equal_in_n(N + m, m + N + 1) is None  # two symbols
    assert equal_in_n(sympy.floor(N / 10007), sympy.Integer(0)) is None  # a modulus above the bound
    assert equal_in_n(sympy.floor(sympy.sqrt(N)), 1) is None


def _random_form(rng: random.Random):
    m = rng.choice([2, 3, 4, 6])
    c = rng.randint(-3, 3)
    pieces = rng.choice([
        lambda: sympy.floor((N + c) / m),
        lambda: sympy.ceiling((N + c) / m),
        lambda: sympy.Mod(N + c, m),
        lambda: sympy.Piecewise((N, sympy.Eq(sympy.Mod(N, m), abs(c) % m)), (2 * sympy.floor(N / 2), True)),
        lambda: sympy.Piecewise((N + c, N >= abs(c) + 2), (3, True)),
    ])
    return pieces() + rng.randint(0, 1) * sympy.floor(N / rng.choice([2, 3]))


def test_exact_comparison_agrees_with_brute_force():
    """The second way: 150 random pairs of floor, ceiling, Mod and Piecewise forms, compared at every n ≤ 150 (far
    above every modulus, at most 12, and every threshold, at most 7, used)."""
    rng = random.Random(20261203)
    decided = 0
    for _ in range(150):
        a = _random_form(rng)
        b = a if rng.random() < 0.3 else _random_form(rng)
        low = rng.randint(1, 6)
        got = equal_in_n(a, b, low=low)
        brute = all(a.xreplace({N: k}) == b.xreplace({N: k}) for k in range(low, 151))
        if got is not None:
            decided += 1
            assert got is brute, (a, b, low)
    assert decided >= 140


# ---------------------------------------------------------------------------------------------
# A value changed only in a real certificate's block is rejected, naming the block path and both values

def test_a_head_premise_layer_count_is_bound():
    cert = certificate("softmax.uap")
    assert not any("facts.layers" in p for p in _unbound(cert))
    bad = copy.deepcopy(cert)
    _premise(bad, "TD-KERNEL")["facts"]["layers"] = 2
    why = _rejection(bad, "VERDICT-T1")
    assert "facts.layers = 2" in why and "value 1" in why


@pytest.mark.parametrize("name, rule, key, value", [
    ("rope.uap", "TD-ROTARY", "min_dim", 3),
    ("alibi.uap", "TD-FIXEDBIAS", "layers", 2),
    ("gqa.uap", "HEADS-SHARED", "layers", 0),
    ("sigmoid_plain.uap", "TD-MEANS", "least", True),
    ("sigmoid_plain.uap", "TD-MEANS", "kernel_at_zero", "1/3"),
    ("alibi.uap", "PAT-DISCONNECTED", "obstruction", "layer budget"),
    ("window_budget.uap", "PAT-BUDGET", "obstruction", "unreachable"),
    ("bigbird.uap", "PAT-CONNECTED", "exact", False),
    ("cos_kernel.uap", "WP-POSITIVE", "ill_posed", False),
    ("cn_convolution_even_taps.uap", "CONV-DISCONNECTED", "residues", [1]),
    ("cyclic_even_jumps_n.uap", "PAT-DISCONNECTED", "modulus", 4),
])
def test_a_theorem_fact_of_a_premise_is_bound(name, rule, key, value):
    cert = certificate(name)
    assert not any(f"facts.{key}" in p for p in _unbound(cert))
    bad = copy.deepcopy(cert)
    _premise(bad, rule)["facts"][key] = value
    assert f"facts.{key} = " in _rejection(bad, "VERDICT-T1")


@pytest.mark.parametrize("field, value", [("name", "C_n"), ("order", "2*n")])
def test_a_dense_group_premise_is_bound(field, value):
    cert = certificate("attention_only.uap")  # dense heads: S_n
    bad = copy.deepcopy(cert)
    _premise(bad, "SYM-DENSE")["facts"]["group"][field] = value
    assert f"facts.group.{field} = " in _rejection(bad, "VERDICT-T1")


def test_dense_generators_at_an_integer_n_are_bound():
    cert = certificate("alibi_bidirectional.uap")  # the reflection at n = 64
    assert not any("SYM-DENSE" in p for p in _unbound(cert) if "generators" in p)
    bad = copy.deepcopy(cert)
    gens = _premise(bad, "SYM-DENSE")["facts"]["group"]["generators"]
    gens[0] = [2, 1, *range(3, 65)]
    assert "facts.group.generators" in _rejection(bad, "VERDICT-T1")


def test_a_piecewise_diameter_claim_is_bound():
    cert = certificate("blocks_dilated_chains_n.uap")
    assert not any("diameter" in p or "layers" in p for p in _unbound(cert))
    bad = copy.deepcopy(cert)
    claims = _step(bad, "PAT-CONNECTED")["certificate"]["claims"]
    assert claims["diameter"].startswith("Piecewise")
    claims["diameter"] = claims["diameter"].replace("2*ceiling(n/4) - 1, True", "2*ceiling(n/4), True")
    why = _rejection(bad, "PAT-CONNECTED")
    assert "claims.diameter = " in why and "differs from the checked" in why


def test_a_piecewise_count_in_a_premise_is_bound():
    cert = certificate("blocks_dilated_exchange_n.uap")
    bad = copy.deepcopy(cert)
    layers = _premise(bad, "PAT-LAYERS")["facts"]
    assert layers["layers"].startswith("Piecewise")
    # one class of 24 moved by one: n ≡ 23 (mod 24)
    layers["layers"] = layers["layers"].replace("4*floor(n/24) + 5, Eq(Mod(n, 24), 23)",
                                                "4*floor(n/24) + 6, Eq(Mod(n, 24), 23)")
    assert "facts.layers = " in _rejection(bad, "VERDICT-T1")


def test_a_ceiling_count_in_a_premise_is_bound():
    cert = certificate("blocks_dilated_n.uap")
    bad = copy.deepcopy(cert)
    _premise(bad, "PAT-LAYERS")["facts"]["layers"] = "ceiling((n + 1)/4)"
    assert "facts.layers = " in _rejection(bad, "VERDICT-T1")


# ---------------------------------------------------------------------------------------------
# The kernel-limit block: each witness bound to the data point the LIM check re-derived

def _lim_witness(cert: dict) -> dict:
    return _step(cert, "LIM-EXPPOLY")["certificate"]["regions"][0]["witnesses"][0]


@pytest.mark.parametrize("edit", ["first", "second", "difference", "coefficient", "term", "status", "dropped",
                                  "conclusion"])
def test_a_kernel_limit_witness_is_bound(edit):
    cert = certificate("softmax.uap")
    unbound = _unbound(cert)
    assert not any("witnesses" in p for p in unbound)
    assert any(p.endswith("growing part depends on") for p in unbound)  # the engine's asymptotics: listed
    bad = copy.deepcopy(cert)
    block = _step(bad, "LIM-EXPPOLY")["certificate"]
    w = _lim_witness(bad)
    if edit == "first":
        w["first"]["x·z"] += 2
    elif edit == "second":
        w["second"]["|z|²"] = 9
    elif edit == "difference":
        w["difference"] = -w["difference"]
    elif edit == "coefficient":
        w["coefficient"] = "2*x·z"
    elif edit == "term":
        w["term"] = "t^2"
    elif edit == "status":
        block["regions"][0]["status"] = "fails"
    elif edit == "dropped":
        block["regions"][0]["witnesses"].pop()
    else:
        block["conclusion"] = "refuted"
    why = _rejection(bad, "LIM-EXPPOLY")
    assert "certificate.regions[0]" in why or "certificate.conclusion" in why, why


def test_a_coefficient_with_a_param_is_bound_to_the_derived_difference():
    cert = certificate("softmax_temperature.uap")  # the data's difference -1/tau is not a rational number
    assert not any("witnesses" in p for p in _unbound(cert))
    bad = copy.deepcopy(cert)
    w = _lim_witness(bad)
    assert w["coefficient"] == "x·z/tau"
    w["coefficient"], w["difference"] = "x·z*tau", "-tau"
    assert "witnesses[0]" in _rejection(bad, "LIM-EXPPOLY")


# ---------------------------------------------------------------------------------------------
# A group premise's range and its generators written as text at a symbolic n

def test_generator_text_is_read_at_a_length():
    from uapcheck.verifier.generator_text import permutation
    assert permutation("(1 2)", "n", 5) == [2, 1, 3, 4, 5]
    assert permutation("(1 2 ... n)", "n", 5) == [2, 3, 4, 5, 1]
    assert permutation("(2 3 … n)", "n", 5) == [1, 3, 4, 5, 2]
    assert permutation("i ↦ n + 1 − i", "n", 5) == [5, 4, 3, 2, 1]
    assert permutation("i ↦ n + 2 − i on {2, …, n}", "n", 5) == [1, 5, 4, 3, 2]
    for words in ("(1 2) if g ≥ 2", "i ↦ n + 1 − i when b | n", "a transposition of two offsets", "(1 1)",
                  "i ↦ n − i", "(1 2 ... 9)"):
        assert permutation(words, "n", 5) is None, words


def test_a_group_premise_range_is_bound():
    cert = certificate("blocks_dilated_n.uap")  # SYM-AUT with `from` 12
    assert not any("group.condition" in p for p in _unbound(cert))
    bad = copy.deepcopy(cert)
    _premise(bad, "SYM-AUT")["facts"]["group"]["condition"] = "n ≥ 11"
    why = _rejection(bad, "VERDICT-T1")
    assert "facts.group.condition = " in why and "n ≥ 11" in why


@pytest.mark.parametrize("name, rule, generators", [
    ("cyclic_symmetric_two_jumps.uap", "SYM-AUT", ["(1 2 ... n)", "(1 2)"]),  # D_n: S_n's generators instead
    ("attention_only.uap", "SYM-DENSE", ["(1 2 ... n)"]),  # S_n: only C_n's
    ("longformer_global_n.uap", "SYM-AUT", ["i ↦ n + 1 − i"]),  # the reflection of {2, …, n}: not named, listed
])
def test_text_generators_of_a_named_group_are_bound(name, rule, generators):
    cert = certificate(name)
    named = not name.startswith("longformer")
    assert any("group.generators" in p for p in _unbound(cert)) is not named
    bad = copy.deepcopy(cert)
    _premise(bad, rule)["facts"]["group"]["generators"] = generators
    assert ("facts.group.generators = " in _rejection(bad, "VERDICT-T1")) is named


def test_the_trivial_group_has_no_generators_at_a_symbolic_n():
    cert = certificate("causal.uap")
    assert not any("group.generators" in p for p in _unbound(cert))
    bad = copy.deepcopy(cert)
    _premise(bad, "SYM-AUT")["facts"]["group"]["generators"] = ["(1 2)"]
    assert "facts.group.generators = " in _rejection(bad, "VERDICT-T1")
