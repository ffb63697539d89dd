"""uapcheck: a proof-assistant-style checker for the universal approximation property of
transformer-type architectures (Cheng, Lin, Shen, Li, arXiv 2506.23551)."""
from __future__ import annotations

__version__ = "0.1.0"

from . import dataclass_code as _dataclass_code  # noqa: E402 - before any module defines a dataclass

_dataclass_code.install()


def check(text: str, path: str = "<string>"):
    """Parse `.uap` text and derive its verdict. Raises uapcheck.errors.UapError on bad input."""
    from .derive import check_spec
    from .parse import parse_source
    return check_spec(parse_source(text, path))


def check_file(path):
    """Read a `.uap` file and derive its verdict (errors are located in that file)."""
    from pathlib import Path
    from .parse import decode
    return check(decode(Path(path).read_bytes()), str(path))
