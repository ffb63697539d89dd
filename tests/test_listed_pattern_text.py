"""An `edges { … }` pattern's hash and text, both made once per pattern (a listed pattern of 262,138 pairs at 65,536
tokens is hashed by every cache keyed on it and shown in several steps' claims).

- `spec.Edges.__hash__` is the dataclass's own hash, hash((edges,)), the same before and after it is kept, equal for
  equal lists, and kept through a pickle (the worker processes and the result cache);
- `show.show_pattern` of a list gives the same text at each call, the pairs as written in the language, and equal
  lists (distinct objects) the same text.
"""
from __future__ import annotations

import dataclasses
import pickle
import random

from uapcheck.show import show_pattern
from uapcheck.spec import Edges, PatternUnion, Window


def _pairs(n: int, count: int, seed: int) -> tuple:
    rng = random.Random(seed)
    return tuple((rng.randint(1, n), rng.randint(1, n)) for _ in range(count))


def test_the_hash_of_a_list_is_the_dataclass_hash_of_its_pairs_and_kept():
    pairs = _pairs(50, 200, 1)
    e = Edges(pairs)
    assert hash(e) == hash((pairs,))
    assert hash(e) == hash((pairs,))  # the kept value
    twin = Edges(tuple(list(pairs)))
    assert twin == e and hash(twin) == hash(e) and twin is not e
    assert Edges(pairs[:-1]) != e
    assert {e: 1}[twin] == 1
    back = pickle.loads(pickle.dumps(e))
    assert back == e and hash(back) == hash(e)
    assert dataclasses.asdict(e) == {"edges": pairs} and dataclasses.fields(e)[0].name == "edges"
    assert repr(e) == f"Edges(edges={pairs!r})"
    assert hash(PatternUnion((Window(1), e))) == hash(PatternUnion((Window(1), twin)))


def test_a_lists_text_is_its_pairs_as_written_the_same_at_each_call():
    pairs = _pairs(9, 12, 2)
    e = Edges(pairs)
    want = "edges {" + ", ".join(f"{i} -> {j}" for i, j in pairs) + "}"
    assert show_pattern(e) == want
    assert show_pattern(e) == want
    assert show_pattern(Edges(tuple(pairs))) == want
    assert show_pattern(PatternUnion((Window(1), e))) == "window(1) + " + want
    other = Edges(((1, 2),))
    assert show_pattern(other) == "edges {1 -> 2}"
    assert show_pattern(Edges(())) == "edges {}"
