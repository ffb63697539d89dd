"""The rule engines. Importing this package registers every rule (each module of the package), then
closes the proof kernel's rule registry: no rule can be added afterwards (docs/theory.md §2)."""
from __future__ import annotations

import importlib
import pkgutil

from .. import proof

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")

proof.close_registry()
