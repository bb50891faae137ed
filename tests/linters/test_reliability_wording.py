"""Reliability rules on wording (SF308-SF312, SF317) and MCP tool names (SF318).

Each test writes a small skill, runs only the checks registered for one rule, and says what
that rule reports.
"""

from __future__ import annotations

import pytest

from tests.linters.reliability_skill import fired, make_skill

# --- wording rules --------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("sentence", "fires"),
    [
        ("As of 2024, the API allows 100 requests a minute.", True),
        ("The old endpoint works until next month.", True),
        ("This API was recently released.", True),
        ("The intro price applies through 2026-08-31.", True),
        ("The latest version (as of March 2025) is 3.2.", True),
        ("The tool currently supports CSV and JSON.", False),
        ('Example request: "Show me sales this year."', False),
        ("Papers published after 2020 are preferred.", False),
    ],
)
def test_sf308_time_sensitive_wording(tmp_path, sentence, fires):
    skill = make_skill(tmp_path, f"# CSV\n\n{sentence}\n")
    assert bool(fired(skill, "SF308")) is fires


def test_sf308_ignores_code(tmp_path):
    skill = make_skill(tmp_path, "# CSV\n\n```python\n# as of 2024\n```\n\nUse `as of 2024`.\n")
    assert fired(skill, "SF308") == []


@pytest.mark.parametrize(
    ("body", "files", "fires"),
    [
        ("# CSV\n\nSummarise the file.\n", {}, True),
        ("# CSV\n\nSummarise the file, e.g. sales.csv.\n", {}, False),
        ("# CSV\n\n## Examples\n\nSee below.\n", {}, False),
        ("# CSV\n\nInput: sales.csv\n\nOutput: totals per month\n", {}, False),
        ("# CSV\n\nSummarise the file.\n", {"references/examples.md": "# E\n"}, False),
    ],
)
def test_sf309_examples(tmp_path, body, files, fires):
    assert bool(fired(make_skill(tmp_path, body, files), "SF309")) is fires


def test_sf310_needs_a_workflow_to_apply(tmp_path):
    prose = make_skill(tmp_path / "a", "# CSV\n\nSummarise the file for the user.\n")
    steps = make_skill(tmp_path / "b", "# CSV\n\n1. Load it.\n2. Sum it.\n3. Report it.\n")
    assert fired(prose, "SF310") == []
    assert [f.line for f in fired(steps, "SF310")] == [8]


@pytest.mark.parametrize(
    ("sentence", "fires"),
    [
        ("You can use pandas or polars to load the file.", True),
        ("Use `pdfplumber` or `pypdf` to read the text.", True),
        ("You can use pandas or polars; prefer pandas for files under 1 GB.", False),
        ("Use `pdfplumber` or `pypdf` if the file is encrypted.", False),
        ("Use `-q` or `--quiet` to silence it.", False),  # one flag, two spellings
        ("Do not use `rm` or `mv` on the originals.", False),
    ],
)
def test_sf311_alternatives_without_default(tmp_path, sentence, fires):
    assert bool(fired(make_skill(tmp_path, f"# CSV\n\n{sentence}\n"), "SF311")) is fires


def test_sf312_threshold_grows_with_length(tmp_path):
    short = "# CSV\n\n" + "You MUST do this.\n" * 5
    assert fired(make_skill(tmp_path / "a", short), "SF312") == []  # 5 is allowed
    [finding] = fired(make_skill(tmp_path / "b", short + "NEVER skip it.\n"), "SF312")
    assert "6 times" in finding.message
    filler = ("Plain words that explain the reason behind each rule. " * 25 + "\n") * 3
    assert fired(make_skill(tmp_path / "c", short + "NEVER skip it.\n\n" + filler), "SF312") == []


def test_sf312_ignores_code_and_rfc_2119_documents(tmp_path):
    code = "# CSV\n\n```\n" + "MUST NEVER ALWAYS\n" * 10 + "```\n"
    rfc = "# CSV\n\nMUST and SHALL are used as in RFC 2119.\n\n" + "You MUST do it.\n" * 8
    assert fired(make_skill(tmp_path / "a", code), "SF312") == []
    assert fired(make_skill(tmp_path / "b", rfc), "SF312") == []


@pytest.mark.parametrize(
    "heading", ["## Limitations", "## Known issues", "## Troubleshooting", "## When not to use",
                "## Common pitfalls", "## Gotchas", "### Don'ts"],
)
def test_sf317_limitation_headings(tmp_path, heading):
    skill = make_skill(tmp_path, f"# CSV\n\n{heading}\n\n- Big files are slow.\n")
    assert fired(skill, "SF317") == []


def test_sf317_fires_without_one(tmp_path):
    assert len(fired(make_skill(tmp_path, "# CSV\n\n## Usage\n\nRun it.\n"), "SF317")) == 1


# --- SF318 ----------------------------------------------------------------------------------

def test_sf318_flags_bare_and_dunder_names_in_mcp_skills(tmp_path):
    skill = make_skill(tmp_path, """
        # Triage
        Uses the GitHub MCP server.
        1. Call `search_issues` to find duplicates.
        2. Then use the `create_issue` tool, or `mcp__github__add_labels`.
        3. Read the file with the `Read` tool and finish with `GitHub:update_issue`.
    """)
    messages = [f.message for f in fired(skill, "SF318")]
    assert len(messages) == 3
    assert any("`search_issues`" in m for m in messages)
    assert any("`create_issue`" in m for m in messages)
    assert any("`github:add_labels`" in m for m in messages)


def test_sf318_needs_an_mcp_skill(tmp_path):
    skill = make_skill(tmp_path, "# CSV\n\nCall `load_csv` to read the file.\n")
    assert fired(skill, "SF318") == []
