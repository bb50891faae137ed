"""Readings from the twenty-first held-out part of issue 36.

- SF118: a UTF-8 byte-order mark before `---` is an error only where a parser reads that
  frontmatter: SKILL.md and the files of harness formats (a subagent, a slash command, a
  Kiro steering file, a Cursor rule, ...). Before the leftover frontmatter of a reference
  the agent reads as text it hides nothing: a warning that says why. A raw NUL byte stays
  an error wherever it is.
- SF301: a comment or sentence saying the scripts (or the commands, or the paths) are
  relative to a folder (`# Scripts are relative to ../shared-tools/`, "run these from
  `../shared-tools`") makes a run of `scripts/x.py` the one in that folder: where it is on
  disk, nothing is reported; where it is not there either, the error stays.

Every skill text here is written for this file; each test failed before its reading.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from linters import lint_skill
from linters.correctness.frontmatter_files import frontmatter_reader
from skillforge.models.findings import Severity
from tests.linters.rule_findings import severe
from tests.linters.test_security import make_skill
from tests.hypothesis_budget import examples

# --- SF118: whose frontmatter a byte-order mark hides ----------------------------------------

BOM = b"\xef\xbb\xbf"
_FRONT = "---\ndescription: Ledger rules for month-end\n---\n# Month-end rules\n\nClose by day 3.\n"


def _bom_findings(tmp_path, rel: str, text: str = _FRONT):
    skill = make_skill(tmp_path, "# Ledger\n\nThe manual is `references/manual.md`.\n")
    p = skill / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(BOM + text.encode("utf-8"))
    return [(f.path, f.severity, f.message) for f in lint_skill(skill, external=False).findings
            if f.rule == "SF118"]


def test_a_bom_before_a_references_frontmatter_is_a_warning_that_says_why(tmp_path):
    for rel in ("references/manual.md", "SKILL.ref.md", "docs/notes.md"):
        [(path, sev, msg)] = _bom_findings(tmp_path / rel.replace("/", "-"), rel)
        assert (path, sev) == (rel, Severity.warning)
        assert "hides that block from no parser" in msg


def test_a_bom_before_a_harness_files_frontmatter_stays_an_error(tmp_path):
    for rel in ("agents/reviewer.md", "assets/commands/close.md", "templates/steering/rules.md",
                "assets/.cursor/rules/ledger.md", "templates/ledger.instructions.md",
                "assets/.windsurf/rules/ledger.md"):
        [(path, sev, msg)] = _bom_findings(tmp_path / rel.replace("/", "-"), rel)
        assert (path, sev) == (rel, Severity.error), rel
        assert "reads it as" in msg


def test_a_harness_folder_without_frontmatter_is_still_info(tmp_path):
    assert [(p, s) for p, s, _ in _bom_findings(tmp_path, "agents/reviewer.md", "# Reviewer\n")] \
        == [("agents/reviewer.md", Severity.info)]


def test_a_nul_byte_in_a_reference_stays_an_error(tmp_path):
    skill = make_skill(tmp_path, "# Ledger\n\nThe manual is `references/manual.md`.\n")
    (skill / "references").mkdir()
    (skill / "references" / "manual.md").write_bytes(
        b"---\ntitle: x\n---\n# Payloads\n\n" + b"Upload names.\n" * 700 + b"name.php\x00.jpg\n")
    found = [(f.path, f.severity) for f in lint_skill(skill, external=False).findings
             if f.rule == "SF118"]
    assert found == [("references/manual.md", Severity.error)]


_FOLDER = st.sampled_from(["references", "docs", "notes", "guides", "assets", "examples"])
_NAME = st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(_FOLDER, max_size=3), _NAME)
def test_no_reader_for_plain_markdown_in_plain_folders(folders, name):
    assert frontmatter_reader("/".join([*folders, f"{name}.md"])) is None
    assert frontmatter_reader("/".join([*folders, "agents", f"{name}.md"])) is not None
    assert frontmatter_reader("/".join([*folders, f"{name}.mdc"])) is not None


# --- SF301: a folder the text says the scripts are relative to -------------------------------

_FAN_OUT = """\
# Index the catalogue

Build a searchable index of the product catalogue.

## Step 2: one helper per region

Give each helper this prompt:

```
Index the products of region {REGION}.

Use the tool for every query:
# Scripts are relative to ../catalogue-tools/
uv run scripts/query.py --region {REGION} "SELECT sku FROM items"

Return the SKUs with their counts.
```
"""


def _two_skills(tmp_path, body: str, sibling_files: dict[str, str]):
    skill = make_skill(tmp_path, body, name="catalogue-index")
    make_skill(tmp_path, "# Catalogue tools\n\nQuery helpers.\n", sibling_files,
               name="catalogue-tools")
    return skill


def test_a_comment_naming_the_scripts_folder_resolves_the_run_there(tmp_path):
    skill = _two_skills(tmp_path, _FAN_OUT, {"scripts/query.py": "print('ok')\n"})
    assert severe(skill, "SF301") == []


def test_the_script_missing_from_the_stated_folder_too_stays_an_error(tmp_path):
    skill = _two_skills(tmp_path, _FAN_OUT, {"scripts/other.py": "print('ok')\n"})
    assert severe(skill, "SF301") == [("SKILL.md", 19, "error")]


def test_without_the_statement_the_sibling_does_not_count(tmp_path):
    body = _FAN_OUT.replace("# Scripts are relative to ../catalogue-tools/\n", "")
    skill = _two_skills(tmp_path, body, {"scripts/query.py": "print('ok')\n"})
    assert severe(skill, "SF301") == [("SKILL.md", 18, "error")]


_PROSE = """\
# Index the catalogue

**Tools:** {statement}

```bash
python3 scripts/query.py --all
```
"""


def test_prose_that_names_the_folder_resolves_the_run_there(tmp_path):
    for i, statement in enumerate((
            "run these commands from `../catalogue-tools/`.",
            "all commands below are relative to the `catalogue-tools` skill's directory.",
            "`cd` to `../catalogue-tools` before running them.",
            "paths below are relative to ../catalogue-tools/.")):
        body = _PROSE.format(statement=statement)
        skill = _two_skills(tmp_path / str(i), body, {"scripts/query.py": "print('ok')\n"})
        assert severe(skill, "SF301") == [], statement
        twin = _two_skills(tmp_path / f"{i}-twin", body, {"scripts/other.py": "print('ok')\n"})
        assert severe(twin, "SF301") == [("SKILL.md", 11, "error")], statement


def test_words_that_name_no_folder_change_nothing(tmp_path):
    for i, statement in enumerate((
            "paths are relative to this file.", "run them from a clean shell.",
            "paths below are relative to `<tools-dir>`.")):
        body = _PROSE.format(statement=statement)
        skill = _two_skills(tmp_path / str(i), body, {"scripts/query.py": "print('ok')\n"})
        assert severe(skill, "SF301") == [("SKILL.md", 11, "error")], statement
