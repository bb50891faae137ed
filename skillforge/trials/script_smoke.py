"""SF604 at trial time: run each skill script once with `--help` inside the trial sandbox.

Before any agent turn, in the same image and limits (no network unless the run has it). A
script that fails here (a dependency missing from the image, a broken import, a file that
only exists on the author's machine) fails the same way for the agent, and the trials would
measure the breakage rather than the skill; the run warns about it up front.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from skillforge.models.evals import EvalCase
from skillforge.models.findings import Category, Finding, Severity
from skillforge.models.trial import RunSpec
from skillforge.sandbox import open_sandbox
from skillforge.sandbox.base import SKILLS_DIR, SandboxError
from skillforge.sandbox.skill_tree import SkillTree
from skillforge.trials.staging import SkillSet, sandbox_spec, stage_trial

HELP_TIMEOUT_S = 10
# An interpreter the image does not have is the image's problem, not the script's.
NOT_FOUND = 127
_INTERPRETERS = {".py": "python3", ".sh": "bash", ".bash": "bash", ".js": "node", ".mjs": "node",
                 ".rb": "ruby", ".pl": "perl"}


def _command(path: str, tree: SkillTree) -> str | None:
    """How the agent would run `path` (relative to the skill), or None for non-scripts."""
    entry = tree.files[path]
    suffix = "." + path.rsplit(".", 1)[-1] if "." in path.rsplit("/", 1)[-1] else ""
    if suffix in _INTERPRETERS:
        return f"{_INTERPRETERS[suffix]} {shlex.quote(path)} --help"
    if entry.executable and entry.data.startswith(b"#!"):
        return f"./{shlex.quote(path)} --help"
    return None


def smoke_targets(tree: SkillTree) -> list[tuple[str, str]]:
    """(path, command) for each script under scripts/ (helper modules included: importing
    them must work too), in path order."""
    out = []
    for path in sorted(tree.files):
        if path.startswith("scripts/") and tree.files[path].link is None and "/__" not in path:
            cmd = _command(path, tree)
            if cmd is not None:
                out.append((path, cmd))
    return out


def _finding(path: str, cmd: str, detail: str) -> Finding:
    return Finding(rule="SF604", category=Category.scripts, severity=Severity.warning,
                   path=path, source="trial",
                   message=f"`{cmd}` {detail} in the trial sandbox; make the script answer "
                   "--help without side effects and install what it needs in the image "
                   "(--image), or the agent's runs of it will fail the same way.")


async def smoke_scripts(spec: RunSpec, skills: SkillSet, case: EvalCase, *, run_id: str,
                        labels: dict[str, str] | None = None) -> list[Finding]:
    """SF604 findings for the target skill's scripts (empty when all answer --help)."""
    targets = smoke_targets(skills.target)
    if not targets:
        return []
    stage = stage_trial(case, "with_skill", spec, skills)
    findings: list[Finding] = []
    root = f"{SKILLS_DIR}/{skills.target.name}"
    async with open_sandbox(spec.sandbox, sandbox_spec(spec, run_id, labels), stage.archive) as sb:
        for path, cmd in targets:
            result = await sb.exec(f"cd {shlex.quote(root)} && {cmd} </dev/null",
                                   timeout_s=HELP_TIMEOUT_S)
            if result.timed_out:
                findings.append(_finding(path, cmd, f"did not finish within {HELP_TIMEOUT_S} s "
                                         "(is it waiting for input, or doing real work?)"))
            elif result.exit_code == NOT_FOUND:
                continue
            elif result.exit_code != 0:
                tail = (result.stderr or result.stdout).strip().splitlines()
                why = f": {tail[-1][:160]}" if tail else ""
                findings.append(_finding(path, cmd, f"exited {result.exit_code}{why}"))
    return findings


async def smoke_run(spec: RunSpec, skills: SkillSet, cases: Sequence[EvalCase], *, run_id: str,
                    labels: dict[str, str] | None = None) -> list[Finding]:
    """smoke_scripts for a run; a sandbox failure here is reported, never fatal."""
    if "with_skill" not in spec.conditions or not cases:
        return []
    try:
        return await smoke_scripts(spec, skills, cases[0], run_id=run_id, labels=labels)
    except SandboxError as exc:
        return [Finding(rule="SF604", category=Category.scripts, severity=Severity.info,
                        source="trial", message=f"The --help smoke run could not start ({exc}); "
                        "the trials go on without it.")]
