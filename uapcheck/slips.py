"""Input errors that name what the user meant: refusals of constructs the framework does not
cover, and suggested fixes for common slips (issue "Today's attention mechanisms", §4–5).

Refusals name the construct and say why `uapcheck` cannot decide it: data-dependent sparsity
(Reformer's LSH, routing attention), data-dependent Nyström landmarks (Nyströmformer) and
normalisation layers. Slips get the form that says the same thing in `.uap`. Nothing here
mentions grammar-internal names.
"""
from __future__ import annotations

import difflib
import re
from typing import Iterable, Optional

_LSH = ("LSH attention (Reformer, arXiv:2001.04451) chooses each query's keys by hashing the queries and "
        "keys themselves: the sparsity pattern depends on the input, while uapcheck decides families whose "
        "pattern is fixed (Theorem 1 is stated for a parametrised family g_θ, and a data-dependent mask is "
        "not one); data-dependent sparsity cannot be decided here")
_ROUTING = ("routing attention (Roy et al. 2021, arXiv:2003.05997) assigns queries and keys to clusters by "
            "k-means on the data: the sparsity pattern depends on the input, while uapcheck decides families "
            "whose pattern is fixed; data-dependent sparsity cannot be decided here")
_NORM = ("normalisation layers (LayerNorm, RMSNorm, BatchNorm) are not part of the framework: its blocks are "
         "(Id + h) ∘ (Id + g) with an attention layer g and a token-wise FFN h of the form x ↦ W σ(A x − b) "
         "(Definition 2), and Theorem 1 says nothing about a normalisation between them; a model with one "
         "cannot be decided here")
_NYSTROMFORMER = ("data-dependent Nyström landmarks (Nyströmformer, arXiv:2102.03902, takes segment means of the "
                  "queries and keys) move with the input, so the approximate kernel is not a fixed kernel and "
                  "the kernel route does not apply; only fixed landmarks (`nystrom landmarks M`) can be decided")

REFUSALS = {
    "lsh": _LSH, "reformer": _LSH, "hash": _LSH, "hashing": _LSH,
    "routing": _ROUTING, "kmeans": _ROUTING, "clustered": _ROUTING, "cluster": _ROUTING,
    "layernorm": _NORM, "rmsnorm": _NORM, "batchnorm": _NORM, "groupnorm": _NORM, "scalenorm": _NORM,
    "norm": _NORM, "normalization": _NORM, "normalisation": _NORM, "prenorm": _NORM, "postnorm": _NORM,
    "nystromformer": _NYSTROMFORMER,
}
# Words after `nystrom landmarks M` that describe landmarks taken from the data.
NYSTROM_DATA_WORDS = {"segment", "segments", "means", "mean", "data", "from", "adaptive", "learned", "pooled"}

_KERNEL_FORM = "`kernel k(x, y) = exp(x . y)` (a kernel head is row-normalised by default: that is the softmax)"
FUNCTION_SLIPS = {
    "softmax": f"`softmax` is the row normalisation, which uapcheck applies itself: write {_KERNEL_FORM}",
    "dot": "write the inner product as `x . y`",
    "inner": "write the inner product as `x . y`",
    "matmul": "write the inner product as `x . y`",
    "transpose": "write the inner product xᵀy as `x . y`",
    "norm": "write the Euclidean norm as `|x|` (and its square as `|x|^2`)",
    "sum": "a kernel is written for one query and one key; the sum over keys is implied",
    "relu6": "use `min(relu(x), 6)`",
}


def refusal(word: str) -> Optional[str]:
    return REFUSALS.get(word.lower())


def did_you_mean(word: str, candidates: Iterable[str]) -> Optional[str]:
    match = difflib.get_close_matches(word.lower(), sorted(set(candidates)), n=1, cutoff=0.6)
    return match[0] if match and match[0] != word else None


def word_at(line_text: str, column: int) -> str:
    """The whole word (letters, digits, `_`, `-`) around a 1-based column."""
    if not 1 <= column <= len(line_text):
        return ""
    k = column - 1
    start = k
    while start > 0 and re.match(r"[\w-]", line_text[start - 1]):
        start -= 1
    end = k
    while end < len(line_text) and re.match(r"[\w-]", line_text[end]):
        end += 1
    return line_text[start:end]


def transpose_slip(line_text: str) -> bool:
    """`x^T y` or `x^T * y` or `x' y`: a transpose written as in a paper."""
    return bool(re.search(r"\^\s*T\b", line_text))


def character_slip(ch: str) -> Optional[str]:
    if ch == "@":
        return "`@` is not an operator in .uap: write the inner product as `x . y`"
    if ch == "'":
        return "a transpose is not written in .uap: write the inner product xᵀy as `x . y`"
    if ch in "×⊙":
        return "write a product as `*` (and an inner product as `x . y`)"
    if ch == "√":
        return "write a square root as `sqrt(...)`"
    return None
