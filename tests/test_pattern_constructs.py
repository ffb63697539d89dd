"""Patterns as papers draw them: intersections, attention sinks, global tokens at listed positions,
block-level patterns, and their analysis at real sizes (docs/theory.md §11.7, §11.8)."""
from __future__ import annotations

import itertools
import time

import pytest

import uapcheck
from uapcheck import spec as S
from uapcheck.errors import UapError
from uapcheck.graphs import build_graph
from uapcheck.graphs.arith import attends, lower_triangular, path_by_structure, upper_triangular
from uapcheck.graphs.blockwise import closed_twin_classes, lifted_order, lifted_order_text
from uapcheck.parse import parse_source
from uapcheck.rules import pattern as pattern_rules
from uapcheck.rules import structured


def _spec(pattern: str, tokens="16", extra: str = "") -> S.Spec:
    return parse_source(f"tokens {tokens}\n{extra}\nattention {{ kernel k(x, y) = exp(x . y); pattern {pattern} }}")


def _pattern(text: str, tokens="16") -> S.Pattern:
    return _spec(text, tokens).heads[0].pattern


# -- syntax -------------------------------------------------------------------------------------

def test_intersection_binds_tighter_than_union():
    p = _pattern("causal & window(4) + sinks(2)")
    assert isinstance(p, S.PatternUnion)
    assert p.parts == (S.PatternIntersection((S.Causal(), S.Window(4))), S.Sinks(2))


def test_set_symbols_and_parentheses():
    assert _pattern("causal ∩ window(4) ∪ sinks(2)") == _pattern("causal & window(4) + sinks(2)")
    p = _pattern("causal & (window(1) + global {3})")
    assert p == S.PatternIntersection((S.Causal(), S.PatternUnion((S.Window(1), S.GlobalAt((3,))))))


def test_blockwise_checks_its_inner_pattern_against_the_blocks():
    p = _pattern("blockwise(4) { window(1) + global {1, 4} + random(1, seed=0) }")
    assert p == S.Blockwise(4, S.PatternUnion((S.Window(1), S.GlobalAt((1, 4)), S.RandomPattern(1, 0))))


@pytest.mark.parametrize("text, tokens, message", [
    ("global {17}", "16", "beyond `tokens 16`"),
    ("global {2, 2}", "16", "listed twice"),
    ("global {1}", "n", "integer `tokens N`"),
    ("blockwise(5) { window(1) }", "16", "does not divide"),
    ("blockwise(4) { global {5} }", "16", "beyond `tokens 4`"),
    ("blockwise(2) { blockwise(2) { full } }", "16", "cannot be nested"),
    ("blockwise(4) { window(1) }", "n", "integer `tokens N`"),
    ("sinks(0)", "16", "at least 1"),
    ("sinks(17)", "16", "exceeds `tokens 16`"),
])
def test_pattern_errors(text, tokens, message):
    with pytest.raises(UapError) as err:
        _spec(text, tokens)
    assert message in err.value.message


# -- semantics: arithmetic predicate = arc generator --------------------------------------------

PATTERNS = [
    "causal & window(2)", "causal & window(3) + sinks(2)", "window(1) + sinks(2)", "global {2, 5}",
    "window(1) & offsets {1, -1, 3}", "(window(2) + strided(3)) & causal", "blockwise(2) { window(1) }",
    "blockwise(3) { window(1) + global {1} + random(1, seed=2) }", "blockwise(2) { causal & window(1) }",
    "full & window(1)", "causal & full", "blocks(3) & window(1) + global {4}", "sinks(3)",
    "columns(4, 1) & causal & window(1)", "columns(3, 2) + window(1)",
]


@pytest.mark.parametrize("text", PATTERNS)
def test_attends_agrees_with_the_arc_builder(text):
    n = 12
    p = _pattern(text, str(n))
    g = build_graph(p, n, {})
    for i, j in itertools.product(range(1, n + 1), repeat=2):
        assert attends(p, n, i, j) == g.attends(i, j), (text, i, j)


def test_sinks_follow_the_base_mask():
    n = 8
    p = _pattern("causal & window(2) + sinks(2)", str(n))
    assert attends(p, n, 8, 1) and attends(p, n, 8, 2)      # every later query sees the sinks
    assert not attends(p, n, 1, 2)                           # a sink query follows the causal mask
    assert not attends(p, n, 8, 3)                           # outside the window, not a sink
    q = _pattern("window(1) + sinks(2)", str(n))
    assert not attends(q, n, 1, 3) and attends(q, n, 1, 2)   # sink 1: its window only


def test_global_at_listed_positions_is_two_way():
    n = 10
    p = _pattern("window(1) + global {4, 9}", str(n))
    assert all(attends(p, n, 4, j) and attends(p, n, j, 4) for j in range(1, n + 1))
    assert attends(p, n, 1, 9) and not attends(p, n, 1, 3)


def test_triangularity_is_structural():
    assert lower_triangular(_pattern("causal & window(4) + sinks(2)"))
    assert lower_triangular(_pattern("window(3) & offsets {-1, -2}"))
    assert not lower_triangular(_pattern("causal + window(1)"))
    assert upper_triangular(_pattern("offsets {0, 1, 2}"))
    for text in ("causal & window(4) + sinks(2)", "window(3) & offsets {-1, -2}"):
        p = _pattern(text, "12")
        assert all(j <= i for j, i in build_graph(p, 12, {}).arcs())


PATH_PATTERNS = [*PATTERNS, "causal", "full", "window(1)", "window(2) cyclic", "offsets {-1, 0}", "offsets {1, 2}",
                 "offsets {-1} cyclic", "causal & window(4096)", "causal & window(4096) + sinks(4)", "strided(2)",
                 "sinks(2) + causal", "dilated(2, 2)", "window(3) & offsets {-2, -1}", "blocks(2) + offsets {1}"]


@pytest.mark.parametrize("text", PATH_PATTERNS)
@pytest.mark.parametrize("lower", [True, False])
def test_the_path_read_off_the_structure_is_on_the_arcs(text, lower):
    """Where the structure shows every query attending to its neighbour on one side, the arcs have it at every n
    checked (a wrong shortcut would name a trivial group where the arcs do not prove it)."""
    p = _pattern(text, "12")
    if path_by_structure(p, lower):
        for n in range(2, 17):
            g = build_graph(p, n, {})
            assert all(g.attends(i, i - 1) if lower else g.attends(i, i + 1)
                       for i in (range(2, n + 1) if lower else range(1, n))), (text, lower, n)


def test_the_structure_shows_the_path_of_the_common_masks():
    assert path_by_structure(_pattern("causal & window(4096) + sinks(4)", "32768"), True)
    assert path_by_structure(_pattern("offsets {0, 1}"), False)
    assert not path_by_structure(_pattern("causal"), False)
    assert not path_by_structure(_pattern("sinks(3)"), True)
    assert not path_by_structure(_pattern("offsets {-1} cyclic"), True)  # left to the scan
    assert not path_by_structure(_pattern("strided(2)"), True)


# -- real sizes -----------------------------------------------------------------------------------

def test_mistral_at_32768_tokens_is_decided_quickly():
    text = ("tokens 32768\nattention { kernel k(q, key) = exp(q . key)\n"
            "pattern causal & window(4096) + sinks(4) }")
    start = time.process_time()
    result = uapcheck.check(text)
    assert time.process_time() - start < 5
    assert result.verdict == "NOT-UAP"
    steps = {s.rule: s for s in result.root.walk()}
    assert steps["PAT-DISCONNECTED"].evidence["witness"]["i"] == 1
    assert steps["PAT-DISCONNECTED"].evidence["witness"]["j"] == 2
    assert steps["SYM-AUT"].evidence["name"] == "trivial"


def test_symbolic_causal_window_with_sinks():
    text = ("param w integer >= 1\nparam k integer >= 1\nattention { kernel k(q, key) = exp(q . key)\n"
            "pattern causal & window(w) + sinks(k) }")
    assert uapcheck.check(text).verdict == "NOT-UAP"


def test_triangular_group_matches_the_token_engine_at_small_n():
    for text in ("causal & window(2) + sinks(1)", "causal", "offsets {-1, -3}"):
        spec = _spec(text, "9")
        fast = structured.triangular_outcome(spec, True)
        slow = pattern_rules._concrete(spec)
        assert fast.obstruction is not None and slow.obstruction is not None
        if fast.group is not None:
            assert fast.group.order == slow.group.order == 1


BLOCK_INNERS = ["window(1)", "window(1) + global {1}", "window(1) + random(1, seed=3)", "offsets {1}",
                "window(1) & causal", "global {2}", "random(2, seed=1)", "window(2) cyclic",
                "causal + sinks(1)", "window(1) + global {1, 3}"]


@pytest.mark.parametrize("inner", BLOCK_INNERS)
@pytest.mark.parametrize("b, nb", [(2, 4), (3, 5), (2, 6), (4, 3)])
def test_block_lift_agrees_with_the_token_graph(inner, b, nb):
    """The block-level analysis, lifted, gives the token graph's group order, connectivity and
    diameter, and never fewer layers than the token-level analysis."""
    try:
        spec = _spec(f"blockwise({b}) {{ {inner} }}", str(b * nb))
    except UapError:
        pytest.skip("inner pattern not valid at this number of blocks")
    lifted, tokens = structured._blockwise(spec), pattern_rules._concrete(spec)
    assert lifted.group.order == tokens.group.order
    assert (lifted.obstruction is None) == (tokens.obstruction is None)
    assert lifted.diameter == tokens.diameter
    if lifted.layers is not None:
        assert lifted.layers >= tokens.layers


def test_lifted_order_formula():
    # two global blocks are closed twins: 2 · 2! quotient... |G_T| = |Aut(Q)| · ∏ (b|C|)!
    assert lifted_order(2, [[1, 3], [2]], 4) == 1 * 40320 * 24
    assert lifted_order_text(2, [[1, 3], [2]], 64) == "128! · 64!"


def test_bigbird_itc_at_4096_tokens():
    text = ("tokens 4096\nattention { kernel k(q, key) = exp(q . key)\n"
            "pattern blockwise(64) { window(1) + global {1, 64} + random(3, seed=0) } }")
    start = time.process_time()
    result = uapcheck.check(text)
    assert time.process_time() - start < 5
    assert result.verdict == "UAP" and result.layers == 3
    assert result.group.order == "128! · (64!)^62"


def test_closed_twins_of_blocks():
    spec = _spec("blockwise(2) { window(1) + global {1, 6} }", "12")
    blocks = [build_graph(spec.heads[0].pattern.inner, 6, {})]
    assert closed_twin_classes(blocks) == [[1, 6], [2], [3], [4], [5]]


def test_symbolic_intersection_that_is_not_triangular_is_inconclusive():
    text = "attention { kernel k(q, key) = exp(q . key); pattern window(2) & window(1) + sinks(1) }"
    result = uapcheck.check(text)
    assert result.verdict == "INCONCLUSIVE"
    assert any(s.rule == "PAT-UNDECIDED" for s in result.root.walk())


def test_a_triangular_head_with_summary_columns_is_decided():
    """`columns(l, c)` intersected with a causal window is lower triangular: its path 1 → 2 → … → n is checked by
    `attends`, which had no branch for columns (an internal error, found by the fuzzing campaign)."""
    import uapcheck
    text = ("tokens 100000\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern columns(8, 1) & causal & window(1)\n}\n")
    result = uapcheck.check(text, "t.uap")
    assert str(result.verdict) in ("UAP", "NOT-UAP", "INCONCLUSIVE")
