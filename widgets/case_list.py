"""The cases of evals.json as a list: id, kind, and a badge when a case has a problem."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from skillforge.models.evals import EvalCase
from widgets.evals_checks import CaseProblems

KIND_STYLE = {"explicit": "green", "implicit": "cyan", "contextual": "magenta",
              "negative": "yellow"}


class CaseList(OptionList):
    """Every case, in file order; the highlighted one is shown in the form."""

    HELP = """## Cases
The cases of `evals/evals.json` in file order. A red **⚠** marks a case with a problem
(hover or select it: the form shows the problem next to the field).
**a** adds a case, **d** deletes the highlighted one, **Shift+↑/↓** moves it;
**ctrl+z** undoes any of it.
"""
    DEFAULT_CSS = """
    CaseList { height: 1fr; border: round $panel; text-wrap: nowrap; text-overflow: ellipsis; }
    CaseList:focus { border: round $accent; }
    """
    # a, d and shift+↑↓ are EvalsPane's bindings (active while this list has the focus):
    # each must act on the set before the next key of a burst is read.

    class CaseHighlighted(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Cases"
        self._count = 0

    def show(self, cases: list[EvalCase], problems: list[CaseProblems], selected: int | None
             ) -> None:
        """List `cases` with a badge on those with problems; highlight `selected`."""
        self._count = len(cases)
        options = []
        for i, case in enumerate(cases):
            label = Text(no_wrap=True, overflow="ellipsis")
            bad = i < len(problems) and bool(problems[i])
            label.append("⚠ " if bad else "  ", style="bold red")
            label.append(str(case.id), style="red" if bad else "")
            kind = case.effective_kind
            label.append(f"  {kind[:3]}", style=f"dim {KIND_STYLE.get(kind, '')}".strip())
            options.append(Option(label, id=f"case-{i}"))
        with self.prevent(OptionList.OptionHighlighted):
            self.clear_options()
            self.add_options(options)
            if selected is not None and 0 <= selected < len(cases):
                self.highlighted = selected
        bad = sum(1 for p in problems if p)
        self.border_subtitle = f"{len(cases)}" + (f" · {bad} ⚠" if bad else "")

    def select_quietly(self, index: int | None) -> None:
        """Highlight row `index` without posting CaseHighlighted (the pane chose it)."""
        if index is not None and 0 <= index < self._count and self.highlighted != index:
            with self.prevent(OptionList.OptionHighlighted):
                self.highlighted = index

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option_index is not None:
            self.post_message(self.CaseHighlighted(event.option_index))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.CaseHighlighted(event.option_index))
