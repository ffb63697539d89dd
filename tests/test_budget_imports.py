"""A budget that runs out while a module is being imported fires once the import has ended (uapcheck/budget.py,
"Imports"): an exception inside a module's top-level code would leave a half-imported package behind (its
submodules and registrations in sys.modules, the package itself missing), and a later import in the same process
could fail. Each case runs in a fresh interpreter, so no test's imports or timers reach another's."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from clirun import REPO

# A package whose import spends CPU time in its second submodule, after the first has registered itself in a module
# outside the package (as SymPy's submodules register their printers and handlers): an exception in the middle of it
# leaves `pkg.first` imported and the registration made, and `pkg` and `pkg.slow` missing.
PACKAGE = {
    "registry.py": "SEEN = []\n",
    "pkg/__init__.py": "from . import first\nfrom .slow import DONE\n",
    "pkg/first.py": "import registry\nregistry.SEEN.append('first')\n",
    "pkg/slow.py": ("import time\n"
                    "start = time.process_time()\n"
                    "while time.process_time() - start < 0.4:\n"
                    "    pass\n"
                    "DONE = True\n"),
}

CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from uapcheck.budget import BudgetExceeded, FileBudgetExceeded, file_budget, time_limit, set_scale
out = {}
try:
    with {budget}:
        import pkg
        out["imported"] = True
        start = time.process_time()
        while time.process_time() - start < 5:  # the budget fires here, after the import
            pass
        out["not fired"] = True
except (FileBudgetExceeded, BudgetExceeded) as exc:
    out["fired"] = type(exc).__name__
import registry
out["pkg"] = "pkg" in sys.modules
out["done"] = getattr(sys.modules.get("pkg.slow"), "DONE", False)
out["registrations"] = list(registry.SEEN)
out["again"] = __import__("pkg").DONE  # a later import in the same process
print(json.dumps(out))
"""


def _run(tmp_path: Path, budget: str, package: dict = PACKAGE) -> dict:
    for name, text in package.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    code = CHILD.replace("{budget}", budget)
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, cwd=REPO,
                       timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_a_file_budget_that_runs_out_inside_an_import_fires_after_it(tmp_path):
    got = _run(tmp_path, "file_budget(0.05)")
    assert got == {"imported": True, "fired": "FileBudgetExceeded", "pkg": True, "done": True,
                   "registrations": ["first"], "again": True}


def test_a_local_budget_that_runs_out_inside_an_import_fires_after_it(tmp_path):
    got = _run(tmp_path, "time_limit('a step', 0.05)")
    assert got == {"imported": True, "fired": "BudgetExceeded", "pkg": True, "done": True,
                   "registrations": ["first"], "again": True}


def test_entering_a_budget_inside_an_import_after_the_deadline_does_not_raise_there(tmp_path):
    """A module whose top-level code enters a budget (`_raise_if_expired`) after the enclosing deadline has passed: the
    import completes and the budget fires after it."""
    package = dict(PACKAGE)
    package["pkg/slow.py"] = PACKAGE["pkg/slow.py"] + (
        "from uapcheck.budget import stage\n"
        "with stage('a step inside the import'):\n"
        "    STEP = True\n")
    got = _run(tmp_path, "file_budget(0.05)", package)
    assert got["imported"] and got["fired"] == "FileBudgetExceeded" and got["pkg"] and got["done"]


def test_the_import_test_sees_the_import_machinery():
    from uapcheck import budget
    assert not budget.in_import(sys._getframe())
