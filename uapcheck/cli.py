"""Command line: `uapcheck FILE...` (a directory checks every .uap in it; `-` reads stdin).

Exit codes: 0 checked and every `expect` holds; 1 an `expect` fails; 2 input error; 3 internal error.
"""
from __future__ import annotations

import argparse
import os
import sys
import traceback
from pathlib import Path

from . import __version__

EXIT_OK, EXIT_EXPECT, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


def _files(args: list[str]) -> list[str]:
    out = []
    for a in args:
        p = Path(a)
        if a != "-" and p.is_dir():
            out.extend(str(f) for f in sorted(p.rglob("*.uap")))
        else:
            out.append(a)
    return out


def _make_console(color: str):
    from rich.console import Console
    if color == "never" or (color == "auto" and os.environ.get("NO_COLOR")):
        return Console(no_color=True, color_system=None, highlight=False, soft_wrap=False)
    if color == "always":
        return Console(force_terminal=True, color_system="standard", highlight=False)
    return Console(highlight=False)


class Tally:
    """What a run of several files found, for the summary at its end."""

    def __init__(self) -> None:
        self.results: list = []          # (shown path, Result)
        self.errors: list[str] = []      # shown paths that gave an input or internal error

    def add(self, path: str, result) -> None:
        self.results.append((path, result))

    def error(self, path: str) -> None:
        self.errors.append(path)


def main(argv=None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (e.g. `uapcheck ... | head`): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


def _suggest_main(argv: list[str]) -> int:
    """`uapcheck suggest FILE...`: small edits that make each file provably UAP, smallest first."""
    ap = argparse.ArgumentParser(prog="uapcheck suggest", description="List small edits of a .uap file that "
                                 "make it provably UAP, smallest change first, each with its verdict.")
    ap.add_argument("files", nargs="+", help=".uap files or directories; - reads standard input")
    ap.add_argument("--limit", type=int, default=5, help="at most this many suggestions per file (default 5)")
    try:
        ns = ap.parse_args(argv)
    except SystemExit as exc:
        return EXIT_INPUT if exc.code else EXIT_OK
    from .derive import check_spec
    from .errors import UapError, format_error
    from .parse import decode, parse_source
    from .render.verdict_lines import headline
    from .suggest import suggestions
    worst = EXIT_OK
    for path in _files(ns.files):
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
    try:
        ns, rest = ap.parse_known_args(argv)
    except SystemExit as exc:
        return EXIT_INPUT if exc.code else EXIT_OK
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


def _plot(result, path: str) -> int:
    """Draw the pictures of one checked file (--plot); errors are input errors."""
    from .render.plot import PlotError, plot
    try:
        print(plot(result, path), file=sys.stderr)
    except PlotError as exc:
        print(f"{path}: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except OSError as exc:
        print(f"{path}: error: cannot write the picture: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_INPUT
    return EXIT_OK


def _panel_suggestion(result, ns):
    """The best single edit for a verdict panel that is not UAP (None with --no-suggest)."""
    if result.verdict == "UAP" or ns.no_suggest:
        return None
    from .suggest import best
    return best(result.spec)


def _main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in SUBCOMMANDS:
        return SUBCOMMANDS[argv[0]](argv[1:])
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
    ap.add_argument("--version", action="version", version=f"uapcheck {__version__}")
    _add_simulate_flag(ap)
    try:
        ns = ap.parse_args(argv)
    except SystemExit as exc:
        return EXIT_INPUT if exc.code else EXIT_OK
    if ns.explain:
        from .explain import explain
        return explain(ns.explain, _make_console(ns.color))
    if not ns.files:
        ap.print_usage(sys.stderr)
        print("uapcheck: error: give at least one .uap file, a directory, or -", file=sys.stderr)
        return EXIT_INPUT
    from .derive import check_spec
    from .errors import UapError, format_error
    from .parse import decode, parse_source
    from .render import jsonout
    console = text = None
    if ns.format == "text":  # rich only for text output
        from .render import text
        console = _make_console(ns.color)
    worst = EXIT_OK
    files = _files(ns.files)
    if ns.plot and len(files) != 1:
        print("uapcheck: error: --plot draws one file; give exactly one", file=sys.stderr)
        return EXIT_INPUT
    if not files:
        print("uapcheck: error: no .uap files found", file=sys.stderr)
        return EXIT_INPUT
    if ns.certificate and len(files) != 1:
        print("uapcheck: error: --certificate takes exactly one input file", file=sys.stderr)
        return EXIT_INPUT
    tally = Tally()
    for path in files:
        source = ""
        shown = "<stdin>" if path == "-" else path
        try:
            data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
            # for error display even when the bytes are not valid UTF-8
            source = data.decode("utf-8", errors="replace")
            source = decode(data)
            result = check_spec(parse_source(source, shown))
        except (UapError, RecursionError) as err:
            if isinstance(err, RecursionError):
                err = UapError("the input is nested too deeply", 1, 1)
            if ns.format == "json":
                print(jsonout.dumps(jsonout.error_json(shown, err)))
            else:
                print(format_error(shown, source, err), file=sys.stderr)
            tally.error(shown)
            worst = max(worst, EXIT_INPUT)
            continue
        except OSError as exc:
            msg = f"cannot read the file: {exc.strerror or exc}"
            if ns.format == "json":
                print(jsonout.dumps({"schema": jsonout.SCHEMA, "file": path,
                                     "error": {"line": 0, "column": 0, "message": msg}}))
            else:
                print(f"{path}: error: {msg}", file=sys.stderr)
            tally.error(shown)
            worst = max(worst, EXIT_INPUT)
            continue
        except Exception:  # an engine bug: report it as such, never as a verdict
            print(f"{path}: internal error in uapcheck {__version__}; please report it with this file:",
                  file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            tally.error(shown)
            worst = max(worst, EXIT_INTERNAL)
            continue
        tally.add(shown, result)
        simulation = _simulation(path, source, result, ns) if ns.simulate else None
        if simulation is not None and simulation[1] == EXIT_INPUT:
            worst = max(worst, EXIT_INPUT)
        if ns.format == "json":
            obj = jsonout.result_json(result)
            if simulation is not None:
                obj["simulation"] = simulation[0]
            print(jsonout.dumps(obj))
        elif ns.format == "markdown":
            from .render import markdown
            print(markdown.render(result, _panel_suggestion(result, ns)))
        elif ns.format == "latex":
            from .render import latex
            print(latex.render(result, standalone=ns.standalone))
        elif ns.short:
            console.print(text.short_line(shown, result), highlight=False, markup=False, soft_wrap=True)
        else:
            text.render(result, console, full=ns.full, suggestion=_panel_suggestion(result, ns))
        if ns.plot:
            worst = max(worst, _plot(result, ns.plot))
        if simulation is not None and ns.format != "json" and simulation[0] is not None:
            print("\n".join(simulation[0]))
        if ns.certificate:
            worst = max(worst, _write_certificate(result, source, ns.certificate))
        if result.expect_holds is False:
            worst = max(worst, EXIT_EXPECT)
    if len(files) > 1 and ns.format == "text":
        from .render.summary import print_summary
        print_summary(tally, console)
    return worst


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
    """(the summary: text lines, or a JSON object for --format json; exit code) for --simulate.
    A construct the simulator does not model is reported on stderr (exit 2); the report stands."""
    from .simulate.command import error_text, run_one
    from .simulate.evaluate import SimulationUnsupported
    from .simulate.run import Options
    from .simulate.summary import text_lines, to_json
    try:
        sim, code = run_one(result.spec, result, Options())
    except SimulationUnsupported as exc:
        print(error_text(path, source, exc), file=sys.stderr)
        return None, EXIT_INPUT
    if ns.format == "json":
        return to_json(sim), code
    return ["", "simulate: " + text_lines(sim)[0], *text_lines(sim)[1:]], code


def _write_certificate(result, source: str, out: str) -> int:
    """Write the certificate file; a failure (unwritable path, full disk) is one line and exit 2."""
    from . import certfile
    try:
        certfile.write(certfile.build(result, source), out)
    except OSError as exc:
        print(f"{out}: error: cannot write the certificate: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_INPUT
    return EXIT_OK


def _verify_command(args: list[str]) -> int:
    """`uapcheck verify CERT.json...`: re-check certificate files with the independent verifier.
    Exit 0 when every file checks (every step of a UAP or NOT-UAP verdict verified or checked
    numerically), 1 when a step or the input is rejected or a verdict is not fully re-checked,
    2 when a file is not a readable certificate."""
    ap = argparse.ArgumentParser(prog="uapcheck verify", description="Re-check uapcheck certificate files "
                                 "with a checker that shares no code with the rule engines.")
    ap.add_argument("certificates", nargs="+", metavar="CERT.json")
    ap.add_argument("--quiet", action="store_true", help="print only failures and the summary line")
    try:
        ns = ap.parse_args(args)
    except SystemExit as exc:
        return EXIT_INPUT if exc.code else EXIT_OK
    from .verifier import Malformed, verify_file
    from .verifier.report import render
    worst = EXIT_OK
    for path in ns.certificates:
        try:
            report = verify_file(path)
        except Malformed as exc:
            print(f"{path}: error: {exc}", file=sys.stderr)
            worst = max(worst, EXIT_INPUT)
            continue
        print(render(path, report, ns.quiet))
        if not report.ok:
            worst = max(worst, EXIT_EXPECT)
    return worst
