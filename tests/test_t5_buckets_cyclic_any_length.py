"""A cyclic window with T5 buckets (or a `toeplitz` bias): Theorem F152 (docs/theory.md §16.5).

For n ≥ 2w + 2 the group is trivial and D = ⌈⌊n/2⌋/w⌉ layers are needed and suffice, at a symbolic n and at a
concrete n beyond the arcs. Checked against: the concrete labelled rooted-view engine (without the theorem) at every
2w + 2 ≤ n ≤ 60; the concrete derivation at the lengths below the range; the brute force over S_n (n ≤ 7) from the
definitions of §11.10 with the released bucket function, including buckets(4, 8), whose labels are the sign alone;
the verifier re-derives the count, its start and the group and rejects forgeries."""
from __future__ import annotations

import copy
import itertools

import pytest
import sympy

import uapcheck
from uapcheck.verifier import verify

from certificates import certificate_from_cli  # tests/ is on sys.path
from t5_buckets import brute, bucket_label, distances_to, labelled_views, window_neighbours

KERNEL = "  kernel k(q, key) = exp(q . key)\n"


def program(n, w: int, label: str) -> str:
    return (f"tokens {n}\n" + "attention {\n" + KERNEL + f"  pattern window({w}) cyclic\n  {label}\n}}\n")


def diameter(n: int, w: int) -> int:
    return -(-(n // 2) // w)


def symbolic(w: int, label: str):
    r = uapcheck.check(program("n", w, label), "t.uap")
    assert r.verdict == "UAP", (w, label, r.verdict)
    return r


def stated_at(r, n: int):
    """(order, layers, least) the symbolic result states at n: the closed form in its range, else the length's own."""
    symbol = next(iter(r.layers.free_symbols))
    if r.group.condition_formula.xreplace({symbol: n}) is sympy.true:
        return 1, int(r.layers.xreplace({symbol: n})), True
    found = next(x for x in r.root.facts["below_range"] if x.n == n)
    return int(found.group.order), found.layers, found.least


SETTINGS = [(1, "bias buckets(8, 16)"), (2, "bias buckets(8, 16)"), (3, "bias buckets(4, 8)"),
            (2, "bias buckets(32, 128)"), (5, "bias buckets(16, 24)"), (3, "bias toeplitz")]


@pytest.mark.parametrize("w,label", SETTINGS)
def test_the_symbolic_statement(w, label):
    """UAP, G trivial, ⌈⌊n/2⌋/w⌉ layers, least, from n = 2w + 2 on (below, the cyclic window is complete)."""
    r = symbolic(w, label)
    n = next(iter(r.layers.free_symbols))
    assert r.group.name == "trivial" and r.group.condition_formula == sympy.Ge(n, 2 * w + 2)
    assert sympy.simplify(r.layers - sympy.ceiling(sympy.floor(n / 2) / w)) == 0
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.facts["least"] is True and step.certificate.kind == "labelled-window-range"
    assert "F152" in step.claim + str(step.certificate.to_json())
    assert [x.n for x in r.root.facts["below_range"]] == list(range(1, 2 * w + 2))


@pytest.mark.parametrize("w,label", SETTINGS)
def test_the_closed_form_against_the_labelled_views_up_to_sixty(w, label):
    """Every n ≤ 60: in the range, the labelled rooted views (graphs/views.py, without the theorem) give the stated
    count, least, and the group engine on the labelled arcs the trivial group; below it, the stated length verdict is
    the concrete derivation's."""
    r = symbolic(w, label)
    for n in range(1, 61):
        order, layers, least = stated_at(r, n)
        if n <= 2 * w + 1:
            c = uapcheck.check(program(n, w, label), "t.uap")
            assert (c.verdict, c.group.order, c.layers) == ("UAP", order, layers), (w, n)
            continue
        assert layers == diameter(n, w)
        assert labelled_views(program(n, w, label)) == (order, layers, least), (w, n)


@pytest.mark.parametrize("w,buckets", [(1, (8, 16)), (1, (4, 8)), (2, (8, 16)), (2, (4, 8))])
def test_the_symbolic_statement_against_brute_force(w, buckets):
    """n ≤ 7 over all of S_n, from the definitions (tests/t5_buckets.py, the released bucket function in floating
    point): the stated group order and least count at every length, in the range and below it."""
    r = symbolic(w, f"bias buckets{buckets}")
    for n in range(2, 8):
        assert stated_at(r, n)[:2] == brute(n, [(window_neighbours(n, w, cyclic=True), bucket_label(buckets))]), (w, n)


def _only_identity_keeps_every_ball(n: int, w: int) -> bool:
    """Every root i: the permutations keeping the labelled ball of radius D − 1 (labels: the sign of the real offset
    alone, the theorem's only hypothesis on them) are the identity, over all of S_n."""
    nbs = window_neighbours(n, w, cyclic=True)
    d = diameter(n, w)

    def sign(q, k):
        return (k > q) - (k < q)

    for i in range(1, n + 1):
        dist = distances_to(nbs, n, i)
        ball = [v for v in range(1, n + 1) if dist[v] <= d - 1]
        for images in itertools.permutations(range(1, n + 1)):
            perm = (0,) + images
            if all({perm[u] for u in nbs[v]} == nbs[perm[v]] and
                   all(sign(perm[v], perm[u]) == sign(v, u) for u in nbs[v]) for v in ball):
                if list(images) != list(range(1, n + 1)):
                    return False
    return True


@pytest.mark.parametrize("n,w", [(4, 1), (5, 1), (6, 1), (7, 1), (8, 1), (6, 2), (7, 2), (8, 2), (8, 3)])
def test_the_sign_alone_leaves_only_the_identity(n, w):
    """The lemma of the proof, over all of S_n: at every root, only the identity keeps the labelled ball of radius
    D − 1 when the labels are the sign of the real offset (the wrap arcs read ±(n − d))."""
    assert _only_identity_keeps_every_ball(n, w)


def test_without_a_sign_the_theorem_is_not_claimed():
    """`symmetric toeplitz` and `circulant` labels keep no sign of the real offset: Theorem F152 is not applied."""
    for label in ("bias symmetric toeplitz", "bias circulant"):
        r = uapcheck.check(program("n", 2, label), "t.uap")
        assert not any(s.certificate is not None and s.certificate.kind == "labelled-window-range"
                       for s in r.root.walk()), label


def test_a_concrete_length_beyond_the_arcs_is_least_and_verified(tmp_path):
    """window(3) cyclic at 20,000 tokens (about 140,000 arcs): D = ⌈10000/3⌉ = 3334 layers, least (formerly D + 1,
    not shown least), fully verified; a count of D + 1 stated least is rejected."""
    text = program(20000, 3, "bias buckets(8, 16)")
    r = uapcheck.check(text, "t.uap")
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert (r.verdict, r.group.order, r.layers, step.facts["least"]) == ("UAP", 1, 3334, True)
    cert = certificate_from_cli(text, tmp_path)
    report = verify(cert)
    assert report.ok and report.complete, report
    more = copy.deepcopy(cert)
    _step(more, "PAT-LAYERS")["data"]["layers"] = 3335
    assert not verify(more).ok


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_verifier_rederives_the_count_its_start_and_the_group(tmp_path):
    """At a symbolic n: fully verified; a count off by one, a count not least, a start below 2w + 2, the dihedral
    group: rejected."""
    cert = certificate_from_cli(program("n", 3, "bias buckets(8, 16)"), tmp_path)
    report = verify(cert)
    assert report.ok and report.complete, report
    more = copy.deepcopy(cert)
    layers = _step(more, "PAT-LAYERS")["data"]["layers"]
    _step(more, "PAT-LAYERS")["data"]["layers"] = {"op": "+", "args": [layers, 1]}
    assert not verify(more).ok
    not_least = copy.deepcopy(cert)
    _step(not_least, "PAT-LAYERS")["data"]["least"] = False
    assert not verify(not_least).ok
    early = copy.deepcopy(cert)
    _step(early, "PAT-LAYERS")["data"]["from"] = 7
    assert not verify(early).ok
    group = copy.deepcopy(cert)
    _step(group, "SYM-AUT")["data"]["name"] = "D_n"
    assert not verify(group).ok


def test_the_kernel_rejects_forged_cyclic_certificates():
    from uapcheck import proof, spec as S
    from uapcheck.certificates import LabelledWindowLayers, LabelledWindowRange
    window = S.Window(3, cyclic=True)
    LabelledWindowLayers(window, 20000, ("buckets(8, 16)",), 3334, 3334).check()
    n = sympy.Symbol("n", integer=True, positive=True)
    d = sympy.ceiling(sympy.floor(n / 2) / 3)
    LabelledWindowRange(window, n, ("buckets(8, 16)",), d, d, 8).check()
    forged = [LabelledWindowLayers(window, 20000, ("buckets(8, 16)",), 3334, 3333),  # a count below D
              LabelledWindowLayers(window, 20000, ("buckets(8, 16)",), 6667, 6667),  # the non-cyclic diameter
              LabelledWindowLayers(window, 7, ("buckets(8, 16)",), 2, 2),  # n < 2w + 2: complete
              LabelledWindowLayers(window, 20000, ("symmetric toeplitz",), 3334, 3334),  # labels that keep no sign
              LabelledWindowLayers(window, 20000, ("circulant",), 3334, 3334),
              LabelledWindowRange(window, n, ("buckets(8, 16)",), d, d, 5),  # a start below 2w + 2
              LabelledWindowRange(window, n, ("buckets(8, 16)",), d, d + 1, 8)]
    for cert in forged:
        with pytest.raises(proof.CertificateRejected):
            cert.check()
