"""Long `edges { i -> j, ... }` lists, read without lark.

A pattern listed arc by arc at a real size (n = 65,536 with four arcs a token is 262,144 pairs, 4 MB)
costs lark a parse-tree node, a meta and a visitor call per number: seconds. Here each list is read
with compiled regular expressions instead, and lark parses the file with the list cut to its first
pair (a placeholder of the same lines and columns). `parse.parse_source` then hands the whole list
to the `edges` reader by the position of its `edges` keyword.

The grammar stays the one truth about the language:
- A list is located by a scan that skips comments and strings exactly as the grammar's COMMENT and
  STRING terminals do; only a list whose body is pairs `INT -> INT`, commas, blanks, line ends
  (around commas and braces only) and comments is read here (`REGULAR`), everything else goes to lark
  as it is written. Lark then sees `edges {` followed by the user's own first pair, so a word that
  is not the pattern `edges` (a head named `edges`) meets the same tokens and the same error.
- A list that is not regular (a name, a minus sign, a stray token) is read token by token here. A
  syntax error is told by lark itself, on the file with the pairs before the offending one blanked
  out (an LALR parser is in the same state after one pair as after many), so the message, line and
  column are lark's. Names, minus signs and positions out of range are checked, pair by pair in
  order, by the very reader the lark path uses (`parse._edge`), on tokens placed where they are
  written: the first bad pair gets the same message at the same line and column.
- Lists shorter than FAST_MIN_BYTES are left to lark (the common case of a few arcs is unchanged).

Size limits: the file outside its lists is held to MAX_SOURCE_BYTES as before; the lists' bodies
count against MAX_EDGE_LIST_BYTES in all, and each list against `edge_list_limit(n)` for the
sequence length it is read at (checked before its numbers are converted).
"""
from __future__ import annotations

import gc
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

from .errors import MAX_SOURCE_BYTES, UapError

#: All `edges { ... }` bodies of one file together, in bytes (a larger file is an input error).
MAX_EDGE_LIST_BYTES = 64 * 1024 * 1024
#: The largest file the readers take: the source limit plus the edge lists' own.
MAX_FILE_BYTES = MAX_SOURCE_BYTES + MAX_EDGE_LIST_BYTES
#: Bytes allowed per possible arc of a list at length n (a pair with its comma, blanks and a comment).
BYTES_PER_ARC = 64
#: A list body shorter than this is parsed by lark as written.
FAST_MIN_BYTES = 4096

# The grammar's terminals, as grammars/uap.lark writes them.
_STRING = r'"(?:\\"|[^"\\\n])*"'
_COMMENT = r"#[^\n]*"
_BLANK = r"[ \t\f\r]"          # WS, %ignored
_LINE = r"[ \t\f\r\n]"         # WS or _NL: allowed around commas and braces of a list
# The next string, comment or `edges {` (the keyword not glued to a name before it).
_FIND = re.compile(rf"{_STRING}|{_COMMENT}|(?<![A-Za-z0-9_])edges{_BLANK}*\{{")
# The end of a list body: the first `}` outside a comment (a string inside makes it irregular).
_CLOSE = re.compile(rf'{_COMMENT}|[}}"]')
# Possessive where Python has them (3.11): the same language (digits, blanks, `->`, `,` never overlap), no backtracking.
_Q = "+" if sys.version_info >= (3, 11) else ""
_PAIR = rf"[0-9]+{_Q}{_BLANK}*{_Q}->{_BLANK}*{_Q}[0-9]+{_Q}"
_REGULAR = re.compile(rf"{_LINE}*{_Q}{_PAIR}(?:{_LINE}*{_Q},{_LINE}*{_Q}{_PAIR})*{_Q}{_LINE}*{_Q}")
_COMMENTS = re.compile(_COMMENT)
_DIGITS = re.compile(r"[0-9]+")
# 13 digits are longer than any position: such a list is read by the shared reader ("out of range").
# Found as 13 zeros once every digit is a zero (one C pass; a regular expression tries every digit).
_ZEROS = str.maketrans("123456789", "000000000")
_LONG = "0" * 13
# One token of an irregular body: a comment, blanks, a line end, or a token of the grammar's lexer.
_TOKEN = re.compile(rf"(?P<skip>{_COMMENT}|{_BLANK}+)|(?P<nl>\n)|(?P<arrow>->)|(?P<minus>-)|(?P<comma>,)"
                    r"|(?P<int>\d+)|(?P<name>[A-Za-z][A-Za-z0-9_]*)|(?P<other>.)", re.S)


def edge_list_limit(n: int) -> int:
    """The bytes one list may take at sequence length n: BYTES_PER_ARC for each of the n·(n − 1)
    possible arcs, never below the ordinary source limit, never above MAX_EDGE_LIST_BYTES."""
    return max(MAX_SOURCE_BYTES, min(MAX_EDGE_LIST_BYTES, BYTES_PER_ARC * n * max(n - 1, 1)))


@dataclass
class Number:
    """A signed_int of an irregular list, where it is written (0-based offset in the file)."""
    minus: Optional[int]
    text: str
    kind: str  # "INT" or "NAME"
    at: int


@dataclass
class EdgeList:
    """One `edges { ... }` list read here: its body's span in the file, and its pairs (converted on demand)."""
    text: str = field(repr=False)
    keyword: int   # offset of `edges`
    start: int     # offset just after `{`
    end: int       # offset of `}`
    irregular: Optional[list[tuple[Number, Number]]] = None  # the pairs as tokens, for a list with names or signs

    @property
    def body_bytes(self) -> int:
        body = self.text[self.start:self.end]
        return len(body) if body.isascii() else len(body.encode("utf-8", "surrogatepass"))

    def numbers(self) -> Any:
        """The positions of a regular list, source and target alternating: a list, or a numpy int64
        array for a long list."""
        body = self.text[self.start:self.end]
        if "#" in body:
            body = _COMMENTS.sub("", body)
        pairs = body.count("->")
        if pairs >= 1024:  # numpy reads the digits in C (the body is checked: digits, blanks, `->`, `,`)
            import numpy as np
            read = np.fromstring(body.replace("->", " ").replace(",", " "), dtype=np.int64, sep=" ")
            if len(read) == 2 * pairs:
                return read
        return list(map(int, _DIGITS.findall(body)))

    def number_tokens(self, index: int) -> tuple[Number, Number]:
        """The index-th pair of a regular list as written (its two numbers and their file offsets)."""
        seen = 0
        found: list[Number] = []
        for m in re.finditer(rf"{_COMMENT}|[0-9]+", self.text[self.start:self.end]):
            if m.group().startswith("#"):
                continue
            if seen // 2 == index:
                found.append(Number(None, m.group(), "INT", self.start + m.start()))
                if len(found) == 2:
                    break
            seen += 1
        return found[0], found[1]


def line_col(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a file offset, as lark counts them."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def find(text: str, min_bytes: Optional[int] = None) -> list[EdgeList]:
    """The `edges { ... }` lists of the file long enough to be read here, in order. Each body is
    checked: regular, or else tokenised into pairs (`irregular`); a body that is neither (a syntax
    error, or a string inside) raises `Irregular` with the offset of the first token that does not fit."""
    floor = FAST_MIN_BYTES if min_bytes is None else min_bytes
    found: list[EdgeList] = []
    pos = 0
    while True:
        m = _FIND.search(text, pos)
        if m is None:
            return found
        pos = m.end()
        if not m.group().startswith("edges"):
            continue  # a string or a comment
        brace = text.find("}", pos)
        if brace >= 0 and text.find("#", pos, brace) < 0 and text.find('"', pos, brace) < 0:
            close: Optional[re.Match[str]] = _CLOSE.search(text, brace)  # no comment or string before it
        else:
            close = _CLOSE.search(text, pos)
            while close is not None and close.group().startswith("#"):
                close = _CLOSE.search(text, close.end())
        if close is None or close.group() == '"':
            end = len(text) if close is None else close.start()
            if end - pos >= floor:
                bad = _first_bad(text, pos, end)[1]
                raise Irregular(found, m.start(), pos, end if bad is None else bad)
            continue
        end = close.start()
        if end - pos < floor:
            pos = end + 1  # short: lark reads it as written, and whatever it holds (no string: `_CLOSE`)
            continue
        block = EdgeList(text, m.start(), pos, end)
        body = text[pos:end]
        if "#" in body:
            body = _COMMENTS.sub("", body)
        if not _REGULAR.fullmatch(body) or body.translate(_ZEROS).find(_LONG) >= 0:
            pairs, bad = _first_bad(text, pos, end)
            if bad is not None:
                raise Irregular(found, m.start(), pos, bad)
            block.irregular = pairs
        found.append(block)
        pos = end + 1


class Irregular(Exception):
    """A list body that is not pairs: lark is to tell the error at `bad` (after blanking the pairs before it)."""

    def __init__(self, found: list[EdgeList], keyword: int, start: int, bad: int):
        super().__init__(keyword, start, bad)
        self.found, self.keyword, self.start, self.bad = found, keyword, start, bad


def _first_bad(text: str, start: int, end: int) -> tuple[list[tuple[Number, Number]], Optional[int]]:
    """The pairs of a body as tokens, and the offset of the first token the grammar does not allow
    there (None when every token fits). The states follow the grammar's
    `"{" _NL* edge (_NL* "," _NL* edge)* _NL* "}"` with `edge: signed_int "->" signed_int`."""
    pairs: list[tuple[Number, Number]] = []
    state = "edge"  # edge | arrow | target | after (a pair just ended) | next (after a comma)
    minus: Optional[int] = None
    source: Optional[Number] = None
    for m in _TOKEN.finditer(text, start, end):
        kind = m.lastgroup
        if kind == "skip":
            continue
        at = m.start()
        if kind == "nl":
            if state in ("edge", "after", "next") and minus is None:
                continue
            return pairs, at
        if state in ("edge", "next", "target"):
            if kind == "minus" and minus is None:
                minus = at
                continue
            if kind in ("int", "name"):
                number = Number(minus, m.group(), "INT" if kind == "int" else "NAME", at)
                minus = None
                if state == "target":
                    assert source is not None
                    pairs.append((source, number))
                    state = "after"
                else:
                    source, state = number, "arrow"
                continue
            return pairs, at
        if state == "arrow":
            if kind == "arrow":
                state = "target"
                continue
            return pairs, at
        if state == "after" and kind == "comma":
            state = "next"
            continue
        return pairs, at
    if state != "after":
        return pairs, end  # `}` where a pair or its rest was due (or the end of the file)
    return pairs, None


def _first_pair(text: str, start: int, end: int) -> tuple[Number, Number]:
    """The first pair of a list whose body has at least one (as `_first_bad` read it)."""
    significant: list[Any] = []
    for m in _TOKEN.finditer(text, start, end):
        if m.lastgroup in ("int", "name"):
            significant.append(Number(None, m.group(), "INT", m.start()))
            if len(significant) == 2:
                break
    return significant[0], significant[1]


def blank_before(text: str, block_start: int, bad: int) -> str:
    """The file with the list's pairs before the one holding `bad` blanked out, keeping the line and
    column of everything from that pair on: what lark needs to tell the error at `bad`."""
    pairs, _ = _first_bad(text, block_start, bad)
    if len(pairs) < 2:
        return text
    # keep the last complete pair before `bad` (lark's state after `{ pair` is its state after `{ p, ..., pair`)
    keep = pairs[-1][0]
    cut = keep.minus if keep.minus is not None else keep.at
    return text[:block_start] + _filler(text, block_start, cut) + text[cut:]


def _filler(text: str, start: int, end: int) -> str:
    """Blanks in place of text[start:end] that leave text[end:] at the same line and column: the line
    ends first (one _NL token for all of them), then spaces up to the column."""
    lines = text.count("\n", start, end)
    if not lines:
        return " " * (end - start)
    return "\n" * lines + " " * (end - text.rfind("\n", start, end) - 1)


def placeholder_text(text: str, lists: list[EdgeList]) -> str:
    """The file as lark is to read it: each list cut to its first pair as written, the rest blanked
    with the lines and columns after it kept."""
    if not lists:
        return text
    out: list[str] = []
    pos = 0
    for block in lists:
        first = _first_pair(text, block.start, block.end)[1]
        first_end = first.at + len(first.text)
        out.append(text[pos:first_end])
        out.append(_filler(text, first_end, block.end))
        pos = block.end
    out.append(text[pos:])
    return "".join(out)


def check_sizes(text: str, lists: list[EdgeList]) -> None:
    """The file outside its lists within MAX_SOURCE_BYTES, the lists within MAX_EDGE_LIST_BYTES."""
    total = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
    listed = sum(block.body_bytes for block in lists)
    if total - listed > MAX_SOURCE_BYTES:
        more = (f" outside its `edges {{...}}` lists ({MAX_EDGE_LIST_BYTES} bytes more are allowed in them)"
                if lists else "")
        raise UapError(f"the file is larger than {MAX_SOURCE_BYTES} bytes{more}", 1, 1)
    if listed > MAX_EDGE_LIST_BYTES:
        line, col = line_col(text, lists[0].keyword)
        raise UapError(f"the `edges {{...}}` lists of the file are larger than {MAX_EDGE_LIST_BYTES} bytes "
                       f"in all ({listed} bytes)", line, col)


def located(text: str, offset: int) -> Any:
    """A position object (line, column) for an offset, as parse._err reads tokens and metas."""
    line, col = line_col(text, offset)

    class _At:
        pass
    at = _At()
    at.line, at.column, at.end_line, at.end_column = line, col, line, col  # type: ignore[attr-defined]
    return at


@contextmanager
def no_collection() -> Iterator[None]:
    """The cyclic garbage collector paused (hundreds of thousands of small tuples, none in a cycle,
    would otherwise start a collection every 700 of them), then restored as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
