"""`skillforge import` on files that are not traces says what each one is and what to do
(issue 37: an empty, truncated, binary or gzip file all got "not a trace skillforge can
read"), while every real trace of the corpus still imports (tests/sessions/test_import_cli.py
imports them all).
"""

from __future__ import annotations

import codecs
import gzip
import json
import zipfile
from pathlib import Path

import pytest

from tests.sessions.test_import_cli import TRACES, skillforge

ATIF = TRACES / "atif" / "sachiny0106__Xelron__hello-world.trajectory.json"
CHAT = TRACES / "claude_code" / "ryoppippi__ccusage__chat.jsonl"


def make_files(folder: Path) -> None:
    """Each kind of file a user might pass by mistake, named for what it is."""
    (folder / "empty.jsonl").write_bytes(b"")
    (folder / "blank.json").write_text("\n  \n")
    (folder / "chat.jsonl.gz").write_bytes(gzip.compress(CHAT.read_bytes()))
    (folder / "renamed.jsonl").write_bytes(gzip.compress(CHAT.read_bytes()))
    (folder / "cut.trajectory.json").write_bytes(ATIF.read_bytes()[:3000])  # cut mid-write
    (folder / "cut-line.jsonl").write_bytes(CHAT.read_bytes().split(b"\n")[0][:300])
    (folder / "image.json").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
    (folder / "latin1.json").write_bytes('{"name": "Café"}'.encode("latin-1"))
    (folder / "utf16.json").write_bytes(codecs.BOM_UTF16_LE + ATIF.read_text().encode("utf-16-le"))
    with zipfile.ZipFile(folder / "export.json", "w") as zf:
        zf.write(ATIF, "trajectory.json")
    (folder / "notes.json").write_text("# Notes\n\nnot JSON at all\n")


@pytest.fixture(scope="module")
def errors(tmp_path_factory) -> dict[str, str]:
    """Each file's error from one `skillforge import ... --format json` (file name -> error)."""
    folder = tmp_path_factory.mktemp("unreadable")
    make_files(folder)
    names = sorted(p.name for p in folder.iterdir())
    proc = skillforge("import", *names, "--format", "json", "--state-dir", "st", cwd=folder)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["imported"] == []
    return {f["source"]: f["error"] for f in doc["failed"]}


def test_an_empty_file_is_called_empty(errors):
    assert errors["empty.jsonl"].startswith("empty.jsonl: the file is empty (0 bytes); nothing "
                                            "to import. Check the path")
    assert errors["blank.json"].startswith("blank.json: the file is empty (only whitespace)")


def test_a_gzip_file_says_to_gunzip_it_first(errors):
    assert errors["chat.jsonl.gz"] == ("chat.jsonl.gz: gzip-compressed; run `gunzip -k "
                                       "chat.jsonl.gz` first and import chat.jsonl")
    # Compressed under a plain name: the command writes the text beside it.
    assert errors["renamed.jsonl"] == ("renamed.jsonl: gzip-compressed; run `gunzip -c "
                                       "renamed.jsonl > renamed-plain.jsonl` first and import "
                                       "that")


def test_a_truncated_file_gets_its_json_error_and_the_question(errors):
    # The same words as with --trace-format atif (see below), where the cut is.
    assert errors["cut.trajectory.json"] == ("cut.trajectory.json: not valid JSON (line 52, "
                                             "column 17: Expecting ':' delimiter); is the file "
                                             "complete?")
    assert errors["cut-line.jsonl"].startswith("cut-line.jsonl: not valid JSON (line 1, column")
    assert errors["cut-line.jsonl"].endswith("is the file complete?")


def test_binary_files_are_called_binary(errors):
    assert errors["image.json"].startswith("image.json: a binary file (it holds NUL bytes), "
                                           "not a trace; expected a Claude Code")
    assert errors["latin1.json"].startswith("latin1.json: not UTF-8 text (byte 0xe9 at "
                                            "offset 13), so not a trace")
    assert errors["utf16.json"] == ("utf16.json: UTF-16 text; traces are UTF-8: convert it "
                                    "first (`iconv -f UTF-16 -t UTF-8 utf16.json > "
                                    "utf16-utf8.json`) and import that")
    assert errors["export.json"].startswith("export.json: a zip archive; extract it first "
                                            "(`unzip export.json`)")


def test_text_that_is_not_json_still_says_not_a_trace(errors):
    assert errors["notes.json"].startswith("notes.json: not a trace skillforge can read: it is "
                                           "text, not JSON (it starts with '# Notes')")


def test_every_message_differs_and_names_its_file(errors):
    assert len(errors) == 11
    for name, error in errors.items():
        assert error.startswith(f"{name}: ")
    generic = [n for n, e in errors.items() if e.split(": ", 1)[1].startswith(
        "not a trace skillforge can read; expected")]
    assert generic == []


def test_a_forced_format_gets_the_same_answers(tmp_path):
    make_files(tmp_path)
    cut = skillforge("import", "cut.trajectory.json", "--trace-format", "atif", "--state-dir",
                     "st", cwd=tmp_path)
    assert cut.returncode == 1
    assert ("cut.trajectory.json: not valid JSON (line 52, column 17: Expecting ':' "
            "delimiter); is the file complete?") in cut.stderr
    gz = skillforge("import", "chat.jsonl.gz", "--trace-format", "claude_code", "--state-dir",
                    "st", cwd=tmp_path)
    assert gz.returncode == 1 and "chat.jsonl.gz: gzip-compressed; run `gunzip" in gz.stderr
    empty = skillforge("import", "empty.jsonl", "--trace-format", "codex", "--state-dir", "st",
                       cwd=tmp_path)
    assert empty.returncode == 1 and "empty.jsonl: the file is empty (0 bytes)" in empty.stderr
