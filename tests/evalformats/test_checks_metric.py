"""A case's checks decided on trajectory facts, scored as its grader metric."""

from __future__ import annotations

from skillforge.metrics.checks import decide, score_checks
from skillforge.models.evals import EvalCase
from skillforge.trials.scoring import deterministic
from tests.metrics.builders import activate, bash, trajectory, write

TRAJ = trajectory(activate("csv-insights"),
                  bash("python3 /skills/csv-insights/scripts/summarize.py sales.csv"),
                  write("/workspace/summary.md", "| 2024-07 | 100.00 |\n"),
                  final="Total 350.50, written to summary.md.")


def holds(check, traj=TRAJ, files=None):
    return decide(check, traj, files)[0]


def test_tool_families_let_claude_code_names_read_any_agent():
    assert holds({"type": "tool_used", "tool": "Bash", "input_match": r"summarize\.py"})
    assert holds({"type": "tool_used", "tool": "Skill"})  # a read of SKILL.md
    assert not holds({"type": "tool_used", "tool": "Bash", "input_match": "pandas"})
    assert holds({"type": "tool_used", "tool": "Bash", "input_match": "pandas", "min": 0,
                  "max": 0})
    assert holds({"type": "tool_order", "before": "Skill", "after": "Bash"})
    assert not holds({"type": "tool_order", "before": "Bash", "after": "Skill"})


def test_files_and_regex_targets():
    assert holds({"type": "file_exists", "path": "summary.md"})
    assert holds({"type": "file_exists", "path": "*.md"})
    assert not holds({"type": "file_exists", "path": "summary.md"}, files=["other.md"])
    assert holds({"type": "file_exists", "path": "out.json", "exists": False})
    assert holds({"type": "regex", "pattern": r"350\.50"})
    assert not holds({"type": "regex", "pattern": r"350\.50", "match": "not_contains"})
    assert holds({"type": "regex", "pattern": "TOTAL", "flags": "i"})
    assert holds({"type": "regex", "pattern": "summarize", "target": "trace", "match": "count:1"})
    assert holds({"type": "regex", "pattern": r"^\|", "flags": "m",
                  "target": {"source": "file", "path": "summary.md"}})
    assert holds({"type": "regex", "pattern": "x", "target": "files"}) is None
    assert holds({"type": "baseline"}) is None


def test_score_is_the_weighted_share_of_decidable_checks():
    checks = [{"type": "regex", "pattern": "350", "weight": 3},
              {"type": "file_exists", "path": "missing.txt"},
              {"type": "baseline"},
              {"type": "tool_used", "tool": "Skill", "arm": "with"}]
    value, evidence = score_checks(checks, TRAJ, target_staged=True)
    assert value == 0.8  # (3 + 1) of (3 + 1 + 1)
    value, evidence = score_checks(checks, TRAJ, target_staged=False)
    assert value == 0.75 and evidence["checks"][3]["why"] == "with-skill arm only"


def test_checks_become_the_grader_metric_only_without_a_grader():
    case = EvalCase(id="c", prompt="p", checks=[{"type": "regex", "pattern": "350"}])
    scores = deterministic(TRAJ, case, target_skill="csv-insights", condition="with_skill")
    assert scores.metrics["grader"] == 1.0
    assert scores.evidence["grader"].evidence["source"] == "checks"
    case.grader = "evals/graders/check.py"
    scores = deterministic(TRAJ, case, target_skill="csv-insights", condition="with_skill")
    assert "grader" not in scores.metrics
