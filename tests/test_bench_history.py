"""bench/run.py keeps the history section of the results file as the file has it: paragraphs added there by hand
survive a re-measurement (they used to be replaced by the script's own text)."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bench_run():
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
