"""A `bias free` on a sparse head: Theorem F163 (docs/theory.md §11.10).

A `free` class is the pair (query, key) itself, so a labelled view witness would fix every position within D of its
root when the `free` head holds every arc: none exists; and Lemma V^λ holds for `free` classes on rows that see two
keys or more (a large bias on one key of one row moves that row's output alone). So D layers suffice, and are least.
§13 L10 (d)'s file: `tokens 8`, `window(1)`, `bias free`: 7 layers, least (formerly 8, sufficient). Checked against a
brute force over S_n (n ≤ 7) from the definitions of §11.10; a `free` head with a row that sees itself alone is not
claimed, and the verifier rejects D there."""
from __future__ import annotations

import copy

import pytest

import uapcheck
from uapcheck.verifier import verify

from certificates import certificate_from_cli  # tests/ is on sys.path
from t5_buckets import brute, window_neighbours

KERNEL = "  kernel k(x, y) = exp(x . y)\n"


def program(n: int, pattern: str) -> str:
    return f"tokens {n}\nattention {{\n{KERNEL}  pattern {pattern}\n  bias free\n}}\n"


def layers_step(r):
    return next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")


def test_the_referee_file_is_seven_layers_least():
    r = uapcheck.check(program(8, "window(1)"), "t.uap")
    assert (r.verdict, r.group.order, r.layers, layers_step(r).facts["least"]) == ("UAP", 1, 7, True)


@pytest.mark.parametrize("pattern,w,cyclic", [("window(1)", 1, False), ("window(2)", 2, False),
                                              ("window(1) cyclic", 1, True)])
def test_against_brute_force(pattern, w, cyclic):
    """n ≤ 7 over all of S_n with the `free` labels (the pair itself): the group and the least count."""
    for n in range(max(3, w + 2), 8):
        r = uapcheck.check(program(n, pattern), "t.uap")
        assert (r.group.order, r.layers) == brute(n, [(window_neighbours(n, w, cyclic), lambda q, k: (q, k))]), n
        assert layers_step(r).facts["least"] is True


TWO_HEADS = ("tokens 7\nattention {\n" + KERNEL + "  pattern offsets {-1}\n  bias free\n}\n"
             "attention {\n" + KERNEL + "  pattern window(1)\n}\n")


def test_a_row_that_sees_itself_alone_is_not_claimed(tmp_path):
    """Row 1 of `offsets {-1}` sees itself alone: its output is the same whatever its `free` bias, so the lemma does
    not hold there; the count is not stated least by this theorem, and the verifier rejects D stated least."""
    r = uapcheck.check(TWO_HEADS, "t.uap")
    step = layers_step(r)
    assert "Theorem F163" not in step.facts.get("method", "") + step.claim
    cert = certificate_from_cli(TWO_HEADS, tmp_path)
    forged = copy.deepcopy(cert)
    data = next(s for s in forged["steps"] if s["rule"] == "PAT-LAYERS")["data"]
    data["layers"], data["least"] = data["diameter"], True
    assert not verify(forged).ok


def test_the_verifier_rechecks_the_theorem(tmp_path):
    cert = certificate_from_cli(program(12, "window(1)"), tmp_path)
    report = verify(cert)
    assert report.ok and report.complete, report
