"""The verifier's note on a family theorem's instances names the lengths it re-checked, and says so when the
range starts above its instance limit (it used to print an empty range such as "instances n = 115..60")."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402
from uapcheck.verifier.families import MAX_INSTANCE_N  # noqa: E402


def _notes(text: str) -> list[str]:
    return [line.reason for line in verify(certificate_of(text)).steps]


def test_a_range_above_the_limit_names_no_empty_range():
    text = ("tokens n\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern blocks(5) + strided(5)\n}\n"
            "attention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(5)\n}\n")
    notes = " ".join(_notes(text))
    for low, top in ((a, b) for a in range(61, 200) for b in range(1, MAX_INSTANCE_N + 1)):
        assert f"instances n = {low}..{top} " not in notes
    assert "no instance re-checked" in notes or "instances n = " not in notes


def test_a_range_below_the_limit_names_its_lengths():
    text = "tokens n\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(3) + strided(4)\n}\n"
    notes = " ".join(_notes(text))
    assert "re-checked on the verifier's arcs" in notes
