"""The LALR tables of the .uap grammar, built once per grammar and kept in a per-user cache.

Building the tables takes about as long as a whole dense derivation, and they depend only on the
grammar text, the lark version, the parser options and the Python version. All four go into the
file name (a SHA-256), so a changed grammar or an upgraded lark can never load stale tables.

The cache is a convenience, never a requirement (uapcheck/user_cache.py: where it lives, who may
write it, atomic writes): any failure to read or write (no home, read-only disk, a corrupt file)
silently falls back to building the tables in memory, exactly as without a cache.
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any, Optional

from lark import Lark
from lark import __version__ as LARK_VERSION

from .user_cache import cache_dir, private as _private, write_atomically

__all__ = ["cache_dir", "cache_key", "cached_lark"]

PREFIX = "uap-parser-"
SUFFIX = ".lark"
KEEP = 8


def cache_key(grammar: str, options: dict[str, Any]) -> str:
    described = "\0".join([grammar, repr(sorted(options.items())), LARK_VERSION, sys.version.split()[0]])
    return hashlib.sha256(described.encode("utf-8", "surrogatepass")).hexdigest()


def _load(path: Path) -> Optional[Lark]:
    try:
        with open(path, "rb") as f:
            return Lark.load(f)
    except Exception:  # missing, truncated or from an incompatible lark: rebuild
        return None


def _store(directory: Path, path: Path, parser: Lark) -> None:
    if write_atomically(directory, path, parser.save):
        try:
            _prune(directory)
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
