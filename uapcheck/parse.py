"""Text → Spec: lark (LALR, positions) for syntax, then one pass of semantic checks.

Every problem becomes a `UapError` with a line and column; nothing here lets a traceback escape
for any input text. User text never reaches SymPy's string parsers: numbers are built with
`sympy.Rational` from the token's digits, names stay names.
"""
from __future__ import annotations

import dataclasses

import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Optional

import sympy
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import functions
from . import spec as S
from .errors import UapError, printable

MAX_SOURCE_BYTES = 1_000_000
MAX_NESTING = 200
MAX_TREE_DEPTH = 400
MAX_DECIMAL_EXPONENT = 300
MAX_LITERAL_DIGITS = 300
MAX_CONSTANT_EXPONENT = 1000
MAX_EXPRESSION_NODES = 5000  # nodes of the parse tree of one kernel, score, feature map, ffn or layers
MAX_INT = 10**9

# The language's functions and activations are the tables of uapcheck/functions.py.
FUNCTIONS = functions.FUNCTIONS
ACTIVATIONS = functions.ACTIVATIONS
GROUP_NAMES = ("S_n", "C_n", "D_n", "reflection", "trivial", "order", "stabilizer")
LAYER_FUNCTIONS = {"ceil": 1, "ceiling": 1, "floor": 1, "max": 2, "min": 2}

SCALAR, LINVEC, COORDVEC = "scalar", "vector", "coordinate-wise vector"
_ITEM_WORD = {"bias_item": "bias", "bias_formula_item": "bias", "buckets_item": "bias buckets",
              "reweight_item": "reweight", "rotary_item": "rotary"}


def _grammar_text() -> str:
    """The grammar, package data of uapcheck.grammars (grammars/uap.lark in the repository)."""
    return resources.files("uapcheck.grammars").joinpath("uap.lark").read_text("utf-8")


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


def _prescan(text: str) -> None:
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        raise UapError(f"the file is larger than {MAX_SOURCE_BYTES} bytes", 1, 1)
    if not text.strip() or all(not l.split("#", 1)[0].strip() for l in text.splitlines()):
        raise UapError("the file is empty: a .uap file needs at least one `attention { ... }` block", 1, 1)
    depth, line, col = 0, 1, 0
    in_string = in_comment = escaped = False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
            in_string = in_comment = False
            continue
        if in_comment:
            continue
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == "#":
            in_comment = True
            continue
        if ch == '"':
            in_string = True
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if depth > MAX_NESTING:
            raise UapError(f"expression nested more than {MAX_NESTING} levels deep", line, col)


def _loc(meta_or_token) -> S.Loc:
    line = getattr(meta_or_token, "line", None) or 1
    col = getattr(meta_or_token, "column", None) or 1
    end_line = getattr(meta_or_token, "end_line", None) or line
    end_col = getattr(meta_or_token, "end_column", None) or col
    return S.Loc(line, col, end_line, end_col)


def _tree_loc(tree) -> S.Loc:
    if isinstance(tree, Token):
        return _loc(tree)
    meta = tree.meta
    if getattr(meta, "empty", True):
        for child in tree.children:
            if isinstance(child, (Tree, Token)):
                return _tree_loc(child)
        return S.Loc(1, 1)
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
        every = [w[1:-1] for w in _terminal_words().values() if w.startswith("'") and w[1:-1].isalpha()]
        guess = slips.did_you_mean(word, every + ["not-uap", "ill-posed", "uap", "inconclusive"])
    if guess:
        return f"unexpected `{word}`; did you mean `{guess}`?"
    return None


def _syntax_error(exc: UnexpectedInput, text: str) -> UapError:
    from . import slips
    line, col = exc.line if exc.line and exc.line > 0 else 1, exc.column if exc.column and exc.column > 0 else 1
    if isinstance(exc, UnexpectedCharacters):
        ch = text[exc.pos_in_stream] if 0 <= exc.pos_in_stream < len(text) else "?"
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


def parse_source(text: str, path: str = "<stdin>") -> S.Spec:
    if text.startswith("\ufeff"):
        text = text[1:]
    _prescan(text)
    try:
        tree = parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text) from None
    _check_depth(tree)
    return dataclasses.replace(_Builder(path).build(tree), source=text)


# ---------------------------------------------------------------------------------------------
# Semantic pass

def _err(node, message: str) -> UapError:
    loc = _tree_loc(node) if isinstance(node, (Tree, Token)) else node
    return UapError(message, loc.line, loc.column)


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


#: At most this many patterns in one `pattern sequence/periodic { ... }`.
MAX_LAYER_PATTERNS = 64


class _Builder:
    def __init__(self, path: str):
        self.path = path

    # -- top level -------------------------------------------------------------------------
    def build(self, tree: Tree) -> S.Spec:  # noqa: C901 - positional tree walk, to become per-stage lark Transformers
        singles: dict[str, Tree] = {}
        cites: list[str] = []
        params: list[S.Param] = []
        attention_trees: list[Tree] = []
        for st in tree.children:
            kind = st.data
            if kind in ("ffn_named", "ffn_custom"):
                kind = "ffn"
            if kind == "cite":
                cites.append(self._string(st.children[0]))
            elif kind == "param":
                params.append(self._param(st, params))
            elif kind == "attention":
                attention_trees.append(st)
            elif kind in ("conv_span", "conv_taps"):
                if "convolution" in singles:
                    raise _err(st, f"`convolution` is given twice (first at line {_tree_loc(singles['convolution']).line})")
                singles["convolution"] = st
            else:
                if kind in singles:
                    first = _tree_loc(singles[kind])
                    raise _err(st, f"`{kind}` is given twice (first at line {first.line})")
                singles[kind] = st
        self.params = {p.name: p for p in params}

        architecture = Path(self.path).stem if self.path not in ("<stdin>", "-") else "<stdin>"
        if "architecture" in singles:
            architecture = self._string(singles["architecture"].children[0])
        tokens: S.IntTerm = "n"
        if "tokens" in singles:
            tokens = self._size(singles["tokens"], "tokens", minimum=1)
        self.tokens = tokens
        dim: S.IntTerm = "d"
        if "dim" in singles:
            dim = self._size(singles["dim"], "dim", minimum=1)
        if isinstance(tokens, str) and isinstance(dim, str) and tokens == dim:
            # Without a `dim` line the dimension is named d, so `tokens d` collides with it.
            where = singles["dim"] if "dim" in singles else singles["tokens"]
            extra = "" if "dim" in singles else " (the token dimension is called d unless a `dim` line names it)"
            raise _err(where, f"`dim` and `tokens` cannot be the same name{extra}")

        mixer = None
        if "convolution" in singles:
            if attention_trees:
                raise _err(attention_trees[0], "a file describes one token mixer: `attention` heads or a "
                                               "`convolution`, not both")
            mixer = self._convolution(singles["convolution"])
        elif not attention_trees:
            raise UapError("no `attention { ... }` block: a .uap file needs at least one attention head "
                           "(or a `convolution` mixer)", 1, 1)
        heads = tuple(self._head(t) for t in attention_trees)
        sequences = [h for h in heads if isinstance(h.pattern, S.PatternSequence)]
        finite = {len(h.pattern.patterns) for h in sequences if not h.pattern.periodic}
        if len(finite) > 1:
            raise _err(attention_trees[0], "the heads' `pattern sequence` lists have different lengths "
                                           f"({', '.join(map(str, sorted(finite)))}): the network has one depth")

        ffn = S.FFN("named", name="relu")
        if "ffn" in singles:
            ffn = self._ffn(singles["ffn"])
        positional = "none"
        if "positional" in singles:
            tok = singles["positional"].children[0]
            if str(tok) not in ("none", "absolute"):
                raise _err(tok, f"unknown positional encoding `{tok}`; expected `absolute` or `none`")
            positional = str(tok)
        layers = None
        if "layers" in singles:
            layers = self._int_term(singles["layers"].children[0], "layers", minimum=1)
        expect = None
        if "expect" in singles:
            expect = self._expect(singles["expect"])
        target = "equivariant"
        if "target" in singles:
            target = self._target(singles["target"])
        if (sequences or mixer is not None) and (target != "equivariant" or positional != "none"):
            what = "per-layer patterns" if sequences else "a `convolution` mixer"
            where = singles.get("target") or singles.get("positional")
            raise _err(where, f"{what} are analysed for equivariant targets without a positional encoding "
                              "(`target` and `positional absolute` are not supported with them)")
        if sequences and not isinstance(tokens, int):
            raise _err(singles.get("tokens") or attention_trees[0],
                       "per-layer patterns need an integer `tokens N` (they are decided for a concrete n)")
        return S.Spec(self.path, architecture, tuple(cites), tokens, dim, tuple(params), heads, ffn,
                      positional, layers, expect, target, mixer=mixer)

    def _target(self, st: Tree) -> str:
        tok = st.children[0]
        if str(tok) not in S.TARGETS:
            raise _err(tok, f"unknown target class `{tok}`; expected one of {', '.join(S.TARGETS)}")
        return str(tok)

    def _string(self, tok: Token) -> str:
        # Control characters (terminal escapes, bidi overrides) are shown, never sent to a terminal.
        return printable(str(tok)[1:-1].replace('\\"', '"'))

    def _size(self, st: Tree, what: str, minimum: int) -> S.IntTerm:
        node = st.children[0].children[0] if st.children[0].data == "intterm" else st.children[0]
        neg = any(isinstance(c, Token) and c.type == "MINUS" for c in node.children)
        val = node.children[-1]
        if val.type == "NAME":
            if neg:
                raise _err(val, f"`{what}` must be a positive integer or a name")
            if str(val) in getattr(self, "params", {}):
                raise _err(val, f"`{what} {val}`: the symbolic size must not also be a `param`")
            return str(val)
        where = node.children[0] if neg else val  # point at the minus sign of a negative number
        if len(str(val)) > 12:
            raise _err(where, f"`{what}` is too large (at most {MAX_INT})")
        n = int(str(val)) * (-1 if neg else 1)
        if n < minimum:
            raise _err(where, f"`{what}` must be at least {minimum}, got {n}")
        if n > MAX_INT:
            raise _err(where, f"`{what}` {n} is too large (at most {MAX_INT})")
        return n

    def _param(self, st: Tree, earlier: list[S.Param]) -> S.Param:
        name_tok, cons = st.children
        name = str(name_tok)
        for p in earlier:
            if p.name == name:
                raise _err(name_tok, f"param `{name}` is declared twice (first at line {p.loc.line})")
        if name in FUNCTIONS or name in ("t",):
            raise _err(name_tok, f"`{name}` is reserved and cannot be a param name")
        kind = cons.data
        if kind in ("c_gt", "c_ge", "c_ne"):
            value = _number(cons.children[0].children[0])
            if value != 0:
                raise _err(cons, f"a param constraint compares with 0, got {value}")
            constraint = {"c_gt": "> 0", "c_ge": ">= 0", "c_ne": "!= 0"}[kind]
            return S.Param(name, constraint, loc=_loc(name_tok))
        if kind == "c_real":
            return S.Param(name, "real", loc=_loc(name_tok))
        lower_node = cons.children[0]
        neg = any(isinstance(c, Token) and c.type == "MINUS" for c in lower_node.children)
        val = lower_node.children[-1]
        if val.type != "INT":
            raise _err(val, "`integer >= K` needs an integer K")
        if len(str(val)) > 12:
            raise _err(val, "integer bound out of range")
        k = int(str(val)) * (-1 if neg else 1)
        if abs(k) > MAX_INT:
            raise _err(val, "integer bound out of range")
        return S.Param(name, "integer", lower=k, loc=_loc(name_tok))

    # -- integer terms in patterns and sizes -------------------------------------------------
    def _int_term(self, node: Tree, what: str, minimum: Optional[int] = None,
                  allow_negative_name: bool = False) -> S.IntTerm:
        if node.data == "intterm":
            node = node.children[0]
        neg = any(isinstance(c, Token) and c.type == "MINUS" for c in node.children)
        val = node.children[-1]
        if val.type == "NAME":
            name = str(val)
            if isinstance(self.tokens, str) and name == self.tokens:
                if neg or (minimum is not None and minimum > 1):
                    raise _err(val, f"`{name}` (the sequence length) cannot be used here")
                return name
            p = self.params.get(name)
            if p is None:
                raise _err(val, f"unknown name `{name}` in {what}: declare it with `param {name} integer >= 1`")
            if p.constraint != "integer":
                raise _err(val, f"`{name}` is used in {what} but is not declared `integer >= K`")
            if neg and not allow_negative_name:
                raise _err(val, f"{what} must be positive")
            if minimum is not None and (p.lower is None or p.lower < minimum) and not neg:
                raise _err(val, f"{what} needs `{name}` >= {minimum}, but it is declared `integer >= {p.lower}`")
            return ("-" + name) if neg else name
        where = node.children[0] if neg else val  # point at the minus sign of a negative number
        if len(str(val)) > 12:
            raise _err(where, f"{what} is out of range")
        n = int(str(val)) * (-1 if neg else 1)
        if abs(n) > MAX_INT:
            raise _err(where, f"{what} {n} is out of range")
        if minimum is not None and n < minimum:
            raise _err(where, f"{what} must be at least {minimum}, got {n}")
        if isinstance(self.tokens, int) and abs(n) > self.tokens and what in (
                "random pattern count", "global pattern size", "number of sinks"):
            raise _err(where, f"{what} {n} exceeds `tokens {self.tokens}`")
        return n

    # -- attention heads ---------------------------------------------------------------------
    def _head(self, tree: Tree) -> S.Head:  # noqa: C901 - positional tree walk, to become per-stage lark Transformers
        label = None
        items = list(tree.children)
        if items and isinstance(items[0], Token) and items[0].type == "NAME":
            label = str(items.pop(0))
        fields: dict = {}
        seen: dict[str, Tree] = {}
        main: Optional[Tree] = None
        for it in items:
            kind = it.data
            if kind in ("kernel_item", "features_item", "score_item"):
                if main is not None:
                    first = _tree_loc(main)
                    raise _err(it, f"a head has exactly one of `kernel`, `features`, `score`; "
                                   f"this one already has `{main.data[:-5]}` at line {first.line}")
                main = it
                continue
            key = "normalize" if kind in ("normalize_item", "unnormalized_item") else kind
            if kind == "pattern_layers_item":
                key = "pattern_item"
            if kind in ("bias_formula_item", "buckets_item"):
                key = "bias_item"
            if kind in ("bias_item", "bias_formula_item", "buckets_item", "reweight_item", "rotary_item"):
                other = next((seen[k] for k in ("bias_item", "reweight_item", "rotary_item")
                              if k in seen and k != key), None)
                if other is not None:
                    raise _err(it, f"one way of bringing positions into a head: this head already has "
                                   f"`{_ITEM_WORD[other.data]}` at line {_tree_loc(other).line}")
            if key in seen:
                raise _err(it, f"`{kind[:-5]}` is given twice in one head (first at line {_tree_loc(seen[key]).line})")
            seen[key] = it
        if main is None:
            raise _err(tree, "this attention head has no `kernel`, `features` or `score`")
        kind = main.data[:-5]
        ch = main.children
        random_name = None
        if kind == "features":
            fn, params = str(ch[0]), (str(ch[1]),)
            expr_tree = ch[2]
            if len(ch) > 3:
                random_name = str(ch[3].children[0])
                if random_name == params[0]:
                    raise _err(ch[3], "the random vector needs its own name")
        else:
            fn, params = str(ch[0]), (str(ch[1]), str(ch[2]))
            expr_tree = ch[3]
            if params[0] == params[1]:
                raise _err(ch[2], f"the two arguments of `{fn}` need different names")
        for p, tok in zip(params + ((random_name,) if random_name else ()), ch[1:]):
            if p in self.params:
                raise _err(tok, f"`{p}` is both a vector argument and a declared param")
            if p in FUNCTIONS:
                raise _err(tok, f"`{p}` is a function name and cannot be a vector argument")
        vectors = set(params) | ({random_name} if random_name else set())
        expr, typ = self._expr(expr_tree, vectors, random_name)
        if kind in ("kernel", "score") and typ != SCALAR:
            raise _err(expr_tree, f"a {kind} must be a scalar, but this expression is a {typ}"
                                  " (use `.` for an inner product, `|v|` for a norm)")
        if random_name is not None:
            if typ != SCALAR:
                raise _err(expr_tree, "a random feature must be a scalar expression of `w . x` and norms")
            if not _mentions(expr, random_name):
                raise _err(ch[3], f"the random vector `{random_name}` does not appear in the feature map")

        for k, it in seen.items():
            c = it.children
            if k == "normalize":
                fields["normalize"] = it.data == "normalize_item"
            elif k == "nystrom_item":
                m = self._int_term(c[0], "landmarks", minimum=1)
                if not isinstance(m, int):
                    raise _err(c[0], "the number of landmarks must be an integer")
                fields["nystrom"] = m
            elif k == "pattern_item" and it.data == "pattern_layers_item":
                fields["pattern"] = self._pattern_layers(it)
            elif k == "pattern_item":
                fields["pattern"] = self._pattern(c[0])
            elif k == "bias_item" and it.data != "bias_item":
                fields["position"] = self._position(it)
            elif k in ("reweight_item", "rotary_item"):
                fields["position"] = self._position(it)
            elif k == "bias_item":
                bias_kind = ("symmetric " if len(c) == 2 else "") + str(c[-1])
                if bias_kind not in S.BIAS_KINDS:
                    raise _err(c[-1], f"unknown bias kind `{bias_kind}`; expected " + ", ".join(S.BIAS_KINDS))
                fields["bias"] = bias_kind
            elif k == "project_item":
                size = self._int_term(c[0], "projection size", minimum=1)
                if not isinstance(size, int):
                    raise _err(c[0], "the projection size must be an integer")
                fields["projection"] = S.Projection(size, fixed=len(c) == 2)
            elif k == "heads_item":
                h = self._int_term(c[0], "number of query heads", minimum=1)
                g = self._int_term(c[1], "number of key/value heads", minimum=1) if len(c) > 1 else h
                if not isinstance(h, int) or not isinstance(g, int):
                    raise _err(it, "`heads H kv G` takes integer literals")
                if g > h or h % g:
                    raise _err(it, f"{h} query heads cannot share {g} key/value heads evenly: G must divide H")
                fields["heads"] = (h, g)
            elif k == "differential_item":
                fields["differential"] = True
            elif k == "tie_item":
                fields["tie"] = True
            elif k == "affine_item":
                fields["affine"] = True
        if fields.get("position") and fields["position"].kind == "rotary" and kind == "features":
            raise _err(seen["rotary_item"], "`rotary` applies to `kernel` and `score` heads (it rotates the "
                                            "query and key inside k(q, k))")
        if fields.get("projection") and ("pattern_item" in seen or "bias_item" in seen
                                         or "reweight_item" in seen or "rotary_item" in seen):
            # E, F mix every position into the keys and values, so a mask or a position bias has
            # no meaning there (and a receptive-field argument would be false).
            other = seen.get("pattern_item") or seen.get("bias_item")
            raise _err(other, "`project keys values` mixes all positions into the keys and values: it cannot "
                              "be combined with `pattern` or `bias` in the same head")
        if isinstance(fields.get("pattern"), S.PatternSequence) and (
                fields.get("bias") or fields.get("position") or fields.get("projection")):
            raise _err(seen["pattern_item"], "per-layer patterns are analysed for heads without a bias, a "
                                             "position term or sequence projections (not supported with them)")
        if fields.get("projection") and fields.get("nystrom"):
            raise _err(seen["nystrom_item"], "`nystrom` and `project keys values` cannot share a head: each "
                                             "replaces the keys in its own way")
        if fields.get("differential") and (kind != "kernel" or fields.get("normalize") is False):
            raise _err(seen["differential_item"], "`differential` subtracts two normalised kernel heads "
                                                  "(softmax(Q1 K1ᵀ) − λ softmax(Q2 K2ᵀ)): it needs a normalised "
                                                  "`kernel` head")
        if kind == "score" and fields.get("nystrom"):
            raise _err(seen["nystrom_item"], "`nystrom` applies to `kernel` heads")
        if fields.get("tie") and kind == "features":
            raise _err(seen["tie_item"], "`tie query key` applies to `kernel` and `score` heads")
        return S.Head(label, kind, fn, params, expr, random_name, loc=_tree_loc(tree), **fields)

    # -- positions in the weights --------------------------------------------------------------
    def _position(self, it: Tree) -> S.PositionTerm:
        loc = _tree_loc(it)
        if it.data == "rotary_item":
            return S.PositionTerm("rotary", loc=loc)
        if it.data == "buckets_item":
            nb = self._int_term(it.children[0], "number of buckets", minimum=2)
            md = self._int_term(it.children[1], "maximum distance", minimum=1)
            if not isinstance(nb, int) or not isinstance(md, int):
                raise _err(it, "`bias buckets(B, D)` takes integer literals")
            if nb % 2:
                raise _err(it.children[0], "T5's bidirectional buckets split evenly between the two "
                                           "directions: the number of buckets must be even")
            if md < nb // 4:
                raise _err(it.children[1], f"the maximum distance must be at least the exact range "
                                           f"{nb // 4} (a quarter of the buckets)")
            return S.PositionTerm("buckets", buckets=nb, max_distance=md, loc=loc)
        fn_tok, i_tok, j_tok, expr_tree = it.children
        i, j = str(i_tok), str(j_tok)
        if i == j:
            raise _err(j_tok, f"the two positions of `{fn_tok}` need different names")
        for name, tok in ((i, i_tok), (j, j_tok)):
            if name in self.params:
                raise _err(tok, f"`{name}` is both a position and a declared param")
            if name in FUNCTIONS or name == "pi":
                raise _err(tok, f"`{name}` cannot name a position")
        scalars = {i, j}
        if "pi" not in self.params:
            scalars.add("pi")
        if isinstance(self.tokens, str) and self.tokens not in self.params:
            scalars.add(self.tokens)
        expr, typ = self._expr(expr_tree, set(), None, scalar_vars=scalars)
        kind = "bias" if it.data == "bias_formula_item" else "reweight"
        return S.PositionTerm(kind, fn=str(fn_tok), names=(i, j), expr=expr, loc=loc)

    # -- patterns ----------------------------------------------------------------------------
    def _pattern(self, node: Tree) -> S.Pattern:  # noqa: C901 - positional tree walk, to become per-stage lark Transformers
        kind = node.data
        c = node.children
        symbolic = not isinstance(self.tokens, int)
        if kind == "p_union":
            left, right = self._pattern(c[0]), self._pattern(c[1])
            parts = (left.parts if isinstance(left, S.PatternUnion) else (left,)) + (right,)
            return S.PatternUnion(parts)
        if kind == "p_inter":
            left, right = self._pattern(c[0]), self._pattern(c[1])
            parts = (left.parts if isinstance(left, S.PatternIntersection) else (left,)) + (right,)
            return S.PatternIntersection(parts)
        if kind == "p_sinks":
            return S.Sinks(self._int_term(c[0], "number of sinks", minimum=1))
        if kind == "p_global_at":
            if symbolic:
                raise _err(node, "`global {...}` lists positions: it needs an integer `tokens N`")
            positions = []
            for x in c:
                v = self._int_term(x, "global position", minimum=1)
                if not isinstance(v, int):
                    raise _err(x, "global positions must be integer literals")
                if v > self.tokens:
                    raise _err(x, f"global position {v} is beyond `tokens {self.tokens}`")
                if v in positions:
                    raise _err(x, f"global position {v} is listed twice")
                positions.append(v)
            return S.GlobalAt(tuple(positions))
        if kind == "p_blockwise":
            return self._blockwise(node)
        if kind == "p_columns":
            if symbolic:
                raise _err(node, "`columns(l, c)` needs an integer `tokens N`")
            lv = self._int_term(c[0], "column stride", minimum=1)
            cv = self._int_term(c[1], "number of summary columns", minimum=1)
            if not isinstance(lv, int) or not isinstance(cv, int):
                raise _err(node, "`columns(l, c)` takes integer literals")
            if cv > lv:
                raise _err(c[1], f"`columns(l, c)` needs c ≤ l, got c = {cv} > l = {lv}")
            return S.Columns(lv, cv)
        if kind == "p_full":
            return S.Full()
        if kind == "p_causal":
            return S.Causal()
        if kind == "p_star":
            return S.Star()
        cyclic = bool(c) and isinstance(c[-1], Token) and c[-1].type == "CYCLIC"
        if kind == "p_window":
            return S.Window(self._int_term(c[0], "window radius", minimum=1), cyclic)
        if kind == "p_offsets":
            offs = tuple(self._int_term(x, "offset", allow_negative_name=True)
                         for x in c if isinstance(x, Tree))
            return S.Offsets(offs, cyclic)
        if kind == "p_dilated":
            return S.Dilated(self._int_term(c[0], "dilated window radius", minimum=1),
                             self._int_term(c[1], "dilation", minimum=1))
        if kind == "p_strided":
            return S.Strided(self._int_term(c[0], "stride", minimum=1))
        if kind == "p_blocks":
            return S.Blocks(self._int_term(c[0], "block size", minimum=1))
        if kind == "p_global":
            return S.Global(self._int_term(c[0], "global pattern size", minimum=1))
        if kind == "p_random":
            if symbolic:
                raise _err(node, "`random(...)` needs an integer `tokens N`")
            r = self._int_term(c[0], "random pattern count", minimum=1)
            seed = self._int_term(c[1], "seed", minimum=0)
            if not isinstance(r, int) or not isinstance(seed, int):
                raise _err(node, "`random(r, seed=S)` needs integer literals")
            return S.RandomPattern(r, seed)
        if kind == "p_edges":
            if symbolic:
                raise _err(node, "`edges {...}` needs an integer `tokens N`")
            edges = []
            for e in c:
                i = self._int_term(e.children[0], "edge position", minimum=1)
                j = self._int_term(e.children[1], "edge position", minimum=1)
                if not isinstance(i, int) or not isinstance(j, int):
                    raise _err(e, "edge positions must be integers")
                for v, sub in ((i, e.children[0]), (j, e.children[1])):
                    if v > self.tokens:
                        raise _err(sub, f"edge position {v} is beyond `tokens {self.tokens}`")
                edges.append((i, j))
            return S.Edges(tuple(edges))
        raise _err(node, f"unknown pattern `{kind}`")

    def _pattern_layers(self, it: Tree) -> S.PatternSequence:
        """`pattern sequence { P1, …, Pk }` / `pattern periodic { P1, …, Pp }`: a pattern per layer."""
        kind_tok, *parts = it.children
        if len(parts) > MAX_LAYER_PATTERNS:
            raise _err(it, f"at most {MAX_LAYER_PATTERNS} patterns per sequence, got {len(parts)}")
        return S.PatternSequence(tuple(self._pattern(p) for p in parts), str(kind_tok) == "periodic")

    def _convolution(self, st: Tree) -> S.Convolution:
        """`convolution circular(l)` (taps 0..l, l ≥ 1) or `convolution circular {a, b, …}`."""
        if st.data == "conv_span":
            span = self._int_term(st.children[0], "convolution length l", minimum=1)
            return S.Convolution((0,), span, loc=_tree_loc(st))
        taps = []
        for x in st.children:
            v = self._int_term(x, "convolution tap", allow_negative_name=True)
            if not isinstance(v, int):
                raise _err(x, "the taps of `convolution circular {...}` are integer literals")
            if v in taps:
                raise _err(x, f"tap {v} is listed twice")
            taps.append(v)
        return S.Convolution(tuple(taps), None, loc=_tree_loc(st))

    def _blockwise(self, node: Tree) -> S.Blockwise:
        """`blockwise(b) { P }`: P is a pattern on the n/b block indices, checked against them."""
        size_node, inner_node = node.children
        if not isinstance(self.tokens, int):
            raise _err(node, "`blockwise(b) { ... }` needs an integer `tokens N`")
        b = self._int_term(size_node, "block size", minimum=1)
        if not isinstance(b, int):
            raise _err(size_node, "the block size must be an integer literal")
        if self.tokens % b:
            raise _err(size_node, f"block size {b} does not divide `tokens {self.tokens}` (BigBird's blocks "
                                  "tile the sequence)")
        if getattr(self, "_in_blockwise", False):
            raise _err(node, "`blockwise` patterns cannot be nested")
        outer = self.tokens
        self.tokens, self._in_blockwise = outer // b, True
        try:
            inner = self._pattern(inner_node)
        finally:
            self.tokens, self._in_blockwise = outer, False
        return S.Blockwise(b, inner)

    # -- FFN ---------------------------------------------------------------------------------
    def _ffn(self, st: Tree) -> S.FFN:
        if st.data == "ffn_named":
            name = str(st.children[0])
            if name == "none":
                return S.FFN("none", loc=_tree_loc(st))
            if name not in ACTIVATIONS:
                raise _err(st.children[0], f"unknown activation `{name}`; expected one of "
                           + ", ".join(ACTIVATIONS) + ", none, or `ffn sigma(u) = EXPR`")
            return S.FFN("named", name=name, loc=_tree_loc(st))
        _, var_tok, expr_tree = st.children
        var = str(var_tok)
        if var in self.params:
            raise _err(var_tok, f"`{var}` is both the activation's argument and a declared param")
        expr, typ = self._expr(expr_tree, set(), None, scalar_vars={var})
        return S.FFN("custom", name=str(st.children[0]), var=var, expr=expr, loc=_tree_loc(st))

    # -- expect ------------------------------------------------------------------------------
    def _expect(self, st: Tree) -> S.Expectation:
        verdict = str(st.children[0])
        group = None
        layers = None
        for c in st.children[1:]:
            if c.data == "expect_group":
                name = str(c.children[0])
                arg = None
                if len(c.children) > 1:
                    argnode = c.children[1]
                    neg = any(isinstance(x, Token) and x.type == "MINUS" for x in argnode.children)
                    val = argnode.children[-1]
                    if val.type != "INT" or neg or len(str(val)) > 400:
                        raise _err(argnode, f"`{name}` takes a positive integer")
                    arg = int(str(val))
                if name not in GROUP_NAMES:
                    raise _err(c.children[0], f"unknown group `{name}`; expected one of S_n, C_n, D_n, "
                                              "reflection, trivial, order N, stabilizer K")
                if name in ("order", "stabilizer") and arg is None:
                    raise _err(c.children[0], f"`{name}` needs an integer, e.g. `{name} 2`")
                if name not in ("order", "stabilizer") and arg is not None:
                    raise _err(c.children[1], f"`{name}` takes no number")
                if name == "order" and arg < 1 or name == "stabilizer" and (
                        arg < 1 or isinstance(self.tokens, int) and arg > self.tokens):
                    raise _err(c.children[1], f"`{name} {arg}` is out of range")
                group = (name, arg)
            else:
                allowed = set(self.params) | ({self.tokens} if isinstance(self.tokens, str) else set())
                layers = self._layer_expr(c.children[0], allowed)
        if verdict != "uap" and (group or layers):
            raise _err(st, "`group` and `layers` go with `expect uap`")
        text_parts = [verdict]
        if group:
            text_parts.append("group " + group[0] + (f" {group[1]}" if group[1] is not None else ""))
        if layers is not None:
            text_parts.append("layers " + _show_layers(layers))
        return S.Expectation(verdict, group, layers, " ".join(text_parts), loc=_tree_loc(st))

    def _layer_expr(self, node, allowed: set) -> S.Expr:
        kind = node.data if isinstance(node, Tree) else None
        if kind == "number":
            v = _number(node.children[0])
            return S.Num(v, _tree_loc(node))
        if kind == "name":
            name = str(node.children[0])
            if name not in allowed:
                raise _err(node, f"unknown name `{name}` in `layers`; use integers, the symbolic "
                                 "`tokens` name and declared params")
            return S.Name(name, _tree_loc(node))
        if kind == "call":
            fn = str(node.children[0])
            args = node.children[1:]
            if fn not in LAYER_FUNCTIONS or len(args) != LAYER_FUNCTIONS[fn]:
                raise _err(node, f"`{fn}` is not allowed in `layers`; use ceil, floor, max, min")
            return S.Call(fn, tuple(self._layer_expr(a, allowed) for a in args), _tree_loc(node))
        if kind in ("add", "sub", "mul", "div"):
            op = {"add": "+", "sub": "-", "mul": "*", "div": "/"}[kind]
            out = S.BinOp(op, self._layer_expr(node.children[0], allowed),
                          self._layer_expr(node.children[1], allowed), _tree_loc(node))
            if op == "/" and self._checked_constant(out.right, node.children[1]) == 0:
                raise _err(node.children[1], "division by zero")
            self._checked_constant(out, node)
            return out
        if kind == "neg":
            return S.Neg(self._layer_expr(node.children[0], allowed), _tree_loc(node))
        raise _err(node, "`layers` takes an integer or an expression with + - * / ceil floor max min")

    # -- expressions with types --------------------------------------------------------------
    def _expr(self, node, vectors: set, random_name: Optional[str],  # noqa: C901 - positional tree walk, to become per-stage lark Transformers
              scalar_vars: frozenset | set = frozenset()) -> tuple[S.Expr, str]:
        kind = node.data
        loc = _tree_loc(node)
        c = node.children
        if kind == "number":
            return S.Num(_number(c[0]), loc), SCALAR
        if kind == "name":
            name = str(c[0])
            if name in vectors:
                return S.Name(name, loc), LINVEC
            if name in scalar_vars:
                return S.Name(name, loc), SCALAR
            if name in self.params:
                return S.Name(name, loc), SCALAR
            if name in FUNCTIONS:
                raise _err(node, f"`{name}` is a function: write `{name}(...)`")
            if name == "T":
                raise _err(node, "unknown name `T`: a transpose is not written in .uap; write the inner product "
                                 "xᵀy as `x . y`")
            raise _err(node, f"unknown name `{name}`; declare a constant with `param NAME > 0` (or `real`, "
                             "`!= 0`, ...)")
        if kind == "call":
            fn = str(c[0])
            if fn not in FUNCTIONS:
                from . import slips
                hint = slips.FUNCTION_SLIPS.get(fn.lower())
                if hint:
                    raise _err(c[0], f"unknown function `{fn}`: {hint}")
                guess = slips.did_you_mean(fn, FUNCTIONS)
                raise _err(c[0], f"unknown function `{fn}`" + (f"; did you mean `{guess}`?" if guess else "")
                           + "; known: " + ", ".join(sorted(FUNCTIONS)))
            arity = FUNCTIONS[fn].arity
            if len(c) - 1 != arity:
                raise _err(node, f"`{fn}` takes {arity} argument{'s' if arity > 1 else ''}, got {len(c) - 1}")
            args = [self._expr(a, vectors, random_name, scalar_vars) for a in c[1:]]
            types = {t for _, t in args}
            typ = SCALAR if types == {SCALAR} else COORDVEC
            if random_name and any(_mentions(a, random_name) for a, t in args if t != SCALAR):
                raise _err(node, f"the random vector `{random_name}` may appear only as `{random_name} . v`")
            return S.Call(fn, tuple(a for a, _ in args), loc), typ
        if kind == "neg":
            e, t = self._expr(c[0], vectors, random_name, scalar_vars)
            return S.Neg(e, loc), t
        if kind == "norm":
            e, t = self._expr(c[0], vectors, random_name, scalar_vars)
            if t == COORDVEC:
                raise _err(node, "`|.|` of a coordinate-wise (elementwise) vector: use `abs(...)` for the "
                                 "elementwise absolute value, or `|v|` of a linear vector for a norm")
            if random_name and _mentions(e, random_name) and t != SCALAR:
                raise _err(node, f"the random vector `{random_name}` may appear only as `{random_name} . v`")
            return S.Norm(e, loc), SCALAR
        if kind == "dot":
            l, lt = self._expr(c[0], vectors, random_name, scalar_vars)
            r, rt = self._expr(c[1], vectors, random_name, scalar_vars)
            if lt == SCALAR or rt == SCALAR:
                bad = c[0] if lt == SCALAR else c[1]
                raise _err(bad, "`.` is the inner product of two vectors; this operand is a scalar (use `*`)")
            if random_name:
                lw, rw = _mentions(l, random_name), _mentions(r, random_name)
                if (lw or rw) and not ((isinstance(l, S.Name) and l.id == random_name and not rw) or
                                       (isinstance(r, S.Name) and r.id == random_name and not lw)):
                    raise _err(node, f"the random vector `{random_name}` may appear only as `{random_name} . v`")
            return S.Dot(l, r, loc), SCALAR
        if kind in ("add", "sub", "mul", "div", "pow"):
            l, lt = self._expr(c[0], vectors, random_name, scalar_vars)
            r, rt = self._expr(c[1], vectors, random_name, scalar_vars)
            op = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "^"}[kind]
            if random_name and ((lt != SCALAR and _mentions(l, random_name)) or
                                (rt != SCALAR and _mentions(r, random_name))):
                raise _err(node, f"the random vector `{random_name}` may appear only as `{random_name} . v`")
            if op == "^":
                if rt != SCALAR:
                    raise _err(c[1], "the exponent of `^` must be a scalar, not a vector")
                self._check_exponent(r, c[1])
                self._check_nested_exponent(l, r, c[1])
                if lt == SCALAR:
                    self._checked_constant(S.BinOp(op, l, r), node)
                typ = SCALAR if lt == SCALAR else COORDVEC
                return S.BinOp(op, l, r, loc), typ
            if op == "/" and rt != SCALAR:
                raise _err(c[1], "cannot divide by a vector")
            if op == "/" and self._checked_constant(r, c[1]) == 0:
                raise _err(c[1], "division by zero")
            if lt == SCALAR and rt == SCALAR:
                self._checked_constant(S.BinOp(op, l, r), node)
            if op in ("+", "-"):
                if lt == rt:
                    typ = lt
                elif LINVEC in (lt, rt) and COORDVEC in (lt, rt):
                    typ = COORDVEC
                else:
                    typ = COORDVEC  # scalar broadcast to every coordinate (e.g. elu(x) + 1)
            elif op == "*":
                if lt == SCALAR:
                    typ = rt
                elif rt == SCALAR:
                    typ = lt
                else:
                    typ = COORDVEC  # elementwise product
            else:
                typ = lt
            return S.BinOp(op, l, r, loc), typ
        raise _err(node, f"unexpected expression `{kind}`")

    def _check_nested_exponent(self, base: S.Expr, exponent: S.Expr, node) -> None:
        """(b^p)^q is b^(pq): the product of nested constant exponents is bounded like one exponent."""
        value = self._checked_constant(exponent, node)
        if value is None:
            return
        total = abs(value) * max(_nested_exponent(base), 1)
        if total > MAX_CONSTANT_EXPONENT:
            raise _err(node, f"nested powers raise to a total exponent of {sympy.sstr(total)} (at most "
                       f"{MAX_CONSTANT_EXPONENT} in absolute value)")

    def _check_exponent(self, expr: S.Expr, node) -> None:
        value = self._checked_constant(expr, node)
        if value is not None and abs(value) > MAX_CONSTANT_EXPONENT:
            raise _err(node, f"exponent too large (at most {MAX_CONSTANT_EXPONENT} in absolute value)")

    def _checked_constant(self, expr: S.Expr, node):
        try:
            return _constant_value(expr)
        except _TooLarge:
            raise _err(node, f"constant too large (more than {MAX_CONSTANT_BITS} bits)") from None
        except ZeroDivisionError:
            raise _err(node, "division by zero") from None


MAX_CONSTANT_BITS = 4000


class _TooLarge(Exception):
    pass


def _bits(v: sympy.Rational) -> int:
    return max(abs(sympy.Rational(v).p).bit_length(), sympy.Rational(v).q.bit_length())


def _constant_value(expr: S.Expr) -> Optional[sympy.Rational]:
    """The value of a constant expression if it is small enough to compute safely, else None.
    Raises _TooLarge when a constant would exceed MAX_CONSTANT_BITS (SymPy would carry it along)."""
    value = _constant_value_unchecked(expr)
    if value is not None and _bits(value) > MAX_CONSTANT_BITS:
        raise _TooLarge()
    return value


def _constant_value_unchecked(expr: S.Expr) -> Optional[sympy.Rational]:
    if isinstance(expr, S.Num):
        return expr.value
    if isinstance(expr, S.Neg):
        v = _constant_value(expr.operand)
        return None if v is None else -v
    if isinstance(expr, S.BinOp) and expr.op in "+-*/":
        a, b = _constant_value(expr.left), _constant_value(expr.right)
        if a is None or b is None:
            return None
        if expr.op == "+":
            return a + b
        if expr.op == "-":
            return a - b
        if expr.op == "*":
            return a * b
        if b == 0:
            raise ZeroDivisionError
        return a / b
    if isinstance(expr, S.BinOp) and expr.op == "^":
        a, b = _constant_value(expr.left), _constant_value(expr.right)
        if a is None or b is None or not b.is_integer or abs(b) > MAX_CONSTANT_EXPONENT:
            return None
        if a == 0 and b < 0:
            return None
        if _bits(a) * abs(int(b)) > MAX_CONSTANT_BITS:  # decide before computing a huge power
            raise _TooLarge()
        return sympy.Rational(a) ** int(b)
    return None


def _nested_exponent(expr: S.Expr):
    """The largest product of constant exponents along nested powers inside expr (0 if none)."""
    best = 0
    stack = [(expr, 1)]
    while stack:
        node, factor = stack.pop()
        if isinstance(node, S.BinOp) and node.op == "^":
            value = _constant_value_unchecked(node.right)
            if value is not None:
                total = abs(value) * factor
                best = max(best, total)
                stack.append((node.left, total))
                continue
        for child in _children(node):
            stack.append((child, factor))
    return best


def _children(node) -> list:
    if isinstance(node, S.BinOp):
        return [node.left, node.right]
    if isinstance(node, S.Neg):
        return [node.operand]
    if isinstance(node, S.Call):
        return list(node.args)
    if isinstance(node, S.Dot):
        return [node.left, node.right]
    if isinstance(node, S.Norm):
        return [node.operand]
    return []


def _mentions(expr: S.Expr, name: str) -> bool:
    if isinstance(expr, S.Name):
        return expr.id == name
    if isinstance(expr, S.Num):
        return False
    if isinstance(expr, S.Call):
        return any(_mentions(a, name) for a in expr.args)
    if isinstance(expr, (S.Neg, S.Norm)):
        return _mentions(expr.operand, name)
    return _mentions(expr.left, name) or _mentions(expr.right, name)


def _show_layers(expr: S.Expr) -> str:
    from .show import show_expr
    return show_expr(expr)
