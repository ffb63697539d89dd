"""Test-suite options: `nightly` tests (the long fuzzing run, large-n resource runs) run only with
UAPCHECK_NIGHTLY=1. Shared fixtures: `no_graphs` (a derivation that must not build a token graph).
Every test starts with empty per-process caches (uapcheck/memo.py), so no test sees steps or facts an
earlier test derived, perhaps with an engine it had monkeypatched, and with a cache directory of its own
(`private_cache_dir`): no test reads the user's cache or a report an earlier test left in the result cache."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sample_sizes import NIGHTLY  # UAPCHECK_NIGHTLY=1: the nightly tests, and the sweeps' full samples

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    config.addinivalue_line("markers", "nightly: long runs, only with UAPCHECK_NIGHTLY=1")
    config.addinivalue_line("markers", "mpmath_digits(D): mpmath's working precision in the test, D digits")


#: The heaviest single tests, by node id, run only at night (tests/nightly_heavy.txt says why and how it is made).
HEAVY = frozenset(line.strip() for line in (ROOT / "tests" / "nightly_heavy.txt").read_text("utf-8").splitlines()
                  if line.strip() and not line.startswith("#"))


def pytest_collection_modifyitems(config, items):
    if NIGHTLY:
        return
    skip = pytest.mark.skip(reason="nightly: set UAPCHECK_NIGHTLY=1")
    for item in items:
        if "nightly" in item.keywords or item.nodeid in HEAVY:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def mpmath_precision(request):
    """mpmath's working precision: the test's `mpmath_digits(D)` mark (a file's `pytestmark`) sets D digits for the
    test, and the global precision is restored after each test, so a test that sets `mpmath.mp.dps` does not change
    the digits of the tests that run after it in the same worker (a precision set at a file's import would be
    whatever the last imported file set)."""
    import mpmath
    saved = mpmath.mp.prec
    mark = request.node.get_closest_marker("mpmath_digits")
    if mark is not None:
        mpmath.mp.dps = mark.args[0]
    yield
    mpmath.mp.prec = saved


@pytest.fixture(autouse=True)
def empty_caches():
    """The caches of uapcheck/memo.py (a head's kernel premises among them) emptied before and after
    each test: a test that monkeypatches an engine must neither see steps derived without the patch
    nor leave behind steps derived with it."""
    from uapcheck.memo import clear_caches
    clear_caches()
    yield
    clear_caches()


@pytest.fixture(autouse=True)
def caches_follow_patches(monkeypatch):
    """Every `monkeypatch.setattr` empties the per-process caches too (uapcheck/memo.py, among them the token graph's
    connectivity and group kept by graphs/kept_results.py): a test that computes, patches a module's constant or
    function (the route for large graphs, a limit) and computes again must get the patched route's answer, not the
    one kept before the patch, which would make its comparison hold trivially."""
    from uapcheck.memo import clear_caches
    original = pytest.MonkeyPatch.setattr

    def setattr_and_forget(self, *args, **kwargs):
        original(self, *args, **kwargs)
        clear_caches()
    monkeypatch.setattr(pytest.MonkeyPatch, "setattr", setattr_and_forget)


@pytest.fixture(scope="session")
def _warm_cache_files(tmp_path_factory):
    """The parser's tables and the compiled dataclass methods (uapcheck/user_cache.py), made once for the
    session in a temporary directory of its own by one run over a dense and a pattern file."""
    directory = tmp_path_factory.mktemp("uapcheck-cache-warm")
    env = {**os.environ, "UAPCHECK_CACHE_DIR": str(directory), "UAPCHECK_IN_PROCESS": "1"}
    subprocess.run([sys.executable, "-m", "uapcheck", "--no-cache", "--color", "never", "catalog/softmax.uap",
                    "catalog/longformer_16.uap"], cwd=ROOT, env=env, capture_output=True, timeout=600)
    return sorted(p for p in directory.iterdir() if p.is_file())


@pytest.fixture(scope="session", autouse=True)
def _certificates_shared_between_workers(tmp_path_factory):
    """Under pytest-xdist, the catalog's certificates (tests/certificates.py) are built once per run, not once per
    worker: the workers share them through a directory of the run's temporary base (each worker's base is a folder
    of it), keyed by each file's text and uapcheck's source."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    import certificates
    directory = tmp_path_factory.getbasetemp().parent / "catalog-certificates"
    directory.mkdir(exist_ok=True)
    certificates.SHARED["dir"] = directory
    yield
    certificates.SHARED["dir"] = None


@pytest.fixture(autouse=True)
def private_cache_dir(monkeypatch, tmp_path_factory, _warm_cache_files):
    """Every test, and every uapcheck it starts, uses a cache directory of its own (UAPCHECK_CACHE_DIR):
    never the user's, and with no report a former test kept in the result cache (uapcheck/result_cache.py).
    It starts with links to the session's parser tables and dataclass code, so that runs start warm."""
    directory = tmp_path_factory.mktemp("uapcheck-cache")
    for f in _warm_cache_files:
        (directory / f.name).symlink_to(f)
    monkeypatch.setenv("UAPCHECK_CACHE_DIR", str(directory))
    return directory


@pytest.fixture
def no_graphs(monkeypatch):
    """Any token graph built during the test fails it (real sizes are decided by closed forms)."""
    import uapcheck.rules.pattern as pattern_rules

    def refuse(*args, **kwargs):
        raise AssertionError("a token graph was built")
    monkeypatch.setattr(pattern_rules, "build_graph", refuse)
