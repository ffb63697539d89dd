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


# ---------------------------------------------------------------------------------------------
# The order kept factored (uapcheck/verifier/factored.py): q · ∏ (s!)^c compared without multiplying it out

def test_factored_comparisons_agree_with_the_integers():
    import random
    from uapcheck.verifier.factored import Factorial, FactoredOrder, agrees_with, equals
    rng = random.Random(0)
    for _ in range(300):
        q, sizes = rng.randint(1, 50), [rng.randint(1, 30) for _ in range(rng.randint(0, 6))]
        order = FactoredOrder(q, sizes)
        value = q * math.prod(math.factorial(s) for s in sizes)
        assert equals(order, value) and not equals(order, value + 1)
        k = rng.randint(1, 40)
        assert equals(order, Factorial(k)) == (value == math.factorial(k)), (q, sizes, k)
        mantissa, exponent = f"{value:.3e}".split("e")
        assert agrees_with(order, mantissa, int(exponent)) == large._agrees_with(value, mantissa, int(exponent))


def test_a_long_factored_order_is_never_multiplied_out(monkeypatch):
    """n! at 2^20 positions has 5.6 million digits (tens of seconds to compute, as many to compare): an equality with
    N! is settled by Legendre's formula or the logarithms, a statement ≈ m × 10^e by the logarithms."""
    from uapcheck.verifier import factored
    from uapcheck.verifier.factored import Factorial, FactoredOrder, agrees_with, equals

    def refused(self):
        raise AssertionError("multiplied out")
    monkeypatch.setattr(factored.FactoredOrder, "value", refused)
    n = 1 << 20
    assert equals(FactoredOrder(1, [n]), Factorial(n))
    assert not equals(FactoredOrder(1, [n - 1]), Factorial(n))
    assert equals(FactoredOrder(n, [n - 1]), Factorial(n))  # n · (n − 1)! = n!, by Legendre's formula
    assert not equals(FactoredOrder(n + 1, [n - 1]), Factorial(n))
    assert equals(FactoredOrder(2, [30000, 2]), Factorial(30000)) is False
    blocks = FactoredOrder(1, [512] * 2048 + [2048])  # blocks(512) at 2^20 positions: 2048! · (512!)^2048
    assert agrees_with(blocks, "2.01", 2394970) is False
    digits = blocks.log10()
    exponent = int(digits)
    mantissa = f"{10 ** float(digits - exponent):.2f}"
    assert agrees_with(blocks, mantissa, exponent)
    assert "512!^2048" in blocks.show()
