"""The group step's evidence states the range its claim states (the verdict's: where the group and the layer
count both hold), and the group's own closed-form range beside it, under its own name, when that is wider."""
from __future__ import annotations

import uapcheck

HEADS = """tokens n
attention local {
  kernel k(x, y) = exp(x . y)
  pattern window(2)
}
attention hub {
  kernel k(x, y) = exp(x . y)
  pattern global(1)
}
"""


def test_the_group_step_states_one_range():
    result = uapcheck.check(HEADS, "heads.uap")
    assert result.verdict == "UAP"
    step = next(s for s in result.root.walk() if s.rule == "SYM-AUT")
    stated = f"for {result.group.condition}"
    assert step.evidence["range"] == stated
    assert f"({stated})" in step.claim
    own = step.evidence.get("the group's closed form holds")
    assert own is None or own != stated
