"""When a worker of the workbench fails: say what kind of failure it is and put the tab
that started it back in a usable state (Start enabled again, the status line reset).

A mixin of WorkbenchScreen. Workers catch the failures they expect and post them as their
own "finished" messages; whatever escapes a worker arrives here, is classified
(`skillforge.screens.failures`), and is called a bug only when skillforge did not expect it.
"""

from __future__ import annotations

from textual.worker import Worker, WorkerState

from skillforge.screens.failures import Failure, classify

# worker group (or its prefix before ":") -> what it was doing, and what a ValueError means
GROUPS: dict[str, tuple[str, str | None]] = {
    "lint": ("Linting", "skill content"),
    "lint-all": ("Linting the folder", "skill content"),
    "scripts": ("Linting the scripts", None),
    "trial": ("The trial run", "configuration"),
    "evals-model": ("Asking the model", "model output"),
    "judge": ("The judge", "model output"),
    "lift": ("Computing Skill Lift", None),
    "compare": ("Opening the case side by side", None),
    "runs": ("Reading the run store", None),
    "runs-watch": ("Watching the run store", None),
    "watch": ("Watching the folder", None),
}


class WorkerFailures:
    """Classify a failed worker and reset its tab; mixed into WorkbenchScreen."""

    def show_failure(self, failure: Failure, *, timeout: float = 10) -> None:
        """One notice: the kind as title, what happened and what to do as the message."""
        self.notify(failure.message, title=failure.title, severity="error", timeout=timeout)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state != WorkerState.ERROR:
            return
        worker = event.worker
        group = worker.group.split(":", 1)[0]
        doing, expected = GROUPS.get(group, (worker.name or "A task", None))
        failure = classify(worker.error, doing, expected)
        self.show_failure(failure)
        reset = {"lint": self.lint_failed, "lint-all": self.lint_failed,
                 "trial": self.trial_failed, "evals-model": self.evals_model_failed,
                 "judge": self.judge_failed, "lift": self.lift_failed}.get(group)
        if reset is not None:
            reset(failure)
