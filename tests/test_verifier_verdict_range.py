"""A UAP verdict's range of a symbolic n starts no lower than the premises it rests on
(uapcheck/verifier/by_class.py, range_within_premises; docs/theory.md §18.3): lowering the verdict step's range and
dropping the lengths below it, so that the lengths check re-derives them from the forged range, is rejected. Each
forged start is a length where the family is not what the theorems state (e.g. strided(4) + strided(6) + strided(9)
is not strongly connected at n = 2…9)."""
import copy

import pytest

from certificates import certificate

from uapcheck.verifier import verify


def _verdict(cert) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "VERDICT-T1")


def _rejections(cert) -> list[str]:
    report = verify(cert)
    return list(report.problems) + [s.reason for s in report.rejected]


def _lowered(cert, start: int) -> dict:
    out = copy.deepcopy(cert)
    data = _verdict(out)["data"]
    assert data["range"]["rel"] == ">=" and data["range"]["args"][0] == {"sym": "n"}
    assert data["range"]["args"][1] > start
    data["range"]["args"][1] = start
    data["lengths"] = [x for x in data.get("lengths") or [] if x["n"] < start]
    return out


CASES = [("strided_three_witness_n.uap", 36, [2, 30, 35]), ("blocks_dilated_chains_n.uap", 8, [2, 7]),
         ("cyclic_window_dilated_n.uap", 65, [20, 64])]


@pytest.mark.parametrize("name, start, forged", CASES)
def test_a_verdict_range_below_its_premises_start_is_rejected(name, start, forged):
    cert = certificate(name)
    assert _verdict(cert)["data"]["range"]["args"][1] == start
    assert _rejections(cert) == []
    for low in forged:
        reasons = _rejections(_lowered(cert, low))
        assert any("below premise" in r and f"n ≥ {start}" in r for r in reasons), (low, reasons)


def test_a_forged_range_constant_of_ten_to_the_twelve_is_not_read_length_by_length():
    """The lengths below a range n ≥ 10¹² would be read one by one (a hang): the lengths check reads at most
    by_class.LENGTHS_READ_TOP of them and names the rest, and the verifier ends at once without verifying the step."""
    import time
    cert = copy.deepcopy(certificate("strided_three_witness_n.uap"))
    data = _verdict(cert)["data"]
    data["range"]["args"][1] = 10 ** 12
    start = time.process_time()
    report = verify(cert)
    assert time.process_time() - start < 30
    verdict = next(s for s in report.steps if s.rule == "VERDICT-T1")
    assert verdict.outcome != "verified", verdict
    reasons = " ".join([verdict.reason] + list(report.problems))
    assert "1,000,000,000,00" in reasons, reasons


def test_a_range_whose_lengths_below_are_trusted_is_still_held_to_the_other_checks():
    """causal.uap (NOT-UAP for n ≥ 2, UAP at n = 1) with its range forged to also hold at n = 1 through a relation
    with the constant 10⁶: the lengths below it are trusted (more than LENGTHS_READ_TOP to read), but the NOT-UAP
    range is still re-checked at its first lengths, and n = 1 (one position, strongly connected) is named. The step
    was trusted: the lengths' check ended the step's checks."""
    cert = copy.deepcopy(certificate("causal.uap"))
    data = _verdict(cert)["data"]
    assert data["range"] == {"rel": ">=", "args": [{"sym": "n"}, 2]} and _rejections(cert) == []
    data["range"] = {"or": [data["range"], {"and": [{"rel": "<=", "args": [{"sym": "n"}, 1]},
                                                    {"rel": "!=", "args": [{"sym": "n"}, 10 ** 6]}]}]}
    verdict = next(s for s in verify(cert).steps if s.rule == "VERDICT-T1")
    assert verdict.outcome == "rejected" and "n = 1 lies in the NOT-UAP range" in verdict.reason, verdict
