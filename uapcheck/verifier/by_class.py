"""SYM-AUT stated by residue class of n (docs/theory.md §11.4, §18): G depends on n mod L, and the step
states one group per class. Re-checked here without the engines:

* the certificate's classes (kind "by residue class") partition the residues 0, …, L − 1, and the step's
  stated classes (its data) are the same residues, each stated class with one name;
* each class's certificate is re-checked by the verifier's own check of its kind (Theorems F35–F39 for a
  "head intersection"), as a SYM-AUT step stating that class's group; a "head intersection" class must
  state the residue class of its own modulus that the class's residues lie in;
* the step is verified when every class is; a class that is only trusted makes the step trusted.
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
