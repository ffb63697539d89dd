"""A convolution mixer's whole statement at `tokens n` (docs/theory.md §22.2–§22.6: the count and group from the
range's start, the residue classes beside it, and since d966b84 the lengths below it) read at every n ≤ 60 for
random integer tap sets, against the sum sets and the centraliser's order computed in
tests/test_convolution_lengths_below.py from the taps alone; and the run at `tokens <n>` at five random lengths each."""
from __future__ import annotations

import random
import re

import pytest
import sympy

import uapcheck

from test_convolution_lengths_below import _least_depth, _order  # tests/ is on sys.path

N = sympy.Symbol("n", integer=True, positive=True)


def holds(condition: str, n: int) -> bool:
    """A stated condition on n: `n ≥ a`, `n odd`, `n even`, `n mod m ∈ {…}`, `n mod m = r`, joined by `and`."""
    for part in condition.split(" and "):
        part = part.strip().strip("()")
        if part in ("n odd", "n even"):
            ok = n % 2 == (part == "n odd")
        elif m := re.fullmatch(r"n ≥ (\d+)", part):
            ok = n >= int(m.group(1))
        elif m := re.fullmatch(r"n mod (\d+) ∈ \{([^}]*)\}", part):
            ok = n % int(m.group(1)) in {int(x) for x in m.group(2).split(",")}
        elif m := re.fullmatch(r"n mod (\d+) = (\d+)", part):
            ok = n % int(m.group(1)) == int(m.group(2))
        else:
            raise AssertionError(f"a condition this reader does not know: {part!r}")
        if not ok:
            return False
    return True


def statement_at(d: dict, n: int) -> tuple:
    """(verdict, layers, group order) stated at n: a listed length, a residue class beside the range, or the range."""
    listed = [x for x in d.get("below_range") or [] if x["n"] == n]
    if listed:
        return listed[0]["verdict"], listed[0]["layers"], (listed[0]["group"] or {}).get("order")
    condition = (d.get("group") or {}).get("condition") or ""
    if d["verdict"] != "UAP" or (condition and not holds(condition, n)):
        hits = [c for c in d.get("by_class") or [] if holds(c["condition"], n)]
        assert len(hits) == 1 or (not hits and d["verdict"] == "NOT-UAP"), (condition, d.get("by_class"), n)
        return (hits[0]["verdict"] if hits else d["verdict"]), None, None
    layers = sympy.sympify(str(d["layers"]), locals={"n": N}).subs(N, n)
    order = sympy.sympify(str(d["group"]["order"]), locals={"n": N}).subs(N, n)
    return "UAP", int(layers), int(order)


def truth(taps: tuple, n: int) -> tuple:
    depth = _least_depth(n, taps)
    return ("NOT-UAP", None, None) if depth is None else ("UAP", depth, _order(n, taps))


@pytest.mark.parametrize("seed", range(2))
def test_the_statement_at_every_length_is_the_sum_sets(seed):
    rng = random.Random(22600 + seed)
    seen = {"UAP": 0, "lengths": 0, "NOT-UAP lengths": 0}
    for _ in range(30):
        taps = tuple(sorted(rng.sample(range(-7, 10), rng.choice([1, 2, 2, 3, 3, 4]))))
        d = uapcheck.check("tokens n\nconvolution circular {" + ", ".join(map(str, taps)) + "}\n", "t.uap").to_dict()
        assert d["verdict"] in ("UAP", "NOT-UAP"), (taps, d["verdict"])
        seen[d["verdict"]] = seen.get(d["verdict"], 0) + 1
        for n in range(1, 61):
            stated, want = statement_at(d, n), truth(taps, n)
            assert stated[:2] == want[:2] and stated[2] in (None, want[2]), (taps, n, stated, want)
            seen["lengths"] += 1
            seen["NOT-UAP lengths"] += want[0] == "NOT-UAP"
        for n in rng.sample(range(1, 61), 5):
            c = uapcheck.check(f"tokens {n}\nconvolution circular {{" + ", ".join(map(str, taps)) + "}\n", "t.uap")
            got = c.to_dict()
            want = truth(taps, n)
            assert (got["verdict"], got["layers"] if want[0] == "UAP" else None) == want[:2], (taps, n, got["verdict"])
            if want[0] == "UAP":
                assert got["group"]["order"] == want[2], (taps, n, got["group"])
    assert seen["UAP"] >= 20 and seen["NOT-UAP lengths"] >= 100, seen
