"""bench/audit_sizes.py's options: `--budget` is the checker's own budget, passed to `uapcheck --budget`, and
`--timeout` the wall-clock time after which the audit kills a run (by default the budget + a margin)."""
import json
from pathlib import Path

from repo_scripts import load_script  # tests/ is on sys.path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _audit():
    return load_script("bench/audit_sizes.py", "audit_sizes")


def test_budget_and_timeout_are_distinct_options():
    audit = _audit()
    args = audit.parse_args(["--budget", "7.5", "--timeout", "100"])
    assert (args.budget, args.timeout) == (7.5, 100.0)
    args = audit.parse_args(["--budget", "5"])
    assert (args.budget, args.timeout) == (5.0, 5.0 + audit.TIMEOUT_MARGIN)
    args = audit.parse_args([])
    assert (args.budget, args.timeout) == (audit.DEFAULT_BUDGET, audit.DEFAULT_BUDGET + audit.TIMEOUT_MARGIN)


@pytest.mark.parametrize("bad", ["0", "-3", "soon", "inf", "nan"])
def test_a_budget_must_be_a_positive_number_of_seconds(bad, capsys):
    audit = _audit()
    with pytest.raises(SystemExit) as exc:
        audit.parse_args(["--budget", bad])
    assert exc.value.code == 2
    assert "--budget" in capsys.readouterr().err


def test_each_run_gets_the_budget_and_is_killed_after_the_timeout(monkeypatch, capsys):
    audit = _audit()
    calls = []
    report = {"verdict": "UAP", "layers": 2, "group": {"name": "trivial"},
              "steps": [{"rule": "PAT-LAYERS", "status": "proved", "evidence": {"least": True}}]}

    def fake_timed(cmd, timeout):
        calls.append((cmd, timeout))
        return (1.0, 1.0, "") if cmd == audit.B_CMD else (0.5, 0.5, json.dumps(report))

    monkeypatch.setattr(audit, "_timed", fake_timed)
    assert audit.main(["--pattern", "window(1)|star", "--sizes", "64,128", "--budget", "12", "--timeout", "40"]) == 0
    runs = [(cmd, timeout) for cmd, timeout in calls if cmd != audit.B_CMD]
    assert len(runs) == 2  # one pattern (two heads) at two sizes
    for cmd, timeout in runs:
        assert cmd[cmd.index("--budget") + 1] == "12"
        assert timeout == 40.0
    out = capsys.readouterr().out
    assert "budget 12 s a run, killed after 40 s" in out
    assert "ok window(1) | star @ 64" in out and "0 flagged" in out


def test_the_checker_accepts_the_budget_the_audit_passes(tmp_path):
    import subprocess
    audit = _audit()
    path = tmp_path / "case.uap"
    path.write_text(audit._source(16, ["window(1)"]), "utf-8")
    proc = subprocess.run(audit.check_command(str(path), 2.5), capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert audit._decided(proc.stdout)[0] == "UAP"
