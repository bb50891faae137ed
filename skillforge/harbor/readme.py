"""The README.md of an exported Harbor dataset: how to run it, and how to bring it back."""

from __future__ import annotations

import shlex
from collections import Counter

from skillforge.harbor.environments import (
    LOCAL,
    NetworkPlan,
    concurrency,
    network_notice,
)
from skillforge.harbor.manifest import DatasetManifest
from skillforge.harbor.verifier_script import NO_GRADER_KEY
from skillforge.sandbox.grading import DEFAULT_GRADER_TIMEOUT_S


def render_readme(manifest: DatasetManifest, dataset: str, ungraded: list[str],
                  net: NetworkPlan) -> str:
    """README text for a dataset written to `dataset` (as the user should type it)."""
    spec = manifest.spec
    k = spec.attempts
    p = shlex.quote(dataset)
    name = net.harbor_environment
    env = f"-e {name}"
    n = concurrency(name)
    where = (f"These tasks are written for Harbor's `{name}` environment"
             + (" (this machine's Docker; Harbor drives it with docker compose v2)"
                if name == "docker" else "")
             + (". The task images are built from each `environment/Dockerfile`, FROM "
                f"`{spec.image}`, which must be available to {name}.")
             + ("" if name in LOCAL else
                f" The provider needs its key and Harbor's extra for `{name}`."))
    per_condition = Counter(t.condition for t in manifest.tasks)
    conditions = ", ".join(f"{c} ({n})" for c, n in per_condition.items())
    lines = [
        f"# Harbor dataset: paired trials of the skill `{manifest.skill}`",
        "",
        (f"Written by `skillforge export harbor` (skillforge {manifest.skillforge_version}) on "
        f"{manifest.created_at:%Y-%m-%d %H:%M} UTC from `{manifest.skill_path}` "
        f"(content hash `{manifest.skill_hash[:12]}`, export `{manifest.export_id}`)."),
        "",
        (f"{len(manifest.tasks)} tasks: {len(manifest.cases)} cases x conditions {conditions}. "
        "Each task folder is one case in one condition: `instruction.md` is the prompt the "
        "agent gets, `environment/` is what its container starts with (the case's files in "
        "/workspace, the visible skills in /skills), `tests/test.sh` runs the case's grader "
        "after the agent stops. `skillforge-dataset.json` maps tasks back to cases for "
        "`skillforge import harbor`; Harbor ignores it."),
        "",
        "## Run it with Harbor",
        "",
        ("Harbor needs Python >= 3.12 (`pip install harbor`, or `uv tool install harbor`). "
        "Its telemetry is on by default; turn it off first:"),
        "",
        "```sh",
        "export HARBOR_TELEMETRY=0",
        "```",
        "",
        where,
        "",
        ("First check the plumbing with Harbor's `nop` agent, which does nothing: every task "
         "is built, started and graded on its untouched workspace (rewards of 0 are expected):"),
        "",
        "```sh",
        f"harbor run -p {p} {env} -a nop -k 1 -n {n}",
        "```",
        "",
        f"Then the trials, {k} attempt(s) per task:",
        "",
        "```sh",
        f"harbor run -p {p} {env} -a <agent> -m <model> -k {k} -n {n}",
        "```",
        "",
        ("`<agent>` is any Harbor agent that supports skills (terminus-2, claude-code, codex, "
        "gemini-cli, opencode, ...); `<model>` is the model it runs, e.g. "
        "`anthropic/claude-sonnet-4-5`. Harbor's own terminus-2 runs on this machine and "
        "types into a tmux session in the task's container (the image needs `tmux`); it "
        "takes skillforge's turn limit as `max_turns`:"),
        "",
        "```sh",
        f"harbor run -p {p} {env} -a terminus-2 -m <model> -k {k} -n {n} --ak max_turns="
        f"{spec.limits.max_turns}",
        "```",
        "",
        ("Results go to `jobs/<job name>/` (`-o` to change). To run on another Harbor "
         "environment, export again with `skillforge export harbor --environment NAME`: the "
         "network policy written into the tasks depends on what that environment can "
         "enforce."),
        "",
        "## Skills: already inside the tasks, do not pass --skill",
        "",
        "Every task sets `[environment] skills_dir = \"/skills\"`: the with_skill tasks hold "
        f"`{manifest.skill}` there"
        + (", and every task holds the support and decoy skills" if spec.workspace == "group"
           and (spec.support_skills or spec.decoy_skills) else "")
        + "; Harbor copies that folder into the agent's own skills folder "
        "(~/.claude/skills, ~/.agents/skills, ... or terminus-2's skills list). The baseline "
        "tasks have no trace of the skill. **Do not add `--skill`** to `harbor run`: Harbor "
        "would give it to the baseline tasks too and erase the difference being measured. "
        "An agent without skills support fails every trial (\"does not support skills\").",
        "",
        "## Network and limits",
        "",
    ]
    lines.append(network_text(net))
    lim = spec.limits
    lines += [
        "",
        (f"Agent time limit {lim.timeout_sec} s, grader {DEFAULT_GRADER_TIMEOUT_S} s, "
        f"{lim.cpus:g} CPU(s) (Harbor takes whole CPUs), {lim.memory_mb} MB. Harbor has no "
        f"equivalent of skillforge's process limit ({lim.pids}), and its turn limit "
        f"({lim.max_turns}) only reaches agents that take one (terminus-2: `--ak "
        "max_turns`); both are recorded in each task.toml."),
        "",
        "## Bring the results back",
        "",
        "```sh",
        "skillforge import harbor jobs/<job name>" + (f" --dataset {p}"),
        "skillforge report",
        "```",
        "",
        ("The import maps every trial back to its case, condition and attempt, stores the "
        "trajectories and grader rewards as a run, and scores the deterministic metrics, so "
        "`skillforge report` and the workbench show the Skill Lift as for a local run. "
        "Harbor's own summary (mean reward, pass@k) pools both conditions: it is not the "
        "Skill Lift."),
    ]
    if ungraded:
        lines += [
            "",
            "## Cases without a grader",
            "",
            (f"{', '.join(f'`{c}`' for c in ungraded)}: Harbor needs a reward file, so their "
            f"test.sh writes the marker `{{\"{NO_GRADER_KEY}\": 0}}`, which is not a score. "
            "The import ignores it and skillforge judges these cases by its own metrics "
            f"(pass = overall >= {spec.pass_threshold:g})."),
        ]
    return "\n".join(lines) + "\n"


def network_text(net: NetworkPlan) -> str:
    """The README's paragraph on the network policy the tasks carry."""
    notice = network_notice(net)
    if notice:
        return f"**{notice}**"
    if net.asked_network:
        return ("The trials may use the network (exported with network on): every "
                "`network_mode` is \"public\".")
    if net.enforcement == "switch":
        return (
            "The agent and the grader run without network (`[agent]` and `[verifier]` "
            "`network_mode = \"no-network\"`; the environment itself starts public so "
            "Harbor can install the agent, and "
            f"`{net.harbor_environment}` switches the policy per phase). terminus-2 talks to "
            "its model from the host and needs nothing more. Agents that run inside the "
            "container (claude-code, codex, gemini-cli, ...) must reach their model's API: "
            "allow just that host, e.g. `--allow-agent-host api.anthropic.com`, or export "
            "again with `--network`.")
    return (
        "Nothing in these trials has network (`network_mode = \"no-network\"` for the "
        f"environment, the agent and the grader): `{net.harbor_environment}` cannot change "
        "the policy after the sandbox starts, so Harbor cannot download an agent during "
        "setup either. terminus-2 talks to its model from the host and needs nothing "
        "installed; agents that run inside the container (claude-code, codex, ...) must "
        "already be in the image (`--image`), or export again with `--network`.")
