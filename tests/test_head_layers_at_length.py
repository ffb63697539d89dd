"""Several heads' least count read at a concrete length (docs/theory.md §11.11, Theorems F70 and F125 (b)), in the
certificate file and the verifier: a diameter by residue class of n is written as floors (exact) so that it
encodes, and a union whose group depends on n mod s has its order compared with the heads' class by class (n = L·k +
r), not at a plain symbol. Checked a second way: the diameters by BFS on the reference arcs and the concrete engine's
least counts at small n; the verifier rejects the certificates tampered."""
from __future__ import annotations

import json

import pytest
import sympy
from graphs.brute_views import diameter, neighbourhoods  # tests/graphs (tests/ is on sys.path)

import uapcheck
from uapcheck import certfile
from uapcheck.certfile import _without_residue_cases
from uapcheck.verifier import REJECTED, VERIFIED, verify

BIG = 1_048_576
N = sympy.Symbol("n", integer=True, positive=True)
WINDOW_DILATED = ("window(3)", "dilated(2, 2)")   # F70 with the union's D = ⌊n/4⌋ + [n mod 4 ∈ {2, 3}]
CYCLIC_STRIDED = ("window(2) cyclic", "strided(6)")  # F70 with F26's union, |G| = 2n if 6 | n, else 2


def _source(tokens, patterns) -> str:
    return f"tokens {tokens}\n" + "".join(
        f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n" for p in patterns)


def _cert(tokens, patterns) -> dict:
    text = _source(tokens, patterns)
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "h.uap"), text)))


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def _report(cert: dict) -> dict:
    report = verify(cert)
    return {"ok": report.ok, "steps": {s.rule: (s.outcome, s.reason) for s in report.steps}, "problems": report.problems}


def test_a_diameter_by_residue_class_is_written_as_floors_exactly():
    d = sympy.Piecewise((sympy.floor(N / 4) + 1, sympy.Eq(sympy.Mod(N, 4), 2) | sympy.Eq(sympy.Mod(N, 4), 3)),
                        (sympy.floor(N / 4), True))
    floors = _without_residue_cases(d)
    assert not floors.has(sympy.Piecewise)
    for v in range(1, 200):
        assert floors.subs(N, v) == d.subs(N, v)


@pytest.mark.parametrize("n", range(12, 24))
def test_the_union_diameter_against_bfs(n):
    """window(3) | dilated(2, 2): D = ⌊n/4⌋ + 1 on n mod 4 ∈ {2, 3}, else ⌊n/4⌋ (BFS on the reference arcs)."""
    want = n // 4 + (1 if n % 4 in (2, 3) else 0)
    assert diameter(neighbourhoods(WINDOW_DILATED, n), n) == want


@pytest.mark.parametrize("n", [20, 21, 22, 23])
def test_the_count_against_the_concrete_engine(n):
    got = uapcheck.check(_source(n, WINDOW_DILATED), "h.uap")
    assert got.verdict == "UAP" and got.layers == n // 4 + (1 if n % 4 in (2, 3) else 0)


def test_window_and_dilated_heads_at_a_large_length_encode_and_verify():
    """It stopped with an internal error: the diameter, a Piecewise, had no tree form."""
    result = uapcheck.check(_source(BIG, WINDOW_DILATED), "h.uap")
    assert result.verdict == "UAP" and result.layers == BIG // 4 and result.group.name == "reflection"
    from uapcheck.render.verdict_lines import headline
    assert headline(result) == "UAP · G = reflection · 262144 attention layers"
    cert = _cert(BIG, WINDOW_DILATED)
    report = _report(cert)
    assert report["ok"], report
    outcome, why = report["steps"]["PAT-LAYERS"]
    assert outcome == VERIFIED and "F70" in why and "262144 layers" in why


def test_cyclic_window_and_strided_heads_at_a_large_length_verify():
    """The verifier rejected the engine's own certificate (the union's order, which depends on n mod 6, was read at
    a plain symbol: "Cannot convert symbols to int"); it now compares the orders on each class mod 6."""
    result = uapcheck.check(_source(BIG, CYCLIC_STRIDED), "h.uap")
    assert result.verdict == "UAP" and result.layers == 3 and result.group.name == "reflection"
    report = _report(_cert(BIG, CYCLIC_STRIDED))
    assert report["ok"], report
    outcome, why = report["steps"]["PAT-LAYERS"]
    assert outcome == VERIFIED and "every class mod 6" in why


@pytest.mark.parametrize("tamper", ["layers", "diameter", "class order", "from"])
def test_the_verifier_rejects_the_tampered_certificate(tamper):
    cert = _cert(BIG, CYCLIC_STRIDED)
    step = _step(cert, "PAT-LAYERS")
    if tamper == "layers":
        step["data"]["layers"] = 2
        step["certificate"]["layers"] = 2
    elif tamper == "diameter":
        step["data"]["diameter"] = 2
    elif tamper == "class order":  # the heads' group on 6 | n stated as the reflection only
        step["certificate"]["intersection"]["classes"][0] = dict(
            step["certificate"]["intersection"]["classes"][1], residue=0)
    else:
        step["certificate"]["from"] = 7
    report = _report(cert)
    assert not report["ok"] and report["steps"]["PAT-LAYERS"][0] == REJECTED, report


@pytest.mark.parametrize("patterns", [WINDOW_DILATED, CYCLIC_STRIDED])
def test_the_symbolic_length_certificates_verify(patterns):
    report = _report(_cert("n", patterns))
    assert report["ok"], report
    assert report["steps"]["PAT-LAYERS"][0] == VERIFIED
