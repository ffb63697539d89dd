"""Family theorems at a concrete n (docs/theory.md §11.11, rules/pattern.py): a proved least layer count
is never reported as only sufficient. Above 10,000 arcs a standard family inside its theorem's range is
decided by the theorem before any token graph; below, the theorem is the fallback when the rooted-view
search runs out."""
from __future__ import annotations

import pytest

from uapcheck.derive import check_spec
from uapcheck.graphs.views import ViewDecision
from uapcheck.parse import parse_source
from uapcheck.rules import pattern as P


def _layers(src: str):
    result = check_spec(parse_source(src, "family.uap"), 120)
    (step,) = {s for s in result.root.walk() if s.rule == "PAT-LAYERS"}
    return result, step


def _file(n: int, pattern: str) -> str:
    return f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern {pattern} }}"


def test_global_2_at_5000_takes_theorem_f1_two_layers_least():
    """Once 3 layers "sufficient" (BLISS on rooted views with a group S_4997 ran out of time)."""
    result, step = _layers(_file(5000, "global(2)"))
    assert result.verdict == "UAP"
    assert step.facts == {"diameter": 2, "layers": 2, "least": True}
    assert "Theorem F1" in step.evidence["method"]


@pytest.fixture
def views_run_out(monkeypatch):
    monkeypatch.setattr(P, "decide_views", lambda *a, **k: ViewDecision(None, reason="a resource ran out (test)"))


def test_the_family_theorem_is_the_fallback_when_the_view_search_runs_out(views_run_out):
    # window(2) + global(1) at n = 20: about 120 arcs, so the token graph runs first; its search "runs out"
    result, step = _layers(_file(20, "window(2) + global(1)"))
    assert step.facts == {"diameter": 2, "layers": 3, "least": True}
    assert "Theorem F2" in step.evidence["method"]
    assert step.evidence["view witness"]["swap"] == [2, 3]


def test_outside_the_theorem_range_the_count_stays_sufficient_only(views_run_out):
    # F2 holds for n ≥ g + 2w + 3 = 8; at n = 7 no theorem applies
    result, step = _layers(_file(7, "window(2) + global(1)"))
    assert step.facts == {"diameter": 2, "layers": 3, "least": False}


def test_small_families_keep_the_token_graph_route():
    result, step = _layers(_file(20, "window(2) + global(1)"))
    assert step.facts == {"diameter": 2, "layers": 3, "least": True}
    assert "Theorem F2" not in step.evidence["method"]
