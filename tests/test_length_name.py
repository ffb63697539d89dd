"""A file's own name for the symbolic length (`tokens N`) is the one its verdict speaks of: the stated range, the
lengths below it and a causal target's range all say N, as the counts' formulas do (⌈(N − 1)/3⌉); the JSON keys are
unchanged."""
from __future__ import annotations

import json
import re

import pytest

import uapcheck
from uapcheck.render import jsonout
from uapcheck.render.spoken import spoken
from uapcheck.render.verdict_lines import headline

TWO_PARTS = """tokens {n}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern window(3) + strided(4)
}}
"""
DECODER = """tokens {n}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern causal & window(3)
}}
target causal
"""


@pytest.mark.parametrize("name", ["n", "N", "len", "x_n", "L_n", "n_1"])
def test_lengths_below_the_range_use_the_files_name(name):
    line = headline(uapcheck.check(TWO_PARTS.format(n=name), "t.uap"))
    assert f"(for {name} ≥ 60); UAP at {name} = 1…59" in line
    others = {"n", "N", "len"} - {name}
    assert not any(f"at {o} = " in line or f"for {o} ≥" in line for o in others)
    # spoken once: `tokens x_n` is not read again as x_ followed by the length (`x_x_n`)
    twice = re.sub(r"(?<![A-Za-z0-9])n(?![A-Za-z0-9])", name, name)
    assert twice == name or twice not in line


@pytest.mark.parametrize("name", ["n", "N"])
def test_a_causal_targets_range_uses_the_files_name(name):
    line = headline(uapcheck.check(DECODER.format(n=name), "t.uap"))
    assert f"(for {name} ≥ 5; {name} = 1, 2: 1 layer; {name} = 3, 4: 2 layers)" in line
    assert f"⌈({name} - 1)/3⌉" in line


def test_the_json_keys_do_not_depend_on_the_name():
    def below(name):
        return json.loads(jsonout.dumps(jsonout.result_json(uapcheck.check(TWO_PARTS.format(n=name), "t.uap"))))[
            "below_range"]
    assert below("N") == below("n") and len(below("n")) == 59 and below("n")[0]["n"] == 1


@pytest.mark.parametrize("name", ["n", "N", "len"])
def test_a_group_at_a_length_below_the_range_is_named_at_that_length(name):
    """At N = 2 and 3 the group is the whole symmetric group: S_2 and S_3, not the engines' S_n read in the file's
    name (S_N with N = 2)."""
    result = uapcheck.check(TWO_PARTS.format(n=name), "t.uap")
    groups = {r["n"]: r["group"]["name"] for r in json.loads(jsonout.dumps(jsonout.result_json(result)))["below_range"]}
    assert groups[2] == "S_2" and groups[3] == "S_3"
    assert not any(g.startswith(f"S_{name}") for g in groups.values())
    words = [r.words() for r in spoken(result).root.facts["below_range"]]
    assert f"{name} = 2: UAP · G = S_2 · 1 layer, least" in words and f"{name} = 3: UAP · G = S_3 · 1 layer, least" in words

ALTERNATING = """tokens {n}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern periodic {{ causal & window(4), causal & window(1) }}
}}
target causal
"""
PARAM_WINDOW = """tokens {n}
param w integer >= 1
attention {{
  kernel k(x, y) = exp(x . y)
  pattern causal & window(w) + sinks(2)
}}
target causal
"""


@pytest.mark.parametrize("name", ["n", "N"])
def test_per_layer_and_param_ranges_and_their_pieces_use_the_files_name(name):
    alternating = headline(uapcheck.check(ALTERNATING.format(n=name), "t.uap"))
    assert f"(for {name} ≥ 7; {name} ≤ 2: 1 layer; {name} = 3: 2 layers; 4 ≤ {name} < 7: 3 layers)" in alternating
    window = headline(uapcheck.check(PARAM_WINDOW.format(n=name), "t.uap"))
    assert f"(for {name} ≥ w + 4; {name} ≤ 2: 1 layer; 3 ≤ {name} < w + 4: 2 layers)" in window
