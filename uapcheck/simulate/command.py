"""`uapcheck simulate FILE... [--seed N] [--samples K] [--layers M] [--tokens N] [--causal]`.

Exit codes: 0 every experiment agrees with the verdict; 1 an experiment contradicts it; 2 input
error or a construct the simulator does not model; 3 internal error.
"""
from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__

if TYPE_CHECKING:
    from .run import Simulation

EXIT_OK, EXIT_CONTRADICTED, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3
#: The whole run of one file (derivation and experiments) ends within this many seconds.
SIMULATION_SECONDS = 300.0


def _nonneg_int(text: str) -> int:
    from ..cli import number_argument
    value = number_argument(text, int, "expected a whole number, got {text!r}")
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number ≥ 0, got {value}")
    return value


def add_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--seed", type=_nonneg_int, default=0, help="random seed (the run is deterministic)")
    ap.add_argument("--samples", type=_nonneg_int, default=4, help="random samples per experiment (1 to 64)")
    ap.add_argument("--layers", type=_nonneg_int, default=None,
                    help="depth of the separation experiment (default: the derived number of layers)")
    ap.add_argument("--tokens", type=_nonneg_int, default=None,
                    help="n for a file with symbolic `tokens` (default 8)")
    ap.add_argument("--causal", action="store_true",
                    help="also show that one layer sees a prefix only as a set and two see its order")


def options_from(ns):
    from .run import Options
    return Options(seed=ns.seed, samples=ns.samples, layers=ns.layers, tokens=ns.tokens, causal=ns.causal)


def run_one(spec, result, options) -> tuple[Simulation, int]:
    """(the Simulation, its exit code); raises SimulationUnsupported for input errors."""
    from ..budget import BudgetExceeded, time_limit
    from .evaluate import SimulationUnsupported
    from .run import simulate
    try:
        with time_limit("the simulation", SIMULATION_SECONDS):
            sim = simulate(spec, result, options)
    except BudgetExceeded as exc:
        raise SimulationUnsupported(f"the simulation did not finish in its budget ({exc}); try fewer "
                                    "--samples or a smaller --tokens") from None
    return sim, EXIT_OK if sim.consistent else EXIT_CONTRADICTED


def error_text(path: str, source: str, exc) -> str:
    from ..errors import UapError, format_error
    if exc.loc.line:
        return format_error(path, source, UapError(f"simulate: {exc.message}", exc.loc.line, exc.loc.column))
    return f"{path}: error: simulate: {exc.message}"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="uapcheck simulate", description="Numeric experiments with random "
                                 "networks of the family a .uap file describes: evidence for its verdict, "
                                 "not a proof.")
    ap.add_argument("files", nargs="+", help=".uap files or directories")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    add_options(ap)
    from ..cli import parse_arguments
    ns = parse_arguments(ap, argv)
    if isinstance(ns, int):
        return ns
    from ..errors import UapError, format_error
    from ..parse import decode, parse_source
    from ..render import jsonout
    from .evaluate import SimulationUnsupported
    from .summary import render_text, to_json
    options = options_from(ns)
    files: list[str] = []
    for a in ns.files:
        p = Path(a)
        files.extend(str(f) for f in sorted(p.rglob("*.uap"))) if p.is_dir() else files.append(a)
    if not files:
        print("uapcheck simulate: error: no .uap files found", file=sys.stderr)
        return EXIT_INPUT
    worst = EXIT_OK
    for path in files:
        source = ""
        try:
            data = Path(path).read_bytes()
            source = data.decode("utf-8", errors="replace")
            source = decode(data)
            spec = parse_source(source, path)
            sim, code = run_one(spec, None, options)
        except (UapError, RecursionError) as err:
            if isinstance(err, RecursionError):
                err = UapError("the input is nested too deeply", 1, 1)
            if ns.format == "json":
                print(jsonout.dumps(jsonout.error_json(path, err)))
            else:
                print(format_error(path, source, err), file=sys.stderr)
            worst = max(worst, EXIT_INPUT)
            continue
        except SimulationUnsupported as exc:
            if ns.format == "json":
                print(jsonout.dumps({"schema": "uapcheck-simulate/1", "file": path,
                                     "error": {"line": exc.loc.line, "column": exc.loc.column,
                                               "message": f"simulate: {exc.message}"}}))
            else:
                print(error_text(path, source, exc), file=sys.stderr)
            worst = max(worst, EXIT_INPUT)
            continue
        except OSError as exc:
            print(f"{path}: error: cannot read the file: {exc.strerror or exc}", file=sys.stderr)
            worst = max(worst, EXIT_INPUT)
            continue
        except Exception:  # a simulator bug: say so, never pass it off as evidence
            print(f"{path}: internal error in uapcheck {__version__} (simulate); please report it with this "
                  "file:", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            worst = max(worst, EXIT_INTERNAL)
            continue
        print(jsonout.dumps(to_json(sim)) if ns.format == "json" else render_text(sim))
        worst = max(worst, code)
    return worst
