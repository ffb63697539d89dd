"""Review the snapshots that changed: tests write NAME.new beside tests/snapshots/NAME when the output
differs. Without arguments, print each unified diff; with --accept, move every .new over its snapshot;
with --reject, delete the .new files."""
from __future__ import annotations

import difflib
import sys
from pathlib import Path

SNAPSHOTS = Path(__file__).resolve().parent.parent / "tests" / "snapshots"


def main(argv: list[str]) -> int:
    pending = sorted(SNAPSHOTS.glob("*.new"))
    if not pending:
        print("no pending snapshots")
        return 0
    for new in pending:
        old = new.with_suffix("")
        if "--accept" in argv:
            new.replace(old)
            print(f"accepted {old.name}")
        elif "--reject" in argv:
            new.unlink()
            print(f"rejected {old.name}")
        else:
            before = old.read_text("utf-8").splitlines(keepends=True) if old.exists() else []
            sys.stdout.writelines(difflib.unified_diff(before, new.read_text("utf-8").splitlines(keepends=True),
                                                       str(old), str(new)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
