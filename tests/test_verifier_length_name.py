"""A symbolic length named other than n (`tokens N`): the verifier reads a group stated by residue class with its
conditions in the length's name ("reflection if N mod 4 = 0, else trivial"), where it read "n mod" only and left the
step trusted; a name stating the group on another class is still rejected, and a condition in another name is not
read as the length's. `window(2)` beside `blocks(4)` (catalog/window_blocks_heads_n.uap) with the length named N."""
from __future__ import annotations

import json
from functools import lru_cache

from certificates import certificate_of, rejects

from uapcheck.verifier import TRUSTED, VERIFIED, verify
from uapcheck.verifier.by_class import name_states_classes

TEXT = ("tokens N\nattention local {\n  kernel k(x, y) = exp(x . y)\n  pattern window(2)\n}\n"
        "attention block {\n  kernel k(x, y) = exp(x . y)\n  pattern blocks(4)\n}\n")


@lru_cache(maxsize=None)
def _text() -> str:
    return json.dumps(certificate_of(TEXT))


def _group_step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")


def test_the_classes_named_in_the_length_s_name_are_verified():
    cert = json.loads(_text())
    assert _group_step(cert)["data"]["name"] == "reflection if N mod 4 = 0, else trivial"
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert next(s for s in report.steps if s.rule == "SYM-AUT").outcome == VERIFIED


def test_a_name_on_another_class_is_rejected_and_another_name_is_not_read():
    cert = json.loads(_text())
    _group_step(cert)["data"]["name"] = "reflection if N mod 4 = 1, else trivial"
    assert rejects(cert, "SYM-AUT")
    stated = {0: ("reflection", 2), 1: ("trivial", 1), 2: ("trivial", 1), 3: ("trivial", 1)}
    assert name_states_classes("reflection if N mod 4 = 0, else trivial", stated, 4, True, length="N") is None
    for other in ("reflection if n mod 4 = 0, else trivial", "reflection if k mod 4 = 0, else trivial"):
        assert type(name_states_classes(other, stated, 4, True, length="N")).__name__ == "Trust"
    cert = json.loads(_text())
    _group_step(cert)["data"]["name"] = "reflection if n mod 4 = 0, else trivial"
    report = verify(cert)
    step = next(s for s in report.steps if s.rule == "SYM-AUT")
    assert step.outcome == TRUSTED and "is not read" in step.reason and not report.ok  # n is not the length here


def test_the_verifiers_report_says_the_files_name():
    """`uapcheck verify` prints its checks' lengths in the input's name, as the checker's reports do: the certified
    line and every step's line say N (for N ≥ …, D_N, N = 1…), and no line but the path's says the word n."""
    import re
    from uapcheck.verifier.report import render
    source = "tokens N\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(2) cyclic\n}\n"
    text = render("c.json", verify(certificate_of(source)))
    certified = next(line for line in text.splitlines() if line.startswith("  certified: "))
    assert "(for N ≥ 7) · G = D_N · ceiling(floor(N/2)/2) attention layers (least); UAP at N = 1…6" in certified
    word_n = re.compile(r"(?<![A-Za-z0-9\\])n(?![A-Za-z0-9])")
    assert not [line for line in text.splitlines()[1:] if word_n.search(line)]
    plain = render("c.json", verify(certificate_of(source.replace("tokens N", "tokens n"))))
    assert word_n.sub("N", plain) == text.replace("tokens N", "tokens n")
