"""What a Result shows in a notebook and in Python: its JSON object, a short repr, Markdown and HTML cells.

Mixed into `derive.Result`; every view is made by an existing printer (the JSON contract, the Markdown
report), so a notebook cell says exactly what the command line says.
"""
from __future__ import annotations

import html


class ResultViews:
    """Notebook and dictionary views of a checked file (mixed into Result)."""

    def to_dict(self) -> dict:
        """The JSON object of `uapcheck --format json` (schema uapcheck/1), as Python data."""
        from .jsonout import result_json
        return result_json(self)

    def summary(self) -> str:
        """The one-line answer, as `uapcheck --short` prints it after the path."""
        from .verdict_lines import headline
        return headline(self)

    def __repr__(self) -> str:
        return f"<uapcheck.Result {self.spec.path}: {self.summary()}>"

    def _repr_markdown_(self) -> str:
        from .markdown import render
        return render(self)

    def _repr_html_(self) -> str:
        try:
            from markdown_it import MarkdownIt
        except ImportError:  # pragma: no cover - markdown-it-py comes with rich
            return f"<pre>{html.escape(self._repr_markdown_())}</pre>"
        return MarkdownIt("commonmark", {"highlight": _highlight}).enable("table").render(self._repr_markdown_())


def _highlight(code: str, lang: str, attrs: str) -> str:
    """Fenced `uap` blocks highlighted by the language's Pygments lexer, numbered from the fence's line."""
    if lang != "uap":
        return ""  # markdown-it's own escaping
    first = int(attrs) if attrs.strip().isdigit() else 1
    from .source import html
    return html(code.rstrip("\n"), first)
