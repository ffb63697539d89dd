"""Several heads' token graphs against the arc budget together (graphs/build.heads_fit): each head's graph may fit
the budget alone while all of them, and their union, do not; `offsets {0, 2, 4} cyclic` | `global(2)` at n =
1,048,576 (about 3.1 and 4.2 million arcs) ended its worker at the 4 GiB limit while computing the group, after
about 100 s. The heads are now refused before any arc is built, as INCONCLUSIVE naming the largest length that
fits, in about a second; below that length the file is decided as before. That file is now decided at n = 1,048,576
without its arcs (Theorem F221, docs/theory.md §11.11); `offsets {0, 2, 6} cyclic` | `global(2)`, whose group at
symbolic n is still open, has the same arcs' count and is INCONCLUSIVE at once, naming the length that fits."""
from __future__ import annotations

import resource

import pytest

import uapcheck
from uapcheck.graphs.build import GraphTooLarge, _estimate, arc_budget, heads_fit
from uapcheck.spec import Global, Offsets, Window

HEADS = [Offsets((0, 2, 4), True), Global(2)]


def test_the_heads_together_are_refused_and_the_fitting_length_named():
    with pytest.raises(GraphTooLarge) as exc:
        heads_fit(HEADS, 1 << 20)
    text = str(exc.value)
    assert "about 7,340,032 arcs together at n = 1,048,576" in text
    fit = int(text.rsplit("up to n = ", 1)[1].replace(",", ""))
    total = [sum(_estimate(p, m, {}) for p in HEADS) for m in (fit, fit + 1)]
    assert total[0] <= arc_budget() < total[1]
    heads_fit(HEADS, fit)  # the named length passes


def test_one_head_or_equal_heads_or_small_lengths_pass():
    heads_fit([Window(3)], 1 << 20)  # one head: build_graph's own limit decides
    heads_fit([Offsets((0, 2, 4), True)] * 2, 1 << 20)  # equal heads are one graph
    heads_fit(HEADS, 4096)


def _check(n: int, offsets: str = "offsets {0, 2, 4} cyclic"):
    heads = "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n"
                    for p in (offsets, "global(2)"))
    before = resource.getrusage(resource.RUSAGE_SELF)
    r = uapcheck.check(f"tokens {n}\n{heads}ffn relu\n", "t.uap")
    after = resource.getrusage(resource.RUSAGE_SELF)
    return r, {s.rule: s for s in r.root.walk()}, after.ru_utime - before.ru_utime


def test_at_a_real_size_the_file_is_inconclusive_at_once_with_the_length_that_fits():
    r, steps, cpu = _check(1 << 20, "offsets {0, 2, 6} cyclic")
    assert r.verdict == "INCONCLUSIVE"
    assert "they fit up to n = 613,566" in str(steps["PAT-UNDECIDED"].evidence)
    assert cpu < 10.0


def test_at_a_real_size_two_hubs_are_decided_without_the_arcs():
    r, steps, cpu = _check(1 << 20)
    assert r.verdict == "UAP"
    assert steps["SYM-AUT"].facts["group"].order == 2 and steps["PAT-LAYERS"].facts["layers"] == 3
    assert cpu < 10.0


def test_below_it_the_heads_are_decided():
    r, steps, _ = _check(4096)
    assert r.verdict == "UAP"
    assert steps["PAT-LAYERS"].facts["layers"] == 3 and steps["PAT-LAYERS"].facts["least"]
    assert steps["SYM-AUT"].facts["group"].order == 2
