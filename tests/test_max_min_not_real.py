"""max and min whose argument SymPy shows not real, or infinite once an invariant is set to 0 (found by
scripts/sweep_kernel_limits.py): SymPy's Max/Min refuse such arguments with a ValueError, which stopped the derivation
with an internal error (exit 3). A kernel built on one is now out of the engines' scope or not shown radial, positive
at a zero key, or odd: INCONCLUSIVE, with its certificate verified."""
from __future__ import annotations

import json

import pytest

from tests.clirun import run

CASES = [
    # TD-RADIAL's profile g(|x − z|²) reads the kernel at x·z = |z|² = 0: max(…, |x − z|/(x·z)) is ∞ there
    ("param tau real", "kernel k(x, y) = exp(max((max(2, |x - y|)) * ((|x - y|) / (x . y)), sigmoid(-(x . y))))"),
    ("param tau >= 0", "kernel k(x, y) = max(min(min(|x - y|, |x|), 2), sqrt(log(x . y)))"),
    ("param tau >= 0", "kernel k(x, y) = exp(max(min(1, (1) * (1)), -((|y|) / (x . y))))"),
    # the lowering: min of an imaginary constant (tau > 0)
    ("param tau > 0", "kernel k(x, y) = min(|y|, sqrt(-(tau)))"),
    # TD-LINFORMER's k(q, 0) > 0
    ("", "kernel k(x, y) = exp(max(1, 1/(x . y))); project keys values to 4"),
    # TD-WITNESS's odd scores: α(0) inside a max
    ("", "score s(x, y) = max(1, 1/(x . y))"),
    ("", "score s(x, y) = max(x . y, 1/(x . y))"),
]


@pytest.mark.parametrize("param, head", CASES)
def test_max_min_of_a_value_not_real_is_inconclusive_not_an_internal_error(tmp_path, param, head):
    src = tmp_path / "k.uap"
    src.write_text(f"tokens n\n{param}\nattention {{ {head} }}\n")
    cert = tmp_path / "k.json"
    proc = run(str(src), "--format", "json", "--no-cache", "--no-suggest", "--certificate", str(cert))
    assert proc.code == 0, proc.stderr
    assert json.loads(proc.stdout)["verdict"] == "INCONCLUSIVE"
    checked = run("verify", str(cert))
    assert checked.code == 0, checked.stdout + checked.stderr


def test_a_max_of_real_values_still_lowers():
    from uapcheck import check
    result = check("tokens n\nattention { kernel k(x, y) = exp(max(x . y, 2 * (x . y))) }\n")
    assert result.verdict in ("UAP", "INCONCLUSIVE")
    assert not [s for s in result.root.walk() if s.rule == "LIM-UNSUPPORTED" and "not real" in s.claim]
