"""`P & full` is P (issue 14, "Unbreakable"): `full` has every arc, so the intersection with it removes none
(docs/theory.md §11.13). `star & full` at `tokens 200000` was analysed as an intersection: no closed form, its
rooted views out of the budget; it is now `star`, whose closed form answers at once, and the verifier re-checks the
rewrite (PAT-NORMAL) with its own arc description."""
from __future__ import annotations

import copy
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
    # several parts left: their intersection (it was analysed as written, `full` and all)
    assert meet_full(S.PatternIntersection((S.Causal(), S.Window(2, False), S.Full()))) == \
        S.PatternIntersection((S.Causal(), S.Window(2, False)))
    union = S.PatternUnion((S.Window(1, False), S.Star()))
    assert meet_full(S.PatternIntersection((union, S.Full()))) == union
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


def _head(pattern: str, extra: str = "", n: str = "n") -> str:
    return f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n{extra}}}\n"


def _summary(text: str) -> tuple:
    import uapcheck
    r = uapcheck.check(text, "t.uap")
    alt = r.alternative
    return (r.verdict, None if r.group is None else r.group.name, r.layers,
            None if alt is None else (alt.target, alt.verdict, alt.layers, alt.least, alt.range))


@pytest.mark.parametrize("written,plain", [
    ("full & full", "full"), ("window(1) + full", "full"), ("window(2) + (full & full)", "full"),
    ("(window(1) + star) & full", "window(1) + star"), ("full & window(1) & causal", "window(1) & causal"),
    ("window(2) + (star & full)", "window(2) + star")])
@pytest.mark.parametrize("bias", ["", "  bias circulant\n", "  bias toeplitz\n"])
def test_every_rule_reads_the_rewritten_head_as_the_pattern_it_is(written, plain, bias):
    """A head `P & full` (or a union with `full`) is read as P (`full`) before any rule runs: `full & full` with a
    circulant bias stated 2 layers, sufficient, where `full` states 1, least; `full & window(1) & causal` was
    INCONCLUSIVE for causal targets. The answers are now the plain pattern's."""
    assert _summary(_head(written, bias)) == _summary(_head(plain, bias))


def test_the_rewrite_is_a_premise_of_the_verdict_and_the_verifier_rechecks_it():
    from certificates import certificate_of  # tests/ is on sys.path
    from uapcheck.verifier import verify
    for text in (_head("full & full", "  bias circulant\n"), _head("full & window(1) & strided(2)", n="12"),
                 _head("(window(1) + star) & full", n="12"), _head("window(2) + (full & full)")):
        cert = certificate_of(text)
        normal = [s for s in cert["steps"] if s["rule"] == "PAT-NORMAL"]
        assert len(normal) == 1, text
        report = verify(cert)
        assert not report.rejected, (text, report.rejected)
        assert next(s.outcome for s in report.steps if s.id == normal[0]["id"]) == "verified", text
    cert = certificate_of(_head("(window(1) + star) & full", n="12"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-NORMAL")
    assert {"as written": 1, "path": [1, 1]} in step["certificate"]["heads"][0]["parts"]
    forged = copy.deepcopy(cert)  # the path names the intersection's `full` part: not the arcs of the written head
    part = next(p for p in next(s for s in forged["steps"] if s["rule"] == "PAT-NORMAL")["certificate"]["heads"][0]
                ["parts"] if p.get("path") == [1, 1])
    part["path"] = [2]
    report = verify(forged)
    assert any(s.rule == "PAT-NORMAL" for s in report.rejected) or not report.ok
