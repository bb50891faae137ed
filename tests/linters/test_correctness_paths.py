"""Correctness rules on paths: SF116 links and referenced files, SF122 backslashes, SF123
paths of the author's machine.

Like test_correctness.py: a small skill in a temporary folder, the correctness checks alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillforge.models.findings import Finding, Severity
from skillforge.models.skill import SkillFile
from tests.linters.correctness_skill import findings, lint, skill_md, write_skill

# --- SF116 links and referenced files ---------------------------------------------------------


REF = {
    "references/api.md": "# API\n",
    "references/my notes.md": "# Notes\n",
    "assets/logo.svg": "<svg/>",
}


def links(tmp_path: Path, body: str, files: dict[str, str] | None = None,
          extra: list[SkillFile] | None = None) -> list[Finding]:
    files = files if files is not None else REF
    root = write_skill(tmp_path / "pdf-tools", skill_md(body=body), files)
    return findings(root, "SF116", extra)


def test_a_missing_link_target(tmp_path):
    [f] = links(tmp_path, "\nSee [the API](references/apis.md).\n")
    assert (f.line, f.column) == (6, 5) and "`references/apis.md`" in f.message


@pytest.mark.parametrize("target", [
    "references/api.md", "./references/api.md", "references/api.md#errors",
    "references/my%20notes.md", "references/", "assets/logo.svg",
    "https://example.com/x.md", "mailto:docs@example.com", "#usage", "{baseDir}/references/api.md",
    "references/<topic>.md",
])
def test_links_that_resolve_or_cannot_be_checked(tmp_path, target):
    assert links(tmp_path, f"\nSee [this]({target}) and ![logo](assets/logo.svg).\n") == []


def test_missing_image_and_reference_definition(tmp_path):
    found = links(tmp_path, "\n![chart](assets/chart.png)\n\n[api]: references/old-api.md\n")
    assert [f.line for f in found] == [6, 8]


def test_skill_root_placeholder_is_checked_after_it(tmp_path):
    [f] = links(tmp_path, "\nRead [rules]({baseDir}/references/rules.md).\n")
    assert "{baseDir}/references/rules.md" in f.message


def test_a_wrong_folder_gets_a_suggestion(tmp_path):
    [f] = links(tmp_path, "\nRead [the API](reference/api.md).\n")
    assert "point it at `references/api.md`" in f.message


def test_links_resolve_from_their_own_file(tmp_path):
    guide = "See [api](api.md) and [wrong](references/api.md).\n"
    files = dict(REF, **{"references/guide.md": guide})
    [f] = links(tmp_path, "\nRead [the guide](references/guide.md).\n", files)
    assert f.path == "references/guide.md" and "`references/api.md`" in f.message
    assert "point it at `api.md`" in f.message


def test_mentions_in_a_reference_resolve_from_the_skill_root(tmp_path):
    files = dict(REF, **{"references/guide.md": "Then read `references/api.md`.\n"})
    assert links(tmp_path, "\nRead `references/guide.md`.\n", files) == []


def test_inline_code_and_prose_mentions(tmp_path):
    body = "\n1. Run `scripts/rotate.py`.\n2. See references/limits.md for limits.\n"
    assert [f.line for f in links(tmp_path, body)] == [6, 7]


@pytest.mark.parametrize("sentence", [
    "For example `scripts/rotate.py` rotates pages.",
    "A `scripts/rotate.py` script would help.",
    "Read `references/house-style.md` if it exists.",
    "If `references/house-style.md` does not exist, use the defaults.",
    "Create `scripts/rotate.py` in the user's project.",
    "Use `${CLAUDE_PLUGIN_ROOT}/scripts/x.py`, found next to `scripts/rotate.py`.",
    "Use `references/*.md` or `references/<topic>.md`.",
    "Run `python scripts/rotate.py in.pdf` (a command: SF301 checks it).",
    "The skill keeps its files in `scripts/` and `references/`.",
])
def test_mentions_that_are_not_references(tmp_path, sentence):
    assert links(tmp_path, f"\n{sentence}\n") == []


def test_paths_after_an_example_label_are_illustrations(tmp_path):
    body = "\n**Example:**\n\n```\nreport/\n```\n\nThe agent reads `references/finance.md` first.\n"
    assert links(tmp_path, body) == []


def test_templates_and_sample_outputs_are_not_checked(tmp_path):
    files = dict(REF, **{"assets/report-template.md": "See [appendix](./appendix.md).\n",
                         "examples/report.md": "Details in [the appendix](appendix.md).\n"})
    assert links(tmp_path, "\nFill in `assets/report-template.md`.\n", files) == []


def test_paths_in_fenced_code_are_left_to_command_rules(tmp_path):
    assert links(tmp_path, "\n```bash\npython scripts/rotate.py\ncat references/x.md\n```\n") == []


def test_a_code_span_across_lines(tmp_path):
    [f] = links(tmp_path, "\nRead `references/\nlimits.md` first, then `references/more.md`.\n")
    assert (f.line, f.column) == (7, 24)


def test_files_known_but_not_on_disk_count(tmp_path):
    extra = [SkillFile(path="scripts/rotate.py", size=10)]
    assert links(tmp_path, "\nRun `scripts/rotate.py`.\n", extra=extra) == []


def test_links_that_leave_the_skill_are_checked_on_disk(tmp_path):
    write_skill(tmp_path / "code-review", skill_md(name="code-review"))
    assert links(tmp_path, "\nSee [review](../code-review/SKILL.md).\n") == []
    [f] = links(tmp_path, "\nSee [style](../style-guide/SKILL.md).\n")
    assert "../style-guide/SKILL.md" in f.message


def test_a_nested_skill_may_point_at_its_enclosing_skill(tmp_path):
    outer = write_skill(tmp_path / "video", skill_md(name="video"),
                        {"scripts/render.py": "print()\n"})
    inner = write_skill(outer / "references" / "video-cast",
                        skill_md(name="video-cast", body="\nRender with `scripts/render.py`.\n"))
    assert findings(inner, "SF116") == []


# --- SF122 backslashes ------------------------------------------------------------------------


def backslashes(tmp_path: Path, body: str) -> list[Finding]:
    files = {"references/glossary.md": "# Glossary\n"}
    root = write_skill(tmp_path / "pdf-tools", skill_md(body=body), files)
    return findings(root, "SF122")


def test_backslash_paths_in_code_span_link_and_shell_block(tmp_path):
    body = ("\nSee `references\\glossary.md`.\n\n[g](references\\glossary.md)\n\n"
            "```bash\npython scripts\\rotate.py\n```\n")
    found = backslashes(tmp_path, body)
    assert sorted(f.line for f in found) == [6, 8, 11]
    assert "write `references/glossary.md`" in found[0].message


@pytest.mark.parametrize("body", [
    "\nSee STYLE\\_GUIDE.md for the escaped underscore.\n",
    "\nMatch `\\d+\\.\\w+` in file names.\n",
    "\n```powershell\n.\\scripts\\setup.ps1\n```\n",
    "\n✗ Avoid: `scripts\\helper.py`\n",
    "\nWindows keeps it in `C:\\Program Files\\qpdf\\qpdf.exe`.\n",
])
def test_backslashes_that_are_not_skill_paths(tmp_path, body):
    assert backslashes(tmp_path, body) == []


# --- SF123 machine paths ---------------------------------------------------------------------


@pytest.mark.parametrize("path", [
    "/Users/alice/Documents/in.pdf", "/home/bob/pdfs", "C:\\Users\\carol\\in.pdf",
    "C:/Users/dave/in.pdf", "file:///Users/erin/in.pdf",
])
def test_paths_of_a_real_user(tmp_path, path):
    [f] = lint(tmp_path, "SF123", body=f"\nOpen `{path}`.\n")
    assert f.severity == Severity.warning and f.line == 6


@pytest.mark.parametrize("path", [
    "/home/user/in.pdf", "/Users/you/in.pdf", "~/in.pdf", "$HOME/in.pdf", "/home/<user>/in.pdf",
    "/usr/bin/qpdf", "/tmp/out.pdf", "/etc/hosts", "/home/vscode/.cache", "/home/runner/work",
    "https://example.com/home/alice/in.pdf", "/Users/Shared/in.pdf",
    "/Users/2819c223-7f76-453a-919d-413861904646", "GET /Users/alice (SCIM)",
])
def test_placeholder_and_system_paths(tmp_path, path):
    assert lint(tmp_path, "SF123", body=f"\nOpen `{path}`.\n") == []


def test_machine_paths_in_scripts_too(tmp_path):
    [f] = lint(tmp_path, "SF123", files={"scripts/run.py": 'DATA = "/home/bob/data"\n'})
    assert f.path == "scripts/run.py" and f.line == 1
