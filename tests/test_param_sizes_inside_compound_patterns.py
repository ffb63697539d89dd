"""A param size inside an intersection, a per-layer list or a block-level pattern at an integer n is a
param size: the file goes the way a param window does (docs/theory.md §12), not to the token graph,
which needs every size (it said "no integer value given for parameter 'w'" and left the file
INCONCLUSIVE, even where the causal part alone disconnects the pattern)."""
from uapcheck.derive import check_spec
from uapcheck.parse import parse_source


def _result(pattern: str, tokens: int = 20):
    text = ("tokens %d\nparam w integer >= 1\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern %s\n}\n"
            % (tokens, pattern))
    return check_spec(parse_source(text, "<test>"))


def test_a_causal_intersection_with_a_param_window_is_not_strongly_connected_at_an_integer_n():
    out = _result("causal & window(w)").to_dict()
    assert out["verdict"] == "NOT-UAP"
    assert out["group"] is None or "no integer value given" not in str(out["group"])


def test_a_block_level_pattern_with_a_param_size_names_its_open_question_not_a_missing_value():
    out = _result("blockwise(2) { window(w) }").to_dict()
    assert out["verdict"] == "INCONCLUSIVE"
    text = str(out)
    assert "no integer value given" not in text
    assert "block-level patterns with a symbolic size" in text


def test_integer_sizes_inside_an_intersection_still_build_the_token_graph():
    out = _result("causal & window(3)", tokens=12).to_dict()
    assert out["verdict"] == "NOT-UAP"
