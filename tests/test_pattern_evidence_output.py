"""What a pattern step's JSON evidence says (`uapcheck --format json`): a closed form read at a concrete length states
that length as its range, not "for every n" (and its trusted certificate no longer says "for True"); an `edges { … }`
list, up to n·(n − 1) arcs, is written out once, in the pattern step's evidence, and the group step names it there."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import uapcheck
from certificates import certificate_of  # tests/ is on sys.path
from uapcheck.render.jsonout import result_json
from uapcheck.verifier import verify

CATALOG = Path(__file__).resolve().parents[1] / "catalog"


def _json(text: str, name: str = "t.uap") -> dict:
    return json.loads(json.dumps(result_json(uapcheck.check(text, name)), default=str))


def _ranges(out: dict) -> list:
    return [(s["rule"], s["evidence"]["range"]) for s in out["steps"] if "range" in (s.get("evidence") or {})]


@pytest.mark.parametrize("name, n", [("longt5_local_512.uap", 512), ("mistral_sliding_window_32k.uap", 32768)])
def test_a_closed_form_read_at_a_length_states_that_length(name, n):
    out = _json((CATALOG / name).read_text(), name)
    ranges = _ranges(out)
    assert ranges and all(r == f"at n = {n}" for _, r in ranges), ranges
    assert "for True" not in json.dumps(out)


def test_a_closed_form_at_a_symbolic_n_holds_for_every_n():
    out = _json((CATALOG / "longformer.uap").read_text(), "longformer.uap")
    assert ("PAT-CONNECTED", "for every n") in _ranges(out)
    assert "for True" not in json.dumps(out)


def _cycle_with_chords(n: int) -> str:
    arcs = [(i, i % n + 1) for i in range(1, n + 1)] + [(i, (i + 2) % n + 1) for i in range(1, n + 1, 3)]
    body = ", ".join(f"{i} -> {j}" for i, j in arcs)
    return f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern edges {{ {body} }}\n}}\n", body


def test_an_edge_list_is_written_once():
    text, body = _cycle_with_chords(24)
    out = _json(text)
    assert json.dumps(out, ensure_ascii=False).count(body) == 1
    group = next(s for s in out["steps"] if s["rule"] == "SYM-AUT")
    arcs = body.count("->")
    assert group["evidence"]["patterns"] == f"head 1: edges {{{arcs} arcs, listed in PAT-CONNECTED's evidence}}"
    connected = next(s for s in out["steps"] if s["rule"] == "PAT-CONNECTED")
    assert body in connected["evidence"]["patterns"]
    assert verify(certificate_of(text)).ok
