"""SkillCraft's Skill Mode for the built-in agent: four skill tools over a cache in the sandbox.

In the `skill_mode` condition the agent also gets `save_skill(name, script_code,
parameters, description)`, `execute_skill(name, args)`, `list_skills()` and
`get_skill(name)` (static-reuse mode: no `save_skill`). A `SkillSession` holds the trial's
`SkillCache`: it writes it to SKILL_CACHE_PATH in the sandbox when the agent starts and
after every change, runs skills there through `skillforge.agent.skill_runner` (never on
the host), applies the Coding Verifier (`skillforge.agent.skill_verifier`) and records a
`SkillEvent` per call. The session's cache is the one of record: `read_back` compares the
sandbox's file with it, so a cache edited by hand (bash) is noticed, not trusted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from skillforge.agent.output_cap import cap_output
from skillforge.agent.skill_runner import MARKER as RUNNER_MARKER
from skillforge.agent.skill_verifier import (
    SkillInputError,
    check_args,
    check_name,
    check_parameters,
    parse_runner_output,
    quality_problems,
    syntax_problem,
)
from skillforge.agent.tools import (
    DEFAULT_BASH_TIMEOUT_S,
    MAX_BASH_TIMEOUT_S,
    MAX_RESULT_CHARS,
    SandboxLost,
    ToolOutcome,
)
from skillforge.models.llm import ToolCall, ToolSpec
from skillforge.models.skill_mode import (
    CacheMode,
    CachedSkill,
    SkillCache,
    SkillEvent,
    SkillOrigin,
    SkillStats,
)
from skillforge.models.stage import SkillModeStage, SkillSummary
from skillforge.sandbox import Sandbox, SandboxError
from skillforge.sandbox.archive import tar_from_mapping

HOME = "/home/agent"
SKILL_CACHE_DIR = f"{HOME}/.skill_cache"
SKILL_CACHE_PATH = f"{SKILL_CACHE_DIR}/skill_cache.json"
RUNNER_SOURCE = (Path(__file__).parent / "skill_runner.py").read_text(encoding="utf-8")
# sh finds python3 first, so a missing interpreter is exit 127 with our own message.
_LAUNCH = ('command -v python3 >/dev/null 2>&1 || { echo "python3 not found" >&2; exit 127; }; '
           'exec python3 -c "$0" "$@"')
NO_PYTHON = ("Error: execute_skill needs python3 in the trial image and this image has none; "
             "solve the task with bash, or run the trial with an image that has python3 "
             "(for example python:3.12-slim)")

SAVE_SKILL = ToolSpec(
    name="save_skill",
    description=(
        "Save a reusable Python skill to your skill cache (it stays for later tasks). The "
        "script reads its inputs from the dict `args`, reaches tools with "
        "call_tool(name, **kwargs) and must set a variable `result` (best a dict). It is "
        "checked before it is saved: a syntax error is returned with its line."
    ),
    parameters={
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Skill name: letters, digits, _ or -."},
            "script_code": {"type": "string", "description": "The Python script."},
            "parameters": {"type": "object", "description": "Each key of `args` the script "
                           "reads, with a short description."},
            "description": {"type": "string", "description": "What the skill does and when "
                            "to use it."},
        },
        "required": ["name", "script_code", "description"],
    },
)
EXECUTE_SKILL = ToolSpec(
    name="execute_skill",
    description=(
        "Run a saved skill in the container with `args` and return its `result`. Failures "
        "come back with the exception, traceback and the arguments given; a result whose "
        "fields are mostly empty, None, 'Unknown' or 0 is reported as a failure."
    ),
    parameters={
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "The skill to run."},
            "args": {"type": "object", "description": "The skill's inputs."},
            "timeout": {"type": "integer", "description": "Seconds before it is killed "
                        f"(default {DEFAULT_BASH_TIMEOUT_S}, at most {MAX_BASH_TIMEOUT_S})."},
        },
        "required": ["name"],
    },
)
LIST_SKILLS = ToolSpec(
    name="list_skills",
    description="List the skills in your cache: name, description, parameters, runs.",
    parameters={"type": "object", "properties": {}},
)
GET_SKILL = ToolSpec(
    name="get_skill",
    description="Show one cached skill: its description, parameters and script code.",
    parameters={"type": "object", "properties": {"name": {"type": "string"}},
                "required": ["name"]},
)


def skill_tools(mode: CacheMode) -> tuple[ToolSpec, ...]:
    """The skill tools offered in a mode (static reuse: no save_skill)."""
    tools = (EXECUTE_SKILL, LIST_SKILLS, GET_SKILL)
    return tools if mode == "static" else (SAVE_SKILL, *tools)


_HOW = (
    "How to write a skill: a Python 3 script. Its inputs are in the dict `args` (the keys "
    "you declare as `parameters`). Reach the container's tools through "
    "call_tool(name, **kwargs): call_tool(\"bash\", command=\"...\", timeout=60) returns a "
    "dict {\"exit_code\", \"stdout\", \"stderr\"}; call_tool(\"read_file\", path=\"...\") "
    "returns the file's text; call_tool(\"write_file\", path=\"...\", content=\"...\") "
    "writes a file. Relative paths are under /workspace. Set a variable `result` to what the "
    "skill found, best a dict of named values. For example:\n"
    "    text = call_tool(\"read_file\", path=args[\"path\"])\n"
    "    rows = [line.split(\",\") for line in text.splitlines()[1:] if line]\n"
    "    result = {\"rows\": len(rows), \"first\": rows[0] if rows else None}\n"
    "A skill is checked before it is saved (it must compile) and after each run: an "
    "exception, no `result`, or a result whose fields are mostly empty, None, \"Unknown\", "
    "\"N/A\" or 0 counts as a failure, and you are told why."
)


def prompt_section(setup: SkillModeStage) -> str:
    """The system prompt's Skill Mode section (when and how to make skills; what is cached)."""
    if setup.mode == "static":
        head = ("Skill Mode (reuse only): you have a cache of code skills made on earlier "
                "tasks. list_skills, get_skill and execute_skill reach them; no new skills "
                "can be saved. When a skill fits the task, execute it rather than redoing its "
                "steps by hand.")
    else:
        head = (
            "Skill Mode: besides bash, read_file and write_file you can save code skills "
            "and run them: save_skill, execute_skill, list_skills, get_skill. Skills stay "
            "in your cache for the tasks that come after this one. When to make a skill: "
            "when the task has recurring structure (the same steps on other files, columns "
            "or inputs), or needs a sequence of several tool calls you would repeat; save it, "
            "then run it with execute_skill. First check the skills already cached: reusing "
            "one that fits is cheaper than solving the task again.\n\n" + _HOW)
    if not setup.skills:
        return head + "\n\nYour skill cache is empty."
    where = f" (inherited from run {setup.inherited_from})" if setup.inherited_from else ""
    items = "\n".join(
        f"- {s.name}: {s.description or '(no description)'}; parameters: "
        f"{json.dumps(s.parameters, ensure_ascii=False) if s.parameters else 'none'}"
        for s in setup.skills)
    return f"{head}\n\nSkills in your cache{where}:\n{items}"


def stage_info(cache: SkillCache, mode: CacheMode, inherited_from: str | None) -> SkillModeStage:
    """What the trial's stage says about Skill Mode (the prompt lists these skills)."""
    return SkillModeStage(mode=mode, inherited_from=inherited_from, skills=[
        SkillSummary(name=s.name, description=s.description, parameters=s.parameters)
        for s in cache.skills.values()])


class SkillSession:
    """One trial's skill cache and the calls of its skill tools (see the module docstring)."""

    def __init__(self, cache: SkillCache, mode: CacheMode = "grow",
                 origin: SkillOrigin | None = None) -> None:
        self.cache = cache.model_copy(deep=True)
        self.mode = mode
        self.origin = origin
        self.events: list[SkillEvent] = []

    @property
    def tools(self) -> tuple[ToolSpec, ...]:
        return skill_tools(self.mode)

    async def upload(self, sandbox: Sandbox) -> None:
        """Write the cache to SKILL_CACHE_PATH in the sandbox (owned by the agent user)."""
        text = self.cache.model_dump_json(indent=2)
        rel = SKILL_CACHE_PATH[len(HOME) + 1:]
        try:
            await sandbox.put_archive(tar_from_mapping({rel: text}, base=HOME), HOME)
        except SandboxError as exc:
            raise SandboxLost(str(exc)) from exc

    async def read_back(self, sandbox: Sandbox) -> str | None:
        """None when the sandbox's skill_cache.json matches the session's, else what differs."""
        try:
            data = await sandbox.get_file(SKILL_CACHE_PATH)
            found = SkillCache.model_validate_json(data)
        except SandboxError as exc:
            return f"{SKILL_CACHE_PATH} could not be read back: {exc}"
        except ValueError as exc:
            return f"{SKILL_CACHE_PATH} was changed outside the skill tools ({exc})"
        if found != self.cache:
            return (f"{SKILL_CACHE_PATH} was changed outside the skill tools; the stored "
                    "cache is what the skill tools saved")
        return None

    async def run(self, sandbox: Sandbox, call: ToolCall, budget_s: float) -> ToolOutcome:
        """Run one skill tool call; the outcome's extra holds its SkillEvent."""
        args = dict(call.arguments)
        event = SkillEvent(tool=call.name, name=args.get("name") if isinstance(
            args.get("name"), str) else None)  # type: ignore[arg-type]
        try:
            if call.name == "save_skill":
                text = await self._save(sandbox, args, event)
            elif call.name == "execute_skill":
                text = await self._execute(sandbox, args, event, budget_s)
            elif call.name == "list_skills":
                text = self._list()
            else:
                text = self._get(args, event)
        except SkillInputError as exc:
            event.ok, event.failure, event.detail = False, event.failure or "invalid", str(exc)
            text = f"Error: {call.name}: {exc}"
        if not event.ok and event.detail is None:
            event.detail = text
        self.events.append(event)
        return ToolOutcome(cap_output(text, MAX_RESULT_CHARS), is_error=not event.ok,
                           extra={"skill_mode": event.model_dump(mode="json",
                                                                 exclude_none=True)})

    # --- the four tools ------------------------------------------------------------------
    async def _save(self, sandbox: Sandbox, args: dict[str, Any], event: SkillEvent) -> str:
        if self.mode == "static":
            event.failure = "static"
            raise SkillInputError("this session reuses an inherited cache (static reuse): no "
                                  "new skills can be saved; use execute_skill with a cached "
                                  "skill (list_skills shows them) or solve the task directly")
        name = check_name(args.get("name"))
        code = args.get("script_code")
        if not isinstance(code, str) or not code.strip():
            raise SkillInputError("`script_code` is required: the Python script of the skill")
        params = check_parameters(args.get("parameters"))
        problem = syntax_problem(code, name)
        if problem is not None:
            event.ok, event.failure, event.detail = False, "syntax", problem
            return (f"Error: save_skill rejected {name}: the script does not compile.\n"
                    f"{problem}\nFix it and call save_skill again.")
        replaced = name in self.cache.skills
        self.cache.skills[name] = CachedSkill(
            name=name, description=str(args.get("description") or ""), parameters=params,
            script_code=code, execution_stats=SkillStats(), created_by=self.origin)
        await self.upload(sandbox)
        verb = "replaced" if replaced else "saved"
        return (f"{verb} skill {name} (parameters: {', '.join(params) or 'none'}); run it "
                f"with execute_skill(name=\"{name}\", args={{...}})")

    async def _execute(self, sandbox: Sandbox, args: dict[str, Any], event: SkillEvent,
                       budget_s: float) -> str:
        name = check_name(args.get("name"))
        skill_args = check_args(args.get("args"))
        event.args = skill_args
        skill = self.cache.skills.get(name)
        if skill is None:
            event.failure = "unknown_skill"
            raise SkillInputError(self._unknown(name))
        timeout = _timeout(args.get("timeout"))
        limit = max(0.5, min(float(timeout), budget_s))
        try:
            res = await sandbox.exec(
                ["sh", "-c", _LAUNCH, RUNNER_SOURCE, SKILL_CACHE_PATH, name,
                 json.dumps(skill_args), f"{limit:g}"],
                timeout_s=limit + 2, max_output=128 * 1024)
        except SandboxError as exc:
            raise SandboxLost(str(exc)) from exc
        given = f"Arguments given: {json.dumps(skill_args, ensure_ascii=False)}"
        if res.exit_code == 127 and "python3 not found" in res.stderr:
            event.ok, event.failure = False, "exception"
            return NO_PYTHON
        out = None if res.timed_out else parse_runner_output(res.stdout, RUNNER_MARKER)
        skill.execution_stats.runs += 1
        text = self._judge(name, res, out, event, limit, given)
        if not event.ok:
            skill.execution_stats.failures += 1
        await self.upload(sandbox)
        return text

    def _judge(self, name: str, res: Any, out: Any, event: SkillEvent, limit: float,
               given: str) -> str:
        """The verifier's verdict on one execution, as the text the agent reads."""
        head = f"Error: execute_skill {name} failed"
        if res.timed_out:
            event.ok, event.failure = False, "timeout"
            return f"{head} (timeout): it ran longer than {limit:g} s and was killed.\n{given}"
        if out is None:
            event.ok, event.failure = False, "exception"
            tail = (res.stderr or res.stdout).strip()[-2000:]
            return f"{head}: the skill runner gave no result (exit code {res.exit_code}).\n" \
                   f"{tail}\n{given}"
        printed = f"\nPrinted output:\n{out.stdout.rstrip()}" if out.stdout.strip() else ""
        if not out.ok:
            event.ok, event.failure = False, "exception"
            return f"{head} (exception): {out.error}\n{out.traceback or ''}\n{given}{printed}"
        if not out.has_result:
            event.ok, event.failure = False, "no_result"
            return (f"{head} (no result): the script finished without setting `result`; "
                    f"assign what it found to a variable named result.\n{given}{printed}")
        shown = json.dumps(out.result, ensure_ascii=False, indent=1)
        bad = [] if out.truncated else quality_problems(out.result)
        if bad:
            event.ok, event.failure = False, "quality"
            return (f"{head} (quality check): the result looks like a silent failure: "
                    f"{', '.join(bad[:20])} empty, None, Unknown/N/A or 0. Check the inputs "
                    f"and the script (get_skill shows it).\nresult: {shown}\n{given}{printed}")
        return f"execute_skill {name}: ok\nresult: {shown}{printed}"

    def _list(self) -> str:
        if not self.cache.skills:
            return "The skill cache is empty." + (
                "" if self.mode == "static" else " Save one with save_skill.")
        lines = []
        for s in self.cache.skills.values():
            st = s.execution_stats
            lines.append(f"- {s.name}: {s.description or '(no description)'}; parameters: "
                         f"{', '.join(s.parameters) or 'none'}; runs {st.runs}, "
                         f"failures {st.failures}")
        return "\n".join(lines)

    def _get(self, args: dict[str, Any], event: SkillEvent) -> str:
        name = check_name(args.get("name"))
        skill = self.cache.skills.get(name)
        if skill is None:
            event.failure = "unknown_skill"
            raise SkillInputError(self._unknown(name))
        return json.dumps({"name": skill.name, "description": skill.description,
                           "parameters": skill.parameters,
                           "execution_stats": skill.execution_stats.model_dump(),
                           "script_code": skill.script_code}, ensure_ascii=False, indent=1)

    def _unknown(self, name: str) -> str:
        known = ", ".join(self.cache.skills) or "none yet"
        return f"no skill named {name!r} in the cache (cached: {known})"


def _timeout(value: Any) -> int:
    if value is None or value == "":
        return DEFAULT_BASH_TIMEOUT_S
    try:
        return max(1, min(MAX_BASH_TIMEOUT_S, int(float(value))))
    except (TypeError, ValueError):
        raise SkillInputError(f"`timeout` must be a whole number, got {value!r}") from None
