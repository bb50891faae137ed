"""A `without:<part>` trial stages exactly `with_skill` minus that part: the archives compared
member by member, the system prompt, and the conditions on the command line and in a spec."""

from __future__ import annotations

import io
import tarfile

import pytest
from pydantic import ValidationError

from skillforge.agent.loop import system_prompt
from skillforge.authoring.parts import skill_parts
from skillforge.models.evals import load_evals
from skillforge.models.parts import is_ablated, part_of
from skillforge.models.skill import load_skill
from skillforge.models.trial import RunSpec, TrialRecord, stages_target
from skillforge.trials.ablation import neutral_text
from skillforge.trials.staging import StagingError, load_skill_set, stage_trial

SKILL = "/skills/csv-insights"


def members(archive: bytes) -> dict[str, tuple]:
    """{path: (type, mode, uid, gid, link, data)} of a staged tar (mtime left out)."""
    out = {}
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for m in tar:
            data = tar.extractfile(m).read() if m.isfile() else b""
            out[m.name.lstrip("/")] = (m.type, m.mode, m.uid, m.gid, m.linkname, data)
    return out


@pytest.fixture
def staged(csv_skill):
    spec = RunSpec(skill_path=str(csv_skill))
    skills = load_skill_set(spec)
    evals, _ = load_evals(csv_skill / "evals" / "evals.json")
    case = evals.cases[0]

    def stage(condition: str):
        return stage_trial(case, condition, spec, skills)

    return stage, skill_parts(load_skill(csv_skill)), csv_skill


def test_every_part_is_removed_and_nothing_else_changes(staged):
    stage, parts, root = staged
    whole = stage("with_skill")
    full = members(whole.archive)
    md_path = f"{SKILL.lstrip('/')}/SKILL.md"
    original = (root / "SKILL.md").read_text()
    assert len(parts) >= 12
    for part in parts:
        cut = stage(f"without:{part.id}")
        got = members(cut.archive)
        changed = {k for k in full if k in got and got[k] != full[k]}
        gone = set(full) - set(got)
        assert set(got) - set(full) == set(), part.id
        if part.files:
            files = {f"{SKILL.lstrip('/')}/{f}" for f in part.files}
            # a folder goes only when nothing of it is left (references/ with its one file)
            folders = {k for k in gone - files if full[k][0] == tarfile.DIRTYPE}
            assert gone == files | folders, part.id
            assert not any(k.startswith(d + "/") for d in folders for k in got), part.id
            assert changed == set(), part.id
        else:
            assert gone == set() and changed == {md_path}, part.id
            text = got[md_path][-1].decode()
            lines = original.splitlines(keepends=True)
            removed = {i for a, b in part.spans for i in range(a - 1, b)}
            if part.kind == "description":
                assert text.count("\n") == original.count("\n")
                assert "Summarises CSV" not in text
            else:  # the part's lines are cut, every other line kept byte for byte
                assert text == "".join(x for i, x in enumerate(lines) if i not in removed)
        # the prompt lists the same skill, at the same path
        assert [s.path for s in cut.skills] == [s.path for s in whole.skills]


def test_a_section_is_absent_from_the_container_and_its_mentions_stay(staged):
    stage, _parts, _root = staged
    md = members(stage("without:section:workflow").archive)[
        "skills/csv-insights/SKILL.md"][-1].decode()
    assert "## Workflow" not in md and "head -n 5 data.csv" not in md
    assert "## Verify" in md and "## Overview" in md
    # the script is still mentioned by other sections even when it is absent
    gone = members(stage("without:script:scripts/summarize.py").archive)
    assert "skills/csv-insights/scripts/summarize.py" not in gone
    assert "scripts/summarize.py" in gone["skills/csv-insights/SKILL.md"][-1].decode()
    assert "skills/csv-insights/scripts/report_format.py" in gone


def test_the_description_is_neutral_and_the_same_length_in_the_prompt(staged):
    stage, _parts, root = staged
    whole, cut = stage("with_skill"), stage("without:description")
    original = whole.skills[0].description
    assert cut.skills[0].name == "csv-insights"
    assert len(cut.skills[0].description) == len(original)
    assert cut.skills[0].description == neutral_text(len(original))
    prompt = system_prompt(cut)
    assert original not in prompt and "Summarises CSV" not in prompt
    assert "csv-insights" in prompt and original in system_prompt(whole)
    loaded = load_skill_set(RunSpec(skill_path=str(root))).target_for("without:description")
    assert loaded.description == cut.skills[0].description  # what a re-read SKILL.md says


def test_the_grant_is_a_part_only_when_the_skill_has_one(staged):
    stage, parts, root = staged
    assert "allowed-tools" not in {p.id for p in parts}
    text = (root / "SKILL.md").read_text().replace(
        "license: MIT\n", "license: MIT\nallowed-tools: Bash(python3:*) Read\n")
    (root / "SKILL.md").write_text(text)
    ids = [p.id for p in skill_parts(load_skill(root))]
    assert "allowed-tools" in ids
    spec = RunSpec(skill_path=str(root))
    evals, _ = load_evals(root / "evals" / "evals.json")
    md = members(stage_trial(evals.cases[0], "without:allowed-tools", spec).archive)[
        "skills/csv-insights/SKILL.md"][-1].decode()
    assert "allowed-tools" not in md and md == text.replace(
        "allowed-tools: Bash(python3:*) Read\n", "")


def test_an_unknown_part_is_refused_naming_the_parts(staged):
    stage, _parts, _root = staged
    with pytest.raises(StagingError, match=r"no part 'section:nope'.*section:workflow"):
        stage("without:section:nope")


@pytest.mark.parametrize("cond", ["without:section:quick-start", "without:description",
                                  "without:reference:references/api.md",
                                  "without:script:scripts/run.py", "without:scripts",
                                  "without:allowed-tools", "without:examples"])
def test_ablated_conditions_are_conditions_everywhere(cond):
    assert is_ablated(cond) and stages_target(cond) and part_of(cond) == cond[8:]
    spec = RunSpec(skill_path="x", conditions=["with_skill", cond])
    rec = TrialRecord(run_id="r", case_id="c", condition=cond, attempt=1)
    assert spec.conditions[1] == cond and rec.condition == cond
    assert RunSpec.model_validate_json(spec.model_dump_json()).conditions == spec.conditions


@pytest.mark.parametrize("cond", ["without:", "without:section:", "without:script:../x.py",
                                  "without:Section:Upper", "without:reference:/etc/passwd",
                                  "without:nothing", "with_skill2"])
def test_malformed_conditions_are_refused(cond):
    assert not is_ablated(cond)
    with pytest.raises(ValidationError):
        RunSpec(skill_path="x", conditions=[cond])


def test_a_part_listed_once_still_stages_under_its_other_id(staged):
    """csv-insights' examples are its `## Example` section: listed once (issue 37), but a
    stored run or --conditions naming without:examples stages the same bytes."""
    stage, parts, _root = staged
    ids = [p.id for p in parts]
    assert "examples" not in ids and ids.count("section:example") == 1
    assert members(stage("without:examples").archive) == \
        members(stage("without:section:example").archive)
