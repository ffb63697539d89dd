"""Sources named per step (docs/theory.md §2.1, §10): TD-KERNEL cites the paper's Corollary 1 only where the
corollary applies ((LIM) for generic parameters, an analytic kernel); where (LIM) holds on a region only
(LIM-REGION) or the kernel is not analytic at q = ±k (the Laplacian) the step says "derived here". PE-LIFT's
mechanism is derived here, not a section of the paper."""
from __future__ import annotations

from pathlib import Path

import pytest

import uapcheck
from uapcheck import proof

CATALOG = Path(__file__).resolve().parents[1] / "catalog"


def _step(name: str, rule: str):
    result = uapcheck.check((CATALOG / name).read_text(), f"catalog/{name}")
    return next(s for s in result.root.walk() if s.rule == rule)


@pytest.mark.parametrize("name,where", [("laplacian.uap", "§20.4"), ("sigmoid.uap", "LIM-REGION"),
                                        ("linear_elu_affine.uap", "LIM-REGION")])
def test_td_kernel_says_derived_here_where_corollary_1_does_not_apply(name, where):
    step = _step(name, "TD-KERNEL")
    assert step.proved and step.citation.provenance is proof.Provenance.DERIVED and where in step.cite


def test_td_kernel_cites_corollary_1_where_it_applies():
    step = _step("softmax.uap", "TD-KERNEL")
    assert step.citation.provenance is proof.Provenance.PAPER and step.citation.statements == ("Corollary 1", "Theorem 2")


def test_pe_lift_cites_no_section_of_the_paper():
    step = _step("positional.uap", "PE-LIFT")
    assert step.citation.provenance is proof.Provenance.DERIVED
    assert "§6.9" not in step.claim and "§2.2" not in step.cite and "§10" in step.cite
