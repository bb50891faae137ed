"""The Triggers view: the trigger set, per-query trigger rates and the description loop.

Renders data only (`show(queries, history, status)`); the screen runs the loop in a worker
and calls `show` again on every step, so the tables fill in live. Keys post messages:
**s** start (the first press prepares the loop and shows its trials and estimated cost, the
second starts it), **x** cancel, **a** accept the best description, **Enter** on a query that
failed to trigger opens its trajectory in Compare.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from skillforge.models.triggers import LoopHistory, Proportion, QueryResult, TriggerQuery


def _prop(p: Proportion | None) -> str:
    if p is None or p.value is None:
        return "-"
    return f"{p.value:.2f} [{p.ci_low:.2f},{p.ci_high:.2f}]"


def _rate(r: QueryResult | None) -> str:
    if r is None or r.rate is None:
        return "-"
    mark = "" if r.correct else " ✗"
    return f"{r.rate:.2f} ({r.triggered}/{r.runs}){mark}"


class TriggersView(Vertical, can_focus=False):
    HELP = """## Triggers
The skill's trigger queries (evals.json cases with `should_trigger`) and the description
loop (`skillforge optimize-description`): each query's trigger rate under the current and
the best description, and each iteration's train and test accuracy with 95% Wilson
intervals, filled in live while the loop runs. **s** prepares the loop and shows its trials
and estimated cost; **s** again starts it; **x** cancels. **a** writes the best description
into SKILL.md (only the description changes). **Enter** on a query opens a run of it that
did not trigger in Compare. **Ctrl+K** in the Evals tab drafts trigger queries.
"""
    DEFAULT_CSS = """
    TriggersView { height: 1fr; }
    TriggersView #triggers-head { height: auto; padding: 0 1; text-style: bold; }
    TriggersView #triggers-queries { height: 1fr; }
    TriggersView #triggers-iterations { height: auto; max-height: 10; }
    TriggersView #triggers-status { height: auto; padding: 0 1; color: $foreground-muted; }
    TriggersView #triggers-status.-warn { color: $text-warning; }
    """
    BINDINGS = [
        Binding("s", "start", "Start loop", id="triggers.start"),
        Binding("x", "cancel", "Cancel", id="triggers.cancel"),
        Binding("a", "accept", "Accept best", id="triggers.accept"),
        Binding("enter", "compare", "Compare", id="triggers.compare", show=False),
    ]

    class Start(Message):
        pass

    class Cancel(Message):
        pass

    class Accept(Message):
        pass

    class CompareQuery(Message):
        def __init__(self, run_id: str, case_id: str) -> None:
            super().__init__()
            self.run_id, self.case_id = run_id, case_id

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.history: LoopHistory | None = None
        self._untriggered: dict[str, tuple[str, str]] = {}

    def compose(self) -> ComposeResult:
        yield Static("", id="triggers-head")
        queries = DataTable(id="triggers-queries", cursor_type="row", zebra_stripes=True)
        queries.add_columns("query", "should", "split", "current", "best", "text")
        yield queries
        iters = DataTable(id="triggers-iterations", cursor_type="row")
        iters.add_columns("iter", "status", "train acc", "test acc", "description")
        yield iters
        yield Static("", id="triggers-status")

    def on_mount(self) -> None:
        self.query_one("#triggers-queries", DataTable).focus()

    def show(self, queries: Sequence[TriggerQuery], history: LoopHistory | None,
             status: str = "", warn: bool = False) -> None:
        self.history = history
        split = {}
        if history is not None:
            split = {q.id: "train" for q in history.train} | {q.id: "test" for q in history.test}
        pos = sum(1 for q in queries if q.should_trigger)
        head = f"{len(queries)} trigger queries ({pos} should trigger, {len(queries) - pos} not)"
        if history is not None:
            head += (f" · loop {history.loop_id} {history.status}, "
                     f"{len(history.attempts)} description(s) tried")
        self.query_one("#triggers-head", Static).update(Text(head))
        table = self.query_one("#triggers-queries", DataTable)
        row = table.cursor_row
        table.clear()
        self._untriggered = {}
        cur, best = (history.current, history.best or history.current) if history else (None,
                                                                                         None)
        for q in queries:
            where = split.get(q.id, "-")
            c = self._result(cur, where, q.id)
            b = self._result(best, where, q.id)
            for r in (c, b):
                if r is not None and r.run_id and r.untriggered_attempts and q.should_trigger:
                    self._untriggered.setdefault(q.id, (r.run_id, q.id))
            # Text, not str: a table cell's string is markup, and "[trial]" would vanish.
            table.add_row(Text(q.id), "yes" if q.should_trigger else "no", where, _rate(c),
                          _rate(b), Text(q.query), key=q.id)
        if row is not None and table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1))
        iters = self.query_one("#triggers-iterations", DataTable)
        iters.clear()
        for a in history.attempts if history else []:
            iters.add_row(str(a.iteration), a.status,
                          _prop(a.train.accuracy) if a.train else "-",
                          _prop(a.test.accuracy) if a.test else "-", Text(a.description))
        line = self.query_one("#triggers-status", Static)
        line.set_class(warn, "-warn")
        line.update(Text(status))  # the loop's errors name "[trial] image": not markup

    @staticmethod
    def _result(attempt, split: str, qid: str) -> QueryResult | None:
        score = getattr(attempt, split, None) if attempt is not None and split in (
            "train", "test") else None
        return score.query(qid) if score is not None else None

    def action_start(self) -> None:
        self.post_message(self.Start())

    def action_cancel(self) -> None:
        self.post_message(self.Cancel())

    def action_accept(self) -> None:
        self.post_message(self.Accept())

    def action_compare(self) -> None:
        table = self.query_one("#triggers-queries", DataTable)
        if not table.row_count:
            return
        qid = str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)
        hit = self._untriggered.get(qid)
        if hit is None:
            self.query_one("#triggers-status", Static).update(
                Text(f"{qid}: no run of it failed to trigger (Compare opens those)"))
            return
        self.post_message(self.CompareQuery(*hit))

    @on(DataTable.RowSelected, "#triggers-queries")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_compare()
