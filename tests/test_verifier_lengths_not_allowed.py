"""A length the file does not allow (a `global(g)` or `sinks(k)` above it: the parser refuses `tokens n` there) has
no verdict: a certificate stating one below a range is rejected. The verifier used to accept "UAP at n = 1" for
`global(2)` heads, in the equivariant lengths (VERDICT-T1) and in a causal NOT-UAP range (TGT-VERDICT), and printed it
on its `certified:` line."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402

HEADS = ("tokens n\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern global(2)\n}\n"
         "attention {\n  kernel k(x, y) = exp(x . y)\n  pattern strided(2) + global(1)\n}\n")
CAUSAL = "tokens n\ntarget causal\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern blocks(2) + global(2)\n}\n"


def test_an_equivariant_length_the_file_does_not_allow_states_no_verdict():
    cert = certificate_of(HEADS)
    assert verify(cert).ok
    lengths = cert["steps"][-1]["data"]["lengths"]
    assert lengths[0]["n"] == 1 and lengths[0]["verdict"] is None
    bad = copy.deepcopy(cert)
    bad["steps"][-1]["data"]["lengths"][0].update(verdict="UAP", layers=1, least=True, order=1)
    assert not verify(bad).ok


def test_a_causal_length_the_file_does_not_allow_states_no_verdict():
    cert = certificate_of(CAUSAL)
    assert verify(cert).ok and cert["verdict"] == "NOT-UAP"
    below = cert["steps"][-1]["data"]["below_range"]
    assert below[0]["n"] == 1 and below[0]["allowed"] is False
    bad = copy.deepcopy(cert)
    bad["steps"][-1]["data"]["below_range"][0].update(verdict="UAP", layers=1, least=True)
    assert not verify(bad).ok
