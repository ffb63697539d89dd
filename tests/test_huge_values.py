"""Huge values (issue 14, "Unbreakable"): a file whose parameters are 10⁹ ends within its budget, in bounded memory,
with a verdict, an undecided step naming the bound, or a located input error, and never by listing or computing
something in proportion to a value (its digits are what the file costs).

Each case runs the command line (`--format json --budget 2 --memory 1G --no-cache`) in a forked child of this
process (the engines imported once), under an address-space limit of its own; the child measures the CPU time and the
growth of its peak resident memory. A case that ran out of a limit reports the rule BUDGET, which is asserted absent.

`huge_programs` draws valid programs with huge and adversarial values in every construct of the grammar; a few dozen
run in the normal test run, UAPCHECK_NIGHTLY=1 runs 600 (UAPCHECK_HUGE_CASES overrides the number,
UAPCHECK_HUGE_SEED draws another corpus).

Campaign of issue 14's huge values (each file run as above, under `ulimit -v`, measured per file): a seeded generator
of the same constructs, 300 files (165 refused with a located error: a global position or edge beyond n, and so on),
before the fixes 39 ran out of a limit (3 above 300 MB); after them 5. A second round, 250 more files of that
generator and 200 of `huge_programs` (UAPCHECK_HUGE_SEED=7), run after the first fixes: 14 ran out, one was an internal
error (exit 3: `layers 1` with `star` at n = 10⁹) and one used 18 s of CPU under a 2 s budget (`full & edges {…}` at
n = 10⁹); after the later fixes 9 run out and none fails otherwise. Those left run out in group and connectivity
closed forms at symbolic n that take a step per unit of a size (`window(w) cyclic` at w ≈ n/2, cyclic offsets near
±n, global unions), in factoring a degree-10 kernel with a constant of 10⁹ under the sign decision's own 2 s limit,
in the normal form's listing of a cyclic window of 65,536, and in concrete token graphs at n = 65,536 whose group
search (BLISS's generators) takes over 1 GB. Those are fixed and are cases below (with F21's order by residues for a
huge block, a head group's range found n by n, and labelled twin keys built per label of a hub)."""
from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import sys
from pathlib import Path

import pytest
import hypothesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uapcheck import cli

from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
CASES = int(os.environ.get("UAPCHECK_HUGE_CASES", "600" if NIGHTLY else "36"))
SEED = os.environ.get("UAPCHECK_HUGE_SEED")
CPU_SECONDS = 2.0  # the file's budget; a case above it (plus start-up slack) ran out of it
MEMORY_MB = 300  # growth of the peak resident memory over the forked child's start
KERNEL = "kernel k(x, y) = exp(x . y)"


def _vm_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _status_kb(field: str) -> int:
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith(field + ":"))


def _reset_peak() -> bool:
    """Reset this process's peak resident size (VmHWM) to its current size: a forked child inherits the parent's peak
    (and ru_maxrss keeps it), which would hide the child's own growth below it. False where /proc does not allow it."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def measured(path: Path) -> dict:
    """The JSON report of `path` with the CPU seconds and the peak-memory growth (MB) of the run, from a forked child
    under an address-space limit of the current size plus 1.5 GiB."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(read)
            limit = _vm_bytes() + (3 << 29)
            resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
            os.environ["UAPCHECK_IN_PROCESS"] = "1"
            peak_reset = _reset_peak()
            start = resource.getrusage(resource.RUSAGE_SELF)
            base = _status_kb("VmRSS") if peak_reset else start.ru_maxrss
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                code = cli.main(["--format", "json", "--budget", "2", "--memory", "1G", "--no-cache", str(path)])
            end = resource.getrusage(resource.RUSAGE_SELF)
            peak = _status_kb("VmHWM") if peak_reset else end.ru_maxrss
            report = {"code": code, "json": out.getvalue(),
                      "cpu": (end.ru_utime - start.ru_utime) + (end.ru_stime - start.ru_stime),
                      "memory_mb": (peak - base) / 1024}
            os.write(write, json.dumps(report).encode())
        finally:
            os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 1 << 16):
        chunks.append(chunk)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0 and chunks, f"{path}: the run died ({status})"
    report = json.loads(b"".join(chunks))
    lines = report["json"].splitlines()
    assert len(lines) == 1, report["json"][:2000]
    report["report"] = json.loads(lines[0])
    return report


def assert_bounded(report: dict, what: str) -> None:
    obj = report["report"]
    assert report["code"] in (0, 1, 2), (what, report["code"])
    ran_out = [s["claim"] for s in obj.get("steps", ()) if s.get("rule") == "BUDGET"]
    assert not ran_out, (what, ran_out)
    assert report["cpu"] < CPU_SECONDS, (what, report["cpu"])
    assert report["memory_mb"] < MEMORY_MB, (what, report["memory_mb"])


@pytest.fixture(autouse=True, scope="module")
def warm_engines():
    """The engines, printers and parser loaded before the children fork (each child starts warm, as the command line's
    workers do)."""
    from uapcheck.derive import check_spec
    from uapcheck.parse import parse_source
    from uapcheck.render import jsonout  # noqa: F401
    check_spec(parse_source(f"tokens 4\nattention {{ {KERNEL}\n pattern window(1) }}\n", "warm.uap"))


def _run(tmp_path: Path, name: str, source: str) -> dict:
    path = tmp_path / f"{name}.uap"
    path.write_text(source, "utf-8")
    return measured(path)


def _steps(obj: dict) -> list:
    return obj.get("steps", [])


# name: (source, verdict, a phrase some step's claim holds); found by the campaign recorded in the report of issue 14
REGRESSIONS = {
    # `circular(l)` listed min(l, n − 1) + 1 taps before the length's bound was asked: 1 GiB at once
    "convolution_span_above_bound": ("tokens 536870912\nconvolution circular(999999999)\n", "INCONCLUSIVE",
                                     "n = 536,870,912 is above 1,000,000"),
    # the certificate of a dense symmetric bias's two layers built σ = (a b) as a list of n positions
    "dense_symmetric_bias_at_1e9": (f"tokens 999999999\nattention {{ {KERNEL}\n bias b(i, j) = -|i - j| }}\n", "UAP",
                                    "two attention layers"),
    # a union with `full` is `full`, whose group at n = 10⁹ the closed forms state: the token graph's engine computed
    # (10⁹)! (the whole budget, "computing the automorphism group")
    "full_union_window_at_1e9": (f"tokens 999999999\nattention {{ {KERNEL}\n pattern full + window(1) }}\n", "UAP",
                                 "has the arcs of full"),
    "full_union_offsets_at_1e9": (f"tokens 999999999\nattention {{ {KERNEL}\n pattern full + offsets {{-999999999, "
                                  "1000000000, -499999999}\n bias b(i, j) = -|i - j|^999 }\n", "UAP",
                                  "has the arcs of full"),
    # an intersection keeps `full` as written; its complete graph's engines took the n positions one by one ((10⁹)!,
    # and 684 MB for the circulant bias's class-1 arcs): now refused as too large, naming the limit and the fitting n
    # `full & full` is `full` in normal form (docs/theory.md §11.13, item 5): decided by its closed form at once
    "full_intersection_at_1e9": (f"tokens 1000000000\nattention {{ {KERNEL}\n pattern full & full }}\n", "UAP",
                                 "G = S_n"),
    "full_intersection_circulant_at_1e9": (f"tokens 1000000000\nattention {{ {KERNEL}\n pattern full & full\n"
                                           " bias circulant }\n", "UAP", "G = C_n"),
    # a `layers 1` budget below the diameter built the token graph for a far pair, and a graph too large to build was an
    # internal error (exit 3); the closed form's diameter states the failure
    "star_budget_at_1e9": (f"tokens 1000000000\nlayers 1\nattention {{ {KERNEL}\n pattern star }}\n", "NOT-UAP",
                           "below the directed diameter 2"),
    "star_per_layer_budget_at_1e9": ("tokens 1000000000\nlayers 1\nattention { kernel k(x, y) = (1 + x . y)^50\n"
                                     " pattern periodic { star }\n heads 999999999 kv 1\n}\n", "NOT-UAP", ""),
    # the normal form's certificate listed the offsets of every part before it looked for `full` (1.2 GB)
    "full_beside_wide_cyclic_window": ("layers 1\nattention {\n score s(x, y) = sigmoid(x . y)\n pattern full + offsets {1, "
                                       "999999999} + window(500000000) cyclic\n tie query key\n}\n", "INCONCLUSIVE",
                                       "has the arcs of full"),
    # `full & edges {…}` at n = 10⁹: dropping the self-loops walked 10⁹ candidate codes in C, where the CPU budget's
    # signal is not seen (18 s under a 2 s budget); then the group's search ran out of memory over 10⁹ positions
    "edges_intersection_at_1e9": ("tokens 1000000000\nattention { kernel k(x, y) = exp(x . y)\n pattern full & edges "
                                  "{1 -> 1000000000, 2 -> 3} }\n", "INCONCLUSIVE", "positions (limit 16,777,216"),
    # Theorem F27's range asks gcd(n, g) = 1; the other classes of n mod g were listed one by one (g = 999,999,999)
    "cyclic_offset_modulus_1e9": ("attention { kernel k(x, y) = exp(x . y)\n pattern offsets {-999999999} cyclic }\n",
                                  "UAP", "strongly connected with directed diameter n - 1"),
    # a triangular pattern's group looked for the path 1 → 2 → … → n position by position, drawing 10⁹ random rows
    "random_sinks_at_1e9": ("tokens 999999999\nattention { kernel k(x, y) = exp(x . y)\n pattern random(3, seed=0) & "
                            "sinks(123456789)\n bias circulant }\n", "NOT-UAP", "not strongly connected"),
    # taps 999,999,999·[−1, 1] at a symbolic n: the classes of n mod 999,999,999 were listed one by one
    "convolution_scaled_taps_1e9": ("convolution circular {-999999999, 999999999}\n", "INCONCLUSIVE",
                                    "listed only for a modulus up to 10,000"),
    # cyclic offsets {1, s}: telling {1, …, w} from the values built a list of w = 10⁹ entries
    "cyclic_offsets_one_and_1e9": ("tokens n\npositional absolute\nlayers 1\nattention { kernel k(x, y) = cosh(x . y)^40\n"
                                   " pattern offsets {1, 999999999} cyclic\n rotary }\n", None, ""),
    # (1 + x · z)^50 written through |x − z|² has 23,426 terms: SymPy's expansion took half a minute
    "binomial_kernel_power_50": ("attention { kernel k(x, y) = (1 + x . y)^50 }\n", "INCONCLUSIVE", "WP-"),
    # the interval enclosure of exp(exp(exp(x · y))) at x · y = 9 asked mpmath for e^(10^3519): out of memory at once
    "triple_exponential_kernel": ("attention { kernel k(x, y) = exp(exp(exp(x . y))) }\n", "INCONCLUSIVE", ""),
    # a polynomial of degree 999 beside exp(x) was handed to `factor` (Wang's algorithm, minutes)
    "feature_power_999": ("attention { features phi(x) = [exp(x), x^999] }\n", "INCONCLUSIVE", ""),
    # the case list of `window(w) cyclic` computed 2^(w + 1) for its case n = 2w + 2 where that case does not apply
    # (SymPy's Mul evaluates a power of integers: 5 s at w = 10⁹); the order stays 2^(w + 1) · (w + 1)!
    "cyclic_window_antipodal_case_at_1e9": (f"tokens 999999999\nattention {{ {KERNEL}\n pattern window(1000000000) "
                                            "cyclic }\n", "UAP", "complete"),
    "cyclic_window_antipodal_order_stated": (f"tokens 800000002\nattention {{ {KERNEL}\n pattern window(400000000) "
                                             "cyclic }\n", "UAP", "2^400000001"),
    # blocks(2) at 10⁹: (2!)^(5 · 10⁸) was computed digit by digit
    "blocks_two_at_1e9": (f"tokens 1000000000\nattention {{ {KERNEL}\n pattern blocks(2) }}\n", "NOT-UAP", ""),
    # F21's order is listed residue by residue of n mod b: b = 10⁹ computed (b − 2w)! (27 s in C, where the budget's
    # signal is not seen) and then looped over 10⁹ residues; b in the thousands was an internal error (a residue's order
    # longer than a sort key prints)
    "blocks_window_residues_1e9": (f"attention {{ {KERNEL}\n pattern blocks(999999999) + window(1) }}\n",
                                   "INCONCLUSIVE", "listed only for b up to 128"),
    "blocks_window_residues_3000": (f"attention {{ {KERNEL}\n pattern blocks(3000) + window(1) }}\n",
                                    "INCONCLUSIVE", "listed only for b up to 128"),
    # two heads' anchor: the range of a window(w) head's group case was found by trying n = 1, 2, … up to w + 2
    "head_anchor_range_wide_window": (f"attention {{ {KERNEL}\n pattern window(999999999) }}\nattention {{ {KERNEL}\n"
                                      " pattern window(1) + global(2) }\n", "UAP", "order 4"),
    # the normal form asked, for each difference of a part, whether another part has it by listing that part's
    # offsets again (2 · 131,073 differences × a set of 262,147): one step per difference, bounded, and no listing
    "normal_form_block_in_wide_window": (f"attention {{ {KERNEL}\n pattern blocks(131073) + window(131073) }}\n",
                                         "INCONCLUSIVE", ""),
    # a forest of random(1) arcs at 65,536 positions: the orbits were read from BLISS's generators of the quotient, all
    # listed at once (746 bits × 61,536 classes: 1.4 GB); beyond the generators' bound the orbits are left unknown
    "random_one_orbits_at_65536": (f"tokens 65536\nattention {{ {KERNEL}\n pattern random(1, seed=0) }}\n", "NOT-UAP",
                                   "not strongly connected"),
    # labelled twins: a global position's two-way arcs carry 8,190 labels (-|i - j|^999 is one class per distance),
    # and each label's candidate key built a set of its 8,190 neighbours (13.7 s and 8.3 GB at 8,192 positions; a kill
    # at 65,536): the keys are hashed in O(1) each and built only where two positions share one
    "labelled_twins_hub_at_8192": (f"tokens 8192\nattention {{ {KERNEL}\n pattern window(1) + global(2) + random(1, "
                                   "seed=0)\n bias b(i, j) = -|i - j|^999 }\n", "UAP", ""),
    # `P & full` inside a union is P: the rewrite's certificate listed the offsets of `dilated(500000000, 3)` to
    # compare the arcs (10⁹ of them, the memory limit); a part wider than the normal form lists is compared as written
    "wide_dilation_beside_star_met_with_full": ("tokens 999999999\nattention { kernel k(x, y) = exp(x . y)\n pattern "
                                                "dilated(500000000, 3) + star & full }\n", "INCONCLUSIVE",
                                                "has the arcs of"),
    "normal_form_wide_window_covered": (f"attention {{ {KERNEL}\n pattern window(131073) + window(131072) cyclic + "
                                        "strided(131073) }\n", "INCONCLUSIVE", ""),
}


@pytest.mark.parametrize("name", sorted(REGRESSIONS))
def test_huge_value_ends_fast_with_its_verdict(tmp_path, name):
    source, verdict, phrase = REGRESSIONS[name]
    report = _run(tmp_path, name, source)
    assert_bounded(report, name)
    obj = report["report"]
    assert verdict is None or obj.get("verdict") == verdict, (name, obj.get("verdict"), obj.get("error"))
    claims = " ".join(s["claim"] for s in _steps(obj)) + " " + " ".join(s["rule"] for s in _steps(obj))
    assert phrase in claims, (name, claims[:3000])


def test_small_binomial_kernel_still_uses_every_form():
    """The bound leaves the forms of ordinary kernels as they were: (1 + x · z)^2 through |x − z|² has 10 terms."""
    import sympy
    from uapcheck.expansion_size import expansion_fits, factoring_fits
    from uapcheck.rules.analytic import REPARAMETRISATIONS
    from uapcheck.lower import QUERY_DOT_KEY as a
    small, big = (1 + a) ** 2, (1 + a) ** 50
    for _, sub in REPARAMETRISATIONS[1:]:
        assert expansion_fits(small.xreplace(sub))
        assert not expansion_fits(big.xreplace(sub))
        assert len(sympy.expand(small.xreplace(sub)).args) <= 10
    x = sympy.Symbol("x")
    assert factoring_fits(x ** 60 - 1) and not factoring_fits(x ** 999 + sympy.exp(x))


def test_expansion_bound_is_an_upper_bound():
    """The term count the bound computes is never below SymPy's own, on sums and products of powers."""
    import itertools
    import sympy
    from uapcheck import expansion_size
    a, b, c = sympy.symbols("a b c")
    for base, e, other in itertools.product((a + 1, a + b - c, (a + b) / 2 + 3), (1, 2, 3, 5, 8), (1, b + c, a * c)):
        expr = base ** e * other
        assert expansion_size._terms(expr, 10 ** 6) >= len(sympy.Add.make_args(sympy.expand(expr)))


def test_enclosure_refuses_an_exponential_beyond_its_bound():
    """e^x is enclosed up to |x| ≤ 2^20 and refused beyond (never computed with a mantissa of |x| bits)."""
    import sympy
    from uapcheck.intervals import MAX_EXPONENT, NotEnclosable, enclose, excludes_zero
    t = sympy.Symbol("t")
    assert excludes_zero(enclose(sympy.exp(sympy.exp(t)), {t: sympy.Integer(9)}))  # e^8103
    with pytest.raises(NotEnclosable):
        enclose(sympy.exp(sympy.exp(sympy.exp(t))), {t: sympy.Integer(9)})
    with pytest.raises(NotEnclosable):
        enclose(sympy.tanh(t), {t: sympy.Integer(MAX_EXPONENT)})


# -- the campaign's generator: valid programs with huge and adversarial values in every construct ---------------------

HUGE = st.sampled_from(["999999999", "1000000000", "999999998", "500000000", "123456789", "65536", "1048577", "big",
                        "w"])
LENGTHS = st.sampled_from(["999999999", "1000000000", "n", "n", "65536", "1048577", "999999937", "536870912"])


@st.composite
def near(draw, n: str) -> str:
    """An offset near ±n (or a small one)."""
    if not n.isdigit():
        return draw(st.sampled_from(["999999999", "-999999999", "999999998", "-999999998", "1", "-1"]))
    size = int(n)
    return str(draw(st.sampled_from([size - 1, 1 - size, size - 2, 2 - size, size // 2, -(size // 2), 1, -1, size,
                                     -size, size + 1])))


@st.composite
def huge_terms(draw, n: str) -> str:
    concrete = n.isdigit()
    kinds = ["full", "causal", "star", "window", "window_c", "offsets", "offsets_c", "dilated", "strided", "blocks",
             "global", "sinks", "global_at", "blockwise"] + (["random", "columns", "edges"] if concrete else [])
    kind = draw(st.sampled_from(kinds))
    size = draw(HUGE)
    if kind in ("offsets", "offsets_c"):
        offsets = ", ".join(draw(st.lists(near(n), min_size=1, max_size=3)))
        return f"offsets {{{offsets}}}" + (" cyclic" if kind == "offsets_c" else "")
    return {
        "full": "full", "causal": "causal", "star": "star", "window": f"window({size})",
        "window_c": f"window({size}) cyclic", "dilated": f"dilated({size}, {draw(st.sampled_from(['2', '3', size]))})",
        "strided": f"strided({size})", "blocks": f"blocks({size})", "global": f"global({size})",
        "sinks": f"sinks({size})", "global_at": f"global {{1, {draw(st.sampled_from(['2', '999999999', '65535']))}}}",
        "blockwise": f"blockwise({size}) {{ window(1) + global {{1}} }}",
        "random": f"random({draw(st.sampled_from(['1', '3', size]))}, seed={draw(st.sampled_from(['0', '999999999']))})",
        "columns": f"columns({size}, {draw(st.sampled_from(['1', size]))})",
        "edges": f"edges {{1 -> {n}, {n} -> 1, 2 -> 3}}",
    }[kind]


@st.composite
def huge_patterns(draw, n: str) -> str:
    terms = draw(st.lists(huge_terms(n), min_size=1, max_size=3))
    out = terms[0]
    for t in terms[1:]:
        out = f"{out} {draw(st.sampled_from(['+', '+', '&']))} {t}"
    return out


BIG_CONSTANTS = st.sampled_from(["999999999", "1000000000", "10", "1/999999999", "2"])
KERNELS = st.sampled_from(["((x . y)^10)^10", "(x . y + {c})^{e}", "exp({c} * x . y)", "exp(x . y)^{p}", "(x . y)^{p}",
                           "exp(-|x - y|^2 / {c})", "exp(x . y) * {c}", "exp(x . y) + {c}", "sigmoid({c} * x . y)",
                           "(1 + x . y)^{e}", "exp(x . y)", "cosh(x . y)^40", "exp((x . y)^9)", "max(x . y, {c})^3",
                           "tanh(x . y)^99", "exp(exp(exp(x . y)))"])
OTHER_ITEMS = st.sampled_from(["", "", "heads 8 kv 2", "heads 999999999", "heads 999999999 kv 1", "bias free",
                               "bias circulant", "bias symmetric toeplitz", "bias buckets(999999999, 999999999)",
                               "bias buckets(32, 999999999)", "rotary", "bias b(i, j) = 999999999 * (i - j)",
                               "bias b(i, j) = -|i - j|^999", "reweight c(i, j) = exp(-(i - j)^2 * 999999999)",
                               "nystrom landmarks 999999999", "sink logit 999999999", "differential",
                               "project keys values to 999999999", "affine query key", "tie query key"])
LAYER_ITEMS = st.sampled_from(["window(1)", "causal", "sinks(999999999) + window(1)", "blocks(999999999)", "star"])


@st.composite
def huge_heads(draw, n: str, per_layer: bool) -> str:
    kind = draw(st.sampled_from(["kernel", "kernel", "kernel", "features", "score"]))
    if kind == "kernel":
        body = "kernel k(x, y) = " + draw(KERNELS).format(c=draw(BIG_CONSTANTS),
                                                          e=draw(st.sampled_from(["2", "3", "10", "20", "50", "200"])),
                                                          p=draw(st.sampled_from(["2", "10", "100", "999", "1000"])))
    elif kind == "features":
        body = draw(st.sampled_from(["features phi(x) = elu(x) + 999999999", "features phi(x) = exp(x)",
                                     "features phi(x) = relu(x)^10", "features phi(x) = [exp(x), x^999]"]))
    else:
        body = "score s(x, y) = " + draw(st.sampled_from(["sigmoid(x . y)", "relu(x . y)^999",
                                                          "sigmoid(999999999 * x . y)"]))
    items = [body]
    if per_layer:
        listed = draw(st.lists(st.one_of(huge_patterns(n), LAYER_ITEMS), min_size=1, max_size=5))
        items.append(f"pattern {draw(st.sampled_from(['periodic', 'sequence']))} {{ {', '.join(listed)} }}")
    elif draw(st.integers(0, 6)):
        items.append(f"pattern {draw(huge_patterns(n))}")
    extra = draw(OTHER_ITEMS)
    if per_layer and extra.startswith(("bias", "reweight", "rotary")):
        extra = ""
    if kind != "kernel" and extra.startswith(("nystrom", "sink", "differential")):
        extra = ""
    if extra.startswith("project"):
        items = [body]
    return "attention {\n " + "\n ".join(i for i in [*items, extra] if i) + "\n}\n"


@st.composite
def huge_programs(draw) -> str:
    """A valid program (or one refused with a located error: a global position beyond n, say) whose sizes, offsets,
    constants, exponents, head counts, budgets and expected values are huge."""
    n = draw(LENGTHS)
    tokens = "" if n == "n" and draw(st.integers(0, 2)) == 0 else f"tokens {n}\n"
    params = "param gamma > 0\nparam w integer >= 999999999\nparam big integer >= 999999999\n"
    statements = "".join(s + "\n" for s in draw(st.lists(st.sampled_from(
        ["dim 999999999", "positional absolute", "layers 999999999", "layers 1", "target causal", "target receptive",
         "dim 1"]), max_size=2, unique=True)))
    if draw(st.integers(0, 9)) == 0:
        body = f"convolution circular({draw(st.sampled_from(['999999999', 'big', 'w']))})\n"
        statements = "".join(line + "\n" for line in statements.splitlines()
                             if not line.startswith(("target", "positional")))
    else:
        per_layer = n.isdigit() and "target" not in statements and "positional" not in statements and \
            draw(st.integers(0, 2)) == 0
        body = "".join(draw(st.lists(huge_heads(n, per_layer), min_size=1, max_size=3)))
    ffn = draw(st.sampled_from(["", "ffn relu\n", "ffn sigma(u) = u^999\n", "ffn sigma(u) = exp(999999999 * u)\n",
                                "ffn none\n", "ffn identity\n"]))
    symbolic = not n.isdigit()
    expect = draw(st.sampled_from(
        ["", "", "expect uap\n", "expect uap layers 999999999\n", "expect uap group order " + "9" * 30 + "\n",
         "expect uap group stabilizer 999999999\n", "expect not-uap\n"]
        + (["expect uap layers ceil(n / 999999999)\n", "expect uap for n >= 999999999\nexpect not-uap for n <= 999999998\n",
            "expect uap, not-uap if n mod 999999937 = 5\n"] if symbolic else ["expect uap layers 1\n"])))
    return f'architecture "huge"\n{params}{tokens}{statements}{body}{ffn}{expect}'


def huge_corpus(count: int) -> list[str]:
    out: list[str] = []

    @settings(max_examples=count, derandomize=SEED is None, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(huge_programs())
    def collect(src):
        out.append(src)
    if SEED is not None:
        collect = hypothesis.seed(int(SEED))(collect)
    collect()
    return out[:count]


#: Runaways found by the campaign and not yet fixed, by the step their budget ran out in (each with its root cause): a
#: drawn program that ran out there is counted, not failed. Any other runaway fails the test. (The closed forms' case
#: n = 2w + 2 of `window(w) cyclic`, which computed 2^(w + 1) whether or not it applied, is fixed: its order is a power
#: kept unevaluated, bignum.power.)
KNOWN_OPEN: set[str] = set()


def test_huge_programs_end_within_budget_and_memory(tmp_path):
    """Every drawn program ends within its CPU budget and 300 MB, with a verdict or a located input error; the reports
    that ran out of a limit are listed (none is allowed but in a step of KNOWN_OPEN)."""
    failures = []
    for k, source in enumerate(huge_corpus(CASES)):
        report = _run(tmp_path, f"h{k:04d}", source)
        steps = [s.get("evidence", {}).get("step") for s in _steps(report["report"]) if s.get("rule") == "BUDGET"]
        if steps and set(steps) <= KNOWN_OPEN:
            continue
        try:
            assert_bounded(report, f"h{k:04d}")
            obj = report["report"]
            assert "verdict" in obj or ("error" in obj and obj["error"].get("line")), obj
        except AssertionError as exc:
            failures.append((source, str(exc)[:400]))
    assert not failures, "\n\n".join(f"{src}\n→ {why}" for src, why in failures[:5])


if __name__ == "__main__":  # the campaign: `python tests/test_huge_values.py DIR COUNT` writes COUNT programs to DIR
    target, count = Path(sys.argv[1]), int(sys.argv[2])
    target.mkdir(parents=True, exist_ok=True)
    for k, src in enumerate(huge_corpus(count)):
        (target / f"h{k:05d}.uap").write_text(src, "utf-8")
