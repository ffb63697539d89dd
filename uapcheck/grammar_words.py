"""The words of the `.uap` language, read from the grammar itself (grammars/uap.lark): its keywords are every
alphabetic literal of it. The parser refuses them as names the reports print (a symbolic length), and the Pygments
lexer highlights them, so neither lags behind the language."""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

_LITERAL = re.compile(r'"([A-Za-z][A-Za-z-]*)"')


def grammar_text() -> str:
    """The grammar, package data of uapcheck.grammars (grammars/uap.lark in the repository)."""
    return resources.files("uapcheck.grammars").joinpath("uap.lark").read_text("utf-8")


@lru_cache(maxsize=None)
def grammar_keywords() -> tuple[str, ...]:
    """Every keyword of the language, as the grammar spells it (sorted, longest first for matching)."""
    found = {m.group(1) for m in _LITERAL.finditer(grammar_text())}
    return tuple(sorted(found, key=lambda w: (-len(w), w)))
