"""The catalog's `uapcheck --format json` output is byte-identical to its committed golden copies.

A refactoring must not change what uapcheck prints; this test is how a move shows it did not. The
golden copies (tests/golden/catalog_json/NAME.json) change only with a reviewed change of behaviour:
regenerate them with `python scripts/make_catalog_json.py` and commit the diff with the change.

The JSON reports are made by one run of the command line over the whole catalog in one process, which also prints
each file's report as text with the panel's suggestion search and records what SymPy modules the run loaded: the
start-up test of that run (neither sympy.physics nor sympy.tensor.tensor is imported) reads the same run, so the
suite derives the catalog for both once, not twice.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from repo_scripts import load_script  # tests/ is on sys.path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "make_catalog_json.py"


def _load_script():
    return load_script("scripts/make_catalog_json.py", "make_catalog_json")


mk = _load_script()
FILES = mk.catalog_files()


#: `uapcheck --color never catalog/*.uap` in one process, each file's report also rendered as `--format json` renders
#: it, inside the CLI's per-file job (the JSON line is the string the CLI prints for the file with `--format json`).
CATALOG_PROBE = r"""
import contextlib, copy, io, json, sys
from pathlib import Path
from uapcheck import cli
files = sys.argv[1:]
printed = {"json": 0, "text": 0}
lines = []
render = cli._render
def in_json_and_as_text(result, ns, console, *rest):
    # each file derived once, its report printed in JSON and as text with the panel's suggestion search, both inside
    # the CLI's per-file job (two runs of the CLI would derive the whole catalog twice)
    as_json = copy.copy(ns)
    as_json.format = "json"
    line = render(result, as_json, console, *rest)
    json.loads(line)
    lines.append(line)
    printed["json"] += 1
    out = render(result, ns, console, *rest)
    printed[ns.format] = printed.get(ns.format, 0) + 1
    return out
cli._render = in_json_and_as_text
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = cli.main(["--color", "never"] + files)
print(json.dumps({"code": code, "files": len(files), "printed": printed, "lines": lines,
                  "loaded": sorted(m for m in sys.modules if m.startswith(("sympy.physics", "sympy.tensor.tensor")))}))
"""


def _files_read(session) -> list[Path]:
    """The catalog files the selected tests of this file read: the whole catalog when the whole-catalog test is
    selected (as in a run of the suite), else the files of the selected golden copies (`-k NAME` checks one)."""
    names = set()
    for item in session.items:
        if item.path != Path(__file__).resolve():
            continue
        if item.originalname == "test_json_output_is_byte_identical_to_the_golden_copy":
            names.add(item.callspec.params["uap"].name)
        elif item.originalname == "test_the_comparison_detects_a_one_byte_change":
            names.add(FILES[0].name)
        elif item.originalname == "test_the_whole_catalog_in_one_process_never_imports_sympy_physics_or_tensor":
            return FILES
    return [f for f in FILES if f.name in names]


@pytest.fixture(scope="module")
def catalog_run(request, tmp_path_factory, _warm_cache_files):
    """The run's report: its exit code, the number of files, how many reports it printed each way, the JSON lines
    and the SymPy modules it loaded. It uses a cache directory of its own (as each test's, tests/conftest.py), empty
    of reports: every file is derived, none read from a result cache."""
    files = _files_read(request.session)
    cache = tmp_path_factory.mktemp("uapcheck-cache-catalog-run")
    for f in _warm_cache_files:
        (cache / f.name).symlink_to(f)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR", "NO_COLOR")}
    env.update(PYTHONIOENCODING="utf-8", UAPCHECK_IN_PROCESS="1", UAPCHECK_CACHE_DIR=str(cache))
    proc = subprocess.run([sys.executable, "-c", CATALOG_PROBE, *(str(f.relative_to(ROOT)) for f in files)],
                          capture_output=True, text=True, encoding="utf-8", cwd=ROOT, env=env, timeout=1800)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    got["read"] = sorted(f.name for f in files)
    return got


@pytest.fixture(scope="module")
def printed(catalog_run):
    """{catalog file name: the line `uapcheck --format json catalog/NAME.uap` prints}."""
    out = {}
    for line in catalog_run["lines"]:
        assert line.endswith("\n") and line.count("\n") == 1, line[:200]
        out[Path(json.loads(line)["file"]).name] = line[:-1]
    assert sorted(out) == catalog_run["read"]
    return out


def test_the_whole_catalog_in_one_process_never_imports_sympy_physics_or_tensor(catalog_run):
    """SymPy's simplify imports sympy.physics.units (75-350 ms) on its first call, and its first Add of
    three terms sympy.tensor.tensor (about 60 ms); a catalog run, in JSON and with the text panel's
    suggestion search, pays for neither (uapcheck/lazy.py)."""
    got = catalog_run
    assert got["read"] == sorted(f.name for f in FILES)
    assert got["files"] > 80 and got["code"] in (0, 1)
    assert got["printed"] == {"json": got["files"], "text": got["files"]}
    assert got["loaded"] == []


def test_every_catalog_file_has_a_golden_copy_and_no_other():
    golden = {p.stem for p in mk.GOLDEN.glob("*.json")}
    catalog = {f.stem for f in FILES}
    assert golden == catalog, (
        f"golden copies without a catalog file: {sorted(golden - catalog)}; catalog files without a golden "
        f"copy: {sorted(catalog - golden)}. Regenerate with `{mk.REGENERATE}` and commit the result.")


@pytest.mark.parametrize("uap", FILES, ids=[f.stem for f in FILES])
def test_json_output_is_byte_identical_to_the_golden_copy(uap, printed):
    problems = mk.differences(uap.name, printed[uap.name])
    if problems:
        pytest.fail("\n".join(problems) + f"\n\nIf this change of behaviour is intended and reviewed, regenerate "
                    f"the golden copies with `{mk.REGENERATE}` (or `{mk.REGENERATE} {uap.stem}`) and commit "
                    "the diff with the change; a refactoring must leave them untouched.", pytrace=False)


def test_the_comparison_detects_a_one_byte_change(printed):
    """The check is not vacuous: a changed claim or a non-canonical serialisation is caught."""
    name = FILES[0].name
    value = json.loads(printed[name])
    value["verdict"] = value.get("verdict", "") + "x"
    assert mk.differences(name, mk.canonical(value))
    spaced = json.dumps(json.loads(printed[name]), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert any("not canonical" in p for p in mk.differences(name, spaced))
