"""`target causal` at a symbolic n from the plain UAP (TGT-PLAIN): the plain UAP and its trivial group are stated for
n ≥ N only, so the causal UAP holds there, with the lengths below decided one by one (docs/theory.md §14.9). It used
to be "UAP for causal targets" at every n: `dilated(2, 3) + offsets {-1, 2}` is NOT-UAP for causal targets at n = 3
and 4 (a symmetry moves the prefix), checked here by brute force over the permutations as well."""
from __future__ import annotations

import itertools

import uapcheck

FILE = ("attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern dilated(2, 3) + offsets {{-1, 2}}\n}}\n"
        "tokens {n}\ntarget causal\n")


def arcs(n: int) -> set:
    """(j, i): query i attends to key j; dilated(2, 3): j − i ∈ {0, ±3, ±6}; offsets {-1, 2}: j − i ∈ {−1, 2}."""
    out = set()
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            d = j - i
            if d in (0, 3, -3, 6, -6, -1, 2):
                out.add((j, i))
    return out


def nontrivial_group(n: int) -> bool:
    a = arcs(n)
    return any(all((p[j - 1], p[i - 1]) in a for j, i in a)
               for p in itertools.permutations(range(1, n + 1)) if list(p) != list(range(1, n + 1)))


def test_the_causal_uap_is_stated_on_the_groups_range_only():
    r = uapcheck.check(FILE.format(n="n"), "t.uap")
    assert r.verdict == "UAP"
    assert r.target.range == "n ≥ 6"
    below = {b.n: (b.verdict, b.layers) for b in r.target.below}
    assert below[3] == ("NOT-UAP", None) and below[4] == ("NOT-UAP", None)


def test_the_lengths_below_are_the_concrete_verdicts_and_the_brute_forces():
    r = uapcheck.check(FILE.format(n="n"), "t.uap")
    for b in r.target.below:
        concrete = uapcheck.check(FILE.format(n=b.n), "t.uap")
        assert (concrete.verdict, concrete.layers) == (b.verdict, b.layers), b
        if 2 <= b.n and nontrivial_group(b.n):
            assert b.verdict == "NOT-UAP", b
    for n in range(6, 9):  # in the range: the group is trivial, the concrete verdict UAP
        assert not nontrivial_group(n)
        assert uapcheck.check(FILE.format(n=n), "t.uap").verdict == "UAP"


def test_a_group_stated_by_residue_class_leaves_the_causal_class_open_or_ranged():
    """Never a bare UAP for causal targets at a symbolic n where some length is NOT-UAP."""
    text = ("attention {\n  kernel k(x, y) = exp(x . y)\n  pattern offsets {-2, -1} + star\n}\n"
            "tokens n\ntarget causal\n")
    r = uapcheck.check(text, "t.uap")
    if r.verdict == "UAP":
        bad = [n for n in range(2, 8) if uapcheck.check(text.replace("tokens n", f"tokens {n}"), "t.uap").verdict
               == "NOT-UAP"]
        assert not bad or (r.target.range and all(n < int(r.target.range.split("≥ ")[1]) for n in bad))


def _verify_source(text: str):
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from certificates import certificate_of

    from uapcheck.verifier import verify
    cert = certificate_of(text)
    return cert, verify


def _outcome(verify, cert: dict, rule: str) -> str:
    (line,) = [s for s in verify(cert).steps if s.rule == rule]
    return line.outcome


def test_the_verifier_checks_tgt_plain():
    """TGT-PLAIN had no checker and its count was not read, so every such certificate was rejected ("TGT-LAYERS
    gives None"); now the trivial group, the count (the equivariant layer step's, or one layer for dense heads), the
    least flag and the range are checked."""
    import copy

    from uapcheck.verifier.check import REJECTED, VERIFIED
    for text in (FILE.format(n=8).replace("dilated(2, 3) + offsets {-1, 2}", "offsets {-1, 2}"),
                 "attention {\n  kernel k(x, y) = exp(x . y)\n}\npositional absolute\ntarget causal\n"):
        cert, verify = _verify_source(text)
        report = verify(cert)
        assert report.ok and all(s.outcome == VERIFIED for s in report.steps), \
            [(s.rule, s.outcome, s.reason) for s in report.steps if s.outcome != VERIFIED]
        assert report.statement.target == "causal"
    cert, verify = _verify_source(FILE.format(n=8).replace("dilated(2, 3) + offsets {-1, 2}", "offsets {-1, 2}"))
    for key, value in (("layers", 6), ("least", True)):
        forged = copy.deepcopy(cert)
        (step,) = [s for s in forged["steps"] if s["rule"] == "TGT-PLAIN"]
        step["data"][key] = value
        assert _outcome(verify, forged, "TGT-PLAIN") == REJECTED


def test_the_verifier_checks_the_plain_range_at_symbolic_n():
    import copy

    from uapcheck.verifier.check import REJECTED
    cert, verify = _verify_source(FILE.format(n="n"))
    assert not any(s.outcome == REJECTED for s in verify(cert).steps)
    forged = copy.deepcopy(cert)
    (plain,) = [s for s in forged["steps"] if s["rule"] == "TGT-PLAIN"]
    plain["data"]["from"] = 3  # the trivial group is stated from n = 6
    assert _outcome(verify, forged, "TGT-PLAIN") == REJECTED
    forged = copy.deepcopy(cert)
    (top,) = [s for s in forged["steps"] if s["rule"] == "TGT-VERDICT"]
    top["data"]["range"] = None  # a UAP at every n: false at n = 3, 4
    assert _outcome(verify, forged, "TGT-VERDICT") == REJECTED
    forged = copy.deepcopy(cert)
    (top,) = [s for s in forged["steps"] if s["rule"] == "TGT-VERDICT"]
    below = top["data"]["below_range"]
    below[2] = dict(below[2], verdict="UAP", layers=2, least=True)  # n = 3: the group there is not trivial
    assert _outcome(verify, forged, "TGT-VERDICT") == REJECTED
