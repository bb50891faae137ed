"""Fixes as data: what a fix changes in a skill, and how safe it is to apply unasked.

A `Fix` is a list of `TextEdit`s (replace a range of one file's text) and `FileOp`s (rename,
delete, re-encode a file). The CLI (`skillforge lint --fix`), the workbench (`f`/`F`) and the
LSP server's code actions all consume the same `Fix` objects; `linters.fixes` makes them.

Positions are 0-based, like the Language Server Protocol's: `line` counts `\\n` line breaks
in the file's decoded text (a `\\r` before the break is the last character of its line) and
`col` counts Python `str` characters (Unicode code points; an LSP client that negotiated
UTF-16 positions converts). The text is what `SkillFile.text` holds: decoded, with a UTF-8
byte-order mark removed. The end position is exclusive.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Safety = Literal["safe", "unsafe"]


class TextEdit(BaseModel):
    """Replace `path`'s text from (start_line, start_col) up to (end_line, end_col)."""

    model_config = ConfigDict(frozen=True)

    path: str
    start_line: int = Field(ge=0)
    start_col: int = Field(ge=0)
    end_line: int = Field(ge=0)
    end_col: int = Field(ge=0)
    new_text: str


class FileOp(BaseModel):
    """A change to a whole file: `rename` to `new_path`, `delete` (a folder: with everything
    in it), or `reencode`: read it with `encoding` and write its text back as UTF-8 without
    a byte-order mark."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["rename", "delete", "reencode"]
    path: str
    new_path: str | None = None
    encoding: str | None = None


class Fix(BaseModel):
    """One way to resolve one finding. `safe`: the skill means the same after it (applied by
    `--fix`); `unsafe`: it changes meaning or deletes (applied only with `--unsafe`)."""

    model_config = ConfigDict(frozen=True)

    rule: str
    title: str
    safety: Safety
    edits: tuple[TextEdit, ...] = ()
    file_ops: tuple[FileOp, ...] = ()

    @property
    def paths(self) -> set[str]:
        """Every file this fix writes, deletes or renames."""
        out = {e.path for e in self.edits} | {op.path for op in self.file_ops}
        return out | {op.new_path for op in self.file_ops if op.new_path}


def whole_text_edit(path: str, old: str, new: str) -> TextEdit:
    """One edit replacing all of `old` (the file's current text) with `new`."""
    lines = old.split("\n")
    return TextEdit(path=path, start_line=0, start_col=0, end_line=len(lines) - 1,
                    end_col=len(lines[-1]), new_text=new)
