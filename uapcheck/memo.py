"""Caches for derivation pieces that do not depend on the file, for batch runs.

A batch (`uapcheck catalog/`) re-derives the same facts file after file: Definition 2 for `relu`
in almost every file, the limit analysis of exp(x·y) in most. `exact_cache` keeps such results
for the life of the process under rules that make a cached answer indistinguishable from a fresh
one:
- the key is the arguments themselves with their exact types, taken apart through containers and
  dataclasses (SymPy's structural equality, which tells apart assumptions on symbols, and Float from
  Rational), never a printed form; an argument that cannot be hashed means no caching; a key function
  may leave out values of a type the function never reads (`key_without`: source locations);
- only returned values are kept: an exception is not cached, and neither is a value computed while
  a time budget ran out somewhere inside (a caught BudgetExceeded can make a result depend on the
  machine's speed), so the next call computes afresh exactly as without a cache;
- every call gets its own copy of the containers and dataclasses in the value, so no caller can
  change what another one sees; SymPy objects are immutable and shared.
Use it only on functions whose result depends on nothing but their arguments. Rules conclude afresh
from the cached data, with two exceptions argued in docs/theory.md §19: a head's kernel premises
(`derive._kernel_premises`, and their part before the witness route, `derive._kernel_core`) and Definition 2's
step (`derive._ffn_step`) are finished steps keyed by every input they read, which the suggestion search
re-derives for edited copies of a spec and the lengths below a by-class range derive at each n. `clear_caches()` empties them all.
"""
from __future__ import annotations

import copy
import dataclasses
import functools
from collections import OrderedDict
from typing import Any, Callable, Optional, TypeVar

from .budget import BudgetExceeded

F = TypeVar("F", bound=Callable[..., Any])

_ALL: list[OrderedDict] = []
_MISSING = object()


_SEQUENCE, _MAPPING, _SET, _DATACLASS, _LEAF = range(5)
#: How `_key` takes a value of each type apart (decided once per type; a dataclass type with its field names).
_KINDS: dict[type, tuple] = {}


def _kind(kind: type) -> tuple:
    got = _KINDS.get(kind)
    if got is None:
        if issubclass(kind, (tuple, list)):
            got = (_SEQUENCE,)
        elif issubclass(kind, dict):
            got = (_MAPPING,)
        elif issubclass(kind, (set, frozenset)):
            got = (_SET,)
        elif dataclasses.is_dataclass(kind):
            got = (_DATACLASS, tuple(f.name for f in dataclasses.fields(kind)))
        else:
            got = (_LEAF,)
        _KINDS[kind] = got
    return got


def _key(value: Any) -> Any:
    """The value with its exact type at every level, through containers and dataclasses (a type object itself,
    dataclass or not, is a leaf)."""
    kind = type(value)
    how = _KINDS.get(kind) or _kind(kind)
    if how[0] == _LEAF:
        return (kind, value)
    if how[0] == _SEQUENCE:
        return (kind, tuple(map(_key, value)))
    if how[0] == _DATACLASS:
        return (kind, tuple(_key(getattr(value, name)) for name in how[1]))
    if how[0] == _MAPPING:
        return (kind, tuple((_key(k), _key(v)) for k, v in value.items()))
    return (kind, frozenset(map(_key, value)))


class _HashedKey:
    """A key with its hash computed once: a key is a tuple of tuples, whose hash Python computes afresh at every
    dict lookup (four per cached call). Equal exactly when the keys are equal."""
    __slots__ = ("key", "hash")

    def __init__(self, key: Any) -> None:
        self.key = key
        self.hash = hash(key)  # TypeError for an unhashable argument

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _HashedKey) and self.hash == other.hash and self.key == other.key


def key_without(value: Any, ignored: type) -> Any:
    """`_key(value)` with every value of type `ignored` inside it keyed as that type alone: for a key function
    (`exact_cache(key=...)`) whose function reads no value of that type (a source location, say), so that
    arguments that differ only there share the entry. The result is a key of exact types as `_key` makes."""
    kind = type(value)
    if kind is ignored:
        return (kind,)
    how = _kind(kind)
    if how[0] == _LEAF:
        return (kind, value)
    if how[0] == _SEQUENCE:
        return (kind, tuple(key_without(v, ignored) for v in value))
    if how[0] == _DATACLASS:
        return (kind, tuple(key_without(getattr(value, name), ignored) for name in how[1]))
    if how[0] == _MAPPING:
        return (kind, tuple((key_without(k, ignored), key_without(v, ignored)) for k, v in value.items()))
    return (kind, frozenset(key_without(v, ignored) for v in value))


_C_DICT, _C_LIST, _C_TUPLE, _C_SET, _C_DATACLASS, _C_LEAF = range(6)
#: How `fresh_copy` copies a value of each type (decided once per type: the tests below depend on the type alone).
_COPY_KINDS: dict[type, tuple] = {}


def _copy_kind(kind: type) -> tuple:
    got = _COPY_KINDS.get(kind)
    if got is None:
        if issubclass(kind, dict):
            got = (_C_DICT,)
        elif issubclass(kind, list):
            got = (_C_LIST,)
        elif kind is tuple:
            got = (_C_TUPLE,)
        elif issubclass(kind, set):
            got = (_C_SET,)
        elif dataclasses.is_dataclass(kind) and not issubclass(kind, type):
            got = (_C_DATACLASS, tuple(f.name for f in dataclasses.fields(kind)))
        else:
            got = (_C_LEAF,)
        _COPY_KINDS[kind] = got
    return got


def fresh_copy(value: Any) -> Any:
    """A copy of the containers and dataclasses in `value`; the leaves (immutable SymPy objects,
    numbers, strings) are shared."""
    kind = type(value)
    how = _COPY_KINDS.get(kind) or _copy_kind(kind)
    which = how[0]
    if which == _C_LEAF:
        return value
    if which == _C_DICT:
        return kind((k, fresh_copy(v)) for k, v in value.items())
    if which == _C_LIST:
        return [fresh_copy(v) for v in value]
    if which == _C_TUPLE:
        return tuple(fresh_copy(v) for v in value)
    if which == _C_SET:
        return set(value)
    new = copy.copy(value)
    for name in how[1]:
        object.__setattr__(new, name, fresh_copy(getattr(value, name)))
    return new


def _fresh_copy_by_instance_tests(value: Any) -> Any:
    """`fresh_copy` as the instance tests write it, value by value (the reference the per-type table is compared
    with in the tests)."""
    if isinstance(value, dict):
        return type(value)((k, _fresh_copy_by_instance_tests(v)) for k, v in value.items())
    if isinstance(value, list):
        return [_fresh_copy_by_instance_tests(v) for v in value]
    if type(value) is tuple:
        return tuple(_fresh_copy_by_instance_tests(v) for v in value)
    if isinstance(value, set):
        return set(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        new = copy.copy(value)
        for f in dataclasses.fields(value):
            object.__setattr__(new, f.name, _fresh_copy_by_instance_tests(getattr(value, f.name)))
        return new
    return value


def exact_cache(maxsize: int = 128, key: Optional[Callable[..., Any]] = None) -> Callable[[F], F]:
    """`key`, when given, names the part of the arguments the result depends on (the cache is keyed
    by `key(*args)` instead of all of them): the function must read nothing else of them."""
    def decorate(fn: F) -> F:
        store: OrderedDict = OrderedDict()
        _ALL.append(store)
        select = key

        @functools.wraps(fn)
        def wrapper(*args: Any) -> Any:
            try:
                key = _HashedKey(_key(args if select is None else select(*args)))
            except TypeError:  # an unhashable argument: no caching
                return fn(*args)
            got = store.get(key, _MISSING)
            if got is not _MISSING:
                store.move_to_end(key)
                return fresh_copy(got)
            budgets_out = BudgetExceeded.raised
            value = fn(*args)
            if BudgetExceeded.raised == budgets_out:
                store[key] = fresh_copy(value)
                if len(store) > maxsize:
                    store.popitem(last=False)
            return value

        wrapper.cache_clear = store.clear  # type: ignore[attr-defined]
        wrapper.cache_size = store.__len__  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def clear_caches() -> None:
    for store in _ALL:
        store.clear()


def kept_store() -> OrderedDict:
    """An empty store for a module's own per-process cache, emptied by `clear_caches()` with the others."""
    store: OrderedDict = OrderedDict()
    _ALL.append(store)
    return store


def exact_cache_iter(maxsize: int = 128) -> Callable[[F], F]:
    """`exact_cache` for a generator function. The items are recorded as they are produced and
    kept only when the caller ran the generator to its end (a caller that stops early, as `all()`
    does, leaves nothing behind); later calls then replay copies of them."""
    def decorate(fn: F) -> F:
        store: OrderedDict = OrderedDict()
        _ALL.append(store)

        @functools.wraps(fn)
        def wrapper(*args: Any) -> Any:
            try:
                key = _HashedKey(_key(args))
            except TypeError:
                yield from fn(*args)
                return
            got = store.get(key, _MISSING)
            if got is not _MISSING:
                store.move_to_end(key)
                yield from fresh_copy(got)
                return
            budgets_out = BudgetExceeded.raised
            items = []
            for item in fn(*args):
                items.append(fresh_copy(item))
                yield item
            if BudgetExceeded.raised == budgets_out:
                store[key] = items
                if len(store) > maxsize:
                    store.popitem(last=False)

        wrapper.cache_clear = store.clear  # type: ignore[attr-defined]
        wrapper.cache_size = store.__len__  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate
