"""A Pygments lexer for `.uap` files.

The keywords are read from the grammar itself (every alphabetic literal of grammars/uap.lark), so the
lexer never lags behind the language. Registered as the Pygments lexer `uap` (entry point
`pygments.lexers`), so `pygmentize -l uap FILE.uap` and any Pygments-based viewer highlight `.uap` files.
"""
from __future__ import annotations

import re
from functools import lru_cache

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

from .grammar_words import grammar_keywords, grammar_text as _grammar

__all__ = ["grammar_keywords", "statement_keywords", "UapLexer"]

_STATEMENT_RULE = re.compile(r"^\?statement:(.*?)\n\n", re.M | re.S)


@lru_cache(maxsize=None)
def statement_keywords() -> frozenset[str]:
    """The words that open a statement (a line of a .uap file): the first literal of each alternative
    of the grammar's `statement` rule. Highlighted as declarations, the other keywords as keywords."""
    text = _grammar()
    block = _STATEMENT_RULE.search(text)
    assert block is not None, "grammars/uap.lark has a `?statement:` rule"
    words = set()
    for rule in re.findall(r"[a-z_]+", block.group(1)):
        first = re.search(rf'^{rule}:\s*"([a-z-]+)"', text, re.M)
        assert first is not None, f"the statement rule `{rule}` opens with a keyword"
        words.add(first.group(1))
    return frozenset(words)


def _keyword_rules():
    keywords = grammar_keywords()
    opening = statement_keywords()
    statements = [w for w in keywords if w in opening]
    others = [w for w in keywords if w not in opening]
    return [
        (words(statements, prefix=r"\b", suffix=r"\b(?![-(])"), Keyword.Declaration),
        (words(others, prefix=r"\b", suffix=r"\b"), Keyword),
    ]


class UapLexer(RegexLexer):
    """Lexer for the `.uap` language of uapcheck."""

    name = "uap"
    aliases = ["uap", "uapcheck"]
    filenames = ["*.uap"]
    mimetypes = ["text/x-uap"]
    url = "https://pypi.org/project/uapcheck/"

    tokens = {
        "root": [
            (r"[ \t\f\r]+", Whitespace),
            (r"\n", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"(\\\\"|[^"\\\n])*"', String.Double),
            (r"(\d+(\.\d+)?([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)", Number),
            *_keyword_rules(),
            (r"([A-Za-z][A-Za-z0-9_]*)(\s*)(\()", bygroups(Name.Function, Whitespace, Punctuation)),
            (r"[A-Za-z][A-Za-z0-9_]*", Name),
            (r"->|>=|!=|[-+*/^.=<>·|]", Operator),
            (r"[(){},;]", Punctuation),
            (r".", Text),
        ],
    }
