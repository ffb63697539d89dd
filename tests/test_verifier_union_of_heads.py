"""Several heads at symbolic n whose union is a pattern of the verifier's family table once the heads' parts are put
side by side (docs/theory.md §18.4): `window(1) + blocks(4)` | `window(2)` is `window(2) + blocks(4)` (Theorem F21,
and F75 for the heads' least count), `window(2) + global(1)` | `strided(3)` is `window(2) + global(1) + strided(3)`
(Theorem F33). The verifier matched the union only when every head was one part, so both certificates were NOT
FULLY VERIFIED (PAT-CONNECTED and PAT-LAYERS trusted). The restated diameters are checked here by breadth-first
search on arcs written from docs/language.md's definitions up to n = 60."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import sympy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import forged, heads_certificate, rejects  # noqa: E402
from graphs.reference import all_distances  # noqa: E402 - tests/graphs

from uapcheck import spec as S  # noqa: E402
from uapcheck.parse import parse_source  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402
from uapcheck.verifier import families  # noqa: E402
from uapcheck.verifier.rules_families import union_pattern  # noqa: E402
from uapcheck.verifier.trees import decode, encode  # noqa: E402

WINDOW_BLOCKS = ("window(1) + blocks(4)", "window(2)")
GLOBAL_STRIDED = ("window(2) + global(1)", "strided(3)")
N = sympy.Symbol("n", integer=True, positive=True)


def _source(heads) -> str:
    return "tokens n\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n" for p in heads)


def _reasons(cert: dict) -> dict:
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    return {s.rule: s.reason for s in report.steps}


def test_window_and_blocks_heads_are_verified_by_f21_and_f75():
    reasons = _reasons(heads_certificate(*WINDOW_BLOCKS))
    assert "Theorem F21" in reasons["PAT-CONNECTED"] and "Theorem F75" in reasons["PAT-LAYERS"]


def test_window_global_and_strided_heads_are_verified_by_f33():
    reasons = _reasons(heads_certificate(*GLOBAL_STRIDED))
    assert "Theorem F33" in reasons["PAT-CONNECTED"] and "Theorem F33" in reasons["PAT-LAYERS"]


def test_the_union_puts_the_parts_side_by_side_and_drops_a_narrower_window():
    pats = [h.pattern for h in parse_source(_source(WINDOW_BLOCKS), "t.uap").heads]
    union = union_pattern(pats)
    assert isinstance(union, S.PatternUnion) and sorted(type(q).__name__ for q in union.parts) == ["Blocks", "Window"]
    assert next(q for q in union.parts if isinstance(q, S.Window)).w == 2
    cyclic = [h.pattern for h in parse_source(_source(("window(1) cyclic", "window(2)")), "t.uap").heads]
    assert len(union_pattern(cyclic).parts) == 2  # a cyclic window is not inside a non-cyclic one


def _shift(tree, by: int):
    return encode(decode(tree, {"n": N}) + by)


@pytest.mark.parametrize("heads", [WINDOW_BLOCKS, GLOBAL_STRIDED], ids=["window-blocks", "global-strided"])
@pytest.mark.parametrize("rule, key", [("PAT-CONNECTED", "diameter"), ("PAT-LAYERS", "layers"),
                                       ("PAT-LAYERS", "diameter")])
def test_a_changed_count_is_rejected(heads, rule, key):
    cert = heads_certificate(*heads)
    step = next(s for s in cert["steps"] if s["rule"] == rule)
    assert rejects(forged(cert, rule, key, _shift(step["data"][key], 1)), rule)


def test_a_least_flag_flipped_is_rejected():
    # `window(2) + global(1)` | `strided(3)` is now stated least (D = 2, Theorem F33 class by class), and so is
    # `strided(4)` | `window(1)` (Theorem F199 on its union), so the flag is flipped on a count that is still not shown
    # least: `strided(6)` | `window(2)`, 4 layers (F120 leaves n ≡ 0, 1, 5 (mod 6) open for its union).
    cert = heads_certificate("strided(6)", "window(2)")
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is False
    assert rejects(forged(cert, "PAT-LAYERS", "least", True), "PAT-LAYERS")


# ---------------------------------------------------------------------------------------------
# The restated closed forms against breadth-first search, arcs from docs/language.md

def _attends(part: str, n: int, i: int, j: int) -> bool:
    kind, size = part.split("(")
    k = int(size.rstrip(")"))
    if kind == "window":
        return abs(i - j) <= k
    if kind == "blocks":
        return -(-i // k) == -(-j // k)
    if kind == "global":
        return i <= k or j <= k
    if kind == "strided":
        return (j - i) % k == 0
    raise ValueError(part)


def _diameter(heads, n: int):
    parts = [q.strip() for h in heads for q in h.split("+")]
    pairs = [(i, j) for j in range(1, n + 1) for i in range(1, n + 1) if i != j and any(_attends(q, n, i, j) for q in parts)]
    dist = all_distances(pairs, n)
    if any(len(d) < n for d in dist.values()):
        return None
    return max(max(d.values()) for d in dist.values())


@pytest.mark.parametrize("heads", [WINDOW_BLOCKS, GLOBAL_STRIDED], ids=["window-blocks", "global-strided"])
def test_the_unions_closed_form_is_the_breadth_first_diameter_up_to_60(heads):
    spec = parse_source(_source(heads), "t.uap")
    union = union_pattern([h.pattern for h in spec.heads])
    from dataclasses import replace
    fam = families.match(replace(spec, heads=(replace(spec.heads[0], pattern=union),)))
    assert fam is not None
    engine = decode(next(s for s in heads_certificate(*heads)["steps"] if s["rule"] == "PAT-CONNECTED")["data"]["diameter"],
                    {"n": N})
    for n in range(int(fam.low), 61):
        want = _diameter(heads, n)
        assert int(fam.d(n)) == want, n
        assert int(engine.xreplace({N: n})) == want, n
