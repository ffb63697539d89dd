"""The result cache: a checked file's report, kept under the hash of everything the report depends on,
so that a later run over an unchanged file prints it without deriving it again.

The key (a SHA-256) covers:
- the file's bytes and the path its report shows;
- the options that change a report: the format, `--color`, `--standalone`, `--short`, `--full`,
  `--no-suggest`, `--budget` and `--memory`, and for text output the console the report is laid out
  for (its width, colour system and whether it is a terminal);
- uapcheck's version and a hash of every file of its own source (the package and its grammar), so an
  edited engine never serves a report of the old one; Python's version and the distributions
  installed beside uapcheck's dependencies (their names carry their versions: a SymPy upgrade misses).

Only reports that are a function of that key are kept: a file checked to its verdict (exit code 0 or 1;
never an input or internal error) without any budget running out (a local step budget, the file's CPU
budget, its memory, or a token graph refused for the file's --memory and time budget). `--plot`, `--certificate` and
`--simulate` write or add more than the report and bypass the cache, as `--no-cache` does.

Entries live in `results/` under the per-user cache directory (uapcheck/user_cache.py:
`$UAPCHECK_CACHE_DIR`, else `$XDG_CACHE_HOME/uapcheck`, else `~/.cache/uapcheck`; `UAPCHECK_CACHE_DIR=`
turns every cache off), one JSON file per key holding the key it was stored under. An entry is read
only from a directory owned by this user and writable by no one else, and written to a temporary file
then renamed, so runs at once (`-j`, or several uapcheck processes) never see half an entry. An entry
that cannot be read, does not parse, or names another key is ignored and the file is checked again;
a directory that cannot be written only means nothing is kept. Deleting the directory is always safe.
When `results/` holds more than MAX_ENTRIES entries, the oldest written are removed.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Iterable, Optional

from . import __version__
from .user_cache import cache_dir, private, write_atomically

#: Bumped when the entries' layout or the key's contents change.
SCHEMA = "uapcheck-result-cache/1"
SUBDIRECTORY = "results"
SUFFIX = ".json"
MAX_ENTRIES = 20_000
#: The packages whose installed versions go into the key (the dependencies that shape a report).
DEPENDENCIES = ("sympy", "mpmath", "lark", "rich", "pygments", "igraph", "networkx", "numpy", "pynauty")


def _tree_files(root: Path) -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found += [Path(folder) / f for f in sorted(files) if not f.endswith((".pyc", ".pyo"))]
    return found


def source_roots() -> list[Path]:
    """The directories of uapcheck's source: the package's, and the grammar's when it lies outside it (package
    data that a development install maps from grammars/)."""
    roots = [Path(__file__).resolve().parent]
    spec = importlib.util.find_spec("uapcheck.grammars")
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        grammar_root = Path(location).resolve()
        if grammar_root != roots[0] and roots[0] not in grammar_root.parents:
            roots.append(grammar_root)
    return roots


def source_hash(roots: Optional[list[Path]] = None) -> str:
    """SHA-256 of every file under `roots` (default: uapcheck's source, `source_roots()`): each file's root,
    path relative to it, size and bytes."""
    h = hashlib.sha256()
    for k, root in enumerate(source_roots() if roots is None else roots):
        for path in _tree_files(root):
            data = path.read_bytes()
            name = f"{k}/{path.relative_to(root).as_posix()}".encode("utf-8", "surrogateescape")
            h.update(len(name).to_bytes(8, "little") + name + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def environment() -> list[str]:
    """Python's version and the distributions (name-version.dist-info) installed in the directories that
    hold uapcheck's dependencies: found without importing them."""
    folders = set()
    for name in DEPENDENCIES:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        origin = getattr(spec, "origin", None) if spec is not None else None
        locations = list(getattr(spec, "submodule_search_locations", None) or []) if spec is not None else []
        place = Path(origin).parent if origin and origin not in ("built-in", "frozen") else \
            Path(locations[0]) if locations else None
        if place is not None:
            folders.add(str(place.parent if place.name == name else place))
    out = [sys.version, sys.implementation.cache_tag or ""]
    for folder in sorted(folders):
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith((".dist-info", ".egg-info", ".egg-link")))
        except OSError:
            names = []
        out.append(folder + ": " + " ".join(names))
    return out


def console_key(console: Any) -> Optional[dict]:
    """What of a rich console shapes a text report (None for the other formats)."""
    if console is None:
        return None
    stdout_tty = False
    try:
        stdout_tty = bool(sys.stdout.isatty())
    except (AttributeError, ValueError, OSError):
        pass
    return {"width": console.width, "height": console.height, "color_system": console.color_system,
            "terminal": console.is_terminal, "no_color": console.no_color, "legacy_windows": console.legacy_windows,
            "encoding": console.encoding, "dumb": console.is_dumb_terminal, "stdout_tty": stdout_tty}


def options_key(ns: Any) -> dict:
    """The command-line options that change a file's report."""
    return {"format": ns.format, "color": ns.color, "standalone": ns.standalone, "short": ns.short,
            "full": ns.full, "no_suggest": ns.no_suggest, "budget": ns.budget, "memory": ns.memory}


def bypassed(ns: Any) -> bool:
    """Options that do more than print the report (or ask for no cache): no lookup, no store."""
    return bool(ns.no_cache or ns.plot or ns.certificate or ns.simulate)


class ResultCache:
    """The entries of one run: every key shares the run's options, source and environment."""

    def __init__(self, directory: Path, common: dict):
        self.directory = directory
        self.readable = private(directory)
        self._common = json.dumps(common, sort_keys=True, ensure_ascii=True).encode("ascii")
        self.stored = 0

    def key(self, shown: str, data: bytes) -> str:
        h = hashlib.sha256()
        shown_bytes = shown.encode("utf-8", "surrogateescape")
        for part in (self._common, shown_bytes, data):
            h.update(len(part).to_bytes(8, "little") + part)
        return h.hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}{SUFFIX}"

    def load(self, key: str):
        """The Outcome stored under `key`, or None (absent, unreadable, corrupt, or another key's)."""
        if not self.readable:
            return None
        try:
            entry = json.loads(self._path(key).read_bytes().decode("utf-8"))
            return _outcome(entry, key)
        except Exception:  # noqa: BLE001 - any unreadable or corrupt entry means checking the file again
            return None

    def store(self, key: str, outcome) -> bool:
        summary = outcome.summary
        entry = {"schema": SCHEMA, "key": key, "stdout": outcome.stdout, "stderr": outcome.stderr,
                 "code": outcome.code, "summary": {"verdict": summary.verdict, "expect_holds": summary.expect_holds,
                                                   "expect_reason": summary.expect_reason}}
        try:
            data = json.dumps(entry, ensure_ascii=False).encode("utf-8", "surrogateescape")
        except (TypeError, ValueError, UnicodeError):
            return False
        written = write_atomically(self.directory, self._path(key), lambda f: f.write(data))
        self.stored += written
        return written

    def prune(self, keep: int = MAX_ENTRIES) -> None:
        """Remove the oldest-written entries beyond `keep` (never fails)."""
        try:
            names = [n for n in os.listdir(self.directory) if n.endswith(SUFFIX)]
            if len(names) <= keep:
                return
            dated = []
            for n in names:
                try:
                    dated.append((os.stat(self.directory / n).st_mtime_ns, n))
                except OSError:
                    pass
            for _, n in sorted(dated)[:max(len(dated) - keep, 0)]:
                try:
                    os.unlink(self.directory / n)
                except OSError:
                    pass
        except OSError:
            pass


def _outcome(entry: Any, key: str):
    from .worker import Outcome
    if not isinstance(entry, dict) or entry.get("schema") != SCHEMA or entry.get("key") != key:
        return None
    stdout, stderr, code, summary = entry.get("stdout"), entry.get("stderr"), entry.get("code"), entry.get("summary")
    if not isinstance(stdout, str) or not isinstance(stderr, str) or type(code) is not int or code not in (0, 1):
        return None
    if not (isinstance(summary, dict) and isinstance(summary.get("verdict"), str)
            and summary.get("expect_holds") in (True, False, None) and isinstance(summary.get("expect_reason"), str)):
        return None
    summary = SimpleNamespace(verdict=summary["verdict"], expect_holds=summary["expect_holds"],
                              expect_reason=summary["expect_reason"])
    return Outcome(stdout, stderr, code, summary, cacheable=True)


def open_cache(ns: Any, console: Any) -> Optional[ResultCache]:
    """The run's result cache, or None when it is off or bypassed (or its key cannot be computed)."""
    if bypassed(ns):
        return None
    base = cache_dir()
    if base is None:
        return None
    try:
        common = {"schema": SCHEMA, "version": __version__, "source": source_hash(), "environment": environment(),
                  "options": options_key(ns), "console": console_key(console)}
    except Exception:  # noqa: BLE001 - a source file that cannot be read: run without the cache
        return None
    return ResultCache(base / SUBDIRECTORY, common)


def lookups(cache: Optional[ResultCache], items: Iterable[Any]) -> list:
    """For each input: (its key or None, its cached Outcome or None). Unread inputs are never cached."""
    out: list[tuple[Optional[str], Any]] = []
    for item in items:
        if cache is None or item.error:
            out.append((None, None))
            continue
        key = cache.key(item.shown, item.data)
        out.append((key, cache.load(key)))
    return out
