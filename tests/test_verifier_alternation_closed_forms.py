"""The verifier re-checks Sparse Transformer's alternations (docs/theory.md §21.7, Theorems F133, F134;
SEQ-ALTERNATION-LAYERS and -GROUP) at 1,048,576 tokens by its own closed-form arithmetic: reach sets as intervals,
residue classes and blocks (verifier/alternations.py, `Reach`), and the view witness (x x + 1), x ∈ {a} or the class
of a, on those sets (`witness_closed`). Before, it grew explicit sets of a million positions per class or block and
ran out of its 60 s budget: the steps were reported trusted and the certificate NOT FULLY VERIFIED.

The closed forms are compared here with the same sets written out position by position (each N(v) from the pattern's
definition) at every small n of the theorems' ranges; forged certificates at 1,048,576 tokens are rejected."""
from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, rejects  # noqa: E402

from uapcheck.verifier import alternations as A  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402

BIG = 1 << 20


def _alternations():
    for w in range(1, 5):
        for s in range(2, w + 2):
            for n in range(2 * w + 2, 2 * w + 2 + 2 * s + 3):
                for order in (("window", "strided"), ("strided", "window")):
                    yield A.Alt(n, "strided", w, s, order)
    for b in range(2, 6):
        for c in range(1, b):
            for k in range(2, 5):
                for order in (("blocks", "columns"), ("columns", "blocks")):
                    yield A.Alt(b * k, "fixed", b, c, order)


def test_closed_form_reach_sets_are_the_position_by_position_ones():
    for alt in _alternations():
        for start in range(3):
            for layers in range(1, 5):
                for i in range(1, alt.n + 1):
                    got = A.reach(alt, i, layers, start)
                    want = A.reach_by_positions(alt, i, layers, start)
                    assert {j for j in range(1, alt.n + 1) if j in got} == want, (alt.kinds, alt.n, i, layers, start)
                    assert got.full == (len(want) == alt.n)
                assert A.connects_all(alt, start, layers) == A.connects_all_by_positions(alt, start, layers), \
                    (alt.kinds, alt.n, alt.p, alt.q, start, layers)


def _exchange(n: int, xs) -> list:
    perm = list(range(1, n + 1))
    for x in xs:
        perm[x - 1], perm[x] = x + 1, x
    return perm


def test_the_closed_form_witness_never_accepts_what_the_definition_rejects():
    """Every single exchange (a a + 1) and every class exchange, at depths 1 to 4: the closed form accepts only what the
    definition accepts, and agrees with it exactly on the shapes it covers (a single exchange, or a class of a < s, that
    fixes position 1: a witness fixes the position whose view it keeps, which also puts it outside the reflection)."""
    for alt in _alternations():
        if alt.family != "strided":
            continue
        for a in range(1, alt.n):
            for xs in ([a], list(range(a, alt.n, alt.q))):
                perm = _exchange(alt.n, xs)
                for depth in range(1, 5):
                    closed = A.witness_closed(alt, perm, 1, depth)
                    by_positions = A.witness_by_positions(alt, perm, 1, depth)
                    assert not closed or by_positions, (alt.kinds, alt.n, alt.p, alt.q, xs, depth)
                    if (len(xs) == 1 or a < alt.q) and perm[0] == 1:
                        assert closed == by_positions, (alt.kinds, alt.n, alt.p, alt.q, xs, depth)


def test_the_theorem_s_witness_holds_in_closed_form_at_a_million_tokens():
    for order in (("window", "strided"), ("strided", "window")):
        alt = A.Alt(BIG, "strided", 1024, 1024, order)
        a = A.witness_residue(alt)
        m = A.count(alt)[1]
        perm = _exchange(BIG, range(a, BIG, alt.q) if order[0] == "strided" else [a])
        assert A.witness_closed(alt, perm, 1, m - 1)
        assert not A.witness_closed(alt, perm, 1, m)  # one layer deeper the window layer is seen whole


def _text(pattern: str, n: int = BIG) -> str:
    return f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern periodic {{ {pattern} }}\n}}\n"


PATTERNS = ["window(1024), strided(1024)", "strided(1024), window(1024)", "blocks(1024), columns(1024, 32)",
            "columns(1024, 32), blocks(1024)", "window(1), strided(2)"]


@lru_cache(maxsize=None)
def _certificate(pattern: str) -> str:
    return json.dumps(certificate_of(_text(pattern)))


@pytest.mark.parametrize("pattern", PATTERNS)
def test_the_honest_certificates_at_a_million_tokens_are_fully_verified(pattern):
    report = verify(json.loads(_certificate(pattern)), seconds=60)  # the CLI's budget (it ran out here before)
    outcomes = {s.rule: s.outcome for s in report.steps}
    assert outcomes["SEQ-ALTERNATION-LAYERS"] == outcomes["SEQ-ALTERNATION-GROUP"] == "verified", \
        [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert report.ok and report.complete


def _forged(pattern: str, key: str, value) -> dict:
    cert = json.loads(_certificate(pattern))
    step = next(s for s in cert["steps"] if s["rule"] == "SEQ-ALTERNATION-LAYERS")
    step["data"][key] = value
    if key in step["evidence"]:
        step["evidence"][key] = value
    return cert


@pytest.mark.parametrize("pattern,key,value", [
    ("window(1024), strided(1024)", "D_Φ", 1),
    ("window(1024), strided(1024)", "layers", 2),
    ("window(1024), strided(1024)", "not within D_Φ − 1", [1, 1025]),  # x_1025 reaches 1 through the window
    ("window(1024), strided(1024)", "least", False),
    ("strided(1024), window(1024)", "layers", 3),
    ("strided(1024), window(1024)", "not within D_Φ − 1", [1, 1025]),  # 1025 ≡ 1 (mod 1024): one class
    ("strided(1024), window(1024)", "layers seen whole", [1]),
    ("blocks(1024), columns(1024, 32)", "not within D_Φ − 1", [1, 1000]),  # the same block
    ("blocks(1024), columns(1024, 32)", "D_Φ", 3),
    ("columns(1024, 32), blocks(1024)", "layers", 2),
    ("window(1), strided(2)", "least", True),  # no residue avoids 1 + {0, −1, 1, −2} mod 2
])
def test_forged_counts_pairs_and_flags_at_a_million_tokens_are_rejected(pattern, key, value):
    assert rejects(_forged(pattern, key, value), "SEQ-ALTERNATION-LAYERS")


def test_a_forged_witness_at_a_million_tokens_is_rejected():
    cert = json.loads(_certificate("window(1024), strided(1024)"))
    step = next(s for s in cert["steps"] if s["rule"] == "SEQ-ALTERNATION-LAYERS")
    witness = step["data"].get("witness")
    assert witness and witness["a"] == A.witness_residue(A.Alt(BIG, "strided", 1024, 1024, ("window", "strided")))
    witness["a"] = 1024  # a ≡ 1 + w (mod s): the window of position 1 ends at 1025 and cuts the pair {1025, 1026}
    assert rejects(cert, "SEQ-ALTERNATION-LAYERS")
