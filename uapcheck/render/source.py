"""The source lines a report quotes: each attention head's own lines of the `.uap` file.

Reports show the spec they judge next to the verdict. The lines are highlighted by the language's
Pygments lexer (uapcheck/lexer.py): as ANSI colours in the terminal (through rich), as inline-styled HTML
in a notebook, and as LaTeX commands in a paper. Markdown quotes them in a fenced `uap` block.
Pygments and the lexer are imported only when a quote is printed.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Quote:
    """Consecutive lines of the file: the first line's number and the text (no trailing newline)."""
    first_line: int
    text: str


def head_quotes(spec) -> list[Quote]:
    """The lines of each attention head, in file order, each block once (heads on shared lines merge)."""
    lines = spec.source.split("\n") if spec.source else []
    spans = sorted({(h.loc.line, max(h.loc.end_line, h.loc.line)) for h in spec.heads if h.loc.line > 0})
    merged: list[tuple[int, int]] = []
    for first, last in spans:
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(last, merged[-1][1]))
        else:
            merged.append((first, last))
    quotes = []
    for first, last in merged:
        text = "\n".join(line.rstrip() for line in lines[first - 1:last]).rstrip()
        if text:
            quotes.append(Quote(first, text))
    return quotes


def _lexer():
    from ..lexer import UapLexer
    return UapLexer()


def terminal(quote: Quote):
    """A rich renderable: the lines with their numbers, highlighted (plain when colour is off)."""
    from rich.syntax import Syntax
    return Syntax(quote.text, _lexer(), line_numbers=True, start_line=quote.first_line,
                  theme="ansi_dark", background_color="default", word_wrap=True)


def html(text: str, first_line: int = 1) -> str:
    """Lines of a `.uap` file as a self-contained, numbered `<pre>` block with inline styles."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    body = highlight(text, _lexer(), HtmlFormatter(noclasses=True, nowrap=True, nobackground=True))
    lines = body.rstrip("\n").split("\n")
    width = len(str(first_line + len(lines) - 1))
    numbered = [f'<span style="color: #888">{str(n).rjust(width)}</span>  {line}'
                for n, line in enumerate(lines, first_line)]
    return "<pre>" + "\n".join(numbered) + "</pre>\n"


def markdown(quote: Quote) -> list[str]:
    """A fenced `uap` block (the first line's number in the fence's info string, for the HTML view)."""
    fence = "~~~" if "```" in quote.text else "```"
    return [f"{fence}uap {quote.first_line}", quote.text, fence]


def latex(quote: Quote, escape) -> list[str]:
    """The lines as LaTeX (one `\\texttt` line each): keywords slanted, comments italic.

    `escape` is the LaTeX printer's text escape, so Unicode in the source (θ, ·, ∩) prints as in the file.
    """
    from pygments.token import Comment, Keyword
    lines: list[list[str]] = [[]]
    for kind, value in _lexer().get_tokens(quote.text):
        for i, piece in enumerate(value.split("\n")):
            if i:
                lines.append([])
            if not piece:
                continue
            if piece.isspace():
                lines[-1].append(r"\ " * len(piece.expandtabs(4)))
            elif kind in Keyword:
                lines[-1].append(r"\textsl{" + escape(piece) + "}")
            elif kind in Comment:
                lines[-1].append(r"\textit{" + escape(piece) + "}")
            else:
                lines[-1].append(escape(piece))
    width = len(str(quote.first_line + len(lines) - 1))
    out = []
    for number, parts in enumerate(lines, quote.first_line):
        if not parts and number == quote.first_line + len(lines) - 1:
            continue
        label = str(number).rjust(width).replace(" ", r"\ ")
        out.append(r"\texttt{\footnotesize " + label + r"\ \ " + "".join(parts) + r"}\\")
    return out
