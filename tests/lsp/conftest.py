"""A real LSP client (pytest-lsp, on pygls) driving `skillforge lsp` as a process.

`lsp` starts the server the way an editor does (`python -m skillforge lsp`, stdio) and
initializes it as VS Code would; `Session` adds what the tests do over and over: open a
document, change it, wait for the diagnostics of a given version, ask for hovers and code
actions, apply an edit. Each test lints a copy of a fixture skill under tmp_path.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

FIXTURES = Path(__file__).parent / "fixtures"
# Short, so the tests do not wait long; the default (50 ms) is measured by bench_lsp.
DEBOUNCE_MS = 20
TIMEOUT = 30.0


def recording_client() -> LanguageClient:
    """pytest-lsp's test client, also keeping every publishDiagnostics with its version."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = []  # type: ignore[attr-defined]

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        client.published.append(params)  # type: ignore[attr-defined]

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    register_lsp_features(client, features)
    return client


def server_command(debounce_ms: int = DEBOUNCE_MS) -> list[str]:
    return [sys.executable, "-m", "skillforge", "lsp", "--debounce", str(debounce_ms)]


def uri(path: Path) -> str:
    return from_fs_path(str(path))


class Session:
    """One editor session against the server: documents by path, versions counted."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}

    @property
    def published(self) -> list[types.PublishDiagnosticsParams]:
        return self.client.published  # type: ignore[attr-defined]

    async def wait_for(self, predicate, what: str) -> types.PublishDiagnosticsParams:
        """The first diagnostics notification (already received or to come) that satisfies
        `predicate`."""
        seen = 0

        async def scan():
            nonlocal seen
            while True:
                for params in self.published[seen:]:
                    seen += 1
                    if predicate(params):
                        return params
                await self.client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

        try:
            return await asyncio.wait_for(scan(), TIMEOUT)
        except TimeoutError:
            raise AssertionError(f"no diagnostics {what} within {TIMEOUT} s; got "
                                 f"{[(p.uri, p.version) for p in self.published]}") from None

    async def diagnostics(self, path: Path) -> list[types.Diagnostic]:
        """The diagnostics published for the current version of the open document `path`."""
        u, v = uri(path), self.versions[uri(path)]
        params = await self.wait_for(lambda p: p.uri == u and p.version == v,
                                     f"for {path.name} version {v}")
        return list(params.diagnostics)

    async def latest(self, path: Path, predicate, what: str) -> list[types.Diagnostic]:
        """Diagnostics of a file (open or not) once a notification for it satisfies `predicate`."""
        u = uri(path)
        params = await self.wait_for(lambda p: p.uri == u and predicate(p.diagnostics), what)
        return list(params.diagnostics)

    def open(self, path: Path, language: str = "markdown") -> None:
        u = uri(path)
        self.versions[u] = 1
        self.texts[u] = path.read_text("utf-8")
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=u, language_id=language, version=1,
                                                 text=self.texts[u])))

    def change(self, path: Path, text: str) -> None:
        """Replace the whole buffer (unsaved): a full-text didChange."""
        u = uri(path)
        self.versions[u] += 1
        self.texts[u] = text
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=u, version=self.versions[u]),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    def text(self, path: Path) -> str:
        return self.texts[uri(path)]

    async def hover(self, path: Path, line: int, character: int) -> types.Hover | None:
        return await self.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)),
            position=types.Position(line=line, character=character)))

    async def code_actions(self, path: Path, diag: types.Diagnostic) -> list[types.CodeAction]:
        return await self.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)), range=diag.range,
            context=types.CodeActionContext(diagnostics=[diag]))) or []


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP text edits (positions in UTF-16 units over `\\n` lines), last first."""
    lines = text.split("\n")

    def offset(pos: types.Position) -> int:
        before = sum(len(ln) + 1 for ln in lines[:pos.line])
        line = lines[pos.line] if pos.line < len(lines) else ""
        units, chars = 0, 0
        for ch in line:
            if units >= pos.character:
                break
            units += 2 if ord(ch) > 0xFFFF else 1
            chars += 1
        return before + chars

    spans = sorted(((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits),
                   reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


@pytest.fixture(autouse=True)
def _warm(warm_caches):
    """The server finds the caches an earlier run would have left (tests/conftest.py)."""


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    """A copy of the weekly-report fixture: a small real skill with one defect, an unknown
    frontmatter key (SF112), and no evals (SF313, info)."""
    dest = tmp_path / "weekly-report"
    shutil.copytree(FIXTURES / "weekly-report", dest)
    return dest


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command(),
                                              client_factory=recording_client))
async def client(lsp_client: LanguageClient, tmp_path: Path):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[types.WorkspaceFolder(uri=uri(tmp_path), name="skills")]))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def lsp(client: LanguageClient) -> Session:
    """The initialized client as an editor session."""
    return Session(client)
