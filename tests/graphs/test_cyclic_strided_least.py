"""Theorem F67 (docs/theory.md §11.11) at a concrete length: `window(w) cyclic + strided(2w + 3)`, w ≥ 2, needs D = 3
layers, least, at every n in Theorem F26's range with s | n. The family theorem at such an n against the concrete
engine (rooted views by canonical labelling) and the common-neighbour premise on the reference arcs; the lengths that
are not multiples of s keep D + 1 = 4, sufficient; the verifier restates it at the file's length."""
from __future__ import annotations

import pytest
import sympy
from certificates import certificate_of, rejects, softmax_source

from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.spec import PatternUnion, Strided, Window
from uapcheck.verifier import verify

from .reference import attends, distances_from


def _pattern(w: int) -> PatternUnion:
    return PatternUnion((Window(w, True), Strided(2 * w + 3)))


@pytest.mark.parametrize("w, n", [(2, 77), (2, 84), (2, 91)])
def test_at_a_multiple_of_s_against_the_concrete_engine(w, n):
    theorem = families.match([_pattern(w)], sympy.Integer(n), {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F26"
    assert theorem.least and int(theorem.layers) == 3 and "F67" in theorem.why_layers
    got = concrete(_pattern(w), n)
    assert got.least and got.layers == got.diameter == 3


@pytest.mark.parametrize("w, n", [(2, 78), (2, 83), (3, 136)])
def test_elsewhere_the_count_stays_sufficient(w, n):
    theorem = families.match([_pattern(w)], sympy.Integer(n), {})
    assert isinstance(theorem, families.FamilyTheorem) and not theorem.least and int(theorem.layers) == 4
    symbolic = families.match([_pattern(w)], sympy.Symbol("n", integer=True, positive=True), {})
    assert not symbolic.least and "F67" in symbolic.open_question


def _premise(pattern, n: int) -> bool:
    pairs = attends(pattern, n)
    adj = {v: {j for (i, j) in pairs if i == v} for v in range(1, n + 1)}
    for root in adj:
        d = distances_from(adj, root)
        ball = {v for v, k in d.items() if k <= 2}
        far = sorted(v for v, k in d.items() if k == 3)
        for x, u in enumerate(far):
            for v in far[x + 1:]:
                if (v in adj[u]) != bool(adj[u] & adj[v] & ball):
                    return False
    return True


def test_the_premise_on_the_reference_arcs():
    """F67's premise where s | n, and its failure at the other residues (why the theorem needs s | n)."""
    assert _premise(_pattern(2), 84) and _premise(_pattern(3), 135)
    assert not _premise(_pattern(2), 85)


def test_the_verifier_restates_it_at_the_file_s_length():
    """At n = 700 (7 | n; about 70,000 arcs, where the closed forms answer in place of the rooted views) the engine
    states 3 layers, least, and the verifier re-checks them with its own F67 family."""
    cert = certificate_of(softmax_source("window(2) cyclic + strided(7)", 700))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is True
    report = verify(cert)
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    step["data"]["least"] = False
    assert rejects(cert, "PAT-LAYERS")


def test_the_verifier_family_off_the_multiples():
    from uapcheck.verifier.symbolic_unions import cyclic_strided
    parts = [Window(2, True), Strided(7)]
    assert cyclic_strided(parts, 700).least and cyclic_strided(parts, 700).layers == 3
    assert cyclic_strided(parts, 70).layers == 4  # below the range
    assert not cyclic_strided(parts, 701).least and cyclic_strided(parts, 701).layers == 4
    assert not cyclic_strided(parts, None).least


# ---------------------------------------------------------------------------------------------
# At symbolic n: a least flag by residue class (3, least, for s | n by F67; 4, sufficient, on the other classes)

_N = sympy.Symbol("n", integer=True, positive=True)


@pytest.mark.parametrize("w", [2, 3])
def test_the_symbolic_count_is_least_on_the_multiples_of_s(w):
    s = 2 * w + 3
    theorem = families.match([_pattern(w)], _N, {})
    assert not theorem.least and theorem.least_classes == (s, (0,))
    assert [int(theorem.layers.subs(_N, s * 20 + r)) for r in range(s)] == [3] + [4] * (s - 1)
    assert theorem.least_at(s * 20) and not any(theorem.least_at(s * 20 + r) for r in range(1, s))


@pytest.mark.parametrize("n", range(77, 92))
def test_the_classes_against_the_concrete_engine(n):
    """w = 2 through two periods from the range's start: on s | n the engine's least count is the theorem's 3; on
    the others the theorem's 4 is at least the engine's least count (it is 3 there too: O6 is open)."""
    theorem = families.match([_pattern(2)], _N, {})
    want = int(theorem.layers.subs(_N, n))
    got = concrete(_pattern(2), n)
    assert got.least and got.diameter == 3
    if theorem.least_at(n):
        assert got.layers == want == 3
    else:
        assert want == 4 and got.layers <= want


def test_the_derivation_states_the_classes(tmp_path):
    from uapcheck.cli import main
    path = tmp_path / "odd.uap"
    path.write_text(softmax_source("window(2) cyclic + strided(7)"))
    import io
    import json
    from contextlib import redirect_stdout
    out = io.StringIO()
    with redirect_stdout(out):
        main(["--format", "json", "--no-cache", "--no-suggest", str(path)])
    data = json.loads(out.getvalue())
    assert data["least"] is False and data["least_classes"] == {"modulus": 7, "residues": [0]}
    out = io.StringIO()
    with redirect_stdout(out):
        main(["--short", "--no-cache", "--no-suggest", str(path)])
    assert "3 if n mod 7 = 0, else 4 attention layers (least for n mod 7 = 0; sufficient, not shown least " \
           "otherwise)" in out.getvalue()


def test_a_budget_of_three_is_least_where_it_is_stated():
    """`layers 3`: UAP on the class 7 | n only, where 3 is least (F67), so the headline says nothing more."""
    from uapcheck.derive import check_spec
    from uapcheck.parse import parse_source
    from uapcheck.render.verdict_lines import headline, layers_least
    result = check_spec(parse_source("layers 3\n" + softmax_source("window(2) cyclic + strided(7)"), "odd3.uap"))
    assert result.verdict == "UAP" and result.layers == 3 and layers_least(result) is True
    assert "not shown least" not in headline(result)


def test_the_verifier_restates_the_classes():
    cert = certificate_of(softmax_source("window(2) cyclic + strided(7)"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least classes"] == {"modulus": 7, "residues": [0]} and step["data"]["least"] is False
    report = verify(cert)
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    for forged in (None, {"modulus": 7, "residues": [0, 1]}, {"modulus": 14, "residues": [0]}):
        cert = certificate_of(softmax_source("window(2) cyclic + strided(7)"))
        step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
        if forged is None:
            del step["data"]["least classes"]
        else:
            step["data"]["least classes"] = forged
        assert rejects(cert, "PAT-LAYERS")
    cert = certificate_of(softmax_source("window(2) cyclic + strided(7)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["least"] = True
    assert rejects(cert, "PAT-LAYERS")
    # an even stride (F56: least on every class) states no classes, and a forged set of them is rejected
    cert = certificate_of(softmax_source("window(2) cyclic + strided(6)"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert "least classes" not in step["data"]
    step["data"]["least classes"] = {"modulus": 6, "residues": [0]}
    assert rejects(cert, "PAT-LAYERS")
