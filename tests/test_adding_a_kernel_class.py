"""CONTRIBUTING.md's walk-through holds: a kernel class rule is added by its rule entry (in
uapcheck/rules/limit.py), its page uapcheck/rule_docs/ID.md and its test, and nothing else.

The test copies the package to a temporary folder, makes exactly those edits there (a class
LIM-ZZEXAMPLE for kernels written with cosh, chosen before the others), and checks in fresh processes
that the rule registry has it, `uapcheck --explain` prints its page, a derivation uses it, and the
documentation tests (tests/test_explain.py: the page's sections, the theory section, both examples)
pass for it against this repository's unchanged docs/theory.md.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULE = "LIM-ZZEXAMPLE"

PAGE = f"""# {RULE}: An example class: kernels written with cosh

## What it checks
Condition (LIM) for a kernel written with cosh, by the shared argument of the kernel class rules.

## Why it is sound
The class only names the argument of docs/theory.md §6.5: the step is concluded from the region
results and their certificate, whatever the class.

## Source
Derived in this project (a test of the contributor walk-through).

## Example it proves
```uap
attention {{ kernel k(x, y) = cosh(x . y) }}
```

## Example it rejects
```uap
attention {{ kernel k(x, y) = exp(x . y) }}
```
"""

ENTRY = (f'    "{RULE}": _make("{RULE}", "An example class: kernels written with cosh", "cosh class"),\n'
         '    "LIM-UNDECIDED": _make(')
BRANCH = ("def _classify(results: list[RegionResult], model: KernelModel) -> str:\n"
          "    if isinstance(model, ClosedKernel) and model.scaled.has(sympy.cosh) and "
          "all(r.status.holds for r in results):\n"
          f'        return "{RULE}"\n')


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    """A copy of the package with the walk-through's edits: one rule entry and branch, one page."""
    top = tmp_path_factory.mktemp("walkthrough")
    shutil.copytree(ROOT / "uapcheck", top / "uapcheck", ignore=shutil.ignore_patterns("__pycache__"))
    limit = top / "uapcheck" / "rules" / "limit.py"
    text = limit.read_text("utf-8")
    head = "def _classify(results: list[RegionResult], model: KernelModel) -> str:\n"
    assert text.count('    "LIM-UNDECIDED": _make(') == 1 and text.count(head) == 1
    limit.write_text(text.replace('    "LIM-UNDECIDED": _make(', ENTRY).replace(head, BRANCH), "utf-8")
    (top / "uapcheck" / "rule_docs" / f"{RULE}.md").write_text(PAGE, "utf-8")
    return top


def _run(package: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NO_COLOR", "TERM", "COLUMNS")}
    env.update(PYTHONPATH=str(package), PYTHONIOENCODING="utf-8", NO_COLOR="1", TERM="dumb", COLUMNS="100",
               PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=package, env=env, timeout=600)


def test_the_registry_and_a_derivation_pick_up_the_new_class(package):
    proc = _run(package, "-c",
                "import uapcheck, uapcheck.derive\n"
                "from uapcheck.proof import RULES\n"
                f"assert uapcheck.__file__.startswith({str(package)!r}), uapcheck.__file__\n"
                f"print(RULES[{RULE!r}].title)\n"
                "r = uapcheck.check('attention { kernel k(x, y) = cosh(x . y) }\\n')\n"
                f"print([s.status.value for s in r.root.walk() if s.rule == {RULE!r}], r.verdict)\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["An example class: kernels written with cosh", "['proved'] UAP"]


def test_explain_prints_the_new_page(package):
    proc = _run(package, "-m", "uapcheck", "--explain", RULE)
    assert proc.returncode == 0, proc.stderr
    assert "An example class: kernels written with cosh" in proc.stdout
    assert "the shared argument of the kernel class rules" in proc.stdout


def test_the_documentation_tests_pass_for_the_new_class_without_editing_theory(package):
    """tests/test_explain.py against the copy: the page, the theory section (§6.5 covers every class
    rule) and the two examples, for the new rule id."""
    proc = _run(package, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "tests" / "test_explain.py"),
                "-k", RULE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    passed = re.search(r"(\d+) passed", proc.stdout)
    assert passed and int(passed.group(1)) >= 4 and "failed" not in proc.stdout, proc.stdout
