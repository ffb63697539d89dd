"""Certificates of catalog files, derived once per test session (shared by the verifier tests).

Under pytest-xdist the workers of one run share them too: the first worker that builds a catalog file's certificate
writes its text to the run's temporary directory (tests/conftest.py names it), keyed by the file's text and the hash
of uapcheck's source, and the others read it there instead of deriving the file again (a whole-catalog derivation
costs about 85 s of CPU). A reader gets the text: every caller parses its own copy."""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
from functools import cache, lru_cache
from pathlib import Path

import uapcheck
from uapcheck import certfile

from catalog_results import catalog_result, catalog_text

REPO = Path(__file__).resolve().parents[1]


#: The directory the xdist workers of this run share certificates through (None: not shared, one process).
SHARED: dict[str, Path | None] = {"dir": None}


@cache
def _code_hash() -> str:
    """SHA-256 of every file of the uapcheck package (its path and bytes): a certificate is shared between processes
    that run the same code only."""
    root = Path(uapcheck.__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        name = path.relative_to(root).as_posix().encode("utf-8", "surrogateescape")
        data = path.read_bytes()
        h.update(len(name).to_bytes(8, "little") + name + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def _shared_path(name: str) -> Path | None:
    directory = SHARED["dir"]
    if directory is None:
        return None
    key = hashlib.sha256((_code_hash() + "\0" + catalog_text(name)).encode("utf-8")).hexdigest()[:32]
    return directory / f"{name}.{key}.json"


@lru_cache(maxsize=None)
def certificate_text(name: str) -> str:
    path = _shared_path(name)
    if path is not None and path.is_file():
        return path.read_text("utf-8")
    text = json.dumps(certfile.build(catalog_result(name), catalog_text(name)))
    if path is not None:  # written whole under another name, then renamed: a reader never sees a part
        part = path.with_name(f"{path.name}.{os.getpid()}.part")
        try:
            part.write_text(text, "utf-8")
            os.replace(part, path)
        except OSError:  # a full or read-only disk: this worker keeps its own copy, the others derive theirs
            with contextlib.suppress(OSError):
                part.unlink(missing_ok=True)
    return text


def certificate(name: str) -> dict:
    return json.loads(certificate_text(name))


def verified_in_full_by_the_catalog_test(name: str) -> bool:
    """catalog/NAME states a decisive verdict (`expect uap` or `expect not-uap`), so tests/test_verifier.py's catalog
    test verifies every step of its certificate, none trusted or rejected: a test that only needs the unforged
    certificate to pass may rest on that check instead of re-running the whole verifier on it."""
    path = REPO / "catalog" / name
    if not name.endswith(".uap") or not path.is_file():
        return False
    expect = [line.split()[1] for line in path.read_text("utf-8").splitlines() if line.startswith("expect ")]
    return expect[:1] in (["uap"], ["not-uap"])


def certificate_from_cli(text: str, tmp_path, *, no_cache: bool = False) -> dict:
    """The certificate `uapcheck FILE --certificate OUT.json` writes for this text (through the CLI); with
    `no_cache`, derived afresh (`--no-cache`), as a test of an engine change needs."""
    import subprocess
    import sys
    src = tmp_path / "f.uap"
    src.write_text(text)
    out = tmp_path / "f.json"
    cache = ["--no-cache"] if no_cache else []
    subprocess.run([sys.executable, "-m", "uapcheck", *cache, str(src), "--certificate", str(out), "--format", "json"],
                   capture_output=True, check=False, cwd=REPO, timeout=600)
    return json.loads(out.read_text())


def verify_with_cli(cert: dict, tmp_path):
    """`uapcheck verify` run on this certificate (written to a file), as a user runs it: the completed process."""
    import subprocess
    import sys
    path = tmp_path / "verified.json"
    path.write_text(json.dumps(cert))
    return subprocess.run([sys.executable, "-m", "uapcheck", "verify", str(path)], capture_output=True, text=True,
                          cwd=REPO, timeout=600)


def with_text(cert: dict, old: str, new: str) -> dict:
    """A copy of the certificate whose input text has `old` replaced by `new` (which must change it), with the
    text's hash updated: a tampered input the verifier must re-derive and reject, not a broken hash."""
    import copy
    import hashlib
    out = copy.deepcopy(cert)
    text = out["input"]["text"].replace(old, new)
    assert text != out["input"]["text"], f"{old!r} is not in the certificate's text"
    out["input"]["text"] = text
    out["input"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return out


def step_outcome(report, rule: str) -> str:
    """The verifier's outcome for the step of this rule."""
    return next(s.outcome for s in report.steps if s.rule == rule)


def layers_step(cert: dict) -> dict:
    """The certificate's PAT-LAYERS step (the least-layers claim)."""
    return next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")


def forged_class(cert: dict, residue: int, **changes) -> dict:
    """A copy of the certificate whose PAT-LAYERS class of this residue has these fields changed."""
    forged = json.loads(json.dumps(cert))
    for c in layers_step(forged)["certificate"]["classes"]:
        if c["residue"] == residue:
            c.update(changes)
    return forged


def heads_certificate(*patterns: str) -> dict:
    """The certificate of softmax heads, one per pattern, at symbolic n (the several-heads verifier tests)."""
    text = "tokens n\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n" for p in patterns)
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def certificate_of(text: str) -> dict:
    """The certificate of a `.uap` text, through JSON as `--certificate` writes it."""
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def softmax_source(pattern: str, tokens: int | None = None) -> str:
    """One softmax head with this pattern, at `tokens` (symbolic n when None)."""
    head = f"tokens {tokens}\n" if tokens else ""
    return head + f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


def rejects(cert: dict, rule: str) -> bool:
    """The verifier rejects the certificate, at a step of this rule. Only the steps of this rule are re-checked
    (`verify(..., only=...)`, as the mutation tests do): a step's check reads the certificate and the input, never
    another step's outcome, so its outcome is the one a whole verify gives it, at a fraction of the cost."""
    from uapcheck.verifier import REJECTED, verify
    report = verify(cert, only={s["id"] for s in cert["steps"] if s["rule"] == rule})
    return not report.ok and any(s.rule == rule and s.outcome == REJECTED for s in report.steps)


def least_flag_flipped_is_rejected(pattern: str, least: bool) -> bool:
    """One softmax head with this pattern at symbolic n: its PAT-LAYERS step says `least` is `least` (asserted),
    and the certificate with that flag flipped is rejected at PAT-LAYERS."""
    cert = certificate_of(softmax_source(pattern))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is least
    step["data"]["least"] = not least
    return rejects(cert, "PAT-LAYERS")


#: The steps a family theorem concludes (docs/theory.md §11.11): the verifier restates the theorem for each.
FAMILY_RULES = ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT")


def assert_rests_on(cert: dict, theorem: str, rules: tuple = FAMILY_RULES) -> None:
    """At symbolic n: the verifier accepts the certificate, completely, and every step of `rules` rests on `theorem`
    ("Theorem F93")."""
    from uapcheck.verifier import verify
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert all(theorem in s.reason for s in report.steps if s.rule in rules)


def assert_verified_by(cert: dict, theorem: str, rules: tuple = FAMILY_RULES) -> None:
    """At a concrete n: the verifier accepts the certificate and verifies each step of `rules` by `theorem`."""
    from uapcheck.verifier import verify
    report = verify(cert)
    steps = {s.rule: s for s in report.steps}
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert all(steps[r].outcome == "verified" and theorem in steps[r].reason for r in rules)


def forged(cert: dict, rule: str, key: str, value) -> dict:
    """A copy of the certificate with the datum `key` of its `rule` step replaced by `value`."""
    out = json.loads(json.dumps(cert))
    next(s for s in out["steps"] if s["rule"] == rule)["data"][key] = value
    return out


def forged_order_case(cert: dict, residue: int, order: int, claimed: int) -> dict:
    """A copy of the certificate whose SYM-AUT order case at `residue` says `claimed`; asserts the case said `order`."""
    from uapcheck.verifier.trees import encode
    out = json.loads(json.dumps(cert))
    step = next(s for s in out["steps"] if s["rule"] == "SYM-AUT")
    case = next(c for c in step["data"]["order cases"] if c["residue"] == residue)
    assert case["order"] == encode(order)
    case["order"] = encode(claimed)
    return out


def assert_least_layers_verified(cert: dict, layers: int, forged_layers: int) -> None:
    """The certificate's PAT-LAYERS step claims `layers`, least; the verifier verifies its PAT-CONNECTED and PAT-LAYERS
    steps, and rejects at PAT-LAYERS the copy that claims `forged_layers`."""
    from uapcheck.verifier import VERIFIED, verify
    data = layers_step(cert)["data"]
    assert (data["layers"], data["least"]) == (layers, True)
    outcomes = {s.rule: s.outcome for s in verify(cert).steps}
    assert outcomes["PAT-CONNECTED"] == VERIFIED and outcomes["PAT-LAYERS"] == VERIFIED
    assert rejects(forged(cert, "PAT-LAYERS", "layers", forged_layers), "PAT-LAYERS")


def renamed_symbol(tree, old: str, new: str):
    """An encoded formula tree (as certificates carry orders and conditions) with the symbol `old` written `new`."""
    if isinstance(tree, dict):
        return {"sym": new} if tree.get("sym") == old else {k: renamed_symbol(v, old, new) for k, v in tree.items()}
    return [renamed_symbol(v, old, new) for v in tree] if isinstance(tree, list) else tree


def rename_class_orders(step: dict, old: str, new: str) -> None:
    """A by-class group step forged in place: each class's order (in its certificate and in the step's data) with
    the symbol `old` written `new`."""
    for e in step["certificate"]["classes"]:
        e["certificate"]["order"] = renamed_symbol(e["certificate"]["order"], old, new)
    for c in step["data"]["classes"]:
        c["order"] = renamed_symbol(c["order"], old, new)
