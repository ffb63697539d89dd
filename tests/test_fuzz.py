"""Fuzzing (issues 14 and 15): valid `.uap` programs generated from the grammar, and mutations of
the catalog files. Asserted: no traceback, exit codes only 0–2, every run within its CPU budget,
and output byte-identical across two runs and across PYTHONHASHSEED values.

The normal run checks a few hundred generated files in a handful of CLI runs (one run checks many
files). UAPCHECK_NIGHTLY=1 runs about 10,000 (UAPCHECK_FUZZ_CASES overrides the number).

Campaign of the last round of issue 14 (`hostile_programs` added: per-layer `periodic {…}` / `sequence {…}` lists with
sinks, causal parts and `edges`, huge params (`param big integer >= 999999999`) and sizes, functions nested up to 250
deep, two to five heads with biases, convolutions at spans of 10⁹, biases with huge constants; one draw in three):
corpora of 900 files each (600 generated, 300 catalog mutations) for UAPCHECK_FUZZ_SEED = 101, 202, 303, each file run
with `--budget 2 --memory 1G`. Seed 101: 428 files run before a fix and 427 after it (the rest of the three corpora
did not run in the time). Findings: one runaway, fixed at the root — naming the group at a concrete length compared
its order with n! and computed (10⁹)! at `tokens 1000000000` (the file spent its whole budget "starting";
tests/test_groups_at_concrete_length.py); no traceback, no exit code outside 0–2, every file within its budget (six
INCONCLUSIVE by the 2 s budget, naming the step: the asymptotic expansion of nested kernels (4), building or
analysing the pattern graphs (2)).

Campaign of issue 14's third round (`mutate_certificate` added: catalog certificates edited and run through `uapcheck
verify`): corpora of 840 files each (560 generated, 280 catalog mutations) for UAPCHECK_FUZZ_SEED = 404 and 505, each
file run with `--budget 2 --memory 1G --no-cache` under PYTHONHASHSEED 0 and 12345 and the outputs compared: all 1,680
run, no traceback, no exit code outside 0–2, no difference between the two runs (one batch of seed 404 ended with
exit 3 while the sources were being edited under it; re-run from a fixed checkout it ends cleanly and identically).
Verdicts: UAP 418, NOT-UAP 141, INCONCLUSIVE 557 (78 by the 2 s budget, naming the step), ILL-POSED 170, input errors
394. Mutated certificates (100 for seed 707, twice each, and this module's own): one finding, fixed at the root — a certificate holding an integer of more than 4,300 digits
made `json.loads` raise ValueError, an internal error (exit 3); it is now a malformed certificate (exit 2).

Campaign of the newest grammar (`newest_programs` added: `expect … for n …` split verdicts with overlapping, empty and
out-of-range lines, chunked and periodic per-layer lists for causal targets with params among the sizes, two to four
heads with hubs beside blocks, offsets, dilated and strided lines): UAPCHECK_FUZZ_NEWEST = 600 for UAPCHECK_FUZZ_SEED =
15015 and 1,500 for 15151, each file run with `--budget 2 --memory 1G` under PYTHONHASHSEED 0 and 12345, every batch
compared: all 2,100 run, no traceback, no exit code outside 0–2, every file within its budget, no difference between
the two hash seeds. (The mutation campaign on the same constructs' certificates found an internal error of `uapcheck
verify`, fixed: tests/test_certificate_mutations_newest_constructs.py.)

Campaign of issue 14's leftovers (UAPCHECK_FUZZ_SEED = 2121: 900 files; 3131: 360; `newest_programs` with 2222: 240),
each file run with `--budget 2 --memory 1G --no-cache` under PYTHONHASHSEED 0 and 12345, every batch compared: no
traceback, no exit code outside 0–2, every batch within its budget. Findings: one byte difference across hash seeds,
fixed at the root — the non-analytic operations of an analyticity step were listed in the order a Min's arguments
were built (tests/test_hash_seed_evidence.py); three files at the edge of the 2 s budget (a mutated `window(5) cyclic +
strided(7)` at symbolic n) ended with a verdict in one run and ran out in the other, which the comparison now accepts
(`_assert_same_reports`). tests/test_huge_values.py's corpus found a memory runaway of the new `P & full` rewrite inside
a union (`dilated(500000000, 3) + star & full`), fixed in the normal form's arc key."""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
import hypothesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clirun import REPO, env, run

from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
CASES = int(os.environ.get("UAPCHECK_FUZZ_CASES", "10000" if NIGHTLY else "180"))
# UAPCHECK_FUZZ_SEED draws another corpus (generated programs and catalog mutations); unset, the corpus is fixed.
SEED = os.environ.get("UAPCHECK_FUZZ_SEED")
BATCH = 60
BUDGET = 2
CATALOG = sorted((REPO / "catalog").glob("*.uap"))

# -- a generator of valid programs, following grammars/uap.lark -----------------------------------

NUMBERS = st.sampled_from(["0", "1", "2", "3", "0.5", "1/2", "10", "1000", "999999999", "1e3", "2.5e-3", ".5",
                           "2.5E+2"])
UNARY = st.sampled_from(["exp", "log", "sqrt", "tanh", "sigmoid", "cos", "sin", "relu", "elu", "softplus", "abs",
                         "tan", "sinh", "cosh", "erf", "gelu", "silu"])


def scalar(depth: int, dot: str = "x . y", norm: str = "|x - y|", sq: str = "|x|^2"):
    """A scalar expression of a head's two vector arguments (or, with other leaves, of positions)."""
    leaves = st.one_of(NUMBERS, st.just(dot), st.just(norm), st.just(sq), st.just(f"({dot})^2"), st.just("gamma"),
                       st.just(dot.replace(" . ", " · ")))
    if depth == 0:
        return leaves
    sub = scalar(depth - 1, dot, norm, sq)
    return st.one_of(
        leaves,
        st.tuples(UNARY, sub).map(lambda p: f"{p[0]}({p[1]})"),
        st.tuples(st.sampled_from(["max", "min"]), sub, sub).map(lambda p: f"{p[0]}({p[1]}, {p[2]})"),
        st.tuples(sub, st.sampled_from(["+", "-", "*", "/"]), sub).map(lambda p: f"({p[0]} {p[1]} {p[2]})"),
        st.tuples(sub, st.sampled_from(["2", "3", "-1", "1/2", "10"])).map(lambda p: f"({p[0]})^{p[1]}"),
        st.tuples(sub).map(lambda p: f"-({p[0]})"),
    )


# Position formulas (`bias b(i, j) = ...`, `reweight c(i, j) = ...`): the positions, params, pi and n.
POSITION_LEAVES = st.sampled_from(["(i - j)", "|i - j|", "i", "j", "m", "pi", "1", "2", "(i - j)^2", "n"])


def position(depth: int, symbolic: bool = True):
    leaves = POSITION_LEAVES if symbolic else POSITION_LEAVES.filter(lambda leaf: leaf != "n")
    if depth == 0:
        return leaves
    sub = position(depth - 1, symbolic)
    return st.one_of(
        leaves,
        st.tuples(st.sampled_from(["exp", "cos", "log", "tanh", "sqrt", "abs", "relu", "sin"]), sub)
        .map(lambda p: f"{p[0]}({p[1]})"),
        st.tuples(sub, st.sampled_from(["+", "-", "*", "/"]), sub).map(lambda p: f"({p[0]} {p[1]} {p[2]})"),
        st.tuples(sub).map(lambda p: f"-({p[0]})"),
    )


FEATURES = st.sampled_from(["elu(x) + 1", "relu(x)", "exp(x)", "softplus(x) + 30000", "elu(x) + 25000",
                            "x^2", "sigmoid(x)", "exp(-x)", "relu(x) + 1", "[exp(x), exp(-x)]",
                            "[relu(x), elu(x) + 1, x^2]", "exp(r . x - |x|^2 / 2) random r",
                            "[exp(r . x - |x|^2 / 2), exp(-(r . x) - |x|^2 / 2)] random r", "cos(r . x) random r",
                            "[exp(x)] "])
# Pattern sizes: literals (small, at the edge, huge), the integer param w and the symbolic tokens name.
SIZES = st.sampled_from(["1", "2", "3", "4", "8", "w", "999999999"])


@st.composite
def pattern_terms(draw):
    size = draw(SIZES)
    kind = draw(st.sampled_from(["full", "causal", "star", "window", "window_c", "offsets", "offsets_c", "dilated",
                                 "strided", "blocks", "global", "random", "edges", "sinks", "global_at",
                                 "blockwise", "columns"]))
    return {
        "full": "full", "causal": "causal", "star": "star", "window": f"window({size})",
        "window_c": f"window({size}) cyclic", "offsets": f"offsets {{-1, 0, {size}}}",
        "offsets_c": f"offsets {{{size}, -2}} cyclic", "dilated": f"dilated({size}, 2)", "strided": f"strided({size})",
        "blocks": f"blocks({size})", "global": f"global({draw(st.sampled_from(['1', '2', 'w']))})",
        "random": f"random({draw(st.sampled_from(['1', '2', '3']))}, seed={draw(st.sampled_from(['0', '7']))})",
        "edges": "edges {1 -> 2, 2 -> 1, 2 -> 3}", "sinks": f"sinks({draw(st.sampled_from(['1', 'w', '4']))})",
        "global_at": "global {1, 2}", "blockwise": "blockwise(2) { window(1) + global {1} }",
        "columns": f"columns({draw(st.sampled_from(['4', '8']))}, 1)",
    }[kind]


@st.composite
def patterns(draw):
    terms = draw(st.lists(pattern_terms(), min_size=1, max_size=3))
    out = terms[0]
    for t in terms[1:]:
        out = f"{out} {draw(st.sampled_from(['+', '&', '∪', '∩']))} {t}"
    if draw(st.integers(0, 9)) == 0:
        out = f"({out})"
    return out


@st.composite
def layer_patterns(draw):
    """A pattern per layer; these need an integer `tokens` and no position term."""
    kind = draw(st.sampled_from(["sequence", "periodic"]))
    items = draw(st.lists(pattern_terms(), min_size=1, max_size=4))
    sep = draw(st.sampled_from([", ", ",\n  "]))
    return f"{kind} {{ {sep.join(items)} }}"


TOKENS = st.sampled_from(["tokens 8\n", "", "tokens n\n", "tokens 64\n", "tokens 13\n", "tokens 1560\n", "tokens 4096\n",
                          "tokens 1000000000\n", "tokens 999999999\n", "tokens 1\n", "tokens 2\n"])
GROUPS = st.sampled_from(["S_n", "C_n", "D_n", "reflection", "trivial", "order 2", "order 48", "stabilizer 1",
                          "order " + "9" * 400, "stabilizer 999999999", "reflection if n mod 4 = 0, else trivial",
                          "S_n if n mod 3 in {0, 1} else C_n"])
LAYER_COUNTS = st.sampled_from(["1", "2", "ceil(n/2)", "ceiling((n - 1) / w)", "floor(n / 3) + 1", "max(1, min(n, 3))",
                                "n - 1", "3 if n mod 2 = 0, else 4", "999999999", "n / 2 if n mod 4 in {0, 2}, else 5"])


@st.composite
def expects(draw, symbolic: bool):
    verdict = draw(st.sampled_from(["", "uap", "uap", "not-uap", "inconclusive", "ill-posed"]))
    if not verdict:
        return ""
    text = f"expect {verdict}"
    if verdict == "uap":
        if draw(st.booleans()):
            text += f" group {draw(GROUPS if symbolic else GROUPS.filter(lambda g: ' if ' not in g))}"
        if draw(st.booleans()):
            text += f" layers {draw(LAYER_COUNTS if symbolic else st.sampled_from(['1', '2', '3', '999999999']))}"
        if symbolic and draw(st.integers(0, 3)) == 0:
            text += draw(st.sampled_from([", not-uap if n mod 2 = 1", ", inconclusive if n mod 3 in {1, 2}",
                                          ", not-uap if n mod 999983 = 5"]))
    return text + "\n"


# Items of a head beside its kernel, features or score, and its pattern. A head brings positions into its
# weights in at most one way (a bias, a reweight, rotary).
POSITION_ITEMS = ["bias free", "bias circulant", "bias symmetric circulant", "bias toeplitz", "bias symmetric toeplitz",
                  "bias buckets(32, 128)", "bias buckets(4, 999999999)", "rotary"]
OTHER_ITEMS = ["affine query key", "unnormalized", "normalize", "heads 8 kv 2", "heads 4", "tie query key", "", ""]
KERNEL_ITEMS = ["nystrom landmarks 3", "differential", "sink logit learned", "sink logit 0"]  # normalised kernel heads only
PROJECTIONS = ["project keys values to 4", "project keys values to 2 fixed"]  # neither with a pattern nor a position
FFNS = st.sampled_from(["", "ffn relu\n", "ffn identity\n", "ffn tanh\n", "ffn sigma(z) = z^2\n", "ffn none\n",
                        "ffn leaky_relu\n", "ffn sin\n", "ffn sigma(u) = u / (1 + abs(u))\n",
                        "ffn sigma(u) = max(u, gamma * u)\n"])
STATEMENTS = st.sampled_from(["", "dim 1\n", "dim 3\n", "dim d\n", "positional absolute\n", "positional none\n",
                              "layers 1\n", "layers 3\n", "layers 999999999\n", "target causal\n",
                              "target receptive\n", "target equivariant\n", 'cite "a; b"\n', "param tau != 0\n",
                              "param c real\n", "param beta >= 0\n"])


@st.composite
def heads(draw, symbolic: bool, per_layer_ok: bool):
    kind = draw(st.sampled_from(["kernel", "kernel", "features", "score"]))
    if kind == "kernel":
        body = f"kernel k(x, y) = {draw(scalar(2))}"
    elif kind == "features":
        body = f"features phi(x) = {draw(FEATURES)}"
    else:
        body = f"score s(x, y) = {draw(scalar(2))}"
    items = [body]
    if draw(st.integers(0, 11)) == 0:
        items.append(draw(st.sampled_from(PROJECTIONS)))
    else:
        per_layer = per_layer_ok and not symbolic and draw(st.integers(0, 4)) == 0
        items.append(f"pattern {draw(layer_patterns() if per_layer else patterns())}")
        which = 0 if per_layer else draw(st.integers(0, 5))
        if which == 1:
            items.append(draw(st.sampled_from(POSITION_ITEMS)))
        elif which == 2:
            items.append(f"bias b(i, j) = {draw(position(2, symbolic))}")
        elif which == 3:
            items.append(f"reweight c(i, j) = {draw(position(2, symbolic))}")
    items.append(draw(st.sampled_from(OTHER_ITEMS + (KERNEL_ITEMS if kind == "kernel" else []))))
    if kind == "features" and "tie query key" in items:
        items.remove("tie query key")
    label = draw(st.sampled_from(["", "local ", "key "]))
    sep = draw(st.sampled_from(["\n ", "; "]))
    return f"attention {label}{{\n {sep.join(i for i in items if i)}\n}}\n"


# -- further strategies (campaign of issue 14's last round, recorded in the module docstring) ----------------------

LAYER_ITEMS = st.sampled_from(["window(1)", "window(2) cyclic", "sinks(1) + window(1)", "sinks(2) + causal",
                               "causal", "full", "global(1)", "blocks(4)", "strided(3)", "offsets {-1, 0, 2}",
                               "edges {1 -> 2, 2 -> 3}", "window(3) & causal", "star", "dilated(1, 2)",
                               "sinks(w) + window(1)", "window(999999999)"])


@st.composite
def per_layer_heads(draw):
    """A head with a per-layer `periodic {…}` or `sequence {…}` list (sinks, causal parts, edges), maybe a bias."""
    kind = draw(st.sampled_from(["periodic", "sequence"]))
    items = draw(st.lists(LAYER_ITEMS, min_size=1, max_size=5))
    extra = draw(st.sampled_from(["", "", "", "", "", "bias free"]))  # a bias is refused beside a per-layer list
    body = f"kernel k(x, y) = {draw(scalar(1))}"
    return f"attention {{\n {body}\n pattern {kind} {{ {', '.join(items)} }}\n {extra}\n}}\n"


def _deep(depth: int, kind: str) -> str:
    inner = {"exp": "x . y", "abs": "x . y", "sigmoid": "x . y", "norm": "x . y"}[kind]
    if kind == "norm":
        return "|" * depth + inner + "|" * depth
    return f"{kind}(" * depth + inner + ")" * depth


@st.composite
def hostile_programs(draw):
    """Huge params and sizes, deep nesting, several heads with biases, edges, convolutions at large spans."""
    choice = draw(st.sampled_from(["deep", "huge", "heads", "edges", "conv", "bias"]))
    tokens = draw(st.sampled_from(["", "tokens n\n", "tokens 8\n", "tokens 64\n", "tokens 1\n", "tokens 2\n",
                                   "tokens 3\n", "tokens 999999999\n"]))
    params = "param gamma > 0\nparam m > 0\nparam w integer >= 1\nparam big integer >= 999999999\nparam c > 0\n"
    if choice == "deep":
        depth = draw(st.sampled_from([10, 50, 120, 199, 200, 250]))
        kind = draw(st.sampled_from(["exp", "abs", "sigmoid", "norm"]))
        body = f"attention {{ kernel k(x, y) = exp(x . y) * (2 + {_deep(depth, kind)}) }}\n"
    elif choice == "huge":
        size = draw(st.sampled_from(["big", "999999999", "w", "1000000000"]))
        part = draw(st.sampled_from([f"window({size})", f"blocks({size}) + global(1)", f"strided({size})",
                                     f"window({size}) cyclic", f"offsets {{1, {size}}} cyclic", f"dilated({size}, 3)",
                                     f"global({size})", f"sinks({size}) + causal"]))
        body = f"attention {{ kernel k(x, y) = exp(x . y)\n pattern {part} }}\n"
    elif choice == "heads":
        count = draw(st.integers(2, 5))
        body = "".join(f"attention {{ kernel k(x, y) = exp(x . y)\n pattern {draw(pattern_terms())}\n"
                       f" {draw(st.sampled_from(['', 'bias free', 'bias circulant', 'bias symmetric toeplitz']))} }}\n"
                       for _ in range(count))
    elif choice == "edges":
        k, top = draw(st.integers(1, 40)), draw(st.sampled_from([8, 12]))
        arcs = ", ".join(f"{draw(st.integers(1, top))} -> {draw(st.integers(1, top))}" for _ in range(k))
        body = f"attention {{ kernel k(x, y) = exp(x . y)\n pattern edges {{{arcs}}} }}\n"
        tokens = draw(st.sampled_from([f"tokens {top}\n", ""]))
    elif choice == "conv":
        taps = draw(st.sampled_from(["circular(999999999)", "circular(big)", "circular(1)", "circular {0, 999999999}",
                                     "circular {-999999999, 1}", "circular {2, 4, 6}", "circular {0}",
                                     "circular {3, 5}"]))
        budget = draw(st.sampled_from(["", "layers 2\n", "layers 999999999\n"]))
        body = f"convolution {taps}\n{budget}"
    else:
        bias = draw(st.sampled_from(["bias b(i, j) = -|i - j| * c", "bias b(i, j) = 999999999 * (i - j)",
                                     "bias b(i, j) = log(1 + |i - j|)", "bias buckets(32, 999999999)",
                                     "reweight c(i, j) = exp(-(i - j)^2)", "bias symmetric circulant"]))
        body = (f"attention {{ kernel k(x, y) = exp(x . y)\n pattern {draw(patterns())}\n {bias} }}\n"
                if draw(st.booleans()) else f"attention {{ kernel k(x, y) = exp(x . y)\n {bias} }}\n")
    if draw(st.integers(0, 3)) == 0:
        body = draw(per_layer_heads()) + body if "convolution" not in body else body
        tokens = "tokens 16\n" if "convolution" not in body else tokens
    symbolic = tokens in ("", "tokens n\n")
    return f'architecture "fuzz2"\n{params}{tokens}{body}{draw(FFNS)}{draw(expects(symbolic))}'


# -- the newest grammar: split verdicts, chunked and periodic per-layer lists, several heads with hubs ------------------

HUB_HEADS = st.sampled_from(["star", "global(1)", "global(2)", "global {1, 2}", "sinks(1) + window(1)", "sinks(2) + causal",
                             "star + window(1)", "global(1) + offsets {3, -5}"])
LINE_HEADS = st.sampled_from(["blocks(2) + offsets {-7, -3, 9}", "blocks(3) + offsets {1}", "blocks(2) + offsets {-1}",
                              "blocks(3) + dilated(2, 2)", "blocks(5) + dilated(1, 3)", "blocks(3)", "dilated(2, 2)",
                              "window(1) + strided(s)", "window(1) + strided(4)", "window(1) cyclic + dilated(2, 4)",
                              "offsets {1, 4, 8, -1, -4, -8}", "window(2) cyclic", "blocks(b) + offsets {2}",
                              "window(w) + strided(6)", "offsets {2, -3} cyclic", "blocks(999999999) + offsets {1}"])
CHUNKED = st.sampled_from(["causal & blocks(8)", "causal & blocks(c)", "causal & window(3)", "causal & window(w) + sinks(2)",
                           "causal & window(2) + sinks(k)", "causal", "causal & blocks(3)", "offsets {0} + sinks(2)",
                           "sinks(1)", "causal & blocks(999999999)", "causal & window(0)"])
RANGE_BOUNDS = st.sampled_from(["1", "2", "3", "7", "12", "16", "17", "64", "8193", "16385", "1000000000", "1000000001",
                                "0"])
SPLIT_VERDICTS = st.sampled_from(["uap", "uap layers 1", "uap layers 2", "uap layers 4", "uap layers 8", "not-uap",
                                  "inconclusive", "ill-posed", "uap layers ceil(n/2)"])
GROUPED = st.sampled_from(["uap group trivial", "uap group reflection layers 3", "uap group S_n", "uap group trivial layers 8"])


@st.composite
def split_expects(draw) -> str:
    """One to four `expect … for n …` lines: ranges from a length on, up to a length, between two, at one length (at
    times overlapping, empty, out of 1 … 10⁹, beside a line without a range, or naming another name than n)."""
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        a, b = draw(RANGE_BOUNDS), draw(RANGE_BOUNDS)
        where = draw(st.sampled_from([f"for n >= {a}", f"for n <= {a}", f"for {a} <= n <= {b}", f"for n = {a}",
                                      f"for m >= {a}", f"for n >= {a}", f"for n >= {a}"]))
        verdict = draw(GROUPED if where.startswith("for n >=") and draw(st.integers(0, 3)) == 0 else SPLIT_VERDICTS)
        lines.append(f"expect {verdict} {where}")
    if draw(st.integers(0, 7)) == 0:
        lines.append("expect uap")
    return "\n".join(lines) + "\n"


@st.composite
def newest_programs(draw) -> str:
    """Programs in the newest grammar: `expect … for n …` split verdicts, chunked and periodic per-layer lists for
    causal targets (chunks of c, windows with sinks, at a symbolic or integer n, params among the sizes), and two
    to four heads with hubs (star, global, sinks) beside blocks, offsets, dilated and strided lines."""
    params = "param c integer >= 2\nparam w integer >= 1\nparam k integer >= 1\nparam s integer >= 3\nparam b integer >= 2\n"
    tokens = draw(st.sampled_from(["tokens n\n", "tokens n\n", "tokens n\n", "", "tokens 16\n", "tokens 64\n"]))
    kind = draw(st.sampled_from(["chunked", "chunked", "heads", "heads", "line"]))
    if kind == "chunked":
        items = draw(st.lists(CHUNKED, min_size=1, max_size=4))
        listing = draw(st.sampled_from(["periodic", "periodic", "sequence"]))
        body = (f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {listing} {{ {', '.join(items)} }}\n}}\n"
                + draw(st.sampled_from(["target causal\n", "target causal\n", "", "layers 3\ntarget causal\n"])))
    elif kind == "heads":
        count = draw(st.integers(2, 4))
        pats = [draw(HUB_HEADS)] + [draw(st.one_of(HUB_HEADS, LINE_HEADS)) for _ in range(count - 1)]
        body = "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n" for p in pats)
    else:
        body = f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {draw(LINE_HEADS)}\n}}\n"
    symbolic = tokens == "tokens n\n"
    expect = draw(split_expects()) if symbolic and draw(st.integers(0, 3)) else draw(expects(symbolic))
    return f'architecture "fuzz3"\n{params}{tokens}{body}{expect}'


@st.composite
def programs(draw):
    tokens = draw(TOKENS)
    symbolic = tokens in ("", "tokens n\n")
    statement = draw(STATEMENTS)
    if draw(st.integers(0, 11)) == 0:  # a token mixer that is not attention
        mixer = draw(st.sampled_from(["convolution circular(2)\n", "convolution circular(l)\n",
                                      "convolution circular {1, -1}\n", "convolution circular {0, 2, 4}\n",
                                      "convolution circular(999999999)\n"]))
        body = mixer + draw(FFNS)
        statement = "" if "target" in statement or "positional" in statement else statement
    else:
        per_layer_ok = "target" not in statement and "positional" not in statement
        body = "".join(draw(st.lists(heads(symbolic, per_layer_ok), min_size=1, max_size=3))) + draw(FFNS)
    text = (f'architecture "fuzz"\nparam gamma > 0\nparam m > 0\nparam w integer >= 1\nparam l integer >= 1\n'
            f"{tokens}{statement}{body}{draw(expects(symbolic))}")
    style = draw(st.integers(0, 9))
    if style == 0:
        text = text.replace("\n", "\r\n")
    elif style == 1:
        text = "\ufeff" + text
    return text


def mutate(text: str, rng: random.Random) -> str:
    """A small random edit of a catalog file: delete, duplicate or swap a span, or change a number."""
    ops = rng.choice(["delete", "duplicate", "swap", "digit", "insert"])
    i, j = sorted(rng.randrange(len(text) + 1) for _ in range(2))
    if ops == "delete":
        return text[:i] + text[j:]
    if ops == "duplicate":
        return text[:j] + text[i:j] + text[j:]
    if ops == "swap":
        k = rng.randrange(len(text) + 1)
        return text[:i] + text[k:] + text[i:k] if k > i else text
    if ops == "digit":
        return "".join(rng.choice("0123456789") if ch.isdigit() and rng.random() < 0.5 else ch for ch in text)
    return text[:i] + rng.choice(["(", ")", "^1000", " . ", "|", "\x1b[2J", "é", "\0", "9" * 50, "{", "}"]) + text[i:]


def _generated(n: int, seed: int, strategy=None) -> list[str]:
    """n programs drawn from ``strategy`` (the grammar's programs and the hostile ones, two to one, by default),
    then n // 2 mutations of catalog files."""
    out: list[str] = []

    @settings(max_examples=n, derandomize=SEED is None, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy if strategy is not None else st.one_of(programs(), programs(), hostile_programs()))
    def collect(src):
        out.append(src)
    if SEED is not None:
        collect = hypothesis.seed(int(SEED))(collect)
    collect()
    rng = random.Random(seed)
    for k in range(n // 2):
        out.append(mutate(CATALOG[k % len(CATALOG)].read_text("utf-8"), rng))
    return out


def _write(tmp: Path, sources: list[str]) -> list[str]:
    paths = []
    for k, src in enumerate(sources):
        p = tmp / f"f{k:05d}.uap"
        p.write_text(src, "utf-8", errors="surrogateescape")
        paths.append(str(p))
    return paths


def _check_batch(paths: list[str], seed: str) -> tuple[str, str]:
    r = run("--format", "json", "--budget", str(BUDGET), "--memory", "1G", "-j", "2", *paths,
            environ=env(PYTHONHASHSEED=seed))
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    assert r.code in (0, 1, 2), (r.code, r.stderr[-3000:])
    lines = r.stdout.splitlines()
    assert len(lines) == len(paths)
    for line in lines:
        obj = json.loads(line)
        assert "verdict" in obj or "error" in obj
    # Every file within its budget plus the worker's grace; plus start-up.
    assert r.cpu < len(paths) * (BUDGET + 5) + 15
    return r.stdout, r.stderr


def _ran_out(line: str) -> bool:
    obj = json.loads(line)
    return any(step["rule"] == "BUDGET" for step in obj.get("steps", ()))


def _assert_same_reports(second: tuple[str, str], first: tuple[str, str]) -> None:
    """Byte-identical reports, but for a file that ran out of a resource limit in one of the runs: which limit runs
    out first (CPU time or memory), and in which step, can depend on the machine (README, `--budget`), and so can
    whether a file at the edge of its budget runs out at all (a mutated `window(5) cyclic + strided(7)` at symbolic n
    spends about 2 s of CPU on its lengths below the range: under a 2 s budget one run of a campaign ended with its
    verdict and the other ran out; two runs of the same command took 2.8 s and 3.3 s of CPU on a shared machine)."""
    assert second[1] == first[1]
    lines_1, lines_2 = first[0].splitlines(), second[0].splitlines()
    assert len(lines_1) == len(lines_2)
    for a, b in zip(lines_1, lines_2):
        assert a == b or _ran_out(a) or _ran_out(b), (a[:3000], b[:3000])


def test_reports_compared_across_runs_differ_only_where_a_limit_ran_out():
    budget = '{"steps": [{"rule": "BUDGET", "claim": "the %s ran out"}], "verdict": "INCONCLUSIVE"}'
    derived = '{"steps": [{"rule": "PAT-LAYERS", "claim": "%s"}], "verdict": "UAP"}'
    _assert_same_reports((budget % "CPU time budget of 2 s", ""), (budget % "memory limit of 1 GiB", ""))
    _assert_same_reports((derived % "3 layers", ""), (derived % "3 layers", ""))
    with pytest.raises(AssertionError):
        _assert_same_reports((derived % "3 layers", ""), (derived % "2 layers", ""))
    _assert_same_reports((budget % "CPU time budget of 2 s", ""), (derived % "2 layers", ""))  # at the budget's edge


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    sources = _generated(CASES * 2 // 3, seed=15 if SEED is None else int(SEED))
    return _write(tmp_path_factory.mktemp("fuzz"), sources)


def test_fuzzed_files_end_cleanly_and_identically_across_hash_seeds(corpus):
    for start in range(0, len(corpus), BATCH):
        batch = corpus[start:start + BATCH]
        first = _check_batch(batch, "0")
        if start == 0:  # byte-identical across two runs and another hash seed (one batch suffices)
            _assert_same_reports(_check_batch(batch, "12345"), first)


NEWEST_CASES = int(os.environ.get("UAPCHECK_FUZZ_NEWEST", "1500" if NIGHTLY else "30"))


def test_newest_grammar_files_end_cleanly_and_identically_across_hash_seeds(tmp_path):
    """`newest_programs` (split verdicts, chunked and periodic per-layer lists, several heads with hubs) through the
    command line: no traceback, exit codes 0–2, every file within its budget, and the same output under two hash
    seeds (every batch in a campaign, UAPCHECK_FUZZ_NEWEST=N with UAPCHECK_FUZZ_SEED; the first one otherwise)."""
    sources = _generated(NEWEST_CASES, seed=0, strategy=newest_programs())[:NEWEST_CASES]
    paths = _write(tmp_path, sources)
    for start in range(0, len(paths), BATCH):
        batch = paths[start:start + BATCH]
        first = _check_batch(batch, "0")
        if start == 0 or SEED is not None or NIGHTLY:
            _assert_same_reports(_check_batch(batch, "12345"), first)


def test_newest_programs_generator_yields_valid_programs():
    """Most of the newest grammar's programs parse (the rest are refused with a located error: overlapping or empty
    ranges, a length beyond 10⁹, positions without an integer `tokens`)."""
    from uapcheck.errors import UapError
    from uapcheck.parse import parse_source
    sources = _generated(60, seed=1, strategy=newest_programs())[:60]
    ok = 0
    for src in sources:
        try:
            parse_source(src, "fuzz.uap")
            ok += 1
        except UapError:
            pass
    assert ok >= len(sources) // 2


def test_programs_generator_yields_valid_programs():
    """The grammar's generator follows the grammar: most of its programs parse (the hostile programs are drawn to
    be refused as often as not, so they are not counted here)."""
    from uapcheck.errors import UapError
    from uapcheck.parse import parse_source
    sources = _generated(40, seed=1, strategy=programs())[:40]
    ok = 0
    for src in sources:
        try:
            parse_source(src, "fuzz.uap")
            ok += 1
        except UapError:
            pass
    assert ok >= len(sources) * 3 // 4


# -- mutated certificates through `uapcheck verify` (campaign of issue 14's third round, in the module docstring) ----

CERTIFIED = ("streaming_llm.uap", "cyclic_two_jumps.uap", "bounded_tanh.uap", "strided_global_n.uap")


def mutate_certificate(cert: dict, rng: random.Random) -> dict:  # noqa: C901 - one branch per kind of edit
    """One to three random edits of a certificate's JSON: a number moved or made huge or negative, a value replaced by
    text, null, another JSON type, a key deleted, a list shortened, lengthened or shuffled, a flag flipped."""
    import copy
    out = copy.deepcopy(cert)

    def places(node, where=()):
        yield where
        items = node.items() if isinstance(node, dict) else enumerate(node[:50]) if isinstance(node, list) else ()
        for key, value in items:
            yield from places(value, where + (key,))
    spots = [w for w in places(out) if w]
    for _ in range(rng.choice([1, 1, 2, 3])):
        where = rng.choice(spots)
        parent = out
        try:
            for key in where[:-1]:
                parent = parent[key]
            key, value = where[-1], parent[where[-1]]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit removed the place
        op = rng.choice(["add", "huge", "negate", "text", "null", "delete", "type", "drop", "repeat", "flip", "shuffle"])
        if op == "add" and isinstance(value, int):
            parent[key] = value + rng.choice([1, -1, 2])
        elif op == "huge":
            parent[key] = rng.choice([10 ** 30, 999999999, 2 ** 63, 10 ** 4000])
        elif op == "negate" and isinstance(value, (int, float)):
            parent[key] = -value
        elif op == "text":
            parent[key] = rng.choice(["", "n", "x" * 10000, "(", "1/0", "exp(exp(exp(x)))", str(value)[::-1]])
        elif op == "delete" and isinstance(parent, dict):
            del parent[key]
        elif op == "type":
            parent[key] = rng.choice([[], {}, [value], {"v": value}, 1.5, True])
        elif op == "drop" and isinstance(value, list) and value:
            value.pop(rng.randrange(len(value)))
        elif op == "repeat" and isinstance(value, list) and value:
            value.append(copy.deepcopy(rng.choice(value)))
        elif op == "flip" and isinstance(value, bool):
            parent[key] = not value
        elif op == "shuffle" and isinstance(value, list) and len(value) > 1:
            rng.shuffle(value)
        else:
            parent[key] = None
    return out


def test_mutated_certificates_end_cleanly_and_identically_across_hash_seeds(tmp_path):
    """`uapcheck verify` on mutants of catalog certificates (and a few truncated files): no traceback, exit codes 0–2,
    the same output under two hash seeds."""
    from certificates import certificate
    rng = random.Random(int(SEED) if SEED is not None else 77)
    certs = [certificate(name) for name in CERTIFIED]
    paths = []
    for k in range(max(CASES // 6, 12)):
        text = json.dumps(mutate_certificate(rng.choice(certs), rng))
        path = tmp_path / f"m{k:04d}.json"
        if k % 10 == 9:  # a truncated file
            text = text[:rng.randrange(1, len(text))]
        elif k % 10 == 8:  # an integer beyond Python's 4,300-digit conversion limit, which json.loads refuses
            text = text.replace('"n": ', '"n": ' + "7" * 5000, 1).replace('"order": ', '"order": ' + "7" * 5000, 1)
        path.write_text(text, "utf-8")
        paths.append(str(path))
    outputs = []
    for seed in ("0", "12345"):
        r = run("verify", "--quiet", "--budget", str(BUDGET), "--memory", "1G", *paths, environ=env(PYTHONHASHSEED=seed))
        assert "Traceback" not in r.stderr, r.stderr[-3000:]
        assert r.code in (0, 1, 2), (r.code, r.stderr[-3000:])
        assert r.cpu < len(paths) * (BUDGET + 5) + 15
        outputs.append((r.code, r.stdout, r.stderr))
    assert outputs[0] == outputs[1]
