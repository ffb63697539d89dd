"""Suggestions: small edits of a spec that make it provably UAP.

An edit is data: what it changes (in the words of the `.uap` language), how big the change is, and how
to make the edited Spec. `suggestions(spec)` applies every edit that fits the file, re-derives each edited
spec with the same engines (so every suggestion's verdict is a full derivation, not a guess), and keeps
those whose verdict is UAP, smallest change first. When no single edit works, pairs of edits are tried.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Iterator, Optional, Union

from . import spec as S

if TYPE_CHECKING:
    from .derive import Result

Apply = Callable[[S.Spec], Optional[S.Spec]]


@dataclass(frozen=True)
class Edit:
    """One change to a spec: its text (as the user would write it), its size, and how to make it."""
    text: str
    size: int
    apply: Apply


@dataclass(frozen=True)
class Suggestion:
    edits: tuple[Edit, ...]
    result: Result  # the derivation of the edited spec

    @property
    def size(self) -> int:
        return sum(e.size for e in self.edits)

    @property
    def text(self) -> str:
        return "; ".join(e.text for e in self.edits)


def _heads(spec: S.Spec, change: Callable[[S.Head], Optional[S.Head]]) -> Optional[S.Spec]:
    """Apply `change` to every head; None when it changes none of them."""
    heads = [change(h) or h for h in spec.heads]
    if all(new is old for new, old in zip(heads, spec.heads)):
        return None
    return replace(spec, heads=tuple(heads))


def _affine(spec: S.Spec) -> Optional[S.Spec]:
    return _heads(spec, lambda h: None if h.affine or h.projection else replace(h, affine=True))


def _unfreeze(spec: S.Spec) -> Optional[S.Spec]:
    return _heads(spec, lambda h: replace(h, projection=replace(h.projection, fixed=False))
                  if h.projection is not None and h.projection.fixed else None)


def _exp_features(spec: S.Spec) -> Optional[S.Spec]:
    return _heads(spec, lambda h: None if h.kind != "features" or h.random is not None
                  else replace(h, expr=S.Call("exp", (S.Name(h.params[0]),))))


def _with_pattern(spec: S.Spec, extra: S.Pattern) -> Optional[S.Spec]:
    def change(h: S.Head) -> Optional[S.Head]:
        if isinstance(h.pattern, (S.Full, S.PatternSequence)):
            return None
        parts = h.pattern.parts if isinstance(h.pattern, S.PatternUnion) else (h.pattern,)
        if extra in parts:
            return None
        return replace(h, pattern=S.PatternUnion(parts + (extra,)))
    return _heads(spec, change)


def _wider_windows(spec: S.Spec) -> Optional[S.Spec]:
    def widen(p: S.Pattern) -> S.Pattern:
        if isinstance(p, S.Window) and isinstance(p.w, int):
            return replace(p, w=2 * p.w)
        if isinstance(p, S.PatternUnion):
            return S.PatternUnion(tuple(widen(q) for q in p.parts))
        return p

    def widen_any(p: Union[S.Pattern, S.PatternSequence]) -> Union[S.Pattern, S.PatternSequence]:
        if isinstance(p, S.PatternSequence):
            return S.PatternSequence(tuple(widen(q) for q in p.patterns), p.periodic)
        return widen(p)
    return _heads(spec, lambda h: (lambda p: None if p == h.pattern else replace(h, pattern=p))(widen_any(h.pattern)))


def _dense(spec: S.Spec) -> Optional[S.Spec]:
    return _heads(spec, lambda h: None if isinstance(h.pattern, S.Full) else replace(h, pattern=S.Full()))


def _no_budget(spec: S.Spec) -> Optional[S.Spec]:
    return None if spec.layers is None else replace(spec, layers=None)


def _positional(spec: S.Spec) -> Optional[S.Spec]:
    return None if spec.positional == "absolute" else replace(spec, positional="absolute")


def _target(name: str) -> Apply:
    def apply(spec: S.Spec) -> Optional[S.Spec]:
        return None if spec.target == name else replace(spec, target=name)
    return apply


def _relu_ffn(spec: S.Spec) -> Optional[S.Spec]:
    if spec.ffn.kind == "named" and spec.ffn.name == "relu":
        return None
    return replace(spec, ffn=S.FFN("named", "relu"))


def _normalize(spec: S.Spec) -> Optional[S.Spec]:
    return _heads(spec, lambda h: None if h.normalized or h.kind == "score" else replace(h, normalize=True))


# Every edit the search tries, smallest first. Sizes count the statements or items a user would change.
EDITS: tuple[Edit, ...] = (
    Edit("declare `target causal` (a decoder's causal maps)", 1, _target("causal")),
    Edit("declare `target receptive` (maps that respect the pattern's receptive fields)", 1, _target("receptive")),
    Edit("add `affine query key`", 1, _affine),
    Edit("unfreeze the projections (drop `fixed`)", 1, _unfreeze),
    Edit("remove the `layers` budget", 1, _no_budget),
    Edit("add `global(1)` to the pattern", 1, lambda s: _with_pattern(s, S.Global(1))),
    Edit("double the window width", 1, _wider_windows),
    Edit("add `positional absolute`", 1, _positional),
    Edit("use `ffn relu`", 1, _relu_ffn),
    Edit("add `normalize`", 1, _normalize),
    Edit("use exponential features `exp(x)`", 2, _exp_features),
    Edit("use the full pattern", 2, _dense),
)


def _candidates(spec: S.Spec, pairs: bool) -> Iterator[tuple[tuple[Edit, ...], S.Spec]]:
    singles: list[tuple[Edit, S.Spec]] = []
    for edit in EDITS:
        edited = edit.apply(spec)
        if edited is not None:
            singles.append((edit, edited))
    for edit, edited in singles:
        yield (edit,), edited
    if pairs:
        for i, (first, once) in enumerate(singles):
            for second, _ in singles[i + 1:]:
                twice = second.apply(once)
                if twice is not None:
                    yield (first, second), twice


def suggestions(spec: S.Spec, limit: int = 5, first_only: bool = False,
                candidates: Optional[int] = None) -> list[Suggestion]:
    """Edits that make the spec provably UAP, smallest change first (at most `limit`); the search stops
    after checking `candidates` edited files (a count, not a clock, so the answer is the same on every
    machine; None: every candidate)."""
    from .rules.small_lengths import ENABLED
    token = ENABLED.set(False)  # an edit's verdict for its range is what is shown; not its lengths below it
    try:
        return _suggestions(spec, limit, first_only, candidates)
    finally:
        ENABLED.reset(token)


def _suggestions(spec: S.Spec, limit: int, first_only: bool, candidates: Optional[int]) -> list[Suggestion]:
    from .derive import check_spec
    from .errors import UapError
    found: list[Suggestion] = []
    checked = 0
    for pairs in (False, True):
        for edits, edited in _candidates(spec, pairs):
            if pairs and any(e.size > 1 for e in edits):
                continue
            if candidates is not None and checked >= candidates:
                break
            checked += 1
            try:
                result = check_spec(replace(edited, expect=None))
            except UapError:
                continue  # the edit made a combination the language refuses
            if result.verdict == "UAP":
                found.append(Suggestion(edits, result))
                if first_only:
                    return found
        if found:
            break
    found.sort(key=lambda s: (s.size, _layers_key(s.result.layers)))
    return found[:limit]


def _layers_key(layers) -> float:
    return float(layers) if isinstance(layers, int) else float("inf")


#: The edited files the verdict panel checks at most (every single edit and the first pairs). A count, not CPU
#: seconds, so the panel is the same on a fast and a slow machine. The panel also runs within what is left of the
#: file's --budget and --memory (cli._panel_suggestion), the user's resource limits: running out of them is stated
#: in the panel (SearchStopped), never a silently missing suggestion. The catalog's files that are not UAP try at
#: most 15 (each in well under a second), where the former 2 s of CPU ended the search.
PANEL_CANDIDATES = 16


@dataclass(frozen=True)
class SearchStopped:
    """The verdict panel's search ran out of a resource limit of the file (its --budget or --memory) before it
    checked its candidates: the panel says so instead of silently showing no suggestion."""
    limit: str  # e.g. "CPU time budget of 60 s", as budget.FileBudgetExceeded names it

    @property
    def text(self) -> str:
        return f"the search for an edit stopped: the file's {self.limit} ran out (uapcheck suggest FILE searches on)"


def best(spec: S.Spec, candidates: int = PANEL_CANDIDATES) -> Optional[Suggestion]:
    """The smallest edit that makes the spec provably UAP, for the verdict panel: None if there is none
    among the first `candidates` edited files (each candidate's check keeps its own budgets)."""
    found = suggestions(spec, limit=1, first_only=True, candidates=candidates)
    return found[0] if found else None
