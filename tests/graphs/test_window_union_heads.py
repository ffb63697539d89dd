"""Several heads whose union is a non-cyclic window (docs/theory.md §11.11, Theorem F70 with the union's count from
§11.2, item 4): when every head keeps the reflection, the heads' group is the union's and D = ⌈(n − 1)/w⌉ layers are
least, for n ≥ 2w + 1. Checked against the sweep's reference (scripts/sweep_patterns.py: BFS, BLISS, rooted views by
canonical forms, written apart from the engines) at every n of the range up to 30, and by the verifier; a union that
is a window with a head the reflection does not keep (G trivial, the union's group the reflection) is not claimed
least."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import head_layers as H
from uapcheck.graphs.closed_groups import closed_group
from uapcheck.spec import Dilated, Offsets, Window
from uapcheck.verifier import verify

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import sweep_patterns as P  # noqa: E402

N = sympy.Symbol("n", integer=True, positive=True)

# (the heads as specs, as the sweep's reference writes them, the union's w)
SYMMETRIC = [
    ((Window(3), Window(1)), (("window", 3),), (("window", 1),), 3),
    ((Window(2), Offsets((-1, 1), False)), (("window", 2),), (("offsets", (-1, 1)),), 2),
    ((Window(4), Window(2)), (("window", 4),), (("window", 2),), 4),
]


def _text(patterns: tuple) -> str:
    from uapcheck.show import show_pattern
    heads = "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {show_pattern(p)}\n}}\n"
                    for p in patterns)
    return "tokens n\n" + heads


@pytest.mark.parametrize("patterns, first, second, w", SYMMETRIC, ids=lambda c: str(c))
def test_d_layers_least_against_the_reference(patterns, first, second, w):
    pats = list(dict.fromkeys(patterns))
    grp = closed_group(pats, N, {}, [None] * len(pats), "none")
    found = H.least_layers(pats, grp.cases if grp else None, N)
    assert found is not None and found.theorem == "F70" and found.union_theorem == H.WINDOW_UNION
    assert found.low == 2 * w + 1 and found.layers == found.diameter == sympy.ceiling((N - 1) / w)
    heads = [first, second]
    for n in range(found.low, 31):
        ref = P.reference(heads, n)
        assert ref["verdict"] == "UAP" and ref["layers"] == ref["diameter"] == int(found.layers.subs(N, n)), n


def test_the_certificate_verifies_and_a_forged_count_is_rejected():
    text = _text((Window(3), Window(1)))
    cert = json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    step = next(s for s in report.steps if s.rule == "PAT-LAYERS")
    assert "Theorem F70" in step.reason
    data = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]
    assert data["least"] is True and data["from"] == 7
    forged = json.loads(json.dumps(cert))
    layers = next(s for s in forged["steps"] if s["rule"] == "PAT-LAYERS")["data"]
    from uapcheck.verifier.trees import decode, encode
    layers["layers"] = encode(decode(layers["layers"], {"n": N}) - 1)
    assert not verify(forged).ok


def test_a_head_without_the_reflection_is_not_claimed_by_f70():
    """window(3) | offsets {1}: the union is window(3), but the one-sided head keeps no reflection: G is trivial,
    smaller than the union's, and F70 says nothing; Theorem F192 decides it (the reflection moves the one-sided head's
    neighbourhood of every position, F124), tests/graphs/test_growing_reflection_heads.py."""
    pats = [Window(3), Offsets((1,), False)]
    grp = closed_group(pats, N, {}, [None] * len(pats), "none")
    window = H.window_union(pats, N)
    assert window is not None and grp is not None
    assert H.equal_groups(window, grp.cases, N) is None
    found = H.least_layers(pats, grp.cases, N)
    assert found is not None and found.theorem == "F192"
    assert [c.found_by for c in found.growing] == ["F124"]


def test_a_union_that_is_no_window_has_no_window_theorem():
    assert H.window_union([Window(3), Offsets((5,), False)], N) is None
    assert H.window_union([Window(2), Window(3, True)], N) is None
    assert H.window_union([Window(1), Dilated(2, 2)], N) is None   # differences ±1, ±2, ±4: no window
