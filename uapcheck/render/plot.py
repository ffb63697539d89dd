"""Pictures of a pattern (`--plot FILE.svg|png|pdf`, matplotlib): the attention mask, the receptive field
of a position growing layer by layer, and the view witness of a derivation (the positions σ exchanges
and the ball that cannot see the difference).

The picture is drawn from the pattern's arcs at the file's n when n ≤ MAX_DRAWN; a larger pattern is
drawn at n = DRAWN_FALLBACK and the title says so (the witness, found at the real n, is then left out).
"""
from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Optional

from .. import spec as S

MAX_DRAWN = 256
DRAWN_FALLBACK = 64


class PlotError(ValueError):
    """The file cannot be drawn (symbolic sizes, an unknown image format)."""


def _drawn_n(spec: S.Spec) -> tuple[int, str]:
    n = spec.tokens
    if not isinstance(n, int):
        return 16, f"drawn at n = 16 (the file's n is symbolic: {n})"
    if n > MAX_DRAWN:
        return DRAWN_FALLBACK, f"drawn at n = {DRAWN_FALLBACK} (the file has n = {n:,})"
    return n, ""


def attends_matrix(spec: S.Spec, n: int) -> list[list[bool]]:
    """mask[i-1][j-1]: query i sees key j in some head."""
    from ..graphs import build_graph
    if spec.mixer is not None:
        raise PlotError("a `convolution` mixer has no attention mask to draw")
    plain = [h.pattern for h in spec.heads if not isinstance(h.pattern, S.PatternSequence)]
    if len(plain) != len(spec.heads):
        raise PlotError("per-layer patterns (`pattern sequence/periodic`) are not drawn")
    try:
        graphs = [build_graph(p, n, {}) for p in plain]
    except (KeyError, ValueError) as exc:
        raise PlotError(f"the pattern cannot be drawn without values for its parameters ({exc})") from None
    return [[any(g.attends(i, j) for g in graphs) for j in range(1, n + 1)] for i in range(1, n + 1)]


def reach_by_layer(mask: list[list[bool]], i: int, layers: int) -> list[list[bool]]:
    """row m-1: the positions j whose token reaches position i within m attention layers (BFS)."""
    n = len(mask)
    distance = {i: 0}
    queue = deque([i])
    while queue:
        q = queue.popleft()
        for j in range(1, n + 1):
            if j not in distance and mask[q - 1][j - 1]:
                distance[j] = distance[q] + 1
                queue.append(j)
    return [[distance.get(j, layers + 1) <= m for j in range(1, n + 1)] for m in range(1, layers + 1)]


def _witness(result) -> Optional[dict]:
    for step in result.root.walk():
        if step.rule == "PAT-LAYERS" and isinstance(step.evidence.get("view witness"), dict):
            return dict(step.evidence["view witness"])
    return None


def _diameter(result) -> Optional[int]:
    for step in result.root.walk():
        if step.rule == "PAT-CONNECTED" and isinstance(step.evidence.get("diameter"), int):
            return step.evidence["diameter"]
    return None


def plot(result, out: str) -> str:
    """Draw the pictures of `result` into `out` (its suffix names the format); returns a one-line summary."""
    suffix = Path(out).suffix.lower().lstrip(".")
    if suffix not in ("svg", "png", "pdf"):
        raise PlotError(f"--plot writes .svg, .png or .pdf files, not {out!r}")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    spec = result.spec
    n, note = _drawn_n(spec)
    mask = attends_matrix(spec, n)
    witness = _witness(result) if not note else None
    diameter = _diameter(result) if not note else None
    position = int(witness["position"]) if witness else (n + 1) // 2
    depth = diameter if diameter is not None else min(n - 1, 4)
    reach = reach_by_layer(mask, position, max(depth + (1 if witness else 0), 1))

    panels = 3 if witness else 2
    fig, axes = plt.subplots(1, panels, figsize=(4.2 * panels, 4.4), squeeze=False)
    axes = axes[0]
    title = spec.architecture + (f" — {note}" if note else "")
    fig.suptitle(title, fontsize=10)

    ax = axes[0]
    ax.imshow([[1 if v else 0 for v in row] for row in mask], cmap=ListedColormap(["white", "#1f4e79"]),
              interpolation="nearest", extent=(0.5, n + 0.5, n + 0.5, 0.5))
    ax.set_title("attention mask (row i attends to column j)", fontsize=8)
    ax.set_xlabel("key position j", fontsize=8)
    ax.set_ylabel("query position i", fontsize=8)

    ax = axes[1]
    ax.imshow([[1 if v else 0 for v in row] for row in reach], cmap=ListedColormap(["white", "#2e7d32"]),
              aspect="auto", interpolation="nearest", extent=(0.5, n + 0.5, len(reach) + 0.5, 0.5))
    ax.set_title(f"receptive field of position {position}, layer by layer", fontsize=8)
    ax.set_xlabel("position j whose token reaches it", fontsize=8)
    ax.set_ylabel("attention layers", fontsize=8)
    ax.set_yticks(range(1, len(reach) + 1))

    if witness:
        ax = axes[2]
        swap = [int(p) for p in witness.get("swap", [])]
        ball = reach[depth - 2] if depth >= 2 else [j == position for j in range(1, n + 1)]
        colours = ["#c8e6c9" if ball[j - 1] else "white" for j in range(1, n + 1)]
        for j in swap:
            colours[j - 1] = "#c62828"
        colours[position - 1] = "#1f4e79"
        ax.bar(range(1, n + 1), [1] * n, width=1.0, color=colours, edgecolor="#999999", linewidth=0.3)
        ax.set_yticks([])
        ax.set_xlim(0.5, n + 0.5)
        ax.set_title(f"view witness: position {position} cannot tell σ = ({' '.join(map(str, swap))})\n"
                     f"apart within {depth} layers", fontsize=8)
        ax.set_xlabel(f"blue: position {position}; green: its {depth - 1}-ball; red: exchanged", fontsize=8)
    fig.tight_layout()
    fig.savefig(out, format=suffix)
    plt.close(fig)
    shown = "mask, receptive field" + (", view witness" if witness else "")
    return f"{out}: {shown}" + (f" ({note})" if note else "")
