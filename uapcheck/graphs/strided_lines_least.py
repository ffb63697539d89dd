"""The least layer count of `strided(s)` with non-cyclic local parts (Theorems F74, F91, F92 of docs/theory.md §11.11):
Theorem F97.

* **F97 (s = 2, S′ = −S′).** The residue classes mod 2 are two cliques and every arc between them is symmetric, so Γ is
  symmetric. At a root i every position of i's class is adjacent to i (distance 1 ≤ D − 1, as D ≥ 2), so the positions
  at distance D all lie in the other class, a clique: by the far-clique lemma (Theorem F53) D layers suffice, and they
  are least (§11.1).

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass

SECTION = "docs/theory.md §11.11"


@dataclass(frozen=True)
class LineLayers:
    """The layer count a theorem of F74, F91, F92 states: D (least) or D + 1 (sufficient), why, and what stays open."""
    least: bool
    why: str
    question: str = ""


def line_layers(s: int, symmetric: bool, theorem: str, question: str) -> LineLayers:
    """F97 where it applies (s = 2 with S′ = −S′: D layers, least), else D + 1 sufficient with `question` open."""
    if s == 2 and symmetric:
        return LineLayers(True, f"D layers suffice, so they are least (Theorem F97 with Theorem {theorem}: the two "
                                "residue classes mod 2 are cliques, every position of the root's class is adjacent to "
                                "it, so the positions at distance D all lie in the other class and are pairwise "
                                "adjacent; the far-clique lemma, Theorem F53)")
    return LineLayers(False, f"D + 1 layers suffice by the view argument (§11.2); whether D do is open (Theorem "
                             f"{theorem}{'' if theorem == 'F74' else ', as F74'})", question)
