"""The Lift tab's agreement view: do the judges agree with the author? (issue 19)

The configured judge models ranked as `skillforge judge --compare-judges` ranks them
(`skillforge.lift.calibration_rank.rank`): one line each with its mean weighted κ, mean
absolute error (0-1 scale) and labels, then per judge one row per metric or rubric criterion
with n labelled, MAE, bias (judge − author), Spearman ρ and weighted κ, each with its 95%
interval below it, the judge's self-consistency and its status under the skill's bar
(`[judge] calibration_kappa`, `calibration_min_labels`): "not calibrated" in red. Last, the
shown run's judged metrics: raw lift and, where an isotonic map lowered the held-out error,
the calibrated lift beside it (never one for the other).

The widget only renders a `SkillAgreement`; the workbench computes it in a worker and calls
`show`. Without a label it says, in one line, how to label.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from skillforge.lift.calibration_rank import SkillAgreement, is_configured
from skillforge.models.labels import JudgeAgreement
from skillforge.models.lift import LiftReport
from skillforge.report import calibration as C
from skillforge.report.facts import DASH, num, signed

STATUS_STYLE = {"calibrated": "green", C.NOT_CALIBRATED: "bold red",
                "too few labels": "yellow"}


def no_labels_line(key: Callable[[str, str], str] = lambda _id, default: default) -> str:
    """How to label, in one line (the keys as the author has them mapped)."""
    return ("No labels for this skill yet: run `skillforge label RUN_ID`, or label in the "
            f"Judge tab ({key('judge.label_accept', 'a')} accept, "
            f"{key('judge.label_override', 'o')} your score) and in Compare "
            f"({key('compare.label_confirm', 'y')} confirm, "
            f"{key('compare.label_correct', 'o')} correct).")


def _ci(ci: tuple[float, float] | None, sign: bool = False, compact: bool = False) -> str:
    """`[lo,hi]`; compact (narrow terminals) without leading zeros: `[.35,.49]`."""
    if ci is None:
        return ""
    f = signed if sign else num
    lo, hi = f(ci[0], 2), f(ci[1], 2)
    if compact:
        lo, hi = (v.replace("0.", ".", 1) if v.lstrip("+-").startswith("0.") else v
                  for v in (lo, hi))
    return f"[{lo},{hi}]"


def _two(value: str, ci: str) -> Text:
    """A value with its interval on the line below, dim."""
    out = Text(value)
    if ci:
        out.append("\n" + ci, style="dim")
    return out


def _self_consistency(row: JudgeAgreement, compact: bool) -> Text:
    sc = row.self_consistency
    if not sc.n_items:
        return Text("none" if compact else "no repeats", style="dim")
    return _two(f"|Δ| {num(sc.mean_abs_diff, 2)}", f"{sc.n_items} rep." if compact else
                f"{sc.n_items} repeated")


def ranking_lines(data: SkillAgreement) -> list[Text]:
    """One line per ranked judge, best first."""
    out = []
    for i, d in enumerate(data.ranking, 1):
        line = Text(f"{i}. ", style="bold")
        line.append(d["judge"], style="bold")
        line.append(f"  κ {num(d['mean_kappa'], 2)}  MAE {num(d['mean_mae'], 3)}  "
                    f"{d['labels']} labels")
        if is_configured(d["judge"], data.configured):
            line.append("  configured", style="cyan")
        if d["not_calibrated"]:
            line.append(f"  {C.NOT_CALIBRATED}: {', '.join(d['not_calibrated'])}",
                        style="bold red")
        out.append(line)
    return out


def rows_table(rows: list[JudgeAgreement], width: int) -> Table:
    """One row per metric or criterion of one judge, its intervals under the values; under
    110 cells the status goes under the metric, under 100 the intervals lose leading zeros."""
    wide, compact = width >= 110, width < 100
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0),
                  header_style="bold")
    heads = [("metric", "left"), ("n", "right"), ("MAE", "right"), ("bias", "right"),
             ("ρ", "right"), ("κ", "right"), ("self", "left")]
    if wide:
        heads += [("status", "left"), ("calibration map", "left")]
    for head, justify in heads:
        table.add_column(head, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for r in rows:
        status = Text(r.status, style=STATUS_STYLE.get(r.status, ""))
        metric = Text(r.metric)
        if not wide:
            metric.append("\n")
            metric.append_text(status)
        cells: list[RenderableType] = [
            metric, str(r.n), _two(num(r.mae, 2), _ci(r.mae_ci, compact=compact)),
            _two(signed(r.bias, 2), _ci(r.bias_ci, sign=True, compact=compact)),
            _two(num(r.rho, 2), _ci(r.rho_ci, compact=compact)),
            _two(num(r.kappa, 2), _ci(r.kappa_ci, compact=compact)),
            _self_consistency(r, compact)]
        if wide:
            cells += [status, Text(C.mapping_cell(r), style="dim", overflow="ellipsis")]
        table.add_row(*cells)
    return table


def lift_table(data: SkillAgreement) -> RenderableType:
    """The shown run's judged metrics: raw and calibrated lift side by side."""
    if not data.lift:
        return Text("The run shown has no judged metric with paired cases.", style="dim")
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0),
                  header_style="bold")
    for head, justify in (("metric", "left"), ("raw lift", "right"),
                          ("calibrated", "right"), ("status", "left")):
        table.add_column(head, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for p in data.lift:
        cal = p.calibrated
        calibrated = (_two(signed(cal.calibrated), _ci(cal.calibrated_ci, sign=True))
                      if cal is not None else Text("no map", style="dim"))
        status = p.status or "no labels"
        table.add_row(p.metric, _two(signed(p.raw), _ci(p.raw_ci, sign=True)), calibrated,
                      Text(status, style=STATUS_STYLE.get(status, "dim")))
    return table


class AgreementRequested(Message):
    """The agreement view opened for `report`'s run: the app computes a SkillAgreement in a
    worker and calls `AgreementView.show` (LiftView.show_agreement)."""

    def __init__(self, report: LiftReport | None) -> None:
        super().__init__()
        self.report = report


class AgreementView(VerticalScroll):
    """The judges ranked by agreement with the author's labels of this skill."""

    DEFAULT_CSS = """
    AgreementView { height: 1fr; padding: 0 1; }
    AgreementView > Static { height: auto; }
    AgreementView #agreement-ranking { margin-bottom: 1; }
    AgreementView .agreement-section { margin-top: 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.data: SkillAgreement | None = None
        self.requested = False  # the author opened the view (its tab shows from then on)
        self._message: Text | None = Text("No run chosen yet.", style="dim")

    def compose(self):
        yield Static(id="agreement-head")
        yield Static(id="agreement-ranking")
        yield Static(id="agreement-judges")
        yield Static(id="agreement-lift", classes="agreement-section")

    def on_mount(self) -> None:
        self._redraw()

    def on_resize(self) -> None:
        self._redraw()

    # --- what the app calls -------------------------------------------------------------

    def show(self, data: SkillAgreement | None) -> None:
        self.data, self._message = data, None
        self._redraw()

    def request(self, report: LiftReport | None) -> None:
        """Ask the app for the agreement of `report`'s skill (afresh: labels may have been
        added since); "computing" shows until it comes unless this run's is on screen."""
        self.requested = True
        if self.data is None or self.data.run_id != (report.run_id if report else None):
            self.show_message("Computing the judges' agreement with your labels…")
        self.post_message(AgreementRequested(report))

    def show_message(self, text: str, *, error: bool = False) -> None:
        self.data = None
        self._message = Text(text, style="bold red" if error else "yellow")
        self._redraw()

    @property
    def text(self) -> str:
        """Everything the view says, as plain text (tests and screen readers)."""
        console = Console(width=max(40, self.size.width or 100), record=True,
                          file=io.StringIO())
        for s in self.query(Static):
            console.print(s.content)
        return console.export_text()

    # --- rendering ----------------------------------------------------------------------

    def _key(self, binding_id: str, default: str) -> str:
        keymap = getattr(self.app, "_keymap", None) or {}
        return str(keymap.get(binding_id, default)).split(",")[0].strip()

    def _redraw(self) -> None:
        if not self.is_mounted:
            return
        head, ranking, judges, lift = (self.query_one(f"#agreement-{k}", Static)
                                       for k in ("head", "ranking", "judges", "lift"))
        data = self.data
        if data is None or not data.labels:
            msg = self._message or Text(no_labels_line(self._key), style="yellow")
            head.update(msg)
            for s in (ranking, judges, lift):
                s.update("")
            return
        bar = data.bar
        title = Text("Judges against the author", style="bold")
        title.append(f"  {data.skill or 'every skill'} · {data.labels} labelled judgments · "
                     f"bar: κ ≥ {bar.min_kappa:g} with ≥ {bar.min_labels} labels", style="dim")
        head.update(title)
        lines = ranking_lines(data)
        if not lines:
            lines = [Text("No judge model's judgment is labelled yet (only the grader's "
                          "pass): label accuracy, goal or behaviour in Compare.", style="dim")]
        if data.unlabelled_configured:
            lines.append(Text("configured, nothing of theirs labelled: "
                              + ", ".join(data.unlabelled_configured)
                              + " (`skillforge judge --compare-judges` has them judge)",
                              style="dim"))
        ranking.update(Group(Text("Ranked by mean weighted κ, then MAE (0-1 scale)",
                                  style="bold"), *lines))
        width = self.size.width or 100
        parts: list[RenderableType] = []
        for i, d in enumerate(data.ranking, 1):
            parts += [Text(f"{i}. {d['judge']}", style="bold"),
                      rows_table(data.rows_of(d["judge"]), width), Text("")]
        if data.grader_rows:
            parts += [Text("The grader's pass (not a judge; not ranked)", style="bold"),
                      rows_table(data.grader_rows, width)]
        judges.update(Group(*parts))
        lift.update(Group(Text(f"Raw and calibrated lift (run {data.run_id or DASH})",
                               style="bold"), lift_table(data)))
