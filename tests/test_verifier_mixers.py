"""`uapcheck verify` on per-layer patterns (SEQ-*, docs/theory.md §21) and the convolution mixer (CONV-*,
§22): every step of these derivations is re-checked by the verifier's own arcs, receptive sets, views
(nauty) and sum sets, and a forged claim is rejected naming its step."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from certificates import certificate, certificate_of, rejects

from uapcheck import certfile
from uapcheck.verifier import NUMERIC, VERIFIED, verify
from uapcheck.verifier import layer_views, rules_conv
from uapcheck.parse import parse_source

REPO = Path(__file__).resolve().parents[1]


def _attention(n, pattern, extra=""):
    return f"tokens {n}\n{extra}attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


def _step(cert, rule):
    return next(s for s in cert["steps"] if s["rule"] == rule)


def _all_checked(cert):
    report = verify(cert)
    assert report.problems == []
    assert [(s.rule, s.reason) for s in report.steps if s.outcome not in (VERIFIED, NUMERIC)] == []
    return report


@pytest.mark.parametrize("text, verdict", [
    (_attention(8, "periodic { window(1), strided(2) }"), "UAP"),
    (_attention(7, "sequence { window(2), window(1) cyclic, strided(2) }"), "UAP"),
    (_attention(9, "periodic { window(1), blocks(3), columns(3, 2) }"), "UAP"),
    (_attention(5, "sequence { full, window(1) }"), "NOT-UAP"),          # SEQ-DEPTH
    (_attention(10, "sequence { window(1), window(1) }"), "NOT-UAP"),    # SEQ-DISCONNECTED, within the depth
    (_attention(12, "periodic { window(1) }", "layers 2\n"), "NOT-UAP"),  # within the budget
    ("tokens 12\nconvolution circular(2)\n", "UAP"),
    ("tokens 12\nconvolution circular {2, 3}\n", "UAP"),
    ("tokens 12\nconvolution circular {0, 3}\n", "NOT-UAP"),             # g = 3
    ("tokens 12\nlayers 3\nconvolution circular(2)\n", "NOT-UAP"),       # budget below D = 6
    ("convolution circular {-1, 0, 1}\n", "UAP"),                        # symbolic n
    ("convolution circular {0}\n", "NOT-UAP"),                           # symbolic n, no tap moves a token
    ("convolution circular {0, 2}\n", "UAP"),                            # symbolic n, by residue class mod 2
    ("convolution circular {-3, 0, 3}\n", "UAP"),                        # symbolic n, by residue class mod 3
    ("convolution circular {1, 3}\n", "UAP"),                            # symbolic n, Lemma P
    ("convolution circular {0, 2, 5}\n", "UAP"),                         # symbolic n, Lemma P from n = 8
    ("convolution circular {0, 2, 6}\n", "UAP"),                         # Lemma P by residue class mod 2
])
def test_every_step_of_these_derivations_is_rechecked(text, verdict):
    cert = certificate_of(text)
    assert cert["verdict"] == verdict
    assert _all_checked(cert).ok


def test_the_strided_alternation_needs_three_layers_by_the_verifier_s_own_views():
    spec = parse_source((REPO / "catalog" / "sparse_transformer_strided.uap").read_text("utf-8"), "s.uap")
    L = layer_views.build(spec)
    reflection = [list(range(64, 0, -1))]
    assert layer_views.no_witness(L, 2, reflection) is not None
    assert layer_views.no_witness(L, 3, reflection) is None
    swap = [56 if k == 55 else 55 if k == 56 else k for k in range(1, 65)]
    assert layer_views.witness_holds(L, swap, 1, 2) is None
    assert layer_views.witness_holds(L, swap, 1, 3) is not None


def test_a_forged_depth_or_pair_is_rejected():
    cert = certificate("sparse_transformer_strided.uap")
    conn = _step(cert, "SEQ-CONNECTED")
    conn["data"]["depth"] = 1
    conn["evidence"]["D_Φ"] = 1
    assert rejects(cert, "SEQ-CONNECTED")
    cert = certificate("sparse_transformer_strided.uap")
    conn = _step(cert, "SEQ-CONNECTED")
    conn["data"]["j"] = conn["evidence"]["not within D − 1"]["j"] = 2  # x_2 does reach position 1 in one layer
    assert rejects(cert, "SEQ-CONNECTED")


def test_a_forged_layer_count_or_witness_is_rejected():
    cert = certificate("sparse_transformer_strided.uap")
    _step(cert, "SEQ-LAYERS")["data"]["layers"] = 2  # a view witness exists at depth 2
    assert rejects(cert, "SEQ-LAYERS")
    cert = certificate("sparse_transformer_strided.uap")
    wit = _step(cert, "SEQ-LAYERS")["data"]["view witness"]
    wit["permutation"] = list(range(64, 0, -1))  # the reflection: inside G
    assert rejects(cert, "SEQ-LAYERS")
    cert = certificate("sparse_transformer_strided.uap")
    wit = _step(cert, "SEQ-LAYERS")["data"]["view witness"]
    p = wit["permutation"]
    p[54], p[55], p[0], p[1] = 55, 56, 2, 1  # the swap (1 2) instead: it moves the position's strided view
    assert rejects(cert, "SEQ-LAYERS")


def test_a_forged_group_is_rejected():
    cert = certificate("sparse_transformer_strided.uap")
    _step(cert, "SEQ-GROUP")["data"]["order"] = 4
    assert rejects(cert, "SEQ-GROUP")
    cert = certificate("sparse_transformer_strided.uap")
    g = _step(cert, "SEQ-GROUP")["data"]["generators"][0]
    g[0], g[1] = g[1], g[0]
    assert rejects(cert, "SEQ-GROUP")
    cert = certificate("sparse_transformer_fixed.uap")
    grp = _step(cert, "SEQ-GROUP")["data"]
    grp["generators"] = grp["generators"][:-1]  # a proper subgroup: not complete
    grp["order"] //= 2
    assert rejects(cert, "SEQ-GROUP")


def test_a_changed_pattern_in_the_input_is_rejected():
    cert = certificate("sparse_transformer_fixed.uap")
    text = cert["input"]["text"].replace("columns(8, 1)", "columns(8, 2)")
    cert["input"]["text"] = text
    cert["input"]["sha256"] = certfile.source_hash(text)
    report = verify(cert)
    assert not report.ok  # the generators no longer preserve the heads, or the views differ


def test_forged_convolution_claims_are_rejected():
    cert = certificate("cn_convolution.uap")
    reach = _step(cert, "CONV-REACH")
    reach["data"]["depth"] = {"op": "ceiling", "args": [{"op": "*", "args": [{"q": [1, 2]}, {"sym": "n"}]}]}
    assert rejects(cert, "CONV-REACH")
    cert = certificate("cn_convolution.uap")
    _step(cert, "CONV-LAYERS")["data"]["layers"] = {"op": "+", "args": [-1, _step(cert, "CONV-LAYERS")["data"]["layers"]]}
    assert rejects(cert, "CONV-LAYERS")
    cert = certificate("cn_convolution.uap")
    _step(cert, "CONV-GROUP")["data"]["name"] = "D_n"
    assert rejects(cert, "CONV-GROUP")
    cert = certificate_of("tokens 12\nconvolution circular {0, 3}\n")
    _step(cert, "CONV-GROUP")["data"]["order"] = 12
    assert rejects(cert, "CONV-GROUP")
    cert = certificate_of("tokens 12\nconvolution circular(2)\n")
    _step(cert, "CONV-REACH")["data"]["depth"] = 5
    assert rejects(cert, "CONV-REACH")


def test_a_tap_changed_in_the_input_is_rejected():
    cert = certificate("cn_convolution.uap")
    text = cert["input"]["text"].replace("convolution circular(l)", "convolution circular {0, 2}")
    cert["input"]["text"] = text
    cert["input"]["sha256"] = certfile.source_hash(text)
    assert rejects(cert, "CONV-GROUP")  # 0 and 2 are not an interval: even n gives g = 2
    cert = certificate_of("tokens 12\nconvolution circular {2, 3}\n")
    text = cert["input"]["text"].replace("{2, 3}", "{2, 4}")
    cert["input"]["text"] = text
    cert["input"]["sha256"] = certfile.source_hash(text)
    assert not verify(cert).ok


def test_the_convolution_closed_forms_by_brute_force():
    # the centraliser of the tap shifts is C_{n/g} wr S_g (§22.1), every permutation tried
    for n in range(2, 7):
        for taps in ([0, 1], [0, 2], [0, 3], [2, 4], [0]):
            g = rules_conv.tap_gcd(n, taps)
            assert rules_conv.centraliser_order(n, taps) == (n // g) ** g * math.factorial(g)
    # the m-fold sum set of an interval [a, b] fills Z_n after ceil((n - 1)/(b - a)) layers (§22.2)
    for n in range(2, 20):
        for a, b in ((0, 1), (0, 3), (-1, 1), (-2, 1)):
            d, _ = rules_conv.sumset_depth(n, list(range(a, b + 1)))
            assert d == -(-(n - 1) // (b - a))


def test_forged_zero_tap_claims_are_rejected():
    """Taps that are all 0 at symbolic n: the verifier re-derives S_n and the witness (1, 2)."""
    cert = certificate_of("convolution circular {0}\n")
    _step(cert, "CONV-GROUP")["data"]["name"] = "C_n"
    assert rejects(cert, "CONV-GROUP")
    cert = certificate_of("convolution circular {0}\n")
    _step(cert, "CONV-DISCONNECTED")["data"]["j"] = 3
    assert rejects(cert, "CONV-DISCONNECTED")
    cert = certificate_of("convolution circular {0}\n")
    text = cert["input"]["text"].replace("{0}", "{0, 2}")
    cert["input"]["text"] = text
    cert["input"]["sha256"] = certfile.source_hash(text)
    assert not verify(cert).ok  # 0 and 2 do mix the tokens of odd n


def test_forged_claims_by_residue_class_are_rejected():
    """Taps {0, 2} at symbolic n: C_n and n − 1 layers on odd n, NOT-UAP on even n (§22.5). The verifier re-derives
    the classes from the re-parsed taps: each forged class, group, count or witness is rejected."""
    text = "convolution circular {0, 2}\n"
    assert verify(certificate_of(text)).ok
    forgeries = [
        ("CONV-GROUP", lambda c: _step(c, "CONV-GROUP")["data"].pop("on classes")),
        ("CONV-GROUP", lambda c: _step(c, "CONV-GROUP")["data"].update({"on classes": {"modulus": 2, "residues": [0, 1]}})),
        ("CONV-REACH", lambda c: _step(c, "CONV-REACH")["data"].update({"on classes": {"modulus": 4, "residues": [1, 3]}})),
        ("CONV-LAYERS", lambda c: _step(c, "CONV-LAYERS")["data"].pop("on classes")),
        ("CONV-DISCONNECTED", lambda c: _step(c, "CONV-DISCONNECTED")["data"].update(
            {"classes": {"modulus": 2, "residues": [1]}})),
        ("CONV-DISCONNECTED", lambda c: _step(c, "CONV-DISCONNECTED")["data"].update({"j": 3})),
        ("CONV-REACH", lambda c: _step(c, "CONV-REACH")["data"].update({"depth": {"op": "+", "args": [-2, {"sym": "n"}]}})),
    ]
    for rule, forge in forgeries:
        cert = certificate_of(text)
        forge(cert)
        assert rejects(cert, rule), rule
    # an obstruction on only some of the classes mod 6 that miss offset 1 (n ≡ 3 is left out): rejected
    cert = certificate_of("convolution circular {0, 6}\n")
    assert verify(cert).ok
    _step(cert, "CONV-DISCONNECTED")["data"]["classes"]["residues"] = [0, 2, 4]
    assert not verify(cert).ok


def test_forged_lemma_p_claims_are_rejected():
    """Taps {0, 2, 5} at symbolic n (Lemma P, §22.6): the verifier re-derives the gaps, k₀ and u* from the re-parsed
    taps, compares the stated count on each class of n mod 5 and recomputes the sum sets below the proved range."""
    text = "convolution circular {0, 2, 5}\n"
    assert verify(certificate_of(text)).ok
    plus_one = {"op": "+", "args": [1, {"op": "ceiling", "args": [{"op": "+", "args": [
        {"q": [9, 5]}, {"op": "*", "args": [{"q": [1, 5]}, {"sym": "n"}]}]}]}]}
    forgeries = [
        ("CONV-REACH", lambda c: _step(c, "CONV-REACH")["data"].update({"from": 7})),  # D(7) = 3, not 4
        ("CONV-REACH", lambda c: _step(c, "CONV-REACH")["data"].update({"from": None})),
        ("CONV-REACH", lambda c: _step(c, "CONV-REACH")["data"].update({"depth": plus_one})),
        ("CONV-LAYERS", lambda c: _step(c, "CONV-LAYERS")["data"].update({"from": 9})),  # not the reach step's
        ("CONV-LAYERS", lambda c: _step(c, "CONV-LAYERS")["data"].update({"layers": plus_one})),
        ("CONV-GROUP", lambda c: _step(c, "CONV-GROUP")["data"].update({"name": "D_n"})),
    ]
    for rule, forge in forgeries:
        cert = certificate_of(text)
        forge(cert)
        assert rejects(cert, rule), rule
    cert = certificate_of(text)
    text2 = cert["input"]["text"].replace("{0, 2, 5}", "{0, 2, 7}")
    cert["input"]["text"] = text2
    cert["input"]["sha256"] = certfile.source_hash(text2)
    assert not verify(cert).ok
    # {0, 2, 6}: on odd n only; the classes must be stated
    cert = certificate_of("convolution circular {0, 2, 6}\n")
    _step(cert, "CONV-REACH")["data"].pop("on classes")
    assert rejects(cert, "CONV-REACH")


def test_lemma_p_by_the_verifier_s_own_derivation():
    """The verifier's Lemma P data for {1, 3}: A = {0, 1, 3}, u* = (3, 1, 2), so D = (n + u*[−n mod 3])/3 =
    ⌈(n + 1)/3⌉; and at every n ≥ its proved start the formula meets the verifier's sum sets."""
    p = rules_conv._lemma_p([1, 3])
    assert p["A"] == [0, 1, 3] and p["least"] == {0: 3, 1: 1, 2: 2} and p["k0"] == 2
    for taps in ([1, 3], [0, 2, 5], [-3, 0, 5], [0, 4, 9]):
        p = rules_conv._lemma_p(taps)
        for n in range(p["proved"], p["proved"] + 40):
            d, _ = rules_conv.sumset_depth(n, taps)
            assert d == (n + p["least"][(-n) % p["b"]]) // p["b"], (taps, n)
