"""The summary that ends a run over several files: counts per verdict, failed expects, errors."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

VERDICTS = ("UAP", "NOT-UAP", "INCONCLUSIVE", "ILL-POSED")


def summary_rows(tally) -> list[tuple[str, int]]:
    counts = {v: 0 for v in VERDICTS}
    for _, result in tally.results:
        counts[result.verdict] += 1
    rows = [(v, counts[v]) for v in VERDICTS]
    rows.append(("error", len(tally.errors)))
    return rows


def failed_expects(tally) -> list[tuple[str, str]]:
    return [(path, result.expect_reason) for path, result in tally.results if result.expect_holds is False]


def print_summary(tally, console: Console) -> None:
    total = len(tally.results) + len(tally.errors)
    table = Table(title=f"{total} files", title_justify="left", show_header=True, header_style="bold")
    table.add_column("verdict")
    table.add_column("files", justify="right")
    for name, count in summary_rows(tally):
        if count:
            table.add_row(name, str(count))
    console.print()
    console.print(table)
    failed = failed_expects(tally)
    if failed:
        console.print(Text(f"{len(failed)} failed expect{'s' if len(failed) != 1 else ''}:", style="bold red"))
        for path, reason in failed:
            console.print(Text(f"  {path}: {reason}"), soft_wrap=True)
    else:
        console.print(Text("every expect holds", style="green"))
    if tally.errors:
        console.print(Text(f"{len(tally.errors)} file{'s' if len(tally.errors) != 1 else ''} with errors:",
                           style="bold red"))
        for path in tally.errors:
            console.print(Text(f"  {path}"), soft_wrap=True)
