"""Command palette (ctrl+p): the workbench's commands, depending on what is open.

While the palette is open `app.screen` is the palette itself, so the provider works on the
screen the palette was opened from (`Provider.screen`), never on `app.screen`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from skillforge.screens.workbench import TABS, WorkbenchScreen

Command = tuple[str, Callable[[], object], str]


def tab_commands(wb: WorkbenchScreen) -> list[Command]:
    """Go to any tab; then what the tab on screen offers."""
    cmds: list[Command] = [(f"Go to the {title} tab", partial(wb.action_show_tab, pane),
                            f"key {i}") for i, (title, pane) in enumerate(TABS, 1)]
    active = wb.active_tab
    if active == "evals-pane" and (pane := wb.pane("EvalsPane")) is not None:
        cmds += [("Evals: save", pane.save, "ctrl+s: write evals/evals.json"),
                 ("Evals: new case", pane.action_add_case, "ctrl+n"),
                 ("Evals: undo", pane.action_undo, "ctrl+z"),
                 ("Evals: redo", pane.action_redo, "ctrl+y"),
                 ("Evals: draft trigger queries", pane.action_draft_triggers, "ctrl+k"),
                 ("Evals: draft cases with the model", pane.action_draft, "ctrl+g"),
                 ("Evals: refine the selected case from a trajectory", pane.action_refine,
                  "ctrl+r")]
    elif active == "trials-pane" and (form := wb.pane("TrialConfigForm")) is not None:
        cmds += [("Trials: start the run", form.action_start, "ctrl+r"),
                 ("Trials: cancel the run", form.action_cancel, "ctrl+x")]
    elif active == "lift-pane" and (view := wb.pane("LiftView")) is not None:
        cmds += [("Lift: metrics", partial(view.action_section, "metrics"), "m"),
                 ("Lift: cases × metrics heatmap", partial(view.action_section, "cases"), "h"),
                 ("Lift: negative-lift cases", partial(view.action_section, "triage"), "t"),
                 ("Lift: judge agreement with your labels",
                  partial(view.action_section, "agreement"), "a")]
        # Skill Mode and Parts exist only for some runs: offered when the run has them.
        if view.has_skill_mode:
            cmds.append(("Lift: Skill Mode", partial(view.action_section, "skill_mode"), "k"))
        if view.check_action("section", ("parts",)):
            cmds.append(("Lift: Parts (what each part of the skill adds)",
                         partial(view.action_section, "parts"), "p"))
    return cmds


def workbench_commands(wb: WorkbenchScreen) -> list[Command]:
    """Lint, tabs, the findings table's sort and filters, open a file, switch skill."""
    cmds: list[Command] = [("Lint now", wb.action_lint_now,
                            "Re-run every linter on the current skill"),
                           ("Run the judge", wb.action_judge, "j: the LLM rubric"),
                           ("Triggers: trigger queries and the description loop", wb.action_open_triggers,
                            "7: the Triggers view"),
                           ("Compat: the skill in each harness (Claude Code, Codex, ...)",
                            wb.action_toggle_compat, "h: in place of the findings, and back"),
                           ("Toggle the sidebar", wb.action_toggle_sidebar, "ctrl+b"),
                           ("Fix: apply the highlighted finding's fix", wb.action_fix_one,
                            "f: shown as a diff in the Detail panel"),
                           ("Fix: apply every safe fix of the skill", wb.action_fix_all, "F"),
                           ("Fix: undo the last fix", wb.action_fix_undo, "ctrl+z")]
    cmds += tab_commands(wb)
    from widgets.findings_table import FindingsTable

    if (t := wb.pane(FindingsTable)) is not None:
        cmds += [
            ("Findings: cycle sort", t.action_cycle_sort, "severity → rule → location"),
            ("Findings: cycle category filter", t.action_cycle_category, "all → correctness → …"),
            ("Findings: cycle severity filter", t.action_cycle_severity,
             "all → error+ → warning+ → security"),
        ]
    result = wb.results.get(wb.current) if wb.current else None
    if result is not None:
        for f in result.skill.files:
            if f.text is not None:
                cmds.append((f"Open {f.path}", partial(wb.open_in_editor, wb.current / f.path,
                                                       None), "Open in $EDITOR"))
    for path in wb.ws.skills:
        if path != wb.current:
            name = wb.results[path].skill.display_name if path in wb.results else path.name
            cmds.append((f"Switch skill: {name}", partial(wb.request_switch, path), str(path)))
    return cmds


class WorkbenchCommands(Provider):
    """Lint now, tabs, open a file in $EDITOR, switch skill, filters, theme, help."""

    def _commands(self) -> list[Command]:
        app = self.app
        wb = self.screen if isinstance(self.screen, WorkbenchScreen) else \
            getattr(app, "workbench", None)
        cmds: list[Command] = []
        if wb is not None:
            cmds += workbench_commands(wb)
        cmds += [
            ("Toggle light/dark theme", app.action_toggle_theme,
             "Switch between the light and dark themes"),
            ("Help", app.action_help, "Help for the focused panel and every key"),
        ]
        return cmds

    async def discover(self) -> Hits:
        for name, callback, help_text in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
