"""One case with and without the skill, side by side: the Compare tab.

Two `TrajectoryView`s in alignment mode, so step i of one side sits next to step i of the
other (blank slots where one side is shorter) and scrolling either scrolls both. Skill
activations and script runs are badged by the viewer. Above each side: its attempt, status
and the scores of all six metrics plus grader and overall, green where that side beat the
other. Below: the judge's evidence, each item linked to its step (Enter scrolls that
side's viewer there), and the two final answers diffed word by word.

The widget renders what it is given: the app loads a case with
`skillforge.trajectory.compare_data.load_case_attempts` (in a worker) and calls `show_case` (or
`show` with the attempts of each side).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import ClassVar

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from skillforge.trajectory.compare_data import (
    SIDES,
    Attempt,
    CaseAttempts,
    EvidenceLink,
    answer_diff,
    representative,
)
from skillforge.models.labels import TRIAL_LABEL_METRICS, Judgment, Label
from skillforge.models.lift import LiftReport
from skillforge.report import facts as F
from widgets.compare_parts import ScoreLine, diff_text
from widgets.heatmap import SHORT
from widgets.label_compare import CompareLabels
from widgets.trajectory_layout import TrajectoryFacts
from widgets.trajectory_view import TrajectoryView

SIDE_LABEL = {"with_skill": "with skill", "baseline": "baseline",
              "self_generated": "self-generated"}
SIDE_TAG = {"with_skill": "W", "baseline": "B", "self_generated": "S"}
# Facts of bigger trajectories are left to the viewer's own thread worker.
SYNC_FACTS_MAX_CALLS = 400
SLOT_ROWS = (3, 4, 6, 8)


class CompareClosed(Message):
    """The author left the side-by-side of `case_id` (Escape)."""

    def __init__(self, case_id: str | None) -> None:
        super().__init__()
        self.case_id = case_id


class CompareView(CompareLabels, Vertical):
    """With and without the skill, one case, step by step."""

    HELP = """## Side by side
One case, the same task with the skill (left) and without it (right). Step i of one run
is next to step i of the other; `·` marks a slot where one side had already stopped.
**SKILL** badges mark where the agent opened a skill, **RUN** badges its script runs
(✓ exit 0, ✗ failed). Above each side: its attempt and its scores (green where that side
scored higher, red where lower).

- **a** / **A**: next / previous attempt. With a trajectory focused, only that side
  changes; anywhere else both sides move together (attempt k next to attempt k).
- Evidence (bottom left): what the judge relied on, per side and metric. **Enter** on an
  item scrolls that side to the step (both sides follow, they stay aligned).
- Final answers (bottom right): each side's last answer, with the words only it has
  highlighted.
- **+** / **-**: taller / shorter step slots. **Tab** moves between the panels.
- In a trajectory: **↑/↓** steps, **]** / **[** next / previous highlight, **Enter** /
  **Space** (or a click) opens the step whole: its message, the calls' arguments and the
  full tool output.
- Your labels: **m** picks the metric (accuracy, goal_accuracy, behavior_check, the
  grader's pass), **y** confirms the judge's value of the shown attempt (the focused side,
  else with skill) and **o** corrects it with your own score and a one-line reason. The
  evidence steps stay at hand; the title counts the run's judgments you labelled.
- **Esc** goes back.
"""
    DEFAULT_CSS = """
    CompareView { height: 1fr; }
    CompareView #compare-title { height: auto; padding: 0 1; }
    CompareView #compare-heads { height: auto; }
    CompareView #compare-sides { height: 1fr; }
    CompareView .compare-side { width: 1fr; height: 1fr; }
    CompareView .compare-head { width: 1fr; height: auto; padding: 0 1; }
    CompareView #compare-bottom { height: 9; }
    CompareView.-short #compare-bottom { height: 5; }
    CompareView #compare-evidence {
        width: 1fr; height: 1fr; border: round $panel; text-wrap: nowrap; text-overflow: ellipsis;
    }
    CompareView #compare-evidence:focus { border: round $accent; }
    CompareView #compare-diff { width: 1fr; height: 1fr; border: round $panel; padding: 0 1; }
    CompareView #compare-diff:focus { border: round $accent; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "attempt(1)", "Attempt", id="compare.next_attempt"),
        Binding("A,shift+a", "attempt(-1)", "Previous attempt", id="compare.prev_attempt",
                show=False),
        Binding("plus", "slots(1)", "Taller steps", id="compare.taller", show=False),
        Binding("minus", "slots(-1)", "Shorter steps", id="compare.shorter", show=False),
        Binding("escape", "close", "Back", id="compare.close"),
        Binding("m", "label_metric", "Label metric", id="compare.label_metric", show=False),
        Binding("y", "label_confirm", "Confirm", id="compare.label_confirm"),
        Binding("o", "label_correct", "Correct", id="compare.label_correct"),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.case_id: str | None = None
        self.skill: str | None = None
        self.note = ""
        self.sides: dict[str, list[Attempt]] = {}
        self.index: dict[str, int] = {}
        self.slot_rows = 4
        self.links: list[tuple[str, EvidenceLink]] = []
        self.diff_parts: list[tuple[str, str]] = []
        # The author's labels: the judgments of this case by (condition, attempt) and metric,
        # the author's value per judged item, and the run's (labelled, total) judgments.
        self.label_metric = TRIAL_LABEL_METRICS[0]
        self.judgments: dict[tuple[str, int], dict[str, list[Judgment]]] = {}
        self.author: dict[tuple[str, str, str], Label] = {}
        self.progress: tuple[int, int] = (0, 0)

    def compose(self) -> ComposeResult:
        yield Static(Text("No case chosen: press Enter on a case in the Lift tab.",
                          style="dim"), id="compare-title")
        # The heads share one row, as tall as the taller: in a column each above its own
        # trajectory, a head that wrapped put its side's steps a row below the other's.
        with Horizontal(id="compare-heads"):
            for side in SIDES:
                yield Static(classes="compare-head", id=f"head-{side}")
        with Horizontal(id="compare-sides"):
            for side in SIDES:
                yield TrajectoryView(classes="compare-side", id=f"view-{side}")
        with Horizontal(id="compare-bottom"):
            yield OptionList(id="compare-evidence")
            with VerticalScroll(id="compare-diff"):
                yield Static(id="compare-diff-text")

    def on_mount(self) -> None:
        self.query_one("#compare-evidence", OptionList).border_title = "Evidence (Enter: go to step)"
        self.query_one("#compare-diff", VerticalScroll).border_title = "Final answers"
        views = [self.viewer(s) for s in SIDES]
        for me, other in ((views[0], views[1]), (views[1], views[0])):
            self.watch(me, "scroll_y", partial(self._follow, other), init=False)

    def on_resize(self) -> None:
        short = self.size.height < 28
        if short != self.has_class("-short"):
            self.set_class(short, "-short")
            if self.case_id is not None:
                self._render_title()  # short: the keys line goes (the footer has them)

    # --- what the app calls -------------------------------------------------------------

    def show(self, case_id: str, sides: Mapping[str, Sequence[Attempt]], *,
             skill: str | None = None, start: Mapping[str, int] | None = None,
             note: str = "") -> None:
        """Show one case: `sides` maps "with_skill" / "baseline" to their attempts."""
        self.case_id, self.skill, self.note = case_id, skill, note
        self.sides = {s: list(sides.get(s, ())) for s in SIDES}
        self.index = {s: (start or {}).get(s, representative(a)) if a else 0
                      for s, a in self.sides.items()}
        self._refresh_view()

    def show_case(self, case: CaseAttempts, report: LiftReport | None = None) -> None:
        """Show a loaded case; with its run's lift report the title says Δ and triage."""
        note = _case_note(case, report)
        sides, start = dict(case.sides), dict(case.start)
        # An ablation (without:<part>) takes the right-hand side, under its own name.
        other = next((c for c in sides if c not in SIDES), None)
        self.side_label = {**SIDE_LABEL, "baseline": f"without {other[8:]}"} if other \
            else SIDE_LABEL
        if other is not None:
            sides["baseline"], start["baseline"] = sides.pop(other), start.pop(other, 0)
            note = f"{note} · right: {other}" if note else f"right: {other}"
        self.show(case.case_id, sides, skill=case.skill, start=start, note=note)

    def _label(self, side: str) -> str:
        return getattr(self, "side_label", SIDE_LABEL).get(side, side)

    def attempt(self, side: str) -> Attempt | None:
        """The attempt shown on one side."""
        attempts = self.sides.get(side) or []
        i = self.index.get(side, 0)
        return attempts[i] if 0 <= i < len(attempts) else None

    def viewer(self, side: str) -> TrajectoryView:
        return self.query_one(f"#view-{side}", TrajectoryView)

    # --- rendering ----------------------------------------------------------------------

    def _refresh_view(self) -> None:
        if self.case_id is None:
            return
        shown = {s: self.attempt(s) for s in SIDES}
        trajs = {s: a.trajectory if a else None for s, a in shown.items()}
        n = max((len(t.steps) for t in trajs.values() if t), default=0)
        for side in SIDES:
            other = SIDES[1 - SIDES.index(side)]
            self._render_side(side, shown[side], shown[other], n)
        self._render_title()
        self._render_evidence(shown)
        w, b = shown["with_skill"], shown["baseline"]
        before, after = (b.final_answer if b else ""), (w.final_answer if w else "")
        self.diff_parts = answer_diff(before, after)
        self.query_one("#compare-diff-text", Static).update(
            diff_text(before, after, self._label("baseline")))

    def _render_title(self) -> None:
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(f"Case {self.case_id}", style="bold")
        if self.progress[1]:
            title.append(f" · {self.progress[0]} of {self.progress[1]} judgments labelled ·",
                         style="cyan")
        if self.note:
            title.append(f" {self.note}")
        keys = Text("Enter on a step: read it whole · a/A: next/previous attempt · Enter on "
                    "evidence: go to its step · Esc: back",
                    style="dim", no_wrap=True, overflow="ellipsis")
        shown = Group(title) if self.has_class("-short") else Group(title, keys)
        self.query_one("#compare-title", Static).update(shown)

    def _render_side(self, side: str, mine: Attempt | None, other: Attempt | None,
                     n: int) -> None:
        head = Text()
        head.append(self._label(side).upper(), style="bold")
        view = self.viewer(side)
        if mine is None:
            head.append("  no attempt on this side", style="yellow")
            self.query_one(f"#head-{side}", Static).update(head)
            view.show(None)
            return
        t = mine.trial
        head.append(f"  attempt {t.attempt} ({self.index[side] + 1} of {len(self.sides[side])})  ")
        head.append(t.status, style="green" if t.status == "ok" else "bold red")
        if t.error:
            head.append(f" {t.error}", style="red")
        traj = mine.trajectory
        if mine.problem:
            head.append(f"\n⚠ {mine.problem}", style="yellow")
        # The labels line only when this attempt has judgments to label (no blank row).
        labels = self._label_line(t.condition, t.attempt)
        self.query_one(f"#head-{side}", Static).update(
            Group(head, ScoreLine(mine, other), *([labels] if labels.plain else [])))
        align = [traj.steps[i].step_id if traj and i < len(traj.steps) else None
                 for i in range(n)]
        facts = None
        if traj is not None and sum(len(s.tool_calls or []) for s in traj.steps) \
                <= SYNC_FACTS_MAX_CALLS:
            facts = TrajectoryFacts.of(traj)  # cheap here; keeps the badges steady at once
        view.show(traj, highlight_skill=self.skill, facts=facts, align_to=align,
                  slot_rows=self.slot_rows)
        view.border_title = f"{self._label(side)} · attempt {t.attempt}"

    def _render_evidence(self, shown: Mapping[str, Attempt | None]) -> None:
        options = self.query_one("#compare-evidence", OptionList)
        options.clear_options()
        self.links = []
        items = []
        for side in SIDES:
            a = shown[side]
            for link in a.links if a else []:
                self.links.append((side, link))
                label = Text(no_wrap=True, overflow="ellipsis")
                label.append(f"{SIDE_TAG[side]} ", style="bold cyan" if side == "with_skill"
                             else "bold magenta")
                label.append(f"{SHORT.get(link.metric, link.metric):<6} ", style="dim")
                label.append(f"#{link.step_id:<3} ", style="bold")
                label.append(link.text)
                if link.source:
                    label.append(f"  — {link.source}", style="dim")
                items.append(Option(label, id=f"ev-{len(self.links) - 1}"))
        if items:
            options.add_options(items)
            options.highlighted = 0
        else:
            options.add_option(Option(Text("No evidence cites a step of these attempts.",
                                           style="dim"), disabled=True))

    # --- following ----------------------------------------------------------------------

    def _follow(self, other: TrajectoryView, y: float) -> None:
        """Aligned viewers have the same rows: keep the other at the same scroll offset."""
        if round(other.scroll_y) != round(y):
            other.scroll_to(y=y, animate=False, immediate=True, force=True)

    def go_to_evidence(self, index: int) -> bool:
        """Scroll the evidence item's side to its step; False when the step is not shown."""
        side, link = self.links[index]
        ok = self.viewer(side).scroll_to_step(link.step_id)
        if not ok:
            self.notify(f"Step {link.step_id} is not in this {SIDE_LABEL[side]} trajectory.",
                        severity="warning", timeout=3)
        return ok

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()

    def on_trajectory_view_step_opened(self, event: TrajectoryView.StepOpened) -> None:
        event.stop()
        side = next((s for s in SIDES if self.viewer(s) is event.view), None)
        traj = event.view.trajectory
        step = next((s for s in traj.steps if s.step_id == event.step_id), None) if traj else None
        if side is None or step is None:
            return
        from widgets.step_detail import StepDetail

        a = self.attempt(side)
        attempt = f" · attempt {a.trial.attempt}" if a is not None else ""
        self.app.push_screen(StepDetail(step, f"Case {self.case_id} · {SIDE_LABEL[side]}"
                                              f"{attempt} · step {step.step_id}"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        oid = event.option.id or ""
        if oid.startswith("ev-"):
            self.go_to_evidence(int(oid[3:]))

    # --- actions ------------------------------------------------------------------------

    def _focused_side(self) -> str | None:
        focused = self.screen.focused if self.is_mounted else None
        return next((s for s in SIDES if focused is self.viewer(s)), None)

    def switch_attempt(self, step: int, side: str | None = None) -> None:
        """Move one side (or both) `step` attempts on, wrapping around."""
        targets = [side] if side else list(SIDES)
        for s in targets:
            if self.sides.get(s):
                self.index[s] = (self.index[s] + step) % len(self.sides[s])
        self._refresh_view()

    def action_attempt(self, step: int) -> None:
        if self.case_id is not None:
            self.switch_attempt(step, self._focused_side())

    def action_slots(self, step: int) -> None:
        i = SLOT_ROWS.index(self.slot_rows) if self.slot_rows in SLOT_ROWS else 1
        self.slot_rows = SLOT_ROWS[max(0, min(len(SLOT_ROWS) - 1, i + step))]
        self._refresh_view()

    def action_close(self) -> None:
        self.post_message(CompareClosed(self.case_id))


def _case_note(case: CaseAttempts, report: LiftReport | None) -> str:
    bits = [f"({case.kind})" if case.kind else ""]
    if report is not None:
        row = next((r for r in report.extra.cases if r.case_id == case.case_id), None)
        d = row.delta.get("overall") if row else None
        if d is not None:
            bits.append(f"Δ overall {F.signed(d)}")
        ev = F.evidence_for(report).get(case.case_id)
        if ev is not None:
            bits.append(f"{ev.class_}: {ev.reason}")
    if case.problems:
        bits.append(f"⚠ {len(case.problems)} trajectory problem(s)")
    bits.append(f"run {case.run_id}")
    return " · ".join(b for b in bits if b)
