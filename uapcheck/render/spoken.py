"""The file's own name for the length in every printed statement (docs/language.md, `tokens`).

The engines state their results about the length n: group names (S_n, D_n), generators ((1 2 ... n),
i ↦ n + 1 − i), conditions (n ≥ 7, n mod 4 = 1, s | n), position sets ({3, …, n}), claims, evidence and notes,
and SymPy formulas in a Symbol named n. A file that names its symbolic length otherwise (`tokens N`) reads
them in its own name: `spoken(result)` is a read-only view of a checked result in which the length slot n of
every printed statement is filled with the file's name. It is the one point where the name is substituted;
every printer takes the view (it is the result itself when the file's name is n, or its length an integer) and
walks it as it walks the result. The derivation, the typed facts the later stages read and the certificates
(which the kernel and the verifier check in the file's own symbol, certificates.py) are not touched.

The slot is the word n. No other thing of such a file is named n (parse.py refuses a `param n` or a `dim n`
beside a symbolic length of another name), so the word n of an engine's statement is the length: the whole word
is renamed, also as a subscript or inside braces (S_n, x_n, {3, …, n}, S_{n-1}), never a letter inside a word
(`in`, `one`, `\\nu`). A Formula keeps its SymPy value with the Symbol n replaced by the file's Symbol (same
assumptions), so the LaTeX printer sets the file's name. Words that merely quote the file (the path, the
architecture, the `expect` line) are the file's own and are not statements about n.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, Iterator

import sympy

#: the length slot: the word n (a subscript `_n` and `{n` count as word starts; `\n…` is a LaTeX command)
_SLOT = re.compile(r"(?<![A-Za-z0-9\\])n(?![A-Za-z0-9])")
#: the name the engines give the length
ENGINE_NAME = "n"


def length_name(spec) -> "str | None":
    """The name to put in the slot: the file's symbolic `tokens` name when it is not n, else None (no view)."""
    tokens = getattr(spec, "tokens", None)
    return tokens if isinstance(tokens, str) and tokens != ENGINE_NAME else None


def speak_text(text: str, name: str) -> str:
    """`text` with the word n renamed `name`."""
    return _SLOT.sub(name, text) if "n" in text else text


def speak_expr(expr: Any, name: str) -> Any:
    """A SymPy expression with its Symbol n (the length) replaced by the Symbol `name` of the same assumptions."""
    if not isinstance(expr, sympy.Basic):
        return expr
    olds = [s for s in expr.free_symbols if isinstance(s, sympy.Symbol) and s.name == ENGINE_NAME]
    if not olds:
        return expr
    return expr.xreplace({s: sympy.Symbol(name, **s.assumptions0) for s in olds})


class _Structure:
    """A group structure (groups.GroupStructure) with its words and formula in the file's name."""

    def __init__(self, inner: Any, name: str) -> None:
        self._inner, self._name = inner, name

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._inner, attr)

    @property
    def text(self) -> str:
        return speak_text(self._inner.text, self._name)

    @property
    def latex(self) -> str:
        return speak_text(self._inner.latex, self._name)

    def to_json(self) -> Any:
        return speak_value(self._inner.to_json(), self._name)


class _Reflection:
    """The reflection's formula (render/math.group_name) in the file's name, as a group's structure: the printers set
    it where they set a group's formula."""

    text = "reflection"

    def __init__(self, name: str) -> None:
        from .math import group_name
        self.latex = speak_text(group_name("reflection"), name)


def _speak_dataclass(value: Any, name: str) -> Any:
    """A record of the printed data (a claim part, a group, a class, a length's verdict) with its fields spoken."""
    if type(value).__name__ == "GroupInfo" and value.name == "reflection" and value.structure is None:
        value = dataclasses.replace(value, structure=_Reflection(name))
    changes = {}
    for f in dataclasses.fields(value):
        if not f.init or (f.name == "symbol" and type(value).__name__ == "LengthVerdict"):
            continue  # a length's verdict holds the file's name already (`tokens x_n`: not x_ and the length again)
        old = getattr(value, f.name)
        if f.name == "structure":
            new = old if old is None or isinstance(old, _Reflection) else _Structure(old, name)
        else:
            new = speak_value(old, name)
        if new is not old:
            changes[f.name] = new
    return dataclasses.replace(value, **changes) if changes else value


#: the records a printer reads of a result and prints (claims' parts, groups, a length's verdict), by class name;
#: anything else (an engine's own record, a certificate) is passed on as it is
_RECORDS = frozenset({"Formula", "Written", "Chain", "ReasonStart", "GroupInfo", "GroupClass", "LengthVerdict",
                      "Citation"})


def speak_value(value: Any, name: str) -> Any:  # noqa: C901 - one branch per kind of printed value
    """Printed data (JSON-like values, SymPy, the printed records) with the length slot filled with `name`."""
    if isinstance(value, str):
        return speak_text(value, name)
    if isinstance(value, sympy.Basic):
        return speak_expr(value, name)
    if isinstance(value, bool) or value is None or isinstance(value, (int, float)):
        return value
    if isinstance(value, dict):
        # a key n is a field's name (a length below the range, a pattern's parameter), not a statement about n
        return {(k if k == ENGINE_NAME else speak_value(k, name)): speak_value(v, name) for k, v in value.items()}
    if isinstance(value, list):
        return [speak_value(v, name) for v in value]
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(speak_value(v, name) for v in value)
    if type(value).__name__ == "GroupName":
        return _group_name(value, name)
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and type(value).__name__ in _RECORDS:
        return _speak_dataclass(value, name)
    if type(value).__name__ == "Claim":
        from ..claim import Claim
        return Claim(tuple(speak_value(p, name) for p in value.parts))
    return value


def _group_name(part: Any, name: str) -> Any:
    """A claim's group part in the file's name: S_n as S_N; the reflection, whose formula names the length
    (i ↦ n + 1 − i), as that formula written out in the file's name."""
    from ..claim import Written
    from .math import group_name
    if part.name == "reflection":
        formula = speak_text(group_name(part.name), name)
        return Written(part.text, f"{part.lhs} = {formula}" if part.lhs else formula)
    return _speak_dataclass(part, name)


class SpokenStep:
    """A derivation step as the printers read it, its statements in the file's name (the step itself unchanged)."""

    __slots__ = ("_step", "_view", "_cache")

    def __init__(self, step: Any, view: "SpokenResult") -> None:
        self._step, self._view = step, view
        self._cache: dict[str, Any] = {}

    def __getattr__(self, attr: str) -> Any:  # rule, status, head, certificate, proved
        return getattr(self._step, attr)

    def _said(self, key: str, make) -> Any:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    @property
    def claim(self) -> str:
        return self._said("claim", lambda: speak_text(self._step.claim, self._view.name))

    @property
    def claim_parts(self) -> tuple:
        return self._said("claim_parts", lambda: speak_value(tuple(self._step.claim_parts), self._view.name))

    @property
    def citation(self) -> Any:
        return self._said("citation", lambda: speak_value(self._step.citation, self._view.name))

    @property
    def cite(self) -> str:
        return self._said("cite", lambda: speak_text(self._step.cite, self._view.name))

    @property
    def evidence(self) -> Any:
        return self._said("evidence", lambda: speak_value(self._step.evidence, self._view.name))

    @property
    def notes(self) -> tuple:
        return self._said("notes", lambda: tuple(speak_text(n, self._view.name) for n in self._step.notes))

    @property
    def facts(self) -> Any:
        return self._said("facts", lambda: speak_value(dict(self._step.facts), self._view.name))

    @property
    def facts_json(self) -> Any:
        return self._said("facts_json", lambda: speak_value(self._step.facts_json, self._view.name))

    @property
    def certificate_json(self) -> Any:  # the printed copy; certificate files take the step's own (certfile.py)
        return self._said("certificate_json", lambda: speak_value(self._step.certificate_json, self._view.name))

    @property
    def premises(self) -> tuple:
        return tuple(self._view.step(p) for p in self._step.premises)

    def fact(self, key: str, default: Any = None) -> Any:
        return self.facts.get(key, default)

    def walk(self) -> Iterator["SpokenStep"]:
        """Premises before conclusions, each step once (as proof.Step.walk)."""
        for s in self._step.walk():
            yield self._view.step(s)


class SpokenResult:
    """A checked result as the printers read it (see the module's docstring)."""

    def __init__(self, result: Any, name: str) -> None:
        self._result, self.name = result, name
        self._steps: dict = {}

    def __getattr__(self, attr: str) -> Any:  # spec, verdict, expect_holds, expect_reason, target, alternative
        return getattr(self._result, attr)

    def step(self, step: Any) -> SpokenStep:
        if id(step) not in self._steps:
            self._steps[id(step)] = (step, SpokenStep(step, self))  # the step kept alive: ids stay unique
        return self._steps[id(step)][1]

    @property
    def root(self) -> SpokenStep:
        return self.step(self._result.root)

    @property
    def group(self) -> Any:
        return speak_value(self._result.group, self.name)

    @property
    def layers(self) -> Any:
        return speak_expr(self._result.layers, self.name)

    @property
    def expect_reason(self) -> str:
        return speak_text(self._result.expect_reason, self.name)

    @property
    def target(self) -> Any:
        outcome = self._result.target
        return None if outcome is None else _Outcome(outcome, self.name)

    @property
    def alternative(self) -> Any:
        outcome = getattr(self._result, "alternative", None)
        return None if outcome is None else _Outcome(outcome, self.name)


class _Outcome:
    """A target class's outcome (targets.TargetOutcome) whose printed words and record are in the file's name."""

    def __init__(self, inner: Any, name: str) -> None:
        self._inner, self._name = inner, name

    def __getattr__(self, attr: str) -> Any:
        value = getattr(self._inner, attr)
        if callable(value):
            return lambda *a, **k: speak_value(value(*a, **k), self._name)
        return speak_value(value, self._name)


def printed_length(result: Any) -> str:
    """The length's name in the statements of `result` as printed (a printer's own words about n use it)."""
    return result.name if isinstance(result, SpokenResult) else ENGINE_NAME


def spoken(result: Any) -> Any:
    """The view of `result` the printers walk: the result itself when its file names the length n (or fixes it),
    else its statements in the file's name."""
    if isinstance(result, SpokenResult):
        return result
    name = length_name(getattr(result, "spec", None))
    return result if name is None else SpokenResult(result, name)
