"""Theorem F186 of docs/theory.md §11.11: several heads made of blocks, non-cyclic line parts and hubs whose symmetries
exchange residue classes (periodic symmetries of the arc-coloured line). Every class's closed form against the concrete
engine (graphs, BLISS) at every n ≤ 60 in its range, its maps against every head's arcs there, for random unions drawn
with a fixed seed; orders against a count over S_n written in the tests at n ≤ 9; the named values; and the verifier's
restatement, which accepts the catalog-style certificate and rejects forged ones."""
from __future__ import annotations

import functools
import random
import sys
from pathlib import Path

import pytest
import sympy

from uapcheck.graphs import coloured_lines as CL
from uapcheck.graphs import residue_exchanging_unions as RX
from uapcheck.graphs.build import build_graph
from uapcheck.graphs.closed_groups import closed_group
from uapcheck.graphs.symmetry import symmetry_group
from uapcheck.spec import Blocks, Dilated, Global, Offsets, PatternUnion, Star, Window

from sample_sizes import sample_size  # tests/ is on sys.path

from .reference import attends, count_automorphisms

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from certificates import heads_certificate, rejects  # noqa: E402

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


_LINE = [Window(1), Window(2), Dilated(1, 2), Dilated(2, 2), Dilated(1, 3), Dilated(2, 3), Dilated(3, 3),
         Offsets((1,)), Offsets((-1,)), Offsets((2,)), Offsets((3,)), Offsets((4,)), Offsets((5,)), Offsets((6,)),
         Offsets((-2, 2)), Offsets((-3, 3)), Offsets((-4, 4)), Offsets((-6, 6))]
_BLOCKS = [Blocks(2), Blocks(3), Blocks(4), Blocks(5), Blocks(6)]
_HUBS = [Star(), Global(2)]


def _random_head(rng):
    parts = []
    if rng.random() < 0.6:
        parts.append(rng.choice(_BLOCKS))
    parts += rng.sample(_LINE, rng.choice((0, 1, 1, 2)))
    if rng.random() < 0.3:
        parts.append(rng.choice(_HUBS))
    if not parts:
        parts.append(rng.choice(_LINE))
    return parts[0] if len(parts) == 1 else U(*parts)


def _decided(count, seed):
    """Random unions whose closed form is Theorem F186's (F180's own certificate fails for them)."""
    rng = random.Random(seed)
    out = []
    for _ in range(2000):
        if len(out) == count:
            break
        heads = tuple(dict.fromkeys(_random_head(rng) for _ in range(rng.choice((2, 2, 3)))))
        if len(heads) < 2 or CL.decide(list(heads), {}) is not None:
            continue
        form = closed_group(list(heads), N)
        if form is None or not form.cases or not isinstance(form.cases[0].intersection, tuple) \
                or form.cases[0].intersection[0] != RX.GROUP_KIND:
            continue
        out.append((heads, form, form.cases[0].intersection[1]))
    return out


#: the unions drawn: 10 in the normal run, the 20 of the full sample with UAPCHECK_NIGHTLY=1 (the first 10 are the same)
UNIONS = sample_size(10, 20)


@functools.lru_cache(maxsize=1)
def decided() -> list:
    """The unions, drawn when a test first asks (not at import: collecting the suite stays fast)."""
    return _decided(UNIONS, seed=186)


def test_the_random_unions_are_decided():
    assert len(decided()) == UNIONS
    assert any(len(c.maps) > 2 for _, _, found in decided() for c in found.classes)  # residue exchanges occur


def _class_at(found, n):
    c = found.classes[n % found.period]
    return c if n >= c.low else None


@pytest.mark.parametrize("index", range(UNIONS))
def test_closed_form_matches_concrete_engine_at_every_n(index):
    heads, form, found = decided()[index]
    covered = 0
    for n in range(2, NMAX + 1):
        case = form.at({N: n})
        c = _class_at(found, n)
        if c is None:
            continue
        assert case is not None and case.intersection[2] == c.residue, (heads, n)
        covered += 1
        graphs = [build_graph(h, n) for h in heads]
        got = symmetry_group(graphs)
        assert int(case.order) == got.order == len(c.maps), (heads, n, case.order, got.order)
        pairs = [attends(h, n) for h in heads]
        for m in c.maps:  # every map of the class is a symmetry of every head at n (the generators checked)
            p = m.perm(n)
            assert p is not None and all({(p[i - 1], p[j - 1]) for i, j in s} == s for s in pairs), (heads, n, m)
    assert covered >= 30, (heads, covered)


def _brute_order(heads, n):
    pairs = [attends(h, n) for h in heads]
    return count_automorphisms(n, lambda u, v: tuple((v, u) in p for p in pairs))


SMALL = [(Offsets((2,)), Blocks(2)), (U(Blocks(2), Dilated(1, 2)), Blocks(2)), (Offsets((4,)), Blocks(4)),
         (Blocks(3), U(Dilated(1, 3), Star()))]


def test_orders_against_brute_force_at_small_n():
    """A count over S_n (partial maps extended position by position) at every n ≤ 12 in a class's range."""
    checked = 0
    for heads in SMALL + [h for h, _, _ in decided()]:
        found = RX.decide(list(heads), {})
        for n in range(8, 13):
            c = _class_at(found, n)
            if c is not None:
                assert len(c.maps) == _brute_order(heads, n), (heads, n)
                checked += 1
    assert checked >= 10


def test_blocks_exchanged_beside_a_star():
    """blocks(5) | offsets {5} | star: the star's hub 1 is fixed, every permutation of the residues 2..5 mod 5 applied
    in every block keeps the blocks and the links i → i + 5, and the last partial block keeps its residues."""
    form = closed_group([Blocks(5), Offsets((5,)), Star()], N)
    want = {0: 24, 1: 24, 2: 6, 3: 4, 4: 6}
    for n in range(40, 52):
        assert form.at({N: n}).order == want[n % 5]
    assert form.at({N: 45}).structure == "S_4 on the classes of 2, 3, 4, 5 mod 5"
    assert form.at({N: 48}).structure == "S_2 on the classes of 2, 3 mod 5 × S_2 on the classes of 4, 5 mod 5"
    assert form.at({N: 1_048_576}).order == 24
    found = RX.decide([Blocks(5), Offsets((5,)), Star()], {})
    assert (found.period, found.radius, found.proved_low, len(found.symmetries)) == (5, 1, 59, 120)


def test_named_reversal_and_hub_diagonal():
    form = closed_group([Blocks(4), Dilated(3, 2)], N)
    assert form.at({N: 100}).order == 4 and form.at({N: 100}).structure.startswith(
        "(S_2 on the classes of 1, 2 mod 2) × C_2 generated by the reversal")
    assert form.at({N: 101}).name == "trivial"
    form = closed_group([Blocks(6), Offsets((3,)), Global(2)], N)
    case = form.at({N: 60})
    assert case.order == 2 and case.structure == ("C_2 generated by (1 2) on the hubs and (4 5) on the classes mod 3 "
                                                  "of {3, …, n}")


def test_twins_and_split_lines_are_not_certified():
    """Twins in every period (blocks(5) + offsets {2} | blocks(4)) and a line that falls apart (dilated(3, 3) |
    global(2)) are beyond the theorem: undecided."""
    assert RX.decide([U(Blocks(5), Offsets((2,))), Blocks(4)], {}) is None
    assert RX.decide([Dilated(3, 3), Global(2)], {}) is None


@pytest.fixture(scope="module")
def exchange_certificate():
    return heads_certificate("blocks(5)", "offsets {5}", "star")


def test_verifier_accepts(exchange_certificate):
    from uapcheck.verifier import verify
    report = verify(exchange_certificate)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    step = next(s for s in report.steps if s.rule == "SYM-AUT")
    assert "Theorem F186" in step.reason


def _forged(cert, forge):
    import copy
    cert = copy.deepcopy(cert)
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    forge(step)
    return rejects(cert, "SYM-AUT")


def _first_class(step):
    return step["certificate"]["classes"][0]["certificate"]


def test_verifier_rejects_forged_certificates(exchange_certificate):
    def drop_map(step):
        _first_class(step)["class"]["maps"].pop()

    def lower_bound(step):
        _first_class(step)["class"]["from"] -= 5

    def drop_symmetry(step):
        _first_class(step)["symmetries"].pop()

    def radius(step):
        _first_class(step)["radius"] += 1

    def order(step):
        for cls in step["data"]["classes"]:
            cls["order"] = 12
    for forge in (drop_map, lower_bound, drop_symmetry, radius, order):
        assert _forged(exchange_certificate, forge), forge.__name__


def test_verifier_at_a_concrete_length():
    """At n = 1,048,576 (≡ 1 mod 5) the class's group is read without arcs: S_4, verified by the restatement."""
    import json

    import uapcheck
    from uapcheck import certfile
    from uapcheck.verifier import verify
    text = "tokens 1048576\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n"
                                        for p in ("blocks(5)", "offsets {5}", "star"))
    result = uapcheck.check(text, "t.uap")
    assert result.to_dict()["verdict"] == "UAP"
    cert = json.loads(json.dumps(certfile.build(result, text)))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    assert step["certificate"]["kind"] == "residue exchanging heads" and step["certificate"]["n"] == 1_048_576
    report = verify(cert)
    assert report.ok and report.complete
    step["certificate"]["n"] = 1_048_575  # another class
    assert rejects(cert, "SYM-AUT")
