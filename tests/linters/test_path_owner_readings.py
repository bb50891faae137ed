"""Paths the text presents as files of somewhere else than the skill (linters.text.paths.path_owner,
issue 36): a caption over an example block, a file the skill installs from its templates, a
template skill's paths, a plugin-root file. Each is kept out of the severe findings (left out
or a warning that says why), while the same path presented as the skill's own stays an error.
"""

from __future__ import annotations

from pathlib import Path

from linters import lint_skill
from skillforge.models.findings import Severity
from skillforge.models.skill import load_skill
from tests.linters.correctness_skill import skill_md, write_skill

DESC = "Sets up a project's deployment files. Use when the user asks for a deploy setup."


def found(root: Path, rule: str) -> list[tuple[int, Severity, str]]:
    report = lint_skill(load_skill(root), external=False)
    return [(f.line or 0, f.severity, f.message) for f in report.findings if f.rule == rule]


def severe(root: Path, rule: str) -> list[tuple[int, str]]:
    return [(line, msg) for line, sev, msg in found(root, rule) if sev == Severity.error]


def make(tmp_path: Path, body: str, files: dict[str, str] | None = None,
         folder: str = "deploy-kit") -> Path:
    fm = f"name: {folder.rsplit('/', 1)[-1]}\ndescription: {DESC}\n"
    return write_skill(tmp_path / folder, skill_md(fm, body), files)


CAPTIONS = """
# Deploy kit

Read `references/layout.md` first.

### scripts/warm-cache.sh

```bash
#!/bin/sh
curl -s "$APP_URL/health" > /dev/null
```

**File:** `charts/web/values-prod.yaml`

```yaml
replicas: 3
```

**deploy/compose.override.yml**
```yaml
services: {}
```

### scripts/rotate-keys.sh

```bash
bash scripts/rotate-keys.sh --dry-run
```

Then consult `references/rollback.md` for the way back.
"""


def test_a_path_captioning_the_block_below_is_the_blocks_file_not_the_skills(tmp_path):
    root = make(tmp_path, CAPTIONS, {"references/layout.md": "# Layout\n"})
    paths = {msg.split("`")[1] for _line, msg in severe(root, "SF116")}
    # The captions name the files the blocks are; the heading over a block that runs its
    # script, and a sentence sending the agent to a reference, still point into the skill.
    assert paths == {"scripts/rotate-keys.sh", "references/rollback.md"}


SCAFFOLD = """
# Deploy kit

Run `bash install.sh <project>` to copy the kit into the project.

## What the project gets

| File | Role |
|---|---|
| `scripts/notify.sh` | pings the on-call channel |
| `scripts/hooks/pre-push.sh` | blocks a push with failing checks |
| `scripts/cleanup.sh` | removes stale releases |

Check it with `bash scripts/notify.sh --test`.
"""


def test_a_file_installed_from_the_skills_templates_is_the_projects(tmp_path):
    root = make(tmp_path, SCAFFOLD, {
        "install.sh": "#!/bin/sh\n", "templates/notify.sh": "#!/bin/sh\n",
        "templates/hooks/pre-push.sh": "#!/bin/sh\n"})
    assert [msg.split("`")[1] for _l, msg in severe(root, "SF116")] == ["scripts/cleanup.sh"]
    warned = [msg for _l, sev, msg in found(root, "SF116") if sev == Severity.warning]
    assert len(warned) == 2 and all("templates/" in m and "installs" in m for m in warned)
    # No fix points the project's copy at the template.
    assert not any("point it at" in m for m in warned)
    assert severe(root, "SF301") == []
    assert any(sev == Severity.warning for _l, sev, _m in found(root, "SF301"))


TEMPLATE_SKILL = """
# Status

1. Run `bash scripts/status.sh --short`.
2. Summarise it; details in `references/fields.md`.
"""


def test_a_skill_in_another_skills_templates_folder_reads_paths_in_the_project(tmp_path):
    outer = make(tmp_path, "# Kit\n\nInstalls `templates/skills/status/` into the project.\n")
    inner = make(outer, TEMPLATE_SKILL, folder="templates/skills/status")
    assert severe(inner, "SF116") == [] and severe(inner, "SF301") == []
    assert {r for r in ("SF116", "SF301") if any(
        sev == Severity.warning and "template in `deploy-kit/templates/`" in m
        for _l, sev, m in found(inner, r))} == {"SF116", "SF301"}
    # The same skill standing alone: its paths are its own, and missing.
    alone = make(tmp_path / "alone", TEMPLATE_SKILL, folder="status")
    assert len(severe(alone, "SF116")) == 1 and len(severe(alone, "SF301")) == 1


PLUGIN_ROOT = """
# Deploy kit

Load the plugin's shared checklist with `cat ${CLAUDE_PLUGIN_ROOT}/references/checklist.md`.

## Steps

1. Walk the checklist (`references/checklist.md`) item by item.
2. The release rules are plugin-root `references/release-rules.md`.
3. Read `references/missing-guide.md` before starting.
"""


def test_a_plugin_root_file_given_in_full_or_in_words_is_a_warning(tmp_path):
    root = make(tmp_path / "plugins/kit/skills", PLUGIN_ROOT)
    assert [msg.split("`")[1] for _l, msg in severe(root, "SF116")] == [
        "references/missing-guide.md"]
    warned = {msg.split("`")[1]: msg for _l, sev, msg in found(root, "SF116")
              if sev == Severity.warning}
    assert set(warned) == {"references/checklist.md", "references/release-rules.md"}
    assert "${CLAUDE_PLUGIN_ROOT}/references/checklist.md" in warned["references/checklist.md"]


OTHER_SKILL = """
# Deploy kit

Pushing a release is the job of the **`release-train`** skill (its `references/tags.md`
explains the tag scheme); for rollbacks see `release-train` → `references/undo.md`.
The `ops-notes`'s runbook section and its `references/pager.md` cover on-call.
Drafts come nightly from the `notes-kit` `scripts/draft.sh --all`.

Before any of this, read `references/preflight.md`.
"""


def test_a_file_given_as_another_named_skills_is_not_this_skills(tmp_path):
    root = make(tmp_path, OTHER_SKILL)
    # `ops-notes` stands beside this skill and lacks the file: a broken reference still.
    make(tmp_path, "# Ops notes\n\nOn-call basics.\n", folder="ops-notes")
    assert [msg.split("`")[1] for _l, msg in severe(root, "SF116")] == [
        "references/pager.md", "references/preflight.md"]
    warned = [msg for _l, sev, msg in found(root, "SF116") if sev == Severity.warning]
    assert len(warned) == 2 and all("`release-train`, not found" in m for m in warned)
    assert severe(root, "SF301") == []
    assert [sev for _l, sev, _m in found(root, "SF301")] == [Severity.warning]


AUTHORING = """
# Deploy kit

Read `references/style.md` before writing a skill.

- Point readers on: "See references/anything.md for the details."
- Write steps as orders ("To deploy, run scripts/ship.sh"), never as descriptions.

## Ideas for future checks

- `references/cost-check.md` - estimates a deploy's cost

## Project layout

- Detect the project's own hooks, if present:
  - `./.hooks/pre-deploy.sh`
  - `./.hooks/post-deploy.sh`
- Then read `references/layout-rules.md`.

Examples that are fine to commit:

- `./scripts/smoke.sh` (repo-relative)
"""


def test_phrases_to_write_planned_files_and_looked_for_files_are_not_pointers(tmp_path):
    root = make(tmp_path, AUTHORING)
    assert sorted(msg.split("`")[1] for _l, msg in severe(root, "SF116")) == [
        "references/layout-rules.md", "references/style.md"]
    # a planned file is softened, as a changelog's are, never dropped: SF116 checks every link
    planned = [(sev, msg) for _l, sev, msg in found(root, "SF116") if "cost-check" in msg]
    assert planned and all(sev == Severity.warning and "not written yet" in msg
                           for sev, msg in planned), planned
    assert severe(root, "SF301") == []


AFTER_A_BLOCK = """
# Regenerate

```
# Example:
"Use deploy-kit to regenerate the api docs"
```

Then:

1. Run the checker on the result: `uv run scripts/check-docs.py --all`
"""


def test_an_example_comment_in_a_code_block_labels_that_block_not_the_steps_after_it(tmp_path):
    # `# Example:` inside the block above is the block's own label; the steps below it are
    # instructions, and the script they run is missing
    root = make(tmp_path, AFTER_A_BLOCK)
    assert [msg.split("`")[1] for _l, msg in severe(root, "SF301")] == [
        "uv run scripts/check-docs.py --all"]
