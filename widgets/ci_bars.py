"""Confidence-interval bars in the terminal, and the lift table that carries them.

A bar is drawn on a scale shared by every row (`skillforge.report.facts.lift_scale`, the
same nice bounds the HTML and Markdown reports use): a zero line `│`, the 95% interval as
`━`, the lift as `●`, coloured by the verdict (helps green, hurts red, inconclusive
yellow). A value past the scale is clamped to the edge and drawn `◀`/`▶`.

`MetricTable` renders one lift report's metric rows (with, base, lift, CI, bar, positive
share, n, verdict, plan) or a run comparison's rows (lift A, lift B, change, CI of the
change), and drops columns when narrow so the bar never gets too short to read.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.widget import Widget

from skillforge.models.lift import (
    LiftReport,
    MetricLift,
    RunComparison,
    SamplePlan,
    WithheldVerdict,
)
from skillforge.report import facts as F
from skillforge.report.calibration import mark

VERDICT_STYLE = {"helps": "bold green", "hurts": "bold red", "inconclusive": "yellow"}
VERDICT_MARK = F.VERDICT_MARK
MIN_BAR, MAX_BAR = 15, 41


@dataclass(frozen=True)
class BarCells:
    """Where each part of a bar falls, as cell indexes in [0, width)."""

    width: int
    zero: int
    marker: int | None
    low: int | None
    high: int | None
    clipped_low: bool = False
    clipped_high: bool = False


def bar_cells(lift: float | None, low: float | None, high: float | None, scale: float,
              width: int) -> BarCells:
    """The cells of a bar for `lift` in [low, high] on [-scale, +scale] over `width` cells."""
    width = max(3, width | 1)  # odd, so zero has a cell of its own in the middle
    scale = scale if scale > 0 else 1.0

    def pos(v: float) -> int:
        return max(0, min(width - 1, round((v + scale) / (2 * scale) * (width - 1))))

    has_ci = low is not None and high is not None
    return BarCells(
        width=width, zero=pos(0.0), marker=None if lift is None else pos(lift),
        low=pos(low) if has_ci else None, high=pos(high) if has_ci else None,  # type: ignore[arg-type]
        clipped_low=has_ci and low < -scale,  # type: ignore[operator]
        clipped_high=has_ci and high > scale,  # type: ignore[operator]
    )


def ci_bar(lift: float | None, low: float | None, high: float | None, scale: float,
           width: int, verdict: str | None = "inconclusive") -> Text:
    """The bar as styled text (see the module docstring for the glyphs)."""
    cells = bar_cells(lift, low, high, scale, width)
    style = VERDICT_STYLE.get(verdict or "", "cyan")
    chars = ["·"] * cells.width
    styles = ["dim"] * cells.width
    chars[cells.zero], styles[cells.zero] = "│", "bold"
    if cells.low is not None and cells.high is not None:
        for i in range(cells.low, cells.high + 1):
            chars[i] = "┿" if i == cells.zero else "━"
            styles[i] = style
        if cells.clipped_low:
            chars[cells.low] = "◀"
        if cells.clipped_high:
            chars[cells.high] = "▶"
    if cells.marker is not None:
        chars[cells.marker], styles[cells.marker] = "●", style
    text = Text()
    for ch, st in zip(chars, styles, strict=True):
        text.append(ch, st)
    return text


def scale_axis(scale: float, width: int) -> Text:
    """`-0.5      0      +0.5`: the bar column's header."""
    width = max(3, width | 1)
    left, right = f"-{scale:g}", f"+{scale:g}"
    mid = width // 2
    line = [" "] * width
    line[mid] = "0"
    for i, ch in enumerate(left[: max(0, mid - 1)]):
        line[i] = ch
    for i, ch in enumerate(right[-max(0, mid - 1):]):
        line[width - len(right[-max(0, mid - 1):]) + i] = ch
    return Text("".join(line), style="dim")


def withheld_cell(withheld: WithheldVerdict) -> str:
    """A verdict withheld by rule, in a few characters: `n<5 ~42`, `0-width CI`, `no CI`."""
    if withheld.reason == "too few cases":
        needed = f" ~{withheld.cases_needed}" if withheld.cases_needed else ""
        return f"n<{withheld.min_cases}{needed}"
    return "0-width CI" if withheld.reason == "zero-width interval" else "no CI"


def plan_cell(plan: SamplePlan | None) -> str:
    """The planner's advice in a few characters: `~42 cases`, `n<2`, `±0.03 ok`."""
    if plan is None:
        return ""
    if plan.cases_needed is None:
        return "n<2" if plan.sd is None else "too noisy"
    if plan.half_width is not None and plan.half_width <= plan.target_half_width:
        return "effect tiny"
    return f"~{plan.cases_needed} cases"


def dimensions_table(report: LiftReport, bar_width: int, width: int | None = None) -> Table:
    """The stakeholder dimensions: mean lift of their metrics, as a marker on the scale.
    In `width` cells the list of metrics wraps; the name, the lift and the bar keep theirs
    (left to Rich, a long list squeezed them to "li…" and "Discoverabi…", issue 37)."""
    rows = F.dimension_rows(report)
    name_width = max([len("dimension"), *(len(name) for name, _v, _m in rows)])
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0),
                  header_style="bold", title_justify="left")
    table.add_column("dimension", no_wrap=True, width=name_width)
    table.add_column("lift", justify="right", width=6)
    table.add_column("", width=bar_width, no_wrap=True)
    rest = None if width is None else max(12, width - name_width - 6 - bar_width - 3)
    table.add_column("metrics", style="dim", overflow="fold", max_width=rest)
    scale = min(1.0, F.nice_scale(list(report.extra.dimensions.values())))
    for name, value, metrics in rows:
        sign = "helps" if (value or 0) > 0 else "hurts" if (value or 0) < 0 else "inconclusive"
        table.add_row(name, Text(F.signed(value), style=VERDICT_STYLE[sign]),
                      ci_bar(value, None, None, scale, bar_width, sign), metrics)
    return table


# Columns in display order; "bar" is always shown. Optional ones go first when narrow.
REPORT_COLUMNS = ("metric", "with", "base", "lift", "ci", "bar", "pos", "n", "verdict", "plan")
COMPARISON_COLUMNS = ("metric", "lift_a", "lift_b", "change", "ci", "bar", "n", "verdict")
_OPTIONAL = ("with", "base", "lift_a", "lift_b", "plan", "pos", "ci", "n")
_WIDTHS = {"metric": 16, "with": 5, "base": 5, "lift": 6, "lift_a": 6, "lift_b": 6,
           "change": 6, "ci": 16, "pos": 4, "n": 3, "verdict": 14, "plan": 10}
_HEADS = {"pos": "pos%", "ci": "95% CI", "lift_a": "lift A", "lift_b": "lift B"}
_LEFT = ("metric", "ci", "verdict", "plan")


def choose_columns(width: int, wanted: tuple[str, ...]) -> tuple[list[str], int]:
    """The columns that fit in `width` cells, and the width left for the bar."""
    cols = list(wanted)

    def bar_room(cs: list[str]) -> int:
        return width - sum(_WIDTHS[c] + 1 for c in cs if c != "bar") - 1

    for optional in _OPTIONAL:
        if bar_room(cols) >= MIN_BAR + 4:
            break
        if optional in cols:
            cols.remove(optional)
    bar = max(MIN_BAR, min(MAX_BAR, bar_room(cols)))
    return cols, bar if bar % 2 else bar - 1  # odd: zero gets the middle cell


def _verdict_word(verdict: str, comparison: bool) -> str:
    if comparison:
        verdict = {"helps": "better", "hurts": "worse"}.get(verdict, verdict)
    return verdict


class MetricTable(Widget):
    """The per-metric lift table with CI bars, or a run comparison's change table."""

    DEFAULT_CSS = """
    MetricTable { height: auto; width: 1fr; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.report: LiftReport | None = None
        self.comparison: RunComparison | None = None

    def show(self, report: LiftReport | None) -> None:
        """Show a report's metric rows (and leave comparison mode)."""
        self.report, self.comparison = report, None
        self.refresh(layout=True)

    def show_comparison(self, comparison: RunComparison | None) -> None:
        """Show the change of lift between two runs, metric by metric."""
        self.comparison = comparison
        self.refresh(layout=True)

    @property
    def columns(self) -> list[str]:
        """The columns shown at the current width."""
        return self._layout()[0]

    def _layout(self) -> tuple[list[str], int]:
        wanted = COMPARISON_COLUMNS if self.comparison is not None else REPORT_COLUMNS
        # A "(not calibrated)" mark widens the metric column: other columns make room.
        marked = [len(m) + len(mark(self.report, m)) for m, *_ in self._rows()
                  if self.comparison is None and mark(self.report, m)]
        wider = max(0, max(marked, default=0) - _WIDTHS["metric"])
        return choose_columns((self.size.width or 100) - wider, wanted)

    def _rows(self) -> list[tuple[str, float | None, float | None, float | None, str]]:
        """(metric, value on the bar, CI low, CI high, verdict) in display order."""
        if self.comparison is not None:
            return [(m, r.change, r.ci_low, r.ci_high, r.verdict or "inconclusive")
                    for m, r in self.comparison.metrics.items()]
        if self.report is None:
            return []
        return [(m, r.lift, r.ci_low, r.ci_high, r.verdict)
                for m in F.metric_names(self.report) if (r := self.report.metrics[m])]

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self._rows()) + 1

    def scale(self) -> float:
        """The bar scale: one nice bound covering every value and interval shown."""
        vals: list[float | None] = []
        for _, v, lo, hi, _ in self._rows():
            vals += [v, lo, hi]
        # Scores lie in [0, 1], so a lift in [-1, 1] and a change of lift in [-2, 2]; a
        # t interval can reach past that, and is clipped rather than squeezing every bar.
        return min(F.nice_scale(vals), 2.0 if self.comparison is not None else 1.0)

    def bar_text(self, metric: str) -> str:
        """The plain text of one metric's bar as drawn now (for tests)."""
        _, width = self._layout()
        for name, v, lo, hi, verdict in self._rows():
            if name == metric:
                return ci_bar(v, lo, hi, self.scale(), width, verdict).plain
        raise KeyError(metric)

    def render(self) -> RenderableType:
        rows = self._rows()
        if not rows:
            return Text("No metric has a paired case yet.", style="dim")
        cols, bar = self._layout()
        scale = self.scale()
        table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0),
                      header_style="bold", expand=False)
        for c in cols:
            if c == "bar":
                table.add_column(scale_axis(scale, bar), no_wrap=True, width=bar)
            else:
                table.add_column(_HEADS.get(c, c), justify="left" if c in _LEFT else "right",
                                 no_wrap=True, width=None if c == "metric" else _WIDTHS[c])
        for name, value, low, high, verdict in rows:
            cells = self._cells(name, verdict)
            cells["bar"] = ci_bar(value, low, high, scale, bar, verdict)
            table.add_row(*(cells[c] for c in cols))
        return table

    def _cells(self, name: str, verdict: str) -> dict[str, RenderableType]:
        style = VERDICT_STYLE[verdict]
        comparing = self.comparison is not None
        out: dict[str, RenderableType] = {
            "metric": Text(name, style="bold" if name == "overall" else ""),
            "verdict": Text(f"{VERDICT_MARK[verdict]} {_verdict_word(verdict, comparing)}",
                            style=style),
        }
        if comparing:
            row = self.comparison.metrics[name]  # type: ignore[union-attr]
            out |= {
                "lift_a": F.signed(row.lift_a), "lift_b": F.signed(row.lift_b),
                "change": Text(F.signed(row.change), style=style),
                "ci": F.DASH if row.ci_low is None else
                f"[{F.signed(row.ci_low)}, {F.signed(row.ci_high)}]",
                "n": F.DASH if row.n_common is None else str(row.n_common),
            }
            return out
        report = self.report
        assert report is not None
        m: MetricLift = report.metrics[name]
        if mark(report, name):  # its judges disagree with the author's labels (issue 19)
            out["metric"].append(mark(report, name), style="bold red")  # type: ignore[union-attr]
        plan = report.extra.plans.get(name)
        out |= {
            "with": F.num(m.with_, 2), "base": F.num(m.base, 2),
            "lift": Text(F.signed(m.lift), style=style),
            "ci": Text(F.ci_text(m), style="dim" if m.ci_low is None else ""),
            "pos": F.pct(m.positive_share), "n": str(m.n),
            "plan": Text(withheld_cell(report.extra.withheld[name])
                         if name in report.extra.withheld else
                         plan_cell(plan) if verdict == "inconclusive" else "", style="dim"),
        }
        return out
