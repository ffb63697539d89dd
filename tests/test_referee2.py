"""Second referee pass: inputs on which the checker's verdict was examined against the mathematics.

Tests marked `xfail(strict=True)` record real defects: each asserts the correct behaviour and fails
today (the suite stays green; an XPASS the day a defect is fixed tells that the marker must go).
The other tests pin down behaviour the referee checked and found correct.
"""
from __future__ import annotations

import itertools

import pytest

import uapcheck
from uapcheck.graphs import analyze_connectivity, build_graph
from uapcheck.errors import UapError
from uapcheck.parse import parse_source


def check(text: str):
    return uapcheck.check(text, "referee2.uap")


def steps(r):
    return {s.rule: s for s in r.root.walk()}


# =================================================================================================
# Defects
# =================================================================================================

# -- D1. `nystrom` on a head with `project keys values`: the Nyström kernel is silently dropped ----
# derive._kernel_premises returns through TD-LINFORMER before the Nyström handling, so WP-POSITIVE
# and AN-STRUCT are proved for the *exact* kernel exp(-|x-y|^2/2), while the head computes with
# k~(x, y) = k(x, Z) K_ZZ^-1 k(Z, y), which takes negative values (docs/theory.md, WP-NYSTROM:
# landmarks 0, 1 in d = 1 give k~(-1, 2) = -0.1108). With projected keys 2, 2, 0.8366 (reachable
# with a trainable E and W_K) and the query -1 the normaliser 2 k~(-1, 2) + k~(-1, 0.8366) is 0, so
# the layer is undefined there: the same head without `project` is INCONCLUSIVE (WP-NYSTROM).

NYS_PROJECT = ("attention { kernel k(x, y) = exp(-|x - y|^2 / 2); nystrom landmarks 2; "
               "project keys values to 3 }")


def test_nystrom_with_projection_is_not_uap():
    # The combination is now an input error: each item replaces the keys in its own way.
    from uapcheck.errors import UapError
    with pytest.raises(UapError) as info:
        check(NYS_PROJECT)
    assert "cannot share a head" in info.value.message


def test_nystrom_without_projection_is_inconclusive():
    r = check("attention { kernel k(x, y) = exp(-|x - y|^2 / 2); nystrom landmarks 2 }")
    assert r.verdict == "INCONCLUSIVE"
    assert steps(r)["WP-NYSTROM"].status == "undecided"


def test_nystrom_kernel_normaliser_can_vanish():
    np = pytest.importorskip("numpy")
    k = lambda x, y: np.exp(-(x - y) ** 2 / 2)  # noqa: E731
    Z = np.array([0.0, 1.0])
    Ki = np.linalg.inv(k(Z[:, None], Z[None, :]))
    kt = lambda x, y: k(x, Z) @ Ki @ k(Z, y)  # noqa: E731
    assert kt(-1.0, 2.0) < -0.1
    f = lambda s: 2 * kt(-1.0, 2.0) + kt(-1.0, s)  # noqa: E731
    lo, hi = -1.0, 2.0
    assert f(lo) > 0 > f(hi)  # so the normaliser has a root in between
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    assert abs(f(lo)) < 1e-12


# -- D2. TD-LINFORMER asserts k(q, 0) > 0 for a kernel with k(q, 0) = 0 ----------------------------
# For k(x, y) = (x . y)^2, k(q, 0) = 0: with W_K = 0 every weight is 0/0 (the normaliser vanishes),
# so the step's argument ("with W_K = 0 the weights k(q, 0) > 0 are uniform") does not apply. The
# verdict UAP rests on this step only (the same kernel without projections is INCONCLUSIVE).

def test_linformer_step_does_not_claim_positive_k_at_zero_key():
    r = check("attention { kernel k(x, y) = (x . y)^2; project keys values to 3 }")
    td = steps(r)["TD-LINFORMER"]
    assert not (td.status == "proved" and "k(q, 0) > 0" in td.claim)


# -- D3. `expect ... group` at n = 1: S_1 = trivial, but the names are compared --------------------
# derive._same_concrete_group returns False when the derived group has no generators, so the
# group comparison promised by docs/language.md §7 fails at n = 1 (exit 1 on a true expectation).

def test_expect_trivial_group_at_one_token():
    r = check("tokens 1\nattention { kernel k(x, y) = exp(x . y) }\nexpect uap group trivial")
    assert r.verdict == "UAP"
    assert r.expect_holds is True


def test_expect_symmetric_group_at_one_token_with_encoding():
    r = check("tokens 1\npositional absolute\nattention { kernel k(x, y) = exp(x . y) }\n"
              "expect uap group S_n")
    assert r.expect_holds is True


# =================================================================================================
# Verified correct
# =================================================================================================

# -- leading coefficients / parameter factors that vanish for an admissible value -----------------

@pytest.mark.parametrize("text", [
    "param g real\nattention { kernel k(x, y) = exp(x . y) - g * exp(x . y) }",
    "param g real\nattention { kernel k(x, y) = (g - 1)^2 * exp(x . y) }",
    "param g > 0\nattention { kernel k(x, y) = exp((g - 1) * x . y) }",
    "param g >= 0\nattention { kernel k(x, y) = exp(g * x . y) }",
    "param g > 0\nattention { kernel k(x, y) = log(g)^2 * exp(x . y) }",
    "param g real\nattention { kernel k(x, y) = max(g, 0) * exp(x . y) }",
    "param g real\nattention { kernel k(x, y) = exp(x . y * (cosh(g) - 1)) }",
    "param m integer >= 0\nattention { kernel k(x, y) = exp(x . y)^m }",
    "param m integer >= 0\nattention { kernel k(x, y) = exp((x . y)^m) }",
    "param g >= 0\nattention { features phi(x) = exp(g * x) }",
    "param v > 0\nattention { features phi(x) = (v - 1)^2 * exp(x) }",
    "param g real\nattention { features phi(x) = exp(w . x - |x|^2/2) * (g-1)^2 random w }",
    "param g >= 0\nattention { kernel k(x, y) = exp(-g * |x - y|^2); nystrom landmarks 3; unnormalized }",
])
def test_parameter_that_can_kill_the_kernel_is_not_uap(text):
    assert check(text).verdict == "INCONCLUSIVE"


@pytest.mark.parametrize("text", [
    "param g > 0\nattention { kernel k(x, y) = exp(x . y * log(1 + g)) }",
    "param g > 0\nattention { kernel k(x, y) = (1 + g) ^ (x . y) }",
    # at g = 0 the features are exp(-|x|^2/2): the kernel depends on the key norm only, whose
    # growing part -t^2|z|^2/2 still separates keys (dominant-pair lemma), so UAP is right.
    "param g >= 0\nattention { features phi(x) = exp(w . x * g - |x|^2/2) random w }",
])
def test_parameter_kernels_that_are_uap(text):
    assert check(text).verdict == "UAP"


@pytest.mark.parametrize("name", ["x", "z", "w", "r", "s", "zeta", "kappa", "lambda", "xi", "e", "f"])
def test_param_named_like_an_internal_symbol(name):
    arg = "q" if name == "x" else "x"
    text = (f"param {name} > 0\nattention {{ kernel k({arg}, y) = exp(-{name} * |{arg} - y|^2); "
            "nystrom landmarks 3; unnormalized }")
    assert check(text).verdict == "UAP"


# -- layer counts: compared with an independent brute force of the view argument ------------------

def _neighbourhoods(graphs, n):
    out = []
    for g in graphs:
        if g.complete:
            out.append([None] + [frozenset(range(1, n + 1))] * n)
            continue
        nb = [set([v]) for v in range(n + 1)]
        for j, i in g.arcs():
            nb[i].add(j)
        out.append([frozenset(s) for s in nb])
    return out


def _views(nbs, n, tok_a, tok_b, m):
    A, B = dict(tok_a), dict(tok_b)
    for _ in range(m):
        table = {}

        def sig(V, i):
            return (V[i], tuple(tuple(sorted(V[j] for j in nb[i])) for nb in nbs))
        sa = {i: sig(A, i) for i in A}
        sb = {i: sig(B, i) for i in B}
        for s in [*sa.values(), *sb.values()]:
            table.setdefault(s, len(table))
        A, B = {i: table[sa[i]] for i in sa}, {i: table[sb[i]] for i in sb}
    return A, B


def _least_layers(patterns, n):
    """max(D, least m with no sample X and rearrangement σX outside the group sharing a depth-m
    view at i and σ(i)) — the count the view argument of docs/theory.md §11.2 supports."""
    heads = "\n".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}" for p in patterns)
    spec = parse_source(f"tokens {n}\n{heads}", "bf.uap")
    graphs = [build_graph(h.pattern, n, {}) for h in spec.heads]
    conn = analyze_connectivity(graphs)
    nbs = _neighbourhoods(graphs, n)

    def aut(p):
        return all(frozenset(p[k - 1] for k in nb[v]) == nb[p[v - 1]] for nb in nbs for v in range(1, n + 1))
    base = {i: i for i in range(1, n + 1)}
    for m in range(max(1, int(conn.diameter)), n + 2):
        if all(aut(p) or not any(V[i] == W[p[i - 1]] for i in range(1, n + 1))
               for p in itertools.permutations(range(1, n + 1))
               for V, W in [_views(nbs, n, base, {p[i - 1]: i for i in range(1, n + 1)}, m)]):
            return m
    return None


@pytest.mark.parametrize("patterns", [
    ["window(1)"], ["window(2)"], ["window(1) cyclic"], ["star"], ["global(2)"],
    ["window(1) + global(1)"], ["offsets {1, 2} cyclic"], ["window(1)", "global(1)"],
    ["window(1)", "full"], ["blocks(2)", "global(1)"], ["offsets {1} cyclic", "offsets {2} cyclic"],
])
@pytest.mark.parametrize("n", [4, 5, 6])
def test_concrete_layer_count_matches_brute_force(patterns, n):
    heads = "\n".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}" for p in patterns)
    r = check(f"tokens {n}\n{heads}")
    assert r.verdict == "UAP"
    assert r.layers == _least_layers(patterns, n)


@pytest.mark.parametrize("pattern", ["window(1) cyclic", "offsets {1, 2} cyclic", "global(1)",
                                     "window(2)", "window(1) + global(1)"])
def test_symbolic_layer_count_never_below_concrete(pattern):
    text = f"attention {{ kernel k(x, y) = exp(x . y); pattern {pattern} }}"
    sym = check(text)
    assert sym.verdict == "UAP"
    for n in range(5, 9):
        conc = check(f"tokens {n}\n{text}")
        value = sym.layers.xreplace({s: n for s in sym.layers.free_symbols}) if hasattr(sym.layers, "xreplace") \
            else sym.layers
        assert int(value) >= conc.layers


def test_multi_head_with_complete_union_needs_two_layers():
    # window(1) and full: the union is complete (D = 1) but a far swap keeps position i's one-layer view
    r = check("tokens 6\nattention { kernel k(x, y) = exp(x . y); pattern window(1) }\n"
              "attention { kernel k(x, y) = exp(x . y) }")
    assert r.verdict == "UAP" and r.layers == 2


# -- expect ... group with an integer n --------------------------------------------------------------

@pytest.mark.parametrize("text, holds", [
    ("tokens 3\nattention { kernel k(x, y) = exp(x . y) }\nexpect uap group D_n", True),
    ("tokens 2\nattention { kernel k(x, y) = exp(x . y) }\nexpect uap group reflection", True),
    ("tokens 3\nattention { kernel k(x, y) = exp(x . y); pattern window(1) }\nexpect uap group stabilizer 2", True),
    ("tokens 3\nattention { kernel k(x, y) = exp(x . y); pattern window(1) }\nexpect uap group C_n", False),
    ("tokens 3\nattention { kernel k(x, y) = exp(x . y); pattern star }\nexpect uap group reflection", False),
    ("tokens 3\nattention { kernel k(x, y) = exp(x . y); bias circulant }\nexpect uap group D_n", False),
])
def test_expect_group_compares_groups(text, holds):
    assert check(text).expect_holds is holds


# -- input errors stay input errors -------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "attention { score s(x, y) = exp(x . y); nystrom landmarks 2 }",
    "attention { features phi(x) = exp(x); tie query key }",
    "tokens 5\nattention { kernel k(x, y) = exp(x . y); pattern edges {1 -> 6} }",
    "tokens 5\nattention { kernel k(x, y) = exp(x . y); pattern random(6, seed=0) }",
    "attention { kernel k(x, y) = exp(" + "-" * 500 + "x . y) }",
    "attention { kernel k(x, y) = exp(" + "(" * 201 + "x . y" + ")" * 201 + ") }",
])
def test_input_errors(text):
    with pytest.raises(UapError):
        check(text)
