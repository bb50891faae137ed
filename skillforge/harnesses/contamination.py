"""Does a baseline trial's model request carry the target skill? (the proxy's check)

Staging keeps every trace of the target out of the baseline's container and prompt
(skillforge.trials.staging). What staging cannot see is what the harness CLI itself puts in
its requests: skills built into the image, a plugin, a memory file, a listing cached in the
CLI's home. The model proxy (skillforge.harnesses.proxy) reads every request a baseline
trial sends and looks for the target's two marks:

- its **description** (the first 60 characters, whitespace and case folded): the text a
  harness lists skills with, and the one thing that makes the model pick a skill;
- its **name** where it names a skill: a listing line (`- name: ...`), a path into a skills
  folder (`skills/name/`), `<name>name</name>`. A bare word is not enough: a skill called
  `pdf` must not flag a baseline that reads a PDF.

Only what the harness gives the model is read: the system prompt, tool definitions,
system-role messages and the text blocks of user messages (where Claude Code puts skill
listings and memory files). The model's own turns and tool results are not: a baseline
model told to "use the csv-insights skill" may look for it, and the error it gets back
names the path. For the same reason the case's own prompt, the same in both conditions,
never counts. Any hit marks the trial contaminated: it is kept out of the lift, and the
hits (which request, where in it, an excerpt) are its evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

DESCRIPTION_CHARS = 60
MIN_DESCRIPTION_CHARS = 20
EXCERPT_CHARS = 80
MAX_HITS = 10


def fold(text: str) -> str:
    """Lower case, every run of whitespace one space."""
    return " ".join(text.lower().split())


@dataclass(frozen=True)
class Markers:
    """The target skill's marks, and the task text that never counts."""

    name: str
    description: str
    task: str = ""

    def patterns(self) -> list[tuple[str, re.Pattern[str]]]:
        name = re.escape(fold(self.name))
        edge = r"(?![a-z0-9_-])"
        found = [
            ("name", re.compile(rf"(?:^|\n|\s)[-*] ?{name}{edge}\s*:")),
            ("name", re.compile(rf"skills/{name}/")),
            ("name", re.compile(rf"<name>\s*{name}\s*</name>")),
        ]
        desc = fold(self.description)[:DESCRIPTION_CHARS]
        if len(desc) >= MIN_DESCRIPTION_CHARS:
            found.append(("description", re.compile(re.escape(desc))))
        return found


def strings(value: Any, where: str) -> Iterator[tuple[str, str]]:
    """Every string under `value`, with its JSON path (`messages[2].content[0].text`)."""
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from strings(item, f"{where}[{i}]")


_MODEL_SIDE = {"assistant", "tool", "function"}
_RESULT_BLOCKS = {"tool_result", "function_call_output", "function_call", "tool_use",
                  "custom_tool_call_output", "reasoning"}


def context_texts(body: Any) -> Iterator[tuple[str, str]]:
    """The strings of a request (Anthropic Messages, Chat Completions, Responses) that the
    harness wrote for the model: system, tools, instructions, and non-tool user content."""
    if not isinstance(body, dict):
        return
    for key in ("system", "tools", "instructions"):
        if key in body:
            yield from strings(body[key], key)
    for key in ("messages", "input"):
        items = body.get(key)
        if isinstance(items, str):
            yield key, items
            continue
        for i, item in enumerate(items if isinstance(items, list) else []):
            if not isinstance(item, dict) or item.get("role") in _MODEL_SIDE \
                    or item.get("type") in _RESULT_BLOCKS:
                continue
            content = item.get("content")
            blocks = content if isinstance(content, list) else [content]
            for j, block in enumerate(blocks):
                if isinstance(block, dict) and block.get("type") in _RESULT_BLOCKS:
                    continue
                yield from strings(block, f"{key}[{i}].content[{j}]")


class Scanner:
    """Looks for the target's marks in request bodies; keeps the first hits as evidence."""

    def __init__(self, markers: Markers) -> None:
        self.markers = markers
        self._patterns = markers.patterns()
        self._task = fold(markers.task) if len(markers.task.strip()) >= 8 else ""
        self.hits: list[dict[str, Any]] = []

    def scan(self, body: Any, request: int) -> int:
        """Hits in one request body (JSON already parsed); returns how many were new."""
        before = len(self.hits)
        for where, text in context_texts(body):
            if len(self.hits) >= MAX_HITS:
                break
            folded = fold(text)
            if self._task:
                folded = folded.replace(self._task, " ")
            for marker, pattern in self._patterns:
                hit = pattern.search(folded)
                if hit:
                    start = max(0, hit.start() - 20)
                    self.hits.append({"request": request, "where": where, "marker": marker,
                                      "excerpt": folded[start:start + EXCERPT_CHARS]})
                    break
        return len(self.hits) - before
