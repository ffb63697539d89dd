"""Audit of real sizes (issue 9 §4): random unions of structured patterns at large concrete n.

Draws random patterns (one or two heads, up to three parts per head, small parameters) from the
structured kinds (window, cyclic window, offsets, cyclic offsets, dilated, strided, blocks, global,
star), runs each with `uapcheck --format json --no-suggest` at n = 65,536 and 1,048,576 in its own
process (CPU time of the process and its worker, and wall time), and lists every case above 3×B (B = `python -c "import
sympy"`, measured in the same run) or whose verdict is INCONCLUSIVE. Not a test: a list to work from.

    python bench/audit_sizes.py [--cases 40] [--seed 0] [--sizes 65536,1048576] [--budget 60] [--timeout 90]
    python bench/audit_sizes.py --pattern "blocks(8) + global(2)" --sizes 1048576

`--pattern` audits the given patterns (repeatable; `|` separates heads) instead of random ones.
`--budget SECONDS` is the checker's own CPU budget per run (`uapcheck --budget`: a run past it ends INCONCLUSIVE,
naming the step); `--timeout SECONDS` is the wall-clock time after which the audit kills a run that is still going
(reported as TIMEOUT), by default the budget + 30 s.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
B_CMD = [PY, "-c", "import sympy"]
TARGET = 3.0  # × B


def _part(rng: random.Random) -> str:
    kind = rng.choice(["window", "cwindow", "offsets", "coffsets", "dilated", "strided", "blocks", "global",
                       "star"])
    if kind == "window":
        return f"window({rng.randint(1, 4)})"
    if kind == "cwindow":
        return f"window({rng.randint(1, 4)}) cyclic"
    if kind in ("offsets", "coffsets"):
        offs = sorted(set(rng.sample(range(-5, 11), rng.randint(2, 4))) | ({0} if rng.random() < 0.5 else set()))
        return "offsets {" + ", ".join(map(str, offs)) + "}" + (" cyclic" if kind == "coffsets" else "")
    if kind == "dilated":
        return f"dilated({rng.randint(1, 3)}, {rng.randint(2, 4)})"
    if kind == "strided":
        return f"strided({rng.randint(2, 9)})"
    if kind == "blocks":
        return f"blocks({rng.randint(2, 16)})"
    if kind == "global":
        return f"global({rng.randint(1, 3)})"
    return "star"


def random_case(rng: random.Random) -> list[str]:
    heads = 1 if rng.random() < 0.7 else 2
    return [" + ".join(_part(rng) for _ in range(rng.randint(1, 3))) for _ in range(heads)]


def _source(n: int, heads: list[str]) -> str:
    blocks = "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {h}\n}}\n" for h in heads)
    return f"tokens {n}\n{blocks}"


#: The checker's budget (s) when `--budget` is not given, and the wall-clock margin above it after which the audit
#: kills a run when `--timeout` is not given.
DEFAULT_BUDGET = 60.0
TIMEOUT_MARGIN = 30.0


def _timed(cmd: list[str], timeout: float) -> tuple[float, float, str]:
    """(CPU seconds of the process and its worker, wall seconds, stdout). The checker's own `--budget` ends
    a long run; a run that still outlives `timeout` seconds of wall time is killed with its process group and
    gives ''."""
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT, text=True,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.communicate()
        out = ""
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall, out


def _decided(out: str) -> tuple[str, str]:
    if not out:
        return "TIMEOUT", ""
    try:
        r = json.loads(out)
    except ValueError:
        return "NO-JSON", out[:200]
    steps = r.get("steps", [])
    least = next((s["evidence"].get("least") for s in steps if s.get("rule") == "PAT-LAYERS"), None)
    undecided = [s.get("rule") for s in steps if s.get("status") == "undecided"]
    group = (r.get("group") or {}).get("name") or (r.get("group") or {}).get("order")
    text = f"G = {group}; m = {r.get('layers')}" + ("" if least is None else f" ({'least' if least else 'NOT least'})")
    if undecided:
        text += f"; undecided: {', '.join(map(str, undecided))}"
    verdict = r.get("verdict", "?")
    if any(s.get("rule") == "BUDGET" for s in steps):
        verdict = "BUDGET"
    if verdict == "UAP" and least is False:
        verdict = "UAP(not least)"
    return verdict, text


def _seconds(text: str) -> float:
    """A positive number of seconds (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"seconds must be positive and finite, got {text!r}")
    return value


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The options; ``timeout`` is filled in from ``budget`` (+ TIMEOUT_MARGIN) when not given."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sizes", default="65536,1048576")
    ap.add_argument("--budget", type=_seconds, default=DEFAULT_BUDGET, metavar="SECONDS",
                    help="the checker's CPU budget per run (uapcheck --budget); default %(default)g")
    ap.add_argument("--timeout", type=_seconds, default=None, metavar="SECONDS",
                    help="wall-clock seconds after which a run still going is killed (TIMEOUT); "
                         f"default the budget + {TIMEOUT_MARGIN:g}")
    ap.add_argument("--pattern", action="append", default=[])
    args = ap.parse_args(argv)
    if args.timeout is None:
        args.timeout = args.budget + TIMEOUT_MARGIN
    return args


def check_command(path: str, budget: float) -> list[str]:
    """The checker's command for one case file, with its budget."""
    return [PY, "-m", "uapcheck", "--format", "json", "--no-suggest", "--no-cache", "--budget", f"{budget:g}", path]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    rng = random.Random(args.seed)
    cases = [p.split("|") for p in args.pattern] or [random_case(rng) for _ in range(args.cases)]
    b = min(_timed(B_CMD, 60)[0] for _ in range(3))
    print(f"B = {b:.3f} s CPU; target {TARGET}×B = {TARGET * b:.2f} s; budget {args.budget:g} s a run, killed after "
          f"{args.timeout:g} s", flush=True)
    flagged = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.uap")
        for heads in cases:
            for n in sizes:
                with open(path, "w") as fh:
                    fh.write(_source(n, heads))
                cpu, wall, out = _timed(check_command(path, args.budget), args.timeout)
                verdict, text = _decided(out)
                label = " | ".join(heads)
                bad = cpu > TARGET * b or verdict in ("INCONCLUSIVE", "BUDGET", "TIMEOUT", "NO-JSON", "UAP(not least)")
                line = (f"{'!!' if bad else 'ok'} {label} @ {n}: {cpu / b:.2f}×B ({cpu:.1f} s CPU, {wall:.1f} s wall) "
                        f"{verdict}; {text}")
                print(line, flush=True)
                if bad:
                    flagged.append(line)
    print(f"\n{len(flagged)} flagged:")
    for line in flagged:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
