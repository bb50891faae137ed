"""Discoverability rules (SF2xx) on small skills: what fires, and the wording that must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from linters.context import LintContext
from linters.discoverability.description import description_rules
from linters.discoverability.opening import title_or_overview
from linters.discoverability.scope import says_when_not_to_use, when_not_to_use
from linters.discoverability.skill_name import vague_name
from skillforge.models.skill import load_skill

DESCRIPTION = (
    "Profiles CSV files into per-column types, missing values and summary statistics. Use when "
    "the user attaches a .csv file or asks what a table of data contains."
)
BODY = """# CSV profiler

Profile a CSV file and report, for every column, its type and how many values are missing.

## When not to use

- Excel workbooks: convert them to CSV first.
"""
CHECKS = (description_rules, vague_name, title_or_overview, when_not_to_use)


def make_skill(
    root: Path,
    *,
    name: str = "csv-profiler",
    description: str | None = DESCRIPTION,
    body: str = BODY,
    frontmatter: str | None = None,
) -> Path:
    """Write a one-file skill; `frontmatter` replaces the generated YAML when given."""
    folder = root / name
    folder.mkdir(parents=True)
    if frontmatter is None:
        frontmatter = f"name: {name}\n"
        if description is not None:
            frontmatter += f"description: {description}\n"
    (folder / "SKILL.md").write_text(f"---\n{frontmatter}---\n\n{body}", "utf-8")
    return folder


def findings(path: Path, rule: str | None = None) -> list:
    ctx = LintContext(load_skill(path))
    out = [f for check in CHECKS for f in check(ctx)]
    return [f for f in out if rule is None or f.rule == rule]


def fired(path: Path) -> set[str]:
    return {f.rule for f in findings(path)}


def test_a_well_written_skill_is_quiet(tmp_path):
    assert fired(make_skill(tmp_path)) == set()


# --- SF201 ------------------------------------------------------------------------------


def test_short_description_fires_below_40_characters_only(tmp_path):
    short = "Profiles CSVs. Use when given a csv file"  # 40 characters
    assert len(short) == 40
    assert "SF201" not in fired(make_skill(tmp_path / "a", description=short))
    assert "SF201" in fired(make_skill(tmp_path / "b", description=short[:-1]))


def test_missing_or_broken_description_is_left_to_correctness(tmp_path):
    assert fired(make_skill(tmp_path / "a", description=None)) == set()
    broken = make_skill(tmp_path / "b", frontmatter="name: csv-profiler\ndescription: a: b: c\n")
    assert not [f for f in findings(broken) if f.rule != "SF209"]


# --- SF202 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "description",
    [
        "Profiles CSV files and reports column types. Use when the user attaches a .csv file.",
        "Profiles CSV files. Use this skill whenever a spreadsheet export needs checking.",
        "Profiles CSV files when the user asks what a table of data contains.",
        'Profiles CSV files. Triggers on: "profile this csv", "what columns".',
        "Coverage-guided fuzzer built into LLVM. Use for fuzzing C/C++ code built with Clang.",
        "Parses FCS files into NumPy arrays, for flow cytometry data preprocessing.",
        "Citation management. This skill should be used when you need to verify a DOI.",
        "Creates release notes from git history; runs if asked to summarise changes.",
        "Fast DataFrames for datasets that fit in RAM. Best for ETL pipelines and joins.",
    ],
)
def test_trigger_wording_satisfies_sf202(tmp_path, description):
    assert "SF202" not in fired(make_skill(tmp_path, description=description))


@pytest.mark.parametrize(
    "description",
    [
        "Parses FCS files into NumPy arrays and exports channels and metadata to CSV.",
        "Automatically creates changelogs from git commits by analyzing commit history.",
    ],
)
def test_feature_list_without_a_when_fires_sf202(tmp_path, description):
    assert "SF202" in fired(make_skill(tmp_path, description=description))


# --- SF203 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("description", "word"),
    [
        (
            "I can help you turn meeting transcripts into notes. Use when a transcript is pasted.",
            "I",
        ),
        ("We generate release notes from commits. Use when the user asks for a changelog.", "We"),
        ("You can use this to profile CSV files and find empty columns in a table.", "You"),
        (
            "Organizes your files and folders by type. Use when the user asks to tidy a folder.",
            "your",
        ),
        ("A set of resources to help me write internal newsletters and status reports.", "me"),
    ],
)
def test_first_and_second_person_fire_sf203(tmp_path, description, word):
    [finding] = findings(make_skill(tmp_path, description=description), "SF203")
    assert f"`{word}`" in finding.message
    assert finding.severity.value == "info"


@pytest.mark.parametrize(
    "description",
    [
        "Use when you have a written implementation plan to execute with review checkpoints.",
        'Makes animated GIFs for Slack. Use when users ask "make me a GIF of X" for Slack.',
        "Queries US Census tables and returns JSON. Use when the user asks for population data.",
        "Genomic interval operations and file I/O on DataFrames. Use for BED and VCF files.",
        "Summarises Phase I trial results and Type I error rates. Use for clinical reports.",
        "Manages citations. This skill should be used when you need to verify a DOI.",
        "Creative research ideation. Best for early-stage planning when you lack observations.",
        "Queries the census programmatically. For analyzing your own data use scanpy instead.",
    ],
)
def test_imperatives_quotes_and_abbreviations_are_not_sf203(tmp_path, description):
    assert "SF203" not in fired(make_skill(tmp_path, description=description))


# --- SF204 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["utils", "helper", "misc-stuff", "common-tools", "my-skill", "general-helpers"]
)
def test_vague_names_fire_sf204(tmp_path, name):
    [finding] = findings(make_skill(tmp_path, name=name), "SF204")
    assert f"`{name}`" in finding.message
    assert finding.line == 2


@pytest.mark.parametrize("name", ["pdf-tools", "csv-helper", "test-runner", "git-utils"])
def test_names_with_a_real_subject_are_not_vague(tmp_path, name):
    assert "SF204" not in fired(make_skill(tmp_path, name=name))


# --- SF205 ------------------------------------------------------------------------------


def test_description_that_restates_the_name_fires_sf205(tmp_path):
    path = make_skill(
        tmp_path, name="pdf-tools", description="'PDF tools: a skill with tools for PDFs.'"
    )
    assert "SF205" in fired(path)


def test_one_new_content_word_is_enough_for_sf205(tmp_path):
    path = make_skill(
        tmp_path, name="pdf-tools", description="PDF tools that merge PDFs. Use for any PDF."
    )
    assert "SF205" not in fired(path)


# --- SF206 ------------------------------------------------------------------------------


def test_literal_block_description_fires_sf206(tmp_path):
    fm = "name: csv-profiler\ndescription: |\n  Profiles CSV files.\n  Use when a .csv file is attached.\n"
    [finding] = findings(make_skill(tmp_path, frontmatter=fm), "SF206")
    assert "1 line break" in finding.message


def test_folded_block_without_newlines_is_fine(tmp_path):
    fm = "name: csv-profiler\ndescription: >\n  Profiles CSV files into column statistics.\n  Use when a .csv file is attached.\n"
    assert "SF206" not in fired(make_skill(tmp_path, frontmatter=fm))


def test_folded_block_with_more_indented_lines_keeps_newlines(tmp_path):
    fm = (
        "name: csv-profiler\ndescription: >\n  Profiles CSV files into column statistics.\n"
        "    - types\n    - missing values\n  Use when a .csv file is attached.\n"
    )
    assert "SF206" in fired(make_skill(tmp_path, frontmatter=fm))


@pytest.mark.parametrize(
    "description",
    [
        '"**[DEFAULT TOOL]** Profiles CSV files. Use when a .csv file is attached."',
        '"Profiles CSV files ([docs](https://example.com/csv)). Use when a .csv file is attached."',
    ],
)
def test_markdown_in_description_fires_sf206(tmp_path, description):
    assert "SF206" in fired(make_skill(tmp_path, description=description))


@pytest.mark.parametrize(
    "description",
    [
        '"Diagnoses Chrome MCP issues. Use when mcp__claude-in-chrome__* tools fail."',
        '"Guides `adaptyv` SDK calls. Use when code imports `adaptyv` or `FoundryClient`."',
    ],
)
def test_inline_code_and_double_underscores_are_not_markdown(tmp_path, description):
    assert "SF206" not in fired(make_skill(tmp_path, description=description))


# --- SF207 ------------------------------------------------------------------------------


def test_long_comma_list_fires_sf207(tmp_path):
    terms = ", ".join(f"term{i}" for i in range(22))
    path = make_skill(tmp_path, description=f"Covers {terms}. Use when any of them comes up.")
    assert "SF207" in fired(path)


def test_keywords_label_fires_sf207(tmp_path):
    path = make_skill(
        tmp_path,
        description=(
            "'Profiles CSV files. Use when a .csv file is attached. Keywords: csv, tsv, pandas, nulls, dtypes'"
        ),
    )
    assert "SF207" in fired(path)


def test_a_list_inside_prose_is_not_stuffing(tmp_path):
    description = (
        "Scans a codebase with CodeQL taint tracking. Covers Python, JavaScript/TypeScript, Go, "
        "Java/Kotlin, C/C++, C#, Ruby, and Swift. Use when the user asks for a SAST scan."
    )
    assert "SF207" not in fired(make_skill(tmp_path, description=description))


# --- SF208 ------------------------------------------------------------------------------


def test_body_opening_with_code_and_lists_fires_sf208(tmp_path):
    body = "```bash\npython profile.py data.csv\n```\n\n- check the row count\n- check the types\n\n| a | b |\n|---|---|\n"
    [finding] = findings(make_skill(tmp_path, body=body + "\nNot for Excel files.\n"), "SF208")
    assert finding.line == 6  # the opening fence: frontmatter is lines 1-4, then a blank line


@pytest.mark.parametrize(
    "body",
    [
        "## Steps\n\n1. Run it.\n",
        "<!-- generated -->\n# CSV profiler\n\n1. Run it.\n",
        "<SUBAGENT-STOP>\nIf you were dispatched as a subagent to run one task, skip this skill entirely.\n",
        "Profiles a CSV file and reports per-column types and missing values to the user.\n\n1. Run it.\n",
        "",
    ],
)
def test_heading_overview_or_empty_body_is_not_sf208(tmp_path, body):
    assert "SF208" not in fired(make_skill(tmp_path, body=body))


# --- SF209 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "# CSV profiler\n\n## When NOT to Use\n\n- Excel files\n",
        "# CSV profiler\n\nNot for Excel workbooks.\n",
        "# CSV profiler\n\nFor scanned tables, use the `ocr` skill instead.\n",
        "# CSV profiler\n\nUse the `excel-reader` skill for .xlsx files.\n",
        "# CSV profiler\n\nDo not use this skill when the file is over 1 GB.\n",
        "# CSV profiler\n\n**Exceptions (ask the user):**\n- generated files\n",
        "# CSV profiler\n\n## Related skills\n\n- `excel-reader`\n",
        "# CSV profiler\n\nStatistical modelling is out of scope.\n",
    ],
)
def test_boundaries_in_the_body_satisfy_sf209(tmp_path, body):
    assert "SF209" not in fired(make_skill(tmp_path, body=body))


def test_routing_in_the_description_satisfies_sf209(tmp_path):
    description = "Fast DataFrames. Use when pandas is too slow. For larger-than-RAM data use dask."
    path = make_skill(tmp_path, description=description, body="# Polars\n\nRun queries lazily.\n")
    assert "SF209" not in fired(path)


@pytest.mark.parametrize(
    "body",
    [
        "# CSV profiler\n\nNever use `rm -rf` on the input folder.\n",
        "# CSV profiler\n\nFor sampling, use RandomTiler instead of GridTiler.\n",
        "# CSV profiler\n\nWhen done, use superpowers:finishing-a-development-branch.\n",
        "# CSV profiler\n\n```text\nDo not use this skill for Excel files.\n```\n",
        "# CSV profiler\n\nSkip this step if the file is small, unless the user asks.\n",
    ],
)
def test_generic_advice_and_code_do_not_satisfy_sf209(tmp_path, body):
    [finding] = findings(make_skill(tmp_path, body=body), "SF209")
    assert finding.line == 5 and finding.severity.value == "info"


def test_says_when_not_to_use_reads_wrapped_lines():
    assert says_when_not_to_use("This skill does not\ncover scanned PDFs.")
    assert says_when_not_to_use("Do NOT\nuse this for binaries.")
    assert not says_when_not_to_use("This step does not cover everything, but it helps.")
