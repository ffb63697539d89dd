"""The verifier's invariants for PAT-DISCONNECTED at symbolic n (uapcheck/verifier/invariants.py,
docs/theory.md §18.4): residues mod m, the direction of the arcs, blocks. Whenever an invariant says x_j
never reaches i, breadth-first search on the token graphs agrees at every n from max(i, j) to 40; the
checker verifies the symbolic NOT-UAP steps of such files and does not verify a witness the invariant
does not separate."""
from __future__ import annotations

import copy
import json
import random

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import build_graph
from uapcheck.parse import parse_source
from uapcheck.verifier import VERIFIED, verify
from uapcheck.verifier.invariants import separated


def _spec(patterns, tokens="n"):
    heads = "".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}\n" for p in patterns)
    return parse_source(f"tokens {tokens}\n{heads}", "t.uap")


def _reaches(patterns, n: int, j: int, i: int) -> bool:
    spec = _spec(patterns, n)
    outs: dict = {}
    for h in spec.heads:
        for a, b in build_graph(h.pattern, n, {}).arcs():  # x_a flows to b
            outs.setdefault(a, set()).add(b)
    seen, todo = {j}, [j]
    while todo:
        v = todo.pop()
        for w in outs.get(v, ()):
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return i in seen


def _random_case(rng: random.Random):
    def part():
        return rng.choice([f"offsets {{0, {rng.randint(1, 4)}}}", f"offsets {{{rng.randint(-4, -1)}, 0}}",
                           f"offsets {{{rng.choice([-4, -2, 2, 4])}, {rng.choice([-6, 6, 0])}}}",
                           f"dilated({rng.randint(1, 2)}, {rng.randint(2, 4)})", f"strided({rng.randint(2, 6)})",
                           f"blocks({rng.randint(2, 4)})", "causal", f"window({rng.randint(1, 2)})"])
    heads = [" + ".join(part() for _ in range(rng.randint(1, 3))) for _ in range(rng.choice([1, 1, 2]))]
    return heads, rng.randint(1, 9), rng.randint(1, 9)


CASES = [_random_case(random.Random(seed)) for seed in range(300)]


@pytest.mark.parametrize("heads,i,j", CASES)
def test_an_invariant_separation_is_true_at_every_n(heads, i, j):
    why = separated(_spec(heads), i, j)
    if why is None:
        return
    for n in range(max(i, j), 41):
        assert not _reaches(heads, n, j, i), (heads, i, j, n, why)


def test_the_random_cases_exercise_each_invariant():
    reasons = [separated(_spec(h), i, j) or "" for h, i, j in CASES]
    assert any("congruent mod" in r for r in reasons)
    assert any("j − i ≥ 0" in r for r in reasons) and any("j − i ≤ 0" in r for r in reasons)
    assert any("block" in r for r in reasons)


def _certificate(pattern: str) -> dict:
    text = f"tokens n\nattention {{ kernel k(x, y) = exp(x . y); pattern {pattern} }}\n"
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


@pytest.mark.parametrize("pattern", ["offsets {0, 1}", "offsets {0, 2}", "strided(3)", "blocks(3)", "dilated(1, 2)",
                                     "offsets {0, 3} + dilated(2, 3)"])
def test_symbolic_disconnection_is_verified_by_an_invariant(pattern):
    cert = _certificate(pattern)
    steps = {s.rule: s for s in verify(cert).steps}
    assert steps["PAT-DISCONNECTED"].outcome == VERIFIED and "invariant" in steps["PAT-DISCONNECTED"].reason


def test_a_witness_the_invariant_does_not_separate_is_not_verified():
    cert = _certificate("strided(3)")
    bad = copy.deepcopy(cert)
    step = next(s for s in bad["steps"] if s["rule"] == "PAT-DISCONNECTED")
    step["data"]["j"] = 4  # 4 ≡ 1 (mod 3): x_4 does reach position 1
    step["evidence"]["witness"]["j"] = 4
    assert {s.rule: s.outcome for s in verify(bad).steps}["PAT-DISCONNECTED"] != VERIFIED


def test_a_not_uap_verdict_rests_on_its_obstruction_only(monkeypatch):
    """strided(3) at symbolic n: the group step is not re-checked (trusted), but NOT-UAP rests on the
    disconnection alone, so the certificate is OK; when the obstruction itself is not re-checked, it is not."""
    from uapcheck.verifier import invariants
    from uapcheck.verifier.report import summary
    cert = _certificate("strided(3)")
    report = verify(cert)
    trusted = [s.rule for s in report.steps if s.outcome != VERIFIED]
    assert trusted == ["SYM-AUT"] and report.ok and not report.complete
    assert "the obstruction it rests on and the verdict are verified" in summary(report)
    monkeypatch.setattr(invariants, "separated", lambda spec, i, j: None)
    report = verify(cert)
    assert {s.rule: s.outcome for s in report.steps}["PAT-DISCONNECTED"] != VERIFIED and not report.ok
    assert "NOT FULLY VERIFIED" in summary(report)
