"""Every UAP catalog file whose count is not stated least at every length is named, with the reason, in
docs/theory.md §13 L2 (issue 9: "in the catalog every UAP derivation says `least`; any exception is listed in §13
with why"). Read from the golden JSON copies, which tests/test_catalog_json.py keeps byte-identical to the output."""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _l2_paragraph() -> str:
    text = (ROOT / "docs" / "theory.md").read_text("utf-8")
    start = text.index("- **L2. Layer counts that are sufficient but not shown least.**")
    end = text.index("- **L2′.", start)
    return text[start:end]


def _not_least_everywhere() -> list[str]:
    names = []
    for path in sorted((ROOT / "tests" / "golden" / "catalog_json").glob("*.json")):
        result = json.loads(path.read_text("utf-8"))
        if result.get("verdict") == "UAP" and not result.get("least"):
            names.append(path.stem)
    return names


def test_the_golden_copies_hold_such_files():
    assert "sigmoid_plain" in _not_least_everywhere()  # the reading below finds what it looks for


def test_each_uap_file_not_least_everywhere_is_listed_in_section_13():
    paragraph = _l2_paragraph()
    missing = [name for name in _not_least_everywhere() if f"`{name}`" not in paragraph]
    assert not missing, f"UAP catalog files not least everywhere and not named in §13 L2: {missing}"
