"""The workbench's live lint loop: watch the folder, lint in workers, merge results.

A mixin of WorkbenchScreen (handlers by naming convention, so they dispatch through the
MRO). The chain (STYLE.md, after Harlequin): a watcher worker posts `SkillChanged`; the
handler starts an exclusive thread worker per skill that lints and posts `LintFinished`;
the handler stores the result and the widgets re-render; a second worker runs
ruff/shellcheck and posts `ScriptsLinted`, merged when it arrives. Nothing here blocks.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from skillforge.app.messages import (
    LintFinished,
    ScriptsLinted,
    SkillChanged,
    WatchLost,
    WatchResumed,
)
from skillforge.workspace.live import LintResult, lint_fast, lint_scripts
from skillforge.workspace.watch import watch_changes
from widgets.lint_summary import LintSummary


class LiveLint:
    """The watch-lint-render loop; mixed into WorkbenchScreen."""

    async def _watch_loop(self) -> None:
        root = self.ws.root
        lost = False
        while True:
            if not root.is_dir():
                if not lost:
                    lost = True
                    self.post_message(WatchLost(root, "the folder was removed or renamed"))
                await asyncio.sleep(0.25)
                continue
            if lost:
                lost = False
                self.post_message(WatchResumed(root))
            try:
                async for changed in watch_changes(root, self.debounce_ms):
                    self.post_message(SkillChanged(changed))
                    if not root.is_dir():
                        break
            except (OSError, RuntimeError) as exc:
                if root.is_dir():
                    self.notify(f"Watching {root} failed ({exc}); retrying.", severity="warning")
            await asyncio.sleep(0.05)

    def lint_all(self) -> None:
        """The current skill first (what the author looks at), then the rest in one worker."""
        if self.current is not None:
            self.lint(self.current)
        others = [p for p in self.ws.skills if p != self.current]
        if not others:
            return
        jobs = []
        for path in others:
            self._generation[path] = self._generation.get(path, 0) + 1
            jobs.append((path, self._generation[path]))
        ws = self.ws

        def work() -> None:
            for path, gen in jobs:
                self.post_message(LintFinished(lint_fast(ws, path, gen)))

        self.run_worker(work, name="lint all", group="lint-all", exclusive=True, thread=True,
                        exit_on_error=False)

    def lint(self, path: Path) -> None:
        """Start (or restart) the fast lint of one skill in a thread worker."""
        gen = self._generation.get(path, 0) + 1
        self._generation[path] = gen
        ws = self.ws
        early = ws.take_first_lint(path) if gen == 1 else None

        def work() -> None:
            if early is not None:
                try:
                    self.post_message(LintFinished(early.result()))
                    return
                except Exception:  # noqa: BLE001 - lint again below, where errors are reported
                    pass
            self.post_message(LintFinished(lint_fast(ws, path, gen)))

        self.run_worker(work, name=f"lint {path.name}", group=f"lint:{path}", exclusive=True,
                        thread=True, exit_on_error=False)

    def on_skill_changed(self, message: SkillChanged) -> None:
        if self.ws.structure_changed(message.paths) and self.ws.rescan():
            self._skills_changed()
        touched = {owner for p in message.paths if (owner := self.ws.owner_of(p)) is not None}
        if not touched and self.current is not None and not self.current.exists():
            touched = {self.current}
        for path in touched:
            self.lint(path)

    def on_lint_finished(self, message: LintFinished) -> None:
        result = message.result
        if result.generation < self._applied.get(result.path, 0):
            return  # an older lint finished after a newer one
        self._applied[result.path] = result.generation
        self.results[result.path] = result
        if result.config_error:
            self.notify(result.config_error, title="skillforge.toml ignored", severity="warning", timeout=8)
        self._refresh_sidebar()
        if result.path == self.current:
            self._show(result)
            if result.report.scripts_pending:
                self._lint_scripts(result)
            self.evals_after_lint(result)
        self.judge_after_lint(result.path)

    def _lint_scripts(self, result: LintResult) -> None:
        def work() -> None:
            self.post_message(ScriptsLinted(lint_scripts(result)))

        self.run_worker(work, name=f"scripts {result.path.name}", group=f"scripts:{result.path}",
                        exclusive=True, thread=True, exit_on_error=False)

    def on_scripts_linted(self, message: ScriptsLinted) -> None:
        result = message.result
        if result.generation != self._applied.get(result.path):
            return  # the skill changed again meanwhile; a newer lint is on its way
        self.results[result.path] = result
        self._refresh_sidebar()
        if result.path == self.current:
            self._show(result)

    def on_watch_lost(self, message: WatchLost) -> None:
        self.notify(f"{message.root}: {message.reason}. Waiting for it to come back.",
                    title="Folder gone", severity="warning", timeout=6)
        if self.current is not None:
            self.lint(self.current)

    def on_watch_resumed(self, message: WatchResumed) -> None:
        self.notify(f"{message.root} is back.", title="Watching again", timeout=3)
        if self.ws.rescan():
            self._skills_changed()
        self.lint_all()

    def lint_failed(self, failure) -> None:
        """A lint worker failed: the summary says so until the next lint succeeds."""
        if self.current is not None:
            self.query_one(LintSummary).error = failure.message.splitlines()[0][:200]
