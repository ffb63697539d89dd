"""The kernel-limit and analyticity engines on kernels with mathematically known answers.

Each case pins the (LIM) rule id (the asymptotic class), its status, and the verdict, with the
reason in the comment. A dense head with `ffn relu` is used throughout, so the verdict is decided by
the kernel premises alone.
"""
from __future__ import annotations

import pytest

import uapcheck

# (name, head body, expected LIM rule, LIM status, verdict, why)
CASES = [
    ("softmax", "kernel k(x, y) = exp(x . y)", "LIM-EXPPOLY", "proved", "UAP",
     "log-ratio t x.W(y1 - y2) is linear in t with a key-dependent slope"),
    ("temperature", "kernel k(x, y) = exp(x . y / tau)", "LIM-EXPPOLY", "proved", "UAP",
     "a fixed temperature only rescales the slope"),
    ("scaled by a constant", "kernel k(x, y) = exp(x . y / 8)", "LIM-EXPPOLY", "proved", "UAP",
     "1/sqrt(d_k) scaling, as in Vaswani et al."),
    ("rbf", "kernel k(x, y) = exp(-gamma * |x - y|^2)", "LIM-EXPPOLY", "proved", "UAP",
     "-gamma t^2 (|z1|^2 - |z2|^2) + 2 gamma t x.(z1 - z2)"),
    ("rbf written out", "kernel k(x, y) = exp(2 * x . y - |y|^2)", "LIM-EXPPOLY", "proved", "UAP",
     "the RBF kernel without its query factor"),
    ("cubic exponent", "kernel k(x, y) = exp((x . y)^3)", "LIM-EXPPOLY", "proved", "UAP",
     "t^3 (x.z)^3 depends on the key"),
    ("squared exponent", "kernel k(x, y) = exp((x . y)^2)", "LIM-EXPPOLY", "proved", "UAP",
     "t^2 (x.z)^2: fails only for antipodal keys, a null set"),
    ("key norm only", "kernel k(x, y) = exp(-|y|^2)", "LIM-EXPPOLY", "proved", "UAP",
     "-t^2 |z|^2 separates keys of different norms; antipodal keys are a null set"),
    ("l2 tied", "kernel k(x, y) = exp(-|x - y|^2)\n tie query key", "LIM-EXPPOLY", "proved", "UAP",
     "scaling the shared W gives -t^2 |W(x - y)|^2 (C14)"),
    ("multiquadric exponent", "kernel k(x, y) = exp(-sqrt(1 + |x - y|^2))", "LIM-EXPALG", "proved", "UAP",
     "-t |z| + O(1): algebraic growth, analytic since 1 + |x - y|^2 > 0"),
    ("fractional power", "kernel k(x, y) = exp(-(1 + |x - y|^2)^(3/4))", "LIM-EXPALG", "proved", "UAP",
     "-t^(3/2) |z|^(3/2) + ..."),
    ("laplacian", "kernel k(x, y) = exp(-|x - y|)", "LIM-EXPALG", "proved", "UAP",
     "(LIM) holds generically; |x - y| is not analytic where q = k, a codimension-d set of parameters "
     "whose complement is connected for d >= 2 (theory §20.4)"),
    ("polynomial", "kernel k(x, y) = (x . y)^2 + 1", "LIM-REGVAR", "refuted", "INCONCLUSIVE",
     "ratio tends to (x.z1 / x.z2)^2, finite"),
    ("polynomial with offset", "kernel k(x, y) = (x . y + cc)^2", "LIM-REGVAR", "refuted", "INCONCLUSIVE",
     "ratio tends to a finite constant; the kernel also vanishes at x.y = -cc"),
    ("inverse multiquadric", "kernel k(x, y) = 1 / sqrt(1 + |x - y|^2)", "LIM-REGVAR", "refuted", "UAP",
     "ratio tends to |z2| / |z1|, but TD-RADIAL separates two samples by Taylor moments (theory §20.2)"),
    ("cauchy", "kernel k(x, y) = 1 / (1 + |x - y|^2)", "LIM-REGVAR", "refuted", "UAP",
     "ratio tends to |z2|^2 / |z1|^2 (C5), but TD-RADIAL separates two samples (theory §20.2)"),
    ("bounded tanh", "kernel k(x, y) = 2 + tanh(x . y)", "LIM-BOUNDED", "refuted", "INCONCLUSIVE",
     "the ratio tends to 1, 3 or 1/3 (C5)"),
    ("exp plus one", "kernel k(x, y) = exp(x . y) + 1", "LIM-BOUNDED", "refuted", "INCONCLUSIVE",
     "on negative scores the ratio tends to 1; without affine terms keys y, -y reach both signs"),
    ("exp of sin", "kernel k(x, y) = exp(sin(x . y))", "LIM-OSC", "refuted", "INCONCLUSIVE",
     "the log-ratio oscillates within [-2, 2] (C9); the even exp(cos(x . y)) is UAP by TD-COMPLEX (theory §20.10)"),
    ("one plus cos", "kernel k(x, y) = 1 + cos(x . y)", "LIM-OSC", "refuted", "INCONCLUSIVE",
     "non-negative but oscillating, with zeros (C9)"),
    ("cosine similarity", "kernel k(x, y) = exp(x . y / (|x| * |y|))", "LIM-SCALEINV", "refuted", "INCONCLUSIVE",
     "scaling the key changes nothing (C14)"),
    ("softplus score kernel", "kernel k(x, y) = softplus(x . y)", "LIM-REGVAR", None, "INCONCLUSIVE",
     "~ t x.z on positive scores: homogeneous, finite ratio"),
    ("favor+", "features phi(x) = exp(w . x - |x|^2 / 2) random w", "LIM-FEATSUM", "proved", "UAP",
     "-t^2 |z|^2 / 2 + t max_r w_r.z"),
    ("hyperbolic favor+", "features phi(x) = exp(w . x - |x|^2 / 2) + exp(-(w . x) - |x|^2 / 2) random w",
     "LIM-FEATSUM", "proved", "UAP", "-t^2|z|^2/2 + t max_r |w_r.z|; antipodal keys only fail (C10)"),
    ("exp features", "features phi(x) = exp(x)", "LIM-FEATSUM", "proved", "UAP",
     "t max_r z_r, generically unique"),
    ("relu features", "features phi(x) = relu(x)", "LIM-REGVAR", "refuted", "INCONCLUSIVE",
     "positively homogeneous: the ratio does not depend on t (A8)"),
    ("elu+1 features", "features phi(x) = elu(x) + 1", "LIM-REGVAR", "refuted", "INCONCLUSIVE",
     "a positive coordinate grows like t: finite ratio; the all-negative region is unreachable (A7)"),
    ("elu+1 with affine", "features phi(x) = elu(x) + 1\n affine query key", "LIM-REGION", "proved", "UAP",
     "on the region where every argument is negative, elu + 1 = exp (A7 rescue)"),
    ("sigmoid score", "score s(x, y) = sigmoid(x . y)", "LIM-BOUNDED", "refuted", "INCONCLUSIVE",
     "positive scores saturate at 1; keys y, -y put scores on both sides"),
    ("sigmoid with affine", "score s(x, y) = sigmoid(x . y)\n affine query key", "LIM-REGION", "proved", "UAP",
     "all scores negative: sigmoid ~ exp(t x.z)"),
    ("relu score", "score s(x, y) = relu(x . y)", "LIM-REGVAR", "refuted", "INCONCLUSIVE",
     "homogeneous of degree 1 (A12)"),
    ("nystrom gaussian", "kernel k(x, y) = exp(-|x - y|^2 / 2)\n nystrom landmarks 8\n unnormalized",
     "LIM-FEATSUM", "proved", "UAP", "landmark expansion: -t^2|z|^2/2 + t max_b z_b.z (SkyFormer)"),
]

ILL_POSED = [
    ("cos kernel", "kernel k(x, y) = cos(x . y)", "cos takes both signs: the normaliser vanishes (C9)"),
    ("trig random features", "features phi(x) = exp(|x|^2 / 2) * cos(w . x) random w",
     "the periodic features change sign (A6)"),
    ("identity features", "features phi(x) = x", "k = x . y changes sign"),
]

PARAMS = "param tau > 0\nparam gamma > 0\nparam cc > 0\n"


def _check(body: str):
    return uapcheck.check(PARAMS + "attention {\n " + body + "\n}\n", "case.uap")


def _lim_step(result):
    skip = {"LIM-REDUCE", "LIM-NYSTROM", "LIM-NYSTROM-USE", "LIM-UNSUPPORTED"}
    steps = [s for s in result.root.walk() if s.rule.startswith("LIM-") and s.rule not in skip]
    assert len(steps) == 1, [s.rule for s in steps]
    return steps[0]


@pytest.mark.parametrize("name,body,rule,status,verdict,why", CASES, ids=[c[0] for c in CASES])
def test_kernel_class_and_verdict(name, body, rule, status, verdict, why):
    result = _check(body)
    lim = _lim_step(result)
    assert lim.rule == rule, why
    if status is not None:
        assert lim.status == status, why
    assert result.verdict == verdict, why


@pytest.mark.parametrize("name,body,why", ILL_POSED, ids=[c[0] for c in ILL_POSED])
def test_ill_posed(name, body, why):
    result = _check(body)
    assert result.verdict == "ILL-POSED", why
    wp = [s for s in result.root.walk() if s.rule == "WP-POSITIVE"]
    assert wp and wp[0].status == "refuted"


def test_at_least_thirty_kernels_are_pinned():
    assert len(CASES) + len(ILL_POSED) >= 30


def test_proved_limits_carry_an_exact_witness_and_agree_numerically():
    for name, body, _rule, status, _verdict, _why in CASES:
        if status != "proved":
            continue
        lim = _lim_step(_check(body))
        regions = [v for k, v in lim.evidence.items() if isinstance(v, dict) and "status" in v]
        assert regions, name
        for region in regions:
            if region["status"] in ("holds", "holds-d2"):
                assert "witness" in region and region["witness"]["first"]["coefficient difference"] != "0", name
        checks = lim.evidence.get("numeric cross-check")
        checks = checks if isinstance(checks, list) else [checks]
        for chk in checks:
            assert chk.get("agrees") or "skipped" in chk, (name, chk)


def test_never_uap_without_every_premise():
    """No kernel is UAP unless the FFN, limit, analyticity and (if normalised) positivity steps are proved;
    the limit step may fail only under a moment route (TD-RIDGE, TD-RADIAL), which does not use it."""
    for name, body, *_ in CASES:
        result = _check(body)
        if result.verdict != "UAP":
            continue
        moment_limits = {id(p) for s in result.root.walk() if s.rule in ("TD-RIDGE", "TD-RADIAL")
                         for p in s.premises if p.rule.startswith("LIM-")}
        for step in result.root.walk():
            if step.rule.startswith("LIM-") and id(step) in moment_limits:
                continue
            if step.rule in ("FFN-DEF2", "AN-STRUCT", "TD-KERNEL", "TD-RIDGE", "TD-RADIAL") or step.rule.startswith("LIM-"):
                assert step.status == "proved", (name, step.rule, step.claim)


def test_adversarial_pairs_are_reported():
    sq = _lim_step(_check("kernel k(x, y) = exp((x . y)^2)"))
    assert any("antipodal" in n for n in sq.notes)
    soft = _lim_step(_check("kernel k(x, y) = exp(x . y)"))
    assert any("zero query" in n for n in soft.notes)
    assert not any("antipodal" in n for n in soft.notes)
    rbf = _lim_step(_check("kernel k(x, y) = exp(-gamma * |x - y|^2)"))
    assert not any("antipodal" in n for n in rbf.notes), "the t-term separates antipodal keys"
    lap = _lim_step(_check("kernel k(x, y) = exp(-|x - y|)"))
    assert any("antipodal" in n for n in lap.notes), "C6: finite limit for antipodal keys"


def test_finite_limit_witness_value_is_exact():
    lim = _lim_step(_check("kernel k(x, y) = 1 / (1 + |x - y|^2)"))
    region = next(v for v in lim.evidence.values() if isinstance(v, dict) and v.get("status") == "fails")
    # x = 1, z1 = 1, z2 = 2: the ratio (1 + |1 - 2t|^2) / (1 + |1 - t|^2) tends to 4.
    assert region["witness"]["limit of the ratio"] == 4


def test_region_rescue_needs_affine_terms():
    plain = _lim_step(_check("features phi(x) = elu(x) + 1"))
    assert any("without `affine query key`" in n for n in plain.notes)
    rescued = _lim_step(_check("features phi(x) = elu(x) + 1\n affine query key"))
    assert rescued.evidence["region"].startswith("all z[r] < 0")


def test_bounded_oscillation_inside_an_exponent_and_products_of_trig_values():
    for body in ("kernel k(x, y) = exp(x . y + cos(x . y))",
                 "kernel k(x, y) = exp(x . y) * (3 + cos(x . y) * sin(x . y))"):
        lim = _lim_step(_check(body))
        assert lim.rule == "LIM-OSCPROD" and lim.status == "proved", body


def test_positivity_on_the_boundary_of_a_sign_region():
    """(x . y)^2 exp(x . y) vanishes where x ⟂ y: positive only off that hypersurface."""
    result = _check("kernel k(x, y) = (x . y)^2 * exp(x . y)")
    wp = next(s for s in result.root.walk() if s.rule == "WP-POSITIVE")
    assert wp.evidence["dimensions"] == "d ≥ 2" and "off the hypersurfaces" in wp.claim
    assert uapcheck.check("dim 1\nattention { kernel k(x, y) = (x . y)^2 * exp(x . y) }\n").verdict == "INCONCLUSIVE"


def test_score_regions_are_not_used_for_analyticity():
    """sigmoid is analytic everywhere; relu scores are not, and a score region is not shown connected."""
    result = _check("score s(x, y) = relu(x . y) * exp(x . y)\n affine query key")
    lim = _lim_step(result)
    assert lim.rule == "LIM-REGION" and lim.status == "proved"  # (LIM) holds where every score is positive
    an = next(s for s in result.root.walk() if s.rule == "AN-STRUCT")
    assert an.status == "undecided" and "region" not in an.claim
    assert result.verdict == "INCONCLUSIVE"


def test_feature_sums_report_antipodal_failures():
    """Hyperbolic FAVOR+ fails (LIM) on antipodal keys only (C10); plain FAVOR+ does not."""
    hyp = _lim_step(_check("features phi(x) = exp(w . x - |x|^2 / 2) + exp(-(w . x) - |x|^2 / 2) random w"))
    assert hyp.status == "proved" and any("antipodal" in n for n in hyp.notes)
    plain = _lim_step(_check("features phi(x) = exp(w . x - |x|^2 / 2) random w"))
    assert not any("antipodal" in n for n in plain.notes)
