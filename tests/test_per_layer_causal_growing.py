"""Per-layer causal interval heads of finite widths at a symbolic n (docs/theory.md §21.10, Theorem F137): the count
grows with n, D_c(n) = Σ_r ⌈(n − 1 − S_r)/P⌉ from a sharp start on, and the lengths below as pieces. Checked against
§21.5's rooted-view engine (no code shared with F121 or F137) at every n ≤ 60, against Theorem F121's concrete
decision (§21.6) at every n ≤ 60 and at large n for random periodic lists, the files end to end (text, certificate,
verifier), and forged formulas, starts and pieces rejected by the kernel and by the verifier."""
from __future__ import annotations

import copy
import json
import random
from dataclasses import replace

import pytest
import sympy

import uapcheck
from uapcheck import certfile, proof
from uapcheck.graphs.layers_causal import causal_least_layers, prefix_reach
from uapcheck.graphs.layers_interval_forms import (GrowingForm, Piece, count_at, interval_form, piece_at,
                                                   read_form_layers)
from uapcheck.layer_certificates import CausalGrowingForm
from uapcheck.parse import parse_source
from uapcheck.rules.layers import build_sequence
from uapcheck.verifier import verify
from uapcheck.verifier.check import REJECTED, VERIFIED

FINITE = ["causal & window(1)", "causal & window(2)", "causal & window(3)", "causal & window(5)",
          "causal & window(9)", "offsets {-1, 0}", "offsets {0}", "offsets {-2, -1}",
          "causal & window(2) + offsets {-4, -3, -2, -1}"]

#: Lists the rooted views decide at every n ≤ 60 (one or two heads; widths 0 to 9; a zero-width layer first).
VIEW_CASES = [
    [["causal & window(3)", "causal & window(2)"]],
    [["causal & window(2)", "causal & window(3)"]],
    [["causal & window(5)", "causal & window(1)"]],
    [["offsets {0}", "causal & window(4)", "causal & window(1)"]],
    [["causal & window(3)", "offsets {0}", "causal & window(2)"]],
    [["causal & window(1)", "causal & window(6)"], ["offsets {0}", "causal & window(2)"]],
    [["causal & window(9)", "causal & window(2)", "causal & window(2)"]],
    [["causal & window(1)", "causal & window(1)", "causal & window(4)"]],
]


def text(heads: list, tokens: str = "n", extra: str = "") -> str:
    blocks = "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern periodic {{ {', '.join(p)} }}\n}}\n"
                     for p in heads)
    return blocks + f"tokens {tokens}\ntarget causal\n{extra}"


def form_of(heads, params: str = ""):
    L = read_form_layers(parse_source(params + text(heads)))
    return L, interval_form(L, "n")


def views_count(heads, n: int) -> int:
    seq = build_sequence(parse_source(text(heads, str(n))))
    reach = prefix_reach(seq, None)
    least = causal_least_layers(seq, max(reach.depth, 1), reach.depth + 2 * seq.period + 2)
    assert not least.reason, least.reason
    return least.layers


@pytest.mark.parametrize("heads", VIEW_CASES, ids=lambda h: " | ".join(", ".join(p) for p in h))
def test_the_growing_form_equals_the_rooted_views_at_every_n_up_to_60(heads):
    L, form = form_of(heads)
    assert isinstance(form, GrowingForm)
    for n in range(1, 61):
        assert piece_at(form, n, {}) == views_count(heads, n), (heads, n)
    if form.start > 2:  # the range is sharp: the formula is wrong just below it
        n = sympy.Symbol("n", integer=True, positive=True)
        assert int(form.layers.xreplace({n: form.start - 1})) != views_count(heads, form.start - 1)


def random_lists(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        period = rng.randint(1, 5)
        yield [[rng.choice(FINITE) for _ in range(period)] for _ in range(rng.choice([1, 1, 2, 3]))]


def test_the_growing_form_equals_theorem_f121_for_random_lists():
    """400 random periodic lists of finite widths (one to three heads, periods 1 to 5): the form equals F121 at every
    n ≤ 60, at 2u + P, 997, 4,096 and 10⁶ + 3; the range is sharp; D_c(n) is the least m with W(0, m] ≥ n − 1."""
    decided = 0
    for heads in random_lists(31, 400):
        if all(h == "offsets {0}" for row in heads for h in row):
            continue
        try:
            L, form = form_of(heads)
        except Exception as exc:  # a periodic list of one pattern is read as the plain pattern, not a list
            assert "per-layer" in str(exc) or "pattern" in str(exc), exc
            continue
        if not isinstance(form, GrowingForm):
            continue
        decided += 1
        for n in [*range(1, 61), form.bound + form.total, 997, 4096, 10 ** 6 + 3]:
            assert piece_at(form, n, {}) == count_at(L, n), (heads, n)
        n_sym = sympy.Symbol("n", integer=True, positive=True)
        if form.start > 2:
            assert int(form.layers.xreplace({n_sym: form.start - 1})) != count_at(L, form.start - 1)
        assert form.start <= max(2, form.bound)  # from 2u on no witness is left at D_c (F137 (b))
    assert decided >= 150, decided


def test_a_single_window_in_every_layer_is_the_ceiling_of_section_14_7():
    for w in (1, 2, 3, 7):
        L, form = form_of([[f"causal & window({w})", f"causal & window({w})"]])
        n = sympy.Symbol("n", integer=True, positive=True)
        assert sympy.simplify(form.layers - 2 * sympy.ceiling((n - 1) / (2 * w))) == 0 or all(
            int(form.layers.xreplace({n: m})) == -(-(m - 1) // w) for m in range(form.start, 200))
        for m in range(1, 200):  # §14.7: 2 for 3 ≤ n ≤ w + 1, ⌈(n − 1)/w⌉ otherwise (n ≥ 2)
            want = 1 if m <= 2 else (2 if m <= w + 1 else -(-(m - 1) // w))
            assert piece_at(form, m, {}) == want, (w, m)


def test_two_windows_at_any_length():
    L, form = form_of([["causal & window(3)", "causal & window(2)"]])
    n = sympy.Symbol("n", integer=True, positive=True)
    assert form.start == 5 and form.pieces == (Piece(1, 3, 1), Piece(3, 5, 2))
    assert sympy.simplify(form.layers - sympy.ceiling((n - 1) / 5) - sympy.ceiling((n - 4) / 5)) == 0
    assert piece_at(form, 10 ** 6, {}) == count_at(L, 10 ** 6) == 400_000


def certificate(heads, params: str = "") -> dict:
    src = params + text(heads)
    return json.loads(json.dumps(certfile.build(uapcheck.check(src, "t.uap"), src)))


def form_outcome(cert: dict) -> str:
    return next(s.outcome for s in verify(cert).steps if s.rule == "SEQ-CAUSAL-FORM")


def test_the_file_end_to_end_is_verified():
    r = uapcheck.check(text([["causal & window(3)", "causal & window(2)"]]), "t.uap")
    assert r.verdict == "UAP"
    rep = verify(certificate([["causal & window(3)", "causal & window(2)"]]))
    assert rep.problems == [] and all(s.outcome == VERIFIED for s in rep.steps), \
        [(s.rule, s.reason) for s in rep.steps if s.outcome != VERIFIED]


def test_the_verdict_at_each_concrete_n_agrees_with_the_symbolic_file():
    heads = [["causal & window(3)", "causal & window(2)"]]
    L, form = form_of(heads)
    for n in (2, 3, 4, 5, 9, 20, 2000):
        r = uapcheck.check(text(heads, str(n)), "t.uap")
        assert (r.verdict, r.layers) == ("UAP", piece_at(form, n, {})), n


def _forged(data, change):
    out = copy.deepcopy(data)
    change(next(s for s in out["steps"] if s["rule"] == "SEQ-CAUSAL-FORM")["data"])
    return out


def test_forged_formulas_starts_and_pieces_are_rejected_by_the_verifier():
    data = certificate([["causal & window(3)", "causal & window(2)"]])
    assert form_outcome(data) == VERIFIED

    def early(d):
        d["from"] = 4
        d["pieces"][-1]["below"] = 4

    def late(d):
        d["from"] = 6
        d["pieces"][-1]["below"] = 6

    def piece(d):
        d["pieces"][-1]["layers"] = 1

    def least(d):
        d["least"] = False
    other = certificate([["causal & window(3)", "causal & window(3)"]])

    def formula(d):
        d["layers"] = next(s for s in other["steps"] if s["rule"] == "SEQ-CAUSAL-FORM")["data"]["layers"]
    for change in (early, late, piece, least, formula):
        assert form_outcome(_forged(data, change)) == REJECTED, change.__name__


def test_forged_forms_are_rejected_by_the_kernel():
    L, form = form_of([["causal & window(3)", "causal & window(2)"]])
    n = sympy.Symbol("n", integer=True, positive=True)
    CausalGrowingForm(L, form, "n").check()
    for bad in (replace(form, start=4), replace(form, layers=form.layers - 1),
                replace(form, pieces=(Piece(1, 3, 1), Piece(3, 5, 1))),
                replace(form, layers=sympy.ceiling((n - 1) / 3))):
        with pytest.raises(proof.CertificateRejected):
            CausalGrowingForm(L, bad, "n").check()


PARAM_FINITE = ["causal & window(w)", "causal & window(1)", "causal & window(2)", "offsets {0}",
                "causal & window(w) + offsets {-1, 0}"]


@pytest.mark.parametrize("seed, lower", [(41, 2), (42, 1), (43, 3)])
def test_a_param_width_equals_theorem_f121_from_2u_on(seed, lower):
    """Finite widths with one param w (integers beside it): D_c(n) in closed form for n ≥ 2u, at several w, every n of
    [2u, 2u + 60) and at 10⁵ + 7; the lengths below are not claimed."""
    rng = random.Random(seed)
    params = f"param w integer >= {lower}\n"
    decided = 0
    for _ in range(120):
        heads = [[rng.choice(PARAM_FINITE) for _ in range(rng.randint(1, 4))] for _ in range(rng.choice([1, 1, 2]))]
        if not any("(w)" in h for row in heads for h in row):
            continue
        try:
            L, form = form_of(heads, params)
        except Exception:  # a head whose width depends on w beside a larger integer, or a list of one pattern
            continue
        assert isinstance(form, GrowingForm) and form.pieces is None
        decided += 1
        n_sym, w_sym = sympy.Symbol("n", integer=True, positive=True), sympy.Symbol("w", integer=True, positive=True)
        for w in (lower, lower + 1, lower + 4, 9):
            start = int(sympy.sympify(form.start).xreplace({w_sym: w}))
            for n in [*range(start, start + 60), 10 ** 5 + 7]:
                got = int(form.layers.xreplace({n_sym: n, w_sym: w}))
                assert got == count_at(L, n, w), (heads, w, n)
    assert decided >= 40, decided


def test_a_param_width_against_the_rooted_views():
    heads = [["causal & window(w)", "causal & window(2)"]]
    L, form = form_of(heads, "param w integer >= 2\n")
    n_sym, w_sym = sympy.Symbol("n", integer=True, positive=True), sympy.Symbol("w", integer=True, positive=True)
    for w in (2, 3, 5):
        src_heads = [[f"causal & window({w})", "causal & window(2)"]]
        for n in range(2 * w, 41):
            assert int(form.layers.xreplace({n_sym: n, w_sym: w})) == views_count(src_heads, n), (w, n)


def test_a_param_width_file_is_verified_and_forgeries_rejected():
    heads = [["causal & window(w)", "causal & window(2)"]]
    params = "param w integer >= 2\n"
    r = uapcheck.check(params + text(heads), "t.uap")
    w, n = sympy.Symbol("w", integer=True, positive=True), sympy.Symbol("n", integer=True, positive=True)
    assert r.verdict == "UAP"
    assert sympy.simplify(r.layers - sympy.ceiling((n - 1) / (w + 2)) - sympy.ceiling((n - 1 - w) / (w + 2))) == 0
    data = certificate(heads, params)
    assert form_outcome(data) == VERIFIED
    other = certificate([["causal & window(w)", "causal & window(3)"]], params)

    def formula(d):
        d["layers"] = next(s for s in other["steps"] if s["rule"] == "SEQ-CAUSAL-FORM")["data"]["layers"]

    def early(d):
        d["from"] = 2
    for change in (formula, early):
        assert form_outcome(_forged(data, change)) == REJECTED, change.__name__


def test_the_growing_form_against_every_permutation_at_n_up_to_6():
    """The definition of §21.3/§21.5 by brute force over S_n (tests/test_brute_force_random_families.py's family of
    per-layer neighbourhoods): at each n ≤ 6 the stated count reaches every prefix, has no causal view witness, and
    when above max(D_c, 1) has one a layer below — for 30-odd random periodic lists of finite widths."""
    from test_brute_force_random_families import family, per_layer_source  # tests/ is on sys.path
    pool = [("and", ("causal",), ("window", 1, False)), ("and", ("causal",), ("window", 2, False)),
            ("and", ("causal",), ("window", 3, False)), ("offsets", (0,))]
    rng = random.Random(7)
    checked = 0
    for _ in range(40):
        row = [rng.choice(pool) for _ in range(rng.choice([2, 3]))]
        if all(h == ("offsets", (0,)) for h in row) or len(set(row)) == 1:
            continue
        src = per_layer_source([row], ["periodic"], "n", None, causal=True)
        form = interval_form(read_form_layers(parse_source(src)), "n")
        assert isinstance(form, GrowingForm)
        for n in range(1, 7):
            layers = piece_at(form, n, {})
            fam = family([row], ["periodic"], n, None)
            d = fam.first_reaching(lambda i: frozenset(range(1, i + 1)))
            assert layers >= max(d, 1), (src, n)

            def moves(p, i):
                return any(p[j] != j for j in range(1, i + 1))
            assert not fam.witness(layers, moves), (src, n)
            if layers > max(d, 1):
                assert fam.witness(layers - 1, moves), (src, n)
            checked += 1
    assert checked >= 150, checked
