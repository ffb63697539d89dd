"""Chunked causal layers with the full causal mask (Llama 4's layout), Theorem F169 (docs/theory.md §21.11): the
closed form against the rooted-view engine of §21.5 at every n ≤ 60 and against brute force over S_n at n ≤ 6 (the
causal view condition of §21.5 written out here), at n above 1,024 and at a symbolic n; the certificates verify and
forged ones are rejected."""
from __future__ import annotations

import copy
import itertools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, rejects  # noqa: E402

import uapcheck  # noqa: E402
from uapcheck.graphs.layers_chunks import ChunkLayers, chunk_count  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402

CATALOG = Path(__file__).resolve().parent.parent / "catalog"


def source(kinds: str, b, tokens, extra: str = "") -> str:
    layers = ", ".join(f"causal & blocks({b})" if k == "C" else "causal" for k in kinds)
    return (f"{extra}tokens {tokens}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern periodic {{ {layers} }}\n}}\n"
            "target causal\n")


def _neighbours(kind: str, b: int, v: int) -> set:
    return set(range(1 if kind == "G" else (v - 1) // b * b + 1, v + 1))


def _brute_least(kinds: str, b: int, n: int) -> int:
    """The first m reaching every prefix with no permutation of a prefix meeting §21.5's view condition."""
    def layer(ell: int) -> str:
        return kinds[(ell - 1) % len(kinds)]

    def views(i: int, m: int) -> list:
        out = [set() for _ in range(m + 1)]
        out[m] = {i}
        for ell in range(m, 0, -1):
            out[ell - 1] = set().union(*(_neighbours(layer(ell), b, v) for v in out[ell]))
        return out

    for m in range(1, 40):
        if any(views(i, m)[0] != set(range(1, i + 1)) for i in range(1, n + 1)):
            continue
        witness = False
        for i in range(1, n + 1):
            vs = views(i, m)
            for perm in itertools.permutations(range(1, i + 1)):
                if list(perm) == list(range(1, i + 1)):
                    continue
                s = dict(zip(range(1, i + 1), perm))
                if all({s[u] for u in _neighbours(layer(ell), b, v)} == _neighbours(layer(ell), b, s[v])
                       for ell in range(1, m + 1) for v in vs[ell]):
                    witness = True
                    break
            if witness:
                break
        if not witness:
            return m
    raise AssertionError("no depth found")


LAYOUTS = ["CCCG", "CG", "CCGCG", "CGG"]


@pytest.mark.parametrize("kinds", LAYOUTS)
@pytest.mark.parametrize("b", [1, 2, 3])
def test_the_theorem_is_brute_force_over_s_n(kinds, b):
    L = ChunkLayers(tuple(kinds), b)
    for n in range(1, 7):
        assert chunk_count(L, n) == _brute_least(kinds, b, n), (kinds, b, n)


@pytest.mark.parametrize("kinds, b, top", [("CCCG", 3, 60), ("CCCG", 5, 60), ("CCCG", 1, 30), ("CG", 4, 40),
                                           ("CCGCG", 3, 40), ("CGG", 2, 30)])
def test_the_theorem_is_the_rooted_view_engine_at_every_length(kinds, b, top):
    L = ChunkLayers(tuple(kinds), b)
    for n in range(1, top + 1):
        r = uapcheck.check(source(kinds, b, n), "t.uap")
        assert r.verdict == "UAP" and r.layers == chunk_count(L, n), (n, r.verdict, r.layers)


def test_above_1024_tokens_the_theorem_decides_and_verifies():
    r = uapcheck.check(source("CCCG", 512, 2048), "t.uap")
    assert (r.verdict, r.layers) == ("UAP", 8)
    r = uapcheck.check(source("CCCG", 1024, 2048), "t.uap")
    assert (r.verdict, r.layers) == ("UAP", 4)
    report = verify(certificate_of(source("CCCG", 1024, 2048)))
    assert report.ok and not any(s.outcome == "trusted" for s in report.steps)


@pytest.mark.parametrize("name, layers", [("llama4_chunked_decoder_256k.uap", 8),
                                          ("llama4_chunked_decoder_any_length.uap", 8)])
def test_the_catalog_files_verify(name, layers):
    text = (CATALOG / name).read_text()
    r = uapcheck.check(text, name)
    assert (r.verdict, r.layers, r.expect_holds) == ("UAP", layers, True)
    report = verify(certificate_of(text))
    assert report.ok and not any(s.outcome == "trusted" for s in report.steps)


def test_a_param_chunk_size_at_a_symbolic_length():
    text = source("CCCG", "b", "n", "param b integer >= 2\n")
    r = uapcheck.check(text + "expect uap layers 8\n", "t.uap")
    assert (r.verdict, r.layers, r.expect_holds) == ("UAP", 8, True)
    assert "for n ≥ 2·b + 1" in r.to_dict()["target"]["range"] or r.to_dict()["target"]["range"] == "n ≥ 2·b + 1"
    assert verify(certificate_of(text)).ok


def _chunk_step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "SEQ-CAUSAL-CHUNKS")


@pytest.mark.parametrize("field, value", [("layers", 7), ("layers", 9), ("from", 16384), ("layout", "CCGG"),
                                          ("b", 4096), ("least", False)])
def test_a_forged_step_is_rejected(field, value):
    cert = certificate_of((CATALOG / "llama4_chunked_decoder_any_length.uap").read_text())
    bad = copy.deepcopy(cert)
    _chunk_step(bad)["data"][field] = value
    assert rejects(bad, "SEQ-CAUSAL-CHUNKS")


def test_a_forged_count_at_a_length_is_rejected():
    cert = certificate_of((CATALOG / "llama4_chunked_decoder_256k.uap").read_text())
    bad = copy.deepcopy(cert)
    _chunk_step(bad)["data"]["layers"] = 4
    assert rejects(bad, "SEQ-CAUSAL-CHUNKS")


@pytest.mark.parametrize("kinds, extra", [("GCCC", ""), ("CCCC", ""), ("CCCG", "param b integer >= 1\n")])
def test_outside_the_theorem_stays_undecided_at_a_symbolic_length(kinds, extra):
    b = "b" if extra else 8
    r = uapcheck.check(source(kinds, b, "n", extra), "t.uap")
    assert "SEQ-CAUSAL-CHUNKS" not in {s.rule for s in r.root.walk()}
