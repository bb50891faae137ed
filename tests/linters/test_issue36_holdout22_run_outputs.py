"""Issue 36, holdout22: files a run writes, not files the skill ships (SF116).

A skill of a collection reads what another step left behind: the JSON a preflight script it
has just run writes where it runs, a file a sibling skill's steps write (`--out ./p`,
`--output "{out}/p"`, "The script writes `./p`"), or a file the words give as the output of
a named skill, command or script ("`/mapper` 输出的 `scripts/scan.json`", "`p`, written by
`collect.sh`"). SF116 read each as a missing file of the skill
(`linters.text.paths.run_folder`, `linters.text.paths.run_outputs`). A `./` path is the run
folder's (no finding, as `run_folder` does); any other is a warning that names the producer.

Twins that keep the error: a Markdown link, a script or a guide of the skill's own folders
"output by" something, a path a sibling only reads, the same file named away from the block
that made it, a `.md` of the script's stem, a block that shows the script without running it.

Every skill text here is written for this file.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from linters.text.markdown import MarkdownDoc
from linters.text.paths.path_context import Paragraph
from linters.text.paths.run_folder import run_folder_path
from linters.text.paths.run_outputs import run_output
from tests.hypothesis_budget import examples
from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

# --- a script the skill's own block runs ---------------------------------------------------

_PREFLIGHT = """\
# Render farm

## Step 1: Check the host

```bash
bash ../_common/tools/hostcheck.sh
```

Read `./farm_state/hostcheck.json` and stop if `gpu.count` is 0.

## Step 2: Render

Queue the frames.
"""


def test_a_file_named_right_after_the_block_that_runs_its_script_is_the_run_folders(tmp_path):
    """Before: "Read `./farm_state/hostcheck.json`" was an error."""
    skill = make_skill(tmp_path, _PREFLIGHT, name="render-farm")
    assert found(skill, "SF116") == []


def test_the_same_file_named_away_from_the_block_stays_an_error(tmp_path):
    body = _PREFLIGHT.replace(
        "Read `./farm_state/hostcheck.json` and stop if `gpu.count` is 0.",
        "Tell the user the host is being checked.").replace(
        "Queue the frames.", "Read `./farm_state/hostcheck.json` and queue the frames.")
    skill = make_skill(tmp_path, body, name="render-farm")
    assert [r[2] for r in found(skill, "SF116")] == ["error"]


def test_a_document_of_the_scripts_stem_stays_an_error(tmp_path):
    body = _PREFLIGHT.replace("hostcheck.json` and stop if `gpu.count` is 0",
                              "hostcheck.md` for what each check means")
    skill = make_skill(tmp_path, body, name="render-farm")
    assert [r[2] for r in found(skill, "SF116")] == ["error"]


def test_a_block_that_shows_the_script_without_running_it_stays_an_error(tmp_path):
    body = _PREFLIGHT.replace("bash ../_common/tools/hostcheck.sh",
                              "cat ../_common/tools/hostcheck.sh")
    skill = make_skill(tmp_path, body, name="render-farm")
    assert [r[2] for r in found(skill, "SF116")] == ["error"]


# --- a sibling skill's steps write it ------------------------------------------------------

_SETUP = """\
# Farm setup

Run the host check first:

```bash
bash ../_common/tools/hostcheck.sh
```

The script writes `./farm_state/host.json`. Then record the install:

```bash
python3 scripts/record.py --inventory ./farm_state/inventory.json --out ./farm_state/install.json
```
"""

_SWEEP = """\
# Render sweep

## Step 1

Read `./farm_state/host.json` and `./farm_state/install.json` before you queue anything.
"""


def _collection(tmp_path: Path, reader: str, writer: str = _SETUP) -> Path:
    make_skill(tmp_path, writer, {"scripts/record.py": "print('ok')\n"}, name="farm-setup")
    return make_skill(tmp_path, reader, name="render-sweep")


def test_a_file_a_sibling_skills_steps_write_is_the_run_folders(tmp_path):
    """Before: two errors, for a sentence ("The script writes") and an output flag of the
    sibling `farm-setup`."""
    assert found(_collection(tmp_path, _SWEEP), "SF116") == []


def test_a_file_the_sibling_only_reads_stays_an_error(tmp_path):
    reader = "# Render sweep\n\nRead `./farm_state/inventory.json` before you queue anything.\n"
    assert [r[2] for r in found(_collection(tmp_path, reader), "SF116")] == ["error"]


def test_a_link_to_a_file_a_sibling_writes_stays_an_error(tmp_path):
    reader = "# Render sweep\n\nThe last check is in [the host report](./farm_state/host.json).\n"
    assert [r[2] for r in found(_collection(tmp_path, reader), "SF116")] == ["error"]


_MAPPER = """\
# Bundle mapper

```bash
python3 scripts/map_bundles.py "{src}" --output "{out_dir}/scripts/bundle_map.json"
```
"""

_LEAKS = """\
# Leak hunt

Inputs to read first:

- `scripts/bundle_map.json`
- every `.js` file of the bundle
"""


def test_a_file_a_sibling_writes_below_its_output_root_is_a_warning_naming_it(tmp_path):
    """Before: an error; the sibling writes it below `{out_dir}/`, a run's folder."""
    make_skill(tmp_path, _MAPPER, {"scripts/map_bundles.py": "print(1)\n"}, name="bundle-mapper")
    skill = make_skill(tmp_path, _LEAKS, name="leak-hunt")
    report = found(skill, "SF116")
    assert [r[2] for r in report] == ["warning"]
    from linters import lint_skill
    message = next(f.message for f in lint_skill(skill, external=False).findings
                   if f.rule == "SF116")
    assert "`bundle-mapper` writes it" in message


def test_a_file_the_sibling_only_mentions_stays_an_error(tmp_path):
    mapper = _MAPPER.replace('--output "{out_dir}/scripts/bundle_map.json"',
                             '--cache "{out_dir}/scripts/bundle_map.json"')
    make_skill(tmp_path, mapper, {"scripts/map_bundles.py": "print(1)\n"}, name="bundle-mapper")
    skill = make_skill(tmp_path, _LEAKS, name="leak-hunt")
    assert [r[2] for r in found(skill, "SF116")] == ["error"]


def test_a_sibling_that_ships_the_file_it_writes_leaves_the_error(tmp_path):
    """A build step writing the sibling's own file: a shipped file, this skill lacks it."""
    make_skill(tmp_path, _MAPPER, {"scripts/map_bundles.py": "print(1)\n",
                                   "scripts/bundle_map.json": "{}\n"}, name="bundle-mapper")
    skill = make_skill(tmp_path, _LEAKS, name="leak-hunt")
    assert [r[2] for r in severe(skill, "SF116")] == ["error"]


# --- the words name the producer -----------------------------------------------------------

_NAMED = {
    "zh": "- `/bundle-mapper` 输出的 `scripts/bundle_map.json`\n",
    "zh-after": "- `scripts/bundle_map.json`（由 `/bundle-mapper` 生成）\n",
    "written by": "Read `scripts/bundle_map.json`, written by `map_bundles.py`.\n",
    "output of": "Read the output of `/bundle-mapper` (`scripts/bundle_map.json`).\n",
    "that x writes": "Load `scripts/bundle_map.json` that `bundle-mapper` produces.\n",
}


def _words(tmp_path: Path, line: str, files: dict[str, str] | None = None) -> Path:
    return make_skill(tmp_path, f"# Leak hunt\n\nInputs:\n\n{line}", files, name="leak-hunt")


def test_a_file_the_words_give_as_anothers_output_is_a_warning(tmp_path):
    """Before: each was an error (no sibling writing it in sight)."""
    for i, line in enumerate(_NAMED.values()):
        skill = _words(tmp_path / str(i), line)
        assert [r[2] for r in found(skill, "SF116")] == ["warning"], line


def test_a_script_output_by_another_skill_stays_an_error(tmp_path):
    """"the `scripts/run.py` `/bundle-mapper` outputs" reads as the tool the skill runs."""
    skill = _words(tmp_path, "- `/bundle-mapper` 输出的 `scripts/map_run.py`\n")
    assert [r[2] for r in found(skill, "SF116")] == ["error"]


def test_a_guide_of_the_skills_own_folders_generated_by_a_script_stays_an_error(tmp_path):
    skill = _words(tmp_path, "Read `references/rules.md`, generated by `build_rules.sh`.\n")
    assert [r[2] for r in found(skill, "SF116")] == ["error"]


def test_a_link_given_as_anothers_output_stays_an_error(tmp_path):
    skill = _words(tmp_path, "Read [the map](scripts/bundle_map.json), written by "
                             "`map_bundles.py`.\n")
    assert [r[2] for r in found(skill, "SF116")] == ["error"]


def test_no_producer_named_stays_an_error(tmp_path):
    skill = _words(tmp_path, "- `scripts/bundle_map.json`\n")
    assert [r[2] for r in found(skill, "SF116")] == ["error"]


# --- the readings themselves, on generated texts --------------------------------------------

_STEMS = st.from_regex(r"[a-z][a-z0-9]{2,10}", fullmatch=True)
_DATA = st.sampled_from([".json", ".csv", ".txt", ".yaml", ".log"])
_RUNNERS = st.sampled_from(["bash {}.sh", "python3 scripts/{}.py --fast", "./tools/{}.sh",
                            "uv run {}.py", "node bin/{}.mjs"])


@settings(max_examples=examples(200), deadline=None)
@given(_STEMS, _DATA, _RUNNERS, st.sampled_from(["", "_report", "-out"]))
def test_a_scripts_output_is_read_only_right_after_its_block(stem, suffix, runner, tail):
    name = f"./state/{stem}{tail}{suffix}"
    block = f"```bash\n{runner.format(stem)}\n```\n"
    right_after = MarkdownDoc(f"# T\n\n{block}\nRead `{name}`.\n")
    assert run_folder_path(right_after, name)
    later = MarkdownDoc(f"# T\n\n{block}\nCheck the exit code.\n\nRead `{name}`.\n")
    assert not run_folder_path(later, name)
    other = MarkdownDoc(f"# T\n\n{block}\nRead `./state/x{stem}{suffix}`.\n")
    assert not run_folder_path(other, f"./state/x{stem}{suffix}")
    document = MarkdownDoc(f"# T\n\n{block}\nRead `./state/{stem}.md`.\n")
    assert not run_folder_path(document, f"./state/{stem}.md")


_PRODUCERS = st.from_regex(r"/?[a-z]{3,8}(?:-[a-z]{3,8}){0,2}", fullmatch=True)
_PHRASES = st.sampled_from(["`{who}` 输出的 `{p}`", "`{who}` 生成的 `{p}`",
                            "Read `{p}`, written by `{who}`.", "Read `{p}` (generated by `{who}`).",
                            "Read the output of `{who}`: `{p}`."])


def _reading(phrase: str, who: str, path: str) -> str | None:
    text = phrase.format(who=who, p=path)
    doc = MarkdownDoc(f"{text}\n")
    para = Paragraph(doc, 0)
    offset = para.text.index(f"`{path}`")
    return run_output(Path("/nonexistent/skill"), para, offset, path, path)


@settings(max_examples=examples(200), deadline=None)
@given(_PRODUCERS, _PHRASES, _STEMS, st.sampled_from(["scripts", "data", "out"]), _DATA)
def test_a_named_producer_makes_a_data_file_a_run_output(who, phrase, stem, folder, suffix):
    reason = _reading(phrase, who, f"{folder}/{stem}{suffix}")
    assert reason is not None and f"`{who}`" in reason
    assert _reading(phrase, who, f"{folder}/{stem}.py") is None  # a script: the skill's
    assert _reading(phrase, who, f"references/{stem}.md") is None  # a guide: shipped
