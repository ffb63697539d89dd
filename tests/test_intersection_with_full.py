"""`P & full` is P (issue 14, "Unbreakable"): `full` has every arc, so the intersection with it removes none
(docs/theory.md §11.13). `star & full` at `tokens 200000` was analysed as an intersection: no closed form, its
rooted views out of the budget; it is now `star`, whose closed form answers at once, and the verifier re-checks the
rewrite (PAT-NORMAL) with its own arc description."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from uapcheck import spec as S
from uapcheck.graphs.build import build_graph
from uapcheck.graphs.normal_form import meet_full, normalise

from clirun import REPO, env, run


def test_the_intersection_with_full_is_the_other_part_and_nothing_else_is_rewritten():
    assert meet_full(S.PatternIntersection((S.Star(), S.Full()))) == S.Star()
    assert meet_full(S.PatternIntersection((S.Full(), S.Window(2, False), S.Full()))) == S.Window(2, False)
    assert meet_full(S.PatternIntersection((S.Full(), S.Full()))) == S.Full()
    assert meet_full(S.PatternIntersection((S.Causal(), S.Window(2, False)))) is None
    assert meet_full(S.PatternIntersection((S.Causal(), S.Window(2, False), S.Full()))) is None
    got = normalise(S.PatternIntersection((S.Star(), S.Full())))
    assert got.pattern == S.Star() and "full" in got.reasons[0]


@pytest.mark.parametrize("part", [S.Star(), S.Window(2, False), S.Causal(), S.Blocks(3), S.Strided(4)])
def test_the_rewrite_keeps_every_arc(part):
    for n in range(1, 13):
        meet = build_graph(S.PatternIntersection((part, S.Full())), n)
        assert set(meet.arcs()) == set(build_graph(part, n).arcs()), (part, n)


def test_star_and_full_at_200000_is_star_and_its_certificate_verifies(tmp_path):
    out = {}
    for name, pattern in (("meet", "star & full"), ("star", "star")):
        path = tmp_path / f"{name}.uap"
        path.write_text(f"tokens 200000\nattention {{ kernel k(x, y) = exp(x . y)\n pattern {pattern} }}\n")
        cert = tmp_path / f"{name}.json"
        r = run("--format", "json", "--budget", "60", "--memory", "1G", "--certificate", str(cert), str(path))
        assert r.code == 0 and r.cpu < 30, r.stderr
        out[name] = json.loads(r.stdout)
        checked = subprocess.run([sys.executable, "-m", "uapcheck", "verify", str(cert)], capture_output=True,
                                 text=True, cwd=REPO, env=env(), timeout=300)
        assert "PAT-NORMAL        verified" in checked.stdout or name == "star", checked.stdout
        assert "rejected" not in checked.stdout.lower(), checked.stdout
    assert out["meet"]["verdict"] == out["star"]["verdict"] == "UAP"
    assert out["meet"]["layers"] == out["star"]["layers"] == 2
    assert out["meet"]["group"] == out["star"]["group"]
