"""The normal form of a union of structured patterns (uapcheck/graphs/normal_form.py, rule PAT-NORMAL,
docs/theory.md §11.13): every rewrite keeps every arc at every n (checked on the token graphs of random
unions, n = 1..24), the kernel's certificate and the verifier each check it their own way, and a union
written in several parts gets the verdict of the pattern it is."""
from __future__ import annotations

import copy
import json
import random

import pytest

import uapcheck
from uapcheck import certfile, proof
from uapcheck import spec as S
from uapcheck.certificates import SameArcs
from uapcheck.graphs import build_graph
from uapcheck.graphs.normal_form import normalise
from uapcheck.parse import parse_source
from uapcheck.verifier import REJECTED, VERIFIED, verify
from uapcheck.verifier.normal_form import arcs_description


def _pattern(text: str) -> S.Pattern:
    spec = parse_source(f"tokens 30\nattention {{ kernel k(x, y) = exp(x . y); pattern {text} }}\n", "t.uap")
    return spec.heads[0].pattern


def _arcs(p: S.Pattern, n: int) -> set:
    return set(build_graph(p, n, {}).arcs())


def _random_union(rng: random.Random) -> str:
    def part():
        return rng.choice([
            f"window({rng.randint(1, 3)})", f"window({rng.randint(1, 3)}) cyclic", "star", f"global({rng.randint(1, 3)})",
            f"offsets {{{rng.randint(-3, 0)}, {rng.randint(1, 5)}}}", f"offsets {{0, {rng.randint(1, 6)}}} cyclic",
            f"offsets {{{rng.randint(-4, -1)}, {rng.randint(1, 4)}}} cyclic", f"dilated({rng.randint(1, 2)}, {rng.randint(1, 3)})",
            f"blocks({rng.choice([1, 2, 3, 4, 6])})", f"strided({rng.choice([2, 3, 4, 6])})", "causal",
            f"random(1, seed={rng.randint(0, 3)})"])
    return " + ".join(part() for _ in range(rng.randint(2, 4)))


CASES = [_random_union(random.Random(seed)) for seed in range(120)]


@pytest.mark.parametrize("text", CASES)
def test_the_normal_form_has_the_arcs_of_the_union_at_every_small_n(text):
    written = _pattern(text)
    got = normalise(written)
    for n in range(1, 25):
        assert _arcs(got.pattern, n) == _arcs(written, n), (text, got.pattern, n)
    if got.reasons:
        SameArcs(((0, written, got.pattern),)).check()
        assert arcs_description(written) == arcs_description(got.pattern)
    else:
        assert got.pattern is written


@pytest.mark.parametrize("text,normal", [
    ("star + global(2)", S.Global(2)),
    ("window(1) cyclic + offsets {0, 5} cyclic", S.Offsets((-1, 0, 1, 5), True)),
    ("window(1) cyclic + window(2) cyclic", S.Window(2, True)),
    ("window(2) + dilated(1, 2)", S.Window(2)),
    ("offsets {0, 1} + offsets {-1, 0}", S.Window(1)),
    ("blocks(2) + blocks(4)", S.Blocks(4)),
    ("strided(2) + strided(4)", S.Strided(2)),
    ("full + window(1)", S.Full()),
    ("window(1) + window(1)", S.Window(1)),
    ("offsets {-2, -1, 0, 1, 2} cyclic", S.Window(2, True)),
    ("blocks(2) + window(1) + strided(5)", S.PatternUnion((S.Window(1), S.Strided(5)))),
    ("blocks(4) + window(3)", S.Window(3)),
    ("window(2) cyclic + blocks(3)", S.Window(2, True)),
    ("blocks(3) + window(1) + strided(2)", S.PatternUnion((S.Window(1), S.Strided(2)))),
    ("blocks(2) + offsets {-1, 1}", S.Offsets((-1, 1))),
    ("strided(2) + dilated(2, 4)", S.Strided(2)),
    ("offsets {1, 3} + window(1) + strided(3)", S.PatternUnion((S.Window(1), S.Strided(3)))),
    ("blocks(1) + window(1)", S.Window(1)),
])
def test_each_rewrite(text, normal):
    got = normalise(_pattern(text))
    assert got.pattern == normal and got.reasons


@pytest.mark.parametrize("text", ["window(2) + global(1)", "window(w) + window(1)", "blocks(2) + blocks(3)",
                                  "strided(2) + strided(3)", "window(1) + offsets {0, 3}",
                                  "window(3) + window(1) cyclic", "blocks(3) + window(1)", "blocks(3) + offsets {1, 2}",
                                  "blocks(4) + window(2) + strided(4)", "blocks(w) + window(5)",
                                  "dilated(1, 3) + strided(2)", "window(1) + offsets {0, 3} cyclic + strided(2)"])
def test_a_union_with_nothing_to_rewrite_is_kept_as_written(text):
    spec = parse_source(f"param w integer >= 1\ntokens 30\nattention {{ kernel k(x, y) = exp(x . y); pattern {text} }}\n",
                        "t.uap")
    written = spec.heads[0].pattern
    got = normalise(written)
    assert got.pattern is written and got.reasons == ()


def _contained_union(rng: random.Random) -> str:
    """Unions rich in parts that lie inside others: blocks near the window's size, dilations and offsets
    whose jumps are multiples of a stride, cyclic windows."""
    def part():
        return rng.choice([
            f"window({rng.randint(1, 4)})", f"window({rng.randint(1, 3)}) cyclic", f"blocks({rng.randint(1, 6)})",
            f"strided({rng.randint(2, 5)})", f"dilated({rng.randint(1, 3)}, {rng.randint(2, 6)})",
            f"offsets {{{rng.randint(-6, -1)}, {rng.randint(1, 6)}}}", f"offsets {{{rng.randint(1, 6)}}} cyclic",
            f"global({rng.randint(1, 2)})"])
    return " + ".join(part() for _ in range(rng.randint(2, 4)))


CONTAINED = [_contained_union(random.Random(1000 + seed)) for seed in range(80)]


@pytest.mark.parametrize("text", CONTAINED)
def test_a_part_inside_the_others_is_dropped_with_the_arcs_kept_at_every_n_to_40(text):
    """Each dropped part's arcs are arcs of the rest at every n from 1 to 40, both descriptions agree, and
    a blocks or non-cyclic offset part that is kept is not inside the other parts at n = 40."""
    written = _pattern(text)
    got = normalise(written)
    for n in range(1, 41):
        assert _arcs(got.pattern, n) == _arcs(written, n), (text, got.pattern, n)
    if got.reasons:
        SameArcs(((0, written, got.pattern),)).check()
        assert arcs_description(written) == arcs_description(got.pattern)
    kept = got.pattern.parts if isinstance(got.pattern, S.PatternUnion) else (got.pattern,)
    for q in kept:
        if isinstance(q, (S.Blocks, S.Dilated)) or isinstance(q, (S.Window, S.Offsets)) and not q.cyclic:
            rest = [r for r in kept if r is not q]
            if rest:
                others = _arcs(rest[0] if len(rest) == 1 else S.PatternUnion(tuple(rest)), 40)
                assert not _arcs(q, 40) <= others, (text, q)


def test_a_block_of_one_position_has_no_arc():
    got = normalise(_pattern("blocks(1) + global(1)"))
    assert got.pattern == S.Global(1) and got.reasons == (
        "blocks(1) has no arc (a block of one position, and every position sees itself)",)


def test_the_dropped_parts_are_named_with_the_parts_that_hold_their_arcs():
    got = normalise(_pattern("blocks(3) + window(1) + strided(2)"))
    assert got.reasons == ("blocks(3) ⊆ strided(2) ∪ window(1) (each of its arcs, j − i = d with 0 < |d| < 3 within "
                           "one block, is one of those parts' at every n; d = 0 is no arc, as every position sees "
                           "itself): it adds no arc",)


def test_the_kernel_rejects_a_normal_form_with_other_arcs():
    for written, normal in (("blocks(3) + window(1)", S.Window(1)),
                            ("blocks(3) + window(1) + strided(3)", S.PatternUnion((S.Window(1), S.Strided(3)))),
                            ("dilated(1, 3) + strided(2)", S.Strided(2))):
        with pytest.raises(proof.CertificateRejected):
            SameArcs(((0, _pattern(written), normal),)).check()
        assert arcs_description(_pattern(written)) != arcs_description(normal)
    with pytest.raises(proof.CertificateRejected):
        SameArcs(((0, _pattern("window(2) + dilated(1, 3)"), S.Window(2)),)).check()
    with pytest.raises(proof.CertificateRejected):
        SameArcs(((0, _pattern("blocks(2) + blocks(3)"), S.Blocks(3)),)).check()


def _file(*patterns: str) -> str:
    heads = "".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}\n" for p in patterns)
    return f"tokens n\n{heads}"


def _certificate(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


@pytest.mark.parametrize("patterns,short", [
    (("star + global(2)",), "UAP · G = S_2 on {1, 2} × S_(n − 2) on {3, …, n} · 2 attention layers"),
    (("window(1) cyclic + window(2) cyclic",), "UAP · G = D_n · ⌈⌊n/2⌋/2⌉ attention layers"),
    (("window(1) cyclic", "offsets {-1, 0, 1} cyclic"), "UAP · G = D_n · ⌊n/2⌋ attention layers"),
    (("blocks(2) + blocks(4) + global(1)",), "3 attention layers"),
    (("blocks(2) + window(1) + strided(5)",), "UAP · G = reflection · 4 attention layers (for n ≥ 35)"),
])
def test_a_union_gets_the_verdict_of_the_pattern_it_is_and_the_verifier_rechecks_it(patterns, short):
    text = _file(*patterns)
    result = uapcheck.check(text, "t.uap")
    assert result.verdict == "UAP"
    rules = [s.rule for s in result.root.walk()]
    assert "PAT-NORMAL" in rules
    from uapcheck.render.text import short_line
    assert short in short_line("t.uap", result)
    report = verify(_certificate(text))
    assert report.ok and report.complete
    assert {s.rule: s.outcome for s in report.steps}["PAT-NORMAL"] == VERIFIED


def test_the_verifier_rejects_blocks_dropped_that_the_window_does_not_hold():
    cert = _certificate(_file("blocks(2) + window(1) + strided(5)"))
    assert {s.rule: s.outcome for s in verify(cert).steps}["PAT-NORMAL"] == VERIFIED
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-NORMAL")
    assert step["certificate"]["heads"][0]["parts"] == [{"as written": 2}, {"as written": 3}]
    bad = copy.deepcopy(cert)
    bad["input"]["text"] = bad["input"]["text"].replace("blocks(2)", "blocks(3)")
    assert {s.rule: s.outcome for s in verify(bad).steps}["PAT-NORMAL"] == REJECTED


def test_the_verifier_rejects_a_tampered_normal_form():
    cert = _certificate(_file("window(2) + dilated(1, 2)"))
    bad = copy.deepcopy(cert)
    step = next(s for s in bad["steps"] if s["rule"] == "PAT-NORMAL")
    step["certificate"]["heads"][0]["parts"] = [{"window": 3, "cyclic": False}]
    outcomes = {s.rule: s.outcome for s in verify(bad).steps}
    assert outcomes["PAT-NORMAL"] == REJECTED
    step["certificate"]["heads"][0]["parts"] = [{"as written": 7}]
    assert {s.rule: s.outcome for s in verify(bad).steps}["PAT-NORMAL"] == REJECTED
    assert {s.rule: s.outcome for s in verify(cert).steps}["PAT-NORMAL"] == VERIFIED


@pytest.mark.parametrize("pattern", ["window(2)", "window(3)", "window(2) cyclic", "window(4) cyclic",
                                     "offsets {0, 1, 2, 3} cyclic", "offsets {-2, -1, 0} cyclic"])
def test_a_window_at_symbolic_n_is_verified_from_its_own_range(pattern):
    """The verifier's `window` and `one-sided` lemmas once checked the group at n = 3 for window(2) and
    offsets {0, 1, 2, 3} cyclic (where the pattern is complete): the range starts at 2w + 1 (2w + 2) for the
    pattern's own w, not for w = 1."""
    report = verify(_certificate(_file(pattern)))
    assert report.ok and report.complete
    assert {s.rule: s.outcome for s in report.steps}["SYM-AUT"] == VERIFIED


@pytest.mark.parametrize("text, kept", [
    ("blocks(999999999) + global(1)", True),  # d = 1 has no other part: the search ends at once
    ("blocks(999999999) + window(3) + strided(2)", True),  # d = 5 is neither a window offset nor even
    ("blocks(999999999) + strided(1)", False),  # every difference is a multiple of 1
])
def test_a_huge_block_is_read_without_listing_its_differences(text, kept):
    """`blocks(b)` is compared with the other parts difference by difference, by increasing |d|, and the first
    difference no other part has ends the search: a block of 10⁹ positions (a fuzzed file) took minutes and
    gigabytes when its 2·10⁹ differences were listed first."""
    import time
    start = time.process_time()
    got = normalise(_pattern(text))
    assert time.process_time() - start < 1.0
    assert any(isinstance(q, S.Blocks) for q in (got.pattern.parts if isinstance(got.pattern, S.PatternUnion)
                                                 else (got.pattern,))) == kept, got
