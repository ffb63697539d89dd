"""Malformed inputs: each one is a `UapError` with the right line and column and a meaningful message
(in-process through `parse_source`), and on the command line exit 2 with no traceback.

Locations are computed from the source text (`at(src, marker)`: the 1-based line and column of the
first character of `marker`), so each case says in words where the caret belongs.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import uapcheck
from uapcheck.errors import UapError, format_error
from uapcheck.parse import decode, parse_source

REPO = Path(__file__).resolve().parents[1]
K = "attention { kernel k(x, y) = %s }\n"
SOFTMAX = K % "exp(x . y)"


def at(src: str, marker: str, nth: int = 1) -> tuple[int, int]:
    """Line and column (1-based) of the nth occurrence of `marker` in `src`."""
    pos = -1
    for _ in range(nth):
        pos = src.index(marker, pos + 1)
    line = src.count("\n", 0, pos) + 1
    col = pos - (src.rfind("\n", 0, pos) + 1) + 1
    return line, col


def error_of(src: str) -> UapError:
    with pytest.raises(UapError) as info:
        parse_source(src, "t.uap")
    return info.value


def run_cli(*args: str, stdin: bytes | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "uapcheck", *args], input=stdin, capture_output=True,
                          cwd=REPO, env=dict(os.environ, NO_COLOR="1"), timeout=timeout)


def _case(id, src, marker, phrase, nth=1):
    return pytest.param(src, marker, nth, phrase, id=id)


NESTED_5000 = K % ("(" * 5000 + "x . y" + ")" * 5000)

CASES = [
    # --- syntax
    _case("syntax-missing-paren", K % "exp(x . y", "}", "unexpected '}'"),
    _case("syntax-unknown-statement", SOFTMAX + "foo bar\n", "foo", "unexpected 'foo'"),
    _case("syntax-missing-closing-brace", "attention { kernel k(x, y) = exp(x . y)",
          None, "unexpected end of file"),
    _case("syntax-unterminated-string", 'architecture "Transformer\n' + SOFTMAX, '"', "unterminated string"),
    _case("syntax-dunder-import-call", K % "__import__(x . y)", "_", "unexpected character '_'"),
    _case("syntax-dunder-import-name", K % "exp(x . y) * __import__", "_", "unexpected character '_'"),
    _case("syntax-non-ascii-name", K % "exp(x . é)", "é", "unexpected character 'é'"),
    _case("syntax-nul-byte", SOFTMAX + "\x00", "\x00", "unexpected character"),
    _case("syntax-fractional-integer-bound", "param w integer >= 1.5\n" + SOFTMAX, ".5", "unexpected"),
    # --- names and functions
    _case("unknown-name-in-kernel", K % "exp(x . z)", "z)", "unknown name `z`"),
    _case("unknown-name-like-dunder", K % "exp(x . y) * a__import__", "a__import__", "unknown name `a__import__`"),
    _case("unknown-function", K % "foo(x . y)", "foo", "unknown function `foo`"),
    _case("function-wrong-arity", K % "max(x . y)", "max", "takes 2 arguments"),
    _case("function-used-as-name", K % "exp * (x . y)", "exp", "is a function"),
    _case("undeclared-random-vector", K % "exp(w . x)", "w .", "unknown name `w`"),
    _case("ffn-custom-unknown-name", SOFTMAX + "ffn sigma(u) = x\n", "x\n", "unknown name `x`"),
    # --- types
    _case("vector-where-scalar", "attention { kernel k(x,y) = x }\n", "x }", "must be a scalar"),
    _case("vector-score", "attention { score s(x, y) = relu(x) }\n", "relu", "must be a scalar"),
    _case("dot-with-scalar-left", K % "exp(2 . y)", "2 .", "inner product"),
    _case("dot-with-scalar-right", K % "exp(x . (y . x))", "y . x)", "inner product"),
    _case("vector-exponent", K % "(x . y)^y", "y }", "exponent"),
    _case("divide-by-vector", K % "exp(1 / x)", "x)", "divide by a vector"),
    # --- random features
    _case("random-vector-minus", "attention { features phi(x) = exp(w - x) random w }\n", "w - x",
          "only as `w . v`"),
    _case("random-vector-norm", "attention { features phi(x) = exp(w . x - |w|^2) random w }\n", "|w|",
          "only as `w . v`"),
    _case("random-vector-scaled", "attention { features phi(x) = exp(2 * w . x) random w }\n", "2 * w",
          "only as `w . v`"),
    _case("random-vector-self", "attention { features phi(x) = exp(w . w) random w }\n", "w . w",
          "only as `w . v`"),
    _case("random-vector-unused", "attention { features phi(x) = exp(x . x) random w }\n", "random",
          "does not appear"),
    # --- heads
    _case("two-kernels-in-one-head",
          "attention {\n  kernel k(x, y) = exp(x . y)\n  kernel k(x, y) = exp(-|x - y|^2)\n}\n",
          "kernel", "exactly one of", nth=2),
    _case("kernel-and-features-in-one-head",
          "attention {\n  features phi(x) = relu(x)\n  kernel k(x, y) = exp(x . y)\n}\n",
          "kernel", "exactly one of"),
    _case("head-without-kernel", "ffn relu\nattention {\n  pattern causal\n}\n", "attention",
          "no `kernel`, `features` or `score`"),
    _case("empty-head", "attention { }\n", "attention", "no `kernel`"),
    _case("no-attention-block", "tokens 4\nffn relu\nexpect uap\n", "tokens", "no `attention { ... }` block"),
    _case("same-argument-names", K.replace("k(x, y)", "k(x, x)") % "exp(x . x)", "x)", "different names"),
    _case("pattern-twice", "attention { kernel k(x, y) = exp(x . y); pattern full; pattern causal }\n",
          "pattern", "given twice", nth=2),
    _case("unknown-bias-kind", "attention { kernel k(x, y) = exp(x . y); bias weird }\n", "weird",
          "unknown bias kind `weird`"),
    _case("symmetric-free-bias", "attention { kernel k(x, y) = exp(x . y); bias symmetric free }\n", "free",
          "unknown bias kind `symmetric free`"),
    _case("nystrom-zero", "attention { kernel k(x, y) = exp(x . y); nystrom landmarks 0 }\n", "0 }",
          "at least 1"),
    _case("nystrom-on-score", "attention { score s(x, y) = sigmoid(x . y); nystrom landmarks 4 }\n",
          "nystrom", "applies to `kernel`"),
    _case("project-zero", "attention { kernel k(x, y) = exp(x . y); project keys values to 0 }\n", "0 }",
          "at least 1"),
    # a position term other than a bias (rotary, reweight) with sequence projections: an error at the
    # position item, never a traceback
    _case("project-with-rotary", "attention { kernel k(x, y) = exp(x . y); project keys values to 2; rotary }\n",
          "rotary", "mixes all positions"),
    _case("project-with-reweight", "attention { kernel k(x, y) = exp(x . y); project keys values to 2; "
          "reweight c(i, j) = 1 }\n", "reweight", "mixes all positions"),
    _case("tie-on-features", "attention { features phi(x) = relu(x); tie query key }\n", "tie",
          "applies to `kernel` and `score`"),
    _case("sink-logit-on-score", "attention { score s(x, y) = exp(x . y); sink logit learned }\n", "sink",
          "needs a normalised `kernel` head"),
    _case("sink-logit-unnormalized", "attention { kernel k(x, y) = exp(x . y); unnormalized; sink logit 0 }\n",
          "sink", "needs a normalised `kernel` head"),
    _case("sink-logit-with-differential", "attention { kernel k(x, y) = exp(x . y); sink logit 0; differential }\n",
          "differential", "cannot share a head"),
    _case("sink-logit-a-name", "attention { kernel k(x, y) = exp(x . y); sink logit b }\n", "b }",
          "takes `learned` (trainable per head) or an integer literal"),
    _case("sink-logit-twice", "attention { kernel k(x, y) = exp(x . y); sink logit 0; sink logit learned }\n",
          "sink", "given twice", nth=2),
    _case("sink-logit-huge", "attention { kernel k(x, y) = exp(x . y); sink logit -123456 }\n", "-123456",
          "out of range"),
    # --- sizes and patterns
    _case("tokens-zero", "tokens 0\n" + SOFTMAX, "0", "at least 1, got 0"),
    _case("tokens-twice", "tokens 4\ntokens 5\n" + SOFTMAX, "tokens", "given twice", nth=2),
    _case("dim-equals-tokens-name", "tokens m\ndim m\n" + SOFTMAX, "dim", "cannot be the same name"),
    # a named length is printed in the place of n: `tokens i` read "i ↦ i + 1 − i", `tokens G` "G = D_G"
    _case("tokens-named-as-a-position", "tokens i\n" + SOFTMAX, "tokens", "the name the derivations give a position"),
    _case("tokens-named-as-the-group", "tokens G\n" + SOFTMAX, "tokens", "the name the derivations give the group"),
    # `tokens m` read "the family is m-layer (m = ⌈⌊m/2⌋/2⌉)", `tokens w` "for w ≥ 4w + 2": every letter but n and N
    _case("tokens-named-as-a-layer-count", "tokens m\n" + SOFTMAX, "tokens",
          "the name the derivations give a number of layers"),
    _case("tokens-named-as-a-width", "tokens w\n" + SOFTMAX, "tokens", "the name the derivations give a window's width"),
    # `tokens mod` read "mod mod 4 = 1", `tokens max` "max(2, ⌈(max − 1)/200⌉)": the formulas' words are refused too
    _case("tokens-named-as-a-formula-word", "tokens mod\n" + SOFTMAX, "tokens", "mod is a word of the printed formulas"),
    _case("tokens-named-as-max", "tokens max\n" + SOFTMAX, "tokens", "max is a word of the printed formulas"),
    # nor a word of the language (`tokens window` read "for window ≥ 3" beside `pattern window(2)`), or a group's name
    _case("tokens-named-as-a-pattern-keyword", "tokens window\n" + SOFTMAX, "tokens",
          "window is a word of the language (a keyword or a group's name"),
    _case("tokens-named-as-a-group", "tokens reflection\n" + SOFTMAX, "tokens",
          "reflection is a word of the language (a keyword or a group's name"),
    # nor a word of the language's functions, or a name of the file's own that the statements print
    _case("tokens-named-as-an-activation", "tokens relu\n" + SOFTMAX, "tokens", "relu is a word of the printed formulas"),
    _case("tokens-named-as-the-kernel", "tokens kk\nattention { kernel kk(x, y) = exp(x . y) }\n", "tokens",
          "kk is also the name of the function of head 1, and the length is printed beside it"),
    _case("tokens-named-as-a-query", "tokens qq\nattention { kernel k(qq, y) = exp(qq . y) }\n", "tokens",
          "qq is also an argument of the function of head 1"),
    _case("tokens-named-as-a-head", "tokens loc\nattention loc { kernel k(x, y) = exp(x . y) }\n", "tokens",
          "loc is also the label of head loc"),
    _case("tokens-named-as-the-ffn-argument", "tokens uu\nffn sigma(uu) = tanh(uu)\n" + SOFTMAX, "tokens",
          "uu is also the argument of the FFN's activation"),
    _case("tokens-named-by-another-letter", "tokens q\n" + SOFTMAX, "tokens",
          "the derivations give single letters other meanings, and the length is printed beside them; name it n, N or "
          "a longer name"),
    # a param named as the length or the dimension by default, or n beside a length of another name (the derivations
    # name the length n: `tokens L` with `param n` read the param as the length, and ended in an internal error)
    _case("param-n-beside-tokens-L",
          "tokens L\nparam n integer >= 1\nattention { kernel k(x, y) = exp(x . y); pattern window(n) cyclic }\n",
          "n integer", "the name the derivations give the sequence length `L`"),
    _case("param-n-beside-integer-tokens",
          "tokens 8\nparam n integer >= 1\nattention { kernel k(x, y) = exp(x . y); pattern window(n) cyclic }\n",
          "n integer", "the name the derivations give the sequence length (8 here)"),
    _case("param-n-without-tokens",
          "param n integer >= 1\nattention { kernel k(x, y) = exp(x . y); pattern window(n) cyclic }\n",
          "n integer", "the sequence length (called n without a `tokens` line)"),
    _case("param-d-without-dim",
          "param d integer >= 1\nattention { kernel k(x, y) = exp(x . y); pattern window(d) cyclic }\n",
          "d integer", "the token dimension (called d without a `dim` line)"),
    # a budget named by a param was passed over (UAP with 4 layers under `layers w`, w >= 1): refused at the name
    _case("layers-param", "tokens 8\nparam w integer >= 1\nlayers w\n"
          "attention { kernel k(x, y) = exp(x . y); pattern window(1) cyclic }\n", "w\nattention",
          "not the param `w`"),
    _case("layers-param-convolution", "tokens 8\nparam l integer >= 1\nconvolution circular {0, 1}\nlayers l\n",
          "l\n", "not the param `l`"),
    # an undeclared name: the same refusal, not the hint to declare it as a param (which would then be refused)
    _case("layers-undeclared-name", "tokens 8\nlayers n\nattention { kernel k(x, y) = exp(x . y); pattern window(1) "
          "cyclic }\n", "n\nattention", "integer or the symbolic length, not the name `n`"),
    # the symbolic length as the budget of per-layer patterns, whose count may exceed n (2n − 3 here): refused
    _case("layers-length-per-layer", "tokens n\nlayers n\ntarget causal\nattention { kernel k(x, y) = exp(x . y); "
          "pattern periodic { causal & window(1), offsets {0} } }\n", "layers n", "layer count of per-layer patterns"),
    _case("window-zero", "attention { kernel k(x, y) = exp(x . y); pattern window(0) }\n", "0)",
          "at least 1, got 0"),
    _case("window-undeclared-name", "attention { kernel k(x, y) = exp(x . y); pattern window(v) }\n", "v)",
          "unknown name `v`"),
    _case("window-real-param", "param v > 0\nattention { kernel k(x, y) = exp(x . y); pattern window(v) }\n",
          "v)", "not declared `integer"),
    _case("window-huge", "attention { kernel k(x, y) = exp(x . y); pattern window(99999999999999999999) }\n",
          "99999", "out of range"),
    _case("edge-beyond-tokens",
          "tokens 4\nattention { kernel k(x, y) = exp(x . y); pattern edges {1 -> 2, 2 -> 5} }\n", "5}",
          "beyond `tokens 4`"),
    _case("edge-position-zero",
          "tokens 4\nattention { kernel k(x, y) = exp(x . y); pattern edges {0 -> 1} }\n", "0 ->",
          "at least 1"),
    _case("edges-symbolic-tokens", "attention { kernel k(x, y) = exp(x . y); pattern edges {1 -> 2} }\n",
          "edges", "needs an integer `tokens"),
    _case("random-symbolic-tokens",
          "attention { kernel k(x, y) = exp(x . y); pattern window(1) + random(2, seed=0) }\n",
          "random", "needs an integer `tokens"),
    _case("random-count-beyond-tokens",
          "tokens 4\nattention { kernel k(x, y) = exp(x . y); pattern random(5, seed=0) }\n", "5,",
          "exceeds `tokens 4`"),
    _case("global-beyond-tokens",
          "tokens 8\nattention { kernel k(x, y) = exp(x . y); pattern global(100) }\n", "100",
          "exceeds `tokens 8`"),
    # --- params
    _case("duplicate-param", "param a > 0\nparam a real\n" + SOFTMAX, "a real", "declared twice"),
    _case("param-compares-with-nonzero", "param a > 1\n" + SOFTMAX, ">", "compares with 0"),
    _case("param-reserved-name", "param exp > 0\n" + SOFTMAX, "exp", "reserved"),
    _case("param-is-also-vector-argument", "param x > 0\n" + SOFTMAX, "x,", "both a vector argument"),
    # --- ffn, positional, layers
    _case("unknown-activation", SOFTMAX + "ffn swish\n", "swish", "unknown activation `swish`"),
    _case("unknown-positional", SOFTMAX + "positional relative\n", "relative", "unknown positional"),
    _case("layers-budget-zero", "layers 0\n" + SOFTMAX, "0", "at least 1"),
    # --- expect
    _case("unknown-group", SOFTMAX + "expect uap group Z_n\n", "Z_n", "unknown group `Z_n`"),
    _case("group-order-without-number", SOFTMAX + "expect uap group order\n", "order", "needs an integer"),
    _case("group-with-stray-number", SOFTMAX + "expect uap group S_n 3\n", "3", "takes no number"),
    _case("stabilizer-beyond-tokens", "tokens 4\n" + SOFTMAX + "expect uap group stabilizer 5\n", "5",
          "out of range"),
    _case("group-after-not-uap", SOFTMAX + "expect not-uap group S_n\n", "expect", "go with `expect uap`"),
    _case("layers-after-not-uap", SOFTMAX + "expect not-uap layers 1\n", "expect", "go with `expect uap`"),
    _case("group-after-inconclusive", SOFTMAX + "expect inconclusive group trivial\n", "expect",
          "go with `expect uap`"),
    _case("unknown-name-in-expect-layers", SOFTMAX + "expect uap layers q\n", "q", "unknown name `q`"),
    _case("function-in-expect-layers", SOFTMAX + "expect uap layers exp(1)\n", "exp(1)", "not allowed in `layers`"),
    # --- empty input
    _case("empty-file", "", None, "the file is empty"),
    _case("blank-lines-only", "\n\n   \n\t\n", None, "the file is empty"),
    _case("only-comments", "# softmax attention\n   # nothing else\n", None, "the file is empty"),
    # --- resource limits
    _case("huge-literal", K % "exp(1e100000 * (x . y))", "1e100000", "out of range"),
    _case("long-literal", K % ("exp(" + "9" * 400 + " * (x . y))"), "999", "more than 300 digits"),
    _case("huge-exponent", K % "(x . y)^(10^100000)", "100000", "exponent too large"),
    _case("huge-folded-exponent", K % "(x . y)^(2^20)", "2^20", "exponent too large"),
    _case("huge-negative-exponent", K % "exp(x . y)^(-(10^2000))", "2000", "exponent too large"),
    _case("5000-nested-parentheses", NESTED_5000, "(" * 4800, "nested more than 200 levels"),
]


@pytest.mark.parametrize("src, marker, nth, phrase", CASES)
def test_located_error(src, marker, nth, phrase):
    err = error_of(src)
    if marker is None:
        if "empty" in phrase:
            expected = (1, 1)
        else:  # end of file: just past the last character of the last line
            lines = src.splitlines()
            expected = (len(lines), len(lines[-1]) + 1)
    elif marker == "(" * 4800:
        # the 201st `(` of the run is the first one too deep
        line, col = at(src, "((")
        expected = (line, col + 200)
    else:
        expected = at(src, marker, nth)
    assert phrase in err.message
    assert (err.line, err.column) == expected, err.message
    # and the printed form names the place and quotes the line
    text = format_error("t.uap", src, err)
    first, shown, caret = text.split("\n")
    assert first == f"t.uap:{err.line}:{err.column}: error: {err.message}"
    assert caret.strip() == "^"


def test_error_count():
    assert len(CASES) >= 20


def test_undecodable_bytes():
    data = b"attention { kernel k(x,y) = exp(x . y) }\n\xff\xfe"
    with pytest.raises(UapError) as info:
        decode(data)
    err = info.value
    assert (err.line, err.column) == (2, 1)
    assert "UTF-8" in err.message and "0xff" in err.message


def test_undecodable_byte_mid_line():
    with pytest.raises(UapError) as info:
        decode(b"tokens 4\nattention { kernel k(x, y) = exp(x \xc3 . y) }\n")
    assert (info.value.line, info.value.column) == (2, len("attention { kernel k(x, y) = exp(x ") + 1)


def test_undecodable_byte_column_counts_characters():
    with pytest.raises(UapError) as info:
        decode('tokens 4\ncite "éé'.encode("utf-8") + b'\xff"\n')
    assert (info.value.line, info.value.column) == (2, 9)


def test_million_term_sum_is_rejected_fast():
    src = K % ("exp(" + " + ".join(["x . y"] * 1_000_000) + ")")
    start = time.monotonic()
    err = error_of(src)
    assert time.monotonic() - start < 5
    assert "larger than" in err.message
    assert (err.line, err.column) == (1, 1)


def test_long_flat_sum_is_rejected_cleanly():
    terms = 2000
    src = K % ("exp(" + " + ".join(["x . y"] * terms) + ")")
    err = error_of(src)
    assert "expression too large" in err.message
    assert err.line == 1
    assert at(src, "x . y")[1] <= err.column <= len(src)


def test_deep_unary_minus_is_rejected_cleanly():
    err = error_of(K % ("exp(" + "-" * 5000 + "x . y)"))
    assert "too large" in err.message or "nested" in err.message
    assert err.line == 1


def test_moderate_nesting_parses():
    # the limits must not reject ordinary expressions
    parse_source(K % ("exp(" + "(" * 150 + "x . y" + ")" * 150 + ")"), "t.uap")
    parse_source(K % ("exp(" + " + ".join(["x . y"] * 100) + ")"), "t.uap")
    parse_source(K % "(x . y)^(10^3) + (x . y)^(2^9)", "t.uap")


# ---------------------------------------------------------------------------------------------
# Bugs found by these tests, fixed since: each test pins the fix

@pytest.mark.parametrize("src, marker", [
    ("attention { kernel k(x, y) = exp(x . y); pattern window(-1) }\n", "-1"),
    ("tokens -3\n" + SOFTMAX, "-3"),
    ("attention { kernel k(x, y) = exp(x . y); nystrom landmarks -2 }\n", "-2"),
], ids=["window", "tokens", "nystrom"])
def test_negative_numbers_are_rejected(src, marker):
    err = error_of(src)
    assert "at least 1, got -" in err.message
    line, col = at(src, marker)
    assert err.line == line and err.column in (col, col + 1)  # at the `-` or (today) at the digits


@pytest.mark.parametrize("src, marker", [
    ("attention { kernel k(x, y) = exp(x . y); pattern window(-1) }\n", "-1"),
    ("tokens -3\n" + SOFTMAX, "-3"),
], ids=["window", "tokens"])
def test_negative_number_located_at_its_sign(src, marker):
    err = error_of(src)
    assert "at least 1" in err.message
    assert (err.line, err.column) == at(src, marker)




def test_norm_of_coordinatewise_feature_is_an_error():
    src = "attention { features phi(x) = |relu(x)| }\n"
    err = error_of(src)
    assert err.line == 1 and err.column in (at(src, "|relu")[1], at(src, "relu")[1])


# ---------------------------------------------------------------------------------------------
# The same through the command line: exit 2, `path:line:col: error: message`, the line, a caret.
# All files go through one text run and one JSON run (the CLI takes several files; each subprocess
# costs about a second).

def _text(src: str) -> bytes:
    return src.encode("utf-8")


NESTED_COL = NESTED_5000.index("((") + 201
DUNDER = K % "__import__(x . y)"
ZERO_DIVISOR = "tokens n\n" + K % "exp(x . y)" + "expect uap layers n / (n - n)\n"
CLI_CASES = [
    # name, file bytes, line, column, phrase
    ("syntax", _text(K % "exp(x . y"), *at(K % "exp(x . y", "}"), "unexpected '}'"),
    ("unknown-function", _text("tokens 8\n" + K % "foo(x . y)"), *at("tokens 8\n" + K % "foo(x . y)", "foo"),
     "unknown function `foo`"),
    ("edges-symbolic", _text("attention { kernel k(x, y) = exp(x . y); pattern edges {1 -> 2} }\n"),
     *at("attention { kernel k(x, y) = exp(x . y); pattern edges {1 -> 2} }\n", "edges"),
     "needs an integer `tokens"),
    ("group-after-not-uap", _text(SOFTMAX + "expect not-uap layers 2\n"), 2, 1, "go with `expect uap`"),
    ("bad-bytes", b"attention { kernel k(x,y) = exp(x . y) }\n\xff\xfe", 2, 1, "not valid UTF-8"),
    ("empty", b"", 1, 1, "the file is empty"),
    ("comments-only", b"# nothing\n# here\n", 1, 1, "the file is empty"),
    ("nested-5000", _text(NESTED_5000), 1, NESTED_COL, "nested more than 200"),
    ("dunder-import", _text(DUNDER), 1, DUNDER.index("_") + 1, "unexpected character '_'"),
    # a divisor that is zero for every n only once n is a symbol: found when the expected count is built
    ("expect-zero-divisor", _text(ZERO_DIVISOR), *at(ZERO_DIVISOR, "n - n"), "division by zero"),
]
CLI_IDS = [c[0] for c in CLI_CASES]


@pytest.fixture(scope="module")
def cli_error_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("errors")
    paths = []
    for name, data, *_ in CLI_CASES:
        f = d / f"{name}.uap"
        f.write_bytes(data)
        paths.append(str(f))
    return paths


@pytest.fixture(scope="module")
def cli_text_run(cli_error_files):
    return run_cli(*cli_error_files)


@pytest.fixture(scope="module")
def cli_json_run(cli_error_files):
    return run_cli("--format", "json", *cli_error_files)


def test_cli_errors_exit_2_without_traceback(cli_text_run, cli_json_run):
    for p in (cli_text_run, cli_json_run):
        assert p.returncode == 2, p.stderr.decode()
        assert "Traceback" not in p.stderr.decode()
    # No report on standard output, only the closing summary of the run, which lists every file as an error.
    summary = cli_text_run.stdout.decode("utf-8")
    assert "error" in summary and "UAP " not in summary and "files with errors:" in summary
    assert cli_json_run.stderr == b""


def _blocks(stderr: str, paths: list[str]) -> dict[str, list[str]]:
    lines = stderr.rstrip("\n").split("\n")
    starts = []
    for path in paths:
        idx = next(i for i, l in enumerate(lines) if l.startswith(path + ":") and i not in starts)
        starts.append(idx)
    assert starts == sorted(starts), "files are reported in the order given"
    return {path: lines[a:b] for path, a, b in zip(paths, starts, starts[1:] + [len(lines)])}


@pytest.mark.parametrize("i", range(len(CLI_CASES)), ids=CLI_IDS)
def test_cli_error_text(cli_error_files, cli_text_run, i):
    name, data, line, col, phrase = CLI_CASES[i]
    path = cli_error_files[i]
    block = _blocks(cli_text_run.stderr.decode(), cli_error_files)[path]
    assert len(block) == 3, block
    first, shown, caret = block
    assert first.startswith(f"{path}:{line}:{col}: error: "), first
    assert phrase in first
    assert caret.rstrip().endswith("^") and caret.strip() == "^"
    if name == "bad-bytes":
        return  # see test_cli_undecodable_file_quotes_its_line
    source_line = data.decode("utf-8").split("\n")[line - 1] if data else ""
    if len(source_line) > 200:  # a long line is shown as a window; the caret must still be on a `(`
        assert shown.strip() in source_line
        assert shown[caret.index("^")] == "("
        return
    assert shown.endswith(source_line)
    indent = len(shown) - len(source_line)
    assert caret == " " * (indent + col - 1) + "^"


@pytest.mark.parametrize("i", range(len(CLI_CASES)), ids=CLI_IDS)
def test_cli_error_json(cli_error_files, cli_json_run, i):
    name, data, line, col, phrase = CLI_CASES[i]
    objs = [json.loads(l) for l in cli_json_run.stdout.decode().splitlines()]
    assert len(objs) == len(CLI_CASES)
    obj = objs[i]
    assert set(obj) == {"schema", "file", "error"}
    assert obj["schema"] == "uapcheck/1" and obj["file"] == cli_error_files[i]
    assert set(obj["error"]) == {"line", "column", "message"}
    assert (obj["error"]["line"], obj["error"]["column"]) == (line, col)
    assert phrase in obj["error"]["message"]


def test_cli_input_error_json_stdin():
    src = "tokens 8\n" + K % "foo(x . y)"
    p = run_cli("--format", "json", "-", stdin=src.encode())
    assert p.returncode == 2
    assert "Traceback" not in p.stderr.decode()
    lines = p.stdout.decode().splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    line, col = at(src, "foo")
    assert obj == {"schema": "uapcheck/1", "file": obj["file"],
                   "error": {"line": line, "column": col, "message": obj["error"]["message"]}}
    assert obj["file"] in ("-", "<stdin>")
    assert "unknown function `foo`" in obj["error"]["message"]


def test_cli_undecodable_file_quotes_its_line(tmp_path):
    f = tmp_path / "bad.uap"
    f.write_bytes(b'tokens 4\ncite "abc\xff"\nattention { kernel k(x, y) = exp(x . y) }\n')
    p = run_cli(str(f))
    assert p.returncode == 2
    first, shown, caret = p.stderr.decode().splitlines()[:3]
    assert first.startswith(f"{f}:2:10: error:")
    assert 'cite "abc' in shown


DEEP_EXP_195 = K % ("exp(" * 195 + "x . y" + ")" * 195)


def test_cli_deep_expression_is_analysed(tmp_path):
    # Within the parser's bounds (200 parentheses): analysed until its budget runs out, not refused as
    # "nested too deeply" at 1:1 (a RecursionError in SymPy's walks did that; uapcheck/stack.py).
    f = tmp_path / "deep.uap"
    f.write_text(DEEP_EXP_195)
    p = run_cli("--no-suggest", "--budget", "3", str(f), timeout=120)
    assert p.returncode == 0, p.stderr.decode()[-2000:]
    assert "Traceback" not in p.stderr.decode()
    assert "nested too deeply" not in p.stdout.decode() + p.stderr.decode()
    assert "INCONCLUSIVE" in p.stdout.decode()


def test_cli_deep_expression_json(tmp_path):
    f = tmp_path / "deep.uap"
    f.write_text(DEEP_EXP_195)
    p = run_cli("--format", "json", "--no-suggest", "--budget", "3", str(f), timeout=120)
    assert p.returncode == 0
    obj = json.loads(p.stdout.decode())
    assert obj["schema"] == "uapcheck/1" and obj["verdict"] == "INCONCLUSIVE"


def test_cli_nesting_beyond_the_parser_bound_is_a_located_error(tmp_path):
    f = tmp_path / "deeper.uap"
    f.write_text(K % ("exp(" * 201 + "x . y" + ")" * 201))
    p = run_cli("--format", "json", str(f))
    assert p.returncode == 2
    err = json.loads(p.stdout.decode())["error"]
    assert err["line"] == 1 and err["column"] > 200 and "more than 200 levels" in err["message"]


def test_cli_large_constant_in_kernel(tmp_path):
    f = tmp_path / "big.uap"
    f.write_text(K % "exp((2^1000)^1000 * (x . y))")
    p = run_cli(str(f))
    assert "Traceback" not in p.stderr.decode()
    assert p.returncode in (0, 1, 2)


def test_cli_nested_exp_finishes(tmp_path):
    f = tmp_path / "nested.uap"
    f.write_text(K % ("exp(" * 8 + "x . y" + ")" * 8))
    # The derivation alone (the panel's suggestion search has its own budget: tests/test_suggest.py),
    # bounded by its CPU budget (not by wall-clock time, which depends on the machine's load).
    p = run_cli("--no-suggest", "--budget", "4", str(f), timeout=120)
    assert p.returncode in (0, 1, 2)
    assert "Traceback" not in p.stderr.decode()


# -- combinations and sizes the language refuses stay input errors -----------------------------------

@pytest.mark.parametrize("text", [
    "attention { score s(x, y) = exp(x . y); nystrom landmarks 2 }",
    "attention { features phi(x) = exp(x); tie query key }",
    "tokens 5\nattention { kernel k(x, y) = exp(x . y); pattern edges {1 -> 6} }",
    "tokens 5\nattention { kernel k(x, y) = exp(x . y); pattern random(6, seed=0) }",
    "attention { kernel k(x, y) = exp(" + "-" * 500 + "x . y) }",
    "attention { kernel k(x, y) = exp(" + "(" * 201 + "x . y" + ")" * 201 + ") }",
])
def test_refused_combinations_are_input_errors(text):
    with pytest.raises(UapError):
        uapcheck.check(text, "errors.uap")


# --- several problems in one file: the first in reading order is reported (the parser's stages
# build bottom-up, so these pin the order a reader meets the problems in)
FIRST_PROBLEM = [
    # a misspelt function is named before anything inside its arguments
    (K % "softmax(q . k)", "softmax", "softmax"),
    (K % "foo(n)", "foo", "unknown function `foo`"),
    (K % "exp(x . 1) + foo(z)", "1)", "inner product of two vectors"),  # left to right
    (K % "exp(q) + foo(z)", "q)", "unknown name `q`"),
    # a head's lines are checked against each other before their contents
    ("attention { kernel k(x, y) = exp(x . y); pattern full; pattern window(w) }\n", "pattern window",
     "given twice"),
    ("attention { pattern window(w); kernel k(x, y) = exp(q . y) }\n", "q .", "unknown name `q`"),
    ("attention { kernel k(x, y) = exp(x . y); kernel k(x, y) = q }\n", "kernel k(x, y) = q", "exactly one"),
    # statements given twice before their contents; params before what uses them
    ("tokens 0\ntokens 0\n" + SOFTMAX, "tokens 0\n" + SOFTMAX, "given twice"),
    ("param a > 0\nparam a > 2\n" + SOFTMAX, "a > 2", "declared twice"),
    # `layers` refuses an operation before looking inside it
    ("expect uap layers |q|\n" + SOFTMAX, "|q|", "`layers` takes"),
    ("expect uap layers q + 2^n\n" + SOFTMAX, "q +", "unknown name `q`"),
]


@pytest.mark.parametrize("src, marker, phrase", FIRST_PROBLEM)
def test_the_first_problem_in_reading_order_is_reported(src, marker, phrase):
    err = error_of(src)
    assert phrase in err.message
    assert (err.line, err.column) == at(src, marker), err.message


def test_deeply_nested_and_long_patterns_parse():
    # patterns are read without recursion along `+`/`&` chains and within the nesting bound
    nested = "(full + " * 199 + "causal" + ")" * 199
    chain = " + ".join(["window(1) & causal"] * 190)
    for pattern in (nested, chain):
        spec = parse_source(f"tokens 64\nattention {{ kernel k(x, y) = exp(x . y)\n pattern {pattern} }}\n", "t.uap")
        assert spec.heads[0].pattern.parts
