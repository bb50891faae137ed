"""The Judge tab: the nine rubric criteria with evidence and suggestions, score and cost."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from skillforge.models.judge import (
    CRITERIA,
    JudgeFailed,
    JudgeFinished,
    JudgeResult,
    JudgeRetrying,
    JudgeStarted,
)
from skillforge.models.labels import Label

GRADE_STYLE = {"A": "bold green", "B": "green", "C": "yellow", "D": "dark_orange", "F": "bold red"}


def _score_style(score: float) -> str:
    return "green" if score >= 8 else ("yellow" if score >= 5 else "red")


class JudgePane(VerticalScroll):
    """What an LLM judge thinks of the skill's writing, criterion by criterion."""

    HELP = """## Judge
An LLM grades the skill on nine criteria (trigger, scope, clarity, workflow,
actionability, examples, verification, economy, safety), 0-10 each, with a quoted piece of
**evidence** and one concrete **suggestion**. Score = 10 × the mean, graded like the lint.
With several judges ([judge] models) the **spread** (max - min) per criterion is shown and
flagged at 3 or more. Results are cached by the skill's content: re-judging an unchanged
skill costs nothing. **j** runs the judge, **x** cancels a running one. The result is
marked **stale** once the skill changes.

**Your labels.** **↑/↓** pick a criterion (▶), **a** accepts the judge's score as yours,
**o** overrides it with your own score and a one-line reason ("6 misses the failure
path"). Labels are stored in the run store with the skill's content hash, the criterion,
the judge model and the rubric version: re-judging the same skill meets them again, and
the Lift tab and reports measure how well each judge agrees with you.
"""
    DEFAULT_CSS = """
    JudgePane { height: 1fr; border: round $panel; padding: 0 1; }
    JudgePane:focus { border: round $accent; }
    JudgePane > Static { width: 1fr; }
    """
    BINDINGS = [
        Binding("j", "judge", "Judge", id="judge.run"),
        # Shown (and bound) only while a judge runs: check_action.
        Binding("x", "cancel", "Cancel judge", id="judge.cancel"),
        Binding("down", "cursor(1)", "Next criterion", id="judge.label_next", show=False),
        Binding("up", "cursor(-1)", "Previous criterion", id="judge.label_prev", show=False),
        Binding("a", "accept", "Accept score", id="judge.label_accept"),
        Binding("o", "override", "Your score", id="judge.label_override"),
    ]

    class JudgeRequested(Message):
        """The author asked for a (re-)judge of the current skill."""

    class CancelRequested(Message):
        """The author wants the running judge stopped."""

    class LabelEntered(Message):
        """The author's own score of one criterion of the shown result (0-10)."""

        def __init__(self, criterion: str, value: float, reason: str = "") -> None:
            super().__init__()
            self.criterion, self.value, self.reason = criterion, value, reason

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Judge"
        self.result: JudgeResult | None = None
        self.stale = False
        self.running: list[str] = []
        self.judging = False  # a judge of the current skill is in flight (x cancels it)
        self.labels: dict[str, Label] = {}  # criterion -> the author's label of this content
        self.cursor = 0
        self._status: Text | None = Text("Press j to judge this skill with the configured model.",
                                          style="dim")
        self._body = Static(self._status)

    def compose(self):
        yield self._body

    # --- what the app calls -------------------------------------------------------------

    def show_result(self, result: JudgeResult | None, *, stale: bool = False) -> None:
        self.result, self.stale, self.running = result, stale, []
        self.refresh_bindings()
        self._status = None if result is not None else self._status
        self._refresh_body()

    def set_judging(self, judging: bool) -> None:
        """A judge started or ended: the footer offers x only while one runs."""
        if judging != self.judging:
            self.judging = judging
            self.refresh_bindings()

    def show_labels(self, labels: dict[str, Label]) -> None:
        """The author's labels of the shown result's content, by criterion."""
        self.labels = dict(labels)
        self._refresh_body()

    @property
    def progress(self) -> str:
        """"N of M judgments labelled" for the shown result (M: its criteria)."""
        total = len(self.result.criteria) if self.result is not None else 0
        done = sum(1 for c in self.result.criteria if c.criterion in self.labels) \
            if self.result is not None else 0
        return f"{done} of {total} judgments labelled"

    def mark_stale(self, stale: bool) -> None:
        if self.result is not None and stale != self.stale:
            self.stale = stale
            self._refresh_body()

    def show_progress(self, event: object) -> None:
        if isinstance(event, JudgeStarted):
            self.running.append(event.model)
            self._status = Text(f"judging with {', '.join(self.running)}…", style="italic")
        elif isinstance(event, JudgeRetrying):
            self._status = Text(f"{event.model} answered outside the rubric format; asking once more",
                                style="yellow")
        elif isinstance(event, JudgeFinished):
            done = "cached" if event.cached else f"{event.score:g}"
            self._status = Text(f"{event.model} finished ({done})", style="dim")
        elif isinstance(event, JudgeFailed):
            self._status = Text(f"{event.model} failed: {event.error}", style="red")
        self._refresh_body()

    def show_message(self, text: str, *, error: bool = False) -> None:
        """A provider error or a 'what to set' notice, shown in the tab (never a crash)."""
        self.running = []
        self._status = Text(text, style="red" if error else "yellow")
        self._refresh_body()

    # --- rendering ----------------------------------------------------------------------

    def _refresh_body(self) -> None:
        parts: list = [self._status] if self._status is not None else []
        r = self.result
        if r is not None:
            head = Text()
            head.append("judge score ", style="dim")
            head.append(f"{r.score:g} {r.grade}", style=GRADE_STYLE.get(r.grade, "bold"))
            if self.stale:
                head.append("   STALE: the skill changed since; press j to re-judge", style="bold yellow")
            head.append(f"\n{', '.join(r.models)}", style="dim")
            tokens = f"{r.tokens_in} in / {r.tokens_out} out"
            if r.tokens_cached:
                tokens += f" ({r.tokens_cached} cached)"
            cost = "cost unknown" if r.cost_usd is None else f"${r.cost_usd:.4f}"
            head.append(f"   last run: {tokens}, {cost}" + ("  (from cache)" if r.cached else ""), style="dim")
            parts.append(head)
            parts.append(Text(f"{self.progress} · ↑↓ pick, a accept, o your score",
                              style="dim"))
            table = Table(expand=True, show_edge=False, pad_edge=False, box=None, header_style="bold")
            table.add_column("criterion", no_wrap=True)
            table.add_column("score", justify="right", no_wrap=True)
            table.add_column("you", justify="right", no_wrap=True)
            if len(r.models) > 1:
                table.add_column("spread", justify="right", no_wrap=True)
            table.add_column("evidence", ratio=1)
            table.add_column("suggestion", ratio=1)
            for i, c in enumerate(r.criteria):
                mine = self.labels.get(c.criterion)
                pick = "▶ " if i == self.cursor else "  "
                you = Text("-", style="dim") if mine is None else Text(
                    f"{mine.author_value:g}" + ("" if mine.accepted else "*"),
                    style="bold cyan")
                cells = [Text(pick + str(c.criterion), style="reverse" if i == self.cursor
                              else ""),
                         Text(f"{c.score:g}", style=_score_style(c.score)), you]
                if len(r.models) > 1:
                    cells.append(Text(str(c.spread), style="bold red" if c.flagged else "dim"))
                cells += [Text(f"“{c.evidence}”", style="italic"), Text(c.suggestion)]
                table.add_row(*cells)
            parts.append(table)
            if r.flags:
                parts.append(Text(f"judges disagree (spread ≥ 3) on: {', '.join(r.flags)}", style="yellow"))
            for note in r.left_out:
                parts.append(Text(f"not shown to the judge (context): {note}", style="yellow"))
        self._body.update(Group(*parts))

    def action_judge(self) -> None:
        self.post_message(self.JudgeRequested())

    def action_cancel(self) -> None:
        self.post_message(self.CancelRequested())

    # --- labels -------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The label keys show (and work) only while there is a result to label.
        if action in ("accept", "override", "cursor"):
            return self.result is not None
        if action == "cancel":
            return self.judging
        return True

    def _selected(self):
        if self.result is None or not self.result.criteria:
            return None
        self.cursor = max(0, min(self.cursor, len(self.result.criteria) - 1))
        return self.result.criteria[self.cursor]

    def action_cursor(self, step: int) -> None:
        if self.result is not None:
            self.cursor = (self.cursor + step) % len(self.result.criteria or CRITERIA)
            self._refresh_body()

    def action_accept(self) -> None:
        """The judge's (mean) score of the selected criterion is the author's too."""
        c = self._selected()
        if c is not None:
            self.post_message(self.LabelEntered(c.criterion, float(c.score)))

    def action_override(self) -> None:
        c = self._selected()
        if c is None:
            return
        from widgets.label_prompt import LabelPrompt

        def entered(answer: tuple[float, str] | None) -> None:
            if answer is not None:
                self.post_message(self.LabelEntered(c.criterion, answer[0], answer[1]))

        self.app.push_screen(LabelPrompt(c.criterion, f"the judge's {c.score:g}",
                                         float(c.score)), entered)
