"""Per-layer windows with global tokens by closed forms (docs/theory.md §21.13, Theorems F237–F239, F129, Lemma AP),
checked a second way: brute force over S_n at n ≤ 7 (the group from its threshold on, and D_Φ at every n), the arc
engine of graphs/layers.py (rooted views, BLISS) at every n ≤ 40 for a dozen lists (D_Φ at every n; the group, the
least count or NOT-UAP from the range's start on), the symbolic statement read against the concrete decision, files
end to end (the verifier), forged certificates rejected by the kernel and the verifier, and 1,048,576 tokens decided
fast."""
from __future__ import annotations

import copy
import itertools
import json
import math
import time

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck import spec as S
from uapcheck.graphs import build_graph, symmetry_group
from uapcheck.graphs.layers import LayerSequence, connectivity, least_layers
from uapcheck.graphs.layers_globals import decide, depth_exact, group_kind, recognise
from uapcheck.layer_certificates import GlobalsCount, GlobalsGroup, _globals_group_start
from uapcheck.proof import CertificateRejected
from uapcheck.rules.layers import _membership

from sample_sizes import sample_size  # tests/ is on sys.path


def _pattern(w: int, g: int) -> S.Pattern:
    if g and w:
        return S.PatternUnion((S.Window(w), S.Global(g)))
    return S.Global(g) if g else S.Window(w)


def _layers(pairs, periodic):
    return recognise([_pattern(w, g) for w, g in pairs], periodic)


# (w, g) per layer; periodic or finite: globals on some layers or all, g = 1, 2, 3, widths 0, finite lists that
# connect, that never connect, that keep a witness at their depth
LISTS = [(((2, 1), (2, 0)), True), (((1, 1), (2, 1)), True), (((1, 2), (2, 2)), True), (((1, 0), (1, 1)), True),
         (((1, 1), (1, 0), (2, 0)), True), (((1, 3), (1, 3)), True), (((0, 1), (1, 0)), True),
         (((1, 1), (0, 1)), True), (((1, 0), (1, 1), (1, 1), (1, 0)), False), (((1, 1), (1, 1), (1, 1)), False),
         (((1, 0), (2, 1), (1, 0), (2, 1), (1, 0)), False), (((1, 1), (1, 0), (1, 0)), False),
         (((1, 1), (1, 1)), False), (((2, 2), (1, 0), (3, 2)), True)]


# ---------------------------------------------------------------------------------------------
# Brute force over S_n (n ≤ 7): every permutation, the definition of G = ⋂ Aut(N_ℓ) and of the reach


def _brute(pairs, periodic, n):
    def N(w, g, v):
        if v <= g:
            return frozenset(range(1, n + 1))
        return frozenset(range(max(1, v - w), min(n, v + w) + 1)) | frozenset(range(1, min(g, n) + 1))
    nb = {(w, g): [N(w, g, v) for v in range(1, n + 1)] for w, g in set(pairs)}

    def keeps(p, key):
        return all(frozenset(p[u - 1] for u in nb[key][v - 1]) == nb[key][p[v - 1] - 1] for v in range(1, n + 1))
    perms = list(itertools.permutations(range(1, n + 1)))
    group = {p for p in perms if all(keeps(p, key) for key in set(pairs))}
    full = set(range(1, n + 1))

    def reach(i, m):  # the positions read by i after m layers (V_0 of the root i)
        cur = {i}
        for ell in range(m, 0, -1):
            key = pairs[(ell - 1) % len(pairs)]
            cur = set().union(*(nb[key][v - 1] for v in cur))
        return cur
    top = 3 * len(pairs) + 3 if periodic else len(pairs)
    depth = next((m for m in range(0, top + 1) if all(reach(i, m) == full for i in full)), None)

    def witness(m):  # §21.3's definition: a root i and σ ∉ G keeping N_ℓ(v) for every v ∈ V_ℓ(i), ℓ ≤ m
        for i in full:
            views = {m: {i}}
            for ell in range(m, 0, -1):
                key = pairs[(ell - 1) % len(pairs)]
                views[ell - 1] = set().union(*(nb[key][v - 1] for v in views[ell]))
            for p in perms:
                if p not in group and all(frozenset(p[u - 1] for u in nb[pairs[(ell - 1) % len(pairs)]][v - 1]) ==
                                          nb[pairs[(ell - 1) % len(pairs)]][p[v - 1] - 1]
                                          for ell in range(1, m + 1) for v in views[ell]):
                    return True
        return False
    least = None if depth is None else next((m for m in range(max(depth, 1), top + 1) if not witness(m)), None)
    return len(group), depth, least


BRUTE = [(pairs, periodic, n) for pairs, periodic in LISTS[:9] + [(((1, 1), (1, 1)), False)] for n in range(3, 8)]


@pytest.mark.parametrize("pairs,periodic,n", BRUTE)
def test_the_group_and_the_reach_match_brute_force_over_all_permutations(pairs, periodic, n):
    L = _layers(pairs, periodic)
    order, depth, least = _brute(pairs, periodic, n)
    assert depth_exact(L, n) == depth
    t = _globals_group_start(L)
    if t is not None and n >= t:
        assert order == (1 if group_kind(L) == "trivial" else 2 * math.factorial(L.g)), (pairs, n, order)
    dec = decide(L, n)
    if dec is not None:  # within the range: the count (or NOT-UAP) by the definition of a view witness
        assert (dec.depth, dec.layers) == (depth, least), (pairs, n, dec, least)


# ---------------------------------------------------------------------------------------------
# The arc engine (rooted views per layer, BLISS)


def _arc_engine(pairs, periodic, n):
    seq = LayerSequence(n, tuple((build_graph(_pattern(w, g), n, {}),) for w, g in pairs), periodic)
    grp = symmetry_group(seq.distinct_graphs())
    limit = None if periodic else len(pairs)
    reach = connectivity(seq, limit)
    if reach.depth is None:
        return int(grp.order), None, None
    gens = tuple(tuple(g) for g in grp.generators)
    return int(grp.order), reach.depth, least_layers(seq, max(reach.depth, 1), int(grp.order), gens,
                                                     _membership(seq), limit)


EVERY_N_UP_TO = sample_size(30, 40)


@pytest.mark.parametrize("pairs,periodic", LISTS)
def test_closed_forms_match_the_arc_engine_at_every_n(pairs, periodic):
    L = _layers(pairs, periodic)
    decided = 0
    for n in range(3, EVERY_N_UP_TO + 1):
        order, depth, least = _arc_engine(pairs, periodic, n)
        assert depth_exact(L, n) == depth, (pairs, n)
        t = _globals_group_start(L)
        if t is not None and n >= t:
            assert order == (1 if group_kind(L) == "trivial" else 2 * math.factorial(L.g)), (pairs, n)
        dec = decide(L, n)
        if dec is None:
            continue
        decided += 1
        if dec.depth is None:  # at most one global layer: never connected (F237, F129)
            assert depth is None
        elif dec.layers is None:  # a witness at the whole depth (F129)
            assert dec.depth == depth and least.layers is None and least.witness is not None, (pairs, n, least)
        else:
            assert dec.depth == depth and (least.layers, least.least) == (dec.layers, True), (pairs, n, least)
    assert decided >= 1 or EVERY_N_UP_TO < 40


# ---------------------------------------------------------------------------------------------
# Files end to end


def _file(pattern: str, tokens: str = "", budget: str = "") -> str:
    return (f'architecture "t"\n{tokens}\n{budget}\nattention {{\n  kernel k(x, y) = exp(x . y)\n'
            f'  pattern {pattern}\n}}\n')


def _certificate(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


LONGFORMER = "periodic { window(512) + global(1), window(512) }"


def test_a_million_tokens_are_decided_fast():
    start = time.process_time()
    r = uapcheck.check(_file(LONGFORMER, "tokens 1048576"), "t.uap")
    assert time.process_time() - start < 20
    assert (r.verdict, r.layers, r.group.name) == ("UAP", 5, "trivial")


def test_globals_on_every_layer_keep_their_permutations():
    r = uapcheck.check(_file("periodic { window(1) + global(2), window(2) + global(2) }", "tokens 3000"), "t.uap")
    assert (r.verdict, r.layers, r.group.order) == ("UAP", 3, 4)
    assert r.group.name == "S_2 on {1, 2} × the reflection of {3, …, 3000}"


def test_a_symbolic_length_is_decided():
    r = uapcheck.check(_file("periodic { window(2) + global(1), window(2) }"), "t.uap")
    assert r.verdict == "UAP" and sympy.sympify(r.layers) == 5 and r.group.name == "trivial"


def test_finite_lists_and_budgets():
    r = uapcheck.check(_file("sequence { window(3) + global(1), window(3), window(5) }", "tokens 5000"), "t.uap")
    assert r.verdict == "NOT-UAP"  # one global layer: never connected
    r = uapcheck.check(_file("sequence { window(3) + global(1), window(3) + global(1), window(5) }", "tokens 5000"),
                       "t.uap")
    assert r.verdict == "NOT-UAP"  # connected at depth 2, a swap witness at the whole depth 3
    r = uapcheck.check(_file("sequence { window(3), window(3) + global(1), window(5) + global(1), window(2) }",
                             "tokens 5000"), "t.uap")
    assert (r.verdict, r.layers) == ("UAP", 3)  # C_3 = {1}: the window layer 1 seen whole, so D_Φ = 3 is least
    r = uapcheck.check(_file(LONGFORMER, "tokens 100000", "layers 4"), "t.uap")
    assert r.verdict == "NOT-UAP"  # the budget stops one layer short of the least count 5
    r = uapcheck.check(_file(LONGFORMER, "tokens 100000", "layers 6"), "t.uap")
    assert (r.verdict, r.layers) == ("UAP", 5)


def test_the_kernel_rejects_forged_certificates():
    L = _layers(((512, 1), (512, 0)), True)
    n = 131072
    start = decide(L, n).start
    GlobalsCount(L, n, 3, 5, (2,), "swap", start).check()
    GlobalsGroup(L, n, None).check()
    for forged in (GlobalsCount(L, n, 3, 4, (2,), "swap", start), GlobalsCount(L, n, 2, 5, (2,), "swap", start),
                   GlobalsCount(L, n, 3, 5, (2,), None, start), GlobalsCount(L, n, 3, 5, (3,), "swap", start),
                   GlobalsCount(L, n, 3, 5, (2,), "swap", 100), GlobalsCount(L, 4000, 3, 5, (2,), "swap", start),
                   GlobalsCount(L, n, 3, 5, (1,), "swap", start), GlobalsCount(L, n, 3, 6, (2,), "swap", start),
                   GlobalsGroup(_layers(((5, 1), (9, 0)), True), 12, None),
                   GlobalsCount(L, "n", 3, 5, (2,), "swap", start - 1)):
        with pytest.raises(CertificateRejected):
            forged.check()
    GlobalsCount(L, "n", 3, 5, (2,), "swap", start).check()


@pytest.mark.parametrize("tokens", ["tokens 20000", ""])
def test_the_verifier_checks_the_steps_and_rejects_forged_ones(tokens):
    from uapcheck.verifier import REJECTED, VERIFIED, verify
    cert = _certificate(_file("periodic { window(2) + global(1), window(2) }", tokens))
    ids = {s["rule"]: s["id"] for s in cert["steps"]}
    outcomes = {s.id: s.outcome for s in verify(cert).steps}
    assert outcomes[ids["SEQ-GLOBALS-LAYERS"]] == VERIFIED and outcomes[ids["SEQ-GLOBALS-GROUP"]] == VERIFIED
    for rule, field, value in (("SEQ-GLOBALS-LAYERS", "layers", 4), ("SEQ-GLOBALS-LAYERS", "D_Φ", 2),
                               ("SEQ-GLOBALS-LAYERS", "widths", [2, 3]), ("SEQ-GLOBALS-LAYERS", "witness", None),
                               ("SEQ-GLOBALS-LAYERS", "from", 19), ("SEQ-GLOBALS-LAYERS", "pins", [1]), ("SEQ-GLOBALS-GROUP", "order", 2),
                               ("SEQ-GLOBALS-GROUP", "name", "the reflection of {2, …, n}")):
        bad = copy.deepcopy(cert)
        next(s for s in bad["steps"] if s["rule"] == rule)["data"][field] = value
        got = {s.id: s.outcome for s in verify(bad, only={ids[rule]}).steps}
        assert got[ids[rule]] == REJECTED, (rule, field)


def test_a_budget_cuts_the_list_as_a_finite_sequence_of_its_first_layers():
    """`layers M` on a periodic list is the finite list of its first M layers (§21.2), which LISTS checks against the
    arc engine (the periodic { window(1), window(2) + global(1) } cut at 5 layers is one of them)."""
    pats = [_pattern(1, 0), _pattern(2, 1)]
    cut = recognise(pats, True, budget=5)
    assert cut == _layers(((1, 0), (2, 1), (1, 0), (2, 1), (1, 0)), False)
    assert recognise(pats, True, budget=1) is None  # one layer, no globals left: outside the class
    assert decide(cut, 100000) == decide(_layers(((1, 0), (2, 1), (1, 0), (2, 1), (1, 0)), False), 100000)
    assert decide(cut, 100000).layers == 4


def test_a_large_budget_keeps_the_periodic_decision_without_unrolling_it():
    """A budget at least a_2 + 3p reads every depth the theorems need: the periodic list is kept (a budget of 10⁶
    layers unrolled into 10⁶ widths ran out of the 60 s budget), and the verifier checks the count against it."""
    from uapcheck.verifier import VERIFIED, verify
    pats = [_pattern(512, 1), _pattern(512, 0)]
    assert recognise(pats, True, budget=1000000) == recognise(pats, True)
    start = time.process_time()
    text = _file(LONGFORMER, "tokens 1048576", "layers 1000000")
    r = uapcheck.check(text, "t.uap")
    assert time.process_time() - start < 20
    assert (r.verdict, r.layers) == ("UAP", 5)
    cert = _certificate(text)
    ids = {s["rule"]: s["id"] for s in cert["steps"]}
    assert {s.id: s.outcome for s in verify(cert).steps}[ids["SEQ-GLOBALS-LAYERS"]] == VERIFIED
