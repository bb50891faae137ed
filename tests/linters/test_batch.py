"""`linters.batch`: many skills linted over forked processes give what one process gives."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import linters.batch as batch
from linters.engine import CheckCrashed, lint_skill
from skillforge.formats.lint_json import lint_document
from skillforge.models.lint_config import LintConfig
from tests.conftest import ROOT, SHARED
from tests.corpus import corpus_skill_dirs

CORPUS_SKILLS = SHARED / "corpus" / "skills"
SKILLS = corpus_skill_dirs()[:24]
CONFIGS = {d: LintConfig(scripts=False) for d in SKILLS}


@pytest.fixture
def forkable(monkeypatch):
    """The suite's own server threads (the loopback LLM server, log readers) would keep
    `lint_skills` in one process; the children here only lint, pickle and `os._exit`."""
    monkeypatch.setattr(batch, "threads_running", lambda: False)


def _document(reports) -> str:
    return json.dumps(lint_document([(str(d), r) for d, r in zip(SKILLS, reports, strict=True)]),
                      sort_keys=True)


def _pid_log(tmp_path: Path, monkeypatch, crash_on=(), crash_in_child=False, die_in_child=False,
             parent_pause=0.0, pause=0.0) -> tuple[Path, int]:
    """Wrap `lint_skill` (forked children inherit the wrapper) to log which process linted
    which skill, and optionally to crash (on some skills, or on all in a child) or die."""
    log = tmp_path / "pids.log"
    parent = os.getpid()

    def logged(target, config=None, **kw):
        with log.open("a") as out:
            out.write(f"{os.getpid()} {target}\n")
        time.sleep(pause)  # every process gets a share of the queue
        if target in crash_on:
            raise CheckCrashed(f"planted crash on {target}")
        if os.getpid() != parent:
            if die_in_child:
                os.kill(os.getpid(), signal.SIGKILL)
            if crash_in_child:
                raise CheckCrashed(f"planted crash on {target}")
        else:
            time.sleep(parent_pause)
        return lint_skill(target, config, **kw)

    monkeypatch.setattr(batch, "lint_skill", logged)
    return log, parent


def test_forked_jobs_give_the_one_process_result_in_order(tmp_path, monkeypatch, forkable):
    serial = batch.lint_skills(SKILLS, CONFIGS, jobs=1)
    log, parent = _pid_log(tmp_path, monkeypatch, pause=0.02)
    forked = batch.lint_skills(SKILLS, CONFIGS, jobs=3)
    assert _document(forked) == _document(serial)
    lines = [line.split(" ", 1) for line in log.read_text().splitlines()]
    pids = {int(pid) for pid, _ in lines}
    assert parent in pids and len(pids) == 3, "the parent and two children each linted skills"
    assert sorted(path for _, path in lines) == sorted(map(str, SKILLS)), "each skill once"


def test_a_crash_is_raised_as_in_one_process_the_first_in_order(tmp_path, monkeypatch, forkable):
    _pid_log(tmp_path, monkeypatch, crash_on={SKILLS[14], SKILLS[5]}, pause=0.01)
    with pytest.raises(CheckCrashed, match=f"planted crash on {SKILLS[5]}$"):
        batch.lint_skills(SKILLS, CONFIGS, jobs=3)


def test_a_skill_that_crashed_only_in_a_child_is_linted_again_here(tmp_path, monkeypatch, forkable):
    serial = batch.lint_skills(SKILLS[:12], CONFIGS, jobs=1)
    log, parent = _pid_log(tmp_path, monkeypatch, crash_in_child=True, parent_pause=0.05)
    forked = batch.lint_skills(SKILLS[:12], CONFIGS, jobs=2)
    assert [r.findings for r in forked] == [r.findings for r in serial]
    lines = [line.split(" ", 1) for line in log.read_text().splitlines()]
    crashed = [path for pid, path in lines if int(pid) != parent]
    assert crashed, "the child took a skill and crashed on it"
    assert [path for pid, path in lines if int(pid) == parent].count(crashed[0]) == 1


def test_a_child_that_dies_loses_no_skill(tmp_path, monkeypatch, forkable):
    serial = batch.lint_skills(SKILLS, CONFIGS, jobs=1)
    log, parent = _pid_log(tmp_path, monkeypatch, die_in_child=True, parent_pause=0.01)
    forked = batch.lint_skills(SKILLS, CONFIGS, jobs=2)
    assert _document(forked) == _document(serial)
    lines = [line.split(" ", 1) for line in log.read_text().splitlines()]
    assert {int(pid) for pid, _ in lines} - {parent}, "a child took a skill before it died"


def test_jobs_follow_the_cores_and_the_number_of_skills(monkeypatch, forkable):
    monkeypatch.setattr(batch, "usable_cores", lambda: 8)
    assert batch.job_count(None, 152) == 8
    assert batch.job_count(0, 152) == 8
    assert batch.job_count(1, 152) == 1
    assert batch.job_count(3, 152) == 3
    assert batch.job_count(None, 3) == 1, "a handful of skills is not worth a fork"
    assert batch.job_count(None, 9) == 2
    monkeypatch.setattr(batch, "threads_running", lambda: True)
    assert batch.job_count(4, 152) == 1, "no fork while another thread runs"
    monkeypatch.setattr(batch, "threads_running", lambda: False)
    monkeypatch.setattr(batch, "can_fork", lambda: False)
    assert batch.job_count(4, 152) == 1


def test_a_running_thread_is_seen():
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert batch.threads_running()
    finally:
        stop.set()
        other.join()


def test_the_cli_prints_the_same_document_whatever_the_jobs():
    cmd = [str(Path(sys.executable).with_name("skillforge")), "lint", str(CORPUS_SKILLS),
           "--no-scripts", "--format", "json"]
    one = subprocess.run([*cmd, "-j", "1"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    two = subprocess.run([*cmd, "--jobs", "2"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert one.returncode == two.returncode == 1, one.stderr + two.stderr  # some corpus skills fail
    assert len(json.loads(one.stdout)["skills"]) >= 140
    assert two.stdout == one.stdout
    assert not two.stderr
