"""Forged class entries of the verdict step (VERDICT-T1 at a symbolic n, docs/theory.md §12, §18): what the statement
prints beside the range ("NOT-UAP for n ≥ 55 and (n mod 5 ∈ {1, 2}); INCONCLUSIVE for n ≥ 55 and (n mod 5 ∈ {3, 4})")
is each entry's verdict and condition. An extra entry, an entry restating no premise, an entry with another verdict,
a condition off its classes, a NOT-UAP condition from a length its premise does not state, classes left unstated or
stated twice beside the range are each named by the verdict step's check, while the honest entries, and the same
classes written with another modulus, pass. They used to pass unnamed (only a side premise left unlisted was).

The certificates: `window(3) cyclic + strided(5)` with `layers 2` (UAP on n mod 5 = 0 from n = 55 on, NOT-UAP on the
classes {1, 2} by PAT-BUDGET-CLASS, INCONCLUSIVE on {3, 4} by PAT-BUDGET-VIEW: the complement of the others), and
the catalog's `cyclic_even_jumps_n.uap` (UAP on odd n ≥ 3, NOT-UAP on the even n ≥ 3). Theorem F219 now decides the
classes {3, 4} (2 layers suffice there), so the budget's certificate is made with F219's check switched off, as it is
above its limit s ≤ 16: the engine then states them INCONCLUSIVE, a weaker statement the verdict step's check reads
the same way (only the verdict step is verified here). The entry of an obstruction
that decides the range itself states no verdict and is accepted (tests/test_budget_least_symbolic.py,
tests/graphs/test_cyclic_window_strided_least.py)."""
from __future__ import annotations

import copy
import json
from functools import lru_cache
from unittest import mock

import pytest

from certificates import certificate, certificate_of  # tests/ is on sys.path

from uapcheck.verifier import verify

BUDGET = ("tokens n\nlayers 2\nattention {\n  kernel k(x, y) = exp(x . y)\n"
          "  pattern window(3) cyclic + strided(5)\n}\n")
EVEN_JUMPS = "cyclic_even_jumps_n.uap"


@lru_cache(maxsize=None)
def _text(name: str) -> str:
    if name.endswith(".uap"):
        return json.dumps(certificate(name))
    from uapcheck.graphs import families
    families._match_cached.cache_clear()  # a family matched earlier in this process holds F219's classes
    try:
        with mock.patch("uapcheck.graphs.cyclic_covered_least.suffice_classes", lambda w, s: ()):
            return json.dumps(certificate_of(name))
    finally:
        families._match_cached.cache_clear()  # and the one matched here must not serve a later test


def _cert(name: str) -> dict:
    return json.loads(_text(name))


def _verdict(cert: dict) -> dict:
    return cert["steps"][-1]


def _entries(cert: dict) -> list:
    return _verdict(cert)["data"]["classes"]


def _premise(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def _problems(cert: dict) -> list:
    return verify(cert, only={_verdict(cert)["id"]}).problems


def _mod_is(modulus: int, residues) -> dict:
    """n mod `modulus` ∈ `residues` as a condition tree."""
    parts = [{"rel": "==", "args": [{"op": "mod", "args": [{"sym": "n"}, modulus]}, r]} for r in residues]
    return parts[0] if len(parts) == 1 else {"or": parts}


def _from(start: int, cond: dict) -> dict:
    return {"and": [{"rel": ">=", "args": [{"sym": "n"}, start]}, cond]}


def test_the_honest_entries_are_accepted():
    budget, jumps = _cert(BUDGET), _cert(EVEN_JUMPS)
    assert [(e["modulus"], e["residues"], e["verdict"]) for e in _entries(budget)] == [
        (5, [1, 2], "NOT-UAP"), (5, [3, 4], "INCONCLUSIVE")]
    assert [(e["modulus"], e["residues"], e["verdict"]) for e in _entries(jumps)] == [(2, [0], "NOT-UAP")]
    assert _problems(budget) == [] and _problems(jumps) == []


def _extra_copy(cert):
    _entries(cert).append(copy.deepcopy(_entries(cert)[-1]))


def _extra_modulus(cert):
    _entries(cert).append(dict(copy.deepcopy(_entries(cert)[-1]), modulus=10))


def _fewer_residues(cert):
    _entries(cert)[-1]["residues"] = [3]


def _another_rule(cert):
    _entries(cert)[-1]["rule"] = "SYM-UNDECIDED"


def _not_uap_on_open_classes(cert):
    _entries(cert)[-1]["verdict"] = "NOT-UAP"


def _inconclusive_on_refuted_classes(cert):
    _entries(cert)[0]["verdict"] = "INCONCLUSIVE"


def _not_uap_from_an_earlier_length(cert):
    """NOT-UAP on n mod 5 ∈ {1, 2} from n = 20 on: off the range PAT-BUDGET-CLASS states (n ≥ 55 there)."""
    _entries(cert)[0]["condition"] = _from(20, _mod_is(5, [1, 2]))


def _condition_off(cert):
    _entries(cert)[-1]["condition"] = _from(55, _mod_is(5, [3]))


def _condition_beyond(cert):
    _entries(cert)[-1]["condition"] = _from(55, _mod_is(5, [0, 3, 4]))


def _condition_of_another_period(cert):
    """n mod 10 ∈ {3, 4}: on the classes at n ≡ 3, 4 (mod 10), off them at n ≡ 8, 9."""
    _entries(cert)[-1]["condition"] = _from(55, _mod_is(10, [3, 4]))


def _no_condition(cert):
    _entries(cert)[-1]["condition"] = None


def _complement_short(cert):
    """The undecided premise and its entry both forged to {3}: the class n mod 5 = 4 is stated nowhere."""
    _premise(cert, "PAT-BUDGET-VIEW")["data"]["classes"]["residues"] = [3]
    _entries(cert)[-1]["residues"] = [3]
    _entries(cert)[-1]["condition"] = _from(55, _mod_is(5, [3]))


def _complement_overlapping(cert):
    """Both forged to {0, 3, 4}: the class n mod 5 = 0 stated INCONCLUSIVE and inside the UAP range."""
    _premise(cert, "PAT-BUDGET-VIEW")["data"]["classes"]["residues"] = [0, 3, 4]
    _entries(cert)[-1]["residues"] = [0, 3, 4]
    _entries(cert)[-1]["condition"] = _from(55, _mod_is(5, [0, 3, 4]))


def _complement_twice(cert):
    """Both forged to {1, 3, 4}: the class n mod 5 = 1 stated NOT-UAP and INCONCLUSIVE."""
    _premise(cert, "PAT-BUDGET-VIEW")["data"]["classes"]["residues"] = [1, 3, 4]
    _entries(cert)[-1]["residues"] = [1, 3, 4]
    _entries(cert)[-1]["condition"] = _from(55, _mod_is(5, [1, 3, 4]))


def _jumps_condition_odd(cert):
    _entries(cert)[0]["condition"] = _from(3, _mod_is(2, [1]))


def _jumps_condition_every_n(cert):
    _entries(cert)[0]["condition"] = {"rel": ">=", "args": [{"sym": "n"}, 3]}


def _jumps_condition_of_a_hidden_period(cert):
    """Even n ≥ 3, or n/63 mod 2 = 1: the Mod's period is 126, not 2, so read at n = 1…5 it is the even lengths,
    and it holds at n = 63, an odd length of the UAP range (past the lengths the NOT-UAP re-check reads)."""
    odd_63rd = {"rel": "==", "args": [{"op": "mod", "args": [{"op": "*", "args": [{"q": [1, 63]}, {"sym": "n"}]}, 2]},
                                      1]}
    _entries(cert)[0]["condition"] = {"or": [_from(3, _mod_is(2, [0])), odd_63rd]}


def _jumps_odd_classes(cert):
    """The disconnection's classes, its entry and the range all moved to the odd lengths (the premise's own check
    is not run here): NOT-UAP is then printed at n = 3, 5, …, where the verifier's arcs are strongly connected."""
    _premise(cert, "PAT-DISCONNECTED")["data"]["classes"]["residues"] = [1]
    _entries(cert)[0].update(residues=[1], condition=_from(3, _mod_is(2, [1])))
    _verdict(cert)["data"]["range"] = _from(3, _mod_is(2, [0]))
    _verdict(cert)["data"].pop("lengths", None)


MUTANTS = [
    (BUDGET, _extra_copy, "a second time (an extra entry)"),
    (BUDGET, _extra_modulus, "restates no premise's classes"),
    (BUDGET, _fewer_residues, "restates no premise's classes"),
    (BUDGET, _another_rule, "restates no premise's classes"),
    (BUDGET, _not_uap_on_open_classes, "(PAT-BUDGET-VIEW, undecided) gives INCONCLUSIVE"),
    (BUDGET, _inconclusive_on_refuted_classes, "(PAT-BUDGET-CLASS, proved) gives NOT-UAP"),
    (BUDGET, _not_uap_from_an_earlier_length, "is not the range"),
    (BUDGET, _condition_off, "does not hold exactly on its classes (it fails at n = 59"),
    (BUDGET, _condition_beyond, "does not hold exactly on its classes (it holds at n = 55, off the classes)"),
    (BUDGET, _condition_of_another_period, "does not hold exactly on its classes"),
    (BUDGET, _no_condition, "states a verdict with no condition"),
    (BUDGET, _complement_short, "the lengths below the range are None"),
    (BUDGET, _complement_overlapping, "states a verdict on classes the verdict's range does not exclude"),
    (BUDGET, _complement_twice, "both state the classes n ≡ 1 (mod 5)"),
    (EVEN_JUMPS, _jumps_condition_odd, "does not hold exactly on its classes (it holds at n = 3, off the classes)"),
    (EVEN_JUMPS, _jumps_condition_every_n, "does not hold exactly on its classes"),
    (EVEN_JUMPS, _jumps_condition_of_a_hidden_period, "is not one of n mod integers"),
    (EVEN_JUMPS, _jumps_odd_classes, "at n = 3 the pattern is strongly connected"),
]


@pytest.mark.parametrize("source, forge, named", MUTANTS, ids=[m[1].__name__.strip("_") for m in MUTANTS])
def test_a_forged_class_entry_is_named(source, forge, named):
    cert = _cert(source)
    forge(cert)
    report = verify(cert, only={_verdict(cert)["id"]})
    found = report.problems + [s.reason for s in report.steps if s.outcome == "rejected"]
    assert any(named in p for p in found), found


def test_the_same_classes_written_with_another_modulus_are_accepted():
    """n mod 10 ∈ {3, 4, 8, 9} is n mod 5 ∈ {3, 4}; n mod 4 ∈ {0, 2} is n even: restatements."""
    budget = _cert(BUDGET)
    _entries(budget)[-1].update(modulus=10, residues=[3, 4, 8, 9], condition=_from(55, _mod_is(10, [3, 4, 8, 9])))
    jumps = _cert(EVEN_JUMPS)
    _entries(jumps)[0]["condition"] = _from(3, _mod_is(4, [0, 2]))
    assert _problems(budget) == [] and _problems(jumps) == []


def test_classes_with_moduli_of_ten_thousand_are_compared_at_once():
    """An undecided premise and its entry forged to every class mod 9,999 and mod 10,000 (the same set of n, the
    lcm of the moduli about 10⁸): the classes are compared through the gcd of the moduli, not residue by residue
    mod the lcm, and the entry is named (the range n mod 5 = 0 does not exclude every class)."""
    import time
    cert = _cert(BUDGET)
    _premise(cert, "PAT-BUDGET-VIEW")["data"]["classes"].update(modulus=9999, residues=list(range(9999)))
    _entries(cert)[-1].update(modulus=10000, residues=list(range(10000)))
    start = time.process_time()
    found = _problems(cert)
    assert time.process_time() - start < 15
    assert any("states a verdict on classes the verdict's range does not exclude" in p for p in found), found


@pytest.mark.parametrize("modulus, residues", [(0, [0]), ("x", [1]), (10 ** 9, [3]), (5, "ab")],
                         ids=["modulus-0", "modulus-a-word", "modulus-10^9", "residues-a-word"])
def test_a_premise_whose_classes_are_not_classes_is_named(modulus, residues):
    """The undecided premise's classes forged to a modulus 0 or a word (the verifier ended in an error), 10⁹ (it read
    the residues mod 10⁹ one by one) or residues that are a word: named, in well under a second."""
    import time
    cert = _cert(BUDGET)
    _premise(cert, "PAT-BUDGET-VIEW")["data"]["classes"].update(modulus=modulus, residues=residues)
    start = time.process_time()
    found = _problems(cert)
    assert time.process_time() - start < 15
    assert any("are not a modulus from 1 to 10,000 with distinct residues below it" in p for p in found), found


def test_a_range_with_a_modulus_of_ten_to_the_nine_is_not_read_residue_by_residue():
    """The range forged to n ≥ 55 and n mod 10⁹ ∈ {0, 5}: whether it excludes a premise's classes would be read on
    5·10⁹ residues; it is not read, so the premises count for the whole range and the verdict is named."""
    import time
    cert = _cert(BUDGET)
    _verdict(cert)["data"]["range"] = _from(55, _mod_is(10 ** 9, [0, 5]))
    start = time.process_time()
    report = verify(cert)
    assert time.process_time() - start < 15
    assert report.problems, report.problems


def test_side_premises_whose_moduli_have_an_lcm_of_two_times_ten_to_the_seven_are_not_read_class_by_class():
    """The two side premises forged to n mod 9,995 ∈ {1, 2, …} and n mod 10,000 ∈ {3, 4, …} (the same classes mod 5,
    each excluded by the range): the count on the classes they leave would be compared on 2·10⁷ classes; it is not
    read, and the summary's count is named."""
    import time
    cert = _cert(BUDGET)
    for rule, modulus, kept in (("PAT-BUDGET-CLASS", 9995, {1, 2}), ("PAT-BUDGET-VIEW", 10000, {3, 4})):
        residues = [t for t in range(modulus) if t % 5 in kept]
        _premise(cert, rule)["data"]["classes"].update(modulus=modulus, residues=residues)
        entry = next(e for e in _entries(cert) if set(e["residues"]) == kept)
        entry.update(modulus=modulus, residues=residues)
    start = time.process_time()
    found = _problems(cert)
    assert time.process_time() - start < 15
    assert any("on the classes the verdict states" in p for p in found), found
