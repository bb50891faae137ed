"""Skill Mode rows in the run store: round trip, chain order, the final cache, upgrades."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import pytest

from sessions.migrations import migrate
from sessions.store import RunStore
from skillforge.models.skill_mode import (
    CachedSkill,
    SkillCache,
    SkillEvent,
    SkillModeTrial,
    SkillOrigin,
    SkillStats,
)
from skillforge.models.trial import RunRecord

SCRIPT = "rows = call_tool('read_file', path=args['path'])\nresult = {'text': rows}\n"


def _cache(*names: str, runs: int = 0) -> SkillCache:
    return SkillCache(skills={n: CachedSkill(
        name=n, description=f"{n} does a thing", parameters={"path": "a CSV file"},
        script_code=SCRIPT, execution_stats=SkillStats(runs=runs),
        created_by=SkillOrigin(run_id="r1", case_id="c1", attempt=1)) for n in names})


def _row(case: str, attempt: int, seq: int, before: SkillCache, after: SkillCache,
         **kw) -> SkillModeTrial:
    return SkillModeTrial(run_id="r1", case_id=case, attempt=attempt, seq=seq,
                          cache_before=before, cache_after=after, **kw)


@pytest.fixture
def store(tmp_path):
    with RunStore(tmp_path) as s:
        s.create_run(RunRecord(run_id="r1", created_at=datetime.now(UTC)))
        yield s


def test_rows_round_trip_in_chain_order_and_replace_by_key(store):
    events = [SkillEvent(tool="save_skill", name="col_sum", ok=False, failure="syntax",
                         detail="line 2: invalid syntax"),
              SkillEvent(tool="save_skill", name="col_sum"),
              SkillEvent(tool="execute_skill", name="col_sum", args={"path": "a.csv"})]
    rows = [_row("c2", 1, 1, _cache("col_sum"), _cache("col_sum", runs=2)),
            _row("c1", 2, 0, SkillCache(), _cache("other")),
            _row("c1", 1, 0, SkillCache(), _cache("col_sum"), events=events)]
    for row in rows:
        store.save_skill_mode_trial(row)
    got = store.skill_mode_trials("r1")
    assert [(r.attempt, r.seq, r.case_id) for r in got] == [(1, 0, "c1"), (1, 1, "c2"),
                                                             (2, 0, "c1")]
    assert got[0] == rows[2]
    assert got[0].events[0].failure == "syntax"
    # Resuming re-stores a trial: the row is replaced, not duplicated.
    store.save_skill_mode_trial(_row("c1", 1, 0, SkillCache(), _cache("col_sum", "x")))
    again = store.skill_mode_trials("r1")
    assert len(again) == 3 and set(again[0].cache_after.skills) == {"col_sum", "x"}
    assert store.skill_mode_trials("nope") == []


def test_final_cache_is_the_last_case_of_the_chosen_or_last_attempt(store):
    assert store.final_skill_cache("r1") is None
    store.save_skill_mode_trial(_row("c1", 1, 0, SkillCache(), _cache("a")))
    store.save_skill_mode_trial(_row("c2", 1, 1, _cache("a"), _cache("a", "b", runs=3)))
    store.save_skill_mode_trial(_row("c1", 2, 0, SkillCache(), _cache("z")))
    assert set(store.final_skill_cache("r1", attempt=1).skills) == {"a", "b"}
    assert store.final_skill_cache("r1", attempt=1).skills["b"].execution_stats.runs == 3
    assert set(store.final_skill_cache("r1").skills) == {"z"}
    assert store.final_skill_cache("r1", attempt=3) is None


def test_a_row_needs_its_run(store):
    with pytest.raises(KeyError, match="no run 'ghost'"):
        store.save_skill_mode_trial(SkillModeTrial(run_id="ghost", case_id="c", attempt=1,
                                                   seq=0))


def test_a_version_3_store_gains_the_table(tmp_path):
    conn = sqlite3.connect(tmp_path / "skillforge.db", isolation_level=None)
    assert migrate(conn, target=3) == 3
    conn.close()
    with RunStore(tmp_path) as store:
        assert store.version >= 4  # later migrations may follow
        store.create_run(RunRecord(run_id="r1", created_at=datetime.now(UTC)))
        store.save_skill_mode_trial(_row("c1", 1, 0, SkillCache(), _cache("a")))
        assert len(store.skill_mode_trials("r1")) == 1
