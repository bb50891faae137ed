"""What the Evals tab says about its file: the title bar, the file's issues, the status line.

Three one-line parts of `widgets.evals_pane.EvalsPane`: the top bar (the file's name, new or
modified, how many cases, how many with problems, and the Save / Draft / Refine buttons),
the problems of the file as read (hidden when there are none) and the status line (the
last thing that happened, red when it went wrong). They only render; the pane lays them out
and styles them by id.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Static

from skillforge.models.evals import EVALS_PATH, EvalIssue
from widgets.evals_editor import EvalsEditor
from widgets.steady import show_text
from widgets.words import counted

ISSUES_SHOWN = 5


class EvalsTopBar(Horizontal):
    """The file's name and state, and the buttons that do what ctrl+S, ctrl+G, ctrl+R do."""

    def compose(self) -> ComposeResult:
        yield Static(id="evals-title")
        yield Button("Save ^S", compact=True, id="evals-save")
        yield Button("Draft ^G", compact=True, id="evals-draft")
        yield Button("Refine ^R", compact=True, id="evals-refine")

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False  # mouse shortcuts; the keys are the pane's bindings

    def show(self, editor: EvalsEditor, *, new_file: bool) -> None:
        """Title the set as edited: new file, ● modified, case count, cases with problems."""
        title = Text(EVALS_PATH + (" (new file)" if new_file else ""))
        if editor.dirty:
            title.append(" ● modified", style="bold yellow")
        if editor.working is not None:
            bad = sum(1 for p in editor.problems if p)
            title.append(f" · {counted(len(editor.cases), 'case')}", style="dim")
            if bad:
                title.append(f" · {bad} with problems", style="bold red")
        show_text(self.query_one("#evals-title", Static), title)


class FileIssues(Static):
    """The problems of the file as read, and what to do about them (hidden when none)."""

    def show(self, issues: list[EvalIssue], *, parsed: bool) -> None:
        """`parsed`: the file gave a set to edit (False: it does not parse at all)."""
        self.display = bool(issues)
        if not issues:
            return
        head = (f"{EVALS_PATH} as read has problems (a case that could not be read is not "
                "listed; fix it in your editor):" if parsed else
                f"{EVALS_PATH} cannot be edited here until it parses; fix it in your editor:")
        lines = [head] + [f"  line {i.line}: {i.message}" if i.line else f"  {i.message}"
                          for i in issues[:ISSUES_SHOWN]]
        if len(issues) > ISSUES_SHOWN:
            lines.append(f"  … and {len(issues) - ISSUES_SHOWN} more")
        self.update(Text("\n".join(lines)))


class StatusLine(Static):
    """The last thing that happened, or what to do next; class `-error` when it went wrong."""

    def say(self, text: str, *, error: bool = False) -> None:
        """Show `text` (in the error style when `error`)."""
        self.update(Text(text))
        self.set_class(error, "-error")

    @property
    def text(self) -> str:
        return str(self.render())
