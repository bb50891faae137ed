"""One step of a trajectory, whole: its message, reasoning, every tool call's arguments and
every tool result in full, in a modal the side-by-side view opens (Enter, Space or a click
on a step). Read-only text: it scrolls, wraps, and can be selected and copied.
"""

from __future__ import annotations

import json

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import TextArea

from sessions.atif import Step, message_text


def _section(title: str) -> str:
    return f"── {title} " + "─" * max(3, 60 - len(title))


def step_text(step: Step) -> str:
    """The whole step as plain text, sections in the order they happened."""
    head = [f"Step {step.step_id} · {step.source}"]
    if step.model_name:
        head.append(step.model_name)
    m = step.metrics
    if m is not None and (m.prompt_tokens is not None or m.completion_tokens is not None):
        head.append(f"in {m.prompt_tokens or 0:,} / out {m.completion_tokens or 0:,} tokens")
    parts = [" · ".join(head)]
    text = message_text(step.message)
    parts += [_section("message"), text or "(empty)"]
    if step.reasoning_content:
        parts += [_section("reasoning"), step.reasoning_content]
    results = step.observation.results if step.observation else []
    by_call = {r.source_call_id: r for r in results if r.source_call_id}
    for i, call in enumerate(step.tool_calls or [], 1):
        args = json.dumps(call.arguments, indent=2, ensure_ascii=False)
        parts += [_section(f"call {i}: {call.function_name} ({call.tool_call_id})"), args]
        result = by_call.pop(call.tool_call_id, None)
        if result is not None:
            code = (result.extra or {}).get("exit_code")
            status = f", exit {code}" if code is not None else ""
            parts += [_section(f"result of call {i}{status}"),
                      message_text(result.content) or "(no output)"]
    for result in [r for r in results if r.source_call_id not in {c.tool_call_id for c in
                                                                  step.tool_calls or []}]:
        parts += [_section("result"), message_text(result.content) or "(no output)"]
    return "\n".join(parts) + "\n"


class StepDetail(ModalScreen[None]):
    """The full text of one step; Esc closes it."""

    BINDINGS = [Binding("escape,q", "close", "Close", id="step.close")]
    DEFAULT_CSS = """
    StepDetail { align: center middle; }
    StepDetail > Vertical {
        width: 95%; height: 90%; border: round $accent; background: $surface;
    }
    StepDetail TextArea { height: 1fr; border: none; }
    """

    def __init__(self, step: Step, title: str) -> None:
        super().__init__()
        self.step = step
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield TextArea(step_text(self.step), read_only=True, soft_wrap=True,
                           show_line_numbers=False, id="step-text")

    def on_mount(self) -> None:
        box = self.query_one(Vertical)
        box.border_title = self.title_text
        box.border_subtitle = "Esc: close · select text to copy"
        self.query_one(TextArea).focus()

    @property
    def text(self) -> str:
        return self.query_one(TextArea).text

    def action_close(self) -> None:
        self.dismiss(None)
