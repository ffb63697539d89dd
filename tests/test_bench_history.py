"""bench/run.py keeps the history section of the results file as the file has it: paragraphs added there by hand
survive a re-measurement (they used to be replaced by the script's own text)."""
from pathlib import Path

from repo_scripts import load_script  # tests/ is on sys.path

ROOT = Path(__file__).resolve().parents[1]


def _bench_run():
    return load_script("bench/run.py", "bench_run")


def test_history_is_read_from_the_results_file(tmp_path):
    run = _bench_run()
    out = tmp_path / "RESULTS.md"
    out.write_text(f"# x\n\n{run.HISTORY_HEADING}\n\nA paragraph written by hand.\n\nAnother.\n\n## Next\n", "utf-8")
    assert run._history(out) == "A paragraph written by hand.\n\nAnother."


def test_history_falls_back_to_the_script_text(tmp_path):
    run = _bench_run()
    assert run._history(tmp_path / "missing.md") == run.HISTORY
    other = tmp_path / "other.md"
    other.write_text("# x\n\n## Something else\n", "utf-8")
    assert run._history(other) == run.HISTORY


def test_the_committed_history_keeps_its_hand_written_paragraphs():
    run = _bench_run()
    kept = run._history(ROOT / "bench" / "RESULTS.md")
    assert len(kept) > len(run.HISTORY)



def _partial_run(run, monkeypatch, out, startup_only: bool, cpu: float) -> str:
    """`catalog_only` with the measurements stubbed (every case `cpu` s, B 0.5 s, one file in the per-file table)."""
    import argparse
    monkeypatch.setattr(run, "cases", lambda: [("`uapcheck --version`", ["v"], 0.2),
                                               ("catalog, one process, JSON (1 files)", ["c"], 4.0)])
    monkeypatch.setattr(run, "measure", lambda cmd, repeat: {"cpu": cpu, "wall": cpu, "cpu_ratio": 0.1,
                                                             "wall_ratio": 0.1, "b_cpu": 0.5, "b_wall": 0.5})
    monkeypatch.setattr(run, "per_file_times", lambda: {"catalog/a.uap": 1.0})
    run.catalog_only(argparse.Namespace(out=str(out), repeat=1, startup_only=startup_only))
    return out.read_text("utf-8")


def test_startup_only_replaces_the_start_up_rows_and_keeps_the_catalog_rows_and_notes(tmp_path, monkeypatch):
    run = _bench_run()
    out = tmp_path / "RESULTS.md"
    out.write_text("# x\n\n| case | a |\n|---|---|\n| `uapcheck --version` | old |\n"
                   "| catalog, one process, JSON (1 files) | old |\n\nB itself: 0.3 s.\n\n"
                   "The catalog rows and the table below: old note.\n\n"
                   "Where the catalog's time goes: old\n\n| file |\n|---|\n| old |\n\n## Next\n", "utf-8")
    text = _partial_run(run, monkeypatch, out, startup_only=False, cpu=1.0)
    assert "old note" not in text and "| catalog, one process, JSON (1 files) | 1.000 |" in text
    assert "| `uapcheck --version` | old |" in text and "catalog/a.uap" in text
    text = _partial_run(run, monkeypatch, out, startup_only=True, cpu=3.0)
    assert "| `uapcheck --version` | 3.000 |" in text and "| catalog, one process, JSON (1 files) | 1.000 |" in text
    assert text.count(run.STARTUP_NOTE) == 1 and text.count("The catalog rows and the table below:") == 1
    assert text.index("B itself:") < text.index(run.STARTUP_NOTE) < text.index("The catalog rows and the table below")
    assert "catalog/a.uap" in text  # the per-file table stays the catalog run's
    text = _partial_run(run, monkeypatch, out, startup_only=False, cpu=2.0)  # a catalog run keeps the start-up note
    assert text.count(run.STARTUP_NOTE) == 1 and text.count("The catalog rows and the table below:") == 1
    assert "| `uapcheck --version` | 3.000 |" in text and "| catalog, one process, JSON (1 files) | 2.000 |" in text


def test_a_row_is_keyed_by_its_name_without_its_file_count_alone():
    run = _bench_run()
    assert run._row_name("catalog, one process, JSON (207 files)") == "catalog, one process, JSON"
    assert run._row_name("dense check, JSON (`softmax.uap`)") != run._row_name("dense check, JSON (`rbf.uap`)")
