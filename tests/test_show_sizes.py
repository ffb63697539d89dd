"""How symbolic sizes, layer counts and ranges of n read in reports (uapcheck/show.py)."""
import sympy

from uapcheck.show import show_condition, show_size

n = sympy.Symbol("n", integer=True, positive=True)
w = sympy.Symbol("w", integer=True, positive=True)


def test_ceiling_and_floor_with_parentheses_inside_are_bracketed():
    assert show_size(sympy.ceiling((n - 1) / w)) == "⌈(n - 1)/w⌉"
    assert show_size(sympy.ceiling(sympy.floor(n / 2) / w)) == "⌈⌊n/2⌋/w⌉"
    assert show_size(sympy.floor(n / 4) + 1) == "⌊n/4⌋ + 1"


def test_the_argument_of_a_ceiling_or_floor_reads_over_one_denominator():
    # SymPy keeps ceiling(n/2 - 1/2); a reader writes ⌈(n - 1)/2⌉
    assert show_size(sympy.ceiling(n / 2 - sympy.Rational(1, 2)) + 1) == "⌈(n - 1)/2⌉ + 1"
    assert show_size(sympy.floor(n / 8 - sympy.Rational(7, 8)) + 3) == "⌊(n - 7)/8⌋ + 3"
    # an argument that is not simpler over one denominator is left as it is
    assert show_size(sympy.floor(n / 2 + w / 3)) == "⌊n/2 + w/3⌋"


def test_products_and_powers_read_with_a_dot_and_a_caret():
    assert show_size(2 * n) == "2·n"
    assert show_size(3 * n ** 2) == "3·n^2"
    assert show_size(24 ** (sympy.ceiling(n / 4) - 2)) == "24^(⌈n/4⌉ - 2)"


def test_max_and_min_read_in_lower_case():
    assert show_size(sympy.Max(n - 2 * sympy.ceiling(n / 3) + 1, sympy.ceiling(n / 3))) == \
        "max(n - 2·⌈n/3⌉ + 1, ⌈n/3⌉)"


def test_a_count_by_one_residue_reads_as_an_equation():
    count = sympy.Piecewise((4, sympy.Eq(sympy.Mod(n, 3), 0)), (3, True))
    assert show_size(count) == "4 if n mod 3 = 0, else 3"
    two = sympy.Piecewise((3, sympy.Or(sympy.Eq(sympy.Mod(n, 5), 4), sympy.Eq(sympy.Mod(n, 5), 0))), (2, True))
    assert show_size(two) == "3 if n mod 5 ∈ {0, 4}, else 2"


def test_the_values_of_a_count_by_residue_read_like_any_size():
    count = sympy.Piecewise((sympy.floor(n / 5) + 2, sympy.Eq(sympy.Mod(n, 5), 4)), (sympy.floor(n / 5) + 1, True))
    assert show_size(count) == "⌊n/5⌋ + 2 if n mod 5 = 4, else ⌊n/5⌋ + 1"


def test_a_range_drops_a_bound_another_implies():
    cond = sympy.And(sympy.Ge(n, w + 2), sympy.Ge(n, 2 * w + 1), evaluate=False)
    assert show_condition(cond) == "n ≥ 2·w + 1"


def test_a_range_keeps_bounds_neither_of_which_implies_the_other():
    v = sympy.Symbol("v", integer=True, positive=True)
    cond = sympy.And(sympy.Ge(n, w + 2), sympy.Ge(n, v + 3), evaluate=False)
    assert set(show_condition(cond).split(" and ")) == {"n ≥ w + 2", "n ≥ v + 3"}


def test_a_range_keeps_one_of_two_equal_bounds():
    cond = sympy.And(sympy.Ge(n, w + 2), sympy.Ge(n, sympy.Add(w, 1, 1, evaluate=False)), sympy.Ge(n, 12),
                     evaluate=False)
    parts = show_condition(cond).split(" and ")
    assert len(parts) == 2 and "n ≥ 12" in parts


def test_alternatives_and_residues_read_in_words():
    assert show_condition(sympy.Or(sympy.Ge(n, 3), sympy.Eq(n, 1))) == "n = 1 or n ≥ 3"
    classes = sympy.Or(sympy.And(sympy.Ge(n, 8), sympy.Eq(sympy.Mod(n, 4), 0)),
                       sympy.And(sympy.Ge(n, 11), sympy.Eq(sympy.Mod(n, 4), 1)))
    assert show_condition(classes) == "(n ≥ 8 and n mod 4 = 0) or (n ≥ 11 and n mod 4 = 1)"
    assert show_size(sympy.Mod(n + 1, 4)) == "(n + 1) mod 4"


def test_a_count_by_residue_plus_a_constant_reads_as_one_count():
    count = sympy.Piecewise((2 * sympy.floor(n / 4) - 1, sympy.Eq(sympy.Mod(n, 4), 0)), (2 * sympy.floor(n / 4), True))
    assert show_size(count + 1) == "2·⌊n/4⌋ if n mod 4 = 0, else 2·⌊n/4⌋ + 1"


def test_a_range_of_other_shape_is_printed_as_is():
    cond = sympy.Not(sympy.Eq(sympy.Mod(n, 3), 0), evaluate=False)
    assert show_condition(cond) == sympy.sstr(cond)
