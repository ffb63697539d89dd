"""Steps stated by residue class of n (docs/theory.md §11.4, §12, §18), re-checked without the engines.

SYM-AUT when G depends on n mod L, and the step states one group per class:

* the certificate's classes (kind "by residue class") partition the residues 0, …, L − 1, and the step's
  stated classes (its data) are the same residues, each stated class with one name;
* each class's certificate is re-checked by the verifier's own check of its kind (Theorems F35–F39 for a
  "head intersection"), as a SYM-AUT step stating that class's group; a "head intersection" class must
  state the residue class of its own modulus that the class's residues lie in;
* the step is verified when every class is; a class that is only trusted makes the step trusted.

PAT-DISCONNECTED on residue classes of n mod g only (the verdict states the other classes): with a
"coset invariant" certificate (Theorem F27 (a)), every head re-parsed must be cyclic offsets with integer
offsets, g must divide each of them and gcd(r, g) > 1 for every stated residue r, the witness must be
(i, j) = (1, 2), and at every n ≤ INSTANCE_TOP of the classes a BFS on the verifier's arcs from position 2
must miss position 1. Any other certificate (a closed form of the engine) is trusted.
"""
from __future__ import annotations


def _stated(s) -> dict:
    """residue → (name, order) of the step's data classes."""
    from .check import Reject
    data = s.get("data") or {}
    out: dict = {}
    for cls in data.get("classes") or []:
        for r in cls["residues"]:
            if int(r) in out:
                raise Reject(f"the residue {r} is stated in two classes")
            out[int(r)] = (cls.get("name"), cls.get("order"))
    return out


def check(ctx, s, check_one) -> tuple[str, str]:
    """`check_one(ctx, step)`: the verifier's SYM-AUT check, for one class's step."""
    from .check import VERIFIED, Reject, Trust
    cert = s.get("certificate") or {}
    modulus = int(cert["modulus"])
    entries = cert["classes"]
    covered = sorted(int(r) for e in entries for r in e["residues"])
    if modulus < 2 or covered != list(range(modulus)):
        raise Reject(f"the classes do not partition the residues of n mod {modulus}")
    stated = _stated(s)
    if sorted(stated) != covered:
        raise Reject("the step's classes are not the certificate's")
    reasons, trusted = [], []
    for e in entries:
        residues = [int(r) for r in e["residues"]]
        names = {stated[r] for r in residues}
        if len(names) != 1:
            raise Reject(f"the residues {residues} have one certificate but different stated groups")
        (name, order), = names
        sub = e["certificate"]
        if sub.get("kind") == "head intersection" and sub.get("stated class") is not None:
            own = int(sub["modulus"])
            at = int(sub["stated class"]["residue"])
            if any(r % own != at for r in residues) or modulus % own:
                raise Reject(f"the residues {residues} mod {modulus} are not the class n ≡ {at} (mod {own}) "
                             "their certificate states")
        data = {"name": name} if not isinstance(order, int) else {"name": name, "order": order}
        step = dict(s, certificate=sub, data=data)
        try:
            outcome, why = check_one(ctx, step)
        except Trust as exc:
            trusted.append(f"n mod {modulus} ∈ {residues}: {exc}")
            continue
        if outcome != VERIFIED:
            trusted.append(f"n mod {modulus} ∈ {residues}: {why}")
            continue
        reasons.append((residues, name, why))
    if trusted:
        raise Trust("G by residue class: " + "; ".join(trusted))
    stated_groups = "; ".join(f"n mod {modulus} ∈ {rs}: {name}" for rs, name, _ in reasons)
    whys = list(dict.fromkeys(why for _, _, why in reasons))  # one certificate often proves every class
    return VERIFIED, (f"G on each of the {len(entries)} certified classes ({stated_groups}), each re-checked: "
                      + "; ".join(whys))


INSTANCE_TOP = 40


def disconnected(ctx, s) -> tuple[str, str]:
    from math import gcd
    from .. import spec as S
    from . import patterns
    from .check import VERIFIED, Reject, Trust
    cert = s.get("certificate") or {}
    data = s.get("data") or {}
    classes = data["classes"]
    if cert.get("kind") != "coset invariant":
        raise Trust("NOT-UAP on residue classes of n from the engine's closed form (not re-derived)")
    modulus, residues = int(classes["modulus"]), [int(r) for r in classes["residues"]]
    if modulus != int(cert["modulus"]) or residues != [int(r) for r in cert["residues"]]:
        raise Reject("the step's classes are not the certificate's")
    if (data.get("i"), data.get("j")) != (1, 2):
        raise Reject("the witness of a coset invariant is x_2 and position 1")
    offsets: list = []
    for h in ctx.spec.heads:
        p = h.pattern
        if not isinstance(p, S.Offsets) or not p.cyclic or not all(isinstance(o, int) for o in p.offsets):
            raise Reject("a coset invariant is for heads of cyclic offsets with integer offsets")
        offsets.extend(p.offsets)
    if modulus < 2 or any(o % modulus for o in offsets):
        raise Reject(f"{modulus} does not divide every offset")
    if not residues or any(not 0 <= r < modulus or gcd(r, modulus) == 1 for r in residues):
        raise Reject(f"a class n ≡ r (mod {modulus}) with gcd(r, {modulus}) = 1 is connected")
    checked = 0
    for n in range(2, INSTANCE_TOP + 1):
        if n % modulus not in residues:
            continue
        outs: list = [set() for _ in range(n + 1)]
        for h in ctx.spec.heads:
            for j, i in patterns.head_arcs(h.pattern, n):
                outs[j].add(i)
        if patterns.bfs([sorted(o) for o in outs], 2)[1] is not None:
            raise Reject(f"at n = {n} x_2 reaches position 1")
        checked += 1
    return VERIFIED, (f"every offset is a multiple of {modulus}: for n ≡ r (mod {modulus}) with gcd(r, {modulus}) > 1, "
                      f"e = gcd(n, {modulus}) > 1 divides every offset and n, so every arc keeps a position's residue "
                      f"mod e and x_2 never reaches position 1; BFS on the verifier's arcs agrees at {checked} lengths "
                      f"n ≤ {INSTANCE_TOP}")
