"""Command line: `uapcheck FILE...` (a directory checks every .uap in it; `-` reads stdin).

Exit codes: 0 checked and every `expect` holds; 1 an `expect` fails; 2 input error (including a file
that cannot be read and output that cannot be written); 3 internal error; 130 interrupted (Ctrl-C).

Each file is checked in its own worker process (uapcheck.worker) within a CPU-time budget
(`--budget`) and an address-space limit (`--memory`); `-j N` runs N workers at once and keeps the
output in the order of the files.
"""
from __future__ import annotations

import argparse
import gc
import io
import os
import re
import sys
import traceback
from pathlib import Path
from typing import Iterator

from . import __version__
from .stack import deep_recursion

EXIT_OK, EXIT_EXPECT, EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
DEFAULT_MEMORY_BYTES = 4 << 30  # budget.DEFAULT_MEMORY_BYTES: per worker, whatever the machine's memory


class Tally:
    """What a run of several files found, for the summary at its end."""

    def __init__(self) -> None:
        self.results: list = []          # (shown path, Result or its summary)
        self.errors: list[str] = []      # shown paths that gave an input or internal error

    def add(self, path: str, result) -> None:
        self.results.append((path, result))

    def error(self, path: str) -> None:
        self.errors.append(path)


class _OutputGone(Exception):
    """Standard output cannot be written: the reader went away or the device failed."""


def _files(args: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """The files to check, and (path, message) for arguments that give none."""
    out, problems = [], []
    for a in args:
        p = Path(a)
        if a != "-" and p.is_dir():
            try:
                found = sorted(str(f) for f in p.rglob("*.uap") if not f.is_dir())
            except OSError as exc:
                problems.append((a, f"cannot read the directory: {exc.strerror or exc}"))
                continue
            if not os.access(a, os.R_OK | os.X_OK):
                problems.append((a, "cannot read the directory: Permission denied"))
            elif not found:
                problems.append((a, "no .uap files in this directory"))
            out.extend(found)
        else:
            out.append(a)
    return out, problems


def _make_console(color: str):
    from rich.console import Console
    if color == "never" or (color == "auto" and os.environ.get("NO_COLOR")):
        console = Console(no_color=True, color_system=None, highlight=False, soft_wrap=False)
    elif color == "always":
        console = Console(force_terminal=True, color_system="standard", highlight=False)
    else:
        console = Console(highlight=False)
    if console.width < 20:  # COLUMNS=0 or a nonsense width: the report must still be printed
        console.width = 80
    if not console.is_terminal and not console.legacy_windows:
        # Written to a file or a pipe: one size for the whole run, taken now (rich otherwise asks the
        # environment and the terminals on every line it wraps; a few ms per file in a batch).
        console.size = console.size
    return console


from .errors import printable  # noqa: E402  (re-exported: neutralise control bytes we print)


def parse_arguments(ap: argparse.ArgumentParser, argv: list[str], known: bool = False):
    """The namespace of `argv` (with `known`: and the arguments left over), or the exit code when
    argparse stopped (0 after --help, 2 after a usage error it has printed)."""
    try:
        return ap.parse_known_args(argv) if known else ap.parse_args(argv)
    except SystemExit as exc:
        return EXIT_INPUT if exc.code else EXIT_OK


def number_argument(text: str, convert, error: str):
    """`convert(text)` for an option's value, or argparse's error `error` (with {text!r} filled in)."""
    try:
        return convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(error.format(text=text)) from None


def _seconds(text: str) -> float:
    value = number_argument(text, float, "not a number of seconds: {text!r}")
    if not (0 < value <= 10**6):
        raise argparse.ArgumentTypeError("the budget must be between 0 and 1000000 seconds")
    return value


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def _size(text: str) -> int:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*", text, re.IGNORECASE)
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 512M, 4G)")
    value = int(float(m.group(1)) * _UNITS[m.group(2).upper()])
    if value < 64 << 20:
        raise argparse.ArgumentTypeError("the memory limit must be at least 64M")
    return value


def _jobs(text: str) -> int:
    value = number_argument(text, int, "not a number of jobs: {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError("-j needs at least 1")
    return value


def _show_size(n: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20)):
        if n >= scale:
            return f"{n / scale:g} {unit}"
    return f"{n} bytes"


def _cores() -> int:
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _default_memory(jobs: int) -> int:
    """4 GiB per worker, a fixed number: the engines plan their sizes on it (graphs/build.arc_budget), so a file's
    report does not depend on the machine's memory; a machine that cannot give it ends the worker, reported as the
    memory budget running out (BUDGET)."""
    del jobs
    return DEFAULT_MEMORY_BYTES


_collection_paused = False  # main() paused the cyclic garbage collector for the imports


def main(argv=None) -> int:
    # SymPy and the engines create about a million objects on import and none of them is garbage:
    # the collector's full passes over them while they are created cost about 0.04 s per run. It is
    # off until the imports are done (_resume_collection) and as it was when main returns.
    global _collection_paused
    collecting = gc.isenabled()
    _collection_paused = collecting
    gc.disable()
    try:
        with deep_recursion():
            return _main(argv)
    except KeyboardInterrupt:
        _quiet_write(sys.stderr, "uapcheck: interrupted\n")
        return EXIT_INTERRUPTED
    except _OutputGone as gone:
        return gone.args[0]
    finally:
        _collection_paused = False
        if collecting:
            gc.enable()


def _resume_collection() -> None:
    """The imports are done: collect cyclic garbage again (the checks make some)."""
    global _collection_paused
    if _collection_paused:
        _collection_paused = False
        gc.enable()


def _quiet_write(stream, text: str) -> None:
    try:
        if stream is not None:
            stream.write(text)
            stream.flush()
    except (OSError, ValueError):
        pass


def _suggest_main(argv: list[str]) -> int:
    """`uapcheck suggest FILE...`: small edits that make each file provably UAP, smallest first."""
    ap = argparse.ArgumentParser(prog="uapcheck suggest", description="List small edits of a .uap file that "
                                 "make it provably UAP, smallest change first, each with its verdict.")
    ap.add_argument("files", nargs="+", help=".uap files or directories; - reads standard input")
    ap.add_argument("--limit", type=int, default=5, help="at most this many suggestions per file (default 5)")
    ns = parse_arguments(ap, argv)
    if isinstance(ns, int):
        return ns
    from .derive import check_spec
    from .errors import UapError, format_error
    from .parse import decode, parse_source
    from .render.verdict_lines import headline
    from .suggest import suggestions
    worst = EXIT_OK
    for path in _files(ns.files)[0]:
        shown = "<stdin>" if path == "-" else path
        source = ""
        try:
            source = decode(sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes())
            spec = parse_source(source, shown)
            result = check_spec(spec)
        except UapError as err:
            print(format_error(shown, source, err), file=sys.stderr)
            worst = EXIT_INPUT
            continue
        except OSError as exc:
            print(f"{shown}: error: cannot read the file: {exc.strerror or exc}", file=sys.stderr)
            worst = EXIT_INPUT
            continue
        print(f"{shown}: {headline(result)}")
        if result.verdict == "UAP":
            print("  already UAP: nothing to suggest")
            continue
        found = suggestions(spec, limit=ns.limit)
        if not found:
            print("  no single edit or pair of edits tried here makes it provably UAP")
        for n, s in enumerate(found, start=1):
            print(f"  {n}. {s.text} (change size {s.size}): {headline(s.result)}")
    return worst


def _from_config_main(argv: list[str]) -> int:
    """`uapcheck from-config CONFIG.json`: write the .uap file of a model config, then check it."""
    ap = argparse.ArgumentParser(prog="uapcheck from-config", description="Write the .uap file of a Hugging "
                                 "Face-style model config (config.json), then check it.")
    ap.add_argument("config", help="the model's config.json")
    ap.add_argument("-o", "--output", help="where to write the .uap file (default: the config's name with "
                    ".uap; - prints it instead of checking)")
    parsed = parse_arguments(ap, argv, known=True)
    if isinstance(parsed, int):
        return parsed
    ns, rest = parsed
    from .from_config import ConfigError, config_to_uap, read_config
    try:
        text = config_to_uap(read_config(Path(ns.config).read_bytes()), Path(ns.config).name)
    except ConfigError as exc:
        print(f"{ns.config}: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except OSError as exc:
        print(f"{ns.config}: error: cannot read the config: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_INPUT
    if ns.output == "-":
        sys.stdout.write(text)
        return EXIT_OK
    out = Path(ns.output) if ns.output else Path(ns.config).with_suffix(".uap")
    try:
        out.write_text(text, "utf-8")
    except OSError as exc:
        print(f"{out}: error: cannot write the .uap file: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_INPUT
    print(f"wrote {out}", file=sys.stderr)
    return _main([str(out), *rest])


SUBCOMMANDS = {"suggest": _suggest_main, "verify": lambda args: _verify_command(args),
               "from-config": _from_config_main}


def _plot(result, path: str) -> tuple[str, int]:
    """Draw the pictures of one checked file (--plot): (the message for standard error, exit code)."""
    from .render.plot import PlotError, plot
    try:
        return plot(result, path) + "\n", EXIT_OK
    except PlotError as exc:
        return f"{printable(path)}: error: {exc}\n", EXIT_INPUT
    except OSError as exc:
        return f"{printable(path)}: error: cannot write the picture: {exc.strerror or exc}\n", EXIT_INPUT


def _panel_suggestion(result, ns, started: float = 0.0):
    """The best single edit for a verdict panel that is not UAP (None with --no-suggest, or when none of the
    suggest.PANEL_CANDIDATES edited files is UAP: a count, so the same on every machine). It runs in what is
    left of the file's CPU budget and within its memory limit, the user's resource limits: running out of
    either is stated in the panel (suggest.SearchStopped), as a file that runs out is reported BUDGET. `started`: the
    process's CPU clock when the file began (a worker checks files one after another, so its clock holds the files
    before this one too)."""
    if result.verdict == "UAP" or ns.no_suggest or result.root.rule == "BUDGET":
        return None
    import time
    from . import budget
    from .suggest import SearchStopped, best
    left = max(budget.file_seconds - (time.process_time() - started), 1.0)
    try:
        with budget.file_budget(left):
            return best(result.spec)
    except budget.FileBudgetExceeded:
        return SearchStopped(f"CPU time budget of {budget.file_seconds:g} s")
    except MemoryError:
        return SearchStopped(budget.memory_budget_text())


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="uapcheck", description="Check the universal approximation property "
                                 "of a transformer-type architecture described in a .uap file.")
    ap.add_argument("files", nargs="*", help=".uap files or directories; - reads standard input")
    ap.add_argument("--format", choices=("text", "json", "markdown", "latex"), default="text")
    ap.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    ap.add_argument("--standalone", action="store_true",
                    help="with --format latex: a complete document that compiles as it is")
    detail = ap.add_mutually_exclusive_group()
    detail.add_argument("--short", action="store_true", help="one line per file: path: verdict")
    detail.add_argument("--full", action="store_true", help="the whole derivation with evidence and citations")
    ap.add_argument("--plot", metavar="IMAGE", help="draw the mask, a receptive field and the view witness "
                    "into IMAGE (.svg, .png or .pdf; one file only)")
    ap.add_argument("--no-suggest", action="store_true",
                    help="do not search for the edit that would make a non-UAP file UAP (faster)")
    ap.add_argument("--explain", metavar="RULE-ID", help="explain a rule of the derivations")
    ap.add_argument("--certificate", metavar="OUT.json",
                    help="write a certificate file of the derivation (re-check it with `uapcheck verify OUT.json`)")
    ap.add_argument("--budget", type=_seconds, default=None, metavar="SECONDS",
                    help="CPU time for each file (default 60); running out gives INCONCLUSIVE naming the step")
    ap.add_argument("--memory", type=_size, default=None, metavar="SIZE",
                    help="address space for each file, e.g. 2G (default 4G per job, whatever the machine's "
                         "memory); running out gives INCONCLUSIVE naming the step")
    ap.add_argument("-j", "--jobs", type=_jobs, default=None, metavar="N",
                    help="check N files at once (default 1, or the number of cores when a directory is given)")
    ap.add_argument("--no-cache", action="store_true",
                    help="neither read nor write the result cache (reports of unchanged files, kept in "
                         "$UAPCHECK_CACHE_DIR, else ~/.cache/uapcheck)")
    ap.add_argument("--version", action="version", version=f"uapcheck {__version__}")
    _add_simulate_flag(ap)
    return ap


def _setup_streams() -> None:
    """Never let an encoding the report cannot use (PYTHONIOENCODING=ascii) end in a traceback."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass


def _main(argv=None) -> int:
    _setup_streams()
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in SUBCOMMANDS:
        _resume_collection()
        return SUBCOMMANDS[argv[0]](argv[1:])
    ap = _parser()
    ns = parse_arguments(ap, argv)
    if isinstance(ns, int):
        return ns
    if sys.stdout is None:
        _quiet_write(sys.stderr, "uapcheck: error: standard output is closed\n")
        return EXIT_INPUT
    if ns.explain:
        from .explain import explain
        return explain(ns.explain, _make_console(ns.color))
    if not ns.files:
        ap.print_usage(sys.stderr)
        print("uapcheck: error: give at least one .uap file, a directory, or -", file=sys.stderr)
        return EXIT_INPUT
    from .lazy import sympy_stand_ins
    with sympy_stand_ins():  # SymPy's units and tensor modules are never loaded (uapcheck/lazy.py)
        return check_files(ns)


def _console_for(ns, several: bool):
    """The console for text output (None for the other formats), and the summary's table when `several`
    inputs will be summarised."""
    if ns.format != "text":  # rich only for text output
        return None
    from .render.plain import plain_console
    console = plain_console(ns.color)  # laid out without rich when the text carries no colour
    if several:
        from .render import summary  # noqa: F401
    return console if console is not None else _make_console(ns.color)


def _import_printers(ns) -> None:
    from .render import jsonout  # noqa: F401
    if ns.format == "text":
        from .render.plain import plain_console
        if ns.full or ns.short or plain_console(ns.color) is None:  # the compact report without colour needs no rich
            from .render import text  # noqa: F401
    if ns.format in ("latex", "markdown"):
        from .render import latex, markdown  # noqa: F401


def _import_engines(ns, files: int) -> None:
    """The engines and printers, imported (and the parser built when several files follow) before the
    workers fork, so that each worker starts warm; or by the one worker itself when it starts (check_files)."""
    from .derive import check_spec  # noqa: F401
    from .parse import parse_source  # noqa: F401
    _import_printers(ns)
    _build_parser_before_forking(files)


def check_files(ns) -> int:
    """Check every file of the command line in forked workers; print in the files' order. A file whose
    report is in the result cache (uapcheck/result_cache.py) is printed from it, and the engines are
    not even imported when every file's is."""
    from . import budget, result_cache, worker
    files, problems = _files(ns.files)
    console = _console_for(ns, len(files) + len(problems) > 1)
    worst = EXIT_OK
    tally = Tally()
    for path, message in problems:
        worst = max(worst, _emit(_read_error(path, message, ns.format), worst))
        tally.error(printable(path))
    if ns.plot and len(files) + len(problems) != 1:
        _quiet_write(sys.stderr, "uapcheck: error: --plot draws one file; give exactly one\n")
        return EXIT_INPUT
    if ns.certificate and len(files) + len(problems) != 1:
        _quiet_write(sys.stderr, "uapcheck: error: --certificate takes exactly one input file\n")
        return EXIT_INPUT
    if not files:
        if not problems:
            _quiet_write(sys.stderr, "uapcheck: error: no .uap files found\n")
        return EXIT_INPUT
    jobs = ns.jobs or (_cores() if any(Path(a).is_dir() for a in ns.files if a != "-") else 1)
    memory = ns.memory or _default_memory(jobs)
    seconds = ns.budget or budget.DEFAULT_FILE_SECONDS
    budget.configure(seconds, _show_size(memory), memory)
    limits = worker.Limits(seconds, memory)
    inputs = [_read(path) for path in files]
    cache = result_cache.open_cache(ns, console)
    found = result_cache.lookups(cache, inputs)
    missing = [i for i, (_, hit) in enumerate(found) if hit is None]
    forking = worker.can_fork() and os.environ.get("UAPCHECK_IN_PROCESS") != "1"
    # One worker: it imports the engines itself when it starts (`prepare`), into memory of its own. Imported here
    # before the fork, every page of theirs that the worker touches (reference counts) is copied on write: about
    # 11,000 page faults, 0.03-0.05 s of system time, over the 57 files of bench/run.py. Several workers share them.
    prepare = (lambda: _import_engines(ns, len(missing))) if missing and forking and jobs == 1 else None
    if missing and prepare is None:
        _import_engines(ns, len(missing))
    _resume_collection()

    def job(index: int):
        return lambda: _check_one(inputs[index], ns, console)

    def on_death(k: int, death: worker.Death) -> worker.Outcome:  # k: the k-th file checked here
        return _report_death(inputs[missing[k]], death, limits, ns, console)

    computed: Iterator[worker.Outcome]
    if not missing:
        computed = iter(())
    elif not worker.can_fork() or os.environ.get("UAPCHECK_IN_PROCESS") == "1":
        # No workers (for profiling, or where fork is missing): the CPU budget still applies, the
        # memory limit does not.
        computed = (job(i)() for i in missing)
    else:
        sys.stdout.flush()
        sys.stderr.flush()
        computed = worker.run_all([job(i) for i in missing], jobs, limits, on_death, prepare)
    worst = _emit_in_order(inputs, found, computed, cache, tally, worst)
    if len(files) + len(problems) > 1 and ns.format == "text":
        from .render.summary import print_summary
        from .render.plain import PlainConsole
        if isinstance(console, PlainConsole):
            console = console.rich()
        try:
            with console.capture() as cap:
                print_summary(tally, console)
        except Exception:  # noqa: BLE001 - the summary is a convenience, never a crash
            return worst
        worst = _emit(worker.Outcome(cap.get(), "", worst), worst)
    return worst


def _emit_in_order(inputs: list, found: list, computed: Iterator, cache, tally: Tally, worst: int) -> int:
    """Print each file's outcome in the files' order: the cached one, or the next one checked (kept in the
    cache when it may be)."""
    try:
        for item, (key, hit) in zip(inputs, found):
            outcome = hit if hit is not None else next(computed)
            if hit is None and key is not None and cache is not None and outcome.cacheable:
                cache.store(key, outcome)
            worst = _emit(outcome, worst)
            if outcome.summary is None:
                tally.error(item.shown)
            else:
                tally.add(item.shown, outcome.summary)
    finally:
        close = getattr(computed, "close", None)
        if close is not None:
            close()
        if cache is not None and cache.stored:
            cache.prune()
    return worst


def _build_parser_before_forking(files: int) -> None:
    """The LALR parser, built in the parent when several files follow (each worker would build it)."""
    if files > 1:
        from .parse import parser
        parser()


def _emit(outcome, worst: int) -> int:
    """Print one file's outcome; a closed or failing standard output ends the run."""
    worst = max(worst, outcome.code)
    try:
        if outcome.stdout:
            sys.stdout.write(outcome.stdout)
            sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (e.g. `uapcheck ... | head`): stop quietly, as Unix tools do, with the
        # exit code of the files checked so far (the same for every format).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise _OutputGone(worst) from None
    except OSError as exc:
        _quiet_write(sys.stderr, f"uapcheck: error: cannot write the output: {exc.strerror or exc}\n")
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        raise _OutputGone(max(worst, EXIT_INPUT)) from None
    if outcome.stderr:
        _quiet_write(sys.stderr, outcome.stderr)
    return worst


class _Input:
    """One file of the command line: the bytes read (bounded), or why it could not be read."""

    def __init__(self, path: str, data: bytes = b"", error: str = ""):
        self.path = path
        self.shown = "<stdin>" if path == "-" else printable(path)
        self.data = data
        self.error = error


def _read(path: str) -> _Input:
    """Read at most one byte more than the size limit (the source's and its edge lists'), so /dev/zero
    cannot exhaust memory."""
    from .edge_lists import MAX_FILE_BYTES
    try:
        if path == "-":
            if sys.stdin is None:
                return _Input(path, error="cannot read standard input: it is closed")
            data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        else:
            with open(path, "rb") as fh:
                data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        what = "standard input" if path == "-" else "the file"
        return _Input(path, error=f"cannot read {what}: {exc.strerror or exc}")
    except (ValueError, AttributeError):
        return _Input(path, error="cannot read standard input: it is closed")
    return _Input(path, data)


def _read_error(path: str, message: str, fmt: str):
    """An error without a position: `path: error: message` (JSON: line and column 0)."""
    from .render import jsonout
    from .worker import Outcome
    shown = "<stdin>" if path == "-" else printable(path)
    if fmt == "json":
        return Outcome(jsonout.dumps({"schema": jsonout.SCHEMA, "file": shown,
                                      "error": {"line": 0, "column": 0, "message": message}}) + "\n", "", EXIT_INPUT)
    return Outcome("", f"{shown}: error: {message}\n", EXIT_INPUT)


def _render(result, ns, console, simulation=None, started: float = 0.0) -> str:
    fmt = ns.format
    from .render import jsonout
    if fmt == "json":
        obj = jsonout.result_json(result)
        if simulation is not None:
            obj["simulation"] = simulation
        return jsonout.dumps(obj) + "\n"
    if fmt == "markdown":
        from .render import markdown
        return printable_block(markdown.render(result, _panel_suggestion(result, ns, started))) + "\n"
    if fmt == "latex":
        from .render import latex
        return printable_block(latex.render(result, standalone=ns.standalone)) + "\n"
    from .render.plain import PlainConsole
    if isinstance(console, PlainConsole):
        if not ns.short and not ns.full:
            from .render import plain
            out = plain.report(result, console.width, _panel_suggestion(result, ns, started))
            if out is not None:
                return out
        console = console.rich()
    from .render import text
    # Render into memory only (the parent writes it): a full disk must not fail inside rich.
    tty = console.file.isatty() if hasattr(console.file, "isatty") else False
    console.file = _Sink(tty)
    with console.capture() as cap:
        if ns.short:
            console.print(text.short_line(result.spec.path, result), highlight=False, markup=False, soft_wrap=True)
        else:
            text.render(result, console, full=ns.full, suggestion=_panel_suggestion(result, ns, started))
    return cap.get()


class _Sink(io.StringIO):
    """A console file that keeps the terminal's isatty() answer but writes nowhere."""

    def __init__(self, tty: bool):
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def printable_block(text: str) -> str:
    """printable() for a multi-line report: keep the line ends and tabs, neutralise the rest."""
    return "\n".join(printable(line) for line in text.split("\n"))


def _check_one(item: _Input, ns, console):
    """The outcome of one file; cacheable when nothing that depends on the machine (a budget running out,
    a token graph refused for the file's --memory and time budget) shaped it."""
    from .budget import BudgetExceeded, FileBudgetExceeded
    from .graphs.build import GraphTooLarge
    before = (BudgetExceeded.raised, FileBudgetExceeded.raised, GraphTooLarge.refused_for_resources)
    outcome = _derive_one(item, ns, console)
    after = (BudgetExceeded.raised, FileBudgetExceeded.raised, GraphTooLarge.refused_for_resources)
    if outcome.code in (EXIT_OK, EXIT_EXPECT) and outcome.summary is not None and after == before:
        from dataclasses import replace
        return replace(outcome, cacheable=True)
    return outcome


def _derive_one(item: _Input, ns, console):
    from .budget import stage
    from .derive import check_spec
    from .errors import UapError, format_error
    from .parse import decode, parse_source
    from .render import jsonout
    from .worker import Outcome
    if item.error:
        return _read_error(item.path, item.error, ns.format)
    import time
    started = time.process_time()  # the file's own CPU budget, also for the panel's suggestion search
    source = ""
    try:
        source = item.data.decode("utf-8", errors="replace")  # for error display even when not UTF-8
        with stage("parsing"):
            from .edge_lists import MAX_FILE_BYTES
            from .parse import MAX_SOURCE_BYTES
            if len(item.data) > MAX_FILE_BYTES:
                raise UapError(f"the file is larger than {MAX_SOURCE_BYTES} bytes (and {MAX_FILE_BYTES} bytes with its "
                               "`edges {...}` lists)", 1, 1)
            source = decode(item.data)
            spec = parse_source(source, item.shown)
        result = check_spec(spec, ns.budget)
        simulation = _simulation(item.shown, source, result, ns) if ns.simulate else None
        with stage("printing the report"):
            out = _render(result, ns, console, simulation[0] if simulation else None, started)
            if simulation is not None and ns.format != "json" and simulation[0] is not None:
                out += "\n".join(simulation[0]) + "\n"
        plotted, plot_code = _plot(result, ns.plot) if ns.plot else ("", EXIT_OK)
        if ns.certificate:
            with stage("writing the certificate"):
                written, cert_code = _write_certificate(result, source, ns.certificate)
            plotted += written
            plot_code = max(plot_code, cert_code)
    except (UapError, RecursionError) as err:
        if isinstance(err, RecursionError):
            err = UapError("the input is nested too deeply", 1, 1)
        if ns.format == "json":
            return Outcome(jsonout.dumps(jsonout.error_json(item.shown, err)) + "\n", "", EXIT_INPUT)
        return Outcome("", printable_block(format_error(item.shown, source, err)) + "\n", EXIT_INPUT)
    except MemoryError as exc:
        from . import budget
        step = getattr(exc, "uap_step", budget.current_step())
        return _read_error(item.path, f"the {budget.memory_budget_text()} ran out in: {step}", ns.format)
    except Exception:  # an engine bug: report it as such, never as a verdict
        return Outcome("", f"{item.shown}: internal error in uapcheck {__version__}; please report it with "
                       f"this file:\n{traceback.format_exc()}", EXIT_INTERNAL)
    code = max(EXIT_EXPECT if result.expect_holds is False else EXIT_OK, plot_code)
    if simulation is not None:
        plotted += simulation[2]
        if simulation[1] == EXIT_INPUT:
            code = max(code, EXIT_INPUT)
    return Outcome(out, plotted, code, _summary(result))


def _summary(result):
    """What the end-of-run summary needs of a result (picklable, unlike the derivation)."""
    from types import SimpleNamespace
    return SimpleNamespace(verdict=result.verdict, expect_holds=result.expect_holds,
                           expect_reason=result.expect_reason)


def _report_death(item: _Input, death, limits, ns, console):
    """A worker that ended without a report: INCONCLUSIVE for a budget, else an internal error."""
    from .derive import budget_result
    from .parse import decode, parse_source
    from .worker import Outcome
    what = death.budget_text(limits)
    if what is None:  # a crash (a library's, on this input) or an exit: a failure of the step, never a budget
        return Outcome("", f"{item.shown}: internal error in uapcheck {__version__}: the worker checking this file "
                       f"ended by {death.how()} in: {death.step}; please report it with this file\n", EXIT_INTERNAL)
    try:
        spec = parse_source(decode(item.data), item.shown)
        step = death.step
        if death.signal_number is not None:
            step += f" (the worker was ended by {death.how()}"
            step += ", near the memory limit)" if death.near_memory_limit(limits) else ")"
        result = budget_result(spec, step, what)
        return Outcome(_render(result, ns, console), "",
                       EXIT_EXPECT if result.expect_holds is False else EXIT_OK, _summary(result))
    except Exception:  # noqa: BLE001 - the budget ran out before the file could even be parsed
        return _read_error(item.path, f"the {what} ran out in: {death.step}", ns.format)


# ---------------------------------------------------------------------------------------------
# Numeric experiments (uapcheck/simulate, numpy): `uapcheck simulate FILE` and `--simulate`.

def _simulate_command(argv: list[str]) -> int:
    from .simulate.command import main as simulate_main
    return simulate_main(argv)


SUBCOMMANDS["simulate"] = _simulate_command


def _add_simulate_flag(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--simulate", action="store_true", help="add a numeric experiment with random networks "
                    "of the family to the report (`uapcheck simulate FILE` has its options)")


def _simulation(path: str, source: str, result, ns):
    """(the summary: text lines, or a JSON object for --format json; exit code; text for stderr) for
    --simulate. A construct the simulator does not model is reported on stderr (exit 2); the report stands."""
    from .simulate.command import error_text, run_one
    from .simulate.evaluate import SimulationUnsupported
    from .simulate.run import Options
    from .simulate.summary import text_lines, to_json
    try:
        sim, code = run_one(result.spec, result, Options())
    except SimulationUnsupported as exc:
        return None, EXIT_INPUT, error_text(path, source, exc) + "\n"
    if ns.format == "json":
        return to_json(sim), code, ""
    return ["", "simulate: " + text_lines(sim)[0], *text_lines(sim)[1:]], code, ""


def _write_certificate(result, source: str, out: str) -> tuple[str, int]:
    """Write the certificate file: (the message for standard error, exit code); a failure (unwritable
    path, full disk) is one line and exit 2."""
    from . import certfile
    try:
        certfile.write(certfile.build(result, source), out)
    except OSError as exc:
        return f"{printable(out)}: error: cannot write the certificate: {exc.strerror or exc}\n", EXIT_INPUT
    return "", EXIT_OK


def _verify_command(args: list[str]) -> int:
    """`uapcheck verify CERT.json...`: re-check certificate files with the independent verifier.
    Exit 0 when every file checks (every step of a UAP or NOT-UAP verdict verified or checked
    numerically), 1 when a step or the input is rejected or a verdict is not fully re-checked (a step
    the budget ran out in counts as not re-checked), 2 when a file is not a readable certificate.
    Each certificate is re-checked in its own worker process within a CPU-time budget and an
    address-space limit, as `uapcheck FILE` checks its files."""
    ap = argparse.ArgumentParser(prog="uapcheck verify", description="Re-check uapcheck certificate files "
                                 "with a checker that shares no code with the rule engines.")
    ap.add_argument("certificates", nargs="+", metavar="CERT.json")
    ap.add_argument("--quiet", action="store_true", help="print only failures and the summary line")
    ap.add_argument("--budget", type=_seconds, default=None, metavar="SECONDS",
                    help="CPU time for each certificate (default 60); the step it runs out in and the later "
                         "ones are reported as not re-checked")
    ap.add_argument("--memory", type=_size, default=None, metavar="SIZE",
                    help="address space for each certificate, e.g. 2G (default 4G, whatever the machine's memory)")
    ns = parse_arguments(ap, args)
    if isinstance(ns, int):
        return ns
    from .lazy import sympy_stand_ins
    with sympy_stand_ins():  # SymPy's units and tensor modules are never loaded (uapcheck/lazy.py)
        return _verify_files(ns)


def _verify_files(ns) -> int:
    """Re-check the certificates of `ns` (the parsed `verify` arguments) and print each report."""
    from . import budget, worker
    from .verifier import Malformed, verify_file
    from .verifier.report import render
    seconds = ns.budget or budget.DEFAULT_FILE_SECONDS
    memory = ns.memory or _default_memory(1)
    budget.configure(seconds, _show_size(memory), memory)
    limits = worker.Limits(seconds, memory)
    paths = list(ns.certificates)

    def job(path: str):
        def run() -> worker.Outcome:
            try:
                report = verify_file(path, seconds)
            except Malformed as exc:
                return worker.Outcome("", f"{path}: error: {exc}\n", EXIT_INPUT)
            return worker.Outcome(render(path, report, ns.quiet) + "\n", "", EXIT_OK if report.ok else EXIT_EXPECT)
        return run

    def on_death(index: int, death: worker.Death) -> worker.Outcome:
        what = death.budget_text(limits)
        if what is None:
            return worker.Outcome("", f"{paths[index]}: internal error in uapcheck {__version__}: the verifier's "
                                  f"worker ended by {death.how()} in: {death.step}\n", EXIT_INTERNAL)
        return worker.Outcome("", f"{paths[index]}: not verified: the verifier's {what} ran out\n", EXIT_EXPECT)

    if not worker.can_fork() or os.environ.get("UAPCHECK_IN_PROCESS") == "1":
        outcomes: Iterator[worker.Outcome] = (job(p)() for p in paths)
    else:
        sys.stdout.flush()
        sys.stderr.flush()
        outcomes = worker.run_all([job(p) for p in paths], 1, limits, on_death)
    worst = EXIT_OK
    try:
        for outcome in outcomes:
            worst = _emit(outcome, worst)
    finally:
        close = getattr(outcomes, "close", None)
        if close is not None:
            close()
    return worst
