"""`uapcheck FILE --certificate OUT.json` and `uapcheck verify OUT.json`: the independent verifier
re-checks every step of the catalog's UAP and NOT-UAP verdicts, imports no engine module, rejects
tampered certificates naming the step, and reports unreadable certificates as input errors."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from uapcheck import certfile
from uapcheck.verifier import NUMERIC, REJECTED, VERIFIED, Malformed, verify

REPO = Path(__file__).resolve().parents[1]
CATALOG = sorted((REPO / "catalog").glob("*.uap"))
ENGINES = ("uapcheck.rules", "uapcheck.derive", "uapcheck.proof", "uapcheck.asymptotics", "uapcheck.lower",
           "uapcheck.graphs", "uapcheck.certfile", "uapcheck.render", "uapcheck.budget")
ALLOWED = {"uapcheck.spec", "uapcheck.parse", "uapcheck.errors"}


from certificates import certificate, certificate_text  # noqa: E402


def _verdict(path: Path) -> str:
    for line in path.read_text("utf-8").splitlines():
        if line.startswith("expect "):
            return line.split()[1]
    return ""


DECISIVE = [p.name for p in CATALOG if _verdict(p) in ("uap", "not-uap")]
# Every decisive catalog verdict (UAP or NOT-UAP) is re-checked in full: each step verified or checked
# numerically (the done criterion of docs/theory.md §18), the family theorems at symbolic n (§11.11), the
# per-layer patterns (§21), the convolution mixer (§22) and the kernel routes of §20 included.
FULLY_REVERIFIED = set(DECISIVE)


# ---------------------------------------------------------------------------------------------
# The import boundary

def test_the_verifier_imports_no_engine_module():
    code = ("import json, sys\n"
            "from uapcheck.verifier import verify\n"
            "r = verify(json.loads(sys.stdin.read()))\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('uapcheck'))))\n")
    p = subprocess.run([sys.executable, "-c", code], input=certificate_text("bigbird.uap"), capture_output=True,
                       text=True, cwd=REPO, timeout=300)
    assert p.returncode == 0, p.stderr
    loaded = json.loads(p.stdout)
    assert "uapcheck.verifier.rules_graph" in loaded  # the graph checks did run
    assert [m for m in loaded if m.startswith(ENGINES)] == []


def test_the_verifier_source_imports_only_the_parser_from_uapcheck():
    for path in sorted((REPO / "uapcheck" / "verifier").glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level == 0:
                    mod = node.module or ""
                elif node.level == 1:
                    mod = "uapcheck.verifier" + (f".{node.module}" if node.module else "")
                else:
                    mod = "uapcheck" + (f".{node.module}" if node.module else "")
                names = [mod] if node.module else [f"{mod}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                if name.startswith("uapcheck") and not name.startswith("uapcheck.verifier"):
                    assert name in ALLOWED, f"{path.name} imports {name}"


# ---------------------------------------------------------------------------------------------
# The catalog

@pytest.mark.parametrize("name", DECISIVE)
def test_no_step_of_a_decisive_catalog_verdict_is_trusted(name):
    """The done criterion: every step of every UAP and NOT-UAP verdict of the catalog is verified or
    checked numerically (with the reason), nothing is trusted or rejected."""
    report = verify(certificate(name))
    assert report.problems == []
    for s in report.steps:
        assert s.reason  # every outcome names its reason
        if s.outcome == NUMERIC:
            assert "digits" in s.reason
    assert [(s.id, s.rule, s.outcome, s.reason) for s in report.steps if s.outcome not in (VERIFIED, NUMERIC)] == []
    assert report.ok and report.complete


def test_the_catalog_has_decisive_verdicts_at_every_scale():
    # symbolic n, n above the arc limit (4,096 and 32,768), causal targets, positions in the weights
    for name in ("cyclic_window.uap", "mistral_7b.uap", "bigbird_itc.uap", "causal_decoder.uap", "rope.uap"):
        assert name in DECISIVE


def test_transcendental_classes_are_checked_numerically_with_the_reason():
    report = verify(certificate("sigmoid.uap"))
    lim = [s for s in report.steps if s.rule == "LIM-REGION"][0]
    assert lim.outcome == NUMERIC and "not a polynomial" in lim.reason and "50 digits" in lim.reason
    exact = [s for s in verify(certificate("softmax.uap")).steps if s.rule == "LIM-EXPPOLY"][0]
    assert exact.outcome == VERIFIED and "exact" in exact.reason


# ---------------------------------------------------------------------------------------------
# Tampering

def _rejected(cert) -> list:
    report = verify(cert)
    assert not report.ok
    return report.problems + [f"{s.id} {s.rule}: {s.reason}" for s in report.steps if s.outcome == REJECTED]


def _step(cert, rule):
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_a_changed_hash_or_input_is_rejected():
    cert = certificate("softmax.uap")
    cert["input"]["sha256"] = "0" * 64
    assert any("hash" in p for p in _rejected(cert))
    cert = certificate("softmax.uap")
    cert["input"]["text"] = cert["input"]["text"].replace("exp(x . y)", "exp(x . y) + 1")
    assert any("hash" in p for p in _rejected(cert))


def test_a_dropped_arc_is_rejected():
    cert = certificate("bigbird.uap")
    cert["patterns"]["heads"][0]["arcs"].pop(17)
    assert any("arcs differ" in p for p in _rejected(cert))


def test_a_moved_witness_coordinate_names_the_step():
    cert = certificate("softmax.uap")
    lim = _step(cert, "LIM-EXPPOLY")
    lim["data"]["regions"][0]["points"][0]["z2"] = [3]
    problems = _rejected(cert)
    assert any(p.startswith(f"{lim['id']} LIM-EXPPOLY") and "witness points" in p for p in problems)
    # the printed evidence moved with it: then the exact coefficient no longer matches
    cert = certificate("softmax.uap")
    lim = _step(cert, "LIM-EXPPOLY")
    lim["data"]["regions"][0]["points"][0]["z2"] = [3]
    lim["evidence"]["all invariants"]["witness"]["points"][0]["z2"] = [3]
    assert any(p.startswith(f"{lim['id']} LIM-EXPPOLY") and "coefficient" in p for p in _rejected(cert))


def test_a_generator_that_is_not_a_symmetry_is_rejected():
    cert = certificate("two_heads.uap")
    aut = _step(cert, "SYM-AUT")
    g = aut["data"]["generators"][0]
    g[0], g[1] = g[1], g[0]
    assert any("SYM-AUT" in p for p in _rejected(cert))


def test_a_wrong_distance_or_view_witness_is_rejected():
    cert = certificate("bigbird.uap")
    conn = _step(cert, "PAT-CONNECTED")
    conn["data"]["distances"]["1"][5] += 1
    assert any("PAT-CONNECTED" in p for p in _rejected(cert))
    cert = certificate("bigbird.uap")
    lay = _step(cert, "PAT-LAYERS")
    lay["data"]["view witness"]["position"] = 3
    assert any("PAT-LAYERS" in p for p in _rejected(cert))


def test_a_status_or_verdict_flip_is_rejected():
    cert = certificate("attention_only.uap")  # INCONCLUSIVE: no FFN
    _step(cert, "FFN-DEF2")["status"] = "proved"
    assert any("FFN-DEF2" in p for p in _rejected(cert))
    cert = certificate("cosine.uap")
    cert["verdict"] = "UAP"
    assert any(p.startswith("verdict") for p in _rejected(cert))


def _names_step(cert, rule) -> bool:
    return any(rule in p for p in _rejected(cert))


def test_a_changed_receptive_radius_or_class_is_rejected():
    for name in ("causal_window_decoder.uap", "dilated.uap"):
        cert = certificate(name)
        rec = _step(cert, "TGT-RECEPTIVE")
        rec["data"]["radius"] = {"op": "+", "args": [1, rec["data"]["radius"]]}
        assert _names_step(cert, "TGT-RECEPTIVE")
    cert = certificate("blocks.uap")
    _step(cert, "TGT-RECEPTIVE")["data"]["target"] = "causal"
    assert _names_step(cert, "TGT-RECEPTIVE")


def test_a_changed_target_layer_count_is_rejected():
    for name, rule in (("causal_decoder.uap", "TGT-LAYERS"), ("strided.uap", "TGT-LAYERS"), ("causal.uap", "TGT-ALTERNATIVE")):
        cert = certificate(name)
        step = _step(cert, rule)
        step["data"]["layers"] = {"op": "+", "args": [-1, step["data"]["layers"]]}
        assert _names_step(cert, rule), name
    cert = certificate("causal_decoder.uap")
    cert["verdict"] = "INCONCLUSIVE"
    _step(cert, "TGT-VERDICT")["data"]["verdict"] = "INCONCLUSIVE"
    assert _names_step(cert, "TGT-VERDICT")


def test_a_receptive_count_claimed_least_is_rederived_with_nauty():
    # dilated.uap: four lines P_8^2, r = 4 layers are the least (Theorem F68); 5 claimed least is rejected
    cert = certificate("dilated.uap")
    lay = _step(cert, "TGT-LAYERS")
    assert lay["data"]["least"] is True and lay["data"]["layers"] == 4
    lay["data"]["layers"] = 5
    assert _names_step(cert, "TGT-LAYERS")
    cert = certificate("blocks.uap")
    _step(cert, "TGT-LAYERS")["data"]["least"] = False  # 1 layer not shown least is not r + 1
    assert _names_step(cert, "TGT-LAYERS")


def test_large_n_pattern_facts_are_rechecked():
    cert = certificate("mistral_7b.uap")  # n = 32,768
    _step(cert, "PAT-DISCONNECTED")["data"]["j"] = 1
    _step(cert, "PAT-DISCONNECTED")["evidence"]["witness"]["j"] = 1
    assert _names_step(cert, "PAT-DISCONNECTED")
    cert = certificate("longformer_4096.uap")
    _step(cert, "PAT-CONNECTED")["data"]["diameter"] = 3
    assert _names_step(cert, "PAT-CONNECTED")
    cert = certificate("longformer_4096.uap")
    lay = _step(cert, "PAT-LAYERS")
    lay["data"]["view witness"]["position"] = 7  # within distance 1 of the swapped positions 5, 6
    lay["evidence"]["view witness"]["position"] = 7
    assert _names_step(cert, "PAT-LAYERS")
    cert = certificate("longformer_4096.uap")
    _step(cert, "SYM-AUT")["data"]["order"] = 96
    assert _names_step(cert, "SYM-AUT")
    cert = certificate("bigbird_itc.uap")
    order = _step(cert, "SYM-AUT")["data"]["order"]
    order["args"][0] = 2
    assert _names_step(cert, "SYM-AUT")


def test_a_causal_positions_step_names_a_head_that_separates():
    cert = certificate("alibi_decoder.uap")
    pos = _step(cert, "TGT-POSITIONS")
    assert verify(cert).ok
    pos["data"]["separating"] = 2  # the family has one head
    assert _names_step(cert, "TGT-POSITIONS")
    cert = certificate("rope_decoder.uap")
    lay = _step(cert, "TGT-LAYERS")
    lay["data"]["layers"] = 2
    assert _names_step(cert, "TGT-LAYERS")


def test_position_and_head_steps_are_rechecked():
    cert = certificate("alibi.uap")
    _step(cert, "POS-OFFSET")["data"]["class"] = "symmetric"
    assert _names_step(cert, "POS-OFFSET")
    for name, rule in (("rope.uap", "TD-ROTARY"), ("t5_buckets_short.uap", "TD-BUCKETS"), ("gqa.uap", "HEADS-SHARED"),
                       ("differential.uap", "HEADS-DIFF"), ("fixed_position_bias.uap", "TD-FIXEDBIAS")):
        cert = certificate(name)
        _step(cert, rule)["status"] = "refuted"
        assert _names_step(cert, rule), name
    cert = certificate("rope.uap")
    _step(cert, "SYM-DENSE")["data"]["group"] = "S_n"
    cert["group"]["name"] = "S_n"
    assert _names_step(cert, "SYM-DENSE")


def test_offset_functions_are_classified_by_the_verifier():
    from uapcheck.parse import parse_source
    from uapcheck.verifier import rules_positions
    from uapcheck.verifier.check import Reject

    def spec(bias):
        return parse_source(f"tokens 6\nattention {{\n  kernel k(x, y) = exp(x . y)\n  bias b(i, j) = {bias}\n}}\n", "t.uap")
    s = spec("(j - i) ^ 2")  # an even polynomial in |m| with coefficients of one sign: exact
    assert rules_positions.offset_class(s, s.heads[0])[:2] == ("symmetric", VERIFIED)
    s = spec("log(1 + |j - i|)")  # transcendental: compared at 60 digits
    assert rules_positions.offset_class(s, s.heads[0])[:2] == ("symmetric", NUMERIC)
    s = spec("(j - i) ^ 2 - 3 * |j - i|")  # coefficients of both signs: not monotone, numeric (0 and 3 collide)
    with pytest.raises(Reject):
        rules_positions.offset_class(s, s.heads[0])
    s = spec("3 * (j - i)")
    assert rules_positions.offset_class(s, s.heads[0])[:2] == ("injective", VERIFIED)
    s = spec("cos(pi * (j - i))")  # h(m) = cos(πm) − 1 takes two values only
    with pytest.raises(Reject):
        rules_positions.offset_class(s, s.heads[0])
    s = spec("i * j")  # not a function of j − i
    with pytest.raises(Reject):
        rules_positions.offset_function(s, s.heads[0])


def test_malformed_certificates_are_input_errors():
    for bad in ([], {"schema": "uapcheck-certificate/9"}, {"schema": certfile.SCHEMA}):
        with pytest.raises(Malformed):
            verify(bad)


# ---------------------------------------------------------------------------------------------
# The command line

def run(*args, **kw):
    return subprocess.run([sys.executable, "-m", "uapcheck", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=300, **kw)


def test_certificate_then_verify_on_the_command_line(tmp_path):
    out = tmp_path / "two_heads.json"
    p = run("catalog/two_heads.uap", "--certificate", str(out))
    assert p.returncode == 0, p.stderr
    cert = json.loads(out.read_text("utf-8"))
    assert cert["schema"] == "uapcheck-certificate/1" and cert["input"]["sha256"] == certfile.source_hash(
        (REPO / "catalog" / "two_heads.uap").read_text("utf-8"))
    p = run("verify", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "OK: UAP re-checked" in p.stdout and "PAT-LAYERS" in p.stdout
    cert["input"]["sha256"] = "f" * 64
    out.write_text(json.dumps(cert), "utf-8")
    p = run("verify", str(out))
    assert p.returncode == 1 and "REJECTED: input: the SHA-256 hash" in p.stdout


def test_verify_reports_unreadable_certificates_in_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", "utf-8")
    p = run("verify", str(bad), str(tmp_path / "missing.json"))
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 2 and "not a JSON certificate" in lines[0] and "cannot read" in lines[1]
    assert "Traceback" not in p.stderr


def test_verify_given_a_uap_file_says_how_to_write_its_certificate():
    p = run("verify", "catalog/softmax.uap")
    assert p.returncode == 2
    assert p.stderr.count("\n") == 1 and "this is a .uap file, not a certificate" in p.stderr
    assert "uapcheck --certificate OUT.json FILE.uap" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("target", ["missing-dir/x.json", "/dev/full"])
def test_an_unwritable_certificate_path_is_one_line_and_exit_2(tmp_path, target):
    if target == "/dev/full" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    out = target if target.startswith("/") else str(tmp_path / target)
    p = run("catalog/softmax.uap", "--certificate", out)
    assert p.returncode == 2
    assert p.stderr.strip().count("\n") == 0 and "cannot write the certificate" in p.stderr
    assert "Traceback" not in p.stderr


def test_certificate_takes_one_input(tmp_path):
    p = run("catalog/softmax.uap", "catalog/rbf.uap", "--certificate", str(tmp_path / "x.json"))
    assert p.returncode == 2 and "exactly one input" in p.stderr


def test_a_rooted_view_witness_on_more_than_64_positions_is_certified_in_full():
    """The evidence of a long view witness lists at most 64 moved points; the certificate file takes σ
    from the step's certificate (this file, found by a random audit, was an internal error and then a
    rejected certificate: "the view witness is not a permutation of 1..n")."""
    import uapcheck
    text = ("tokens 160\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern offsets {1, 4} cyclic + dilated(2, 2)\n}\n"
            "attention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(2) + offsets {1, 3} cyclic + strided(4)\n}\n")
    result = uapcheck.check(text, "audit.uap")
    assert result.verdict == "UAP"
    lay = next(s for s in result.root.walk() if s.rule == "PAT-LAYERS")
    assert lay.evidence["least"] and "permutation (moved points)" in lay.evidence["view witness"]
    cert = json.loads(json.dumps(certfile.build(result, text)))
    perm = _step(cert, "PAT-LAYERS")["data"]["view witness"]["permutation"]
    assert sorted(perm) == list(range(1, 161))
    report = verify(cert)
    assert report.problems == [] and report.ok and report.complete
