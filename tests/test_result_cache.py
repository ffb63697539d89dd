"""The result cache (uapcheck/result_cache.py): a hit prints exactly what a fresh check prints, and
anything the report depends on (the file, an option, uapcheck's source) misses. Each test has its own
cache directory (tests/conftest.py `private_cache_dir`)."""
from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from uapcheck import result_cache

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "catalog"
FILES = [str(CATALOG / n) for n in ("softmax.uap", "longformer_16.uap", "rbf.uap")]
TAMPERED = "TAMPERED REPORT\n"


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    e = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR", "NO_COLOR", "TERM")}
    e.update(PYTHONIOENCODING="utf-8", NO_COLOR="1", TERM="dumb", **(env or {}))
    return subprocess.run([sys.executable, "-m", "uapcheck", *args], capture_output=True, text=True, cwd=ROOT,
                          env=e, timeout=600)


def _main(*args: str) -> tuple[int, str]:
    """uapcheck in this process (UAPCHECK_IN_PROCESS=1; the engines may be monkeypatched): exit code and
    standard output."""
    from uapcheck.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(args))
    return code, out.getvalue()


@pytest.fixture
def in_process(monkeypatch):
    monkeypatch.setenv("UAPCHECK_IN_PROCESS", "1")
    for name in ("COLUMNS", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")


def _out(*args: str) -> str:
    return _main(*args)[1]


def _entries(cache: Path) -> list[Path]:
    folder = cache / result_cache.SUBDIRECTORY
    return sorted(folder.glob(f"*{result_cache.SUFFIX}")) if folder.is_dir() else []


def _tamper(cache: Path) -> int:
    """Replace every stored report by TAMPERED (a well-formed entry): a run that prints it read the cache."""
    entries = _entries(cache)
    for path in entries:
        entry = json.loads(path.read_text("utf-8"))
        entry["stdout"] = TAMPERED
        path.write_text(json.dumps(entry), "utf-8")
    return len(entries)


@pytest.mark.parametrize("fmt", [["--format", "json"], ["--color", "never"], ["--format", "markdown"]])
def test_a_hit_prints_byte_for_byte_what_a_fresh_check_prints(fmt, private_cache_dir):
    cold = _cli(*fmt, "--no-cache", *FILES)
    filling = _cli(*fmt, *FILES)
    assert len(_entries(private_cache_dir)) == len(FILES)
    warm = _cli(*fmt, *FILES)
    assert cold.returncode == filling.returncode == warm.returncode == 0
    assert cold.stdout == filling.stdout == warm.stdout and cold.stderr == filling.stderr == warm.stderr


def test_a_run_of_hits_only_imports_no_engine(private_cache_dir):
    probe = ("import contextlib, io, sys\nfrom uapcheck.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n    code = main(sys.argv[1:])\n"
             "print(code, sorted(m for m in ('sympy', 'lark', 'igraph') if m in sys.modules))")
    env = {**os.environ, "UAPCHECK_IN_PROCESS": "1"}
    runs = [subprocess.run([sys.executable, "-c", probe, "--format", "json", *FILES], capture_output=True, text=True,
                           cwd=ROOT, env=env, timeout=600).stdout.split("\n")[-2] for _ in range(2)]
    assert runs[0] == "0 ['igraph', 'lark', 'sympy']"
    assert runs[1] == "0 []"


def test_the_summary_of_several_files_is_the_same_from_the_cache(private_cache_dir, in_process):
    files = [*FILES, str(CATALOG / "bias_free.uap")]  # a NOT-UAP file among them
    cold = _main("--color", "never", "--short", "--no-cache", *files)
    _main("--color", "never", "--short", *files)
    assert len(_entries(private_cache_dir)) == len(files)
    assert _main("--color", "never", "--short", *files) == cold


def test_a_changed_file_misses(tmp_path, private_cache_dir, in_process):
    path = tmp_path / "k.uap"
    path.write_bytes((CATALOG / "softmax.uap").read_bytes())
    _out("--format", "json", str(path))
    assert _tamper(private_cache_dir) == 1
    assert _out("--format", "json", str(path)) == TAMPERED  # the same bytes: a hit
    path.write_bytes(path.read_bytes() + b"\n# an edit\n")
    changed = _out("--format", "json", str(path))
    assert changed != TAMPERED and json.loads(changed)["verdict"] == "UAP"
    assert changed == _out("--format", "json", "--no-cache", str(path))
    # the same bytes under another path: the report shows the path, so it is another key
    other = tmp_path / "other.uap"
    other.write_bytes(path.read_bytes())
    assert json.loads(_out("--format", "json", str(other)))["file"] == str(other)


@pytest.mark.parametrize("options", [["--format", "markdown"], ["--no-suggest"], ["--full"], ["--short"],
                                     ["--budget", "59"], ["--memory", "3G"], ["--color", "always"]])
def test_an_option_that_changes_the_report_misses(options, private_cache_dir, in_process):
    bias_free = str(CATALOG / "bias_free.uap")  # NOT-UAP: the text panel shows a suggestion
    _out("--color", "never", bias_free)
    assert _tamper(private_cache_dir) == 1
    assert _out("--color", "never", bias_free) == TAMPERED
    base = ["--color", "never"] if "--color" not in options else []
    got = _out(*base, *options, bias_free)
    assert got != TAMPERED
    assert got == _out(*base, *options, "--no-cache", bias_free)


def test_the_console_width_is_part_of_the_key(monkeypatch, private_cache_dir, in_process):
    monkeypatch.setenv("COLUMNS", "60")
    narrow = _out("--color", "never", FILES[1])
    monkeypatch.setenv("COLUMNS", "140")
    wide = _out("--color", "never", FILES[1])
    assert narrow != wide
    assert wide == _out("--color", "never", "--no-cache", FILES[1])
    monkeypatch.setenv("COLUMNS", "60")
    assert narrow == _out("--color", "never", FILES[1])


def test_another_source_hash_misses(monkeypatch, private_cache_dir, in_process):
    code, fresh = _main("--format", "json", FILES[0])
    assert code == 0 and _tamper(private_cache_dir) == 1
    assert _out("--format", "json", FILES[0]) == TAMPERED
    monkeypatch.setattr(result_cache, "source_hash", lambda roots=None: "0" * 64)
    assert _out("--format", "json", FILES[0]) == fresh


def test_the_source_hash_covers_every_file_and_byte_of_the_source(tmp_path):
    roots = result_cache.source_roots()
    names = {p.name for root in roots for p in result_cache._tree_files(root)}
    assert {"uap.lark", "derive.py", "result_cache.py", "families.py"} <= names
    assert not any(n.endswith(".pyc") for n in names)
    tree = tmp_path / "tree"
    shutil.copytree(roots[0] / "rules", tree, ignore=shutil.ignore_patterns("__pycache__"))
    before = result_cache.source_hash([tree])
    assert result_cache.source_hash([tree]) == before
    target = tree / "limit.py"
    target.write_bytes(target.read_bytes().replace(b"def ", b"def  ", 1))
    edited = result_cache.source_hash([tree])
    (tree / "new_rule.py").write_text("")
    assert len({before, edited, result_cache.source_hash([tree])}) == 3
    (tree / "__pycache__").mkdir()
    (tree / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"compiled")
    assert result_cache.source_hash([tree]) == result_cache.source_hash([tree])


def test_the_key_holds_the_environment_and_the_version():
    env = result_cache.environment()
    assert env[0] == sys.version
    assert any("sympy-" in part and ".dist-info" in part for part in env[1:])


def test_a_corrupt_or_foreign_entry_is_recomputed(private_cache_dir, in_process):
    fresh = _out("--format", "json", FILES[0])
    (entry,) = _entries(private_cache_dir)
    good = entry.read_text("utf-8")
    corruptions = ["", "not json {", json.dumps({**json.loads(good), "key": "0" * 64}),
                   json.dumps({**json.loads(good), "code": 3}), json.dumps({**json.loads(good), "stdout": None}),
                   json.dumps({**json.loads(good), "summary": None}),
                   json.dumps({**json.loads(good), "schema": "uapcheck-result-cache/0"}), good[: len(good) // 2]]
    for bad in [c.encode("utf-8") for c in corruptions] + [b"\xff\xfe not utf-8"]:
        entry.write_bytes(bad)
        code, got = _main("--format", "json", FILES[0])
        assert code == 0 and got == fresh, bad[:40]
        assert json.loads(entry.read_text("utf-8"))["stdout"] == fresh  # stored again, whole
    entry.unlink()
    entry.mkdir()  # an entry that cannot be read as a file
    assert _main("--format", "json", FILES[0]) == (0, fresh)


def test_an_unwritable_or_unusable_cache_directory_still_checks(tmp_path, monkeypatch):
    fresh = _cli("--format", "json", "--no-cache", *FILES).stdout
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    got = _cli("--format", "json", *FILES, env={"UAPCHECK_CACHE_DIR": str(blocker / "cache")})
    assert got.returncode == 0 and got.stderr == "" and got.stdout == fresh
    results = tmp_path / "cache" / result_cache.SUBDIRECTORY
    results.parent.mkdir(mode=0o700)
    results.write_text("a file where the entries' directory goes")
    for where in (blocker, results.parent):
        monkeypatch.setenv("UAPCHECK_CACHE_DIR", str(where))
        monkeypatch.setenv("UAPCHECK_IN_PROCESS", "1")
        from uapcheck.cli import main
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            assert main(["--format", "json", *FILES]) == 0
        assert out.getvalue() == fresh and err.getvalue() == ""


def test_a_shared_directory_is_neither_read_nor_written(tmp_path):
    shared = tmp_path / "shared"
    (shared / result_cache.SUBDIRECTORY).mkdir(parents=True)
    (shared / result_cache.SUBDIRECTORY).chmod(0o777)
    got = _cli("--format", "json", FILES[0], env={"UAPCHECK_CACHE_DIR": str(shared)})
    assert got.returncode == 0 and _entries(shared) == []
    # an entry planted there by someone else is not read
    cache = result_cache.ResultCache(shared / result_cache.SUBDIRECTORY, {})
    assert cache.readable is False and cache.load("0" * 64) is None


def test_no_cache_neither_reads_nor_writes(private_cache_dir, in_process):
    _out("--format", "json", "--no-cache", FILES[0])
    assert _entries(private_cache_dir) == []
    _out("--format", "json", FILES[0])
    _tamper(private_cache_dir)
    assert _out("--format", "json", "--no-cache", FILES[0]) != TAMPERED


def test_an_empty_cache_setting_turns_the_result_cache_off(tmp_path):
    got = _cli("--format", "json", FILES[0], env={"UAPCHECK_CACHE_DIR": "", "XDG_CACHE_HOME": str(tmp_path),
                                                 "HOME": str(tmp_path)})
    assert got.returncode == 0 and list(tmp_path.iterdir()) == []


def test_a_certificate_bypasses_the_cache(tmp_path, private_cache_dir, in_process):
    cert = tmp_path / "c.json"
    _out("--format", "json", "--certificate", str(cert), FILES[0])
    assert cert.exists() and _entries(private_cache_dir) == []
    _out("--format", "json", FILES[0])
    _tamper(private_cache_dir)
    cert.unlink()
    again = _out("--format", "json", "--certificate", str(cert), FILES[0])
    assert again != TAMPERED and cert.exists()  # derived again, and the certificate written
    assert result_cache.bypassed(SimpleNamespace(no_cache=False, plot="x.svg", certificate=None, simulate=False))
    assert result_cache.bypassed(SimpleNamespace(no_cache=False, plot=None, certificate=None, simulate=True))


def test_a_report_shaped_by_a_budget_is_not_kept(monkeypatch, private_cache_dir, in_process):
    from uapcheck.budget import BudgetExceeded
    from uapcheck.rules import limit

    real = limit.limit_premise

    def runs_out(*args, **kwargs):
        raise BudgetExceeded("the kernel limit", 0.5)
    monkeypatch.setattr(limit, "limit_premise", runs_out)
    code, out = _main("--format", "json", FILES[2])
    assert code in (0, 1) and json.loads(out)["verdict"]
    assert _entries(private_cache_dir) == []  # a step that ran out of its budget: not kept
    monkeypatch.setattr(limit, "limit_premise", real)


def test_an_internal_error_is_not_kept(monkeypatch, private_cache_dir, in_process):
    from uapcheck import derive

    def broken(spec):
        raise RuntimeError("an engine bug")
    monkeypatch.setattr(derive, "_check_spec", broken)
    code, _ = _main("--format", "json", FILES[0])
    assert code == 3 and _entries(private_cache_dir) == []


def test_input_errors_are_reported_afresh(tmp_path, private_cache_dir, in_process):
    bad = tmp_path / "bad.uap"
    bad.write_text("attention {\n")
    first, second = _main("--format", "json", str(bad)), _main("--format", "json", str(bad))
    assert first[0] == second[0] == 2 and first == second
    assert _entries(private_cache_dir) == []


def test_concurrent_runs_share_one_cache_safely(private_cache_dir):
    files = [*FILES, *(str(CATALOG / n) for n in ("cauchy.uap", "blocks.uap", "star.uap"))]
    fresh = _cli("--format", "json", "--no-cache", "-j", "2", *files).stdout
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "NO_COLOR")}
    procs = [subprocess.Popen([sys.executable, "-m", "uapcheck", "--format", "json", "-j", "2", *files],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
             for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(out == (fresh, "") for out in outs)
    assert len(_entries(private_cache_dir)) == len(files)
    assert not list((private_cache_dir / result_cache.SUBDIRECTORY).glob(".tmp-*"))  # no half-written entry left
    assert _cli("--format", "json", "-j", "2", *files).stdout == fresh


def test_old_entries_are_pruned(tmp_path):
    cache = result_cache.ResultCache(tmp_path / "results", {"test": 1})
    from uapcheck.worker import Outcome
    summary = SimpleNamespace(verdict="UAP", expect_holds=None, expect_reason="")
    keys = [cache.key(f"f{i}.uap", b"x") for i in range(6)]
    for i, key in enumerate(keys):
        assert cache.store(key, Outcome(f"report {i}\n", "", 0, summary, cacheable=True))
        os.utime(cache._path(key), ns=(10**18 + i, 10**18 + i))
    cache = result_cache.ResultCache(tmp_path / "results", {"test": 1})
    cache.prune(keep=4)
    assert [cache.load(k) is not None for k in keys] == [False, False, True, True, True, True]
    assert cache.load(keys[5]).stdout == "report 5\n"
