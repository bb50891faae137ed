"""Findings as a table: sortable, and filterable by category, severity and file."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import DataTable

from skillforge.models.findings import Category, Finding, Severity

SEVERITY_STYLE = {
    Severity.critical: "bold white on red",
    Severity.error: "bold red",
    Severity.high: "red",
    Severity.warning: "yellow",
    Severity.medium: "yellow",
    Severity.low: "cyan",
    Severity.info: "blue",
}
_ERROR_PLUS = {Severity.critical, Severity.error, Severity.high}
_WARNING_PLUS = _ERROR_PLUS | {Severity.warning, Severity.medium}
SORTS = ("severity", "rule", "location")
CATEGORIES = (None, *[c.value for c in Category])
SEVERITY_FILTERS = (None, "error+", "warning+", "security")


def _shorten(text: str, width: int) -> str:
    """Keep the end of a long path (the file name and line matter most)."""
    return text if len(text) <= width else "…" + text[-(width - 1) :]


class FindingsTable(DataTable):
    """Severity, rule, file:line and message of every finding of the current skill."""

    HELP = """## Findings
Every finding of the skill. **s** cycles the sort (severity, rule, location), **c** cycles
the category filter, **v** the severity filter (errors and worse, warnings and worse,
security only). Moving the cursor shows the rule's explanation and the file around the line
below; **e** opens your `$EDITOR` at that line.
"""
    DEFAULT_CSS = """
    FindingsTable { height: 1fr; border: round $panel; }
    FindingsTable:focus { border: round $accent; }
    """
    BINDINGS = [
        Binding("s", "cycle_sort", "Sort", id="findings.sort"),
        Binding("c", "cycle_category", "Category", id="findings.category"),
        Binding("v", "cycle_severity", "Severity", id="findings.severity"),
    ]

    class Highlighted(Message):
        def __init__(self, finding: Finding | None) -> None:
            super().__init__()
            self.finding = finding

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self._all: list[Finding] = []
        self._filled = False  # rows made at least once
        self._shown: list[Finding] = []
        self.sort_by = "severity"
        self.category: str | None = None
        self.severity_filter: str | None = None
        self.file: str | None = None

    FIXED = {"sev": 8, "rule": 10, "where": 18}

    def on_mount(self) -> None:
        for key, width in self.FIXED.items():
            self.add_column(key, key=key, width=width)
        self.add_column("message", key="message", width=self._message_width())
        self._update_title()

    def _message_width(self) -> int:
        # The message takes what the fixed columns leave (cell padding 2 each, scrollbar 2).
        used = sum(self.FIXED.values()) + 2 * (len(self.FIXED) + 1) + 2
        return max(20, self.scrollable_content_region.width - used)

    def on_resize(self) -> None:
        column = self.columns.get("message")  # type: ignore[call-overload]
        if column is not None and column.width != self._message_width():
            column.width = self._message_width()
            self._clear_caches()
            self._require_update_dimensions = True
            self.refresh()

    # --- data ---------------------------------------------------------------------------

    def show(self, findings: list[Finding]) -> None:
        if self._filled and findings == self._all and self.row_count == len(self._shown):
            # The same findings (a save that changed none, the scripts' pass adding none):
            # the rows stay, cursor and all; the detail still hears which one is current,
            # since the text around it may have changed.
            self.post_message(self.Highlighted(self.current()))
            return
        self._all = list(findings)
        self._refresh_rows()

    @property
    def shown(self) -> list[Finding]:
        return list(self._shown)

    def current(self) -> Finding | None:
        if not self._shown or self.cursor_row < 0 or self.cursor_row >= len(self._shown):
            return None
        return self._shown[self.cursor_row]

    def _keep(self, f: Finding) -> bool:
        if self.category and f.category.value != self.category:
            return False
        if self.file is not None and (f.path or "") != self.file:
            return False
        sf = self.severity_filter
        if sf == "error+":
            return f.severity in _ERROR_PLUS
        if sf == "warning+":
            return f.severity in _WARNING_PLUS
        if sf == "security":
            return f.category == Category.security
        return True

    def _sorted(self, items: list[Finding]) -> list[Finding]:
        if self.sort_by == "rule":
            return sorted(items, key=lambda f: (f.rule, f.code or "", f.sort_key()))
        if self.sort_by == "location":
            return sorted(items, key=Finding.sort_key)
        return sorted(items, key=lambda f: (-f.severity.rank, f.sort_key()))

    def _refresh_rows(self) -> None:
        previous = self.current()
        self._filled = True
        self._shown = self._sorted([f for f in self._all if self._keep(f)])
        self.clear()
        for i, f in enumerate(self._shown):
            where = _shorten((f.path or "(skill)") + (f":{f.line}" if f.line else ""), self.FIXED["where"])
            rule = f.rule + (f" {f.code}" if f.code else "")
            self.add_row(Text(f.severity.value, style=SEVERITY_STYLE[f.severity]), rule, where,
                         Text(f.message, overflow="ellipsis", no_wrap=True), key=str(i))
        self._update_title()
        if previous is not None and previous in self._shown:
            self.move_cursor(row=self._shown.index(previous))
        self.post_message(self.Highlighted(self.current()))

    def _update_title(self) -> None:
        bits = [f"{len(self._shown)}/{len(self._all)} findings", f"sort: {self.sort_by}"]
        if self.category:
            bits.append(f"category: {self.category}")
        if self.severity_filter:
            bits.append(f"severity: {self.severity_filter}")
        if self.file is not None:
            bits.append(f"file: {self.file or '(skill)'}")
        self.border_title = "Findings"
        self.border_subtitle = " · ".join(bits)

    # --- actions ------------------------------------------------------------------------

    def action_cycle_sort(self) -> None:
        self.sort_by = SORTS[(SORTS.index(self.sort_by) + 1) % len(SORTS)]
        self._refresh_rows()

    def action_cycle_category(self) -> None:
        self.category = CATEGORIES[(CATEGORIES.index(self.category) + 1) % len(CATEGORIES)]
        self._refresh_rows()

    def action_cycle_severity(self) -> None:
        i = SEVERITY_FILTERS.index(self.severity_filter)
        self.severity_filter = SEVERITY_FILTERS[(i + 1) % len(SEVERITY_FILTERS)]
        self._refresh_rows()

    def filter_file(self, path: str | None) -> None:
        self.file = path
        self._refresh_rows()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(self.Highlighted(self.current()))
