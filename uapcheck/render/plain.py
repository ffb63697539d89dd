"""The compact text report without rich, for output that carries no colour (a pipe, a file, `--color never`).

rich costs about 20 ms to import and a few ms per report to lay out; a report without colour is text that rich lays
out by a handful of rules (word wrap, a rounded panel as wide as its longest line, lines cut with an ellipsis). This
module lays it out by the same rules, byte for byte, when every character of the report is "simple": one that rich
measures as one cell in every Unicode version it knows, that no neighbour joins to (no zero-width character,
joiner, variation selector or combining mark) and that is no line break, tab or control character (SIMPLE_RANGES;
tests/test_plain_text_report.py checks each of them against rich's tables and the reports against rich's own).
Anything else (a wide or combining character in a path or a claim, a console width below 20 cells left for a line)
returns None and the caller lays the report out with rich as before.

`plain_console(color)` is the console of a run whose text output carries no colour, or None when rich decides
more (a terminal, FORCE_COLOR, TTY_COMPATIBLE, Windows, Jupyter or IDLE): it answers what the result cache's
console key asks with the values rich's console would give, and makes that rich console when something needs it
(the batch summary, a report that is not simple).
"""
from __future__ import annotations

import os
import re
import sys
from typing import Optional

# Characters rich measures as one cell whatever the Unicode version: rich's own single-cell ranges
# (rich.cells._SINGLE_CELL_UNICODE_RANGES) and the punctuation, sub- and superscripts, letterlike symbols, arrows,
# mathematical operators, brackets, check marks and phonetic modifier letters (ᵀ) the reports use (each checked against rich's tables by the tests).
SIMPLE_RANGES = (
    (0x20, 0x7E), (0xA0, 0xAC), (0xAE, 0x2FF), (0x370, 0x482), (0x2500, 0x25FC), (0x2800, 0x28FF),
    (0x1D00, 0x1DBF), (0x2010, 0x2027), (0x2030, 0x205E), (0x2070, 0x2071), (0x2074, 0x208E), (0x2090, 0x209C), (0x2100, 0x214F),
    (0x2190, 0x21FF), (0x2200, 0x22FF), (0x2308, 0x230B), (0x2714, 0x2714), (0x2718, 0x2718), (0x27E8, 0x27EB),
)
_SIMPLE = re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in SIMPLE_RANGES) + "]*")

_re_word = re.compile(r"\s*\S+\s*")  # rich._wrap.re_word
_re_trailing = re.compile(r"\s+$")  # rich.text._re_whitespace



def simple(text: str) -> bool:
    return _SIMPLE.fullmatch(text) is not None


def _divide_line(text: str, width: int) -> list[int]:
    """rich._wrap.divide_line(text, width, fold=True) for a simple text (one cell a character)."""
    breaks: list[int] = []
    offset = 0
    for match in _re_word.finditer(text):
        start, word = match.start(), match.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:  # folded across lines of `width` characters
            pieces = [word[i:i + width] for i in range(0, len(word), width)]
            for k, piece in enumerate(pieces):
                if start:
                    breaks.append(start)
                if k == len(pieces) - 1:
                    offset = len(piece)
                else:
                    start += len(piece)
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    return breaks


def wrap(text: str, width: int) -> list[str]:
    """The lines rich's Text.wrap(width) gives a simple one-line text (justify "default", overflow "fold")."""
    bounds = [0, *_divide_line(text, width), len(text)]
    lines = []
    for start, end in zip(bounds, bounds[1:]):
        line = text[start:end]
        if len(line) > width:  # Text.rstrip_end(width): the whitespace beyond the width
            match = _re_trailing.search(line)
            if match is not None:
                line = line[:len(line) - min(len(match.group(0)), len(line) - width)]
        lines.append(line[:width])  # Text.truncate(width, overflow="fold")
    return lines


def _cut(line: str, width: int) -> str:
    """Text.truncate(width, overflow="ellipsis") of a simple line."""
    return line if len(line) <= width else line[:width - 1] + "…"


def panel(body: list[str], title: str, width: int) -> Optional[list[str]]:
    """rich's Panel(Group(*body), title=title, expand=False) (box ROUNDED, padding (0, 1)) on a console `width`
    cells wide."""
    title = f" {title} "
    longest = max(len(line) for line in body)
    inner = min(width - 2, max(min(longest, width - 4) + 2, len(title) + 2))
    if inner < 3:
        return None
    outer = inner + 2
    shown = title[:outer - 4]
    excess = outer - 4 - len(shown)
    left = excess // 2
    lines = ["╭─" + "─" * left + shown + "─" * (excess - left) + "─╮"]
    for text in body:
        lines += ["│ " + line.ljust(inner - 2) + " │" for line in wrap(text, inner - 2)]
    lines.append("╰" + "─" * (outer - 2) + "╯")
    return lines


def report(result, width: int, suggestion=None) -> Optional[str]:
    """The compact text report (uapcheck/render/text.py's render, full=False) as rich lays it out without colour
    on a console `width` cells wide, or None when a character of it is not simple."""
    from .spoken import spoken
    result = spoken(result)  # the file's name for the length in every statement
    from .. import proof
    from .outline import outline
    from .verdict_lines import expect_line, headline, reason, suggestion_line
    if width < 20:
        return None
    marks = {proof.PROVED: "✔", proof.REFUTED: "✘", proof.UNDECIDED: "?"}  # text.STATUS_STYLE's marks
    ids = proof.number_steps(result.root)
    spec = result.spec
    head = f"{spec.path} · {spec.architecture}"
    body = [headline(result), reason(result)]
    line = expect_line(result)
    if line is not None:
        body.append(line)
    hint = suggestion_line(suggestion)
    if hint is not None:
        body.append(hint)
    words = f"derivation, {len(ids)} steps (--full shows the evidence and citations)"
    if not all(simple(text) for text in (head, words, *body)):
        return None
    out = wrap(head, width)
    box = panel(body, "verdict", width)
    if box is None:
        return None
    out += box
    out += wrap(words, width)
    for item in outline(result.root):
        indent = 2 * item.depth
        room = width - indent
        mark = marks.get(item.step.status)
        if mark is None or room < 2:
            return None
        text = f"[{ids[id(item.step)]}] {mark} {item.step.rule}"
        text += "  (derived above)" if item.repeat else "  " + item.claim
        if not simple(text):
            return None
        out.append(" " * indent + _cut(text, room).ljust(room))
    return "\n".join(out) + "\n"


def _is_terminal() -> bool:
    """rich's Console.is_terminal for a console on sys.stdout (without force_terminal)."""
    compatible = os.environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    force = os.environ.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return False if isatty is None else bool(isatty())
    except ValueError:
        return False


def _number(name: str) -> Optional[int]:
    value = os.environ.get(name)
    return int(value) if value is not None and value.isdigit() else None


class PlainConsole:
    """The console of a run whose text output carries no colour (see the module's docstring)."""

    color_system = None
    is_terminal = False
    legacy_windows = False
    is_dumb_terminal = False

    def __init__(self, color: str, no_color: bool) -> None:
        self._color = color
        self.no_color = no_color
        self._rich = None
        columns, lines = _number("COLUMNS"), _number("LINES")
        width = height = None
        for fd in (0, 1, 2):  # rich's Console.size: the first standard stream that is a terminal
            try:
                width, height = os.get_terminal_size(fd)
            except (AttributeError, ValueError, OSError):
                continue
            break
        width = columns if columns is not None else (width or 80)
        height = lines if lines is not None else (height or 25)
        self.width = width if width >= 20 else 80  # as cli._make_console
        self.height = height

    @property
    def encoding(self) -> str:
        return (getattr(sys.stdout, "encoding", "utf-8") or "utf-8").lower()

    def rich(self):
        """The rich console this one stands for (made once, when something needs it)."""
        if self._rich is None:
            from ..cli import _make_console
            self._rich = _make_console(self._color)
        return self._rich


def plain_console(color: str) -> Optional[PlainConsole]:
    """A PlainConsole when rich would lay the text out without colour on a console of the standard size rules,
    else None."""
    if color == "always" or os.name != "posix" or "idlelib" in sys.modules:
        return None
    import builtins
    if hasattr(builtins, "get_ipython") or _is_terminal():
        return None
    no_color = color == "never" or bool(os.environ.get("NO_COLOR"))
    return PlainConsole(color, no_color)
