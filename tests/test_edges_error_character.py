"""A long `edges` list whose error lark tells on the file with the pairs before it blanked (uapcheck/edge_lists.py)
names the character at the error's line and column of the file as written. It used to read the character at lark's
offset into the blanked text, which is shorter: `unexpected character '1'` (or ' ', '>') where lark's own path says
'é', '\\x00' or an unterminated string — the same line and column, another message."""
from __future__ import annotations

import random

import pytest

from uapcheck import edge_lists
from uapcheck.errors import UapError
from uapcheck.parse import parse_source

from clirun import run


def _parsed(text: str, fast: bool, monkeypatch: pytest.MonkeyPatch):
    with monkeypatch.context() as m:
        m.setattr(edge_lists, "FAST_MIN_BYTES", 4096 if fast else 10 ** 12)
        try:
            spec = parse_source(text, "x.uap")
            return [repr(h.pattern) for h in spec.heads]
        except UapError as exc:
            return (exc.message, exc.line, exc.column)


def _file(body: str, n: int = 64) -> str:
    return f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern edges {{{body}}}\n}}\n"


def _pairs(rng: random.Random, count: int, n: int = 64, sep: str = ", ") -> str:
    return sep.join(f"{rng.randint(1, n)} -> {rng.randint(1, n)}" for _ in range(count))


@pytest.mark.parametrize("bad,shown", [("é", "'é'"), ("\x00", "'\\x00'"), ("§", "'§'"), ('"', "unterminated string")])
@pytest.mark.parametrize("sep", [", ", ",\n  "])
def test_the_error_names_the_character_written_there(bad, shown, sep, monkeypatch):
    rng = random.Random(7)
    body = _pairs(rng, 400, sep=sep) + sep + "5 -> " + bad + "6" + sep + _pairs(rng, 300, sep=sep)
    text = _file(body)
    fast, slow = _parsed(text, True, monkeypatch), _parsed(text, False, monkeypatch)
    assert fast == slow
    assert shown in fast[0]


def test_a_seeded_fuzz_of_long_lists_agrees_with_lark(monkeypatch):
    rng = random.Random(2)
    inserts = ["", "x", "-", "->", "3 ->", "-> 4", "3 - > 4", "3 -> 4 -> 5", "9" * 20, "0", "-1 -> 2", "a -> 2",
               '"}"', "# } comment\n", "\n", "\r", "\t", "{", "}", ",,", "3 ->\n 4", "é", "\x00", "3.0 -> 4", "+3 -> 4",
               '"', "0" * 14 + "1"]
    for _ in range(40):
        body = _pairs(rng, rng.randint(500, 700), sep=rng.choice([", ", ",", ",\n", " ,\t"]))
        k = rng.randint(0, len(body))
        text = _file(body[:k] + rng.choice(inserts) + body[k:])
        assert _parsed(text, True, monkeypatch) == _parsed(text, False, monkeypatch), text[max(0, k - 80):k + 80]


def test_the_cli_locates_it_with_exit_code_two(tmp_path):
    rng = random.Random(3)
    path = tmp_path / "e.uap"
    path.write_text(_file(_pairs(rng, 600) + ", 5 -> é6, " + _pairs(rng, 10)), encoding="utf-8")
    got = run(str(path))
    assert got.code == 2
    assert "error: unexpected character 'é'" in got.stderr + got.stdout
    assert "Traceback" not in got.stderr
