"""Per-layer causal patterns (docs/theory.md §21.5) with a `layers M` budget that cuts off later layers which read
later positions. The network has layers 1, …, M only (§21: "a `layers M` budget cuts Φ after M layers"), so the
family is causal and the engine analyses it; the verifier's causal-class check read every layer of the list, found
the cut-off layer's forward arc and rejected the certificate ("layer 3 has the arc 4 → 1 from a later position").
The counts are compared with a brute force of the definitions (reach and view witnesses over S_n)."""
from __future__ import annotations

import itertools
import json

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import verify


def _arcs(name: str, n: int) -> dict:
    """The in-neighbourhoods (self included) of the few patterns used here."""
    out = {}
    for i in range(1, n + 1):
        if name == "causal":
            s = set(range(1, i + 1))
        elif name.startswith("causal & window("):
            w = int(name[len("causal & window("):-1])
            s = {j for j in range(1, i + 1) if i - j <= w}
        elif name == "full":
            s = set(range(1, n + 1))
        else:
            raise ValueError(name)
        out[i] = frozenset(s | {i})
    return out


def _brute(names: list, n: int):
    """("UAP", m) with m the least depth ≤ len(names) reaching every prefix with no causal view witness, else
    ("NOT-UAP", None)."""
    layers = [_arcs(x, n) for x in names]
    perms = list(itertools.permutations(range(1, n + 1)))
    for m in range(1, len(layers) + 1):
        reach = {v: {v} for v in range(1, n + 1)}
        for ell in range(m):
            reach = {v: set().union(*(reach[u] for u in layers[ell][v])) for v in range(1, n + 1)}
        if any(reach[i] != set(range(1, i + 1)) for i in range(1, n + 1)):
            continue
        witness = False
        for i in range(1, n + 1):
            V = {m: {i}}
            for ell in range(m, 0, -1):
                V[ell - 1] = set().union(*(layers[ell - 1][v] for v in V[ell]))
            for p in perms:
                if all(p[q - 1] == q for q in range(1, i + 1)):
                    continue
                if all(frozenset(p[u - 1] for u in layers[ell - 1][v]) == layers[ell - 1][p[v - 1]]
                       for ell in range(1, m + 1) for v in V[ell]):
                    witness = True
                    break
            if witness:
                break
        if not witness:
            return "UAP", m
    return "NOT-UAP", None


CASES = [
    (["causal & window(2)", "causal & window(3)"], "sequence { causal & window(2), causal & window(3), full }", 5, 2),
    (["causal"], "periodic { causal, full }", 4, 1),
    (["causal", "causal & window(1)"], "sequence { causal, causal & window(1), full }", 5, 2),
    (["causal & window(1)", "causal"], "periodic { causal & window(1), causal, full }", 6, 2),
]


@pytest.mark.parametrize("kept,pattern,n,budget", CASES)
def test_a_budget_cuts_off_the_later_layers_and_the_certificate_verifies(kept, pattern, n, budget):
    src = f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\nlayers {budget}\ntarget causal\n"
    r = uapcheck.check(src)
    want, m = _brute(kept, n)
    assert r.verdict == want
    if want == "UAP":
        assert r.layers == m
    report = verify(json.loads(json.dumps(certfile.build(r, src))))
    assert report.ok, [(s.rule, s.reason) for s in report.rejected]


def test_a_later_position_within_the_budget_is_still_refused():
    """The forward arc in a layer the network has: the family is not causal; a certificate that claims the reach step
    anyway is rejected."""
    good = ("tokens 5\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern sequence { causal & window(2), "
            "causal & window(3), full }\n}\nlayers 2\ntarget causal\n")
    cert = json.loads(json.dumps(certfile.build(uapcheck.check(good), good)))
    forged = good.replace("layers 2", "layers 3")
    cert["input"]["text"] = forged
    import hashlib
    cert["input"]["sha256"] = hashlib.sha256(forged.encode("utf-8")).hexdigest()
    report = verify(cert)
    assert not report.ok
    assert any("from a later position" in s.reason for s in report.rejected)
