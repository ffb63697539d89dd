"""Caches for derivation pieces that do not depend on the file, for batch runs.

A batch (`uapcheck catalog/`) re-derives the same facts file after file: Definition 2 for `relu`
in almost every file, the limit analysis of exp(x·y) in most. `exact_cache` keeps such results
for the life of the process under rules that make a cached answer indistinguishable from a fresh
one:
- the key is the arguments themselves with their exact types, taken apart through containers and
  dataclasses (SymPy's structural equality, which tells apart assumptions on symbols, and Float from
  Rational), never a printed form; an argument that cannot be hashed means no caching;
- only returned values are kept: an exception is not cached, and neither is a value computed while
  a time budget ran out somewhere inside (a caught BudgetExceeded can make a result depend on the
  machine's speed), so the next call computes afresh exactly as without a cache;
- every call gets its own copy of the containers and dataclasses in the value, so no caller can
  change what another one sees; SymPy objects are immutable and shared.
Use it only on functions whose result depends on nothing but their arguments (no proof steps: rules
conclude afresh from the cached data). `clear_caches()` empties them all.

Batches run each file in a forked worker (uapcheck/worker.py), whose caches die with it. So that the
next files still start warm, a worker can keep a journal of the entries it adds (`start_journal`),
hand them back (`journal_entries`, each one as it was stored), and the parent `absorb`s them before
it forks the next worker: the same keys and values a single process running the batch would hold.
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
#: Each cache under its function's qualified name, for entries handed back by a worker; a name that
#: two caches share (functions defined in a loop or a closure) is ambiguous and never absorbed.
_BY_NAME: dict[str, tuple[OrderedDict, int]] = {}
_AMBIGUOUS: set[str] = set()
#: (cache name, key) of the entries added since `start_journal()`, or None when not journaling.
_JOURNAL: Optional[list] = None


def _register(fn: Callable, store: OrderedDict, maxsize: int) -> str:
    _ALL.append(store)
    name = f"{fn.__module__}.{fn.__qualname__}"
    if name in _BY_NAME or "<locals>" in name:
        _AMBIGUOUS.add(name)
    else:
        _BY_NAME[name] = (store, maxsize)
    return name


def _stored(name: str, store: OrderedDict, key: Any, value: Any, maxsize: int) -> None:
    store[key] = value
    if _JOURNAL is not None:
        _JOURNAL.append((name, key))
    if len(store) > maxsize:
        store.popitem(last=False)


def start_journal() -> None:
    """Record from now on which entries the caches add (in a worker, before its file)."""
    global _JOURNAL
    _JOURNAL = []


def journal_entries() -> list[tuple[str, Any, Any]]:
    """(cache name, key, stored value) of the entries added since `start_journal()` and still held."""
    out = []
    for name, key in _JOURNAL or ():
        entry = _BY_NAME.get(name)
        if entry is not None and name not in _AMBIGUOUS and key in entry[0]:
            out.append((name, key, entry[0][key]))
    return out


def absorb(entries) -> None:
    """Add entries handed back by a worker (see `journal_entries`) to this process's caches; a key
    already held keeps its value (both were computed from the same arguments alone)."""
    for name, key, value in entries:
        entry = _BY_NAME.get(name)
        if entry is None or name in _AMBIGUOUS:
            continue
        store, maxsize = entry
        if key not in store:
            store[key] = value
            if len(store) > maxsize:
                store.popitem(last=False)


def _key(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return (type(value), tuple(_key(v) for v in value))
    if isinstance(value, dict):
        return (type(value), tuple((_key(k), _key(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return (type(value), frozenset(_key(v) for v in value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value), tuple(_key(getattr(value, f.name)) for f in dataclasses.fields(value)))
    return (type(value), value)


def fresh_copy(value: Any) -> Any:
    """A copy of the containers and dataclasses in `value`; the leaves (immutable SymPy objects,
    numbers, strings) are shared."""
    if isinstance(value, dict):
        return type(value)((k, fresh_copy(v)) for k, v in value.items())
    if isinstance(value, list):
        return [fresh_copy(v) for v in value]
    if type(value) is tuple:
        return tuple(fresh_copy(v) for v in value)
    if isinstance(value, set):
        return set(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        new = copy.copy(value)
        for f in dataclasses.fields(value):
            object.__setattr__(new, f.name, fresh_copy(getattr(value, f.name)))
        return new
    return value


def exact_cache(maxsize: int = 128) -> Callable[[F], F]:
    def decorate(fn: F) -> F:
        store: OrderedDict = OrderedDict()
        name = _register(fn, store, maxsize)

        @functools.wraps(fn)
        def wrapper(*args: Any) -> Any:
            try:
                key = _key(args)
                hash(key)
            except TypeError:  # an unhashable argument: no caching
                return fn(*args)
            if key in store:
                store.move_to_end(key)
                return fresh_copy(store[key])
            budgets_out = BudgetExceeded.raised
            value = fn(*args)
            if BudgetExceeded.raised == budgets_out:
                _stored(name, store, key, fresh_copy(value), maxsize)
            return value

        wrapper.cache_clear = store.clear  # type: ignore[attr-defined]
        wrapper.cache_size = store.__len__  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def clear_caches() -> None:
    for store in _ALL:
        store.clear()


def exact_cache_iter(maxsize: int = 128) -> Callable[[F], F]:
    """`exact_cache` for a generator function. The items are recorded as they are produced and
    kept only when the caller ran the generator to its end (a caller that stops early, as `all()`
    does, leaves nothing behind); later calls then replay copies of them."""
    def decorate(fn: F) -> F:
        store: OrderedDict = OrderedDict()
        name = _register(fn, store, maxsize)

        @functools.wraps(fn)
        def wrapper(*args: Any) -> Any:
            try:
                key = _key(args)
                hash(key)
            except TypeError:
                yield from fn(*args)
                return
            if key in store:
                store.move_to_end(key)
                yield from fresh_copy(store[key])
                return
            budgets_out = BudgetExceeded.raised
            items = []
            for item in fn(*args):
                items.append(fresh_copy(item))
                yield item
            if BudgetExceeded.raised == budgets_out:
                _stored(name, store, key, items, maxsize)

        wrapper.cache_clear = store.clear  # type: ignore[attr-defined]
        wrapper.cache_size = store.__len__  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate
