"""Per-layer patterns end to end (docs/language.md §5, docs/theory.md §21): the syntax, its errors,
the verdicts (UAP with the least layers, NOT-UAP by reach or by a witness at the whole depth, a budget),
and the steps' certificates."""
from __future__ import annotations

import pytest

from uapcheck.derive import check_spec
from uapcheck.errors import UapError
from uapcheck.parse import parse_source
import uapcheck
from uapcheck import spec as S


def _check(text: str):
    return check_spec(parse_source(text, "seq.uap"))


def _rules(result) -> dict:
    return {s.rule: s for s in result.root.walk()}


HEAD = "attention {{ kernel k(x, y) = exp(x . y); pattern {} }}"


def test_the_syntax_builds_a_sequence_per_head():
    spec = parse_source("tokens 8\n" + HEAD.format("periodic { window(1),\n strided(2) }"), "a.uap")
    pat = spec.heads[0].pattern
    assert isinstance(pat, S.PatternSequence) and pat.periodic
    assert pat.patterns == (S.Window(1), S.Strided(2))
    assert [pat.at(ell) for ell in (1, 2, 3)] == [S.Window(1), S.Strided(2), S.Window(1)]
    fin = parse_source("tokens 8\n" + HEAD.format("sequence { full, columns(4, 2) }"), "b.uap").heads[0].pattern
    assert not fin.periodic and fin.at(3) is None and fin.patterns[1] == S.Columns(4, 2)


@pytest.mark.parametrize("text,message", [
    ("tokens 8\n" + HEAD.format("sequence { window(1) }") + "\n" + HEAD.format("sequence { full, full }"),
     "different lengths"),
    ("tokens 8\nattention { kernel k(x, y) = exp(x . y); bias free; pattern periodic { full, window(1) } }",
     "without a bias"),
    ("tokens 8\npositional absolute\n" + HEAD.format("periodic { full, window(1) }"), "positional"),
    ("tokens 8\n" + HEAD.format("columns(4, 5)"), "c ≤ l"),
])
def test_what_is_refused(text, message):
    with pytest.raises(UapError) as exc:
        parse_source(text, "bad.uap")
    assert message in str(exc.value)


def test_a_list_outside_the_closed_forms_at_a_symbolic_n_is_inconclusive_naming_the_open_question():
    r = _check(HEAD.format("periodic { window(1), strided(2) }"))
    assert r.verdict == "INCONCLUSIVE"
    step = _rules(r)["SEQ-UNDECIDED"]
    assert "at a symbolic n the per-layer analysis is not decided for this list" in str(step.claim)
    assert "integer `tokens N` is decided" in str(step.claim)


def test_strided_alternation_needs_one_layer_more_than_it_connects_in():
    r = _check("tokens 64\n" + HEAD.format("periodic { window(8), strided(8) }"))
    assert r.verdict == "UAP" and r.layers == 3 and r.group.name == "reflection"
    steps = _rules(r)
    assert steps["SEQ-CONNECTED"].evidence["D_Φ"] == 2
    assert steps["SEQ-LAYERS"].evidence["view witness"]["depth"] == 2


def test_a_budget_at_the_connection_depth_is_not_uap():
    r = _check("tokens 64\nlayers 2\n" + HEAD.format("periodic { window(8), strided(8) }"))
    assert r.verdict == "NOT-UAP" and "SEQ-DEPTH" in _rules(r)
    r = _check("tokens 64\nlayers 1\n" + HEAD.format("periodic { window(8), strided(8) }"))
    assert r.verdict == "NOT-UAP" and "SEQ-DISCONNECTED" in _rules(r)
    r = _check("tokens 64\nlayers 3\n" + HEAD.format("periodic { window(8), strided(8) }"))
    assert r.verdict == "UAP" and r.layers == 3


def test_the_order_of_the_layers_matters():
    assert _check("tokens 5\n" + HEAD.format("sequence { window(1), full }")).verdict == "UAP"
    r = _check("tokens 5\n" + HEAD.format("sequence { full, window(1) }"))
    assert r.verdict == "NOT-UAP" and "SEQ-DEPTH" in _rules(r)


def test_a_periodic_sequence_that_never_connects():
    r = _check("tokens 6\n" + HEAD.format("periodic { strided(2), blocks(2) & strided(2) }"))
    assert r.verdict == "NOT-UAP"
    cert = _rules(r)["SEQ-DISCONNECTED"].certificate
    assert cert.layers is None and cert.closed  # closed under every layer: never at any depth


def test_heads_count_separately_in_every_layer():
    # window(1) alone has the reflection; a second head whose layer-2 pattern is one-sided breaks it
    r = _check("tokens 6\n" + HEAD.format("window(1)") + "\n" + HEAD.format("periodic { full, offsets {1} }"))
    assert r.verdict in ("UAP", "NOT-UAP") and _rules(r)["SEQ-GROUP"].evidence["order"] == 1


def test_large_n_is_reported_undecided():
    # outside the closed forms of §21.7 (the stride 3 exceeds the window radius plus one)
    r = _check("tokens 5000\n" + HEAD.format("periodic { window(1), strided(3) }"))
    assert r.verdict == "INCONCLUSIVE" and "SEQ-UNDECIDED" in _rules(r)


def test_large_n_of_sparse_transformers_alternation_is_decided_by_closed_forms():
    r = _check("tokens 5000\n" + HEAD.format("periodic { window(1), strided(2) }"))
    rules = _rules(r)
    assert "SEQ-UNDECIDED" not in rules and "SEQ-ALTERNATION-LAYERS" in rules
    # w = 1, s = 2: the residues {0, −1, w, −w − 1} cover Z_2, so 3 layers suffice and are not shown least
    assert r.verdict == "UAP" and r.layers == 3 and rules["SEQ-ALTERNATION-LAYERS"].facts["least"] is False


def test_the_view_witness_of_the_strided_alternation_shows_numerically():
    """`uapcheck simulate`: after D_Φ = 2 layers the outputs at the witness position agree for X and σX
    (float64 and 50 digits), after 3 they differ (docs/theory.md §21.3, evidence only)."""
    from uapcheck.simulate import simulate
    spec = parse_source("tokens 64\n" + HEAD.format("periodic { window(8), strided(8) }"), "st.uap")
    sim = simulate(spec)
    assert sim.demonstrations and sim.consistent
    assert any(d.kind == "view-witness" and d.holds for d in sim.demonstrations)


def test_a_layer_budget_below_the_period_keeps_only_the_layers_the_network_has():
    """`layers 1` with `periodic { full, window(1) }`: the network is one full layer, so G = S_n and one
    layer suffices (docs/theory.md §21.2); the group is not met with the second layer's reflection."""
    body = "attention {\n  kernel k(x, y) = exp(x . y)\n  pattern periodic { full, window(1) }\n}\n"
    one = uapcheck.check("tokens 6\nlayers 1\n" + body)
    assert (one.verdict, one.group.name, one.layers) == ("UAP", "S_n", 1)
    three = uapcheck.check("tokens 6\nlayers 3\n" + body)
    assert (three.verdict, three.group.name, three.layers) == ("UAP", "reflection", 3)


def test_a_per_layer_count_not_shown_least_says_why_fewer_are_not_decided():
    # periodic { window(64) + global(2), window(64) } at n = 300: the covering lemma gives 5 layers; the rooted views at
    # depths 3 and 4 are beyond their work limit and no transposition keeps a view at depth 4, so 5 is not shown least,
    # and the claim names both reasons, with the length up to which the views would fit
    r = _check("tokens 300\n" + HEAD.format("periodic { window(64) + global(2), window(64) }"))
    step = _rules(r)["SEQ-LAYERS"]
    assert r.verdict == "UAP" and r.layers == 5 and step.facts["least"] is False
    assert "whether fewer do is not shown (the view decision would take about" in step.claim
    assert "fits up to about n = " in step.claim and "no transposition keeping a view at depth 4 was found" in step.claim
    assert step.evidence["why fewer are not decided"].startswith("the view decision would take about")
