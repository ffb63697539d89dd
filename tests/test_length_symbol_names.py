"""A file that names its symbolic length (`tokens N`) reads every printed statement in that name, and the proof
kernel and the verifier refuse a certificate whose length is another symbol than the file's.

The outputs: for several families (a cyclic window, blocks + global, a strided head (NOT-UAP), a star, per-layer
patterns, two heads decided by residue class, two heads by closed form), the same file with `tokens N` and with
`tokens n`. Checked a second way, without the printers' substitution (uapcheck/render/spoken.py): the JSON of the
`tokens n` file, its words n renamed N by this test's own reading of the word n, is the JSON of the `tokens N` file
(the same verdict, group, layers, steps, evidence and notes: the derivation does not depend on the name); and no
output of the `tokens N` file (JSON, text, Markdown, LaTeX) has the word n in it at all (the JSON's field name `n`
of a length below the range aside)."""
from __future__ import annotations

import json
import re
from dataclasses import replace
from functools import lru_cache

import pytest
import sympy

import uapcheck
from uapcheck import certfile, proof
from uapcheck.errors import UapError
from uapcheck.certificates import CertificateRejected, HeadIntersection, ParityHubsGroup
from uapcheck.render import jsonout, latex, markdown, plain
from uapcheck.verifier import check as verifier

KERNEL = "kernel k(x, y) = exp(x . y)"

FAMILIES = {
    "window cyclic": ("window(2) cyclic",),
    "blocks + global": ("blocks(4) + global(1)",),
    "strided (NOT-UAP)": ("strided(3)",),
    "star": ("star",),
    "per-layer": ("periodic { causal & window(3), causal & window(2) }",),
    "by class": ("window(2)", "blocks(4)"),
    "ring heads": ("offsets {1, -1} cyclic", "offsets {2, -2} cyclic"),
}
EXTRA = {"per-layer": "target causal\n"}  # per-layer patterns at a symbolic length: interval heads, causal target

#: the word n (also as a subscript, in braces): this test's own reading, not the printers'
WORD_N = re.compile(r"(?<![A-Za-z0-9\\])n(?![A-Za-z0-9])")


def _source(family: str, symbol: str) -> str:
    heads = "".join(f"attention h{i} {{\n  {KERNEL}\n  pattern {p}\n}}\n" for i, p in enumerate(FAMILIES[family]))
    return f"tokens {symbol}\n{EXTRA.get(family, '')}{heads}"


@lru_cache(maxsize=None)
def _result(family: str, symbol: str):
    return uapcheck.check(_source(family, symbol), "f.uap")


@lru_cache(maxsize=None)
def _json(family: str, symbol: str) -> dict:
    out = json.loads(jsonout.dumps(jsonout.result_json(_result(family, symbol))))
    del out["file"], out["architecture"]  # the file's own words
    return out


def _field_n(value: dict, key: str) -> bool:
    """The key is the field `n` of a length's record (below the range), a name in the JSON's schema."""
    return key == "n" and "verdict" in value


def _renamed(value, name: str):
    """The words n of every string (and key) renamed `name`."""
    if isinstance(value, str):
        return WORD_N.sub(name, value)
    if isinstance(value, dict):
        return {k if _field_n(value, k) else _renamed(k, name): _renamed(v, name) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, name) for v in value]
    return value


def _words_n(value, where: str = "") -> list:
    """Where a string of the JSON value has the word n (the field name `n` of a length aside)."""
    if isinstance(value, str):
        return [f"{where}: {value[:120]}"] if WORD_N.search(value) else []
    if isinstance(value, dict):
        return [hit for k, v in value.items() for hit in
                (([] if _field_n(value, k) or not WORD_N.search(k) else [f"{where}: key {k}"])
                 + _words_n(v, f"{where}.{k}"))]
    if isinstance(value, list):
        return [hit for i, v in enumerate(value) for hit in _words_n(v, f"{where}[{i}]")]
    return []


@pytest.mark.parametrize("family", FAMILIES)
def test_the_json_speaks_of_m_alone_and_is_the_n_files_renamed(family):
    got = _json(family, "N")
    assert not _words_n(got), _words_n(got)[:5]
    want = _renamed(_json(family, "n"), "N")
    assert got["verdict"] == want["verdict"] and got["layers"] == want["layers"] and got["group"] == want["group"]
    assert got.get("below_range") == want.get("below_range")
    assert got == want


@pytest.mark.parametrize("family", FAMILIES)
def test_every_printed_report_speaks_of_m(family):
    result = _result(family, "N")
    reports = {"text": plain.report(result, 100), "markdown": markdown.render(result), "latex": latex.render(result)}
    assert reports["text"] is not None
    for kind, text in reports.items():
        text = text.replace(_source(family, "N"), "")
        hits = [line for line in text.splitlines() if WORD_N.search(line)]
        assert not hits, (kind, hits[:3])
    n_side = _result(family, "n")
    assert plain.report(result, 100) == WORD_N.sub("N", plain.report(n_side, 100)).replace("tokens N", "tokens N")


def test_the_verdict_names_the_length_as_the_file_does():
    text = plain.report(_result("window cyclic", "N"), 100)
    assert "UAP · G = D_N · ⌈⌊N/2⌋/2⌉ attention layers (for N ≥ 7); UAP at N = 1…6" in text
    group = _json("window cyclic", "N")["group"]
    assert group == {"name": "D_N", "order": "2 · N", "generators": ["(1 2 ... N)", "i ↦ N + 1 − i"],
                     "condition": "N ≥ 7"}
    assert [r["group"]["name"] for r in _json("window cyclic", "N")["below_range"]][:2] == ["trivial", "S_2"]  # at N = 2: S_2


def test_a_file_of_length_n_or_of_integer_length_is_printed_as_derived():
    from uapcheck.render.spoken import spoken
    for symbol in ("n", "64"):
        result = uapcheck.check(_source("window cyclic", symbol), "f.uap")
        assert spoken(result) is result  # no view: the catalog's outputs stay byte for byte


def test_an_expected_group_in_the_files_name():
    body = _source("window cyclic", "N")
    for written in ("D_N", "D_n"):
        result = uapcheck.check(body + f"expect uap group {written} layers ceil(floor(N / 2) / 2) for N >= 7\n", "f.uap")
        assert result.expect_holds is True and result.spec.expect.text.startswith("uap group D_N ")
    wrong = uapcheck.check(body + "expect uap group C_N for N >= 7\n", "f.uap")
    assert wrong.expect_holds is False and "expected group C_N, derived D_N" in jsonout.result_json(wrong)["expect"]["reason"]


def test_dim_n_is_refused():
    with pytest.raises(UapError, match="`dim n`: n is the name the derivations give the sequence length"):
        uapcheck.check("tokens N\ndim n\n" + _source("window cyclic", "N").split("\n", 1)[1], "f.uap")


# -- the kernel and the verifier: the certificate's length is the file's ------------------------------------------

def _entries(c) -> list:
    from uapcheck.certificates import ByResidueClass
    return [e for _, e in c.entries] if isinstance(c, ByResidueClass) else [c]


def _certificate(family: str, kind):
    for step in _result(family, "N").root.walk():
        for e in _entries(step.certificate):
            if isinstance(e, kind) and getattr(e, "length", None) is None:
                return e
    raise AssertionError(f"no {kind.__name__}")


def test_the_kernel_refuses_a_certificate_in_another_symbol_than_the_files():
    cert = _certificate("ring heads", HeadIntersection)
    N, w = cert.length_symbol, sympy.Symbol("w", integer=True, positive=True)
    assert N.name == "N"
    forged = replace(cert, order=sympy.sympify(cert.order, strict=True).xreplace({N: w}), length_symbol=w)
    forged.check()  # by itself, a certificate in w is consistent: only the file says the length is N
    with proof.about_file("N"):
        cert.check()
        with pytest.raises(CertificateRejected, match="names the length w, not the file's N"):
            forged.check()
    with proof.about_file("w"):
        forged.check()
    with proof.about_file(64), pytest.raises(CertificateRejected, match="names the length N, not the theorems' n"):
        cert.check()


def test_a_derivation_checks_its_certificates_against_the_file():
    """The kernel's check inside a derivation: a certificate the engine builds in another symbol is refused (an
    engine bug, never a verdict), and the engine's own ones pass."""
    from uapcheck.rules import pattern
    original = pattern._symbols

    def in_w(spec):
        n, params = original(spec)
        if isinstance(n, sympy.Symbol):
            n = sympy.Symbol("w", integer=True, positive=True)
        return n, params

    pattern._symbols = in_w
    try:
        with pytest.raises(CertificateRejected, match="not the file's N"):
            uapcheck.check(_source("ring heads", "N").replace("h0", "renamed"), "g.uap")
    finally:
        pattern._symbols = original


def _verify_sym_aut(cert: dict) -> str:
    ids = {s["id"] for s in cert["steps"] if s["rule"] == "SYM-AUT"}
    report = verifier.verify(cert, only=ids)
    return next(r.outcome for r in report.steps if r.rule == "SYM-AUT")


def _rename_symbols(tree, old: str, new: str):
    if isinstance(tree, dict):
        return {k: (new if k == "sym" and v == old else _rename_symbols(v, old, new)) for k, v in tree.items()}
    if isinstance(tree, list):
        return [_rename_symbols(v, old, new) for v in tree]
    return tree


def test_the_verifier_refuses_a_certificate_in_another_symbol_than_the_files():
    source = _source("star", "N").replace("pattern star", "pattern offsets {2, 4} cyclic", 1) + \
        f"attention h9 {{\n  {KERNEL}\n  pattern star\n}}\n"
    result = uapcheck.check(source, "f.uap")
    assert any(isinstance(e, ParityHubsGroup) for s in result.root.walk() for e in _entries(s.certificate))
    cert = certfile.build(result, source)
    assert _verify_sym_aut(cert) == verifier.VERIFIED
    forged = json.loads(json.dumps(cert))
    for s in forged["steps"]:
        if s["rule"] == "SYM-AUT":
            for entry in s["certificate"]["classes"]:  # Theorem F221's classes, their orders in n beside `tokens N`
                inner = entry["certificate"]
                inner["classes"] = _rename_symbols(inner["classes"], "N", "n")
    assert forged != cert
    assert _verify_sym_aut(forged) == verifier.REJECTED


def test_the_reflections_formula_names_the_files_length():
    """The reflection's formula is the printers' own (i ↦ n + 1 − i): the view sets it in the file's name wherever a
    group's formula is set (a step's typed group, the headline), and leaves the group's name, `reflection`."""
    from uapcheck.groups import GroupInfo
    from uapcheck.render.math import group
    from uapcheck.render.spoken import speak_value
    info = speak_value(GroupInfo("reflection", 2, ()), "N")
    assert info.name == "reflection" and group(info) == [r"G = \{\mathrm{id},\ i \mapsto N + 1 - i\}",
                                                        r"\lvert G \rvert = 2"]
    assert group(GroupInfo("reflection", 2, ())) == [r"G = \{\mathrm{id},\ i \mapsto n + 1 - i\}", r"\lvert G \rvert = 2"]


@pytest.mark.parametrize("said, meant", [
    ("S_2 on {1, 2} × S_(n − 2) on {3, …, n}", "S_2 on {1, 2} × S_(L − 2) on {3, …, L}"),
    ("C_{n/2}: the rotations i ↦ i + 2t (mod n), the odd ones fixed if n even", "C_{L/2}: the rotations i ↦ i + 2t (mod L), the odd ones fixed if L even"),
    ("when s | n; n mod 4 = 1; (n − 1)! · x_n", "when s | L; L mod 4 = 1; (L − 1)! · x_L"),
    ("one token in an n-layer network, \\nu, n's class", "one token in an L-layer network, \\nu, L's class"),
])
def test_the_slot_is_the_word_n(said, meant):
    """The whole word n is the length (a subscript, in braces, beside an operator), never a letter of a word."""
    from uapcheck.render.spoken import speak_text
    assert speak_text(said, "L") == meant
