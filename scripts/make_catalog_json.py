#!/usr/bin/env python3
"""Regenerate the golden copies of the catalog's JSON output (tests/golden/catalog_json/NAME.json).

`uapcheck --format json catalog/NAME.uap` prints one JSON object per file. Its golden copy is that
object indented (one key per line, so a change shows as a readable diff in review). The test
tests/test_catalog_json.py runs the command line on every catalog file and checks two things:
the output is the canonical serialisation of its own value (so no information is lost by
indenting), and its value equals the golden copy. Together these say the output is byte-identical
to the output the golden copy was made from.

A refactoring must leave every golden file untouched. A reviewed change of behaviour (a new rule, a
new catalog file, a different claim) regenerates them with this one command and commits the diff
with the change:

    python scripts/make_catalog_json.py           # rewrite tests/golden/catalog_json/
    python scripts/make_catalog_json.py --check   # exit 1 and name the files that differ
    python scripts/make_catalog_json.py softmax   # only catalog/softmax.uap
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "catalog"
GOLDEN = ROOT / "tests" / "golden" / "catalog_json"
REGENERATE = "python scripts/make_catalog_json.py"


def catalog_files() -> list[Path]:
    return sorted(CATALOG.glob("*.uap"))


def golden_path(uap: Path) -> Path:
    return GOLDEN / (uap.stem + ".json")


def canonical(value) -> str:
    """The serialisation `uapcheck --format json` prints (uapcheck/render/jsonout.py `dumps`)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def indented(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def run_cli(files: list[Path], jobs: int = 1) -> dict[str, str]:
    """{catalog file name: its line of `uapcheck --format json`}, run from the repository root."""
    if not files:
        return {}
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR", "NO_COLOR")}
    env["PYTHONIOENCODING"] = "utf-8"
    cmd = [sys.executable, "-m", "uapcheck", "--format", "json", "--no-cache", "-j", str(jobs),
           *(str(f.relative_to(ROOT)) for f in files)]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, timeout=1800)
    if proc.returncode not in (0, 1):  # 1: an expect line does not hold; still a report
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr.decode('utf-8', 'replace')}")
    lines = proc.stdout.decode("utf-8").splitlines()
    out: dict[str, str] = {}
    for line in lines:
        if not line.strip():
            continue
        name = Path(json.loads(line)["file"]).name
        out[name] = line
    missing = [f.name for f in files if f.name not in out]
    if missing:
        raise RuntimeError(f"no JSON report for {', '.join(missing)}:\n{proc.stderr.decode('utf-8', 'replace')}")
    return out


def differences(name: str, line: str) -> list[str]:
    """Why the line printed for catalog/NAME differs from its golden copy (empty: it does not)."""
    problems = []
    value = json.loads(line)
    if canonical(value) != line:
        problems.append(f"{name}: the output is not canonical JSON (uapcheck/render/jsonout.py changed its "
                        "serialisation); the golden copies can no longer vouch for byte identity")
    golden = golden_path(CATALOG / name)
    want = golden.read_text(encoding="utf-8") if golden.exists() else ""
    got = indented(value)
    if want != got:
        diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(),
                                         f"{golden.relative_to(ROOT)} (committed)", "uapcheck --format json (now)",
                                         lineterm="", n=2))
        shown = diff[:60] + (["... (diff cut)"] if len(diff) > 60 else [])
        problems.append("\n".join([f"{name}: the JSON output differs from its golden copy", *shown]))
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare only; exit 1 if any file differs")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("names", nargs="*", help="catalog file stems (default: the whole catalog)")
    ns = ap.parse_args(argv)
    files = catalog_files()
    if ns.names:
        wanted = {n.removesuffix(".uap") for n in ns.names}
        files = [f for f in files if f.stem in wanted]
    lines = run_cli(files, ns.jobs)
    if ns.check:
        problems = [p for name, line in sorted(lines.items()) for p in differences(name, line)]
        if not ns.names:
            stale = sorted(g.name for g in GOLDEN.glob("*.json") if not (CATALOG / (g.stem + ".uap")).exists())
            problems += [f"{g}: a golden copy without a catalog file" for g in stale]
        for p in problems:
            print(p)
        return 1 if problems else 0
    GOLDEN.mkdir(parents=True, exist_ok=True)
    changed = 0
    for name, line in sorted(lines.items()):
        path = golden_path(CATALOG / name)
        text = indented(json.loads(line))
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed += 1
            print(f"wrote {path.relative_to(ROOT)}")
    if not ns.names:
        for g in sorted(GOLDEN.glob("*.json")):
            if not (CATALOG / (g.stem + ".uap")).exists():
                g.unlink()
                changed += 1
                print(f"removed {g.relative_to(ROOT)}")
    print(f"{changed} golden file(s) changed" if changed else "the golden copies are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
