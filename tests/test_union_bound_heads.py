"""Several heads whose union is a family theorem that only bounds D (Theorem F101: `window(w) cyclic` with non-cyclic
offsets outside it, D ≤ ⌊n/2⌋/w, where Theorem F168's base check is beyond its budget): the engine stated that bound
as the diameter itself (PAT-CONNECTED "directed diameter ⌊n/2⌋", PAT-LAYERS "D = ⌊n/2⌋ layers are necessary"), false
at n = 40 where D is 7. It now states the bound, and D + 1 layers not least, as for one head; the verifier checks it
from the union's own F101 entry. Where F168 applies (`window(1) cyclic` | `window(1) + dilated(2, 2)`) the union's D
is stated exactly, ⌊n/8⌋ + h(n mod 8). And the verifier's Theorem F70 check compares the layer count with the union's
D on every residue class (blocks(4) | window(1) + dilated(2, 2): D = ⌊n/4⌋ if n mod 4 = 0, else ⌊n/4⌋ + 1 was REJECTED
as "not the union's D" once the union matched)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import sympy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import heads_certificate  # noqa: E402
from graphs.reference import all_distances  # noqa: E402 - tests/graphs

import uapcheck  # noqa: E402
from uapcheck.render.jsonout import dumps, result_json  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402
from uapcheck.verifier.head_layers import _same_for_every_n  # noqa: E402

CYCLE_DILATED = ("window(1) cyclic", "window(1) + dilated(2, 2)")
CYCLE_FAR = ("window(1) cyclic", "offsets {0, 17}")     # F168's N₀ = 5,490: only F101's bound
BLOCKS_DILATED = ("blocks(4)", "window(1) + dilated(2, 2)")
N = sympy.Symbol("n", integer=True, positive=True)


def _steps(heads, tokens="n") -> dict:
    text = f"tokens {tokens}\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n"
                                          for p in heads)
    report = json.loads(dumps(result_json(uapcheck.check(text, "t.uap"))))
    return {s["rule"]: s for s in report["steps"]}


def _diameter(n: int) -> int:
    """The union of `window(1) cyclic` and `window(1) + dilated(2, 2)` (j − i ∈ {±1 mod n, ±2, ±4}), by BFS."""
    def steps(u):
        out = {(u % n) + 1, ((u - 2) % n) + 1}
        out |= {v for v in (u - 2, u + 2, u - 4, u + 4) if 1 <= v <= n}
        return out
    dist = all_distances([(v, u) for u in range(1, n + 1) for v in steps(u)], n)
    return max(max(d.values()) for d in dist.values())


def test_a_union_theorem_that_bounds_d_is_stated_as_a_bound():
    steps = _steps(CYCLE_FAR)
    connected = steps["PAT-CONNECTED"]
    assert "at most ⌊n/2⌋" in connected["claim"]
    layers = steps["PAT-LAYERS"]
    assert "necessary" not in layers["claim"] and layers["evidence"]["least"] is False


def test_the_union_s_exact_diameter_is_stated_where_f168_applies():
    steps = _steps(CYCLE_DILATED)
    assert "directed diameter ⌊n/8⌋ + 3 if n mod 8 = 6, else ⌊n/8⌋ + 2" in steps["PAT-CONNECTED"]["claim"]
    assert steps["PAT-LAYERS"]["evidence"]["least"] is False
    assert all(_diameter(n) == n // 8 + (3 if n % 8 == 6 else 2) for n in range(25, 61))


def test_the_bound_is_not_the_diameter():
    assert [_diameter(n) for n in (25, 40, 41, 60)] == [5, 7, 7, 9]  # far below ⌊n/2⌋
    assert all(_diameter(n) <= n // 2 for n in range(25, 61))  # F101's bound holds
    for n in (40, 41):  # the concrete engine's count: D + 1 or D, never ⌊n/2⌋ + 1
        assert _steps(CYCLE_DILATED, n)["PAT-CONNECTED"]["evidence"].get("diameter", _diameter(n)) == _diameter(n)


def test_the_bound_certificate_is_verified():
    for heads in (CYCLE_FAR, CYCLE_DILATED):
        report = verify(heads_certificate(*heads))
        assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
        assert all("Theorem F101" in s.reason for s in report.steps if s.rule in ("PAT-CONNECTED", "PAT-LAYERS"))


def test_f70_compares_the_count_on_every_residue_class():
    report = verify(heads_certificate(*BLOCKS_DILATED))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert "Theorem F70" in next(s.reason for s in report.steps if s.rule == "PAT-LAYERS")


def test_equal_on_every_class():
    by_class = sympy.Piecewise((sympy.floor(N / 4), sympy.Eq(sympy.Mod(N, 4), 0)), (sympy.floor(N / 4) + 1, True))
    assert _same_for_every_n(by_class, sympy.ceiling(N / 4), N)
    assert not _same_for_every_n(by_class, sympy.floor(N / 4) + 1, N)
    assert not _same_for_every_n(by_class, sympy.ceiling(N / 3), N)
