"""Re-check a certificate file, step by step, without the engines.

Each step ends `verified` (its data re-checked exactly, or its inference re-checked from its
premises), `checked numerically` (a transcendental growth class: high precision at the witness
points, the reason named), `trusted` (not re-checked, with the reason) or `rejected` (the data
does not check: the step is named).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .. import spec as S
from . import blocks, clock, kernels, normal_form, patterns, structure
from .trees import TreeError

SCHEMA = "uapcheck-certificate/1"
VERIFIED, NUMERIC, TRUSTED, REJECTED = "verified", "checked numerically", "trusted", "rejected"
STATUSES = ("proved", "refuted", "undecided")


class Malformed(Exception):
    """The file is not a certificate this verifier reads (exit 2)."""


class Reject(Exception):
    """The step's data does not prove its claim."""


class Trust(Exception):
    """The step is not re-checked here; the message says why."""


@dataclass
class StepOutcome:
    id: str
    rule: str
    status: str
    outcome: str
    reason: str


@dataclass
class Report:
    path: str
    verdict: str
    steps: list[StepOutcome] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # rejections outside any step (hash, verdict)
    # the steps a NOT-UAP verdict rests on (VERDICT-T1, its proved obstruction and that step's premises):
    # the obstruction alone gives NOT-UAP, whatever the kernels, the FFN and the group (§11.1); None: all
    rests_on: Optional[frozenset] = None
    # what an OK certifies, read off the re-checked fields (statement.py); None when something was rejected
    statement: Optional[Any] = None
    # the values certificate blocks state that no check compared with a checked copy (blocks.py), by path
    unbound: list[str] = field(default_factory=list)
    # the input's name for a symbolic length (`tokens N`): the report's lines say it where the checks say n
    length: str = "n"

    @property
    def rejected(self) -> list[StepOutcome]:
        return [s for s in self.steps if s.outcome == REJECTED]

    @property
    def complete(self) -> bool:
        """Every step verified or checked numerically."""
        return all(s.outcome in (VERIFIED, NUMERIC) for s in self.steps)

    @property
    def rests_verified(self) -> bool:
        """The steps the verdict rests on are verified or checked numerically (every step, unless `rests_on`)."""
        return all(s.outcome in (VERIFIED, NUMERIC) for s in self.steps
                   if self.rests_on is None or s.id in self.rests_on)

    @property
    def ok(self) -> bool:
        if self.problems or self.rejected:
            return False
        # UAP, NOT-UAP and ILL-POSED each assert a property of the family (ILL-POSED: the normaliser changes sign)
        return self.rests_verified or self.verdict not in ("UAP", "NOT-UAP", "ILL-POSED")


# ---------------------------------------------------------------------------------------------
# Loading

def _need(obj: Any, key: str, kind, where: str):
    if not isinstance(obj, dict) or key not in obj:
        raise Malformed(f"{where}: missing field {key!r}")
    value = obj[key]
    if kind is not None and not isinstance(value, kind):
        raise Malformed(f"{where}: field {key!r} has the wrong type")
    return value


def load(path: str) -> dict:
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise Malformed(f"cannot read the certificate: {exc.strerror or exc}") from None
    try:
        cert = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # bad UTF-8 or JSON, or an integer beyond Python's digit limit
        if path.endswith(".uap") or raw.lstrip()[:12] == b"architecture":
            raise Malformed("this is a .uap file, not a certificate: write its certificate with "
                            "`uapcheck --certificate OUT.json FILE.uap`, then run `uapcheck verify OUT.json`") from None
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if "integer string conversion" in why:
            why = "an integer of more than 4,300 digits, beyond what Python converts"
        raise Malformed(f"not a JSON certificate ({why[:120]})") from None
    validate(cert)
    return cert


def validate(cert: Any) -> None:
    if not isinstance(cert, dict):
        raise Malformed("a certificate is a JSON object")
    schema = cert.get("schema")
    if schema != SCHEMA:
        raise Malformed(f"unknown schema {str(schema)[:60]!r} (this verifier reads {SCHEMA})")
    inp = _need(cert, "input", dict, "certificate")
    _need(inp, "text", str, "input")
    _need(inp, "sha256", str, "input")
    _need(cert, "verdict", str, "certificate")
    steps = _need(cert, "steps", list, "certificate")
    if not steps:
        raise Malformed("the certificate has no steps")
    for k, s in enumerate(steps):
        where = f"step {k + 1}"
        for key, kind in (("id", str), ("rule", str), ("status", str), ("premises", list), ("evidence", dict)):
            _need(s, key, kind, where)
        if "data" in s and s["data"] is not None and not isinstance(s["data"], dict):
            raise Malformed(f"{where}: field 'data' has the wrong type")
        if not all(isinstance(p, str) for p in s["premises"]):
            raise Malformed(f"{where}: premises are step ids")


# ---------------------------------------------------------------------------------------------
# Verification

@dataclass
class Context:
    cert: dict
    spec: S.Spec
    steps: dict  # id -> step dict
    order: list  # ids in file order
    heads_of: dict  # step id -> head index
    symbols: dict
    cache: dict = field(default_factory=dict)
    unbound: list = field(default_factory=list)  # block values no check compared (blocks.py), by path
    #: step id -> (L, residues): the classes of n mod L where a layer step's count is least, as that step's check
    #: re-derived them (a least flag by class); the certified statement reads only these
    least_classes: dict = field(default_factory=dict)

    def step(self, sid: str) -> dict:
        return self.steps[sid]

    def premises(self, step: dict) -> list[dict]:
        return [self.steps[p] for p in step["premises"]]

    def arcs(self):
        if "arcs" not in self.cache:
            try:
                self.cache["arcs"] = patterns.spec_arcs(self.spec)
            except patterns.Symbolic as exc:
                self.cache["arcs"] = exc
        if isinstance(self.cache["arcs"], Exception):
            raise self.cache["arcs"]
        return self.cache["arcs"]


def _length_name(spec) -> str:
    """The input's name for its length, as its reports print it: its symbolic `tokens` name, else n."""
    return spec.tokens if isinstance(spec.tokens, str) else "n"


def verify(cert: dict, only: Optional[set] = None, seconds: Optional[float] = None) -> Report:
    """Re-check a certificate. `only` (step ids) re-checks just those steps and the file-level facts
    (the mutation test uses it: the other steps are unchanged copies of checked ones). `seconds`, when
    given, is a CPU-time budget for the whole certificate: the step it runs out in, and every later one,
    is reported TRUSTED (not re-checked), never guessed; so is a step that runs out of memory."""
    validate(cert)
    inp = cert["input"]
    report = Report(str(inp.get("path", "<certificate>")), cert["verdict"])
    text = inp["text"]
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != inp["sha256"]:
        report.problems.append("input: the SHA-256 hash does not match the input text")
    from ..errors import UapError
    from ..parse import parse_source
    try:
        spec = parse_source(text, report.path)
    except (UapError, RecursionError) as exc:
        report.problems.append(f"input: the text does not parse ({getattr(exc, 'message', exc)})")
        return report
    report.length = _length_name(spec)
    spec = normal_form.flat_unions(spec)  # `A + (B + C)` read as `A + B + C`: the same arcs, one reading
    steps, order = {}, []
    for s in cert["steps"]:
        if s["id"] in steps:
            report.problems.append(f"{s['id']}: duplicate step id")
            return report
        for p in s["premises"]:
            if p not in steps:
                report.problems.append(f"{s['id']}: premise {p} is not an earlier step")
                return report
        steps[s["id"]] = s
        order.append(s["id"])
    ctx = Context(cert, spec, steps, order, {}, kernels.param_symbols(spec))
    normal_form.apply(ctx)  # PAT-NORMAL first: the later pattern steps are re-checked on the normal forms
    try:
        structure.assign_heads(ctx)
    except structure.StructureError as exc:
        report.problems.append(str(exc))
        return report
    pending = [sid for sid in order if only is None or sid in only]
    try:
        with clock.cpu_budget(seconds) as budget:
            while pending:
                s = steps[pending[0]]
                try:
                    outcome, reason = _check_step(ctx, s)
                except MemoryError:
                    outcome, reason = TRUSTED, "not re-checked: the verifier ran out of memory in this step"
                if budget.expired:  # the timer fired inside a C call that reported it as its own error
                    raise clock.OutOfTime()
                report.steps.append(StepOutcome(s["id"], s["rule"], s["status"], outcome, reason))
                pending.pop(0)
    except clock.OutOfTime:
        for k, sid in enumerate(pending):
            s = steps[sid]
            why = (f"not re-checked: the verifier's CPU time budget of {seconds:g} s ran out in this step" if k == 0
                   else f"not re-checked: the verifier's CPU time budget of {seconds:g} s had run out (in step "
                        f"{pending[0]})")
            report.steps.append(StepOutcome(sid, s["rule"], s["status"], TRUSTED, why))
    for problem in structure.check_top_level(ctx):
        report.problems.append(problem)
    report.unbound = ctx.unbound
    report.rests_on = _obstruction_chain(cert["verdict"], steps, order)
    if report.ok:
        _state(ctx, report)
    return report


def _state(ctx: Context, report: Report) -> None:
    """The statement a verified certificate certifies; a value it reads in a form no check compared makes the
    certificate malformed (a problem of the report), never an internal error."""
    from . import statement
    try:
        report.statement = statement.certified(ctx, {o.id: o.outcome for o in report.steps})
    except (TreeError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        report.problems.append(f"the certified statement cannot be read ({type(exc).__name__}: {str(exc)[:120]})")


def _obstruction_chain(verdict: str, steps: dict, order: list) -> Optional[frozenset]:
    """For a NOT-UAP verdict of VERDICT-T1 with a proved obstruction among its premises: the verdict step,
    the obstruction and its premises, transitively; else None (the verdict rests on every step)."""
    root = steps[order[-1]]
    if verdict != "NOT-UAP" or root["rule"] != "VERDICT-T1":
        return None
    todo = [p for p in root["premises"] if structure.is_obstruction(steps[p])]
    if not todo:
        return None
    seen = {root["id"]}
    while todo:
        sid = todo.pop()
        if sid not in seen:
            seen.add(sid)
            todo.extend(steps[sid]["premises"])
    return frozenset(seen)


def _bind_block(ctx: Context, s: dict, outcome: str, reason: str) -> tuple[str, str]:
    """A checked step's certificate block: each value it states again must equal its checked copy (blocks.py)."""
    if outcome not in (VERIFIED, NUMERIC):
        return outcome, reason
    try:
        ctx.unbound.extend(blocks.bind(ctx, s))
    except blocks.Mismatch as exc:
        return REJECTED, f"the certificate block states a value the check does not give: {exc}"
    except (TreeError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return REJECTED, f"malformed certificate block ({type(exc).__name__}: {str(exc)[:120]})"
    return outcome, reason


def _check_step(ctx: Context, s: dict) -> tuple[str, str]:
    if s["status"] not in STATUSES:
        return REJECTED, f"unknown status {s['status']!r}"
    checker = CHECKERS.get(s["rule"])
    try:
        if s["rule"] in ONLY_UNDECIDED:
            if s["status"] != "undecided":
                raise Reject(f"rule {s['rule']} only ever concludes `undecided`")
            return VERIFIED, "an undecided step asserts nothing"
        allowed = KERNEL_STATUSES.get(s["rule"])
        if allowed is not None and s["status"] not in allowed:
            raise Reject(f"rule {s['rule']} only ever concludes {' or '.join(f'`{a}`' for a in allowed)}")
        if checker is None:
            raise Trust(f"no checker for rule {s['rule']}")
        return _bind_block(ctx, s, *checker(ctx, s))
    except Reject as exc:
        return REJECTED, str(exc)
    except Trust as exc:
        return TRUSTED, str(exc)
    except (patterns.Symbolic, kernels.OutOfScope) as exc:
        return TRUSTED, f"outside the verifier's scope: {exc}"
    except (TreeError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return REJECTED, f"malformed step data ({type(exc).__name__}: {str(exc)[:120]})"


ONLY_UNDECIDED = {"LIM-UNSUPPORTED", "SYM-UNDECIDED", "PAT-UNDECIDED", "DIM-RANGE", "PAT-BUDGET-VIEW",
                  "WP-NYSTROM", "TGT-UNDECIDED", "BUDGET", "SEQ-UNDECIDED", "CONV-UNDECIDED"}

# The statuses a kernel-side rule can conclude (its section of docs/theory.md): a step of such a rule with another
# status states what the rule never shows (an AN-STRUCT `refuted`, "not analytic"; a LIM-REGION `refuted`)
KERNEL_STATUSES = {
    **{rule: ("proved", "undecided") for rule in (
        "AN-STRUCT", "LIM-REGION", "LIM-NYSTROM", "POS-OFFSET", "TD-FIXEDBIAS", "TD-KERNEL", "TD-BIAS", "TD-BUCKETS",
        "TD-LINFORMER", "TD-RADIAL", "TD-ROTARY", "HEADS-DIFF", "HEADS-SINK", "HEADS-SHARED", "PE-LIFT")},
    **{rule: ("proved",) for rule in ("HEADS-ZERO-VALUE", "LIM-REDUCE", "TD-MEANS", "TD-COMPLEX")},
    # LIM-UNDECIDED never proves (LIM), but refutes it when every region where it does not hold fails (§6.5)
    "LIM-UNDECIDED": ("refuted", "undecided"),
}

CHECKERS: dict[str, Callable[[Context, dict], tuple[str, str]]] = {}


def checker(*rules: str):
    def deco(fn):
        for r in rules:
            CHECKERS[r] = fn
        return fn
    return deco


# Registered by importing the modules that define checkers.
from . import rules_graph, rules_kernel, rules_infer, rules_positions, rules_targets  # noqa: E402,F401
from . import rules_bias, rules_budget, rules_routes  # noqa: E402,F401
from . import rules_conv, rules_layers, rules_means  # noqa: E402,F401
from . import layer_globals, layer_windows  # noqa: E402,F401
from . import layer_cyclic_windows  # noqa: E402,F401
