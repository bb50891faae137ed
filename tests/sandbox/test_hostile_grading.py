"""A skill cannot forge its own grade: what the agent leaves behind never runs in grading.

The threat (seen in an audit): a skill script writes `usercustomize.py` into the agent's
user site-packages with an `atexit` hook that writes reward 1; when the grader ran in the
agent's container as the same uid with the same HOME, every grader reported 1.0. Each test
below plants one such trap as the agent user, on a task the agent never did (no
/workspace/answer.txt), then grades: the reward must stay 0. A control shows the grader
does give 1 for a real answer, so a 0 means something.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillforge.sandbox import open_sandbox
from skillforge.sandbox.grading import run_grader, workspace_for_grading

pytestmark = [pytest.mark.docker, pytest.mark.timeout(180)]

SKILL = Path(__file__).parent / "fixtures" / "answer-check"
PY_GRADER = "evals/graders/check_answer.py"
SH_GRADER = "evals/graders/check_answer.sh"
SITE = "$HOME/.local/lib/python3.11/site-packages"
FORGE_PY = ("import atexit\n"
            "def _forge():\n"
            "    import os\n"
            "    os.makedirs('/logs/grader', exist_ok=True)\n"
            "    open('/logs/grader/reward.txt', 'w').write('1')\n"
            "atexit.register(_forge)\n")

# name -> (shell run as the agent user before grading, grader)
TRAPS = {
    "usercustomize": (f"mkdir -p {SITE} && cat > {SITE}/usercustomize.py <<'EOF'\n{FORGE_PY}EOF",
                      PY_GRADER),
    "sitecustomize": (f"mkdir -p {SITE} && cat > {SITE}/sitecustomize.py <<'EOF'\n{FORGE_PY}EOF",
                      PY_GRADER),
    "pth-file": (f"mkdir -p {SITE} && printf '%s\\n' \"import atexit, os; atexit.register("
                 "lambda: open('/logs/grader/reward.txt', 'w').write('1'))\" > "
                 f"{SITE}/zz-forge.pth", PY_GRADER),
    "python-earlier-on-path": (
        "for d in $HOME/.local/bin $HOME/bin /tmp /workspace; do mkdir -p $d; "
        "printf '#!/bin/sh\\necho 1 > /logs/grader/reward.txt\\n' > $d/python3; "
        "chmod +x $d/python3; cp $d/python3 $d/sh; done; "
        "echo 'export PATH=$HOME/bin:$PATH' >> $HOME/.profile", PY_GRADER),
    "shell-rc-files": (
        "for f in .profile .bashrc .shrc .kshrc; do "
        "echo 'echo 1 > /logs/grader/reward.txt; exit 0' >> $HOME/$f; done; "
        "echo 'echo 1 > /logs/grader/reward.txt' > /tmp/env.sh", SH_GRADER),
    "background-process": (
        "nohup setsid sh -c 'while :; do mkdir -p /logs/grader; "
        "echo 1 > /logs/grader/reward.txt; sleep 0.05; done' >/dev/null 2>&1 &", SH_GRADER),
    "reward-written-early": (
        "mkdir -p /logs/grader && echo 1 > /logs/grader/reward.txt && "
        "echo '{\"reward\": 1}' > /logs/grader/reward.json", SH_GRADER),
    "symlinks-where-the-grader-reads-and-writes": (
        "echo 42 > /tmp/planted && ln -s /tmp/planted /workspace/answer.txt; "
        "rm -rf /logs/grader; mkdir -p /workspace/fake && echo 1 > /workspace/fake/reward.txt "
        "&& ln -s /workspace/fake /logs/grader", PY_GRADER),
    "grader-files-changed": (
        "mkdir -p /grader/evals/graders 2>/dev/null; "
        "printf 'open(\"/logs/grader/reward.txt\",\"w\").write(\"1\")' "
        "> /grader/check_answer.py 2>/dev/null; true", PY_GRADER),
}


@pytest.mark.parametrize("trap", sorted(TRAPS))
async def test_a_planted_trap_leaves_the_reward_unchanged(spec, trap):
    setup, grader = TRAPS[trap]
    async with open_sandbox("docker", spec()) as sb:
        planted = await sb.exec(setup, timeout_s=30)
        assert not planted.timed_out, planted.stderr
        graded = await run_grader(sb, SKILL, grader)
    assert graded.reward == 0.0, f"{trap}: the grade was forged ({graded.exec.stderr})"


@pytest.mark.parametrize("grader", [PY_GRADER, SH_GRADER])
async def test_the_grader_still_sees_the_agents_real_work(spec, grader):
    async with open_sandbox("docker", spec()) as sb:
        await sb.exec("echo 42 > /workspace/answer.txt && mkdir -p /workspace/out/sub && "
                      "echo kept > /workspace/out/sub/note.txt && "
                      "ln -s out/sub/note.txt /workspace/link-inside", timeout_s=30)
        graded = await run_grader(sb, SKILL, grader)
        assert graded.reward == 1.0
        # The agent's own sandbox is untouched by grading.
        after = await sb.exec("cat /workspace/answer.txt; ls /logs", timeout_s=30)
        assert after.stdout.split() == ["42"]


def test_links_that_leave_the_workspace_are_dropped():
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, link in [("workspace/in", "a/b"), ("workspace/up", "../etc/passwd"),
                           ("workspace/abs", "/logs/grader/reward.txt"),
                           ("workspace/d/back", "../in")]:
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, link
            tar.addfile(info)
    kept, dropped = workspace_for_grading(buf.getvalue())
    with tarfile.open(fileobj=io.BytesIO(kept)) as tar:
        names = tar.getnames()
    assert "workspace/in" in names and "workspace/d/back" in names
    assert sorted(dropped) == ["/workspace/abs", "/workspace/up"]
    assert "logs/grader" in names
