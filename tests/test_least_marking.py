"""A layer count that is sufficient but not shown least says so wherever the verdict is printed (the text,
Markdown and LaTeX headlines, the JSON `least` field, the catalog table), and one that is least does not; the
words of the layer steps name positions and residues as numbers, not as unfilled formulas."""
from __future__ import annotations

import json

import pytest

import uapcheck
from uapcheck.render import jsonout
from uapcheck.render.latex import headline_tex
from uapcheck.render.markdown import headline_markdown
from uapcheck.render.verdict_lines import NOT_LEAST, headline, layers_least

SUFFICIENT = """architecture "window and a named stride"
param s integer >= 3
tokens n
attention {
  kernel k(x, y) = exp(x . y)
  pattern window(1) + strided(s)
}
"""

LEAST = """tokens n
attention {
  kernel k(x, y) = exp(x . y)
  pattern window(2) + global(1)
}
"""

DENSE = """attention {
  kernel k(x, y) = exp(x . y)
}
"""


@pytest.fixture(scope="module")
def sufficient():
    return uapcheck.check(SUFFICIENT, "sufficient.uap")


@pytest.fixture(scope="module")
def least():
    return uapcheck.check(LEAST, "least.uap")


def test_a_sufficient_count_is_marked_in_every_headline(sufficient):
    assert sufficient.verdict == "UAP"
    assert layers_least(sufficient) is False
    assert NOT_LEAST.strip() in headline(sufficient)
    assert "not shown least" in headline_markdown(sufficient)
    assert "not shown least" in headline_tex(sufficient)
    record = json.loads(jsonout.dumps(jsonout.result_json(sufficient)))
    assert record["least"] is False


def test_a_least_count_is_not_marked(least):
    assert least.verdict == "UAP"
    assert layers_least(least) is True
    for text in (headline(least), headline_markdown(least), headline_tex(least)):
        assert "not shown least" not in text
    assert json.loads(jsonout.dumps(jsonout.result_json(least)))["least"] is True


def test_one_layer_is_least_and_other_verdicts_have_no_count():
    dense = uapcheck.check(DENSE, "dense.uap")
    assert dense.layers == 1 and layers_least(dense) is True
    causal = uapcheck.check(DENSE.replace("exp(x . y)\n", "exp(x . y)\n  pattern causal\n"), "causal.uap")
    assert causal.verdict != "UAP"
    assert layers_least(causal) is None
    assert json.loads(jsonout.dumps(jsonout.result_json(causal)))["least"] is None


def test_the_catalog_table_marks_a_sufficient_count(sufficient, least):
    from repo_scripts import load_script
    module = load_script("scripts/make_catalog_table.py", "make_catalog_table")
    assert module.show_layers(sufficient).endswith("(sufficient, not shown least)")
    assert module.show_layers(least) == "3"


def test_the_view_witness_of_window_and_globals_names_its_positions(least):
    layers = next(s for s in least.root.walk() if s.rule == "PAT-LAYERS")
    assert "the swap (2 3)" in layers.claim and "g+1" not in layers.claim


def test_a_count_that_does_not_depend_on_n_says_so():
    result = uapcheck.check(LEAST.replace("window(2) + global(1)", "offsets {-1, 0, 3}"), "line.uap")
    layers = next(s for s in result.root.walk() if s.rule == "PAT-LAYERS")
    assert "n mod 1" not in layers.claim
    assert "does not depend on n" in layers.claim


def test_the_notes_below_the_range_are_simplified_and_filled():
    source = """tokens n
attention a {
  kernel k(x, y) = exp(x . y)
  pattern window(2)
}
attention b {
  kernel k(x, y) = exp(x . y)
  pattern blocks(4)
}
"""
    result = uapcheck.check(source, "heads.uap")
    notes = [note for s in result.root.walk() for note in s.notes]
    assert any(note.startswith("for n = 4: |G| = 4") for note in notes), notes  # the number, not 2·(6 − n)!
    assert not any("None" in note for note in notes), notes
    assert not any(" and n <" in note for note in notes), notes


def test_the_theorems_constants_are_said_in_words():
    result = uapcheck.check(LEAST.replace("window(2) + global(1)", "offsets {1, 2, 5} cyclic"), "jumps.uap")
    keys = [key for s in result.root.walk() for key in s.evidence.get("parameters", {})]
    assert keys and "L" not in keys and "R" not in keys
    assert any(key.startswith("L (") for key in keys)


def _json(path):
    from pathlib import Path
    result = uapcheck.check(Path(path).read_text(), path)
    return json.loads(jsonout.dumps(jsonout.result_json(result)))


@pytest.mark.parametrize("path", ["catalog/sparse_transformer_fixed.uap", "catalog/sparse_transformer_strided.uap"])
def test_per_layer_patterns_state_their_least_count_in_json(path):
    """SEQ-LAYERS proves its count least (the view argument at depth m − 1 and m); the JSON says so."""
    record = _json(path)
    assert record["verdict"] == "UAP"
    assert record["least"] is True
    (step,) = [s for s in record["steps"] if s["rule"] == "SEQ-LAYERS"]
    assert step["facts"]["least"] is True


@pytest.mark.parametrize("path", ["catalog/causal_decoder.uap", "catalog/mistral_7b_decoder.uap",
                                  "catalog/window_sink_decoder.uap"])
def test_a_declared_target_states_its_own_least_flag_at_top_level(path):
    """A `target causal` verdict's count is TGT-LAYERS's: the top-level `least` is the target's, not None."""
    record = _json(path)
    assert record["verdict"] == "UAP" and record["target"]["class"] == "causal"
    assert record["least"] is record["target"]["least"] is True
    assert "least_classes" not in record
