"""`uapcheck --explain RULE-ID`: what a rule checks, why it is sound, and where it comes from."""
from __future__ import annotations

from importlib import resources

from rich.markdown import Markdown


def explain(rule_id: str, console) -> int:
    import sys
    from . import derive  # noqa: F401  (registers every rule)
    from .proof import RULES
    rule_id = rule_id.upper()
    info = RULES.get(rule_id)
    if info is None:
        print(f"uapcheck: error: unknown rule `{rule_id}`; known: {', '.join(sorted(RULES))}", file=sys.stderr)
        return 2
    try:
        page = resources.files("uapcheck").joinpath("rule_docs").joinpath(f"{rule_id}.md").read_text("utf-8")
    except (FileNotFoundError, OSError):
        page = f"# {rule_id}: {info.title}\n\nSource: {info.citation.text}\n\nSee docs/theory.md."
    console.print(Markdown(page + f"\n\nProvenance: {info.citation.display()}\n"))
    return 0
