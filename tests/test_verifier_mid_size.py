"""The verifier at mid-size n (a few hundred tokens, several heads): G's generators travel in the
certificate up to 4,096 tokens, nauty sees a labelled digraph as bit layers (n·(2b + 1) vertices, not
one per arc), rooted views whose (D − 1)-ball is every position are skipped (§11.9, R1), and a
certificate is re-checked within a CPU-time budget: the step it runs out in is reported as not
re-checked, never guessed."""
from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from uapcheck.verifier import REJECTED, TRUSTED, VERIFIED, nauty_graph, verify
from uapcheck.verifier.patterns import preserves

pynauty = pytest.importorskip("pynauty")
REPO = Path(__file__).resolve().parents[1]


def _brute_order(n: int, lab: dict, cells: list) -> int:
    colour = {v: k for k, cell in enumerate(cells) for v in cell}
    return sum(1 for images in itertools.permutations(range(1, n + 1))
               if preserves(list(images), lab) and all(colour[v] == colour[images[v - 1]] for v in range(1, n + 1)))


@pytest.mark.parametrize("seed", range(60))
def test_bit_layers_have_exactly_the_labelled_digraphs_automorphisms(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    kinds = rng.randint(1, 5)  # up to 3 bit layers
    lab = {(u, v): rng.randrange(kinds) for u in range(1, n + 1) for v in range(1, n + 1) if rng.random() < 0.35}
    cells = [set(), set()]
    for v in range(1, n + 1):
        cells[rng.random() < 0.25].add(v)
    g, _ = nauty_graph.build(n, lab, cells)
    gens = nauty_graph.position_generators(pynauty.autgrp(g)[0], n)
    for p in gens:  # every generator is an automorphism of the labelled, coloured digraph
        assert preserves(p, lab)
    from uapcheck.verifier.groups import order
    assert order(gens, n) == _brute_order(n, lab, cells)


def test_isomorphic_labelled_digraphs_get_equal_certificates_and_others_do_not():
    n = 5
    lab = {(1, 2): "a", (2, 3): "b", (3, 4): "a", (4, 5): "a", (5, 1): "b"}
    perm = [3, 5, 1, 2, 4]  # relabel the positions
    moved = {(perm[u - 1], perm[v - 1]): x for (u, v), x in lab.items()}
    other = dict(lab)
    other[(1, 2)] = "b"

    def cert(arcs):
        g, signature = nauty_graph.build(n, arcs, [set(range(1, n + 1))])
        return signature, pynauty.certificate(g)
    assert cert(lab) == cert(moved)
    assert cert(lab) != cert(other)


def test_a_graph_beyond_the_vertex_limit_is_refused_not_allocated():
    n = nauty_graph.MAX_VERTICES  # a single label: 3 vertices per position
    with pytest.raises(nauty_graph.TooLarge):
        nauty_graph.build(n, {(1, 2): 0}, [set(range(1, n + 1))])


def _run(*args):
    return subprocess.run([sys.executable, "-m", "uapcheck", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=600)


TWO_HEADS = """tokens 260
attention jumps {
  kernel k(x, y) = exp(x . y)
  pattern offsets {2, 4} cyclic
}
attention past {
  kernel k(x, y) = exp(x . y)
  pattern causal
}
"""


@pytest.fixture(scope="module")
def mid_size_certificate(tmp_path_factory):
    path = tmp_path_factory.mktemp("mid") / "two_heads.uap"
    path.write_text(TWO_HEADS, "utf-8")
    out = path.with_suffix(".json")
    p = _run(str(path), "--no-suggest", "--certificate", str(out))
    assert p.returncode == 0, p.stderr
    return out


def test_a_mid_size_least_count_and_its_group_are_re_decided(mid_size_certificate):
    # D layers suffice (least) and G is trivial, at n = 260 with a dense causal head: the group's
    # generators come from the certificate, completeness and the rooted views from nauty's bit layers
    # (one vertex per arc would be about 68,000 vertices)
    cert = json.loads(mid_size_certificate.read_text("utf-8"))
    report = verify(cert)
    steps = {s.rule: s for s in report.steps}
    assert steps["SYM-AUT"].outcome == VERIFIED and "nauty" in steps["SYM-AUT"].reason
    assert steps["PAT-LAYERS"].outcome == VERIFIED and "rooted views" in steps["PAT-LAYERS"].reason
    assert report.ok and report.complete


def test_a_layer_count_below_the_diameter_is_rejected(mid_size_certificate):
    cert = json.loads(mid_size_certificate.read_text("utf-8"))
    layers = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    d = next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")["data"]["diameter"]
    assert layers["data"]["layers"] == d and layers["data"]["least"]
    layers["data"]["layers"] = d - 1
    report = verify(cert)
    assert {s.rule: s.outcome for s in report.steps}["PAT-LAYERS"] == REJECTED and not report.ok


def test_a_certificate_out_of_its_budget_is_not_verified_and_says_where(mid_size_certificate):
    p = _run("verify", "--budget", "0.3", str(mid_size_certificate))
    assert p.returncode == 1, p.stdout + p.stderr
    assert "not re-checked: the verifier's CPU time budget of 0.3 s ran out in this step" in p.stdout
    assert "NOT FULLY VERIFIED" in p.stdout and "Traceback" not in p.stdout + p.stderr


def test_the_budget_reports_later_steps_as_trusted_in_the_api(mid_size_certificate):
    cert = json.loads(mid_size_certificate.read_text("utf-8"))
    report = verify(cert, seconds=0.05)
    outcomes = [s.outcome for s in report.steps]
    assert len(report.steps) == len(cert["steps"])
    first = outcomes.index(TRUSTED)
    assert all(o == TRUSTED for o in outcomes[first:]) and not report.ok


def test_a_timer_that_a_c_call_turns_into_its_own_error_still_reports_the_budget(mid_size_certificate, monkeypatch):
    """pynauty reads attributes from C; a timer firing there comes back as its TypeError ("missing
    'vertex_coloring' attribute"), not as the budget's exception. The verifier still reports the budget
    (TRUSTED, where it ran out), never a rejection made of that error."""
    from uapcheck.verifier import check

    import time

    def swallowing(ctx, s):
        start = time.process_time()
        try:
            while time.process_time() - start < 0.5:
                pass
        except BaseException:  # what the C call does with the timer's exception
            pass
        return REJECTED, "TypeError: missing 'vertex_coloring' attribute"
    monkeypatch.setattr(check, "_check_step", swallowing)
    cert = json.loads(mid_size_certificate.read_text("utf-8"))
    report = verify(cert, seconds=0.05)
    assert [s.outcome for s in report.steps] == [TRUSTED] * len(cert["steps"])
    assert "ran out in this step" in report.steps[0].reason
