"""Harvest, the words: a valid skill name and the SKILL.md of a harvested skill.

The description is written from what the skill did and where it was reused (its own
description, its parameters, the tasks of the cases that created and reused it), in the third
person, with a "Use when" sentence, one line, no `<`/`>` or Markdown, at most 1024
characters: what the lint's correctness and discoverability rules ask of a description.
The body says what the script does, the exact command line, the parameters, an example from a
real recorded execution, how to check the result, the limits and where the skill came from.
"""

from __future__ import annotations

import json
import re
import shlex
import unicodedata
from typing import Any

from skillforge.authoring.harvest_script import parameter_table
from skillforge.authoring.harvest_usage import SkillUsage

MAX_NAME = 64
MAX_DESCRIPTION = 1024
RESERVED_WORDS = ("anthropic", "claude")
_EXCERPT_CHARS = 110


def skill_name_for(raw: str) -> str:
    """A name the Agent Skills spec accepts: lowercase ASCII letters, digits, single hyphens,
    at most 64 characters, none of the reserved words. `summarize_salesCSV` ->
    `summarize-sales-csv`."""
    text = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", text)
    words = [w for w in re.split(r"[^a-z0-9]+", text.lower())
             if w and w not in RESERVED_WORDS]
    name = "-".join(words)[:MAX_NAME].strip("-")
    return name or "harvested-skill"


def _plain(text: str) -> str:
    """One line of prose a harness can show literally: no <, >, Markdown marks or quotes."""
    text = re.sub(r"[<>*#\[\]`|]", " ", text).replace('"', "'")
    return " ".join(text.split())


def _sentence(text: str) -> str:
    text = _plain(text).strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _lead(text: str, sentences: int = 2, limit: int = 300) -> str:
    """The first sentences of the skill's own description (the body keeps all of it)."""
    parts = re.split(r"(?<=[.?!])\s+", text)
    lead = " ".join(parts[:sentences])
    if len(lead) <= limit:
        return lead
    return lead[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "..."


def _excerpt(prompt: str, limit: int = _EXCERPT_CHARS) -> str:
    """The first sentence of a case's task, cut at a word near `limit` characters."""
    first = re.split(r"(?<=[.?!])\s", _plain(prompt), maxsplit=1)[0].rstrip(".")
    if len(first) <= limit:
        return first
    return first[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "..."


def _and_list(items: list[str]) -> str:
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _params_phrase(names: list[str]) -> str:
    shown = [n.replace("_", " ") for n in names[:4]]
    more = len(names) - len(shown)
    if more:
        shown.append(f"{more} more")
    return _and_list(shown)


def description_for(usage: SkillUsage, prompts: dict[str, str],
                    old_skill: str | None = None) -> str:
    """The frontmatter description (see the module docstring for the rules it meets). Tasks
    that name the run's own skill (`old_skill`, "Use the CSV insights skill ...") are quoted
    last: they would route on the other skill's name."""
    name = usage.skill.name
    own = _lead(_sentence(usage.skill.description)) or _sentence(
        f"Runs the {name.replace('_', ' ')} code an agent wrote while solving tasks")
    params = list(usage.skill.parameters)
    takes = (f"Takes {_params_phrase(params)} as arguments and prints the result as JSON."
             if params else "Prints its result as JSON.")
    tasks = [_excerpt(prompts[c]) for c in usage.cases if prompts.get(c)]
    if old_skill:
        words = re.compile(r"\b" + r"[\s_-]+".join(map(re.escape, re.split(r"[\s_-]+",
                                                                          old_skill))) + r"\b",
                           re.IGNORECASE)
        tasks.sort(key=lambda t: bool(words.search(t)))
    for keep in (2, 1, 0):
        quoted = _and_list([f'"{t}"' for t in tasks[:keep]])
        trigger = ("Use when a task repeats the work it was written and reused for, such as "
                   f"{quoted}." if quoted else
                   "Use when a task needs the same steps the agent saved in it.")
        text = f"{own} {takes} {trigger}"
        if len(text) <= MAX_DESCRIPTION:
            return text
    room = MAX_DESCRIPTION - len(takes) - len(trigger) - 2
    return f"{own[:room - 3].rstrip()}... {takes} {trigger}"


def _shell_value(kind: str, value: Any) -> str:
    if kind == "bool":
        return "true" if value else "false"
    if kind == "json" or not isinstance(value, str):
        return shlex.quote(json.dumps(value, ensure_ascii=False))
    return shlex.quote(value)


def command_line(usage: SkillUsage, script: str, args: dict[str, Any] | None) -> str:
    """`python3 scripts/<name>.py --opt value ...` with `args` (or placeholders)."""
    table = parameter_table(usage.skill, args)
    words = ["python3", script]
    for name, (option, kind, _help) in table.items():
        if args is None:
            words += [option, kind.upper()]
        elif name in args:
            words += [option, _shell_value(kind, args[name])]
    extra = {k: v for k, v in (args or {}).items() if k not in table}
    if extra:  # arguments the agent passed beyond its declared parameters
        words += ["--args-json", shlex.quote(json.dumps(extra, ensure_ascii=False))]
    return " ".join(words)


def _cell(text: str) -> str:
    return text.replace("|", "\\|") or "-"


def _parameters_section(usage: SkillUsage) -> list[str]:
    table = parameter_table(usage.skill, usage.example.args if usage.example else None)
    if not table:
        return ["The script takes no arguments."]
    rows = ["| option | key in `--args-json` | type | meaning |", "|---|---|---|---|"]
    for name, (option, kind, text) in table.items():
        rows.append(f"| `{option}` | `{name}` | {kind} | {_cell(text)} |")
    return rows


def _rate(usage: SkillUsage) -> str:
    if usage.exec_rate is None:
        return "never executed in the run"
    return (f"{usage.successes} of {usage.runs} recorded executions succeeded "
            f"(exec rate {usage.exec_rate:.0%})")


def skill_md(name: str, usage: SkillUsage, description: str, prompts: dict[str, str],
             source_skill: str | None) -> str:
    """The whole SKILL.md of a harvested skill."""
    script = f"scripts/{name}.py"
    title = name.replace("-", " ").capitalize()
    example = usage.example
    does = _sentence(usage.skill.description) or "It runs the code an agent saved."
    origin = (f"case `{usage.created_case}` of run `{usage.created_run}`"
              if usage.created_case else "an earlier case")
    reused = usage.reused_cases
    where = f"the {source_skill} cases" if source_skill else "the run's cases"
    meta = {"harvested-from-run": usage.run_id, "created-by-case": usage.created_case or "",
            "exec-rate": f"{usage.exec_rate:.2f}" if usage.exec_rate is not None else "none"}
    front = ["---", f"name: {name}", f"description: {json.dumps(description, ensure_ascii=False)}",
             "metadata:"] + [f"  {k}: {json.dumps(v)}" for k, v in meta.items()] + ["---", ""]
    lines = [
        f"# {title}", "",
        "## Overview", "",
        f"{does} An agent wrote this code while solving {origin}"
        + (f" and reused it in {_and_list([f'`{c}`' for c in reused])}." if reused else ".")
        + f" `{script}` runs the same code as a command: it takes the skill's arguments, runs "
        "its steps on this machine and prints the result as JSON.", "",
        "## When to use", "",
    ]
    lines += [f"- Tasks like \"{_excerpt(prompts[c], 160)}\" (case `{c}`)."
              for c in usage.cases if prompts.get(c)] or [
        f"- Tasks like {where} where the agent used it."]
    lines += [
        "", "## When not to use", "",
        "- Inputs unlike the ones in the example below (other columns, formats or layouts): "
        "the code was written for the inputs its cases had and may not check for others.",
        "- Tasks that only resemble these ones: read the parameters first and write new code "
        "when they do not fit.", "",
        "## Workflow", "",
        "1. Run the script from the task's working folder, with one option per parameter:", "",
        "   ```bash", f"   {command_line(usage, script, example.args if example else None)}",
        "   ```", "",
        "   All arguments can also come as one JSON object with `--args-json '{...}'`; options "
        "given as well override its keys.",
        "2. Read the JSON the script prints: it is the skill's `result`.",
        "3. Check it before using it: exit code 0, and the fields the task needs are present and "
        "not empty. On a non-zero exit the script printed a traceback or a usage error; fix "
        "the arguments or the input and run it again.", "",
        "## Parameters", "",
        *_parameters_section(usage), "",
        "## Example", "",
    ]
    if example:
        lines += [
            f"Recorded in case `{example.case_id}` of run `{usage.run_id}`, where the agent "
            "executed the skill with these arguments:", "",
            "```json", json.dumps(example.args, indent=2, ensure_ascii=False), "```", "",
            "The same execution as a command:", "",
            "```bash", command_line(usage, script, example.args), "```", "",
            "The run kept the arguments, not the output: run the command on the task's files "
            "to see the JSON result.",
        ]
    else:
        lines += ["The run recorded no successful execution of this skill. Run the script with "
                  "`--help` to see its options:", "", "```bash", f"python3 {script} --help",
                  "```"]
    lines += [
        "", "## Limitations", "",
        "- Written by an agent during a trial, not by a person: review the code between the "
        "`skill code` markers in the script before relying on it.",
        f"- Reliability so far: {_rate(usage)}.",
        "- `call_tool` runs the agent's tools (`bash`, `read_file`, `write_file`) on this "
        "machine with the permissions of whoever runs the script.", "",
        "## Provenance", "",
        f"- Harvested from run `{usage.run_id}`"
        + (f" (attempt {usage.attempt})" if usage.attempt is not None else "") + ".",
        f"- Created by case `{usage.created_case}`"
        + (f" of run `{usage.created_run}` (an inherited cache)" if usage.inherited else "")
        + "." if usage.created_case else "- Creating case not recorded.",
        f"- Reused in {_and_list([f'`{c}`' for c in reused])}." if reused
        else "- Not reused in another case of the run.",
        f"- Executions: {_rate(usage)}.",
        "- `evals/evals.json` holds those cases, to try this skill against a baseline.",
        "",
    ]
    return "\n".join(front + lines)
