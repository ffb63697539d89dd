"""The family theorems' instance check (uapcheck/graphs/families.check_instance) kept per process: asked again by the
step, its certificate's check and each length below a range, a kept answer is what the uncached check computes with
every cache empty, over the catalog's patterns (symbolic parameters at their lower bounds, biases, lengths)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from uapcheck.graphs import families as F
from uapcheck.memo import clear_caches
from uapcheck.parse import parse_source
from uapcheck.rules.pattern import _lower_bounds

ROOT = Path(__file__).resolve().parent.parent


def _questions() -> list[tuple]:
    out = []
    for path in sorted((ROOT / "catalog").glob("*.uap")):
        spec = parse_source(path.read_text("utf-8"), path.name)
        if len(spec.heads) != 1 or spec.heads[0].pattern is None:
            continue
        length = spec.tokens if isinstance(spec.tokens, int) else None
        out.append((spec.heads[0].pattern, _lower_bounds(spec), [h.bias for h in spec.heads], spec.positional, length))
    return out


QUESTIONS = _questions()


@pytest.mark.parametrize("seed", range(2))
def test_kept_instance_checks_are_the_uncached_checks(seed):
    picked = random.Random(seed).sample(QUESTIONS, 24)
    asked = picked + picked[::-1]
    kept = [F.check_instance(*q) for q in asked]
    for q, answer in zip(asked, kept):
        clear_caches()
        F._match_cached.cache_clear()
        F.concrete.cache_clear()
        assert answer == F._check_instance.__wrapped__(*q)


def test_keyword_and_default_arguments_reach_the_same_check():
    pattern, lower, _, _, _ = QUESTIONS[0]
    assert F.check_instance(pattern, lower) == F.check_instance(pattern, lower, None, "none", None)
    assert F.check_instance(pattern, dict(lower), length=None) == F._check_instance.__wrapped__(pattern, lower, None,
                                                                                                 "none", None)
