"""The verifier's array helpers take distinct values without np.unique (which imports numpy.ma, about 35 ms of a
process that needs none of it): the moved positions of a permutation on the arc arrays, Theorem F164's pair keys and
T5's bucket labels at large n."""
from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = r"""
import json, sys
import numpy as np
from uapcheck.verifier import arrays as A, families
from uapcheck import spec as S
n = 64
heads = [A.head_codes(S.Window(w=2), n)]
perm = np.arange(n, dtype=np.int64)
perm[[3, 4]] = perm[[4, 3]]
moved = A.changed_positions(perm, heads, n).tolist()
same, other = families.f164_keys(2, 5, 61)
print(json.dumps({"ma": "numpy.ma" in sys.modules, "moved": moved, "keys": len(same) + len(other) > 0}))
"""


def test_changed_positions_and_f164_keys_import_no_numpy_ma():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True, timeout=300)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["ma"] is False and got["keys"] is True
    assert got["moved"] == sorted(set(got["moved"])) and {3, 4} <= set(got["moved"])
