"""Check that a speed change changed no output: run the catalog through this tree and a base
revision, in every output format, and compare the bytes.

    python bench/compare_outputs.py [BASE_REF] [--skip catalog/F.uap ...]     (default: main)

Both trees read the same inputs (the catalog files that are identical in both), each tree in one
process over all files, as a batch run does. The current tree also runs the files in reverse
order, file by file in JSON, so that a cache carrying something from one file to the next would
show; and the result cache is filled and read (JSON and text) against the derivations' output. Every
other run has every cache off. Exit status 0 when every output is byte-identical, 1 otherwise (the differing files are
listed). Only the revision's package is used from it; both run on this interpreter.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUNNER = r"""
import sys
tree, argv = sys.argv[1], sys.argv[2:]
sys.path.insert(0, tree)
import uapcheck
assert uapcheck.__file__.startswith(tree), (uapcheck.__file__, tree)
from uapcheck.cli import main
sys.exit(main(argv))
"""

FORMATS = {"json": ["--format", "json"], "text": ["--color", "never"], "markdown": ["--format", "markdown"],
           "latex": ["--format", "latex"]}


def _export(ref: str, dest: Path) -> None:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "uapcheck", "grammars", "catalog"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    # The installed layout maps grammars/ to uapcheck.grammars; give the plain tree the same.
    shutil.copytree(dest / "grammars", dest / "uapcheck" / "grammars")
    (dest / "uapcheck" / "grammars" / "__init__.py").write_text("")


def _run(tree: Path, args: list[str], files: list[str], cache: str = "") -> tuple[int, str, str]:
    """Every cache off by default (UAPCHECK_CACHE_DIR=""): both trees derive every report."""
    env = {**os.environ, "UAPCHECK_CACHE_DIR": cache}
    proc = subprocess.run([sys.executable, "-c", RUNNER, str(tree), *args, *files], capture_output=True,
                          text=True, cwd=ROOT, timeout=1800, env=env)
    return proc.returncode, proc.stdout, proc.stderr


def _json_by_file(stdout: str) -> dict[str, str]:
    out = {}
    for line in stdout.splitlines():
        out[json.loads(line)["file"]] = line
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base", nargs="?", default="main")
    ap.add_argument("--skip", nargs="*", default=[], metavar="FILE",
                    help="catalog files whose derivation changed on purpose (still checked for order)")
    ns = ap.parse_args()
    failures = []
    with tempfile.TemporaryDirectory(prefix="uapcheck-base-") as tmp:
        base = Path(tmp)
        _export(ns.base, base)
        files = sorted(f"catalog/{p.name}" for p in (ROOT / "catalog").glob("*.uap")
                       if (base / "catalog" / p.name).exists()
                       and (base / "catalog" / p.name).read_bytes() == p.read_bytes())
        compared = [f for f in files if f not in set(ns.skip)]
        for name, args in FORMATS.items():
            want, got = _run(base, args, compared), _run(ROOT, args, compared)
            same = want == got
            print(f"{name:9s} {len(compared)} files: {'identical' if same else 'DIFFERENT'}")
            if not same:
                failures.append(name)
                if name == "json":
                    a, b = _json_by_file(want[1]), _json_by_file(got[1])
                    for f in compared:
                        if a.get(f) != b.get(f):
                            print(f"  differs: {f}")
        code, out, err = _run(ROOT, FORMATS["json"], files[::-1])
        forward = _json_by_file(_run(ROOT, FORMATS["json"], files)[1])
        backward = _json_by_file(out)
        moved = [f for f in files if forward.get(f) != backward.get(f)]
        print(f"reversed  {len(files)} files: {'identical' if not moved else 'DIFFERENT'} per file")
        for f in moved:
            print(f"  depends on the order: {f}")
        if moved:
            failures.append("order")
        # the result cache: a run that fills it and a run of hits print what the derivations print
        cache = tempfile.mkdtemp(prefix="uapcheck-compare-cache-")
        for name in ("json", "text"):
            cold = _run(ROOT, FORMATS[name], files)
            filled, hits = (_run(ROOT, FORMATS[name], files, cache) for _ in range(2))
            same = cold == filled == hits
            print(f"cached    {len(files)} files, {name}: {'identical' if same else 'DIFFERENT'}")
            if not same:
                failures.append(f"cached {name}")
        shutil.rmtree(cache, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
