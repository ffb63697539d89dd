"""The base of the project's word-valued enums (statuses, verdicts, provenance, region statuses, named
groups): a member is its JSON string and prints as it, in str() and in f-strings."""
from __future__ import annotations

from enum import Enum


class ValueEnum(str, Enum):
    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)
