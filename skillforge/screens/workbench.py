"""The main screen: skill picker, file tree, and the tabs (Lint, Judge, Evals, Trials,
Lift, Compare), each tab's logic in its own mixin (live_lint, judge_tab, evals_tab,
trials_tab, lift_tab; tabs mounts them, guard asks before unsaved edits go,
worker_errors reports failures); this module lays them out and holds the skill switching
and actions.
"""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import TabbedContent, TabPane

from linters.compat.profiles import profiles
from linters.registry import catalogue
from skillforge.workspace.live import LintResult, Workspace
from skillforge.screens.editor import run_editor
from skillforge.screens.evals_tab import EvalsTab
from skillforge.screens.fix_actions import FixActions
from skillforge.screens.guard import UnsavedGuard
from skillforge.screens.judge_tab import JudgeTab
from skillforge.screens.lift_tab import LiftTab
from skillforge.screens.live_lint import LiveLint
from skillforge.screens.tabs import TABS, LazyTabs, freeze_built_widgets
from skillforge.screens.trials_tab import TrialsTab
from skillforge.screens.worker_errors import WorkerFailures
from widgets.compat_panel import CompatPanel
from widgets.empty_state import EmptyState
from widgets.file_tree import SkillFileTree
from widgets.finding_detail import FindingDetail
from widgets.findings_table import FindingsTable
from widgets.key_footer import KeyFooter
from widgets.lint_summary import LintSummary
from widgets.skill_header import SkillHeader
from widgets.skill_list import SkillEntry, SkillList


__all__ = ["TABS", "WorkbenchScreen"]
# Below this width a single skill's file tree gives its columns to the tabs (ctrl+b shows it).
SIDEBAR_MIN_WIDTH = 100
# Below this height the tabs' fixed-height parts (heat legend, cases list) shrink so tables
# keep rows.
SHORT_HEIGHT = 30


class WorkbenchScreen(LiveLint, FixActions, JudgeTab, EvalsTab, TrialsTab, LiftTab, LazyTabs,
                      UnsavedGuard, WorkerFailures, Screen):
    """One skill at a time, with every lint result live."""

    BINDINGS = [
        Binding("r", "lint_now", "Lint", id="lint_now"),
        Binding("e", "open_editor", "Edit", id="open_editor"),
        Binding("n", "next_skill", "Next skill", id="next_skill", show=False),
        Binding("p", "prev_skill", "Prev skill", id="prev_skill", show=False),
        Binding("j", "judge", "Judge", id="judge_now"),
        # In the Lint tab's footer (check_action); ctrl+z once there is a fix to undo.
        Binding("f", "fix_one", "Fix", id="fix.one"),
        Binding("F", "fix_all", "Fix all", id="fix.all"),
        Binding("ctrl+z", "fix_undo", "Undo fix", id="fix.undo"),
        Binding("h", "toggle_compat", "Compat", id="compat.toggle"),
        Binding("ctrl+b", "toggle_sidebar", "Sidebar", id="toggle_sidebar", show=False),
        Binding("1", "show_tab('lint-pane')", "Lint tab", id="tab.lint", show=False),
        Binding("2", "show_tab('judge-pane')", "Judge tab", id="tab.judge", show=False),
        Binding("3", "show_tab('evals-pane')", "Evals tab", id="tab.evals", show=False),
        Binding("4", "show_tab('trials-pane')", "Trials tab", id="tab.trials", show=False),
        Binding("5", "show_tab('lift-pane')", "Lift tab", id="tab.lift", show=False),
        Binding("6", "show_tab('compare-pane')", "Compare tab", id="tab.compare", show=False),
        Binding("7", "open_triggers", "Triggers", id="triggers.open", show=False),
    ]
    DEFAULT_CSS = """
    #sidebar { width: 30; min-width: 22; }
    #main { width: 1fr; }
    #lint-pane { height: 1fr; }
    #lint-body { height: 1fr; }
    /* The Lift tab's runs take a third of it, 3 to 5 runs; at 80x24 a fixed 4 rows left one
       run of twelve in sight (issue 37). */
    #run-picker { height: 1fr; min-height: 6; max-height: 8; }
    #lift { height: 2fr; }
    /* Header and 4 runs at least: the Trials tab scrolls to them (focus scrolls them into
       view) when the form and the grid take the screen. */
    #runs { height: 1fr; min-height: 7; }
    #main.-short #heat-legend { max-height: 1; }
    #main.-short #trial-form #cases { height: 3; }
    #lift-heatmap { min-height: 5; }
    FindingsTable { height: 3fr; }
    FindingDetail { height: 2fr; }
    /* h: the Compat section takes the findings' place (the summary stays). */
    #compat { display: none; }
    #lint-body.-compat #compat { display: block; }
    #lint-body.-compat FindingsTable, #lint-body.-compat FindingDetail { display: none; }
    """

    def __init__(self, workspace: Workspace, debounce_ms: int = 30) -> None:
        super().__init__()
        self.ws = workspace
        self.debounce_ms = debounce_ms
        self.current: Path | None = workspace.skills[0] if workspace.skills else None
        self._mounted_tabs: set[str] = {"lint-pane"}
        self.results: dict[Path, LintResult] = {}
        self._generation: dict[Path, int] = {}
        self._applied: dict[Path, int] = {}
        self._sidebar_choice: bool | None = None  # ctrl+b's choice; None: by width
        self._tabs: TabbedContent | None = None

    # --- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield SkillHeader(id="header")
        with Horizontal():
            with Vertical(id="sidebar"):
                if not self.ws.is_single:
                    yield SkillList(id="skills")
                yield SkillFileTree(id="files")
            with Vertical(id="main"):
                yield EmptyState(self.ws.shown_root, id="empty")
                with TabbedContent(id="tabs"):
                    with TabPane("Lint", id="lint-pane"):
                        with Vertical(id="lint-body"):
                            yield LintSummary(id="summary")
                            yield FindingsTable(id="findings")
                            yield FindingDetail(id="detail")
                            yield CompatPanel(id="compat")
                    # The other tabs are filled on first visit (ensure_tab): composing
                    # every form and view up front would double the start-up time.
                    for title, tab in TABS[1:]:
                        yield TabPane(title, id=tab)
        yield KeyFooter()

    # --- size ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # r, e and j belong to the Lint tab (the Judge tab has its own j): elsewhere their
        # letters stay free and the footer keeps room for the tab's own keys.
        if action in ("lint_now", "open_editor", "judge", "fix_one", "fix_all", "fix_undo",
                      "toggle_compat"):
            if self.current is None:
                return False  # the no-skill screen: nothing to lint, edit or judge
            tabs = self._tabs  # kept: a query here would run for every key on every redraw
            if tabs is not None and tabs.active != "lint-pane":
                return False
            return action != "fix_undo" or len(self.fix_undo) > 0
        return True

    def on_resize(self) -> None:
        # Under 120 columns the sidebar gives room to the findings' messages. Set on the
        # sidebar itself: a class on the screen would restyle every widget.
        sidebar = self.query_one("#sidebar")
        sidebar.styles.width = 24 if self.size.width < 120 else 30
        self._place_sidebar()
        self.query_one("#main").set_class(self.size.height < SHORT_HEIGHT, "-short")

    def _place_sidebar(self) -> None:
        shown = self._sidebar_choice
        if shown is None:
            shown = not self.ws.is_single or self.size.width >= SIDEBAR_MIN_WIDTH
        self.query_one("#sidebar").display = shown

    def action_toggle_sidebar(self) -> None:
        self._sidebar_choice = not self.query_one("#sidebar").display
        self._place_sidebar()

    def on_mount(self) -> None:
        self._tabs = self.query_one("#tabs", TabbedContent)
        self.judge_init()
        self.trials_init()
        self._show_empty_state()
        self._refresh_sidebar()
        self._update_header()
        self.lint_all()
        self.run_worker(self._watch_loop(), name="watch", group="watch", exclusive=True, exit_on_error=False)
        if self.ws.skills:
            self.query_one(FindingsTable).focus()
        self.call_after_refresh(freeze_built_widgets)

    # --- the live loop ------------------------------------------------------------------

    def _skills_changed(self) -> None:
        if self.current not in self.ws.skills:
            self.current = self.ws.skills[0] if self.ws.skills else None
            if self.current is not None:
                self.lint(self.current)
            else:
                self._update_header()
        self._show_empty_state()
        self._refresh_sidebar()

    def _show_empty_state(self) -> None:
        has_skills = bool(self.ws.skills)
        self.query_one("#empty").display = not has_skills
        self.query_one("#tabs").display = has_skills
        self.query_one(SkillFileTree).display = has_skills  # no skill: no "skill" root node
        self.refresh_bindings()

    def _refresh_sidebar(self) -> None:
        lists = self.query(SkillList)
        if not lists:
            return
        entries = []
        for p in self.ws.skills:
            r = self.results.get(p)
            name = (r.skill.display_name if r else p.name)
            entries.append(SkillEntry(p, name, r.report if r else None))
        lists.first().set_entries(entries, self.current)

    def _update_header(self) -> None:
        header = self.query_one(SkillHeader)
        if self.current is None:
            header.title = f"{self.ws.root.name}/ (no skill)"
            header.report = None
            return
        r = self.results.get(self.current)
        header.title = r.skill.display_name if r else self.current.name
        header.report = r.report if r else None
        header.status = getattr(self.app, "status_text", "")

    def _show(self, result: LintResult) -> None:
        self._update_header()
        summary = self.query_one(LintSummary)
        summary.error = None
        summary.report = result.report
        self.query_one(SkillFileTree).show_skill(result.skill, result.report.findings)
        self.query_one(FindingsTable).show(result.report.findings)
        wanted = result.ctx.config.harness or list(profiles())
        self.query_one(CompatPanel).show(result.compat, {h: profiles()[h].title for h in wanted})

    def action_toggle_compat(self) -> None:
        """h: the Compat section in place of the findings, and back."""
        body = self.query_one("#lint-body")
        body.toggle_class("-compat")
        if body.has_class("-compat"):
            self.query_one(CompatPanel).focus()
        else:
            self.query_one(FindingsTable).focus()

    @on(FindingsTable.Highlighted)
    def on_finding_highlighted(self, message: FindingsTable.Highlighted) -> None:
        f = message.finding
        result = self.results.get(self.current) if self.current else None
        text = None
        if f is not None and f.path and result is not None:
            sf = result.skill.file(f.path)
            text = sf.text if sf is not None else None
        rule = catalogue().get(f.rule) if f is not None else None
        self.query_one(FindingDetail).show(f, rule, text, dark=self.app.current_theme.dark,
                                           fix=self.fix_preview(f))

    @on(SkillFileTree.FileChosen)
    def on_file_chosen(self, message: SkillFileTree.FileChosen) -> None:
        self.query_one(FindingsTable).filter_file(message.path)

    @on(SkillList.Chosen)
    def on_skill_chosen(self, message: SkillList.Chosen) -> None:
        self.request_switch(message.path)

    def switch_skill(self, path: Path) -> None:
        """Show `path` now (unsaved eval edits of the current skill are dropped: callers
        ask first through `request_switch`)."""
        if path == self.current or path not in self.ws.skills:
            return
        self.trials_leaving()
        self.current = path
        self.query_one(FindingsTable).filter_file(None)
        self.judge_switched(path)
        self.evals_load()
        self.trials_load()
        self.runs_switched()
        result = self.results.get(path)
        if result is not None:
            self._show(result)
            if result.report.scripts_pending and result.external is None:
                self._lint_scripts(result)
        else:
            self._update_header()
        self.lint(path)

    # --- actions ------------------------------------------------------------------------

    async def action_judge(self) -> None:
        await self.action_show_tab("judge-pane")
        self.start_judge()

    def action_open_triggers(self) -> None:
        """The Triggers view (skillforge.screens.triggers_tab); Enter on a query that failed
        to trigger comes back here and opens that run of it in Compare."""
        if self.current is None:
            return
        from skillforge.screens.triggers_tab import TriggersScreen
        from widgets.lift_view import CompareRequested

        settings, _err = self.ws.settings(self.current)

        def back(result) -> None:
            if result and result[0] == "compare":
                self.post_message(CompareRequested(result[2], result[1]))

        self.app.push_screen(TriggersScreen(self.current, self.ws.launch_dir /
                                            settings.state_dir, settings,
                                            self.trigger_trial_options()), back)

    def action_lint_now(self) -> None:
        if self.ws.rescan():
            self._skills_changed()
        if self.current is not None:
            self.lint(self.current)
            self.notify("Linting…", timeout=1)

    def _step_skill(self, step: int) -> None:
        if len(self.ws.skills) < 2:
            return
        entries = sorted(
            (SkillEntry(p, p.name, self.results[p].report if p in self.results else None) for p in self.ws.skills),
            key=SkillEntry.sort_key,
        )
        order = [e.path for e in entries]
        i = order.index(self.current) if self.current in order else 0
        self.request_switch(order[(i + step) % len(order)])

    def action_next_skill(self) -> None:
        self._step_skill(1)

    def action_prev_skill(self) -> None:
        self._step_skill(-1)

    def action_open_editor(self) -> None:
        finding = self.query_one(FindingsTable).current()
        if self.current is None:
            return
        rel = finding.path if finding is not None and finding.path else "SKILL.md"
        self.open_in_editor(self.current / rel, finding.line if finding is not None else None)

    def open_in_editor(self, path: Path, line: int | None) -> None:
        problem = run_editor(self.app, path, line)
        if problem is not None:
            self.notify(problem, title="Editor", severity="warning", timeout=6)
        elif self.current is not None:
            self.lint(self.current)
