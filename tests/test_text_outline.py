"""The compact text outline cuts a step's line to the terminal's width exactly as rich cuts it (render/text.py
hands rich the words already cut): compared with rich itself on words of every kind of character."""
from __future__ import annotations

import io
import random

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.padding import Padding
from rich.text import Text

from uapcheck.render.text import shown_part

ALPHABET = (list("abcxyz 0123456789()[]{},.;=+-_") + list("≥≤·…→∞σθ²₁ᵀ°öé✔✘⌈⌉‖") + ["中", "字", "👍", "\u0301",
            "\u200d", "\ufe0f", "\u200b", "\x07"])


def _rich(head: str, words: str, width: int, indent: int, color: str) -> str:
    console = Console(file=io.StringIO(), width=width, no_color=color == "never", highlight=False,
                      color_system=None if color == "never" else "standard", force_terminal=color != "never")
    with console.capture() as cap:
        text = Text()
        text.append(head, style="cyan")
        text.append(words)
        console.print(Padding(text, (0, 0, 0, indent)), no_wrap=True, overflow="ellipsis")
    return cap.get()


def _words(rnd: random.Random, simple: bool) -> str:
    letters = ALPHABET[:-6] if simple else ALPHABET
    return "".join(rnd.choice(letters) for _ in range(rnd.randint(0, 260)))


@pytest.mark.parametrize("seed", range(60))
def test_the_words_come_out_as_rich_cuts_them(seed):
    rnd = random.Random(seed)
    head = rnd.choice(["[1] ✔ PAT-LAYERS  ", "[12] ? LIM-EXPPOLY  ", "[3] ✘ X  "])
    for _ in range(20):
        words = _words(rnd, simple=rnd.random() < 0.7)
        if rnd.random() < 0.1:
            words = words[:40] + rnd.choice(["\n", "\t"]) + words[40:]
        width, indent = rnd.randint(20, 200), 2 * rnd.randint(0, 5)
        color = rnd.choice(["never", "always"])
        room = width - indent - cell_len(head)
        assert _rich(head, shown_part(words, room), width, indent, color) == \
            _rich(head, words, width, indent, color), (words, width, indent)


def test_long_simple_words_are_cut_before_rich_sees_them():
    words = "the lengths below the range ≥ 13 · " * 20
    shown = shown_part(words, 40)
    assert cell_len(shown) == 40 and shown.endswith("…") and words.startswith(shown[:-1])
    assert shown_part("中" * 30, 10) == "中" * 4 + " …"  # a character of two cells across the cut: a space
    assert shown_part("short", 40) == "short"
    tricky = "a\u200db" * 40  # a joiner: left to rich
    assert shown_part(tricky, 10) == tricky
