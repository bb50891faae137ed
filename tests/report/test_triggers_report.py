"""A trigger run's report (Markdown, HTML, lift.json) holds its description loop, and its
numbers are the stored trials': recounted here from the trajectories themselves."""

from __future__ import annotations

import json

import pytest

from sessions.store import RunStore
from skillforge.report.html_page import render_html
from skillforge.report.markdown import render_markdown
from skillforge.report.source import load_run_report
from skillforge.trajectory.facts import activated_skills
from tests.trials.scripted_triggers import NO_WORDS, TARGET, WITH_WORDS, run_loop

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def env(llm_server, monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "scripted-agent")
    monkeypatch.chdir(tmp_path)
    return llm_server


def recount(store: RunStore, run_id: str) -> dict[str, tuple[int, int]]:
    """{query id: (runs triggered, runs)} read off the stored ATIF trajectories."""
    out: dict[str, list[int]] = {}
    for rec in store.trajectories(run_id):
        traj = store.load(rec.id)
        hit = TARGET in activated_skills(traj)
        counts = out.setdefault(rec.case_id, [0, 0])
        counts[0] += int(hit)
        counts[1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


async def test_report_numbers_match_the_trials(env, tmp_path):
    _s, history, store, _plan = await run_loop(tmp_path, env, [NO_WORDS, WITH_WORDS])
    best = history.best
    assert best.iteration == 2
    report, _ = load_run_report(tmp_path / "state", best.test_run)
    tr = report.extra.triggers
    assert tr is not None and tr.iteration == 2 and tr.split == "test"
    assert tr.loop.loop_id == history.loop_id
    for attempt in tr.loop.attempts:
        for split in ("train", "test"):
            score = getattr(attempt, split)
            counts = recount(store, getattr(attempt, f"{split}_run"))
            assert {q.id: (q.triggered, q.runs) for q in score.queries} == counts
            correct = sum(1 for q in score.queries
                          if (q.triggered / q.runs >= 0.5) == q.should_trigger)
            assert (score.accuracy.k, score.accuracy.n) == (correct, len(score.queries))
            assert score.accuracy.ci_low <= score.accuracy.value <= score.accuracy.ci_high
    doc = json.loads(report.model_dump_json())
    assert doc["extra"]["triggers"]["loop"]["comparison"]["best_iteration"] == 2
    md = render_markdown(report)
    assert "## Trigger evaluation and description loop" in md
    acc = tr.loop.attempt(2).test.accuracy
    assert f"1.00 [{acc.ci_low:.2f}, {acc.ci_high:.2f}] (4/4)" in md
    assert "within noise" in md and "### Queries that flipped" in md
    html = render_html(report)
    assert 'id="triggers"' in html and 'data-iteration="2"' in html
    # Every run of the loop (train or test, any iteration) reports the same loop.
    other = next(r for r in store.runs() if r.run_id != best.test_run)
    assert load_run_report(tmp_path / "state", other.run_id)[0].extra.triggers is not None
