"""Correctness rules SF103 (`...` closer) and SF106-SF121: name, description, keys, fields, body.

Each test writes a small skill (a few lines of SKILL.md, sometimes a reference) to a
temporary folder and runs the correctness checks alone (tests/linters/correctness_skill.py),
so other categories cannot get in the way. Paths (SF116, SF122, SF123) are in
test_correctness_paths.py.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linters.context import LintContext
from linters.correctness.fences import unclosed_fence
from linters.correctness.optional_fields import split_tools
from linters.correctness.plugin_layout import missing_name
from skillforge.models.findings import Severity
from skillforge.models.lint_config import LintConfig
from skillforge.models.skill import load_skill
from tests.linters.correctness_skill import BODY, DESCRIPTION, findings, lint, skill_md, write_skill
from tests.hypothesis_budget import examples

# --- a clean skill ---------------------------------------------------------------------------


def test_a_valid_skill_has_no_correctness_findings(tmp_path):
    assert findings(write_skill(tmp_path / "pdf-tools", skill_md())) == []


# --- name -------------------------------------------------------------------------------------


def test_missing_name_suggests_the_folder_name(tmp_path):
    [f] = lint(tmp_path, "SF106", f"description: {DESCRIPTION}\n")
    assert "`name: pdf-tools`" in f.message and f.line == 1


def _plugin_skill(tmp_path, manifest_at: str | None):
    """A skill without `name` at <plugin>/skills/csv-digest/, and a Claude Code plugin
    manifest at `manifest_at` (relative to tmp_path), if any."""
    if manifest_at is not None:
        (tmp_path / manifest_at).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / manifest_at).write_text('{"name": "data-kit"}\n', "utf-8")
    return lint(tmp_path, "SF106", f"description: {DESCRIPTION}\n",
                folder="repo/plugins/data-kit/skills/csv-digest")


def test_missing_name_in_a_claude_code_plugin_is_a_warning(tmp_path):
    [f] = _plugin_skill(tmp_path, "repo/plugins/data-kit/.claude-plugin/plugin.json")
    assert f.severity is Severity.warning and f.line == 1
    assert "Claude Code takes the folder's name" in f.message
    assert "`name: csv-digest`" in f.message


@pytest.mark.parametrize("manifest_at", [
    None,  # the same layout without a plugin manifest
    "repo/.claude-plugin/plugin.json",  # a manifest two levels above the plugin root
    "repo/plugins/data-kit/skills/.claude-plugin/plugin.json",  # beside the skill folder
])
def test_missing_name_outside_a_plugin_root_stays_an_error(tmp_path, manifest_at):
    [f] = _plugin_skill(tmp_path, manifest_at)
    assert f.severity is Severity.error
    assert "Claude Code" not in f.message


def test_missing_name_in_a_plugin_is_an_error_for_the_claude_ai_upload(tmp_path):
    _plugin_skill(tmp_path, "repo/plugins/data-kit/.claude-plugin/plugin.json")
    root = tmp_path / "repo/plugins/data-kit/skills/csv-digest"
    ctx = LintContext(load_skill(root), LintConfig(target="claude-ai"))
    assert missing_name(ctx, "csv-digest").severity is Severity.error


def test_empty_name_is_missing(tmp_path):
    [f] = lint(tmp_path, "SF106", f'name: ""\ndescription: {DESCRIPTION}\n')
    assert f.line == 2


def test_uppercase_and_spaces_get_a_fixed_suggestion(tmp_path):
    [f] = lint(tmp_path, "SF108", f"name: PDF Tools\ndescription: {DESCRIPTION}\n")
    assert "uppercase letters and spaces" in f.message and "`pdf-tools`" in f.message


@pytest.mark.parametrize("name, problem", [
    ("-pdf-tools", "leading or trailing hyphen"),
    ("pdf--tools", "consecutive hyphens"),
    ("pdf_tools", "underscores"),
    ("pdf.tools", "the character `.`"),
])
def test_name_shape_problems_are_named(tmp_path, name, problem):
    [f] = lint(tmp_path, "SF108", f"name: {name}\ndescription: {DESCRIPTION}\n", folder=name)
    assert problem in f.message


def test_non_ascii_letters_are_invalid_although_skills_ref_accepts_them(tmp_path):
    [f] = lint(tmp_path, "SF108", f"name: données-csv\ndescription: {DESCRIPTION}\n",
               folder="données-csv")
    assert "non-ASCII" in f.message and "`donnees-csv`" in f.message


def test_a_number_name_must_be_quoted(tmp_path):
    [f] = lint(tmp_path, "SF108", f"name: 2048\ndescription: {DESCRIPTION}\n", folder="2048")
    assert "a number" in f.message
    assert lint(tmp_path / "q", "SF108", f'name: "2048"\ndescription: {DESCRIPTION}\n',
                folder="2048") == []


def test_name_length_limit_is_64(tmp_path):
    ok, long = "a" * 64, "a" * 65
    assert lint(tmp_path, "SF109", f"name: {ok}\ndescription: {DESCRIPTION}\n", folder=ok) == []
    [f] = lint(tmp_path, "SF109", f"name: {long}\ndescription: {DESCRIPTION}\n", folder=long)
    assert "65 characters" in f.message


def test_name_must_match_the_folder(tmp_path):
    [f] = lint(tmp_path, "SF110", "name: youtube-downloader\ndescription: Downloads videos.\n",
               folder="video-downloader")
    assert "`youtube-downloader`" in f.message and "`video-downloader`" in f.message


def test_folder_match_ignores_unicode_normalisation(tmp_path):
    # macOS stores folder names decomposed (NFD); the frontmatter is usually composed (NFC).
    nfd = "re\u0301sume\u0301"
    assert lint(tmp_path, "SF110", f"name: résumé\ndescription: {DESCRIPTION}\n", folder=nfd) == []


@pytest.mark.parametrize("name", ["claude-commit-writer", "anthropic-docs", "myclaudebot"])
def test_reserved_words_in_the_name(tmp_path, name):
    [f] = lint(tmp_path, "SF121", f"name: {name}\ndescription: {DESCRIPTION}\n", folder=name)
    assert "reserved word" in f.message


def test_reserved_word_suggestion_drops_the_word(tmp_path):
    [f] = lint(tmp_path, "SF121", f"name: claude-commit-writer\ndescription: {DESCRIPTION}\n",
               folder="claude-commit-writer")
    assert "`commit-writer`" in f.message


# --- description --------------------------------------------------------------------------------


def test_missing_and_empty_description(tmp_path):
    [missing] = lint(tmp_path / "a", "SF107", "name: pdf-tools\n")
    [empty] = lint(tmp_path / "b", "SF107", "name: pdf-tools\ndescription:\n")
    assert "no `description`" in missing.message and "empty" in empty.message


def test_a_list_description_is_not_text(tmp_path):
    [f] = lint(tmp_path, "SF107", "name: pdf-tools\ndescription:\n  - rotates\n  - merges\n")
    assert "a list" in f.message


def test_an_explicit_str_tag_is_still_text(tmp_path):
    assert lint(tmp_path, "SF107", f"name: pdf-tools\ndescription: !!str {DESCRIPTION}\n") == []


def test_description_limit_is_1024_characters(tmp_path):
    ok, long = "x" * 1024, "x" * 1025
    assert lint(tmp_path / "a", "SF111", f"name: pdf-tools\ndescription: {ok}\n") == []
    [f] = lint(tmp_path / "b", "SF111", f"name: pdf-tools\ndescription: {long}\n")
    assert "1,025 characters" in f.message


def test_angle_brackets_in_description_or_name(tmp_path):
    [f] = lint(tmp_path / "a", "SF117",
               "name: pdf-tools\ndescription: Use as /pdf-tools <file> to rotate a PDF.\n")
    assert "`<file>`" in f.message
    both = lint(tmp_path / "b", "SF117", "name: pdf<tools>\ndescription: Rotates PDFs.\n",
                folder="pdf<tools>")
    assert len(both) == 1 and "`name`" in both[0].message


# --- keys ---------------------------------------------------------------------------------------


def test_unknown_key_is_an_error_with_a_way_out(tmp_path):
    [f] = lint(tmp_path, "SF112", f"name: pdf-tools\ndescription: {DESCRIPTION}\ncategory: docs\n")
    assert f.severity == Severity.error and "`category`" in f.message and "metadata" in f.message
    assert f.line == 4


@pytest.mark.parametrize("key", ["model: sonnet", "disable-model-invocation: true", "effort: high"])
def test_claude_code_keys_are_a_warning(tmp_path, key):
    [f] = lint(tmp_path, "SF112", f"name: pdf-tools\ndescription: {DESCRIPTION}\n{key}\n")
    assert f.severity == Severity.warning and "Claude Code" in f.message


def test_version_is_pointed_at_metadata(tmp_path):
    [f] = lint(tmp_path, "SF112", f"name: pdf-tools\ndescription: {DESCRIPTION}\nversion: 1.2.0\n")
    assert "under `metadata:`" in f.message


@pytest.mark.parametrize("typo, meant", [
    ("allowed_tools", "allowed-tools"), ("allowedTools", "allowed-tools"), ("License", "license"),
])
def test_misspelt_keys_get_a_suggestion(tmp_path, typo, meant):
    [f] = lint(tmp_path, "SF112", f"name: pdf-tools\ndescription: {DESCRIPTION}\n{typo}: Read\n")
    assert f"rename it to `{meant}`" in f.message and f.severity == Severity.error


# --- compatibility, metadata, allowed-tools ------------------------------------------------------


def field(value: str) -> str:
    return f"name: pdf-tools\ndescription: {DESCRIPTION}\n{value}\n"


def test_compatibility_shape_and_length(tmp_path):
    assert lint(tmp_path / "ok", "SF113", field("compatibility: Requires qpdf 11+")) == []
    assert lint(tmp_path / "500", "SF113", field(f"compatibility: {'x' * 500}")) == []
    [long] = lint(tmp_path / "501", "SF113", field(f"compatibility: {'x' * 501}"))
    [listed] = lint(tmp_path / "list", "SF113", field("compatibility:\n  - qpdf\n  - python"))
    [empty] = lint(tmp_path / "empty", "SF113", field("compatibility:"))
    assert "501 characters" in long.message
    assert "a list" in listed.message and "empty" in empty.message


def test_metadata_values_must_be_strings(tmp_path):
    found = lint(tmp_path, "SF114", field(
        "metadata:\n  author: docs-team\n  version: 1.0\n  tags:\n    - pdf\n"))
    by_line = {f.line: f.message for f in found}
    assert set(by_line) == {6, 7}
    assert 'quote it (`version: "1.0"`)' in by_line[6] and "flatten" in by_line[7]


def test_metadata_must_be_a_mapping(tmp_path):
    [f] = lint(tmp_path, "SF114", field("metadata: docs-team"))
    assert "a string" in f.message
    assert lint(tmp_path / "ok", "SF114", field("metadata:\n  author: docs-team")) == []


@pytest.mark.parametrize("value", [
    "Read Grep Glob",
    "Bash(git add:*) Bash(git status:*) Read",
    "Bash(echo $(date)) mcp__github__create_issue",
    "WebFetch(domain:example.com)",
])
def test_spec_form_allowed_tools(tmp_path, value):
    assert lint(tmp_path, "SF115", field(f"allowed-tools: {value}")) == []


@pytest.mark.parametrize("value, words", [
    ("\n  - Read\n  - Grep", "YAML list"),
    ("Read, Grep, Bash", "commas"),
    ("Bash(git add:* Read", "unclosed `(`"),
    ("Read) Grep", "`)` without its `(`"),
    ("Read ;Grep", "not a tool name"),
    ("", "empty"),
])
def test_malformed_allowed_tools(tmp_path, value, words):
    [f] = lint(tmp_path, "SF115", field(f"allowed-tools: {value}"))
    assert words in f.message and f.severity == Severity.warning


def test_split_tools_keeps_spaces_inside_patterns():
    assert split_tools("Bash(git add:*) Read") == (["Bash(git add:*)", "Read"], None)


# --- body -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("body", ["", "\n\n", "\n<!-- TODO: write this -->\n"])
def test_empty_body(tmp_path, body):
    [f] = lint(tmp_path, "SF119", body=body)
    assert f.line == 4


def test_frontmatter_closed_with_dots(tmp_path):
    text = f"---\nname: pdf-tools\ndescription: {DESCRIPTION}\n...\n{BODY}"
    root = write_skill(tmp_path / "pdf-tools", text)
    [f] = findings(root, "SF103")
    assert f.line == 4 and "`...`" in f.message


def test_unclosed_fence_in_skill_md(tmp_path):
    [f] = lint(tmp_path, "SF120", body="\n# PDF tools\n\n```bash\nqpdf in.pdf out.pdf\n")
    assert f.line == 8 and f.path == "SKILL.md"


def test_unclosed_fence_in_a_reference(tmp_path):
    [f] = lint(tmp_path, "SF120", files={"references/api.md": "# API\n\n~~~\ncode\n```\n"})
    assert f.path == "references/api.md" and f.line == 3


@pytest.mark.parametrize("text", [
    "````markdown\n```bash\nrun\n```\n````\n",  # a longer fence holds a shorter one
    "1. Install:\n   ```sh\n   pip install x\n   ```\n2. Run it.\n",  # fence in a list item
    "2. ```sh\n   make\n   ```\n",  # fence opening on the list marker's line
    "> ```\n> quoted\n> ```\n",  # fence in a blockquote
    "Inline ```code``` is not a fence.\n",
])
def test_closed_fences(text):
    assert unclosed_fence(text) is None


def test_a_closer_indented_four_spaces_does_not_close():
    text = "```\nexample\n    ```bash\n    run\n    ```\n```\nlater\n```\n"
    assert unclosed_fence(text) == 8


def test_an_inner_fence_closes_a_same_length_outer_one():
    # The outer block ends at the inner closer; the author's last ``` then opens a new block.
    text = "```markdown\n## Use\n```bash\nrun\n```\n```\n"
    assert unclosed_fence(text, first_line=10) == 15


# --- robustness ------------------------------------------------------------------------------

_PIECES = st.sampled_from([
    "---\n", "name: pdf-tools\n", "description: x\n", "metadata:\n", "  k: [1, 2]\n",
    "allowed-tools: Bash(a (b\n", "compatibility:\n", "```\n", "````md\n", "~~~\n", "2. ```sh\n",
    "> ```\n", "    ```\n", "`", "[a](", "references/", "scripts\\x.py", "./", "../", "{baseDir}/",
    "/Users/", "C:\\Users\\", "<!--", "-->", "\n", " ", "e.g. ", "x.md", ")", "#", "%2", "\t", "é",
])


@settings(max_examples=examples(200), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_checks_never_raise_on_odd_text(tmp_path, text):
    root = tmp_path / "pdf-tools"
    root.mkdir(exist_ok=True)
    (root / "SKILL.md").write_text(text, "utf-8")
    (root / "references").mkdir(exist_ok=True)
    (root / "references" / "notes.md").write_text(text, "utf-8")
    for f in findings(root):
        assert f.message.endswith((".", ")", "`")) and (f.line is None or f.line >= 1)
