"""A large random pattern is derived, and its certificate verified, without numpy.ma: np.quantile, np.percentile and
np.unique (without counts or indices) import it the first time (about 35 ms of every such process), so the engine's
padded rows and far-search picks and the verifier's columns and seed list read sorted arrays instead."""
from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = r"""
import json, sys
import uapcheck
from uapcheck import certfile
from uapcheck.verifier import verify
text = "tokens 4096\nattention { kernel k(x, y) = exp(x . y); pattern window(1) + random(2, seed=1) }\n"
result = uapcheck.check(text, "t.uap")
engine = "numpy.ma" in sys.modules
cert = json.loads(json.dumps(certfile.build(result, text)))
report = verify(cert)
print(json.dumps({"engine": engine, "verifier": "numpy.ma" in sys.modules, "ok": report.ok,
                  "layers": result.layers}))
"""


def test_window_and_random_at_4096_imports_no_numpy_ma_in_the_engine_nor_the_verifier():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True, timeout=300)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"engine": False, "verifier": False, "ok": True, "layers": 10}
