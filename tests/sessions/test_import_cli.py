"""`skillforge import` end to end, in a subprocess, on corpus traces (text and json output)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import CORPUS, ROOT

TRACES = CORPUS / "traces"
# Runs the real top-level CLI.
DRIVER = (
    "import sys\n"
    "from skillforge.cli import main\n"
    "main(sys.argv[1:], prog_name='skillforge')\n"
)


def skillforge(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", DRIVER, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False, env={**__import__("os").environ,
                                                       "PYTHONPATH": str(ROOT), "NO_COLOR": "1"})


def test_text_report_per_file(tmp_path):
    edge = TRACES / "claude_code" / "daaain__claude-code-log__edge_cases.jsonl"
    spawn = TRACES / "codex" / "codemie-ai__codemie-code__turn-spawn-skill.jsonl"
    proc = skillforge("import", str(edge), str(spawn), "--state-dir", "st", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "(claude_code)" in out and "(codex)" in out
    assert "steps 10 · tool calls 3 (1 with errors)" in out
    assert "skipped 7: user message without content x1 (line 10)" in out
    assert "skills activated: brainstorming (shell, step 2)" in out
    assert "tokens in 5,000 / out 200 / cached 1,000" in out
    assert out.strip().endswith("2 imported into st, 0 failed")
    assert (tmp_path / "st" / ".gitignore").read_text() == "*\n"
    assert len(list((tmp_path / "st" / "imported").glob("*.json"))) == 2


def test_json_document_for_the_whole_corpus(tmp_path):
    proc = skillforge("import", str(TRACES), "--format", "json", "--state-dir", "st",
                      cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["failed"] == [] and len(doc["imported"]) == 26
    by_format: dict[str, int] = {}
    for entry in doc["imported"]:
        by_format[entry["format"]] = by_format.get(entry["format"], 0) + 1
    assert by_format == {"atif": 8, "claude_code": 8, "codex": 6, "gemini_cli": 3, "opencode": 1}
    rollout = next(e for e in doc["imported"] if "rollout-2026-05-11" in e["source"])
    assert [a["skill"] for a in rollout["activations"]] == [
        "using-superpowers", "browser", "brainstorming", "browser"]
    chat = next(e for e in doc["imported"] if e["source"].endswith("ccusage__chat.jsonl"))
    assert chat["tokens"] == {"in": 745, "out": 250, "cached": 70}
    # importing again replaces, it does not duplicate
    again = json.loads(skillforge("import", str(TRACES / "opencode"), "--format", "json",
                                  "--state-dir", "st", cwd=tmp_path).stdout)
    assert again["imported"][0]["replaced"] is True


def test_a_file_that_cannot_be_imported_is_named_and_exit_is_1(tmp_path):
    bad = tmp_path / "notes.json"
    bad.write_text('{"title": "not a trace"}')
    good = TRACES / "gemini_cli" / "sachiny0106__Xelron__gemini-cli-trajectory.json"
    proc = skillforge("import", str(good), str(bad), "--state-dir", "st", cwd=tmp_path)
    assert proc.returncode == 1
    assert "notes.json: not a trace skillforge can read" in proc.stderr
    assert "1 imported into st, 1 failed" in proc.stdout
    doc = json.loads(skillforge("import", str(bad), "--format", "json", "--state-dir", "st",
                                cwd=tmp_path).stdout)
    assert doc["imported"] == [] and doc["failed"][0]["source"] == "notes.json"


def test_usage_errors_exit_2(tmp_path):
    assert skillforge("import", cwd=tmp_path).returncode == 2
    missing = skillforge("import", "nope.jsonl", cwd=tmp_path)
    assert missing.returncode == 2 and "nope.jsonl: no such file or folder" in missing.stderr
    help_text = skillforge("import", "--help", cwd=tmp_path).stdout
    assert "skillforge import FILE_OR_FOLDER" in help_text


def test_default_state_dir_is_in_the_launch_directory(tmp_path):
    chat = TRACES / "claude_code" / "ryoppippi__ccusage__chat.jsonl"
    proc = skillforge("import", str(chat), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / ".skillforge" / "skillforge.db").exists()
