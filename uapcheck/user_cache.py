"""The per-user cache directory (the parser's tables, the compiled dataclass methods), and the rules
every file in it follows.

- The directory is `$UAPCHECK_CACHE_DIR`, else `$XDG_CACHE_HOME/uapcheck`, else `~/.cache/uapcheck`
  (`UAPCHECK_CACHE_DIR=""` turns every cache off).
- A file is loaded only from a directory owned by this user and writable by no one else (the files
  hold pickles and code), and written to a temporary file then renamed, so concurrent runs never see
  a half-written file.
- Any failure to read or write is silent: the run goes on as without a cache.
"""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import Callable, Optional


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


def private(directory: Path) -> bool:
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


def write_atomically(directory: Path, path: Path, write: Callable) -> bool:
    """Create the directory (private) if need be and write `path` in it through `write(file)`, by a
    temporary file renamed into place. False (and nothing left behind) on any failure."""
    tmp = None
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not private(directory):
            return False
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.replace(tmp, path)
        tmp = None
        return True
    except Exception:  # read-only, full or vanished directory: run without a cache
        return False
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
