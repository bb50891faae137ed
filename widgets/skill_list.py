"""Sidebar list of skills when the workbench is opened on a folder: worst grade first."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from skillforge.models.findings import LintReport

MARKS_INDENT = 6  # under the name, past "A 100 "
GRADE_STYLE = {"A": "green", "B": "green", "C": "yellow", "D": "dark_orange", "F": "bold red"}


@dataclass
class SkillEntry:
    path: Path
    name: str
    report: LintReport | None = None

    def sort_key(self) -> tuple:
        # Worst first (a failing gate before any passing one, then by score); skills not
        # linted yet go last, then by name.
        r = self.report
        return (r is None, bool(r and r.passed_gate), r.score if r else 0.0, self.name)


class SkillList(OptionList):
    """Every skill under the opened folder with its grade; Enter switches to it."""

    HELP = """## Skills
Every skill found under the folder you opened, **worst first** (a failing lint gate, then
the lowest score), with its grade and score, **FAIL** when it fails the gate and its
**sec**urity score when below 100.
Use the arrow keys and **Enter** to switch skill (or `n`/`p` from anywhere).
"""
    DEFAULT_CSS = """
    SkillList { height: 1fr; min-height: 4; border: round $panel; text-wrap: nowrap; text-overflow: ellipsis; }
    SkillList:focus { border: round $accent; }
    """

    class Chosen(Message):
        def __init__(self, path: Path) -> None:
            super().__init__()
            self.path = path

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Skills"
        self._entries: list[SkillEntry] = []

    def set_entries(self, entries: list[SkillEntry], current: Path | None) -> None:
        self._entries = sorted(entries, key=SkillEntry.sort_key)
        names = [e.name for e in self._entries]
        self.clear_options()
        for e in self._entries:
            label = Text(no_wrap=True, overflow="ellipsis")
            marks = Text()
            if e.report is None:
                label.append("·   … ", style="dim")
            else:
                r = e.report
                label.append(f"{r.grade} ", style=GRADE_STYLE.get(r.grade, ""))
                label.append(f"{r.score:3.0f} ", style="dim")
                # The grade is structural only: a skill with a critical finding or a failing
                # gate must not read "A 100" here.
                if not r.passed_gate:
                    marks.append("FAIL ", style="bold red")
                if r.security_score < 100:
                    marks.append(f"sec {r.security_score} ", style="red")
            label.append(e.name)
            if names.count(e.name) > 1:
                # Same name twice (copies, fixtures): the parent folder tells them apart.
                label.append(f"  {e.path.parent.name}/", style="dim")
            if marks:
                # On a line of their own, under the name: before it, they left a 24-column
                # sidebar one letter of a failing skill's name (issue 37).
                label.append("\n" + " " * MARKS_INDENT)
                label.append_text(marks)
                label.rstrip()
            self.add_option(Option(label, id=str(e.path)))
        if current is not None:
            idx = next((i for i, e in enumerate(self._entries) if e.path == current), None)
            if idx is not None:
                self.highlighted = idx

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.Chosen(Path(event.option.id)))
