"""The compiled dataclass methods kept between runs (uapcheck/dataclass_code.py): a second run compiles
nothing, and every method it makes is the one a run without the cache makes (same bytecode, constants,
names, annotations, defaults); other modules' dataclasses, a corrupt file and a shared directory fall
back to compiling, as without the cache."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

from uapcheck import dataclass_code

ROOT = Path(__file__).resolve().parent.parent

PROBE = r"""
import dataclasses, importlib, json, pkgutil, sys
import uapcheck
from uapcheck import dataclass_code
skip = ("uapcheck.__main__",)
for info in pkgutil.walk_packages(uapcheck.__path__, "uapcheck."):
    if info.name not in skip:
        importlib.import_module(info.name)
prints = {}
for name, module in sorted(sys.modules.items()):
    if not name.startswith("uapcheck"):
        continue
    for cls in vars(module).values():
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == name):
            continue
        for method in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
            fn = cls.__dict__.get(method)
            fn = getattr(fn, "__wrapped__", fn)  # __repr__ is wrapped by reprlib's recursion guard
            code = getattr(fn, "__code__", None)
            if code is None:
                continue
            prints[f"{name}.{cls.__qualname__}.{method}"] = [
                code.co_code.hex(), repr(code.co_consts), code.co_names, code.co_varnames, code.co_filename,
                code.co_firstlineno, code.co_flags, repr(fn.__annotations__), repr(fn.__defaults__),
                repr(fn.__kwdefaults__), fn.__qualname__]
print(json.dumps({"stats": dataclass_code.stats, "prints": prints}))
"""


def _run(cache: str) -> dict:
    env = dict(os.environ, UAPCHECK_CACHE_DIR=cache)
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _files(directory: Path) -> list[Path]:
    return sorted(directory.glob(f"{dataclass_code.PREFIX}*{dataclass_code.SUFFIX}"))


def test_a_second_run_compiles_nothing_and_makes_the_same_methods(tmp_path):
    cache = tmp_path / "cache"
    first = _run(str(cache))
    assert first["stats"]["misses"] > 500 and len(_files(cache)) == 1
    second = _run(str(cache))
    assert second["stats"]["misses"] == 0 and second["stats"]["hits"] > 500
    without = _run("")
    assert without["stats"] == {"hits": 0, "misses": 0}  # the cache off: the builtin exec alone
    assert len(without["prints"]) > 300
    assert second["prints"] == without["prints"] == first["prints"]


def test_a_corrupt_file_is_compiled_around_and_replaced(tmp_path):
    cache = tmp_path / "cache"
    _run(str(cache))
    (path,) = _files(cache)
    path.write_bytes(b"\x00not marshal")
    again = _run(str(cache))
    assert again["stats"]["misses"] > 500
    assert _run(str(cache))["stats"]["misses"] == 0  # rewritten by the run that compiled


def test_a_shared_writable_directory_is_neither_read_nor_written(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    out = _run(str(shared))
    assert out["stats"]["misses"] > 500 and _files(shared) == []


def test_other_modules_dataclasses_take_the_builtin_exec():
    before = dict(dataclass_code.stats)

    @dataclasses.dataclass(frozen=True)
    class Elsewhere:
        a: int
        b: str = "x"

    assert dataclass_code.stats == before
    assert Elsewhere(1) == Elsewhere(1, "x") and repr(Elsewhere(2)) == "test_other_modules_dataclasses_take_the_builtin_exec.<locals>.Elsewhere(a=2, b='x')"
    assert Elsewhere.__init__.__annotations__ == {"a": "int", "b": "str", "return": None}


def _stored_modules(directory: Path) -> set:
    import marshal
    (path,) = _files(directory)
    with open(path, "rb") as f:
        return set(marshal.load(f))


def test_a_check_in_a_forked_worker_stores_the_engines_code(tmp_path):
    """A lone file is checked by a forked worker that imports the engines itself and ends without the exit
    handlers: it stores their dataclass code, beside what the command line's own process stored, so the next
    run compiles none of it."""
    cache = tmp_path / "cache"
    env = dict(os.environ, UAPCHECK_CACHE_DIR=str(cache))
    env.pop("UAPCHECK_IN_PROCESS", None)
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-m", "uapcheck", "--no-cache", "--format", "json",
                               "catalog/longformer_16.uap"], capture_output=True, text=True, cwd=ROOT, env=env,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr
        stored = _stored_modules(cache)
        assert {"uapcheck.worker", "uapcheck.certificates", "uapcheck.proof", "uapcheck.graphs.connectivity"} <= stored
    probe = r"""
import os, sys
from uapcheck import dataclass_code
import uapcheck.derive, uapcheck.cli, uapcheck.graphs.connectivity
print(dataclass_code.stats["misses"], dataclass_code.stats["hits"])
"""
    misses, hits = map(int, subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                                           env=env, timeout=300, check=True).stdout.split())
    assert misses == 0 and hits > 300
