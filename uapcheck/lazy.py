"""Modules imported on first use, so that a run pays only for the libraries it needs.

`igraph = lazy_module("igraph")` binds a stand-in that imports igraph on the first attribute
access (`igraph.Graph(...)`) and then forwards to it. A dense check never touches the pattern
graphs, so it never imports igraph (nor numpy, which igraph pulls in when it builds a graph).
The stand-in is not put in sys.modules: `"igraph" in sys.modules` stays an honest test.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    __slots__ = ("_name", "_module")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def _load(self) -> ModuleType:
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return self._module

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._load(), attr)

    def __repr__(self) -> str:
        state = "loaded" if self._module is not None else "not yet imported"
        return f"<lazy module {self._name!r} ({state})>"


def lazy_module(name: str) -> Any:
    return LazyModule(name)


#: python-igraph (BLISS, BFS), needed only for sparse attention patterns.
igraph: Any = lazy_module("igraph")
