"""The built-in agent: a tool-calling loop over any `ModelClient`, recorded as ATIF.

The loop runs here, in skillforge; only tool commands run in the sandbox, so no API key ever
reaches a container (CONTRACTS.md section 6, DESIGN.md security model). The system prompt
lists the visible skills (name, description, path of SKILL.md) and nothing more: in the
baseline condition the target skill is not among them, so the prompt holds no trace of it.

    run = AgentRun(client, sandbox, stage, task, meta=..., max_turns=30, timeout_s=600)
    result = await run.run()          # AgentResult: trajectory, stop reason, totals

The run ends when the model answers without a tool call (`final_answer`), after
`max_turns` model turns (`max_turns`), at the timeout (`timeout`), when the provider fails
for good or the sandbox stops working (`error`). Cancelled from outside, `run.partial()`
still gives the trajectory recorded so far.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal
from xml.sax.saxutils import escape

from sessions.atif import (
    Agent,
    FinalMetrics,
    Metrics,
    Observation,
    ObservationResult,
    Step,
    Trajectory,
)
from sessions.atif import ToolCall as AtifToolCall
from skillforge import __version__
from skillforge.agent.skill_mode import SkillSession, prompt_section
from skillforge.agent.tools import TOOLS, SandboxLost, ToolOutcome, run_tool
from skillforge.models.skill_mode import SKILL_TOOLS
from skillforge.models.llm import (
    Completion,
    Message,
    ModelClient,
    ProviderError,
    StructuredOutputError,
    ToolResult,
    Usage,
    UserMessage,
)
from skillforge.sandbox import WORKSPACE, Sandbox, SandboxError
from skillforge.models.stage import TrialStage, VisibleSkill
from skillforge.models.trial import PROVIDER_FAILED, ErrorCause

AGENT_NAME = "skillforge-builtin"
# A provider's refusal of the request itself (bad request, payload too large), as opposed
# to the provider failing: the conversation the run built is at fault.
REFUSED_STATUS = (400, 413, 422)
StopReason = Literal["final_answer", "max_turns", "timeout", "error", "cancelled"]


def _now() -> str:
    return datetime.now(UTC).isoformat()


def skills_block(skills: Sequence[VisibleSkill]) -> str:
    """The <available_skills> list: name, description and SKILL.md path of each skill."""
    items = [
        "<skill>\n"
        f"<name>{escape(s.name)}</name>\n"
        f"<description>{escape(s.description)}</description>\n"
        f"<location>{escape(s.path)}</location>\n"
        "</skill>"
        for s in skills
    ]
    return "<available_skills>\n" + "\n".join(items) + "\n</available_skills>"


def system_prompt(stage: TrialStage) -> str:
    """The agent's system prompt for one staged trial (only what the stage makes visible)."""
    files = [f.rsplit("/", 1)[-1] for f in stage.workspace_files]
    where = f"Your working directory is {WORKSPACE}"
    where += f"; the task's files are there ({', '.join(files)})." if files else "."
    parts = [
        "You are working on a task in a Linux container. " + where + " Use the tools "
        "(bash, read_file, write_file) to look at files, run commands and write results; "
        "they run inside the container, which has no internet access unless the task says "
        "otherwise. When the task is done, reply with your final answer as plain text, "
        "without calling a tool."
    ]
    if stage.skills:
        parts.append(
            "Skills are installed: folders of instructions and scripts for particular kinds "
            "of tasks. Each is listed with its name, what it is for, and where its SKILL.md "
            "is. When a task matches a skill's description, read that SKILL.md first and "
            "follow it; ignore skills that do not apply.\n\n" + skills_block(stage.skills)
        )
    if stage.skill_mode is not None:
        parts.append(prompt_section(stage.skill_mode))
    return "\n\n".join(parts)


def task_message(stage: TrialStage, prompt: str) -> str:
    """The first user message: the task, after the condition's instruction if it has one."""
    if stage.instruction:
        return f"{stage.instruction}\n\nThe task:\n{prompt}"
    return prompt


@dataclass
class StepReport:
    """What the loop tells its caller after each agent step (for live progress)."""

    turn: int
    step: Step
    usage: Usage
    cost_usd: float | None
    tool_calls: int


@dataclass
class AgentResult:
    trajectory: Trajectory
    stop: StopReason
    final_answer: str | None
    turns: int
    tool_calls: int
    usage: Usage
    cost_usd: float | None
    error: str | None = None
    # With stop `error`: its cause when known here (skillforge.models.trial.ErrorCause).
    cause: ErrorCause | None = None


@dataclass
class _Recorder:
    """Collects ATIF steps as the loop runs (kept outside the loop so cancellation keeps them)."""

    model_name: str
    steps: list[Step] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = None
    turns: int = 0
    tool_calls: int = 0
    final_answer: str | None = None

    def add(self, source: str, message: str, **fields: Any) -> Step:
        step = Step(step_id=len(self.steps) + 1, timestamp=_now(), source=source,
                    message=message, **fields)
        self.steps.append(step)
        return step

    def agent_step(self, done: Completion, outcomes: list[tuple[Any, ToolOutcome]]) -> Step:
        self.turns += 1
        self.usage = self.usage + done.usage
        if done.cost_usd is not None:
            self.cost_usd = (self.cost_usd or 0.0) + done.cost_usd
        calls = [AtifToolCall(tool_call_id=c.id, function_name=c.name,
                              arguments=dict(c.arguments),
                              extra={"raw_arguments": c.raw_arguments}
                              if c.raw_arguments is not None else None)
                 for c, _ in outcomes]
        self.tool_calls += len(calls)
        results = [ObservationResult(source_call_id=c.id, content=o.content, extra=o.extra)
                   for c, o in outcomes]
        u = done.usage
        # Anthropic bills cache writes apart; ATIF has no field for them.
        write = {"cache_write_tokens": u.cache_write_tokens} if u.cache_write_tokens else None
        return self.add(
            "agent", done.text, model_name=done.model or self.model_name,
            reasoning_content=done.reasoning or None,
            tool_calls=calls or None,
            observation=Observation(results=results) if results else None,
            metrics=Metrics(prompt_tokens=u.input_tokens, completion_tokens=u.output_tokens,
                            cached_tokens=u.cached_tokens, cost_usd=done.cost_usd,
                            extra=write),
            extra={"stop_reason": done.stop_reason},
        )


class AgentRun:
    """One trial's agent loop in one sandbox."""

    def __init__(self, client: ModelClient, sandbox: Sandbox, stage: TrialStage, task: str, *,
                 meta: dict[str, Any] | None = None, max_turns: int = 30,
                 timeout_s: float = 600, max_tokens: int | None = None,
                 on_step: Callable[[StepReport], None] | None = None,
                 skills: SkillSession | None = None) -> None:
        self.client = client
        # Skill Mode (the `skill_mode` condition): the skill tools and their cache.
        self.skills = skills
        self.tools = (*TOOLS, *skills.tools) if skills is not None else TOOLS
        self.sandbox = sandbox
        self.stage = stage
        self.task = task
        self.meta = dict(meta or {})
        self.max_turns = max_turns
        self.timeout_s = timeout_s
        self.max_tokens = max_tokens
        self.on_step = on_step
        self.system = system_prompt(stage)
        self.session_id = uuid.uuid4().hex
        self.rec = _Recorder(model_name=getattr(client, "model", "unknown"))
        self._deadline = 0.0
        self._pending: tuple[Completion, list[tuple[Any, ToolOutcome]]] | None = None

    def _budget(self) -> float:
        return max(0.0, self._deadline - time.monotonic())

    async def run(self) -> AgentResult:
        """Run the loop to its end; never raises for model, tool or sandbox failures."""
        self._deadline = time.monotonic() + self.timeout_s
        first = task_message(self.stage, self.task)
        self.rec.add("system", self.system)
        self.rec.add("user", first)
        conv: list[Message] = [UserMessage(content=first)]
        try:
            async with asyncio.timeout(self.timeout_s):
                if self.skills is not None:
                    try:
                        await self.skills.upload(self.sandbox)
                    except (SandboxLost, SandboxError) as exc:
                        return self.partial("error", f"the skill cache could not be "
                                                     f"written to the sandbox: {exc}")
                return await self._loop(conv)
        except TimeoutError:
            return self.partial("timeout", f"the agent did not finish within "
                                           f"{self.timeout_s:g} s (the trial timeout)")

    async def _loop(self, conv: list[Message]) -> AgentResult:
        while True:
            if self.rec.turns >= self.max_turns:
                return self.partial("max_turns", None)
            try:
                done = await self.client.complete(conv, system=self.system, tools=list(self.tools),
                                                  max_tokens=self.max_tokens)
            except (ProviderError, StructuredOutputError) as exc:
                result = self.partial("error", f"{PROVIDER_FAILED}: {exc}")
                # The provider down or unreachable is infrastructure; a refusal of the
                # conversation this run built (it outgrew the context: HTTP 400/413) or an
                # unusable answer is the run's own failure.
                refused = not isinstance(exc, ProviderError) or exc.status in REFUSED_STATUS
                result.cause = "run" if refused else "infrastructure"
                return result
            conv.append(done.message())
            if not done.tool_calls:
                self.rec.final_answer = done.text
                self._report(self.rec.agent_step(done, []))
                return self.partial("final_answer", None)
            outcomes: list[tuple[Any, ToolOutcome]] = []
            # Until the step is recorded, a timeout or cancellation records it (partial()).
            self._pending = (done, outcomes)
            lost: str | None = None
            for call in done.tool_calls:
                if lost is None:
                    try:
                        outcome = await self._tool(call)
                    except (SandboxLost, SandboxError) as exc:
                        lost = str(exc)
                        outcome = ToolOutcome(f"Error: the sandbox stopped: {exc}",
                                              is_error=True, extra={"is_error": True})
                else:
                    outcome = ToolOutcome("Error: not run, the sandbox had stopped",
                                          is_error=True, extra={"is_error": True})
                outcomes.append((call, outcome))
                conv.append(ToolResult(tool_call_id=call.id, name=call.name,
                                       content=outcome.content, is_error=outcome.is_error))
            self._pending = None
            self._report(self.rec.agent_step(done, outcomes))
            if lost is not None:
                return self.partial("error", f"the sandbox stopped working: {lost}")

    async def _tool(self, call: Any) -> ToolOutcome:
        # In static reuse save_skill is not offered; a call anyway is refused as `static`.
        if self.skills is not None and call.name in SKILL_TOOLS and call.raw_arguments is None:
            outcome = await self.skills.run(self.sandbox, call, self._budget())
            outcome.extra["is_error"] = outcome.is_error
            return outcome
        return await run_tool(self.sandbox, call, self._budget())

    def _report(self, step: Step) -> None:
        if self.on_step is not None:
            self.on_step(StepReport(turn=self.rec.turns, step=step, usage=self.rec.usage,
                                    cost_usd=self.rec.cost_usd,
                                    tool_calls=self.rec.tool_calls))

    def trajectory(self, stop: StopReason, error: str | None = None) -> Trajectory:
        """The ATIF trajectory of what happened so far, closed with `stop`."""
        rec = self.rec
        extra = {**self.meta, "stop_reason": stop, "turns": rec.turns,
                 "tool_calls": rec.tool_calls}
        if error:
            extra["error"] = error
        return Trajectory(
            session_id=self.session_id,
            agent=Agent(name=AGENT_NAME, version=__version__, model_name=rec.model_name,
                        tool_definitions=[t.model_dump() for t in self.tools]),
            steps=list(rec.steps),
            final_metrics=FinalMetrics(
                total_prompt_tokens=rec.usage.input_tokens,
                total_completion_tokens=rec.usage.output_tokens,
                total_cached_tokens=rec.usage.cached_tokens,
                total_cost_usd=round(rec.cost_usd, 6) if rec.cost_usd is not None else None,
                total_steps=len(rec.steps),
            ),
            extra=extra,
        )

    def partial(self, stop: StopReason, error: str | None = None) -> AgentResult:
        """The result as it stands (also after a cancellation from outside)."""
        if not self.rec.steps:
            # Cancelled before the loop started: a trajectory needs at least one step.
            self.rec.add("system", self.system)
        if self._pending is not None:
            # Stopped while tools ran: keep the turn, with the unfinished calls marked.
            done, outcomes = self._pending
            self._pending = None
            why = {"timeout": "the trial timed out", "cancelled": "the trial was cancelled"}
            for call in done.tool_calls[len(outcomes):]:
                outcomes.append((call, ToolOutcome(
                    f"Error: not finished: {why.get(stop, stop)}", is_error=True,
                    extra={"is_error": True, "interrupted": True})))
            self.rec.agent_step(done, outcomes)
        rec = self.rec
        return AgentResult(trajectory=self.trajectory(stop, error), stop=stop,
                           final_answer=rec.final_answer, turns=rec.turns,
                           tool_calls=rec.tool_calls, usage=rec.usage, cost_usd=rec.cost_usd,
                           error=error)
