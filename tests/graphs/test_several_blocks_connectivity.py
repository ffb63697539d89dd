"""Theorem F182 of docs/theory.md §11.11: two `blocks` parts or more (L = lcm of the sizes), alone or with strided and
dilated parts whose steps are multiples of L sharing a factor ≥ 2, keep ⌈p/L⌉ (mod that factor) along every arc, so
for n > L x_1 never reaches position L + 1; for n ≤ L the union is strongly connected (complete up to the widest
block). Checked against breadth-first search on the reference arcs at every n ≤ 60, in one head and across heads, and
`blocks(11) + blocks(2)` at n = 1,048,576 (formerly INCONCLUSIVE: "about 13,631,488 arcs") is NOT-UAP in seconds.
(b): beside non-cyclic offsets of one sign the stretches are never left backwards (forwards), so `blocks(7) + blocks(5)
+ offsets {-3, 0}` at n = 1,048,576 (formerly INCONCLUSIVE) is NOT-UAP too."""
from __future__ import annotations

import pytest
import sympy

import uapcheck
from uapcheck.graphs import analyze_connectivity, build_graph
from uapcheck.graphs.closed_connectivity import closed_connectivity
from uapcheck.spec import Blocks, Dilated, Offsets, PatternUnion, Strided, Window

from .reference import all_distances, attends

N = sympy.Symbol("n", integer=True, positive=True)

CASES = [
    ([PatternUnion((Blocks(2), Blocks(3)))], 6),
    ([PatternUnion((Blocks(11), Blocks(2)))], 22),
    ([PatternUnion((Blocks(4), Blocks(6)))], 12),
    ([PatternUnion((Blocks(3), Blocks(5), Blocks(2)))], 30),
    ([Blocks(8), Blocks(3)], 24),  # two heads: the union of their arcs
    ([PatternUnion((Blocks(4), Blocks(6), Strided(24)))], 12),
    ([PatternUnion((Blocks(2), Blocks(3), Dilated(1, 18)))], 6),
    # one blocks part beside a dilation or two strides of multiples of 2b (L = b), and nested blocks parts that the
    # normal form makes one
    ([PatternUnion((Blocks(10), Dilated(1, 20)))], 10),
    ([PatternUnion((Blocks(3), Dilated(2, 6), Strided(12)))], 3),
    ([PatternUnion((Blocks(4), Strided(8), Strided(16)))], 4),
    ([PatternUnion((Blocks(5), Blocks(10), Dilated(1, 20)))], 10),
    ([PatternUnion((Blocks(4), Blocks(6), Blocks(12), Dilated(2, 36)))], 12),
    # (b): offsets of one sign beside them never carry information to an earlier (later) stretch
    ([PatternUnion((Blocks(7), Blocks(5), Offsets((-3,))))], 35),
    ([PatternUnion((Blocks(3), Blocks(2), Offsets((1, 4))))], 6),
    ([PatternUnion((Blocks(4), Blocks(6))), Offsets((-1, -5))], 12),
]


def _arcs(heads, n):
    out = set()
    for h in heads:
        out |= attends(h, n)
    return out


@pytest.mark.parametrize("heads, period", CASES)
def test_the_stretches_of_the_lcm_against_breadth_first_search(heads, period):
    form = closed_connectivity(heads, N, {})
    assert form is not None
    for n in range(1, 61):
        case = form.at({"n": n})
        assert case is not None, n
        dist = all_distances(_arcs(heads, n), n)
        connected = all(len(dist[j]) == n for j in range(1, n + 1))
        assert case.strongly_connected == connected, n
        assert connected == (n <= period), n
        if not connected:
            i, j = (int(x) for x in case.witness)
            assert i not in dist[j], n  # x_j never reaches i
        elif case.diameter is not None:
            assert int(case.diameter) == max(max(d.values()) for d in dist.values()), n
        else:
            assert max(max(d.values()) for d in dist.values()) <= int(sympy.sympify(case.diameter_bound).subs(N, n)), n


@pytest.mark.parametrize("heads, n", [([PatternUnion((Blocks(2), Blocks(3)))], 40),
                                      ([Blocks(8), Blocks(3)], 50)])
def test_the_concrete_engine_agrees(heads, n):
    conn = analyze_connectivity([build_graph(h, n, {}) for h in heads])
    assert not conn.strongly_connected
    assert not closed_connectivity(heads, sympy.Integer(n), {}).at({"n": n}).strongly_connected


def test_other_unions_are_left_to_the_other_rules():
    # a window crosses the stretches: connected, not this rule's
    form = closed_connectivity([PatternUnion((Blocks(2), Blocks(3), Window(1)))], N, {})
    assert form is None or all("F182" not in c.rule for c in form.cases)
    # a stride that is no multiple of L
    form = closed_connectivity([PatternUnion((Blocks(2), Blocks(3), Strided(9)))], N, {})
    assert form is None or all("F182" not in c.rule for c in form.cases)


def test_seven_and_five_beside_a_backward_offset_at_a_real_size():
    r = uapcheck.check("tokens 1048576\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern blocks(7) + blocks(5) + "
                       "offsets {-3, 0}\n}\nffn relu\n", "t.uap")
    steps = {s.rule: s for s in r.root.walk()}
    assert r.verdict == "NOT-UAP"
    assert "F182 (b)" in str(steps["PAT-DISCONNECTED"].evidence)


def test_eleven_and_two_at_a_real_size():
    r = uapcheck.check("tokens 1048576\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern blocks(11) + blocks(2)\n}"
                       "\nffn relu\n", "t.uap")
    steps = {s.rule: s for s in r.root.walk()}
    assert r.verdict == "NOT-UAP"
    assert "PAT-DISCONNECTED" in steps and "F182" in str(steps["PAT-DISCONNECTED"].evidence)
