"""Readings tuned on holdout27 (SF512): whose `--yolo` it is (linters.security.flag_owner), and
a listing of an option's values (linters.security.option_listing).

`--yolo` is also the "don't ask me" switch of tools that are no agent (a mail CLI that skips
its "Send this email?" prompt). On such a command it turns off no agent's permission checks:
info, not high. The command word decides; an agent CLI before the flag (directly, through env
prefixes, `exec`, `timeout`, `tmux`, a package runner), a program that cannot be told (a
variable, a command array), and the agent-specific flags keep their severity.

Every skill text here is written for this file; the first tests failed before the reading.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as st

from linters import lint_skill
from tests.hypothesis_budget import examples


def _skill(tmp_path: Path, name: str, body: str) -> Path:
    skill = tmp_path / name
    skill.mkdir(parents=True, exist_ok=True)
    (skill / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: Helps with {name} work.\n---\n\n# {name}\n\n{body}",
        encoding="utf-8")
    return skill


def _sf512(skill: Path) -> list[str]:
    return [f.severity.value for f in lint_skill(skill).findings if f.rule == "SF512"]


def _block(*lines: str) -> str:
    return "```bash\n" + "\n".join(lines) + "\n```\n"


# --- another program's own --yolo ------------------------------------------------------------

def test_a_mail_cli_yolo_flag_is_no_agent_bypass(tmp_path):
    body = ("Send the invoice once the user has read the draft:\n\n"
            + _block("# send without the confirmation prompt",
                     'postbox send --to billing@example.org --subject "Invoice" --yolo'))
    assert _sf512(_skill(tmp_path, "invoices", body)) == ["info"]


def test_a_sentence_naming_the_flag_belongs_to_the_files_own_tool(tmp_path):
    body = ("## Replying\n\n1. Draft the reply.\n2. Send it with `--yolo` to skip the prompt.\n\n"
            + _block('postbox send --to team@example.org --body "$(cat reply.txt)" --yolo'))
    assert _sf512(_skill(tmp_path, "replies", body)) == ["info", "info"]


def test_inline_code_of_a_deploy_script_with_yolo(tmp_path):
    body = "Run `./deploy.sh production --yolo` once the checks pass.\n"
    assert _sf512(_skill(tmp_path, "deploys", body)) == ["info"]


# --- the twins that stay --------------------------------------------------------------------

def test_agent_cli_with_yolo_stays_high(tmp_path):
    for i, cmd in enumerate((
            'codex exec --yolo "fix the failing tests"',
            'gemini --yolo -p "triage the open issues"',
            'CI=1 timeout 600 qwen --yolo -p "update the docs"',
            'exec codex --yolo "$TASK"',
            'npx @google/gemini-cli --yolo -p "summarise the repo"',
            "tmux new-session -d 'codex --yolo \"refactor\"'",
            '"$AGENT_BIN" --yolo -p "$PROMPT"',
            "ARGS+=(--yolo)",
            "./run-codex.sh --yolo")):
        assert _sf512(_skill(tmp_path, f"agent{i}", _block(cmd))) == ["high"], cmd


def test_a_sentence_telling_the_agent_to_rerun_with_yolo_stays_high(tmp_path):
    body = ("Run with `--yolo` to skip the approval prompts.\n\n"
            + _block('codex exec --yolo "continue the migration"'))
    assert _sf512(_skill(tmp_path, "migrate", body)) == ["high", "high"]


def test_agent_specific_flags_on_any_command_stay_high(tmp_path):
    body = _block('launcher --dangerously-skip-permissions -p "clean up"',
                  'runner --approval-mode yolo "scan"')
    assert _sf512(_skill(tmp_path, "wrappers", body)) == ["high", "high"]


# --- property ----------------------------------------------------------------------------

_TOOLS = st.sampled_from(("postbox send", "mytool run", "npm publish", "./release.sh",
                          "python scripts/send.py", "deployctl apply"))
_AGENTS = st.sampled_from(("codex", "codex exec", "gemini", "qwen", "timeout 90 gemini",
                           "env HOME=/tmp codex", "npx @openai/codex", "bunx @google/gemini-cli"))
_ARGS = st.lists(st.sampled_from(("--to ops@example.org", '--body "done"', "-v", "--dry-run=false",
                                  "--region eu", "target")), max_size=3)


@settings(max_examples=examples(40), deadline=None)
@given(tool=_TOOLS, agent=_AGENTS, args=_ARGS)
def test_the_command_word_decides_who_owns_yolo(tmp_path_factory, tool, agent, args):
    rest = " ".join(args)
    tmp = tmp_path_factory.mktemp("yolo")
    assert _sf512(_skill(tmp, "tool", _block(f"{tool} {rest} --yolo"))) == ["info"]
    assert _sf512(_skill(tmp, "agent", _block(f'{agent} {rest} --yolo "do it"'))) == ["high"]


# --- a listing of an option's values (linters.security.option_listing) ------------------------

def test_a_listing_of_the_sandbox_values_is_no_command(tmp_path):
    body = ("## Flags\n\n" + _block("--sandbox read-only          # the default",
                                    "--sandbox workspace-write    # edits in the project",
                                    "--sandbox danger-full-access # no sandbox at all"))
    assert _sf512(_skill(tmp_path, "flags", body)) == ["info"]


def test_a_bare_bypass_option_or_a_continued_command_stays_high(tmp_path):
    alone = _block("--sandbox danger-full-access   # needed for the network tests")
    assert _sf512(_skill(tmp_path, "alone", alone)) == ["high"]
    continued = _block("codex exec \\", "  --sandbox danger-full-access \\", '  "run the suite"',
                       "", "codex exec \\", "  --sandbox read-only \\", '  "review"')
    assert _sf512(_skill(tmp_path, "continued", continued)) == ["high"]
