"""Theorems F53, F54 and F81 (docs/theory.md §11.11): the least layer count of `window(w) + strided(s)`, s ≥ w + 2.

Compared with the concrete engine (graphs, BLISS, rooted views: the least count by canonical labelling) at
every n ≤ 60 in Theorem F11's range for every (w, s) with w ≤ 3 (for w = 3 the range starts above 60: one
period and a bit from its start), and up to n = 120 for window(1) + strided(3); the witness and the
far-clique lemma re-checked here by code written in the test; the verifier's own entry, and forged counts
and residue sets rejected.
"""
from __future__ import annotations

import json
from collections import deque

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import families as F
from uapcheck.graphs.strided_least import stride_beyond_block_witness, wide_stride_witness
from uapcheck.spec import PatternUnion, Strided, Window
from uapcheck.verifier import REJECTED, VERIFIED, verify
from uapcheck.verifier import strided_least as V

N = sympy.Symbol("n", integer=True, positive=True)
PAIRS = [(w, s) for w in range(1, 4) for s in range(w + 2, 2 * w + 2)]


def _lengths(w: int, s: int) -> list[int]:
    low = s * (4 * w + 3)
    top = 120 if (w, s) == (1, 3) else max(60, low + s + 1)
    return list(range(low, top + 1))


def _adj(w: int, s: int, u: int, v: int) -> bool:
    return abs(u - v) <= w or (u - v) % s == 0


def _distances(n: int, w: int, s: int, root: int) -> dict:
    dist = {root: 0}
    queue = deque([root])
    while queue:
        x = queue.popleft()
        for y in range(1, n + 1):
            if y not in dist and _adj(w, s, x, y):
                dist[y] = dist[x] + 1
                queue.append(y)
    return dist


@pytest.mark.parametrize("w,s", PAIRS)
def test_f53_agrees_with_the_concrete_engine_at_every_n_in_range(w, s):
    pattern = PatternUnion((Window(w), Strided(s)))
    theorem = F.match([pattern], N, {})
    assert theorem.theorem == "F11"
    proved = wide_stride_witness(w, s) is not None
    assert proved is (s != w + 2 or w == 1) and theorem.least
    for n in _lengths(w, s):
        got = F.concrete(pattern, n)
        want = F.at(theorem, {"n": n})
        assert got.least and got.diameter == want["diameter"]
        if proved:
            assert got.layers == want["layers"] == 3, n
        else:
            # s = w + 2, w ≥ 2 (Theorem F81): D layers, 2 where D = 2 and 3 where D = 3
            assert got.layers == got.diameter == want["layers"], n


@pytest.mark.parametrize("w,s", [p for p in PAIRS if wide_stride_witness(*p) is not None])
def test_the_witness_keeps_every_neighbourhood_in_the_ball_of_its_position(w, s):
    """F53 (b) on the arcs, with code written here: the swap changes N(v) only for v at distance ≥ 2."""
    pos, (a, b) = wide_stride_witness(w, s)
    for n in _lengths(w, s)[: 2 * s]:
        dist = _distances(n, w, s, pos)

        def image(x):
            return b if x == a else a if x == b else x
        changed = [v for v in range(1, n + 1)
                   if {image(x) for x in range(1, n + 1) if _adj(w, s, v, x)}
                   != {x for x in range(1, n + 1) if _adj(w, s, image(v), x)}]
        assert changed and min(dist[v] for v in changed) >= 2
        assert any(_adj(w, s, u, v) != _adj(w, s, image(u), image(v)) for u in range(1, n + 1)
                   for v in range(1, n + 1))  # not a symmetry (G is the reflection)


@pytest.mark.parametrize("w,s", PAIRS)
def test_the_far_positions_are_pairwise_adjacent_where_d_is_3(w, s):
    """F53 (a)'s premise, by a search written here: positions at distance 3 from a root form a clique."""
    for n in _lengths(w, s)[: s + 1]:
        for root in range(1, n + 1):
            dist = _distances(n, w, s, root)
            far = [v for v, d in dist.items() if d == 3]
            assert all(_adj(w, s, u, v) for u in far for v in far)


def test_s_equal_w_plus_2_has_no_local_swap_witness():
    """For s = w + 2, w ≥ 2, no swap of two positions near the left end keeps every neighbourhood in N(i) for
    a root i near it (the case that stays open, O11); for the other s the theorem's swap is one."""
    for w in range(2, 6):
        s = w + 2
        for i in range(1, s + 2 * w + 1):
            top = 3 * s + 4 * w
            ball = [v for v in range(1, top + 2 * w + 1) if _adj(w, s, v, i)]
            traces = {}
            for x in range(1, top + 1):
                if _adj(w, s, x, i):
                    continue
                t = frozenset(v for v in ball if _adj(w, s, v, x))
                assert t not in traces, (w, i, traces.get(t), x)
                traces[t] = x


def _source(pattern: str, tokens: str = "") -> str:
    return (f'architecture "stride"\n{tokens}attention {{\n  kernel k(x, y) = exp(x . y)\n'
            f"  pattern {pattern}\n}}\n")


def _cert(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


@pytest.mark.parametrize("tokens", ["", "tokens 4096\n"])
def test_the_verifier_rechecks_f53_with_its_own_entry(tokens):
    report = verify(_cert(_source("window(1) + strided(3)", tokens)))
    assert report.ok and report.complete
    step = next(st for st in report.steps if st.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED and "Theorem F11" in step.reason


def test_the_verifier_rejects_a_count_one_too_low():
    cert = _cert(_source("window(1) + strided(3)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["layers"] = 2
    report = verify(cert)
    assert not report.ok and any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in report.steps)


def test_the_verifier_rejects_a_count_one_too_low_at_a_concrete_n():
    cert = _cert(_source("window(1) + strided(3)", "tokens 4096\n"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    text = json.dumps(step["data"]).replace('"layers": 3', '"layers": 2')
    step["data"] = json.loads(text)
    report = verify(cert)
    assert not report.ok and any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in report.steps)


def test_the_verifier_rejects_a_wrong_residue_set():
    """D = 3 claimed for n ≡ 1 (mod 3) instead of n ≡ 0: the diameter tree of a shifted residue."""
    good = _cert(_source("window(1) + strided(3)"))
    step = next(s for s in good["steps"] if s["rule"] == "PAT-LAYERS")
    text = json.dumps(step["data"]["diameter"])
    # ⌊n/3⌋ − ⌊(n − 1)/3⌋ is 1 exactly at n ≡ 0; ⌊(n − 1)/3⌋ − ⌊(n − 2)/3⌋ marks n ≡ 1
    forged = text.replace('{"q": [-1, 3]}', '{"q": [-2, 3]}').replace(
        '{"args": [{"args": [{"q": [1, 3]}, {"sym": "n"}], "op": "*"}], "op": "floor"}',
        '{"args": [{"args": [{"q": [-1, 3]}, {"args": [{"q": [1, 3]}, {"sym": "n"}], "op": "*"}], "op": "+"}], '
        '"op": "floor"}')
    assert forged != text
    for rule in ("PAT-LAYERS", "PAT-CONNECTED"):
        next(s for s in good["steps"] if s["rule"] == rule)["data"]["diameter"] = json.loads(forged)
    report = verify(good)
    assert not report.ok and any(s.rule == "PAT-CONNECTED" and s.outcome == REJECTED for s in report.steps)


def test_the_verifier_rechecks_f81_and_rejects_a_constant_count():
    """window(2) + strided(4) (s = w + 2, Theorem F81): D layers, least (3 if n mod 4 = 0, else 2), verified with the
    verifier's own check; a constant 3 (the count before F81) or a constant 2 is rejected."""
    cert = _cert(_source("window(2) + strided(4)"))
    report = verify(cert)
    assert report.ok and report.complete
    step = next(st for st in report.steps if st.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED and "F81" in step.reason
    data = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]
    assert data["least"] is True
    for forged in (3, 2):
        bad = json.loads(json.dumps(cert))
        next(s for s in bad["steps"] if s["rule"] == "PAT-LAYERS")["data"]["layers"] = forged
        report = verify(bad)
        assert not report.ok and any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in report.steps)


def test_f81_holds_at_every_width():
    """Theorem F81 at every w ≥ 2: for w = 2, 3 by the finite check of F7's step (6) (which also succeeds for
    4 ≤ w ≤ 7, a second confirmation of step (6′) there), for w ≥ 4 by step (6′), whose premises the verifier checks
    on its own arcs; the premise that S_a = {a} ∪ [a + 2, w] separates the classes fails for w = 3, where (6′) does
    not apply. `window(8) + strided(10)` (formerly 3, sufficient, O11) is D layers, least."""
    from uapcheck.graphs.families import strided_local_rigid
    from uapcheck.graphs.strided_least import wide_stride_rigid
    from uapcheck.verifier.families import _six_prime_root, _wide_views_rigid
    for w in range(2, 8):
        s = w + 2
        assert all(strided_local_rigid(w, s, i) is None for i in range(1, 3 * w + 3 * s + 2)), w
    for w in range(2, 41):
        assert wide_stride_rigid(w), w
    for w in range(2, 25):
        assert _wide_views_rigid(w), w
    assert not wide_stride_rigid(1) and not _wide_views_rigid(1)
    assert not any(_six_prime_root(3, i) for i in range(1, 20))
    theorem = F.match([PatternUnion((Window(8), Strided(10)))], N, {})
    assert theorem.least and F.at(theorem, {"n": 351})["layers"] == 2 and F.at(theorem, {"n": 360})["layers"] == 3


def test_the_incidence_check_sees_a_symmetry():
    """The verifier's colour refinement of (6′)'s incidence is not discrete when an exchange keeps it."""
    from uapcheck.verifier.families import _incidence_discrete
    assert not _incidence_discrete([1, 2], [1, 2], lambda x, y: x == y)
    assert not _incidence_discrete([2, 3], [5, 6], lambda x, y: (x, y) in {(2, 5), (3, 6)})
    assert _incidence_discrete([2, 3, 4], [5, 6, 7], lambda x, y: y - x >= 3)


@pytest.mark.parametrize("w", [4, 5, 6])
def test_the_facts_of_f81_step_six_prime_on_the_arcs(w):
    """F81 (6′), by code written here at one n of the range: at every root i ≤ (n + 1)/2 the positions of the class's
    next run [i + s + 2, i + s + w] meet [i + 2, i + w] in i + S_a, S_a = {a} ∪ [a + 2, w]; and two positions outside
    N(i) with the same run W(x) ∩ C(i) have different neighbours in N(i)."""
    s = w + 2
    n = s * (4 * w + 3) + 3
    for i in range(1, (n + 1) // 2 + 1):
        ball = {u for u in range(1, n + 1) if _adj(w, s, i, u)}
        for a in range(2, w + 1):
            x = i + s + a
            assert {b - i for b in range(i + 2, i + w + 1) if _adj(w, s, x, b)} == {a} | set(range(a + 2, w + 1))
        seen: dict = {}
        for x in range(1, n + 1):
            if x in ball:
                continue
            run = frozenset(c for c in ball if (c - i) % s == 0 and abs(c - x) <= w)
            key = (run, frozenset(u for u in ball if _adj(w, s, x, u)))
            assert key not in seen, (i, x, seen.get(key))
            seen[key] = x


@pytest.mark.parametrize("w, n", [(8, 351), (8, 358), (10, 526)])
def test_f81_beyond_its_former_check_against_the_concrete_engine(w, n):
    """Theorem F81 for s = w + 2 ≥ 10 (step (6′)): where D = 2, 2 layers, least, as the concrete engine (rooted views
    by canonical labelling) decides, also at n ≡ w (mod s), where the end counts agree (step (3′))."""
    pattern = PatternUnion((Window(w), Strided(w + 2)))
    theorem = F.match([pattern], N, {})
    assert theorem.theorem == "F11" and theorem.least
    got = F.concrete(pattern, n)
    assert got.least and got.diameter == got.layers == F.at(theorem, {"n": n})["layers"] == 2


@pytest.mark.parametrize("pattern", ["window(8) + strided(10)", "window(8) + strided(10) + global(1)"])
def test_the_verifier_rechecks_f81_beyond_its_former_check(pattern):
    """At symbolic n, D layers (2 where D = 2) least by F81 (6′), verified with the premises of (6′) checked on the
    verifier's own arcs; a constant 3, the count before, is rejected."""
    cert = _cert(_source(pattern))
    report = verify(cert)
    assert report.ok and report.complete
    step = next(st for st in report.steps if st.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED
    data = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]
    assert data["least"] is True
    bad = json.loads(json.dumps(cert))
    next(s for s in bad["steps"] if s["rule"] == "PAT-LAYERS")["data"]["layers"] = 3
    assert not verify(bad).ok


def test_the_verifiers_backtracking_takes_every_class_permutation_the_plain_search_takes():
    """The verifier's F7/F81 restatement builds κ by backtracking; against every permutation of the s − 1 classes
    tried one by one (written here), it yields the same κ at every root offset for the (w, s) of F7 with s ≤ 5 and
    of F81 with w ≤ 4."""
    import itertools

    from uapcheck.verifier import families as VF
    for w, s in [(2, 3), (3, 3), (3, 4), (4, 5), (2, 4), (3, 5), (4, 6)]:
        for i in range(1, 3 * w + 3 * s + 2):
            y, where, _, _ = VF._strided_local(w, s, i)
            plain = [dict(zip(range(1, s), p)) for p in itertools.permutations(range(1, s))
                     if VF._strided_tau(w, s, i, y, where, dict(zip(range(1, s), p))) is not None]
            assert sorted(map(sorted, (k.items() for k in VF._class_maps(w, s, i, y, where)))) == \
                sorted(map(sorted, (k.items() for k in plain))), (w, s, i)


@pytest.mark.parametrize("w, n", [(6, 217), (6, 222), (7, 281)])
def test_f81_beyond_s_7_against_the_concrete_engine(w, n):
    """Theorem F81 with its check run for s = 8, 9: where D = 2 (s ∤ n), 2 layers, least, as the concrete engine
    (rooted views by canonical labelling) decides."""
    pattern = PatternUnion((Window(w), Strided(w + 2)))
    theorem = F.match([pattern], N, {})
    assert theorem.theorem == "F11" and theorem.least
    got = F.concrete(pattern, n)
    assert got.least and got.diameter == got.layers == F.at(theorem, {"n": n})["layers"] == 2


@pytest.mark.parametrize("w", [2, 3, 4, 5])
def test_the_end_case_of_f81_on_the_arcs(w):
    """F81 (3′) at n ≡ w (mod s), s = w + 2, by code written here: the classes of w + 1 and w + 2 have equal end counts;
    the only position with no neighbour in the class of w + 1 is n, in the class of w + 2 it is 1; n's neighbours in
    the ball of w + 1 are {w} and in the ball of n − w − 1 at least w positions; at an interior root i of the class
    of w + 1 they are {i − 1}, and i + 1 (not i − 1) is adjacent to all of [i + 2, i + w]."""
    s = w + 2
    low = s * (4 * w + 3)
    for n in [m for m in range(low, low + 2 * s) if m % s == w]:
        def ball(i, n=n):
            return {v for v in range(1, n + 1) if v == i or _adj(w, s, v, i)}

        def near(x, n=n):
            return {v for v in range(1, n + 1) if v != x and _adj(w, s, v, x)}
        first = [c for c in range(1, n + 1) if c % s == (w + 1) % s]
        second = [c for c in range(1, n + 1) if c % s == 0]
        assert first[0] == w + 1 and first[-1] == n - w - 1 and second[0] == w + 2 and second[-1] == n - w
        assert [x for x in range(1, n + 1) if x not in first and not near(x) & set(first)] == [n]
        assert [x for x in range(1, n + 1) if x not in second and not near(x) & set(second)] == [1]
        assert near(n) & ball(w + 1) == {w} and len(near(n) & ball(n - w - 1)) >= w
        for i in first[1:-1]:
            assert near(n) & ball(i) == {i - 1}, (n, i)
            assert all(_adj(w, s, i + 1, y) for y in range(i + 2, i + w + 1))
            assert not _adj(w, s, i - 1, i + w)


@pytest.mark.parametrize("w,s", [p for p in PAIRS if wide_stride_witness(*p) is not None])
def test_the_verifier_restates_the_witness_and_rechecks_instances(w, s):
    assert V.witness(w, s) == (wide_stride_witness(w, s)[0],) + wide_stride_witness(w, s)[1]
    assert V.witness_on_the_half_line(w, s) is None
    low = s * (4 * w + 3)
    for n in (low, low + 1, low + 2):
        d = F.at(F.match(
            [PatternUnion((Window(w), Strided(s)))], N, {}), {"n": n})["diameter"]
        assert V.instance_problem(w, s, n, d) is None


def test_the_verifier_rejects_a_wrong_witness_on_the_half_line(monkeypatch):
    monkeypatch.setattr(V, "witness", lambda w, s: (1, s, s + w + 2))
    assert V.witness_on_the_half_line(1, 3) is not None


# ---------------------------------------------------------------------------------------------
# Theorem F54: s ≥ 2w + 2

BEYOND = [(1, s) for s in range(4, 10)] + [(2, s) for s in (6, 7, 8, 9)] + [(3, s) for s in (8, 12, 13)]


def _beyond_lengths(w: int, s: int) -> list[int]:
    low = s * (4 * w + 3)
    return list(range(low, max(61, low + s + 1)))


@pytest.mark.parametrize("w,s", BEYOND)
def test_f54_agrees_with_the_concrete_engine_at_every_n_in_range(w, s):
    pattern = PatternUnion((Window(w), Strided(s)))
    theorem = F.match([pattern], N, {})
    assert theorem.theorem == "F14"
    middle = 1 + -(-(s // 2) // w)
    witness = stride_beyond_block_witness(w, s)
    assert (witness is not None) is (s % 2 == 1 and (s // 2) % w == 0)
    for n in _beyond_lengths(w, s):
        got = F.concrete(pattern, n)
        want = F.at(theorem, {"n": n})
        assert got.least and got.diameter == want["diameter"] and want["layers"] in (middle, middle + 1)
        if witness is not None:
            assert got.layers == middle + 1, n          # F54 (b): least at every n
        elif got.diameter == middle + 1:
            assert got.layers == got.diameter == want["layers"], n  # F54 (a): D suffices where D = M + 1
        elif theorem.least_at(n):
            assert got.layers == want["layers"], n      # F120: M or M + 1, least, by the class of n
        else:
            assert got.layers <= want["layers"] == middle + 1, n  # F54 (c): M + 1 sufficient (open classes: O11)
    # least at every n: F54 (b)'s exchange, or for w = 1 and even s F120 with F199 on every class
    assert theorem.least is (witness is not None or (w == 1 and s % 2 == 0))


@pytest.mark.parametrize("w,s", [p for p in BEYOND if stride_beyond_block_witness(*p) is not None])
def test_the_block_exchange_keeps_every_neighbourhood_in_the_ball(w, s):
    """F54 (b) on the arcs, with code written here: the exchange changes N(v) only for v at distance ≥ M."""
    middle = 1 + (s // 2) // w
    pos, p = stride_beyond_block_witness(w, s)
    for n in _beyond_lengths(w, s)[: s + 1]:
        dist = _distances(n, w, s, pos)

        def image(x):
            return x + s if p <= x < p + s else x - s if p + s <= x < p + 2 * s else x
        changed = [v for v in range(1, n + 1)
                   if {image(x) for x in range(1, n + 1) if _adj(w, s, v, x)}
                   != {x for x in range(1, n + 1) if _adj(w, s, image(v), x)}]
        assert changed and min(dist[v] for v in changed) >= middle


def test_an_end_witness_makes_case_c_depend_on_the_residue():
    """window(3) + strided(12), D = M = 3 at n ≡ 2 .. 7 (mod 12): M + 1 = 4 layers are least at n ≡ 2 only (the
    swap (3 4) at position n − 3), so F54 does not claim the count there (O11)."""
    pattern = PatternUnion((Window(3), Strided(12)))
    got = {n % 12: F.concrete(pattern, n).layers for n in range(182, 188)}
    assert got == {2: 4, 3: 3, 4: 3, 5: 3, 6: 3, 7: 3}
    assert not F.match([pattern], N, {}).least


def test_the_verifier_rechecks_f54_and_rejects_a_count_one_too_low():
    for tokens in ("", "tokens 300000\n"):
        report = verify(_cert(_source("window(1) + strided(5)", tokens)))
        assert report.ok and report.complete
        step = next(st for st in report.steps if st.rule == "PAT-LAYERS")
        assert step.outcome == VERIFIED and "Theorem F14" in step.reason
    cert = _cert(_source("window(1) + strided(5)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["layers"] = 3
    report = verify(cert)
    assert not report.ok and any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in report.steps)


def test_the_verifier_rejects_least_in_case_c():
    """window(2) + strided(6): M = 3 least on n mod 6 ∈ {2, 3, 4} (Theorem F120), 4 sufficient on the others: not least.
    (window(1) + strided(4) is least on every class since Theorem F199.)"""
    cert = _cert(_source("window(2) + strided(6)"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is False and step["data"]["least classes"] == {"modulus": 6, "residues": [2, 3, 4]}
    step["data"]["least"] = True
    report = verify(cert)
    assert not report.ok and any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in report.steps)


@pytest.mark.parametrize("w,s", [(1, 5), (1, 7), (2, 9), (3, 13)])
def test_the_verifier_restates_the_block_witness(w, s):
    assert V.block_witness(w, s) == stride_beyond_block_witness(w, s)
    assert V.block_conditions(w, s) is None
    low = s * (4 * w + 3)
    theorem = F.match([PatternUnion((Window(w), Strided(s)))], N, {})
    for n in (low, low + 1):
        assert V.beyond_instance_problem(w, s, n, F.at(theorem, {"n": n})["diameter"]) is None
    assert V.block_witness(1, 4) is None and V.block_witness(2, 7) is None


def test_the_verifier_rejects_a_block_witness_one_position_off(monkeypatch):
    monkeypatch.setattr(V, "block_witness", lambda w, s: (1, 10))  # p = 9 for window(1) + strided(5)
    assert V.block_conditions(1, 5) is not None
    assert V.beyond_instance_problem(1, 5, 36, 3) is not None


# ---------------------------------------------------------------------------------------------
# Theorem F55: window(1) cyclic + strided(5)

def test_f55_agrees_with_the_concrete_engine_and_its_exchange_is_a_witness():
    pattern = PatternUnion((Window(1, True), Strided(5)))
    theorem = F.match([pattern], N, {})
    assert theorem.theorem == "F26" and theorem.least and "F55" in theorem.why_layers
    for n in range(35, 61):
        got = F.concrete(pattern, n)
        assert got.least and got.diameter == 3 and got.layers == F.at(theorem, {"n": n})["layers"] == 4, n

        def adj(u, v, n=n):
            return min(abs(u - v), n - abs(u - v)) <= 1 or (u - v) % 5 == 0

        def image(x):
            return x + 5 if 10 <= x < 15 else x - 5 if 15 <= x < 20 else x
        dist = {2: 0}
        queue = deque([2])
        while queue:
            x = queue.popleft()
            for y in range(1, n + 1):
                if y not in dist and adj(x, y):
                    dist[y] = dist[x] + 1
                    queue.append(y)
        changed = [v for v in range(1, n + 1) if {image(x) for x in range(1, n + 1) if adj(v, x)}
                   != {x for x in range(1, n + 1) if adj(image(v), x)}]
        assert changed and min(dist[v] for v in changed) >= 3
        assert V.cyclic_block_problem(n) is None
    other = F.match([PatternUnion((Window(1, True), Strided(4)))], N, {})
    assert other.least and F.at(other, {"n": 40})["layers"] == 3  # s = 2w + 2: D = 3 least (F56)


def test_the_verifier_rechecks_f55_and_rejects_three_layers():
    report = verify(_cert(_source("window(1) cyclic + strided(5)")))
    assert report.ok and report.complete
    step = next(st for st in report.steps if st.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED and "F55" in step.reason
    cert = _cert(_source("window(1) cyclic + strided(5)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["layers"] = 3
    assert not verify(cert).ok


@pytest.mark.parametrize("w", [4, 5])
def test_f81_agrees_with_the_concrete_engine_over_a_period_for_larger_windows(w):
    """Theorem F81 for s = w + 2 with w = 4, 5: D layers (least) against the concrete engine over one period and one
    more length from the range's start (n = 114..120 and 161..168)."""
    s = w + 2
    pattern = PatternUnion((Window(w), Strided(s)))
    theorem = F.match([pattern], N, {})
    assert theorem.theorem == "F11" and theorem.least
    low = s * (4 * w + 3)
    for n in range(low, low + s + 1):
        got = F.concrete(pattern, n)
        assert got.least and got.layers == got.diameter == F.at(theorem, {"n": n})["layers"], n
