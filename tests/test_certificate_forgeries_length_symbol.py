"""The kernel's several-heads certificates read only the length's symbol as n: HeadIntersection, PartitionHeads,
GridHubsGroup, ParityHubsGroup and CyclicHeadsGroup carry the symbol the engine named the length by, and a stated order
written in any other symbol (a param's name where the length is meant: `2*w` for `2*n`) is refused, where the check once
read every free symbol as the length. Each certificate comes from the engine on a file whose length is `tokens N` (so
the carried symbol is N, not the theorems' n), or, for Theorem F153's, from its decision; HeadLayers re-decides with
the carried symbol, so a file with `tokens N` is checked (it was refused: the decision was re-run in n)."""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import pytest
import sympy

import uapcheck
from uapcheck.certificates import (ByResidueClass, CertificateRejected, CyclicHeadsGroup, GridHubsGroup, HeadIntersection,
                                   HeadLayers, ParityHubsGroup, PartitionHeads)
from uapcheck.graphs import cyclic_window_heads as CW
from uapcheck.spec import Offsets, Window

LENGTH = sympy.Symbol("N", integer=True, positive=True)
W = sympy.Symbol("w", integer=True, positive=True)  # a param's symbol, as `param w integer >= 1` makes it

HEADS = {
    "ring": ("offsets {1, -1} cyclic", "offsets {2, -2} cyclic"),                  # HeadIntersection, D_n: 2m
    "partition": ("blocks(4) + global(1)", "strided(4)"),                            # PartitionHeads
    "grid": ("blocks(2) + strided(3)", "global(2)"),                                 # GridHubsGroup
    "parity": ("offsets {2, 4} cyclic", "star"),                                     # ParityHubsGroup, N/2 on 2 | N
}


def _source(heads) -> str:
    parts = [f"attention h{i} {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n" for i, p in enumerate(heads)]
    return "tokens N\n" + "".join(parts)


@lru_cache(maxsize=None)
def _derived(name: str):
    return uapcheck.check(_source(HEADS[name]), f"{name}.uap")


def _certificates(name: str, kind) -> list:
    out = []
    for step in _derived(name).root.walk():
        c = step.certificate
        for e in ([e for _, e in c.entries] if isinstance(c, ByResidueClass) else [c]):
            if isinstance(e, kind):
                out.append(e)
    return out


def _symbolic(name: str, kind):
    """The engine's certificate of `kind` whose order names the length."""
    found = [c for c in _certificates(name, kind) if sympy.sympify(c.order, strict=True).free_symbols]
    assert found, f"no {kind.__name__} with a symbolic order"
    return found[0]


def _cyclic_heads() -> CyclicHeadsGroup:
    heads = (Offsets((-2, 2), True), Window(2, True))  # Theorem F153 case (R), every head cyclic: D_n, order 2m
    (case,) = CW.group_cases(list(heads), LENGTH, {})
    _, found, low = case.intersection
    assert case.order == 2 * LENGTH
    return CyclicHeadsGroup(heads, found, low, case.order, length_symbol=LENGTH)


CASES = [
    ("ring", HeadIntersection),
    ("partition", PartitionHeads),
    ("grid", GridHubsGroup),
    ("parity", ParityHubsGroup),
]


def _each():
    for name, kind in CASES:
        yield _symbolic(name, kind)
    yield _cyclic_heads()


@pytest.mark.parametrize("index", range(len(CASES) + 1), ids=[k.__name__ for _, k in CASES] + ["CyclicHeadsGroup"])
def test_an_order_in_another_symbol_is_refused(index):
    cert = list(_each())[index]
    assert cert.length_symbol == LENGTH  # the engine names the file's length
    cert.check()  # accepted as the engine built it
    in_w = sympy.sympify(cert.order, strict=True).xreplace({LENGTH: W})
    with pytest.raises(CertificateRejected, match="names w, not the length N"):
        replace(cert, order=in_w).check()  # `2*w` where `2*N` is meant
    with pytest.raises(CertificateRejected, match="names N, not the length w"):
        replace(cert, length_symbol=W).check()  # the order's N is not the length the certificate names
    with pytest.raises(CertificateRejected, match="no symbol for the length"):
        replace(cert, length_symbol=None).check()
    replace(cert, order=in_w, length_symbol=W).check()  # only the carried symbol is read as n, whatever its name


def test_the_engine_names_the_file_length_in_every_certificate():
    for name, kind in CASES:
        certs = _certificates(name, kind)
        assert certs and all(c.length_symbol == LENGTH for c in certs), name
        for c in certs:
            c.check()


def test_head_layers_re_decides_with_the_carried_symbol():
    (cert,) = [s.certificate for s in _derived("ring").root.walk() if isinstance(s.certificate, HeadLayers)]
    assert cert.length_symbol == LENGTH and sympy.sympify(cert.found.layers, strict=True).free_symbols == {LENGTH}
    cert.check()
    with pytest.raises(CertificateRejected, match="gives another answer"):
        replace(cert, length_symbol=W).check()  # re-decided in w: not the certificate's decision in N
    with pytest.raises(CertificateRejected, match="positive integer symbol"):
        replace(cert, length_symbol=sympy.Symbol("N")).check()
