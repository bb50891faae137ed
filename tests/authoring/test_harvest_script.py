"""The harvested script runs as a command, for real (python3 in a subprocess), and its
`call_tool` gives the skill's code what the Skill Mode runner in the sandbox gives it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import skillforge.agent.skill_runner as skill_runner
from skillforge.authoring.harvest_script import END_MARK, START_MARK, param_kind, script_text
from skillforge.models.skill_mode import CachedSkill, SkillCache
from tests.authoring.harvest_records import MONTHLY, SCRIPT_CODE, cached_skill
from tests.conftest import SAMPLE_SKILLS

RUN = "run-script-1"


def write_script(tmp_path: Path, skill: CachedSkill, example: dict | None = None) -> Path:
    path = tmp_path / "skill" / "scripts" / "tool.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(script_text(skill, prog="scripts/tool.py", docstring="test script",
                                example=example))
    path.chmod(0o755)
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "workspace"
    ws.mkdir()
    shutil.copy(SAMPLE_SKILLS / "csv-insights/evals/files/sales.csv", ws / "sales.csv")
    return ws


def run(script: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(script), *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=60, check=False)


def test_the_sales_skill_runs_as_a_command(tmp_path, workspace):
    script = write_script(tmp_path, cached_skill(RUN))
    proc = run(script, "--csv-path", "sales.csv", "--period", "month", "--output-path",
               "out/summary.md", cwd=workspace)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    # read_file gave the rows, bash counted the lines (header + 48), write_file wrote the table.
    assert result == {"rows": 48, "lines": 49, "totals": MONTHLY, "total": 7657.92,
                      "written": "out/summary.md"}
    table = (workspace / "out/summary.md").read_text().splitlines()
    assert table[2] == "| 2024-07 | 1236.80 |" and table[-1] == "| total | 7657.92 |"


def test_args_json_and_options_together(tmp_path, workspace):
    script = write_script(tmp_path, cached_skill(RUN))
    proc = run(script, "--args-json", '{"csv_path": "sales.csv", "period": "month"}',
               "--period", "year", cwd=workspace)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["totals"] == {"2024": 7657.92}


def test_failures_exit_non_zero_with_a_reason(tmp_path, workspace):
    script = write_script(tmp_path, cached_skill(RUN))
    bad = run(script, "--csv-path", "sales.csv", "--period", "quarter", cwd=workspace)
    assert bad.returncode == 1 and bad.stdout == ""
    assert "KeyError: 'quarter'" in bad.stderr and "Traceback" in bad.stderr
    not_json = run(script, "--args-json", "{csv_path: 1}", cwd=workspace)
    assert not_json.returncode == 2 and "--args-json is not valid JSON" in not_json.stderr
    a_list = run(script, "--args-json", "[1]", cwd=workspace)
    assert a_list.returncode == 2 and "must be a JSON object" in a_list.stderr
    missing = run(script, "--csv-path", "nope.csv", cwd=workspace)
    assert missing.returncode == 1 and "FileNotFoundError" in missing.stderr
    silent = write_script(tmp_path / "b", cached_skill(RUN, script_code="x = 1\n",
                                                       parameters={}))
    proc = run(silent, cwd=workspace)
    assert proc.returncode == 1 and "the skill's code set no `result`" in proc.stderr


def test_help_lists_one_option_per_parameter(tmp_path, workspace):
    proc = run(write_script(tmp_path, cached_skill(RUN)), "--help", cwd=workspace)
    assert proc.returncode == 0
    for option in ("--args-json JSON", "--csv-path STR", "--period STR", "--output-path STR"):
        assert option in proc.stdout
    assert "Bucket of order_date: day, month or year" in proc.stdout


@pytest.mark.parametrize("spec, example, kind", [
    ({"type": "integer"}, None, "int"), ({"type": ["null", "number"]}, None, "float"),
    ({"type": "boolean"}, None, "bool"), ({"type": "array"}, None, "json"),
    ("a count", 3, "int"), ("a ratio", 0.5, "float"), ("flag", True, "bool"),
    ("cols", ["a"], "json"), ("a zip code", "01234", "str"), ("anything", None, "str"),
])
def test_option_types_come_from_the_schema_or_a_recorded_value(spec, example, kind):
    assert param_kind(spec, example) == kind


def test_typed_options_reach_the_code_as_values(tmp_path, workspace):
    skill = cached_skill(RUN, parameters={"top": "how many", "ratio": {"type": "number"},
                                          "desc": {"type": "boolean"}, "cols": "columns"},
                         script_code="result = {k: [type(v).__name__, v] for k, v in "
                                     "sorted(args.items())}\n")
    script = write_script(tmp_path, skill, example={"top": 3, "cols": ["a"]})
    proc = run(script, "--top", "5", "--ratio", "0.25", "--desc", "no", "--cols", '["x", "y"]',
               cwd=workspace)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"cols": ["list", ["x", "y"]], "desc": ["bool", False],
                                       "ratio": ["float", 0.25], "top": ["int", 5]}
    bad = run(script, "--top", "many", cwd=workspace)
    assert bad.returncode == 2 and "--top 'many': expected int" in bad.stderr


def test_the_code_is_kept_verbatim_with_its_leading_imports_moved_up():
    text = script_text(cached_skill(RUN), prog="scripts/x.py", docstring="doc")
    head, code = text.split(START_MARK + "\n")
    code = code.split("\n" + END_MARK)[0]
    lines = SCRIPT_CODE.rstrip("\n").splitlines()
    assert lines[:4] == ["import csv", "import io", "from collections import defaultdict", ""]
    assert code.splitlines() == lines[4:]
    assert "\nimport csv\nimport io\nfrom collections import defaultdict\n" in head
    assert head.index("import sys as _sys") < head.index("import csv") < head.index("_PARAMETERS")


def test_imports_stay_put_when_moving_them_could_change_the_code():
    for code in ("from __future__ import annotations\nresult = 1\n",
                 "import os; x = os.sep\nresult = x\n",
                 "def f(:\n    pass\n"):
        text = script_text(cached_skill(RUN, script_code=code), prog="p", docstring="d")
        assert text.split(START_MARK + "\n")[1].startswith(code.splitlines()[0])
    doc_first = '"""Sum things."""\nimport math\nresult = math.pi\n'
    text = script_text(cached_skill(RUN, script_code=doc_first), prog="p", docstring="d")
    assert text.split(START_MARK + "\n")[1].startswith('"""Sum things."""\nresult = math.pi')


PROBE = '''\
import os
out = call_tool("bash", command="echo out; echo err >&2; exit 3")
late = call_tool("bash", command="sleep 5", timeout=1)
wrote = call_tool("write_file", path="sub/note.txt", content="a\\nb\\nc\\n")
part = call_tool("read_file", path="sub/note.txt", offset=2, limit=1)
rest = call_tool("read_file", path="sub/note.txt", offset=2)
try:
    call_tool("read_file", path="missing.txt")
    missing = None
except OSError as exc:
    missing = type(exc).__name__
try:
    call_tool("fetch", url="x")
    unknown = None
except ValueError as exc:
    unknown = str(exc)
result = {"out": out, "late": late, "wrote": wrote.replace(os.getcwd(), "CWD"), "part": part,
          "rest": rest, "missing": missing, "unknown": unknown.split(";")[0]}
'''


def test_call_tool_matches_the_sandbox_runner(tmp_path):
    """The same code, run by skillforge.agent.skill_runner (what execute_skill runs in the
    container) and by the harvested command, gets the same values from call_tool."""
    skill = CachedSkill(name="probe", script_code=PROBE)
    cache = tmp_path / "skill_cache.json"
    cache.write_text(SkillCache(skills={"probe": skill}).model_dump_json())
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    proc = subprocess.run([sys.executable, skill_runner.__file__, str(cache), "probe", "{}", "30"],
                          cwd=one, capture_output=True, text=True, timeout=60, check=False)
    line = next(x for x in proc.stdout.splitlines() if x.startswith(skill_runner.MARKER))
    in_sandbox = json.loads(line[len(skill_runner.MARKER):])
    assert in_sandbox["ok"], in_sandbox
    harvested = run(write_script(tmp_path, skill), cwd=two)
    assert harvested.returncode == 0, harvested.stderr
    assert json.loads(harvested.stdout) == in_sandbox["result"]
    assert in_sandbox["result"]["out"] == {"exit_code": 3, "stdout": "out\n", "stderr": "err\n"}
    assert in_sandbox["result"]["late"]["timed_out"] is True
