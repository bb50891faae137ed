"""Lint many skills at once, on every core the process may use.

The checks are pure Python, so threads only take turns under the GIL; processes do not.
On a platform with `fork` (Linux), `lint_skills` lints the first skill in this process
(which loads whatever the first lint loads lazily: the rule modules' regexes, the
tokenizer, detect-secrets' plugins), then forks `jobs - 1` children that inherit all of it.
This process and its children take skills from one queue until it is empty, so a large
skill does not leave the other cores idle, and each child sends its reports back pickled.
The reports come back in the order of `skills`, whatever order they were linted in.

A skill that no process finished is linted again here at the end, in `skills` order: one
whose check crashed (the crash is then raised here, with its own traceback, as it would be
in one process), or one a child took before it died without a word (killed, out of memory).
A process stops at its first crash; the others empty the queue.

Elsewhere (no fork, or macOS, where forking a process that loaded system frameworks is not
safe), in a process where another thread is running (a lock it holds would stay locked in
the children forever), with one core, or for a handful of skills, it is one skill after
another.
"""

from __future__ import annotations

import os
import struct
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from linters.engine import lint_skill
from skillforge.models.findings import LintReport
from skillforge.models.lint_config import LintConfig

# Fewer skills than this per process: forking costs more than it saves.
MIN_SKILLS_PER_JOB = 4
# The queue is a pipe written in full before the fork, so it must fit in the pipe's
# buffer (64 KiB on Linux): at most this many 4-byte tokens, each the start of a batch.
_MAX_TOKENS = 8192
_TOKEN = struct.Struct("<I")


def can_fork() -> bool:
    return hasattr(os, "fork") and sys.platform != "darwin"


def threads_running() -> bool:
    """Whether a thread other than this one runs (then no fork: a lock it holds would stay
    locked in the children forever)."""
    return threading.active_count() > 1


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def job_count(requested: int | None, skills: int) -> int:
    """How many processes lint `skills` skills: `requested` (None or 0: one per usable core),
    never more than there are batches of MIN_SKILLS_PER_JOB skills; 1 without a safe fork."""
    if not can_fork() or threads_running():
        return 1
    wanted = requested if requested else usable_cores()
    return max(1, min(wanted, skills // MIN_SKILLS_PER_JOB))


def lint_skills(
    skills: Sequence[Path], configs: Mapping[Path, LintConfig], jobs: int | None = None
) -> list[LintReport]:
    """`lint_skill(d, configs[d])` for every d in `skills`, in that order, over `jobs`
    processes (see the module's docstring; None or 0: one per usable core)."""
    jobs = job_count(jobs, len(skills))
    if jobs <= 1:
        return [lint_skill(d, configs[d]) for d in skills]
    # Loaded here, not at the top, since only a fork needs it (~3 ms of every lint's start);
    # the children find it loaded.
    import pickle  # noqa: F401

    reports: dict[int, LintReport] = {0: lint_skill(skills[0], configs[skills[0]])}
    rest = len(skills) - 1
    batch = -(-rest // _MAX_TOKENS)  # ceiling: one token per batch of this many skills
    queue_r, queue_w = os.pipe()
    os.write(queue_w, b"".join(_TOKEN.pack(i) for i in range(1, len(skills), batch)))
    os.close(queue_w)  # an empty queue then reads as end of file
    children: list[tuple[int, int]] = []
    try:
        for _ in range(jobs - 1):
            result_r, result_w = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: lint from the queue, send, and leave at once
                os.close(result_r)
                _child(skills, configs, queue_r, result_w, batch)
            os.close(result_w)
            children.append((pid, result_r))
        _work(skills, configs, queue_r, batch, reports)
        for _pid, result_r in children:
            reports.update(_receive(result_r))
    finally:
        os.close(queue_r)
        for pid, result_r in children:
            os.close(result_r)
            os.waitpid(pid, 0)
    for i, skill in enumerate(skills):  # a crash, or a child that died: see the docstring
        if i not in reports:
            reports[i] = lint_skill(skill, configs[skill])
    return [reports[i] for i in range(len(skills))]


def _work(skills: Sequence[Path], configs: Mapping[Path, LintConfig], queue_r: int, batch: int,
          reports: dict[int, LintReport]) -> None:
    """Take batches from the queue until it is empty or a check crashes (that skill is left
    out, for the parent to lint again)."""
    while True:
        token = os.read(queue_r, _TOKEN.size)  # a pipe hands each token to one reader
        if len(token) < _TOKEN.size:
            return
        start = _TOKEN.unpack(token)[0]
        for i in range(start, min(start + batch, len(skills))):
            try:
                reports[i] = lint_skill(skills[i], configs[skills[i]])
            except Exception:  # noqa: BLE001 - raised again when the parent lints it
                return


def _child(skills: Sequence[Path], configs: Mapping[Path, LintConfig], queue_r: int,
           result_w: int, batch: int) -> None:
    """A forked child's whole life. It never returns: `os._exit` skips the parent's exit
    handlers (the regex cache's save, flushing stdout) that belong to the parent alone."""
    import pickle

    code = 1
    try:
        reports: dict[int, LintReport] = {}
        _work(skills, configs, queue_r, batch, reports)
        with os.fdopen(result_w, "wb") as out:
            pickle.dump(reports, out, pickle.HIGHEST_PROTOCOL)
        code = 0
    finally:
        os._exit(code)


def _receive(fd: int) -> dict[int, LintReport]:
    """A child's reports; none when it died before sending them all."""
    import pickle

    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    try:
        return pickle.loads(b"".join(chunks))
    except Exception:  # noqa: BLE001 - cut short: the parent lints those skills itself
        return {}

