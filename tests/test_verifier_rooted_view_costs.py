"""The rooted views of §11.9 decided with nauty (uapcheck/verifier/views.py) at a lower cost: |Aut(R_i)| = |Stab_G(i)|
by testing nauty's generators of Aut(R_i) for membership in G instead of their order by Schreier–Sims, and canonical
forms computed only for views that colour refinement does not tell apart. `blocks(13) + strided(8)` at n = 1,048,576
(Theorem F34, whose instances at n = 182…195 are decided by rooted views) had its layer count `trusted`: the 60 s
budget ran out in the orders of the views' groups (about 0.6 s each)."""
from __future__ import annotations

import random

from certificates import certificate_of, softmax_source
from random_permutations import transpositions_and_shuffles

from uapcheck.verifier import VERIFIED, patterns, verify, views


def test_membership_is_the_arcs_kept():
    rng = random.Random(11)
    n = 30
    for text in ("blocks(5) + strided(3)", "blocks(3) + global(1)"):
        from uapcheck.parse import parse_source
        spec = parse_source(softmax_source(text, n), "t.uap")
        heads = patterns.spec_arcs(spec)
        member = views._member(heads, n)
        lab = patterns.head_labels(heads)
        seen = {True: 0, False: 0}
        for p in transpositions_and_shuffles(rng, n, 300):
            got = member(p)
            assert got == patterns.preserves(p, lab)
            seen[got] += 1
        assert min(seen.values()) >= 5, (text, seen)


def test_refined_colours_are_an_isomorphism_invariant():
    rng = random.Random(5)
    for _ in range(50):
        n = rng.randint(3, 12)
        arcs = {(rng.randint(1, n), rng.randint(1, n)): (rng.randint(0, 1),) for _ in range(3 * n)}
        colour = [0] + [rng.randint(0, 2) for _ in range(n)]
        p = list(range(1, n + 1))
        rng.shuffle(p)
        moved = {(p[u - 1], p[v - 1]): label for (u, v), label in arcs.items()}
        moved_colour = [0] * (n + 1)
        for v in range(1, n + 1):
            moved_colour[p[v - 1]] = colour[v]
        assert views.refined_colours(n, arcs, colour) == views.refined_colours(n, moved, moved_colour)
    # and they tell apart a path from a star, both with three arcs
    path = {(1, 2): (0,), (2, 3): (0,), (3, 4): (0,)}
    star = {(1, 2): (0,), (1, 3): (0,), (1, 4): (0,)}
    assert views.refined_colours(4, path, [0] * 5) != views.refined_colours(4, star, [0] * 5)


def test_the_rooted_views_decide_as_before(monkeypatch):
    """Witnesses found and not found alike, with the membership test and with the groups' orders (as before)."""
    from uapcheck.parse import parse_source
    from uapcheck.verifier import groups
    seen = {True: 0, False: 0}
    for text in ("blocks(5) + global(1)", "blocks(4) + strided(3)", "window(1) + global(1)", "blocks(3) + window(1)"):
        for n in range(9, 19):
            spec = parse_source(softmax_source(text, n), "t.uap")
            heads = patterns.spec_arcs(spec)
            gens, _ = groups.full_generators(patterns.head_labels(heads), n, "none")
            outs = patterns.union_out(heads, n)
            d = max(x for v in range(1, n + 1) for x in patterns.bfs(outs, v)[1:])
            fast = views.decide(heads, n, d, gens) is None
            with monkeypatch.context() as m:
                m.setattr(views, "_member", lambda heads, n: None)
                m.setattr(views, "refined_colours", lambda n, arcs, colour: ())
                slow = views.decide(heads, n, d, gens) is None
            assert fast == slow, (text, n)
            seen[fast] += 1
    assert min(seen.values()) >= 5, seen


def test_blocks_and_strided_at_two_to_the_twenty_are_verified_within_the_budget():
    cert = certificate_of(softmax_source("blocks(13) + strided(8)", 1048576))
    report = verify(cert, seconds=60)
    steps = {s.rule: s for s in report.steps}
    assert not report.rejected and not report.problems, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert steps["PAT-LAYERS"].outcome == VERIFIED and "Theorem F34" in steps["PAT-LAYERS"].reason
    assert steps["PAT-CONNECTED"].outcome == VERIFIED
