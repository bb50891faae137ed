"""The LSP methods skillforge answers, registered on a `SkillforgeServer`.

Documents: `didOpen`, `didChange` (debounced), `didSave`, `didClose`. Requests: `hover`
(a rule's catalogue entry, a frontmatter key's meaning) and `codeAction` (the fixes of the
findings on the lines of the cursor or the selection). `initialize` takes the editor's
workspace folder as the launch directory whose skillforge.toml applies (as the folder
`skillforge lint` runs in).
"""

from __future__ import annotations

import asyncio

from lsprotocol import types

from skillforge.config import CONFIG_NAME
from skillforge.lsp.actions import code_action, workspace_edit
from skillforge.lsp.diagnostics import DiagnosticBuilder
from skillforge.lsp.documents import lint_open, skill_root_for
from skillforge.lsp.hover import hover_markdown
from skillforge.lsp.server import DEBOUNCE_MS, SkillforgeServer, SkillState
from skillforge.models.skill import SKILL_MD


def _inside(pos: types.Position, rng: types.Range) -> bool:
    start, end = (rng.start.line, rng.start.character), (rng.end.line, rng.end.character)
    return start <= (pos.line, pos.character) <= end


def _lines(rng: types.Range) -> tuple[int, int]:
    """The first and last line a range touches (an end at a line's start leaves that line)."""
    last = rng.end.line
    if rng.end.character == 0 and last > rng.start.line:
        last -= 1
    return rng.start.line, last


def _same_lines(a: types.Range, b: types.Range) -> bool:
    """Whether two ranges share a line: a finding's fixes are offered with the cursor (or a
    selection) anywhere on its line(s), not only inside its range, which starts at its column."""
    (a0, a1), (b0, b1) = _lines(a), _lines(b)
    return a0 <= b1 and b0 <= a1


def _known_state(ls: SkillforgeServer, uri: str) -> SkillState | None:
    path = ls.path_of(uri)
    root = skill_root_for(path) if path is not None else None
    return ls.skills.get(root) if root is not None else None


def _edit_support(ls: SkillforgeServer) -> tuple[bool, bool]:
    """(documentChanges, rename and delete operations) as the client declared them."""
    ws = ls.client_capabilities.workspace
    cap = ws.workspace_edit if ws is not None else None
    if cap is None:
        return False, False
    ops = set(cap.resource_operations or [])
    return bool(cap.document_changes), {types.ResourceOperationKind.Rename,
                                        types.ResourceOperationKind.Delete} <= ops


def build_server(debounce_ms: int = DEBOUNCE_MS) -> SkillforgeServer:
    server = SkillforgeServer(debounce_ms)

    @server.feature(types.INITIALIZE)
    def initialize(ls: SkillforgeServer, params: types.InitializeParams) -> None:
        folders = params.workspace_folders or []
        uri = folders[0].uri if folders else params.root_uri
        path = ls.path_of(uri) if uri else None
        if path is not None and path.is_dir():
            ls.launch_dir = path

    @server.feature(types.INITIALIZED)
    def initialized(ls: SkillforgeServer, params: types.InitializedParams) -> None:
        from linters.engine import warm_up

        # The first lint would pay for the rule modules and the tokenizer; the worker
        # loads them now, before any document arrives.
        ls.pool.submit(warm_up)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SkillforgeServer, params: types.DidOpenTextDocumentParams) -> None:
        if (state := ls.state_for(params.text_document.uri)) is not None:
            ls.schedule(state, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SkillforgeServer, params: types.DidChangeTextDocumentParams) -> None:
        if (state := ls.state_for(params.text_document.uri)) is not None:
            ls.schedule(state, ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SkillforgeServer, params: types.DidSaveTextDocumentParams) -> None:
        path = ls.path_of(params.text_document.uri)
        if path is not None and path.name == CONFIG_NAME:
            for state in list(ls.skills.values()):  # settings may have changed for every skill
                ls.schedule(state, 0)
        elif (state := ls.state_for(params.text_document.uri)) is not None:
            ls.schedule(state, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SkillforgeServer, params: types.DidCloseTextDocumentParams) -> None:
        state = _known_state(ls, params.text_document.uri)
        if state is None:
            return
        if ls.open_documents(state.root):
            ls.schedule(state, 0)  # the closed buffer's unsaved text no longer counts
        else:
            ls.forget(state)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: SkillforgeServer, params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        doc = ls.workspace.get_text_document(uri)
        lines = [ln.rstrip("\r\n") for ln in doc.lines]
        pos = doc.position_codec.position_from_client_units(doc.lines, params.position)
        state = _known_state(ls, uri)
        rules = [str(d.code) for d in (state.published.get(uri, []) if state else [])
                 if d.source == "skillforge" and _inside(params.position, d.range)]
        path = ls.path_of(uri)
        answer = hover_markdown(lines, pos.line, pos.character,
                                skill_md=path is not None and path.name == SKILL_MD,
                                diagnostic_rules=rules)
        if answer is None:
            return None
        text, span = answer
        rng = None
        if span is not None:
            row, start, end = span
            rng = doc.position_codec.range_to_client_units(doc.lines, types.Range(
                start=types.Position(line=row, character=start),
                end=types.Position(line=row, character=end)))
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=text), range=rng)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix]))
    async def code_actions(ls: SkillforgeServer,
                           params: types.CodeActionParams) -> list[types.CodeAction]:
        return await _code_actions(ls, params)

    return server


async def _code_actions(ls: SkillforgeServer,
                        params: types.CodeActionParams) -> list[types.CodeAction]:
    from linters.fixes import finding_key, fixes_for

    uri = params.text_document.uri
    state = _known_state(ls, uri)
    if state is None:
        return []
    docs = ls.open_documents(state.root)
    versions = {u: v for u, (_r, _t, v) in docs.items()}
    result = state.result
    if result is None or versions != state.versions:
        # Edited since the last lint: the fixes must fit the text the client holds now.
        texts = {rel: text for rel, text, _v in docs.values()}
        result = await asyncio.get_running_loop().run_in_executor(
            ls.pool, lint_open, state.root, texts, ls.launch_dir)
    open_uris = {rel: u for u, (rel, _t, _v) in docs.items()}
    builder = DiagnosticBuilder(state.root, result.skill, ls.workspace.position_codec, open_uris)
    here = []
    for f in result.report.findings:
        at, diag = builder.diagnostic(f)
        if at == uri and _same_lines(diag.range, params.range):
            here.append((f, diag))
    if not here:
        return []
    fixes = fixes_for(result.skill, [f for f, _d in here])
    document_changes, resource_ops = _edit_support(ls)
    actions: list[types.CodeAction] = []
    for f, diag in here:
        for fix in fixes.get(finding_key(f), []):
            edit = workspace_edit(fix, result.skill, state.root, ls.workspace.position_codec,
                                  versions, document_changes=document_changes,
                                  resource_ops=resource_ops, open_uris=open_uris)
            if edit is not None:
                actions.append(code_action(fix, edit, [diag]))
    actions.sort(key=lambda a: not a.is_preferred)
    return actions


def serve(debounce_ms: int = DEBOUNCE_MS) -> None:
    """Run the server on stdin/stdout until the client says exit."""
    build_server(debounce_ms).start_io()

