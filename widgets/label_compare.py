"""The author's labels in the Compare tab: confirm or correct a trial's judged metrics.

A mixin of `widgets.compare_view.CompareView` (its keys are declared there: m, y, o). The
view is given this case's judgments and the author's labels (`show_labels`); y and o post
`LabelEntered` with one label per judge of the picked metric and attempt, and the app calls
`labels_stored` once they are in the run store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual.message import Message

from skillforge.models.labels import TRIAL_LABEL_METRICS, Judgment, Label, shown_value
from widgets.heatmap import SHORT

SIDE_LABEL = {"with_skill": "with skill", "baseline": "baseline",
              "self_generated": "self-generated"}


class CompareLabels:
    """Label state and actions of the Compare view."""

    class LabelEntered(Message):
        """The author's labels of one judged metric of one attempt (one per judge)."""

        def __init__(self, labels: list[Label]) -> None:
            super().__init__()
            self.labels = labels

    label_metric: str = TRIAL_LABEL_METRICS[0]
    judgments: dict[tuple[str, int], dict[str, list[Judgment]]]
    author: dict[tuple[str, str, str], Label]
    progress: tuple[int, int] = (0, 0)

    def show_labels(self, judgments: Sequence[Judgment],
                    author: Mapping[tuple[str, str, str], Label],
                    progress: tuple[int, int]) -> None:
        """This case's judgments, the author's labels and the run's labelling progress."""
        self.judgments = {}
        for j in judgments:
            self.judgments.setdefault((j.condition or "", j.attempt or 0), {}) \
                .setdefault(j.metric, []).append(j)
        self.author, self.progress = dict(author), progress
        judged = self.judged_metrics()
        if judged and self.label_metric not in judged:
            self.label_metric = judged[0]  # m picks among what was judged
        self._refresh_view()

    def _label_line(self, condition: str, attempt: int) -> Text:
        """judge → your value of each labelable metric; the one m picks is reversed."""
        line = Text(no_wrap=True, overflow="ellipsis")
        by_metric = self.judgments.get((condition, attempt), {})
        if not by_metric:
            return line
        line.append("you: ", style="dim")
        for m in TRIAL_LABEL_METRICS:
            js = by_metric.get(m)
            if not js:
                continue
            mine = self.author.get(js[0].item)
            judge = sum(j.value for j in js) / len(js)
            cell = f"{SHORT.get(m, m)} {shown_value(m, judge)}→" + \
                ("?" if mine is None else shown_value(m, mine.author_value))
            line.append(cell, style="reverse" if m == self.label_metric else
                        ("cyan" if mine is not None else "dim"))
            line.append("  ")
        return line

    def _label_target(self) -> tuple[str, list[Judgment]] | None:
        side = self._focused_side() or "with_skill"
        a = self.attempt(side)
        if a is None:
            return None
        js = self.judgments.get((a.trial.condition, a.trial.attempt), {}).get(self.label_metric)
        if not js:
            self.notify(f"No {self.label_metric} judgment to label on this attempt.",
                        severity="warning", timeout=3)
            return None
        return side, js

    def judged_metrics(self) -> list[str]:
        """The labelable metrics a judge scored on the attempts on screen (either side)."""
        shown = [a for side in SIDE_LABEL if (a := self.attempt(side)) is not None]
        judged = {m for a in shown
                  for m in self.judgments.get((a.trial.condition, a.trial.attempt), {})}
        return [m for m in TRIAL_LABEL_METRICS if m in judged]

    def action_label_metric(self) -> None:
        """The next metric with a judgment to label; metrics no judge scored are skipped."""
        metrics = self.judged_metrics()
        if not metrics:
            self.notify("No judged metric to label on these attempts.", timeout=3)
            return
        i = metrics.index(self.label_metric) if self.label_metric in metrics else -1
        self.label_metric = metrics[(i + 1) % len(metrics)]
        self._refresh_view()

    def action_label_confirm(self) -> None:
        target = self._label_target()
        if target is not None:
            js = target[1]
            value = sum(j.value for j in js) / len(js)
            self.post_message(self.LabelEntered([Label.of(j, value, source="compare")
                                                 for j in js]))

    def action_label_correct(self) -> None:
        target = self._label_target()
        if target is None:
            return
        side, js = target
        from widgets.label_prompt import LabelPrompt

        def entered(answer: tuple[float, str] | None) -> None:
            if answer is not None:
                self.post_message(self.LabelEntered([Label.of(j, answer[0], answer[1],
                                                              source="compare") for j in js]))

        judge = sum(j.value for j in js) / len(js)
        what = f"case {self.case_id}, {SIDE_LABEL[side]}, attempt {js[0].attempt}"
        self.app.push_screen(LabelPrompt(self.label_metric, what, judge), entered)

    def labels_stored(self, labels: Sequence[Label]) -> None:
        """The app stored these labels: show them and count them."""
        new = {(lb.kind, lb.content_hash, lb.metric) for lb in labels} - set(self.author)
        for lb in labels:
            self.author[(lb.kind, lb.content_hash, lb.metric)] = lb
        self.progress = (self.progress[0] + len(new), self.progress[1])
        self._refresh_view()

