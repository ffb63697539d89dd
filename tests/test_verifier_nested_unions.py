"""A union written with a parenthesised union inside (`A + (B + C)`, which the parser keeps as a part of its own) has
the arcs of its flat form, and the verifier reads it as that form: every table of the verifier (the family theorems,
the lemmas of docs/theory.md §18.4, the union normal form) reads a union's parts as one flat list. A nested union used
to miss the family theorem its flat form matches (`window(1) + (dilated(2, 3) + offsets {7})`: three steps `trusted`,
where the flat form is verified by Theorem F40)."""
from __future__ import annotations

import pytest

from certificates import certificate_of, softmax_source

from uapcheck import spec as S
from uapcheck.parse import parse_source
from uapcheck.verifier import TRUSTED, verify
from uapcheck.verifier.families import _parts
from uapcheck.verifier.normal_form import flat_unions

NESTED = [
    ("window(1) + (dilated(2, 3) + offsets {7})", "window(1) + dilated(2, 3) + offsets {7}"),
    ("blocks(4) + (window(1) + global(1))", "blocks(4) + window(1) + global(1)"),
]


@pytest.mark.parametrize("nested, flat", NESTED)
def test_a_nested_union_is_verified_as_its_flat_form(nested, flat):
    got = verify(certificate_of(softmax_source(nested)))
    want = verify(certificate_of(softmax_source(flat)))
    assert got.ok and want.ok
    assert [(s.rule, s.outcome) for s in got.steps] == [(s.rule, s.outcome) for s in want.steps]
    assert not any(s.outcome == TRUSTED for s in got.steps), [(s.rule, s.reason) for s in got.steps]


def test_the_theorem_named_for_the_nested_union_is_the_flat_form_s():
    report = verify(certificate_of(softmax_source(NESTED[0][0])))
    assert all("Theorem F40" in s.reason for s in report.steps if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"))


def test_flat_unions_keeps_the_arcs_and_flattens_every_level():
    spec = parse_source(softmax_source("window(1) + (offsets {5} + (blocks(3) + global(1)))"), "t.uap")
    assert isinstance(spec.heads[0].pattern.parts[1], S.PatternUnion)  # the parser keeps the nesting
    flat = flat_unions(spec).heads[0].pattern
    assert flat == S.PatternUnion((S.Window(1), S.Offsets((5,), False), S.Blocks(3), S.Global(1)))
    assert _parts(spec.heads[0].pattern) == list(flat.parts)
    plain = parse_source(softmax_source("window(1) + global(1)"), "t.uap")
    assert flat_unions(plain) is plain
