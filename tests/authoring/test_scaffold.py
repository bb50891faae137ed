"""`skillforge new` through the real console script: a name the lint would flag is refused up
front, and the untouched scaffold is not a finished skill (issue 37: `new claude-helper` was
accepted, then flagged by SF121; the scaffold, placeholders and all, linted 100 (A)).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXE = str(Path(sys.executable).with_name("skillforge"))

# What an author writes in place of each placeholder line of the scaffold, by the
# placeholder's first words.
FILLED = {
    "description: Describe what": (
        "description: Adds up the line items of PDF or CSV invoices and reports the total per "
        "currency. Use when the user asks for the total of one or more invoices."),
    "One paragraph:": ("Adds up the line items of PDF or CSV invoices and reports the total "
                       "per currency, with the files it could not read listed apart."),
    "- The user asks to": '- The user asks "what do these invoices add up to?"',
    "Do not use this skill when": "Do not use this skill for bookkeeping entries or tax returns.",
    "1. Read the input": "1. Collect the invoice files the user named.",
    "2. Do the work": "2. Run `python3 scripts/totals.py FILE...` on them.",
    "3. Verify the result": ("3. Check that the count of invoices read matches the number of "
                             "files; name the files it skipped and why."),
    "Input:": 'Input: "Total these three invoices" with `march-01.pdf` and `march-02.csv`.',
    "Output:": 'Output: "2 invoices: EUR 1,240.50; USD 310.00."',
    "- What this skill": "- Scanned PDFs without a text layer are skipped: ask for the original.",
}


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([EXE, *args], capture_output=True, text=True, cwd=cwd, timeout=120,
                          check=False)


def lint_json(skill: str, cwd: Path) -> dict:
    proc = run("lint", skill, "--format", "json", "--no-scripts", cwd=cwd)
    return json.loads(proc.stdout)["skills"][0]


@pytest.mark.parametrize(("name", "word", "instead"), [
    ("claude-helper", "claude", "'helper'"),
    ("anthropic-sdk-notes", "anthropic", "'sdk-notes'"),
    ("claude", "claude", "'pdf-form-filler'"),
])
def test_a_reserved_word_in_the_name_is_refused_before_anything_is_written(
        tmp_path, name, word, instead):
    proc = run("new", name, cwd=tmp_path)
    assert proc.returncode == 2
    message = proc.stderr.strip()
    assert message.startswith(f"skillforge new: {name!r} contains the reserved word {word!r}")
    assert "SF121" in message and f"choose a name without it, for example {instead}" in message
    assert list(tmp_path.iterdir()) == []  # nothing written
    assert proc.stdout == ""


def test_the_untouched_scaffold_reports_each_placeholder_line(tmp_path):
    assert run("new", "invoice-totals", cwd=tmp_path).returncode == 0
    skill = tmp_path / "invoice-totals"
    report = lint_json("invoice-totals", tmp_path)
    assert report["score"] < 100
    found = {(f["path"], f["line"]) for f in report["findings"] if f["rule"] == "SF319"}
    assert all(f["severity"] == "warning" for f in report["findings"] if f["rule"] == "SF319")

    md = (skill / "SKILL.md").read_text().splitlines()
    body_start = md.index("---", 1) + 2
    want = {("SKILL.md", n) for n, line in enumerate(md, start=1)
            if line.startswith("description:")
            or n >= body_start and line.strip() and not line.startswith("#")}
    evals = (skill / "evals" / "evals.json").read_text().splitlines()
    want |= {("evals/evals.json", n) for n, line in enumerate(evals, start=1)
             if '"prompt":' in line or '"What a correct answer contains."' in line}
    assert found == want
    by_line = {f["line"]: f["message"] for f in report["findings"]
               if f["rule"] == "SF319" and f["path"] == "SKILL.md"}
    overview = md.index("One paragraph: what this skill does and the result the user gets.") + 1
    assert by_line[overview].startswith('"One paragraph: what this skill does and the result')
    assert "replace it with a paragraph on what the skill does" in by_line[overview]


def test_a_filled_in_scaffold_is_unaffected(tmp_path):
    assert run("new", "invoice-totals", cwd=tmp_path).returncode == 0
    skill = tmp_path / "invoice-totals"
    lines = (skill / "SKILL.md").read_text().splitlines()
    for i, line in enumerate(lines):
        for start, text in FILLED.items():
            if line.startswith(start):
                lines[i] = text
    (skill / "SKILL.md").write_text("\n".join(lines) + "\n")
    (skill / "scripts").mkdir()
    (skill / "scripts" / "totals.py").write_text("print('0 invoices')\n")
    evals = json.loads((skill / "evals" / "evals.json").read_text())
    prompts = ["Use the invoice totals skill to add up march-01.pdf and march-02.csv.",
               "What do march-01.pdf and march-02.csv add up to?",
               "Book these invoices into the ledger."]
    for case, prompt in zip(evals["evals"], prompts, strict=True):
        case["prompt"] = prompt
        if case["ground_truth"] == "What a correct answer contains.":
            case["ground_truth"] = "EUR 1,240.50 and USD 310.00."
    (skill / "evals" / "evals.json").write_text(json.dumps(evals, indent=2) + "\n")

    report = lint_json("invoice-totals", tmp_path)
    assert [f for f in report["findings"] if f["rule"] == "SF319"] == []
    assert report["score"] == 100, report["findings"]
