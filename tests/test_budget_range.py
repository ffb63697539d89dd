"""A `layers M` budget below a diameter closed form that grows with n (docs/theory.md §12, PAT-BUDGET-N): the verdict
is NOT-UAP from the first n with D(n) > M for every larger n, computed from the closed form on the residue classes
of n, and the lengths below that range are each decided by the concrete engine. Each symbolic verdict is compared
with the concrete engine's at every n from 1 to 40; the kernel and the verifier re-check the range, and reject it
tampered."""
from __future__ import annotations

import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile, proof
from uapcheck.render.jsonout import result_json
from uapcheck.render.verdict_lines import headline
from uapcheck.verifier import REJECTED, VERIFIED, verify

SOURCE = """tokens {n}
layers {m}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern {pattern}
}}
"""
# Theorem F95: D = 2⌈n/4⌉ − 2 on n ≡ 1, 2 (mod 4), else 2⌈n/4⌉ − 1, for n ≥ 8 (D = 3, 4, 4, 5, 5 at n = 8…12)
CHAINS = "blocks(4) + dilated(1, 2)"
# D = n − 1 (the window lemma of §18.4)
LINE = "window(1)"
N = sympy.Symbol("n", integer=True, positive=True)


def _check(pattern: str, n, m: int):
    return uapcheck.check(SOURCE.format(n=n, m=m, pattern=pattern), "b.uap")


@pytest.fixture(scope="module")
def chains_five():
    return _check(CHAINS, "n", 5)


def _budget_step(result):
    return next(s for s in result.root.walk() if s.rule == "PAT-BUDGET-N")


def test_the_range_starts_at_the_first_n_beyond_the_budget(chains_five):
    r = chains_five
    assert r.verdict == "NOT-UAP"
    step = _budget_step(r)
    assert step.proved and step.facts["range"] == sympy.Ge(N, 13) and step.facts["from"] == 13
    assert step.facts["modulus"] == 4 and step.premises[0].rule == "PAT-CONNECTED"
    assert "D > 5 exactly from n = 13 on" in step.claim and "D(12) = 5" in step.claim
    assert "2k - 1, 2k, 2k, 2k + 1 for r = 0, 1, 2, 3" in step.claim
    assert "for all large n" not in step.claim
    assert r.root.facts["range"] == sympy.Ge(N, 13)


def test_the_headline_short_and_json_state_the_range_and_the_lengths_below(chains_five):
    r = chains_five
    assert headline(r) == "NOT-UAP (for n ≥ 13); UAP at n = 1…12"
    out = result_json(r)
    assert out["verdict"] == "NOT-UAP" and out["range"] == "n ≥ 13"
    below = out["below_range"]
    assert [x["n"] for x in below] == list(range(1, 13)) and all(x["verdict"] == "UAP" for x in below)
    # D = 3, 4, 4, 5, 5 at n = 8…12, and D layers are least there (Theorem F95's count at a concrete n)
    assert [(x["layers"], x["least"]) for x in below[7:]] == [(3, True), (4, True), (4, True), (5, True), (5, True)]


def test_markdown_and_latex_state_the_range(chains_five):
    from uapcheck.render import latex, markdown
    assert "**NOT-UAP (for $`n \\geq 13`$); UAP at n = 1…12**" in markdown.render(chains_five)
    assert "\\textbf{NOT-UAP (for $n \\geq 13$); UAP at n = 1\\ldots{}12}" in latex.render(chains_five)


def test_a_window_and_a_larger_budget():
    line = _check(LINE, "n", 5)
    assert headline(line) == "NOT-UAP (for n ≥ 7); UAP at n = 1…6"
    assert "D > 5 exactly from n = 7 on (D = n - 1, not decreasing in n; D(6) = 5)" in _budget_step(line).claim
    ten = _check(CHAINS, "n", 10)  # D(22) = 10, D(23) = 11: NOT-UAP from 23
    assert ten.verdict == "NOT-UAP" and ten.root.facts["range"] == sympy.Ge(N, 23)


@pytest.mark.parametrize("pattern, start", [(CHAINS, 13), (LINE, 7)])
def test_the_symbolic_verdicts_are_the_concrete_ones_at_every_n(pattern, start):
    """The range's verdict from its start, each listed length's below it: the concrete engine's at n = 1…40."""
    r = _check(pattern, "n", 5)
    below = {x.n: x for x in r.root.facts["below_range"]}
    assert sorted(below) == list(range(1, start))
    for n in range(1, 41):
        at = _check(pattern, n, 5)
        if n >= start:
            assert at.verdict == "NOT-UAP", n
        else:
            assert at.verdict == below[n].verdict.value == "UAP" and at.layers == below[n].layers, n


def test_a_diameter_with_parameters_keeps_the_sampled_limit():
    r = uapcheck.check("param w integer >= 1\nlayers 3\nattention {\n  kernel k(x, y) = exp(x . y)\n"
                       "  pattern window(w)\n}\n", "p.uap")
    step = _budget_step(r)
    assert r.verdict == "NOT-UAP" and "range" not in step.facts and "for all large n" in step.claim


def test_the_kernel_checks_the_range(chains_five):
    from uapcheck.certificates import BudgetBeyond
    step = _budget_step(chains_five)
    connected = step.premises[0]
    eight = sympy.Ge(N, 8)
    BudgetBeyond(connected, 5, 13, 4, sympy.Ge(N, 13), eight).check()
    for bad in (BudgetBeyond(connected, 5, 12, 4, sympy.Ge(N, 12), eight),  # D(12) = 5 is not above 5
                BudgetBeyond(connected, 5, 13, 4, sympy.Ge(N, 11), eight),  # the range holds below the start
                BudgetBeyond(connected, 4, 13, 4, sympy.Ge(N, 13), eight),  # D(12) = 5 > 4: 13 is not the least
                BudgetBeyond(connected, 6, 13, 4, sympy.Ge(N, 13), eight),  # D(13) = 6 is not above 6
                BudgetBeyond(connected, 5, 13, 3, sympy.Ge(N, 13), eight),  # D(n + 3) − D(n) is not by n mod 3
                BudgetBeyond(step, 5, 13, 4, sympy.Ge(N, 13), eight)):  # not a PAT-CONNECTED step
        with pytest.raises(proof.CertificateRejected):
            bad.check()


def _cert(pattern=CHAINS, m=5):
    text = SOURCE.format(n="n", m=m, pattern=pattern)
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "b.uap"), text)))


def _step(cert, rule):
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("pattern", [CHAINS, LINE])
def test_the_verifier_re_derives_the_range(pattern):
    report = verify(_cert(pattern))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps] + report.problems
    step = next(s for s in report.steps if s.rule == "PAT-BUDGET-N")
    assert step.outcome == VERIFIED and "exceeds `layers 5` from n = " in step.reason
    assert report.verdict == "NOT-UAP"


def _rehash(cert, text):
    import hashlib
    cert["input"]["text"] = text
    cert["input"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("tamper", ["range start lowered", "budget", "budget in the input", "class dropped",
                                    "verdict range", "diameter"])
def test_the_verifier_rejects_a_tampered_range(tamper):
    cert = _cert()
    budget, verdict = _step(cert, "PAT-BUDGET-N"), _step(cert, "VERDICT-T1")
    lowered = {"rel": ">=", "args": [{"sym": "n"}, 12]}
    if tamper == "range start lowered":  # the step and the verdict from n = 12, where D = 5, the length 12 dropped
        budget["data"]["range"] = verdict["data"]["range"] = lowered
        budget["data"]["from"] = 12
        verdict["data"]["lengths"] = [x for x in verdict["data"]["lengths"] if x["n"] < 12]
    elif tamper == "budget":
        budget["data"]["budget"] = 4
    elif tamper == "budget in the input":  # `layers 6` (D > 6 from n = 15 on), the range still n ≥ 13
        _rehash(cert, cert["input"]["text"].replace("layers 5", "layers 6"))
    elif tamper == "class dropped":  # the closed form read by n mod 2 only
        budget["data"]["modulus"] = 2
    elif tamper == "verdict range":  # the verdict states n ≥ 12 beside the step's n ≥ 13
        verdict["data"]["range"] = lowered
        verdict["data"]["lengths"] = [x for x in verdict["data"]["lengths"] if x["n"] < 12]
    else:  # the diameter's Piecewise with its n ≡ 1, 2 case dropped: PAT-CONNECTED's own check rejects it
        _step(cert, "PAT-CONNECTED")["data"]["diameter"] = {"op": "+", "args": [-1, {"op": "*", "args": [2, {
            "op": "ceiling", "args": [{"op": "*", "args": [{"q": [1, 4]}, {"sym": "n"}]}]}]}]}
    report = verify(cert)
    assert not report.ok
    rejected = {s.rule for s in report.steps if s.outcome == REJECTED}
    want = {"range start lowered": "PAT-BUDGET-N", "budget": "PAT-BUDGET-N", "budget in the input": "PAT-BUDGET-N",
            "class dropped": "PAT-BUDGET-N", "verdict range": "VERDICT-T1", "diameter": "PAT-CONNECTED"}[tamper]
    assert want in rejected, (rejected, report.problems)


def _bfs_diameter(n: int, w: int, cyclic: bool) -> int:
    """The directed diameter of `window(w)` (cyclic or not) at n by plain BFS from every position (no engine)."""
    def near(i):
        for s in range(-w, w + 1):
            j = i + s
            if cyclic:
                yield j % n
            elif 0 <= j < n:
                yield j
    best = 0
    for root in range(n):
        seen, frontier, depth = {root}, [root], 0
        while len(seen) < n:
            frontier = [j for i in frontier for j in near(i) if j not in seen]
            seen.update(frontier)
            depth += 1
        best = max(best, depth)
    return best


@pytest.mark.parametrize("w,cyclic,m", [(2, False, 3), (3, False, 2), (2, True, 3), (3, True, 2), (2, True, 4)])
def test_windows_wider_than_one_get_the_range_of_their_first_length_beyond(w, cyclic, m):
    """window(w) with w ≥ 2 (D = ⌈(n − 1)/w⌉) and the cyclic window (D = ⌈⌊n/2⌋/w⌉, a nested rounding): once an
    internal error (the kernel's check did not see D(n + w) − D(n) as a function of n mod w) or a NOT-UAP without a
    range. The range starts at the first n whose BFS diameter exceeds m, and the certificate verifies."""
    pattern = f"window({w})" + (" cyclic" if cyclic else "")
    result = _check(pattern, "n", m)
    step = _budget_step(result)
    first = next(n for n in range(2, 200) if _bfs_diameter(n, w, cyclic) > m)
    assert all(_bfs_diameter(n, w, cyclic) > m for n in range(first, first + 4 * w + 4))
    assert step.proved and step.facts["from"] == first, (pattern, m, step.facts.get("from"), first)
    assert headline(result).startswith(f"NOT-UAP (for n ≥ {first}); UAP at n = 1…{first - 1}")
    report = verify(_cert(pattern, m))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps] + report.problems
