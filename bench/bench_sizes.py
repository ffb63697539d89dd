"""Real sizes: one `uapcheck` run per pattern and length, as a ratio to B = `python -c "import sympy"`
timed in the same run (interleaved B, case, B, ...; CPU = user + system time of the process, the
figure the targets are checked on; wall is shown too). Writes bench/SIZES.md.

    python bench/bench_sizes.py [--repeat 2] [--out bench/SIZES.md] [--verify-only]
    python bench/bench_sizes.py --only "BigBird 4096" --only "random(2" [--repeat 5]

`--only TEXT` times only the cases whose "label n" contains TEXT (n without separators, e.g.
"BigBird 4096") and prints their rows without writing any file.

Targets (issue 9 §4, issue 14 "Large n"): structured patterns ≤ 3×B at any n up to 1,048,576 with
verdict, G and least m; `random` and `edges` up to 65,536 ≤ 5×B. Each row also records what the run
decided (verdict, group, layers, whether the count is the least), read from its JSON.
"""
from __future__ import annotations

import argparse
import compileall
import datetime
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PY = sys.executable
B_CMD = [PY, "-c", "import sympy"]

# (label, tokens, pattern, target multiple of B)
CASES = [
    ("window(64)", 65536, "window(64)", 3.0),
    ("window(8)", 1048576, "window(8)", 3.0),
    ("window(8) cyclic", 1048576, "window(8) cyclic", 3.0),
    ("star", 1048576, "star", 3.0),
    ("window(3) + global(2)", 65536, "window(3) + global(2)", 3.0),
    ("window(3) + global(2)", 1048576, "window(3) + global(2)", 3.0),
    ("blocks(8) + global(2)", 1048576, "blocks(8) + global(2)", 3.0),
    ("offsets {0, 2, 4, 10} cyclic", 1048576, "offsets {0, 2, 4, 10} cyclic", 3.0),
    ("offsets {-5, 0, 4, 9} cyclic", 1048576, "offsets {-5, 0, 4, 9} cyclic", 3.0),
    ("offsets {1, 5} cyclic + global(2)", 1048576, "offsets {1, 5} cyclic + global(2)", 3.0),
    ("blocks(8) + window(2) + strided(8)", 1048576, "blocks(8) + window(2) + strided(8)", 3.0),
    ("blocks(10) + window(2) + strided(4)", 1048576, "blocks(10) + window(2) + strided(4)", 3.0),
    ("blocks(2) + window(1) + strided(5)", 1048576, "blocks(2) + window(1) + strided(5)", 3.0),
    ("window(1) cyclic + dilated(2, 4)", 1048576, "window(1) cyclic + dilated(2, 4)", 3.0),
    ("blocks(3) + dilated(2, 2)", 1048576, "blocks(3) + dilated(2, 2)", 3.0),
    ("blocks(3) + offsets {1, -4}", 1048576, "blocks(3) + offsets {1, -4}", 3.0),
    # one or two wide blocks: the twin quotient (Theorem F196), below every blocks family's range
    ("blocks(524288) + global(1)", 1048576, "blocks(524288) + global(1)", 3.0),
    ("blocks(699051) + global(1)", 1048576, "blocks(699051) + global(1)", 3.0),
    ("blocks(1048575) + global(1)", 1048576, "blocks(1048575) + global(1)", 3.0),
    ("blocks(600000) + window(1)", 1048576, "blocks(600000) + window(1)", 3.0),
    ("blocks(2000000) + window(3)", 1048576, "blocks(2000000) + window(3)", 3.0),
    ("blocks(600000) + window(2) cyclic", 1048576, "blocks(600000) + window(2) cyclic", 3.0),
    ("blocks(524288) + strided(3) + global(1)", 1048576, "blocks(524288) + strided(3) + global(1)", 3.0),
    # no small stand-in: the quotient at the true class sizes (Theorem F181)
    ("blocks(600000) + strided(4)", 1048576, "blocks(600000) + strided(4)", 3.0),
    # 42 residue cells of nearly equal sizes: the class maps cut by their prefix types (Lemma F, Theorem F204)
    ("blocks(200000) + strided(7)", 1048576, "blocks(200000) + strided(7)", 3.0),
    # F34 above s = 7, |T| by BLISS on the row vectors
    ("blocks(13) + strided(8)", 1048576, "blocks(13) + strided(8)", 3.0),
    # F44 above s = 7 (b < s): the finite checks of F57, F58 and F66 over one period bL ≤ 72
    ("blocks(3) + strided(8)", 1048576, "blocks(3) + strided(8)", 3.0),
    # Theorem F182: several blocks parts keep the stretch ⌈p/L⌉ of their lcm L (with one-signed offsets: (b))
    ("blocks(11) + blocks(2)", 1048576, "blocks(11) + blocks(2)", 3.0),
    ("blocks(7) + blocks(5) + offsets {-3, 0}", 1048576, "blocks(7) + blocks(5) + offsets {-3, 0}", 3.0),
    ("blocks(700) + global(1)", 1200, "blocks(700) + global(1)", 3.0),
    # rooted views whose groups are S_1998-like, decided on their twin quotients (Theorem F222); BLISS on the
    # whole views took about 25 s of CPU
    ("global(2)", 2000, "global(2)", 3.0),
    # per-layer patterns (docs/theory.md §21): with `layers 2` the rooted views per layer on their labelled twin
    # quotients (Theorem F223); without, past the views' work limit counted with n roots, the covering lemma, then
    # the views counted per G-orbit (two)
    ("periodic { global(2), global(2) }, layers 2", 800, "periodic { global(2), global(2) }", 3.0),
    ("periodic { global(2), global(2) }", 800, "periodic { global(2), global(2) }", 3.0),
    # per-layer lists outside the closed forms, decided by the per-layer engine on its in-sets read as runs
    # (graphs/layers_runs.py); `target causal` where the label says so
    ("periodic { window(64) + sinks(4), causal }, target causal", 2048, "periodic { window(64) + sinks(4), causal }",
     3.0),
    ("periodic { window(8) + global(2), strided(16) }", 2048, "periodic { window(8) + global(2), strided(16) }", 3.0),
    ("periodic { window(8), strided(8) }", 1024, "periodic { window(8), strided(8) }", 3.0),
    # per-layer windows with a global token on alternate layers (docs/theory.md §21.13): closed forms, no graph
    ("periodic { window(512) + global(1), window(512) }", 1048576, "periodic { window(512) + global(1), window(512) }",
     3.0),
    ("BigBird: window(3) + global(2) + random(3, seed=0)", 65536,
     "window(3) + global(2) + random(3, seed=0)", 5.0),
    ("BigBird", 4096, "window(3) + global(2) + random(3, seed=0)", 5.0),
    ("window(1) + random(2, seed=1)", 65536, "window(1) + random(2, seed=1)", 5.0),
    # the same arcs written out as an `edges { ... }` list, eight pairs a line (4.2 MB at 65,536)
    ("edges listing window(1) + random(2, seed=1)", 16384, "edges listing window(1) + random(2, seed=1)", 5.0),
    ("edges listing window(1) + random(2, seed=1)", 32768, "edges listing window(1) + random(2, seed=1)", 5.0),
    ("edges listing window(1) + random(2, seed=1)", 65536, "edges listing window(1) + random(2, seed=1)", 5.0),
    # several heads with random parts (`HEADS` between the heads' patterns): the union graph is built, its arcs
    # labelled by the heads that hold them
    ("two heads: window(1) + random(2, seed=1) and window(1) + random(2, seed=2)", 16384,
     "window(1) + random(2, seed=1) | window(1) + random(2, seed=2)", 5.0),
    ("two heads: window(1) + random(2, seed=1) and window(1) + random(2, seed=2)", 65536,
     "window(1) + random(2, seed=1) | window(1) + random(2, seed=2)", 5.0),
    ("BigBird in two heads: window(3) + global(2) and random(3, seed=0)", 65536,
     "window(3) + global(2) | random(3, seed=0)", 5.0),
]
#: separates the heads' patterns of a case with several heads
HEADS = " | "
LISTING = "edges listing "
# decided on the twin quotient (docs/theory.md Theorem F196): the token graph is never built, a small stand-in is
TWIN_CASES = {"blocks(524288) + global(1)", "blocks(699051) + global(1)", "blocks(1048575) + global(1)",
              "blocks(600000) + window(1)", "blocks(2000000) + window(3)", "blocks(600000) + window(2) cyclic",
              "blocks(524288) + strided(3) + global(1)", "blocks(700) + global(1)"}
# decided on the twin quotient itself at the true class sizes (Theorem F181): neither token graph nor stand-in
QUOTIENT_CASES = {"blocks(600000) + strided(4)", "blocks(524288) + strided(3) + global(1)",
                  "blocks(200000) + strided(7)"}

# the token graph built and its rooted views decided on their twin quotients (Theorem F222), not compared with a floor
TWIN_VIEW_CASES = {"global(2)"}
# per-layer rooted views on their labelled twin quotients (Theorem F223); the file has a `layers` budget (label ↦ it)
LAYER_VIEW_CASES = {"periodic { global(2), global(2) }, layers 2": 2}
#: per-layer lists decided by the per-layer engine on its in-sets read as runs
RUNS_CASES = {"periodic { window(64) + sinks(4), causal }, target causal",
              "periodic { window(8) + global(2), strided(16) }", "periodic { window(8), strided(8) }"}
# per-layer lists decided by closed forms (windows with global tokens, docs/theory.md §21.13): no graph built
CLOSED_LAYER_CASES = {"periodic { window(512) + global(1), window(512) }"}

# `uapcheck verify` of the certificate `uapcheck FILE --certificate OUT` writes (written beforehand, not
# timed): (label, tokens, pattern). The verifier imports no engine; above n = 1,024 it works on compact
# arc arrays, the lemma table's closed forms and colour refinement (docs/theory.md §18.3).
VERIFY_CASES = [
    ("BigBird: window(3) + global(2) + random(3, seed=0)", 65536, "window(3) + global(2) + random(3, seed=0)"),
    ("window(64)", 65536, "window(64)"),
    ("window(8) cyclic", 1048576, "window(8) cyclic"),
]
VERIFY_HEADER = "## `uapcheck verify` at real sizes"
#: bench/audit_sizes.py's before/after tables, written by hand below the timed tables and kept on regeneration
AUDIT_HEADER = "## Audit of random unions and several heads"


def _kept_audit(path: str) -> list:
    """The audit section of the existing file (from AUDIT_HEADER on), as lines to append; none when absent."""
    try:
        old = Path(path).read_text("utf-8")
    except OSError:
        return []
    return ["", AUDIT_HEADER + old.split(AUDIT_HEADER, 1)[1].rstrip("\n")] if AUDIT_HEADER in old else []


def _timed(cmd: list[str]) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, proc.stdout


# The python-igraph floor (issue 14, "Large n"): a process that imports igraph, loads the same arcs
# (written beforehand by uapcheck's own builder as a numpy array, read as a list, not timed), builds the igraph
# graph, runs one BFS each way and counts the automorphisms with BLISS. Anything that builds the
# token graph and decides connectivity and the group pays at least this.
FLOOR = r"""
import sys, time
import numpy as np
from uapcheck.lazy import igraph as ig
n, path = int(sys.argv[1]), sys.argv[2]
arcs = np.load(path).tolist()  # pairs of Python ints: python-igraph's fastest input (a numpy array is
# converted element by element, about 0.8 µs an arc, which would inflate the floor)
ig.Graph(n=2, edges=[(0, 1)], directed=True).count_automorphisms(sh="fl")  # warm: igraph's lazy parts
start = time.process_time()
g = ig.Graph(n=n, edges=arcs, directed=True)
g.bfs(0, mode="out")
g.bfs(0, mode="in")
g.count_automorphisms(sh="fl")
print(time.process_time() - start)
"""

# The checker's own work on the same input, in one process after its imports (a small pattern
# checked first loads igraph and the rule modules; numpy is imported beforehand as the floor imports it,
# since small patterns no longer load it, and so are the modules only large graphs load): what the floor's
# graph work compares to.
OURS = r"""
import sys, time
import numpy
import uapcheck
import uapcheck.graphs.arc_arrays, uapcheck.graphs.refinement, uapcheck.graphs.twin_quotient
import uapcheck.graphs.view_refine
text = open(sys.argv[1]).read()
uapcheck.check("tokens 8\nattention { kernel k(x, y) = exp(x . y); pattern window(1) + random(1, seed=0) }\n")
start = time.process_time()
result = uapcheck.check(text)  # kept: freeing it is not the derivation's work (the floor keeps its graph)
print(time.process_time() - start)
"""


def _file_text(n: int, pattern: str, layers: int | None = None, causal: bool = False) -> str:
    """The .uap file of a case (with a `layers` budget when given, `target causal` with ``causal``); `edges listing P`
    is P's arcs written out as an `edges { ... }` list."""
    if pattern.startswith(LISTING):
        pattern = _listing(n, pattern[len(LISTING):])
    return (f"tokens {n}\n" + (f"layers {layers}\n" if layers else "") + _heads_text(pattern)
            + ("target causal\n" if causal else ""))


def _heads_text(pattern: str) -> str:
    """One attention block per head of the case (`HEADS` between their patterns), named h1, h2, … when several."""
    parts = pattern.split(HEADS) if HEADS in pattern and not pattern.startswith("edges") else [pattern]
    names = [f" h{k}" if len(parts) > 1 else "" for k in range(1, len(parts) + 1)]
    return "".join(f"attention{name} {{\n  kernel k(x, y) = exp(x . y)\n  pattern {part}\n}}\n"
                   for name, part in zip(names, parts))


def _listing(n: int, pattern_text: str) -> str:
    """`edges { i -> j, ... }` with the arcs uapcheck builds for the pattern (self-loops left out), eight a line."""
    from uapcheck.graphs import build_graph
    from uapcheck.parse import parse_source
    spec = parse_source(f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern {pattern_text} }}\n")
    codes = build_graph(spec.heads[0].pattern, n).all_codes()
    pairs = sorted((c % n + 1, c // n + 1) for c in codes)  # code (j − 1)·n + (i − 1): i attends to j
    rows = [", ".join(f"{i} -> {j}" for i, j in pairs[k:k + 8]) for k in range(0, len(pairs), 8)]
    return "edges {\n    " + ",\n    ".join(rows) + "\n  }"


def _needs_graph(pattern: str) -> bool:
    """A random or edges part has no closed form: the checker builds the token graph."""
    return "random" in pattern or "edges" in pattern


def _write_arcs(n: int, pattern_text: str, path: str) -> None:
    import numpy as np

    from uapcheck.graphs import build_graph
    from uapcheck.parse import parse_source
    pattern_text = pattern_text[len(LISTING):] if pattern_text.startswith(LISTING) else pattern_text
    spec = parse_source(f"tokens {n}\n" + _heads_text(pattern_text))
    codes = set()
    for head in spec.heads:
        g = build_graph(head.pattern, n)
        codes |= set(g.all_codes())
    arr = np.fromiter(sorted(codes), dtype=np.int64)
    np.save(path, np.stack([arr // n, arr % n], axis=1))


def _decided(out: str) -> str:
    try:
        r = json.loads(out)
    except ValueError:
        return "(no JSON)"
    group = r.get("group") or {}
    steps = r.get("steps", [])
    least = next((s["evidence"].get("least") for s in steps if s.get("rule") in ("PAT-LAYERS", "SEQ-LAYERS",
                                                                                    "SEQ-WINDOWS-LAYERS",
                                                                                    "SEQ-GLOBALS-LAYERS")), None)
    conn = next((s["evidence"] for s in steps if s.get("rule") == "PAT-CONNECTED"), {})
    bounds = ""
    if "upper bound" in conn:  # the exact diameter was not decided: its proved bounds and the size that fits
        bounds = f"; {conn.get('lower bound')} ≤ D ≤ {conn.get('upper bound')}"
        if conn.get("exact diameter decided up to about n"):
            bounds += f", exact D up to n ≈ {conn['exact diameter decided up to about n']:,}"
    return (f"{r.get('verdict')}; G = {group.get('name') or group.get('order')}; m = {r.get('layers')}"
            + ("" if least is None else f" ({'least' if least else 'sufficient'}{bounds})"))


def _verify_rows(repeat: int) -> list[str]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, n, pattern in VERIFY_CASES:
            path, cert = os.path.join(tmp, "case.uap"), os.path.join(tmp, "case.json")
            with open(path, "w") as fh:
                fh.write(f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n")
            subprocess.run([PY, "-m", "uapcheck", "--format", "json", "--no-suggest", "--no-cache", path, "--certificate", cert],
                           capture_output=True, cwd=ROOT, check=False)
            cmd = [PY, "-m", "uapcheck", "verify", cert]
            ratios_cpu, ratios_wall, outcome = [], [], ""
            for _ in range(repeat):
                b1 = _timed(B_CMD)
                cpu, wall, out = _timed(cmd)
                b2 = _timed(B_CMD)
                ratios_cpu.append(cpu / ((b1[0] + b2[0]) / 2))
                ratios_wall.append(wall / ((b1[1] + b2[1]) / 2))
                outcome = (out.strip().splitlines() or ["(no output)"])[-1].strip()
            rows.append(f"| {label} | {n:,} | {min(ratios_cpu):.2f}×B | {min(ratios_wall):.2f}×B | {outcome} |")
            print(rows[-1], flush=True)
    return rows


def _verify_table(rows: list[str], repeat: int) -> list[str]:
    return [VERIFY_HEADER, "",
            f"`uapcheck verify OUT.json` on the certificate `uapcheck FILE --certificate OUT.json` wrote (not timed), "
            f"minimum of {repeat} runs, B interleaved as above.", "",
            "| pattern | n | CPU | wall | outcome |", "|---|---|---|---|---|", *rows, ""]


def _case_rows(cases, repeat: int) -> list[str]:
    """One row per case (printed as it is timed): ratios to B and, for a case that builds a graph, to
    the igraph floor."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, n, pattern, target in cases:
            path = os.path.join(tmp, "case.uap")
            with open(path, "w") as fh:
                fh.write(_file_text(n, pattern, LAYER_VIEW_CASES.get(label), label.endswith("target causal")))
            cmd = [PY, "-m", "uapcheck", "--format", "json", "--no-suggest", "--no-cache", path]
            _timed(cmd)  # warm the parser cache
            ratios_cpu, ratios_wall, decided = [], [], ""
            for _ in range(repeat):
                b1 = _timed(B_CMD)
                cpu, wall, out = _timed(cmd)
                b2 = _timed(B_CMD)
                ratios_cpu.append(cpu / ((b1[0] + b2[0]) / 2))
                ratios_wall.append(wall / ((b1[1] + b2[1]) / 2))
                decided = _decided(out)
            floor = ("rooted views on their twin quotients (Theorem F222)" if label in TWIN_VIEW_CASES
                     else "rooted views per layer on their labelled twin quotients (Theorem F223)"
                     if label in LAYER_VIEW_CASES
                     else "per-layer engine, in-sets as runs (graphs/layers_runs.py)" if label in RUNS_CASES
                     else "no graph (closed forms, §21.13)" if label in CLOSED_LAYER_CASES
                     else "covering lemma, then rooted views per G-orbit (§21.4, F223)" if label.startswith("periodic")
                     else "no token graph (twin quotient at the true sizes)" if label in QUOTIENT_CASES
                     else "no token graph (twin quotient stand-in)" if label in TWIN_CASES
                     else "no graph (closed forms)")
            if _needs_graph(pattern):
                arcs = os.path.join(tmp, "arcs.npy")
                _write_arcs(n, pattern, arcs)
                fcmd = [PY, "-c", FLOOR, str(n), arcs]
                ocmd = [PY, "-c", OURS, path]
                ratios_floor, ratios_work = [], []
                for _ in range(repeat):
                    f_cpu, _, f_out = _timed(fcmd)
                    cpu = _timed(cmd)[0]
                    o_work = float(_timed(ocmd)[2])
                    ratios_floor.append(cpu / f_cpu)
                    ratios_work.append(o_work / float(f_out))
                rf, rw_ = min(ratios_floor), min(ratios_work)
                floor = (f"{rw_:.2f}× ({'yes' if rw_ <= 2.0 else 'NO'}); whole process {rf:.2f}×")
            rc, rw = min(ratios_cpu), min(ratios_wall)
            ok = "yes" if rc <= target else "NO"
            rows.append(f"| {label} | {n:,} | {rc:.2f}×B | {rw:.2f}×B | ≤ {target:g}×B | {ok} | {floor} | {decided} |")
            print(rows[-1], flush=True)
    return rows


def main() -> None:
    # the package's bytecode compiled first, as `pip install` does (bench/run.py does the same): with
    # PYTHONDONTWRITEBYTECODE set, every process would compile each module from its source, and the modules a
    # large graph loads during the derivation (view_refine.py: about 45 ms) would be timed as the derivation's work
    compileall.compile_dir(str(ROOT / "uapcheck"), quiet=1)
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=str(HERE / "SIZES.md"))
    ap.add_argument("--verify-only", action="store_true",
                    help="time only `uapcheck verify` and replace that table in the existing file")
    ap.add_argument("--only", action="append", default=[],
                    help='time only the cases whose "label n" contains this text; prints, writes nothing')
    args = ap.parse_args()
    if args.only:
        cases = [c for c in CASES if any(text in f"{c[0]} {c[1]}" for text in args.only)]
        if not cases:
            ap.error(f"no case matches {args.only}")
        _case_rows(cases, args.repeat)
        return
    if args.verify_only:
        table = _verify_table(_verify_rows(args.repeat), args.repeat)
        old = Path(args.out).read_text("utf-8")
        head = old.split(VERIFY_HEADER)[0].rstrip("\n") + "\n\n"
        Path(args.out).write_text(head + "\n".join(table + _kept_audit(args.out)), "utf-8")
        return
    load_start = os.getloadavg()[0]
    rows = _case_rows(CASES, args.repeat)
    text = [
        "# Real sizes (regenerated by `python bench/bench_sizes.py`)",
        "",
        f"{datetime.date.today()}, Python {sys.version.split()[0]}, {os.cpu_count()} cores; "
        f"`uapcheck --format json --no-suggest`, minimum of {args.repeat} runs, B = `python -c \"import sympy\"`",
        "interleaved in the same run (each run against the B runs beside it). The machine is shared (load "
        f"average {load_start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end); CPU is the checked figure. \"igraph floor\", for the cases "
        "that build a token graph: the checker's CPU for the whole derivation in one process after its imports, "
        "over the CPU of python-igraph on the same arcs (build the graph, one BFS each way, BLISS's "
        "count_automorphisms), target ≤ 2×; then the whole `uapcheck` process over the whole floor process "
        "(python, igraph and numpy imports, loading the arcs).",
        "",
        "| pattern | n | CPU | wall | target | met | ÷ igraph floor (≤ 2×) | decided |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        *_verify_table(_verify_rows(args.repeat), args.repeat),
        *_kept_audit(args.out),
    ]
    Path(args.out).write_text("\n".join(text), "utf-8")


if __name__ == "__main__":
    main()
