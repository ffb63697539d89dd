"""Per-layer causal interval heads at a symbolic n (docs/theory.md §21.8, Theorem F123): the closed forms against
Theorem F121's concrete decision (§21.6) at every n ≤ 60 and at large n, for random sequences of interval heads (one
to three heads, widths 0 to 9 and ∞, finite and periodic, budgets) and for a param width at several values; against
§21.5's rooted-view engine (independent code) at small n; the files end to end (text, certificate, verifier); and
forged counts, starts, pieces and flags rejected by the kernel and by the verifier."""
from __future__ import annotations

import copy
import json
import random
from dataclasses import replace

import pytest

import uapcheck
from uapcheck import certfile, proof
from uapcheck.graphs.layers_causal import causal_least_layers, prefix_reach
from uapcheck.graphs.layers_interval_forms import (FormOutside, GrowingForm, Piece, count_at, interval_form,
                                                   piece_at, read_form_layers)
from uapcheck.layer_certificates import CausalIntervalForm
from uapcheck.parse import parse_source
from uapcheck.rules.layers import build_sequence
from uapcheck.verifier import verify
from uapcheck.verifier.check import REJECTED, VERIFIED

HEADS = ["causal", "causal & window(1)", "causal & window(2)", "causal & window(3)", "causal & window(5)",
         "causal & window(9)", "offsets {-1, 0}", "offsets {0}", "offsets {-2, -1}",
         "causal & window(2) + offsets {-4, -3, -2, -1}"]
PARAM_HEADS = ["causal", "causal & window(w)", "offsets {0}", "causal & window(w) + offsets {0}"]


def text(heads: list, kind: str, tokens: str = "", extra: str = "", params: str = "") -> str:
    blocks = "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {kind} {{ {', '.join(p)} }}\n}}\n"
                     for p in heads)
    return params + blocks + (f"tokens {tokens}\n" if tokens else "") + f"target causal\n{extra}"


def random_cases(seed: int, count: int, pool=HEADS):
    rng = random.Random(seed)
    for _ in range(count):
        kind = rng.choice(["periodic", "periodic", "sequence"])
        length = rng.randint(2, 6)
        heads = [[rng.choice(pool) for _ in range(length if kind == "sequence" else rng.randint(2, 4))]
                 for _ in range(rng.choice([1, 1, 2, 3]))]
        extra = f"layers {rng.randint(1, 8)}\n" if rng.random() < 0.2 else ""
        yield heads, kind, extra


def form_of(heads, kind, extra="", params=""):
    spec = parse_source(text(heads, kind, "", extra, params))
    L = read_form_layers(spec)
    return L, interval_form(L, "n")


def test_the_closed_forms_agree_with_theorem_f121_at_every_n_up_to_60_and_at_large_n():
    seen = {"decided": 0, "outside": 0, "case b": 0, "growing": 0}
    for heads, kind, extra in random_cases(11, 400):
        try:
            L, form = form_of(heads, kind, extra)
        except FormOutside:
            seen["outside"] += 1
            continue
        if isinstance(form, GrowingForm):  # finite widths only: Theorem F137 (tests/test_per_layer_causal_growing.py)
            seen["growing"] += 1
            assert all(piece_at(form, n, {}) == count_at(L, n) for n in range(1, 61)), (heads, kind, extra)
            continue
        seen["decided"] += 1
        seen["case b"] += form.first_wide == form.first_global
        for n in [*range(1, 61), form.start, form.bound, form.bound + 1, 997, 4096, 10 ** 6 + 3]:
            assert piece_at(form, n, {}) == count_at(L, n), (heads, kind, extra, n)
        assert count_at(L, form.start - 1) < form.layers  # the range is sharp
    assert seen["decided"] >= 100 and seen["outside"] >= 20 and seen["case b"] >= 10 and seen["growing"] >= 10, seen


def test_the_closed_forms_agree_with_the_rooted_views_at_small_n():
    """§21.5's engine (rooted views on the arcs; no code shared with F121 or F123) at every n ≤ 24."""
    checked = 0
    for heads, kind, extra in random_cases(12, 60):
        try:
            L, form = form_of(heads, kind, extra)
        except FormOutside:
            continue
        for n in range(2, 25):
            spec = parse_source(text(heads, kind, str(n), extra))
            seq = build_sequence(spec)
            if L.limit is not None and L.limit < seq.period:
                from uapcheck.graphs.layers import LayerSequence
                seq = LayerSequence(seq.n, seq.layers[:L.limit], False)
            reach = prefix_reach(seq, L.limit)
            top = L.limit if L.limit is not None else reach.depth + 2 * seq.period + 2
            least = causal_least_layers(seq, max(reach.depth, 1), top)
            if least.reason:
                continue
            assert least.layers == piece_at(form, n, {}), (heads, kind, extra, n)
            checked += 1
    assert checked >= 200


@pytest.mark.parametrize("seed, lower", [(21, 2), (22, 2), (23, 1)])
def test_a_param_width_agrees_with_theorem_f121_at_several_values(seed, lower):
    decided = 0
    for heads, kind, extra in random_cases(seed, 150, PARAM_HEADS):
        params = f"param w integer >= {lower}\n"
        try:
            L, form = form_of(heads, kind, extra, params)
        except FormOutside:
            continue
        if isinstance(form, GrowingForm):  # finite widths only: Theorem F137 (tests/test_per_layer_causal_growing.py)
            continue
        decided += 1
        for w in (lower, 2, 3, 4, 7, 11):
            for n in range(1, 90):
                assert piece_at(form, n, {"w": w}) == count_at(L, n, w), (heads, kind, extra, w, n)
    assert decided >= 30


def test_gemma_shapes_with_a_param_window():
    L, form = form_of([["causal & window(w)", "causal"]], "periodic", params="param w integer >= 1\n")
    assert (form.layers, form.start) == (2, 3) and form.pieces == (Piece(1, 3, 1),)
    L, form = form_of([["causal & window(w)"] * 5 + ["causal"]], "periodic", params="param w integer >= 1\n")
    assert form.layers == 6 and str(form.start) == "5*w + 2"
    for w in (1, 2, 3, 1024):
        for n in (1, 2, 3, 2 * w + 1, 2 * w + 2, 3 * w + 1, 5 * w + 1, 5 * w + 2, 10 ** 5):
            assert piece_at(form, n, {"w": w}) == count_at(L, n, w), (w, n)


def test_a_window_of_width_w_in_layer_one_of_a_global_layer_needs_w_at_least_2():
    with pytest.raises(FormOutside, match="integer >= 2"):
        form_of([["causal", "causal & window(w)"], ["causal & window(w)", "causal & window(w)"]], "periodic",
                params="param w integer >= 1\n")


@pytest.mark.parametrize("heads, extra, why", [
    # finite widths with `layers 4` are Theorem F159's split now (tests/test_per_layer_causal_budget_split_verdict.py)
    ([["window(2)", "causal"]], "", "not an interval head"),
])
def test_outside_the_theorem_is_inconclusive_naming_the_premise(heads, extra, why):
    r = uapcheck.check(text(heads, "periodic", extra=extra), "t.uap")
    assert r.verdict == "INCONCLUSIVE"
    assert why in r.root.claim


def test_sinks_with_finite_widths_are_theorem_f146s():
    """{ causal & window(2) + sinks(2), causal & window(3) } at a symbolic n, formerly INCONCLUSIVE here ("sinks"):
    Theorem F146's ⌈(n − 3)/5⌉ + ⌈(n − 5)/5⌉ layers, least."""
    import sympy
    r = uapcheck.check(text([["causal & window(2) + sinks(2)", "causal & window(3)"]], "periodic"), "t.uap")
    n = sympy.Symbol("n", integer=True, positive=True)
    assert r.verdict == "UAP" and r.target.least
    assert sympy.simplify(r.layers - sympy.ceiling((n - 3) / 5) - sympy.ceiling((n - 5) / 5)) == 0


def test_a_sink_layer_before_the_first_wide_one_is_theorem_f157s():
    """{ offsets {0} + sinks(2), causal & window(3) } at a symbolic n, formerly INCONCLUSIVE here ("sinks"): Theorems
    F146 and F157 give 2·⌈(n − 3)/3⌉ layers, least."""
    import sympy
    r = uapcheck.check(text([["offsets {0} + sinks(2)", "causal & window(3)"]], "periodic"), "t.uap")
    n = sympy.Symbol("n", integer=True, positive=True)
    assert r.verdict == "UAP" and r.target.least
    assert sympy.simplify(r.layers - 2 * sympy.ceiling((n - 3) / 3)) == 0


def test_a_decoder_list_without_target_causal_at_a_symbolic_n_is_no_input_error():
    """Formerly refused (an integer `tokens N` was required); read for equivariant targets, every arc goes one way:
    NOT-UAP for n ≥ 2 (Theorem F138, docs/theory.md §21.13)."""
    r = uapcheck.check(text([["causal & window(2)", "causal"]], "periodic").replace("target causal\n", ""), "t.uap")
    assert r.verdict == "NOT-UAP"


# ---------------------------------------------------------------------------------------------
# end to end, kernel and verifier

FILES = [
    ([["causal & window(w)", "causal"]], "param w integer >= 1\n", 2),
    ([["causal & window(w)"] * 5 + ["causal"]], "param w integer >= 1\n", 6),
    ([["causal & window(1024)"] * 5 + ["causal"]], "", 6),
    ([["causal", "causal & window(1)"]], "", 3),
    ([["offsets {0}", "causal", "causal & window(3)", "causal & window(3)"], ["causal & window(2)"]], "", 2),
    ([["offsets {0}", "causal", "causal & window(3)", "causal & window(3)"]], "", 6),
]


def certificate(src: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(src, "t.uap"), src)))


def step_of(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def outcome(cert: dict, rule: str) -> str:
    rep = verify(cert)
    return next(s.outcome for s in rep.steps if s.rule == rule)


@pytest.mark.parametrize("heads, params, layers", FILES)
def test_files_at_a_symbolic_n_are_uap_and_verified(heads, params, layers):
    src = text(heads, "periodic", params=params)
    r = uapcheck.check(src, "t.uap")
    assert (r.verdict, r.layers) == ("UAP", layers)
    rep = verify(certificate(src))
    assert rep.problems == [] and all(s.outcome == VERIFIED for s in rep.steps), \
        [(s.rule, s.reason) for s in rep.steps if s.outcome != VERIFIED]


def test_the_verdict_at_each_concrete_n_agrees_with_the_symbolic_file():
    heads = [["causal & window(3)", "causal & window(3)", "causal"]]
    L, form = form_of(heads, "periodic")
    for n in (2, 3, 4, 7, 8, 9, 20):
        r = uapcheck.check(text(heads, "periodic", str(n)), "t.uap")
        assert (r.verdict, r.layers) == ("UAP", piece_at(form, n, {})), n


@pytest.mark.parametrize("heads, params", [FILES[1][:2], FILES[2][:2]])
def test_forged_forms_are_rejected_by_the_kernel(heads, params):
    L, form = form_of(heads, "periodic", params=params)
    CausalIntervalForm(L, form, "n").check()
    forged = [replace(form, layers=form.layers - 1), replace(form, layers=form.layers + 1),
              replace(form, start=form.start + 1 if isinstance(form.start, int) else form.start - 1),
              replace(form, pieces=form.pieces[:-1] + (replace(form.pieces[-1], layers=form.layers),))]
    for bad in forged:
        with pytest.raises(proof.CertificateRejected):
            CausalIntervalForm(L, bad, "n").check()


def test_forged_certificates_are_rejected_by_the_verifier():
    src = text([["causal & window(7)", "causal & window(7)", "causal"]], "periodic")
    cert = certificate(src)
    assert outcome(cert, "SEQ-CAUSAL-FORM") == VERIFIED

    def forged(edit) -> str:
        c = copy.deepcopy(cert)
        edit(step_of(c, "SEQ-CAUSAL-FORM")["data"])
        return outcome(c, "SEQ-CAUSAL-FORM")
    assert forged(lambda d: d.update(layers=2)) == REJECTED                 # below the least count
    assert forged(lambda d: d.update(layers=4)) == REJECTED
    assert forged(lambda d: d.update(least=False)) == REJECTED
    assert forged(lambda d: d.update({"from": d["from"] - 1})) == REJECTED  # a range that is too long
    assert forged(lambda d: d.update({"from": d["from"] + 1})) == REJECTED  # not sharp / pieces do not end there
    assert forged(lambda d: d["pieces"][-1].update(layers=d["pieces"][-1]["layers"] - 1)) == REJECTED
    assert forged(lambda d: d["pieces"][0].update(below=d["pieces"][0]["below"] + 1)) == REJECTED

    c = copy.deepcopy(cert)  # the verdict's pieces must be the step's
    verdict = step_of(c, "TGT-VERDICT")
    verdict["data"]["below_pieces"][-1]["layers"] = 1
    assert outcome(c, "TGT-VERDICT") == REJECTED


def test_a_forged_param_form_is_rejected_by_the_verifier():
    src = text([["causal & window(w)"] * 3 + ["causal"]], "periodic", params="param w integer >= 1\n")
    cert = certificate(src)
    assert outcome(cert, "SEQ-CAUSAL-FORM") == VERIFIED
    c = copy.deepcopy(cert)
    pieces = step_of(c, "SEQ-CAUSAL-FORM")["data"]["pieces"]
    pieces[-1]["layers"] = 2  # the piece 2w + 2 ≤ n < 3w + 2 has 3 layers
    assert outcome(c, "SEQ-CAUSAL-FORM") == REJECTED


def test_a_plain_identity_head_beside_per_layer_heads_is_verified():
    """A block with the plain pattern `offsets {0}` (the position alone, width 0) beside a periodic block: the
    verifier's normal form reads it as `window(0)`, which its interval reading refused ('a head pattern that is not an
    interval head: Window'), rejecting the honest SEQ-CAUSAL-FORM step."""
    for plain in ("offsets {0}", "periodic { offsets {0} }"):
        src = text([["causal & window(2)", "causal"]], "periodic").replace(
            "target causal", f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {plain}\n}}\ntarget causal")
        r = uapcheck.check(src, "t.uap")
        assert (r.verdict, r.layers) == ("UAP", 2)
        rep = verify(certificate(src))
        assert rep.problems == [] and all(s.outcome == VERIFIED for s in rep.steps), \
            [(s.rule, s.reason) for s in rep.steps if s.outcome != VERIFIED]
