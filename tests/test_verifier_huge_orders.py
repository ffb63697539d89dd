"""A group whose order is too long for the certificate's integers (stated as "≈ m × 10^e"): the verifier
recomputes the order on the interval model and compares it with that statement, in integers."""
import copy
import math

from certificates import certificate_from_cli

from uapcheck.verifier import check, large

GLOBAL_TWO = """architecture "two globals"
attention {
  kernel k(x, y) = exp(x . y)
  pattern global(2)
}
tokens 5000
"""


def _sym_aut(report):
    return next(r for r in report.steps if r.rule == "SYM-AUT")


def test_a_huge_order_stated_approximately_is_verified(tmp_path):
    cert = certificate_from_cli(GLOBAL_TWO, tmp_path)
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    assert step["data"]["order"] is None and step["certificate"]["order"].startswith("≈ ")
    outcome = _sym_aut(check.verify(cert))
    assert outcome.outcome == check.VERIFIED, outcome


def test_a_wrong_approximate_order_is_rejected(tmp_path):
    cert = certificate_from_cli(GLOBAL_TWO, tmp_path)
    for wrong in ("≈ 3.50 × 10^16318", "≈ 3.38 × 10^16317", "about 10^16318"):
        bad = copy.deepcopy(cert)
        next(s for s in bad["steps"] if s["rule"] == "SYM-AUT")["certificate"]["order"] = wrong
        assert _sym_aut(check.verify(bad)).outcome == check.REJECTED, wrong


def test_the_approximate_comparison_is_exact_in_integers():
    order = 2 * math.factorial(4998)
    digits = math.floor(math.log10(order))
    lead = order // 10 ** (digits - 2)  # the first three digits
    mantissa = f"{lead // 100}.{lead % 100:02d}"
    assert large._agrees_with(order, mantissa, digits)
    assert large._agrees_with(order + 1, mantissa, digits)
    below = f"{(lead - 2) // 100}.{(lead - 2) % 100:02d}"
    assert not large._agrees_with(order, below, digits)
    assert not large._agrees_with(order, mantissa, digits + 1)
    assert large._agrees_with(12345, "1.23", 4) and not large._agrees_with(12345, "1.25", 4)


COMPLETE = """architecture "complete cyclic window"
attention {
  kernel k(x, y) = exp(x . y)
  pattern window(600) cyclic
}
tokens 1100
"""


def test_s_n_with_its_order_left_out_is_verified_as_n_factorial(tmp_path):
    # a complete cyclic window: G = S_n, the order 1100! written only as text in the closed form's data
    cert = certificate_from_cli(COMPLETE, tmp_path)
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    assert step["data"]["name"] == "S_n" and step["data"]["order"] is None
    assert _sym_aut(check.verify(cert)).outcome == check.VERIFIED


def test_a_group_falsely_named_s_n_is_rejected(tmp_path):
    cert = certificate_from_cli(GLOBAL_TWO, tmp_path)
    next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")["data"]["name"] = "S_n"
    assert _sym_aut(check.verify(cert)).outcome == check.REJECTED
