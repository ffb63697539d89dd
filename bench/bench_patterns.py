"""Benchmark: strong connectivity + exact directed diameter of sparse attention patterns.

Our engine (uapcheck.graphs: arithmetic arc generation, igraph BFS, directed Takes-Kosters bounds
with certificates) against the plain networkx approach (nx.is_strongly_connected + nx.diameter on
the DiGraph; networkx's ``usebounds`` only applies to undirected graphs, so a directed diameter is
all-pairs BFS).  networkx runs in a subprocess with a time cap; it is also timed at a smaller n
where it finishes, and the ratio is printed.  "group" is our exact symmetry group of the same
graph (``symmetry_group``: twin classes, BLISS, re-checked generators); networkx has no
counterpart that scales (VF2 enumerates the automorphisms one by one).

    python bench/bench_patterns.py [--n 65536] [--small 2048] [--cap 60]

Figures on the reference machine (2 cores, Python 3.11, igraph 1.0, networkx 3.6.1, shared with
other jobs at a load of about 1.5, so single figures vary by some 30 %):

    pattern     n      ours: build  analyse  diameter  group | networkx: build  analyse       ratio
    BigBird     65536        0.60     1.12         2   0.97 |            3.90  > 56 (cap)    > 35x
    Longformer  65536        0.05     0.47     21845   0.60 |            1.54  > 59 (cap)    > 115x
    BigBird      2048        0.01     0.01         2   0.02 |            0.13     1.29         69x
    Longformer   2048        0.00     0.01       683   0.02 |            0.03     4.12        329x

The previous engine (before the shared decoding and the twin/BLISS rework), timed by this script
right after, under the same load: group 3.35 s (BigBird) and 3.45 s (Longformer) at n = 65,536;
build and analyse within the noise of the figures above (0.40 / 1.17 and 0.03 / 0.43 s).

("analyse" = strong connectivity + exact diameter with its certificate; "ratio" compares
build + analyse.  BigBird = window(3) + global(2) + random(3, seed=0); Longformer = window(3).)
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from uapcheck.graphs import analyze_connectivity, build_graph, symmetry_group  # noqa: E402
from uapcheck.spec import Global, PatternUnion, RandomPattern, Window  # noqa: E402

PATTERNS = {
    "BigBird": PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0))),
    "Longformer": Window(3),
}

# The networkx side, run in a child process so that a time cap can stop it.
NX_CHILD = r"""
import sys, time
sys.path.insert(0, {root!r})
import networkx as nx
from uapcheck.graphs import build_graph
from uapcheck.spec import Global, PatternUnion, RandomPattern, Window
pattern = {pattern}
t0 = time.perf_counter()
arcs = build_graph(pattern, {n}).arcs()
D = nx.DiGraph()
D.add_nodes_from(range(1, {n} + 1))
D.add_edges_from(arcs)
t1 = time.perf_counter()
print("build", t1 - t0, flush=True)
sc = nx.is_strongly_connected(D)
d = nx.diameter(D) if sc else None
print("analyse", time.perf_counter() - t1, sc, d, flush=True)
"""


def ours(pattern, n):
    t0 = time.perf_counter()
    g = build_graph(pattern, n)
    t1 = time.perf_counter()
    c = analyze_connectivity([g])
    t2 = time.perf_counter()
    symmetry_group([g])
    t3 = time.perf_counter()
    return t1 - t0, t2 - t1, t3 - t2, c


def networkx(pattern, n, cap):
    code = NX_CHILD.format(root=ROOT, pattern=repr(pattern), n=n)
    build = analyse = None
    diameter = None
    t0 = time.perf_counter()
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=cap).stdout
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    elapsed = time.perf_counter() - t0
    for line in out.splitlines():
        parts = line.split()
        if parts[0] == "build":
            build = float(parts[1])
        elif parts[0] == "analyse":
            analyse = float(parts[1])
            diameter = None if parts[3] == "None" else int(parts[3])
    return build, analyse, diameter, elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=65536)
    ap.add_argument("--small", type=int, default=2048)
    ap.add_argument("--cap", type=float, default=60.0, help="networkx time cap in seconds")
    args = ap.parse_args()
    print(f"{'pattern':11s} {'n':>6s}  ours: {'build':>6s} {'analyse':>8s} {'diameter':>9s} "
          f"{'group':>6s} | networkx: {'build':>6s} {'analyse':>12s} {'ratio':>10s}")
    for n in (args.n, args.small):
        for name, pattern in PATTERNS.items():
            b, a, grp, c = ours(pattern, n)
            nb, na, nd, elapsed = networkx(pattern, n, args.cap)
            if na is not None:
                assert nd == c.diameter, (name, n, nd, c.diameter)
                nx_text = f"{na:12.2f}"
                ratio = f"{(nb + na) / (b + a):9.0f}x"
            else:
                spent = elapsed - (nb or 0.0)
                nx_text = f"> {spent:5.0f} (cap)"
                ratio = f"> {elapsed / (b + a):7.0f}x"
            nb_text = f"{nb:6.2f}" if nb is not None else "   n/a"
            print(f"{name:11s} {n:6d}        {b:6.2f} {a:8.2f} {str(c.diameter):>9s} {grp:6.2f} | "
                  f"          {nb_text} {nx_text} {ratio}", flush=True)


if __name__ == "__main__":
    main()
