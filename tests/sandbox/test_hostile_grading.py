"""A skill cannot forge its own grade: what the agent leaves behind never runs in grading.

The threat (seen in audits): a skill script writes `usercustomize.py` into the agent's
user site-packages with an `atexit` hook that writes reward 1; when the grader ran in the
agent's container as the same uid with the same HOME, every grader reported 1.0. A later
audit (issue 34) forged grades with chains of symlinks into the grader's folder, an
agent-written `json.py` imported from the grader's working directory, and an `atexit` hook
in agent code a grader imported. Each test below plants one such trap as the agent user, on
a task the agent never did, then grades: the reward must stay 0. A control shows the grader
does give 1 for a real answer, so a 0 means something.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillforge.sandbox import open_sandbox
from skillforge.sandbox.grading import GraderError, run_grader, workspace_for_grading
from skillforge.sandbox.workspace_copy import UNSAFE_MARKER

pytestmark = [pytest.mark.docker, pytest.mark.timeout(180)]

SKILL = Path(__file__).parent / "fixtures" / "answer-check"
PY_GRADER = "evals/graders/check_answer.py"
SH_GRADER = "evals/graders/check_answer.sh"
EXPECTED_GRADER = "evals/graders/check_expected.py"  # its folder holds expected.txt: 42
JSON_GRADER = "evals/graders/check_json.sh"
IMPORT_GRADER = "evals/graders/check_import.py"
AS_AGENT_GRADER = "evals/graders/check_as_agent.py"
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
    # Issue 34's audit: each of these raised a grade before.
    "link-chain-into-the-grader": (
        "cd /workspace && ln -s . s && ln -s s/../grader/expected.txt answer.txt",
        EXPECTED_GRADER),
    "deep-link-chain": (
        "cd /workspace && ln -s . a && ln -s a/a b && ln -s b/b/b c && "
        "ln -s c/../grader/expected.txt answer.txt", EXPECTED_GRADER),
    "dot-dot-after-a-link-to-the-workspace": (
        "cd /workspace && ln -s /workspace w && ln -s w/../grader/expected.txt answer.txt",
        EXPECTED_GRADER),
    "link-into-a-linked-folder": (
        "cd /workspace && ln -s . s && ln -s s/../grader g && ln -s g/expected.txt answer.txt",
        EXPECTED_GRADER),
    "absolute-link-into-the-grader": (
        "ln -s /grader/expected.txt /workspace/answer.txt", EXPECTED_GRADER),
    "json-module-shadowed": (
        "printf 'def load(f):\n    return {\"answer\": 42}\n' > /workspace/json.py && "
        "echo '{\"answer\": 0}' > /workspace/answer.json", JSON_GRADER),
    "atexit-in-the-graders-own-process": (
        "cat > /workspace/solution.py <<'EOF'\n"
        "import atexit\n"
        "def _forge():\n"
        "    open('/logs/grader/reward.txt', 'w').write('1')\n"
        "atexit.register(_forge)\n"
        "def answer():\n"
        "    return 0\n"
        "EOF", IMPORT_GRADER),
    "a-forked-child-of-the-graders-process": (
        "cat > /workspace/solution.py <<'EOF'\n"
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    time.sleep(1.5)\n"
        "    open('/logs/grader/reward.txt', 'w').write('1')\n"
        "    os._exit(0)\n"
        "def answer():\n"
        "    return 0\n"
        "EOF", IMPORT_GRADER),
    "agent-code-run-as-the-agent-writes-the-reward": (
        "cat > /workspace/solution.py <<'EOF'\n"
        "import os\n"
        "for path in ('/logs/grader/reward.txt', '/logs/grader/reward.json'):\n"
        "    try:\n"
        "        open(path, 'w').write('1')\n"
        "    except OSError:\n"
        "        pass\n"
        "print(0)\n"
        "EOF", AS_AGENT_GRADER),
    # The answer beside the grader: the agent's code, run as the agent, prints it (scored 1
    # while /grader was readable by every uid).
    "agent-code-run-as-the-agent-reads-the-expected-value": (
        "echo \"print(open('/grader/expected.txt').read().strip())\" > /workspace/solution.py",
        AS_AGENT_GRADER),
    # Run under as-agent, the agent's code tries what in-process code could do: write the
    # grader's files and output, its launcher, the proc files of the grader's process, and
    # signal it. As another uid it can do none (docs/graders.md, as-agent).
    "agent-code-run-as-the-agent-attacks-the-grader": (
        "cat > /workspace/solution.py <<'EOF'\n"
        "import glob, os, signal\n"
        "targets = ['/logs/grader/reward.txt', '/logs/grader/reward.json',\n"
        "           '/grader/check_as_agent.py', '/grader/.skillforge/launch.py',\n"
        "           '/grader/.skillforge/run/rc', '/grader/.skillforge/run/stdout']\n"
        "for pid in os.listdir('/proc'):\n"
        "    if pid.isdigit() and int(pid) != os.getpid():\n"
        "        targets += [f'/proc/{pid}/mem'] + glob.glob(f'/proc/{pid}/fd/*')\n"
        "for path in targets:\n"
        "    try:\n"
        "        with open(path, 'w') as f:\n"
        "            f.write('1')\n"
        "    except OSError:\n"
        "        pass\n"
        "print(41, flush=True)\n"
        "for pid in os.listdir('/proc'):\n"
        "    if pid.isdigit() and int(pid) != os.getpid():\n"
        "        try:\n"
        "            os.kill(int(pid), signal.SIGSTOP)\n"
        "        except OSError:\n"
        "            pass\n"
        "EOF", AS_AGENT_GRADER),
}


@pytest.mark.parametrize("trap", sorted(TRAPS))
async def test_a_planted_trap_leaves_the_reward_unchanged(spec, trap):
    setup, grader = TRAPS[trap]
    async with open_sandbox("docker", spec()) as sb:
        planted = await sb.exec(setup, timeout_s=30)
        assert not planted.timed_out, planted.stderr
        graded = await run_grader(sb, SKILL, grader)
    assert graded.reward == 0.0, f"{trap}: the grade was forged ({graded.exec.stderr})"


@pytest.mark.parametrize(("setup", "grader"), [
    ("echo 42 > /workspace/answer.txt", EXPECTED_GRADER),
    ("echo '{\"answer\": 42}' > /workspace/answer.json", JSON_GRADER),
    ("printf 'def answer():\n    return 42\n' > /workspace/solution.py", IMPORT_GRADER),
    ("echo 'print(42)' > /workspace/solution.py", AS_AGENT_GRADER),
    # a link chain that stays inside is followed like any path
    ("mkdir -p /workspace/out && echo 42 > /workspace/out/v && cd /workspace && "
     "ln -s . s && ln -s s/out/v answer.txt", EXPECTED_GRADER),
])
async def test_the_graders_of_the_traps_reward_real_work(spec, setup, grader):
    async with open_sandbox("docker", spec()) as sb:
        done = await sb.exec(setup, timeout_s=30)
        assert done.ok, done.stderr
        graded = await run_grader(sb, SKILL, grader)
    assert graded.reward == 1.0, graded.exec.stderr


async def test_the_agents_code_runs_as_the_agent_under_as_agent(spec):
    # The contract's way to run agent code: it runs as the agent's uid, so it cannot
    # write the reward folder, which is the grader uid's.
    async with open_sandbox("docker", spec()) as sb:
        await sb.exec("printf 'import os\nprint(os.getuid())\n' > /workspace/solution.py",
                      timeout_s=30)
        graded = await run_grader(sb, SKILL, AS_AGENT_GRADER)
    assert graded.reward == 0.0  # it printed 1000, not 42
    assert graded.exec.exit_code == 0


async def test_a_sparse_file_the_grading_sandbox_cannot_hold_is_a_failed_copy(spec):
    # 200 MiB of holes in a 256 MiB budget: the grading /workspace (48%) cannot take it.
    # Before, the trial became an error the lift left out; now the copy fails, which the
    # runner counts as a failed grade (tests/trials: fail-closed).
    async with open_sandbox("docker", spec(disk_mb=256, memory_mb=768)) as sb:
        done = await sb.exec("truncate -s 200M /workspace/big && echo 42 > "
                             "/workspace/answer.txt", timeout_s=30)
        assert done.ok, done.stderr
        with pytest.raises(GraderError, match="could not be copied"):
            await run_grader(sb, SKILL, PY_GRADER)


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


def test_links_that_leave_the_workspace_become_markers():
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, link in [("workspace/in", "a/b"), ("workspace/up", "../etc/passwd"),
                           ("workspace/abs", "/logs/grader/reward.txt"),
                           ("workspace/d/back", "../in"), ("workspace/s", "."),
                           ("workspace/chain", "s/../grader/expected.txt")]:
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, link
            tar.addfile(info)
        pipe = tarfile.TarInfo("workspace/fifo")
        pipe.type = tarfile.FIFOTYPE
        tar.addfile(pipe)
    kept, report = workspace_for_grading(buf.getvalue())
    with tarfile.open(fileobj=io.BytesIO(kept)) as tar:
        links = {m.name: m.linkname for m in tar if m.issym()}
    assert links["workspace/in"] == "a/b" and links["workspace/d/back"] == "../in"
    assert links["workspace/s"] == "."
    assert {links[n] for n in ("workspace/up", "workspace/abs", "workspace/chain")} == \
        {UNSAFE_MARKER}
    assert sorted(report.unsafe_links) == ["/workspace/abs", "/workspace/chain",
                                           "/workspace/up"]
    assert report.dropped == ["/workspace/fifo"]


def _documented_grader(tmp_path: Path) -> Path:
    """docs/graders.md's as-agent example, typed as a grader author would copy it."""
    doc = (Path(__file__).parents[2] / "docs" / "graders.md").read_text()
    section = doc.split("## Running the agent's code", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    skill = tmp_path / "skill"
    (skill / "evals" / "graders").mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: doc-example\ndescription: x\n---\nbody\n")
    (skill / "evals" / "graders" / "check.py").write_text(code)
    return skill


@pytest.mark.parametrize(("solution", "reward"), [
    ("print(42)\n", 1.0),
    # the agent's code leaves a child rewriting the reward until the grader's container is
    # cleared: run as the agent's uid, it cannot (run as the grader, it scored 1)
    ("import os, time\n"
     "if os.fork() == 0:\n"
     "    os.setsid()\n"
     "    while True:\n"
     "        try:\n"
     "            open('/logs/grader/reward.txt', 'w').write('1')\n"
     "        except OSError:\n"
     "            pass\n"
     "        time.sleep(0.001)\n"
     "print(41)\n", 0.0),
])
async def test_the_documented_as_agent_grader_does_what_the_doc_says(spec, tmp_path,
                                                                     solution, reward):
    skill = _documented_grader(tmp_path)
    async with open_sandbox("docker", spec()) as sb:
        done = await sb.exec(f"cat > /workspace/solution.py <<'EOF'\n{solution}EOF",
                             timeout_s=30)
        assert done.ok, done.stderr
        graded = await run_grader(sb, skill, "evals/graders/check.py")
    assert graded.reward == reward, graded.exec.stderr


async def test_a_grader_that_fails_says_why_in_its_own_words(spec, tmp_path):
    skill = tmp_path / "skill"
    (skill / "evals" / "graders").mkdir(parents=True)
    (skill / "evals" / "graders" / "check.py").write_text(
        "import sys\nprint('looked at answer.txt')\n"
        "sys.exit('summary.md has no total row')\n")
    async with open_sandbox("docker", spec()) as sb:
        with pytest.raises(GraderError) as raised:
            await run_grader(sb, skill, "evals/graders/check.py")
    # its stderr (and exit code) reach the trial's error, read back after the clean-up
    assert "exit code 1" in str(raised.value)
    assert "summary.md has no total row" in str(raised.value)


async def test_sockets_and_pipes_the_agent_leaves_are_not_in_the_copy(spec):
    # tar leaves sockets out of the agent's tar; the copy drops the pipe; neither stops
    # grading (a failed copy would be a failed grade for real work).
    async with open_sandbox("docker", spec()) as sb:
        done = await sb.exec(
            "cd /workspace && echo 42 > answer.txt && mkfifo fifo && python3 -c "
            "\"import socket; socket.socket(socket.AF_UNIX).bind('/workspace/sock')\" && "
            "test -S sock && test -p fifo", timeout_s=30)
        assert done.ok, done.stderr
        graded = await run_grader(sb, SKILL, PY_GRADER)
    assert graded.reward == 1.0, graded.exec.stderr
    assert graded.workspace["dropped"] == ["/workspace/fifo"]
    assert graded.workspace["files"] == 1
