"""A `free` bias on a head that does not hold every arc: Theorem F178 (docs/theory.md §11.10).

Every row of every `free` head sees two keys or more, so each layer separates different labelled views (F163's
separation step), and the labelled views decide: D layers, least, without a labelled witness, D + 1, least, with one.
The engine's decision against a brute force over S_n (n ≤ 7) from the definitions of §11.10 (a `free` class is the
arc itself), built on the engine's own arcs; the verifier re-decides it over S_n at n ≤ 8."""
from __future__ import annotations

import pytest

import uapcheck
from uapcheck import spec as S
from uapcheck.graphs import build_graph
from uapcheck.parse import parse_source
from uapcheck.verifier import verify

from certificates import certificate_from_cli  # tests/ is on sys.path
from t5_buckets import brute

KERNEL = "  kernel k(x, y) = exp(x . y)\n"


def program(n: int, heads: tuple) -> str:
    return f"tokens {n}\n" + "".join("attention {\n" + KERNEL + f"  pattern {pattern}\n" +
                                      (f"  bias {bias}\n" if bias else "") + "}\n" for pattern, bias in heads)


def neighbours(text: str, n: int) -> list:
    """N(v) for v = 1..n per head (index 0 unused), from the engine's arcs (key j → query i), v included."""
    spec = parse_source(text, "t.uap")
    out = []
    for h in spec.heads:
        g = build_graph(h.pattern if h.pattern is not None else S.Full(), n, {})
        nb: list = [set()] + [{v} for v in range(1, n + 1)]
        for j, i in g.arcs():
            nb[i].add(j)
        out.append(nb)
    return out


def label(bias):
    if bias is None:
        return None
    if bias == "free":
        return lambda q, k: (q, k)
    return {"toeplitz": lambda q, k: k - q, "symmetric toeplitz": lambda q, k: abs(k - q)}[bias]


HEADS = [(("window(1)", "free"), ("global(1)", None)),
         (("window(1)", "free"), ("global(1)", "symmetric toeplitz")),
         (("window(2)", "free"), ("strided(3)", None)),
         (("window(1) cyclic", "free"), ("offsets {2, -2} cyclic", None))]


def _layers_step(r):
    return next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")


@pytest.mark.parametrize("heads", HEADS)
def test_the_count_against_brute_force(heads):
    """n = 3…7: the group order and the least count from the definitions, and the count stated least."""
    for n in range(3, 8):
        text = program(n, heads)
        r = uapcheck.check(text, "t.uap")
        if r.verdict != "UAP":
            continue
        nbs = neighbours(text, n)
        want = brute(n, [(nb, label(bias)) for nb, (_, bias) in zip(nbs, heads)])
        assert (int(r.group.order), r.layers) == want, (heads, n)
        assert _layers_step(r).facts["least"] is True, (heads, n)


def test_a_witness_and_none():
    """window(1) with `free` beside global(1): D = 2 at n = 4, 5 (no witness: the fixed part covers every position),
    D + 1 = 3, least, from n = 7 (positions beyond the root's free neighbourhoods may be exchanged)."""
    head = (("window(1)", "free"), ("global(1)", None))
    counts = {n: uapcheck.check(program(n, head), "t.uap") for n in (4, 5, 7, 12)}
    assert {n: (r.layers, _layers_step(r).facts["least"]) for n, r in counts.items()} == \
        {4: (2, True), 5: (2, True), 7: (3, True), 12: (3, True)}
    assert "Theorem F178" in _layers_step(counts[4]).evidence["method"]


def test_a_row_that_sees_itself_alone_is_not_claimed():
    """On `offsets {1}` (no wrap) the last row of the `free` head sees itself alone, so Theorem F178 does not apply:
    D + 1, sufficient, as before."""
    r = uapcheck.check(program(6, (("offsets {1}", "free"), ("window(1)", None))), "t.uap")
    step = _layers_step(r)
    assert (r.verdict, r.layers, step.facts["least"]) == ("UAP", 6, False)  # D + 1 = 6, sufficient
    assert "Theorem F178" not in str(step.evidence.get("method", ""))


@pytest.mark.parametrize("n", [4, 7])
def test_the_verifier_rederives_it(tmp_path, n):
    """n ≤ 8: fully verified (over S_n, the `free` classes the arcs themselves); a count of D stated where a witness
    exists, or D + 1 stated where none does, is rejected."""
    import copy
    cert = certificate_from_cli(program(n, (("window(1)", "free"), ("global(1)", None))), tmp_path)
    report = verify(cert)
    assert report.ok and report.complete, report
    forged = copy.deepcopy(cert)
    data = next(s for s in forged["steps"] if s["rule"] == "PAT-LAYERS")["data"]
    data["layers"] = data["diameter"] if data["layers"] == data["diameter"] + 1 else data["diameter"] + 1
    data["least"] = True
    data.pop("view witness", None)
    assert verify(forged).rejected
