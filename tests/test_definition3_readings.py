"""Definition 3 has two readings (docs/theory.md §1.4, §13 L1, L8): literal (every finite data set) and in general
position (every data set off a Lebesgue-null set). A TD-WITNESS pair is one point of a null set, so every
TD-WITNESS claim says it refutes the literal reading only, and no verdict is NOT-UAP from such a witness."""
from __future__ import annotations

from pathlib import Path

import pytest

import uapcheck
from uapcheck import proof
from uapcheck.rules import witness

CATALOG = Path(__file__).resolve().parents[1] / "catalog"


@pytest.mark.parametrize("name", ["polynomial.uap", "polynomial_offset.uap", "relu_score.uap", "sigmoid_plain.uap",
                                  "uniform.uap"])
def test_every_witness_says_which_reading_it_refutes(name):
    result = uapcheck.check((CATALOG / name).read_text(), f"catalog/{name}")
    steps = [s for s in result.root.walk() if s.rule == "TD-WITNESS"]
    assert steps and all(s.status is proof.REFUTED for s in steps)
    for s in steps:
        assert "literal reading of Definition 3" in s.claim and "general-position reading" in s.claim
        assert s.evidence["reading refuted"] == witness.READING
    # sigmoid_plain's FFN (gelu) is analytic and k(0, 0) = 1/2: Lemma M gives 2 layers (§20.9), the witness stays
    assert result.verdict == ("UAP" if name == "sigmoid_plain.uap" else "INCONCLUSIVE")


def test_limitation_l8_lists_the_tension():
    theory = (CATALOG.parent / "docs" / "theory.md").read_text()
    assert "**L8. Two readings of Definition 3" in theory
