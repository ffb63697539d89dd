"""The verifier's TGT-NOT-CAUSAL checker (docs/theory.md §18.3): NOT-UAP for causal targets re-checked from the
input, either an earlier position whose token never reaches a later one (a backward search on the verifier's own
arcs) or a non-trivial group of the family (from the derivation's one group step, checked by its own checker). The
step used to have no checker, so `tokens 8`, `offsets {-6, -3}`, `target causal` was NOT FULLY VERIFIED."""
from __future__ import annotations

import copy
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import uapcheck  # noqa: E402
from certificates import certificate_of, rejects  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402
from uapcheck.verifier.check import REJECTED, VERIFIED  # noqa: E402

RULE = "TGT-NOT-CAUSAL"


def causal_source(pattern: str | None, tokens="8") -> str:
    body = "  kernel k(x, y) = exp(x . y)\n" + (f"  pattern {pattern}\n" if pattern else "")
    return f"tokens {tokens}\nattention {{\n{body}}}\ntarget causal\n"


def step_of(cert: dict, rule: str) -> dict:
    (step,) = [s for s in cert["steps"] if s["rule"] == rule]
    return step


def outcome(cert: dict, rule: str = RULE) -> str:
    report = verify(cert)
    (line,) = [s for s in report.steps if s.rule == rule]
    return line.outcome


def with_witness(cert: dict, i: int, j: int, printed: bool = True) -> dict:
    forged = copy.deepcopy(cert)
    step = step_of(forged, RULE)
    step["data"].update(i=i, j=j)
    if printed:
        step["evidence"]["witness"].update(i=i, j=j)
    return forged


def test_an_unreached_earlier_position_is_verified():
    cert = certificate_of(causal_source("offsets {-6, -3}"))
    assert cert["verdict"] == "NOT-UAP"
    assert step_of(cert, RULE)["data"] == {"route": "unreached", "i": 2, "j": 1}
    report = verify(cert)
    assert report.ok and all(s.outcome == VERIFIED for s in report.steps), [(s.rule, s.outcome) for s in report.steps]


def test_a_pair_the_arcs_join_is_rejected():
    cert = certificate_of(causal_source("offsets {-6, -3}"))
    assert rejects(with_witness(cert, 4, 1), RULE)  # 1 -> 4 is an arc (offset -3)
    assert rejects(with_witness(cert, 7, 1), RULE)  # 1 -> 4 -> 7


def test_a_later_or_equal_key_is_no_causal_witness():
    cert = certificate_of(causal_source("offsets {-6, -3}"))
    assert rejects(with_witness(cert, 1, 2), RULE)  # x_2 never reaches 1, but F(X)_1 = x_2 is not causal
    assert rejects(with_witness(cert, 3, 3), RULE)
    assert rejects(with_witness(cert, 9, 1), RULE)  # outside 1..n


def test_a_witness_other_than_the_printed_one_is_rejected():
    cert = certificate_of(causal_source("offsets {-6, -3}"))
    assert rejects(with_witness(cert, 3, 1, printed=False), RULE)


def test_a_step_without_a_route_is_rejected():
    cert = copy.deepcopy(certificate_of(causal_source("offsets {-6, -3}")))
    step_of(cert, RULE)["data"] = None
    assert rejects(cert, RULE)


def test_a_non_trivial_group_is_verified_from_the_group_step():
    window = certificate_of(causal_source("window(1)"))  # the reflection
    assert step_of(window, RULE)["data"] == {"route": "group"}
    assert outcome(window) == VERIFIED and verify(window).ok
    dense = certificate_of(causal_source(None))  # S_n from the dense table
    assert outcome(dense) == VERIFIED and verify(dense).ok


def test_a_trivial_group_is_rejected():
    dense = copy.deepcopy(certificate_of(causal_source(None)))
    group = step_of(dense, "SYM-DENSE")
    group["data"]["group"] = "trivial"
    assert outcome(dense) == REJECTED
    window = copy.deepcopy(certificate_of(causal_source("window(1)")))
    data = step_of(window, "SYM-AUT")["data"]
    data["generators"], data["order"] = [list(range(1, 9))], 1
    assert outcome(window) == REJECTED


def test_symbolic_n_states_the_not_uap_range_of_the_group():
    """G is trivial at n = 1 (and on whole residue classes for some patterns), so NOT-UAP for causal targets by the
    group holds on a range of n only: at a symbolic n it is stated for the range where the group step's G is not
    trivial, the lengths below decided one by one; a group stated by residue class leaves the causal class
    INCONCLUSIVE, and each integer n decides it (docs/theory.md §14.10)."""
    for pattern, start in (("window(1)", 3), ("window(2)", 5)):
        result = uapcheck.check(causal_source(pattern, tokens="n"), "t.uap")
        assert result.verdict == "NOT-UAP" and result.target.range == f"n ≥ {start}"
        assert [s.rule for s in result.root.walk() if s.rule == "TGT-NOT-CAUSAL"]
    result = uapcheck.check(causal_source("blocks(4) + dilated(3, 2)", tokens="n"), "t.uap")
    assert result.verdict == "INCONCLUSIVE"
    assert not [s for s in result.root.walk() if s.rule == "TGT-NOT-CAUSAL"]
    # blocks(4) + dilated(3, 2): G is trivial for n mod 4 = 1, 3, where the causal class is UAP (n = 61), and not
    # trivial for n mod 4 = 0 (n = 64), where NOT-UAP holds
    assert uapcheck.check(causal_source("blocks(4) + dilated(3, 2)", tokens=61), "t.uap").verdict == "UAP"
    assert uapcheck.check(causal_source("blocks(4) + dilated(3, 2)", tokens=64), "t.uap").verdict == "NOT-UAP"
    assert uapcheck.check(causal_source("window(2)", tokens=1), "t.uap").verdict == "UAP"


def test_a_not_uap_by_the_group_at_symbolic_n_is_rejected():
    """A forged TGT-NOT-CAUSAL by the group at a symbolic n that states no range: false at n = 1, so the verifier
    rejects it."""
    cert = copy.deepcopy(certificate_of(causal_source("window(1)")))
    text = cert["input"]["text"].replace("tokens 8", "tokens n")
    cert["input"].update(text=text, sha256=hashlib.sha256(text.encode()).hexdigest())
    assert step_of(cert, RULE)["data"]["route"] == "group"
    assert outcome(cert) == REJECTED
