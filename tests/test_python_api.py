"""The Python API a notebook uses: check, check_file, to_dict, the short repr and the rich cell views."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import uapcheck
from uapcheck.errors import UapError

ROOT = Path(__file__).resolve().parent.parent


def cli_json(path: Path) -> dict:
    run = subprocess.run([sys.executable, "-m", "uapcheck", "--format", "json", str(path)],
                         capture_output=True, text=True, cwd=ROOT)
    return json.loads(run.stdout)


def test_check_file_equals_check_of_the_text():
    path = ROOT / "catalog" / "rbf.uap"
    a = uapcheck.check_file(path)
    b = uapcheck.check(path.read_text(), str(path))
    assert a.to_dict() == b.to_dict()
    assert a.verdict == "UAP" and a.layers == 1


@pytest.mark.parametrize("name", ["softmax.uap", "causal.uap", "bigbird.uap"])
def test_to_dict_is_the_json_output(name):
    path = Path("catalog") / name
    result = uapcheck.check_file(ROOT / path)
    from_api = json.loads(json.dumps(uapcheck.check((ROOT / path).read_text(), str(path)).to_dict()))
    assert from_api == cli_json(path)
    assert result.to_dict()["verdict"] == result.verdict


def test_group_agrees_with_the_json():
    not_uap = uapcheck.check_file(ROOT / "catalog" / "causal.uap")
    assert not_uap.verdict == "NOT-UAP"
    assert not_uap.group is None and not_uap.to_dict()["group"] is None
    uap = uapcheck.check_file(ROOT / "catalog" / "softmax.uap")
    assert uap.group.name == uap.to_dict()["group"]["name"] == "S_n"


def test_repr_is_one_short_line():
    text = repr(uapcheck.check_file(ROOT / "catalog" / "softmax.uap"))
    assert "\n" not in text and len(text) < 200
    assert "UAP" in text and "softmax.uap" in text


def test_notebook_cells_show_the_verdict_and_the_steps():
    result = uapcheck.check_file(ROOT / "catalog" / "softmax.uap")
    md = result._repr_markdown_()
    html = result._repr_html_()
    assert "UAP" in md and "UAP" in html
    assert html.lstrip().startswith("<") and "<script" not in html
    for step in result.to_dict()["steps"]:
        assert step["rule"] in md and step["rule"] in html


def test_check_file_locates_errors_in_the_file(tmp_path):
    bad = tmp_path / "bad.uap"
    bad.write_text("attention {\n  kernel k(x, y) = exp(x . q)\n}\n")
    with pytest.raises(UapError) as info:
        uapcheck.check_file(bad)
    assert info.value.line == 2
