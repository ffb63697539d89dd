"""Several heads at symbolic n: the union of all the heads' parts is put in normal form (docs/theory.md §11.13)
before the family table is read, in the engine (graphs/normal_form.heads_union) and, written apart, in the
verifier (verifier/rules_families.union_pattern). `blocks(5) + strided(5)` | `window(5)` is `window(5) + strided(5)`
(blocks(5) ⊆ window(5)), Theorem F7's pattern, so D = 2 exactly where the window's ⌈(n − 1)/5⌉ bounded it before;
`window(1) + strided(6)` | `offsets {−1}` | `blocks(6)` is `window(1) + strided(6) + blocks(6)`, Theorem F64's
pattern (D = 2, where the chain's n − 1 bounded it); `offsets {2}` | `window(6) cyclic` is `window(6) cyclic`.
The arcs of both unions are compared with the heads' arcs at every small n, and the stated diameters with
breadth-first search on arcs written from docs/language.md."""
from __future__ import annotations

import functools
import json
import random
import sys
from pathlib import Path

import pytest
import sympy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import forged, heads_certificate, rejects  # noqa: E402
from graphs.reference import all_distances, attends  # noqa: E402 - tests/graphs

from uapcheck import spec as S  # noqa: E402
from uapcheck.graphs.head_layers import union_theorem  # noqa: E402
from uapcheck.graphs.normal_form import heads_union  # noqa: E402
from uapcheck.parse import parse_source  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402
from uapcheck.verifier.rules_families import union_pattern  # noqa: E402
from uapcheck.verifier.trees import decode, encode  # noqa: E402

N = sympy.Symbol("n", integer=True, positive=True)
BLOCKS_WINDOW = ("blocks(5) + strided(5)", "window(5)")
CHAIN_BLOCKS = ("window(1) + strided(6)", "offsets {-1}", "blocks(6)")
CYCLIC = ("offsets {2}", "window(6) cyclic")


def _source(heads) -> str:
    return "tokens n\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n" for p in heads)


def _patterns(heads) -> list:
    return [h.pattern for h in parse_source(_source(heads), "t.uap").heads]


def _heads_arcs(pats, n: int) -> set:
    return set().union(*[attends(p, n) for p in pats])


def _diameter(pats, n: int):
    dist = all_distances(sorted(_heads_arcs(pats, n)), n)
    if any(len(d) < n for d in dist.values()):
        return None
    return max(max(d.values()) for d in dist.values())


@functools.lru_cache(maxsize=None)
def _certificate_json(heads: tuple) -> str:
    return json.dumps(heads_certificate(*heads))


def _certificate(heads: tuple) -> dict:
    """The heads' certificate, built once per module (a fresh copy each time: the forging tests change it)."""
    return json.loads(_certificate_json(heads))


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("heads, normal", [
    (BLOCKS_WINDOW, S.PatternUnion((S.Strided(5), S.Window(5)))),
    (CHAIN_BLOCKS, S.PatternUnion((S.Window(1), S.Strided(6), S.Blocks(6)))),
    (CYCLIC, S.Window(6, True)),
    (("window(3)", "window(1)"), S.Window(3)),
    (("star + window(1)", "global(2)"), S.PatternUnion((S.Global(2), S.Window(1)))),
])
def test_the_union_of_the_heads_parts_is_in_normal_form_in_the_engine_and_the_verifier(heads, normal):
    pats = _patterns(heads)
    engine, verifier = heads_union(pats), union_pattern(pats)
    for got in (engine, verifier):
        parts = set(got.parts) if isinstance(got, S.PatternUnion) else {got}
        want = set(normal.parts) if isinstance(normal, S.PatternUnion) else {normal}
        assert parts == want, (heads, got)


def _random_heads(rng: random.Random) -> list:
    def part():
        return rng.choice([
            f"window({rng.randint(1, 4)})", f"window({rng.randint(1, 3)}) cyclic", "star", f"global({rng.randint(1, 2)})",
            f"offsets {{{rng.randint(-4, -1)}, {rng.randint(1, 5)}}}", f"offsets {{{rng.randint(1, 5)}}} cyclic",
            f"dilated({rng.randint(1, 2)}, {rng.randint(2, 3)})", f"blocks({rng.randint(2, 6)})",
            f"strided({rng.randint(2, 6)})", "causal"])
    return [" + ".join(part() for _ in range(rng.randint(1, 2))) for _ in range(rng.randint(2, 3))]


@pytest.mark.parametrize("seed", range(60))
def test_both_unions_have_the_arcs_of_the_heads_at_every_small_n(seed):
    pats = _patterns(_random_heads(random.Random(seed)))
    engine, verifier = heads_union(pats), union_pattern(pats)
    for n in range(1, 25):
        want = _heads_arcs(pats, n)
        assert attends(engine, n) == want, (pats, engine, n)
        assert attends(verifier, n) == want, (pats, verifier, n)


@pytest.mark.parametrize("heads, theorem", [(BLOCKS_WINDOW, "F7"), (CHAIN_BLOCKS, "F64")])
def test_the_union_theorem_is_read_on_the_normal_form(heads, theorem):
    found = union_theorem(_patterns(heads), N, {})
    assert found is not None and found.theorem == theorem


@pytest.mark.parametrize("heads, theorem, count", [(BLOCKS_WINDOW, "F7", 2), (CHAIN_BLOCKS, "F64", 3)])
def test_the_diameter_is_exact_and_the_verifier_checks_it(heads, theorem, count):
    # with D exact, the least count is decided class by class (Theorem F86: F70 and F124 for the first, F88 and F127
    # for the second; tests/graphs/test_reflection_heads.py, tests/graphs/test_heads_own_permutation.py)
    cert = _certificate(heads)
    connected, layers = _step(cert, "PAT-CONNECTED"), _step(cert, "PAT-LAYERS")
    assert decode(connected["data"]["diameter"], {"n": N}) == 2
    assert decode(layers["data"]["layers"], {"n": N}) == count and layers["data"]["least"] is True
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    reasons = {s.rule: s.reason for s in report.steps}
    assert f"Theorem {theorem}" in reasons["PAT-CONNECTED"] and f"Theorem {theorem}" in reasons["PAT-LAYERS"]


@pytest.mark.parametrize("heads, rule, key", [
    (CHAIN_BLOCKS, "PAT-CONNECTED", "diameter"), (CHAIN_BLOCKS, "PAT-LAYERS", "layers"),
    (BLOCKS_WINDOW, "PAT-LAYERS", "layers")], ids=["chain-blocks-diameter", "chain-blocks-layers", "blocks-window-layers"])
def test_a_changed_count_is_rejected(heads, rule, key):
    cert = _certificate(heads)
    step = _step(cert, rule)
    assert rejects(forged(cert, rule, key, encode(decode(step["data"][key], {"n": N}) - 1)), rule)


@pytest.mark.parametrize("heads", [BLOCKS_WINDOW, CHAIN_BLOCKS, CYCLIC], ids=["blocks-window", "chain-blocks", "cyclic"])
def test_the_stated_diameter_is_the_breadth_first_one_on_its_range(heads):
    data = _step(_certificate(heads), "PAT-CONNECTED")["data"]
    diameter, low = decode(data["diameter"], {"n": N}), max(4, int(data.get("from", 2)))
    pats = _patterns(heads)
    for n in sorted(set(range(low, low + 8)) | set(range(low, 61))):
        assert int(diameter.xreplace({N: n})) == _diameter(pats, n), (heads, n)


def test_the_cyclic_union_is_verified_by_the_lemma():
    report = verify(_certificate(CYCLIC))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert "cyclic window" in {s.rule: s.reason for s in report.steps}["PAT-CONNECTED"]
