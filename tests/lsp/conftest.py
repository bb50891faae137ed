"""A real LSP client (pytest-lsp, on pygls) driving `skillforge lsp` as a process.

`shared_client` starts the server the way an editor does (`python -m skillforge lsp`,
stdio) and initializes it as VS Code would, once per test module: starting one costs ~0.65
CPU-s (lsprotocol, pygls, the linters), more than most tests spend. `lsp` is one test's
editor session on it; `Session` adds what the tests do over and over: open a document,
change it, wait for the diagnostics of a given version, ask for hovers and code actions,
apply an edit, and, at the end of the test, close what it opened. Each test lints its own
copy of a fixture skill under tmp_path, so the tests of a module share the server's process
but no document, skill or diagnostic.

A test that needs a server of its own (another debounce or client, a server it shuts down,
settings it changes) starts one with a function-scoped `pytest_lsp.fixture`, as
test_fix_actions's `slow_client` does.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pygls.protocol import default_converter
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from tests.conftest import isolated_dirs, warm_cache_dir
from tests.llm_fixtures import PROVIDER_ENV_PREFIXES

FIXTURES = Path(__file__).parent / "fixtures"
# Short, so the tests do not wait long; the default (50 ms) is measured by bench_lsp.
DEBOUNCE_MS = 20
TIMEOUT = 30.0

# The mark of an async test that uses `lsp`: it runs in its module's event loop, the one the
# module's server (`shared_client`) was started in and is read in.
module_loop = pytest.mark.asyncio(loop_scope="module")


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
    """One editor session against the server: documents by path, versions counted.

    The client may be shared with earlier tests: the session sees only the notifications
    received since it began, and its documents (open: in `versions`) are its own."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}
        self.start = len(client.published)  # type: ignore[attr-defined]

    @property
    def published(self) -> list[types.PublishDiagnosticsParams]:
        """The diagnostics notifications received since this session began."""
        return self.client.published[self.start:]  # type: ignore[attr-defined]

    async def wait_for(self, predicate, what: str) -> types.PublishDiagnosticsParams:
        """The first diagnostics notification (received since the session began, or to come)
        that satisfies `predicate`."""
        seen = self.start
        received = self.client.published  # type: ignore[attr-defined]

        async def scan():
            nonlocal seen
            while True:
                for params in received[seen:]:
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

    def close(self, path: Path) -> None:
        """didClose: the document is no longer open (its unsaved text no longer counts)."""
        self._close(uri(path))

    async def close_all(self) -> None:
        """Close every document still open, as an editor closing its window does, and wait
        until the server has taken it in: it answers a request after the notifications sent
        before it, so its last word on these documents (the empty diagnostics of a skill it
        forgets) has come by the time the answer does."""
        closed = list(self.versions)
        for u in closed:
            self._close(u)
        if closed:
            await asyncio.wait_for(self.client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=closed[-1]),
                    range=types.Range(start=types.Position(line=0, character=0),
                                      end=types.Position(line=0, character=0)),
                    context=types.CodeActionContext(diagnostics=[]))), TIMEOUT)

    def _close(self, u: str) -> None:
        del self.versions[u], self.texts[u]
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=u)))

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


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                        fresh_root: Path, _warm_cache_seed: Path):
    """The server the tests of one module share (each through its own `lsp` session).

    What pytest_lsp.fixture does, at module scope, with the isolation the per-test fixtures
    (tests/conftest.py's `_isolated_caches`, `warm_caches`) give a server a test starts: a
    module fixture is set up before them, so its server gets its own cache and config dirs,
    and no provider keys, by its environment. The workspace folder (the launch directory whose
    skillforge.toml applies) is pytest's base temp dir, the one holding every test's tmp_path:
    as with a server per test on its tmp_path, each test's skill lies inside it, and no test
    writes a skillforge.toml there."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(PROVIDER_ENV_PREFIXES)}
    env.update(isolated_dirs(fresh_root))
    warm_cache_dir(_warm_cache_seed, env["SKILLFORGE_CACHE_DIR"])
    config = ClientServerConfig(server_command=server_command(), client_factory=recording_client,
                                server_env=env)
    client = await config.start(devtools=request.config.getoption("devtools"))
    workspace = tmp_path_factory.getbasetemp()
    try:
        await client.initialize_session(types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            workspace_folders=[types.WorkspaceFolder(uri=uri(workspace), name="skills")]))
        yield client
        await client.shutdown_session()
    finally:
        await client.stop()


@pytest_asyncio.fixture(loop_scope="module")
async def lsp(request: pytest.FixtureRequest, shared_client: LanguageClient):
    """This test's editor session on its module's server; the documents it opened are closed
    at the end, so the server forgets the test's skill (no lint of it runs on)."""
    marker = request.node.get_closest_marker("asyncio")
    if marker is None or marker.kwargs.get("loop_scope") != "module":
        pytest.fail(f"{request.node.name} uses the module's server: mark it `module_loop`",
                    pytrace=False)
    if shared_client.error is not None or shared_client.stopped:
        pytest.fail(f"the module's server is gone: {shared_client.error}", pytrace=False)
    session = Session(shared_client)
    yield session
    if not shared_client.stopped:
        await session.close_all()
