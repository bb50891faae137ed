"""The workbench's Judge tab: run the rubric judge in a worker, keep results per skill.

A mixin of WorkbenchScreen (handlers by naming convention, so they dispatch through the
MRO). The judge never runs on every save: it runs on request, or debounced after edits
when [judge] auto = true; results are cached by content, so a re-judge of an unchanged
skill returns at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message
from textual.timer import Timer

from widgets.judge_pane import JudgePane

if TYPE_CHECKING:  # the judge and its models load on first use, not at start-up
    from skillforge.models.judge import JudgeResult

AUTO_JUDGE_DELAY_S = 2.0


class JudgeProgress(Message):
    def __init__(self, event: object) -> None:
        super().__init__()
        self.event = event


class JudgeDone(Message):
    def __init__(self, path: Path, result: JudgeResult | None, error: str | None = None,
                 not_configured: bool = False) -> None:
        super().__init__()
        self.path, self.result, self.error, self.not_configured = path, result, error, not_configured


class JudgeRecalled(Message):
    """The last verdict on the skill's current content, read from the judge's disk cache."""

    def __init__(self, path: Path, result: JudgeResult) -> None:
        super().__init__()
        self.path, self.result = path, result


class JudgeTab:
    """Judge state and handlers; mixed into WorkbenchScreen."""

    judge_results: dict[Path, JudgeResult]
    _auto_judge_timer: Timer | None = None
    _judging: Path | None = None  # the skill whose judge is in flight

    def judge_init(self) -> None:
        self.judge_results = {}
        self._recalled: set[tuple[Path, str]] = set()  # (skill, content hash) looked up
        from skillforge.providers.select import provider_label

        settings, _err = self.ws.settings(self.current)
        self.app.status_text = provider_label(settings)

    def start_judge(self) -> None:
        path = self.current
        if path is None:
            return
        settings, _err = self.ws.settings(path)
        self._judging = path
        if (pane := self.pane(JudgePane)) is not None:
            pane.show_message("starting the judge…")
            pane.set_judging(True)

        async def work() -> None:
            from skillforge.authoring.judge.run import run_judge
            from skillforge.models.judge import JudgeError
            from skillforge.models.llm import ProviderError, ProviderNotConfigured

            try:
                result = await run_judge(path, settings, progress=lambda e: self.post_message(JudgeProgress(e)))
            except ProviderNotConfigured as exc:
                self.post_message(JudgeDone(path, None, str(exc), not_configured=True))
            except (ProviderError, JudgeError) as exc:
                self.post_message(JudgeDone(path, None, str(exc)))
            else:
                self.post_message(JudgeDone(path, result))

        self.run_worker(work(), name="judge", group="judge", exclusive=True, exit_on_error=False)

    def on_judge_pane_judge_requested(self, message: JudgePane.JudgeRequested) -> None:
        message.stop()
        self.start_judge()

    def on_judge_pane_cancel_requested(self, message: JudgePane.CancelRequested) -> None:
        message.stop()
        cancelled = self.workers.cancel_group(self, "judge")
        self._judging = None
        if (pane := self.pane(JudgePane)) is not None:
            pane.set_judging(False)
            if cancelled:
                pane.show_message("judge cancelled; its requests were stopped")

    def judge_failed(self, failure) -> None:
        """The judge's worker failed unexpectedly: the pane says so instead of 'running'."""
        self._judging = None
        if (pane := self.pane(JudgePane)) is not None:
            pane.set_judging(False)
            pane.show_message(failure.message, error=True)

    # --- the author's labels (issue 19) -------------------------------------------------

    def _rubric_labels(self, result: JudgeResult) -> dict:
        """{criterion: the author's label} of this result's content, from the run store."""
        store = self._store()
        if store is None:
            return {}
        with store:
            return {lb.metric: lb for lb in store.labels(kind="rubric")
                    if lb.content_hash == result.skill_hash}

    def on_judge_pane_label_entered(self, message: JudgePane.LabelEntered) -> None:
        """Store the author's score of a criterion, once per judge of the shown result, with
        every judge's answers (repeats of the same content measure self-consistency)."""
        message.stop()
        pane = self.pane(JudgePane)
        result = pane.result if pane is not None else None
        if result is None:
            return
        import sqlite3

        from sessions.store import RunStore
        from skillforge.lift.calibration_run import rubric_judgments
        from skillforge.models.labels import Label

        judgments = rubric_judgments(result)
        labels = [Label.of(j, message.value, message.reason, source="judge_tab")
                  for j in judgments if j.metric == message.criterion]
        try:
            with RunStore(self._state_dir()) as store:
                store.record_judgments(judgments)
                store.save_labels(labels)
        except (OSError, ValueError, sqlite3.Error) as exc:  # a locked or damaged store
            self.notify(f"The label was not stored: {exc}", severity="error")
            return
        pane.show_labels({**pane.labels, message.criterion: labels[0]} if labels
                         else pane.labels)

    def on_judge_progress(self, message: JudgeProgress) -> None:
        if (pane := self.pane(JudgePane)) is not None:
            pane.show_progress(message.event)

    def on_judge_done(self, message: JudgeDone) -> None:
        pane = self.pane(JudgePane)
        if message.path == self._judging:
            self._judging = None
            if pane is not None:
                pane.set_judging(False)
        if message.result is not None:
            self.judge_results[message.path] = message.result
            if message.path == self.current and pane is not None:
                pane.show_result(message.result, stale=self._judge_is_stale(message.path))
                pane.show_labels(self._rubric_labels(message.result))
        elif message.path == self.current and pane is not None:
            pane.show_message(message.error or "the judge failed", error=not message.not_configured)

    def _judge_is_stale(self, path: Path) -> bool:
        result = self.judge_results.get(path)
        lint = self.results.get(path)
        return bool(result and lint and result.skill_hash != lint.content_hash)

    def _recall_judgment(self, path: Path) -> None:
        """Show the last judgment of unchanged content after a restart: the verdicts are
        cached on disk by content, so no request is made (a thread: it reads a few files)."""
        lint = self.results.get(path)
        if lint is None or path in self.judge_results or path == self._judging:
            return
        key = (path, lint.content_hash)
        if key in self._recalled:
            return
        self._recalled.add(key)
        settings, _err = self.ws.settings(path)
        skill = lint.skill

        def work() -> None:
            from skillforge.authoring.judge.run import last_judgment

            result = last_judgment(skill, settings)
            if result is not None:
                self.post_message(JudgeRecalled(path, result))

        self.run_worker(work, name="judge-recall", group="judge-recall", thread=True,
                        exit_on_error=False)

    def on_judge_recalled(self, message: JudgeRecalled) -> None:
        if message.path in self.judge_results or message.path == self._judging:
            return  # a judge ran meanwhile: its answer is the newer one
        self.on_judge_done(JudgeDone(message.path, message.result))

    def judge_after_lint(self, path: Path) -> None:
        """Called when a lint of `path` finished: update staleness, maybe auto-judge."""
        if path != self.current:
            return
        self._recall_judgment(path)
        stale = self._judge_is_stale(path)
        if (pane := self.pane(JudgePane)) is not None:
            pane.mark_stale(stale)
        settings, _err = self.ws.settings(path)
        if settings.judge.auto and (stale or path not in self.judge_results):
            if self._auto_judge_timer is not None:
                self._auto_judge_timer.stop()
            self._auto_judge_timer = self.set_timer(AUTO_JUDGE_DELAY_S, self.start_judge)

    def judge_switched(self, path: Path) -> None:
        """The workbench switched skill: show that skill's last verdict."""
        self.judge_sync()

    def judge_sync(self) -> None:
        """Give the Judge tab the current skill's last verdict (also when it first mounts)."""
        pane = self.pane(JudgePane)
        if pane is not None and self.current is not None:
            pane.set_judging(self._judging == self.current)
            result = self.judge_results.get(self.current)
            pane.show_result(result, stale=self._judge_is_stale(self.current))
            pane.show_labels(self._rubric_labels(result) if result is not None else {})
