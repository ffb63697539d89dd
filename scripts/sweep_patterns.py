#!/usr/bin/env python3
"""Sweep random unions of sparse patterns, one to three heads, and compare uapcheck's verdict, group and least layer
count with an independent reference (docs/theory.md §11.2, §11.4, §11.9, §11.11).

The reference imports nothing of uapcheck's engines. It builds every head's arcs from the table of docs/language.md
§5, then
- D: the union's directed diameter by breadth-first search (a token at v reaches i in d(v → i) layers);
- G: ∩ heads Aut(Γ_head), counted with BLISS (python-igraph) on an uncoloured graph that encodes the arcs with their
  set of heads (each arc u → v, u ≠ v, becomes a path u – a – b – v whose inner vertices are coloured by the set of
  heads and the direction), and at n ≤ 7 also by brute force over S_n;
- the least m: D layers when no view witness exists, D + 1 otherwise (§11.2). A witness at m = D is σ ∉ G and a
  position i with σ(N_h(v)) = N_h(σ v) for every head h and every v with d(v → i) ≤ D − 1. Such a σ is an
  isomorphism of the rooted views V(i) → V(σ i), V(i) the n positions with the arcs into B(i) = {v : d(v → i) ≤
  D − 1} coloured by their heads, B(i) marked and i marked. The isomorphisms V(i) → V(j) are a coset σ₀·Aut(V(i)),
  which lies inside G iff σ₀ ∈ G and Aut(V(i)) ⊆ G; and Stab_G(i) ⊆ Aut(V(i)). So a witness exists iff some i has
  |Aut(V(i))| > |Stab_G(i)|, or two positions in different G-orbits have isomorphic rooted views (canonical forms
  by BLISS; G-orbits from canonical forms of the whole coloured graph rooted at each position). At n ≤ 7 the same
  is decided by brute force over S_n, σ by σ.

Symbolic n (`tokens n`): the statement's group order and layer count (and `least`) are read at every n of a
range from the Result (its range, its classes by residue, its `below_range` lengths) and compared with the
reference at that n.

Disagreements that are unsound (a layer count below the least, `least` claimed for a count above it, a group order
other than the reference's, a generator outside G, UAP for a pattern that is not strongly connected or the
converse) are printed and the exit status is 1. A count D + 1 not claimed least where D suffices is counted as
"conservative" only.

    python scripts/sweep_patterns.py --cases 200 --seed 1           # concrete n, 4 ≤ n ≤ 60
    python scripts/sweep_patterns.py --symbolic 40 --seed 1 --upto 40   # tokens n, read at n ≤ 40
"""
from __future__ import annotations

import argparse
import itertools
import random
import re
import sys
from collections import deque
from pathlib import Path
from typing import Optional

import igraph

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# ----------------------------------------------------------------------------------------------------------------
# the reference (no uapcheck import)

KINDS = ("window", "cyclic", "offsets", "offsets_cyclic", "dilated", "strided", "blocks", "global", "star")


def term_text(term) -> str:
    kind, *a = term
    if kind == "window":
        return f"window({a[0]})"
    if kind == "cyclic":
        return f"window({a[0]}) cyclic"
    if kind == "offsets":
        return "offsets {" + ", ".join(map(str, a[0])) + "}"
    if kind == "offsets_cyclic":
        return "offsets {" + ", ".join(map(str, a[0])) + "} cyclic"
    if kind == "dilated":
        return f"dilated({a[0]}, {a[1]})"
    if kind == "strided":
        return f"strided({a[0]})"
    if kind == "blocks":
        return f"blocks({a[0]})"
    if kind == "global":
        return f"global({a[0]})"
    if kind == "star":
        return "star"
    raise ValueError(kind)


def head_text(head) -> str:
    return " + ".join(term_text(t) for t in head)


def file_text(heads, n) -> str:
    lines = [f"tokens {n}"]
    lines += ["attention { kernel k(x, y) = exp(x . y); pattern " + head_text(h) + " }" for h in heads]
    return "\n".join(lines) + "\n"


def term_attends(term, n: int, i: int, j: int) -> bool:
    """Whether query i attends to key j (1-based) in one term of a union (docs/language.md §5)."""
    kind, *a = term
    d = j - i
    if kind == "window":
        return abs(d) <= a[0]
    if kind == "cyclic":
        return min(abs(d), n - abs(d)) <= a[0]
    if kind == "offsets":
        return d in a[0]
    if kind == "offsets_cyclic":
        return d % n in {x % n for x in a[0]}
    if kind == "dilated":
        w, r = a
        return d % r == 0 and abs(d // r) <= w
    if kind == "strided":
        return d % a[0] == 0
    if kind == "blocks":
        b = a[0]
        return (i - 1) // b == (j - 1) // b
    if kind == "global":
        return i <= a[0] or j <= a[0]
    if kind == "star":
        return i == 1 or j == 1
    raise ValueError(kind)


def head_arcs(head, n: int) -> frozenset:
    """N(i) for every i, as the set of pairs (i, j): i attends to j (i always attends to itself)."""
    return frozenset((i, j) for i in range(1, n + 1) for j in range(1, n + 1)
                     if i == j or any(term_attends(t, n, i, j) for t in head))


def neighbours(arcs_list, n: int):
    """N(i) of the union, per i."""
    nb = {i: set() for i in range(1, n + 1)}
    for arcs in arcs_list:
        for i, j in arcs:
            nb[i].add(j)
    return nb


def depth(nb, n: int, i: int) -> dict:
    """d(v → i) for every v reaching i: breadth-first from i along 'attends to'."""
    dist = {i: 0}
    queue = deque([i])
    while queue:
        u = queue.popleft()
        for v in nb[u]:
            if v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


def diameter(arcs_list, n: int) -> Optional[int]:
    nb = neighbours(arcs_list, n)
    worst = 0
    for i in range(1, n + 1):
        dist = depth(nb, n, i)
        if len(dist) < n:
            return None
        worst = max(worst, max(dist.values()))
    return worst


def _encode(arcs_list, n: int, targets=None, marks=None):
    """An uncoloured-edge graph whose vertex-coloured automorphisms fixing the n positions' colours are the
    permutations of the positions keeping every head's arcs u → v with v in `targets` (all when None)."""
    mask: dict = {}
    for h, arcs in enumerate(arcs_list):
        for i, j in arcs:
            if i != j and (targets is None or i in targets):
                mask[(i, j)] = mask.get((i, j), 0) | (1 << h)
    colors = list(marks) if marks is not None else [0] * n
    edges = []
    for (i, j), m in sorted(mask.items()):
        a = len(colors)
        colors += [16 + 2 * m, 17 + 2 * m]
        edges += [(i - 1, a), (a, a + 1), (a + 1, j - 1)]  # query side first: the direction is kept
    return igraph.Graph(n=len(colors), edges=edges), colors


def _canon(graph, colors) -> tuple:
    """A canonical form of the vertex-coloured graph. python-igraph's canonical_permutation gives, at each new
    index, the old vertex placed there (checked on the directed cycles, whose rooted forms must all agree)."""
    dense = {c: k for k, c in enumerate(sorted(set(colors)))}  # BLISS reads colours as a dense range
    at = graph.canonical_permutation(color=[dense[c] for c in colors])
    new = [0] * len(at)
    for k, old in enumerate(at):
        new[old] = k
    edges = sorted(tuple(sorted((new[a], new[b]))) for a, b in graph.get_edgelist())
    return tuple(edges), tuple(colors[old] for old in at)


def group_order(arcs_list, n: int) -> int:
    g, c = _encode(arcs_list, n)
    return _count(g, c)


def _count(graph, colors) -> int:
    dense = {c: k for k, c in enumerate(sorted(set(colors)))}
    return int(graph.count_automorphisms(color=[dense[c] for c in colors]))


def in_group(perm, arcs_list) -> bool:
    """perm: a list, perm[k - 1] = σ(k)."""
    return all({(perm[i - 1], perm[j - 1]) for i, j in arcs} == set(arcs) for arcs in arcs_list)


def least_layers(arcs_list, n: int, D: int) -> int:
    """D, or D + 1 when a view witness at m = D exists (module docstring)."""
    if n == 1:
        return 1
    nb = neighbours(arcs_list, n)  # D = 1 is no exception: with several heads a row's sets can leave a witness
    orbit_key = []
    stab = []
    view_key = []
    view_aut = []
    for i in range(1, n + 1):
        marks = [0] * n
        marks[i - 1] = 3
        g, c = _encode(arcs_list, n, marks=marks)
        orbit_key.append(_canon(g, c))
        stab.append(_count(g, c))
        ball = {v for v, d in depth(nb, n, i).items() if d <= D - 1}
        marks = [1 if v in ball else 0 for v in range(1, n + 1)]
        marks[i - 1] = 3
        g, c = _encode(arcs_list, n, targets=ball, marks=marks)
        view_key.append(_canon(g, c))
        view_aut.append(_count(g, c))
    if any(view_aut[k] > stab[k] for k in range(n)):
        return D + 1
    seen: dict = {}
    for k in range(n):
        other = seen.setdefault(view_key[k], orbit_key[k])
        if other != orbit_key[k]:
            return D + 1
    return D


def brute(arcs_list, n: int, D: int):
    """(|G|, least m) by brute force over S_n (n ≤ 7)."""
    nb = neighbours(arcs_list, n)
    group = [p for p in itertools.permutations(range(1, n + 1)) if in_group(p, arcs_list)]
    if n == 1:
        return len(group), 1
    gset = set(group)
    per_head = [{i: frozenset(j for (a, j) in arcs if a == i) for i in range(1, n + 1)} for arcs in arcs_list]
    balls = [{v for v, d in depth(nb, n, i).items() if d <= D - 1} for i in range(1, n + 1)]
    for p in itertools.permutations(range(1, n + 1)):
        if p in gset:
            continue
        for i in range(1, n + 1):
            if all(frozenset(p[u - 1] for u in N[v]) == N[p[v - 1]] for v in balls[i - 1] for N in per_head):
                return len(group), D + 1
    return len(group), D


def reference(heads, n: int) -> dict:
    arcs_list = list(dict.fromkeys(head_arcs(h, n) for h in heads))
    D = diameter(arcs_list, n)
    if D is None:  # G is the heads' group all the same (F125 (a) states it whatever the connectivity)
        return {"verdict": "NOT-UAP", "order": group_order(arcs_list, n), "arcs": arcs_list}
    return {"verdict": "UAP", "order": group_order(arcs_list, n), "diameter": D,
            "layers": least_layers(arcs_list, n, D), "arcs": arcs_list}


# ----------------------------------------------------------------------------------------------------------------
# random files


def random_term(rng: random.Random, n_hint: int):
    kind = rng.choice(KINDS)
    small = max(2, min(6, n_hint // 3))
    if kind in ("window", "cyclic"):
        return (kind, rng.randint(1, small))
    if kind in ("offsets", "offsets_cyclic"):
        k = rng.randint(1, 3)
        vals = sorted(rng.sample([v for v in range(-small - 3, small + 4) if v != 0], k))
        return (kind, tuple(vals))
    if kind == "dilated":
        return (kind, rng.randint(1, 3), rng.randint(2, 4))
    if kind == "strided":
        return (kind, rng.randint(2, small + 1))
    if kind == "blocks":
        return (kind, rng.randint(2, small + 1))
    if kind == "global":
        return (kind, rng.randint(1, 2))
    return ("star",)


def random_heads(rng: random.Random, n_hint: int):
    heads = []
    for _ in range(rng.choice((1, 2, 2, 3))):
        heads.append(tuple(random_term(rng, n_hint) for _ in range(rng.choice((1, 1, 2)))))
    return heads


# ----------------------------------------------------------------------------------------------------------------
# the engine, and the comparison


def engine(text: str, budget: float = 60.0):
    from uapcheck.derive import check_spec
    from uapcheck.errors import UapError
    from uapcheck.parse import parse_source
    try:
        return check_spec(parse_source(text, "sweep.uap"), budget)
    except UapError:
        return None



def _layer_findings(layers, least, want) -> list:
    """The engine's layer count and `least` flag against the reference's least count: below it is unsound, above it
    with `least` a wrong flag, above it without one (or equal without one) only conservative."""
    if layers < want:
        return [("layers below the least", layers, want)]
    if layers > want:
        return [("least claimed above the least", layers, want) if least else ("conservative", layers, want)]
    return [] if least else [("conservative-least", layers)]

def compare_concrete(heads, n: int, result, ref=None) -> list:
    """The unsound disagreements (and 'conservative' notes) of a concrete-n result with the reference."""
    ref = ref or reference(heads, n)
    d = result.to_dict()
    out = []
    if d["verdict"] in ("INCONCLUSIVE",):
        return [("inconclusive", d["verdict"])]
    if d["verdict"] != ref["verdict"]:
        return [("verdict", d["verdict"], ref["verdict"])]
    if ref["verdict"] != "UAP":
        return out
    order = d["group"]["order"]
    if order != ref["order"]:
        out.append(("order", order, ref["order"]))
    for gen in d["group"].get("generators") or []:
        if isinstance(gen, list) and not in_group(gen, ref["arcs"]):
            out.append(("generator outside G", gen))
    layers, least = d["layers"], d["least"]
    return out + _layer_findings(layers, least, ref["layers"])


def _at(expr, n: int):
    import sympy
    if isinstance(expr, int):
        return expr
    if not isinstance(expr, sympy.Basic):
        return ("unread", expr)  # words, not an expression: never parsed
    subs = {s: n for s in expr.free_symbols if s.name == "n"}
    val = expr.subs(subs)
    return int(val) if val.is_Integer else val


def claims_at(result, n: int):
    """What a symbolic-n result states at length n: (verdict, order, layers, least) or None when it says nothing
    there (a class left out, a by_class verdict)."""
    import sympy
    d = result.to_dict()
    for entry in d.get("below_range") or []:
        if entry["n"] == n:
            if not entry["allowed"] or entry["verdict"] is None:
                return None
            grp = entry["group"]
            return (entry["verdict"], grp["order"] if grp else None, entry["layers"], entry["least"])
    if d.get("by_class") or d["verdict"] != "UAP":
        return None if d["verdict"] != "NOT-UAP" else _not_uap_at(d, n)
    g = result.group
    cond = g.condition_formula
    if cond is not None and cond is not sympy.true:
        held = cond.subs({s: n for s in cond.free_symbols if s.name == "n"})
        if held is not sympy.true:
            return None
    order = None
    if g.classes:
        for c in g.classes:
            if n % c.modulus in c.residues:
                order = _order_at(c.group, n)
        if order is None:
            return None
    else:
        order = _order_at(g, n)
    layers = _at(result.layers, n)
    least = d["least"]
    lc = d.get("least_classes")
    if lc and n % lc["modulus"] in lc["residues"]:
        least = True
    return ("UAP", order, layers, least)


def _order_at(g, n: int):
    if g.exact is not None:
        return _at(g.exact, n)
    return g.order if isinstance(g.order, int) else ("unread", g.order)


def _not_uap_at(d, n):
    """A NOT-UAP statement read at n: everywhere without a range, from K on with the range `n ≥ K`; None (silent)
    for another range's form."""
    rng = d.get("range")
    if rng is None:
        return ("NOT-UAP", None, None, None)
    start = re.fullmatch(r"n ≥ (\d+)", rng)
    if start and n >= int(start.group(1)):
        return ("NOT-UAP", None, None, None)
    return None


def compare_claim(claim, ref) -> list:
    verdict, order, layers, least = claim
    if verdict == "INCONCLUSIVE":
        return [("inconclusive",)]
    if verdict != ref["verdict"]:
        return [("verdict", verdict, ref["verdict"])]
    if verdict != "UAP":
        return []
    out = []
    if order != ref["order"]:
        out.append(("order", order, ref["order"]))
    return out + _layer_findings(layers, least, ref["layers"])


def at_length(heads, lengths, stats) -> list:
    """Theorem F125 read directly: G (a), the least count (b) and the union's D (c) at each concrete length the
    symbolic theorems decide, against the reference there. Returns the unsound disagreements."""
    import sympy
    from uapcheck.graphs import heads_at_length as H
    from uapcheck.graphs.closed_connectivity import closed_connectivity
    from uapcheck.parse import parse_source
    spec = parse_source(file_text(heads, "n"), "sweep.uap")
    pats = list(dict.fromkeys(h.pattern for h in spec.heads))
    if len(pats) < 2:
        return []
    out = []
    for n in lengths:
        ref = None
        try:
            grp = H.group_at(pats, n)
            lay = H.heads_layers_at(pats, n)
            conn = closed_connectivity(pats, sympy.Integer(n))
        except Exception as exc:  # an engine error is a finding too
            out.append((n, "error", repr(exc)))
            continue
        if grp is not None:
            ref = ref or reference(heads, n)
            stats["F125a"] = stats.get("F125a", 0) + 1
            if int(grp.order) != ref["order"]:
                out.append((n, "order", grp.order, ref["order"]))
        if lay is not None:
            ref = ref or reference(heads, n)
            stats["F125b"] = stats.get("F125b", 0) + 1
            if ref["verdict"] != "UAP" or (lay.layers, lay.diameter) != (ref["layers"], ref["diameter"]):
                out.append((n, "layers", (lay.layers, lay.diameter), (ref.get("layers"), ref.get("diameter"))))
            elif lay.witness is not None:
                pos, (a, b) = lay.witness
                perm = list(range(1, n + 1))
                perm[a - 1], perm[b - 1] = b, a
                if not is_witness(perm, pos, ref["arcs"], n, lay.diameter):
                    out.append((n, "witness", lay.witness))
        if conn is not None:
            for case in conn.cases:
                if case.condition is not sympy.true:
                    continue
                ref = ref or reference(heads, n)
                stats["connectivity at n"] = stats.get("connectivity at n", 0) + 1
                if bool(case.strongly_connected) != (ref["verdict"] == "UAP") or (
                        case.strongly_connected and case.diameter is not None
                        and int(case.diameter) != ref["diameter"]):
                    out.append((n, "diameter", case.strongly_connected, case.diameter, ref.get("diameter")))
    return out


def is_witness(perm, i: int, arcs_list, n: int, m: int) -> bool:
    """σ (perm[k - 1] = σ(k)) is outside G and keeps every head's N(v) for d(v → i) ≤ m − 1 (§11.2)."""
    if in_group(perm, arcs_list):
        return False
    nb = neighbours(arcs_list, n)
    ball = [v for v, d in depth(nb, n, i).items() if d <= m - 1]
    for arcs in arcs_list:
        N = {v: frozenset(j for (a, j) in arcs if a == v) for v in range(1, n + 1)}
        if any(frozenset(perm[u - 1] for u in N[v]) != N[perm[v - 1]] for v in ball):
            return False
    return True


UNSOUND = ("verdict", "order", "generator outside G", "layers below the least", "least claimed above the least")


def concrete_case(rng: random.Random, stats: dict, brute_force: bool = False) -> int:
    """One random file at a concrete n, 4 ≤ n ≤ 60: the number of unsound disagreements (0 or 1)."""
    n = rng.randint(4, 60) if rng.random() < 0.6 else rng.randint(4, 12)
    heads = random_heads(rng, n)
    text = file_text(heads, n)
    ref = reference(heads, n)
    if brute_force and n <= 7 and ref["verdict"] == "UAP":
        bo, bm = brute(ref["arcs"], n, ref["diameter"])
        if (bo, bm) != (ref["order"], ref["layers"]):
            print(f"REFERENCE DISAGREES ({bo}, {bm}) vs ({ref['order']}, {ref['layers']}):\n{text}")
            return 1
    result = engine(text)
    if result is None:
        stats["refused"] = stats.get("refused", 0) + 1
        return 0
    diffs = compare_concrete(heads, n, result, ref)
    for diff in diffs:
        stats[diff[0]] = stats.get(diff[0], 0) + 1
    stats["cases"] = stats.get("cases", 0) + 1
    if any(diff[0] in UNSOUND for diff in diffs):
        print(f"DISAGREE {diffs}\n{text}", flush=True)
        return 1
    return 0


#: Whether symbolic_case names each file with silent or conservative lengths (`--list`).
LIST_FILES = False


def _claims_apart(text: str, upto: int):
    """("ok", None) for a refused file, ("ok", (verdict, {n: claims_at(result, n)})) for 4 ≤ n ≤ upto, computed in a
    forked child, so that an engine fault that ends the process (python-igraph's BLISS on some coloured quotients)
    ends only the child: then ("ended", the child's wait status)."""
    import os
    import pickle
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: decide, write the claims, leave without running the parent's exit handlers
        os.close(r)
        try:
            result = engine(text)
            out = None if result is None else (result.to_dict()["verdict"],
                                              {n: claims_at(result, n) for n in range(4, upto + 1)})
            data = pickle.dumps(("ok", out))
        except BaseException as exc:  # reported by the parent
            data = pickle.dumps(("error", repr(exc)))
        with os.fdopen(w, "wb") as f:
            f.write(data)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if not data:
        return "ended", status
    got = pickle.loads(data)
    if got[0] == "error":
        raise RuntimeError(f"the engine raised {got[1]} on\n{text}")
    return got


def symbolic_case(rng: random.Random, stats: dict, upto: int) -> int:
    """One random file at `tokens n`, its statement read at 4 ≤ n ≤ upto: the number of unsound lengths."""
    heads = random_heads(rng, 20)
    text = file_text(heads, "n")
    state, got = _claims_apart(text, upto)
    if state == "ended":
        stats["symbolic engine ended"] = stats.get("symbolic engine ended", 0) + 1
        heads_text = " | ".join(head_text(head) for head in heads)
        print(f"FILE {heads_text}: the engine's process ended (wait status {got})", flush=True)
        return 0
    if got is None:
        stats["refused"] = stats.get("refused", 0) + 1
        return 0
    verdict, claims = got
    stats["symbolic files"] = stats.get("symbolic files", 0) + 1
    bad = 0
    by_kind: dict = {}
    for n in range(4, upto + 1):
        claim = claims[n]
        if claim is None:
            kind = "silent (INCONCLUSIVE)" if verdict == "INCONCLUSIVE" else "silent"
            stats["symbolic " + kind] = stats.get("symbolic " + kind, 0) + 1
            by_kind.setdefault(kind, []).append(n)
            continue
        diffs = compare_claim(claim, reference(heads, n))
        stats["symbolic lengths"] = stats.get("symbolic lengths", 0) + 1
        for diff in diffs:
            stats["sym " + diff[0]] = stats.get("sym " + diff[0], 0) + 1
            by_kind.setdefault(diff[0], []).append(n)
        if any(diff[0] in UNSOUND for diff in diffs):
            bad += 1
            print(f"DISAGREE at n = {n}: {diffs}\n{text}", flush=True)
    if LIST_FILES and by_kind:
        heads_text = " | ".join(head_text(head) for head in heads)
        print(f"FILE {heads_text}: " + "; ".join(f"{kind} at {len(ns)} lengths ({ns[0]}…{ns[-1]})"
                                                    for kind, ns in sorted(by_kind.items())), flush=True)
    return bad


def at_length_case(rng: random.Random, stats: dict, upto: int) -> int:
    """One random set of at least two distinct heads, Theorem F125 read at 4 ≤ n ≤ upto: 1 on a disagreement."""
    heads = random_heads(rng, 20)
    while len(set(heads)) < 2:
        heads = random_heads(rng, 20)
    stats["F125 head sets"] = stats.get("F125 head sets", 0) + 1
    diffs = at_length(heads, range(4, upto + 1), stats)
    if diffs:
        print(f"DISAGREE (Theorem F125) {diffs}\n{file_text(heads, 'n')}", flush=True)
    return 1 if diffs else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=100, help="concrete-n files")
    ap.add_argument("--symbolic", type=int, default=0, help="tokens-n files")
    ap.add_argument("--upto", type=int, default=40, help="symbolic files are read at 4 ≤ n ≤ UPTO")
    ap.add_argument("--at-length", type=int, default=0, help="head sets whose Theorem F125 readings are compared "
                    "at every n ≤ UPTO")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--list", action="store_true", help="name each symbolic file with silent or conservative "
                    "lengths, and how many")
    ap.add_argument("--brute", action="store_true", help="also brute force at n ≤ 7 (reference self-check)")
    args = ap.parse_args(argv)
    global LIST_FILES
    LIST_FILES = args.list
    rng = random.Random(args.seed)
    stats: dict = {}
    bad = sum(concrete_case(rng, stats, args.brute) for _ in range(args.cases))
    bad += sum(symbolic_case(rng, stats, args.upto) for _ in range(args.symbolic))
    bad += sum(at_length_case(rng, stats, args.upto) for _ in range(args.at_length))
    print(stats)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
