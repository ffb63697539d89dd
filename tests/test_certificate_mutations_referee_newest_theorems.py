"""Forged certificates of Theorems F159 (a budget split for causal targets), F164 (window + strided below F7's range),
F168 (a cyclic window's diameter with offsets outside it), F176 (an even labelled window), F177 (circulant beside
symmetric Toeplitz) and F178 (a free bias beside another head), each stating something false: a count off by one, a
count stated least that is not shown least, a diameter, a start N*, a group. `uapcheck verify` must reject the step or
name the verdict not certified. (A mutant stating a weaker, true fact is not listed.)"""
from __future__ import annotations

import copy
import json
from functools import lru_cache

import pytest

from certificates import certificate_text, verified_in_full_by_the_catalog_test  # tests/ is on sys.path

from uapcheck.verifier import REJECTED, verify


@lru_cache(maxsize=None)
def _verified(name: str) -> bool:
    if verified_in_full_by_the_catalog_test(name):  # every step verified, none trusted: tests/test_verifier.py
        return True
    report = verify(json.loads(certificate_text(name)))
    return not any(s.outcome == REJECTED for s in report.steps)


def _plus(d):
    """Add d to an integer or to a symbolic expression tree of the certificate."""
    return lambda v: v + d if isinstance(v, int) else {"op": "+", "args": [v, d]}


def _set(value):
    return lambda v: value


# (catalog file, rule, path in the step's data (None: the certificate's top level), change, what the mutant claims)
MUTANTS = [
    ("sparse_transformer_merged_4096.uap", "PAT-LAYERS", ("layers",), _plus(-1), "F164: 1 layer"),
    ("sparse_transformer_merged_4096.uap", "PAT-LAYERS", ("diameter",), _plus(-1), "F164: diameter 1"),
    ("sparse_transformer_merged_4096.uap", "PAT-LAYERS", ("layers",), _plus(1), "F164: 3 layers, least"),
    ("sparse_transformer_merged_4096.uap", "SYM-AUT", ("order",), _set(1), "F164: a trivial group"),
    ("sparse_transformer_merged_4096.uap", "SYM-AUT", ("name",), _set("D_n"), "F164: the dihedral group"),
    ("cyclic_window_dilated_n.uap", "PAT-LAYERS", ("least",), _set(False), "F227: least stated not least"),
    ("cyclic_window_dilated_n.uap", "PAT-LAYERS", ("layers",), _plus(-1), "F168: D layers"),
    ("cyclic_window_dilated_n.uap", "PAT-CONNECTED", ("diameter",), _plus(-1), "F168: a diameter one lower"),
    ("cyclic_window_dilated_n.uap", "PAT-CONNECTED", ("diameter",), _plus(1), "F168: a diameter one higher"),
    ("alternating_windows_four_layers_any_length.uap", "TGT-NOT-CAUSAL", ("from",), _plus(-1), "F159: N* = 11"),
    ("alternating_windows_four_layers_any_length.uap", "TGT-NOT-CAUSAL", ("from",), _plus(1), "F159: N* = 13"),
    ("alternating_windows_four_layers_any_length.uap", "TGT-NOT-CAUSAL", ("from",), _set(2), "F159: N* = 2"),
    ("alternating_windows_four_layers_any_length.uap", "TGT-NOT-CAUSAL", ("depth",), _plus(1), "F159: 5 layers"),
    ("alibi_window_bidirectional_any_length.uap", "PAT-LAYERS", ("layers",), _plus(-1), "F176: D − 1 layers"),
    ("alibi_window_bidirectional_any_length.uap", "PAT-LAYERS", ("layers",), _plus(1), "F176: D + 1, least"),
    ("alibi_window_bidirectional_any_length.uap", "PAT-LAYERS", ("from",), _set(3), "F176 at n = w + 1"),
    ("bias_circulant_beside_symmetric_any_length.uap", "BIAS-LAYERS", ("layers",), _set(1), "F177: one layer"),
    ("bias_circulant_beside_symmetric_any_length.uap", "BIAS-LAYERS", ("condition",), _set("n ≥ 2"),
     "F177 from n = 2"),
    ("free_bias_window_beside_global.uap", "PAT-LAYERS", ("layers",), _plus(-1), "F178: 2 layers"),
    ("free_bias_window_beside_global.uap", "PAT-LAYERS", ("view witness", "position"), _set(1),
     "F178: a witness at position 1"),
    ("free_bias_window_beside_global.uap", "PAT-LAYERS", ("view witness", "permutation"),
     _set([2, 1] + list(range(3, 13))), "F178: the swap (1 2) as witness"),
]


@pytest.mark.parametrize("name, rule, path, value, claim", MUTANTS, ids=[m[4] for m in MUTANTS])
def test_a_forged_value_is_rejected(name, rule, path, value, claim):
    assert _verified(name)
    mutant = copy.deepcopy(json.loads(certificate_text(name)))
    step = next(s for s in mutant["steps"] if s["rule"] == rule)
    obj = step["data"]
    for p in path[:-1]:
        obj = obj[p]
    obj[path[-1]] = value(obj[path[-1]])
    report = verify(mutant, only={step["id"]})
    rejected = [s.id for s in report.steps if s.outcome == REJECTED]
    assert step["id"] in rejected or report.problems, \
        f"{claim}: accepted ({[(s.id, s.outcome) for s in report.steps]})"
