"""Theorems F35–F39 (docs/theory.md §11.11) beyond MAX_REPRESENTATIVE_N: when no cheaper route decides several heads'
group, the representative lengths may go up to WIDE_N within WIDE_WORK (the top length times the other heads' arcs
there). The limit is a cost only: the classes found are the same at any limit that admits them. Before,
`blocks(6) + window(3)` | `window(3) cyclic + strided(5)` (N₀ + 2L = 405) was INCONCLUSIVE, "no closed form".

Each closed form against the concrete engine (BLISS on the engine's arcs) at every n of a range from its classes'
bounds, and against an order computed on arcs written from docs/language.md's definitions (scripts/sweep_patterns.py,
no engine imported) at lengths past N₀; the narrow pass alone leaves them undecided; the certificate's check re-decides
once for all its classes; the verifier accepts a certificate and rejects one whose class claims a reflection too."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import head_intersection as HI
from uapcheck.graphs.build import build_graph
from uapcheck.graphs.closed_groups import closed_group
from uapcheck.graphs.symmetry import symmetry_group
from uapcheck.spec import Blocks, PatternUnion, Strided, Window
from uapcheck.verifier import REJECTED, VERIFIED, verify

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import sweep_patterns as SP  # noqa: E402

N = sympy.Symbol("n", integer=True, positive=True)


def U(*parts):
    return PatternUnion(tuple(parts))


#: (heads, the same heads in scripts/sweep_patterns.py's terms)
CASES = [
    ((U(Blocks(6), Window(3)), U(Window(3, True), Strided(5))),
     ((("blocks", 6), ("window", 3)), (("cyclic", 3), ("strided", 5)))),  # the reflection when 6 | n, else trivial
    ((U(Blocks(4), Window(2)), U(Window(2, True), Strided(7))),
     ((("blocks", 4), ("window", 2)), (("cyclic", 2), ("strided", 7)))),  # the reflection when 4 | n, else trivial
    ((Blocks(7), U(Window(2, True), Strided(4))),  # 28 | n: the rotations by 7 and reflections (order 2n/7); 4 | n,
     ((("blocks", 7),), (("cyclic", 2), ("strided", 4)))),  # 7 ∤ n: open; else the reflection, ρ of 1..n−1 or trivial
]


def _form(heads):
    form = closed_group(list(heads), N)
    assert form is not None, f"{heads}: undecided"
    found = form.cases[0].intersection[0]
    assert found.start + 2 * found.modulus > HI.MAX_REPRESENTATIVE_N  # only the wide pass decides it
    return form, found


@pytest.mark.parametrize("heads, ref", CASES, ids=[str(i) for i in range(len(CASES))])
def test_the_narrow_pass_leaves_it_open_and_the_wide_one_decides_it(heads, ref):
    assert HI.intersect(list(heads), [None] * len(heads), N) is None
    assert HI.intersect(list(heads), [None] * len(heads), N, wide=True) is not None


@pytest.mark.parametrize("heads, ref", CASES, ids=[str(i) for i in range(len(CASES))])
def test_the_closed_form_is_the_concrete_engine_s_at_every_length_from_its_bounds(heads, ref):
    form, found = _form(heads)
    low = min(c.low for c in found.classes if c.kind != "open")
    checked = 0
    for n in range(low, low + 40):
        case = form.at({N: n})
        if case is None:
            continue
        got = symmetry_group([build_graph(h, n) for h in heads])
        assert int(case.order) == got.order, (n, case.order, got.order)
        checked += 1
    assert checked >= 30


@pytest.mark.parametrize("heads, ref", CASES, ids=[str(i) for i in range(len(CASES))])
def test_the_orders_past_n0_are_the_reference_s(heads, ref):
    """At the start N₀ and the class of 0 mod L above it, arcs written from the language's definitions."""
    form, found = _form(heads)
    top = found.start + found.modulus
    for n in (found.start, top - top % found.modulus):
        arcs = list(dict.fromkeys(SP.head_arcs(h, n) for h in ref))
        assert int(form.at({N: n}).order) == SP.group_order(arcs, n), n


def test_the_certificate_check_re_decides_once_for_all_its_classes():
    heads, _ = CASES[1]
    form, found = _form(heads)
    HI.recheck.cache_clear()
    assert HI.recheck(tuple(heads), found.anchor) == found
    assert HI.recheck(tuple(heads), found.anchor) == found
    assert HI.recheck.cache_info().misses == 1


SOURCE = """tokens n
attention {
  kernel k(x, y) = exp(x . y)
  pattern blocks(4) + window(2)
}
attention {
  kernel k(x, y) = exp(x . y)
  pattern window(2) cyclic + strided(7)
}
"""


def _add_reflection(value) -> int:
    """Give every trivial class of every head intersection the reflection ρ too (a group larger than the heads')."""
    if isinstance(value, list):
        return sum(_add_reflection(v) for v in value)
    if not isinstance(value, dict):
        return 0
    found = 0
    if value.get("kind") == "head intersection":
        for c in value["classes"]:
            if c["kind"] == "finite" and c["elements"] == [["id"]]:
                c["elements"] = [["id"], ["refl", 1]]
                found += 1
    return found + sum(_add_reflection(v) for v in value.values())


def test_the_verifier_accepts_the_certificate_and_rejects_a_larger_group():
    r = uapcheck.check(SOURCE, "t.uap")
    assert r.verdict == "UAP" and "reflection" in str(r.group.name), r.group
    cert = json.loads(json.dumps(certfile.build(r, SOURCE)))
    only = {x["id"] for x in cert["steps"] if x["rule"] == "SYM-AUT"}  # the other steps are not this file's subject
    step = next(x for x in verify(cert, only=only).steps if x.rule == "SYM-AUT")
    assert step.outcome == VERIFIED and "F35" in step.reason, step.reason
    forged = json.loads(json.dumps(cert))
    assert _add_reflection([x for x in forged["steps"] if x["rule"] == "SYM-AUT"])
    assert next(x for x in verify(forged, only=only).steps if x.rule == "SYM-AUT").outcome == REJECTED
