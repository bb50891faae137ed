"""`skillforge lint` loads what linting needs, not the rest of the project (issue 14): building
the trial records' and Skill Mode's models cost every lint start ~11 ms for nothing, and
pydantic itself (import and validators) about a third of a one-skill lint. Checked in a
fresh interpreter that lints a skill."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, SAMPLE_SKILLS
from tests.corpus import SKILLS_ROOT

PROBE = (
    "import json, sys\n"
    "from skillforge.cli import main\n"
    "try:\n"
    "    main(['lint', sys.argv[1], '--no-scripts', '--format', 'json'], prog_name='skillforge')\n"
    "except SystemExit:\n"
    "    pass\n"
    "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
)


def modules_after_lint(skill: Path, home: Path, **env: str) -> set[str]:
    """The modules loaded by linting `skill` with no user config (an empty HOME) and no
    SKILLFORGE_* variable but `env`."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SKILLFORGE_")}
    clean.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), **env)
    proc = subprocess.run([sys.executable, "-c", PROBE, str(skill)], cwd=ROOT, env=clean,
                          capture_output=True, text=True, timeout=120, check=False)
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


def test_linting_a_skill_builds_no_trial_record_model(tmp_path: Path):
    modules = modules_after_lint(SAMPLE_SKILLS / "csv-insights", tmp_path)
    assert "linters.engine" in modules  # the probe did lint
    assert "skillforge.models.evals" in modules  # csv-insights has evals/evals.json
    assert not {"skillforge.models.trial", "skillforge.models.skill_mode"} & modules


def test_a_skill_without_evals_or_config_is_linted_without_pydantic(tmp_path: Path):
    skill = shutil.copytree(SKILLS_ROOT / "anthropics__skills" / "skills" / "canvas-design",
                            tmp_path / "canvas-design")
    modules = modules_after_lint(skill, tmp_path)
    assert "linters.engine" in modules
    assert not {m for m in modules if m.split(".")[0] == "pydantic"}
    assert "skillforge.models.config" not in modules
    # A config file (or a SKILLFORGE_* variable) is validated whole, with pydantic.
    (skill / "skillforge.toml").write_text("[lint]\nfail_under = 50\n")
    assert "pydantic" in modules_after_lint(skill, tmp_path)
    (skill / "skillforge.toml").unlink()
    assert "pydantic" in modules_after_lint(skill, tmp_path, SKILLFORGE_LINT__FAIL_UNDER="50")
