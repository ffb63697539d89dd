"""Per-layer cyclic windows by closed forms (docs/theory.md §21.15, Theorems F139 and F160, Lemma AQ), checked a second
way: brute force over S_n at n ≤ 7 (the group, D_Φ and the least count by the definition of a view witness), the arc
engine of graphs/layers.py (rooted views, BLISS) at every n ≤ 40 for a dozen width lists, the symbolic form read
against the concrete decision, files end to end (the verifier), forged certificates rejected by the kernel and the
verifier, and 1,048,576 tokens decided fast."""
from __future__ import annotations

import copy
import itertools
import json
import time

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck import spec as S
from uapcheck.graphs import build_graph, symmetry_group
from uapcheck.graphs.layers import LayerSequence, connectivity, least_layers
from uapcheck.graphs.layers_cyclic_windows import decide, is_dihedral, recognise, symbolic_form
from uapcheck.layer_certificates_cyclic import CyclicCount, CyclicGroup
from uapcheck.proof import CertificateRejected
from uapcheck.rules.layers import _membership
from uapcheck.verifier import REJECTED, VERIFIED, verify

from sample_sizes import sample_size  # tests/ is on sys.path

LISTS = [((1, 2), True), ((4, 2), True), ((2, 1, 3), True), ((3, 1), True), ((2, 2), True), ((1, 3), True),
         ((5, 5), False), ((2, 3), False), ((2, 5), True), ((1, 1, 4), True), ((1, 2, 3), False), ((3, 1, 1), True)]


def _layers(widths, periodic):
    return recognise([S.Window(w, True) for w in widths], periodic)


def _file(pattern: str, tokens: str = "") -> str:
    return f'architecture "t"\n{tokens}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n'


def _cyclic(widths, periodic=True) -> str:
    inner = ", ".join(f"window({w}) cyclic" for w in widths)
    return ("periodic { " if periodic else "sequence { ") + inner + " }"


# ---------------------------------------------------------------------------------------------
# Brute force over S_n (n ≤ 7): every permutation, every root, the definition of §21.3


def _brute(widths, periodic, n, top=12):
    def N(w, v):
        return frozenset(u for u in range(1, n + 1) if min(abs(u - v), n - abs(u - v)) <= w)

    def width(ell):
        return widths[(ell - 1) % len(widths)]
    depth_limit = top if periodic else len(widths)
    nb = {w: [N(w, v) for v in range(1, n + 1)] for w in set(widths)}

    def keeps(p, w, vs):
        return all(frozenset(p[u - 1] for u in nb[w][v - 1]) == nb[w][p[v - 1] - 1] for v in vs)
    perms = list(itertools.permutations(range(1, n + 1)))
    group = {p for p in perms if all(keeps(p, w, range(1, n + 1)) for w in widths)}
    full = set(range(1, n + 1))

    def reach(i, m):
        cur = {i}
        for ell in range(m, 0, -1):
            cur = set().union(*(nb[width(ell)][v - 1] for v in cur))
        return cur
    depth = next((m for m in range(1, depth_limit + 1) if all(reach(i, m) == full for i in full)), None)
    if depth is None:
        return len(group), None, None
    for m in range(depth, depth_limit + 1):
        witness = False
        for i in full:
            views = {m: {i}}
            for ell in range(m, 0, -1):
                views[ell - 1] = set().union(*(nb[width(ell)][v - 1] for v in views[ell]))
            if any(p not in group and all(keeps(p, width(ell), views[ell]) for ell in range(1, m + 1)) for p in perms):
                witness = True
                break
        if not witness:
            return len(group), depth, m
    return len(group), depth, None


BRUTE = [(w, p, n) for w, p in [((1, 2), True), ((2, 1), True), ((1, 1), True), ((2, 1, 3), True), ((1, 2), False),
                                ((1, 3), True), ((1, 1, 1), False)] for n in range(3, 8)]


@pytest.mark.parametrize("widths,periodic,n", BRUTE)
def test_closed_forms_match_brute_force_over_all_permutations(widths, periodic, n):
    L = _layers(widths, periodic)
    dec = decide(L, n)
    order, depth, least = _brute(widths, periodic, n)
    assert dec.depth == depth
    if n >= 5:
        assert is_dihedral(L, n) == (order == 2 * n)  # F139: D_n exactly from 2w_* + 3 on, larger below
    if dec.pinned is not None:
        assert order == 2 * n and least == depth  # Lemma AQ: D_Φ is least


# ---------------------------------------------------------------------------------------------
# The arc engine (rooted views per layer, BLISS)


def _arc_engine(widths, periodic, n):
    seq = LayerSequence(n, tuple((build_graph(S.Window(w, True), n, {}),) for w in widths), periodic)
    grp = symmetry_group(seq.distinct_graphs())
    limit = None if periodic else len(widths)
    reach = connectivity(seq, limit)
    if reach.depth is None:
        return int(grp.order), None, None
    gens = tuple(tuple(g) for g in grp.generators)
    return int(grp.order), reach.depth, least_layers(seq, max(reach.depth, 1), int(grp.order), gens,
                                                     _membership(seq), limit)


EVERY_N_UP_TO = sample_size(28, 40)


@pytest.mark.parametrize("widths,periodic", LISTS)
def test_closed_forms_match_the_arc_engine_at_every_n(widths, periodic):
    L = _layers(widths, periodic)
    for n in range(3, EVERY_N_UP_TO + 1):
        dec = decide(L, n)
        order, depth, least = _arc_engine(widths, periodic, n)
        assert dec.depth == depth, (widths, n)
        if n >= 5:
            assert is_dihedral(L, n) == (order == 2 * n), (widths, n, order)
        if dec.pinned is not None:
            assert least.layers == depth and least.least, (widths, n, least)


@pytest.mark.parametrize("widths", [(1, 2), (1, 3), (1, 1, 4), (1, 2, 5)])
def test_the_symbolic_form_is_the_concrete_decision_at_every_n_of_its_range(widths):
    L = _layers(widths, True)
    form = symbolic_form(L)
    n = sympy.Symbol("n", integer=True, positive=True)
    for k in range(form.start, 200):
        dec = decide(L, k)
        assert dec.pinned is not None and int(form.layers.xreplace({n: k})) == dec.depth
    assert form.start == 5 or decide(L, form.start - 1).pinned is None  # sharp


def test_lists_no_layer_pins_on_some_class_are_left_open():
    assert symbolic_form(_layers((4, 2), True)) is None
    r = uapcheck.check(_file(_cyclic((4, 2))), "t.uap")
    assert r.verdict == "INCONCLUSIVE"


def test_a_million_tokens_are_decided_fast():
    start = time.process_time()
    r = uapcheck.check(_file(_cyclic((1, 3)), "tokens 1048576"), "t.uap")
    assert time.process_time() - start < 20
    assert (r.verdict, r.layers, r.group.name) == ("UAP", 262144, "D_n")


def test_a_symbolic_length_is_decided_and_the_lengths_below_by_the_engine():
    r = uapcheck.check(_file(_cyclic((1, 3))), "t.uap")
    n = sympy.Symbol("n", integer=True, positive=True)
    assert r.verdict == "UAP" and r.group.name == "D_n"
    assert sympy.simplify(r.layers - (sympy.ceiling((sympy.floor(n / 2) - 1) / 4) + sympy.ceiling(sympy.floor(n / 2) / 4))) == 0
    below = r.root.facts["below_range"]
    assert [x.n for x in below] == [1, 2, 3, 4] and all(x.verdict.value == "UAP" for x in below)


def test_a_finite_list_at_a_symbolic_n_is_not_uap_from_2r_plus_2():
    r = uapcheck.check(_file(_cyclic((3, 5), False)), "t.uap")
    assert r.verdict == "NOT-UAP"
    below = r.root.facts["below_range"]
    assert [x.n for x in below] == list(range(1, 18)) and all(x.verdict.value == "UAP" for x in below)
    for k in (17, 18):  # the concrete engine at the range's edge
        assert uapcheck.check(_file(_cyclic((3, 5), False), f"tokens {k}"), "t.uap").verdict == (
            "UAP" if k == 17 else "NOT-UAP")


def test_the_kernel_rejects_forged_certificates():
    L = _layers((1, 3), True)
    CyclicCount(L, 5000, 1250, 1, None).check()
    CyclicGroup(L, 5000, None).check()
    form = symbolic_form(L)
    CyclicCount(L, "n", form.layers, None, form.start).check()
    for forged in (CyclicCount(L, 5000, 1249, 1, None), CyclicCount(L, 5000, 1250, 2, None), CyclicGroup(L, 4, None),
                   CyclicCount(L, "n", form.layers + 1, None, form.start), CyclicGroup(L, "n", 4),
                   CyclicCount(_layers((4, 2), True), "n", symbolic_form(L).layers, None, 11),
                   CyclicCount(_layers((3, 5), False), "n", None, None, 17)):
        with pytest.raises(CertificateRejected):
            forged.check()


@pytest.mark.parametrize("tokens", ["tokens 5000", ""])
def test_the_verifier_checks_the_steps_and_rejects_forged_ones(tokens):
    text = _file(_cyclic((1, 3)), tokens)
    cert = json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))
    ids = {s["rule"]: s["id"] for s in cert["steps"]}
    report = verify(cert)
    assert all(s.outcome == VERIFIED for s in report.steps), [(s.id, s.outcome) for s in report.steps]
    for rule, field, value in (("SEQ-CYCLIC-LAYERS", "pinned layer" if tokens else "theorem", 2),
                               ("SEQ-CYCLIC-LAYERS", "widths", [1, 2]),
                               ("SEQ-CYCLIC-LAYERS", "least", False), ("SEQ-CYCLIC-GROUP", "least positive width", 3),
                               ("SEQ-CYCLIC-LAYERS", "from" if not tokens else "D_Φ", 4 if not tokens else 1249)):
        bad = copy.deepcopy(cert)
        next(s for s in bad["steps"] if s["rule"] == rule)["data"][field] = value
        got = {s.id: s.outcome for s in verify(bad, only={ids[rule]}).steps}
        assert got[ids[rule]] == REJECTED, (rule, field)


def test_the_verifier_accepts_a_finite_lists_not_uap_at_both_kinds_of_length():
    for tokens in ("tokens 5000", ""):
        text = _file(_cyclic((3, 5), False), tokens)
        cert = json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))
        assert all(s.outcome == VERIFIED for s in verify(cert).steps), tokens
    text = _file("sequence { window(100), window(200) }", "tokens 2000")  # Theorem F234's, read the same way
    cert = json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))
    assert all(s.outcome == VERIFIED for s in verify(cert).steps)
