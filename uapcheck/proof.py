"""The proof kernel: derivation steps exist only as the conclusions of registered rules.

Following the LCF idea, a `Step` cannot be built, copied or changed outside this module:

* the step's data lives in a table held in a closure of `_make_kernel` (not reachable as a module
  attribute); a `Step` object is only a handle into it, `Step(...)` raises, subclasses are refused,
  and attribute assignment, deletion, pickling, copying and `dataclasses.replace` all fail;
* `conclude` works only inside a function decorated with `@rule(ID, ...)`, for that rule's own id,
  with a status the rule declared (`statuses=`), with premises that are genuine steps, and, for a
  decisive status (proved or refuted), with a certificate of a type the rule declared
  (`certificates=`) that the kernel re-checks before it makes the step. The check it runs is the one
  recorded when the rule was registered, so patching a certificate class later changes nothing;
* rules are registered only from modules of the `uapcheck.rules` package, and only until that
  package has loaded (`uapcheck/rules/__init__.py` closes the registry).

Python offers no true encapsulation: code that reads closure cells, walks the garbage collector or
uses ctypes can reach anything. The kernel guards against mistakes and against every ordinary
way of making a step; docs/theory.md §2 states this trust model.
"""
from __future__ import annotations

import contextvars
import copy
import dataclasses
import functools
import sys
import types
import weakref
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Optional

import sympy

from .claim import Claim
from .value_enum import ValueEnum


class Status(ValueEnum):
    """What a step establishes about its claim. The JSON strings are the values."""

    PROVED = "proved"
    REFUTED = "refuted"
    UNDECIDED = "undecided"


PROVED = Status.PROVED
REFUTED = Status.REFUTED
UNDECIDED = Status.UNDECIDED
STATUSES = tuple(Status)
DECISIVE = frozenset({PROVED, REFUTED})


class Verdict(ValueEnum):
    UAP = "UAP"
    NOT_UAP = "NOT-UAP"
    INCONCLUSIVE = "INCONCLUSIVE"
    ILL_POSED = "ILL-POSED"


class Provenance(ValueEnum):
    """Whose statement a rule applies: the paper's, the paper's corrected here, or derived here."""

    PAPER = "paper"
    CORRECTED = "corrected"
    DERIVED = "derived"


@dataclass(frozen=True)
class Citation:
    """Where a rule's statement comes from: `provenance` with the paper's numbered statements
    (`statements`, e.g. ("Theorem 1", "Corollary 1")) and the wording printed under each step."""

    provenance: Provenance
    statements: tuple[str, ...]
    text: str

    def __str__(self) -> str:
        return self.text

    def label(self) -> str:
        """Whose statement: "the paper's Theorem 1", "the paper's Corollary 2, corrected here",
        "derived here (from the paper's Corollary 1)"."""
        named = ", ".join(self.statements)
        if self.provenance is Provenance.PAPER:
            return f"the paper's {named}" if named else "the paper"
        if self.provenance is Provenance.CORRECTED:
            return f"the paper's {named}, corrected here"
        return "derived here" + (f" (from the paper's {named})" if named else "")

    def display(self) -> str:
        """The line printed under a step: whose statement, then where it is proved."""
        return f"{self.label()} — {self.text}"

    def to_json(self) -> dict:
        return {"kind": self.provenance.value, "statements": list(self.statements)}


def paper(*statements: str, text: str) -> Citation:
    """A statement of the paper (Cheng, Lin, Shen, Li 2025), applied as stated."""
    return Citation(Provenance.PAPER, tuple(statements), text)


def corrected(*statements: str, text: str) -> Citation:
    """A statement of the paper, corrected here (the correction is proved in docs/theory.md)."""
    return Citation(Provenance.CORRECTED, tuple(statements), text)


def derived(*statements: str, text: str) -> Citation:
    """Derived here (docs/theory.md); `statements` names paper results the derivation uses."""
    return Citation(Provenance.DERIVED, tuple(statements), text)


class CertificateRejected(RuntimeError):
    """A rule offered a certificate that does not check: an engine bug, never a verdict."""


class Certificate:
    """Typed data a rule concludes from. Subclasses (uapcheck/certificates.py) are frozen dataclasses
    with `check()` (raise CertificateRejected when the data does not prove the claim) and
    `to_json()` (plain JSON data, for `--json` and certificate files)."""

    kind = "certificate"

    def check(self) -> None:  # pragma: no cover - every concrete certificate overrides it
        raise CertificateRejected(f"{type(self).__name__} has no check")

    def to_json(self) -> Any:  # pragma: no cover
        raise NotImplementedError


@dataclass(frozen=True)
class RuleInfo:
    """A registered rule, as printers and `--explain` see it (a copy: the kernel keeps its own)."""

    id: str
    title: str
    cite: str
    function: str
    statuses: frozenset
    certificates: tuple[str, ...]
    citation: Citation


_SHORT_INT = 10 ** 15  # below bignum.MAX_DIGITS_SHOWN digits: json_order returns such an int unchanged


@functools.lru_cache(maxsize=4096, typed=True)
def _printed(value: sympy.Basic) -> str:
    """sympy.sstr(value), printed once per process for equal values: SymPy's equality is structural
    (the same tree, Float told apart from Rational, assumptions on symbols included), and sstr is a
    function of that tree, so an equal value prints the same text. Evidence repeats the same values
    in every file of a batch and in every derivation of the suggestion search."""
    return sympy.sstr(value)


#: `sympy.sstr` once per process for equal values (`_printed`), for the engines' own texts of expressions.
printed = _printed


#: Types `_jsonable` returns as they are, told by their exact type (what the general tests give them).
_PLAIN_TYPES = frozenset((str, bool, float, type(None)))


def _jsonable(value: Any) -> Any:
    """Evidence must be re-checkable by other programs: store exact values as plain JSON data."""
    kind = type(value)
    if kind is int and -_SHORT_INT < value < _SHORT_INT:
        return value  # the common case (positions, distances, generators), printed in full anyway
    # the plain types by their exact type first (without asking every isinstance and the Mapping ABC on the way)
    if kind in _PLAIN_TYPES:
        return value
    if kind is dict:
        return {str(k): _order_json(v) if k == "order" else _jsonable(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return _json_sequence(value)
    return _jsonable_other(value)


def _order_json(value: Any) -> Any:
    """An `order` field: in the documented form (bignum.json_order), then as plain JSON data."""
    from .bignum import json_order
    return _jsonable(json_order(value))


def _json_sequence(seq: Any) -> list:
    if (type(seq) in (list, tuple) and seq and set(map(type, seq)) == {int}
            and -_SHORT_INT < min(seq) and max(seq) < _SHORT_INT):
        return list(seq)  # distances and permutations: each entry is its own JSON value (see the top)
    return [_jsonable(v) for v in seq]


def _jsonable_other(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, int) and not isinstance(value, bool):
        from .bignum import json_order
        return json_order(value)  # exact, or a bounded text for an integer of thousands of digits
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, sympy.Integer):
        return _jsonable(int(value))
    if isinstance(value, sympy.Basic):
        try:
            return _printed(value)
        except ValueError:  # an integer too long for Python's str conversion limit
            return "(a value too large to print)"
    if isinstance(value, Certificate):
        return value.to_json()
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return _json_sequence(sorted(value, key=str) if isinstance(value, (set, frozenset)) else value)
    if hasattr(value, "to_json"):
        return _jsonable(value.to_json())
    return str(value)


_JSON_ATOMS = (str, int, float, bool, type(None))
_JSON_ATOM_SET = frozenset(_JSON_ATOMS)  # `_atoms_only`: one C-level pass over the element types


def _json_copy(value: Any) -> Any:
    """A deep copy of `_jsonable`'s output (dicts with text keys, lists, text, numbers, booleans, None): every
    dict and list copied, the immutable leaves shared, as `copy.deepcopy` does for such data; anything else
    goes to `copy.deepcopy`. A caller that changes what it got never changes the kernel's record."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _JSON_ATOMS else _json_copy(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _JSON_ATOMS else _json_copy(v) for v in value]
    if kind in _JSON_ATOMS:
        return value
    return copy.deepcopy(value)


def _frozen(value: Any, share: bool = False) -> Any:
    """`value` as it is now, for the record `conclude` keeps: every dict, list and set inside copied (a Mapping read
    into a dict), tuples, named tuples and frozen dataclasses (claims, certificates) rebuilt when something inside
    them is, and the values that cannot change shared (text, numbers, SymPy expressions, enum members, and tuples and
    frozen dataclasses holding only such values); any other object is copied with `copy.deepcopy`, or shared when
    `share` is set (inside a certificate: its graphs and engine records are built once and never changed). A rule
    that changes a value it passed after `conclude` never changes the step's record, nor the JSON made from it on
    first read; `_frozen(v) is v` exactly when `v` holds nothing that could change."""
    kind = type(value)
    if kind in _JSON_ATOMS:
        return value
    if kind is list:
        if _atoms_only(value):  # the same copy as below, element by element: every element is an atom
            return list(value)
        return [v if type(v) in _JSON_ATOMS else _frozen(v, share) for v in value]
    if kind is tuple:
        if _atoms_only(value):
            return value
        parts = tuple(_frozen(v, share) for v in value)
        return value if all(a is b for a, b in zip(parts, value)) else parts
    if kind is dict or isinstance(value, Mapping):
        return {k: v if type(v) in _JSON_ATOMS else _frozen(v, share) for k, v in value.items()}
    if kind in (set, frozenset):
        return frozenset(value)  # elements are hashable: values that do not change
    fields = _frozen_fields(kind)
    if fields is not None:
        return _frozen_dataclass(value, fields, share or isinstance(value, Certificate))
    if isinstance(value, tuple):
        if hasattr(kind, "_make"):  # a named tuple: its fields cannot be rebound, what they hold may change
            parts = tuple(_frozen(v, share) for v in value)
            return value if all(a is b for a, b in zip(parts, value)) else kind._make(parts)
        return value
    if share or _unchanging(kind):
        return value
    return copy.deepcopy(value)


def _atoms_only(values) -> bool:
    """Whether every element's type is one of `_JSON_ATOMS` (``all(type(v) in _JSON_ATOMS for v in values)``, the
    types read in C: large records, e.g. a position per token, are read once each)."""
    return _JSON_ATOM_SET.issuperset(map(type, values))


def _frozen_dataclass(value: Any, fields: tuple, share: bool) -> Any:
    """A frozen dataclass whose fields are `_frozen`: the value itself when none of them changes, else a shallow copy
    with the copied fields (set as `dataclasses` sets a frozen field)."""
    changed = {}
    for name in fields:
        field = getattr(value, name, _NOT_MADE)
        if field is _NOT_MADE or type(field) in _JSON_ATOMS:
            continue
        kept = _frozen(field, share)
        if kept is not field:
            changed[name] = kept
    if not changed:
        return value
    made = copy.copy(value)
    for name, kept in changed.items():
        object.__setattr__(made, name, kept)
    return made


_FROZEN_FIELDS: dict[type, Optional[tuple]] = {}


def _frozen_fields(kind: type) -> Optional[tuple]:
    """The field names of a frozen dataclass `kind`, None for any other class (asked once per class)."""
    try:
        return _FROZEN_FIELDS[kind]
    except KeyError:
        params = getattr(kind, "__dataclass_params__", None)
        names = (tuple(f.name for f in dataclasses.fields(kind)) if params is not None and params.frozen
                 else None)
        _FROZEN_FIELDS[kind] = names
        return names


def _changeable(facts: dict, certificate: Optional[Certificate]) -> frozenset:
    """What a reader of a step gets a copy of (`readable`): ("facts", name) for each fact, and ("certificate", None)
    for the certificate, that holds something a reader could change (a list, dict or set, or another object)."""
    out = {("facts", k) for k, v in facts.items() if type(v) not in _JSON_ATOMS and _frozen(v) is not v}
    if certificate is not None and _frozen(certificate) is not certificate:
        out.add(("certificate", None))
    return frozenset(out)


_UNCHANGING: dict[type, bool] = {}


def _unchanging(kind: type) -> bool:
    """Values of `kind` cannot change once made: SymPy expressions, enum members, ranges, int and text subclasses,
    claims and certificates (asked once per class; a frozen dataclass's fields are looked at, `_frozen_dataclass`)."""
    known = _UNCHANGING.get(kind)
    if known is None:
        known = _UNCHANGING[kind] = issubclass(kind, (sympy.Basic, Enum, Claim, Certificate, int, float, str, bytes,
                                                      range))
    return known


class _SealedClass(type):
    """Step's class attributes (its field properties) cannot be replaced after the kernel set them."""

    def __setattr__(cls, name, value):
        raise AttributeError("proof.Step cannot be changed")

    def __delattr__(cls, name):
        raise AttributeError("proof.Step cannot be changed")


class Step(metaclass=_SealedClass):
    """One node of a derivation: a handle on data only the kernel holds.

    Fields: rule, claim (its plain wording), claim_parts (the claim's typed parts: text and formula
    parts, uapcheck/claim.py), status (a Status), premises, evidence (JSON data), cite (wording),
    citation (a Citation: provenance and the paper's statements), notes, facts (typed facts for
    later stages; `facts_json` is their JSON form) and certificate (the checked Certificate, or
    None; `certificate_json` is its JSON form), and head (the name of the head whose analysis made the
    step, or None: display metadata, `about_head`).
    """

    __slots__ = ("__weakref__",)

    if TYPE_CHECKING:  # the fields, served read-only by the kernel (_make_kernel sets them as properties)
        rule: str
        claim: str
        claim_parts: tuple
        status: Status
        premises: tuple["Step", ...]
        evidence: dict[str, Any]
        cite: str
        citation: Citation
        notes: tuple[str, ...]
        facts: dict[str, Any]
        facts_json: dict[str, Any]
        certificate: Optional[Certificate]
        certificate_json: Optional[Any]
        head: Optional[str]

        def fact(self, name: str, default: Any = None) -> Any: ...

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("derivation steps are made only by rules (use proof.conclude inside @rule)")

    def __init_subclass__(cls, **kwargs):
        raise TypeError("proof.Step cannot be subclassed")

    def __setattr__(self, name, value):
        raise AttributeError("derivation steps cannot be changed")

    def __delattr__(self, name):
        raise AttributeError("derivation steps cannot be changed")

    def __reduce_ex__(self, protocol):
        raise TypeError("derivation steps cannot be pickled or copied (re-run the rules instead)")

    def __reduce__(self):
        raise TypeError("derivation steps cannot be pickled or copied (re-run the rules instead)")

    def __copy__(self):
        raise TypeError("derivation steps cannot be copied")

    def __deepcopy__(self, memo):
        raise TypeError("derivation steps cannot be copied")

    def __repr__(self) -> str:
        try:
            return f"<Step {self.rule} {self.status.value}: {self.claim[:60]!r}>"
        except RuntimeError:
            return "<Step (not made by a rule)>"

    @property
    def proved(self) -> bool:
        return self.status is PROVED

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


#: The JSON fields of a step and the record entry each is made from on first use (`json_form`).
_JSON_SOURCES = {"evidence": "evidence source", "facts_json": "facts_json source",
                 "certificate_json": "certificate_json source"}
#: A JSON field not made yet.
_NOT_MADE = object()

_FIELDS = ("rule", "claim", "claim_parts", "status", "premises", "evidence", "cite", "citation", "notes", "facts",
           "facts_json", "certificate", "certificate_json", "head")

# The head whose analysis is running (its name: the label, or its number), recorded on every step made
# meanwhile. Display metadata only: printers collapse identical steps of different heads with it.
_current_head: contextvars.ContextVar = contextvars.ContextVar("uapcheck_current_head", default=None)


class about_head:
    """`with proof.about_head(name):` the steps concluded inside are about head `name` (Step.head)."""

    def __init__(self, name: str) -> None:
        self.name = str(name)

    def __enter__(self) -> None:
        self.token = _current_head.set(self.name)

    def __exit__(self, *exc) -> None:
        _current_head.reset(self.token)


# The length of the file being derived (its `tokens`: the symbolic name, or the integer), set by the derivation
# (derive.check_spec): a certificate that names the length is checked against it (certificates.py,
# `_the_files_length`), so a certificate in another symbol than the file's is refused, never read as its length.
_file_length: contextvars.ContextVar = contextvars.ContextVar("uapcheck_file_length", default=None)


class about_file:
    """`with proof.about_file(tokens):` the certificates checked inside are about a file of this length (a name, or
    an integer)."""

    def __init__(self, tokens: Any) -> None:
        self.tokens = tokens

    def __enter__(self) -> None:
        self.token = _file_length.set(self.tokens)

    def __exit__(self, *exc) -> None:
        _file_length.reset(self.token)


def file_length() -> Any:
    """The `tokens` of the file being derived (a name or an integer), or None outside a derivation."""
    return _file_length.get()


def _make_kernel():  # noqa: C901 - the kernel closure: everything that makes a step must live inside it
    """Everything that can make a step lives in this closure; only the functions returned leave it."""
    records: "weakref.WeakKeyDictionary[Step, dict]" = weakref.WeakKeyDictionary()
    registry: dict[str, dict] = {}
    public: dict[str, RuleInfo] = {}
    state = {"open": True}
    active: contextvars.ContextVar = contextvars.ContextVar("uapcheck_active_rule", default=None)
    new_object = object.__new__

    def record(step: Step) -> dict:
        rec = records.get(step) if type(step) is Step else None
        if rec is None:
            raise RuntimeError("not a derivation step made by a rule")
        return rec

    def json_form(self: Step, name: str) -> Any:
        """A JSON field, made from its source on first use: a step whose evidence, facts and certificate are
        never printed (a length below a range, a step a later rule replaces) never pays for their JSON."""
        rec = record(self)
        value = rec[name]
        if value is _NOT_MADE:
            source = rec.pop(_JSON_SOURCES[name])
            value = rec[name] = _jsonable(source if name != "certificate_json" else source.to_json())
        return value

    def getter(name: str) -> property:
        if name in _JSON_SOURCES:
            return property(lambda self: _json_copy(json_form(self, name)))
        if name == "facts":
            return property(lambda self: {k: readable(self, "facts", k, v) for k, v in record(self)[name].items()})
        if name == "certificate":
            return property(lambda self: readable(self, "certificate", None, record(self)[name]))
        return property(lambda self: record(self)[name])

    def readable(self: Step, field: str, key: Optional[str], value: Any) -> Any:
        """A fact or the certificate as a reader gets it: the record's own value when nothing in it can change,
        else a copy (`_frozen`), so that a reader who changes a list, dict or set inside it never changes the record,
        the JSON made from it, or what the next reader gets."""
        if (field, key) not in record(self)["changeable"]:
            return value
        return _frozen(value, share=field == "certificate")

    for name in _FIELDS:
        type.__setattr__(Step, name, getter(name))

    def fact(self: Step, name: str, default: Any = None) -> Any:
        """One typed fact: `step.facts.get(name, default)` without copying every fact first."""
        facts = record(self)["facts"]
        return readable(self, "facts", name, facts[name]) if name in facts else default

    type.__setattr__(Step, "fact", fact)

    def is_step(value: Any) -> bool:
        return type(value) is Step and value in records

    def rule(rule_id: str, title: str, cite, *, statuses, certificates=(), variants=None) -> Callable:
        """Register a rule: `statuses` it may conclude, `certificates` (Certificate classes) it
        concludes a decisive status from, and `variants` (name → Citation): other sources a step of
        the rule may name with `conclude(..., variant=NAME)`, where the rule's argument is not the
        cited statement's (TD-KERNEL's (LIM) on a region only: derived here, not Corollary 1)."""
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if not state["open"]:
            raise RuntimeError(f"rule {rule_id}: the rule registry is closed (rules are registered only "
                               "while uapcheck.rules loads)")
        if not caller.startswith("uapcheck.rules."):
            raise RuntimeError(f"rule {rule_id}: rules are registered only in the uapcheck.rules package "
                               f"(not {caller or 'an unknown module'})")
        citation = cite if isinstance(cite, Citation) else derived(text=str(cite))
        declared = frozenset(Status(s) for s in ((statuses,) if isinstance(statuses, str) else statuses))
        certs = tuple(certificates)
        for cls in certs:
            if not (isinstance(cls, type) and issubclass(cls, Certificate)) or cls is Certificate:
                raise TypeError(f"rule {rule_id}: {cls!r} is not a certificate class")
        if declared & DECISIVE and not certs:
            raise TypeError(f"rule {rule_id}: a rule that concludes proved or refuted must declare the "
                            "certificates it concludes from")

        def decorate(fn: Callable) -> Callable:
            if fn.__module__ != caller:
                raise RuntimeError(f"rule {rule_id}: registered from {caller} for a function of {fn.__module__}")
            if rule_id in registry:
                raise ValueError(f"rule id {rule_id} registered twice")
            # The checks are taken now: patching a certificate class later does not change them.
            checks = {cls: cls.__dict__.get("check") or cls.check for cls in certs}
            for name, variant in dict(variants or {}).items():
                if not isinstance(variant, Citation):
                    raise TypeError(f"rule {rule_id}: citation variant {name!r} is not a Citation")
            registry[rule_id] = {"statuses": declared, "checks": checks, "citation": citation,
                                 "variants": dict(variants or {}), "globals": fn.__globals__}
            public[rule_id] = RuleInfo(rule_id, title, citation.text, fn.__qualname__, declared,
                                       tuple(c.__name__ for c in certs), citation)

            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                token = active.set((rule_id, object()))
                try:
                    return fn(*args, **kwargs)
                finally:
                    active.reset(token)

            wrapper.rule_id = rule_id  # type: ignore[attr-defined]
            return wrapper

        return decorate

    def conclude(claim: "str | Claim", status, premises=(), evidence: Optional[Mapping[str, Any]] = None,
                 notes=(), rule_id: Optional[str] = None, *, facts: Optional[Mapping[str, Any]] = None,
                 certificate: Optional[Certificate] = None, variant: Optional[str] = None) -> Step:
        current = active.get()
        if current is None:
            raise RuntimeError("proof.conclude called outside a rule")
        active_id = current[0]
        if rule_id is not None and rule_id != active_id:
            raise RuntimeError(f"rule {active_id} cannot conclude a step of rule {rule_id}")
        entry = registry[active_id]
        if sys._getframe(1).f_globals is not entry["globals"]:
            # Code that runs while a rule runs (a callback in its arguments, say) is not the rule.
            raise RuntimeError(f"proof.conclude for rule {active_id} called from outside its module")
        if not isinstance(status, Status):
            raise TypeError(f"rule {active_id}: a status is a proof.Status, not {status!r}")
        if status not in entry["statuses"]:
            raise RuntimeError(f"rule {active_id} does not conclude `{status.value}` (it declares "
                               f"{', '.join(sorted(s.value for s in entry['statuses']))})")
        premises = tuple(premises)
        for p in premises:
            if not is_step(p):
                raise RuntimeError(f"rule {active_id}: a premise is not a derivation step made by a rule")
        if isinstance(claim, str):
            parts: tuple = (claim,) if claim else ()
        elif isinstance(claim, Claim):
            parts = claim.parts
        else:
            raise TypeError("a claim is text or a uapcheck.claim.Claim")
        if certificate is not None or status in DECISIVE:
            if certificate is None:
                raise CertificateRejected(f"rule {active_id} concludes `{status.value}` without a certificate")
            check = entry["checks"].get(type(certificate))
            if check is None:
                raise CertificateRejected(f"rule {active_id} does not conclude from a {type(certificate).__name__}")
            # the record keeps its own copy of what it checked: the rule's certificate may hold a list it changes later
            certificate = _frozen(certificate)
            check(certificate)
        citation = entry["citation"]
        if variant is not None:
            if variant not in entry["variants"]:
                raise RuntimeError(f"rule {active_id} declares no citation variant {variant!r}")
            citation = entry["variants"][variant]
        # the facts later stages read, and apart from them the JSON's source (a reader may change a list it got
        # from `step.fact`)
        typed_facts = _frozen(facts or {})
        step = new_object(Step)
        records[step] = {
            "rule": active_id, "claim": str(claim), "claim_parts": parts, "status": status, "premises": premises,
            "evidence": _NOT_MADE, "evidence source": _frozen(evidence or {}), "cite": citation.text,
            "citation": citation, "notes": tuple(str(n) for n in notes),
            "facts": types.MappingProxyType(typed_facts),
            "facts_json": _NOT_MADE, "facts_json source": _frozen(typed_facts),
            "certificate": certificate,
            "certificate_json": None if certificate is None else _NOT_MADE, "certificate_json source": certificate,
            "head": _current_head.get(), "changeable": _changeable(typed_facts, certificate),
        }
        return step

    def close_registry() -> None:
        state["open"] = False

    return rule, conclude, close_registry, is_step, types.MappingProxyType(public)


rule, conclude, close_registry, is_step, RULES = _make_kernel()
del _make_kernel


def number_steps(root: Step) -> dict[int, str]:
    """Stable ids s1, s2, ... in premises-first order: the numbering every printer uses."""
    return {id(s): f"s{i}" for i, s in enumerate(root.walk(), start=1)}
