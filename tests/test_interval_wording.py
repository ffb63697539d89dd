"""An interval of positions in a group's name: `{1}`, `{1, 2}`, `{1, 2, 3}` when it has at most three positions,
`{a, …, b}` from four on — the engine's printer (graphs/closed_forms._span) and the verifier's own
(verifier/named_structure.interval) word it alike, and the verifier accepts the names the engine prints."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from uapcheck.graphs.closed_forms import _span
from uapcheck.verifier import verify
from uapcheck.verifier.named_structure import interval

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, softmax_source  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden" / "catalog_json"
SHORT_ELLIPSIS = re.compile(r"\{(\d+), …, (\d+)\}")


@pytest.mark.parametrize("lo, hi, text", [(1, 1, "{1}"), (1, 2, "{1, 2}"), (3, 4, "{3, 4}"), (1, 3, "{1, 2, 3}"),
                                          (4, 6, "{4, 5, 6}"), (1, 4, "{1, …, 4}"), (9, 16, "{9, …, 16}")])
def test_engine_and_verifier_word_an_interval_alike(lo, hi, text):
    assert _span(lo, hi) == interval(lo, hi) == text


def test_a_symbolic_end_keeps_the_ellipsis():
    import sympy
    n = sympy.Symbol("n", integer=True, positive=True)
    assert _span(3, n) == "{3, …, n}"


@pytest.mark.parametrize("pattern, piece", [
    ("blocks(2) + dilated(1, 2)", "the offsets {1, 2} within a block"),              # F63
    ("blocks(4) + window(1) + strided(4)", "the interior offsets {2, 3} permuted"),  # F64
    ("blocks(3) + strided(3)", "the whole blocks {1, 2, 3}, {4, 5, 6}, …"),           # F25
    ("window(1) + global(2)", "S_2 on {1, 2} × the reflection of {3, …, n}"),
    ("blocks(4) + global(2)", "S_2 on {1, 2} × the automorphisms of the disjoint cliques {3, 4}, {5, …, 8}"),
])
def test_short_intervals_are_listed_and_the_verifier_accepts_the_name(pattern, piece):
    cert = certificate_of(softmax_source(pattern))
    assert piece in json.dumps(cert, ensure_ascii=False)
    report = verify(cert)
    assert report.ok, report


def test_no_catalog_output_writes_a_short_interval_with_an_ellipsis():
    found = []
    for path in sorted(GOLDEN.glob("*.json")):
        for m in SHORT_ELLIPSIS.finditer(path.read_text("utf-8")):
            if int(m.group(2)) - int(m.group(1)) < 3:
                found.append(f"{path.name}: {m.group(0)}")
    assert not found, found
