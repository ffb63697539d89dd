"""Chunked causal attention interleaved with the full causal mask (Llama 4), checked for causal targets at any n by
Theorem F169 (docs/theory.md §21.11): the concrete engine of rules/layers_causal.py decides n ≤ 1,024; this route
takes the lengths above it and a symbolic n. The closed form is in uapcheck/graphs/layers_chunks.py."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Optional

from .. import proof
from .. import spec as S
from ..claim import claim as claim_of
from ..claim import written
from ..graphs.layers_chunks import ChunkForm, ChunkLayers, ChunksOutside, chunk_count, chunk_form, read_chunk_layers
from ..proof import Certificate, CertificateRejected

CITE_SEQ_CHUNKS = proof.derived(
    "Definition 4", "Theorem 1",
    text="derived here: chunked causal layers interleaved with the full causal mask, the least count for causal "
         "targets by Theorem F169 (the causal view witnesses of §21.5: two full chunks exchanged until a second full "
         "causal layer), docs/theory.md §21.11")

#: the chunk sizes and lengths at which the certificate compares Theorem F169 with the rooted-view engine (§21.5)
CHECK_SIZES = (1, 2, 3)


def _reduced(spec: S.Spec, L: ChunkLayers, b: int, n: int) -> S.Spec:
    """The file with chunk size b at the length n (the layout kept)."""
    chunk = S.PatternIntersection((S.Causal(), S.Blocks(b)))
    pats = tuple(chunk if kind == "C" else S.Causal() for kind in L.kinds)
    head = dataclasses.replace(spec.heads[0], pattern=S.PatternSequence(pats, periodic=True))
    return dataclasses.replace(spec, tokens=n, heads=(head,), params=())


def engine_count(spec: S.Spec, L: ChunkLayers, b: int, n: int) -> Optional[int]:
    """The least count the rooted-view engine of §21.5 decides at chunk size b and length n (None: not decided)."""
    from ..graphs.layers_causal import causal_least_layers, prefix_reach
    from .layers import build_sequence
    seq = build_sequence(_reduced(spec, L, b, n))
    reach = prefix_reach(seq, None)
    if reach.depth is None:
        return None
    return causal_least_layers(seq, max(reach.depth, 1), reach.depth + 2 * seq.period + 2).layers


@dataclass(frozen=True)
class CausalChunkCount(Certificate):
    """Theorem F169's count for a chunked layout: at the length n, or at a symbolic n its range and pieces. The check:
    the layout re-read from the file and the count recomputed; and the rooted-view engine of §21.5 (an independent
    decision, views and BLISS) agrees with the theorem at chunk sizes 1, 2, 3 for every n ≤ 2b + 3."""
    layout: ChunkLayers
    spec: Any
    n: Optional[int]
    layers: int
    form: Optional[ChunkForm]
    kind = "layers-causal-chunks"

    def check(self) -> None:
        L = read_chunk_layers(self.spec)
        if L != self.layout:
            raise CertificateRejected("CausalChunkCount: the layout is not the file's")
        if self.n is not None and chunk_count(L, self.n) != self.layers:
            raise CertificateRejected(f"CausalChunkCount: Theorem F169 gives {chunk_count(L, self.n)} layers")
        if self.n is None and chunk_form(L) != self.form:
            raise CertificateRejected("CausalChunkCount: the range or the pieces are not Theorem F169's")
        for b in CHECK_SIZES:
            for n in range(1, 2 * b + 4):
                got = engine_count(self.spec, L, b, n)
                if got != chunk_count(L, n, b):
                    raise CertificateRejected(f"CausalChunkCount: at b = {b}, n = {n} the rooted views give {got} "
                                              f"layers, Theorem F169 {chunk_count(L, n, b)}")

    def to_json(self) -> Any:
        from ..certfile import _tree

        def out(v):
            return v if isinstance(v, int) else _tree(v)
        data: dict = {"kind": self.kind, "layout": "".join(self.layout.kinds), "b": self.layout.b,
                      "layers": self.layers, "least": True}
        if self.n is not None:
            data["n"] = self.n
        if self.form is not None:
            data["from"] = out(self.form.start)
            data["pieces"] = [{"from": out(p.lower), "below": out(p.upper), "layers": p.layers}
                              for p in self.form.pieces]
        return data


@proof.rule("SEQ-CAUSAL-CHUNKS",
            "Chunked causal layers with the full causal mask: the least count for causal targets (Theorem F169)",
            CITE_SEQ_CHUNKS, statuses=(proof.PROVED,), certificates=(CausalChunkCount,))
def chunks_step(desc: str, cert: CausalChunkCount, name: str) -> proof.Step:
    from ..show import show_size
    from .targets import _range_text
    L = cert.layout
    g1, g2, b = L.first_global, L.second_global, L.b
    statement = claim_of(
        f"every layer attends causally within chunks of {b} tokens or to the whole prefix, so every model's output at "
        "i reads ", written("x_1, …, x_i", r"x_{1}, \ldots, x_{i}"), f" only; the first full causal layer is layer "
        f"{g1} and the next layer {g2}: beyond two chunks, exchanging the first two chunks keeps the output at the last "
        f"position through {g2 - 1} layers, and layer {g2} reads layer {g1}'s output of every position, which pins the "
        "prefix's order (Theorem F169)")
    ev: dict = {"patterns": desc, "layout": "".join(L.kinds), "b": b, "first global layer": g1,
                "second global layer": g2, "layers": cert.layers, "least": True}
    facts: dict = {"layers": cert.layers, "least": True}
    if cert.n is not None:
        statement += claim_of(f": at {name} = {cert.n}, {cert.layers} attention layer"
                              f"{'s' if cert.layers != 1 else ''} are needed and suffice for causal targets")
        ev["n"] = cert.n
    else:
        f = cert.form
        assert f is not None  # a symbolic n states the form
        where = _range_text(f.start, name)
        statement += claim_of(f": for {where}, {f.layers} attention layers are needed and suffice for causal targets; "
                              "below the range: " + "; ".join(
                                  f"{show_size(p.lower)} ≤ {name} < {show_size(p.upper)}: {p.layers} layer"
                                  f"{'s' if p.layers != 1 else ''}" for p in f.pieces))
        ev["range"] = where
        facts.update({"from": f.start, "form pieces": f.pieces})
    return proof.conclude(statement, proof.PROVED, evidence=ev, facts=facts, certificate=cert)


def chunk_outcome(spec: S.Spec, ffn_step: proof.Step, tds: list):
    """The TargetOutcome for `target causal` on a chunked layout (None: outside Theorem F169)."""
    from .layers import _describe
    from .target_below import TargetPiece
    from .targets import TargetOutcome, _range_text
    try:
        L = read_chunk_layers(spec)
    except ChunksOutside:
        return None
    name = str(spec.tokens)
    n = spec.tokens if isinstance(spec.tokens, int) else None
    if n is not None and not isinstance(L.b, int):
        return None  # a param chunk size at an integer n: not covered here
    form = None if n is not None else chunk_form(L)
    layers = chunk_count(L, n) if n is not None else L.second_global
    step = chunks_step(_describe(spec), CausalChunkCount(L, spec, n, layers, form), name)
    failing = [s for s in [ffn_step, *tds] if not s.proved]
    if failing:
        reason = "; ".join(f"{s.rule}: {s.claim}" for s in failing)
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), reason, tuple(tds))
    if form is None:
        return TargetOutcome("causal", "UAP", layers, True, (step,), "", tuple(tds))
    pieces = tuple(TargetPiece(p.lower, p.upper, p.layers, symbol=name) for p in form.pieces)
    return TargetOutcome("causal", "UAP", layers, True, (step,), "", tuple(tds), range=_range_text(form.start, name),
                         below=None, pieces=pieces)
