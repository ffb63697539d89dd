"""`uapcheck verify` on the family theorems at symbolic n (docs/theory.md §11.11) and the kernel routes of
§20 (positivity of 1/sqrt(1 + |x − y|²), analyticity of exp(−|x − y|) off q = ±k): the verifier's own
table re-matches the family, checks the range and every value, and re-checks instances on its own arcs;
a forged claim is rejected naming its step."""
from __future__ import annotations

import pytest
from certificates import certificate, certificate_of, rejects

from uapcheck import certfile
from uapcheck.parse import parse_source
from uapcheck.verifier import NUMERIC, REJECTED, TRUSTED, VERIFIED, families, verify

FAMILY_FILES = {"longformer_global_n.uap": "F2", "star_transformer_n.uap": "F3", "blocks_global_n.uap": "F4",
                "window_strided_n.uap": "F7", "cyclic_two_jumps.uap": "F8", "cyclic_window_global_n.uap": "F10",
                "dilated_window_n.uap": "F9", "cyclic_symmetric_two_jumps.uap": "F12",
                "window_strided_sparse_n.uap": "F14",
                "window_strided2_n.uap": "F7"}


def _symbolic(pattern: str) -> str:
    return f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


def _step(cert, rule):
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("name, theorem", sorted(FAMILY_FILES.items()))
def test_the_family_steps_rest_on_the_verifier_s_own_theorem(name, theorem):
    report = verify(certificate(name))
    assert report.ok and report.complete
    for s in report.steps:
        if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
            assert s.outcome == VERIFIED and f"Theorem {theorem}" in s.reason and "instances" in s.reason


@pytest.mark.parametrize("pattern", ["global(2)", "window(1) + global(1)", "window(3) + strided(2)",
                                     "blocks(2) + global(3)", "blocks(3) + global(2)", "window(2) cyclic + global(3)"])
def test_other_members_of_the_families_are_rechecked(pattern):
    report = verify(certificate_of(_symbolic(pattern)))
    assert report.problems == []
    assert [(s.rule, s.reason) for s in report.steps if s.outcome not in (VERIFIED, NUMERIC)] == []


def test_the_table_matches_by_the_theorems_hypotheses():
    def fam(pattern):
        return families.match(parse_source(_symbolic(pattern), "t.uap"))
    assert fam("window(2) + global(1)").low == 8              # g + 2w + 3
    assert fam("window(1) cyclic + global(1)").low == 6
    assert fam("window(3) cyclic + global(1)").theorem == "F10"  # g < w: F10, n ≥ 3w + 3
    assert fam("window(3) cyclic + global(1)").low == 12
    assert fam("blocks(4) + global(1)").low == 9              # b(⌊g/b⌋ + 2) + 1
    assert fam("blocks(1) + global(1)") is None               # F4 needs b ≥ 2
    assert fam("window(2) + strided(3)").low == 33            # s(4w + 3)
    assert fam("window(1) + strided(3)").theorem == "F11"     # w + 2 ≤ s ≤ 2w + 1
    assert fam("window(1) + strided(3)").low == 21            # s(4w + 3)
    assert fam("window(1) + strided(4)").low == 28            # s ≥ 2w + 2: F14, s(4w + 3)
    assert fam("window(3) + strided(4)").low == 60            # max(s(4w + 3), 6w + 4s + 1) for the layers
    assert fam("window(3) + strided(4)").least
    assert fam("window(7) + strided(8)").least                # s ≥ 8: the colour refinement (6″)
    assert fam("window(7) + strided(8)").low == 248           # max(s(4w + 3), 6w + 4s + 1)
    assert fam("window(2) + dilated(2, 2)").low == 12         # F9: max(2L + 1, 2L + μ + 1), L = 4, μ = 3
    assert fam("window(1) + dilated(2, 4)").theorem == "F15"  # r > w + 1
    assert fam("window(1) + dilated(2, 4)").low == 31
    assert fam("window(1) + dilated(8, 12)") is None          # F15's base case is not settled by R ≤ 6


def test_the_strided_base_case_by_colour_refinement():
    # docs/theory.md §11.11, F7 (3): radius w − 1 is too small for (w, s) = (2, 3), where (2 3) is an
    # automorphism of the radius-1 ball; every w ≤ 4 and 2 ≤ s ≤ w + 1 succeeds by radius w + 4
    assert not families._cross_ball_separates(2, 3, 1)
    for w in range(1, 5):
        for s in range(2, w + 2):
            assert any(families._cross_ball_separates(w, s, r) for r in range(max(1, w - 1), w + 5)), (w, s)


def test_forged_family_claims_are_rejected():
    cert = certificate("longformer_global_n.uap")
    _step(cert, "PAT-CONNECTED")["data"]["diameter"] = 3
    assert rejects(cert, "PAT-CONNECTED")
    cert = certificate("longformer_global_n.uap")
    _step(cert, "PAT-CONNECTED")["data"]["from"] = 7  # at n = 7 two layers suffice (§11.11): the range is F2's
    assert rejects(cert, "PAT-CONNECTED")
    cert = certificate("star_transformer_n.uap")
    _step(cert, "PAT-LAYERS")["data"]["layers"] = 2
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("window_strided_n.uap")
    _step(cert, "PAT-LAYERS")["data"]["least"] = False  # F7, step (6): D = 2 layers, least
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("window_strided_n.uap")
    _step(cert, "PAT-LAYERS")["data"]["layers"] = 3
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("window_strided2_n.uap")
    _step(cert, "PAT-LAYERS")["data"]["layers"] = 1  # F7 with s = 2: D = 2 layers, least
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("window_strided2_n.uap")
    _step(cert, "PAT-LAYERS")["data"]["least"] = False
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("window_strided_n.uap")
    _step(cert, "SYM-AUT")["data"]["name"] = "D_n"
    assert rejects(cert, "SYM-AUT")
    cert = certificate("blocks_global_n.uap")
    case = _step(cert, "SYM-AUT")["data"]["order cases"][0]
    case["order"] = {"op": "*", "args": [2, case["order"]]}
    assert rejects(cert, "SYM-AUT")


def test_a_family_theorem_at_a_real_size_is_rechecked_by_the_verifier_s_table():
    """window(2) + strided(3) at 4,096 tokens: F7 at n = 4096, no token graph (docs/theory.md §11.11)."""
    cert = certificate("window_strided_4096.uap")
    report = verify(cert)
    assert report.ok and report.complete
    for s in report.steps:
        if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
            assert s.outcome == VERIFIED and "Theorem F7" in s.reason and "n = 4096" in s.reason
    cert = certificate("window_strided_4096.uap")
    _step(cert, "PAT-LAYERS")["certificate"]["claims"]["least"] = False
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("window_strided_4096.uap")
    _step(cert, "PAT-LAYERS")["data"]["layers"] = 1
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("window_strided_4096.uap")
    _step(cert, "SYM-AUT")["data"]["order"] = 4
    assert rejects(cert, "SYM-AUT")
    cert = certificate("window_strided_4096.uap")
    # below F7's range n ≥ 33 and F164's n ≥ 6w + 4s + 1 = 25 (at 25 ≤ n < 33 F164 proves the same values)
    text = cert["input"]["text"].replace("tokens 4096", "tokens 24")
    cert["input"]["text"] = text
    cert["input"]["sha256"] = certfile.source_hash(text)
    assert not verify(cert).ok


@pytest.mark.parametrize("pattern, theorem", [("window(2) cyclic + global(1)", "F10"),
                                              ("window(1) cyclic + global(1)", "F3")])
def test_a_group_named_at_a_real_size_is_the_theorem_s(pattern, theorem):
    """At an integer n the group is named with that n ("the reflection of {2, …, 1048576}"); the verifier
    reads it as the theorem's name at symbolic n (it rejected it before)."""
    cert = certificate_of("tokens 1048576\n" + _symbolic(pattern))
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    sym = next(s for s in report.steps if s.rule == "SYM-AUT")
    assert sym.outcome == VERIFIED and f"Theorem {theorem}" in sym.reason
    forged = certificate_of("tokens 1048576\n" + _symbolic(pattern))
    _step(forged, "SYM-AUT")["data"]["name"] = "the reflection of {3, …, 1048576}"
    assert rejects(forged, "SYM-AUT")


@pytest.mark.parametrize("pattern, position, swap", [("window(2) cyclic + global(1)", 100000, (3, 4)),
                                                      ("window(3) cyclic + global(2)", 100000, (4, 5))])
def test_a_quoted_view_witness_at_a_real_size_is_the_theorem_s(pattern, position, swap):
    """F10 at n = 100,000: PAT-LAYERS quotes the swap (w+1 w+2) at position n as its view witness; the verifier
    compares it with its own restatement of the theorem's witness, so a changed swap or position is rejected."""
    text = "tokens 100000\n" + _symbolic(pattern)
    cert = certificate_of(text)
    quoted = _step(cert, "PAT-LAYERS")["data"]["view witness"]
    assert quoted["position"] == position
    assert [k for k, v in enumerate(quoted["permutation"], 1) if v != k] == list(swap)
    report = verify(cert)
    assert report.ok and report.complete
    forged = certificate_of(text)
    _step(forged, "PAT-LAYERS")["data"]["view witness"]["position"] = position - 1
    assert rejects(forged, "PAT-LAYERS")
    forged = certificate_of(text)
    perm = _step(forged, "PAT-LAYERS")["data"]["view witness"]["permutation"]
    a, b = swap
    perm[a - 1], perm[b - 1] = a, b  # the identity: no witness at all
    perm[b], perm[b + 1] = b + 2, b + 1  # another swap, further right
    assert rejects(forged, "PAT-LAYERS")


def test_an_order_too_large_to_restate_is_trusted_not_rejected():
    """star at 1,048,576 tokens: G = S_1048575 on {2, …, 1048576}, of order 1048575!, stated only as text: the
    verifier checks the name and leaves the order trusted, naming why (it was a malformed-data rejection)."""
    report = verify(certificate_of("tokens 1048576\n" + _symbolic("star")))
    sym = next(s for s in report.steps if s.rule == "SYM-AUT")
    assert sym.outcome == TRUSTED and "stated only as text" in sym.reason
    assert [s.rule for s in report.steps if s.outcome == REJECTED] == []


def test_a_diameter_by_residue_is_rechecked_for_every_residue():
    """F11 (docs/theory.md §11.11): window(2) + strided(5) has D = 3 exactly when n mod 5 ∈ {0, 1, 4}; the
    certificate writes D by residue with floors, and the verifier compares it in every residue class."""
    cert = certificate_of(_symbolic("window(2) + strided(5)"))
    report = verify(cert)
    assert report.ok and report.complete
    assert all(s.outcome == VERIFIED and "Theorem F11" in s.reason for s in report.steps
               if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"))
    assert [int(families.match(parse_source(_symbolic("window(2) + strided(5)"), "t.uap")).d(n))
            for n in range(55, 60)] == [3, 3, 2, 2, 3]
    forged = certificate_of(_symbolic("window(2) + strided(5)"))
    _step(forged, "PAT-CONNECTED")["data"]["diameter"] = 2  # not 2 at n ≡ 0, 1, 4
    assert rejects(forged, "PAT-CONNECTED")
    forged = certificate_of(_symbolic("window(2) + strided(5)"))
    _step(forged, "PAT-LAYERS")["data"]["least"] = False  # F53 proves 3 layers least at every n
    assert rejects(forged, "PAT-LAYERS")
    forged = certificate_of(_symbolic("window(2) + strided(5)"))
    _step(forged, "PAT-LAYERS")["data"]["layers"] = 2  # one too low: the swap (5 8) is a witness at 2 layers
    assert rejects(forged, "PAT-LAYERS")


def test_a_changed_family_parameter_is_rejected():
    cert = certificate("longformer_global_n.uap")
    text = cert["input"]["text"].replace("window(2) + global(1)", "window(3) + global(1)")  # low 10, not 8
    cert["input"]["text"] = text
    cert["input"]["sha256"] = certfile.source_hash(text)
    assert rejects(cert, "PAT-CONNECTED")


def test_the_kernel_routes_are_verified():
    imq = verify(certificate("inverse_multiquadric.uap"))
    assert [s.outcome for s in imq.steps if s.rule in ("WP-POSITIVE", "AN-STRUCT")] == [VERIFIED, VERIFIED]
    lap = verify(certificate("laplacian.uap"))
    an = next(s for s in lap.steps if s.rule == "AN-STRUCT")
    assert an.outcome == VERIFIED and "§20.4" in an.reason


def test_a_kernel_that_is_not_analytic_off_the_diagonal_is_not_verified():
    cert = certificate("laplacian.uap")
    text = cert["input"]["text"].replace("exp(-|x - y|)", "exp(-|x|)")  # |x| is not analytic at x = 0
    cert["input"]["text"] = text
    cert["input"]["sha256"] = certfile.source_hash(text)
    report = verify(cert)
    an = next(s for s in report.steps if s.rule == "AN-STRUCT")
    assert an.outcome in (TRUSTED, REJECTED) and not report.ok
    cert = certificate("inverse_multiquadric.uap")
    text = cert["input"]["text"].replace("1 / sqrt(1 + |x - y|^2)", "1 / sqrt(|x - y|^2)")
    cert["input"]["text"] = text
    cert["input"]["sha256"] = certfile.source_hash(text)
    report = verify(cert)
    assert next(s for s in report.steps if s.rule == "WP-POSITIVE").outcome != VERIFIED and not report.ok
