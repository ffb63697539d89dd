"""uapcheck: a proof-assistant-style checker for the universal approximation property of
transformer-type architectures (Cheng, Lin, Shen, Li, arXiv 2506.23551)."""
from __future__ import annotations

__version__ = "0.1.0"


def check(text: str, path: str = "<string>"):
    """Parse `.uap` text and derive its verdict. Raises uapcheck.errors.UapError on bad input."""
    from .derive import check_spec
    from .parse import parse_source
    return check_spec(parse_source(text, path))
