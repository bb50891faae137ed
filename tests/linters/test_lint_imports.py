"""`skillforge lint` loads what linting needs, not the rest of the project (issue 14): building
the trial records' and Skill Mode's models cost every lint start ~11 ms for nothing. Checked in
a fresh interpreter that lints a sample skill."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT, SAMPLE_SKILLS

PROBE = (
    "import json, sys\n"
    "from skillforge.cli import main\n"
    "try:\n"
    "    main(['lint', sys.argv[1], '--no-scripts', '--format', 'json'], prog_name='skillforge')\n"
    "except SystemExit:\n"
    "    pass\n"
    "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
)


def modules_after_lint() -> set[str]:
    proc = subprocess.run([sys.executable, "-c", PROBE, str(SAMPLE_SKILLS / "csv-insights")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


def test_linting_a_skill_builds_no_trial_record_model():
    modules = modules_after_lint()
    assert "linters.engine" in modules  # the probe did lint
    assert "skillforge.models.config" in modules
    assert not {"skillforge.models.trial", "skillforge.models.skill_mode"} & modules
