"""Issue 36, holdout21: `./` paths of the folder a skill runs in, not files of the skill.

A skill a worker runs lists the folder the worker prepares ("## Workspace": `./repo`,
`./settings.json`, `./result.json`) and its steps read those files or write them
(`tool > ./scan.json`, "write the summary to `./result.json`"). SF116 read each as a missing
file of the skill (linters.text.paths.run_folder). Each twin keeps the error: the skill's own
folders listed in such a section, a Markdown link, and a `./` file named with no run folder
in sight.

Every skill text here is written for this file.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from linters.text.markdown import MarkdownDoc
from linters.text.paths.run_folder import run_folder_path
from tests.hypothesis_budget import examples
from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_AUDIT = """\
# Licence audit

Check every dependency's licence against the policy.

## Workspace

- `./repo` — the project checked out at the audited commit
- `./settings.json` — holds `policy_url` and `api_key`
- `./result.json` — write the verdicts here

## Steps

1. Read `./settings.json` and fetch the policy from `policy_url`.
2. List the dependencies of `./repo/package.json`.
3. Write one verdict per dependency to `./result.json`.
"""


def test_a_workspace_section_lists_the_run_folders_files(tmp_path):
    """Before: SF116 errors on `./settings.json` and `./result.json` in the list, and on
    "Read `./settings.json`" in the steps."""
    skill = make_skill(tmp_path, _AUDIT, name="licence-audit")
    assert severe(skill, "SF116") == []


def test_the_skills_own_folders_in_a_workspace_section_stay_checked(tmp_path):
    body = _AUDIT.replace("- `./result.json` — write the verdicts here",
                          "- `./result.json` — write the verdicts here\n"
                          "- `./scripts/collect.py` — the collector\n"
                          "- `references/policy-notes.md` — how to read a policy")
    skill = make_skill(tmp_path, body, name="licence-audit")
    assert [r[2] for r in severe(skill, "SF116")] == ["error", "error"]


def test_a_link_to_a_missing_reference_stays_an_error(tmp_path):
    body = _AUDIT + "\nEdge cases are in [the notes](./references/edge-cases.md).\n"
    skill = make_skill(tmp_path, body, name="licence-audit")
    assert [r[2] for r in severe(skill, "SF116")] == ["error"]


_LAYOUT_LEAD = """\
# Changelog drafter

Workspace layout:
- `./checkout` — the repository at the release tag
- Incremental runs also get `./commits.txt` and `./previous.md`.

## Incremental runs

Read `./commits.txt` first, then `./previous.md`, and keep its unchanged entries.
"""


def test_a_list_led_in_by_the_workspace_gives_its_paths(tmp_path):
    """Before: "Read `./commits.txt` first, then `./previous.md`" were two errors."""
    skill = make_skill(tmp_path, _LAYOUT_LEAD, name="changelog-drafter")
    assert severe(skill, "SF116") == []


def test_the_same_sentence_without_the_workspace_list_stays_an_error(tmp_path):
    body = _LAYOUT_LEAD.split("## Incremental runs")[1]
    skill = make_skill(tmp_path, "# Changelog drafter\n\n## Incremental runs" + body,
                       name="changelog-drafter")
    assert [r[2] for r in severe(skill, "SF116")] == ["error", "error"]


_REDIRECT = """\
# Workflow lint

Run the checker and keep its output:

```bash
python3 scripts/check.py > ./hits.json
```

If `./hits.json` is empty, stop. Otherwise read `./hits.json` and explain each hit.
"""


def test_a_file_the_steps_redirect_into_is_the_run_folders(tmp_path):
    skill = make_skill(tmp_path, _REDIRECT, {"scripts/check.py": "print('{}')\n"},
                       name="workflow-lint")
    assert severe(skill, "SF116") == []


def test_reading_a_file_nothing_writes_stays_an_error(tmp_path):
    body = _REDIRECT.replace("> ./hits.json", "> /tmp/hits.json")
    skill = make_skill(tmp_path, body, {"scripts/check.py": "print('{}')\n"},
                       name="workflow-lint")
    assert [r[2] for r in found(skill, "SF116")] == ["error"]


def test_a_file_written_by_a_sentence_is_the_run_folders(tmp_path):
    body = ("# Summary\n\nWrite `{\"error\": \"...\"}` to `./result.json` when the fetch "
            "fails.\n\nOtherwise read `./result.json` back and check its fields.\n")
    skill = make_skill(tmp_path, body, name="summary")
    assert severe(skill, "SF116") == []


def test_writing_according_to_a_guide_does_not_make_it_an_output(tmp_path):
    body = ("# Summary\n\nWrite the summary according to `./style-guide.md`.\n\n"
            "See `./style-guide.md` for the tone.\n")
    skill = make_skill(tmp_path, body, name="summary")
    assert [r[2] for r in severe(skill, "SF116")] == ["error"]


def test_an_output_format_heading_is_not_the_run_folder(tmp_path):
    body = ("# Summary\n\n## Output format\n\n- `./layout.md` — the sections to follow\n\n"
            "Read `./layout.md` before writing.\n")
    skill = make_skill(tmp_path, body, name="summary")
    assert [r[2] for r in severe(skill, "SF116")] == ["error"]


# --- the reading itself, on generated documents -----------------------------------------------

_TITLES = ["Workspace", "The workspace", "Working directory", "Run folder", "Workspace layout",
           "Inputs", "Outputs", "Inputs and outputs", "Files in the workspace",
           "Workspace and inputs"]
_NOT_TITLES = ["Output format", "Usage", "References", "What to do", "Files"]
_NAMES = st.from_regex(r"[a-z][a-z0-9_-]{0,10}\.(?:json|md|txt|patch)", fullmatch=True)


def _doc(title: str, name: str, level: int, filler: str) -> MarkdownDoc:
    return MarkdownDoc(f"# Tool\n\n{filler}\n\n{'#' * level} {title}\n\n"
                       f"- `./{name}` — one of the files\n\n## Steps\n\nRead `./{name}`.\n")


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(_TITLES), _NAMES, st.integers(2, 4),
       st.sampled_from(["Intro text.", "Runs headless.", ""]))
def test_a_path_a_run_folder_section_lists_is_the_run_folders(title, name, level, filler):
    doc = _doc(title, name, level, filler)
    assert run_folder_path(doc, f"./{name}")
    assert run_folder_path(doc, f"./{name}/inner.txt")  # below a listed folder
    assert not run_folder_path(doc, f"./other-{name}")


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(_NOT_TITLES), _NAMES, st.integers(2, 4))
def test_a_path_under_another_heading_is_not(title, name, level):
    assert not run_folder_path(_doc(title, name, level, ""), f"./{name}")
