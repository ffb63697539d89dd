"""Theorems F35–F39's cost limit is a resource limit, and the message says so with the lengths that would fit
(docs/theory.md §11.11, "The cost limit of F35–F39"; issue: a real resource limit names the size that would fit).
Before, `blocks(53)` | `window(2) cyclic + strided(7)` (an F26 head as F206's anchor, N₀ + 2L = 22,216) was
SYM-UNDECIDED with "no closed form for the group with symbolic n" alone, as if the question were open.

Checked a second way: the named length is recomputed here from the heads' arcs counted here (blocks of b: b − 1 per
position, the last block cut; the cyclic window and the classes mod s, less the arcs in both; F206's anchor head is
tested too, so its arcs count), as the largest length ≤ WIDE_N whose length times those arcs is within WIDE_WORK."""
from __future__ import annotations

import sympy

import uapcheck
from uapcheck.graphs import head_intersection as HI
from uapcheck.spec import Blocks, Offsets, PatternUnion, Strided, Window

N = sympy.Symbol("n", integer=True, positive=True)
HEADS = (Blocks(53), PatternUnion((Window(2, True), Strided(7))))


def _block_arcs(b: int, n: int) -> int:
    full, rest = divmod(n, b)
    return full * b * (b - 1) + rest * (rest - 1)


def _window_stride_arcs(w: int, s: int, n: int) -> int:
    sizes = [len(range(r, n + 1, s)) for r in range(1, s + 1)]
    both = sum(1 for i in range(n) for d in range(-w, w + 1) if d and ((i + d) % n - i) % s == 0)
    return 2 * w * n + sum(c * (c - 1) for c in sizes) - both


def test_the_message_names_the_lengths_that_fit():
    why = HI.cost_refusal(HEADS, N)
    assert why is not None and "a resource limit" in why and "22,216" in why
    fit = max(m for m in range(HI.MAX_REPRESENTATIVE_N, 600)
              if m * (_block_arcs(53, m) + _window_stride_arcs(2, 7, m)) <= HI.WIDE_WORK)
    assert fit < 599
    assert f"admits lengths up to {fit:,} for" in why


def test_the_file_reports_it():
    text = "tokens n\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n"
                                  for p in ("blocks(53)", "window(2) cyclic + strided(7)"))
    r = uapcheck.check(text, "t.uap")
    assert r.verdict == "INCONCLUSIVE"
    step = next(s for s in r.root.walk() if s.rule == "SYM-UNDECIDED")
    assert "a resource limit" in str(step.evidence) + str(step.claim)


def test_no_resource_limit_is_named_where_the_lengths_fit_or_there_is_no_anchor():
    decided = (Blocks(7), PatternUnion((Window(2, True), Strided(4))))  # the wide pass decides it (N₀ = 359)
    assert HI.cost_refusal(decided, N) is None
    no_anchor = (Blocks(37), PatternUnion((Window(2, True), Strided(29))))  # no anchor: an open question
    assert HI.cost_refusal(no_anchor, N) is None
    assert HI.cost_refusal((Offsets((2, 4), True),), N) is None  # one head


def test_the_anchors_are_found_once_for_both_passes_and_the_message(monkeypatch):
    """The decision's two passes (`intersect_heads`, narrow then wide) and the message (`cost_refusal`) share the
    anchors `heads_anchors` found, where each once found them again."""
    found = []
    anchors = HI.anchors

    def counted(*args, **kwargs):
        found.append(args[0])
        return anchors(*args, **kwargs)
    monkeypatch.setattr(HI, "anchors", counted)
    HI.heads_anchors.cache_clear()
    heads = (Blocks(59), PatternUnion((Window(2, True), Strided(7))))  # heads no other test here derives
    text = "tokens n\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n"
                                  for p in ("blocks(59)", "window(2) cyclic + strided(7)"))
    r = uapcheck.check(text, "t.uap")
    step = next(s for s in r.root.walk() if s.rule == "SYM-UNDECIDED")
    assert "a resource limit" in str(step.evidence) + str(step.claim)
    assert found == [heads], found
