"""skillforge.trajectory.facts on hand-built trajectories: what counts as evidence and what not."""

from __future__ import annotations

from typing import Any

from sessions.atif import Agent, Observation, ObservationResult, Step, ToolCall, Trajectory
from skillforge.trajectory import facts as facts
def traj(*calls: tuple[str, dict[str, Any], str | None, dict[str, Any] | None]) -> Trajectory:
    """One agent step per call: (tool name, arguments, result text or None, result extra)."""
    steps = [Step(step_id=1, source="user", message="do the task")]
    for i, (name, args, content, extra) in enumerate(calls):
        call = ToolCall(tool_call_id=f"c{i}", function_name=name, arguments=args)
        obs = None
        if content is not None:
            obs = Observation(results=[ObservationResult(source_call_id=f"c{i}", content=content,
                                                         extra=extra)])
        steps.append(Step(step_id=i + 2, source="agent", message="", tool_calls=[call],
                          observation=obs))
    return Trajectory(agent=Agent(name="t", version="1"), steps=steps)


def bash(command: str, out: str | None = "", **extra: Any):
    return ("bash", {"command": command}, out, extra or None)


def test_read_tool_on_skill_md_activates():
    t = traj(("read_file", {"path": "/skills/csv-insights/SKILL.md"}, "---\nname: csv", None),
             ("Read", {"file_path": "/root/.claude/skills/pdf/SKILL.md"}, "...", None))
    assert [(a.skill_name, a.how, a.step_id) for a in facts.skill_activations(t)] == [
        ("csv-insights", "read", 2), ("pdf", "read", 3)]


def test_shell_printers_activate_and_other_commands_do_not():
    t = traj(bash("cat /skills/csv-insights/SKILL.md"),
             bash("head -n 40 ~/.agents/skills/lab-units/SKILL.md"),
             bash("cd /skills/release-notes && sed -n '1,80p' SKILL.md"),
             bash("ls /skills/other/ && wc -l /skills/other/SKILL.md"),  # wc prints no content
             bash("cat /skills/*/SKILL.md"),  # a glob names no skill
             bash("cp /skills/x/SKILL.md /tmp/"))
    assert [(a.skill_name, a.step_id) for a in facts.skill_activations(t)] == [
        ("csv-insights", 2), ("lab-units", 3), ("release-notes", 4)]


def test_skill_tool_names_the_skill():
    t = traj(("Skill", {"skill": "csv-insights"}, "Launching skill", None),
             ("activate_skill", {"name": "lab-units"}, "ok", None))
    assert [(a.skill_name, a.how) for a in facts.skill_activations(t)] == [
        ("csv-insights", "skill_tool"), ("lab-units", "skill_tool")]


def test_writing_or_mentioning_skill_md_is_not_activation():
    t = traj(("Write", {"file_path": "/skills/mine/SKILL.md", "content": "x"}, "ok", None),
             bash("echo see /skills/csv-insights/SKILL.md", "see /skills/csv-insights/SKILL.md"),
             ("Read", {"file_path": "/workspace/notes.md"}, "read /skills/x/SKILL.md", None))
    assert facts.skill_activations(t) == []


def test_custom_skills_dir_and_codex_argv_commands():
    t = traj(("shell", {"command": ["bash", "-lc", "cat /opt/agent-skills/foo/SKILL.md"]}, "", None))
    assert facts.activated_skills(t, ["/opt/agent-skills"]) == ["foo"]
    assert facts.commands(t)[0].command == "cat /opt/agent-skills/foo/SKILL.md"


def test_script_runs_with_exit_codes():
    t = traj(bash("python3 /skills/csv-insights/scripts/summarize.py sales.csv", "ok",
                  exit_code=0),
             bash("bash ~/.claude/skills/lab-units/scripts/convert.sh 7.2",
                  "Traceback...\nExit code: 2"),
             bash("cd /skills/release-notes && uv run scripts/release_notes.py --since v1", "fine"),
             bash("cat /skills/csv-insights/scripts/summarize.py", "import csv"),  # a read
             bash("/skills/csv-insights/scripts/summarize.py --help", None))  # no result yet
    runs = [(r.skill_name, r.script, r.exit_code, r.ok, r.step_id) for r in facts.script_runs(t)]
    assert runs == [
        ("csv-insights", "scripts/summarize.py", 0, True, 2),
        ("lab-units", "scripts/convert.sh", 2, False, 3),
        ("release-notes", "scripts/release_notes.py", None, True, 4),
        ("csv-insights", "scripts/summarize.py", None, False, 6),
    ]


def test_commands_in_order():
    t = traj(bash("ls"), ("Read", {"file_path": "a"}, "", None), bash("pytest -q"))
    assert [(c.step_id, c.command, c.order) for c in facts.commands(t)] == [
        (2, "ls", 0), (4, "pytest -q", 2)]


def test_file_writes_from_tools_patches_and_redirections():
    patch = "*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** Add File: NEW.md\n+x\n*** End Patch"
    t = traj(("Write", {"file_path": "/workspace/report.md", "content": "# r"}, "ok", None),
             ("str_replace_based_edit_tool", {"command": "view", "path": "/workspace/a.py"}, "", None),
             ("str_replace_based_edit_tool", {"command": "create", "path": "/workspace/b.py"}, "", None),
             ("apply_patch", {"input": patch}, "Done", None),
             bash("python gen.py > out.csv 2>/dev/null && echo done >> log.txt"),
             bash("echo hi | tee copy.txt"))
    assert [(w.step_id, w.path) for w in facts.file_writes(t)] == [
        (2, "/workspace/report.md"), (4, "/workspace/b.py"), (5, "src/app.py"), (5, "NEW.md"),
        (6, "out.csv"), (6, "log.txt"), (7, "copy.txt")]


def test_activation_order_against_first_script_run_and_write():
    t = traj(("Write", {"file_path": "out.txt", "content": ""}, "ok", None),
             ("Read", {"file_path": "/skills/s/SKILL.md"}, "...", None),
             bash("python /skills/s/scripts/run.py", "", exit_code=0))
    first_act = facts.skill_activations(t)[0].order
    first_write = facts.file_writes(t)[0].order
    first_run = facts.script_runs(t)[0].order
    assert first_write < first_act < first_run


def test_tool_call_errors_from_flags_exit_codes_status_and_text():
    t = traj(bash("ls", "a b"),
             bash("false", "", exit_code=1),
             ("Read", {"file_path": "x"}, "<tool_use_error>File does not exist.</tool_use_error>",
              None),
             ("Edit", {"file_path": "y"}, "String not found", {"is_error": True}),
             ("list_directory", {"dir_path": "/"}, "Error: permission denied", None),
             ("read_file", {"file_path": "z"}, "", {"status": "error"}),
             bash("make", "[The command completed with exit code 2.]"),
             bash("sleep 100", None))
    outcomes = [(o.error, o.reason) for o in facts.call_outcomes(t)]
    assert outcomes == [
        (False, None),
        (True, "exit code 1"),
        (True, "the result reports an error"),
        (True, "the harness flagged the result as an error"),
        (True, "the result reports an error"),
        (True, "status error"),
        (True, "exit code 2"),
        (None, None),
    ]
    # productive calls: 2 without error (the unanswered one counts as no error) of 8
    assert facts.error_free_share(t) == 2 / 8


def test_empty_trajectory_facts():
    t = Trajectory(agent=Agent(name="t", version="1"),
                   steps=[Step(step_id=1, source="user", message="hi")])
    assert facts.skill_activations(t) == [] and facts.error_free_share(t) is None
    assert facts.summary(t) == {"steps": 1, "tool_calls": 0, "tool_errors": 0, "activated": [],
                                "script_runs": 0}


def test_keystrokes_with_newlines_are_separate_commands():
    t = traj(("bash_command", {"keystrokes": "cd /skills/lab-units\ncat SKILL.md\n",
                               "duration": 0.1}, "", None),
             ("bash_command", {"keystrokes": "python3 scripts/convert_units.py 7.2 %\n"}, "", None))
    assert facts.activated_skills(t) == ["lab-units"]
    # the second call starts in an unknown folder: a relative scripts/ path names no skill
    assert facts.script_runs(t) == []
