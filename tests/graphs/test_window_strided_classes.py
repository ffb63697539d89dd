"""Theorem F120 (docs/theory.md §11.11): the least layer count of `window(w) + strided(s)`, s ≥ 2w + 2, in F54's case
(c) (s even or w ∤ ⌊s/2⌋), class by class of n mod s.

Where D = M, Theorem F98's finite check read class by class: M layers, least, on the classes where the common-neighbour
premise holds at every length of the check; M + 1, least, where a swap of two far positions is a view witness at every
length (F99); elsewhere M + 1, sufficient (O11). Compared with the concrete engine (graphs, BLISS, rooted views by
canonical labelling) at every n from the range's start to at least 100; the premise and the witnesses re-checked by
breadth-first search written here; the verifier's own check compared, its entry run at symbolic and concrete n, and
tampered certificates rejected.
"""
from __future__ import annotations

import json
from collections import deque

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import families as F
from uapcheck.graphs.strided_least import beyond_classes
from uapcheck.spec import PatternUnion, Strided, Window
from uapcheck.verifier import REJECTED, VERIFIED, verify
from uapcheck.verifier import strided_least as V

N = sympy.Symbol("n", integer=True, positive=True)

#: (w, s) in case (c) with what the check finds: (premise classes, swap classes, open classes) where D = M
CASES = {
    (1, 4): ((1, 2, 3), (), (0,)),
    (1, 6): ((1, 2, 3, 4), (), (0, 5)),
    (1, 8): ((1, 2, 3, 4, 5), (), (0, 6, 7)),
    (2, 6): ((2, 3, 4), (), (0, 1, 5)),
    (2, 7): ((2, 3, 4, 5), (), (0, 1, 6)),
    (2, 8): ((), (), (1, 2, 3, 4, 5)),
    (3, 8): ((3, 4, 5), (), (0, 1, 2, 6, 7)),
    (3, 12): ((), (2,), (3, 4, 5, 6, 7)),
}


def _middle(w: int, s: int) -> int:
    return 1 + -(-(s // 2) // w)


def _adj(w: int, s: int, u: int, v: int) -> bool:
    return u != v and (abs(u - v) <= w or (u - v) % s == 0)


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


def _neighbours(n: int, w: int, s: int) -> dict:
    return {v: {u for u in range(1, n + 1) if _adj(w, s, u, v)} for v in range(1, n + 1)}


def _premise(n: int, w: int, s: int) -> bool:
    """The common-neighbour premise of Theorem F57 at n, by breadth-first search from every root (written here)."""
    near = _neighbours(n, w, s)
    table = {}
    for root in range(1, n + 1):
        dist, queue = {root: 0}, deque([root])
        while queue:
            x = queue.popleft()
            for y in near[x] - dist.keys():
                dist[y] = dist[x] + 1
                queue.append(y)
        table[root] = dist
    d = max(max(t.values()) for t in table.values())
    for dist in table.values():
        far = [v for v in dist if dist[v] == d]
        ball = {v for v in dist if dist[v] < d}
        for a, x in enumerate(far):
            inner = near[x] & ball
            for y in far[a + 1:]:
                if (y in near[x]) != bool(inner & near[y]):
                    return False
    return True


def test_the_classes_are_as_the_check_finds_them():
    for (w, s), (premise, swaps, rest) in CASES.items():
        found = beyond_classes(w, s)
        left = found.pendant if w == 1 else found.open  # for w = 1 Theorem F199 decides every class F120 leaves
        assert (found.premise, found.swaps, left) == (premise, swaps, rest), (w, s)
        assert not (w == 1 and found.open) and not (w > 1 and found.pendant), (w, s)
        assert set(found.least) | set(found.open) == set(range(s))


@pytest.mark.parametrize("w,s", [(1, 4), (1, 6), (1, 8), (2, 6), (2, 8), (3, 12)])
def test_the_count_by_class_agrees_with_the_concrete_engine(w, s):
    """Every n from the range's start to at least 100 (and one period and more): where the theorem says least, the
    concrete engine's least count is the theorem's; elsewhere it is at most the theorem's M + 1."""
    pattern = PatternUnion((Window(w), Strided(s)))
    theorem = F.match([pattern], N, {})
    low = s * (4 * w + 3)
    middle = _middle(w, s)
    top = max(100, low + s + 1) if w < 3 else low + s + 2
    for n in range(low, top + 1):
        got = F.concrete(pattern, n)
        want = F.at(theorem, {"n": n})
        assert got.least and got.diameter == want["diameter"], n
        if theorem.least_at(n):
            assert got.layers == want["layers"], n
        else:
            assert n % s in CASES[(w, s)][2] and got.layers <= want["layers"] == middle + 1, n
        at_n = F.match([pattern], sympy.Integer(n), {})  # a concrete length reads its class's count and flag
        assert at_n.least == theorem.least_at(n) and int(at_n.layers) == want["layers"], n


@pytest.mark.parametrize("w,s", [(1, 4), (1, 6), (2, 6)])
def test_the_premise_on_the_arcs_through_two_periods_past_the_check(w, s):
    """The premise by breadth-first search written here: at every length of the premise classes from the range's start
    through two periods past the check's last length (periodicity, F98 (a)), and failing at a length of each open
    class."""
    found = beyond_classes(w, s)
    low = s * (4 * w + 3)
    for n in range(low, found.top + 2 * s + 1):
        if n % s in found.premise:
            assert _premise(n, w, s), n
    for r in found.open:
        n = low + (r - low) % s
        assert not _premise(n, w, s), n


def test_the_open_class_of_window_1_strided_4_fails_the_premise_at_root_1():
    """n ≡ 0 (mod 4): at the root 1 the far positions 7 and n (distance 3) are not adjacent, but 8, within 2 of 1, is
    adjacent to both; and no swap of two far positions is a witness (Theorem F99's search, written here)."""
    for n in (28, 32, 100):
        dist = _distances(n, 1, 4, 1)
        assert dist[7] == dist[n] == 3 and dist[8] == 2 and not _adj(1, 4, 7, n)
        assert _adj(1, 4, 8, 7) and _adj(1, 4, 8, n)
        assert not _far_swap(n, 1, 4)


def _far_swap(n: int, w: int, s: int):
    """(root, x, y): two positions at distance D from the root with the same neighbours within D − 1 of it that are not
    twins, or None (written here)."""
    table = {r: _distances(n, w, s, r) for r in range(1, n + 1)}
    d = max(max(t.values()) for t in table.values())
    for root, dist in table.items():
        far = [v for v in dist if dist[v] == d]
        ball = [v for v in dist if dist[v] < d]
        for a, x in enumerate(far):
            for y in far[a + 1:]:
                if all(_adj(w, s, x, z) == _adj(w, s, y, z) for z in ball) and \
                        any(_adj(w, s, x, z) != _adj(w, s, y, z) for z in range(1, n + 1) if z not in (x, y)):
                    return root, x, y
    return None


def _adjacent_swap_keeps_the_ball(n: int, w: int, s: int, root: int, x: int) -> bool:
    """The lemma behind the swaps found (x ≤ w): the swap (x x + 1) keeps N(v) for every v within M − 1 of the root
    when that ball misses the classes of x and x + 1 and the position x + w + 1; checked on the arcs here."""
    middle = _middle(w, s)
    dist = _distances(n, w, s, root)
    ball = [v for v in dist if dist[v] <= middle - 1]
    assert x <= w and dist[x] == dist[x + 1] == middle
    assert all((v - x) % s and (v - x - 1) % s for v in ball) and x + w + 1 not in ball

    def image(p):
        return x + 1 if p == x else x if p == x + 1 else p
    for v in ball:
        if {image(p) for p in range(1, n + 1) if _adj(w, s, v, p)} != \
                {p for p in range(1, n + 1) if _adj(w, s, image(v), p)}:
            return False
    return True


def test_the_end_witness_of_window_3_strided_12_is_an_adjacent_swap_at_every_n_of_its_class():
    """n ≡ 2 (mod 12): the swap (3 4) at the root n − 3 (F54's remark), an instance of the adjacent swap (x x + 1)
    with x = w; not a symmetry (7 is adjacent to 4, not to 3)."""
    for n in (182, 194, 206, 254):
        assert _adjacent_swap_keeps_the_ball(n, 3, 12, n - 3, 3)
        assert _adj(3, 12, 7, 4) and not _adj(3, 12, 7, 3)


def test_the_verifiers_own_table_agrees_with_the_engine():
    for (w, s) in [(1, 4), (1, 6), (2, 8), (3, 12)]:
        top, kinds = V.beyond_table(w, s)
        found = beyond_classes(w, s)
        assert top == found.top
        assert tuple(r for r in range(s) if kinds[r] == "premise") == found.premise
        assert tuple(r for r in range(s) if kinds[r] == "swap") == found.swaps
        assert tuple(r for r in range(s) if kinds[r] == "far") == found.far
        assert tuple(r for r in range(s) if kinds[r] == "open") == found.open


def _source(pattern: str, tokens: str = "") -> str:
    return (f'architecture "stride"\n{tokens}attention {{\n  kernel k(x, y) = exp(x . y)\n'
            f"  pattern {pattern}\n}}\n")


def _cert(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _layer_step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")


def _rejected(cert: dict) -> bool:
    report = verify(cert)
    return not report.ok and any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in report.steps)


def test_the_verifier_restates_the_classes_at_symbolic_n_and_rejects_tampering():
    cert = _cert(_source("window(2) + strided(6)"))
    data = _layer_step(cert)["data"]
    assert data["least"] is False and data["least classes"] == {"modulus": 6, "residues": [2, 3, 4]}
    report = verify(cert)
    assert report.ok and report.complete
    step = next(st for st in report.steps if st.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED and "Theorem F120" in step.reason
    for forged in ({"modulus": 6, "residues": [0, 1, 2, 3, 4, 5]}, {"modulus": 6, "residues": [2, 3]}, None):
        bad = json.loads(json.dumps(cert))
        if forged is None:
            del _layer_step(bad)["data"]["least classes"]
        else:
            _layer_step(bad)["data"]["least classes"] = forged
        assert _rejected(bad), forged
    bad = json.loads(json.dumps(cert))
    _layer_step(bad)["data"]["layers"] = 3  # M on every class: below M + 1 on n ≡ 0, 1, 5, not proved there
    assert _rejected(bad)


@pytest.mark.parametrize("tokens,layers,least", [(1048577, 3, True), (1048576, 3, True)])
def test_a_concrete_length_reads_its_class(tokens, layers, least):
    """window(1) + strided(4) at 1,048,577 tokens (n ≡ 1: M = 3, least, F120) and 1,048,576 (n ≡ 0: M = 3, least,
    Theorem F199; formerly 4, sufficient)."""
    cert = _cert(_source("window(1) + strided(4)", f"tokens {tokens}\n"))
    data = _layer_step(cert)["data"]
    assert data["layers"] == layers and data["least"] is least
    report = verify(cert)
    assert report.ok and report.complete
    bad = json.loads(json.dumps(cert))
    _layer_step(bad)["data"]["least"] = not least
    assert _rejected(bad)


def test_the_swap_class_of_window_3_strided_12_at_a_concrete_length():
    """n = 1,048,574 ≡ 2 (mod 12): 4 = M + 1 layers, least (a far swap); the verifier re-checks it on its arcs."""
    cert = _cert(_source("window(3) + strided(12)", "tokens 1048574\n"))
    data = _layer_step(cert)["data"]
    assert data["layers"] == 4 and data["least"] is True
    assert verify(cert).ok


def test_a_forged_premise_class_fails_the_instance_check(monkeypatch):
    """The verifier's table with n ≡ 0 (mod 4) claimed as a premise class: its instance check at n = 28 finds the
    premise failing on its own arcs, so the step is rejected."""
    top, kinds = V.beyond_table(1, 4)
    monkeypatch.setattr(V, "beyond_table", lambda w, s: (top, dict(kinds, **{0: "premise"})))
    assert V.beyond_class_problem(1, 4, "premise", 28, 3) is not None
    cert = _cert(_source("window(1) + strided(4)"))
    bad = json.loads(json.dumps(cert))
    data = _layer_step(bad)["data"]
    data["least"] = True
    data.pop("least classes", None)
    data["layers"] = 3
    assert _rejected(bad)


def test_a_forged_swap_class_fails_the_instance_check():
    """A swap claimed on a premise class: no far swap at n = 29 for window(1) + strided(4)."""
    assert V.beyond_class_problem(1, 4, "swap", 29, 3) is not None
    assert V.beyond_class_problem(3, 12, "swap", 182, 3) is None


def test_beyond_the_check_limit_nothing_is_claimed_by_class():
    """window(10) + strided(40): the check would read lengths past 720, so F14 keeps M + 1, sufficient, with no least
    classes, in the engine and in the verifier alike."""
    assert beyond_classes(10, 40) is None and V.beyond_table(10, 40) is None
    theorem = F.match([PatternUnion((Window(10), Strided(40)))], N, {})
    assert theorem.theorem == "F14" and not theorem.least and theorem.least_classes == () and theorem.layers == 4
