"""Rule documentation: every rule has a page and a section in docs/theory.md, and the examples of
every page behave as the page says when they are checked.

Semantics of the two examples of a page `uapcheck/rule_docs/ID.md`:
* "Example it proves": the derivation contains a step of rule ID whose status is `proved` or
  `refuted` (the rule reached its conclusion; for a failure class such as LIM-REGVAR that
  conclusion is that (LIM) fails, status `refuted`).
* "Example it rejects": rule ID is absent from the derivation, or every step of it is `undecided`
  or has the opposite status of the proves example.
Rules whose only possible conclusion is `undecided` (they record that something is out of scope)
cannot have a proving example; for them the proves example only has to contain the rule's step.
"""
from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

import uapcheck
import uapcheck.derive  # noqa: F401  (registers every rule)
from uapcheck.proof import PROVED, REFUTED, RULES, UNDECIDED

ROOT = Path(__file__).resolve().parent.parent
THEORY = ROOT / "docs" / "theory.md"

# Rules that never conclude anything but `undecided` (an engine boundary or a missing analysis): the
# statuses each rule declares to the proof kernel.
UNDECIDED_ONLY = {r for r, info in RULES.items() if info.statuses == {UNDECIDED}}
OPPOSITE = {PROVED: REFUTED, REFUTED: PROVED}


def rule_ids() -> list[str]:
    return sorted(r for r in RULES if not r.startswith("TEST-"))


def page_text(rule_id: str) -> str:
    return resources.files("uapcheck").joinpath("rule_docs", f"{rule_id}.md").read_text("utf-8")


def sections(text: str) -> dict[str, str]:
    """`## Heading` → body (up to the next `## ` heading)."""
    out: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            out[current] = ""
        elif current is not None:
            out[current] += line + "\n"
    return out


FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)


def uap_blocks(body: str) -> list[str]:
    blocks = FENCE.findall(body)
    assert all(lang.strip() == "uap" for lang, _ in blocks), "every example block is tagged `uap`"
    return [code for _, code in blocks]


def example(rule_id: str, which: str) -> str:
    body = sections(page_text(rule_id))[f"Example it {which}"]
    (code,) = uap_blocks(body)
    return code


@functools.lru_cache(maxsize=None)
def statuses(text: str, rule_id: str) -> tuple[str, ...]:
    # An example may say "# checked with --budget SECONDS" (the BUDGET rule's example runs it out).
    budget = re.search(r"^# checked with --budget (\S+)", text, re.M)
    from uapcheck.derive import check_spec
    from uapcheck.parse import parse_source
    result = check_spec(parse_source(text, "example.uap"), float(budget.group(1)) if budget else None)
    return tuple(s.status for s in result.root.walk() if s.rule == rule_id)


# -- coverage ---------------------------------------------------------------------------------

def test_the_rule_registry_is_populated():
    assert "LIM-EXPPOLY" in RULES and len(rule_ids()) >= 20


@pytest.mark.parametrize("rule_id", rule_ids())
def test_every_rule_has_a_page_with_the_required_sections(rule_id):
    text = page_text(rule_id)
    first = text.splitlines()[0]
    assert first.startswith(f"# {rule_id}: "), first
    secs = sections(text)
    for name in ("What it checks", "Why it is sound", "Source", "Example it proves", "Example it rejects"):
        assert name in secs and secs[name].strip(), f"{rule_id}: section `{name}` is missing or empty"
    for which in ("proves", "rejects"):
        assert len(uap_blocks(secs[f"Example it {which}"])) == 1, \
            f"{rule_id}: `Example it {which}` needs exactly one ```uap block"


@pytest.mark.parametrize("rule_id", rule_ids())
def test_every_rule_has_a_section_in_the_theory(rule_id):
    """A heading containing the id; a kernel class rule (limit.CLASS_RULES) may instead rest on §6.5, whose
    heading names the family `LIM-*`: its argument is the shared one and its page states the class."""
    from uapcheck.rules.limit import CLASS_RULES
    headings = [line for line in THEORY.read_text("utf-8").splitlines() if line.startswith("#")]
    ids = [rule_id] + (["LIM-*"] if rule_id in CLASS_RULES else [])
    assert any(re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", h) for i in ids for h in headings), \
        f"docs/theory.md has no heading containing {rule_id}"


def test_no_page_for_an_unknown_rule():
    pages = {p.name[:-3] for p in resources.files("uapcheck").joinpath("rule_docs").iterdir()
             if p.name.endswith(".md")}
    assert pages <= set(rule_ids()), sorted(pages - set(rule_ids()))


# -- the examples behave as documented ----------------------------------------------------------

@pytest.mark.parametrize("rule_id", rule_ids())
def test_the_proves_example_reaches_the_rules_conclusion(rule_id):
    got = statuses(example(rule_id, "proves"), rule_id)
    assert got, f"{rule_id}: the proves example has no step of this rule"
    if rule_id in UNDECIDED_ONLY:
        assert set(got) == {UNDECIDED}
    else:
        assert set(got) & {PROVED, REFUTED}, f"{rule_id}: statuses {got}"


@pytest.mark.parametrize("rule_id", rule_ids())
def test_the_rejects_example_does_not(rule_id):
    proves = set(statuses(example(rule_id, "proves"), rule_id)) & {PROVED, REFUTED}
    allowed = {UNDECIDED} | {OPPOSITE[s] for s in proves}
    if rule_id in UNDECIDED_ONLY:
        allowed = set()  # the step itself must be absent
    got = statuses(example(rule_id, "rejects"), rule_id)
    assert set(got) <= allowed, f"{rule_id}: statuses {got} in the rejects example"


def test_the_examples_are_complete_files_without_expectations():
    for rule_id in rule_ids():
        for which in ("proves", "rejects"):
            code = example(rule_id, which)
            assert "attention" in code or "convolution" in code  # a token mixer: heads or a convolution
            assert not re.search(r"^\s*expect\b", code, re.M), f"{rule_id}: {which} example has `expect`"


# -- uapcheck --explain -------------------------------------------------------------------------

def _explain(rule_id: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1", COLUMNS="300", PYTHONPATH=str(ROOT) + os.pathsep +
               os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "uapcheck", "--explain", rule_id], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_explain_prints_the_page():
    proc = _explain("LIM-EXPPOLY")
    assert proc.returncode == 0, proc.stderr
    flat = " ".join(proc.stdout.split())
    assert f"LIM-EXPPOLY: {RULES['LIM-EXPPOLY'].title}" in flat
    assert "Why it is sound" in flat


def test_explain_an_unknown_rule_is_an_input_error():
    proc = _explain("NO-SUCH-RULE")
    assert proc.returncode == 2
    assert "unknown rule" in proc.stderr
