"""Mutation campaign on the certificates of the newest constructs: F179 (blocks_dilated_heads_any_length), F180
(coloured_blocks_jumps_any_length, star_beside_blocks_jumps_any_length), F184 (cyclic_window_dilated_n), F185
(window_strided_param), F169 (llama4_chunked_decoder_any_length, …_256k), split verdicts. Each certified field (numbers,
groups, ranges, witnesses, class lists) changed; every mutant is rejected or named not certified, never verified.

The holes this campaign found, each pinned below: a family theorem block's `theorem`, `parameters` and `instance
parameters` were neither compared nor named (a block labelled F51 for F50's step was silently verified; the label and
the parameters are now compared, the instance parameters named); FFN-DEF2's
`ffn` was not read (a step naming another activation was verified); a verdict-premises block's `verdict` was not
compared with the step's (a block stating NOT-UAP under a UAP step was verified); a TGT-VERDICT with F169's pieces took a
`below_range` beside them unread, and a non-list there ended `uapcheck verify` with an internal error (exit 3) while
the certified statement was read; a PAT-LAYERS step of several heads (F70, F179's file) stated any D beside its count
unread.

Campaign (the sweep below samples it; the full run is recorded here): every number (±1, doubled), text (appended, a
digit changed, n shifted), list (shortened, lengthened, reversed) and flag in the steps' data and certificate blocks
and the file's group, layers and verdict, sampled: 1,350 mutants of the seven certificates; 1,072 rejected, 2 internal errors, 109 named
not certified, 86 descriptive words of a block (`kind`, `reason`, `section`, …), 81 verified before the fixes, each
read: the holes above, and mutants stating the same or less (a commutative operation's arguments reversed, a floor's
offset −2/3 written −1/2, a redundant bound of a class, a later start, a premise left out of a verdict block's
restatement (rejected since: a verdict block lists every premise it is recomputed from), a length's count stated
not least)."""
from __future__ import annotations

import copy
import json
from functools import lru_cache

import pytest
import sympy

from certificates import certificate  # tests/ is on sys.path

from uapcheck.verifier import REJECTED, verify
from uapcheck.verifier.trees import TreeError, decode, decode_condition

LLAMA = "llama4_chunked_decoder_any_length.uap"
STRIDED = "window_strided_param.uap"
FAST = (STRIDED, LLAMA, "llama4_chunked_decoder_256k.uap", "star_beside_blocks_jumps_any_length.uap",
        "coloured_blocks_jumps_any_length.uap")


@lru_cache(maxsize=None)
def _text(name: str) -> str:
    return json.dumps(certificate(name))


def _cert(name: str) -> dict:
    return json.loads(_text(name))


def _index(cert: dict, rule: str) -> int:
    return next(k for k, s in enumerate(cert["steps"]) if s["rule"] == rule)


def _rejected_or_named(report, sid: str, path: str) -> bool:
    step = next(s for s in report.steps if s.id == sid)
    named = any(u == path or u.startswith(path + ".") or u.startswith(path + "[") or path.startswith(u)
                for u in report.unbound)
    return bool(report.problems) or step.outcome == REJECTED or named or step.outcome not in ("verified",)


def test_a_family_theorem_blocks_record_of_the_engine_is_compared_or_named_not_certified():
    """The label and the sizes' reading are compared with the verifier's own match and the input's names
    (tests/test_verifier_family_theorem_label.py); where the engine's own instance check ran is named."""
    cert = _cert(STRIDED)
    report = verify(cert)
    assert report.ok
    for s in cert["steps"]:
        if (s.get("certificate") or {}).get("kind") == "family theorem":
            assert f"{s['id']} certificate.instance parameters" in report.unbound
            for key in ("theorem", "parameters"):
                assert f"{s['id']} certificate.{key}" not in report.unbound
            forged = copy.deepcopy(cert)
            next(f for f in forged["steps"] if f["id"] == s["id"])["certificate"]["theorem"] = "F51"
            assert any(o.id == s["id"] and o.outcome == REJECTED for o in verify(forged, only={s["id"]}).steps)


def test_the_ffn_a_step_names_is_the_inputs():
    cert = _cert(STRIDED)
    k = _index(cert, "FFN-DEF2")
    assert cert["steps"][k]["data"]["ffn"] == "relu" and verify(cert).ok
    cert["steps"][k]["data"]["ffn"] = "gelu"
    report = verify(cert, only={cert["steps"][k]["id"]})
    assert any(s.rule == "FFN-DEF2" and s.outcome == REJECTED for s in report.steps)


@pytest.mark.parametrize("name", [STRIDED, "star_beside_blocks_jumps_any_length.uap"])
def test_the_verdict_a_verdict_premises_block_states_is_the_steps(name):
    cert = _cert(name)
    k = next(k for k, s in enumerate(cert["steps"]) if (s.get("certificate") or {}).get("kind") == "verdict-premises")
    for forged in ("NOT-UAP", "UAP × S_2", None):
        mutant = copy.deepcopy(cert)
        mutant["steps"][k]["certificate"]["verdict"] = forged
        report = verify(mutant, only={mutant["steps"][k]["id"]})
        assert any(s.outcome == REJECTED for s in report.steps), forged


@pytest.mark.parametrize("forged", [5, {"op": "+", "args": [{"sym": "n"}, 1]}])
def test_the_diameter_a_head_layers_step_states_is_its_connectivity_premises(forged):
    """Theorem F179's file: PAT-LAYERS under F70 states D beside the count; F70's check reads the count only, and a D
    of 5 was verified. It is now the PAT-CONNECTED premise's, at every n."""
    cert = _cert("blocks_dilated_heads_any_length.uap")
    k = next(k for k, s in enumerate(cert["steps"])
             if s["rule"] == "PAT-LAYERS" and (s.get("certificate") or {}).get("kind") == "head layers")
    sid = cert["steps"][k]["id"]
    assert next(s for s in verify(cert, only={sid}).steps if s.id == sid).outcome == "verified"
    cert["steps"][k]["data"]["diameter"] = forged
    assert next(s for s in verify(cert, only={sid}).steps if s.id == sid).outcome == REJECTED


@pytest.mark.parametrize("junk", [1, [1], [{"n": 1, "verdict": "UAP"}], "n ≤ 2", {"n": 1}])
def test_lengths_beside_f169s_pieces_are_rejected_never_an_internal_error(junk):
    cert = _cert(LLAMA)
    k = _index(cert, "TGT-VERDICT")
    assert cert["steps"][k]["data"]["below_range"] is None and cert["steps"][k]["data"]["below_pieces"]
    cert["steps"][k]["data"]["below_range"] = junk
    report = verify(cert)
    assert not report.ok and any(s.rule == "TGT-VERDICT" and s.outcome == REJECTED for s in report.steps)


def test_a_statement_read_from_a_malformed_value_is_a_problem_not_a_crash():
    """The certified statement reads the verdict step's lists once every step verified: a class list that is not a
    list (a check that does not read it) is reported, never raised."""
    cert = _cert(LLAMA)
    k = _index(cert, "TGT-VERDICT")
    cert["steps"][k]["data"]["classes"] = 7
    report = verify(cert)  # no exception
    assert report.ok in (True, False)


def _leaves(node, where=()):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, where + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node[:4]):
            yield from _leaves(value, where + (i,))
    else:
        yield where, node


N = sympy.Symbol("n", integer=True, positive=True)


def _same_statement(before, after) -> bool:
    """A closed form in n (an expression tree) changed into one with the same value at every n ≤ 240: the same
    statement (−2/3 inside a floor of n/3 written −1/2, say)."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return False
    for read in (decode, decode_condition):
        try:
            a, b = read(before, {"n": N}), read(after, {"n": N})
            break
        except (TreeError, KeyError, TypeError, ValueError):
            continue
    else:
        return False
    if not isinstance(a, sympy.Basic) or not isinstance(b, sympy.Basic) or (a.free_symbols | b.free_symbols) - {N}:
        return False
    return all(a.subs(N, v) == b.subs(N, v) for v in range(1, 241))


def _path(sid: str, part: str, where: tuple) -> str:
    return f"{sid} {part}" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in where)


# a later start (the range's `from`, or a coefficient in its tree, one more) is a weaker statement, true, not a forgery
WEAKER = {("from", 1)}


@pytest.mark.parametrize("name", FAST)
def test_every_integer_of_a_newest_constructs_step_changed_is_rejected_or_named(name):
    """Every integer in the data and certificate block of the family, layer, group and verdict steps, one more and
    one less, re-checked at that step: rejected, or named not certified; a later start is weaker, true."""
    cert = _cert(name)
    assert verify(cert).ok
    tried = 0
    for k, s in enumerate(cert["steps"]):
        if s["rule"] in ("FFN-DEF2", "LIM-REDUCE", "LIM-EXPPOLY", "WP-POSITIVE", "AN-STRUCT", "TD-KERNEL"):
            continue  # the kernel's steps: tests/test_certificate_mutations*.py
        for part in ("data", "certificate"):
            for where, value in _leaves(s.get(part)):
                if not isinstance(value, int) or isinstance(value, bool):
                    continue
                for delta in (1, -1):
                    if (where[0], delta) in WEAKER:
                        continue
                    mutant = copy.deepcopy(cert)
                    obj = mutant["steps"][k][part]
                    for p in where[:-1]:
                        obj = obj[p]
                    obj[where[-1]] = value + delta
                    report = verify(mutant, only={s["id"]})
                    tried += 1
                    assert _rejected_or_named(report, s["id"], _path(s["id"], part, where)) or _same_statement(
                        s[part][where[0]], mutant["steps"][k][part][where[0]]), \
                        (name, s["rule"], _path(s["id"], part, where), delta)
    assert tried >= 4
