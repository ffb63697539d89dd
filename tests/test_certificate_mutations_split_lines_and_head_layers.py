"""Mutation campaign on the certificates of Theorems F187 (split-line unions), F192, F193 and F170 (several heads at a
symbolic n, head_layers) and F196 (the twin quotient at a concrete n): every value of a pattern step's data or
certificate block and the file's verdict, group and layers is changed (a number ±1 or doubled, a flag flipped, a text
changed, a list shortened, lengthened or reversed, an expression tree ±1 or doubled); each mutant must be rejected or
named not certified, never verified with a false fact (docs/theory.md §18.6).

The holes the campaign found, each pinned below: a group stated by residue class had its name — the words the summary
certifies as G — read nowhere, so the name of another group passed wherever it was written alike (the step, the
summary, the verdict's facts); a class name of Theorem F187 stating a group of another order than the class's passed;
summary generators written 0 or "" read as none."""
from __future__ import annotations

import copy
import json
import random
from functools import lru_cache

import pytest

from certificates import heads_certificate
from test_certificate_mutations_residue_exchanges_and_sinks import REPEATABLE, _edits, _flat, _leaves

from uapcheck.verifier import REJECTED, TRUSTED, verify

HEADS = {"f187_star": ("star + offsets {-6, -2, 2}", "star"), "f187_cyclic": ("offsets {2} cyclic", "global(2)"),
         "f187_wreath": ("star + dilated(1, 4)", "star"), "f192_blocks": ("blocks(7)", "window(6)"),
         "f192_offsets": ("offsets {1}", "window(3)"), "f193": ("strided(3)", "window(1)"),
         "f170": ("star", "strided(2)", "window(1)")}


@lru_cache(maxsize=None)
def _text(name: str) -> str:
    return json.dumps(heads_certificate(*HEADS[name]))


def _cert(name: str) -> dict:
    return json.loads(_text(name))


def _sym(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")


def _renamed(cert: dict, new: str) -> dict:
    """The certificate with the group's name by class replaced by `new` wherever it is written (the step's data, the
    summary, the verdict's facts): a consistent forgery that single-value mutants do not make."""
    old = _sym(cert)["data"]["name"]
    return json.loads(json.dumps(cert).replace(json.dumps(old)[1:-1], json.dumps(new)[1:-1]))


@pytest.mark.parametrize("name, new", [
    ("f192_blocks", "reflection"), ("f192_blocks", "trivial"), ("f192_blocks", "reflection if n mod 7 = 1, else trivial"),
    ("f192_blocks", "reflection if n mod 7 ∈ {0, 1}, else trivial"), ("f192_blocks", "trivial if n mod 7 = 0, else reflection"),
    ("f187_star", "trivial"), ("f187_star", "trivial if n odd, else S_2 on the classes of 2, 3 mod 2 of {2, …, n}, "
                                            "exchanged in order")])
def test_a_group_name_by_class_other_than_its_classes_is_rejected(name, new):
    cert = _cert(name)
    assert verify(cert).ok
    report = verify(_renamed(cert, new))
    step = next(s for s in report.steps if s.rule == "SYM-AUT")
    assert not report.ok and step.outcome == REJECTED and "the group's name" in step.reason, step.reason


@pytest.mark.parametrize("name", sorted(HEADS))
def test_the_honest_certificates_are_verified(name):
    report = verify(_cert(name))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]


@pytest.mark.parametrize("suffix", [" × S_2", " × C_2 ≀ S_2 on the classes of 4, 5 mod 4"])
def test_an_f187_class_name_stating_another_order_is_rejected(suffix):
    cert = _cert("f187_star")
    cls = _sym(cert)["data"]["classes"][1]
    assert cls["order"] == 2
    cls["name"] += suffix
    report = verify(cert)
    step = next(s for s in report.steps if s.rule == "SYM-AUT")
    assert step.outcome == REJECTED and "states a group of order" in step.reason


def test_an_f187_class_name_s_words_are_named_not_certified():
    cert = _cert("f187_wreath")
    report = verify(cert)
    sid = _sym(cert)["id"]
    assert report.ok and {f"{sid} data.classes[{k}].name" for k in range(len(_sym(cert)["data"]["classes"]))} <= set(
        report.unbound)


@pytest.mark.parametrize("value", [0, "", False, {"x": 1}])
def test_summary_generators_that_are_not_a_list_are_rejected(value):
    cert = _cert("f192_blocks")
    assert cert["group"]["generators"] is None
    cert["group"]["generators"] = value
    report = verify(cert, only={cert["steps"][-1]["id"]})
    assert any("not a list" in p for p in report.problems), report.problems


# -- the sweep: a sample of the campaign's mutants ----------------------------------------------------------------

PATTERN_RULES = {"PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT", "PAT-DISCONNECTED", "VERDICT-T1"}


def _mutants(name: str, count: int, seed: int) -> list:
    cert = _cert(name)
    spots = [(None, w, v) for key in ("verdict", "group", "layers") if key in cert for w, v in _leaves(cert[key], (key,))]
    spots += [(s["id"], w, v) for s in cert["steps"] if s["rule"] in PATTERN_RULES for part in ("data", "certificate")
              if isinstance(s.get(part), dict) for w, v in _leaves(s[part], (part,))
              if not (w[:2] == ("data", "lengths") and w[-1] == "least")]  # "not least" below the range: true
    muts = [(sid, w, new) for sid, w, v in spots for new in _edits(v)]
    random.Random(seed).shuffle(muts)
    return muts[:count]


#: lists whose order states nothing (a class of a group by residue class is a class wherever it is listed)
ORDERLESS = ("data.classes",)


@pytest.mark.parametrize("name, seed", [("f187_star", 1), ("f192_blocks", 2), ("f193", 3), ("f170", 4)])
def test_every_sampled_mutant_is_rejected_or_named(name, seed):
    base = _cert(name)
    root = base["steps"][-1]["id"]
    for sid, where, new in _mutants(name, 25, seed):
        mutant = copy.deepcopy(base)
        node = mutant if sid is None else next(s for s in mutant["steps"] if s["id"] == sid)
        for key in where[:-1]:
            node = node[key]
        node[where[-1]] = new
        path = ".".join(map(str, where))
        if path.endswith(REPEATABLE) and isinstance(new, list) and len(new) >= 2 and new[-1] == new[-2]:
            continue
        if path.endswith(ORDERLESS) and isinstance(new, list) and sorted(map(json.dumps, new)) == sorted(
                map(json.dumps, _at(base, sid, where))):
            continue
        only = {root} | ({sid} | {s["id"] for s in mutant["steps"] if sid in s["premises"]} if sid else set())
        report = verify(mutant, only=only)
        mine = next((s for s in report.steps if s.id == sid), None)
        full = f"{sid} {path}" if sid else path
        named = any(_flat(full).startswith(_flat(u)) or _flat(u).startswith(_flat(full)) for u in report.unbound)
        rejected = bool(report.problems) or any(s.outcome == REJECTED for s in report.steps)
        assert rejected or named or (mine is not None and mine.outcome == TRUSTED), (full, new)


def _at(cert: dict, sid, where):
    node = cert if sid is None else next(s for s in cert["steps"] if s["id"] == sid)
    for key in where:
        node = node[key]
    return node
