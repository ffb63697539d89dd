"""Per-layer two-sided windows by closed forms (docs/theory.md §21.12, Theorems F231–F234, Lemma AO), checked a second
way: brute force over S_n at n ≤ 7 (the group, D_Φ and the least count by the definition of a view witness), the arc
engine of graphs/layers.py (rooted views, BLISS) at every n ≤ 60 for several width lists, the symbolic form read at
every n ≤ 60, files end to end (the verifier), forged certificates rejected by the kernel and the verifier, and
1,048,576 tokens decided fast."""
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
from uapcheck.graphs.layers_windows import decide, is_reflection, recognise, symbolic_form
from uapcheck.layer_certificates import WindowsCount, WindowsGroup
from uapcheck.proof import CertificateRejected
from uapcheck.rules.layers import _membership

from sample_sizes import sample_size  # tests/ is on sys.path

LISTS = [((1, 2), True), ((2, 1, 3), True), ((0, 1), True), ((3, 1), True), ((5, 5), False), ((1, 2, 3), False),
         ((4, 4, 1), True), ((2, 0, 5), True), ((9, 1), True), ((1, 1, 1, 1), False), ((7, 3, 12), True)]


def _layers(widths, periodic):
    return recognise([S.Window(w) for w in widths], periodic)


# ---------------------------------------------------------------------------------------------
# Brute force over S_n (n ≤ 7): every permutation, every root, the definition of §21.3


def _brute(widths, periodic, n, top=16):
    def N(w, v):
        return frozenset(range(max(1, v - w), min(n, v + w) + 1))

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


BRUTE = [(w, p, n) for w, p in [((1, 2), True), ((2, 1), True), ((0, 1), True), ((2, 1, 3), True), ((1, 2), False),
                                ((3, 1), True), ((1, 1, 1), False)] for n in range(3, 8)]


@pytest.mark.parametrize("widths,periodic,n", BRUTE)
def test_closed_forms_match_brute_force_over_all_permutations(widths, periodic, n):
    L = _layers(widths, periodic)
    dec = decide(L, n)
    order, depth, least = _brute(widths, periodic, n)
    assert dec.depth == depth
    assert is_reflection(L, n) == (order == 2)
    if dec.pinned is not None:
        assert order == 2 and least == depth  # Lemma AO: D_Φ is least


# ---------------------------------------------------------------------------------------------
# The arc engine (rooted views per layer, BLISS)


def _arc_engine(widths, periodic, n):
    seq = LayerSequence(n, tuple((build_graph(S.Window(w), n, {}),) for w in widths), periodic)
    grp = symmetry_group(seq.distinct_graphs())
    limit = None if periodic else len(widths)
    reach = connectivity(seq, limit)
    if reach.depth is None:
        return int(grp.order), None, None
    gens = tuple(tuple(g) for g in grp.generators)
    return int(grp.order), reach.depth, least_layers(seq, max(reach.depth, 1), int(grp.order), gens,
                                                     _membership(seq), limit)


EVERY_N_UP_TO = sample_size(40, 60)


@pytest.mark.parametrize("widths,periodic", LISTS)
def test_closed_forms_match_the_arc_engine_at_every_n(widths, periodic):
    L = _layers(widths, periodic)
    pinned = 0
    for n in range(3, EVERY_N_UP_TO + 1):
        dec = decide(L, n)
        order, depth, least = _arc_engine(widths, periodic, n)
        assert dec.depth == depth, (widths, n)
        assert is_reflection(L, n) == (order == 2), (widths, n, order)
        if dec.pinned is not None:
            pinned += 1
            assert least.layers == depth and least.least, (widths, n, least)
    assert pinned >= 1


@pytest.mark.parametrize("widths", [(1, 2), (2, 1, 3), (0, 1), (4, 4, 1), (7, 3, 12)])
def test_the_symbolic_form_is_the_concrete_decision_at_every_n_of_its_range(widths):
    L = _layers(widths, True)
    form = symbolic_form(L)
    n = sympy.Symbol("n", integer=True, positive=True)
    assert form.start == max(3, 2 * next(w for w in widths if w) + 1)
    for k in range(form.start, 61):
        dec = decide(L, k)
        assert dec.pinned is not None and int(form.layers.xreplace({n: k})) == dec.depth


# ---------------------------------------------------------------------------------------------
# Files end to end, forged certificates


def _file(pattern: str, tokens: str = "") -> str:
    return (f'architecture "t"\n{tokens}\nattention {{\n  kernel k(x, y) = exp(x . y)\n'
            f'  pattern {pattern}\n}}\n')


def _certificate(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def test_a_million_tokens_are_decided_fast():
    start = time.process_time()
    r = uapcheck.check(_file("periodic { window(1), window(2) }", "tokens 1048576"), "t.uap")
    assert time.process_time() - start < 20
    assert (r.verdict, r.layers, r.group.name) == ("UAP", 699050, "reflection")


def test_a_budget_of_a_million_layers_is_decided_fast():
    # the budget unrolls the period into a finite list of 10⁶ widths: R(m) must not be re-summed for every m
    start = time.process_time()
    r = uapcheck.check(_file("periodic { window(1), window(2) }", "tokens 1048576\nlayers 1000000"), "t.uap")
    assert time.process_time() - start < 20
    assert (r.verdict, r.layers, r.group.name) == ("UAP", 699050, "reflection")
    r = uapcheck.check(_file("periodic { window(1), window(2) }", "tokens 1048576\nlayers 699049"), "t.uap")
    assert r.verdict == "NOT-UAP"
    assert time.process_time() - start < 40


def test_a_finite_list_short_of_the_length_is_not_uap():
    r = uapcheck.check(_file("sequence { window(100), window(200) }", "tokens 2000"), "t.uap")
    assert r.verdict == "NOT-UAP"
    r = uapcheck.check(_file("sequence { window(600), window(1400) }", "tokens 2000"), "t.uap")
    assert (r.verdict, r.layers) == ("UAP", 2)


def test_a_symbolic_length_is_decided():
    r = uapcheck.check(_file("periodic { window(1), window(2) }"), "t.uap")
    assert r.verdict == "UAP"
    n = sympy.Symbol("n", integer=True, positive=True)
    assert sympy.simplify(r.layers - (sympy.ceiling((n - 1) / 3) + sympy.ceiling((n - 2) / 3))) == 0


def test_a_symbolic_length_outside_the_theorem_is_inconclusive():
    r = uapcheck.check(_file("periodic { window(1) cyclic, window(2) }"), "t.uap")
    assert r.verdict == "INCONCLUSIVE"


def test_the_kernel_rejects_forged_certificates():
    L = _layers((1, 2), True)
    WindowsCount(L, 20000, 13333, 1, None).check()
    WindowsGroup(L, 20000, None).check()
    for forged in (WindowsCount(L, 20000, 13332, 1, None), WindowsCount(L, 20000, 13333, 3, None),
                   WindowsCount(L, 20000, 13334, 1, None), WindowsGroup(_layers((9, 12), True), 18, None)):
        with pytest.raises(CertificateRejected):
            forged.check()
    form = symbolic_form(L)
    WindowsCount(L, "n", form.layers, 1, form.start).check()
    with pytest.raises(CertificateRejected):
        WindowsCount(L, "n", form.layers + 1, 1, form.start).check()
    with pytest.raises(CertificateRejected):
        WindowsCount(L, "n", form.layers, 1, 2).check()


@pytest.mark.parametrize("tokens", ["tokens 20000", ""])
def test_the_verifier_checks_the_steps_and_rejects_forged_ones(tokens):
    from uapcheck.verifier import REJECTED, VERIFIED, verify
    cert = _certificate(_file("periodic { window(1), window(2) }", tokens))
    ids = {s["rule"]: s["id"] for s in cert["steps"]}
    outcomes = {s.id: s.outcome for s in verify(cert).steps}
    assert outcomes[ids["SEQ-WINDOWS-LAYERS"]] == VERIFIED and outcomes[ids["SEQ-WINDOWS-GROUP"]] == VERIFIED
    for rule, field, value in (("SEQ-WINDOWS-LAYERS", "pinned layer", 2), ("SEQ-WINDOWS-LAYERS", "widths", [1, 3]),
                               ("SEQ-WINDOWS-LAYERS", "least", False), ("SEQ-WINDOWS-GROUP", "least positive width", 2),
                               ("SEQ-WINDOWS-LAYERS", "from" if not tokens else "D_Φ", 2)):
        bad = copy.deepcopy(cert)
        next(s for s in bad["steps"] if s["rule"] == rule)["data"][field] = value
        got = {s.id: s.outcome for s in verify(bad, only={ids[rule]}).steps}
        assert got[ids[rule]] == REJECTED, (rule, field)


@pytest.mark.parametrize("change", [1, -1])
def test_the_verifier_rejects_a_count_that_leaves_the_formula_only_beyond_the_lengths_it_reads(change):
    # ⌊n/10⁷⌋ is 0 at every n ≤ 200 and at 10⁶ + 3: a count one above (or below) D_Φ from n = 10⁷ on
    from uapcheck.certfile import _tree
    from uapcheck.verifier import REJECTED, verify
    cert = _certificate(_file("periodic { window(1), window(2) }"))
    n = sympy.Symbol("n", integer=True, positive=True)
    forged = _tree(sympy.ceiling((n - 1) / 3) + sympy.ceiling((n - 2) / 3) + change * sympy.floor(n / 10 ** 7))
    cert["layers"] = forged
    step = next(s for s in cert["steps"] if s["rule"] == "SEQ-WINDOWS-LAYERS")
    step["data"]["layers"] = step["data"]["D_Φ"] = forged
    got = {s.id: s.outcome for s in verify(cert, only={step["id"]}).steps}
    assert got[step["id"]] == REJECTED


@pytest.mark.parametrize("name", ["longformer_growing_windows_any_length", "longformer_growing_windows_16384"])
def test_the_catalog_files_verify_whole(name):
    from pathlib import Path

    from uapcheck.verifier import verify
    text = (Path(__file__).parent.parent / "catalog" / f"{name}.uap").read_text()
    report = verify(_certificate(text))
    assert not report.rejected and not report.problems, (report.rejected, report.problems)
    assert {s.rule for s in report.steps} >= {"SEQ-WINDOWS-GROUP", "SEQ-WINDOWS-LAYERS"}


def test_the_lengths_below_the_range_say_whether_their_count_is_least():
    # each length below n ≥ 7 is decided by the arc engine (SEQ-LAYERS), which proves its count least or sufficient:
    # the record says which, and the verifier re-checks each count stated least on its own arcs
    from uapcheck.verifier import verify
    text = _file("periodic { window(3), window(1) }")
    r = uapcheck.check(text, "t.uap")
    records = r.root.facts["below_range"]
    assert [x.n for x in records] == [1, 2, 3, 4, 5, 6]
    assert all(x.verdict is not None and x.least is True for x in records), records
    report = verify(_certificate(text))
    assert not report.rejected and not report.problems


def test_a_budget_of_one_layer_short_of_the_length_is_not_uap_in_its_own_words():
    r = uapcheck.check(_file("sequence { window(600), window(1400) }", "tokens 2000\nlayers 1"), "t.uap")
    assert r.verdict == "NOT-UAP"
    step = next(s for s in r.root.walk() if s.rule == "SEQ-WINDOWS-LAYERS")
    assert "within the network's 1 attention layer (" in step.claim and "1 attention layers" not in step.claim
