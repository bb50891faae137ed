"""The rounds of a run that stopped when decided (`--until-decided`), for the Markdown and
HTML reports and the CLI: why it stopped, each round's anytime-valid interval, and the
Method paragraph that says why those intervals and not the fixed-n ones.

Pure functions over a `LiftReport` (its `extra.rounds`, skillforge.lift.rounds); nothing
here escapes text: the renderers pass their own escaping.
"""

from __future__ import annotations

from collections.abc import Callable

from skillforge.models.lift import LiftReport
from skillforge.models.rounds import RoundResult, RoundsRecord
from skillforge.report.facts import DASH, signed

TITLE = "Rounds (stopped when decided)"
HEAD = ["round", "trials", "overall", "anytime-valid 95% CI", "width", "grader CI",
        "pass: with only / without only", "E", "headline"]


def _ci(low: float | None, high: float | None) -> str:
    return DASH if low is None or high is None else f"[{signed(low)}, {signed(high)}]"


def cells(result: RoundResult) -> list[str]:
    head = result.headline
    grader = result.metrics.get("grader")
    p = result.pass_
    return [str(result.round), str(result.trials),
            DASH if head is None or head.lift is None else signed(head.lift),
            DASH if head is None else _ci(head.ci_low, head.ci_high),
            DASH if result.width is None else f"{result.width:.3f}",
            DASH if grader is None else _ci(grader.ci_low, grader.ci_high),
            DASH if p is None else f"{p.with_only} / {p.base_only}",
            DASH if p is None else f"{p.e_value:.3g}",
            result.verdict + (f" ({', '.join(result.by)})" if result.by else "")]


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def intro(record: RoundsRecord) -> str:
    return (f"{_upper(record.sentence())}. A round is one attempt of every case in each "
            f"condition; the run would have stopped once the headline was decided, or the "
            f"overall interval was narrower than {record.margin:g}, or after "
            f"{record.max_attempts} rounds. The verdicts above are those of the last round.")


def method_note(record: RoundsRecord) -> str:
    return (
        "Stopped when decided: this run looked at its lift after every round and could stop "
        "on any of them, so every interval and verdict of this report is anytime-valid: it "
        "holds at every round at once, not only at a number of cases fixed in advance (a "
        "fixed-n interval promises nothing across looks: the t interval looked at after each "
        "of 10 rounds gave a verdict at a true lift of 0 in 13.7-25.0% of simulated runs). "
        "Bounded metrics: a betting confidence sequence (Waudby-Smith and "
        "Ramdas), with one bet for every case of a round, fixed from the earlier rounds, "
        "so it is valid for the lift over these cases even when the cases differ; the "
        "reported interval is the intersection over the rounds. Pass/fail: a mixture "
        "sequential probability ratio test on the discordant pairs (E >= 20 decides), "
        "together with the pass-rate difference's sequence, as McNemar's test with Tango's "
        "interval at a fixed n. tests/lift/test_stopping_sim.py measures the rule on issue "
        "33's families: at a true lift of 0 a verdict came out at most 5% of the time. "
        f"{record.sentence()}.")


def markdown_lines(report: LiftReport, md: Callable[[object], str],
                   table: Callable[[list[str], list[list[str]]], list[str]]) -> list[str]:
    record = report.extra.rounds
    if record is None:
        return []
    return ([f"## {TITLE}", "", md(intro(record)), ""]
            + table(HEAD, [[md(c) for c in cells(r)] for r in record.rounds]) + [""])


def html_section(report: LiftReport, e: Callable[[object], str],
                 table: Callable[..., str]) -> str:
    record = report.extra.rounds
    if record is None:
        return ""
    rows = ['<tr data-round="{}">{}</tr>'.format(r.round, "".join(
        f'<td class="{"text" if i in (3, 5, 8) else ""}">{e(c)}</td>'
        for i, c in enumerate(cells(r)))) for r in record.rounds]
    return (f'<section id="rounds"><h2>{e(TITLE)}</h2><p>{e(intro(record))}</p>'
            f'{table(HEAD, rows, text_cols=(3, 5, 8))}</section>')
