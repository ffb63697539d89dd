"""Every local clock is a share of the run's budget (issue 14, "Unbreakable"): a step's seconds are those at the
default `--budget` (60 s) and in proportion to `--budget` otherwise, so `--budget 5` ends each step sooner and
`--budget 300` lets each run five times longer (the family theorems' instance check had 20 s and their match 10 s
whatever `--budget` said, so a long budget still gave up on them)."""
from __future__ import annotations

import time

import pytest

from uapcheck import budget
from uapcheck.budget import BudgetExceeded, time_limit
from uapcheck.parse import parse_source
from uapcheck.rules import families


@pytest.fixture
def run_budget():
    """Set the run's budget (as the CLI's --budget does) and restore it after the test."""
    before = budget.file_seconds

    def set_seconds(seconds: float) -> None:
        budget.file_seconds = seconds
    yield set_seconds
    budget.file_seconds = before


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_local_clock_is_its_seconds_at_the_default_budget_and_a_share_otherwise(run_budget):
    assert budget.share(20.0) == 20.0
    for run_seconds, expected in ((300, 100.0), (5, 20.0 / 12), (60, 20.0)):
        run_budget(run_seconds)
        assert budget.share(20.0) == pytest.approx(expected)


def test_a_short_budget_ends_a_local_clock_sooner_and_names_its_share(run_budget):
    run_budget(3)  # 2 s at the default budget is 0.1 s here
    start = time.process_time()
    with pytest.raises(BudgetExceeded) as caught:
        with time_limit("a step", 2.0):
            _spin(1.5)
    assert time.process_time() - start < 1.0
    assert caught.value.seconds == pytest.approx(0.1)
    assert "CPU time budget of 0.1 s ran out in: a step" in str(caught.value)


def test_a_long_budget_lets_a_step_run_past_its_default_seconds(run_budget):
    run_budget(600)  # 0.1 s at the default budget is 1 s here
    with time_limit("a step", 0.1):
        _spin(0.4)


def test_the_family_theorems_instance_check_follows_the_budget(run_budget, monkeypatch):
    monkeypatch.setattr(families, "instance_check", lambda spec: (_spin(1.2), "checked")[1])
    spec = parse_source("tokens 8\nattention { kernel k(x, y) = exp(x . y)\n pattern window(1) }\n")
    run_budget(1.5)  # 20 s at the default budget is 0.5 s here: the check gives up
    assert families._instance_check_in_budget(spec) == "instance check not run (time budget)"
    run_budget(6)  # 2 s here: it runs
    assert families._instance_check_in_budget(spec) == "checked"
