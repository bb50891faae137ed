"""The rounds of a run that stops when decided: trial records in, a `RoundsRecord` out.

A round is attempt r of every case in each of the two compared conditions. After round r
the headline metrics (`overall`, and the grader when graded) get their anytime-valid
interval over every paired (case, attempt) value of rounds 1..r (skillforge.lift.sequential:
the round-wise betting confidence sequence, running intersection), the paired pass/fail
outcomes the sequential test on their discordant pairs, and the headline its verdict from
these, by the same rule a fixed-n report uses (skillforge.lift.compute.headline_verdict).

The stopping rule (`stop_reason`): the headline is decided (helps or hurts), or the
headline metric's interval is narrower than the margin, or the attempts ran out. The runner
(skillforge.trials.rounds) applies it after each round; a report of such a run recomputes
the same rounds from the stored trials (pure and deterministic, so it agrees with what the
run printed) and reports the last round's intervals and verdicts (`apply_rounds`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from skillforge.lift.cases import group_cases, select_trials, trial_passes, trial_value
from skillforge.lift.errors import error_summary
from skillforge.lift.stats import CONFIDENCE, MIN_VERDICT_CASES, is_negative, is_positive, mean
from skillforge.models.lift import LiftReport, MetricLift
from skillforge.models.rounds import (
    MetricSequence,
    PassSequence,
    RoundResult,
    RoundsRecord,
    StopReason,
)
from skillforge.models.trial import RunRecord, TrialRecord
from skillforge.models.verdicts import PassTest, Verdict

CONDITIONS = ("with_skill", "baseline")
HEADLINE = "overall"


def _verdict(low: float, high: float, n: int) -> Verdict:
    if n < MIN_VERDICT_CASES:
        return "inconclusive"
    return "helps" if is_positive(low) else "hurts" if is_negative(high) else "inconclusive"


def _by_attempt(side: Sequence[TrialRecord]) -> dict[int, TrialRecord]:
    return {t.attempt: t for t in side}


def _metric(table: list[list[float | None]], horizon: int,
            confidence: float) -> list[MetricSequence]:
    from skillforge.lift.sequential import sequence_interval

    out = []
    bounds = sequence_interval(table, horizon, confidence=confidence)
    values: list[float] = []
    for row, (low, high) in zip(table, bounds):
        values += [v for v in row if v is not None]
        out.append(MetricSequence(lift=mean(values), ci_low=low, ci_high=high, n=len(values),
                                  verdict=_verdict(low, high, len(values))))
    return out


def _pass(flags: list[list[tuple[bool, bool] | None]], horizon: int,
          confidence: float) -> list[PassSequence]:
    from skillforge.lift.sequential import discordant_decision, e_value, sequence_interval

    table = [[None if f is None else float(f[0]) - float(f[1]) for f in row] for row in flags]
    bounds = sequence_interval(table, horizon, confidence=confidence)
    out, w, b, n = [], 0, 0, 0
    for row, (low, high) in zip(flags, bounds):
        w += sum(1 for f in row if f is not None and f[0] and not f[1])
        b += sum(1 for f in row if f is not None and f[1] and not f[0])
        n += sum(1 for f in row if f is not None)
        test = int(discordant_decision(w, b, confidence))
        interval = _verdict(low, high, n)
        verdict: Verdict = interval if (test, interval) in ((1, "helps"), (-1, "hurts")) \
            else "inconclusive"
        out.append(PassSequence(with_only=w, base_only=b, e_value=e_value(w, b),
                                ci_low=low, ci_high=high, verdict=verdict))
    return out


def round_results(trials: Iterable[TrialRecord], max_attempts: int, *,
                  case_ids: Sequence[str] | None = None, pass_threshold: float = 0.6,
                  confidence: float = CONFIDENCE,
                  conditions: tuple[str, str] = CONDITIONS) -> list[RoundResult]:
    """The state after each round present in the trials (round r = attempt r) of a run
    planned for at most `max_attempts` rounds (the bets depend on it)."""
    from skillforge.lift.compute import headline_verdict

    selected = select_trials(trials, conditions)
    cases = group_cases(selected, conditions, case_ids)
    rounds = max((t.attempt for t in selected), default=0)
    horizon = max(max_attempts, rounds)
    names = [HEADLINE] + (["grader"] if any(trial_value(t, "grader") is not None
                                             for t in selected if not t.excluded) else [])
    sides = [(_by_attempt(c.with_), _by_attempt(c.base)) for c in cases]
    series = {}
    for name in names:
        table = []
        for r in range(1, rounds + 1):
            row: list[float | None] = []
            for w, b in sides:
                vw = trial_value(w[r], name) if r in w else None
                vb = trial_value(b[r], name) if r in b else None
                row.append(None if vw is None or vb is None else vw - vb)
            table.append(row)
        series[name] = _metric(table, horizon, confidence)
    flags = [[(trial_passes(w[r], c.graded, pass_threshold),
               trial_passes(b[r], c.graded, pass_threshold)) if r in w and r in b else None
              for c, (w, b) in zip(cases, sides)] for r in range(1, rounds + 1)]
    passes = _pass(flags, horizon, confidence)
    out = []
    for r in range(1, rounds + 1):
        rows = {m: MetricLift(verdict=series[m][r - 1].verdict) for m in names}
        errors = error_summary([t for t in selected if t.attempt <= r], conditions)
        pass_r = passes[r - 1]
        if errors.one_sided:  # as at a fixed n: no "helps" while errors fall on one side
            for row in [*rows.values(), pass_r]:
                if row.verdict == "helps":
                    row.verdict = "inconclusive"
        head = headline_verdict(rows, PassTest(verdict=pass_r.verdict))
        metrics = {m: series[m][r - 1].model_copy(update={"verdict": rows[m].verdict})
                   for m in names}
        top = metrics[HEADLINE]
        width = None if top.ci_low is None or top.ci_high is None else top.ci_high - top.ci_low
        out.append(RoundResult(round=r, trials=sum(1 for t in selected if t.attempt <= r),
                               metric=HEADLINE, metrics=metrics, pass_=pass_r,
                               verdict=head.verdict, by=head.by, width=width))
    return out


def stop_reason(result: RoundResult, margin: float, max_attempts: int) -> StopReason | None:
    """Why the run stops after this round, or None to go on."""
    if result.verdict in ("helps", "hurts"):
        return "decided helps" if result.verdict == "helps" else "decided hurts"
    if result.width is not None and result.width < margin:
        return "interval narrower than the margin"
    if result.round >= max_attempts:
        return "max attempts reached"
    return None


def rounds_record(run: RunRecord, trials: Iterable[TrialRecord]) -> RoundsRecord | None:
    """The rounds of a stored --until-decided run (None for any other run), with the reason
    it stopped as the rule gives it from its trials (cancelled / failed runs say so)."""
    from skillforge.lift.sequential import INTERVAL_NAME, TEST_NAME

    spec = run.spec
    if spec is None or not spec.until_decided:
        return None
    results = round_results(trials, spec.attempts, case_ids=spec.case_ids or None,
                            pass_threshold=spec.pass_threshold)
    record = RoundsRecord(margin=spec.margin, max_attempts=spec.attempts, rounds=results,
                          method=f"{INTERVAL_NAME}; pass/fail: {TEST_NAME}")
    last = results[-1] if results else None
    reason = stop_reason(last, spec.margin, spec.attempts) if last is not None else None
    if reason is None and run.status in ("cancelled", "failed", "stopped"):
        reason = "the cost cap" if run.status == "stopped" else run.status  # type: ignore
    if reason is not None:
        record.reason, record.stopped_at = reason, last.round if last else 0
    return record


def apply_rounds(report: LiftReport, record: RoundsRecord) -> LiftReport:
    """The report of an --until-decided run: the last round's anytime-valid intervals and
    verdicts replace the fixed-n ones of the headline metrics and the pass test, and the
    headline is decided from them; `extra.rounds` keeps every round."""
    from skillforge.lift.compute import headline_verdict
    from skillforge.lift.sequential import INTERVAL_NAME, TEST_NAME

    report.extra.rounds = record
    if not record.rounds:
        return report
    last = record.rounds[-1]
    for name, seq in last.metrics.items():
        row = report.metrics.get(name)
        if row is None:
            continue
        row.ci_low, row.ci_high, row.verdict = seq.ci_low, seq.ci_high, seq.verdict
        report.extra.withheld.pop(name, None)
        report.extra.plans.pop(name, None)
    test = report.extra.pass_test
    if test is not None and last.pass_ is not None:
        test.ci_low, test.ci_high = last.pass_.ci_low, last.pass_.ci_high
        test.verdict, test.interval, test.test = last.pass_.verdict, INTERVAL_NAME, TEST_NAME
        test.p_value = None  # an e-value, not a p-value: `extra.rounds` holds it
    head = headline_verdict(report.metrics, test)
    note = record.sentence()
    head.note = f"{head.note}; {note}" if head.note else note
    report.extra.headline = head
    return report
