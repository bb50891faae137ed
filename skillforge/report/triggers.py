"""The "Trigger evaluation" section of a report: a trigger run's description loop.

A run labelled `trigger:<loop id>:iter<k>:<split>` belongs to a description-optimisation
loop (skillforge.authoring.describe_loop). `attach_triggers` reads the loop's history
(`<state dir>/triggers/<loop id>/loop.json`) and recomputes every score from the stored
trials of the loop's runs (skillforge.lift.triggers), so the report says what the store
holds; it goes to lift.json under `extra.triggers`. `markdown_lines` and `html_section`
render it: the trigger evaluation of the current and the best description (accuracy,
precision, recall with Wilson intervals, per-query rates), the per-iteration table, the
comparison with its noise warning, and the queries that flipped. Query texts and
descriptions are untrusted: each renderer escapes them with its own function.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from skillforge.lift.triggers import compare, flips, pick_best, score_trials
from skillforge.models.lift import LiftReport
from skillforge.models.trial import RunRecord, TrialRecord
from skillforge.models.triggers import (
    LoopHistory,
    Proportion,
    TriggerReport,
    TriggerScore,
    parse_run_label,
)

TITLE = "Trigger evaluation and description loop"
ITER_HEAD = ["iter", "status", "train accuracy", "test accuracy", "test precision",
             "test recall", "description"]
QUERY_HEAD = ["query", "split", "should trigger", "current rate", "best rate", "runs"]


def recompute(history: LoopHistory, trials_of: Callable[[str], list[TrialRecord]]) -> LoopHistory:
    """`history` with every score recomputed from the stored trials of its runs."""
    h = history.model_copy(deep=True)
    for a in h.attempts:
        if a.train_run:
            a.train = score_trials(h.train, trials_of(a.train_run),
                                   threshold=h.settings.threshold, run_id=a.train_run)
        if a.test_run:
            a.test = score_trials(h.test, trials_of(a.test_run),
                                  threshold=h.settings.threshold, run_id=a.test_run)
    current = h.attempt(0)
    if current is not None and current.test is not None and h.comparison is not None:
        k = pick_best(h.attempts)
        best = h.attempt(k) or current
        h.comparison = compare(current.test, best.test or current.test, k)
        h.flips = flips(current, best) if k else []
    return h


def trigger_report(state_dir: Path, record: RunRecord,
                   trials_of: Callable[[str], list[TrialRecord]]) -> TriggerReport | None:
    """The trigger section for a trigger run (None for any other run or a missing loop)."""
    parsed = parse_run_label(record.label)
    if parsed is None:
        return None
    loop_id, iteration, split = parsed
    path = Path(state_dir) / "triggers" / loop_id / "loop.json"
    try:
        history = LoopHistory.model_validate_json(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return TriggerReport(run_id=record.run_id, iteration=iteration, split=split,
                         loop=recompute(history, trials_of))


def attach_triggers(report: LiftReport, section: TriggerReport | None) -> LiftReport:
    if section is not None:
        report.extra.triggers = section
    return report


# --- text pieces shared by the renderers ---------------------------------------------------

def prop(p: Proportion | None) -> str:
    if p is None or p.value is None:
        return "-"
    return f"{p.value:.2f} [{p.ci_low:.2f}, {p.ci_high:.2f}] ({p.k}/{p.n})"


def rate(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}"


def intro(tr: TriggerReport) -> str:
    h = tr.loop
    s = h.settings
    return (f"Loop {h.loop_id} on {h.skill} ({h.status}): this run holds iteration "
            f"{tr.iteration}'s {tr.split} trials. {len(h.train)} training and {len(h.test)} "
            f"test queries (stratified holdout {s.holdout:g}, seed {s.seed}), {s.runs} run(s) "
            f"per query, the agent ({h.agent_model}) sees the skill among "
            f"{len(h.decoy_skills)} decoy skill(s) and stops after {s.max_turns} turn(s); a "
            "run counts as triggered when it reads the skill's SKILL.md or runs its script, a "
            f"query when its rate is at least {s.threshold:g}. Intervals are 95% Wilson "
            f"intervals over queries. Descriptions proposed by {h.proposer_model} from the "
            "training queries only.")


def score_line(name: str, score: TriggerScore | None) -> str:
    if score is None:
        return f"{name}: not run"
    return (f"{name}: accuracy {prop(score.accuracy)}, precision {prop(score.precision)}, "
            f"recall {prop(score.recall)}")


def iteration_rows(h: LoopHistory) -> list[list[str]]:
    rows = []
    for a in h.attempts:
        t = a.test
        rows.append([str(a.iteration), a.status, prop(a.train.accuracy) if a.train else "-",
                     prop(t.accuracy) if t else "-", prop(t.precision) if t else "-",
                     prop(t.recall) if t else "-", a.description])
    return rows


def query_rows(h: LoopHistory) -> list[list[str]]:
    cur, best = h.current, h.best or h.current
    rows = []
    for split in ("train", "test"):
        for q in (h.train if split == "train" else h.test):
            c = getattr(cur, split).query(q.id) if cur and getattr(cur, split) else None
            b = getattr(best, split).query(q.id) if best and getattr(best, split) else None
            rows.append([f"{q.id}: {q.query}", split, "yes" if q.should_trigger else "no",
                         rate(c.rate if c else None), rate(b.rate if b else None),
                         str(c.runs if c else 0)])
    return rows


def comparison_lines(h: LoopHistory) -> list[str]:
    comp = h.comparison
    if comp is None:
        return ["The loop has not finished: no best description yet."]
    lines = [f"Best description: iteration {comp.best_iteration} (highest test accuracy)."]
    if comp.best_iteration:
        ci = ("" if comp.ci_low is None else
              f", 95% CI [{comp.ci_low:+.3f}, {comp.ci_high:+.3f}]")
        lines.append(f"Test accuracy difference to the current description: "
                     f"{'-' if comp.diff is None else f'{comp.diff:+.3f}'}; paired per-query "
                     f"score difference {'-' if comp.score_diff is None else f'{comp.score_diff:+.3f}'}"
                     f"{ci} over {comp.n} queries: {comp.verdict}.")
    if comp.warning:
        lines.append(f"Warning: {comp.warning}.")
    if h.written_at is not None:
        lines.append(f"The author accepted it on {h.written_at:%Y-%m-%d %H:%M} UTC.")
    return lines


def flip_lines(h: LoopHistory) -> list[str]:
    return [f"[{f.split}] {f.id} ({'should' if f.should_trigger else 'should not'} trigger): "
            f"{rate(f.rate_before)} -> {rate(f.rate_after)}, "
            f"{'fixed' if f.now_correct else 'broken'}" for f in h.flips]


# --- renderers ------------------------------------------------------------------------------

def markdown_lines(report: LiftReport, md: Callable[[object], str],
                   table: Callable[[list[str], list[list[str]]], list[str]]) -> list[str]:
    tr = report.extra.triggers
    if tr is None:
        return []
    h = tr.loop
    lines = [f"## {TITLE}", "", md(intro(tr)), ""]
    cur, best = h.current, h.best
    lines += [f"- {md(score_line('Current description, test', cur.test if cur else None))}"]
    if best is not None and h.comparison and h.comparison.best_iteration:
        lines += [f"- {md(score_line('Best description, test', best.test))}"]
    lines += [""] + [md(x) for x in comparison_lines(h)] + [""]
    lines += ["### Iterations", ""] + table(ITER_HEAD, [[md(c) for c in r]
                                                       for r in iteration_rows(h)]) + [""]
    lines += ["### Per-query trigger rates", ""] + table(
        QUERY_HEAD, [[md(c) for c in r] for r in query_rows(h)]) + [""]
    if h.flips:
        lines += ["### Queries that flipped", ""] + [f"- {md(x)}" for x in flip_lines(h)] + [""]
    return lines


def html_section(report: LiftReport, e: Callable[[object], str],
                 table: Callable[..., str]) -> str:
    tr = report.extra.triggers
    if tr is None:
        return ""
    h = tr.loop
    cur, best = h.current, h.best
    scores = [score_line("Current description, test", cur.test if cur else None)]
    if best is not None and h.comparison and h.comparison.best_iteration:
        scores.append(score_line("Best description, test", best.test))
    iters = [f'<tr data-iteration="{r[0]}">' + "".join(
        f'<td class="{"text" if i in (1, 6) else ""}">{e(c)}</td>' for i, c in enumerate(r))
        + "</tr>" for r in iteration_rows(h)]
    queries = [f'<tr data-query="{e(r[0].split(":")[0])}">' + "".join(
        f'<td class="{"text" if i in (0, 1, 2) else ""}">{e(c)}</td>' for i, c in enumerate(r))
        + "</tr>" for r in query_rows(h)]
    flipped = "".join(f"<li>{e(x)}</li>" for x in flip_lines(h))
    return (f'<section id="triggers"><h2>{e(TITLE)}</h2><p class="muted">{e(intro(tr))}</p>'
            + "<ul>" + "".join(f"<li>{e(s)}</li>" for s in scores) + "</ul>"
            + "".join(f"<p>{e(x)}</p>" for x in comparison_lines(h))
            + "<h3>Iterations</h3>" + table(ITER_HEAD, iters, text_cols=(1, 6))
            + "<h3>Per-query trigger rates</h3>" + table(QUERY_HEAD, queries,
                                                         text_cols=(0, 1, 2))
            + (f"<h3>Queries that flipped</h3><ul>{flipped}</ul>" if flipped else "")
            + "</section>")
