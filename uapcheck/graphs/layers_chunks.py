"""Chunked causal attention interleaved with the full causal mask (Llama 4's layout), checked for causal targets at any
n (docs/theory.md §21.11, Theorem F169): every layer of a periodic list is `causal & blocks(b)` (causal within chunks of
b tokens) or `causal`, one b for the whole list, the first layer chunked. With g₁ < g₂ the first two full causal
layers of the periodic extension, the least count is 1 at n ≤ 2 ≤ b or n = 1, 2 at 3 ≤ n ≤ b, g₁ at b < n ≤ 2b and g₂
from n = 2b + 1 on (two full chunks before the last position can be exchanged until a second full layer reads the
first full layer's output)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

import sympy

from .. import spec as S

Size = Union[int, sympy.Expr]


class ChunksOutside(ValueError):
    """The file is not a chunked causal layout of Theorem F169 (the message names the premise that fails)."""


@dataclass(frozen=True)
class ChunkLayers:
    """A periodic list of layers, each chunked (C) or the full causal mask (G), with the chunk size b (an integer, or
    the name of an integer param and its lower bound)."""

    kinds: tuple[str, ...]  # "C" | "G", one per layer of the period
    b: Union[int, str]
    lower: int = 1  # with a param b: its declared lower bound

    @property
    def first_global(self) -> int:
        """g₁: the first full causal layer (1-based)."""
        return self.kinds.index("G") + 1

    @property
    def second_global(self) -> int:
        """g₂: the next full causal layer of the periodic extension after g₁."""
        later = [k + 1 for k, kind in enumerate(self.kinds) if kind == "G" and k + 1 > self.first_global]
        return later[0] if later else self.first_global + len(self.kinds)


def _chunk_size(pattern: S.Pattern) -> Optional[S.IntTerm]:
    """b of `causal & blocks(b)` (either order), or None."""
    if not isinstance(pattern, S.PatternIntersection) or len(pattern.parts) != 2:
        return None
    kinds = {type(p) for p in pattern.parts}
    if kinds != {S.Causal, S.Blocks}:
        return None
    return next(p.b for p in pattern.parts if isinstance(p, S.Blocks))


def read_chunk_layers(spec: S.Spec) -> ChunkLayers:
    """The layout of one head's periodic list (ChunksOutside names what is not covered)."""
    if len(spec.heads) != 1:
        raise ChunksOutside("one attention head per layer is covered")
    head = spec.heads[0]
    pattern = head.pattern
    if not isinstance(pattern, S.PatternSequence) or not pattern.periodic:
        raise ChunksOutside("a `pattern periodic { … }` list is covered")
    if spec.layers is not None:
        raise ChunksOutside("a `layers` budget is not covered")
    kinds, sizes = [], set()
    for p in pattern.patterns:
        if isinstance(p, S.Causal):
            kinds.append("G")
            continue
        b = _chunk_size(p)
        if b is None:
            raise ChunksOutside("every layer is `causal & blocks(b)` or `causal`")
        kinds.append("C")
        sizes.add(b)
    if len(sizes) != 1 or "G" not in kinds:
        raise ChunksOutside("one chunk size b for every chunked layer and at least one `causal` layer")
    if kinds[0] != "C":
        raise ChunksOutside("the first layer is chunked")
    (b,) = sizes
    if isinstance(b, int):
        if b < 1:
            raise ChunksOutside("a chunk size b ≥ 1")
        return ChunkLayers(tuple(kinds), b)
    param = next((q for q in spec.params if q.name == b), None)
    bound = getattr(param, "lower", None) if param is not None else None
    if param is None or not param.constraint.startswith("integer") or not isinstance(bound, int) or bound < 2:
        raise ChunksOutside(f"a param chunk size is declared `param {b} integer >= K` with K ≥ 2")
    return ChunkLayers(tuple(kinds), str(b), bound)


def chunk_count(L: ChunkLayers, n: int, b: Optional[int] = None) -> int:
    """Theorem F169's least count at the length n (b: the chunk size, for a param b)."""
    size = b if b is not None else L.b
    assert isinstance(size, int)
    if n == 1 or (n <= size and n <= 2):
        return 1
    if n <= size:
        return 2
    if n <= 2 * size:
        return L.first_global
    return L.second_global


@dataclass(frozen=True)
class ChunkPiece:
    """The lengths lower ≤ n < upper with their least count."""

    lower: Size
    upper: Size
    layers: int


@dataclass(frozen=True)
class ChunkForm:
    """Theorem F169 at a symbolic n: `layers` (= g₂) for every n ≥ `start` (= 2b + 1), least; `pieces` below."""

    layers: int
    start: Size
    pieces: tuple[ChunkPiece, ...]


def chunk_form(L: ChunkLayers) -> ChunkForm:
    b: Size = L.b if isinstance(L.b, int) else sympy.Symbol(L.b, integer=True, positive=True)
    if L.b == 1:  # n = 1: 1 layer; n = 2: two chunks of one token
        return ChunkForm(L.second_global, 3, (ChunkPiece(1, 2, 1), ChunkPiece(2, 3, L.first_global)))
    pieces = [ChunkPiece(1, 3, 1), ChunkPiece(3, b + 1, 2), ChunkPiece(b + 1, 2 * b + 1, L.first_global)]
    keep = tuple(p for p in pieces if not (isinstance(p.upper, int) and isinstance(p.lower, int)
                                            and p.upper <= p.lower))
    return ChunkForm(L.second_global, 2 * b + 1, keep)
