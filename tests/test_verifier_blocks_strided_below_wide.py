"""The verifier's Theorem F44 (verifier/blocks_strided.py) above s = 7, while one period bL has at most 72 lengths:
`blocks(3) + strided(8)` (D = 5, Theorem F58's twin-block witness or common-neighbour premise) and `blocks(5) +
strided(8)` (D = 3, Theorem F57's criterion) have D and their least layer count verified at real lengths (the
instances re-checked on the verifier's arcs), where the match stopped at s = 7 and the engine had no decision; a
forged layer count is rejected."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import assert_least_layers_verified, certificate_of, softmax_source  # noqa: E402


@pytest.mark.parametrize("pattern, n, layers", [("blocks(3) + strided(8)", 1048576, 6),
                                                ("blocks(3) + strided(8)", 1002, 5),
                                                ("blocks(5) + strided(8)", 5001, 4)])
def test_strided_eight_beside_narrower_blocks_is_verified(pattern, n, layers):
    assert_least_layers_verified(certificate_of(softmax_source(pattern, n)), layers, layers - 1)
