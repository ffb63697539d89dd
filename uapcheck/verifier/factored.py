"""Group orders kept factored: q · ∏ (s!)^c over a multiset of class sizes s, compared with a stated order without
being multiplied out when it is large (the verifier stays exact: a comparison that the logarithms do not settle by a
margin far above their error is made on the integers).

At 1,048,576 positions n! has 5.6 million digits: computing it takes tens of seconds and comparing it with a statement
"≈ m × 10^e" as many more, where its logarithm (SymPy's mpmath, 50 digits) settles the comparison at once; an equality
with N! is settled by Legendre's formula (the exponent of every prime p ≤ N) instead of the product.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Optional

#: a product estimated below this many decimal digits is multiplied out and compared exactly
EXACT_DIGITS = 20_000
#: Legendre's comparison sieves the primes up to N for N at most this (beyond it the equality is not re-derived)
MAX_SIEVED = 1 << 22
#: mpmath's working precision (decimal digits) for the logarithms, and the margin that settles a comparison
LOG_DIGITS = 50
LOG_MARGIN = 1e-25


@dataclass(frozen=True)
class Factorial:
    """The stated order N! (a certificate's `N!`, or S_n's n!), not multiplied out."""
    n: int


class FactoredOrder:
    """q · ∏ (s!)^c: `q` a positive integer (a quotient's order), `sizes` the class sizes with their counts."""

    def __init__(self, q: int, sizes: Iterable[int]):
        self.q = q
        self.sizes = Counter(s for s in sizes if s > 1)

    def log10(self):
        """log10 of the order at LOG_DIGITS digits (an mpmath number)."""
        import mpmath
        with mpmath.workdps(LOG_DIGITS):
            total = mpmath.log(self.q) + sum(c * mpmath.loggamma(s + 1) for s, c in self.sizes.items())
            return total / mpmath.log(10)

    def digits_estimate(self) -> int:
        return int(self.log10()) + 1

    def value(self) -> int:
        """The order multiplied out (only where it is small, or where the logarithms do not settle a comparison)."""
        out = self.q
        for s, c in sorted(self.sizes.items()):
            out *= math.factorial(s) ** c
        return out

    def small(self) -> bool:
        return self.digits_estimate() <= EXACT_DIGITS

    def show(self) -> str:
        """The order as text: its digits when short, else q · ∏ s!^c (never the long integer's digits)."""
        if self.digits_estimate() <= 30:
            return str(self.value())
        parts = [str(self.q)] if self.q != 1 else []
        parts += [f"{s}!" + (f"^{c}" if c > 1 else "") for s, c in sorted(self.sizes.items(), reverse=True)]
        return " · ".join(parts) + f" (about 10^{self.digits_estimate() - 1})"

    def bit_length_estimate(self) -> int:
        import mpmath
        with mpmath.workdps(LOG_DIGITS):
            return int(self.log10() * mpmath.log(10) / mpmath.log(2)) + 1


def equals(order: FactoredOrder, claimed) -> Optional[bool]:
    """Whether `order` is the stated integer or N! (a Factorial); None when it is not re-derived here (N! beyond
    MAX_SIEVED that the logarithms do not tell apart)."""
    if isinstance(claimed, Factorial):
        return _equals_factorial(order, claimed.n)
    claimed = int(claimed)
    if claimed <= 0:
        return False
    import mpmath
    with mpmath.workdps(LOG_DIGITS):
        gap = abs(order.log10() - mpmath.log10(claimed))
    if gap > 1:  # the logarithms differ by more than their error: the integers differ
        return False
    return order.value() == claimed  # about as long as the stated integer, which is in memory already


def _equals_factorial(order: FactoredOrder, n: int) -> Optional[bool]:
    if order.q == 1 and (not order.sizes and n <= 1 or dict(order.sizes) == {n: 1}):
        return True
    import mpmath
    with mpmath.workdps(LOG_DIGITS):
        gap = abs(order.log10() - mpmath.loggamma(n + 1) / mpmath.log(10))
    if gap > LOG_MARGIN:
        return False
    if order.small():
        return order.value() == math.factorial(n)
    if n > MAX_SIEVED:
        return None
    # Legendre: v_p(N!) = Σ_k ⌊N / p^k⌋ for every prime p ≤ N, against v_p(q) + Σ c · v_p(s!)
    q = order.q
    for p in _primes(n):
        want = _legendre(n, p)
        while q % p == 0:
            q //= p
            want -= 1
        have = sum(c * _legendre(s, p) for s, c in order.sizes.items() if s >= p)
        if have != want:
            return False
    if q != 1 or any(s > n for s in order.sizes):  # a prime factor above N
        return False
    return True


def _legendre(n: int, p: int) -> int:
    out, pk = 0, p
    while pk <= n:
        out += n // pk
        pk *= p
    return out


def _primes(n: int) -> list[int]:
    sieve = bytearray([1]) * (n + 1)
    sieve[:2] = b"\x00\x00"
    for p in range(2, math.isqrt(n) + 1):
        if sieve[p]:
            sieve[p * p::p] = bytearray(len(range(p * p, n + 1, p)))
    return [p for p in range(2, n + 1) if sieve[p]]


def agrees_with(order: FactoredOrder, mantissa: str, exponent: int) -> bool:
    """Whether the order is mantissa × 10^exponent to within one unit in the mantissa's last place (the statement is a
    rounding of a floating-point logarithm): (m − 1) · 10^(e − k) ≤ order ≤ (m + 1) · 10^(e − k), m the mantissa's
    k-digit fraction written as an integer. Settled on the logarithms at LOG_DIGITS digits when the order is more than
    LOG_MARGIN (in log10) inside or outside that interval, else on the integers."""
    import mpmath
    whole, _, frac = mantissa.partition(".")
    m, scale = int(whole + frac), exponent - len(frac)
    if m <= 1 or order.small():
        return _agrees_exactly(order.value(), m, scale)
    with mpmath.workdps(LOG_DIGITS):
        value = order.log10()
        low, high = mpmath.log10(m - 1) + scale, mpmath.log10(m + 1) + scale
        if low + LOG_MARGIN < value < high - LOG_MARGIN:
            return True
        if value < low - LOG_MARGIN or value > high + LOG_MARGIN:
            return False
    return _agrees_exactly(order.value(), m, scale)


def _agrees_exactly(order: int, m: int, scale: int) -> bool:
    if scale >= 0:
        return (m - 1) * 10 ** scale <= order <= (m + 1) * 10 ** scale
    return (m - 1) <= order * 10 ** (-scale) <= (m + 1)
