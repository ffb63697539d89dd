"""The compact text report without colour is laid out without rich (uapcheck/render/plain.py) byte for byte as rich
lays it out: its characters measured against rich's tables in every Unicode version, its word wrap and panel
against rich's on random texts, and whole reports against rich's at many widths; a report with a character that is
not simple falls back to rich."""
from __future__ import annotations

import io
import random
import types

import pytest
from rich.cells import get_character_cell_size, split_graphemes
from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from uapcheck import check_file
from uapcheck.cli import _make_console, _panel_suggestion, main
from uapcheck.render import plain, text


def _console(width: int) -> Console:
    console = _make_console("never")
    console.width = width
    console.file = io.StringIO()
    return console


def _simple_characters() -> list[str]:
    return [chr(c) for a, b in plain.SIMPLE_RANGES for c in range(a, b + 1)]


def test_every_simple_character_is_one_cell_in_every_unicode_version():
    from rich._unicode_data import VERSIONS
    characters = _simple_characters()
    for version in VERSIONS:
        get_character_cell_size.cache_clear()
        wide = [c for c in characters if get_character_cell_size(c, version) != 1]
        assert not wide, (version, wide[:10])
    get_character_cell_size.cache_clear()
    joined = "".join(characters)
    spans, cells = split_graphemes(joined)
    assert cells == len(joined) and all(end - start == 1 and size == 1 for start, end, size in spans)


def test_what_is_not_simple():
    for words in ["a\nb", "a\tb", "中", "e\u0301", "a\u200db", "\ufe0f", "\x07", "\u200b", "👍", "\u2028", "\x85"]:
        assert not plain.simple(words), repr(words)
    assert plain.simple("UAP · G = S_n · 1 attention layer: σ ≥ 2, ‖x‖ → ∞, Wᵀ, ⌈n/2⌉, x₁ ✔ ✘ ? …")


ALPHABET = list("abcdefghij") * 4 + [" "] * 12 + ["  ", "\u00a0", "-", "·", "≥", "ᵀ", "₁", "…", "(", ")", ":"]


def _random_text(rnd: random.Random) -> str:
    text = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 120)))
    if rnd.random() < 0.3:  # a long word, folded
        text += " " + "x" * rnd.randint(10, 90) + " " * rnd.randint(0, 3) + "end"
    if rnd.random() < 0.2:
        text = " " * rnd.randint(1, 3) + text
    return text


@pytest.mark.parametrize("seed", range(12))
def test_wrap_is_richs_word_wrap(seed):
    rnd = random.Random(seed)
    for _ in range(60):
        words, width = _random_text(rnd), rnd.randint(1, 90)
        console = _console(80)
        console.width = width
        with console.capture() as cap:
            console.print(Text(words))
        assert "\n".join(plain.wrap(words, width)) + "\n" == cap.get(), (words, width)


@pytest.mark.parametrize("seed", range(12))
def test_panel_is_richs_panel(seed):
    rnd = random.Random(100 + seed)
    for _ in range(40):
        body = [_random_text(rnd) or "x" for _ in range(rnd.randint(1, 4))]
        width = rnd.randint(20, 160)
        console = _console(width)
        with console.capture() as cap:
            console.print(Panel(Group(*(Text(line) for line in body)), title="verdict", expand=False))
        assert "\n".join(plain.panel(body, "verdict", width)) + "\n" == cap.get(), (body, width)


# Reports of every kind: UAP dense and pattern, NOT-UAP with a suggestion, INCONCLUSIVE, a failed expect, repeated
# steps ("derived above"), collapsed heads, a claim with ᵀ, and one with a combining character (rich's).
FILES = ["softmax", "rbf", "causal", "multi_head_softmax", "longformer_16", "bigbird", "two_heads", "uniform",
         "cauchy", "linear_elu_affine", "star", "bias_term_tanh", "skyformer", "dilated", "polynomial_offset"]


@pytest.fixture(scope="module")
def reports():
    ns = types.SimpleNamespace(no_suggest=False)
    out = []
    for name in FILES:
        result = check_file(f"catalog/{name}.uap")
        out.append((name, result, _panel_suggestion(result, ns)))
    return out


def test_reports_are_richs_at_every_width(reports):
    laid_out = 0
    for name, result, suggestion in reports:
        for width in (20, 21, 33, 47, 64, 79, 80, 81, 100, 133, 200, 400):
            console = _console(width)
            with console.capture() as cap:
                text.render(result, console, suggestion=suggestion)
            mine = plain.report(result, width, suggestion)
            if mine is not None:
                laid_out += 1
                assert mine == cap.get(), (name, width)
    assert laid_out >= 12 * (len(FILES) - 1)  # all but skyformer's combining tilde


def test_not_simple_falls_back_to_rich(reports):
    skyformer = next(result for name, result, _ in reports if name == "skyformer")
    assert plain.report(skyformer, 80) is None
    softmax = next(result for name, result, _ in reports if name == "softmax")
    assert plain.report(softmax, 19) is None


def _cli(args, monkeypatch, capsys, rich_only: bool) -> str:
    monkeypatch.setenv("UAPCHECK_IN_PROCESS", "1")
    monkeypatch.setenv("COLUMNS", "72")
    if rich_only:
        monkeypatch.setattr(plain, "plain_console", lambda color: None)
    capsys.readouterr()
    main(args)
    return capsys.readouterr().out


@pytest.mark.parametrize("args", [
    ["--no-cache", "--color", "never", "catalog/softmax.uap"],
    ["--no-cache", "catalog/skyformer.uap", "catalog/dilated.uap"],  # a fallback, a suggestion and the summary
])
def test_the_cli_prints_what_rich_printed(args, monkeypatch, capsys):
    mine = _cli(args, monkeypatch, capsys, rich_only=False)
    with monkeypatch.context() as m:
        richs = _cli(args, m, capsys, rich_only=True)
    assert mine == richs and "verdict" in mine


def test_the_console_is_plain_only_without_colour(monkeypatch):
    for name in ("TTY_COMPATIBLE", "FORCE_COLOR", "NO_COLOR", "COLUMNS", "LINES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert plain.plain_console("auto") is not None and plain.plain_console("never").no_color
    assert plain.plain_console("always") is None
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert plain.plain_console("auto") is None
    monkeypatch.setenv("TTY_COMPATIBLE", "0")
    assert plain.plain_console("auto") is not None
    monkeypatch.setenv("COLUMNS", "123")
    console, richs = plain.plain_console("never"), _make_console("never")
    for key in ("width", "height", "color_system", "is_terminal", "no_color", "legacy_windows", "encoding",
                "is_dumb_terminal"):
        assert getattr(console, key) == getattr(richs, key), key
