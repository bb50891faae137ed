"""Messages of the workbench, named for what happened (STYLE.md)."""

from __future__ import annotations

from pathlib import Path

from textual.message import Message

from skillforge.workspace.live import LintResult


class SkillChanged(Message):
    """Files changed under the opened folder. Pending ones merge: the newest replaces them."""

    def __init__(self, paths: set[str]) -> None:
        super().__init__()
        self.paths = paths

    def can_replace(self, message: Message) -> bool:
        if isinstance(message, SkillChanged):
            # Nothing is lost: keep the union of every change waiting in the queue.
            self.paths |= message.paths
            return True
        return False


class LintFinished(Message):
    """The fast lint phase of one skill finished."""

    def __init__(self, result: LintResult) -> None:
        super().__init__()
        self.result = result


class ScriptsLinted(Message):
    """ruff/shellcheck results for one skill arrived and were merged into its report."""

    def __init__(self, result: LintResult) -> None:
        super().__init__()
        self.result = result


class WatchLost(Message):
    """The watched folder went away (deleted or renamed); the workbench waits for it."""

    def __init__(self, root: Path, reason: str) -> None:
        super().__init__()
        self.root = root
        self.reason = reason


class WatchResumed(Message):
    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root
