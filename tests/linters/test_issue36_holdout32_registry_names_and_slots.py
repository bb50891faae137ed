"""Issue 36, holdout32: a repository's own catalogue naming its skills, and a file name's slot.

1. SF110. A repository that installs its skills with its own installer keeps a catalogue of
   them at its top (`registry.json`: `{"id": "acme-maps", "path": "skills/sdk/maps"}`), and
   the installer copies each folder to `.claude/skills/<id>/`. Where that id is the
   SKILL.md's `name`, the mismatch with the folder is the repository's naming: a warning
   citing the catalogue's line and the installer's. Twins keep the error: the folder listed
   under another id, a catalogue of other folders only, no catalogue, a catalogue in a
   sibling skill's folder or below the top, a catalogue no installer reads, a generated index
   (it copies each `name` beside the folder's path), an installer that copies by the folder's
   path, and a copy of the skill without its repository.
2. SF116. A link target whose file name holds a slot to fill in, such as a run of `#` (`F##`,
   the finding's number in a report template), `XX` or an ellipsis, names the file the
   agent will write, not a broken link. Twins keep the error: the same link with a real
   number (`F01`), a fragment after a missing file (`notes.md#setup`), and a language name
   with one `#` (`F#.md`). A real anchor in a file the skill has stays fine.

Every repository, catalogue and skill here is written for this file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linters.correctness.registry_name import registry_listing
from linters.text.paths.other_roots import templated_name
from skillforge.models.findings import Severity
from tests.hypothesis_budget import examples
from tests.linters.correctness_skill import checkout, findings, lint, skill_md, write_skill
from tests.linters.rule_findings import fresh_root

# --- 1. a catalogue naming the skill ------------------------------------------------------

SKILL = "skills/sdk/maps"
NAME = "acme-maps"
TEXT = skill_md(f"name: {NAME}\ndescription: Adds the Acme maps SDK to a mobile app. "
                "Use when the user wants maps in their app.\n",
                body="\n# Acme maps\n\n1. Add the package.\n2. Call `Maps.init()`.\n")


def _registry(*entries: dict) -> str:
    return json.dumps({"version": 2, "skills": list(entries)}, indent=2) + "\n"


# The repository's own installer: it reads the catalogue and copies the folder of the entry
# asked for into the project's `.claude/skills/<id>/`.
INSTALL_JS = """\
#!/usr/bin/env node
// acme-skills: copy one skill of this repository into the current project.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const here = new URL('..', import.meta.url).pathname;
const catalogue = JSON.parse(readFileSync(join(here, 'registry.json'), 'utf8'));
const wanted = catalogue.skills.find((e) => e.id === process.argv[2]);
const target = join(process.cwd(), '.claude', 'skills', wanted.id);
cpSync(join(here, wanted.path), target, { recursive: true });
"""
INSTALLER = {"bin/install.mjs": INSTALL_JS}


def _sf110(root: Path) -> list:
    return findings(root, "SF110")


def test_the_catalogue_the_repositorys_installer_installs_from_is_a_warning(tmp_path):
    docs = {"registry.json": _registry(
        {"id": "acme-charts", "path": "skills/sdk/charts"},
        {"id": NAME, "title": "Acme maps", "path": SKILL}), **INSTALLER}
    root = checkout(tmp_path / "repo", docs, SKILL, TEXT)
    [f] = _sf110(root)
    assert f.severity is Severity.warning
    assert "`registry.json` line 11" in f.message and f"`{SKILL}`" in f.message
    assert "`bin/install.mjs` line 9" in f.message
    assert f"rename the folder to `{NAME}`" in f.message


INSTALL_PY = """\
\"\"\"Copy a skill listed in skills.yaml into ~/.claude/skills under its catalogue name.\"\"\"
import shutil
import sys
from pathlib import Path

import yaml

top = Path(__file__).resolve().parent.parent
entries = yaml.safe_load((top / "skills.yaml").read_text())["skills"]
entry = next(e for e in entries if e["name"] == sys.argv[1])
shutil.copytree(top / entry["dir"], Path.home() / ".claude" / "skills" / entry["name"])
"""
INSTALL_SH = """\
#!/usr/bin/env bash
# usage: ./add.sh <slug>   (reads catalog.yml)
set -euo pipefail
slug="$1"
src="$(yq ".[] | select(.slug == \\"$slug\\") | .source" catalog.yml)"
mkdir -p ".agents/skills/$slug" && cp -r "$(dirname "$src")"/. ".agents/skills/$slug/"
"""
INSTALL_TOOL = """\
import json, pathlib, sys
packs = json.loads(pathlib.Path("index.json").read_text())["packs"]
pack = next(p for group in packs.values() for p in group if p["id"] == sys.argv[1])
dest = pathlib.Path(sys.argv[2]) / ".cursor" / "skills" / pack.get("id")
"""


@pytest.mark.parametrize("catalogue, body, installer", [
    ("skills.yaml", f"skills:\n  - name: {NAME}\n    dir: ./{SKILL}/\n",
     {"scripts/install.py": INSTALL_PY}),
    ("catalog.yml", f"- slug: {NAME}\n  source: {SKILL}/SKILL.md\n", {"add.sh": INSTALL_SH}),
    ("index.json", json.dumps({"packs": {"mobile": [{"id": NAME, "folder": SKILL}]}}),
     {"tools/fetch.py": INSTALL_TOOL}),
])
def test_other_catalogues_installers_and_spellings_of_the_path(tmp_path, catalogue, body,
                                                                installer):
    root = checkout(tmp_path / "repo", {catalogue: body, **installer}, SKILL, TEXT)
    [f] = _sf110(root)
    assert f.severity is Severity.warning and f"`{catalogue}`" in f.message
    assert f"`{next(iter(installer))}`" in f.message


def test_a_plugins_catalogue_and_installer_at_the_plugins_top(tmp_path):
    plugin = "plugins/acme"
    docs = {f"{plugin}/.claude-plugin/plugin.json": '{"name": "acme"}',
            f"{plugin}/registry.json": _registry({"id": NAME, "path": "skills/maps"}),
            f"{plugin}/bin/install.mjs": INSTALL_JS}
    root = checkout(tmp_path / "repo", docs, f"{plugin}/skills/maps", TEXT)
    [f] = _sf110(root)
    assert f.severity is Severity.warning and "`registry.json` line" in f.message


# A script that generates the catalogue from the SKILL.md files: it copies each `name` and
# gives each entry the folder's path, and installs nothing.
GENERATE_JS = """\
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
const skills = [];
for (const d of readdirSync('.claude/skills', { withFileTypes: true })) {
  const fm = frontmatter(readFileSync(`.claude/skills/${d.name}/SKILL.md`, 'utf8'));
  skills.push({ name: fm.name || d.name, path: `.claude/skills/${d.name}` });
}
writeFileSync('registry.json', JSON.stringify({ skills }, null, 2));
"""
# An installer that copies each skill under its folder's name.
BY_PATH_JS = INSTALL_JS.replace("'skills', wanted.id)", "'skills', basename(wanted.path))")
# An installer that reads no catalogue.
NO_CATALOGUE_JS = INSTALL_JS.replace("'registry.json'", "'skills.txt'")


@pytest.mark.parametrize("docs", [
    {"registry.json": _registry({"id": "acme-maps-sdk", "path": SKILL}), **INSTALLER},
    {"registry.json": _registry({"id": NAME, "path": "skills/sdk/charts"}), **INSTALLER},
    {"registry.json": _registry({"id": NAME}), **INSTALLER},
    INSTALLER,
    {"skills/sdk/charts/registry.json": _registry({"id": NAME, "path": "../maps"}),
     "skills/sdk/charts/bin/install.mjs": INSTALL_JS},
    {"skills/registry.json": _registry({"id": NAME, "path": "sdk/maps"}),
     "skills/bin/install.mjs": INSTALL_JS},
    {"registry.json": _registry({"id": NAME, "path": "/skills/sdk/maps"}), **INSTALLER},
    {"registry.json": _registry({"id": NAME, "path": SKILL})},
    {"registry.json": _registry({"name": NAME, "path": SKILL}), "scripts/index.mjs": GENERATE_JS},
    {"registry.json": _registry({"id": NAME, "path": SKILL}), "bin/install.mjs": BY_PATH_JS},
    {"registry.json": _registry({"id": NAME, "path": SKILL}), "bin/install.mjs": NO_CATALOGUE_JS},
], ids=["other-id", "other-folders", "no-path", "no-catalogue", "sibling", "below-top",
        "absolute", "no-installer", "generated-index", "installs-by-folder", "other-list"])
def test_catalogue_twins_keep_the_error(tmp_path, docs):
    root = checkout(tmp_path / "repo", docs, SKILL, TEXT)
    [f] = _sf110(root)
    assert f.severity is Severity.error


def test_a_copy_without_its_repository_keeps_the_error(tmp_path):
    (tmp_path / "registry.json").write_text(_registry({"id": NAME, "path": SKILL}), "utf-8")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "install.mjs").write_text(INSTALL_JS, "utf-8")
    root = write_skill(tmp_path / SKILL, TEXT)  # no `.git`: a copy, no top to trust
    [f] = _sf110(root)
    assert f.severity is Severity.error


def test_a_catalogue_that_does_not_parse_says_nothing(tmp_path):
    docs = {"registry.json": '{"skills": [{"id": "acme-maps", "path": "skills/sdk/maps"}',
            **INSTALLER}
    root = checkout(tmp_path / "repo", docs, SKILL, TEXT)
    [f] = _sf110(root)
    assert f.severity is Severity.error


_ID = st.sampled_from([NAME, "acme-map", "maps", "acme-charts"])
_PATH = st.sampled_from([SKILL, f"./{SKILL}", f"{SKILL}/", f"{SKILL}/SKILL.md",
                         "skills/sdk/charts", "skills/maps", "sdk/maps", "skills/sdk"])
_ENTRY = st.fixed_dictionaries({}, optional={"id": _ID, "name": _ID, "path": _PATH,
                                             "title": st.just("Maps")})
_THE_FOLDER = {SKILL, f"./{SKILL}", f"{SKILL}/", f"{SKILL}/SKILL.md"}


@settings(max_examples=examples(120), deadline=None)
@given(entries=st.lists(_ENTRY, max_size=4), at_top=st.booleans(),
       installer=st.sampled_from([None, INSTALL_JS, BY_PATH_JS, GENERATE_JS]))
def test_a_warning_exactly_when_the_installer_installs_from_a_top_catalogue_under_the_name(
        tmp_path_factory, entries, at_top, installer):
    top = fresh_root(tmp_path_factory.getbasetemp(), "registry-property")
    where = "" if at_top else "skills/"
    text = _registry(*entries)
    if not at_top:
        text = text.replace('"skills/', '"')
    docs = {f"{where}registry.json": text}
    if installer is not None:
        docs[f"{where}bin/install.mjs"] = installer
    root = checkout(top, docs, SKILL, TEXT)
    by_id = any(e.get("path") in _THE_FOLDER and e.get("id") == NAME for e in entries)
    expected = at_top and installer is INSTALL_JS and by_id
    [f] = _sf110(root)
    assert (f.severity is Severity.warning) == expected
    assert (registry_listing(root, NAME) is not None) == expected


# --- 2. a slot in a linked file's name ------------------------------------------------------

REPORT = """\
# Incident write-up

Write each finding in this shape:

## Finding F##: <short title>

**Steps:** <what you did>

**Evidence:**
![F##_evidence]({target})

Then list the next finding.
"""


def _sf116(tmp_path: Path, target: str, files: dict[str, str] | None = None) -> list:
    return lint(tmp_path, "SF116", body="\n" + REPORT.format(target=target), files=files)


@pytest.mark.parametrize("target", [
    "evidence/F##_login_bypass.png", "evidence/F-###-session.png", "shots/##.png",
    "evidence/XX-notes.md", "evidence/step-....md", "evidence/F-…-trace.png",
])
def test_a_file_name_with_a_slot_is_no_broken_link(tmp_path, target):
    assert _sf116(tmp_path, target) == []


@pytest.mark.parametrize("target", [
    "evidence/F01_login_bypass.png",  # a real number: the file should be there
    "evidence/notes.md#setup",  # a fragment after a missing file
    "references/F#.md",  # one `#`: a language's name, read as a fragment as before
    "evidence/XXL-sizes.md",  # capitals that are no slot
])
def test_link_twins_keep_the_error(tmp_path, target):
    [f] = _sf116(tmp_path, target)
    assert f.severity is Severity.error


def test_a_real_anchor_in_a_file_the_skill_has_is_fine(tmp_path):
    files = {"evidence/notes.md": "# Notes\n\n## Setup\n\nInstall the proxy.\n"}
    assert _sf116(tmp_path, "evidence/notes.md#setup", files) == []


def test_language_names_in_the_text_change_nothing(tmp_path):
    body = ("\n# Ports\n\nPorts C# and F# samples; see the [guide](references/porting.md) for "
            "C# first.\n")
    [f] = lint(tmp_path, "SF116", body=body)
    assert f.severity is Severity.error


_STEM = st.text("abcdefgh_-", min_size=1, max_size=8)
_SLOT = st.sampled_from(["##", "###", "XX", "....", "…"])


@settings(max_examples=examples(150), deadline=None)
@given(before=_STEM, after=_STEM, slot=st.one_of(st.none(), _SLOT),
       ext=st.sampled_from([".png", ".md", ".txt"]))
def test_a_missing_link_is_an_error_exactly_when_its_name_holds_no_slot(
        tmp_path_factory, before, after, slot, ext):
    sep = "-" if slot == "XX" else ""  # capitals are a slot as a word of the name
    name = f"{before}{sep}{slot}{sep}{after}{ext}" if slot else f"{before}{after}{ext}"
    root = fresh_root(tmp_path_factory.getbasetemp(), "slot-property")
    found = _sf116(root, f"evidence/{name}")
    assert templated_name(f"evidence/{name}") == (slot is not None)
    assert [f.severity for f in found] == ([] if slot else [Severity.error])
