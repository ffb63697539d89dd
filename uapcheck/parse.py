"""Text → Spec, the lark way: a grammar (grammars/uap.lark, package data of uapcheck.grammars),
then one lark visitor per stage, each with one method per grammar rule it reads.

0. Syntax: `_prescan` bounds size and nesting, lark (LALR, positions) parses, `_check_depth`
   bounds the tree. Syntax errors are told in the language's own words (`_syntax_error`).
1. Building the IR: `_BuildIR` turns a statement or a head item into spec.py records, `_Constraint`
   a param's constraint, `_Patterns` a pattern (top-down: a block pattern is read in the scope of
   its blocks). They read integers through `_Scope`, the params and sequence length declared so far.
2. Type-checking expressions: `_TypedExpr` (vector vs scalar, allowed names, the random vector,
   constant sizes) and `_LayerExpr` (the expression of `expect ... layers`).
3. Cross-field checks: `_head` across the items of a head, `_File` across the statements of the
   file (it also builds the statements in the order their meaning needs: params, sizes, the rest).

Every problem becomes a `UapError` with a line and column; nothing here lets a traceback escape
for any input text. User text never reaches SymPy's string parsers: numbers are built with
`sympy.Rational` from the token's digits, names stay names.
"""
from __future__ import annotations

import contextvars
import dataclasses
import re
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Callable, Optional

import sympy
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.tree import Meta
from lark.visitors import Transformer_NonRecursive

from . import edge_lists, functions, grammar_words, spec
from .errors import MAX_SOURCE_BYTES, UapError, printable

MAX_NESTING = 200
MAX_TREE_DEPTH = 400
MAX_DECIMAL_EXPONENT = 300
MAX_LITERAL_DIGITS = 300
MAX_CONSTANT_EXPONENT = 1000
MAX_EXPRESSION_NODES = 5000  # nodes of the parse tree of one kernel, score, feature map, ffn or layers
MAX_INT = 10**9

# The language's functions, activations and layer-count functions are the tables of uapcheck/functions.py.
FUNCTIONS = functions.FUNCTIONS
ACTIVATIONS = functions.ACTIVATIONS
LAYER_FUNCTIONS = functions.LAYER_FUNCTIONS


_grammar_text = grammar_words.grammar_text


@lru_cache(maxsize=1)
def parser() -> Lark:
    from .parser_cache import cached_lark  # the LALR tables, kept per user between runs
    return cached_lark(_grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=False)


# ---------------------------------------------------------------------------------------------
# Reading and pre-scanning

def decode(data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start]
        line = prefix.count(b"\n") + 1
        line_start = prefix[prefix.rfind(b"\n") + 1:]
        col = len(line_start.decode("utf-8", errors="replace")) + 1
        raise UapError(f"the file is not valid UTF-8 (byte 0x{data[exc.start]:02x})", line, col) from None
    return text[1:] if text.startswith("\ufeff") else text


_PRESCAN = re.compile(r'#[^\n]*|"(?:[^"\\\n]|\\[^\n])*"?|[()]')


def _prescan(text: str) -> None:
    """Bounds nesting before lark sees the text (the size is bounded before: `_edge_lists`). Parentheses
    inside comments and strings do not count (a string ends at its closing quote or at the line end)."""
    if not text.strip() or all(not l.split("#", 1)[0].strip() for l in text.splitlines()):
        raise UapError("the file is empty: a .uap file needs at least one `attention { ... }` block", 1, 1)
    depth = 0
    for m in _PRESCAN.finditer(text):
        ch = m.group()
        if ch == "(":
            depth += 1
            if depth > MAX_NESTING:
                line = text.count("\n", 0, m.start()) + 1
                col = m.start() - text.rfind("\n", 0, m.start())
                raise UapError(f"expression nested more than {MAX_NESTING} levels deep", line, col)
        elif ch == ")":
            depth = max(0, depth - 1)


def _tree_loc(tree: Tree | Token) -> spec.Loc:
    """Where a subtree starts (its first token when lark recorded no position for it)."""
    if isinstance(tree, Token):
        return _loc(tree)
    meta = tree.meta
    if getattr(meta, "empty", True):
        for child in tree.children:
            if isinstance(child, (Tree, Token)):
                return _tree_loc(child)
        return spec.Loc(1, 1)
    return _loc(meta)


TOKEN_WORDS = {
    "_NL": "end of line", "NAME": "a name", "NUMBER": "a number", "INT": "an integer", "STRING": "a string",
    "$END": "end of file", "VERDICT": "uap, not-uap, inconclusive, ill-posed",
}


@lru_cache(maxsize=1)
def _terminal_words() -> dict[str, str]:
    """Every terminal as the user would write it: a literal in quotes, or the words above. Names
    that exist only inside the grammar never reach a message."""
    words = {}
    for term in parser().terminals:
        pattern = term.pattern
        if term.name in TOKEN_WORDS:
            words[term.name] = TOKEN_WORDS[term.name]
        elif type(pattern).__name__ == "PatternStr":
            words[term.name] = f"'{pattern.value}'"
    return words


def _keywords(expected) -> list[str]:
    """The keywords (literal words) among the expected terminals."""
    words = _terminal_words()
    out = []
    for name in expected:
        w = words.get(name, "")
        if w.startswith("'") and w[1:-1].replace("-", "").isalpha():
            out.append(w[1:-1])
        elif name == "VERDICT":
            out.extend(("uap", "not-uap", "inconclusive", "ill-posed"))
    return out


def _describe_expected(expected) -> str:
    table = _terminal_words()
    words = sorted({table[name] for name in expected if name in table})
    if not words:
        return ""
    if len(words) > 8:
        words = words[:8] + ["..."]
    return "; expected " + ", ".join(words)


def _line_text(text: str, line: int) -> str:
    lines = text.split("\n")
    return lines[line - 1].rstrip("\r") if 1 <= line <= len(lines) else ""


def _slip_message(word: str, line_text: str, expected) -> Optional[str]:
    """A refusal or a suggested fix for an unexpected word, or None."""
    from . import slips
    if re.search(r"\bnystrom\b", line_text) and word.lower() in slips.NYSTROM_DATA_WORDS:
        return slips.REFUSALS["nystromformer"]
    refused = slips.refusal(word)
    if refused:
        return f"`{word}` is refused: {refused}"
    if word.lower() == "softmax":
        return slips.FUNCTION_SLIPS["softmax"]
    if slips.transpose_slip(line_text):
        return "a transpose is not written in .uap: write the inner product xᵀy as `x . y`"
    guess = slips.did_you_mean(word, _keywords(expected))
    if guess is None and word != "":
        # a word the lexer split (`uapp` read as `uap` + `p`): any keyword of the language
        # (not `for`, the connective of an `expect` line's range: `foo bar` is an unknown statement, not a slip)
        every = [w[1:-1] for w in _terminal_words().values() if w.startswith("'") and w[1:-1].isalpha()
                 and w[1:-1] != "for"]
        guess = slips.did_you_mean(word, every + ["not-uap", "ill-posed", "uap", "inconclusive"])
    if guess:
        return f"unexpected `{word}`; did you mean `{guess}`?"
    return None


def _offset_of(text: str, line: int, col: int) -> Optional[int]:
    """The offset of a 1-based line and column (lines end at `\n` only, as lark counts them), or None."""
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    return start + col - 1


def _syntax_error(exc: UnexpectedInput, text: str) -> UapError:
    from . import slips
    line, col = exc.line if exc.line and exc.line > 0 else 1, exc.column if exc.column and exc.column > 0 else 1
    if isinstance(exc, UnexpectedCharacters):
        # the character at the error's line and column of `text`: lark may have read a text whose offsets differ
        # (a long `edges` list with its pairs blanked, uapcheck/edge_lists.py), never its lines and columns
        pos = _offset_of(text, line, col)
        ch = text[pos] if pos is not None and 0 <= pos < len(text) else "?"
        if ch == '"':
            return UapError("unterminated string: a string ends with `\"` on the same line, and `\\` may only "
                            "escape a quote", line, col)
        hint = slips.character_slip(ch)
        if hint:
            return UapError(f"unexpected character {ch!r}: {hint}", line, col)
        return UapError(f"unexpected character {ch!r}", line, col)
    if isinstance(exc, UnexpectedEOF):
        lines = text.splitlines() or [""]
        return UapError("unexpected end of file" + _describe_expected(exc.expected), len(lines),
                        len(lines[-1]) + 1)
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END":
            lines = text.splitlines() or [""]
            return UapError("unexpected end of file" + _describe_expected(exc.expected),
                            len(lines), len(lines[-1]) + 1)
        line_text = _line_text(text, line)
        word = slips.word_at(line_text, col) if tok.type != "_NL" else ""
        if word and re.fullmatch(r"[A-Za-z][\w-]*", word):
            message = _slip_message(word, line_text, exc.expected)
            if message:
                start = col
                while start > 1 and re.match(r"[\w-]", line_text[start - 2]):
                    start -= 1
                return UapError(message, line, start)
        shown = "end of line" if tok.type == "_NL" else repr(str(tok))
        return UapError(f"unexpected {shown}" + _describe_expected(exc.expected), line, col)
    return UapError("syntax error", line, col)


_EXPRESSION_ITEMS = ("kernel_item", "features_item", "score_item", "ffn_custom", "expect_layers")


def _subtree_size(tree: Tree) -> int:
    size, stack = 0, [tree]
    while stack:
        node = stack.pop()
        size += 1
        if isinstance(node, Tree):
            stack.extend(node.children)
    return size


def _check_depth(tree: Tree) -> None:
    items: list[Tree] = []
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            loc = _tree_loc(node)
            raise UapError(f"expression too large: more than {MAX_TREE_DEPTH} nested operations",
                           loc.line, loc.column)
        if node.data in _EXPRESSION_ITEMS:
            items.append(node)
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1))
    for node in items:  # wide but shallow definitions (a deep one is refused above)
        if _subtree_size(node) > MAX_EXPRESSION_NODES:
            exprs = [c for c in node.children if isinstance(c, Tree)]
            loc = _tree_loc(exprs[0] if exprs else node)  # at the expression, not the keyword
            raise UapError(f"expression too large: more than {MAX_EXPRESSION_NODES} operations and operands "
                           "in one definition", loc.line, loc.column)


def parse_source(text: str, path: str = "<stdin>") -> spec.Spec:
    if text.startswith("\ufeff"):
        text = text[1:]
    lists, lark_text = _edge_lists(text)
    try:
        tree = parser().parse(lark_text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text) from None
    _check_depth(tree)
    listed = _LISTS.set({edge_lists.line_col(text, block.keyword): block for block in lists})
    try:
        built = _File(path, tree).build()
    finally:
        _LISTS.reset(listed)
    return dataclasses.replace(built, source=text)


def _edge_lists(text: str) -> tuple[list[edge_lists.EdgeList], str]:
    """The file's long `edges {...}` lists (read by uapcheck/edge_lists.py, not by lark) and the text
    lark is to parse, once the sizes, the nesting and the lists' own syntax are checked. A list that
    is not pairs has its syntax error told by lark (on the file with the pairs before it blanked);
    should lark accept what the scan did not, the file is parsed by lark as written."""
    size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
    if size > edge_lists.MAX_FILE_BYTES:
        raise UapError(f"the file is larger than {MAX_SOURCE_BYTES} bytes (and {edge_lists.MAX_FILE_BYTES} "
                       "bytes with its `edges {...}` lists)", 1, 1)
    irregular: Optional[edge_lists.Irregular] = None
    try:
        lists = edge_lists.find(text)
    except edge_lists.Irregular as exc:
        irregular, lists = exc, exc.found
    if size > MAX_SOURCE_BYTES or lists:
        spans = lists + ([edge_lists.EdgeList(text, irregular.keyword, irregular.start, irregular.bad)]
                         if irregular is not None else [])
        edge_lists.check_sizes(text, spans)
    if irregular is None:
        lark_text = edge_lists.placeholder_text(text, lists)
        _prescan(lark_text)
        return lists, lark_text
    reduced = edge_lists.placeholder_text(edge_lists.blank_before(text, irregular.start, irregular.bad), lists)
    _prescan(reduced)
    try:
        parser().parse(reduced)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text) from None
    lark_text = edge_lists.placeholder_text(text, lists)  # not a list after all (a head named `edges`)
    _prescan(lark_text)
    return lists, lark_text


# ---------------------------------------------------------------------------------------------
# Shared by the stages: locations, literals, the scope a statement is read in

def _loc(where: Any) -> spec.Loc:
    """The location of a token or of a rule's meta (line 1, column 1 when lark recorded none)."""
    line = getattr(where, "line", None) or 1
    col = getattr(where, "column", None) or 1
    end_line = getattr(where, "end_line", None) or line
    end_col = getattr(where, "end_column", None) or col
    return spec.Loc(line, col, end_line, end_col)


#: Single letters the derivations' statements use for other things: a length named so would be printed beside them
#: (`tokens i` read "i ↦ i + 1 − i", `tokens G` "G = D_G", `tokens m` "the family is m-layer (m = ⌈⌊m/2⌋/2⌉)", `tokens w`
#: "for w ≥ 4w + 2"). Every single letter but n and N is refused (LENGTH_LETTERS); these name what it would meet.
WORDS_OF_THE_DERIVATIONS = {"i": "a position", "j": "a position", "k": "the kernel", "t": "the scale of the key "
                            "(k(x, t z))", "x": "a token or query", "y": "a key", "z": "the key direction",
                            "D": "the diameter", "G": "the group", "X": "a sample", "m": "a number of layers",
                            "w": "a window's width", "s": "a stride", "b": "a block's size", "g": "a number of global "
                            "positions", "r": "a dilation", "d": "the token dimension", "L": "a period of n",
                            "T": "the model", "W": "a weight matrix", "S": "a set of offsets"}
#: the single letters a symbolic length may be named by (longer names are free: `tokens len`)
LENGTH_LETTERS = ("n", "N")
#: Longer names the printed formulas and conditions use (n mod 4 = 1, max(2, ⌈(n − 1)/200⌉), gcd(n, 2), i ↦ n + 1 − i
#: (mod n), 3 if n mod 4 ∈ {1, 2}, else 2): `tokens mod` read "mod mod 4 = 1", `tokens max` "max(2, ⌈(max − 1)/200⌉)".
FORMULA_WORDS = frozenset({"mod", "max", "min", "gcd", "lcm", "ceil", "floor", "ceiling", "if", "else", "in", "and",
                           "or", "not", "for", "sum", "exp", "log", "id", "Max", "Min", "Abs", "Mod", "sqrt"})

def _err(where: Any, message: str) -> UapError:
    """An error at a token, a rule's meta, a located value of this module or a spec.Loc."""
    if isinstance(where, _Int):
        where = where.start
    elif isinstance(where, _Typed):
        where = where.expr.loc
    loc = where if isinstance(where, spec.Loc) else _loc(where)
    return UapError(message, loc.line, loc.column)


def _run(transformer: Transformer, tree: Tree) -> Any:
    """transformer.transform(tree), with a UapError raised in a rule method passed on as itself
    (lark wraps what a Transformer's method raises in a VisitError)."""
    try:
        return transformer.transform(tree)
    except VisitError as exc:
        raise exc.orig_exc from None


def _number(tok: Token) -> sympy.Rational:
    s = str(tok)
    m = re.fullmatch(r"(\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?", s)
    if not m:
        raise _err(tok, f"malformed number {s!r}")
    whole, frac, exp = m.group(1) or "0", m.group(2) or "", m.group(3)
    if len(whole) + len(frac) > MAX_LITERAL_DIGITS:
        raise _err(tok, f"number literal with more than {MAX_LITERAL_DIGITS} digits")
    e = int(exp) if exp else 0
    if abs(e) > MAX_DECIMAL_EXPONENT:
        raise _err(tok, f"number exponent {e} is out of range (at most {MAX_DECIMAL_EXPONENT} in absolute value)")
    mant = sympy.Integer(int(whole + frac)) / sympy.Integer(10) ** len(frac)
    return sympy.Rational(mant * sympy.Integer(10) ** e)


def _string(tok: Token) -> str:
    # Control characters (terminal escapes, bidi overrides) are shown, never sent to a terminal.
    return printable(str(tok)[1:-1].replace('\\"', '"'))


@dataclass(frozen=True)
class _Int:
    """A `signed_int` as written: an optional minus sign, then an integer literal or a name."""

    minus: Optional[Token]
    value: Token

    @property
    def start(self) -> Token:
        """Where a message about the number points: its minus sign, if it has one."""
        return self.minus if self.minus is not None else self.value

    @property
    def sign(self) -> int:
        return -1 if self.minus is not None else 1


#: The sequence-length checks of `_Scope.int_term`: quantities that count positions.
_COUNTS_POSITIONS = ("random pattern count", "global pattern size", "number of sinks")


@dataclass(frozen=True)
class _Scope:
    """What a statement means depends on: the declared params and the sequence length (the block
    count inside `blockwise(b) { ... }`)."""

    params: dict[str, spec.Param] = field(default_factory=dict)
    tokens: spec.IntTerm = "n"
    in_blockwise: bool = False

    def size(self, value: _Int, what: str, minimum: int) -> spec.IntTerm:
        """`tokens N` / `dim N`: a positive integer or a name of its own."""
        if value.value.type == "NAME":
            if value.minus is not None:
                raise _err(value.value, f"`{what}` must be a positive integer or a name")
            if str(value.value) in self.params:
                raise _err(value.value, f"`{what} {value.value}`: the symbolic size must not also be a `param`")
            return str(value.value)
        if len(str(value.value)) > 12:
            raise _err(value, f"`{what}` is too large (at most {MAX_INT})")
        n = int(str(value.value)) * value.sign
        if n < minimum:
            raise _err(value, f"`{what}` must be at least {minimum}, got {n}")
        if n > MAX_INT:
            raise _err(value, f"`{what}` {n} is too large (at most {MAX_INT})")
        return n

    def int_term(self, value: _Int, what: str, minimum: Optional[int] = None,
                 allow_negative_name: bool = False) -> spec.IntTerm:
        """An integer in a pattern, a size or a count: a literal, the symbolic sequence length, or
        an `integer >= K` param (with a sign where `allow_negative_name`)."""
        if value.value.type == "NAME":
            return self._named_int(value, what, minimum, allow_negative_name)
        if len(str(value.value)) > 12:
            raise _err(value, f"{what} is out of range")
        n = int(str(value.value)) * value.sign
        if abs(n) > MAX_INT:
            raise _err(value, f"{what} {n} is out of range")
        if minimum is not None and n < minimum:
            raise _err(value, f"{what} must be at least {minimum}, got {n}")
        if isinstance(self.tokens, int) and abs(n) > self.tokens and what in _COUNTS_POSITIONS:
            raise _err(value, f"{what} {n} exceeds `tokens {self.tokens}`")
        return n

    def _named_int(self, value: _Int, what: str, minimum: Optional[int], allow_negative_name: bool) -> str:
        name, negative, where = str(value.value), value.minus is not None, value.value
        if isinstance(self.tokens, str) and name == self.tokens:
            if negative or (minimum is not None and minimum > 1):
                raise _err(where, f"`{name}` (the sequence length) cannot be used here")
            return name
        p = self.params.get(name)
        if p is None:
            raise _err(where, f"unknown name `{name}` in {what}: declare it with `param {name} integer >= 1`")
        if p.constraint != "integer":
            raise _err(where, f"`{name}` is used in {what} but is not declared `integer >= K`")
        if negative and not allow_negative_name:
            raise _err(where, f"{what} must be positive")
        if minimum is not None and (p.lower is None or p.lower < minimum) and not negative:
            raise _err(where, f"{what} needs `{name}` >= {minimum}, but it is declared `integer >= {p.lower}`")
        return ("-" + name) if negative else name

    def integer(self, value: _Int, what: str, minimum: int, message: str) -> int:
        """An integer literal (a name is refused with `message`)."""
        n = self.int_term(value, what, minimum=minimum)
        if not isinstance(n, int):
            raise _err(value, message)
        return n


# ---------------------------------------------------------------------------------------------
# Stage 2: type-checking expressions, one method per expression rule of the grammar

SCALAR, LINVEC, COORDVEC = "scalar", "vector", "coordinate-wise vector"
MAX_CONSTANT_BITS = 4000
MAX_FEATURE_COMPONENTS = 16  # the components of a bracketed feature list


@dataclass(frozen=True)
class _Typed:
    """An expression and its type: SCALAR, LINVEC (linear in the vector arguments) or COORDVEC."""

    expr: spec.Expr
    type: str


def _sum_type(left: str, right: str) -> str:
    if left == right:
        return left
    return COORDVEC  # a linear and a coordinate-wise vector, or a scalar broadcast to every coordinate


def _product_type(left: str, right: str) -> str:
    if left == SCALAR:
        return right
    if right == SCALAR:
        return left
    return COORDVEC  # elementwise product


_LEAVES = ("number", "name")


def _on_entry(tree: Tree, checked: Callable[[Tree], bool]) -> dict[int, list[Tree]]:
    """The `checked` nodes of an expression, keyed by the leaf their subtree starts with (by the id of
    its meta), outermost first. A Transformer reads bottom-up; checking such a node when its first
    leaf is read keeps the order of a reader going left to right: everything before the node, then
    the node, then what is inside it."""
    entered: dict[int, list[Tree]] = {}
    for node in tree.iter_subtrees_topdown():  # outer nodes before inner ones
        if checked(node):
            leaf = node
            while leaf.data not in _LEAVES:
                leaf = next(child for child in leaf.children if isinstance(child, Tree))
            entered.setdefault(id(leaf.meta), []).append(node)
    return entered


@v_args(inline=True, meta=True)
class _TypedExpr(Transformer_NonRecursive):
    """An expression (kernel, score, feature map, position formula, activation) → `_Typed`.

    `vectors` are the head's vector arguments, `random` the random vector of random features (it
    may appear only as `w . v`), `scalars` names that stand for scalars here (positions, the
    activation's argument); any other name must be a declared param."""

    def __init__(self, params: dict[str, spec.Param], vectors: frozenset[str] = frozenset(),
                 random: Optional[str] = None, scalars: frozenset[str] = frozenset()):
        super().__init__(visit_tokens=False)
        self.params, self.vectors, self.random, self.scalars = params, vectors, random, scalars
        self.entered: dict[int, list[Tree]] = {}

    def typed(self, tree: Tree) -> _Typed:
        """The expression `tree`, typed (bottom-up). A call's function and arity are checked when the
        reading enters the call, before anything inside its arguments (`_on_entry`)."""
        self.entered = _on_entry(tree, lambda node: node.data == "call")
        return _run(self, tree)

    def _enter(self, meta: Meta) -> None:
        for node in self.entered.get(id(meta), ()):
            fn, *args = node.children
            function = FUNCTIONS.get(str(fn))
            if function is None:
                assert isinstance(fn, Token)  # `call: NAME "(" expr ("," expr)* ")"`
                raise _unknown_function(fn)
            if len(args) != function.arity:
                raise _err(node.meta, f"`{fn}` takes {function.arity} argument{'s' if function.arity > 1 else ''}, "
                                      f"got {len(args)}")

    def number(self, meta: Meta, digits: Token) -> _Typed:
        self._enter(meta)
        return _Typed(spec.Num(_number(digits), _loc(meta)), SCALAR)

    def name(self, meta: Meta, token: Token) -> _Typed:
        self._enter(meta)
        name, loc = str(token), _loc(meta)
        if name in self.vectors:
            return _Typed(spec.Name(name, loc), LINVEC)
        if name in self.scalars or name in self.params:
            return _Typed(spec.Name(name, loc), SCALAR)
        if name in FUNCTIONS:
            raise _err(meta, f"`{name}` is a function: write `{name}(...)`")
        if name == "T":
            raise _err(meta, "unknown name `T`: a transpose is not written in .uap; write the inner product "
                             "xᵀy as `x . y`")
        raise _err(meta, f"unknown name `{name}`; declare a constant with `param NAME > 0` (or `real`, "
                         f"`!= 0`, ...), or, for a random vector of random features, end the `features` line with "
                         f"`random {name}`")

    def call(self, meta: Meta, fn: Token, *args: _Typed) -> _Typed:
        if self.random and any(_mentions(a.expr, self.random) for a in args if a.type != SCALAR):
            raise self._random_misused(meta)
        typ = SCALAR if all(a.type == SCALAR for a in args) else COORDVEC
        return _Typed(spec.Call(str(fn), tuple(a.expr for a in args), _loc(meta)), typ)

    def neg(self, meta: Meta, operand: _Typed) -> _Typed:
        return _Typed(spec.Neg(operand.expr, _loc(meta)), operand.type)

    def norm(self, meta: Meta, operand: _Typed) -> _Typed:
        if operand.type == COORDVEC:
            raise _err(meta, "`|.|` of a coordinate-wise (elementwise) vector: use `abs(...)` for the "
                             "elementwise absolute value, or `|v|` of a linear vector for a norm")
        if self.random and _mentions(operand.expr, self.random) and operand.type != SCALAR:
            raise self._random_misused(meta)
        return _Typed(spec.Norm(operand.expr, _loc(meta)), SCALAR)

    def dot(self, meta: Meta, left: _Typed, right: _Typed) -> _Typed:
        if left.type == SCALAR or right.type == SCALAR:
            bad = left if left.type == SCALAR else right
            raise _err(bad, "`.` is the inner product of two vectors; this operand is a scalar (use `*`)")
        if self.random and not self._random_dot(left.expr, right.expr):
            raise self._random_misused(meta)
        return _Typed(spec.Dot(left.expr, right.expr, _loc(meta)), SCALAR)

    def add(self, meta: Meta, left: _Typed, right: _Typed) -> _Typed:
        return self._arithmetic("+", meta, left, right, _sum_type(left.type, right.type))

    def sub(self, meta: Meta, left: _Typed, right: _Typed) -> _Typed:
        return self._arithmetic("-", meta, left, right, _sum_type(left.type, right.type))

    def mul(self, meta: Meta, left: _Typed, right: _Typed) -> _Typed:
        return self._arithmetic("*", meta, left, right, _product_type(left.type, right.type))

    def div(self, meta: Meta, left: _Typed, right: _Typed) -> _Typed:
        self._no_random_vector(meta, left, right)
        if right.type != SCALAR:
            raise _err(right, "cannot divide by a vector")
        if _checked_constant(right.expr, right) == 0:
            raise _err(right, "division by zero")
        return self._arithmetic("/", meta, left, right, left.type)

    def pow(self, meta: Meta, base: _Typed, exponent: _Typed) -> _Typed:
        self._no_random_vector(meta, base, exponent)
        if exponent.type != SCALAR:
            raise _err(exponent, "the exponent of `^` must be a scalar, not a vector")
        value = _checked_constant(exponent.expr, exponent)
        if value is not None and abs(value) > MAX_CONSTANT_EXPONENT:
            raise _err(exponent, f"exponent too large (at most {MAX_CONSTANT_EXPONENT} in absolute value)")
        if value is not None:
            total = abs(value) * max(_nested_exponent(base.expr), 1)  # (b^p)^q is b^(pq)
            if total > MAX_CONSTANT_EXPONENT:
                raise _err(exponent, f"nested powers raise to a total exponent of {sympy.sstr(total)} (at most "
                                     f"{MAX_CONSTANT_EXPONENT} in absolute value)")
        expr = spec.BinOp("^", base.expr, exponent.expr, _loc(meta))
        if base.type == SCALAR:
            _checked_constant(expr, meta)
        return _Typed(expr, SCALAR if base.type == SCALAR else COORDVEC)

    def _arithmetic(self, op: str, meta: Meta, left: _Typed, right: _Typed, typ: str) -> _Typed:
        """`+ - * /`: the random vector stays inside inner products; constants stay small."""
        self._no_random_vector(meta, left, right)
        expr = spec.BinOp(op, left.expr, right.expr, _loc(meta))
        if left.type == SCALAR and right.type == SCALAR:
            _checked_constant(expr, meta)
        return _Typed(expr, typ)

    def _no_random_vector(self, meta: Meta, left: _Typed, right: _Typed) -> None:
        if self.random and any(side.type != SCALAR and _mentions(side.expr, self.random) for side in (left, right)):
            raise self._random_misused(meta)

    def _random_dot(self, left: spec.Expr, right: spec.Expr) -> bool:
        """No random vector in `left . right`, or exactly `w . v` / `v . w` with no w in v."""
        assert self.random is not None
        w = self.random
        in_left, in_right = _mentions(left, w), _mentions(right, w)
        if not (in_left or in_right):
            return True
        return ((isinstance(left, spec.Name) and left.id == w and not in_right)
                or (isinstance(right, spec.Name) and right.id == w and not in_left))

    def _random_misused(self, meta: Meta) -> UapError:
        return _err(meta, f"the random vector `{self.random}` may appear only as `{self.random} . v`")


def _unknown_function(fn: Token) -> UapError:
    from . import slips
    hint = slips.FUNCTION_SLIPS.get(str(fn).lower())
    if hint:
        return _err(fn, f"unknown function `{fn}`: {hint}")
    guess = slips.did_you_mean(str(fn), FUNCTIONS)
    return _err(fn, f"unknown function `{fn}`" + (f"; did you mean `{guess}`?" if guess else "")
                + "; known: " + ", ".join(sorted(FUNCTIONS)))


_LAYER_RULES = ("number", "name", "call", "neg", "add", "sub", "mul", "div")  # the methods of _LayerExpr


@v_args(inline=True, meta=True)
class _LayerExpr(Transformer_NonRecursive):
    """The expression of `expect ... layers EXPR`: integers, the `allowed` names (the symbolic
    sequence length and the params), + - * / and ceil, floor, max, min."""

    def __init__(self, allowed: set[str]):
        super().__init__(visit_tokens=False)
        self.allowed = allowed
        self.entered: dict[int, list[Tree]] = {}

    def typed(self, tree: Tree) -> spec.Expr:
        """The expression `tree`, checked (bottom-up). An operation `layers` does not take, and a call's
        function and arity, are refused when the reading enters them (`_on_entry`)."""
        self.entered = _on_entry(tree, lambda node: node.data == "call" or node.data not in _LAYER_RULES)
        return _run(self, tree)

    def _enter(self, meta: Meta) -> None:
        for node in self.entered.get(id(meta), ()):
            if node.data not in _LAYER_RULES:
                raise _err(node.meta, "`layers` takes an integer or an expression with + - * / ceil floor max min")
            fn, *args = node.children
            function = LAYER_FUNCTIONS.get(str(fn))
            if function is None or function.arity != len(args):
                raise _err(node.meta, f"`{fn}` is not allowed in `layers`; use ceil, floor, max, min")

    def number(self, meta: Meta, digits: Token) -> spec.Expr:
        self._enter(meta)
        return spec.Num(_number(digits), _loc(meta))

    def name(self, meta: Meta, token: Token) -> spec.Expr:
        self._enter(meta)
        if str(token) not in self.allowed:
            raise _err(meta, f"unknown name `{token}` in `layers`; use integers, the symbolic "
                             "`tokens` name and declared params")
        return spec.Name(str(token), _loc(meta))

    def call(self, meta: Meta, fn: Token, *args: spec.Expr) -> spec.Expr:
        return spec.Call(str(fn), args, _loc(meta))

    def neg(self, meta: Meta, operand: spec.Expr) -> spec.Expr:
        return spec.Neg(operand, _loc(meta))

    def add(self, meta: Meta, left: spec.Expr, right: spec.Expr) -> spec.Expr:
        return self._arithmetic("+", meta, left, right)

    def sub(self, meta: Meta, left: spec.Expr, right: spec.Expr) -> spec.Expr:
        return self._arithmetic("-", meta, left, right)

    def mul(self, meta: Meta, left: spec.Expr, right: spec.Expr) -> spec.Expr:
        return self._arithmetic("*", meta, left, right)

    def div(self, meta: Meta, left: spec.Expr, right: spec.Expr) -> spec.Expr:
        if _checked_constant(right, right.loc) == 0:
            raise _err(right.loc, "division by zero")
        return self._arithmetic("/", meta, left, right)

    def _arithmetic(self, op: str, meta: Meta, left: spec.Expr, right: spec.Expr) -> spec.Expr:
        out = spec.BinOp(op, left, right, _loc(meta))
        _checked_constant(out, meta)
        return out


# -- constants: exact values of constant subexpressions, with their size bounded -----------------

class _TooLarge(Exception):
    pass


def _checked_constant(expr: spec.Expr, where: Any) -> Optional[sympy.Rational]:
    try:
        return _constant_value(expr)
    except _TooLarge:
        raise _err(where, f"constant too large (more than {MAX_CONSTANT_BITS} bits)") from None
    except ZeroDivisionError:
        raise _err(where, "division by zero") from None


def _bits(v: sympy.Rational) -> int:
    return max(abs(sympy.Rational(v).p).bit_length(), sympy.Rational(v).q.bit_length())


def _constant_value(expr: spec.Expr) -> Optional[sympy.Rational]:
    """The value of a constant expression if it is small enough to compute safely, else None.
    Raises _TooLarge when a constant would exceed MAX_CONSTANT_BITS (SymPy would carry it along)."""
    value = _constant_value_unchecked(expr)
    if value is not None and _bits(value) > MAX_CONSTANT_BITS:
        raise _TooLarge()
    return value


def _constant_value_unchecked(expr: spec.Expr) -> Optional[sympy.Rational]:
    if isinstance(expr, spec.Num):
        return expr.value
    if isinstance(expr, spec.Neg):
        v = _constant_value(expr.operand)
        return None if v is None else -v
    if isinstance(expr, spec.BinOp):
        a, b = _constant_value(expr.left), _constant_value(expr.right)
        if a is None or b is None:
            return None
        if expr.op == "^":
            return _constant_power(a, b)
        if expr.op == "+":
            return a + b
        if expr.op == "-":
            return a - b
        if expr.op == "*":
            return a * b
        if b == 0:
            raise ZeroDivisionError
        return a / b
    return None


def _constant_power(a: sympy.Rational, b: sympy.Rational) -> Optional[sympy.Rational]:
    if not b.is_integer or abs(b) > MAX_CONSTANT_EXPONENT or (a == 0 and b < 0):
        return None
    if _bits(a) * abs(int(b)) > MAX_CONSTANT_BITS:  # decide before computing a huge power
        raise _TooLarge()
    return sympy.Rational(a) ** int(b)


def _nested_exponent(expr: spec.Expr) -> Any:
    """The largest product of constant exponents along nested powers inside expr (0 if none)."""
    best: Any = 0
    stack: list[tuple[spec.Expr, Any]] = [(expr, 1)]
    while stack:
        node, factor = stack.pop()
        if isinstance(node, spec.BinOp) and node.op == "^":
            value = _constant_value_unchecked(node.right)
            if value is not None:
                total = abs(value) * factor
                best = max(best, total)
                stack.append((node.left, total))
                continue
        for child in _children(node):
            stack.append((child, factor))
    return best


def _children(node: spec.Expr) -> list[spec.Expr]:
    if isinstance(node, (spec.BinOp, spec.Dot)):
        return [node.left, node.right]
    if isinstance(node, (spec.Neg, spec.Norm)):
        return [node.operand]
    if isinstance(node, spec.Call):
        return list(node.args)
    return []


def _mentions(expr: spec.Expr, name: str) -> bool:
    if isinstance(expr, spec.Name):
        return expr.id == name
    return any(_mentions(child, name) for child in _children(expr))


# ---------------------------------------------------------------------------------------------
# Stage 1: building the IR, one method per grammar rule (expressions are typed by stage 2)

#: At most this many patterns in one `pattern sequence/periodic { ... }`.
MAX_LAYER_PATTERNS = 64
#: The largest length an `expect ... for n ...` range names.
MAX_EXPECT_LENGTH = 10 ** 9
GROUP_NAMES = ("S_n", "C_n", "D_n", "reflection", "trivial", "order", "stabilizer")


@dataclass(frozen=True)
class _ExpectedGroup:
    """The group of an `expect uap group ...`: one group, or classes of n mod L and the `else` group."""

    otherwise: tuple
    classes: tuple
    text: str


@dataclass(frozen=True)
class _ExpectedLayers:
    """The layer count of an `expect uap ... layers ...` by residue class: the classes and the `else` count."""

    otherwise: Any
    classes: tuple  # ((modulus, residues, Expr), ...)


@dataclass(frozen=True)
class _VerdictCase:
    """`, VERDICT if n mod L = r` of an `expect` line: another verdict on those residue classes of n."""

    verdict: str
    modulus: int
    residues: tuple
    meta: Any


@dataclass(frozen=True)
class _LengthRange:
    """`for n >= 12`, `for n <= 2`, `for n = 5`, `for 3 <= n <= 6` of an `expect` line: the lengths it speaks of."""

    low: int
    high: Optional[int]  # None: every n from `low` on


def _range_text(tokens: str, low: int, high: Optional[int]) -> str:
    if high is None:
        return f"for {tokens} ≥ {low}"
    if low == high:
        return f"for {tokens} = {low}"
    return f"for {tokens} ≤ {high}" if low == 1 else f"for {low} ≤ {tokens} ≤ {high}"


def _classes_text(tokens: str, m: int, rs: tuple) -> str:
    return f"{tokens} mod {m} " + (f"= {rs[0]}" if len(rs) == 1 else "in {" + ", ".join(map(str, rs)) + "}")


def _check_partition(meta: Meta, what: str, cases: list) -> None:
    """The classes of `WHAT A if n mod L = r, …, else B` ((L, residues, value, where) each): one modulus L,
    disjoint residues, and at least one residue left to `else`."""
    moduli = {modulus for modulus, _, _, _ in cases}
    if len(moduli) != 1:
        raise _err(meta, f"the classes of `{what} ... if n mod L ...` use one modulus L")
    seen: set = set()
    for _, residues, _, where in cases:
        if seen & set(residues):
            raise _err(where, "a residue is in two classes")
        seen |= set(residues)
    (modulus,) = moduli
    if len(seen) >= modulus:
        raise _err(meta, f"the classes cover every residue mod {modulus}: leave one to `else`")


def _group_text(ref: tuple, tokens: Any = "n") -> str:
    """An expected group as the expectation's text names it: a named group in the file's symbolic length (`D_m`
    beside `tokens N`, as the reports print it), the others as written."""
    name = ref[0]
    if isinstance(tokens, str) and name in ("S_n", "C_n", "D_n"):
        name = f"{name[0]}_{tokens}"
    return name + (f" {ref[1]}" if ref[1] is not None else "")


_NUMBERED_GROUPS = ("order", "stabilizer")


def _length_group_names(tokens: str) -> dict[str, str]:
    """The named groups in a symbolic length's own name (`S_N`, `C_N`, `D_N` beside `tokens N`), each to its
    engine name (S_n, C_n, D_n): the reports print them so (uapcheck/render/spoken.py)."""
    return {f"{g}_{tokens}": f"{g}_n" for g in ("S", "C", "D")}


POSITIONALS = ("none", "absolute")


@dataclass(frozen=True)
class _Item:
    """One line of an `attention { ... }` block: the head field it sets and how to build its value.
    The value is built after the head's items are checked against each other (stage 3), so a
    misplaced line is reported as such before anything inside it."""

    sets: str  # the spec.Head field it sets, or "function" for the kernel, feature map or score
    at: Meta
    word: str  # the item as messages name it ("`word` is given twice")
    build: Callable[[], Any]
    once: str = ""  # items that exclude each other share this key (default: the field they set)


@dataclass(frozen=True)
class _Function:
    """The item that defines a head: `kernel`, `features` or `score`, with its typed expression."""

    kind: str
    fn: str
    params: tuple[str, ...]
    expr: spec.HeadExpr
    random: Optional[str]


@v_args(inline=True)
class _BuildIR(Transformer_NonRecursive):
    """Statements and head items → spec.py records, in the scope of the statements before them
    (stage 3 decides that order). Patterns are read top-down by `_Patterns` (a block pattern is read
    in the scope of its blocks) and expressions by stage 2; both stay lark trees until then."""

    def __init__(self, scope: _Scope):
        super().__init__(visit_tokens=False)
        self.scope = scope

    # -- integers and statements -------------------------------------------------------------
    def signed_int(self, *parts: Token) -> _Int:
        minus = next((p for p in parts if p.type == "MINUS"), None)
        return _Int(minus, next(p for p in parts if p.type != "MINUS"))

    def group_number(self, *parts: Token) -> _Int:  # `order 48`: a number only, so `if` after a name is a keyword
        return self.signed_int(*parts)

    def intterm(self, value: _Int) -> _Int:
        return value

    def architecture(self, text: Token) -> str:
        return _string(text)

    def cite(self, text: Token) -> str:
        return _string(text)

    def tokens(self, value: _Int) -> spec.IntTerm:
        return self.scope.size(value, "tokens", minimum=1)

    def dim(self, value: _Int) -> spec.IntTerm:
        return self.scope.size(value, "dim", minimum=1)

    def layers(self, value: _Int) -> spec.IntTerm:
        name = str(value.value)
        if value.value.type == "NAME" and name != self.scope.tokens:
            # the derivations compare an integer budget (or the symbolic length, never below the diameter) with the
            # count; a param's budget was passed over, so `layers w` with `param w integer >= 1` was UAP with more
            # layers than w = 1 allows. Told before int_term, whose hint for an unknown name is to declare a param
            what = "the param" if name in self.scope.params else "the name"
            raise _err(value.value, f"`layers` takes an integer or the symbolic length, not {what} `{name}` (a "
                                    "budget that depends on a param is not compared with the layer count)")
        return self.scope.int_term(value, "layers", minimum=1)

    def positional(self, name: Token) -> str:
        if str(name) not in POSITIONALS:
            raise _err(name, f"unknown positional encoding `{name}`; expected `absolute` or `none`")
        return str(name)

    def target(self, name: Token) -> str:
        if str(name) not in spec.TARGETS:
            raise _err(name, f"unknown target class `{name}`; expected one of {', '.join(spec.TARGETS)}")
        return str(name)

    # -- params ----------------------------------------------------------------------------
    def param(self, name: Token, constraint: Tree) -> spec.Param:
        first = self.scope.params.get(str(name))
        if first is not None:
            raise _err(name, f"param `{name}` is declared twice (first at line {first.loc.line})")
        if str(name) in FUNCTIONS or str(name) == "t":
            raise _err(name, f"`{name}` is reserved and cannot be a param name")
        return _run(_Constraint(str(name), _loc(name)), constraint)

    # -- the FFN and the token mixer -------------------------------------------------------
    @v_args(inline=True, meta=True)
    def ffn_named(self, meta: Meta, name: Token) -> spec.FFN:
        """`ffn NAME`: a named activation, or `none`."""
        if str(name) == "none":
            return spec.FFN("none", loc=_loc(meta))
        if str(name) not in ACTIVATIONS:
            raise _err(name, f"unknown activation `{name}`; expected one of "
                             + ", ".join(ACTIVATIONS) + ", none, or `ffn sigma(u) = EXPR`")
        return spec.FFN("named", name=str(name), loc=_loc(meta))

    @v_args(inline=True, meta=True)
    def ffn_custom(self, meta: Meta, name: Token, var: Token, body: Tree) -> spec.FFN:
        """`ffn sigma(u) = EXPR`: an activation of one scalar."""
        if str(var) in self.scope.params:
            raise _err(var, f"`{var}` is both the activation's argument and a declared param")
        typed = _TypedExpr(self.scope.params, scalars=frozenset({str(var)})).typed(body)
        return spec.FFN("custom", name=str(name), var=str(var), expr=typed.expr, loc=_loc(meta))

    @v_args(inline=True, meta=True)
    def conv_span(self, meta: Meta, span: _Int) -> spec.Convolution:
        """`convolution circular(l)`: taps 0..l, l ≥ 1."""
        return spec.Convolution((0,), self.scope.int_term(span, "convolution length l", minimum=1), loc=_loc(meta))

    @v_args(inline=True, meta=True)
    def conv_taps(self, meta: Meta, *taps: _Int) -> spec.Convolution:
        """`convolution circular {a, b, …}`: the listed offsets."""
        offsets: list[spec.IntTerm] = []
        for tap in taps:
            v = self.scope.int_term(tap, "convolution tap", allow_negative_name=True)
            if not isinstance(v, int):
                raise _err(tap, "the taps of `convolution circular {...}` are integer literals")
            if v in offsets:
                raise _err(tap, f"tap {v} is listed twice")
            offsets.append(v)
        return spec.Convolution(tuple(offsets), None, loc=_loc(meta))

    # -- expect ----------------------------------------------------------------------------
    @v_args(inline=True, meta=True)
    def expect(self, meta: Meta, verdict: Token, *parts: Any) -> spec.Expectation:
        from .show import show_expr
        chosen = next((p for p in parts if isinstance(p, _ExpectedGroup)), None)
        cases = tuple(p for p in parts if isinstance(p, _VerdictCase))
        span = next((p for p in parts if isinstance(p, _LengthRange)), None)
        layers = next((p for p in parts if not isinstance(p, (_ExpectedGroup, _VerdictCase, _LengthRange))), None)
        if str(verdict) != "uap" and (chosen or layers):
            raise _err(meta, "`group` and `layers` go with `expect uap`")
        if span is not None and (cases or (chosen and chosen.classes) or isinstance(layers, _ExpectedLayers)):
            raise _err(meta, "a length range `for n ...` does not go with classes `if n mod L ...` on the same line")
        if span is not None and span.high is not None and chosen:
            raise _err(meta, "`group` goes with the range `for n >= N` only (the lengths below it are compared by "
                             "their verdict and layer count)")
        group, classes = (chosen.otherwise, chosen.classes) if chosen else (None, ())
        layer_classes: tuple = ()
        if isinstance(layers, _ExpectedLayers):
            layers, layer_classes = layers.otherwise, layers.classes
        text_parts = [str(verdict)]
        if chosen:
            text_parts.append("group " + chosen.text)
        tokens = str(self.scope.tokens)
        if layer_classes:
            assert layers is not None  # the parser requires the `else` count
            text_parts.append("layers " + ", ".join(f"{show_expr(e)} if {_classes_text(tokens, m, rs)}"
                                                    for m, rs, e in layer_classes) + f", else {show_expr(layers)}")
        elif layers is not None:
            text_parts.append("layers " + show_expr(layers))
        verdict_classes = self._verdict_classes(cases)
        text = " ".join(text_parts) + "".join(f", {v} if {_classes_text(tokens, m, rs)}"
                                              for m, rs, v in verdict_classes)
        if span is not None:
            text += " " + _range_text(tokens, span.low, span.high)
        return spec.Expectation(str(verdict), group, layers, text, loc=_loc(meta),
                                group_classes=classes, layer_classes=layer_classes, verdict_classes=verdict_classes,
                                lengths=None if span is None else (span.low, span.high))

    def _length_name(self, name: Token) -> None:
        tokens = self.scope.tokens
        if not isinstance(tokens, str) or str(name) != tokens:
            raise _err(name, "a length range `for n ...` of `expect` names the symbolic `tokens` name"
                             + (f" `{tokens}`" if isinstance(tokens, str) else " (this file has an integer `tokens`)"))

    def _length_bound(self, value: Token) -> int:
        v = int(str(value))
        if not 1 <= v <= MAX_EXPECT_LENGTH:
            raise _err(value, f"a length in `for n ...` is an integer from 1 to {MAX_EXPECT_LENGTH:,}")
        return v

    @v_args(inline=True, meta=True)
    def range_from(self, meta: Meta, name: Token, low: Token) -> _LengthRange:
        self._length_name(name)
        return _LengthRange(self._length_bound(low), None)

    @v_args(inline=True, meta=True)
    def range_upto(self, meta: Meta, name: Token, high: Token) -> _LengthRange:
        self._length_name(name)
        return _LengthRange(1, self._length_bound(high))

    @v_args(inline=True, meta=True)
    def range_at(self, meta: Meta, name: Token, at: Token) -> _LengthRange:
        self._length_name(name)
        return _LengthRange(self._length_bound(at), self._length_bound(at))

    @v_args(inline=True, meta=True)
    def range_between(self, meta: Meta, low: Token, name: Token, high: Token) -> _LengthRange:
        self._length_name(name)
        lo, hi = self._length_bound(low), self._length_bound(high)
        if hi < lo:
            raise _err(high, f"an empty range: {hi} < {lo}")
        return _LengthRange(lo, hi)

    def _verdict_classes(self, cases: tuple) -> tuple:
        """`, V if n mod L = r, …`: one modulus, disjoint residues, and at least one residue left to the first
        verdict."""
        if not cases:
            return ()
        moduli = {c.modulus for c in cases}
        if len(moduli) != 1:
            raise _err(cases[1].meta, "the classes of `expect ..., VERDICT if n mod L ...` use one modulus L")
        seen: set = set()
        for c in cases:
            if seen & set(c.residues):
                raise _err(c.meta, "a residue is in two classes")
            seen |= set(c.residues)
        (modulus,) = moduli
        if len(seen) >= modulus:
            raise _err(cases[-1].meta, f"the classes cover every residue mod {modulus}: leave one to the first verdict")
        return tuple((c.modulus, c.residues, c.verdict) for c in cases)

    @v_args(inline=True, meta=True)
    def verdict_case(self, meta: Meta, verdict: Token, name: Token, modulus: Token, residues: tuple) -> _VerdictCase:
        m, values = self._residue_class("expect ..., VERDICT if", meta, name, modulus, residues)
        return _VerdictCase(str(verdict), m, values, meta)

    @v_args(inline=True, meta=True)
    def layer_case(self, meta: Meta, body: Tree, name: Token, modulus: Token, residues: tuple) -> tuple:
        m, values = self._residue_class("layers ... if", meta, name, modulus, residues)
        return m, values, self.expect_layers(body), meta

    @v_args(inline=True, meta=True)
    def expect_layers_classes(self, meta: Meta, *parts: Any) -> _ExpectedLayers:
        """`layers E if n mod L = r, …, else F`: the classes (one modulus, disjoint residues) and the else count."""
        *cases, otherwise = parts
        _check_partition(meta, "layers", cases)
        return _ExpectedLayers(self.expect_layers(otherwise), tuple((m, rs, e) for m, rs, e, _ in cases))

    def _residue_class(self, what: str, meta: Meta, name: Token, modulus: Token, residues: tuple) -> tuple:
        """(L, the residues) of `NAME mod L = r` / `in {…}`, checked: NAME the symbolic `tokens` name, 2 ≤ L ≤ 10⁶,
        each residue in 0, …, L − 1 and listed once."""
        tokens = self.scope.tokens
        if not isinstance(tokens, str) or str(name) != tokens:
            raise _err(name, f"a class of `{what}` is a residue of the symbolic `tokens` name"
                             + (f" `{tokens}`" if isinstance(tokens, str) else " (this file has an integer `tokens`)"))
        m = int(str(modulus))
        if not 2 <= m <= 10 ** 6:
            raise _err(modulus, "the modulus of a class is an integer from 2 to 10⁶")
        for r in residues:
            if not 0 <= int(str(r)) < m:
                raise _err(r, f"a residue mod {m} is one of 0, …, {m - 1}")
        values = tuple(sorted({int(str(r)) for r in residues}))
        if len(values) != len(residues):
            raise _err(meta, "a residue is listed twice")
        return m, values

    def expect_group(self, ref: tuple[str, Optional[int]]) -> "_ExpectedGroup":
        return _ExpectedGroup(ref, (), _group_text(ref, self.scope.tokens))

    @v_args(inline=True, meta=True)
    def expect_group_classes(self, meta: Meta, *parts: Any) -> "_ExpectedGroup":
        """`group A if n mod L = r, …, else B`: the classes (one modulus, disjoint residues) and the else group."""
        *cases, otherwise = parts
        _check_partition(meta, "group", cases)
        text = ", ".join(f"{_group_text(g, self.scope.tokens)} if {self.scope.tokens} mod {m} "
                         + (f"= {rs[0]}" if len(rs) == 1 else "in {" + ", ".join(map(str, rs)) + "}")
                         for m, rs, g, _ in cases) + f", else {_group_text(otherwise, self.scope.tokens)}"
        return _ExpectedGroup(otherwise, tuple((m, rs, g) for m, rs, g, _ in cases), text)

    @v_args(inline=True, meta=True)
    def group_case(self, meta: Meta, ref: tuple, name: Token, modulus: Token, residues: tuple) -> tuple:
        m, values = self._residue_class("group ... if", meta, name, modulus, residues)
        return m, values, ref, meta

    def residue_one(self, r: Token) -> tuple:
        return (r,)

    def residue_set(self, *rs: Token) -> tuple:
        return rs

    def group_ref(self, name: Token, number: Optional[_Int] = None) -> tuple[str, Optional[int]]:
        arg = None
        if number is not None:
            if number.value.type != "INT" or number.minus is not None or len(str(number.value)) > 400:
                raise _err(number, f"`{name}` takes a positive integer")
            arg = int(str(number.value))
        tokens = self.scope.tokens
        if isinstance(tokens, str) and str(name) in _length_group_names(tokens):
            name = Token(name.type, _length_group_names(tokens)[str(name)])  # `D_N` beside `tokens N`: D_n
        if str(name) not in GROUP_NAMES:
            raise _err(name, f"unknown group `{name}`; expected one of S_n, C_n, D_n, "
                             "reflection, trivial, order N, stabilizer K")
        if str(name) in _NUMBERED_GROUPS and arg is None:
            raise _err(name, f"`{name}` needs an integer, e.g. `{name} 2`")
        if str(name) not in _NUMBERED_GROUPS and number is not None:
            raise _err(number, f"`{name}` takes no number")
        if arg is not None and (arg < 1 or str(name) == "stabilizer" and isinstance(tokens, int) and arg > tokens):
            raise _err(number, f"`{name} {arg}` is out of range")
        return str(name), arg

    def expect_layers(self, body: Tree) -> spec.Expr:
        tokens = self.scope.tokens
        allowed = set(self.scope.params) | ({tokens} if isinstance(tokens, str) else set())
        return _LayerExpr(allowed).typed(body)

    # -- attention heads: the defining item ------------------------------------------------
    @v_args(inline=True, meta=True)
    def kernel_item(self, meta: Meta, fn: Token, x: Token, y: Token, body: Tree) -> _Item:
        return _Item("function", meta, "kernel", partial(self._function, "kernel", fn, x, y, body))

    @v_args(inline=True, meta=True)
    def score_item(self, meta: Meta, fn: Token, x: Token, y: Token, body: Tree) -> _Item:
        return _Item("function", meta, "score", partial(self._function, "score", fn, x, y, body))

    @v_args(inline=True, meta=True)
    def features_item(self, meta: Meta, fn: Token, x: Token, body: Tree,
                      random: Optional[tuple[Token, Meta]] = None) -> _Item:
        if random is None:
            return _Item("function", meta, "features", partial(self._features, fn, x, body))
        return _Item("function", meta, "features", partial(self._random_features, fn, x, body, *random))

    @v_args(inline=True, meta=True)
    def random_clause(self, meta: Meta, name: Token) -> tuple[Token, Meta]:
        return name, meta

    def _function(self, kind: str, fn: Token, x: Token, y: Token, body: Tree) -> _Function:
        if str(x) == str(y):
            raise _err(y, f"the two arguments of `{fn}` need different names")
        self._vector_names((x, x), (y, y))
        typed = _TypedExpr(self.scope.params, vectors=frozenset({str(x), str(y)})).typed(body)
        if typed.type != SCALAR:
            raise _err(typed, f"a {kind} must be a scalar, but this expression is a {typed.type}"
                              " (use `.` for an inner product, `|v|` for a norm)")
        return _Function(kind, str(fn), (str(x), str(y)), typed.expr, None)

    def _features(self, fn: Token, x: Token, body: Tree) -> _Function:
        self._vector_names((x, x))
        typer = _TypedExpr(self.scope.params, vectors=frozenset({str(x)}))
        if body.data == "feature_list":
            return _Function("features", str(fn), (str(x),), self._components(body, typer, None), None)
        typed = typer.typed(body)
        return _Function("features", str(fn), (str(x),), typed.expr, None)

    def _random_features(self, fn: Token, x: Token, body: Tree, w: Token, clause: Meta) -> _Function:
        if str(w) == str(x):
            raise _err(clause, "the random vector needs its own name")
        self._vector_names((x, x), (w, body.meta))  # a clash of the random vector's name is shown at the map
        typer = _TypedExpr(self.scope.params, vectors=frozenset({str(x), str(w)}), random=str(w))
        if body.data == "feature_list":
            expr: spec.HeadExpr = self._components(body, typer, str(w))
            items = expr.items if isinstance(expr, spec.FeatureList) else (expr,)
            if not any(_mentions(item, str(w)) for item in items):
                raise _err(clause, f"the random vector `{w}` does not appear in the feature map")
            return _Function("features", str(fn), (str(x),), expr, str(w))
        typed = typer.typed(body)
        if typed.type != SCALAR:
            raise _err(typed, "a random feature must be a scalar expression of `w . x` and norms")
        if not _mentions(typed.expr, str(w)):
            raise _err(clause, f"the random vector `{w}` does not appear in the feature map")
        return _Function("features", str(fn), (str(x),), typed.expr, str(w))

    @staticmethod
    def _components(body: Tree, typer: "_TypedExpr", random: Optional[str]) -> spec.HeadExpr:
        """`[φ_1, …, φ_C]`: each component typed alone; with `random w` each is a scalar (one number per
        random vector), otherwise each is a vector in the argument (one number per coordinate). A list
        of one component is that component."""
        items = []
        for tree in body.children:
            typed = typer.typed(tree)
            if random is not None and typed.type != SCALAR:
                raise _err(typed, f"a component of a random feature map must be a scalar expression of "
                                  f"`{random} . x` and norms, but this one is a {typed.type}")
            if random is None and typed.type == SCALAR:
                raise _err(typed, "a component of a feature list without `random` must be a vector in the "
                                  "argument (one value per coordinate, e.g. `exp(x)`), but this one is a scalar; "
                                  "scalar components need a random vector (`random w`)")
            items.append(typed.expr)
        if len(items) > MAX_FEATURE_COMPONENTS:
            raise _err(body.meta, f"a feature list has at most {MAX_FEATURE_COMPONENTS} components")
        if len(items) == 1:
            return items[0]
        return spec.FeatureList(tuple(items), _loc(body.meta))

    def _vector_names(self, *names: tuple[Token, Any]) -> None:
        for name, where in names:
            if str(name) in self.scope.params:
                raise _err(where, f"`{name}` is both a vector argument and a declared param")
            if str(name) in FUNCTIONS:
                raise _err(where, f"`{name}` is a function name and cannot be a vector argument")

    # -- attention heads: the other items --------------------------------------------------
    @v_args(inline=True, meta=True)
    def normalize_item(self, meta: Meta) -> _Item:
        return _Item("normalize", meta, "normalize", lambda: True)

    @v_args(inline=True, meta=True)
    def unnormalized_item(self, meta: Meta) -> _Item:
        return _Item("normalize", meta, "unnormalized", lambda: False)

    @v_args(inline=True, meta=True)
    def nystrom_item(self, meta: Meta, landmarks: _Int) -> _Item:
        return _Item("nystrom", meta, "nystrom", partial(
            self.scope.integer, landmarks, "landmarks", 1, "the number of landmarks must be an integer"))

    @v_args(inline=True, meta=True)
    def pattern_item(self, meta: Meta, pattern: Tree) -> _Item:
        return _Item("pattern", meta, "pattern", partial(_read_pattern, pattern, self.scope))

    @v_args(inline=True, meta=True)
    def pattern_layers_item(self, meta: Meta, kind: Token, *patterns: Tree) -> _Item:
        return _Item("pattern", meta, "pattern_layers", partial(self._pattern_layers, meta, kind, patterns))

    def _pattern_layers(self, meta: Meta, kind: Token, patterns: tuple[Tree, ...]) -> spec.Pattern:
        """`pattern sequence { P1, …, Pk }` / `pattern periodic { P1, …, Pp }`: a pattern per layer."""
        if len(patterns) > MAX_LAYER_PATTERNS:
            raise _err(meta, f"at most {MAX_LAYER_PATTERNS} patterns per sequence, got {len(patterns)}")
        if str(kind) == "periodic" and len(patterns) == 1:
            # a periodic list of one pattern uses it in every layer: the same family as the plain pattern, so it is
            # read as one and decided by the single-pattern engines (at any n, with their closed forms)
            return _read_pattern(patterns[0], self.scope)
        return spec.PatternSequence(tuple(_read_pattern(p, self.scope) for p in patterns), str(kind) == "periodic")

    @v_args(inline=True, meta=True)
    def bias_item(self, meta: Meta, *words: Token) -> _Item:
        return _Item("bias", meta, "bias", partial(self._bias_kind, words))

    def _bias_kind(self, words: tuple[Token, ...]) -> str:
        kind = " ".join(str(w) for w in words)  # `bias [symmetric] KIND`
        if kind not in spec.BIAS_KINDS:
            raise _err(words[-1], f"unknown bias kind `{kind}`; expected " + ", ".join(spec.BIAS_KINDS))
        return kind

    @v_args(inline=True, meta=True)
    def bias_formula_item(self, meta: Meta, fn: Token, i: Token, j: Token, body: Tree) -> _Item:
        build = partial(self._position_formula, "bias", meta, fn, i, j, body)
        return _Item("position", meta, "bias_formula", build, once="bias")

    @v_args(inline=True, meta=True)
    def buckets_item(self, meta: Meta, buckets: _Int, distance: _Int) -> _Item:
        return _Item("position", meta, "buckets", partial(self._buckets, meta, buckets, distance), once="bias")

    @v_args(inline=True, meta=True)
    def reweight_item(self, meta: Meta, fn: Token, i: Token, j: Token, body: Tree) -> _Item:
        build = partial(self._position_formula, "reweight", meta, fn, i, j, body)
        return _Item("position", meta, "reweight", build, once="reweight")

    @v_args(inline=True, meta=True)
    def rotary_item(self, meta: Meta) -> _Item:
        return _Item("position", meta, "rotary", lambda: spec.PositionTerm("rotary", loc=_loc(meta)), once="rotary")

    def _position_formula(self, kind: str, meta: Meta, fn: Token, i: Token, j: Token,
                          body: Tree) -> spec.PositionTerm:
        if str(i) == str(j):
            raise _err(j, f"the two positions of `{fn}` need different names")
        for name in (i, j):
            if str(name) in self.scope.params:
                raise _err(name, f"`{name}` is both a position and a declared param")
            if str(name) in FUNCTIONS or str(name) == "pi":
                raise _err(name, f"`{name}` cannot name a position")
        scalars = {str(i), str(j)}
        if "pi" not in self.scope.params:
            scalars.add("pi")
        tokens = self.scope.tokens
        if isinstance(tokens, str) and tokens not in self.scope.params:
            scalars.add(tokens)
        typed = _TypedExpr(self.scope.params, scalars=frozenset(scalars)).typed(body)
        return spec.PositionTerm(kind, fn=str(fn), names=(str(i), str(j)), expr=typed.expr, loc=_loc(meta))

    def _buckets(self, meta: Meta, buckets: _Int, distance: _Int) -> spec.PositionTerm:
        nb = self.scope.int_term(buckets, "number of buckets", minimum=2)
        md = self.scope.int_term(distance, "maximum distance", minimum=1)
        if not isinstance(nb, int) or not isinstance(md, int):
            raise _err(meta, "`bias buckets(B, D)` takes integer literals")
        if nb % 2:
            raise _err(buckets, "T5's bidirectional buckets split evenly between the two "
                                "directions: the number of buckets must be even")
        if nb < 4:
            # a quarter of the buckets is 0: the released function divides by it (log(|m|/(B/4))), for every offset
            raise _err(buckets, "T5's bucket function needs at least 4 buckets (its exact range B/4 is a divisor)")
        if md <= nb // 4:
            # at D = B/4 the released function divides by log(D/(B/4)) = 0: the buckets beyond the exact range are
            # not defined (its code gives infinities or NaN there)
            raise _err(distance, f"the maximum distance must exceed the exact range {nb // 4} (a quarter of the "
                                 "buckets): T5's bucket function divides by log(D/(B/4))")
        return spec.PositionTerm("buckets", buckets=nb, max_distance=md, loc=_loc(meta))

    @v_args(inline=True, meta=True)
    def project_item(self, meta: Meta, size: _Int, fixed: Optional[Token] = None) -> _Item:
        return _Item("projection", meta, "project", partial(self._projection, size, fixed is not None))

    def _projection(self, size: _Int, fixed: bool) -> spec.Projection:
        n = self.scope.integer(size, "projection size", 1, "the projection size must be an integer")
        return spec.Projection(n, fixed=fixed)

    @v_args(inline=True, meta=True)
    def heads_item(self, meta: Meta, queries: _Int, groups: Optional[_Int] = None) -> _Item:
        return _Item("heads", meta, "heads", partial(self._heads, meta, queries, groups))

    def _heads(self, meta: Meta, queries: _Int, groups: Optional[_Int]) -> tuple[int, int]:
        h = self.scope.int_term(queries, "number of query heads", minimum=1)
        g = self.scope.int_term(groups, "number of key/value heads", minimum=1) if groups is not None else h
        if not isinstance(h, int) or not isinstance(g, int):
            raise _err(meta, "`heads H kv G` takes integer literals")
        if g > h or h % g:
            raise _err(meta, f"{h} query heads cannot share {g} key/value heads evenly: G must divide H")
        return h, g

    @v_args(inline=True, meta=True)
    def differential_item(self, meta: Meta) -> _Item:
        return _Item("differential", meta, "differential", lambda: True)

    @v_args(inline=True, meta=True)
    def sink_learned(self, meta: Meta, _word: Token) -> _Item:
        return _Item("sink", meta, "sink logit", lambda: spec.SinkLogit(learned=True))

    @v_args(inline=True, meta=True)
    def sink_fixed(self, meta: Meta, value: _Int) -> _Item:
        return _Item("sink", meta, "sink logit", partial(self._sink_fixed, value))

    def _sink_fixed(self, value: _Int) -> spec.SinkLogit:
        if value.value.type != "INT":
            raise _err(value.value, "`sink logit` takes `learned` (trainable per head) or an integer literal "
                                    "(the fixed logit b, e.g. 0 for softmax1)")
        if len(str(value.value)) > 4:
            raise _err(value.start, "the fixed sink logit is out of range (at most 9999 in absolute value)")
        return spec.SinkLogit(learned=False, value=int(str(value.value)) * value.sign)

    @v_args(inline=True, meta=True)
    def tie_item(self, meta: Meta) -> _Item:
        return _Item("tie", meta, "tie", lambda: True)

    @v_args(inline=True, meta=True)
    def affine_item(self, meta: Meta) -> _Item:
        return _Item("affine", meta, "affine", lambda: True)

    @v_args(inline=True, meta=True)
    def attention(self, meta: Meta, *children: Any) -> spec.Head:
        label = next((str(c) for c in children if isinstance(c, Token)), None)
        items = [c for c in children if isinstance(c, _Item)]
        return _head(meta, label, items)


@v_args(inline=True, meta=True)
class _Constraint(Transformer_NonRecursive):
    """The constraint of `param NAME ...` → the spec.Param it declares."""

    def __init__(self, name: str, loc: spec.Loc):
        super().__init__(visit_tokens=False)
        self.name, self.loc = name, loc

    def number(self, meta: Meta, digits: Token) -> sympy.Rational:
        return _number(digits)

    def c_gt(self, meta: Meta, number: sympy.Rational) -> spec.Param:
        return self._compared("> 0", meta, number)

    def c_ge(self, meta: Meta, number: sympy.Rational) -> spec.Param:
        return self._compared(">= 0", meta, number)

    def c_ne(self, meta: Meta, number: sympy.Rational) -> spec.Param:
        return self._compared("!= 0", meta, number)

    def c_real(self, meta: Meta) -> spec.Param:
        return spec.Param(self.name, "real", loc=self.loc)

    def c_int(self, meta: Meta, bound: _Int) -> spec.Param:
        if bound.value.type != "INT":
            raise _err(bound.value, "`integer >= K` needs an integer K")
        if len(str(bound.value)) > 12:
            raise _err(bound.value, "integer bound out of range")
        k = int(str(bound.value)) * bound.sign
        if abs(k) > MAX_INT:
            raise _err(bound.value, "integer bound out of range")
        return spec.Param(self.name, "integer", lower=k, loc=self.loc)

    def _compared(self, constraint: str, meta: Meta, value: sympy.Rational) -> spec.Param:
        if value != 0:
            raise _err(meta, f"a param constraint compares with 0, got {value}")
        return spec.Param(self.name, constraint, loc=self.loc)


#: A pattern as read by `_Patterns`: built in a scope (the sequence length it lives in).
_PatternReader = Callable[[_Scope], spec.Pattern]


@dataclass(frozen=True)
class _Chain:
    """The reader of `P1 + P2 + …` (a union) or `P1 & P2 & …` (an intersection), parts left to right."""

    record: type  # spec.PatternUnion or spec.PatternIntersection
    parts: tuple[_PatternReader, ...]

    def __call__(self, scope: _Scope) -> spec.Pattern:
        return self.record(tuple(part(scope) for part in self.parts))

    def then(self, record: type, part: _PatternReader) -> _Chain:
        return _Chain(record, self.parts + (part,))


def _chain(record: type, left: _PatternReader, right: _PatternReader) -> _Chain:
    """`left + right`: a first part of the same kind (`P + Q` or `(P + Q)`) is flattened into the chain."""
    if isinstance(left, _Chain) and left.record is record:
        return left.then(record, right)
    return _Chain(record, (left, right))


def _literal_tokens(scope: _Scope, meta: Meta, construct: str) -> int:
    """The sequence length, for constructs that need it concrete."""
    if not isinstance(scope.tokens, int):
        raise _err(meta, f"{construct} needs an integer `tokens N`")
    return scope.tokens


def _edge(scope: _Scope, meta: Any, source: _Int, target: _Int) -> tuple[int, int]:
    """One pair `i -> j` of an `edges {...}` list, checked (lark's pairs and edge_lists' alike)."""
    n = _literal_tokens(scope, meta, "`edges {...}`")
    i = scope.int_term(source, "edge position", minimum=1)
    j = scope.int_term(target, "edge position", minimum=1)
    if not isinstance(i, int) or not isinstance(j, int):
        raise _err(meta, "edge positions must be integers")
    for v, end in ((i, source), (j, target)):
        if v > n:
            raise _err(end, f"edge position {v} is beyond `tokens {n}`")
    return i, j


#: The lists edge_lists.py read, by the line and column of their `edges` keyword (set while a file is built).
_LISTS: contextvars.ContextVar[Optional[dict[tuple[int, int], edge_lists.EdgeList]]] = contextvars.ContextVar(
    "_LISTS", default=None)


def _number_int(text: str, number: edge_lists.Number) -> _Int:
    """A signed_int as lark would have given it, for a number edge_lists.py found at `number.at`."""
    def token(kind: str, value: str, at: int) -> Token:
        line, col = edge_lists.line_col(text, at)
        return Token(kind, value, start_pos=at, line=line, column=col, end_line=line, end_column=col + len(value))
    minus = None if number.minus is None else token("MINUS", "-", number.minus)
    return _Int(minus, token(number.kind, number.text, number.at))


def _plain(number: edge_lists.Number) -> bool:
    """An integer literal without a sign that `_Scope.int_term` takes as it is (at most 12 digits)."""
    return number.minus is None and number.kind == "INT" and len(number.text) <= 12


def _read_listed(scope: _Scope, meta: Meta, listed: edge_lists.EdgeList, n: int) -> spec.Edges:
    """A list edge_lists.py read: its size for n, then its pairs, each checked by `_edge` where it is
    not plainly in 1..n (so the first bad pair gets the message and place the lark path gives it)."""
    text = listed.text
    limit = edge_lists.edge_list_limit(n)
    if listed.body_bytes > limit:
        raise _err(meta, f"this `edges {{...}}` list is {listed.body_bytes} bytes, more than the {limit} bytes "
                         f"allowed at {n} positions ({edge_lists.BYTES_PER_ARC} bytes for each of the n·(n − 1) "
                         f"possible arcs, at most {edge_lists.MAX_EDGE_LIST_BYTES} bytes)")
    if listed.irregular is not None:
        pairs = []
        for source, target in listed.irregular:
            if _plain(source) and _plain(target):
                i, j = int(source.text), int(target.text)
                if 1 <= i <= n and 1 <= j <= n:
                    pairs.append((i, j))
                    continue
            first = source.at if source.minus is None else source.minus
            pairs.append(_edge(scope, edge_lists.located(text, first), _number_int(text, source),
                               _number_int(text, target)))
        return spec.Edges(tuple(pairs))
    numbers = listed.numbers()
    if isinstance(numbers, list):
        low, high = min(numbers), max(numbers)
    else:  # a numpy array
        low, high = int(numbers.min()), int(numbers.max())
        numbers = numbers.tolist()
    if low < 1 or high > n:
        pairs = iter(numbers)
        for k, (i, j) in enumerate(zip(pairs, pairs)):
            if not (1 <= i <= n and 1 <= j <= n):
                source, target = listed.number_tokens(k)
                _edge(scope, edge_lists.located(text, source.at), _number_int(text, source), _number_int(text, target))
    pairs = iter(numbers)
    with edge_lists.no_collection():  # a tuple a pair, none in a cycle: no collector passes while they are made
        return spec.Edges(tuple(zip(pairs, pairs)))


@v_args(inline=True, meta=True)
class _Patterns(Transformer_NonRecursive):
    """A pattern → its reader, a function of the scope that builds the spec.Pattern and checks it.
    Reading waits for the scope so that `blockwise(b) { P }` reads P in the scope of its n/b blocks,
    once b is checked; readers run top-down, left to right."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)

    def p_union(self, meta: Meta, left: _PatternReader, right: _PatternReader) -> _PatternReader:
        return _chain(spec.PatternUnion, left, right)

    def p_inter(self, meta: Meta, left: _PatternReader, right: _PatternReader) -> _PatternReader:
        return _chain(spec.PatternIntersection, left, right)

    def p_full(self, meta: Meta) -> _PatternReader:
        return lambda scope: spec.Full()

    def p_causal(self, meta: Meta) -> _PatternReader:
        return lambda scope: spec.Causal()

    def p_star(self, meta: Meta) -> _PatternReader:
        return lambda scope: spec.Star()

    def p_window(self, meta: Meta, radius: _Int, cyclic: Optional[Token] = None) -> _PatternReader:
        return lambda scope: spec.Window(scope.int_term(radius, "window radius", minimum=1), cyclic is not None)

    def p_offsets(self, meta: Meta, *parts: Any) -> _PatternReader:
        offsets = [p for p in parts if isinstance(p, _Int)]
        cyclic = any(isinstance(p, Token) for p in parts)
        return lambda scope: spec.Offsets(
            tuple(scope.int_term(p, "offset", allow_negative_name=True) for p in offsets), cyclic)

    def p_dilated(self, meta: Meta, radius: _Int, dilation: _Int) -> _PatternReader:
        return lambda scope: spec.Dilated(scope.int_term(radius, "dilated window radius", minimum=1),
                                          scope.int_term(dilation, "dilation", minimum=1))

    def p_strided(self, meta: Meta, stride: _Int) -> _PatternReader:
        return lambda scope: spec.Strided(scope.int_term(stride, "stride", minimum=1))

    def p_blocks(self, meta: Meta, size: _Int) -> _PatternReader:
        return lambda scope: spec.Blocks(scope.int_term(size, "block size", minimum=1))

    def p_global(self, meta: Meta, size: _Int) -> _PatternReader:
        return lambda scope: spec.Global(scope.int_term(size, "global pattern size", minimum=1))

    def p_sinks(self, meta: Meta, count: _Int) -> _PatternReader:
        return lambda scope: spec.Sinks(scope.int_term(count, "number of sinks", minimum=1))

    def p_random(self, meta: Meta, count: _Int, seed: _Int) -> _PatternReader:
        def read(scope: _Scope) -> spec.Pattern:
            _literal_tokens(scope, meta, "`random(...)`")
            r = scope.int_term(count, "random pattern count", minimum=1)
            s = scope.int_term(seed, "seed", minimum=0)
            if not isinstance(r, int) or not isinstance(s, int):
                raise _err(meta, "`random(r, seed=S)` needs integer literals")
            return spec.RandomPattern(r, s)
        return read

    def p_global_at(self, meta: Meta, *listed: _Int) -> _PatternReader:
        def read(scope: _Scope) -> spec.Pattern:
            n = _literal_tokens(scope, meta, "`global {...}` lists positions: it")
            positions: list[int] = []
            for p in listed:
                v = scope.integer(p, "global position", 1, "global positions must be integer literals")
                if v > n:
                    raise _err(p, f"global position {v} is beyond `tokens {n}`")
                if v in positions:
                    raise _err(p, f"global position {v} is listed twice")
                positions.append(v)
            return spec.GlobalAt(tuple(positions))
        return read

    def p_edges(self, meta: Meta, *edges: Callable[[_Scope], tuple[int, int]]) -> _PatternReader:
        listed = (_LISTS.get() or {}).get((meta.line, meta.column))

        def read(scope: _Scope) -> spec.Pattern:
            n = _literal_tokens(scope, meta, "`edges {...}`")
            if listed is not None:
                return _read_listed(scope, meta, listed, n)
            return spec.Edges(tuple(edge(scope) for edge in edges))
        return read

    def edge(self, meta: Meta, source: _Int, target: _Int) -> Callable[[_Scope], tuple[int, int]]:
        return partial(_edge, meta=meta, source=source, target=target)

    def p_columns(self, meta: Meta, stride: _Int, count: _Int) -> _PatternReader:
        def read(scope: _Scope) -> spec.Pattern:
            _literal_tokens(scope, meta, "`columns(l, c)`")
            lv = scope.int_term(stride, "column stride", minimum=1)
            cv = scope.int_term(count, "number of summary columns", minimum=1)
            if not isinstance(lv, int) or not isinstance(cv, int):
                raise _err(meta, "`columns(l, c)` takes integer literals")
            if cv > lv:
                raise _err(count, f"`columns(l, c)` needs c ≤ l, got c = {cv} > l = {lv}")
            return spec.Columns(lv, cv)
        return read

    def p_blockwise(self, meta: Meta, size: _Int, inner: _PatternReader) -> _PatternReader:
        """`blockwise(b) { P }`: P is a pattern on the n/b block indices, checked against them."""
        def read(scope: _Scope) -> spec.Pattern:
            n = _literal_tokens(scope, meta, "`blockwise(b) { ... }`")
            b = scope.integer(size, "block size", 1, "the block size must be an integer literal")
            if n % b:
                raise _err(size, f"block size {b} does not divide `tokens {n}` (BigBird's blocks tile the sequence)")
            if scope.in_blockwise:
                raise _err(meta, "`blockwise` patterns cannot be nested")
            return spec.Blockwise(b, inner(dataclasses.replace(scope, tokens=n // b, in_blockwise=True)))
        return read


def _read_pattern(tree: Tree, scope: _Scope) -> spec.Pattern:
    reader: _PatternReader = _run(_Patterns(), tree)
    return reader(scope)


# ---------------------------------------------------------------------------------------------
# Stage 3: cross-field checks, across the items of a head and the statements of the file

def _head(meta: Meta, label: Optional[str], items: list[_Item]) -> spec.Head:
    """A head from its items: one defining function, each field once, then the values (in the order
    the fields were first given) and the fields that exclude or need each other."""
    function: Optional[_Item] = None
    seen: dict[str, _Item] = {}
    for item in items:
        if item.sets == "function":
            if function is not None:
                raise _err(item.at, f"a head has exactly one of `kernel`, `features`, `score`; "
                                    f"this one already has `{function.word}` at line {_loc(function.at).line}")
            function = item
            continue
        _check_once(item, seen)
        seen[item.once or item.sets] = item
    if function is None:
        raise _err(meta, "this attention head has no `kernel`, `features` or `score`")
    main: _Function = function.build()
    fields = {item.sets: item.build() for item in seen.values()}
    _check_head_fields(main.kind, fields, {item.sets: item for item in seen.values()})
    return spec.Head(label, main.kind, main.fn, main.params, main.expr, main.random, loc=_loc(meta), **fields)


#: The ways of bringing positions into a head (one per head), and how messages name each item.
_POSITION_KEYS = ("bias", "reweight", "rotary")
_POSITION_WORDS = {"bias_formula": "bias", "buckets": "bias buckets"}


def _check_once(item: _Item, seen: dict[str, _Item]) -> None:
    key = item.once or item.sets
    if key in _POSITION_KEYS:
        other = next((seen[k] for k in _POSITION_KEYS if k in seen and k != key), None)
        if other is not None:
            raise _err(item.at, f"one way of bringing positions into a head: this head already has "
                                f"`{_POSITION_WORDS.get(other.word, other.word)}` at line {_loc(other.at).line}")
    if key in seen:
        raise _err(item.at, f"`{item.word}` is given twice in one head (first at line {_loc(seen[key].at).line})")


def _check_head_fields(kind: str, fields: dict[str, Any], items: dict[str, _Item]) -> None:
    position = fields.get("position")
    if position is not None and position.kind == "rotary" and kind == "features":
        raise _err(items["position"].at, "`rotary` applies to `kernel` and `score` heads (it rotates the "
                                         "query and key inside k(q, k))")
    if "projection" in fields and ("pattern" in items or "bias" in items or "position" in items):
        # E, F mix every position into the keys and values, so a mask or a position bias has
        # no meaning there (and a receptive-field argument would be false).
        other = items.get("pattern") or items.get("bias") or items["position"]
        raise _err(other.at, "`project keys values` mixes all positions into the keys and values: it cannot "
                             "be combined with `pattern` or `bias` in the same head")
    if isinstance(fields.get("pattern"), spec.PatternSequence) and (
            fields.get("bias") or position or fields.get("projection")):
        raise _err(items["pattern"].at, "per-layer patterns are analysed for heads without a bias, a "
                                        "position term or sequence projections (not supported with them)")
    if fields.get("projection") and fields.get("nystrom"):
        raise _err(items["nystrom"].at, "`nystrom` and `project keys values` cannot share a head: each "
                                        "replaces the keys in its own way")
    if fields.get("differential") and (kind != "kernel" or fields.get("normalize") is False):
        raise _err(items["differential"].at, "`differential` subtracts two normalised kernel heads "
                                             "(softmax(Q1 K1ᵀ) − λ softmax(Q2 K2ᵀ)): it needs a normalised "
                                             "`kernel` head")
    if fields.get("sink") is not None:
        _check_sink(kind, fields, items)
    if kind == "score" and fields.get("nystrom"):
        raise _err(items["nystrom"].at, "`nystrom` applies to `kernel` heads")
    if fields.get("tie") and kind == "features":
        raise _err(items["tie"].at, "`tie query key` applies to `kernel` and `score` heads")


def _check_sink(kind: str, fields: dict[str, Any], items: dict[str, _Item]) -> None:
    """A sink logit adds exp(b) to a softmax normaliser: it needs a normalised `kernel` head, and it is not defined
    beside the items that replace or combine the normalised map (differential, Nyström, sequence projections)."""
    if kind != "kernel" or fields.get("normalize") is False:
        raise _err(items["sink"].at, "`sink logit` adds exp(b) to the normaliser of a softmax: it needs a "
                                     "normalised `kernel` head")
    other = next((items[k] for k in ("differential", "nystrom", "projection") if fields.get(k)), None)
    if other is not None:
        raise _err(other.at, f"`{other.word}` and `sink logit` cannot share a head (the sink logit is defined for "
                             "one normalised kernel map)")


#: The word of a statement in messages, where it differs from its grammar rule.
_STATEMENT_WORD = {"ffn_named": "ffn", "ffn_custom": "ffn", "conv_span": "convolution", "conv_taps": "convolution"}


class _File:
    """The file's statements, built in the order their meaning needs (params, then the sizes, then
    the heads and the rest), with the checks that span several statements."""

    def __init__(self, path: str, tree: Tree):
        self.path = path
        self.scope = _Scope()
        self.cites: list[str] = []
        self.params: list[spec.Param] = []
        self.heads: list[Tree] = []
        self.expects: list[Tree] = []  # several only with length ranges (a split verdict)
        self.single: dict[str, Tree] = {}  # statements given at most once, by word
        for statement in tree.children:
            self._collect(statement)

    def _collect(self, statement: Tree) -> None:
        word = _STATEMENT_WORD.get(statement.data, statement.data)
        if word == "cite":
            self.cites.append(self._build(statement))
        elif word == "param":
            param = self._build(statement)
            self.params.append(param)
            self.scope.params[param.name] = param
        elif word == "attention":
            self.heads.append(statement)
        elif word == "expect":
            self.expects.append(statement)
        elif word in self.single:
            first = _loc(self.single[word].meta)
            raise _err(statement.meta, f"`{word}` is given twice (first at line {first.line})")
        else:
            self.single[word] = statement

    def _build(self, statement: Tree) -> Any:
        return _run(_BuildIR(self.scope), statement)

    def _optional(self, word: str, default: Any) -> Any:
        statement = self.single.get(word)
        return default if statement is None else self._build(statement)

    def _check_length_name(self, tokens: Any) -> None:
        """A symbolic length is printed in the place of n in every statement (render/spoken.py): not a name the
        derivations give another thing."""
        if not isinstance(tokens, str):
            return
        if len(tokens) == 1 and tokens not in LENGTH_LETTERS:
            # beside the derivations' single-letter variables
            meaning = WORDS_OF_THE_DERIVATIONS.get(tokens)
            said = (f"{tokens} is the name the derivations give {meaning}" if meaning else
                    "the derivations give single letters other meanings")
            raise _err(self.single["tokens"].meta, f"`tokens {tokens}`: {said}, and the length is printed beside "
                                                   "them; name it n, N or a longer name (`tokens len`)")
        if tokens in FORMULA_WORDS or tokens in FUNCTIONS or tokens in ACTIVATIONS:
            raise _err(self.single["tokens"].meta, f"`tokens {tokens}`: {tokens} is a word of the printed formulas and "
                                                   "conditions (n mod 4 = 1, max(2, …), 3 if …, exp, relu), and the "
                                                   "length is printed beside it; name it n, N or another longer name "
                                                   "(`tokens len`)")
        if tokens in grammar_words.grammar_keywords() or tokens in GROUP_NAMES:
            raise _err(self.single["tokens"].meta, f"`tokens {tokens}`: {tokens} is a word of the language (a keyword "
                                                   "or a group's name: window, causal, reflection, …), and the length "
                                                   "is printed beside the patterns and groups the reports name; name it "
                                                   "n, N or another longer name (`tokens len`)")

    def _check_length_beside_the_files_names(self, tokens: Any, heads: tuple, ffn: spec.FFN) -> None:
        """Nor a name of the file's own that the statements print: a head's function, its arguments, its random vector
        or its label, or a custom FFN's argument (`tokens q` beside `kernel k(q, key)` read "k(q, key)" beside
        "for q ≥ 7")."""
        if not isinstance(tokens, str):
            return
        for number, h in enumerate(heads, 1):
            named = {h.fn: "the name of the function", h.random: "the random vector", h.label: "the label"}
            named.update({p: "an argument of the function" for p in h.params})
            if tokens in named:
                raise _err(self.single["tokens"].meta, f"`tokens {tokens}`: {tokens} is also {named[tokens]} of head "
                                                       f"{h.label or number}, and the length is printed beside it; give "
                                                       "one of them another name")
        if ffn.kind == "custom" and ffn.var == tokens:
            raise _err(self.single["tokens"].meta, f"`tokens {tokens}`: {tokens} is also the argument of the FFN's "
                                                   "activation, and the length is printed beside it; give one of them "
                                                   "another name")

    def build(self) -> spec.Spec:
        architecture = Path(self.path).stem if self.path not in ("<stdin>", "-") else "<stdin>"
        architecture = self._optional("architecture", architecture)
        tokens = self._optional("tokens", "n")
        self.scope = dataclasses.replace(self.scope, tokens=tokens)
        dim = self._optional("dim", "d")
        self._check_param_names(tokens, dim)
        if isinstance(tokens, str) and isinstance(dim, str) and tokens == dim:
            # Without a `dim` line the dimension is named d, so `tokens d` collides with it.
            where = self.single.get("dim") or self.single["tokens"]
            extra = "" if "dim" in self.single else " (the token dimension is called d unless a `dim` line names it)"
            raise _err(where.meta, f"`dim` and `tokens` cannot be the same name{extra}")
        self._check_length_name(tokens)
        if dim == "n":  # the derivations name the length n (and print a named length in its place): n is not d
            raise _err(self.single["dim"].meta, f"`dim n`: n is the name the derivations give the sequence length "
                                                f"(`{tokens}` here); give the dimension another name")
        mixer, heads = self._mixer()
        ffn = self._optional("ffn", spec.FFN("named", name="relu"))
        self._check_length_beside_the_files_names(tokens, heads, ffn)
        positional = self._optional("positional", "none")
        layers = self._optional("layers", None)
        if isinstance(layers, str) and any(isinstance(h.pattern, spec.PatternSequence) for h in heads):
            # the symbolic length as a budget is passed over as never below the count, which holds for one pattern
            # (D + 1 ≤ n) but not per layer: `periodic { causal & window(1), offsets {0} }` needs 2n − 3 layers
            raise _err(self.single["layers"].meta, f"`layers {layers}` (the sequence length) is not compared with the "
                                                   "layer count of per-layer patterns, which may exceed it; give an "
                                                   "integer budget")
        expect = self._expectation()
        target = self._optional("target", "equivariant")
        self._check_analysed_together(heads, mixer, tokens, target, positional)
        return spec.Spec(self.path, architecture, tuple(self.cites), tokens, dim, tuple(self.params), heads, ffn,
                         positional, layers, expect, target, mixer=mixer)

    def _check_param_names(self, tokens: spec.IntTerm, dim: spec.IntTerm) -> None:
        """No param is named as the symbolic length or dimension when they take their default names n and d (a
        `tokens` or `dim` line naming a param is refused where the size is read), nor n beside a symbolic length of
        another name: the derivations name the length n inside, so `tokens L` with `param n` read the param as the
        length (and ended in an internal error), `param n` without a `tokens` line was the length itself, and beside an
        integer length a derivation printed "G = D_n" (n the length) next to a count in the param n."""
        for param in self.params:
            if param.name == tokens and "tokens" not in self.single:
                why = "the sequence length (called n without a `tokens` line)"
            elif param.name == dim and "dim" not in self.single:
                why = "the token dimension (called d without a `dim` line)"
            elif param.name == "n" and isinstance(tokens, str):
                why = f"the name the derivations give the sequence length `{tokens}`"
            elif param.name == "n":  # beside an integer length: "G = D_n" and a count in the param n read as one n
                why = f"the name the derivations give the sequence length ({tokens} here)"
            else:
                continue
            raise _err(param.loc, f"param `{param.name}` is {why}; give the param another name")

    def _expectation(self) -> Optional[spec.Expectation]:
        """The `expect` line, or several for a split verdict: each with a length range `for n ...`, the ranges
        disjoint; the first line carries the others (`more`) and the text of them all."""
        lines = [(statement, self._build(statement)) for statement in self.expects]
        if len(lines) <= 1:
            return lines[0][1] if lines else None
        for statement, line in lines:
            if line.lengths is None:
                raise _err(statement.meta, "several `expect` lines each name their lengths (`for n >= N`, "
                                           "`for A <= n <= B`, …); this one names none")
        ordered = sorted(lines, key=lambda sl: sl[1].lengths[0])
        for (_, before), (statement, after) in zip(ordered, ordered[1:]):
            high = before.lengths[1]
            if high is None or high >= after.lengths[0]:
                raise _err(statement.meta, f"the lengths of this `expect` line overlap those of line {before.loc.line}")
        first, *rest = [line for _, line in lines]
        text = "; ".join(line.text for line in (first, *rest))
        return dataclasses.replace(first, text=text, more=tuple(rest), line_text=first.text)

    def _mixer(self) -> tuple[Optional[spec.Convolution], tuple[spec.Head, ...]]:
        """One token mixer: attention heads or a convolution; heads of per-layer patterns share a depth."""
        mixer = None
        if "convolution" in self.single:
            if self.heads:
                raise _err(self.heads[0].meta, "a file describes one token mixer: `attention` heads or a "
                                               "`convolution`, not both")
            mixer = self._build(self.single["convolution"])
        elif not self.heads:
            raise UapError("no `attention { ... }` block: a .uap file needs at least one attention head "
                           "(or a `convolution` mixer)", 1, 1)
        heads = tuple(self._build(tree) for tree in self.heads)
        finite = {len(h.pattern.patterns) for h in heads
                  if isinstance(h.pattern, spec.PatternSequence) and not h.pattern.periodic}
        if len(finite) > 1:
            raise _err(self.heads[0].meta, "the heads' `pattern sequence` lists have different lengths "
                                           f"({', '.join(map(str, sorted(finite)))}): the network has one depth")
        return mixer, heads

    def _check_analysed_together(self, heads: tuple[spec.Head, ...], mixer: Optional[spec.Convolution],
                                 tokens: spec.IntTerm, target: str, positional: str) -> None:
        sequences = any(isinstance(h.pattern, spec.PatternSequence) for h in heads)
        if sequences and (target == "receptive" or positional != "none"):
            where = (self.single.get("target") if target == "receptive" else None) or self.single["positional"]
            raise _err(where.meta, "per-layer patterns are analysed for equivariant and causal targets without a "
                                   "positional encoding (`target receptive` and `positional absolute` are not "
                                   "supported with them)")
        if mixer is not None and (target != "equivariant" or positional != "none"):
            where = self.single.get("target") or self.single["positional"]
            raise _err(where.meta, "a `convolution` mixer is analysed for equivariant targets without a positional "
                                   "encoding (`target` and `positional absolute` are not supported with them)")
