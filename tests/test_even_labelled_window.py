"""A non-cyclic window with even labels, one head's naming the distance (a `symmetric toeplitz` bias, or a fixed even
term such as symmetric ALiBi): Theorem F176 (docs/theory.md §16.5), at a concrete and at a symbolic n.

The statement (UAP, G the reflection, D = ⌈(n − 1)/w⌉ layers, least, for n ≥ w + 2) against: the concrete labelled
rooted-view engine (without the theorem) at every n ≤ 60, the concrete derivation below the range, and a brute force
over S_n (n ≤ 7) from the definitions of §11.10; the certificate kernel and the verifier re-derive it and reject
forgeries; labels that break the reflection or keep no distance are not claimed."""
from __future__ import annotations

import copy

import pytest
import sympy

import uapcheck
from uapcheck import spec as S
from uapcheck.certificates import LabelledWindowLayers, LabelledWindowRange
from uapcheck.proof import CertificateRejected
from uapcheck.verifier import verify

from certificates import certificate_from_cli  # tests/ is on sys.path
from t5_buckets import brute, labelled_views, window_neighbours

KERNEL = "  kernel k(q, key) = exp(q . key)\n"
ALIBI = "bias b(i, j) = -m * |i - j|"
SQUARE = "bias b(i, j) = -(i - j)^2"


def program(n, w: int, labels: tuple) -> str:
    """One head per label on window(w) (None: a position-blind head)."""
    heads = "".join("attention {\n" + KERNEL + f"  pattern window({w})\n" + (f"  {lab}\n" if lab else "") + "}\n"
                    for lab in labels)
    return (f"tokens {n}\n" if n is not None else "tokens n\n") + "param m > 0\n" + heads


def stated_at(r, n: int):
    """(order, layers, least) the symbolic result states at n: the closed form in its range, else the length's own."""
    symbol = next(iter(r.layers.free_symbols))
    if r.group.condition_formula.xreplace({symbol: n}) is sympy.true and n >= 2:
        return 2, int(r.layers.xreplace({symbol: n})), True
    found = next(x for x in r.root.facts["below_range"] if x.n == n)
    return int(found.group.order), found.layers, found.least


def _layers_step(r):
    return next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")


SETTINGS = [(1, ("bias symmetric toeplitz",)), (2, (ALIBI,)), (3, ("bias symmetric toeplitz",)), (4, (SQUARE,)),
            (2, ("bias symmetric toeplitz", None)), (3, (ALIBI, "bias symmetric circulant")),
            (5, ("bias symmetric toeplitz",))]


@pytest.mark.parametrize("w,labels", SETTINGS)
def test_the_symbolic_statement(w, labels):
    """UAP, G the reflection, ⌈(n − 1)/w⌉ layers, least, from n = w + 2 on, certified by Theorem F176."""
    r = uapcheck.check(program(None, w, labels), "t.uap")
    assert r.verdict == "UAP", (w, labels)
    n = next(iter(r.layers.free_symbols))
    assert r.group.name == "reflection"
    assert sympy.simplify(r.layers - sympy.ceiling((n - 1) / w)) == 0
    step = _layers_step(r)
    assert step.facts["least"] is True and step.certificate.kind == "labelled-window-range"
    assert step.certificate.to_json()["theorem"] == "F176" and step.certificate.low == w + 2
    below = [x.n for x in r.root.facts["below_range"]]  # a position-blind head beside: its group's range may start later
    assert below == list(range(1, len(below) + 1)) and len(below) >= w + 1


@pytest.mark.parametrize("w,labels", SETTINGS)
def test_the_closed_form_against_the_concrete_engines_up_to_sixty(w, labels):
    """Every n ≤ 60: in the range, the labelled rooted views (graphs/views.py, without the theorem) give the
    reflection and the stated count, least; below it, the stated length verdict is the concrete derivation's."""
    r = uapcheck.check(program(None, w, labels), "t.uap")
    for n in range(1, 61):
        order, layers, least = stated_at(r, n)
        if n <= w + 1:
            c = uapcheck.check(program(n, w, labels), "t.uap")
            assert (c.verdict, c.group.order, c.layers) == ("UAP", order, layers), (w, n)
            continue
        assert labelled_views(program(n, w, labels)) == (order, layers, least), (w, n)


def _label(lab, n: int):
    """A head's label of the arc (query q, key k) at n: none, the distance, or `symmetric circulant`'s class."""
    if lab is None:
        return None
    if "circulant" in lab:
        return lambda q, k: min((k - q) % n, (q - k) % n)
    return lambda q, k: abs(k - q)


@pytest.mark.parametrize("w,labels", [(1, ("bias symmetric toeplitz",)), (2, (ALIBI,)), (3, (SQUARE,)),
                                      (2, ("bias symmetric toeplitz", "bias symmetric circulant"))])
def test_the_statement_against_brute_force(w, labels):
    """n ≤ 7 over all of S_n from the definitions: G keeps every head's arcs and labels (|j − i| for the head naming
    the distance, min(|j − i|, n − |j − i|) for `symmetric circulant`), and D layers unless some σ ∉ G keeps the
    labelled ball of radius D − 1 of a position: the stated group order and least count at every length."""
    r = uapcheck.check(program(None, w, labels), "t.uap")
    for n in range(2, 8):
        heads = [(window_neighbours(n, w), _label(lab, n)) for lab in labels]
        assert stated_at(r, n)[:2] == brute(n, heads), (w, n)


def test_the_concrete_theorem_decides_without_the_views():
    """At a concrete n the derivation states Theorem F176 (no rooted views built): symmetric ALiBi on window(2) at
    12 tokens, the reflection and 6 layers, least; on window(3) at 100,000 tokens 33,333 layers, least."""
    r = uapcheck.check(program(12, 2, (ALIBI,)), "t.uap")
    assert (r.verdict, r.group.order, r.layers) == ("UAP", 2, 6)
    assert _layers_step(r).certificate.kind == "labelled-window" and _layers_step(r).facts["least"] is True
    big = uapcheck.check(program(100_000, 3, ("bias symmetric toeplitz",)), "t.uap")
    assert (big.verdict, big.layers, _layers_step(big).facts["least"]) == ("UAP", 33_333, True)


@pytest.mark.parametrize("labels", [("bias circulant",), ("bias symmetric circulant",), ("rotary",),
                                    ("bias symmetric toeplitz", "bias circulant")])
def test_labels_that_break_the_reflection_or_name_no_distance_are_not_claimed(labels):
    """`circulant` (not even), `symmetric circulant` alone (its class merges d and n − d at n ≤ 2w), RoPE (not a
    class the sufficiency covers): Theorem F176 is not applied."""
    r = uapcheck.check(program(None, 3, labels), "t.uap")
    assert not any(s.certificate is not None and s.certificate.kind == "labelled-window-range" and
                   s.certificate.to_json()["theorem"] == "F176" for s in r.root.walk())


def test_the_kernel_rejects_forged_certificates():
    """The kernel accepts F176's concrete and symbolic certificates and rejects a count below or above D, a cyclic
    window, a `circulant` head beside, and even labels with no head naming the distance."""
    window, n = S.Window(2), sympy.Symbol("n", integer=True, positive=True)
    d = sympy.ceiling((n - 1) / 2)
    LabelledWindowLayers(window, 12, ("symmetric toeplitz",), 6, 6).check()
    LabelledWindowRange(window, n, ("symmetric toeplitz", None), d, d, 4).check()
    forged = [LabelledWindowLayers(window, 12, ("symmetric toeplitz",), 6, 5),
              LabelledWindowLayers(window, 12, ("symmetric toeplitz",), 6, 7),
              LabelledWindowLayers(S.Window(2, cyclic=True), 12, ("symmetric toeplitz",), 3, 3),
              LabelledWindowLayers(window, 12, ("symmetric toeplitz", "circulant"), 6, 6),
              LabelledWindowLayers(window, 12, ("symmetric circulant",), 6, 6),
              LabelledWindowRange(window, n, ("symmetric toeplitz",), d, d + 1, 4),
              LabelledWindowRange(window, n, ("symmetric toeplitz",), d, sympy.Max(2, d), 3)]
    for cert in forged:
        with pytest.raises(CertificateRejected):
            cert.check()


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("labels", [(ALIBI,), ("bias symmetric toeplitz",)])
def test_the_verifier_rederives_the_count_its_start_and_the_group(tmp_path, labels):
    """At a symbolic n the count and the group are verified (the fixed even term's classes re-derived); a count off
    by one, a count not least, a start below w + 2 and the trivial group are rejected."""
    cert = certificate_from_cli(program(None, 2, labels), tmp_path)
    report = verify(cert)  # (a fixed term's lengths below the range, n = 3, stay trusted in VERDICT-T1)
    assert not report.rejected and not report.problems, report
    statuses = {s.rule: s.outcome for s in report.steps}
    assert statuses["PAT-LAYERS"] == "verified" and statuses["SYM-AUT"] == "verified", report
    more = copy.deepcopy(cert)
    layers = _step(more, "PAT-LAYERS")["data"]["layers"]
    _step(more, "PAT-LAYERS")["data"]["layers"] = {"op": "+", "args": [layers, 1]}
    assert verify(more).rejected
    not_least = copy.deepcopy(cert)
    _step(not_least, "PAT-LAYERS")["data"]["least"] = False
    assert verify(not_least).rejected
    early = copy.deepcopy(cert)
    _step(early, "PAT-LAYERS")["data"]["from"] = 3
    assert verify(early).rejected
    group = copy.deepcopy(cert)
    _step(group, "SYM-AUT")["data"]["name"] = "trivial"
    assert verify(group).rejected


def test_the_verifier_rederives_the_concrete_count(tmp_path):
    """At 40 tokens (above the verifier's exhaustive lengths) the count D = 20, least, is re-derived by Theorem F176;
    a forged group of order 1 is rejected."""
    cert = certificate_from_cli(program(40, 2, (ALIBI,)), tmp_path)
    report = verify(cert)
    assert report.ok and report.complete, report
    group = copy.deepcopy(cert)
    data = _step(group, "SYM-AUT")["data"]
    data.update(order=1, generators=[], name="trivial")
    assert verify(group).rejected
