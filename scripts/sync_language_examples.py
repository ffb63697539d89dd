"""Copy the normative examples of LANGUAGE.md (kept beside the repository, in ../shared/) into
tests/language_examples/, so the language tests run in any checkout. `--check` exits 1 when the copy
differs from LANGUAGE.md (and 0, saying so, when LANGUAGE.md is not beside the repository).

    python scripts/sync_language_examples.py          # copy
    python scripts/sync_language_examples.py --check  # is the copy up to date?
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE_MD = ROOT.parent / "shared" / "LANGUAGE.md"
TARGET = ROOT / "tests" / "language_examples"


def examples(text: str) -> dict[str, str]:
    """The fenced blocks whose first line is `# NAME.uap`, by name."""
    out = {}
    for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M):
        first = block.splitlines()[0] if block.strip() else ""
        m = re.fullmatch(r"#\s*(\S+\.uap)\s*", first)
        if m:
            out[m.group(1)] = block
    return out


def main(argv: list[str]) -> int:
    if not LANGUAGE_MD.is_file():
        print(f"{LANGUAGE_MD} is not beside the repository: nothing to compare")
        return 0
    wanted = examples(LANGUAGE_MD.read_text("utf-8"))
    if "--check" in argv:
        have = {p.name: p.read_text("utf-8") for p in TARGET.glob("*.uap")}
        if have != wanted:
            print(f"{TARGET} differs from {LANGUAGE_MD}: run python scripts/sync_language_examples.py",
                  file=sys.stderr)
            return 1
        return 0
    TARGET.mkdir(parents=True, exist_ok=True)
    for old in TARGET.glob("*.uap"):
        if old.name not in wanted:
            old.unlink()
    for name, body in wanted.items():
        (TARGET / name).write_text(body, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
