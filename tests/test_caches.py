"""uapcheck.memo: per-process caches keyed exactly, never keeping failures or budget-dependent
results, and handing every caller its own copy; and a batch gives each file the output it gets alone."""
from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
import sympy

from uapcheck.budget import BudgetExceeded
from uapcheck.memo import exact_cache, exact_cache_iter, fresh_copy

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Box:
    expr: sympy.Expr
    data: dict


def _counting():
    calls = []

    @exact_cache()
    def f(*args):
        calls.append(args)
        return {"args": list(args), "nested": [{"k": 1}]}

    return f, calls


def test_same_arguments_hit_and_callers_get_their_own_copies():
    f, calls = _counting()
    x = sympy.Symbol("x", positive=True)
    first = f(x + 1)
    first["nested"][0]["k"] = 99  # a caller scribbling on its result
    second = f(x + 1)
    assert len(calls) == 1
    assert second["nested"][0]["k"] == 1


def test_keys_are_exact():
    f, calls = _counting()
    f(sympy.Symbol("x", positive=True))
    f(sympy.Symbol("x", real=True))  # other assumptions: another symbol
    f(sympy.Symbol("x"))
    f(sympy.Rational(1, 2))
    f(sympy.Float(0.5))
    f(1)
    f(True)  # 1 == True in Python, but not the same argument
    f(1.0)
    assert len(calls) == 8


def test_dataclass_arguments_are_keyed_by_their_fields():
    f, calls = _counting()
    x = sympy.Symbol("x")
    f(Box(x, {"a": [1, 2]}))
    f(Box(x, {"a": [1, 2]}))
    f(Box(x, {"a": [1, 3]}))
    assert len(calls) == 2


def test_exceptions_are_not_cached():
    calls = []

    @exact_cache()
    def f(n):
        calls.append(n)
        if len(calls) == 1:
            raise ValueError("first time")
        return n

    with pytest.raises(ValueError):
        f(3)
    assert f(3) == 3 and f(3) == 3
    assert len(calls) == 2


def test_a_result_computed_while_a_budget_ran_out_is_not_kept():
    calls = []

    @exact_cache()
    def f(n):
        calls.append(n)
        try:
            raise BudgetExceeded("a step", 1.0)  # caught inside: the result depends on the machine
        except BudgetExceeded:
            return "undecided"

    assert f(1) == f(1) == "undecided"
    assert len(calls) == 2


def test_generators_are_kept_only_when_run_to_the_end():
    calls = []

    @exact_cache_iter()
    def g(n):
        calls.append(n)
        yield from ({"i": i} for i in range(n))

    assert next(iter(g(3))) == {"i": 0}  # stopped early: nothing kept
    assert list(g(3)) == [{"i": 0}, {"i": 1}, {"i": 2}]
    replay = list(g(3))
    assert replay == [{"i": 0}, {"i": 1}, {"i": 2}] and len(calls) == 2
    replay[0]["i"] = 7
    assert list(g(3))[0] == {"i": 0}


def test_fresh_copy_copies_containers_and_dataclasses_but_shares_sympy_leaves():
    x = sympy.Symbol("x")
    value = [Box(x, {"a": [1]})]
    copied = fresh_copy(value)
    assert copied == value and copied[0] is not value[0] and copied[0].data is not value[0].data
    assert copied[0].expr is x


def test_each_file_of_a_batch_prints_what_it_prints_alone():
    from uapcheck.cli import main
    from uapcheck.memo import clear_caches
    names = ["softmax.uap", "rbf.uap", "linear_relu.uap", "bias_circulant.uap", "softmax_scaled.uap",
             "cosine.uap", "laplacian.uap"]
    files = [str(ROOT / "catalog" / n) for n in names]

    def run(args):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(["--format", "json", "--no-suggest", "--no-cache", *args])  # derived, not read from the result cache
        return [json.loads(line) for line in out.getvalue().splitlines()]

    batch = run(files + files[::-1])  # every file twice, the second time from the caches
    for i, path in enumerate(files):
        clear_caches()
        alone = run([path])
        assert batch[i] == alone[0] == batch[2 * len(files) - 1 - i], path



def test_a_key_function_names_what_the_result_depends_on():
    calls = []

    @exact_cache(key=lambda a, b: a)
    def f(a, b):
        calls.append((a, b))
        return [a]

    assert f(1, "x") == f(1, "y") == [1] and len(calls) == 1
    f(2, "x")
    assert len(calls) == 2


# A head's kernel premises are finished steps kept per process (docs/theory.md §19): the suggestion
# search's edited specs take them from the cache. Each edit's derivation must equal an uncached one.
SUGGESTION_FILES = ["relu_score.uap", "cosformer.uap", "polynomial_offset.uap", "t5_buckets.uap", "window_budget.uap",
                    "linear_elu.uap", "blocks.uap", "strided.uap", "linear_relu.uap", "alibi.uap", "two_heads.uap",
                    "bias_term_window.uap"]


@pytest.mark.parametrize("name", SUGGESTION_FILES)
def test_cached_head_premises_give_the_uncached_derivation_of_every_edit(name):
    from dataclasses import replace as dc_replace

    from uapcheck.derive import check_spec
    from uapcheck.errors import UapError
    from uapcheck.memo import clear_caches
    from uapcheck.parse import parse_source
    from uapcheck.render.jsonout import result_json
    from uapcheck.suggest import _candidates

    spec = parse_source((ROOT / "catalog" / name).read_text("utf-8"), f"catalog/{name}")
    edited = [dc_replace(s, expect=None) for _, s in _candidates(spec, pairs=True)]
    edited.append(dc_replace(spec, tokens=spec.tokens + 1 if isinstance(spec.tokens, int) else "m"))

    def derive(s):
        try:
            return result_json(check_spec(s))
        except UapError as exc:
            return str(exc)

    clear_caches()
    derive(spec)
    warm = [derive(s) for s in edited]  # the heads' premises come from the original's derivation
    for s, got in zip(edited, warm):
        clear_caches()
        assert derive(s) == got


def test_head_premises_are_reused_only_for_the_same_inputs():
    from dataclasses import replace as dc_replace

    from uapcheck.derive import check_spec
    from uapcheck.memo import clear_caches
    from uapcheck.parse import parse_source

    spec = parse_source("tokens 8\nattention { kernel k(x, y) = exp(x . y) }\n")

    def td_step(s):
        return next(step for step in check_spec(s).root.walk() if step.rule == "TD-KERNEL")

    clear_caches()
    first = td_step(spec)
    assert td_step(dc_replace(spec, target="causal")) is first      # the target is not read
    # nor the length, by the steps up to the witness route of a head without positions (TD-KERNEL by LIM here)
    assert td_step(dc_replace(spec, tokens=9)) is first
    two = dc_replace(spec, heads=spec.heads * 2)
    assert td_step(two) is not first                                  # so is the number of heads
    from uapcheck import budget
    budget.set_scale(0.5)
    try:
        assert td_step(spec) is not first                             # and so are the budgets
    finally:
        budget.set_scale(1.0)
    assert td_step(spec) is first


def test_the_length_is_read_by_the_witness_route_and_the_position_rules():
    from dataclasses import replace as dc_replace

    from uapcheck.derive import check_spec
    from uapcheck.memo import clear_caches
    from uapcheck.parse import parse_source

    def head_step(s, rule):
        return next(step for step in check_spec(s).root.walk() if step.rule == rule)

    for text, rule in (("attention { kernel k(x, y) = (x . y)^2 }", "TD-WITNESS"),
                       ("param m > 0\nattention { kernel k(q, key) = exp(q . key)\n bias b(i, j) = -m * (i - j) }",
                        "TD-FIXEDBIAS")):
        spec = parse_source(f"tokens 8\n{text}\n")
        clear_caches()
        first = head_step(spec, rule)
        assert head_step(spec, rule) is first
        other = head_step(dc_replace(spec, tokens=9), rule)
        assert other is not first
        clear_caches()
        fresh = head_step(dc_replace(spec, tokens=9), rule)  # and the step at 9 is an uncached run's
        assert (other.claim, other.status, other.evidence) == (fresh.claim, fresh.status, fresh.evidence)


def test_head_premises_are_shared_by_sparse_patterns_and_not_with_a_full_head():
    # the premises ask of the pattern only whether it is full (the position rules, the witness search)
    from dataclasses import replace as dc_replace

    from uapcheck import spec as S
    from uapcheck.derive import check_spec
    from uapcheck.memo import clear_caches
    from uapcheck.parse import parse_source

    spec = parse_source("tokens 16\nattention { kernel k(x, y) = exp(x . y); pattern window(1) }\n")

    def td_step(s):
        return next(step for step in check_spec(s).root.walk() if step.rule == "TD-KERNEL")

    def with_pattern(pattern):
        return dc_replace(spec, heads=(dc_replace(spec.heads[0], pattern=pattern),))

    clear_caches()
    first = td_step(spec)
    assert td_step(with_pattern(S.Blocks(4))) is first
    assert td_step(with_pattern(S.Full())) is not first
    for pattern in (S.Blocks(4), S.Full()):  # and each is the step an uncached run makes
        cached = td_step(with_pattern(pattern))
        clear_caches()
        fresh = td_step(with_pattern(pattern))
        assert (cached.claim, cached.status, cached.evidence) == (fresh.claim, fresh.status, fresh.evidence)


def test_the_ffn_step_is_reused_only_for_the_same_activation_text_and_budgets():
    """FFN-DEF2 is kept as a finished step (docs/theory.md §19): files with the same FFN share it, and it is the
    step an uncached run concludes (claim, status, evidence, certificate)."""
    from uapcheck import budget
    from uapcheck.derive import check_spec
    from uapcheck.memo import clear_caches
    from uapcheck.parse import parse_source

    def ffn_step(text):
        spec = parse_source(text)
        return next(step for step in check_spec(spec).root.walk() if step.rule == "FFN-DEF2")

    relu = "tokens 8\nattention { kernel k(x, y) = exp(x . y) }\n"
    clear_caches()
    first = ffn_step(relu)
    assert ffn_step(relu.replace("tokens 8", "tokens 9")) is first            # another file, the same FFN
    assert ffn_step("ffn gelu\n" + relu) is not first                         # another activation
    budget.set_scale(0.5)
    try:
        assert ffn_step(relu) is not first                                    # another budget
    finally:
        budget.set_scale(1.0)
    clear_caches()
    fresh = ffn_step(relu)
    assert fresh is not first
    assert (fresh.claim, fresh.status, fresh.evidence, fresh.certificate_json) == \
        (first.claim, first.status, first.evidence, first.certificate_json)


def test_every_test_starts_with_empty_caches():
    # tests/conftest.py empties the caches around each test (the test above filled them): a test that
    # monkeypatches an engine neither sees steps derived without the patch nor leaves any behind.
    from uapcheck.derive import _kernel_premises
    assert _kernel_premises.cache_size() == 0


# Pattern files whose family theorems keep per-process results that depend only on the pattern (the line
# offsets' F40-F42 data, the concrete engine's answers at each n, the family match): each of these files,
# checked in one process after the others (and again after all of them, in the reverse order), prints its
# golden copy, the output of `uapcheck --format json` on the catalog.
PATTERN_FILES = ["dilated_multi_window_n.uap", "line_mixed_sign_offsets_n.uap", "dilated_window_n.uap",
                 "dilated_window_wide_n.uap", "dilated_window.uap", "longformer_16.uap"]


def test_pattern_files_in_one_process_print_their_golden_copies_in_either_order(monkeypatch):
    from repo_scripts import load_script
    from uapcheck.cli import main
    mk = load_script("scripts/make_catalog_json.py", "make_catalog_json_for_caches")
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("UAPCHECK_IN_PROCESS", "1")
    files = [f"catalog/{n}" for n in PATTERN_FILES]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["--format", "json", "--no-cache", *files, *files[::-1]])
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 * len(files)
    for name, line in zip(PATTERN_FILES + PATTERN_FILES[::-1], lines):
        assert not mk.differences(name, line), name


@pytest.mark.parametrize("name", ["blocks_strided_below_n.uap", "cyclic_three_jumps.uap"])
def test_each_length_below_a_range_derives_as_an_uncached_run(name):
    """The lengths below a by-class range share the head's steps before the witness route (derive._kernel_core,
    keyed without the length): each length's derivation after the file's is the one an uncached run makes."""
    from uapcheck.derive import check_spec
    from uapcheck.memo import clear_caches
    from uapcheck.parse import parse_source
    from uapcheck.render.jsonout import result_json
    from uapcheck.rules import small_lengths

    spec = parse_source((ROOT / "catalog" / name).read_text("utf-8"), f"catalog/{name}")
    clear_caches()
    below = result_json(check_spec(spec)).get("below_range")
    assert below, name
    lengths = [r["n"] for r in below if r["allowed"]]
    warm = [result_json(check_spec(small_lengths._concrete(spec, n))) for n in lengths]
    for n, got in zip(lengths, warm):
        clear_caches()
        assert result_json(check_spec(small_lengths._concrete(spec, n))) == got, n


def test_a_family_theorem_is_matched_once_for_equivalent_forms_of_one_head():
    """The step passes the length as a parameter and one bias per head, the kernel's re-match neither: both read the
    same merged atoms, so the theorem is computed once and each caller gets the one a fresh match gives."""
    from uapcheck.graphs import families as F
    from uapcheck.memo import clear_caches
    from uapcheck.spec import Blocks, PatternUnion, Strided

    n = sympy.Symbol("n", integer=True, positive=True)
    head = PatternUnion((Blocks(4), Strided(3)))
    clear_caches()
    F._match_cached.cache_clear()
    fresh = F.match([head], n, {"n": n}, [None])
    assert F._match_atoms.cache_size() == 1
    again = F.match([head], n, {}, None, lower={"n": 1})
    assert F._match_atoms.cache_size() == 1 and again == fresh and again is not fresh
    other = F.match([PatternUnion((Blocks(5), Strided(3)))], n, {})
    assert F._match_atoms.cache_size() == 2 and other != fresh


def test_the_uncovered_lengths_are_kept_per_conditions_and_symbol():
    """rules/small_lengths.uncovered is asked by the derivation and again by the verdict's certificate check of the
    same conditions: computed once for them; other conditions, or a length symbol with other assumptions, miss."""
    from uapcheck.rules.small_lengths import uncovered

    n = sympy.Symbol("n", integer=True, positive=True)
    first = uncovered([n >= 13], n)
    assert first == list(range(1, 13)) and uncovered.cache_size() == 1
    first.append(99)  # a caller scribbling on its result
    assert uncovered([n >= 13], n) == list(range(1, 13)) and uncovered.cache_size() == 1
    assert uncovered([n >= 12], n) == list(range(1, 12)) and uncovered.cache_size() == 2
    odd, even = sympy.Eq(sympy.Mod(n, 2), 1), sympy.Eq(sympy.Mod(n, 2), 0)
    assert uncovered([odd & (n >= 3), even & (n >= 4)], n) == [1, 2] and uncovered.cache_size() == 3
    other = sympy.Symbol("n", integer=True)  # other assumptions: another symbol, its own entry
    uncovered([other >= 13], other)
    assert uncovered.cache_size() == 4


def _head_steps(source: str):
    from uapcheck.derive import check_spec
    from uapcheck.parse import parse_source

    root = check_spec(parse_source(source, "<test>")).root
    return list(root.premises[1:-1])  # the FFN step first, the group step last: the heads between


def test_the_verdicts_head_facts_are_kept_by_the_identity_of_the_steps():
    """rules/verdict._head_facts (the refuted normaliser, whether a step needs d ≥ 2) is asked several times of the
    same heads in one derivation: kept by the steps' identity, with the steps held, so that another list of the same
    steps hits and other steps (another head, an ill-posed one) are computed afresh."""
    from uapcheck import proof
    from uapcheck.rules import verdict

    ill = _head_steps("attention { kernel k(x, y) = cos(x . y) }\n")
    fine = _head_steps("attention { kernel k(x, y) = exp(x . y) }\n")
    assert ill and fine
    verdict._HEAD_FACTS.clear()  # the derivations above asked it too
    got_ill = verdict._head_facts(ill)
    assert got_ill[0] is not None and got_ill[0].rule == "WP-POSITIVE" and len(verdict._HEAD_FACTS) == 1
    assert verdict._head_facts(list(ill)) == got_ill and len(verdict._HEAD_FACTS) == 1  # the same steps: a hit
    got_fine = verdict._head_facts(fine)
    assert got_fine[0] is None and len(verdict._HEAD_FACTS) == 2  # other steps: computed
    uncached = (next((s for s in verdict._walk(fine) if s.status is proof.REFUTED and s.fact("ill_posed")), None),
                any(s.proved and s.fact("min_dim") == 2 for s in verdict._walk_used(fine)))
    assert got_fine == uncached
    held = verdict._HEAD_FACTS[tuple(map(id, fine))][0]
    assert all(a is b for a, b in zip(held, fine))  # the steps are held: their ids cannot be reused meanwhile


def test_head_premises_are_shared_by_the_same_head_at_another_line_only():
    """A head's kernel premises read nothing of where the head and the params stand in the file (memo.key_without
    on the source locations): the same head at another line, as in another file of a batch, gets the same steps; a
    head that differs in anything else does not."""
    from uapcheck.derive import check_spec
    from uapcheck.memo import clear_caches, key_without
    from uapcheck.parse import parse_source
    from uapcheck.spec import Loc

    def td_step(source):
        return next(step for step in check_spec(parse_source(source)).root.walk() if step.rule == "TD-KERNEL")

    head = "param c > 0\nattention { kernel k(x, y) = exp(x . y + c) }\n"
    clear_caches()
    first = td_step(head)
    assert td_step("# a comment line first\n\n" + head) is first              # another line: shared
    assert td_step(head.replace("exp(x . y + c)", "exp(x . y - c)")) is not first  # another kernel: not
    assert td_step(head.replace("c > 0", "c >= 0")) is not first              # another param range: not
    here, there = parse_source(head), parse_source("\n" + head)
    assert here.heads[0].loc != there.heads[0].loc
    assert key_without(here.heads[0], Loc) == key_without(there.heads[0], Loc)
    from uapcheck.memo import _key
    assert _key(here.heads[0]) != _key(there.heads[0])  # the plain key tells them apart


def _same_structure(a, b) -> bool:
    """a and b are equal, of the same types at every level, and share exactly the same objects (a leaf shared in one
    is the very leaf shared in the other; a container copied in one is copied in the other)."""
    from uapcheck import memo
    if type(a) is not type(b):
        return False
    kind = memo._copy_kind(type(a))[0]
    if kind == memo._C_LEAF:
        return a is b
    if kind == memo._C_DICT:
        return list(a) == list(b) and all(_same_structure(a[k], b[k]) for k in a)
    if kind in (memo._C_LIST, memo._C_TUPLE):
        return len(a) == len(b) and all(_same_structure(x, y) for x, y in zip(a, b))
    if kind == memo._C_SET:
        return a == b
    return all(_same_structure(getattr(a, n), getattr(b, n)) for n in memo._copy_kind(type(a))[1])


def test_fresh_copy_by_type_copies_what_the_instance_tests_copy():
    """fresh_copy decides per type what the instance tests decided per value: the same copies and shared leaves on
    every kind of value a cached step holds (dict subclasses, named tuples, frozensets, dataclass types, steps)."""
    import collections
    from uapcheck import memo
    from uapcheck.derive import check_spec
    from uapcheck.parse import parse_source
    Pair = collections.namedtuple("Pair", "a b")
    x = sympy.Symbol("x")
    values = [
        [Box(x, {"a": [1, (2, 3)], "b": {4}})], collections.OrderedDict(a=[1]), Pair([1], {2: [3]}), frozenset({1, 2}),
        Box, {x: (x + 1, [x])}, (Box(x, {}), [Box(x, {"k": Box(x, {})})]), "text", 3, None, sympy.Rational(1, 3), type,
    ]
    text = (ROOT / "catalog" / "polynomial_offset.uap").read_text("utf-8")
    values.append(check_spec(parse_source(text, "polynomial_offset.uap")))
    for value in values:
        ours, reference = fresh_copy(value), memo._fresh_copy_by_instance_tests(value)
        assert _same_structure(ours, reference)
        assert ours == value


def test_a_hashed_key_is_equal_exactly_when_its_key_is():
    from uapcheck.memo import _HashedKey, _key
    x, real_x = sympy.Symbol("x"), sympy.Symbol("x", real=True)
    keys = [(1,), (1.0,), (True,), (x,), (real_x,), (sympy.Integer(1),), (sympy.Float(1),), ([1, 2],), ((1, 2),),
            ({"a": 1},), (Box(x, {}),), (Box(real_x, {}),)]
    for left in keys:
        for right in keys:
            assert (_HashedKey(_key(left)) == _HashedKey(_key(right))) == (_key(left) == _key(right))
    with pytest.raises(TypeError):
        _HashedKey(_key((bytearray(b"x"),)))  # an unhashable leaf: the cache is not used for that call
