"""Positions in the weights of the full causal mask at n = 2 (docs/theory.md §14.11 (c), (d)): one layer, the least.

§14.11 (c) and (d) hold for n ≥ 2 (r = 1): a head that labels the keys of every causal row differently separates
rearranged prefixes in one layer, and at n = 2 there is no rearranged prefix at all (a permutation of {1, 2} that
fixes the row 2 is the identity), so the mean-pooling part of the argument alone separates. The derivation used to
skip the route at n ≤ 2, so RoPE at n = 2 (which does not contain the position-blind family) was INCONCLUSIVE and the
RoPE decoder's count was stated for n ≥ 3 with "n = 2: not decided". Each length is compared with the concrete
derivation at that n; the kernel refuses the route at n = 1 (r = 0)."""
from __future__ import annotations

import pytest

import uapcheck
from uapcheck import proof
from uapcheck.rules.targets import CausalPositions, HeadRowLabels

SOFTMAX = "kernel k(x, y) = exp(x . y)"
HEADS = {"rope": "rotary", "alibi": "bias b(i, j) = -(i - j)", "toeplitz": "bias toeplitz"}


def text(head: str, tokens: str) -> str:
    return f"tokens {tokens}\nattention {{\n  {SOFTMAX}\n  {HEADS[head]}\n  pattern causal\n}}\ntarget causal\n"


def steps(result) -> dict:
    return {s.rule: s for s in result.root.walk()}


@pytest.mark.parametrize("head", sorted(HEADS))
def test_one_layer_at_n_2_by_the_positions_route(head):
    result = uapcheck.check(text(head, "2"), "t.uap")
    assert result.verdict == "UAP" and result.layers == 1 and result.target.least
    found = steps(result)
    # a trainable bias keeps the position-blind count, 1 at n = 2 (containment, §14.11 (e)); fixed terms and RoPE,
    # which do not contain the position-blind family, take the one-layer route
    route = "contains plain" if head == "toeplitz" else "one layer"
    assert found["TGT-POSITIONS"].proved and found["TGT-POSITIONS"].evidence["route"] == route


def test_the_rope_decoder_states_one_layer_at_every_length():
    """The symbolic count 1 holds at n = 1 and n = 2 too, so no range is stated (it read "for n ≥ 3; n = 1: 1 layer;
    n = 2: not decided")."""
    source = open("catalog/rope_decoder.uap").read()
    result = uapcheck.check(source, "catalog/rope_decoder.uap")
    outcome = result.target
    assert outcome.phrase() == "UAP for causal targets with 1 attention layer"
    assert outcome.range == "" and [(r.n, r.verdict, r.layers, r.least) for r in outcome.below] == [
        (1, "UAP", 1, True), (2, "UAP", 1, True)]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 12, 30, 60])
def test_each_length_agrees_with_the_concrete_derivation(n):
    source = open("catalog/rope_decoder.uap").read().replace("attention {", f"tokens {n}\nattention {{", 1)
    result = uapcheck.check(source, "t.uap")
    assert result.verdict == "UAP" and result.layers == 1 and result.target.least and result.expect_holds


def _records():
    return (HeadRowLabels("rotary", "rotary", True, "causal", rotary_softmax=True),)


def test_the_kernel_refuses_the_one_layer_route_at_n_1():
    CausalPositions("one layer", 2, _records(), separating=0).check()
    with pytest.raises(proof.CertificateRejected, match="n ≥ 2"):
        CausalPositions("one layer", 1, _records(), separating=0).check()


@pytest.mark.parametrize("head", sorted(HEADS))
def test_the_verifier_re_checks_the_route_at_n_2(head):
    import json

    from uapcheck import certfile
    from uapcheck.verifier import REJECTED, VERIFIED, verify
    source = text(head, "2")
    cert = json.loads(json.dumps(certfile.build(uapcheck.check(source, "t.uap"), source)))
    checked = {s.rule: s.outcome for s in verify(cert).steps}
    assert checked["TGT-VERDICT"] == VERIFIED and REJECTED not in checked.values()
    if head != "toeplitz":
        assert checked["TGT-POSITIONS"] == checked["TGT-LAYERS"] == VERIFIED
