"""Rows near the last one whose reweight vanishes at every key they see, by residue class of a symbolic n (Lemma U of
docs/theory.md §4): `blocks(2)` with `(i - j)^2` has the last block {n} when n is odd, so row n's normaliser is 0 there
(ILL-POSED on n odd, taking precedence), while the blocks' obstruction decides the even n. Checked against the concrete
engine at every n up to 13 and at lengths above the 64 enumerated rows, by brute force over every row of the pattern
(its definition written out here), and by the verifier, which re-derives the rows on its own arcs and rejects tampered
certificates."""
from __future__ import annotations

import copy
import hashlib
import json
import math

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import verify


def _text(body: str, tokens: str = "") -> str:
    return f"{tokens}attention {{\n  kernel k(x, y) = exp(x . y)\n  {body}\n}}\n"


def _certificate(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "r.uap"), text)))


def _wp(result):
    return next(s for s in result.root.walk() if s.rule == "WP-POSITIVE")


def _classes(result) -> dict:
    from uapcheck.show import show_condition
    return {show_condition(c): v.value for c, v in result.root.facts.get("by_class", ())}


# brute force: the pattern's definition (LANGUAGE.md), every row at length n, c evaluated with Python integers
def _keys(kind: str, n: int, i: int) -> list:
    blocks, window = {"b2": (2, None), "b3": (3, None), "b4": (4, None), "b3w1": (3, 1)}[kind]
    return [j for j in range(1, n + 1)
            if math.ceil(i / blocks) == math.ceil(j / blocks) or (window is not None and abs(i - j) <= window)]


def _zero_row_exists(kind: str, c, n: int) -> bool:
    return any(all(c(i, j) == 0 for j in _keys(kind, n, i)) for i in range(1, n + 1))


SQUARE = "(i - j)^2"
PRODUCT = "(i - j)^2 * (i - j - 1)^2"
CASES = [  # (pattern, its kind for the brute force, reweight, c, modulus, ILL-POSED residues)
    ("blocks(2)", "b2", SQUARE, lambda i, j: (i - j) ** 2, 2, {1}),
    ("blocks(3)", "b3", SQUARE, lambda i, j: (i - j) ** 2, 3, {1}),
    ("blocks(4)", "b4", SQUARE, lambda i, j: (i - j) ** 2, 4, {1}),
    ("blocks(3) + window(1)", "b3w1", PRODUCT, lambda i, j: (i - j) ** 2 * (i - j - 1) ** 2, 3, {1, 2}),
]


@pytest.mark.parametrize("pattern,kind,reweight,c,modulus,residues", CASES, ids=[c[0] for c in CASES])
def test_the_classes_agree_with_brute_force_over_every_row(pattern, kind, reweight, c, modulus, residues):
    result = uapcheck.check(_text(f"pattern {pattern}\n  reweight c(i, j) = {reweight}"), "r.uap")
    step = _wp(result)
    assert step.status == "refuted" and step.facts["modulus"] == modulus
    assert set(step.facts["residues"]) == residues
    for n in range(1, 41):  # the classes are exactly the lengths with a zero row (every row tried)
        assert _zero_row_exists(kind, c, n) == (n % modulus in residues), n
    assert "ILL-POSED" in _classes(result).values()


def test_blocks_2_is_ill_posed_on_odd_n_and_the_blocks_verdict_on_even_n():
    result = uapcheck.check(_text(f"pattern blocks(2)\n  reweight c(i, j) = {SQUARE}"), "r.uap")
    assert result.verdict == "NOT-UAP"
    assert _classes(result) == {"n odd": "ILL-POSED"}
    from uapcheck.show import show_condition
    assert show_condition(result.root.facts["range"]) == "n ≥ 3 and n even"
    below = result.root.facts["below_range"]
    assert [(r.n, r.verdict.value) for r in below] == [(2, "INCONCLUSIVE")]
    from uapcheck.render.verdict_lines import headline
    assert "(for n ≥ 3 and n even; ILL-POSED for n odd; INCONCLUSIVE at n = 2)" in headline(result)


@pytest.mark.parametrize("n", range(1, 14))
def test_each_length_agrees_with_the_concrete_engine(n):
    got = uapcheck.check(_text(f"pattern blocks(2)\n  reweight c(i, j) = {SQUARE}", f"tokens {n}\n"), "r.uap").verdict
    assert got == ("ILL-POSED" if n % 2 else "INCONCLUSIVE" if n == 2 else "NOT-UAP")


@pytest.mark.parametrize("n,verdict", [(65, "ILL-POSED"), (101, "ILL-POSED"), (100, "NOT-UAP"), (4095, "ILL-POSED")])
def test_a_concrete_length_above_the_enumerated_rows(n, verdict):
    text = _text(f"pattern blocks(2)\n  reweight c(i, j) = {SQUARE}", f"tokens {n}\n")
    result = uapcheck.check(text, "r.uap")
    assert result.verdict == verdict
    if verdict == "ILL-POSED":
        zero = _wp(result).evidence["zero row"]
        assert zero["row"] == n and zero["visible"] == [n]
        report = verify(_certificate(text))
        assert report.ok and report.verdict == "ILL-POSED"


@pytest.mark.parametrize("pattern,kind,reweight,c,modulus,residues", CASES, ids=[c[0] for c in CASES])
def test_the_verifier_re_derives_the_classes(pattern, kind, reweight, c, modulus, residues):
    cert = _certificate(_text(f"pattern {pattern}\n  reweight c(i, j) = {reweight}"))
    report = verify(cert)
    wp = next(s for s in report.steps if s.rule == "WP-POSITIVE")
    assert wp.outcome == "verified"
    if "window" not in pattern:  # `blocks(3) + window(1)` at symbolic n: its PAT-CONNECTED block is rejected apart
        assert report.ok, report  # from the rows (docs/theory.md §13 L10 (i))


def _wp_block(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "WP-POSITIVE")


def _rejects(cert: dict) -> bool:
    report = verify(cert)
    return not report.ok


def test_tampered_certificates_are_rejected():
    text = _text(f"pattern blocks(3)\n  reweight c(i, j) = {SQUARE}")
    cert = _certificate(text)
    assert verify(cert).ok
    # a class stated that has no zero row (n ≡ 2: the last block {n − 1, n}, c(n, n − 1) = 1)
    other = copy.deepcopy(cert)
    row = _wp_block(other)["certificate"]["rows"][0]
    row.update({"residue": 2, "first": 2, "built at": row["built at"] + 1})
    _wp_block(other)["data"]["classes"]["residues"] = [2]
    assert _rejects(other)
    # a key removed from the row (the block {n − 1, n} stated as {n})
    other = copy.deepcopy(cert)
    row = _wp_block(other)["certificate"]["rows"][0]
    row.update({"residue": 2, "first": 2, "built at": row["built at"] + 1, "offsets": [0]})
    _wp_block(other)["data"]["classes"]["residues"] = [2]
    assert _rejects(other)
    # the step's classes widened beyond the rows (ILL-POSED on n ≡ 1, 2 from a row of n ≡ 1 only)
    other = copy.deepcopy(cert)
    _wp_block(other)["data"]["classes"]["residues"] = [1, 2]
    assert _rejects(other)
    # a length too short for the class's keys to be the whole class's
    other = copy.deepcopy(cert)
    _wp_block(other)["certificate"]["rows"][0]["built at"] = 1
    assert _rejects(other)
    # the input's reweight replaced by one that does not vanish on the last block
    other = copy.deepcopy(cert)
    other["input"]["text"] = text.replace(SQUARE, "(i - j)^2 + 1")
    other["input"]["sha256"] = hashlib.sha256(other["input"]["text"].encode("utf-8")).hexdigest()
    assert _rejects(other)
    # the input's pattern replaced by one whose last row reaches arbitrarily far (`causal`)
    other = copy.deepcopy(cert)
    other["input"]["text"] = text.replace("blocks(3)", "causal")
    other["input"]["sha256"] = hashlib.sha256(other["input"]["text"].encode("utf-8")).hexdigest()
    assert _rejects(other)


def test_the_verdict_stated_for_every_n_is_rejected():
    """A certificate whose verdict drops the class split (NOT-UAP for n ≥ 3, odd n included) is rejected: the
    refuted normaliser's classes are not excluded from the range, so the premises give ILL-POSED."""
    cert = _certificate(_text(f"pattern blocks(2)\n  reweight c(i, j) = {SQUARE}"))
    root = cert["steps"][-1]
    assert root["rule"] == "VERDICT-T1"
    root["data"]["range"] = {"args": [{"sym": "n"}, 3], "rel": ">="}
    assert _rejects(cert)


def test_the_shift_lemma_by_brute_force():
    """Lemma U's premise for the patterns above: at every n ≤ 60 of a class, row n − t's keys as offsets from n are
    those at the length the engine builds them at, or (below it) a subset of them."""
    from uapcheck.rules.reweight_rows import END_ROWS, end_period
    from uapcheck import spec as S
    pats = {"b2": S.Blocks(2), "b3": S.Blocks(3), "b4": S.Blocks(4),
            "b3w1": S.PatternUnion((S.Blocks(3), S.Window(1)))}
    for kind, p in pats.items():
        period, reach = end_period(p)
        for t in range(END_ROWS):
            for r in range(period):
                built = next(m for m in range(t + reach + 1, 10 ** 3) if m % period == r)
                want = {built - j for j in _keys(kind, built, built - t)}
                for n in range(t + 1, 61):
                    if n % period != r:
                        continue
                    got = {n - j for j in _keys(kind, n, n - t)}
                    assert got == want if n >= t + reach + 1 else got <= want, (kind, t, n)


def test_a_concrete_length_above_4096_reads_the_last_rows_by_the_shift_lemma():
    """At n = 1,048,577 the pattern is not built: row n's keys are those of row m at the least m ≡ n (mod 2) past the
    span, shifted (Lemma U); the verifier re-derives them the same way with its own arcs, and rejects a key removed."""
    n = 1048577
    text = _text(f"pattern blocks(2)\n  reweight c(i, j) = {SQUARE}", f"tokens {n}\n")
    result = uapcheck.check(text, "r.uap")
    assert result.verdict == "ILL-POSED"
    zero = _wp(result).evidence["zero row"]
    assert zero["row"] == n and zero["visible"] == [n]
    assert uapcheck.check(text.replace(str(n), str(n - 1)), "r.uap").verdict != "ILL-POSED"
    cert = _certificate(text)
    assert next(s.outcome for s in verify(cert).steps if s.rule == "WP-POSITIVE") == "verified"
    other = copy.deepcopy(cert)
    _wp_block(other)["evidence"]["zero row"]["visible"] = [n - 1, n]
    assert next(s.outcome for s in verify(other).steps if s.rule == "WP-POSITIVE") == "rejected"
