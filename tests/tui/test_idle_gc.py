"""Full garbage collections wait until the keys and the mouse are still: not started by
allocations while the workbench runs, run once it is idle (or put off too long), and the
collector's thresholds come back as they were when the app ends."""

from __future__ import annotations

import gc
import shutil
from pathlib import Path

import pytest

from skillforge.app.idle_gc import IDLE_S, MAX_DEFER_S, NEVER, IdleCollector
from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from tests.tui.helpers import SIZE, make_app, settle, wait_for


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def full_collections():
    """Counts the full (generation 2) collections that start while the test runs."""
    seen = []

    def callback(phase, info):
        if phase == "start" and info["generation"] == 2:
            seen.append(info)

    gc.callbacks.append(callback)
    yield seen
    gc.callbacks.remove(callback)


@pytest.fixture
def thresholds():
    saved = gc.get_threshold()
    yield saved
    gc.set_threshold(*saved)


def test_collects_only_once_idle_after_input(full_collections, thresholds):
    clock = Clock()
    idle = IdleCollector(clock)
    idle.start()
    try:
        assert gc.get_threshold() == (thresholds[0], thresholds[1], NEVER)
        assert not idle.tick() and not full_collections  # nothing happened yet
        idle.input_seen()
        clock.now += IDLE_S / 2
        assert not idle.tick()  # the author is typing
        clock.now += IDLE_S
        assert idle.tick() and len(full_collections) == 1
        clock.now += IDLE_S * 5
        assert not idle.tick() and len(full_collections) == 1  # still idle: nothing new
        clock.now += MAX_DEFER_S
        assert idle.tick() and len(full_collections) == 2  # put off too long
    finally:
        idle.stop()
    assert gc.get_threshold() == thresholds
    assert not idle.tick()  # stopped: leaves the collector alone


def test_allocations_do_not_start_a_full_collection_while_it_runs(full_collections, thresholds):
    gc.set_threshold(100, 2, 2)  # a full collection every few hundred allocations
    idle = IdleCollector(Clock())
    idle.start()
    try:
        junk = []
        for _ in range(20_000):
            junk.append([junk[-1] if junk else None])
        assert not full_collections
    finally:
        idle.stop()
    gc.collect(0)
    for _ in range(20_000):  # stopped: allocations start them again
        junk.append([None])
    assert full_collections


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    return shutil.copytree(SAMPLE_SKILLS / "csv-insights", tmp_path / "csv-insights")


async def test_the_workbench_collects_when_the_keys_stop(skill: Path, thresholds):
    app = make_app(skill, Settings())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert gc.get_threshold()[2] == NEVER
        before = app.idle_gc.collections
        await pilot.press("3", "1")
        await wait_for(pilot, lambda: app.idle_gc.collections > before, IDLE_S * 4,
                       "a collection once the keys stopped")
    assert gc.get_threshold() == thresholds
