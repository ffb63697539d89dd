"""Reports byte-identical under every PYTHONHASHSEED (issue 14's fuzzing): the non-analytic operations a kernel's
analyticity step lists were read in the order a Min's arguments were built, which depended on the hash seed
(`min(max(1/2, (x . y)^2), |x - y|)`: "power …" before "Max: …" under one seed, after it under another). They are
now read in SymPy's sort order (rules/analytic.py, `_non_analytic_nodes`). Found by a nightly-style campaign."""
from __future__ import annotations

from clirun import env, run

SOURCE = "attention {\n kernel k(x, y) = min(max(1/2, (x . y)^2), |x - y|)\n}\n"


def test_the_analyticity_evidence_is_the_same_under_every_hash_seed(tmp_path):
    path = tmp_path / "minmax.uap"
    path.write_text(SOURCE, "utf-8")
    outs = set()
    for seed in ("0", "1", "2", "3", "12345"):
        r = run("--format", "json", "--no-cache", str(path), environ=env(PYTHONHASHSEED=seed))
        assert r.code in (0, 1) and "Traceback" not in r.stderr, r.stderr
        assert "non-analytic operations" in r.stdout
        outs.add(r.stdout)
    assert len(outs) == 1
