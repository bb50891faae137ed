"""`skillforge label`: the real console script, driven through its standard input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sessions.store import RunStore
from tests.widgets.lift_fixture import JUDGE, RUN_ID, build_store

SCRIPT = Path(sys.executable).with_name("skillforge")


def _run(args: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([str(SCRIPT), *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def state(tmp_path) -> Path:
    build_store(tmp_path / ".skillforge").close()
    return tmp_path / ".skillforge"


def test_walk_shows_the_trial_and_stores_typed_scores(state, tmp_path):
    # First trial: accuracy typed 3 with a reason; second: Enter keeps the judge's value;
    # third: a bad score is refused and asked again, then s skips; then q stops.
    stdin = "3\nmisses the pivot\n\nten\ns\nq\n"
    r = _run(["label", RUN_ID, "--metric", "accuracy", "--state-dir", str(state)], tmp_path,
             stdin)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "0 of 48 judgments of run" in out
    assert "== case currency-mix · baseline · attempt 0" in out
    assert "task:   Total revenue in EUR; some rows are in USD." in out
    assert "answer: Done for currency-mix: I computed it with pandas" in out
    assert f"accuracy [judge: {JUDGE} 6]" in out
    assert "'ten' is not a score for accuracy" in out
    assert "stopped; 2 label(s) stored this time" in out
    with RunStore(state) as store:
        labels = sorted(store.labels(), key=lambda lb: lb.attempt or 0)
    assert [(lb.case_id, lb.attempt, lb.author_value, lb.reason, lb.judge_value)
            for lb in labels] == [("currency-mix", 0, 0.3, "misses the pivot", 0.6),
                                  ("currency-mix", 1, 0.62, "", 0.62)]
    assert all(lb.judge_model == JUDGE and lb.prompt_version == "trial-v1" for lb in labels)
    # A second walk starts after what is labelled.
    again = _run(["label", RUN_ID, "--metric", "accuracy", "--state-dir", str(state)],
                 tmp_path, "q\n")
    assert "2 of 48 judgments of run" in again.stdout


def test_import_names_file_line_and_fix_and_stores_all_or_nothing(state, tmp_path):
    bad = tmp_path / "labels.csv"
    bad.write_text("run_id,case_id,condition,attempt,metric,score,reason\n"
                   f"{RUN_ID},top-products,with_skill,0,accuracy,8,fine\n"
                   f"{RUN_ID},top-products,with_skill,zero,accuracy,8,\n"
                   f"{RUN_ID},top-products,with_skill,0,goal_accuracy,maybe,\n"
                   f"{RUN_ID},no-such-case,with_skill,0,accuracy,8,\n")
    r = _run(["label", "--import", str(bad), "--state-dir", str(state)], tmp_path)
    assert r.returncode == 2
    assert f"{bad}:3: attempt 'zero' is not a whole number" in r.stderr
    assert f"{bad}:4: 'maybe' is not a score for goal_accuracy: type met, partial or not" \
        in r.stderr
    assert f"{bad}:5: run {RUN_ID} has no judged ok trial 'no-such-case'" in r.stderr
    with RunStore(state) as store:
        assert store.labels() == []  # nothing stored from a file with bad rows

    template = _run(["label", RUN_ID, "--template", "--metric", "goal_accuracy",
                     "--state-dir", str(state)], tmp_path)
    lines = template.stdout.splitlines()
    assert lines[0] == "run_id,case_id,condition,attempt,metric,score,reason"
    assert len(lines) == 1 + 48
    good = tmp_path / "good.csv"
    good.write_text("\n".join(lines[:4]) + "\n")
    ok = _run(["label", "--import", str(good), "--state-dir", str(state)], tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert "stored 3 label(s)" in ok.stderr
    with RunStore(state) as store:
        labels = store.labels()
    assert len(labels) == 3 and all(lb.accepted and lb.source == "import" for lb in labels)
