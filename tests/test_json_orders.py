"""Every `order` in the JSON output has the one documented form (docs/language.md §8, "Orders"): an integer; a
bounded text for a number too long to write out; a string in the order notation (` · `, `^`, `n!`, `(n − 1)!`,
`⌊ ⌋`, `−`); or a list of pieces by residue class or by condition. The catalog's JSON (its golden copies, which
tests/test_catalog_json.py holds byte-identical to the output) is walked whole; the printer is checked on its own
forms, and a certificate with orders by class still verifies."""
from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import pytest
import sympy
from sympy import Eq, Mod, Piecewise, Symbol, ceiling, factorial, floor

from uapcheck.bignum import json_order
from uapcheck.groups import order_text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, softmax_source  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden" / "catalog_json"
N = Symbol("n", integer=True, positive=True)

#: the order notation: numbers, names, ⌊ ⌋ ⌈ ⌉, · ^ ! / + − and brackets; no SymPy spelling (*, **, factorial(,
#: floor(, Piecewise(, Mod(, an ASCII minus)
NOTATION = re.compile(r"[0-9A-Za-zρ_ ·^!()⌊⌋⌈⌉/+−]+")
BOUNDED = re.compile(r"≈ (\d\.\d\d × )?10\^\d+")
SPELLED = ("*", "factorial", "floor", "ceiling", "Piecewise", "Mod(", "Eq(", " - ")


def _is_tree(value) -> bool:
    """A certificate's exact expression tree (the verifier decodes it): {"op", "args"}, {"sym"}, {"q"}."""
    return isinstance(value, dict) and bool({"op", "sym", "q"} & set(value))


def problems(value, where: str) -> list[str]:
    """What keeps `value` (an `order` field) from the documented form."""
    if isinstance(value, int) and not isinstance(value, bool):
        return []
    if isinstance(value, str):
        if BOUNDED.fullmatch(value) or (NOTATION.fullmatch(value) and not any(s in value for s in SPELLED)):
            return []
        return [f"{where}: {value[:120]!r}"]
    if isinstance(value, list) and value:
        out = []
        for piece in value:
            keys = set(piece) if isinstance(piece, dict) else set()
            if keys not in ({"modulus", "residues", "order"}, {"condition", "order"}):
                out.append(f"{where}: a piece {str(piece)[:120]}")
                continue
            out += problems(piece["order"], where + "[]")
        return out
    return [f"{where}: {str(value)[:120]}"]


def walk(node, where: str = ""):
    """(path, value) of every `order` field, leaving out the certificates' expression trees."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "order" and not _is_tree(value):
                yield f"{where}/{key}", value
            yield from walk(value, f"{where}/{key}")
    elif isinstance(node, list):
        for item in node:
            yield from walk(item, f"{where}[]")


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_every_order_of_the_catalog_json_has_the_documented_form(path):
    found = [p for where, value in walk(json.loads(path.read_text("utf-8"))) for p in problems(value, where)]
    assert not found, found[:5]


def test_the_catalog_has_symbolic_orders_and_orders_by_class():
    """The walk is not vacuous: the catalog writes orders in every form."""
    kinds = set()
    for path in GOLDEN.glob("*.json"):
        for _, value in walk(json.loads(path.read_text("utf-8"))):
            kinds.add("list" if isinstance(value, list) else type(value).__name__)
    assert kinds >= {"int", "str", "list"}


@pytest.mark.parametrize("order, want", [
    (2 * N, "2 · n"), (factorial(N), "n!"), (factorial(N - 1), "(n − 1)!"), (N, "n"),
    (2 * factorial(floor(N / 4) - 1), "2 · (⌊n/4⌋ − 1)!"), (24 * factorial(floor(N / 4)), "24 · ⌊n/4⌋!"),
    (6 * 24 ** (ceiling(N / 4) - 2) * factorial(ceiling(N / 4) - 2), "6 · 24^(⌈n/4⌉ − 2) · (⌈n/4⌉ − 2)!"),
    (12 * factorial(floor(N / 12) + 1) * factorial(floor(N / 12)) ** 11, "12 · (⌊n/12⌋ + 1)! · (⌊n/12⌋!)^11"),
    (sympy.Integer(720), 720),
])
def test_the_order_notation(order, want):
    assert json_order(order) == want
    assert order_text(order) == want


def test_a_piecewise_order_is_written_by_class():
    order = Piecewise((2 * N, Eq(Mod(N, 4), 0)), (2, True))
    assert json_order(order) == [{"modulus": 4, "residues": [0], "order": "2 · n"},
                                 {"modulus": 4, "residues": [1, 2, 3], "order": 2}]
    assert order_text(order) == "2 · n if n mod 4 = 0; 2 if n mod 4 ∈ {1, 2, 3}"
    covered = Piecewise((6, Eq(Mod(N, 2), 0)), (4, Eq(Mod(N, 2), 1)), (1, True))
    assert json_order(covered) == [{"modulus": 2, "residues": [0], "order": 6},
                                   {"modulus": 2, "residues": [1], "order": 4}]


def test_a_huge_number_is_bounded():
    assert json_order(10 ** 1200) == "≈ 1.00 × 10^1200"
    assert not problems(json_order(10 ** 1200), "")


def test_a_certificate_with_orders_by_class_still_verifies():
    """blocks(3) + strided(3): |G| by n mod 3 (F25); the JSON's orders are lists, the certificate's trees."""
    from uapcheck.verifier import verify
    cert = certificate_of(softmax_source("blocks(3) + strided(3)"))
    assert verify(cert).ok
    orders = [value for _, value in walk(cert) if value is not None]  # its data: null where no number is stated
    assert any(isinstance(v, list) for v in orders) and not [p for v in orders for p in problems(v, "")]


# ---------------------------------------------------------------------------------------------
# Orders of 25 to 1000 digits at an integer n: the JSON writes the number, the text keeps its bounded words

def _report(text: str) -> dict:
    import uapcheck
    from uapcheck.render.jsonout import dumps, result_json
    return json.loads(dumps(result_json(uapcheck.check(text, "t.uap"))))


def _orders(report: dict) -> list:
    return [value for _, value in walk(report)]


@pytest.mark.parametrize("pattern, tokens, order", [
    ("star", 26, math.factorial(25)),  # the group engine's words "25!" (twin classes)
    ("window(25)", 26, math.factorial(26)),  # its words "≈ 10^26"
    ("blocks(8)", 64, math.factorial(8) ** 9),  # "40320 · (8!)^8"
    ("star", 400, math.factorial(399)),  # 867 digits
], ids=["star-26", "window-26", "blocks-64", "star-400"])
def test_an_order_up_to_1000_digits_is_an_integer_in_every_order_field(pattern, tokens, order):
    report = _report(softmax_source(pattern, tokens))
    assert report["group"] is None or report["group"]["order"] == order  # blocks(8) is NOT-UAP: no group
    found = _orders(report)
    assert found and all(v == order for v in found), [str(v)[:40] for v in found if v != order]


def test_above_1000_digits_the_order_keeps_its_bounded_form():
    """499! has 1,131 digits: its factors, and the certificate's claim bounded; nothing is converted to a string
    of digits (Python refuses more than 4,300)."""
    report = _report(softmax_source("star", 500))
    assert report["group"]["order"] == "499!"
    assert all(isinstance(v, str) and not problems(v, "") for v in _orders(report))


def test_the_text_report_keeps_the_words_of_a_long_order():
    import uapcheck
    result = uapcheck.check(softmax_source("star", 26), "t.uap")
    assert result.group.order == "25!" and result.group.order_value == math.factorial(25)
    window = uapcheck.check(softmax_source("window(25)", 26), "t.uap")
    assert window.group.order == "≈ 10^26"


def test_a_below_range_group_writes_its_exact_order():
    from uapcheck.groups import GroupInfo
    from uapcheck.rules.small_lengths import LengthVerdict
    info = GroupInfo("stabilizer 1", "25!", (), exact=math.factorial(25))
    assert LengthVerdict(26, None, info).to_json()["group"]["order"] == math.factorial(25)
