"""A `full` head beside another head at a large n (issue 14, "Unbreakable"): the check of the automorphism group's
generators listed a complete head's n·(n − 1) arcs as a set of Python integers (`star` beside `full` at `tokens
8000` ran out of the 4 GiB memory limit, at `tokens 200000` too); every permutation keeps a complete graph, so a
complete head is not listed. The file now ends in seconds with the verdict it has at small n (UAP, G the stabiliser of
position 1; one layer, least, by Theorem F188, where the rooted views are too large to decide it: it was 2 layers,
sufficient)."""
from __future__ import annotations

import json

import pytest

from clirun import run

STAR_BESIDE_FULL = ("tokens {n}\nattention {{ kernel k(x, y) = exp(x . y)\n pattern star }}\n"
                    "attention {{ kernel k(x, y) = exp(x . y)\n pattern full }}\n")


@pytest.mark.parametrize("n", [8000, 200000])
def test_star_beside_full_at_a_large_n_ends_in_a_verdict_within_a_small_memory_limit(tmp_path, n):
    path = tmp_path / "star_full.uap"
    path.write_text(STAR_BESIDE_FULL.format(n=n))
    r = run("--format", "json", "--budget", "60", "--memory", "1G", "--no-cache", str(path))
    assert r.code == 0 and "Traceback" not in r.stderr, r.stderr
    found = json.loads(r.stdout)
    assert found["verdict"] == "UAP" and found["layers"] == 1, found["steps"][-1]["claim"]
    assert any("Theorem F188" in s["claim"] for s in found["steps"] if s["rule"] == "PAT-LAYERS")
    assert "stabilizer 1" in found["steps"][-1]["claim"]
    assert r.cpu < 30


def test_generators_check_skips_a_complete_head_and_still_checks_the_others():
    from uapcheck import spec as S
    from uapcheck.certificates import CertificateRejected, Generators
    from uapcheck.graphs.build import build_graph
    n = 3000
    star, full = (build_graph(p, n) for p in (S.Star(), S.Full()))
    assert full.complete
    swap_leaves = tuple([1, 3, 2] + list(range(4, n + 1)))
    Generators((star, full), (None, None), "none", (swap_leaves,), 2).check()
    moves_hub = tuple([2, 1] + list(range(3, n + 1)))
    with pytest.raises(CertificateRejected):
        Generators((star, full), (None, None), "none", (moves_hub,), 2).check()
