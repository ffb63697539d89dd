"""The circular convolution mixer (the paper's C_n design, §4.4.2; docs/theory.md §22), checked a
second way: the group by brute force over S_n (n ≤ 7), the reach by products of integer circulants,
and token distinguishability by the rank of the composed mixer's coefficient vectors."""
from __future__ import annotations

import itertools
import math
import random

import pytest
import sympy

from uapcheck.derive import check_spec
from uapcheck.errors import UapError
from uapcheck.graphs.circulant import missing_offset, sumset_depth, tap_depth_expression, tap_gcd, tap_sumset_form
from uapcheck.parse import parse_source


def _circulant(n, taps, psi):
    """(C_ψ)[j][i] = ψ_k when j ≡ i + k: column i of X C_ψ is Σ_k ψ_k x_{i+k}."""
    c = [[0] * n for _ in range(n)]
    for k, v in zip(taps, psi):
        for i in range(n):
            c[(i + k) % n][i] += v
    return c


def _mul(a, b):
    n = len(a)
    return [[sum(a[i][t] * b[t][j] for t in range(n)) for j in range(n)] for i in range(n)]


def _brute_group_order(n, taps):
    rng = random.Random(1)
    mats = [_circulant(n, taps, [rng.randint(1, 9) for _ in taps]) for _ in range(2)]
    count = 0
    for perm in itertools.permutations(range(n)):
        p = [[1 if perm[j] == i else 0 for j in range(n)] for i in range(n)]
        if all(_mul(p, c) == _mul(c, p) for c in mats):
            count += 1
    return count


TAPS = [(0, 1), (0, 1, 2), (1,), (0, 2), (0, 2, 3), (-1, 0, 1), (0, 3), (2, 5), (0, 4, 6)]


@pytest.mark.parametrize("n", range(2, 8))
@pytest.mark.parametrize("taps", TAPS)
def test_the_group_is_the_centraliser_of_the_tap_shifts(n, taps):
    g = tap_gcd(n, taps)
    brute = _brute_group_order(n, taps)
    expected = math.factorial(n) if g == n else (n // g) ** g * math.factorial(g)
    assert brute == expected
    r = check_spec(parse_source(f"tokens {n}\nconvolution circular {{{', '.join(map(str, taps))}}}", "c.uap"))
    step = next(s for s in r.root.walk() if s.rule == "CONV-GROUP")
    assert step.evidence["order"] == brute
    if g == 1:
        assert step.evidence["name"] == "C_n"


def _support_depth(n, taps):
    """Least m with every entry of (I + C)^m positive, C with positive taps (None: never, m ≤ 2n)."""
    ident = [[int(i == j) for j in range(n)] for i in range(n)]
    step = [[ident[i][j] + c for j, c in enumerate(row)] for i, row in enumerate(_circulant(n, taps, [1] * len(taps)))]
    cur = ident
    for m in range(0, 2 * n + 1):
        if all(v > 0 for row in cur for v in row):
            return m
        cur = _mul(cur, step)
    return None


@pytest.mark.parametrize("n", [1, 2, 5, 7, 12])
@pytest.mark.parametrize("taps", TAPS)
def test_the_reach_is_the_sum_set_depth(n, taps):
    assert sumset_depth(n, taps) == _support_depth(n, taps)


def _coefficients(n, taps, m, rng):
    """The coefficient vector (c_0, …, c_{n−1}) of X ↦ X ∏_t (I + C_ψt) at random integer taps."""
    ident = [[int(i == j) for j in range(n)] for i in range(n)]
    cur = ident
    for _ in range(m):
        c = _circulant(n, taps, [rng.randint(-5, 5) for _ in taps])
        cur = _mul(cur, [[ident[i][j] + c[i][j] for j in range(n)] for i in range(n)])
    return [cur[s][0] for s in range(n)]  # column 0: the weight of x_s in the output at position 0


@pytest.mark.parametrize("n,taps", [(6, (0, 1)), (7, (0, 1, 2)), (8, (0, 3)), (9, (0, 2, 3)), (10, (-1, 0, 1)),
                                    (6, (1,)), (12, (0, 5))])
def test_depth_d_compositions_have_independent_coefficients(n, taps):
    """Linear independence of c_s as polynomials (docs/theory.md §22.3), seen as full rank of their values
    at random parameter points; at depth D − 1 some c_s is identically 0 (the reach is short)."""
    rng = random.Random(7)
    d = sumset_depth(n, taps)
    rows = [_coefficients(n, taps, d, rng) for _ in range(3 * n)]
    assert sympy.Matrix(rows).rank() == n
    if d >= 1:
        short = [_coefficients(n, taps, d - 1, rng) for _ in range(3 * n)]
        s = missing_offset(n, taps, d - 1)
        assert all(row[s] == 0 for row in short)


def test_the_paper_design_at_symbolic_n():
    text = "param l integer >= 1\nconvolution circular(l)\nexpect uap group C_n layers ceil((n - 1) / l)"
    r = check_spec(parse_source(text, "cn.uap"))
    assert r.verdict == "UAP" and r.expect_holds


@pytest.mark.parametrize("text,verdict", [
    ("tokens 12\nconvolution circular(3)", "UAP"),
    ("tokens 12\nconvolution circular(3)\nlayers 3", "NOT-UAP"),
    ("tokens 12\nconvolution circular(3)\nlayers 4", "UAP"),
    ("tokens 12\nconvolution circular {0, 4, 6}", "NOT-UAP"),
    ("tokens 12\nconvolution circular {0}", "NOT-UAP"),
    ("convolution circular {0, 2}", "UAP"),  # by residue class: UAP for odd n, NOT-UAP for even n (§22.5)
    ("convolution circular {0, 2, 5}", "UAP"),  # gcd 1, not an interval: Lemma P, for n ≥ 8 (§22.6)
    ("convolution circular {0, 2, 5}\nlayers 4", "INCONCLUSIVE"),
    ("convolution circular {0, 2}\nlayers 3", "INCONCLUSIVE"),
    ("convolution circular {0}", "NOT-UAP"),
    ("convolution circular {-2, -1, 0, 1}", "UAP"),
])
def test_verdicts(text, verdict):
    assert check_spec(parse_source(text, "c.uap")).verdict == verdict


def test_taps_that_are_all_zero_never_mix_at_symbolic_n():
    """`convolution circular {0}`: the mixer is (1 + ψ_0)·X, so for n ≥ 2 x_2 never reaches position 1
    (the concrete engine agrees at every n from 2 to 40), and the group is S_n (every permutation tried)."""
    r = check_spec(parse_source("convolution circular {0}", "c.uap"))
    steps = {s.rule: s for s in r.root.walk()}
    assert r.verdict == "NOT-UAP" and steps["CONV-DISCONNECTED"].proved and "n ≥ 2" in steps["CONV-DISCONNECTED"].claim
    assert steps["CONV-GROUP"].facts["group"].name == "S_n"
    for n in range(2, 41):
        assert check_spec(parse_source(f"tokens {n}\nconvolution circular {{0}}", "c.uap")).verdict == "NOT-UAP"
        assert sumset_depth(n, (0,)) is None
    for n in range(2, 6):
        assert _brute_group_order(n, (0,)) == math.factorial(n)


def test_the_symbolic_count_is_stated_from_n_2_where_it_meets_the_concrete_one():
    """⌈(n − 1)/l⌉ is 0 at n = 1, where the concrete engine counts 1: the symbolic verdict states n ≥ 2,
    and on that range the formula is the concrete count at every n ≤ 30 and l ≤ 3."""
    r = check_spec(parse_source("param l integer >= 1\nconvolution circular(l)", "cn.uap"))
    assert r.group.condition == "n ≥ 2"
    n, l = sympy.symbols("n l", integer=True, positive=True)
    for span in (1, 2, 3):
        for size in range(1, 31):
            concrete = check_spec(parse_source(f"tokens {size}\nconvolution circular({span})", "c.uap")).layers
            formula = int(r.layers.subs({sympy.Symbol("n", integer=True, positive=True): size,
                                         sympy.Symbol("l", integer=True, positive=True): span}))
            assert (formula == concrete) == (size >= 2), (span, size, formula, concrete)


def test_an_expectation_counts_convolution_layers_in_words():
    r = check_spec(parse_source("tokens 1\nconvolution circular(2)\nexpect uap group C_n layers 0", "c.uap"))
    assert not r.expect_holds and "expected 0 convolution layers, derived 1" in r.expect_reason


def test_layers_at_concrete_n():
    r = check_spec(parse_source("tokens 12\nconvolution circular {0, 2, 3}", "c.uap"))
    assert r.layers == 5 == sumset_depth(12, (0, 2, 3))


@pytest.mark.parametrize("text,message", [
    ("tokens 8\nconvolution circular(2)\nattention { kernel k(x, y) = exp(x . y) }", "not both"),
    ("tokens 8\nconvolution circular {0, 1, 1}", "twice"),
    ("tokens 8\nconvolution circular(0)", "at least 1"),
    ("tokens 8\nconvolution circular(2)\ntarget causal", "equivariant targets"),
])
def test_what_is_refused(text, message):
    with pytest.raises(UapError) as exc:
        parse_source(text, "bad.uap")
    assert message in str(exc.value)


def test_simulate_shows_separation_and_the_least_count():
    """`uapcheck simulate` on the C_n design: D layers separate orbits, D − 1 leave a token unread."""
    from uapcheck.simulate import simulate
    from uapcheck.simulate.run import Options
    spec = parse_source("param l integer >= 1\nconvolution circular(l)", "cn.uap")
    sim = simulate(spec, options=Options(tokens=8))
    assert sim.demonstrations and sim.consistent
    assert {d.kind for d in sim.demonstrations} >= {"separation", "receptive-field"}


# ---------------------------------------------------------------------------------------------
# Taps s·[a, b] with s ≥ 2 at symbolic n: a verdict by residue class of n mod s (docs/theory.md §22.5)

SCALED = [((0, 2), 2, 1), ((0, 3), 3, 1), ((-2, 0, 2), 2, 2), ((0, 4, 8), 4, 2), ((0, 6), 6, 1), ((2, 4), 2, 2),
          ((-3, 3), 3, 2)]


def _bfs_depth(n, taps):
    """The least m with every offset a sum of at most m taps mod n (an independent BFS), None if never."""
    dist = {0: 0}
    frontier = [0]
    while frontier:
        nxt = []
        for s in frontier:
            for k in taps:
                r = (s + k) % n
                if r not in dist:
                    dist[r] = dist[s] + 1
                    nxt.append(r)
        frontier = nxt
    return max(dist.values()) if len(dist) == n else None


@pytest.mark.parametrize("taps,step,width", SCALED)
def test_scaled_taps_by_residue_class_agree_with_every_concrete_n(taps, step, width):
    """UAP with G = C_n and ⌈(n − 1)/w⌉ layers for n ≥ 2 with gcd(n, s) = 1, NOT-UAP (x_2 never reaches position 1)
    for the other classes: against the concrete engine and an independent BFS at every n ≤ 40, and against
    the centraliser by brute force over S_n for n ≤ 7."""
    text = "convolution circular {" + ", ".join(map(str, taps)) + "}"
    r = check_spec(parse_source(text, "c.uap"))
    n = sympy.Symbol("n", integer=True, positive=True)
    assert r.verdict == "UAP" and r.group.name == "C_n" and r.layers == sympy.ceiling((n - 1) / width)
    steps = {s.rule: s for s in r.root.walk()}
    obstruction = steps["CONV-DISCONNECTED"]
    assert obstruction.proved and obstruction.facts["modulus"] == step
    assert obstruction.facts["residues"] == tuple(q for q in range(step) if math.gcd(q, step) > 1)
    for size in range(2, 41):
        concrete = check_spec(parse_source(f"tokens {size}\n{text}", "c.uap"))
        bfs = _bfs_depth(size, taps)
        if math.gcd(size, step) > 1:
            assert concrete.verdict == "NOT-UAP" and bfs is None, size
        else:
            want = -(-(size - 1) // width)
            assert concrete.verdict == "UAP" and concrete.group.name == _rotations_name(size), size
            assert concrete.layers == want == bfs == int(r.layers.subs(n, size)), size
            if size <= 7:
                assert _brute_group_order(size, taps) == size


def test_scaled_taps_expectation_by_class():
    r = check_spec(parse_source("convolution circular {0, 2}\nexpect uap group C_n layers n - 1, not-uap if n mod 2 = 0",
                                "c.uap"))
    assert r.expect_holds, r.expect_reason
    r = check_spec(parse_source("convolution circular {0, 2}\nexpect uap group C_n layers n - 1, not-uap if n mod 2 = 1",
                                "c.uap"))
    assert not r.expect_holds


# ---------------------------------------------------------------------------------------------
# Any integer taps at symbolic n: Lemma P (docs/theory.md §22.6)

GENERAL = [((1, 3), 1, 2), ((0, 2, 6), 2, 2), ((0, 2, 5), 1, 8), ((2, 5), 1, 8), ((-3, 0, 5), 1, 28),
           ((0, 1, 3, 9), 1, 20), ((-1, 4), 1, 12), ((0, 3, 6, 15), 3, 2)]


@pytest.mark.parametrize("taps,step,start", GENERAL)
def test_lemma_p_agrees_with_the_concrete_engine_at_every_n_up_to_60(taps, step, start):
    """The symbolic verdict (UAP, C_n, Lemma P's count for n ≥ start with gcd(n, s) = 1; NOT-UAP where gcd(n, s) > 1)
    against the concrete engine and an independent BFS at every n ≤ 60; the range is sharp (the count differs at
    start − 1)."""
    text = "convolution circular {" + ", ".join(map(str, taps)) + "}"
    r = check_spec(parse_source(text, "c.uap"))
    n = sympy.Symbol("n", integer=True, positive=True)
    assert r.verdict == "UAP" and r.group.name == "C_n"
    layers = next(s for s in r.root.walk() if s.rule == "CONV-LAYERS")
    assert layers.proved and layers.facts["least"] and layers.facts["from"] == start
    for size in range(2, 61):
        bfs = _bfs_depth(size, taps)
        if math.gcd(size, step) > 1:
            assert bfs is None, size
            if size % 4 == 0:
                assert check_spec(parse_source(f"tokens {size}\n{text}", "c.uap")).verdict == "NOT-UAP", size
            continue
        claimed = int(r.layers.subs(n, size))
        if size < start:
            assert size != start - 1 or claimed != bfs, size  # the stated range cannot start lower
            continue
        assert claimed == bfs, size
        if size % 3 == 0 or size < start + 3:
            concrete = check_spec(parse_source(f"tokens {size}\n{text}", "c.uap"))
            assert concrete.verdict == "UAP" and concrete.group.name == _rotations_name(size) and concrete.layers == bfs, size


def test_taps_1_3_need_the_ceiling_of_n_plus_1_over_3():
    """K ∪ {0} = {0, 1, 3}: k{0, 1, 3} = [0, 3k] ∖ {3k − 1}, which covers Z_n exactly when 3k ≥ n + 1."""
    r = check_spec(parse_source("convolution circular {1, 3}\nexpect uap group C_n layers ceil((n + 1) / 3)", "c.uap"))
    assert r.verdict == "UAP" and r.expect_holds, r.expect_reason
    n = sympy.Symbol("n", integer=True, positive=True)
    assert r.layers == sympy.ceiling((n + 1) / 3)
    for k in range(1, 30):
        kfold = {0}
        for _ in range(k):
            kfold = {x + a for x in kfold for a in (0, 1, 3)}
        assert kfold == set(range(3 * k + 1)) - {3 * k - 1}


def test_lemma_p_at_random_taps_against_bfs():
    """The closed form at 80 random tap sets (both signs, spans up to 24), at every n from its start to 100 (the
    printed expression against it on two periods of n mod b)."""
    rng = random.Random(7)
    n = sympy.Symbol("n", integer=True, positive=True)
    for _ in range(80):
        taps = tuple(sorted(rng.sample(range(-12, 13), rng.randint(1, 4))))
        form = tap_sumset_form(taps)
        if form is None:
            assert all(t == 0 for t in taps)
            continue
        expr = tap_depth_expression(form, n)
        for size in range(form.start, 101):
            if math.gcd(size, form.step) == 1:
                assert _bfs_depth(size, taps) == form.depth_at(size), (taps, size)
        for size in range(form.proved_from, form.proved_from + 2 * form.span):
            assert int(expr.subs(n, size)) == form.depth_at(size), (taps, size)
        if form.start > 2 and math.gcd(form.start - 1, form.step) == 1:
            assert form.depth_at(form.start - 1) != _bfs_depth(form.start - 1, taps), taps


def test_a_count_of_one_layer_is_worded_in_the_singular():
    r = check_spec(parse_source("tokens 3\nconvolution circular(2)", "c.uap"))
    claims = {s.rule: s.claim for s in r.root.walk()}
    assert r.layers == 1
    assert claims["CONV-LAYERS"].startswith("1 convolution layer is token distinguishing")
    assert "a product of 1 trainable tap polynomial;" in claims["CONV-LAYERS"]
    assert "not at m = 0 (offset 1 is missing)" in claims["CONV-REACH"]
    r = check_spec(parse_source("tokens 9\nconvolution circular(2)", "c.uap"))
    claims = {s.rule: s.claim for s in r.root.walk()}
    assert claims["CONV-LAYERS"].startswith("4 convolution layers are token distinguishing")
    assert "not at m = 3 (offset" in claims["CONV-REACH"]



@pytest.mark.parametrize("tokens, layers", [(1, 1), (7, 1), (12, 1)])
def test_a_span_far_above_n_is_read_mod_n(tokens, layers, tmp_path):
    """`circular(l)` at an integer n: the taps 0, …, l are read mod n (every residue once when l ≥ n − 1), so a span
    of 999,999,999 is one layer, as `circular(n − 1)` is, and its certificate verifies. The taps were listed one by
    one: the memory limit ran out and the file was INCONCLUSIVE (found by fuzzing). Run through the command line,
    whose workers have a memory limit."""
    import json
    from clirun import run
    src = tmp_path / "c.uap"
    src.write_text(f"tokens {tokens}\nconvolution circular(999999999)\n")
    out = tmp_path / "c.json"
    r = run(str(src), "--format", "json", "--memory", "1G", "--certificate", str(out), "--no-cache")
    got = json.loads(r.stdout)
    assert (got["verdict"], got["layers"]) == ("UAP", layers), r.stdout[-500:]
    assert run("verify", str(out)).code == 0


def _rotations_name(size: int) -> str:
    """The rotations' group named at its length: C_2 is S_2 (docs/language.md, "Groups at a concrete n")."""
    return "S_n" if size == 2 else "C_n"
