"""One-key fixes in the Lint tab: `f` applies the highlighted finding's fix, `F` every safe
fix of the skill, `ctrl+z` puts the files back as they were before the last fix.

A mixin of WorkbenchScreen. The work is in the core (`linters.fixes` finds the fixes,
`skillforge.workspace.fixing` writes them atomically, `fix_undo` restores); this module
only calls it, tells the author what happened and re-lints (the watcher would too).
"""

from __future__ import annotations

from linters.fixes import fixes_for
from linters.fixes.apply import plan_fixes
from skillforge.models.findings import Finding
from skillforge.models.fixes import Fix
from skillforge.workspace.fix_undo import FixUndo, UndoRefused
from skillforge.workspace.fixing import FixWriteError, apply_fixes, fix_skill, write_plan
from widgets.findings_table import FindingsTable


class FixActions:
    """The Lint tab's fix keys; mixed into WorkbenchScreen."""

    @property
    def fix_undo(self) -> FixUndo:
        undo = self.__dict__.get("_fix_undo")
        if undo is None:
            undo = self.__dict__["_fix_undo"] = FixUndo()
        return undo

    def fix_preview(self, finding: Finding | None) -> tuple[Fix, str] | None:
        """The first fix of `finding` in the current lint, with its diff; None if none."""
        result = self.results.get(self.current) if self.current else None
        if finding is None or result is None:
            return None
        found = fixes_for(result.skill, [finding])
        fixes = next(iter(found.values()), [])
        for fix in fixes:
            plan = plan_fixes(result.skill, [fix])
            if plan.applied:
                return fix, plan.diff(context=1)  # the panel is short: the change first
        return None

    def action_fix_one(self) -> None:
        finding = self.query_one(FindingsTable).current()
        preview = self.fix_preview(finding)
        if preview is None or self.current is None:
            self.notify("No fix for this finding.", timeout=3)
            return
        fix, _diff = preview
        try:
            plan, record = apply_fixes(self.current, [fix], fix.title)
        except (FixWriteError, OSError) as exc:
            self.notify(str(exc), title="Not fixed", severity="warning", timeout=6)
            return
        if record is None:
            why = plan.refused[0][1] if plan.refused else "nothing to change"
            self.notify(why, title="Not fixed", severity="warning", timeout=6)
            return
        self.fix_undo.push(record)
        self.refresh_bindings()  # ctrl+z joins the footer
        self.notify(f"{fix.title} (ctrl+z undoes it)", title="Fixed", timeout=4)
        self.lint(self.current)

    def action_fix_all(self) -> None:
        if self.current is None:
            return
        settings, _err = self.ws.settings(self.current)
        outcome = fix_skill(self.current, settings.lint, unsafe=False)
        if not outcome.plan.changes:
            self.notify("No safe fix to apply.", timeout=3)
            return
        try:
            record = write_plan(self.current, outcome.plan, f"{len(outcome.applied)} safe fixes")
        except (FixWriteError, OSError) as exc:
            self.notify(str(exc), title="Not fixed", severity="warning", timeout=6)
            return
        self.fix_undo.push(record)
        self.refresh_bindings()  # ctrl+z joins the footer
        refused = f"; {len(outcome.refused)} refused" if outcome.refused else ""
        self.notify(f"{len(outcome.applied)} safe fixes applied{refused} (ctrl+z undoes them)",
                    title="Fixed", timeout=4)
        self.lint(self.current)

    def action_fix_undo(self) -> None:
        try:
            record = self.fix_undo.undo()
            self.refresh_bindings()
        except UndoRefused as exc:
            self.notify(str(exc), title="Not undone", severity="warning", timeout=6)
            return
        if record is None:
            self.notify("No fix to undo.", timeout=3)
            return
        self.notify(f"Undone: {record.title}", title="Undo", timeout=4)
        if self.current is not None:
            self.lint(self.current)
