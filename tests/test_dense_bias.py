"""Symmetric trainable biases: TD-BIAS leaves the count to the labelled views, BIAS-LAYERS decides one
layer or two for dense heads (docs/theory.md §8, §11.10, §20.7). Checked against a brute force over
S_n written here, against `uapcheck simulate`, and by the verifier; forged certificates are rejected."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

import uapcheck
from uapcheck import proof
from uapcheck.certificates import DenseBiasLayers

from certificates import certificate_from_cli  # tests/ is on sys.path
from graphs.brute_views import distances_to
from graphs.reference import attends  # tests/graphs (tests/ is on sys.path)

ROOT = Path(__file__).resolve().parent.parent


def cls(kind: str, n: int, q: int, k: int):
    """The class of (query q, key k) under a trainable bias (written independently of the package)."""
    m = k - q
    if kind == "free":
        return (q, k)
    if kind == "toeplitz":
        return m
    if kind == "circulant":
        return m % n
    if kind == "symmetric toeplitz":
        return abs(m)
    return min(abs(m), n - abs(m))  # symmetric circulant: the circular distance


def brute_least_dense(kinds, n: int) -> int:
    """1 if no σ outside the labelled group keeps the labels of some row, else 2 (dense heads)."""
    def keeps(perm, i):
        return all(cls(k, n, perm[i], perm[u]) == cls(k, n, i, u) for k in kinds for u in range(1, n + 1))
    for images in itertools.permutations(range(1, n + 1)):
        perm = (0,) + images  # perm[p] = σ(p), 1-based
        rows = [keeps(perm, i) for i in range(1, n + 1)]
        if any(rows) and not all(rows):
            return 2
    return 1


def program(kinds, n=None) -> str:
    heads = "\n".join(
        f"attention h{k} {{\n  kernel k(x, y) = exp(x . y)\n" + (f"  bias {kind}\n" if kind else "") + "}"
        for k, kind in enumerate(kinds))
    return (f"tokens {n}\n" if n is not None else "") + heads


COMBINATIONS = [("symmetric toeplitz",), ("symmetric circulant",), ("symmetric toeplitz", "symmetric circulant"),
                ("symmetric toeplitz", None), ("symmetric circulant", "circulant"),
                ("symmetric toeplitz", "circulant"), ("symmetric toeplitz", "toeplitz"),
                ("symmetric circulant", "free")]


@pytest.mark.parametrize("kinds", COMBINATIONS, ids=lambda k: "+".join(x or "plain" for x in k))
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_dense_layer_count_agrees_with_brute_force(kinds, n):
    """The verdict's layer count is the brute-force least count wherever it says `least`, and never
    below it; the verdict is UAP."""
    r = uapcheck.check(program(kinds, n))
    assert r.verdict == "UAP", r.root.claim
    want = brute_least_dense([k for k in kinds if k], n)
    step = next(s for s in r.root.walk() if s.rule == "BIAS-LAYERS")
    if step.facts["least"]:
        assert r.layers == want, (kinds, n, r.layers, want)
    else:
        assert r.layers >= want


def _labelled_brute_least(patterns, kinds, n) -> int:
    """The least m ≥ D without a labelled view witness (§11.10), all of S_n tried: heads are
    `.uap` patterns with a trainable bias kind each (None: no bias)."""
    from uapcheck.parse import parse_source
    spec = parse_source(f"tokens {n}\n" + "\n".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}"
                                                   for p in patterns), "t.uap")
    nbs = [[set()] + [{v} | {j for (i, j) in attends(h.pattern, n) if i == v} for v in range(1, n + 1)]
           for h in spec.heads]

    def lab(h, v, u):
        return cls(kinds[h], n, v, u) if kinds[h] else None
    dist = distances_to(nbs, n)
    D = max(max(d.values()) for d in dist.values())

    def keeps(perm, v):
        return all({perm[u] for u in nbs[h][v]} == nbs[h][perm[v]] and
                   all(lab(h, perm[v], perm[u]) == lab(h, v, u) for u in nbs[h][v]) for h in range(len(nbs)))
    perms = [[0] + [p + 1 for p in perm] for perm in itertools.permutations(range(n))]
    in_group = [all(keeps(p, v) for v in range(1, n + 1)) for p in perms]
    m = D
    while True:
        if not any(not g and any(all(keeps(p, v) for v in range(1, n + 1) if dist[i].get(v, n + 1) <= m - 1)
                                 for i in range(1, n + 1)) for p, g in zip(perms, in_group)):
            return m
        m += 1


@pytest.mark.parametrize("pattern,kind,n", [("window(1)", "symmetric toeplitz", 5), ("window(1)", "symmetric toeplitz", 6),
                                            ("window(1) cyclic", "symmetric circulant", 6),
                                            ("window(2) cyclic", "symmetric circulant", 7),
                                            ("global(1)", "symmetric toeplitz", 6)])
def test_a_symmetric_bias_on_a_pattern_gets_the_labelled_views_least_count(pattern, kind, n):
    r = uapcheck.check(f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n"
                       f"  bias {kind}\n}}")
    assert r.verdict == "UAP", r.root.claim
    layers = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    want = _labelled_brute_least([pattern], [kind], n)
    assert r.layers >= want
    if layers.facts.get("least"):
        assert r.layers == want


def test_symbolic_n_states_the_witness_range():
    r = uapcheck.check(program(("symmetric toeplitz",)))
    assert (r.verdict, r.layers, r.group.name, r.group.condition) == ("UAP", 2, "reflection", "n ≥ 4")
    r = uapcheck.check(program(("symmetric circulant",)))
    assert (r.verdict, r.layers, r.group.name, r.group.condition) == ("UAP", 2, "D_n", "n ≥ 5")


def test_below_the_witness_range_one_layer_suffices():
    assert uapcheck.check(program(("symmetric toeplitz",), 3)).layers == 1
    assert uapcheck.check(program(("symmetric circulant",), 4)).layers == 1
    assert uapcheck.check(program(("symmetric circulant",), 5)).layers == 2


def test_a_fixed_even_weight_beside_a_symmetric_bias_is_decided_by_lemma_e():
    """A fixed even bias labels (i, u) by |u − i|; beside a trainable symmetric bias the group is the
    reflection and the count two, least (docs/theory.md §16.2, Lemma E)."""
    r = uapcheck.check("tokens 16\nparam m > 0\nattention a {\n  kernel k(x, y) = exp(x . y)\n"
                       "  bias symmetric toeplitz\n}\nattention b {\n  kernel k(q, key) = exp(q . key)\n"
                       "  bias b(i, j) = -m * |i - j|\n}")
    assert (r.verdict, r.group.name, r.layers) == ("UAP", "reflection", 2)
    step = next(s for s in r.root.walk() if s.rule == "BIAS-LAYERS")
    assert step.proved and step.facts["least"] and [p.rule for p in step.premises] == ["TD-FIXEDBIAS"]


def test_a_fixed_injective_weight_beside_a_symmetric_bias_leaves_the_count_undecided():
    r = uapcheck.check("tokens 16\nparam m > 0\nattention a {\n  kernel k(x, y) = exp(x . y)\n"
                       "  bias symmetric toeplitz\n}\nattention b {\n  kernel k(q, key) = exp(q . key)\n"
                       "  bias b(i, j) = -m * (i - j)\n}")
    assert r.verdict == "INCONCLUSIVE"
    step = next(s for s in r.root.walk() if s.rule == "BIAS-LAYERS")
    assert step.status is proof.UNDECIDED


def test_one_layer_is_never_counted_for_a_symmetric_bias_without_its_layer_step():
    """VERDICT-T1's guard: a TD-BIAS step with `labelled_views` and no BIAS-LAYERS or PAT-LAYERS step
    gives no layer count (so no UAP)."""
    from uapcheck.rules import verdict
    r = uapcheck.check(program(("symmetric toeplitz",), 8))
    steps = {s.rule: s for s in r.root.walk()}
    got = verdict.decide(steps["FFN-DEF2"], [steps["TD-BIAS"]], [], steps["SYM-DENSE"], r.spec.dim)
    assert got[0] is proof.Verdict.INCONCLUSIVE and got[3] is None


@pytest.mark.parametrize("cert,why", [
    (DenseBiasLayers(("symmetric toeplitz",), 8, 1, True, "exhaustive"), "small concrete n"),
    (DenseBiasLayers(("symmetric toeplitz",), 5, 1, True, "exhaustive"), "keeps row"),
    (DenseBiasLayers(("symmetric circulant",), 4, 2, True, "witness", (2, 1, 3, 4), 4), "does not tell"),
    (DenseBiasLayers(("symmetric toeplitz",), 9, 2, True, "witness", (2, 1, 4, 5), 4), "tells key"),
    (DenseBiasLayers(("symmetric toeplitz",), 9, 1, True, "injective"), "injective head"),
    (DenseBiasLayers(("symmetric toeplitz", "free"), 9, 2, False, "sufficient"), "free"),
    (DenseBiasLayers(("symmetric toeplitz",), 9, 2, True, "sufficient"), "not shown least"),
])
def test_forged_dense_bias_certificates_are_rejected(cert, why):
    with pytest.raises(proof.CertificateRejected, match=why):
        cert.check()


def test_the_exhaustive_certificate_accepts_the_true_answers():
    DenseBiasLayers(("symmetric toeplitz",), 3, 1, True, "exhaustive").check()
    DenseBiasLayers(("symmetric toeplitz",), 5, 2, True, "exhaustive", (2, (3, 2, 1, 4, 5))).check()


def test_the_verifier_re_decides_the_count_and_rejects_a_tampered_one(tmp_path):
    from uapcheck.verifier import verify
    cert = certificate_from_cli(program(("symmetric circulant",)), tmp_path)
    report = verify(cert)
    assert report.problems == []
    assert {s.rule: s.outcome for s in report.steps}["BIAS-LAYERS"] == "verified"
    for step in cert["steps"]:
        if step["rule"] == "BIAS-LAYERS":
            step["data"]["layers"] = 1
    tampered = verify(cert)
    assert any(s.rule == "BIAS-LAYERS" and s.outcome == "rejected" for s in tampered.steps)


@pytest.mark.parametrize("name", ["bias_symmetric_toeplitz.uap", "bias_symmetric_circulant.uap"])
def test_simulate_shows_the_one_layer_coincidence_and_the_two_layer_separation(name):
    p = subprocess.run([sys.executable, "-m", "uapcheck", "simulate", str(ROOT / "catalog" / name), "--format", "json"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert p.returncode == 0, p.stderr
    demos = {d["kind"]: d for d in json.loads(p.stdout)["demonstrations"]}
    witness = demos["view-witness"]
    assert witness["holds"] is True
    assert witness["data"]["diameter"] == 1 and witness["data"]["position"] == 2
    assert witness["data"]["exact_distance_at_D"] == 0 or witness["data"]["exact_distance_at_D"] < 1e-40
    assert witness["data"]["min_distance_at_D_plus_1"] > 1e-4


def test_the_headline_states_the_layer_range_in_words_and_formula():
    """The verdict's range is BIAS-LAYERS' (n ≥ 4), in the words and in the typed formula alike."""
    r = uapcheck.check(program(("symmetric toeplitz",)))
    assert r.group.condition == "n ≥ 4"
    assert str(r.group.condition_formula) == "n >= 4"
    from uapcheck.render.markdown import render as markdown
    headline = next(line for line in markdown(r).splitlines() if line.startswith("**UAP"))
    assert r"n \geq 4" in headline and r"n \geq 2" not in headline


def test_no_count_without_every_head_token_distinguishing():
    """Lemma V^λ needs each head's kernel premise: a tanh score with a symmetric bias (its TD-KERNEL open) gets no
    count, and the verifier refuses a forged proved count there."""
    r = uapcheck.check("attention { score s(x, y) = tanh(x . y); affine query key; bias symmetric toeplitz }\n")
    step = next(s for s in r.root.walk() if s.rule == "BIAS-LAYERS")
    assert step.status is proof.UNDECIDED and "head 1" in str(step.claim)
    assert r.verdict == "INCONCLUSIVE"
