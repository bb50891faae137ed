"""One external-harness run in a trial sandbox, recorded as ATIF (the AgentRun of harnesses).

    run = HarnessRun(harness, sandbox, stage, task, meta=..., model=..., max_turns=30,
                     timeout_s=600)
    result = await run.run()          # an AgentResult, like the built-in agent's

Steps: check the CLI is on the image's PATH (and read its version) without any credential
in the environment; run it once in /workspace as the agent user with `access` (the trial's
proxy token and the proxy's address: skillforge.harnesses.proxy) in that exec's
environment only; scrub the token from what it printed; import the JSON stream with the
harness's importer; put the task first (the streams do not repeat the prompt) and the run's
facts in `trajectory.extra`. When the proxy refuses a call past the turn limit it calls
`stop_at_limit()`, which kills the CLI; what it printed so far is kept and the run ends as
`max_turns`. Per-step progress is reported when the CLI has finished, since the stream is
read at the end. Never raises for a CLI or sandbox failure: that is an `error` result with
the reason; only a cancellation or a dead Docker daemon propagates.
"""

from __future__ import annotations

import asyncio
import io
import re
import tarfile
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sessions.atif import Agent, Step, Trajectory
from sessions.importers.base import ImportResult, TraceImportError
from skillforge.agent.loop import AgentResult, StepReport, StopReason, task_message
from skillforge.harnesses.base import HOME, Credentials, Harness, HarnessError, Outcome, redact
from skillforge.models.llm import Usage
from skillforge.providers.select import split_model
from skillforge.sandbox import WORKSPACE, ExecResult, Sandbox, SandboxError
from skillforge.models.stage import TrialStage

# The JSON stream is read whole at the end; a longer one keeps its head and tail.
MAX_STREAM_BYTES = 64 * 1024 * 1024
_VERSION = re.compile(r"\d+\.\d+[0-9A-Za-z.+-]*")
PREFLIGHT_TIMEOUT_S = 60
STDERR_TAIL_CHARS = 2000


def _now() -> str:
    return datetime.now(UTC).isoformat()


class HarnessRun:
    """One trial's harness run in one sandbox (same interface as skillforge.agent.loop.AgentRun)."""

    def __init__(self, harness: Harness, sandbox: Sandbox, stage: TrialStage, task: str, *,
                 access: Credentials, meta: dict[str, Any] | None = None,
                 model: str | None = None, max_turns: int = 30, timeout_s: float = 600,
                 on_step: Callable[[StepReport], None] | None = None) -> None:
        self.harness = harness
        self.access = access
        self.limit_reached = False
        self.session_files: dict[str, str] = {}
        self._stopper: asyncio.Task | None = None
        self.sandbox = sandbox
        self.stage = stage
        self.task = task_message(stage, task)
        self.meta = dict(meta or {})
        self.model = split_model(model)[1]
        self.max_turns = max_turns
        self.timeout_s = timeout_s
        self.on_step = on_step
        self.version: str | None = None
        self.facts: dict[str, Any] = {"name": harness.name, "binary": harness.binary,
                                      "skills_dir": harness.skills_dir}
        self.started = _now()

    async def run(self) -> AgentResult:
        """Run the CLI to its end (or the timeout); see the module docstring."""
        t0 = time.monotonic()
        creds = self.access
        try:
            await self._preflight()
            argv = self.harness.argv(self.task, self.model, self.max_turns, creds)
            self.facts["argv"] = [("<task>" if a == self.task or a == f" {self.task}" else a)
                                  for a in argv]
            budget = max(1.0, self.timeout_s - (time.monotonic() - t0))
            done = await self.sandbox.exec(argv, timeout_s=budget,
                                           env=self.harness.exec_env(creds), workdir=WORKSPACE,
                                           max_output=MAX_STREAM_BYTES)
        except HarnessError as exc:
            return self.partial("error", str(exc))
        except SandboxError as exc:
            return self.partial("error", f"the sandbox stopped working: {exc}")
        # The token may be in what the CLI printed (an agent running `env`): never keep it.
        stdout = redact(done.stdout, creds.secrets)
        stderr = redact(done.stderr, creds.secrets)
        await self._read_sessions()
        # Reading a long stream takes a while: off the event loop, other trials go on.
        imported, problem = await asyncio.to_thread(self._import, stdout)
        return self._finish(done, stderr, imported, problem)

    async def _read_sessions(self) -> None:
        """The CLI's own session logs (`session_files`: path under its folder -> text), and
        the facts of the main one as imported, in `facts["session_log"]`."""
        folder = self.harness.session_dir
        if folder is None:
            return
        try:
            tar_bytes = await self.sandbox.copy_out(f"{HOME}/{folder}",
                                                    max_bytes=MAX_STREAM_BYTES)
        except SandboxError:
            return
        with tarfile.open(fileobj=io.BytesIO(tar_bytes)) as tar:
            for member in tar:
                fh = tar.extractfile(member) if member.isfile() else None
                if fh is not None and member.name.endswith(".jsonl"):
                    name = member.name.split("/", 1)[-1]
                    text = fh.read().decode("utf-8", errors="replace")
                    self.session_files[name] = redact(text, self.access.secrets)
        main = sorted((n for n in self.session_files if "/subagents/" not in n),
                      key=lambda n: len(self.session_files[n]))
        if main:
            self.facts["session_log"] = await asyncio.to_thread(self._session_facts, main[-1])

    def _session_facts(self, name: str) -> dict[str, Any]:
        imported, problem = self._import(self.session_files[name])
        facts: dict[str, Any] = {"file": name, "files": sorted(self.session_files)}
        if imported is None:
            return {**facts, "problem": problem}
        fm = imported.trajectory.final_metrics
        return {**facts, "steps": len(imported.trajectory.steps),
                "tokens_in": fm.total_prompt_tokens if fm else None,
                "tokens_out": fm.total_completion_tokens if fm else None,
                "cost_usd": fm.total_cost_usd if fm else None,
                "warnings": imported.warnings[:10]}

    def stop_at_limit(self) -> None:
        """The proxy refused a model call past the turn limit: end the CLI now (every process
        of the agent's uid: subagents and background tasks too), keep what it printed."""
        if self.limit_reached:
            return
        self.limit_reached = True
        self._stopper = asyncio.get_running_loop().create_task(
            self.sandbox.kill_user_processes())

    async def _preflight(self) -> None:
        """Is the CLI on the PATH? Its version, for the record. No key is given here."""
        binary = self.harness.binary
        check = await self.sandbox.exec(
            ["sh", "-c", f'command -v {binary} && {binary} --version 2>&1 | head -n 1'],
            timeout_s=PREFLIGHT_TIMEOUT_S, env={"HOME": HOME}, workdir=WORKSPACE)
        lines = check.stdout.strip().splitlines()
        if check.exit_code != 0 or not lines:
            raise HarnessError(
                f"the trial image {self.sandbox.spec.image!r} has no `{binary}` on the PATH "
                f"of uid 1000; {self.harness.install_hint}")
        self.facts["path"] = lines[0]
        shown = lines[1].strip()[:120] if len(lines) > 1 else ""
        self.facts["version_output"] = shown or None
        # "2.0.64 (Claude Code)", "codex-cli 0.128.0": the version number itself
        found = _VERSION.search(shown)
        self.version = found.group(0) if found else (shown or None)

    def _import(self, stdout: str) -> tuple[ImportResult | None, str | None]:
        """The stream through the harness's importer (which reads files): (result, problem)."""
        if not stdout.strip():
            return None, None
        with tempfile.TemporaryDirectory(prefix="skillforge-harness-") as tmp:
            path = Path(tmp) / "stream.jsonl"
            path.write_text(stdout, "utf-8")
            try:
                return self.harness.import_stream(path), None
            except TraceImportError as exc:
                return None, str(exc).replace(str(path), "the stream")

    def _finish(self, done: ExecResult, stderr: str, imported: ImportResult | None,
                problem: str | None) -> AgentResult:
        self.facts.update({
            "exit_code": done.exit_code, "timed_out": done.timed_out,
            "stream_bytes": done.stdout_bytes, "stream_truncated": done.truncated,
            "stderr_tail": stderr[-STDERR_TAIL_CHARS:] or None, "version": self.version,
        })
        if imported is not None:
            self.facts["import"] = {"skipped": imported.skipped.reasons,
                                    "warnings": imported.warnings[:20],
                                    "ignored": imported.ignored}
        outcome = self.harness.outcome(imported, done)
        if self.limit_reached and outcome.stop != "timeout":
            outcome = Outcome("max_turns")  # stopped by skillforge at the limit, not a crash
        error = outcome.error
        if imported is None and outcome.stop == "final_answer":
            error = problem or f"{self.harness.binary} printed no JSON stream"
            return self._result("error", error, None)
        if problem:
            error = f"{error}; {problem}" if error else problem
        return self._result(outcome.stop, error, imported)  # type: ignore[arg-type]

    def _result(self, stop: StopReason, error: str | None,
                imported: ImportResult | None) -> AgentResult:
        traj = self._trajectory(stop, error, imported)
        agent_steps = [s for s in traj.steps if s.source == "agent"
                       and not (s.extra or {}).get("usage_only")]
        calls = sum(len(s.tool_calls or []) for s in traj.steps)
        fm = traj.final_metrics
        usage = Usage(input_tokens=(fm.total_prompt_tokens or 0) if fm else 0,
                      output_tokens=(fm.total_completion_tokens or 0) if fm else 0,
                      cached_tokens=(fm.total_cached_tokens or 0) if fm else 0)
        cost = fm.total_cost_usd if fm else None
        self._report(agent_steps, usage, cost)
        final = next((s.message for s in reversed(agent_steps)
                      if isinstance(s.message, str) and s.message.strip()), None)
        return AgentResult(trajectory=traj, stop=stop, final_answer=final,
                           turns=len(agent_steps), tool_calls=calls, usage=usage,
                           cost_usd=cost, error=error)

    def _trajectory(self, stop: str, error: str | None,
                    imported: ImportResult | None) -> Trajectory:
        """The imported trajectory with the task as its first user step, and the run's facts."""
        task = Step(step_id=1, timestamp=self.started, source="user", message=self.task)
        steps: list[Step] = [task]
        base: Trajectory | None = imported.trajectory if imported else None
        for step in base.steps if base else []:
            if step.source == "user" and step.message == self.task and len(steps) == 1:
                continue  # a stream that does repeat the prompt
            steps.append(step.model_copy(update={"step_id": len(steps) + 1}))
        agent = base.agent if base else Agent(name=self.harness.name, version="unknown")
        agent = agent.model_copy(update={
            "version": agent.version if agent.version != "unknown" else (self.version or
                                                                        "unknown"),
            "model_name": agent.model_name or self.model})
        calls = sum(len(s.tool_calls or []) for s in steps)
        turns = sum(1 for s in steps if s.source == "agent"
                    and not (s.extra or {}).get("usage_only"))
        extra: dict[str, Any] = {**((base.extra or {}) if base else {}), **self.meta,
                                 "stop_reason": stop, "turns": turns, "tool_calls": calls,
                                 "harness": self.facts,
                                 "visible_skills": [s.name for s in self.stage.skills]}
        if error:
            extra["error"] = error
        fm = base.final_metrics if base else None
        if fm is not None:
            fm = fm.model_copy(update={"total_steps": len(steps)})
        return Trajectory(session_id=(base.session_id if base else None) or uuid.uuid4().hex,
                          agent=agent, steps=steps, final_metrics=fm, extra=extra)

    def _report(self, agent_steps: list[Step], usage: Usage, cost: float | None) -> None:
        if self.on_step is None:
            return
        calls = 0
        for turn, step in enumerate(agent_steps, start=1):
            calls += len(step.tool_calls or [])
            last = turn == len(agent_steps)
            self.on_step(StepReport(turn=turn, step=step, usage=usage if last else Usage(),
                                    cost_usd=cost if last else None, tool_calls=calls))

    def partial(self, stop: StopReason, error: str | None = None) -> AgentResult:
        """The result before the CLI's stream could be read (cancelled, refused, failed)."""
        traj = self._trajectory(stop, error, None)
        return AgentResult(trajectory=traj, stop=stop, final_answer=None, turns=0,
                           tool_calls=0, usage=Usage(), cost_usd=None, error=error)
