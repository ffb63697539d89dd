"""The generators printed for S_g on the globals: with a symbolic g each carries the range where it is
one (at g = 1, (1 2) would move a non-global position); with an integer g they are automorphisms."""
import itertools
import json
import subprocess
import sys

import pytest

PROGRAM = """architecture "globals"
{params}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern {pattern}
}}
"""


def _group(tmp_path, params: str, pattern: str) -> dict:
    path = tmp_path / "g.uap"
    path.write_text(PROGRAM.format(params=params, pattern=pattern))
    out = subprocess.run([sys.executable, "-m", "uapcheck", "--format", "json", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["group"]


@pytest.mark.parametrize("pattern", ["window(w) cyclic + global(g)", "window(w) + global(g)", "global(g)"])
def test_a_symbolic_g_names_where_each_globals_generator_holds(tmp_path, pattern):
    group = _group(tmp_path, "param w integer >= 2\nparam g integer >= 1", pattern)
    on_globals = [t for t in group["generators"] if t.startswith("(1 2")]
    assert on_globals, group
    assert all(" if g ≥ " in t for t in on_globals), group


def _arcs(n: int, g: int, w: int) -> set:
    """window(w) + global(g) at n, straight from docs/language.md: i attends to j when |i − j| ≤ w or
    either is global (1-based)."""
    return {(i, j) for i, j in itertools.product(range(1, n + 1), repeat=2)
            if abs(i - j) <= w or i <= g or j <= g}


@pytest.mark.parametrize("g", [1, 2, 3])
def test_an_integer_g_gives_generators_that_keep_the_arcs(tmp_path, g):
    n, w = 12, 2
    group = _group(tmp_path, "", f"window({w}) + global({g})")
    for text in group["generators"]:
        if not text.startswith("(1"):
            continue
        if text == "(1 2)":
            perm = {1: 2, 2: 1}
        else:  # (1 2 … g)
            perm = {k: k % g + 1 for k in range(1, g + 1)}
        arcs = _arcs(n, g, w)
        moved = {(perm.get(i, i), perm.get(j, j)) for i, j in arcs}
        assert moved == arcs, (g, text)
    if g == 1:
        assert not any(t.startswith("(1 2") for t in group["generators"]), group
