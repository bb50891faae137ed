"""Harbor export of ablated conditions: one task per case and without:<part>, path-safe names,
the part absent from the task's environment, the real condition in the manifest."""

from __future__ import annotations

import json
import pathlib
import re

from click.testing import CliRunner

from skillforge.cli import main
from skillforge.harbor.export import condition_slug, task_identity
from skillforge.harbor.manifest import load_manifest
from skillforge.harbor.task_model import load_task_toml
from tests.harbor.conftest import CSV

ABLATED = ["without:script:scripts/summarize.py", "without:section:workflow",
           "without:reference:references/output-format.md", "without:description"]


def test_ablated_conditions_become_path_safe_task_names():
    names = set()
    for cond in ["with_skill", "baseline", *ABLATED]:
        folder, name = task_identity("csv-insights", "monthly-revenue", cond)
        assert re.fullmatch(r"[A-Za-z0-9._-]+", folder), folder
        assert "/" not in name.split("/", 1)[1] and ":" not in name
        names.add(folder)
    assert len(names) == 6
    assert condition_slug("with_skill") == "with_skill"
    assert condition_slug(ABLATED[0]) != condition_slug("without:script:scripts-summarize.py")


def test_one_task_per_case_and_ablated_condition(export_csv):
    result = export_csv(case_ids=["monthly-revenue", "order-stats"],
                        conditions=["with_skill", *ABLATED])
    assert len(result.tasks) == 2 * 5
    manifest = load_manifest(result.dataset_dir)
    assert {t.condition for t in manifest.tasks} == {"with_skill", *ABLATED}
    assert [p.id for p in manifest.spec.parts] == [c[8:] for c in ABLATED]
    by = {(t.case_id, t.condition): t for t in result.tasks}
    root = result.dataset_dir
    task = by[("monthly-revenue", ABLATED[0])]
    skill = f"{root}/{task.folder}/environment/skills/csv-insights"
    assert not pathlib.Path(skill, "scripts/summarize.py").exists()
    assert pathlib.Path(skill, "scripts/report_format.py").exists()
    whole = by[("monthly-revenue", "with_skill")]
    assert pathlib.Path(root, whole.folder, "environment/skills/csv-insights/scripts/"
                        "summarize.py").exists()
    md = pathlib.Path(root, by[("order-stats", ABLATED[1])].folder,
                      "environment/skills/csv-insights/SKILL.md").read_text()
    assert "## Workflow" not in md and "## Verify" in md
    toml = load_task_toml(pathlib.Path(root, task.folder, "task.toml"))
    assert toml.metadata.skillforge.condition == ABLATED[0]


def test_export_cli_takes_ablate(tmp_path):
    out = tmp_path / "ds"
    res = CliRunner().invoke(main, ["export", "harbor", str(CSV), "-o", str(out), "--cases",
                                    "monthly-revenue", "--conditions", "with_skill",
                                    "--ablate", "section:workflow,scripts", "--format",
                                    "json"], prog_name="skillforge")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert sorted(t["condition"] for t in doc["tasks"]) == [
        "with_skill", "without:scripts", "without:section:workflow"]
    bad = CliRunner().invoke(main, ["export", "harbor", str(CSV), "-o", str(tmp_path / "x"),
                                    "--conditions", "without:nope"], prog_name="skillforge")
    assert bad.exit_code == 2 and "without:<part>" in bad.output
