"""One trajectory as a scrollable list of steps, fast on thousands of steps.

A Line API widget (a ScrollView with `render_line`): the steps are laid out as rows of text
by `widgets.trajectory_layout` (collapsed steps cost a few rows each), and only the rows on
screen are ever built and drawn. Opening a trajectory only measures each step's height
(`step_height`: a header, a bounded wrap of the message, one row per call and result), so
opening and jumping to the end cost milliseconds, not seconds, on 5,000 steps.

Skill activations, skill-script runs and failed tool calls are badged and coloured
(which steps: `widgets.trajectory_marks`; the colours: `widgets.trajectory_theme`); each
step shows its token counts. Enter expands a step: its whole message, the tool calls'
arguments and the tool results.

Alignment mode (for a with/without side-by-side): `show(..., align_to=[step ids or None])`
shows those steps in that order, each in a slot of exactly `slot_rows` rows (None is an
empty slot), so two viewers given lists of the same length line up row for row.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from sessions.atif import Trajectory
from widgets import trajectory_theme as theme
from widgets.trajectory_draw import RowPainter
from widgets.trajectory_index import StepIndex
from widgets.trajectory_layout import HEADER, MORE, OBS, Row, StepMarks, TrajectoryFacts
from widgets.trajectory_marks import StepMarkBook
from widgets.words import counted

MARK_SLICE_S, MARK_GAP_S = 0.008, 0.02  # marking facts: work this long, then let the UI run


class TrajectoryView(ScrollView, can_focus=True):
    """The steps of one trajectory: messages, tool calls, collapsed results, highlights."""

    HELP = """## Trajectory
The steps of one agent run, in order. Each step shows who spoke (user, agent, system), its
token counts, the first lines of its message, every tool call in one line
(`bash: python3 /skills/x/scripts/y.py data.csv`) and a one-line preview of each result.

- **SKILL** badges mark skill activations (reading a skill's SKILL.md, or a Skill tool);
  **RUN** badges mark runs of a skill's scripts (✓ exited 0, ✗ failed); **ERROR** marks a
  failed tool call. The skill under test is in the accent colour, other skills are dimmer.
- **↑/↓** (or j/k) move between steps, **Enter**/**Space** (or a click) expands a step to
  show its whole message, the calls' arguments and the full results (side by side, in
  Compare, it opens the step whole in a window; Esc closes it); **c** collapses all.
- **]** / **[** jump to the next / previous highlighted step (activation, script run, error).
"""
    DEFAULT_CSS = theme.TRAJECTORY_CSS  # the row styles, by component class
    COMPONENT_CLASSES = theme.COMPONENT_CLASSES
    BINDINGS = [
        Binding("up,k", "cursor_up", "Previous step", id="trajectory.up", show=False),
        Binding("down,j", "cursor_down", "Next step", id="trajectory.down", show=False),
        Binding("pageup", "page_up", "Page up", id="trajectory.page_up", show=False),
        Binding("pagedown", "page_down", "Page down", id="trajectory.page_down", show=False),
        Binding("home", "first", "First step", id="trajectory.first", show=False),
        Binding("end", "last", "Last step", id="trajectory.last", show=False),
        Binding("enter,space", "toggle", "Open step", id="trajectory.toggle"),
        Binding("c", "collapse_all", "Collapse all", id="trajectory.collapse_all", show=False),
        Binding("right_square_bracket", "next_mark", "Highlight", id="trajectory.next_mark"),
        Binding("left_square_bracket", "prev_mark", "Previous highlight",
                id="trajectory.prev_mark", show=False),
    ]


    class StepSelected(Message):
        """The cursor moved onto a step (by key or click; not by `scroll_to_step`)."""

        def __init__(self, view: TrajectoryView, step_id: int) -> None:
            super().__init__()
            self.view = view
            self.step_id = step_id

        @property
        def control(self) -> TrajectoryView:
            return self.view

    class StepOpened(Message):
        """In alignment mode (a side-by-side), Enter, Space or a click asks to read a step
        whole; slots there have a fixed height, so the step is shown elsewhere."""

        def __init__(self, view: TrajectoryView, step_id: int) -> None:
            super().__init__()
            self.view = view
            self.step_id = step_id

        @property
        def control(self) -> TrajectoryView:
            return self.view

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Trajectory"
        self._index = StepIndex()
        self._highlight: str | None = None
        self._cursor = 0
        self._marks = StepMarkBook()
        self._facts_pending: Trajectory | None = None
        self._cache: LRUCache[tuple[int, bool], Strip] = LRUCache(2048)
        self._painter: RowPainter | None = None
        self.first_paint_done = False

    # --- public API -----------------------------------------------------------------------

    def show(self, trajectory: Trajectory | None, *, highlight_skill: str | None = None,
             facts: TrajectoryFacts | None = None, align_to: Sequence[int | None] | None = None,
             slot_rows: int = 4) -> None:
        """Show `trajectory` (None: nothing).

        `highlight_skill`: the skill under test (its badges in the accent colour).
        `facts`: the trajectory's facts if the caller has them; else the view gathers them
        in short slices after the first paint (steps on screen get theirs on demand).
        `align_to`: alignment mode, the step ids to show in order (None: an empty slot),
        each in a slot of `slot_rows` rows.
        """
        self._index = StepIndex(trajectory, align_to, slot_rows)
        self._highlight = highlight_skill
        self._painter = None
        self._marks.reset(self._index, facts)
        self._facts_pending = trajectory if facts is None else None
        self._cursor = 0
        self.first_paint_done = False
        self._measure()
        self.scroll_to(0, 0, animate=False, immediate=True, force=True)
        self._update_titles()

    @property
    def trajectory(self) -> Trajectory | None:
        return self._index.trajectory

    @property
    def facts_ready(self) -> bool:
        """True once the whole trajectory's facts are known (highlights on screen always are)."""
        return self._marks.complete

    @property
    def cursor_step_id(self) -> int | None:
        step = self._index.step_at(self._cursor)
        return step.step_id if step else None

    @property
    def expanded_step_ids(self) -> list[int]:
        return sorted(s.step_id for e in self._index.expanded if (s := self._index.step_at(e)))

    @property
    def row_count(self) -> int:
        return self._index.total

    def row_of(self, step_id: int) -> int | None:
        """The first row (from the top of the content) of a step, or None if not shown."""
        entry = self._index.entry_of.get(step_id)
        return self._index.starts[entry] if entry is not None else None

    def scroll_to_step(self, step_id: int, *, top: bool = True) -> bool:
        """Put the cursor on `step_id` and scroll it into view (to the top by default)."""
        entry = self._index.entry_of.get(step_id)
        if entry is None:
            return False
        self._cursor = entry
        if top:
            self.scroll_to(y=self._index.starts[entry], animate=False, immediate=True,
                           force=True)
        else:
            self._scroll_cursor_into_view()
        self.refresh()
        return True

    def step_ids_visible(self) -> list[int]:
        """Step ids with at least one row on screen, top to bottom."""
        top = round(self.scroll_y)
        bottom = min(top + self.scrollable_content_region.height, self._index.total)
        if top >= bottom:
            return []
        first, last = self._index.entry_at(top), self._index.entry_at(bottom - 1)
        return [s.step_id for e in range(first, last + 1) if (s := self._index.step_at(e))]

    def set_expanded(self, step_id: int, expanded: bool = True) -> None:
        """Expand (or collapse) one step; no effect in alignment mode."""
        entry = self._index.entry_of.get(step_id)
        if entry is not None and self._index.set_expanded(entry, expanded):
            self._relaid()

    def marks_for(self, step_id: int) -> StepMarks:
        """What is highlighted in a step (activations, script runs, errors)."""
        entry = self._index.entry_of.get(step_id)
        return self._marks.at(entry) if entry is not None else StepMarks()

    def rendered_text(self, step_id: int) -> str:
        """The plain text of a step's rows as drawn (for tests and copy)."""
        entry = self._index.entry_of.get(step_id)
        if entry is None:
            return ""
        width = self.scrollable_content_region.width or 80
        return "\n".join(self._paint(row, False, width).text.rstrip()
                         for row in self._index.rows(entry))

    # --- layout ---------------------------------------------------------------------------

    def _measure(self) -> None:
        width = self.scrollable_content_region.width
        if width > 0:
            self._index.measure(width - 1)  # the cursor gutter takes a column
        self._relaid()

    def _relaid(self) -> None:
        self._cache.clear()  # strips are cached by row index
        self.virtual_size = Size(self.scrollable_content_region.width, self._index.total)
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if width and width - 1 != self._index.width:
            self._measure()
            self._scroll_cursor_into_view()

    # --- facts ----------------------------------------------------------------------------

    def _start_facts(self, traj: Trajectory) -> None:
        """Mark every step in short slices on the UI thread, between frames and keys.

        Not a thread: a busy Python thread makes the UI thread wait for the interpreter
        lock after every bit of I/O, and a key press then takes a second (measured).
        """
        if traj is self.trajectory and not self._marks.complete:
            self._marks.restart()
            self._mark_more(traj)

    def _mark_more(self, traj: Trajectory) -> None:
        if traj is not self.trajectory or self._marks.complete:
            return  # another trajectory is shown now, or the caller gave the facts
        if not self._marks.mark_for(MARK_SLICE_S):
            self.set_timer(MARK_GAP_S, lambda: self._mark_more(traj))
            return
        self._update_titles()
        self.refresh()

    def _update_titles(self) -> None:
        traj = self.trajectory
        if traj is None:
            self.border_subtitle = ""
            return
        bits = [counted(len(traj.steps), "step"), *self._marks.summary()]
        totals = traj.totals()
        if totals.total_prompt_tokens is not None:
            bits.append(f"in {totals.total_prompt_tokens:,} · out "
                        f"{totals.total_completion_tokens or 0:,} tokens")
        self.border_subtitle = " · ".join(bits)

    # --- drawing --------------------------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._painter = None  # the theme changed: look the styles up again
        self._cache.clear()

    def _paint(self, row: Row, cursor: bool, width: int) -> Strip:
        if self._painter is None:
            self._painter = RowPainter(
                lambda name: self.get_component_rich_style(f"trajectory-view--{name}",
                                                           partial=True),
                self.rich_style, self._highlight)
        return self._painter.paint(row, self._index.step_at(row.entry),
                                   self._marks.at(row.entry), cursor=cursor,
                                   expanded=row.entry in self._index.expanded, width=width)

    def render_line(self, y: int) -> Strip:
        self.first_paint_done = True
        if self._facts_pending is not None:
            self.call_later(self._start_facts, self._facts_pending)
            self._facts_pending = None
        width = self.scrollable_content_region.width
        base = self.rich_style
        if self.trajectory is None:
            if y == 0:
                return Strip([Segment(" No trajectory to show.", base + Style(dim=True))]
                             ).adjust_cell_length(width, base)
            return Strip.blank(width, base)
        index = round(self.scroll_y) + y
        row = self._index.row_at(index)
        if row is None:
            return Strip.blank(width, base)
        cursor = row.entry == self._cursor
        key = (index, cursor)
        strip = self._cache.get(key)
        if strip is None or strip.cell_length != width:
            strip = self._paint(row, cursor, width)
            self._cache.discard(key)  # LRUCache.set keeps an existing value
            self._cache[key] = strip
        return strip

    # --- cursor and keys ------------------------------------------------------------------

    def _move(self, entry: int) -> None:
        if not len(self._index):
            return
        entry = max(0, min(entry, len(self._index) - 1))
        changed = entry != self._cursor
        self._cursor = entry
        self._scroll_cursor_into_view()
        self.refresh()
        step = self._index.step_at(entry)
        if changed and step is not None:
            self.post_message(self.StepSelected(self, step.step_id))

    def _scroll_cursor_into_view(self) -> None:
        if self._cursor >= len(self._index):
            return
        top, end = self._index.starts[self._cursor], self._index.starts[self._cursor + 1]
        height = max(1, self.scrollable_content_region.height)
        y = round(self.scroll_y)
        if top < y or end - top > height:
            self.scroll_to(y=top, animate=False, immediate=True, force=True)
        elif end > y + height:
            self.scroll_to(y=end - height, animate=False, immediate=True, force=True)

    def _page(self, direction: int) -> None:
        row = self._index.starts[self._cursor] + direction * self.scrollable_content_region.height
        self._move(self._index.entry_at(max(0, min(row, self._index.total - 1))))

    def action_cursor_up(self) -> None:
        self._move(self._cursor - 1)

    def action_cursor_down(self) -> None:
        self._move(self._cursor + 1)

    def action_page_up(self) -> None:
        self._page(-1)

    def action_page_down(self) -> None:
        self._page(1)

    def action_first(self) -> None:
        self._move(0)

    def action_last(self) -> None:
        self._move(len(self._index) - 1)

    def action_toggle(self) -> None:
        step = self._index.step_at(self._cursor)
        if step is None:
            return
        if self._index.aligned:
            self.post_message(self.StepOpened(self, step.step_id))
            return
        self.set_expanded(step.step_id, self._cursor not in self._index.expanded)
        self._scroll_cursor_into_view()

    def action_collapse_all(self) -> None:
        if self._index.collapse_all():
            self._relaid()
            self._scroll_cursor_into_view()

    def _jump(self, direction: int) -> None:
        entry = self._cursor + direction
        while 0 <= entry < len(self._index):
            if self._marks.at(entry).notable:
                self._move(entry)
                return
            entry += direction
        self.notify("No more skill activations, script runs or errors that way.", timeout=2)

    def action_next_mark(self) -> None:
        self._jump(1)

    def action_prev_mark(self) -> None:
        self._jump(-1)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        row = self._index.row_at(round(self.scroll_y) + offset.y) if offset else None
        if row is None:
            return
        self._move(row.entry)
        if self._index.aligned or row.kind in (HEADER, OBS, MORE):
            self.action_toggle()
