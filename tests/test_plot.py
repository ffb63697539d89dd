"""--plot: the mask, the receptive field growing layer by layer, and the view witness, drawn with matplotlib."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import uapcheck
from uapcheck.render.plot import PlotError, attends_matrix, plot, reach_by_layer

pytest.importorskip("matplotlib")
REPO = Path(__file__).resolve().parents[1]


def test_mask_and_receptive_field_of_a_window():
    spec = uapcheck.check("tokens 8\nattention { kernel k(x, y) = exp(x . y)\n pattern window(1) }\n").spec
    mask = attends_matrix(spec, 8)
    assert mask[3][2] and mask[3][4] and mask[3][3] and not mask[3][5]
    reach = reach_by_layer(mask, 1, 7)
    # Position 1 sees positions 1..m+1 after m layers of a width-1 window.
    assert [sum(row) for row in reach] == [2, 3, 4, 5, 6, 7, 8]


def test_receptive_field_agrees_with_powers_of_the_mask():
    spec = uapcheck.check_file(REPO / "catalog" / "bigbird.uap").spec
    mask = attends_matrix(spec, 64)
    reach = reach_by_layer(mask, 11, 3)
    seen = {11}
    for m in range(3):
        seen = seen | {j for i in seen for j in range(1, 65) if mask[i - 1][j - 1]}
        assert {j for j in range(1, 65) if reach[m][j - 1]} == seen


def test_bigbird_picture_shows_its_view_witness(tmp_path):
    out = tmp_path / "bigbird.svg"
    summary = plot(uapcheck.check_file(REPO / "catalog" / "bigbird.uap"), str(out))
    svg = out.read_text()
    assert "view witness" in summary
    assert svg.startswith("<?xml") and "position 11" in svg and "(3 4)" in svg


def test_large_patterns_are_drawn_smaller_and_say_so(tmp_path):
    text = "tokens 4096\nattention { kernel k(x, y) = exp(x . y)\n pattern window(8) }\n"
    summary = plot(uapcheck.check(text), str(tmp_path / "w.png"))
    assert "drawn at n = 64 (the file has n = 4,096)" in summary
    assert (tmp_path / "w.png").read_bytes()[:4] == b"\x89PNG"


def test_unknown_picture_format_is_refused(tmp_path):
    with pytest.raises(PlotError):
        plot(uapcheck.check_file(REPO / "catalog" / "star.uap"), str(tmp_path / "x.gif"))


def run(*args):
    return subprocess.run([sys.executable, "-m", "uapcheck", *args], capture_output=True, cwd=REPO,
                          env={**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}, timeout=300)


def test_cli_plot(tmp_path):
    out = tmp_path / "star.pdf"
    p = run("--short", "catalog/star.uap", "--plot", str(out))
    assert p.returncode == 0, p.stderr.decode()
    assert out.read_bytes()[:4] == b"%PDF"
    bad = run("catalog/star.uap", "--plot", str(tmp_path / "x.txt"))
    assert bad.returncode == 2 and b"Traceback" not in bad.stderr and b".svg, .png or .pdf" in bad.stderr
    two = run("catalog/star.uap", "catalog/softmax.uap", "--plot", str(out))
    assert two.returncode == 2 and b"one file" in two.stderr
