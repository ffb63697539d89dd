"""The array forms that large patterns take in place of Python loops, each against the loop it replaces:

- `views._OutsidePossible` (the transposition probe's pairs flagged on arrays) against `views._transposition_bad`:
  a pair is flagged exactly when some position it changes, other than a and b, lies outside the possible set; and
  the probe of several heads with a possible set finds the same witness, with the same units spent, either way.
"""
from __future__ import annotations

import numpy as np
import pytest

from uapcheck.graphs import views
from uapcheck.graphs.views import Neighbourhoods, _candidate_pairs, _OutsidePossible, _transposition_bad

from .test_views import _spec


def _heads(patterns, n: int):
    from uapcheck.graphs import build_graph
    return [build_graph(h.pattern, n, {}) for h in _spec(patterns, n).heads]


@pytest.mark.parametrize("patterns,n", [(["window(1) + random(2, seed=1)", "window(1) + random(2, seed=2)"], 60),
                                        (["window(1)", "random(1, seed=3)"], 50),
                                        (["window(2) + global(1)", "random(2, seed=0)"], 40)])
def test_pairs_flagged_on_arrays_change_a_position_outside(patterns, n):
    nb = Neighbourhoods(_heads(patterns, n))
    rng = np.random.default_rng(n)
    for share in (0.2, 0.6, 0.95):
        possible = rng.random(n) < share
        test = _OutsidePossible(nb, possible)
        pairs = list(_candidate_pairs(nb))
        ends = np.array(pairs, dtype=np.int64)
        flags = test.flags(ends[:, 0], ends[:, 1]).tolist()
        for (a, b), flag in zip(pairs, flags):
            bad = _transposition_bad(nb, a, b) or set()
            assert flag == any(not possible[v] for v in bad - {a, b}), (a, b)


@pytest.mark.parametrize("patterns,n", [(["window(1) + random(2, seed=1)", "window(1) + random(2, seed=2)"], 300),
                                        (["window(1)", "random(1, seed=3)"], 200)])
def test_probe_with_flags_finds_the_same_witness_within_the_same_units(patterns, n, monkeypatch):
    graphs = _heads(patterns, n)
    monkeypatch.setattr(views, "BALL_MASKS_MAX_N", 0)  # the probe of large n: no ball masks
    real_flags, real_blind = views._with_outside_flags, views._blind
    searches = [0]

    def counted(nb, bad, radius, work=None):
        searches[0] += 1
        return real_blind(nb, bad, radius, work)
    monkeypatch.setattr(views, "_blind", counted)
    rng = np.random.default_rng(3)
    met = 0
    for share in (0.3, 0.9, 1.0):
        possible = rng.random(n) < share
        for work in (500, 5_000, 50_000, 10 ** 7):  # budgets ending the probe at different pairs
            got = []
            for flags in (lambda pairs, test: (pairs, None), real_flags):
                monkeypatch.setattr(views, "_with_outside_flags", flags)
                searches[0] = 0
                found = views.probe_transpositions(Neighbourhoods(graphs), 3, lambda perm: False, work, possible)
                got.append((None if found is None else (found.position, found.permutation), searches[0]))
            assert got[0] == got[1], (share, work)
            met += got[0][0] is not None
    assert met  # some probe found a witness
