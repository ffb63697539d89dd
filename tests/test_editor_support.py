"""The Pygments lexer and the TextMate grammar for .uap files."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Comment, Error, Keyword, Name, Number, String

from uapcheck.lexer import UapLexer, grammar_keywords

ROOT = Path(__file__).resolve().parent.parent
CATALOG = sorted((ROOT / "catalog").glob("*.uap"))


def tokens(text):
    return [(t, v) for t, v in UapLexer().get_tokens(text) if v.strip()]


def test_registered_as_a_pygments_lexer():
    assert isinstance(get_lexer_by_name("uap"), UapLexer)
    assert isinstance(get_lexer_for_filename("bigbird.uap"), UapLexer)


def test_keywords_come_from_the_grammar():
    grammar = (ROOT / "grammars" / "uap.lark").read_text()
    for word in ("architecture", "attention", "kernel", "window", "cyclic", "expect", "not-uap", "affine"):
        assert f'"{word}"' in grammar and word in grammar_keywords()
    assert "exp" not in grammar_keywords()  # functions are names, not keywords


@pytest.mark.parametrize("path", CATALOG, ids=[p.name for p in CATALOG])
def test_every_catalog_file_lexes_without_errors(path):
    text = path.read_text()
    toks = list(UapLexer().get_tokens(text))
    assert not [v for t, v in toks if t in Error]
    # Pygments ends the stream with a newline; nothing else is added or lost.
    assert "".join(v for _, v in toks) == (text if text.endswith("\n") else text + "\n")


def test_token_kinds_of_a_small_file():
    toks = tokens('architecture "RBF" # a comment\nparam gamma > 0\n'
                  'attention { kernel k(x, y) = exp(-gamma * |x - y|^2) }\nexpect uap group S_n layers 1\n')
    kinds = dict((v, t) for t, v in toks)
    assert kinds["architecture"] in Keyword.Declaration
    assert kinds['"RBF"'] in String
    assert kinds["# a comment"] in Comment
    assert kinds["kernel"] in Keyword and kinds["kernel"] not in Keyword.Declaration
    assert kinds["exp"] in Name.Function
    assert kinds["gamma"] in Name and kinds["gamma"] not in Name.Function
    assert kinds["2"] in Number
    assert kinds["uap"] in Keyword


def test_a_name_that_starts_like_a_keyword_is_a_name():
    kinds = dict((v, t) for t, v in tokens("param windowed > 0\n"))
    assert kinds["windowed"] in Name


def test_textmate_grammar_is_fresh_and_valid():
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_editor_grammar.py"), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    grammar = json.loads((ROOT / "editors" / "uap.tmLanguage.json").read_text())
    assert grammar["scopeName"] == "source.uap"
    for rule in grammar["patterns"]:
        for key in ("match", "begin", "end"):
            if key in rule:
                re.compile(rule[key])
    keyword_rule = next(r for r in grammar["patterns"] if r.get("name") == "keyword.control.uap")
    assert re.search(keyword_rule["match"], "pattern window(3) cyclic")
    assert not re.search(keyword_rule["match"], "windowed")
