"""A family theorem's count at a concrete n is its count at symbolic n read on n's class (docs/theory.md §11.11, §12):
where the theorem proves the count least on some classes of n mod L only (`least_classes`: Theorems F110 and F113 for
`blocks(b) + window(w) + strided(s)` with b < s, Theorem F67 for `window(w) cyclic + strided(2w + 3)`), the count at an
integer n of such a class is least, and at an n of another class it is not; where it is least on every class, it is
least at every n. Checked over every family the catalog states at symbolic n, over the unions with classes, against
the concrete engine (rooted views by canonical labelling) through a whole period at the range's start, and through
the certificate and the verifier (which restates the classes with its own code) at n = 1,048,576 and next to it."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import sympy
from certificates import assert_verified_by, certificate_of, forged, rejects, softmax_source

from uapcheck.graphs import blocks_window_strided_classes as B
from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.parse import parse_source
from uapcheck.rules import pattern as P
from uapcheck.spec import Blocks, PatternUnion, Strided, Window

N = sympy.Symbol("n", integer=True, positive=True)
CATALOG = Path(__file__).resolve().parents[2] / "catalog"
BIG = 1_048_576


def _shorter(b: int, w: int, s: int) -> PatternUnion:
    return PatternUnion((Blocks(b), Window(w, False), Strided(s)))


def _theorems(spec, n: int):
    """The family theorem of the spec's pattern at symbolic n and at the integer n."""
    at = dataclasses.replace(spec, tokens=n)
    found = []
    for one in (spec, at):
        nn, params = P._symbols(one)
        found.append(families.match(P._patterns(one), nn, params, P._biases(one), one.positional,
                                    lower=P._lower_bounds(one)))
    return found


def _agree(symbolic, at, n: int) -> None:
    want = symbolic.layers.xreplace({symbolic.n_symbol: sympy.Integer(n)})
    got = at.layers.xreplace({at.n_symbol: sympy.Integer(n)})
    assert sympy.simplify(got - want) == 0, (symbolic.theorem, n, got, want)
    assert at.least_at(n) == symbolic.least_at(n), (symbolic.theorem, n, at.least_at(n))
    assert at.least_classes == ()  # one flag at an integer n


def _catalog_families() -> list:
    """The catalog's files at symbolic n that a family theorem with a layer count and an integer range decides."""
    out = []
    for path in sorted(CATALOG.glob("*.uap")):
        spec = parse_source(path.read_text("utf-8"), str(path))
        if isinstance(spec.tokens, int) or not spec.heads or len({h.pattern for h in spec.heads}) != 1:
            continue
        n, params = P._symbols(spec)
        if any(k != spec.tokens for k in params):
            continue
        theorem = families.match(P._patterns(spec), n, params, P._biases(spec), spec.positional,
                                 lower=P._lower_bounds(spec))
        if isinstance(theorem, families.FamilyTheorem) and theorem.layers is not None and not theorem.low.free_symbols:
            out.append(path.name)
    return out


def test_the_catalog_has_families_with_classes():
    names = _catalog_families()
    assert "blocks_window_strided_shorter_n.uap" in names and "cyclic_window_strided_n.uap" in names
    assert len(names) > 40


@pytest.mark.parametrize("name", _catalog_families())
def test_every_catalog_family_counts_at_an_integer_n_as_on_its_class(name):
    spec = parse_source((CATALOG / name).read_text("utf-8"), name)
    symbolic, _ = _theorems(spec, BIG)
    modulus = symbolic.least_classes[0] if symbolic.least_classes else 12
    for n in range(BIG, BIG + modulus):
        if sympy.gcd(n, symbolic.coprime_to) != 1:
            continue
        symbolic, at = _theorems(spec, n)
        if isinstance(at, families.FamilyTheorem) and at.layers is not None:
            _agree(symbolic, at, n)


@pytest.mark.parametrize("pattern, period", [("blocks(4) + window(2) + strided(5)", 20),
                                             ("blocks(3) + window(1) + strided(5)", 15),
                                             ("blocks(4) + window(1) + strided(6)", 12),
                                             ("window(2) cyclic + strided(7)", 7), ("window(3) cyclic + strided(9)", 9)])
def test_the_unions_with_classes_count_at_an_integer_n_as_on_its_class(pattern, period):
    """Through a whole period of n mod P (the classes of F110, F113 and F67) from n = 1,048,576."""
    spec = parse_source(softmax_source(pattern), "t.uap")
    symbolic, _ = _theorems(spec, BIG)
    assert symbolic.least or symbolic.least_classes
    for n in range(BIG, BIG + period):
        _agree(symbolic, _theorems(spec, n)[1], n)


def test_the_classes_at_1048576():
    """n = 1,048,576 ≡ 16 (mod 20): Theorem F113's class, D = 3 layers, least; n + 1 ≡ 17: F110's, D + 1 = 3, least;
    for (3, 1, 5), n + 1 ≡ 2 (mod 15) is in neither: D + 1 = 4, sufficient."""
    at = families.match([_shorter(4, 2, 5)], sympy.Integer(BIG), {})
    assert (at.diameter, at.layers, at.least) == (3, 3, True) and "F113" in at.why_layers and "n mod 20" in at.why_layers
    at = families.match([_shorter(4, 2, 5)], sympy.Integer(BIG + 1), {})
    assert (at.diameter, at.layers, at.least) == (2, 3, True) and "F110" in at.why_layers
    at = families.match([_shorter(3, 1, 5)], sympy.Integer(BIG + 1), {})
    assert (BIG + 1) % 15 not in B.premise_residues(3, 1, 5) | B.swap_residues(3, 1, 5)
    assert (at.layers, at.least) == (at.diameter + 1, False)


@pytest.mark.parametrize("b, w, s", [(4, 2, 5), (3, 1, 4)])
def test_the_count_at_n_against_the_concrete_engine(b, w, s):
    """A second way: through one period of n mod P from 116 (inside the range, small enough for the rooted views),
    the family's count at n is the concrete engine's least count, least where the family says so."""
    data = B.decide(b, w, s)
    for n in range(max(116, data.low), max(116, data.low) + data.period):
        at = families.match([_shorter(b, w, s)], sympy.Integer(n), {})
        got = concrete(_shorter(b, w, s), n)
        assert got.least and got.diameter == at.diameter, (b, w, s, n)
        assert at.least and got.layers == at.layers, (b, w, s, n)


def test_the_other_classes_against_the_concrete_engine():
    """(3, 1, 5) off F110's and F113's classes: the family's D + 1 is at least the engine's least count."""
    data = B.decide(3, 1, 5)
    kept = B.premise_residues(3, 1, 5) | B.swap_residues(3, 1, 5)
    for n in range(120, 120 + data.period):
        at = families.match([_shorter(3, 1, 5)], sympy.Integer(n), {})
        got = concrete(_shorter(3, 1, 5), n)
        assert at.least == (n % data.period in kept), n
        assert got.layers == at.layers if at.least else got.layers <= at.layers, n


# ---------------------------------------------------------------------------------------------
# The certificate and the verifier at n = 1,048,576

def _layers_step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")


@pytest.fixture(scope="module")
def cert_f113() -> dict:
    return certificate_of(softmax_source("blocks(4) + window(2) + strided(5)", BIG))


def test_the_certificate_names_f113_and_its_class(cert_f113):
    from uapcheck.verifier.trees import encode
    step = _layers_step(cert_f113)
    assert step["data"]["least"] is True and step["data"]["layers"] == encode(3)
    assert "least classes" not in step["data"]
    said = str(step)
    assert "Theorem F113" in said and "n mod 20 ∈ {0, 5, 6, 10, 11, 15, 16}" in said
    assert_verified_by(cert_f113, "Theorem F93")
    from uapcheck.verifier import verify
    reason = next(s.reason for s in verify(cert_f113).steps if s.rule == "PAT-LAYERS")
    assert "n ≡ 16 (mod 20)" in reason and "F113" in reason


def test_a_tampered_count_at_1048576_is_rejected(cert_f113):
    from uapcheck.verifier.trees import encode
    assert rejects(forged(cert_f113, "PAT-LAYERS", "least", False), "PAT-LAYERS")
    assert rejects(forged(cert_f113, "PAT-LAYERS", "layers", encode(4)), "PAT-LAYERS")
    assert rejects(forged(cert_f113, "PAT-LAYERS", "layers", encode(2)), "PAT-LAYERS")


def test_f110_s_class_next_to_it_and_a_class_of_neither():
    from uapcheck.verifier.trees import encode
    cert = certificate_of(softmax_source("blocks(4) + window(2) + strided(5)", BIG + 1))  # ≡ 17 (mod 20): F110
    step = _layers_step(cert)
    assert step["data"]["least"] is True and step["data"]["layers"] == encode(3) and "Theorem F110" in str(step)
    assert_verified_by(cert, "Theorem F93")
    assert rejects(forged(cert, "PAT-LAYERS", "least", False), "PAT-LAYERS")
    cert = certificate_of(softmax_source("blocks(3) + window(1) + strided(5)", BIG + 1))  # ≡ 2 (mod 15): neither
    step = _layers_step(cert)
    assert step["data"]["least"] is False and step["data"]["layers"] == encode(4)
    assert_verified_by(cert, "Theorem F93")
    assert rejects(forged(cert, "PAT-LAYERS", "least", True), "PAT-LAYERS")
