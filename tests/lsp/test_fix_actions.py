"""Code actions beyond the preferred text fix: an unsafe fix that deletes files, a client
that cannot delete files, positions in UTF-16 units, actions asked before the lint caught
up with the typing, a config saved in the editor."""

from __future__ import annotations

from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.lsp.conftest import Session, module_loop, recording_client, server_command, uri

# The bytes of a Finder .DS_Store's header: a junk file (SF405) an editor cannot show.
DS_STORE = b"\x00\x00\x00\x01Bud1\x00\x00\x10\x00"


@module_loop
async def test_an_unsafe_fix_deletes_junk_and_is_not_preferred(lsp: Session, skill: Path):
    (skill / ".DS_Store").write_bytes(DS_STORE)
    md = skill / "SKILL.md"
    lsp.open(md)
    (junk,) = [d for d in await lsp.diagnostics(md) if d.code == "SF405"]
    # A binary file's finding sits on SKILL.md's first line, naming the file.
    assert junk.range.start.line == 0 and ".DS_Store" in junk.message

    actions = await lsp.code_actions(md, junk)
    (action,) = [a for a in actions if a.data["rule"] == "SF405"]
    assert action.is_preferred is False
    assert action.data["safety"] == "unsafe" and "(unsafe" in action.title
    (op,) = action.edit.document_changes
    assert isinstance(op, types.DeleteFile) and op.uri == uri(skill / ".DS_Store")


@module_loop
async def test_positions_count_utf16_units(lsp: Session, skill: Path):
    """A character outside the BMP is two UTF-16 units: the hover and the quick fix must
    land on the same characters the editor shows."""
    md = skill / "SKILL.md"
    lsp.open(md)
    await lsp.diagnostics(md)
    comment = "<!-- 📊 skillforge: disable SF309 -->"
    lsp.change(md, lsp.text(md).replace("category: reporting", "category: 📊 reporting")
               + "\n" + comment + "\n")
    (unknown,) = [d for d in await lsp.diagnostics(md) if d.code == "SF112"]
    assert unknown.range.end.character == len("category: 📊 reporting") + 1

    row = lsp.text(md).split("\n").index(comment)
    at = comment.index("SF309") + 1  # code points; the emoji before it is 2 units
    hover = await lsp.hover(md, row, at + 1)
    assert hover.contents.value.startswith("**SF309**")
    assert hover.range.start.character == at

    (action,) = await lsp.code_actions(md, unknown)
    (change,) = action.edit.document_changes
    (edit,) = change.edits
    assert edit.new_text == "metadata:\n  category: 📊 reporting\n"
    assert (edit.range.start.line, edit.range.end.line) == (3, 4)


async def actions_at(lsp: Session, path: Path, start: tuple[int, int],
                     end: tuple[int, int] | None = None) -> list[str]:
    """The rules of the code actions an editor gets for the cursor (or a selection)."""
    (a, b), (c, d) = start, end or start
    got = await lsp.client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(path)),
        range=types.Range(start=types.Position(line=a, character=b),
                          end=types.Position(line=c, character=d)),
        context=types.CodeActionContext(diagnostics=[])))
    return [x.data["rule"] for x in got or []]


@module_loop
async def test_a_findings_fixes_are_offered_anywhere_on_its_line(lsp: Session, skill: Path):
    """A finding's range starts at its column (the link, mid-line), but a cursor anywhere
    on the line, or a selection across it, gets its fixes (issue 37)."""
    md = skill / "SKILL.md"
    md.write_text(md.read_text().replace("The numbers come from `scripts/tally.py`",
                                         "The numbers come from [the tally](scripts/Tally.py)"))
    lsp.open(md)
    (link,) = [d for d in await lsp.diagnostics(md) if d.code == "SF116"]
    row = link.range.start.line
    assert link.range.start.character > 0  # the finding starts mid-line
    assert "SF116" in await actions_at(lsp, md, (row, link.range.start.character))
    assert "SF116" in await actions_at(lsp, md, (row, 0))  # the line's start
    assert "SF116" in await actions_at(lsp, md, (row - 1, 3), (row, 2))  # a selection into it
    assert "SF116" not in await actions_at(lsp, md, (row + 1, 0))  # the next line
    assert "SF116" not in await actions_at(lsp, md, (row - 2, 0), (row - 1, 5))


@module_loop
async def test_saving_skillforge_toml_relints(lsp: Session, skill: Path):
    md = skill / "SKILL.md"
    lsp.open(md)
    assert "SF112" in {d.code for d in await lsp.diagnostics(md)}
    toml = skill / "skillforge.toml"
    toml.write_text('[lint]\ndisable = ["SF112"]\n')
    lsp.client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri(toml))))
    await lsp.latest(md, lambda d: {x.code for x in d} == {"SF313"}, "without SF112")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command(debounce_ms=10_000),
                                              client_factory=recording_client))
async def slow_client(lsp_client: LanguageClient, tmp_path: Path):
    """A server that waits 10 s after an edit: the lint never catches up within a test.
    Its own, not the module's: the debounce is the server's, for every document."""
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[types.WorkspaceFolder(uri=uri(tmp_path), name="skills")]))
    yield
    await lsp_client.shutdown_session()


async def test_code_actions_fit_the_text_typed_since_the_last_lint(slow_client, skill: Path):
    lsp = Session(slow_client)
    md = skill / "SKILL.md"
    lsp.open(md)
    (unknown,) = [d for d in await lsp.diagnostics(md) if d.code == "SF112"]
    # Typed, not yet linted (debounce pending): the key is now `team`, a line lower.
    lsp.change(md, lsp.text(md).replace("category: reporting", "owner: ops\nteam: reporting"))
    moved = types.Diagnostic(range=types.Range(start=types.Position(line=4, character=0),
                                               end=types.Position(line=4, character=4)),
                             message=unknown.message, code="SF112", source="skillforge")
    titles = [a.title for a in await lsp.code_actions(md, moved)]
    assert titles == ["SF112: Move `team` under `metadata:`"]
    actions = await lsp.code_actions(md, moved)
    assert actions[0].edit.document_changes[0].text_document.version == 2


def test_file_operations_need_a_client_that_takes_them(skill: Path):
    from pygls.workspace import PositionCodec

    from skillforge.lsp.actions import workspace_edit
    from skillforge.models.fixes import FileOp, Fix, TextEdit
    from skillforge.models.skill_loader import load_skill

    loaded = load_skill(skill)
    delete = Fix(rule="SF405", title="Delete .DS_Store", safety="unsafe",
                 file_ops=(FileOp(kind="delete", path=".DS_Store"),))
    reencode = Fix(rule="SF118", title="Re-save as UTF-8", safety="safe",
                   file_ops=(FileOp(kind="reencode", path="SKILL.md", encoding="utf-8-sig"),))
    text = Fix(rule="SF112", title="Move", safety="safe", edits=(TextEdit(
        path="SKILL.md", start_line=3, start_col=0, end_line=4, end_col=0, new_text=""),))
    codec = PositionCodec()
    common = dict(skill=loaded, root=skill, codec=codec, versions={})
    assert workspace_edit(delete, **common, document_changes=True, resource_ops=False) is None
    assert workspace_edit(reencode, **common, document_changes=True, resource_ops=True) is None
    plain = workspace_edit(text, **common, document_changes=False, resource_ops=False)
    assert list(plain.changes) == [uri(skill / "SKILL.md")] and plain.document_changes is None
