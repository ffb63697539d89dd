"""Regenerate bench/RESULTS.md: start-up, a dense check, the catalog, and the limit and pattern
benches, as ratios to B = `python -c "import sympy"` timed in the same run.

    python bench/run.py [--repeat 5] [--quick] [--no-sizes] [--out bench/RESULTS.md]
    python bench/run.py --catalog-only [--repeat 3]
    python bench/run.py --startup-only [--repeat 5]

regenerates bench/RESULTS.md and (through bench/bench_sizes.py) bench/SIZES.md in one command.
`--catalog-only` re-measures only the catalog rows and the per-file table of
bench/RESULTS.md (a few minutes instead of about ten) and keeps the rest of the file as it is;
`--startup-only` re-measures only the other rows of the first table (start-up, one file; about a
minute) and keeps the rest.

Every check runs with `--no-cache` (the derivation itself), except the rows marked "result cache
filled", where the untimed first run has filled the result cache and every file is a hit. The
whole script uses a temporary UAPCHECK_CACHE_DIR of its own (never the user's cache).

Every case is a fresh process, run interleaved with B (B, case, B, case, ...) so that a change in
the machine's load hits both; the ratio shown is the minimum over the repeats of case / (the
mean of the B runs on either side). Two clocks: CPU (user + system time of the process, which
other jobs on a shared machine barely disturb; the figure the targets are checked on) and wall.
The parser cache is warm (one untimed run first), as on every run after the first, and the
package's bytecode is compiled first (as `pip install` does; PYTHONDONTWRITEBYTECODE is dropped).
`--quick` runs the pattern bench at small sizes only.
"""
from __future__ import annotations

import argparse
import compileall
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PY = sys.executable
UAP = [PY, "-m", "uapcheck"]

B_CMD = [PY, "-c", "import sympy"]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
# The parser's tables, the dataclass code and the result cache in a directory of the bench's own.
ENV["UAPCHECK_CACHE_DIR"] = tempfile.mkdtemp(prefix="uapcheck-bench-cache-")
COLD = ["--no-cache"]


def _parallel_flag() -> list[str]:
    """`-j 1` when the CLI has worker processes, so the catalog is timed on one core."""
    out = subprocess.run(UAP + ["--help"], capture_output=True, text=True, cwd=ROOT, env=ENV).stdout
    return ["-j", "1"] if re.search(r"(^|\s)-j\b", out) else []


def _catalog_files() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "catalog").glob("*.uap"))


# The 57 catalog files of issue 14's measurement (the catalog at 6b31f7e), for its "catalog ≤ 4×B".
ORIGINAL_57 = """attention_only bias_circulant bias_free bias_symmetric_circulant bias_symmetric_toeplitz bias_toeplitz
bigbird bigbird_32 blocks blocks_global bounded_tanh cauchy causal causal_window cos_kernel cosine cyclic_one_sided
cyclic_window dilated dilated_window exp_cos inverse_multiquadric l2_attention laplacian linear_elu linear_elu_affine
linear_elu_causal linear_relu linear_relu_affine linformer linformer_fixed longformer longformer_16 longformer_global
multi_head_softmax octahedron performer performer_hyperbolic performer_trig polynomial polynomial_offset positional
rbf relu_score sigmoid sigmoid_plain skyformer softmax softmax_scaled softmax_temperature star star_transformer
strided strided_window two_heads uniform window_budget""".split()


def _original_files() -> list[str]:
    return [f"catalog/{name}.uap" for name in ORIGINAL_57 if (ROOT / "catalog" / f"{name}.uap").exists()]


def _dense_files() -> list[str]:
    """Catalog files with no `pattern` (the kernel engines alone)."""
    return [f for f in _catalog_files() if "pattern" not in (ROOT / f).read_text("utf-8")]


PER_FILE = r"""
import contextlib, io, json, os, sys, time
os.environ["UAPCHECK_IN_PROCESS"] = "1"  # the files in this process (workers' CPU is not ours)
from uapcheck.cli import main
from uapcheck.parse import parser
parser()
times = {}
for f in sys.argv[1:]:
    start = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["--format", "json", "--no-cache", f])
    times[f] = time.process_time() - start
print(json.dumps(times))
"""


def per_file_times() -> dict[str, float]:
    """CPU seconds of each catalog file within one process (imports excluded)."""
    out = subprocess.run([PY, "-c", PER_FILE, *_catalog_files()], cwd=ROOT, capture_output=True, text=True,
                         env=ENV, check=True).stdout
    return json.loads(out)


# (name, command, target as a multiple of B or None)
def cases() -> list[tuple[str, list[str], float | None]]:
    files = _catalog_files()
    dense = _dense_files()
    one = _parallel_flag()
    return [
        ("`uapcheck --version`", UAP + ["--version"], 0.2),
        ("`uapcheck --help`", UAP + ["--help"], 0.2),
        ("dense check, JSON (`softmax.uap`)", UAP + COLD + ["--format", "json", "catalog/softmax.uap"], 1.6),
        ("dense check, text (`softmax.uap`)", UAP + COLD + ["--color", "never", "catalog/softmax.uap"], 1.6),
        ("dense check, JSON (`rbf.uap`)", UAP + COLD + ["--format", "json", "catalog/rbf.uap"], 1.6),
        ("pattern check, JSON (`longformer_16.uap`)", UAP + COLD + ["--format", "json", "catalog/longformer_16.uap"],
         None),
        (f"catalog, one process, JSON ({len(files)} files)", UAP + one + COLD + ["--format", "json", *files], 4.0),
        (f"the issue's original catalog, one process, JSON ({len(_original_files())} files)",
         UAP + one + COLD + ["--format", "json", *_original_files()], 4.0),
        (f"catalog, one process, text ({len(files)} files)", UAP + one + COLD + ["--color", "never", *files], 4.0),
        (f"catalog files without a pattern, one process, JSON ({len(dense)} files)",
         UAP + one + COLD + ["--format", "json", *dense], None),
        (f"catalog, result cache filled, JSON ({len(files)} files)", UAP + one + ["--format", "json", *files], 4.0),
        (f"catalog, result cache filled, text ({len(files)} files)", UAP + one + ["--color", "never", *files], 4.0),
    ]


HISTORY = """Measured by this script's method (CPU ratios, interleaved B, bytecode compiled) on
2026-12-01, the revision before (150c4ed) against the revision that made imports lazy, cached the
LALR tables and added the exact zero tests and per-process caches:

| case | before | after |
|---|---:|---:|
| dense check, JSON (`softmax.uap`) | 2.27×B | 1.52×B |
| dense check, text (`softmax.uap`) | 2.27×B | 1.63×B |
| `uapcheck --version` | 0.09×B | 0.10×B |
| the issue's 57-file catalog, one process, JSON | 7.84×B | 5.57×B |

In the after column the 57 files' kernel work is 0.78 s CPU and their pattern work 0.59 s (the
pattern engines decide least layers exactly since then, which costs more per file than before).
The catalog now also holds `longformer_4096.uap`, whose exact least layers at n = 4,096 take
three quarters of a whole catalog run.

Then (2026-12-01, same method, load average about 9.5 on 2 cores, on the 76 catalog files of that
day) the revision before (851b012) measured: dense check JSON (`softmax.uap`) 1.66×B, text
1.78×B, pattern check JSON (`longformer_16.uap`) 3.02×B, catalog `-j 1` JSON 53.0×B. Since then:
igraph is imported without its drawing backends (it loaded matplotlib.pyplot in every worker
that built a graph), a worker checks one file after another instead of a fork per file (imports,
caches and SymPy's caches paid once per worker), and large graphs decode arcs with numpy.

Then (2026-12-01, speed3) the JSON catalog went from about 19×B (91 files) to the table above:
`window(w) + global {1, …, g}` takes Theorem F2 at a concrete n (`longformer_4096.uap`: 3 s → 0.05 s,
re-checked by the verifier's own window + globals lemma), the witness search dismisses visibly
non-homogeneous kernels without simplify (0.8 s of the rest), the receptive-witness search scans
only the positions a swap can disturb, and the proof kernel re-checks large graphs on numpy arrays
(BigBird at n = 65,536: about 9 s of checking to 2.4 s).

Then (2026-12-01, catspeed; `--catalog-only`, load average about 9.5 on the 2 cores) the catalog
went from JSON 13.3×B, the 57 original files 9.4×B and text 39.3×B to the rows above (7.8×B,
4.9×B, 9.3×B; 92 files by then), output byte-identical: a rigorous interval enclosure (mpmath.iv) proves a
transcendental difference non-zero before `simplify` runs (bounded_tanh's homogeneity tests: 2.6 s
with the text panel, 0.45 s in JSON, to 0.03 s), cosFormer's 1,024 offset intervals are computed
once per process instead of three times per derivation, SymPy's units and tensor modules
are never imported (stand-ins for the classes SymPy only tests against), and exact
caches keep what the text panel's suggestion search re-derives per edit (FFN, receptive
structure, zero tests, certificate values, printed evidence). Where the rest goes (JSON, a sampling
profile of about 2.3 s CPU at load 8): imports about 0.55 s (SymPy itself 0.25 s, uapcheck's own modules
with their dataclasses and rule registry, lark, mpmath the rest); pattern premises about 0.6 s
(SymPy's Schreier–Sims for the per-layer group order of sparse_transformer_fixed 0.17 s, rooted
views, least layers, the families' small cases); kernel premises about 0.7 s (positivity sign
regions, the numeric cross-check of the limit, gelu's Lipschitz limits by sympy.limit 0.14 s);
the proof kernel's certificate checks and evidence about 0.3 s. Text adds the suggestion search
(about 0.55 s over the 91 files, up to 16 re-derivations per file) and rich's layout (about
0.3 s).

Then (2026-12-01, catspeed2; load average about 6.5, so every figure is inflated, B about 0.5 s
CPU): small patterns build their igraph graphs and the diameter's bounds without importing numpy,
the engines no longer import SymPy's tensor and combinatorics modules, and the kernel's group
certificates check orders with uapcheck/schreier_sims.py (sparse_transformer_fixed's per-layer
group 0.18 s to 0.05 s). Against the revision before (dffb2ab), the same 98 files interleaved
(CPU s, best of 3): the 57 files 2.24 → 2.05, JSON 4.08 → 3.98, text 5.28 → 4.36 (best of 2).

Then (2026-12-02, speed2; load average 7.8 at the start, 5.5 to 3.5 during the sizes, so every
figure is inflated, B 0.46 s CPU against about 0.24 s idle): a large unlabelled head's group is
counted by colour refinement on its arc arrays before BLISS (when the refined colours are the twin
classes, G is their product and BLISS does not run: about 30 ms instead of about 120 ms for
window(1) + random(2) at n = 65,536), the connectivity probe loop, the twin classes and the views
read neighbour lists off the compressed rows instead of building an igraph graph (about 50 ms
there), the reversed arc codes come from a 16-bit radix sort of the targets (about 40 ms to 3 ms at
262,138 arcs), and `groups.orbits` visits only moved points. Against the igraph floor, before →
after in the same conditions (`bench/bench_sizes.py --only`, best of 3): window(1) + random(2) at
65,536 2.13× → 1.4–1.6×, BigBird at 65,536 1.21× → 0.8×, BigBird at 4,096 3.37× → 2.0–2.8× (a floor of about 12 ms, where the load
moves the ratio most; still above 2×). Catalog outputs byte-identical in every format
(`bench/compare_outputs.py`).

Then (2026-12-02, speed3, second round; load average about 10 to 14 on the 2 cores, so every figure is
inflated): a result cache (uapcheck/result_cache.py) prints an unchanged file's report from the cache
(the rows "result cache filled": when every file is a hit the engines and SymPy are not imported), and
the cold path lost what the lengths below a by-class range re-did at each n: the numpy import (the size
substitution no longer goes through the simulator), LIM and the other kernel steps before the witness
route (kept once per head without the length, theory.md §19), and a read of /proc/meminfo per small
graph. Per-file CPU in one process, imports excluded, the revision before (869f944) against after, best
of 3 interleaved (B 0.355 s): the 139 files 15.4×B → 14.2×B; blocks_strided_heads_n 1.61 → 1.43,
window_strided_near_n 1.16 → 0.97, blocks_global_strided_heads_n 0.87 → 0.60, cyclic_symmetric_two_jumps
0.56 → 0.50, blocks_strided_coprime_n 0.45 → 0.35, window_blocks_heads_n 0.43 → 0.27 (×B). The cold
catalog stays far above 4×B: what is left is spread over the engines (the rooted-view decisions at each
length, the families' instance checks and small cases, the proof kernel's certificate checks), with no
single step above a tenth of it; and blocks_strided_residue3_n, the 140th file (added the same day), alone
takes about a third of the cold catalog in the table above.

Then (2026-12-02, speed4; load average 11 to 15 on the 2 cores, so every figure is inflated, B 0.51 s CPU
against about 0.35 s idle): blocks(b) + strided(s)'s finite checks run once per process (the theorem was built four
times per file: by the step, its instance check, the kernel's re-match and its instance check) and count the column
permutations column by column instead of over all s! of them; F58/F66's check reads Γ's distances off the
block–residue incidence graph as arrays; a family theorem is keyed by the head's merged atoms, so equivalent forms
of one head share it; the view probe tests each transposition on bit masks. Per-file CPU in one process, imports
excluded, the revision before (12f9651) against after, interleaved, two rounds: the 146 files 9.5–10.1 s → 6.7–6.8 s;
blocks_strided_residue3_n 2.6–3.0 s → 0.51–0.58 s, window_strided_near_n 0.43–0.52 s → 0.35–0.39 s. These figures
and the catalog rows above were measured on 12f9651 with these changes and a pruned exhaustive receptive-witness
search (n ≤ 8), which 903b695's exact receptive count (Theorem F68) has since made unnecessary and which was dropped;
they are to be re-measured on an idle machine.
Output byte-identical (the catalog goldens, in one process and with workers; the snapshots). The cold catalog is
still far above 4×B: no step is above a tenth of what is left (the lengths below a by-class range, each derived
at its n; the families' small cases and instance checks; the kernel premises' SymPy work; the several-heads layer
count, which the proof kernel re-decides; imports, about 0.3 s for the engines after SymPy).

Then (2026-12-02, end of the day, idle machine: load average 0.02 at the start): the rows above, 149 files. The original 57 files measured 4.78×B in this run; 12f9651 and this revision take the same CPU on them (1.45–1.74 s user, three interleaved runs each), while B itself ranged over 0.34–0.48 s in consecutive runs, so that row sits at the edge of its target and moves with B, not with the code.

Then (2026-12-03, speed5; load average 6 to 8 on the 2 cores from the other lanes' test runs, so every figure is
inflated and B itself was 0.36 to 0.46 s CPU): the receptive-witness search tests a generator of the known part's
automorphisms only at the positions of R(i) and stops at the first bad one (the 57 files' receptive_exact 0.064 s
to 0.020 s CPU in one process), a worker runs the cyclic collector at a first threshold of 20,000 instead of 700
(about 70 collections over the 57 files, 4 % of the worker's CPU; whole catalog 0.12 s to 0.01 s), and the proof
kernel checks an odd-score one-layer witness by pairing r with −r instead of expanding its value sums again
(sigmoid_plain about 0.03 s). The 57 files, the revision before against after, interleaved, median of 6: 1.80 s
to 1.63 s CPU. Where the 57 files' time goes after these (a sampling profile of the worker, which does all the
checking under `-j 1`, plus the parent's imports): the parent, that is B and uapcheck's own modules, lark and its
tables (about 0.1 s over B), about a quarter; in the worker, the positivity engine (WP-POSITIVE: the sign regions
of the kernel's three forms, the off-diagonal forms and the sign witnesses) about 40 %, (LIM) about 15 % (its
numeric cross-check 6 %), the pattern engines about 12 %, parsing, lowering, FFN-DEF2 and rendering under 5 %
each. SymPy's assumption queries are a quarter of the worker's time and `factor` in sign_of 5 to 10 %; three files
(polynomial_offset, laplacian, bounded_tanh) take a fifth of it. The catalog rows and the per-file table above are
from `python bench/run.py --catalog-only --repeat 3` in those conditions (load average 8 at the start), to be
re-measured on an idle machine.

Then (2026-12-03, speed6; load average 8 to 10 on the 2 cores, so every figure is inflated): since the idle run of
0d5565e (whole catalog 30.8×B) half of the catalog's CPU went to the lengths below a stated range (about 1,140
derivations at n ≤ 60, each a whole derivation) and a quarter to the families' symbolic matching, instance checks
and small cases. Cut, each in its own commit, every output byte-identical (`bench/compare_outputs.py cbc9612`: the
153 files in every format, reversed, and through the result cache): the small rooted-view test (≤ 250,000 arc
visits) runs before the transposition probe, which scanned every swap where D layers suffice (683 such decisions);
rooted views compared without a certificate by their canonical forms themselves, not a SHA-256 of their printed
arcs; the lengths below a range, whose steps are read for their facts only, answer the views test without the
per-orbit digests; cache keys taken apart by a rule per type (3× faster); FFN-DEF2 kept per process as a finished
step (theory §19); small igraph graphs made by the C constructor (61 to 32 µs); `_jsonable` answers plain types by
their exact type; `Step.fact` reads one fact without copying all of them (about 233,000 copies in the verdict
rules). The per-file CPU summed in one process (imports excluded), cbc9612 against this revision interleaved, two
runs each: 14.8 and 12.3 s to 12.1 and 10.4 s (about −17 %); the lengths below a range 5.4 s to about 3.5 s. The
original 57 files moved little (1.28 and 1.11 s to 1.25 and 1.10 s): their time is the kernel engines' (WP-POSITIVE's
sign regions about 40 %, (LIM) about 20 %: SymPy's assumption queries and `factor`) and the start-up, which these
cuts do not touch. What is left of the whole catalog (a profile of this revision): the lengths below a range
still about 40 % (per length: the rooted views, BLISS on every orbit's view, about a third; the connectivity probes
and the kernel's BFS re-check a fifth; the group and its Schreier–Sims check a sixth; the verdict and target steps
the rest), the families' matching, instance checks and small cases about 25 % (the concrete engine at each small
n, the line offsets' onset search), the dense kernels about 20 %. What would cut them: deciding a length below a
range from the family's closed form at that n where one holds, a bit-parallel BFS in the kernel's connectivity
check, and positivity and (LIM) without SymPy's assumption system (interval and polynomial sign tests first).

Then (2026-12-03, speed7; load average 10 to 12 on the 2 cores from the other lanes' test runs, so every figure is
inflated and only interleaved comparisons are quoted): three cuts, each in its own commit, every output
byte-identical (`bench/compare_outputs.py`: four formats, reversed, through the result cache). (LIM)'s numeric
cross-check evaluates log k(x, t z) with the invariants' values given to evalf beside t instead of substituting them
first (SymPy rebuilt and re-evaluated the kernel's tree at each witness point): laplacian 0.083 to 0.059 s, the 57
files' per-file CPU in one process 1.06 to 1.00 s. The kernel re-checks an exhaustive diameter's eccentricities
bit-parallel (the sets of sources within k steps of each position as Python ints, one pass over the arcs per level)
instead of one plain BFS per vertex, which the lengths below a range, now decided up to n = 128, make most of: the
seven heaviest length files 3.82 to 3.69 s. Theorems F70/F71's closed forms are simplified once per process (the
rule, its instance check and the kernel's re-match simplified the same differences again): blocks_strided_heads_n
0.48 to 0.37 s. The 57 files, per-file CPU in one process, the session's start (509d194) against this revision
interleaved, 4 rounds: 1.14 to 1.11 s (sum of per-file minima); they stay at about 4×B, short of 3.5×B. Where their
time goes (a sampling profile of `-j 1`): SymPy's import in the parent about 28 %, uapcheck's own imports, lark's
tables and the contextual lexer's first regex compilation (about 20 ms) about 8 %, the worker about 57 %; in the
worker WP-POSITIVE 27 % (polynomial_offset alone 0.13 s: four reparametrised polynomial forms whose signs SymPy's
assumptions, factor_terms and factor each leave undecided, then the sign witnesses at 30 points with a symbolic c),
(LIM) 25 % (Puiseux series, the growth regions, the cross-check), the pattern engines 15 %, the target analysis 6 %;
fork's copy-on-write faults add about 0.05 s of system time (33,700 minor faults against 17,900 in one process). No
step whose result is not read remains there: what would cut it is a sign decision that answers "undecided" faster
than SymPy's assumptions with the same answers (every catalog file's WP-POSITIVE region signs pin it), or fewer
forms tried where an earlier form's failure implies the later ones'. The whole catalog (a profile at c993cd1): the
lengths below a range about 41 % (rooted views and F111's far-adjacency table about a third of that, the
connectivity probes and the kernel's re-check a quarter, the group and its Schreier–Sims check a sixth), the
families' symbolic matching, instance checks and small cases 23 %, the dense kernels about 8 %; what would cut them:
a length below a range read off a family's closed form at that n where one holds (the kernel re-checking the
instance), the rooted views of consecutive lengths built from the last one's neighbourhoods, and the families'
matches kept per head across the rule, its instance check and the kernel's re-match as F70/F71's simplifications now
are.

Then (2026-12-04, speed3; load average 4 to 6 on the 2 cores from the other lanes' test runs, so every figure is
inflated and B itself was 0.35 to 0.49 s CPU): four cuts, each in its own commit, every output byte-identical (the
catalog goldens). Theorem F113's premise is read on whole sets (docs/theory.md §19: the rings by whole-set steps,
(P1) per class, (P2) per offset on local paths): the check of blocks(4) + window(1) + strided(7) 2.9 s to 0.24 s.
The rooted views of the exact test share the neighbourhoods' arcs (one digraph for every view whose ball is every
position, igraph's search for the balls, canonical forms sorted by numpy): the concrete engine's decision for
strided(8) + offsets {-5, 9} at n = 312, 2.4 s to 0.5 s. The Puiseux expansion of √(a t² + b t + c) by its closed
form (40 ms to 4 ms, once in the catalog), and the asymptotic engine's Undecided reasons written only when read.
Per-file CPU in one process (imports excluded, best of 2), the session's start (2ac2d4c) against 5e12d5b:
strided_offsets_1m 2.33 to 0.83 s, blocks_window_strided_shorter_n 3.93 to 1.42 s. The whole catalog, one process,
JSON, `-j 1` (160 files, best of 2, interleaved): 23.3 s to 17.5 s CPU, about 54×B to 40×B. The 57 original files:
e366e45 against da9392b (the Puiseux and reason cuts) interleaved, best of 5: 1.63 to 1.57 s CPU; at 5e12d5b this
script's method (`measure`, 5 repeats, load average 4) gives 3.91×B, and other interleaved rounds gave 3.9 to
4.2×B with B between 0.35 and 0.49 s: the target of 4×B is met only narrowly and not in every round, as B's own
spread is as large as the margin. Now the heaviest: blocks_dilated_exchange_n (about 2 s: F118's exact decision at
each length of its check, eccentricities, canonical forms and automorphism counts), then
blocks_window_strided_shorter_n (the lengths below its range and F111's far-adjacency table).

Then (2026-12-06, speed14; load average 5 to 14 on the 2 cores from the other lanes' test runs, so every wall figure
is inflated). A profile of the whole catalog cold (cProfile, one process, `-j 1`, 198 files, JSON) at 2a434ca:
per-file CPU about 21 s unprofiled, of which the file added since the table above,
sparse_transformer_merged_4096 (Theorem F164), about 5 s alone: Theorem F7's base case for window(64) + strided(64)
(graphs/families.py `strided_ball_separates`, each position's marks found by scanning the whole ball of 4,033
positions, 2.8 s) and F164's pair keys (graphs/strided_classes.py, 1.9 s); the lengths below a range about 7 s
(1,740 derivations at n ≤ 128; per length the rooted views, the layer count's quick tests, the connectivity probes
and the kernel's re-checks, the group, each a few percent; no single cost dominates); the families' matching and
instance checks most of the rest. Deciding each length once per equal concrete file across files would save 0.02 s:
of the 1,740 derivations 1,731 are of distinct files at that n (path, name and locations left out), as the kernel,
the pattern and the layer budget differ from file to file; the pieces that repeat (connectivity, group, kernel
premises, FFN-DEF2) are already kept per process. Cut, each in its own commit, every output byte-identical (JSON
and text of every catalog file against main): F7's base case reads each position's marks off its window and its
class (2.8 to 0.6 s); a rooted view built from its arc list reads that list for its canonical form instead of
igraph's get_edgelist (about 0.8 s of the lengths' time); the arc codes sorted by timsort (a set of ints iterates
nearly in order); F164's pair keys coded as one int64 each for their duplicates, classes read off a table, int32
positions (1.9 to 1.05 s). The sort in graphs/refinement.py was measured on the colour keys it sorts (hashes,
not nearly sorted): the same time either way, left as it is. What is left at the top: F164's pair keys (1 s, an
n · width² pass), the lengths below a range (about 7 s, spread over the engines), and
blocks_window_strided_shorter_n, ring_mirrored_wide_window_heads_n and longt5_local_any_length (their lengths). The
catalog rows above after these cuts (`--catalog-only --repeat 1`, load average 12.7 at the start): 198 files 18.1 s
CPU = 44.4×B (the 193 files of the table before were 15.0 s = 44.0×B; the five files added since cost about 3 s,
sparse_transformer_merged_4096 2.5 s of it after the cuts), the 57 original files 3.26×B (target met)."""


def _timed(cmd: list[str]) -> tuple[float, float]:
    """(cpu, wall) seconds of one run of cmd."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd[:6])} ... exited with {proc.returncode}")
    return usage.ru_utime + usage.ru_stime, wall


def measure(cmd: list[str], repeat: int) -> dict:
    _timed(cmd)  # warm: the parser cache and the OS file cache
    b_runs = [_timed(B_CMD)]
    runs = []
    for _ in range(repeat):
        runs.append(_timed(cmd))
        b_runs.append(_timed(B_CMD))
    # the minimum over the repeats: other jobs on a shared machine only ever add time
    cpu_ratio = min(r[0] / ((b0[0] + b1[0]) / 2) for r, b0, b1 in zip(runs, b_runs, b_runs[1:]))
    wall_ratio = min(r[1] / ((b0[1] + b1[1]) / 2) for r, b0, b1 in zip(runs, b_runs, b_runs[1:]))
    return {"cpu": min(r[0] for r in runs), "wall": min(r[1] for r in runs),
            "cpu_ratio": cpu_ratio, "wall_ratio": wall_ratio,
            "b_cpu": statistics.median(b[0] for b in b_runs), "b_wall": statistics.median(b[1] for b in b_runs)}


def _run_bench(script: str, args: list[str]) -> tuple[str, float, float]:
    b_before = _timed(B_CMD)
    start = time.perf_counter()
    proc = subprocess.run([PY, str(HERE / script), *args], cwd=ROOT, capture_output=True, text=True, env=ENV)
    wall = time.perf_counter() - start
    b_after = _timed(B_CMD)
    b_wall = (b_before[1] + b_after[1]) / 2
    text = proc.stdout + (f"\n(exit {proc.returncode}: {proc.stderr.strip().splitlines()[-1]})"
                          if proc.returncode else "")
    return text, wall, b_wall


def _pattern_rows(text: str, b_wall: float) -> list[str]:
    rows = []
    for line in text.splitlines():
        m = re.match(r"(\S+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+(\S+)\s+([\d.]+)\s*\|\s*(.*)", line)
        if m:
            name, n, build, analyse, diameter, group, rest = m.groups()
            ours = float(build) + float(analyse) + float(group)
            rows.append(f"| {name} | {n} | {float(build):.2f} | {float(analyse):.2f} | {diameter} | "
                        f"{float(group):.2f} | {ours / b_wall:.2f}×B | {rest.strip()} |")
    return rows


def _catalog_case(name: str) -> bool:
    return name.startswith(("catalog", "the issue's original catalog"))


def _row_name(name: str) -> str:
    """The row's name without its file count (the key a `--catalog-only` run replaces rows by)."""
    return re.sub(r" \(\d+ files\)$", "", name)


def _per_file_lines(b_cpu: float) -> list[str]:
    times = per_file_times()
    total = sum(times.values())
    lines = ["Where the catalog's time goes (CPU in one process, imports excluded): "
             f"{total:.2f} s = {total / b_cpu:.1f}×B over {len(times)} files; the slowest:", "",
             "| file | CPU s | ×B | share |", "|---|---:|---:|---:|"]
    for f, sec in sorted(times.items(), key=lambda kv: -kv[1])[:8]:
        lines.append(f"| `{f}` | {sec:.3f} | {sec / b_cpu:.2f} | {100 * sec / total:.0f} % |")
    return lines


def _row(name: str, r: dict, target) -> str:
    met = "" if target is None else ("yes" if r["cpu_ratio"] <= target else "NO")
    return (f"| {name} | {r['cpu']:.3f} | {r['cpu_ratio']:.2f}×B | {r['wall']:.3f} | "
            f"{r['wall_ratio']:.2f}×B | {'' if target is None else f'≤ {target}×B'} | {met} |")


HISTORY_HEADING = "## Before the start-up and batch work, and since"


def _history(out: Path) -> str:
    """The history section as the results file has it (paragraphs are added there by hand, and a run keeps them);
    HISTORY when the file or its section does not exist yet."""
    if not out.exists():
        return HISTORY
    lines = out.read_text("utf-8").split("\n")
    if HISTORY_HEADING not in lines:
        return HISTORY
    k = lines.index(HISTORY_HEADING) + 1
    body = []
    while k < len(lines) and not lines[k].startswith("## "):
        body.append(lines[k])
        k += 1
    return "\n".join(body).strip()


STARTUP_NOTE = "The start-up and one-file rows:"


def catalog_only(ns) -> int:
    """Re-measure the catalog rows, the per-file table and the history (or with `--startup-only` the start-up and
    one-file rows and their note); keep the rest of the file."""
    out = Path(ns.out)
    old = out.read_text("utf-8").split("\n")
    load = os.getloadavg()[0]
    rows, failed = {}, []
    for name, cmd, target in cases():
        if _catalog_case(name) != ns.startup_only:
            r = measure(cmd, ns.repeat)
            rows[_row_name(name)] = _row(name, r, target)
            if target is not None and r["cpu_ratio"] > target:
                failed.append(name)
            print(rows[_row_name(name)], flush=True)
    b = measure(B_CMD, ns.repeat)
    new: list[str] = []
    k = 0
    while k < len(old):
        line = old[k]
        cells = line.split(" | ")
        if line.startswith("| ") and _row_name(cells[0][2:]) in rows:
            new.append(rows.pop(_row_name(cells[0][2:])))
            if not old[k + 1].startswith("| "):  # rows new to the file follow the last catalog row
                new += list(rows.values())
                rows.clear()
        elif line.startswith("Where the catalog's time goes") and not ns.startup_only:
            new += _per_file_lines(b["b_cpu"])
            k += 1
            while k < len(old) and (not old[k] or old[k].startswith("|")):
                k += 1  # the old table
            new.append("")
            continue
        elif line.startswith("B itself:") and ns.startup_only:
            new.append(line)
            new.append("")
            new.append(f"{STARTUP_NOTE} `python bench/run.py --startup-only --repeat {ns.repeat}` on "
                       f"{datetime.date.today().isoformat()}, load average {load:.1f} at the start (other jobs on the 2 "
                       f"cores; CPU ratios are the checked figures), B {b['b_cpu']:.3f} s CPU (median) beside them.")
            k += 1
            while k < len(old) and (not old[k] or old[k].startswith(STARTUP_NOTE)):
                k += 1
            new.append("")
            continue
        elif line.startswith("B itself:"):
            new.append(line)
            new.append("")
            k += 1
            kept = []  # the start-up rows' note stays (before this one)
            while k < len(old) and (not old[k] or old[k].startswith(("The catalog rows and the table below",
                                                                       STARTUP_NOTE))):
                if old[k].startswith(STARTUP_NOTE):
                    kept += [old[k], ""]
                k += 1
            new += kept
            new.append(f"The catalog rows and the table below: `python bench/run.py --catalog-only --repeat {ns.repeat}` "
                       f"on {datetime.date.today().isoformat()}, load average {load:.1f} at the start (other jobs on "
                       f"the 2 cores; CPU ratios are the checked figures), B {b['b_cpu']:.3f} s CPU (median) beside them.")
            new.append("")
            continue
        else:
            new.append(line)
        k += 1
    out.write_text("\n".join(new), "utf-8")
    print(f"wrote {out}" + (f"; targets missed: {', '.join(failed)}" if failed else "; every target met"))
    return 1 if failed else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="small pattern sizes only")
    ap.add_argument("--no-sizes", action="store_true", help="keep bench/SIZES.md as it is")
    ap.add_argument("--catalog-only", action="store_true",
                    help="re-measure only the catalog rows, the per-file table and the history")
    ap.add_argument("--out", default=str(HERE / "RESULTS.md"))
    ap.add_argument("--startup-only", action="store_true",
                    help="re-measure only the start-up and one-file rows of the first table")
    ns = ap.parse_args()
    compileall.compile_dir(str(ROOT / "uapcheck"), quiet=1)
    if ns.catalog_only or ns.startup_only:
        return catalog_only(ns)

    lines = ["# Benchmarks", "",
             f"Regenerated by `python bench/run.py` on {datetime.date.today().isoformat()}: "
             f"Python {platform.python_version()}, {os.cpu_count()} cores, load average "
             f"{os.getloadavg()[0]:.1f} at the start. B = `python -c \"import sympy\"` in the same run. "
             f"Ratios are minima over {ns.repeat} runs, each against the B runs beside it; the CPU ratio is the "
             "one the targets are checked on (other jobs on the machine inflate wall time).", "",
             "## Start-up, one file, the catalog", "",
             "| case | CPU s | CPU ratio | wall s | wall ratio | target | met |",
             "|---|---:|---:|---:|---:|---:|---|"]
    failed = []
    for name, cmd, target in cases():
        r = measure(cmd, ns.repeat)
        if target is not None and r["cpu_ratio"] > target:
            failed.append(name)
        lines.append(_row(name, r, target))
        print(lines[-1], flush=True)
    b = measure(B_CMD, ns.repeat)
    lines += ["", f"B itself: {b['b_cpu']:.3f} s CPU, {b['b_wall']:.3f} s wall (median).", ""]
    lines += _per_file_lines(b["b_cpu"])
    lines.append("")

    lines += ["## Kernel limits (`bench/bench_limits.py`)", "",
              "Engine vs `sympy.limit` in one process; seconds, as the script prints them.", "", "```"]
    text, wall, b_wall = _run_bench("bench_limits.py", [])
    lines += [text.rstrip(), "```", "",
              f"Whole script: {wall:.1f} s wall = {wall / b_wall:.1f}×B (B {b_wall:.3f} s wall beside it).", ""]
    for m in re.finditer(r"whole derivation of the dense (\S+) file after imports, cold cache: ([\d.]+) s", text):
        lines.append(f"- dense {m.group(1)} derivation after imports: {float(m.group(2)) / b_wall:.2f}×B")
    lines.append("")

    args = ["--n", "16384", "--small", "2048", "--cap", "20"] if ns.quick else []
    lines += ["## Sparse patterns (`bench/bench_patterns.py " + " ".join(args) + "`)", "",
              "Our build, analysis (strong connectivity + exact diameter) and group, in seconds and as "
              "a multiple of B; networkx (build, analyse, ratio) as the script prints it.", "",
              "| pattern | n | build s | analyse s | diameter | group s | ours ×B | networkx build, analyse, ratio |",
              "|---|---:|---:|---:|---:|---:|---:|---|"]
    text, wall, b_wall = _run_bench("bench_patterns.py", args)
    rows = _pattern_rows(text, b_wall)
    lines += rows or ["", "```", text.rstrip(), "```"]
    lines.append("")

    lines += [HISTORY_HEADING, "", _history(Path(ns.out)), ""]

    sizes = HERE / "SIZES.md"  # large n: bench/bench_sizes.py, run here too unless --no-sizes
    if not ns.no_sizes:
        subprocess.run([PY, str(HERE / "bench_sizes.py"), "--repeat", str(ns.repeat)], cwd=ROOT, env=ENV, check=True)
    if sizes.exists():
        body = sizes.read_text("utf-8").strip().split("\n", 1)[-1].strip()
        lines += ["## Real sizes (copied from bench/SIZES.md; `python bench/bench_sizes.py` regenerates it)", "",
                  body, ""]

    Path(ns.out).write_text("\n".join(lines) + "\n", "utf-8")
    print(f"wrote {ns.out}" + (f"; targets missed: {', '.join(failed)}" if failed else "; every target met"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
