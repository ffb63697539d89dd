"""The graph engines' search loops stop on the process's CPU time, never on wall-clock time, so a
verdict does not depend on how loaded the machine is (the budget is CPU time, uapcheck/budget.py)."""
from __future__ import annotations

import types

import pytest

from uapcheck.graphs import build_graph
from uapcheck.graphs import connectivity, views
from uapcheck.spec import Window


class Clock:
    """A stand-in for the time module: each wall-clock reading runs `wall_step` seconds ahead, each
    CPU-time reading `cpu_step` seconds."""

    def __init__(self, wall_step: float, cpu_step: float):
        self.wall = self.cpu = 0.0
        self.wall_step, self.cpu_step = wall_step, cpu_step

    def monotonic(self) -> float:
        self.wall += self.wall_step
        return self.wall

    def process_time(self) -> float:
        self.cpu += self.cpu_step
        return self.cpu


def _fake(monkeypatch, module, clock: Clock):
    fake = types.SimpleNamespace(monotonic=clock.monotonic, perf_counter=clock.monotonic, time=clock.monotonic,
                                 process_time=clock.process_time)
    monkeypatch.setattr(module, "time", fake, raising=False)  # a module that reads no clock has none


def _path(n: int):
    return [build_graph(Window(1), n)]


def test_the_diameter_probe_loop_ignores_wall_clock_time(monkeypatch):
    # an hour of wall-clock time per reading, no CPU time: the exact diameter is still decided
    _fake(monkeypatch, connectivity, Clock(wall_step=3600.0, cpu_step=0.0))
    conn = connectivity.analyze_connectivity(_path(300))
    assert conn.diameter == 299


def test_the_diameter_probe_loop_reads_no_cpu_clock(monkeypatch):
    # a minute of CPU time per reading: the work bound, not the clock, decides, so the diameter is still exact
    _fake(monkeypatch, connectivity, Clock(wall_step=0.0, cpu_step=60.0))
    conn = connectivity.analyze_connectivity(_path(300))
    assert conn.diameter == 299


def test_the_diameter_probe_loop_stops_on_its_work_bound():
    # no work at all: the loop stops after its first probe with bounds (never a guessed diameter), naming the bound
    conn = connectivity.analyze_connectivity(_path(300), work_budget=0)
    assert conn.diameter is None and conn.lower <= 299 <= conn.upper and "reads of positions and arcs" in conn.reason



@pytest.mark.parametrize("clock", [Clock(wall_step=3600.0, cpu_step=0.0), Clock(wall_step=0.0, cpu_step=60.0)])
def test_the_transposition_probe_reads_no_clock(monkeypatch, clock):
    # a work bound, not CPU seconds: an hour of wall-clock time or a minute of CPU per reading changes nothing
    graphs = [build_graph(Window(1), 12)]
    nb = views.Neighbourhoods(graphs)
    monkeypatch.setattr(views, "time", types.SimpleNamespace(process_time=clock.process_time,
                                                             monotonic=clock.monotonic), raising=False)
    found = views.probe_transpositions(nb, 2, lambda perm: False)
    assert found is not None and found.how == "transposition probe"


def test_the_transposition_probe_stops_on_its_work_bound():
    graphs = [build_graph(Window(1), 12)]
    nb = views.Neighbourhoods(graphs)
    assert views.probe_transpositions(nb, 2, lambda perm: False, work=0) is None
    # the first pair's cost (its out-degrees and the loop's steps) is within PAIR_STEPS + 2n of arcs
    assert views.probe_transpositions(nb, 2, lambda perm: False, work=views.PAIR_STEPS + 24 * 12) is not None
