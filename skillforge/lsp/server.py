"""The language server: lint the skill an open document belongs to, publish its findings,
answer hovers and code actions. Built on pygls; started by `skillforge lsp`.

Scheduling. Each skill has one lint at a time, run in one worker thread (the checks are
pure Python: more threads would only fight over the GIL) so requests such as hovers are
answered meanwhile. An edit (`didChange`) starts a timer of `debounce` seconds; each new
edit restarts it, so typing lints once per pause, on the unsaved text. Opening and saving
lint at once. A lint whose documents changed while it ran is not published (a newer one is
on its way). Between edits nothing runs: no polling, only the event loop waiting on stdin.

Publishing. Every file of the skill with findings gets its diagnostics, open or not; a file
whose findings are gone gets an empty list once; an open file gets a list after every lint,
so a client always hears back about the version it sent. The in-process checks publish
first; ruff and shellcheck (SF602/SF603) follow when the skill has scripts.
"""

from __future__ import annotations

import asyncio
import logging
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from skillforge import __version__
from skillforge.config import CONFIG_NAME
from skillforge.lsp import DEBOUNCE_MS
from skillforge.lsp.documents import lint_open, relative_in, skill_root_for
from skillforge.lsp.diagnostics import DiagnosticBuilder
from skillforge.workspace.live import LintResult, lint_scripts

log = logging.getLogger("skillforge.lsp")


@dataclass
class SkillState:
    """One skill with documents open in the editor."""

    root: Path
    timer: asyncio.TimerHandle | None = None
    task: asyncio.Task | None = None
    again: bool = False
    # uri -> the diagnostics last published for it (only files with findings)
    published: dict[str, list[types.Diagnostic]] = field(default_factory=dict)
    result: LintResult | None = None
    # uri -> document version the last published lint read
    versions: dict[str, int] = field(default_factory=dict)


class SkillforgeServer(LanguageServer):
    """pygls's server plus the skills being edited and the lint worker."""

    def __init__(self, debounce_ms: int = DEBOUNCE_MS) -> None:
        super().__init__("skillforge", __version__,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.debounce = debounce_ms / 1000
        self.launch_dir = Path.cwd()
        self.skills: dict[Path, SkillState] = {}
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skillforge-lint")

    # -- documents -------------------------------------------------------------------------

    def path_of(self, uri: str) -> Path | None:
        # Not resolved: the client's spelling of a path (through a symlink) is the one its
        # URIs use, and the one diagnostics must be published under.
        path = to_fs_path(uri) if uri.startswith("file:") else None
        return Path(path).absolute() if path else None

    def state_for(self, uri: str) -> SkillState | None:
        """The state of the skill `uri` belongs to, created on first sight."""
        path = self.path_of(uri)
        root = skill_root_for(path) if path is not None else None
        if root is None:
            return None
        if root not in self.skills:
            self.skills[root] = SkillState(root)
        return self.skills[root]

    def open_documents(self, root: Path) -> dict[str, tuple[str, str, int]]:
        """uri -> (relative path, text, version) of the open documents of the skill at `root`
        (a document in a nested skill belongs to that one)."""
        out: dict[str, tuple[str, str, int]] = {}
        for uri, doc in list(self.workspace.text_documents.items()):
            path = self.path_of(uri)
            rel = relative_in(root, path) if path is not None else None
            if rel is not None and skill_root_for(path) == root:
                out[uri] = (rel, doc.source, doc.version or 0)
        return out

    # -- scheduling ------------------------------------------------------------------------

    def schedule(self, state: SkillState, delay: float) -> None:
        """Lint `state`'s skill after `delay` seconds (a pending timer is restarted)."""
        if state.timer is not None:
            state.timer.cancel()
        loop = asyncio.get_running_loop()
        state.timer = loop.call_later(delay, self._start, state)

    def _start(self, state: SkillState) -> None:
        state.timer = None
        if state.task is not None and not state.task.done():
            state.again = True
            return
        state.task = asyncio.get_running_loop().create_task(self._lint(state))

    async def _lint(self, state: SkillState) -> None:
        loop = asyncio.get_running_loop()
        state.again = True
        while state.again and state.root in self.skills:
            state.again = False
            docs = self.open_documents(state.root)
            texts = {rel: text for rel, text, _v in docs.values()}
            versions = {uri: v for uri, (_r, _t, v) in docs.items()}
            try:
                result = await loop.run_in_executor(
                    self.pool, lint_open, state.root, texts, self.launch_dir)
                if not self._current(state, versions):
                    continue
                open_uris = {rel: uri for uri, (rel, _t, _v) in docs.items()}
                self.publish(state, result, versions, open_uris)
                if result.report.scripts_pending:
                    result = await loop.run_in_executor(self.pool, lint_scripts, result)
                    if self._current(state, versions):
                        self.publish(state, result, versions, open_uris)
            except Exception as exc:  # a bug in a check: said once, the server lives on
                log.exception("lint of %s failed", state.root)
                self.window_show_message(types.ShowMessageParams(
                    type=types.MessageType.Error,
                    message=f"skillforge: linting {state.root} failed: {exc}"))

    def _current(self, state: SkillState, versions: dict[str, int]) -> bool:
        """True when the open documents still hold the text that was linted."""
        if state.again or state.root not in self.skills:
            return False
        now = {uri: v for uri, (_r, _t, v) in self.open_documents(state.root).items()}
        return now == versions

    # -- publishing ------------------------------------------------------------------------

    def publish(self, state: SkillState, result: LintResult, versions: dict[str, int],
                open_uris: dict[str, str]) -> None:
        builder = DiagnosticBuilder(state.root, result.skill, self.workspace.position_codec,
                                    open_uris)
        by_uri = builder.build(result.report.findings)
        if result.config_error:
            uri, diag = config_diagnostic(result.config_error, self.launch_dir, state.root)
            by_uri.setdefault(uri, []).insert(0, diag)
        targets = set(by_uri) | set(state.published) | set(versions)
        for uri in sorted(targets):
            diags = by_uri.get(uri, [])
            if uri not in versions and diags == state.published.get(uri, []):
                continue
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=uri, diagnostics=diags, version=versions.get(uri)))
        state.published = by_uri
        state.result = result
        state.versions = versions

    def forget(self, state: SkillState) -> None:
        """The skill's last document closed: stop its work and clear its diagnostics."""
        if state.timer is not None:
            state.timer.cancel()
        self.skills.pop(state.root, None)
        for uri in state.published:
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def config_diagnostic(error: str, launch_dir: Path, root: Path) -> tuple[str, types.Diagnostic]:
    """A broken skillforge.toml as an error on that file (the lint ran with the defaults)."""
    head = error.split(": ", 1)[0]
    path = (launch_dir / head) if not Path(head).is_absolute() else Path(head)
    if not (path.name == CONFIG_NAME and path.is_file()):
        path = root / CONFIG_NAME
    m = re.search(r"at line (\d+)", error)
    row = int(m.group(1)) - 1 if m else 0
    return from_fs_path(str(path)) or "", types.Diagnostic(
        range=types.Range(start=types.Position(line=row, character=0),
                          end=types.Position(line=row + 1, character=0)),
        message=f"{error} (the skill was linted with the default settings)",
        severity=types.DiagnosticSeverity.Error, code="config", source="skillforge")
