"""The catalog's `uapcheck --format json` output is byte-identical to its committed golden copies.

A refactoring must not change what uapcheck prints; this test is how a move shows it did not. The
golden copies (tests/golden/catalog_json/NAME.json) change only with a reviewed change of behaviour:
regenerate them with `python scripts/make_catalog_json.py` and commit the diff with the change.
"""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "make_catalog_json.py"


def _load_script():
    spec = importlib.util.spec_from_file_location("make_catalog_json", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


mk = _load_script()
FILES = mk.catalog_files()


@pytest.fixture(scope="module")
def printed():
    return mk.run_cli(FILES, jobs=2)


def test_every_catalog_file_has_a_golden_copy_and_no_other():
    golden = {p.stem for p in mk.GOLDEN.glob("*.json")}
    catalog = {f.stem for f in FILES}
    assert golden == catalog, (
        f"golden copies without a catalog file: {sorted(golden - catalog)}; catalog files without a golden "
        f"copy: {sorted(catalog - golden)}. Regenerate with `{mk.REGENERATE}` and commit the result.")


@pytest.mark.parametrize("uap", FILES, ids=[f.stem for f in FILES])
def test_json_output_is_byte_identical_to_the_golden_copy(uap, printed):
    problems = mk.differences(uap.name, printed[uap.name])
    if problems:
        pytest.fail("\n".join(problems) + f"\n\nIf this change of behaviour is intended and reviewed, regenerate "
                    f"the golden copies with `{mk.REGENERATE}` (or `{mk.REGENERATE} {uap.stem}`) and commit "
                    "the diff with the change; a refactoring must leave them untouched.", pytrace=False)


def test_the_comparison_detects_a_one_byte_change(printed):
    """The check is not vacuous: a changed claim or a non-canonical serialisation is caught."""
    name = FILES[0].name
    value = json.loads(printed[name])
    value["verdict"] = value.get("verdict", "") + "x"
    assert mk.differences(name, mk.canonical(value))
    spaced = json.dumps(json.loads(printed[name]), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert any("not canonical" in p for p in mk.differences(name, spaced))
