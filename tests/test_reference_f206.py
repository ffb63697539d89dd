"""Theorem F206 (docs/theory.md §11.11): a head whose group lies in D_n from its range on (Theorems F26, F201, and F205
when s ∤ w) is an anchor for the several heads' group: G = the elements of D_n that keep every head. Checked apart
from the engines: the order `uapcheck` states at `tokens n`, read at every length up to NMAX (and at lengths past the
example's range start), equals the order of the intersection of the heads' automorphism groups computed by BLISS on
arcs written from docs/language.md's definitions (scripts/sweep_patterns.py's reference, no engine imported), for
unions of such a head beside blocks, a star, a global, a dilation, cyclic offsets and a cyclic window, and for F205's
twins' head (s | w, whose group leaves D_n on n ≡ 1 (mod s): no anchor, whatever is stated must still be the
reference's)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
NMAX = 72 if NIGHTLY else 56

UNIONS = [
    ((("cyclic", 2), ("strided", 3)), (("blocks", 4),)),
    ((("cyclic", 1), ("strided", 2)), (("star",),)),
    ((("cyclic", 2), ("strided", 5)), (("global", 1),)),
    ((("cyclic", 2), ("strided", 4)), (("dilated", 1, 3),)),
    ((("cyclic", 3), ("strided", 2)), (("offsets_cyclic", (1,)),)),
    ((("cyclic", 1), ("strided", 5)), (("cyclic", 2),)),
    ((("cyclic", 4), ("strided", 2)), (("offsets_cyclic", (1,)),)),  # F205's twins: no anchor
    ((("cyclic", 3), ("strided", 4)), (("blocks", 6), ("window", 3))),
]


def _text(heads) -> str:
    return " | ".join(SP.head_text(h) for h in heads)


@pytest.mark.parametrize("heads", UNIONS, ids=[_text(u) for u in UNIONS])
def test_the_stated_order_is_the_intersections(heads):
    result = SP.engine(SP.file_text(list(heads), "n"))
    assert result is not None, _text(heads)
    for n in range(3, NMAX + 1):
        claim = SP.claims_at(result, n)
        if claim is None or claim[0] != "UAP" or not isinstance(claim[1], int):
            continue
        arcs = list(dict.fromkeys(SP.head_arcs(h, n) for h in heads))
        assert claim[1] == SP.group_order(arcs, n), (_text(heads), n, claim)


def test_the_example_past_its_range_start():
    """`window(5) cyclic + strided(3)` | `offsets {−7, −6, 7} cyclic`: C_n when 3 | n, else trivial, from n = 102."""
    heads = ((("cyclic", 5), ("strided", 3)), (("offsets_cyclic", (-7, -6, 7)),))
    result = SP.engine(SP.file_text(list(heads), "n"))
    for n in range(102, 108):
        arcs = [SP.head_arcs(h, n) for h in heads]
        want = SP.group_order(arcs, n)
        assert want == (n if n % 3 == 0 else 1), (n, want)
        claim = SP.claims_at(result, n)
        if claim is not None and claim[0] == "UAP" and isinstance(claim[1], int):
            assert claim[1] == want, (n, claim)
