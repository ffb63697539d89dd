"""The LALR tables of the .uap grammar, built once per grammar and kept in a per-user cache.

Building the tables takes about as long as a whole dense derivation, and they depend only on the
grammar text, the lark version, the parser options and the Python version. All four go into the
file name (a SHA-256), so a changed grammar or an upgraded lark can never load stale tables.

The cache is a convenience, never a requirement:
- its directory is `$UAPCHECK_CACHE_DIR`, else `$XDG_CACHE_HOME/uapcheck`, else `~/.cache/uapcheck`
  (`UAPCHECK_CACHE_DIR=""` turns it off);
- tables are loaded (they are pickles) only from a directory owned by this user and writable by
  no one else, and written to a temporary file then renamed, so concurrent runs never see a
  half-written file;
- any failure to read or write (no home, read-only disk, a corrupt file) silently falls back to
  building the tables in memory, exactly as without a cache.
"""
from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

from lark import Lark
from lark import __version__ as LARK_VERSION

PREFIX = "uap-parser-"
SUFFIX = ".lark"
KEEP = 8


def cache_dir() -> Optional[Path]:
    explicit = os.environ.get("UAPCHECK_CACHE_DIR")
    if explicit is not None:
        return Path(explicit) if explicit else None
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError, OSError):
            return None
    return Path(base) / "uapcheck"


def cache_key(grammar: str, options: dict[str, Any]) -> str:
    described = "\0".join([grammar, repr(sorted(options.items())), LARK_VERSION, sys.version.split()[0]])
    return hashlib.sha256(described.encode("utf-8", "surrogatepass")).hexdigest()


def _private(directory: Path) -> bool:
    """Ours alone: owned by this user, not writable by group or others."""
    try:
        st = directory.stat()
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        return False
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return False
    return not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _load(path: Path) -> Optional[Lark]:
    try:
        with open(path, "rb") as f:
            return Lark.load(f)
    except Exception:  # missing, truncated or from an incompatible lark: rebuild
        return None


def _store(directory: Path, path: Path, parser: Lark) -> None:
    tmp = None
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private(directory):
            return
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
        with os.fdopen(fd, "wb") as f:
            parser.save(f)
        os.replace(tmp, path)
        tmp = None
        _prune(directory)
    except Exception:  # read-only, full or vanished directory: run without a cache
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _prune(directory: Path) -> None:
    """Keep the KEEP newest tables (several installs may share the directory, each its grammar)."""
    tables = sorted(directory.glob(f"{PREFIX}*{SUFFIX}"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in tables[KEEP:]:
        old.unlink(missing_ok=True)


def cached_lark(grammar: str, **options: Any) -> Lark:
    """`Lark(grammar, **options)` (LALR), its tables loaded from the cache when present."""
    directory = cache_dir()
    if directory is None:
        return Lark(grammar, **options)
    path = directory / f"{PREFIX}{cache_key(grammar, options)}{SUFFIX}"
    if _private(directory):
        loaded = _load(path)
        if loaded is not None:
            return loaded
    parser = Lark(grammar, **options)
    _store(directory, path, parser)
    return parser
