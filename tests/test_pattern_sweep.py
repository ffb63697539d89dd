"""A seeded slice of the referee sweeps (scripts/sweep_patterns.py, scripts/sweep_kernel_limits.py): uapcheck's verdict,
group order and least layer count on random unions of sparse patterns against a reference written apart from the
engines (BFS diameters, BLISS on an arc-path encoding, rooted views by canonical forms; brute force over S_n at
n ≤ 7), Theorem F125's readings at concrete lengths, and proved (LIM) steps against mpmath. The full sweeps are run
by hand (their docstrings); this keeps their code working."""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import sweep_kernel_limits as K  # noqa: E402
import sweep_patterns as P  # noqa: E402


def test_the_reference_agrees_with_brute_force_over_s_n():
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        n = rng.randint(3, 6)
        ref = P.reference(P.random_heads(rng, n), n)
        if ref["verdict"] == "UAP":
            checked += 1
            assert P.brute(ref["arcs"], n, ref["diameter"]) == (ref["order"], ref["layers"])
    assert checked > 30


def test_the_reference_finds_the_view_witness_of_the_counterexample():
    # docs/theory.md §11.2: 1 and 2 see everything, 3 sees {2, 3}, 4 sees {1, 4}: D = 2, G = {id, (1 2)(3 4)}, 3 layers
    arcs = frozenset([(1, 2), (1, 3), (1, 4), (2, 1), (2, 3), (2, 4), (3, 2), (4, 1)] + [(i, i) for i in range(1, 5)])
    assert P.diameter([arcs], 4) == 2 and P.group_order([arcs], 4) == 2
    assert P.least_layers([arcs], 4, 2) == 3


def test_several_complete_heads_can_need_two_layers():
    # window(1) cyclic | window(2) at n = 4: the union is complete (D = 1), but one layer leaves a witness
    heads = [(("cyclic", 1),), (("window", 2),)]
    ref = P.reference(heads, 4)
    assert ref["diameter"] == 1 and ref["layers"] == 2


def test_a_seeded_slice_of_concrete_files_agrees():
    rng = random.Random(5)
    stats: dict = {}
    assert sum(P.concrete_case(rng, stats, brute_force=True) for _ in range(6)) == 0
    assert stats.get("cases", 0) >= 5


def test_theorem_f125_at_concrete_lengths_agrees():
    stats: dict = {}
    heads = [(("star",),), (("offsets_cyclic", (-5, 3)),)]
    assert P.at_length(heads, range(23, 27), stats) == []
    assert stats.get("F125a", 0) + stats.get("F125b", 0) > 0


def test_proved_kernel_limits_do_not_settle():
    import mpmath
    mpmath.mp.dps = 60
    rng = random.Random(3)
    softmax = ("exp", "dot")
    assert not K.settles(softmax, "real", rng)[0]
    bounded = ("tanh", "dot")  # (LIM) fails: the ratio settles
    assert K.settles(("+", bounded, 2), "real", rng)[0]


def test_a_symbolic_file_is_decided_in_a_child_process():
    # the engine runs in a forked child (a BLISS fault ends only the child); its claims come back by length
    state, got = P._claims_apart(P.file_text([(("window", 1),), (("global", 1),)], "n"), 12)
    assert state == "ok"
    verdict, claims = got
    assert verdict == "UAP" and sorted(claims) == list(range(4, 13))
    assert all(c is not None and c[0] == "UAP" for c in claims.values())
