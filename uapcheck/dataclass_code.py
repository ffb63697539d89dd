"""The compiled methods of uapcheck's dataclasses, kept in the per-user cache between runs.

Creating a dataclass compiles the source of every method it generates (`__init__`, `__repr__`,
`__eq__`, `__hash__`, `__setattr__`, ...): the standard library builds the text and runs `exec` on
it with the module's globals and a fresh namespace. uapcheck's modules define about 130 dataclasses, so every
start compiled about 760 small functions, half of the time uapcheck's own imports take.

`install()` gives the `dataclasses` module an `exec` of its own (a module global shadows the
builtin). For a class of a uapcheck module it runs the code object compiled from the same text by
an earlier run, kept in `uap-dataclasses-*.marshal` in the per-user cache (uapcheck/user_cache.py:
a private directory, atomic writes); a text not found there is compiled now and stored when the
process ends (a forked worker, which ends without the exit handlers, stores it when it has checked its files: see
uapcheck/worker.py). `exec` of the code compiled from a text is what `exec` of the text does: compiled with
the same file name, mode and no inherited `__future__` flags (the standard library's module has
none), into the same globals and namespace. Every other call, and any class of another module, goes
to the builtin exactly as before. Nothing is stored or loaded when the cache is off
(`UAPCHECK_CACHE_DIR=""`), and a missing, foreign or corrupt file means compiling, as without it.

The file maps each module's name to the marshalled {text: code} of that module, so a run decodes
only the modules it imports (`uapcheck --version` decodes one). The key of the file name is the
Python version: marshal's format and the bytecode are per version.
"""
import builtins
import marshal
import sys
import types
import zlib
from pathlib import Path
from typing import Optional

PREFIX = "uap-dataclasses-"
SUFFIX = ".marshal"
FILENAME = "<string>"  # the name `exec` gives code compiled from a string



class _State:
    installed = False
    loaded = False
    dirty = False  # something was compiled: save() runs at exit
    directory: Optional[Path] = None
    path: Optional[Path] = None


_state = _State()
_stored: dict = {}  # module name -> marshalled {text: code} as read from the file
_codes: dict = {}  # module name -> {text: code} decoded or compiled in this process
_used: dict = {}  # module name -> the texts this process executed
_compiled: set = set()  # the modules that compiled a text in this process
stats = {"hits": 0, "misses": 0}


def _file_name() -> str:
    version = zlib.crc32(sys.version.encode("utf-8", "surrogatepass"))
    return f"{PREFIX}{sys.implementation.cache_tag}-{sys.hexversion:x}-{version:08x}{SUFFIX}"


def _load() -> None:
    _state.loaded = True
    from .user_cache import cache_dir, private
    directory = cache_dir()
    if directory is None:
        return
    path = directory / _file_name()
    _state.directory, _state.path = directory, path
    if not private(directory):
        return
    _stored.update(_read(path))


def _read(path: Path) -> dict:
    """The file's {module name: marshalled {text: code}}, or {} when it is missing, truncated or foreign."""
    try:
        with open(path, "rb") as f:
            table = marshal.load(f)
    except Exception:  # noqa: BLE001 - missing, truncated or foreign: compile as without a cache
        return {}
    if not isinstance(table, dict):
        return {}
    return {k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, bytes)}


def _codes_of(module: str) -> dict:
    codes = _codes.get(module)
    if codes is None:
        codes = {}
        blob = _stored.get(module)
        if blob is not None:
            try:
                table = marshal.loads(blob)
            except Exception:  # noqa: BLE001 - a corrupt entry: compile
                table = None
            if isinstance(table, dict):
                codes = {k: v for k, v in table.items() if isinstance(k, str) and type(v) is types.CodeType}
        _codes[module] = codes
    return codes


def _exec(source, globals=None, locals=None, /):
    """`exec` for the dataclasses module (see the module's docstring)."""
    module = globals.get("__name__") if isinstance(globals, dict) else None
    if not (isinstance(source, str) and isinstance(module, str) and module.split(".")[0] == "uapcheck"):
        if isinstance(source, str):
            # compiled here without this module's flags, as the builtin would for the caller
            source = compile(source, FILENAME, "exec", dont_inherit=True)
        return builtins.exec(source, globals, locals)  # safe: the dataclasses module's own call, passed on unchanged
    if not _state.loaded:
        _load()
    codes = _codes_of(module)
    code = codes.get(source)
    if code is None:
        code = compile(source, FILENAME, "exec", dont_inherit=True)
        codes[source] = code
        stats["misses"] += 1
        _compiled.add(module)
        if not _state.dirty and _state.path is not None:
            _state.dirty = True
            import atexit
            atexit.register(save)
    else:
        stats["hits"] += 1
    _used.setdefault(module, set()).add(source)
    return builtins.exec(code, globals, locals)  # safe: code compiled from the method text dataclasses generated for a uapcheck class (no user text)


def save() -> None:
    """Store the code of the modules that compiled something in this process: for each of them, the
    texts it executed (a module's dataclasses are all made when it is imported, so texts that
    stopped being generated drop out); the other modules' entries are kept as read."""
    directory, path = _state.directory, _state.path
    if not _state.dirty or directory is None or path is None:
        return
    _state.dirty = False
    table = dict(_stored)
    # what another process of the same run stored since this one read the file (the worker that imported the
    # engines and the command line's own process each store the modules they compiled)
    from .user_cache import private, write_atomically
    if private(directory):
        table.update(_read(path))
    for module in _compiled:
        codes = _codes[module]
        table[module] = marshal.dumps({text: codes[text] for text in sorted(_used[module])})
    if write_atomically(directory, path, lambda f: marshal.dump(table, f)):
        _stored.clear()
        _stored.update(table)


def install() -> None:
    """Give the dataclasses module the caching `exec` (once; not when the cache is off, nor when
    something else already replaced its `exec`)."""
    if _state.installed:
        return
    import dataclasses
    from .user_cache import cache_dir
    if "exec" in vars(dataclasses) or cache_dir() is None:
        return
    dataclasses.exec = _exec  # type: ignore[attr-defined]
    _state.installed = True
