"""Modules imported on first use, so that a run pays only for the libraries it needs.

`igraph = lazy_module("igraph")` binds a stand-in that imports igraph on the first attribute
access (`igraph.Graph(...)`) and then forwards to it. A dense check never touches the pattern
graphs, so it never imports igraph (nor numpy, which igraph pulls in when it builds a graph).
The stand-in is not put in sys.modules: `"igraph" in sys.modules` stays an honest test.
"""
from __future__ import annotations

import contextlib
import functools
import importlib
import sys
from types import ModuleType
from typing import Any, Callable, Iterator


class LazyModule:
    __slots__ = ("_name", "_module", "_importer")

    def __init__(self, name: str, importer: Callable[[str], ModuleType] = importlib.import_module) -> None:
        self._name = name
        self._module: ModuleType | None = None
        self._importer = importer

    def _load(self) -> ModuleType:
        if self._module is None:
            self._module = self._importer(self._name)
        return self._module

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._load(), attr)

    def __repr__(self) -> str:
        state = "loaded" if self._module is not None else "not yet imported"
        return f"<lazy module {self._name!r} ({state})>"


def lazy_module(name: str, importer: Callable[[str], ModuleType] = importlib.import_module) -> Any:
    return LazyModule(name, importer)


def import_igraph(name: str = "igraph") -> ModuleType:
    """python-igraph without its drawing backends. On import, igraph.drawing imports
    matplotlib.pyplot whenever matplotlib is installed (0.5–1 s, five times the rest of a pattern
    check); the checker never draws through igraph (`--plot` uses matplotlib itself). So while
    igraph is first imported, `import matplotlib` fails and igraph keeps its stand-ins for it; after
    that matplotlib imports as usual. Once matplotlib is loaded (a plot), igraph imports as it is."""
    if name in sys.modules or "matplotlib" in sys.modules:
        return importlib.import_module(name)
    sys.modules["matplotlib"] = None  # type: ignore[assignment]  # makes `import matplotlib` raise ImportError
    try:
        return importlib.import_module(name)
    finally:
        if sys.modules.get("matplotlib", 0) is None:
            del sys.modules["matplotlib"]


#: python-igraph (BLISS, BFS), needed only for sparse attention patterns.
igraph: Any = lazy_module("igraph", import_igraph)


UNITS = "sympy.physics.units"


@functools.lru_cache(maxsize=1)
def _units_stand_in() -> ModuleType:
    """The stand-in module, made once per process: two SymPy classes of which no instance is made."""
    import sympy

    stand_in = ModuleType(UNITS, "a stand-in for sympy.physics.units while uapcheck derives (uapcheck/lazy.py)")

    class Quantity(sympy.AtomicExpr):
        pass

    class Unit(sympy.AtomicExpr):
        pass

    stand_in.Quantity = Quantity  # type: ignore[attr-defined]
    stand_in.Unit = Unit  # type: ignore[attr-defined]
    return stand_in


@contextlib.contextmanager
def without_units_library() -> Iterator[None]:
    """While it runs, SymPy's own `from sympy.physics.units import Quantity` (inside every
    `simplify`) and `... import Unit` (inside `checksol`) get classes of a stand-in module instead
    of importing the units library (75-350 ms, most of it building the SI system), unless that
    library is loaded already. The answers are the same: SymPy only asks whether an expression
    contains a Quantity or a Unit, and no expression can contain an instance of the real classes
    while their module has never been imported; the stand-in's classes have no instances either.
    The stand-in leaves sys.modules when the block ends, so a later `import sympy.physics.units`
    (by the caller, say) imports the real library. Re-entrant: an inner block finds the stand-in
    in place and leaves it to the outer one."""
    if UNITS in sys.modules:
        yield
        return
    stand_in = _units_stand_in()
    sys.modules[UNITS] = stand_in
    try:
        yield
    finally:
        if sys.modules.get(UNITS) is stand_in:
            del sys.modules[UNITS]
