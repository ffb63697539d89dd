"""Modules imported on first use, so that a run pays only for the libraries it needs.

`igraph = lazy_module("igraph")` binds a stand-in that imports igraph on the first attribute
access (`igraph.Graph(...)`) and then forwards to it. A dense check never touches the pattern
graphs, so it never imports igraph; igraph makes its graphs without importing numpy (`digraph`,
`igraph_without_numpy`), which only large patterns load.
The stand-in is not put in sys.modules: `"igraph" in sys.modules` stays an honest test.

`sympy_stand_ins()` keeps SymPy from loading its units and tensor modules, which its core imports
only to ask whether an expression holds one of their classes (see STAND_INS).
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


@contextlib.contextmanager
def igraph_without_numpy() -> Iterator[None]:
    """While it runs, igraph makes graphs without importing numpy (about 70 ms). `Graph.__init__`,
    which every graph igraph makes goes through (`induced_subgraph` too), imports numpy only to ask
    whether the edge list is a numpy array, and skips the question when the import fails. Before numpy
    is first imported no array can exist, so the answer is no either way: the block makes
    `import numpy` fail, and leaves sys.modules as it was."""
    if "numpy" in sys.modules:
        yield
        return
    sys.modules["numpy"] = None  # type: ignore[assignment]  # makes `import numpy` raise ImportError
    try:
        yield
    finally:
        if sys.modules.get("numpy", 0) is None:
            del sys.modules["numpy"]


def digraph(n: int, edges: Any) -> Any:
    """`igraph.Graph(n=n, edges=edges, directed=True)` for an edge list or iterator of pairs (never a numpy
    array), without importing numpy: the C constructor itself (`GraphBase.__init__`), which is all
    `Graph.__init__` runs for such edges and no attributes, after its keyword handling and its numpy question
    (half the cost of a small graph; the rooted views build thousands)."""
    graph_class = igraph.Graph
    graph = graph_class.__new__(graph_class)
    igraph.GraphBase.__init__(graph, n, edges, True)
    return graph


#: SymPy modules that SymPy's core imports only to ask whether an expression holds one of their
#: classes, and the classes it asks for: `simplify` imports the units library (75-350 ms, most of it
#: building the SI system) for Quantity and `checksol` for Unit; every `Add` of three or more terms
#: imports the tensor module (about 60 ms with the combinatorics it pulls in) for TensExpr and TensAdd.
STAND_INS: dict[str, tuple[str, ...]] = {
    "sympy.physics.units": ("Quantity", "Unit"),
    "sympy.tensor.tensor": ("TensExpr", "TensAdd"),
}


@functools.lru_cache(maxsize=None)
def _stand_in(name: str) -> ModuleType:
    """A stand-in for module `name`, made once per process: SymPy classes of which no instance is made.
    Each class is made when it is first asked for (a run that prints cached reports never imports SymPy)."""
    module = ModuleType(name, f"a stand-in for {name} while uapcheck derives (uapcheck/lazy.py)")

    def make_class(attribute: str) -> type:
        if attribute not in STAND_INS[name]:
            raise AttributeError(f"module {name!r} has no attribute {attribute!r}")
        import sympy
        cls = type(attribute, (sympy.AtomicExpr,), {"__module__": name})
        setattr(module, attribute, cls)
        return cls

    module.__getattr__ = make_class  # type: ignore[method-assign]
    return module


@contextlib.contextmanager
def sympy_stand_ins() -> Iterator[None]:
    """While it runs, SymPy's own `from sympy.physics.units import Quantity` (inside every
    `simplify`), `... import Unit` (inside `checksol`) and `from sympy.tensor.tensor import TensExpr,
    TensAdd` (inside `Add.flatten`) get the classes of stand-in modules instead of importing those
    libraries, unless a library is loaded already. The answers are the same: SymPy only asks whether
    an expression is or contains an instance of those classes, and no expression can hold an
    instance of a class whose module has never been imported; the stand-ins' classes have no
    instances either. The stand-ins leave sys.modules when the block ends, so a later import (by the
    caller, say) loads the real library. Re-entrant: an inner block finds them in place and leaves
    them to the outer one."""
    installed = []
    for name in STAND_INS:
        if name not in sys.modules:
            sys.modules[name] = _stand_in(name)
            installed.append(name)
    try:
        yield
    finally:
        for name in installed:
            if sys.modules.get(name) is _stand_in(name):
                del sys.modules[name]
