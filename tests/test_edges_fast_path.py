"""Long `edges { ... }` lists are read by uapcheck/edge_lists.py, not by lark: the same spec, the same
errors at the same line and column, a size limit of their own, and a 65,536-token list decided as its
`random` form is."""
from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uapcheck import edge_lists
from uapcheck import spec as S
from uapcheck.errors import MAX_SOURCE_BYTES, UapError
from uapcheck.parse import parse_source

from clirun import run

HEAD = "tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


def parsed(text: str, fast: bool, monkeypatch: pytest.MonkeyPatch):
    """The spec or the error (message, line, column) of `text`, with every list read by edge_lists.py
    (fast) or every list left to lark."""
    with monkeypatch.context() as m:
        m.setattr(edge_lists, "FAST_MIN_BYTES", 0 if fast else 10 ** 12)
        try:
            return parse_source(text, "x.uap")
        except UapError as exc:
            return (exc.message, exc.line, exc.column)


def both(text: str, monkeypatch: pytest.MonkeyPatch):
    fast, slow = parsed(text, True, monkeypatch), parsed(text, False, monkeypatch)
    assert fast == slow, text
    return fast


# -- the same spec and the same errors as lark, on small files ----------------------------------------

BLANKS = st.sampled_from(["", " ", "  ", "\t", " \f ", " # a comment -> 3, 4\n", "\n", "\r\n", "\n\n  ",
                          " #\n", "# }\n"])
INLINE = st.sampled_from(["", " ", "\t ", "  \r "])  # inside a pair: no line end


@st.composite
def edge_files(draw):
    n = draw(st.integers(1, 30))
    count = draw(st.integers(1, 12))
    pairs = [(draw(st.integers(1, n)), draw(st.integers(1, n))) for _ in range(count)]
    parts = [draw(BLANKS)]
    for k, (i, j) in enumerate(pairs):
        if k:
            parts += [draw(BLANKS), ",", draw(BLANKS)]
        lead = draw(st.sampled_from(["", "", "0", "00"]))  # leading zeros: INT reads them as lark does
        parts += [f"{lead}{i}", draw(INLINE), "->", draw(INLINE), str(j)]
    parts.append(draw(BLANKS))
    body = "".join(parts)
    around = draw(st.sampled_from(["{}", "window(1) + {}", "{} + star", "blockwise(1) {{ {} }}", "({})"]))
    return n, pairs, HEAD.format(n=n, pattern=around.format("edges {" + body + "}"))


MUTATIONS = [
    ("5", "x"), ("->", "-"), ("->", ""), (",", ""), (",", ",,"), ("}", ", }"), ("{", "{ ,"), ("3", "-3"),
    ("2", "0"), ("1", "99"), ("4", "n"), ("->", "\n->"), ("1", "1\n"), ("7", "٧"), ("6", "0000000000006"),
    ("2", "12345678901234"), ("3", '"3"'), ("->", "=>"), ("2", "- 2"), ("1", "w"), ("}", ""), (",", "\n,\n"),
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edge_files())
def test_the_same_spec_as_lark(monkeypatch, case):
    n, pairs, text = case
    spec = both(text, monkeypatch)
    assert not isinstance(spec, tuple), spec
    found = []

    def walk(p):
        if isinstance(p, S.Edges):
            found.append(p.edges)
        for q in getattr(p, "parts", ()):
            walk(q)
        if hasattr(p, "inner"):
            walk(p.inner)
    walk(spec.heads[0].pattern)
    assert found == [tuple(pairs)]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edge_files(), st.sampled_from(MUTATIONS), st.integers(0, 20))
def test_the_same_errors_as_lark(monkeypatch, case, mutation, nth):
    """A file with one token changed: the fast path gives lark's message at lark's line and column
    (or the same spec, when the change is still a valid list)."""
    _, _, text = case
    old, new = mutation
    start = text.index("edges")
    at = [k for k in range(start, len(text)) if text.startswith(old, k)]
    if not at:
        return
    k = at[nth % len(at)]
    both(text[:k] + new + text[k + len(old):], monkeypatch)


@pytest.mark.parametrize("text", [
    HEAD.format(n=4, pattern="edges {1 -> 2, 2 -> 5}"),
    HEAD.format(n=4, pattern="edges {0 -> 1}"),
    "attention { kernel k(x, y) = exp(x . y); pattern edges {1 -> 2} }\n",  # symbolic tokens
    "param w integer >= 1\n" + HEAD.format(n=4, pattern="edges {1 -> w}"),
    HEAD.format(n=4, pattern="edges {1 -> 2, 2 -> 3,}"),
    HEAD.format(n=4, pattern="edges {}"),
    HEAD.format(n=4, pattern="edges {1 -> 2 \"3\"}"),
    HEAD.format(n=4, pattern="edges {1 -> 2, 2 -> 3"),
    "tokens 4\nattention edges {\n kernel k(x, y) = exp(x . y); pattern window(1) }\n",  # a head named `edges`
    "tokens 4\nattention edges { 1 -> 2 }\n",
    "tokens 4\narchitecture \"edges {1 -> 2, x}\"\n" + HEAD.format(n=4, pattern="edges {1 -> 2}"),
    "tokens 4\n# edges {1 -> x}\n" + HEAD.format(n=4, pattern="edges {1 -> 2} + edges {2 -> 1, 3 -> 4} + star"),
    HEAD.format(n=4, pattern="edges {1 -> 2}") + "expect uap edges {\n",
])
def test_known_cases_as_lark(monkeypatch, text):
    both(text, monkeypatch)


# -- at real sizes: errors where they are written -------------------------------------------------------

def _long_list(n: int, lines: int, per_line: int = 4) -> list[str]:
    return [", ".join(f"{(k * per_line + c) % n + 1} -> {(k * per_line + c + 1) % n + 1}" for c in range(per_line))
            for k in range(lines)]


def test_a_bad_pair_on_line_40000_is_located():
    rows = _long_list(4096, 50_000)
    top = "tokens 4096\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern edges {\n"
    first_row = top.count("\n") + 1
    bad_line = 40_000
    k = bad_line - first_row
    for bad, word, message in [("17 -> q", "q", "unknown name `q`"), ("17 -> 4097", "4097", "beyond `tokens 4096`"),
                               ("17 => 3", "=", "unexpected"), ("0 -> 3", "0", "at least 1, got 0")]:
        row = rows[k].split(", ")
        row[2] = bad
        changed = rows[:k] + [", ".join(row)] + rows[k + 1:]
        text = top + ",\n".join("    " + r for r in changed) + "\n  }\n}\n"
        start = time.process_time()
        with pytest.raises(UapError) as exc:
            parse_source(text)
        assert time.process_time() - start < 10
        line = "    " + ", ".join(row)
        assert (exc.value.line, exc.value.column) == (bad_line, line.index(bad) + bad.index(word) + 1), bad
        assert message in exc.value.message


def test_a_long_list_is_read_here_and_equals_lark(monkeypatch):
    text = HEAD.format(n=512, pattern="edges {\n" + ",\n".join(_long_list(512, 300)) + "\n}")
    assert len(text) > 3 * edge_lists.FAST_MIN_BYTES
    assert len(edge_lists.find(text)) == 1
    spec = both(text, monkeypatch)
    assert len(spec.heads[0].pattern.edges) == 1200


# -- the size limits -------------------------------------------------------------------------------------

def test_a_list_may_exceed_the_source_limit():
    rows = _long_list(16384, 20_000)
    text = HEAD.format(n=16384, pattern="edges {\n" + ",\n".join(rows) + "\n}")
    assert len(text) > MAX_SOURCE_BYTES
    assert len(parse_source(text).heads[0].pattern.edges) == 80_000


def test_a_list_longer_than_its_length_allows_is_refused_at_its_keyword():
    """At n = 10 no list needs more than 64 bytes for each of its 90 possible arcs: the limit is then the
    ordinary 1,000,000 bytes, told at the `edges` keyword."""
    text = HEAD.format(n=10, pattern="edges {" + ", ".join(["1 -> 2"] * 150_000) + "}")
    with pytest.raises(UapError) as exc:
        parse_source(text)
    assert (exc.value.line, exc.value.column) == (4, 11)
    assert "more than the 1000000 bytes allowed at 10 positions" in exc.value.message
    assert edge_lists.edge_list_limit(10) == MAX_SOURCE_BYTES
    assert edge_lists.edge_list_limit(65536) == edge_lists.MAX_EDGE_LIST_BYTES


def test_the_lists_limit_and_the_source_limit(monkeypatch):
    monkeypatch.setattr(edge_lists, "MAX_EDGE_LIST_BYTES", 50_000)
    lists = ", ".join(["1 -> 2"] * 10_000)  # 80,000 bytes
    with pytest.raises(UapError) as exc:
        parse_source(HEAD.format(n=4, pattern="edges {" + lists + "}"))
    assert "lists of the file are larger than 50000 bytes" in exc.value.message
    assert (exc.value.line, exc.value.column) == (4, 11)
    # outside the lists the ordinary limit holds, and says the lists may hold more
    big_comment = "# " + "x" * MAX_SOURCE_BYTES + "\n"
    with pytest.raises(UapError) as exc:
        parse_source(big_comment + HEAD.format(n=4, pattern="edges {" + ", ".join(["1 -> 2"] * 1000) + "}"))
    assert f"larger than {MAX_SOURCE_BYTES} bytes outside its `edges {{...}}` lists" in exc.value.message
    with pytest.raises(UapError) as exc:
        parse_source(big_comment + HEAD.format(n=4, pattern="window(1)"))
    assert exc.value.message == f"the file is larger than {MAX_SOURCE_BYTES} bytes"


def test_many_short_lists_are_scanned_once():
    """Short `edges {` bodies nested before one `}` are skipped whole: the scan stays linear in the file."""
    group = "edges {" * 585 + "}"
    text = "tokens 4\n" + group * (16_000_000 // len(group))
    start = time.process_time()
    with pytest.raises(UapError) as exc:
        parse_source(text)
    assert time.process_time() - start < 2.5
    assert exc.value.message == f"the file is larger than {MAX_SOURCE_BYTES} bytes"


# -- end to end at 65,536 tokens ----------------------------------------------------------------------

def _edges_of_random_form(n: int) -> str:
    from uapcheck.graphs import build_graph
    spec = parse_source(HEAD.format(n=n, pattern="window(1) + random(2, seed=1)"))
    codes = build_graph(spec.heads[0].pattern, n).all_codes()
    pairs = sorted((c % n + 1, c // n + 1) for c in codes)  # code (j − 1)·n + (i − 1): i attends to j
    rows = [", ".join(f"{i} -> {j}" for i, j in pairs[k:k + 8]) for k in range(0, len(pairs), 8)]
    return HEAD.format(n=n, pattern="edges {\n    " + ",\n    ".join(rows) + "\n  }")


def test_65536_tokens_listed_are_decided_as_the_random_form(tmp_path):
    n = 65536
    path = tmp_path / "listed.uap"
    path.write_text(_edges_of_random_form(n))
    assert path.stat().st_size > 4 * MAX_SOURCE_BYTES
    random_form = tmp_path / "random.uap"
    random_form.write_text(HEAD.format(n=n, pattern="window(1) + random(2, seed=1)"))
    got = []
    for p in (path, random_form):
        r = run("--format", "json", "--no-suggest", "--no-cache", str(p))
        assert r.code == 0, r.stderr
        out = json.loads(r.stdout)
        got.append((out["verdict"], out["group"]["name"], out["layers"], out["least"]))
    assert got[0] == got[1] == ("UAP", "trivial", 14, True)
