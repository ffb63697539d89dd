"""Suggestions: the edits that make a file provably UAP, each re-derived in full."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


import uapcheck
from uapcheck import spec as S
from uapcheck.suggest import EDITS, PANEL_CANDIDATES, best, suggestions

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}


def spec_of(name: str) -> S.Spec:
    return uapcheck.check_file(REPO / "catalog" / name).spec


def test_affine_terms_rescue_elu_features_as_the_hand_written_file_does():
    found = suggestions(spec_of("linear_elu.uap"))
    assert found and found[0].text == "add `affine query key`" and found[0].size == 1
    by_hand = uapcheck.check_file(REPO / "catalog" / "linear_elu_affine.uap")
    first = found[0].result
    assert (first.verdict, first.group.name, first.layers) == (by_hand.verdict, by_hand.group.name, by_hand.layers)
    assert all(s.result.verdict == "UAP" for s in found)
    assert [s.size for s in found] == sorted(s.size for s in found)


def test_frozen_projections_are_unfrozen():
    found = suggestions(spec_of("linformer_fixed.uap"))
    assert found[0].text.startswith("unfreeze the projections")
    assert found[0].result.group.name == "trivial"


def test_a_layer_budget_below_the_diameter_is_lifted():
    found = suggestions(spec_of("window_budget.uap"))
    assert found[0].text == "remove the `layers` budget"
    assert found[0].result.verdict == "UAP" and found[0].result.layers == 8


def test_no_suggestion_is_invented_where_no_edit_proves_uap():
    # Uniform attention (a constant kernel) is not rescued by any edit tried here: nothing is claimed.
    assert suggestions(spec_of("uniform.uap")) == []
    assert best(spec_of("uniform.uap")) is None


def test_every_edit_names_what_it_changes_and_leaves_unrelated_files_alone():
    softmax = spec_of("softmax.uap")
    for edit in EDITS:
        assert edit.text and edit.size >= 1
    # Softmax has no projections, no budget, no features, the full pattern: those edits do not apply.
    inapplicable = {e.text for e in EDITS if e.apply(softmax) is None}
    assert {"unfreeze the projections (drop `fixed`)", "remove the `layers` budget", "add `global(1)` to the pattern",
            "use exponential features `exp(x)`", "use the full pattern"} <= inapplicable


def run(*args):
    return subprocess.run([sys.executable, "-m", "uapcheck", *args], capture_output=True, cwd=REPO, env=ENV,
                          timeout=300)


def test_suggest_command_lists_ranked_edits_with_their_verdicts():
    p = run("suggest", "catalog/linear_elu.uap", "catalog/softmax.uap")
    text = p.stdout.decode()
    assert p.returncode == 0, p.stderr.decode()
    assert "catalog/linear_elu.uap: INCONCLUSIVE" in text
    assert "  1. add `affine query key` (change size 1): UAP · G = S_n · 1 attention layer" in text
    assert "catalog/softmax.uap: UAP · G = S_n · 1 attention layer\n  already UAP" in text


def test_suggest_command_reports_bad_input_as_an_input_error(tmp_path):
    bad = tmp_path / "bad.uap"
    bad.write_text("attention { kernel k(x, y) = exp(x . }\n")
    p = run("suggest", str(bad))
    assert p.returncode == 2 and b"Traceback" not in p.stderr and b"bad.uap:1:" in p.stderr


def test_the_verdict_panel_shows_the_best_suggestion_unless_asked_not_to():
    shown = run("catalog/linear_elu.uap").stdout.decode()
    assert "suggestion: add `affine query key` gives UAP" in shown
    assert shown.index("suggestion:") < shown.index("derivation")
    assert "suggestion:" not in run("--no-suggest", "catalog/linear_elu.uap").stdout.decode()
    assert "suggestion:" not in run("catalog/softmax.uap").stdout.decode()


def test_the_panel_search_checks_a_fixed_number_of_candidates(monkeypatch):
    # a count, not a clock: the panel is the same on a fast and a slow machine
    import uapcheck.derive as derive
    nested = uapcheck.check("attention { kernel k(x, y) = " + "exp(" * 8 + "x . y" + ")" * 8 + " }\n").spec
    checked = []
    real = derive.check_spec
    monkeypatch.setattr(derive, "check_spec", lambda spec, *a, **k: checked.append(spec) or real(spec, *a, **k))
    best(nested, candidates=3)
    assert len(checked) <= 3
    checked.clear()
    assert best(spec_of("uniform.uap")) is None  # every candidate fails: the search stops at the bound or the list
    assert 0 < len(checked) <= PANEL_CANDIDATES


def test_a_decoder_is_pointed_to_its_causal_target_class():
    found = suggestions(spec_of("causal.uap"))
    assert found[0].text.startswith("declare `target causal`")
    assert found[0].result.verdict == "UAP" and found[0].result.layers == 2


def test_the_panel_search_gets_the_files_own_budget_whatever_the_worker_checked_before(monkeypatch):
    # a worker checks its files one after another, so its CPU clock holds the files before this one: the search was
    # given the budget minus the whole clock, so a file late in a batch had 1 s where it alone had its budget
    import time
    from contextlib import contextmanager
    from types import SimpleNamespace

    from uapcheck import budget, cli
    given = []

    @contextmanager
    def record(seconds=None):
        given.append(seconds)
        yield

    monkeypatch.setattr(budget, "file_budget", record)
    monkeypatch.setattr(budget, "file_seconds", 20.0)
    monkeypatch.setattr("uapcheck.suggest.best", lambda spec: None)
    result = uapcheck.check("tokens 8\nattention { kernel k(x, y) = exp(x . y); pattern causal }\n", "t.uap")
    assert result.verdict == "NOT-UAP"
    given.clear()  # the derivation's own file budget
    earlier = time.process_time() + 30.0  # as if 30 s of other files ran in this process before the file began
    monkeypatch.setattr(time, "process_time", lambda: earlier)
    started = earlier - 2.0  # this file has used 2 s
    cli._panel_suggestion(result, SimpleNamespace(no_suggest=False), started)
    assert given == [18.0]
