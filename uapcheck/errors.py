"""Input errors: located, printable as `path:line:col: error: message` with the line and a caret."""
from __future__ import annotations

import re
from dataclasses import dataclass

#: The largest input file, in bytes (a larger one is an input error; readers read one byte more, never all).
MAX_SOURCE_BYTES = 1_000_000

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """Neutralise terminal control characters (escape sequences, bell, bidi overrides) in text that
    is printed: each becomes a visible \\xNN or \\uNNNN. Tabs and line ends are kept."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", text)


@dataclass
class UapError(Exception):
    message: str
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: error: {self.message}"


def format_error(path: str, source: str, err: UapError) -> str:
    lines = source.split("\n") or [""]  # only \n ends a line in .uap files, as in the lexer
    line_no = min(max(err.line, 1), len(lines))
    text = lines[line_no - 1].rstrip("\r") if lines else ""
    # Keep absurdly long lines readable: show a window around the column.
    col = max(err.column, 1)
    shown, offset = text, 0
    if len(text) > 200:
        offset = max(0, col - 100)
        shown = text[offset:offset + 200]
    # Copy tabs so that the caret lines up under the same character in a terminal.
    prefix = shown[: max(col - 1 - offset, 0)]
    caret = "".join(ch if ch == "\t" else " " for ch in prefix) + "^"
    return f"{path}:{err.line}:{err.column}: error: {err.message}\n    {shown}\n    {caret}"
