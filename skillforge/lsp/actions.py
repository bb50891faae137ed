"""Fixes (`linters.fixes`) as LSP code actions: one `quickfix` per fix, its edits and file
operations as a `WorkspaceEdit`, safe fixes marked preferred.

A fix's positions are 0-based lines split at `\\n` and columns in code points, over the
text the lint read (the editor's buffer for an open file), so they convert to the client's
encoding the same way diagnostics do. A fix that re-encodes a file (SF118) has no LSP form:
an editor keeps a file's encoding itself; `skillforge lint --fix` applies it. A fix that
renames or deletes files is offered only to a client that accepts those operations.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path
from pygls.workspace import PositionCodec

from skillforge.lsp.diagnostics import split_lines
from skillforge.models.fixes import Fix
from skillforge.models.skill import Skill


def _text_edit(codec: PositionCodec, lines: list[str], e) -> types.TextEdit:
    rng = types.Range(start=types.Position(line=e.start_line, character=e.start_col),
                      end=types.Position(line=e.end_line, character=e.end_col))
    return types.TextEdit(range=codec.range_to_client_units(lines or [""], rng),
                          new_text=e.new_text)


def workspace_edit(fix: Fix, skill: Skill, root: Path, codec: PositionCodec,
                   versions: Mapping[str, int], *, document_changes: bool,
                   resource_ops: bool,
                   open_uris: Mapping[str, str] | None = None) -> types.WorkspaceEdit | None:
    """The edit that applies `fix`, or None when this client cannot take it.

    `versions`: URI -> version of the open documents, so the client refuses an edit made
    for a text it no longer holds. `document_changes`/`resource_ops`: what the client said
    it supports (`workspace.workspaceEdit` capabilities). `open_uris`: relative path -> the
    URI the client opened that file under."""
    known = dict(open_uris or {})

    def uri_of(rel: str) -> str:
        return known.get(rel) or from_fs_path(str(root / rel)) or ""

    if any(op.kind == "reencode" for op in fix.file_ops):
        return None
    if fix.file_ops and not (document_changes and resource_ops):
        return None
    by_path: dict[str, list[types.TextEdit]] = {}
    for e in fix.edits:
        f = skill.file(e.path)
        lines = split_lines(f.text or "") if f is not None else [""]
        by_path.setdefault(e.path, []).append(_text_edit(codec, lines, e))
    if not document_changes:
        return types.WorkspaceEdit(changes={uri_of(p): edits for p, edits in by_path.items()})
    changes: list = []
    for path, edits in by_path.items():
        uri = uri_of(path)
        changes.append(types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(
                uri=uri, version=versions.get(uri)),
            edits=edits))
    for op in fix.file_ops:
        if op.kind == "rename" and op.new_path:
            changes.append(types.RenameFile(old_uri=uri_of(op.path),
                                            new_uri=uri_of(op.new_path)))
        elif op.kind == "delete":
            changes.append(types.DeleteFile(uri=uri_of(op.path), options=types.DeleteFileOptions(
                recursive=True, ignore_if_not_exists=True)))
    return types.WorkspaceEdit(document_changes=changes)


def code_action(fix: Fix, edit: types.WorkspaceEdit,
                diagnostics: list[types.Diagnostic]) -> types.CodeAction:
    safe = fix.safety == "safe"
    title = f"{fix.rule}: {fix.title}" + ("" if safe else " (unsafe: changes meaning or deletes)")
    return types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix,
                            diagnostics=diagnostics or None, is_preferred=safe, edit=edit,
                            data={"rule": fix.rule, "safety": fix.safety})
