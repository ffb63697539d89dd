"""`uapcheck verify` on Theorem F117 (docs/theory.md §11.11): `blocks(b)` with non-cyclic window, dilated and offsets
parts whose periodic symmetries exchange residues mod b. The verifier's own restatement
(uapcheck/verifier/periodic_exchanges.py: its own search for the symmetries on Z, the ball certificate relative to
them, N_G, |G| and K by n mod b with nauty, the range re-derived by BFS and nauty) matches the engine's values, and a
certificate whose order of a class, list of symmetries, radius, D or range is tampered with is rejected at its step."""
from __future__ import annotations

import itertools

import pytest
from certificates import certificate, certificate_of, softmax_source
from periodic_restatements import STEPS as F117_STEPS
from periodic_restatements import assert_agrees, assert_rests_on
from periodic_restatements import forged as _forged

from uapcheck.graphs import periodic_exchanges as engine
from uapcheck.parse import parse_source
from uapcheck.verifier import families, verify
from uapcheck.verifier import periodic_exchanges as restated
from uapcheck.verifier.trees import encode


@pytest.fixture(scope="module")
def exchange() -> dict:
    return certificate("blocks_dilated_exchange_n.uap")


def test_the_catalog_file_rests_on_the_verifier_s_own_theorem(exchange):
    assert_rests_on(exchange, "F117")


@pytest.mark.parametrize("b, jumps", [(4, (-6, -4, -2, 2, 4, 6)), (6, (-4, -2, 2, 4)), (8, (-6, -4, 6))])
def test_the_restatement_agrees_with_the_engine(b, jumps):
    """The symmetries, the radius, N_G, the range, D's data and |G|, |K| by n mod b, computed independently."""
    data = engine.decide(b, jumps)
    classes = assert_agrees(data, restated.restated(b, jumps))
    assert classes == tuple((c.order, c.kernel) for c in data.classes)


def _brute_symmetries(b: int, jumps: tuple[int, ...]) -> set:
    """Every map kb + x ↦ εkb + a_x (a_1 ∈ [1, b], a_x within J of a_1, distinct residues) that keeps the arcs and
    non-arcs of the pattern on Z between all positions of a window of 6 blocks, written out here."""
    span = max(b - 1, max(abs(k) for k in jumps))

    def arc(j, i):
        return i != j and ((i - 1) // b == (j - 1) // b or j - i in jumps)

    window = range(-3 * b + 1, 3 * b + 1)
    out = set()
    for sign in (1, -1):
        for first in range(1, b + 1):
            for rest in itertools.product(range(first - span, first + span + 1), repeat=b - 1):
                images = (first,) + rest
                if len({a % b for a in images}) != b:
                    continue

                def alpha(p, sign=sign, images=images):
                    k, x = divmod(p - 1, b)
                    return sign * k * b + images[x]
                if all(arc(alpha(j), alpha(i)) == arc(j, i) for j in window for i in window):
                    out.add((sign, images))
    return out


def test_the_symmetry_search_is_complete_by_brute_force():
    b, jumps = 4, (-6, -4, -2, 2, 4, 6)
    found = restated.symmetries(b, jumps)
    assert found is not None and set(found) == _brute_symmetries(b, jumps)
    assert (1, (2, 1, 4, 3)) in found  # the exchange p ↦ p + 1 (p odd), p − 1 (p even)


def test_the_dispatch_keeps_to_the_theorem_s_hypotheses():
    """F117 is matched where F116's certificate fails and the blocks add arcs; blocks that a window already holds give
    the window alone (PAT-NORMAL), and F116 keeps its unions."""
    def fam(pattern):
        return families.match(parse_source(softmax_source(pattern), "t.uap"))
    assert fam("blocks(4) + dilated(3, 2)").theorem == "F117"
    assert fam("blocks(4) + window(3)") is None
    assert fam("blocks(3) + dilated(2, 2)").theorem == "F115"


def test_a_forged_order_of_a_class_is_rejected(exchange):
    def forge(d):
        case = next(c for c in d["order cases"] if c["residue"] == 2)
        case["order"] = encode(4)  # |G| = 2 for n ≡ 2 (mod 4): the reflection does not keep the blocks
    assert _forged(exchange, "SYM-AUT", forge)


def test_a_forged_list_of_symmetries_is_rejected(exchange):
    step = next(s for s in exchange["steps"] if s["rule"] == "SYM-AUT")
    listed = step["data"]["periodic symmetries"]["symmetries"]
    assert len(listed) == 4 and [1, [2, 1, 4, 3]] in listed
    assert _forged(exchange, "SYM-AUT", lambda d: d["periodic symmetries"]["symmetries"].pop())
    assert _forged(exchange, "SYM-AUT", lambda d: d["periodic symmetries"]["symmetries"].append([1, [2, 3, 4, 5]]))
    assert _forged(exchange, "SYM-AUT", lambda d: d["periodic symmetries"]["symmetries"].__setitem__(1, [1, [1, 2, 3, 4]]))
    assert _forged(exchange, "SYM-AUT", lambda d: d["periodic symmetries"].update(radius=1))
    assert _forged(exchange, "SYM-AUT", lambda d: d.pop("periodic symmetries"))


def test_a_forged_group_name_is_rejected(exchange):
    assert _forged(exchange, "SYM-AUT", lambda d: d.update(name=d["name"].replace("(order 4)", "(order 8)")))
    assert _forged(exchange, "SYM-AUT", lambda d: d.update(name="trivial"))
    # a stated generator that is no periodic symmetry: the exchange's δ = (1, −1, 1, −1) written (1, 1, −1, −1)
    assert _forged(exchange, "SYM-AUT", lambda d: d.update(name=d["name"].replace("(1, −1, 1, −1)", "(1, 1, −1, −1)")))
    assert _forged(exchange, "SYM-AUT", lambda d: d.update(name=d["name"].replace("(1, −1, 1, −1)", "(1, −1, 1)")))


def test_a_forged_diameter_is_rejected(exchange):
    assert _forged(exchange, "PAT-CONNECTED", lambda d: d.update(diameter={"op": "+", "args": [d["diameter"], 1]}))
    # D layers, least (Theorem F118): D + 1 and `least` false are rejected
    assert _forged(exchange, "PAT-LAYERS", lambda d: d.update(layers={"op": "+", "args": [d["diameter"], 1]}))
    assert _forged(exchange, "PAT-LAYERS", lambda d: d.update(least=False))


def test_a_range_below_the_verifier_s_is_rejected(exchange):
    step = next(s for s in exchange["steps"] if s["rule"] == "PAT-CONNECTED")
    assert step["data"]["from"] == encode(61)
    assert _forged(exchange, "PAT-CONNECTED", lambda d: d.update({"from": encode(60)}))
    assert _forged(exchange, "PAT-LAYERS", lambda d: d.update({"from": encode(40)}))
    assert _forged(exchange, "SYM-AUT", lambda d: d.update({"from": encode(59)}))


def test_an_offsets_union_is_rechecked():
    """`blocks(8) + offsets {−6, −4, 6}` (not symmetric): K of order 4 or 2 by n mod 8, the exchange extending on five
    classes."""
    report = verify(certificate_of(softmax_source("blocks(8) + offsets {-6, -4, 6}")))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert all("Theorem F117" in s.reason for s in report.steps if s.rule in F117_STEPS)


def test_a_real_size_is_rechecked_without_a_token_graph():
    """n = 1,048,576 (4 | n): |G| = 4 by the verifier's class of n mod 4, D = 174,763 layers, least; its symmetries and
    its words are checked against that class."""
    cert = certificate_of(softmax_source("blocks(4) + dilated(3, 2)", tokens=1048576))
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert _forged(cert, "SYM-AUT", lambda d: d["periodic symmetries"]["symmetries"].pop())
    assert _forged(cert, "SYM-AUT", lambda d: d.update(name="trivial"))
