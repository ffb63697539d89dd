"""A step's claim, built from typed parts: words, and formulas that keep their mathematics.

A rule states its claim as a `Claim`: a tuple of parts, each either plain text or a formula part.
A formula part holds the mathematics itself (a SymPy expression or an exact integer, a named group, or
a formula the rule writes out in both forms) together with its plain wording. The printers only walk the
parts: the text printer, `--short` and the JSON `claim` field use the wording (`str(claim)`), exactly as a
prose claim read before; the LaTeX and Markdown printers set each formula part in math mode through
SymPy's LaTeX printer (uapcheck/render/math.py). Nothing here, or in a printer, parses text.

A claim is made with `claim(...)`, from strings and parts, and joined with `+`:

    claim("the exact equivariance group is ", group("S_n", lhs="G"), ": ", why)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

import sympy


@dataclass(frozen=True)
class Formula:
    """A SymPy expression (or an exact int) and its plain wording."""

    value: Any
    text: str

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or not isinstance(self.value, (int, sympy.Basic)):
            raise TypeError(f"a formula holds a SymPy expression or an int, not {type(self.value).__name__}")


@dataclass(frozen=True)
class GroupName:
    """A group by its name (S_n, C_n, D_n, trivial, reflection, or a description), optionally `lhs = name`."""

    name: str
    lhs: str = ""
    structure: Any = None  # the name as typed parts (groups.GroupStructure) when it is a structure

    @property
    def text(self) -> str:
        return f"{self.lhs} = {self.name}" if self.lhs else self.name


@dataclass(frozen=True)
class Written:
    """A formula a rule writes out itself (a fixed statement of the theory): its wording and its LaTeX."""

    text: str
    latex: str


@dataclass(frozen=True)
class Chain:
    """Formula parts set as one formula (`α(t) ~ 2·t^3`: a written relation, then a SymPy expression)."""

    items: tuple

    def __post_init__(self) -> None:
        if not self.items or not all(isinstance(item, (Formula, GroupName, Written)) for item in self.items):
            raise TypeError("a chain holds formula parts")

    @property
    def text(self) -> str:
        return "".join(item.text for item in self.items)


@dataclass(frozen=True)
class ReasonStart:
    """Where a verdict's reason begins: the parts before it repeat the verdict (the headline says it), the
    parts after it are the reason a panel shows. It has no words and no formula."""

    text: str = ""


REASON = ReasonStart()

Part = Union[str, Formula, GroupName, Written, Chain, ReasonStart]
_PARTS = (str, Formula, GroupName, Written, Chain, ReasonStart)


class Claim:
    """An immutable sequence of parts; `str(claim)` is its plain wording."""

    __slots__ = ("parts",)
    parts: tuple

    def __init__(self, parts: tuple = ()) -> None:
        merged: list = []
        for part in parts:
            if isinstance(part, Claim):
                items: tuple = part.parts
            elif isinstance(part, int) and not isinstance(part, bool):
                items = (str(part),)  # a count in the words (a number of layers, a position)
            elif isinstance(part, _PARTS):
                items = (part,)
            else:
                raise TypeError(f"a claim part is text or a formula part, not {type(part).__name__}")
            for item in items:
                if isinstance(item, str):
                    if not item:
                        continue
                    if merged and isinstance(merged[-1], str):
                        merged[-1] += item
                        continue
                merged.append(item)
        object.__setattr__(self, "parts", tuple(merged))

    def __setattr__(self, name, value):
        raise AttributeError("a claim cannot be changed")

    def __str__(self) -> str:
        return "".join(part if isinstance(part, str) else part.text for part in self.parts)

    def __repr__(self) -> str:
        return f"Claim({self.parts!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Claim) and self.parts == other.parts

    def __hash__(self) -> int:
        return hash(self.parts)

    def __add__(self, other) -> "Claim":
        return Claim((self, other))

    def __radd__(self, other) -> "Claim":
        return Claim((other, self))

    @property
    def formulas(self) -> tuple:
        return tuple(part for part in self.parts if not isinstance(part, (str, ReasonStart)))


def claim(*parts) -> Claim:
    """A claim from text, formula parts and other claims, in reading order."""
    return Claim(parts)


def math(value, text: str | None = None) -> Formula:
    """A formula part; its wording is `text`, by default SymPy's plain printer (`sympy.sstr`)."""
    if text is None:
        text = str(value) if isinstance(value, int) else sympy.sstr(value)
    return Formula(value, text)


def eq(name: str, value, text: str | None = None, *, latex_name: str | None = None) -> Formula:
    """`name = value` as one formula (`r = 1`, `D = 2`); `text` words the value."""
    if text is None:
        text = str(value) if isinstance(value, int) else sympy.sstr(value)
    symbol = sympy.Symbol(latex_name or name)
    rhs = sympy.Integer(value) if isinstance(value, int) else value
    return Formula(sympy.Eq(symbol, rhs, evaluate=False), f"{name} = {text}")


def group(name: str, lhs: str = "", structure: Any = None) -> GroupName:
    return GroupName(str(name), lhs, structure)


def written(text: str, latex: str) -> Written:
    return Written(text, latex)


def chain(*items) -> Chain:
    return Chain(tuple(items))


def as_claim(value) -> Claim:
    return value if isinstance(value, Claim) else Claim((value,))


def of_step(step) -> Claim:
    """A step's claim, as parts, to quote inside another claim."""
    return Claim(step.claim_parts)
