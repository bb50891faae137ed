"""The `skillforge` command line: every capability as a headless command with exit codes.

Exit codes: 0 ok, 1 a gate failed, 2 bad input or usage.

Each command's module is imported only when that command runs (see `lazy.py`): importing this
package costs click and nothing else, so `skillforge --version` and `--help` start at once.
"""

from __future__ import annotations

import os

import click

from skillforge import __version__
from skillforge.cli.lazy import LazyCommand, LazyGroup

# name -> where the command lives and the first paragraph of its docstring (tests/cli checks
# that they agree). A new command is one line here.
COMMANDS: dict[str, LazyCommand] = {
    "lint": LazyCommand("skillforge.cli.lint:lint", "Lint skills: a skill folder, a SKILL.md, "
                        "or any folder (every SKILL.md below it)."),
    "judge": LazyCommand("skillforge.cli.judge:judge", "Judge skills with an LLM rubric: nine "
                         "criteria 0-10, evidence and a suggestion each."),
    "evals": LazyCommand("skillforge.cli.evals:evals_group", "Work on a skill's "
                         "evals/evals.json: validate, init, draft, refine, convert."),
    "trial": LazyCommand("skillforge.cli.trial:trial", "Run paired trials of a skill: each case "
                         "with the skill and without it (baseline)."),
    "parts": LazyCommand("skillforge.cli.parts:parts", "List the parts of a skill an "
                         "ablation can remove, with their token cost."),
    "report": LazyCommand("skillforge.cli.report:report", "Render a run's Skill Lift report."),
    "label": LazyCommand("skillforge.cli.label:label", "Label a run's LLM judgments with your "
                         "own scores (agreement and calibration)."),
    "import": LazyCommand("skillforge.cli.import_cmd:import_group", "Import agent traces into "
                          "the run store as ATIF trajectories."),
    "export": LazyCommand("skillforge.cli.export:export", "Export trials for other engines "
                          "(Harbor: hundreds of trials on cloud sandboxes)."),
    "optimize-description": LazyCommand(
        "skillforge.cli.optimize:optimize_description", "Optimise a skill's description for "
        "triggering, with a held-out test set."),
    "harvest": LazyCommand("skillforge.cli.harvest:harvest", "Turn the skills an agent saved "
                           "in a skill_mode run into Agent Skills folders."),
    "new": LazyCommand("skillforge.cli.new:new", "Create NAME/ with SKILL.md and "
                       "evals/evals.json, ready to edit."),
    "doctor": LazyCommand("skillforge.cli.doctor:doctor", "Check this machine: Python, "
                          "configuration, Docker and compose, providers, Claude Code, linters, "
                          "folders."),
    "open": LazyCommand("skillforge.cli.open_cmd:open_cmd", "Open the workbench on PATH "
                        "(default: the current folder).", hidden=True),
    "lsp": LazyCommand("skillforge.cli.lsp:lsp", "Serve lint findings to an editor over the "
                       "Language Server Protocol (stdio)."),
    "serve": LazyCommand("skillforge.cli.serve:serve", "Serve the workbench on http://HOST:PORT "
                         "(each browser tab runs its own session)."),
}


class _PathOrCommand(LazyGroup):
    """`skillforge [PATH]` opens the workbench; `skillforge COMMAND ...` runs a command.

    A first word that is neither a command nor an existing path is a mistyped command
    (`skillforge harvest --help` used to print the help of `open` and exit 0)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and not args[0].startswith("-") and args[0] not in self.list_commands(ctx):
            if not os.path.exists(args[0]):
                self._no_such(ctx, args[0])
            args = ["open", *args]
        elif not args:
            args = ["open"]
        return super().parse_args(ctx, args)

    def _no_such(self, ctx: click.Context, word: str) -> None:
        if os.sep in word or word.startswith((".", "~")) or word.endswith(".md"):
            raise click.UsageError(f"{word}: no such file or folder; pass a skill folder, a "
                                   "SKILL.md, or a folder of skills", ctx)
        import difflib

        shown = [n for n in self.list_commands(ctx) if not self.lazy_commands[n].hidden]
        near = difflib.get_close_matches(word, shown, n=1, cutoff=0.5)
        hint = f" Did you mean {near[0]!r}?" if near else ""
        raise click.UsageError(f"No such command {word!r}.{hint} (Nor is there a file or "
                               f"folder named {word!r} to open.) `skillforge --help` lists "
                               "the commands.", ctx)


@click.group(cls=_PathOrCommand, lazy_commands=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="skillforge")
def main() -> None:
    """skillforge: a workbench for agent-skill authors.

    \b
    skillforge [PATH]        open the workbench on a skill or a folder of skills (default .)
    skillforge lint PATH...  structural, security and script lint (text, json, sarif, github);
                             --harness all: per-harness compatibility (Claude Code, Codex, ...)
    skillforge judge PATH... the LLM rubric judge (nine criteria, score and grade)
    skillforge evals ...     validate, init, draft and refine evals/evals.json cases
    skillforge import FILE.. store Claude Code / Codex / ATIF / Gemini / OpenCode traces
    skillforge import harbor JOB_DIR   bring a Harbor job's trials back as a run
    skillforge export harbor PATH -o DIR  the paired trials as a Harbor dataset
    skillforge trial PATH     paired trials in Docker: with vs without the skill, Skill Lift
    skillforge parts PATH    the parts an ablation can cut (trial --ablate: lift per part)
    skillforge report [RUN]  Skill Lift as Markdown, one HTML file, or lift.json
    skillforge label RUN     your own scores of the judges' (agreement, calibration)
    skillforge optimize-description PATH  trigger evals and a description loop (held-out test)
    skillforge harvest RUN -o DIR  the skills an agent saved in Skill Mode, as skill folders
    skillforge new NAME      scaffold a valid skill with an evals/evals.json template
    skillforge doctor        check Python, Docker, providers, ruff/shellcheck, state dir
    skillforge serve [PATH]  the workbench in a browser (textual-serve)
    skillforge lsp           findings, hovers and quick fixes in your editor (LSP, stdio)

    Configuration: skillforge.toml (next to the skill, in the launch directory, or in
    ~/.config/skillforge/), SKILLFORGE_<SECTION>__<KEY> variables, then flags.
    Exit codes: 0 ok, 1 a gate failed, 2 bad input or usage.
    """
