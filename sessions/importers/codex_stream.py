"""The event stream `codex exec --json` prints, read into the Codex importer's trajectory.

Lines carry no `payload`: `thread.started`, `turn.started`, `item.started` /
`item.updated` / `item.completed` (agent_message, reasoning, command_execution,
file_change, mcp_tool_call, web_search, todo_list, collab_tool_call, error) and
`turn.completed` (the turn's usage) or `turn.failed`. A command becomes an `exec_command`
call whose result is its output and exit code; a turn's usage goes to its last agent step.
The stream names no model and does not repeat the prompt.
"""

from __future__ import annotations

import shlex
from typing import Any

from sessions.atif import FinalMetrics, Metrics
from sessions.importers.base import Notes, StepDraft, TrajectoryBuilder, as_int, as_text

EXEC_TYPES = {"thread.started", "turn.started", "turn.completed", "turn.failed",
              "item.started", "item.updated", "item.completed", "item.plan.delta",
              "request_user_input", "error"}
_WRAPPERS = {"bash", "sh", "zsh", "dash"}


class ExecStreamReader:
    """The `codex exec --json` half of the Codex importer (`sessions.importers.codex`).

    A base class, not a reader of its own: one file may mix stream events with rollout
    lines, so both halves build the same trajectory and share the builder, the notes, the
    session meta, the model and the agent step being built, which the importer owns.
    """

    b: TrajectoryBuilder
    notes: Notes
    meta: dict[str, Any]
    model: str | None
    current: StepDraft | None

    def init_exec_state(self) -> None:
        """Start with no items, no usage and no errors seen."""
        self.items: dict[str, Any] = {}  # item id -> its type, once its call is recorded
        self.exec_usage: dict[str, int] | None = None  # usage totals over the turns
        self.errors: list[str] = []  # what turn.failed and error events said

    def agent_step(self, ts: str | None, line: int, fresh: bool = False) -> StepDraft:
        """The agent step being built (the importer's; see `_Importer.agent_step`)."""
        raise NotImplementedError

    def exec_final_metrics(self) -> FinalMetrics | None:
        """The stream's token totals over all turns, or None when it reported none."""
        if self.exec_usage is None:
            return None
        u = self.exec_usage
        return FinalMetrics(total_prompt_tokens=u["input_tokens"],
                            total_completion_tokens=u["output_tokens"],
                            total_cached_tokens=u["cached_input_tokens"])

    def exec_event(self, line: int, kind: str, obj: dict[str, Any]) -> None:
        """Read one stream event (`kind` is its type, one of EXEC_TYPES)."""
        if kind == "thread.started":
            if isinstance(obj.get("thread_id"), str):
                self.meta.setdefault("id", obj["thread_id"])
            self.notes.ignore(kind)
        elif kind == "turn.started":
            self.current = None
            self.notes.ignore(kind)
        elif kind == "turn.completed":
            self.exec_turn_usage(line, obj.get("usage"))
        elif kind in ("turn.failed", "error"):
            err = obj.get("error") if isinstance(obj.get("error"), dict) else obj
            self.errors.append(as_text(err.get("message")) or kind)
            self.notes.ignore(kind)
        elif kind.startswith("item.") and isinstance(obj.get("item"), dict):
            self.exec_item(line, kind, obj["item"])
        else:
            self.notes.ignore(kind)

    def exec_turn_usage(self, line: int, usage: Any) -> None:
        """Give a finished turn's usage to its last agent step and add it to the totals."""
        if not isinstance(usage, dict):
            self.notes.skip("turn.completed without usage", line)
            return
        counts = {k: as_int(usage.get(k)) or 0
                  for k in ("input_tokens", "cached_input_tokens", "output_tokens")}
        total = self.exec_usage or dict.fromkeys(counts, 0)
        self.exec_usage = {k: total[k] + v for k, v in counts.items()}
        target = self.b.last_agent()
        if target is None or target.metrics is not None:
            target = self.b.step("agent", model_name=self.model,
                                 extra={"line": line, "usage_only": True}, keep=True)
        target.metrics = Metrics(prompt_tokens=counts["input_tokens"],
                                 completion_tokens=counts["output_tokens"],
                                 cached_tokens=counts["cached_input_tokens"],
                                 extra={"scope": "turn"})
        self.current = None

    def exec_item(self, line: int, kind: str, item: dict[str, Any]) -> None:
        """An item started, updated or completed: text, reasoning, or a tool call."""
        itype, item_id = item.get("type"), str(item.get("id") or f"line-{line}")
        done = kind == "item.completed"
        if itype in ("agent_message", "reasoning"):
            if not done:
                return  # the completed item carries the whole text
            cur = self.current
            if itype == "agent_message":
                fresh = cur is not None and bool(cur.calls)
                self.agent_step(None, line, fresh).texts.append(as_text(item.get("text")))
            else:
                fresh = cur is not None and bool(cur.calls or cur.texts or cur.reasoning)
                self.agent_step(None, line, fresh).reasoning.append(as_text(item.get("text")))
            return
        call = self.exec_call(itype, item)
        if call is None:
            self.notes.ignore(f"item:{itype}")
            return
        if item_id not in self.items:
            name, args = call
            self.b.call(self.agent_step(None, line), item_id, name, args)
            self.items[item_id] = itype
        if done:
            self.exec_result(line, item_id, itype, item)

    @staticmethod
    def exec_call(itype: Any, item: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """(function name, arguments) of an item that is a tool call, else None."""
        if itype == "command_execution":
            command = as_text(item.get("command"))
            try:
                argv = shlex.split(command)
            except ValueError:
                argv = []
            wrapped = len(argv) == 3 and argv[1] in ("-lc", "-c") and \
                argv[0].rsplit("/", 1)[-1] in _WRAPPERS
            # the wrapper as argv, like a rollout's shell call, so readers see the script
            return "exec_command", {"command": argv if wrapped else command}
        if itype == "file_change":
            return "apply_patch", {"changes": item.get("changes") or []}
        if itype == "mcp_tool_call":
            args = item.get("arguments")
            return (f"mcp__{item.get('server')}__{item.get('tool')}",
                    args if isinstance(args, dict) else {"arguments": args})
        if itype == "web_search":
            return "web_search", {"query": item.get("query")}
        if itype == "todo_list":
            return "update_plan", {"items": item.get("items") or []}
        if itype == "collab_tool_call":
            return str(item.get("tool") or "collab_tool"), {
                "prompt": item.get("prompt"), "receivers": item.get("receiver_thread_ids")}
        return None  # error, plan and unknown items are no tool calls

    def exec_result(self, line: int, item_id: str, itype: str, item: dict[str, Any]) -> None:
        """The result of a completed tool-call item (output, exit code, error)."""
        extra: dict[str, Any] = {}
        status = item.get("status")
        if isinstance(status, str):
            extra["status"] = status
        if itype == "command_execution":
            content = as_text(item.get("aggregated_output"))
            if as_int(item.get("exit_code")) is not None:
                extra["exit_code"] = as_int(item["exit_code"])
        elif itype == "mcp_tool_call":
            res, err = item.get("result"), item.get("error")
            content = as_text(err.get("message")) if isinstance(err, dict) else \
                as_text(res.get("content") if isinstance(res, dict) else res)
            if isinstance(err, dict):
                extra["is_error"] = True
        elif itype == "file_change":
            content = "\n".join(f"{c.get('kind')} {c.get('path')}" for c in
                                item.get("changes") or [] if isinstance(c, dict))
        elif itype == "collab_tool_call":
            content = as_text(item.get("agents_states"))
        else:
            content = ""
        self.b.result(item_id, content, extra, line)
        self.current = None
