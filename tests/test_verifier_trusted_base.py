"""docs/theory.md §18.2 lists the family theorems the verifier rests on: exactly those its modules name (each module
restates the theorems it names in its own code, §18.4), so the list stays true as modules are added."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _named_by_the_verifier() -> set[int]:
    found: set[int] = set()
    for path in (ROOT / "uapcheck" / "verifier").glob("*.py"):
        text = re.sub(r"noqa[^\n]*", "", path.read_text("utf-8"))  # linter codes (F401), not theorems
        found |= {int(x) for x in re.findall(r"\bF(\d{1,3})\b", text)}
    return found


def _listed_in_theory() -> set[int]:
    text = (ROOT / "docs" / "theory.md").read_text("utf-8")
    section = text[text.index("### 18.2 What the verifier trusts"):text.index("### 18.3 ")]
    listed = section[section.index("the family theorems"):section.index("(§11.11")]
    out: set[int] = set()
    for a, b in re.findall(r"F(\d+)(?:–F(\d+))?", listed):
        out |= set(range(int(a), int(b or a) + 1))
    return out


def test_the_trusted_base_lists_every_family_theorem_the_verifier_restates():
    named, listed = _named_by_the_verifier(), _listed_in_theory()
    assert named == listed, (f"named by verifier modules, not listed in §18.2: {sorted(named - listed)}; listed, not "
                             f"named: {sorted(listed - named)}")
