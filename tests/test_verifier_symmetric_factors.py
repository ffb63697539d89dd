"""The verifier's group orders split by symmetric factors (docs/theory.md §18.3, "Orders with symmetric factors";
uapcheck/verifier/groups.py): |⟨gens⟩| = ∏ |C|! · |the action on the classes and the other points|. `pattern star`
at `tokens 400` ran out of the verifier's 60 s in SYM-AUT (SymPy's Schreier–Sims on Sym({2, …, 400})) and was
`trusted`; it now verifies within seconds, and a tampered generating set or order is still rejected."""
from __future__ import annotations

import copy
import json
import math
import random

from certificates import softmax_source

from tests.clirun import run
from uapcheck.verifier import REJECTED, VERIFIED, groups, verify


def _star_certificate(tmp_path, n: int) -> dict:
    src = tmp_path / "star.uap"
    src.write_text(softmax_source("star", n))
    out = tmp_path / "star.json"
    proc = run(str(src), "--certificate", str(out), "--no-cache", "--short")
    assert proc.code == 0, proc.stderr
    return json.loads(out.read_text())


def _sym_aut(report):
    return next(s for s in report.steps if s.rule == "SYM-AUT")


def _set_generators(cert: dict, gens: list) -> None:
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["generators"] = gens
    step["certificate"]["generators"] = gens


def test_the_star_at_400_verifies_well_within_the_budget(tmp_path):
    cert = _star_certificate(tmp_path, 400)
    path = tmp_path / "star.json"
    proc = run("verify", str(path), "--budget", "20")
    assert proc.code == 0, proc.stdout
    assert "G = stabilizer 1" in proc.stdout and "[10 verified]" in proc.stdout
    assert proc.cpu < 20
    assert _sym_aut(verify(cert)).outcome == VERIFIED


def test_the_star_with_its_cycle_dropped_is_rejected(tmp_path):
    cert = _star_certificate(tmp_path, 400)
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    swap_only = [g for g in step["data"]["generators"] if sum(1 for k, v in enumerate(g) if v != k + 1) == 2]
    assert swap_only
    bad = copy.deepcopy(cert)
    _set_generators(bad, swap_only)
    assert _sym_aut(verify(bad)).outcome == REJECTED


def test_the_star_with_another_order_is_rejected(tmp_path):
    cert = _star_certificate(tmp_path, 60)
    bad = copy.deepcopy(cert)
    step = next(s for s in bad["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["order"] = 2 * math.factorial(59)
    step["certificate"]["order"] = 2 * math.factorial(59)
    assert _sym_aut(verify(bad)).outcome == REJECTED


def _random_generators(rng: random.Random, n: int) -> list:
    gens = []
    for _ in range(rng.randint(1, 4)):
        p = list(range(1, n + 1))
        kind = rng.random()
        if kind < 0.35:
            a, b = rng.sample(range(1, n + 1), 2)
            p[a - 1], p[b - 1] = b, a
        elif kind < 0.7:
            cycle = rng.sample(range(1, n + 1), rng.randint(2, n))
            for k, v in enumerate(cycle):
                p[v - 1] = cycle[(k + 1) % len(cycle)]
        else:
            rng.shuffle(p)
        gens.append(p)
    return gens


def test_the_split_order_is_schreier_sims_on_random_generating_sets():
    rng = random.Random(20261204)
    split = 0
    for _ in range(400):
        n = rng.randint(3, 8)
        gens = tuple(tuple(g) for g in _random_generators(rng, n))
        if groups.symmetric_factors(gens, n) is None:
            continue
        split += 1
        assert groups._order(gens, n) == groups._schreier_sims(gens, n), gens
    assert split > 150


def test_a_transposition_and_a_cycle_with_non_adjacent_points_are_not_read_as_symmetric():
    # (1 3) and (1 2 3 4) generate D_4 (order 8), not S_4: 1 and 3 are not adjacent on the cycle
    gens = ((3, 2, 1, 4), (2, 3, 4, 1))
    assert groups.order([list(g) for g in gens], 4) == 8
