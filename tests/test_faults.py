"""Faults around a run (issue 15 "Faults", issue 14 "Faults"): unreadable inputs, closed or failing
standard streams, Ctrl-C, odd terminals and encodings, control bytes in the input. Each ends in a
one-line message or a report, with a documented exit code, never a traceback."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from clirun import REPO, env, run

SOFTMAX = str(REPO / "catalog" / "softmax.uap")
HEADLINE = "UAP · G = S_n · 1 attention layer"
FORMATS = ("text", "json", "markdown", "latex")


def _no_traceback(r) -> None:
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout


def test_unreadable_file_is_a_one_line_error(tmp_path):
    # A path below a regular file cannot be opened, even by root (ENOTDIR).
    (tmp_path / "plain").write_text("x")
    r = run(str(tmp_path / "plain" / "a.uap"))
    assert r.code == 2
    assert r.stderr.strip().splitlines() == [f"{tmp_path / 'plain' / 'a.uap'}: error: cannot read the file: Not a directory"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files without read permission")
def test_file_without_read_permission(tmp_path):
    f = tmp_path / "secret.uap"
    f.write_text("attention { kernel k(x, y) = exp(x . y) }\n")
    f.chmod(0)
    r = run(str(f))
    assert r.code == 2 and "cannot read the file: Permission denied" in r.stderr


def test_read_error_in_json_has_line_and_column_zero(tmp_path):
    r = run("--format", "json", str(tmp_path / "missing.uap"))
    assert r.code == 2
    obj = json.loads(r.stdout)
    assert obj["error"] == {"line": 0, "column": 0, "message": "cannot read the file: No such file or directory"}


def test_directory_without_uap_files(tmp_path):
    (tmp_path / "notes.txt").write_text("no .uap here")
    r = run(str(tmp_path))
    assert r.code == 2
    assert r.stderr.strip() == f"{tmp_path}: error: no .uap files in this directory"


def test_directory_without_uap_files_does_not_hide_the_others(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run(str(empty), SOFTMAX)
    assert r.code == 2 and HEADLINE in r.stdout and "no .uap files" in r.stderr


def test_stdin_closed():
    p = subprocess.run(f"{sys.executable} -m uapcheck - <&-", shell=True, capture_output=True, cwd=REPO,
                       env=env(), timeout=120)
    assert p.returncode == 2
    assert p.stderr.decode().strip() == "<stdin>: error: cannot read standard input: it is closed"


@pytest.mark.parametrize("fmt", FORMATS)
def test_stdout_closed(fmt):
    p = subprocess.run(f"{sys.executable} -m uapcheck --format {fmt} {SOFTMAX} >&-", shell=True,
                       capture_output=False, stderr=subprocess.PIPE, cwd=REPO, env=env(), timeout=120)
    assert p.returncode == 2
    assert p.stderr.decode().strip() == "uapcheck: error: standard output is closed"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("fmt", FORMATS)
def test_full_disk_on_stdout(fmt):
    with open("/dev/full", "wb") as full:
        p = subprocess.run([sys.executable, "-m", "uapcheck", "--format", fmt, SOFTMAX], stdout=full,
                           stderr=subprocess.PIPE, cwd=REPO, env=env(), timeout=120)
    assert p.returncode == 2
    assert p.stderr.decode().strip() == "uapcheck: error: cannot write the output: No space left on device"


@pytest.mark.parametrize("fmt", FORMATS)
def test_closed_pipe_has_the_same_exit_code_for_every_format(fmt):
    # The reader exits at once; whether the write happens before or after, the code is the file's.
    p = subprocess.run(f"{sys.executable} -m uapcheck --format {fmt} {SOFTMAX} | true; exit ${{PIPESTATUS[0]}}",
                       shell=True, executable="bash", capture_output=True, cwd=REPO, env=env(), timeout=120)
    assert p.returncode == 0
    assert p.stderr.decode() == ""


def test_closed_pipe_keeps_a_failing_expect(tmp_path):
    f = tmp_path / "fails.uap"
    f.write_text("attention { kernel k(x, y) = exp(x . y) }\nexpect not-uap\n")
    codes = set()
    for fmt in ("text", "json"):
        p = subprocess.run(f"{sys.executable} -m uapcheck --format {fmt} {f} | true; exit ${{PIPESTATUS[0]}}",
                           shell=True, executable="bash", capture_output=True, cwd=REPO, env=env(), timeout=120)
        codes.add(p.returncode)
    assert codes == {1}


# A file that takes seconds for its size (three heads whose least count reads about 1.6·10⁹ positions and arcs of
# rooted views at n = 400, about 12 s here): it is still running when the tests below interrupt it.
SLOW_FILE = ("tokens 400\n"
             "attention { kernel k(x, y) = exp(x . y); pattern offsets {-6, -3, 9} }\n"
             "attention { kernel k(x, y) = exp(x . y); pattern strided(2) }\n"
             "attention { kernel k(x, y) = exp(x . y); pattern window(2) + strided(4) }\n")


def test_sigint_exits_130_with_one_line(tmp_path):
    slow = tmp_path / "slow.uap"
    slow.write_text(SLOW_FILE)
    p = subprocess.Popen([sys.executable, "-m", "uapcheck", "--budget", "300", str(slow)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=REPO, env=env(), start_new_session=True)
    time.sleep(4)
    os.killpg(p.pid, signal.SIGINT)  # as Ctrl-C does: the whole foreground process group
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130
    assert err.decode().splitlines() == ["uapcheck: interrupted"]
    assert out == b""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="finds the worker through /proc")
def test_sigint_reaching_only_the_worker_is_an_interruption(tmp_path):
    # Ctrl-C signals the whole process group; when the worker dies of it before the parent sees its own
    # SIGINT, the run is still an interruption (130 and one line), never an internal error about the worker
    slow = tmp_path / "slow.uap"
    slow.write_text(SLOW_FILE)
    p = subprocess.Popen([sys.executable, "-m", "uapcheck", "--budget", "300", str(slow)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=REPO, env=env(), start_new_session=True)
    children: list[int] = []
    deadline = time.monotonic() + 60
    while not children and time.monotonic() < deadline:
        time.sleep(0.2)
        try:
            with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
                children = [int(c) for c in f.read().split()]
        except OSError:
            break
    assert children, "no worker process appeared"
    time.sleep(1)
    os.kill(children[0], signal.SIGINT)  # the worker alone
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130
    assert err.decode().splitlines() == ["uapcheck: interrupted"]
    assert out == b""


def test_columns_zero_still_prints_the_verdict():
    r = run(SOFTMAX, environ=env(COLUMNS="0"))
    assert r.code == 0 and HEADLINE in r.stdout


def test_ascii_output_encoding_has_no_traceback():
    r = run(SOFTMAX, environ=env(PYTHONIOENCODING="ascii"))
    assert r.code == 0
    _no_traceback(r)
    assert "UAP" in r.stdout and "attention layer" in r.stdout


def test_ascii_encoding_for_an_error_message(tmp_path):
    f = tmp_path / "bad.uap"
    f.write_text("attention { kernel k(x, y) = exp(x ⊗ y) }\n", "utf-8")  # a non-ASCII error location
    r = run(str(f), environ=env(PYTHONIOENCODING="ascii"))
    assert r.code == 2
    _no_traceback(r)


ESCAPES = 'architecture "a\x1b[31mRED\x1b]0;title\x07 \u202eevil"\nattention { kernel k(x, y) = exp(x . y) }\n'


@pytest.mark.parametrize("fmt", FORMATS)
def test_terminal_escapes_in_strings_are_neutralised(tmp_path, fmt):
    f = tmp_path / "esc.uap"
    f.write_text(ESCAPES, "utf-8")
    r = run("--format", fmt, str(f))
    assert r.code == 0
    for bad in ("\x1b", "\x07", "\u202e"):
        assert bad not in r.stdout and bad not in r.stderr
    assert "x1b" in r.stdout and "RED" in r.stdout


def test_escapes_in_a_path_and_in_an_error_line(tmp_path):
    f = tmp_path / "e\x1b[2Jvil.uap"
    f.write_text('attention { kernel k(x, y) = exp(x . y) \x1b[2J }\n', "utf-8")
    r = run(str(f))
    assert r.code == 2
    assert "\x1b" not in r.stderr and "\\x1b[2J" in r.stderr
