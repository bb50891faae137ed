"""Fixtures for harness trials: stand-in CLIs, a sandbox observer, a model that must not be used.

The stand-ins (tests/harnesses/standins/) go into the container through the harness's
`extra_files` (the trial's initial archive), with the corpus transcript they replay. The
observer looks inside each trial container just before it is removed: the stand-in's record
(outside /workspace), a scan of every file for the key as root and as the agent user (root
in a container without capabilities cannot read the agent's private files), what is in
`~/.claude`, and the container's configured environment.
"""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import pytest

from skillforge.trials import runner as trial_runner
from tests.conftest import CORPUS, SAMPLE_SKILLS

STANDINS = Path(__file__).resolve().parent / "standins"
CLAUDE_TRACES = CORPUS / "traces" / "claude_code"
CODEX_TRACES = CORPUS / "traces" / "codex"
RECORD = "/tmp/standin/record.json"

SCAN = r"""
import base64, os, sys
needle = base64.b64decode(sys.argv[1])
hits = []
for top, dirs, files in os.walk("/"):
    # Every mount included (the staged areas are tmpfs mounts), not the kernel's.
    dirs[:] = [d for d in dirs if os.path.join(top, d) not in ("/proc", "/sys", "/dev")]
    for name in files:
        path = os.path.join(top, name)
        try:
            if os.path.isfile(path) and not os.path.islink(path) and \
                    os.path.getsize(path) < 50_000_000 and needle in open(path, "rb").read():
                hits.append(path)
        except OSError:
            pass
print(repr(hits))
"""


def standin_files(kind: str, transcript: Path, **config) -> dict[str, bytes | tuple]:
    """extra_files installing the stand-in `claude` or `codex` and the transcript it replays."""
    script = (STANDINS / f"{kind}_standin.py").read_bytes()
    binary = f"/opt/skillforge/bin/{kind}"  # the trial's tools folder, first on PATH
    conf = {"transcript": "/opt/skillforge/standin/transcript.jsonl", "record": RECORD, **config}
    return {binary: (script, 0o755),
            "/opt/skillforge/standin/transcript.jsonl": (transcript.read_bytes(), 0o644),
            f"/opt/skillforge/standin/{kind}.json": (json.dumps(conf).encode(), 0o644)}


class NoModel:
    """The agent client of a harness trial: skillforge itself must never call a model."""

    model = "no-model"
    name = "none"

    async def complete(self, *args, **kwargs):
        raise AssertionError("a harness trial called skillforge's model client")


class _Observed:
    """A sandbox wrapper that inspects the container before it is removed."""

    def __init__(self, inner, seen: list, needle: str | None) -> None:
        self._inner = inner
        self._seen = seen
        self._needle = needle

    def __getattr__(self, name):
        return getattr(self._inner, name)

    async def __aenter__(self):
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc):
        try:
            self._seen.append(await self._inspect())
        finally:
            await self._inner.__aexit__(*exc)

    async def _inspect(self) -> dict:
        sb = self._inner
        found: dict = {"record": None, "hits": {}}
        try:
            found["record"] = json.loads(await sb.get_file(RECORD))
        except Exception as exc:  # noqa: BLE001 - a missing record is a finding
            found["record_error"] = str(exc)
        if self._needle:
            arg = base64.b64encode(self._needle.encode()).decode()
            for user in ("0:0", "1000:1000"):
                res = await sb.exec(["python3", "-c", SCAN, arg], timeout_s=120, user=user)
                found["hits"][user] = res.stdout.strip()
        ls = await sb.exec("stat -c '%u %a %n' /home/agent/.claude /home/agent/.claude/skills "
                           "/home/agent/.agents /home/agent/.agents/skills 2>/dev/null; true",
                           timeout_s=20)
        found["stat"] = ls.stdout.splitlines()
        # What Claude Code keeps in ~/.claude (a telemetry/ folder, were telemetry on)
        state = await sb.exec("ls -A /home/agent/.claude; true", timeout_s=20)
        found["claude_home"] = state.stdout.split()
        info = sb.client.api.inspect_container(sb.container_id)
        found["config_env"] = info["Config"]["Env"]
        return found


@pytest.fixture
def observed(monkeypatch):
    """observed(needle) -> list filled with one inspection per trial container."""
    def install(needle: str | None = None) -> list:
        seen: list = []
        real = trial_runner.open_sandbox

        def wrapped(*args, **kwargs):
            return _Observed(real(*args, **kwargs), seen, needle)

        monkeypatch.setattr(trial_runner, "open_sandbox", wrapped)
        return seen

    return install


@pytest.fixture
def csv_skill(tmp_path) -> Path:
    dest = tmp_path / "skills" / "csv-insights"
    shutil.copytree(SAMPLE_SKILLS / "csv-insights", dest)
    return dest


@pytest.fixture
def skills(tmp_path) -> Path:
    """A copy of sample_skills/: csv-insights plus two other skills next to it."""
    dest = tmp_path / "skills"
    shutil.copytree(SAMPLE_SKILLS, dest)
    return dest
