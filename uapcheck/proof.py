"""The proof kernel: derivation steps exist only as the conclusions of registered rules.

Following the LCF idea, a `Step` cannot be built directly: `Step.__post_init__` checks a seal that
only `conclude` holds, and `conclude` only works inside a function decorated with `@rule(ID)`
and only for that rule's own id. So every node of a derivation names the rule that made it, and
printers can only walk trees that rules produced.
"""
from __future__ import annotations

import contextvars
import functools
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Iterator, Mapping, Optional

import sympy

PROVED = "proved"
REFUTED = "refuted"
UNDECIDED = "undecided"
STATUSES = (PROVED, REFUTED, UNDECIDED)


class Verdict(str, Enum):
    UAP = "UAP"
    NOT_UAP = "NOT-UAP"
    INCONCLUSIVE = "INCONCLUSIVE"
    ILL_POSED = "ILL-POSED"


@dataclass(frozen=True)
class RuleInfo:
    id: str
    title: str
    cite: str
    function: str


RULES: dict[str, RuleInfo] = {}

_SEAL = object()
_active: contextvars.ContextVar[Optional[str]] = contextvars.ContextVar("uapcheck_active_rule", default=None)


def _jsonable(value: Any) -> Any:
    """Evidence must be re-checkable by other programs: store exact values as plain JSON data."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, sympy.Integer):
        return int(value)
    if isinstance(value, sympy.Basic):
        try:
            return sympy.sstr(value)
        except ValueError:  # an integer too long for Python's str conversion limit
            return "(a value too large to print)"
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        seq = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return [_jsonable(v) for v in seq]
    return str(value)


@dataclass(frozen=True, eq=False)
class Step:
    rule: str
    claim: str
    status: str
    premises: tuple["Step", ...]
    evidence: Mapping[str, Any]
    cite: str
    notes: tuple[str, ...] = ()
    _seal: object = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self._seal is not _SEAL:
            raise RuntimeError("derivation steps are made only by rules (use proof.conclude inside @rule)")
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}")

    @property
    def proved(self) -> bool:
        return self.status == PROVED

    def walk(self) -> Iterator["Step"]:
        """Premises before conclusions, each step once."""
        seen: set[int] = set()

        def go(s: "Step") -> Iterator["Step"]:
            if id(s) in seen:
                return
            seen.add(id(s))
            for p in s.premises:
                yield from go(p)
            yield s

        yield from go(self)


def rule(rule_id: str, title: str, cite: str) -> Callable:
    """Register a rule function; inside it, `conclude` may make steps with this id."""

    def decorate(fn: Callable) -> Callable:
        if rule_id in RULES and RULES[rule_id].function != fn.__qualname__:
            raise ValueError(f"rule id {rule_id} registered twice")
        RULES[rule_id] = RuleInfo(rule_id, title, cite, fn.__qualname__)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            token = _active.set(rule_id)
            try:
                return fn(*args, **kwargs)
            finally:
                _active.reset(token)

        wrapper.rule_id = rule_id  # type: ignore[attr-defined]
        return wrapper

    return decorate


def conclude(claim: str, status: str, premises=(), evidence: Optional[Mapping[str, Any]] = None,
             notes=(), rule_id: Optional[str] = None) -> Step:
    active = _active.get()
    if active is None:
        raise RuntimeError("proof.conclude called outside a rule")
    if rule_id is not None and rule_id != active:
        raise RuntimeError(f"rule {active} cannot conclude a step of rule {rule_id}")
    info = RULES[active]
    return Step(active, claim, status, tuple(premises), _jsonable(dict(evidence or {})), info.cite,
                tuple(notes), _SEAL)


def number_steps(root: Step) -> dict[int, str]:
    """Stable ids s1, s2, ... in premises-first order: the numbering every printer uses."""
    return {id(s): f"s{i}" for i, s in enumerate(root.walk(), start=1)}
