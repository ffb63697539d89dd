"""Start-up cost: what a run imports, and the per-user cache of the LALR tables."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from uapcheck import parse, parser_cache

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "catalog"

# Dense kernels of several shapes (exponential, Gaussian, rational, feature maps, temperature param).
DENSE = ["softmax.uap", "rbf.uap", "softmax_temperature.uap", "cauchy.uap", "linear_elu.uap",
         "performer.uap", "polynomial.uap", "multi_head_softmax.uap"]

PROBE = r"""
import contextlib, io, json, sys
from uapcheck.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(m for m in ("numpy", "igraph", "rich", "sympy.physics",
      "networkx", "matplotlib") if m in sys.modules), "out": out.getvalue()}))
"""


def _probe(*args: str, env=None) -> dict:
    # In process: the modules a check imports are then visible here (a worker process is forked per file).
    env = dict(os.environ if env is None else env, UAPCHECK_IN_PROCESS="1")
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("name", DENSE)
def test_dense_json_check_imports_no_graph_plot_or_units_library(name):
    got = _probe("--format", "json", str(CATALOG / name))
    assert got["code"] == 0
    assert json.loads(got["out"])["verdict"]
    assert got["modules"] == []


def test_dense_text_check_without_colour_imports_no_rich_igraph_numpy_or_units():
    """The compact report without colour is laid out without rich (uapcheck/render/plain.py)."""
    got = _probe("--color", "never", str(CATALOG / "softmax.uap"))
    assert got["code"] == 0 and "UAP" in got["out"]
    assert got["modules"] == []


def test_dense_full_text_check_imports_rich_but_not_igraph_numpy_or_units():
    got = _probe("--color", "never", "--full", str(CATALOG / "softmax.uap"))
    assert got["code"] == 0 and "UAP" in got["out"]
    assert got["modules"] == ["rich"]


def test_pattern_check_loads_igraph_on_demand():
    got = _probe("--format", "json", str(CATALOG / "longformer_16.uap"))  # a concrete n: a graph is built
    assert got["code"] == 0
    assert "igraph" in got["modules"]
    assert "matplotlib" not in got["modules"]  # igraph's drawing backends are not loaded (uapcheck/lazy.py)


@pytest.mark.parametrize("name", ["longformer_16.uap", "bigbird.uap", "blocks_global.uap", "octahedron.uap"])
def test_small_pattern_check_builds_its_graphs_without_numpy(name):
    """igraph asks whether an edge list is a numpy array by importing numpy (uapcheck/lazy.py), and the
    diameter's probe loop keeps small bounds in lists: numpy is for large patterns only."""
    for fmt in (["--format", "json"], ["--color", "never"]):
        got = _probe(*fmt, str(CATALOG / name))
        assert got["code"] == 0 and "igraph" in got["modules"]
        assert "numpy" not in got["modules"]


def test_importing_the_engines_loads_no_sympy_tensor_module():
    """A module-level SymPy Add of three terms would import sympy.tensor.tensor (and the
    combinatorics it pulls in); the engines build their constants under the stand-ins."""
    code = ("import sys\nimport uapcheck.derive, uapcheck.cli\n"
            "print(sorted(m for m in ('sympy.tensor.tensor', 'sympy.combinatorics') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.stdout.strip().splitlines()[-1] == "[]", proc.stderr


def test_matplotlib_still_imports_after_igraph_was_loaded_without_it():
    code = ("import sys\nfrom uapcheck.lazy import igraph\nigraph.Graph(n=2, edges=[(0, 1)])\n"
            "assert 'matplotlib' not in sys.modules\nimport matplotlib.pyplot\nprint(matplotlib.pyplot.figure)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr


def test_version_and_help_import_no_engine():
    probe = ("import sys\nfrom uapcheck.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('sympy', 'lark', 'rich', 'igraph') if m in sys.modules))")
    for flag in ("--version", "--help"):
        proc = subprocess.run([sys.executable, "-c", probe, flag], capture_output=True, text=True, cwd=ROOT,
                              timeout=120)
        assert proc.stdout.strip().splitlines()[-1] == "[]", (flag, proc.stdout)


# ---------------------------------------------------------------------------------------------
# The LALR tables' cache

OPTIONS = dict(parser="lalr", propagate_positions=True, maybe_placeholders=False)


def _tables(directory: Path) -> list[Path]:
    return sorted(directory.glob(f"{parser_cache.PREFIX}*{parser_cache.SUFFIX}"))


class _NoBuild(parser_cache.Lark):
    """A Lark whose tables may only come from the cache: building them fails the test."""

    def __init__(self, *args, **kwargs):
        raise AssertionError("the tables were rebuilt although the cache holds them")


def _tree_text(parser, source: str) -> str:
    tree = parser.parse(source)
    tokens = [(t.type, str(t), t.line, t.column, t.end_line, t.end_column) for t in tree.scan_values(lambda _: True)]
    return tree.pretty() + repr(tokens)


def test_cached_tables_are_reused_and_parse_exactly_as_fresh_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("UAPCHECK_CACHE_DIR", str(tmp_path / "cache"))
    grammar = parse._grammar_text()
    first = parser_cache.cached_lark(grammar, **OPTIONS)
    assert len(_tables(tmp_path / "cache")) == 1
    monkeypatch.setattr(parser_cache, "Lark", _NoBuild)
    second = parser_cache.cached_lark(grammar, **OPTIONS)
    from lark import Lark
    fresh = Lark(grammar, **OPTIONS)
    for path in sorted(CATALOG.glob("*.uap")):
        source = path.read_text("utf-8")
        assert _tree_text(second, source) == _tree_text(fresh, source) == _tree_text(first, source), path.name


def test_cached_tables_report_syntax_errors_like_fresh_ones(tmp_path, monkeypatch):
    from lark import Lark
    from lark.exceptions import UnexpectedInput
    monkeypatch.setenv("UAPCHECK_CACHE_DIR", str(tmp_path))
    grammar = parse._grammar_text()
    parser_cache.cached_lark(grammar, **OPTIONS)
    cached = parser_cache.cached_lark(grammar, **OPTIONS)
    fresh = Lark(grammar, **OPTIONS)
    for bad in ("attention { kernel k(x, y) = exp(x . y }", "attention {", "param tau >", "@"):
        errors = []
        for p in (cached, fresh):
            with pytest.raises(UnexpectedInput) as info:
                p.parse(bad)
            exc = info.value
            errors.append((type(exc).__name__, exc.line, exc.column, sorted(getattr(exc, "expected", []) or [])))
        assert errors[0] == errors[1]


def test_another_grammar_or_option_never_loads_these_tables(tmp_path, monkeypatch):
    monkeypatch.setenv("UAPCHECK_CACHE_DIR", str(tmp_path))
    grammar = parse._grammar_text()
    parser_cache.cached_lark(grammar, **OPTIONS)
    key = parser_cache.cache_key(grammar, OPTIONS)
    assert parser_cache.cache_key(grammar + "\n// changed\n", OPTIONS) != key
    assert parser_cache.cache_key(grammar, {**OPTIONS, "propagate_positions": False}) != key
    changed = grammar + "\n// a comment changes the grammar text\n"
    parser_cache.cached_lark(changed, **OPTIONS)
    assert len(_tables(tmp_path)) == 2


def test_corrupt_table_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("UAPCHECK_CACHE_DIR", str(tmp_path))
    grammar = parse._grammar_text()
    path = tmp_path / f"{parser_cache.PREFIX}{parser_cache.cache_key(grammar, OPTIONS)}{parser_cache.SUFFIX}"
    tmp_path.chmod(0o700)
    path.write_bytes(b"not a pickle at all")
    parser = parser_cache.cached_lark(grammar, **OPTIONS)
    assert parser.parse((CATALOG / "softmax.uap").read_text("utf-8"))
    assert path.read_bytes() != b"not a pickle at all"  # replaced by good tables


def test_unwritable_cache_location_runs_without_cache_and_says_nothing(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    env = {**os.environ, "UAPCHECK_CACHE_DIR": str(blocker / "cache")}
    proc = subprocess.run([sys.executable, "-m", "uapcheck", "--format", "json", str(CATALOG / "softmax.uap")],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout)["verdict"] == "UAP"


def test_shared_writable_directory_is_neither_read_nor_written(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("UAPCHECK_CACHE_DIR", str(shared))
    grammar = parse._grammar_text()
    parser_cache.cached_lark(grammar, **OPTIONS)
    assert _tables(shared) == []  # nothing written where others could plant a pickle
    # A planted file there is not loaded either.
    from lark import Lark
    good = tmp_path / "good"
    with open(good, "wb") as f:
        Lark(grammar, **OPTIONS).save(f)
    (shared / f"{parser_cache.PREFIX}{parser_cache.cache_key(grammar, OPTIONS)}{parser_cache.SUFFIX}").write_bytes(
        good.read_bytes())
    built = []

    class Counting(Lark):
        def __init__(self, *args, **kwargs):
            built.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(parser_cache, "Lark", Counting)
    parser_cache.cached_lark(grammar, **OPTIONS)
    assert built == [1]


def test_empty_setting_turns_the_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv("UAPCHECK_CACHE_DIR", "")
    assert parser_cache.cache_dir() is None
    monkeypatch.delenv("UAPCHECK_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert parser_cache.cache_dir() == tmp_path / "uapcheck"


def test_old_tables_are_pruned(tmp_path, monkeypatch):
    monkeypatch.setenv("UAPCHECK_CACHE_DIR", str(tmp_path))
    grammar = parse._grammar_text()
    for i in range(parser_cache.KEEP + 3):
        parser_cache.cached_lark(grammar + f"\n// version {i}\n", **OPTIONS)
    assert len(_tables(tmp_path)) == parser_cache.KEEP


def test_the_stand_ins_give_sympy_the_same_answers_and_leave_no_trace():
    code = r"""
import sys, sympy
from uapcheck.lazy import sympy_stand_ins
x = sympy.Symbol("x", real=True)
y, z = sympy.symbols("y z")
def work():  # every expression made inside: a sum of three terms made here would load sympy.tensor.tensor
    exprs = [sympy.sin(x) ** 2 + sympy.cos(x) ** 2, sympy.exp(x) * sympy.exp(-x) + x, (x ** 2 - 1) / (x - 1),
             sympy.tanh(x) - (sympy.exp(2 * x) - 1) / (sympy.exp(2 * x) + 1)]
    sums = [sympy.srepr(x + y + z + 3 * x), sympy.srepr((y + z - x) / 2)]
    return sums + [sympy.srepr(sympy.simplify(e)) for e in exprs], sympy.checksol(x ** 2 - 4, x, 2)
with sympy_stand_ins():
    with sympy_stand_ins():  # re-entrant
        inside, checked = work()
    assert "sympy.physics.units" in sys.modules and "sympy.tensor.tensor" in sys.modules
assert not any(m.startswith(("sympy.physics", "sympy.tensor.tensor")) for m in sys.modules), "a stand-in stayed"
import sympy.physics.units as units  # the real libraries still import afterwards
from sympy.tensor.tensor import TensorIndexType, tensor_indices, TensorHead
assert units.meter.__class__.__name__ == "Quantity" and hasattr(units, "convert_to")
outside, checked_outside = work()
assert inside == outside, (inside, outside)
assert checked is True and checked_outside is True
with sympy_stand_ins():  # with the real libraries loaded, the block leaves them alone
    assert sys.modules["sympy.physics.units"] is units
    assert sympy.simplify(2 * units.meter + 3 * units.meter) == 5 * units.meter
    L = TensorIndexType("L")
    i = tensor_indices("i", L)
    A, B = TensorHead("A", [L]), TensorHead("B", [L])
    assert type(A(i) + B(i) + A(i)).__name__ == "TensAdd"
print("ok")
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_verify_imports_no_engine_and_no_sympy_tensor_module(tmp_path):
    """`uapcheck verify` re-checks a certificate with the verifier alone: none of the engines' modules, and
    SymPy's tensor and units modules not at all (the stand-ins of uapcheck/lazy.py, as for a check)."""
    cert = tmp_path / "softmax.json"
    made = subprocess.run([sys.executable, "-m", "uapcheck", "--no-cache", "--certificate", str(cert),
                           str(CATALOG / "softmax.uap")], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert made.returncode == 0, made.stderr
    probe = ("import sys\nfrom uapcheck.cli import main\ncode = main(sys.argv[1:])\n"
             "print(code, sorted(m for m in sys.modules if m.split('.')[:2] in (['uapcheck', 'derive'], "
             "['uapcheck', 'rules'], ['uapcheck', 'graphs'], ['uapcheck', 'kernel_limit'], ['uapcheck', 'lower'], "
             "['uapcheck', 'proof']) or m.startswith(('sympy.tensor.tensor', 'sympy.physics', 'igraph'))))")
    proc = subprocess.run([sys.executable, "-c", probe, "verify", str(cert)], capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, UAPCHECK_IN_PROCESS="1"), timeout=300)
    assert proc.stdout.strip().splitlines()[-1] == "0 []", (proc.stdout, proc.stderr)


WORKER_PROBE = r"""
import contextlib, io, json, sys
from uapcheck.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "engines": "uapcheck.derive" in sys.modules, "out": out.getvalue()}))
"""


def _worker_probe(*args: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "UAPCHECK_IN_PROCESS"}
    proc = subprocess.run([sys.executable, "-c", WORKER_PROBE, *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_one_worker_imports_the_engines_itself_and_prints_the_same():
    """With one worker the parent never imports the engines (the worker does, into pages of its own); with two the
    parent imports them before forking, to share them. The reports are byte-identical to an in-process run's."""
    files = [str(CATALOG / name) for name in ("softmax.uap", "longformer_16.uap", "polynomial_offset.uap")]
    alone = _worker_probe("--format", "json", "--no-cache", "-j", "1", *files)
    shared = _worker_probe("--format", "json", "--no-cache", "-j", "2", *files)
    here = _probe("--format", "json", "--no-cache", *files)
    assert not alone["engines"] and shared["engines"]
    assert alone["out"] == shared["out"] == here["out"] and alone["code"] == shared["code"] == here["code"]
