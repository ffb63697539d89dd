"""Parser tests: every example of LANGUAGE.md parses, and every statement and form of the language
lands in the right Spec IR field (uapcheck/spec.py)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from dataclasses import replace
import sympy

from uapcheck import spec as S
from uapcheck.errors import UapError
from uapcheck.parse import decode, parse_source

REPO = Path(__file__).resolve().parents[1]
CATALOG = REPO / "catalog"
# The normative examples of LANGUAGE.md, copied into the repository (scripts/sync_language_examples.py).
LANGUAGE_EXAMPLES = Path(__file__).resolve().parent / "language_examples"
LANGUAGE_MD = Path(__file__).resolve().parents[2] / "shared" / "LANGUAGE.md"

EXPECTED_EXAMPLES = {"softmax.uap", "rbf.uap", "performer.uap", "linear_relu.uap", "longformer.uap",
                     "bigbird.uap", "linformer.uap", "skyformer.uap", "causal.uap", "sigmoid.uap"}


def parse(text: str, path: str = "t.uap") -> S.Spec:
    return parse_source(text, path)


def head(body: str, prelude: str = "") -> S.Head:
    spec = parse(prelude + "attention {\n" + body + "\n}\n")
    assert len(spec.heads) == 1
    return spec.heads[0]


def pattern(p: str, prelude: str = "") -> S.Pattern:
    return head(f"kernel k(x, y) = exp(x . y)\npattern {p}", prelude).pattern


# Expression builders (locations are excluded from equality).
def N(v) -> S.Num:
    return S.Num(sympy.Rational(v))


def V(name: str) -> S.Name:
    return S.Name(name)


def dot(a, b) -> S.Dot:
    return S.Dot(a, b)


def call(fn, *args) -> S.Call:
    return S.Call(fn, tuple(args))


def op(o, a, b) -> S.BinOp:
    return S.BinOp(o, a, b)


EXP_XY = call("exp", dot(V("x"), V("y")))


# ---------------------------------------------------------------------------------------------
# The examples of LANGUAGE.md and catalog/

def language_examples() -> dict[str, str]:
    return {p.name: p.read_text("utf-8") for p in LANGUAGE_EXAMPLES.glob("*.uap")}


def test_language_md_has_all_examples():
    assert set(language_examples()) == EXPECTED_EXAMPLES


@pytest.mark.skipif(not LANGUAGE_MD.is_file(), reason=f"{LANGUAGE_MD} is not beside the repository")
def test_language_examples_copy_is_current():
    run = subprocess.run([sys.executable, str(Path(__file__).resolve().parents[1] / "scripts" /
                                              "sync_language_examples.py"), "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("name", sorted(EXPECTED_EXAMPLES))
def test_language_md_example_parses(name):
    spec = parse(language_examples()[name], name)
    assert spec.heads, name
    assert spec.expect is not None, name


@pytest.mark.parametrize("name", sorted(EXPECTED_EXAMPLES))
def test_catalog_file_is_the_language_md_example(name):
    example = parse(language_examples()[name], name)
    ours = parse((CATALOG / name).read_text("utf-8"), name)
    # Catalog files add a `cite`; everything else is the example's.
    assert replace(example, cites=()) == replace(ours, cites=())
    assert ours.cites


@pytest.mark.parametrize("name", sorted(EXPECTED_EXAMPLES))
def test_language_md_example_checks_as_it_says(name):
    import uapcheck
    result = uapcheck.check(language_examples()[name], name)
    assert result.expect_holds is True, (name, result.verdict, result.expect_reason)


def test_catalog_has_all_examples():
    assert EXPECTED_EXAMPLES <= {p.name for p in CATALOG.glob("*.uap")}


@pytest.mark.parametrize("path", sorted(CATALOG.glob("*.uap")), ids=lambda p: p.name)
def test_catalog_file_parses(path):
    spec = parse(path.read_text("utf-8"), str(path))
    assert spec.heads or spec.mixer is not None  # a token mixer: attention heads or a convolution
    assert spec.path == str(path)


def catalog(name: str) -> S.Spec:
    return parse((CATALOG / name).read_text("utf-8"), name)


def test_catalog_softmax_ir():
    s = catalog("softmax.uap")
    assert s.architecture == "Transformer"
    assert s.cites == ("Vaswani et al. 2017, arXiv:1706.03762",)
    assert s.tokens == "n" and s.dim == "d"
    assert s.params == ()
    assert s.heads == (S.Head(None, "kernel", "k", ("x", "y"), EXP_XY),)
    assert s.heads[0].normalized is True
    assert s.ffn == S.FFN("named", name="relu")
    assert s.positional == "none" and s.layers is None
    assert s.expect == S.Expectation("uap", ("S_n", None), N(1), "uap group S_n layers 1")


def test_catalog_rbf_ir():
    s = catalog("rbf.uap")
    assert s.params == (S.Param("gamma", "> 0"),)
    # `^` binds tighter than unary minus; `-gamma * ...` is (-gamma) * (...)
    assert s.heads[0].expr == call("exp", op("*", S.Neg(V("gamma")),
                                             op("^", S.Norm(op("-", V("x"), V("y"))), N(2))))
    assert s.ffn == S.FFN("named", name="relu")  # the default


def test_catalog_performer_ir():
    h = catalog("performer.uap").heads[0]
    assert (h.kind, h.fn, h.params, h.random) == ("features", "phi", ("x",), "w")
    assert h.expr == call("exp", op("-", dot(V("w"), V("x")), op("/", op("^", S.Norm(V("x")), N(2)), N(2))))
    assert h.normalized is True


def test_catalog_linear_relu_ir():
    s = catalog("linear_relu.uap")
    assert s.heads[0].expr == call("relu", V("x"))
    assert s.heads[0].random is None
    assert s.expect == S.Expectation("inconclusive", None, None, "inconclusive")


def test_catalog_longformer_ir():
    s = catalog("longformer.uap")
    assert s.params == (S.Param("w", "integer", lower=1),)
    assert s.heads[0].pattern == S.Window("w", False)
    assert s.expect.verdict == "uap" and s.expect.group == ("reflection", None)
    assert s.expect.layers == call("ceil", op("/", op("-", V("n"), N(1)), V("w")))
    assert s.expect.text == "uap group reflection layers ceil((n - 1) / w)"


def test_catalog_bigbird_ir():
    s = catalog("bigbird.uap")
    assert s.tokens == 64
    h = s.heads[0]
    assert h.params == ("q", "key")  # `key` is an ordinary name here
    assert h.expr == call("exp", dot(V("q"), V("key")))
    assert h.pattern == S.PatternUnion((S.Window(3), S.Global(2), S.RandomPattern(3, 0)))
    assert s.expect == S.Expectation("uap", None, N(3), "uap layers 3")


def test_catalog_linformer_ir():
    s = catalog("linformer.uap")
    assert s.heads[0].projection == S.Projection(16, fixed=False)
    assert s.expect.group == ("trivial", None)


def test_catalog_skyformer_ir():
    h = catalog("skyformer.uap").heads[0]
    assert h.nystrom == 8
    assert h.normalize is False and h.normalized is False
    assert h.expr == call("exp", op("/", S.Neg(op("^", S.Norm(op("-", V("x"), V("y"))), N(2))), N(2)))


def test_catalog_causal_ir():
    s = catalog("causal.uap")
    assert s.heads[0].pattern == S.Causal()
    assert s.heads[0].expr == EXP_XY
    assert s.expect == S.Expectation("not-uap", None, None, "not-uap")


def test_catalog_sigmoid_ir():
    s = catalog("sigmoid.uap")
    h = s.heads[0]
    assert (h.kind, h.fn, h.affine, h.tie) == ("score", "s", True, False)
    assert h.expr == call("sigmoid", dot(V("x"), V("y")))
    assert h.normalize is None and h.normalized is False  # score heads are not normalised by default
    assert s.ffn == S.FFN("named", name="gelu")


# ---------------------------------------------------------------------------------------------
# Top-level statements

def test_defaults():
    s = parse("attention { kernel k(x, y) = exp(x . y) }\n", "dir/my_arch.uap")
    assert s.architecture == "my_arch"  # the file name
    assert s.cites == ()
    assert s.tokens == "n" and s.dim == "d"
    assert s.params == ()
    assert s.ffn == S.FFN("named", name="relu")
    assert s.positional == "none"
    assert s.layers is None and s.expect is None
    h = s.heads[0]
    assert h.pattern == S.Full() and h.bias is None and h.projection is None and h.nystrom is None
    assert h.label is None and not h.tie and not h.affine


def test_architecture_and_several_cites():
    s = parse('architecture "My net"\ncite "A 2020"\ncite "B, 2021 (arXiv:1)"\n'
              'attention { kernel k(x, y) = exp(x . y) }\n')
    assert s.architecture == "My net"
    assert s.cites == ("A 2020", "B, 2021 (arXiv:1)")


STRING_BUG = ("BUG: the STRING terminal of grammars/uap.lark reaches `re` with its `\\\\\"` alternative "
              "reduced to a bare quote, so a string may contain `\"` but never a backslash: `\\\"` inside a "
              "string is a syntax error, and two strings on one line are read as one string")


def test_string_with_escaped_quote():
    s = parse('architecture "My \\"quoted\\" net"\nattention { kernel k(x, y) = exp(x . y) }\n')
    assert s.architecture == 'My "quoted" net'


def test_two_strings_on_one_line():
    s = parse('architecture "X"; cite "A 2020"\nattention { kernel k(x, y) = exp(x . y) }\n')
    assert s.architecture == "X"
    assert s.cites == ("A 2020",)


@pytest.mark.parametrize("src, tokens", [("tokens 64", 64), ("tokens 1", 1), ("tokens N", "N"), ("tokens len", "len"), ("tokens n", "n")])
def test_tokens(src, tokens):
    s = parse(src + "\nattention { kernel k(x, y) = exp(x . y) }\n")
    assert s.tokens == tokens
    assert type(s.tokens) is type(tokens)


@pytest.mark.parametrize("src, dim", [("dim 16", 16), ("dim 1", 1), ("dim D", "D")])
def test_dim(src, dim):
    s = parse(src + "\nattention { kernel k(x, y) = exp(x . y) }\n")
    assert s.dim == dim and s.tokens == "n"


@pytest.mark.parametrize("src, param", [
    ("param a > 0", S.Param("a", "> 0")),
    ("param a >= 0", S.Param("a", ">= 0")),
    ("param a != 0", S.Param("a", "!= 0")),
    ("param a real", S.Param("a", "real")),
    ("param a integer >= 1", S.Param("a", "integer", lower=1)),
    ("param a integer >= 0", S.Param("a", "integer", lower=0)),
    ("param a integer >= 7", S.Param("a", "integer", lower=7)),
    ("param a integer >= -2", S.Param("a", "integer", lower=-2)),
])
def test_param_constraints(src, param):
    s = parse(src + "\nattention { kernel k(x, y) = exp(x . y) }\n")
    assert s.params == (param,)
    assert s.param("a") == param and s.param("b") is None


def test_params_in_order_and_used():
    s = parse("param a > 0\nparam b real\nparam c != 0\n"
              "attention { kernel k(x, y) = exp(a * (x . y) + b) / c }\n")
    assert [p.name for p in s.params] == ["a", "b", "c"]
    assert s.heads[0].expr == op("/", call("exp", op("+", op("*", V("a"), dot(V("x"), V("y"))), V("b"))), V("c"))


def test_several_heads_and_labels():
    s = parse("attention local { kernel k(x, y) = exp(x . y); pattern window(2) }\n"
              "attention { features phi(x) = elu(x) + 1 }\n"
              "attention glob { score s(x, y) = relu(x . y); pattern star }\n")
    assert [h.label for h in s.heads] == ["local", None, "glob"]
    assert [h.kind for h in s.heads] == ["kernel", "features", "score"]
    assert [h.pattern for h in s.heads] == [S.Window(2), S.Full(), S.Star()]
    assert s.heads[1].expr == op("+", call("elu", V("x")), N(1))


@pytest.mark.parametrize("src, ffn", [
    ("ffn relu", S.FFN("named", name="relu")),
    ("ffn leaky_relu", S.FFN("named", name="leaky_relu")),
    ("ffn gelu", S.FFN("named", name="gelu")),
    ("ffn tanh", S.FFN("named", name="tanh")),
    ("ffn sigmoid", S.FFN("named", name="sigmoid")),
    ("ffn softplus", S.FFN("named", name="softplus")),
    ("ffn elu", S.FFN("named", name="elu")),
    ("ffn silu", S.FFN("named", name="silu")),
    ("ffn sin", S.FFN("named", name="sin")),
    ("ffn identity", S.FFN("named", name="identity")),
    ("ffn none", S.FFN("none")),
    ("ffn sigma(u) = u^2", S.FFN("custom", name="sigma", var="u", expr=op("^", V("u"), N(2)))),
    ("ffn act(t) = max(t, 0) + 1/10 * min(t, 0)",
     S.FFN("custom", name="act", var="t",
           expr=op("+", call("max", V("t"), N(0)), op("*", op("/", N(1), N(10)), call("min", V("t"), N(0)))))),
])
def test_ffn_forms(src, ffn):
    s = parse("attention { kernel k(x, y) = exp(x . y) }\n" + src + "\n")
    assert s.ffn == ffn


def test_ffn_custom_uses_params():
    s = parse("param a > 0\nattention { kernel k(x, y) = exp(x . y) }\nffn sigma(u) = tanh(a * u)\n")
    assert s.ffn == S.FFN("custom", name="sigma", var="u", expr=call("tanh", op("*", V("a"), V("u"))))


@pytest.mark.parametrize("src, positional", [("positional absolute", "absolute"), ("positional none", "none")])
def test_positional(src, positional):
    assert parse(src + "\nattention { kernel k(x, y) = exp(x . y) }\n").positional == positional


def test_layers_budget():
    assert parse("layers 3\nattention { kernel k(x, y) = exp(x . y) }\n").layers == 3
    s = parse("tokens len\nlayers len\nattention { kernel k(x, y) = exp(x . y) }\n")
    assert s.layers == "len"  # the symbolic length (never below the diameter); a param's name is an error (test_errors)


@pytest.mark.parametrize("src, verdict, group, layers, text", [
    ("expect uap", "uap", None, None, "uap"),
    ("expect uap group S_n layers 1", "uap", ("S_n", None), N(1), "uap group S_n layers 1"),
    ("expect uap group C_n", "uap", ("C_n", None), None, "uap group C_n"),
    ("expect uap group D_n", "uap", ("D_n", None), None, "uap group D_n"),
    ("expect uap group reflection", "uap", ("reflection", None), None, "uap group reflection"),
    ("expect uap group trivial layers 2", "uap", ("trivial", None), N(2), "uap group trivial layers 2"),
    ("expect uap group order 48", "uap", ("order", 48), None, "uap group order 48"),
    ("expect uap group stabilizer 1", "uap", ("stabilizer", 1), None, "uap group stabilizer 1"),
    ("expect uap layers 3", "uap", None, N(3), "uap layers 3"),
    ("expect not-uap", "not-uap", None, None, "not-uap"),
    ("expect inconclusive", "inconclusive", None, None, "inconclusive"),
    ("expect ill-posed", "ill-posed", None, None, "ill-posed"),
])
def test_expect_forms(src, verdict, group, layers, text):
    e = parse("attention { kernel k(x, y) = exp(x . y) }\n" + src + "\n").expect
    assert e == S.Expectation(verdict, group, layers, text)


def test_expect_layers_expression():
    s = parse("param w integer >= 1\nparam b integer >= 2\n"
              "attention { kernel k(x, y) = exp(x . y); pattern window(w) }\n"
              "expect uap group reflection layers ceil((n - 1) / w)\n")
    assert s.expect.layers == call("ceil", op("/", op("-", V("n"), N(1)), V("w")))
    s = parse("tokens N\nparam w integer >= 1\nattention { kernel k(x, y) = exp(x . y) }\n"
              "expect uap layers max(floor(N / w), 1) + 2 * w\n")
    assert s.expect.layers == op("+", call("max", call("floor", op("/", V("N"), V("w"))), N(1)),
                                 op("*", N(2), V("w")))


# ---------------------------------------------------------------------------------------------
# Inside attention { ... }

def test_kernel_item():
    h = head("kernel kk(q, key) = exp(q . key / 2)")
    assert (h.kind, h.fn, h.params, h.random) == ("kernel", "kk", ("q", "key"), None)
    assert h.expr == call("exp", op("/", dot(V("q"), V("key")), N(2)))
    assert h.normalize is None and h.normalized is True


def test_features_item():
    h = head("features phi(x) = elu(x) + 1")
    assert (h.kind, h.fn, h.params, h.random) == ("features", "phi", ("x",), None)
    assert h.normalized is True


def test_features_random():
    h = head("features f(v) = cos(u . v) random u")
    assert (h.kind, h.fn, h.params, h.random) == ("features", "f", ("v",), "u")
    assert h.expr == call("cos", dot(V("u"), V("v")))
    h = head("features phi(x) = exp(x . w) random w")  # `w` on the right of `.` is fine too
    assert h.random == "w" and h.expr == call("exp", dot(V("x"), V("w")))


def test_score_item():
    h = head("score s(x, y) = relu(x . y)")
    assert (h.kind, h.fn, h.params) == ("score", "s", ("x", "y"))
    assert h.normalize is None and h.normalized is False


@pytest.mark.parametrize("item, kind, normalize, normalized", [
    ("kernel k(x, y) = exp(x . y)\nnormalize", "kernel", True, True),
    ("kernel k(x, y) = exp(x . y)\nunnormalized", "kernel", False, False),
    ("features phi(x) = relu(x)\nunnormalized", "features", False, False),
    ("score s(x, y) = sigmoid(x . y)\nnormalize", "score", True, True),
])
def test_normalize_unnormalized(item, kind, normalize, normalized):
    h = head(item)
    assert h.kind == kind and h.normalize is normalize and h.normalized is normalized


def test_nystrom():
    h = head("kernel k(x, y) = exp(-|x - y|^2 / 2)\nnystrom landmarks 8")
    assert h.nystrom == 8


@pytest.mark.parametrize("src, proj", [
    ("project keys values to 16", S.Projection(16, fixed=False)),
    ("project keys values to 16 fixed", S.Projection(16, fixed=True)),
    ("project keys values to 1", S.Projection(1, fixed=False)),
])
def test_projection(src, proj):
    assert head("kernel k(x, y) = exp(x . y)\n" + src).projection == proj


def test_tie_and_affine():
    h = head("kernel k(x, y) = exp(-|x - y|^2)\ntie query key\naffine query key")
    assert h.tie is True and h.affine is True
    h = head("score s(x, y) = sigmoid(x . y)\ntie query key")
    assert h.tie is True and h.affine is False


@pytest.mark.parametrize("kind", ["free", "circulant", "symmetric circulant", "toeplitz", "symmetric toeplitz"])
def test_bias_kinds(kind):
    assert head("kernel k(x, y) = exp(x . y)\nbias " + kind).bias == kind
    assert kind in S.BIAS_KINDS


def test_all_head_items_together():
    h = head("  kernel k(x, y) = exp(x . y)   # the kernel\n"
             "  unnormalized\n  nystrom landmarks 4\n  pattern window(2) cyclic\n"
             "  bias symmetric toeplitz\n  tie query key\n  affine query key\n",
             prelude="tokens 32\n")
    assert h == S.Head(None, "kernel", "k", ("x", "y"), EXP_XY, random=None, normalize=False, nystrom=4,
                       pattern=S.Window(2, True), bias="symmetric toeplitz", projection=None,
                       tie=True, affine=True)
    h = head("  kernel k(x, y) = exp(x . y)\n  project keys values to 8 fixed\n  tie query key\n",
             prelude="tokens 32\n")
    assert h.projection == S.Projection(8, True) and h.tie


@pytest.mark.parametrize("item", ["pattern window(2)", "bias free"])
def test_projections_exclude_patterns_and_biases(item):
    with pytest.raises(UapError) as info:
        parse("attention {\n kernel k(x, y) = exp(x . y)\n project keys values to 4\n " + item + "\n}\n")
    assert "mixes all positions" in info.value.message and info.value.line == 4


# ---------------------------------------------------------------------------------------------
# Patterns

@pytest.mark.parametrize("src, expected", [
    ("full", S.Full()),
    ("causal", S.Causal()),
    ("star", S.Star()),
    ("window(3)", S.Window(3, False)),
    ("window(3) cyclic", S.Window(3, True)),
    ("offsets {1, -1, 0, 5}", S.Offsets((1, -1, 0, 5), False)),
    ("offsets {-2, 3} cyclic", S.Offsets((-2, 3), True)),
    ("dilated(2, 4)", S.Dilated(2, 4)),
    ("strided(4)", S.Strided(4)),
    ("blocks(8)", S.Blocks(8)),
    ("global(2)", S.Global(2)),
    ("random(3, seed=7)", S.RandomPattern(3, 7)),
    ("random(1, seed=0)", S.RandomPattern(1, 0)),
    ("edges {1 -> 2, 2 -> 3, 16 -> 1}", S.Edges(((1, 2), (2, 3), (16, 1)))),
    ("window(1) + global(1)", S.PatternUnion((S.Window(1), S.Global(1)))),
    ("causal + star + blocks(4) + edges {1 -> 16}",
     S.PatternUnion((S.Causal(), S.Star(), S.Blocks(4), S.Edges(((1, 16),))))),
    ("window(3) + global(2) + random(3, seed=0)",
     S.PatternUnion((S.Window(3), S.Global(2), S.RandomPattern(3, 0)))),
])
def test_patterns_integer_tokens(src, expected):
    assert pattern(src, prelude="tokens 16\n") == expected


@pytest.mark.parametrize("src, expected", [
    ("window(w)", S.Window("w")),
    ("window(w) cyclic", S.Window("w", True)),
    ("offsets {-w, w, 1} cyclic", S.Offsets(("-w", "w", 1), True)),
    ("dilated(w, r)", S.Dilated("w", "r")),
    ("strided(s)", S.Strided("s")),
    ("blocks(b)", S.Blocks("b")),
    ("global(g)", S.Global("g")),
    ("window(w) + strided(s) + global(1)", S.PatternUnion((S.Window("w"), S.Strided("s"), S.Global(1)))),
])
def test_patterns_with_integer_params(src, expected):
    prelude = "".join(f"param {v} integer >= 1\n" for v in "wrsbg")
    assert pattern(src, prelude=prelude) == expected


def test_structured_patterns_with_symbolic_tokens():
    assert pattern("window(4) cyclic + blocks(2)") == S.PatternUnion((S.Window(4, True), S.Blocks(2)))


# ---------------------------------------------------------------------------------------------
# Expressions

@pytest.mark.parametrize("text, value", [
    ("2", sympy.Integer(2)),
    ("0.5", sympy.Rational(1, 2)),
    ("1e-3", sympy.Rational(1, 1000)),
    ("1E3", sympy.Integer(1000)),
    ("2.5e-1", sympy.Rational(1, 4)),
    ("1e+2", sympy.Integer(100)),
    ("0.1", sympy.Rational(1, 10)),
    ("3.14159", sympy.Rational(314159, 100000)),
    ("0.333333333333333333333333", sympy.Rational(333333333333333333333333, 10**24)),
])
def test_numbers_are_exact(text, value):
    h = head(f"kernel k(x, y) = exp(x . y * {text})")
    assert h.expr.args[0].left == dot(V("x"), V("y"))
    num = h.expr.args[0].right
    assert isinstance(num, S.Num)
    assert num.value == value
    assert isinstance(num.value, sympy.Rational)
    assert not isinstance(num.value, (sympy.Float, float))


def test_precedence():
    # `.` binds like `*` (left to right), `^` tighter than unary minus, `^` exponent may be unary.
    h = head("kernel k(x, y) = exp(-x . y / 2 + |x|^2 - 2^-1 * |y|)")
    x, y = V("x"), V("y")
    assert h.expr == call("exp", op("-", op("+", op("/", dot(S.Neg(x), y), N(2)), op("^", S.Norm(x), N(2))),
                                    op("*", op("^", N(2), S.Neg(N(1))), S.Norm(y))))
    h = head("kernel k(x, y) = -(x . y)^2")
    assert h.expr == S.Neg(op("^", dot(x, y), N(2)))
    h = head("kernel k(x, y) = 2 * x . y")
    assert h.expr == dot(op("*", N(2), x), y)


def test_vector_operations():
    h = head("kernel k(x, y) = exp((2 * x - y / 3) . (x + y)) + |x - y| * |x|^2")
    x, y = V("x"), V("y")
    assert h.expr == op("+", call("exp", dot(op("-", op("*", N(2), x), op("/", y, N(3))), op("+", x, y))),
                        op("*", S.Norm(op("-", x, y)), op("^", S.Norm(x), N(2))))


@pytest.mark.parametrize("fn", ["exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "sigmoid",
                                "softplus", "erf", "relu", "elu", "gelu", "silu", "abs"])
def test_every_unary_function(fn):
    assert head(f"kernel k(x, y) = {fn}(x . y)").expr == call(fn, dot(V("x"), V("y")))


def test_binary_functions():
    h = head("kernel k(x, y) = max(x . y, 0) + min(x . y, 1)")
    assert h.expr == op("+", call("max", dot(V("x"), V("y")), N(0)), call("min", dot(V("x"), V("y")), N(1)))


def test_elementwise_functions_in_features():
    h = head("features phi(x) = relu(x) * sigmoid(2 * x) - gelu(x) / 2")
    assert h.expr == op("-", op("*", call("relu", V("x")), call("sigmoid", op("*", N(2), V("x")))),
                        op("/", call("gelu", V("x")), N(2)))


@pytest.mark.parametrize("src, params, random", [
    ("kernel k(q, key) = exp(q . key)", ("q", "key"), None),
    ("kernel k(key, random) = exp(key . random)", ("key", "random"), None),
    ("score s(random, key) = sigmoid(random . key)", ("random", "key"), None),
    ("features phi(random) = exp(w . random) random w", ("random",), "w"),
    ("features phi(key) = exp(random . key) random random", ("key",), "random"),
])
def test_keywords_usable_as_vector_names(src, params, random):
    h = head(src)
    assert h.params == params and h.random == random


# ---------------------------------------------------------------------------------------------
# Lexical rules

def test_semicolons_comments_and_blank_lines():
    src = ("# a comment line\n\n"
           'architecture "X"   # trailing comment\n'
           "tokens 8; dim 4 ; param a > 0\n"
           "\n\n"
           "attention { kernel k(x, y) = exp(a * x . y); pattern window(1); bias circulant }  # end\n"
           "; ;\n"
           "ffn gelu; expect uap\n"
           "# final comment without newline")
    s = parse(src)
    assert s.architecture == "X" and s.tokens == 8 and s.dim == 4
    assert s.params == (S.Param("a", "> 0"),)
    h = s.heads[0]
    assert h.pattern == S.Window(1) and h.bias == "circulant"
    assert h.expr == call("exp", dot(op("*", V("a"), V("x")), V("y")))  # `.` binds like `*`
    assert s.ffn == S.FFN("named", name="gelu")
    assert s.expect.verdict == "uap"


def test_multiline_attention_block_with_comments():
    s = parse("attention {   # opening\n\n  # inside\n  kernel k(x, y) = exp(x . y)  # kernel\n\n"
              "  pattern causal\n}\n")
    assert s.heads[0].pattern == S.Causal() and s.heads[0].expr == EXP_XY


def test_crlf_and_no_final_newline():
    s = parse("architecture \"W\"\r\ntokens 4\r\nattention { kernel k(x, y) = exp(x . y) }")
    assert s.architecture == "W" and s.tokens == 4 and s.heads[0].expr == EXP_XY


def test_decode_strips_a_byte_order_mark():
    text = decode("\ufeffarchitecture \"W\"\nattention { kernel k(x, y) = exp(x . y) }\n".encode("utf-8"))
    assert text.startswith("architecture")
    assert parse(text).architecture == "W"


def test_same_spec_regardless_of_layout():
    one_line = parse("tokens 8; attention { kernel k(x, y) = exp(x . y); pattern causal }; expect not-uap")
    multi = parse("tokens 8\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern causal\n}\nexpect not-uap\n")
    assert one_line == multi


@pytest.mark.parametrize("item, learned, value", [("sink logit learned", True, 0), ("sink logit 0", False, 0),
                                                   ("sink logit -3", False, -3), ("sink logit 2", False, 2)])
def test_sink_logit(item, learned, value):
    spec = parse_source(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  {item}\n  heads 8 kv 2\n}}\n")
    (head,) = spec.heads
    assert head.sink == S.SinkLogit(learned=learned, value=value) and head.heads == (8, 2)
    assert head.sink.text() == item
    plain = parse_source("attention { kernel k(x, y) = exp(x . y) }\nparam sink real\n")
    assert plain.heads[0].sink is None  # `sink` is a keyword only inside a head


def test_locations_are_recorded():
    s = parse("\nparam a > 0\nattention {\n  kernel k(x, y) = exp(a * (x . y))\n}\n")
    assert (s.params[0].loc.line, s.params[0].loc.column) == (2, 7)
    assert (s.heads[0].loc.line, s.heads[0].loc.column) == (3, 1)
    dot_node = s.heads[0].expr.args[0].right
    assert isinstance(dot_node, S.Dot)
    assert (dot_node.loc.line, dot_node.loc.column) == (4, 29)
