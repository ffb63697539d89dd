"""Refusals by name and suggested fixes for common slips (docs/language.md §10). No message shows a
name that exists only inside the grammar."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import uapcheck
from uapcheck.errors import UapError
from uapcheck.parse import parse_source, parser

ROOT = Path(__file__).resolve().parent.parent
K = "attention {{ kernel k(x, y) = {} }}"


def _error(text: str) -> UapError:
    with pytest.raises(UapError) as err:
        parse_source(text)
    return err.value


@pytest.mark.parametrize("text, words", [
    ("attention { kernel k(x, y) = exp(x . y); pattern lsh(64) }", ["Reformer", "data-dependent sparsity"]),
    ("attention { kernel k(x, y) = exp(x . y); pattern reformer }", ["Reformer", "data-dependent"]),
    ("attention { kernel k(x, y) = exp(x . y); pattern routing(8) }", ["routing attention", "k-means"]),
    ("attention { kernel k(x, y) = exp(x . y); nystrom landmarks 64 segment means }",
     ["Nyströmformer", "data-dependent Nyström landmarks"]),
    ("attention { kernel k(x, y) = exp(x . y); nystrom landmarks 64 from data }", ["Nyströmformer"]),
    ("layernorm\nattention { kernel k(x, y) = exp(x . y) }", ["normalisation layers", "Definition 2"]),
    ("attention { kernel k(x, y) = exp(x . y); rmsnorm }", ["normalisation layers"]),
    ("attention { kernel k(x, y) = exp(x . y) }\nnorm pre", ["normalisation layers"]),
])
def test_refusals_name_the_construct_and_why(text, words):
    message = _error(text).message
    for w in words:
        assert w in message


def test_refusals_exit_2(tmp_path):
    import subprocess
    import sys
    f = tmp_path / "lsh.uap"
    f.write_text("attention { kernel k(x, y) = exp(x . y); pattern lsh(64) }\n")
    run = subprocess.run([sys.executable, "-m", "uapcheck", str(f)], capture_output=True, text=True)
    assert run.returncode == 2 and "Reformer" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("expr, suggestion", [
    ("softmax(x . y)", "kernel k(x, y) = exp(x . y)"),
    ("exp(dot(x, y))", "`x . y`"),
    ("exp(x @ y)", "`x . y`"),
    ("exp(x^T y)", "`x . y`"),
    ("exp(x^T * y)", "`x . y`"),
    ("exp(inner(x, y))", "`x . y`"),
    ("exp(-norm(x - y))", "`|x|`"),
])
def test_slips_suggest_the_right_form(expr, suggestion):
    assert suggestion in _error(K.format(expr)).message


def test_softmax_written_as_a_head_item():
    assert "kernel k(x, y) = exp(x . y)" in _error("attention { softmax(q . k) }").message


def test_the_printed_inner_product_parses_back():
    a = parse_source(K.format("exp(x · y)")).heads[0].expr
    b = parse_source(K.format("exp(x . y)")).heads[0].expr
    assert a == b
    assert parse_source(K.format("exp(x ⋅ y)")).heads[0].expr == b
    assert uapcheck.check(K.format("exp(x · y)")).verdict == "UAP"


@pytest.mark.parametrize("text, guess", [
    ("attention { kernal k(x, y) = exp(x . y) }", "kernel"),
    ("attention { kernel k(x, y) = exp(x . y); pattern windw(3) }", "window"),
    ("attention { kernel k(x, y) = exp(x . y); pattern causl }", "causal"),
    ("attention { kernel k(x, y) = exp(x . y); pattern glbal(2) }", "global"),
    ("attention { kernel k(x, y) = exp(x . y) }\nexpect uap grop S_n", "group"),
    ("attention { kernel k(x, y) = exp(x . y) }\nexpect uapp", "uap"),
    ("architecure \"x\"\nattention { kernel k(x, y) = exp(x . y) }", "architecture"),
    ("attention { kernel k(x, y) = exp(x . y); patern causal }", "pattern"),
    ("attention { kernel k(x, y) = exp(x . y) }\nffn rleu", None),
    (K.format("exq(x . y)"), "exp"),
])
def test_did_you_mean(text, guess):
    message = _error(text).message
    if guess is None:
        assert "unknown activation" in message
    else:
        assert f"did you mean `{guess}`" in message


def _internal_names() -> set[str]:
    p = parser()
    names = {t.name for t in p.terminals if t.name not in ("NAME",)}
    names |= {r.origin.name for r in p.rules}
    return {n for n in names if len(n) > 2}


def _bad_inputs():
    yield from ("expect", "expect maybe", "attention {", "attention { kernel }", "tokens", "param x >",
                "attention { kernel k(x, y) = }", "attention { pattern window( }",
                "attention { kernel k(x, y) = exp(x . y) }\nexpect uap group", "ffn", "dim -",
                "attention { kernel k(x, y) = exp(x . y); bias buckets( }", "attention { heads 8 kv }")
    for f in sorted((ROOT / "catalog").glob("*.uap"))[:40]:
        text = f.read_text()
        for cut in range(5, len(text), max(7, len(text) // 12)):
            yield text[:cut]


def test_no_grammar_internal_name_in_any_message():
    internal = _internal_names()
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, internal), key=len, reverse=True)) + r")\b")
    for text in _bad_inputs():
        try:
            parse_source(text)
        except UapError as err:
            hit = pattern.search(err.message)
            # lowercase rule names that are also keywords (e.g. `pattern`, `layers`) appear quoted
            if hit and not re.search(r"['`]" + re.escape(hit.group(1)) + r"['`]", err.message):
                assert hit.group(1).lower() == hit.group(1) and hit.group(1) in err.message.lower(), \
                    (text, err.message)
                assert hit.group(1).isupper() is False, (text, err.message)
