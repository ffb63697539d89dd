"""The command line, through subprocesses (`python -m uapcheck`): exit codes, stdin, directories,
several files, colour, the JSON contract, --version/--explain, and snapshots of two reports.

Each subprocess costs about a second, so runs are shared through module-level fixtures, and runs
that can take several files do.

Snapshots live in tests/snapshots/ (tests/snapshot.py: a changed one is written as NAME.new for review).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import uapcheck
import clirun
from clirun import REPO
from snapshot import compare_snapshot


def env(**extra: str) -> dict:
    """clirun's environment (terminal variables set explicitly), with a colour-capable TERM: the
    colour tests switch colour on and off through NO_COLOR and --color alone."""
    return clirun.env(**{"TERM": "xterm-256color", **extra})


def run(*args: str, stdin: bytes | None = None, environ: dict | None = None, timeout: float = 120):
    return subprocess.run([sys.executable, "-m", "uapcheck", *args], input=stdin, capture_output=True,
                          cwd=REPO, env=environ or env(), timeout=timeout)


def out(p) -> str:
    return p.stdout.decode("utf-8")


def err(p) -> str:
    return p.stderr.decode("utf-8")


SOFTMAX_SRC = (REPO / "catalog" / "softmax.uap").read_text("utf-8")
KERNEL_ONLY = "attention { kernel k(x, y) = %s }\n"
EXPECT_FAILS = KERNEL_ONLY % "exp(x . y)" + "expect not-uap\n"
FFN_IDENTITY = KERNEL_ONLY % "exp(x . y)" + "ffn identity\n"
POLYNOMIAL = KERNEL_ONLY % "(x . y)^2 + 1"
SYNTAX_ERROR = KERNEL_ONLY % "exp(x . y"
HEADLINE = "UAP · G = S_n · 1 attention layer"


# ---------------------------------------------------------------------------------------------
# Shared runs

@pytest.fixture(scope="module")
def softmax_text():
    return run("catalog/softmax.uap", environ=env(COLUMNS="100"))


@pytest.fixture(scope="module")
def rbf_text():
    return run("catalog/rbf.uap", environ=env(COLUMNS="100"))


@pytest.fixture(scope="module")
def catalog_json():
    """softmax and rbf in one JSON run: one line per file."""
    return run("--format", "json", "catalog/softmax.uap", "catalog/rbf.uap")


@pytest.fixture(scope="module")
def catalog_objs(catalog_json):
    lines = out(catalog_json).splitlines()
    assert len(lines) == 2, out(catalog_json)
    return {"softmax": json.loads(lines[0]), "rbf": json.loads(lines[1])}


@pytest.fixture(scope="module")
def variant_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("variants")
    files = {}
    for name, src in (("expect_fails", EXPECT_FAILS), ("ffn_identity", FFN_IDENTITY), ("polynomial", POLYNOMIAL),
                      ("syntax_error", SYNTAX_ERROR), ("softmax", SOFTMAX_SRC)):
        f = d / f"{name}.uap"
        f.write_text(src, "utf-8")
        files[name] = str(f)
    return files


@pytest.fixture(scope="module")
def variants_json(variant_files):
    """expect_fails (exit 1), ffn_identity and polynomial (no expect: exit 0) in one JSON run."""
    p = run("--format", "json", variant_files["expect_fails"], variant_files["ffn_identity"],
            variant_files["polynomial"])
    objs = [json.loads(l) for l in out(p).splitlines()]
    return p, dict(zip(("expect_fails", "ffn_identity", "polynomial"), objs)), len(objs)


def step(obj: dict, rule: str) -> dict:
    found = [s for s in obj["steps"] if s["rule"] == rule]
    assert found, f"no {rule} step in {[s['rule'] for s in obj['steps']]}"
    return found[0]


# ---------------------------------------------------------------------------------------------
# Verdicts and exit codes

def test_softmax_is_uap(softmax_text):
    assert softmax_text.returncode == 0, err(softmax_text)
    assert err(softmax_text) == ""
    assert HEADLINE in out(softmax_text)
    assert "expect uap group S_n layers 1: holds" in out(softmax_text)
    assert out(softmax_text).startswith("catalog/softmax.uap · Transformer")


def test_rbf_is_uap(rbf_text):
    assert rbf_text.returncode == 0, err(rbf_text)
    assert err(rbf_text) == ""
    assert HEADLINE in out(rbf_text)
    assert out(rbf_text).startswith("catalog/rbf.uap · RBF attention")


def test_failing_expect_exits_1(variants_json):
    p, objs, n = variants_json
    assert n == 3
    assert p.returncode == 1, err(p)  # the worst of 1, 0, 0, with the failing file first
    assert "Traceback" not in err(p)
    e = objs["expect_fails"]["expect"]
    assert e["holds"] is False and e["text"] == "not-uap" and e["reason"]
    assert objs["expect_fails"]["verdict"] == "UAP"


def test_ffn_identity_is_inconclusive_by_definition_2(variants_json):
    _, objs, _ = variants_json
    obj = objs["ffn_identity"]
    assert obj["verdict"] == "INCONCLUSIVE"
    assert obj["group"] is None and obj["expect"] is None
    ffn = step(obj, "FFN-DEF2")
    assert ffn["status"] == "refuted"
    assert "Definition 2" in ffn["cite"]
    verdict = obj["steps"][-1]
    assert verdict["rule"] == "VERDICT-T1" and verdict["status"] != "proved"
    assert ffn["id"] in verdict["premises"]


def test_polynomial_kernel_is_not_uap(variants_json):
    _, objs, _ = variants_json
    obj = objs["polynomial"]
    assert obj["verdict"] == "INCONCLUSIVE"
    assert obj["group"] is None
    assert obj["steps"][-1]["rule"] == "VERDICT-T1" and obj["steps"][-1]["status"] != "proved"


def test_stdin():
    p = run("-", stdin=SOFTMAX_SRC.encode("utf-8"))
    assert p.returncode == 0, err(p)
    assert HEADLINE in out(p)
    assert out(p).startswith("<stdin> · Transformer")


def test_directory(tmp_path):
    (tmp_path / "b_softmax.uap").write_text(SOFTMAX_SRC, "utf-8")
    (tmp_path / "a_rbf.uap").write_text((REPO / "catalog" / "rbf.uap").read_text("utf-8"), "utf-8")
    (tmp_path / "notes.txt").write_text("not a .uap file: attention {", "utf-8")
    p = run("--format", "json", str(tmp_path))
    assert p.returncode == 0, err(p)
    objs = [json.loads(l) for l in out(p).splitlines()]
    assert [Path(o["file"]).name for o in objs] == ["a_rbf.uap", "b_softmax.uap"]
    assert [o["architecture"] for o in objs] == ["RBF attention", "Transformer"]
    assert all(o["verdict"] == "UAP" for o in objs)


def test_empty_directory(tmp_path):
    p = run(str(tmp_path))
    assert p.returncode == 2
    assert "no .uap files" in err(p) and "Traceback" not in err(p)


def test_several_files_exit_with_the_worst(variant_files):
    # 0, 2, 1: the worst is neither the first nor the last
    p = run(variant_files["softmax"], variant_files["syntax_error"], variant_files["expect_fails"])
    assert p.returncode == 2
    assert "Traceback" not in err(p)
    text = out(p)
    assert text.startswith(variant_files["softmax"] + " · Transformer")
    first, second = text.split("\n" + variant_files["expect_fails"] + " · ")
    assert HEADLINE in first and "expect uap group S_n layers 1: holds" in first
    assert HEADLINE in second and "expect not-uap: FAILS" in second
    assert err(p).startswith(variant_files["syntax_error"] + ":1:")
    reports, summary = text.split("\n3 files", 1)
    assert variant_files["syntax_error"] not in reports
    # The summary counts the verdicts, lists the failed expect and the file with an error.
    assert "1 failed expect:" in summary and variant_files["expect_fails"] + ": expected NOT-UAP" in summary
    assert "1 file with errors:" in summary and variant_files["syntax_error"] in summary


def test_short_prints_one_line_per_file_then_the_summary(variant_files):
    p = run("--short", variant_files["softmax"], variant_files["expect_fails"])
    lines = out(p).splitlines()
    assert p.returncode == 1
    assert lines[0] == variant_files["softmax"] + ": " + HEADLINE
    assert lines[1].startswith(variant_files["expect_fails"] + ": UAP · G = S_n · 1 attention layer  [expect FAILS: ")
    assert "1 failed expect:" in out(p)


def test_default_text_is_compact_and_full_adds_the_evidence(softmax_text):
    compact = out(softmax_text)
    full = out(run("--full", "catalog/softmax.uap"))
    assert len(compact.splitlines()) <= 25 < len(full.splitlines())
    assert compact.index("verdict") < compact.index("[s1]")   # the verdict comes first
    assert "cite:" not in compact and "cite: the paper's Definition 2" in full and "Cheng et al. 2025" in full
    # Evidence is never cut in the full report (no truncated value, no ellipsis of an overflowing line).
    assert "…" not in full and not any(line.rstrip().endswith("...") for line in full.splitlines())


def test_short_and_full_exclude_each_other():
    p = run("--short", "--full", "catalog/softmax.uap")
    assert p.returncode == 2 and "not allowed with" in err(p)


# ---------------------------------------------------------------------------------------------
# JSON contract

STEP_KEYS = {"id", "rule", "claim", "status", "premises", "evidence", "cite"}
TOP_KEYS = {"schema", "file", "architecture", "verdict", "group", "layers", "expect", "steps"}


def test_json_is_one_object_per_line(catalog_json):
    assert catalog_json.returncode == 0, err(catalog_json)
    assert err(catalog_json) == ""
    assert len(out(catalog_json).splitlines()) == 2


@pytest.mark.parametrize("name, path, architecture", [("softmax", "catalog/softmax.uap", "Transformer"),
                                                      ("rbf", "catalog/rbf.uap", "RBF attention")])
def test_json_contract(catalog_objs, name, path, architecture):
    obj = catalog_objs[name]
    assert TOP_KEYS <= set(obj)
    assert obj["schema"] == "uapcheck/1"
    assert obj["file"] == path
    assert obj["architecture"] == architecture
    assert obj["verdict"] == "UAP"
    assert obj["group"]["name"] == "S_n"
    assert obj["layers"] == 1
    assert obj["expect"] == {"text": "uap group S_n layers 1", "holds": True, "reason": None}
    steps = obj["steps"]
    assert steps and isinstance(steps, list)
    seen = set()
    for s in steps:
        assert STEP_KEYS <= set(s), s
        assert isinstance(s["id"], str) and s["id"] not in seen
        assert s["status"] in ("proved", "refuted", "undecided")
        assert isinstance(s["rule"], str) and re.fullmatch(r"[A-Z0-9]+(-[A-Z0-9]+)+", s["rule"])
        assert isinstance(s["claim"], str) and s["claim"]
        assert isinstance(s["cite"], str) and s["cite"]
        assert isinstance(s["evidence"], dict)
        assert all(p in seen for p in s["premises"]), f"{s['id']} cites a later or unknown step"
        seen.add(s["id"])
    last = steps[-1]
    assert last["rule"] == "VERDICT-T1" and last["status"] == "proved"
    # every other step is (transitively) a premise of the verdict
    used, todo = set(), [last["id"]]
    by_id = {s["id"]: s for s in steps}
    while todo:
        i = todo.pop()
        if i not in used:
            used.add(i)
            todo.extend(by_id[i]["premises"])
    assert used == seen
    assert step(obj, "FFN-DEF2")["status"] == "proved"


# ---------------------------------------------------------------------------------------------
# Colour

def has_ansi(text: str) -> bool:
    return "\x1b[" in text


def test_no_color_env(softmax_text):
    assert not has_ansi(out(softmax_text))


@pytest.fixture(scope="module")
def forced_color():
    return run("catalog/softmax.uap", environ=env(NO_COLOR=None, FORCE_COLOR="1"))


def test_forced_color_has_escapes(forced_color):
    # the control: without NO_COLOR a forced terminal does get colour, so the tests below can fail
    assert forced_color.returncode == 0
    assert has_ansi(out(forced_color))


def test_no_color_beats_a_forced_terminal():
    p = run("catalog/softmax.uap", environ=env(NO_COLOR="1", FORCE_COLOR="1"))
    assert p.returncode == 0
    assert HEADLINE in out(p) and not has_ansi(out(p))


def test_color_never():
    p = run("--color", "never", "catalog/softmax.uap", environ=env(NO_COLOR=None, FORCE_COLOR="1"))
    assert p.returncode == 0
    assert HEADLINE in out(p) and not has_ansi(out(p))


def test_color_always_on_a_dumb_terminal():
    p = run("--color", "always", "catalog/softmax.uap", environ=env(NO_COLOR=None, TERM="dumb"))
    assert p.returncode == 0
    assert has_ansi(out(p))


# ---------------------------------------------------------------------------------------------
# Options and usage errors

def test_version():
    p = run("--version")
    assert p.returncode == 0
    assert out(p).strip() == f"uapcheck {uapcheck.__version__}"


def test_explain_known_rule():
    p = run("--explain", "LIM-EXPPOLY")
    assert p.returncode == 0, err(p)
    assert "LIM-EXPPOLY" in out(p)
    assert "Traceback" not in err(p)


def test_explain_unknown_rule():
    p = run("--explain", "NOPE")
    assert p.returncode == 2
    assert "unknown rule" in err(p) and "NOPE" in err(p)
    assert "LIM-EXPPOLY" in err(p)  # lists the known rules
    assert "Traceback" not in err(p)


def test_missing_file():
    p = run("does/not/exist.uap")
    assert p.returncode == 2
    assert out(p) == ""
    assert err(p).startswith("does/not/exist.uap: error: cannot read the file")
    assert "Traceback" not in err(p)


def test_no_arguments():
    p = run()
    assert p.returncode == 2
    assert "usage" in err(p)
    assert "Traceback" not in err(p)


def test_unknown_option():
    p = run("--frobnicate", "catalog/softmax.uap")
    assert p.returncode == 2
    assert "unrecognized arguments" in err(p)


# ---------------------------------------------------------------------------------------------
# Snapshots

def test_snapshot_softmax_text(softmax_text):
    assert softmax_text.returncode == 0
    compare_snapshot("softmax.txt", out(softmax_text))


def test_snapshot_rbf_text(rbf_text):
    assert rbf_text.returncode == 0
    compare_snapshot("rbf.txt", out(rbf_text))


def test_snapshot_softmax_json(catalog_json):
    compare_snapshot("softmax.json", out(catalog_json).splitlines()[0] + "\n")


def test_snapshot_rbf_json(catalog_json):
    compare_snapshot("rbf.json", out(catalog_json).splitlines()[1] + "\n")
